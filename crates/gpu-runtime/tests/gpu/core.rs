//! Tier-3 tests of devices, streams, events, the synchronization guard, NVTX
//! and the profiler switch. Each skips without a GPU unless
//! CUPRUM_TEST_REQUIRE_GPU=1 (the GPU pack sets it), and holds
//! [`shared`] while it runs, so that the memory tests that hold a stream
//! run alone.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use gpu_runtime::memory::Allocator;
use gpu_runtime::testing::{device_or_skip, skip_part};
use gpu_runtime::{
    Device, Error, Event, EventOptions, Stream, StreamOptions, allow_synchronize, nvtx,
};

use crate::common::{shared, test_name};

#[test]
fn device_count_and_properties() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    assert!(Device::count().unwrap() >= 1);
    let p = dev.properties().unwrap();
    assert!(!p.name.is_empty());
    assert!(p.compute_capability.0 >= 5, "{:?}", p.compute_capability);
    assert!(p.multiprocessor_count > 0);
    assert!(p.total_memory > (1 << 30));
    assert!(p.l2_cache_size > 0);
    assert!(p.shared_memory_per_block >= 48 * 1024);
    assert!(p.shared_memory_per_block_optin >= p.shared_memory_per_block);
    assert!(p.shared_memory_per_multiprocessor >= p.shared_memory_per_block);
    assert_eq!(p.warp_size, 32);
    assert!(p.arch().starts_with("sm_"));
    let (free, total) = dev.mem_info().unwrap();
    assert!(free > 0 && free <= total, "{free} {total}");
    assert_eq!(total, p.total_memory);
    dev.synchronize().unwrap();
    eprintln!(
        "device 0: {} ({}), {} SMs, {} GiB, L2 {} MiB",
        p.name,
        p.arch(),
        p.multiprocessor_count,
        p.total_memory >> 30,
        p.l2_cache_size >> 20
    );
}

#[test]
fn invalid_ordinal_is_an_error() {
    let Some(_dev) = device_or_skip() else { return };
    let _shared = shared();
    let n = Device::count().unwrap() as i32;
    let e = Device::new(n).unwrap_err();
    assert!(
        matches!(e, Error::InvalidDevice { ordinal, .. } if ordinal == n),
        "{e}"
    );
    assert!(Device::new(-1).is_err());
}

#[test]
fn peer_access_queries() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    // A device is never its own peer in the driver's sense, but enabling
    // access to itself is a no-op for us.
    dev.enable_peer_access(dev).unwrap();
    for other in 0..Device::count().unwrap() as i32 {
        let other = Device::new(other).unwrap();
        if other != dev && dev.can_access_peer(other).unwrap() {
            dev.enable_peer_access(other).unwrap();
            dev.enable_peer_access(other).unwrap(); // twice is fine
        }
    }
}

#[test]
fn current_device_guard_nests() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    assert_eq!(Device::current().unwrap(), dev);
    {
        let _g = dev.scoped().unwrap();
        assert_eq!(Device::current().unwrap(), dev);
    }
    assert_eq!(Device::current().unwrap(), dev);
}

/// The context current on this thread, as the driver sees it.
fn driver_current_context() -> gpu_runtime::sys::cuda::CUcontext {
    let mut ctx = std::ptr::null_mut();
    // SAFETY: writes one handle.
    let r = unsafe { gpu_runtime::sys::cuda::cuCtxGetCurrent(&mut ctx) }.unwrap();
    assert_eq!(r.0, 0, "cuCtxGetCurrent failed: {r:?}");
    ctx
}

#[test]
fn device_guards_dropped_out_of_order_keep_the_innermost() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let Ok(other) = Device::new(1) else {
        // With one device the guards can only name the same device; what
        // stays checkable is that the driver's context follows.
        let a = dev.scoped().unwrap();
        let b = dev.scoped().unwrap();
        drop(a);
        assert_eq!(Device::current().unwrap(), dev);
        assert_eq!(driver_current_context(), dev.context().unwrap());
        drop(b);
        assert_eq!(driver_current_context(), dev.context().unwrap());
        skip_part("a second device", "the two-device half");
        return;
    };
    assert_eq!(dev.ordinal(), 0);
    let a = dev.scoped().unwrap();
    let b = other.scoped().unwrap();
    // Restoring a's saved device 0 here would be the bug.
    drop(a);
    assert_eq!(Device::current().unwrap(), other);
    assert_eq!(driver_current_context(), other.context().unwrap());
    drop(b);
    assert_eq!(Device::current().unwrap(), dev);
    assert_eq!(driver_current_context(), dev.context().unwrap());

    let a = other.scoped().unwrap();
    let b = dev.scoped().unwrap();
    drop(a);
    assert_eq!(Device::current().unwrap(), dev);
    assert_eq!(driver_current_context(), dev.context().unwrap());
    // Restoring b's saved device 1 here would be the bug.
    drop(b);
    assert_eq!(Device::current().unwrap(), dev);
    assert_eq!(driver_current_context(), dev.context().unwrap());
}

#[test]
fn stream_guards_dropped_out_of_order_keep_the_innermost() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let base = Stream::current().unwrap();
    let (s1, s2) = (Stream::new().unwrap(), Stream::new().unwrap());
    let a = s1.use_stream();
    let b = s2.use_stream();
    drop(a);
    assert_eq!(Stream::current().unwrap(), s2, "b is still live");
    drop(b);
    assert_eq!(Stream::current().unwrap(), base, "a is gone (b saved s1)");

    // Guards of another device do not hide this device's.
    if let Ok(other) = Device::new(1) {
        let base_other = Stream::current_on(other);
        let t = Stream::with_options(other, StreamOptions::default()).unwrap();
        let a = s1.use_stream();
        let b = t.use_stream();
        assert_eq!(Stream::current_on(dev), s1);
        assert_eq!(Stream::current_on(other), t);
        drop(a);
        assert_eq!(Stream::current_on(dev), base);
        assert_eq!(Stream::current_on(other), t);
        drop(b);
        assert_eq!(Stream::current_on(other), base_other);
    }
}

/// Sets the thread's current context behind the runtime's back, as the
/// CUDA runtime or another library may.
fn set_context_behind_our_back(ctx: gpu_runtime::sys::cuda::CUcontext) {
    // SAFETY: a null context (unbinds) or a live one.
    let r = unsafe { gpu_runtime::sys::cuda::cuCtxSetCurrent(ctx) }.unwrap();
    assert_eq!(r.0, 0, "cuCtxSetCurrent failed: {r:?}");
}

#[test]
fn bind_notices_a_context_changed_by_foreign_code() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let primary = dev.context().unwrap();
    dev.bind().unwrap();
    assert_eq!(driver_current_context(), primary);

    // A cache of "what we bound last" would skip cuCtxSetCurrent here and
    // the driver would report CUDA_ERROR_INVALID_CONTEXT.
    set_context_behind_our_back(std::ptr::null_mut());
    let s = Stream::new().unwrap();
    assert_eq!(driver_current_context(), primary);
    s.synchronize().unwrap();

    set_context_behind_our_back(std::ptr::null_mut());
    let (free, total) = dev.mem_info().unwrap();
    assert!(free <= total);
    assert_eq!(driver_current_context(), primary);

    set_context_behind_our_back(std::ptr::null_mut());
    let null = Stream::null(dev);
    let m = gpu_runtime::memory::DirectAllocator
        .malloc(1024, dev, &null)
        .unwrap();
    assert_eq!(driver_current_context(), primary);
    set_context_behind_our_back(std::ptr::null_mut());
    m.memset_at(0, 1024, 0x5a, &null).unwrap();
    assert_eq!(driver_current_context(), primary);
    dev.synchronize().unwrap();
}

#[test]
fn streams_current_guard_and_kinds() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let null = Stream::current().unwrap();
    assert!(null.is_null());
    let s =
        Stream::with_options(dev, StreamOptions::default().non_blocking(true).priority(0)).unwrap();
    assert!(!s.raw().is_null());
    {
        let _g = s.use_stream();
        assert_eq!(Stream::current().unwrap(), s);
        let inner = Stream::new().unwrap();
        {
            let _h = inner.use_stream();
            assert_eq!(Stream::current().unwrap(), inner);
        }
        assert_eq!(Stream::current().unwrap(), s);
    }
    assert!(Stream::current().unwrap().is_null());
    assert!(s.query().unwrap());
    s.synchronize().unwrap();
    let (least, greatest) = Stream::priority_range().unwrap();
    assert!(greatest <= least);
    let hi = Stream::with_options(
        dev,
        StreamOptions::default()
            .non_blocking(false)
            .priority(greatest),
    )
    .unwrap();
    hi.synchronize().unwrap();
    let ptds = Stream::per_thread(dev);
    ptds.synchronize().unwrap();
    // An external stream wraps someone else's handle and never destroys it.
    // SAFETY: `s` outlives `ext`.
    let ext = unsafe { Stream::from_raw(s.raw(), dev) };
    ext.synchronize().unwrap();
    drop(ext);
    s.synchronize().unwrap();
    assert_ne!(s.id(), hi.id());
}

#[test]
fn host_callbacks_run_in_order() {
    let Some(_dev) = device_or_skip() else { return };
    let _shared = shared();
    let s = Stream::new().unwrap();
    let log = Arc::new(std::sync::Mutex::new(Vec::new()));
    for i in 0..5 {
        let log = log.clone();
        s.launch_host_func(move || log.lock().unwrap().push(i))
            .unwrap();
    }
    s.synchronize().unwrap();
    assert_eq!(*log.lock().unwrap(), vec![0, 1, 2, 3, 4]);
}

#[test]
fn events_order_and_time() {
    let Some(_dev) = device_or_skip() else { return };
    let _shared = shared();
    let s = Stream::new().unwrap();
    let start = Event::new(EventOptions::default()).unwrap();
    let end = Event::new(EventOptions::default()).unwrap();
    start.record(&s).unwrap();
    let hits = Arc::new(AtomicUsize::new(0));
    let h = hits.clone();
    s.launch_host_func(move || {
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.fetch_add(1, Ordering::SeqCst);
    })
    .unwrap();
    end.record(&s).unwrap();
    // A second stream waits on the event without the host waiting.
    let t = Stream::new().unwrap();
    t.wait_event(&end).unwrap();
    let seen = Arc::new(AtomicUsize::new(usize::MAX));
    let (h2, seen2) = (hits.clone(), seen.clone());
    t.launch_host_func(move || seen2.store(h2.load(Ordering::SeqCst), Ordering::SeqCst))
        .unwrap();
    end.synchronize().unwrap();
    assert!(end.query().unwrap());
    t.synchronize().unwrap();
    assert_eq!(seen.load(Ordering::SeqCst), 1, "t ran before the event");
    let ms = Event::elapsed_time(&start, &end).unwrap();
    assert!(ms >= 15.0, "elapsed {ms} ms");
    // Without timing, elapsed_time is the driver's error, not a panic.
    let a = Event::new(EventOptions::default().timing(false)).unwrap();
    a.record(&s).unwrap();
    s.synchronize().unwrap();
    assert!(Event::elapsed_time(&a, &a).is_err());
    let blocking = Event::new(EventOptions::default().blocking(true)).unwrap();
    blocking.record(&s).unwrap();
    blocking.synchronize().unwrap();
}

#[test]
fn synchronization_guard_forbids_every_sync() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let s = Stream::new().unwrap();
    let e = s.record().unwrap();
    {
        let _g = allow_synchronize(false);
        for r in [s.synchronize(), e.synchronize(), dev.synchronize()] {
            assert!(matches!(r, Err(Error::DeviceSynchronized(_))), "{r:?}");
        }
        // Non-blocking queries stay allowed.
        s.query().unwrap();
    }
    s.synchronize().unwrap();
}

#[test]
fn nvtx_and_profiler() {
    let Some(_dev) = device_or_skip() else { return };
    let _shared = shared();
    eprintln!("NVTX library available: {}", nvtx::nvtx_available());
    nvtx::mark("cuprum mark").unwrap();
    nvtx::mark_with_color("cuprum colored mark", 0xff336699).unwrap();
    {
        let _r = nvtx::time_range("cuprum range", None).unwrap();
        nvtx::range_push("inner").unwrap();
        nvtx::range_pop();
    }
    // Without a profiler attached these succeed and do nothing.
    let _p = nvtx::profile().unwrap();
}

/// A per-thread stream belongs to its thread: one value per thread (so one
/// pool arena), and another thread cannot queue work through it, since its
/// handle (2) would mean that thread's own stream there.
#[test]
fn per_thread_stream_stays_on_its_thread() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let mine = Stream::per_thread(dev);
    assert_eq!(mine.id(), Stream::per_thread(dev).id(), "one per thread");
    assert_eq!(mine, Stream::per_thread(dev));
    let pool = gpu_runtime::MemoryPool::new(dev);
    let m = pool.malloc_on(4096, &mine).unwrap();
    m.memset(7, &mine).unwrap();
    mine.synchronize().unwrap();
    let sent = mine.clone();
    let theirs = std::thread::spawn(move || {
        let own = Stream::per_thread(dev);
        assert_ne!(own, sent, "another thread's per-thread stream");
        let e = sent.synchronize().unwrap_err();
        assert!(e.to_string().contains("per-thread default stream"), "{e}");
        assert!(sent.handle().is_err());
        assert!(
            m.memset(1, &sent).is_err(),
            "a launch on another thread's stream"
        );
        assert!(sent.query().is_err());
        // Work on this thread's own per-thread stream runs.
        m.memset(9, &own).unwrap();
        own.synchronize().unwrap();
        let mut host = vec![0u8; 4096];
        m.read_at(0, &mut host, &own).unwrap();
        assert!(host.iter().all(|&b| b == 9));
        // Dropped here, allocated on the other thread's stream: ordered
        // through the legacy stream, no error, no panic.
        drop(m);
        own.id()
    })
    .join()
    .unwrap();
    assert_ne!(theirs, mine.id());
    // The block freed on the other thread is whole again in the pool.
    let again = pool.malloc_on(4096, &mine).unwrap();
    again.memset(3, &mine).unwrap();
    let mut host = vec![0u8; 4096];
    again.read_at(0, &mut host, &mine).unwrap();
    assert!(host.iter().all(|&b| b == 3));
}

/// An asynchronous launch that fails is reported to the call that waits for
/// it (here the device-to-host copy), not swallowed. The failure poisons the
/// context, so the test runs it in a child process of this binary.
#[test]
fn a_failing_launch_is_reported_by_the_waiting_copy() {
    if std::env::var_os("CUPRUM_TEST_FAULT_CHILD").is_some() {
        return failing_launch_child();
    }
    let Some(_dev) = device_or_skip() else { return };
    let _shared = shared();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            &test_name(
                module_path!(),
                "a_failing_launch_is_reported_by_the_waiting_copy",
            ),
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("CUPRUM_TEST_FAULT_CHILD", "1")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "child failed:\n{text}");
    assert!(text.contains("copy reported: "), "{text}");
    assert!(text.contains("synchronize reported: "), "{text}");
}

fn failing_launch_child() {
    use gpu_runtime::{LaunchConfig, RawKernel, alloc, kernel_args};
    let dev = Device::new(0).unwrap();
    let k = RawKernel::new(
        "extern \"C\" __global__ void cuprum_test_trap(int* p) { if (threadIdx.x == 0) __trap(); p[threadIdx.x] = 1; }",
        "cuprum_test_trap",
        &[],
    )
    .unwrap();
    let m = alloc(128).unwrap();
    let stream = Stream::current_on(dev);
    // SAFETY: one int* argument, pointing at 128 bytes (32 ints).
    unsafe {
        k.launch(
            &LaunchConfig::new((1, 1, 1), (32, 1, 1)),
            &stream,
            &kernel_args![m.ptr()],
        )
    }
    .unwrap();
    let mut host = [0u8; 128];
    let e = m.read_at(0, &mut host, &stream).unwrap_err();
    println!("copy reported: {e}");
    let e = dev.synchronize().unwrap_err();
    println!("synchronize reported: {e}");
    // Dropping the memory after the failure must not panic or abort.
    drop(m);
}
