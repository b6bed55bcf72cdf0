//! scipy.special for Cuprum: special functions as ufuncs of gpu-array's
//! elementwise engine, reached as `cuprum::special`.
//!
//! | SciPy / CuPy                                   | Cuprum                                                  |
//! |------------------------------------------------|---------------------------------------------------------|
//! | `scipy.special.erf(x)`, `cupyx.scipy.special.erf(x)` | [`erf`]`(&x)?`                                    |
//! | `huber(1.0, r)`                                | [`huber`]`(1.0, &r)?`                                   |
//! | `zeta(x, q)`, `zeta(x)`                        | [`zeta`]`(&x, Some(q))?`, [`zeta`]`(&x, None)?`         |
//! | `erf(x, out=o)`, `dtype=`                      | `ufunc::call(`[`get`]`("erf")?, &[(&x).into()], &UfuncOptions::default().out(&[&o]))` |
//! | `erf.types`, `erf.nin`                         | [`get`]`("erf")?.types()`, `.nin()`                     |
//! | `cp.fuse` over `erf`                           | [`fused::erf`] in a `gpu_array::fusion::fuse` closure   |
//! | an `ElementwiseKernel` calling `erf`           | preamble `#include "cuprum/special/erf.cuh"`, body `y = cuprum::special::erf(x);` |
//!
//! Each function is a [`gpu_array::ufunc::Ufunc`] built with
//! [`gpu_array::ufunc::UfuncBuilder`]: SciPy's real loops in SciPy's
//! order (loop selection, broadcasting, `out=`, `dtype=`, weak scalars
//! as NumPy 2's), its device functions in one header per family under
//! `kernels/cuprum/special/` (`erf.cuh`, `gamma.cuh`, `bessel.cuh`,
//! `convex.cuh`), included only by the kernels that call them. Float32
//! loops evaluate the double function and round once.
//!
//! Domain errors are NaN (or SciPy's infinities), never errors, as in
//! SciPy. What is not here yet says so: complex input to the functions
//! SciPy has complex loops for (`erf`, `erfc`, `erfcx`, `ndtr`, `gamma`,
//! `digamma`, `zeta`) is `Error::Unsupported`. The measured accuracy of
//! every function is in `docs/special-accuracy.md`.

mod functions;
pub mod fused;
#[cfg(test)]
mod nvrtc_tests;
mod reductions;
mod table;

pub use functions::*;
pub use reductions::{log_softmax, logsumexp, multigammaln, softmax};
pub use table::{all, get};

/// Cuprum's error type, re-exported.
pub use gpu_array::{Error, Result};
