//! NumPy's "Truth value testing": `all` and `any`, reductions of the
//! reduction engine.

use crate::array::Array;
use crate::error::Result;
use crate::reduction::{Builtin, ReduceOptions, reduce};

/// `numpy.all`.
///
/// # Errors
/// As [`reduce`].
pub fn all(a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    reduce(Builtin::All, a, opts)
}

/// `numpy.any`.
///
/// # Errors
/// As [`reduce`].
pub fn any(a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    reduce(Builtin::Any, a, opts)
}

/// The functions above as methods (`a.all(&ReduceOptions::axis(0))?`).
impl Array {
    /// [`all`].
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn all(&self, opts: &ReduceOptions<'_>) -> Result<Array> {
        all(self, opts)
    }

    /// [`any`].
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn any(&self, opts: &ReduceOptions<'_>) -> Result<Array> {
        any(self, opts)
    }
}
