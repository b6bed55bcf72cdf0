//! Statistics over labelled regions (SciPy's `sum_labels`, `mean`,
//! `variance`, `standard_deviation`, `minimum`, `maximum`, their
//! positions, `extrema`, `median`, `center_of_mass`, `histogram`).
//!
//! Every function gathers its regions the same way ([`group`]): the labels
//! are sorted stably on the device, each requested label's elements are
//! then one segment of that order, found by binary search, and one kernel
//! reduces every segment in a fixed order (`kernels/measure.cu`), so float
//! results do not change from run to run.

use gpu_array::indexing::{TakeMode, take};
use gpu_array::sorting::{Side, argsort, lexsort, searchsorted};
use gpu_array::stats::amax;
use gpu_array::{Array, DType, Error, Result};

use super::Index;
use super::kernels::{DTYPES, SegStatsOut, Segments};
use super::structure::unravel;

/// The data of a measurement and the segments of its regions.
pub(crate) struct Grouped {
    /// The input, broadcast against the labels, C-contiguous, flat.
    pub values: Array,
    /// The broadcast shape.
    pub shape: Vec<usize>,
    /// The order that sorts the labels (and, for medians, the values
    /// within each label); `None`: the identity.
    pub perm: Option<Array>,
    /// Each region's first and past-the-end position in that order.
    pub lo: Array,
    pub hi: Array,
    /// Whether the result is one value (0-d): no labels, `Index::All` or
    /// `Index::One`, as SciPy's scalar results.
    pub single: bool,
}

impl Grouped {
    fn segments(&self) -> Segments<'_> {
        Segments {
            values: &self.values,
            perm: self.perm.as_ref(),
            lo: self.lo.clone(),
            hi: self.hi.clone(),
        }
    }

    /// `a` (one value a region) as the result: 0-d when single.
    fn shaped(&self, a: Array) -> Result<Array> {
        if self.single {
            a.reshape(&[] as &[isize])
        } else {
            Ok(a)
        }
    }

    /// Linear positions (int64, one a region) as coordinates.
    fn positions(&self, pos: &Array) -> Result<Vec<Vec<usize>>> {
        Ok(pos
            .to_vec::<i64>()?
            .into_iter()
            .map(|p| unravel(p as usize, &self.shape))
            .collect())
    }

    /// NumPy's error for a minimum or maximum of no elements, when single.
    fn check_nonempty(&self, count: &Array, op: &str) -> Result<()> {
        if self.single && count.to_vec::<i64>()?[0] == 0 {
            return Err(Error::Value(format!(
                "zero-size array to reduction operation {op} which has no identity"
            )));
        }
        Ok(())
    }
}

/// The measurements' check of the input's dtype.
pub(crate) fn check_input(input: &Array) -> Result<()> {
    let dt = input.dtype();
    if DTYPES.contains(&dt) {
        Ok(())
    } else {
        Err(Error::Unsupported(format!(
            "ndimage measurements of dtype {} (bool, integers, float32 and float64 are taken)",
            dt.name()
        )))
    }
}

/// The labels as flat C-ordered int64 values, after the check that they
/// are integers (or bool) that int64 holds.
pub(crate) fn labels_i64(labels: &Array) -> Result<Array> {
    let dt = labels.dtype();
    if !(dt.is_integer() || dt.is_bool()) {
        return Err(Error::Unsupported(format!(
            "labels of dtype {}: Cuprum's measurements take integer or bool labels",
            dt.name()
        )));
    }
    if dt == DType::UInt64 && labels.size() > 0 {
        let max = amax(labels, ())?.to_vec::<u64>()?[0];
        if max > i64::MAX as u64 {
            return Err(Error::Unsupported(format!(
                "labels above {} (this one is {max})",
                i64::MAX
            )));
        }
    }
    let l = labels.astype(DType::Int64)?;
    let l = if l.is_c_contiguous() { l } else { l.copy()? };
    l.reshape([-1isize])
}

/// Gathers the regions of `index` in `labels` over `input` (SciPy's
/// `_stats` and `_select`): without labels one region, the whole input,
/// whatever `index`; with `Index::All` the elements whose label is
/// positive. `by_value`: within each region, sort by value too (medians).
pub(crate) fn group(
    input: &Array,
    labels: Option<&Array>,
    index: Index<'_>,
    by_value: bool,
) -> Result<Grouped> {
    check_input(input)?;
    let (x, l) = match labels {
        None => (input.clone(), None),
        Some(l) => {
            let b = gpu_array::array::broadcast_arrays(&[input, l])?;
            (b[0].clone(), Some(labels_i64(&b[1])?))
        }
    };
    let shape = x.shape().to_vec();
    let x = if x.is_c_contiguous() { x } else { x.copy()? };
    let values = x.reshape([-1isize])?;
    let n = values.size();
    let i64s = |v: &[i64]| Array::from_slice(v, &[v.len()]);
    let Some(l) = l else {
        let perm = if by_value && n > 0 {
            Some(argsort(&values, Some(0))?)
        } else {
            None
        };
        return Ok(Grouped {
            values,
            shape,
            perm,
            lo: i64s(&[0])?,
            hi: i64s(&[n as i64])?,
            single: true,
        });
    };
    let (queries, single): (Vec<i64>, bool) = match index {
        Index::All => (vec![0], true),
        Index::One(v) => (vec![v], true),
        Index::Many(v) => (v.to_vec(), false),
    };
    if n == 0 {
        let zeros = Array::zeros([queries.len()], DType::Int64)?;
        return Ok(Grouped {
            values,
            shape,
            perm: None,
            lo: zeros.clone(),
            hi: zeros,
            single,
        });
    }
    // `Index::All`'s region spans many labels; sorted by value as a whole,
    // its key is "label > 0" (0 or 1).
    let l = if by_value && matches!(index, Index::All) {
        l.greater(0i64)?.astype(DType::Int64)?
    } else {
        l
    };
    let perm = if by_value {
        lexsort(&[&values, &l])?
    } else {
        argsort(&l, Some(0))?
    };
    let sorted = take(&l, &perm, Some(0), TakeMode::Wrap)?;
    let q = i64s(&queries)?;
    let (lo, hi) = match index {
        // Labels above 0: past every 0 and negative label, to the end.
        Index::All => (
            searchsorted(&sorted, &q, Side::Right, None)?,
            i64s(&[n as i64])?,
        ),
        _ => (
            searchsorted(&sorted, &q, Side::Left, None)?,
            searchsorted(&sorted, &q, Side::Right, None)?,
        ),
    };
    Ok(Grouped {
        values,
        shape,
        perm: Some(perm),
        lo,
        hi,
        single,
    })
}

fn stats(
    input: &Array,
    labels: Option<&Array>,
    index: Index<'_>,
) -> Result<(Grouped, SegStatsOut)> {
    let g = group(input, labels, index, false)?;
    let s = g.segments().stats()?;
    Ok((g, s))
}

/// The sum of `input` over each region (SciPy's `sum_labels`).
///
/// Regions: with `labels`, [`Index::All`] takes every element whose label
/// is positive, [`Index::One`] and [`Index::Many`] the elements of those
/// labels; without `labels`, the whole input (and `index` is ignored, as
/// SciPy does). Labels must be integers or bool; `labels` broadcasts
/// against `input`.
///
/// Results as SciPy's: one sum a label of [`Index::Many`] (float64, 0 for
/// a label that is not there); a 0-d array otherwise, of NumPy's sum
/// dtype (int64 for bool and signed integers, uint64 for unsigned ones,
/// the input's float dtype). Sums are in float64 (integer ones exact), in
/// a fixed order, so they are the same from run to run, though not
/// always to the last bit SciPy's.
///
/// ```no_run
/// use gpu_ndimage::{Index, sum_labels};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([0.0, 1.0, 2.0, 3.0])?;
/// let l = gpu_array::creation::array([1, 1, 2, 2])?;
/// let s = sum_labels(&x, Some(&l), Index::Many(&[1, 2]))?; // [1.0, 5.0]
/// let all = sum_labels(&x, Some(&l), Index::All)?; // 6.0 (0-d)
/// # Ok(()) }
/// ```
///
/// # Errors
/// Shapes that do not broadcast; complex or float16 input, or non-integer
/// labels (not supported); allocation, compilation or a launch failed.
pub fn sum_labels(input: &Array, labels: Option<&Array>, index: Index<'_>) -> Result<Array> {
    let (g, s) = stats(input, labels, index)?;
    if !g.single {
        return Ok(s.sum);
    }
    let dt = input.dtype();
    let one = if dt.is_unsigned_integer() {
        s.isum.view_as(DType::UInt64)?
    } else if dt.is_integer() || dt.is_bool() {
        s.isum
    } else if dt == DType::Float32 {
        s.sum.astype(DType::Float32)?
    } else {
        s.sum
    };
    g.shaped(one)
}

/// SciPy's `sum`, the older name of [`sum_labels`].
///
/// ```no_run
/// use gpu_ndimage::{Index, sum};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([1, 2, 3])?;
/// let total = sum(&x, None, Index::All)?; // 6 (int64, 0-d)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`sum_labels`].
pub fn sum(input: &Array, labels: Option<&Array>, index: Index<'_>) -> Result<Array> {
    sum_labels(input, labels, index)
}

/// The mean of `input` over each region (SciPy's `mean`), float64: NaN
/// for a label that is not there. Regions as [`sum_labels`]'s.
///
/// ```no_run
/// use gpu_ndimage::{Index, mean};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([1.0, 2.0, 4.0, 8.0])?;
/// let l = gpu_array::creation::array([1, 1, 0, 2])?;
/// let m = mean(&x, Some(&l), Index::Many(&[1, 2, 3]))?; // [1.5, 8.0, nan]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`sum_labels`].
pub fn mean(input: &Array, labels: Option<&Array>, index: Index<'_>) -> Result<Array> {
    let (g, s) = stats(input, labels, index)?;
    g.shaped(s.mean)
}

/// The variance of `input` over each region (SciPy's `variance`): the
/// mean of the squared deviations from the region's mean, as SciPy
/// computes it (mean first, then the deviations), float64; NaN for a
/// label that is not there. Regions as [`sum_labels`]'s.
///
/// ```no_run
/// use gpu_ndimage::{Index, variance};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([1.0, 3.0, 5.0])?;
/// let v = variance(&x, None, Index::All)?; // 8/3
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`sum_labels`].
pub fn variance(input: &Array, labels: Option<&Array>, index: Index<'_>) -> Result<Array> {
    let (g, s) = stats(input, labels, index)?;
    g.shaped(s.var)
}

/// The standard deviation of `input` over each region (SciPy's
/// `standard_deviation`): the square root of [`variance`].
///
/// ```no_run
/// use gpu_ndimage::{Index, standard_deviation};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 3.0], [2.0, 6.0]])?;
/// let l = gpu_array::creation::array([[1, 1], [2, 2]])?;
/// let sd = standard_deviation(&x, Some(&l), Index::Many(&[1, 2]))?; // [1.0, 2.0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`sum_labels`].
pub fn standard_deviation(
    input: &Array,
    labels: Option<&Array>,
    index: Index<'_>,
) -> Result<Array> {
    let (g, s) = stats(input, labels, index)?;
    g.shaped(s.sd)
}

/// The minimum of `input` over each region (SciPy's `minimum`), in the
/// input's dtype: 0 for a label of [`Index::Many`] that is not there.
/// Regions as [`sum_labels`]'s. NaN propagates, as NumPy's `min` (SciPy's
/// index-array path sorts NaN last instead).
///
/// ```no_run
/// use gpu_ndimage::{Index, minimum};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([5, 2, 7, 1])?;
/// let l = gpu_array::creation::array([1, 1, 2, 2])?;
/// let m = minimum(&x, Some(&l), Index::Many(&[1, 2]))?; // [2, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`sum_labels`]; an empty region when the result is one value
/// (NumPy's "zero-size array to reduction operation minimum which has no
/// identity").
pub fn minimum(input: &Array, labels: Option<&Array>, index: Index<'_>) -> Result<Array> {
    let (g, s) = stats(input, labels, index)?;
    g.check_nonempty(&s.count, "minimum")?;
    g.shaped(s.minv)
}

/// The maximum of `input` over each region (SciPy's `maximum`); as
/// [`minimum`].
///
/// ```no_run
/// use gpu_ndimage::{Index, maximum};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([5, 2, 7, 1])?;
/// let m = maximum(&x, None, Index::All)?; // 7 (0-d)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`minimum`] ("... operation maximum ...").
pub fn maximum(input: &Array, labels: Option<&Array>, index: Index<'_>) -> Result<Array> {
    let (g, s) = stats(input, labels, index)?;
    g.check_nonempty(&s.count, "maximum")?;
    g.shaped(s.maxv)
}

/// Where the minimum of each region is (SciPy's `minimum_position`): its
/// coordinates in the (broadcast) input, one list a region (one list for
/// [`Index::All`], [`Index::One`] or no labels); the first in C order
/// among equal values; all 0 for a label that is not there.
///
/// ```no_run
/// use gpu_ndimage::{Index, minimum_position};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[5, 2], [7, 1]])?;
/// let p = minimum_position(&x, None, Index::All)?; // [[1, 1]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`minimum`].
pub fn minimum_position(
    input: &Array,
    labels: Option<&Array>,
    index: Index<'_>,
) -> Result<Vec<Vec<usize>>> {
    let (g, s) = stats(input, labels, index)?;
    g.check_nonempty(&s.count, "minimum")?;
    g.positions(&s.minpos)
}

/// Where the maximum of each region is (SciPy's `maximum_position`); as
/// [`minimum_position`].
///
/// ```no_run
/// use gpu_ndimage::{Index, maximum_position};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[5, 2], [7, 1]])?;
/// let l = gpu_array::creation::array([[1, 1], [2, 2]])?;
/// let p = maximum_position(&x, Some(&l), Index::Many(&[1, 2]))?; // [[0, 0], [1, 0]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`maximum`].
pub fn maximum_position(
    input: &Array,
    labels: Option<&Array>,
    index: Index<'_>,
) -> Result<Vec<Vec<usize>>> {
    let (g, s) = stats(input, labels, index)?;
    g.check_nonempty(&s.count, "maximum")?;
    g.positions(&s.maxpos)
}

/// [`extrema`]'s result: SciPy's `(min, max, min_position, max_position)`.
#[derive(Debug)]
#[non_exhaustive]
pub struct Extrema {
    /// As [`minimum`]'s result.
    pub minimum: Array,
    /// As [`maximum`]'s result.
    pub maximum: Array,
    /// As [`minimum_position`]'s result.
    pub minimum_position: Vec<Vec<usize>>,
    /// As [`maximum_position`]'s result.
    pub maximum_position: Vec<Vec<usize>>,
}

/// The minimum, maximum and their positions over each region at once
/// (SciPy's `extrema`), one pass over the data.
///
/// ```no_run
/// use gpu_ndimage::{Index, extrema};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([3.0, 9.0, 1.0])?;
/// let e = extrema(&x, None, Index::All)?; // 1.0, 9.0, [[2]], [[1]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`minimum`].
pub fn extrema(input: &Array, labels: Option<&Array>, index: Index<'_>) -> Result<Extrema> {
    let (g, s) = stats(input, labels, index)?;
    g.check_nonempty(&s.count, "minimum")?;
    Ok(Extrema {
        minimum_position: g.positions(&s.minpos)?,
        maximum_position: g.positions(&s.maxpos)?,
        minimum: g.shaped(s.minv)?,
        maximum: g.shaped(s.maxv)?,
    })
}

/// The median of `input` over each region (SciPy's `median`): the middle
/// value, or the mean of the two middle ones; float64 for bool and
/// integer input, the input's dtype for floats. An empty region gives NaN
/// for one value; for a label of [`Index::Many`] that is not there SciPy
/// returns the smallest value of the lowest label present (an artefact of
/// its sort), and so does this.
/// NaN sorts last (SciPy's index-array path; NumPy's `median` of one
/// region would give NaN).
///
/// ```no_run
/// use gpu_ndimage::{Index, median};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([4, 1, 3, 2, 9])?;
/// let l = gpu_array::creation::array([1, 1, 1, 1, 2])?;
/// let m = median(&x, Some(&l), Index::Many(&[1, 2]))?; // [2.5, 9.0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`sum_labels`].
pub fn median(input: &Array, labels: Option<&Array>, index: Index<'_>) -> Result<Array> {
    let g = group(input, labels, index, true)?;
    let m = g.segments().median(!g.single)?;
    g.shaped(m)
}

/// The centre of mass of `input` over each region (SciPy's
/// `center_of_mass`): per region, the coordinates weighted by the values,
/// `sum(x * coord) / sum(x)` on each axis (NaN where the sum is 0). One
/// list a region (one for [`Index::All`], [`Index::One`] or no labels).
///
/// ```no_run
/// use gpu_ndimage::{Index, center_of_mass};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[0.0, 1.0], [0.0, 3.0]])?;
/// let c = center_of_mass(&x, None, Index::All)?; // [[0.75, 1.0]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`sum_labels`]; more than 16 dimensions.
pub fn center_of_mass(
    input: &Array,
    labels: Option<&Array>,
    index: Index<'_>,
) -> Result<Vec<Vec<f64>>> {
    let g = group(input, labels, index, false)?;
    let ndim = g.shape.len();
    let m = g.segments().moments(&g.shape)?.to_vec::<f64>()?;
    Ok(m.chunks(ndim + 1)
        .map(|c| c[1..].iter().map(|w| w / c[0]).collect())
        .collect())
}

/// NumPy's `linspace(min, max, bins + 1)`: `i * step + min`, the last
/// edge exactly `max`.
pub(crate) fn edges(min: f64, max: f64, bins: usize) -> Vec<f64> {
    if bins == 0 {
        return vec![min];
    }
    let step = (max - min) / bins as f64;
    let mut e: Vec<f64> = (0..=bins)
        .map(|i| {
            if step == 0.0 {
                i as f64 / bins as f64 * (max - min) + min
            } else {
                i as f64 * step + min
            }
        })
        .collect();
    e[bins] = max;
    e
}

/// The histogram of `input` over each region (SciPy's `histogram`):
/// `bins` equal bins from `min` to `max` (the last one closed), values
/// outside not counted; int64 counts, `(bins,)` for one region, `(k,
/// bins)` for the `k` labels of [`Index::Many`] (a row of zeros for a
/// label that is not there, where SciPy gives `None`).
///
/// ```no_run
/// use gpu_ndimage::{Index, histogram};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])?;
/// let l = gpu_array::creation::array([1, 1, 1, 2, 2, 0])?;
/// let h = histogram(&x, 0.0, 5.0, 4, Some(&l), Index::Many(&[1, 2]))?; // [[2,1,0,0],[0,0,1,1]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// An index without labels ("index without defined labels"); `max` below
/// `min` or either NaN (NumPy's "`bins` must increase monotonically, when
/// an array"); as [`sum_labels`].
pub fn histogram(
    input: &Array,
    min: f64,
    max: f64,
    bins: usize,
    labels: Option<&Array>,
    index: Index<'_>,
) -> Result<Array> {
    if labels.is_none() && !matches!(index, Index::All) {
        return Err(Error::Value("index without defined labels".into()));
    }
    if min.partial_cmp(&max).is_none_or(|o| o.is_gt()) {
        return Err(Error::Value(
            "`bins` must increase monotonically, when an array".into(),
        ));
    }
    let g = group(input, labels, index, false)?;
    let h = g.segments().histogram(&edges(min, max, bins))?;
    if g.single {
        h.reshape([bins as isize])
    } else {
        Ok(h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_edges_are_numpys_linspace() {
        // np.linspace(0, 1, 4)
        assert_eq!(edges(0.0, 1.0, 3), [0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0]);
        // np.linspace(-1.5, 2.0, 8): i * step + start, the last exact.
        let e = edges(-1.5, 2.0, 7);
        assert_eq!(e[3], 3.0 * 0.5 - 1.5);
        assert_eq!(e[7], 2.0);
        assert_eq!(edges(2.0, 2.0, 3), [2.0; 4]);
        assert_eq!(edges(0.0, 5.0, 0), [0.0]);
        // np.linspace(0.1, 0.7, 4)[1] == 0.30000000000000004
        assert_eq!(edges(0.1, 0.7, 3)[1], 0.1 + (0.7 - 0.1) / 3.0);
    }
}
