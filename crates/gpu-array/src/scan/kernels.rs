//! The scan kernels: CUDA C++ in `scan.cu` beside this file, one NVRTC program per
//! (input dtype, output dtype) pair holding every scan of that pair, and
//! the launches.
//!
//! Three shapes of work, all over a C-contiguous input seen as
//! `[outer, n, inner]` with the scanned axis in the middle:
//!
//! - `tiles` (`inner == 1`, long rows): a single-pass decoupled look-back
//!   scan (Merrill and Garland, "Single-pass Parallel Prefix Scan with
//!   Decoupled Look-back", 2016). Each block takes the next tile of
//!   [`tile_for`] elements from an atomic counter (so a tile's predecessors
//!   were started before it, which makes spinning on them safe), scans it
//!   in shared memory, publishes its aggregate, looks back over its
//!   predecessors in the same row 32 at a time with one warp until it
//!   meets an inclusive prefix, and publishes its own inclusive prefix.
//!   Rows are segments: the look-back stops at the row's first tile, so
//!   one launch scans any number of long rows. Full tiles whose start is
//!   16-byte aligned load and store 16 bytes per access (2-, 4- and 8-byte
//!   types); the status words are zeroed by a memset on the stream before
//!   each launch.
//! - `rows` (`inner == 1`, rows of at most one tile): one warp per row,
//!   four striped chunks of 32 in flight, a shuffle scan per chunk and a
//!   carry.
//! - `cols` (`inner >= 32` and enough columns to fill the device): one
//!   thread per (outer, inner) column walks down the axis; neighbouring
//!   threads read neighbouring addresses, so every step is coalesced
//!   without a transpose.
//! - `segtotals`, `segcarry`, `segfinish` (`inner >= 32`, too few columns):
//!   the axis cut into segments, one thread per (outer, segment, inner):
//!   segment totals, their exclusive prefixes down the segments, and a
//!   rescan of each segment from its prefix (two reads and one write of
//!   the data, all coalesced, with enough threads in flight).
//!
//! Accumulation is in the output dtype, except float16 and bfloat16, which
//! accumulate in float (NumPy accumulates float16 in float16; the values
//! agree within float16's tolerance and are closer to the exact sums).
//!
//! Memory ordering of the look-back: a 1-, 2- or 4-byte accumulator is
//! packed with its status flag into one 64-bit word, written and read with
//! single volatile 64-bit accesses, so a reader sees flag and value of the
//! same publication. Wider accumulators keep their aggregate and inclusive
//! prefix in two separate arrays (each written once, before its flag, with
//! `__threadfence()` between value and flag; a reader fences between
//! reading the flag and the value), so a reader that saw the aggregate flag
//! can never pick up the inclusive value by mistake.

use std::sync::Arc;

use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::{DevicePtr, LaunchConfig, RawKernel, Stream};

use crate::dtype::DType;
use crate::error::Result;
use crate::kernels::HEADERS;

/// Threads per block of every scan kernel.
pub(crate) const BLOCK: u32 = 256;
/// Elements per thread of the look-back scan by accumulator size: 32 for
/// at most 4 bytes, 16 for 8, 8 for 16, so that every tile's shared memory
/// is 32 KiB (plus padding), under the 48 KiB a block may declare
/// statically. Larger tiles mean fewer blocks, each paying the
/// load-scan-look-back latency once for more elements: float32 cumsum of
/// 2^26 went from 0.205 to 0.185 ms on the H200 when its tiles grew from
/// 4096 to 8192 elements (40 items per thread, or 128-thread blocks, were
/// slower; docs/benchmarks.md).
pub(crate) const fn items_for(out: DType) -> usize {
    match acc_size(out) {
        0..=4 => 32,
        5..=8 => 16,
        _ => 8,
    }
}
/// Elements per tile of the look-back scan with the smallest tiles (the
/// planner's unit).
pub(crate) const TILE: usize = BLOCK as usize * 8;

/// Elements per tile of the look-back scan accumulating in `out`'s
/// accumulator (`tile_of` in the kernels).
pub(crate) const fn tile_for(out: DType) -> usize {
    BLOCK as usize * items_for(out)
}
/// Bytes before the tile status words in the temporary buffer (the tile
/// counter, padded).
pub(crate) const STATUS_OFFSET: usize = 256;

/// The templates shared by every program.
pub(crate) const COMMON: &str = include_str!("scan.cu");

/// The scan: which accumulation and whether NaN counts as the identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ScanOp {
    /// `cumsum`.
    Sum,
    /// `cumprod`.
    Prod,
    /// `nancumsum`.
    NanSum,
    /// `nancumprod`.
    NanProd,
}

impl ScanOp {
    /// The scan a kernel of `input` runs: inputs without NaN (integers,
    /// bool) run the plain scan for the nan forms.
    pub(crate) const fn for_input(self, input: DType) -> ScanOp {
        let has_nan = input.is_floating() || input.is_complex();
        match self {
            ScanOp::NanSum if !has_nan => ScanOp::Sum,
            ScanOp::NanProd if !has_nan => ScanOp::Prod,
            op => op,
        }
    }

    pub(crate) const fn name(self) -> &'static str {
        match self {
            ScanOp::Sum => "sum",
            ScanOp::Prod => "prod",
            ScanOp::NanSum => "nansum",
            ScanOp::NanProd => "nanprod",
        }
    }
}

/// The kernel shape (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Decoupled look-back over tiles of long rows.
    Tiles,
    /// One warp per short row.
    Rows,
    /// One thread per column of a strided axis.
    Cols,
    /// Segmented columns, pass 1: each segment's total.
    SegTotals,
    /// Segmented columns, pass 2: exclusive prefixes of the totals.
    SegCarry,
    /// Segmented columns, pass 3: each segment rescanned from its prefix.
    SegFinish,
}

impl Shape {
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Shape::Tiles => "tiles",
            Shape::Rows => "rows",
            Shape::Cols => "cols",
            Shape::SegTotals => "segtotals",
            Shape::SegCarry => "segcarry",
            Shape::SegFinish => "segfinish",
        }
    }
}

/// Bytes of the accumulator of `out`.
pub(crate) const fn acc_size(out: DType) -> usize {
    match out {
        DType::Float16 | DType::BFloat16 => 4,
        _ => out.itemsize(),
    }
}

/// The instantiation line of the (input, output) pair.
pub(crate) fn instantiation(input: DType, out: DType) -> String {
    let has_nan = input.is_floating() || input.is_complex();
    format!(
        "CUPRUM_SCAN{}({}_{}, {}, {}, {})\n",
        if has_nan { "" } else { "_EXACT" },
        input.name(),
        out.name(),
        input.c_type(),
        out.compute_c_type(),
        out.c_type()
    )
}

/// The kernel's `extern "C"` name.
pub(crate) fn kernel_name(shape: Shape, op: ScanOp, input: DType, out: DType) -> String {
    format!(
        "cuprum_scan_{}_{}_{}_{}",
        shape.name(),
        op.name(),
        input.name(),
        out.name()
    )
}

/// A compile request for `source` with Cuprum's headers.
pub(crate) fn request(source: String) -> CompileRequest {
    HEADERS
        .iter()
        .fold(CompileRequest::new(source), |r, (name, text)| {
            r.header(*name, *text)
        })
}

/// The NVRTC request of the scan program of an (input, result) dtype pair
/// (every scan kernel of the pair), without an architecture: what
/// [`kernel`] compiles and what `cargo xtask precompile` compiles ahead of
/// time.
pub(crate) fn program_request(input: DType, out: DType) -> CompileRequest {
    request(format!("{COMMON}{}", instantiation(input, out)))
}

/// The compiled kernel, cached for the process (the program of a pair is
/// compiled once: NVRTC's cache is keyed by source).
fn kernel(shape: Shape, op: ScanOp, input: DType, out: DType) -> Result<Arc<RawKernel>> {
    let name = kernel_name(shape, op, input, out);
    Ok(RawKernel::cached(&name, || {
        RawKernel::from_request(program_request(input, out), &name)
    })?)
}

/// Bytes of the look-back's temporary buffer for `tiles` tiles.
pub(crate) fn temp_bytes(tiles: usize, out: DType) -> (usize, usize) {
    let t2 = tiles.next_multiple_of(2);
    let zeroed = STATUS_OFFSET + 8 * t2;
    (zeroed, zeroed + 2 * acc_size(out).max(8) * t2)
}

/// One launch of a scan kernel over `dims` (each kernel's meaning:
/// `tiles` `[rows, n, tiles_per_row, -]`, `rows` `[rows, n, -, -]`, `cols`
/// `[outer, n, inner, -]`, `segtotals`/`segfinish` `[outer, n, inner,
/// segment length]`, `segcarry` `[outer, segments, inner, -]`); `ptrs` are
/// source, destination and temporary (the zeroed status buffer of
/// `tiles`, the segment totals of the `seg*` passes, else unused).
pub(crate) fn launch(
    shape: Shape,
    op: ScanOp,
    input: DType,
    out: DType,
    stream: &Stream,
    ptrs: [DevicePtr; 3],
    dims: [usize; 4],
) -> Result<()> {
    let k = kernel(shape, op.for_input(input), input, out)?;
    let threads = BLOCK as usize;
    let blocks = match shape {
        Shape::Tiles => dims[0] * dims[2],
        Shape::Rows => dims[0].div_ceil(threads / 32),
        Shape::Cols | Shape::SegCarry => (dims[0] * dims[2]).div_ceil(threads),
        Shape::SegTotals | Shape::SegFinish => {
            (dims[0] * dims[1].div_ceil(dims[3]) * dims[2]).div_ceil(threads)
        }
    };
    let blocks = u32::try_from(blocks)
        .ok()
        .filter(|&b| b < 1 << 31)
        .ok_or_else(|| {
            crate::error::Error::Value(format!("scan: too many blocks ({blocks}) for one launch"))
        })?;
    let cfg = LaunchConfig::new((blocks, 1, 1), (BLOCK, 1, 1));
    crate::raw::launch_scan(&k, cfg, stream, ptrs, dims.map(|d| d as i64))
}
