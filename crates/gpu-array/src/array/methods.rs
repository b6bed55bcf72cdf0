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
    /// # Errors
    /// As [`sorting::argsort`].
    pub fn argsort(&self, axis: Option<isize>) -> Result<Array> {
        sorting::argsort(self, axis)
    }

    /// `x.partition(kth, axis)` as a copy; see [`sorting::partition`].
    ///
    /// # Errors
    /// As [`sorting::partition`].
    pub fn partition(&self, kth: &[isize], axis: Option<isize>) -> Result<Array> {
        sorting::partition(self, kth, axis)
    }

    /// `x.argpartition(kth, axis)`; see [`sorting::argpartition`].
    ///
    /// # Errors
    /// As [`sorting::argpartition`].
    pub fn argpartition(&self, kth: &[isize], axis: Option<isize>) -> Result<Array> {
        sorting::argpartition(self, kth, axis)
    }

    /// `x.searchsorted(v, side, sorter)`; see [`sorting::searchsorted`].
    ///
    /// # Errors
    /// As [`sorting::searchsorted`].
    pub fn searchsorted(&self, v: &Array, side: Side, sorter: Option<&Array>) -> Result<Array> {
        sorting::searchsorted(self, v, side, sorter)
    }

    /// `x.nonzero()`; see [`indexing::nonzero`].
    ///
    /// # Errors
    /// As [`indexing::nonzero`].
    pub fn nonzero(&self) -> Result<Vec<Array>> {
        indexing::nonzero(self)
    }

    /// `x.take(indices, axis, mode)`; see [`indexing::take`].
    ///
    /// # Errors
    /// As [`indexing::take`].
    pub fn take(&self, indices: &Array, axis: Option<isize>, mode: TakeMode) -> Result<Array> {
        indexing::take(self, indices, axis, mode)
    }

    /// `x.put(indices, values, mode)`, writing into `x`; see
    /// [`indexing::put`].
    ///
    /// # Errors
    /// As [`indexing::put`].
    pub fn put(&self, indices: &Array, values: &Array, mode: TakeMode) -> Result<()> {
        indexing::put(self, indices, values, mode)
    }

    /// `x.choose(choices, mode)`; see [`indexing::choose`].
    ///
    /// # Errors
    /// As [`indexing::choose`].
    pub fn choose(&self, choices: &[&Array], mode: ClipMode) -> Result<Array> {
        indexing::choose(self, choices, mode)
    }

    /// `x.compress(condition, axis)`; see [`indexing::compress`].
    ///
    /// # Errors
    /// As [`indexing::compress`].
    pub fn compress(&self, condition: &Array, axis: Option<isize>) -> Result<Array> {
        indexing::compress(condition, self, axis)
    }

    /// `x.diagonal(offset, axis1, axis2)` as a view; see
    /// [`indexing::diagonal`].
    ///
    /// # Errors
    /// As [`indexing::diagonal`].
    pub fn diagonal(&self, offset: isize, axis1: isize, axis2: isize) -> Result<Array> {
        indexing::diagonal(self, offset, axis1, axis2)
    }

    /// `x.repeat(repeats, axis)`; see [`crate::manipulation::repeat`].
    ///
    /// # Errors
    /// As [`crate::manipulation::repeat`].
    pub fn repeat(&self, repeats: &[usize], axis: Option<isize>) -> Result<Array> {
        crate::manipulation::repeat(self, repeats, axis)
    }

    /// `x.clip(min, max)`; see [`math::clip`].
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
    /// # Errors
    /// As [`math::around`].
    pub fn round(&self, decimals: i32) -> Result<Array> {
        math::around(self, decimals)
    }

    /// `x.conj()`: the complex conjugate (the array's values for real
    /// dtypes); see [`ufunc::conjugate`].
    ///
    /// # Errors
    /// As [`ufunc::conjugate`].
    pub fn conj(&self) -> Result<Array> {
        ufunc::conjugate(self)
    }

    /// `x.conjugate()`: as [`Array::conj`].
    ///
    /// # Errors
    /// As [`ufunc::conjugate`].
    pub fn conjugate(&self) -> Result<Array> {
        ufunc::conjugate(self)
    }
}
