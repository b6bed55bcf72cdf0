//! Builders of sparse matrices, SciPy's `scipy.sparse` functions of
//! `_construct.py` and `_extract.py`: one module per family.
//!
//! - `eye`: [`eye`], [`identity`] (CSR);
//! - `diagonals`: [`diags`], [`spdiags`] (DIA, as SciPy returns them);
//! - `stack`: [`hstack`], [`vstack`], [`bmat`], [`block_diag`] (COO);
//! - `kron`: [`kron`] (COO), [`kronsum`] (CSR);
//! - `extract`: [`tril`], [`triu`] (COO), [`find`] (arrays);
//! - `random`: [`random`], [`rand`] (COO), on gpu-random's generator.
//!
//! Each takes its matrices as `&dyn SpMatrix` and works on their COO
//! triplets: offsets and products of indices are device array
//! operations in int64, cast to the index dtype of the result at the end.
//! Where SciPy picks another format for some inputs (BSR for `kron` of a
//! dense-ish `B`, CSR for a `vstack` of CSR matrices) the values are the
//! same; the format here is the one SciPy returns by default otherwise.

mod diagonals;
mod extract;
mod eye;
mod kron;
mod random;
mod stack;

pub use diagonals::{diags, spdiags};
pub use extract::{find, tril, triu};
pub use eye::{eye, identity};
pub use kron::{kron, kronsum};
pub use random::{rand, random};
pub use stack::{block_diag, bmat, hstack, vstack};

use gpu_array::{Array, DType, Error, Result, creation, manipulation, ufunc};

use crate::CooMatrix;
use crate::base::{check_shape, index_dtype_for};

/// One piece of an assembled matrix: its triplets moved by
/// `(row_offset, col_offset)`.
pub(crate) struct Piece {
    pub coo: CooMatrix,
    pub row_offset: usize,
    pub col_offset: usize,
}

/// The COO matrix of `shape` and `dtype` holding every piece's entries,
/// moved by its offsets, in the order given (duplicates kept, as SciPy's
/// `bmat`). The offsets add in int64; the indices are cast once, to the
/// index dtype of the result.
pub(crate) fn assemble(pieces: &[Piece], shape: (usize, usize), dtype: DType) -> Result<CooMatrix> {
    check_shape(shape)?;
    let nnz = pieces
        .iter()
        .try_fold(0usize, |acc, p| acc.checked_add(p.coo.data().size()))
        .ok_or_else(|| Error::Value("too many entries to assemble".into()))?;
    let index = index_dtype_for(shape, nnz);
    let (mut rows, mut cols, mut data) = (vec![], vec![], vec![]);
    for p in pieces.iter().filter(|p| p.coo.data().size() > 0) {
        rows.push(shifted(p.coo.row(), p.row_offset)?);
        cols.push(shifted(p.coo.col(), p.col_offset)?);
        data.push(p.coo.data().astype(dtype)?);
    }
    let join = |parts: &[Array], dtype: DType| -> Result<Array> {
        match parts {
            [] => creation::zeros(0, dtype),
            [one] => one.astype(dtype),
            _ => {
                manipulation::concatenate(&parts.iter().collect::<Vec<_>>(), Some(0))?.astype(dtype)
            }
        }
    };
    Ok(CooMatrix::from_parts(
        join(&data, dtype)?,
        join(&rows, index)?,
        join(&cols, index)?,
        shape,
        false,
    ))
}

/// `indices + offset` as int64 (the offset fits: construction checked
/// the shape it lies in).
fn shifted(indices: &Array, offset: usize) -> Result<Array> {
    let wide = indices.astype(DType::Int64)?;
    if offset == 0 {
        return Ok(wide);
    }
    ufunc::add(&wide, offset as i64)
}

/// `a * b` for sizes, or SciPy-like "... too large" as [`Error::Value`].
pub(crate) fn checked_product(a: usize, b: usize, what: &str) -> Result<usize> {
    a.checked_mul(b)
        .ok_or_else(|| Error::Value(format!("{what} too large: {a} * {b} overflows")))
}

/// The dtype every value of `dtypes` casts to (SciPy's `upcast`, NumPy's
/// promotion), `None` for no dtype at all.
pub(crate) fn upcast(dtypes: impl IntoIterator<Item = DType>) -> Option<DType> {
    dtypes.into_iter().reduce(gpu_array::dtype::promote_types)
}

#[cfg(test)]
mod tests {
    use super::{checked_product, upcast};
    use gpu_array::DType;

    #[test]
    fn upcast_follows_numpy_promotion() {
        assert_eq!(upcast([]), None);
        assert_eq!(upcast([DType::Int32, DType::Float32]), Some(DType::Float64));
        assert_eq!(
            upcast([DType::Float32, DType::Complex64, DType::Bool]),
            Some(DType::Complex64)
        );
        assert_eq!(upcast([DType::Bool, DType::Int8]), Some(DType::Int8));
    }

    #[test]
    fn products_of_sizes_are_checked() {
        assert_eq!(checked_product(3, 4, "shape").unwrap(), 12);
        let e = checked_product(usize::MAX, 2, "shape").unwrap_err();
        assert!(e.to_string().contains("shape too large"), "{e}");
    }
}
