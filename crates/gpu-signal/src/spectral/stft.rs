//! Time-frequency representations on SciPy's `_spectral_helper`:
//! [`spectrogram`] and [`stft`].

use gpu_array::manipulation::{PadMode, PadOptions, ReflectType, pad_with};
use gpu_array::{Array, DType, Error, Result, ufunc};

use super::helper::{
    abs2, arange_f, axis_last, axis_of, cast, factors, freqs, out_complex, power_scale,
    segment_spectra, triage, upload,
};
use super::options::{Detrend, Scaling, SpectrogramMode, StftBoundary, WindowLike, setters};
use crate::windows::{Window, WindowSpec};

/// SciPy's keywords of [`spectrogram_with`]: `fs` (1.0), `window`
/// (`('tukey_periodic', 0.25)`), `nperseg` (`None`: 256, or the window's
/// length), `noverlap` (`None`: an eighth of a segment), `nfft`,
/// `detrend` (`'constant'`), `return_onesided` (true), `scaling`
/// (`'density'`), `axis` (-1) and `mode` (`'psd'`).
///
/// ```
/// use gpu_signal::spectral::{SpectrogramMode, SpectrogramOptions};
/// let o = SpectrogramOptions::default().nperseg(64).mode(SpectrogramMode::Magnitude);
/// assert_eq!(o.mode, SpectrogramMode::Magnitude);
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SpectrogramOptions {
    /// The sampling frequency.
    pub fs: f64,
    /// The window.
    pub window: WindowLike,
    /// The segment length.
    pub nperseg: Option<usize>,
    /// The samples shared by consecutive segments.
    pub noverlap: Option<usize>,
    /// The transform length.
    pub nfft: Option<usize>,
    /// The detrending (`None`: SciPy's `False`).
    pub detrend: Option<Detrend>,
    /// One-sided spectra for real inputs.
    pub return_onesided: bool,
    /// Density or spectrum.
    pub scaling: Scaling,
    /// The time axis.
    pub axis: isize,
    /// What is returned.
    pub mode: SpectrogramMode,
}

impl Default for SpectrogramOptions {
    fn default() -> Self {
        SpectrogramOptions {
            fs: 1.0,
            window: WindowLike::Spec(WindowSpec {
                window: Window::Tukey { alpha: 0.25 },
                sym: Some(false),
            }),
            nperseg: None,
            noverlap: None,
            nfft: None,
            detrend: Some(Detrend::Constant),
            return_onesided: true,
            scaling: Scaling::Density,
            axis: -1,
            mode: SpectrogramMode::Psd,
        }
    }
}

setters!(SpectrogramOptions {
    /// Sets `fs`.
    fs: f64 => fs, example 48000.0;
    /// Sets `window` (a [`WindowSpec`], a [`Window`] or values).
    window: impl Into<WindowLike> => window.into(), example gpu_signal::windows::Window::Hann;
    /// Sets `nperseg`.
    nperseg: usize => Some(nperseg), example 512;
    /// Sets `noverlap`.
    noverlap: usize => Some(noverlap), example 256;
    /// Sets `nfft`.
    nfft: usize => Some(nfft), example 1024;
    /// Sets `detrend` (`None` for none).
    detrend: impl Into<Option<Detrend>> => detrend.into(), example None;
    /// Sets `return_onesided`.
    return_onesided: bool => return_onesided, example false;
    /// Sets `scaling`.
    scaling: Scaling => scaling, example gpu_signal::spectral::Scaling::Spectrum;
    /// Sets `axis`.
    axis: isize => axis, example 0;
    /// Sets `mode`.
    mode: SpectrogramMode => mode, example gpu_signal::spectral::SpectrogramMode::Complex;
});

/// [`spectrogram`]'s result.
#[derive(Debug, Clone)]
pub struct Spectrogram {
    /// The sample frequencies (float64).
    pub f: Array,
    /// The segments' centre times (float64).
    pub t: Array,
    /// The spectrogram: the time axis replaced by the frequencies, and
    /// the segments last.
    pub sxx: Array,
}

/// SciPy's keywords of [`stft_with`]: `fs` (1.0), `window`
/// (`'hann_periodic'`), `nperseg` (256), `noverlap` (`None`: half a
/// segment), `nfft`, `detrend` (`None`), `return_onesided` (true),
/// `boundary` (`'zeros'`; `None` for none), `padded` (true), `axis` (-1)
/// and `scaling` (`'spectrum'`; [`Scaling::Density`] is SciPy's `'psd'`).
///
/// ```
/// use gpu_signal::spectral::{StftBoundary, StftOptions};
/// let o = StftOptions::default().nperseg(128).boundary(StftBoundary::Even).padded(false);
/// assert_eq!((o.nperseg, o.boundary), (128, Some(StftBoundary::Even)));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct StftOptions {
    /// The sampling frequency.
    pub fs: f64,
    /// The window.
    pub window: WindowLike,
    /// The segment length (cut to the signal's length for named windows;
    /// a window given by values sets its own).
    pub nperseg: usize,
    /// The samples shared by consecutive segments.
    pub noverlap: Option<usize>,
    /// The transform length.
    pub nfft: Option<usize>,
    /// The detrending (`None`: SciPy's `False`).
    pub detrend: Option<Detrend>,
    /// One-sided spectra for real inputs.
    pub return_onesided: bool,
    /// The extension by half a segment at each end (`None`: none).
    pub boundary: Option<StftBoundary>,
    /// Zero-pad the end so that the last segment is whole.
    pub padded: bool,
    /// The time axis.
    pub axis: isize,
    /// Spectrum (`'spectrum'`) or density (`'psd'`) units.
    pub scaling: Scaling,
}

impl Default for StftOptions {
    fn default() -> Self {
        StftOptions {
            fs: 1.0,
            window: WindowLike::hann_periodic(),
            nperseg: 256,
            noverlap: None,
            nfft: None,
            detrend: None,
            return_onesided: true,
            boundary: Some(StftBoundary::Zeros),
            padded: true,
            axis: -1,
            scaling: Scaling::Spectrum,
        }
    }
}

setters!(StftOptions {
    /// Sets `fs`.
    fs: f64 => fs, example 48000.0;
    /// Sets `window` (a [`WindowSpec`], a [`Window`] or values).
    window: impl Into<WindowLike> => window.into(), example gpu_signal::windows::Window::Hamming;
    /// Sets `nperseg`.
    nperseg: usize => nperseg, example 512;
    /// Sets `noverlap`.
    noverlap: usize => Some(noverlap), example 384;
    /// Sets `nfft`.
    nfft: usize => Some(nfft), example 1024;
    /// Sets `detrend` (`None` for none).
    detrend: impl Into<Option<Detrend>> => detrend.into(), example gpu_signal::spectral::Detrend::Constant;
    /// Sets `return_onesided`.
    return_onesided: bool => return_onesided, example false;
    /// Sets `boundary` (`None` for none).
    boundary: impl Into<Option<StftBoundary>> => boundary.into(), example None;
    /// Sets `padded`.
    padded: bool => padded, example false;
    /// Sets `axis`.
    axis: isize => axis, example 0;
    /// Sets `scaling`.
    scaling: Scaling => scaling, example gpu_signal::spectral::Scaling::Density;
});

/// [`stft`]'s result.
#[derive(Debug, Clone)]
pub struct Stft {
    /// The sample frequencies (float64).
    pub f: Array,
    /// The segments' times (float64).
    pub t: Array,
    /// The STFT (complex64 for single-precision inputs, else
    /// complex128): the time axis replaced by the frequencies, and the
    /// segments last.
    pub zxx: Array,
}

/// The arguments of SciPy's `_spectral_helper` (one signal).
struct Helper<'a> {
    fs: f64,
    window: &'a WindowLike,
    nperseg: Option<usize>,
    noverlap: Option<usize>,
    nfft: Option<usize>,
    detrend: Option<Detrend>,
    return_onesided: bool,
    scaling: Scaling,
    axis: isize,
    psd: bool,
    boundary: Option<StftBoundary>,
    padded: bool,
}

/// `x` extended by `n` samples at each end of its last axis (SciPy's
/// `even_ext`, `odd_ext`, `const_ext`, `zero_ext`).
fn extend(x: &Array, n: usize, how: StftBoundary) -> Result<Array> {
    let nd = x.ndim();
    let len = x.shape()[nd - 1];
    if matches!(how, StftBoundary::Even | StftBoundary::Odd) && n + 1 > len {
        return Err(Error::Value(format!(
            "The extension length n ({n}) is too big. It must not exceed x.shape[axis]-1, which is {}.",
            len as i64 - 1
        )));
    }
    let mut widths = vec![(0, 0); nd];
    widths[nd - 1] = (n, n);
    let none = PadOptions::default();
    match how {
        StftBoundary::Even => pad_with(x, &widths, PadMode::Reflect, &none),
        StftBoundary::Odd => pad_with(
            x,
            &widths,
            PadMode::Reflect,
            &PadOptions::default().reflect_type(ReflectType::Odd),
        ),
        StftBoundary::Constant => pad_with(x, &widths, PadMode::Edge, &none),
        StftBoundary::Zeros => {
            let mut zshape = x.shape().to_vec();
            zshape[nd - 1] = n;
            let z = Array::zeros(zshape, x.dtype())?;
            gpu_array::manipulation::concatenate(&[&z, x, &z], Some(-1))
        }
    }
}

/// SciPy's `_spectral_helper` for one signal: frequencies, times and the
/// (power or complex) spectra, frequencies at `axis` and segments last.
fn spectral_helper(x: &Array, h: &Helper<'_>) -> Result<(Array, Array, Array)> {
    if x.size() == 0 {
        let e = || Array::empty(x.shape().to_vec(), DType::Float64);
        return Ok((e()?, e()?, e()?));
    }
    let axis = axis_of(h.axis, x.ndim())?;
    let out = out_complex(&[x.dtype()]);
    let complex = x.dtype().is_complex();
    let cdt = if complex { out } else { out.real_dtype() };
    let rdt = out.real_dtype();
    let mut xl = axis_last(&cast(x, cdt)?, axis)?;
    if h.nperseg == Some(0) {
        return Err(Error::Value("nperseg must be a positive integer".into()));
    }
    let (win, nperseg) = triage(h.window, h.nperseg, xl.shape()[xl.ndim() - 1])?;
    let nfft = h.nfft.unwrap_or(nperseg);
    if nfft < nperseg {
        return Err(Error::Value(
            "nfft must be greater than or equal to nperseg.".into(),
        ));
    }
    let noverlap = h.noverlap.unwrap_or(nperseg / 2);
    if noverlap >= nperseg {
        return Err(Error::Value("noverlap must be less than nperseg.".into()));
    }
    let step = nperseg - noverlap;
    if let Some(b) = h.boundary {
        xl = extend(&xl, nperseg / 2, b)?;
    }
    if h.padded {
        let len = xl.shape()[xl.ndim() - 1] as i64;
        let nadd = (-(len - nperseg as i64)).rem_euclid(step as i64) % nperseg as i64;
        if nadd > 0 {
            let mut zshape = xl.shape().to_vec();
            let last = zshape.len() - 1;
            zshape[last] = nadd as usize;
            let z = Array::zeros(zshape, xl.dtype())?;
            xl = gpu_array::manipulation::concatenate(&[&xl, &z], Some(-1))?;
        }
    }
    let len = xl.shape()[xl.ndim() - 1];
    let twosided = complex || !h.return_onesided;
    let winx = upload(&win, rdt)?;
    let z = segment_spectra(&xl, &winx, nperseg, step, nfft, h.detrend, twosided)?;
    let mut scale = power_scale(&win, h.fs, h.scaling == Scaling::Density);
    if !h.psd {
        scale = scale.sqrt();
    }
    let nfreq = z.shape()[z.ndim() - 1];
    let fac = upload(&factors(nfreq, nfft, scale, h.psd && !twosided), rdt)?;
    let result = if h.psd {
        cast(&ufunc::multiply(&abs2(&z)?, &fac)?, rdt)?
    } else {
        cast(&ufunc::multiply(&z, &fac)?, out)?
    };
    let half = nperseg as f64 / 2.0;
    let mut t = arange_f(half, len as f64 - half + 1.0, step as f64);
    for v in &mut t {
        *v /= h.fs;
        if h.boundary.is_some() {
            *v -= half / h.fs;
        }
    }
    let dest = if h.axis < 0 { h.axis - 1 } else { h.axis };
    let result = result.moveaxis(&[-1], &[dest])?;
    let f = Array::from_slice(&freqs(nfft, h.fs, twosided), &[nfreq])?;
    let t = Array::from_slice(&t, &[t.len()])?;
    Ok((f, t, result))
}

/// SciPy's `spectrogram(x)`: consecutive power spectral densities of `x`
/// along its last axis (periodic Tukey segments of 256 samples
/// overlapping by an eighth).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::spectral::spectrogram;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([1 << 16], DType::Float32)?;
/// let s = spectrogram(&x)?; // s.sxx: (129, 292)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`spectrogram_with`].
pub fn spectrogram(x: &Array) -> Result<Spectrogram> {
    spectrogram_with(x, &SpectrogramOptions::default())
}

/// [`spectrogram`] with SciPy's keywords; `mode` chooses the densities,
/// the complex STFT, its magnitude, angle, or phase (the angle unwrapped
/// along the frequencies).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::spectral::{SpectrogramMode, SpectrogramOptions, spectrogram_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([4, 8192], DType::Float64)?;
/// let o = SpectrogramOptions::default().fs(8e3).nperseg(128).mode(SpectrogramMode::Magnitude);
/// let s = spectrogram_with(&x, &o)?; // s.sxx: (4, 65, 73)
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: "nperseg must be a positive integer", "nfft must be greater
/// than or equal to nperseg.", "noverlap must be less than nperseg.", a
/// window array longer than the signal or of another length than
/// `nperseg`; a bad axis; failed device work.
pub fn spectrogram_with(x: &Array, opts: &SpectrogramOptions) -> Result<Spectrogram> {
    let axis_len = if x.ndim() > 0 {
        x.shape()[axis_of(opts.axis, x.ndim())?]
    } else {
        0
    };
    let nperseg = if x.size() == 0 {
        opts.nperseg
    } else {
        Some(triage(&opts.window, opts.nperseg, axis_len)?.1)
    };
    let noverlap = opts.noverlap.or(nperseg.map(|n| n / 8));
    let psd = opts.mode == SpectrogramMode::Psd;
    let h = Helper {
        fs: opts.fs,
        window: &opts.window,
        nperseg,
        noverlap,
        nfft: opts.nfft,
        detrend: opts.detrend,
        return_onesided: opts.return_onesided,
        scaling: opts.scaling,
        axis: opts.axis,
        psd,
        boundary: None,
        padded: false,
    };
    let (f, t, s) = spectral_helper(x, &h)?;
    let sxx = match opts.mode {
        SpectrogramMode::Psd | SpectrogramMode::Complex => s,
        _ if x.size() == 0 => s,
        SpectrogramMode::Magnitude => ufunc::absolute(&s)?,
        SpectrogramMode::Angle => gpu_array::math::angle(&s, false)?,
        SpectrogramMode::Phase => {
            let a = gpu_array::math::angle(&s, false)?;
            let ax = if opts.axis < 0 {
                opts.axis - 1
            } else {
                opts.axis
            };
            gpu_array::math::unwrap(&a, None, ax, 2.0 * std::f64::consts::PI)?
        }
    };
    Ok(Spectrogram { f, t, sxx })
}

/// SciPy's `stft(x)`: the short-time Fourier transform of `x` along its
/// last axis (periodic Hann segments of 256 samples, half overlapping,
/// the signal extended by half a segment of zeros at each end and padded
/// to whole segments).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::spectral::stft;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([48_000], DType::Float32)?;
/// let s = stft(&x)?; // s.zxx: complex64 (129, 377)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`stft_with`].
pub fn stft(x: &Array) -> Result<Stft> {
    stft_with(x, &StftOptions::default())
}

/// [`stft`] with SciPy's keywords ([`StftOptions`]); invert with
/// [`crate::istft`] given the same window, `nperseg`, `noverlap`, `nfft`
/// and `scaling`.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::spectral::{StftBoundary, StftOptions, stft_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([2, 10_000], DType::Float64)?;
/// let o = StftOptions::default().nperseg(512).noverlap(384).boundary(StftBoundary::Even);
/// let s = stft_with(&x, &o)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: as [`spectrogram_with`]; an even or odd extension longer than
/// the signal allows ("The extension length n (..) is too big. ...").
pub fn stft_with(x: &Array, opts: &StftOptions) -> Result<Stft> {
    let h = Helper {
        fs: opts.fs,
        window: &opts.window,
        nperseg: Some(opts.nperseg),
        noverlap: opts.noverlap,
        nfft: opts.nfft,
        detrend: opts.detrend,
        return_onesided: opts.return_onesided,
        scaling: opts.scaling,
        axis: opts.axis,
        psd: false,
        boundary: opts.boundary,
        padded: opts.padded,
    };
    let (f, t, zxx) = spectral_helper(x, &h)?;
    Ok(Stft { f, t, zxx })
}
