//! Views: basic indexing, transposes, reshapes, broadcasts and
//! reinterpretation. None of these copy unless NumPy would.

use super::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::{self, AxisIndex, CopyOrder, IntoNewShape, Layout, Order};

impl Array {
    /// Basic indexing as a view (NumPy's `a[1, 2:, ::-1, np.newaxis, ...]`),
    /// written with the [`s!`](crate::s) macro: `a.slice(&s![1, 2.., ..;-1])`.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// use gpu_array::s;
    /// let v = x.slice(&s![.., 1..;-1])?; // x[:, 1::-1], a view
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Out-of-range integers, too many indices, two ellipses, a zero step.
    pub fn slice(&self, indices: &[AxisIndex]) -> Result<Array> {
        Ok(self.with_layout(self.layout.index(indices)?, self.dtype))
    }

    /// The array with a new shape (NumPy's `reshape`, one dimension may be
    /// `-1`): a view when the strides allow, else a copy, the elements
    /// read and written in `order` (`Order::C`, `Order::F`, or
    /// [`CopyOrder::A`]: F for an F-contiguous array that is not
    /// C-contiguous, else C).
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(6)?;
    /// let f = x.reshape_order([2, 3], CopyOrder::F)?; // x.reshape(2, 3, order='F'): [[0, 2, 4], [1, 3, 5]]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The sizes differ, or more than one `-1`; [`CopyOrder::K`] ("order
    /// 'K' is not permitted for reshaping", NumPy's message).
    pub fn reshape_order(
        &self,
        shape: impl IntoNewShape,
        order: impl Into<CopyOrder>,
    ) -> Result<Array> {
        let shape = shape.into_new_shape()?;
        let shape = &shape[..];
        let Some(order) = order
            .into()
            .resolve(self.is_c_contiguous(), self.is_f_contiguous())
        else {
            return Err(Error::Value(
                "order 'K' is not permitted for reshaping".into(),
            ));
        };
        match self.layout.reshape(shape, self.itemsize(), order)? {
            Some(l) => Ok(self.with_layout(l, self.dtype)),
            None => {
                let c = self.copy_order(order)?;
                let l = c
                    .layout
                    .reshape(shape, self.itemsize(), order)?
                    .ok_or_else(|| Error::Shape("reshape of a contiguous copy failed".into()))?;
                Ok(c.with_layout(l, self.dtype))
            }
        }
    }

    /// [`Array::reshape_order`] in C order.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let r = x.reshape((3, -1))?; // (3, 2)
    /// let back = r.reshape(x.shape())?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::reshape_order`].
    pub fn reshape(&self, shape: impl IntoNewShape) -> Result<Array> {
        self.reshape_order(shape, Order::C)
    }

    /// A 1-D view when possible, else a 1-D copy (NumPy's `ravel`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let r = x.ravel()?; // a view when possible
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A copy was needed and failed.
    pub fn ravel(&self) -> Result<Array> {
        self.reshape([-1])
    }

    /// [`Array::ravel`] reading the elements in `order` (NumPy's
    /// `ravel(a, order)`): C or F index order; [`CopyOrder::A`] as
    /// [`Array::reshape_order`]; [`CopyOrder::K`] in the order of the axes
    /// in memory ([`layout::keep_order_axes`]), each axis from its first
    /// index, a view only when that walk is the memory itself (no negative
    /// stride), as NumPy.
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(6)?.reshape((2, 3))?;
    /// let r = x.ravel_order(CopyOrder::F)?; // x.ravel(order='F'): [0, 3, 1, 4, 2, 5]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A copy was needed and failed.
    pub fn ravel_order(&self, order: impl Into<CopyOrder>) -> Result<Array> {
        let order = order.into();
        if order != CopyOrder::K {
            return self.reshape_order([-1], order);
        }
        let axes: Vec<isize> = layout::keep_order_axes(self.strides())
            .into_iter()
            .map(|a| a as isize)
            .collect();
        let walk = self.transpose(Some(&axes))?;
        let backwards = walk
            .shape()
            .iter()
            .zip(walk.strides())
            .any(|(&d, &s)| d > 1 && s < 0);
        if backwards {
            walk.copy_order(Order::C)?.reshape([-1])
        } else {
            walk.reshape([-1])
        }
    }

    /// A 1-D copy, always (NumPy's `flatten`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let f = x.flatten()?; // a 1-D copy
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The copy failed.
    pub fn flatten(&self) -> Result<Array> {
        self.copy_order(Order::C)?.reshape([-1])
    }

    /// [`Array::flatten`] reading the elements in `order`, as
    /// [`Array::ravel_order`] reads them (NumPy's `flatten(order)`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(6)?.reshape((2, 3))?;
    /// let f = x.flatten_order(CopyOrder::F)?; // x.flatten(order='F'): a copy, [0, 3, 1, 4, 2, 5]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The copy failed.
    pub fn flatten_order(&self, order: impl Into<CopyOrder>) -> Result<Array> {
        let order = order.into();
        match order.resolve(self.is_c_contiguous(), self.is_f_contiguous()) {
            Some(o) => self.copy_order(o)?.reshape_order([-1], o),
            // A copy in K order is dense in its own axis order, so its
            // K-ravel is a view of it.
            None => self.copy_order(CopyOrder::K)?.ravel_order(CopyOrder::K),
        }
    }

    /// Axes permuted; `None` reverses them (NumPy's `transpose`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let t = x.transpose(None)?; // (3, 2)
    /// let p = x.reshape((1, 2, 3))?.transpose(Some(&[2, 0, 1]))?; // (3, 1, 2)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// `axes` is not a permutation of the dimensions.
    pub fn transpose(&self, axes: Option<&[isize]>) -> Result<Array> {
        Ok(self.with_layout(self.layout.transpose(axes)?, self.dtype))
    }

    /// The transpose (NumPy's `a.T`).
    #[allow(non_snake_case)]
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let t = x.T(); // (3, 2), a view
    /// # Ok(()) }
    /// ```
    pub fn T(&self) -> Array {
        self.transpose(None)
            .expect("reversing the axes is always a valid permutation")
    }

    /// Two axes swapped (NumPy's `swapaxes`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let s = x.swapaxes(0, 1)?; // (3, 2)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// An axis is out of range.
    pub fn swapaxes(&self, axis1: isize, axis2: isize) -> Result<Array> {
        Ok(self.with_layout(self.layout.swapaxes(axis1, axis2)?, self.dtype))
    }

    /// Axes moved to new positions (NumPy's `moveaxis`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let m = x.moveaxis(&[0], &[-1])?; // (3, 2)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Out-of-range or repeated axes, or lists of different lengths.
    pub fn moveaxis(&self, source: &[isize], destination: &[isize]) -> Result<Array> {
        Ok(self.with_layout(self.layout.moveaxis(source, destination)?, self.dtype))
    }

    /// `axis` rolled back to position `start` (NumPy's `rollaxis`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = zeros([2, 3, 4], DType::Float32)?;
    /// let r = x.rollaxis(2, 0)?; // np.rollaxis(x, 2): shape (4, 2, 3)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// `axis` or `start` out of range.
    pub fn rollaxis(&self, axis: isize, start: isize) -> Result<Array> {
        let n = self.ndim() as isize;
        let axis = layout::normalize_axis(axis, self.ndim())? as isize;
        let start_n = if start < 0 { start + n } else { start };
        if !(0..=n).contains(&start_n) {
            return Err(Error::AxisOutOfBounds {
                arg: Some("start"),
                axis: start,
                ndim: self.ndim() + 1,
            });
        }
        // NumPy: moving an axis forward lands it just before `start`.
        let dest = if axis < start_n { start_n - 1 } else { start_n };
        self.moveaxis(&[axis], &[dest])
    }

    /// Length-one axes removed: all of them, or those named (NumPy's `squeeze`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let s = x.reshape((1, 2, 3))?.squeeze(None)?; // (2, 3)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A named axis is not of length one, or out of range.
    pub fn squeeze(&self, axes: Option<&[isize]>) -> Result<Array> {
        Ok(self.with_layout(self.layout.squeeze(axes)?, self.dtype))
    }

    /// Length-one axes inserted at `axes` of the result (NumPy's `expand_dims`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let e = x.expand_dims(&[0])?; // (1, 2, 3)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Out-of-range or repeated axes.
    pub fn expand_dims(&self, axes: &[isize]) -> Result<Array> {
        Ok(self.with_layout(self.layout.expand_dims(axes)?, self.dtype))
    }

    /// A read-only-in-spirit view with `shape`, broadcasting with stride 0
    /// (NumPy's `broadcast_to`). Writing into it writes repeated elements.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let b = gpu_array::creation::arange(3)?.broadcast_to(&[4, 3])?; // a view, stride 0
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The shapes do not broadcast; [`Error::TooBig`] when the result's
    /// bytes would not fit `isize` (NumPy refuses such a view too).
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<Array> {
        let l = self.layout.broadcast_to(shape)?;
        layout::checked_size(shape, self.itemsize())?;
        Ok(self.with_layout(l, self.dtype))
    }

    /// A view with explicit shape and byte strides (NumPy's `as_strided`).
    /// Unlike NumPy's, this checks that every element it can address lies
    /// inside the buffer, so no view reaches foreign memory.
    ///
    /// ```no_run
    /// use gpu_array::{array::Broadcast, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(5)?; // int64
    /// // np.lib.stride_tricks.as_strided(x, (3, 3), (8, 8)): sliding windows [[0, 1, 2], [1, 2, 3], [2, 3, 4]]
    /// let w = x.as_strided(&[3, 3], &[8, 8])?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The view would reach outside the buffer, or byte offsets beyond
    /// `isize`; the lengths differ; [`Error::TooBig`] for a shape whose
    /// bytes do not fit `isize`.
    pub fn as_strided(&self, shape: &[usize], strides: &[isize]) -> Result<Array> {
        let l = self
            .layout
            .as_strided(shape, strides, self.itemsize(), self.mem.size())?;
        Ok(self.with_layout(l, self.dtype))
    }

    /// The same bytes seen as another dtype (NumPy's `a.view(dtype)`). When
    /// the item size changes, the last axis must be contiguous and its
    /// length in bytes divisible by the new item size.
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = array([1.0f32, -0.0])?;
    /// let bits = x.view_as(DType::UInt32)?; // x.view(np.uint32): [0x3f800000, 0x80000000]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As above, in NumPy's words.
    pub fn view_as(&self, dtype: DType) -> Result<Array> {
        let (old, new) = (self.itemsize(), dtype.itemsize());
        if old == new {
            return Ok(self.with_layout(self.layout.clone(), dtype));
        }
        if self.ndim() == 0 {
            return Err(Error::Value(
                "Changing the dtype of a 0d array is only supported if the itemsize is unchanged"
                    .into(),
            ));
        }
        let last = self.ndim() - 1;
        let (mut shape, mut strides) = (self.shape().to_vec(), self.strides().to_vec());
        if shape[last] != 1 && strides[last] != old as isize {
            return Err(Error::Value(
                "To change to a dtype of a different size, the last axis must be contiguous".into(),
            ));
        }
        // The last axis lies inside the buffer, so its bytes fit; checked
        // all the same, as the layout is the only witness.
        let bytes = shape[last].checked_mul(old).ok_or(Error::TooBig)?;
        if bytes % new != 0 {
            return Err(Error::Value(
                "When changing to a larger dtype, its size must be a divisor of the total size in \
                 bytes of the last axis of the array."
                    .into(),
            ));
        }
        shape[last] = bytes / new;
        // Item sizes are at most 16 bytes.
        let new_i = isize::try_from(new).map_err(|_| Error::TooBig)?;
        strides[last] = new_i;
        if self.layout.offset() % new_i != 0 && new > old {
            return Err(Error::Value(format!(
                "view as {dtype}: the data is not aligned to {new} bytes"
            )));
        }
        Ok(self.with_layout(
            Layout::try_new(shape, strides, self.layout.offset())?,
            dtype,
        ))
    }

    /// The real part as a view for complex arrays (NumPy's `a.real`); for
    /// real arrays, the array itself.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let z = gpu_array::creation::array([num_complex::Complex::new(1.0, 2.0)])?;
    /// let re = z.real(); // a view
    /// # Ok(()) }
    /// ```
    pub fn real(&self) -> Array {
        if !self.dtype.is_complex() {
            return self.clone();
        }
        self.with_layout(self.layout.clone(), self.dtype.real_dtype())
    }

    /// The imaginary part as a view for complex arrays (NumPy's `a.imag`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let z = gpu_array::creation::array([num_complex::Complex::new(1.0, 2.0)])?;
    /// let im = z.imag()?; // a view
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Unsupported`] for real arrays, whose imaginary part NumPy
    /// returns as a new read-only array of zeros: use `zeros_like` instead.
    pub fn imag(&self) -> Result<Array> {
        if !self.dtype.is_complex() {
            return Err(Error::Unsupported(
                "imag of a real array is not a view; use Array::zeros with its shape".into(),
            ));
        }
        // The imaginary half lies inside the buffer, so its offset fits.
        let half = isize::try_from(self.itemsize() / 2).map_err(|_| Error::TooBig)?;
        let offset = self
            .layout
            .offset()
            .checked_add(half)
            .ok_or(Error::TooBig)?;
        let l = Layout::try_new(self.shape().to_vec(), self.strides().to_vec(), offset)?;
        Ok(self.with_layout(l, self.dtype.real_dtype()))
    }

    /// At least one dimension (NumPy's `atleast_1d`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let s = gpu_array::creation::array(5)?.atleast_1d(); // shape (1,)
    /// # Ok(()) }
    /// ```
    pub fn atleast_1d(&self) -> Array {
        if self.ndim() >= 1 {
            self.clone()
        } else {
            self.with_layout(
                Layout::new(vec![1], vec![0], self.layout.offset()),
                self.dtype,
            )
        }
    }

    /// At least two dimensions, new ones in front (NumPy's `atleast_2d`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let r = gpu_array::creation::arange(3)?.atleast_2d(); // shape (1, 3)
    /// # Ok(()) }
    /// ```
    pub fn atleast_2d(&self) -> Array {
        match self.ndim() {
            0 => self.with_layout(
                Layout::new(vec![1, 1], vec![0, 0], self.layout.offset()),
                self.dtype,
            ),
            1 => self.with_layout(
                Layout::new(
                    vec![1, self.shape()[0]],
                    vec![0, self.strides()[0]],
                    self.layout.offset(),
                ),
                self.dtype,
            ),
            _ => self.clone(),
        }
    }

    /// At least three dimensions, as NumPy's `atleast_3d` places them
    /// (`(N,)` becomes `(1, N, 1)`, `(M, N)` becomes `(M, N, 1)`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(3)?;
    /// let y = x.atleast_3d(); // np.atleast_3d(x): shape (1, 3, 1)
    /// # Ok(()) }
    /// ```
    pub fn atleast_3d(&self) -> Array {
        let (s, t, o) = (self.shape(), self.strides(), self.layout.offset());
        let l = match self.ndim() {
            0 => Layout::new(vec![1, 1, 1], vec![0, 0, 0], o),
            1 => Layout::new(vec![1, s[0], 1], vec![0, t[0], 0], o),
            2 => Layout::new(vec![s[0], s[1], 1], vec![t[0], t[1], 0], o),
            _ => return self.clone(),
        };
        self.with_layout(l, self.dtype)
    }
}

/// Views of all `arrays` broadcast to their common shape (NumPy's
/// `broadcast_arrays`).
///
/// ```no_run
/// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (a, b) = (arange(3)?, zeros([2, 1], DType::Int64)?);
/// let ab = gpu_array::array::broadcast_arrays(&[&a, &b])?; // np.broadcast_arrays(a, b): both (2, 3)
/// # Ok(()) }
/// ```
///
/// # Errors
/// The shapes do not broadcast.
pub fn broadcast_arrays(arrays: &[&Array]) -> Result<Vec<Array>> {
    let shapes: Vec<&[usize]> = arrays.iter().map(|a| a.shape()).collect();
    let shape = layout::broadcast_shapes(&shapes)?;
    arrays.iter().map(|a| a.broadcast_to(&shape)).collect()
}

/// The shape-only result of broadcasting (NumPy's `np.broadcast` object):
/// the common shape, its size and dimensions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Broadcast {
    /// The broadcast shape.
    pub shape: Vec<usize>,
}

impl Broadcast {
    /// Broadcasts the arrays' shapes.
    ///
    /// ```no_run
    /// use gpu_array::{array::Broadcast, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let (a, b) = (arange(3)?, arange(2)?.reshape((2, 1))?);
    /// let bc = Broadcast::new(&[&a, &b])?; // np.broadcast(a, b).shape: (2, 3)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The shapes do not broadcast.
    pub fn new(arrays: &[&Array]) -> Result<Broadcast> {
        let shapes: Vec<&[usize]> = arrays.iter().map(|a| a.shape()).collect();
        Ok(Broadcast {
            shape: layout::broadcast_shapes(&shapes)?,
        })
    }

    /// Elements in the broadcast shape.
    ///
    /// ```no_run
    /// use gpu_array::{array::Broadcast, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let (a, b) = (arange(3)?, arange(2)?.reshape((2, 1))?);
    /// assert_eq!(Broadcast::new(&[&a, &b])?.size()?, 6); // np.broadcast(a, b).size
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::TooBig`] when the shape's elements do not fit `isize`.
    pub fn size(&self) -> Result<usize> {
        layout::size(&self.shape)
    }

    /// Dimensions of the broadcast shape.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// assert_eq!(x.ndim(), 2);
    /// # Ok(()) }
    /// ```
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }
}
