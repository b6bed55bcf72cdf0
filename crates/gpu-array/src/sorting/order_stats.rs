//! Order statistics: `quantile`, `percentile`, `median` and their
//! NaN-skipping forms. The reduced axes are moved last and merged into one
//! (a tuple `axis` reduces them together, as NumPy's), that axis is sorted
//! (NaN last, so a row's valid values are its first `count`), then one
//! kernel over (quantile, row) picks and interpolates by NumPy's method.
//! One `q` over a whole array of at least 4096 real values skips the sort:
//! radix selection (`select.rs`) finds the two values the pick needs.
//! `q` may have any shape: the result's shape is `q`'s followed by the
//! reduced shape.
//!
//! | NumPy / CuPy                                  | Cuprum                                                      |
//! |-----------------------------------------------|-------------------------------------------------------------|
//! | `np.median(a, axis=0)`                        | [`median`]`(&a, Some(&[0]), false)?`                        |
//! | `np.median(a, axis=(0, 2), keepdims=True)`    | [`median`]`(&a, Some(&[0, 2]), true)?`                      |
//! | `np.quantile(a, [.1, .9], axis=1)`            | [`quantile`]`(&a, &Quantiles::Many(vec![0.1, 0.9]), &QuantileOptions::axis(1))?` |
//! | `np.quantile(a, [[.1, .2], [.3, .4]], axis=(0, 1))` | [`quantile`]`(&a, &Quantiles::Shaped { values: vec![0.1, 0.2, 0.3, 0.4], shape: vec![2, 2] }, &QuantileOptions::axes(&[0, 1]))?` |
//! | `np.percentile(a, 50, method='lower')`        | [`percentile`]`(&a, &Quantiles::One(50.0), &QuantileOptions::default().method(QuantileMethod::Lower))?` |
//! | `np.nanmedian(a)`, `np.nanquantile(a, .5)`    | [`nanmedian`], [`nanquantile`], [`nanpercentile`]           |

use crate::array::Array;
use crate::dtype::DType;
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::layout::normalize_axes;
use crate::reduction::ReduceOptions;
use crate::sorting::count_nonzero;

/// NumPy's `method=` of `quantile` and `percentile`: the classic five
/// and the nine of Hyndman and Fan ("Sample quantiles in statistical
/// packages", 1996), as NumPy 2 computes them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QuantileMethod {
    /// Linear interpolation between the two nearest values (the default;
    /// H&F 7).
    #[default]
    Linear,
    /// The lower of the two.
    Lower,
    /// The higher of the two.
    Higher,
    /// The nearer of the two (halfway: the even index, as NumPy).
    Nearest,
    /// Their midpoint.
    Midpoint,
    /// H&F 1: the smallest value whose empirical CDF reaches `q`.
    InvertedCdf,
    /// H&F 2: as `InvertedCdf`, averaging at the CDF's steps.
    AveragedInvertedCdf,
    /// H&F 3: the nearest order statistic, the even one at a tie.
    ClosestObservation,
    /// H&F 4: linear interpolation of the empirical CDF.
    InterpolatedInvertedCdf,
    /// H&F 5: piecewise linear, nodes at the midpoints of the steps.
    Hazen,
    /// H&F 6: nodes at `k / (n + 1)`.
    Weibull,
    /// H&F 8: approximately median-unbiased.
    MedianUnbiased,
    /// H&F 9: approximately unbiased for normal samples.
    NormalUnbiased,
}

impl QuantileMethod {
    /// NumPy's name of the method.
    ///
    /// ```
    /// use gpu_array::sorting::QuantileMethod;
    /// assert_eq!(QuantileMethod::MedianUnbiased.name(), "median_unbiased");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            QuantileMethod::Linear => "linear",
            QuantileMethod::Lower => "lower",
            QuantileMethod::Higher => "higher",
            QuantileMethod::Nearest => "nearest",
            QuantileMethod::Midpoint => "midpoint",
            QuantileMethod::InvertedCdf => "inverted_cdf",
            QuantileMethod::AveragedInvertedCdf => "averaged_inverted_cdf",
            QuantileMethod::ClosestObservation => "closest_observation",
            QuantileMethod::InterpolatedInvertedCdf => "interpolated_inverted_cdf",
            QuantileMethod::Hazen => "hazen",
            QuantileMethod::Weibull => "weibull",
            QuantileMethod::MedianUnbiased => "median_unbiased",
            QuantileMethod::NormalUnbiased => "normal_unbiased",
        }
    }

    /// The method named as NumPy names it (also `name.parse()`).
    ///
    /// ```
    /// use gpu_array::sorting::QuantileMethod;
    /// assert_eq!(QuantileMethod::parse("hazen")?, QuantileMethod::Hazen);
    /// assert!(QuantileMethod::parse("cubic").is_err());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Value`] for an unknown name, with NumPy's message.
    pub fn parse(name: &str) -> Result<QuantileMethod> {
        name.parse()
    }

    /// The kernel's method code (5 is the median's mean of the middle two).
    const fn code(self) -> i32 {
        match self {
            QuantileMethod::Linear => 0,
            QuantileMethod::Lower => 1,
            QuantileMethod::Higher => 2,
            QuantileMethod::Nearest => 3,
            QuantileMethod::Midpoint => 4,
            QuantileMethod::InvertedCdf => 6,
            QuantileMethod::AveragedInvertedCdf => 7,
            QuantileMethod::ClosestObservation => 8,
            QuantileMethod::InterpolatedInvertedCdf => 9,
            QuantileMethod::Hazen => 10,
            QuantileMethod::Weibull => 11,
            QuantileMethod::MedianUnbiased => 12,
            QuantileMethod::NormalUnbiased => 13,
        }
    }
}

crate::from_numpy_str! {
    QuantileMethod, Error,
    else: |s| Error::Value(format!(
        "'{s}' is not a valid method. Use one of: dict_keys(['inverted_cdf', \
         'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf', \
         'hazen', 'weibull', 'linear', 'median_unbiased', 'normal_unbiased', 'lower', \
         'higher', 'midpoint', 'nearest'])"
    )),
    {
        "linear" => QuantileMethod::Linear,
        "lower" => QuantileMethod::Lower,
        "higher" => QuantileMethod::Higher,
        "nearest" => QuantileMethod::Nearest,
        "midpoint" => QuantileMethod::Midpoint,
        "inverted_cdf" => QuantileMethod::InvertedCdf,
        "averaged_inverted_cdf" => QuantileMethod::AveragedInvertedCdf,
        "closest_observation" => QuantileMethod::ClosestObservation,
        "interpolated_inverted_cdf" => QuantileMethod::InterpolatedInvertedCdf,
        "hazen" => QuantileMethod::Hazen,
        "weibull" => QuantileMethod::Weibull,
        "median_unbiased" => QuantileMethod::MedianUnbiased,
        "normal_unbiased" => QuantileMethod::NormalUnbiased,
    }
}

/// Whether the method of kernel code `method` picks one of the values
/// (the result keeps the input's dtype) rather than interpolating.
const fn picks_a_value(method: i32) -> bool {
    matches!(method, 1..=3 | 6 | 8)
}

/// The `q` of `quantile` (in [0, 1]) or `percentile` (in [0, 100]): one
/// value (the result has the reduced shape), a 1-D list (the result gains
/// a leading axis of that length) or an array of any shape (the result's
/// shape is `shape` followed by the reduced shape), as NumPy's.
#[derive(Clone, Debug, PartialEq)]
pub enum Quantiles {
    /// A scalar `q` (a Python float: the result keeps a float input's
    /// dtype).
    One(f64),
    /// A 1-D `q`.
    Many(Vec<f64>),
    /// A `q` of any shape, C order (`shape` `[]` is a 0-d array: one value,
    /// but a float64 result, as NumPy's array `q`).
    Shaped {
        /// The values in C order.
        values: Vec<f64>,
        /// Their shape.
        shape: Vec<usize>,
    },
}

impl Quantiles {
    /// The values of the array `q` read back to the host (one wait for the
    /// device; the range check needs them): [`Quantiles::Shaped`].
    ///
    /// ```no_run
    /// use gpu_array::{Array, sorting::Quantiles};
    /// # fn main() -> gpu_array::Result<()> {
    /// let q = Array::from_slice(&[0.25f64, 0.75], &[2])?;
    /// let qs = Quantiles::from_array(&q)?; // read back once, for the range check
    /// assert!(matches!(qs, Quantiles::Shaped { .. }));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A complex `q`; the copy failed.
    pub fn from_array(q: &Array) -> Result<Quantiles> {
        if q.dtype().is_complex() {
            return Err(Error::DType(
                "q must be real (complex q to quantile)".into(),
            ));
        }
        let values = q.astype(DType::Float64)?.to_vec::<f64>()?;
        Ok(Quantiles::Shaped {
            values,
            shape: q.shape().to_vec(),
        })
    }

    fn values(&self) -> &[f64] {
        match self {
            Quantiles::One(v) => std::slice::from_ref(v),
            Quantiles::Many(v) => v,
            Quantiles::Shaped { values, .. } => values,
        }
    }

    /// The shape the quantiles prepend to the result.
    fn shape(&self) -> Vec<usize> {
        match self {
            Quantiles::One(_) => Vec::new(),
            Quantiles::Many(v) => vec![v.len()],
            Quantiles::Shaped { shape, .. } => shape.clone(),
        }
    }

    /// Every value divided by `by` (NumPy's `true_divide(q, 100)`).
    fn divided(&self, by: f64) -> Quantiles {
        match self {
            Quantiles::One(v) => Quantiles::One(v / by),
            Quantiles::Many(v) => Quantiles::Many(v.iter().map(|x| x / by).collect()),
            Quantiles::Shaped { values, shape } => Quantiles::Shaped {
                values: values.iter().map(|x| x / by).collect(),
                shape: shape.clone(),
            },
        }
    }
}

/// `axis` (`None` for the flattened array; one axis or several, reduced
/// together), `keepdims`, `method` and `weights` of the order statistics.
/// Two options are equal when their `weights` are the same view of the
/// same buffer.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct QuantileOptions {
    /// The axes, `None` for every axis (the flattened array). Several
    /// axes (NumPy's tuple `axis`) are reduced as one; an empty list
    /// reduces none (each element is its own row).
    pub axis: Option<Vec<isize>>,
    /// Keep the reduced axes as length 1.
    pub keepdims: bool,
    /// How to pick between the two nearest values.
    pub method: QuantileMethod,
    /// NumPy 2's `weights` of `quantile`, `percentile` and their `nan`
    /// forms (which drop each NaN with its weight): one
    /// non-negative weight per element of `a` (`a`'s shape), or, with
    /// `axis`, of the reduced axes' shape (in `axis`'s order). Only with
    /// [`QuantileMethod::InvertedCdf`]: each row's result is its smallest
    /// value whose share of the row's total weight, with the weights of
    /// the values below it, reaches `q`.
    pub weights: Option<Array>,
}

impl PartialEq for QuantileOptions {
    fn eq(&self, other: &QuantileOptions) -> bool {
        let same = |a: &Array, b: &Array| {
            a.shares_memory_with(b) && a.layout() == b.layout() && a.dtype() == b.dtype()
        };
        self.axis == other.axis
            && self.keepdims == other.keepdims
            && self.method == other.method
            && match (&self.weights, &other.weights) {
                (None, None) => true,
                (Some(a), Some(b)) => same(a, b),
                _ => false,
            }
    }
}

impl Eq for QuantileOptions {}

impl QuantileOptions {
    /// Reduce over one axis.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, sorting::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let a = array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])?;
    /// let q = quantile(&a, &Quantiles::One(0.5), &QuantileOptions::axis(1))?; // np.quantile(a, 0.5, axis=1): [2, 5]
    /// # Ok(()) }
    /// ```
    pub fn axis(axis: isize) -> QuantileOptions {
        QuantileOptions {
            axis: Some(vec![axis]),
            ..Default::default()
        }
    }

    /// Reduce over several axes together (`axis=(0, 2)`).
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, sorting::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let a = array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])?;
    /// let q = quantile(&a, &Quantiles::One(0.5), &QuantileOptions::axes(&[0, 1]))?; // axis=(0, 1): 3.5
    /// # Ok(()) }
    /// ```
    pub fn axes(axes: &[isize]) -> QuantileOptions {
        QuantileOptions {
            axis: Some(axes.to_vec()),
            ..Default::default()
        }
    }

    /// Sets `axis` (`None`: every axis).
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, sorting::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let a = array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])?;
    /// let q = quantile(&a, &Quantiles::One(0.5), &QuantileOptions::default().with_axis(Some(vec![0])))?; // axis=0
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn with_axis(mut self, axis: Option<Vec<isize>>) -> QuantileOptions {
        self.axis = axis;
        self
    }

    /// Sets `keepdims`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, sorting::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let a = array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])?;
    /// let q = quantile(&a, &Quantiles::One(0.5), &QuantileOptions::axis(1).keepdims(true))?; // keepdims=True: (2, 1)
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn keepdims(mut self, keepdims: bool) -> QuantileOptions {
        self.keepdims = keepdims;
        self
    }

    /// Sets `method`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, sorting::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let a = array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])?;
    /// let opts = QuantileOptions::axis(1).method(QuantileMethod::parse("nearest")?);
    /// let q = quantile(&a, &Quantiles::One(0.5), &opts)?; // np.quantile(a, 0.5, axis=1, method='nearest')
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn method(mut self, method: QuantileMethod) -> QuantileOptions {
        self.method = method;
        self
    }

    /// Sets `weights` (a handle to the array, not a copy of it).
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, sorting::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let a = array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])?;
    /// let w = array([[1.0, 1.0, 2.0], [1.0, 1.0, 2.0]])?;
    /// let opts = QuantileOptions::axis(1).method(QuantileMethod::parse("inverted_cdf")?).weights(&w);
    /// let q = quantile(&a, &Quantiles::One(0.5), &opts)?; // weights=w, method='inverted_cdf'
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn weights<'w>(mut self, weights: impl Into<Option<&'w Array>>) -> QuantileOptions {
        self.weights = weights.into().cloned();
        self
    }
}

/// `numpy.quantile`: real inputs only; a row holding NaN gives NaN. The
/// result dtype is NumPy's: the input's for lower/higher/nearest; for
/// linear/midpoint float64 for integer input or an array `q`, else the
/// input's float dtype.
///
/// With `opts.weights`, NumPy's weighted `inverted_cdf`
/// ([`QuantileOptions::weights`]): the rows sorted with their weights,
/// the cumulative weights (float64) divided by the row's total, and the
/// first value whose share reaches `q` (NumPy's arithmetic, so the same
/// pick at a boundary); a row holding NaN gives NaN. It compares every
/// `q` with every element (`len(q)` times the input's size in booleans)
/// and waits for the device twice, for its checks of the weights.
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let q = quantile(&array([1.0, 2.0, 3.0, 4.0])?, &Quantiles::Many(vec![0.25, 0.75]), &QuantileOptions::default())?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// "Quantiles must be in the range [0, 1]"; complex input; an axis out of
/// range or repeated; a [`Quantiles::Shaped`] whose values do not fill its
/// shape. With weights, NumPy's errors: "Only method 'inverted_cdf'
/// supports weights. Got: linear."; "Axis must be specified when shapes
/// of a and weights differ." ([`Error::DType`], NumPy's `TypeError`);
/// "Shape of weights must be consistent with shape of a along specified
/// axis."; "Weights must be non-negative."; "Weights included NaN, inf or
/// were all zero."
pub fn quantile(a: &Array, q: &Quantiles, opts: &QuantileOptions) -> Result<Array> {
    if q.values().iter().any(|v| !(0.0..=1.0).contains(v)) {
        return Err(Error::Value("Quantiles must be in the range [0, 1]".into()));
    }
    if let Some(w) = &opts.weights {
        check_weighted_method(opts.method)?;
        return weighted_inverted_cdf(a, q, opts, w, false);
    }
    order_statistic(a, q, opts, opts.method.code(), false)
}

/// NumPy's refusal of weights with any method but `inverted_cdf`.
fn check_weighted_method(method: QuantileMethod) -> Result<()> {
    if method == QuantileMethod::InvertedCdf {
        return Ok(());
    }
    Err(Error::Value(format!(
        "Only method 'inverted_cdf' supports weights. Got: {}.",
        method.name()
    )))
}

/// NumPy's check that `q`'s values fill its shape.
fn check_q_shape(q: &Quantiles) -> Result<Vec<usize>> {
    let q_shape = q.shape();
    if q_shape.iter().product::<usize>() != q.values().len() {
        return Err(Error::Value(format!(
            "quantile: {} values of q for the shape {q_shape:?}",
            q.values().len()
        )));
    }
    Ok(q_shape)
}

/// `weights` of `a`'s shape: as given, or (NumPy's `_weights_are_valid`)
/// the reduced axes' weights laid along those axes and broadcast.
fn weights_like(a: &Array, w: &Array, axes: Option<&[usize]>) -> Result<Array> {
    if w.shape() == a.shape() {
        return Ok(w.clone());
    }
    let Some(axes) = axes else {
        return Err(Error::DType(
            "Axis must be specified when shapes of a and weights differ.".into(),
        ));
    };
    let along: Vec<usize> = axes.iter().map(|&x| a.shape()[x]).collect();
    if w.shape() != along.as_slice() {
        return Err(Error::Value(
            "Shape of weights must be consistent with shape of a along specified axis.".into(),
        ));
    }
    // w's axis j lies along a's axis axes[j]: put them in a's order.
    let mut order: Vec<isize> = (0..axes.len() as isize).collect();
    order.sort_by_key(|&j| axes[j as usize]);
    let shape: Vec<isize> = (0..a.ndim())
        .map(|i| {
            if axes.contains(&i) {
                a.shape()[i] as isize
            } else {
                1
            }
        })
        .collect();
    w.transpose(Some(&order))?
        .reshape(&shape)?
        .broadcast_to(a.shape())
}

/// Whether any element of the boolean `x` is set (one wait).
fn any_set(x: &Array) -> Result<bool> {
    crate::logic::any(x, ReduceOptions::default())?.item::<bool>(&[])
}

/// NumPy's weighted `inverted_cdf` ([`quantile`]); `skip_nan`:
/// `nanquantile`'s, NaN values dropped with their weights.
fn weighted_inverted_cdf(
    a: &Array,
    q: &Quantiles,
    opts: &QuantileOptions,
    w: &Array,
    skip_nan: bool,
) -> Result<Array> {
    use crate::ufunc;
    let dt = a.dtype();
    if dt.is_complex() {
        return Err(Error::DType(
            "a must be an array of real numbers (complex input to quantile)".into(),
        ));
    }
    a.check_same_device(w, "quantile")?;
    if w.dtype().is_complex() {
        return Err(Error::DType(
            "weights must be real (complex weights to quantile)".into(),
        ));
    }
    let q_shape = check_q_shape(q)?;
    let axes = opts
        .axis
        .as_ref()
        .map(|ax| normalize_axes(ax, a.ndim()))
        .transpose()?;
    let w = weights_like(a, w, axes.as_deref())?;
    if w.size() > 0 && any_set(&w.less(0)?)? {
        return Err(Error::Value("Weights must be non-negative.".into()));
    }
    let skip_nan = skip_nan && dt.is_inexact();
    if skip_nan && a.size() == 0 {
        // NumPy's nanquantile answers an empty `a` before any weighting:
        // as the unweighted form does.
        let plain = QuantileOptions {
            weights: None,
            ..opts.clone()
        };
        return order_statistic(a, q, &plain, QuantileMethod::InvertedCdf.code(), true);
    }
    // The rows: the reduced axes last, merged into one.
    let (src, wsrc) = match &axes {
        None => (a.reshape([-1])?, w.reshape([-1])?),
        Some(axes) => {
            let (s, shape) = reduced_last(a, axes)?;
            let (ws, _) = reduced_last(&w, axes)?;
            (s.reshape(&shape)?, ws.reshape(&shape)?)
        }
    };
    let dims: Vec<isize> = q_shape
        .iter()
        .copied()
        .chain(result_shape(a.shape(), axes.as_deref(), opts.keepdims))
        .map(|d| d as isize)
        .collect();
    let nd = src.ndim();
    let n = src.shape()[nd - 1];
    let rows = src.size().checked_div(n).unwrap_or(0);
    let qs = q.values();
    if n == 0 {
        // NumPy's cdf[-1] of an empty row.
        return Err(Error::IndexOutOfBounds {
            index: -1,
            axis: 0,
            size: 0,
        });
    }
    // nanquantile drops each NaN with its weight: a weight of 0 (NaN sorts
    // last, so it is never reached: the first share reaching q <= 1 is a
    // positive weight's). A row of NaN only keeps weights of 1 instead,
    // which pick one of its NaNs (NumPy's NaN for an all-NaN slice) where
    // zeros would read as weights that were all zero.
    let wsrc = if skip_nan {
        let nan = ufunc::isnan(&src)?;
        let all_nan = crate::logic::all(&nan, ReduceOptions::axis(-1).keepdims(true))?;
        crate::indexing::where_(&nan, &all_nan, &wsrc)?
    } else {
        wsrc
    };
    let perm = super::argsort(&src, Some(-1))?;
    let sorted = crate::indexing::take_along_axis(&src, &perm, Some(-1))?;
    let ws = crate::indexing::take_along_axis(&wsrc, &perm, Some(-1))?;
    let cum = crate::math::cumsum(&ws, Some(-1), Some(DType::Float64))?;
    let total = crate::manipulation::axis_view(&cum, nd - 1, n - 1, 1, 1);
    let cdf = ufunc::true_divide(&cum, &total)?;
    let last = crate::manipulation::axis_view(&cdf, nd - 1, n - 1, 1, 1);
    if rows > 0 && any_set(&ufunc::isnan(&last)?)? {
        return Err(Error::Value(
            "Weights included NaN, inf or were all zero.".into(),
        ));
    }
    // Leading zero weights: a share of 0 must not reach q = 0 (NumPy sets
    // them to -1).
    let cdf = crate::indexing::where_(&cdf.equal(0.0)?, -1.0, &cdf)?;
    let cdf = cdf.reshape([rows as isize, n as isize])?;
    // For each (q, row): the first share >= q is past the shares below q.
    let qarr = Array::from_slice_on(a.device(), qs, &[qs.len(), 1, 1])?;
    let below = cdf.less(&qarr)?;
    let idx = count_nonzero(&below, ReduceOptions::axis(-1))?;
    let idx = ufunc::minimum(&idx, (n - 1) as i64)?;
    let starts: Vec<i64> = (0..rows as i64).map(|r| r * n as i64).collect();
    let starts = Array::from_slice_on(a.device(), &starts, &[1, rows])?;
    let flat = ufunc::add(&idx, &starts)?;
    let sorted = sorted.reshape([(rows * n) as isize])?;
    let mut y = crate::indexing::take(&sorted, &flat, None, crate::indexing::TakeMode::Wrap)?;
    if dt.is_inexact() && !skip_nan {
        // NaN sorts last: a row holding one gives NaN.
        let tail = crate::manipulation::axis_view(
            &sorted.reshape([rows as isize, n as isize])?,
            1,
            n - 1,
            1,
            1,
        )
        .reshape([rows as isize])?;
        y = crate::indexing::where_(&ufunc::isnan(&tail)?, &tail, &y)?;
    }
    y.reshape(&dims)
}

/// `numpy.percentile`: [`quantile`] of `q / 100`.
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let p = percentile(&array([1.0, 2.0, 3.0, 4.0])?, &Quantiles::One(50.0), &QuantileOptions::default())?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// "Percentiles must be in the range [0, 100]"; as [`quantile`].
pub fn percentile(a: &Array, q: &Quantiles, opts: &QuantileOptions) -> Result<Array> {
    percentile_impl(a, q, opts, false)
}

/// `numpy.median` along `axis` (`None`: the flattened array; several
/// axes are reduced together): the middle value, or the mean of the
/// middle two.
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let m = median(&array([[1.0, 3.0], [2.0, 4.0]])?, Some(&[0]), false)?; // [1.5, 3.5]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`quantile`].
pub fn median(a: &Array, axis: Option<&[isize]>, keepdims: bool) -> Result<Array> {
    let opts = QuantileOptions {
        axis: axis.map(<[isize]>::to_vec),
        keepdims,
        method: QuantileMethod::Linear,
        weights: None,
    };
    order_statistic(a, &Quantiles::One(0.5), &opts, 5, false)
}

/// `numpy.nanquantile`: [`quantile`] of the non-NaN values (NaN for a row
/// of NaN only). With `opts.weights` (NumPy 2's, [`QuantileMethod::InvertedCdf`]
/// only), each NaN is dropped with its weight and the rest weighted as
/// [`quantile`] weights them; the weights are checked as there, those of
/// the NaN values included (NumPy checks them before dropping any).
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let q = nanquantile(&array([1.0, f64::NAN, 3.0])?, &Quantiles::One(0.5), &QuantileOptions::default())?; // 2
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`quantile`].
pub fn nanquantile(a: &Array, q: &Quantiles, opts: &QuantileOptions) -> Result<Array> {
    if q.values().iter().any(|v| !(0.0..=1.0).contains(v)) {
        return Err(Error::Value("Quantiles must be in the range [0, 1]".into()));
    }
    if let Some(w) = &opts.weights {
        check_weighted_method(opts.method)?;
        return weighted_inverted_cdf(a, q, opts, w, true);
    }
    order_statistic(a, q, opts, opts.method.code(), true)
}

/// `numpy.nanpercentile`.
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let p = nanpercentile(&array([1.0, f64::NAN, 3.0])?, &Quantiles::One(50.0), &QuantileOptions::default())?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`percentile`].
pub fn nanpercentile(a: &Array, q: &Quantiles, opts: &QuantileOptions) -> Result<Array> {
    percentile_impl(a, q, opts, true)
}

/// `numpy.nanmedian`.
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let m = nanmedian(&array([1.0, f64::NAN, 3.0])?, None, false)?; // 2
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`median`].
pub fn nanmedian(a: &Array, axis: Option<&[isize]>, keepdims: bool) -> Result<Array> {
    let opts = QuantileOptions {
        axis: axis.map(<[isize]>::to_vec),
        keepdims,
        method: QuantileMethod::Linear,
        weights: None,
    };
    order_statistic(a, &Quantiles::One(0.5), &opts, 5, true)
}

fn percentile_impl(a: &Array, q: &Quantiles, opts: &QuantileOptions, skip: bool) -> Result<Array> {
    if q.values().iter().any(|v| !(0.0..=100.0).contains(v)) {
        return Err(Error::Value(
            "Percentiles must be in the range [0, 100]".into(),
        ));
    }
    if let Some(w) = &opts.weights {
        check_weighted_method(opts.method)?;
        return weighted_inverted_cdf(a, &q.divided(100.0), opts, w, skip);
    }
    order_statistic(a, &q.divided(100.0), opts, opts.method.code(), skip)
}

/// The scalars of [`quantile_kernel`]: `rows` sorted rows of `len`;
/// [`QuantileMethod`]'s code (5: `median`); `prop`: a trailing NaN makes
/// the row's result NaN; `round_diff`: the difference of the two
/// neighbours is rounded to the input's dtype.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PickScalars {
    pub(crate) rows: usize,
    pub(crate) len: usize,
    pub(crate) method: i32,
    pub(crate) prop: bool,
    pub(crate) round_diff: bool,
}

/// The pick-and-interpolate kernel over `y`'s (quantile, row) elements
/// (`order_stats.cuh`): the sorted rows `s`, each row's valid count `cnt`
/// (int64), the quantiles `qs` (float64), all raw, into the raw `y`.
pub(crate) fn quantile_kernel<'a>(
    s: Bind<'a>,
    cnt: Bind<'a>,
    qs: Bind<'a>,
    y: Bind<'a>,
    p: PickScalars,
) -> Elementwise<'a> {
    let (input, output) = (s.dtype(), y.dtype());
    Elementwise::new("quantile_pick")
        .raw("s", s)
        .raw("cnt", cnt)
        .raw("qs", qs)
        .scalar("rows", DType::Int64, p.rows)
        .scalar("len", DType::Int64, p.len)
        .scalar("method", DType::Int32, p.method)
        .scalar("prop", DType::Int32, i32::from(p.prop))
        .scalar("round_diff", DType::Int32, i32::from(p.round_diff))
        .raw_output("y", y)
        .alias("O", output)
        .alias("T", input)
        .op(
            "y[i] = cuprum_np::quantile_pick<T, O>(s, cnt, qs, (long long)i, rows, len, method, \
             prop, round_diff);",
        )
        .preamble(include_str!("order_stats.cuh"))
}

/// `quantile_kernel` for `input`-dtype sorted rows and an `output`-dtype
/// result, described by dtypes (one-dimensional raw operands, as the
/// calls pass them): one description for ahead-of-time compilation and
/// the NVRTC compile tests, so the two request the same programs.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::elementwise::{IndexWidth, LayoutClass};
/// use gpu_array::sorting::quantile_kernel_of;
/// let spec = quantile_kernel_of(DType::Float32, DType::Float64).spec(LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
/// assert!(spec.validate().is_ok());
/// # Ok::<(), gpu_array::Error>(())
/// ```
pub fn quantile_kernel_of(input: DType, output: DType) -> Elementwise<'static> {
    let raw1 = |d| Bind::Dtype(d, 1);
    quantile_kernel(
        raw1(input),
        raw1(DType::Int64),
        raw1(DType::Float64),
        raw1(output),
        PickScalars::default(),
    )
}

fn order_statistic(
    a: &Array,
    q: &Quantiles,
    opts: &QuantileOptions,
    method: i32,
    skip_nan: bool,
) -> Result<Array> {
    let dt = a.dtype();
    if dt.is_complex() {
        return Err(Error::DType(
            "a must be an array of real numbers (complex input to quantile)".into(),
        ));
    }
    let q_shape = check_q_shape(q)?;
    // NumPy's result dtypes: the picking methods keep the input's; the
    // interpolating ones give float64 for integers and for an array `q`
    // (float64 promotes), the input's float dtype for a scalar `q` (weak).
    let out_dt = if picks_a_value(method) {
        dt
    } else if !dt.is_floating() || !matches!(q, Quantiles::One(_)) {
        DType::Float64
    } else {
        dt
    };
    // The reduced axes last and merged into one (or the flattened array),
    // then sorted: NaN goes last.
    let (src, reduced_axes) = match &opts.axis {
        None => (a.reshape([-1])?, None),
        Some(axes) => {
            let axes = normalize_axes(axes, a.ndim())?;
            let (src, shape) = reduced_last(a, &axes)?;
            (src.reshape(&shape)?, Some(axes))
        }
    };
    let qs = q.values();
    let device = a.device();
    let prop = !skip_nan && dt.is_inexact();
    // The result's shape: q's, then what the reduction leaves.
    let dims: Vec<isize> = q_shape
        .iter()
        .copied()
        .chain(result_shape(
            a.shape(),
            reduced_axes.as_deref(),
            opts.keepdims,
        ))
        .map(|d| d as isize)
        .collect();
    // One quantile of a whole large array: radix selection of its two
    // neighbours instead of a sort (same picks, same interpolation below).
    let total = src.size();
    if let [qv] = qs
        && method <= 5
        && total >= super::select::MIN_ELEMENTS
        && total == src.shape().last().copied().unwrap_or(1)
        && super::select::selectable(dt)
    {
        let flat = super::dense(&src.reshape([-1])?)?;
        let (pair, cnt, qarr) = super::select::select_pair(&flat, *qv, method, prop, skip_nan)?;
        let y = Array::empty_on(device, &[1, 1], out_dt, crate::Order::C)?;
        pick(&pair, &cnt, &qarr, 1, 2, method, prop, dt, &y)?;
        return y.reshape(&dims);
    }
    let sorted = super::sort(&src, Some(-1))?;
    let shape = sorted.shape().to_vec();
    let n = *shape.last().unwrap_or(&1);
    let kept: Vec<usize> = shape[..shape.len().saturating_sub(1)].to_vec();
    let rows: usize = kept.iter().product();
    // Each row's valid count: all of it, or its non-NaN values (NaN sorts
    // last, so these are the first `count`).
    let cnt = if skip_nan && dt.is_inexact() && n > 0 {
        let nan = crate::ufunc::isnan(&sorted)?;
        count_nonzero(&nan, ReduceOptions::axis(-1))?
            .reshape([rows as isize])?
            .astype(DType::Int64)
            .and_then(|c| {
                let full = crate::creation::full([rows], n as i64, Some(DType::Int64))?;
                crate::ufunc::subtract(&full, &c)
            })?
    } else {
        crate::creation::full([rows], n as i64, Some(DType::Int64))?
    };
    let qarr = Array::from_slice_on(device, qs, &[qs.len()])?;
    let y = Array::empty_on(device, &[qs.len(), rows], out_dt, crate::Order::C)?;
    if rows > 0 && !qs.is_empty() {
        let flat = sorted.reshape([(rows * n) as isize])?;
        pick(&flat, &cnt, &qarr, rows, n, method, prop, dt, &y)?;
    }
    y.reshape(&dims)
}

/// Runs [`quantile_kernel`] over `y`'s (quantile, row) elements: `rows`
/// sorted rows of `len` in `sorted`, their valid counts `cnt`, the
/// quantiles `qarr`; `prop`: a trailing NaN makes the row's result NaN.
#[allow(clippy::too_many_arguments)]
fn pick(
    sorted: &Array,
    cnt: &Array,
    qarr: &Array,
    rows: usize,
    len: usize,
    method: i32,
    prop: bool,
    dt: DType,
    y: &Array,
) -> Result<()> {
    let p = PickScalars {
        rows,
        len,
        method,
        prop,
        // NumPy's lerp takes b - a in the input's float dtype (then
        // interpolates in the result's): round the difference alike.
        round_diff: dt.is_floating(),
    };
    quantile_kernel(sorted.into(), cnt.into(), qarr.into(), y.into(), p).launch(&[y.size()])?;
    Ok(())
}

/// `a` with the (normalized, distinct) `axes` moved last, in their given
/// order, and the shape that merges them into one trailing axis.
fn reduced_last(a: &Array, axes: &[usize]) -> Result<(Array, Vec<isize>)> {
    let nd = a.ndim() as isize;
    let k = axes.len() as isize;
    let src: Vec<isize> = axes.iter().map(|&x| x as isize).collect();
    let dst: Vec<isize> = (nd - k..nd).collect();
    let moved = a.moveaxis(&src, &dst)?;
    let mut shape: Vec<isize> = moved.shape()[..(nd - k) as usize]
        .iter()
        .map(|&d| d as isize)
        .collect();
    // An explicit length: -1 is ambiguous when a kept axis is empty.
    shape.push(axes.iter().map(|&x| a.shape()[x]).product::<usize>() as isize);
    Ok((moved, shape))
}

/// The shape an order statistic leaves of `shape` (before `q`'s): the
/// kept axes in order, with each reduced axis as 1 under `keepdims`
/// (`None`: every axis reduced).
fn result_shape(shape: &[usize], axes: Option<&[usize]>, keepdims: bool) -> Vec<usize> {
    shape
        .iter()
        .enumerate()
        .filter_map(|(i, &d)| {
            let reduced = axes.is_none_or(|ax| ax.contains(&i));
            match (reduced, keepdims) {
                (false, _) => Some(d),
                (true, true) => Some(1),
                (true, false) => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_parse_as_numpy_names_them() {
        assert_eq!(
            QuantileMethod::parse("midpoint").unwrap(),
            QuantileMethod::Midpoint
        );
        assert_eq!(
            QuantileMethod::parse("hazen").unwrap(),
            QuantileMethod::Hazen
        );
        assert!(picks_a_value(QuantileMethod::InvertedCdf.code()));
        assert!(!picks_a_value(QuantileMethod::AveragedInvertedCdf.code()));
        assert!(
            QuantileMethod::parse("quux")
                .unwrap_err()
                .to_string()
                .starts_with(
                    "'quux' is not a valid method. Use one of: dict_keys(['inverted_cdf',"
                )
        );
        use QuantileMethod::*;
        for m in [
            Linear,
            Lower,
            Higher,
            Nearest,
            Midpoint,
            InvertedCdf,
            AveragedInvertedCdf,
            ClosestObservation,
            InterpolatedInvertedCdf,
            Hazen,
            Weibull,
            MedianUnbiased,
            NormalUnbiased,
        ] {
            assert_eq!(m.name().parse::<QuantileMethod>().unwrap(), m);
        }
        assert_eq!(QuantileMethod::default(), QuantileMethod::Linear);
    }

    /// NumPy's shapes: `np.median(np.ones((3, 4, 5)), axis=(0, 2),
    /// keepdims=True).shape == (1, 4, 1)`, and without keepdims `(4,)`.
    #[test]
    fn result_shapes_follow_numpy() {
        assert_eq!(result_shape(&[3, 4, 5], Some(&[2, 0]), true), vec![1, 4, 1]);
        assert_eq!(result_shape(&[3, 4, 5], Some(&[2, 0]), false), vec![4]);
        assert_eq!(result_shape(&[3, 4, 5], Some(&[]), false), vec![3, 4, 5]);
        assert_eq!(result_shape(&[3, 4, 5], None, true), vec![1, 1, 1]);
        assert!(result_shape(&[3, 4, 5], None, false).is_empty());
    }

    #[test]
    fn quantile_shapes_and_percent() {
        let q = Quantiles::Shaped {
            values: vec![10.0, 20.0, 30.0, 40.0, 50.0, 60.0],
            shape: vec![2, 3],
        };
        assert_eq!(q.shape(), vec![2, 3]);
        assert_eq!(q.divided(100.0).values()[2], 30.0 / 100.0);
        assert_eq!(Quantiles::One(0.5).shape(), Vec::<usize>::new());
        assert_eq!(Quantiles::Many(vec![0.1; 4]).shape(), vec![4]);
        let o = QuantileOptions::axes(&[0, 2]).keepdims(true);
        assert_eq!(o.axis, Some(vec![0, 2]));
        assert!(o.keepdims);
    }

    #[test]
    fn the_pick_kernel_is_named_by_its_operands() {
        let s = quantile_kernel_of(DType::Float32, DType::Float64)
            .spec(
                crate::elementwise::LayoutClass::Contiguous { vectorized: false },
                crate::elementwise::IndexWidth::I32,
            )
            .unwrap();
        assert_eq!(
            s.name,
            "cuprum_quantile_pick_r1f4r1i8r1f8si8si8si4si4si4_r1f8_c_i32"
        );
        assert_eq!(
            s.type_aliases,
            vec![("O".into(), DType::Float64), ("T".into(), DType::Float32)]
        );
        s.validate().unwrap();
    }
}
