//! `linalg.cholesky` on `potrf`.

use gpu_array::Array;
use gpu_array::creation::tril;

use crate::error::Result;
use crate::errstate::DevInfo;
use crate::raw::solver::{potrf, potrf_batched};
use crate::util::{assert_stacked_square, batch_count, fresh, linalg_dtype, nth, pointer_array};

/// Stacks of at least two matrices of at most this size go through
/// `potrfBatched` (one launch); larger ones one `potrf` call each.
const SMALL_BATCHED: usize = 64;

/// NumPy's `linalg.cholesky`: the lower-triangular `L` with `A = L L^H`
/// of each Hermitian positive-definite matrix (only the lower triangle of
/// `A` is read); the strict upper triangle of `L` is zero.
///
/// The C-ordered copy of `A` is `A^T = conj(A)` in column-major; its upper
/// Cholesky factor `U` (`conj(A) = U^H U`) read back in C order is `U^T`,
/// which is `L`.
///
/// # Errors
/// Not square or not stacked; float16; under
/// [`LinAlgErrors::Raise`](crate::LinAlgErrors::Raise) "Matrix is not
/// positive definite".
pub fn cholesky(a: &Array) -> Result<Array> {
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
    if batch >= 2 && n <= SMALL_BATCHED {
        // One launch for the stack, as CuPy does.
        let ptrs = pointer_array(&buf, n * n, batch)?;
        potrf_batched(
            &stream,
            dt,
            true,
            n as i64,
            (ptrs.data_ptr(), n as i64),
            info.ptr(0),
            batch as i64,
        )?;
        info.check(|_| "Matrix is not positive definite".into())?;
        return Ok(tril(&buf, 0)?);
    }
    for i in 0..batch {
        potrf(
            &stream,
            dt,
            true,
            n as i64,
            nth(buf.data_ptr(), i, n * n, dt.itemsize()),
            n as i64,
            info.ptr(i),
        )?;
    }
    info.check(|_| "Matrix is not positive definite".into())?;
    Ok(tril(&buf, 0)?)
}
