//! The `numpy.ndarray` methods that are NumPy functions of the array
//! (`x.sort(..)` is `np.sort(x, ..)`), forwarding to them: one
//! implementation each, the method only for the spelling a NumPy user
//! reaches for. (The reductions' methods live beside the reductions:
//! `x.sum(..)` in `math::sums`, `x.mean(..)` in `stats::moments`.)

use super::Array;
use crate::error::Result;
use crate::indexing::{self, ClipMode, TakeMode};
use crate::math::{self, Bound};
use crate::sorting::{self, Side};
use crate::ufunc;

impl Array {
    /// `x.sort(axis)`: a sorted copy (NumPy's method sorts in place; see
    /// [`sorting::sort`]).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([3, 1, 2])?;
    /// assert_eq!(x.sort(Some(-1))?.to_vec::<i64>()?, [1, 2, 3]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`sorting::sort`].
    pub fn sort(&self, axis: Option<isize>) -> Result<Array> {
        sorting::sort(self, axis)
    }

    /// `x.argsort(axis)`; see [`sorting::argsort`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([3.0, 1.0, 2.0])?;
    /// let i = x.argsort(Some(-1))?; // x.argsort(): [1, 2, 0]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`sorting::argsort`].
    pub fn argsort(&self, axis: Option<isize>) -> Result<Array> {
        sorting::argsort(self, axis)
    }

    /// `x.partition(kth, axis)` as a copy; see [`sorting::partition`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([3, 4, 2, 1])?;
    /// let p = x.partition(&[2], Some(-1))?; // np.partition(x, 2): p[2] == 3
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`sorting::partition`].
    pub fn partition(&self, kth: &[isize], axis: Option<isize>) -> Result<Array> {
        sorting::partition(self, kth, axis)
    }

    /// `x.argpartition(kth, axis)`; see [`sorting::argpartition`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([3, 4, 2, 1])?;
    /// let i = x.argpartition(&[0], Some(-1))?; // x.argpartition(0): i[0] == 3
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`sorting::argpartition`].
    pub fn argpartition(&self, kth: &[isize], axis: Option<isize>) -> Result<Array> {
        sorting::argpartition(self, kth, axis)
    }

    /// `x.searchsorted(v, side, sorter)`; see [`sorting::searchsorted`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([1, 2, 3])?;
    /// let v = gpu_array::creation::array([2, 5])?;
    /// let i = x.searchsorted(&v, gpu_array::sorting::Side::Left, None)?; // [1, 3]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`sorting::searchsorted`].
    pub fn searchsorted(&self, v: &Array, side: Side, sorter: Option<&Array>) -> Result<Array> {
        sorting::searchsorted(self, v, side, sorter)
    }

    /// `x.nonzero()`; see [`indexing::nonzero`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[0, 1], [2, 0]])?;
    /// let rc = x.nonzero()?; // x.nonzero(): ([0, 1], [1, 0])
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`indexing::nonzero`].
    pub fn nonzero(&self) -> Result<Vec<Array>> {
        indexing::nonzero(self)
    }

    /// `x.take(indices, axis, mode)`; see [`indexing::take`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// use gpu_array::{creation::array, indexing::TakeMode};
    /// let x = array([10, 20, 30])?;
    /// let t = x.take(&array([2, 0])?, None, TakeMode::Wrap)?; // x.take([2, 0]): [30, 10]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`indexing::take`].
    pub fn take(&self, indices: &Array, axis: Option<isize>, mode: TakeMode) -> Result<Array> {
        indexing::take(self, indices, axis, mode)
    }

    /// `x.put(indices, values, mode)`, writing into `x`; see
    /// [`indexing::put`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// use gpu_array::{creation::array, indexing::TakeMode};
    /// let x = array([10, 20, 30])?;
    /// x.put(&array([0])?, &array([-1])?, TakeMode::Wrap)?; // x.put([0], [-1]): x is [-1, 20, 30]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`indexing::put`].
    pub fn put(&self, indices: &Array, values: &Array, mode: TakeMode) -> Result<()> {
        indexing::put(self, indices, values, mode)
    }

    /// `x.choose(choices, mode)`; see [`indexing::choose`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// use gpu_array::{creation::array, indexing::ClipMode};
    /// let (a, b) = (array([1, 2, 3])?, array([10, 20, 30])?);
    /// let c = array([0, 1, 0])?.choose(&[&a, &b], ClipMode::Raise)?; // [1, 20, 3]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`indexing::choose`].
    pub fn choose(&self, choices: &[&Array], mode: ClipMode) -> Result<Array> {
        indexing::choose(self, choices, mode)
    }

    /// `x.compress(condition, axis)`; see [`indexing::compress`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// use gpu_array::creation::array;
    /// let x = array([[1, 2], [3, 4]])?;
    /// let c = x.compress(&array([false, true])?, Some(0))?; // x.compress([False, True], axis=0): [[3, 4]]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`indexing::compress`].
    pub fn compress(&self, condition: &Array, axis: Option<isize>) -> Result<Array> {
        indexing::compress(condition, self, axis)
    }

    /// `x.diagonal(offset, axis1, axis2)` as a view; see
    /// [`indexing::diagonal`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([[1, 2], [3, 4]])?;
    /// let d = x.diagonal(0, 0, 1)?; // x.diagonal(): [1, 4]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`indexing::diagonal`].
    pub fn diagonal(&self, offset: isize, axis1: isize, axis2: isize) -> Result<Array> {
        indexing::diagonal(self, offset, axis1, axis2)
    }

    /// `x.repeat(repeats, axis)`; see [`crate::manipulation::repeat`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([1, 2])?;
    /// let r = x.repeat(&[2], None)?; // x.repeat(2): [1, 1, 2, 2]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`crate::manipulation::repeat`].
    pub fn repeat(&self, repeats: &[usize], axis: Option<isize>) -> Result<Array> {
        crate::manipulation::repeat(self, repeats, axis)
    }

    /// `x.clip(min, max)`; see [`math::clip`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([-1.0, 0.5, 2.0])?;
    /// let c = x.clip(0.0, 1.0)?; // x.clip(0, 1): [0, 0.5, 1]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`math::clip`].
    pub fn clip<'b>(
        &self,
        a_min: impl Into<Bound<'b>>,
        a_max: impl Into<Bound<'b>>,
    ) -> Result<Array> {
        math::clip(self, a_min.into(), a_max.into())
    }

    /// `x.round(decimals)`; see [`math::around`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([1.25, 2.5])?;
    /// let r = x.round(1)?; // x.round(1): [1.2, 2.5] (half to even)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`math::around`].
    pub fn round(&self, decimals: i32) -> Result<Array> {
        math::around(self, decimals)
    }

    /// `x.conj()`: the complex conjugate (the array's values for real
    /// dtypes); see [`ufunc::conjugate`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([1.0, 2.0])?.astype(gpu_array::DType::Complex128)?;
    /// let c = x.conj()?; // x.conj()
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`ufunc::conjugate`].
    pub fn conj(&self) -> Result<Array> {
        ufunc::conjugate(self)
    }

    /// `x.conjugate()`: as [`Array::conj`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::array([1.0, 2.0])?.astype(gpu_array::DType::Complex128)?;
    /// let c = x.conjugate()?; // x.conjugate()
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`ufunc::conjugate`].
    pub fn conjugate(&self) -> Result<Array> {
        ufunc::conjugate(self)
    }
}
