//! SciPy's `tril`, `triu` and `find` (its `_extract.py`): parts of a
//! matrix picked by masks over its triplets.

use gpu_array::indexing::{TakeMode, nonzero, take};
use gpu_array::{Array, DType, Result, ufunc};

use crate::{CooMatrix, SpMatrix};

/// The entries of `coo` where `mask` (over its entries) holds, in their
/// order; canonical when `coo` was (a subset keeps the order).
fn masked(coo: &CooMatrix, mask: &Array) -> Result<CooMatrix> {
    let keep = nonzero(mask)?.remove(0);
    let pick = |x: &Array| take(x, &keep, Some(0), TakeMode::Wrap);
    Ok(CooMatrix::from_parts(
        pick(coo.data())?,
        pick(coo.row())?,
        pick(coo.col())?,
        coo.shape(),
        coo.has_canonical_format(),
    ))
}

/// `row + k - col` for every entry of `coo`, in int64.
fn distance(coo: &CooMatrix, k: isize) -> Result<Array> {
    let row = coo.row().astype(DType::Int64)?;
    let col = coo.col().astype(DType::Int64)?;
    ufunc::subtract(&ufunc::add(&row, k as i64)?, &col)
}

/// SciPy's `tril(A, k)`: the entries on and below diagonal `k`
/// (`row + k >= col`), in COO, in `A`'s entry order, duplicates and
/// explicit zeros kept as stored.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_sparse::{SpMatrix, tril};
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::CsrMatrix::from_dense(&gpu_array::creation::ones([3, 3], DType::Float64)?)?;
/// assert_eq!(tril(&a, 0)?.nnz(), 6);
/// assert_eq!(tril(&a, -1)?.nnz(), 3);
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or launch failures.
pub fn tril(a: &dyn SpMatrix, k: isize) -> Result<CooMatrix> {
    let coo = a.tocoo()?;
    let mask = ufunc::greater_equal(&distance(&coo, k)?, 0i64)?;
    masked(&coo, &mask)
}

/// SciPy's `triu(A, k)`: the entries on and above diagonal `k`
/// (`row + k <= col`), in COO, in `A`'s entry order.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_sparse::{SpMatrix, triu};
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::CsrMatrix::from_dense(&gpu_array::creation::ones([3, 4], DType::Float64)?)?;
/// assert_eq!(triu(&a, 1)?.nnz(), 6);
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or launch failures.
pub fn triu(a: &dyn SpMatrix, k: isize) -> Result<CooMatrix> {
    let coo = a.tocoo()?;
    let mask = ufunc::less_equal(&distance(&coo, k)?, 0i64)?;
    masked(&coo, &mask)
}

/// SciPy's `find(A)`: the `(row, col, values)` of `A`'s nonzero entries
/// after summing duplicates, sorted by row then column; the indices in
/// `A`'s index dtype.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::CooMatrix::from_triplets(&[1, 0, 1], &[0, 2, 0], &[1.0f64, 0.0, 2.0], (2, 3))?;
/// let (i, j, v) = gpu_sparse::find(&a)?; // [1], [0], [3.0]: the zero left out
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or launch failures.
pub fn find(a: &dyn SpMatrix) -> Result<(Array, Array, Array)> {
    let mut coo = a.tocoo()?;
    // The sum replaces the arrays; `a`'s own are never written.
    coo.sum_duplicates()?;
    let keep = nonzero(coo.data())?.remove(0);
    let pick = |x: &Array| take(x, &keep, Some(0), TakeMode::Wrap);
    Ok((pick(coo.row())?, pick(coo.col())?, pick(coo.data())?))
}
