//! Least-squares linear-phase FIR design (SciPy's `firls`): the taps that
//! minimise the weighted integral of the squared error against a
//! piecewise-linear desired response over the given bands. The normal
//! equations `Q a = b` (`Q` Toeplitz plus Hankel) are formed as SciPy
//! forms them and solved on the host by Cholesky, as SciPy's
//! `solve(assume_a='pos')`; a singular or ill-conditioned `Q` (bands
//! covering too little of the axis for the length) takes the
//! minimum-norm least-squares solution instead, from a symmetric
//! eigendecomposition (where SciPy takes LAPACK's `gelsy`: the same
//! solution where both find the same rank).

use std::f64::consts::PI;

use gpu_array::{Array, Error, Result};

use super::fir::sinc;

/// SciPy's keywords of [`firls_with`]: `weight` (one a band; none: ones)
/// and `fs` (none: 2, frequencies relative to Nyquist).
///
/// ```
/// let o = gpu_signal::FirlsOptions::default().weight(Some(vec![1.0, 10.0])).fs(Some(8000.0));
/// assert_eq!((o.weight.as_deref(), o.fs), (Some(&[1.0, 10.0][..]), Some(8000.0)));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct FirlsOptions {
    /// Each band's weight in the error.
    pub weight: Option<Vec<f64>>,
    /// The sampling frequency the bands are given in.
    pub fs: Option<f64>,
}

impl FirlsOptions {
    /// Sets `weight`.
    #[must_use]
    pub fn weight(mut self, weight: Option<Vec<f64>>) -> Self {
        self.weight = weight;
        self
    }

    /// Sets `fs`.
    #[must_use]
    pub fn fs(mut self, fs: Option<f64>) -> Self {
        self.fs = fs;
        self
    }
}

/// `x` with `q x = b` for the symmetric positive definite `q` (`n x n`,
/// row-major) by Cholesky, or `None` where `q` is not numerically
/// positive definite or too ill-conditioned for it (a pivot below `n eps`
/// of the largest, SciPy's `solve` then warns and `firls` falls back).
fn cholesky_solve(q: &[f64], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut l = vec![0.0; n * n];
    let scale = (0..n).map(|i| q[i * n + i].abs()).fold(0.0f64, f64::max);
    for j in 0..n {
        let mut d = q[j * n + j];
        for k in 0..j {
            d -= l[j * n + k] * l[j * n + k];
        }
        if d.is_nan() || d <= scale * n as f64 * f64::EPSILON {
            return None;
        }
        let d = d.sqrt();
        l[j * n + j] = d;
        for i in j + 1..n {
            let mut s = q[i * n + j];
            for k in 0..j {
                s -= l[i * n + k] * l[j * n + k];
            }
            l[i * n + j] = s / d;
        }
    }
    // L y = b, then L^T x = y.
    let mut y = b.to_vec();
    for i in 0..n {
        for k in 0..i {
            y[i] -= l[i * n + k] * y[k];
        }
        y[i] /= l[i * n + i];
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            y[i] -= l[k * n + i] * y[k];
        }
        y[i] /= l[i * n + i];
    }
    Some(y)
}

/// The minimum-norm least-squares solution of `q x = b` for the symmetric
/// `q` by cyclic Jacobi rotations: `x = V diag(1/lambda) V^T b` over the
/// eigenvalues above `n eps` of the largest.
fn symmetric_lstsq(q: &[f64], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut a = q.to_vec();
    let mut v = vec![0.0; n * n];
    for i in 0..n {
        v[i * n + i] = 1.0;
    }
    for _sweep in 0..100 {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i * n + j] * a[i * n + j])
            .sum();
        let diag: f64 = (0..n).map(|i| a[i * n + i] * a[i * n + i]).sum();
        if off <= f64::EPSILON * f64::EPSILON * diag {
            break;
        }
        for p in 0..n {
            for r in p + 1..n {
                let apr = a[p * n + r];
                if apr == 0.0 {
                    continue;
                }
                let theta = (a[r * n + r] - a[p * n + p]) / (2.0 * apr);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let (akp, akr) = (a[k * n + p], a[k * n + r]);
                    a[k * n + p] = c * akp - s * akr;
                    a[k * n + r] = s * akp + c * akr;
                }
                for k in 0..n {
                    let (apk, ark) = (a[p * n + k], a[r * n + k]);
                    a[p * n + k] = c * apk - s * ark;
                    a[r * n + k] = s * apk + c * ark;
                }
                for k in 0..n {
                    let (vkp, vkr) = (v[k * n + p], v[k * n + r]);
                    v[k * n + p] = c * vkp - s * vkr;
                    v[k * n + r] = s * vkp + c * vkr;
                }
            }
        }
    }
    let lmax = (0..n).map(|i| a[i * n + i].abs()).fold(0.0f64, f64::max);
    let cut = lmax * n as f64 * f64::EPSILON;
    let mut x = vec![0.0; n];
    for k in 0..n {
        let lambda = a[k * n + k];
        if lambda.abs() <= cut {
            continue;
        }
        let proj: f64 = (0..n).map(|i| v[i * n + k] * b[i]).sum::<f64>() / lambda;
        for i in 0..n {
            x[i] += v[i * n + k] * proj;
        }
    }
    x
}

/// SciPy's `firls` on the host.
pub(crate) fn firls_host(
    numtaps: usize,
    bands: &[f64],
    desired: &[f64],
    o: &FirlsOptions,
) -> Result<Vec<f64>> {
    let fs = o.fs.unwrap_or(2.0);
    if fs.is_nan() || fs <= 0.0 || fs.is_infinite() {
        return Err(Error::Value(format!(
            "nyq must be positive, got {} <= 0.",
            fs / 2.0
        )));
    }
    let nyq = 0.5 * fs;
    if numtaps.is_multiple_of(2) || numtaps < 1 {
        return Err(Error::Value("numtaps must be odd and >= 1".into()));
    }
    if numtaps > 1 << 16 {
        return Err(Error::Value(format!(
            "firls: {numtaps} taps make a {}-square system; at most 65537 taps",
            numtaps / 2 + 1
        )));
    }
    let m = (numtaps - 1) / 2;
    let f: Vec<f64> = bands.iter().map(|b| b / nyq).collect();
    if !f.len().is_multiple_of(2) {
        return Err(Error::Value("bands must contain frequency pairs.".into()));
    }
    if f.iter().any(|&v| v.is_nan() || !(0.0..=1.0).contains(&v)) {
        return Err(Error::Value(
            "bands must be between 0 and 1 relative to Nyquist".into(),
        ));
    }
    if f.len() != desired.len() {
        return Err(Error::Value(format!(
            "desired must have one entry per frequency, got {} gains for {} frequencies.",
            desired.len(),
            f.len()
        )));
    }
    let nb = f.len() / 2;
    let band = |k: usize| (f[2 * k], f[2 * k + 1]);
    if (0..nb).any(|k| band(k).1 - band(k).0 <= 0.0)
        || (1..nb).any(|k| band(k).0 - band(k - 1).0 < 0.0)
    {
        return Err(Error::Value(
            "bands must be monotonically nondecreasing and have width > 0.".into(),
        ));
    }
    if (1..nb).any(|k| band(k - 1).1 > band(k).0) {
        return Err(Error::Value("bands must not overlap.".into()));
    }
    if desired.iter().any(|&d| d.is_nan() || d < 0.0) {
        return Err(Error::Value("desired must be non-negative.".into()));
    }
    let weight = o.weight.clone().unwrap_or_else(|| vec![1.0; nb]);
    if weight.len() != nb {
        return Err(Error::Value(format!(
            "weight must be the same size as the number of band pairs ({nb})."
        )));
    }
    if weight.iter().any(|&w| w.is_nan() || w < 0.0) {
        return Err(Error::Value("weight must be non-negative.".into()));
    }
    // q[n] = sum over bands of w (sinc(f1 n) f1 - sinc(f0 n) f0).
    let q: Vec<f64> = (0..numtaps)
        .map(|n| {
            let n = n as f64;
            (0..nb)
                .map(|k| {
                    let (f0, f1) = band(k);
                    (sinc(f1 * n) * f1 - sinc(f0 * n) * f0) * weight[k]
                })
                .sum()
        })
        .collect();
    let size = m + 1;
    let mut qm = vec![0.0; size * size];
    for i in 0..size {
        for j in 0..size {
            qm[i * size + j] = q[i.abs_diff(j)] + q[i + j];
        }
    }
    // b[n]: the desired line's projection onto cos(pi n f) in each band.
    let b: Vec<f64> = (0..size)
        .map(|n| {
            let nf = n as f64;
            (0..nb)
                .map(|k| {
                    let (d0, d1) = (desired[2 * k], desired[2 * k + 1]);
                    let (f0, f1) = band(k);
                    let slope = (d1 - d0) / (f1 - f0);
                    let c = d0 - f0 * slope;
                    let term = |fb: f64| {
                        let mut v = fb * (slope * fb + c) * sinc(fb * nf);
                        if n == 0 {
                            v -= slope * fb * fb / 2.0;
                        } else {
                            v += slope * (nf * PI * fb).cos() / (PI * nf).powi(2);
                        }
                        v
                    };
                    (term(f1) - term(f0)) * weight[k]
                })
                .sum()
        })
        .collect();
    let a = cholesky_solve(&qm, &b).unwrap_or_else(|| symmetric_lstsq(&qm, &b));
    // The symmetric taps: a[m..1] reversed, 2 a[0], a[1..m].
    let mut taps: Vec<f64> = a[1..].iter().rev().copied().collect();
    taps.push(2.0 * a[0]);
    taps.extend_from_slice(&a[1..]);
    Ok(taps)
}

/// SciPy's `firls(numtaps, bands, desired)`: the linear-phase FIR filter
/// of odd length `numtaps` closest in the least-squares sense to the
/// desired gains, which run linearly from `desired[2k]` to
/// `desired[2k + 1]` across band `k` (`bands[2k]..bands[2k + 1]`,
/// fractions of Nyquist; no error counted between bands), as a float64
/// device array (designed on the host).
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// // A lowpass: pass to 0.2, stop from 0.3.
/// let taps = gpu_signal::firls(73, &[0.0, 0.2, 0.3, 1.0], &[1.0, 1.0, 0.0, 0.0])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`firls_with`].
pub fn firls(numtaps: usize, bands: &[f64], desired: &[f64]) -> Result<Array> {
    firls_with(numtaps, bands, desired, &FirlsOptions::default())
}

/// [`firls`] with SciPy's `weight=` and `fs=`.
///
/// ```no_run
/// use gpu_signal::{FirlsOptions, firls_with};
/// # fn main() -> gpu_array::Result<()> {
/// let o = FirlsOptions::default().weight(Some(vec![1.0, 50.0])).fs(Some(8000.0));
/// let taps = firls_with(101, &[0.0, 1000.0, 1200.0, 4000.0], &[1.0, 1.0, 0.0, 0.0], &o)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's (`Value`): `numtaps` even or zero, bands not in pairs, outside
/// `[0, 1]` of Nyquist, not increasing or overlapping, `desired` not one
/// a band edge or negative, `weight` not one a band or negative; `fs` not
/// positive; more than 65537 taps.
pub fn firls_with(
    numtaps: usize,
    bands: &[f64],
    desired: &[f64],
    opts: &FirlsOptions,
) -> Result<Array> {
    let taps = firls_host(numtaps, bands, desired, opts)?;
    Array::from_slice(&taps, &[taps.len()])
}
