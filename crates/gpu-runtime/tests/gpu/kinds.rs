//! GPU tests of the CUDA runtime's other memory kinds and calls: registered
//! and mapped host memory, managed memory, pitched 2-D/3-D copies, pointer
//! attributes, IPC between two processes, limits, PCI bus ids, versions,
//! external streams, explicit destroys, memory pointers and the pinned
//! allocator. Each test skips without a device (`CUPRUM_TEST_REQUIRE_GPU=1`
//! fails instead); every result is checked against a host oracle.

use std::sync::Arc;

use gpu_runtime::ipc::{IpcEventHandle, IpcMemHandle};
use gpu_runtime::memory::{
    DirectPinnedAllocator, HostAllocFlags, HostAllocation, HostRegisterFlags, HostRegistration,
    ManagedAttach, MemAdvice, MemLocation, MemoryPointer, PinnedMemoryPointer, PinnedMemoryPool,
    UnownedMemory, alloc, alloc_pinned_memory, get_pinned_memory_allocator, malloc_managed,
    set_pinned_memory_allocator,
};
use gpu_runtime::sys::cuda::CUdevice_attribute;
use gpu_runtime::testing::{device_or_skip, skip_part};
use gpu_runtime::{
    CopyDst, CopySrc, Device, DevicePtr, Error, Event, EventOptions, Extent, ExternalStream, Limit,
    MemoryType, PitchedLayout, PointerAttributes, Stream, allow_synchronize, driver, memcpy_2d,
    memcpy_2d_async, memcpy_2d_to_host_async, memcpy_3d, memcpy_3d_async, memcpy_3d_to_host_async,
    memcpy_dtod, runtime,
};

use crate::common::{alone, bytes, shared, stream, test_name};

/// The host oracle of a pitched copy: `extent` from `src` laid out as
/// `sl` into `dst` laid out as `dl`.
fn copy_oracle(dst: &mut [u8], dl: PitchedLayout, src: &[u8], sl: PitchedLayout, e: Extent) {
    let rows = |l: PitchedLayout| {
        if l.rows_per_slice == 0 {
            e.height
        } else {
            l.rows_per_slice
        }
    };
    for z in 0..e.depth {
        for y in 0..e.height {
            let s = sl.offset + z * sl.pitch * rows(sl) + y * sl.pitch;
            let d = dl.offset + z * dl.pitch * rows(dl) + y * dl.pitch;
            dst[d..d + e.width].copy_from_slice(&src[s..s + e.width]);
        }
    }
}

#[test]
fn registered_host_memory_is_page_locked_mapped_and_unpinned_on_drop() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let mut data = bytes(1 << 16, 1);
    let expect = data.clone();
    let addr = data.as_ptr() as u64;
    assert_eq!(
        PointerAttributes::of(addr).unwrap().memory_type,
        MemoryType::Unregistered
    );
    {
        let reg =
            HostRegistration::new(&mut data, HostRegisterFlags::default().mapped(true)).unwrap();
        assert_eq!(reg.size(), 1 << 16);
        let a = PointerAttributes::of(addr).unwrap();
        assert_eq!(a.memory_type, MemoryType::Host);
        assert_eq!(a.host_pointer, Some(addr as usize));
        // The device reads the buffer through its mapped address.
        let dptr = reg.device_ptr().unwrap();
        assert_ne!(dptr, DevicePtr::NULL);
        let m = alloc(1 << 16).unwrap();
        let s = Stream::current_on(dev);
        // SAFETY: both ranges are 64 KiB and live until the synchronize.
        unsafe { memcpy_dtod(m.ptr(), dptr, 1 << 16, &s).unwrap() };
        s.synchronize().unwrap();
        let mut back = vec![0u8; 1 << 16];
        m.copy_to_host(&mut back).unwrap();
        assert_eq!(back, expect);
        // Registering the same range twice is the driver's error, not UB.
        let mut again = reg;
        let inner = again.as_mut_slice();
        assert!(HostRegistration::new(inner, HostRegisterFlags::default()).is_err());
        again.unregister().unwrap();
    }
    assert_eq!(
        PointerAttributes::of(addr).unwrap().memory_type,
        MemoryType::Unregistered,
        "unpinned"
    );
    // Not mapped: no device address.
    let reg = runtime::host_register(&mut data, HostRegisterFlags::default()).unwrap();
    assert!(matches!(reg.device_ptr(), Err(Error::InvalidArgument(_))));
    runtime::host_unregister(reg).unwrap();
    // Read-only, where the device has it.
    let ro = HostRegisterFlags::default().read_only(true);
    if dev
        .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED)
        .unwrap()
        != 0
    {
        let reg = HostRegistration::new(&mut data, ro).unwrap();
        assert!(reg.flags().read_only);
    } else {
        assert!(matches!(
            HostRegistration::new(&mut data, ro),
            Err(Error::Unsupported(_))
        ));
    }
    // An empty buffer pins nothing.
    let mut empty: [u32; 0] = [];
    let reg = HostRegistration::new(&mut empty, HostRegisterFlags::default()).unwrap();
    assert_eq!(reg.size(), 0);
}

#[test]
fn host_allocations_honour_their_flags_and_map_into_the_device() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let s = Stream::current_on(dev);
    for bits in 0..8 {
        let flags = HostAllocFlags::from_bits(bits).unwrap();
        let mut h = runtime::host_alloc(4096, flags).unwrap();
        assert_eq!(h.flags(), flags);
        assert!(h.as_slice().iter().all(|&b| b == 0), "zeroed");
        let a = PointerAttributes::of(h.as_ptr() as u64).unwrap();
        assert_eq!(a.memory_type, MemoryType::Host, "flags {bits}");
        let data = bytes(4096, 2 + u64::from(bits));
        h.as_mut_slice().copy_from_slice(&data);
        if flags.mapped {
            let m = alloc(4096).unwrap();
            // SAFETY: 4096 bytes on both sides, waited for below.
            unsafe { memcpy_dtod(m.ptr(), h.device_ptr().unwrap(), 4096, &s).unwrap() };
            h.record(&s).unwrap();
            let mut back = vec![0u8; 4096];
            m.copy_to_host(&mut back).unwrap();
            assert_eq!(back, data, "flags {bits}");
        } else {
            assert!(h.device_ptr().is_err());
        }
        runtime::free_host(h).unwrap();
    }
    assert!(
        HostAllocation::new(0, HostAllocFlags::default())
            .unwrap()
            .is_empty()
    );
}

#[test]
fn managed_memory_migrates_takes_advice_and_never_exceeds_free_memory() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    if dev
        .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY)
        .unwrap()
        == 0
    {
        assert!(matches!(
            malloc_managed(4096, ManagedAttach::Global),
            Err(Error::Unsupported(_))
        ));
        return;
    }
    let n = 1 << 20;
    let m = malloc_managed(n, ManagedAttach::Global).unwrap();
    assert!(m.is_managed().unwrap());
    let a = PointerAttributes::of(m.ptr().raw()).unwrap();
    assert_eq!(a.memory_type, MemoryType::Managed);
    assert_eq!(a.device_pointer, Some(m.ptr()));
    let data = bytes(n, 3);
    m.copy_from_host(&data).unwrap();
    let s = stream(dev);
    let concurrent = dev
        .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS)
        .unwrap()
        != 0;
    if concurrent {
        m.prefetch_async(MemLocation::Device(dev), &s).unwrap();
        m.prefetch_range_async(n / 2, n / 2, MemLocation::Host, &s)
            .unwrap();
        runtime::mem_prefetch_async(&m, MemLocation::from_device_id(-1).unwrap(), &s).unwrap();
        s.synchronize().unwrap();
        for advice in [
            MemAdvice::SetReadMostly,
            MemAdvice::UnsetReadMostly,
            MemAdvice::SetPreferredLocation(MemLocation::Device(dev)),
            MemAdvice::UnsetPreferredLocation,
            MemAdvice::SetAccessedBy(MemLocation::Device(dev)),
            MemAdvice::UnsetAccessedBy(MemLocation::Device(dev)),
        ] {
            runtime::mem_advise(&m, advice).unwrap_or_else(|e| panic!("{advice:?}: {e}"));
        }
    } else {
        assert!(matches!(
            m.prefetch_async(MemLocation::Device(dev), &s),
            Err(Error::Unsupported(_))
        ));
        skip_part(
            "concurrent managed access",
            "prefetch and advice on the device",
        );
    }
    // The data survived the migrations.
    let mut back = vec![0u8; n];
    m.read_at(0, &mut back, &s).unwrap();
    assert_eq!(back, data);
    // Ranges are checked, ordinary memory is refused.
    assert!(matches!(
        m.prefetch_range_async(n, 1, MemLocation::Host, &s),
        Err(Error::InvalidArgument(_))
    ));
    let plain = alloc(4096).unwrap();
    assert!(!plain.is_managed().unwrap());
    let e = plain.advise(MemAdvice::SetReadMostly).unwrap_err();
    assert!(e.to_string().contains("not managed memory"), "{e}");
    runtime::free(m).unwrap();
    // More than the device has free is refused before the driver.
    let (free, _) = dev.mem_info().unwrap();
    let e = malloc_managed(free + (1 << 30), ManagedAttach::Host).unwrap_err();
    assert!(matches!(e, Error::OutOfMemory { .. }), "{e:?}");
    assert!(e.to_string().contains("free on device"), "{e}");
}

#[test]
fn pitched_copies_match_the_host_oracle_in_every_direction() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let s = stream(dev);
    // A 37x23 image with 48-byte rows on the host; a region of it.
    let (w, h, pitch) = (37, 23, 48);
    let image = bytes(pitch * h, 4);
    let src_l = PitchedLayout::new(pitch).offset(pitch * 2 + 5);
    let e = Extent::new_2d(w - 9, h - 4);
    // Host -> device (blocking) into 64-byte rows, then back to the host.
    let dev_l = PitchedLayout::new(64).offset(64);
    let d = alloc(64 * h + 64).unwrap();
    d.memset(0xee, &s).unwrap();
    memcpy_2d(
        CopyDst::Device(&d),
        dev_l,
        CopySrc::Host(&image),
        src_l,
        e,
        &s,
    )
    .unwrap();
    let mut expect = vec![0xeeu8; 64 * h + 64];
    copy_oracle(&mut expect, dev_l, &image, src_l, e);
    let mut whole = vec![0u8; d.size()];
    d.read_at(0, &mut whole, &s).unwrap();
    assert_eq!(whole, expect, "host to device");
    let mut packed = vec![0u8; e.width * e.height];
    let packed_l = PitchedLayout::new(e.width);
    memcpy_2d(
        CopyDst::Host(&mut packed),
        packed_l,
        CopySrc::Device(&d),
        dev_l,
        e,
        &s,
    )
    .unwrap();
    let mut want = vec![0u8; packed.len()];
    copy_oracle(&mut want, packed_l, &image, src_l, e);
    assert_eq!(packed, want, "device to host");
    // Device -> device and host -> device, asynchronously.
    let d2 = alloc(e.width * e.height).unwrap();
    memcpy_2d_async(&d2, packed_l, CopySrc::Device(&d), dev_l, e, &s).unwrap();
    let t = memcpy_2d_to_host_async(
        alloc_pinned_memory(packed.len()).unwrap(),
        packed_l,
        &d2,
        packed_l,
        e,
        &s,
    )
    .unwrap();
    assert_eq!(
        t.wait().unwrap().as_slice(),
        want.as_slice(),
        "device to device"
    );
    let d3 = alloc(64 * h + 64).unwrap();
    d3.memset(0xee, &s).unwrap();
    {
        let mut temp = image.clone();
        memcpy_2d_async(&d3, dev_l, CopySrc::Host(&temp), src_l, e, &s).unwrap();
        // Staged: the copy reads a pinned copy, not `temp`, so overwriting
        // it before the copy runs changes nothing on the device.
        temp.fill(0x5a);
        drop(temp);
    }
    let mut whole3 = vec![0u8; d3.size()];
    d3.read_at(0, &mut whole3, &s).unwrap();
    assert_eq!(whole3, expect, "host to device, async");

    // 3-D: a 5x4x3 block out of a 16-byte, 6-row-per-slice volume.
    let vol_l = PitchedLayout::new(16).rows_per_slice(6).offset(16 + 2);
    let volume = bytes(16 * 6 * 4, 5);
    let e3 = Extent::new_3d(5, 4, 3);
    let cube_l = PitchedLayout::new(5);
    let mut want3 = vec![0u8; 5 * 4 * 3];
    copy_oracle(&mut want3, cube_l, &volume, vol_l, e3);
    let v = alloc(volume.len()).unwrap();
    v.write_at(0, &volume, &s).unwrap();
    let mut cube = vec![0u8; want3.len()];
    memcpy_3d(
        CopyDst::Host(&mut cube),
        cube_l,
        CopySrc::Device(&v),
        vol_l,
        e3,
        &s,
    )
    .unwrap();
    assert_eq!(cube, want3, "3-D device to host");
    let c = alloc(want3.len()).unwrap();
    memcpy_3d_async(&c, cube_l, CopySrc::Host(&volume), vol_l, e3, &s).unwrap();
    let t = memcpy_3d_to_host_async(
        alloc_pinned_memory(want3.len()).unwrap(),
        cube_l,
        &c,
        cube_l,
        e3,
        &s,
    )
    .unwrap();
    assert_eq!(
        t.wait().unwrap().as_slice(),
        want3.as_slice(),
        "3-D round trip"
    );
    let back = alloc(volume.len()).unwrap();
    back.memset(0, &s).unwrap();
    memcpy_3d(
        CopyDst::Device(&back),
        vol_l,
        CopySrc::Device(&c),
        cube_l,
        e3,
        &s,
    )
    .unwrap();
    let mut got = vec![0u8; volume.len()];
    back.read_at(0, &mut got, &s).unwrap();
    let mut want_vol = vec![0u8; volume.len()];
    copy_oracle(&mut want_vol, vol_l, &want3, cube_l, e3);
    assert_eq!(got, want_vol, "3-D device to device");

    // Within one memory: interleaved column ranges are copied, blocks that
    // share bytes are refused.
    let img = alloc(32 * 8).unwrap();
    let pattern = bytes(32 * 8, 6);
    img.write_at(0, &pattern, &s).unwrap();
    let half = Extent::new_2d(16, 8);
    memcpy_2d_async(
        &img,
        PitchedLayout::new(32).offset(16),
        CopySrc::Device(&img),
        PitchedLayout::new(32),
        half,
        &s,
    )
    .unwrap();
    let mut want_img = pattern.clone();
    copy_oracle(
        &mut want_img,
        PitchedLayout::new(32).offset(16),
        &pattern,
        PitchedLayout::new(32),
        half,
    );
    let mut got_img = vec![0u8; 32 * 8];
    img.read_at(0, &mut got_img, &s).unwrap();
    assert_eq!(got_img, want_img, "left halves copied onto right halves");
    let err = memcpy_2d_async(
        &img,
        PitchedLayout::new(32).offset(1),
        CopySrc::Device(&img),
        PitchedLayout::new(32),
        half,
        &s,
    )
    .unwrap_err();
    assert!(err.to_string().contains("share bytes"), "{err}");

    // Bad layouts never reach the device.
    let small = alloc(100).unwrap();
    let err = memcpy_2d(
        CopyDst::Device(&small),
        PitchedLayout::new(10),
        CopySrc::Host(&image),
        PitchedLayout::new(pitch),
        Extent::new_2d(10, 11),
        &s,
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("past the end of its buffer"),
        "{err}"
    );
    // A blocking copy is a synchronization.
    let _no = allow_synchronize(false);
    let err = memcpy_2d(
        CopyDst::Device(&small),
        PitchedLayout::new(10),
        CopySrc::Device(&d),
        PitchedLayout::new(64),
        Extent::new_2d(10, 10),
        &s,
    )
    .unwrap_err();
    assert!(matches!(err, Error::DeviceSynchronized(_)), "{err:?}");
}

#[test]
fn pointer_attributes_describe_each_kind() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let m = alloc(1000).unwrap();
    let a = runtime::pointer_get_attributes(m.ptr().raw()).unwrap();
    assert_eq!(a.memory_type, MemoryType::Device);
    assert_eq!(a.device, Some(dev));
    assert_eq!(a.device_pointer, Some(m.ptr()));
    assert!(!a.is_managed);
    let (start, len) = a.range.expect("a device allocation has a range");
    assert!(start.raw() <= m.ptr().raw() && m.ptr().raw() + 1000 <= start.raw() + len as u64);
    let pinned = PinnedMemoryPool::default_pool().malloc(64).unwrap();
    let p = PointerAttributes::of(pinned.as_ptr() as u64).unwrap();
    assert_eq!(p.memory_type, MemoryType::Host);
    let pageable = [1u8; 64];
    let u = PointerAttributes::of(pageable.as_ptr() as u64).unwrap();
    assert_eq!(
        (u.memory_type, u.device, u.range),
        (MemoryType::Unregistered, None, None)
    );
}

#[test]
fn limits_pci_ids_and_versions() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    for l in [
        Limit::StackSize,
        Limit::PrintfFifoSize,
        Limit::MallocHeapSize,
    ] {
        assert!(dev.limit(l).unwrap() > 0, "{l:?}");
    }
    // The stack size may change at any time (the printf FIFO and the heap
    // not after a kernel that uses them ran, which other tests may do).
    let stack = runtime::device_get_limit(Limit::StackSize).unwrap();
    runtime::device_set_limit(Limit::StackSize, stack + 1024).unwrap();
    assert!(dev.limit(Limit::StackSize).unwrap() >= stack + 1024);
    dev.set_limit(Limit::StackSize, stack).unwrap();
    assert!(matches!(
        dev.set_limit(Limit::MaxL2FetchGranularity, 129),
        Err(Error::InvalidArgument(_))
    ));

    let id = dev.pci_bus_id().unwrap();
    assert!(
        id.eq_ignore_ascii_case(&dev.properties().unwrap().pci_bus_id),
        "{id}"
    );
    assert_eq!(Device::from_pci_bus_id(&id).unwrap(), dev);
    assert_eq!(Device::from_pci_bus_id(&id.to_lowercase()).unwrap(), dev);
    assert_eq!(
        runtime::device_get_by_pci_bus_id(&runtime::device_get_pci_bus_id(dev.ordinal()).unwrap())
            .unwrap(),
        dev.ordinal()
    );
    assert!(matches!(
        Device::from_pci_bus_id("not a bus"),
        Err(Error::InvalidArgument(_))
    ));
    // A well-formed id of no device is the driver's error.
    assert!(Device::from_pci_bus_id("ffff:ff:1f.7").is_err());

    let drv = runtime::driver_get_version().unwrap();
    assert!(drv >= 11000, "{drv}");
    match runtime::runtime_get_version() {
        Ok(rt) => {
            let (major, minor) = gpu_runtime::nvrtc::version().unwrap();
            assert_eq!(rt, major * 1000 + minor * 10);
        }
        Err(e) => skip_part("NVRTC", &format!("the runtime version: {e}")),
    }
    assert_eq!(driver::driver_version().unwrap(), drv);
}

#[test]
fn external_streams_are_used_and_never_destroyed_and_destroys_report() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let mine = stream(dev);
    {
        // SAFETY: `mine` outlives `ext` and its clones.
        let ext = unsafe { ExternalStream::new(mine.raw(), dev) };
        let m = alloc(256).unwrap();
        m.memset(7, &ext).unwrap();
        let mut back = [0u8; 256];
        m.read_at(0, &mut back, &ext).unwrap();
        assert_eq!(back, [7; 256]);
        let as_stream: Stream = ext.clone().into_stream();
        assert_eq!(as_stream.raw(), mine.raw());
        let e = as_stream.destroy().unwrap_err();
        assert!(e.to_string().contains("not created by Cuprum"), "{e}");
    }
    // Dropping the external handles left `mine` alive.
    mine.synchronize().unwrap();
    let clone = mine.clone();
    let e = runtime::stream_destroy(mine).unwrap_err();
    assert!(e.to_string().contains("other handles"), "{e}");
    runtime::stream_destroy(clone).unwrap();
    assert!(Stream::null(dev).destroy().is_err());

    let ev = Event::new(EventOptions::default()).unwrap();
    assert!(!ev.is_interprocess());
    assert!(matches!(ev.ipc_handle(), Err(Error::InvalidArgument(_))));
    runtime::event_destroy(ev).unwrap();
}

#[test]
fn memory_pointers_and_unowned_memory_stay_in_bounds() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let mem = Arc::new(alloc(64).unwrap());
    let base = MemoryPointer::from(mem.clone());
    let mid = base.add(16).unwrap();
    assert_eq!(mid.ptr(), mem.ptr().offset(16));
    mid.copy_from_host(&[9; 48]).unwrap();
    base.memset(1, 16).unwrap();
    let mut back = [0u8; 64];
    base.copy_to_host(&mut back).unwrap();
    assert_eq!(&back[..16], &[1; 16]);
    assert_eq!(&back[16..], &[9; 48]);
    assert!(matches!(
        mid.copy_from_host(&[0; 49]),
        Err(Error::InvalidArgument(_))
    ));
    let other = MemoryPointer::from(alloc(64).unwrap());
    other.copy_from_device(&mid, 48).unwrap();
    let t = other
        .copy_to_host_async(alloc_pinned_memory(48).unwrap(), &Stream::current_on(dev))
        .unwrap();
    assert_eq!(t.wait().unwrap().as_slice(), [9; 48]);

    // UnownedMemory finds the device from the pointer and frees nothing.
    // SAFETY: `mem` (the owner) keeps the 48 bytes alive.
    let view = unsafe { UnownedMemory::new(mid.ptr(), 48) }
        .owner(mem.clone())
        .into_memory()
        .unwrap();
    assert_eq!(view.device(), dev);
    let mut v = [0u8; 48];
    view.copy_to_host(&mut v).unwrap();
    assert_eq!(v, [9; 48]);
    drop(view);
    base.copy_to_host(&mut back).unwrap(); // still alive
    // Memory the driver does not know, or overrunning its allocation.
    let host = [0u8; 64];
    // SAFETY: refused before any use.
    let r = unsafe { UnownedMemory::new(DevicePtr(host.as_ptr() as u64), 64) }.into_memory();
    assert!(matches!(r, Err(Error::InvalidArgument(_))), "{r:?}");
    let range = PointerAttributes::of(mem.ptr().raw())
        .unwrap()
        .range
        .unwrap();
    let end = range.0.raw() + range.1 as u64;
    // SAFETY: refused before any use.
    let r = unsafe { UnownedMemory::new(DevicePtr(end - 8), 16) }.into_memory();
    assert!(matches!(r, Err(Error::InvalidArgument(_))), "{r:?}");
}

/// Puts the default pinned allocator back even when the test fails.
struct RestorePinned;

impl Drop for RestorePinned {
    fn drop(&mut self) {
        set_pinned_memory_allocator(Arc::new(PinnedMemoryPool::default_pool().clone()));
    }
}

#[test]
fn the_pinned_allocator_can_be_replaced_and_copies_stage_through_it() {
    let Some(dev) = device_or_skip() else { return };
    let _alone = alone();
    let _restore = RestorePinned;
    set_pinned_memory_allocator(Arc::new(DirectPinnedAllocator));
    let before = PinnedMemoryPool::default_pool().used_bytes();
    let mut block = alloc_pinned_memory(1 << 16).unwrap();
    assert_eq!(
        PinnedMemoryPool::default_pool().used_bytes(),
        before,
        "not from the pool"
    );
    assert_eq!(
        PointerAttributes::of(block.as_ptr() as u64)
            .unwrap()
            .memory_type,
        MemoryType::Host
    );
    block.as_mut_slice().copy_from_slice(&bytes(1 << 16, 6));
    let p = PinnedMemoryPointer::from(block);
    assert_eq!(p.add(100).unwrap().as_slice(), &bytes(1 << 16, 6)[100..]);
    let block = p.into_memory().unwrap();
    // An asynchronous upload stages through the direct allocator.
    let m = alloc(1 << 16).unwrap();
    let s = stream(dev);
    m.write_at_async(0, block.as_slice(), &s).unwrap();
    let mut back = vec![0u8; 1 << 16];
    m.read_at(0, &mut back, &s).unwrap();
    assert_eq!(back, block.as_slice());
    drop(block);
    assert!(get_pinned_memory_allocator().malloc(0).unwrap().is_empty());
}

#[test]
fn explicit_frees_report_the_drivers_answer() {
    let Some(_dev) = device_or_skip() else { return };
    let _shared = shared();
    let _direct =
        gpu_runtime::memory::using_allocator(Arc::new(gpu_runtime::memory::DirectAllocator));
    let m = alloc(1 << 20).unwrap();
    assert!(!m.is_pooled());
    m.free().unwrap();
    let pooled = {
        drop(_direct);
        alloc(1 << 10).unwrap()
    };
    assert!(pooled.is_pooled());
    runtime::free(pooled).unwrap(); // back to the pool, as its drop would
    assert!(runtime::ipc_close_mem_handle(alloc(16).unwrap()).is_err());
}

const IPC_CHILD: &str = "CUPRUM_TEST_IPC_CHILD";

/// Two processes on one GPU: this one exports a block that lies inside a
/// larger allocation (so the handle's offset matters) and an interprocess
/// event; a child process of this test binary opens both, checks the
/// bytes, writes new ones and records the event; this process waits on
/// the event and checks the child's bytes.
#[test]
fn ipc_shares_memory_and_events_between_two_processes() {
    if std::env::var_os(IPC_CHILD).is_some() {
        return ipc_child();
    }
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let n = 4096;
    let backing = Arc::new(alloc(3 * n).unwrap());
    let around = bytes(3 * n, 8);
    let s = stream(dev);
    backing.write_at(0, &around, &s).unwrap();
    // SAFETY: `backing` keeps the bytes alive for the whole test.
    let block = unsafe { UnownedMemory::new(backing.ptr().offset(n as isize + 512), n) }
        .owner(backing.clone())
        .into_memory()
        .unwrap();
    let data = bytes(n, 7);
    block.write_at(0, &data, &s).unwrap();
    s.synchronize().unwrap();
    let handle = runtime::ipc_get_mem_handle(&block).unwrap();
    assert!(handle.offset() >= n as u64 + 512, "{handle:?}");
    assert_eq!(handle.size(), n as u64);
    assert_eq!(IpcMemHandle::from_hex(&handle.to_hex()).unwrap(), handle);
    let event = Event::new(EventOptions::default().interprocess(true)).unwrap();
    assert!(event.is_interprocess());
    let eh = runtime::ipc_get_event_handle(&event).unwrap();

    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            &test_name(
                module_path!(),
                "ipc_shares_memory_and_events_between_two_processes",
            ),
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(IPC_CHILD, "1")
        .env("CUPRUM_TEST_IPC_MEM", handle.to_hex())
        .env("CUPRUM_TEST_IPC_EVENT", eh.to_hex())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "child failed:\n{text}");
    assert!(text.contains("ipc child: done"), "{text}");
    // The child's writes are ordered before its record of the event.
    s.wait_event(&event).unwrap();
    let mut back = vec![0u8; n];
    block.read_at(0, &mut back, &s).unwrap();
    let want: Vec<u8> = data.iter().map(|b| b ^ 0x5a).collect();
    assert_eq!(back, want);
    // The child wrote exactly the block: the rest of the allocation is as
    // it was (a handle that lost the block's offset would fail here).
    let mut whole = vec![0u8; 3 * n];
    backing.read_at(0, &mut whole, &s).unwrap();
    let at = n + 512;
    assert_eq!(&whole[..at], &around[..at]);
    assert_eq!(&whole[at + n..], &around[at + n..]);
}

fn ipc_child() {
    let dev = Device::new(0).unwrap();
    dev.use_device().unwrap();
    let mem = IpcMemHandle::from_hex(&std::env::var("CUPRUM_TEST_IPC_MEM").unwrap()).unwrap();
    let ev = IpcEventHandle::from_hex(&std::env::var("CUPRUM_TEST_IPC_EVENT").unwrap()).unwrap();
    // SAFETY: the parent keeps the memory alive until this process exits.
    let m = unsafe { runtime::ipc_open_mem_handle(&mem) }.unwrap();
    assert!(m.is_ipc());
    assert_eq!(m.size(), 4096);
    let s = Stream::current_on(dev);
    let mut seen = vec![0u8; 4096];
    m.read_at(0, &mut seen, &s).unwrap();
    assert_eq!(
        seen,
        bytes(4096, 7),
        "the parent's bytes at the handle's offset"
    );
    let flipped: Vec<u8> = seen.iter().map(|b| b ^ 0x5a).collect();
    m.write_at(0, &flipped, &s).unwrap();
    let e = runtime::ipc_open_event_handle(&ev).unwrap();
    e.record(&s).unwrap();
    s.synchronize().unwrap();
    runtime::ipc_close_mem_handle(m).unwrap();
    println!("ipc child: done");
}
