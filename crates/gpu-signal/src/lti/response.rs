//! Frequency responses of LTI systems (SciPy's `freqresp`, `bode`,
//! `dfreqresp`, `dbode`): a system's transfer function or zeros, poles
//! and gain (a state space through `ss2zpk`) evaluated by `freqs` or
//! `freqz` on the host, with Bode's magnitude in dB and unwrapped phase in
//! degrees.

use std::f64::consts::PI;

use gpu_array::{Array, Error, Result};
use num_complex::Complex64;

use super::simulate::LtiSystem;
use super::{host_system, ss2tf_host};
use crate::design::freqs::{AnalogFreqs, freqs_host, freqs_zpk_host};
use crate::design::freqz::{FreqzOptions, WorN, frequencies, freqz_zpk_host, response};
use crate::design::zpk::tf2zpk_host;
use crate::filtering::host_values;

/// A SISO system as SciPy keeps it for a response: a transfer function,
/// or zeros, poles and gain.
pub(crate) enum Siso {
    Tf(Vec<Complex64>, Vec<Complex64>),
    Zpk(Vec<Complex64>, Vec<Complex64>, f64),
}

pub(crate) fn siso(system: &LtiSystem<'_>, what: &str) -> Result<Siso> {
    let single = || {
        Error::Value(format!(
            "{what} requires a SISO (single input, single output) system."
        ))
    };
    Ok(match *system {
        LtiSystem::Tf { num, den } => {
            if num.ndim() > 1 && num.shape()[0] != 1 {
                return Err(single());
            }
            Siso::Tf(host_values(num)?, host_values(den)?)
        }
        LtiSystem::Zpk { z, p, k } => Siso::Zpk(host_values(z)?, host_values(p)?, k),
        LtiSystem::Ss { a, b, c, d } => {
            let s = host_system(a, b, c, d)?;
            if s.p != 1 || s.q != 1 {
                return Err(single());
            }
            let (num, den) = ss2tf_host(&s, 0)?;
            let c = |v: &[f64]| {
                v.iter()
                    .map(|&x| Complex64::new(x, 0.0))
                    .collect::<Vec<_>>()
            };
            let (z, p, k) = tf2zpk_host(&c(&num), &c(&den))?;
            Siso::Zpk(z, p, k.re)
        }
    })
}

/// SciPy's `freqresp` on the host.
pub(crate) fn freqresp_host(system: &Siso, w: &AnalogFreqs) -> Result<(Vec<f64>, Vec<Complex64>)> {
    match system {
        Siso::Tf(b, a) => freqs_host(b, a, w),
        Siso::Zpk(z, p, k) => freqs_zpk_host(z, p, *k, w),
    }
}

/// NumPy's `unwrap` (discontinuity pi, period 2 pi).
pub(crate) fn unwrap(p: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(p.len());
    let mut correction = 0.0;
    for (i, &v) in p.iter().enumerate() {
        if i > 0 {
            let dd = v - p[i - 1];
            // NumPy's mod: the remainder takes the divisor's sign.
            let mut m = (dd + PI) % (2.0 * PI);
            if m < 0.0 {
                m += 2.0 * PI;
            }
            let mut ddmod = m - PI;
            if ddmod == -PI && dd > 0.0 {
                ddmod = PI;
            }
            if dd.abs() >= PI {
                correction += ddmod - dd;
            }
        }
        out.push(v + correction);
    }
    out
}

pub(crate) fn bode_parts(h: &[Complex64]) -> (Vec<f64>, Vec<f64>) {
    let mag = h.iter().map(|v| 20.0 * v.norm().log10()).collect();
    let phase: Vec<f64> = h.iter().map(|v| v.im.atan2(v.re)).collect();
    let phase = unwrap(&phase).iter().map(|v| v * 180.0 / PI).collect();
    (mag, phase)
}

fn upload(v: &[f64]) -> Result<Array> {
    Array::from_slice(v, &[v.len()])
}

/// SciPy's `freqresp(system, w)`: the frequency response of the SISO
/// continuous-time system at [`findfreqs`](crate::findfreqs)' `n`
/// frequencies (SciPy's default `n` is 10000: `AnalogFreqs::N(10000)`) or
/// the given ones, as `(w, h)` (computed on the host).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::{AnalogFreqs, LtiSystem};
/// # fn main() -> gpu_array::Result<()> {
/// let num = Array::from_slice(&[1.0f64], &[1])?;
/// let den = Array::from_slice(&[1.0f64, 1.0], &[2])?;
/// let (w, h) = gpu_signal::freqresp(&LtiSystem::Tf { num: &num, den: &den }, &AnalogFreqs::Freqs(vec![1.0]))?; // 0.5 - 0.5j
/// # Ok(()) }
/// ```
///
/// # Errors
/// A system of several inputs or outputs (`Value`, SciPy's message); the
/// system's errors.
pub fn freqresp(system: &LtiSystem<'_>, w: &AnalogFreqs) -> Result<(Array, Array)> {
    let (w, h) = freqresp_host(&siso(system, "freqresp()")?, w)?;
    Ok((upload(&w)?, Array::from_slice(&h, &[h.len()])?))
}

/// SciPy's `bode(system, w)`: [`freqresp`]'s magnitude in dB and phase in
/// degrees (unwrapped), as `(w, mag, phase)` (SciPy's default `n` is 100).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::{AnalogFreqs, LtiSystem};
/// # fn main() -> gpu_array::Result<()> {
/// let num = Array::from_slice(&[1.0f64], &[1])?;
/// let den = Array::from_slice(&[1.0f64, 1.0], &[2])?;
/// let (w, mag, phase) = gpu_signal::bode(&LtiSystem::Tf { num: &num, den: &den }, &AnalogFreqs::N(100))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`freqresp`].
pub fn bode(system: &LtiSystem<'_>, w: &AnalogFreqs) -> Result<(Array, Array, Array)> {
    let (w, h) = freqresp_host(&siso(system, "freqresp()")?, w)?;
    let (mag, phase) = bode_parts(&h);
    Ok((upload(&w)?, upload(&mag)?, upload(&phase)?))
}

/// SciPy's `dfreqresp` on the host: `w` in radians per sample.
pub(crate) fn dfreqresp_host(
    system: &Siso,
    worn: &WorN,
    whole: bool,
) -> Result<(Vec<f64>, Vec<Complex64>)> {
    let o = FreqzOptions::default().worn(worn.clone()).whole(whole);
    let (w, _) = frequencies(&o)?;
    let h = match system {
        Siso::Tf(b, a) => {
            // Polynomials in z to polynomials in 1/z: the shorter padded
            // in front (SciPy's _z_to_zinv).
            let (mut b, mut a) = (b.clone(), a.clone());
            let zero = Complex64::new(0.0, 0.0);
            if b.len() > a.len() {
                a.splice(0..0, std::iter::repeat_n(zero, b.len() - a.len()));
            } else if a.len() > b.len() {
                b.splice(0..0, std::iter::repeat_n(zero, a.len() - b.len()));
            }
            response(&b, &a, &w)
        }
        Siso::Zpk(z, p, k) => freqz_zpk_host(z, p, *k, &w),
    };
    Ok((w, h))
}

/// SciPy's `dfreqresp(system + (dt,), w, whole=whole)`: the frequency
/// response of the SISO discrete-time system at `n` frequencies from 0 to
/// pi (the whole circle with `whole`; SciPy's default `n` is 10000) or at
/// the given ones, in radians per sample, as `(w, h)` (computed on the
/// host).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::{LtiSystem, WorN};
/// # fn main() -> gpu_array::Result<()> {
/// let num = Array::from_slice(&[1.0f64], &[1])?;
/// let den = Array::from_slice(&[1.0f64, -0.5], &[2])?;
/// let (w, h) = gpu_signal::dfreqresp(&LtiSystem::Tf { num: &num, den: &den }, &WorN::N(512), false)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`freqresp`].
pub fn dfreqresp(system: &LtiSystem<'_>, worn: &WorN, whole: bool) -> Result<(Array, Array)> {
    let (w, h) = dfreqresp_host(&siso(system, "dfreqresp")?, worn, whole)?;
    Ok((upload(&w)?, Array::from_slice(&h, &[h.len()])?))
}

/// SciPy's `dbode(system + (dt,), w)`: [`dfreqresp`]'s magnitude in dB and
/// unwrapped phase in degrees, the frequencies in radians per time unit
/// (`w / dt`), as `(w, mag, phase)` (SciPy's default `n` is 100).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::{LtiSystem, WorN};
/// # fn main() -> gpu_array::Result<()> {
/// let num = Array::from_slice(&[1.0f64], &[1])?;
/// let den = Array::from_slice(&[1.0f64, -0.5], &[2])?;
/// let (w, mag, phase) = gpu_signal::dbode(&LtiSystem::Tf { num: &num, den: &den }, 0.1, &WorN::N(100))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`freqresp`]; `dt` not positive and finite (`Value`).
pub fn dbode(system: &LtiSystem<'_>, dt: f64, worn: &WorN) -> Result<(Array, Array, Array)> {
    crate::filtering::positive_finite(dt, "the sampling interval dt")?;
    let (w, h) = dfreqresp_host(&siso(system, "dfreqresp")?, worn, false)?;
    let (mag, phase) = bode_parts(&h);
    let w: Vec<f64> = w.iter().map(|v| v / dt).collect();
    Ok((upload(&w)?, upload(&mag)?, upload(&phase)?))
}
