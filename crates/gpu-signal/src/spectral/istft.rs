//! The inverse STFT: inverse transforms of all segments in one batched
//! call, then overlap-add in one elementwise kernel (each output sample
//! sums the at most `ceil(nperseg / nstep)` segments covering it), divided
//! by the window's summed squares (computed on the host).

use gpu_array::elementwise::{Bind, Elementwise};
use gpu_array::layout::AxisIndex;
use gpu_array::{Array, DType, Error, Result, ufunc};
use gpu_fft::{FftOptions, ifft_with, irfft_with};

use super::helper::{arange_f, axis_of, cast, upload};
use super::options::{Scaling, WindowLike, setters};

/// SciPy's keywords of [`istft_with`]: `fs` (1.0), `window`
/// (`'hann_periodic'`), `nperseg` (`None`: from the frequency axis),
/// `noverlap` (`None`: half a segment), `nfft`, `input_onesided` (true),
/// `boundary` (true: the STFT's input was extended), `time_axis` (-1),
/// `freq_axis` (-2) and `scaling` (`'spectrum'`).
///
/// ```
/// use gpu_signal::spectral::IstftOptions;
/// let o = IstftOptions::default().nperseg(128).noverlap(96).input_onesided(false);
/// assert_eq!((o.nperseg, o.input_onesided), (Some(128), false));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct IstftOptions {
    /// The sampling frequency.
    pub fs: f64,
    /// The window the STFT used.
    pub window: WindowLike,
    /// The segment length.
    pub nperseg: Option<usize>,
    /// The samples shared by consecutive segments.
    pub noverlap: Option<usize>,
    /// The transform length.
    pub nfft: Option<usize>,
    /// Whether the STFT is one-sided (a real signal).
    pub input_onesided: bool,
    /// Whether half a segment is cut from each end.
    pub boundary: bool,
    /// The segments' axis.
    pub time_axis: isize,
    /// The frequencies' axis.
    pub freq_axis: isize,
    /// The STFT's scaling.
    pub scaling: Scaling,
}

impl Default for IstftOptions {
    fn default() -> Self {
        IstftOptions {
            fs: 1.0,
            window: WindowLike::hann_periodic(),
            nperseg: None,
            noverlap: None,
            nfft: None,
            input_onesided: true,
            boundary: true,
            time_axis: -1,
            freq_axis: -2,
            scaling: Scaling::Spectrum,
        }
    }
}

setters!(IstftOptions {
    /// Sets `fs`.
    fs: f64 => fs, example 48000.0;
    /// Sets `window` (a [`WindowSpec`](crate::windows::WindowSpec), a
    /// [`Window`](crate::windows::Window) or values).
    window: impl Into<WindowLike> => window.into(), example gpu_signal::windows::Window::Hamming;
    /// Sets `nperseg`.
    nperseg: usize => Some(nperseg), example 512;
    /// Sets `noverlap`.
    noverlap: usize => Some(noverlap), example 384;
    /// Sets `nfft`.
    nfft: usize => Some(nfft), example 1024;
    /// Sets `input_onesided`.
    input_onesided: bool => input_onesided, example false;
    /// Sets `boundary`.
    boundary: bool => boundary, example false;
    /// Sets `time_axis`.
    time_axis: isize => time_axis, example 0;
    /// Sets `freq_axis`.
    freq_axis: isize => freq_axis, example 1;
    /// Sets `scaling`.
    scaling: Scaling => scaling, example gpu_signal::spectral::Scaling::Density;
});

/// [`istft`]'s result.
#[derive(Debug, Clone)]
pub struct Istft {
    /// The times (float64; SciPy's `arange(x.shape[0]) / fs`, so the
    /// first axis's length for results of several dimensions).
    pub t: Array,
    /// The signal: real for one-sided input, complex otherwise.
    pub x: Array,
}

/// The overlap-add of `xs` (C-contiguous `(outer, nseg, nperseg)`, the
/// windowed segments) into `y` (C-contiguous `(outer, len)`).
pub(crate) fn overlap_add_kernel<'a>(
    xs: Bind<'a>,
    y: Bind<'a>,
    nseg: i64,
    nperseg: i64,
    nstep: i64,
    len: i64,
) -> Elementwise<'a> {
    Elementwise::new("cuprum_signal_overlap_add")
        .raw("xs", xs)
        .scalar("nseg", DType::Int64, nseg)
        .scalar("nperseg", DType::Int64, nperseg)
        .scalar("nstep", DType::Int64, nstep)
        .scalar("len", DType::Int64, len)
        .output("y", y)
        .op("const long long t = (long long)i % len;\n\
             const long long o = (long long)i / len;\n\
             long long lo = t >= nperseg ? (t - nperseg) / nstep + 1 : 0;\n\
             long long hi = t / nstep;\n\
             if (hi > nseg - 1) hi = nseg - 1;\n\
             y_type acc = cuprum::cast<y_type>(0);\n\
             for (long long s = lo; s <= hi; ++s) {\n\
               acc = acc + cuprum::cast<y_type>(xs[(o * nseg + s) * nperseg + (t - s * nstep)]);\n\
             }\n\
             y = acc;")
}

/// SciPy's `istft(Zxx)`: the signal whose [`crate::stft`] (with the
/// defaults) is `zxx`, frequencies on axis -2 and segments on axis -1.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::spectral::{istft, stft};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([10_000], DType::Float64)?;
/// let back = istft(&stft(&x)?.zxx)?; // back.x: x, zero-padded to whole segments
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`istft_with`].
pub fn istft(zxx: &Array) -> Result<Istft> {
    istft_with(zxx, &IstftOptions::default())
}

/// [`istft`] with SciPy's keywords ([`IstftOptions`]). Where SciPy warns
/// that the window fails the NOLA condition, the samples no window covers
/// are left undivided, as SciPy leaves them, without a warning.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::spectral::{IstftOptions, StftOptions, istft_with, stft_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([3, 4096], DType::Float32)?;
/// let z = stft_with(&x, &StftOptions::default().nperseg(128).noverlap(96))?.zxx;
/// let back = istft_with(&z, &IstftOptions::default().nperseg(128).noverlap(96))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: "Input stft must be at least 2d!", "Must specify differing
/// time and frequency axes!", "nperseg must be a positive integer", "nfft
/// must be greater than or equal to nperseg.", "noverlap must be less
/// than nperseg.", "window must have length of ..."; failed device work.
pub fn istft_with(zxx: &Array, opts: &IstftOptions) -> Result<Istft> {
    let nd = zxx.ndim();
    if nd < 2 {
        return Err(Error::Value("Input stft must be at least 2d!".into()));
    }
    let fax = axis_of(opts.freq_axis, nd)?;
    let tax = axis_of(opts.time_axis, nd)?;
    if fax == tax {
        return Err(Error::Value(
            "Must specify differing time and frequency axes!".into(),
        ));
    }
    let cdt = match zxx.dtype() {
        DType::Complex64 | DType::Float32 | DType::Float16 => DType::Complex64,
        _ => DType::Complex128,
    };
    let rdt = cdt.real_dtype();
    let z = cast(zxx, cdt)?;
    let nseg = z.shape()[tax];
    let nfreq = z.shape()[fax];
    let n_default = if opts.input_onesided {
        2 * nfreq.saturating_sub(1)
    } else {
        nfreq
    };
    let nperseg = opts.nperseg.unwrap_or(n_default);
    if nperseg < 1 {
        return Err(Error::Value("nperseg must be a positive integer".into()));
    }
    let nfft = match opts.nfft {
        None if opts.input_onesided && nperseg == n_default + 1 => nperseg,
        None => n_default,
        Some(n) if n < nperseg => {
            return Err(Error::Value(
                "nfft must be greater than or equal to nperseg.".into(),
            ));
        }
        Some(n) => n,
    };
    let noverlap = opts.noverlap.unwrap_or(nperseg / 2);
    if noverlap >= nperseg {
        return Err(Error::Value("noverlap must be less than nperseg.".into()));
    }
    let nstep = nperseg - noverlap;
    // (outer..., freq, time).
    let mut order: Vec<isize> = (0..nd)
        .filter(|&d| d != fax && d != tax)
        .map(|d| d as isize)
        .collect();
    order.extend([fax as isize, tax as isize]);
    let z = z.transpose(Some(&order))?;
    let win = match &opts.window {
        WindowLike::Spec(s) => s.values(nperseg, true)?,
        WindowLike::Values(w) => {
            if w.len() != nperseg {
                return Err(Error::Value(format!(
                    "window must have length of {nperseg}"
                )));
            }
            w.clone()
        }
    };
    let o = FftOptions::new().n(nfft).axis(-2);
    let xsubs = if opts.input_onesided {
        irfft_with(&z, &o)?
    } else {
        ifft_with(&z, &o)?
    };
    let mut idx = vec![
        AxisIndex::Slice {
            start: None,
            stop: None,
            step: 1,
        };
        nd
    ];
    idx[nd - 2] = AxisIndex::Slice {
        start: None,
        stop: Some(nperseg as isize),
        step: 1,
    };
    let xsubs = xsubs.slice(&idx)?;
    let gain = match opts.scaling {
        Scaling::Spectrum => win.iter().sum::<f64>(),
        Scaling::Density => (opts.fs * win.iter().map(|w| w * w).sum::<f64>()).sqrt(),
    };
    // Segments as (outer, nseg, nperseg), windowed and scaled.
    let wg: Vec<f64> = win.iter().map(|w| w * gain).collect();
    let segs = xsubs.swapaxes(-1, -2)?;
    let segs = ufunc::multiply(&segs, &upload(&wg, rdt)?)?;
    let segs = gpu_array::creation::ascontiguousarray(&segs, None)?;
    let outer: Vec<usize> = z.shape()[..nd - 2].to_vec();
    // SciPy's nperseg + (nseg - 1) * nstep: noverlap zeros for no segment.
    let outlen = if nseg == 0 {
        nperseg - nstep
    } else {
        nperseg + (nseg - 1) * nstep
    };
    let mut yshape = outer.clone();
    yshape.push(outlen);
    // The overlap-add writes every element when there are segments (they
    // tile the output: nstep <= nperseg); with none, the output is zeros.
    let y = if nseg == 0 {
        Array::zeros(yshape, segs.dtype())?
    } else {
        Array::empty(yshape, segs.dtype())?
    };
    if y.size() > 0 && nseg > 0 {
        overlap_add_kernel(
            (&segs).into(),
            (&y).into(),
            nseg as i64,
            nperseg as i64,
            nstep as i64,
            outlen as i64,
        )
        .launch(y.shape())?;
    }
    // The window's squares summed over the segments, on the host.
    let mut norm = vec![0.0f64; outlen];
    for s in 0..nseg {
        for (k, w) in win.iter().enumerate() {
            norm[s * nstep + k] += w * w;
        }
    }
    let (mut y, mut norm) = (y, norm);
    if opts.boundary {
        let h = nperseg / 2;
        let stop = outlen as isize - h as isize;
        let (lo, hi) = if h == 0 {
            (0, 0)
        } else {
            (h, stop.max(h as isize) as usize)
        };
        let mut idx = vec![
            AxisIndex::Slice {
                start: None,
                stop: None,
                step: 1,
            };
            y.ndim()
        ];
        let last = y.ndim() - 1;
        idx[last] = AxisIndex::Slice {
            start: Some(lo as isize),
            stop: Some(hi as isize),
            step: 1,
        };
        y = y.slice(&idx)?;
        norm = norm[lo..hi].to_vec();
    }
    let div: Vec<f64> = norm
        .iter()
        .map(|&v| if v > 1e-10 { v } else { 1.0 })
        .collect();
    let y = ufunc::divide(&y, &upload(&div, rdt)?)?;
    let y = if y.ndim() > 1 && tax != nd - 1 {
        let t = if fax < tax { tax - 1 } else { tax };
        y.moveaxis(&[-1], &[t as isize])?
    } else {
        y
    };
    let t = arange_f(0.0, y.shape()[0] as f64, 1.0)
        .into_iter()
        .map(|v| v / opts.fs)
        .collect::<Vec<f64>>();
    let t = Array::from_slice(&t, &[t.len()])?;
    Ok(Istft { t, x: y })
}
