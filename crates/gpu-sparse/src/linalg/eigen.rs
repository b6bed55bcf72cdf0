//! Eigenvalues of Hermitian operators and singular values of any operator
//! (SciPy's `eigsh` and `svds`), by thick-restart Lanczos with full
//! reorthogonalisation (Wu and Simon, "Thick-restart Lanczos method for
//! large symmetric eigenvalue problems", SIAM J. Matrix Anal. Appl. 22(2),
//! 2000; in the Krylov-Schur form of Stewart, SIAM J. Matrix Anal. Appl.
//! 23(3), 2001).
//!
//! The Lanczos basis is one `(ncv + 1, n)` device array. Each new vector
//! `A v_j` is orthogonalised against every basis vector by classical
//! Gram-Schmidt applied twice, as products with the basis (cuBLAS through
//! gpu-linalg), so the basis stays orthonormal to working precision and no
//! spurious copies of converged eigenvalues appear. The coefficients of
//! each column (a column of the Rayleigh quotient `T = V^H A V`) and the
//! norm of the remainder stay on the device, in a `(ncv, ncv + 1)` array,
//! until the basis is full: a cycle of `ncv - p` Lanczos steps queues its
//! kernels without a host synchronisation.
//!
//! Once a cycle (one restart): the Rayleigh quotient is read back (one
//! host synchronisation), its small `m x m` Hermitian eigenproblem is
//! solved by gpu-linalg's `eigh` (cuSOLVER) and read back, and ARPACK's
//! test decides convergence: a Ritz pair `(theta, y)` has the residual
//! `|A x - theta x| = beta_m |y_m|`, accepted when it is at most
//! `tol * max(eps^(2/3), |theta|)` (or below `m eps |T|`, the noise of
//! that estimate, so that eigenvalues near 0 converge at the default
//! `tol = eps`). Otherwise the `p` most wanted Ritz
//! vectors (`p = (k + ncv) / 2`, at least `k`) become the first basis
//! vectors (`V[:p] = Y[:, :p]^T V`), the residual vector follows them,
//! and the next cycle extends the basis again. A breakdown (an invariant
//! subspace found before the basis is full) keeps all its Ritz vectors and
//! continues from a random vector orthogonal to them, as ARPACK does.

use std::sync::LazyLock;

use gpu_array::fusion::{FVar, FuseOptions, Fused, fuse, fx};
use gpu_array::{Array, DType, Error, Result, creation};
use num_complex::Complex64;

use super::LinearOperator;

/// Which eigenvalues [`eigsh`] finds (SciPy's `which`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// `"LM"`: largest magnitude (SciPy's default).
    LM,
    /// `"SM"`: smallest magnitude (slow without shift-invert, as in SciPy).
    SM,
    /// `"LA"`: largest algebraic.
    LA,
    /// `"SA"`: smallest algebraic.
    SA,
    /// `"BE"`: `k / 2` from each end of the spectrum, one more from the
    /// high end when `k` is odd ([`eigsh`] only).
    BE,
}

impl Which {
    /// The sort key: the most wanted Ritz values first.
    fn key(self, theta: f64) -> f64 {
        match self {
            Which::LM => -theta.abs(),
            Which::SM => theta.abs(),
            // BE is two runs, LA and SA (eigsh); never a Lanczos order.
            Which::LA | Which::BE => -theta,
            Which::SA => theta,
        }
    }
}

impl std::str::FromStr for Which {
    type Err = Error;

    fn from_str(s: &str) -> Result<Which> {
        match s {
            "LM" => Ok(Which::LM),
            "SM" => Ok(Which::SM),
            "LA" => Ok(Which::LA),
            "SA" => Ok(Which::SA),
            "BE" => Ok(Which::BE),
            _ => Err(Error::Value("which must be one of LM SM LA SA BE".into())),
        }
    }
}

/// [`eigsh`]'s keywords (SciPy's names and defaults; no `sigma`:
/// shift-invert mode is not offered).
///
/// ```no_run
/// let opts = gpu_sparse::linalg::EigshOptions { tol: 1e-10, ncv: Some(30), ..Default::default() };
/// ```
#[derive(Debug, Clone, Copy)]
pub struct EigshOptions<'a> {
    /// The starting vector (a fixed pseudo-random one when `None`).
    pub v0: Option<&'a Array>,
    /// Lanczos vectors kept (SciPy's default `min(n, max(2k + 1, 20))`);
    /// `k < ncv <= n`.
    pub ncv: Option<usize>,
    /// Most restarts (SciPy's default `10 n`).
    pub maxiter: Option<usize>,
    /// Relative accuracy of the eigenvalues (0: machine precision).
    pub tol: f64,
    /// Whether to compute the eigenvectors.
    pub return_eigenvectors: bool,
}

impl Default for EigshOptions<'_> {
    fn default() -> Self {
        EigshOptions {
            v0: None,
            ncv: None,
            maxiter: None,
            tol: 0.0,
            return_eigenvectors: true,
        }
    }
}

type F1 = fn(&FVar) -> FVar;
type F2 = fn(&FVar, &FVar) -> FVar;
type F3Pair = fn(&FVar, &FVar, &FVar) -> (FVar, FVar);

/// `sum(|x|^2)` (accumulated in float64 by the call's dtype).
static NORM2: LazyLock<Fused<F1, (FVar,)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_eigsh_norm2",
        (|x: &FVar| {
            let m = fx::absolute(x);
            (&m * &m).sum(())
        }) as F1,
    )
});

static CONJ: LazyLock<Fused<F1, (FVar,)>> =
    LazyLock::new(|| fuse("cuprum_sparse_eigsh_conj", (|x: &FVar| fx::conj(x)) as F1));

static SUB: LazyLock<Fused<F2, (FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_eigsh_sub",
        (|a: &FVar, b: &FVar| a - b) as F2,
    )
});

static ADD: LazyLock<Fused<F2, (FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_eigsh_add",
        (|a: &FVar, b: &FVar| a + b) as F2,
    )
});

static MUL: LazyLock<Fused<F2, (FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_eigsh_mul",
        (|a: &FVar, b: &FVar| a * b) as F2,
    )
});

/// Breakdown threshold: a remainder at most this times `|A v_j|` means
/// `A v_j` lies in the basis' span (to rounding after two Gram-Schmidt
/// passes).
const BREAKDOWN: f64 = 16.0;

/// From `|w|^2` after and `|A v_j|^2` before orthogonalisation and the
/// threshold `c = BREAKDOWN eps`, in float64: `(scale, beta)`, `1/|w|`
/// and `|w|`, both 0 on a breakdown (`|w| <= c |A v_j|`).
static BETA: LazyLock<Fused<F3Pair, (FVar, FVar, FVar)>> = LazyLock::new(|| {
    fuse(
        "cuprum_sparse_eigsh_beta",
        (|w2: &FVar, h2: &FVar, eps: &FVar| {
            let beta = fx::sqrt(fx::maximum(w2, 0.0));
            let h0 = fx::sqrt(fx::maximum(h2, 0.0));
            let brk = beta.less_equal(eps * &h0);
            (
                fx::where_(&brk, 0.0, 1.0 / &beta),
                fx::where_(&brk, 0.0, &beta),
            )
        }) as F3Pair,
    )
});

/// The dtype an eigenproblem of `dtype` computes in: float32, float64,
/// complex64 or complex128 (integers and bools in float64).
pub(crate) fn eig_dtype(dtype: DType) -> Result<DType> {
    Ok(match dtype {
        DType::Float32 | DType::Float64 | DType::Complex64 | DType::Complex128 => dtype,
        DType::Float16 | DType::BFloat16 => DType::Float32,
        d if d.is_integer() || d.is_bool() => DType::Float64,
        d => {
            return Err(Error::DType(format!(
                "eigsh and svds do not take dtype {d}"
            )));
        }
    })
}

/// The real dtype of the precision of `dtype`.
fn real_dtype(dtype: DType) -> DType {
    match dtype {
        DType::Float32 | DType::Complex64 => DType::Float32,
        _ => DType::Float64,
    }
}

/// Machine epsilon of `dtype`'s precision.
fn epsilon(dtype: DType) -> f64 {
    match real_dtype(dtype) {
        DType::Float32 => f64::from(f32::EPSILON),
        _ => f64::EPSILON,
    }
}

/// `V^H w` for the rows `V` of `v`: `conj(V @ conj(w))` (no copy of `V`).
fn coefficients(v: &Array, w: &Array, complex: bool) -> Result<Array> {
    if complex {
        let cw = CONJ.call(&[w])?;
        CONJ.call(&[&gpu_linalg::matmul(v, &cw)?])
    } else {
        gpu_linalg::matmul(v, w)
    }
}

/// `|x|` on the host.
fn host_norm(x: &Array) -> Result<f64> {
    Ok(NORM2
        .call_with(&[x], &FuseOptions::default().dtype(DType::Float64))?
        .item::<f64>(&[])?
        .max(0.0)
        .sqrt())
}

/// The elements of a device array as complex128 on the host.
fn host_complex(a: &Array) -> Result<Vec<Complex64>> {
    a.astype(DType::Complex128)?.to_vec::<Complex64>()
}

/// `n` pseudo-random values in `[-1, 1)` (a fixed LCG: runs repeat).
fn random_vector(n: usize, seed: u64, dtype: DType) -> Result<Array> {
    let mut s = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(0x2545_F491_4F6C_DD1D);
    let v: Vec<f64> = (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((s >> 11) as f64) / ((1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect();
    Array::from_slice(&v, &[n])?.astype(dtype)
}

/// A small matrix on the host as a device array of `dtype`, row-major.
fn upload(m: &[Complex64], shape: [usize; 2], dtype: DType) -> Result<Array> {
    if dtype.is_complex() {
        Array::from_slice(m, &shape)?.astype(dtype)
    } else {
        let re: Vec<f64> = m.iter().map(|z| z.re).collect();
        Array::from_slice(&re, &shape)?.astype(dtype)
    }
}

/// What the Lanczos iteration found: the eigenvalues (ascending) and,
/// when asked, the eigenvectors as the rows of a `(k, n)` array.
pub(crate) struct Eigen {
    pub values: Vec<f64>,
    pub rows: Option<Array>,
    pub dtype: DType,
}

/// The checks of SciPy's `eigsh` and its defaults: `(n, ncv, maxiter)`.
fn check(
    a: &dyn LinearOperator,
    k: usize,
    opts: &EigshOptions<'_>,
) -> Result<(usize, usize, usize)> {
    let (rows, cols) = a.shape();
    if rows != cols {
        return Err(Error::Value(format!(
            "expected square matrix (shape=({rows}, {cols}))"
        )));
    }
    let n = rows;
    if k == 0 {
        return Err(Error::Value("k must be greater than 0.".into()));
    }
    if k >= n {
        // SciPy falls back to the dense `eigh` here (or raises for a
        // LinearOperator); gpu-linalg's `eigh` of the dense matrix is the
        // route on the GPU.
        return Err(Error::Value(format!("k must be less than ndim(A), k={k}")));
    }
    let two_k1 = k.checked_mul(2).and_then(|x| x.checked_add(1));
    let ncv = match opts.ncv {
        Some(ncv) => ncv,
        None => two_k1.map_or(n, |x| x.max(20)).min(n),
    };
    if ncv > n || ncv <= k {
        return Err(Error::Value(format!("ncv must be k<ncv<=n, ncv={ncv}")));
    }
    let maxiter = opts.maxiter.unwrap_or(n.saturating_mul(10));
    if maxiter == 0 {
        return Err(Error::Value(format!(
            "maxiter must be positive, maxiter={maxiter}"
        )));
    }
    if opts.tol.is_nan() || opts.tol < 0.0 {
        return Err(Error::Value(format!(
            "tol must be non-negative, tol={}",
            opts.tol
        )));
    }
    if let Some(v0) = opts.v0
        && v0.size() != n
    {
        return Err(Error::Value(format!(
            "v0 has shape {:?}, expected ({n},)",
            v0.shape()
        )));
    }
    Ok((n, ncv, maxiter))
}

/// The Lanczos iteration behind [`eigsh`] and [`svds`].
pub(crate) fn lanczos(
    a: &dyn LinearOperator,
    k: usize,
    which: Which,
    opts: &EigshOptions<'_>,
) -> Result<Eigen> {
    let (n, ncv, maxiter) = check(a, k, opts)?;
    let dtype = eig_dtype(a.dtype())?;
    let complex = dtype.is_complex();
    let eps = epsilon(dtype);
    let tol = if opts.tol > 0.0 { opts.tol } else { eps };
    let eps23 = eps.powf(2.0 / 3.0);
    let stride = ncv + 1;
    let basis = creation::zeros([stride, n], dtype)?;
    // Row j holds column j of the Rayleigh quotient: the coefficients
    // against rows 0..=j, then the remainder's norm at j + 1.
    let coef = creation::zeros([ncv, stride], dtype)?;
    let row = |j: usize| basis.get_index(&gpu_array::ix![j as isize]);
    let rows = |j: usize| basis.get_index(&gpu_array::ix![..j as isize]);
    let coef_run =
        |j: usize, len: usize| coef.get_index(&gpu_array::ix![j as isize, ..len as isize]);
    let coef_at = |j: usize, i: usize| coef.get_index(&gpu_array::ix![j as isize, i as isize]);
    let brk_eps = Array::from_slice(&[BREAKDOWN * eps], &[])?;
    let f64_sum = FuseOptions::default().dtype(DType::Float64);
    let same_kind = gpu_array::dtype::Casting::SameKind;

    // The first vector: v0 or a random one, normalised.
    let start = match opts.v0 {
        Some(v0) => v0.reshape([n as isize])?.astype(dtype)?,
        None => random_vector(n, 0, dtype)?,
    };
    let nrm = host_norm(&start)?;
    if nrm == 0.0 || !nrm.is_finite() {
        return Err(Error::Value("v0 must be a nonzero finite vector".into()));
    }
    MUL.call_with(
        &[gpu_array::ufunc::Input::from(&start), (1.0 / nrm).into()],
        &FuseOptions::out(&[&row(0)?]),
    )?;

    let mut kept: Vec<f64> = Vec::new();
    let mut restarts = 0usize;
    let mut seed = 1u64;
    loop {
        let p = kept.len();
        // Lanczos steps p..ncv, no host synchronisation.
        for j in p..ncv {
            let w = a.matvec(&row(j)?)?.astype(dtype)?;
            let h0sq = NORM2.call_with(&[&w], &f64_sum)?;
            let vk = rows(j + 1)?;
            let h = coefficients(&vk, &w, complex)?;
            let w = SUB.call(&[&w, &gpu_linalg::matmul(&h, &vk)?])?;
            let h2 = coefficients(&vk, &w, complex)?;
            let w = SUB.call(&[&w, &gpu_linalg::matmul(&h2, &vk)?])?;
            let h = ADD.call(&[&h, &h2])?;
            gpu_array::array::copyto(&coef_run(j, j + 1)?, &h, same_kind, None)?;
            let w2 = NORM2.call_with(&[&w], &f64_sum)?;
            let (scale, beta) = BETA.call(&[&w2, &h0sq, &brk_eps])?;
            gpu_array::array::copyto(&coef_at(j, j + 1)?, &beta, same_kind, None)?;
            MUL.call_with(&[&w, &scale], &FuseOptions::out(&[&row(j + 1)?]))?;
        }
        // One host read of the Rayleigh quotient a cycle.
        let h = host_complex(&coef)?;
        let at = |j: usize, i: usize| h[j * stride + i];
        // The basis ends at the first breakdown (a zero remainder).
        let m = (p..ncv)
            .find(|&j| at(j, j + 1).norm() == 0.0)
            .map_or(ncv, |j| j + 1);
        let breakdown = m < ncv || at(ncv - 1, ncv).norm() == 0.0;
        let beta_last = if breakdown { 0.0 } else { at(ncv - 1, ncv).re };
        let mut t = vec![Complex64::new(0.0, 0.0); m * m];
        for (j, &theta) in kept.iter().enumerate() {
            t[j * m + j] = Complex64::new(theta, 0.0);
        }
        for j in p..m {
            for i in 0..j {
                t[i * m + j] = at(j, i);
                t[j * m + i] = at(j, i).conj();
            }
            t[j * m + j] = Complex64::new(at(j, j).re, 0.0);
        }
        let (w, y) = gpu_linalg::eigh(
            &upload(
                &t,
                [m, m],
                if complex {
                    DType::Complex128
                } else {
                    DType::Float64
                },
            )?,
            gpu_linalg::Uplo::L,
        )?;
        let w = w.astype(DType::Float64)?.to_vec::<f64>()?;
        let y = host_complex(&y)?; // (m, m), eigenvectors in columns
        let mut order: Vec<usize> = (0..m).collect();
        order.sort_by(|&i, &j| which.key(w[i]).total_cmp(&which.key(w[j])));
        let resid = |i: usize| beta_last * y[(m - 1) * m + i].norm();
        // ARPACK's test, floored at what the estimate can resolve: the
        // last components of `T`'s eigenvectors carry an absolute error of
        // about `m eps`, so a residual below `m eps |T|` is noise.
        let tnorm = w.iter().fold(0.0f64, |a, x| a.max(x.abs()));
        let floor = m as f64 * eps * tnorm;
        let converged = order
            .iter()
            .take(k)
            .filter(|&&i| resid(i) <= (tol * eps23.max(w[i].abs())).max(floor))
            .count();
        if m == ncv && converged >= k {
            let mut sel: Vec<usize> = order[..k].to_vec();
            sel.sort_by(|&i, &j| w[i].total_cmp(&w[j]));
            let values = sel.iter().map(|&i| w[i]).collect();
            let rows_out = if opts.return_eigenvectors {
                Some(ritz_vectors(&y, m, &sel, &rows(m)?, dtype)?)
            } else {
                None
            };
            return Ok(Eigen {
                values,
                rows: rows_out,
                dtype,
            });
        }
        restarts += 1;
        if restarts >= maxiter {
            return Err(Error::NoConvergence {
                what: "ARPACK",
                count: i32::try_from(k - converged.min(k)).unwrap_or(i32::MAX),
            });
        }
        if m == ncv && !breakdown {
            // Keep the most wanted Ritz vectors; the residual vector
            // (row ncv, already normalised) follows them.
            let keep = k.max((k + ncv) / 2).min(ncv - 1);
            let sel: Vec<usize> = order[..keep].to_vec();
            let u = ritz_vectors(&y, m, &sel, &rows(m)?, dtype)?;
            gpu_array::array::copyto(&rows(keep)?, &u, same_kind, None)?;
            gpu_array::array::copyto(&row(keep)?, &row(m)?, same_kind, None)?;
            kept = sel.iter().map(|&i| w[i]).collect();
        } else {
            // An invariant subspace: keep it whole (its Ritz pairs are
            // exact) and go on from a random vector orthogonal to it.
            let sel: Vec<usize> = order.clone();
            let u = ritz_vectors(&y, m, &sel, &rows(m)?, dtype)?;
            gpu_array::array::copyto(&rows(m)?, &u, same_kind, None)?;
            kept = sel.iter().map(|&i| w[i]).collect();
            let vk = rows(m)?;
            let mut fresh = None;
            for _ in 0..8 {
                let r = random_vector(n, seed, dtype)?;
                seed += 1;
                let before = host_norm(&r)?;
                let h1 = coefficients(&vk, &r, complex)?;
                let r = SUB.call(&[&r, &gpu_linalg::matmul(&h1, &vk)?])?;
                let h2 = coefficients(&vk, &r, complex)?;
                let r = SUB.call(&[&r, &gpu_linalg::matmul(&h2, &vk)?])?;
                let after = host_norm(&r)?;
                if after > BREAKDOWN * eps * before {
                    fresh = Some((r, after));
                    break;
                }
            }
            let Some((r, nrm)) = fresh else {
                return Err(Error::LinAlg(
                    "eigsh: no vector orthogonal to the invariant subspace found".into(),
                ));
            };
            MUL.call_with(
                &[gpu_array::ufunc::Input::from(&r), (1.0 / nrm).into()],
                &FuseOptions::out(&[&row(m)?]),
            )?;
        }
    }
}

/// The Ritz vectors `Y[:, sel]^T V` as the rows of a `(sel.len(), n)`
/// array, `y` the `m x m` eigenvectors (columns) on the host and `v` the
/// first `m` basis rows.
fn ritz_vectors(
    y: &[Complex64],
    m: usize,
    sel: &[usize],
    v: &Array,
    dtype: DType,
) -> Result<Array> {
    let mut yt = Vec::with_capacity(sel.len() * m);
    for &i in sel {
        yt.extend((0..m).map(|r| y[r * m + i]));
    }
    let yt = upload(&yt, [sel.len(), m], dtype)?;
    gpu_linalg::matmul(&yt, v)
}

/// SciPy's `eigsh(A, k=6, which='LM', v0, ncv, maxiter, tol,
/// return_eigenvectors)` for a Hermitian operator: `k` eigenvalues of the
/// kind `which` asks for, ascending, and (when
/// `opts.return_eigenvectors`) the `(n, k)` array of their orthonormal
/// eigenvectors in columns. Thick-restart Lanczos with full
/// reorthogonalisation on the device; one host synchronisation a
/// restart, for the small eigenproblem (module docs). The eigenvalues are
/// of the real dtype of the operator's precision (float64 for complex128).
///
/// ```no_run
/// use gpu_sparse::SpMatrix;
/// use gpu_sparse::linalg::{EigshOptions, Which, eigsh};
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::diags(
///     &[&gpu_array::creation::full(99, -1.0, Some(gpu_array::DType::Float64))?,
///       &gpu_array::creation::full(100, 2.0, Some(gpu_array::DType::Float64))?,
///       &gpu_array::creation::full(99, -1.0, Some(gpu_array::DType::Float64))?],
///     &[-1, 0, 1], None, None)?.tocsr()?;
/// let (w, v) = eigsh(&a, 3, Which::LA, &EigshOptions::default())?; // the 3 largest, ascending
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: a non-square operator, "k must be greater than 0.", "k must
/// be less than ndim(A), k=..." (SciPy's dense fallback for `k >= n` is
/// gpu-linalg's `eigh`), "ncv must be k<ncv<=n, ncv=...", a `v0` of
/// another length or zero; [`Error::NoConvergence`] (`what: "ARPACK"`,
/// `count`: the eigenvalues not converged; SciPy's `ArpackNoConvergence`)
/// when `maxiter` restarts do not reach `tol`; failures of the products.
pub fn eigsh(
    a: &dyn LinearOperator,
    k: usize,
    which: Which,
    opts: &EigshOptions<'_>,
) -> Result<(Array, Option<Array>)> {
    if which == Which::BE {
        return both_ends(a, k, opts);
    }
    let e = lanczos(a, k, which, opts)?;
    let w = Array::from_slice(&e.values, &[e.values.len()])?.astype(real_dtype(e.dtype))?;
    let v = match e.rows {
        Some(r) => Some(r.transpose(None)?.copy()?),
        None => None,
    };
    Ok((w, v))
}

/// `which="BE"`: the `k - k / 2` largest (SciPy's extra one at the high
/// end for an odd `k`) and the `k / 2` smallest eigenvalues, from two
/// Lanczos runs (LA and SA), ascending with their vectors. (Where an
/// eigenvalue of several vectors straddles the two sets, each run picks
/// its vectors in that eigenspace independently.)
fn both_ends(
    a: &dyn LinearOperator,
    k: usize,
    opts: &EigshOptions<'_>,
) -> Result<(Array, Option<Array>)> {
    let (hi_w, hi_v) = eigsh(a, k - k / 2, Which::LA, opts)?;
    if k / 2 == 0 {
        return Ok((hi_w, hi_v));
    }
    let (lo_w, lo_v) = eigsh(a, k / 2, Which::SA, opts)?;
    let w = gpu_array::manipulation::concatenate(&[&lo_w, &hi_w], Some(0))?;
    let v = match (lo_v, hi_v) {
        (Some(lo), Some(hi)) => Some(gpu_array::manipulation::concatenate(&[&lo, &hi], Some(1))?),
        _ => None,
    };
    Ok((w, v))
}

/// [`svds`]'s keywords (SciPy's names and defaults; SciPy's `solver`
/// is always its `'arpack'` route here, Lanczos on the normal operator).
///
/// ```no_run
/// let opts = gpu_sparse::linalg::SvdsOptions { tol: 1e-10, ..Default::default() };
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SvdsOptions<'a> {
    /// Lanczos vectors kept (as [`EigshOptions::ncv`], for the normal
    /// operator of size `min(m, n)`).
    pub ncv: Option<usize>,
    /// Relative accuracy of the eigenvalues of the normal operator (0:
    /// machine precision).
    pub tol: f64,
    /// `"LM"` (the largest, SciPy's default) or `"SM"`.
    pub which: Which,
    /// The starting vector, of length `min(m, n)`.
    pub v0: Option<&'a Array>,
    /// Most restarts (as [`EigshOptions::maxiter`]).
    pub maxiter: Option<usize>,
    /// Whether to compute `u` and `vt`.
    pub return_singular_vectors: bool,
}

impl Default for SvdsOptions<'_> {
    fn default() -> Self {
        SvdsOptions {
            ncv: None,
            tol: 0.0,
            which: Which::LM,
            v0: None,
            maxiter: None,
            return_singular_vectors: true,
        }
    }
}

/// What [`svds`] returns: SciPy's `(u, s, vt)`.
#[derive(Debug)]
pub struct Svds {
    /// `(m, k)`: the left singular vectors in columns (`None` when not
    /// asked for).
    pub u: Option<Array>,
    /// The `k` singular values, ascending (of the real dtype).
    pub s: Array,
    /// `(k, n)`: the conjugate transposes of the right singular vectors
    /// in rows (`None` when not asked for).
    pub vt: Option<Array>,
}

/// `A^H A` (`gram`) or `A A^H` of an operator, through its `matvec` and
/// `rmatvec`.
struct Normal<'a> {
    a: &'a dyn LinearOperator,
    dtype: DType,
    gram: bool,
}

impl LinearOperator for Normal<'_> {
    fn shape(&self) -> (usize, usize) {
        let (m, n) = self.a.shape();
        if self.gram { (n, n) } else { (m, m) }
    }
    fn dtype(&self) -> DType {
        self.dtype
    }
    fn matvec(&self, x: &Array) -> Result<Array> {
        if self.gram {
            let ax = self.a.matvec(x)?.astype(self.dtype)?;
            self.a.rmatvec(&ax)?.astype(self.dtype)
        } else {
            let ahx = self.a.rmatvec(x)?.astype(self.dtype)?;
            self.a.matvec(&ahx)?.astype(self.dtype)
        }
    }
    fn rmatvec(&self, x: &Array) -> Result<Array> {
        self.matvec(x)
    }
}

/// SciPy's `svds(A, k=6, ncv, tol, which, v0, maxiter,
/// return_singular_vectors)`: `k` singular triplets of any operator with
/// `rmatvec`, from [`eigsh`]'s Lanczos iteration on the smaller of `A^H A`
/// and `A A^H` (each product one `matvec` and one `rmatvec`). Returns
/// `s` ascending, as SciPy does, with the matching columns of `u` and rows
/// of `vt`; the other side's vectors are `A v / s` (or `A^H u / s`), so a
/// zero singular value gets a zero vector there (SciPy orthonormalises
/// instead). Squaring the operator squares its condition: singular
/// values far below `s_max sqrt(eps)` lose relative accuracy.
///
/// ```no_run
/// use gpu_sparse::SpMatrix;
/// use gpu_sparse::linalg::{SvdsOptions, svds};
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::random(50, 30, 0.2, gpu_array::DType::Float64, 1)?.tocsr()?;
/// let r = svds(&a, 3, &SvdsOptions::default())?; // the 3 largest, ascending
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's "`k` must be an integer satisfying `0 < k < min(A.shape)`.",
/// "which must be either 'LM' or 'SM'."; as [`eigsh`] for the other
/// options and non-convergence; an operator without `rmatvec`.
pub fn svds(a: &dyn LinearOperator, k: usize, opts: &SvdsOptions<'_>) -> Result<Svds> {
    let (m, n) = a.shape();
    if k == 0 || k >= m.min(n) {
        return Err(Error::Value(
            "`k` must be an integer satisfying `0 < k < min(A.shape)`.".into(),
        ));
    }
    let which = match opts.which {
        Which::LM => Which::LA,
        Which::SM => Which::SA,
        _ => return Err(Error::Value("which must be either 'LM' or 'SM'.".into())),
    };
    let dtype = eig_dtype(a.dtype())?;
    let gram = n <= m;
    let op = Normal { a, dtype, gram };
    let eopts = EigshOptions {
        v0: opts.v0,
        ncv: opts.ncv,
        maxiter: opts.maxiter,
        tol: opts.tol,
        return_eigenvectors: opts.return_singular_vectors,
    };
    let e = lanczos(&op, k, which, &eopts)?;
    let s: Vec<f64> = e.values.iter().map(|&l| l.max(0.0).sqrt()).collect();
    let s_arr = Array::from_slice(&s, &[k])?.astype(real_dtype(dtype))?;
    let Some(x) = e.rows else {
        return Ok(Svds {
            u: None,
            s: s_arr,
            vt: None,
        });
    };
    // The other side: A x_i / s_i (or A^H x_i / s_i), zero for s_i = 0.
    let mut other = Vec::with_capacity(k);
    for (i, &si) in s.iter().enumerate() {
        let xi = x.get_index(&gpu_array::ix![i as isize])?;
        let y = if gram {
            a.matvec(&xi)?
        } else {
            a.rmatvec(&xi)?
        };
        let inv = if si > 0.0 { 1.0 / si } else { 0.0 };
        other.push(MUL.call(&[gpu_array::ufunc::Input::from(&y.astype(dtype)?), inv.into()])?);
    }
    let other: Vec<&Array> = other.iter().collect();
    let other = gpu_array::manipulation::stack(&other, 0)?.astype(dtype)?; // (k, m) or (k, n)
    let (u, vt) = if gram {
        // x: the right singular vectors v_i as rows; vt's rows are v_i^H.
        (other.transpose(None)?.copy()?, CONJ.call(&[&x])?)
    } else {
        (x.transpose(None)?.copy()?, CONJ.call(&[&other])?)
    };
    Ok(Svds {
        u: Some(u),
        s: s_arr,
        vt: Some(vt),
    })
}
