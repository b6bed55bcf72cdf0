//! The filters over an n-D footprint: `correlate`/`convolve` with n-D
//! weights, the minimum and maximum filters (separable when the window is
//! a box, as SciPy's), and the rank, median and percentile filters.

use gpu_array::layout::normalize_axis;
use gpu_array::{Array, DType, Error, Result};

use crate::filters::check_window;
use crate::kernels::{Op1d, OpNd, RANK_CAP, generic_nd, window1d, windownd};
use crate::output::{check_axes, contiguous, per_axis, via_real_parts};
use crate::separable::Pass1d;
use crate::{FilterOptions, Mode, Output, Window};

/// A footprint or weights on the host: its shape (one entry an axis of
/// the input) and values in C order.
pub(crate) struct HostWindow {
    pub(crate) shape: Vec<usize>,
    pub(crate) values: Vec<f64>,
}

impl HostWindow {
    /// `a` (on the device) as float64 values, its shape expanded from the
    /// axes it covers to every axis of an `ndim`-D input (SciPy's
    /// `_expand_footprint`), checked as SciPy: `what` names it.
    pub(crate) fn load(a: &Array, axes: &[usize], ndim: usize, what: &str) -> Result<HostWindow> {
        let values = a.astype(DType::Float64)?.to_vec::<f64>()?;
        HostWindow::expand(a.shape(), values, axes, ndim, what)
    }

    /// `values` of shape `given` (over `axes`) expanded to every axis of
    /// an `ndim`-D input: SciPy's `expand_dims` at the other axes, so the
    /// given axes keep their order whatever the order of `axes` (the C
    /// order of the values does not change).
    pub(crate) fn expand(
        given: &[usize],
        values: Vec<f64>,
        axes: &[usize],
        ndim: usize,
        what: &str,
    ) -> Result<HostWindow> {
        let shape = if axes.len() < ndim {
            if given.len() != axes.len() {
                return Err(Error::NumpyRuntime(format!(
                    "{what}.ndim ({}) must match len(axes) ({})",
                    given.len(),
                    axes.len()
                )));
            }
            let mut sorted = axes.to_vec();
            sorted.sort_unstable();
            let mut s = vec![1; ndim];
            for (&g, &ax) in given.iter().zip(&sorted) {
                s[ax] = g;
            }
            s
        } else {
            given.to_vec()
        };
        let nonzero = shape.iter().filter(|&&s| s > 0).count();
        if nonzero != ndim {
            return Err(Error::NumpyRuntime(format!(
                "{what}.ndim ({nonzero}) must match len(axes) ({})",
                axes.len()
            )));
        }
        Ok(HostWindow { shape, values })
    }

    /// A box of `sizes` (one an axis of `axes`; 1 on the others), placed
    /// as SciPy's `ones(sizes)` expanded (see [`HostWindow::expand`]).
    fn boxed(sizes: &[usize], axes: &[usize], ndim: usize) -> Result<HostWindow> {
        let n = sizes
            .iter()
            .try_fold(1usize, |p, &s| p.checked_mul(s))
            .ok_or_else(|| Error::Overflow("filter size too large".into()))?;
        HostWindow::expand(sizes, vec![1.0; n], axes, ndim, "footprint")
    }

    /// The taps (offsets from the output index, `ndim` each) and weights
    /// of the values `keep` selects, in C order; `origins` shift the
    /// window as SciPy's (`shape // 2 + origin` is its centre).
    pub(crate) fn taps(&self, origins: &[i64], keep: impl Fn(f64) -> bool) -> (Vec<i64>, Vec<f64>) {
        let ndim = self.shape.len();
        let mut taps = Vec::new();
        let mut w = Vec::new();
        let mut idx = vec![0usize; ndim];
        for &v in &self.values {
            if keep(v) {
                for d in 0..ndim {
                    taps.push(idx[d] as i64 - (self.shape[d] / 2) as i64 - origins[d]);
                }
                w.push(v);
            }
            for d in (0..ndim).rev() {
                idx[d] += 1;
                if idx[d] < self.shape[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
        (taps, w)
    }
}

/// SciPy's `_expand_origin`: one origin an axis of the input (0 off
/// `axes`; as given when `axes` covers every axis).
pub(crate) fn expand_origins(origin: &[i64], axes: &[usize], ndim: usize) -> Result<Vec<i64>> {
    let o = per_axis(origin, axes.len())?;
    if axes.len() == ndim {
        return Ok(o);
    }
    let mut full = vec![0; ndim];
    for (&v, &ax) in o.iter().zip(axes) {
        full[ax] = v;
    }
    Ok(full)
}

fn one_mode(mode: &[Mode], message: &str) -> Result<Mode> {
    match mode {
        [m] => Ok(*m),
        _ => Err(Error::NumpyRuntime(message.into())),
    }
}

/// The result of a footprint kernel (in the output's dtype, or float64)
/// into the output's dtype (a C cast, as SciPy's `(type)tmp`).
fn finish(output: Output<'_>, dt: DType, r: Array) -> Result<Array> {
    let r = if r.dtype() == dt { r } else { r.astype(dt)? };
    output.finish(r)
}

fn correlate_or_convolve(
    input: &Array,
    weights: &Array,
    opts: &FilterOptions<'_>,
    convolution: bool,
) -> Result<Array> {
    if weights.dtype().is_complex() {
        return Err(Error::Unsupported(
            "ndimage correlate/convolve with complex weights; filter with their real and \
             imaginary parts"
                .into(),
        ));
    }
    if input.dtype().is_complex() {
        return via_real_parts(input, opts, |x, o| {
            correlate_or_convolve(x, weights, o, convolution)
        });
    }
    let (output, mode, cval, origin) = (opts.output, &opts.mode, opts.cval, &opts.origin);
    let ndim = input.ndim();
    let axes = check_axes(opts.axes_slice(), ndim)?;
    let mut win = HostWindow::load(weights, &axes, ndim, "weights")?;
    let mut origins = expand_origins(origin, &axes, ndim)?;
    if convolution {
        win.values.reverse(); // every axis flipped: C order reversed
        for (o, &len) in origins.iter_mut().zip(&win.shape) {
            *o = -*o;
            if len.is_multiple_of(2) {
                *o -= 1;
            }
        }
    }
    for (&o, &len) in origins.iter().zip(&win.shape) {
        let len = len as i64;
        if o < -(len / 2) || o > (len - 1) / 2 {
            return Err(Error::Value(
                "Invalid origin; origin must satisfy -(weights.shape[k] // 2) <= origin[k] <= \
                 (weights.shape[k]-1) // 2"
                    .into(),
            ));
        }
    }
    let dt = output.dtype_for(input)?;
    let mode = one_mode(mode, "A sequence of modes is not supported")?;
    let src = contiguous(input)?;
    // SciPy's NI_Correlate skips weights within DBL_EPSILON of zero.
    let (taps, w) = win.taps(&origins, |v| v.abs() > f64::EPSILON);
    if w.is_empty() {
        // Nothing to sum: SciPy's result is 0 everywhere.
        let z = Array::zeros(input.shape(), dt)?;
        return output.finish(z);
    }
    let r = windownd(&src, &taps, &w, OpNd::Correlate, (mode, cval), dt)?;
    finish(output, dt, r)
}

/// SciPy's `correlate`: the n-D correlation of `input` with `weights` (an
/// array of the input's rank), reading past the edges by reflection. The
/// sum is in float64, as SciPy's.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::correlate;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let w = Array::from_slice(&[1.0f64, 1., 1., 1., 1., 1., 1., 1., 1.], &[3, 3])?;
/// let y = correlate(&x, &w)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`correlate_with`].
pub fn correlate(input: &Array, weights: &Array) -> Result<Array> {
    correlate_with(input, weights, &FilterOptions::default())
}

/// [`correlate`] with SciPy's keywords: `weights` of the input's rank, or
/// of `len(axes)` with `axes`; one mode; origins one or one per axis.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{FilterOptions, Mode, correlate_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let w = Array::from_slice(&[1.0f64, 2., 1.], &[3])?;
/// let o = FilterOptions::default().axes(&[1]).mode(Mode::Constant).cval(-1.0);
/// let y = correlate_with(&x, &w, &o)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: weights of the wrong rank ("weights.ndim (k) must match
/// len(axes) (n)"), an invalid origin, a sequence of modes ("A sequence of
/// modes is not supported"), an output of another shape, an unsupported
/// dtype; more than 16 dimensions (`Unsupported`).
pub fn correlate_with(input: &Array, weights: &Array, opts: &FilterOptions<'_>) -> Result<Array> {
    correlate_or_convolve(input, weights, opts, false)
}

/// SciPy's `convolve`: [`correlate`] with the weights flipped along every
/// axis and the origins negated (less one along even lengths).
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::convolve;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let w = Array::from_slice(&[1.0f64, 2., 3., 4.], &[2, 2])?;
/// let y = convolve(&x, &w)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`correlate_with`].
pub fn convolve(input: &Array, weights: &Array) -> Result<Array> {
    convolve_with(input, weights, &FilterOptions::default())
}

/// [`convolve`] with SciPy's keywords, as [`correlate_with`].
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{FilterOptions, Mode, convolve_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let w = Array::from_slice(&[1.0f64, 2., 3., 4.], &[2, 2])?;
/// let y = convolve_with(&x, &w, &FilterOptions::default().mode(Mode::Constant))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`correlate_with`].
pub fn convolve_with(input: &Array, weights: &Array, opts: &FilterOptions<'_>) -> Result<Array> {
    correlate_or_convolve(input, weights, opts, true)
}

fn min_or_max1d(
    input: &Array,
    (size, axis): (usize, isize),
    opts: &FilterOptions<'_>,
    op: Op1d,
    func: &str,
) -> Result<Array> {
    opts.refuse(func, false, true)?;
    let (mode, origin) = (opts.one_mode(func)?, opts.one_origin(func)?);
    let axis = normalize_axis(axis, input.ndim())?;
    let dt = opts.output.dtype_for(input)?;
    check_window(size, origin)?;
    let src = contiguous(input)?;
    let out = Array::empty(src.shape(), dt)?;
    window1d(&src, &out, axis, size, None, op, origin, mode, opts.cval)?;
    opts.output.finish(out)
}

/// SciPy's `minimum_filter1d`: the minimum of `size` values along `axis`.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::minimum_filter1d;
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[2i64, 8, 0, 4, 1, 9, 9, 0], &[8])?;
/// let y = minimum_filter1d(&x, 3, -1)?;
/// assert_eq!(y.to_vec::<i64>()?, [2, 0, 0, 0, 1, 1, 0, 0]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`minimum_filter1d_with`].
pub fn minimum_filter1d(input: &Array, size: usize, axis: isize) -> Result<Array> {
    minimum_filter1d_with(input, size, axis, &FilterOptions::default())
}

/// [`minimum_filter1d`] with SciPy's keywords (one mode, one origin).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{FilterOptions, Mode, minimum_filter1d_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[2i64, 8, 0, 4], &[4])?;
/// let y = minimum_filter1d_with(&x, 2, 0, &FilterOptions::default().mode(Mode::Nearest).origin(-1))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: a size of 0 ("incorrect filter size"), an invalid origin, an
/// axis out of range, an output of another shape, an unsupported dtype; a
/// sequence of modes or origins, or `axes`.
pub fn minimum_filter1d_with(
    input: &Array,
    size: usize,
    axis: isize,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    min_or_max1d(input, (size, axis), opts, Op1d::Min, "minimum_filter1d")
}

/// SciPy's `maximum_filter1d`: the maximum of `size` values along `axis`.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::maximum_filter1d;
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[2i64, 8, 0, 4, 1, 9, 9, 0], &[8])?;
/// let y = maximum_filter1d(&x, 3, -1)?;
/// assert_eq!(y.to_vec::<i64>()?, [8, 8, 8, 4, 9, 9, 9, 9]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`minimum_filter1d_with`].
pub fn maximum_filter1d(input: &Array, size: usize, axis: isize) -> Result<Array> {
    maximum_filter1d_with(input, size, axis, &FilterOptions::default())
}

/// [`maximum_filter1d`] with SciPy's keywords (one mode, one origin).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{FilterOptions, Mode, maximum_filter1d_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[2i64, 8, 0, 4], &[4])?;
/// let y = maximum_filter1d_with(&x, 3, 0, &FilterOptions::default().mode(Mode::Constant).cval(5.0))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`minimum_filter1d_with`].
pub fn maximum_filter1d_with(
    input: &Array,
    size: usize,
    axis: isize,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    min_or_max1d(input, (size, axis), opts, Op1d::Max, "maximum_filter1d")
}

fn min_or_max(
    input: &Array,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
    minimum: bool,
) -> Result<Array> {
    let (size, footprint) = window.parts();
    let (output, mode, cval, origin) = (opts.output, &opts.mode, opts.cval, &opts.origin);
    let ndim = input.ndim();
    let axes = check_axes(opts.axes_slice(), ndim)?;
    let dt = output.dtype_for(input)?;
    // A footprint of all ones is the box of its shape: separable.
    let (sizes, win) = match footprint {
        None => match size {
            Some(s) => (Some(per_axis(s, axes.len())?), None),
            None => return Err(Error::NumpyRuntime("no footprint provided".into())),
        },
        Some(f) => {
            let fp = f.astype(DType::Bool)?.to_vec::<bool>()?;
            if !fp.iter().any(|&b| b) {
                return Err(Error::Value("All-zero footprint is not supported.".into()));
            }
            if fp.iter().all(|&b| b) && f.ndim() == axes.len() {
                (Some(f.shape().to_vec()), None)
            } else {
                (None, Some(HostWindow::load(f, &axes, ndim, "footprint")?))
            }
        }
    };
    let op = if minimum { Op1d::Min } else { Op1d::Max };
    if let Some(sizes) = sizes {
        let origins = per_axis(origin, axes.len())?;
        let modes = per_axis(mode, axes.len())?;
        let mut passes = Vec::new();
        for (i, &axis) in axes.iter().enumerate() {
            if sizes[i] <= 1 {
                continue;
            }
            check_window(sizes[i], origins[i])?;
            passes.push(Pass1d::unweighted(axis, sizes[i], op, origins[i], modes[i]));
        }
        let cur = contiguous(input)?;
        let out = if passes.is_empty() {
            cur.astype(dt)?
        } else {
            crate::separable::run(cur, dt, &passes, cval)?
        };
        return output.finish(out);
    }
    let win = win.expect("a footprint when not separable");
    let origins = expand_origins(origin, &axes, ndim)?;
    for (&o, &len) in origins.iter().zip(&win.shape) {
        let half = (len / 2) as i64;
        if half + o < 0 || half + o >= len as i64 {
            return Err(Error::Value("invalid origin".into()));
        }
    }
    let mode = one_mode(
        mode,
        "A sequence of modes is not supported for non-separable footprints",
    )?;
    let src = contiguous(input)?;
    let (taps, w) = win.taps(&origins, |v| v != 0.0);
    let r = windownd(
        &src,
        &taps,
        &w,
        if minimum { OpNd::Min } else { OpNd::Max },
        (mode, cval),
        dt,
    )?;
    finish(output, dt, r)
}

/// SciPy's `minimum_filter`: the minimum over a box (`Window::Size`, one
/// side or one per axis; separable 1-D passes) or over the true elements
/// of a footprint (`Window::Footprint`).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{Window, minimum_filter};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float32)?;
/// let y = minimum_filter(&x, Window::Size(&[3]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`minimum_filter_with`].
pub fn minimum_filter(input: &Array, window: Window<'_>) -> Result<Array> {
    minimum_filter_with(input, window, &FilterOptions::default())
}

/// [`minimum_filter`] with SciPy's keywords (a sequence of modes only for
/// a box).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FilterOptions, Mode, Window, minimum_filter_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float32)?;
/// let o = FilterOptions::default().modes(&[Mode::Nearest, Mode::Wrap]).origins(&[0, 1]);
/// let y = minimum_filter_with(&x, Window::Size(&[3, 2]), &o)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: an all-false footprint, one of the wrong rank, an invalid
/// origin, a sequence of modes with a footprint; an output of another
/// shape; an unsupported dtype.
pub fn minimum_filter_with(
    input: &Array,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    min_or_max(input, window, opts, true)
}

/// SciPy's `maximum_filter`: as [`minimum_filter`], the maximum.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{Window, maximum_filter};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float32)?;
/// let y = maximum_filter(&x, Window::Size(&[3, 1]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`minimum_filter_with`].
pub fn maximum_filter(input: &Array, window: Window<'_>) -> Result<Array> {
    maximum_filter_with(input, window, &FilterOptions::default())
}

/// [`maximum_filter`] with SciPy's keywords.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FilterOptions, Mode, Window, maximum_filter_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float32)?;
/// let y = maximum_filter_with(&x, Window::Size(&[3]), &FilterOptions::default().mode(Mode::Nearest))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`minimum_filter_with`].
pub fn maximum_filter_with(
    input: &Array,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    min_or_max(input, window, opts, false)
}

enum Rank {
    Index(i64),
    Median,
    Percentile(f64),
}

/// The window of the rank and generic filters (a footprint's nonzero
/// elements as ones, or a box) over every axis, and its origins, checked
/// as SciPy's.
fn ones_window(
    input: &Array,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
) -> Result<(HostWindow, Vec<i64>)> {
    let (size, footprint) = window.parts();
    let ndim = input.ndim();
    let axes = check_axes(opts.axes_slice(), ndim)?;
    let win = match (footprint, size) {
        (Some(f), _) => {
            let mut w = HostWindow::load(f, &axes, ndim, "footprint")?;
            for v in &mut w.values {
                *v = if *v != 0.0 { 1.0 } else { 0.0 };
            }
            w
        }
        (None, Some(s)) => HostWindow::boxed(&per_axis(s, axes.len())?, &axes, ndim)?,
        (None, None) => {
            return Err(Error::NumpyRuntime(
                "no footprint or filter size provided".into(),
            ));
        }
    };
    let origins = expand_origins(&opts.origin, &axes, ndim)?;
    for (&o, &len) in origins.iter().zip(&win.shape) {
        let half = (len / 2) as i64;
        if half + o < 0 || half + o >= len as i64 {
            return Err(Error::Value("invalid origin".into()));
        }
    }
    Ok((win, origins))
}

fn rank_filter_impl(
    input: &Array,
    rank: Rank,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    let (output, mode, cval) = (opts.output, &opts.mode, opts.cval);
    let (win, origins) = ones_window(input, window, opts)?;
    let filter_size = win.values.iter().filter(|&&v| v != 0.0).count() as i64;
    let mut r = match rank {
        Rank::Index(r) => r,
        Rank::Median => filter_size / 2,
        Rank::Percentile(p) => {
            let p = if p < 0.0 { p + 100.0 } else { p };
            if !(0.0..=100.0).contains(&p) {
                return Err(Error::NumpyRuntime("invalid percentile".into()));
            }
            if p == 100.0 {
                filter_size - 1
            } else {
                (filter_size as f64 * p / 100.0) as i64
            }
        }
    };
    if r < 0 {
        r += filter_size;
    }
    if r < 0 || r >= filter_size {
        return Err(Error::NumpyRuntime(
            "rank not within filter footprint size".into(),
        ));
    }
    let dt = output.dtype_for(input)?;
    let (taps, w) = win.taps(&origins, |v| v != 0.0);
    let op = if r == 0 {
        OpNd::Min
    } else if r == filter_size - 1 {
        OpNd::Max
    } else {
        if w.len() > RANK_CAP {
            return Err(Error::Unsupported(format!(
                "rank filters over footprints of more than {RANK_CAP} elements \
                 (this one has {})",
                w.len()
            )));
        }
        OpNd::Rank(r as usize)
    };
    let mode = one_mode(
        mode,
        "A sequence of modes is not supported by non-separable rank filters",
    )?;
    let src = contiguous(input)?;
    let res = windownd(&src, &taps, &w, op, (mode, cval), dt)?;
    finish(output, dt, res)
}

/// SciPy's `rank_filter`: the value of `rank` (0-based, ascending;
/// negative counts from the top) among the window's values (a box or the
/// true elements of a footprint). Footprints of up to 640 elements
/// (25 x 25) when the rank is neither the least nor the greatest; NaN
/// sorts last.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{Window, rank_filter};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float32)?;
/// let y = rank_filter(&x, 2, Window::Size(&[3]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`rank_filter_with`].
pub fn rank_filter(input: &Array, rank: i64, window: Window<'_>) -> Result<Array> {
    rank_filter_with(input, rank, window, &FilterOptions::default())
}

/// [`rank_filter`] with SciPy's keywords (one mode).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FilterOptions, Mode, Window, rank_filter_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float32)?;
/// let y = rank_filter_with(&x, -2, Window::Size(&[3]), &FilterOptions::default().mode(Mode::Mirror))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: a rank outside the footprint ("rank not within filter
/// footprint size"), a footprint of the wrong rank, an invalid origin, a
/// sequence of modes; a larger footprint (`Unsupported`); an output of
/// another shape; an unsupported dtype.
pub fn rank_filter_with(
    input: &Array,
    rank: i64,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    rank_filter_impl(input, Rank::Index(rank), window, opts)
}

/// SciPy's `median_filter`: [`rank_filter`] of rank `filter_size // 2`.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{Window, median_filter};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float32)?;
/// let y = median_filter(&x, Window::Size(&[3]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`rank_filter_with`].
pub fn median_filter(input: &Array, window: Window<'_>) -> Result<Array> {
    median_filter_with(input, window, &FilterOptions::default())
}

/// [`median_filter`] with SciPy's keywords (one mode).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FilterOptions, Mode, Window, median_filter_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float32)?;
/// let y = median_filter_with(&x, Window::Size(&[5]), &FilterOptions::default().mode(Mode::Nearest))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`rank_filter_with`].
pub fn median_filter_with(
    input: &Array,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    rank_filter_impl(input, Rank::Median, window, opts)
}

/// SciPy's `percentile_filter`: [`rank_filter`] of rank
/// `int(filter_size * percentile / 100)` (`filter_size - 1` at 100;
/// a negative percentile counts from 100).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{Window, percentile_filter};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float32)?;
/// let y = percentile_filter(&x, 20.0, Window::Size(&[3]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`percentile_filter_with`].
pub fn percentile_filter(input: &Array, percentile: f64, window: Window<'_>) -> Result<Array> {
    percentile_filter_with(input, percentile, window, &FilterOptions::default())
}

/// [`percentile_filter`] with SciPy's keywords (one mode).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FilterOptions, Mode, Window, percentile_filter_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float32)?;
/// let y = percentile_filter_with(&x, 75.0, Window::Size(&[3]), &FilterOptions::default().mode(Mode::Wrap))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`rank_filter_with`]; a percentile outside -100..=100 ("invalid
/// percentile").
pub fn percentile_filter_with(
    input: &Array,
    percentile: f64,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    rank_filter_impl(input, Rank::Percentile(percentile), window, opts)
}

/// SciPy's `generic_filter` with the function as CUDA source (CuPy takes
/// a raw kernel there; SciPy a Python callable): `function` defines
///
/// ```text
/// __device__ double function(const double* buffer, long long filter_size)
/// ```
///
/// which gets the window's values (the footprint's true elements in C
/// order, read past the edges by reflection, as float64) and returns the
/// output value. Compiled once per source and input dtype; windows of up
/// to 1024 elements.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{Window, generic_filter};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float32)?;
/// // The range of each 3 x 3 window.
/// let range = "__device__ double function(const double* b, long long n) {
///     double lo = b[0], hi = b[0];
///     for (long long k = 1; k < n; ++k) { lo = fmin(lo, b[k]); hi = fmax(hi, b[k]); }
///     return hi - lo; }";
/// let y = generic_filter(&x, range, Window::Size(&[3]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`generic_filter_with`].
pub fn generic_filter(input: &Array, function: &str, window: Window<'_>) -> Result<Array> {
    generic_filter_with(input, function, window, &FilterOptions::default())
}

/// [`generic_filter`] with SciPy's keywords (one mode).
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{FilterOptions, Mode, Window, generic_filter_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let cross = Array::from_slice(&[false, true, false, true, true, true, false, true, false], &[3, 3])?;
/// let mean = "__device__ double function(const double* b, long long n) {
///     double s = 0.0; for (long long k = 0; k < n; ++k) s += b[k]; return s / n; }";
/// let o = FilterOptions::default().mode(Mode::Constant).cval(0.0);
/// let y = generic_filter_with(&x, mean, Window::Footprint(&cross), &o)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: neither size nor footprint ("no footprint or filter size
/// provided"), a footprint of the wrong rank, an invalid origin, complex
/// input ("Complex type not supported"); a sequence of modes; a window of
/// more than 1024 elements (`Unsupported`); the function's compile errors
/// (NVRTC's log); an output of another shape; an unsupported dtype.
pub fn generic_filter_with(
    input: &Array,
    function: &str,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    if input.dtype().is_complex() {
        return Err(Error::DType("Complex type not supported".into()));
    }
    let (win, origins) = ones_window(input, window, opts)?;
    let dt = opts.output.dtype_for(input)?;
    let mode = one_mode(
        &opts.mode,
        "A sequence of modes is not supported by generic_filter",
    )?;
    let (taps, w) = win.taps(&origins, |v| v != 0.0);
    let src = contiguous(input)?;
    let r = generic_nd(&src, &taps, w.len(), function, mode, opts.cval)?;
    finish(opts.output, dt, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taps_are_c_order_offsets_from_the_centre() {
        let w = HostWindow {
            shape: vec![2, 3],
            values: vec![1.0, 0.0, 2.0, 3.0, 4.0, 0.0],
        };
        let (taps, vals) = w.taps(&[0, 0], |v| v != 0.0);
        // centre (1, 1): rows -1, 0; columns -1, 0, 1.
        assert_eq!(taps, vec![-1, -1, -1, 1, 0, -1, 0, 0]);
        assert_eq!(vals, vec![1.0, 2.0, 3.0, 4.0]);
        let (taps, _) = w.taps(&[-1, 1], |v| v != 0.0);
        assert_eq!(&taps[..2], &[0, -2]);
        let b = HostWindow::boxed(&[3], &[1], 2).unwrap();
        assert_eq!((b.shape.clone(), b.values.len()), (vec![1, 3], 3));
        assert_eq!(expand_origins(&[2], &[1], 3).unwrap(), vec![0, 2, 0]);
        // SciPy's expand_dims keeps the given axes in order; origins
        // follow `axes`, and stay as given over every axis.
        let b = HostWindow::boxed(&[2, 3], &[2, 0], 3).unwrap();
        assert_eq!(b.shape, [2, 1, 3]);
        assert_eq!(expand_origins(&[1, 2], &[2, 0], 3).unwrap(), vec![2, 0, 1]);
        assert_eq!(expand_origins(&[1, 2], &[1, 0], 2).unwrap(), vec![1, 2]);
    }
}
