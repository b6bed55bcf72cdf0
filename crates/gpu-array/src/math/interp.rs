//! `interp`: one thread per query point, a binary search over the sample
//! points (NumPy's `arr_interp` and `arr_interp_complex`).

use num_complex::Complex;

use crate::array::Array;
use crate::creation::ascontiguousarray;
use crate::dtype::{DType, ScalarValue};
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::layout::Order;

/// The keyword arguments of [`interp`]: NumPy's `left`, `right` (default
/// `fp[0]` and `fp[-1]`) and `period` (ignoring `left` and `right`).
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct InterpOptions {
    /// The value for `x < xp[0]`.
    pub left: Option<ScalarValue>,
    /// The value for `x > xp[-1]`.
    pub right: Option<ScalarValue>,
    /// The period of the x-coordinates (nonzero; its absolute value is used).
    pub period: Option<f64>,
}

impl InterpOptions {
    /// Sets `left`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, math::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let (x, xp, fp) = (array([-1.0, 0.5, 3.0])?, array([0.0, 1.0])?, array([10.0, 20.0])?);
    /// let y = interp(&x, &xp, &fp, &InterpOptions::default().left(-1.0))?; // np.interp(x, xp, fp, left=-1): [-1, 15, 20]
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn left(mut self, left: impl Into<ScalarValue>) -> InterpOptions {
        self.left = Some(left.into());
        self
    }

    /// Sets `right`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, math::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let (x, xp, fp) = (array([-1.0, 0.5, 3.0])?, array([0.0, 1.0])?, array([10.0, 20.0])?);
    /// let y = interp(&x, &xp, &fp, &InterpOptions::default().right(0.0))?; // np.interp(x, xp, fp, right=0): [10, 15, 0]
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn right(mut self, right: impl Into<ScalarValue>) -> InterpOptions {
        self.right = Some(right.into());
        self
    }

    /// Sets `period`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, math::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let (x, xp, fp) = (array([-1.0, 0.5, 3.0])?, array([0.0, 1.0])?, array([10.0, 20.0])?);
    /// let y = interp(&x, &xp, &fp, &InterpOptions::default().period(2.0))?; // np.interp(x, xp, fp, period=2)
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn period(mut self, period: impl Into<Option<f64>>) -> InterpOptions {
        self.period = period.into();
        self
    }
}

/// Python's float `%`: the remainder with the divisor's sign.
fn py_mod(a: f64, b: f64) -> f64 {
    let m = a % b;
    if m != 0.0 {
        if (b < 0.0) != (m < 0.0) { m + b } else { m }
    } else {
        0.0f64.copysign(b)
    }
}

/// NumPy's `interp(x, xp, fp, left, right, period)`: the piecewise-linear
/// interpolant through `(xp, fp)` at `x`. `xp` must be increasing (not
/// checked, as NumPy), `fp` real or complex, both 1-D of one length. The
/// result has `x`'s shape and is float64, or complex128 for complex `fp`.
/// With `period`, `x` and `xp` are taken modulo it and the sample points
/// sorted (on the host: `xp` and `fp` are copied back once).
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let y = interp(&array([0.5])?, &array([0.0, 1.0])?, &array([0.0, 10.0])?, &InterpOptions::default())?; // [5]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Complex `x`; `xp` or `fp` not 1-D ("Data points must be 1-D
/// sequences"), of different lengths ("fp and xp are not of the same
/// length."), empty ("array of sample points is empty"); a zero period
/// ("period must be a non-zero value"); allocation or launch failed.
pub fn interp(x: &Array, xp: &Array, fp: &Array, opts: &InterpOptions) -> Result<Array> {
    if x.dtype().is_complex() {
        return Err(Error::Cast {
            from: x.dtype(),
            to: DType::Float64,
            casting: crate::dtype::Casting::Safe,
        });
    }
    if xp.ndim() != 1 || fp.ndim() != 1 {
        return Err(Error::Value("Data points must be 1-D sequences".into()));
    }
    if xp.shape()[0] != fp.shape()[0] {
        return Err(Error::Value("fp and xp are not of the same length.".into()));
    }
    if xp.shape()[0] == 0 {
        return Err(Error::Value("array of sample points is empty".into()));
    }
    let out_dt = if fp.dtype().is_complex() {
        DType::Complex128
    } else {
        DType::Float64
    };
    let (xp, fp, period) = match opts.period {
        None => (
            ascontiguousarray(xp, Some(DType::Float64))?,
            ascontiguousarray(fp, Some(out_dt))?,
            0.0,
        ),
        Some(0.0) => {
            return Err(Error::Value("period must be a non-zero value".into()));
        }
        Some(p) => {
            let p = p.abs();
            let xs: Vec<f64> = xp.astype(DType::Float64)?.to_vec()?;
            let fs: Vec<Complex<f64>> = fp.astype(DType::Complex128)?.to_vec()?;
            let mut pts: Vec<(f64, Complex<f64>)> =
                xs.iter().map(|&v| py_mod(v, p)).zip(fs).collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            let n = pts.len();
            let mut ex = Vec::with_capacity(n + 2);
            let mut ef = Vec::with_capacity(n + 2);
            ex.push(pts[n - 1].0 - p);
            ef.push(pts[n - 1].1);
            for &(a, b) in &pts {
                ex.push(a);
                ef.push(b);
            }
            ex.push(pts[0].0 + p);
            ef.push(pts[0].1);
            let dev = x.device();
            let xa = Array::from_slice_on(dev, &ex, &[ex.len()])?;
            let fa = if out_dt == DType::Complex128 {
                Array::from_slice_on(dev, &ef, &[ef.len()])?
            } else {
                let re: Vec<f64> = ef.iter().map(|c| c.re).collect();
                Array::from_slice_on(dev, &re, &[re.len()])?
            };
            (xa, fa, p)
        }
    };
    let n = xp.shape()[0];
    // `left`/`right` default to fp[0] and fp[-1], which the kernel reads
    // itself (no copy back); `period` ignores them, as NumPy.
    let (left, right) = if opts.period.is_some() {
        (None, None)
    } else {
        (opts.left, opts.right)
    };
    let given = i64::from(left.is_some()) | (i64::from(right.is_some()) << 1);
    let zero = ScalarValue::Float(0.0);
    let out = Array::empty_on(x.device(), x.shape(), out_dt, Order::C)?;
    let scalars = InterpScalars {
        left: left.unwrap_or(zero),
        right: right.unwrap_or(zero),
        period,
        len: n as i64,
        given,
    };
    interp_kernel(x.into(), (&xp).into(), (&fp).into(), (&out).into(), scalars)
        .launch(x.shape())?;
    Ok(out)
}

/// The scalar operands of [`interp_kernel`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct InterpScalars {
    /// Below `xp[0]` (when given).
    pub(crate) left: ScalarValue,
    /// Above `xp[len - 1]` (when given).
    pub(crate) right: ScalarValue,
    /// `x` is reduced modulo it first; 0 for none.
    pub(crate) period: f64,
    /// The number of points.
    pub(crate) len: i64,
    /// Bit 0: `left` given, bit 1: `right` given (else `fp[0]` and
    /// `fp[len - 1]`).
    pub(crate) given: i64,
}

/// `interp`: `x` of a real dtype; raw float64 `xp` and raw `fp` (float64
/// or complex128, `y`'s dtype): NumPy's `arr_interp` per element
/// (`interp.cuh`).
pub(crate) fn interp_kernel<'a>(
    x: Bind<'a>,
    xp: Bind<'a>,
    fp: Bind<'a>,
    y: Bind<'a>,
    s: InterpScalars,
) -> Elementwise<'a> {
    let out = y.dtype();
    Elementwise::new("interp")
        .input("x", x)
        .raw("xp", xp)
        .raw("fp", fp)
        .scalar("left", out, s.left)
        .scalar("right", out, s.right)
        .scalar("period", DType::Float64, s.period)
        .scalar("len", DType::Int64, s.len)
        .scalar("given", DType::Int64, s.given)
        .output("y", y)
        .op(
            "y = cuprum_np::interp<y_type>(cuprum::cast<double>(x), xp, fp, left, right, period, \
             len, given);",
        )
        .preamble(include_str!("interp.cuh"))
}

#[cfg(test)]
mod tests {
    use super::py_mod;

    #[test]
    fn python_modulo() {
        assert_eq!(py_mod(-1.0, 360.0), 359.0);
        assert_eq!(py_mod(370.0, 360.0), 10.0);
        assert_eq!(py_mod(5.0, -3.0), -1.0);
        assert!(py_mod(0.0, -3.0).is_sign_negative());
    }
}
