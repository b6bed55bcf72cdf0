//! The machinery the spectral functions share: on the host, the segment
//! bookkeeping, frequencies, times and scale factors (SciPy's
//! `_spectral_helper` arithmetic, unit-tested here); on the device, the
//! batched per-segment spectra (strided view, detrend, window, one FFT).

use gpu_array::dtype::promote_types;
use gpu_array::layout::normalize_axis;
use gpu_array::reduction::ReduceOptions;
use gpu_array::{Array, DType, Error, Result, ufunc};
use gpu_fft::{FftOptions, fft_with, rfft_with};

use super::options::{Detrend, WindowLike};

/// SciPy's `result_type(x, ..., np.complex64)`: the complex dtype the
/// spectra are returned in.
pub(crate) fn out_complex(dts: &[DType]) -> DType {
    dts.iter()
        .fold(DType::Complex64, |acc, &d| promote_types(acc, d))
}

/// NumPy's `rfftfreq(n, 1/fs)` (`twosided` false) or `fftfreq(n, 1/fs)`.
pub(crate) fn freqs(nfft: usize, fs: f64, twosided: bool) -> Vec<f64> {
    let val = 1.0 / (nfft as f64 * (1.0 / fs));
    if twosided {
        let half = (nfft - 1) / 2 + 1;
        (0..half as i64)
            .chain(-((nfft / 2) as i64)..0)
            .map(|k| k as f64 * val)
            .collect()
    } else {
        (0..nfft / 2 + 1).map(|k| k as f64 * val).collect()
    }
}

/// NumPy's `arange(start, stop, step)` for floats: `ceil((stop - start) /
/// step)` values `start + i step`.
pub(crate) fn arange_f(start: f64, stop: f64, step: f64) -> Vec<f64> {
    let n = ((stop - start) / step).ceil().max(0.0) as usize;
    (0..n).map(|i| start + i as f64 * step).collect()
}

/// SciPy's `_median_bias(n)`: the median's bias for `n` exponentially
/// distributed values.
pub(crate) fn median_bias(n: usize) -> f64 {
    let mut s = 0.0;
    for i in 1..=(n.saturating_sub(1) / 2) {
        let ii2 = 2.0 * i as f64;
        s += 1.0 / (ii2 + 1.0) - 1.0 / ii2;
    }
    1.0 + s
}

/// The per-frequency factor of a spectrum: `scale`, doubled off the ends
/// for one-sided power spectra (SciPy's `[1:-1]` for even `nfft`, `[1:]`
/// for odd).
pub(crate) fn factors(nfreq: usize, nfft: usize, scale: f64, double: bool) -> Vec<f64> {
    let mut f = vec![scale; nfreq];
    if double {
        let end = if nfft.is_multiple_of(2) {
            nfreq.saturating_sub(1)
        } else {
            nfreq
        };
        for v in f.iter_mut().take(end).skip(1) {
            *v *= 2.0;
        }
    }
    f
}

/// The window's values at the segment length, and that length: SciPy's
/// `_triage_segments` for named windows (`nperseg` defaulting to 256, cut
/// to the input's length) and arrays (`nperseg` defaulting to the
/// window's length).
pub(crate) fn triage(
    window: &WindowLike,
    nperseg: Option<usize>,
    input_length: usize,
) -> Result<(Vec<f64>, usize)> {
    match window {
        WindowLike::Spec(s) => {
            let n = nperseg.unwrap_or(256).min(input_length);
            Ok((s.values(n, true)?, n))
        }
        WindowLike::Values(w) => {
            if input_length < w.len() {
                return Err(Error::Value("window is longer than input signal".into()));
            }
            if let Some(n) = nperseg
                && n != w.len()
            {
                return Err(Error::Value(
                    "value specified for nperseg is different from length of window".into(),
                ));
            }
            Ok((w.clone(), w.len()))
        }
    }
}

/// The scale of a power spectrum: `1 / (fs sum w^2)` for a density,
/// `1 / (sum w)^2` for a spectrum.
pub(crate) fn power_scale(win: &[f64], fs: f64, density: bool) -> f64 {
    if density {
        1.0 / (fs * win.iter().map(|w| w * w).sum::<f64>())
    } else {
        let s: f64 = win.iter().sum();
        1.0 / (s * s)
    }
}

/// `v` uploaded as a 1-D array of `dt` (a real dtype).
pub(crate) fn upload(v: &[f64], dt: DType) -> Result<Array> {
    let a = Array::from_slice(v, &[v.len()])?;
    if dt == DType::Float64 {
        Ok(a)
    } else {
        a.astype(dt)
    }
}

/// `x` as `dt` (no copy when it already is).
pub(crate) fn cast(x: &Array, dt: DType) -> Result<Array> {
    if x.dtype() == dt {
        Ok(x.clone())
    } else {
        x.astype(dt)
    }
}

/// `x` with `axis` moved last, C-contiguous.
pub(crate) fn axis_last(x: &Array, axis: usize) -> Result<Array> {
    let last = x.ndim() - 1;
    let moved = if axis == last {
        x.clone()
    } else {
        x.moveaxis(&[axis as isize], &[last as isize])?
    };
    gpu_array::creation::ascontiguousarray(&moved, None)
}

/// The axis `axis` of an array of `ndim` dimensions, checked.
pub(crate) fn axis_of(axis: isize, ndim: usize) -> Result<usize> {
    if ndim == 0 {
        return Err(Error::Axis(format!(
            "axis {axis} is out of bounds for array of dimension 0"
        )));
    }
    normalize_axis(axis, ndim)
}

/// The spectra of every segment of `x` (C-contiguous, the analysed axis
/// last, of the computing dtype): segments of `nperseg` samples every
/// `step`, as one strided view; each detrended, multiplied by `win`
/// (real, of `x`'s precision) and transformed to `nfft` points in one
/// batched FFT (`rfft` unless `twosided`). Shape `(..., nseg, nfreq)`.
pub(crate) fn segment_spectra(
    x: &Array,
    win: &Array,
    nperseg: usize,
    step: usize,
    nfft: usize,
    detrend: Option<Detrend>,
    twosided: bool,
) -> Result<Array> {
    let nd = x.ndim();
    let n = x.shape()[nd - 1];
    let nseg = (n - nperseg) / step + 1;
    let item = x.itemsize() as isize;
    let mut shape = x.shape()[..nd - 1].to_vec();
    let mut strides = x.strides()[..nd - 1].to_vec();
    shape.extend([nseg, nperseg]);
    strides.extend([step as isize * item, item]);
    let frames = x.as_strided(&shape, &strides)?;
    let last = ReduceOptions::axis(-1).keepdims(true);
    let detrended = match detrend {
        None => frames,
        Some(Detrend::Constant) => {
            let m = gpu_array::stats::mean(&frames, last.clone())?;
            ufunc::subtract(&frames, &m)?
        }
        Some(Detrend::Linear) => {
            // The least-squares line of each segment about its centre:
            // slope sum(tc x) / sum(tc^2), tc = t - (n - 1) / 2.
            let c = (nperseg as f64 - 1.0) / 2.0;
            let tc: Vec<f64> = (0..nperseg).map(|t| t as f64 - c).collect();
            let ss: f64 = tc.iter().map(|t| t * t).sum();
            let tca = upload(&tc, win.dtype())?;
            let m = gpu_array::stats::mean(&frames, last.clone())?;
            let centred = ufunc::subtract(&frames, &m)?;
            if ss == 0.0 {
                centred
            } else {
                let slope = ufunc::divide(
                    &gpu_array::math::sum(&ufunc::multiply(&centred, &tca)?, last)?,
                    ss,
                )?;
                ufunc::subtract(&centred, &ufunc::multiply(&slope, &tca)?)?
            }
        }
    };
    let windowed = ufunc::multiply(&detrended, win)?;
    let o = FftOptions::new().n(nfft).axis(-1);
    if twosided {
        fft_with(&windowed, &o)
    } else {
        rfft_with(&windowed, &o)
    }
}

/// `|z|^2` of a complex array, real (`conj(z) z`'s real part).
pub(crate) fn abs2(z: &Array) -> Result<Array> {
    let re = z.real();
    let im = z.imag()?;
    ufunc::add(&ufunc::multiply(&re, &re)?, &ufunc::multiply(&im, &im)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frequencies_and_times_are_numpys() {
        assert_eq!(freqs(4, 1.0, false), [0.0, 0.25, 0.5]);
        assert_eq!(freqs(5, 10.0, true), [0.0, 2.0, 4.0, -4.0, -2.0]);
        assert_eq!(freqs(4, 1.0, true), [0.0, 0.25, -0.5, -0.25]);
        // np.arange(16, 200 - 16 + 1, 16) / 1.
        assert_eq!(arange_f(16.0, 185.0, 16.0).len(), 11);
        assert_eq!(arange_f(2.5, 8.0, 2.0), [2.5, 4.5, 6.5]);
    }

    #[test]
    fn scales_and_biases_are_scipys() {
        // scipy.signal._spectral_py._median_bias(9).
        assert!((median_bias(9) - 0.7456349206349207).abs() < 1e-15);
        assert_eq!(median_bias(1), 1.0);
        assert_eq!(factors(3, 4, 1.0, true), [1.0, 2.0, 1.0]);
        assert_eq!(factors(3, 5, 1.0, true), [1.0, 2.0, 2.0]);
        assert_eq!(factors(2, 2, 0.5, false), [0.5, 0.5]);
        assert_eq!(power_scale(&[1.0, 1.0], 2.0, true), 0.25);
        assert_eq!(power_scale(&[1.0, 1.0], 2.0, false), 0.25);
        assert_eq!(out_complex(&[DType::Float32]), DType::Complex64);
        assert_eq!(
            out_complex(&[DType::Float32, DType::Float64]),
            DType::Complex128
        );
        assert_eq!(out_complex(&[DType::Int16]), DType::Complex64);
        assert_eq!(out_complex(&[DType::Int32]), DType::Complex128);
    }

    #[test]
    fn segments_are_triaged_as_scipy() {
        let hann = WindowLike::hann_periodic();
        let (w, n) = triage(&hann, None, 100).unwrap();
        assert_eq!((w.len(), n), (100, 100));
        let (_, n) = triage(&hann, Some(32), 100).unwrap();
        assert_eq!(n, 32);
        let v = WindowLike::Values(vec![1.0; 10]);
        assert_eq!(triage(&v, None, 100).unwrap().1, 10);
        assert_eq!(
            triage(&v, Some(12), 100).unwrap_err().to_string(),
            "value specified for nperseg is different from length of window"
        );
        assert_eq!(
            triage(&v, None, 5).unwrap_err().to_string(),
            "window is longer than input signal"
        );
    }
}
