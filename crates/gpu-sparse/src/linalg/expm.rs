//! `expm_multiply` (SciPy's `scipy.sparse.linalg.expm_multiply`): the
//! action `exp(t A) B` of the exponential of a sparse matrix without
//! forming it, by Al-Mohy and Higham's truncated Taylor series with
//! scaling ("Computing the action of the matrix exponential, with an
//! application to exponential integrators", SIAM J. Sci. Comput. 33(2),
//! 2011, Algorithm 3.2).
//!
//! The parameters `(m*, s)` (Taylor degree and number of steps) come from
//! the paper's cost `m * ceil(|t A|_1 / theta_m)`, minimised over the
//! degrees of its table (`theta_m` for a backward error of `2^-53`,
//! Higham's "Functions of Matrices", Table A.3, and the paper's Table
//! 3.1). The paper's sharper choice uses estimates of
//! `|A^p|_1^(1/p)` (a block 1-norm estimator on powers of `A`); this
//! implementation uses their bound `|A|_1` in their place (the paper's
//! own choice when `|A|_1` is small, its condition (3.13)), computed
//! exactly: the parameters may take more products than needed for a
//! matrix whose powers shrink fast (non-normal, nilpotent parts), never
//! fewer, so the accuracy is the paper's. The same table serves float32
//! (more accurate than its precision asks). `A` is shifted by
//! `mu = trace(A) / n` first, as in the paper. Each product is followed by
//! one host read of the term's infinity norm for the early-termination
//! test.

use gpu_array::{Array, DType, Error, Result, ufunc};
use num_complex::Complex64;

use super::eigen::eig_dtype;
use super::norm::{NormOrd, norm};
use crate::SpMatrix;

/// `(m, theta_m)` for a unit roundoff of `2^-53`.
const THETA: [(usize, f64); 35] = [
    (1, 2.29e-16),
    (2, 2.58e-8),
    (3, 1.39e-5),
    (4, 3.40e-4),
    (5, 2.40e-3),
    (6, 9.07e-3),
    (7, 2.38e-2),
    (8, 5.00e-2),
    (9, 8.96e-2),
    (10, 1.44e-1),
    (11, 2.14e-1),
    (12, 3.00e-1),
    (13, 4.00e-1),
    (14, 5.14e-1),
    (15, 6.41e-1),
    (16, 7.81e-1),
    (17, 9.31e-1),
    (18, 1.09),
    (19, 1.26),
    (20, 1.44),
    (21, 1.62),
    (22, 1.82),
    (23, 2.01),
    (24, 2.22),
    (25, 2.43),
    (26, 2.64),
    (27, 2.86),
    (28, 3.08),
    (29, 3.31),
    (30, 3.54),
    (35, 4.7),
    (40, 6.0),
    (45, 7.2),
    (50, 8.5),
    (55, 9.9),
];

/// The degree and number of steps for `|t A|_1 = norm`: the least cost
/// `m s` with `s = ceil(norm / theta_m)` (at least 1).
fn parameters(norm: f64) -> Result<(usize, usize)> {
    if norm == 0.0 {
        return Ok((0, 1));
    }
    if !norm.is_finite() {
        return Err(Error::Value(
            "expm_multiply: the norm of t A is not finite".into(),
        ));
    }
    let mut best: Option<(usize, usize)> = None;
    for &(m, theta) in &THETA {
        let s = (norm / theta).ceil().max(1.0);
        if s > 1e15 {
            continue;
        }
        let s = s as usize;
        let cost = m.checked_mul(s).ok_or(Error::TooBig)?;
        if best.is_none_or(|(bm, bs)| cost < bm * bs) {
            best = Some((m, s));
        }
    }
    best.ok_or(Error::TooBig)
}

/// `max_i sum_j |x_ij|` (the largest `|x_i|` of a vector), on the host.
fn inf_norm(x: &Array) -> Result<f64> {
    let a = ufunc::absolute(x)?;
    let rows = if a.ndim() == 2 { a.sum(1isize)? } else { a };
    rows.max(())?.astype(DType::Float64)?.item::<f64>(&[])
}

/// `x * c` in `x`'s dtype (`c` complex only for complex `x`).
fn scale(x: &Array, c: Complex64) -> Result<Array> {
    if x.dtype().is_complex() {
        ufunc::multiply(x, c)
    } else {
        ufunc::multiply(x, c.re)
    }
}

/// SciPy's `expm_multiply(A, B)` at the time `t` (SciPy's `expm_multiply(t
/// * A, B)`): `exp(t A) @ B` for a square sparse `A` and a 1-D or 2-D
/// dense `B`, without forming `exp(t A)`. The module docs say which
/// parameters it takes and why (the 1-norms of the powers of `A` are
/// bounded by `|A|_1`). SciPy's time grid (`start`, `stop`, `num`,
/// `endpoint`) is not offered: call once per time.
///
/// ```no_run
/// use gpu_sparse::linalg::expm_multiply;
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::eye(4, 4, 0, gpu_array::DType::Float64)?;
/// let b = gpu_array::creation::ones(4, gpu_array::DType::Float64)?;
/// let y = expm_multiply(&a, &b, 1.0)?; // e * ones
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's "expected A to be like a square matrix", incompatible shapes of
/// `A` and `B`, a non-finite `t |A|_1`; failures of the products.
pub fn expm_multiply(a: &dyn SpMatrix, b: &Array, t: f64) -> Result<Array> {
    let (n, cols) = a.shape();
    if n != cols {
        return Err(Error::Value("expected A to be like a square matrix".into()));
    }
    if b.ndim() == 0 || b.ndim() > 2 || b.shape()[0] != n {
        return Err(Error::Value(format!(
            "shapes of matrices A ({n}, {cols}) and B {:?} are incompatible",
            b.shape()
        )));
    }
    let dtype = eig_dtype(gpu_array::dtype::promote_types(a.dtype(), b.dtype()))?;
    let b = b.astype(dtype)?;
    if n == 0 || b.size() == 0 {
        return Ok(b);
    }
    let csr = a.tocsr()?.astype(dtype)?;
    let trace = csr
        .trace(0)?
        .astype(DType::Complex128)?
        .item::<Complex64>(&[])?;
    let mu = trace / n as f64;
    let shift = if dtype.is_complex() {
        gpu_array::dtype::ScalarValue::Complex(mu)
    } else {
        gpu_array::dtype::ScalarValue::Float(mu.re)
    };
    let shifted = csr.sub(&crate::identity(n, dtype)?.mul_scalar(shift)?)?;
    let norm1 = norm(&shifted, Some(NormOrd::P(1.0)), None)?
        .astype(DType::Float64)?
        .item::<f64>(&[])?;
    let (m, s) = parameters(t.abs() * norm1)?;
    let tol = 2f64.powi(-53);
    let eta = (mu * t / s as f64).exp();
    let mut f = b.copy()?;
    let mut term = b;
    for _ in 0..s {
        let mut c1 = inf_norm(&term)?;
        for j in 1..=m {
            let coeff = t / (s as f64 * j as f64);
            term = scale(
                &shifted.dot(&term)?.astype(dtype)?,
                Complex64::new(coeff, 0.0),
            )?;
            let c2 = inf_norm(&term)?;
            f = ufunc::add(&f, &term)?.astype(dtype)?;
            if c1 + c2 <= tol * inf_norm(&f)? {
                break;
            }
            c1 = c2;
        }
        f = scale(&f, eta)?.astype(dtype)?;
        term = f.clone();
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::parameters;

    #[test]
    fn parameters_minimise_the_products() {
        assert_eq!(parameters(0.0).unwrap(), (0, 1));
        // |tA| = 1: degree 18 in one step beats any degree in more steps.
        let (m, s) = parameters(1.0).unwrap();
        assert_eq!(s, 1);
        assert_eq!(m, 18);
        // A large norm: many steps of a high degree.
        let (m, s) = parameters(100.0).unwrap();
        assert!(m >= 40 && s * m <= 100 * 55 / 9, "{m} {s}");
        assert!(parameters(f64::INFINITY).is_err());
    }
}
