//! SciPy's `kron` and `kronsum`: Kronecker products and sums by index
//! arithmetic on the triplets.

use gpu_array::{Array, DType, Error, Result, creation, ufunc};

use super::{Piece, assemble, checked_product, upcast};
use crate::base::{check_shape, index_dtype_for};
use crate::{CooMatrix, CsrMatrix, SpMatrix, eye};

/// SciPy's `kron(A, B)`: the Kronecker product, in COO. For `A` of shape
/// `(m, n)` and `B` of `(p, q)`, each stored `a_ij` and `b_kl` give the
/// entry `a_ij * b_kl` at `(i * p + k, j * q + l)`; the result has shape
/// `(m * p, n * q)` and one entry per pair of COO entries, ordered by
/// `A`'s entry then `B`'s (SciPy's COO path; SciPy returns BSR when `B` is dense
/// enough, the same values). The values in the promoted dtype.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_sparse::{SpMatrix, eye, kron};
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::CooMatrix::from_triplets(&[0, 1], &[1, 0], &[2.0f64, 3.0], (2, 2))?;
/// let k = kron(&a, &eye(2, 3, 0, DType::Float64)?)?; // 4 x 6, 4 entries
/// assert_eq!((k.shape(), k.nnz()), ((4, 6), 4));
/// # Ok(()) }
/// ```
///
/// # Errors
/// A shape or entry count whose product overflows; launch failures.
pub fn kron(a: &dyn SpMatrix, b: &dyn SpMatrix) -> Result<CooMatrix> {
    let ((m, n), (p, q)) = (a.shape(), b.shape());
    let shape = (
        checked_product(m, p, "kron: shape")?,
        checked_product(n, q, "kron: shape")?,
    );
    check_shape(shape)?;
    let dtype = gpu_array::dtype::promote_types(a.dtype(), b.dtype());
    // The triplets' counts, not `nnz()`: a DIA matrix counts stored zeros
    // that its COO form leaves out.
    let (a, b) = (a.tocoo()?, b.tocoo()?);
    let nnz = checked_product(a.nnz(), b.nnz(), "kron: entry count")?;
    let index = index_dtype_for(shape, nnz);
    if nnz == 0 {
        let none = creation::zeros(0, index)?;
        return Ok(CooMatrix::from_parts(
            creation::zeros(0, dtype)?,
            none.clone(),
            none,
            shape,
            true,
        ));
    }
    // An (A.nnz, 1) column against a (1, B.nnz) row: every pair at once.
    let column = |x: &Array| -> Result<Array> { x.reshape([-1isize, 1]) };
    let line = |x: &Array| -> Result<Array> { x.reshape([1isize, -1]) };
    let wide = |x: &Array| x.astype(DType::Int64);
    let place = |ai: &Array, bi: &Array, step: usize| -> Result<Array> {
        let blocks = ufunc::multiply(&column(&wide(ai)?)?, step as i64)?;
        ufunc::add(&blocks, &line(&wide(bi)?)?)?
            .ravel()?
            .astype(index)
    };
    let row = place(a.row(), b.row(), p)?;
    let col = place(a.col(), b.col(), q)?;
    let data = ufunc::multiply(&column(a.data())?, &line(b.data())?)?
        .ravel()?
        .astype(dtype)?;
    Ok(CooMatrix::from_parts(data, row, col, shape, false))
}

/// SciPy's `kronsum(A, B)`: the Kronecker sum `kron(I_n, A) + kron(B,
/// I_m)` of a square `A` (`m x m`) and a square `B` (`n x n`), in CSR
/// (the format of SciPy's sum), duplicates summed and the zeros of the
/// sum removed, as SciPy's sparse addition does. The values in the
/// promoted dtype.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_sparse::{SpMatrix, eye, kronsum};
/// # fn main() -> gpu_array::Result<()> {
/// let s = kronsum(&eye(2, 2, 0, DType::Float64)?, &eye(3, 3, 1, DType::Float64)?)?;
/// assert_eq!(s.shape(), (6, 6));
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's "A is not square", "B is not square"; a shape whose product
/// overflows; an unsupported dtype.
pub fn kronsum(a: &dyn SpMatrix, b: &dyn SpMatrix) -> Result<CsrMatrix> {
    let ((m, ma), (n, nb)) = (a.shape(), b.shape());
    if m != ma {
        return Err(Error::Value("A is not square".into()));
    }
    if n != nb {
        return Err(Error::Value("B is not square".into()));
    }
    let dtype = upcast([a.dtype(), b.dtype()]).unwrap_or(DType::Float64);
    let left = kron(&eye(n, n, 0, dtype)?, a)?;
    let right = kron(b, &eye(m, m, 0, dtype)?)?;
    let side = checked_product(m, n, "kronsum: shape")?;
    let sum = assemble(
        &[
            Piece {
                coo: left,
                row_offset: 0,
                col_offset: 0,
            },
            Piece {
                coo: right,
                row_offset: 0,
                col_offset: 0,
            },
        ],
        (side, side),
        dtype,
    )?;
    let mut csr = sum.tocsr()?;
    csr.eliminate_zeros()?;
    Ok(csr)
}
