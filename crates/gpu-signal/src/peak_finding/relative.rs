//! Relative extrema (SciPy's `argrelmin`, `argrelmax`, `argrelextrema`):
//! the elements that compare so with every neighbour up to `order` places
//! along an axis, the ends clipped or wrapped. On the host with the other
//! peak searches: the data copied once, the indices uploaded.

use std::cmp::Ordering;
use std::str::FromStr;

use gpu_array::{Array, DType, Error, Result};

/// How an element compares with its neighbours to be kept (SciPy's
/// `comparator`, NumPy's comparison ufuncs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparator {
    /// `np.greater` (relative maxima).
    Greater,
    /// `np.greater_equal`.
    GreaterEqual,
    /// `np.less` (relative minima).
    Less,
    /// `np.less_equal`.
    LessEqual,
}

impl Comparator {
    /// `a op b`, false where either is NaN (NumPy's comparisons).
    fn holds(self, o: Option<Ordering>) -> bool {
        match (self, o) {
            (_, None) => false,
            (Comparator::Greater, Some(o)) => o == Ordering::Greater,
            (Comparator::GreaterEqual, Some(o)) => o != Ordering::Less,
            (Comparator::Less, Some(o)) => o == Ordering::Less,
            (Comparator::LessEqual, Some(o)) => o != Ordering::Greater,
        }
    }
}

/// What happens past the ends of the axis (SciPy's `mode=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExtremaMode {
    /// The end element stands for every position past it (an end is
    /// then never a strict extremum).
    #[default]
    Clip,
    /// The axis wraps around.
    Wrap,
}

impl FromStr for ExtremaMode {
    type Err = Error;

    /// ```
    /// assert_eq!("wrap".parse::<gpu_signal::ExtremaMode>()?, gpu_signal::ExtremaMode::Wrap);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "clip" => Ok(ExtremaMode::Clip),
            "wrap" => Ok(ExtremaMode::Wrap),
            _ => Err(Error::Value(format!(
                "mode must be 'clip' or 'wrap', not '{s}'"
            ))),
        }
    }
}

/// SciPy's keywords of the relative extrema: `axis` (0), `order` (1) and
/// `mode` (clip).
///
/// ```
/// let o = gpu_signal::RelExtremaOptions::default().axis(-1).order(3);
/// assert_eq!((o.axis, o.order, o.mode), (-1, 3, gpu_signal::ExtremaMode::Clip));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RelExtremaOptions {
    /// The axis compared along (negative from the end).
    pub axis: isize,
    /// How many neighbours on each side.
    pub order: usize,
    /// Past the ends.
    pub mode: ExtremaMode,
}

impl Default for RelExtremaOptions {
    fn default() -> Self {
        RelExtremaOptions {
            axis: 0,
            order: 1,
            mode: ExtremaMode::Clip,
        }
    }
}

impl RelExtremaOptions {
    /// Sets `axis`.
    #[must_use]
    pub fn axis(mut self, axis: isize) -> Self {
        self.axis = axis;
        self
    }

    /// Sets `order`.
    #[must_use]
    pub fn order(mut self, order: usize) -> Self {
        self.order = order;
        self
    }

    /// Sets `mode`.
    ///
    /// ```
    /// use gpu_signal::{ExtremaMode, RelExtremaOptions};
    /// assert_eq!(RelExtremaOptions::default().mode(ExtremaMode::Wrap).mode, ExtremaMode::Wrap);
    /// ```
    #[must_use]
    pub fn mode(mut self, mode: ExtremaMode) -> Self {
        self.mode = mode;
        self
    }
}

/// SciPy's `_boolrelextrema` over C-ordered `data` of `shape`: which
/// elements pass `cmp` against every neighbour up to `order` along `axis`
/// (already normalized).
pub(crate) fn bool_rel_extrema<T: PartialOrd + Copy>(
    data: &[T],
    shape: &[usize],
    axis: usize,
    cmp: Comparator,
    order: usize,
    mode: ExtremaMode,
) -> Result<Vec<bool>> {
    if order < 1 {
        return Err(Error::Value("Order must be an int >= 1".into()));
    }
    let n = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let mut keep = vec![true; data.len()];
    if n == 0 {
        return Ok(keep);
    }
    for shift in 1..=order {
        let at = |i: usize, d: isize| -> usize {
            let j = i as isize + d;
            match mode {
                ExtremaMode::Clip => j.clamp(0, n as isize - 1) as usize,
                ExtremaMode::Wrap => j.rem_euclid(n as isize) as usize,
            }
        };
        for (flat, k) in keep.iter_mut().enumerate() {
            if !*k {
                continue;
            }
            let i = (flat / inner) % n;
            let base = flat - i * inner;
            let x = data[flat];
            for d in [shift as isize, -(shift as isize)] {
                let y = data[base + at(i, d) * inner];
                if !cmp.holds(x.partial_cmp(&y)) {
                    *k = false;
                    break;
                }
            }
        }
        if !keep.iter().any(|&k| k) {
            break;
        }
    }
    Ok(keep)
}

/// NumPy's `nonzero`: one index vector an axis, in C order.
pub(crate) fn nonzero(mask: &[bool], shape: &[usize]) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new(); shape.len()];
    for (flat, &m) in mask.iter().enumerate() {
        if !m {
            continue;
        }
        let mut rest = flat;
        for d in (0..shape.len()).rev() {
            out[d].push((rest % shape[d]) as i64);
            rest /= shape[d];
        }
    }
    out
}

/// SciPy's `argrelextrema(data, comparator, axis, order, mode)`: the
/// indices (one int64 array an axis, as `numpy.nonzero`) of the elements
/// for which `comparator` holds against each of their `order` neighbours
/// on both sides along `axis`. Computed on the host (see the module
/// docs), comparing in the data's own type (floats as float64, integers
/// exactly).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::{Comparator, RelExtremaOptions};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[2.0f64, 1.0, 2.0, 3.0, 2.0, 0.0, 1.0, 0.0], &[8])?;
/// let i = gpu_signal::argrelextrema(&x, Comparator::Greater, &RelExtremaOptions::default())?; // [[3, 6]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// An `axis` outside the array, `order` zero ("Order must be an int >=
/// 1"), a 0-d array (`Value`); complex data (`Unsupported`).
pub fn argrelextrema(
    data: &Array,
    comparator: Comparator,
    opts: &RelExtremaOptions,
) -> Result<Vec<Array>> {
    let shape = data.shape().to_vec();
    if shape.is_empty() {
        return Err(Error::Value("argrelextrema of a 0-d array".into()));
    }
    let nd = shape.len() as isize;
    let axis = if opts.axis < 0 {
        opts.axis + nd
    } else {
        opts.axis
    };
    if !(0..nd).contains(&axis) {
        return Err(Error::Value(format!(
            "axis {} is out of bounds for array of dimension {nd}",
            opts.axis
        )));
    }
    let axis = axis as usize;
    let dt = data.dtype();
    let mask = if dt.is_complex() {
        return Err(Error::Unsupported("argrelextrema of complex data".into()));
    } else if dt.is_integer() && matches!(dt, DType::UInt64) {
        bool_rel_extrema(
            &data.to_vec::<u64>()?,
            &shape,
            axis,
            comparator,
            opts.order,
            opts.mode,
        )?
    } else if dt.is_integer() || dt == DType::Bool {
        let v = data.to_vec_as::<i64>()?;
        bool_rel_extrema(&v, &shape, axis, comparator, opts.order, opts.mode)?
    } else {
        let v = data.to_vec_as::<f64>()?;
        bool_rel_extrema(&v, &shape, axis, comparator, opts.order, opts.mode)?
    };
    nonzero(&mask, &shape)
        .into_iter()
        .map(|v| Array::from_slice(&v, &[v.len()]))
        .collect()
}

/// SciPy's `argrelmax(data)`: [`argrelextrema`] with
/// [`Comparator::Greater`] (strict relative maxima along axis 0, one
/// neighbour each side, the ends clipped).
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[2.0f64, 1.0, 2.0, 3.0, 2.0, 0.0, 1.0, 0.0], &[8])?;
/// let i = gpu_signal::argrelmax(&x)?; // [[3, 6]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`argrelextrema`].
pub fn argrelmax(data: &Array) -> Result<Vec<Array>> {
    argrelextrema(data, Comparator::Greater, &RelExtremaOptions::default())
}

/// [`argrelmax`] with SciPy's `axis=`, `order=` and `mode=`.
///
/// # Errors
/// As [`argrelextrema`].
pub fn argrelmax_with(data: &Array, opts: &RelExtremaOptions) -> Result<Vec<Array>> {
    argrelextrema(data, Comparator::Greater, opts)
}

/// SciPy's `argrelmin(data)`: [`argrelextrema`] with [`Comparator::Less`].
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[2.0f64, 1.0, 2.0, 3.0, 2.0, 0.0, 1.0, 0.0], &[8])?;
/// let i = gpu_signal::argrelmin(&x)?; // [[1, 5]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`argrelextrema`].
pub fn argrelmin(data: &Array) -> Result<Vec<Array>> {
    argrelextrema(data, Comparator::Less, &RelExtremaOptions::default())
}

/// [`argrelmin`] with SciPy's `axis=`, `order=` and `mode=`.
///
/// # Errors
/// As [`argrelextrema`].
pub fn argrelmin_with(data: &Array, opts: &RelExtremaOptions) -> Result<Vec<Array>> {
    argrelextrema(data, Comparator::Less, opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idx(
        data: &[f64],
        shape: &[usize],
        axis: usize,
        cmp: Comparator,
        order: usize,
        mode: ExtremaMode,
    ) -> Vec<Vec<i64>> {
        nonzero(
            &bool_rel_extrema(data, shape, axis, cmp, order, mode).unwrap(),
            shape,
        )
    }

    #[test]
    fn relative_extrema_are_scipys() {
        let x = [2.0, 1.0, 2.0, 3.0, 2.0, 0.0, 1.0, 0.0];
        // scipy.signal.argrelmax(x), argrelmin(x)
        assert_eq!(
            idx(&x, &[8], 0, Comparator::Greater, 1, ExtremaMode::Clip),
            [vec![3, 6]]
        );
        assert_eq!(
            idx(&x, &[8], 0, Comparator::Less, 1, ExtremaMode::Clip),
            [vec![1, 5]]
        );
        // mode='wrap': the ends see each other (0 > 7's 0.0, 1's 1.0).
        assert_eq!(
            idx(&x, &[8], 0, Comparator::Greater, 1, ExtremaMode::Wrap),
            [vec![0, 3, 6]]
        );
        // order=2: 6 is not above 4's 2.0.
        assert_eq!(
            idx(&x, &[8], 0, Comparator::Greater, 2, ExtremaMode::Clip),
            [vec![3]]
        );
        // greater_equal keeps plateaus and the clipped ends.
        let y = [1.0, 1.0, 0.0, 2.0, 2.0];
        assert_eq!(
            idx(&y, &[5], 0, Comparator::GreaterEqual, 1, ExtremaMode::Clip),
            [vec![0, 1, 3, 4]]
        );
        // 2-D along each axis (scipy.signal.argrelmax(a, axis=...)).
        let a = [1.0, 5.0, 2.0, 4.0, 1.0, 3.0, 0.0, 6.0, 1.0];
        assert_eq!(
            idx(&a, &[3, 3], 1, Comparator::Greater, 1, ExtremaMode::Clip),
            [vec![0, 2], vec![1, 1]]
        );
        assert_eq!(
            idx(&a, &[3, 3], 0, Comparator::Greater, 1, ExtremaMode::Clip),
            [vec![1, 1], vec![0, 2]]
        );
        // NaN compares false.
        let z = [0.0, f64::NAN, 0.0, 1.0, 0.0];
        assert_eq!(
            idx(&z, &[5], 0, Comparator::Greater, 1, ExtremaMode::Clip),
            [vec![3]]
        );
        assert!(bool_rel_extrema(&x, &[8], 0, Comparator::Greater, 0, ExtremaMode::Clip).is_err());
        // Integers compare exactly past 2^53.
        let big = [1i64 << 60, (1 << 60) + 1, 1 << 60];
        let m = bool_rel_extrema(&big, &[3], 0, Comparator::Greater, 1, ExtremaMode::Clip).unwrap();
        assert_eq!(m, [false, true, false]);
    }
}
