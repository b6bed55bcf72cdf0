//! Reversing, rolling and rotating: `flip`, `fliplr`, `flipud` and `rot90`
//! are views (negative strides), `roll` a copy.

use super::axis_view;
use crate::array::Array;
use crate::error::{Error, Result};
use crate::layout::{Layout, Order, normalize_axes, normalize_axis};

/// A view of `a` with the order of elements reversed along `axes` (all
/// axes for `None`; NumPy's `flip`).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let f = flip(&arange(4)?, None)?; // [3, 2, 1, 0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// An axis out of bounds or repeated.
pub fn flip(a: &Array, axes: Option<&[isize]>) -> Result<Array> {
    let axes: Vec<usize> = match axes {
        None => (0..a.ndim()).collect(),
        Some(ax) => normalize_axes(ax, a.ndim())?,
    };
    let mut strides = a.strides().to_vec();
    let mut offset = a.layout().offset();
    for &ax in &axes {
        let len = a.shape()[ax];
        if len > 0 {
            offset += (len as isize - 1) * strides[ax];
        }
        strides[ax] = -strides[ax];
    }
    let l = Layout::new(a.shape().to_vec(), strides, offset);
    Ok(a.with_layout(l, a.dtype()))
}

/// [`flip`] along the second axis (NumPy's `fliplr`).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let f = fliplr(&arange(6)?.reshape((2, 3))?)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// Fewer than 2 dimensions ("Input must be >= 2-d.").
pub fn fliplr(a: &Array) -> Result<Array> {
    if a.ndim() < 2 {
        return Err(Error::Value("Input must be >= 2-d.".into()));
    }
    flip(a, Some(&[1]))
}

/// [`flip`] along the first axis (NumPy's `flipud`).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let f = flipud(&arange(6)?.reshape((2, 3))?)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// A 0-d array ("Input must be >= 1-d.").
pub fn flipud(a: &Array) -> Result<Array> {
    if a.ndim() < 1 {
        return Err(Error::Value("Input must be >= 1-d.".into()));
    }
    flip(a, Some(&[0]))
}

/// Per axis of an array of `shape`, the roll amount in `0..len`, from
/// `shift` and `axes` broadcast together (NumPy adds the shifts of a
/// repeated axis).
///
/// ```
/// use gpu_array::manipulation::roll_amounts;
/// assert_eq!(roll_amounts(&[3, 4], &[-1, 5], &[0, 1])?, [2, 1]);
/// assert_eq!(roll_amounts(&[3, 4], &[1], &[1, 1])?, [0, 2]); // a repeated axis adds up
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// Lengths that do not broadcast; an axis out of bounds.
pub fn roll_amounts(shape: &[usize], shift: &[isize], axes: &[isize]) -> Result<Vec<usize>> {
    let n = match (shift.len(), axes.len()) {
        (s, a) if s == a => s,
        (1, a) => a,
        (s, 1) => s,
        (s, a) => {
            return Err(Error::Broadcast {
                shapes: vec![vec![s], vec![a]],
            });
        }
    };
    let mut total = vec![0i128; shape.len()];
    for k in 0..n {
        let s = shift[if shift.len() == 1 { 0 } else { k }];
        let ax = axes[if axes.len() == 1 { 0 } else { k }];
        total[normalize_axis(ax, shape.len())?] += s as i128;
    }
    Ok(total
        .iter()
        .zip(shape)
        .map(|(&t, &len)| {
            if len == 0 {
                0
            } else {
                t.rem_euclid(len as i128) as usize
            }
        })
        .collect())
}

/// Rolls elements along `axes` by `shift` (NumPy's `roll`): elements that
/// leave one end come back at the other. `axes=None` rolls the flattened
/// array (the shifts add up) and restores the shape. A new array.
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let r = roll(&arange(5)?, &[2], None)?; // [3, 4, 0, 1, 2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`roll_amounts`].
pub fn roll(a: &Array, shift: &[isize], axes: Option<&[isize]>) -> Result<Array> {
    let Some(axes) = axes else {
        let total: isize = shift.iter().sum();
        let flat = a.reshape([-1])?;
        let rolled = roll(&flat, &[total], Some(&[0]))?;
        let shape: Vec<isize> = a.shape().iter().map(|&d| d as isize).collect();
        return rolled.reshape(&shape);
    };
    let amounts = roll_amounts(a.shape(), shift, axes)?;
    let out = Array::empty_on(a.device(), a.shape(), a.dtype(), Order::C)?;
    if out.size() == 0 {
        return Ok(out);
    }
    let rolled: Vec<usize> = (0..a.ndim()).filter(|&d| amounts[d] != 0).collect();
    // Each rolled axis cuts into two blocks: source [0, len - s) goes to
    // [s, len), source [len - s, len) to [0, s). One copy per combination.
    for combo in 0..1usize << rolled.len() {
        let (mut src, mut dst) = (a.clone(), out.clone());
        for (bit, &d) in rolled.iter().enumerate() {
            let (len, s) = (a.shape()[d], amounts[d]);
            let (src_start, dst_start, l) = if combo >> bit & 1 == 0 {
                (0, s, len - s)
            } else {
                (len - s, 0, s)
            };
            src = axis_view(&src, d, src_start, l, 1);
            dst = axis_view(&dst, d, dst_start, l, 1);
        }
        dst.copy_from(&src)?;
    }
    Ok(out)
}

/// `a` rotated by 90 degrees `k` times in the plane of `axes`, from the
/// first axis towards the second (NumPy's `rot90`); a view.
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let r = rot90(&arange(4)?.reshape((2, 2))?, 1, [0, 1])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// NumPy's: "Axes must be different.", "Axes=(..) out of range for array
/// of ndim=..".
pub fn rot90(a: &Array, k: isize, axes: [isize; 2]) -> Result<Array> {
    let nd = a.ndim() as isize;
    if axes[0] == axes[1] || (axes[0] - axes[1]).abs() == nd {
        return Err(Error::Value("Axes must be different.".into()));
    }
    if axes.iter().any(|&x| x >= nd || x < -nd) {
        return Err(Error::Value(format!(
            "Axes=({}, {}) out of range for array of ndim={nd}.",
            axes[0], axes[1]
        )));
    }
    let (a0, a1) = (
        normalize_axis(axes[0], a.ndim())?,
        normalize_axis(axes[1], a.ndim())?,
    );
    let mut perm: Vec<isize> = (0..nd).collect();
    perm.swap(a0, a1);
    match k.rem_euclid(4) {
        0 => Ok(a.clone()),
        2 => flip(a, Some(&[a0 as isize, a1 as isize])),
        1 => flip(a, Some(&[a1 as isize]))?.transpose(Some(&perm)),
        _ => flip(&a.transpose(Some(&perm))?, Some(&[a1 as isize])),
    }
}

#[cfg(test)]
mod tests {
    use super::roll_amounts;

    #[test]
    fn roll_amounts_follow_numpy() {
        assert_eq!(roll_amounts(&[5], &[2], &[0]).unwrap(), vec![2]);
        assert_eq!(roll_amounts(&[5], &[-1], &[0]).unwrap(), vec![4]);
        assert_eq!(roll_amounts(&[5], &[12], &[-1]).unwrap(), vec![2]);
        // One shift for several axes, several shifts on one axis (added).
        assert_eq!(roll_amounts(&[3, 4], &[1], &[0, 1]).unwrap(), vec![1, 1]);
        assert_eq!(roll_amounts(&[3, 4], &[1, 2], &[1]).unwrap(), vec![0, 3]);
        assert_eq!(roll_amounts(&[3, 0], &[1], &[1]).unwrap(), vec![0, 0]);
        assert!(roll_amounts(&[3, 4], &[1, 2, 3], &[0, 1]).is_err());
        assert!(roll_amounts(&[3, 4], &[1], &[2]).is_err());
    }
}
