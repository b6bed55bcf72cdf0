//! NumPy's "Sums, products, differences": `sum`, `prod`, `nansum`,
//! `nanprod` (the reduction engine, [`crate::reduction`]) and `cumsum`,
//! `cumprod`, `nancumsum`, `nancumprod` (the scan engine, [`crate::scan`]);
//! `diff` is in the sibling module.

use crate::array::Array;
use crate::dtype::DType;
use crate::error::Result;
use crate::reduction::{Builtin, ReduceOptions, reduce};
use crate::scan::{ScanOp, cumulative};

/// `numpy.sum`. Bool and small integers accumulate in int64/uint64, float16
/// in float32.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::math::sum(&x, ())?; // np.sum(x)
/// let rows = gpu_array::math::sum(&x, 1)?; // np.sum(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn sum<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::Sum, a, opts)
}

/// `numpy.prod`.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::math::prod(&x, ())?; // np.prod(x)
/// let rows = gpu_array::math::prod(&x, 1)?; // np.prod(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn prod<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::Prod, a, opts)
}

/// `numpy.nansum`: NaN counts as zero.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::math::nansum(&x, ())?; // np.nansum(x)
/// let rows = gpu_array::math::nansum(&x, 1)?; // np.nansum(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn nansum<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::NanSum, a, opts)
}

/// `numpy.nanprod`: NaN counts as one.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1.0, 2.0], [3.0, 4.0]])?;
/// let all = gpu_array::math::nanprod(&x, ())?; // np.nanprod(x)
/// let rows = gpu_array::math::nanprod(&x, 1)?; // np.nanprod(x, axis=1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`reduce`].
pub fn nanprod<'o>(a: &Array, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
    let opts = &opts.into();
    reduce(Builtin::NanProd, a, opts)
}

/// The functions above as methods (`a.sum(&ReduceOptions::axis(0))?`).
impl Array {
    /// [`sum`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[1.0, 5.0], [3.0, 0.0]])?;
    /// let s = x.sum(1)?; // x.sum(axis=1): [6, 3]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn sum<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
        sum(self, opts)
    }

    /// [`prod`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[1.0, 5.0], [3.0, 0.0]])?;
    /// let p = x.prod(0)?; // x.prod(axis=0): [3, 0]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn prod<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> Result<Array> {
        prod(self, opts)
    }
}

/// Cumulative sum along `axis` (NumPy's `cumsum`); `axis=None` scans the
/// flattened array; `dtype` is the accumulation and result dtype (default
/// [`cumulative_dtype`](crate::scan::cumulative_dtype)).
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let c = cumsum(&array([1, 2, 3])?, None, None)?; // [1, 3, 6]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Axis out of bounds; allocation, compilation or launch failed.
pub fn cumsum(a: &Array, axis: Option<isize>, dtype: Option<DType>) -> Result<Array> {
    cumulative(a, axis, dtype, ScanOp::Sum)
}

/// Cumulative product along `axis` (NumPy's `cumprod`); as [`cumsum`].
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let c = cumprod(&array([1, 2, 3])?, None, None)?; // [1, 2, 6]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`cumsum`].
pub fn cumprod(a: &Array, axis: Option<isize>, dtype: Option<DType>) -> Result<Array> {
    cumulative(a, axis, dtype, ScanOp::Prod)
}

/// Cumulative sum treating NaN as zero (NumPy's `nancumsum`); as
/// [`cumsum`] for integer and bool inputs.
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let c = nancumsum(&array([1.0, f64::NAN, 2.0])?, None, None)?; // [1, 1, 3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`cumsum`].
pub fn nancumsum(a: &Array, axis: Option<isize>, dtype: Option<DType>) -> Result<Array> {
    cumulative(a, axis, dtype, ScanOp::NanSum)
}

/// Cumulative product treating NaN as one (NumPy's `nancumprod`); as
/// [`cumprod`] for integer and bool inputs.
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let c = nancumprod(&array([2.0, f64::NAN, 3.0])?, None, None)?; // [2, 2, 6]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`cumsum`].
pub fn nancumprod(a: &Array, axis: Option<isize>, dtype: Option<DType>) -> Result<Array> {
    cumulative(a, axis, dtype, ScanOp::NanProd)
}

impl Array {
    /// `a.cumsum(axis)`: [`cumsum`] with the default dtype.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[1.0, 5.0], [3.0, 0.0]])?;
    /// let c = x.cumsum(Some(1))?; // x.cumsum(axis=1): [[1, 6], [3, 3]]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`cumsum`].
    pub fn cumsum(&self, axis: Option<isize>) -> Result<Array> {
        cumsum(self, axis, None)
    }

    /// `a.cumprod(axis)`: [`cumprod`] with the default dtype.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[1.0, 5.0], [3.0, 0.0]])?;
    /// let c = x.cumprod(None)?; // x.cumprod(): [1, 5, 15, 0]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`cumprod`].
    pub fn cumprod(&self, axis: Option<isize>) -> Result<Array> {
        cumprod(self, axis, None)
    }
}
