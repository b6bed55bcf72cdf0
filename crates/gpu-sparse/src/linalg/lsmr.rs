//! LSMR (SciPy's `scipy.sparse.linalg.lsmr`): least squares by
//! Golub-Kahan bidiagonalisation, minimising `|A^H r|` rather than `|r|`
//! over the Krylov subspace (Fong and Saunders, SIAM J. Sci. Comput.
//! 33(5), 2011).
//!
//! As [`lsqr`](super::lsqr): the vectors are updated by fused kernels and
//! the scalar recurrences (the rotations, the estimates of `|r|`,
//! `|A^H r|`, `|A|` and `cond(A)`, the stopping tests) run in one-thread
//! kernels on a float64 state vector in device memory
//! (`kernels/lsmr.cu`), so an iteration queues its work without a host
//! synchronisation. The stopping flag is read every `check_every`
//! iterations; once a test has stopped the iteration, the iterations
//! queued before the read change nothing (every update is gated on the
//! state's `live` slot), so the results are those of the iteration that
//! stopped, as SciPy's.

use std::sync::LazyLock;

use gpu_array::fusion::{FVar, FuseOptions, Fused, fuse, fx};
use gpu_array::{Array, DType, Result, creation};

use super::LinearOperator;
use super::bidiag::NORM2;
use crate::kernels::LsmrStep;

/// Slots of the state vector (`kernels/lsmr.cu` names the same numbers).
mod slot {
    pub const ALPHA: usize = 0;
    pub const BETA: usize = 1;
    pub const ALPHABAR: usize = 2;
    pub const RHO: usize = 3;
    pub const RHOBAR: usize = 4;
    pub const CBAR: usize = 5;
    pub const ZETABAR: usize = 8;
    pub const BETADD: usize = 9;
    pub const RHODOLD: usize = 11;
    pub const NORMA2: usize = 15;
    pub const MINRBAR: usize = 17;
    pub const NORMA: usize = 18;
    pub const CONDA: usize = 19;
    pub const NORMX: usize = 20;
    pub const NORMR: usize = 21;
    pub const NORMAR: usize = 22;
    pub const ISTOP: usize = 23;
    pub const ITN: usize = 24;
    pub const LIVE: usize = 25;
    pub const INV_BETA: usize = 26;
    pub const BETA_POS: usize = 27;
    pub const V_SCALE: usize = 28;
    pub const C_HBAR: usize = 29;
    pub const C_X: usize = 30;
    pub const C_H: usize = 31;
    pub const NORMB: usize = 32;
    pub const DAMP: usize = 33;
    pub const ATOL: usize = 34;
    pub const BTOL: usize = 35;
    pub const CTOL: usize = 36;
    pub const MAXITER: usize = 37;
    /// The state's length.
    pub const LEN: usize = super::super::LSMR_STATE_LEN;
}

/// LSMR's keywords (SciPy's names and defaults).
///
/// ```no_run
/// let opts = gpu_sparse::linalg::LsmrOptions { damp: 0.5, atol: 1e-10, btol: 1e-10, ..Default::default() };
/// ```
#[derive(Debug, Clone, Copy)]
pub struct LsmrOptions<'a> {
    /// Damping: minimise `|A x - b|^2 + damp^2 |x|^2`.
    pub damp: f64,
    /// Stopping tolerance on the estimates of `|A|`, `|x|` and `|A^H r|`.
    pub atol: f64,
    /// Stopping tolerance on `|b|`.
    pub btol: f64,
    /// Stop when the estimate of `cond(A)` exceeds this (0: never).
    pub conlim: f64,
    /// Most iterations (SciPy's default `min(m, n)` when `None`).
    pub maxiter: Option<usize>,
    /// The starting guess (zeros when `None`).
    pub x0: Option<&'a Array>,
    /// Iterations between host reads of the stopping flag (at least 1).
    pub check_every: usize,
}

impl Default for LsmrOptions<'_> {
    fn default() -> Self {
        LsmrOptions {
            damp: 0.0,
            atol: 1e-6,
            btol: 1e-6,
            conlim: 1e8,
            maxiter: None,
            x0: None,
            check_every: 10,
        }
    }
}

/// What [`lsmr`] returns: SciPy's tuple.
#[derive(Debug)]
pub struct Lsmr {
    /// The solution.
    pub x: Array,
    /// Why the iteration stopped: SciPy's `istop` (0: `x = 0` solves it;
    /// 1, 2: converged; 3, 6: `cond(A)` too large; 4, 5: converged to
    /// machine precision; 7: `maxiter` reached).
    pub istop: u32,
    /// Iterations run.
    pub itn: usize,
    /// The estimate of `|b - A x|` (with damping: of `|[b; 0] - [A;
    /// damp I] x|`).
    pub normr: f64,
    /// The estimate of `|A^H (b - A x) - damp^2 x|`.
    pub normar: f64,
    /// The estimate of the Frobenius norm of `[A; damp I]`.
    pub norma: f64,
    /// The estimate of `cond([A; damp I])`.
    pub conda: f64,
    /// `|x|`.
    pub normx: f64,
}

type F2 = fn(&FVar, &FVar) -> FVar;
type F3 = fn(&FVar, &FVar, &FVar) -> FVar;
type F4 = fn(&FVar, &FVar, &FVar, &FVar) -> FVar;
type Args8 = (FVar, FVar, FVar, FVar, FVar, FVar, FVar, FVar);
type F8 = fn(&FVar, &FVar, &FVar, &FVar, &FVar, &FVar, &FVar, &FVar) -> (FVar, FVar, FVar);

/// `u = live ? Av - alpha u : u` (also `v = ... A^H u - beta v`).
static STEP: LazyLock<Fused<F4, (FVar, FVar, FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_lsmr_step",
        (|prod: &FVar, u: &FVar, c: &FVar, live: &FVar| {
            fx::where_(live.not_equal(0), prod - &(c * u), u)
        }) as F4,
    )
});

/// `u = live ? u * s : u`.
static SCALE: LazyLock<Fused<F3, (FVar, FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_lsmr_scale",
        (|u: &FVar, s: &FVar, live: &FVar| fx::where_(live.not_equal(0), u * s, u)) as F3,
    )
});

/// `live * beta_pos`: the gate of the v update.
static BOTH: LazyLock<Fused<F2, (FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_lsmr_both",
        (|a: &FVar, b: &FVar| a * b) as F2,
    )
});

/// When live: `hbar' = h + c_hbar hbar`, `x' = x + c_x hbar'`, `h' = v +
/// c_h h` (`v` already normalised); returns `(h', hbar', x')`.
static UPDATE: LazyLock<Fused<F8, Args8>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_lsmr_update",
        (|v: &FVar,
          h: &FVar,
          hbar: &FVar,
          x: &FVar,
          c_hbar: &FVar,
          c_x: &FVar,
          c_h: &FVar,
          live: &FVar| {
            let on = live.not_equal(0);
            let hbar1 = h + &(c_hbar * hbar);
            let x1 = x + &(c_x * &hbar1);
            let h1 = v + &(c_h * h);
            (
                fx::where_(&on, &h1, h),
                fx::where_(&on, &hbar1, hbar),
                fx::where_(&on, &x1, x),
            )
        }) as F8,
    )
});

/// SciPy's `lsmr(A, b, damp, atol, btol, conlim, maxiter, x0=...)`: the
/// least-squares solution of `A x = b` (or of the damped problem) for any
/// [`LinearOperator`] with `rmatvec`, by Fong and Saunders' LSMR, whose
/// `|A^H r|` decreases monotonically (so stopping early is safer than
/// with LSQR). The module docs say how it avoids host synchronisation;
/// `opts.check_every` trades reads against work queued after the stop.
///
/// ```no_run
/// use gpu_sparse::linalg::{LsmrOptions, lsmr};
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::eye(5, 3, 0, gpu_array::DType::Float64)?; // overdetermined
/// let b = gpu_array::creation::ones(5, gpu_array::DType::Float64)?;
/// let r = lsmr(&a, &b, &LsmrOptions::default())?;
/// assert!(r.istop == 1 || r.istop == 2); // x = [1, 1, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `b` of another length than the operator's rows, `x0` of another length
/// than its columns, negative `damp`, `atol`, `btol` or `conlim`,
/// `check_every = 0`; an operator without `rmatvec`.
pub fn lsmr(a: &dyn LinearOperator, b: &Array, opts: &LsmrOptions<'_>) -> Result<Lsmr> {
    let (m, n) = a.shape();
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
        bnorm: normb,
    } = super::bidiag::start(a, b, checked)?;
    let maxiter = opts.maxiter.unwrap_or(m.min(n));
    let result = |x: Array, st: &[f64], istop: u32| Lsmr {
        x,
        istop,
        itn: st[slot::ITN] as usize,
        normr: st[slot::NORMR],
        normar: st[slot::NORMAR],
        norma: st[slot::NORMA],
        conda: st[slot::CONDA],
        normx: st[slot::NORMX],
    };
    let mut st = vec![0.0f64; slot::LEN];
    st[slot::ALPHA] = alpha;
    st[slot::BETA] = beta;
    st[slot::ALPHABAR] = alpha;
    st[slot::RHO] = 1.0;
    st[slot::RHOBAR] = 1.0;
    st[slot::CBAR] = 1.0;
    st[slot::ZETABAR] = alpha * beta;
    st[slot::BETADD] = beta;
    st[slot::RHODOLD] = 1.0;
    st[slot::NORMA2] = alpha * alpha;
    st[slot::MINRBAR] = 1e100;
    st[slot::NORMA] = alpha;
    st[slot::CONDA] = 1.0;
    st[slot::NORMR] = beta;
    st[slot::NORMAR] = alpha * beta;
    st[slot::LIVE] = 1.0;
    st[slot::INV_BETA] = 1.0;
    st[slot::V_SCALE] = 1.0;
    st[slot::NORMB] = normb;
    st[slot::DAMP] = opts.damp;
    st[slot::ATOL] = opts.atol;
    st[slot::BTOL] = opts.btol;
    st[slot::CTOL] = if opts.conlim > 0.0 {
        1.0 / opts.conlim
    } else {
        0.0
    };
    st[slot::MAXITER] = maxiter as f64;
    if alpha * beta == 0.0 {
        // x0 solves the normal equations already (SciPy's istop 0).
        return Ok(result(x, &st, 0));
    }
    if normb == 0.0 {
        // b = 0: x = 0, whatever x0 was (SciPy's early exit).
        return Ok(result(creation::zeros(n, dtype)?, &st, 0));
    }
    if maxiter == 0 {
        return Ok(result(x, &st, 0));
    }
    let state = Array::from_slice(&st, &[slot::LEN])?;
    let at = |k: usize| state.get_index(&gpu_array::ix![k as isize]);
    let (s_alpha, s_beta, s_live) = (at(slot::ALPHA)?, at(slot::BETA)?, at(slot::LIVE)?);
    let (s_inv_beta, s_scale, s_beta_pos) =
        (at(slot::INV_BETA)?, at(slot::V_SCALE)?, at(slot::BETA_POS)?);
    let (s_chbar, s_cx, s_ch) = (at(slot::C_HBAR)?, at(slot::C_X)?, at(slot::C_H)?);
    let h = v.copy()?;
    let hbar = creation::zeros(n, dtype)?;
    let f64_sum = FuseOptions::default().dtype(DType::Float64);
    for it in 1..=maxiter {
        // u = A v - alpha u; beta = |u|; u /= beta.
        let av = a.matvec(&v)?.astype(dtype)?;
        STEP.call_with(&[&av, &u, &s_alpha, &s_live], &FuseOptions::out(&[&u]))?;
        let beta2 = NORM2.call_with(&[&u], &f64_sum)?;
        crate::kernels::lsmr_step(&state, &beta2, LsmrStep::Beta)?;
        SCALE.call_with(&[&u, &s_inv_beta, &s_live], &FuseOptions::out(&[&u]))?;
        // v = A^H u - beta v (when beta > 0); alpha = |v|; the rotations.
        let ahu = a.rmatvec(&u)?.astype(dtype)?;
        let gate = BOTH.call(&[&s_live, &s_beta_pos])?;
        STEP.call_with(&[&ahu, &v, &s_beta, &gate], &FuseOptions::out(&[&v]))?;
        let alpha2 = NORM2.call_with(&[&v], &f64_sum)?;
        crate::kernels::lsmr_step(&state, &alpha2, LsmrStep::Alpha)?;
        // v /= alpha; hbar, x and h.
        SCALE.call_with(&[&v, &s_scale, &s_live], &FuseOptions::out(&[&v]))?;
        UPDATE.call_with(
            &[&v, &h, &hbar, &x, &s_chbar, &s_cx, &s_ch, &s_live],
            &FuseOptions::out(&[&h, &hbar, &x]),
        )?;
        let xx = NORM2.call_with(&[&x], &f64_sum)?;
        crate::kernels::lsmr_step(&state, &xx, LsmrStep::Test)?;
        if it % opts.check_every == 0 || it == maxiter {
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
