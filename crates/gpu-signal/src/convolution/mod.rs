//! Convolution and correlation (`scipy.signal._signaltools`): N-D
//! [`convolve`] and [`correlate`] by a direct sum or by FFTs
//! ([`fftconvolve`], or by overlap-add [`oaconvolve`]), chosen as SciPy
//! chooses ([`choose_conv_method`]); [`sepfir2d`];
//! 2-D [`convolve2d`] and [`correlate2d`] with boundary rules; and
//! [`correlation_lags`].

mod conv2d;
pub(crate) mod conv2d_tiled;
pub(crate) mod direct;
mod fft;
mod oa;
pub(crate) mod overlap_save;
mod sepfir2d;

use gpu_array::dtype::result_type;
use gpu_array::{Array, DType, Error, Result, ufunc};

pub use conv2d::{
    Boundary, Conv2dOptions, convolve2d, convolve2d_with, correlate2d, correlate2d_with,
};
pub use fft::{FftConvolveOptions, fftconvolve, fftconvolve_with};
pub use oa::{oaconvolve, oaconvolve_with};
pub use sepfir2d::sepfir2d;

use direct::convolve_direct;

/// The 2-D kernel for the NVRTC tests.
#[cfg(test)]
pub(crate) fn conv2d_kernel_for_tests<'a>(
    a: gpu_array::elementwise::Bind<'a>,
    b: gpu_array::elementwise::Bind<'a>,
    y: gpu_array::elementwise::Bind<'a>,
    g: gpu_array::elementwise::Bind<'a>,
) -> gpu_array::elementwise::Elementwise<'a> {
    conv2d::convolve2d_kernel(a, b, y, g, 1, 0.0)
}

/// The output size of a convolution (SciPy's `mode=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Every overlap: `n + m - 1` along each axis.
    #[default]
    Full,
    /// Full overlaps only: `n - m + 1` along each axis (the larger input
    /// first).
    Valid,
    /// The first input's shape, centred on the full result.
    Same,
}

gpu_array::from_numpy_str! {
    Mode, Error,
    else: |_s| Error::Value("Acceptable mode flags are 'valid', 'same', or 'full'.".into()),
    { "full" => Mode::Full, "valid" => Mode::Valid, "same" => Mode::Same }
}

/// How a convolution is computed (SciPy's `method=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// [`choose_conv_method`]'s choice.
    #[default]
    Auto,
    /// A direct sum of products.
    Direct,
    /// Transforms ([`fftconvolve`]).
    Fft,
}

gpu_array::from_numpy_str! {
    Method, Error,
    else: |_s| Error::Value("Acceptable method flags are 'auto', 'direct', or 'fft'.".into()),
    { "auto" => Method::Auto, "direct" => Method::Direct, "fft" => Method::Fft }
}

/// SciPy's keywords of [`convolve_with`] and [`correlate_with`]: `mode`
/// (default full) and `method` (default auto).
///
/// ```
/// use gpu_signal::{ConvolveOptions, Method, Mode};
/// let o = ConvolveOptions::default().mode(Mode::Same).method(Method::Direct);
/// assert_eq!((o.mode, o.method), (Mode::Same, Method::Direct));
/// ```
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct ConvolveOptions {
    /// The output's size.
    pub mode: Mode,
    /// The algorithm.
    pub method: Method,
}

impl ConvolveOptions {
    /// Sets `mode`.
    ///
    /// ```
    /// use gpu_signal::{ConvolveOptions, Mode};
    /// assert_eq!(ConvolveOptions::default().mode(Mode::Valid).mode, Mode::Valid);
    /// ```
    #[must_use]
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets `method`.
    ///
    /// ```
    /// use gpu_signal::{ConvolveOptions, Method};
    /// assert_eq!(ConvolveOptions::default().method(Method::Fft).method, Method::Fft);
    /// ```
    #[must_use]
    pub fn method(mut self, method: Method) -> Self {
        self.method = method;
        self
    }
}

/// SciPy's `_inputs_swap_needed`: whether 'valid' mode must swap the
/// inputs (the second larger along every axis of `axes`), checked.
pub(crate) fn inputs_swap_needed(
    mode: Mode,
    s1: &[usize],
    s2: &[usize],
    axes: &[usize],
) -> Result<bool> {
    if mode != Mode::Valid || s1.is_empty() {
        return Ok(false);
    }
    let ok1 = axes.iter().all(|&i| s1[i] >= s2[i]);
    let ok2 = axes.iter().all(|&i| s2[i] >= s1[i]);
    if !(ok1 || ok2) {
        return Err(Error::Value(
            "For 'valid' mode, one must be at least as large as the other in every dimension"
                .into(),
        ));
    }
    Ok(!ok1)
}

/// `x` reversed along every axis and conjugated (SciPy's
/// `_reverse_and_conj`), C-contiguous.
pub(crate) fn reverse_and_conj(x: &Array) -> Result<Array> {
    let r = gpu_array::manipulation::flip(x, None)?;
    if x.dtype().is_complex() {
        r.conj()
    } else {
        r.copy()
    }
}

/// The output shape and its offset in the full convolution of shapes
/// `s1` and `s2` (`s1` the larger for 'valid').
pub(crate) fn window(mode: Mode, s1: &[usize], s2: &[usize]) -> (Vec<usize>, Vec<usize>) {
    s1.iter()
        .zip(s2)
        .map(|(&n, &m)| match mode {
            Mode::Full => (n + m - 1, 0),
            Mode::Same => (n, (m - 1) / 2),
            Mode::Valid => (n + 1 - m, m - 1),
        })
        .unzip()
}

/// SciPy's `_conv_ops`: the operation counts of the FFT and direct
/// methods, its cost model's inputs.
fn conv_ops(x: &[usize], h: &[usize], mode: Mode) -> (f64, f64) {
    let prod = |s: &[usize]| s.iter().map(|&v| v as f64).product::<f64>();
    let out: Vec<usize> = match mode {
        Mode::Full => x.iter().zip(h).map(|(&n, &k)| n + k - 1).collect(),
        Mode::Valid => x.iter().zip(h).map(|(&n, &k)| n.abs_diff(k) + 1).collect(),
        Mode::Same => x.to_vec(),
    };
    let direct = if x.len() == 1 {
        let (s1, s2) = (x[0] as f64, h[0] as f64);
        match mode {
            Mode::Full => s1 * s2,
            Mode::Valid if s2 >= s1 => (s2 - s1 + 1.0) * s1,
            Mode::Valid => (s1 - s2 + 1.0) * s2,
            Mode::Same if s1 < s2 => s1 * s2,
            Mode::Same => s1 * s2 - ((h[0] / 2) as f64) * (h[0].div_ceil(2) as f64),
        }
    } else {
        match mode {
            Mode::Full | Mode::Valid => prod(x).min(prod(h)) * prod(&out),
            Mode::Same => prod(x) * prod(h),
        }
    };
    let full: Vec<usize> = x.iter().zip(h).map(|(&n, &k)| n + k - 1).collect();
    let n = prod(&full);
    (3.0 * n * n.ln(), direct)
}

/// SciPy's `_fftconv_faster`: its fitted cost model (measured on CPUs,
/// kept so that `Method::Auto` chooses as SciPy does).
fn fftconv_faster(x: &[usize], h: &[usize], mode: Mode) -> bool {
    let (fft_ops, direct_ops) = conv_ops(x, h, mode);
    let one_d = x.len() == 1;
    let offset = if one_d { -1e-3 } else { -1e-4 };
    let hsize: usize = h.iter().product();
    let xsize: usize = x.iter().product();
    let (o_fft, o_direct, o_offset) = if one_d {
        match mode {
            Mode::Valid => (1.89095737e-9, 2.1364985e-10, offset),
            Mode::Full => (1.7649070e-9, 2.1414831e-10, offset),
            Mode::Same if hsize <= xsize => (3.2646654e-9, 2.8478277e-10, offset),
            Mode::Same => (3.21635404e-9, 1.1773253e-8, -1e-5),
        }
    } else {
        match mode {
            Mode::Valid => (1.85927e-9, 2.11242e-8, offset),
            Mode::Full => (1.99817e-9, 1.66174e-8, offset),
            Mode::Same => (2.04735e-9, 1.55367e-8, offset),
        }
    };
    o_fft * fft_ops < o_direct * direct_ops + o_offset
}

/// The largest magnitude in `a`, on the host.
fn max_abs(a: &Array) -> Result<f64> {
    let m = ufunc::absolute(a)?.astype(DType::Float64)?;
    let v = gpu_array::stats::amax(&m, ())?;
    Ok(v.to_vec::<f64>()?[0])
}

fn is_numeric(dt: DType) -> bool {
    dt == DType::Bool || dt.is_integer() || dt.is_floating() || dt.is_complex()
}

/// SciPy's `choose_conv_method`: [`Method::Direct`] for booleans, for
/// integers whose convolution a float64 could not hold exactly
/// (`max|a| max|b| min(size) >= 2^52`), and where SciPy's cost model
/// favours it; [`Method::Fft`] otherwise. The model is SciPy's (fitted on
/// CPUs), so that `Method::Auto` computes what SciPy computes; integer
/// inputs read their largest magnitudes back to the host.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::{Method, Mode, choose_conv_method};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([100_000], DType::Float64)?;
/// let k = gpu_array::creation::ones([1000], DType::Float64)?;
/// assert_eq!(choose_conv_method(&x, &k, Mode::Full)?, Method::Fft);
/// # Ok(()) }
/// ```
///
/// # Errors
/// Inputs of different ranks; failed reductions.
pub fn choose_conv_method(in1: &Array, in2: &Array, mode: Mode) -> Result<Method> {
    if in1.ndim() != in2.ndim() {
        return Err(Error::Value(
            "volume and kernel should have the same dimensionality".into(),
        ));
    }
    let (d1, d2) = (in1.dtype(), in2.dtype());
    if (d1.is_integer() || d2.is_integer()) && in1.size() > 0 && in2.size() > 0 {
        let max = max_abs(in1)? * max_abs(in2)? * in1.size().min(in2.size()) as f64;
        if max > (2f64.powi(52) - 1.0) {
            return Ok(Method::Direct);
        }
    }
    if d1 == DType::Bool && d2 == DType::Bool {
        return Ok(Method::Direct);
    }
    if is_numeric(d1) && is_numeric(d2) && fftconv_faster(in1.shape(), in2.shape(), mode) {
        return Ok(Method::Fft);
    }
    Ok(Method::Direct)
}

/// SciPy's `convolve`: the N-D convolution of `in1` and `in2` (of one
/// rank) over every overlap, by the method [`choose_conv_method`] picks.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::convolve;
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[1.0f64, 2.0, 3.0], &[3])?;
/// let k = Array::from_slice(&[0.0f64, 1.0, 0.5], &[3])?;
/// let y = convolve(&x, &k)?; // [0, 1, 2.5, 4, 1.5]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`convolve_with`].
pub fn convolve(in1: &Array, in2: &Array) -> Result<Array> {
    convolve_with(in1, in2, &ConvolveOptions::default())
}

/// [`convolve`] with SciPy's `mode=` and `method=`. The result has the
/// inputs' promoted dtype (FFT results of integers rounded to it, as
/// SciPy).
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_signal::{ConvolveOptions, Method, Mode, convolve_with};
/// # fn main() -> gpu_array::Result<()> {
/// let img = gpu_array::creation::ones([64, 64], DType::Float32)?;
/// let k = gpu_array::creation::ones([5, 5], DType::Float32)?;
/// let o = ConvolveOptions::default().mode(Mode::Same).method(Method::Fft);
/// let y = convolve_with(&img, &k, &o)?; // (64, 64)
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: inputs of different ranks ("volume and kernel should have the
/// same dimensionality"), 'valid' inputs neither of which is as large as
/// the other along every axis, an empty input with the direct method ("a
/// cannot be empty"); more than 16 dimensions (`Unsupported`).
pub fn convolve_with(in1: &Array, in2: &Array, opts: &ConvolveOptions) -> Result<Array> {
    if in1.ndim() == 0 && in2.ndim() == 0 {
        return ufunc::multiply(in1, in2);
    }
    if in1.ndim() != in2.ndim() {
        return Err(Error::Value(
            "volume and kernel should have the same dimensionality".into(),
        ));
    }
    let all: Vec<usize> = (0..in1.ndim()).collect();
    let (a, b) = if inputs_swap_needed(opts.mode, in1.shape(), in2.shape(), &all)? {
        (in2, in1)
    } else {
        (in1, in2)
    };
    let method = match opts.method {
        Method::Auto => choose_conv_method(a, b, opts.mode)?,
        m => m,
    };
    let rt = result_type(&[a.dtype().into(), b.dtype().into()])?;
    match method {
        Method::Fft => {
            let out = fftconvolve_with(a, b, &FftConvolveOptions::default().mode(opts.mode))?;
            let out = if rt.is_integer() || rt == DType::Bool {
                ufunc::rint(&out)?
            } else {
                out
            };
            if out.dtype() == rt {
                Ok(out)
            } else {
                out.astype(rt)
            }
        }
        _ => {
            if a.size() == 0 || b.size() == 0 {
                return Err(Error::Value("a cannot be empty".into()));
            }
            let (shape, offset) = window(opts.mode, a.shape(), b.shape());
            convolve_direct(a, b, &shape, &offset, rt)
        }
    }
}

/// SciPy's `correlate`: the N-D cross-correlation
/// `z[k] = sum_n in1[n + k - (m - 1)] conj(in2[n])`, that is [`convolve`]
/// with `in2` reversed and conjugated.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::correlate;
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[1.0f64, 2.0, 3.0], &[3])?;
/// let k = Array::from_slice(&[0.0f64, 1.0, 0.5], &[3])?;
/// let y = correlate(&x, &k)?; // [0.5, 2, 3.5, 3, 0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`correlate_with`].
pub fn correlate(in1: &Array, in2: &Array) -> Result<Array> {
    correlate_with(in1, in2, &ConvolveOptions::default())
}

/// [`correlate`] with SciPy's `mode=` and `method=`.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::{ConvolveOptions, Mode, correlate_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[0.0f64, 1.0, 2.0, 3.0, 4.0], &[5])?;
/// let k = Array::from_slice(&[1.0f64, 2.0, 3.0, 4.0], &[4])?;
/// let y = correlate_with(&x, &k, &ConvolveOptions::default().mode(Mode::Same))?; // [4, 11, 20, 30, 20]
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: inputs of different ranks ("in1 and in2 should have the same
/// dimensionality"); as [`convolve_with`].
pub fn correlate_with(in1: &Array, in2: &Array, opts: &ConvolveOptions) -> Result<Array> {
    if in1.ndim() == 0 && in2.ndim() == 0 {
        let c = if in2.dtype().is_complex() {
            in2.conj()?
        } else {
            in2.clone()
        };
        return ufunc::multiply(in1, &c);
    }
    if in1.ndim() != in2.ndim() {
        return Err(Error::Value(
            "in1 and in2 should have the same dimensionality".into(),
        ));
    }
    convolve_with(in1, &reverse_and_conj(in2)?, opts)
}

/// SciPy's `correlation_lags`: the lag of each element of the 1-D
/// [`correlate`] of signals of `in1_len` and `in2_len` samples in `mode`
/// (int64, computed on the host and uploaded).
///
/// ```no_run
/// use gpu_signal::{Mode, correlation_lags};
/// # fn main() -> gpu_array::Result<()> {
/// let lags = correlation_lags(5, 3, Mode::Full)?; // [-2, -1, 0, 1, 2, 3, 4]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or the upload failed.
pub fn correlation_lags(in1_len: usize, in2_len: usize, mode: Mode) -> Result<Array> {
    let lags = lags(in1_len as i64, in2_len as i64, mode);
    Array::from_slice(&lags, &[lags.len()])
}

/// The lags of [`correlation_lags`], on the host.
fn lags(n1: i64, n2: i64, mode: Mode) -> Vec<i64> {
    match mode {
        Mode::Full => (-n2 + 1..n1).collect(),
        Mode::Same => {
            let all: Vec<i64> = (-n2 + 1..n1).collect();
            let mid = all.len() as i64 / 2;
            let bound = n1 / 2;
            let (lo, hi) = if n1 % 2 == 0 {
                (mid - bound, mid + bound)
            } else {
                (mid - bound, mid + bound + 1)
            };
            let clamp = |v: i64| v.clamp(0, all.len() as i64) as usize;
            all[clamp(lo)..clamp(hi)].to_vec()
        }
        Mode::Valid => {
            let bound = n1 - n2;
            if bound >= 0 {
                (0..=bound).collect()
            } else {
                (bound..1).collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lags_are_scipys() {
        assert_eq!(lags(5, 3, Mode::Full), [-2, -1, 0, 1, 2, 3, 4]);
        assert_eq!(lags(5, 3, Mode::Same), [-1, 0, 1, 2, 3]);
        assert_eq!(lags(4, 3, Mode::Same), [-1, 0, 1, 2]);
        assert_eq!(lags(5, 3, Mode::Valid), [0, 1, 2]);
        assert_eq!(lags(3, 5, Mode::Valid), [-2, -1, 0]);
    }

    #[test]
    fn windows_and_swaps_are_scipys() {
        assert_eq!(
            window(Mode::Full, &[5, 6], &[2, 3]),
            (vec![6, 8], vec![0, 0])
        );
        assert_eq!(
            window(Mode::Same, &[5, 6], &[2, 4]),
            (vec![5, 6], vec![0, 1])
        );
        assert_eq!(
            window(Mode::Valid, &[5, 6], &[2, 3]),
            (vec![4, 4], vec![1, 2])
        );
        assert!(!inputs_swap_needed(Mode::Full, &[2], &[5], &[0]).unwrap());
        assert!(inputs_swap_needed(Mode::Valid, &[2, 2], &[5, 3], &[0, 1]).unwrap());
        let e = inputs_swap_needed(Mode::Valid, &[2, 6], &[5, 3], &[0, 1]).unwrap_err();
        assert!(e.to_string().starts_with("For 'valid' mode"));
    }

    #[test]
    fn the_cost_model_chooses_as_scipy() {
        // scipy.signal.choose_conv_method on float64 ones of these shapes.
        assert!(!fftconv_faster(&[1000], &[100], Mode::Full));
        assert!(fftconv_faster(&[100_000], &[1000], Mode::Full));
        assert!(fftconv_faster(&[100, 100], &[10, 10], Mode::Full));
    }

    #[test]
    fn names_parse_with_scipys_messages() {
        assert_eq!("same".parse::<Mode>().unwrap(), Mode::Same);
        assert_eq!("fft".parse::<Method>().unwrap(), Method::Fft);
        let e = "x".parse::<Mode>().unwrap_err().to_string();
        assert_eq!(e, "Acceptable mode flags are 'valid', 'same', or 'full'.");
        let e = "x".parse::<Method>().unwrap_err().to_string();
        assert_eq!(e, "Acceptable method flags are 'auto', 'direct', or 'fft'.");
    }
}
