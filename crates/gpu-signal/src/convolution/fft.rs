//! `fftconvolve`: convolution by products of transforms (gpu-fft's
//! `rfftn`/`irfftn`, or `fftn`/`ifftn` for complex inputs) at SciPy's
//! fast lengths, then SciPy's slicing for the mode. A long 1-D real signal
//! with a short one goes by overlap-save in batched blocks instead
//! (`overlap_save.rs`).

use gpu_array::layout::{AxisIndex, normalize_axis};
use gpu_array::{Array, DType, Error, Result, ufunc};
use gpu_fft::{FftnOptions, fftn_with, ifftn_with, irfftn_with, next_fast_len, rfftn_with};

use super::{Mode, inputs_swap_needed};

/// SciPy's keywords of [`fftconvolve_with`]: `mode` (default full) and
/// `axes` (default every axis; the others broadcast).
///
/// ```
/// use gpu_signal::{FftConvolveOptions, Mode};
/// let o = FftConvolveOptions::default().mode(Mode::Valid).axes(&[-1]);
/// assert_eq!((o.mode, o.axes), (Mode::Valid, Some(vec![-1])));
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct FftConvolveOptions {
    /// The output's size.
    pub mode: Mode,
    /// The axes to convolve over.
    pub axes: Option<Vec<isize>>,
}

impl FftConvolveOptions {
    /// Sets `mode`.
    ///
    /// ```
    /// use gpu_signal::{FftConvolveOptions, Mode};
    /// assert_eq!(FftConvolveOptions::default().mode(Mode::Same).mode, Mode::Same);
    /// ```
    #[must_use]
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets `axes`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::FftConvolveOptions::default().axes(&[0]).axes, Some(vec![0]));
    /// ```
    #[must_use]
    pub fn axes(mut self, axes: &[isize]) -> Self {
        self.axes = Some(axes.to_vec());
        self
    }
}

/// SciPy's `fftconvolve`: the N-D convolution of `in1` and `in2` through
/// FFTs, in float32/complex64 for single-precision inputs and
/// float64/complex128 otherwise.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::fftconvolve;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([1 << 16], DType::Float32)?;
/// let k = gpu_array::creation::ones([512], DType::Float32)?;
/// let y = fftconvolve(&x, &k)?; // float32, 2^16 + 511 points
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`fftconvolve_with`].
pub fn fftconvolve(in1: &Array, in2: &Array) -> Result<Array> {
    fftconvolve_with(in1, in2, &FftConvolveOptions::default())
}

/// The dtype the transforms run in for `dt`.
fn transform_dtype(dt: DType) -> DType {
    match dt {
        DType::Float32 | DType::Complex64 | DType::Complex128 | DType::Float64 => dt,
        DType::Float16 | DType::BFloat16 => DType::Float32,
        _ => DType::Float64,
    }
}

/// `arr` cut to `newshape` about its centre (SciPy's `_centered`).
fn centered(arr: &Array, newshape: &[usize]) -> Result<Array> {
    let idx: Vec<AxisIndex> = arr
        .shape()
        .iter()
        .zip(newshape)
        .map(|(&cur, &new)| {
            let start = (cur - new) / 2;
            AxisIndex::Slice {
                start: Some(start as isize),
                stop: Some((start + new) as isize),
                step: 1,
            }
        })
        .collect();
    arr.slice(&idx)?.copy()
}

/// [`fftconvolve`] with SciPy's `mode=` and `axes=`: along `axes` the
/// convolution; along the other axes the inputs must match or one of
/// them be 1 (broadcast).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::{FftConvolveOptions, Mode, fftconvolve_with};
/// # fn main() -> gpu_array::Result<()> {
/// // 8 signals of 4096 samples, each convolved with its own 64-tap filter.
/// let x = gpu_array::creation::ones([8, 4096], DType::Float64)?;
/// let k = gpu_array::creation::ones([8, 64], DType::Float64)?;
/// let y = fftconvolve_with(&x, &k, &FftConvolveOptions::default().axes(&[1]).mode(Mode::Same))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: inputs of different ranks ("in1 and in2 should have the same
/// dimensionality"), shapes that do not broadcast off `axes`
/// ("incompatible shapes for in1 and in2: .. and .."), 'valid' inputs
/// neither of which is as large as the other, bad or repeated axes;
/// failed transforms.
pub fn fftconvolve_with(in1: &Array, in2: &Array, opts: &FftConvolveOptions) -> Result<Array> {
    let (a, b, axes) = match init_freq_conv(in1, in2, opts, false)? {
        Prepared::Done(r) => return Ok(r),
        Prepared::Inputs(a, b, axes) => (a, b, axes),
    };
    let (s1, s2) = (a.shape().to_vec(), b.shape().to_vec());
    let shape: Vec<usize> = (0..s1.len())
        .map(|i| {
            if axes.contains(&i) {
                s1[i] + s2[i] - 1
            } else {
                s1[i].max(s2[i])
            }
        })
        .collect();
    let real = !a.dtype().is_complex() && !b.dtype().is_complex();
    if real && axes.len() == 1 {
        let dt = transform_dtype(gpu_array::dtype::promote_types(
            transform_dtype(a.dtype()),
            transform_dtype(b.dtype()),
        ));
        if let Some(r) = super::overlap_save::full(&a, &b, dt)? {
            return apply_conv_mode(&r, &s1, &s2, opts.mode, &axes);
        }
    }
    let ret = if axes.is_empty() {
        ufunc::multiply(&a, &b)?
    } else {
        freq_domain_conv(&a, &b, &axes, &shape, true)?
    };
    apply_conv_mode(&ret, &s1, &s2, opts.mode, &axes)
}

/// The set-up of the FFT convolutions, checked: a finished result for
/// 0-d and empty inputs, else the inputs (swapped for 'valid' where
/// SciPy swaps) and the axes that take part (those where neither input
/// has length 1; `sorted` as `oaconvolve` wants them).
pub(crate) enum Prepared {
    Done(Array),
    Inputs(Array, Array, Vec<usize>),
}

/// SciPy's `_init_freq_conv_axes` and the checks before it.
pub(crate) fn init_freq_conv(
    in1: &Array,
    in2: &Array,
    opts: &FftConvolveOptions,
    sorted: bool,
) -> Result<Prepared> {
    if in1.ndim() == 0 && in2.ndim() == 0 {
        return Ok(Prepared::Done(ufunc::multiply(in1, in2)?));
    }
    if in1.ndim() != in2.ndim() {
        return Err(Error::Value(
            "in1 and in2 should have the same dimensionality".into(),
        ));
    }
    if in1.size() == 0 || in2.size() == 0 {
        return Ok(Prepared::Done(Array::empty([0], DType::Float64)?));
    }
    let nd = in1.ndim();
    let mut axes: Vec<usize> = match &opts.axes {
        None => (0..nd).collect(),
        Some(a) => {
            let mut v = Vec::with_capacity(a.len());
            for &ax in a {
                let n = normalize_axis(ax, nd)?;
                if v.contains(&n) {
                    return Err(Error::Value("all axes must be unique".into()));
                }
                v.push(n);
            }
            v
        }
    };
    if sorted {
        axes.sort_unstable();
    }
    let (s1, s2) = (in1.shape(), in2.shape());
    for d in (0..nd).filter(|d| !axes.contains(d)) {
        if s1[d] != s2[d] && s1[d] != 1 && s2[d] != 1 {
            return Err(Error::Value(format!(
                "incompatible shapes for in1 and in2: {s1:?} and {s2:?}"
            )));
        }
    }
    axes.retain(|&a| s1[a] != 1 && s2[a] != 1);
    Ok(if inputs_swap_needed(opts.mode, s1, s2, &axes)? {
        Prepared::Inputs(in2.clone(), in1.clone(), axes)
    } else {
        Prepared::Inputs(in1.clone(), in2.clone(), axes)
    })
}

/// SciPy's `_apply_conv_mode`: the full result cut for the mode.
pub(crate) fn apply_conv_mode(
    ret: &Array,
    s1: &[usize],
    s2: &[usize],
    mode: Mode,
    axes: &[usize],
) -> Result<Array> {
    match mode {
        Mode::Full => Ok(ret.clone()),
        Mode::Same => centered(ret, s1),
        Mode::Valid => {
            let valid: Vec<usize> = (0..ret.ndim())
                .map(|i| {
                    if axes.contains(&i) {
                        s1[i] + 1 - s2[i]
                    } else {
                        ret.shape()[i]
                    }
                })
                .collect();
            centered(ret, &valid)
        }
    }
}

/// SciPy's `_freq_domain_conv`: the product of the transforms along
/// `axes` (at the fast lengths from `shape`, or at `shape` itself when not
/// `fast`), transformed back and cut to `shape`.
pub(crate) fn freq_domain_conv(
    a: &Array,
    b: &Array,
    axes: &[usize],
    shape: &[usize],
    fast: bool,
) -> Result<Array> {
    let complex = a.dtype().is_complex() || b.dtype().is_complex();
    let dt = transform_dtype(gpu_array::dtype::promote_types(
        transform_dtype(a.dtype()),
        transform_dtype(b.dtype()),
    ));
    let cast = |x: &Array| {
        if x.dtype() == dt {
            Ok(x.clone())
        } else {
            x.astype(dt)
        }
    };
    let (a, b) = (cast(a)?, cast(b)?);
    let mut fshape = Vec::with_capacity(axes.len());
    for &ax in axes {
        fshape.push(if fast {
            next_fast_len(shape[ax], !complex)
                .ok_or_else(|| Error::Overflow(format!("no fast FFT length for {}", shape[ax])))?
        } else {
            shape[ax]
        });
    }
    let iaxes: Vec<isize> = axes.iter().map(|&a| a as isize).collect();
    let o = FftnOptions::new().s(&fshape).axes(&iaxes);
    let ret = if complex {
        let sp = ufunc::multiply(&fftn_with(&a, &o)?, &fftn_with(&b, &o)?)?;
        ifftn_with(&sp, &o)?
    } else {
        let sp = ufunc::multiply(&rfftn_with(&a, &o)?, &rfftn_with(&b, &o)?)?;
        // The product is ours: the inverse may overwrite it rather than
        // copy it (where it is laid out as cuFFT reads it).
        irfftn_with(&sp, &o.clone().overwrite_x(true))?
    };
    let idx: Vec<AxisIndex> = (0..shape.len())
        .map(|i| AxisIndex::Slice {
            start: Some(0),
            stop: Some(shape[i] as isize),
            step: 1,
        })
        .collect();
    ret.slice(&idx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transforms_run_in_scipys_precision() {
        assert_eq!(transform_dtype(DType::Float32), DType::Float32);
        assert_eq!(transform_dtype(DType::Int16), DType::Float64);
        assert_eq!(transform_dtype(DType::Float16), DType::Float32);
        assert_eq!(transform_dtype(DType::Complex64), DType::Complex64);
    }
}
