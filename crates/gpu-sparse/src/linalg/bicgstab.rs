//! BiCGSTAB (SciPy's `scipy.sparse.linalg.bicgstab`): van der Vorst's
//! stabilised biconjugate gradients ("Bi-CGSTAB: a fast and smoothly
//! converging variant of Bi-CG", SIAM J. Sci. Stat. Comput. 13(2), 1992;
//! Saad, "Iterative Methods for Sparse Linear Systems", 2nd ed.,
//! Algorithm 7.7), right-preconditioned as SciPy's.
//!
//! As in [`super::cg`], the scalars `rho`, `alpha`, `omega` and `beta`
//! are 0-d device arrays computed by small fused kernels. A breakdown
//! (SciPy's `info = -10` when `|rho| < eps^2`, `-11` when `|omega| <
//! eps^2` or `rtilde . v = 0`) is recorded in a 0-d device flag; every
//! update is gated on it, so the iterations queued after the breakdown
//! leave `x` and `r` as they were, and the flag is read at the checks.
//!
//! Breakdown flags and gated updates are shared with [`super::cgs`].

use std::sync::LazyLock;

use gpu_array::fusion::{FVar, FuseOptions, Fused, fuse, fx};
use gpu_array::ufunc::Input;
use gpu_array::{Array, DType, Result, creation};

use super::cg::{dot, host_norm, solve_dtype, start};
use super::{LinearOperator, SolveOptions};

type F3 = fn(&FVar, &FVar, &FVar) -> FVar;
type F3Pair = fn(&FVar, &FVar, &FVar) -> (FVar, FVar);
type F2Pair = fn(&FVar, &FVar) -> (FVar, FVar);
type F2 = fn(&FVar, &FVar) -> FVar;
type F5 = fn(&FVar, &FVar, &FVar, &FVar, &FVar) -> FVar;
type Args5 = (FVar, FVar, FVar, FVar, FVar);
type F6 = fn(&FVar, &FVar, &FVar, &FVar, &FVar, &FVar) -> FVar;
type F6Pair = fn(&FVar, &FVar, &FVar, &FVar, &FVar, &FVar) -> (FVar, FVar);
type Args6 = (FVar, FVar, FVar, FVar, FVar, FVar);
type F8Pair = fn(&FVar, &FVar, &FVar, &FVar, &FVar, &FVar, &FVar, &FVar) -> (FVar, FVar);
type Args8 = (FVar, FVar, FVar, FVar, FVar, FVar, FVar, FVar);

/// SciPy's info for a breakdown of `rho = rtilde . r`.
pub(super) const RHO_BREAKDOWN: f64 = -10.0;
/// SciPy's info for a breakdown of `omega` or of `rtilde . v`.
pub(super) const OTHER_BREAKDOWN: f64 = -11.0;

/// `code`, or `-10` where it is 0 and `|rho| < tol`.
pub(super) static RHO_CHECK: LazyLock<Fused<F3, (FVar, FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_krylov_rho_check",
        (|code: &FVar, rho: &FVar, tol: &FVar| {
            let broke = fx::absolute(rho).less(tol);
            fx::where_(
                code.not_equal(0),
                code,
                fx::where_(broke, RHO_BREAKDOWN, 0.0),
            )
        }) as F3,
    )
});

/// `(alpha, code)`: `alpha = rho / rv` (0 when `rv` is 0) and the flag
/// `-11` where it was 0 and `rv` is 0 (SciPy's `rtilde . v == 0`).
pub(super) static ALPHA: LazyLock<Fused<F3Pair, (FVar, FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_krylov_alpha",
        (|rho: &FVar, rv: &FVar, code: &FVar| {
            let ok = rv.not_equal(0);
            let alpha = fx::where_(&ok, rho / rv, 0);
            let code = fx::where_(
                code.not_equal(0),
                code,
                fx::where_(&ok, 0.0, OTHER_BREAKDOWN),
            );
            (alpha, code)
        }) as F3Pair,
    )
});

/// `live ? a - alpha v : old` (into `old`).
pub(super) static GATED_AXPY: LazyLock<Fused<F5, Args5>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_krylov_gated_axpy",
        (|a: &FVar, v: &FVar, alpha: &FVar, code: &FVar, old: &FVar| {
            fx::where_(code.equal(0), a - &(alpha * v), old)
        }) as F5,
    )
});

/// `(beta, code)` of BiCGSTAB's iterations after the first: the flag
/// becomes `-10` for `|rho| < tol`, else `-11` for `|omega| < tol`;
/// `beta = (rho / rho_prev) (alpha / omega)`, 0 where it would divide by 0.
static BETA: LazyLock<Fused<F6Pair, Args6>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_bicgstab_beta",
        (|rho: &FVar, prev: &FVar, alpha: &FVar, omega: &FVar, code: &FVar, tol: &FVar| {
            let rho_broke = fx::absolute(rho).less(tol);
            let omega_broke = fx::absolute(omega).less(tol);
            let code = fx::where_(
                code.not_equal(0),
                code,
                fx::where_(
                    rho_broke,
                    RHO_BREAKDOWN,
                    fx::where_(omega_broke, OTHER_BREAKDOWN, 0.0),
                ),
            );
            let den = prev * omega;
            let beta = fx::where_(den.not_equal(0), &(rho * alpha) / &den, 0);
            (beta, code)
        }) as F6Pair,
    )
});

/// `p = live ? r + beta (p - omega v) : p`.
static DIRECTION: LazyLock<Fused<F6, Args6>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_bicgstab_direction",
        (|r: &FVar, p: &FVar, v: &FVar, beta: &FVar, omega: &FVar, code: &FVar| {
            let next = r + &(beta * &(p - &(omega * v)));
            fx::where_(code.equal(0), next, p)
        }) as F6,
    )
});

/// `(t^H s, t^H t)` in one pass.
static TS_TT: LazyLock<Fused<F2Pair, (FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_bicgstab_ts_tt",
        (|t: &FVar, s: &FVar| {
            let ct = fx::conj(t);
            ((&ct * s).sum(()), (&ct * t).sum(()))
        }) as F2Pair,
    )
});

/// `omega = ts / tt` (0 when `tt` is 0: `s` is then 0 too).
static OMEGA: LazyLock<Fused<F2, (FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_bicgstab_omega",
        (|ts: &FVar, tt: &FVar| fx::where_(tt.not_equal(0), ts / tt, 0)) as F2,
    )
});

/// `(x + alpha phat + omega shat, s - omega t)` when live.
static UPDATE: LazyLock<Fused<F8Pair, Args8>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_bicgstab_update",
        (|x: &FVar,
          s: &FVar,
          phat: &FVar,
          shat: &FVar,
          t: &FVar,
          alpha: &FVar,
          omega: &FVar,
          code: &FVar| {
            let live = code.equal(0);
            let xn = x + &(&(alpha * phat) + &(omega * shat));
            let rn = s - &(omega * t);
            (fx::where_(&live, xn, x), fx::where_(&live, rn, s))
        }) as F8Pair,
    )
});

/// SciPy's breakdown tolerance of `rho` and `omega`: `eps^2` of the
/// solve's (real) precision.
pub(super) fn breakdown_tol(dtype: DType) -> f64 {
    let eps = match dtype {
        DType::Float32 | DType::Complex64 => f64::from(f32::EPSILON),
        _ => f64::EPSILON,
    };
    eps * eps
}

/// A fresh 0-d float64 breakdown flag (0: no breakdown).
pub(super) fn new_flag() -> Result<Array> {
    Array::from_slice(&[0.0f64], &[])
}

/// The check of the iteration's state: `Some(0)` when `||r|| < tol`,
/// `Some(code)` after a breakdown, `None` to go on (one host read).
pub(super) fn check(r: &Array, code: &Array, tol: f64) -> Result<Option<isize>> {
    if host_norm(r)? < tol {
        return Ok(Some(0));
    }
    let c = code.item::<f64>(&[])?;
    Ok((c != 0.0).then_some(c as isize))
}

/// `M @ v` in `dtype`, or `v` without a preconditioner.
pub(super) fn precondition(opts: &SolveOptions<'_>, v: &Array, dtype: DType) -> Result<Array> {
    match opts.m {
        Some(m) => m.matvec(v)?.astype(dtype),
        None => Ok(v.clone()),
    }
}

/// What a solve returns once `maxiter` iterations ran: a breakdown seen
/// since the last check, convergence reached since it (when checks were
/// skipped), else `maxiter`.
pub(super) fn finish(
    x: Array,
    r: &Array,
    code: &Array,
    tol: f64,
    opts: &SolveOptions<'_>,
    maxiter: usize,
) -> Result<(Array, isize)> {
    if opts.check_every > 1
        && let Some(info) = check(r, code, tol)?
    {
        return Ok((x, info));
    }
    let c = code.item::<f64>(&[])?;
    if c != 0.0 {
        return Ok((x, c as isize));
    }
    Ok((x, isize::try_from(maxiter).unwrap_or(isize::MAX)))
}

/// SciPy's `bicgstab(A, b, x0, rtol=1e-5, atol=0., maxiter, M)`: solves
/// `A x = b` for a general square `A` by BiCGSTAB. Returns `(x, info)`:
/// `info` 0 on convergence (`||b - A x|| < max(rtol ||b||, atol)`), the
/// iterations run when `maxiter` stopped it, `-10` when `rtilde . r`
/// broke down and `-11` when `omega` or `rtilde . v` did (SciPy's codes);
/// after a breakdown `x` is the iterate before it. Scalars stay on the
/// device and the residual and breakdown flag are read every
/// `opts.check_every` iterations (module docs of [`crate::linalg`]).
///
/// ```no_run
/// use gpu_sparse::linalg::{SolveOptions, bicgstab};
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::eye(4, 4, 0, gpu_array::DType::Float64)?;
/// let b = gpu_array::creation::ones(4, gpu_array::DType::Float64)?;
/// let (x, info) = bicgstab(&a, &b, &SolveOptions::default())?;
/// assert_eq!(info, 0);
/// # Ok(()) }
/// ```
///
/// # Errors
/// A non-square operator, `b` or `x0` of another length, a preconditioner
/// of another shape, negative tolerances; failures of the products.
pub fn bicgstab(
    a: &dyn LinearOperator,
    b: &Array,
    opts: &SolveOptions<'_>,
) -> Result<(Array, isize)> {
    let n = opts.check(a, b)?;
    let dtype = solve_dtype(a, b)?;
    let bnrm = host_norm(&b.astype(dtype)?)?;
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
    let p = creation::zeros(n, dtype)?;
    let mut v = creation::zeros(n, dtype)?;
    let mut rho_prev: Option<Array> = None;
    let mut alpha: Option<Array> = None;
    let mut omega: Option<Array> = None;
    let into_code = FuseOptions::default().out_optional(&[None, Some(&code)]);
    for it in 0..maxiter {
        if it % opts.check_every == 0
            && let Some(info) = check(&r, &code, tol)?
        {
            return Ok((x, info));
        }
        let rho = dot(&rtilde, &r)?;
        match (&rho_prev, &alpha, &omega) {
            (Some(prev), Some(al), Some(om)) => {
                let c = Input::from(&code);
                let args = [
                    Input::from(&rho),
                    prev.into(),
                    al.into(),
                    om.into(),
                    c,
                    btol,
                ];
                let (beta, _) = BETA.call_with(&args, &into_code)?;
                DIRECTION.call_with(&[&r, &p, &v, &beta, om, &code], &FuseOptions::out(&[&p]))?;
            }
            _ => {
                RHO_CHECK.call_with(
                    &[Input::from(&code), (&rho).into(), btol],
                    &FuseOptions::out(&[&code]),
                )?;
                p.copy_from(&r)?;
            }
        }
        let phat = precondition(opts, &p, dtype)?;
        v = a.matvec(&phat)?.astype(dtype)?;
        let rv = dot(&rtilde, &v)?;
        let (al, _) = ALPHA.call_with(&[&rho, &rv, &code], &into_code)?;
        // s = r - alpha v, in r.
        GATED_AXPY.call_with(&[&r, &v, &al, &code, &r], &FuseOptions::out(&[&r]))?;
        let shat = precondition(opts, &r, dtype)?;
        let t = a.matvec(&shat)?.astype(dtype)?;
        let (ts, tt) = TS_TT.call(&[&t, &r])?;
        let om = OMEGA.call(&[&ts, &tt])?;
        UPDATE.call_with(
            &[&x, &r, &phat, &shat, &t, &al, &om, &code],
            &FuseOptions::out(&[&x, &r]),
        )?;
        rho_prev = Some(rho);
        alpha = Some(al);
        omega = Some(om);
    }
    finish(x, &r, &code, tol, opts, maxiter)
}
