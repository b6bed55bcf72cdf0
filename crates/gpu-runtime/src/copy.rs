//! Copies between host and device, device and device, devices, and memset.
//!
//! | CUDA / CuPy                                | Cuprum                                   |
//! |--------------------------------------------|------------------------------------------|
//! | `cudaMemcpy(HostToDevice)`                 | [`memcpy_htod`], [`Memory::copy_from_host`] |
//! | `cudaMemcpyAsync(HostToDevice)`            | [`memcpy_htod_async`] (pinned staging), [`memcpy_htod_async_pinned`] |
//! | `cudaMemcpy(DeviceToHost)`                 | [`memcpy_dtoh`], [`Memory::copy_to_host`] |
//! | `cudaMemcpyAsync(DeviceToHost)`            | [`memcpy_dtoh_async`] (into [`PinnedMemory`]), [`memcpy_dtoh_async_unchecked`] |
//! | `cudaMemcpyAsync(DeviceToDevice)`          | [`memcpy_dtod`], [`Memory::copy_from_device`] |
//! | `cudaMemcpyPeerAsync`                      | [`memcpy_peer`]                          |
//! | `cudaMemsetAsync`, `cuMemsetD16/D32Async`  | [`memset_d8`], [`memset_d16`], [`memset_d32`], [`Memory::memset`] |
//!
//! Every copy is ordered on a stream: the asynchronous ones on the stream
//! given, the synchronous ones on the thread's current stream of the device
//! (so they follow the work already queued there, as CuPy's do). Functions on
//! raw [`DevicePtr`]s cannot check bounds: the device reports a bad address
//! as an error of later work. The [`Memory`] methods check lengths first.

use std::ffi::c_void;

use gpu_sys::cuda;

use crate::driver::check;
use crate::memory::{Memory, PinnedMemory, is_page_locked};
use crate::sync::check_sync_allowed;
use crate::{Device, DevicePtr, Error, Result, Stream};

/// Copies `src` to device address `dst` on the current device's current
/// stream. When it returns, `src` may be reused: pageable memory has been
/// consumed by the driver, and page-locked memory is staged through the
/// pinned pool first. The host does not wait for the device.
///
/// ```no_run
/// use gpu_runtime::{alloc, memcpy_htod};
/// # fn main() -> gpu_runtime::Result<()> {
/// let m = alloc(4)?;
/// // SAFETY: `m` holds 4 bytes and lives past the copy, which is stream-ordered.
/// unsafe { memcpy_htod(m.ptr(), &[1, 2, 3, 4])? };
/// # Ok(()) }
/// ```
///
/// # Safety
/// `dst` must be device memory (of the stream's device, or one it can
/// address) valid for writes of `src.len()` bytes, not freed before the work ends, and not
/// accessed meanwhile except in stream order. The safe form is
/// [`Memory::write_at`].
///
/// # Errors
/// No device, or the driver failed.
pub unsafe fn memcpy_htod(dst: DevicePtr, src: &[u8]) -> Result<()> {
    let device = Device::current()?;
    // SAFETY: the caller's contract is htod_sync's.
    unsafe { htod_sync(dst, src, &Stream::current_on(device)) }
}

/// Like [`memcpy_htod`], on `stream` (ordered after the work queued there).
///
/// ```no_run
/// use gpu_runtime::{Stream, alloc, memcpy_htod_on};
/// # fn main() -> gpu_runtime::Result<()> {
/// let (m, s) = (alloc(4)?, Stream::new()?);
/// // SAFETY: `m` holds 4 bytes and lives past the copy; `s` is synchronized below.
/// unsafe { memcpy_htod_on(m.ptr(), &[1, 2, 3, 4], &s)? };
/// s.synchronize()?;
/// # Ok(()) }
/// ```
///
/// # Safety
/// `dst` must be device memory (of the stream's device, or one it can
/// address) valid for writes of `src.len()` bytes, not freed before the work ends, and not
/// accessed meanwhile except in stream order. The safe form is
/// [`Memory::write_at`].
///
/// # Errors
/// As [`memcpy_htod`].
pub unsafe fn memcpy_htod_on(dst: DevicePtr, src: &[u8], stream: &Stream) -> Result<()> {
    // SAFETY: the caller's contract is htod_sync's.
    unsafe { htod_sync(dst, src, stream) }
}

/// # Safety
/// As [`memcpy_htod`].
unsafe fn htod_sync(dst: DevicePtr, src: &[u8], stream: &Stream) -> Result<()> {
    if src.is_empty() {
        return Ok(());
    }
    stream.device().bind()?;
    if is_page_locked(src.as_ptr()) {
        // The driver would copy straight from `src` after we return.
        // SAFETY: the caller's contract covers `dst`.
        return unsafe { memcpy_htod_async(dst, src, stream) };
    }
    // SAFETY: `src` is valid for its length; the driver copies pageable
    // memory out of it before returning.
    check("cuMemcpyHtoDAsync", unsafe {
        cuda::cuMemcpyHtoDAsync_v2(dst.0, src.as_ptr().cast(), src.len(), stream.handle()?)
    })
}

/// Copies `src` to `dst` on `stream` and returns before the copy ends:
/// `src` is first copied into a block of pinned memory from
/// [`alloc_pinned_memory`](crate::memory::alloc_pinned_memory) (the
/// default [`PinnedMemoryPool`](crate::PinnedMemoryPool) unless
/// [`set_pinned_memory_allocator`](crate::memory::set_pinned_memory_allocator)
/// changed it), which is reused or freed only after the copy.
///
/// ```no_run
/// use gpu_runtime::{Stream, alloc, memcpy_htod_async};
/// # fn main() -> gpu_runtime::Result<()> {
/// let (m, s) = (alloc(1024)?, Stream::current()?);
/// let data = vec![7u8; 1024];
/// // SAFETY: `m` holds 1024 bytes and is kept until `s` is synchronized.
/// unsafe { memcpy_htod_async(m.ptr(), &data, &s)? };
/// drop(data); // fine: the bytes were staged in pinned memory
/// s.synchronize()?;
/// # Ok(()) }
/// ```
///
/// # Safety
/// `dst` must be device memory (of the stream's device, or one it can
/// address) valid for writes of `src.len()` bytes, not freed before the work ends, and not
/// accessed meanwhile except in stream order. The safe form is
/// [`Memory::write_at_async`].
///
/// # Errors
/// No pinned memory, or the driver failed.
pub unsafe fn memcpy_htod_async(dst: DevicePtr, src: &[u8], stream: &Stream) -> Result<()> {
    if src.is_empty() {
        return Ok(());
    }
    let mut staging = crate::memory::alloc_pinned_memory(src.len())?;
    staging.as_mut_slice().copy_from_slice(src);
    // SAFETY: the caller's contract covers `dst`.
    unsafe { memcpy_htod_async_pinned(dst, staging, stream) }
}

/// Copies all of `src` to `dst` on `stream` straight from the pinned block,
/// which is released once the copy has finished.
///
/// ```no_run
/// use gpu_runtime::{PinnedMemoryPool, Stream, alloc, memcpy_htod_async_pinned};
/// # fn main() -> gpu_runtime::Result<()> {
/// let (m, s) = (alloc(256)?, Stream::current()?);
/// let mut host = PinnedMemoryPool::default_pool().malloc(256)?;
/// host.as_mut_slice().fill(1);
/// // SAFETY: `m` holds 256 bytes and is kept until `s` is synchronized.
/// unsafe { memcpy_htod_async_pinned(m.ptr(), host, &s)? };
/// s.synchronize()?;
/// # Ok(()) }
/// ```
///
/// # Safety
/// `dst` must be device memory (of the stream's device, or one it can
/// address) valid for writes of `src.len()` bytes, not freed before the work ends, and not
/// accessed meanwhile except in stream order. The safe form is
/// [`Memory::write_at_async`].
///
/// # Errors
/// The driver failed.
pub unsafe fn memcpy_htod_async_pinned(
    dst: DevicePtr,
    mut src: PinnedMemory,
    stream: &Stream,
) -> Result<()> {
    if src.is_empty() {
        return Ok(());
    }
    stream.device().bind()?;
    // SAFETY: `src` is pinned and is kept from reuse until the copy is done
    // (the event recorded below).
    check("cuMemcpyHtoDAsync", unsafe {
        cuda::cuMemcpyHtoDAsync_v2(dst.0, src.as_ptr().cast(), src.len(), stream.handle()?)
    })?;
    if src.record(stream).is_err() {
        // Without an event we cannot tell when the copy is done: never
        // reuse the block.
        std::mem::forget(src);
    }
    Ok(())
}

/// Starts copying `bytes` bytes from host address `src` to device address
/// `dst` on `stream`, without owning `src` (the counterpart of
/// [`memcpy_dtoh_async_unchecked`], for benchmarks and callers that manage
/// their own pinned buffers).
///
/// ```no_run
/// use gpu_runtime::{PinnedMemoryPool, Stream, alloc, memcpy_htod_async_unchecked};
/// # fn main() -> gpu_runtime::Result<()> {
/// let (m, s) = (alloc(256)?, Stream::current()?);
/// let host = PinnedMemoryPool::default_pool().malloc(256)?;
/// // SAFETY: `host` and `m` hold 256 bytes and are untouched until `s` is synchronized.
/// unsafe { memcpy_htod_async_unchecked(m.ptr(), host.as_ptr(), 256, &s)? };
/// s.synchronize()?;
/// # Ok(()) }
/// ```
///
/// # Safety
/// `src .. src + bytes` must be valid for reads and must be neither written
/// nor freed until the work queued on `stream` so far has finished. For the
/// copy to be truly asynchronous `src` should be page-locked.
///
/// # Errors
/// The driver failed.
pub unsafe fn memcpy_htod_async_unchecked(
    dst: DevicePtr,
    src: *const u8,
    bytes: usize,
    stream: &Stream,
) -> Result<()> {
    if bytes == 0 {
        return Ok(());
    }
    stream.device().bind()?;
    // SAFETY: the caller guarantees `src` for `bytes` until the stream catches up.
    check("cuMemcpyHtoDAsync", unsafe {
        cuda::cuMemcpyHtoDAsync_v2(dst.0, src.cast::<c_void>(), bytes, stream.handle()?)
    })
}

/// Copies `dst.len()` bytes from device address `src` into `dst`, on the
/// current device's current stream, and waits for the copy.
///
/// ```no_run
/// use gpu_runtime::{alloc, memcpy_dtoh, memcpy_htod};
/// # fn main() -> gpu_runtime::Result<()> {
/// let m = alloc(3)?;
/// let mut back = [0u8; 3];
/// // SAFETY: `m` holds 3 bytes; both copies run in order on the current stream.
/// unsafe {
///     memcpy_htod(m.ptr(), &[5, 6, 7])?;
///     memcpy_dtoh(&mut back, m.ptr())?;
/// }
/// assert_eq!(back, [5, 6, 7]);
/// # Ok(()) }
/// ```
///
/// # Safety
/// `src` must be device memory (of the stream's device, or one it can
/// address) valid for reads of `dst.len()` bytes, not freed before the work ends, and not
/// accessed meanwhile except in stream order. The safe form is
/// [`Memory::read_at`].
///
/// # Errors
/// [`Error::DeviceSynchronized`] inside `allow_synchronize(false)`,
/// no device, or the driver failed (including errors of earlier work).
pub unsafe fn memcpy_dtoh(dst: &mut [u8], src: DevicePtr) -> Result<()> {
    check_sync_allowed("memcpy_dtoh")?;
    let device = Device::current()?;
    // SAFETY: the caller's contract is dtoh_sync's.
    unsafe { dtoh_sync(dst, src, &Stream::current_on(device)) }
}

/// Like [`memcpy_dtoh`], on `stream` (ordered after the work queued there).
///
/// ```no_run
/// use gpu_runtime::{Stream, alloc, memcpy_dtoh_on, memcpy_htod_on};
/// # fn main() -> gpu_runtime::Result<()> {
/// let (m, s) = (alloc(2)?, Stream::new()?);
/// let mut back = [0u8; 2];
/// // SAFETY: `m` holds 2 bytes; both copies are ordered on `s`.
/// unsafe {
///     memcpy_htod_on(m.ptr(), &[1, 2], &s)?;
///     memcpy_dtoh_on(&mut back, m.ptr(), &s)?;
/// }
/// assert_eq!(back, [1, 2]);
/// # Ok(()) }
/// ```
///
/// # Safety
/// `src` must be device memory (of the stream's device, or one it can
/// address) valid for reads of `dst.len()` bytes, not freed before the work ends, and not
/// accessed meanwhile except in stream order. The safe form is
/// [`Memory::read_at`].
///
/// # Errors
/// As [`memcpy_dtoh`].
pub unsafe fn memcpy_dtoh_on(dst: &mut [u8], src: DevicePtr, stream: &Stream) -> Result<()> {
    check_sync_allowed("memcpy_dtoh")?;
    // SAFETY: the caller's contract is dtoh_sync's.
    unsafe { dtoh_sync(dst, src, stream) }
}

/// # Safety
/// As [`memcpy_dtoh`].
unsafe fn dtoh_sync(dst: &mut [u8], src: DevicePtr, stream: &Stream) -> Result<()> {
    if dst.is_empty() {
        return Ok(());
    }
    stream.device().bind()?;
    // SAFETY: `dst` is valid for writes of its length and stays borrowed
    // until the stream has been synchronized below.
    check("cuMemcpyDtoHAsync", unsafe {
        cuda::cuMemcpyDtoHAsync_v2(dst.as_mut_ptr().cast(), src.0, dst.len(), stream.handle()?)
    })?;
    // SAFETY: a valid stream handle.
    check("cuStreamSynchronize", unsafe {
        cuda::cuStreamSynchronize(stream.handle()?)
    })
}

/// An asynchronous device-to-host copy in flight; owns its destination
/// until [`wait`](HostTransfer::wait) hands it back. Dropping it without
/// waiting is safe: the block returns to its pool after the copy.
#[derive(Debug)]
#[must_use = "wait() returns the copied data"]
pub struct HostTransfer {
    dst: PinnedMemory,
}

impl HostTransfer {
    /// A transfer into `dst`, whose copy is queued and recorded on it.
    pub(crate) fn new(dst: PinnedMemory) -> HostTransfer {
        HostTransfer { dst }
    }

    /// Whether the copy has finished (does not block).
    ///
    /// ```no_run
    /// use gpu_runtime::{PinnedMemoryPool, Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (m, s) = (alloc(1 << 20)?, Stream::current()?);
    /// let t = m.copy_to_host_async(PinnedMemoryPool::default_pool().malloc(1 << 20)?, &s)?;
    /// while !t.is_done()? {
    ///     std::thread::yield_now(); // do other host work meanwhile
    /// }
    /// let bytes = t.wait()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The copy or earlier work on its stream failed.
    pub fn is_done(&self) -> Result<bool> {
        self.dst.is_idle()
    }

    /// Waits for the copy and returns the filled memory.
    ///
    /// ```no_run
    /// use gpu_runtime::{PinnedMemoryPool, Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (m, s) = (alloc(16)?, Stream::current()?);
    /// m.memset(9, &s)?;
    /// let t = m.copy_to_host_async(PinnedMemoryPool::default_pool().malloc(16)?, &s)?;
    /// assert_eq!(t.wait()?.as_slice(), [9; 16]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Forbidden by `allow_synchronize(false)`, or an error of the copy or
    /// earlier work (the memory is dropped then).
    pub fn wait(mut self) -> Result<PinnedMemory> {
        self.dst.synchronize()?;
        Ok(self.dst)
    }
}

/// Starts copying `dst.len()` bytes from device address `src` into the
/// pinned block `dst` on `stream`. The transfer owns `dst` so that nothing
/// reads it before the copy ends; [`HostTransfer::wait`] returns it.
///
/// ```no_run
/// use gpu_runtime::{PinnedMemoryPool, Stream, alloc, memcpy_dtoh_async};
/// # fn main() -> gpu_runtime::Result<()> {
/// let (m, s) = (alloc(64)?, Stream::current()?);
/// m.memset(3, &s)?;
/// let dst = PinnedMemoryPool::default_pool().malloc(64)?;
/// // SAFETY: `m` holds 64 bytes and outlives the transfer (waited for below).
/// let t = unsafe { memcpy_dtoh_async(dst, m.ptr(), &s)? };
/// assert_eq!(t.wait()?.as_slice(), [3; 64]);
/// # Ok(()) }
/// ```
///
/// # Safety
/// `src` must be device memory (of the stream's device, or one it can
/// address) valid for reads of `dst.len()` bytes, not freed before the work ends, and not
/// accessed meanwhile except in stream order. The safe form is
/// [`Memory::read_at_async`].
///
/// # Errors
/// The driver failed.
pub unsafe fn memcpy_dtoh_async(
    mut dst: PinnedMemory,
    src: DevicePtr,
    stream: &Stream,
) -> Result<HostTransfer> {
    if !dst.is_empty() {
        stream.device().bind()?;
        // SAFETY: `dst` is pinned and owned by the returned transfer, which
        // hands it out only after the recorded event.
        check("cuMemcpyDtoHAsync", unsafe {
            cuda::cuMemcpyDtoHAsync_v2(dst.as_mut_ptr().cast(), src.0, dst.len(), stream.handle()?)
        })?;
        if let Err(e) = dst.record(stream) {
            // The copy is queued but cannot be tracked: keep `dst` from
            // reuse and report the failure.
            std::mem::forget(dst);
            return Err(e);
        }
    }
    Ok(HostTransfer { dst })
}

/// Starts copying `bytes` bytes from device address `src` to host address
/// `dst` on `stream`, without owning `dst`.
///
/// ```no_run
/// use gpu_runtime::{PinnedMemoryPool, Stream, alloc, memcpy_dtoh_async_unchecked};
/// # fn main() -> gpu_runtime::Result<()> {
/// let (m, s) = (alloc(64)?, Stream::current()?);
/// m.memset(3, &s)?;
/// let mut host = PinnedMemoryPool::default_pool().malloc(64)?;
/// // SAFETY: both buffers hold 64 bytes; nothing touches `host` before the sync.
/// unsafe { memcpy_dtoh_async_unchecked(host.as_mut_ptr(), m.ptr(), 64, &s)? };
/// s.synchronize()?;
/// assert_eq!(host.as_slice(), [3; 64]);
/// # Ok(()) }
/// ```
///
/// # Safety
/// `dst .. dst + bytes` must be valid for writes, and must be neither read,
/// written nor freed until the work queued on `stream` so far has finished
/// (synchronize the stream or an event recorded after this call). For the
/// copy to be truly asynchronous `dst` should be page-locked; pageable
/// memory makes the driver wait for the copy before returning.
pub unsafe fn memcpy_dtoh_async_unchecked(
    dst: *mut u8,
    src: DevicePtr,
    bytes: usize,
    stream: &Stream,
) -> Result<()> {
    if bytes == 0 {
        return Ok(());
    }
    stream.device().bind()?;
    // SAFETY: the caller guarantees `dst` for `bytes` until the stream catches up.
    check("cuMemcpyDtoHAsync", unsafe {
        cuda::cuMemcpyDtoHAsync_v2(dst.cast::<c_void>(), src.0, bytes, stream.handle()?)
    })
}

/// Copies `bytes` bytes from `src` to `dst`, both device addresses of
/// `stream`'s device (or of devices it can address), on `stream`.
///
/// ```no_run
/// use gpu_runtime::{Stream, alloc, memcpy_dtod};
/// # fn main() -> gpu_runtime::Result<()> {
/// let (a, b, s) = (alloc(8)?, alloc(8)?, Stream::current()?);
/// a.memset(1, &s)?;
/// // SAFETY: both hold 8 bytes and outlive the copy, ordered on `s`.
/// unsafe { memcpy_dtod(b.ptr(), a.ptr(), 8, &s)? };
/// let mut back = [0u8; 8];
/// b.read_at(0, &mut back, &s)?;
/// assert_eq!(back, [1; 8]);
/// # Ok(()) }
/// ```
///
/// # Safety
/// `dst` and `src` must be device memory (of the stream's device, or one it can
/// address) valid for `bytes` bytes each (writes to `dst`, reads from `src`), not freed before the work ends, and not
/// accessed meanwhile except in stream order. The safe form is
/// [`Memory::copy_from_device_at`].
///
/// # Errors
/// The driver failed.
pub unsafe fn memcpy_dtod(
    dst: DevicePtr,
    src: DevicePtr,
    bytes: usize,
    stream: &Stream,
) -> Result<()> {
    if bytes == 0 {
        return Ok(());
    }
    stream.device().bind()?;
    // SAFETY: device addresses; a bad one is reported by the driver.
    check("cuMemcpyDtoDAsync", unsafe {
        cuda::cuMemcpyDtoDAsync_v2(dst.0, src.0, bytes, stream.handle()?)
    })
}

/// Copies `bytes` bytes from `src` on `src_device` to `dst` on `dst_device`,
/// on `stream` (peer access need not be enabled; the driver stages when it
/// is not).
///
/// ```no_run
/// use gpu_runtime::{Device, Stream, alloc, memcpy_peer};
/// # fn main() -> gpu_runtime::Result<()> {
/// let (d0, d1) = (Device::new(0)?, Device::new(1)?);
/// let src = { let _on = d0.scoped()?; alloc(1024)? };
/// let dst = { let _on = d1.scoped()?; alloc(1024)? };
/// let s = Stream::current_on(d1);
/// // SAFETY: both hold 1024 bytes and outlive the copy (synchronized below).
/// unsafe { memcpy_peer(dst.ptr(), d1, src.ptr(), d0, 1024, &s)? };
/// s.synchronize()?;
/// # Ok(()) }
/// ```
///
/// # Safety
/// `dst` (on `dst_device`) and `src` (on `src_device`)` must be device memory (of the stream's device, or one it can
/// address) valid for `bytes` bytes each (writes to `dst`, reads from `src`), not freed before the work ends, and not
/// accessed meanwhile except in stream order. The safe form is
/// [`Memory::copy_from_device_at`].
///
/// # Errors
/// The devices' contexts could not be retained, or the driver failed.
pub unsafe fn memcpy_peer(
    dst: DevicePtr,
    dst_device: Device,
    src: DevicePtr,
    src_device: Device,
    bytes: usize,
    stream: &Stream,
) -> Result<()> {
    if bytes == 0 {
        return Ok(());
    }
    let (dst_ctx, src_ctx) = (dst_device.context()?, src_device.context()?);
    stream.device().bind()?;
    // SAFETY: retained primary contexts and device addresses in them.
    check("cuMemcpyPeerAsync", unsafe {
        cuda::cuMemcpyPeerAsync(dst.0, dst_ctx, src.0, src_ctx, bytes, stream.handle()?)
    })
}

fn check_aligned(operation: &str, dst: DevicePtr, align: u64) -> Result<()> {
    if dst.0.is_multiple_of(align) {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!(
            "{operation}: the address {:#x} is not aligned to {align} bytes",
            dst.0
        )))
    }
}

/// Sets `count` bytes at `dst` to `value`, on `stream`.
///
/// ```no_run
/// use gpu_runtime::{Stream, alloc, memset_d8};
/// # fn main() -> gpu_runtime::Result<()> {
/// let (m, s) = (alloc(4)?, Stream::current()?);
/// // SAFETY: `m` holds 4 bytes and outlives the work on `s`.
/// unsafe { memset_d8(m.ptr(), 0xff, 4, &s)? };
/// let mut back = [0u8; 4];
/// m.read_at(0, &mut back, &s)?;
/// assert_eq!(back, [0xff; 4]);
/// # Ok(()) }
/// ```
///
/// # Safety
/// `dst` must be device memory (of the stream's device, or one it can
/// address) valid for writes of `count` bytes, not freed before the work ends, and not
/// accessed meanwhile except in stream order. The safe form is
/// [`Memory::memset_at`].
///
/// # Errors
/// The driver failed.
pub unsafe fn memset_d8(dst: DevicePtr, value: u8, count: usize, stream: &Stream) -> Result<()> {
    if count == 0 {
        return Ok(());
    }
    stream.device().bind()?;
    // SAFETY: a device address; a bad one is reported by the driver.
    check("cuMemsetD8Async", unsafe {
        cuda::cuMemsetD8Async(dst.0, value, count, stream.handle()?)
    })
}

/// Sets `count` 16-bit words at `dst` (2-byte aligned) to `value`, on `stream`.
///
/// ```no_run
/// use gpu_runtime::{Stream, alloc, memset_d16};
/// # fn main() -> gpu_runtime::Result<()> {
/// let (m, s) = (alloc(8)?, Stream::current()?);
/// // SAFETY: `m` holds 4 two-byte values and outlives the work on `s`.
/// unsafe { memset_d16(m.ptr(), 0x3c00, 4, &s)? }; // four float16 ones
/// let mut back = [0u8; 8];
/// m.read_at(0, &mut back, &s)?;
/// assert_eq!(back, [0x00, 0x3c, 0x00, 0x3c, 0x00, 0x3c, 0x00, 0x3c]);
/// # Ok(()) }
/// ```
///
/// # Safety
/// `dst` must be device memory (of the stream's device, or one it can
/// address) valid for writes of `count` 2-byte values, not freed before the work ends, and not
/// accessed meanwhile except in stream order. The safe form is
/// [`Memory::memset_at`].
///
/// # Errors
/// [`Error::InvalidArgument`] for a misaligned `dst`, or the driver failed.
pub unsafe fn memset_d16(dst: DevicePtr, value: u16, count: usize, stream: &Stream) -> Result<()> {
    check_aligned("memset_d16", dst, 2)?;
    if count == 0 {
        return Ok(());
    }
    stream.device().bind()?;
    // SAFETY: an aligned device address; a bad one is reported by the driver.
    check("cuMemsetD16Async", unsafe {
        cuda::cuMemsetD16Async(dst.0, value, count, stream.handle()?)
    })
}

/// Sets `count` 32-bit words at `dst` (4-byte aligned) to `value`, on `stream`.
///
/// ```no_run
/// use gpu_runtime::{Stream, alloc, memset_d32};
/// # fn main() -> gpu_runtime::Result<()> {
/// let (m, s) = (alloc(16)?, Stream::current()?);
/// // SAFETY: `m` holds 4 four-byte values and outlives the work on `s`.
/// unsafe { memset_d32(m.ptr(), 1.0f32.to_bits(), 4, &s)? }; // four float32 ones
/// let mut back = [0u8; 16];
/// m.read_at(0, &mut back, &s)?;
/// assert_eq!(&back[..4], 1.0f32.to_ne_bytes());
/// # Ok(()) }
/// ```
///
/// # Safety
/// `dst` must be device memory (of the stream's device, or one it can
/// address) valid for writes of `count` 4-byte values, not freed before the work ends, and not
/// accessed meanwhile except in stream order. The safe form is
/// [`Memory::memset_at`].
///
/// # Errors
/// [`Error::InvalidArgument`] for a misaligned `dst`, or the driver failed.
pub unsafe fn memset_d32(dst: DevicePtr, value: u32, count: usize, stream: &Stream) -> Result<()> {
    check_aligned("memset_d32", dst, 4)?;
    if count == 0 {
        return Ok(());
    }
    stream.device().bind()?;
    // SAFETY: an aligned device address; a bad one is reported by the driver.
    check("cuMemsetD32Async", unsafe {
        cuda::cuMemsetD32Async(dst.0, value, count, stream.handle()?)
    })
}

impl Memory {
    fn check_stream(&self, operation: &'static str, stream: &Stream) -> Result<()> {
        if stream.device() == self.device() {
            Ok(())
        } else {
            Err(Error::DeviceMismatch {
                operation,
                what: "the stream",
                found: stream.device().ordinal(),
                expected: self.device().ordinal(),
            })
        }
    }

    /// The address of byte `offset`, after checking that `len` bytes from
    /// there lie inside this memory.
    pub(crate) fn range(&self, operation: &str, offset: usize, len: usize) -> Result<DevicePtr> {
        match offset.checked_add(len) {
            Some(end) if end <= self.size() => Ok(self.ptr().offset(offset as isize)),
            _ => Err(Error::InvalidArgument(format!(
                "{operation}: {len} bytes at offset {offset} do not fit in the device memory \
                 of {} bytes",
                self.size()
            ))),
        }
    }

    /// Copies `src` to the start of this memory on the device's current
    /// stream; `src` may be reused when this returns (see [`memcpy_htod`]).
    ///
    /// ```no_run
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let m = alloc(4)?;
    /// m.copy_from_host(&[1, 2, 3, 4])?;
    /// let mut back = [0u8; 4];
    /// m.copy_to_host(&mut back)?;
    /// assert_eq!(back, [1, 2, 3, 4]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `src` is longer than the memory, or
    /// the driver failed.
    pub fn copy_from_host(&self, src: &[u8]) -> Result<()> {
        self.write_at(0, src, &Stream::current_on(self.device()))
    }

    /// Copies `src` into this memory from byte `offset` on, ordered on
    /// `stream`; `src` may be reused when this returns (pageable memory is
    /// consumed by the driver, page-locked memory staged first).
    ///
    /// ```no_run
    /// use gpu_runtime::{Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (m, s) = (alloc(4)?, Stream::current()?);
    /// m.memset(0, &s)?;
    /// m.write_at(2, &[8, 9], &s)?;
    /// let mut back = [0u8; 4];
    /// m.read_at(0, &mut back, &s)?;
    /// assert_eq!(back, [0, 0, 8, 9]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the bytes do not fit,
    /// [`Error::DeviceMismatch`] for a stream of another device, or the
    /// driver failed.
    pub fn write_at(&self, offset: usize, src: &[u8], stream: &Stream) -> Result<()> {
        let dst = self.range("Memory::write_at", offset, src.len())?;
        self.check_stream("Memory::write_at", stream)?;
        // SAFETY: `dst .. dst + src.len()` lies inside this live memory;
        // device-side ordering is the stream's, as for every kernel.
        unsafe { htod_sync(dst, src, stream) }
    }

    /// Copies `src` to the start of this memory on `stream` through pinned
    /// staging (see [`memcpy_htod_async`]).
    ///
    /// ```no_run
    /// use gpu_runtime::{Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (m, s) = (alloc(1 << 20)?, Stream::new()?);
    /// m.copy_from_host_async(&vec![1u8; 1 << 20], &s)?; // the host goes on at once
    /// s.synchronize()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `src` is longer than the memory,
    /// [`Error::DeviceMismatch`] for a stream of another device, or the
    /// driver failed.
    pub fn copy_from_host_async(&self, src: &[u8], stream: &Stream) -> Result<()> {
        self.write_at_async(0, src, stream)
    }

    /// Copies `src` into this memory from byte `offset` on, on `stream`,
    /// through pinned staging: the host does not wait for the copy.
    ///
    /// ```no_run
    /// use gpu_runtime::{Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (m, s) = (alloc(8)?, Stream::current()?);
    /// m.memset(0, &s)?;
    /// m.write_at_async(4, &[1, 1, 1, 1], &s)?;
    /// let mut back = [0u8; 8];
    /// m.read_at(0, &mut back, &s)?;
    /// assert_eq!(back, [0, 0, 0, 0, 1, 1, 1, 1]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Memory::write_at`], or no pinned memory.
    pub fn write_at_async(&self, offset: usize, src: &[u8], stream: &Stream) -> Result<()> {
        let dst = self.range("Memory::write_at_async", offset, src.len())?;
        self.check_stream("Memory::write_at_async", stream)?;
        // SAFETY: as in write_at.
        unsafe { memcpy_htod_async(dst, src, stream) }
    }

    /// Copies the first `dst.len()` bytes of this memory into `dst` on the
    /// device's current stream and waits for them.
    ///
    /// ```no_run
    /// use gpu_runtime::{Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let m = alloc(4)?;
    /// m.memset(7, &Stream::current()?)?;
    /// let mut back = [0u8; 4];
    /// m.copy_to_host(&mut back)?;
    /// assert_eq!(back, [7; 4]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `dst` is longer than the memory,
    /// [`Error::DeviceSynchronized`], or the driver failed.
    pub fn copy_to_host(&self, dst: &mut [u8]) -> Result<()> {
        self.read_at(0, dst, &Stream::current_on(self.device()))
    }

    /// Copies `dst.len()` bytes from byte `offset` of this memory into
    /// `dst`, ordered on `stream`, and waits for them.
    ///
    /// ```no_run
    /// use gpu_runtime::{Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (m, s) = (alloc(4)?, Stream::current()?);
    /// m.write_at(0, &[1, 2, 3, 4], &s)?;
    /// let mut tail = [0u8; 2];
    /// m.read_at(2, &mut tail, &s)?;
    /// assert_eq!(tail, [3, 4]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the bytes do not fit,
    /// [`Error::DeviceMismatch`], [`Error::DeviceSynchronized`], or
    /// an error of the copy or of earlier work on the stream.
    pub fn read_at(&self, offset: usize, dst: &mut [u8], stream: &Stream) -> Result<()> {
        let src = self.range("Memory::read_at", offset, dst.len())?;
        self.check_stream("Memory::read_at", stream)?;
        check_sync_allowed("Memory::read_at")?;
        // SAFETY: `src .. src + dst.len()` lies inside this live memory.
        unsafe { dtoh_sync(dst, src, stream) }
    }

    /// Starts copying the first `dst.len()` bytes of this memory into the
    /// pinned block `dst` on `stream` (see [`memcpy_dtoh_async`]). The
    /// transfer does not keep this memory alive: keep it (or record the
    /// stream) until the transfer is done.
    ///
    /// ```no_run
    /// use gpu_runtime::{PinnedMemoryPool, Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (m, s) = (alloc(4)?, Stream::current()?);
    /// m.write_at(0, &[1, 2, 3, 4], &s)?;
    /// let t = m.copy_to_host_async(PinnedMemoryPool::default_pool().malloc(4)?, &s)?;
    /// assert_eq!(t.wait()?.as_slice(), [1, 2, 3, 4]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `dst` is longer than the memory,
    /// [`Error::DeviceMismatch`] for a stream of another device, or the
    /// driver failed.
    pub fn copy_to_host_async(&self, dst: PinnedMemory, stream: &Stream) -> Result<HostTransfer> {
        self.read_at_async(0, dst, stream)
    }

    /// Starts copying `dst.len()` bytes from byte `offset` of this memory
    /// into the pinned block `dst` on `stream`. As for
    /// [`copy_to_host_async`](Self::copy_to_host_async), keep this memory
    /// alive until the transfer is done.
    ///
    /// ```no_run
    /// use gpu_runtime::{PinnedMemoryPool, Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (m, s) = (alloc(4)?, Stream::current()?);
    /// m.write_at(0, &[1, 2, 3, 4], &s)?;
    /// let t = m.read_at_async(1, PinnedMemoryPool::default_pool().malloc(2)?, &s)?;
    /// assert_eq!(t.wait()?.as_slice(), [2, 3]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Memory::copy_to_host_async`].
    pub fn read_at_async(
        &self,
        offset: usize,
        dst: PinnedMemory,
        stream: &Stream,
    ) -> Result<HostTransfer> {
        let src = self.range("Memory::read_at_async", offset, dst.len())?;
        self.check_stream("Memory::read_at_async", stream)?;
        // SAFETY: the range lies inside this memory, which the caller keeps
        // alive until the transfer is done (documented above); freeing it
        // earlier returns the block to the pool only in stream order.
        unsafe { memcpy_dtoh_async(dst, src, stream) }
    }

    /// Copies all of `src` to the start of this memory on `stream` (a
    /// stream of this memory's device), across devices when they differ.
    ///
    /// ```no_run
    /// use gpu_runtime::{Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (a, b, s) = (alloc(4)?, alloc(4)?, Stream::current()?);
    /// a.write_at(0, &[1, 2, 3, 4], &s)?;
    /// b.copy_from_device(&a, &s)?;
    /// let mut back = [0u8; 4];
    /// b.read_at(0, &mut back, &s)?;
    /// assert_eq!(back, [1, 2, 3, 4]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `src` is larger than this memory,
    /// [`Error::DeviceMismatch`] for a stream of another device, or the
    /// driver failed.
    pub fn copy_from_device(&self, src: &Memory, stream: &Stream) -> Result<()> {
        self.copy_from_device_at(0, src, 0, src.size(), stream)
    }

    /// Copies `bytes` bytes from byte `src_offset` of `src` to byte `offset`
    /// of this memory on `stream` (a stream of this memory's device), across
    /// devices when they differ.
    ///
    /// ```no_run
    /// use gpu_runtime::{Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (a, b, s) = (alloc(4)?, alloc(4)?, Stream::current()?);
    /// a.write_at(0, &[1, 2, 3, 4], &s)?;
    /// b.memset(0, &s)?;
    /// b.copy_from_device_at(0, &a, 2, 2, &s)?; // a[2..4] to b[0..2]
    /// let mut back = [0u8; 4];
    /// b.read_at(0, &mut back, &s)?;
    /// assert_eq!(back, [3, 4, 0, 0]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when either range does not fit,
    /// [`Error::DeviceMismatch`] for a stream of another device, or the
    /// driver failed.
    pub fn copy_from_device_at(
        &self,
        offset: usize,
        src: &Memory,
        src_offset: usize,
        bytes: usize,
        stream: &Stream,
    ) -> Result<()> {
        let dst = self.range("Memory::copy_from_device_at", offset, bytes)?;
        let from = src.range("Memory::copy_from_device_at (source)", src_offset, bytes)?;
        self.check_stream("Memory::copy_from_device_at", stream)?;
        if src.device() == self.device() {
            // SAFETY: both ranges lie inside live memory of this device.
            unsafe { memcpy_dtod(dst, from, bytes, stream) }
        } else {
            // SAFETY: both ranges lie inside live memory of their devices.
            unsafe { memcpy_peer(dst, self.device(), from, src.device(), bytes, stream) }
        }
    }

    /// Sets every byte of this memory to `value` on `stream`.
    ///
    /// ```no_run
    /// use gpu_runtime::{Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (m, s) = (alloc(3)?, Stream::current()?);
    /// m.memset(0xab, &s)?;
    /// let mut back = [0u8; 3];
    /// m.read_at(0, &mut back, &s)?;
    /// assert_eq!(back, [0xab; 3]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::DeviceMismatch`] for a stream of another device, or the
    /// driver failed.
    pub fn memset(&self, value: u8, stream: &Stream) -> Result<()> {
        self.memset_at(0, self.size(), value, stream)
    }

    /// Sets `bytes` bytes from byte `offset` on to `value`, on `stream`.
    ///
    /// ```no_run
    /// use gpu_runtime::{Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (m, s) = (alloc(4)?, Stream::current()?);
    /// m.memset(0, &s)?;
    /// m.memset_at(1, 2, 5, &s)?;
    /// let mut back = [0u8; 4];
    /// m.read_at(0, &mut back, &s)?;
    /// assert_eq!(back, [0, 5, 5, 0]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the range does not fit,
    /// [`Error::DeviceMismatch`] for a stream of another device, or the
    /// driver failed.
    pub fn memset_at(&self, offset: usize, bytes: usize, value: u8, stream: &Stream) -> Result<()> {
        let dst = self.range("Memory::memset_at", offset, bytes)?;
        self.check_stream("Memory::memset_at", stream)?;
        // SAFETY: the range lies inside this live memory.
        unsafe { memset_d8(dst, value, bytes, stream) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_alignment_messages() {
        let e = check_aligned("memset_d32", DevicePtr(0x1002), 4).unwrap_err();
        assert!(
            e.to_string().contains("0x1002 is not aligned to 4 bytes"),
            "{e}"
        );
        assert!(check_aligned("memset_d16", DevicePtr(0x1002), 2).is_ok());
    }
}
