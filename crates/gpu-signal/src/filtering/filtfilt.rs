//! Forward-backward filtering (`filtfilt`, `sosfiltfilt`) composed as
//! SciPy composes it: an odd, even or constant extension of the signal,
//! a forward pass from the steady state scaled by the first sample, a
//! backward pass likewise, and the extension cut off; and `decimate` on
//! top of them.

use gpu_array::{Array, AxisIndex, DType, Error, Result, ufunc};

use super::lfilter::{LfilterOptions, lfilter_with};
use super::sos::{SosfiltOptions, sosfilt_with, validate_sos};
use super::{check_axis, lfilter_zi};
use crate::sosfilt_zi;

/// The extension of [`filtfilt_with`] and [`sosfiltfilt_with`] (SciPy's
/// `padtype=`; `None` in the options for no extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PadType {
    /// Point-symmetric about the end samples (`2 x[0] - x[k]`).
    #[default]
    Odd,
    /// Mirrored about the end samples (`x[k]`).
    Even,
    /// The end samples repeated.
    Constant,
}

gpu_array::from_numpy_str! {
    PadType, Error,
    else: |s| Error::Value(format!(
        "Unknown value '{s}' given to padtype. padtype must be 'even', 'odd', 'constant', or None."
    )),
    { "odd" => PadType::Odd, "even" => PadType::Even, "constant" => PadType::Constant }
}

/// How [`filtfilt_with`] handles the edges (SciPy's `method=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FiltfiltMethod {
    /// Extend the signal ([`PadType`]) and start from scaled steady states.
    #[default]
    Pad,
    /// Gustafsson's method: initial states chosen so that the
    /// forward-backward and backward-forward passes agree best (no
    /// extension); `irlen` bounds the impulse response it considers.
    Gust,
}

gpu_array::from_numpy_str! {
    FiltfiltMethod, Error,
    else: |_s| Error::Value("method must be 'pad' or 'gust'.".into()),
    { "pad" => FiltfiltMethod::Pad, "gust" => FiltfiltMethod::Gust }
}

/// SciPy's keywords of [`filtfilt_with`] and [`sosfiltfilt_with`]:
/// `axis` (-1), `padtype` (odd; `None` pads nothing), `padlen` (default
/// `3 * ntaps`) and `method` (pad).
///
/// ```
/// use gpu_signal::{FiltfiltOptions, PadType};
/// let o = FiltfiltOptions::default().padtype(Some(PadType::Even)).padlen(Some(10));
/// assert_eq!((o.padtype, o.padlen, o.axis), (Some(PadType::Even), Some(10), -1));
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct FiltfiltOptions {
    /// The axis along which the signals run.
    pub axis: isize,
    /// The extension (`None`: none).
    pub padtype: Option<PadType>,
    /// The extension's length at each end (`None`: 3 times the number
    /// of taps).
    pub padlen: Option<usize>,
    /// The edge method.
    pub method: FiltfiltMethod,
    /// For [`FiltfiltMethod::Gust`]: the length of the impulse response
    /// taken into account (`None`: all of it).
    pub irlen: Option<usize>,
}

impl Default for FiltfiltOptions {
    fn default() -> Self {
        FiltfiltOptions {
            axis: -1,
            padtype: Some(PadType::Odd),
            padlen: None,
            method: FiltfiltMethod::Pad,
            irlen: None,
        }
    }
}

impl FiltfiltOptions {
    /// Sets `axis`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::FiltfiltOptions::default().axis(0).axis, 0);
    /// ```
    #[must_use]
    pub fn axis(mut self, axis: isize) -> Self {
        self.axis = axis;
        self
    }

    /// Sets `padtype` (`None`: no extension).
    ///
    /// ```
    /// assert_eq!(gpu_signal::FiltfiltOptions::default().padtype(None).padtype, None);
    /// ```
    #[must_use]
    pub fn padtype(mut self, padtype: Option<PadType>) -> Self {
        self.padtype = padtype;
        self
    }

    /// Sets `padlen`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::FiltfiltOptions::default().padlen(Some(3)).padlen, Some(3));
    /// ```
    #[must_use]
    pub fn padlen(mut self, padlen: Option<usize>) -> Self {
        self.padlen = padlen;
        self
    }

    /// Sets `method`.
    ///
    /// ```
    /// use gpu_signal::{FiltfiltMethod, FiltfiltOptions};
    /// let o = FiltfiltOptions::default().method(FiltfiltMethod::Pad);
    /// assert_eq!(o.method, FiltfiltMethod::Pad);
    /// ```
    #[must_use]
    pub fn method(mut self, method: FiltfiltMethod) -> Self {
        self.method = method;
        self
    }

    /// Sets `irlen` (Gustafsson's method only).
    ///
    /// ```
    /// assert_eq!(gpu_signal::FiltfiltOptions::default().irlen(Some(50)).irlen, Some(50));
    /// ```
    #[must_use]
    pub fn irlen(mut self, irlen: Option<usize>) -> Self {
        self.irlen = irlen;
        self
    }
}

/// `a[start:stop:step]` along `axis` (Python bounds).
fn axis_slice(
    a: &Array,
    start: Option<isize>,
    stop: Option<isize>,
    step: isize,
    axis: usize,
) -> Result<Array> {
    let mut idx = vec![AxisIndex::FULL; a.ndim()];
    idx[axis] = AxisIndex::Slice { start, stop, step };
    a.slice(&idx)
}

fn axis_reverse(a: &Array, axis: usize) -> Result<Array> {
    axis_slice(a, None, None, -1, axis)
}

/// SciPy's `odd_ext`, `even_ext` and `const_ext` of `n` samples at each
/// end along `axis` (`1 <= n < len`), in `x`'s dtype.
pub(crate) fn extend(x: &Array, pad: PadType, n: usize, axis: usize) -> Result<Array> {
    let n = n as isize;
    let left_end = axis_slice(x, Some(0), Some(1), 1, axis)?;
    let right_end = axis_slice(x, Some(-1), None, 1, axis)?;
    let left = axis_slice(x, Some(n), Some(0), -1, axis)?;
    let right = axis_slice(x, Some(-2), Some(-(n + 2)), -1, axis)?;
    let (left, right) = match pad {
        PadType::Even => (left, right),
        PadType::Odd => (
            ufunc::subtract(&ufunc::multiply(&left_end, 2)?, &left)?,
            ufunc::subtract(&ufunc::multiply(&right_end, 2)?, &right)?,
        ),
        PadType::Constant => (
            ufunc::multiply(&gpu_array::creation::ones_like(&left, None)?, &left_end)?,
            ufunc::multiply(&gpu_array::creation::ones_like(&right, None)?, &right_end)?,
        ),
    };
    gpu_array::manipulation::concatenate(&[&left, x, &right], Some(axis as isize))
}

/// SciPy's `_validate_pad`: the edge length and the extended signal.
fn validate_pad(
    opts: &FiltfiltOptions,
    x: &Array,
    axis: usize,
    ntaps: usize,
) -> Result<(usize, Array)> {
    let edge = match (opts.padtype, opts.padlen) {
        (None, _) => 0,
        (_, None) => ntaps * 3,
        (_, Some(p)) => p,
    };
    if x.shape()[axis] <= edge {
        return Err(Error::Value(format!(
            "The length of the input vector x must be greater than padlen, which is {edge}."
        )));
    }
    match opts.padtype {
        Some(p) if edge > 0 => Ok((edge, extend(x, p, edge, axis)?)),
        _ => Ok((edge, x.clone())),
    }
}

/// SciPy's `filtfilt(b, a, x)`: the filter applied forward and backward
/// along the last axis (zero phase, the magnitude response squared), with
/// an odd extension of `3 * max(len(a), len(b))` samples at each end.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_signal::{butter, filtfilt};
/// # fn main() -> gpu_array::Result<()> {
/// let (b, a) = butter(4, &[0.125])?;
/// let x = gpu_array::creation::ones([10_000], DType::Float64)?;
/// let y = filtfilt(&b, &a, &x)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`filtfilt_with`].
pub fn filtfilt(b: &Array, a: &Array, x: &Array) -> Result<Array> {
    filtfilt_with(b, a, x, &FiltfiltOptions::default())
}

/// [`filtfilt`] with SciPy's `axis=`, `padtype=`, `padlen=` and
/// `method=` ('pad' only): each pass is [`lfilter_with`] from
/// [`lfilter_zi`] scaled by the first sample of what it filters.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_signal::{FiltfiltOptions, PadType, filtfilt_with};
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[0.25f64, 0.5, 0.25], &[3])?;
/// let a = Array::from_slice(&[1.0f64, -0.3], &[2])?;
/// let x = gpu_array::creation::ones([100, 8], DType::Float32)?;
/// let o = FiltfiltOptions::default().axis(0).padtype(Some(PadType::Even)).padlen(Some(20));
/// let y = filtfilt_with(&b, &a, &x, &o)?; // float64, as SciPy's
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: a signal not longer than the extension ("The length of the
/// input vector x must be greater than padlen, which is 9."); those of
/// [`lfilter_with`] and [`lfilter_zi`]; for `method` gust, a rank-deficient
/// least-squares matrix (`LinAlg`).
pub fn filtfilt_with(b: &Array, a: &Array, x: &Array, opts: &FiltfiltOptions) -> Result<Array> {
    let axis = check_axis(opts.axis, x.ndim())?;
    if opts.method == FiltfiltMethod::Gust {
        return super::gust::filtfilt_gust(b, a, x, axis, opts.irlen);
    }
    let ntaps = a.size().max(b.size());
    let (edge, ext) = validate_pad(opts, x, axis, ntaps)?;
    let zi = lfilter_zi(b, a)?;
    let mut zshape = vec![1usize; x.ndim()];
    zshape[axis] = zi.size();
    let zi = zi.reshape(&zshape[..])?;
    let x0 = axis_slice(&ext, None, Some(1), 1, axis)?;
    let o = LfilterOptions::default().axis(axis as isize);
    let (y, _) = lfilter_with(b, a, &ext, &o.clone().zi(&ufunc::multiply(&zi, &x0)?))?;
    let y0 = axis_slice(&y, Some(-1), None, 1, axis)?;
    let (y, _) = lfilter_with(
        b,
        a,
        &axis_reverse(&y, axis)?,
        &o.zi(&ufunc::multiply(&zi, &y0)?),
    )?;
    finish(&axis_reverse(&y, axis)?, edge, axis)
}

/// The extension cut off, C-contiguous.
fn finish(y: &Array, edge: usize, axis: usize) -> Result<Array> {
    if edge > 0 {
        axis_slice(y, Some(edge as isize), Some(-(edge as isize)), 1, axis)?.copy()
    } else {
        y.copy()
    }
}

/// SciPy's `sosfiltfilt(sos, x)`: [`filtfilt`] of second-order sections
/// along the last axis.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::{IirOptions, Output, butter_with, sosfiltfilt};
/// # fn main() -> gpu_array::Result<()> {
/// let sos = butter_with(6, &[0.2], &IirOptions::default().output(Output::Sos))?.into_sos()?;
/// let x = gpu_array::creation::ones([4096], DType::Float64)?;
/// let y = sosfiltfilt(&sos, &x)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`sosfiltfilt_with`].
pub fn sosfiltfilt(sos: &Array, x: &Array) -> Result<Array> {
    sosfiltfilt_with(sos, x, &FiltfiltOptions::default())
}

/// [`sosfiltfilt`] with SciPy's `axis=`, `padtype=` and `padlen=` (the
/// default extension `3 * (2 n_sections + 1 - min(#(b2 == 0), #(a2 ==
/// 0)))`, SciPy's count of taps).
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_signal::{FiltfiltOptions, sosfiltfilt_with};
/// # fn main() -> gpu_array::Result<()> {
/// let sos = Array::from_slice(&[1.0f64, 2.0, 1.0, 1.0, -0.5, 0.1], &[1, 6])?;
/// let x = gpu_array::creation::ones([16, 500], DType::Float64)?;
/// let y = sosfiltfilt_with(&sos, &x, &FiltfiltOptions::default().padtype(None))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`filtfilt_with`] and [`sosfilt_with`]; `method` gust
/// (`Unsupported`: SciPy's `sosfiltfilt` has no such method).
pub fn sosfiltfilt_with(sos: &Array, x: &Array, opts: &FiltfiltOptions) -> Result<Array> {
    if opts.method == FiltfiltMethod::Gust {
        return Err(Error::Unsupported(
            "sosfiltfilt has no method 'gust'".into(),
        ));
    }
    let sections = validate_sos(sos)?;
    if x.ndim() == 0 {
        return Err(Error::Value("x must be at least 1-D".into()));
    }
    let axis = check_axis(opts.axis, x.ndim())?;
    let zero = num_complex::Complex64::new(0.0, 0.0);
    let b2 = sections.iter().filter(|s| s[2] == zero).count();
    let a2 = sections.iter().filter(|s| s[5] == zero).count();
    let ntaps = 2 * sections.len() + 1 - b2.min(a2);
    let (edge, ext) = validate_pad(opts, x, axis, ntaps)?;
    let sos2 = if sos.ndim() == 1 {
        sos.reshape(&[1usize, 6][..])?
    } else {
        sos.clone()
    };
    let zi = sosfilt_zi(&sos2)?;
    let mut zshape = vec![1usize; x.ndim() + 1];
    zshape[0] = sections.len();
    zshape[axis + 1] = 2;
    let zi = zi.reshape(&zshape[..])?;
    let x0 = axis_slice(&ext, None, Some(1), 1, axis)?;
    let o = SosfiltOptions::default().axis(axis as isize);
    let (y, _) = sosfilt_with(&sos2, &ext, &o.clone().zi(&ufunc::multiply(&zi, &x0)?))?;
    let y0 = axis_slice(&y, Some(-1), None, 1, axis)?;
    let (y, _) = sosfilt_with(
        &sos2,
        &axis_reverse(&y, axis)?,
        &o.zi(&ufunc::multiply(&zi, &y0)?),
    )?;
    finish(&axis_reverse(&y, axis)?, edge, axis)
}

/// The anti-aliasing filter of [`decimate_with`] (SciPy's `ftype=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DecimateFtype {
    /// A Chebyshev type I filter of order 8 (0.05 dB ripple, cutoff
    /// `0.8 / q`), as second-order sections.
    #[default]
    Iir,
    /// A Hamming-windowed FIR filter of `20 q + 1` taps, cutoff `1 / q`.
    Fir,
}

gpu_array::from_numpy_str! {
    DecimateFtype, Error,
    else: |_s| Error::Value("invalid ftype".into()),
    { "iir" => DecimateFtype::Iir, "fir" => DecimateFtype::Fir }
}

/// SciPy's keywords of [`decimate_with`]: `n` (the filter's order:
/// default 8 for IIR, `20 q` for FIR), `ftype` (iir), `axis` (-1) and
/// `zero_phase` (true).
///
/// ```
/// use gpu_signal::{DecimateFtype, DecimateOptions};
/// let o = DecimateOptions::default().ftype(DecimateFtype::Fir).n(Some(30));
/// assert_eq!((o.ftype, o.n, o.zero_phase), (DecimateFtype::Fir, Some(30), true));
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct DecimateOptions {
    /// The filter's order.
    pub n: Option<usize>,
    /// The filter's kind.
    pub ftype: DecimateFtype,
    /// The axis along which to decimate.
    pub axis: isize,
    /// Filter forward and backward (no phase shift).
    pub zero_phase: bool,
}

impl Default for DecimateOptions {
    fn default() -> Self {
        DecimateOptions {
            n: None,
            ftype: DecimateFtype::Iir,
            axis: -1,
            zero_phase: true,
        }
    }
}

impl DecimateOptions {
    /// Sets `n`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::DecimateOptions::default().n(Some(4)).n, Some(4));
    /// ```
    #[must_use]
    pub fn n(mut self, n: Option<usize>) -> Self {
        self.n = n;
        self
    }

    /// Sets `ftype`.
    ///
    /// ```
    /// use gpu_signal::{DecimateFtype, DecimateOptions};
    /// assert_eq!(DecimateOptions::default().ftype(DecimateFtype::Fir).ftype, DecimateFtype::Fir);
    /// ```
    #[must_use]
    pub fn ftype(mut self, ftype: DecimateFtype) -> Self {
        self.ftype = ftype;
        self
    }

    /// Sets `axis`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::DecimateOptions::default().axis(0).axis, 0);
    /// ```
    #[must_use]
    pub fn axis(mut self, axis: isize) -> Self {
        self.axis = axis;
        self
    }

    /// Sets `zero_phase`.
    ///
    /// ```
    /// assert!(!gpu_signal::DecimateOptions::default().zero_phase(false).zero_phase);
    /// ```
    #[must_use]
    pub fn zero_phase(mut self, zero_phase: bool) -> Self {
        self.zero_phase = zero_phase;
        self
    }
}

/// SciPy's `decimate(x, q)`: `x` low-pass filtered (an order-8 Chebyshev
/// type I filter, forward and backward) and every `q`-th sample kept.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::decimate;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([48_000], DType::Float32)?;
/// let y = decimate(&x, 4)?; // 12 000 float32 samples
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`decimate_with`].
pub fn decimate(x: &Array, q: usize) -> Result<Array> {
    decimate_with(x, q, &DecimateOptions::default())
}

/// [`decimate`] with SciPy's `n=`, `ftype=`, `axis=` and `zero_phase=`.
/// The filter is designed on the host ([`cheby1`](crate::cheby1) as
/// sections, or [`firwin`](crate::firwin) with a Hamming window) in the
/// result's dtype (`x`'s when float or complex, else float64). The FIR
/// filter with zero phase is SciPy's `resample_poly(x, 1, q, window=b)`:
/// the full convolution sampled from its centre tap, every `q`-th.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::{DecimateFtype, DecimateOptions, decimate_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([8, 1000], DType::Float64)?;
/// let o = DecimateOptions::default().ftype(DecimateFtype::Fir).zero_phase(false);
/// let y = decimate_with(&x, 5, &o)?; // (8, 200)
/// # Ok(()) }
/// ```
///
/// # Errors
/// `q == 0` (SciPy's ZeroDivisionError: "float division by zero"); those
/// of the filter design and of [`sosfiltfilt_with`] (a signal not longer
/// than the extension) or [`lfilter_with`].
pub fn decimate_with(x: &Array, q: usize, opts: &DecimateOptions) -> Result<Array> {
    if q == 0 {
        return Err(Error::ZeroDivision("float division by zero".into()));
    }
    let axis = check_axis(opts.axis, x.ndim())?;
    let (dt, real) = decimate_dtypes(x);
    let keep = |y: &Array| -> Result<Array> { axis_slice(y, None, None, q as isize, axis)?.copy() };
    match opts.ftype {
        DecimateFtype::Iir => {
            let n = opts.n.unwrap_or(8);
            let sos = crate::design::iir::iirfilter_host(
                n,
                &[0.8 / q as f64],
                &crate::design::iir::IirSpec::cheby1(0.05),
            )?
            .sos()?;
            let sos = Array::from_slice(&sos, &[sos.len() / 6, 6])?.astype(real)?;
            let o = FiltfiltOptions::default().axis(axis as isize);
            let y = if opts.zero_phase {
                sosfiltfilt_with(&sos, x, &o)?
            } else {
                sosfilt_with(&sos, x, &SosfiltOptions::default().axis(axis as isize))?.0
            };
            keep(&y)
        }
        DecimateFtype::Fir => {
            let n = opts.n.unwrap_or(20 * q);
            let taps = crate::design::fir::firwin_host(
                n + 1,
                &[1.0 / q as f64],
                // SciPy's decimate: firwin's default, a Hamming window.
                &crate::design::fir::FirwinOptions::default(),
            )?;
            let b = Array::from_slice(&taps, &[taps.len()])?.astype(real)?;
            let one = Array::from_slice(&[1.0f64], &[1])?.astype(real)?;
            let o = LfilterOptions::default().axis(axis as isize);
            if opts.zero_phase {
                // SciPy: resample_poly(x, 1, q, window=b).
                let ro = crate::resampling::ResamplePolyOptions::default()
                    .axis(axis as isize)
                    .taps(&b);
                crate::resampling::resample_poly_with(&x.astype(dt)?, 1, q, &ro)
            } else {
                let (y, _) = lfilter_with(&b, &one, &x.astype(dt)?, &o)?;
                keep(&y)
            }
        }
    }
}

/// decimate's result dtype (`x`'s when float or complex, else float64, as
/// SciPy upcasts integers and float16) and its real counterpart (the
/// designed filters' dtype).
fn decimate_dtypes(x: &Array) -> (DType, DType) {
    let dt = match x.dtype() {
        d @ (DType::Float32 | DType::Float64 | DType::Complex64 | DType::Complex128) => d,
        _ => DType::Float64,
    };
    let real = match dt {
        DType::Complex64 => DType::Float32,
        DType::Complex128 => DType::Float64,
        d => d,
    };
    (dt, real)
}

/// SciPy's `decimate(x, q, ftype=system)` with a `dlti` system of your own
/// (`n=` is ignored, as SciPy ignores it for a system), as SciPy treats
/// it: a system without poles is an FIR filter `b / a` (with zero phase,
/// `resample_poly(x, 1, q, window=b)`; otherwise `upfirdn`'s output, here
/// the same samples of `lfilter`); a system with a pole off the real axis
/// (NumPy's `iscomplex`, so any complex-conjugate pair) runs as a
/// transfer function through [`filtfilt_with`] or [`lfilter_with`]; one
/// with real poles only as second-order sections (`zpk2sos`, in the
/// result's dtype) through [`sosfiltfilt_with`] or [`sosfilt_with`]. Then
/// every `q`-th sample along `opts.axis`. [`Filter::Sos`](crate::Filter::Sos) runs as sections.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_signal::{DecimateOptions, Filter, decimate_system};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([1200], DType::Float64)?;
/// let b = Array::from_slice(&[0.25f64, 0.5, 0.25], &[3])?;
/// let a = Array::from_slice(&[1.0f64], &[1])?;
/// let y = decimate_system(&x, 4, &Filter::Ba(b, a), &DecimateOptions::default())?; // 300
/// # Ok(()) }
/// ```
///
/// # Errors
/// `q == 0` ("float division by zero"); a system's conversion errors
/// (complex transfer-function coefficients are `Unsupported`); those of
/// the filtering functions (a signal not longer than the padding).
pub fn decimate_system(
    x: &Array,
    q: usize,
    system: &crate::Filter,
    opts: &DecimateOptions,
) -> Result<Array> {
    use crate::Filter;
    if q == 0 {
        return Err(Error::ZeroDivision("float division by zero".into()));
    }
    let axis = check_axis(opts.axis, x.ndim())?;
    let (dt, real) = decimate_dtypes(x);
    let keep = |y: &Array| -> Result<Array> { axis_slice(y, None, None, q as isize, axis)?.copy() };
    let sos_path = |sos: &Array| -> Result<Array> {
        let sos = sos.astype(real)?;
        let y = if opts.zero_phase {
            sosfiltfilt_with(&sos, x, &FiltfiltOptions::default().axis(axis as isize))?
        } else {
            sosfilt_with(&sos, x, &SosfiltOptions::default().axis(axis as isize))?.0
        };
        keep(&y)
    };
    let (zpk, tf) = match system {
        Filter::Sos(sos) => return sos_path(sos),
        Filter::Ba(b, a) => (crate::tf2zpk(b, a)?, Some((b.clone(), a.clone()))),
        Filter::Zpk(z, p, k) => ((z.clone(), p.clone(), *k), None),
    };
    let (z, p, k) = zpk;
    let tf = || -> Result<(Array, Array)> {
        match &tf {
            Some(ba) => Ok(ba.clone()),
            None => crate::zpk2tf(&z, &p, k),
        }
    };
    if p.size() == 0 {
        // FIR: b / a (a is one coefficient), in the system's dtype.
        let (b, a) = tf()?;
        let b = ufunc::divide(&b, &a)?;
        return if opts.zero_phase {
            let ro = crate::resampling::ResamplePolyOptions::default()
                .axis(axis as isize)
                .taps(&b);
            crate::resampling::resample_poly_with(&x.astype(dt)?, 1, q, &ro)
        } else {
            let one = Array::from_slice(&[1.0f64], &[1])?;
            let (y, _) = lfilter_with(
                &b,
                &one,
                &x.astype(dt)?,
                &LfilterOptions::default().axis(axis as isize),
            )?;
            keep(&y)
        };
    }
    // SciPy tests the poles (twice) and the gain for complex values, never
    // the zeros: real poles with complex zeros take the sections path
    // there too. The gain here is real.
    let off_axis = p.dtype().is_complex()
        && p.imag()?
            .astype(DType::Float64)?
            .to_vec::<f64>()?
            .iter()
            .any(|&v| v != 0.0);
    if off_axis {
        let (b, a) = tf()?;
        let y = if opts.zero_phase {
            filtfilt_with(&b, &a, x, &FiltfiltOptions::default().axis(axis as isize))?
        } else {
            lfilter_with(&b, &a, x, &LfilterOptions::default().axis(axis as isize))?.0
        };
        return keep(&y);
    }
    sos_path(&crate::zpk2sos(&z, &p, k)?)
}
