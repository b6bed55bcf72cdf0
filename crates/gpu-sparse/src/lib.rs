//! gpu-sparse: Cuprum's `cupyx.scipy.sparse`, sparse matrices on the GPU
//! with SciPy's names and semantics, products on cuSPARSE's generic API.
//!
//! What it holds:
//!
//! - the formats: [`CooMatrix`] (triplets), [`CsrMatrix`] and
//!   [`CscMatrix`] (compressed rows and columns; one implementation, the
//!   transposes share their arrays), [`DiaMatrix`] (diagonals),
//!   [`BsrMatrix`] (block sparse rows, SciPy's `bsr_matrix`, which CuPy
//!   lacks; SpMV on cuSPARSE's BSR descriptor), all
//!   [`SpMatrix`] (object safe, so builders take `&dyn SpMatrix`): shape,
//!   nnz, dtype, conversions between every pair, `toarray`;
//! - per format: SciPy's constructors (checked as `check_format` with its
//!   full checks), `from_dense`, `sum_duplicates`, `sort_indices`,
//!   `eliminate_zeros`, `has_canonical_format`, `copy`, `astype`,
//!   `transpose`, `conj`, `h`; host interop with triplets and `sprs`;
//! - products with dense vectors and matrices ([`CsrMatrix::dot`]), the
//!   descriptor, work buffer and preprocessing cached on the matrix;
//! - CSR and CSC arithmetic (`arith`): `+`, `-`, products and quotients
//!   by scalars, `multiply` with sparse and dense operands, `power`,
//!   `maximum`/`minimum`, the comparisons whose result is sparse;
//! - NumPy's zero-preserving ufuncs on the stored values (`elementwise`:
//!   `abs`, `sqrt`, `sin`, `floor`, ...);
//! - reductions (`reduce`): `sum`, `mean`, `max`/`min`, `argmax`/`argmin`,
//!   `diagonal`, `setdiag`, `trace`, `nonzero`, `count_nonzero`;
//! - indexing (`index`): row and column slices, integer and boolean row
//!   and column selection, single elements;
//! - builders (`construct`, SciPy's `_construct.py` and `_extract.py`):
//!   [`eye`], [`identity`], [`diags`], [`spdiags`], [`kron`], [`kronsum`],
//!   [`hstack`], [`vstack`], [`bmat`], [`block_diag`], [`tril`], [`triu`],
//!   [`find`], [`random`], [`rand`], each returning the format SciPy
//!   returns by default (COO but for `eye`/`identity` in CSR, `diags`/
//!   `spdiags` in DIA, `kronsum` in CSR);
//! - [`linalg`]: `scipy.sparse.linalg`: [`linalg::LinearOperator`] and the
//!   iterative solvers ([`linalg::cg`], [`linalg::bicgstab`],
//!   [`linalg::cgs`], [`linalg::gmres`], [`linalg::minres`],
//!   [`linalg::lsqr`], [`linalg::lsmr`]), whose scalars stay on the
//!   device; the eigensolvers [`linalg::eigsh`] (thick-restart Lanczos)
//!   and [`linalg::svds`]; [`linalg::expm_multiply`]; the direct
//!   solvers: [`linalg::spsolve_triangular`] (cuSPARSE's SpSV/SpSM with the
//!   analysis cached on the matrix, so a repeated solve pays only the
//!   solve), [`linalg::spsolve`] and [`linalg::factorized`] (cuSOLVER's
//!   sparse QR on the device), [`linalg::spilu`] (ILU(0), usable as a
//!   preconditioner).
//!
//! | SciPy / CuPy                                   | Cuprum                                             |
//! |------------------------------------------------|----------------------------------------------------|
//! | `csr_matrix((data, indices, indptr), shape)`   | [`CsrMatrix::new`]`(&data, &indices, &indptr, shape)?` |
//! | `coo_matrix((data, (row, col)), shape)`        | [`CooMatrix::new`]`(&data, &row, &col, Some(shape))?` |
//! | `csr_matrix(dense)`                            | [`CsrMatrix::from_dense`]`(&dense)?`                |
//! | `A.tocsc()`, `A.toarray()`, `A.T`              | `a.tocsc()?`, `a.toarray()?`, `a.transpose()`      |
//! | `A @ x`, `A.dot(B)`                            | `a.dot(&x)?`                                       |
//! | `x @ A` (dense `x`)                            | `a.rdot(&x)?`                                      |
//! | `sparse.eye(3, 4, k=1)`                        | [`eye`]`(3, 4, 1, DType::Float64)?`                |
//! | `dia_matrix((data, offsets), shape)`           | [`DiaMatrix::new`]`(&data, &offsets, shape)?`      |
//! | `sparse.diags([a, b], [0, 1], shape=(3, 3))`   | [`diags`]`(&[&a, &b], &[0, 1], Some((3, 3)), None)?` |
//! | `sparse.spdiags(data, [0, -1], 4, 4)`          | [`spdiags`]`(&data, &[0, -1], 4, 4)?`              |
//! | `sparse.kron(A, B)`, `sparse.kronsum(A, B)`    | [`kron`]`(&a, &b)?`, [`kronsum`]`(&a, &b)?`        |
//! | `sparse.hstack([A, B])`, `sparse.vstack(..)`   | [`hstack`]`(&[&a, &b], None)?`, [`vstack`]         |
//! | `sparse.bmat([[A, None], [None, B]])`          | [`bmat`]`(&[[Some(&a as &dyn SpMatrix), None], [None, Some(&b)]], None)?` |
//! | `sparse.block_diag([A, B])`                    | [`block_diag`]`(&[&a, &b], None)?`                 |
//! | `sparse.tril(A, k)`, `sparse.triu(A, k)`       | [`tril`]`(&a, k)?`, [`triu`]`(&a, k)?`             |
//! | `i, j, v = sparse.find(A)`                     | `let (i, j, v) = `[`find`]`(&a)?;`                 |
//! | `sparse.random(m, n, 0.1, dtype=f, random_state=1)` | [`random`]`(m, n, 0.1, DType::Float32, 1)?`   |
//! | `scipy.sparse.csr_matrix(A.get())`             | [`CsrMatrix::to_sprs`] / [`CsrMatrix::from_sprs`]   |
//! | `A + B`, `A - B`, `-A`                         | `a.add(&b)?`, `a.sub(&b)?`, `a.neg()?`             |
//! | `A * 2.5`, `A / 4`                             | `a.mul_scalar(2.5)?`, `a.div_scalar(4)?`           |
//! | `A.multiply(B)`, `A.multiply(dense)`           | `a.multiply(&b)?`, `a.multiply_dense(&d)?`         |
//! | `A.power(2)`, `A.maximum(B)`, `np.sqrt(A)`     | `a.power(2)?`, `a.maximum(&b)?`, `a.sqrt()?`       |
//! | `A != B`, `A < B`, `A > 0`                     | `a.ne(&b)?`, `a.lt(&b)?`, `a.gt_scalar(0)?`        |
//! | `A.sum()`, `A.sum(axis=0)`, `A.mean(axis=1)`   | `a.sum(None)?` (0-d), `a.sum(Some(0))?` (1-D), `a.mean(Some(1))?` |
//! | `A.max()`, `A.min(axis=1)`, `A.argmax()`       | `a.max(None)?`, `a.min(Some(1))?`, `a.argmax()?`   |
//! | `A.argmax(axis=0)`, `A.argmin(axis=1, explicit=True)` | `a.argmax_with(&ArgOptions::default().axis(0))?`, `a.argmin_with(&ArgOptions::default().axis(1).explicit(true))?` |
//! | `A.diagonal(k)`, `A.setdiag(v, k)`, `A.trace()` | `a.diagonal(k)?`, `a.setdiag(&v, k)?`, `a.trace(0)?` |
//! | `A.nonzero()`, `A.count_nonzero()`             | `a.nonzero()?`, `a.count_nonzero()?`               |
//! | `A[1:5]`, `A[::2]`, `A[:, 2:4]`                | `a.get_rows(1..5)?`, `a.row_slice(0..m, 2)?`, `a.get_cols(2..4)?` |
//! | `A[[3, 0, -1]]`, `A[:, idx]`, `A[mask]`        | `a.take_rows(&idx)?`, `a.take_cols(&idx)?`, `a.mask_rows(&mask)?` |
//! | `A[i, j]`                                      | `a.get(i, j)?` (0-d)                               |
//! | `bsr_matrix(dense, blocksize=(2, 2))`, `A.tobsr((2, 2))` | [`BsrMatrix::from_dense`]`(&d, (2, 2))?`, `a.tobsr((2, 2))?` |
//! | `spsolve_triangular(L, b, lower=True)`         | [`linalg::spsolve_triangular`]`(&l, &b, true, false)?` |
//! | `spsolve(A, b)`, `factorized(A)(b)`            | [`linalg::spsolve`]`(&a, &b)?`, [`linalg::factorized`]`(&a)?(&b)?` |
//! | `lsmr(A, b, damp=0.5)`                         | [`linalg::lsmr`]`(&a, &b, &LsmrOptions { damp: 0.5, ..Default::default() })?` |
//! | `w, v = eigsh(A, k=4, which='SA')`             | `let (w, v) = `[`linalg::eigsh`]`(&a, 4, Which::SA, &EigshOptions::default())?;` |
//! | `u, s, vt = svds(A, k=3)`                      | `let r = `[`linalg::svds`]`(&a, 3, &SvdsOptions::default())?;` (`r.u`, `r.s`, `r.vt`) |
//! | `expm_multiply(t * A, B)`                      | [`linalg::expm_multiply`]`(&a, &b, t)?`          |
//! | `M = spilu(A); cg(A, b, M=M)`                  | `let m = `[`linalg::spilu`]`(&a, None, None)?;` then `SolveOptions { m: Some(&m), .. }` |
//!
//! Index dtypes follow SciPy's `get_index_dtype`: int32 while every index
//! and the entry count fit, int64 beyond; cuSPARSE takes both.
//!
//! Index arithmetic runs on the device as array operations
//! (`canonical`): entries sort by one stable radix argsort of
//! `row * cols + col`, and duplicates add in storage order, one thread a
//! run, so sums are the same on every run. Checks that must read the
//! device (index bounds at construction, whether indices are sorted) read
//! back one or two scalars.
//!
//! Sums are deterministic everywhere: `+`/`-` of matrices concatenate the
//! entry lists and sum runs of equal positions in storage order; line
//! sums add each line in storage order, one thread a line. Operations
//! SciPy answers with a nearly dense matrix and a warning (`A == B`,
//! `A < 1`) return [`gpu_array::Error::Unsupported`].
//!
//! Products of CSR matrices use cuSPARSE's deterministic algorithms
//! (`CSR_ALG2` for SpMV and SpMM); CSC products take cuSPARSE's default,
//! a transposed traversal whose float sums may differ in the last bits
//! from run to run.
#![deny(unsafe_code)]

mod align;
mod arith;
mod base;
mod bsr;
mod canonical;
mod compressed;
mod construct;
mod coo;
mod cusolver_sp;
mod cusparse;
mod dia;
mod elementwise;
mod host;
mod index;
mod kernels;
pub mod linalg;
mod products;
mod raw;
mod reduce;

#[cfg(test)]
mod nvrtc_tests;

pub use base::{
    Format, SpMatrix, index_dtype, issparse, isspmatrix, isspmatrix_bsr, isspmatrix_coo,
    isspmatrix_csc, isspmatrix_csr, isspmatrix_dia,
};
pub use bsr::BsrMatrix;
pub use compressed::{CscMatrix, CsrMatrix};
pub use construct::{
    block_diag, bmat, diags, eye, find, hstack, identity, kron, kronsum, rand, random, spdiags,
    tril, triu, vstack,
};
pub use coo::CooMatrix;
pub use dia::DiaMatrix;
pub use reduce::ArgOptions;
