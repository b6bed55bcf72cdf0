//! Copies between layouts of one dtype.

use super::Array;
use crate::error::{Error, Result};
use crate::layout::{CopyOrder, Order};

impl Array {
    /// A new array with the same values laid out in `order` (NumPy's
    /// `a.copy(order)`: `Order::C`, `Order::F`, or [`CopyOrder::A`] and
    /// [`CopyOrder::K`], which follow `self`'s layout), queued on the
    /// array's stream.
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(6)?.reshape((2, 3))?;
    /// let f = x.copy_order(Order::F)?; // x.copy(order='F'): f.is_f_contiguous()
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Allocation failed.
    pub fn copy_order(&self, order: impl Into<CopyOrder>) -> Result<Array> {
        let out = self.empty_in(order.into(), self.dtype)?;
        out.copy_from(self)?;
        Ok(out)
    }

    /// An uninitialised array of `self`'s shape and device, of `dtype`,
    /// laid out in `order` (`K`: as NumPy's `empty_like`).
    pub(crate) fn empty_in(&self, order: CopyOrder, dtype: crate::DType) -> Result<Array> {
        match order.resolve(self.is_c_contiguous(), self.is_f_contiguous()) {
            Some(o) => Array::empty_on(self.device(), self.shape(), dtype, o),
            None => crate::creation::empty_like(self, Some(dtype)),
        }
    }

    /// A new C-ordered array with the same values (NumPy's `a.copy()`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let c = x.copy()?; // C order, its own memory
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Allocation failed.
    pub fn copy(&self) -> Result<Array> {
        self.copy_order(Order::C)
    }

    /// Writes `src`'s values into `self` (same shape and dtype; NumPy's
    /// `self[...] = src` without casting), on `self`'s stream: a memcpy when
    /// both are dense in the same order, else a strided copy kernel.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let y = gpu_array::creation::zeros((2, 3), x.dtype())?;
    /// y.copy_from(&x)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Different shapes, dtypes or devices.
    pub fn copy_from(&self, src: &Array) -> Result<()> {
        self.check_same_device(src, "copy_from")?;
        if self.shape() != src.shape() || self.dtype != src.dtype {
            return Err(Error::Value(format!(
                "copy_from: destination {:?} and source {:?} differ in shape or dtype",
                self, src
            )));
        }
        if self.size() == 0 {
            return Ok(());
        }
        let same_dense = (self.is_c_contiguous() && src.is_c_contiguous())
            || (self.is_f_contiguous() && src.is_f_contiguous());
        if same_dense {
            self.memory().copy_from_device_at(
                self.byte_offset(0)?,
                src.memory(),
                src.byte_offset(0)?,
                self.nbytes(),
                &self.stream(),
            )?;
            return Ok(());
        }
        if super::transpose::try_transpose_copy(self, src)? {
            return Ok(());
        }
        super::ops::cast_into(self, src)
    }
}
