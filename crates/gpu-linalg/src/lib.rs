//! gpu-linalg: Cuprum's linear algebra, NumPy's `numpy.linalg` and parts of
//! `scipy.linalg` on the GPU (CuPy's `cupy.linalg`, `cupyx.scipy.linalg`).
//!
//! It sits above `gpu-array` (DESIGN.md, "Layers"): products go to cuBLAS,
//! factorizations to cuSOLVER (both loaded at run time by `gpu-sys`), and
//! what neither does (integer matmul, the determinant's reduction) to the
//! crate's own NVRTC kernels. Handles are per (device, thread), created on
//! first use and bound to the current stream of each call (the private `raw` module
//! holds them with the crate's only `unsafe`).
//!
//! | NumPy / CuPy                          | Cuprum                                             |
//! |---------------------------------------|----------------------------------------------------|
//! | `a @ b`, `np.matmul(a, b, out=c)`     | `a.matmul(&b)?` ([`MatmulExt`]), [`matmul`], [`matmul_into`] |
//! | `np.dot`, `vdot`, `inner`, `outer`    | [`dot`], [`vdot`], [`inner`], [`outer`]            |
//! | `np.tensordot(a, b, axes=2)`          | [`tensordot`]`(&a, &b, Axes::N(2))?`               |
//! | `np.einsum('ij,jk->ik', a, b)`        | [`einsum`]`("ij,jk->ik", &[&a, &b])?`              |
//! | `np.kron`, `np.trace`, `np.cross`     | [`kron`], [`trace`], [`cross`]                     |
//! | `np.linalg.matrix_power(a, n)`        | [`matrix_power`]                                   |
//! | `np.linalg.multi_dot`, `vecdot`, `matrix_transpose` | [`multi_dot`], [`vecdot`], [`matrix_transpose`] |
//! | `np.linalg.diagonal`, `outer`, `trace`, `cross` (array API) | [`array_api`]`::{diagonal, outer, trace, cross}` |
//! | `np.linalg.cholesky(a, upper=True)`   | [`cholesky`]`(&a, true)?`                          |
//! | `np.linalg.qr`, `svd(a, hermitian=True)` | [`qr`], [`svd`] ([`SvdParams`]`{ hermitian: true, .. }`) |
//! | `np.linalg.eigh`, `eigvalsh`          | [`eigh`], [`eigvalsh`]                             |
//! | `np.linalg.eig`, `eigvals`            | [`eig`], [`eigvals`] (complex results, as CuPy)    |
//! | `np.linalg.det`, `slogdet`            | [`det`], [`slogdet`]                               |
//! | `np.linalg.solve`, `inv`, `lstsq`     | [`solve`], [`inv`], [`lstsq`]                      |
//! | `np.linalg.pinv(a, rcond, hermitian, rtol=)` | [`pinv`]`(&a, `[`PinvParams`]`)?`           |
//! | `np.linalg.matrix_rank(A, tol, hermitian, rtol=)` | [`matrix_rank`]`(&a, `[`RankParams`]`)?` |
//! | `np.linalg.norm(x)`, `norm(x, ord, axis, keepdims)` | [`norm`]`(&x)?`, [`norm_with`]                |
//! | `vector_norm`, `matrix_norm`, `svdvals`, `cond` | [`vector_norm`], [`matrix_norm`], [`svdvals`], [`cond`] |
//! | `np.linalg.tensorsolve`, `tensorinv`  | [`tensorsolve`], [`tensorinv`]                     |
//! | `cupyx.errstate(linalg='raise')`      | [`errstate()`]`(LinAlgErrors::Raise, \|\| ...)`      |
//! | `scipy.linalg.solve_triangular`       | [`scipy::solve_triangular`]                        |
//! | `scipy.linalg.lu_factor`, `lu_solve` (stacks too), `lu` | [`scipy::lu_factor`], [`scipy::lu_solve`], [`scipy::lu`] |
//! | `np.roots`, `np.polyfit`, `poly1d.roots` | [`roots`], [`polyfit`], [`Poly1dExt`] ([`polynomial`]) |
//! | `scipy.linalg.toeplitz`, `hankel`, ... | [`scipy::toeplitz`], [`scipy::special`] (circulant, hankel, hadamard, leslie, block_diag, companion, helmert, hilbert, dft, fiedler, fiedler_companion, convolution_matrix) |
//!
//! Dtypes: products take every dtype (integers and bool through the
//! crate's kernel; float16 multiplies in float32 on cuBLAS; TF32 tensor
//! cores for float32 only with `CUPRUM_TF32=1`). Factorizations take
//! float32, float64, complex64 and complex128; integers compute in float64;
//! float16 is refused, as NumPy refuses it. Stacked inputs (`(..., M, N)`)
//! are accepted wherever NumPy accepts them: stacks of small matrices go
//! through the libraries' batched routines in one launch (`getrfBatched`
//! and `getrsBatched` for `solve`/`inv` and SciPy's `lu_factor`/`lu_solve`,
//! `geqrfBatched` plus the crate's batched `orgqr` kernel for `qr`,
//! `potrfBatched`, `syevjBatched`, `gesvdjBatched`), larger ones one call
//! per matrix on the same stream.
//! Factorizations return NumPy's values and shapes, often as views with
//! Fortran strides of the libraries' column-major results (no extra copy).
//!
//! Failures reported in cuSOLVER's `devInfo` are not looked at by default
//! (CuPy's behaviour, which keeps the host from waiting); under
//! [`errstate()`] with [`LinAlgErrors::Raise`] they raise NumPy's
//! `LinAlgError` as typed errors ([`Error::Singular`],
//! [`Error::NotPositiveDefinite`], [`Error::NoConvergence`]; see
//! [`Error::is_linalg_error`]).
#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod array_api;
pub mod decomp;
pub mod error;
pub mod errstate;
pub mod kernels;
pub mod polynomial;
pub mod products;
mod raw;
pub mod scipy;
pub mod util;

pub use decomp::{
    Lstsq, Norm, NormAxis, PinvParams, QrMode, QrResult, RankParams, Svd, SvdDriver, SvdParams,
    Uplo, cholesky, cond, det, eig, eigh, eigvals, eigvalsh, inv, lstsq, matrix_norm, matrix_rank,
    norm, norm_with, pinv, qr, slogdet, solve, svd, svdvals, tensorinv, tensorsolve, vector_norm,
};
pub use error::{Error, Result};
pub use errstate::{LinAlgErrors, errstate, linalg_errors, raise_on_error, set_linalg_errors};
pub use polynomial::{Poly1dExt, PolyCov, Polyfit, PolyfitFull, PolyfitOptions, polyfit, roots};
pub use products::{
    Axes, CrossOptions, MatmulExt, cross, cross_with, diagonal, dot, einsum, inner, kron, matmul,
    matmul_into, matrix_power, matrix_transpose, multi_dot, outer, tensordot, trace, vdot, vecdot,
};
