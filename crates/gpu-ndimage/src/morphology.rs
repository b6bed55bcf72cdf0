//! Grey-scale morphology with flat structuring elements (SciPy's
//! `grey_erosion`, `grey_dilation`, `grey_opening`, `grey_closing`): the
//! minimum and maximum filters with SciPy's reflection of the footprint and
//! origin for dilation. Non-flat structuring elements (`structure=`) are
//! not taken yet.

use gpu_array::{Array, Error, Result};

use crate::{Mode, Output, maximum_filter, minimum_filter};

/// The window of a grey-scale operation: a box of `size` (one value or one
/// an axis) or the true elements of `footprint` (SciPy's `size=` and
/// `footprint=`; `structure=` is not taken yet).
#[derive(Debug, Clone, Copy)]
pub enum Window<'a> {
    /// A box, one side or one an axis.
    Size(&'a [usize]),
    /// A boolean footprint of the input's rank.
    Footprint(&'a Array),
}

/// `origin` (one value or one an axis) as one per axis of `ndim`.
fn per_axis(origin: &[i64], ndim: usize) -> Result<Vec<i64>> {
    match origin.len() {
        1 => Ok(vec![origin[0]; ndim]),
        n if n == ndim => Ok(origin.to_vec()),
        _ => Err(Error::Value(
            "sequence argument must have length equal to input rank".into(),
        )),
    }
}

/// SciPy's `grey_erosion` with a flat structuring element: the minimum
/// over the window (SciPy's `minimum_filter`).
///
/// ```no_run
/// use gpu_ndimage::morphology::{Window, grey_erosion};
/// use gpu_ndimage::{Mode, Output};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let e = grey_erosion(&x, Window::Size(&[3]), Output::None, Mode::Reflect, 0.0, &[0])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As `minimum_filter`'s: a footprint of the wrong rank, an invalid origin,
/// an output of another shape, an unsupported dtype.
pub fn grey_erosion(
    input: &Array,
    window: Window<'_>,
    output: Output<'_>,
    mode: Mode,
    cval: f64,
    origin: &[i64],
) -> Result<Array> {
    let origin = per_axis(origin, input.ndim())?;
    match window {
        Window::Size(s) => {
            minimum_filter(input, Some(s), None, output, &[mode], cval, &origin, None)
        }
        Window::Footprint(f) => {
            minimum_filter(input, None, Some(f), output, &[mode], cval, &origin, None)
        }
    }
}

/// SciPy's `grey_dilation` with a flat structuring element: the maximum
/// over the window reflected through its centre, the origin negated (and
/// moved by one along even sides), as SciPy's.
///
/// ```no_run
/// use gpu_ndimage::morphology::{Window, grey_dilation};
/// use gpu_ndimage::{Mode, Output};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let d = grey_dilation(&x, Window::Size(&[2, 3]), Output::None, Mode::Reflect, 0.0, &[0])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`grey_erosion`].
pub fn grey_dilation(
    input: &Array,
    window: Window<'_>,
    output: Output<'_>,
    mode: Mode,
    cval: f64,
    origin: &[i64],
) -> Result<Array> {
    let nd = input.ndim();
    let mut origin = per_axis(origin, nd)?;
    let sides: Vec<usize> = match window {
        Window::Size(s) => match s.len() {
            1 => vec![s[0]; nd],
            n if n == nd => s.to_vec(),
            _ => {
                return Err(Error::Value(
                    "sequence argument must have length equal to input rank".into(),
                ));
            }
        },
        Window::Footprint(f) => f.shape().to_vec(),
    };
    if sides.len() != nd {
        // SciPy's words, as the filters give them.
        return Err(Error::NumpyRuntime(format!(
            "footprint.ndim ({}) must match len(axes) ({nd})",
            sides.len()
        )));
    }
    for (o, &side) in origin.iter_mut().zip(&sides) {
        *o = -*o;
        if side % 2 == 0 {
            *o -= 1;
        }
    }
    match window {
        Window::Size(s) => {
            maximum_filter(input, Some(s), None, output, &[mode], cval, &origin, None)
        }
        Window::Footprint(f) => {
            let flipped = gpu_array::manipulation::flip(f, None)?;
            maximum_filter(
                input,
                None,
                Some(&flipped),
                output,
                &[mode],
                cval,
                &origin,
                None,
            )
        }
    }
}

/// SciPy's `grey_opening`: [`grey_erosion`] then [`grey_dilation`] with
/// the same window (the result in `output`).
///
/// ```no_run
/// use gpu_ndimage::morphology::{Window, grey_opening};
/// use gpu_ndimage::{Mode, Output};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let o = grey_opening(&x, Window::Size(&[3]), Output::None, Mode::Reflect, 0.0, &[0])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`grey_erosion`].
pub fn grey_opening(
    input: &Array,
    window: Window<'_>,
    output: Output<'_>,
    mode: Mode,
    cval: f64,
    origin: &[i64],
) -> Result<Array> {
    let tmp = grey_erosion(input, window, Output::None, mode, cval, origin)?;
    grey_dilation(&tmp, window, output, mode, cval, origin)
}

/// SciPy's `grey_closing`: [`grey_dilation`] then [`grey_erosion`].
///
/// ```no_run
/// use gpu_ndimage::morphology::{Window, grey_closing};
/// use gpu_ndimage::{Mode, Output};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let c = grey_closing(&x, Window::Size(&[3]), Output::None, Mode::Reflect, 0.0, &[0])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`grey_erosion`].
pub fn grey_closing(
    input: &Array,
    window: Window<'_>,
    output: Output<'_>,
    mode: Mode,
    cval: f64,
    origin: &[i64],
) -> Result<Array> {
    let tmp = grey_dilation(input, window, Output::None, mode, cval, origin)?;
    grey_erosion(&tmp, window, output, mode, cval, origin)
}
