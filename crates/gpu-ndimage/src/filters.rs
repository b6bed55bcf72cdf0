//! The correlation family and the separable filters of
//! `scipy.ndimage._filters`: `correlate1d`/`convolve1d` and the filters
//! made of successive 1-D passes over the axes (uniform, Gaussian and its
//! derivatives, Prewitt, Sobel, Laplace), with SciPy's checks, messages
//! and output dtypes. The intermediate results of a separable filter are
//! stored in the output's dtype, as SciPy stores them.

use gpu_array::layout::normalize_axis;
use gpu_array::{Array, DType, Error, Result, ufunc};

use crate::kernels::{Op1d, window1d};
use crate::output::{check_axes, contiguous, per_axis};
use crate::weights::{gaussian_kernel1d, gaussian_radius, symmetry};
use crate::{Mode, Output};

/// One 1-D pass of `src` (C-contiguous) along `axis` into a new array of
/// `dt`; `weights` for the weighted ops. The window and origin are the
/// caller's to check.
#[allow(clippy::too_many_arguments)]
fn pass(
    src: &Array,
    dt: DType,
    axis: usize,
    size: usize,
    weights: Option<&[f64]>,
    op: Op1d,
    origin: i64,
    mode: Mode,
    cval: f64,
) -> Result<Array> {
    let out = Array::empty(src.shape(), dt)?;
    let w = match weights {
        Some(w) => Some(Array::from_slice(w, &[w.len()])?),
        None => None,
    };
    window1d(src, &out, axis, size, w.as_ref(), op, origin, mode, cval)?;
    Ok(out)
}

/// The op that sums `w` in SciPy's order.
fn correlate_op(w: &[f64]) -> Op1d {
    match symmetry(w) {
        1 => Op1d::Symmetric,
        -1 => Op1d::Antisymmetric,
        _ => Op1d::Correlate,
    }
}

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

/// A 1-D correlation of `src` (C-contiguous) along `axis`, checked.
fn correlate1d_pass(
    src: &Array,
    weights: &[f64],
    axis: usize,
    dt: DType,
    mode: Mode,
    cval: f64,
    origin: i64,
) -> Result<Array> {
    if weights.is_empty() {
        return Err(Error::NumpyRuntime("no filter weights given".into()));
    }
    check_origin_1d(origin, weights.len())?;
    pass(
        src,
        dt,
        axis,
        weights.len(),
        Some(weights),
        correlate_op(weights),
        origin,
        mode,
        cval,
    )
}

/// SciPy's `correlate1d`: the 1-D correlation of `input` with `weights`
/// along `axis`: `out[i] = sum_j weights[j] * input[i + j - len/2 - origin]`,
/// reading past the edges by `mode` (`cval` for the constant modes).
/// Any dtype but float16 and complex; the sum is in float64, as SciPy's.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{Mode, Output, correlate1d};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[2i64, 8, 0, 4, 1, 9, 9, 0], &[8])?;
/// let y = correlate1d(&x, &[1.0, 3.0], -1, Output::None, Mode::Reflect, 0.0, 0)?;
/// assert_eq!(y.to_vec::<i64>()?, [8, 26, 8, 12, 7, 28, 36, 9]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: no weights ("no filter weights given"), an axis out of range,
/// an origin outside `-(len // 2)..=(len - 1) // 2` ("Invalid origin"),
/// an output array of another shape, an unsupported dtype; allocation or
/// launch failures.
pub fn correlate1d(
    input: &Array,
    weights: &[f64],
    axis: isize,
    output: Output<'_>,
    mode: Mode,
    cval: f64,
    origin: i64,
) -> Result<Array> {
    let dt = output.dtype_for(input)?;
    let axis = normalize_axis(axis, input.ndim())?;
    let src = contiguous(input)?;
    let out = correlate1d_pass(&src, weights, axis, dt, mode, cval, origin)?;
    output.finish(out)
}

/// SciPy's `convolve1d`: [`correlate1d`] with the weights reversed and
/// the origin negated (less one for an even length).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{Mode, Output, convolve1d};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[2i64, 8, 0, 4, 1, 9, 9, 0], &[8])?;
/// let y = convolve1d(&x, &[1.0, 3.0], -1, Output::None, Mode::Reflect, 0.0, 0)?;
/// assert_eq!(y.to_vec::<i64>()?, [14, 24, 4, 13, 12, 36, 27, 0]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`correlate1d`] (the origin checked after the flip, as SciPy).
pub fn convolve1d(
    input: &Array,
    weights: &[f64],
    axis: isize,
    output: Output<'_>,
    mode: Mode,
    cval: f64,
    origin: i64,
) -> Result<Array> {
    let w: Vec<f64> = weights.iter().rev().copied().collect();
    let mut origin = -origin;
    if w.len().is_multiple_of(2) {
        origin -= 1;
    }
    correlate1d(input, &w, axis, output, mode, cval, origin)
}

/// SciPy's window check of the uniform and minimum/maximum 1-D filters.
fn check_window(size: usize, origin: i64) -> Result<()> {
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
/// use gpu_ndimage::{Mode, Output, uniform_filter1d};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[2.0f64, 8., 0., 4., 1., 9., 9., 0.], &[8])?;
/// let y = uniform_filter1d(&x, 3, -1, Output::None, Mode::Reflect, 0.0, 0)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: a size of 0 ("incorrect filter size"), an origin with
/// `size // 2 + origin` outside the window ("invalid origin"), an axis out
/// of range, an output of another shape, an unsupported dtype.
pub fn uniform_filter1d(
    input: &Array,
    size: usize,
    axis: isize,
    output: Output<'_>,
    mode: Mode,
    cval: f64,
    origin: i64,
) -> Result<Array> {
    let axis = normalize_axis(axis, input.ndim())?;
    check_window(size, origin)?;
    let dt = output.dtype_for(input)?;
    let src = contiguous(input)?;
    let out = pass(&src, dt, axis, size, None, Op1d::Mean, origin, mode, cval)?;
    output.finish(out)
}

/// Successive 1-D passes, SciPy's way: the first from `input` into the
/// output's dtype, each next one from the last one's result; no pass
/// copies the input (SciPy's `output[...] = input`).
fn separable(input: &Array, output: Output<'_>, passes: &[Pass<'_>]) -> Result<Array> {
    let dt = output.dtype_for(input)?;
    let mut cur = contiguous(input)?;
    if passes.is_empty() {
        let out = if cur.dtype() == dt {
            cur.copy()?
        } else {
            cur.astype(dt)?
        };
        return output.finish(out);
    }
    for (axis, f) in passes {
        cur = f(&cur, dt, *axis)?;
    }
    output.finish(cur)
}

type Pass<'a> = (
    usize,
    Box<dyn Fn(&Array, DType, usize) -> Result<Array> + 'a>,
);

/// SciPy's `uniform_filter`: [`uniform_filter1d`] along each axis of
/// `axes` (every axis for `None`) whose size exceeds 1. `size`, `mode` and
/// `origin` hold one value for every axis or one an axis of `axes`.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{Mode, Output, uniform_filter};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(20)?.reshape((4, 5))?.astype(DType::Float32)?;
/// let y = uniform_filter(&x, &[3], Output::None, &[Mode::Reflect], 0.0, &[0], None)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`uniform_filter1d`]; a sequence of the wrong length ("sequence
/// argument must have length equal to input rank"); bad or repeated axes.
pub fn uniform_filter(
    input: &Array,
    size: &[usize],
    output: Output<'_>,
    mode: &[Mode],
    cval: f64,
    origin: &[i64],
    axes: Option<&[isize]>,
) -> Result<Array> {
    let axes = check_axes(axes, input.ndim())?;
    let sizes = per_axis(size, axes.len())?;
    let origins = per_axis(origin, axes.len())?;
    let modes = per_axis(mode, axes.len())?;
    let mut passes: Vec<Pass<'_>> = Vec::new();
    for (i, &axis) in axes.iter().enumerate() {
        let (size, origin, mode) = (sizes[i], origins[i], modes[i]);
        if size <= 1 {
            continue;
        }
        check_window(size, origin)?;
        passes.push((
            axis,
            Box::new(move |src, dt, ax| {
                pass(src, dt, ax, size, None, Op1d::Mean, origin, mode, cval)
            }),
        ));
    }
    separable(input, output, &passes)
}

/// SciPy's `gaussian_filter1d`: the correlation along `axis` with the
/// Gaussian of standard deviation `sigma` (or its `order`-th derivative),
/// `radius` (default `int(truncate * sigma + 0.5)`) values each side.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{Mode, Output, gaussian_filter1d};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[1.0f64, 2., 3., 4., 5.], &[5])?;
/// let y = gaussian_filter1d(&x, 1.0, -1, 0, Output::None, Mode::Reflect, 0.0, 4.0, None)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: a negative radius, given or made by a negative sigma
/// ("Radius must be a nonnegative integer."), a negative order ("order
/// must be non-negative"), an axis out of range, an output of another
/// shape, an unsupported dtype.
#[allow(clippy::too_many_arguments)] // SciPy's positional signature
pub fn gaussian_filter1d(
    input: &Array,
    sigma: f64,
    axis: isize,
    order: i64,
    output: Output<'_>,
    mode: Mode,
    cval: f64,
    truncate: f64,
    radius: Option<i64>,
) -> Result<Array> {
    let lw = gaussian_radius(sigma, truncate, radius)?;
    let mut w = gaussian_kernel1d(sigma, order, lw)?;
    w.reverse();
    correlate1d(input, &w, axis, output, mode, cval, 0)
}

/// SciPy's `gaussian_filter`: [`gaussian_filter1d`] along each axis of
/// `axes` (every axis for `None`) whose sigma exceeds 1e-15. `sigma`,
/// `order`, `mode` and `radius` hold one value for every axis or one an
/// axis of `axes`.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{Mode, Output, gaussian_filter};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float32)?;
/// let y = gaussian_filter(&x, &[2.0], &[0], Output::None, &[Mode::Reflect], 0.0, 4.0, None, None)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`gaussian_filter1d`]; a sequence of the wrong length; bad or
/// repeated axes.
#[allow(clippy::too_many_arguments)] // SciPy's positional signature
pub fn gaussian_filter(
    input: &Array,
    sigma: &[f64],
    order: &[i64],
    output: Output<'_>,
    mode: &[Mode],
    cval: f64,
    truncate: f64,
    radius: Option<&[i64]>,
    axes: Option<&[isize]>,
) -> Result<Array> {
    let axes = check_axes(axes, input.ndim())?;
    let n = axes.len();
    let orders = per_axis(order, n)?;
    let sigmas = per_axis(sigma, n)?;
    let modes = per_axis(mode, n)?;
    let radii: Vec<Option<i64>> = match radius {
        Some(r) => per_axis(r, n)?.into_iter().map(Some).collect(),
        None => vec![None; n],
    };
    let mut passes: Vec<Pass<'_>> = Vec::new();
    for (i, &axis) in axes.iter().enumerate() {
        if sigmas[i] <= 1e-15 {
            continue;
        }
        let lw = gaussian_radius(sigmas[i], truncate, radii[i])?;
        let mut w = gaussian_kernel1d(sigmas[i], orders[i], lw)?;
        w.reverse();
        let mode = modes[i];
        passes.push((
            axis,
            Box::new(move |src, dt, ax| correlate1d_pass(src, &w, ax, dt, mode, cval, 0)),
        ));
    }
    separable(input, output, &passes)
}

/// The passes of Prewitt's and Sobel's filters: the derivative `[-1, 0,
/// 1]` along `axis`, `smooth` along every other axis.
fn edge_filter(
    input: &Array,
    axis: isize,
    output: Output<'_>,
    mode: &[Mode],
    cval: f64,
    smooth: [f64; 3],
) -> Result<Array> {
    let ndim = input.ndim();
    let axis = normalize_axis(axis, ndim)?;
    let modes = per_axis(mode, ndim)?;
    let mut passes: Vec<Pass<'_>> = Vec::new();
    let m = modes[axis];
    passes.push((
        axis,
        Box::new(move |src, dt, ax| correlate1d_pass(src, &[-1.0, 0.0, 1.0], ax, dt, m, cval, 0)),
    ));
    for ii in (0..ndim).filter(|&ii| ii != axis) {
        let m = modes[ii];
        passes.push((
            ii,
            Box::new(move |src, dt, ax| correlate1d_pass(src, &smooth, ax, dt, m, cval, 0)),
        ));
    }
    separable(input, output, &passes)
}

/// SciPy's `prewitt`: the derivative along `axis`, smoothed by `[1, 1, 1]`
/// along the other axes. `mode` holds one mode or one an axis.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{Mode, Output, prewitt};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let dx = prewitt(&x, 1, Output::None, &[Mode::Reflect], 0.0)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// An axis out of range; a mode sequence of the wrong length; an output
/// of another shape; an unsupported dtype.
pub fn prewitt(
    input: &Array,
    axis: isize,
    output: Output<'_>,
    mode: &[Mode],
    cval: f64,
) -> Result<Array> {
    edge_filter(input, axis, output, mode, cval, [1.0, 1.0, 1.0])
}

/// SciPy's `sobel`: the derivative along `axis`, smoothed by `[1, 2, 1]`
/// along the other axes. `mode` holds one mode or one an axis.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{Mode, Output, sobel};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let dy = sobel(&x, 0, Output::None, &[Mode::Reflect], 0.0)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`prewitt`].
pub fn sobel(
    input: &Array,
    axis: isize,
    output: Output<'_>,
    mode: &[Mode],
    cval: f64,
) -> Result<Array> {
    edge_filter(input, axis, output, mode, cval, [1.0, 2.0, 1.0])
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

/// SciPy's `generic_laplace`: the sum over `axes` (every axis for
/// `None`) of `derivative2(input, axis, dtype, mode, cval)`, the second
/// derivative along one axis as the caller computes it (SciPy's Python
/// callable; extra arguments are the closure's captures). The sum is in
/// the output's dtype (each term cast to it, as SciPy's `output += tmp`).
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{Mode, Output, correlate1d, generic_laplace};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let d2 = |a: &Array, axis: usize, dt: DType, mode: Mode, cval: f64| {
///     correlate1d(a, &[1.0, -2.0, 1.0], axis as isize, Output::DType(dt), mode, cval, 0)
/// };
/// let y = generic_laplace(&x, d2, Output::None, &[Mode::Reflect], 0.0, None)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// The derivative's errors, or an array of another shape from it; a mode
/// sequence of the wrong length; bad or repeated axes; an output of
/// another shape; an unsupported dtype.
pub fn generic_laplace<F>(
    input: &Array,
    derivative2: F,
    output: Output<'_>,
    mode: &[Mode],
    cval: f64,
    axes: Option<&[isize]>,
) -> Result<Array>
where
    F: Fn(&Array, usize, DType, Mode, f64) -> Result<Array>,
{
    let dt = output.dtype_for(input)?;
    let axes = check_axes(axes, input.ndim())?;
    if axes.is_empty() {
        return output.finish(input.astype(dt)?);
    }
    let modes = per_axis(mode, axes.len())?;
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
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{Mode, Output, laplace};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let y = laplace(&x, Output::None, &[Mode::Reflect], 0.0, None)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`generic_laplace`].
pub fn laplace(
    input: &Array,
    output: Output<'_>,
    mode: &[Mode],
    cval: f64,
    axes: Option<&[isize]>,
) -> Result<Array> {
    let d2 = |a: &Array, axis: usize, dt: DType, mode: Mode, cval: f64| {
        let src = contiguous(a)?;
        correlate1d_pass(&src, &[1.0, -2.0, 1.0], axis, dt, mode, cval, 0)
    };
    generic_laplace(input, d2, output, mode, cval, axes)
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
#[allow(clippy::too_many_arguments)]
fn gaussian_derivative(
    a: &Array,
    sigmas: &[f64],
    axis: usize,
    order: i64,
    dt: DType,
    mode: Mode,
    cval: f64,
    truncate: f64,
) -> Result<Array> {
    let mut orders = vec![0i64; a.ndim()];
    orders[axis] = order;
    gaussian_filter(
        a,
        sigmas,
        &orders,
        Output::DType(dt),
        &[mode],
        cval,
        truncate,
        None,
        None,
    )
}

/// SciPy's `gaussian_laplace`: the Laplacian by second derivatives of the
/// Gaussian of `sigma` (one value or one an axis of `axes`).
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{Mode, Output, gaussian_laplace};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(64)?.reshape((8, 8))?.astype(DType::Float64)?;
/// let y = gaussian_laplace(&x, &[1.5], Output::None, &[Mode::Reflect], 0.0, 4.0, None)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`gaussian_filter`] and [`generic_laplace`].
pub fn gaussian_laplace(
    input: &Array,
    sigma: &[f64],
    output: Output<'_>,
    mode: &[Mode],
    cval: f64,
    truncate: f64,
    axes: Option<&[isize]>,
) -> Result<Array> {
    let ax = check_axes(axes, input.ndim())?;
    let sigmas = full_sigmas(sigma, &ax, input.ndim())?;
    let d2 = |a: &Array, axis: usize, dt: DType, mode: Mode, cval: f64| {
        gaussian_derivative(a, &sigmas, axis, 2, dt, mode, cval, truncate)
    };
    generic_laplace(input, d2, output, mode, cval, axes)
}

/// SciPy's `generic_gradient_magnitude`: the square root of the sum over
/// `axes` of the squares of `derivative(input, axis, dtype, mode, cval)`
/// (SciPy's callable), computed in the output's dtype as SciPy's in-place
/// `multiply`, `+=` and unsafe-cast `sqrt`.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{Mode, Output, generic_gradient_magnitude, sobel};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let d = |a: &Array, axis: usize, dt: DType, mode: Mode, cval: f64| {
///     sobel(a, axis as isize, Output::DType(dt), &[mode], cval)
/// };
/// let y = generic_gradient_magnitude(&x, d, Output::None, &[Mode::Reflect], 0.0, None)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`generic_laplace`].
pub fn generic_gradient_magnitude<F>(
    input: &Array,
    derivative: F,
    output: Output<'_>,
    mode: &[Mode],
    cval: f64,
    axes: Option<&[isize]>,
) -> Result<Array>
where
    F: Fn(&Array, usize, DType, Mode, f64) -> Result<Array>,
{
    let dt = output.dtype_for(input)?;
    let axes = check_axes(axes, input.ndim())?;
    if axes.is_empty() {
        return output.finish(input.astype(dt)?);
    }
    let modes = per_axis(mode, axes.len())?;
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
/// first derivatives of the Gaussian of `sigma` (one value or one an
/// axis of `axes`).
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{Mode, Output, gaussian_gradient_magnitude};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(64)?.reshape((8, 8))?.astype(DType::Float64)?;
/// let y = gaussian_gradient_magnitude(&x, &[1.0], Output::None, &[Mode::Reflect], 0.0, 4.0, None)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`gaussian_filter`] and [`generic_gradient_magnitude`].
pub fn gaussian_gradient_magnitude(
    input: &Array,
    sigma: &[f64],
    output: Output<'_>,
    mode: &[Mode],
    cval: f64,
    truncate: f64,
    axes: Option<&[isize]>,
) -> Result<Array> {
    let ax = check_axes(axes, input.ndim())?;
    let sigmas = full_sigmas(sigma, &ax, input.ndim())?;
    let d = |a: &Array, axis: usize, dt: DType, mode: Mode, cval: f64| {
        gaussian_derivative(a, &sigmas, axis, 1, dt, mode, cval, truncate)
    };
    generic_gradient_magnitude(input, d, output, mode, cval, axes)
}

#[cfg(test)]
mod tests {
    use super::*;

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
