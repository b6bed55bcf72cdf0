//! The crate's one door to `unsafe`: launching generated kernels, and the
//! hand-written ones (`*.cu` beside their modules), whose signatures
//! `gpu_runtime::kernel_signature!` declares.
#![allow(unsafe_code)]

use gpu_runtime::{Kernel, KernelSignature, LaunchConfig, Stream, TypedKernel};

use crate::error::Result;

/// A hand-written kernel family whose launches this module vouches for:
/// the comment on each impl (at the end of this file) says what the
/// family's launcher guarantees about the memory its kernels touch.
pub(crate) trait Vouched: KernelSignature {}

/// Launches a hand-written kernel with its declared arguments.
pub(crate) fn launch<A: Vouched>(
    kernel: &TypedKernel<A>,
    cfg: &LaunchConfig,
    stream: &Stream,
    args: &A,
) -> Result<()> {
    // SAFETY: the arguments are those of `A`'s declaration, which the
    // kernel's program declared and NVRTC checked the definition against,
    // and `TypedKernel::launch` checks each pointer's element type; the
    // memory the pointers address is what `A`'s launcher guarantees, as its
    // `Vouched` impl below states.
    unsafe { kernel.launch(cfg, stream, args) }?;
    Ok(())
}

/// Launches a generated kernel with its packed parameter bytes.
pub(crate) fn launch_packed(
    kernel: &Kernel,
    cfg: LaunchConfig,
    stream: &Stream,
    params: &[&[u8]],
) -> Result<()> {
    // SAFETY: the parameter bytes come from `ElementwiseSpec::pack_args`,
    // which follows the same `kernel_params` list the signature was rendered
    // from (and `launch_bytes` checks each length against the driver's);
    // every device address among them is a live array of this device whose
    // layout the spec describes; the arrays' buffers are freed in stream
    // order by the memory pool, so they outlive the launch.
    unsafe { kernel.launch_bytes(&cfg, stream, params) }?;
    Ok(())
}

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
    // layouts of those same arrays; the block is 1-d with `BLOCK` threads,
    // as the kernel's shared-memory reductions assume.
    unsafe { kernel.launch_bytes(&cfg, stream, params) }?;
    Ok(())
}

// Transpose (`array::transpose`): the caller checked that both arrays hold
// `rows x cols` items of the kernel's size at these item strides, each
// aligned to the item size, and launches 32 x 8 blocks over exactly the
// tiles of the matrix (the kernel checks each index against rows, cols).
impl Vouched for crate::array::transpose::Transpose {}

// Mask compaction (`indexing::compact::mask_select`): a C-contiguous bool
// mask and C-contiguous data of `n` elements each (the data of the kernel's
// item size), one int64 per tile in `counts`/`incl` (the count kernel
// writes them; the select kernel reads their inclusive scan), a grid of
// exactly `n.div_ceil(TILE)` blocks of 256 threads, and for the select
// kernel an output of as many elements as the mask holds true values (the
// scan's last entry, read back), which bounds every write; all buffers are
// freed in stream order, after the launch.
impl Vouched for crate::indexing::compact::MaskCount {}
impl Vouched for crate::indexing::compact::MaskSelect {}

// Counting (`stats`): a C-contiguous input of `n` elements, weights of the
// same length (or null when the kernel has none), `nb + 1` edges (or null
// for bincount) and a zeroed output of `nb` accumulators, each of the
// kernel's type (checked), all live on this stream's device and freed in
// stream order; every bin the kernel writes lies in `[0, nb)`; `use_smem`
// is set only with `nb` accumulators' bytes of dynamic shared memory.
impl Vouched for crate::stats::kernels::Count {}
// Min/max (`stats::kernels::minmax`): a C-contiguous input of `n` elements
// and a zeroed output of three uint64, on this stream's device.
impl Vouched for crate::stats::kernels::MinMax {}

// Scans (`scan::run`): a C-contiguous source holding the input elements
// the dims describe (`[outer, n, inner]`, or `[rows, n]`) and a
// C-contiguous destination of as many output elements; for `tiles` a
// status buffer of `scan::kernels::temp_bytes` bytes whose counter and
// status words were zeroed on this stream, and a grid of exactly
// `rows * tiles_per_row` tiles, so every tile id the counter hands out is
// in range; for the segmented passes one accumulator per (outer, segment,
// inner). Each kernel checks its thread index against those counts. All
// buffers are freed in stream order, after the launch.
impl Vouched for crate::scan::kernels::Tiles {}
impl Vouched for crate::scan::kernels::Rows {}
impl Vouched for crate::scan::kernels::Cols {}
impl Vouched for crate::scan::kernels::SegTotals {}
impl Vouched for crate::scan::kernels::SegCarry {}
impl Vouched for crate::scan::kernels::SegFinish {}

// Sorts (`sorting::radix`): for each pointer a kernel reads, a live buffer
// of this device holding the element counts the integers describe (input,
// ping-pong key and value buffers of `n` elements, the histogram, counters
// and a status word per tile and digit, zeroed on this stream before the
// first pass), a grid of exactly one block per tile for the pass kernels,
// and null only for outputs a kernel skips; all are freed in stream order
// after the launch. searchsorted and unique (`sorting`): dense inputs of
// the counts given, int64 and bool outputs of as many elements, the unique
// outputs sized by the run count the scan of the flags gave.
impl Vouched for crate::sorting::radix::Hist {}
impl Vouched for crate::sorting::radix::ScanBins {}
impl Vouched for crate::sorting::radix::Onesweep {}
impl Vouched for crate::sorting::radix::Search {}
impl Vouched for crate::sorting::radix::UniqueFlags {}
impl Vouched for crate::sorting::radix::UniqueScatter {}
// Selection (`sorting::select`): the dense input of `n` elements, a zeroed
// state and histogram buffer, and for the finish kernel three live outputs
// of two, one and one elements.
impl Vouched for crate::sorting::select::SelHist {}
impl Vouched for crate::sorting::select::SelPick {}
impl Vouched for crate::sorting::select::SelFinish {}
