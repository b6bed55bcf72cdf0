//! NumPy's "Order statistics" computed by the reduction engine: `amax`,
//! `amin`, `nanmax`, `nanmin` and `ptp` (the quantiles sort:
//! [`crate::sorting`]).

use crate::array::Array;
use crate::error::{Error, Result};
use crate::reduction::{Builtin, ReduceOptions, reduce};

/// `numpy.amax`: NaN propagates; an empty reduction is an error.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::stats::amax(&x, ())?; // np.amax(x)
/// let rows = gpu_array::stats::amax(&x, 1)?; // np.amax(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn amax<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::Max, a, opts)
}

/// `numpy.amin`: NaN propagates; an empty reduction is an error.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::stats::amin(&x, ())?; // np.amin(x)
/// let rows = gpu_array::stats::amin(&x, 1)?; // np.amin(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn amin<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::Min, a, opts)
}

/// `numpy.nanmax`: NaN is ignored; a row of NaN only gives NaN (NumPy also
/// warns); an empty reduction is an error.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::stats::nanmax(&x, ())?; // np.nanmax(x)
/// let rows = gpu_array::stats::nanmax(&x, 1)?; // np.nanmax(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn nanmax<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::NanMax, a, opts)
}

/// `numpy.nanmin`: as [`nanmax`].
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::stats::nanmin(&x, ())?; // np.nanmin(x)
/// let rows = gpu_array::stats::nanmin(&x, 1)?; // np.nanmin(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn nanmin<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::NanMin, a, opts)
}

/// `numpy.ptp`: `max - min` along the axes, in the input's dtype (unsigned
/// integers wrap, as NumPy's).
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::stats::ptp(&x, ())?; // np.ptp(x)
/// let rows = gpu_array::stats::ptp(&x, 1)?; // np.ptp(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`] for max and min; bool input (NumPy's subtract has no
/// bool loop); [`Error::Unsupported`] for `dtype=` and `out=`.
pub fn ptp<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    if opts.out.is_some() || opts.dtype.is_some() {
        return Err(Error::Unsupported(
            "ptp with out= or dtype=: not supported".into(),
        ));
    }
    let mx = amax(a, opts)?;
    let mn = amin(a, opts)?;
    crate::ufunc::subtract(&mx, &mn)
}

/// The functions above as methods (`a.max(&ReduceOptions::axis(0))?`).
impl Array {
    /// [`amax`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[1.0, 5.0], [3.0, 0.0]])?;
    /// let m = x.max(1)?; // x.max(axis=1): [5, 3]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn max<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
        amax(self, opts)
    }

    /// [`amin`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[1.0, 5.0], [3.0, 0.0]])?;
    /// let m = x.min(())?; // x.min(): 0
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn min<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
        amin(self, opts)
    }

    /// [`ptp`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[1.0, 5.0], [3.0, 0.0]])?;
    /// let r = x.ptp(1)?; // np.ptp(x, axis=1): [4, 3]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`ptp`].
    pub fn ptp<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
        ptp(self, opts)
    }
}
