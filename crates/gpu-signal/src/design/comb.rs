//! Comb and gammatone filters (SciPy's `iircomb`, `gammatone`): notches
//! or peaks at every multiple of a frequency (Orfanidis, "Introduction to
//! Signal Processing", 1996, section 11.3.2, as SciPy cites), and the
//! auditory filters of Slaney ("An Efficient Implementation of the
//! Patterson-Holdsworth Auditory Filter Bank", 1993: IIR) and Patterson's
//! impulse response (FIR). Computed on the host in float64 and returned
//! as device arrays.

use std::f64::consts::PI;
use std::str::FromStr;

use gpu_array::{Array, Error, Result};
use num_complex::Complex64;

use crate::filtering::positive_finite;

/// Notches or peaks (SciPy's `ftype=` of `iircomb`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CombType {
    /// Notches at the multiples of `w0`.
    #[default]
    Notch,
    /// Peaks at the multiples of `w0`.
    Peak,
}

impl FromStr for CombType {
    type Err = Error;

    /// ```
    /// use gpu_signal::CombType;
    /// assert_eq!("Peak".parse::<CombType>()?, CombType::Peak);
    /// assert!("band".parse::<CombType>().is_err());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<Self> {
        match s.to_lowercase().as_str() {
            "notch" => Ok(CombType::Notch),
            "peak" => Ok(CombType::Peak),
            _ => Err(Error::Value("ftype must be either notch or peak.".into())),
        }
    }
}

fn positive_fs(fs: f64) -> Result<()> {
    positive_finite(fs, "Sampling frequency fs")
}

/// SciPy's `iircomb` on the host: `(b, a)`, `N + 1` coefficients each
/// with `N = fs / w0`.
pub(crate) fn iircomb_host(
    w0: f64,
    q: f64,
    ftype: CombType,
    fs: f64,
    pass_zero: bool,
) -> Result<(Vec<f64>, Vec<f64>)> {
    positive_fs(fs)?;
    if w0.is_nan() || w0 <= 0.0 || w0 >= fs / 2.0 {
        return Err(Error::Value(format!(
            "w0 must be between 0 and {} (Nyquist), but given {w0}.",
            fs / 2.0
        )));
    }
    // SciPy leaves Q unchecked (0 gives NaN coefficients).
    positive_finite(q, "the quality factor Q")?;
    let ratio = (fs / w0).round_ties_even();
    if ratio > (1u64 << 24) as f64 {
        return Err(Error::Value(format!(
            "iircomb: fs / w0 = {ratio} coefficients is too many"
        )));
    }
    let n = ratio as usize;
    if (w0 - fs / n as f64).abs() / fs > 1e-14 {
        return Err(Error::Value("fs must be divisible by w0.".into()));
    }
    let w0 = (2.0 * PI * w0) / fs;
    let w_delta = w0 / q;
    let (g0, g) = match ftype {
        CombType::Notch => (1.0, 0.0),
        CombType::Peak => (0.0, 1.0),
    };
    let beta = (n as f64 * w_delta / 4.0).tan();
    let ax = (1.0 - beta) / (1.0 + beta);
    let bx = (g0 + g * beta) / (1.0 + beta);
    let cx = (g0 - g * beta) / (1.0 + beta);
    let negative =
        (ftype == CombType::Peak && pass_zero) || (ftype == CombType::Notch && !pass_zero);
    let sgn = if negative { -1.0 } else { 1.0 };
    let mut b = vec![0.0; n + 1];
    let mut a = vec![0.0; n + 1];
    b[0] = bx;
    b[n] = sgn * cx;
    a[0] = 1.0;
    a[n] = sgn * ax;
    Ok((b, a))
}

fn device(b: &[f64], a: &[f64]) -> Result<(Array, Array)> {
    Ok((
        Array::from_slice(b, &[b.len()])?,
        Array::from_slice(a, &[a.len()])?,
    ))
}

/// SciPy's `iircomb(w0, Q, ftype, fs, pass_zero=False)`: an IIR comb
/// filter with notches (or peaks) at every multiple of `w0` (in the units
/// of `fs`, which `w0` must divide; SciPy's default `fs` is 2.0) of
/// quality factor `q`; `pass_zero` puts a peak (notch filter) or notch
/// (peak filter) at 0 instead. `(b, a)` as float64 device arrays of
/// `fs / w0 + 1` coefficients (designed on the host).
///
/// ```no_run
/// use gpu_signal::{CombType, iircomb};
/// # fn main() -> gpu_array::Result<()> {
/// let (b, a) = iircomb(20.0, 30.0, CombType::Notch, 200.0, false)?; // 11 coefficients each
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's (`Value`): `w0` outside `(0, fs/2)` ("w0 must be between 0 and
/// ... (Nyquist)"), `fs` not a multiple of `w0` ("fs must be divisible by
/// w0."); `fs` or `q` not positive and finite.
pub fn iircomb(
    w0: f64,
    q: f64,
    ftype: CombType,
    fs: f64,
    pass_zero: bool,
) -> Result<(Array, Array)> {
    let (b, a) = iircomb_host(w0, q, ftype, fs, pass_zero)?;
    device(&b, &a)
}

/// FIR or IIR (SciPy's `ftype=` of `gammatone`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GammatoneType {
    /// Patterson's impulse response, truncated (`order`, `numtaps`).
    Fir,
    /// Slaney's fourth-order IIR filter.
    Iir,
}

impl FromStr for GammatoneType {
    type Err = Error;

    /// ```
    /// use gpu_signal::GammatoneType;
    /// assert_eq!("iir".parse::<GammatoneType>()?, GammatoneType::Iir);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<Self> {
        match s.to_lowercase().as_str() {
            "fir" => Ok(GammatoneType::Fir),
            "iir" => Ok(GammatoneType::Iir),
            _ => Err(Error::Value("ftype must be either fir or iir.".into())),
        }
    }
}

/// SciPy's keywords of [`gammatone_with`]: `order` (4) and `numtaps`
/// (`max(fs * 0.015, 15)`) of the FIR form, and `fs` (2.0).
///
/// ```
/// let o = gpu_signal::GammatoneOptions::default().fs(16_000.0).numtaps(Some(64));
/// assert_eq!((o.fs, o.numtaps, o.order), (16_000.0, Some(64), None));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct GammatoneOptions {
    /// The FIR filter's order (1-24; none: 4).
    pub order: Option<usize>,
    /// The FIR filter's length (none: `max(fs * 0.015, 15)`).
    pub numtaps: Option<usize>,
    /// The sampling frequency.
    pub fs: f64,
}

impl Default for GammatoneOptions {
    fn default() -> Self {
        GammatoneOptions {
            order: None,
            numtaps: None,
            fs: 2.0,
        }
    }
}

impl GammatoneOptions {
    /// Sets `order`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::GammatoneOptions::default().order(Some(2)).order, Some(2));
    /// ```
    #[must_use]
    pub fn order(mut self, order: Option<usize>) -> Self {
        self.order = order;
        self
    }

    /// Sets `numtaps`.
    #[must_use]
    pub fn numtaps(mut self, numtaps: Option<usize>) -> Self {
        self.numtaps = numtaps;
        self
    }

    /// Sets `fs`.
    #[must_use]
    pub fn fs(mut self, fs: f64) -> Self {
        self.fs = fs;
        self
    }
}

/// Glasberg and Moore's equivalent rectangular bandwidth at `hz`.
fn hz_to_erb(hz: f64) -> f64 {
    const EAR_Q: f64 = 9.26449;
    const MIN_BW: f64 = 24.7;
    hz / EAR_Q + MIN_BW
}

/// SciPy's `gammatone` on the host.
pub(crate) fn gammatone_host(
    freq: f64,
    ftype: GammatoneType,
    o: &GammatoneOptions,
) -> Result<(Vec<f64>, Vec<f64>)> {
    let fs = o.fs;
    positive_fs(fs)?;
    if freq.is_nan() || freq <= 0.0 || freq >= fs / 2.0 {
        return Err(Error::Value(format!(
            "The frequency must be between 0 and {} (Nyquist), but given {freq}.",
            fs / 2.0
        )));
    }
    match ftype {
        GammatoneType::Fir => {
            let order = o.order.unwrap_or(4);
            if !(1..=24).contains(&order) {
                return Err(Error::Value(
                    "Invalid order: order must be > 0 and <= 24.".into(),
                ));
            }
            let numtaps = match o.numtaps {
                Some(n) => n,
                None => ((fs * 0.015) as usize).max(15),
            };
            if numtaps > 1 << 24 {
                return Err(Error::Value(format!(
                    "gammatone: {numtaps} taps is too many"
                )));
            }
            let bw = 1.019 * hz_to_erb(freq);
            let factorial = (1..order).fold(1.0f64, |f, i| f * i as f64);
            let scale = 2.0 * (2.0 * PI * bw).powf(order as f64) / factorial / fs;
            let b = (0..numtaps)
                .map(|i| {
                    let t = i as f64 / fs;
                    let v = t.powf((order - 1) as f64) * (-2.0 * PI * bw * t).exp();
                    v * (2.0 * PI * freq * t).cos() * scale
                })
                .collect();
            Ok((b, vec![1.0]))
        }
        GammatoneType::Iir => {
            if o.order.is_some() || o.numtaps.is_some() {
                return Err(Error::Value(
                    "order and numtaps are not used for IIR gammatone filter.".into(),
                ));
            }
            let t = 1.0 / fs;
            let bw = 2.0 * PI * 1.019 * hz_to_erb(freq);
            let fr = 2.0 * freq * PI * t;
            let bwt = bw * t;
            let j = |x: f64| Complex64::new(0.0, x).exp();
            let g1 = -2.0 * j(2.0 * fr) * t;
            let g2 = 2.0 * Complex64::new(-bwt, fr).exp() * t;
            let g3 = (3.0 + 2f64.powf(1.5)).sqrt() * fr.sin();
            let g4 = (3.0 - 2f64.powf(1.5)).sqrt() * fr.sin();
            let g5 = j(2.0 * fr);
            let c = fr.cos();
            let mut g = g1 + g2 * (c - g4);
            g *= g1 + g2 * (c + g4);
            g *= g1 + g2 * (c - g3);
            g *= g1 + g2 * (c + g3);
            let d = -2.0 / (2.0 * bwt).exp() - 2.0 * g5 + 2.0 * (1.0 + g5) / bwt.exp();
            let d2 = d * d;
            g /= d2 * d2;
            let g = g.re.hypot(g.im);
            let t4 = t.powf(4.0);
            let e = |k: f64| (k * bw * t).exp();
            let b = vec![
                t4 / g,
                -4.0 * t4 * fr.cos() / e(1.0) / g,
                6.0 * t4 * (2.0 * fr).cos() / e(2.0) / g,
                -4.0 * t4 * (3.0 * fr).cos() / e(3.0) / g,
                t4 * (4.0 * fr).cos() / e(4.0) / g,
            ];
            let c3 = -8.0 * (6.0 * fr.cos() + (3.0 * fr).cos());
            let a = vec![
                1.0,
                -8.0 * fr.cos() / e(1.0),
                4.0 * (4.0 + 3.0 * (2.0 * fr).cos()) / e(2.0),
                c3 / e(3.0),
                2.0 * (18.0 + 16.0 * (2.0 * fr).cos() + (4.0 * fr).cos()) / e(4.0),
                c3 / e(5.0),
                4.0 * (4.0 + 3.0 * (2.0 * fr).cos()) / e(6.0),
                -8.0 * fr.cos() / e(7.0),
                (-8.0 * bw * t).exp(),
            ];
            Ok((b, a))
        }
    }
}

/// SciPy's `gammatone(freq, ftype)`: a gammatone filter centred at `freq`
/// (relative to SciPy's default `fs` of 2.0), FIR or IIR, as `(b, a)`
/// float64 device arrays (designed on the host).
///
/// ```no_run
/// use gpu_signal::{GammatoneType, gammatone};
/// # fn main() -> gpu_array::Result<()> {
/// let (b, a) = gammatone(0.5, GammatoneType::Iir)?; // 5 and 9 coefficients
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`gammatone_with`].
pub fn gammatone(freq: f64, ftype: GammatoneType) -> Result<(Array, Array)> {
    gammatone_with(freq, ftype, &GammatoneOptions::default())
}

/// [`gammatone`] with SciPy's `order=`, `numtaps=` and `fs=`.
///
/// ```no_run
/// use gpu_signal::{GammatoneOptions, GammatoneType, gammatone_with};
/// # fn main() -> gpu_array::Result<()> {
/// let o = GammatoneOptions::default().fs(16_000.0);
/// let (b, a) = gammatone_with(440.0, GammatoneType::Fir, &o)?; // 240 taps, a = [1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's (`Value`): `freq` outside `(0, fs/2)`, an FIR order outside
/// 1-24; `fs` not positive and finite; `order` or `numtaps` given for the
/// IIR filter (SciPy warns that they are unused).
pub fn gammatone_with(
    freq: f64,
    ftype: GammatoneType,
    opts: &GammatoneOptions,
) -> Result<(Array, Array)> {
    let (b, a) = gammatone_host(freq, ftype, opts)?;
    device(&b, &a)
}
