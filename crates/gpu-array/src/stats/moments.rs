//! NumPy's "Averages and variances" computed by the reduction engine:
//! `mean`, `var`, `std` and their `nan` forms (`average`, `cov` and
//! `corrcoef` are in the sibling `average` module).

use crate::array::Array;
use crate::error::Result;
use crate::reduction::{Builtin, ReduceOptions, reduce};

/// `numpy.mean`: integers and bool give float64; float16 accumulates in
/// float32; an empty reduction gives NaN.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::stats::mean(&x, ())?; // np.mean(x)
/// let rows = gpu_array::stats::mean(&x, 1)?; // np.mean(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn mean<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::Mean, a, opts)
}

/// `numpy.var` with `opts.ddof`, in one pass (count, mean, M2 merged with
/// Chan's formula): float64 for bool and integers, the real dtype for
/// complex (var of the real plus var of the imaginary part), float16
/// computed in float32. An empty reduction gives NaN. With `opts.where_`
/// (NumPy's `where=`, a bool mask broadcast against `a`) only the selected
/// elements count: their mean, and `ddof` subtracted from their count.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::stats::var(&x, ())?; // np.var(x)
/// let rows = gpu_array::stats::var(&x, 1)?; // np.var(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn var<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::Var, a, opts)
}

/// `numpy.std`: the square root of [`var`].
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::stats::std(&x, ())?; // np.std(x)
/// let rows = gpu_array::stats::std(&x, 1)?; // np.std(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn std<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::Std, a, opts)
}

/// `numpy.nanmean`: the mean of the non-NaN values; a row of NaN only (or
/// an empty one) gives NaN (NumPy also warns). With `opts.where_`, the
/// mean of the non-NaN values the mask selects.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::stats::nanmean(&x, ())?; // np.nanmean(x)
/// let rows = gpu_array::stats::nanmean(&x, 1)?; // np.nanmean(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn nanmean<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::NanMean, a, opts)
}

/// `numpy.nanvar`: [`var`] of the non-NaN values (NaN for a row of NaN).
/// With `opts.where_`, of the non-NaN values the mask selects; a count
/// less `ddof` of zero or below gives NaN, as NumPy's.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::stats::nanvar(&x, ())?; // np.nanvar(x)
/// let rows = gpu_array::stats::nanvar(&x, 1)?; // np.nanvar(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn nanvar<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::NanVar, a, opts)
}

/// `numpy.nanstd`: the square root of [`nanvar`].
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::stats::nanstd(&x, ())?; // np.nanstd(x)
/// let rows = gpu_array::stats::nanstd(&x, 1)?; // np.nanstd(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn nanstd<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::NanStd, a, opts)
}

/// The functions above as methods (`a.mean(&ReduceOptions::axis(0))?`).
impl Array {
    /// [`mean`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[1.0, 5.0], [3.0, 0.0]])?;
    /// let m = x.mean(())?; // x.mean(): 2.25
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn mean<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
        mean(self, opts)
    }

    /// [`var`] (`ddof` in `opts`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[1.0, 5.0], [3.0, 0.0]])?;
    /// let v = x.var(0)?; // x.var(axis=0): [1, 6.25]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn var<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
        var(self, opts)
    }

    /// [`std`](fn@std) (`ddof` in `opts`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[1.0, 5.0], [3.0, 0.0]])?;
    /// let s = x.std(0)?; // x.std(axis=0): [1, 2.5]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn std<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
        std(self, opts)
    }
}
