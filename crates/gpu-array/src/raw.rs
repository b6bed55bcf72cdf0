//! The crate's one door to `unsafe`: launching generated kernels, and
//! vouching for the launches of the hand-written ones (`*.cu` beside their
//! modules, declared with `gpu_runtime::kernel_signature!`): each family's
//! `unsafe impl Vouched` says what its launchers guarantee about the memory
//! the kernels touch, which makes `TypedKernel::launch` of the family safe;
//! and DLPack's raw pointers ([`dlpack`]: a producer's managed tensor, the
//! deleters of Cuprum's exports); and, with the `cudarc` feature, the
//! aliasing of cudarc slices and streams ([`cudarc`]).
#![allow(unsafe_code)]

#[cfg(feature = "cudarc")]
pub(crate) mod cudarc;
pub(crate) mod dlpack;

use gpu_runtime::signature::Vouched;
use gpu_runtime::{Kernel, LaunchConfig, Stream};

use crate::error::Result;

/// Launches a generated kernel (the elementwise and reduction engines'),
/// with its packed parameter bytes.
pub(crate) fn launch_packed(
    kernel: &Kernel,
    cfg: LaunchConfig,
    stream: &Stream,
    params: &[&[u8]],
) -> Result<()> {
    // SAFETY: the bytes come from `ElementwiseSpec::pack_args` or
    // `ReductionSpec::pack_args`, each following the `kernel_params` list
    // its kernel's signature was rendered from (`launch_bytes` checks each
    // length against the driver's); every device address among them is a
    // live array of this device (for a reduction: its inputs, outputs and
    // the two-pass temporary) whose layout the spec describes, so every
    // offset the kernel forms lies inside it; a reduction's block is 1-d
    // with `BLOCK` threads, as its shared-memory reductions assume; the
    // arrays' buffers are freed in stream order by the memory pool, so
    // they outlive the launch.
    unsafe { kernel.launch_bytes(&cfg, stream, params) }?;
    Ok(())
}

/// Launches a user's [`crate::raw_kernel::RawKernel`] with packed
/// parameter bytes.
pub(crate) fn launch_user(
    kernel: &Kernel,
    cfg: LaunchConfig,
    stream: &Stream,
    params: &[&[u8]],
) -> Result<()> {
    // SAFETY: what the host can guarantee holds: one parameter per
    // declared parameter, each of the declared type's size (the launcher
    // packs a scalar in its parameter's dtype and a pointer as 8 bytes, and
    // `launch_bytes` checks each length against the driver's), every
    // pointer the address of a live array of this stream's device whose
    // dtype is the declared pointee's (or any, for `void*` and unknown
    // pointees), freed in stream order after the launch. How the kernel
    // indexes through those pointers is the user's source, as with CuPy's
    // RawKernel: memory it reaches outside them is a device fault reported
    // by the next synchronizing call, not host memory.
    unsafe { kernel.launch_bytes(&cfg, stream, params) }?;
    Ok(())
}

// SAFETY: the transpose's launcher (`array::transpose`) checked that both
// arrays hold `rows x cols` items of the kernel's size at these item
// strides, each aligned to the item size, and launches 32 x 8 blocks over
// exactly the tiles of the matrix (the kernel checks each index against
// rows and cols).
unsafe impl Vouched for crate::array::transpose::Transpose {}

// SAFETY: the mask compaction (`indexing::compact::mask_select`) passes a
// C-contiguous bool mask and C-contiguous data of `n` elements each (the
// data of the kernel's item size), one int64 per tile in `counts`/`incl`
// (the count kernel writes them; the select kernel reads their inclusive
// scan), a grid of exactly `n.div_ceil(TILE)` blocks of 256 threads, and
// for the select kernel an output of as many elements as the mask holds
// true values (the scan's last entry, read back), which bounds every
// write; all buffers are freed in stream order, after the launch.
unsafe impl Vouched for crate::indexing::compact::MaskCount {}
// SAFETY: as `MaskCount`'s.
unsafe impl Vouched for crate::indexing::compact::MaskSelect {}

/// Launches a generated reduction kernel (`gpu_array::reduction`) with its
/// packed parameter bytes.
pub(crate) fn launch_reduction(
    kernel: &Kernel,
    cfg: LaunchConfig,
    stream: &Stream,
    params: &[&[u8]],
) -> Result<()> {
    // SAFETY: the bytes come from `ReductionSpec::pack_args`, which follows
    // the `kernel_params` list the kernel's signature was rendered from
    // (`launch_bytes` checks each length against the driver's); the device
    // addresses are live arrays of this device (inputs, outputs and the
    // two-pass temporary, freed in stream order) and every offset the
    // kernel forms lies inside them, by the planner's kept and reduced
    // layouts of those same arrays; while tuning, an output's address is
    // a stand-in inside a scratch buffer that covers the same byte extent
    // around it (`optimizing::tune::scratch_for`); the block is 1-d with
    // the spec's `block` threads, as the kernel was compiled for
    // (`__launch_bounds__` and the shared-memory reductions).
    unsafe { kernel.launch_bytes(&cfg, stream, params) }?;
    Ok(())
}

// SAFETY: the counting launcher (`stats::kernels::launch`) passes a
// C-contiguous input of `n` elements, weights of the same length (or null
// when the kernel has none), `nb + 1` edges (or null for bincount) and a
// zeroed output of `nb` accumulators, each of the kernel's type (checked),
// all live on this stream's device and freed in stream order; every bin the
// kernel writes lies in `[0, nb)`; `use_smem` is set only with `nb`
// accumulators' bytes of dynamic shared memory.
unsafe impl Vouched for crate::stats::kernels::Count {}
// SAFETY: `stats::kernels::minmax` passes a C-contiguous input of `n`
// elements and a zeroed output of three uint64, on this stream's device.
unsafe impl Vouched for crate::stats::kernels::MinMax {}

// SAFETY: the scans (`scan::run`) pass a C-contiguous source holding the
// input elements the dims describe (`[outer, n, inner]`, or `[rows, n]`)
// and a C-contiguous destination of as many output elements; for `tiles` a
// status buffer of `scan::kernels::temp_bytes` bytes whose counter and
// status words were zeroed on this stream, and a grid of exactly
// `rows * tiles_per_row` tiles, so every tile id the counter hands out is
// in range; for the segmented passes one accumulator per (outer, segment,
// inner). Each kernel checks its thread index against those counts. All
// buffers are freed in stream order, after the launch.
unsafe impl Vouched for crate::scan::kernels::Tiles {}
// SAFETY: as `Tiles`'s.
unsafe impl Vouched for crate::scan::kernels::Rows {}
// SAFETY: as `Tiles`'s.
unsafe impl Vouched for crate::scan::kernels::Cols {}
// SAFETY: as `Tiles`'s.
unsafe impl Vouched for crate::scan::kernels::SegTotals {}
// SAFETY: as `Tiles`'s.
unsafe impl Vouched for crate::scan::kernels::SegCarry {}
// SAFETY: as `Tiles`'s.
unsafe impl Vouched for crate::scan::kernels::SegFinish {}

// SAFETY: the sort (`sorting::radix::radix_sort`) passes, for each pointer
// a kernel reads, a live buffer of this device holding the element counts
// the integers describe (input, ping-pong key and value buffers of `n`
// elements, the histogram, counters and a status word per tile and digit,
// zeroed on this stream before the first pass), a grid of exactly one
// block per tile for the pass kernels, and null only for outputs a kernel
// skips; all are freed in stream order after the launch.
unsafe impl Vouched for crate::sorting::radix::Hist {}
// SAFETY: as `Hist`'s.
unsafe impl Vouched for crate::sorting::radix::ScanBins {}
// SAFETY: as `Hist`'s.
unsafe impl Vouched for crate::sorting::radix::Onesweep {}
// SAFETY: searchsorted and unique (`sorting`) pass dense inputs of the
// counts given and int64 and bool outputs of as many elements, the unique
// outputs sized by the run count the scan of the flags gave (null where
// one is not wanted).
unsafe impl Vouched for crate::sorting::radix::Search {}
// SAFETY: as `Search`'s.
unsafe impl Vouched for crate::sorting::radix::UniqueFlags {}
// SAFETY: as `Search`'s.
unsafe impl Vouched for crate::sorting::radix::UniqueScatter {}
// SAFETY: the selection (`sorting::select::select_pair`) passes the dense
// input of `n` elements, a zeroed state and histogram buffer of the sizes
// the kernels index, one block for the pick, and for the finish kernel
// three live outputs of two, one and one elements.
unsafe impl Vouched for crate::sorting::select::SelHist {}
// SAFETY: as `SelHist`'s.
unsafe impl Vouched for crate::sorting::select::SelPick {}
// SAFETY: as `SelHist`'s.
unsafe impl Vouched for crate::sorting::select::SelFinish {}
