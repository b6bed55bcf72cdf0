//! SciPy's `eye` and `identity`: ones on one diagonal, built straight
//! into CSR.

use gpu_array::{DType, Result, creation, ufunc};

use crate::CsrMatrix;
use crate::base::{check_shape, check_value_dtype, index_dtype_for};

/// SciPy's `eye(m, n, k, dtype)` in CSR: ones on the `k`-th diagonal
/// (`k > 0` above the main one, `k < 0` below) of an `m x n` matrix.
///
/// ```no_run
/// use gpu_sparse::SpMatrix;
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::eye(3, 4, 1, gpu_array::DType::Float64)?; // (0,1), (1,2), (2,3)
/// assert_eq!(a.nnz(), 3);
/// # Ok(()) }
/// ```
///
/// # Errors
/// A shape too large for 64-bit indices, an unsupported dtype.
pub fn eye(m: usize, n: usize, k: isize, dtype: DType) -> Result<CsrMatrix> {
    check_shape((m, n))?;
    check_value_dtype(dtype)?;
    // Row r holds column r + k when 0 <= r + k < n.
    let k = k as i64;
    let (m64, n64) = (m as i64, n as i64);
    let first = (-k).clamp(0, m64);
    let last = (n64 - k).clamp(0, m64).max(first);
    let len = (last - first) as usize;
    let index = index_dtype_for((m, n), len);
    let rows = creation::arange_with(first, last, 1i64, Some(DType::Int64))?;
    let cols = ufunc::add(&rows, k)?.astype(index)?;
    let data = creation::ones(len, dtype)?;
    // indptr[r] = clamp(r - first, 0, len).
    let r = creation::arange_with(0i64, m64 + 1, 1i64, Some(DType::Int64))?;
    let indptr = gpu_array::math::clip(
        &ufunc::subtract(&r, first)?,
        0i64.into(),
        (len as i64).into(),
    )?
    .astype(index)?;
    Ok(CsrMatrix::from_parts(data, cols, indptr, (m, n), true))
}

/// SciPy's `identity(n, dtype)`: the `n x n` identity in CSR.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let i = gpu_sparse::identity(5, gpu_array::DType::Float32)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`eye`].
pub fn identity(n: usize, dtype: DType) -> Result<CsrMatrix> {
    eye(n, n, 0, dtype)
}
