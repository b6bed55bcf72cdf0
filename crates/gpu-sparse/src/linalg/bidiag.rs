//! What LSQR and LSMR share: their checks and the first step of
//! Golub-Kahan bidiagonalisation, `beta u = b - A x0`, `alpha v = A^H u`.

use std::sync::LazyLock;

use gpu_array::fusion::{FVar, FuseOptions, Fused, fuse, fx};
use gpu_array::{Array, DType, Error, Result, creation, ufunc};

use super::LinearOperator;
use super::cg::solve_dtype;

type F1 = fn(&FVar) -> FVar;

/// `|x|^2` accumulated in the call's dtype (float64 from [`F64_SUM`]).
pub(crate) fn norm2(x: &FVar) -> FVar {
    let m = fx::absolute(x);
    (&m * &m).sum(())
}

/// `|x|^2` as a 0-d array.
pub(crate) static NORM2: LazyLock<Fused<F1, (FVar,)>> =
    LazyLock::new(|| fuse("cuprum_sparse_bidiag_norm2", norm2 as F1));

/// The call options that make [`NORM2`] accumulate in float64.
pub(crate) fn f64_sum() -> FuseOptions<'static> {
    FuseOptions::default().dtype(DType::Float64)
}

/// `|x|` on the host (one synchronisation).
pub(crate) fn host_norm(x: &Array) -> Result<f64> {
    Ok(NORM2
        .call_with(&[x], &f64_sum())?
        .item::<f64>(&[])?
        .max(0.0)
        .sqrt())
}

/// The options both solvers check, in SciPy's terms.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Checked<'a> {
    pub x0: Option<&'a Array>,
    pub damp: f64,
    pub atol: f64,
    pub btol: f64,
    pub conlim: f64,
    pub check_every: usize,
}

/// The start of the bidiagonalisation: the solve's dtype, `x` (a fresh
/// copy of `x0` or zeros), the unit `u` and `v`, `alpha`, `beta` and `|b|`.
#[derive(Debug)]
pub(crate) struct Start {
    pub dtype: DType,
    pub x: Array,
    pub u: Array,
    pub v: Array,
    pub alpha: f64,
    pub beta: f64,
    pub bnorm: f64,
}

/// Checks the operator, `b` and the options, and takes the first step
/// (four host reads: the norms).
pub(crate) fn start(a: &dyn LinearOperator, b: &Array, o: Checked<'_>) -> Result<Start> {
    let (m, n) = a.shape();
    let flat = b.ndim() == 1 || (b.ndim() == 2 && b.shape()[1] == 1);
    if !flat || b.shape()[0] != m {
        return Err(Error::Value(format!(
            "shapes of A ({m}, {n}) and b {:?} are incompatible",
            b.shape()
        )));
    }
    if o.check_every == 0 {
        return Err(Error::Value("check_every must be at least 1".into()));
    }
    if !(o.damp >= 0.0 && o.atol >= 0.0 && o.btol >= 0.0 && o.conlim >= 0.0) {
        return Err(Error::Value(
            "damp, atol, btol and conlim must be non-negative".into(),
        ));
    }
    let dtype = solve_dtype(a, b)?;
    let b = b.reshape([m as isize])?.astype(dtype)?;
    let (x, u) = match o.x0 {
        None => (creation::zeros(n, dtype)?, b.copy()?),
        Some(x0) => {
            if x0.size() != n {
                return Err(Error::Value(format!(
                    "shapes of A ({m}, {n}) and x0 {:?} are incompatible",
                    x0.shape()
                )));
            }
            // astype copies: the solve updates x in place, never x0.
            let x = x0.reshape([n as isize])?.astype(dtype)?;
            let r = ufunc::subtract(&b, &a.matvec(&x)?)?.astype(dtype)?;
            (x, r)
        }
    };
    let bnorm = host_norm(&b)?;
    let beta = host_norm(&u)?;
    let scaled = |w: Array, by: f64| -> Result<Array> {
        if by > 0.0 {
            ufunc::divide(&w, by)?.astype(dtype)
        } else {
            Ok(w)
        }
    };
    let u = scaled(u, beta)?;
    let (v, alpha) = if beta > 0.0 {
        let v = a.rmatvec(&u)?.astype(dtype)?;
        let alpha = host_norm(&v)?;
        (scaled(v, alpha)?, alpha)
    } else {
        (creation::zeros(n, dtype)?, 0.0)
    };
    Ok(Start {
        dtype,
        x,
        u,
        v,
        alpha,
        beta,
        bnorm,
    })
}
