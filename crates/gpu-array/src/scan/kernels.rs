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

use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::{KernelSignature, LaunchConfig, Stream, TypedKernel};

use crate::dtype::DType;
use crate::error::Result;

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

gpu_runtime::kernel_signature! {
    /// `cuprum_scan_tiles_*`: the look-back scan of `rows` rows of `n`
    /// elements, `tiles_per_row` tiles each, over the zeroed tile counter
    /// and status words of `status` ([`temp_bytes`]).
    pub(crate) struct Tiles[IN, ACC, OUT] {
        src: In<IN>,
        dst: Out<OUT>,
        status: Out<void>,
        rows: i64,
        n: i64,
        tiles_per_row: i64,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_scan_rows_*`: one warp per row of `rows` rows of `n`.
    pub(crate) struct Rows[IN, ACC, OUT] {
        src: In<IN>,
        dst: Out<OUT>,
        rows: i64,
        n: i64,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_scan_cols_*`: one thread per column of `[outer, n, inner]`.
    pub(crate) struct Cols[IN, ACC, OUT] {
        src: In<IN>,
        dst: Out<OUT>,
        outer: i64,
        n: i64,
        inner: i64,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_scan_segtotals_*`: the total of each (outer, segment, inner)
    /// run of `len` elements of `[outer, n, inner]` into `totals`.
    pub(crate) struct SegTotals[IN, ACC, OUT] {
        src: In<IN>,
        totals: Out<ACC>,
        outer: i64,
        n: i64,
        inner: i64,
        len: i64,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_scan_segcarry_*`: the totals of `[outer, segs, inner]` turned
    /// into exclusive prefixes down the segments, in place.
    pub(crate) struct SegCarry[IN, ACC, OUT] {
        totals: Out<ACC>,
        outer: i64,
        segs: i64,
        inner: i64,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_scan_segfinish_*`: each run of `len` elements rescanned from
    /// its prefix in `totals`.
    pub(crate) struct SegFinish[IN, ACC, OUT] {
        src: In<IN>,
        dst: Out<OUT>,
        totals: In<ACC>,
        outer: i64,
        n: i64,
        inner: i64,
        len: i64,
    }
}

/// A scan kernel shape (see the module docs): its declared arguments and
/// its part of the kernel names.
pub(crate) trait Shape:
    KernelSignature<Types = [&'static str; 3]> + gpu_runtime::Vouched
{
    /// `tiles`, `rows`, ...: `cuprum_scan_{SHAPE}_{op}_{in}_{out}`.
    const SHAPE: &'static str;
}

macro_rules! shapes {
    ($($t:ident => $name:literal),*) => {
        $(impl Shape for $t {
            const SHAPE: &'static str = $name;
        })*
    };
}
shapes!(Tiles => "tiles", Rows => "rows", Cols => "cols", SegTotals => "segtotals",
    SegCarry => "segcarry", SegFinish => "segfinish");

/// The C types of the slots of every scan kernel of the pair: input,
/// accumulator, output.
fn types(input: DType, out: DType) -> [&'static str; 3] {
    [input.c_type(), out.compute_c_type(), out.c_type()]
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
pub(crate) fn kernel_name(shape: &str, op: ScanOp, input: DType, out: DType) -> String {
    format!(
        "cuprum_scan_{shape}_{}_{}_{}",
        op.name(),
        input.name(),
        out.name()
    )
}

/// The scans a program of `input` holds (inputs without NaN run the plain
/// scans for the nan forms).
fn ops_for(input: DType) -> &'static [ScanOp] {
    match ScanOp::NanSum.for_input(input) {
        ScanOp::NanSum => &[ScanOp::Sum, ScanOp::Prod, ScanOp::NanSum, ScanOp::NanProd],
        _ => &[ScanOp::Sum, ScanOp::Prod],
    }
}

/// The declared prototypes of every kernel of the (input, output) pair.
pub(crate) fn prototypes(input: DType, out: DType) -> String {
    fn of<A: Shape>(s: &mut String, op: ScanOp, input: DType, out: DType) {
        s.push_str(&A::prototype(
            &kernel_name(A::SHAPE, op, input, out),
            types(input, out),
        ));
    }
    let mut s = String::new();
    for &op in ops_for(input) {
        of::<Tiles>(&mut s, op, input, out);
        of::<Rows>(&mut s, op, input, out);
        of::<Cols>(&mut s, op, input, out);
        of::<SegTotals>(&mut s, op, input, out);
        of::<SegCarry>(&mut s, op, input, out);
        of::<SegFinish>(&mut s, op, input, out);
    }
    s
}

/// The NVRTC request of the scan program of an (input, result) dtype pair
/// (every scan kernel of the pair, with their declared prototypes),
/// without an architecture: what [`launch`] compiles and what `cargo xtask
/// precompile` compiles ahead of time.
pub(crate) fn program_request(input: DType, out: DType) -> CompileRequest {
    crate::kernels::request(format!(
        "{COMMON}{}{}",
        prototypes(input, out),
        instantiation(input, out)
    ))
}

/// Bytes of the look-back's temporary buffer for `tiles` tiles.
pub(crate) fn temp_bytes(tiles: usize, out: DType) -> (usize, usize) {
    let t2 = tiles.next_multiple_of(2);
    let zeroed = STATUS_OFFSET + 8 * t2;
    (zeroed, zeroed + 2 * acc_size(out).max(8) * t2)
}

/// Launches the `A`-shaped kernel of `op` for the (input, output) pair
/// with `blocks` blocks of [`BLOCK`] threads; the kernel is compiled once
/// per process (the program of a pair once: NVRTC's cache is keyed by
/// source).
pub(crate) fn launch<A: Shape>(
    op: ScanOp,
    input: DType,
    out: DType,
    blocks: usize,
    stream: &Stream,
    args: &A,
) -> Result<()> {
    let name = kernel_name(A::SHAPE, op.for_input(input), input, out);
    let k = TypedKernel::<A>::cached(&name, types(input, out), || program_request(input, out))?;
    let blocks = u32::try_from(blocks)
        .ok()
        .filter(|&b| b < 1 << 31)
        .ok_or_else(|| {
            crate::error::Error::Value(format!("scan: too many blocks ({blocks}) for one launch"))
        })?;
    let cfg = LaunchConfig::new((blocks, 1, 1), (BLOCK, 1, 1));
    Ok(k.launch(&cfg, stream, args)?)
}
