//! Conjugate gradients (SciPy's `scipy.sparse.linalg.cg`).

use std::sync::LazyLock;

use gpu_array::fusion::{FVar, FuseOptions, Fused, fuse, fx};
use gpu_array::{Array, DType, Error, Result, creation};

use super::{LinearOperator, SolveOptions};

type Fn1 = fn(&FVar) -> FVar;
type Fn2 = fn(&FVar, &FVar) -> FVar;
type Fn4 = fn(&FVar, &FVar, &FVar, &FVar) -> FVar;
type Fn6 = fn(&FVar, &FVar, &FVar, &FVar, &FVar, &FVar) -> (FVar, FVar);
type Args6 = (FVar, FVar, FVar, FVar, FVar, FVar);

/// `sum(|x|^2)`, real: the squared norm.
static NORM2: LazyLock<Fused<Fn1, (FVar,)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_norm2",
        (|x: &FVar| {
            let m = fx::absolute(x);
            (&m * &m).sum(())
        }) as Fn1,
    )
});

/// `sum(conj(x) * y)`: the inner product `x^H y`.
static DOT: LazyLock<Fused<Fn2, (FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_dot",
        (|x: &FVar, y: &FVar| (fx::conj(x) * y).sum(())) as Fn2,
    )
});

/// `p = z + beta p`, `beta = rho / rho_prev` (0 when `rho_prev` is 0).
static DIRECTION: LazyLock<Fused<Fn4, (FVar, FVar, FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_cg_direction",
        (|z: &FVar, p: &FVar, rho: &FVar, prev: &FVar| {
            let beta = fx::where_(prev.not_equal(0), rho / prev, 0);
            z + &(&beta * p)
        }) as Fn4,
    )
});

/// `(x + alpha p, r - alpha q)`, `alpha = rho / pq` (0 when `pq` is 0).
static STEP: LazyLock<Fused<Fn6, Args6>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_cg_step",
        (|x: &FVar, r: &FVar, p: &FVar, q: &FVar, rho: &FVar, pq: &FVar| {
            let alpha = fx::where_(pq.not_equal(0), rho / pq, 0);
            (x + &(&alpha * p), r - &(&alpha * q))
        }) as Fn6,
    )
});

/// The dtype a solve computes in: the promotion of the operator's and the
/// right-hand side's, at least float32 (integers solve in float64).
pub(crate) fn solve_dtype(a: &dyn LinearOperator, b: &Array) -> Result<DType> {
    let d = gpu_array::dtype::promote_types(a.dtype(), b.dtype());
    Ok(match d {
        DType::Float32 | DType::Float64 | DType::Complex64 | DType::Complex128 => d,
        DType::Float16 | DType::BFloat16 => DType::Float32,
        d if d.is_integer() || d.is_bool() => DType::Float64,
        d => {
            return Err(Error::DType(format!(
                "the iterative solvers do not take dtype {d}"
            )));
        }
    })
}

/// `||x||` on the host (one synchronisation).
pub(crate) fn host_norm(x: &Array) -> Result<f64> {
    let n2 = NORM2.call(&[x])?;
    Ok(n2.astype(DType::Float64)?.item::<f64>(&[])?.max(0.0).sqrt())
}

/// `x^H y` as a 0-d device array.
pub(crate) fn dot(x: &Array, y: &Array) -> Result<Array> {
    DOT.call(&[x, y])
}

/// The starting point of a solve: `(x, r = b - A x)` in `dtype`, 1-D.
pub(crate) fn start(
    a: &dyn LinearOperator,
    b: &Array,
    opts: &SolveOptions<'_>,
    dtype: DType,
) -> Result<(Array, Array)> {
    let n = b.shape()[0];
    let b = b.reshape([n as isize])?.astype(dtype)?;
    match opts.x0 {
        None => Ok((creation::zeros(n, dtype)?, b)),
        Some(x0) => {
            let x = x0.reshape([n as isize])?.astype(dtype)?;
            let ax = a.matvec(&x)?.astype(dtype)?;
            let r = gpu_array::ufunc::subtract(&b, &ax)?;
            Ok((x, r))
        }
    }
}

/// SciPy's `cg(A, b, x0, rtol=1e-5, atol=0., maxiter, M)`: solves `A x =
/// b` for Hermitian positive definite `A` by conjugate gradients. Returns
/// `(x, info)`: `info` 0 when `||b - A x|| < max(rtol ||b||, atol)` was
/// reached, else the iterations run (SciPy's `maxiter`). The iteration's
/// scalars stay on the device and the residual is read every
/// `opts.check_every` iterations (module docs): five kernels an iteration
/// (six with `M`), no host synchronisation between checks.
///
/// ```no_run
/// use gpu_sparse::linalg::{SolveOptions, cg};
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::eye(4, 4, 0, gpu_array::DType::Float64)?;
/// let b = gpu_array::creation::ones(4, gpu_array::DType::Float64)?;
/// let (x, info) = cg(&a, &b, &SolveOptions::default())?;
/// assert_eq!(info, 0);
/// # Ok(()) }
/// ```
///
/// # Errors
/// A non-square operator, `b` or `x0` of another length, a preconditioner
/// of another shape, negative tolerances; failures of the products.
pub fn cg(a: &dyn LinearOperator, b: &Array, opts: &SolveOptions<'_>) -> Result<(Array, usize)> {
    let n = opts.check(a, b)?;
    let dtype = solve_dtype(a, b)?;
    let bnrm = host_norm(&b.astype(dtype)?)?;
    if bnrm == 0.0 {
        return Ok((creation::zeros(n, dtype)?, 0));
    }
    let tol = (opts.rtol * bnrm).max(opts.atol);
    let maxiter = opts.maxiter.unwrap_or(n.saturating_mul(10));
    let (x, r) = start(a, b, opts, dtype)?;
    let mut p: Option<Array> = None;
    let mut rho_prev: Option<Array> = None;
    for it in 0..maxiter {
        let (z, rho) = match opts.m {
            Some(m) => {
                let z = m.matvec(&r)?.astype(dtype)?;
                let rho = dot(&r, &z)?;
                (z, rho)
            }
            None => (r.clone(), dot(&r, &r)?),
        };
        if it % opts.check_every == 0 {
            // ||r||^2 is rho without a preconditioner.
            let rr = if opts.m.is_none() {
                rho.real()
                    .astype(DType::Float64)?
                    .item::<f64>(&[])?
                    .max(0.0)
                    .sqrt()
            } else {
                host_norm(&r)?
            };
            if rr < tol {
                return Ok((x, 0));
            }
        }
        let dir = match (&p, &rho_prev) {
            (Some(p), Some(prev)) => {
                DIRECTION.call_with(&[&z, p, &rho, prev], &FuseOptions::out(&[p]))?;
                p.clone()
            }
            _ => z.copy()?,
        };
        let q = a.matvec(&dir)?.astype(dtype)?;
        let pq = dot(&dir, &q)?;
        STEP.call_with(&[&x, &r, &dir, &q, &rho, &pq], &FuseOptions::out(&[&x, &r]))?;
        p = Some(dir);
        rho_prev = Some(rho);
    }
    Ok((x, maxiter))
}
