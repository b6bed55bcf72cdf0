//! scipy.special's functions over axes, not elementwise: `logsumexp`,
//! `softmax`, `log_softmax` (SciPy's algorithm: shift by the largest
//! finite value along the axes, so that `exp` neither overflows nor
//! underflows to an all-zero sum), and `multigammaln`, a sum of
//! `gammaln` terms.
//!
//! Each is a few whole-array passes of gpu-array's engine (the maximum,
//! the shifted exponentials and their sum, the result), as SciPy's and
//! CuPy's are; none reads back to the host.

use gpu_array::indexing::where_;
use gpu_array::reduction::ReduceOptions;
use gpu_array::ufunc;
use gpu_array::{Array, Error, Result, math, stats};

fn options(axis: Option<&[isize]>, keepdims: bool) -> ReduceOptions<'static> {
    let o = match axis {
        Some(axes) => ReduceOptions::axes(axes),
        None => ReduceOptions::default(),
    };
    o.keepdims(keepdims)
}

/// The largest value along `axis` (kept as length 1), with every
/// non-finite maximum replaced by 0 (SciPy's shift); -inf for an empty
/// reduction, so that it too becomes 0.
fn shift(a: &Array, axis: Option<&[isize]>) -> Result<Array> {
    let m = stats::amax(a, options(axis, true).initial(f64::NEG_INFINITY))?;
    where_(&ufunc::isfinite(&m)?, &m, 0.0)
}

/// `scipy.special.logsumexp(a, axis, keepdims=...)`: `log(sum(exp(a)))`
/// along `axis` (`None`: all), computed as `m + log(sum(exp(a - m)))`
/// with `m` the largest finite element, so that it neither overflows nor
/// loses the small terms. An empty reduction is -inf. Integer input gives
/// float64, as SciPy's. Complex input follows SciPy 1.15's algorithm
/// (below), its imaginary part wrapped into `(-pi, pi]`.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_array::creation::array([1000.0, 1000.0, -1000.0])?;
/// let s = gpu_special::logsumexp(&a, None, false)?; // 1000.693147...
/// # Ok(()) }
/// ```
///
/// # Errors
/// An axis out of range or repeated; allocation or launch failed.
pub fn logsumexp(a: &Array, axis: Option<&[isize]>, keepdims: bool) -> Result<Array> {
    if a.dtype().is_complex() {
        return logsumexp_complex(a, axis, keepdims);
    }
    let m = shift(a, axis)?;
    let e = ufunc::exp(ufunc::subtract(a, &m)?)?;
    let s = ufunc::log(math::sum(&e, options(axis, keepdims))?)?;
    let m = if keepdims {
        m
    } else {
        m.squeeze(Some(&axes_of(a, axis)?))?
    };
    ufunc::add(&s, &m)
}

/// Complex `logsumexp`, SciPy's algorithm (`_logsumexp`): along the
/// axes, one element of largest real part is `a_max` (the last such in C
/// order); the rest are summed shifted by it, `log1p(sum) + a_max`; where
/// that is not finite, the direct `log(sum(exp(a)))` (C99's complex
/// special values); the imaginary part wrapped into `(-pi, pi]`.
fn logsumexp_complex(a: &Array, axis: Option<&[isize]>, keepdims: bool) -> Result<Array> {
    use num_complex::Complex64;
    let a = if a.ndim() == 0 {
        a.reshape([1])?
    } else {
        a.clone()
    };
    let axes = axes_of(&a, axis)?;
    let keep = options(Some(&axes), true);
    let out = if a.size() == 0 {
        let mut shape = a.shape().to_vec();
        for &ax in &axes {
            shape[ax as usize] = 1;
        }
        let ninf = gpu_array::Array::scalar(Complex64::new(f64::NEG_INFINITY, 0.0))?;
        gpu_array::creation::full(shape, &ninf.astype(a.dtype())?, Some(a.dtype()))?
    } else {
        let direct = ufunc::log(math::sum(&ufunc::exp(&a)?, keep.clone())?)?;
        // The element of largest real part: the last in C order.
        let re = a.real();
        let top = stats::amax(&re, keep.clone())?;
        let at = gpu_array::creation::arange(a.size())?
            .reshape(a.shape().iter().map(|&d| d as isize).collect::<Vec<_>>())?;
        let candidates = where_(&ufunc::equal(&re, &top)?, &at, -1i64)?;
        let last = stats::amax(&candidates, keep.clone())?;
        let chosen = ufunc::equal(&at, &last)?;
        let zero = Complex64::new(0.0, 0.0);
        let a_max = math::sum(&where_(&chosen, &a, zero)?, keep.clone())?;
        let rest = where_(&chosen, Complex64::new(f64::NEG_INFINITY, 0.0), &a)?;
        let rest = rest.astype(a.dtype())?;
        let s = math::sum(&ufunc::exp(ufunc::subtract(&rest, &a_max)?)?, keep)?;
        let shifted = ufunc::add(&ufunc::log1p(&s)?, &a_max)?;
        where_(&ufunc::isfinite(&shifted)?, &shifted, &direct)?
    };
    // The imaginary part into (-pi, pi], SciPy's _wrap_radians.
    let pi = std::f64::consts::PI;
    let im = out.imag()?;
    let wrapped = ufunc::negative(ufunc::subtract(
        ufunc::remainder(ufunc::add(ufunc::negative(&im)?, pi)?, 2.0 * pi)?,
        pi,
    )?)?;
    let im = where_(&ufunc::less(&ufunc::absolute(&im)?, pi)?, &im, &wrapped)?;
    let out = ufunc::add(out.real(), &ufunc::multiply(&im, Complex64::new(0.0, 1.0))?)?
        .astype(a.dtype())?;
    if keepdims {
        Ok(out)
    } else {
        out.squeeze(Some(&axes))
    }
}

/// `scipy.special.softmax(x, axis)`: `exp(x) / sum(exp(x))` along `axis`
/// (`None`: all), shifted by the largest element first (for complex input
/// NumPy's lexicographic maximum, as SciPy's).
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([1.0, 2.0, 3.0])?;
/// let p = gpu_special::softmax(&x, None)?; // [0.09003, 0.24473, 0.66524]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`logsumexp`].
pub fn softmax(x: &Array, axis: Option<&[isize]>) -> Result<Array> {
    let m = if x.dtype().is_complex() {
        // NumPy's complex max: lexicographic (real part first).
        stats::amax(x, options(axis, true))?
    } else {
        stats::amax(x, options(axis, true).initial(f64::NEG_INFINITY))?
    };
    let e = ufunc::exp(ufunc::subtract(x, &m)?)?;
    let s = math::sum(&e, options(axis, true))?;
    ufunc::divide(&e, &s)
}

/// `scipy.special.log_softmax(x, axis)`: `x - logsumexp(x)` along `axis`
/// (`None`: all), without forming the softmax (so its small values keep
/// their digits).
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([1.0, 2.0, 3.0])?;
/// let l = gpu_special::log_softmax(&x, None)?; // [-2.40761, -1.40761, -0.40761]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`logsumexp`].
pub fn log_softmax(x: &Array, axis: Option<&[isize]>) -> Result<Array> {
    let m = if x.dtype().is_complex() {
        let m = stats::amax(x, options(axis, true))?;
        where_(&ufunc::isfinite(&m)?, &m, 0.0)?
    } else {
        shift(x, axis)?
    };
    let t = ufunc::subtract(x, &m)?;
    let s = math::sum(&ufunc::exp(&t)?, options(axis, true))?;
    ufunc::subtract(&t, &ufunc::log(&s)?)
}

/// The axes `axis` names in `a` (all of them for `None`), for squeezing
/// the kept ones away.
fn axes_of(a: &Array, axis: Option<&[isize]>) -> Result<Vec<isize>> {
    let nd = a.ndim() as isize;
    match axis {
        None => Ok((0..nd).collect()),
        Some(axes) => axes
            .iter()
            .map(|&ax| {
                let k = if ax < 0 { ax + nd } else { ax };
                if (0..nd).contains(&k) {
                    Ok(k)
                } else {
                    Err(Error::AxisOutOfBounds {
                        arg: None,
                        axis: ax,
                        ndim: a.ndim(),
                    })
                }
            })
            .collect(),
    }
}

/// `scipy.special.multigammaln(a, d)`: the log of the multivariate gamma
/// function, `d (d - 1) / 4 log(pi) + sum_{j=1..d} gammaln(a - (j - 1) / 2)`
/// (DLMF 35.3.1). SciPy requires `a > (d - 1) / 2` everywhere and raises
/// otherwise; so does this (which reads one bool back to the host).
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_array::creation::array([2.0, 3.5])?;
/// let m = gpu_special::multigammaln(&a, 3)?; // [1.59631, 3.89590]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `Value` "condition a > 0.5 * (d-1) (...) not met" as SciPy's (or `d`
/// of 0); no loop for the dtype; allocation or launch failed.
pub fn multigammaln(a: &Array, d: usize) -> Result<Array> {
    if d == 0 {
        return Err(Error::Value(
            "d should be a positive integer (dimension)".into(),
        ));
    }
    let half = 0.5 * (d as f64 - 1.0);
    let ok = gpu_array::logic::all(&ufunc::greater(a, half)?, ())?.to_scalar::<bool>()?;
    if !ok {
        return Err(Error::Value(format!(
            "condition a > 0.5 * (d-1) ({half}) not met"
        )));
    }
    let mut res = crate::gammaln(a)?;
    for j in 2..=d {
        let t = crate::gammaln(ufunc::subtract(a, (j as f64 - 1.0) / 2.0)?)?;
        res = ufunc::add(&res, &t)?;
    }
    let c = (d * (d - 1)) as f64 / 4.0 * std::f64::consts::PI.ln();
    ufunc::add(&res, c)
}
