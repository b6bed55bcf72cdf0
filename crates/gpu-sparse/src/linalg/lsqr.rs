//! LSQR (SciPy's `scipy.sparse.linalg.lsqr`): least squares by Golub-Kahan
//! bidiagonalisation (Paige and Saunders, ACM TOMS 8(1), 1982).
//!
//! The vectors are updated by fused kernels; the scalar recurrences (the
//! plane rotations, the norm and condition estimates, the stopping tests)
//! run in one-thread kernels on a state vector in device memory
//! (`kernels/lsqr.cu`), so an iteration queues its work without a host
//! synchronisation. The stopping flag is read every `check_every`
//! iterations; once a test has stopped the iteration, the later iterations
//! queued before the read change nothing (every update is gated on the
//! state's `live` slot), so the results are those of the iteration that
//! stopped, as SciPy's.

use std::sync::LazyLock;

use gpu_array::fusion::{FVar, FuseOptions, Fused, fuse, fx};
use gpu_array::{Array, DType, Result};

use super::LinearOperator;
use super::bidiag::{NORM2, norm2};

/// Slots of the state vector (`kernels/lsqr.cu` names the same numbers).
mod slot {
    pub const ALPHA: usize = 0;
    pub const BETA: usize = 1;
    pub const RHOBAR: usize = 2;
    pub const PHIBAR: usize = 3;
    pub const ANORM: usize = 4;
    pub const ACOND: usize = 5;
    pub const XNORM: usize = 8;
    pub const CS2: usize = 11;
    pub const RNORM: usize = 13;
    pub const R1NORM: usize = 14;
    pub const R2NORM: usize = 15;
    pub const ARNORM: usize = 16;
    pub const ISTOP: usize = 17;
    pub const ITN: usize = 18;
    pub const LIVE: usize = 19;
    pub const INV_BETA: usize = 20;
    pub const V_SCALE: usize = 21;
    pub const T1: usize = 22;
    pub const T2: usize = 23;
    pub const BNORM: usize = 24;
    pub const DAMP: usize = 25;
    pub const ATOL: usize = 26;
    pub const BTOL: usize = 27;
    pub const CTOL: usize = 28;
    pub const ITER_LIM: usize = 29;
    pub const BETA_POS: usize = 30;
    /// The state's length.
    pub const LEN: usize = super::super::LSQR_STATE_LEN;
}

/// LSQR's keywords (SciPy's names and defaults).
///
/// ```no_run
/// let opts = gpu_sparse::linalg::LsqrOptions { atol: 1e-10, btol: 1e-10, ..Default::default() };
/// ```
#[derive(Debug, Clone, Copy)]
pub struct LsqrOptions<'a> {
    /// Damping: minimise `|A x - b|^2 + damp^2 |x|^2`.
    pub damp: f64,
    /// Stopping tolerance on the estimates of `|A|` and `|A^H r|`.
    pub atol: f64,
    /// Stopping tolerance on `|b|`.
    pub btol: f64,
    /// Stop when the estimate of `cond(A)` exceeds this (0: never).
    pub conlim: f64,
    /// Most iterations (SciPy's default `2 * n` when `None`).
    pub iter_lim: Option<usize>,
    /// The starting guess (zeros when `None`).
    pub x0: Option<&'a Array>,
    /// Iterations between host reads of the stopping flag (at least 1).
    pub check_every: usize,
}

impl Default for LsqrOptions<'_> {
    fn default() -> Self {
        LsqrOptions {
            damp: 0.0,
            atol: 1e-6,
            btol: 1e-6,
            conlim: 1e8,
            iter_lim: None,
            x0: None,
            check_every: 10,
        }
    }
}

/// What [`lsqr`] returns: SciPy's tuple but `var` (whose computation,
/// `calc_var`, is off by default there too).
#[derive(Debug)]
pub struct Lsqr {
    /// The solution.
    pub x: Array,
    /// Why the iteration stopped: SciPy's `istop` (0: `x = 0` solves it;
    /// 1, 2: converged; 3, 6: `cond(A)` too large; 4, 5: converged to
    /// machine precision; 7: `iter_lim` reached).
    pub istop: u32,
    /// Iterations run.
    pub itn: usize,
    /// `|b - A x|`.
    pub r1norm: f64,
    /// `sqrt(|b - A x|^2 + damp^2 |x|^2)`.
    pub r2norm: f64,
    /// The estimate of the Frobenius norm of `[A; damp I]`.
    pub anorm: f64,
    /// The estimate of `cond([A; damp I])`.
    pub acond: f64,
    /// The estimate of `|A^H r - damp^2 x|`.
    pub arnorm: f64,
    /// `|x|`.
    pub xnorm: f64,
}

type F2 = fn(&FVar, &FVar) -> FVar;
type F2Pair = fn(&FVar, &FVar) -> (FVar, FVar);
type F3 = fn(&FVar, &FVar, &FVar) -> FVar;
type F4 = fn(&FVar, &FVar, &FVar, &FVar) -> FVar;
type Args7 = (FVar, FVar, FVar, FVar, FVar, FVar, FVar);
type F7 = fn(&FVar, &FVar, &FVar, &FVar, &FVar, &FVar, &FVar) -> (FVar, FVar, FVar);

/// `(|v|^2, |w|^2)` in one pass.
static NORM2_PAIR: LazyLock<Fused<F2Pair, (FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_lsqr_norm2_pair",
        (|v: &FVar, w: &FVar| (norm2(v), norm2(w))) as F2Pair,
    )
});

/// `u = live ? Av - alpha u : u` (also `v = ... A^H u - beta v`).
static STEP: LazyLock<Fused<F4, (FVar, FVar, FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_lsqr_step",
        (|prod: &FVar, u: &FVar, c: &FVar, live: &FVar| {
            fx::where_(live.not_equal(0), prod - &(c * u), u)
        }) as F4,
    )
});

/// `u = live ? u * s : u`.
static SCALE: LazyLock<Fused<F3, (FVar, FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_lsqr_scale",
        (|u: &FVar, s: &FVar, live: &FVar| fx::where_(live.not_equal(0), u * s, u)) as F3,
    )
});

/// `live * beta_pos`: the gate of the v update.
static BOTH: LazyLock<Fused<F2, (FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_lsqr_both",
        (|a: &FVar, b: &FVar| a * b) as F2,
    )
});

/// `(v s, x + t1 w, v s + t2 w)` when live.
static UPDATE: LazyLock<Fused<F7, Args7>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_lsqr_update",
        (|v: &FVar, x: &FVar, w: &FVar, s: &FVar, t1: &FVar, t2: &FVar, live: &FVar| {
            let on = live.not_equal(0);
            let vs = v * s;
            (
                fx::where_(&on, &vs, v),
                fx::where_(&on, x + &(t1 * w), x),
                fx::where_(&on, &vs + &(t2 * w), w),
            )
        }) as F7,
    )
});

/// SciPy's `lsqr(A, b, damp, atol, btol, conlim, iter_lim, x0=...)`: the
/// least-squares solution of `A x = b` (or of the damped problem) for any
/// [`LinearOperator`] with `rmatvec`. The module docs say how it avoids
/// host synchronisation; `opts.check_every` trades reads against work
/// queued after the stop.
///
/// ```no_run
/// use gpu_sparse::linalg::{LsqrOptions, lsqr};
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::eye(5, 3, 0, gpu_array::DType::Float64)?; // overdetermined
/// let b = gpu_array::creation::ones(5, gpu_array::DType::Float64)?;
/// let r = lsqr(&a, &b, &LsqrOptions::default())?;
/// assert!(r.istop == 1 || r.istop == 2); // x = [1, 1, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `b` of another length than the operator's rows, `x0` of another length
/// than its columns, bad options; an operator without `rmatvec`.
pub fn lsqr(a: &dyn LinearOperator, b: &Array, opts: &LsqrOptions<'_>) -> Result<Lsqr> {
    let n = a.shape().1;
    let checked = super::bidiag::Checked {
        x0: opts.x0,
        damp: opts.damp,
        atol: opts.atol,
        btol: opts.btol,
        conlim: opts.conlim,
        check_every: opts.check_every,
    };
    let super::bidiag::Start {
        dtype,
        x,
        u,
        v,
        alpha,
        beta,
        bnorm,
    } = super::bidiag::start(a, b, checked)?;
    let iter_lim = opts.iter_lim.unwrap_or(n.saturating_mul(2));
    let result = |x: Array, st: &[f64], istop: u32| Lsqr {
        x,
        istop,
        itn: st[slot::ITN] as usize,
        r1norm: st[slot::R1NORM],
        r2norm: st[slot::R2NORM],
        anorm: st[slot::ANORM],
        acond: st[slot::ACOND],
        arnorm: st[slot::ARNORM],
        xnorm: st[slot::XNORM],
    };
    let mut st = vec![0.0f64; slot::LEN];
    st[slot::ALPHA] = alpha;
    st[slot::BETA] = beta;
    st[slot::RHOBAR] = alpha;
    st[slot::PHIBAR] = beta;
    st[slot::CS2] = -1.0;
    st[slot::RNORM] = beta;
    st[slot::R1NORM] = beta;
    st[slot::R2NORM] = beta;
    st[slot::ARNORM] = alpha * beta;
    st[slot::LIVE] = 1.0;
    st[slot::INV_BETA] = 1.0;
    st[slot::V_SCALE] = 1.0;
    st[slot::BNORM] = bnorm;
    st[slot::DAMP] = opts.damp;
    st[slot::ATOL] = opts.atol;
    st[slot::BTOL] = opts.btol;
    st[slot::CTOL] = if opts.conlim > 0.0 {
        1.0 / opts.conlim
    } else {
        0.0
    };
    st[slot::ITER_LIM] = iter_lim as f64;
    if alpha * beta == 0.0 || iter_lim == 0 {
        // x0 solves it already (SciPy's istop 0), or no iteration allowed.
        return Ok(result(x, &st, 0));
    }
    let state = Array::from_slice(&st, &[slot::LEN])?;
    let at = |k: usize| state.get_index(&gpu_array::ix![k as isize]);
    let (s_alpha, s_beta, s_live) = (at(slot::ALPHA)?, at(slot::BETA)?, at(slot::LIVE)?);
    let (s_inv_beta, s_scale) = (at(slot::INV_BETA)?, at(slot::V_SCALE)?);
    let (s_t1, s_t2, s_beta_pos) = (at(slot::T1)?, at(slot::T2)?, at(slot::BETA_POS)?);
    let w = v.copy()?;
    let f64_sum = FuseOptions::default().dtype(DType::Float64);
    for it in 1..=iter_lim {
        // u = A v - alpha u; beta = |u|; u /= beta.
        let av = a.matvec(&v)?.astype(dtype)?;
        STEP.call_with(&[&av, &u, &s_alpha, &s_live], &FuseOptions::out(&[&u]))?;
        let beta2 = NORM2.call_with(&[&u], &f64_sum)?;
        crate::kernels::lsqr_beta(&state, &beta2)?;
        SCALE.call_with(&[&u, &s_inv_beta, &s_live], &FuseOptions::out(&[&u]))?;
        // v = A^H u - beta v (when beta > 0); alpha = |v|.
        let ahu = a.rmatvec(&u)?.astype(dtype)?;
        let gate = BOTH.call(&[&s_live, &s_beta_pos])?;
        STEP.call_with(&[&ahu, &v, &s_beta, &gate], &FuseOptions::out(&[&v]))?;
        let (alpha2, ww) = NORM2_PAIR.call_with(&[&v, &w], &f64_sum)?;
        crate::kernels::lsqr_alpha(&state, &alpha2, &ww)?;
        // v /= alpha; x += t1 w; w = v + t2 w.
        UPDATE.call_with(
            &[&v, &x, &w, &s_scale, &s_t1, &s_t2, &s_live],
            &FuseOptions::out(&[&v, &x, &w]),
        )?;
        crate::kernels::lsqr_settle(&state)?;
        if it % opts.check_every == 0 || it == iter_lim {
            let istop = at(slot::ISTOP)?.item::<f64>(&[])?;
            if istop != 0.0 {
                break;
            }
        }
    }
    let st = state.to_vec::<f64>()?;
    let istop = st[slot::ISTOP] as u32;
    Ok(result(x, &st, istop))
}
