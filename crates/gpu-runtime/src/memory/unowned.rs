//! Device memory owned by someone else (CuPy's `cupy.cuda.UnownedMemory`).

use std::any::Any;
use std::sync::Arc;

use super::Memory;
use crate::pointer::{MemoryType, PointerAttributes};
use crate::{Device, DevicePtr, Error, Result};

/// A description of device memory that Cuprum did not allocate and must
/// not free (CuPy's `UnownedMemory(ptr, size, owner, device_id=None)`),
/// turned into a [`Memory`] by [`into_memory`](Self::into_memory). The
/// `Memory` frees nothing on drop; it drops `owner`, whatever keeps the
/// memory alive (another library's buffer handle), after the streams
/// recorded on it are done. Without a device the pointer's own device is
/// asked of the driver, as CuPy does.
///
/// ```no_run
/// use gpu_runtime::memory::UnownedMemory;
/// use gpu_runtime::alloc;
/// use std::sync::Arc;
/// # fn main() -> gpu_runtime::Result<()> {
/// let theirs = Arc::new(alloc(1024)?); // "another library's" buffer
/// // SAFETY: `theirs` (held as the owner) keeps the 1024 bytes alive.
/// let mem = unsafe { UnownedMemory::new(theirs.ptr(), 1024) }
///     .owner(theirs.clone())
///     .into_memory()?; // the device is read from the pointer
/// assert_eq!(mem.device(), theirs.device());
/// # Ok(()) }
/// ```
#[must_use = "into_memory() makes the Memory"]
pub struct UnownedMemory {
    ptr: DevicePtr,
    size: usize,
    device: Option<Device>,
    owner: Option<Arc<dyn Any + Send + Sync>>,
}

impl std::fmt::Debug for UnownedMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UnownedMemory")
            .field("ptr", &format_args!("{:#x}", self.ptr.0))
            .field("size", &self.size)
            .field("device", &self.device)
            .field("has_owner", &self.owner.is_some())
            .finish()
    }
}

impl UnownedMemory {
    /// `size` bytes of device memory at `ptr`.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::UnownedMemory;
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let theirs = alloc(64)?;
    /// // SAFETY: `theirs` outlives `mem`.
    /// let mem = unsafe { UnownedMemory::new(theirs.ptr(), 64) }.into_memory()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Safety
    /// `ptr .. ptr + size` must be memory the device can access (device,
    /// managed or mapped host memory), valid while the resulting `Memory`
    /// and any copy of its pointer are in use: kept alive by the
    /// [`owner`](Self::owner) or by other means.
    pub unsafe fn new(ptr: DevicePtr, size: usize) -> UnownedMemory {
        UnownedMemory {
            ptr,
            size,
            device: None,
            owner: None,
        }
    }

    /// What keeps the memory alive; dropped with the last use.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::UnownedMemory;
    /// use gpu_runtime::alloc;
    /// use std::sync::Arc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let theirs = Arc::new(alloc(64)?);
    /// // SAFETY: the owner keeps it alive.
    /// let mem = unsafe { UnownedMemory::new(theirs.ptr(), 64) }.owner(theirs).into_memory()?;
    /// # Ok(()) }
    /// ```
    pub fn owner(mut self, owner: Arc<dyn Any + Send + Sync>) -> UnownedMemory {
        self.owner = Some(owner);
        self
    }

    /// The device the memory belongs to (CuPy's `device_id`), when the
    /// caller knows it; otherwise it is asked of the driver.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::UnownedMemory;
    /// use gpu_runtime::{Device, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let theirs = alloc(64)?;
    /// // SAFETY: `theirs` outlives `mem`.
    /// let mem = unsafe { UnownedMemory::new(theirs.ptr(), 64) }.device(Device::new(0)?).into_memory()?;
    /// # Ok(()) }
    /// ```
    pub fn device(mut self, device: Device) -> UnownedMemory {
        self.device = Some(device);
        self
    }

    /// The [`Memory`].
    ///
    /// ```no_run
    /// use gpu_runtime::memory::UnownedMemory;
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let theirs = alloc(64)?;
    /// // SAFETY: `theirs` outlives `mem`.
    /// let mem = unsafe { UnownedMemory::new(theirs.ptr(), 64) }.into_memory()?;
    /// assert_eq!((mem.ptr(), mem.size()), (theirs.ptr(), 64));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the range wraps around the address
    /// space, when no device is given and the driver does not know the
    /// pointer (pageable host memory, a stale address), or when the driver
    /// knows a range for it that the `size` bytes overrun; the driver
    /// failed.
    pub fn into_memory(self) -> Result<Memory> {
        check_range(self.ptr, self.size)?;
        let device = match self.device {
            Some(d) => d,
            None if self.size == 0 && self.ptr == DevicePtr::NULL => Device::current()?,
            None => {
                let a = PointerAttributes::of(self.ptr.raw())?;
                check_known(self.ptr, self.size, &a)?;
                match a.device {
                    Some(d) => Device::new(d.ordinal())?,
                    None => Device::current()?,
                }
            }
        };
        // SAFETY: the caller of `new` vouched for the range and its life.
        Ok(unsafe { Memory::from_raw(self.ptr, self.size, device, self.owner) })
    }
}

fn check_range(ptr: DevicePtr, size: usize) -> Result<()> {
    if ptr.raw().checked_add(size as u64).is_none() {
        return Err(Error::InvalidArgument(format!(
            "UnownedMemory: {size} bytes at {:#x} run past the end of the address space",
            ptr.raw()
        )));
    }
    Ok(())
}

/// The driver must know the pointer, and the bytes must fit in the
/// allocation it reports.
fn check_known(ptr: DevicePtr, size: usize, a: &PointerAttributes) -> Result<()> {
    if a.memory_type == MemoryType::Unregistered {
        return Err(Error::InvalidArgument(format!(
            "UnownedMemory: CUDA does not know the address {:#x} (pageable host memory or \
             freed memory?); give the device explicitly only for memory the device can access",
            ptr.raw()
        )));
    }
    if let Some((start, len)) = a.range {
        let end = start.raw().saturating_add(len as u64);
        if ptr.raw() < start.raw() || ptr.raw() + size as u64 > end {
            return Err(Error::InvalidArgument(format!(
                "UnownedMemory: {size} bytes at {:#x} overrun the allocation {:#x}..{end:#x} \
                 that the driver reports",
                ptr.raw(),
                start.raw()
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(memory_type: MemoryType, range: Option<(u64, usize)>) -> PointerAttributes {
        PointerAttributes {
            memory_type,
            device: None,
            device_pointer: None,
            host_pointer: None,
            is_managed: false,
            range: range.map(|(s, l)| (DevicePtr(s), l)),
        }
    }

    #[test]
    fn pointers_must_be_known_and_fit_their_allocation() {
        let p = DevicePtr(0x2000);
        let e = check_known(p, 16, &attrs(MemoryType::Unregistered, None))
            .unwrap_err()
            .to_string();
        assert!(e.contains("CUDA does not know the address 0x2000"), "{e}");
        let alloc = Some((0x1000, 0x1010));
        assert!(check_known(p, 16, &attrs(MemoryType::Device, alloc)).is_ok());
        let e = check_known(p, 17, &attrs(MemoryType::Device, alloc))
            .unwrap_err()
            .to_string();
        assert!(e.contains("overrun the allocation 0x1000..0x2010"), "{e}");
        // Without a range (host memory), only the type is checked.
        assert!(check_known(p, 1 << 40, &attrs(MemoryType::Host, None)).is_ok());
    }

    #[test]
    fn ranges_are_checked_without_a_device() {
        assert!(check_range(DevicePtr(u64::MAX - 4), 4).is_ok());
        let e = check_range(DevicePtr(u64::MAX - 4), 5)
            .unwrap_err()
            .to_string();
        assert!(e.contains("past the end of the address space"), "{e}");
        // With an explicit device and a wrapping range nothing reaches the driver.
        // SAFETY: refused before any use.
        let r = unsafe { UnownedMemory::new(DevicePtr(u64::MAX), 2) }
            .device(Device::from_ordinal_unchecked(0))
            .into_memory();
        assert!(r.is_err());
    }
}
