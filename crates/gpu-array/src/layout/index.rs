//! Basic indexing: integers, slices, `newaxis` and `...`, and the [`s!`](crate::s) macro.

use std::ops::{Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};

use crate::error::{Error, Result};

/// One entry of a basic index, as in `a[1, 2:, ::-1, np.newaxis, ...]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AxisIndex {
    /// An integer: selects one position and removes the axis; negative
    /// counts from the end.
    Index(isize),
    /// A Python slice `start:stop:step`, with Python's semantics: negative
    /// bounds count from the end, bounds are clamped, `None` is the natural
    /// end for the step's direction.
    Slice {
        /// First position (`None`: 0, or the last for a negative step).
        start: Option<isize>,
        /// End, exclusive (`None`: past the end, or before 0 for a negative step).
        stop: Option<isize>,
        /// Step, nonzero.
        step: isize,
    },
    /// `np.newaxis`: inserts an axis of length 1.
    NewAxis,
    /// `...`: as many full slices as needed (at most one per index).
    Ellipsis,
}

impl AxisIndex {
    /// The full slice `:`.
    pub const FULL: AxisIndex = AxisIndex::Slice {
        start: None,
        stop: None,
        step: 1,
    };

    /// A slice from a Rust range and a step (used by [`s!`](crate::s)):
    /// `a..b` is `a:b:step`, `..` is `::step`. An inclusive end `..=b` means
    /// "up to and including b" in the step's direction.
    ///
    /// ```
    /// use gpu_array::AxisIndex;
    /// assert_eq!(
    ///     AxisIndex::stepped(1..7, 2),
    ///     AxisIndex::Slice { start: Some(1), stop: Some(7), step: 2 }
    /// ); // 1:7:2
    /// ```
    pub fn stepped(range: impl SliceRange, step: isize) -> AxisIndex {
        let (start, stop) = range.bounds(step);
        AxisIndex::Slice { start, stop, step }
    }
}

/// Rust ranges usable as slice bounds: `a..b`, `a..`, `..b`, `..`, `a..=b`,
/// `..=b`, of `isize`, `i32`, `i64` or `usize`.
pub trait SliceRange {
    /// `(start, stop)` of the Python slice for this range and step.
    fn bounds(self, step: isize) -> (Option<isize>, Option<isize>);
}

/// The exclusive stop of an inclusive end `end` (Python index), or `None`
/// when the inclusive end is the last position in the step's direction.
///
/// Where `end + 1` (`end - 1`) does not fit `isize`, no position of any axis
/// lies beyond `end`, so the natural end, `None`, selects the same.
fn inclusive_stop(end: isize, step: isize) -> Option<isize> {
    if step > 0 {
        if end == -1 { None } else { end.checked_add(1) }
    } else if end == 0 {
        None
    } else {
        end.checked_sub(1)
    }
}

/// A bound or index as `isize`, saturated at `isize::MIN`/`isize::MAX`.
///
/// Saturation keeps NumPy's meaning: an axis has at most `isize::MAX`
/// positions, so a slice bound beyond `isize::MAX` clamps as `isize::MAX`
/// does, and an integer index beyond it is out of bounds as `isize::MAX`
/// is. A wrapping `as isize` would turn `usize::MAX` into `-1`, the last
/// position.
fn saturating_isize<T: TryInto<isize> + PartialOrd + Default + Copy>(v: T) -> isize {
    v.try_into().unwrap_or(if v < T::default() {
        isize::MIN
    } else {
        isize::MAX
    })
}

impl SliceRange for RangeFull {
    fn bounds(self, _: isize) -> (Option<isize>, Option<isize>) {
        (None, None)
    }
}

macro_rules! impl_slice_range {
    ($($t:ty),*) => {$(
        impl SliceRange for Range<$t> {
            fn bounds(self, _: isize) -> (Option<isize>, Option<isize>) {
                (Some(saturating_isize(self.start)), Some(saturating_isize(self.end)))
            }
        }
        impl SliceRange for RangeFrom<$t> {
            fn bounds(self, _: isize) -> (Option<isize>, Option<isize>) {
                (Some(saturating_isize(self.start)), None)
            }
        }
        impl SliceRange for RangeTo<$t> {
            fn bounds(self, _: isize) -> (Option<isize>, Option<isize>) {
                (None, Some(saturating_isize(self.end)))
            }
        }
        impl SliceRange for RangeInclusive<$t> {
            fn bounds(self, step: isize) -> (Option<isize>, Option<isize>) {
                (
                    Some(saturating_isize(*self.start())),
                    inclusive_stop(saturating_isize(*self.end()), step),
                )
            }
        }
        impl SliceRange for RangeToInclusive<$t> {
            fn bounds(self, step: isize) -> (Option<isize>, Option<isize>) {
                (None, inclusive_stop(saturating_isize(self.end), step))
            }
        }
        impl From<$t> for AxisIndex {
            fn from(i: $t) -> AxisIndex {
                AxisIndex::Index(saturating_isize(i))
            }
        }
        impl From<Range<$t>> for AxisIndex {
            fn from(r: Range<$t>) -> AxisIndex {
                AxisIndex::stepped(r, 1)
            }
        }
        impl From<RangeFrom<$t>> for AxisIndex {
            fn from(r: RangeFrom<$t>) -> AxisIndex {
                AxisIndex::stepped(r, 1)
            }
        }
        impl From<RangeTo<$t>> for AxisIndex {
            fn from(r: RangeTo<$t>) -> AxisIndex {
                AxisIndex::stepped(r, 1)
            }
        }
        impl From<RangeInclusive<$t>> for AxisIndex {
            fn from(r: RangeInclusive<$t>) -> AxisIndex {
                AxisIndex::stepped(r, 1)
            }
        }
        impl From<RangeToInclusive<$t>> for AxisIndex {
            fn from(r: RangeToInclusive<$t>) -> AxisIndex {
                AxisIndex::stepped(r, 1)
            }
        }
    )*};
}

impl_slice_range!(isize, i32, i64, usize);

impl From<RangeFull> for AxisIndex {
    fn from(_: RangeFull) -> AxisIndex {
        AxisIndex::FULL
    }
}

/// Builds a basic index, a `Vec<`[`AxisIndex`]`>`, with a syntax close to
/// NumPy's subscript:
///
/// | NumPy           | `s!`             |
/// |-----------------|------------------|
/// | `a[1]`          | `s![1]`          |
/// | `a[-1]`         | `s![-1]`         |
/// | `a[2:]`         | `s![2..]`        |
/// | `a[:3]`         | `s![..3]`        |
/// | `a[1:5:2]`      | `s![1..5;2]`     |
/// | `a[::-1]`       | `s![..;-1]`      |
/// | `a[:]`          | `s![..]`         |
/// | `a[np.newaxis]` | `s![NewAxis]`    |
/// | `a[...]`        | `s![...]`        |
/// | `a[i, j:k]`     | `s![i, j..k]`    |
///
/// Entries are separated by commas; a slice's step follows `;`. Bounds and
/// indices are any expression of type `isize`, `i32`, `i64` or `usize`
/// (literals default to `i32`). Unlike ndarray's `s!`, the semantics are
/// NumPy's: `a..b;-1` starts at `a` and walks down to `b` (exclusive), as
/// `a[a:b:-1]` does. `NewAxis` and `...` are matched as tokens.
///
/// ```
/// use gpu_array::layout::AxisIndex;
/// use gpu_array::s;
///
/// let idx = s![1, 2..;2, ..;-1, NewAxis, ...];
/// assert_eq!(idx[0], AxisIndex::Index(1));
/// assert_eq!(idx[1], AxisIndex::Slice { start: Some(2), stop: None, step: 2 });
/// assert_eq!(idx[2], AxisIndex::Slice { start: None, stop: None, step: -1 });
/// assert_eq!(idx[3], AxisIndex::NewAxis);
/// assert_eq!(idx[4], AxisIndex::Ellipsis);
/// ```
#[macro_export]
macro_rules! s {
    (@acc [$($out:expr),*]) => {{
        let index: ::std::vec::Vec<$crate::layout::AxisIndex> = ::std::vec![$($out),*];
        index
    }};
    (@acc [$($out:expr),*] NewAxis $(, $($rest:tt)*)?) => {
        $crate::s!(@acc [$($out,)* $crate::layout::AxisIndex::NewAxis] $($($rest)*)?)
    };
    (@acc [$($out:expr),*] ... $(, $($rest:tt)*)?) => {
        $crate::s!(@acc [$($out,)* $crate::layout::AxisIndex::Ellipsis] $($($rest)*)?)
    };
    // `a..b` with a > b is a valid NumPy slice (with a negative step, or
    // with negative bounds as in `1..-1`): silence clippy's range lint.
    (@acc [$($out:expr),*] $r:expr ; $step:expr $(, $($rest:tt)*)?) => {
        $crate::s!(@acc [$($out,)* {
            #[allow(clippy::reversed_empty_ranges)]
            let range = $r;
            $crate::layout::AxisIndex::stepped(range, $step)
        }] $($($rest)*)?)
    };
    (@acc [$($out:expr),*] $i:expr $(, $($rest:tt)*)?) => {
        $crate::s!(@acc [$($out,)* {
            #[allow(clippy::reversed_empty_ranges)]
            let index = $i;
            $crate::layout::AxisIndex::from(index)
        }] $($($rest)*)?)
    };
    ($($t:tt)*) => {
        $crate::s!(@acc [] $($t)*)
    };
}

/// Python's `slice.indices(len)` followed by the slice length:
/// `(start, count)`, for a nonzero `step` (`isize::MIN` included).
///
/// # Errors
///
/// [`Error::TooBig`] when `len` does not fit `isize` (no valid layout has
/// such an axis).
fn slice_indices(
    start: Option<isize>,
    stop: Option<isize>,
    step: isize,
    len: usize,
) -> Result<(isize, usize)> {
    let len = isize::try_from(len).map_err(|_| Error::TooBig)?;
    // len >= 0, so len - 1 >= -1 and v + len for v < 0 cannot overflow.
    let (lower, upper) = if step > 0 { (0, len) } else { (-1, len - 1) };
    let clamp = |v: isize| {
        if v < 0 {
            (v + len).max(lower)
        } else {
            v.min(upper)
        }
    };
    let start = start.map_or(if step > 0 { lower } else { upper }, clamp);
    let stop = stop.map_or(if step > 0 { upper } else { lower }, clamp);
    // Both lie in -1..=len, so their difference fits; the step is divided
    // as unsigned, since -isize::MIN does not fit `isize`.
    let gap = if step > 0 { stop - start } else { start - stop };
    let count = match usize::try_from(gap) {
        Ok(g) if g > 0 => (g - 1) / step.unsigned_abs() + 1,
        _ => 0,
    };
    Ok((start, count))
}

/// The error for a view whose byte offset does not fit `isize`.
fn offset_overflow(shape: &[usize], strides: &[isize]) -> Error {
    Error::Value(format!(
        "index: a view of shape {} with strides {strides:?} reaches byte offsets beyond the \
         maximum possible offset",
        super::fmt_shape(shape)
    ))
}

/// Applies a basic index to a layout `(shape, strides, offset)` (bytes) and
/// returns the view's `(shape, strides, offset)`, as `a[index]` does.
///
/// Without an ellipsis, missing trailing entries are full slices. A slice
/// that selects nothing leaves the offset where it was, so an empty view
/// never points past its buffer (NumPy may move it to the clamped start).
/// A slice that selects one position keeps the axis' stride when
/// `stride * step` does not fit `isize` (`a[::isize::MIN]`): the stride of
/// a length-1 axis is never used to step.
///
/// ```
/// use gpu_array::AxisIndex;
/// use gpu_array::layout::index_layout;
/// // a[1, ::-1] of a (2, 3) int32 array
/// let (shape, strides, offset) =
///     index_layout(&[2, 3], &[12, 4], 0, &[AxisIndex::Index(1), AxisIndex::stepped(.., -1)])?;
/// assert_eq!((shape, strides, offset), (vec![3], vec![-4], 20));
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::Index`] "too many indices for array: array is 2-dimensional, but
/// 3 were indexed" and "an index can only have a single ellipsis ('...')";
/// [`Error::IndexOutOfBounds`] "index 5 is out of bounds for axis 0 with
/// size 3"; [`Error::Value`] "slice step cannot be zero", or a byte offset
/// or stride beyond `isize`; [`Error::Shape`] when `shape` and `strides`
/// differ in length; [`Error::TooBig`] for an axis longer than `isize::MAX`.
pub fn index_layout(
    shape: &[usize],
    strides: &[isize],
    offset: isize,
    indices: &[AxisIndex],
) -> Result<(Vec<usize>, Vec<isize>, isize)> {
    if shape.len() != strides.len() {
        return Err(Error::Shape(format!(
            "index: shape {} and strides {strides:?} differ in length",
            super::fmt_shape(shape)
        )));
    }
    let ndim = shape.len();
    let consumed = indices
        .iter()
        .filter(|i| matches!(i, AxisIndex::Index(_) | AxisIndex::Slice { .. }))
        .count();
    let ellipses = indices
        .iter()
        .filter(|i| matches!(i, AxisIndex::Ellipsis))
        .count();
    if ellipses > 1 {
        return Err(Error::Index(
            "an index can only have a single ellipsis ('...')".to_owned(),
        ));
    }
    if consumed > ndim {
        return Err(Error::Index(format!(
            "too many indices for array: array is {ndim}-dimensional, but {consumed} were indexed"
        )));
    }
    let overflow = || offset_overflow(shape, strides);
    let mut out_shape = Vec::with_capacity(ndim + indices.len());
    let mut out_strides = Vec::with_capacity(ndim + indices.len());
    let mut offset = offset;
    // Axes are consumed at most `ndim` times (checked above), so
    // `shape[axis]` and `strides[axis]` exist below.
    let mut axis = 0;
    for &ix in indices {
        match ix {
            AxisIndex::Index(i) => {
                let (len, stride) = (shape[axis], strides[axis]);
                let n = isize::try_from(len).map_err(|_| Error::TooBig)?;
                // i < 0 <= n: no overflow.
                let pos = if i < 0 { i + n } else { i };
                if pos < 0 || pos >= n {
                    return Err(Error::IndexOutOfBounds {
                        index: i,
                        axis,
                        size: len,
                    });
                }
                offset = pos
                    .checked_mul(stride)
                    .and_then(|d| offset.checked_add(d))
                    .ok_or_else(overflow)?;
                axis += 1;
            }
            AxisIndex::Slice { start, stop, step } => {
                if step == 0 {
                    return Err(Error::Value("slice step cannot be zero".to_owned()));
                }
                let stride = strides[axis];
                let (start, count) = slice_indices(start, stop, step, shape[axis])?;
                if count > 0 {
                    offset = start
                        .checked_mul(stride)
                        .and_then(|d| offset.checked_add(d))
                        .ok_or_else(overflow)?;
                }
                let new_stride = match stride.checked_mul(step) {
                    Some(s) => s,
                    None if count <= 1 => stride,
                    None => return Err(overflow()),
                };
                out_shape.push(count);
                out_strides.push(new_stride);
                axis += 1;
            }
            AxisIndex::NewAxis => {
                out_shape.push(1);
                out_strides.push(0);
            }
            AxisIndex::Ellipsis => {
                let n = ndim - consumed;
                out_shape.extend_from_slice(&shape[axis..axis + n]);
                out_strides.extend_from_slice(&strides[axis..axis + n]);
                axis += n;
            }
        }
    }
    out_shape.extend_from_slice(&shape[axis..]);
    out_strides.extend_from_slice(&strides[axis..]);
    Ok((out_shape, out_strides, offset))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::c_strides;
    use proptest::prelude::*;

    #[test]
    fn macro_syntax() {
        let n = 3usize;
        let k: isize = -2;
        let idx = crate::s![1, 2..;2, ..;-1, NewAxis, ..., n, k.., ..=4, 1..=-1, ..n;2,];
        assert_eq!(
            idx,
            vec![
                AxisIndex::Index(1),
                AxisIndex::Slice {
                    start: Some(2),
                    stop: None,
                    step: 2
                },
                AxisIndex::Slice {
                    start: None,
                    stop: None,
                    step: -1
                },
                AxisIndex::NewAxis,
                AxisIndex::Ellipsis,
                AxisIndex::Index(3),
                AxisIndex::Slice {
                    start: Some(-2),
                    stop: None,
                    step: 1
                },
                AxisIndex::Slice {
                    start: None,
                    stop: Some(5),
                    step: 1
                },
                AxisIndex::Slice {
                    start: Some(1),
                    stop: None,
                    step: 1
                },
                AxisIndex::Slice {
                    start: None,
                    stop: Some(3),
                    step: 2
                },
            ]
        );
        assert_eq!(crate::s![..], vec![AxisIndex::FULL]);
        assert_eq!(crate::s![], Vec::<AxisIndex>::new());
        assert_eq!(
            crate::s![3..=0;-1],
            vec![AxisIndex::Slice {
                start: Some(3),
                stop: None,
                step: -1
            }]
        );
        assert_eq!(crate::s![-1], vec![AxisIndex::Index(-1)]);
        assert_eq!(
            crate::s![1..-1],
            vec![AxisIndex::Slice {
                start: Some(1),
                stop: Some(-1),
                step: 1
            }]
        );
        assert_eq!(
            crate::s![5..1;-2],
            vec![AxisIndex::Slice {
                start: Some(5),
                stop: Some(1),
                step: -2
            }]
        );
    }

    #[test]
    fn numpy_examples() {
        // a = np.zeros((2, 3), 'f8'): strides (24, 8)
        let (sh, st) = (vec![2, 3], vec![24, 8]);
        assert_eq!(
            index_layout(&sh, &st, 0, &crate::s![1]).unwrap(),
            (vec![3], vec![8], 24)
        );
        assert_eq!(
            index_layout(&sh, &st, 0, &crate::s![.., ..;-1]).unwrap(),
            (vec![2, 3], vec![24, -8], 16)
        );
        assert_eq!(
            index_layout(&sh, &st, 0, &crate::s![..., 0]).unwrap(),
            (vec![2], vec![24], 0)
        );
        assert_eq!(
            index_layout(&sh, &st, 0, &crate::s![NewAxis, -1, NewAxis]).unwrap(),
            (vec![1, 1, 3], vec![0, 0, 8], 24)
        );
        assert_eq!(
            index_layout(&sh, &st, 0, &crate::s![5..]).unwrap(),
            (vec![0, 3], vec![24, 8], 0)
        );
        assert_eq!(
            index_layout(&sh, &st, 0, &crate::s![1, 1..;5]).unwrap(),
            (vec![1], vec![40], 32)
        );
        let err = |idx: Vec<AxisIndex>| index_layout(&sh, &st, 0, &idx).unwrap_err().to_string();
        assert_eq!(
            err(crate::s![1, 2, 3]),
            "too many indices for array: array is 2-dimensional, but 3 were indexed"
        );
        assert_eq!(
            err(crate::s![..., ...]),
            "an index can only have a single ellipsis ('...')"
        );
        assert_eq!(err(crate::s![..;0]), "slice step cannot be zero");
        assert_eq!(
            err(crate::s![5]),
            "index 5 is out of bounds for axis 0 with size 2"
        );
        assert_eq!(
            err(crate::s![0, -4]),
            "index -4 is out of bounds for axis 1 with size 3"
        );
        assert_eq!(
            index_layout(&[], &[], 0, &crate::s![0])
                .unwrap_err()
                .to_string(),
            "too many indices for array: array is 0-dimensional, but 1 were indexed"
        );
        assert_eq!(
            index_layout(&[], &[], 8, &crate::s![NewAxis, ...]).unwrap(),
            (vec![1], vec![0], 8)
        );
    }

    /// Positions selected by a Python slice, by direct simulation.
    fn py_range(start: Option<isize>, stop: Option<isize>, step: isize, len: usize) -> Vec<usize> {
        let n = len as isize;
        let norm = |v: isize| if v < 0 { v + n } else { v };
        let mut out = Vec::new();
        if step > 0 {
            let s = start.map_or(0, |v| norm(v).clamp(0, n));
            let e = stop.map_or(n, |v| norm(v).clamp(0, n));
            let mut i = s;
            while i < e {
                out.push(i as usize);
                i += step;
            }
        } else {
            let s = start.map_or(n - 1, |v| norm(v).clamp(-1, n - 1));
            let e = stop.map_or(-1, |v| norm(v).clamp(-1, n - 1));
            let mut i = s;
            while i > e {
                out.push(i as usize);
                i += step;
            }
        }
        out
    }

    fn any_index() -> impl Strategy<Value = AxisIndex> {
        let b = proptest::option::of(-7isize..7);
        prop_oneof![
            (-5isize..5).prop_map(AxisIndex::Index),
            (b.clone(), b, prop_oneof![-3isize..0, 1isize..4])
                .prop_map(|(start, stop, step)| AxisIndex::Slice { start, stop, step }),
            Just(AxisIndex::NewAxis),
            Just(AxisIndex::Ellipsis),
        ]
    }

    proptest! {
        #[test]
        fn matches_reference(
            shape in proptest::collection::vec(0usize..5, 0..4),
            idx in proptest::collection::vec(any_index(), 0..5),
        ) {
            let itemsize = 8usize;
            let strides = c_strides(&shape, itemsize).unwrap();
            let base = 1000isize;
            let got = index_layout(&shape, &strides, base, &idx);
            // Reference: per output axis, the list of source positions.
            let ndim = shape.len();
            let consumed = idx.iter().filter(|i| matches!(i, AxisIndex::Index(_) | AxisIndex::Slice { .. })).count();
            let ellipses = idx.iter().filter(|i| matches!(i, AxisIndex::Ellipsis)).count();
            if ellipses > 1 || consumed > ndim {
                prop_assert!(got.is_err());
                return Ok(());
            }
            let mut full: Vec<AxisIndex> = Vec::new();
            for &i in &idx {
                if i == AxisIndex::Ellipsis {
                    full.extend(std::iter::repeat_n(AxisIndex::FULL, ndim - consumed));
                } else {
                    full.push(i);
                }
            }
            if ellipses == 0 {
                full.extend(std::iter::repeat_n(AxisIndex::FULL, ndim - consumed));
            }
            // Each output axis: list of (source axis, position) or none for newaxis.
            let mut fixed: Vec<(usize, usize)> = Vec::new();
            let mut out_axes: Vec<Option<(usize, Vec<usize>)>> = Vec::new();
            let mut axis = 0;
            for &i in &full {
                match i {
                    AxisIndex::Index(k) => {
                        let n = shape[axis] as isize;
                        let p = if k < 0 { k + n } else { k };
                        if p < 0 || p >= n {
                            prop_assert!(got.is_err());
                            return Ok(());
                        }
                        fixed.push((axis, p as usize));
                        axis += 1;
                    }
                    AxisIndex::Slice { start, stop, step } => {
                        out_axes.push(Some((axis, py_range(start, stop, step, shape[axis]))));
                        axis += 1;
                    }
                    AxisIndex::NewAxis => out_axes.push(None),
                    AxisIndex::Ellipsis => unreachable!(),
                }
            }
            let (gshape, gstrides, goff) = got.unwrap();
            let rshape: Vec<usize> = out_axes.iter().map(|a| a.as_ref().map_or(1, |(_, v)| v.len())).collect();
            prop_assert_eq!(&gshape, &rshape);
            // Enumerate every output element and compare flat source index.
            let n: usize = rshape.iter().product();
            let mut oidx = vec![0usize; rshape.len()];
            for _ in 0..n {
                let mut src = vec![0usize; ndim];
                for &(ax, p) in &fixed { src[ax] = p; }
                for (o, a) in oidx.iter().zip(&out_axes) {
                    if let Some((ax, v)) = a { src[*ax] = v[*o]; }
                }
                let want: isize = base + src.iter().zip(&strides).map(|(&i, &s)| i as isize * s).sum::<isize>();
                let have: isize = goff + oidx.iter().zip(&gstrides).map(|(&i, &s)| i as isize * s).sum::<isize>();
                prop_assert_eq!(have, want);
                for ax in (0..rshape.len()).rev() {
                    oidx[ax] += 1;
                    if oidx[ax] < rshape[ax] { break; }
                    oidx[ax] = 0;
                }
            }
        }
    }
}
