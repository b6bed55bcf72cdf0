//! MINRES (SciPy's `scipy.sparse.linalg.minres`): Paige and Saunders'
//! minimum residual method for symmetric (Hermitian), possibly indefinite
//! systems ("Solution of sparse indefinite systems of linear equations",
//! SIAM J. Numer. Anal. 12(4), 1975), with an optional shift (solving
//! `(A - shift I) x = b`) and a positive definite preconditioner.
//!
//! As in [`super::lsqr`], the vectors are updated by fused kernels and
//! the scalar recurrences (the Lanczos coefficients, the plane rotations,
//! the norm and condition estimates, SciPy's stopping tests) run in
//! one-thread kernels on a float64 state vector (`kernels/minres.cu`);
//! the stopping flag is read every `check_every` iterations, and the
//! update of `x` is gated on the state's `live` slot, so iterations queued
//! after the stop leave it as the stopping iteration did. For complex
//! Hermitian `A` the Lanczos coefficients are the real parts of the
//! Hermitian inner products `v^H A v` and `r^H M r` (real in exact
//! arithmetic).

use std::sync::LazyLock;

use gpu_array::fusion::{FVar, FuseOptions, Fused, fuse, fx};
use gpu_array::ufunc::Input;
use gpu_array::{Array, DType, Error, Result, creation};

use super::bicgstab::precondition;
use super::cg::{solve_dtype, start};
use super::{LinearOperator, SolveOptions};

/// Slots of the state vector (`kernels/minres.cu` names the same numbers).
mod slot {
    pub const BETA: usize = 0;
    pub const BETA1: usize = 2;
    pub const PHIBAR: usize = 5;
    pub const RHS1: usize = 6;
    pub const GMIN: usize = 10;
    pub const CS: usize = 11;
    pub const ISTOP: usize = 13;
    pub const LIVE: usize = 15;
    pub const ALFA: usize = 16;
    pub const S: usize = 17;
    pub const C_R1: usize = 18;
    pub const C_R2: usize = 19;
    pub const OLDEPS: usize = 20;
    pub const DELTA: usize = 21;
    pub const DENOM: usize = 22;
    pub const PHI: usize = 23;
    pub const RTOL: usize = 28;
    pub const MAXITER: usize = 29;
    pub const EPS: usize = 30;
    pub const BETA2: usize = 31;
    pub const YNORM2: usize = 32;
    /// The state's length.
    pub const LEN: usize = super::super::MINRES_STATE_LEN;
}

/// `istop` for a negative `r^H M r` (`kernels/minres.cu`).
const NOT_SYMMETRIC: f64 = 99.0;

type F2 = fn(&FVar, &FVar) -> FVar;
type F3 = fn(&FVar, &FVar, &FVar) -> FVar;
type F4 = fn(&FVar, &FVar, &FVar, &FVar) -> FVar;
type F5 = fn(&FVar, &FVar, &FVar, &FVar, &FVar) -> FVar;
type Args5 = (FVar, FVar, FVar, FVar, FVar);
type F6 = fn(&FVar, &FVar, &FVar, &FVar, &FVar, &FVar) -> FVar;
type Args6 = (FVar, FVar, FVar, FVar, FVar, FVar);

/// `Re(x^H y)` (accumulated in float64 by the call's dtype).
static REDOT: LazyLock<Fused<F2, (FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_minres_redot",
        (|x: &FVar, y: &FVar| fx::astype(fx::conj(x) * y, DType::Float64).sum(())) as F2,
    )
});

static MUL: LazyLock<Fused<F2, (FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_minres_mul",
        (|a: &FVar, b: &FVar| a * b) as F2,
    )
});

static DIV: LazyLock<Fused<F2, (FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_minres_div",
        (|a: &FVar, b: &FVar| a / b) as F2,
    )
});

/// `y = A v - shift v - c r1`.
static LANCZOS: LazyLock<Fused<F5, Args5>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_minres_lanczos",
        (|av: &FVar, v: &FVar, r1: &FVar, c: &FVar, shift: &FVar| &(av - &(shift * v)) - &(c * r1))
            as F5,
    )
});

/// `y - c r2`.
static AXPY: LazyLock<Fused<F3, (FVar, FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_minres_axpy",
        (|y: &FVar, r2: &FVar, c: &FVar| y - &(c * r2)) as F3,
    )
});

/// `w = (v - oldeps w1 - delta w2) denom`.
static DIRECTION: LazyLock<Fused<F6, Args6>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_minres_direction",
        (|v: &FVar, w1: &FVar, w2: &FVar, oldeps: &FVar, delta: &FVar, denom: &FVar| {
            &(&(v - &(oldeps * w1)) - &(delta * w2)) * denom
        }) as F6,
    )
});

/// `x = live ? x + phi w : x`.
static STEP: LazyLock<Fused<F4, (FVar, FVar, FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_minres_step",
        (|x: &FVar, w: &FVar, phi: &FVar, live: &FVar| {
            fx::where_(live.not_equal(0), x + &(phi * w), x)
        }) as F4,
    )
});

/// SciPy's `minres(A, b, x0, rtol=1e-5, shift=0.0, maxiter, M)`: solves
/// `(A - shift I) x = b` for Hermitian, possibly indefinite `A` (and a
/// Hermitian positive definite preconditioner `M`) by MINRES. Returns
/// `(x, info)`: `info` 0 when a stopping test other than the iteration
/// limit held (SciPy's `istop` 1 to 5, or -1 when `b` is an eigenvector),
/// else `maxiter` (default `5 n`). SciPy's minres has no `atol`: a
/// non-zero `opts.atol` is an `Unsupported` error. The stopping flag is
/// read every `opts.check_every` iterations (module docs).
///
/// ```no_run
/// use gpu_sparse::linalg::{SolveOptions, minres};
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::eye(4, 4, 0, gpu_array::DType::Float64)?;
/// let b = gpu_array::creation::ones(4, gpu_array::DType::Float64)?;
/// let (x, info) = minres(&a, &b, &SolveOptions::default(), 0.0)?;
/// assert_eq!(info, 0);
/// # Ok(()) }
/// ```
///
/// # Errors
/// A non-square operator, `b` or `x0` of another length, a preconditioner
/// of another shape, a negative `rtol`, a non-zero `atol`; SciPy's
/// "indefinite preconditioner" when `r^H M r < 0` at the start and
/// "non-symmetric matrix" when it turns negative later; failures of the
/// products.
pub fn minres(
    a: &dyn LinearOperator,
    b: &Array,
    opts: &SolveOptions<'_>,
    shift: f64,
) -> Result<(Array, usize)> {
    let n = opts.check(a, b)?;
    if opts.atol != 0.0 {
        return Err(Error::Unsupported(
            "minres takes no atol (SciPy's minres stops on rtol only)".into(),
        ));
    }
    let dtype = solve_dtype(a, b)?;
    let maxiter = opts.maxiter.unwrap_or(n.saturating_mul(5));
    let f64_sum = FuseOptions::default().dtype(DType::Float64);
    let (x, r1) = start(a, b, opts, dtype)?;
    let y = precondition(opts, &r1, dtype)?;
    let beta1 = REDOT.call_with(&[&r1, &y], &f64_sum)?.item::<f64>(&[])?;
    if beta1 < 0.0 {
        return Err(Error::Value("indefinite preconditioner".into()));
    }
    if beta1 == 0.0 || maxiter == 0 {
        return Ok((x, 0));
    }
    let beta1 = beta1.sqrt();
    let eps = match dtype {
        DType::Float32 | DType::Complex64 => f64::from(f32::EPSILON),
        _ => f64::EPSILON,
    };
    let mut st = vec![0.0f64; slot::LEN];
    st[slot::BETA] = beta1;
    st[slot::BETA1] = beta1;
    st[slot::PHIBAR] = beta1;
    st[slot::RHS1] = beta1;
    st[slot::GMIN] = f64::MAX;
    st[slot::CS] = -1.0;
    st[slot::LIVE] = 1.0;
    st[slot::S] = 1.0 / beta1;
    st[slot::RTOL] = opts.rtol;
    st[slot::MAXITER] = maxiter as f64;
    st[slot::EPS] = eps;
    let state = Array::from_slice(&st, &[slot::LEN])?;
    let at = |k: usize| state.get_index(&gpu_array::ix![k as isize]);
    let (s_alfa, s_beta, s_s) = (at(slot::ALFA)?, at(slot::BETA)?, at(slot::S)?);
    let (s_c1, s_c2, s_beta2) = (at(slot::C_R1)?, at(slot::C_R2)?, at(slot::BETA2)?);
    let (s_oldeps, s_delta, s_denom) = (at(slot::OLDEPS)?, at(slot::DELTA)?, at(slot::DENOM)?);
    let (s_phi, s_live, s_ynorm2) = (at(slot::PHI)?, at(slot::LIVE)?, at(slot::YNORM2)?);
    let s_istop = at(slot::ISTOP)?;
    let shift = Input::from(shift);
    let (mut r1, mut r2, mut y) = (r1.clone(), r1, y);
    // w is the newest direction, w2 and w1 the two before it.
    let (mut w, mut w2) = (creation::zeros(n, dtype)?, creation::zeros(n, dtype)?);
    for itn in 1..=maxiter {
        let v = creation::empty(n, dtype)?;
        MUL.call_with(&[&y, &s_s], &FuseOptions::out(&[&v]))?;
        let av = a.matvec(&v)?.astype(dtype)?;
        let ynew = creation::empty(n, dtype)?;
        LANCZOS.call_with(
            &[
                Input::from(&av),
                (&v).into(),
                (&r1).into(),
                (&s_c1).into(),
                shift,
            ],
            &FuseOptions::out(&[&ynew]),
        )?;
        REDOT.call_with(
            &[&v, &ynew],
            &f64_sum.clone().out_optional(&[Some(&s_alfa)]),
        )?;
        DIV.call_with(&[&s_alfa, &s_beta], &FuseOptions::out(&[&s_c2]))?;
        AXPY.call_with(&[&ynew, &r2, &s_c2], &FuseOptions::out(&[&ynew]))?;
        r1 = r2;
        r2 = ynew;
        y = precondition(opts, &r2, dtype)?;
        REDOT.call_with(&[&r2, &y], &f64_sum.clone().out_optional(&[Some(&s_beta2)]))?;
        crate::kernels::minres_beta(&state)?;
        let wn = creation::empty(n, dtype)?;
        let w1 = std::mem::replace(&mut w2, w);
        DIRECTION.call_with(
            &[&v, &w1, &w2, &s_oldeps, &s_delta, &s_denom],
            &FuseOptions::out(&[&wn]),
        )?;
        w = wn;
        STEP.call_with(&[&x, &w, &s_phi, &s_live], &FuseOptions::out(&[&x]))?;
        REDOT.call_with(&[&x, &x], &f64_sum.clone().out_optional(&[Some(&s_ynorm2)]))?;
        crate::kernels::minres_test(&state)?;
        if itn % opts.check_every == 0 || itn == maxiter {
            let istop = s_istop.item::<f64>(&[])?;
            if istop != 0.0 {
                break;
            }
        }
    }
    let istop = s_istop.item::<f64>(&[])?;
    if istop == NOT_SYMMETRIC {
        return Err(Error::Value("non-symmetric matrix".into()));
    }
    let info = if istop == 6.0 { maxiter } else { 0 };
    Ok((x, info))
}
