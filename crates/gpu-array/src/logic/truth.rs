//! NumPy's "Truth value testing": `all` and `any`, reductions of the
//! reduction engine.

use crate::array::Array;
use crate::error::Result;
use crate::reduction::{Builtin, ReduceOptions, reduce};

/// `numpy.all`.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::logic::all(&x, ())?; // np.all(x)
/// let rows = gpu_array::logic::all(&x, 1)?; // np.all(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn all<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::All, a, opts)
}

/// `numpy.any`.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::logic::any(&x, ())?; // np.any(x)
/// let rows = gpu_array::logic::any(&x, 1)?; // np.any(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn any<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::Any, a, opts)
}

/// The functions above as methods (`a.all(&ReduceOptions::axis(0))?`).
impl Array {
    /// [`all`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[1.0, 5.0], [3.0, 0.0]])?;
    /// let a = x.all(1)?; // x.all(axis=1): [True, False]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn all<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
        all(self, opts)
    }

    /// [`any`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[1.0, 5.0], [3.0, 0.0]])?;
    /// let a = x.any(())?; // x.any(): True
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn any<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
        any(self, opts)
    }
}
