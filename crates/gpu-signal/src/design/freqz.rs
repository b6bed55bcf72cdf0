//! Frequency responses of digital filters (`freqz`, `sosfreqz`,
//! `freqz_zpk`) and their group delay (`group_delay`),
//! evaluated on the host (the polynomials in `exp(-jw)` by Horner's rule,
//! where SciPy uses an FFT for FIR filters at its default frequencies:
//! equal up to rounding) and returned as device arrays.

use gpu_array::{Array, Error, Result};
use num_complex::Complex64;
use std::f64::consts::PI;

use crate::filtering::host_values;

/// The frequencies of [`freqz_with`] (SciPy's `worN=`): a count of
/// equally spaced points, or the frequencies themselves (in the units of
/// `fs`).
#[derive(Debug, Clone, PartialEq)]
pub enum WorN {
    /// This many points from 0 up to Nyquist (or the whole circle).
    N(usize),
    /// These frequencies.
    Freqs(Vec<f64>),
}

impl Default for WorN {
    fn default() -> Self {
        WorN::N(512)
    }
}

/// SciPy's keywords of [`freqz_with`] and [`sosfreqz_with`]: `worN` (512
/// points), `whole` (false: up to Nyquist), `fs` (2 pi: radians per
/// sample) and `include_nyquist` (false).
///
/// ```
/// use gpu_signal::{FreqzOptions, WorN};
/// let o = FreqzOptions::default().worn(WorN::N(1024)).whole(true).fs(1000.0);
/// assert_eq!((o.worn, o.whole, o.fs), (WorN::N(1024), true, 1000.0));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FreqzOptions {
    /// The frequencies.
    pub worn: WorN,
    /// The whole unit circle rather than its upper half.
    pub whole: bool,
    /// The sampling frequency.
    pub fs: f64,
    /// With a point count and not `whole`, end at Nyquist itself.
    pub include_nyquist: bool,
}

impl Default for FreqzOptions {
    fn default() -> Self {
        FreqzOptions {
            worn: WorN::N(512),
            whole: false,
            fs: 2.0 * PI,
            include_nyquist: false,
        }
    }
}

impl FreqzOptions {
    /// Sets `worN`.
    ///
    /// ```
    /// use gpu_signal::{FreqzOptions, WorN};
    /// assert_eq!(FreqzOptions::default().worn(WorN::Freqs(vec![0.1])).worn, WorN::Freqs(vec![0.1]));
    /// ```
    #[must_use]
    pub fn worn(mut self, worn: WorN) -> Self {
        self.worn = worn;
        self
    }

    /// Sets `whole`.
    ///
    /// ```
    /// assert!(gpu_signal::FreqzOptions::default().whole(true).whole);
    /// ```
    #[must_use]
    pub fn whole(mut self, whole: bool) -> Self {
        self.whole = whole;
        self
    }

    /// Sets `fs`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::FreqzOptions::default().fs(48e3).fs, 48e3);
    /// ```
    #[must_use]
    pub fn fs(mut self, fs: f64) -> Self {
        self.fs = fs;
        self
    }

    /// Sets `include_nyquist`.
    ///
    /// ```
    /// assert!(gpu_signal::FreqzOptions::default().include_nyquist(true).include_nyquist);
    /// ```
    #[must_use]
    pub fn include_nyquist(mut self, include_nyquist: bool) -> Self {
        self.include_nyquist = include_nyquist;
        self
    }
}

/// The most frequencies a response is evaluated at (a count beyond would
/// only fail to allocate).
pub(crate) const MAX_FREQUENCIES: usize = 1 << 26;

/// `worN` as a count within [`MAX_FREQUENCIES`].
pub(crate) fn check_count(n: usize) -> Result<()> {
    if n > MAX_FREQUENCIES {
        return Err(Error::Value(format!(
            "worN of {n} frequencies is too many (at most {MAX_FREQUENCIES})"
        )));
    }
    Ok(())
}

/// [`check_count`] of a [`WorN`].
pub(crate) fn check_worn(w: &WorN) -> Result<()> {
    match w {
        WorN::N(n) => check_count(*n),
        WorN::Freqs(_) => Ok(()),
    }
}

/// NumPy's `linspace(0, stop, n, endpoint)`.
pub(crate) fn linspace(stop: f64, n: usize, endpoint: bool) -> Vec<f64> {
    let div = if endpoint { n.saturating_sub(1) } else { n };
    if div == 0 {
        return vec![0.0; n];
    }
    let step = stop / div as f64;
    (0..n)
        .map(|i| {
            if endpoint && i + 1 == n {
                stop
            } else {
                i as f64 * step
            }
        })
        .collect()
}

/// The frequencies in radians per sample and in `fs` units (a count
/// within [`MAX_FREQUENCIES`]).
pub(crate) fn frequencies(o: &FreqzOptions) -> Result<(Vec<f64>, Vec<f64>)> {
    check_worn(&o.worn)?;
    let w = match &o.worn {
        WorN::N(n) => {
            let last = if o.whole { 2.0 * PI } else { PI };
            linspace(last, *n, o.include_nyquist && !o.whole)
        }
        WorN::Freqs(f) => f.iter().map(|v| 2.0 * PI * v / o.fs).collect(),
    };
    let out = w.iter().map(|v| v * (o.fs / (2.0 * PI))).collect();
    Ok((w, out))
}

/// `sum_k c[k] x^k` (NumPy's `polyval` of the polynomial module).
fn polyval_ascending(c: &[Complex64], x: Complex64) -> Complex64 {
    c.iter()
        .rev()
        .fold(Complex64::new(0.0, 0.0), |acc, &ck| acc * x + ck)
}

/// `B(e^{-jw}) / A(e^{-jw})` at each `w`.
pub(crate) fn response(b: &[Complex64], a: &[Complex64], w: &[f64]) -> Vec<Complex64> {
    w.iter()
        .map(|&wv| {
            let zm1 = Complex64::new(0.0, -wv).exp();
            polyval_ascending(b, zm1) / polyval_ascending(a, zm1)
        })
        .collect()
}

/// SciPy's `freqz(b, a)`: the frequency response of the digital filter at
/// 512 frequencies from 0 up to (not including) pi radians per sample, as
/// `(w, h)` (float64, complex128 device arrays, computed on the host).
///
/// ```no_run
/// use gpu_signal::{butter, freqz};
/// # fn main() -> gpu_array::Result<()> {
/// let (b, a) = butter(4, &[0.2])?;
/// let (w, h) = freqz(&b, &a)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`freqz_with`].
pub fn freqz(b: &Array, a: &Array) -> Result<(Array, Array)> {
    freqz_with(b, a, &FreqzOptions::default())
}

/// [`freqz`] with SciPy's `worN=`, `whole=`, `fs=` and `include_nyquist=`.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::{FreqzOptions, WorN, freqz_with};
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[0.25f64, 0.5, 0.25], &[3])?;
/// let a = Array::from_slice(&[1.0f64], &[1])?;
/// let o = FreqzOptions::default().worn(WorN::Freqs(vec![0.0, 100.0, 250.0])).fs(1000.0);
/// let (w, h) = freqz_with(&b, &a, &o)?; // h at 0, 100 and 250 Hz
/// # Ok(()) }
/// ```
///
/// # Errors
/// `b` or `a` of more than one dimension (`Unsupported`: SciPy's
/// several-numerator form is not supported).
pub fn freqz_with(b: &Array, a: &Array, opts: &FreqzOptions) -> Result<(Array, Array)> {
    if b.ndim() > 1 || a.ndim() > 1 {
        return Err(Error::Unsupported(
            "freqz of numerators or denominators of more than one dimension".into(),
        ));
    }
    let (w, wout) = frequencies(opts)?;
    let h = response(&host_values(b)?, &host_values(a)?, &w);
    Ok((
        Array::from_slice(&wout, &[wout.len()])?,
        Array::from_slice(&h, &[h.len()])?,
    ))
}

/// SciPy's `sosfreqz(sos)` (`freqz_sos`): the frequency response of
/// second-order sections, the product of the sections' responses, at 512
/// frequencies up to Nyquist (host computation, device results).
///
/// ```no_run
/// use gpu_signal::{IirOptions, Output, ellip_with, sosfreqz};
/// # fn main() -> gpu_array::Result<()> {
/// let sos = ellip_with(6, 0.5, 60.0, &[0.2], &IirOptions::default().output(Output::Sos))?.into_sos()?;
/// let (w, h) = sosfreqz(&sos)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`sosfreqz_with`].
pub fn sosfreqz(sos: &Array) -> Result<(Array, Array)> {
    sosfreqz_with(sos, &FreqzOptions::default())
}

/// [`sosfreqz`] with SciPy's `worN=`, `whole=` and `fs=`.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::{FreqzOptions, WorN, sosfreqz_with};
/// # fn main() -> gpu_array::Result<()> {
/// let sos = Array::from_slice(&[1.0f64, 2.0, 1.0, 1.0, -0.5, 0.1], &[1, 6])?;
/// let (w, h) = sosfreqz_with(&sos, &FreqzOptions::default().worn(WorN::N(2048)).whole(true))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: `sos` not of shape `(n_sections, 6)`, `sos[:, 3]` not all
/// ones, no sections ("Cannot compute frequencies with no sections").
pub fn sosfreqz_with(sos: &Array, opts: &FreqzOptions) -> Result<(Array, Array)> {
    let sections = crate::filtering::sos::validate_sos(sos)?;
    if sections.is_empty() {
        return Err(Error::Value(
            "Cannot compute frequencies with no sections".into(),
        ));
    }
    let (w, wout) = frequencies(opts)?;
    let mut h = vec![Complex64::new(1.0, 0.0); w.len()];
    for s in &sections {
        for (hv, r) in h.iter_mut().zip(response(&s[..3], &s[3..], &w)) {
            *hv *= r;
        }
    }
    Ok((
        Array::from_slice(&wout, &[wout.len()])?,
        Array::from_slice(&h, &[h.len()])?,
    ))
}

/// The frequencies of [`freqz_zpk_with`] and [`group_delay_with`]: as
/// [`frequencies`], where SciPy's functions have no `include_nyquist`.
fn frequencies_without_nyquist(o: &FreqzOptions, what: &str) -> Result<(Vec<f64>, Vec<f64>)> {
    if o.include_nyquist {
        return Err(Error::Value(format!(
            "{what} has no include_nyquist (SciPy's has none)"
        )));
    }
    crate::filtering::positive_finite(o.fs, "Sampling frequency fs")?;
    frequencies(o)
}

/// `prod (x - r)` (NumPy's `polyvalfromroots`).
pub(crate) fn from_roots(r: &[Complex64], x: Complex64) -> Complex64 {
    r.iter()
        .fold(Complex64::new(1.0, 0.0), |acc, &ri| acc * (x - ri))
}

/// SciPy's `freqz_zpk(z, p, k)` on the host.
pub(crate) fn freqz_zpk_host(
    z: &[Complex64],
    p: &[Complex64],
    k: f64,
    w: &[f64],
) -> Vec<Complex64> {
    w.iter()
        .map(|&wv| {
            let zm1 = Complex64::new(0.0, wv).exp();
            k * from_roots(z, zm1) / from_roots(p, zm1)
        })
        .collect()
}

/// SciPy's `freqz_zpk(z, p, k)`: the frequency response of the digital
/// filter given by its zeros, poles and gain at 512 frequencies from 0 up
/// to (not including) pi radians per sample, as `(w, h)` (float64,
/// complex128 device arrays, computed on the host).
///
/// ```no_run
/// use gpu_signal::{IirOptions, Output, butter_with, freqz_zpk};
/// # fn main() -> gpu_array::Result<()> {
/// let o = IirOptions::default().output(Output::Zpk);
/// let (z, p, k) = butter_with(4, &[0.2], &o)?.into_zpk()?;
/// let (w, h) = freqz_zpk(&z, &p, k)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`freqz_zpk_with`].
pub fn freqz_zpk(z: &Array, p: &Array, k: f64) -> Result<(Array, Array)> {
    freqz_zpk_with(z, p, k, &FreqzOptions::default())
}

/// [`freqz_zpk`] with SciPy's `worN=`, `whole=` and `fs=`.
///
/// ```no_run
/// use gpu_array::Array;
/// use num_complex::Complex64;
/// use gpu_signal::{FreqzOptions, WorN, freqz_zpk_with};
/// # fn main() -> gpu_array::Result<()> {
/// let z = Array::from_slice(&[Complex64::new(-1.0, 0.0)], &[1])?;
/// let p = Array::from_slice(&[Complex64::new(0.5, 0.0)], &[1])?;
/// let o = FreqzOptions::default().worn(WorN::Freqs(vec![0.0, 250.0])).fs(1000.0);
/// let (w, h) = freqz_zpk_with(&z, &p, 0.25, &o)?; // h = [1, 0.1 - 0.3j]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `include_nyquist` set (SciPy's `freqz_zpk` has none), `fs` not
/// positive and finite (`Value`); zeros or poles of more than one
/// dimension (`Unsupported`).
pub fn freqz_zpk_with(z: &Array, p: &Array, k: f64, opts: &FreqzOptions) -> Result<(Array, Array)> {
    if z.ndim() > 1 || p.ndim() > 1 {
        return Err(Error::Unsupported(
            "freqz_zpk of zeros or poles of more than one dimension".into(),
        ));
    }
    let (w, wout) = frequencies_without_nyquist(opts, "freqz_zpk")?;
    let h = freqz_zpk_host(&host_values(z)?, &host_values(p)?, k, &w);
    Ok((
        Array::from_slice(&wout, &[wout.len()])?,
        Array::from_slice(&h, &[h.len()])?,
    ))
}

/// SciPy's `group_delay((b, a))` on the host: `-d(arg H)/dw` at each `w`
/// (radians per sample) from `B(z) A*(1/z*)`'s derivative, the singular
/// points (a zero of that product on the circle) set to 0 as SciPy sets
/// them.
pub(crate) fn group_delay_host(b: &[Complex64], a: &[Complex64], w: &[f64]) -> Vec<f64> {
    // c = b convolved with conj(a reversed); cr[k] = k c[k].
    let ar: Vec<Complex64> = a.iter().rev().map(|v| v.conj()).collect();
    let c = super::linalg::polymul(b, &ar);
    let cr: Vec<Complex64> = c.iter().enumerate().map(|(k, v)| v * k as f64).collect();
    w.iter()
        .map(|&wv| {
            let z = Complex64::new(0.0, -wv).exp();
            let gd =
                (polyval_ascending(&cr, z) / polyval_ascending(&c, z)).re - a.len() as f64 + 1.0;
            if gd.is_finite() { gd } else { 0.0 }
        })
        .collect()
}

/// SciPy's `group_delay((b, a))`: the group delay of the digital filter,
/// in samples, at 512 frequencies from 0 up to (not including) pi radians
/// per sample, as `(w, gd)` (float64 device arrays, computed on the
/// host; where the delay is singular it is 0, as SciPy sets it with a
/// warning).
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[1.0f64, 2.0, 3.0, 2.0, 1.0], &[5])?; // symmetric FIR
/// let a = Array::from_slice(&[1.0f64], &[1])?;
/// let (w, gd) = gpu_signal::group_delay(&b, &a)?; // gd = 2 everywhere
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`group_delay_with`].
pub fn group_delay(b: &Array, a: &Array) -> Result<(Array, Array)> {
    group_delay_with(b, a, &FreqzOptions::default())
}

/// [`group_delay`] with SciPy's `w=` (`worn`), `whole=` and `fs=`.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::{FreqzOptions, WorN, butter, group_delay_with};
/// # fn main() -> gpu_array::Result<()> {
/// let (b, a) = butter(4, &[50.0 / 500.0])?;
/// let o = FreqzOptions::default().worn(WorN::Freqs(vec![10.0, 50.0])).fs(1000.0);
/// let (f, gd) = group_delay_with(&b, &a, &o)?; // samples of delay at 10 and 50 Hz
/// # Ok(()) }
/// ```
///
/// # Errors
/// `include_nyquist` set (SciPy's has none), `fs` not positive and
/// finite, empty `b` or `a` (`Value`); more than one dimension
/// (`Unsupported`).
pub fn group_delay_with(b: &Array, a: &Array, opts: &FreqzOptions) -> Result<(Array, Array)> {
    if b.ndim() > 1 || a.ndim() > 1 {
        return Err(Error::Unsupported(
            "group_delay of numerators or denominators of more than one dimension".into(),
        ));
    }
    if b.size() == 0 || a.size() == 0 {
        return Err(Error::Value("group_delay: empty coefficients".into()));
    }
    let (w, wout) = frequencies_without_nyquist(opts, "group_delay")?;
    let gd = group_delay_host(&host_values(b)?, &host_values(a)?, &w);
    Ok((
        Array::from_slice(&wout, &[wout.len()])?,
        Array::from_slice(&gd, &[gd.len()])?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frequencies_are_scipys() {
        let (w, out) = frequencies(&FreqzOptions::default().worn(WorN::N(4))).unwrap();
        assert_eq!(w, [0.0, PI / 4.0, PI / 2.0, 3.0 * PI / 4.0]);
        assert_eq!(w, out);
        let (_, out) = frequencies(
            &FreqzOptions::default()
                .worn(WorN::N(3))
                .fs(10.0)
                .include_nyquist(true),
        )
        .unwrap();
        assert_eq!(out, [0.0, 2.5, 5.0]);
        // A two-tap average: H(w) = (1 + e^{-jw}) / 2.
        let c = |v: &[f64]| {
            v.iter()
                .map(|&r| Complex64::new(r, 0.0))
                .collect::<Vec<_>>()
        };
        let h = response(&c(&[0.5, 0.5]), &c(&[1.0]), &[0.0, PI]);
        assert!((h[0] - 1.0).norm() < 1e-16 && h[1].norm() < 1e-16);
    }
}
