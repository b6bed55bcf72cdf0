//! Frequency responses of analog filters (`freqs`, `freqs_zpk`, and
//! `findfreqs`, their default frequencies), evaluated on the host as
//! SciPy evaluates them and returned as device arrays.

use gpu_array::{Array, Error, Result};
use num_complex::Complex64;

use super::freqz::{check_count, from_roots};
use super::linalg::roots;
use crate::filtering::host_values;

/// The frequencies of [`freqs`] and [`freqs_zpk`] (SciPy's `worN=`): a
/// count for [`findfreqs`]' range, or the frequencies themselves (rad/s).
#[derive(Debug, Clone, PartialEq)]
pub enum AnalogFreqs {
    /// This many frequencies from [`findfreqs`] (SciPy's default: 200).
    N(usize),
    /// These frequencies, in rad/s.
    Freqs(Vec<f64>),
}

impl Default for AnalogFreqs {
    fn default() -> Self {
        AnalogFreqs::N(200)
    }
}

/// SciPy's `findfreqs` on the host, from the poles `ep` and zeros `tz`: a
/// log-spaced range that covers the interesting part of the response
/// (from a tenth of the lowest to three times the highest pole or zero,
/// in decades).
pub(crate) fn findfreqs_host(ep: &[Complex64], tz: &[Complex64], n: usize) -> Vec<f64> {
    let ep: Vec<Complex64> = if ep.is_empty() {
        vec![Complex64::new(-1000.0, 0.0)]
    } else {
        ep.to_vec()
    };
    let ez: Vec<Complex64> = ep
        .iter()
        .filter(|v| v.im >= 0.0)
        .chain(tz.iter().filter(|v| v.norm() < 1e5 && v.im >= 0.0))
        .copied()
        .collect();
    // 1 where a value is (nearly) 0, so its logarithm is finite.
    let integ = |v: &Complex64| if v.norm() < 1e-10 { 1.0 } else { 0.0 };
    let hi = ez
        .iter()
        .map(|v| 3.0 * (v.re + integ(v)).abs() + 1.5 * v.im)
        .fold(f64::NEG_INFINITY, f64::max);
    let lo = ez
        .iter()
        .map(|v| (v.re + integ(v)).abs() + 2.0 * v.im)
        .fold(f64::INFINITY, f64::min);
    let hfreq = (hi.log10() + 0.5).round_ties_even();
    let lfreq = ((0.1 * lo).log10() - 0.5).round_ties_even();
    logspace(lfreq, hfreq, n)
}

/// NumPy's `logspace(start, stop, n)`: `10^linspace(start, stop, n)`.
fn logspace(start: f64, stop: f64, n: usize) -> Vec<f64> {
    if n == 0 {
        return Vec::new();
    }
    let div = (n - 1).max(1) as f64;
    let step = (stop - start) / div;
    (0..n)
        .map(|i| {
            let e = if i + 1 == n && n > 1 {
                stop
            } else {
                start + i as f64 * step
            };
            10f64.powf(e)
        })
        .collect()
}

/// SciPy's `findfreqs(num, den, N)`: `n` frequencies (rad/s) spanning the
/// interesting part of the analog filter `num / den`'s response (its
/// poles' and zeros' range in decades), as a float64 device array
/// (computed on the host).
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[1.0f64], &[1])?;
/// let a = Array::from_slice(&[1.0f64, 1.0], &[2])?;
/// let w = gpu_signal::findfreqs(&b, &a, 5)?; // [0.01, 0.0562, 0.316, 1.78, 10]
/// # Ok(()) }
/// ```
///
/// # Errors
/// More than one dimension (`Unsupported`).
pub fn findfreqs(num: &Array, den: &Array, n: usize) -> Result<Array> {
    check_count(n)?;
    let (b, a) = (poly(num, "findfreqs")?, poly(den, "findfreqs")?);
    let w = findfreqs_host(&roots(&a), &roots(&b), n);
    Array::from_slice(&w, &[w.len()])
}

/// [`check_count`] of an [`AnalogFreqs`].
pub(crate) fn check_analog(w: &AnalogFreqs) -> Result<()> {
    match w {
        AnalogFreqs::N(n) => check_count(*n),
        AnalogFreqs::Freqs(_) => Ok(()),
    }
}

fn poly(v: &Array, what: &str) -> Result<Vec<Complex64>> {
    if v.ndim() > 1 {
        return Err(Error::Unsupported(format!(
            "{what} of more than one dimension"
        )));
    }
    host_values(v)
}

/// NumPy's `polyval` (highest power first).
fn polyval(c: &[Complex64], x: Complex64) -> Complex64 {
    c.iter()
        .fold(Complex64::new(0.0, 0.0), |acc, &ck| acc * x + ck)
}

/// SciPy's `freqs(b, a, worN)` on the host: the frequencies and `B(jw) /
/// A(jw)`.
pub(crate) fn freqs_host(
    b: &[Complex64],
    a: &[Complex64],
    worn: &AnalogFreqs,
) -> Result<(Vec<f64>, Vec<Complex64>)> {
    check_analog(worn)?;
    let w = match worn {
        AnalogFreqs::N(n) => findfreqs_host(&roots(a), &roots(b), *n),
        AnalogFreqs::Freqs(f) => f.clone(),
    };
    let h = w
        .iter()
        .map(|&wv| {
            let s = Complex64::new(0.0, wv);
            polyval(b, s) / polyval(a, s)
        })
        .collect();
    Ok((w, h))
}

/// SciPy's `freqs_zpk(z, p, k, worN)` on the host.
pub(crate) fn freqs_zpk_host(
    z: &[Complex64],
    p: &[Complex64],
    k: f64,
    worn: &AnalogFreqs,
) -> Result<(Vec<f64>, Vec<Complex64>)> {
    check_analog(worn)?;
    let w = match worn {
        AnalogFreqs::N(n) => findfreqs_host(p, z, *n),
        AnalogFreqs::Freqs(f) => f.clone(),
    };
    let h = w
        .iter()
        .map(|&wv| {
            let s = Complex64::new(0.0, wv);
            k * from_roots(z, s) / from_roots(p, s)
        })
        .collect();
    Ok((w, h))
}

fn upload(w: Vec<f64>, h: Vec<Complex64>) -> Result<(Array, Array)> {
    Ok((
        Array::from_slice(&w, &[w.len()])?,
        Array::from_slice(&h, &[h.len()])?,
    ))
}

/// SciPy's `freqs(b, a, worN)`: the frequency response `B(jw) / A(jw)` of
/// the analog filter with numerator `b` and denominator `a` (highest power
/// first), at [`findfreqs`]' frequencies (`AnalogFreqs::N(200)`, SciPy's
/// default) or the given ones, as `(w, h)` (float64 rad/s, complex128;
/// device arrays computed on the host).
///
/// ```no_run
/// use gpu_signal::{AnalogFreqs, BandType, IirOptions, butter_with, freqs};
/// # fn main() -> gpu_array::Result<()> {
/// let (b, a) = butter_with(4, &[10.0], &IirOptions::default().analog(true))?.into_ba()?;
/// let (w, h) = freqs(&b, &a, &AnalogFreqs::default())?; // 200 frequencies around 10 rad/s
/// # Ok(()) }
/// ```
///
/// # Errors
/// More than one dimension (`Unsupported`); device copies failed.
pub fn freqs(b: &Array, a: &Array, worn: &AnalogFreqs) -> Result<(Array, Array)> {
    let (w, h) = freqs_host(&poly(b, "freqs")?, &poly(a, "freqs")?, worn)?;
    upload(w, h)
}

/// SciPy's `freqs_zpk(z, p, k, worN)`: [`freqs`] for a filter given by its
/// zeros, poles and gain.
///
/// ```no_run
/// use gpu_signal::{AnalogFreqs, buttap, freqs_zpk};
/// # fn main() -> gpu_array::Result<()> {
/// let (z, p, k) = buttap(3)?;
/// let (w, h) = freqs_zpk(&z, &p, k, &AnalogFreqs::Freqs(vec![0.5, 1.0, 2.0]))?; // |h(1)| = 1/sqrt 2
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`freqs`].
pub fn freqs_zpk(z: &Array, p: &Array, k: f64, worn: &AnalogFreqs) -> Result<(Array, Array)> {
    let (w, h) = freqs_zpk_host(&poly(z, "freqs_zpk")?, &poly(p, "freqs_zpk")?, k, worn)?;
    upload(w, h)
}
