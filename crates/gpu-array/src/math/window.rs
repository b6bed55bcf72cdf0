//! NumPy's window functions: `bartlett`, `blackman`, `hamming`, `hanning`
//! and `kaiser`, float64 arrays of `M` points computed on the device.

use super::kernels::{Window, f64_as, window_spec};
use crate::array::Array;
use crate::dtype::DType;
use crate::elementwise::{LaunchArg, launch};
use crate::error::Result;

fn window(w: Window, m: i64, beta: f64) -> Result<Array> {
    if m < 1 {
        return Array::empty(&[0], DType::Float64);
    }
    let out = Array::empty(&[m as usize], DType::Float64)?;
    if m == 1 {
        out.fill(1.0)?;
        return Ok(out);
    }
    let args = [
        f64_as(m as f64, DType::Float64),
        f64_as(beta, DType::Float64),
        LaunchArg::Out(&out),
    ];
    launch(out.shape(), &args, |l, i| Ok(window_spec(w, l, i)))?;
    Ok(out)
}

/// NumPy's `bartlett(M)`: the triangular window, `1 - |n| / (M - 1)` for
/// `n = 1 - M, 3 - M, ..., M - 1`; empty for `M < 1`, `[1.]` for `M == 1`.
///
/// # Errors
/// Allocation or launch failed.
pub fn bartlett(m: i64) -> Result<Array> {
    window(Window::Bartlett, m, 0.0)
}

/// NumPy's `blackman(M)`: `0.42 + 0.5 cos(pi n / (M - 1)) + 0.08 cos(2 pi
/// n / (M - 1))` for `n = 1 - M, 3 - M, ..., M - 1`.
///
/// # Errors
/// Allocation or launch failed.
pub fn blackman(m: i64) -> Result<Array> {
    window(Window::Blackman, m, 0.0)
}

/// NumPy's `hamming(M)`: `0.54 + 0.46 cos(pi n / (M - 1))`.
///
/// # Errors
/// Allocation or launch failed.
pub fn hamming(m: i64) -> Result<Array> {
    window(Window::Hamming, m, 0.0)
}

/// NumPy's `hanning(M)`: `0.5 + 0.5 cos(pi n / (M - 1))`.
///
/// # Errors
/// Allocation or launch failed.
pub fn hanning(m: i64) -> Result<Array> {
    window(Window::Hanning, m, 0.0)
}

/// NumPy's `kaiser(M, beta)`: `i0(beta sqrt(1 - ((n - a) / a)**2)) /
/// i0(beta)` for `n = 0..M`, `a = (M - 1) / 2` (`i0` is CUDA's
/// `cyl_bessel_i0`).
///
/// # Errors
/// Allocation or launch failed.
pub fn kaiser(m: i64, beta: f64) -> Result<Array> {
    window(Window::Kaiser, m, beta)
}
