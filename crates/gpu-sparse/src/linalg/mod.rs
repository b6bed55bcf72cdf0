//! `scipy.sparse.linalg`: operators and the iterative solvers on them.
//!
//! - [`LinearOperator`]: what a solver needs of a matrix (its shape, dtype
//!   and products with vectors); the sparse formats are operators, and
//!   [`FnOperator`] makes one of closures (SciPy's `LinearOperator(shape,
//!   matvec, rmatvec)`); [`aslinearoperator`] for any [`crate::SpMatrix`].
//! - [`cg`]: conjugate gradients for Hermitian positive definite systems;
//! - [`bicgstab`], [`cgs`]: BiCGSTAB and conjugate gradients squared for
//!   general square systems (breakdowns are SciPy's `info` -10 and -11,
//!   from a device flag that freezes the iterate);
//! - [`gmres`]: restarted GMRES for general square systems (the Arnoldi
//!   basis on the device, Gram-Schmidt as products with it, the Givens
//!   rotations and the small triangular solve in one-thread kernels);
//! - [`minres`]: MINRES for Hermitian, possibly indefinite systems;
//! - [`lsqr`]: least squares by Golub-Kahan bidiagonalisation (LSQR);
//! - [`lsmr`]: least squares by LSMR (Fong and Saunders), the same
//!   bidiagonalisation minimising `|A^H r|`, its scalars on the device;
//! - [`eigsh`]: eigenvalues and eigenvectors of Hermitian operators by
//!   thick-restart Lanczos with full reorthogonalisation (the basis and
//!   the Rayleigh quotient on the device, one host synchronisation a
//!   restart for the small eigenproblem, solved by gpu-linalg's `eigh`);
//!   [`svds`]: the largest (or smallest) singular triplets by the same
//!   iteration on the smaller of `A^H A` and `A A^H`;
//! - [`expm_multiply`]: `exp(t A) @ B` by Al-Mohy and Higham's scaled
//!   Taylor series, its parameters from the bound `|A^p|_1 <= |A|_1^p`;
//! - [`norm`]: matrix norms and the vector norms of rows or columns;
//! - direct solvers: [`spsolve_triangular`] (cuSPARSE's SpSV/SpSM, the
//!   analysis cached on the matrix), [`spsolve`] and [`factorized`]
//!   (cuSOLVER's sparse QR on the device), [`spilu`] (cuSPARSE's ILU(0),
//!   a [`SuperLu`] usable as a preconditioner); [`splu`] has no GPU route
//!   and returns `Unsupported`.
//!
//! The solvers keep every scalar of the iteration on the device (0-d
//! arrays: `alpha = rho / (p . Ap)` is computed inside the fused update
//! kernels), so an iteration queues its kernels without waiting for the
//! GPU. The residual norm is read back every [`SolveOptions::check_every`]
//! iterations (10 by default) to test convergence: a solve may run up to
//! `check_every - 1` iterations past the one SciPy would stop at, which
//! only lowers the residual further. `check_every = 1` is SciPy's
//! behaviour exactly, at one host synchronisation an iteration (CuPy's).

mod bicgstab;
mod bidiag;
mod cg;
mod cgs;
mod dsolve;
mod eigen;
mod expm;
mod gmres;
mod lsmr;
mod lsqr;
mod minres;
mod norm;
mod operator;
mod options;

pub use bicgstab::bicgstab;
pub use cg::cg;
pub use cgs::cgs;
pub use dsolve::{SuperLu, factorized, spilu, splu, spsolve, spsolve_triangular};
pub use eigen::{EigshOptions, Svds, SvdsOptions, Which, eigsh, svds};
pub use expm::expm_multiply;
pub use gmres::gmres;
pub(crate) use gmres::gmres_state_len;
pub use lsmr::{Lsmr, LsmrOptions, lsmr};
pub use lsqr::{Lsqr, LsqrOptions, lsqr};
pub use minres::minres;
pub use norm::{NormOrd, norm};
pub use operator::{FnOperator, LinearOperator, aslinearoperator};
pub use options::SolveOptions;

/// The length of LSQR's device state (for the kernels' checks).
pub(crate) const LSQR_STATE_LEN: usize = 32;

/// The length of LSMR's device state (for the kernels' checks).
pub(crate) const LSMR_STATE_LEN: usize = 40;

/// The length of MINRES's device state (for the kernels' checks).
pub(crate) const MINRES_STATE_LEN: usize = 40;
