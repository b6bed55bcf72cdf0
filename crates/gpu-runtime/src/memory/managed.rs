//! Managed (unified) memory: one address for the host and every device,
//! migrated by the driver on demand (CuPy's `runtime.mallocManaged`),
//! moved ahead of use with a prefetch (`memPrefetchAsync`) and steered
//! with advice (`memAdvise`).

use gpu_sys::cuda::{self, CUmem_advise, CUmemLocation, CUmemLocationType};

use super::Memory;
use super::memory_pool::hooked_alloc;
use crate::pointer::PointerAttributes;
use crate::{Device, Error, Result, Stream};

/// Which streams may touch a managed allocation before it is attached to
/// one (CUDA's `cudaMemAttach*` flags of `cudaMallocManaged`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum ManagedAttach {
    /// Any stream of any device (`cudaMemAttachGlobal`).
    #[default]
    Global,
    /// Only the host, until attached to a stream
    /// (`cudaMemAttachHost`).
    Host,
}

impl ManagedAttach {
    /// The flag word of `cuMemAllocManaged`.
    ///
    /// ```
    /// use gpu_runtime::memory::ManagedAttach;
    /// assert_eq!(ManagedAttach::Global.bits(), 1); // cudaMemAttachGlobal
    /// assert_eq!(ManagedAttach::Host.bits(), 2); // cudaMemAttachHost
    /// ```
    pub fn bits(self) -> u32 {
        match self {
            ManagedAttach::Global => cuda::CUmemAttach_flags::CU_MEM_ATTACH_GLOBAL.0,
            ManagedAttach::Host => cuda::CUmemAttach_flags::CU_MEM_ATTACH_HOST.0,
        }
    }

    /// The attach mode of a CUDA flag word (CuPy passes integers).
    ///
    /// ```
    /// use gpu_runtime::memory::ManagedAttach;
    /// assert_eq!(ManagedAttach::from_bits(2)?, ManagedAttach::Host);
    /// assert!(ManagedAttach::from_bits(4).is_err()); // Single: for streams only
    /// # Ok::<(), gpu_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for anything but global (1) and host (2);
    /// `cudaMemAttachSingle` (4) attaches to a stream, not an allocation.
    pub fn from_bits(bits: u32) -> Result<ManagedAttach> {
        match bits {
            1 => Ok(ManagedAttach::Global),
            2 => Ok(ManagedAttach::Host),
            _ => Err(Error::InvalidArgument(format!(
                "managed memory attach flags {bits:#x}: an allocation is attached globally (1) or \
                 to the host (2)"
            ))),
        }
    }
}

/// Where managed memory should live: a device's memory or the host's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemLocation {
    /// A device (CuPy passes its ordinal).
    Device(Device),
    /// The host (CuPy passes `cudaCpuDeviceId`, -1).
    Host,
}

impl MemLocation {
    /// The location CuPy's integer device argument names: an ordinal, or
    /// `cudaCpuDeviceId` (-1) for the host.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::MemLocation;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert_eq!(MemLocation::from_device_id(-1)?, MemLocation::Host);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidDevice`] for an ordinal that is no device.
    pub fn from_device_id(id: i32) -> Result<MemLocation> {
        if id == -1 {
            Ok(MemLocation::Host)
        } else {
            Device::new(id).map(MemLocation::Device)
        }
    }

    /// The driver's `CUmemLocation`.
    pub(crate) fn raw(self) -> CUmemLocation {
        match self {
            MemLocation::Device(d) => CUmemLocation {
                type_: CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE,
                id: d.ordinal(),
            },
            MemLocation::Host => CUmemLocation {
                type_: CUmemLocationType::CU_MEM_LOCATION_TYPE_HOST,
                id: 0,
            },
        }
    }
}

/// Advice about how managed memory is used (CUDA's `cudaMemoryAdvise`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemAdvice {
    /// Mostly read: each reader gets its own read-only copy
    /// (`cudaMemAdviseSetReadMostly`).
    SetReadMostly,
    /// Undoes [`MemAdvice::SetReadMostly`].
    UnsetReadMostly,
    /// Keep the pages at this location; others map them rather than
    /// migrate them (`cudaMemAdviseSetPreferredLocation`).
    SetPreferredLocation(MemLocation),
    /// Undoes [`MemAdvice::SetPreferredLocation`].
    UnsetPreferredLocation,
    /// This location will access the memory: keep it mapped there
    /// (`cudaMemAdviseSetAccessedBy`).
    SetAccessedBy(MemLocation),
    /// Undoes [`MemAdvice::SetAccessedBy`] for this location.
    UnsetAccessedBy(MemLocation),
}

impl MemAdvice {
    /// The driver's advice and the location it applies to (ignored by
    /// the driver where the advice has none; the host is passed then).
    pub(crate) fn raw(self) -> (CUmem_advise, CUmemLocation) {
        use CUmem_advise as A;
        let none = MemLocation::Host.raw();
        match self {
            MemAdvice::SetReadMostly => (A::CU_MEM_ADVISE_SET_READ_MOSTLY, none),
            MemAdvice::UnsetReadMostly => (A::CU_MEM_ADVISE_UNSET_READ_MOSTLY, none),
            MemAdvice::SetPreferredLocation(l) => {
                (A::CU_MEM_ADVISE_SET_PREFERRED_LOCATION, l.raw())
            }
            MemAdvice::UnsetPreferredLocation => (A::CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, none),
            MemAdvice::SetAccessedBy(l) => (A::CU_MEM_ADVISE_SET_ACCESSED_BY, l.raw()),
            MemAdvice::UnsetAccessedBy(l) => (A::CU_MEM_ADVISE_UNSET_ACCESSED_BY, l.raw()),
        }
    }

    /// The device the advice names, if any.
    fn device(self) -> Option<Device> {
        match self {
            MemAdvice::SetPreferredLocation(MemLocation::Device(d))
            | MemAdvice::SetAccessedBy(MemLocation::Device(d))
            | MemAdvice::UnsetAccessedBy(MemLocation::Device(d)) => Some(d),
            _ => None,
        }
    }
}

/// Refuses a managed allocation larger than the device's free memory.
/// Managed memory may oversubscribe the device (pages migrate out), but
/// an allocation no device page can back at once thrashes or, on systems
/// without oversubscription, fails late inside a kernel; the issue asks
/// for a clear error up front instead.
pub(crate) fn check_fits(size: usize, free: usize, total: usize, device: Device) -> Result<()> {
    if size > free {
        return Err(Error::OutOfMemory {
            size,
            used: total.saturating_sub(free),
            total,
            limit: format!(
                "{free} bytes free on device {} (managed memory is not allowed to exceed the \
                 device's free memory)",
                device.ordinal()
            ),
        });
    }
    Ok(())
}

/// Allocates `size` bytes of managed memory, with the current device as
/// its home (CuPy's `runtime.mallocManaged`). See [`malloc_managed_on`].
///
/// ```no_run
/// use gpu_runtime::memory::{ManagedAttach, malloc_managed};
/// # fn main() -> gpu_runtime::Result<()> {
/// let m = malloc_managed(1 << 20, ManagedAttach::Global)?;
/// assert!(m.is_managed()?);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`malloc_managed_on`].
pub fn malloc_managed(size: usize, attach: ManagedAttach) -> Result<Memory> {
    malloc_managed_on(Device::current()?, size, attach)
}

/// Allocates `size` bytes of managed memory in `device`'s context. The
/// result is a [`Memory`] like any other (copies, kernels, arrays),
/// freed with `cuMemFree` on drop; the host may also read and write it
/// through its address once the device's work on it is done.
///
/// Asking for more than the device has free (`cuMemGetInfo`) is refused
/// before the driver is asked, with [`Error::OutOfMemory`].
///
/// ```no_run
/// use gpu_runtime::memory::{ManagedAttach, malloc_managed_on};
/// use gpu_runtime::Device;
/// # fn main() -> gpu_runtime::Result<()> {
/// let dev = Device::new(0)?;
/// let (free, _) = dev.mem_info()?;
/// assert!(malloc_managed_on(dev, free + 1, ManagedAttach::Global).is_err());
/// # Ok(()) }
/// ```
///
/// # Errors
/// [`Error::Unsupported`] on a device without managed memory;
/// [`Error::OutOfMemory`]; the driver failed.
pub fn malloc_managed_on(device: Device, size: usize, attach: ManagedAttach) -> Result<Memory> {
    if size == 0 {
        return Ok(Memory::empty(device));
    }
    if device.attribute(cuda::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY)? == 0 {
        return Err(Error::Unsupported(format!(
            "device {} does not support managed memory (CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY is 0)",
            device.ordinal()
        )));
    }
    let (free, total) = device.mem_info()?;
    check_fits(size, free, total, device)?;
    let p = hooked_alloc(size, device, "cuMemAllocManaged", |p| {
        // SAFETY: writes one address; the device's context is current.
        unsafe { cuda::cuMemAllocManaged(p, size, attach.bits()) }
    })?;
    Ok(Memory::from_managed(p, size, device))
}

impl Memory {
    /// Whether this is managed memory (asked of the driver, so memory
    /// wrapped with [`Memory::from_raw`] is recognised too).
    ///
    /// ```no_run
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert!(!alloc(16)?.is_managed()?);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn is_managed(&self) -> Result<bool> {
        if self.size() == 0 {
            return Ok(false);
        }
        Ok(PointerAttributes::of(self.ptr().raw())?.is_managed)
    }

    fn require_managed(&self, operation: &str) -> Result<()> {
        if self.is_managed()? {
            Ok(())
        } else {
            Err(Error::InvalidArgument(format!(
                "{operation}: the memory at {:#x} is not managed memory (allocate it with \
                 malloc_managed)",
                self.ptr().raw()
            )))
        }
    }

    /// Migrates all of this managed memory to `location` in `stream`'s
    /// order (CuPy's `runtime.memPrefetchAsync`), so that work there does
    /// not fault pages in one by one.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{ManagedAttach, MemLocation, malloc_managed};
    /// use gpu_runtime::Stream;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let m = malloc_managed(1 << 20, ManagedAttach::Global)?;
    /// let s = Stream::current()?;
    /// m.prefetch_async(MemLocation::Device(m.device()), &s)?; // before the kernels
    /// m.prefetch_async(MemLocation::Host, &s)?; // before the host reads it
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Memory::prefetch_range_async`].
    pub fn prefetch_async(&self, location: MemLocation, stream: &Stream) -> Result<()> {
        self.prefetch_range_async(0, self.size(), location, stream)
    }

    /// Migrates `bytes` bytes from byte `offset` of this managed memory to
    /// `location` in `stream`'s order.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{ManagedAttach, MemLocation, malloc_managed};
    /// use gpu_runtime::Stream;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let m = malloc_managed(1 << 21, ManagedAttach::Global)?;
    /// m.prefetch_range_async(1 << 20, 1 << 20, MemLocation::Host, &Stream::current()?)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the range does not fit or the
    /// memory is not managed; [`Error::Unsupported`] for a device that
    /// cannot access managed memory concurrently (prefetching needs it);
    /// the driver failed.
    pub fn prefetch_range_async(
        &self,
        offset: usize,
        bytes: usize,
        location: MemLocation,
        stream: &Stream,
    ) -> Result<()> {
        let start = self.range("Memory::prefetch_range_async", offset, bytes)?;
        if bytes == 0 {
            return Ok(());
        }
        self.require_managed("Memory::prefetch_range_async")?;
        let device = match location {
            MemLocation::Device(d) => d,
            MemLocation::Host => stream.device(),
        };
        require_concurrent_access(device)?;
        stream.device().bind()?;
        // SAFETY: the range lies inside this live managed memory; the
        // location is valid; flags must be 0.
        crate::driver::check("cuMemPrefetchAsync", unsafe {
            cuda::cuMemPrefetchAsync_v2(start.raw(), bytes, location.raw(), 0, stream.handle()?)
        })
    }

    /// Gives the driver `advice` about all of this managed memory (CuPy's
    /// `runtime.memAdvise`).
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{ManagedAttach, MemAdvice, MemLocation, malloc_managed};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let m = malloc_managed(1 << 20, ManagedAttach::Global)?;
    /// m.advise(MemAdvice::SetReadMostly)?; // a lookup table every device reads
    /// m.advise(MemAdvice::SetPreferredLocation(MemLocation::Device(m.device())))?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Memory::advise_range`].
    pub fn advise(&self, advice: MemAdvice) -> Result<()> {
        self.advise_range(0, self.size(), advice)
    }

    /// Gives the driver `advice` about `bytes` bytes from byte `offset`.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{ManagedAttach, MemAdvice, MemLocation, malloc_managed};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let m = malloc_managed(1 << 21, ManagedAttach::Global)?;
    /// m.advise_range(0, 1 << 20, MemAdvice::SetAccessedBy(MemLocation::Host))?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the range does not fit or the
    /// memory is not managed; the driver failed (for instance, advice
    /// naming a device without concurrent managed access).
    pub fn advise_range(&self, offset: usize, bytes: usize, advice: MemAdvice) -> Result<()> {
        let start = self.range("Memory::advise_range", offset, bytes)?;
        if bytes == 0 {
            return Ok(());
        }
        self.require_managed("Memory::advise_range")?;
        if let Some(d) = advice.device() {
            // Validates the ordinal, so the driver is not handed a stale one.
            Device::new(d.ordinal())?;
        }
        let (raw, location) = advice.raw();
        self.device().bind()?;
        // SAFETY: the range lies inside this live managed memory.
        crate::driver::check("cuMemAdvise", unsafe {
            cuda::cuMemAdvise_v2(start.raw(), bytes, raw, location)
        })
    }
}

fn require_concurrent_access(device: Device) -> Result<()> {
    let a = cuda::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS;
    if device.attribute(a)? == 0 {
        return Err(Error::Unsupported(format!(
            "device {} cannot access managed memory concurrently with the host \
             (CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS is 0), so it cannot prefetch",
            device.ordinal()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attach_flags_map_both_ways() {
        for a in [ManagedAttach::Global, ManagedAttach::Host] {
            assert_eq!(ManagedAttach::from_bits(a.bits()).unwrap(), a);
        }
        for bad in [0, 3, 4, 8] {
            assert!(ManagedAttach::from_bits(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn locations_and_advice_map_to_the_drivers_values() {
        let d = Device::from_ordinal_unchecked(1);
        let l = MemLocation::Device(d).raw();
        assert_eq!(
            (l.type_, l.id),
            (CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE, 1)
        );
        let h = MemLocation::Host.raw();
        assert_eq!(h.type_, CUmemLocationType::CU_MEM_LOCATION_TYPE_HOST);
        let cases = [
            (MemAdvice::SetReadMostly, 1),
            (MemAdvice::UnsetReadMostly, 2),
            (MemAdvice::SetPreferredLocation(MemLocation::Device(d)), 3),
            (MemAdvice::UnsetPreferredLocation, 4),
            (MemAdvice::SetAccessedBy(MemLocation::Host), 5),
            (MemAdvice::UnsetAccessedBy(MemLocation::Device(d)), 6),
        ];
        for (advice, code) in cases {
            assert_eq!(advice.raw().0.0, code, "{advice:?}"); // cudaMemoryAdvise's numbers
        }
        assert_eq!(
            MemAdvice::SetPreferredLocation(MemLocation::Device(d))
                .raw()
                .1
                .id,
            1
        );
        assert_eq!(MemAdvice::SetAccessedBy(MemLocation::Host).device(), None);
    }

    #[test]
    fn more_than_the_free_memory_is_refused_with_the_figures() {
        let d = Device::from_ordinal_unchecked(0);
        assert!(check_fits(100, 100, 1000, d).is_ok());
        let e = check_fits(101, 100, 1000, d).unwrap_err();
        assert!(
            matches!(
                e,
                Error::OutOfMemory {
                    size: 101,
                    used: 900,
                    total: 1000,
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("100 bytes free on device 0"), "{e}");
    }
}
