//! FIR design by the window method (`scipy.signal.firwin`), on the host,
//! its window from the crate's `get_window` (symmetric, as SciPy's
//! `fftbins=False`).

use gpu_array::{Array, Error, Result};
use std::f64::consts::PI;

use crate::windows::WindowSpec;

/// Which band [`firwin_with`] passes at zero frequency (SciPy's
/// `pass_zero=`: a bool, or a band name that also checks the number of
/// cutoffs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PassZero {
    /// `True`: the gain at 0 is 1.
    #[default]
    Yes,
    /// `False`: the gain at 0 is 0.
    No,
    /// `True`, with exactly one cutoff.
    Lowpass,
    /// `False`, with exactly one cutoff.
    Highpass,
    /// `False`, with at least two cutoffs.
    Bandpass,
    /// `True`, with at least two cutoffs.
    Bandstop,
}

gpu_array::from_numpy_str! {
    PassZero, Error,
    else: |s| Error::Value(format!(
        "Parameter pass_zero='{s}' not in (True, False, 'bandpass', 'lowpass', 'highpass', 'bandstop')"
    )),
    { "lowpass" => PassZero::Lowpass, "highpass" => PassZero::Highpass,
      "bandpass" => PassZero::Bandpass, "bandstop" => PassZero::Bandstop }
}

/// SciPy's keywords of [`firwin_with`]: `width` (none: sets a Kaiser
/// window by Kaiser's formulas when given), `window` (hamming),
/// `pass_zero` (true), `scale` (true) and `fs` (none: cutoffs relative to
/// Nyquist).
///
/// ```
/// use gpu_signal::{FirwinOptions, PassZero, WindowSpec};
/// let o = FirwinOptions::default().window(WindowSpec::from(8.0)).pass_zero(PassZero::Highpass);
/// assert_eq!((o.window, o.pass_zero, o.scale), (WindowSpec::from(8.0), PassZero::Highpass, true));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FirwinOptions {
    /// The transition width (overrides `window` with a Kaiser window).
    pub width: Option<f64>,
    /// The window (SciPy's `get_window` names and tuples; a number is a
    /// Kaiser beta).
    pub window: WindowSpec,
    /// The gain at zero frequency.
    pub pass_zero: PassZero,
    /// Scale to unit gain at the centre of the first passband.
    pub scale: bool,
    /// The sampling frequency.
    pub fs: Option<f64>,
}

impl Default for FirwinOptions {
    fn default() -> Self {
        FirwinOptions {
            width: None,
            window: "hamming".parse().expect("a window name"),
            pass_zero: PassZero::Yes,
            scale: true,
            fs: None,
        }
    }
}

impl FirwinOptions {
    /// Sets `width`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::FirwinOptions::default().width(Some(0.1)).width, Some(0.1));
    /// ```
    #[must_use]
    pub fn width(mut self, width: Option<f64>) -> Self {
        self.width = width;
        self
    }

    /// Sets `window`.
    ///
    /// ```
    /// use gpu_signal::{FirwinOptions, WindowSpec};
    /// let hann: WindowSpec = "hann".parse().unwrap();
    /// assert_eq!(FirwinOptions::default().window(hann.clone()).window, hann);
    /// ```
    #[must_use]
    pub fn window(mut self, window: WindowSpec) -> Self {
        self.window = window;
        self
    }

    /// Sets `pass_zero`.
    ///
    /// ```
    /// use gpu_signal::{FirwinOptions, PassZero};
    /// assert_eq!(FirwinOptions::default().pass_zero(PassZero::No).pass_zero, PassZero::No);
    /// ```
    #[must_use]
    pub fn pass_zero(mut self, pass_zero: PassZero) -> Self {
        self.pass_zero = pass_zero;
        self
    }

    /// Sets `scale`.
    ///
    /// ```
    /// assert!(!gpu_signal::FirwinOptions::default().scale(false).scale);
    /// ```
    #[must_use]
    pub fn scale(mut self, scale: bool) -> Self {
        self.scale = scale;
        self
    }

    /// Sets `fs`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::FirwinOptions::default().fs(Some(8e3)).fs, Some(8e3));
    /// ```
    #[must_use]
    pub fn fs(mut self, fs: Option<f64>) -> Self {
        self.fs = fs;
        self
    }
}

/// SciPy's `kaiser_beta(a)`: the Kaiser window's `beta` for a stopband
/// attenuation of `a` dB (Kaiser's empirical formula, as in Oppenheim and
/// Schafer, "Discrete-Time Signal Processing", eq. 7.62).
///
/// ```
/// assert_eq!(gpu_signal::kaiser_beta(65.0), 0.1102 * (65.0 - 8.7)); // 6.20426
/// assert_eq!(gpu_signal::kaiser_beta(20.0), 0.0);
/// ```
pub fn kaiser_beta(a: f64) -> f64 {
    if a > 50.0 {
        0.1102 * (a - 8.7)
    } else if a > 21.0 {
        0.5842 * (a - 21.0).powf(0.4) + 0.07886 * (a - 21.0)
    } else {
        0.0
    }
}

/// SciPy's `kaiser_atten(numtaps, width)`: the stopband attenuation in dB
/// of a Kaiser-window FIR filter of `numtaps` taps whose transition band
/// is `width` wide (a fraction of Nyquist), by Kaiser's formula.
///
/// ```
/// let a = gpu_signal::kaiser_atten(211, 0.05);
/// assert!((a - 83.324_661_741_253).abs() < 1e-9);
/// ```
pub fn kaiser_atten(numtaps: usize, width: f64) -> f64 {
    2.285 * (numtaps as f64 - 1.0) * PI * width + 7.95
}

/// SciPy's `kaiserord(ripple, width)`: the number of taps and the Kaiser
/// `beta` of an FIR filter whose pass and stop bands deviate from the
/// ideal by at most `ripple` dB (its absolute value; the stopband's
/// attenuation) with a transition band `width` wide (a fraction of
/// Nyquist), for [`firwin_with`]'s `window` (`("kaiser", beta)`).
///
/// ```
/// let (numtaps, beta) = gpu_signal::kaiserord(65.0, 0.05)?; // signal.kaiserord(65, 0.05)
/// assert_eq!((numtaps, beta), (160, gpu_signal::kaiser_beta(65.0)));
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// `|ripple| < 8` dB (outside Kaiser's formula; SciPy's message), or
/// `width` not positive and finite (`Value`).
pub fn kaiserord(ripple: f64, width: f64) -> Result<(usize, f64)> {
    let a = ripple.abs();
    if a.is_nan() || a < 8.0 {
        return Err(Error::Value(format!(
            "Requested maximum ripple attenuation {a:.6} is too small for the Kaiser formula."
        )));
    }
    crate::filtering::positive_finite(width, "the transition width")?;
    // Kaiser's formula gives the order; the taps are one more.
    let numtaps = ((a - 7.95) / 2.285 / (PI * width) + 1.0).ceil();
    if numtaps.is_nan() || numtaps > 1e9 {
        return Err(Error::Value(format!(
            "kaiserord: {numtaps} taps for a width of {width}: too many"
        )));
    }
    Ok((numtaps as usize, kaiser_beta(a)))
}

pub(crate) fn sinc(x: f64) -> f64 {
    if x == 0.0 {
        1.0
    } else {
        let y = PI * x;
        y.sin() / y
    }
}

/// SciPy's `firwin` on the host.
pub(crate) fn firwin_host(
    numtaps: usize,
    cutoff: &[f64],
    opts: &FirwinOptions,
) -> Result<Vec<f64>> {
    let nyq = 0.5 * opts.fs.unwrap_or(2.0);
    let cutoff: Vec<f64> = cutoff.iter().map(|c| c / nyq).collect();
    if cutoff.is_empty() {
        return Err(Error::Value(
            "At least one cutoff frequency must be given.".into(),
        ));
    }
    let (lo, hi) = cutoff
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &c| {
            (l.min(c), h.max(c))
        });
    if lo <= 0.0 || hi >= 1.0 {
        return Err(Error::Value(
            "Invalid cutoff frequency: frequencies must be greater than 0 and less than fs/2."
                .into(),
        ));
    }
    if cutoff.windows(2).any(|w| w[1] - w[0] <= 0.0) {
        return Err(Error::Value(
            "Invalid cutoff frequencies: the frequencies must be strictly increasing.".into(),
        ));
    }
    let window_kind = match opts.width {
        Some(w) => WindowSpec::from(kaiser_beta(kaiser_atten(numtaps, w / nyq))),
        None => opts.window.clone(),
    };
    let nc = cutoff.len();
    let shape = format!("({nc},)");
    let pass_zero = match opts.pass_zero {
        PassZero::Yes => true,
        PassZero::No => false,
        PassZero::Lowpass | PassZero::Highpass if nc != 1 => {
            let name = if opts.pass_zero == PassZero::Lowpass {
                "lowpass"
            } else {
                "highpass"
            };
            return Err(Error::Value(format!(
                "cutoff must have one element if pass_zero==\"{name}\", got {shape}"
            )));
        }
        PassZero::Bandpass | PassZero::Bandstop if nc <= 1 => {
            let name = if opts.pass_zero == PassZero::Bandpass {
                "bandpass"
            } else {
                "bandstop"
            };
            return Err(Error::Value(format!(
                "cutoff must have at least two elements if pass_zero==\"{name}\", got {shape}"
            )));
        }
        PassZero::Lowpass | PassZero::Bandstop => true,
        PassZero::Highpass | PassZero::Bandpass => false,
    };
    let pass_nyquist = nc.is_multiple_of(2) == pass_zero;
    if pass_nyquist && numtaps.is_multiple_of(2) {
        return Err(Error::Value(
            "A filter with an even number of coefficients must have zero response at the \
             Nyquist frequency."
                .into(),
        ));
    }
    let mut edges = Vec::new();
    if pass_zero {
        edges.push(0.0);
    }
    edges.extend(&cutoff);
    if pass_nyquist {
        edges.push(1.0);
    }
    let alpha = 0.5 * (numtaps as f64 - 1.0);
    let m: Vec<f64> = (0..numtaps).map(|i| i as f64 - alpha).collect();
    let mut h = vec![0.0; numtaps];
    for band in edges.chunks(2) {
        let (left, right) = (band[0], band[1]);
        for (hv, &mv) in h.iter_mut().zip(&m) {
            *hv += right * sinc(right * mv);
            *hv -= left * sinc(left * mv);
        }
    }
    for (hv, wv) in h.iter_mut().zip(window_kind.values(numtaps, false)?) {
        *hv *= wv;
    }
    if opts.scale {
        let (left, right) = (edges[0], edges[1]);
        let f = if left == 0.0 {
            0.0
        } else if right == 1.0 {
            1.0
        } else {
            0.5 * (left + right)
        };
        let s: f64 = h
            .iter()
            .zip(&m)
            .map(|(hv, mv)| hv * (PI * mv * f).cos())
            .sum();
        for hv in &mut h {
            *hv /= s;
        }
    }
    Ok(h)
}

/// SciPy's `firwin(numtaps, cutoff)`: a lowpass FIR filter of `numtaps`
/// taps by the window method (Hamming window), the cutoffs as fractions
/// of Nyquist; designed on the host, returned as a float64 device array.
///
/// ```no_run
/// use gpu_signal::firwin;
/// # fn main() -> gpu_array::Result<()> {
/// let taps = firwin(63, &[0.25])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`firwin_with`].
pub fn firwin(numtaps: usize, cutoff: &[f64]) -> Result<Array> {
    firwin_with(numtaps, cutoff, &FirwinOptions::default())
}

/// [`firwin`] with SciPy's `width=`, `window=`, `pass_zero=`, `scale=`
/// and `fs=`.
///
/// ```no_run
/// use gpu_signal::{FirwinOptions, PassZero, firwin_with};
/// # fn main() -> gpu_array::Result<()> {
/// let o = FirwinOptions::default().pass_zero(PassZero::Bandpass).fs(Some(8000.0));
/// let taps = firwin_with(101, &[500.0, 1500.0], &o)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: no cutoff ("At least one cutoff frequency must be given."),
/// cutoffs outside `(0, fs/2)` or not increasing, band names with the
/// wrong number of cutoffs, an even number of taps with a passband at
/// Nyquist ("A filter with an even number of coefficients must have zero
/// response at the Nyquist frequency.").
pub fn firwin_with(numtaps: usize, cutoff: &[f64], opts: &FirwinOptions) -> Result<Array> {
    let h = firwin_host(numtaps, cutoff, opts)?;
    Array::from_slice(&h, &[h.len()])
}
