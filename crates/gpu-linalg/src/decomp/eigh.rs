//! `linalg.eigh` and `eigvalsh` on `syevd`/`heevd`.

use gpu_array::{Array, Order, ufunc};

use crate::error::{Error, Result};
use crate::errstate::DevInfo;
use crate::raw::solver::{syevd, syevj_batched};

/// Stacks of at least two matrices of at most this size (syevjBatched's
/// limit) go through Jacobi sweeps in one launch.
const SMALL_BATCHED: usize = 32;
use crate::util::{assert_stacked_square, batch_count, fresh, linalg_dtype, nth};

/// Which triangle of a Hermitian matrix is read (NumPy's `UPLO`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Uplo {
    /// The lower triangle (`'L'`, NumPy's default).
    #[default]
    L,
    /// The upper triangle (`'U'`).
    U,
}

gpu_array::from_numpy_str! {
    Uplo, crate::Error,
    key: |s| s.to_ascii_uppercase(),
    else: |_s| crate::error::value("UPLO argument must be 'L' or 'U'"),
    { "L" => Uplo::L, "U" => Uplo::U }
}

/// Eigenvalues into a new `(..., n)` array, and eigenvectors (with
/// `vectors`) in the returned C buffer, which holds each matrix's
/// eigenvectors of `A^T` column-major.
fn run(a: &Array, uplo: Uplo, vectors: bool) -> Result<(Array, Array)> {
    assert_stacked_square(a)?;
    let dt = linalg_dtype(a.dtype())?;
    let n = a.shape()[a.ndim() - 1];
    let buf = fresh(a, dt)?;
    let wshape = &a.shape()[..a.ndim() - 1];
    let w = Array::empty_on(a.device(), wshape, dt.real_dtype(), Order::C)?;
    if buf.size() == 0 {
        return Ok((w, buf));
    }
    let batch = batch_count(a.shape());
    let info = DevInfo::new(a.device(), batch)?;
    let stream = buf.stream();
    // The C buffer is A^T column-major: A's lower triangle is its upper.
    let upper = uplo == Uplo::L;
    if batch >= 2 && n <= SMALL_BATCHED {
        // Jacobi sweeps over the whole stack in one launch (CuPy's choice
        // for stacks), for the sizes syevjBatched takes.
        syevj_batched(
            &stream,
            dt,
            vectors,
            upper,
            n as i64,
            buf.data_ptr(),
            w.data_ptr(),
            info.ptr(0),
            batch as i64,
        )?;
        info.check(|count| Error::NoConvergence {
            what: "Eigenvalues",
            count,
        })?;
        return Ok((w, buf));
    }
    for i in 0..batch {
        syevd(
            &stream,
            dt,
            vectors,
            upper,
            n as i64,
            nth(buf.data_ptr(), i, n * n, dt.itemsize()),
            n as i64,
            nth(w.data_ptr(), i, n, dt.real_dtype().itemsize()),
            info.ptr(i),
        )?;
    }
    info.check(|count| Error::NoConvergence {
        what: "Eigenvalues",
        count,
    })?;
    Ok((w, buf))
}

/// NumPy's `linalg.eigh`: eigenvalues in ascending order and the
/// orthonormal eigenvectors (columns) of each Hermitian matrix, of which
/// the `uplo` triangle is read.
///
/// The C buffer is `A^T = conj(A)` column-major; its eigenvectors `V` are
/// the conjugates of `A`'s, so `A`'s are `conj(V)`.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let (w, v) = eigh(&a, Uplo::L)?; // ascending eigenvalues, eigenvectors in columns
/// # Ok(()) }
/// ```
///
/// # Errors
/// Not square; float16; "Eigenvalues did not converge" under the raise
/// setting.
pub fn eigh(a: &Array, uplo: Uplo) -> Result<(Array, Array)> {
    let (w, buf) = run(a, uplo, true)?;
    let v = buf.swapaxes(-1, -2)?;
    let v = if v.dtype().is_complex() {
        ufunc::conj(&v)?
    } else {
        v
    };
    Ok((w, v))
}

/// NumPy's `linalg.eigvalsh`: the eigenvalues of [`eigh`] only.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let w = eigvalsh(&a, Uplo::L)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`eigh`].
pub fn eigvalsh(a: &Array, uplo: Uplo) -> Result<Array> {
    Ok(run(a, uplo, false)?.0)
}
