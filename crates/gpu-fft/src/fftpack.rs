//! SciPy's legacy `scipy.fftpack` (CuPy's `cupyx.scipy.fftpack`): the
//! complex transforms without `norm`, and `rfft`/`irfft` in fftpack's
//! packed real format, `[y(0), Re y(1), Im y(1), ..., Re y(n/2)]` (the
//! last imaginary part is dropped for even `n`: it is zero).
//!
//! ```no_run
//! use gpu_fft::fftpack;
//! # fn main() -> gpu_fft::Result<()> {
//! let x = gpu_array::creation::array([1.0, 2.0, 3.0, 4.0])?;
//! let p = fftpack::rfft(&x, None, -1)?; // [10, -2, 2, -2]
//! let back = fftpack::irfft(&p, None, -1)?; // [1, 2, 3, 4]
//! # Ok(()) }
//! ```

use gpu_array::array::copyto;
use gpu_array::dtype::Casting;
use gpu_array::layout::{AxisIndex, normalize_axis};
use gpu_array::{Array, DType, Error, Result};

use crate::{FftOptions, FftnOptions};

pub use crate::{FftPlan, get_fft_plan};

fn opts(n: Option<usize>, axis: isize) -> FftOptions<'static> {
    let mut o = FftOptions::new().axis(axis);
    o.n = n;
    o
}

fn nd_opts(shape: Option<&[usize]>, axes: Option<&[isize]>) -> FftnOptions<'static> {
    let mut o = FftnOptions::new();
    o.s = shape.map(<[usize]>::to_vec);
    o.axes = axes.map(<[isize]>::to_vec);
    o
}

/// `scipy.fftpack.fft(x, n, axis)`.
///
/// ```no_run
/// # fn main() -> gpu_fft::Result<()> {
/// let x = gpu_array::creation::array([1.0, 0.0, 0.0, 0.0])?;
/// let y = gpu_fft::fftpack::fft(&x, None, -1)?; // [1, 1, 1, 1] (complex128)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`crate::fft`].
pub fn fft(x: &Array, n: Option<usize>, axis: isize) -> Result<Array> {
    crate::fft_with(x, &opts(n, axis))
}

/// `scipy.fftpack.ifft(x, n, axis)`.
///
/// ```no_run
/// # fn main() -> gpu_fft::Result<()> {
/// let x = gpu_array::creation::array([4.0, 0.0, 0.0, 0.0])?;
/// let y = gpu_fft::fftpack::ifft(&x, None, -1)?; // [1, 1, 1, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`crate::ifft`].
pub fn ifft(x: &Array, n: Option<usize>, axis: isize) -> Result<Array> {
    crate::ifft_with(x, &opts(n, axis))
}

/// `scipy.fftpack.fftn(x, shape, axes)`.
///
/// ```no_run
/// # fn main() -> gpu_fft::Result<()> {
/// let x = gpu_array::creation::ones((4, 4), gpu_array::DType::Float32)?;
/// let y = gpu_fft::fftpack::fftn(&x, None, None)?; // 16 at [0, 0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`crate::fftn`].
pub fn fftn(x: &Array, shape: Option<&[usize]>, axes: Option<&[isize]>) -> Result<Array> {
    crate::fftn_with(x, &nd_opts(shape, axes))
}

/// `scipy.fftpack.ifftn(x, shape, axes)`.
///
/// ```no_run
/// # fn main() -> gpu_fft::Result<()> {
/// let x = gpu_array::creation::ones((4, 4), gpu_array::DType::Complex64)?;
/// let y = gpu_fft::fftpack::ifftn(&x, None, None)?; // 1 at [0, 0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`crate::ifftn`].
pub fn ifftn(x: &Array, shape: Option<&[usize]>, axes: Option<&[isize]>) -> Result<Array> {
    crate::ifftn_with(x, &nd_opts(shape, axes))
}

/// `scipy.fftpack.fft2(x, shape, axes)` (the last two axes by default).
///
/// ```no_run
/// # fn main() -> gpu_fft::Result<()> {
/// let x = gpu_array::creation::ones((2, 4, 4), gpu_array::DType::Float64)?;
/// let y = gpu_fft::fftpack::fft2(&x, None, None)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`crate::fft2`].
pub fn fft2(x: &Array, shape: Option<&[usize]>, axes: Option<&[isize]>) -> Result<Array> {
    crate::fftn_with(x, &nd_opts(shape, Some(axes.unwrap_or(&[-2, -1]))))
}

/// `scipy.fftpack.ifft2(x, shape, axes)`.
///
/// ```no_run
/// # fn main() -> gpu_fft::Result<()> {
/// let x = gpu_array::creation::ones((4, 4), gpu_array::DType::Complex128)?;
/// let y = gpu_fft::fftpack::ifft2(&x, None, None)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`crate::ifft2`].
pub fn ifft2(x: &Array, shape: Option<&[usize]>, axes: Option<&[isize]>) -> Result<Array> {
    crate::ifftn_with(x, &nd_opts(shape, Some(axes.unwrap_or(&[-2, -1]))))
}

/// `x[..., start::2]` along the last axis (`None`: `x[..., start]`).
fn last(x: &Array, start: isize, step: Option<isize>, stop: Option<isize>) -> Result<Array> {
    let mut idx = vec![AxisIndex::FULL; x.ndim()];
    idx[x.ndim() - 1] = match step {
        Some(step) => AxisIndex::Slice {
            start: Some(start),
            stop,
            step,
        },
        None => AxisIndex::Index(start),
    };
    x.slice(&idx)
}

/// The real dtype fftpack's real transforms keep: float32 for float16
/// and float32, float64 otherwise.
fn packed_dtype(dtype: DType) -> Result<DType> {
    match dtype {
        d if d.is_complex() => Err(Error::DType("x must be a real sequence".into())),
        DType::Float16 | DType::Float32 => Ok(DType::Float32),
        _ => Ok(DType::Float64),
    }
}

/// `scipy.fftpack.rfft(x, n, axis)`: the transform of real `x` in the
/// packed real format, of length `n` (the input's by default).
///
/// ```no_run
/// # fn main() -> gpu_fft::Result<()> {
/// let x = gpu_array::creation::array([1.0, 2.0, 3.0, 4.0, 5.0])?;
/// let p = gpu_fft::fftpack::rfft(&x, None, -1)?; // [15, -2.5, 3.44, -2.5, 0.81]
/// # Ok(()) }
/// ```
///
/// # Errors
/// A complex input ("x must be a real sequence"), and as [`crate::rfft`].
pub fn rfft(x: &Array, n: Option<usize>, axis: isize) -> Result<Array> {
    let dtype = packed_dtype(x.dtype())?;
    let ax = normalize_axis(axis, x.ndim())?;
    let moved = x.moveaxis(&[ax as isize], &[-1])?;
    let n = n.unwrap_or(moved.shape()[moved.ndim() - 1]);
    let y = crate::rfft_with(&moved, &FftOptions::new().n(n))?;
    let mut shape = moved.shape().to_vec();
    *shape.last_mut().expect("at least 1-d") = n;
    let out = Array::empty_on(x.device(), &shape, dtype, gpu_array::Order::C)?;
    let half = n as isize / 2;
    let odd_imag = (n as isize - 1) / 2;
    copyto(
        &last(&out, 0, None, None)?,
        &last(&y, 0, None, None)?.real(),
        Casting::SameKind,
        None,
    )?;
    if half >= 1 {
        let re = last(&y.real(), 1, Some(1), Some(half + 1))?;
        copyto(&last(&out, 1, Some(2), None)?, &re, Casting::SameKind, None)?;
    }
    if odd_imag >= 1 {
        let im = last(&y.imag()?, 1, Some(1), Some(odd_imag + 1))?;
        copyto(&last(&out, 2, Some(2), None)?, &im, Casting::SameKind, None)?;
    }
    out.moveaxis(&[-1], &[ax as isize])
}

/// `scipy.fftpack.irfft(x, n, axis)`: the inverse of [`rfft`], from the
/// packed real format, cut or zero-padded to `n` first.
///
/// ```no_run
/// # fn main() -> gpu_fft::Result<()> {
/// let p = gpu_array::creation::array([10.0, -2.0, 2.0, -2.0])?;
/// let x = gpu_fft::fftpack::irfft(&p, None, -1)?; // [1, 2, 3, 4]
/// # Ok(()) }
/// ```
///
/// # Errors
/// A complex input, and as [`crate::irfft`].
pub fn irfft(x: &Array, n: Option<usize>, axis: isize) -> Result<Array> {
    let dtype = packed_dtype(x.dtype())?;
    let ax = normalize_axis(axis, x.ndim())?;
    let moved = x.moveaxis(&[ax as isize], &[-1])?;
    let len = moved.shape()[moved.ndim() - 1];
    let n = n.unwrap_or(len);
    if n < 1 {
        return Err(Error::Value(format!(
            "invalid number of data points ({n}) specified"
        )));
    }
    let cdt = if dtype == DType::Float32 {
        DType::Complex64
    } else {
        DType::Complex128
    };
    let mut shape = moved.shape().to_vec();
    *shape.last_mut().expect("at least 1-d") = n / 2 + 1;
    let y = Array::empty_on(x.device(), &shape, cdt, gpu_array::Order::C)?;
    y.fill(0)?;
    let usable = len.min(n) as isize;
    if usable >= 1 {
        copyto(
            &last(&y.real(), 0, None, None)?,
            &last(&moved, 0, None, None)?,
            Casting::Unsafe,
            None,
        )?;
    }
    // Packed index 2k-1 is Re y(k), 2k is Im y(k), for 2k <= n-1.
    let re_count = (usable / 2).min(n as isize / 2);
    if re_count >= 1 {
        let src = last(&moved, 1, Some(2), Some(2 * re_count))?;
        copyto(
            &last(&y.real(), 1, Some(1), Some(re_count + 1))?,
            &src,
            Casting::Unsafe,
            None,
        )?;
    }
    let im_count = ((usable - 1) / 2).min((n as isize - 1) / 2);
    if im_count >= 1 {
        let src = last(&moved, 2, Some(2), Some(2 * im_count + 1))?;
        copyto(
            &last(&y.imag()?, 1, Some(1), Some(im_count + 1))?,
            &src,
            Casting::Unsafe,
            None,
        )?;
    }
    let back = crate::irfft_with(&y, &FftOptions::new().n(n))?;
    back.moveaxis(&[-1], &[ax as isize])
}
