//! Welch's method and what SciPy builds on it: [`welch`], [`csd`],
//! [`periodogram`] (one segment, no overlap) and [`coherence`].

use gpu_array::layout::{AxisIndex, broadcast_shapes};
use gpu_array::reduction::ReduceOptions;
use gpu_array::{Array, DType, Error, Result, ufunc};

use super::helper::{
    abs2, axis_last, axis_of, cast, factors, freqs, median_bias, out_complex, power_scale,
    segment_spectra, upload,
};
use super::options::{Average, Detrend, Scaling, WindowLike, setters};
use crate::windows::Window;

/// SciPy's keywords of [`welch_with`] and [`csd_with`]: `fs` (1.0),
/// `window` (`'hann_periodic'`), `nperseg` (`None`: 256, or the window's
/// length), `noverlap` (`None`: half a segment), `nfft` (`None`:
/// `nperseg`), `detrend` (`'constant'`), `return_onesided` (true),
/// `scaling` (`'density'`), `axis` (-1) and `average` (`'mean'`).
///
/// ```
/// use gpu_signal::spectral::{Average, Detrend, WelchOptions};
/// let o = WelchOptions::default().fs(1e3).nperseg(1024).detrend(Detrend::Linear).average(Average::Median);
/// assert_eq!((o.nperseg, o.average), (Some(1024), Average::Median));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct WelchOptions {
    /// The sampling frequency.
    pub fs: f64,
    /// The window.
    pub window: WindowLike,
    /// The segment length.
    pub nperseg: Option<usize>,
    /// The samples shared by consecutive segments.
    pub noverlap: Option<usize>,
    /// The transform length (zero-padding each segment).
    pub nfft: Option<usize>,
    /// Each segment's detrending (`None`: SciPy's `False`).
    pub detrend: Option<Detrend>,
    /// One-sided spectra for real inputs (complex inputs are two-sided).
    pub return_onesided: bool,
    /// Density or spectrum.
    pub scaling: Scaling,
    /// The time axis.
    pub axis: isize,
    /// How segments are combined.
    pub average: Average,
}

impl Default for WelchOptions {
    fn default() -> Self {
        WelchOptions {
            fs: 1.0,
            window: WindowLike::hann_periodic(),
            nperseg: None,
            noverlap: None,
            nfft: None,
            detrend: Some(Detrend::Constant),
            return_onesided: true,
            scaling: Scaling::Density,
            axis: -1,
            average: Average::Mean,
        }
    }
}

setters!(WelchOptions {
    /// Sets `fs`.
    fs: f64 => fs, example 48000.0;
    /// Sets `window` (a [`WindowSpec`](crate::windows::WindowSpec), a [`Window`] or values).
    window: impl Into<WindowLike> => window.into(), example gpu_signal::windows::Window::Hamming;
    /// Sets `nperseg`.
    nperseg: usize => Some(nperseg), example 512;
    /// Sets `noverlap`.
    noverlap: usize => Some(noverlap), example 128;
    /// Sets `nfft`.
    nfft: usize => Some(nfft), example 2048;
    /// Sets `detrend` (`None` for none).
    detrend: impl Into<Option<Detrend>> => detrend.into(), example None;
    /// Sets `return_onesided`.
    return_onesided: bool => return_onesided, example false;
    /// Sets `scaling`.
    scaling: Scaling => scaling, example gpu_signal::spectral::Scaling::Spectrum;
    /// Sets `axis`.
    axis: isize => axis, example 0;
    /// Sets `average`.
    average: Average => average, example gpu_signal::spectral::Average::Median;
});

/// [`welch`]'s result: the frequencies (float64) and the power spectral
/// density or spectrum (the input's real precision).
#[derive(Debug, Clone)]
pub struct Welch {
    /// The sample frequencies.
    pub f: Array,
    /// The spectrum, the time axis replaced by the frequencies.
    pub pxx: Array,
}

/// [`csd`]'s result: the frequencies and the complex cross spectrum.
#[derive(Debug, Clone)]
pub struct Csd {
    /// The sample frequencies.
    pub f: Array,
    /// The cross spectral density or spectrum `conj(X) Y`.
    pub pxy: Array,
}

/// [`periodogram`]'s result.
#[derive(Debug, Clone)]
pub struct Periodogram {
    /// The sample frequencies.
    pub f: Array,
    /// The power spectral density or spectrum.
    pub pxx: Array,
}

/// [`coherence`]'s result.
#[derive(Debug, Clone)]
pub struct Coherence {
    /// The sample frequencies.
    pub f: Array,
    /// The magnitude-squared coherence `|Pxy|^2 / (Pxx Pyy)`.
    pub cxy: Array,
}

/// SciPy's `welch(x)`: the power spectral density of `x` along its last
/// axis by Welch's method (Hann segments of 256 samples, half
/// overlapping, each's mean removed, averaged).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::spectral::{Welch, welch};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([1 << 20], DType::Float32)?;
/// let Welch { f, pxx } = welch(&x)?; // 129 frequencies, float32 densities
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`welch_with`].
pub fn welch(x: &Array) -> Result<Welch> {
    welch_with(x, &WelchOptions::default())
}

/// [`welch`] with SciPy's keywords ([`WelchOptions`]). All segments are
/// transformed in one batched FFT; the median average is gpu-array's
/// median along the segments.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::spectral::{Average, WelchOptions, welch_with};
/// use gpu_signal::windows::Window;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([8, 4096], DType::Float64)?; // 8 channels
/// let o = WelchOptions::default().fs(1e3).window(Window::Kaiser { beta: 8.0 }).nperseg(512).average(Average::Median);
/// let w = welch_with(&x, &o)?; // pxx: (8, 257)
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: "Parameter nperseg=0 is not a positive integer!", "nperseg=..
/// does not equal len(win)=..", "nfft=.. must be greater than or equal to
/// nperseg=..!", "noverlap=.. must be less than nperseg=..!"; a window
/// array longer than the signal; a bad axis; failed device work.
pub fn welch_with(x: &Array, opts: &WelchOptions) -> Result<Welch> {
    let (f, p) = csd_impl(x, None, opts)?;
    Ok(Welch { f, pxx: p })
}

/// SciPy's `csd(x, y)`: the cross spectral density `conj(X) Y` of `x` and
/// `y` by Welch's method, with [`welch`]'s defaults.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::spectral::csd;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([4096], DType::Float64)?;
/// let y = gpu_array::creation::ones([4096], DType::Float64)?;
/// let c = csd(&x, &y)?; // c.pxy: complex128, 129 frequencies
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`csd_with`].
pub fn csd(x: &Array, y: &Array) -> Result<Csd> {
    csd_with(x, y, &WelchOptions::default())
}

/// [`csd`] with SciPy's keywords. The signals' other axes broadcast; the
/// shorter signal is zero-padded to the longer. The result is complex64
/// for single-precision inputs, complex128 otherwise.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::spectral::{WelchOptions, csd_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([3, 2048], DType::Float32)?;
/// let y = gpu_array::creation::ones([1, 2048], DType::Float32)?;
/// let c = csd_with(&x, &y, &WelchOptions::default().nperseg(128).fs(8e3))?; // (3, 65)
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's "x and y cannot be broadcast together."; as [`welch_with`].
pub fn csd_with(x: &Array, y: &Array, opts: &WelchOptions) -> Result<Csd> {
    let (f, p) = csd_impl(x, Some(y), opts)?;
    Ok(Csd { f, pxy: p })
}

/// `x` zero-padded to `n` along its last axis.
fn pad_to(x: &Array, n: usize) -> Result<Array> {
    let nd = x.ndim();
    let have = x.shape()[nd - 1];
    if have >= n {
        return Ok(x.clone());
    }
    let mut zshape = x.shape().to_vec();
    zshape[nd - 1] = n - have;
    let z = Array::zeros(zshape, x.dtype())?;
    gpu_array::manipulation::concatenate(&[x, &z], Some(-1))
}

/// SciPy 1.17's `csd` (and `welch`, `y` absent): the averaged segment
/// spectra, complex for two signals and real for one.
fn csd_impl(x: &Array, y: Option<&Array>, opts: &WelchOptions) -> Result<(Array, Array)> {
    let axis = axis_of(opts.axis, x.ndim())?;
    let mut dts = vec![x.dtype()];
    let n = match y {
        None => {
            if x.size() == 0 {
                return Ok((
                    Array::empty(x.shape().to_vec(), DType::Float64)?,
                    Array::empty(x.shape().to_vec(), DType::Float64)?,
                ));
            }
            x.shape()[axis]
        }
        Some(y) => {
            let yaxis = axis_of(opts.axis, y.ndim())?;
            let mut xo = x.shape().to_vec();
            xo.remove(axis);
            let mut yo = y.shape().to_vec();
            yo.remove(yaxis);
            let outer = broadcast_shapes(&[&xo, &yo])
                .map_err(|_| Error::Value("x and y cannot be broadcast together.".into()))?;
            if x.size() == 0 || y.size() == 0 {
                let mut s = outer.clone();
                s.push(x.shape()[axis].min(y.shape()[yaxis]));
                let e = Array::empty(s, DType::Float64)?.moveaxis(&[-1], &[opts.axis])?;
                return Ok((e.clone(), e));
            }
            dts.push(y.dtype());
            x.shape()[axis].max(y.shape()[yaxis])
        }
    };
    let out = out_complex(&dts);
    let (win, nperseg) = match &opts.window {
        WindowLike::Spec(s) => {
            let np = opts.nperseg.unwrap_or(256);
            if np < 1 {
                return Err(Error::Value(format!(
                    "Parameter nperseg={np} is not a positive integer!"
                )));
            }
            let np = np.min(n);
            (s.values(np, true)?, np)
        }
        WindowLike::Values(w) => {
            let np = opts.nperseg.unwrap_or(w.len());
            if np != w.len() {
                return Err(Error::Value(format!(
                    "nperseg={np} does not equal len(win)={}",
                    w.len()
                )));
            }
            (w.clone(), np)
        }
    };
    let nfft = opts.nfft.unwrap_or(nperseg);
    if nfft < nperseg {
        return Err(Error::Value(format!(
            "nfft={nfft} must be greater than or equal to nperseg={nperseg}!"
        )));
    }
    let noverlap = opts.noverlap.unwrap_or(nperseg / 2);
    if noverlap >= nperseg {
        return Err(Error::Value(format!(
            "noverlap={noverlap} must be less than nperseg={nperseg}!"
        )));
    }
    if n < nperseg {
        return Err(Error::Value("window is longer than input signal".into()));
    }
    let complex = dts.iter().any(|d| d.is_complex());
    let twosided = complex || !opts.return_onesided;
    let cdt = if complex { out } else { out.real_dtype() };
    let rdt = out.real_dtype();
    let step = nperseg - noverlap;
    let winx = upload(&win, rdt)?;
    let spectra = |a: &Array, ax: usize, outer: Option<&[usize]>| -> Result<Array> {
        let a = pad_to(&axis_last(&cast(a, cdt)?, ax)?, n)?;
        let a = match outer {
            Some(o) => {
                let mut s = o.to_vec();
                s.push(n);
                let b = a.broadcast_to(&s)?;
                gpu_array::creation::ascontiguousarray(&b, None)?
            }
            None => a,
        };
        segment_spectra(&a, &winx, nperseg, step, nfft, opts.detrend, twosided)
    };
    let p = match y {
        None => abs2(&spectra(x, axis, None)?)?,
        Some(y) => {
            let yaxis = axis_of(opts.axis, y.ndim())?;
            let mut xo = x.shape().to_vec();
            xo.remove(axis);
            let mut yo = y.shape().to_vec();
            yo.remove(yaxis);
            let outer = broadcast_shapes(&[&xo, &yo])?;
            let sx = spectra(x, axis, Some(&outer))?;
            let sy = spectra(y, yaxis, Some(&outer))?;
            ufunc::multiply(&sx.conj()?, &sy)?
        }
    };
    let nfreq = p.shape()[p.ndim() - 1];
    let scale = power_scale(&win, opts.fs, opts.scaling == Scaling::Density);
    let fac = upload(&factors(nfreq, nfft, scale, !twosided), rdt)?;
    let p = ufunc::multiply(&p, &fac)?;
    let nseg = p.shape()[p.ndim() - 2];
    let p = if nseg > 1 {
        match opts.average {
            Average::Mean => gpu_array::stats::mean(&p, ReduceOptions::axis(-2))?,
            Average::Median => {
                let bias = median_bias(nseg);
                let med = |a: &Array| gpu_array::sorting::median(a, Some(&[-2]), false);
                let m = if p.dtype().is_complex() {
                    // The two medians side by side, seen as complex values.
                    let re = med(&p.real())?;
                    let im = med(&p.imag()?)?;
                    let shape = re.shape().to_vec();
                    gpu_array::manipulation::stack(&[&re, &im], -1)?
                        .view_as(p.dtype())?
                        .reshape(shape.as_slice())?
                } else {
                    med(&p)?
                };
                ufunc::divide(&m, bias)?
            }
        }
    } else {
        let mut s = p.shape().to_vec();
        s.remove(s.len() - 2);
        p.reshape(s.as_slice())?
    };
    let want = if y.is_some() { out } else { rdt };
    let p = cast(&p, want)?;
    let last = p.ndim() as isize - 1;
    let p = if axis as isize == last {
        p
    } else {
        p.moveaxis(&[-1], &[opts.axis])?
    };
    let f = Array::from_slice(&freqs(nfft, opts.fs, twosided), &[nfreq])?;
    Ok((f, p))
}

/// SciPy's keywords of [`periodogram_with`]: `fs` (1.0), `window`
/// (`'boxcar'`), `nfft` (`None`: the signal's length; shorter cuts the
/// signal, longer zero-pads it), `detrend` (`'constant'`),
/// `return_onesided` (true), `scaling` (`'density'`) and `axis` (-1).
///
/// ```
/// use gpu_signal::spectral::{PeriodogramOptions, Scaling};
/// let o = PeriodogramOptions::default().nfft(4096).scaling(Scaling::Spectrum);
/// assert_eq!((o.nfft, o.scaling), (Some(4096), Scaling::Spectrum));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PeriodogramOptions {
    /// The sampling frequency.
    pub fs: f64,
    /// The window.
    pub window: WindowLike,
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
}

impl Default for PeriodogramOptions {
    fn default() -> Self {
        PeriodogramOptions {
            fs: 1.0,
            window: Window::Boxcar.into(),
            nfft: None,
            detrend: Some(Detrend::Constant),
            return_onesided: true,
            scaling: Scaling::Density,
            axis: -1,
        }
    }
}

setters!(PeriodogramOptions {
    /// Sets `fs`.
    fs: f64 => fs, example 100.0;
    /// Sets `window` (a [`WindowSpec`](crate::windows::WindowSpec), a [`Window`] or values).
    window: impl Into<WindowLike> => window.into(), example gpu_signal::windows::Window::Flattop;
    /// Sets `nfft`.
    nfft: usize => Some(nfft), example 1024;
    /// Sets `detrend` (`None` for none).
    detrend: impl Into<Option<Detrend>> => detrend.into(), example gpu_signal::spectral::Detrend::Linear;
    /// Sets `return_onesided`.
    return_onesided: bool => return_onesided, example false;
    /// Sets `scaling`.
    scaling: Scaling => scaling, example gpu_signal::spectral::Scaling::Spectrum;
    /// Sets `axis`.
    axis: isize => axis, example 0;
});

/// SciPy's `periodogram(x)`: the power spectral density of `x` along its
/// last axis from one boxcar segment of the whole signal.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::spectral::periodogram;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([100_000], DType::Float64)?;
/// let p = periodogram(&x)?; // p.pxx: 50_001 frequencies
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`periodogram_with`].
pub fn periodogram(x: &Array) -> Result<Periodogram> {
    periodogram_with(x, &PeriodogramOptions::default())
}

/// [`periodogram`] with SciPy's keywords: [`welch_with`] over one segment
/// of the signal (cut to `nfft` when that is shorter).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::spectral::{PeriodogramOptions, Scaling, periodogram_with};
/// use gpu_signal::windows::Window;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([10_000], DType::Float32)?;
/// let o = PeriodogramOptions::default().fs(1e4).window(Window::Flattop).scaling(Scaling::Spectrum);
/// let p = periodogram_with(&x, &o)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's "the size of the window must be the same size of the input on
/// the specified axis" for window values; as [`welch_with`].
pub fn periodogram_with(x: &Array, opts: &PeriodogramOptions) -> Result<Periodogram> {
    if x.size() == 0 {
        return Ok(Periodogram {
            f: Array::empty(x.shape().to_vec(), DType::Float64)?,
            pxx: Array::empty(x.shape().to_vec(), DType::Float64)?,
        });
    }
    let axis = axis_of(opts.axis, x.ndim())?;
    let len = x.shape()[axis];
    let (x, nperseg, nfft) = match opts.nfft {
        None => (x.clone(), len, None),
        Some(n) if n >= len => (x.clone(), len, Some(n)),
        Some(n) => {
            let idx: Vec<AxisIndex> = (0..x.ndim())
                .map(|d| AxisIndex::Slice {
                    start: None,
                    stop: (d == axis).then_some(n as isize),
                    step: 1,
                })
                .collect();
            (x.slice(&idx)?, n, None)
        }
    };
    if let WindowLike::Values(w) = &opts.window
        && w.len() != nperseg
    {
        return Err(Error::Value(
            "the size of the window must be the same size of the input on the specified axis"
                .into(),
        ));
    }
    let w = WelchOptions {
        fs: opts.fs,
        window: opts.window.clone(),
        nperseg: Some(nperseg),
        noverlap: Some(0),
        nfft,
        detrend: opts.detrend,
        return_onesided: opts.return_onesided,
        scaling: opts.scaling,
        axis: opts.axis,
        average: Average::Mean,
    };
    let Welch { f, pxx } = welch_with(&x, &w)?;
    Ok(Periodogram { f, pxx })
}

/// SciPy's keywords of [`coherence_with`]: `fs`, `window`, `nperseg`,
/// `noverlap`, `nfft`, `detrend` and `axis`, with [`welch`]'s defaults.
///
/// ```
/// use gpu_signal::spectral::CoherenceOptions;
/// let o = CoherenceOptions::default().nperseg(64).fs(2.0);
/// assert_eq!(o.nperseg, Some(64));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CoherenceOptions {
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
    /// The time axis.
    pub axis: isize,
}

impl Default for CoherenceOptions {
    fn default() -> Self {
        let w = WelchOptions::default();
        CoherenceOptions {
            fs: w.fs,
            window: w.window,
            nperseg: None,
            noverlap: None,
            nfft: None,
            detrend: w.detrend,
            axis: -1,
        }
    }
}

setters!(CoherenceOptions {
    /// Sets `fs`.
    fs: f64 => fs, example 48000.0;
    /// Sets `window` (a [`WindowSpec`](crate::windows::WindowSpec), a [`Window`] or values).
    window: impl Into<WindowLike> => window.into(), example gpu_signal::windows::Window::Hamming;
    /// Sets `nperseg`.
    nperseg: usize => Some(nperseg), example 512;
    /// Sets `noverlap`.
    noverlap: usize => Some(noverlap), example 128;
    /// Sets `nfft`.
    nfft: usize => Some(nfft), example 2048;
    /// Sets `detrend` (`None` for none).
    detrend: impl Into<Option<Detrend>> => detrend.into(), example None;
    /// Sets `axis`.
    axis: isize => axis, example 0;
});

/// SciPy's `coherence(x, y)`: the magnitude-squared coherence
/// `|Pxy|^2 / (Pxx Pyy)` of Welch estimates, with [`welch`]'s defaults.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::spectral::coherence;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([4096], DType::Float64)?;
/// let c = coherence(&x, &x)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`coherence_with`].
pub fn coherence(x: &Array, y: &Array) -> Result<Coherence> {
    coherence_with(x, y, &CoherenceOptions::default())
}

/// [`coherence`] with SciPy's keywords.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::spectral::{CoherenceOptions, coherence_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([2, 4096], DType::Float32)?;
/// let y = gpu_array::creation::ones([2, 4096], DType::Float32)?;
/// let c = coherence_with(&x, &y, &CoherenceOptions::default().nperseg(256).fs(1e3))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`csd_with`].
pub fn coherence_with(x: &Array, y: &Array, opts: &CoherenceOptions) -> Result<Coherence> {
    let w = WelchOptions {
        fs: opts.fs,
        window: opts.window.clone(),
        nperseg: opts.nperseg,
        noverlap: opts.noverlap,
        nfft: opts.nfft,
        detrend: opts.detrend,
        axis: opts.axis,
        ..WelchOptions::default()
    };
    let Welch { f, pxx } = welch_with(x, &w)?;
    let pyy = welch_with(y, &w)?.pxx;
    let pxy = csd_with(x, y, &w)?.pxy;
    let cxy = ufunc::divide(&ufunc::divide(&abs2(&pxy)?, &pxx)?, &pyy)?;
    Ok(Coherence { f, cxy })
}
