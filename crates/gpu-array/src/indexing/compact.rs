//! Boolean-mask compaction: `a[mask]` with one mask over every axis (and
//! `extract`, `compress` of the flattened array), the elements of `a` where
//! the mask is true, in C order, as one new 1-D array.
//!
//! | NumPy / CuPy                       | Cuprum (this path)                         |
//! |------------------------------------|--------------------------------------------|
//! | `a[mask]` (`mask.shape == a.shape`) | `a.get_index(&ix![&mask])?`               |
//! | `cp.extract(cond, a)`              | [`extract`](super::extract)`(&cond, &a)?`  |
//! | `cp.compress(cond, a)` (flattened) | [`compress`](super::compress)`(&cond, &a, None)?` |
//!
//! The general advanced-indexing path (a cumulative sum of the mask, an
//! int64 offset per true element, a gather) moves the mask three times
//! and writes and reads eight bytes of offset per selected element. This
//! path moves what the result needs and little more, in two kernels over
//! tiles of 16384 elements (256 threads), with one host wait between them:
//!
//! 1. `cuprum_mask_count`: each block counts the true (nonzero) bytes of
//!    its tile of the mask, 16 mask bytes per load; the per-tile counts
//!    (int64) are then scanned by [`crate::math::cumsum`] (16384 of them
//!    for 2^28 elements) and the host reads the last, the total, in one
//!    8-byte copy: the result must be allocated before it is written.
//! 2. `cuprum_mask_select_S` (one kernel per item size `S` of 1, 2, 4, 8,
//!    16 bytes: the copy does not look at the values, so every dtype of a
//!    size shares one kernel): each block re-reads its tile of the mask in
//!    16-byte loads (8-byte for 16-byte items), in steps of 256 x 16
//!    elements (256 x 8), each thread owning consecutive ones so that the
//!    block's order is C order; a block scan of per-thread counts ranks
//!    the true elements; the data comes 16 bytes per load where its
//!    pointer is aligned; the selected elements are staged in shared
//!    memory in order and written to the result at the tile's offset (the
//!    inclusive scan of the previous tile), coalesced. A thread whose mask
//!    bytes of a step are all false skips its data load, so sparse masks
//!    read less.
//!
//! Traffic for `n` elements of `S` bytes with `k` selected: the mask read
//! twice (`2n`), the data at most once (`n S`), the result written (`k S`),
//! plus 16 bytes per tile of counts and their scan.
//!
//! Operands that are not C-contiguous are copied into C order first (one
//! extra pass over that operand); their values are then read in the same
//! C order as NumPy's.

use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::signature::{In, Out};
use gpu_runtime::{KernelSignature, LaunchConfig, TypedKernel};

use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{input, output};
use crate::layout::Order;

/// Threads per block of both kernels.
const BLOCK: u32 = 256;
/// Mask elements per tile (one block): 256 threads x 16 bytes x 4 rounds
/// (`TILE` in the kernels).
pub(crate) const TILE: usize = 16384;

/// The CUDA C++ of the count kernel and the select kernel of every item
/// size.
const SOURCE: &str = include_str!("compact.cu");

/// The item sizes with a select kernel.
const SIZES: [usize; 5] = [1, 2, 4, 8, 16];

gpu_runtime::kernel_signature! {
    /// `cuprum_mask_count`: the number of true bytes of each tile of
    /// [`TILE`] of the `n`-element mask into `counts[tile]`.
    pub(crate) struct MaskCount {
        mask: In<bool>,
        counts: Out<i64>,
        n: i64,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_mask_select_{S}`: the items (of `S` bytes) of `data` where
    /// the `n`-element mask is true, in C order, into `out` from
    /// `incl[tile - 1]` on (`incl`: the inclusive scan of the counts).
    pub(crate) struct MaskSelect {
        data: In<void>,
        mask: In<bool>,
        incl: In<i64>,
        out: Out<void>,
        n: i64,
    }
}

fn select_name(size: usize) -> String {
    format!("cuprum_mask_select_{size}")
}

/// The CUDA C++ program of the compaction kernels (`cuprum_mask_count`
/// and `cuprum_mask_select_{1,2,4,8,16}`, see [`kernel_names`]) with their
/// declared prototypes; for compile tests and ahead-of-time compilation.
///
/// ```
/// use gpu_array::indexing::compact::{kernel_names, program_source};
/// let src = program_source();
/// assert!(kernel_names().iter().all(|k| src.contains(k.as_str())));
/// ```
pub fn program_source() -> String {
    let mut s = format!("{SOURCE}{}", MaskCount::prototype("cuprum_mask_count", []));
    for size in SIZES {
        s.push_str(&MaskSelect::prototype(&select_name(size), []));
    }
    s
}

/// The names of the compaction kernels of [`program_source`].
///
/// ```
/// use gpu_array::indexing::compact::kernel_names;
/// let names = kernel_names();
/// assert_eq!(names[0], "cuprum_mask_count");
/// assert!(names.contains(&"cuprum_mask_select_8".to_string()));
/// ```
pub fn kernel_names() -> Vec<String> {
    std::iter::once("cuprum_mask_count".to_string())
        .chain(SIZES.iter().map(|&s| select_name(s)))
        .collect()
}

/// The NVRTC request the launcher compiles (without an architecture).
pub(crate) fn program_request() -> CompileRequest {
    crate::kernels::request(program_source())
}

/// The selected elements of `a` where `mask` is true, both read in C
/// order (their shapes may differ; their sizes must not), as a new 1-D
/// C-contiguous array of `a`'s dtype. Waits for the device once (the
/// count) when `a` is not empty.
///
/// # Errors
/// A mask that is not bool or of another size, devices that differ (the
/// callers check these with NumPy's messages first); allocation, compile
/// or launch failures.
pub(crate) fn mask_select(a: &Array, mask: &Array) -> Result<Array> {
    if mask.dtype() != DType::Bool || mask.size() != a.size() {
        return Err(Error::Value(format!(
            "mask select: a bool mask of size {} needed, got {} of size {}",
            a.size(),
            mask.dtype(),
            mask.size()
        )));
    }
    a.check_same_device(mask, "boolean mask select")?;
    let n = a.size();
    let dev = a.device();
    if n == 0 {
        return Array::empty_on(dev, &[0], a.dtype(), Order::C);
    }
    let s = a.itemsize();
    if !SIZES.contains(&s) {
        return Err(Error::Unsupported(format!(
            "mask select: items of {s} bytes ({})",
            a.dtype()
        )));
    }
    // C order: a contiguous operand as it is, any other copied (reshape
    // copies only when it must).
    let flat = |x: &Array| -> Result<Array> {
        let f = x.reshape([-1])?;
        // A 1-D view (negative or gapped strides) reshapes to itself.
        if f.is_c_contiguous() { Ok(f) } else { f.copy() }
    };
    let data = flat(a)?;
    let m = flat(mask)?;
    let tiles = n.div_ceil(TILE);
    let grid = u32::try_from(tiles)
        .ok()
        .filter(|&b| b < 1 << 31)
        .ok_or_else(|| Error::Value(format!("mask select: too many tiles ({tiles})")))?;
    let stream = a.stream();
    let cfg = LaunchConfig::new((grid, 1, 1), (BLOCK, 1, 1));
    let counts = Array::empty_on(dev, &[tiles], DType::Int64, Order::C)?;
    let count = TypedKernel::<MaskCount>::cached("cuprum_mask_count", [], program_request)?;
    let args = MaskCount {
        mask: input(&m),
        counts: output(&counts),
        n: n as i64,
    };
    count.launch(&cfg, &stream, &args)?;
    let incl = crate::math::cumsum(&counts, None, None)?;
    // The one wait: the total sizes the result.
    let total = incl.item::<i64>(&[tiles as isize - 1])?;
    let total = usize::try_from(total)
        .ok()
        .filter(|&t| t <= n)
        .ok_or_else(|| Error::Value(format!("mask select: a count of {total} for {n} elements")))?;
    let out = Array::empty_on(dev, &[total], a.dtype(), Order::C)?;
    if total > 0 {
        let select = TypedKernel::<MaskSelect>::cached(&select_name(s), [], program_request)?;
        let args = MaskSelect {
            data: In::bytes(data.data_ptr()),
            mask: input(&m),
            incl: input(&incl),
            out: Out::bytes(out.data_ptr()),
            n: n as i64,
        };
        select.launch(&cfg, &stream, &args)?;
    }
    Ok(out)
}

/// `mask` as a bool array: itself, or `mask != 0` (NumPy's truth of any
/// dtype, as `nonzero` counts it).
pub(crate) fn as_bool(mask: &Array) -> Result<Array> {
    if mask.dtype() == DType::Bool {
        Ok(mask.clone())
    } else {
        mask.not_equal(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tile_is_the_kernels() {
        assert!(SOURCE.contains(&format!(
            "constexpr int TILE = STEP * ROUNDS;  // mask bytes per block ({TILE})"
        )));
        assert!(SOURCE.contains(&format!("constexpr int BLOCK = {BLOCK};")));
        assert_eq!(TILE, 256 * 16 * 4);
        let names = kernel_names();
        assert_eq!(names[0], "cuprum_mask_count");
        assert!(SOURCE.contains("cuprum_mask_count("));
        for (name, s) in names[1..].iter().zip(SIZES) {
            assert_eq!(*name, format!("cuprum_mask_select_{s}"));
            assert!(SOURCE.contains(&format!("CUPRUM_MASK_SELECT({s})\n")));
        }
        // The prototypes the definitions are checked against.
        let source = program_source();
        assert!(source.contains(
            "extern \"C\" __global__ void cuprum_mask_count(const bool* mask, long long* counts, \
             long long n);\n"
        ));
        assert!(source.contains(
            "extern \"C\" __global__ void cuprum_mask_select_16(const void* data, \
             const bool* mask, const long long* incl, void* out, long long n);\n"
        ));
    }
}
