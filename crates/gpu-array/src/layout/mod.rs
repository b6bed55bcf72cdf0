//! Shapes and strides, host-side: contiguity, broadcasting, axes, reshape
//! without copy, basic indexing and dimension coalescing.
//!
//! Strides are in **bytes** and may be negative or zero, as NumPy's. The
//! free functions work on `(shape, strides)` slices; [`Layout`] bundles a
//! shape, strides and a byte offset into a buffer and offers the same
//! operations as methods, which is what an array stores.

mod axes;
mod broadcast;
mod coalesce;
mod index;
mod reshape;

pub use axes::{
    expand_dims, moveaxis, normalize_axes, normalize_axis, squeeze, swapaxes, transpose,
};
pub use broadcast::{broadcast_shapes, broadcast_strides};
pub use coalesce::{Coalesced, coalesce};
pub use index::{AxisIndex, SliceRange, index_layout};
pub use reshape::{infer_shape, reshape_strides};

use crate::error::{Error, Result};

/// Memory order of a contiguous layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Order {
    /// Row-major: the last index varies fastest.
    #[default]
    C,
    /// Column-major: the first index varies fastest.
    F,
}

/// A shape as NumPy prints it in error messages: `(2,3)`, `(4,)`, `()`.
pub fn fmt_shape(shape: &[usize]) -> String {
    match shape {
        [d] => format!("({d},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}

/// Number of elements of a shape (1 for `()`).
///
/// # Panics
///
/// On overflow; use [`checked_size`] for untrusted shapes.
pub fn size(shape: &[usize]) -> usize {
    shape.iter().product()
}

/// Number of bytes of a shape of items of `itemsize` bytes, checked against
/// `isize::MAX` as NumPy does.
///
/// # Errors
///
/// [`Error::Value`] "array is too big; `arr.size * arr.dtype.itemsize` is
/// larger than the maximum possible size.".
pub fn checked_size(shape: &[usize], itemsize: usize) -> Result<usize> {
    shape
        .iter()
        .try_fold(itemsize, |acc, &d| acc.checked_mul(d))
        .filter(|&n| n <= isize::MAX as usize)
        .map(|n| n / itemsize.max(1))
        .ok_or_else(|| {
            Error::Value(
                "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum \
                 possible size."
                    .to_owned(),
            )
        })
}

/// Strides of a C-contiguous array (NumPy's rule: a zero-length axis counts
/// as length 1 for the strides of the axes before it).
pub fn c_strides(shape: &[usize], itemsize: usize) -> Vec<isize> {
    let mut strides = vec![0isize; shape.len()];
    let mut s = itemsize as isize;
    for (st, &d) in strides.iter_mut().zip(shape).rev() {
        *st = s;
        s *= d.max(1) as isize;
    }
    strides
}

/// Strides of an F-contiguous array.
pub fn f_strides(shape: &[usize], itemsize: usize) -> Vec<isize> {
    let mut strides = vec![0isize; shape.len()];
    let mut s = itemsize as isize;
    for (st, &d) in strides.iter_mut().zip(shape) {
        *st = s;
        s *= d.max(1) as isize;
    }
    strides
}

/// Contiguous strides in the given order.
pub fn contiguous_strides(shape: &[usize], itemsize: usize, order: Order) -> Vec<isize> {
    match order {
        Order::C => c_strides(shape, itemsize),
        Order::F => f_strides(shape, itemsize),
    }
}

/// NumPy's `C_CONTIGUOUS` flag: every axis of length > 1 has the stride of a
/// C-ordered array; axes of length 1 are ignored; an empty array is
/// contiguous.
pub fn is_c_contiguous(shape: &[usize], strides: &[isize], itemsize: usize) -> bool {
    contiguous_in(shape.iter().zip(strides).rev(), shape, itemsize)
}

/// NumPy's `F_CONTIGUOUS` flag (see [`is_c_contiguous`]).
pub fn is_f_contiguous(shape: &[usize], strides: &[isize], itemsize: usize) -> bool {
    contiguous_in(shape.iter().zip(strides), shape, itemsize)
}

fn contiguous_in<'a>(
    dims: impl Iterator<Item = (&'a usize, &'a isize)>,
    shape: &[usize],
    itemsize: usize,
) -> bool {
    if shape.contains(&0) {
        return true;
    }
    let mut expected = itemsize as isize;
    for (&d, &s) in dims {
        if d != 1 {
            if s != expected {
                return false;
            }
            expected *= d as isize;
        }
    }
    true
}

/// The lowest and one-past-highest byte touched by a layout, relative to its
/// offset: `(low, high)` with `low <= 0 < high`, or `(0, 0)` when empty.
pub fn byte_extent(shape: &[usize], strides: &[isize], itemsize: usize) -> (isize, isize) {
    if shape.contains(&0) {
        return (0, 0);
    }
    let (mut low, mut high) = (0isize, itemsize as isize);
    for (&d, &s) in shape.iter().zip(strides) {
        let span = (d as isize - 1) * s;
        if span < 0 {
            low += span;
        } else {
            high += span;
        }
    }
    (low, high)
}

/// A strided view into a buffer: shape, byte strides and byte offset.
///
/// Invariant: `shape.len() == strides.len()`. The layout does not know the
/// buffer; whoever pairs the two checks [`Layout::byte_extent`] against it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    shape: Vec<usize>,
    strides: Vec<isize>,
    offset: isize,
}

impl Layout {
    /// A layout from its parts.
    ///
    /// # Panics
    ///
    /// If `shape` and `strides` differ in length.
    pub fn new(shape: Vec<usize>, strides: Vec<isize>, offset: isize) -> Layout {
        assert_eq!(
            shape.len(),
            strides.len(),
            "shape and strides differ in length"
        );
        Layout {
            shape,
            strides,
            offset,
        }
    }

    /// A contiguous layout at offset 0.
    pub fn contiguous(shape: &[usize], itemsize: usize, order: Order) -> Layout {
        Layout::new(
            shape.to_vec(),
            contiguous_strides(shape, itemsize, order),
            0,
        )
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The strides in bytes.
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }

    /// The byte offset of element `[0, 0, ...]` in the buffer.
    pub fn offset(&self) -> isize {
        self.offset
    }

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// Number of elements.
    pub fn size(&self) -> usize {
        size(&self.shape)
    }

    /// The parts: `(shape, strides, offset)`.
    pub fn into_parts(self) -> (Vec<usize>, Vec<isize>, isize) {
        (self.shape, self.strides, self.offset)
    }

    /// [`is_c_contiguous`].
    pub fn is_c_contiguous(&self, itemsize: usize) -> bool {
        is_c_contiguous(&self.shape, &self.strides, itemsize)
    }

    /// [`is_f_contiguous`].
    pub fn is_f_contiguous(&self, itemsize: usize) -> bool {
        is_f_contiguous(&self.shape, &self.strides, itemsize)
    }

    /// The absolute byte range `[start, end)` of the buffer this layout
    /// touches (see [`byte_extent`]).
    pub fn byte_extent(&self, itemsize: usize) -> (isize, isize) {
        let (lo, hi) = byte_extent(&self.shape, &self.strides, itemsize);
        if lo == hi {
            (self.offset, self.offset)
        } else {
            (self.offset + lo, self.offset + hi)
        }
    }

    /// Byte offset of the element at a multi-index (no bounds check).
    pub fn element_offset(&self, index: &[usize]) -> isize {
        self.offset
            + index
                .iter()
                .zip(&self.strides)
                .map(|(&i, &s)| i as isize * s)
                .sum::<isize>()
    }

    fn with(&self, (shape, strides): (Vec<usize>, Vec<isize>)) -> Layout {
        Layout {
            shape,
            strides,
            offset: self.offset,
        }
    }

    /// [`broadcast_strides`] onto `shape`.
    ///
    /// # Errors
    ///
    /// As [`broadcast_strides`].
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<Layout> {
        let strides = broadcast_strides(&self.shape, &self.strides, shape)?;
        Ok(Layout {
            shape: shape.to_vec(),
            strides,
            offset: self.offset,
        })
    }

    /// [`transpose`].
    ///
    /// # Errors
    ///
    /// As [`transpose`].
    pub fn transpose(&self, axes: Option<&[isize]>) -> Result<Layout> {
        Ok(self.with(transpose(&self.shape, &self.strides, axes)?))
    }

    /// [`swapaxes`].
    ///
    /// # Errors
    ///
    /// As [`swapaxes`].
    pub fn swapaxes(&self, axis1: isize, axis2: isize) -> Result<Layout> {
        Ok(self.with(swapaxes(&self.shape, &self.strides, axis1, axis2)?))
    }

    /// [`moveaxis`].
    ///
    /// # Errors
    ///
    /// As [`moveaxis`].
    pub fn moveaxis(&self, source: &[isize], destination: &[isize]) -> Result<Layout> {
        Ok(self.with(moveaxis(&self.shape, &self.strides, source, destination)?))
    }

    /// [`squeeze`].
    ///
    /// # Errors
    ///
    /// As [`squeeze`].
    pub fn squeeze(&self, axes: Option<&[isize]>) -> Result<Layout> {
        Ok(self.with(squeeze(&self.shape, &self.strides, axes)?))
    }

    /// [`expand_dims`].
    ///
    /// # Errors
    ///
    /// As [`expand_dims`].
    pub fn expand_dims(&self, axes: &[isize]) -> Result<Layout> {
        Ok(self.with(expand_dims(&self.shape, &self.strides, axes)?))
    }

    /// Reshape without copying: the view if one exists, `Ok(None)` when the
    /// data must be copied. `newshape` may hold one `-1`.
    ///
    /// # Errors
    ///
    /// As [`infer_shape`].
    pub fn reshape(
        &self,
        newshape: &[isize],
        itemsize: usize,
        order: Order,
    ) -> Result<Option<Layout>> {
        let shape = infer_shape(self.size(), newshape)?;
        Ok(
            reshape_strides(&self.shape, &self.strides, itemsize, &shape, order).map(|strides| {
                Layout {
                    shape,
                    strides,
                    offset: self.offset,
                }
            }),
        )
    }

    /// Basic indexing ([`index_layout`]).
    ///
    /// # Errors
    ///
    /// As [`index_layout`].
    pub fn index(&self, indices: &[AxisIndex]) -> Result<Layout> {
        let (shape, strides, offset) =
            index_layout(&self.shape, &self.strides, self.offset, indices)?;
        Ok(Layout {
            shape,
            strides,
            offset,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strides_like_numpy() {
        assert_eq!(c_strides(&[2, 3, 4], 8), [96, 32, 8]);
        assert_eq!(f_strides(&[2, 3, 4], 8), [8, 16, 48]);
        // np.empty((3, 0), 'f8').strides == (8, 8); np.empty((0, 3)).strides == (24, 8)
        assert_eq!(c_strides(&[3, 0], 8), [8, 8]);
        assert_eq!(c_strides(&[0, 3], 8), [24, 8]);
        assert_eq!(c_strides(&[], 8), Vec::<isize>::new());
    }

    #[test]
    fn contiguity_flags() {
        assert!(is_c_contiguous(&[2, 3], &[12, 4], 4));
        assert!(!is_f_contiguous(&[2, 3], &[12, 4], 4));
        assert!(is_f_contiguous(&[2, 3], &[4, 8], 4));
        // Size-1 axes are ignored: both flags.
        assert!(is_c_contiguous(&[1, 3], &[999, 4], 4));
        assert!(is_f_contiguous(&[1, 3], &[999, 4], 4));
        assert!(is_c_contiguous(&[3, 1], &[4, -7], 4));
        // Empty arrays are contiguous whatever the strides.
        assert!(is_c_contiguous(&[0, 3], &[5, 5], 4) && is_f_contiguous(&[0, 3], &[5, 5], 4));
        // Broadcast and reversed layouts are not.
        assert!(!is_c_contiguous(&[2, 3], &[0, 4], 4));
        assert!(!is_c_contiguous(&[3], &[-4], 4));
        assert!(is_c_contiguous(&[], &[], 4) && is_f_contiguous(&[], &[], 4));
    }

    #[test]
    fn sizes_and_extents() {
        assert_eq!(fmt_shape(&[2, 3]), "(2,3)");
        assert_eq!(fmt_shape(&[4]), "(4,)");
        assert_eq!(fmt_shape(&[]), "()");
        assert_eq!(checked_size(&[2, 3], 8).unwrap(), 6);
        assert!(checked_size(&[usize::MAX, 2], 1).is_err());
        assert!(checked_size(&[1 << 62, 4], 1).is_err());
        assert_eq!(byte_extent(&[2, 3], &[12, 4], 4), (0, 24));
        assert_eq!(byte_extent(&[3], &[-4], 4), (-8, 4));
        assert_eq!(byte_extent(&[0, 3], &[12, 4], 4), (0, 0));
        let l = Layout::new(vec![3], vec![-4], 8);
        assert_eq!(l.byte_extent(4), (0, 12));
        assert_eq!(l.element_offset(&[2]), 0);
    }
}
