//! Order statistics: `quantile`, `percentile`, `median` and their
//! NaN-skipping forms. The axis is moved last and sorted (NaN last, so a
//! row's valid values are its first `count`), then one kernel over
//! (quantile, row) picks and interpolates by NumPy's method.
//!
//! | NumPy / CuPy                                  | Cuprum                                                      |
//! |-----------------------------------------------|-------------------------------------------------------------|
//! | `np.median(a, axis=0)`                        | [`median`]`(&a, Some(0), false)?`                           |
//! | `np.quantile(a, [.1, .9], axis=1)`            | [`quantile`]`(&a, &Quantiles::Many(vec![0.1, 0.9]), &QuantileOptions { axis: Some(1), ..Default::default() })?` |
//! | `np.percentile(a, 50, method='lower')`        | [`percentile`]`(&a, &Quantiles::One(50.0), &QuantileOptions { method: QuantileMethod::Lower, ..Default::default() })?` |
//! | `np.nanmedian(a)`, `np.nanquantile(a, .5)`    | [`nanmedian`], [`nanquantile`], [`nanpercentile`]           |

use std::sync::OnceLock;

use crate::array::Array;
use crate::dtype::{DType, ScalarValue};
use crate::elementwise::ElementwiseKernel;
use crate::error::{Error, Result};
use crate::layout::normalize_axis;
use crate::reduction::{ReduceOptions, count_nonzero};
use crate::ufunc::Input;

/// NumPy's `method=` of `quantile` and `percentile` (the classic five;
/// the Hyndman-Fan estimators are not supported yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QuantileMethod {
    /// Linear interpolation between the two nearest values (the default).
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
}

impl QuantileMethod {
    /// The method named as NumPy names it.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for NumPy's other estimators,
    /// [`Error::Value`] for an unknown name.
    pub fn parse(name: &str) -> Result<QuantileMethod> {
        Ok(match name {
            "linear" => QuantileMethod::Linear,
            "lower" => QuantileMethod::Lower,
            "higher" => QuantileMethod::Higher,
            "nearest" => QuantileMethod::Nearest,
            "midpoint" => QuantileMethod::Midpoint,
            "inverted_cdf"
            | "averaged_inverted_cdf"
            | "closest_observation"
            | "interpolated_inverted_cdf"
            | "hazen"
            | "weibull"
            | "median_unbiased"
            | "normal_unbiased" => {
                return Err(Error::Unsupported(format!(
                    "quantile method '{name}' (linear, lower, higher, nearest and midpoint are \
                     supported)"
                )));
            }
            other => return Err(Error::Value(format!("'{other}' is not a valid method."))),
        })
    }

    /// The kernel's method code (5 is the median's mean of the middle two).
    const fn code(self) -> i32 {
        match self {
            QuantileMethod::Linear => 0,
            QuantileMethod::Lower => 1,
            QuantileMethod::Higher => 2,
            QuantileMethod::Nearest => 3,
            QuantileMethod::Midpoint => 4,
        }
    }
}

/// The `q` of `quantile` (in [0, 1]) or `percentile` (in [0, 100]): one
/// value (the result has the reduced shape) or a 1-D list (the result
/// gains a leading axis of that length, as NumPy's).
#[derive(Clone, Debug, PartialEq)]
pub enum Quantiles {
    /// A scalar `q`.
    One(f64),
    /// A 1-D `q`.
    Many(Vec<f64>),
}

impl Quantiles {
    fn values(&self) -> &[f64] {
        match self {
            Quantiles::One(v) => std::slice::from_ref(v),
            Quantiles::Many(v) => v,
        }
    }
}

/// `axis` (an int or `None` for the flattened array), `keepdims` and
/// `method` of the order statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuantileOptions {
    /// The axis, `None` for every axis (the flattened array).
    pub axis: Option<isize>,
    /// Keep the reduced axis (axes) as length 1.
    pub keepdims: bool,
    /// How to pick between the two nearest values.
    pub method: QuantileMethod,
}

/// `numpy.quantile`: real inputs only; a row holding NaN gives NaN. The
/// result dtype is NumPy's: the input's for lower/higher/nearest; for
/// linear/midpoint float64 for integer input or a list `q`, else the
/// input's float dtype.
///
/// # Errors
/// "Quantiles must be in the range [0, 1]"; complex input; axis out of
/// range; an unsupported method.
pub fn quantile(a: &Array, q: &Quantiles, opts: &QuantileOptions) -> Result<Array> {
    if q.values().iter().any(|v| !(0.0..=1.0).contains(v)) {
        return Err(Error::Value("Quantiles must be in the range [0, 1]".into()));
    }
    order_statistic(a, q, opts, opts.method.code(), false)
}

/// `numpy.percentile`: [`quantile`] of `q / 100`.
///
/// # Errors
/// "Percentiles must be in the range [0, 100]"; as [`quantile`].
pub fn percentile(a: &Array, q: &Quantiles, opts: &QuantileOptions) -> Result<Array> {
    percentile_impl(a, q, opts, false)
}

/// `numpy.median` along `axis` (`None`: the flattened array): the middle
/// value, or the mean of the middle two.
///
/// # Errors
/// As [`quantile`].
pub fn median(a: &Array, axis: Option<isize>, keepdims: bool) -> Result<Array> {
    let opts = QuantileOptions {
        axis,
        keepdims,
        method: QuantileMethod::Linear,
    };
    order_statistic(a, &Quantiles::One(0.5), &opts, 5, false)
}

/// `numpy.nanquantile`: [`quantile`] of the non-NaN values (NaN for a row
/// of NaN only).
///
/// # Errors
/// As [`quantile`].
pub fn nanquantile(a: &Array, q: &Quantiles, opts: &QuantileOptions) -> Result<Array> {
    if q.values().iter().any(|v| !(0.0..=1.0).contains(v)) {
        return Err(Error::Value("Quantiles must be in the range [0, 1]".into()));
    }
    order_statistic(a, q, opts, opts.method.code(), true)
}

/// `numpy.nanpercentile`.
///
/// # Errors
/// As [`percentile`].
pub fn nanpercentile(a: &Array, q: &Quantiles, opts: &QuantileOptions) -> Result<Array> {
    percentile_impl(a, q, opts, true)
}

/// `numpy.nanmedian`.
///
/// # Errors
/// As [`median`].
pub fn nanmedian(a: &Array, axis: Option<isize>, keepdims: bool) -> Result<Array> {
    let opts = QuantileOptions {
        axis,
        keepdims,
        method: QuantileMethod::Linear,
    };
    order_statistic(a, &Quantiles::One(0.5), &opts, 5, true)
}

fn percentile_impl(a: &Array, q: &Quantiles, opts: &QuantileOptions, skip: bool) -> Result<Array> {
    if q.values().iter().any(|v| !(0.0..=100.0).contains(v)) {
        return Err(Error::Value(
            "Percentiles must be in the range [0, 100]".into(),
        ));
    }
    let scaled = match q {
        Quantiles::One(v) => Quantiles::One(v / 100.0),
        Quantiles::Many(v) => Quantiles::Many(v.iter().map(|x| x / 100.0).collect()),
    };
    order_statistic(a, &scaled, opts, opts.method.code(), skip)
}

/// The pick-and-interpolate kernel over `y`'s (quantile, row) elements:
/// the sorted rows `s` (`len` each), each row's valid count, the
/// quantiles (public for the NVRTC compile tests).
pub fn quantile_kernel() -> &'static ElementwiseKernel {
    kernel()
}

fn kernel() -> &'static ElementwiseKernel {
    static K: OnceLock<ElementwiseKernel> = OnceLock::new();
    K.get_or_init(|| {
        ElementwiseKernel::new(
            "raw T s, raw int64 cnt, raw float64 qs, int64 rows, int64 len, int32 method, \
             int32 prop, int32 round_diff",
            "raw O y",
            "const long long row = (long long)i % rows; \
             const long long k = (long long)i / rows; \
             const long long c = cnt[row]; \
             const long long b0 = row * len; \
             if (c == 0 || (prop && cuprum::isnan(cuprum::cast<double>(s[b0 + len - 1])))) { \
               y[i] = cuprum::cast<O>(__longlong_as_double(0x7FF8000000000000LL)); \
             } else { \
               const double v = qs[k] * (double)(c - 1); \
               const long long lo = (long long)floor(v); \
               const long long hi = lo + 1 < c ? lo + 1 : c - 1; \
               const double g = v - (double)lo; \
               if (method == 1) y[i] = cuprum::cast<O>(s[b0 + lo]); \
               else if (method == 2) y[i] = cuprum::cast<O>(s[b0 + (g > 0.0 ? hi : lo)]); \
               else if (method == 3) y[i] = cuprum::cast<O>(s[b0 + (long long)rint(v)]); \
               else { \
                 const double a = cuprum::cast<double>(s[b0 + lo]); \
                 const double b = cuprum::cast<double>(s[b0 + hi]); \
                 double r; \
                 if (method == 5) r = g > 0.0 ? (a + b) / 2.0 : a; \
                 else { \
                   const double t = method == 4 ? (g > 0.0 ? 0.5 : 0.0) : g; \
                   const double d = round_diff ? cuprum::cast<double>(cuprum::cast<T>(b - a)) : b - a; \
                   r = t >= 0.5 ? b - d * (1.0 - t) : a + d * t; \
                 } \
                 y[i] = cuprum::cast<O>(r); \
               } \
             }",
            "cuprum_quantile_pick",
        )
        .expect("the quantile kernel's parameters parse")
    })
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
    // NumPy's result dtypes: the picking methods keep the input's; the
    // interpolating ones give float64 for integers and for a list `q`
    // (float64 promotes), the input's float dtype for a scalar `q` (weak).
    let out_dt = if matches!(method, 1..=3) {
        dt
    } else if !dt.is_floating() || matches!(q, Quantiles::Many(_)) {
        DType::Float64
    } else {
        dt
    };
    // The axis last (or the flattened array), sorted: NaN goes last.
    let (src, kept_axis) = match opts.axis {
        None => (a.reshape(&[-1])?, None),
        Some(ax) => {
            let ax = normalize_axis(ax, a.ndim())?;
            (a.moveaxis(&[ax as isize], &[-1])?, Some(ax))
        }
    };
    let sorted = super::sort(&src, Some(-1))?;
    let shape = sorted.shape().to_vec();
    let n = *shape.last().unwrap_or(&1);
    let kept: Vec<usize> = shape[..shape.len().saturating_sub(1)].to_vec();
    let rows: usize = kept.iter().product();
    let qs = q.values();
    let device = a.device();
    // Each row's valid count: all of it, or its non-NaN values (NaN sorts
    // last, so these are the first `count`).
    let cnt = if skip_nan && dt.is_inexact() && n > 0 {
        let nan = crate::ufunc::isnan(&sorted)?;
        count_nonzero(&nan, &ReduceOptions::axis(-1))?
            .reshape(&[rows as isize])?
            .astype(DType::Int64)
            .and_then(|c| {
                let full = crate::creation::full(&[rows], n as i64, Some(DType::Int64))?;
                crate::ufunc::subtract(&full, &c)
            })?
    } else {
        crate::creation::full(&[rows], n as i64, Some(DType::Int64))?
    };
    let qarr = Array::from_slice_on(device, qs, &[qs.len()])?;
    let y = Array::empty_on(device, &[qs.len(), rows], out_dt, crate::Order::C)?;
    let int = |v: usize| Input::Scalar(ScalarValue::Int(v as i128));
    let prop = i128::from(!skip_nan && dt.is_inexact());
    if rows > 0 && !qs.is_empty() {
        let flat = sorted.reshape(&[(rows * n) as isize])?;
        kernel().call(
            &[
                Input::Array(&flat).into(),
                Input::Array(&cnt).into(),
                Input::Array(&qarr).into(),
                int(rows).into(),
                int(n).into(),
                Input::Scalar(ScalarValue::Int(i128::from(method))).into(),
                Input::Scalar(ScalarValue::Int(prop)).into(),
                // NumPy's lerp takes b - a in the input's float dtype (then
                // interpolates in the result's): round the difference alike.
                Input::Scalar(ScalarValue::Int(i128::from(dt.is_floating()))).into(),
            ],
            &[&y],
            Some(qs.len() * rows),
        )?;
    }
    // (q, kept...) with the reduced axis back as 1 when keepdims.
    let mut reduced: Vec<usize> = match kept_axis {
        None if opts.keepdims => vec![1; a.ndim()],
        None => Vec::new(),
        Some(ax) => {
            let mut k = kept.clone();
            if opts.keepdims {
                k.insert(ax, 1);
            }
            k
        }
    };
    if let Quantiles::Many(v) = q {
        reduced.insert(0, v.len());
    }
    let dims: Vec<isize> = reduced.iter().map(|&d| d as isize).collect();
    y.reshape(&dims)
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
        assert!(matches!(
            QuantileMethod::parse("hazen"),
            Err(Error::Unsupported(_))
        ));
        assert_eq!(
            QuantileMethod::parse("quux").unwrap_err().to_string(),
            "'quux' is not a valid method."
        );
        assert_eq!(QuantileMethod::default(), QuantileMethod::Linear);
    }

    #[test]
    fn the_pick_kernel_parses() {
        assert_eq!(kernel().name(), "cuprum_quantile_pick");
    }
}
