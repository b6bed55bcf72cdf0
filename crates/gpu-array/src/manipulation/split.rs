//! Splitting arrays into views: `split`, `array_split` and the axis forms.

use super::axis_view;
use crate::array::Array;
use crate::error::{Error, Result};
use crate::layout::normalize_axis;

/// How to split an axis: into a number of sections, or at indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sections {
    /// This many sections (equal for [`split`]; the first `len % n` one
    /// longer for [`array_split`]).
    Count(usize),
    /// Split before each of these positions (Python slice bounds: negative
    /// counts from the end, out-of-range positions are clamped, a smaller
    /// index after a larger one gives an empty piece).
    Indices(Vec<isize>),
}

impl From<usize> for Sections {
    fn from(n: usize) -> Self {
        Sections::Count(n)
    }
}

impl From<Vec<isize>> for Sections {
    fn from(v: Vec<isize>) -> Self {
        Sections::Indices(v)
    }
}

impl From<&[isize]> for Sections {
    fn from(v: &[isize]) -> Self {
        Sections::Indices(v.to_vec())
    }
}

/// Python's slice bound `i` over a length `len` (step 1), clamped.
fn clamp_bound(i: isize, len: usize) -> usize {
    let n = len as isize;
    let j = if i < 0 { i + n } else { i };
    j.clamp(0, n) as usize
}

/// The `(start, stop)` of each piece of an axis of length `len` split by
/// `sections`; `equal` demands equal sections (NumPy's `split`).
///
/// ```
/// use gpu_array::manipulation::{Sections, split_bounds};
/// assert_eq!(split_bounds(7, &Sections::Count(3), false)?, [(0, 3), (3, 5), (5, 7)]);
/// assert_eq!(split_bounds(7, &Sections::Indices(vec![2, -2]), false)?, [(0, 2), (2, 5), (5, 7)]);
/// assert!(split_bounds(7, &Sections::Count(3), true).is_err()); // not an equal division
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// Zero sections ("number sections must be larger than 0."), or an unequal
/// division with `equal` ("array split does not result in an equal
/// division").
pub fn split_bounds(len: usize, sections: &Sections, equal: bool) -> Result<Vec<(usize, usize)>> {
    match sections {
        Sections::Count(0) => Err(Error::Value(
            "number sections must be larger than 0.".into(),
        )),
        Sections::Count(n) => {
            let n = *n;
            if equal && !len.is_multiple_of(n) {
                return Err(Error::Value(
                    "array split does not result in an equal division".into(),
                ));
            }
            let (each, extra) = (len / n, len % n);
            let mut at = 0;
            Ok((0..n)
                .map(|k| {
                    let l = each + usize::from(k < extra);
                    let b = (at, at + l);
                    at += l;
                    b
                })
                .collect())
        }
        Sections::Indices(idx) => {
            let mut points = Vec::with_capacity(idx.len() + 2);
            points.push(0);
            points.extend(idx.iter().map(|&i| clamp_bound(i, len)));
            points.push(len);
            Ok(points.windows(2).map(|w| (w[0], w[1].max(w[0]))).collect())
        }
    }
}

fn split_views(a: &Array, sections: &Sections, axis: isize, equal: bool) -> Result<Vec<Array>> {
    if a.ndim() == 0 {
        return Err(Error::AxisOutOfBounds {
            arg: None,
            axis,
            ndim: 0,
        });
    }
    let ax = normalize_axis(axis, a.ndim())?;
    let bounds = split_bounds(a.shape()[ax], sections, equal)?;
    Ok(bounds
        .into_iter()
        .map(|(s, e)| axis_view(a, ax, s, e - s, 1))
        .collect())
}

/// Views of `a` split along `axis` (NumPy's `split`): a count must divide
/// the axis.
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let parts = split(&arange(6)?, 3, 0)?; // three arrays of 2
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`split_bounds`]; an axis out of bounds.
pub fn split(a: &Array, sections: impl Into<Sections>, axis: isize) -> Result<Vec<Array>> {
    split_views(a, &sections.into(), axis, true)
}

/// [`split`] that allows an unequal division (NumPy's `array_split`).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let parts = array_split(&arange(7)?, 3, 0)?; // lengths 3, 2, 2
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`split`], except the equal division.
pub fn array_split(a: &Array, sections: impl Into<Sections>, axis: isize) -> Result<Vec<Array>> {
    split_views(a, &sections.into(), axis, false)
}

/// [`split`] along the second axis, the first for 1-D (NumPy's `hsplit`).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let parts = hsplit(&arange(6)?.reshape((2, 3))?, 3)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// A 0-d array; as [`split`].
pub fn hsplit(a: &Array, sections: impl Into<Sections>) -> Result<Vec<Array>> {
    match a.ndim() {
        0 => Err(Error::Value(
            "hsplit only works on arrays of 1 or more dimensions".into(),
        )),
        1 => split(a, sections, 0),
        _ => split(a, sections, 1),
    }
}

/// [`split`] along the first axis of an array of 2 or more dimensions
/// (NumPy's `vsplit`).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let parts = vsplit(&arange(6)?.reshape((2, 3))?, 2)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// Fewer than 2 dimensions; as [`split`].
pub fn vsplit(a: &Array, sections: impl Into<Sections>) -> Result<Vec<Array>> {
    if a.ndim() < 2 {
        return Err(Error::Value(
            "vsplit only works on arrays of 2 or more dimensions".into(),
        ));
    }
    split(a, sections, 0)
}

/// [`split`] along the third axis of an array of 3 or more dimensions
/// (NumPy's `dsplit`).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let parts = dsplit(&arange(8)?.reshape((2, 2, 2))?, 2)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// Fewer than 3 dimensions; as [`split`].
pub fn dsplit(a: &Array, sections: impl Into<Sections>) -> Result<Vec<Array>> {
    if a.ndim() < 3 {
        return Err(Error::Value(
            "dsplit only works on arrays of 3 or more dimensions".into(),
        ));
    }
    split(a, sections, 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_split_like_numpy() {
        assert_eq!(
            split_bounds(7, &Sections::Count(3), false).unwrap(),
            vec![(0, 3), (3, 5), (5, 7)]
        );
        assert_eq!(
            split_bounds(6, &Sections::Count(3), true).unwrap(),
            vec![(0, 2), (2, 4), (4, 6)]
        );
        assert!(split_bounds(7, &Sections::Count(3), true).is_err());
        assert!(split_bounds(7, &Sections::Count(0), false).is_err());
        // More sections than elements: trailing empties.
        assert_eq!(
            split_bounds(2, &Sections::Count(4), false).unwrap(),
            vec![(0, 1), (1, 2), (2, 2), (2, 2)]
        );
    }

    #[test]
    fn indices_split_like_python_slices() {
        // np.array_split(np.arange(8), [3, 5, 6, 10]).
        assert_eq!(
            split_bounds(8, &Sections::Indices(vec![3, 5, 6, 10]), false).unwrap(),
            vec![(0, 3), (3, 5), (5, 6), (6, 8), (8, 8)]
        );
        // Negative and decreasing indices: a[0:-2], a[-2:1] (empty), a[1:].
        assert_eq!(
            split_bounds(5, &Sections::Indices(vec![-2, 1]), true).unwrap(),
            vec![(0, 3), (3, 3), (1, 5)]
        );
        assert_eq!(
            split_bounds(0, &Sections::Indices(vec![]), true).unwrap(),
            vec![(0, 0)]
        );
    }
}
