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
/// # Errors
/// "attempt to get argmax of an empty sequence"; several axes; as
/// [`reduce`].
pub fn argmax<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::ArgMax, a, opts)
}

/// `numpy.argmin`: as [`argmax`] for the first minimum.
///
/// # Errors
/// As [`argmax`].
pub fn argmin<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::ArgMin, a, opts)
}

/// `numpy.nanargmax`: as [`argmax`] ignoring NaN.
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
/// # Errors
/// As [`nanargmax`].
pub fn nanargmin<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::NanArgMin, a, opts)
}

/// `numpy.count_nonzero` (int64 counts).
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
    /// # Errors
    /// As [`reduce`].
    pub fn count_nonzero<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
        count_nonzero(self, opts)
    }

    /// [`argmax`].
    ///
    /// # Errors
    /// As [`argmax`].
    pub fn argmax<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
        argmax(self, opts)
    }

    /// [`argmin`].
    ///
    /// # Errors
    /// As [`argmin`].
    pub fn argmin<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
        argmin(self, opts)
    }
}
