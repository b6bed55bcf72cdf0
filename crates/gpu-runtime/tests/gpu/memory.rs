//! GPU tests of memory: pools, allocators, hooks, pinned memory, copies.
//! Each test skips without a device (`CUPRUM_TEST_REQUIRE_GPU=1` fails instead).

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use gpu_runtime::memory::{
    Allocator, AsyncAllocator, DebugPrintHook, DirectAllocator, PoolAllocator, alloc,
    get_allocator, set_allocator, using_allocator, with_hook,
};
use gpu_runtime::{
    Device, DevicePtr, Error, Memory, MemoryPool, PinnedMemoryPool, Result, Stream,
    allow_synchronize, memcpy_dtod, memcpy_dtoh, memcpy_dtoh_async, memcpy_htod, memcpy_htod_async,
    memcpy_htod_async_pinned, memcpy_peer, memset_d8, memset_d16, memset_d32,
};

use crate::common::{alone, bytes, shared, stream};

/// Serializes the tests that change or rely on the process-wide allocator.
static GLOBAL_ALLOCATOR: Mutex<()> = Mutex::new(());

/// Holds `stream` (a host function that blocks) until the returned sender
/// drops, so that work queued after it deterministically has not run yet.
fn hold(stream: &Stream) -> mpsc::Sender<()> {
    let (tx, rx) = mpsc::channel::<()>();
    stream
        .launch_host_func(move || {
            let _ = rx.recv();
        })
        .unwrap();
    tx
}

fn download(m: &Memory) -> Vec<u8> {
    let mut out = vec![0u8; m.size()];
    m.copy_to_host(&mut out).unwrap();
    out
}

#[test]
fn pool_allocates_reuses_and_counts() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let pool = MemoryPool::new(dev);
    assert_eq!(
        (pool.used_bytes(), pool.total_bytes(), pool.n_free_blocks()),
        (0, 0, 0)
    );
    let m = pool.malloc(400).unwrap();
    assert!(m.is_pooled());
    assert_ne!(m.ptr(), DevicePtr::NULL);
    assert_eq!(m.size(), 400);
    assert_eq!(m.device(), dev);
    assert_eq!((pool.used_bytes(), pool.total_bytes()), (512, 512));
    let p = m.ptr();
    drop(m);
    assert_eq!(
        (
            pool.used_bytes(),
            pool.total_bytes(),
            pool.free_bytes(),
            pool.n_free_blocks()
        ),
        (0, 512, 512, 1)
    );
    let m = pool.malloc(16).unwrap();
    assert_eq!(m.ptr(), p, "a cached block is reused on the same stream");
    drop(m);

    // Split and merge on the device pool.
    let big = pool.malloc(1 << 20).unwrap();
    let big_ptr = big.ptr();
    drop(big);
    let parts: Vec<Memory> = (0..4).map(|_| pool.malloc(1 << 18).unwrap()).collect();
    assert!(parts.iter().any(|m| m.ptr() == big_ptr));
    drop(parts);
    assert_eq!(
        pool.n_free_blocks(),
        2,
        "the 512-byte block and the merged 1 MiB"
    );

    let zero = pool.malloc(0).unwrap();
    assert_eq!((zero.ptr(), zero.size()), (DevicePtr::NULL, 0));
    drop(zero);

    pool.free_all_blocks().unwrap();
    assert_eq!(
        (pool.used_bytes(), pool.total_bytes(), pool.n_free_blocks()),
        (0, 0, 0)
    );
}

#[test]
fn pool_data_round_trips() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let pool = MemoryPool::new(dev);
    for (i, n) in [1usize, 511, 512, 513, 1_000_003].into_iter().enumerate() {
        let data = bytes(n, i as u64);
        let m = pool.malloc(n).unwrap();
        m.copy_from_host(&data).unwrap();
        assert_eq!(download(&m), data, "{n} bytes");
    }
}

#[test]
fn limit_gives_out_of_memory_with_the_figures() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let pool = MemoryPool::new(dev);
    assert_eq!(pool.get_limit(), 0);
    pool.set_limit(1 << 20);
    assert_eq!(pool.get_limit(), 1 << 20);
    let half = pool.malloc(1 << 19).unwrap();
    let e = pool.malloc(1 << 20).unwrap_err();
    assert!(
        matches!(
            e,
            Error::OutOfMemory {
                size: 1048576,
                used: 524288,
                total: 524288,
                ..
            }
        ),
        "{e:?}"
    );
    let text = e.to_string();
    assert!(text.contains("1048576 bytes"), "{text}");
    assert!(text.contains("limit: 1048576 bytes"), "{text}");
    // A cached block is released to make room.
    drop(half);
    assert_eq!(pool.total_bytes(), 1 << 19);
    let full = pool.malloc(1 << 20).unwrap();
    assert_eq!(pool.total_bytes(), 1 << 20);
    drop(full);
    pool.set_limit_fraction(0.5).unwrap();
    assert_eq!(pool.get_limit(), dev.properties().unwrap().total_memory / 2);
    assert!(pool.set_limit_fraction(1.5).is_err());
    pool.set_limit(0);
    assert_eq!(pool.get_limit(), 0);
}

#[test]
fn driver_out_of_memory_is_an_out_of_memory_error() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let pool = MemoryPool::new(dev);
    let too_much = dev.properties().unwrap().total_memory * 2;
    let e = pool.malloc(too_much).unwrap_err();
    assert!(
        matches!(e, Error::OutOfMemory { size, .. } if size == too_much),
        "{e:?}"
    );
    assert_eq!(pool.total_bytes(), 0);
    let e = DirectAllocator
        .malloc(too_much, dev, &Stream::current_on(dev))
        .unwrap_err();
    assert!(matches!(e, Error::OutOfMemory { .. }), "{e:?}");
}

#[test]
fn default_pool_and_alloc() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let _g = GLOBAL_ALLOCATOR.lock().unwrap_or_else(|p| p.into_inner());
    let pool = MemoryPool::default_pool(dev).unwrap();
    assert_eq!(pool.device(), dev);
    let m = alloc(1000).unwrap();
    assert!(m.is_pooled());
    assert!(pool.used_bytes() >= 1024);
    let data = bytes(1000, 9);
    m.copy_from_host(&data).unwrap();
    assert_eq!(download(&m), data);
    let z = alloc(0).unwrap();
    assert_eq!(z.ptr(), DevicePtr::NULL);
}

#[test]
fn direct_allocator_round_trips() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let s = Stream::current_on(dev);
    let m = DirectAllocator.malloc(123_457, dev, &s).unwrap();
    assert!(!m.is_pooled());
    let data = bytes(123_457, 3);
    m.copy_from_host(&data).unwrap();
    assert_eq!(download(&m), data);
}

#[test]
fn async_allocator_round_trips_or_is_unsupported() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let s = stream(dev);
    let r = AsyncAllocator.malloc(65_537, dev, &s);
    if !dev.properties().unwrap().memory_pools_supported {
        assert!(matches!(r, Err(Error::Unsupported(_))));
        return;
    }
    let m = r.unwrap();
    assert!(!m.is_pooled());
    let data = bytes(65_537, 4);
    m.copy_from_host_async(&data, &s).unwrap();
    let pinned = PinnedMemoryPool::default_pool().malloc(data.len()).unwrap();
    let back = m.copy_to_host_async(pinned, &s).unwrap().wait().unwrap();
    assert_eq!(back.as_slice(), &data[..]);
    // Used by another stream, then freed: the free waits for that stream.
    let other = stream(dev);
    m.record_stream(&other);
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    unsafe { memset_d8(m.ptr(), 1, m.size(), &other) }.unwrap();
    drop(m);
    s.synchronize().unwrap();
    other.synchronize().unwrap();
}

/// Counts its allocations; wraps DirectAllocator's memory in a user-freed
/// `Memory` to exercise `Memory::from_raw_with_free`.
#[derive(Default)]
struct Counting {
    mallocs: AtomicUsize,
    frees: Arc<AtomicUsize>,
}

impl Allocator for Counting {
    fn malloc(&self, size: usize, device: Device, stream: &Stream) -> Result<Memory> {
        self.mallocs.fetch_add(1, Ordering::SeqCst);
        let inner = DirectAllocator.malloc(size, device, stream)?;
        let frees = self.frees.clone();
        let (ptr, len) = (inner.ptr(), inner.size());
        // SAFETY: `inner` owns the memory and is dropped by the free function.
        Ok(unsafe {
            Memory::from_raw_with_free(ptr, len, device, move |_, _| {
                drop(inner);
                frees.fetch_add(1, Ordering::SeqCst);
            })
        })
    }
}

#[test]
fn custom_allocator_through_using_and_set_allocator() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let _g = GLOBAL_ALLOCATOR.lock().unwrap_or_else(|p| p.into_inner());
    let counting = Arc::new(Counting::default());
    {
        let _scope = using_allocator(counting.clone());
        let m = alloc(4096).unwrap();
        assert!(!m.is_pooled());
        assert_eq!(m.device(), dev);
        let data = bytes(4096, 5);
        m.copy_from_host(&data).unwrap();
        assert_eq!(download(&m), data);
        assert_eq!(counting.mallocs.load(Ordering::SeqCst), 1);
        {
            let _inner = using_allocator(Arc::new(PoolAllocator));
            assert!(alloc(16).unwrap().is_pooled());
        }
        drop(m);
        assert_eq!(counting.frees.load(Ordering::SeqCst), 1);
        assert!(!alloc(16).unwrap().is_pooled());
    }
    assert!(alloc(16).unwrap().is_pooled(), "the scope ended");
    assert_eq!(counting.mallocs.load(Ordering::SeqCst), 2);

    set_allocator(counting.clone());
    let m = alloc(100);
    let a = get_allocator();
    set_allocator(Arc::new(PoolAllocator));
    let m = m.unwrap();
    assert!(!m.is_pooled());
    assert!(Arc::ptr_eq(
        &(a as Arc<dyn Allocator>),
        &(counting.clone() as Arc<dyn Allocator>)
    ));
    assert_eq!(counting.mallocs.load(Ordering::SeqCst), 3);
    drop(m);
    assert_eq!(counting.frees.load(Ordering::SeqCst), 3);
    assert!(alloc(16).unwrap().is_pooled());
}

#[test]
fn unowned_memory_keeps_its_owner() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let pool = MemoryPool::new(dev);
    let base = pool.malloc(4096).unwrap();
    let data = bytes(4096, 6);
    base.copy_from_host(&data).unwrap();
    let ptr = base.ptr().offset(1024);
    // SAFETY: the range lies inside `base`, which the owner keeps alive.
    let view = unsafe { Memory::from_raw(ptr, 1024, dev, Some(Arc::new(base))) };
    assert!(!view.is_pooled());
    assert_eq!(download(&view), &data[1024..2048]);
    assert_eq!(pool.used_bytes(), 4096);
    drop(view);
    assert_eq!(pool.used_bytes(), 0, "dropping the view dropped its owner");
}

#[derive(Clone, Default)]
struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn debug_print_hook_reports_alloc_malloc_free() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let pool = MemoryPool::new(dev);
    let buf = SharedBuf::default();
    let (ptr, reuse_ptr) = {
        let _hook = with_hook(Arc::new(DebugPrintHook::with_writer(buf.clone(), false)));
        let m = pool.malloc(400).unwrap();
        let p = m.ptr();
        drop(m);
        let again = pool.malloc(300).unwrap();
        (p, again.ptr())
    };
    assert_eq!(ptr, reuse_ptr);
    let _ = pool.malloc(1).unwrap(); // not hooked any more
    let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
    let d = dev.ordinal();
    let p = ptr.0;
    let expected = format!(
        concat!(
            r#"{{"hook":"alloc","device_id":{d},"mem_size":512,"mem_ptr":{p}}}"#,
            "\n",
            r#"{{"hook":"malloc","device_id":{d},"size":400,"mem_size":512,"mem_ptr":{p},"pmem_id":"{p:#x}"}}"#,
            "\n",
            r#"{{"hook":"free","device_id":{d},"mem_size":512,"mem_ptr":{p},"pmem_id":"{p:#x}"}}"#,
            "\n",
            r#"{{"hook":"malloc","device_id":{d},"size":300,"mem_size":512,"mem_ptr":{p},"pmem_id":"{p:#x}"}}"#,
            "\n",
            r#"{{"hook":"free","device_id":{d},"mem_size":512,"mem_ptr":{p},"pmem_id":"{p:#x}"}}"#,
            "\n",
        ),
        d = d,
        p = p
    );
    assert_eq!(text, expected);
}

#[test]
fn pinned_pool_counts_and_frees() {
    let Some(_dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let pool = PinnedMemoryPool::new();
    assert_eq!(pool.n_free_blocks(), 0);
    let mut p = pool.malloc(400).unwrap();
    assert_eq!(p.len(), 400);
    p.as_mut_slice().copy_from_slice(&bytes(400, 7));
    assert_eq!(p.as_slice(), &bytes(400, 7)[..]);
    assert_eq!(
        (pool.used_bytes(), pool.total_bytes(), pool.n_free_blocks()),
        (512, 512, 0)
    );
    let addr = p.as_ptr();
    drop(p);
    assert_eq!(
        (pool.used_bytes(), pool.total_bytes(), pool.n_free_blocks()),
        (0, 512, 1)
    );
    let q = pool.malloc(512).unwrap();
    assert_eq!(q.as_ptr(), addr);
    drop(q);
    pool.free_all_blocks().unwrap();
    assert_eq!((pool.total_bytes(), pool.n_free_blocks()), (0, 0));
    let empty = pool.malloc(0).unwrap();
    assert!(empty.is_empty() && empty.as_slice().is_empty());
}

#[test]
fn pinned_block_in_flight_is_not_reused_before_its_copy() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _alone = alone();
    let pool = PinnedMemoryPool::new();
    let s = stream(dev);
    let n = 16 << 20;
    let d = MemoryPool::new(dev).malloc_on(n, &s).unwrap();
    // A cached block of the same size, so that no driver call happens
    // while the stream is held.
    let pre = pool.malloc(n).unwrap();
    let mut src = pool.malloc(n).unwrap();
    drop(pre);
    src.as_mut_slice().fill(0xAB);
    let src_addr = src.as_ptr();
    let gate = hold(&s);
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    unsafe { memcpy_htod_async_pinned(d.ptr(), src, &s) }.unwrap();
    assert_eq!(
        pool.n_free_blocks(),
        1,
        "the in-flight block counts as free"
    );
    let other = pool.malloc(n).unwrap();
    assert_ne!(
        other.as_ptr(),
        src_addr,
        "in-flight pinned block was reused"
    );
    drop(gate);
    s.synchronize().unwrap();
    drop(other);
    assert_eq!(pool.n_free_blocks(), 2);
    assert!(download(&d).iter().all(|&b| b == 0xAB));
}

#[test]
fn host_device_copies_round_trip() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let pool = MemoryPool::new(dev);
    let n = 3_000_017;
    let data = bytes(n, 8);
    let a = pool.malloc(n).unwrap();
    let b = pool.malloc(n).unwrap();

    // Synchronous, raw pointers.
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    unsafe { memcpy_htod(a.ptr(), &data) }.unwrap();
    let mut out = vec![0u8; n];
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    unsafe { memcpy_dtoh(&mut out, a.ptr()) }.unwrap();
    assert_eq!(out, data);

    // Asynchronous through pinned staging; the source may change at once.
    let s = stream(dev);
    let mut src = data.clone();
    src.reverse();
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    unsafe { memcpy_htod_async(b.ptr(), &src, &s) }.unwrap();
    src.fill(0);
    let pinned = PinnedMemoryPool::default_pool().malloc(n).unwrap();
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    let t = unsafe { memcpy_dtoh_async(pinned, b.ptr(), &s) }.unwrap();
    let back = t.wait().unwrap();
    let mut rev = data.clone();
    rev.reverse();
    assert_eq!(back.as_slice(), &rev[..]);

    // Synchronous upload from page-locked memory: staged, so the source
    // may be overwritten at once.
    let mut pinned_src = PinnedMemoryPool::default_pool().malloc(n).unwrap();
    pinned_src.as_mut_slice().copy_from_slice(&data);
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    unsafe { memcpy_htod(b.ptr(), pinned_src.as_slice()) }.unwrap();
    pinned_src.as_mut_slice().fill(0);
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    unsafe { memcpy_dtoh(&mut out, b.ptr()) }.unwrap();
    assert_eq!(out, data);

    // Device to device, raw and through Memory.
    let c = pool.malloc(n).unwrap();
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    unsafe { memcpy_dtod(c.ptr(), b.ptr().offset(1), n - 1, &s) }.unwrap();
    s.synchronize().unwrap();
    let got = download(&c);
    assert_eq!(&got[..n - 1], &data[1..]);
    let d = pool.malloc(n).unwrap();
    d.copy_from_device(&a, &Stream::current_on(dev)).unwrap();
    assert_eq!(download(&d), data);

    // Partial host copies.
    let mut head = vec![0u8; 100];
    a.copy_to_host(&mut head).unwrap();
    assert_eq!(&head[..], &data[..100]);
}

#[test]
fn memory_copies_check_lengths_and_devices() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let pool = MemoryPool::new(dev);
    let m = pool.malloc(100).unwrap();
    let e = m.copy_from_host(&[0u8; 101]).unwrap_err();
    assert!(matches!(e, Error::InvalidArgument(_)));
    assert!(e.to_string().contains("101 bytes"), "{e}");
    let e = m.copy_to_host(&mut [0u8; 200]).unwrap_err();
    assert!(e.to_string().contains("Memory::read_at"), "{e}");
    let big = pool.malloc(200).unwrap();
    assert!(m.copy_from_device(&big, &Stream::current_on(dev)).is_err());
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    let e = unsafe { memset_d32(m.ptr().offset(2), 0, 1, &Stream::current_on(dev)) }.unwrap_err();
    assert!(e.to_string().contains("aligned"), "{e}");
    if Device::count().unwrap() > 1 {
        let other = Device::new(1 - dev.ordinal().min(1)).unwrap();
        assert!(matches!(
            m.memset(0, &Stream::current_on(other)),
            Err(Error::DeviceMismatch { .. })
        ));
    }
}

#[test]
fn synchronous_download_respects_allow_synchronize() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let m = MemoryPool::new(dev).malloc(64).unwrap();
    let _g = allow_synchronize(false);
    let mut out = [0u8; 64];
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    let e = unsafe { memcpy_dtoh(&mut out, m.ptr()) }.unwrap_err();
    assert!(matches!(e, Error::DeviceSynchronized(_)), "{e:?}");
    assert!(m.copy_to_host(&mut out).is_err());
    // Uploads do not make the host wait.
    m.copy_from_host(&[1u8; 64]).unwrap();
}

#[test]
fn memsets_fill_every_width() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let s = stream(dev);
    let m = MemoryPool::new(dev).malloc_on(4096, &s).unwrap();
    let check = |expect: &dyn Fn(usize) -> u8| {
        s.synchronize().unwrap();
        let got = download(&m);
        for (i, &b) in got.iter().enumerate() {
            assert_eq!(b, expect(i), "byte {i}");
        }
    };
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    unsafe { memset_d8(m.ptr(), 0x5A, 4096, &s) }.unwrap();
    check(&|_| 0x5A);
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    unsafe { memset_d16(m.ptr(), 0x1234, 2048, &s) }.unwrap();
    check(&|i| if i % 2 == 0 { 0x34 } else { 0x12 });
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    unsafe { memset_d32(m.ptr(), 0xDEAD_BEEF, 1024, &s) }.unwrap();
    check(&|i| [0xEF, 0xBE, 0xAD, 0xDE][i % 4]);
    // A part only.
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    unsafe { memset_d8(m.ptr().offset(10), 0, 5, &s) }.unwrap();
    check(&|i| {
        if (10..15).contains(&i) {
            0
        } else {
            [0xEF, 0xBE, 0xAD, 0xDE][i % 4]
        }
    });
    m.memset(7, &s).unwrap();
    check(&|_| 7);
}

#[test]
fn peer_copies_between_devices() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let n = 1 << 20;
    let data = bytes(n, 10);
    let src = MemoryPool::new(dev).malloc(n).unwrap();
    src.copy_from_host(&data).unwrap();
    // Same device through the peer path.
    let dst = MemoryPool::new(dev).malloc(n).unwrap();
    let s = Stream::current_on(dev);
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    unsafe { memcpy_peer(dst.ptr(), dev, src.ptr(), dev, n, &s) }.unwrap();
    assert_eq!(download(&dst), data);
    if Device::count().unwrap() < 2 {
        gpu_runtime::testing::skip_part("a second device", "the cross-device copies");
        return;
    }
    let other = Device::new(if dev.ordinal() == 0 { 1 } else { 0 }).unwrap();
    s.synchronize().unwrap(); // the upload above is ordered on dev's stream only
    let remote = MemoryPool::new(other).malloc(n).unwrap();
    let so = Stream::current_on(other);
    remote.copy_from_device(&src, &so).unwrap();
    so.synchronize().unwrap();
    assert_eq!(download(&remote), data);
    let back = MemoryPool::new(dev).malloc(n).unwrap();
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    unsafe { memcpy_peer(back.ptr(), dev, remote.ptr(), other, n, &s) }.unwrap();
    assert_eq!(download(&back), data);
}

#[test]
fn same_stream_reuses_at_once() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let pool = MemoryPool::new(dev);
    let a = stream(dev);
    let n = 64 << 20;
    let m = pool.malloc_on(n, &a).unwrap();
    let p = m.ptr();
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    unsafe { memset_d32(m.ptr(), 1, n / 4, &a) }.unwrap();
    drop(m);
    let m2 = pool.malloc_on(n, &a).unwrap();
    assert_eq!(
        m2.ptr(),
        p,
        "stream order makes reuse on the same stream safe"
    );
    // Another stream's arena does not see it.
    let b = stream(dev);
    drop(m2);
    let m3 = pool.malloc_on(n, &b).unwrap();
    assert_ne!(m3.ptr(), p);
    a.synchronize().unwrap();
}

#[test]
fn block_used_by_another_stream_waits_for_it() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _alone = alone();
    let pool = MemoryPool::new(dev);
    let a = stream(dev);
    let b = stream(dev);
    let n = 64 << 20;
    // A cached block in a's arena, so that no driver call happens while b
    // is held.
    let pre = pool.malloc_on(n, &a).unwrap();
    let m = pool.malloc_on(n, &a).unwrap();
    drop(pre);
    let p0 = m.ptr();
    let gate = hold(&b);
    m.record_stream(&b);
    // SAFETY: the test's own allocation, sized for the copy (or a bad
    // address the test expects the driver to reject).
    unsafe { memset_d32(m.ptr(), 0x7, n / 4, &b) }.unwrap();
    drop(m);
    assert_eq!(pool.n_pending_blocks(), 1, "b has not run its memset yet");
    let m2 = pool.malloc_on(n, &a).unwrap();
    assert_ne!(m2.ptr(), p0, "reused before stream b caught up");
    drop(gate);
    b.synchronize().unwrap();
    drop(m2);
    assert_eq!(pool.n_pending_blocks(), 0);
    assert_eq!(pool.n_free_blocks(), 2);
    let m3 = pool.malloc_on(n, &a).unwrap();
    let m4 = pool.malloc_on(n, &a).unwrap();
    assert!(
        m3.ptr() == p0 || m4.ptr() == p0,
        "the block came back after b"
    );
    assert_eq!(pool.total_bytes(), 2 * n);
}

/// Host cost of a pool hit (alloc + free) through `MemoryPool::malloc_on`
/// and through `alloc`; the target is at most 0.3 us. Run with
/// `--ignored --nocapture` on a release build.
#[test]
#[ignore = "timing; prints ns per alloc+free pair"]
fn pool_hit_path_timing() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    let pool = MemoryPool::default_pool(dev).unwrap();
    let s = Stream::current_on(dev);
    for size in [16usize, 1 << 20] {
        drop(pool.malloc_on(size, &s).unwrap());
        let n = 200_000;
        let t = std::time::Instant::now();
        for _ in 0..n {
            drop(pool.malloc_on(std::hint::black_box(size), &s).unwrap());
        }
        let direct = t.elapsed().as_nanos() as f64 / n as f64;
        let t = std::time::Instant::now();
        for _ in 0..n {
            drop(alloc(std::hint::black_box(size)).unwrap());
        }
        let via_alloc = t.elapsed().as_nanos() as f64 / n as f64;
        println!(
            "alloc+free of {size} bytes: {direct:.0} ns (MemoryPool::malloc_on), {via_alloc:.0} ns (alloc)"
        );
    }
}

/// 10^6 allocate/free cycles of random sizes from 4 threads on 4 streams,
/// some blocks written and some announced to another stream (so fences are
/// made and polled): the books stay consistent and, once everything is
/// freed and released, the device's free memory is what it was.
#[test]
fn pool_soak_four_threads_four_streams() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _alone = alone();
    dev.synchronize().unwrap();
    let (free_before, _) = dev.mem_info().unwrap();
    let pool = MemoryPool::new(dev);
    let shared_stream = stream(dev);
    std::thread::scope(|scope| {
        for t in 0..4u64 {
            let pool = &pool;
            let other = &shared_stream;
            scope.spawn(move || {
                let s = stream(dev);
                let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ (t + 1);
                let mut next = move || {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x
                };
                let mut live: Vec<Memory> = Vec::new();
                for i in 0..250_000u64 {
                    let r = next();
                    // Mostly small, sometimes up to 4 MiB.
                    let size = if r % 16 == 0 {
                        1 + (r >> 8) as usize % (4 << 20)
                    } else {
                        1 + (r >> 8) as usize % 4096
                    };
                    let m = pool.malloc_on(size, &s).unwrap();
                    if i % 64 == 0 {
                        m.memset_at(0, size.min(256), 0xA5, &s).unwrap();
                    }
                    if i % 997 == 0 {
                        m.record_stream(other);
                    }
                    live.push(m);
                    if live.len() > 8 {
                        let k = (next() % live.len() as u64) as usize;
                        drop(live.swap_remove(k));
                    }
                }
                drop(live);
                s.synchronize().unwrap();
            });
        }
    });
    shared_stream.synchronize().unwrap();
    assert_eq!(pool.used_bytes(), 0);
    assert_eq!(pool.n_pending_blocks(), 0);
    pool.free_all_blocks().unwrap();
    assert_eq!(pool.total_bytes(), 0);
    drop(pool);
    dev.synchronize().unwrap();
    let (free_after, _) = dev.mem_info().unwrap();
    let drift = free_before.abs_diff(free_after);
    eprintln!("soak: device free memory {free_before} before, {free_after} after");
    // The device's free memory is shared with every process on it (the
    // parallel suite runs three): compared only when this runs alone.
    if std::env::var_os("CUPRUM_TEST_DEVICE_ALONE").is_some() {
        assert!(drift <= 64 << 20, "device memory moved by {drift} bytes");
    }
}

/// Allocation until the device is exhausted returns `OutOfMemory` naming
/// the size and the pool's figures; freeing then lets allocations succeed
/// again. Fills the whole device, so it runs alone: `--ignored`.
#[test]
#[ignore = "fills the device's memory: run on its own with --ignored"]
fn exhaustion_reports_out_of_memory_then_recovers() {
    let Some(dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _alone = alone();
    let pool = MemoryPool::new(dev);
    let s = Stream::current_on(dev);
    let mut held = Vec::new();
    for chunk in [1usize << 30, 64 << 20, 1 << 20] {
        loop {
            match pool.malloc_on(chunk, &s) {
                Ok(m) => held.push(m),
                Err(e) => {
                    let text = e.to_string();
                    assert!(
                        matches!(e, Error::OutOfMemory { size, .. } if size == chunk),
                        "{e:?}"
                    );
                    assert!(text.contains(&chunk.to_string()), "{text}");
                    assert!(text.contains("held by the pool"), "{text}");
                    eprintln!("exhausted at {} blocks: {text}", held.len());
                    break;
                }
            }
            assert!(held.len() < 1 << 20, "never ran out");
        }
    }
    let total: usize = held.iter().map(Memory::size).sum();
    assert!(
        total > dev.properties().unwrap().total_memory / 2,
        "{total}"
    );
    // Free half: a 1 GiB block fits again (its chunk is reused or the
    // cached ones are released to make room).
    let half = held.len() / 2;
    held.truncate(half);
    let m = pool.malloc_on(1 << 30, &s).unwrap();
    m.memset(1, &s).unwrap();
    drop(m);
    held.clear();
    pool.free_all_blocks().unwrap();
    assert_eq!(pool.total_bytes(), 0);
    let again = pool.malloc_on(8 << 30, &s).unwrap();
    again.memset(2, &s).unwrap();
    s.synchronize().unwrap();
}
