//! Page-locked host memory outside the pinned pool: an existing buffer
//! pinned in place ([`HostRegistration`], CUDA's `hostRegister` /
//! `hostUnregister`) and memory allocated page-locked with flags
//! ([`HostAllocation`], `hostAlloc` / `freeHost`), mapped into the device's
//! address space when asked.
//!
//! Both may be in use by the device after the call that started the work
//! returned (an asynchronous copy, a kernel reading mapped memory). Work
//! announced with `record(&stream)` is waited for before the memory is
//! unpinned or freed, so that a later user of the pages is not written
//! behind its back.

use std::ffi::c_void;
use std::marker::PhantomData;
use std::ptr::NonNull;

use gpu_sys::cuda;

use super::DeviceFence;
use super::pool::Fence;
use crate::driver::check;
use crate::{Device, DevicePtr, Error, Result, Stream};

/// Flags of [`HostRegistration::new`] (CUDA's `cudaHostRegister*`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct HostRegisterFlags {
    /// Page-locked for every CUDA context, not only the current device's
    /// (`cudaHostRegisterPortable`).
    pub portable: bool,
    /// Mapped into the device's address space, so kernels may read and
    /// write it ([`HostRegistration::device_ptr`]; `cudaHostRegisterMapped`).
    pub mapped: bool,
    /// The device only reads the memory (`cudaHostRegisterReadOnly`);
    /// needs a device that supports it.
    pub read_only: bool,
}

impl HostRegisterFlags {
    /// Sets `portable`.
    ///
    /// ```
    /// use gpu_runtime::memory::HostRegisterFlags;
    /// assert_eq!(HostRegisterFlags::default().portable(true).bits(), 1);
    /// ```
    #[must_use]
    pub fn portable(mut self, on: bool) -> Self {
        self.portable = on;
        self
    }

    /// Sets `mapped`.
    ///
    /// ```
    /// use gpu_runtime::memory::HostRegisterFlags;
    /// assert_eq!(HostRegisterFlags::default().mapped(true).bits(), 2);
    /// ```
    #[must_use]
    pub fn mapped(mut self, on: bool) -> Self {
        self.mapped = on;
        self
    }

    /// Sets `read_only`.
    ///
    /// ```
    /// use gpu_runtime::memory::HostRegisterFlags;
    /// assert_eq!(HostRegisterFlags::default().read_only(true).bits(), 8);
    /// ```
    #[must_use]
    pub fn read_only(mut self, on: bool) -> Self {
        self.read_only = on;
        self
    }

    /// The driver's (and the runtime's) flag word.
    ///
    /// ```
    /// use gpu_runtime::memory::HostRegisterFlags;
    /// let f = HostRegisterFlags::default().portable(true).mapped(true);
    /// assert_eq!(f.bits(), 3); // cudaHostRegisterPortable | cudaHostRegisterMapped
    /// ```
    pub fn bits(self) -> u32 {
        let mut b = 0;
        if self.portable {
            b |= cuda::CU_MEMHOSTREGISTER_PORTABLE;
        }
        if self.mapped {
            b |= cuda::CU_MEMHOSTREGISTER_DEVICEMAP;
        }
        if self.read_only {
            b |= cuda::CU_MEMHOSTREGISTER_READ_ONLY;
        }
        b
    }

    /// The flags of a CUDA flag word (CuPy passes integers).
    ///
    /// ```
    /// use gpu_runtime::memory::HostRegisterFlags;
    /// assert!(HostRegisterFlags::from_bits(2)?.mapped);
    /// assert!(HostRegisterFlags::from_bits(4).is_err()); // IoMemory: not for host buffers
    /// # Ok::<(), gpu_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for bits other than portable (1), mapped
    /// (2) and read-only (8). `cudaHostRegisterIoMemory` (4) registers
    /// device I/O memory, which is not a host buffer, so it is refused.
    pub fn from_bits(bits: u32) -> Result<HostRegisterFlags> {
        let known = cuda::CU_MEMHOSTREGISTER_PORTABLE
            | cuda::CU_MEMHOSTREGISTER_DEVICEMAP
            | cuda::CU_MEMHOSTREGISTER_READ_ONLY;
        if bits & !known != 0 {
            return Err(Error::InvalidArgument(format!(
                "host register flags {bits:#x}: only portable (1), mapped (2) and read-only (8) \
                 apply to a host buffer"
            )));
        }
        Ok(HostRegisterFlags {
            portable: bits & cuda::CU_MEMHOSTREGISTER_PORTABLE != 0,
            mapped: bits & cuda::CU_MEMHOSTREGISTER_DEVICEMAP != 0,
            read_only: bits & cuda::CU_MEMHOSTREGISTER_READ_ONLY != 0,
        })
    }
}

/// Flags of [`HostAllocation::new`] (CUDA's `cudaHostAlloc*`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct HostAllocFlags {
    /// Page-locked for every CUDA context (`cudaHostAllocPortable`).
    pub portable: bool,
    /// Mapped into the device's address space
    /// ([`HostAllocation::device_ptr`]; `cudaHostAllocMapped`).
    pub mapped: bool,
    /// Write-combined: faster for the device to read over PCIe and for the
    /// host to write, very slow for the host to read
    /// (`cudaHostAllocWriteCombined`).
    pub write_combined: bool,
}

impl HostAllocFlags {
    /// Sets `portable`.
    ///
    /// ```
    /// use gpu_runtime::memory::HostAllocFlags;
    /// assert_eq!(HostAllocFlags::default().portable(true).bits(), 1);
    /// ```
    #[must_use]
    pub fn portable(mut self, on: bool) -> Self {
        self.portable = on;
        self
    }

    /// Sets `mapped`.
    ///
    /// ```
    /// use gpu_runtime::memory::HostAllocFlags;
    /// assert_eq!(HostAllocFlags::default().mapped(true).bits(), 2);
    /// ```
    #[must_use]
    pub fn mapped(mut self, on: bool) -> Self {
        self.mapped = on;
        self
    }

    /// Sets `write_combined`.
    ///
    /// ```
    /// use gpu_runtime::memory::HostAllocFlags;
    /// assert_eq!(HostAllocFlags::default().write_combined(true).bits(), 4);
    /// ```
    #[must_use]
    pub fn write_combined(mut self, on: bool) -> Self {
        self.write_combined = on;
        self
    }

    /// The driver's (and the runtime's) flag word.
    ///
    /// ```
    /// use gpu_runtime::memory::HostAllocFlags;
    /// assert_eq!(HostAllocFlags::default().bits(), 0); // cudaHostAllocDefault
    /// ```
    pub fn bits(self) -> u32 {
        let mut b = 0;
        if self.portable {
            b |= cuda::CU_MEMHOSTALLOC_PORTABLE;
        }
        if self.mapped {
            b |= cuda::CU_MEMHOSTALLOC_DEVICEMAP;
        }
        if self.write_combined {
            b |= cuda::CU_MEMHOSTALLOC_WRITECOMBINED;
        }
        b
    }

    /// The flags of a CUDA flag word (CuPy passes integers).
    ///
    /// ```
    /// use gpu_runtime::memory::HostAllocFlags;
    /// let f = HostAllocFlags::from_bits(6)?;
    /// assert!(f.mapped && f.write_combined && !f.portable);
    /// # Ok::<(), gpu_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for bits other than portable (1), mapped
    /// (2) and write-combined (4).
    pub fn from_bits(bits: u32) -> Result<HostAllocFlags> {
        let known = cuda::CU_MEMHOSTALLOC_PORTABLE
            | cuda::CU_MEMHOSTALLOC_DEVICEMAP
            | cuda::CU_MEMHOSTALLOC_WRITECOMBINED;
        if bits & !known != 0 {
            return Err(Error::InvalidArgument(format!(
                "host alloc flags {bits:#x}: only portable (1), mapped (2) and write-combined \
                 (4) exist"
            )));
        }
        Ok(HostAllocFlags {
            portable: bits & cuda::CU_MEMHOSTALLOC_PORTABLE != 0,
            mapped: bits & cuda::CU_MEMHOSTALLOC_DEVICEMAP != 0,
            write_combined: bits & cuda::CU_MEMHOSTALLOC_WRITECOMBINED != 0,
        })
    }
}

/// Waits for `fences`, without consulting `allow_synchronize`: unpinning
/// or freeing before the device is done would be worse than blocking.
fn wait_all(fences: &[DeviceFence]) -> Result<()> {
    fences.iter().try_for_each(Fence::wait)
}

/// The device address of mapped page-locked memory at `host`.
fn mapped_device_ptr(device: Device, host: *mut c_void) -> Result<DevicePtr> {
    device.bind()?;
    let mut d = 0;
    // SAFETY: writes one address; `host` is page-locked and mapped (the
    // caller checked the flag), the flags word must be 0.
    check("cuMemHostGetDevicePointer", unsafe {
        cuda::cuMemHostGetDevicePointer_v2(&mut d, host, 0)
    })?;
    Ok(DevicePtr(d))
}

/// A host buffer page-locked in place for as long as the guard lives
/// (CuPy's `runtime.hostRegister`; the drop is `hostUnregister`). Copies
/// between the buffer and the device then run at full speed, and with
/// [`HostRegisterFlags::mapped`] kernels may use it directly.
///
/// The guard borrows the buffer mutably, so the host reaches it only
/// through the guard while it is pinned, and the buffer cannot be freed or
/// moved before it is unpinned.
pub struct HostRegistration<'a, T> {
    ptr: NonNull<T>,
    len: usize,
    bytes: usize,
    flags: HostRegisterFlags,
    device: Device,
    fences: Vec<DeviceFence>,
    registered: bool,
    _buffer: PhantomData<&'a mut [T]>,
}

// SAFETY: the guard stands for a `&mut [T]`, which is Send when T is.
unsafe impl<T: Send> Send for HostRegistration<'_, T> {}
// SAFETY: `&HostRegistration` only gives `&[T]`, which is Sync when T is.
unsafe impl<T: Sync> Sync for HostRegistration<'_, T> {}

impl<T> std::fmt::Debug for HostRegistration<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostRegistration")
            .field("ptr", &self.ptr)
            .field("bytes", &self.bytes)
            .field("flags", &self.flags)
            .field("device", &self.device.ordinal())
            .finish()
    }
}

impl<'a, T> HostRegistration<'a, T> {
    /// Page-locks `buffer` for the current device's context (every
    /// context with `portable`). An empty buffer is accepted and pins
    /// nothing.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostRegisterFlags, HostRegistration};
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut data = vec![1.5f32; 1 << 20];
    /// let pinned = HostRegistration::new(&mut data, HostRegisterFlags::default())?;
    /// let m = alloc(4 << 20)?;
    /// m.copy_from_host(bytemuck_free_bytes(pinned.as_slice()))?; // at page-locked speed
    /// drop(pinned); // unpinned; `data` is ours again
    /// # Ok(()) }
    /// # fn bytemuck_free_bytes(x: &[f32]) -> &[u8] {
    /// #     // SAFETY: f32 has no padding; the length is in bytes.
    /// #     unsafe { std::slice::from_raw_parts(x.as_ptr().cast(), std::mem::size_of_val(x)) }
    /// # }
    /// ```
    ///
    /// # Errors
    /// [`Error::Unsupported`] for `read_only` on a device without it, or
    /// `mapped` on a device that cannot map host memory; the driver
    /// refused (the range, or part of it, is registered already), or no
    /// device.
    pub fn new(buffer: &'a mut [T], flags: HostRegisterFlags) -> Result<Self> {
        let device = Device::current()?;
        let bytes = std::mem::size_of_val(buffer);
        let len = buffer.len();
        let ptr = NonNull::from(&mut *buffer).cast::<T>();
        let mut reg = HostRegistration {
            ptr,
            len,
            bytes,
            flags,
            device,
            fences: Vec::new(),
            registered: false,
            _buffer: PhantomData,
        };
        if bytes == 0 {
            return Ok(reg);
        }
        use cuda::CUdevice_attribute as A;
        if flags.read_only
            && device.attribute(A::CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED)? == 0
        {
            return Err(Error::Unsupported(format!(
                "device {} cannot register host memory read-only \
                 (CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED is 0)",
                device.ordinal()
            )));
        }
        if flags.mapped && device.attribute(A::CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY)? == 0 {
            return Err(Error::Unsupported(format!(
                "device {} cannot map host memory (CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY is 0)",
                device.ordinal()
            )));
        }
        device.bind()?;
        // SAFETY: `bytes` bytes from `ptr` are the borrowed buffer, which
        // stays borrowed (so alive and unmoved) until the guard unregisters it.
        check("cuMemHostRegister", unsafe {
            cuda::cuMemHostRegister_v2(ptr.as_ptr().cast(), bytes, flags.bits())
        })?;
        reg.registered = true;
        Ok(reg)
    }

    /// The buffer.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostRegisterFlags, HostRegistration};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut data = [1u8, 2, 3];
    /// let pinned = HostRegistration::new(&mut data, HostRegisterFlags::default())?;
    /// assert_eq!(pinned.as_slice(), [1, 2, 3]);
    /// # Ok(()) }
    /// ```
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: the guard holds the unique borrow of these `len` elements.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// The buffer, writable.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostRegisterFlags, HostRegistration};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut data = [0u8; 3];
    /// let mut pinned = HostRegistration::new(&mut data, HostRegisterFlags::default())?;
    /// pinned.as_mut_slice()[0] = 9;
    /// drop(pinned);
    /// assert_eq!(data, [9, 0, 0]);
    /// # Ok(()) }
    /// ```
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as above, and `&mut self` makes this borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }

    /// Bytes pinned.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostRegisterFlags, HostRegistration};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut data = [0u32; 4];
    /// assert_eq!(HostRegistration::new(&mut data, HostRegisterFlags::default())?.size(), 16);
    /// # Ok(()) }
    /// ```
    pub fn size(&self) -> usize {
        self.bytes
    }

    /// The flags it was registered with.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostRegisterFlags, HostRegistration};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut data = [0u8; 8];
    /// let r = HostRegistration::new(&mut data, HostRegisterFlags::default().portable(true))?;
    /// assert!(r.flags().portable);
    /// # Ok(()) }
    /// ```
    pub fn flags(&self) -> HostRegisterFlags {
        self.flags
    }

    /// The address kernels use for the buffer (registered with `mapped`).
    /// Handing it to a kernel is the launch's own `unsafe` business; record
    /// the stream with [`record`](Self::record) so that the buffer is
    /// unpinned only after the kernel.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostRegisterFlags, HostRegistration};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut data = vec![0u8; 4096];
    /// let r = HostRegistration::new(&mut data, HostRegisterFlags::default().mapped(true))?;
    /// let p = r.device_ptr()?; // pass to a kernel as a `T*`
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when not registered with `mapped` (or
    /// empty); the driver failed.
    pub fn device_ptr(&self) -> Result<DevicePtr> {
        if !self.flags.mapped || !self.registered {
            return Err(Error::InvalidArgument(
                "HostRegistration::device_ptr: the buffer was not registered with \
                 HostRegisterFlags::mapped (or is empty), so the device has no address for it"
                    .to_string(),
            ));
        }
        mapped_device_ptr(self.device, self.ptr.as_ptr().cast())
    }

    /// Notes that work queued so far on `stream` may use the buffer: it is
    /// unpinned (and handed back) only after that work.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostRegisterFlags, HostRegistration};
    /// use gpu_runtime::Stream;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut data = vec![0u8; 4096];
    /// let mut r = HostRegistration::new(&mut data, HostRegisterFlags::default().mapped(true))?;
    /// let s = Stream::current()?;
    /// // ... a kernel on `s` reads r.device_ptr()? ...
    /// r.record(&s)?;
    /// drop(r); // waits for that kernel before unpinning
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The event could not be recorded.
    pub fn record(&mut self, stream: &Stream) -> Result<()> {
        self.fences.push(DeviceFence::Event(std::sync::Arc::new(
            super::record_event(stream)?,
        )));
        Ok(())
    }

    /// Unpins the buffer now, reporting the driver's answer (the drop does
    /// the same and logs it); CuPy's `runtime.hostUnregister`.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostRegisterFlags, HostRegistration};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut data = vec![0u8; 4096];
    /// let r = HostRegistration::new(&mut data, HostRegisterFlags::default())?;
    /// r.unregister()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Waiting for recorded work failed, or the driver failed.
    pub fn unregister(mut self) -> Result<()> {
        self.release()
    }

    fn release(&mut self) -> Result<()> {
        let fences = std::mem::take(&mut self.fences);
        let waited = wait_all(&fences);
        if !self.registered {
            return waited;
        }
        // Unlike an allocation, a borrowed buffer cannot be leaked when
        // waiting failed: the wait fails only when the context is broken,
        // and then the device runs nothing more that could touch it. A
        // failed bind leaves the range registered and says so (a later
        // release tries again).
        self.device.bind()?;
        self.registered = false;
        // SAFETY: registered by `new` at this address, unregistered once.
        let r = check("cuMemHostUnregister", unsafe {
            cuda::cuMemHostUnregister(self.ptr.as_ptr().cast())
        });
        waited.and(r)
    }
}

impl<T> Drop for HostRegistration<'_, T> {
    fn drop(&mut self) {
        if let Err(e) = self.release() {
            tracing::error!(
                "unregistering {} bytes of host memory at {:p} failed: {e}",
                self.bytes,
                self.ptr
            );
        }
    }
}

/// Page-locked host memory allocated with flags (CuPy's
/// `runtime.hostAlloc`), freed on drop (`freeHost`). Zeroed at allocation,
/// so every byte is initialised.
pub struct HostAllocation {
    ptr: NonNull<u8>,
    len: usize,
    flags: HostAllocFlags,
    device: Device,
    fences: Vec<DeviceFence>,
}

// SAFETY: owned like a Box<[u8]>; the driver's free is thread-safe.
unsafe impl Send for HostAllocation {}
// SAFETY: `&HostAllocation` only reads the bytes.
unsafe impl Sync for HostAllocation {}

impl std::fmt::Debug for HostAllocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostAllocation")
            .field("ptr", &self.ptr)
            .field("len", &self.len)
            .field("flags", &self.flags)
            .finish()
    }
}

impl HostAllocation {
    /// Allocates `size` bytes of page-locked host memory in the current
    /// device's context (every context with `portable`). Size 0 allocates
    /// nothing.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostAllocFlags, HostAllocation};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut h = HostAllocation::new(1 << 20, HostAllocFlags::default().mapped(true))?;
    /// h.as_mut_slice()[0] = 1;
    /// let p = h.device_ptr()?; // kernels may read and write it over the bus
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Unsupported`] for `mapped` on a device that cannot map
    /// host memory; [`Error::OutOfMemory`] when the driver could not pin
    /// that much; no device.
    pub fn new(size: usize, flags: HostAllocFlags) -> Result<HostAllocation> {
        let device = Device::current()?;
        if size == 0 {
            return Ok(HostAllocation {
                ptr: NonNull::dangling(),
                len: 0,
                flags,
                device,
                fences: Vec::new(),
            });
        }
        if size > isize::MAX as usize {
            return Err(Error::InvalidArgument(format!(
                "HostAllocation::new({size}): larger than any host allocation can be \
                 (isize::MAX bytes)"
            )));
        }
        if flags.mapped
            && device
                .attribute(cuda::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY)?
                == 0
        {
            return Err(Error::Unsupported(format!(
                "device {} cannot map host memory (CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY is 0)",
                device.ordinal()
            )));
        }
        device.bind()?;
        let mut p: *mut c_void = std::ptr::null_mut();
        // SAFETY: writes one pointer; a context is current.
        let r = unsafe { cuda::cuMemHostAlloc(&mut p, size, flags.bits()) };
        super::check_alloc("cuMemHostAlloc", r, size, device)?;
        let Some(ptr) = NonNull::new(p.cast::<u8>()) else {
            return Err(Error::InvalidArgument(
                "cuMemHostAlloc returned a null pointer".to_string(),
            ));
        };
        // SAFETY: `size` writable bytes were just allocated at `ptr`.
        unsafe { ptr.as_ptr().write_bytes(0, size) };
        Ok(HostAllocation {
            ptr,
            len: size,
            flags,
            device,
            fences: Vec::new(),
        })
    }

    /// The size in bytes.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostAllocFlags, HostAllocation};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert_eq!(HostAllocation::new(64, HostAllocFlags::default())?.len(), 64);
    /// # Ok(()) }
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the size is 0.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostAllocFlags, HostAllocation};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert!(HostAllocation::new(0, HostAllocFlags::default())?.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The flags it was allocated with.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostAllocFlags, HostAllocation};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let h = HostAllocation::new(64, HostAllocFlags::default().write_combined(true))?;
    /// assert!(h.flags().write_combined);
    /// # Ok(()) }
    /// ```
    pub fn flags(&self) -> HostAllocFlags {
        self.flags
    }

    /// The start of the memory.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostAllocFlags, HostAllocation};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let h = HostAllocation::new(64, HostAllocFlags::default())?;
    /// assert_eq!(h.as_ptr(), h.as_slice().as_ptr());
    /// # Ok(()) }
    /// ```
    pub fn as_ptr(&self) -> *const u8 {
        self.ptr.as_ptr()
    }

    /// The bytes (slow to read from write-combined memory).
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostAllocFlags, HostAllocation};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert_eq!(HostAllocation::new(4, HostAllocFlags::default())?.as_slice(), [0; 4]);
    /// # Ok(()) }
    /// ```
    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: `len` initialised bytes (zeroed at allocation) belong to
        // this allocation, or len is 0 with a dangling, aligned pointer.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// The bytes, writable.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostAllocFlags, HostAllocation};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut h = HostAllocation::new(4, HostAllocFlags::default())?;
    /// h.as_mut_slice().copy_from_slice(&[1, 2, 3, 4]);
    /// # Ok(()) }
    /// ```
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as in as_slice; `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }

    /// The address kernels use for this memory (allocated with `mapped`).
    /// Using it in a kernel is the launch's own `unsafe` business; record
    /// the stream with [`record`](Self::record) so that the memory is
    /// freed only after the kernel.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostAllocFlags, HostAllocation};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let h = HostAllocation::new(256, HostAllocFlags::default().mapped(true))?;
    /// let p = h.device_ptr()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when not allocated with `mapped` (or
    /// empty); the driver failed.
    pub fn device_ptr(&self) -> Result<DevicePtr> {
        if !self.flags.mapped || self.len == 0 {
            return Err(Error::InvalidArgument(
                "HostAllocation::device_ptr: the memory was not allocated with \
                 HostAllocFlags::mapped (or is empty), so the device has no address for it"
                    .to_string(),
            ));
        }
        mapped_device_ptr(self.device, self.ptr.as_ptr().cast())
    }

    /// Notes that work queued so far on `stream` may use this memory: it is
    /// freed only after that work.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostAllocFlags, HostAllocation};
    /// use gpu_runtime::Stream;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut h = HostAllocation::new(256, HostAllocFlags::default().mapped(true))?;
    /// h.record(&Stream::current()?)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The event could not be recorded.
    pub fn record(&mut self, stream: &Stream) -> Result<()> {
        self.fences.push(DeviceFence::Event(std::sync::Arc::new(
            super::record_event(stream)?,
        )));
        Ok(())
    }

    /// Frees the memory now, reporting the driver's answer (the drop does
    /// the same and logs it); CuPy's `runtime.freeHost`.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostAllocFlags, HostAllocation};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// HostAllocation::new(256, HostAllocFlags::default())?.free()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Waiting for recorded work failed (then the memory is leaked rather
    /// than freed under the device), or the driver failed.
    pub fn free(mut self) -> Result<()> {
        self.release()
    }

    fn release(&mut self) -> Result<()> {
        if self.len == 0 {
            return Ok(());
        }
        let fences = std::mem::take(&mut self.fences);
        let len = std::mem::take(&mut self.len);
        if let Err(e) = wait_all(&fences) {
            return Err(Error::InvalidArgument(format!(
                "waiting for the work on {len} bytes of host memory at {:p} failed ({e}); \
                 the memory is not freed",
                self.ptr
            )));
        }
        self.device.bind()?;
        // SAFETY: cuMemHostAlloc gave this pointer; `len` is now 0, so it is
        // freed once.
        check("cuMemFreeHost", unsafe {
            cuda::cuMemFreeHost(self.ptr.as_ptr().cast())
        })
    }
}

impl Drop for HostAllocation {
    fn drop(&mut self) {
        if let Err(e) = self.release() {
            tracing::error!("freeing page-locked host memory failed: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_flags_map_to_cuda_bits_and_back() {
        for bits in [0, 1, 2, 3, 8, 9, 10, 11] {
            assert_eq!(HostRegisterFlags::from_bits(bits).unwrap().bits(), bits);
        }
        for bad in [4, 16, 0x8000_0000] {
            let e = HostRegisterFlags::from_bits(bad).unwrap_err().to_string();
            assert!(e.contains("host register flags"), "{e}");
        }
        // CUDA runtime's numbers: cudaHostRegisterPortable 1, Mapped 2, ReadOnly 8.
        assert_eq!(
            HostRegisterFlags::default()
                .portable(true)
                .mapped(true)
                .read_only(true)
                .bits(),
            11
        );
    }

    #[test]
    fn alloc_flags_map_to_cuda_bits_and_back() {
        for bits in 0..8 {
            assert_eq!(HostAllocFlags::from_bits(bits).unwrap().bits(), bits);
        }
        assert!(HostAllocFlags::from_bits(8).is_err());
        let f = HostAllocFlags::default().write_combined(true).mapped(true);
        assert_eq!(f.bits(), 6); // cudaHostAllocMapped | cudaHostAllocWriteCombined
    }

    #[test]
    fn guards_are_send_and_sync_like_their_data() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<HostRegistration<'static, f32>>();
        send_sync::<HostAllocation>();
    }
}
