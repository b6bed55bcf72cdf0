//! FIR design by frequency sampling (`scipy.signal.firwin2`), on the
//! host: the desired gain interpolated onto a uniform grid, given the
//! linear phase of the filter's centre, inverse-transformed (a direct
//! real inverse DFT of the first `numtaps` samples) and windowed.

use std::f64::consts::PI;

use gpu_array::{Array, Error, Result};

use crate::windows::WindowSpec;

/// SciPy's keywords of [`firwin2_with`]: `nfreqs` (default
/// `1 + 2^ceil(log2(numtaps))`), `window` (default hamming; `None` for
/// none), `antisymmetric` (types III and IV) and `fs`.
///
/// ```
/// use gpu_signal::Firwin2Options;
/// let o = Firwin2Options::default().nfreqs(1025).antisymmetric(true).fs(100.0);
/// assert_eq!((o.nfreqs, o.antisymmetric, o.fs), (Some(1025), true, Some(100.0)));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Firwin2Options {
    /// The size of the interpolation grid (more than `numtaps`).
    pub nfreqs: Option<usize>,
    /// The window, or none.
    pub window: Option<WindowSpec>,
    /// An antisymmetric filter (odd length: type III, even: type IV).
    pub antisymmetric: bool,
    /// The sampling frequency (default 2: frequencies relative to Nyquist
    /// times 1).
    pub fs: Option<f64>,
}

impl Default for Firwin2Options {
    fn default() -> Self {
        Firwin2Options {
            nfreqs: None,
            window: Some("hamming".parse().expect("a window name")),
            antisymmetric: false,
            fs: None,
        }
    }
}

impl Firwin2Options {
    /// Sets `nfreqs`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::Firwin2Options::default().nfreqs(513).nfreqs, Some(513));
    /// ```
    #[must_use]
    pub fn nfreqs(mut self, nfreqs: usize) -> Self {
        self.nfreqs = Some(nfreqs);
        self
    }

    /// Sets `window` (`None`: no window).
    ///
    /// ```
    /// assert!(gpu_signal::Firwin2Options::default().window(None).window.is_none());
    /// ```
    #[must_use]
    pub fn window(mut self, window: Option<WindowSpec>) -> Self {
        self.window = window;
        self
    }

    /// Sets `antisymmetric`.
    ///
    /// ```
    /// assert!(gpu_signal::Firwin2Options::default().antisymmetric(true).antisymmetric);
    /// ```
    #[must_use]
    pub fn antisymmetric(mut self, antisymmetric: bool) -> Self {
        self.antisymmetric = antisymmetric;
        self
    }

    /// Sets `fs`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::Firwin2Options::default().fs(8000.0).fs, Some(8000.0));
    /// ```
    #[must_use]
    pub fn fs(mut self, fs: f64) -> Self {
        self.fs = Some(fs);
        self
    }
}

/// NumPy's `interp` of increasing `xp` at `x` (inside `xp`'s range).
fn interp(x: f64, xp: &[f64], fp: &[f64]) -> f64 {
    let j = xp.partition_point(|&v| v <= x);
    if j == 0 {
        return fp[0];
    }
    if j >= xp.len() {
        return fp[fp.len() - 1];
    }
    let (x0, x1) = (xp[j - 1], xp[j]);
    let slope = (fp[j] - fp[j - 1]) / (x1 - x0);
    slope * (x - x0) + fp[j - 1]
}

/// The taps of [`firwin2_with`], on the host.
pub(crate) fn firwin2_host(
    numtaps: usize,
    freq: &[f64],
    gain: &[f64],
    opts: &Firwin2Options,
) -> Result<Vec<f64>> {
    let fs = opts.fs.unwrap_or(2.0);
    if fs.is_nan() || fs <= 0.0 {
        return Err(Error::Value(format!(
            "Sampling frequency fs must be positive, not {fs}"
        )));
    }
    let nyq = 0.5 * fs;
    if freq.len() != gain.len() {
        return Err(Error::Value("freq and gain must be of same length.".into()));
    }
    if let Some(n) = opts.nfreqs
        && numtaps >= n
    {
        return Err(Error::Value(format!(
            "ntaps must be less than nfreqs, but firwin2 was called with ntaps={numtaps} and \
             nfreqs={n}"
        )));
    }
    if freq.len() < 2 || freq[0] != 0.0 || freq[freq.len() - 1] != nyq {
        return Err(Error::Value(
            "freq must start with 0 and end with fs/2.".into(),
        ));
    }
    let d: Vec<f64> = freq.windows(2).map(|w| w[1] - w[0]).collect();
    if d.iter().any(|&v| v < 0.0) {
        return Err(Error::Value(
            "The values in freq must be nondecreasing.".into(),
        ));
    }
    if d.windows(2).any(|w| w[0] + w[1] == 0.0) {
        return Err(Error::Value(
            "A value in freq must not occur more than twice.".into(),
        ));
    }
    if freq[1] == 0.0 {
        return Err(Error::Value("Value 0 must not be repeated in freq".into()));
    }
    if freq[freq.len() - 2] == nyq {
        return Err(Error::Value(
            "Value fs/2 must not be repeated in freq".into(),
        ));
    }
    let odd = numtaps % 2 == 1;
    let ftype = match (opts.antisymmetric, odd) {
        (false, true) => 1,
        (false, false) => 2,
        (true, true) => 3,
        (true, false) => 4,
    };
    let (g0, gn) = (gain[0], gain[gain.len() - 1]);
    if ftype == 2 && gn != 0.0 {
        return Err(Error::Value(
            "A Type II filter must have zero gain at the Nyquist frequency.".into(),
        ));
    }
    if ftype == 3 && (g0 != 0.0 || gn != 0.0) {
        return Err(Error::Value(
            "A Type III filter must have zero gain at zero and Nyquist frequencies.".into(),
        ));
    }
    if ftype == 4 && g0 != 0.0 {
        return Err(Error::Value(
            "A Type IV filter must have zero gain at zero frequency.".into(),
        ));
    }
    let nfreqs = opts
        .nfreqs
        .unwrap_or_else(|| 1 + (numtaps.max(1) as f64).log2().ceil().exp2() as usize);
    // Repeated frequencies: nudged apart by eps * nyq, as SciPy.
    let mut freq = freq.to_vec();
    if d.contains(&0.0) {
        let eps = f64::EPSILON * nyq;
        for k in 0..freq.len() - 1 {
            if freq[k] == freq[k + 1] {
                freq[k] -= eps;
                freq[k + 1] += eps;
            }
        }
        if freq.windows(2).any(|w| w[1] - w[0] <= 0.0) {
            return Err(Error::Value(format!(
                "freq cannot contain numbers that are too close (within eps * (fs/2): {eps}) \
                 to a repeated value"
            )));
        }
    }
    // The desired response on a uniform grid, with the centre's phase.
    let step = nyq / (nfreqs as f64 - 1.0);
    let n = 2 * (nfreqs - 1);
    let centre = (numtaps as f64 - 1.0) / 2.0;
    let spectrum: Vec<(f64, f64)> = (0..nfreqs)
        .map(|k| {
            let x = if k + 1 == nfreqs {
                nyq
            } else {
                k as f64 * step
            };
            let fx = interp(x, &freq, gain);
            let phase = -centre * PI * x / nyq;
            let (re, im) = (phase.cos(), phase.sin());
            // Types III and IV: times 1j.
            let (re, im) = if ftype > 2 { (-im, re) } else { (re, im) };
            (fx * re, fx * im)
        })
        .collect();
    // NumPy's irfft of length n, its first numtaps samples (the DC and
    // Nyquist bins' imaginary parts dropped, as pocketfft's c2r does).
    let taps: Vec<f64> = (0..numtaps)
        .map(|t| {
            let mut acc =
                spectrum[0].0 + spectrum[nfreqs - 1].0 * if t % 2 == 0 { 1.0 } else { -1.0 };
            for (k, &(re, im)) in spectrum.iter().enumerate().take(nfreqs - 1).skip(1) {
                let a = 2.0 * PI * ((k * t) % n) as f64 / n as f64;
                acc += 2.0 * (re * a.cos() - im * a.sin());
            }
            acc / n as f64
        })
        .collect();
    let wind = match &opts.window {
        Some(w) => w.values(numtaps, false)?,
        None => vec![1.0; numtaps],
    };
    let mut out: Vec<f64> = taps.iter().zip(&wind).map(|(h, w)| h * w).collect();
    if ftype == 3 {
        let mid = out.len() / 2;
        out[mid] = 0.0;
    }
    Ok(out)
}

/// SciPy's `firwin2(numtaps, freq, gain)`: a linear-phase FIR filter of
/// `numtaps` taps whose gain follows `gain` at the frequencies `freq`
/// (from 0 to 1, Nyquist, by default), by frequency sampling and a
/// Hamming window. Computed on the host, returned as a float64 array.
///
/// ```no_run
/// use gpu_signal::firwin2;
/// # fn main() -> gpu_array::Result<()> {
/// // A low-pass: gain 1 up to 0.5, falling to 0 at 1.
/// let taps = firwin2(151, &[0.0, 0.5, 1.0], &[1.0, 1.0, 0.0])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`firwin2_with`].
pub fn firwin2(numtaps: usize, freq: &[f64], gain: &[f64]) -> Result<Array> {
    firwin2_with(numtaps, freq, gain, &Firwin2Options::default())
}

/// [`firwin2`] with SciPy's `nfreqs=`, `window=`, `antisymmetric=` and
/// `fs=`.
///
/// ```no_run
/// use gpu_signal::{Firwin2Options, firwin2_with};
/// # fn main() -> gpu_array::Result<()> {
/// // A differentiator-like type III filter at fs = 100.
/// let o = Firwin2Options::default().antisymmetric(true).fs(100.0);
/// let taps = firwin2_with(31, &[0.0, 25.0, 50.0], &[0.0, 1.0, 0.0], &o)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's, in its words: `freq` and `gain` of different lengths, `freq`
/// not from 0 to fs/2, decreasing, a value thrice, 0 or fs/2 repeated,
/// `numtaps >= nfreqs`, a filter type's required zero gains; an unknown
/// window.
pub fn firwin2_with(
    numtaps: usize,
    freq: &[f64],
    gain: &[f64],
    opts: &Firwin2Options,
) -> Result<Array> {
    let h = firwin2_host(numtaps, freq, gain, opts)?;
    Array::from_slice(&h, &[h.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SciPy 1.17's firwin2 values (`np.set_printoptions(precision=17)`).
    #[test]
    fn taps_are_scipys() {
        let lp = firwin2_host(
            7,
            &[0.0, 0.5, 1.0],
            &[1.0, 1.0, 0.0],
            &Firwin2Options::default(),
        )
        .unwrap();
        for (g, w) in lp.iter().zip(FIRWIN2_LP) {
            assert!((g - w).abs() < 1e-15, "{g} vs {w}");
        }
        let o = Firwin2Options::default().antisymmetric(true).window(None);
        let t3 = firwin2_host(7, &[0.0, 0.5, 0.5, 1.0], &[0.0, 1.0, 0.5, 0.0], &o).unwrap();
        for (g, w) in t3.iter().zip(FIRWIN2_T3) {
            assert!((g - w).abs() < 1e-15, "{g} vs {w}");
        }
        let e = firwin2_host(8, &[0.0, 1.0], &[1.0, 1.0], &Firwin2Options::default());
        assert_eq!(
            e.unwrap_err().to_string(),
            "A Type II filter must have zero gain at the Nyquist frequency."
        );
        let e = firwin2_host(7, &[0.0, 0.5], &[1.0, 0.0], &Firwin2Options::default());
        assert_eq!(
            e.unwrap_err().to_string(),
            "freq must start with 0 and end with fs/2."
        );
    }
    const FIRWIN2_LP: [f64; 7] = [
        0.002_024_893_005_527_22,
        -0.033_075_193_885_489_37,
        0.158_055_387_689_046_17,
        0.75,
        0.158_055_387_689_046_06,
        -0.033_075_193_885_489_37,
        0.002_024_893_005_527_22,
    ];

    const FIRWIN2_T3: [f64; 7] = [
        -0.037_966_743_853_635_34,
        0.075_444_173_824_159_3,
        0.307_900_105_887_752_24,
        0.0,
        -0.307_900_105_887_752_24,
        -0.075_444_173_824_159_22,
        0.037_966_743_853_635_28,
    ];
}
