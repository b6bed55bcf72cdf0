//! Second-order notch and peak filters (SciPy's `iirnotch`, `iirpeak`):
//! a null or a resonance at `w0` with quality factor `Q`, the -3 dB
//! bandwidth `w0 / Q` (Orfanidis, "Introduction to Signal Processing",
//! 1996, sections 11.3.1-11.3.2, as SciPy cites). Three coefficients
//! each, computed on the host and returned as float64 device arrays.

use std::f64::consts::PI;

use gpu_array::{Array, Error, Result};

use crate::filtering::positive_finite;

/// `(b, a)` of the notch (`peak` false) or peak filter, on the host.
pub(crate) fn notch_peak_host(
    w0: f64,
    q: f64,
    fs: f64,
    peak: bool,
) -> Result<([f64; 3], [f64; 3])> {
    positive_finite(fs, "Sampling frequency fs")?;
    let w0 = 2.0 * w0 / fs;
    // Written so that NaN fails too (SciPy's message).
    if !(0.0..=1.0).contains(&w0) {
        return Err(Error::Value("w0 should be such that 0 < w0 < 1".into()));
    }
    // SciPy leaves Q unchecked (0 gives NaN coefficients).
    positive_finite(q, "the quality factor Q")?;
    let bw = w0 / q * PI;
    let w0 = w0 * PI;
    // The -3 dB bandwidth makes Orfanidis' sqrt(1 - G_B^2) / G_B one.
    let beta = (bw / 2.0).tan();
    let gain = 1.0 / (1.0 + beta);
    let b = if peak {
        [(1.0 - gain), 0.0, -(1.0 - gain)]
    } else {
        [gain, gain * (-2.0 * w0.cos()), gain]
    };
    let a = [1.0, -2.0 * gain * w0.cos(), 2.0 * gain - 1.0];
    Ok((b, a))
}

fn device(b: [f64; 3], a: [f64; 3]) -> Result<(Array, Array)> {
    Ok((Array::from_slice(&b, &[3])?, Array::from_slice(&a, &[3])?))
}

/// SciPy's `iirnotch(w0, Q, fs)`: a second-order IIR notch filter that
/// removes the frequency `w0` (in the units of `fs`; SciPy's default `fs`
/// is 2.0, `w0` then relative to Nyquist) with quality factor `q`, as
/// `(b, a)` float64 device arrays (three coefficients each, designed on
/// the host).
///
/// ```no_run
/// use gpu_signal::iirnotch;
/// # fn main() -> gpu_array::Result<()> {
/// let (b, a) = iirnotch(60.0, 30.0, 1000.0)?; // mains hum at 1 kHz sampling
/// // b = [0.99376, -1.84794, 0.99376], a = [1, -1.84794, 0.98751]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `w0` outside `[0, fs/2]`, `fs` or `q` not positive and finite
/// (`Value`); device allocation failed.
pub fn iirnotch(w0: f64, q: f64, fs: f64) -> Result<(Array, Array)> {
    let (b, a) = notch_peak_host(w0, q, fs, false)?;
    device(b, a)
}

/// SciPy's `iirpeak(w0, Q, fs)`: a second-order IIR peak (resonant) filter
/// that passes the frequency `w0` (in the units of `fs`; SciPy's default
/// `fs` is 2.0) with quality factor `q`, as `(b, a)` float64 device arrays
/// (three coefficients each, designed on the host).
///
/// ```no_run
/// use gpu_signal::iirpeak;
/// # fn main() -> gpu_array::Result<()> {
/// let (b, a) = iirpeak(0.3, 10.0, 2.0)?;
/// // b = [0.04504, 0, -0.04504], a = [1, -1.12263, 0.90993]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`iirnotch`].
pub fn iirpeak(w0: f64, q: f64, fs: f64) -> Result<(Array, Array)> {
    let (b, a) = notch_peak_host(w0, q, fs, true)?;
    device(b, a)
}
