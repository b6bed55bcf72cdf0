//! Sparse matrices: `cupyx.scipy.sparse` is [`crate::sparse`] (gpu-sparse).
//!
//! | CuPy / SciPy                                        | Cuprum                                                   |
//! |-----------------------------------------------------|----------------------------------------------------------|
//! | `sp.csr_matrix((data, indices, indptr), shape)`     | `sparse::CsrMatrix::new(&data, &indices, &indptr, shape)?` |
//! | `sp.coo_matrix((v, (i, j)), shape=(m, n))`          | `sparse::CooMatrix::new(&v, &i, &j, Some((m, n)))?`       |
//! | `sp.csr_matrix(dense)`, `A.toarray()`               | `sparse::CsrMatrix::from_dense(&dense)?`, `a.toarray()?`  |
//! | `A.tocsc()`, `A.T`, `A.H`                           | `a.tocsc()?`, `a.transpose()`, `a.h()?`                   |
//! | `A @ x`, `A @ B` (sparse `B`)                       | `a.dot(&x)?`, `a.matmul_sparse(&b)?`                      |
//! | `A + B`, `A * 2`, `A.multiply(B)`                   | `a.add(&b)?`, `a.mul_scalar(2)?`, `a.multiply(&b)?`       |
//! | `A.sum(axis=0)`, `A.max()`, `A.diagonal()`          | `a.sum(Some(0))?`, `a.max(None)?`, `a.diagonal(0)?`       |
//! | `A[rows]`, `A[2:10]`                                | `a.take_rows(&rows)?`, `a.get_rows(2..10)?`               |
//! | `sp.eye(n)`, `sp.diags(..)`, `sp.kron(A, B)`        | `sparse::eye(n, n, 0, DType::Float64)?`, `sparse::diags(..)?`, `sparse::kron(&a, &b)?` |
//! | `sp.hstack([A, B])`, `sp.random(m, n, 0.01)`        | `sparse::hstack(&[&a, &b], None)?`, `sparse::random(m, n, 0.01, DType::Float64, seed)?` |
//! | `spla.cg(A, b)`, `spla.lsqr(A, b)`, `spla.norm(A)`  | `linalg::cg(&a, &b, &SolveOptions::default())?`, `linalg::lsqr(..)?`, `linalg::norm(&a, None, None)?` |
//! | `scipy.sparse.csr_matrix(A.get())`                  | `a.to_sprs::<f64>()?` (the `sprs` crate), `CsrMatrix::from_sprs(&m)?` |
//!
//! Index arrays are int32 while the matrix allows (int64 beyond), as
//! SciPy's. A product's cuSPARSE descriptor, work buffer and preprocessing
//! are kept on the matrix, so the second `a.dot(&x)` on a stream costs only
//! the kernels. The iterative solvers keep their scalars on the device and
//! read the residual every `check_every` iterations (10 by default; 1 is
//! SciPy's and CuPy's behaviour, a host synchronisation an iteration).
//! Bad input is SciPy's `ValueError` in SciPy's words (`"dimension
//! mismatch"`, `"column index values must be < 5"`).
//! `crates/cuprum/examples/14_sparse.rs` runs these steps and checks them.
//!
//! ```no_run
//! use cuprum::{self as cp, DType, sparse};
//! use cuprum::sparse::SpMatrix; // tocsr, toarray, ... on every format
//! use cuprum::sparse::linalg::{SolveOptions, cg};
//!
//! fn main() -> cp::Result<()> {
//!     // The 1-D Laplacian, tridiagonal, from its diagonals.
//!     let n = 1000;
//!     let main = cp::full([n], 2.0, None)?;
//!     let off = cp::full([n - 1], -1.0, None)?;
//!     let a = sparse::diags(&[&off, &main, &off], &[-1, 0, 1], Some((n, n)), None)?.tocsr()?;
//!     let b = cp::ones([n], DType::Float64)?;
//!     let (x, info) = cg(&a, &b, &SolveOptions { rtol: 1e-10, ..SolveOptions::default() })?;
//!     assert_eq!(info, 0);
//!     println!("{}", a.dot(&x)?); // b, to the tolerance
//!     Ok(())
//! }
//! ```
