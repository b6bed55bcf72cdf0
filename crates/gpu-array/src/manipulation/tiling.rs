//! `tile` and `repeat`: one strided copy of a broadcast view, or a gather
//! for per-element repeat counts.

use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::indexing::{TakeMode, take};
use crate::layout::{Layout, Order, normalize_axis};
use crate::sorting::Side;

/// `a` repeated `reps[k]` times along each axis (NumPy's `tile`): with
/// fewer reps than dimensions, leading reps are 1; with more, `a` gets
/// leading dimensions of length 1. Always a new array.
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let t = tile(&array([1, 2])?, &[2, 2])?; // shape (2, 4)
/// # Ok(()) }
/// ```
///
/// # Errors
/// The result's size overflows; allocation failed.
pub fn tile(a: &Array, reps: &[usize]) -> Result<Array> {
    let nd = a.ndim().max(reps.len());
    let mut shape = vec![1usize; nd - a.ndim()];
    shape.extend_from_slice(a.shape());
    let mut strides = vec![0isize; nd - a.ndim()];
    strides.extend_from_slice(a.strides());
    let mut r = vec![1usize; nd - reps.len()];
    r.extend_from_slice(reps);
    // View [r0, s0, r1, s1, ...] with zero strides on the rep axes.
    let mut vshape = Vec::with_capacity(2 * nd);
    let mut vstrides = Vec::with_capacity(2 * nd);
    for k in 0..nd {
        vshape.extend([r[k], shape[k]]);
        vstrides.extend([0, strides[k]]);
    }
    // Huge reps make a shape too big to view, let alone allocate.
    let view = a.with_layout(
        Layout::try_new(vshape.clone(), vstrides, a.layout().offset())?,
        a.dtype(),
    );
    let out = Array::empty_on(a.device(), &vshape, a.dtype(), Order::C)?;
    out.copy_from(&view)?;
    let fin: Vec<isize> = (0..nd).map(|k| (r[k] * shape[k]) as isize).collect();
    out.reshape(&fin)
}

/// The gather indices of a per-element repeat, on the host: position `k`
/// of an axis of length `len` repeated `repeats[k]` times (one count for
/// all when `repeats` has one entry); what [`repeat`]'s device path
/// computes.
///
/// ```
/// use gpu_array::manipulation::repeat_indices;
/// assert_eq!(repeat_indices(3, &[2])?, [0, 0, 1, 1, 2, 2]);
/// assert_eq!(repeat_indices(3, &[1, 0, 2])?, [0, 2, 2]);
/// assert!(repeat_indices(3, &[1, 2]).is_err());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// Counts that do not broadcast to the axis (NumPy's message).
pub fn repeat_indices(len: usize, repeats: &[usize]) -> Result<Vec<i64>> {
    if repeats.len() != 1 && repeats.len() != len {
        return Err(Error::Value(format!(
            "operands could not be broadcast together with shape ({len},) ({},)",
            repeats.len()
        )));
    }
    let mut out = Vec::new();
    for k in 0..len {
        let r = if repeats.len() == 1 {
            repeats[0]
        } else {
            repeats[k]
        };
        out.extend(std::iter::repeat_n(k as i64, r));
    }
    Ok(out)
}

/// Repeats each element of `a` along `axis` (NumPy's `repeat`; `None`
/// repeats the flattened array): `repeats` is one count for all, or one
/// count per element of the axis (as CuPy, counts are host values; see
/// [`repeat_array`] for device counts). A single count is one strided copy
/// of a broadcast view; per-element counts are a cumulative sum on the
/// device, a binary search per output position and a gather along the
/// axis.
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let r = repeat(&array([1, 2])?, &[2], None)?; // [1, 1, 2, 2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Counts that do not match the axis; an axis out of bounds.
pub fn repeat(a: &Array, repeats: &[usize], axis: Option<isize>) -> Result<Array> {
    let (src, ax) = match axis {
        None => (a.reshape([-1])?, 0),
        Some(ax) => {
            if a.ndim() == 0 {
                return Err(Error::AxisOutOfBounds {
                    arg: None,
                    axis: ax,
                    ndim: 0,
                });
            }
            (a.clone(), normalize_axis(ax, a.ndim())?)
        }
    };
    if repeats.is_empty() {
        return Err(Error::Value(
            "repeat: `repeats` needs at least one count".into(),
        ));
    }
    if repeats.len() == 1 {
        let r = repeats[0];
        let mut vshape = src.shape().to_vec();
        let mut vstrides = src.strides().to_vec();
        vshape.insert(ax + 1, r);
        vstrides.insert(ax + 1, 0);
        let view = src.with_layout(
            Layout::try_new(vshape.clone(), vstrides, src.layout().offset())?,
            src.dtype(),
        );
        let out = Array::empty_on(src.device(), &vshape, src.dtype(), Order::C)?;
        out.copy_from(&view)?;
        let mut fin: Vec<isize> = src.shape().iter().map(|&d| d as isize).collect();
        fin[ax] *= r as isize;
        return out.reshape(&fin);
    }
    // Per-element counts: the inclusive prefix sums of the counts on the
    // device; output position j along the axis comes from the first
    // element whose prefix exceeds j (searchsorted, side right).
    let len = src.shape()[ax];
    if repeats.len() != len {
        return Err(Error::Value(format!(
            "operands could not be broadcast together with shape ({len},) ({},)",
            repeats.len()
        )));
    }
    let total: usize = repeats.iter().sum();
    let dev = src.device();
    let counts: Vec<i64> = repeats.iter().map(|&r| r as i64).collect();
    let counts = Array::from_slice_on(dev, &counts, &[len])?;
    let ends = crate::math::cumsum(&counts, None, Some(DType::Int64))?;
    let pos = crate::creation::arange_with(0, total as i64, 1, Some(DType::Int64))?;
    let idx = crate::sorting::searchsorted(&ends, &pos, Side::Right, None)?;
    take(&src, &idx, Some(ax as isize), TakeMode::Wrap)
}

/// [`repeat`] with the counts in a device array of integers (one count,
/// or one per element of the axis). Reads the counts back to the host
/// (the result's shape depends on them).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let r = repeat_array(&array([1, 2])?, &array([1, 3])?, None)?; // [1, 2, 2, 2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Non-integer or negative counts ("repeats may not contain negative
/// values"); as [`repeat`].
pub fn repeat_array(a: &Array, repeats: &Array, axis: Option<isize>) -> Result<Array> {
    if !repeats.dtype().is_integer() || repeats.ndim() > 1 {
        return Err(Error::DType(format!(
            "repeat: repeats must be integers of at most one dimension, not {} of shape {}",
            repeats.dtype(),
            crate::layout::fmt_shape(repeats.shape())
        )));
    }
    let counts = repeats.astype(DType::Int64)?.to_vec::<i64>()?;
    if counts.iter().any(|&c| c < 0) {
        return Err(Error::Value(
            "repeats may not contain negative values.".into(),
        ));
    }
    let counts: Vec<usize> = counts.iter().map(|&c| c as usize).collect();
    repeat(a, &counts, axis)
}

#[cfg(test)]
mod tests {
    use super::repeat_indices;

    #[test]
    fn repeat_indices_follow_counts() {
        assert_eq!(repeat_indices(3, &[2]).unwrap(), vec![0, 0, 1, 1, 2, 2]);
        assert_eq!(repeat_indices(3, &[1, 0, 3]).unwrap(), vec![0, 2, 2, 2]);
        assert_eq!(repeat_indices(0, &[4]).unwrap(), Vec::<i64>::new());
        assert!(repeat_indices(3, &[1, 2]).is_err());
    }
}
