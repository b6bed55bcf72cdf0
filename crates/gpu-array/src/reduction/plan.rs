//! The reduction planner: from the operands' layouts and the reduced axes
//! to the kept and reduced iterations (each coalesced), the strategy, the
//! two-pass segmentation and the index width. Host logic only.

use super::spec::Strategy;
use crate::elementwise::IndexWidth;
use crate::error::{Error, Result};
use crate::layout::{self, byte_extent, coalesce, normalize_axes};

/// NumPy's `axis=` for reductions, normalised: `None` is every axis; an
/// entry may be negative; the result is sorted, without repeats.
///
/// ```
/// use gpu_array::reduction::plan::reduced_axes;
/// assert_eq!(reduced_axes(None, 3)?, [0, 1, 2]);
/// assert_eq!(reduced_axes(Some(&[-1, 0]), 3)?, [0, 2]);
/// assert!(reduced_axes(Some(&[1, -2]), 3).is_err()); // repeated axis
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::AxisOutOfBounds`] or [`Error::Axis`] ("repeated axis"), as
/// NumPy's `normalize_axis_tuple`.
pub fn reduced_axes(axis: Option<&[isize]>, ndim: usize) -> Result<Vec<usize>> {
    let mut v = match axis {
        None => (0..ndim).collect(),
        Some(a) => normalize_axes(a, ndim)?,
    };
    v.sort_unstable();
    Ok(v)
}

/// The shape of a reduction's result: `shape` without the reduced axes, or
/// with them as 1 when `keepdims`.
///
/// ```
/// use gpu_array::reduction::plan::result_shape;
/// assert_eq!(result_shape(&[2, 3, 4], &[1], false), [2, 4]);
/// assert_eq!(result_shape(&[2, 3, 4], &[1], true), [2, 1, 4]);
/// ```
pub fn result_shape(shape: &[usize], axes: &[usize], keepdims: bool) -> Vec<usize> {
    shape
        .iter()
        .enumerate()
        .filter_map(|(k, &d)| match (axes.contains(&k), keepdims) {
            (false, _) => Some(d),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect()
}

/// A planned reduction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReducePlan {
    /// Coalesced kept shape (at least one dimension).
    pub out_shape: Vec<usize>,
    /// Kept byte strides: each array input's, then each output's.
    pub out_strides: Vec<Vec<isize>>,
    /// Coalesced reduced shape (at least one dimension).
    pub red_shape: Vec<usize>,
    /// Reduced byte strides of each array input.
    pub red_strides: Vec<Vec<isize>>,
    /// Number of outputs.
    pub n_out: usize,
    /// Elements per reduced row.
    pub n_red: usize,
    /// The strategy.
    pub strategy: Strategy,
    /// Two-pass: (segments per row, elements per segment); else (1, n_red).
    pub segments: (usize, usize),
    /// Index width for every offset and count the kernels compute.
    pub index: IndexWidth,
    /// Elements per 16-byte load when the rows may be read as vectors
    /// (see [`ReductionSpec::vector`](super::ReductionSpec::vector)), else 1;
    /// [`vector_for_addresses`] confirms it once the data addresses are known.
    pub vector: usize,
}

/// Rows shorter than this are read element by element.
pub const VECTOR_MIN_ROW: usize = 64;

/// The vector width the layouts allow: one reduced dimension of unit
/// stride in every input, every input of one item size that divides 16
/// (at most 8), a block-per-row or two-pass strategy, rows of at least
/// [`VECTOR_MIN_ROW`], and, with several inputs, kept strides that are
/// multiples of 16 bytes (so that row starts agree modulo 16 when the
/// bases do).
fn vector_width(
    strategy: Strategy,
    n_red: usize,
    red_strides: &[Vec<isize>],
    out_strides: &[Vec<isize>],
    itemsizes: &[usize],
) -> usize {
    let isz = itemsizes[0];
    let ok = matches!(strategy, Strategy::BlockPerRow | Strategy::TwoPass)
        && n_red >= VECTOR_MIN_ROW
        && matches!(isz, 1 | 2 | 4 | 8)
        && itemsizes.iter().all(|&i| i == isz)
        && red_strides
            .iter()
            .all(|s| s.len() == 1 && s[0] == isz as isize)
        && (itemsizes.len() == 1
            || out_strides[..itemsizes.len()]
                .iter()
                .all(|s| s.iter().all(|&b| b % 16 == 0)));
    if ok { 16 / isz } else { 1 }
}

/// The column path's vector width: one kept dimension of unit stride in
/// every input, every input of one item size of 2, 4 or 8 bytes, reduced
/// strides that are multiples of 16 bytes, and at least a tile of outputs.
/// (The bases' 16-byte alignment is checked by [`vector_for_addresses`].)
fn column_vector_width(
    n_out: usize,
    red_strides: &[Vec<isize>],
    out_strides: &[Vec<isize>],
    itemsizes: &[usize],
) -> usize {
    let isz = itemsizes[0];
    let v = 16 / isz.max(1);
    let ok = matches!(isz, 2 | 4 | 8)
        && itemsizes.iter().all(|&i| i == isz)
        && n_out >= 32 * v
        && out_strides[..itemsizes.len()]
            .iter()
            .all(|s| s.len() == 1 && s[0] == isz as isize)
        && red_strides.iter().all(|s| s.iter().all(|&b| b % 16 == 0));
    if ok { v } else { 1 }
}

/// `vector` if the inputs' data addresses allow it, else 1: for the row
/// path each aligned to its item size and, with several inputs, all equal
/// modulo 16; for the column path (`columns`) each 16-byte aligned.
///
/// ```
/// use gpu_array::reduction::plan::vector_for_addresses;
/// assert_eq!(vector_for_addresses(4, &[0x1000], 4, true), 4);
/// assert_eq!(vector_for_addresses(4, &[0x1004], 4, true), 1); // columns need 16-byte bases
/// ```
pub fn vector_for_addresses(
    vector: usize,
    addresses: &[u64],
    itemsize: usize,
    columns: bool,
) -> usize {
    if columns {
        return if addresses.iter().all(|a| a % 16 == 0) {
            vector
        } else {
            1
        };
    }
    let isz = itemsize.max(1) as u64;
    let aligned = addresses.iter().all(|a| a % isz == 0);
    let agree = addresses.windows(2).all(|w| w[0] % 16 == w[1] % 16);
    if vector > 1 && aligned && agree {
        vector
    } else {
        1
    }
}

/// Device facts the planner uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceShape {
    /// Streaming multiprocessors.
    pub sms: usize,
}

/// Rows at most this long go to [`Strategy::WarpPerRow`].
pub const WARP_ROW_MAX: usize = 128;
/// Rows at least this long may take [`Strategy::TwoPass`].
pub const TWO_PASS_MIN_ROW: usize = 8192;
/// Fewest elements a two-pass segment holds (8 per thread of a block).
pub const MIN_SEGMENT: usize = 2048;
/// Fewest rows of a split column segment (8 per row of threads).
pub const COLUMN_SEGMENT_MIN: usize = 64;
/// Waves of (tile, segment) items a split column reduction aims at: many,
/// so that the last wave's imbalance is small.
pub const COLUMN_WAVES: usize = 16;

/// Segments per resident block of a two-pass reduction: each block takes
/// segments `b, b + grid, ...`, so the blocks sweep the rows together.
/// Two rounds beat one: a full float32 sum of 2^28 on the H200 went from
/// 0.265-0.270 to 0.256-0.259 ms (argmax 0.271 to 0.261 with its own
/// occupancy); three were no better (docs/benchmarks.md).
pub const TWO_PASS_ROUNDS: usize = 2;

/// The two-pass segmentation (segments per row, elements per segment) of
/// `n_out` rows of `n_red` elements when `resident` blocks of the first
/// pass fit on the device at once: [`TWO_PASS_ROUNDS`] segments per
/// resident block in all, each at least [`MIN_SEGMENT`] elements.
///
/// ```
/// use gpu_array::reduction::plan::two_pass_segments;
/// let (segments, per) = two_pass_segments(1, 1 << 20, 1056);
/// assert!(segments > 1 && segments * per >= 1 << 20);
/// ```
pub fn two_pass_segments(n_out: usize, n_red: usize, resident: usize) -> (usize, usize) {
    let target = TWO_PASS_ROUNDS * resident.max(1);
    let by_device = target.div_ceil(n_out.max(1));
    let by_length = n_red.div_ceil(MIN_SEGMENT);
    let s = by_device.min(by_length).max(1);
    let chunk = n_red.div_ceil(s).max(1);
    (n_red.div_ceil(chunk), chunk)
}

/// Picks the strategy by shape: the column strategy when the reduced axes
/// are strided and the kept axis is contiguous (with at least a warp's
/// worth of outputs); two passes when there are too few rows to fill the
/// device and they are long; else a warp (short rows) or a block per row.
///
/// `tile` is the number of outputs a column block covers (32, or 32 times
/// the column vector width).
///
/// ```
/// use gpu_array::reduction::Strategy;
/// use gpu_array::reduction::plan::{DeviceShape, choose_strategy};
/// let dev = DeviceShape { sms: 132 };
/// assert_eq!(choose_strategy(1000, 64, true, false, 32, dev).0, Strategy::WarpPerRow);
/// assert_eq!(choose_strategy(1000, 4096, true, false, 32, dev).0, Strategy::BlockPerRow);
/// assert_eq!(choose_strategy(1, 1 << 24, true, false, 32, dev).0, Strategy::TwoPass);
/// ```
pub fn choose_strategy(
    n_out: usize,
    n_red: usize,
    red_contiguous: bool,
    kept_contiguous: bool,
    tile: usize,
    dev: DeviceShape,
) -> (Strategy, (usize, usize)) {
    let one = (1, n_red);
    if n_red == 0 {
        return (Strategy::WarpPerRow, one);
    }
    if !red_contiguous && kept_contiguous && n_out >= 32 {
        // Split the rows when the column tiles alone cannot fill the
        // device: about COLUMN_WAVES full waves of (tile, segment) items,
        // each segment at least COLUMN_SEGMENT_MIN rows.
        let cap = 8 * dev.sms.max(1);
        let tiles = n_out.div_ceil(tile.max(1));
        let s = (cap * COLUMN_WAVES)
            .div_ceil(tiles)
            .min(n_red / COLUMN_SEGMENT_MIN);
        if tiles < 2 * cap && s > 1 {
            let chunk = n_red.div_ceil(s);
            return (Strategy::ColumnSplit, (n_red.div_ceil(chunk), chunk));
        }
        return (Strategy::Column, one);
    }
    if n_red >= TWO_PASS_MIN_ROW && n_out < 2 * dev.sms.max(1) {
        // Until the launcher knows the kernel's occupancy: 8 blocks of 256
        // threads per multiprocessor.
        return (
            Strategy::TwoPass,
            two_pass_segments(n_out, n_red, 8 * dev.sms.max(1)),
        );
    }
    if n_red <= WARP_ROW_MAX {
        (Strategy::WarpPerRow, one)
    } else {
        (Strategy::BlockPerRow, one)
    }
}

fn at_least_1d(c: layout::Coalesced, count: usize) -> (Vec<usize>, Vec<Vec<isize>>) {
    if c.shape.is_empty() {
        (vec![1], vec![vec![0]; count])
    } else {
        (c.shape, c.strides)
    }
}

/// Plans a reduction of arrays of `shape` over `axes` (normalised).
///
/// `inputs` are the array inputs' byte strides over `shape` (broadcast
/// already) with their item sizes; `outputs` each output's byte strides
/// over the kept axes (in order). The first input decides the axis order.
///
/// ```
/// use gpu_array::reduction::Strategy;
/// use gpu_array::reduction::plan::{DeviceShape, plan};
/// // Row sums of a C-contiguous (1000, 64) float32 array into a (1000,) output.
/// let p = plan(&[1000, 64], &[(&[256, 4], 4)], &[(&[4], 4)], &[1], DeviceShape { sms: 132 })?;
/// assert_eq!((p.n_out, p.n_red, p.strategy), (1000, 64, Strategy::WarpPerRow));
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::Value`] when there is no array input or a stride list has the
/// wrong length.
pub fn plan(
    shape: &[usize],
    inputs: &[(&[isize], usize)],
    outputs: &[(&[isize], usize)],
    axes: &[usize],
    dev: DeviceShape,
) -> Result<ReducePlan> {
    if inputs.is_empty() {
        return Err(Error::Value(
            "a reduction needs at least one array input".into(),
        ));
    }
    let kept: Vec<usize> = (0..shape.len()).filter(|a| !axes.contains(a)).collect();
    if inputs.iter().any(|(s, _)| s.len() != shape.len())
        || outputs.iter().any(|(s, _)| s.len() != kept.len())
    {
        return Err(Error::Value(
            "reduction operand strides do not match the shape".into(),
        ));
    }
    let kshape: Vec<usize> = kept.iter().map(|&a| shape[a]).collect();
    let rshape: Vec<usize> = axes.iter().map(|&a| shape[a]).collect();
    let kstr: Vec<Vec<isize>> = inputs
        .iter()
        .map(|(s, _)| kept.iter().map(|&a| s[a]).collect())
        .chain(outputs.iter().map(|(s, _)| s.to_vec()))
        .collect();
    let rstr: Vec<Vec<isize>> = inputs
        .iter()
        .map(|(s, _)| axes.iter().map(|&a| s[a]).collect())
        .collect();
    let kref: Vec<&[isize]> = kstr.iter().map(Vec::as_slice).collect();
    let rref: Vec<&[isize]> = rstr.iter().map(Vec::as_slice).collect();
    let (out_shape, out_strides) = at_least_1d(coalesce(&kshape, &kref, true), kref.len());
    let (red_shape, red_strides) = at_least_1d(coalesce(&rshape, &rref, true), rref.len());
    let n_out = layout::size(&out_shape)?;
    let n_red = layout::size(&red_shape)?;
    let isz = inputs[0].1 as isize;
    let red_contiguous = n_red <= 1 || red_strides[0].last().map(|s| s.abs()) == Some(isz);
    let kept_contiguous = out_strides[0].last().map(|s| s.abs()) == Some(isz);
    let itemsizes: Vec<usize> = inputs.iter().map(|(_, i)| *i).collect();
    let col_vector = column_vector_width(n_out, &red_strides, &out_strides, &itemsizes);
    let (strategy, segments) = choose_strategy(
        n_out,
        n_red,
        red_contiguous,
        kept_contiguous,
        32 * col_vector,
        dev,
    );
    let extents: Vec<(isize, isize)> = inputs
        .iter()
        .map(|(s, i)| byte_extent(shape, s, *i))
        .chain(outputs.iter().map(|(s, i)| byte_extent(&kshape, s, *i)))
        .collect::<Result<_>>()?;
    let count = (n_out.saturating_mul(n_red)).max(n_out.saturating_mul(segments.0));
    let index = IndexWidth::for_extents(count, &extents);
    let vector = match strategy {
        Strategy::Column | Strategy::ColumnSplit => col_vector,
        _ => vector_width(strategy, n_red, &red_strides, &out_strides, &itemsizes),
    };
    Ok(ReducePlan {
        out_shape,
        out_strides,
        red_shape,
        red_strides,
        n_out,
        n_red,
        strategy,
        segments,
        index,
        vector,
    })
}

/// CuPy's restriction on `raw` arguments of a reduction: the reduced axes
/// must be the leading ones (`0`, `(0, 1)`, ...).
///
/// ```
/// use gpu_array::reduction::plan::check_raw_axes;
/// assert!(check_raw_axes(&[0, 1]).is_ok());
/// assert!(check_raw_axes(&[1]).is_err());
/// ```
///
/// # Errors
///
/// [`Error::Value`] otherwise.
pub fn check_raw_axes(axes: &[usize]) -> Result<()> {
    if axes.iter().enumerate().all(|(k, &a)| k == a) {
        Ok(())
    } else {
        Err(Error::Value(
            "Invalid axis: a reduction with raw arguments needs axis 0 or a contiguous \
             increasing sequence of axes starting from 0"
                .into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H200: DeviceShape = DeviceShape { sms: 132 };

    #[test]
    fn axes_normalise() {
        assert_eq!(reduced_axes(None, 3).unwrap(), vec![0, 1, 2]);
        assert_eq!(reduced_axes(Some(&[-1, 0]), 3).unwrap(), vec![0, 2]);
        assert_eq!(reduced_axes(Some(&[]), 3).unwrap(), Vec::<usize>::new());
        assert_eq!(
            reduced_axes(Some(&[3]), 3).unwrap_err().to_string(),
            "axis 3 is out of bounds for array of dimension 3"
        );
        assert_eq!(
            reduced_axes(Some(&[1, -2]), 3).unwrap_err().to_string(),
            "repeated axis"
        );
        assert_eq!(result_shape(&[2, 3, 4], &[1], false), vec![2, 4]);
        assert_eq!(result_shape(&[2, 3, 4], &[0, 2], true), vec![1, 3, 1]);
        assert_eq!(result_shape(&[2, 3], &[0, 1], false), Vec::<usize>::new());
        assert!(check_raw_axes(&[0, 1]).is_ok());
        assert!(check_raw_axes(&[1]).is_err());
    }

    fn c(shape: &[usize], isz: usize) -> Vec<isize> {
        layout::c_strides(shape, isz).unwrap()
    }

    #[test]
    fn two_pass_segments_follow_the_resident_blocks() {
        // Two rounds of 5 resident blocks on each of 132 multiprocessors.
        assert_eq!(two_pass_segments(1, 1 << 28, 660), (1320, 203_361));
        // Two rows share them; short rows keep segments of MIN_SEGMENT.
        assert_eq!(two_pass_segments(2, 1 << 28, 660), (660, 406_721));
        assert_eq!(two_pass_segments(1, 10_000, 1056), (5, 2000));
        assert_eq!(two_pass_segments(1, 8192, 1056), (4, 2048));
        // The segments always cover the row.
        for (n_out, n_red, resident) in [(3, 123_457, 1056), (1, 1 << 20, 0), (100, 9000, 1)] {
            let (s, c) = two_pass_segments(n_out, n_red, resident);
            assert!(s >= 1 && s * c >= n_red && (s - 1) * c < n_red);
        }
    }

    #[test]
    fn planner_picks_by_shape() {
        // Rows of a C-contiguous matrix: block per row.
        let s = c(&[1000, 4096], 4);
        let p = plan(&[1000, 4096], &[(&s, 4)], &[(&[4], 4)], &[1], H200).unwrap();
        assert_eq!(p.strategy, Strategy::BlockPerRow);
        assert_eq!((p.n_out, p.n_red), (1000, 4096));
        // Short rows: a warp each.
        let s = c(&[100_000, 16], 4);
        let p = plan(&[100_000, 16], &[(&s, 4)], &[(&[4], 4)], &[1], H200).unwrap();
        assert_eq!(p.strategy, Strategy::WarpPerRow);
        // Axis 0 of a C matrix: columns, the rows split in segments of at
        // least 64 when the tiles are few.
        let s = c(&[4096, 1000], 4);
        let p = plan(&[4096, 1000], &[(&s, 4)], &[(&[4], 4)], &[0], H200).unwrap();
        assert_eq!(p.strategy, Strategy::ColumnSplit);
        assert_eq!(p.red_strides[0], vec![4000]);
        assert_eq!(p.segments, (64, 64));
        assert_eq!(p.vector, 4);
        // 4004-byte rows are not 16-byte multiples: element by element.
        let s = c(&[4096, 1001], 4);
        let p = plan(&[4096, 1001], &[(&s, 4)], &[(&[4], 4)], &[0], H200).unwrap();
        assert_eq!((p.strategy, p.vector), (Strategy::ColumnSplit, 1));
        let s = c(&[4096, 1024], 8);
        let p = plan(&[4096, 1024], &[(&s, 8)], &[(&[8], 8)], &[0], H200).unwrap();
        assert_eq!((p.strategy, p.vector), (Strategy::ColumnSplit, 2));
        // 16384 columns of float32: 4 per load, 128 tiles, 132 segments.
        let s = c(&[16384, 16384], 4);
        let p = plan(&[16384, 16384], &[(&s, 4)], &[(&[4], 4)], &[0], H200).unwrap();
        assert_eq!((p.strategy, p.vector), (Strategy::ColumnSplit, 4));
        let (nseg, chunk) = p.segments;
        assert_eq!(nseg, 132);
        assert!(nseg * chunk >= 16384 && (nseg - 1) * chunk < 16384);
        let s = c(&[100, 1 << 22], 4);
        let p = plan(&[100, 1 << 22], &[(&s, 4)], &[(&[4], 4)], &[0], H200).unwrap();
        assert_eq!((p.strategy, p.vector), (Strategy::Column, 4));
        // Full reduction: two passes, segments cover the row.
        let s = c(&[1 << 12, 1 << 12], 4);
        let p = plan(&[1 << 12, 1 << 12], &[(&s, 4)], &[(&[], 4)], &[0, 1], H200).unwrap();
        assert_eq!(p.strategy, Strategy::TwoPass);
        assert_eq!(p.red_shape, vec![1 << 24]);
        assert_eq!(p.out_shape, vec![1]);
        let (nseg, chunk) = p.segments;
        assert!(nseg * chunk >= 1 << 24 && (nseg - 1) * chunk < 1 << 24);
        assert_eq!(nseg, TWO_PASS_ROUNDS * 8 * 132);
        assert_eq!(p.index, IndexWidth::I32);
        // Full reduction of a small array: one block.
        let s = c(&[10, 10], 8);
        let p = plan(&[10, 10], &[(&s, 8)], &[(&[], 8)], &[0, 1], H200).unwrap();
        assert_eq!(p.strategy, Strategy::WarpPerRow);
        assert_eq!(p.red_shape, vec![100]);
        // A transposed input reduced over its last axis is strided, kept
        // contiguous: columns.
        let s = c(&[512, 256], 4);
        let t = [s[1], s[0]];
        let p = plan(&[256, 512], &[(&t, 4)], &[(&[4], 4)], &[1], H200).unwrap();
        assert_eq!(p.strategy, Strategy::ColumnSplit);
        assert_eq!(p.segments, (8, 64));
        // Empty rows and empty outputs.
        let s = c(&[5, 0], 4);
        let p = plan(&[5, 0], &[(&s, 4)], &[(&[4], 4)], &[1], H200).unwrap();
        assert_eq!((p.n_out, p.n_red), (5, 0));
        let s = c(&[0, 5], 4);
        let p = plan(&[0, 5], &[(&s, 4)], &[(&[4], 4)], &[1], H200).unwrap();
        assert_eq!(p.n_out, 0);
        // axis=() reduces nothing: rows of one element.
        let s = c(&[3, 4], 4);
        let p = plan(&[3, 4], &[(&s, 4)], &[(&[16, 4], 4)], &[], H200).unwrap();
        assert_eq!((p.n_out, p.n_red), (12, 1));
        // 3-d with a middle axis: kept dims coalesce apart.
        let s = c(&[6, 7, 8], 4);
        let p = plan(&[6, 7, 8], &[(&s, 4)], &[(&[32, 4], 4)], &[1], H200).unwrap();
        assert_eq!(p.out_shape, vec![6, 8]);
        assert_eq!(p.strategy, Strategy::Column);
    }

    #[test]
    fn vector_path_needs_unit_rows_and_agreeing_addresses() {
        // Full reduction of a C array: two passes, 4 floats per load.
        let s = c(&[1 << 12, 1 << 12], 4);
        let p = plan(&[1 << 12, 1 << 12], &[(&s, 4)], &[(&[], 4)], &[0, 1], H200).unwrap();
        assert_eq!((p.strategy, p.vector), (Strategy::TwoPass, 4));
        // Rows of float64: 2 per load; of complex128: none.
        let s = c(&[1000, 4096], 8);
        let p = plan(&[1000, 4096], &[(&s, 8)], &[(&[8], 8)], &[1], H200).unwrap();
        assert_eq!((p.strategy, p.vector), (Strategy::BlockPerRow, 2));
        let s = c(&[1000, 4096], 16);
        let p = plan(&[1000, 4096], &[(&s, 16)], &[(&[16], 16)], &[1], H200).unwrap();
        assert_eq!(p.vector, 1);
        // A stepped or reversed row, short rows, columns: element by element.
        let s = [2 * 4096 * 4, 8];
        let p = plan(&[1000, 4096], &[(&s, 4)], &[(&[4], 4)], &[1], H200).unwrap();
        assert_eq!(p.vector, 1);
        let s = [4096 * 4, -4];
        let p = plan(&[1000, 4096], &[(&s, 4)], &[(&[4], 4)], &[1], H200).unwrap();
        assert_eq!(p.vector, 1);
        let s = c(&[100_000, 16], 4);
        let p = plan(&[100_000, 16], &[(&s, 4)], &[(&[4], 4)], &[1], H200).unwrap();
        assert_eq!(p.vector, 1);
        // A single input may start rows anywhere (the kernel peels heads);
        // two inputs need rows 16-byte apart.
        let s = c(&[1000, 4099], 4);
        let p = plan(&[1000, 4099], &[(&s, 4)], &[(&[4], 4)], &[1], H200).unwrap();
        assert_eq!(p.vector, 4);
        let p = plan(&[1000, 4099], &[(&s, 4), (&s, 4)], &[(&[4], 4)], &[1], H200).unwrap();
        assert_eq!(p.vector, 1);
        let s = c(&[1000, 4096], 4);
        let p = plan(&[1000, 4096], &[(&s, 4), (&s, 4)], &[(&[4], 4)], &[1], H200).unwrap();
        assert_eq!(p.vector, 4);
        // Inputs of different item sizes: none.
        let s8 = c(&[1000, 4096], 8);
        let p = plan(
            &[1000, 4096],
            &[(&s, 4), (&s8, 8)],
            &[(&[4], 4)],
            &[1],
            H200,
        )
        .unwrap();
        assert_eq!(p.vector, 1);
        // Addresses.
        assert_eq!(vector_for_addresses(4, &[0x1004], 4, false), 4);
        assert_eq!(vector_for_addresses(4, &[0x1002], 4, false), 1);
        assert_eq!(vector_for_addresses(4, &[0x1004, 0x2004], 4, false), 4);
        assert_eq!(vector_for_addresses(4, &[0x1004, 0x2008], 4, false), 1);
        assert_eq!(vector_for_addresses(1, &[0x1000], 4, false), 1);
        assert_eq!(vector_for_addresses(4, &[0x1000, 0x2010], 4, true), 4);
        assert_eq!(vector_for_addresses(4, &[0x1004], 4, true), 1);
    }

    #[test]
    fn index_width_grows_with_extents() {
        let shape = [1usize << 20, 1 << 12];
        let s = c(&shape, 4);
        let p = plan(&shape, &[(&s, 4)], &[(&[4], 4)], &[1], H200).unwrap();
        assert_eq!(p.index, IndexWidth::I64);
    }
}
