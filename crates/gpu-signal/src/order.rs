//! Order filters (`scipy.signal.order_filter`, `medfilt`, `medfilt2d`):
//! gpu-ndimage's rank filter over a footprint, zero past the edges, as
//! SciPy computes them.

use gpu_array::{Array, DType, Error, Result};
use gpu_ndimage::{FilterOptions, Mode as NdMode, Window, rank_filter_with};

/// The dtypes SciPy's order filters take: the integers, float32 and
/// float64.
fn check_dtype(a: &Array, func: &str) -> Result<()> {
    let dt = a.dtype();
    if dt.is_integer() || matches!(dt, DType::Float32 | DType::Float64) {
        Ok(())
    } else {
        Err(Error::Value(format!(
            "dtype={} is not supported by {func}",
            dt.name()
        )))
    }
}

fn zero_padded() -> FilterOptions<'static> {
    FilterOptions::default().mode(NdMode::Constant).cval(0.0)
}

/// SciPy's `order_filter`: the element of `rank` (0-based, ascending)
/// among the input's values at the nonzero elements of `domain` (odd
/// sides), centred on each element, zero past the edges.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_signal::order_filter;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?.astype(DType::Float64)?;
/// let domain = gpu_array::creation::ones([3, 3], DType::Bool)?;
/// let lowest = order_filter(&x, &domain, 0)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: an even side of `domain` ("Each dimension of domain argument
/// should have an odd number of elements."), a dtype other than the
/// integers, float32 and float64; as gpu-ndimage's `rank_filter`.
pub fn order_filter(a: &Array, domain: &Array, rank: i64) -> Result<Array> {
    if domain.shape().iter().any(|&s| s % 2 != 1) {
        return Err(Error::Value(
            "Each dimension of domain argument should have an odd number of elements.".into(),
        ));
    }
    check_dtype(a, "order_filter")?;
    rank_filter_with(a, rank, Window::Footprint(domain), &zero_padded())
}

/// SciPy's `medfilt` with `kernel_size=3` along every axis: the median of
/// each 3 x ... x 3 window, zero past the edges.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::medfilt;
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[2.0f64, 80.0, 6.0, 3.0, 1.0], &[5])?;
/// let y = medfilt(&x)?; // [2, 6, 6, 3, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`medfilt_with`].
pub fn medfilt(volume: &Array) -> Result<Array> {
    medfilt_with(volume, &[3])
}

/// SciPy's `medfilt` with `kernel_size` (one odd side for every axis or
/// one per axis).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::medfilt_with;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([16, 16], DType::Float32)?;
/// let y = medfilt_with(&x, &[5, 3])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: an even size ("Each element of kernel_size should be odd."), a
/// dtype other than the integers, float32 and float64; a size list of
/// the wrong length; a window of more than 640 elements (`Unsupported`,
/// gpu-ndimage's rank filter).
pub fn medfilt_with(volume: &Array, kernel_size: &[usize]) -> Result<Array> {
    let v = if volume.ndim() == 0 {
        volume.reshape([1])?
    } else {
        volume.clone()
    };
    check_dtype(&v, "medfilt")?;
    let sizes: Vec<usize> = match kernel_size {
        [k] => vec![*k; v.ndim()],
        k if k.len() == v.ndim() => k.to_vec(),
        _ => {
            return Err(Error::Value(
                "kernel_size must have one element or one per dimension".into(),
            ));
        }
    };
    if sizes.iter().any(|&k| k % 2 != 1) {
        return Err(Error::Value(
            "Each element of kernel_size should be odd.".into(),
        ));
    }
    let size: usize = sizes.iter().product();
    rank_filter_with(&v, (size / 2) as i64, Window::Size(&sizes), &zero_padded())
}

/// SciPy's `medfilt2d` with `kernel_size=3`: [`medfilt`] of a 2-D image.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::medfilt2d;
/// # fn main() -> gpu_array::Result<()> {
/// let img = gpu_array::creation::ones([64, 64], DType::UInt8)?;
/// let y = medfilt2d(&img)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`medfilt2d_with`].
pub fn medfilt2d(input: &Array) -> Result<Array> {
    medfilt2d_with(input, &[3])
}

/// SciPy's `medfilt2d` with `kernel_size` (one odd side or two).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::medfilt2d_with;
/// # fn main() -> gpu_array::Result<()> {
/// let img = gpu_array::creation::ones([64, 64], DType::Float64)?;
/// let y = medfilt2d_with(&img, &[5, 5])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// A non-2-D input; as [`medfilt_with`].
pub fn medfilt2d_with(input: &Array, kernel_size: &[usize]) -> Result<Array> {
    if input.ndim() != 2 {
        return Err(Error::Value("medfilt2d takes a 2-D input".into()));
    }
    medfilt_with(input, kernel_size)
}
