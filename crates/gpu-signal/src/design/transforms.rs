//! The analog prototypes and the frequency transformations the IIR
//! designs are built from, public as SciPy has them: [`buttap`],
//! [`cheb1ap`], [`cheb2ap`], [`ellipap`], [`besselap`] (normalized analog
//! lowpass filters as zeros, poles and gain); [`lp2lp`], [`lp2hp`],
//! [`lp2bp`], [`lp2bs`] (lowpass to lowpass, highpass, bandpass or
//! bandstop) and [`bilinear`] (analog to digital) on `(b, a)`, and their
//! `_zpk` forms.
//!
//! Small host computations in float64 (complex128 for zeros and poles),
//! as [`iirfilter`](crate::iirfilter)'s: the inputs are copied from the
//! device, the results uploaded (zeros and poles as complex128, `(b, a)`
//! as float64).

use gpu_array::{Array, Error, Result};

use super::iir::{self, BesselNorm};
use super::zpk::{Zpk, one_d, upload_real, upload_zpk};
use crate::filtering::{host_reals, host_values, positive_finite};

/// A prototype as device arrays.
fn prototype(zpk: Result<Zpk>) -> Result<(Array, Array, f64)> {
    upload_zpk(&zpk?)
}

/// SciPy's `buttap(N)`: the analog Butterworth lowpass prototype of order
/// `n` (cutoff 1 rad/s): no zeros, `n` poles on the unit circle's left
/// half, gain 1.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let (z, p, k) = gpu_signal::buttap(3)?; // [], [-0.5+0.866j, -1, -0.5-0.866j], 1
/// # Ok(()) }
/// ```
///
/// # Errors
/// Device allocation failed.
pub fn buttap(n: usize) -> Result<(Array, Array, f64)> {
    prototype(Ok(iir::buttap(n)))
}

/// SciPy's `cheb1ap(N, rp)`: the analog Chebyshev type I lowpass
/// prototype of order `n` with `rp` dB of passband ripple.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let (z, p, k) = gpu_signal::cheb1ap(4, 1.0)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// `rp` negative or not finite (`Value`); device allocation failed.
pub fn cheb1ap(n: usize, rp: f64) -> Result<(Array, Array, f64)> {
    nonnegative(rp, "passband ripple (rp)")?;
    prototype(Ok(iir::cheb1ap(n, rp)))
}

/// SciPy's `cheb2ap(N, rs)`: the analog Chebyshev type II lowpass
/// prototype of order `n` with `rs` dB of stopband attenuation.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let (z, p, k) = gpu_signal::cheb2ap(4, 40.0)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// `rs` negative or not finite (`Value`); device allocation failed.
pub fn cheb2ap(n: usize, rs: f64) -> Result<(Array, Array, f64)> {
    nonnegative(rs, "stopband attenuation (rs)")?;
    prototype(Ok(iir::cheb2ap(n, rs)))
}

/// SciPy's `ellipap(N, rp, rs)`: the analog elliptic lowpass prototype of
/// order `n` with `rp` dB of passband ripple and `rs` dB of stopband
/// attenuation.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let (z, p, k) = gpu_signal::ellipap(4, 1.0, 40.0)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// `rp` or `rs` negative or not finite, or a pair no filter meets
/// (SciPy's "Cannot design a filter with given rp and rs specifications.")
/// (`Value`); device allocation failed.
pub fn ellipap(n: usize, rp: f64, rs: f64) -> Result<(Array, Array, f64)> {
    nonnegative(rp, "passband ripple (rp)")?;
    nonnegative(rs, "stopband attenuation (rs)")?;
    prototype(iir::ellipap(n, rp, rs))
}

/// SciPy's `besselap(N, norm)`: the analog Bessel/Thomson lowpass
/// prototype of order `n`, normalized as `norm` says.
///
/// ```no_run
/// use gpu_signal::BesselNorm;
/// # fn main() -> gpu_array::Result<()> {
/// let (z, p, k) = gpu_signal::besselap(4, BesselNorm::Mag)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// The magnitude normalization's search did not converge; device
/// allocation failed.
pub fn besselap(n: usize, norm: BesselNorm) -> Result<(Array, Array, f64)> {
    prototype(iir::besselap(n, norm))
}

fn nonnegative(v: f64, what: &str) -> Result<()> {
    if v.is_nan() || v < 0.0 || v.is_infinite() {
        return Err(Error::Value(format!(
            "{what} must be positive and finite, not {v}"
        )));
    }
    Ok(())
}

/// A device `(z, p, k)` on the host.
fn host_zpk(z: &Array, p: &Array, k: f64, what: &str) -> Result<Zpk> {
    one_d(z, &format!("{what} zeros"))?;
    one_d(p, &format!("{what} poles"))?;
    Ok(Zpk {
        z: host_values(z)?,
        p: host_values(p)?,
        k,
    })
}

/// SciPy's `lp2lp_zpk(z, p, k, wo)`: a lowpass filter's zeros, poles and
/// gain moved to the cutoff `wo` (rad/s).
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let (z, p, k) = gpu_signal::buttap(2)?;
/// let (z, p, k) = gpu_signal::lp2lp_zpk(&z, &p, k, 10.0)?; // poles 10x, gain 100
/// # Ok(()) }
/// ```
///
/// # Errors
/// More zeros than poles (SciPy's "Improper transfer function..."), `wo`
/// not positive and finite (`Value`); more than one dimension
/// (`Unsupported`).
pub fn lp2lp_zpk(z: &Array, p: &Array, k: f64, wo: f64) -> Result<(Array, Array, f64)> {
    positive_finite(wo, "wo")?;
    upload_zpk(&iir::lp2lp(host_zpk(z, p, k, "lp2lp_zpk")?, wo)?)
}

/// SciPy's `lp2hp_zpk(z, p, k, wo)`: a lowpass filter turned into a
/// highpass filter with cutoff `wo`.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let (z, p, k) = gpu_signal::buttap(2)?;
/// let (z, p, k) = gpu_signal::lp2hp_zpk(&z, &p, k, 10.0)?; // two zeros at 0
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`lp2lp_zpk`].
pub fn lp2hp_zpk(z: &Array, p: &Array, k: f64, wo: f64) -> Result<(Array, Array, f64)> {
    positive_finite(wo, "wo")?;
    upload_zpk(&iir::lp2hp(host_zpk(z, p, k, "lp2hp_zpk")?, wo)?)
}

/// SciPy's `lp2bp_zpk(z, p, k, wo, bw)`: a lowpass filter turned into a
/// bandpass filter centred at `wo` with bandwidth `bw` (rad/s).
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let (z, p, k) = gpu_signal::buttap(2)?;
/// let (z, p, k) = gpu_signal::lp2bp_zpk(&z, &p, k, 10.0, 2.0)?; // 4 poles
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`lp2lp_zpk`]; `bw` not positive and finite (`Value`).
pub fn lp2bp_zpk(z: &Array, p: &Array, k: f64, wo: f64, bw: f64) -> Result<(Array, Array, f64)> {
    positive_finite(wo, "wo")?;
    positive_finite(bw, "bw")?;
    upload_zpk(&iir::lp2bp(host_zpk(z, p, k, "lp2bp_zpk")?, wo, bw)?)
}

/// SciPy's `lp2bs_zpk(z, p, k, wo, bw)`: a lowpass filter turned into a
/// bandstop filter centred at `wo` with bandwidth `bw`.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let (z, p, k) = gpu_signal::buttap(2)?;
/// let (z, p, k) = gpu_signal::lp2bs_zpk(&z, &p, k, 10.0, 2.0)?; // zeros at ±10j
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`lp2bp_zpk`].
pub fn lp2bs_zpk(z: &Array, p: &Array, k: f64, wo: f64, bw: f64) -> Result<(Array, Array, f64)> {
    positive_finite(wo, "wo")?;
    positive_finite(bw, "bw")?;
    upload_zpk(&iir::lp2bs(host_zpk(z, p, k, "lp2bs_zpk")?, wo, bw)?)
}

/// SciPy's `bilinear_zpk(z, p, k, fs)`: an analog filter's zeros, poles
/// and gain mapped to a digital filter of sampling frequency `fs` by the
/// bilinear transform (no prewarping).
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let (z, p, k) = gpu_signal::buttap(2)?;
/// let (z, p, k) = gpu_signal::lp2lp_zpk(&z, &p, k, 2.0)?;
/// let (z, p, k) = gpu_signal::bilinear_zpk(&z, &p, k, 8.0)?; // zeros at -1
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`lp2lp_zpk`]; `fs` not positive and finite (`Value`).
pub fn bilinear_zpk(z: &Array, p: &Array, k: f64, fs: f64) -> Result<(Array, Array, f64)> {
    positive_finite(fs, "Sampling frequency fs")?;
    upload_zpk(&iir::bilinear(host_zpk(z, p, k, "bilinear_zpk")?, fs)?)
}

/// SciPy's `normalize(b, a)` for real 1-D coefficients: `a`'s leading
/// zeros trimmed, both divided by `a[0]`, `b`'s leading near-zeros
/// (`|v| <= 1e-14`) trimmed, one kept at least.
pub(crate) fn normalize_real(b: &[f64], a: &[f64]) -> Result<(Vec<f64>, Vec<f64>)> {
    let Some(first) = a.iter().position(|&v| v != 0.0) else {
        return Err(Error::Value(
            "Denominator must have at least one nonzero element.".into(),
        ));
    };
    let a0 = a[first];
    let num: Vec<f64> = b.iter().map(|v| v / a0).collect();
    let den: Vec<f64> = a[first..].iter().map(|v| v / a0).collect();
    let mut lead = num.iter().take_while(|v| v.abs() <= 1e-14).count();
    if lead == num.len() && lead > 0 {
        lead -= 1;
    }
    Ok((num[lead..].to_vec(), den))
}

/// `n choose k` as a float (exact for the orders designs use).
fn comb(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0f64, |c, i| c * (n - i) as f64 / (i + 1) as f64)
}

/// SciPy's `lp2lp(b, a, wo)` on the host.
pub(crate) fn lp2lp_host(b: &[f64], a: &[f64], wo: f64) -> Result<(Vec<f64>, Vec<f64>)> {
    let (d, n) = (a.len(), b.len());
    let m = d.max(n);
    // pwo[i] = wo^(m - 1 - i)
    let pwo: Vec<f64> = (0..m).map(|i| wo.powf((m - 1 - i) as f64)).collect();
    let (s1, s2) = (n.saturating_sub(d), d.saturating_sub(n));
    let b: Vec<f64> = b
        .iter()
        .enumerate()
        .map(|(i, v)| v * pwo[s1] / pwo[s2 + i])
        .collect();
    let a: Vec<f64> = a
        .iter()
        .enumerate()
        .map(|(i, v)| v * pwo[s1] / pwo[s1 + i])
        .collect();
    normalize_real(&b, &a)
}

/// SciPy's `lp2hp(b, a, wo)` on the host.
pub(crate) fn lp2hp_host(b: &[f64], a: &[f64], wo: f64) -> Result<(Vec<f64>, Vec<f64>)> {
    let (d, n) = (a.len(), b.len());
    let m = d.max(n);
    let pwo: Vec<f64> = (0..m)
        .map(|i| if wo != 1.0 { wo.powf(i as f64) } else { 1.0 })
        .collect();
    // Each reversed and scaled, the shorter padded with zeros.
    let flip = |v: &[f64]| -> Vec<f64> {
        let mut out = vec![0.0; m];
        for (i, x) in v.iter().rev().enumerate() {
            out[i] = x * pwo[i];
        }
        out
    };
    let (outb, outa) = (flip(b), flip(a));
    normalize_real(&outb, &outa)
}

/// SciPy's `lp2bp(b, a, wo, bw)` on the host: the sums over the binomial
/// expansion of `s -> (s^2 + wo^2) / (s bw)`, in SciPy's order.
pub(crate) fn lp2bp_host(b: &[f64], a: &[f64], wo: f64, bw: f64) -> Result<(Vec<f64>, Vec<f64>)> {
    let (dd, nn) = (a.len() - 1, b.len() - 1);
    let ma = nn.max(dd);
    let wosq = wo * wo;
    let expand = |c: &[f64], deg: usize| -> Vec<f64> {
        let np = deg + ma;
        let mut out = vec![0.0; np + 1];
        for j in 0..=np {
            let mut val = 0.0;
            for i in 0..=deg {
                for k in 0..=i {
                    if ma + 2 * k == j + i {
                        val +=
                            comb(i, k) * c[deg - i] * wosq.powf((i - k) as f64) / bw.powf(i as f64);
                    }
                }
            }
            out[np - j] = val;
        }
        out
    };
    normalize_real(&expand(b, nn), &expand(a, dd))
}

/// SciPy's `lp2bs(b, a, wo, bw)` on the host: the sums over the binomial
/// expansion of `s -> s bw / (s^2 + wo^2)`, in SciPy's order.
pub(crate) fn lp2bs_host(b: &[f64], a: &[f64], wo: f64, bw: f64) -> Result<(Vec<f64>, Vec<f64>)> {
    let (dd, nn) = (a.len() - 1, b.len() - 1);
    let m = nn.max(dd);
    let wosq = wo * wo;
    let expand = |c: &[f64], deg: usize| -> Vec<f64> {
        let np = 2 * m;
        let mut out = vec![0.0; np + 1];
        for j in 0..=np {
            let mut val = 0.0;
            for i in 0..=deg {
                for k in 0..=(m - i) {
                    if i + 2 * k == j {
                        val += comb(m - i, k)
                            * c[deg - i]
                            * wosq.powf((m - i - k) as f64)
                            * bw.powf(i as f64);
                    }
                }
            }
            out[np - j] = val;
        }
        out
    };
    normalize_real(&expand(b, nn), &expand(a, dd))
}

/// `p * q` of polynomials in ascending powers.
fn poly_mul(p: &[f64], q: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; p.len() + q.len() - 1];
    for (i, x) in p.iter().enumerate() {
        for (j, y) in q.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

/// SciPy's `bilinear(b, a, fs)` on the host: `s -> 2 fs (z - 1) / (z + 1)`
/// in the polynomials, as SciPy forms it with `(z + 1) / sqrt(2 fs)` and
/// `(z - 1) sqrt(2 fs)`.
pub(crate) fn bilinear_host(b: &[f64], a: &[f64], fs: f64) -> Result<(Vec<f64>, Vec<f64>)> {
    // Leading zeros removed first (NumPy's trim_zeros 'f').
    let trim = |v: &[f64]| -> Vec<f64> {
        let s = v.iter().position(|&x| x != 0.0).unwrap_or(v.len());
        v[s..].to_vec()
    };
    let (b, a) = (trim(b), trim(a));
    if a.is_empty() {
        return Err(Error::Value(
            "Denominator must have at least one nonzero element.".into(),
        ));
    }
    let fac = (fs * 2.0).sqrt();
    let zp1 = [1.0 / fac, 1.0 / fac];
    let zm1 = [-fac, fac];
    let n = a.len().max(b.len()) - 1;
    let pow = |p: &[f64], e: usize| (0..e).fold(vec![1.0], |acc, _| poly_mul(&acc, p));
    // Ascending powers of z; the coefficients come out highest first.
    let side = |c: &[f64]| -> Vec<f64> {
        let mut sum = vec![0.0; n + 1];
        for (q, &v) in c.iter().rev().enumerate() {
            let term = poly_mul(&pow(&zp1, n - q), &pow(&zm1, q));
            for (s, t) in sum.iter_mut().zip(&term) {
                *s += v * t;
            }
        }
        sum.reverse();
        sum
    };
    normalize_real(&side(&b), &side(&a))
}

/// Real 1-D coefficients from the device.
fn host_real(v: &Array, what: &str) -> Result<Vec<f64>> {
    one_d(v, what)?;
    if v.size() == 0 {
        return Err(Error::Value(format!("{what}: no coefficients")));
    }
    host_reals(v, what)
}

fn upload_ba(r: Result<(Vec<f64>, Vec<f64>)>) -> Result<(Array, Array)> {
    let (b, a) = r?;
    Ok((upload_real(&b)?, upload_real(&a)?))
}

/// SciPy's `lp2lp(b, a, wo)`: a lowpass filter's coefficients moved to
/// the cutoff `wo` (rad/s), normalized.
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[1.0f64], &[1])?;
/// let a = Array::from_slice(&[1.0f64, 1.0], &[2])?;
/// let (b2, a2) = gpu_signal::lp2lp(&b, &a, 2.0)?; // [2], [1, 2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `wo` not positive and finite, empty coefficients, an all-zero
/// denominator (`Value`); complex coefficients or more than one dimension
/// (`Unsupported`).
pub fn lp2lp(b: &Array, a: &Array, wo: f64) -> Result<(Array, Array)> {
    positive_finite(wo, "wo")?;
    upload_ba(lp2lp_host(
        &host_real(b, "lp2lp b")?,
        &host_real(a, "lp2lp a")?,
        wo,
    ))
}

/// SciPy's `lp2hp(b, a, wo)`: a lowpass filter's coefficients turned into
/// a highpass filter's with cutoff `wo`.
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[1.0f64], &[1])?;
/// let a = Array::from_slice(&[1.0f64, 1.0], &[2])?;
/// let (b2, a2) = gpu_signal::lp2hp(&b, &a, 2.0)?; // [1, 0], [1, 2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`lp2lp`].
pub fn lp2hp(b: &Array, a: &Array, wo: f64) -> Result<(Array, Array)> {
    positive_finite(wo, "wo")?;
    upload_ba(lp2hp_host(
        &host_real(b, "lp2hp b")?,
        &host_real(a, "lp2hp a")?,
        wo,
    ))
}

/// SciPy's `lp2bp(b, a, wo, bw)`: a lowpass filter's coefficients turned
/// into a bandpass filter's centred at `wo` with bandwidth `bw`.
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[1.0f64], &[1])?;
/// let a = Array::from_slice(&[1.0f64, 1.0], &[2])?;
/// let (b2, a2) = gpu_signal::lp2bp(&b, &a, 1.0, 1.0)?; // [1, 0], [1, 1, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`lp2lp`]; `bw` not positive and finite (`Value`).
pub fn lp2bp(b: &Array, a: &Array, wo: f64, bw: f64) -> Result<(Array, Array)> {
    positive_finite(wo, "wo")?;
    positive_finite(bw, "bw")?;
    upload_ba(lp2bp_host(
        &host_real(b, "lp2bp b")?,
        &host_real(a, "lp2bp a")?,
        wo,
        bw,
    ))
}

/// SciPy's `lp2bs(b, a, wo, bw)`: a lowpass filter's coefficients turned
/// into a bandstop filter's centred at `wo` with bandwidth `bw`.
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[1.0f64], &[1])?;
/// let a = Array::from_slice(&[1.0f64, 1.0], &[2])?;
/// let (b2, a2) = gpu_signal::lp2bs(&b, &a, 1.0, 1.0)?; // [1, 0, 1], [1, 1, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`lp2bp`].
pub fn lp2bs(b: &Array, a: &Array, wo: f64, bw: f64) -> Result<(Array, Array)> {
    positive_finite(wo, "wo")?;
    positive_finite(bw, "bw")?;
    upload_ba(lp2bs_host(
        &host_real(b, "lp2bs b")?,
        &host_real(a, "lp2bs a")?,
        wo,
        bw,
    ))
}

/// SciPy's `bilinear(b, a, fs)`: an analog filter's coefficients mapped
/// to a digital filter's of sampling frequency `fs` by the bilinear
/// transform.
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[1.0f64], &[1])?;
/// let a = Array::from_slice(&[1.0f64, 1.0], &[2])?;
/// let (bz, az) = gpu_signal::bilinear(&b, &a, 1.0)?; // [1/3, 1/3], [1, -1/3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`lp2lp`]; `fs` not positive and finite (`Value`).
pub fn bilinear(b: &Array, a: &Array, fs: f64) -> Result<(Array, Array)> {
    positive_finite(fs, "Sampling frequency fs")?;
    upload_ba(bilinear_host(
        &host_real(b, "bilinear b")?,
        &host_real(a, "bilinear a")?,
        fs,
    ))
}

/// The host zpk transforms, for the tests.
#[cfg(test)]
pub(crate) fn zpk_host(
    which: &str,
    z: Vec<num_complex::Complex64>,
    p: Vec<num_complex::Complex64>,
    k: f64,
    wo: f64,
    bw: f64,
) -> Result<Zpk> {
    let f = Zpk { z, p, k };
    match which {
        "lp2lp_zpk" => iir::lp2lp(f, wo),
        "lp2hp_zpk" => iir::lp2hp(f, wo),
        "lp2bp_zpk" => iir::lp2bp(f, wo, bw),
        "lp2bs_zpk" => iir::lp2bs(f, wo, bw),
        _ => iir::bilinear(f, wo),
    }
}
