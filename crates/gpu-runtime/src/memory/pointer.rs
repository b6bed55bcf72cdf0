//! A position inside device memory that keeps the memory alive (CuPy's
//! `cupy.cuda.MemoryPointer`).

use std::sync::Arc;

use super::{Memory, PinnedMemory};
use crate::{Device, DevicePtr, Error, HostTransfer, Result, Stream};

/// A pointer to byte `offset` of a [`Memory`] that holds the memory
/// (CuPy's `MemoryPointer(mem, offset)`). Every copy and memset through
/// it is bounds-checked against the bytes from `offset` to the end of the
/// memory; moving it ([`add`](Self::add), [`sub`](Self::sub)) stays inside.
#[derive(Debug, Clone)]
pub struct MemoryPointer {
    mem: Arc<Memory>,
    offset: usize,
}

impl MemoryPointer {
    /// A pointer to byte `offset` of `mem` (`offset == mem.size()` is the
    /// end, as a one-past-the-end pointer).
    ///
    /// ```no_run
    /// use gpu_runtime::memory::MemoryPointer;
    /// use gpu_runtime::alloc;
    /// use std::sync::Arc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mem = Arc::new(alloc(64)?);
    /// let p = MemoryPointer::new(mem.clone(), 16)?;
    /// assert_eq!(p.ptr(), mem.ptr().offset(16));
    /// assert_eq!(p.size(), 48);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `offset` is past the end.
    pub fn new(mem: Arc<Memory>, offset: usize) -> Result<MemoryPointer> {
        check_offset(mem.size(), offset)?;
        Ok(MemoryPointer { mem, offset })
    }

    /// The memory pointed into.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::MemoryPointer;
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let p = MemoryPointer::from(alloc(64)?);
    /// assert_eq!(p.mem().size(), 64);
    /// # Ok(()) }
    /// ```
    pub fn mem(&self) -> &Arc<Memory> {
        &self.mem
    }

    /// Bytes from the start of the memory.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::MemoryPointer;
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert_eq!(MemoryPointer::from(alloc(64)?).add(8)?.offset(), 8);
    /// # Ok(()) }
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The device address (CuPy's `ptr`).
    ///
    /// ```no_run
    /// use gpu_runtime::memory::MemoryPointer;
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let p = MemoryPointer::from(alloc(64)?);
    /// assert_eq!(p.ptr(), p.mem().ptr());
    /// # Ok(()) }
    /// ```
    pub fn ptr(&self) -> DevicePtr {
        // `offset <= size`; unsigned, so sizes past isize::MAX stay right
        // (wrapping only where the memory's own range would).
        DevicePtr(self.mem.ptr().raw().wrapping_add(self.offset as u64))
    }

    /// The memory's device (CuPy's `device`).
    ///
    /// ```no_run
    /// use gpu_runtime::memory::MemoryPointer;
    /// use gpu_runtime::{Device, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert_eq!(MemoryPointer::from(alloc(64)?).device(), Device::current()?);
    /// # Ok(()) }
    /// ```
    pub fn device(&self) -> Device {
        self.mem.device()
    }

    /// Bytes from here to the end of the memory.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::MemoryPointer;
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert_eq!(MemoryPointer::from(alloc(64)?).add(60)?.size(), 4);
    /// # Ok(()) }
    /// ```
    pub fn size(&self) -> usize {
        self.mem.size() - self.offset
    }

    /// This pointer moved `bytes` further (CuPy's `p + n`).
    ///
    /// ```no_run
    /// use gpu_runtime::memory::MemoryPointer;
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let p = MemoryPointer::from(alloc(64)?);
    /// assert!(p.add(64).is_ok()); // the end
    /// assert!(p.add(65).is_err());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] past the end of the memory.
    pub fn add(&self, bytes: usize) -> Result<MemoryPointer> {
        let offset = self.offset.checked_add(bytes).ok_or_else(|| {
            Error::InvalidArgument(format!("MemoryPointer::add({bytes}): the offset overflows"))
        })?;
        MemoryPointer::new(self.mem.clone(), offset)
    }

    /// This pointer moved `bytes` back (CuPy's `p - n`).
    ///
    /// ```no_run
    /// use gpu_runtime::memory::MemoryPointer;
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let p = MemoryPointer::from(alloc(64)?).add(8)?;
    /// assert_eq!(p.sub(8)?.offset(), 0);
    /// assert!(p.sub(9).is_err());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] before the start of the memory.
    pub fn sub(&self, bytes: usize) -> Result<MemoryPointer> {
        let offset = self.offset.checked_sub(bytes).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "MemoryPointer::sub({bytes}): before the start of the memory (offset {})",
                self.offset
            ))
        })?;
        MemoryPointer::new(self.mem.clone(), offset)
    }

    /// Copies `src` here, ordered on the device's current stream (CuPy's
    /// `copy_from_host`); `src` may be reused when this returns.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::MemoryPointer;
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let p = MemoryPointer::from(alloc(8)?).add(4)?;
    /// p.copy_from_host(&[1, 2, 3, 4])?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `src` does not fit before the end;
    /// the driver failed.
    pub fn copy_from_host(&self, src: &[u8]) -> Result<()> {
        self.mem
            .write_at(self.offset, src, &Stream::current_on(self.device()))
    }

    /// Copies `src` here on `stream` through pinned staging (CuPy's
    /// `copy_from_host_async`); `src` may be reused when this returns.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::MemoryPointer;
    /// use gpu_runtime::{Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let p = MemoryPointer::from(alloc(8)?);
    /// p.copy_from_host_async(&[7; 8], &Stream::current()?)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Memory::write_at_async`].
    pub fn copy_from_host_async(&self, src: &[u8], stream: &Stream) -> Result<()> {
        self.mem.write_at_async(self.offset, src, stream)
    }

    /// Copies `dst.len()` bytes from here into `dst` on the device's
    /// current stream and waits (CuPy's `copy_to_host`).
    ///
    /// ```no_run
    /// use gpu_runtime::memory::MemoryPointer;
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let p = MemoryPointer::from(alloc(8)?);
    /// p.copy_from_host(&[5; 8])?;
    /// let mut back = [0u8; 4];
    /// p.add(4)?.copy_to_host(&mut back)?;
    /// assert_eq!(back, [5; 4]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Memory::read_at`].
    pub fn copy_to_host(&self, dst: &mut [u8]) -> Result<()> {
        self.mem
            .read_at(self.offset, dst, &Stream::current_on(self.device()))
    }

    /// Starts copying `dst.len()` bytes from here into the pinned block
    /// `dst` on `stream` (CuPy's `copy_to_host_async`); the transfer holds
    /// the memory until it is done.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{MemoryPointer, alloc_pinned_memory};
    /// use gpu_runtime::{Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let p = MemoryPointer::from(alloc(8)?);
    /// let s = Stream::current()?;
    /// p.memset_async(3, 8, &s)?;
    /// let t = p.copy_to_host_async(alloc_pinned_memory(8)?, &s)?;
    /// assert_eq!(t.wait()?.as_slice(), [3; 8]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Memory::read_at_async`].
    pub fn copy_to_host_async(&self, dst: PinnedMemory, stream: &Stream) -> Result<HostTransfer> {
        let t = self.mem.read_at_async(self.offset, dst, stream)?;
        // The transfer does not hold the device memory: the stream does, in
        // the pool's order, once it is recorded as a user.
        self.mem.record_stream(stream);
        Ok(t)
    }

    /// Copies `bytes` bytes from `src` to here, ordered on the device's
    /// current stream (CuPy's `copy_from_device`), across devices when
    /// they differ.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::MemoryPointer;
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (a, b) = (MemoryPointer::from(alloc(8)?), MemoryPointer::from(alloc(8)?));
    /// a.copy_from_host(&[1; 8])?;
    /// b.copy_from_device(&a, 8)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when either range does not fit; the
    /// driver failed.
    pub fn copy_from_device(&self, src: &MemoryPointer, bytes: usize) -> Result<()> {
        self.copy_from_device_async(src, bytes, &Stream::current_on(self.device()))
    }

    /// Copies `bytes` bytes from `src` to here on `stream` (CuPy's
    /// `copy_from_device_async`).
    ///
    /// ```no_run
    /// use gpu_runtime::memory::MemoryPointer;
    /// use gpu_runtime::{Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (a, b) = (MemoryPointer::from(alloc(8)?), MemoryPointer::from(alloc(8)?));
    /// b.copy_from_device_async(&a, 8, &Stream::current()?)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Memory::copy_from_device_at`].
    pub fn copy_from_device_async(
        &self,
        src: &MemoryPointer,
        bytes: usize,
        stream: &Stream,
    ) -> Result<()> {
        self.mem
            .copy_from_device_at(self.offset, &src.mem, src.offset, bytes, stream)
    }

    /// Sets `bytes` bytes from here to `value`, ordered on the device's
    /// current stream (CuPy's `memset`).
    ///
    /// ```no_run
    /// use gpu_runtime::memory::MemoryPointer;
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// MemoryPointer::from(alloc(8)?).memset(0, 8)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] past the end; the driver failed.
    pub fn memset(&self, value: u8, bytes: usize) -> Result<()> {
        self.memset_async(value, bytes, &Stream::current_on(self.device()))
    }

    /// Sets `bytes` bytes from here to `value` on `stream` (CuPy's
    /// `memset_async`).
    ///
    /// ```no_run
    /// use gpu_runtime::memory::MemoryPointer;
    /// use gpu_runtime::{Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// MemoryPointer::from(alloc(8)?).memset_async(0xff, 8, &Stream::current()?)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Memory::memset_at`].
    pub fn memset_async(&self, value: u8, bytes: usize, stream: &Stream) -> Result<()> {
        self.mem.memset_at(self.offset, bytes, value, stream)
    }
}

impl From<Memory> for MemoryPointer {
    fn from(mem: Memory) -> MemoryPointer {
        MemoryPointer {
            mem: Arc::new(mem),
            offset: 0,
        }
    }
}

impl From<Arc<Memory>> for MemoryPointer {
    fn from(mem: Arc<Memory>) -> MemoryPointer {
        MemoryPointer { mem, offset: 0 }
    }
}

fn check_offset(size: usize, offset: usize) -> Result<()> {
    if offset > size {
        return Err(Error::InvalidArgument(format!(
            "MemoryPointer: offset {offset} is past the end of the memory of {size} bytes"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake(size: usize) -> Arc<Memory> {
        // SAFETY: never dereferenced: these tests only move the pointer.
        Arc::new(unsafe {
            Memory::from_raw(
                DevicePtr(0x10_0000),
                size,
                Device::from_ordinal_unchecked(0),
                None,
            )
        })
    }

    #[test]
    fn pointers_stay_inside_their_memory() {
        let m = fake(64);
        let p = MemoryPointer::new(m.clone(), 0).unwrap();
        assert_eq!(p.add(64).unwrap().size(), 0);
        assert_eq!(p.add(16).unwrap().ptr(), DevicePtr(0x10_0010));
        assert!(p.add(65).is_err());
        assert!(p.add(16).unwrap().add(usize::MAX).is_err());
        assert!(p.sub(1).is_err());
        assert_eq!(p.add(10).unwrap().sub(4).unwrap().offset(), 6);
        let e = MemoryPointer::new(m, 65).unwrap_err().to_string();
        assert!(e.contains("past the end of the memory of 64 bytes"), "{e}");
    }

    #[test]
    fn copies_past_the_end_are_refused_before_the_driver() {
        let p = MemoryPointer::new(fake(8), 4).unwrap();
        // `range` is checked first, so no device is needed to see the error.
        let e = p
            .mem()
            .range("MemoryPointer", p.offset(), 5)
            .unwrap_err()
            .to_string();
        assert!(e.contains("5 bytes at offset 4 do not fit"), "{e}");
        assert!(p.mem().range("MemoryPointer", p.offset(), 4).is_ok());
    }
}
