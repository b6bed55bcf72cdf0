//! Spectral analysis (`scipy.signal._spectral_py`): power spectral
//! densities ([`periodogram`], [`welch`]), cross spectra ([`csd`],
//! [`coherence`]), time-frequency representations ([`spectrogram`],
//! [`stft`] and its inverse [`istft`]), and the Lomb-Scargle periodogram
//! of unevenly sampled data ([`lombscargle`]).
//!
//! Every estimate follows one path on the GPU, whatever the signal's
//! length: the signal (moved so that the analysed axis is last) is seen
//! as all its overlapping segments at once through a strided view, each
//! segment detrended (a mean, or a least-squares line, per segment),
//! multiplied by the window, and transformed by one batched gpu-fft call
//! along the last axis; the spectra are then scaled and, for Welch's
//! method, averaged over the segments (a mean, or a bias-corrected
//! median). [`istft`]'s overlap-add is one elementwise kernel, each
//! output sample summing the segments that cover it. The windows, the
//! frequencies and the times are computed on the host (float64) and
//! uploaded.
//!
//! Precision follows SciPy: float32 and complex64 inputs are analysed in
//! single precision (results float32/complex64), others in double.
//! Where SciPy warns that `nperseg` exceeds the signal and uses the
//! signal's length, these functions do the same silently.
//!
//! | SciPy                                               | Cuprum                                                |
//! |-----------------------------------------------------|-------------------------------------------------------|
//! | `f, pxx = welch(x, fs=1e3, nperseg=1024)`           | `let `[`Welch`]` { f, pxx } = `[`welch_with`]`(&x, &WelchOptions::default().fs(1e3).nperseg(1024))?` |
//! | `periodogram(x, window='hann', scaling='spectrum')` | [`periodogram_with`]`(&x, &PeriodogramOptions::default().window("hann".parse::<WindowSpec>()?).scaling(Scaling::Spectrum))?` |
//! | `csd(x, y, average='median')`, `coherence(x, y)`    | [`csd_with`]`(&x, &y, &WelchOptions::default().average(Average::Median))?`, [`coherence`]`(&x, &y)?` |
//! | `spectrogram(x, mode='magnitude')`                  | [`spectrogram_with`]`(&x, &SpectrogramOptions::default().mode(SpectrogramMode::Magnitude))?` |
//! | `f, t, Z = stft(x, nperseg=128)`, `istft(Z)`        | [`stft_with`]`(&x, &StftOptions::default().nperseg(128))?`, [`istft`]`(&z)?` |
//! | `window=('kaiser', 8.0)`, `window=w` (an array)     | [`WindowLike`] from a [`WindowSpec`] or a `Vec<f64>`   |
//! | `detrend='linear'`, `detrend=False`                 | [`Detrend::Linear`], `None`                            |
//! | `lombscargle(t, y, w, floating_mean=True)`          | [`lombscargle_with`]`(&t, &y, &w, &LombscargleOptions::default().floating_mean(true))?` |
//!
//! [`WindowSpec`]: crate::windows::WindowSpec

mod helper;
mod istft;
mod lombscargle;
mod options;
mod overlap;
mod stft;
mod vectorstrength;
mod welch;

pub use istft::{Istft, IstftOptions, istft, istft_with};
pub use lombscargle::{LombNormalize, LombscargleOptions, lombscargle, lombscargle_with};
pub use options::{Average, Detrend, Scaling, SpectrogramMode, StftBoundary, WindowLike};
pub use overlap::{check_cola, check_nola};
pub use stft::{
    Spectrogram, SpectrogramOptions, Stft, StftOptions, spectrogram, spectrogram_with, stft,
    stft_with,
};
pub use vectorstrength::vectorstrength;
pub use welch::{
    Coherence, CoherenceOptions, Csd, Periodogram, PeriodogramOptions, Welch, WelchOptions,
    coherence, coherence_with, csd, csd_with, periodogram, periodogram_with, welch, welch_with,
};

#[cfg(test)]
pub(crate) use istft::overlap_add_kernel;
#[cfg(test)]
pub(crate) use lombscargle::lomb_kernel;
