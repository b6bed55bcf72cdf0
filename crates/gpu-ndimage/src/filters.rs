//! The correlation family and the separable filters of
//! `scipy.ndimage._filters`: `correlate1d`/`convolve1d` and the filters
//! made of successive 1-D passes over the axes (uniform, Gaussian and its
//! derivatives, Prewitt, Sobel, Laplace), with SciPy's checks, messages
//! and output dtypes. The intermediate results of a separable filter are
//! stored in the output's dtype, as SciPy stores them.

use gpu_array::layout::normalize_axis;
use gpu_array::{Array, DType, Error, Result, ufunc};

use crate::kernels::{Op1d, generic_1d};
use crate::output::{check_axes, contiguous, per_axis, via_real_parts};
use crate::separable::Pass1d;
use crate::weights::{gaussian_kernel1d, gaussian_radius};
use crate::{FilterOptions, Gaussian, Mode, Output};

fn check_origin_1d(origin: i64, len: usize) -> Result<()> {
    let len = len as i64;
    if origin < -(len / 2) || origin > (len - 1) / 2 {
        return Err(Error::Value(
            "Invalid origin; origin must satisfy -(len(weights) // 2) <= origin <= \
             (len(weights)-1) // 2"
                .into(),
        ));
    }
    Ok(())
}

/// A 1-D correlation along `axis`, checked.
fn correlate1d_pass(weights: &[f64], axis: usize, mode: Mode, origin: i64) -> Result<Pass1d> {
    if weights.is_empty() {
        return Err(Error::NumpyRuntime("no filter weights given".into()));
    }
    check_origin_1d(origin, weights.len())?;
    Ok(Pass1d::correlate(axis, weights.to_vec(), origin, mode))
}

/// SciPy's `correlate1d`: the 1-D correlation of `input` with `weights`
/// along `axis`: `out[i] = sum_j weights[j] * input[i + j - len/2 - origin]`,
/// reading past the edges by the mode (`reflect`). Any dtype but float16
/// and complex; the sum is in float64, as SciPy's.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::correlate1d;
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[2i64, 8, 0, 4, 1, 9, 9, 0], &[8])?;
/// let y = correlate1d(&x, &[1.0, 3.0], -1)?;
/// assert_eq!(y.to_vec::<i64>()?, [8, 26, 8, 12, 7, 28, 36, 9]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`correlate1d_with`].
pub fn correlate1d(input: &Array, weights: &[f64], axis: isize) -> Result<Array> {
    correlate1d_with(input, weights, axis, &FilterOptions::default())
}

/// [`correlate1d`] with SciPy's `output=`, `mode=`, `cval=` and `origin=`
/// (one mode, one origin).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{FilterOptions, Mode, correlate1d_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[2.0f64, 8., 0., 4.], &[4])?;
/// let o = FilterOptions::default().mode(Mode::Constant).cval(1.0).origin(-1);
/// let y = correlate1d_with(&x, &[1.0, 3.0], -1, &o)?; // [26, 8, 12, 13]
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: no weights ("no filter weights given"), an axis out of range,
/// an origin outside `-(len // 2)..=(len - 1) // 2` ("Invalid origin"),
/// an output array of another shape, an unsupported dtype; a sequence of
/// modes or origins, or `axes` (SciPy's function has no such keywords);
/// allocation or launch failures.
pub fn correlate1d_with(
    input: &Array,
    weights: &[f64],
    axis: isize,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    opts.refuse("correlate1d", false, true)?;
    if input.dtype().is_complex() {
        return via_real_parts(input, opts, |x, o| correlate1d_with(x, weights, axis, o));
    }
    let (mode, origin) = (
        opts.one_mode("correlate1d")?,
        opts.one_origin("correlate1d")?,
    );
    let dt = opts.output.dtype_for(input)?;
    let axis = normalize_axis(axis, input.ndim())?;
    let src = contiguous(input)?;
    let out = correlate1d_pass(weights, axis, mode, origin)?.run(&src, dt, opts.cval)?;
    opts.output.finish(out)
}

/// SciPy's `convolve1d`: [`correlate1d`] with the weights reversed and
/// the origin negated (less one for an even length).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::convolve1d;
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[2i64, 8, 0, 4, 1, 9, 9, 0], &[8])?;
/// let y = convolve1d(&x, &[1.0, 3.0], -1)?;
/// assert_eq!(y.to_vec::<i64>()?, [14, 24, 4, 13, 12, 36, 27, 0]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`correlate1d_with`].
pub fn convolve1d(input: &Array, weights: &[f64], axis: isize) -> Result<Array> {
    convolve1d_with(input, weights, axis, &FilterOptions::default())
}

/// [`convolve1d`] with SciPy's keywords (one mode, one origin).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{FilterOptions, Mode, convolve1d_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[2.0f64, 8., 0., 4.], &[4])?;
/// let y = convolve1d_with(&x, &[1.0, 3.0], 0, &FilterOptions::default().mode(Mode::Wrap))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`correlate1d_with`] (the origin checked after the flip, as SciPy).
pub fn convolve1d_with(
    input: &Array,
    weights: &[f64],
    axis: isize,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    let w: Vec<f64> = weights.iter().rev().copied().collect();
    let mut origin = -opts.one_origin("convolve1d")?;
    if w.len().is_multiple_of(2) {
        origin -= 1;
    }
    correlate1d_with(input, &w, axis, &opts.clone().origin(origin))
}

/// SciPy's window check of the uniform and minimum/maximum filters.
pub(crate) fn check_window(size: usize, origin: i64) -> Result<()> {
    if size < 1 {
        return Err(Error::NumpyRuntime("incorrect filter size".into()));
    }
    let half = (size / 2) as i64;
    if half + origin < 0 || half + origin >= size as i64 {
        return Err(Error::Value("invalid origin".into()));
    }
    Ok(())
}

/// SciPy's `uniform_filter1d`: the mean of `size` values along `axis`
/// (the window of [`correlate1d`] with `size` equal weights).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::uniform_filter1d;
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[2.0f64, 8., 0., 4., 1., 9., 9., 0.], &[8])?;
/// let y = uniform_filter1d(&x, 3, -1)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`uniform_filter1d_with`].
pub fn uniform_filter1d(input: &Array, size: usize, axis: isize) -> Result<Array> {
    uniform_filter1d_with(input, size, axis, &FilterOptions::default())
}

/// [`uniform_filter1d`] with SciPy's keywords (one mode, one origin).
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{FilterOptions, uniform_filter1d_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[1u8, 5, 9, 2], &[4])?;
/// let y = uniform_filter1d_with(&x, 3, -1, &FilterOptions::default().dtype(DType::Float32))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: a size of 0 ("incorrect filter size"), an origin with
/// `size // 2 + origin` outside the window ("invalid origin"), an axis out
/// of range, an output of another shape, an unsupported dtype; a sequence
/// of modes or origins, or `axes`.
pub fn uniform_filter1d_with(
    input: &Array,
    size: usize,
    axis: isize,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    opts.refuse("uniform_filter1d", false, true)?;
    if input.dtype().is_complex() {
        return via_real_parts(input, opts, |x, o| uniform_filter1d_with(x, size, axis, o));
    }
    let (mode, origin) = (
        opts.one_mode("uniform_filter1d")?,
        opts.one_origin("uniform_filter1d")?,
    );
    let axis = normalize_axis(axis, input.ndim())?;
    check_window(size, origin)?;
    let dt = opts.output.dtype_for(input)?;
    let src = contiguous(input)?;
    let out = Pass1d::unweighted(axis, size, Op1d::Mean, origin, mode).run(&src, dt, opts.cval)?;
    opts.output.finish(out)
}

/// Successive 1-D passes, SciPy's way: the first from `input` into the
/// output's dtype, each next one from the last one's result; no pass
/// copies the input (SciPy's `output[...] = input`).
fn separable(input: &Array, output: Output<'_>, passes: &[Pass1d], cval: f64) -> Result<Array> {
    let dt = output.dtype_for(input)?;
    let cur = contiguous(input)?;
    if passes.is_empty() {
        let out = if cur.dtype() == dt {
            cur.copy()?
        } else {
            cur.astype(dt)?
        };
        return output.finish(out);
    }
    output.finish(crate::separable::run(cur, dt, passes, cval)?)
}

/// SciPy's `uniform_filter`: the mean over a box of side `size` along
/// every axis ([`uniform_filter1d`] along each).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::uniform_filter;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(20)?.reshape((4, 5))?.astype(DType::Float32)?;
/// let y = uniform_filter(&x, 3)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`uniform_filter_with`].
pub fn uniform_filter(input: &Array, size: usize) -> Result<Array> {
    uniform_filter_with(input, &[size], &FilterOptions::default())
}

/// SciPy's `uniform_filter` with its keywords: [`uniform_filter1d`] along
/// each axis of `axes` whose size exceeds 1. `size`, the modes and the
/// origins hold one value for every axis or one per axis of `axes`.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FilterOptions, Mode, uniform_filter_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(20)?.reshape((4, 5))?.astype(DType::Float32)?;
/// let o = FilterOptions::default().modes(&[Mode::Nearest, Mode::Wrap]);
/// let y = uniform_filter_with(&x, &[3, 5], &o)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`uniform_filter1d_with`]; a sequence of the wrong length
/// ("sequence argument must have length equal to input rank"); bad or
/// repeated axes.
pub fn uniform_filter_with(
    input: &Array,
    size: &[usize],
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    if input.dtype().is_complex() {
        return via_real_parts(input, opts, |x, o| uniform_filter_with(x, size, o));
    }
    let axes = check_axes(opts.axes_slice(), input.ndim())?;
    let sizes = per_axis(size, axes.len())?;
    let origins = per_axis(&opts.origin, axes.len())?;
    let modes = per_axis(&opts.mode, axes.len())?;
    let mut passes = Vec::new();
    for (i, &axis) in axes.iter().enumerate() {
        let (size, origin, mode) = (sizes[i], origins[i], modes[i]);
        if size <= 1 {
            continue;
        }
        check_window(size, origin)?;
        passes.push(Pass1d::unweighted(axis, size, Op1d::Mean, origin, mode));
    }
    separable(input, opts.output, &passes, opts.cval)
}

/// SciPy's `gaussian_filter1d`: the correlation along `axis` with the
/// Gaussian of standard deviation `sigma`, `int(4 * sigma + 0.5)` values
/// each side.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::gaussian_filter1d;
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[1.0f64, 2., 3., 4., 5.], &[5])?;
/// let y = gaussian_filter1d(&x, 1.0, -1)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`gaussian_filter1d_with`].
pub fn gaussian_filter1d(input: &Array, sigma: f64, axis: isize) -> Result<Array> {
    gaussian_filter1d_with(
        input,
        &Gaussian::new(sigma),
        axis,
        &FilterOptions::default(),
    )
}

/// [`gaussian_filter1d`] of the kernel `g` (one sigma, one derivative
/// order, `truncate` or one radius) with SciPy's keywords (one mode).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{FilterOptions, Gaussian, Mode, gaussian_filter1d_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[1.0f64, 2., 3., 4., 5.], &[5])?;
/// let dx = gaussian_filter1d_with(&x, &Gaussian::new(1.0).order(1), 0, &FilterOptions::default().mode(Mode::Nearest))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: a negative radius, given or made by a negative sigma
/// ("Radius must be a nonnegative integer."), a negative order ("order
/// must be non-negative"), an axis out of range, an output of another
/// shape, an unsupported dtype; more than one sigma, order or radius; an
/// origin or `axes` (SciPy's function has neither).
pub fn gaussian_filter1d_with(
    input: &Array,
    g: &Gaussian,
    axis: isize,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    opts.refuse("gaussian_filter1d", true, true)?;
    let (sigma, order, radius) = g.one()?;
    let lw = gaussian_radius(sigma, g.truncate, radius)?;
    let mut w = gaussian_kernel1d(sigma, order, lw)?;
    w.reverse();
    correlate1d_with(input, &w, axis, opts)
}

/// SciPy's `gaussian_filter`: the Gaussian of standard deviation `sigma`
/// along every axis (separable 1-D passes).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::gaussian_filter;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float32)?;
/// let y = gaussian_filter(&x, 2.0)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`gaussian_filter_with`].
pub fn gaussian_filter(input: &Array, sigma: f64) -> Result<Array> {
    gaussian_filter_with(input, &Gaussian::new(sigma), &FilterOptions::default())
}

/// SciPy's `gaussian_filter` of the kernel `g` with its keywords:
/// [`gaussian_filter1d`] along each axis of `axes` whose sigma exceeds
/// 1e-15. The kernel's sigmas, orders and radii and the modes hold one
/// value for every axis or one per axis of `axes`.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FilterOptions, Gaussian, Mode, gaussian_filter_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float32)?;
/// let g = Gaussian::sigmas(&[2.0, 1.0]).orders(&[0, 1]).truncate(3.0);
/// let y = gaussian_filter_with(&x, &g, &FilterOptions::default().mode(Mode::Mirror))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`gaussian_filter1d_with`]; a sequence of the wrong length; bad or
/// repeated axes; an origin (SciPy's function has none).
pub fn gaussian_filter_with(
    input: &Array,
    g: &Gaussian,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    opts.refuse("gaussian_filter", true, false)?;
    if input.dtype().is_complex() {
        return via_real_parts(input, opts, |x, o| gaussian_filter_with(x, g, o));
    }
    let axes = check_axes(opts.axes_slice(), input.ndim())?;
    let n = axes.len();
    let orders = per_axis(&g.order, n)?;
    let sigmas = per_axis(&g.sigma, n)?;
    let modes = per_axis(&opts.mode, n)?;
    let radii: Vec<Option<i64>> = match &g.radius {
        Some(r) => per_axis(r, n)?.into_iter().map(Some).collect(),
        None => vec![None; n],
    };
    let mut passes = Vec::new();
    for (i, &axis) in axes.iter().enumerate() {
        if sigmas[i] <= 1e-15 {
            continue;
        }
        let lw = gaussian_radius(sigmas[i], g.truncate, radii[i])?;
        let mut w = gaussian_kernel1d(sigmas[i], orders[i], lw)?;
        w.reverse();
        passes.push(correlate1d_pass(&w, axis, modes[i], 0)?);
    }
    separable(input, opts.output, &passes, opts.cval)
}

/// The passes of Prewitt's and Sobel's filters: the derivative `[-1, 0,
/// 1]` along `axis`, `smooth` along every other axis.
fn edge_filter(
    input: &Array,
    axis: isize,
    opts: &FilterOptions<'_>,
    name: &str,
    smooth: [f64; 3],
) -> Result<Array> {
    opts.refuse(name, true, true)?;
    if input.dtype().is_complex() {
        return via_real_parts(input, opts, |x, o| edge_filter(x, axis, o, name, smooth));
    }
    let ndim = input.ndim();
    let axis = normalize_axis(axis, ndim)?;
    let modes = per_axis(&opts.mode, ndim)?;
    let mut passes = vec![correlate1d_pass(&[-1.0, 0.0, 1.0], axis, modes[axis], 0)?];
    for ii in (0..ndim).filter(|&ii| ii != axis) {
        passes.push(correlate1d_pass(&smooth, ii, modes[ii], 0)?);
    }
    separable(input, opts.output, &passes, opts.cval)
}

/// SciPy's `prewitt`: the derivative along `axis`, smoothed by `[1, 1, 1]`
/// along the other axes.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::prewitt;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let dx = prewitt(&x, 1)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`prewitt_with`].
pub fn prewitt(input: &Array, axis: isize) -> Result<Array> {
    prewitt_with(input, axis, &FilterOptions::default())
}

/// [`prewitt`] with SciPy's `output=`, `mode=` (one, or one per axis) and
/// `cval=`.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FilterOptions, Mode, prewitt_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let dx = prewitt_with(&x, 1, &FilterOptions::default().mode(Mode::Constant))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// An axis out of range; a mode sequence of the wrong length; an output
/// of another shape; an unsupported dtype; an origin or `axes` (SciPy's
/// function has neither).
pub fn prewitt_with(input: &Array, axis: isize, opts: &FilterOptions<'_>) -> Result<Array> {
    edge_filter(input, axis, opts, "prewitt", [1.0, 1.0, 1.0])
}

/// SciPy's `sobel`: the derivative along `axis`, smoothed by `[1, 2, 1]`
/// along the other axes.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::sobel;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let dy = sobel(&x, 0)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`prewitt_with`].
pub fn sobel(input: &Array, axis: isize) -> Result<Array> {
    sobel_with(input, axis, &FilterOptions::default())
}

/// [`sobel`] with SciPy's `output=`, `mode=` and `cval=`.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FilterOptions, sobel_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let dy = sobel_with(&x, 0, &FilterOptions::default().dtype(DType::Float32))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`prewitt_with`].
pub fn sobel_with(input: &Array, axis: isize, opts: &FilterOptions<'_>) -> Result<Array> {
    edge_filter(input, axis, opts, "sobel", [1.0, 2.0, 1.0])
}

/// `r` as `dt` (the caller's derivative may hand back another dtype).
fn as_dtype(r: Array, dt: DType, shape: &[usize]) -> Result<Array> {
    if r.shape() != shape {
        return Err(Error::Value(format!(
            "a derivative returned shape {:?} for input shape {shape:?}",
            r.shape()
        )));
    }
    if r.dtype() == dt { Ok(r) } else { r.astype(dt) }
}

/// The derivative SciPy's `generic_laplace` and
/// `generic_gradient_magnitude` call: `(input, axis, output dtype, mode,
/// cval)` to the derivative along `axis` (SciPy's Python callable; extra
/// arguments are the closure's captures).
pub type Derivative<'f> = dyn Fn(&Array, usize, DType, Mode, f64) -> Result<Array> + 'f;

/// SciPy's `generic_laplace`: the sum over every axis of
/// `derivative2(input, axis, dtype, mode, cval)`, the second derivative
/// along one axis as the caller computes it. The sum is in the output's
/// dtype (each term cast to it, as SciPy's `output += tmp`).
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{FilterOptions, Mode, correlate1d_with, generic_laplace};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let d2 = |a: &Array, axis: usize, dt: DType, mode: Mode, cval: f64| {
///     let o = FilterOptions::default().dtype(dt).mode(mode).cval(cval);
///     correlate1d_with(a, &[1.0, -2.0, 1.0], axis as isize, &o)
/// };
/// let y = generic_laplace(&x, &d2)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`generic_laplace_with`].
pub fn generic_laplace(input: &Array, derivative2: &Derivative<'_>) -> Result<Array> {
    generic_laplace_with(input, derivative2, &FilterOptions::default())
}

/// [`generic_laplace`] over `axes` with SciPy's `output=`, `mode=` (one,
/// or one per axis of `axes`, handed to the derivative) and `cval=`.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{FilterOptions, Mode, correlate1d_with, generic_laplace_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let d2 = |a: &Array, axis: usize, dt: DType, mode: Mode, cval: f64| {
///     let o = FilterOptions::default().dtype(dt).mode(mode).cval(cval);
///     correlate1d_with(a, &[1.0, -2.0, 1.0], axis as isize, &o)
/// };
/// let y = generic_laplace_with(&x, &d2, &FilterOptions::default().axes(&[1]).mode(Mode::Wrap))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// The derivative's errors, or an array of another shape from it; a mode
/// sequence of the wrong length; bad or repeated axes; an output of
/// another shape; an unsupported dtype; a real output of complex input
/// ("output must have complex dtype"); an origin (SciPy's function has
/// none).
pub fn generic_laplace_with(
    input: &Array,
    derivative2: &Derivative<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    opts.refuse("generic_laplace", true, false)?;
    let output = opts.output;
    let dt = output.dtype_for_linear(input)?;
    let axes = check_axes(opts.axes_slice(), input.ndim())?;
    if axes.is_empty() {
        return output.finish(input.astype(dt)?);
    }
    let modes = per_axis(&opts.mode, axes.len())?;
    let cval = opts.cval;
    let shape = input.shape().to_vec();
    let mut acc = as_dtype(derivative2(input, axes[0], dt, modes[0], cval)?, dt, &shape)?;
    for (i, &axis) in axes.iter().enumerate().skip(1) {
        let tmp = as_dtype(derivative2(input, axis, dt, modes[i], cval)?, dt, &shape)?;
        acc = as_dtype(ufunc::add(&acc, &tmp)?, dt, &shape)?;
    }
    output.finish(acc)
}

/// SciPy's `laplace`: [`generic_laplace`] with the second differences
/// `[1, -2, 1]`.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::laplace;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let y = laplace(&x)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`generic_laplace_with`].
pub fn laplace(input: &Array) -> Result<Array> {
    laplace_with(input, &FilterOptions::default())
}

/// [`laplace`] with SciPy's `output=`, `mode=`, `cval=` and `axes=`.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FilterOptions, Mode, laplace_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let y = laplace_with(&x, &FilterOptions::default().mode(Mode::Nearest).axes(&[0]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`generic_laplace_with`].
pub fn laplace_with(input: &Array, opts: &FilterOptions<'_>) -> Result<Array> {
    if input.dtype().is_complex() {
        return via_real_parts(input, opts, laplace_with);
    }
    opts.refuse("laplace", true, false)?;
    let d2 = |a: &Array, axis: usize, dt: DType, mode: Mode, cval: f64| {
        let src = contiguous(a)?;
        correlate1d_pass(&[1.0, -2.0, 1.0], axis, mode, 0)?.run(&src, dt, cval)
    };
    generic_laplace_with(input, &d2, opts)
}

/// The full-rank sigmas of SciPy's `gaussian_laplace` and
/// `gaussian_gradient_magnitude`: the given ones on `axes`, 0 elsewhere.
fn full_sigmas(sigma: &[f64], axes: &[usize], ndim: usize) -> Result<Vec<f64>> {
    let s = per_axis(sigma, axes.len())?;
    let mut full = vec![0.0; ndim];
    for (v, &ax) in s.iter().zip(axes) {
        full[ax] = *v;
    }
    Ok(full)
}

/// The Gaussian derivative of `order` along `axis` (0 along the others),
/// one mode for every axis: SciPy's inner `gaussian_filter` call.
fn gaussian_derivative(
    a: &Array,
    g: &Gaussian,
    sigmas: &[f64],
    (axis, order): (usize, i64),
    (dt, mode, cval): (DType, Mode, f64),
) -> Result<Array> {
    let mut orders = vec![0i64; a.ndim()];
    orders[axis] = order;
    let mut k = Gaussian::sigmas(sigmas)
        .orders(&orders)
        .truncate(g.truncate);
    k.radius = g.radius.clone();
    let opts = FilterOptions::default().dtype(dt).mode(mode).cval(cval);
    gaussian_filter_with(a, &k, &opts)
}

/// A Gaussian derivative filter's kernel: its orders are the filter's.
fn check_no_order(g: &Gaussian, func: &str) -> Result<()> {
    if g.order.iter().any(|&o| o != 0) {
        return Err(Error::Value(format!(
            "{func}() got multiple values for keyword argument 'order'"
        )));
    }
    Ok(())
}

/// SciPy's `gaussian_laplace`: the Laplacian by second derivatives of the
/// Gaussian of standard deviation `sigma`.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::gaussian_laplace;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(64)?.reshape((8, 8))?.astype(DType::Float64)?;
/// let y = gaussian_laplace(&x, 1.5)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`gaussian_laplace_with`].
pub fn gaussian_laplace(input: &Array, sigma: f64) -> Result<Array> {
    gaussian_laplace_with(input, &Gaussian::new(sigma), &FilterOptions::default())
}

/// [`gaussian_laplace`] of the kernel `g` (sigmas one or one per axis of
/// `axes`, `truncate` or radii; no orders) with SciPy's keywords.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FilterOptions, Gaussian, Mode, gaussian_laplace_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(64)?.reshape((8, 8))?.astype(DType::Float64)?;
/// let y = gaussian_laplace_with(&x, &Gaussian::sigmas(&[1.0, 2.0]), &FilterOptions::default().mode(Mode::Wrap))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`gaussian_filter_with`] and [`generic_laplace_with`]; a kernel
/// with orders.
pub fn gaussian_laplace_with(
    input: &Array,
    g: &Gaussian,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    if input.dtype().is_complex() {
        return via_real_parts(input, opts, |x, o| gaussian_laplace_with(x, g, o));
    }
    check_no_order(g, "gaussian_laplace")?;
    opts.refuse("gaussian_laplace", true, false)?;
    let ax = check_axes(opts.axes_slice(), input.ndim())?;
    let sigmas = full_sigmas(&g.sigma, &ax, input.ndim())?;
    let d2 = |a: &Array, axis: usize, dt: DType, mode: Mode, cval: f64| {
        gaussian_derivative(a, g, &sigmas, (axis, 2), (dt, mode, cval))
    };
    generic_laplace_with(input, &d2, opts)
}

/// SciPy's `generic_gradient_magnitude`: the square root of the sum over
/// every axis of the squares of `derivative(input, axis, dtype, mode,
/// cval)`, computed in the output's dtype as SciPy's in-place `multiply`,
/// `+=` and unsafe-cast `sqrt`.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{FilterOptions, Mode, generic_gradient_magnitude, sobel_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let d = |a: &Array, axis: usize, dt: DType, mode: Mode, cval: f64| {
///     sobel_with(a, axis as isize, &FilterOptions::default().dtype(dt).mode(mode).cval(cval))
/// };
/// let y = generic_gradient_magnitude(&x, &d)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`generic_gradient_magnitude_with`].
pub fn generic_gradient_magnitude(input: &Array, derivative: &Derivative<'_>) -> Result<Array> {
    generic_gradient_magnitude_with(input, derivative, &FilterOptions::default())
}

/// [`generic_gradient_magnitude`] over `axes` with SciPy's `output=`,
/// `mode=` (one, or one per axis of `axes`) and `cval=`.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{FilterOptions, Mode, generic_gradient_magnitude_with, prewitt_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let d = |a: &Array, axis: usize, dt: DType, mode: Mode, cval: f64| {
///     prewitt_with(a, axis as isize, &FilterOptions::default().dtype(dt).mode(mode).cval(cval))
/// };
/// let y = generic_gradient_magnitude_with(&x, &d, &FilterOptions::default().mode(Mode::Nearest))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`generic_laplace_with`].
pub fn generic_gradient_magnitude_with(
    input: &Array,
    derivative: &Derivative<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    opts.refuse("generic_gradient_magnitude", true, false)?;
    let output = opts.output;
    let dt = output.dtype_for_linear(input)?;
    let axes = check_axes(opts.axes_slice(), input.ndim())?;
    if axes.is_empty() {
        return output.finish(input.astype(dt)?);
    }
    let modes = per_axis(&opts.mode, axes.len())?;
    let cval = opts.cval;
    let shape = input.shape().to_vec();
    let mut acc = as_dtype(derivative(input, axes[0], dt, modes[0], cval)?, dt, &shape)?;
    acc = as_dtype(ufunc::multiply(&acc, &acc)?, dt, &shape)?;
    for (i, &axis) in axes.iter().enumerate().skip(1) {
        let tmp = as_dtype(derivative(input, axis, dt, modes[i], cval)?, dt, &shape)?;
        let sq = as_dtype(ufunc::multiply(&tmp, &tmp)?, dt, &shape)?;
        acc = as_dtype(ufunc::add(&acc, &sq)?, dt, &shape)?;
    }
    let root = ufunc::sqrt(&acc)?;
    output.finish(as_dtype(root, dt, &shape)?)
}

/// SciPy's `gaussian_gradient_magnitude`: the gradient's magnitude by
/// first derivatives of the Gaussian of standard deviation `sigma`.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::gaussian_gradient_magnitude;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(64)?.reshape((8, 8))?.astype(DType::Float64)?;
/// let y = gaussian_gradient_magnitude(&x, 1.0)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`gaussian_gradient_magnitude_with`].
pub fn gaussian_gradient_magnitude(input: &Array, sigma: f64) -> Result<Array> {
    gaussian_gradient_magnitude_with(input, &Gaussian::new(sigma), &FilterOptions::default())
}

/// [`gaussian_gradient_magnitude`] of the kernel `g` (no orders) with
/// SciPy's keywords.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FilterOptions, Gaussian, gaussian_gradient_magnitude_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(64)?.reshape((8, 8))?.astype(DType::Float64)?;
/// let y = gaussian_gradient_magnitude_with(&x, &Gaussian::new(1.0).truncate(3.0), &FilterOptions::default().axes(&[1]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`gaussian_filter_with`] and [`generic_gradient_magnitude_with`]; a
/// kernel with orders.
pub fn gaussian_gradient_magnitude_with(
    input: &Array,
    g: &Gaussian,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    check_no_order(g, "gaussian_gradient_magnitude")?;
    opts.refuse("gaussian_gradient_magnitude", true, false)?;
    let ax = check_axes(opts.axes_slice(), input.ndim())?;
    let sigmas = full_sigmas(&g.sigma, &ax, input.ndim())?;
    let d = |a: &Array, axis: usize, dt: DType, mode: Mode, cval: f64| {
        gaussian_derivative(a, g, &sigmas, (axis, 1), (dt, mode, cval))
    };
    generic_gradient_magnitude_with(input, &d, opts)
}

/// SciPy's `generic_filter1d` with the function as CUDA source (CuPy
/// takes a raw kernel there; SciPy a Python callable): `function` defines
///
/// ```text
/// __device__ void function(const double* input_line, long long input_length,
///                          double* output_line, long long output_length)
/// ```
///
/// which gets one line along `axis` as float64, extended by
/// `filter_size // 2 + origin` values before and the rest of
/// `filter_size - 1` after (read past the edges by reflection), and writes
/// the line's `output_length` results. One thread a line; compiled once
/// per source.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::generic_filter1d;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(20)?.reshape((4, 5))?.astype(DType::Float64)?;
/// // A running sum of 3 values.
/// let sum3 = "__device__ void function(const double* in, long long il, double* out, long long ol) {
///     for (long long i = 0; i < ol; ++i) out[i] = in[i] + in[i + 1] + in[i + 2]; }";
/// let y = generic_filter1d(&x, sum3, 3, -1)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`generic_filter1d_with`].
pub fn generic_filter1d(
    input: &Array,
    function: &str,
    filter_size: usize,
    axis: isize,
) -> Result<Array> {
    generic_filter1d_with(
        input,
        function,
        filter_size,
        axis,
        &FilterOptions::default(),
    )
}

/// [`generic_filter1d`] with SciPy's keywords (one mode, one origin).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FilterOptions, Mode, generic_filter1d_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(20)?.reshape((4, 5))?.astype(DType::Float32)?;
/// let diff = "__device__ void function(const double* in, long long il, double* out, long long ol) {
///     for (long long i = 0; i < ol; ++i) out[i] = in[i + 1] - in[i]; }";
/// let o = FilterOptions::default().mode(Mode::Nearest).origin(-1);
/// let y = generic_filter1d_with(&x, diff, 2, 0, &o)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: a filter size of 0 ("invalid filter size"), an origin outside
/// the window ("invalid origin"), an axis out of range, complex input
/// ("Complex type not supported"), an output of another shape, an
/// unsupported dtype; a sequence of modes or origins, or `axes`; the
/// function's compile errors (NVRTC's log).
pub fn generic_filter1d_with(
    input: &Array,
    function: &str,
    filter_size: usize,
    axis: isize,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    opts.refuse("generic_filter1d", false, true)?;
    if input.dtype().is_complex() {
        return Err(Error::DType("Complex type not supported".into()));
    }
    if filter_size < 1 {
        return Err(Error::NumpyRuntime("invalid filter size".into()));
    }
    let (mode, origin) = (
        opts.one_mode("generic_filter1d")?,
        opts.one_origin("generic_filter1d")?,
    );
    let axis = normalize_axis(axis, input.ndim())?;
    let half = (filter_size / 2) as i64;
    if half + origin < 0 || half + origin >= filter_size as i64 {
        return Err(Error::Value("invalid origin".into()));
    }
    let dt = opts.output.dtype_for(input)?;
    let ax = axis as isize;
    // Lines along the last axis, C-contiguous float64: one row a line.
    let moved = input.moveaxis(&[ax], &[-1])?.astype(DType::Float64)?;
    let moved = if moved.is_c_contiguous() {
        moved
    } else {
        moved.copy()?
    };
    let n = input.shape()[axis];
    let lines = input.size().checked_div(n).unwrap_or(0);
    let rows = moved.reshape([lines as isize, n as isize])?;
    let left = (half + origin) as usize;
    let r = generic_1d(&rows, filter_size, left, function, mode, opts.cval)?;
    let r = r.reshape(
        moved
            .shape()
            .iter()
            .map(|&d| d as isize)
            .collect::<Vec<_>>(),
    )?;
    let r = r.moveaxis(&[-1], &[ax])?.copy()?;
    let r = if r.dtype() == dt { r } else { r.astype(dt)? };
    opts.output.finish(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::separable::correlate_op;

    #[test]
    fn origin_and_window_checks_are_scipys() {
        check_origin_1d(0, 1).unwrap();
        check_origin_1d(-1, 2).unwrap();
        check_origin_1d(0, 2).unwrap();
        let e = check_origin_1d(1, 2).unwrap_err().to_string();
        assert!(e.starts_with("Invalid origin; origin must satisfy"), "{e}");
        check_origin_1d(-2, 5).unwrap();
        check_origin_1d(2, 5).unwrap();
        assert!(check_origin_1d(-3, 5).is_err() && check_origin_1d(3, 5).is_err());
        check_window(4, -2).unwrap();
        check_window(4, 1).unwrap();
        assert_eq!(
            check_window(4, 2).unwrap_err().to_string(),
            "invalid origin"
        );
        assert_eq!(
            check_window(3, -2).unwrap_err().to_string(),
            "invalid origin"
        );
        assert_eq!(
            check_window(0, 0).unwrap_err().to_string(),
            "incorrect filter size"
        );
    }

    #[test]
    fn summation_order_follows_the_weights() {
        assert_eq!(correlate_op(&[1.0, 2.0, 1.0]), Op1d::Symmetric);
        assert_eq!(correlate_op(&[-1.0, 0.0, 1.0]), Op1d::Antisymmetric);
        assert_eq!(correlate_op(&[1.0, 3.0]), Op1d::Correlate);
    }
}
