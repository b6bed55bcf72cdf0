//! NumPy's window functions: `bartlett`, `blackman`, `hamming`, `hanning`
//! and `kaiser`, float64 arrays of `M` points computed on the device.

use crate::array::Array;
use crate::dtype::DType;
use crate::elementwise::{Bind, Elementwise};
use crate::error::Result;

/// A window function of NumPy's (float64, `M` points).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Window {
    /// `bartlett`.
    Bartlett,
    /// `blackman`.
    Blackman,
    /// `hamming`.
    Hamming,
    /// `hanning`.
    Hanning,
    /// `kaiser` (scalar `beta`).
    Kaiser,
}

impl Window {
    pub(crate) const ALL: [Window; 5] = [
        Window::Bartlett,
        Window::Blackman,
        Window::Hamming,
        Window::Hanning,
        Window::Kaiser,
    ];

    /// The NumPy name, and the `W` of `cuprum_np::window<W>`.
    fn name_and_index(self) -> (&'static str, u8) {
        match self {
            Window::Bartlett => ("window_bartlett", 0),
            Window::Blackman => ("window_blackman", 1),
            Window::Hamming => ("window_hamming", 2),
            Window::Hanning => ("window_hanning", 3),
            Window::Kaiser => ("window_kaiser", 4),
        }
    }
}

/// The window kernel: float64 `y` of `m` points, `beta` Kaiser's shape
/// (`window.cuh`).
pub(crate) fn window_kernel(w: Window, y: Bind<'_>, m: f64, beta: f64) -> Elementwise<'_> {
    let (name, index) = w.name_and_index();
    Elementwise::new(name)
        .scalar("m", DType::Float64, m)
        .scalar("beta", DType::Float64, beta)
        .output("y", y)
        .op(format!(
            "y = cuprum_np::window<{index}>(m, beta, (double)i);"
        ))
        .preamble(include_str!("window.cuh"))
}

fn window(w: Window, m: i64, beta: f64) -> Result<Array> {
    if m < 1 {
        return Array::empty([0], DType::Float64);
    }
    let out = Array::empty([m as usize], DType::Float64)?;
    if m == 1 {
        out.fill(1.0)?;
        return Ok(out);
    }
    window_kernel(w, (&out).into(), m as f64, beta).launch(out.shape())?;
    Ok(out)
}

/// NumPy's `bartlett(M)`: the triangular window, `1 - |n| / (M - 1)` for
/// `n = 1 - M, 3 - M, ..., M - 1`; empty for `M < 1`, `[1.]` for `M == 1`.
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let w = bartlett(5)?; // [0, 0.5, 1, 0.5, 0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or launch failed.
pub fn bartlett(m: i64) -> Result<Array> {
    window(Window::Bartlett, m, 0.0)
}

/// NumPy's `blackman(M)`: `0.42 + 0.5 cos(pi n / (M - 1)) + 0.08 cos(2 pi
/// n / (M - 1))` for `n = 1 - M, 3 - M, ..., M - 1`.
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let w = blackman(5)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or launch failed.
pub fn blackman(m: i64) -> Result<Array> {
    window(Window::Blackman, m, 0.0)
}

/// NumPy's `hamming(M)`: `0.54 + 0.46 cos(pi n / (M - 1))`.
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let w = hamming(5)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or launch failed.
pub fn hamming(m: i64) -> Result<Array> {
    window(Window::Hamming, m, 0.0)
}

/// NumPy's `hanning(M)`: `0.5 + 0.5 cos(pi n / (M - 1))`.
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let w = hanning(5)?;
/// # Ok(()) }
/// ```
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
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let w = kaiser(5, 14.0)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or launch failed.
pub fn kaiser(m: i64, beta: f64) -> Result<Array> {
    window(Window::Kaiser, m, beta)
}
