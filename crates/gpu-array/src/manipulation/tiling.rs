//! `tile` and `repeat`: one strided copy of a broadcast view, or a gather
//! for per-element repeat counts.

use crate::array::Array;
use crate::error::{Error, Result};
use crate::indexing::{TakeMode, take};
use crate::layout::{Layout, Order, normalize_axis};

/// `a` repeated `reps[k]` times along each axis (NumPy's `tile`): with
/// fewer reps than dimensions, leading reps are 1; with more, `a` gets
/// leading dimensions of length 1. Always a new array.
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
    let view = a.with_layout(
        Layout::new(vshape.clone(), vstrides, a.layout().offset()),
        a.dtype(),
    );
    let out = Array::empty_on(a.device(), &vshape, a.dtype(), Order::C)?;
    out.copy_from(&view)?;
    let fin: Vec<isize> = (0..nd).map(|k| (r[k] * shape[k]) as isize).collect();
    out.reshape(&fin)
}

/// The gather indices of a per-element repeat: position `k` of an axis of
/// length `len` repeated `repeats[k]` times (one count for all when
/// `repeats` has one entry).
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
/// count per element of the axis (as CuPy, counts are host values). A
/// single count is one strided copy of a broadcast view; per-element
/// counts gather along the axis.
///
/// # Errors
/// Counts that do not match the axis; an axis out of bounds.
pub fn repeat(a: &Array, repeats: &[usize], axis: Option<isize>) -> Result<Array> {
    let (src, ax) = match axis {
        None => (a.reshape(&[-1])?, 0),
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
            Layout::new(vshape.clone(), vstrides, src.layout().offset()),
            src.dtype(),
        );
        let out = Array::empty_on(src.device(), &vshape, src.dtype(), Order::C)?;
        out.copy_from(&view)?;
        let mut fin: Vec<isize> = src.shape().iter().map(|&d| d as isize).collect();
        fin[ax] *= r as isize;
        return out.reshape(&fin);
    }
    let idx = repeat_indices(src.shape()[ax], repeats)?;
    let n = idx.len();
    let idx = Array::from_slice_on(src.device(), &idx, &[n])?;
    take(&src, &idx, Some(ax as isize), TakeMode::Wrap)
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
