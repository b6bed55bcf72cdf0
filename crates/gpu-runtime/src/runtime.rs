//! CuPy's `cupy.cuda.runtime` names, where its users look for them: thin
//! functions over gpu-runtime's safe types (Cuprum calls the driver API,
//! not `libcudart`; each function says which call it makes). Prefer the
//! types themselves in new code: they hold the memory, the registration or
//! the handle for you, and free it on drop.
//!
//! | `cupy.cuda.runtime`                 | here                          | the type behind it |
//! |-------------------------------------|-------------------------------|--------------------|
//! | `driverGetVersion`, `runtimeGetVersion` | [`driver_get_version`], [`runtime_get_version`] | [`driver::runtime_version`] |
//! | `getDevice`, `setDevice`, `getDeviceCount` | [`get_device`], [`set_device`], [`get_device_count`] | [`Device`] |
//! | `deviceGetPCIBusId`, `deviceGetByPCIBusId` | [`device_get_pci_bus_id`], [`device_get_by_pci_bus_id`] | [`Device::pci_bus_id`] |
//! | `deviceGetLimit`, `deviceSetLimit`  | [`device_get_limit`], [`device_set_limit`] | [`Device::limit`] |
//! | `mallocManaged`                     | [`malloc_managed`]            | [`Memory`]         |
//! | `memPrefetchAsync`, `memAdvise`     | [`mem_prefetch_async`], [`mem_advise`] | [`Memory::prefetch_async`] |
//! | `hostAlloc`, `freeHost`             | [`host_alloc`], [`free_host`] | [`HostAllocation`] |
//! | `hostRegister`, `hostUnregister`    | [`host_register`], [`host_unregister`] | [`HostRegistration`] |
//! | `free`                              | [`free`]                      | [`Memory::free`]   |
//! | `memcpy2D(Async)`, `memcpy3D(Async)` | [`memcpy_2d`], [`memcpy_2d_async`], [`memcpy_3d`], [`memcpy_3d_async`] | [`PitchedLayout`](crate::PitchedLayout), [`Extent`](crate::Extent) |
//! | `pointerGetAttributes`              | [`pointer_get_attributes`]    | [`PointerAttributes`] |
//! | `streamDestroy`, `eventDestroy`     | [`stream_destroy`], [`event_destroy`] | [`Stream::destroy`], [`Event::destroy`] |
//! | `ipcGetMemHandle`, `ipcOpenMemHandle`, `ipcCloseMemHandle` | [`ipc_get_mem_handle`], [`ipc_open_mem_handle`], [`ipc_close_mem_handle`] | [`IpcMemHandle`] |
//! | `ipcGetEventHandle`, `ipcOpenEventHandle` | [`ipc_get_event_handle`], [`ipc_open_event_handle`] | [`IpcEventHandle`] |
//!
//! The rest of CuPy's runtime module are methods of the types:
//! `deviceSynchronize` is [`Device::synchronize`], `memGetInfo`
//! [`Device::mem_info`], `streamCreate` [`Stream::new`], `eventRecord`
//! [`Event::record`], `memcpy(Async)` the [`Memory`] copies, and so on
//! (see the crate's table).
//!
//! [`driver::runtime_version`]: crate::driver::runtime_version

pub use crate::memory::malloc_managed;
pub use crate::{memcpy_2d, memcpy_2d_async, memcpy_3d, memcpy_3d_async};

use crate::ipc::{IpcEventHandle, IpcMemHandle};
use crate::memory::{
    HostAllocFlags, HostAllocation, HostRegisterFlags, HostRegistration, MemAdvice, MemLocation,
};
use crate::{Device, Error, Event, Limit, Memory, PointerAttributes, Result, Stream};

/// The driver's CUDA version, `1000 * major + 10 * minor`
/// (`cuDriverGetVersion`; CuPy's `driverGetVersion`).
///
/// ```no_run
/// assert!(gpu_runtime::runtime::driver_get_version()? >= 12000);
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// No driver.
pub fn driver_get_version() -> Result<i32> {
    crate::driver::driver_version()
}

/// The runtime version, encoded as the driver's: NVRTC's, since Cuprum has
/// no `libcudart` (see [`crate::driver::runtime_version`] for why).
///
/// ```no_run
/// let v = gpu_runtime::runtime::runtime_get_version()?; // 13000 with NVRTC 13.0
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// NVRTC could not be loaded.
pub fn runtime_get_version() -> Result<i32> {
    crate::driver::runtime_version()
}

/// The calling thread's current device ordinal (CuPy's `getDevice`).
///
/// ```no_run
/// let id = gpu_runtime::runtime::get_device()?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// No device.
pub fn get_device() -> Result<i32> {
    Device::current().map(Device::ordinal)
}

/// Makes device `id` the calling thread's current device (CuPy's
/// `setDevice`).
///
/// ```no_run
/// gpu_runtime::runtime::set_device(0)?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// [`Error::InvalidDevice`]; the context could not be made current.
pub fn set_device(id: i32) -> Result<()> {
    Device::new(id)?.use_device()
}

/// How many devices are visible (CuPy's `getDeviceCount`).
///
/// ```no_run
/// let n = gpu_runtime::runtime::get_device_count()?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// No driver.
pub fn get_device_count() -> Result<usize> {
    Device::count()
}

/// Device `id`'s PCI bus id, `domain:bus:device.function`
/// (`cuDeviceGetPCIBusId`; CuPy's `deviceGetPCIBusId`).
///
/// ```no_run
/// let bus = gpu_runtime::runtime::device_get_pci_bus_id(0)?; // "0000:3B:00.0"
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// [`Error::InvalidDevice`]; the driver failed.
pub fn device_get_pci_bus_id(id: i32) -> Result<String> {
    Device::new(id)?.pci_bus_id()
}

/// The ordinal of the device at PCI bus id `pci_bus_id`
/// (`cuDeviceGetByPCIBusId`; CuPy's `deviceGetByPCIBusId`).
///
/// ```no_run
/// let id = gpu_runtime::runtime::device_get_by_pci_bus_id("0000:3b:00.0")?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for text that is not a PCI bus id; no device
/// there.
pub fn device_get_by_pci_bus_id(pci_bus_id: &str) -> Result<i32> {
    Device::from_pci_bus_id(pci_bus_id).map(Device::ordinal)
}

/// `limit` of the current device (`cuCtxGetLimit`; CuPy's
/// `deviceGetLimit`).
///
/// ```no_run
/// use gpu_runtime::{Limit, runtime};
/// let stack = runtime::device_get_limit(Limit::StackSize)?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// As [`Device::limit`].
pub fn device_get_limit(limit: Limit) -> Result<usize> {
    Device::current()?.limit(limit)
}

/// Sets `limit` of the current device (`cuCtxSetLimit`; CuPy's
/// `deviceSetLimit`).
///
/// ```no_run
/// use gpu_runtime::{Limit, runtime};
/// runtime::device_set_limit(Limit::MallocHeapSize, 64 << 20)?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// As [`Device::set_limit`].
pub fn device_set_limit(limit: Limit, value: usize) -> Result<()> {
    Device::current()?.set_limit(limit, value)
}

/// Page-locked host memory with `flags` (`cuMemHostAlloc`; CuPy's
/// `hostAlloc`), freed on drop or by [`free_host`].
///
/// ```no_run
/// use gpu_runtime::memory::HostAllocFlags;
/// use gpu_runtime::runtime;
/// let h = runtime::host_alloc(4096, HostAllocFlags::default().mapped(true))?;
/// runtime::free_host(h)?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// As [`HostAllocation::new`].
pub fn host_alloc(size: usize, flags: HostAllocFlags) -> Result<HostAllocation> {
    HostAllocation::new(size, flags)
}

/// Frees memory of [`host_alloc`] now, reporting the driver's answer
/// (`cuMemFreeHost`; CuPy's `freeHost`).
///
/// ```no_run
/// use gpu_runtime::memory::HostAllocFlags;
/// use gpu_runtime::runtime;
/// runtime::free_host(runtime::host_alloc(64, HostAllocFlags::default())?)?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// As [`HostAllocation::free`].
pub fn free_host(memory: HostAllocation) -> Result<()> {
    memory.free()
}

/// Page-locks `buffer` in place until the registration is dropped or
/// given to [`host_unregister`] (`cuMemHostRegister`; CuPy's
/// `hostRegister`).
///
/// ```no_run
/// use gpu_runtime::memory::HostRegisterFlags;
/// use gpu_runtime::runtime;
/// let mut data = vec![0f64; 1 << 16];
/// let reg = runtime::host_register(&mut data, HostRegisterFlags::default())?;
/// runtime::host_unregister(reg)?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// As [`HostRegistration::new`].
pub fn host_register<T>(
    buffer: &mut [T],
    flags: HostRegisterFlags,
) -> Result<HostRegistration<'_, T>> {
    HostRegistration::new(buffer, flags)
}

/// Unpins a registered buffer now, reporting the driver's answer
/// (`cuMemHostUnregister`; CuPy's `hostUnregister`).
///
/// ```no_run
/// use gpu_runtime::memory::HostRegisterFlags;
/// use gpu_runtime::runtime;
/// let mut data = [0u8; 4096];
/// runtime::host_unregister(runtime::host_register(&mut data, HostRegisterFlags::default())?)?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// As [`HostRegistration::unregister`].
pub fn host_unregister<T>(registration: HostRegistration<'_, T>) -> Result<()> {
    registration.unregister()
}

/// Frees device memory now, reporting the driver's answer (CuPy's
/// `free`; see [`Memory::free`]).
///
/// ```no_run
/// use gpu_runtime::memory::{ManagedAttach, malloc_managed};
/// gpu_runtime::runtime::free(malloc_managed(1024, ManagedAttach::Global)?)?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// As [`Memory::free`].
pub fn free(memory: Memory) -> Result<()> {
    memory.free()
}

/// Migrates managed memory to `location` in `stream`'s order
/// (`cuMemPrefetchAsync`; CuPy's `memPrefetchAsync`, whose device -1 is
/// [`MemLocation::Host`]).
///
/// ```no_run
/// use gpu_runtime::memory::{ManagedAttach, MemLocation, malloc_managed};
/// use gpu_runtime::{Stream, runtime};
/// let m = malloc_managed(1 << 20, ManagedAttach::Global)?;
/// runtime::mem_prefetch_async(&m, MemLocation::from_device_id(0)?, &Stream::current()?)?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// As [`Memory::prefetch_async`].
pub fn mem_prefetch_async(memory: &Memory, location: MemLocation, stream: &Stream) -> Result<()> {
    memory.prefetch_async(location, stream)
}

/// Gives the driver advice about managed memory (`cuMemAdvise`; CuPy's
/// `memAdvise`).
///
/// ```no_run
/// use gpu_runtime::memory::{ManagedAttach, MemAdvice, malloc_managed};
/// use gpu_runtime::runtime;
/// let m = malloc_managed(1 << 20, ManagedAttach::Global)?;
/// runtime::mem_advise(&m, MemAdvice::SetReadMostly)?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// As [`Memory::advise`].
pub fn mem_advise(memory: &Memory, advice: MemAdvice) -> Result<()> {
    memory.advise(advice)
}

/// What the driver knows about `address` (`cuPointerGetAttributes`; CuPy's
/// `pointerGetAttributes`).
///
/// ```no_run
/// use gpu_runtime::{MemoryType, alloc, runtime};
/// let m = alloc(64)?;
/// assert_eq!(runtime::pointer_get_attributes(m.ptr().raw())?.memory_type, MemoryType::Device);
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// As [`PointerAttributes::of`].
pub fn pointer_get_attributes(address: u64) -> Result<PointerAttributes> {
    PointerAttributes::of(address)
}

/// Destroys a stream now (`cuStreamDestroy`; CuPy's `streamDestroy`).
///
/// ```no_run
/// use gpu_runtime::{Stream, runtime};
/// runtime::stream_destroy(Stream::new()?)?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// As [`Stream::destroy`].
pub fn stream_destroy(stream: Stream) -> Result<()> {
    stream.destroy()
}

/// Destroys an event now (`cuEventDestroy`; CuPy's `eventDestroy`).
///
/// ```no_run
/// use gpu_runtime::{Event, EventOptions, runtime};
/// runtime::event_destroy(Event::new(EventOptions::default())?)?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// As [`Event::destroy`].
pub fn event_destroy(event: Event) -> Result<()> {
    event.destroy()
}

/// A handle another process can open to use `memory`
/// (`cuIpcGetMemHandle`; CuPy's `ipcGetMemHandle`).
///
/// ```no_run
/// use gpu_runtime::{alloc, runtime};
/// let m = alloc(1 << 20)?;
/// let text = runtime::ipc_get_mem_handle(&m)?.to_hex();
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// As [`Memory::ipc_handle`].
pub fn ipc_get_mem_handle(memory: &Memory) -> Result<IpcMemHandle> {
    memory.ipc_handle()
}

/// Opens another process's memory on the current device
/// (`cuIpcOpenMemHandle` with lazy peer access; CuPy's `ipcOpenMemHandle`).
///
/// ```no_run
/// use gpu_runtime::ipc::IpcMemHandle;
/// use gpu_runtime::runtime;
/// # let text = String::new();
/// // SAFETY: the exporting process keeps the memory alive meanwhile.
/// let m = unsafe { runtime::ipc_open_mem_handle(&IpcMemHandle::from_hex(&text)?)? };
/// runtime::ipc_close_mem_handle(m)?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Safety
/// As [`Memory::from_ipc_handle`].
///
/// # Errors
/// As [`Memory::from_ipc_handle`].
pub unsafe fn ipc_open_mem_handle(handle: &IpcMemHandle) -> Result<Memory> {
    // SAFETY: the caller's contract is from_ipc_handle's.
    unsafe { Memory::from_ipc_handle(handle, Device::current()?) }
}

/// Closes this process's mapping of another process's memory now,
/// reporting the driver's answer (`cuIpcCloseMemHandle`; CuPy's
/// `ipcCloseMemHandle`); dropping the memory does the same.
///
/// ```no_run
/// use gpu_runtime::{alloc, runtime};
/// // Only memory opened from a handle can be closed:
/// assert!(runtime::ipc_close_mem_handle(alloc(16)?).is_err());
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for memory not opened from an IPC handle
/// (it is dropped as usual); as [`Memory::free`].
pub fn ipc_close_mem_handle(memory: Memory) -> Result<()> {
    if !memory.is_ipc() {
        return Err(Error::InvalidArgument(format!(
            "ipc_close_mem_handle: {memory:?} was not opened from an IPC handle"
        )));
    }
    memory.free()
}

/// A handle another process can open to wait on `event`, which must be
/// interprocess (`cuIpcGetEventHandle`; CuPy's `ipcGetEventHandle`).
///
/// ```no_run
/// use gpu_runtime::{Event, EventOptions, runtime};
/// let e = Event::new(EventOptions::default().interprocess(true))?;
/// let text = runtime::ipc_get_event_handle(&e)?.to_hex();
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// As [`Event::ipc_handle`].
pub fn ipc_get_event_handle(event: &Event) -> Result<IpcEventHandle> {
    event.ipc_handle()
}

/// Opens another process's event on the current device
/// (`cuIpcOpenEventHandle`; CuPy's `ipcOpenEventHandle`).
///
/// ```no_run
/// use gpu_runtime::ipc::IpcEventHandle;
/// use gpu_runtime::runtime;
/// # let text = String::new();
/// let e = runtime::ipc_open_event_handle(&IpcEventHandle::from_hex(&text)?)?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// As [`Event::from_ipc_handle`].
pub fn ipc_open_event_handle(handle: &IpcEventHandle) -> Result<Event> {
    Event::from_ipc_handle(handle, Device::current()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DevicePtr;

    fn fake() -> Memory {
        // SAFETY: never dereferenced; dropping unowned memory frees nothing.
        unsafe {
            Memory::from_raw(
                DevicePtr(0x10_0000),
                64,
                Device::from_ordinal_unchecked(0),
                None,
            )
        }
    }

    #[test]
    fn closing_is_only_for_memory_opened_from_a_handle() {
        let e = ipc_close_mem_handle(fake()).unwrap_err().to_string();
        assert!(e.contains("was not opened from an IPC handle"), "{e}");
        // Memory owned elsewhere is released as its drop would: no driver.
        assert!(!fake().is_ipc());
        free(fake()).unwrap();
    }

    #[test]
    fn managed_ranges_are_checked_before_the_driver() {
        let m = fake();
        let s = Stream::null(m.device());
        let e = m
            .prefetch_range_async(60, 8, MemLocation::Host, &s)
            .unwrap_err()
            .to_string();
        assert!(e.contains("8 bytes at offset 60 do not fit"), "{e}");
        let e = m
            .advise_range(usize::MAX, 2, MemAdvice::SetReadMostly)
            .unwrap_err()
            .to_string();
        assert!(e.contains("do not fit"), "{e}");
        // Empty ranges do nothing.
        m.prefetch_range_async(64, 0, MemLocation::Host, &s)
            .unwrap();
        assert_eq!(MemLocation::from_device_id(-1).unwrap(), MemLocation::Host);
    }
}
