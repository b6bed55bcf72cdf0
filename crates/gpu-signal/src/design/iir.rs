//! IIR filter design (`scipy.signal._filter_design`): the analog lowpass
//! prototypes (Butterworth, Chebyshev I and II, elliptic, Bessel), the
//! frequency transformations, the bilinear transform, and `iirfilter`
//! with its named forms. Host float64 throughout.

use gpu_array::{Array, Error, Result};
use num_complex::Complex64;
use std::f64::consts::PI;

use super::ellip::{arc_jac_sc1, ellipdeg, ellipj, ellipk};
use super::linalg::roots;
use super::zpk::{Zpk, upload_real, upload_zpk};

const ZERO: Complex64 = Complex64::new(0.0, 0.0);

/// The band of [`iirfilter_with`] and the named designs (SciPy's
/// `btype=`, any of its spellings: "low", "lowpass", "l", "lp", ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BandType {
    /// Pass below the critical frequency.
    #[default]
    Lowpass,
    /// Pass above it.
    Highpass,
    /// Pass between the two critical frequencies.
    Bandpass,
    /// Stop between them.
    Bandstop,
}

impl std::str::FromStr for BandType {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        Ok(match s.to_lowercase().as_str() {
            "band" | "bandpass" | "pass" | "bp" => BandType::Bandpass,
            "bs" | "bandstop" | "bands" | "stop" => BandType::Bandstop,
            "l" | "low" | "lowpass" | "lp" => BandType::Lowpass,
            "high" | "highpass" | "h" | "hp" => BandType::Highpass,
            _ => {
                return Err(Error::Value(format!(
                    "'{s}' is an invalid bandtype for filter."
                )));
            }
        })
    }
}

/// The normalization of a Bessel filter (SciPy's `norm=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BesselNorm {
    /// Phase response midpoint at the critical frequency.
    #[default]
    Phase,
    /// Group delay `1 / Wn` in the passband.
    Delay,
    /// Gain -3 dB at the critical frequency.
    Mag,
}

gpu_array::from_numpy_str! {
    BesselNorm, Error,
    else: |_s| Error::Value("normalization not understood".into()),
    { "phase" => BesselNorm::Phase, "delay" => BesselNorm::Delay, "mag" => BesselNorm::Mag }
}

/// The family of [`iirfilter_with`] (SciPy's `ftype=`, any of its names:
/// "butter", "cheby1", "chebyshevi", "ellip", "cauer", "bessel_delay", ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FilterType {
    /// Butterworth: maximally flat.
    #[default]
    Butter,
    /// Chebyshev type I: equiripple passband (`rp` needed).
    Cheby1,
    /// Chebyshev type II: equiripple stopband (`rs` needed).
    Cheby2,
    /// Elliptic (Cauer): both equiripple (`rp` and `rs` needed).
    Ellip,
    /// Bessel/Thomson: maximally flat group delay.
    Bessel(BesselNorm),
}

impl std::str::FromStr for FilterType {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        Ok(match s.to_lowercase().as_str() {
            "butter" | "butterworth" => FilterType::Butter,
            "cauer" | "elliptic" | "ellip" => FilterType::Ellip,
            "bessel" | "bessel_phase" => FilterType::Bessel(BesselNorm::Phase),
            "bessel_delay" => FilterType::Bessel(BesselNorm::Delay),
            "bessel_mag" => FilterType::Bessel(BesselNorm::Mag),
            "cheby1" | "chebyshev1" | "chebyshevi" => FilterType::Cheby1,
            "cheby2" | "chebyshev2" | "chebyshevii" => FilterType::Cheby2,
            _ => {
                return Err(Error::Value(format!(
                    "'{s}' is not a valid basic IIR filter."
                )));
            }
        })
    }
}

/// The form a design is returned in (SciPy's `output=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Output {
    /// Numerator and denominator polynomials.
    #[default]
    Ba,
    /// Zeros, poles and gain.
    Zpk,
    /// Second-order sections.
    Sos,
}

impl std::str::FromStr for Output {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        Ok(match s.to_lowercase().as_str() {
            "ba" => Output::Ba,
            "zpk" => Output::Zpk,
            "sos" => Output::Sos,
            _ => {
                return Err(Error::Value(format!("'{s}' is not a valid output form.")));
            }
        })
    }
}

/// A designed filter in the form asked for: device arrays made from the
/// host design (float64; zeros and poles complex128).
#[derive(Debug, Clone)]
pub enum Filter {
    /// Numerator `b` and denominator `a`.
    Ba(Array, Array),
    /// Zeros, poles and gain.
    Zpk(Array, Array, f64),
    /// Second-order sections, `(n_sections, 6)`.
    Sos(Array),
}

impl Filter {
    fn form(&self) -> &'static str {
        match self {
            Filter::Ba(..) => "ba",
            Filter::Zpk(..) => "zpk",
            Filter::Sos(_) => "sos",
        }
    }

    /// The `(b, a)` of a [`Filter::Ba`].
    ///
    /// ```no_run
    /// use gpu_signal::{IirOptions, butter_with};
    /// # fn main() -> gpu_array::Result<()> {
    /// let (b, a) = butter_with(2, &[0.3], &IirOptions::default())?.into_ba()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The filter is in another form (`Value`).
    pub fn into_ba(self) -> Result<(Array, Array)> {
        match self {
            Filter::Ba(b, a) => Ok((b, a)),
            f => Err(Error::Value(format!(
                "the filter is in '{}' form, not 'ba'",
                f.form()
            ))),
        }
    }

    /// The `(z, p, k)` of a [`Filter::Zpk`].
    ///
    /// ```no_run
    /// use gpu_signal::{IirOptions, Output, butter_with};
    /// # fn main() -> gpu_array::Result<()> {
    /// let o = IirOptions::default().output(Output::Zpk);
    /// let (z, p, k) = butter_with(2, &[0.3], &o)?.into_zpk()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The filter is in another form (`Value`).
    pub fn into_zpk(self) -> Result<(Array, Array, f64)> {
        match self {
            Filter::Zpk(z, p, k) => Ok((z, p, k)),
            f => Err(Error::Value(format!(
                "the filter is in '{}' form, not 'zpk'",
                f.form()
            ))),
        }
    }

    /// The sections of a [`Filter::Sos`].
    ///
    /// ```no_run
    /// use gpu_signal::{IirOptions, Output, butter_with};
    /// # fn main() -> gpu_array::Result<()> {
    /// let sos = butter_with(4, &[0.3], &IirOptions::default().output(Output::Sos))?.into_sos()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The filter is in another form (`Value`).
    pub fn into_sos(self) -> Result<Array> {
        match self {
            Filter::Sos(s) => Ok(s),
            f => Err(Error::Value(format!(
                "the filter is in '{}' form, not 'sos'",
                f.form()
            ))),
        }
    }
}

/// SciPy's keywords of the named IIR designs ([`butter_with`],
/// [`cheby1_with`], [`cheby2_with`], [`ellip_with`], [`bessel_with`]):
/// `btype` (lowpass), `analog` (false), `output` (ba), `fs` (none:
/// frequencies relative to Nyquist) and, for [`bessel_with`] only,
/// `norm` (phase).
///
/// ```
/// use gpu_signal::{BandType, IirOptions, Output};
/// let o = IirOptions::default().btype(BandType::Highpass).output(Output::Sos).fs(Some(1000.0));
/// assert_eq!((o.btype, o.output, o.fs, o.analog), (BandType::Highpass, Output::Sos, Some(1000.0), false));
/// ```
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct IirOptions {
    /// The band.
    pub btype: BandType,
    /// An analog filter (frequencies in rad/s) rather than digital.
    pub analog: bool,
    /// The form returned.
    pub output: Output,
    /// The sampling frequency of a digital filter.
    pub fs: Option<f64>,
    /// The Bessel normalization ([`bessel_with`] only).
    pub norm: BesselNorm,
}

impl IirOptions {
    /// Sets `btype`.
    ///
    /// ```
    /// use gpu_signal::{BandType, IirOptions};
    /// assert_eq!(IirOptions::default().btype(BandType::Bandstop).btype, BandType::Bandstop);
    /// ```
    #[must_use]
    pub fn btype(mut self, btype: BandType) -> Self {
        self.btype = btype;
        self
    }

    /// Sets `analog`.
    ///
    /// ```
    /// assert!(gpu_signal::IirOptions::default().analog(true).analog);
    /// ```
    #[must_use]
    pub fn analog(mut self, analog: bool) -> Self {
        self.analog = analog;
        self
    }

    /// Sets `output`.
    ///
    /// ```
    /// use gpu_signal::{IirOptions, Output};
    /// assert_eq!(IirOptions::default().output(Output::Zpk).output, Output::Zpk);
    /// ```
    #[must_use]
    pub fn output(mut self, output: Output) -> Self {
        self.output = output;
        self
    }

    /// Sets `fs`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::IirOptions::default().fs(Some(48e3)).fs, Some(48e3));
    /// ```
    #[must_use]
    pub fn fs(mut self, fs: Option<f64>) -> Self {
        self.fs = fs;
        self
    }

    /// Sets `norm` (read by [`bessel_with`] only).
    ///
    /// ```
    /// use gpu_signal::{BesselNorm, IirOptions};
    /// assert_eq!(IirOptions::default().norm(BesselNorm::Mag).norm, BesselNorm::Mag);
    /// ```
    #[must_use]
    pub fn norm(mut self, norm: BesselNorm) -> Self {
        self.norm = norm;
        self
    }
}

/// SciPy's keywords of [`iirfilter_with`]: those of [`IirOptions`] (with
/// SciPy's default band here: bandpass) plus `ftype` (butter), `rp` and
/// `rs` (the passband ripple and stopband attenuation in dB, as the
/// family needs).
///
/// ```
/// use gpu_signal::{FilterType, IirFilterOptions};
/// let o = IirFilterOptions::default().ftype(FilterType::Ellip).rp(Some(1.0)).rs(Some(40.0));
/// assert_eq!((o.ftype, o.rp, o.rs), (FilterType::Ellip, Some(1.0), Some(40.0)));
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct IirFilterOptions {
    /// Passband ripple in dB (Chebyshev I, elliptic).
    pub rp: Option<f64>,
    /// Stopband attenuation in dB (Chebyshev II, elliptic).
    pub rs: Option<f64>,
    /// The band (default bandpass, as SciPy's `iirfilter`).
    pub btype: BandType,
    /// An analog filter rather than digital.
    pub analog: bool,
    /// The family.
    pub ftype: FilterType,
    /// The form returned.
    pub output: Output,
    /// The sampling frequency of a digital filter.
    pub fs: Option<f64>,
}

impl Default for IirFilterOptions {
    fn default() -> Self {
        IirFilterOptions {
            rp: None,
            rs: None,
            btype: BandType::Bandpass,
            analog: false,
            ftype: FilterType::Butter,
            output: Output::Ba,
            fs: None,
        }
    }
}

impl IirFilterOptions {
    /// Sets `rp`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::IirFilterOptions::default().rp(Some(0.5)).rp, Some(0.5));
    /// ```
    #[must_use]
    pub fn rp(mut self, rp: Option<f64>) -> Self {
        self.rp = rp;
        self
    }

    /// Sets `rs`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::IirFilterOptions::default().rs(Some(60.0)).rs, Some(60.0));
    /// ```
    #[must_use]
    pub fn rs(mut self, rs: Option<f64>) -> Self {
        self.rs = rs;
        self
    }

    /// Sets `btype`.
    ///
    /// ```
    /// use gpu_signal::{BandType, IirFilterOptions};
    /// assert_eq!(IirFilterOptions::default().btype(BandType::Lowpass).btype, BandType::Lowpass);
    /// ```
    #[must_use]
    pub fn btype(mut self, btype: BandType) -> Self {
        self.btype = btype;
        self
    }

    /// Sets `analog`.
    ///
    /// ```
    /// assert!(gpu_signal::IirFilterOptions::default().analog(true).analog);
    /// ```
    #[must_use]
    pub fn analog(mut self, analog: bool) -> Self {
        self.analog = analog;
        self
    }

    /// Sets `ftype`.
    ///
    /// ```
    /// use gpu_signal::{FilterType, IirFilterOptions};
    /// assert_eq!(IirFilterOptions::default().ftype(FilterType::Cheby2).ftype, FilterType::Cheby2);
    /// ```
    #[must_use]
    pub fn ftype(mut self, ftype: FilterType) -> Self {
        self.ftype = ftype;
        self
    }

    /// Sets `output`.
    ///
    /// ```
    /// use gpu_signal::{IirFilterOptions, Output};
    /// assert_eq!(IirFilterOptions::default().output(Output::Sos).output, Output::Sos);
    /// ```
    #[must_use]
    pub fn output(mut self, output: Output) -> Self {
        self.output = output;
        self
    }

    /// Sets `fs`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::IirFilterOptions::default().fs(Some(2e3)).fs, Some(2e3));
    /// ```
    #[must_use]
    pub fn fs(mut self, fs: Option<f64>) -> Self {
        self.fs = fs;
        self
    }
}

/// The whole specification of a design on the host.
#[derive(Debug, Clone, Copy)]
pub(crate) struct IirSpec {
    pub rp: Option<f64>,
    pub rs: Option<f64>,
    pub btype: BandType,
    pub analog: bool,
    pub ftype: FilterType,
    pub fs: Option<f64>,
}

impl IirSpec {
    /// A digital Chebyshev I lowpass of ripple `rp` (decimate's filter).
    pub fn cheby1(rp: f64) -> IirSpec {
        IirSpec {
            rp: Some(rp),
            rs: None,
            btype: BandType::Lowpass,
            analog: false,
            ftype: FilterType::Cheby1,
            fs: None,
        }
    }

    fn from_filter_options(o: &IirFilterOptions) -> IirSpec {
        IirSpec {
            rp: o.rp,
            rs: o.rs,
            btype: o.btype,
            analog: o.analog,
            ftype: o.ftype,
            fs: o.fs,
        }
    }
}

/// SciPy's `buttap`.
pub(crate) fn buttap(n: usize) -> Zpk {
    let p = (0..n)
        .map(|i| {
            let m = -(n as f64) + 1.0 + 2.0 * i as f64;
            -Complex64::new(0.0, PI * m / (2.0 * n as f64)).exp()
        })
        .collect();
    Zpk {
        z: Vec::new(),
        p,
        k: 1.0,
    }
}

/// SciPy's `cheb1ap`.
pub(crate) fn cheb1ap(n: usize, rp: f64) -> Zpk {
    if n == 0 {
        return Zpk {
            z: Vec::new(),
            p: Vec::new(),
            k: 10f64.powf(-rp / 20.0),
        };
    }
    let eps = (10f64.powf(0.1 * rp) - 1.0).sqrt();
    let mu = 1.0 / n as f64 * (1.0 / eps).asinh();
    let p: Vec<Complex64> = (0..n)
        .map(|i| {
            let m = -(n as f64) + 1.0 + 2.0 * i as f64;
            let theta = PI * m / (2.0 * n as f64);
            -Complex64::new(mu, theta).sinh()
        })
        .collect();
    let mut k = p.iter().map(|v| -v).product::<Complex64>().re;
    if n.is_multiple_of(2) {
        k /= (1.0 + eps * eps).sqrt();
    }
    Zpk {
        z: Vec::new(),
        p,
        k,
    }
}

/// SciPy's `cheb2ap`.
pub(crate) fn cheb2ap(n: usize, rs: f64) -> Zpk {
    if n == 0 {
        return Zpk {
            z: Vec::new(),
            p: Vec::new(),
            k: 1.0,
        };
    }
    let de = 1.0 / (10f64.powf(0.1 * rs) - 1.0).sqrt();
    let mu = (1.0 / de).asinh() / n as f64;
    let nf = n as f64;
    let ms: Vec<f64> = if n % 2 == 1 {
        (0..n)
            .map(|i| -nf + 1.0 + 2.0 * i as f64)
            .filter(|&m| m != 0.0)
            .collect()
    } else {
        (0..n).map(|i| -nf + 1.0 + 2.0 * i as f64).collect()
    };
    let z: Vec<Complex64> = ms
        .iter()
        .map(|&m| Complex64::new(0.0, 1.0) / (m * PI / (2.0 * nf)).sin())
        .collect();
    let p: Vec<Complex64> = (0..n)
        .map(|i| {
            let m = -nf + 1.0 + 2.0 * i as f64;
            -1.0 / Complex64::new(mu, PI * m / (2.0 * nf)).sinh()
        })
        .collect();
    let k = (p.iter().map(|v| -v).product::<Complex64>()
        / z.iter().map(|v| -v).product::<Complex64>())
    .re;
    Zpk { z, p, k }
}

/// SciPy's `ellipap`.
pub(crate) fn ellipap(n: usize, rp: f64, rs: f64) -> Result<Zpk> {
    let pow10m1 = |x: f64| (std::f64::consts::LN_10 * x).exp_m1();
    if n == 0 {
        return Ok(Zpk {
            z: Vec::new(),
            p: Vec::new(),
            k: 10f64.powf(-rp / 20.0),
        });
    }
    if n == 1 {
        let p = -(1.0 / pow10m1(0.1 * rp)).sqrt();
        return Ok(Zpk {
            z: Vec::new(),
            p: vec![Complex64::new(p, 0.0)],
            k: -p,
        });
    }
    let eps_sq = pow10m1(0.1 * rp);
    let eps = eps_sq.sqrt();
    let ck1_sq = eps_sq / pow10m1(0.1 * rs);
    if ck1_sq == 0.0 {
        return Err(Error::Value(
            "Cannot design a filter with given rp and rs specifications.".into(),
        ));
    }
    let val0 = ellipk(ck1_sq);
    let m = ellipdeg(n, ck1_sq);
    let capk = ellipk(m);
    let js: Vec<f64> = ((1 - n % 2)..n).step_by(2).map(|j| j as f64).collect();
    let scd: Vec<(f64, f64, f64)> = js.iter().map(|&j| ellipj(j * capk / n as f64, m)).collect();
    const EPSILON: f64 = 2e-16;
    let mut z: Vec<Complex64> = scd
        .iter()
        .filter(|(s, _, _)| s.abs() > EPSILON)
        .map(|(s, _, _)| Complex64::new(0.0, 1.0 / (m.sqrt() * s)))
        .collect();
    let zc: Vec<Complex64> = z.iter().map(|v| v.conj()).collect();
    z.extend(zc);
    let r = arc_jac_sc1(1.0 / eps, ck1_sq)
        .ok_or_else(|| Error::Value("ellipap: the Landen transformation failed".into()))?;
    let v0 = capk * r / (n as f64 * val0);
    let (sv, cv, dv) = ellipj(v0, 1.0 - m);
    let mut p: Vec<Complex64> = scd
        .iter()
        .map(|&(s, c, d)| -Complex64::new(c * d * sv * cv, s * dv) / (1.0 - (d * sv).powi(2)))
        .collect();
    if n % 2 == 1 {
        let norm = p.iter().map(|v| v.norm_sqr()).sum::<f64>().sqrt();
        let extra: Vec<Complex64> = p
            .iter()
            .filter(|v| v.im.abs() > EPSILON * norm)
            .map(|v| v.conj())
            .collect();
        p.extend(extra);
    } else {
        let extra: Vec<Complex64> = p.iter().map(|v| v.conj()).collect();
        p.extend(extra);
    }
    let mut k = (p.iter().map(|v| -v).product::<Complex64>()
        / z.iter().map(|v| -v).product::<Complex64>())
    .re;
    if n.is_multiple_of(2) {
        k /= (1.0 + eps_sq).sqrt();
    }
    Ok(Zpk { z, p, k })
}

/// SciPy's `_bessel_poly(n)`: entry `k` is `(2n - k)! / (2^(n-k) k!
/// (n - k)!)`, the coefficient of `s^k` of the reverse Bessel polynomial,
/// in float64 (exact while the values fit 53 bits, rounded beyond).
fn bessel_poly(n: usize) -> Vec<f64> {
    // a_k = (2n - k)! / (2^(n-k) k! (n-k)!), k = 0..=n: the coefficient
    // of x^(n-k) in SciPy's order; by the ratio a_{k+1} / a_k.
    let mut out = Vec::with_capacity(n + 1);
    // a_0 = (2n)! / (2^n n!)
    let mut a0 = 1.0f64;
    for i in (n + 1)..=(2 * n) {
        a0 *= i as f64;
    }
    a0 /= 2f64.powi(n as i32);
    let mut a = a0;
    for k in 0..=n {
        out.push(a);
        if k < n {
            // a_{k+1} = a_k * 2 (n - k) / ((2n - k) (k + 1))
            a = a * 2.0 * (n - k) as f64 / (((2 * n - k) * (k + 1)) as f64);
        }
    }
    out
}

/// SciPy's `besselap`: the poles are the reciprocals of the roots of the
/// Bessel polynomial (found here by the host root finder and polished,
/// where SciPy iterates on a Bessel function from Campos' estimates).
pub(crate) fn besselap(n: usize, norm: BesselNorm) -> Result<Zpk> {
    if n == 0 {
        return Ok(Zpk {
            z: Vec::new(),
            p: Vec::new(),
            k: 1.0,
        });
    }
    // c[k]: the coefficient of s^k of the reverse Bessel polynomial
    // theta_n(s) = s^n y_n(1 / s), whose roots are SciPy's poles.
    let c = bessel_poly(n);
    let poly: Vec<Complex64> = c.iter().rev().map(|&v| Complex64::new(v, 0.0)).collect();
    let mut x = roots(&poly);
    // Average conjugates so the set is exactly symmetric (as SciPy).
    x.sort_by(|a, b| a.im.total_cmp(&b.im).then(a.re.total_cmp(&b.re)));
    let xr: Vec<Complex64> = x.iter().rev().map(|v| v.conj()).collect();
    let mut p: Vec<Complex64> = x.iter().zip(&xr).map(|(a, b)| (a + b) / 2.0).collect();
    let a_last = c[0];
    let k = match norm {
        BesselNorm::Delay => a_last,
        BesselNorm::Mag => {
            let f = norm_factor(&p, a_last)?;
            for v in &mut p {
                *v /= f;
            }
            f.powi(-(n as i32)) * a_last
        }
        BesselNorm::Phase => {
            let s = 10f64.powf(-a_last.log10() / n as f64);
            for v in &mut p {
                *v *= s;
            }
            1.0
        }
    };
    Ok(Zpk {
        z: Vec::new(),
        p,
        k,
    })
}

/// SciPy's `_norm_factor`: the frequency where the gain `|k / prod(jw -
/// p)|` is `1 / sqrt(2)`, by SciPy's secant iteration from 1.5.
fn norm_factor(p: &[Complex64], k: f64) -> Result<f64> {
    let g = |w: f64| {
        (k / p
            .iter()
            .map(|&pi| Complex64::new(0.0, w) - pi)
            .product::<Complex64>())
        .norm()
            - 1.0 / 2f64.sqrt()
    };
    // scipy.optimize.newton without a derivative: the secant method.
    let (mut p0, mut p1) = (1.5f64, 1.5 * (1.0 + 1e-4) + 1e-4);
    let (mut q0, mut q1) = (g(p0), g(p1));
    if q1.abs() < q0.abs() {
        std::mem::swap(&mut p0, &mut p1);
        std::mem::swap(&mut q0, &mut q1);
    }
    for _ in 0..50 {
        let pn = if q1 == q0 {
            (p1 + p0) / 2.0
        } else if q1.abs() > q0.abs() {
            (-q0 / q1 * p1 + p0) / (1.0 - q0 / q1)
        } else {
            (-q1 / q0 * p0 + p1) / (1.0 - q1 / q0)
        };
        if (pn - p1).abs() < 1.48e-8 {
            return Ok(pn);
        }
        p0 = p1;
        q0 = q1;
        p1 = pn;
        q1 = g(p1);
    }
    Err(Error::NumpyRuntime(format!(
        "Failed to converge after 50 iterations, value is {p1}"
    )))
}

fn relative_degree(f: &Zpk) -> Result<usize> {
    f.p.len().checked_sub(f.z.len()).ok_or_else(|| {
        Error::Value(
            "Improper transfer function. Must have at least as many poles as zeros.".into(),
        )
    })
}

/// SciPy's `lp2lp_zpk`.
pub(crate) fn lp2lp(f: Zpk, wo: f64) -> Result<Zpk> {
    let d = relative_degree(&f)?;
    Ok(Zpk {
        z: f.z.iter().map(|v| v * wo).collect(),
        p: f.p.iter().map(|v| v * wo).collect(),
        k: f.k * wo.powi(d as i32),
    })
}

/// SciPy's `lp2hp_zpk`.
pub(crate) fn lp2hp(f: Zpk, wo: f64) -> Result<Zpk> {
    let d = relative_degree(&f)?;
    let mut z: Vec<Complex64> = f.z.iter().map(|v| wo / v).collect();
    z.extend(std::iter::repeat_n(ZERO, d));
    let k = f.k
        * (f.z.iter().map(|v| -v).product::<Complex64>()
            / f.p.iter().map(|v| -v).product::<Complex64>())
        .re;
    Ok(Zpk {
        z,
        p: f.p.iter().map(|v| wo / v).collect(),
        k,
    })
}

/// Both shifts `v ± sqrt(v^2 - wo^2)` of each value, SciPy's order.
fn shifts(v: &[Complex64], wo: f64) -> Vec<Complex64> {
    let r: Vec<Complex64> = v.iter().map(|x| (x * x - wo * wo).sqrt()).collect();
    let mut out: Vec<Complex64> = v.iter().zip(&r).map(|(x, s)| x + s).collect();
    out.extend(v.iter().zip(&r).map(|(x, s)| x - s));
    out
}

/// SciPy's `lp2bp_zpk`.
pub(crate) fn lp2bp(f: Zpk, wo: f64, bw: f64) -> Result<Zpk> {
    let d = relative_degree(&f)?;
    let zl: Vec<Complex64> = f.z.iter().map(|v| v * bw / 2.0).collect();
    let pl: Vec<Complex64> = f.p.iter().map(|v| v * bw / 2.0).collect();
    let mut z = shifts(&zl, wo);
    z.extend(std::iter::repeat_n(ZERO, d));
    Ok(Zpk {
        z,
        p: shifts(&pl, wo),
        k: f.k * bw.powi(d as i32),
    })
}

/// SciPy's `lp2bs_zpk`.
pub(crate) fn lp2bs(f: Zpk, wo: f64, bw: f64) -> Result<Zpk> {
    let d = relative_degree(&f)?;
    let zh: Vec<Complex64> = f.z.iter().map(|v| (bw / 2.0) / v).collect();
    let ph: Vec<Complex64> = f.p.iter().map(|v| (bw / 2.0) / v).collect();
    let mut z = shifts(&zh, wo);
    z.extend(std::iter::repeat_n(Complex64::new(0.0, wo), d));
    z.extend(std::iter::repeat_n(Complex64::new(0.0, -wo), d));
    let k = f.k
        * (f.z.iter().map(|v| -v).product::<Complex64>()
            / f.p.iter().map(|v| -v).product::<Complex64>())
        .re;
    Ok(Zpk {
        z,
        p: shifts(&ph, wo),
        k,
    })
}

/// SciPy's `bilinear_zpk`.
pub(crate) fn bilinear(f: Zpk, fs: f64) -> Result<Zpk> {
    let d = relative_degree(&f)?;
    let fs2 = 2.0 * fs;
    let mut z: Vec<Complex64> = f.z.iter().map(|v| (fs2 + v) / (fs2 - v)).collect();
    z.extend(std::iter::repeat_n(Complex64::new(-1.0, 0.0), d));
    let k = f.k
        * (f.z.iter().map(|v| fs2 - v).product::<Complex64>()
            / f.p.iter().map(|v| fs2 - v).product::<Complex64>())
        .re;
    Ok(Zpk {
        z,
        p: f.p.iter().map(|v| (fs2 + v) / (fs2 - v)).collect(),
        k,
    })
}

/// Python's `repr` of a float, for SciPy's messages (`500.0`, `1e-05`).
fn py_float(v: f64) -> String {
    let s = format!("{v:?}");
    if s.contains('e') && !s.contains("e-") && !s.contains("e+") {
        s.replace('e', "e+")
    } else {
        s
    }
}

/// SciPy's `iirfilter` on the host: the zeros, poles and gain.
pub(crate) fn iirfilter_host(n: usize, wn: &[f64], spec: &IirSpec) -> Result<Zpk> {
    let mut wn = wn.to_vec();
    if let Some(fs) = spec.fs {
        if spec.analog {
            return Err(Error::Value(
                "fs cannot be specified for an analog filter".into(),
            ));
        }
        for w in &mut wn {
            *w /= fs / 2.0;
        }
    }
    if wn.iter().any(|&w| w <= 0.0) {
        return Err(Error::Value(
            "filter critical frequencies must be greater than 0".into(),
        ));
    }
    if wn.len() > 1 && wn[0] >= wn[1] {
        return Err(Error::Value("Wn[0] must be less than Wn[1]".into()));
    }
    if spec.rp.is_some_and(|r| r < 0.0) {
        return Err(Error::Value("passband ripple (rp) must be positive".into()));
    }
    if spec.rs.is_some_and(|r| r < 0.0) {
        return Err(Error::Value(
            "stopband attenuation (rs) must be positive".into(),
        ));
    }
    let proto = match spec.ftype {
        FilterType::Butter => buttap(n),
        FilterType::Bessel(norm) => besselap(n, norm)?,
        FilterType::Cheby1 => cheb1ap(
            n,
            spec.rp.ok_or_else(|| {
                Error::Value(
                    "passband ripple (rp) must be provided to design a Chebyshev I filter.".into(),
                )
            })?,
        ),
        FilterType::Cheby2 => cheb2ap(
            n,
            spec.rs.ok_or_else(|| {
                Error::Value(
                    "stopband attenuation (rs) must be provided to design an Chebyshev II filter."
                        .into(),
                )
            })?,
        ),
        FilterType::Ellip => match (spec.rp, spec.rs) {
            (Some(rp), Some(rs)) => ellipap(n, rp, rs)?,
            _ => {
                return Err(Error::Value(
                    "Both rp and rs must be provided to design an elliptic filter.".into(),
                ));
            }
        },
    };
    let warped: Vec<f64> = if spec.analog {
        wn.clone()
    } else {
        if wn.iter().any(|&w| w <= 0.0 || w >= 1.0) {
            return Err(Error::Value(match spec.fs {
                Some(fs) => format!(
                    "Digital filter critical frequencies must be 0 < Wn < fs/2 (fs={} -> fs/2={})",
                    py_float(fs),
                    py_float(fs / 2.0)
                ),
                None => "Digital filter critical frequencies must be 0 < Wn < 1".into(),
            }));
        }
        wn.iter().map(|&w| 4.0 * (PI * w / 2.0).tan()).collect()
    };
    let f = match spec.btype {
        BandType::Lowpass | BandType::Highpass => {
            if wn.len() != 1 {
                return Err(Error::Value(
                    "Must specify a single critical frequency Wn for lowpass or highpass filter"
                        .into(),
                ));
            }
            if spec.btype == BandType::Lowpass {
                lp2lp(proto, warped[0])?
            } else {
                lp2hp(proto, warped[0])?
            }
        }
        BandType::Bandpass | BandType::Bandstop => {
            if wn.len() < 2 {
                return Err(Error::Value(
                    "Wn must specify start and stop frequencies for bandpass or bandstop filter"
                        .into(),
                ));
            }
            let bw = warped[1] - warped[0];
            let wo = (warped[0] * warped[1]).sqrt();
            if spec.btype == BandType::Bandpass {
                lp2bp(proto, wo, bw)?
            } else {
                lp2bs(proto, wo, bw)?
            }
        }
    };
    if spec.analog { Ok(f) } else { bilinear(f, 2.0) }
}

/// The design in `output`'s form as device arrays.
pub(crate) fn finish(zpk: Zpk, output: Output, analog: bool) -> Result<Filter> {
    Ok(match output {
        Output::Zpk => {
            let (z, p, k) = upload_zpk(&zpk)?;
            Filter::Zpk(z, p, k)
        }
        Output::Ba => {
            let (b, a) = zpk.ba();
            Filter::Ba(upload_real(&b)?, upload_real(&a)?)
        }
        Output::Sos => {
            let sos = zpk.sos_with(None, analog)?;
            Filter::Sos(Array::from_slice(&sos, &[sos.len() / 6, 6])?)
        }
    })
}

/// SciPy's `iirfilter(N, Wn)`: a Butterworth bandpass filter of order `n`
/// between the critical frequencies `wn` (fractions of Nyquist), as
/// `(b, a)`. Designed on the host in float64; the results are device
/// arrays.
///
/// ```no_run
/// use gpu_signal::iirfilter;
/// # fn main() -> gpu_array::Result<()> {
/// let (b, a) = iirfilter(4, &[0.2, 0.4])?; // 9 coefficients each
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`iirfilter_with`].
pub fn iirfilter(n: usize, wn: &[f64]) -> Result<(Array, Array)> {
    iirfilter_with(n, wn, &IirFilterOptions::default())?.into_ba()
}

/// [`iirfilter`] with SciPy's keywords: the family, the band, ripples,
/// analog or digital, the sampling frequency and the output form.
///
/// ```no_run
/// use gpu_signal::{BandType, FilterType, IirFilterOptions, Output, iirfilter_with};
/// # fn main() -> gpu_array::Result<()> {
/// let o = IirFilterOptions::default()
///     .ftype(FilterType::Ellip).rp(Some(0.5)).rs(Some(60.0))
///     .btype(BandType::Lowpass).output(Output::Sos).fs(Some(48_000.0));
/// let sos = iirfilter_with(6, &[4000.0], &o)?.into_sos()?; // (3, 6)
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: `fs` with `analog` ("fs cannot be specified for an analog
/// filter"), frequencies not positive ("filter critical frequencies must
/// be greater than 0") or not increasing ("Wn\[0\] must be less than
/// Wn\[1\]"), digital frequencies at or above Nyquist ("Digital filter
/// critical frequencies must be 0 < Wn < 1"), one frequency for a band or
/// two for a lowpass, negative or missing `rp`/`rs` ("passband ripple
/// (rp) must be provided to design a Chebyshev I filter.").
pub fn iirfilter_with(n: usize, wn: &[f64], opts: &IirFilterOptions) -> Result<Filter> {
    let zpk = iirfilter_host(n, wn, &IirSpec::from_filter_options(opts))?;
    finish(zpk, opts.output, opts.analog)
}

fn named(
    n: usize,
    wn: &[f64],
    ftype: FilterType,
    rp: Option<f64>,
    rs: Option<f64>,
    o: &IirOptions,
) -> Result<Filter> {
    let spec = IirSpec {
        rp,
        rs,
        btype: o.btype,
        analog: o.analog,
        ftype,
        fs: o.fs,
    };
    finish(iirfilter_host(n, wn, &spec)?, o.output, o.analog)
}

/// SciPy's `butter(N, Wn)`: a digital Butterworth lowpass filter of order
/// `n` and cutoff `wn` (a fraction of Nyquist), as `(b, a)` (designed on
/// the host, returned as float64 device arrays).
///
/// ```no_run
/// use gpu_signal::butter;
/// # fn main() -> gpu_array::Result<()> {
/// let (b, a) = butter(4, &[0.1])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`iirfilter_with`].
pub fn butter(n: usize, wn: &[f64]) -> Result<(Array, Array)> {
    butter_with(n, wn, &IirOptions::default())?.into_ba()
}

/// [`butter`] with SciPy's `btype=`, `analog=`, `output=` and `fs=`.
///
/// ```no_run
/// use gpu_signal::{BandType, IirOptions, Output, butter_with};
/// # fn main() -> gpu_array::Result<()> {
/// let o = IirOptions::default().btype(BandType::Bandpass).output(Output::Sos).fs(Some(1000.0));
/// let sos = butter_with(10, &[15.0, 50.0], &o)?.into_sos()?; // (10, 6)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`iirfilter_with`].
pub fn butter_with(n: usize, wn: &[f64], opts: &IirOptions) -> Result<Filter> {
    named(n, wn, FilterType::Butter, None, None, opts)
}

/// SciPy's `cheby1(N, rp, Wn)`: a digital Chebyshev type I lowpass filter
/// with `rp` dB of passband ripple, as `(b, a)` (host design).
///
/// ```no_run
/// use gpu_signal::cheby1;
/// # fn main() -> gpu_array::Result<()> {
/// let (b, a) = cheby1(4, 1.0, &[0.2])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`iirfilter_with`].
pub fn cheby1(n: usize, rp: f64, wn: &[f64]) -> Result<(Array, Array)> {
    cheby1_with(n, rp, wn, &IirOptions::default())?.into_ba()
}

/// [`cheby1`] with SciPy's `btype=`, `analog=`, `output=` and `fs=`.
///
/// ```no_run
/// use gpu_signal::{BandType, IirOptions, cheby1_with};
/// # fn main() -> gpu_array::Result<()> {
/// let f = cheby1_with(3, 0.5, &[0.3], &IirOptions::default().btype(BandType::Highpass))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`iirfilter_with`].
pub fn cheby1_with(n: usize, rp: f64, wn: &[f64], opts: &IirOptions) -> Result<Filter> {
    named(n, wn, FilterType::Cheby1, Some(rp), None, opts)
}

/// SciPy's `cheby2(N, rs, Wn)`: a digital Chebyshev type II lowpass
/// filter with `rs` dB of stopband attenuation, as `(b, a)` (host
/// design).
///
/// ```no_run
/// use gpu_signal::cheby2;
/// # fn main() -> gpu_array::Result<()> {
/// let (b, a) = cheby2(4, 40.0, &[0.2])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`iirfilter_with`].
pub fn cheby2(n: usize, rs: f64, wn: &[f64]) -> Result<(Array, Array)> {
    cheby2_with(n, rs, wn, &IirOptions::default())?.into_ba()
}

/// [`cheby2`] with SciPy's `btype=`, `analog=`, `output=` and `fs=`.
///
/// ```no_run
/// use gpu_signal::{BandType, IirOptions, Output, cheby2_with};
/// # fn main() -> gpu_array::Result<()> {
/// let o = IirOptions::default().btype(BandType::Bandstop).output(Output::Zpk);
/// let (z, p, k) = cheby2_with(4, 40.0, &[0.2, 0.5], &o)?.into_zpk()?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`iirfilter_with`].
pub fn cheby2_with(n: usize, rs: f64, wn: &[f64], opts: &IirOptions) -> Result<Filter> {
    named(n, wn, FilterType::Cheby2, None, Some(rs), opts)
}

/// SciPy's `ellip(N, rp, rs, Wn)`: a digital elliptic lowpass filter with
/// `rp` dB of passband ripple and `rs` dB of stopband attenuation, as
/// `(b, a)` (host design; the elliptic functions by the AGM and Landen's
/// transformation).
///
/// ```no_run
/// use gpu_signal::ellip;
/// # fn main() -> gpu_array::Result<()> {
/// let (b, a) = ellip(4, 0.5, 60.0, &[0.25])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`iirfilter_with`]; specifications no elliptic filter meets
/// ("Cannot design a filter with given rp and rs specifications.").
pub fn ellip(n: usize, rp: f64, rs: f64, wn: &[f64]) -> Result<(Array, Array)> {
    ellip_with(n, rp, rs, wn, &IirOptions::default())?.into_ba()
}

/// [`ellip`] with SciPy's `btype=`, `analog=`, `output=` and `fs=`.
///
/// ```no_run
/// use gpu_signal::{IirOptions, Output, ellip_with};
/// # fn main() -> gpu_array::Result<()> {
/// let sos = ellip_with(8, 0.1, 80.0, &[0.3], &IirOptions::default().output(Output::Sos))?.into_sos()?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`ellip`].
pub fn ellip_with(n: usize, rp: f64, rs: f64, wn: &[f64], opts: &IirOptions) -> Result<Filter> {
    named(n, wn, FilterType::Ellip, Some(rp), Some(rs), opts)
}

/// SciPy's `bessel(N, Wn)`: a digital Bessel lowpass filter (phase
/// normalized), as `(b, a)` (host design; the poles from the roots of the
/// Bessel polynomial).
///
/// ```no_run
/// use gpu_signal::bessel;
/// # fn main() -> gpu_array::Result<()> {
/// let (b, a) = bessel(4, &[0.2])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`iirfilter_with`].
pub fn bessel(n: usize, wn: &[f64]) -> Result<(Array, Array)> {
    bessel_with(n, wn, &IirOptions::default())?.into_ba()
}

/// [`bessel`] with SciPy's `btype=`, `analog=`, `output=`, `norm=` and
/// `fs=`.
///
/// ```no_run
/// use gpu_signal::{BesselNorm, IirOptions, bessel_with};
/// # fn main() -> gpu_array::Result<()> {
/// let o = IirOptions::default().norm(BesselNorm::Delay).analog(true);
/// let (b, a) = bessel_with(5, &[1.0], &o)?.into_ba()?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`iirfilter_with`]; the `mag` normalization's search not converging
/// (`NumpyRuntime`, SciPy's RuntimeError).
pub fn bessel_with(n: usize, wn: &[f64], opts: &IirOptions) -> Result<Filter> {
    named(n, wn, FilterType::Bessel(opts.norm), None, None, opts)
}
