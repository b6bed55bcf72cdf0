//! 2-D and 3-D copies of pitched data (CuPy's `runtime.memcpy2D`,
//! `memcpy2DAsync`, `memcpy3D`, `memcpy3DAsync`): a block of rows (and of
//! slices of rows) copied between buffers whose rows are laid out with
//! different pitches, such as an image's region into a packed buffer.
//!
//! Every side is described by a [`PitchedLayout`] (where the first byte is,
//! the bytes from row to row and the rows from slice to slice) and the
//! copied block by an [`Extent`] (bytes per row, rows, slices). Before the
//! driver is called each side is checked: the row fits in the pitch, the
//! rows fit in a slice, every size is computed without overflow, and the
//! last byte touched lies inside the buffer. Device sides are [`Memory`],
//! whose size is known; host sides are slices. Two device blocks that share
//! a byte are refused (CUDA leaves overlapping copies undefined); blocks
//! that only interleave, such as two column ranges of one image, are not.

use std::ffi::c_void;

use gpu_sys::cuda::{self, CUDA_MEMCPY2D, CUDA_MEMCPY3D, CUmemorytype};

use crate::driver::check;
use crate::memory::{PinnedMemory, alloc_pinned_memory};
use crate::sync::check_sync_allowed;
use crate::{DevicePtr, Error, HostTransfer, Memory, Result, Stream};

/// How one side of a pitched copy is laid out in its buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct PitchedLayout {
    /// Byte offset of the block's first byte in the buffer.
    pub offset: usize,
    /// Bytes from one row's start to the next's; at least the extent's
    /// width.
    pub pitch: usize,
    /// Rows from one slice's start to the next's (3-D copies); at least
    /// the extent's height. 0 means "the extent's height" (packed slices).
    pub rows_per_slice: usize,
}

impl PitchedLayout {
    /// Rows of `pitch` bytes from the buffer's start, slices packed.
    ///
    /// ```
    /// use gpu_runtime::PitchedLayout;
    /// let l = PitchedLayout::new(512).offset(64).rows_per_slice(100);
    /// assert_eq!((l.pitch, l.offset, l.rows_per_slice), (512, 64, 100));
    /// ```
    pub fn new(pitch: usize) -> PitchedLayout {
        PitchedLayout {
            offset: 0,
            pitch,
            rows_per_slice: 0,
        }
    }

    /// Sets `offset`.
    ///
    /// ```
    /// use gpu_runtime::PitchedLayout;
    /// assert_eq!(PitchedLayout::new(16).offset(4).offset, 4);
    /// ```
    #[must_use]
    pub fn offset(mut self, offset: usize) -> PitchedLayout {
        self.offset = offset;
        self
    }

    /// Sets `rows_per_slice`.
    ///
    /// ```
    /// use gpu_runtime::PitchedLayout;
    /// assert_eq!(PitchedLayout::new(16).rows_per_slice(8).rows_per_slice, 8);
    /// ```
    #[must_use]
    pub fn rows_per_slice(mut self, rows: usize) -> PitchedLayout {
        self.rows_per_slice = rows;
        self
    }
}

/// The block a pitched copy moves: `width` bytes per row, `height` rows,
/// `depth` slices (1 for a 2-D copy).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Extent {
    /// Bytes per row.
    pub width: usize,
    /// Rows per slice.
    pub height: usize,
    /// Slices.
    pub depth: usize,
}

impl Extent {
    /// A 2-D block.
    ///
    /// ```
    /// use gpu_runtime::Extent;
    /// assert_eq!(Extent::new_2d(64, 8).depth, 1);
    /// ```
    pub fn new_2d(width: usize, height: usize) -> Extent {
        Extent {
            width,
            height,
            depth: 1,
        }
    }

    /// A 3-D block.
    ///
    /// ```
    /// use gpu_runtime::Extent;
    /// let e = Extent::new_3d(64, 8, 4);
    /// assert_eq!((e.width, e.height, e.depth), (64, 8, 4));
    /// ```
    pub fn new_3d(width: usize, height: usize, depth: usize) -> Extent {
        Extent {
            width,
            height,
            depth,
        }
    }

    fn is_empty(self) -> bool {
        self.width == 0 || self.height == 0 || self.depth == 0
    }
}

/// The source of a pitched copy.
#[derive(Debug, Clone, Copy)]
pub enum CopySrc<'a> {
    /// Device memory.
    Device(&'a Memory),
    /// Host memory (pageable or page-locked).
    Host(&'a [u8]),
}

/// The destination of a pitched copy.
#[derive(Debug)]
pub enum CopyDst<'a> {
    /// Device memory.
    Device(&'a Memory),
    /// Host memory (pageable or page-locked).
    Host(&'a mut [u8]),
}

/// What one side resolves to for the driver.
#[derive(Debug, Clone, Copy)]
enum Place {
    Device(DevicePtr),
    Host(*const u8),
}

#[derive(Debug, Clone, Copy)]
struct Side {
    place: Place,
    pitch: usize,
    rows_per_slice: usize,
}

/// Bytes from the buffer's start to one past the last byte the copy
/// touches on a side laid out as `layout` (0 for an empty block), after
/// checking the layout against the block.
pub(crate) fn span(side: &str, layout: PitchedLayout, extent: Extent, dims: u8) -> Result<usize> {
    let bad = |why: String| Error::InvalidArgument(format!("memcpy_{dims}d: the {side} {why}"));
    if dims == 2 && extent.depth != 1 {
        return Err(bad(format!(
            "extent has depth {}: a 2-D copy has depth 1 (use memcpy_3d)",
            extent.depth
        )));
    }
    if extent.is_empty() {
        return Ok(0);
    }
    if extent.width > layout.pitch {
        return Err(bad(format!(
            "row of {} bytes does not fit in its pitch of {} bytes",
            extent.width, layout.pitch
        )));
    }
    let rows = effective_rows(layout, extent);
    if extent.depth > 1 && extent.height > rows {
        return Err(bad(format!(
            "slice of {} rows does not fit in its {rows} rows per slice",
            extent.height
        )));
    }
    let overflow = || bad("layout's size overflows".to_string());
    // One slice never steps to a second: its slice pitch is not computed,
    // so a large rows_per_slice cannot overflow a copy that does not use it.
    let last_slice = if extent.depth > 1 {
        layout
            .pitch
            .checked_mul(rows)
            .and_then(|slice_pitch| slice_pitch.checked_mul(extent.depth - 1))
            .ok_or_else(overflow)?
    } else {
        0
    };
    let last_row = layout
        .pitch
        .checked_mul(extent.height - 1)
        .ok_or_else(overflow)?;
    layout
        .offset
        .checked_add(last_slice)
        .and_then(|x| x.checked_add(last_row))
        .and_then(|x| x.checked_add(extent.width))
        .ok_or_else(overflow)
}

fn effective_rows(layout: PitchedLayout, extent: Extent) -> usize {
    if layout.rows_per_slice == 0 {
        extent.height
    } else if extent.depth <= 1 {
        // One slice never steps to a second, so its rows per slice matter
        // only to the driver, which wants srcHeight/dstHeight to hold the
        // slice's rows: at least `height`.
        layout.rows_per_slice.max(extent.height)
    } else {
        layout.rows_per_slice
    }
}

/// Checks that a side's span fits in its buffer of `len` bytes.
fn fits(side: &str, dims: u8, end: usize, len: usize) -> Result<()> {
    if end > len {
        return Err(Error::InvalidArgument(format!(
            "memcpy_{dims}d: the {side} block ends at byte {end}, past the end of its buffer of \
             {len} bytes"
        )));
    }
    Ok(())
}

fn device_side(
    side: &'static str,
    dims: u8,
    mem: &Memory,
    layout: PitchedLayout,
    extent: Extent,
    stream: &Stream,
) -> Result<Side> {
    let end = span(side, layout, extent, dims)?;
    fits(side, dims, end, mem.size())?;
    if mem.device() != stream.device() {
        return Err(Error::DeviceMismatch {
            operation: if dims == 2 { "memcpy_2d" } else { "memcpy_3d" },
            what: if side == "source" {
                "the source memory"
            } else {
                "the destination memory"
            },
            found: mem.device().ordinal(),
            expected: stream.device().ordinal(),
        });
    }
    let place = if extent.is_empty() {
        Place::Device(mem.ptr())
    } else {
        // Inside the memory: `offset < end <= size` (unsigned, so offsets
        // past isize::MAX stay right).
        Place::Device(DevicePtr(
            mem.ptr().raw().wrapping_add(layout.offset as u64),
        ))
    };
    Ok(Side {
        place,
        pitch: layout.pitch,
        rows_per_slice: effective_rows(layout, extent),
    })
}

fn host_side(
    side: &'static str,
    dims: u8,
    data: *const u8,
    len: usize,
    layout: PitchedLayout,
    extent: Extent,
) -> Result<Side> {
    let end = span(side, layout, extent, dims)?;
    fits(side, dims, end, len)?;
    let place = if extent.is_empty() {
        Place::Host(data)
    } else {
        // SAFETY: `offset < end <= len`, inside the slice.
        Place::Host(unsafe { data.add(layout.offset) })
    };
    Ok(Side {
        place,
        pitch: layout.pitch,
        rows_per_slice: effective_rows(layout, extent),
    })
}

/// The start of each row the block touches on a side starting at `start`,
/// in increasing order (a row fits in its pitch and a slice in its rows
/// per slice, so rows never go back), in u128 so that nothing wraps.
fn row_starts(start: u64, side: Side, extent: Extent) -> impl Iterator<Item = u128> {
    (0..extent.depth as u128)
        .flat_map(move |z| (0..extent.height as u128).map(move |y| row_start(start, side, z, y)))
}

/// The start of row `y` of slice `z` on a side starting at `start`.
fn row_start(start: u64, side: Side, z: u128, y: u128) -> u128 {
    let (pitch, rows) = (side.pitch as u128, side.rows_per_slice as u128);
    start as u128 + z * rows * pitch + y * pitch
}

/// Refuses device sides whose blocks share a byte: CUDA leaves overlapping
/// copies undefined. Rows of a block are disjoint and increasing, so one
/// merge-like walk over both sides' rows finds any shared byte exactly
/// (copying between interleaved columns of one image is allowed).
fn check_disjoint(dims: u8, dst: Side, src: Side, extent: Extent) -> Result<()> {
    let (Place::Device(d), Place::Device(s)) = (dst.place, src.place) else {
        // A host destination is a `&mut` slice: it overlaps nothing else.
        return Ok(());
    };
    if extent.is_empty() {
        return Ok(());
    }
    let width = extent.width as u128;
    // Blocks whose whole spans are apart (the usual case: two buffers)
    // need no walk over their rows.
    let span = |start: u64, side: Side| {
        let (z, y) = (extent.depth as u128 - 1, extent.height as u128 - 1);
        (start as u128, row_start(start, side, z, y) + width)
    };
    let ((d0, d1), (s0, s1)) = (span(d.raw(), dst), span(s.raw(), src));
    if d1 <= s0 || s1 <= d0 {
        return Ok(());
    }
    let mut dst_rows = row_starts(d.raw(), dst, extent).peekable();
    let mut src_rows = row_starts(s.raw(), src, extent).peekable();
    while let (Some(&a), Some(&b)) = (dst_rows.peek(), src_rows.peek()) {
        if a + width <= b {
            dst_rows.next();
        } else if b + width <= a {
            src_rows.next();
        } else {
            return Err(Error::InvalidArgument(format!(
                "memcpy_{dims}d: the source and destination blocks share bytes (at {:#x}); \
                 CUDA leaves overlapping copies undefined, so copy through a temporary",
                a.max(b)
            )));
        }
    }
    Ok(())
}

/// Queues the copy on `stream`.
///
/// # Safety
/// Both sides are checked (`device_side`/`host_side`) against live buffers
/// that stay valid until the copy is done.
unsafe fn queue(dims: u8, dst: Side, src: Side, extent: Extent, stream: &Stream) -> Result<()> {
    if extent.is_empty() {
        return Ok(());
    }
    check_disjoint(dims, dst, src, extent)?;
    stream.device().bind()?;
    let raw = stream.handle()?;
    let (src_type, src_host, src_device) = match src.place {
        Place::Device(p) => (
            CUmemorytype::CU_MEMORYTYPE_DEVICE,
            std::ptr::null(),
            p.raw(),
        ),
        Place::Host(p) => (CUmemorytype::CU_MEMORYTYPE_HOST, p.cast::<c_void>(), 0),
    };
    let (dst_type, dst_host, dst_device) = match dst.place {
        Place::Device(p) => (
            CUmemorytype::CU_MEMORYTYPE_DEVICE,
            std::ptr::null_mut(),
            p.raw(),
        ),
        Place::Host(p) => (
            CUmemorytype::CU_MEMORYTYPE_HOST,
            p.cast_mut().cast::<c_void>(),
            0,
        ),
    };
    if dims == 2 {
        let d = CUDA_MEMCPY2D {
            srcMemoryType: src_type,
            srcHost: src_host,
            srcDevice: src_device,
            srcPitch: src.pitch,
            dstMemoryType: dst_type,
            dstHost: dst_host,
            dstDevice: dst_device,
            dstPitch: dst.pitch,
            WidthInBytes: extent.width,
            Height: extent.height,
            ..Default::default()
        };
        // SAFETY: the descriptor names checked ranges of live buffers.
        check("cuMemcpy2DAsync", unsafe {
            cuda::cuMemcpy2DAsync_v2(&d, raw)
        })
    } else {
        let d = CUDA_MEMCPY3D {
            srcMemoryType: src_type,
            srcHost: src_host,
            srcDevice: src_device,
            srcPitch: src.pitch,
            srcHeight: src.rows_per_slice,
            dstMemoryType: dst_type,
            dstHost: dst_host,
            dstDevice: dst_device,
            dstPitch: dst.pitch,
            dstHeight: dst.rows_per_slice,
            WidthInBytes: extent.width,
            Height: extent.height,
            Depth: extent.depth,
            ..Default::default()
        };
        // SAFETY: as above.
        check("cuMemcpy3DAsync", unsafe {
            cuda::cuMemcpy3DAsync_v2(&d, raw)
        })
    }
}

fn src_side(
    dims: u8,
    src: CopySrc<'_>,
    layout: PitchedLayout,
    extent: Extent,
    stream: &Stream,
) -> Result<Side> {
    match src {
        CopySrc::Device(m) => device_side("source", dims, m, layout, extent, stream),
        CopySrc::Host(h) => host_side("source", dims, h.as_ptr(), h.len(), layout, extent),
    }
}

fn copy_blocking(
    dims: u8,
    dst: CopyDst<'_>,
    dst_layout: PitchedLayout,
    src: CopySrc<'_>,
    src_layout: PitchedLayout,
    extent: Extent,
    stream: &Stream,
) -> Result<()> {
    let operation = if dims == 2 { "memcpy_2d" } else { "memcpy_3d" };
    let s = src_side(dims, src, src_layout, extent, stream)?;
    let d = match dst {
        CopyDst::Device(m) => device_side("destination", dims, m, dst_layout, extent, stream)?,
        CopyDst::Host(h) => host_side(
            "destination",
            dims,
            h.as_mut_ptr(),
            h.len(),
            dst_layout,
            extent,
        )?,
    };
    if extent.is_empty() {
        return Ok(());
    }
    check_sync_allowed(operation)?;
    // SAFETY: both sides are checked against buffers borrowed for this
    // call, which waits for the copy before returning.
    unsafe { queue(dims, d, s, extent, stream)? };
    // SAFETY: a valid stream handle of the bound device.
    check("cuStreamSynchronize", unsafe {
        cuda::cuStreamSynchronize(stream.handle()?)
    })
}

/// Stages the host bytes a copy reads (`offset .. end` of `data`) in pinned
/// memory, so that the caller's slice may be reused at once.
fn stage(
    dims: u8,
    data: &[u8],
    layout: PitchedLayout,
    extent: Extent,
) -> Result<(PinnedMemory, PitchedLayout)> {
    let end = span("source", layout, extent, dims)?;
    fits("source", dims, end, data.len())?;
    let start = if extent.is_empty() {
        end
    } else {
        layout.offset
    };
    let mut staging = alloc_pinned_memory(end - start)?;
    // A custom pinned allocator may hand out more than was asked for.
    let block = staging
        .as_mut_slice()
        .get_mut(..end - start)
        .ok_or_else(|| {
            Error::InvalidArgument(format!(
                "memcpy_{dims}d: the pinned allocator returned fewer than {} bytes",
                end - start
            ))
        })?;
    block.copy_from_slice(&data[start..end]);
    Ok((staging, layout.offset(0)))
}

fn copy_to_device_async(
    dims: u8,
    dst: &Memory,
    dst_layout: PitchedLayout,
    src: CopySrc<'_>,
    src_layout: PitchedLayout,
    extent: Extent,
    stream: &Stream,
) -> Result<()> {
    let d = device_side("destination", dims, dst, dst_layout, extent, stream)?;
    match src {
        CopySrc::Device(m) => {
            let s = device_side("source", dims, m, src_layout, extent, stream)?;
            // SAFETY: both sides are checked against live device memory;
            // ordering with its other users is the stream's, as for every
            // copy and kernel.
            unsafe { queue(dims, d, s, extent, stream) }
        }
        CopySrc::Host(h) => {
            if extent.is_empty() {
                return span("source", src_layout, extent, dims).map(drop);
            }
            let (mut staging, layout) = stage(dims, h, src_layout, extent)?;
            let s = host_side(
                "source",
                dims,
                staging.as_ptr(),
                staging.len(),
                layout,
                extent,
            )?;
            // SAFETY: the staging block is checked and outlives the copy:
            // it is recorded below and reused or freed only after it.
            unsafe { queue(dims, d, s, extent, stream)? };
            if let Err(e) = staging.record(stream) {
                // Queued but untrackable: the copy may still read the
                // block, so keep it from reuse and report the failure.
                std::mem::forget(staging);
                return Err(e);
            }
            Ok(())
        }
    }
}

fn copy_to_host_async(
    dims: u8,
    mut dst: PinnedMemory,
    dst_layout: PitchedLayout,
    src: &Memory,
    src_layout: PitchedLayout,
    extent: Extent,
    stream: &Stream,
) -> Result<HostTransfer> {
    let s = device_side("source", dims, src, src_layout, extent, stream)?;
    let d = host_side(
        "destination",
        dims,
        dst.as_mut_ptr(),
        dst.len(),
        dst_layout,
        extent,
    )?;
    if extent.is_empty() {
        return Ok(HostTransfer::new(dst));
    }
    // SAFETY: `dst` is owned by the returned transfer, which hands it out
    // only after the event recorded below; `src` is checked.
    unsafe { queue(dims, d, s, extent, stream)? };
    if let Err(e) = dst.record(stream) {
        // Queued but untrackable: keep `dst` from reuse, report the failure.
        std::mem::forget(dst);
        return Err(e);
    }
    // The device memory is read in stream order: a pool reuses it only
    // after this stream's work once the stream is recorded as a user.
    src.record_stream(stream);
    Ok(HostTransfer::new(dst))
}

/// Copies a 2-D block of `extent.width` bytes by `extent.height` rows
/// from `src` to `dst`, each laid out with its own pitch, on `stream`, and
/// waits for it (CuPy's `runtime.memcpy2D`; any direction).
///
/// ```no_run
/// use gpu_runtime::{CopyDst, CopySrc, Extent, PitchedLayout, Stream, alloc, memcpy_2d};
/// # fn main() -> gpu_runtime::Result<()> {
/// // The 3x2-byte region at row 1, column 2 of a 4x8 image on the host,
/// // into a device buffer with rows padded to 16 bytes.
/// let image: Vec<u8> = (0..32).collect();
/// let dev = alloc(16 * 2)?;
/// let s = Stream::current()?;
/// memcpy_2d(
///     CopyDst::Device(&dev), PitchedLayout::new(16),
///     CopySrc::Host(&image), PitchedLayout::new(8).offset(8 + 2),
///     Extent::new_2d(3, 2), &s,
/// )?;
/// let mut back = [0u8; 6];
/// memcpy_2d(
///     CopyDst::Host(&mut back), PitchedLayout::new(3),
///     CopySrc::Device(&dev), PitchedLayout::new(16),
///     Extent::new_2d(3, 2), &s,
/// )?;
/// assert_eq!(back, [10, 11, 12, 18, 19, 20]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] when a row does not fit in its pitch, the
/// extent's depth is not 1, a size overflows, a block runs past its
/// buffer or two device blocks share bytes; [`Error::DeviceMismatch`] for device memory of another device
/// than the stream's; [`Error::DeviceSynchronized`] inside
/// `allow_synchronize(false)`; the driver failed (a pitch above the
/// device's maximum, say).
pub fn memcpy_2d(
    dst: CopyDst<'_>,
    dst_layout: PitchedLayout,
    src: CopySrc<'_>,
    src_layout: PitchedLayout,
    extent: Extent,
    stream: &Stream,
) -> Result<()> {
    copy_blocking(2, dst, dst_layout, src, src_layout, extent, stream)
}

/// Queues a 2-D copy into device memory on `stream` without waiting
/// (CuPy's `runtime.memcpy2DAsync`). A host source is staged through
/// pinned memory first ([`alloc_pinned_memory`]), so it may be reused
/// when this returns; for device-to-host, see [`memcpy_2d_to_host_async`].
///
/// ```no_run
/// use gpu_runtime::{CopySrc, Extent, PitchedLayout, Stream, alloc, memcpy_2d_async};
/// # fn main() -> gpu_runtime::Result<()> {
/// let (a, b, s) = (alloc(64 * 32)?, alloc(32 * 32)?, Stream::current()?);
/// // The left half of each 64-byte row of `a`, packed into `b`.
/// memcpy_2d_async(&b, PitchedLayout::new(32), CopySrc::Device(&a), PitchedLayout::new(64), Extent::new_2d(32, 32), &s)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`memcpy_2d`] (no synchronization error: it does not wait), or no
/// pinned memory for the staging.
pub fn memcpy_2d_async(
    dst: &Memory,
    dst_layout: PitchedLayout,
    src: CopySrc<'_>,
    src_layout: PitchedLayout,
    extent: Extent,
    stream: &Stream,
) -> Result<()> {
    copy_to_device_async(2, dst, dst_layout, src, src_layout, extent, stream)
}

/// Queues a 2-D copy from device memory into the pinned block `dst` on
/// `stream` and returns the transfer, which hands `dst` back once the copy
/// is done (the asynchronous device-to-host direction of CuPy's
/// `runtime.memcpy2DAsync`).
///
/// ```no_run
/// use gpu_runtime::memory::alloc_pinned_memory;
/// use gpu_runtime::{Extent, PitchedLayout, Stream, alloc, memcpy_2d_to_host_async};
/// # fn main() -> gpu_runtime::Result<()> {
/// let (a, s) = (alloc(64 * 4)?, Stream::current()?);
/// a.memset(1, &s)?;
/// let t = memcpy_2d_to_host_async(alloc_pinned_memory(16 * 4)?, PitchedLayout::new(16), &a, PitchedLayout::new(64), Extent::new_2d(16, 4), &s)?;
/// assert_eq!(t.wait()?.as_slice(), [1; 64]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`memcpy_2d`] (no synchronization error: it does not wait).
pub fn memcpy_2d_to_host_async(
    dst: PinnedMemory,
    dst_layout: PitchedLayout,
    src: &Memory,
    src_layout: PitchedLayout,
    extent: Extent,
    stream: &Stream,
) -> Result<HostTransfer> {
    copy_to_host_async(2, dst, dst_layout, src, src_layout, extent, stream)
}

/// Copies a 3-D block (`extent.depth` slices of `extent.height` rows of
/// `extent.width` bytes) from `src` to `dst`, each with its own pitch and
/// rows per slice, on `stream`, and waits for it (CuPy's
/// `runtime.memcpy3D`; any direction).
///
/// ```no_run
/// use gpu_runtime::{CopyDst, CopySrc, Extent, PitchedLayout, Stream, alloc, memcpy_3d};
/// # fn main() -> gpu_runtime::Result<()> {
/// // A 4x4x4-byte cube into a volume of 8x8 rows of 8 bytes per slice.
/// let cube = vec![7u8; 64];
/// let volume = alloc(8 * 8 * 4)?;
/// memcpy_3d(
///     CopyDst::Device(&volume), PitchedLayout::new(8).rows_per_slice(8),
///     CopySrc::Host(&cube), PitchedLayout::new(4),
///     Extent::new_3d(4, 4, 4), &Stream::current()?,
/// )?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] when a row does not fit in its pitch, a
/// slice in its rows per slice, a size overflows, a block runs past its
/// buffer or two device blocks share bytes; otherwise as [`memcpy_2d`].
pub fn memcpy_3d(
    dst: CopyDst<'_>,
    dst_layout: PitchedLayout,
    src: CopySrc<'_>,
    src_layout: PitchedLayout,
    extent: Extent,
    stream: &Stream,
) -> Result<()> {
    copy_blocking(3, dst, dst_layout, src, src_layout, extent, stream)
}

/// Queues a 3-D copy into device memory on `stream` without waiting
/// (CuPy's `runtime.memcpy3DAsync`); a host source is staged through
/// pinned memory as in [`memcpy_2d_async`].
///
/// ```no_run
/// use gpu_runtime::{CopySrc, Extent, PitchedLayout, Stream, alloc, memcpy_3d_async};
/// # fn main() -> gpu_runtime::Result<()> {
/// let (a, b, s) = (alloc(8 * 8 * 8)?, alloc(4 * 4 * 4)?, Stream::current()?);
/// memcpy_3d_async(&b, PitchedLayout::new(4), CopySrc::Device(&a), PitchedLayout::new(8).rows_per_slice(8), Extent::new_3d(4, 4, 4), &s)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`memcpy_3d`] (no synchronization error), or no pinned memory.
pub fn memcpy_3d_async(
    dst: &Memory,
    dst_layout: PitchedLayout,
    src: CopySrc<'_>,
    src_layout: PitchedLayout,
    extent: Extent,
    stream: &Stream,
) -> Result<()> {
    copy_to_device_async(3, dst, dst_layout, src, src_layout, extent, stream)
}

/// Queues a 3-D copy from device memory into the pinned block `dst` and
/// returns the transfer (see [`memcpy_2d_to_host_async`]).
///
/// ```no_run
/// use gpu_runtime::memory::alloc_pinned_memory;
/// use gpu_runtime::{Extent, PitchedLayout, Stream, alloc, memcpy_3d_to_host_async};
/// # fn main() -> gpu_runtime::Result<()> {
/// let (a, s) = (alloc(8 * 8 * 2)?, Stream::current()?);
/// let t = memcpy_3d_to_host_async(alloc_pinned_memory(2 * 2 * 2)?, PitchedLayout::new(2), &a, PitchedLayout::new(8).rows_per_slice(8), Extent::new_3d(2, 2, 2), &s)?;
/// let cube = t.wait()?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`memcpy_3d`] (no synchronization error).
pub fn memcpy_3d_to_host_async(
    dst: PinnedMemory,
    dst_layout: PitchedLayout,
    src: &Memory,
    src_layout: PitchedLayout,
    extent: Extent,
    stream: &Stream,
) -> Result<HostTransfer> {
    copy_to_host_async(3, dst, dst_layout, src, src_layout, extent, stream)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(side: &str, l: PitchedLayout, e: Extent, dims: u8) -> String {
        span(side, l, e, dims).unwrap_err().to_string()
    }

    #[test]
    fn spans_cover_the_last_byte_touched() {
        // 3 bytes of 2 rows from offset 10 with pitch 8: bytes 10..13, 18..21.
        assert_eq!(
            span(
                "source",
                PitchedLayout::new(8).offset(10),
                Extent::new_2d(3, 2),
                2
            )
            .unwrap(),
            21
        );
        // Packed slices: pitch 4, 4 rows, 4 slices -> 64 bytes.
        assert_eq!(
            span("source", PitchedLayout::new(4), Extent::new_3d(4, 4, 4), 3).unwrap(),
            64
        );
        // Slices of 8 rows of 8 bytes, 4x4x4 block: last row starts at
        // 3 * 64 + 3 * 8 = 216, ends at 220.
        assert_eq!(
            span(
                "destination",
                PitchedLayout::new(8).rows_per_slice(8),
                Extent::new_3d(4, 4, 4),
                3
            )
            .unwrap(),
            220
        );
        // One slice: the slice pitch is not needed, so a huge one is no
        // overflow (proptest found the earlier over-strict check).
        assert_eq!(
            span(
                "source",
                PitchedLayout::new(usize::MAX / 4).rows_per_slice(5),
                Extent::new_3d(1, 1, 1),
                3
            )
            .unwrap(),
            1
        );
        // Width equal to the pitch is packed rows.
        assert_eq!(
            span("source", PitchedLayout::new(5), Extent::new_2d(5, 3), 2).unwrap(),
            15
        );
    }

    #[test]
    fn empty_blocks_touch_nothing_whatever_the_pitch() {
        for e in [
            Extent::new_2d(0, 5),
            Extent::new_2d(5, 0),
            Extent::new_3d(5, 5, 0),
        ] {
            let dims = if e.depth == 1 { 2 } else { 3 };
            assert_eq!(span("source", PitchedLayout::new(0), e, dims).unwrap(), 0);
        }
    }

    #[test]
    fn bad_layouts_are_refused_naming_the_side() {
        let e = err("source", PitchedLayout::new(4), Extent::new_2d(5, 1), 2);
        assert!(
            e.contains("memcpy_2d: the source row of 5 bytes does not fit in its pitch of 4"),
            "{e}"
        );
        let e = err(
            "destination",
            PitchedLayout::new(8).rows_per_slice(3),
            Extent::new_3d(8, 4, 2),
            3,
        );
        assert!(
            e.contains("destination slice of 4 rows does not fit in its 3 rows per slice"),
            "{e}"
        );
        let e = err("source", PitchedLayout::new(8), Extent::new_3d(8, 1, 2), 2);
        assert!(e.contains("a 2-D copy has depth 1"), "{e}");
        // One slice needs no room for a second: rows_per_slice is not checked.
        assert!(
            span(
                "source",
                PitchedLayout::new(8).rows_per_slice(1),
                Extent::new_3d(8, 4, 1),
                3
            )
            .is_ok()
        );
    }

    #[test]
    fn overflowing_layouts_are_errors_not_panics() {
        let big = usize::MAX / 2 + 1;
        for (l, e, dims) in [
            (PitchedLayout::new(big), Extent::new_2d(1, 3), 2),
            (
                PitchedLayout::new(usize::MAX).offset(1),
                Extent::new_2d(1, 2),
                2,
            ),
            (
                PitchedLayout::new(1 << 40).rows_per_slice(1 << 30),
                Extent::new_3d(1, 1, 2),
                3,
            ),
            (
                PitchedLayout::new(usize::MAX).offset(usize::MAX),
                Extent::new_2d(1, 1),
                2,
            ),
        ] {
            let m = err("source", l, e, dims);
            assert!(m.contains("overflows"), "{l:?} {e:?}: {m}");
        }
    }

    #[test]
    fn blocks_past_their_buffer_are_refused() {
        let e = fits("destination", 2, 21, 20).unwrap_err().to_string();
        assert!(
            e.contains("ends at byte 21, past the end of its buffer of 20 bytes"),
            "{e}"
        );
        assert!(fits("destination", 2, 20, 20).is_ok());
        // Host sides check against the slice before any driver call.
        let data = [0u8; 20];
        let r = host_side(
            "source",
            2,
            data.as_ptr(),
            data.len(),
            PitchedLayout::new(8).offset(10),
            Extent::new_2d(3, 2),
        );
        assert!(r.is_err());
        let ok = host_side(
            "source",
            2,
            data.as_ptr(),
            data.len(),
            PitchedLayout::new(8).offset(9),
            Extent::new_2d(3, 2),
        );
        assert!(ok.is_ok());
    }

    /// The oracle of `span`: the largest byte index any row of the block
    /// touches, plus one, computed row by row in u128 (no overflow), or
    /// `None` where the layout cannot hold the block.
    fn touched_end(l: PitchedLayout, e: Extent) -> Option<u128> {
        if e.is_empty() {
            return Some(0);
        }
        let rows = if l.rows_per_slice == 0 {
            e.height
        } else {
            l.rows_per_slice
        };
        if e.width > l.pitch || (e.depth > 1 && e.height > rows) {
            return None;
        }
        let mut end = 0u128;
        for z in 0..e.depth as u128 {
            for y in 0..e.height as u128 {
                let start =
                    l.offset as u128 + z * l.pitch as u128 * rows as u128 + y * l.pitch as u128;
                end = end.max(start + e.width as u128);
            }
        }
        Some(end)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// `span` is the oracle's end wherever that fits a usize, and an
        /// error (never a panic) wherever the layout cannot hold the block
        /// or the end overflows.
        #[test]
        fn span_matches_the_row_by_row_oracle(
            pitch in 0usize..48,
            offset in 0usize..64,
            rows_per_slice in 0usize..6,
            width in 0usize..48,
            height in 0usize..6,
            depth in 0usize..4,
            huge in proptest::bool::ANY,
        ) {
            // Now and then, sizes near usize::MAX to reach the overflow checks.
            let scale = if huge { usize::MAX / 8 } else { 1 };
            let l = PitchedLayout::new(pitch.saturating_mul(scale))
                .offset(offset)
                .rows_per_slice(rows_per_slice);
            let e = Extent::new_3d(width, height, depth);
            let want = touched_end(l, e).filter(|&end| end <= usize::MAX as u128);
            match (span("source", l, e, 3), want) {
                (Ok(got), Some(end)) => proptest::prop_assert_eq!(got as u128, end),
                (Err(_), None) => {}
                (got, want) => proptest::prop_assert!(false, "{l:?} {e:?}: {got:?} vs {want:?}"),
            }
            if depth == 1 {
                let two = span("source", l, Extent::new_2d(width, height), 2);
                proptest::prop_assert_eq!(two.ok(), span("source", l, e, 3).ok());
            }
        }
    }

    fn dev_side(start: u64, pitch: usize, rows_per_slice: usize) -> Side {
        Side {
            place: Place::Device(DevicePtr(start)),
            pitch,
            rows_per_slice,
        }
    }

    #[test]
    fn overlapping_device_blocks_are_refused_interleaved_ones_are_not() {
        let e = Extent::new_2d(8, 4);
        // Left half of 16-byte rows to the right half of the same rows.
        let left = dev_side(0x1000, 16, 4);
        let right = dev_side(0x1008, 16, 4);
        assert!(check_disjoint(2, right, left, e).is_ok());
        // Shifted by one byte: rows share bytes.
        let shifted = dev_side(0x1001, 16, 4);
        let err = check_disjoint(2, shifted, left, e).unwrap_err().to_string();
        assert!(err.contains("share bytes"), "{err}");
        // One row down: row y of the destination is row y + 1 of the source.
        assert!(check_disjoint(2, dev_side(0x1010, 16, 4), left, e).is_err());
        // Right after the source's last row.
        assert!(check_disjoint(2, dev_side(0x1000 + 3 * 16 + 8, 16, 4), left, e).is_ok());
        // A host side never overlaps (it is a &mut slice).
        let host = Side {
            place: Place::Host(std::ptr::null()),
            pitch: 16,
            rows_per_slice: 4,
        };
        assert!(check_disjoint(2, host, left, e).is_ok());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// The walk agrees with the byte sets of both blocks.
        #[test]
        fn disjointness_matches_the_byte_sets(
            width in 1usize..6,
            height in 1usize..4,
            depth in 1usize..3,
            dst_pitch_extra in 0usize..6,
            src_pitch_extra in 0usize..6,
            dst_rows_extra in 0usize..3,
            src_rows_extra in 0usize..3,
            dst_start in 0u64..40,
            src_start in 0u64..40,
        ) {
            let e = Extent::new_3d(width, height, depth);
            let d = dev_side(dst_start, width + dst_pitch_extra, height + dst_rows_extra);
            let s = dev_side(src_start, width + src_pitch_extra, height + src_rows_extra);
            let bytes = |side: Side, start: u64| {
                row_starts(start, side, e)
                    .flat_map(|r| r..r + width as u128)
                    .collect::<std::collections::HashSet<u128>>()
            };
            let shared = !bytes(d, dst_start).is_disjoint(&bytes(s, src_start));
            proptest::prop_assert_eq!(check_disjoint(3, d, s, e).is_err(), shared);
        }
    }

    fn fake(size: usize, ordinal: i32) -> Memory {
        // SAFETY: never dereferenced: every call below is refused before
        // the driver.
        unsafe {
            Memory::from_raw(
                DevicePtr(0x10_0000),
                size,
                crate::Device::from_ordinal_unchecked(ordinal),
                None,
            )
        }
    }

    #[test]
    fn the_public_copies_check_before_the_driver() {
        let dev0 = crate::Device::from_ordinal_unchecked(0);
        let s = Stream::null(dev0);
        let small = fake(100, 0);
        let host = [0u8; 300];
        // The device side's memory is too small for 11 rows of pitch 10.
        let e = memcpy_2d(
            CopyDst::Device(&small),
            PitchedLayout::new(10),
            CopySrc::Host(&host),
            PitchedLayout::new(20),
            Extent::new_2d(10, 11),
            &s,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("destination block ends at byte 110, past the end of its buffer of 100"),
            "{e}"
        );
        // The host source is too small.
        let e = memcpy_3d_async(
            &small,
            PitchedLayout::new(10),
            CopySrc::Host(&host[..50]),
            PitchedLayout::new(10),
            Extent::new_3d(10, 3, 2),
            &s,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("source block ends at byte 60"), "{e}");
        // Memory of another device than the stream's.
        let other = fake(100, 1);
        let e = memcpy_2d_async(
            &other,
            PitchedLayout::new(10),
            CopySrc::Device(&small),
            PitchedLayout::new(10),
            Extent::new_2d(10, 10),
            &s,
        )
        .unwrap_err();
        assert!(
            matches!(
                e,
                Error::DeviceMismatch {
                    found: 1,
                    expected: 0,
                    ..
                }
            ),
            "{e:?}"
        );
        // A pinned destination too small for the block.
        let e = memcpy_2d_to_host_async(
            crate::PinnedMemoryPool::new().malloc(0).unwrap(),
            PitchedLayout::new(4),
            &small,
            PitchedLayout::new(10),
            Extent::new_2d(4, 2),
            &s,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("destination block ends at byte 8"), "{e}");
        // A good blocking copy is still a synchronization, refused first.
        let _no = crate::allow_synchronize(false);
        let e = memcpy_2d(
            CopyDst::Device(&small),
            PitchedLayout::new(10),
            CopySrc::Device(&small),
            PitchedLayout::new(10),
            Extent::new_2d(10, 10),
            &s,
        )
        .unwrap_err();
        assert!(matches!(e, Error::DeviceSynchronized(_)), "{e:?}");
        // Empty blocks need neither the driver nor permission to wait.
        memcpy_3d(
            CopyDst::Device(&small),
            PitchedLayout::new(0),
            CopySrc::Host(&host),
            PitchedLayout::new(0),
            Extent::new_3d(0, 5, 5),
            &s,
        )
        .unwrap();
    }

    #[test]
    fn staging_copies_only_the_bytes_read() {
        // No device: an empty block stages nothing and needs no pinned memory.
        let (block, layout) =
            stage(2, &[1, 2, 3], PitchedLayout::new(1), Extent::new_2d(0, 3)).unwrap();
        assert!(block.is_empty());
        assert_eq!(layout.offset, 0);
    }
}
