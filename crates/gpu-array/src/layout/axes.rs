//! Axis normalization and axis permutations: transpose, swapaxes, moveaxis,
//! squeeze, expand_dims.

use crate::error::{Error, Result};

/// A shape and byte strides, as the functions here return them.
type ShapeStrides = (Vec<usize>, Vec<isize>);

/// NumPy's `normalize_axis_index`: `axis` in `-ndim..ndim` to `0..ndim`.
///
/// ```no_run
/// use gpu_array::layout::*;
/// # fn main() -> gpu_array::Result<()> {
/// assert_eq!(normalize_axis(-1, 3)?, 2); // normalize_axis_index(-1, 3)
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::AxisOutOfBounds`] "axis 3 is out of bounds for array of dimension 2".
pub fn normalize_axis(axis: isize, ndim: usize) -> Result<usize> {
    normalize_axis_arg(axis, ndim, None)
}

fn normalize_axis_arg(axis: isize, ndim: usize, arg: Option<&'static str>) -> Result<usize> {
    // A negative axis counts from the end; `unsigned_abs` holds even
    // `isize::MIN`, and the subtraction is the check.
    let pos = if axis < 0 {
        ndim.checked_sub(axis.unsigned_abs())
    } else {
        usize::try_from(axis).ok()
    };
    pos.filter(|&p| p < ndim)
        .ok_or(Error::AxisOutOfBounds { arg, axis, ndim })
}

/// Shape and strides must pair up, axis by axis.
fn check_lengths(shape: &[usize], strides: &[isize]) -> Result<()> {
    if shape.len() == strides.len() {
        Ok(())
    } else {
        Err(Error::Shape(format!(
            "shape {} and strides {strides:?} differ in length",
            super::fmt_shape(shape)
        )))
    }
}

/// NumPy's `normalize_axis_tuple`: each axis normalized, no repeats.
///
/// ```no_run
/// use gpu_array::layout::*;
/// # fn main() -> gpu_array::Result<()> {
/// assert_eq!(normalize_axes(&[0, -1], 3)?, [0, 2]); // normalize_axis_tuple((0, -1), 3)
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::AxisOutOfBounds`], or [`Error::Axis`] "repeated axis".
pub fn normalize_axes(axes: &[isize], ndim: usize) -> Result<Vec<usize>> {
    normalize_axes_arg(axes, ndim, None, "repeated axis")
}

fn normalize_axes_arg(
    axes: &[isize],
    ndim: usize,
    arg: Option<&'static str>,
    repeated: &str,
) -> Result<Vec<usize>> {
    let mut out = Vec::with_capacity(axes.len());
    for &a in axes {
        let a = normalize_axis_arg(a, ndim, arg)?;
        if out.contains(&a) {
            return Err(Error::Axis(repeated.to_owned()));
        }
        out.push(a);
    }
    Ok(out)
}

/// `perm` holds axes below `shape.len() == strides.len()` (normalized).
fn permute(shape: &[usize], strides: &[isize], perm: &[usize]) -> ShapeStrides {
    (
        perm.iter().map(|&p| shape[p]).collect(),
        perm.iter().map(|&p| strides[p]).collect(),
    )
}

/// `ndarray.transpose(axes)`: `None` reverses the axes; otherwise output axis
/// `i` is input axis `axes[i]`.
///
/// ```no_run
/// use gpu_array::layout::*;
/// # fn main() -> gpu_array::Result<()> {
/// let (shape, strides) = transpose(&[2, 3], &[24, 8], None)?; // x.T of a (2, 3) float64 array
/// assert_eq!((shape, strides), (vec![3, 2], vec![8, 24]));
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::Shape`] "axes don't match array" when `axes` has the wrong
/// length; [`Error::AxisOutOfBounds`]; [`Error::Axis`] "repeated axis in transpose".
pub fn transpose(
    shape: &[usize],
    strides: &[isize],
    axes: Option<&[isize]>,
) -> Result<ShapeStrides> {
    check_lengths(shape, strides)?;
    let ndim = shape.len();
    let perm: Vec<usize> = match axes {
        None => (0..ndim).rev().collect(),
        Some(axes) if axes.len() != ndim => {
            return Err(Error::Shape("axes don't match array".to_owned()));
        }
        Some(axes) => normalize_axes_arg(axes, ndim, None, "repeated axis in transpose")?,
    };
    Ok(permute(shape, strides, &perm))
}

/// `numpy.swapaxes(a, axis1, axis2)`.
///
/// ```no_run
/// use gpu_array::layout::*;
/// # fn main() -> gpu_array::Result<()> {
/// let (shape, _) = swapaxes(&[2, 3, 4], &[96, 32, 8], 0, 2)?; // np.swapaxes(x, 0, 2)
/// assert_eq!(shape, [4, 3, 2]);
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::AxisOutOfBounds`] ("axis2: axis 3 is out of bounds ...").
pub fn swapaxes(
    shape: &[usize],
    strides: &[isize],
    axis1: isize,
    axis2: isize,
) -> Result<ShapeStrides> {
    check_lengths(shape, strides)?;
    let a = normalize_axis_arg(axis1, shape.len(), Some("axis1"))?;
    let b = normalize_axis_arg(axis2, shape.len(), Some("axis2"))?;
    let (mut shape, mut strides) = (shape.to_vec(), strides.to_vec());
    shape.swap(a, b);
    strides.swap(a, b);
    Ok((shape, strides))
}

/// `numpy.moveaxis(a, source, destination)`: the axes `source` move to
/// positions `destination`; the others keep their order.
///
/// ```no_run
/// use gpu_array::layout::*;
/// # fn main() -> gpu_array::Result<()> {
/// let (shape, _) = moveaxis(&[2, 3, 4], &[96, 32, 8], &[0], &[-1])?; // np.moveaxis(x, 0, -1)
/// assert_eq!(shape, [3, 4, 2]);
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::Shape`] "`source` and `destination` arguments must have the same
/// number of elements"; [`Error::AxisOutOfBounds`] ("source: axis 5 is out of
/// bounds ..."); [`Error::Axis`] "repeated axis in `source` argument".
pub fn moveaxis(
    shape: &[usize],
    strides: &[isize],
    source: &[isize],
    destination: &[isize],
) -> Result<ShapeStrides> {
    check_lengths(shape, strides)?;
    let ndim = shape.len();
    let src = normalize_axes_arg(
        source,
        ndim,
        Some("source"),
        "repeated axis in `source` argument",
    )?;
    let dst = normalize_axes_arg(
        destination,
        ndim,
        Some("destination"),
        "repeated axis in `destination` argument",
    )?;
    if src.len() != dst.len() {
        return Err(Error::Shape(
            "`source` and `destination` arguments must have the same number of elements".to_owned(),
        ));
    }
    let mut order: Vec<usize> = (0..ndim).filter(|a| !src.contains(a)).collect();
    let mut pairs: Vec<(usize, usize)> = dst.into_iter().zip(src).collect();
    pairs.sort_unstable();
    for (d, s) in pairs {
        order.insert(d, s);
    }
    Ok(permute(shape, strides, &order))
}

/// `numpy.squeeze(a, axis)`: removes the given length-1 axes, or all of them
/// for `None`.
///
/// ```no_run
/// use gpu_array::layout::*;
/// # fn main() -> gpu_array::Result<()> {
/// let (shape, _) = squeeze(&[1, 3, 1], &[24, 8, 8], None)?; // np.squeeze(x)
/// assert_eq!(shape, [3]);
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::AxisOutOfBounds`]; [`Error::Axis`] "duplicate value in 'axis'";
/// [`Error::Shape`] "cannot select an axis to squeeze out which has size not
/// equal to one".
pub fn squeeze(shape: &[usize], strides: &[isize], axes: Option<&[isize]>) -> Result<ShapeStrides> {
    check_lengths(shape, strides)?;
    let remove: Vec<usize> = match axes {
        None => (0..shape.len()).filter(|&a| shape[a] == 1).collect(),
        Some(axes) => {
            let axes = normalize_axes_arg(axes, shape.len(), None, "duplicate value in 'axis'")?;
            if axes.iter().any(|&a| shape[a] != 1) {
                return Err(Error::Shape(
                    "cannot select an axis to squeeze out which has size not equal to one"
                        .to_owned(),
                ));
            }
            axes
        }
    };
    let keep: Vec<usize> = (0..shape.len()).filter(|a| !remove.contains(a)).collect();
    Ok(permute(shape, strides, &keep))
}

/// `numpy.expand_dims(a, axis)`: inserts length-1 axes at the positions
/// `axes` of the result (normalized against the result's ndim).
///
/// A new axis gets the stride NumPy's reshape would give it: the span of the
/// axis after it, or the stride of the axis before it when last (0 for a
/// 0-d input).
///
/// ```no_run
/// use gpu_array::layout::*;
/// # fn main() -> gpu_array::Result<()> {
/// let (shape, _) = expand_dims(&[3], &[8], &[0, -1])?; // np.expand_dims(x, (0, -1))
/// assert_eq!(shape, [1, 3, 1]);
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::AxisOutOfBounds`]; [`Error::Axis`] "repeated axis".
pub fn expand_dims(shape: &[usize], strides: &[isize], axes: &[isize]) -> Result<ShapeStrides> {
    check_lengths(shape, strides)?;
    let out_ndim = shape.len() + axes.len();
    let new = normalize_axes(axes, out_ndim)?;
    let is_new: Vec<bool> = (0..out_ndim).map(|i| new.contains(&i)).collect();
    // `new` holds `axes.len()` distinct positions, so the old axes fill the
    // other `shape.len()` exactly.
    let mut old = shape.iter().zip(strides).peekable();
    let mut out_shape = Vec::with_capacity(out_ndim);
    let mut out_strides = Vec::with_capacity(out_ndim);
    for &n in &is_new {
        match (n, old.next_if(|_| !n)) {
            (false, Some((&d, &s))) => {
                out_shape.push(d);
                out_strides.push(s);
            }
            _ => {
                out_shape.push(1);
                out_strides.push(0);
            }
        }
    }
    // A new axis before an old one: the span of the axis after it. A span
    // beyond `isize` (only a hostile layout has one) leaves the stride 0,
    // which a length-1 axis never uses.
    let mut next: Option<isize> = None;
    for ((&n, st), &d) in is_new
        .iter()
        .zip(out_strides.iter_mut())
        .zip(&out_shape)
        .rev()
    {
        if !n {
            next = isize::try_from(d).ok().and_then(|d| (*st).checked_mul(d));
        } else if let Some(span) = next {
            *st = span;
        }
    }
    // Trailing new axes: the stride of the last old axis.
    if let Some(last) = is_new.iter().rposition(|&n| !n)
        && let Some((s, rest)) = out_strides[last..].split_first_mut()
    {
        rest.fill(*s);
    }
    Ok((out_shape, out_strides))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize() {
        assert_eq!(normalize_axis(-1, 3).unwrap(), 2);
        assert_eq!(normalize_axis(2, 3).unwrap(), 2);
        assert_eq!(
            normalize_axis(3, 2).unwrap_err().to_string(),
            "axis 3 is out of bounds for array of dimension 2"
        );
        assert_eq!(
            normalize_axis(-3, 2).unwrap_err().to_string(),
            "axis -3 is out of bounds for array of dimension 2"
        );
        assert!(normalize_axis(0, 0).is_err());
        assert_eq!(normalize_axes(&[0, -1], 3).unwrap(), [0, 2]);
        assert_eq!(
            normalize_axes(&[0, -3], 3).unwrap_err().to_string(),
            "repeated axis"
        );
    }

    #[test]
    fn permutations_like_numpy() {
        let (sh, st) = (vec![2, 1, 3], vec![24, 24, 8]);
        assert_eq!(
            transpose(&sh, &st, None).unwrap(),
            (vec![3, 1, 2], vec![8, 24, 24])
        );
        assert_eq!(
            transpose(&sh, &st, Some(&[1, 2, 0])).unwrap(),
            (vec![1, 3, 2], vec![24, 8, 24])
        );
        assert_eq!(
            transpose(&sh, &st, Some(&[0, 1])).unwrap_err().to_string(),
            "axes don't match array"
        );
        assert_eq!(
            transpose(&sh, &st, Some(&[0, 0, 1]))
                .unwrap_err()
                .to_string(),
            "repeated axis in transpose"
        );
        assert_eq!(
            transpose(&sh, &st, Some(&[0, 1, 5]))
                .unwrap_err()
                .to_string(),
            "axis 5 is out of bounds for array of dimension 3"
        );
        assert_eq!(
            swapaxes(&sh, &st, 0, -1).unwrap(),
            (vec![3, 1, 2], vec![8, 24, 24])
        );
        assert_eq!(
            swapaxes(&sh, &st, 0, 3).unwrap_err().to_string(),
            "axis2: axis 3 is out of bounds for array of dimension 3"
        );
    }

    #[test]
    fn moveaxis_like_numpy() {
        // np.moveaxis(np.zeros((3, 4, 5)), 0, -1).shape == (4, 5, 3)
        let (sh, st) = (vec![3, 4, 5], vec![160, 40, 8]);
        assert_eq!(moveaxis(&sh, &st, &[0], &[-1]).unwrap().0, [4, 5, 3]);
        assert_eq!(moveaxis(&sh, &st, &[-1], &[0]).unwrap().0, [5, 3, 4]);
        assert_eq!(moveaxis(&sh, &st, &[0, 1], &[-1, -2]).unwrap().0, [5, 4, 3]);
        assert_eq!(
            moveaxis(&sh, &st, &[0, 1, 2], &[-1, -2, -3]).unwrap(),
            (vec![5, 4, 3], vec![8, 40, 160])
        );
        assert_eq!(
            moveaxis(&sh, &st, &[0, 1], &[0]).unwrap_err().to_string(),
            "`source` and `destination` arguments must have the same number of elements"
        );
        assert_eq!(
            moveaxis(&sh, &st, &[0, 0], &[1, 2])
                .unwrap_err()
                .to_string(),
            "repeated axis in `source` argument"
        );
        assert_eq!(
            moveaxis(&sh, &st, &[0, 1], &[1, 1])
                .unwrap_err()
                .to_string(),
            "repeated axis in `destination` argument"
        );
        assert_eq!(
            moveaxis(&sh, &st, &[5], &[0]).unwrap_err().to_string(),
            "source: axis 5 is out of bounds for array of dimension 3"
        );
    }

    #[test]
    fn squeeze_and_expand() {
        let (sh, st) = (vec![2, 1, 3], vec![24, 24, 8]);
        assert_eq!(squeeze(&sh, &st, None).unwrap(), (vec![2, 3], vec![24, 8]));
        assert_eq!(
            squeeze(&sh, &st, Some(&[-2])).unwrap(),
            (vec![2, 3], vec![24, 8])
        );
        assert_eq!(
            squeeze(&sh, &st, Some(&[0])).unwrap_err().to_string(),
            "cannot select an axis to squeeze out which has size not equal to one"
        );
        assert_eq!(
            squeeze(&sh, &st, Some(&[1, 1])).unwrap_err().to_string(),
            "duplicate value in 'axis'"
        );
        assert_eq!(
            squeeze(&sh, &st, Some(&[4])).unwrap_err().to_string(),
            "axis 4 is out of bounds for array of dimension 3"
        );
        // np.expand_dims(np.zeros((2, 1, 3)), (0, -1)): shape (1,2,1,3,1), strides (48,24,24,8,8)
        assert_eq!(
            expand_dims(&sh, &st, &[0, -1]).unwrap(),
            (vec![1, 2, 1, 3, 1], vec![48, 24, 24, 8, 8])
        );
        assert_eq!(
            expand_dims(&sh, &st, &[0, 0]).unwrap_err().to_string(),
            "repeated axis"
        );
        assert_eq!(
            expand_dims(&sh, &st, &[5]).unwrap_err().to_string(),
            "axis 5 is out of bounds for array of dimension 4"
        );
        assert_eq!(expand_dims(&[], &[], &[0]).unwrap(), (vec![1], vec![0]));
    }
}
