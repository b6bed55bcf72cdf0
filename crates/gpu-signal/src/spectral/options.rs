//! The option vocabulary shared by the spectral functions: windows given
//! by name or by values, detrending, scaling, averaging, spectrogram
//! modes and STFT boundary extensions.

use gpu_array::Error;

use crate::windows::{Window, WindowSpec};

/// SciPy's `window=` of the spectral functions: a [`WindowSpec`] (a
/// string or tuple in SciPy, computed by `get_window` at the segment
/// length, periodic unless its name says `_symmetric`), or the window's
/// values (an array in SciPy, whose length sets `nperseg`).
///
/// ```
/// use gpu_signal::spectral::WindowLike;
/// use gpu_signal::windows::{Window, WindowSpec};
/// let by_name: WindowLike = "hann".parse::<WindowSpec>()?.into();
/// let kaiser: WindowLike = Window::Kaiser { beta: 8.0 }.into();
/// let values: WindowLike = vec![0.5, 1.0, 0.5].into();
/// # Ok::<(), gpu_array::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum WindowLike {
    /// A window by name and parameters.
    Spec(WindowSpec),
    /// The window's values.
    Values(Vec<f64>),
}

impl From<WindowSpec> for WindowLike {
    fn from(s: WindowSpec) -> Self {
        WindowLike::Spec(s)
    }
}

impl From<Window> for WindowLike {
    fn from(w: Window) -> Self {
        WindowLike::Spec(w.into())
    }
}

impl From<Vec<f64>> for WindowLike {
    fn from(v: Vec<f64>) -> Self {
        WindowLike::Values(v)
    }
}

impl From<&[f64]> for WindowLike {
    fn from(v: &[f64]) -> Self {
        WindowLike::Values(v.to_vec())
    }
}

impl WindowLike {
    /// SciPy's `'hann_periodic'`.
    pub(crate) fn hann_periodic() -> Self {
        WindowLike::Spec(WindowSpec {
            window: Window::Hann,
            sym: Some(false),
        })
    }
}

/// How each segment is detrended before its transform (SciPy's
/// `detrend=`; `None` in an options struct is SciPy's `False`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detrend {
    /// The segment's mean is subtracted (`'constant'`).
    Constant,
    /// The segment's least-squares line is subtracted (`'linear'`).
    Linear,
}

gpu_array::from_numpy_str! {
    Detrend, Error,
    else: |_s| Error::Value("Trend type must be 'linear' or 'constant'.".into()),
    { "constant" => Detrend::Constant, "c" => Detrend::Constant,
      "linear" => Detrend::Linear, "l" => Detrend::Linear }
}

/// The units of the result (SciPy's `scaling=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scaling {
    /// A power spectral density, V²/Hz (`'density'`; `'psd'` in
    /// [`crate::stft`]).
    Density,
    /// A power spectrum, V² (`'spectrum'`).
    Spectrum,
}

gpu_array::from_numpy_str! {
    Scaling, Error,
    else: |s| Error::Value(format!(
        "Parameter scaling='{s}' not in {{'spectrum': 'magnitude', 'density': 'psd'}}!"
    )),
    { "density" => Scaling::Density, "psd" => Scaling::Density, "spectrum" => Scaling::Spectrum }
}

/// How Welch's method combines its segments (SciPy's `average=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Average {
    /// Their mean.
    #[default]
    Mean,
    /// Their median (of real and imaginary parts apart), divided by the
    /// median's bias for exponentially distributed values.
    Median,
}

gpu_array::from_numpy_str! {
    Average, Error,
    else: |s| Error::Value(format!("Parameter average='{s}' must be 'median' or 'mean'!")),
    { "mean" => Average::Mean, "median" => Average::Median }
}

/// What [`crate::spectrogram`] returns (SciPy's `mode=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SpectrogramMode {
    /// The power spectral density (or spectrum) of each segment.
    #[default]
    Psd,
    /// The complex STFT (scaled by the square root of the PSD's scale).
    Complex,
    /// Its magnitude.
    Magnitude,
    /// Its angle, in radians.
    Angle,
    /// Its angle unwrapped along the frequencies.
    Phase,
}

gpu_array::from_numpy_str! {
    SpectrogramMode, Error,
    else: |s| Error::Value(format!(
        "unknown value for mode {s}, must be one of ['psd', 'complex', 'magnitude', 'angle', 'phase']"
    )),
    { "psd" => SpectrogramMode::Psd, "complex" => SpectrogramMode::Complex,
      "magnitude" => SpectrogramMode::Magnitude, "angle" => SpectrogramMode::Angle,
      "phase" => SpectrogramMode::Phase }
}

/// How [`crate::stft`] extends the signal by half a segment at each end
/// (SciPy's `boundary=`; `None` in [`crate::StftOptions`] for none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StftBoundary {
    /// Mirrored without the edge sample (`'even'`).
    Even,
    /// Mirrored through the edge sample (`'odd'`).
    Odd,
    /// The edge sample repeated (`'constant'`).
    Constant,
    /// Zeros (`'zeros'`, SciPy's default).
    #[default]
    Zeros,
}

gpu_array::from_numpy_str! {
    StftBoundary, Error,
    else: |s| Error::Value(format!(
        "Unknown boundary option '{s}', must be one of: ['even', 'odd', 'constant', 'zeros', None]"
    )),
    { "even" => StftBoundary::Even, "odd" => StftBoundary::Odd,
      "constant" => StftBoundary::Constant, "zeros" => StftBoundary::Zeros }
}

/// Defines builder setters, each documented with an example.
macro_rules! setters {
    ($ty:ident { $($(#[$doc:meta])* $field:ident: $arg:ty => $val:expr, example $ex:expr;)+ }) => {
        impl $ty {$(
            $(#[$doc])*
            ///
            /// ```
            #[doc = concat!("let o = gpu_signal::spectral::", stringify!($ty), "::default().",
                stringify!($field), "(", stringify!($ex), ");")]
            /// # let _ = o;
            /// ```
            #[must_use]
            pub fn $field(mut self, $field: $arg) -> Self {
                self.$field = $val;
                self
            }
        )+}
    };
}
pub(crate) use setters;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_with_scipys_messages() {
        assert_eq!("linear".parse::<Detrend>().unwrap(), Detrend::Linear);
        assert_eq!("median".parse::<Average>().unwrap(), Average::Median);
        assert_eq!("spectrum".parse::<Scaling>().unwrap(), Scaling::Spectrum);
        assert_eq!(
            "phase".parse::<SpectrogramMode>().unwrap(),
            SpectrogramMode::Phase
        );
        assert_eq!("odd".parse::<StftBoundary>().unwrap(), StftBoundary::Odd);
        let e = |r: Result<(), Error>| r.unwrap_err().to_string();
        assert_eq!(
            e("x".parse::<Detrend>().map(|_| ())),
            "Trend type must be 'linear' or 'constant'."
        );
        assert_eq!(
            e("x".parse::<Scaling>().map(|_| ())),
            "Parameter scaling='x' not in {'spectrum': 'magnitude', 'density': 'psd'}!"
        );
        assert_eq!(
            e("x".parse::<Average>().map(|_| ())),
            "Parameter average='x' must be 'median' or 'mean'!"
        );
        assert_eq!(
            e("x".parse::<SpectrogramMode>().map(|_| ())),
            "unknown value for mode x, must be one of ['psd', 'complex', 'magnitude', 'angle', 'phase']"
        );
        assert_eq!(
            e("x".parse::<StftBoundary>().map(|_| ())),
            "Unknown boundary option 'x', must be one of: ['even', 'odd', 'constant', 'zeros', None]"
        );
    }
}
