//! Restarted GMRES (SciPy's `scipy.sparse.linalg.gmres`; Saad and Schultz,
//! SIAM J. Sci. Stat. Comput. 7(3), 1986; Saad, "Iterative Methods for
//! Sparse Linear Systems", 2nd ed., Algorithm 6.9), left-preconditioned
//! with SciPy's inner tolerance control.
//!
//! The Krylov basis is one `(restart + 1, n)` device array. The new
//! vector is orthogonalised against the basis by classical Gram-Schmidt
//! applied twice ("twice is enough": Giraud, Langou and Rozloznik, 2005,
//! as stable as modified Gram-Schmidt), so its coefficients against all
//! previous vectors are one matrix-vector product with the basis (cuBLAS,
//! through gpu-linalg) rather than one reduction a vector. The Givens
//! rotations of the Hessenberg column, the residual estimate `|g[k+1]|`
//! and the triangular solve at the end of a cycle run in one-thread
//! kernels on a float64 state vector (`kernels/gmres.cu`), so the Arnoldi
//! loop queues its work without host synchronisation; its stop flag is
//! read every `check_every` columns. Columns queued after the stop change
//! nothing that the cycle's solution uses (their basis vectors are
//! zeroed and their coefficients are 0). Each cycle ends with a few host
//! reads: the true residual `||b - A x||`, SciPy's outer test, and the
//! state for the next cycle's inner tolerance.

use std::sync::LazyLock;

use gpu_array::fusion::{FVar, FuseOptions, Fused, fuse, fx};
use gpu_array::{Array, DType, Error, Result, creation};

use super::bicgstab::precondition;
use super::cg::{host_norm, solve_dtype, start};
use super::{LinearOperator, SolveOptions};

/// Slots of the state vector (`kernels/gmres.cu` names the same numbers).
mod slot {
    pub const PRESID: usize = 0;
    pub const PTOL: usize = 1;
    pub const DONE: usize = 2;
    pub const BREAKDOWN: usize = 4;
    pub const SCALE: usize = 5;
    pub const EPS: usize = 6;
    pub const H0SQ: usize = 7;
    pub const H1SQ: usize = 8;
    pub const HEAD: usize = 16;
}

/// The offsets of the runs after the head, for restart `m`: the current
/// column (re, im), the rotations (c, s re, s im), g (re, im), R (re, im,
/// column-major `m x m`), y (re, im); and the state's length.
struct Layout {
    hc_re: usize,
    hc_im: usize,
    g_re: usize,
    y_re: usize,
    y_im: usize,
    len: usize,
}

impl Layout {
    fn new(m: usize) -> Option<Layout> {
        let hc_re = slot::HEAD;
        let hc_im = hc_re.checked_add(m.checked_add(1)?)?;
        let cs = hc_im + m + 1;
        let g_re = cs.checked_add(m.checked_mul(3)?)?;
        let g_im = g_re + m + 1;
        let r_re = g_im + m + 1;
        let r_im = r_re.checked_add(m.checked_mul(m)?)?;
        let y_re = r_im.checked_add(m * m)?;
        let y_im = y_re.checked_add(m)?;
        let len = y_im.checked_add(m)?;
        Some(Layout {
            hc_re,
            hc_im,
            g_re,
            y_re,
            y_im,
            len,
        })
    }
}

/// The length of GMRES's device state for restart `m` (for the kernels'
/// checks), `None` when it overflows.
pub(crate) fn gmres_state_len(m: usize) -> Option<usize> {
    Layout::new(m).map(|l| l.len)
}

type F1 = fn(&FVar) -> FVar;
type F2 = fn(&FVar, &FVar) -> FVar;
type F3 = fn(&FVar, &FVar, &FVar) -> FVar;

/// `sum(|x|^2)` (accumulated in float64 by the call's dtype).
static NORM2: LazyLock<Fused<F1, (FVar,)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_gmres_norm2",
        (|x: &FVar| {
            let m = fx::absolute(x);
            (&m * &m).sum(())
        }) as F1,
    )
});

static CONJ: LazyLock<Fused<F1, (FVar,)>> =
    LazyLock::new(|| fuse("cuprum_sparse_gmres_conj", (|x: &FVar| fx::conj(x)) as F1));

/// `x` as float64 (the real part of a complex `x`).
static REAL64: LazyLock<Fused<F1, (FVar,)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_gmres_real64",
        (|x: &FVar| fx::astype(x, DType::Float64)) as F1,
    )
});

static SUB: LazyLock<Fused<F2, (FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_gmres_sub",
        (|a: &FVar, b: &FVar| a - b) as F2,
    )
});

static ADD: LazyLock<Fused<F2, (FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_gmres_add",
        (|a: &FVar, b: &FVar| a + b) as F2,
    )
});

static MUL: LazyLock<Fused<F2, (FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_gmres_mul",
        (|a: &FVar, b: &FVar| a * b) as F2,
    )
});

/// `re + im * i` (`i` a 0-d complex unit of the solve's dtype).
static COMPLEX: LazyLock<Fused<F3, (FVar, FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_gmres_complex",
        (|re: &FVar, im: &FVar, i: &FVar| re + &(im * i)) as F3,
    )
});

/// `V^H w` for the rows of `v`: `conj(V @ conj(w))` (no copy of `V`).
fn coefficients(v: &Array, w: &Array, complex: bool) -> Result<Array> {
    if complex {
        let cw = CONJ.call(&[w])?;
        CONJ.call(&[&gpu_linalg::matmul(v, &cw)?])
    } else {
        gpu_linalg::matmul(v, w)
    }
}

/// SciPy's `gmres(A, b, x0, rtol=1e-5, atol=0., restart=20, maxiter, M)`:
/// solves `A x = b` for a general square `A` by GMRES restarted every
/// `restart` inner iterations (`None`: SciPy's 20; at most `n`), with
/// `maxiter` restart cycles at most (SciPy's default `10 n`). Returns
/// `(x, info)`: `info` 0 when `||b - A x|| <= max(rtol ||b||, atol)`,
/// else `maxiter`. `opts.check_every` is the number of inner iterations
/// between host reads of the inner stop flag (module docs).
///
/// ```no_run
/// use gpu_sparse::linalg::{SolveOptions, gmres};
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::eye(4, 4, 0, gpu_array::DType::Float64)?;
/// let b = gpu_array::creation::ones(4, gpu_array::DType::Float64)?;
/// let (x, info) = gmres(&a, &b, &SolveOptions::default(), None)?;
/// assert_eq!(info, 0);
/// # Ok(()) }
/// ```
///
/// # Errors
/// A non-square operator, `b` or `x0` of another length, a preconditioner
/// of another shape, negative tolerances, `restart = 0`; failures of the
/// products.
pub fn gmres(
    a: &dyn LinearOperator,
    b: &Array,
    opts: &SolveOptions<'_>,
    restart: Option<usize>,
) -> Result<(Array, usize)> {
    let n = opts.check(a, b)?;
    let dtype = solve_dtype(a, b)?;
    if restart == Some(0) {
        return Err(Error::Value("restart must be at least 1".into()));
    }
    let bd = b.reshape([n as isize])?.astype(dtype)?;
    let bnrm = host_norm(&bd)?;
    if bnrm == 0.0 {
        return Ok((creation::zeros(n, dtype)?, 0));
    }
    let atol = (opts.rtol * bnrm).max(opts.atol);
    let maxiter = opts.maxiter.unwrap_or(n.saturating_mul(10));
    let m = restart.unwrap_or(20).min(n);
    let lay = Layout::new(m).ok_or(Error::TooBig)?;
    let complex = dtype.is_complex();
    let eps = match dtype {
        DType::Float32 | DType::Complex64 => f64::from(f32::EPSILON),
        _ => f64::EPSILON,
    };
    let unit = if complex {
        Some(Array::from_slice(&[num_complex::Complex64::new(0.0, 1.0)], &[])?.astype(dtype)?)
    } else {
        None
    };
    let mb_nrm = host_norm(&precondition(opts, &bd, dtype)?)?;
    let mut ptol_max_factor = 1.0f64;
    let mut ptol = mb_nrm * ptol_max_factor.min(atol / bnrm);
    let basis = creation::zeros([m + 1, n], dtype)?;
    let row = |k: usize| basis.get_index(&gpu_array::ix![k as isize]);
    let rows = |k: usize| basis.get_index(&gpu_array::ix![..k as isize]);
    let (x, mut r) = start(a, b, opts, dtype)?;
    let mut rnorm = host_norm(&r)?;
    if rnorm < atol {
        return Ok((x, 0));
    }
    let f64_sum = FuseOptions::default().dtype(DType::Float64);
    let mut st = vec![0.0f64; lay.len];
    for _ in 0..maxiter {
        let v0 = precondition(opts, &r, dtype)?;
        let beta = host_norm(&v0)?;
        if beta == 0.0 {
            // M r = 0: nothing to build a basis from.
            break;
        }
        MUL.call_with(
            &[gpu_array::ufunc::Input::from(&v0), (1.0 / beta).into()],
            &FuseOptions::out(&[&row(0)?]),
        )?;
        st.fill(0.0);
        st[slot::PTOL] = ptol;
        st[slot::EPS] = eps;
        st[lay.g_re] = beta;
        let state = Array::from_slice(&st, &[lay.len])?;
        let at = |k: usize| state.get_index(&gpu_array::ix![k as isize]);
        let run = |lo: usize, len: usize| {
            state.get_index(&gpu_array::ix![lo as isize..(lo + len) as isize])
        };
        let (h0sq, h1sq, scale, done) = (
            at(slot::H0SQ)?,
            at(slot::H1SQ)?,
            at(slot::SCALE)?,
            at(slot::DONE)?,
        );
        for col in 0..m {
            let av = a.matvec(&row(col)?)?.astype(dtype)?;
            let w = precondition(opts, &av, dtype)?;
            // `w` is a fresh array (the product's cast), updated in place.
            NORM2.call_with(&[&w], &f64_sum.clone().out_optional(&[Some(&h0sq)]))?;
            // Classical Gram-Schmidt, twice.
            let vk = rows(col + 1)?;
            let h = coefficients(&vk, &w, complex)?;
            SUB.call_with(
                &[&w, &gpu_linalg::matmul(&h, &vk)?],
                &FuseOptions::out(&[&w]),
            )?;
            let h2 = coefficients(&vk, &w, complex)?;
            SUB.call_with(
                &[&w, &gpu_linalg::matmul(&h2, &vk)?],
                &FuseOptions::out(&[&w]),
            )?;
            let h = ADD.call(&[&h, &h2])?;
            REAL64.call_with(
                &[&h.real()],
                &FuseOptions::out(&[&run(lay.hc_re, col + 1)?]),
            )?;
            if complex {
                REAL64.call_with(
                    &[&h.imag()?],
                    &FuseOptions::out(&[&run(lay.hc_im, col + 1)?]),
                )?;
            }
            NORM2.call_with(&[&w], &f64_sum.clone().out_optional(&[Some(&h1sq)]))?;
            crate::kernels::gmres_column(&state, m, col)?;
            MUL.call_with(&[&w, &scale], &FuseOptions::out(&[&row(col + 1)?]))?;
            if (col + 1) % opts.check_every == 0 && col + 1 < m && done.item::<f64>(&[])? != 0.0 {
                break;
            }
        }
        // x += y @ V[:m] (y is 0 past the columns used).
        crate::kernels::gmres_solve(&state, m)?;
        let yr = run(lay.y_re, m)?;
        let y = match &unit {
            Some(i) => COMPLEX.call(&[&yr, &run(lay.y_im, m)?, i])?.astype(dtype)?,
            None => yr.astype(dtype)?,
        };
        let dx = gpu_linalg::matmul(&y, &rows(m)?)?;
        ADD.call_with(&[&x, &dx], &FuseOptions::out(&[&x]))?;
        let ax = a.matvec(&x)?.astype(dtype)?;
        r = SUB.call(&[&bd, &ax])?;
        rnorm = host_norm(&r)?;
        let st_now = state.to_vec::<f64>()?;
        let presid = st_now[slot::PRESID];
        if rnorm <= atol || st_now[slot::BREAKDOWN] != 0.0 {
            // Converged, or reached an exact solution of the
            // preconditioned system that failed the outer test.
            break;
        }
        ptol_max_factor = if presid <= ptol {
            // The inner loop passed but the outer test did not.
            (0.25 * ptol_max_factor).max(eps)
        } else {
            (1.5 * ptol_max_factor).min(1.0)
        };
        ptol = presid * ptol_max_factor.min(atol / rnorm);
    }
    let info = if rnorm <= atol { 0 } else { maxiter };
    Ok((x, info))
}
