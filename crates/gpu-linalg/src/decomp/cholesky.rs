//! `linalg.cholesky` on `potrf`.

use gpu_array::Array;
use gpu_array::creation::{tril, triu};

use crate::error::{Error, Result};
use crate::errstate::DevInfo;
use crate::raw::solver::{potrf, potrf_batched};
use crate::util::{assert_stacked_square, batch_count, fresh, linalg_dtype, nth, pointer_array};

/// Stacks of at least two matrices of at most this size go through
/// `potrfBatched` (one launch); larger ones one `potrf` call each.
const SMALL_BATCHED: usize = 64;

/// NumPy 2's `linalg.cholesky(a, upper=...)`: the lower-triangular `L`
/// with `A = L L^H` of each Hermitian positive-definite matrix (only the
/// lower triangle of `A` is read), or with `upper` the upper-triangular
/// `U = L^H` with `A = U^H U` (only the upper triangle is read, as
/// LAPACK's `potrf('U')` under NumPy's `upper=True`); the other triangle
/// of the result is zero.
///
/// The C-ordered copy of `A` is `A^T = conj(A)` in column-major. Its upper
/// Cholesky factor `U'` (`conj(A) = U'^H U'`, reading column-major's upper
/// triangle, which is `A`'s lower one) read back in C order is `U'^T`,
/// which is `L`. Its lower factor `L'` (`conj(A) = L' L'^H`, reading `A`'s
/// upper triangle) read back in C order is `L'^T`, and `A = conj(L')
/// L'^T = (L'^T)^H L'^T`: the buffer is `U` with no transpose or
/// conjugation.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let l = cholesky(&a, false)?; // lower: a = l @ l.T
/// # Ok(()) }
/// ```
///
/// # Errors
/// Not square or not stacked; float16; under
/// [`LinAlgErrors::Raise`](crate::LinAlgErrors::Raise) "Matrix is not
/// positive definite".
pub fn cholesky(a: &Array, upper: bool) -> Result<Array> {
    assert_stacked_square(a)?;
    let dt = linalg_dtype(a.dtype())?;
    let n = a.shape()[a.ndim() - 1];
    let buf = fresh(a, dt)?;
    if buf.size() == 0 {
        return Ok(buf);
    }
    let stream = buf.stream();
    let batch = batch_count(a.shape());
    let info = DevInfo::new(a.device(), batch)?;
    // Column-major fill mode: upper for NumPy's lower factor, and back.
    let fill_upper = !upper;
    let keep = |x: &Array| -> Result<Array> { Ok(if upper { triu(x, 0)? } else { tril(x, 0)? }) };
    if batch >= 2 && n <= SMALL_BATCHED {
        // One launch for the stack, as CuPy does.
        let ptrs = pointer_array(&buf, n * n, batch)?;
        potrf_batched(
            &stream,
            dt,
            fill_upper,
            n as i64,
            (ptrs.data_ptr(), n as i64),
            info.ptr(0),
            batch as i64,
        )?;
        info.check(|order| Error::NotPositiveDefinite { order })?;
        return keep(&buf);
    }
    for i in 0..batch {
        potrf(
            &stream,
            dt,
            fill_upper,
            n as i64,
            nth(buf.data_ptr(), i, n * n, dt.itemsize()),
            n as i64,
            info.ptr(i),
        )?;
    }
    info.check(|order| Error::NotPositiveDefinite { order })?;
    keep(&buf)
}
