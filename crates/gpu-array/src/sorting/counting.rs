//! NumPy's "Searching" and "Counting" by reduction: `argmax`,
//! `argmin`, their `nan` forms and `count_nonzero`.

use crate::array::Array;
use crate::error::Result;
use crate::reduction::{Builtin, ReduceOptions, reduce};

/// `numpy.argmax`: the int64 index of the first maximum along one axis,
/// or into the C-order flattened array for `axis: None`; a NaN is the
/// maximum (its first occurrence). `dtype=` is not accepted; `out` must be
/// int64.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::sorting::argmax(&x, ())?; // np.argmax(x)
/// let rows = gpu_array::sorting::argmax(&x, 1)?; // np.argmax(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// "attempt to get argmax of an empty sequence"; several axes; as
/// [`reduce`].
pub fn argmax<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::ArgMax, a, opts)
}

/// `numpy.argmin`: as [`argmax`] for the first minimum.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::sorting::argmin(&x, ())?; // np.argmin(x)
/// let rows = gpu_array::sorting::argmin(&x, 1)?; // np.argmin(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`argmax`].
pub fn argmin<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::ArgMin, a, opts)
}

/// `numpy.nanargmax`: as [`argmax`] ignoring NaN.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::sorting::nanargmax(&x, ())?; // np.nanargmax(x)
/// let rows = gpu_array::sorting::nanargmax(&x, 1)?; // np.nanargmax(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`argmax`]; "All-NaN slice encountered" when a row is all NaN
/// (checked after the kernel, with one synchronising read-back).
pub fn nanargmax<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::NanArgMax, a, opts)
}

/// `numpy.nanargmin`: as [`nanargmax`] for the minimum.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::sorting::nanargmin(&x, ())?; // np.nanargmin(x)
/// let rows = gpu_array::sorting::nanargmin(&x, 1)?; // np.nanargmin(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`nanargmax`].
pub fn nanargmin<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::NanArgMin, a, opts)
}

/// `numpy.count_nonzero` (int64 counts).
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::sorting::count_nonzero(&x, ())?; // np.count_nonzero(x)
/// let rows = gpu_array::sorting::count_nonzero(&x, 1)?; // np.count_nonzero(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn count_nonzero<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::CountNonzero, a, opts)
}

/// The functions above as methods (`a.count_nonzero(&ReduceOptions::axis(0))?`).
impl Array {
    /// [`count_nonzero`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[1.0, 5.0], [3.0, 0.0]])?;
    /// let n = x.count_nonzero(())?; // np.count_nonzero(x): 3
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn count_nonzero<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
        count_nonzero(self, opts)
    }

    /// [`argmax`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[1.0, 5.0], [3.0, 0.0]])?;
    /// let i = x.argmax(())?; // x.argmax(): 1 (flat index)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`argmax`].
    pub fn argmax<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
        argmax(self, opts)
    }

    /// [`argmin`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[1.0, 5.0], [3.0, 0.0]])?;
    /// let i = x.argmin(1)?; // x.argmin(axis=1): [0, 1]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`argmin`].
    pub fn argmin<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
        argmin(self, opts)
    }
}
