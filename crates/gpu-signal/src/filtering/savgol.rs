//! Savitzky-Golay filters: the coefficients (a small least-squares
//! problem on the host, by modified Gram-Schmidt QR) and the filter, a
//! 1-D convolution through gpu-ndimage's `convolve1d` with SciPy's
//! boundary modes; mode 'interp' replaces the `window_length // 2` samples
//! at each end by the fitted polynomial, a fixed linear map of the edge
//! window (formed on the host, applied on the device).

use gpu_array::reduction::ReduceOptions;
use gpu_array::{Array, DType, Error, Result, ufunc};
use gpu_ndimage::{FilterOptions, Mode};

use super::{check_axis, cols, from_rows, to_rows};

/// The boundary handling of [`savgol_filter_with`] (SciPy's `mode=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SavgolMode {
    /// Fit a polynomial to the edge windows (no extension).
    #[default]
    Interp,
    /// Reflect about the end samples (`d c b | a b c d | c b a`).
    Mirror,
    /// Pad with `cval`.
    Constant,
    /// Repeat the end samples.
    Nearest,
    /// Wrap around.
    Wrap,
}

gpu_array::from_numpy_str! {
    SavgolMode, Error,
    else: |_s| Error::Value(
        "mode must be 'mirror', 'constant', 'nearest' 'wrap' or 'interp'.".into()
    ),
    { "interp" => SavgolMode::Interp, "mirror" => SavgolMode::Mirror,
      "constant" => SavgolMode::Constant, "nearest" => SavgolMode::Nearest,
      "wrap" => SavgolMode::Wrap }
}

/// SciPy's keywords of [`savgol_coeffs_with`]: `deriv` (0), `delta`
/// (1.0), `pos` (none: the window's centre) and `use` (`conv`: reversed
/// for a convolution; `dot` when false).
///
/// ```
/// let o = gpu_signal::SavgolCoeffsOptions::default().deriv(1).pos(Some(2.0)).conv(false);
/// assert_eq!((o.deriv, o.pos, o.conv), (1, Some(2.0), false));
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct SavgolCoeffsOptions {
    /// The derivative order.
    pub deriv: usize,
    /// The sample spacing (for derivatives).
    pub delta: f64,
    /// The point of the window the coefficients evaluate at.
    pub pos: Option<f64>,
    /// Order for a convolution (`use='conv'`) rather than a dot product.
    pub conv: bool,
}

impl Default for SavgolCoeffsOptions {
    fn default() -> Self {
        SavgolCoeffsOptions {
            deriv: 0,
            delta: 1.0,
            pos: None,
            conv: true,
        }
    }
}

impl SavgolCoeffsOptions {
    /// Sets `deriv`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::SavgolCoeffsOptions::default().deriv(2).deriv, 2);
    /// ```
    #[must_use]
    pub fn deriv(mut self, deriv: usize) -> Self {
        self.deriv = deriv;
        self
    }

    /// Sets `delta`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::SavgolCoeffsOptions::default().delta(0.5).delta, 0.5);
    /// ```
    #[must_use]
    pub fn delta(mut self, delta: f64) -> Self {
        self.delta = delta;
        self
    }

    /// Sets `pos`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::SavgolCoeffsOptions::default().pos(Some(0.0)).pos, Some(0.0));
    /// ```
    #[must_use]
    pub fn pos(mut self, pos: Option<f64>) -> Self {
        self.pos = pos;
        self
    }

    /// Sets `use`: `true` for 'conv', `false` for 'dot'.
    ///
    /// ```
    /// assert!(!gpu_signal::SavgolCoeffsOptions::default().conv(false).conv);
    /// ```
    #[must_use]
    pub fn conv(mut self, conv: bool) -> Self {
        self.conv = conv;
        self
    }
}

/// QR of the `m x k` matrix `a` (row-major, `m >= k`) by modified
/// Gram-Schmidt, twice for orthogonality: `q` (`m x k`, row-major) and
/// the upper-triangular `r` (`k x k`).
fn qr(a: &[f64], m: usize, k: usize) -> (Vec<f64>, Vec<f64>) {
    let mut q = a.to_vec();
    let mut r = vec![0.0; k * k];
    for j in 0..k {
        for _ in 0..2 {
            for i in 0..j {
                let d: f64 = (0..m).map(|t| q[t * k + i] * q[t * k + j]).sum();
                r[i * k + j] += d;
                for t in 0..m {
                    q[t * k + j] -= d * q[t * k + i];
                }
            }
        }
        let nrm = (0..m).map(|t| q[t * k + j].powi(2)).sum::<f64>().sqrt();
        r[j * k + j] = nrm;
        for t in 0..m {
            q[t * k + j] /= nrm;
        }
    }
    (q, r)
}

/// SciPy's `savgol_coeffs` on the host: the minimum-norm `c` with
/// `A c = y`, `A[i][j] = x_j^i` over the window's offsets from `pos`.
pub(crate) fn savgol_coeffs_host(
    window_length: usize,
    polyorder: usize,
    o: &SavgolCoeffsOptions,
) -> Result<Vec<f64>> {
    if polyorder >= window_length {
        return Err(Error::Value(
            "polyorder must be less than window_length.".into(),
        ));
    }
    let (half, rem) = (window_length / 2, window_length % 2);
    let pos = o.pos.unwrap_or(if rem == 0 {
        half as f64 - 0.5
    } else {
        half as f64
    });
    if !(0.0 <= pos && pos < window_length as f64) {
        return Err(Error::Value(
            "pos must be nonnegative and less than window_length.".into(),
        ));
    }
    if o.deriv > polyorder {
        return Ok(vec![0.0; window_length]);
    }
    let mut x: Vec<f64> = (0..window_length).map(|j| j as f64 - pos).collect();
    if o.conv {
        x.reverse();
    }
    let k = polyorder + 1;
    // A^T (window_length x k) = Q R; the minimum-norm solution of A c = y
    // is c = Q R^-T y.
    let at: Vec<f64> = x
        .iter()
        .flat_map(|&xj| (0..k).map(move |i| xj.powi(i as i32)))
        .collect();
    let (q, r) = qr(&at, window_length, k);
    let mut y = vec![0.0; k];
    y[o.deriv] = (1..=o.deriv).map(|v| v as f64).product::<f64>() / o.delta.powi(o.deriv as i32);
    // Solve R^T u = y (forward substitution).
    let mut u = vec![0.0; k];
    for i in 0..k {
        let s: f64 = (0..i).map(|j| r[j * k + i] * u[j]).sum();
        u[i] = (y[i] - s) / r[i * k + i];
    }
    Ok((0..window_length)
        .map(|t| (0..k).map(|i| q[t * k + i] * u[i]).sum())
        .collect())
}

/// The linear map of the interp mode's edge fit: row `i` gives the value
/// at window offset `eval[i]` of the `deriv`-th derivative (over
/// `delta^deriv`) of the least-squares polynomial through the window.
fn edge_map(wl: usize, polyorder: usize, deriv: usize, delta: f64, eval: &[usize]) -> Vec<f64> {
    let k = polyorder + 1;
    // Vandermonde V (wl x k), V[t][i] = t^i; V = Q R; pinv(V) = R^-1 Q^T.
    let v: Vec<f64> = (0..wl)
        .flat_map(|t| (0..k).map(move |i| (t as f64).powi(i as i32)))
        .collect();
    let (q, r) = qr(&v, wl, k);
    let mut out = vec![0.0; eval.len() * wl];
    for j in 0..wl {
        // Coefficients (ascending powers) of the fit of the unit vector e_j.
        let mut c = vec![0.0; k];
        for i in (0..k).rev() {
            let s: f64 = (i + 1..k).map(|l| r[i * k + l] * c[l]).sum();
            c[i] = (q[j * k + i] - s) / r[i * k + i];
        }
        for (e, &t) in eval.iter().enumerate() {
            let val: f64 = (deriv..k)
                .map(|p| {
                    let fall: f64 = ((p - deriv + 1)..=p).map(|v| v as f64).product();
                    c[p] * fall * (t as f64).powi((p - deriv) as i32)
                })
                .sum();
            out[e * wl + j] = val / delta.powi(deriv as i32);
        }
    }
    out
}

/// SciPy's `savgol_coeffs(window_length, polyorder)`: the smoothing
/// coefficients (float64, for a convolution), computed on the host.
///
/// ```no_run
/// use gpu_signal::savgol_coeffs;
/// # fn main() -> gpu_array::Result<()> {
/// let c = savgol_coeffs(5, 2)?; // [-3, 12, 17, 12, -3] / 35
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`savgol_coeffs_with`].
pub fn savgol_coeffs(window_length: usize, polyorder: usize) -> Result<Array> {
    savgol_coeffs_with(window_length, polyorder, &SavgolCoeffsOptions::default())
}

/// [`savgol_coeffs`] with SciPy's `deriv=`, `delta=`, `pos=` and `use=`.
///
/// ```no_run
/// use gpu_signal::{SavgolCoeffsOptions, savgol_coeffs_with};
/// # fn main() -> gpu_array::Result<()> {
/// let d = savgol_coeffs_with(7, 3, &SavgolCoeffsOptions::default().deriv(1).delta(0.1))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: `polyorder >= window_length` ("polyorder must be less than
/// window_length."), `pos` outside the window ("pos must be nonnegative
/// and less than window_length.").
pub fn savgol_coeffs_with(
    window_length: usize,
    polyorder: usize,
    opts: &SavgolCoeffsOptions,
) -> Result<Array> {
    let c = savgol_coeffs_host(window_length, polyorder, opts)?;
    Array::from_slice(&c, &[c.len()])
}

/// SciPy's keywords of [`savgol_filter_with`]: `deriv` (0), `delta`
/// (1.0), `axis` (-1), `mode` (interp) and `cval` (0).
///
/// ```
/// use gpu_signal::{SavgolMode, SavgolOptions};
/// let o = SavgolOptions::default().mode(SavgolMode::Nearest).axis(0);
/// assert_eq!((o.mode, o.axis, o.deriv), (SavgolMode::Nearest, 0, 0));
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct SavgolOptions {
    /// The derivative order.
    pub deriv: usize,
    /// The sample spacing.
    pub delta: f64,
    /// The axis of the signals.
    pub axis: isize,
    /// The boundary handling.
    pub mode: SavgolMode,
    /// The value past the ends for [`SavgolMode::Constant`].
    pub cval: f64,
}

impl Default for SavgolOptions {
    fn default() -> Self {
        SavgolOptions {
            deriv: 0,
            delta: 1.0,
            axis: -1,
            mode: SavgolMode::Interp,
            cval: 0.0,
        }
    }
}

impl SavgolOptions {
    /// Sets `deriv`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::SavgolOptions::default().deriv(1).deriv, 1);
    /// ```
    #[must_use]
    pub fn deriv(mut self, deriv: usize) -> Self {
        self.deriv = deriv;
        self
    }

    /// Sets `delta`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::SavgolOptions::default().delta(2.0).delta, 2.0);
    /// ```
    #[must_use]
    pub fn delta(mut self, delta: f64) -> Self {
        self.delta = delta;
        self
    }

    /// Sets `axis`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::SavgolOptions::default().axis(0).axis, 0);
    /// ```
    #[must_use]
    pub fn axis(mut self, axis: isize) -> Self {
        self.axis = axis;
        self
    }

    /// Sets `mode`.
    ///
    /// ```
    /// use gpu_signal::{SavgolMode, SavgolOptions};
    /// assert_eq!(SavgolOptions::default().mode(SavgolMode::Wrap).mode, SavgolMode::Wrap);
    /// ```
    #[must_use]
    pub fn mode(mut self, mode: SavgolMode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets `cval`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::SavgolOptions::default().cval(1.5).cval, 1.5);
    /// ```
    #[must_use]
    pub fn cval(mut self, cval: f64) -> Self {
        self.cval = cval;
        self
    }
}

/// SciPy's `savgol_filter(x, window_length, polyorder)`: Savitzky-Golay
/// smoothing along the last axis, the edges fitted (mode 'interp').
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::savgol_filter;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([1000], DType::Float64)?;
/// let y = savgol_filter(&x, 11, 3)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`savgol_filter_with`].
pub fn savgol_filter(x: &Array, window_length: usize, polyorder: usize) -> Result<Array> {
    savgol_filter_with(x, window_length, polyorder, &SavgolOptions::default())
}

/// [`savgol_filter`] with SciPy's `deriv=`, `delta=`, `axis=`, `mode=` and
/// `cval=`. float32 stays float32; other dtypes give float64.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::{SavgolMode, SavgolOptions, savgol_filter_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([200, 6], DType::Float32)?;
/// let o = SavgolOptions::default().axis(0).mode(SavgolMode::Mirror).deriv(1);
/// let dy = savgol_filter_with(&x, 9, 2, &o)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: those of [`savgol_coeffs_with`]; mode interp with a window
/// longer than the signal ("If mode is 'interp', window_length must be
/// less than or equal to the size of x."); an axis out of range.
pub fn savgol_filter_with(
    x: &Array,
    window_length: usize,
    polyorder: usize,
    opts: &SavgolOptions,
) -> Result<Array> {
    let x = match x.dtype() {
        DType::Float32 | DType::Float64 => x.clone(),
        _ => x.astype(DType::Float64)?,
    };
    let axis = check_axis(opts.axis, x.ndim())?;
    let coeffs = savgol_coeffs_host(
        window_length,
        polyorder,
        &SavgolCoeffsOptions::default()
            .deriv(opts.deriv)
            .delta(opts.delta),
    )?;
    let mode = match opts.mode {
        SavgolMode::Interp | SavgolMode::Constant => Mode::Constant,
        SavgolMode::Mirror => Mode::Mirror,
        SavgolMode::Nearest => Mode::Nearest,
        SavgolMode::Wrap => Mode::Wrap,
    };
    let n = x.shape()[axis];
    if opts.mode == SavgolMode::Interp && window_length > n {
        return Err(Error::Value(
            "If mode is 'interp', window_length must be less than or equal to the size of x."
                .into(),
        ));
    }
    let cval = if opts.mode == SavgolMode::Interp {
        0.0
    } else {
        opts.cval
    };
    let fo = FilterOptions::default().mode(mode).cval(cval);
    let y = gpu_ndimage::convolve1d_with(&x, &coeffs, axis as isize, &fo)?;
    if opts.mode != SavgolMode::Interp {
        return Ok(y);
    }
    let half = window_length / 2;
    if half == 0 {
        return Ok(y);
    }
    let dt = x.dtype();
    let (xr, shape) = to_rows(&x, axis, dt)?;
    let (yr, _) = to_rows(&y, axis, dt)?;
    let signals = xr.shape()[0];
    let fit = |start: usize, eval: Vec<usize>| -> Result<Array> {
        let e = edge_map(window_length, polyorder, opts.deriv, opts.delta, &eval);
        let e = Array::from_slice(&e, &[1, eval.len(), window_length])?.astype(dt)?;
        let win = cols(
            &xr,
            Some(start as isize),
            Some((start + window_length) as isize),
            1,
        )?
        .reshape(&[signals, 1, window_length][..])?;
        let mut o = ReduceOptions::axis(2);
        o.dtype = Some(dt);
        gpu_array::math::sum(&ufunc::multiply(&win, &e)?, o)
    };
    let left = fit(0, (0..half).collect())?;
    let right = fit(
        n - window_length,
        (window_length - half..window_length).collect(),
    )?;
    let mid = cols(&yr, Some(half as isize), Some((n - half) as isize), 1)?;
    let out = gpu_array::manipulation::concatenate(&[&left, &mid, &right], Some(1))?;
    from_rows(&out, &shape, axis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coefficients_are_scipys() {
        // scipy.signal.savgol_coeffs(5, 2) = [-3, 12, 17, 12, -3] / 35.
        let c = savgol_coeffs_host(5, 2, &SavgolCoeffsOptions::default()).unwrap();
        for (g, w) in c.iter().zip([-3.0, 12.0, 17.0, 12.0, -3.0]) {
            assert!((g - w / 35.0).abs() < 1e-15, "{c:?}");
        }
        // savgol_coeffs(5, 2, deriv=1) = [2, 1, 0, -1, -2] / 10 (conv order).
        let c = savgol_coeffs_host(5, 2, &SavgolCoeffsOptions::default().deriv(1)).unwrap();
        for (g, w) in c.iter().zip([2.0, 1.0, 0.0, -1.0, -2.0]) {
            assert!((g - w / 10.0).abs() < 1e-15, "{c:?}");
        }
        assert_eq!(
            savgol_coeffs_host(3, 3, &SavgolCoeffsOptions::default())
                .unwrap_err()
                .to_string(),
            "polyorder must be less than window_length."
        );
        // A polynomial of the fit's order is reproduced by the edge map.
        let e = edge_map(7, 2, 0, 1.0, &[0, 1, 2]);
        let xs: Vec<f64> = (0..7)
            .map(|t| 1.0 + 2.0 * t as f64 - 0.5 * (t * t) as f64)
            .collect();
        for (i, t) in [0.0f64, 1.0, 2.0].iter().enumerate() {
            let v: f64 = (0..7).map(|j| e[i * 7 + j] * xs[j]).sum();
            assert!((v - (1.0 + 2.0 * t - 0.5 * t * t)).abs() < 1e-12);
        }
    }
}
