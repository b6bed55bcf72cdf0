//! Decompositions, solvers, eigenvalues and norms on cuSOLVER (NumPy's
//! "Decompositions", "Matrix eigenvalues", "Norms and other numbers",
//! "Solving equations and inverting matrices").
//!
//! cuSOLVER is column-major and NumPy's arrays are C-ordered. A C-ordered
//! copy of a matrix is its transpose in column-major, and each routine
//! uses that where the transpose is as good (Cholesky and `eigh` of a
//! Hermitian matrix, LU solves with `trans = T`, the SVD of `A^T`); where
//! it is not (QR, a tall SVD), the copy is made from the transposed view,
//! which is the same one pass. Stacked inputs loop over the batch, one
//! call per matrix on the same stream; the results come back as views of
//! the column-major buffers (NumPy's values and shapes, Fortran strides).

mod cholesky;
mod eig;
mod eigh;
mod lstsq;
mod lu;
mod norm;
mod qr;
mod svd;

pub use cholesky::cholesky;
pub use eig::{eig, eigvals};
pub use eigh::{Uplo, eigh, eigvalsh};
pub use lstsq::{Lstsq, PinvParams, RankParams, lstsq, matrix_rank, pinv};
pub use lu::{det, inv, slogdet, solve, tensorinv, tensorsolve};
pub(crate) use lu::{getrf_small_stack, lu_solve_batched, small_lu_stack};
pub use norm::{Norm, NormAxis, cond, matrix_norm, norm, norm_with, svdvals, vector_norm};
pub use qr::{QrMode, QrResult, qr};
pub use svd::{Svd, SvdDriver, SvdParams, svd};
