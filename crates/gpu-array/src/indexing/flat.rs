//! Flat iteration on the host (NumPy's `a.flat` and CuPy's `flatiter`, for
//! reading).

use crate::array::Array;
use crate::dtype::Element;
use crate::error::Result;

/// The elements of an array on the host in C order, as NumPy's `a.flat`
/// reads them: `a.flat()?[k]` is `a.flat[k]`, `for x in a.flat()?` walks
/// them, `.len()` is `a.size`. One device-to-host copy makes it (a strided
/// view copies only the span it covers), so iterate on the host, not with
/// repeated [`Array::item`] calls. It derefs to a slice for everything
/// else (`iter`, `get`, slicing as `a.flat[2:5]`).
#[derive(Debug, Clone, PartialEq)]
pub struct Flat<T> {
    values: Vec<T>,
}

impl<T> Flat<T> {
    /// The values, in C order.
    ///
    /// ```no_run
    /// use gpu_array::creation::*;
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(4)?.reshape((2, 2))?;
    /// let v = x.flat::<i64>()?.into_vec(); // [0, 1, 2, 3]
    /// # Ok(()) }
    /// ```
    pub fn into_vec(self) -> Vec<T> {
        self.values
    }
}

impl<T> std::ops::Deref for Flat<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.values
    }
}

impl<T> IntoIterator for Flat<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.values.into_iter()
    }
}

impl<'a, T> IntoIterator for &'a Flat<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.values.iter()
    }
}

impl Array {
    /// The elements on the host in C order (NumPy's `a.flat`, read
    /// access); `T` must be the array's element type. Waits for the device.
    ///
    /// Writing through `a.flat[k] = v` is [`Array::set_item`] on the
    /// unravelled index, or [`crate::indexing::put`] for many.
    ///
    /// ```no_run
    /// use gpu_array::creation::*;
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(4)?.reshape((2, 2))?;
    /// let v: Vec<i64> = x.flat::<i64>()?.into_vec(); // list(x.flat): [0, 1, 2, 3]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`crate::Error::HostType`] for another `T`; the copy failed.
    pub fn flat<T: Element>(&self) -> Result<Flat<T>> {
        Ok(Flat {
            values: self.to_vec::<T>()?,
        })
    }
}
