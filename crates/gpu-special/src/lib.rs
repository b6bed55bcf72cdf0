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
//! [`gpu_array::ufunc::UfuncBuilder`]: SciPy's loops in SciPy's order
//! (loop selection, broadcasting, `out=`, `dtype=`, weak scalars as
//! NumPy 2's), its device functions in one header per family under
//! `kernels/cuprum/special/`, included only by the kernels that call
//! them. Float32 loops evaluate the double function and round once
//! (except where a float evaluation is within 2 ulp: erf, gammaln, expit).
//!
//! | family (header)             | functions |
//! |-----------------------------|-----------|
//! | `erf.cuh`                   | erf, erfc, erfcx, erfinv, erfcinv, ndtr (and the family's additions in `table/incgamma.rs`); the complex loops through the Faddeeva function |
//! | `gamma.cuh`                 | gamma, gammaln, digamma, polygamma, zeta, zetac |
//! | `bessel.cuh`                | j0, j1, y0, y1, i0, i1 and the integer-order additions in `table/bessel.rs` (the spherical Bessel functions real and complex) |
//! | `bessel_real.cuh`           | jv, yv, iv, kv (real order; real and complex argument), airy (real and complex) |
//! | `convex.cuh`                | entr, rel_entr, kl_div, huber, pseudo_huber, expit, logit |
//! | `elementary.cuh`            | expm1, log1p, cbrt, exp2, exp10, round, sindg, cosdg, tandg, cotdg, radian, xlogy, xlog1py, exprel, boxcox, boxcox1p, inv_boxcox, inv_boxcox1p, log_expit, sinc |
//! | `incgamma.cuh`, `incbeta.cuh` | the incomplete gamma and beta functions, their inverses and the distributions on them |
//! | `cdfinv.cuh`                | the distributions' parameter inverses: gdtria, gdtrib, chdtriv, pdtrik, bdtrik, bdtrin, nbdtrik, nbdtrin, stdtridf, fdtridfd (a bracketed root search, CDFLIB's approach) |
//! | `expint.cuh`, `ellip.cuh`   | the exponential, sine and cosine integrals (real and complex); the elliptic integrals |
//! | `gammafn.cuh`               | loggamma (real), rgamma, gammasgn, poch |
//! | `cgamma.cuh`                | the complex loggamma, gamma, rgamma and digamma (included by `gamma.cuh` and `gammafn.cuh`) |
//! | `hyper.cuh`                 | hyp1f1, hyp2f1 (real and complex z), lambertw |
//!
//! Rows, wrappers and goldens are kept per family (`src/table/<family>.rs`,
//! `src/functions/<family>.rs`, `testdata/golden_<family>.py`);
//! `tools/host_accuracy.py <family>` checks a header's algorithm on the
//! host before the GPU run. [`logsumexp`], [`softmax`], [`log_softmax`]
//! and [`multigammaln`] are compositions of whole-array passes.
//!
//! Domain errors are NaN (or SciPy's infinities), never errors, as in
//! SciPy. Every loop SciPy has is here, complex ones included; complex
//! [`logsumexp`] follows SciPy 1.15's algorithm, complex [`softmax`] and
//! [`log_softmax`] shift by NumPy's lexicographic maximum, as SciPy's. The
//! measured accuracy of every function is in `docs/special-accuracy.md`.

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
