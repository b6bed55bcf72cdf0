//! CGS (SciPy's `scipy.sparse.linalg.cgs`): Sonneveld's conjugate
//! gradients squared ("CGS, a fast Lanczos-type solver for nonsymmetric
//! linear systems", SIAM J. Sci. Stat. Comput. 10(1), 1989; Saad,
//! "Iterative Methods for Sparse Linear Systems", 2nd ed., Algorithm 7.6),
//! right-preconditioned, with the residual recomputed as `b - A x` every
//! iteration as SciPy does (it costs the same one product as the
//! recurrence and does not drift).
//!
//! The scalars are 0-d device arrays and breakdowns (`info = -10` when
//! `|rho| < eps^2`, `-11` when `rtilde . v = 0`) a device flag gating
//! every update, as in [`super::bicgstab`].

use std::sync::LazyLock;

use gpu_array::fusion::{FVar, FuseOptions, Fused, fuse, fx};
use gpu_array::ufunc::Input;
use gpu_array::{Array, Result, creation};

use super::bicgstab::{
    ALPHA, GATED_AXPY, RHO_CHECK, breakdown_tol, check, finish, new_flag, precondition,
};
use super::cg::{dot, host_norm, solve_dtype, start};
use super::{LinearOperator, SolveOptions};

type F2 = fn(&FVar, &FVar) -> FVar;
type F4 = fn(&FVar, &FVar, &FVar, &FVar) -> FVar;
type F6Pair = fn(&FVar, &FVar, &FVar, &FVar, &FVar, &FVar) -> (FVar, FVar);
type Args6 = (FVar, FVar, FVar, FVar, FVar, FVar);

/// `beta = rho / rho_prev` (0 when `rho_prev` is 0).
static BETA: LazyLock<Fused<F2, (FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_cgs_beta",
        (|rho: &FVar, prev: &FVar| fx::where_(prev.not_equal(0), rho / prev, 0)) as F2,
    )
});

/// `u = r + beta q`, `p = u + beta (q + beta p)` when live.
static DIRECTIONS: LazyLock<Fused<F6Pair, Args6>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_cgs_directions",
        (|r: &FVar, q: &FVar, u: &FVar, p: &FVar, beta: &FVar, code: &FVar| {
            let live = code.equal(0);
            let un = r + &(beta * q);
            let pn = &un + &(beta * &(q + &(beta * p)));
            (fx::where_(&live, un, u), fx::where_(&live, pn, p))
        }) as F6Pair,
    )
});

/// `x = live ? x + alpha uhat : x`.
static STEP: LazyLock<Fused<F4, (FVar, FVar, FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_cgs_step",
        (|x: &FVar, uhat: &FVar, alpha: &FVar, code: &FVar| {
            fx::where_(code.equal(0), x + &(alpha * uhat), x)
        }) as F4,
    )
});

/// `r = live ? b - ax : r`.
static RESIDUAL: LazyLock<Fused<F4, (FVar, FVar, FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_cgs_residual",
        (|b: &FVar, ax: &FVar, r: &FVar, code: &FVar| fx::where_(code.equal(0), b - ax, r)) as F4,
    )
});

/// SciPy's `cgs(A, b, x0, rtol=1e-5, atol=0., maxiter, M)`: solves `A x =
/// b` for a general square `A` by conjugate gradients squared. Returns
/// `(x, info)` as [`super::bicgstab`] (0 converged, the iterations run
/// when `maxiter` stopped it, `-10` or `-11` on breakdown, `x` then the
/// iterate before it). Scalars stay on the device and the residual and
/// breakdown flag are read every `opts.check_every` iterations.
///
/// ```no_run
/// use gpu_sparse::linalg::{SolveOptions, cgs};
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::eye(4, 4, 0, gpu_array::DType::Float64)?;
/// let b = gpu_array::creation::ones(4, gpu_array::DType::Float64)?;
/// let (x, info) = cgs(&a, &b, &SolveOptions::default())?;
/// assert_eq!(info, 0);
/// # Ok(()) }
/// ```
///
/// # Errors
/// A non-square operator, `b` or `x0` of another length, a preconditioner
/// of another shape, negative tolerances; failures of the products.
pub fn cgs(a: &dyn LinearOperator, b: &Array, opts: &SolveOptions<'_>) -> Result<(Array, isize)> {
    let n = opts.check(a, b)?;
    let dtype = solve_dtype(a, b)?;
    let bd = b.reshape([n as isize])?.astype(dtype)?;
    let bnrm = host_norm(&bd)?;
    if bnrm == 0.0 {
        return Ok((creation::zeros(n, dtype)?, 0));
    }
    let tol = (opts.rtol * bnrm).max(opts.atol);
    let maxiter = opts.maxiter.unwrap_or(n.saturating_mul(10));
    let btol = Input::from(breakdown_tol(dtype));
    // `start` returns copies, updated in place below.
    let (x, r) = start(a, b, opts, dtype)?;
    let rtilde = r.copy()?;
    let code = new_flag()?;
    let (u, p, q) = (r.copy()?, r.copy()?, creation::zeros(n, dtype)?);
    let mut rho_prev: Option<Array> = None;
    let into_code = FuseOptions::default().out_optional(&[None, Some(&code)]);
    for it in 0..maxiter {
        if it % opts.check_every == 0
            && let Some(info) = check(&r, &code, tol)?
        {
            return Ok((x, info));
        }
        let rho = dot(&rtilde, &r)?;
        RHO_CHECK.call_with(
            &[Input::from(&code), (&rho).into(), btol],
            &FuseOptions::out(&[&code]),
        )?;
        if let Some(prev) = &rho_prev {
            let beta = BETA.call(&[&rho, prev])?;
            DIRECTIONS.call_with(
                &[&r, &q, &u, &p, &beta, &code],
                &FuseOptions::out(&[&u, &p]),
            )?;
        }
        let phat = precondition(opts, &p, dtype)?;
        let vhat = a.matvec(&phat)?.astype(dtype)?;
        let rv = dot(&rtilde, &vhat)?;
        let (alpha, _) = ALPHA.call_with(&[&rho, &rv, &code], &into_code)?;
        // q = u - alpha vhat.
        GATED_AXPY.call_with(&[&u, &vhat, &alpha, &code, &q], &FuseOptions::out(&[&q]))?;
        let uq = gpu_array::ufunc::add(&u, &q)?;
        let uhat = precondition(opts, &uq, dtype)?;
        STEP.call_with(&[&x, &uhat, &alpha, &code], &FuseOptions::out(&[&x]))?;
        let ax = a.matvec(&x)?.astype(dtype)?;
        RESIDUAL.call_with(&[&bd, &ax, &r, &code], &FuseOptions::out(&[&r]))?;
        rho_prev = Some(rho);
    }
    finish(x, &r, &code, tol, opts, maxiter)
}
