//! Discrete prolate spheroidal (Slepian) sequences: the eigenvectors of
//! SciPy's symmetric tridiagonal matrix for the largest eigenvalues, by
//! Sturm-sequence bisection and inverse iteration on the host (LAPACK's
//! `stebz`/`stein` approach, which SciPy's `eigh_tridiagonal` calls).

use std::f64::consts::PI;

use gpu_array::{Array, Error, Result};

use super::{extend, len_guard};

/// How [`dpss_with`] normalizes the windows (SciPy's `norm=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DpssNorm {
    /// Unit energy (SciPy's `norm=2`, the default with `kmax`).
    L2,
    /// Peak 1, then for even lengths SciPy's approximate correction
    /// `M^2 / (M^2 + NW)` (the default without `kmax`).
    Approximate,
    /// Peak 1, then for even lengths the correction from a half-sample
    /// shift of the first window's spectrum.
    Subsample,
}

/// SciPy's keywords of [`dpss_with`]: `Kmax` (default `None`: one 1-D
/// window), `sym` (default true) and `norm` (default by `Kmax`, as
/// [`DpssNorm`] says). SciPy's `return_ratios` is not offered.
///
/// ```
/// use gpu_signal::windows::{DpssNorm, DpssOptions};
/// let o = DpssOptions::default().kmax(4).norm(DpssNorm::Subsample).sym(false);
/// assert_eq!((o.kmax, o.norm, o.sym), (Some(4), Some(DpssNorm::Subsample), false));
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct DpssOptions {
    /// The number of sequences (`None`: the first only, as a 1-D array).
    pub kmax: Option<usize>,
    /// Symmetric (true) or periodic windows.
    pub sym: bool,
    /// The normalization (`None`: SciPy's default for `kmax`).
    pub norm: Option<DpssNorm>,
}

impl Default for DpssOptions {
    fn default() -> Self {
        DpssOptions {
            kmax: None,
            sym: true,
            norm: None,
        }
    }
}

impl DpssOptions {
    /// Sets `kmax`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::windows::DpssOptions::default().kmax(3).kmax, Some(3));
    /// ```
    #[must_use]
    pub fn kmax(mut self, kmax: usize) -> Self {
        self.kmax = Some(kmax);
        self
    }

    /// Sets `sym`.
    ///
    /// ```
    /// assert!(!gpu_signal::windows::DpssOptions::default().sym(false).sym);
    /// ```
    #[must_use]
    pub fn sym(mut self, sym: bool) -> Self {
        self.sym = sym;
        self
    }

    /// Sets `norm`.
    ///
    /// ```
    /// use gpu_signal::windows::{DpssNorm, DpssOptions};
    /// assert_eq!(DpssOptions::default().norm(DpssNorm::L2).norm, Some(DpssNorm::L2));
    /// ```
    #[must_use]
    pub fn norm(mut self, norm: DpssNorm) -> Self {
        self.norm = Some(norm);
        self
    }
}

/// SciPy's `dpss(M, NW, sym=sym)`: the first Slepian sequence of half
/// bandwidth `nw`, peak-normalized with SciPy's approximate correction.
///
/// ```no_run
/// let w = gpu_signal::windows::dpss(512, 2.5, true)?;
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// As [`dpss_with`].
pub fn dpss(m: usize, nw: f64, sym: bool) -> Result<Array> {
    dpss_with(m, nw, &DpssOptions::default().sym(sym))
}

/// SciPy's `dpss(M, NW, Kmax, sym, norm)`: the first `Kmax` Slepian
/// sequences as a `(Kmax, M)` float64 array (a 1-D array without `Kmax`),
/// signs fixed as SciPy fixes them (even sequences of positive sum, odd
/// ones starting positive). Computed on the host (`O(Kmax M)` per
/// bisection step, `O(M^2)` for the subsample correction) and uploaded.
///
/// ```no_run
/// use gpu_signal::windows::{DpssOptions, dpss_with};
/// let tapers = dpss_with(1024, 4.0, &DpssOptions::default().kmax(7))?; // (7, 1024)
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// SciPy's: "Kmax must be greater than 0 and less than M", "NW must be
/// less than M/2.", "NW must be positive"; the upload failed.
pub fn dpss_with(m: usize, nw: f64, opts: &DpssOptions) -> Result<Array> {
    let norm = opts.norm.unwrap_or(if opts.kmax.is_none() {
        DpssNorm::Approximate
    } else {
        DpssNorm::L2
    });
    let w = dpss_values(m, nw, opts.kmax, opts.sym, norm)?;
    let flat: Vec<f64> = w.concat();
    match opts.kmax {
        None => Array::from_slice(&flat, &[flat.len()]),
        Some(_) => Array::from_slice(&flat, &[w.len(), flat.len() / w.len().max(1)]),
    }
}

/// The windows of [`dpss_with`] on the host, one `Vec` each.
pub(super) fn dpss_values(
    m: usize,
    nw: f64,
    kmax: Option<usize>,
    sym: bool,
    norm: DpssNorm,
) -> Result<Vec<Vec<f64>>> {
    if let Some(w) = len_guard(m) {
        return Ok(vec![w]);
    }
    let k = kmax.unwrap_or(1);
    if k == 0 || k > m {
        return Err(Error::Value(
            "Kmax must be greater than 0 and less than M".into(),
        ));
    }
    if nw >= m as f64 / 2.0 {
        return Err(Error::Value("NW must be less than M/2.".into()));
    }
    if nw <= 0.0 {
        return Err(Error::Value("NW must be positive".into()));
    }
    let (m, trunc) = extend(m, sym);
    let mf = m as f64;
    let w = nw / mf;
    let c = (2.0 * PI * w).cos();
    let d: Vec<f64> = (0..m)
        .map(|i| ((mf - 1.0 - 2.0 * i as f64) / 2.0).powi(2) * c)
        .collect();
    let e: Vec<f64> = (1..m).map(|i| i as f64 * (mf - i as f64) / 2.0).collect();
    let mut windows: Vec<Vec<f64>> = Vec::with_capacity(k);
    for j in 0..k {
        // The (j+1)-th largest eigenvalue, then its eigenvector.
        let lambda = kth_eigenvalue(&d, &e, m - 1 - j);
        let v = inverse_iteration(&d, &e, lambda, &windows);
        windows.push(v);
    }
    for (i, win) in windows.iter_mut().enumerate() {
        let flip = if i % 2 == 0 {
            win.iter().sum::<f64>() < 0.0
        } else {
            let thresh = (1.0 / mf).max(1e-7);
            win.iter()
                .find(|&&x| x * x > thresh)
                .is_some_and(|&x| x < 0.0)
        };
        if flip {
            win.iter_mut().for_each(|x| *x = -*x);
        }
    }
    if norm != DpssNorm::L2 {
        let max = windows
            .iter()
            .flatten()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        windows.iter_mut().flatten().for_each(|x| *x /= max);
        if m % 2 == 0 {
            let correction = match norm {
                DpssNorm::Approximate => (m * m) as f64 / ((m * m) as f64 + nw),
                _ => mf / subsample_sum(&windows[0]),
            };
            windows.iter_mut().flatten().for_each(|x| *x *= correction);
        }
    }
    if trunc {
        windows.iter_mut().for_each(|w| {
            w.pop();
        });
    }
    Ok(windows)
}

/// SciPy's subsample correction's denominator: the real parts of the
/// one-sided spectrum of `w`, bins past 0 doubled and shifted by
/// `exp(i pi (1 - 1/M) k)`, summed.
fn subsample_sum(w: &[f64]) -> f64 {
    let m = w.len();
    let mf = m as f64;
    let mut total: f64 = w.iter().sum();
    for k in 1..=m / 2 {
        let (mut re, mut im) = (0.0, 0.0);
        for (n, &x) in w.iter().enumerate() {
            let r = ((n * k) % m) as f64;
            let a = -2.0 * PI * r / mf;
            re += x * a.cos();
            im += x * a.sin();
        }
        let phi = PI * (1.0 - 1.0 / mf) * k as f64;
        total += 2.0 * (re * phi.cos() - im * phi.sin());
    }
    total
}

/// The number of eigenvalues of the tridiagonal (d, e) below `x` (Sturm).
fn count_below(d: &[f64], e: &[f64], x: f64) -> usize {
    let mut count = 0;
    let mut q = d[0] - x;
    if q < 0.0 {
        count += 1;
    }
    for i in 1..d.len() {
        let qq = if q == 0.0 {
            f64::EPSILON * e[i - 1].abs().max(1e-300)
        } else {
            q
        };
        q = d[i] - x - e[i - 1] * e[i - 1] / qq;
        if q < 0.0 {
            count += 1;
        }
    }
    count
}

/// The eigenvalue of index `idx` (ascending) of the tridiagonal, by
/// bisection to the last bit.
fn kth_eigenvalue(d: &[f64], e: &[f64], idx: usize) -> f64 {
    let n = d.len();
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for i in 0..n {
        let r = if i > 0 { e[i - 1].abs() } else { 0.0 } + if i + 1 < n { e[i].abs() } else { 0.0 };
        lo = lo.min(d[i] - r);
        hi = hi.max(d[i] + r);
    }
    let pad = (hi - lo).abs().max(1.0) * 1e-12;
    lo -= pad;
    hi += pad;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if count_below(d, e, mid) > idx {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The unit eigenvector of the tridiagonal (d, e) for the eigenvalue
/// `lambda`: inverse iteration with a pivoted LU of `T - lambda I`,
/// orthogonalized against `done` (the eigenvectors found before).
fn inverse_iteration(d: &[f64], e: &[f64], lambda: f64, done: &[Vec<f64>]) -> Vec<f64> {
    let n = d.len();
    let scale = d
        .iter()
        .chain(e)
        .fold(0.0f64, |a, &b| a.max(b.abs()))
        .max(1.0);
    // LU of the tridiagonal with partial pivoting (LAPACK's gttrf): U has
    // the diagonal u0 and two superdiagonals u1, u2; l the multipliers.
    let mut u0: Vec<f64> = d.iter().map(|&x| x - lambda).collect();
    let mut u1: Vec<f64> = e.to_vec();
    let mut u2 = vec![0.0; n.saturating_sub(2)];
    let mut lower: Vec<f64> = e.to_vec();
    let mut l = vec![0.0; n.saturating_sub(1)];
    let mut swapped = vec![false; n.saturating_sub(1)];
    for i in 0..n.saturating_sub(1) {
        if u0[i].abs() >= lower[i].abs() {
            let f = if u0[i] == 0.0 { 0.0 } else { lower[i] / u0[i] };
            l[i] = f;
            u0[i + 1] -= f * u1[i];
        } else {
            let f = u0[i] / lower[i];
            l[i] = f;
            swapped[i] = true;
            u0[i] = lower[i];
            let t = u1[i];
            u1[i] = u0[i + 1];
            u0[i + 1] = t - f * u0[i + 1];
            if i + 1 < n - 1 {
                u2[i] = u1[i + 1];
                u1[i + 1] *= -f;
            }
        }
        lower[i] = 0.0;
    }
    let tiny = f64::EPSILON * scale;
    for x in &mut u0 {
        if x.abs() < tiny {
            *x = if *x < 0.0 { -tiny } else { tiny };
        }
    }
    // A deterministic start with no symmetry (so that it meets the odd and
    // even sequences alike).
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut x: Vec<f64> = (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 + 0.5
        })
        .collect();
    for _ in 0..4 {
        // Solve L U y = x.
        for i in 0..n.saturating_sub(1) {
            if swapped[i] {
                let t = x[i];
                x[i] = x[i + 1];
                x[i + 1] = t - l[i] * x[i];
            } else {
                x[i + 1] -= l[i] * x[i];
            }
        }
        for i in (0..n).rev() {
            let mut s = x[i];
            if i + 1 < n {
                s -= u1[i] * x[i + 1];
            }
            if i + 2 < n {
                s -= u2[i] * x[i + 2];
            }
            x[i] = s / u0[i];
        }
        for v in done {
            let dot: f64 = v.iter().zip(&x).map(|(a, b)| a * b).sum();
            x.iter_mut().zip(v).for_each(|(xi, vi)| *xi -= dot * vi);
        }
        let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
        x.iter_mut().for_each(|v| *v /= norm);
    }
    x
}
