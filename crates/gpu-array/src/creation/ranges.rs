//! Numerical ranges: `arange`, `linspace`, `logspace`, `meshgrid`,
//! `indices`, and the `mgrid`/`ogrid` grids.

use num_complex::Complex;

use super::kernels::{Gen, GridValue};
use crate::array::{Array, broadcast_arrays};
use crate::dtype::{DType, ScalarKind, ScalarValue, check_weak_int};
use crate::error::{Error, Result};
use crate::ufunc::{self, scalar_to_bytes};

/// A Python-scalar value as NumPy's `arange` and `mgrid` do arithmetic on
/// it: integers exactly, floats in float64, complex in complex128.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Num {
    Int(i128),
    Float(f64),
    Complex(Complex<f64>),
}

impl Num {
    fn new(v: ScalarValue) -> Num {
        match v {
            ScalarValue::Bool(b) => Num::Int(i128::from(b)),
            ScalarValue::Int(n) => Num::Int(n),
            ScalarValue::Float(f) => Num::Float(f),
            ScalarValue::Complex(c) => Num::Complex(c),
        }
    }

    fn value(self) -> ScalarValue {
        match self {
            Num::Int(n) => ScalarValue::Int(n),
            Num::Float(f) => ScalarValue::Float(f),
            Num::Complex(c) => ScalarValue::Complex(c),
        }
    }

    fn complex(self) -> Complex<f64> {
        match self {
            Num::Int(n) => Complex::new(n as f64, 0.0),
            Num::Float(f) => Complex::new(f, 0.0),
            Num::Complex(c) => c,
        }
    }

    fn float(self) -> f64 {
        self.complex().re
    }

    /// Python's `a + b` (`sub`: `a - b`).
    fn add(self, b: Num, sub: bool) -> Num {
        match (self, b) {
            (Num::Int(x), Num::Int(y)) => Num::Int(if sub { x - y } else { x + y }),
            (Num::Complex(_), _) | (_, Num::Complex(_)) => {
                let (x, y) = (self.complex(), b.complex());
                Num::Complex(if sub { x - y } else { x + y })
            }
            _ => {
                let (x, y) = (self.float(), b.float());
                Num::Float(if sub { x - y } else { x + y })
            }
        }
    }

    fn is_zero(self) -> bool {
        match self {
            Num::Int(n) => n == 0,
            Num::Float(f) => f == 0.0,
            Num::Complex(c) => c.re == 0.0 && c.im == 0.0,
        }
    }

    /// The kind NumPy's scalar type has.
    fn kind(self) -> ScalarKind {
        match self {
            Num::Int(_) => ScalarKind::Int,
            Num::Float(_) => ScalarKind::Float,
            Num::Complex(_) => ScalarKind::Complex,
        }
    }
}

/// Python's complex division (`_Py_c_quot`), which `arange`'s length uses.
fn py_complex_div(a: Complex<f64>, b: Complex<f64>) -> Complex<f64> {
    let (abs_re, abs_im) = (b.re.abs(), b.im.abs());
    if abs_re >= abs_im {
        let ratio = b.im / b.re;
        let denom = b.re + b.im * ratio;
        Complex::new((a.re + a.im * ratio) / denom, (a.im - a.re * ratio) / denom)
    } else if abs_im >= abs_re {
        let ratio = b.re / b.im;
        let denom = b.re * ratio + b.im;
        Complex::new((a.re * ratio + a.im) / denom, (a.im * ratio - a.re) / denom)
    } else {
        Complex::new(f64::NAN, f64::NAN)
    }
}

/// NumPy's `_arange_safe_ceil_to_intp`.
fn ceil_to_len(value: f64) -> Result<i64> {
    let c = value.ceil();
    if c.is_nan() {
        return Err(Error::Value("arange: cannot compute length".into()));
    }
    if !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&c) {
        return Err(Error::Value("Maximum allowed size exceeded".into()));
    }
    Ok(c as i64)
}

/// NumPy's `_calc_length` for `arange`: `ceil((stop - start) / step)`
/// with Python's arithmetic (exact for integers), at least 0.
fn arange_length(start: Num, stop: Num, step: Num, complex: bool) -> Result<usize> {
    if step.is_zero() {
        return Err(Error::ZeroDivision("division by zero".into()));
    }
    let delta = stop.add(start, true);
    if delta.is_zero() {
        return Ok(0);
    }
    let len = match (delta, step) {
        (Num::Int(d), Num::Int(s)) => {
            // Exact ceil(d / s).
            let q = d / s;
            let q = if (d % s != 0) && ((d < 0) == (s < 0)) {
                q + 1
            } else {
                q
            };
            if q > i128::from(i64::MAX) {
                return Err(Error::Value("Maximum allowed size exceeded".into()));
            }
            q.max(0) as i64
        }
        (Num::Complex(_), _) | (_, Num::Complex(_)) => {
            let v = py_complex_div(delta.complex(), step.complex());
            if complex {
                ceil_to_len(v.re)?.min(ceil_to_len(v.im)?)
            } else {
                return Err(Error::DType(
                    "arange: complex arguments need a complex dtype".into(),
                ));
            }
        }
        _ => {
            let v = delta.float() / step.float();
            if v == 0.0 {
                // Underflow, or division by an infinite step: one element
                // when the quotient is +0.
                i64::from(!v.is_sign_negative())
            } else {
                ceil_to_len(v)?
            }
        }
    };
    Ok(len.max(0) as usize)
}

/// `start` converted to `dtype` as NumPy's item assignment converts a
/// Python scalar (integers are checked against the dtype's range).
fn scalar_in(value: Num, dtype: DType) -> Result<Vec<u8>> {
    if let Num::Int(n) = value
        && dtype.is_integer()
    {
        check_weak_int(n, dtype)?;
    }
    Ok(scalar_to_bytes(value.value(), dtype))
}

/// The range of [`arange`]: `stop` alone (from 0 by 1), `(start, stop)`
/// (by 1) or `(start, stop, step)`, each a Rust scalar (an unsuffixed
/// integer literal is a Python int: the result is int64).
#[derive(Clone, Copy, Debug)]
pub struct ArangeRange {
    start: ScalarValue,
    stop: ScalarValue,
    step: ScalarValue,
}

impl<T: Into<ScalarValue>> From<T> for ArangeRange {
    fn from(stop: T) -> Self {
        ArangeRange {
            start: ScalarValue::Int(0),
            stop: stop.into(),
            step: ScalarValue::Int(1),
        }
    }
}

impl<A: Into<ScalarValue>, B: Into<ScalarValue>> From<(A, B)> for ArangeRange {
    fn from((start, stop): (A, B)) -> Self {
        ArangeRange {
            start: start.into(),
            stop: stop.into(),
            step: ScalarValue::Int(1),
        }
    }
}

impl<A: Into<ScalarValue>, B: Into<ScalarValue>, C: Into<ScalarValue>> From<(A, B, C)>
    for ArangeRange
{
    fn from((start, stop, step): (A, B, C)) -> Self {
        ArangeRange {
            start: start.into(),
            stop: stop.into(),
            step: step.into(),
        }
    }
}

/// NumPy's `arange` with the dtype picked from the range: `arange(10)?`,
/// `arange((2, 10))?`, `arange((0.0, 1.0, 0.25))?`. [`arange_with`] takes
/// a dtype.
///
/// ```no_run
/// use gpu_array::creation::arange;
/// # fn main() -> gpu_array::Result<()> {
/// assert_eq!(arange(4)?.to_vec::<i64>()?, [0, 1, 2, 3]);
/// assert_eq!(arange((1.0, 2.0, 0.5))?.to_vec::<f64>()?, [1.0, 1.5]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`arange_with`].
pub fn arange(range: impl Into<ArangeRange>) -> Result<Array> {
    let r = range.into();
    arange_with(r.start, r.stop, r.step, None)
}

/// Evenly spaced values in `[start, stop)` (NumPy's `arange(start, stop,
/// step, dtype)`; NumPy's `arange(n)` is `arange(0, n, 1, None)`).
///
/// The length is NumPy's, `ceil((stop - start) / step)` (at least 0), in
/// Python arithmetic (exact for integers). With `dtype` `None` the dtype
/// comes from the arguments as NumPy picks it: all integers (or bools)
/// give int64 (float64 when one exceeds int64's range), any float
/// float64, any complex complex128. The values are NumPy's: the first two
/// elements are `start` and `start + step` converted to the dtype, the
/// rest `start + i * delta` with `delta` the difference of those two, all
/// in the dtype's arithmetic (float for float16), computed on the GPU.
/// So `arange(0, 5, 1.5, Some(Int64))` is `[0, 1, 2, 3]`, as NumPy's.
///
/// ```no_run
/// use gpu_array::{DType, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = arange_with(0, 10, 3, Some(DType::Int8))?; // [0, 3, 6, 9] int8
/// # Ok(()) }
/// ```
///
/// # Errors
/// [`Error::ZeroDivision`] "division by zero" for a zero step (NumPy's
/// `ZeroDivisionError`); "arange: cannot compute
/// length" for NaN; "Maximum allowed size exceeded" for an infinite or
/// too long range; "arange() is only supported for booleans when the
/// result has at most length 2."; an integer `start` or `start + step`
/// out of the dtype's range ("Python integer -3 out of bounds for uint8").
pub fn arange_with(
    start: impl Into<ScalarValue>,
    stop: impl Into<ScalarValue>,
    step: impl Into<ScalarValue>,
    dtype: Option<DType>,
) -> Result<Array> {
    let (start, stop, step) = (
        Num::new(start.into()),
        Num::new(stop.into()),
        Num::new(step.into()),
    );
    let dtype = match dtype {
        Some(d) => d,
        None => {
            let kind = [start, stop, step]
                .iter()
                .map(|n| n.kind())
                .max()
                .unwrap_or(ScalarKind::Int);
            let beyond_int64 = [start, stop, step].iter().any(|n| match n {
                Num::Int(v) => check_weak_int(*v, DType::Int64).is_err(),
                _ => false,
            });
            if beyond_int64 && kind == ScalarKind::Int {
                for n in [start, stop, step] {
                    if let Num::Int(v) = n {
                        check_weak_int(v, DType::UInt64)?;
                    }
                }
                DType::Float64
            } else {
                kind.default_dtype()
            }
        }
    };
    let len = arange_length(start, stop, step, dtype.is_complex())?;
    if dtype == DType::Bool && len > 2 {
        return Err(Error::DType(
            "arange() is only supported for booleans when the result has at most length 2.".into(),
        ));
    }
    if len == 0 {
        return Array::empty([0], dtype);
    }
    // NumPy stores `start`, then (for two or more elements) `start +
    // step`, with its range checks.
    let a = scalar_in(start, dtype)?;
    let b = if len > 1 {
        scalar_in(start.add(step, false), dtype)?
    } else {
        a.clone()
    };
    let out = Array::empty([len], dtype)?;
    Gen::Arange { a, b }.run(&out)?;
    Ok(out)
}

/// The computation NumPy's `linspace` does for scalar `start` and `stop`.
struct LinspacePlan {
    complex: bool,
    start: Complex<f64>,
    stop: Complex<f64>,
    step: Complex<f64>,
    delta: Complex<f64>,
    div: f64,
    mode: i64,
}

impl LinspacePlan {
    fn new(start: ScalarValue, stop: ScalarValue, num: usize, endpoint: bool) -> LinspacePlan {
        let (start, stop) = (Num::new(start), Num::new(stop));
        let complex = matches!(start, Num::Complex(_)) || matches!(stop, Num::Complex(_));
        let (s, e) = (start.complex(), stop.complex());
        let div = if endpoint {
            num as f64 - 1.0
        } else {
            num as f64
        };
        let delta = e - s;
        let (step, mode) = if div > 0.0 {
            let step = if complex {
                // NumPy's complex division by (div + 0j).
                let scl = 1.0 / (div + 0.0 * 0.0);
                Complex::new(
                    (delta.re + delta.im * 0.0) * scl,
                    (delta.im - delta.re * 0.0) * scl,
                )
            } else {
                Complex::new(delta.re / div, 0.0)
            };
            let zero = step.re == 0.0 && step.im == 0.0;
            (step, if zero { 1 } else { 0 })
        } else {
            (Complex::new(f64::NAN, 0.0), 2)
        };
        LinspacePlan {
            complex,
            start: s,
            stop: e,
            step,
            delta,
            div,
            mode,
        }
    }

    fn retstep(&self) -> ScalarValue {
        if self.mode == 2 {
            ScalarValue::Float(f64::NAN)
        } else if self.complex {
            ScalarValue::Complex(self.step)
        } else {
            ScalarValue::Float(self.step.re)
        }
    }
}

/// NumPy's `linspace(start, stop, num)`: `num` samples, `stop` included,
/// float64 (complex128 for a complex end). [`linspace_with`] takes
/// `endpoint` and `dtype`.
///
/// ```no_run
/// use gpu_array::creation::linspace;
/// # fn main() -> gpu_array::Result<()> {
/// assert_eq!(linspace(0.0, 1.0, 5)?.to_vec::<f64>()?, [0.0, 0.25, 0.5, 0.75, 1.0]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`linspace_with`].
pub fn linspace(
    start: impl Into<ScalarValue>,
    stop: impl Into<ScalarValue>,
    num: usize,
) -> Result<Array> {
    linspace_with(start, stop, num, true, None)
}

/// `num` evenly spaced samples from `start` to `stop` (NumPy's
/// `linspace(start, stop, num, endpoint, dtype=dtype)`), `stop` included
/// when `endpoint`. NumPy's formula and rounding: computed in float64
/// (complex128 when an end is complex) as `step = (stop - start) / div`
/// with `div = num - 1` (or `num` without `endpoint`), `y = i * step +
/// start`, the last sample set to `stop` exactly when `endpoint`; `floor`
/// before the cast for integer dtypes. `dtype` `None` is float64 (or
/// complex128).
///
/// ```no_run
/// use gpu_array::{DType, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = linspace_with(0, 1, 4, false, None)?; // [0, 0.25, 0.5, 0.75]
/// # Ok(()) }
/// ```
///
/// # Errors
/// An integer dtype with a complex end (NumPy's `floor` of complex, a
/// `TypeError`); as [`crate::creation::empty`].
pub fn linspace_with(
    start: impl Into<ScalarValue>,
    stop: impl Into<ScalarValue>,
    num: usize,
    endpoint: bool,
    dtype: Option<DType>,
) -> Result<Array> {
    Ok(linspace_retstep(start, stop, num, endpoint, dtype)?.0)
}

/// [`linspace`] and its step (NumPy's `retstep=True`): `(stop - start) /
/// div` as a float64 (or complex128) scalar, NaN when `div` is 0 (`num`
/// is 0, or 1 with `endpoint`).
///
/// ```no_run
/// use gpu_array::{DType, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (a, step) = linspace_retstep(0, 1, 5, true, None)?; // step 0.25
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`linspace`].
pub fn linspace_retstep(
    start: impl Into<ScalarValue>,
    stop: impl Into<ScalarValue>,
    num: usize,
    endpoint: bool,
    dtype: Option<DType>,
) -> Result<(Array, ScalarValue)> {
    let plan = LinspacePlan::new(start.into(), stop.into(), num, endpoint);
    let dtype = dtype.unwrap_or(if plan.complex {
        DType::Complex128
    } else {
        DType::Float64
    });
    if plan.complex && dtype.is_integer() {
        return Err(Error::DType(
            "ufunc 'floor' not supported for the input types, and the inputs could not be \
             safely coerced to any supported types according to the casting rule ''safe''"
                .into(),
        ));
    }
    let out = Array::empty([num], dtype)?;
    if num > 0 {
        let last = if endpoint && num > 1 {
            num as i64 - 1
        } else {
            -1
        };
        Gen::Linspace {
            complex: plan.complex,
            points: [plan.start, plan.stop, plan.step, plan.delta],
            div: plan.div,
            mode: plan.mode,
            last,
        }
        .run(&out)?;
    }
    Ok((out, plan.retstep()))
}

/// NumPy's `linspace(start, stop, num, endpoint, dtype, axis)` with array
/// ends: the samples of every (start, stop) pair of the broadcast ends,
/// along a new axis `axis` (0: first). Computed as NumPy does, `start + i
/// * step` in float64 (complex128 for complex ends), the last sample
/// `stop` itself with `endpoint`; `floor` before the cast for an integer
/// `dtype`.
///
/// ```no_run
/// use gpu_array::creation::{array, linspace_arrays};
/// # fn main() -> gpu_array::Result<()> {
/// let y = linspace_arrays(&array([0.0, 10.0])?, &array([1.0, 20.0])?, 3, true, None, 0)?;
/// assert_eq!(y.to_vec::<f64>()?, [0.0, 10.0, 0.5, 15.0, 1.0, 20.0]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// Ends that do not broadcast; an axis out of range; an integer dtype
/// with complex ends; as [`crate::creation::empty`].
pub fn linspace_arrays(
    start: &Array,
    stop: &Array,
    num: usize,
    endpoint: bool,
    dtype: Option<DType>,
    axis: isize,
) -> Result<Array> {
    let complex = start.dtype().is_complex() || stop.dtype().is_complex();
    let work = if complex {
        DType::Complex128
    } else {
        DType::Float64
    };
    let dtype = dtype.unwrap_or(work);
    if complex && dtype.is_integer() {
        return Err(Error::DType(
            "ufunc 'floor' not supported for the input types, and the inputs could not be \
             safely coerced to any supported types according to the casting rule ''safe''"
                .into(),
        ));
    }
    let b = broadcast_arrays(&[start, stop])?;
    let (lo, hi) = (b[0].astype(work)?, b[1].astype(work)?);
    let nd = lo.ndim() as isize;
    let axis = if axis < 0 { axis + nd + 1 } else { axis };
    if !(0..=nd).contains(&axis) {
        return Err(Error::AxisOutOfBounds {
            arg: None,
            axis,
            ndim: lo.ndim() + 1,
        });
    }
    let div = if endpoint { num.saturating_sub(1) } else { num };
    let new_shape: Vec<isize> = std::iter::once(-1).chain((0..nd).map(|_| 1)).collect();
    let samples = |count: usize| -> Result<Array> {
        let i = arange_with(0, count as i64, 1, Some(DType::Float64))?.reshape(&new_shape)?;
        if div == 0 {
            // NumPy's step is NaN then, and only `start` is sampled.
            return ufunc::add(ufunc::multiply(&i, 0.0)?, &lo);
        }
        let step = ufunc::true_divide(ufunc::subtract(&hi, &lo)?, div as f64)?;
        ufunc::add(ufunc::multiply(&i, &step)?, &lo)
    };
    let y = if endpoint && num > 1 {
        let head = samples(num - 1)?;
        let last = hi.expand_dims(&[0])?;
        crate::manipulation::concatenate(&[&head, &last], Some(0))?
    } else {
        samples(num)?
    };
    let y = if dtype.is_integer() {
        ufunc::floor(&y)?
    } else {
        y
    };
    let y = if y.dtype() == dtype {
        y
    } else {
        y.astype(dtype)?
    };
    if axis == 0 {
        Ok(y)
    } else {
        y.moveaxis(&[0], &[axis]).and_then(|v| v.copy())
    }
}

/// NumPy's `logspace` with array ends: `base ** linspace_arrays(..)`,
/// cast to `dtype` as [`logspace_with`] does. `base` is a scalar (`10.0`,
/// `2`) or an array: an array of one or more dimensions is broadcast with
/// `start` and `stop` and gains the samples' axis at `axis`, as NumPy's
/// `np.expand_dims(base, axis)` (`start` and `stop` take its number of
/// dimensions first, so `axis` counts in the broadcast shape); a 0-d one
/// is a plain operand of the power. The power promotes as NumPy's (an
/// array base of float32 gives float64; a complex one, complex128).
///
/// ```no_run
/// use gpu_array::creation::*;
/// # fn main() -> gpu_array::Result<()> {
/// let (start, stop) = (array([0.0, 1.0])?, array([2.0, 3.0])?);
/// // np.logspace([0, 1], [2, 3], 3): columns [1, 10, 100] and [10, 100, 1000]
/// let y = logspace_arrays(&start, &stop, 3, true, 10.0, None, 0)?;
/// // np.logspace([0, 1], [2, 3], 3, base=[2, 10]): columns [1, 2, 4] and [10, 100, 1000]
/// let b = logspace_arrays(&start, &stop, 3, true, &array([2.0, 10.0])?, None, 0)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// Ends and base that do not broadcast; an axis out of range (of the
/// result's dimensions); a base on another device; as
/// [`linspace_arrays`].
pub fn logspace_arrays<'b>(
    start: &Array,
    stop: &Array,
    num: usize,
    endpoint: bool,
    base: impl Into<ufunc::Input<'b>>,
    dtype: Option<DType>,
    axis: isize,
) -> Result<Array> {
    let p = match base.into() {
        ufunc::Input::Array(b) if b.ndim() > 0 => {
            start.check_same_device(b, "logspace")?;
            let nd =
                crate::layout::broadcast_shapes(&[start.shape(), stop.shape(), b.shape()])?.len();
            let (start, stop, b) = (ndmin(start, nd)?, ndmin(stop, nd)?, ndmin(b, nd)?);
            // NumPy's expand_dims: `axis` in -(nd + 1)..=nd.
            let at = if axis < 0 {
                axis + nd as isize + 1
            } else {
                axis
            };
            if !(0..=nd as isize).contains(&at) {
                return Err(Error::AxisOutOfBounds {
                    arg: None,
                    axis,
                    ndim: nd + 1,
                });
            }
            let b = b.expand_dims(&[at])?;
            let y = linspace_arrays(&start, &stop, num, endpoint, None, at)?;
            ufunc::power(&b, &y)?
        }
        base => {
            let y = linspace_arrays(start, stop, num, endpoint, None, axis)?;
            ufunc::power(base, &y)?
        }
    };
    match dtype {
        Some(d) if d != p.dtype() => p.astype(d),
        _ => Ok(p),
    }
}

/// `a` with leading length-1 axes up to `nd` dimensions (NumPy's
/// `np.array(a, ndmin=nd)`), a view.
fn ndmin(a: &Array, nd: usize) -> Result<Array> {
    if a.ndim() >= nd {
        return Ok(a.clone());
    }
    let shape: Vec<usize> = std::iter::repeat_n(1, nd - a.ndim())
        .chain(a.shape().iter().copied())
        .collect();
    a.broadcast_to(&shape)
}

/// NumPy's `logspace(start, stop, num)`: `10 ** linspace(start, stop,
/// num)`, float64. [`logspace_with`] takes `endpoint`, `base` and `dtype`.
///
/// ```no_run
/// use gpu_array::creation::logspace;
/// # fn main() -> gpu_array::Result<()> {
/// let y = logspace(0.0, 2.0, 3)?.to_vec::<f64>()?; // [1, 10, 100]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`logspace_with`].
pub fn logspace(
    start: impl Into<ScalarValue>,
    stop: impl Into<ScalarValue>,
    num: usize,
) -> Result<Array> {
    logspace_with(start, stop, num, true, 10.0, None)
}

/// `base ** linspace(start, stop, num, endpoint)` (NumPy's `logspace(start,
/// stop, num, endpoint, base, dtype)`): the exponents as [`linspace`]
/// computes them in float64 (or complex128), the power by the `power`
/// ufunc (the GPU's `pow`, within an ulp or two of NumPy's), then cast to
/// `dtype` (`None`: float64 or complex128) as `astype` does (truncating
/// into integers).
///
/// ```no_run
/// use gpu_array::{DType, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = logspace_with(0, 3, 4, true, 2.0, None)?; // [1, 2, 4, 8]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`linspace`].
pub fn logspace_with(
    start: impl Into<ScalarValue>,
    stop: impl Into<ScalarValue>,
    num: usize,
    endpoint: bool,
    base: f64,
    dtype: Option<DType>,
) -> Result<Array> {
    let y = linspace_with(start, stop, num, endpoint, None)?;
    let p = ufunc::power(base, &y)?;
    match dtype {
        Some(d) if d != p.dtype() => p.astype(d),
        _ => Ok(p),
    }
}

/// The indexing of [`meshgrid`]'s outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Indexing {
    /// Cartesian (NumPy's `indexing='xy'`, the default): with inputs of
    /// lengths `M`, `N`, outputs of shape `(N, M)`.
    #[default]
    Xy,
    /// Matrix (`indexing='ij'`): outputs of shape `(M, N)`.
    Ij,
}

/// Coordinate matrices from coordinate vectors (NumPy's `meshgrid(*xi,
/// indexing, sparse, copy)`). Each input is flattened; output `k` holds
/// input `k` along its axis (axes 0 and 1 swapped for [`Indexing::Xy`]).
/// With `sparse`, the outputs keep length-1 axes instead of broadcasting;
/// without `copy`, they are views of the inputs (broadcast with stride
/// 0, so writing to them writes shared elements, as in NumPy), with it
/// C-contiguous copies.
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (x, y) = (arange(3)?, arange(2)?);
/// let g = meshgrid(&[&x, &y], Indexing::Xy, false, true)?; // two (2, 3) arrays
/// # Ok(()) }
/// ```
///
/// # Errors
/// A copy failed.
pub fn meshgrid(xi: &[&Array], indexing: Indexing, sparse: bool, copy: bool) -> Result<Vec<Array>> {
    let ndim = xi.len();
    let mut out = Vec::with_capacity(ndim);
    for (i, x) in xi.iter().enumerate() {
        let mut axis = i;
        if indexing == Indexing::Xy && ndim > 1 && i < 2 {
            axis = 1 - i;
        }
        let mut shape = vec![1isize; ndim];
        shape[axis] = -1;
        out.push(x.ravel()?.reshape(&shape)?);
    }
    if !sparse {
        let refs: Vec<&Array> = out.iter().collect();
        out = broadcast_arrays(&refs)?;
    }
    if copy {
        out = out.iter().map(Array::copy).collect::<Result<_>>()?;
    }
    Ok(out)
}

/// The step of one [`mgrid`]/[`ogrid`] range: NumPy's real slice step, or
/// its complex step `Nj` meaning "N points, stop included".
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GridStep {
    /// `start:stop:step`, stop excluded (an integer step with integer ends
    /// keeps the grid integer).
    Step(ScalarValue),
    /// `start:stop:Nj`: `N` points from `start` to `stop` inclusive.
    Num(usize),
}

/// One range of [`mgrid`] or [`ogrid`] (NumPy's slice `start:stop:step`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridRange {
    /// The first value.
    pub start: ScalarValue,
    /// The end.
    pub stop: ScalarValue,
    /// The step or the number of points.
    pub step: GridStep,
}

impl GridRange {
    /// `start:stop:step` (NumPy's `np.mgrid[start:stop:step]`).
    ///
    /// ```
    /// use gpu_array::creation::{GridRange, GridStep};
    /// use gpu_array::dtype::ScalarValue;
    /// let r = GridRange::step(0, 10, 2); // np.mgrid[0:10:2]
    /// assert_eq!((r.start, r.step), (ScalarValue::Int(0), GridStep::Step(ScalarValue::Int(2))));
    /// ```
    pub fn step(
        start: impl Into<ScalarValue>,
        stop: impl Into<ScalarValue>,
        step: impl Into<ScalarValue>,
    ) -> GridRange {
        GridRange {
            start: start.into(),
            stop: stop.into(),
            step: GridStep::Step(step.into()),
        }
    }

    /// `start:stop:num*1j` (NumPy's `np.mgrid[start:stop:5j]`).
    ///
    /// ```
    /// use gpu_array::creation::{GridRange, GridStep};
    /// let r = GridRange::num(-1.0, 1.0, 5); // np.mgrid[-1:1:5j]
    /// assert_eq!(r.step, GridStep::Num(5));
    /// ```
    pub fn num(
        start: impl Into<ScalarValue>,
        stop: impl Into<ScalarValue>,
        num: usize,
    ) -> GridRange {
        GridRange {
            start: start.into(),
            stop: stop.into(),
            step: GridStep::Num(num),
        }
    }
}

/// NumPy's `nd_grid.__getitem__`, for one range: its length and the
/// `(step, start)` of `nn * step + start`.
struct GridAxis {
    len: usize,
    step: Num,
    start: Num,
}

/// `sparse` (ogrid) takes a backwards range as empty, as NumPy's
/// `arange(n)` of a negative `n`; dense (mgrid) rejects it, as `indices`.
fn grid_axes(ranges: &[GridRange], op: &str, sparse: bool) -> Result<(Vec<GridAxis>, DType)> {
    let mut axes = Vec::with_capacity(ranges.len());
    let mut kinds = vec![ScalarKind::Int];
    for r in ranges {
        let (start, stop) = (Num::new(r.start), Num::new(r.stop));
        if matches!(start, Num::Complex(_)) || matches!(stop, Num::Complex(_)) {
            return Err(Error::Unsupported(format!(
                "{op}: complex range ends are not supported"
            )));
        }
        kinds.push(start.kind());
        kinds.push(stop.kind());
        let axis = match r.step {
            GridStep::Num(n) => {
                kinds.push(ScalarKind::Float);
                let step = if n == 1 {
                    Num::Int(1)
                } else {
                    // (stop - start) / float(n - 1), Python's arithmetic.
                    Num::Float(stop.add(start, true).float() / (n as f64 - 1.0))
                };
                GridAxis {
                    len: n,
                    step,
                    start,
                }
            }
            GridStep::Step(s) => {
                let step = Num::new(s);
                if matches!(step, Num::Complex(_)) {
                    return Err(Error::Unsupported(format!(
                        "{op}: use GridStep::Num for NumPy's complex step"
                    )));
                }
                kinds.push(step.kind());
                if step.is_zero() {
                    return Err(Error::ZeroDivision(format!("{op}: float division by zero")));
                }
                let n = (stop.add(start, true).float() / step.float()).ceil();
                if n < 0.0 && !sparse {
                    return Err(Error::Value("negative dimensions are not allowed".into()));
                }
                if !n.is_finite() || n > i64::MAX as f64 {
                    return Err(Error::Value("Maximum allowed size exceeded".into()));
                }
                GridAxis {
                    len: n.max(0.0) as usize,
                    step,
                    start,
                }
            }
        };
        axes.push(axis);
    }
    let kind = kinds.into_iter().max().unwrap_or(ScalarKind::Int);
    Ok((axes, kind.default_dtype()))
}

/// Writes `nn * step + start` into `out` (C-contiguous), where `nn` is the
/// index along an axis of length `dim` with `inner` elements per step.
fn grid_fill(out: &Array, axis: &GridAxis, inner: usize) -> Result<()> {
    let value = |n: Num| {
        if out.dtype() == DType::Int64 {
            GridValue::Int(match n {
                Num::Int(v) => v as i64,
                other => other.float() as i64,
            })
        } else {
            GridValue::Float(n.float())
        }
    };
    Gen::Grid {
        inner: inner as i64,
        dim: axis.len as i64,
        step: value(axis.step),
        start: value(axis.start),
    }
    .run(out)
}

/// A dense multi-dimensional grid (NumPy's `np.mgrid[r0, r1, ...]`): shape
/// `(len(ranges), n0, n1, ...)`, entry `[k, ...]` the `k`-th range's
/// value along axis `k`, computed as NumPy does, `index * step + start` in
/// int64 (every end and step an integer) or float64. [`GridStep::Num`]
/// gives `n` points with stop included, `step = (stop - start) / (n - 1)`.
/// With one range the result is 1-D, as NumPy's `np.mgrid[a:b:c]` (a
/// real step then follows [`arange`]'s values exactly).
///
/// ```no_run
/// use gpu_array::{DType, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// // np.mgrid[0:2, 0:3]: shape (2, 2, 3)
/// let g = mgrid(&[GridRange::step(0, 2, 1), GridRange::step(0, 3, 1)])?;
/// let h = mgrid(&[GridRange::num(0.0, 1.0, 5)])?; // np.mgrid[0:1:5j]
/// # Ok(()) }
/// ```
///
/// # Errors
/// No ranges; a zero step; "negative dimensions are not allowed" for a
/// range running backwards (a single range gives an empty array instead,
/// as NumPy's); complex ends.
pub fn mgrid(ranges: &[GridRange]) -> Result<Array> {
    if ranges.is_empty() {
        return Err(Error::Value("mgrid: at least one range is required".into()));
    }
    if ranges.len() == 1 {
        return single_grid(&ranges[0], "mgrid");
    }
    let (axes, dtype) = grid_axes(ranges, "mgrid", false)?;
    let sizes: Vec<usize> = axes.iter().map(|a| a.len).collect();
    let mut shape = vec![axes.len()];
    shape.extend(&sizes);
    let out = Array::empty(&shape, dtype)?;
    let per = crate::layout::size(&sizes)?;
    if per == 0 {
        return Ok(out);
    }
    let flat = out.reshape([axes.len() as isize, per as isize])?;
    for (k, axis) in axes.iter().enumerate() {
        let inner = crate::layout::size(&sizes[k + 1..])?;
        let row = flat.slice(&crate::s![k as isize])?;
        grid_fill(&row, axis, inner)?;
    }
    Ok(out)
}

/// NumPy's single-slice `nd_grid[start:stop:step]`.
fn single_grid(r: &GridRange, op: &str) -> Result<Array> {
    match r.step {
        GridStep::Step(step) => {
            if matches!(Num::new(step), Num::Complex(_)) {
                return Err(Error::Unsupported(format!(
                    "{op}: use GridStep::Num for NumPy's complex step"
                )));
            }
            arange_with(r.start, r.stop, step, None)
        }
        GridStep::Num(_) => {
            let (axes, _) = grid_axes(std::slice::from_ref(r), op, false)?;
            let out = Array::empty([axes[0].len], DType::Float64)?;
            if axes[0].len > 0 {
                grid_fill(&out, &axes[0], 1)?;
            }
            Ok(out)
        }
    }
}

/// An open multi-dimensional grid (NumPy's `np.ogrid[r0, r1, ...]`): one
/// array per range, of shape `(1, .., n_k, .., 1)`, with [`mgrid`]'s
/// values and dtype (a range running backwards is empty here, as in
/// NumPy). With one range, one 1-D array (NumPy returns the array itself).
///
/// ```no_run
/// use gpu_array::{DType, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// // np.ogrid[0:2, 0:3]: shapes (2, 1) and (1, 3)
/// let g = ogrid(&[GridRange::step(0, 2, 1), GridRange::step(0, 3, 1)])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`mgrid`].
pub fn ogrid(ranges: &[GridRange]) -> Result<Vec<Array>> {
    if ranges.is_empty() {
        return Err(Error::Value("ogrid: at least one range is required".into()));
    }
    if ranges.len() == 1 {
        return Ok(vec![single_grid(&ranges[0], "ogrid")?]);
    }
    let (axes, dtype) = grid_axes(ranges, "ogrid", true)?;
    let n = axes.len();
    axes.iter()
        .enumerate()
        .map(|(k, axis)| {
            let mut shape = vec![1; n];
            shape[k] = axis.len;
            let out = Array::empty(&shape, dtype)?;
            if axis.len > 0 {
                grid_fill(&out, axis, 1)?;
            }
            Ok(out)
        })
        .collect()
}

/// NumPy's `arange(dim, dtype=dtype)` check for bool.
fn check_bool_len(dims: &[usize], dtype: DType) -> Result<()> {
    if dtype == DType::Bool && dims.iter().any(|&d| d > 2) {
        return Err(Error::DType(
            "arange() is only supported for booleans when the result has at most length 2.".into(),
        ));
    }
    Ok(())
}

/// The index grid of a shape (NumPy's `indices(dimensions, dtype)`):
/// shape `(len(dims), *dims)`, entry `[k, i0, i1, ...]` equal to `i_k`.
/// NumPy's default dtype is int64.
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let ix = indices(&[2, 3], DType::Int64)?; // shape (2, 2, 3)
/// # Ok(()) }
/// ```
///
/// # Errors
/// Bool with a dimension over 2 (NumPy's `arange` rule); as
/// [`crate::creation::empty`].
pub fn indices(dims: &[usize], dtype: DType) -> Result<Array> {
    check_bool_len(dims, dtype)?;
    let mut shape = vec![dims.len()];
    shape.extend_from_slice(dims);
    let out = Array::empty(&shape, dtype)?;
    let per = crate::layout::size(dims)?;
    if per == 0 {
        return Ok(out);
    }
    let flat = out.reshape([dims.len() as isize, per as isize])?;
    for (k, &d) in dims.iter().enumerate() {
        let inner = crate::layout::size(&dims[k + 1..])?;
        let row = flat.slice(&crate::s![k as isize])?;
        Gen::AxisIndex {
            inner: inner as i64,
            dim: d as i64,
        }
        .run(&row)?;
    }
    Ok(out)
}

/// The sparse index grid (NumPy's `indices(dimensions, dtype,
/// sparse=True)`): one array per dimension `k`, of shape `(1, .., d_k, ..,
/// 1)`, holding `0..d_k`.
///
/// ```no_run
/// use gpu_array::{DType, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// // np.indices((2, 3), sparse=True): shapes (2, 1) and (1, 3)
/// let ij = indices_sparse(&[2, 3], DType::Int64)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`indices`].
pub fn indices_sparse(dims: &[usize], dtype: DType) -> Result<Vec<Array>> {
    check_bool_len(dims, dtype)?;
    dims.iter()
        .enumerate()
        .map(|(k, &d)| {
            let mut shape = vec![1; dims.len()];
            shape[k] = d;
            let out = Array::empty(&shape, dtype)?;
            if d > 0 {
                Gen::AxisIndex {
                    inner: 1,
                    dim: d as i64,
                }
                .run(&out)?;
            }
            Ok(out)
        })
        .collect()
}
