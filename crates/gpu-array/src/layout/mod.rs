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
#[cfg(test)]
mod fuzz_tests;
mod index;
mod reshape;
mod shape_arg;

pub use axes::{
    expand_dims, moveaxis, normalize_axes, normalize_axis, squeeze, swapaxes, transpose,
};
pub use broadcast::{broadcast_shapes, broadcast_strides};
pub use coalesce::{Coalesced, coalesce};
pub use index::{AxisIndex, SliceRange, index_layout};
pub use reshape::{infer_shape, reshape_strides};
pub use shape_arg::{Dims, IntoNewShape, IntoShape};

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

crate::from_numpy_str! {
    Order, Error,
    key: |s| s.to_ascii_uppercase(),
    else: |s| crate::names::order_error(s, "only 'C' or 'F' order is permitted"),
    { "C" => Order::C, "F" => Order::F }
}

/// NumPy's `order=` of the functions that copy or read an array in some
/// order (`copy`, `astype`, `ravel`, `flatten`, `reshape`): one of the
/// two [`Order`]s, or one that depends on the array.
///
/// Every function that takes an `Order` for these takes
/// `impl Into<CopyOrder>`, so `Order::F` and `CopyOrder::K` both do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CopyOrder {
    /// `'C'`: row-major.
    #[default]
    C,
    /// `'F'`: column-major.
    F,
    /// `'A'`: F when the array is F-contiguous and not C-contiguous (NumPy's
    /// "Fortran array"), else C.
    A,
    /// `'K'`: the array's own order of axes (by decreasing absolute
    /// stride, ties in axis order), each axis read from its first index;
    /// C for a C-contiguous array, F for an F-contiguous one.
    K,
}

impl From<Order> for CopyOrder {
    fn from(order: Order) -> CopyOrder {
        match order {
            Order::C => CopyOrder::C,
            Order::F => CopyOrder::F,
        }
    }
}

impl CopyOrder {
    /// `'A'` resolved for an array with these contiguity flags: C or F,
    /// or `None` for `'K'`, which is no single [`Order`].
    ///
    /// ```
    /// use gpu_array::{CopyOrder, Order};
    /// assert_eq!(CopyOrder::A.resolve(false, true), Some(Order::F)); // a Fortran array
    /// assert_eq!(CopyOrder::A.resolve(true, true), Some(Order::C));
    /// assert_eq!(CopyOrder::K.resolve(true, false), None);
    /// ```
    pub const fn resolve(self, c_contiguous: bool, f_contiguous: bool) -> Option<Order> {
        match self {
            CopyOrder::C => Some(Order::C),
            CopyOrder::F => Some(Order::F),
            CopyOrder::A if f_contiguous && !c_contiguous => Some(Order::F),
            CopyOrder::A => Some(Order::C),
            CopyOrder::K => None,
        }
    }
}

/// The axes in NumPy's "keep" order (`order='K'`): by decreasing absolute
/// stride, ties in axis order (NumPy's `PyArray_CreateSortedStridePerm`).
///
/// ```
/// use gpu_array::layout::keep_order_axes;
/// assert_eq!(keep_order_axes(&[8, 24, 4]), [1, 0, 2]); // by decreasing |stride|
/// assert_eq!(keep_order_axes(&[-8, 8]), [0, 1]); // ties in axis order
/// ```
pub fn keep_order_axes(strides: &[isize]) -> Vec<usize> {
    let mut axes: Vec<usize> = (0..strides.len()).collect();
    axes.sort_by_key(|&a| std::cmp::Reverse(strides[a].unsigned_abs()));
    axes
}

crate::from_numpy_str! {
    CopyOrder, Error,
    key: |s| s.to_ascii_uppercase(),
    else: |s| crate::names::order_error(s, ""),
    { "C" => CopyOrder::C, "F" => CopyOrder::F, "A" => CopyOrder::A, "K" => CopyOrder::K }
}

/// A shape as NumPy prints it in error messages: `(2,3)`, `(4,)`, `()`.
///
/// ```
/// use gpu_array::layout::fmt_shape;
/// assert_eq!(fmt_shape(&[2, 3]), "(2,3)");
/// assert_eq!(fmt_shape(&[4]), "(4,)");
/// assert_eq!(fmt_shape(&[]), "()");
/// ```
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

/// Number of elements of a shape (1 for `()`), checked as NumPy checks a
/// shape: the product of its nonzero dimensions must fit `isize`, so that
/// `[0, usize::MAX]` is too big although it holds no element.
///
/// ```
/// use gpu_array::layout::size;
/// assert_eq!(size(&[2, 3, 4])?, 24);
/// assert_eq!(size(&[])?, 1);
/// assert!(size(&[0, usize::MAX]).is_err()); // empty, but too big a shape
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::TooBig`].
pub fn size(shape: &[usize]) -> Result<usize> {
    checked_size(shape, 1)
}

/// Number of elements of a shape of items of `itemsize` bytes, checked as
/// NumPy's `PyArray_NewFromDescr` checks it: the product of `itemsize` and
/// the nonzero dimensions must fit `isize` (zero dimensions are skipped, so
/// an empty shape is no excuse for strides that overflow).
///
/// ```
/// use gpu_array::layout::checked_size;
/// assert_eq!(checked_size(&[1000, 1000], 8)?, 1_000_000);
/// assert!(checked_size(&[1 << 40, 1 << 20], 8).is_err());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::TooBig`] "array is too big; `arr.size * arr.dtype.itemsize` is
/// larger than the maximum possible size.".
pub fn checked_size(shape: &[usize], itemsize: usize) -> Result<usize> {
    let unit = itemsize.max(1);
    let mut nbytes = unit;
    let mut empty = false;
    for &d in shape {
        if d == 0 {
            empty = true;
        } else {
            nbytes = nbytes.checked_mul(d).ok_or(Error::TooBig)?;
        }
    }
    if nbytes > isize::MAX.unsigned_abs() {
        return Err(Error::TooBig);
    }
    Ok(if empty { 0 } else { nbytes / unit })
}

/// Strides of a C-contiguous array (NumPy's rule: a zero-length axis counts
/// as length 1 for the strides of the axes before it).
///
/// ```
/// use gpu_array::layout::c_strides;
/// assert_eq!(c_strides(&[2, 3, 4], 8)?, [96, 32, 8]);
/// assert_eq!(c_strides(&[2, 0, 4], 8)?, [32, 32, 8]); // a zero axis counts as 1
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::TooBig`] when the shape is too big for `itemsize` (as
/// [`checked_size`]); every stride then fits `isize`.
pub fn c_strides(shape: &[usize], itemsize: usize) -> Result<Vec<isize>> {
    dense_strides(shape, itemsize, Order::C)
}

/// Strides of an F-contiguous array.
///
/// ```
/// use gpu_array::layout::f_strides;
/// assert_eq!(f_strides(&[2, 3, 4], 8)?, [8, 16, 48]);
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// As [`c_strides`].
pub fn f_strides(shape: &[usize], itemsize: usize) -> Result<Vec<isize>> {
    dense_strides(shape, itemsize, Order::F)
}

/// Contiguous strides in the given order.
///
/// ```
/// use gpu_array::Order;
/// use gpu_array::layout::contiguous_strides;
/// assert_eq!(contiguous_strides(&[2, 3], 4, Order::C)?, [12, 4]);
/// assert_eq!(contiguous_strides(&[2, 3], 4, Order::F)?, [4, 8]);
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// As [`c_strides`].
pub fn contiguous_strides(shape: &[usize], itemsize: usize, order: Order) -> Result<Vec<isize>> {
    dense_strides(shape, itemsize, order)
}

fn dense_strides(shape: &[usize], itemsize: usize, order: Order) -> Result<Vec<isize>> {
    // The running product ends as `itemsize * prod(max(d, 1))`, which is
    // what `checked_size` bounds: a stride overflows exactly when it fails.
    checked_size(shape, itemsize)?;
    let mut strides = vec![0isize; shape.len()];
    let mut s = isize::try_from(itemsize).map_err(|_| Error::TooBig)?;
    let mut step = |st: &mut isize, d: usize| -> Result<()> {
        *st = s;
        s = isize::try_from(d.max(1))
            .ok()
            .and_then(|d| s.checked_mul(d))
            .ok_or(Error::TooBig)?;
        Ok(())
    };
    match order {
        Order::C => {
            for (st, &d) in strides.iter_mut().zip(shape).rev() {
                step(st, d)?;
            }
        }
        Order::F => {
            for (st, &d) in strides.iter_mut().zip(shape) {
                step(st, d)?;
            }
        }
    }
    Ok(strides)
}

/// NumPy's `C_CONTIGUOUS` flag: every axis of length > 1 has the stride of a
/// C-ordered array; axes of length 1 are ignored; an empty array is
/// contiguous.
///
/// ```
/// use gpu_array::layout::is_c_contiguous;
/// assert!(is_c_contiguous(&[2, 3], &[12, 4], 4));
/// assert!(is_c_contiguous(&[2, 1], &[4, 999], 4)); // length-1 axes are ignored
/// assert!(!is_c_contiguous(&[2, 3], &[4, 8], 4));
/// ```
pub fn is_c_contiguous(shape: &[usize], strides: &[isize], itemsize: usize) -> bool {
    shape.len() == strides.len() && contiguous_in(shape.iter().zip(strides).rev(), shape, itemsize)
}

/// NumPy's `F_CONTIGUOUS` flag (see [`is_c_contiguous`]).
///
/// ```
/// use gpu_array::layout::is_f_contiguous;
/// assert!(is_f_contiguous(&[2, 3], &[4, 8], 4));
/// assert!(!is_f_contiguous(&[2, 3], &[12, 4], 4));
/// ```
pub fn is_f_contiguous(shape: &[usize], strides: &[isize], itemsize: usize) -> bool {
    shape.len() == strides.len() && contiguous_in(shape.iter().zip(strides), shape, itemsize)
}

fn contiguous_in<'a>(
    dims: impl Iterator<Item = (&'a usize, &'a isize)>,
    shape: &[usize],
    itemsize: usize,
) -> bool {
    if shape.contains(&0) {
        return true;
    }
    // `None` once the dense stride no longer fits `isize`: no later axis of
    // length > 1 can have it.
    let mut expected = isize::try_from(itemsize).ok();
    for (&d, &s) in dims {
        if d != 1 {
            match expected {
                Some(e) if e == s => {}
                _ => return false,
            }
            expected = isize::try_from(d)
                .ok()
                .and_then(|d| expected.and_then(|e| e.checked_mul(d)));
        }
    }
    true
}

/// The error for a layout whose byte offsets do not fit `isize`.
fn extent_overflow(shape: &[usize], strides: &[isize]) -> Error {
    Error::Value(format!(
        "shape {} with strides {strides:?} reaches byte offsets beyond the maximum possible \
         offset",
        fmt_shape(shape)
    ))
}

/// The error for shape and strides of different lengths.
fn length_mismatch(shape: &[usize], strides: &[isize]) -> Error {
    Error::Shape(format!(
        "shape {} and strides {strides:?} differ in length",
        fmt_shape(shape)
    ))
}

/// The lowest and one-past-highest byte touched by a layout, relative to its
/// offset: `(low, high)` with `low <= 0 < high`, or `(0, 0)` when empty.
/// `high - low` fits `isize` too.
///
/// ```
/// use gpu_array::layout::byte_extent;
/// assert_eq!(byte_extent(&[2, 3], &[12, 4], 4)?, (0, 24));
/// assert_eq!(byte_extent(&[3], &[-4], 4)?, (-8, 4)); // a reversed view
/// assert_eq!(byte_extent(&[0, 3], &[12, 4], 4)?, (0, 0));
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::Shape`] when the lengths differ; [`Error::Value`] when a byte
/// offset, or the span, does not fit `isize`.
pub fn byte_extent(shape: &[usize], strides: &[isize], itemsize: usize) -> Result<(isize, isize)> {
    if shape.len() != strides.len() {
        return Err(length_mismatch(shape, strides));
    }
    if shape.contains(&0) {
        return Ok((0, 0));
    }
    let overflow = || extent_overflow(shape, strides);
    let (mut low, mut high) = (0isize, isize::try_from(itemsize).map_err(|_| overflow())?);
    for (&d, &s) in shape.iter().zip(strides) {
        let span = isize::try_from(d - 1)
            .ok()
            .and_then(|n| n.checked_mul(s))
            .ok_or_else(overflow)?;
        if span < 0 {
            low = low.checked_add(span).ok_or_else(overflow)?;
        } else {
            high = high.checked_add(span).ok_or_else(overflow)?;
        }
    }
    high.checked_sub(low).ok_or_else(overflow)?;
    Ok((low, high))
}

/// A strided view into a buffer: shape, byte strides and byte offset.
///
/// Invariants: `shape.len() == strides.len()`, and the shape passes
/// [`size`] (its nonzero dimensions multiply to at most `isize::MAX`), so
/// [`Layout::size`] cannot overflow. The layout does not know the buffer;
/// whoever pairs the two checks [`Layout::byte_extent`] against it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    shape: Vec<usize>,
    strides: Vec<isize>,
    offset: isize,
}

impl Layout {
    /// A layout from its parts, for parts known to be valid.
    ///
    /// ```
    /// use gpu_array::Layout;
    /// let l = Layout::new(vec![2, 3], vec![12, 4], 0);
    /// assert_eq!(l.size(), 6);
    /// ```
    ///
    /// # Panics
    ///
    /// If `shape` and `strides` differ in length or the shape is too big
    /// (see [`Layout::try_new`], for parts from a caller).
    pub fn new(shape: Vec<usize>, strides: Vec<isize>, offset: isize) -> Layout {
        match Layout::try_new(shape, strides, offset) {
            Ok(l) => l,
            Err(e) => panic!("Layout::new: {e}"),
        }
    }

    /// A layout from its parts, checked.
    ///
    /// ```
    /// use gpu_array::Layout;
    /// assert!(Layout::try_new(vec![2, 3], vec![12, 4], 0).is_ok());
    /// assert!(Layout::try_new(vec![2, 3], vec![4], 0).is_err()); // lengths differ
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Shape`] when `shape` and `strides` differ in length;
    /// [`Error::TooBig`] as [`size`].
    pub fn try_new(shape: Vec<usize>, strides: Vec<isize>, offset: isize) -> Result<Layout> {
        if shape.len() != strides.len() {
            return Err(length_mismatch(&shape, &strides));
        }
        size(&shape)?;
        Ok(Layout {
            shape,
            strides,
            offset,
        })
    }

    /// A contiguous layout at offset 0.
    ///
    /// ```
    /// use gpu_array::{Layout, Order};
    /// let l = Layout::contiguous(&[2, 3], 8, Order::F)?;
    /// assert_eq!((l.strides(), l.offset()), (&[8, 16][..], 0));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::TooBig`] as [`checked_size`].
    pub fn contiguous(shape: &[usize], itemsize: usize, order: Order) -> Result<Layout> {
        Ok(Layout {
            shape: shape.to_vec(),
            strides: contiguous_strides(shape, itemsize, order)?,
            offset: 0,
        })
    }

    /// The shape.
    ///
    /// ```
    /// use gpu_array::Layout;
    /// assert_eq!(Layout::new(vec![4, 5], vec![20, 4], 0).shape(), [4, 5]);
    /// ```
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The strides in bytes.
    ///
    /// ```
    /// use gpu_array::Layout;
    /// assert_eq!(Layout::new(vec![4, 5], vec![20, 4], 0).strides(), [20, 4]);
    /// ```
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }

    /// The byte offset of element `[0, 0, ...]` in the buffer.
    ///
    /// ```
    /// use gpu_array::Layout;
    /// assert_eq!(Layout::new(vec![3], vec![-4], 8).offset(), 8); // a reversed view starts at the end
    /// ```
    pub fn offset(&self) -> isize {
        self.offset
    }

    /// Number of dimensions.
    ///
    /// ```
    /// use gpu_array::Layout;
    /// assert_eq!(Layout::new(vec![2, 3, 4], vec![48, 16, 4], 0).ndim(), 3);
    /// ```
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// Number of elements.
    ///
    /// ```
    /// use gpu_array::Layout;
    /// assert_eq!(Layout::new(vec![2, 3, 4], vec![48, 16, 4], 0).size(), 24);
    /// assert_eq!(Layout::new(vec![], vec![], 0).size(), 1); // a scalar
    /// ```
    pub fn size(&self) -> usize {
        // Cannot overflow: every constructor checked the shape with `size`.
        self.shape.iter().product()
    }

    /// The parts: `(shape, strides, offset)`.
    ///
    /// ```
    /// use gpu_array::Layout;
    /// let (shape, strides, offset) = Layout::new(vec![2], vec![8], 16).into_parts();
    /// assert_eq!((shape, strides, offset), (vec![2], vec![8], 16));
    /// ```
    pub fn into_parts(self) -> (Vec<usize>, Vec<isize>, isize) {
        (self.shape, self.strides, self.offset)
    }

    /// [`is_c_contiguous`].
    ///
    /// ```
    /// use gpu_array::{Layout, Order};
    /// assert!(Layout::contiguous(&[2, 3], 4, Order::C)?.is_c_contiguous(4));
    /// assert!(!Layout::contiguous(&[2, 3], 4, Order::F)?.is_c_contiguous(4));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn is_c_contiguous(&self, itemsize: usize) -> bool {
        is_c_contiguous(&self.shape, &self.strides, itemsize)
    }

    /// [`is_f_contiguous`].
    ///
    /// ```
    /// use gpu_array::{Layout, Order};
    /// assert!(Layout::contiguous(&[2, 3], 4, Order::F)?.is_f_contiguous(4));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn is_f_contiguous(&self, itemsize: usize) -> bool {
        is_f_contiguous(&self.shape, &self.strides, itemsize)
    }

    /// The absolute byte range `[start, end)` of the buffer this layout
    /// touches (see [`byte_extent`]).
    ///
    /// ```
    /// use gpu_array::Layout;
    /// let l = Layout::new(vec![3], vec![-4], 8); // elements at bytes 8, 4, 0
    /// assert_eq!(l.byte_extent(4)?, (0, 12));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Value`] when a byte offset does not fit `isize`.
    pub fn byte_extent(&self, itemsize: usize) -> Result<(isize, isize)> {
        let (lo, hi) = byte_extent(&self.shape, &self.strides, itemsize)?;
        if lo == hi {
            return Ok((self.offset, self.offset));
        }
        let overflow = || extent_overflow(&self.shape, &self.strides);
        Ok((
            self.offset.checked_add(lo).ok_or_else(overflow)?,
            self.offset.checked_add(hi).ok_or_else(overflow)?,
        ))
    }

    /// Byte offset of the element at a multi-index (no bounds check).
    ///
    /// ```
    /// use gpu_array::{Layout, Order};
    /// let l = Layout::contiguous(&[2, 3], 4, Order::C)?;
    /// assert_eq!(l.element_offset(&[1, 2])?, 20);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Index`] when `index` has another length than the shape;
    /// [`Error::Value`] when the offset does not fit `isize`.
    pub fn element_offset(&self, index: &[usize]) -> Result<isize> {
        if index.len() != self.ndim() {
            return Err(Error::Index(format!(
                "element_offset: {} indices for an array of dimension {}",
                index.len(),
                self.ndim()
            )));
        }
        index
            .iter()
            .zip(&self.strides)
            .try_fold(self.offset, |acc, (&i, &s)| {
                isize::try_from(i)
                    .ok()
                    .and_then(|i| i.checked_mul(s))
                    .and_then(|d| acc.checked_add(d))
            })
            .ok_or_else(|| extent_overflow(&self.shape, &self.strides))
    }

    /// Byte offset, relative to [`Layout::offset`], of the element at
    /// `index`, one integer per axis, negative ones counting from the end
    /// (NumPy's `a[i, j].item()`).
    ///
    /// ```
    /// use gpu_array::{Layout, Order};
    /// let l = Layout::contiguous(&[2, 3], 4, Order::C)?;
    /// assert_eq!(l.item_offset(&[-1, 0])?, 12); // a[-1, 0]
    /// assert!(l.item_offset(&[2, 0]).is_err());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Index`] "incorrect number of indices for array: ..." and
    /// "index 5 is out of bounds for axis 0 with size 3"; [`Error::Value`]
    /// when the offset does not fit `isize` (only a layout no buffer holds).
    pub fn item_offset(&self, index: &[isize]) -> Result<isize> {
        if index.len() != self.ndim() {
            return Err(Error::Index(format!(
                "incorrect number of indices for array: array is {}-dimensional, but {} were given",
                self.ndim(),
                index.len()
            )));
        }
        let mut off = 0isize;
        for (axis, ((&i, &n), &s)) in index.iter().zip(&self.shape).zip(&self.strides).enumerate() {
            let out_of_bounds = || {
                Error::Index(format!(
                    "index {i} is out of bounds for axis {axis} with size {n}"
                ))
            };
            // A negative index has a magnitude of at most n; anything else
            // is out of bounds, whatever n is.
            let j = if i < 0 {
                n.checked_sub(i.unsigned_abs())
            } else {
                Some(i.unsigned_abs()).filter(|&j| j < n)
            }
            .ok_or_else(out_of_bounds)?;
            off = isize::try_from(j)
                .ok()
                .and_then(|j| j.checked_mul(s))
                .and_then(|d| off.checked_add(d))
                .ok_or_else(|| extent_overflow(&self.shape, &self.strides))?;
        }
        Ok(off)
    }

    /// Whether every element lies inside a buffer of `buffer_len` bytes (an
    /// empty layout fits any buffer; one whose byte extent overflows fits
    /// none).
    ///
    /// ```
    /// use gpu_array::{Layout, Order};
    /// let l = Layout::contiguous(&[2, 3], 4, Order::C)?;
    /// assert!(l.fits(24, 4));
    /// assert!(!l.fits(20, 4));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn fits(&self, buffer_len: usize, itemsize: usize) -> bool {
        if self.size() == 0 {
            return true;
        }
        match self.byte_extent(itemsize) {
            Ok((lo, hi)) => lo >= 0 && usize::try_from(hi).is_ok_and(|hi| hi <= buffer_len),
            Err(_) => false,
        }
    }

    /// A layout with explicit shape and byte strides at this one's offset
    /// (NumPy's `as_strided`), checked to stay inside a buffer of
    /// `buffer_len` bytes, which NumPy's is not.
    ///
    /// ```
    /// use gpu_array::{Layout, Order};
    /// let l = Layout::contiguous(&[6], 4, Order::C)?;
    /// let windows = l.as_strided(&[4, 3], &[4, 4], 4, 24)?; // sliding windows of 3
    /// assert_eq!(windows.shape(), [4, 3]);
    /// assert!(l.as_strided(&[5, 3], &[4, 4], 4, 24).is_err()); // past the buffer
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Shape`] when the lengths differ; [`Error::TooBig`] as
    /// [`checked_size`]; [`Error::Value`] when an element lies outside the
    /// buffer or at a byte offset beyond `isize`.
    pub fn as_strided(
        &self,
        shape: &[usize],
        strides: &[isize],
        itemsize: usize,
        buffer_len: usize,
    ) -> Result<Layout> {
        if shape.len() != strides.len() {
            return Err(Error::Shape(format!(
                "as_strided: shape {} and strides {strides:?} differ in length",
                fmt_shape(shape)
            )));
        }
        checked_size(shape, itemsize)?;
        let l = Layout::try_new(shape.to_vec(), strides.to_vec(), self.offset)?;
        if !l.fits(buffer_len, itemsize) {
            return Err(Error::Value(format!(
                "as_strided: shape {} with strides {strides:?} reaches outside the array's buffer",
                fmt_shape(shape)
            )));
        }
        Ok(l)
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
    /// ```
    /// use gpu_array::{Layout, Order};
    /// let row = Layout::contiguous(&[3], 8, Order::C)?;
    /// let b = row.broadcast_to(&[2, 3])?;
    /// assert_eq!(b.strides(), [0, 8]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`broadcast_strides`]; [`Error::TooBig`] as [`size`] (the caller
    /// checks the bytes with its item size).
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<Layout> {
        let strides = broadcast_strides(&self.shape, &self.strides, shape)?;
        Layout::try_new(shape.to_vec(), strides, self.offset)
    }

    /// [`transpose`].
    ///
    /// ```
    /// use gpu_array::{Layout, Order};
    /// let t = Layout::contiguous(&[2, 3], 4, Order::C)?.transpose(None)?;
    /// assert_eq!((t.shape(), t.strides()), (&[3, 2][..], &[4, 12][..]));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`transpose`].
    pub fn transpose(&self, axes: Option<&[isize]>) -> Result<Layout> {
        Ok(self.with(transpose(&self.shape, &self.strides, axes)?))
    }

    /// [`swapaxes`].
    ///
    /// ```
    /// use gpu_array::{Layout, Order};
    /// let s = Layout::contiguous(&[2, 3, 4], 1, Order::C)?.swapaxes(0, -1)?;
    /// assert_eq!(s.shape(), [4, 3, 2]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`swapaxes`].
    pub fn swapaxes(&self, axis1: isize, axis2: isize) -> Result<Layout> {
        Ok(self.with(swapaxes(&self.shape, &self.strides, axis1, axis2)?))
    }

    /// [`moveaxis`].
    ///
    /// ```
    /// use gpu_array::{Layout, Order};
    /// let m = Layout::contiguous(&[2, 3, 4], 1, Order::C)?.moveaxis(&[0], &[-1])?;
    /// assert_eq!(m.shape(), [3, 4, 2]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`moveaxis`].
    pub fn moveaxis(&self, source: &[isize], destination: &[isize]) -> Result<Layout> {
        Ok(self.with(moveaxis(&self.shape, &self.strides, source, destination)?))
    }

    /// [`squeeze`].
    ///
    /// ```
    /// use gpu_array::{Layout, Order};
    /// let l = Layout::contiguous(&[1, 3, 1], 4, Order::C)?;
    /// assert_eq!(l.squeeze(None)?.shape(), [3]);
    /// assert_eq!(l.squeeze(Some(&[0]))?.shape(), [3, 1]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`squeeze`].
    pub fn squeeze(&self, axes: Option<&[isize]>) -> Result<Layout> {
        Ok(self.with(squeeze(&self.shape, &self.strides, axes)?))
    }

    /// [`expand_dims`].
    ///
    /// ```
    /// use gpu_array::{Layout, Order};
    /// let l = Layout::contiguous(&[3], 4, Order::C)?;
    /// assert_eq!(l.expand_dims(&[0, -1])?.shape(), [1, 3, 1]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
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
    /// ```
    /// use gpu_array::{Layout, Order};
    /// let l = Layout::contiguous(&[2, 6], 4, Order::C)?;
    /// assert_eq!(l.reshape(&[3, -1], 4, Order::C)?.unwrap().shape(), [3, 4]);
    /// let t = l.transpose(None)?;
    /// assert!(t.reshape(&[12], 4, Order::C)?.is_none()); // needs a copy
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`infer_shape`]; [`Error::TooBig`] as [`checked_size`] (an empty
    /// array reshaped to `(0, 2**62, 4)`).
    pub fn reshape(
        &self,
        newshape: &[isize],
        itemsize: usize,
        order: Order,
    ) -> Result<Option<Layout>> {
        let shape = infer_shape(self.size(), newshape)?;
        checked_size(&shape, itemsize)?;
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
    /// ```
    /// use gpu_array::{AxisIndex, Layout, Order};
    /// let l = Layout::contiguous(&[4, 5], 4, Order::C)?;
    /// let col = l.index(&[AxisIndex::FULL, AxisIndex::Index(2)])?; // a[:, 2]
    /// assert_eq!((col.shape(), col.strides(), col.offset()), (&[4][..], &[20][..], 8));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`index_layout`].
    pub fn index(&self, indices: &[AxisIndex]) -> Result<Layout> {
        let (shape, strides, offset) =
            index_layout(&self.shape, &self.strides, self.offset, indices)?;
        Layout::try_new(shape, strides, offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_orders() {
        // NumPy's isfortran: F-contiguous and not C-contiguous.
        assert_eq!(CopyOrder::A.resolve(false, true), Some(Order::F));
        assert_eq!(CopyOrder::A.resolve(true, true), Some(Order::C));
        assert_eq!(CopyOrder::A.resolve(false, false), Some(Order::C));
        assert_eq!(CopyOrder::K.resolve(true, false), None);
        assert_eq!(CopyOrder::from(Order::F), CopyOrder::F);
        // np.arange(24).reshape(2,3,4).transpose(2,0,1): strides (8,96,32).
        assert_eq!(keep_order_axes(&[8, 96, 32]), [1, 2, 0]);
        // Negative strides sort by size; ties keep axis order.
        assert_eq!(keep_order_axes(&[-24, 8]), [0, 1]);
        assert_eq!(keep_order_axes(&[8, 0, 8]), [0, 2, 1]);
    }

    #[test]
    fn strides_like_numpy() {
        assert_eq!(c_strides(&[2, 3, 4], 8).unwrap(), [96, 32, 8]);
        assert_eq!(f_strides(&[2, 3, 4], 8).unwrap(), [8, 16, 48]);
        // np.empty((3, 0), 'f8').strides == (8, 8); np.empty((0, 3)).strides == (24, 8)
        assert_eq!(c_strides(&[3, 0], 8).unwrap(), [8, 8]);
        assert_eq!(c_strides(&[0, 3], 8).unwrap(), [24, 8]);
        assert_eq!(c_strides(&[], 8).unwrap(), Vec::<isize>::new());
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
        assert_eq!(byte_extent(&[2, 3], &[12, 4], 4).unwrap(), (0, 24));
        assert_eq!(byte_extent(&[3], &[-4], 4).unwrap(), (-8, 4));
        assert_eq!(byte_extent(&[0, 3], &[12, 4], 4).unwrap(), (0, 0));
        let l = Layout::new(vec![3], vec![-4], 8);
        assert_eq!(l.byte_extent(4).unwrap(), (0, 12));
        assert_eq!(l.element_offset(&[2]).unwrap(), 0);
    }
}
