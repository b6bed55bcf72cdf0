//! Grey-scale morphology with flat structuring elements (SciPy's
//! `grey_erosion`, `grey_dilation`, `grey_opening`, `grey_closing`,
//! `morphological_gradient`, `morphological_laplace`, `white_tophat`,
//! `black_tophat`): the minimum and maximum filters with SciPy's
//! reflection of the footprint and origin for dilation. Non-flat
//! structuring elements (`structure=`) are not taken yet.
//!
//! The compound operations compute in the input's dtype, as SciPy's, and
//! then write the output (cast to its dtype).

use gpu_array::{Array, DType, Result, ufunc};

use crate::output::{check_axes, per_axis};
use crate::{FilterOptions, Output, Window, maximum_filter_with, minimum_filter_with};

/// SciPy's `grey_erosion` with a flat structuring element: the minimum
/// over the window (SciPy's `minimum_filter`).
///
/// ```no_run
/// use gpu_ndimage::{Window, grey_erosion};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let e = grey_erosion(&x, Window::Size(&[3]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`grey_erosion_with`].
pub fn grey_erosion(input: &Array, window: Window<'_>) -> Result<Array> {
    grey_erosion_with(input, window, &FilterOptions::default())
}

/// [`grey_erosion`] with SciPy's `output=`, `mode=`, `cval=`, `origin=`
/// and `axes=`.
///
/// ```no_run
/// use gpu_ndimage::{FilterOptions, Mode, Window, grey_erosion_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let o = FilterOptions::default().mode(Mode::Constant).cval(-1.0).origin(1);
/// let e = grey_erosion_with(&x, Window::Size(&[3]), &o)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As `minimum_filter_with`'s: a footprint of the wrong rank, an invalid
/// origin, an output of another shape, an unsupported dtype.
pub fn grey_erosion_with(
    input: &Array,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    minimum_filter_with(input, window, opts)
}

/// SciPy's `grey_dilation` with a flat structuring element: the maximum
/// over the window reflected through its centre, the origin negated (and
/// moved by one along even sides), as SciPy's.
///
/// ```no_run
/// use gpu_ndimage::{Window, grey_dilation};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let d = grey_dilation(&x, Window::Size(&[2, 3]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`grey_dilation_with`].
pub fn grey_dilation(input: &Array, window: Window<'_>) -> Result<Array> {
    grey_dilation_with(input, window, &FilterOptions::default())
}

/// [`grey_dilation`] with SciPy's keywords.
///
/// ```no_run
/// use gpu_ndimage::{FilterOptions, Mode, Window, grey_dilation_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let d = grey_dilation_with(&x, Window::Size(&[3]), &FilterOptions::default().axes(&[1]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`grey_erosion_with`]; a footprint whose rank is not the number of
/// filtered axes.
pub fn grey_dilation_with(
    input: &Array,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    let axes = check_axes(opts.axes_slice(), input.ndim())?;
    let n = axes.len();
    let mut origin = per_axis(&opts.origin, n)?;
    let sides: Vec<usize> = match window {
        Window::Size(s) => per_axis(s, n)?,
        Window::Footprint(f) => f.shape().to_vec(),
    };
    if sides.len() != n {
        // SciPy's words, as the filters give them.
        return Err(gpu_array::Error::NumpyRuntime(format!(
            "footprint.ndim ({}) must match len(axes) ({n})",
            sides.len()
        )));
    }
    for (o, &side) in origin.iter_mut().zip(&sides) {
        *o = -*o;
        if side % 2 == 0 {
            *o -= 1;
        }
    }
    let opts = opts.clone().origins(&origin);
    match window {
        Window::Size(_) => maximum_filter_with(input, window, &opts),
        Window::Footprint(f) => {
            let flipped = gpu_array::manipulation::flip(f, None)?;
            maximum_filter_with(input, Window::Footprint(&flipped), &opts)
        }
    }
}

/// `opts` writing a new array of the input's dtype (the compound
/// operations' intermediate results).
fn scratch<'a>(opts: &FilterOptions<'a>) -> FilterOptions<'a> {
    opts.clone().output(Output::None)
}

/// `r` (in the input's dtype) written as `output` asks.
fn deliver(r: Array, output: Output<'_>, input: &Array) -> Result<Array> {
    let dt = output.dtype_for(input)?;
    let r = if r.dtype() == dt { r } else { r.astype(dt)? };
    output.finish(r)
}

/// SciPy's `grey_opening`: [`grey_erosion`] then [`grey_dilation`] with
/// the same window.
///
/// ```no_run
/// use gpu_ndimage::{Window, grey_opening};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let o = grey_opening(&x, Window::Size(&[3]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`grey_erosion_with`].
pub fn grey_opening(input: &Array, window: Window<'_>) -> Result<Array> {
    grey_opening_with(input, window, &FilterOptions::default())
}

/// [`grey_opening`] with SciPy's keywords (the result in the output).
///
/// ```no_run
/// use gpu_ndimage::{FilterOptions, Mode, Window, grey_opening_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let o = grey_opening_with(&x, Window::Size(&[3]), &FilterOptions::default().mode(Mode::Wrap))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`grey_erosion_with`].
pub fn grey_opening_with(
    input: &Array,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    let tmp = grey_erosion_with(input, window, &scratch(opts))?;
    grey_dilation_with(&tmp, window, opts)
}

/// SciPy's `grey_closing`: [`grey_dilation`] then [`grey_erosion`].
///
/// ```no_run
/// use gpu_ndimage::{Window, grey_closing};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let c = grey_closing(&x, Window::Size(&[3]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`grey_erosion_with`].
pub fn grey_closing(input: &Array, window: Window<'_>) -> Result<Array> {
    grey_closing_with(input, window, &FilterOptions::default())
}

/// [`grey_closing`] with SciPy's keywords.
///
/// ```no_run
/// use gpu_ndimage::{FilterOptions, Mode, Window, grey_closing_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let c = grey_closing_with(&x, Window::Size(&[2]), &FilterOptions::default().mode(Mode::Nearest))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`grey_erosion_with`].
pub fn grey_closing_with(
    input: &Array,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    let tmp = grey_dilation_with(input, window, &scratch(opts))?;
    grey_erosion_with(&tmp, window, opts)
}

/// SciPy's `morphological_gradient`: [`grey_dilation`] less
/// [`grey_erosion`], in the input's dtype.
///
/// ```no_run
/// use gpu_ndimage::{Window, morphological_gradient};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let g = morphological_gradient(&x, Window::Size(&[3]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`morphological_gradient_with`].
pub fn morphological_gradient(input: &Array, window: Window<'_>) -> Result<Array> {
    morphological_gradient_with(input, window, &FilterOptions::default())
}

/// [`morphological_gradient`] with SciPy's keywords.
///
/// ```no_run
/// use gpu_ndimage::{FilterOptions, Mode, Window, morphological_gradient_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let g = morphological_gradient_with(&x, Window::Size(&[3]), &FilterOptions::default().mode(Mode::Nearest))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`grey_erosion_with`]; a boolean input (NumPy's boolean subtract).
pub fn morphological_gradient_with(
    input: &Array,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    let s = scratch(opts);
    let d = grey_dilation_with(input, window, &s)?;
    let e = grey_erosion_with(input, window, &s)?;
    deliver(ufunc::subtract(&d, &e)?, opts.output, input)
}

/// SciPy's `morphological_laplace`: `dilation + erosion - 2 * input`, in
/// the input's dtype (SciPy's order: the sum, then the input subtracted
/// twice).
///
/// ```no_run
/// use gpu_ndimage::{Window, morphological_laplace};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let l = morphological_laplace(&x, Window::Size(&[3]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`morphological_laplace_with`].
pub fn morphological_laplace(input: &Array, window: Window<'_>) -> Result<Array> {
    morphological_laplace_with(input, window, &FilterOptions::default())
}

/// [`morphological_laplace`] with SciPy's keywords.
///
/// ```no_run
/// use gpu_ndimage::{FilterOptions, Mode, Window, morphological_laplace_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let l = morphological_laplace_with(&x, Window::Size(&[3]), &FilterOptions::default().mode(Mode::Mirror))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`morphological_gradient_with`].
pub fn morphological_laplace_with(
    input: &Array,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    let s = scratch(opts);
    let d = grey_dilation_with(input, window, &s)?;
    let e = grey_erosion_with(input, window, &s)?;
    let sum = ufunc::add(&d, &e)?;
    let once = ufunc::subtract(&sum, input)?;
    let twice = ufunc::subtract(&once, input)?;
    let dt = input.dtype();
    let twice = if twice.dtype() == dt {
        twice
    } else {
        twice.astype(dt)?
    };
    deliver(twice, opts.output, input)
}

/// SciPy's `white_tophat`: the input less its [`grey_opening`] (for
/// booleans their exclusive or).
///
/// ```no_run
/// use gpu_ndimage::{Window, white_tophat};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let t = white_tophat(&x, Window::Size(&[3]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`white_tophat_with`].
pub fn white_tophat(input: &Array, window: Window<'_>) -> Result<Array> {
    white_tophat_with(input, window, &FilterOptions::default())
}

/// [`white_tophat`] with SciPy's keywords.
///
/// ```no_run
/// use gpu_ndimage::{FilterOptions, Mode, Window, white_tophat_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let t = white_tophat_with(&x, Window::Size(&[3]), &FilterOptions::default().mode(Mode::Nearest))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`grey_erosion_with`].
pub fn white_tophat_with(
    input: &Array,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    let opened = grey_opening_with(input, window, &scratch(opts))?;
    tophat(input, &opened, true, opts.output)
}

/// SciPy's `black_tophat`: the [`grey_closing`] less the input (for
/// booleans their exclusive or).
///
/// ```no_run
/// use gpu_ndimage::{Window, black_tophat};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let t = black_tophat(&x, Window::Size(&[3]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`black_tophat_with`].
pub fn black_tophat(input: &Array, window: Window<'_>) -> Result<Array> {
    black_tophat_with(input, window, &FilterOptions::default())
}

/// [`black_tophat`] with SciPy's keywords.
///
/// ```no_run
/// use gpu_ndimage::{FilterOptions, Mode, Window, black_tophat_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let t = black_tophat_with(&x, Window::Size(&[3]), &FilterOptions::default().mode(Mode::Wrap))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`grey_erosion_with`].
pub fn black_tophat_with(
    input: &Array,
    window: Window<'_>,
    opts: &FilterOptions<'_>,
) -> Result<Array> {
    let closed = grey_closing_with(input, window, &scratch(opts))?;
    tophat(input, &closed, false, opts.output)
}

/// `input - opened` (white) or `closed - input` (black); exclusive or for
/// booleans, as SciPy's.
fn tophat(input: &Array, other: &Array, white: bool, output: Output<'_>) -> Result<Array> {
    let r = if input.dtype() == DType::Bool && other.dtype() == DType::Bool {
        ufunc::bitwise_xor(input, other)?
    } else if white {
        ufunc::subtract(input, other)?
    } else {
        ufunc::subtract(other, input)?
    };
    let dt = input.dtype();
    let r = if r.dtype() == dt { r } else { r.astype(dt)? };
    deliver(r, output, input)
}
