//! NumPy 2's `numpy.linalg` functions of the array API standard, where
//! their signatures differ from the namespace functions of the same name
//! (`np.linalg.diagonal(x, offset=0)` works on the last two axes where
//! `np.diagonal` takes `axis1`/`axis2`; `np.linalg.outer` takes only
//! vectors; `np.linalg.cross` only 3-vectors). The others that map onto
//! existing routines are re-exported here too, so `array_api::*` is the
//! whole NumPy 2 `linalg` additions list.
//!
//! | NumPy 2                                     | Cuprum                                          |
//! |---------------------------------------------|-------------------------------------------------|
//! | `np.linalg.diagonal(x, offset=1)`           | [`diagonal`]`(&x, 1)?` (a view)                 |
//! | `np.linalg.outer(x1, x2)`                   | [`outer`]`(&x1, &x2)?`                          |
//! | `np.linalg.trace(x, offset=0, dtype=None)`  | [`trace`]`(&x, 0, None)?`                       |
//! | `np.linalg.cross(x1, x2, axis=-1)`          | [`cross`]`(&x1, &x2, -1)?`                      |
//! | `np.linalg.matrix_transpose(x)`             | [`matrix_transpose`]`(&x)?` (a view)            |
//! | `np.linalg.vecdot(x1, x2, axis=-1)`         | [`vecdot`]`(&x1, &x2, -1)?`                     |
//! | `np.linalg.matrix_norm(x, ord='fro')`       | [`matrix_norm`]`(&x, Norm::Default, false)?`    |
//! | `np.linalg.vector_norm(x, axis=None, ord=2)`| [`vector_norm`]`(&x, Norm::Default, None, false)?` |
//! | `np.linalg.svdvals(x)`                      | [`svdvals`]`(&x)?`                              |
//! | `np.linalg.matmul`, `tensordot`             | [`matmul`], [`tensordot`]                       |

use gpu_array::{Array, DType};

use crate::error::{Result, value};

pub use crate::decomp::{matrix_norm, svdvals, vector_norm};
pub use crate::products::{matmul, matrix_transpose, tensordot, vecdot};

/// NumPy 2's `linalg.diagonal(x, offset)`: the diagonals of the matrices
/// over the last two axes, a strided view (no copy).
///
/// ```no_run
/// use gpu_array::creation::*;
/// use gpu_linalg::array_api;
/// # fn main() -> gpu_linalg::Result<()> {
/// let x = arange(8)?.reshape((2, 2, 2))?;
/// let d = array_api::diagonal(&x, 0)?; // np.linalg.diagonal(x): [[0, 3], [4, 7]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Fewer than two dimensions ("diag requires an array of at least two
/// dimensions").
pub fn diagonal(x: &Array, offset: isize) -> Result<Array> {
    crate::products::diagonal(x, offset, -2, -1)
}

/// NumPy 2's `linalg.outer(x1, x2)`: the outer product of two vectors.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let o = outer(&array([1.0, 2.0])?, &array([3.0, 4.0, 5.0])?)?; // (2, 3)
/// # Ok(()) }
/// ```
///
/// # Errors
/// An operand that is not 1-D (NumPy's message).
pub fn outer(x1: &Array, x2: &Array) -> Result<Array> {
    if x1.ndim() != 1 || x2.ndim() != 1 {
        return Err(value(format!(
            "Input arrays must be one-dimensional, but they are x1.ndim={} and x2.ndim={}.",
            x1.ndim(),
            x2.ndim()
        )));
    }
    crate::products::outer(x1, x2)
}

/// NumPy 2's `linalg.trace(x, offset, dtype)`: the sums along the
/// diagonals of the matrices over the last two axes.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let t = gpu_linalg::array_api::trace(&a, 0, None)?; // 7
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`diagonal`].
pub fn trace(x: &Array, offset: isize, dtype: Option<DType>) -> Result<Array> {
    crate::products::trace(x, offset, -2, -1, dtype)
}

/// NumPy 2's `linalg.cross(x1, x2, axis)`: cross products of 3-vectors
/// along `axis` of both operands (the namespace's [`crate::cross`] also
/// takes 2-vectors).
///
/// ```no_run
/// use gpu_array::creation::*;
/// use gpu_linalg::array_api;
/// # fn main() -> gpu_linalg::Result<()> {
/// let (a, b) = (array([0.0, 1.0, 0.0])?, array([0.0, 0.0, 1.0])?);
/// let c = array_api::cross(&a, &b, -1)?; // np.linalg.cross(a, b): [1, 0, 0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// An axis out of range; vectors of another length than 3 (NumPy's
/// message).
pub fn cross(x1: &Array, x2: &Array, axis: isize) -> Result<Array> {
    let len = |x: &Array| -> Result<usize> {
        let nd = x.ndim() as isize;
        let a = if axis < 0 { axis + nd } else { axis };
        if a < 0 || a >= nd {
            return Err(gpu_array::Error::AxisOutOfBounds {
                arg: None,
                axis,
                ndim: x.ndim(),
            });
        }
        Ok(x.shape()[a as usize])
    };
    let (l1, l2) = (len(x1)?, len(x2)?);
    if l1 != 3 || l2 != 3 {
        return Err(value(format!(
            "Both input arrays must be (arrays of) 3-dimensional vectors, but they are {l1} and {l2} dimensional instead."
        )));
    }
    crate::products::cross(x1, x2, axis)
}
