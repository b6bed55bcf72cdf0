//! SciPy's fast Hankel transforms (`scipy.fft.fht`, `ifht`, `fhtoffset`),
//! Hamilton's FFTLog: the transform of a log-spaced sequence is a
//! convolution, done as a real FFT, a multiply by the coefficients
//!
//! `u_m = 2^q Γ((μ+1+q)/2 + iy_m) / Γ((μ+1-q)/2 - iy_m) · (e^{ln2 - offset})^{2iy_m}`,
//! `y_m = π m / (n dln)`,
//!
//! an inverse real FFT and a reversal. The coefficients are computed on
//! the host in double precision (`n/2 + 1` of them) from a complex
//! log-gamma; the three array steps run on the device.

use num_complex::Complex;

use gpu_array::creation::arange_with;
use gpu_array::layout::AxisIndex;
use gpu_array::{Array, DType, Error, Result, ufunc};

use crate::FftOptions;

type C = Complex<f64>;

/// `ln Γ(z)`: Stirling's series after shifting `z` right by the
/// recurrence `ln Γ(z) = ln Γ(z + 1) - ln z`, each log on its principal
/// branch. Off the real axis that is the analytic continuation from the
/// right half plane along a horizontal line, SciPy's `loggamma` branch;
/// on the negative real axis each negative term adds `iπ`, so the
/// exponential keeps Γ's sign, and a pole gives an infinite real part.
fn ln_gamma(z: C) -> C {
    let mut z = z;
    let mut shift = C::new(0.0, 0.0);
    while z.re < 16.0 {
        shift += z.ln();
        z += 1.0;
    }
    // B_2k / (2k (2k - 1)) for k = 1..8.
    const COEF: [f64; 8] = [
        1.0 / 12.0,
        -1.0 / 360.0,
        1.0 / 1260.0,
        -1.0 / 1680.0,
        1.0 / 1188.0,
        -691.0 / 360360.0,
        1.0 / 156.0,
        -3617.0 / 122400.0,
    ];
    let inv = z.inv();
    let inv2 = inv * inv;
    let mut series = C::new(0.0, 0.0);
    let mut p = inv;
    for c in COEF {
        series += p * c;
        p *= inv2;
    }
    (z - 0.5) * z.ln() - z + 0.5 * (2.0 * std::f64::consts::PI).ln() + series - shift
}

/// Whether `x` is a pole of Γ (0, -1, -2, ...).
fn pole(x: f64) -> bool {
    x <= 0.0 && x == x.floor()
}

/// `Γ(x + m) / Γ(x)` for real arguments, with Γ's poles: infinite when
/// only the numerator has one, zero when only the denominator does.
fn gamma_ratio(num: f64, den: f64) -> f64 {
    match (pole(num), pole(den)) {
        (true, false) => f64::INFINITY,
        (false, true) => 0.0,
        (true, true) => {
            // Γ(-a) / Γ(-b) for whole a, b >= 0: (-1)^(a-b) b! / a!.
            let (a, b) = (-num, -den);
            let mut r = 1.0;
            let (lo, hi) = if a > b { (b, a) } else { (a, b) };
            let mut k = lo + 1.0;
            while k <= hi {
                r *= k;
                k += 1.0;
            }
            let sign = if (a - b).rem_euclid(2.0) == 0.0 {
                1.0
            } else {
                -1.0
            };
            sign * if a > b { 1.0 / r } else { r }
        }
        (false, false) => {
            let l = ln_gamma(C::new(num, 0.0)) - ln_gamma(C::new(den, 0.0));
            l.exp().re
        }
    }
}

/// The FFTLog coefficients of an `n`-point transform (`n/2 + 1` of them).
fn coefficients(n: usize, dln: f64, mu: f64, offset: f64, bias: f64, inverse: bool) -> Vec<C> {
    let (xp, xm) = ((mu + 1.0 + bias) / 2.0, (mu + 1.0 - bias) / 2.0);
    let half = n / 2;
    let ln2 = std::f64::consts::LN_2;
    let mut u: Vec<C> = (0..=half)
        .map(|m| {
            let y = if half == 0 {
                0.0
            } else {
                std::f64::consts::PI * half as f64 / (n as f64 * dln) * m as f64 / half as f64
            };
            let top = ln_gamma(C::new(xp, y));
            let bottom = ln_gamma(C::new(xm, -y));
            (top - bottom + C::new(ln2 * bias, 2.0 * y * (ln2 - offset))).exp()
        })
        .collect();
    if n.is_multiple_of(2) {
        u[half].im = 0.0;
    }
    if !(u[0].re.is_finite() && u[0].im.is_finite()) {
        u[0] = C::new(2f64.powf(bias) * gamma_ratio(xp, xm), 0.0);
    }
    // A singular transform (or inverse) is computed anyway with that
    // coefficient zeroed (made infinite), as SciPy does after its warning.
    if !inverse && u[0].re.is_infinite() {
        u[0] = C::new(0.0, 0.0);
    } else if inverse && u[0] == C::new(0.0, 0.0) {
        u[0] = C::new(f64::INFINITY, 0.0);
    }
    u
}

/// Options of the fast Hankel transforms: SciPy's `offset` and `bias`.
///
/// ```
/// let o = gpu_fft::FhtOptions::new().offset(0.5).bias(-0.3);
/// assert_eq!((o.offset, o.bias), (0.5, -0.3));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[non_exhaustive]
pub struct FhtOptions {
    /// `ln(k_c r_c)`, the offset of the output's log spacing.
    pub offset: f64,
    /// The power-law bias `q`.
    pub bias: f64,
}

impl FhtOptions {
    /// No offset, no bias.
    ///
    /// ```
    /// assert_eq!(gpu_fft::FhtOptions::new().bias, 0.0);
    /// ```
    pub fn new() -> FhtOptions {
        FhtOptions::default()
    }

    /// Sets `offset`.
    ///
    /// ```
    /// assert_eq!(gpu_fft::FhtOptions::new().offset(1.0).offset, 1.0);
    /// ```
    #[must_use]
    pub fn offset(mut self, offset: f64) -> FhtOptions {
        self.offset = offset;
        self
    }

    /// Sets `bias`.
    ///
    /// ```
    /// assert_eq!(gpu_fft::FhtOptions::new().bias(0.5).bias, 0.5);
    /// ```
    #[must_use]
    pub fn bias(mut self, bias: f64) -> FhtOptions {
        self.bias = bias;
        self
    }
}

/// `exp(sign * bias * ((j - (n-1)/2) * dln + shift))` for `j` in `0..n`.
fn bias_weights(n: usize, dln: f64, bias: f64, shift: f64, sign: f64) -> Result<Array> {
    let j = arange_with(0.0, n as f64, 1.0, Some(DType::Float64))?;
    let centred = ufunc::subtract(&j, (n as f64 - 1.0) / 2.0)?;
    let t = ufunc::add(ufunc::multiply(&centred, dln)?, shift)?;
    ufunc::exp(ufunc::multiply(&t, sign * bias)?)
}

fn hankel(a: &Array, dln: f64, mu: f64, o: &FhtOptions, inverse: bool) -> Result<Array> {
    if a.dtype().is_complex() {
        return Err(Error::DType("fht takes a real array".into()));
    }
    if a.ndim() == 0 {
        return Err(Error::Value("fht needs at least one dimension".into()));
    }
    let n = a.shape()[a.ndim() - 1];
    if n == 0 {
        return Err(Error::Value(
            "Invalid number of FFT data points (0) specified.".into(),
        ));
    }
    let rdt = match a.dtype() {
        DType::Float16 | DType::Float32 => DType::Float32,
        _ => DType::Float64,
    };
    let cdt = if rdt == DType::Float32 {
        DType::Complex64
    } else {
        DType::Complex128
    };
    let biased = o.bias != 0.0;
    // The input's bias: a (r/r_c)^{-q}, or A (k/k_c)^{q} (k_c r_c)^{q}.
    let x = match (biased, inverse) {
        (false, _) => crate::cast::in_dtype(a, rdt)?,
        (true, false) => crate::cast::scaled(a, &bias_weights(n, dln, o.bias, 0.0, -1.0)?, rdt)?,
        (true, true) => crate::cast::scaled(a, &bias_weights(n, dln, o.bias, o.offset, 1.0)?, rdt)?,
    };
    let u = coefficients(n, dln, mu, o.offset, o.bias, inverse);
    let u = Array::from_slice(&u, &[u.len()])?.astype(cdt)?;
    let spectrum = crate::rfft(&x)?;
    let weighted = if inverse {
        ufunc::divide(&spectrum, &ufunc::conjugate(&u)?)?
    } else {
        ufunc::multiply(&spectrum, &u)?
    };
    let back = crate::irfft_with(
        &crate::cast::in_dtype(&weighted, cdt)?,
        &FftOptions::new().n(n),
    )?;
    let mut rev = vec![AxisIndex::FULL; back.ndim()];
    rev[back.ndim() - 1] = AxisIndex::Slice {
        start: None,
        stop: None,
        step: -1,
    };
    let out = back.slice(&rev)?;
    // The output's bias.
    let out = match (biased, inverse) {
        (false, _) => out,
        (true, false) => ufunc::multiply(&out, &bias_weights(n, dln, o.bias, o.offset, -1.0)?)?,
        (true, true) => ufunc::multiply(&out, &bias_weights(n, dln, o.bias, 0.0, 1.0)?)?,
    };
    crate::cast::in_dtype(&out, rdt)
}

/// SciPy's `fft.fht(a, dln, mu)`: the fast Hankel transform of order
/// `mu` of the log-spaced `a` (last axis, spacing `dln`).
///
/// ```no_run
/// # fn main() -> gpu_fft::Result<()> {
/// let r = gpu_array::creation::logspace(-4.0, 4.0, 128)?;
/// let a = gpu_array::ufunc::exp(gpu_array::ufunc::negative(gpu_array::ufunc::square(&r)?)?)?;
/// let dln = (8.0 / 127.0) * std::f64::consts::LN_10;
/// let ak = gpu_fft::fht(&a, dln, 0.0)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// A complex or 0-d input, an empty last axis; cuFFT or the device failed.
pub fn fht(a: &Array, dln: f64, mu: f64) -> Result<Array> {
    hankel(a, dln, mu, &FhtOptions::default(), false)
}

/// [`fht`] with SciPy's `offset` and `bias`.
///
/// ```no_run
/// # fn main() -> gpu_fft::Result<()> {
/// let a = gpu_array::creation::ones(64, gpu_array::DType::Float64)?;
/// let o = gpu_fft::FhtOptions::new().offset(gpu_fft::fhtoffset(0.1, 0.5, 0.0, 0.0)).bias(0.2);
/// let ak = gpu_fft::fht_with(&a, 0.1, 0.5, &o)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`fht`].
pub fn fht_with(a: &Array, dln: f64, mu: f64, options: &FhtOptions) -> Result<Array> {
    hankel(a, dln, mu, options, false)
}

/// SciPy's `fft.ifht(A, dln, mu)`: the inverse of [`fht`].
///
/// ```no_run
/// # fn main() -> gpu_fft::Result<()> {
/// let a = gpu_array::creation::ones(64, gpu_array::DType::Float64)?;
/// let back = gpu_fft::ifht(&gpu_fft::fht(&a, 0.1, 0.5)?, 0.1, 0.5)?; // a again
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`fht`].
pub fn ifht(a: &Array, dln: f64, mu: f64) -> Result<Array> {
    hankel(a, dln, mu, &FhtOptions::default(), true)
}

/// [`ifht`] with SciPy's `offset` and `bias`.
///
/// ```no_run
/// # fn main() -> gpu_fft::Result<()> {
/// let a = gpu_array::creation::ones(64, gpu_array::DType::Float64)?;
/// let back = gpu_fft::ifht_with(&a, 0.1, 0.5, &gpu_fft::FhtOptions::new().bias(0.1))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`fht`].
pub fn ifht_with(a: &Array, dln: f64, mu: f64, options: &FhtOptions) -> Result<Array> {
    hankel(a, dln, mu, options, true)
}

/// SciPy's `fft.fhtoffset(dln, mu, initial, bias)`: the offset nearest
/// `initial` that meets FFTLog's low-ringing condition.
///
/// ```
/// let o = gpu_fft::fhtoffset(0.1, 2.0, 0.5, 0.0);
/// assert!((o - 0.5454581477676637).abs() < 1e-12); // SciPy's docs
/// ```
pub fn fhtoffset(dln: f64, mu: f64, initial: f64, bias: f64) -> f64 {
    let (xp, xm) = ((mu + 1.0 + bias) / 2.0, (mu + 1.0 - bias) / 2.0);
    let y = std::f64::consts::PI / (2.0 * dln);
    let zp = ln_gamma(C::new(xp, y));
    let zm = ln_gamma(C::new(xm, y));
    let arg = (std::f64::consts::LN_2 - initial) / dln + (zp.im + zm.im) / std::f64::consts::PI;
    initial + (arg - arg.round()) * dln
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_gamma_matches_known_values() {
        // Γ(5) = 24, Γ(1/2) = sqrt(π), |Γ(1 + i)|^2 = π / sinh(π).
        assert!((ln_gamma(C::new(5.0, 0.0)).exp().re - 24.0).abs() < 1e-12);
        assert!((ln_gamma(C::new(0.5, 0.0)).exp().re - std::f64::consts::PI.sqrt()).abs() < 1e-13);
        let g = ln_gamma(C::new(1.0, 1.0)).exp();
        let want = std::f64::consts::PI / std::f64::consts::PI.sinh();
        assert!((g.norm_sqr() - want).abs() < 1e-13);
        // Γ(-0.5) = -2 sqrt(π), its sign through the imaginary part.
        let g = ln_gamma(C::new(-0.5, 0.0)).exp();
        assert!(
            (g.re + 2.0 * std::f64::consts::PI.sqrt()).abs() < 1e-12,
            "{g}"
        );
    }

    /// Parameters from a golden name `...__n=64__dln=0.1__...`.
    fn params(name: &str) -> std::collections::HashMap<String, f64> {
        name.trim_end_matches(".y")
            .split("__")
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), v.parse().unwrap()))
            .collect()
    }

    /// Host: the coefficients and offsets equal SciPy's (its private
    /// `fhtcoeff`, stored in the golden file beside the transforms).
    #[test]
    fn coefficients_and_offsets_match_scipy() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/testdata/fft/realtrig_golden.npz"
        );
        let members = gpu_array::npy::load_npz(path).unwrap();
        let mut seen = (0, 0);
        for (name, arr) in &members {
            if !name.starts_with("fhtcoeff__") && !name.starts_with("fhtoffset__") {
                continue;
            }
            let p = params(name);
            let vals: Vec<f64> = arr
                .data
                .chunks_exact(8)
                .map(|b| f64::from_le_bytes(b.try_into().unwrap()))
                .collect();
            if name.starts_with("fhtcoeff__") {
                let u = coefficients(
                    p["n"] as usize,
                    p["dln"],
                    p["mu"],
                    p["offset"],
                    p["bias"],
                    p["inverse"] == 1.0,
                );
                assert_eq!(u.len() * 2, vals.len(), "{name}");
                for (k, (g, w)) in u.iter().zip(vals.chunks_exact(2)).enumerate() {
                    let w = C::new(w[0], w[1]);
                    let ok = if w.re.is_infinite() {
                        g.re.is_infinite()
                    } else {
                        (g - w).norm() <= 1e-12 * (1.0 + w.norm())
                    };
                    assert!(ok, "{name}[{k}]: {g} vs {w}");
                }
                seen.0 += 1;
            } else if name.starts_with("fhtoffset__") {
                let got = fhtoffset(p["dln"], p["mu"], p["initial"], p["bias"]);
                assert!(
                    (got - vals[0]).abs() < 1e-12,
                    "{name}: {got} vs {}",
                    vals[0]
                );
                seen.1 += 1;
            }
        }
        assert_eq!(seen, (10, 3));
    }

    #[test]
    fn gamma_ratios_at_poles() {
        assert_eq!(gamma_ratio(-1.0, 0.5), f64::INFINITY);
        assert_eq!(gamma_ratio(0.5, -2.0), 0.0);
        // Γ(-2)/Γ(-1) = -1/2; Γ(3)/Γ(2) = 2.
        assert!((gamma_ratio(-2.0, -1.0) + 0.5).abs() < 1e-15);
        assert!((gamma_ratio(3.0, 2.0) - 2.0).abs() < 1e-13);
    }
}
