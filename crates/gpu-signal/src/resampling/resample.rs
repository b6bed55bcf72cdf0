//! `resample`: Fourier resampling along an axis (SciPy's algorithm of
//! 1.15 and later: a one-sided spectrum for real time-domain input, the
//! unpaired bin at `m // 2` doubled or halved, an optional spectral
//! window), on gpu-fft's transforms.

use gpu_array::layout::{AxisIndex, normalize_axis};
use gpu_array::manipulation::concatenate;
use gpu_array::{Array, DType, Error, Result, ufunc};
use gpu_fft::{FftOptions, fft_with, ifft_with, irfft_with, rfft_with};

use crate::windows::{WindowSpec, get_window};

/// Whether `resample`'s input holds samples or their spectrum (SciPy's
/// `domain=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Domain {
    /// Samples.
    #[default]
    Time,
    /// The two-sided spectrum (`fft(x)`).
    Freq,
}

gpu_array::from_numpy_str! {
    Domain, Error,
    else: |s| Error::Value(format!("Parameter domain='{s}' not in ('time', 'freq')!")),
    { "time" => Domain::Time, "freq" => Domain::Freq }
}

/// SciPy's keywords of [`resample_with`]: `axis` (default 0), `window` (a
/// spectral window of the input's length along `axis`, in `fftshift`ed
/// order as SciPy takes an array), `domain`, and the sample times `t`
/// (only their first two are read, as SciPy's).
///
/// ```
/// use gpu_signal::{Domain, ResampleOptions};
/// let o = ResampleOptions::default().axis(-1).domain(Domain::Freq);
/// assert_eq!((o.axis, o.domain), (-1, Domain::Freq));
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ResampleOptions<'a> {
    /// The axis to resample.
    pub axis: isize,
    /// The window applied to the spectrum, as an array.
    pub window: Option<&'a Array>,
    /// The window applied to the spectrum, by name (SciPy's
    /// `fftshift(get_window(window, n))`); the array wins when both are
    /// set.
    pub window_spec: Option<WindowSpec>,
    /// What the input holds.
    pub domain: Domain,
    /// The input's sample times (`t[0]`, `t[1]` give the start and the
    /// spacing of the output's).
    pub t: Option<(f64, f64)>,
}

impl<'a> ResampleOptions<'a> {
    /// Sets `axis`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::ResampleOptions::default().axis(1).axis, 1);
    /// ```
    #[must_use]
    pub fn axis(mut self, axis: isize) -> Self {
        self.axis = axis;
        self
    }

    /// Sets `window` (one value a frequency bin of the input).
    ///
    /// ```no_run
    /// use gpu_array::DType;
    /// use gpu_signal::ResampleOptions;
    /// # fn main() -> gpu_array::Result<()> {
    /// let w = gpu_array::creation::ones([100], DType::Float64)?;
    /// let o = ResampleOptions::default().window(&w);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn window(mut self, window: &'a Array) -> Self {
        self.window = Some(window);
        self
    }

    /// Sets the window by name or tuple spec (SciPy's `window='hann'`).
    ///
    /// ```
    /// use gpu_signal::{ResampleOptions, WindowSpec};
    /// let o = ResampleOptions::default().window_spec("hann".parse::<WindowSpec>().unwrap());
    /// assert!(o.window_spec.is_some());
    /// ```
    #[must_use]
    pub fn window_spec(mut self, spec: WindowSpec) -> Self {
        self.window_spec = Some(spec);
        self
    }

    /// Sets `domain`.
    ///
    /// ```
    /// use gpu_signal::{Domain, ResampleOptions};
    /// assert_eq!(ResampleOptions::default().domain(Domain::Freq).domain, Domain::Freq);
    /// ```
    #[must_use]
    pub fn domain(mut self, domain: Domain) -> Self {
        self.domain = domain;
        self
    }

    /// Sets `t` from the input's first two sample times.
    ///
    /// ```
    /// assert_eq!(gpu_signal::ResampleOptions::default().t(0.0, 0.5).t, Some((0.0, 0.5)));
    /// ```
    #[must_use]
    pub fn t(mut self, t0: f64, t1: f64) -> Self {
        self.t = Some((t0, t1));
        self
    }
}

/// [`resample_with`]'s result: the samples, and their times when the
/// input's were given.
#[derive(Debug, Clone)]
pub struct Resampled {
    /// The resampled signal.
    pub x: Array,
    /// `t[0] + (t[1] - t[0]) * n / num * arange(num)`, when `t` was given.
    pub t: Option<Array>,
}

/// `x * f` as SciPy's in-place `X *= f` leaves it: the product in the
/// promoted precision, stored in `x`'s dtype (complex64 stays complex64);
/// no extra pass when the dtypes agree.
fn times_in_place(x: &Array, f: &Array) -> Result<Array> {
    let p = ufunc::multiply(x, f)?;
    if p.dtype() == x.dtype() {
        Ok(p)
    } else {
        p.astype(x.dtype())
    }
}

/// SciPy's `resample(x, num)` along axis 0: `num` samples of the band
/// limited signal through `x`'s samples.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::resample;
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[0.0f64, 1.0, 0.0, -1.0], &[4])?;
/// let y = resample(&x, 8)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`resample_with`].
pub fn resample(x: &Array, num: usize) -> Result<Array> {
    Ok(resample_with(x, num, &ResampleOptions::default())?.x)
}

/// The slice `lo..hi` of `a` along `axis`.
fn along(a: &Array, axis: usize, lo: usize, hi: usize) -> Result<Array> {
    let idx: Vec<AxisIndex> = (0..a.ndim())
        .map(|d| {
            if d == axis {
                AxisIndex::Slice {
                    start: Some(lo as isize),
                    stop: Some(hi as isize),
                    step: 1,
                }
            } else {
                AxisIndex::Slice {
                    start: None,
                    stop: None,
                    step: 1,
                }
            }
        })
        .collect();
    a.slice(&idx)
}

/// `v` (1-D, one value a bin) shaped to broadcast along `axis` of an
/// `ndim`-D array.
fn along_axis(v: &Array, axis: usize, ndim: usize) -> Result<Array> {
    let shape: Vec<isize> = (0..ndim)
        .map(|d| if d == axis { v.size() as isize } else { 1 })
        .collect();
    v.reshape(shape)
}

/// SciPy's `resample` with its keywords: the spectrum of `x` along `axis`
/// (one-sided for real time-domain input) cut or zero-padded to `num`
/// bins (the unpaired bin at `m // 2`, `m = min(num, n)`, doubled when
/// downsampling and halved when upsampling), scaled by `num / n` and
/// transformed back. Real input gives real output of its precision
/// (float32 stays float32, integers become float64), complex input
/// complex.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::{ResampleOptions, resample_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([3, 1000], DType::Float32)?;
/// let r = resample_with(&x, 750, &ResampleOptions::default().axis(1).t(0.0, 1e-3))?;
/// assert_eq!(r.x.shape(), &[3, 750]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: `num = 0` ("division by zero"), a window of another length
/// than the axis; an axis out of range; failed transforms.
pub fn resample_with(x: &Array, num: usize, opts: &ResampleOptions<'_>) -> Result<Resampled> {
    if num == 0 {
        return Err(Error::ZeroDivision("division by zero".into()));
    }
    let x = if x.ndim() == 0 {
        x.reshape([1])?
    } else {
        x.clone()
    };
    let nd = x.ndim();
    let axis = normalize_axis(opts.axis, nd)?;
    let n_x = x.shape()[axis];
    if let Some(w) = opts.window
        && w.shape() != [n_x]
    {
        return Err(Error::Value(format!(
            "window.shape={:?} != ({n_x},), i.e., window length is not equal to number of \
             frequency bins!",
            w.shape()
        )));
    }
    // A named window: SciPy's fftshift(get_window(window, n)).
    let named = match (&opts.window, &opts.window_spec) {
        (None, Some(spec)) => Some(gpu_fft::fftshift(&get_window(spec, n_x, true)?, None)?),
        _ => None,
    };
    let window = opts.window.or(named.as_ref());
    let s_fac = n_x as f64 / num as f64;
    let m = num.min(n_x);
    let m2 = m / 2 + 1;
    let ax = axis as isize;
    let fft_opts = FftOptions::default().axis(ax);
    let y = if opts.domain == Domain::Time && !x.dtype().is_complex() {
        let mut big_x = rfft_with(&x, &fft_opts)?;
        let n_big = big_x.shape()[axis];
        if let Some(w) = window {
            // Fold the window: W1[l] = (W[l] + W[-l]) / 2 for l > 0, in
            // the window's own precision as SciPy folds it.
            let w = if w.dtype().is_inexact() {
                w.clone()
            } else {
                w.astype(DType::Float64)?
            };
            let head = along(&w, 0, 0, n_big)?;
            let tail = gpu_array::manipulation::flip(&along(&w, 0, n_x + 1 - n_big, n_x)?, None)?;
            let first = along(&head, 0, 0, 1)?;
            let rest = ufunc::divide(ufunc::add(&along(&head, 0, 1, n_big)?, &tail)?, 2.0)?;
            let folded = concatenate(&[&first, &rest], Some(0))?;
            big_x = times_in_place(&big_x, &along_axis(&folded, axis, nd)?)?;
        }
        let mut big_x = along(&big_x, axis, 0, m2)?.copy()?;
        if m % 2 == 0 && num != n_x {
            let f = if num < n_x { 2.0 } else { 0.5 };
            let mut scale = vec![1.0f64; m2];
            scale[m / 2] = f;
            let scale = Array::from_slice(&scale, &[m2])?;
            big_x = times_in_place(&big_x, &along_axis(&scale, axis, nd)?)?;
        }
        let big_x = ufunc::divide(&big_x, s_fac)?;
        // big_x is ours: the inverse may overwrite it rather than copy it.
        irfft_with(
            &big_x,
            &FftOptions::default().axis(ax).n(num).overwrite_x(true),
        )?
    } else {
        let mut big_x = if opts.domain == Domain::Time {
            fft_with(&x, &fft_opts)?
        } else {
            x.clone()
        };
        if let Some(w) = window {
            big_x = ufunc::multiply(&big_x, &along_axis(w, axis, nd)?)?;
        }
        let mut parts: Vec<Array> = vec![along(&big_x, axis, 0, m2)?];
        let neg = m - m2.min(m);
        let mut shape = big_x.shape().to_vec();
        shape[axis] = num - m2 - neg;
        parts.push(Array::zeros(shape, big_x.dtype())?);
        if neg > 0 {
            parts.push(along(&big_x, axis, n_x - neg, n_x)?);
        }
        let refs: Vec<&Array> = parts.iter().collect();
        let mut y = concatenate(&refs, Some(ax))?;
        if m % 2 == 0 {
            if num < n_x {
                // Unite the bin pair into the one unpaired bin.
                let extra = along(&big_x, axis, n_x - m / 2, n_x - m / 2 + 1)?;
                let at = along(&y, axis, num - m / 2, num - m / 2 + 1)?;
                at.copy_from(&ufunc::add(&at, &extra)?)?;
            } else if n_x < num {
                // Split the unpaired bin into a pair.
                let half = ufunc::multiply(&along(&y, axis, m / 2, m / 2 + 1)?, 0.5)?;
                along(&y, axis, m / 2, m / 2 + 1)?.copy_from(&half)?;
                along(&y, axis, num - m / 2, num - m / 2 + 1)?.copy_from(&half)?;
            }
        }
        y = ufunc::divide(&y, s_fac)?;
        ifft_with(&y, &FftOptions::default().axis(ax).n(num))?
    };
    let t = match opts.t {
        Some((t0, t1)) => {
            let times: Vec<f64> = (0..num)
                .map(|k| t0 + (t1 - t0) * s_fac * k as f64)
                .collect();
            Some(Array::from_slice(&times, &[num])?)
        }
        None => None,
    };
    Ok(Resampled { x: y, t })
}
