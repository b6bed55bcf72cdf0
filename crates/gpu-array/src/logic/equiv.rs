//! `array_equiv`: equality of two arrays up to broadcasting.

use crate::array::Array;
use crate::error::Result;
use crate::layout;
use crate::logic::all;
use crate::reduction::ReduceOptions;

/// Whether `a1` and `a2` broadcast together and are equal elementwise
/// (NumPy's `array_equiv`): shapes that do not broadcast give `false`,
/// an empty broadcast gives `true`. Waits for the device.
///
/// ```no_run
/// use gpu_array::{creation::array, logic::*};
/// # fn main() -> gpu_array::Result<()> {
/// assert!(array_equiv(&array([1, 2])?, &array([[1, 2], [1, 2]])?)?);
/// # Ok(()) }
/// ```
///
/// # Errors
/// Devices differ; a launch failed.
pub fn array_equiv(a1: &Array, a2: &Array) -> Result<bool> {
    let Ok(shape) = layout::broadcast_shapes(&[a1.shape(), a2.shape()]) else {
        return Ok(false);
    };
    a1.check_same_device(a2, "array_equiv")?;
    if layout::size(&shape)? == 0 {
        return Ok(true);
    }
    let eq = crate::ufunc::equal(a1, a2)?;
    all(&eq, ReduceOptions::default())?.item::<bool>(&[])
}
