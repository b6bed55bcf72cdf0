//! The lowest order that meets a specification (SciPy's `buttord`,
//! `cheb1ord`, `cheb2ord`, `ellipord`): from passband and stopband edges
//! `wp`, `ws` and the passband loss `gpass` and stopband attenuation
//! `gstop` in dB, the order and the natural frequencies to pass to
//! [`butter`](crate::butter), [`cheby1`](crate::cheby1),
//! [`cheby2`](crate::cheby2) or [`ellip`](crate::ellip); and SciPy's
//! `iirdesign`, the two steps in one.
//!
//! Computed on the host in float64, as SciPy computes them (a handful of
//! scalar operations; a band-stop specification also minimises the order
//! over the passband edges with SciPy's bounded Brent search, `fminbound`,
//! here [`fminbound`]), returned as host values: the order and one or two
//! frequencies, ready for the designs' `&[f64]`.

use std::f64::consts::{LN_10, PI};

use gpu_array::{Array, Error, Result};

use super::ellip::{ellipk, ellipkm1};
use super::iir::{BandType, Filter, FilterType, IirSpec, Output, finish, iirfilter_host};
use super::zpk::Zpk;
use crate::filtering::positive_finite;

/// SciPy's `analog=` and `fs=` of the order selections.
///
/// ```
/// use gpu_signal::OrdOptions;
/// let o = OrdOptions::default().fs(Some(1000.0));
/// assert_eq!((o.analog, o.fs), (false, Some(1000.0)));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[non_exhaustive]
pub struct OrdOptions {
    /// An analog specification (frequencies in rad/s), not a digital one.
    pub analog: bool,
    /// The sampling frequency the digital edges are given in (none: a
    /// fraction of Nyquist).
    pub fs: Option<f64>,
}

impl OrdOptions {
    /// Sets `analog`.
    ///
    /// ```
    /// assert!(gpu_signal::OrdOptions::default().analog(true).analog);
    /// ```
    #[must_use]
    pub fn analog(mut self, analog: bool) -> Self {
        self.analog = analog;
        self
    }

    /// Sets `fs`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::OrdOptions::default().fs(Some(48e3)).fs, Some(48e3));
    /// ```
    #[must_use]
    pub fn fs(mut self, fs: Option<f64>) -> Self {
        self.fs = fs;
        self
    }
}

/// The band a specification describes (SciPy's `filter_type` 1-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Band {
    Low,
    High,
    Stop,
    Pass,
}

/// The family whose order is sought (SciPy's `band_stop_obj` types).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Butter,
    Cheby,
    Ellip,
}

fn validate_gains(gpass: f64, gstop: f64) -> Result<()> {
    if gpass.is_nan() || gpass <= 0.0 {
        return Err(Error::Value("gpass should be larger than 0.0".into()));
    }
    if gstop.is_nan() || gstop <= 0.0 {
        return Err(Error::Value("gstop should be larger than 0.0".into()));
    }
    if gpass > gstop {
        return Err(Error::Value("gpass should be smaller than gstop".into()));
    }
    if !gstop.is_finite() {
        return Err(Error::Value("gstop must be finite".into()));
    }
    Ok(())
}

/// The edges relative to Nyquist (digital) and the band, as SciPy's
/// `_validate_wp_ws`, after the checks of SciPy's `iirdesign` (in its
/// words), which its order selections skip: one or two edges each, all
/// positive, digital ones below Nyquist, a passband strictly inside the
/// stopband or around it; finite analog edges and a positive `fs` too.
fn validate_edges(wp: &[f64], ws: &[f64], opts: &OrdOptions) -> Result<(Vec<f64>, Vec<f64>, Band)> {
    if !matches!(wp.len(), 1 | 2) || ws.len() != wp.len() {
        return Err(Error::Value(format!(
            "wp and ws must have one or two elements each, and the same shape, got ({},) and \
             ({},)",
            wp.len(),
            ws.len()
        )));
    }
    let all = || wp.iter().chain(ws);
    if all().any(|w| w.is_nan() || *w <= 0.0) {
        return Err(Error::Value(
            "Values for wp, ws must be greater than 0".into(),
        ));
    }
    if let (false, Some(fs)) = (opts.analog, opts.fs) {
        positive_finite(fs, "Sampling frequency fs")?;
    }
    match (opts.analog, opts.fs) {
        (false, None) if all().any(|&w| w >= 1.0) => {
            return Err(Error::Value("Values for wp, ws must be less than 1".into()));
        }
        (false, Some(fs)) if all().any(|&w| w >= fs / 2.0) => {
            return Err(Error::Value(format!(
                "Values for wp, ws must be less than fs/2 (fs={fs} -> fs/2={})",
                fs / 2.0
            )));
        }
        (true, _) if all().any(|w| w.is_infinite()) => {
            return Err(Error::Value("Values for wp, ws must be finite".into()));
        }
        _ => {}
    }
    if wp.len() == 2 && !((ws[0] < wp[0] && wp[1] < ws[1]) || (wp[0] < ws[0] && ws[1] < wp[1])) {
        return Err(Error::Value(
            "Passband must lie strictly inside stopband or vice versa".into(),
        ));
    }
    let (mut wp, mut ws) = (wp.to_vec(), ws.to_vec());
    if let Some(fs) = opts.fs {
        if opts.analog {
            return Err(Error::Value(
                "fs cannot be specified for an analog filter".into(),
            ));
        }
        for w in wp.iter_mut().chain(ws.iter_mut()) {
            *w = 2.0 * *w / fs;
        }
    }
    let band = match (wp.len(), wp[0] >= ws[0]) {
        (1, false) => Band::Low,
        (1, true) => Band::High,
        (_, false) => Band::Stop,
        (_, true) => Band::Pass,
    };
    Ok((wp, ws, band))
}

/// SciPy's `_pre_warp`: digital edges to the analog prototype's.
fn pre_warp(w: &[f64], analog: bool) -> Vec<f64> {
    if analog {
        w.to_vec()
    } else {
        w.iter().map(|&w| (PI * w / 2.0).tan()).collect()
    }
}

/// `10^(0.1 g)` for a loss or attenuation `g` in dB.
fn power(g: f64) -> f64 {
    10f64.powf(0.1 * g.abs())
}

/// SciPy's `band_stop_obj`: the (non-integer) order of an analog band-stop
/// filter whose passband edge `ind` is moved to `wp`.
fn band_stop_order(
    wp: f64,
    ind: usize,
    passb: [f64; 2],
    stopb: [f64; 2],
    g: (f64, f64),
    family: Family,
) -> f64 {
    let mut pc = passb;
    pc[ind] = wp;
    let nat = stopb
        .map(|s| (s * (pc[0] - pc[1]) / (s * s - pc[0] * pc[1])).abs())
        .into_iter()
        .fold(f64::INFINITY, f64::min);
    let (gpass, gstop) = g;
    match family {
        Family::Butter => {
            ((power(gstop) - 1.0) / (power(gpass) - 1.0)).log10() / (2.0 * nat.log10())
        }
        Family::Cheby => ((power(gstop) - 1.0) / (power(gpass) - 1.0)).sqrt().acosh() / nat.acosh(),
        Family::Ellip => {
            let arg1 = ((10f64.powf(0.1 * gpass) - 1.0) / (10f64.powf(0.1 * gstop) - 1.0)).sqrt();
            let arg0 = 1.0 / nat;
            let d0 = (ellipk(arg0 * arg0), ellipk(1.0 - arg0 * arg0));
            let d1 = (ellipk(arg1 * arg1), ellipk(1.0 - arg1 * arg1));
            d0.0 * d1.1 / (d0.1 * d1.0)
        }
    }
}

/// The minimiser of `f` on `[x1, x2]` by Brent's bounded search as SciPy's
/// `fminbound` runs it (golden-section steps and parabolic fits, absolute
/// tolerance `xatol`, at most `maxfun` evaluations), so that a band-stop
/// specification's edges are SciPy's.
///
/// # Errors
/// The lower bound exceeds the upper one, or a bound is not finite.
pub(crate) fn fminbound(
    f: impl Fn(f64) -> f64,
    x1: f64,
    x2: f64,
    xatol: f64,
    maxfun: usize,
) -> Result<f64> {
    if !(x1.is_finite() && x2.is_finite()) {
        return Err(Error::Value(
            "Optimization bounds must be finite scalars.".into(),
        ));
    }
    if x1 > x2 {
        return Err(Error::Value(
            "The lower bound exceeds the upper bound.".into(),
        ));
    }
    let sqrt_eps = 2.2e-16f64.sqrt();
    let golden_mean = 0.5 * (3.0 - 5f64.sqrt());
    let (mut a, mut b) = (x1, x2);
    let mut fulc = a + golden_mean * (b - a);
    let (mut nfc, mut xf) = (fulc, fulc);
    let (mut rat, mut e) = (0.0f64, 0.0f64);
    let mut fx = f(xf);
    let mut num = 1;
    let (mut ffulc, mut fnfc) = (fx, fx);
    let mut xm = 0.5 * (a + b);
    let mut tol1 = sqrt_eps * xf.abs() + xatol / 3.0;
    let mut tol2 = 2.0 * tol1;
    // NumPy's sign(v) + (v == 0): -1 or +1.
    let side = |v: f64| if v < 0.0 { -1.0 } else { 1.0 };
    while (xf - xm).abs() > tol2 - 0.5 * (b - a) {
        let mut golden = true;
        if e.abs() > tol1 {
            golden = false;
            let mut r = (xf - nfc) * (fx - ffulc);
            let mut q = (xf - fulc) * (fx - fnfc);
            let mut p = (xf - fulc) * q - (xf - nfc) * r;
            q = 2.0 * (q - r);
            if q > 0.0 {
                p = -p;
            }
            q = q.abs();
            r = e;
            e = rat;
            if p.abs() < (0.5 * q * r).abs() && p > q * (a - xf) && p < q * (b - xf) {
                rat = (p + 0.0) / q;
                let x = xf + rat;
                if (x - a) < tol2 || (b - x) < tol2 {
                    rat = tol1 * side(xm - xf);
                }
            } else {
                golden = true;
            }
        }
        if golden {
            e = if xf >= xm { a - xf } else { b - xf };
            rat = golden_mean * e;
        }
        let x = xf + side(rat) * rat.abs().max(tol1);
        let fu = f(x);
        num += 1;
        if fu <= fx {
            if x >= xf {
                a = xf;
            } else {
                b = xf;
            }
            (fulc, ffulc) = (nfc, fnfc);
            (nfc, fnfc) = (xf, fx);
            (xf, fx) = (x, fu);
        } else {
            if x < xf {
                a = x;
            } else {
                b = x;
            }
            if fu <= fnfc || nfc == xf {
                (fulc, ffulc) = (nfc, fnfc);
                (nfc, fnfc) = (x, fu);
            } else if fu <= ffulc || fulc == xf || fulc == nfc {
                (fulc, ffulc) = (x, fu);
            }
        }
        xm = 0.5 * (a + b);
        tol1 = sqrt_eps * xf.abs() + xatol / 3.0;
        tol2 = 2.0 * tol1;
        if num >= maxfun {
            break;
        }
    }
    Ok(xf)
}

/// SciPy's `_find_nat_freq`: the prototype's stopband edge ratio and the
/// passband edges (a band-stop's moved to the lowest order).
fn natural(
    stopb: &[f64],
    passb: &[f64],
    g: (f64, f64),
    band: Band,
    family: Family,
) -> Result<(f64, Vec<f64>)> {
    let (nat, passb): (Vec<f64>, Vec<f64>) = match band {
        Band::Low => (vec![stopb[0] / passb[0]], passb.to_vec()),
        Band::High => (vec![passb[0] / stopb[0]], passb.to_vec()),
        Band::Stop => {
            let (p, s) = ([passb[0], passb[1]], [stopb[0], stopb[1]]);
            let wp0 = fminbound(
                |w| band_stop_order(w, 0, p, s, g, family),
                p[0],
                s[0] - 1e-12,
                1e-5,
                500,
            )?;
            let wp1 = fminbound(
                |w| band_stop_order(w, 1, p, s, g, family),
                s[1] + 1e-12,
                p[1],
                1e-5,
                500,
            )?;
            let nat = s
                .iter()
                .map(|&s| s * (wp0 - wp1) / (s * s - wp0 * wp1))
                .collect();
            (nat, vec![wp0, wp1])
        }
        Band::Pass => (
            stopb
                .iter()
                .map(|&s| (s * s - passb[0] * passb[1]) / (s * (passb[0] - passb[1])))
                .collect(),
            passb.to_vec(),
        ),
    };
    let nat = nat.iter().map(|v| v.abs()).fold(f64::INFINITY, f64::min);
    Ok((nat, passb))
}

/// SciPy's `_postprocess_wn`: back to the digital frequencies (and `fs`).
fn postprocess(wn: &[f64], opts: &OrdOptions) -> Vec<f64> {
    wn.iter()
        .map(|&w| {
            let w = if opts.analog { w } else { w.atan() * 2.0 / PI };
            opts.fs.map_or(w, |fs| w * fs / 2.0)
        })
        .collect()
}

/// `ceil(x)` as an order: at least 1 (SciPy returns 0 or less, with at
/// most a warning, for a specification no filter meets that way).
fn order(x: f64) -> Result<usize> {
    let n = x.ceil();
    if n.is_nan() || n < 1.0 {
        return Err(Error::Value(format!(
            "the specification gives no positive order ({x}): check that the stopband edges \
             lie beyond the passband's"
        )));
    }
    if n > 1e6 {
        return Err(Error::Value(format!(
            "the specification needs an order of {n}: the passband and stopband edges are too \
             close"
        )));
    }
    Ok(n as usize)
}

/// The validated, pre-warped specification.
struct Spec {
    passb: Vec<f64>,
    stopb: Vec<f64>,
    band: Band,
}

fn spec(wp: &[f64], ws: &[f64], gpass: f64, gstop: f64, opts: &OrdOptions) -> Result<Spec> {
    validate_gains(gpass, gstop)?;
    let (wp, ws, band) = validate_edges(wp, ws, opts)?;
    Ok(Spec {
        passb: pre_warp(&wp, opts.analog),
        stopb: pre_warp(&ws, opts.analog),
        band,
    })
}

/// SciPy's `buttord(wp, ws, gpass, gstop)`: the lowest order of a digital
/// Butterworth filter losing at most `gpass` dB in the passband and
/// attenuating at least `gstop` dB in the stopband, and its natural
/// ("3 dB") frequencies for [`butter`](crate::butter). Edges relative to
/// Nyquist: one each for lowpass (`wp < ws`) and highpass, two each for
/// bandpass (`ws` outside `wp`) and bandstop (`ws` inside `wp`).
///
/// ```
/// use gpu_signal::buttord;
/// let (n, wn) = buttord(&[0.2], &[0.3], 3.0, 40.0)?; // signal.buttord(0.2, 0.3, 3, 40)
/// assert_eq!(n, 11);
/// assert!((wn[0] - 0.200_040_390_669).abs() < 1e-11);
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// As [`buttord_with`].
pub fn buttord(wp: &[f64], ws: &[f64], gpass: f64, gstop: f64) -> Result<(usize, Vec<f64>)> {
    buttord_with(wp, ws, gpass, gstop, &OrdOptions::default())
}

/// [`buttord`] with SciPy's `analog=` and `fs=`.
///
/// ```
/// use gpu_signal::{OrdOptions, buttord_with};
/// let o = OrdOptions::default().fs(Some(1000.0));
/// let (n, wn) = buttord_with(&[100.0, 200.0], &[50.0, 250.0], 3.0, 40.0, &o)?; // Hz
/// assert_eq!((n, wn.len()), (8, 2)); // 99.989 and 200.017 Hz
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// `gpass` or `gstop` not positive, `gpass > gstop`; edges outside
/// `(0, 1)` (`(0, fs/2)` with `fs`; positive when analog), `fs` with
/// `analog`, or `wp` and `ws` of other lengths than one or two each; a
/// specification no positive order meets (`Value`).
pub fn buttord_with(
    wp: &[f64],
    ws: &[f64],
    gpass: f64,
    gstop: f64,
    opts: &OrdOptions,
) -> Result<(usize, Vec<f64>)> {
    let s = spec(wp, ws, gpass, gstop, opts)?;
    let (nat, passb) = natural(&s.stopb, &s.passb, (gpass, gstop), s.band, Family::Butter)?;
    let (gs, gp) = (power(gstop), power(gpass));
    let n = order(((gs - 1.0) / (gp - 1.0)).log10() / (2.0 * nat.log10()))?;
    // The natural frequency that loses exactly gpass at the passband edge.
    let w0 = (gp - 1.0).powf(-1.0 / (2.0 * n as f64));
    let wn = match s.band {
        Band::Low => vec![w0 * passb[0]],
        Band::High => vec![passb[0] / w0],
        Band::Stop => {
            let d = passb[1] - passb[0];
            let discr = (d * d + 4.0 * w0 * w0 * passb[0] * passb[1]).sqrt();
            sorted_abs([(d + discr) / (2.0 * w0), (d - discr) / (2.0 * w0)])
        }
        Band::Pass => {
            let d = passb[1] - passb[0];
            let at = |w: f64| -w * d / 2.0 + (w * w / 4.0 * d * d + passb[0] * passb[1]).sqrt();
            sorted_abs([at(-w0), at(w0)])
        }
    };
    Ok((n, postprocess(&wn, opts)))
}

fn sorted_abs(v: [f64; 2]) -> Vec<f64> {
    let (a, b) = (v[0].abs(), v[1].abs());
    if a <= b { vec![a, b] } else { vec![b, a] }
}

/// `acosh(sqrt((10^(gstop/10) - 1) / (10^(gpass/10) - 1)))`, the
/// Chebyshev designs' stopband-to-passband measure.
fn cheby_measure(gpass: f64, gstop: f64) -> f64 {
    ((power(gstop) - 1.0) / (power(gpass) - 1.0)).sqrt().acosh()
}

/// SciPy's `cheb1ord(wp, ws, gpass, gstop)`: the lowest order of a digital
/// Chebyshev type I filter meeting the specification (as [`buttord`]), and
/// its passband edges for [`cheby1`](crate::cheby1) (with `rp = gpass`).
///
/// ```
/// use gpu_signal::cheb1ord;
/// let (n, wn) = cheb1ord(&[0.2], &[0.3], 3.0, 40.0)?; // signal.cheb1ord(0.2, 0.3, 3, 40)
/// assert_eq!((n, wn), (6, vec![0.2]));
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// As [`buttord_with`].
pub fn cheb1ord(wp: &[f64], ws: &[f64], gpass: f64, gstop: f64) -> Result<(usize, Vec<f64>)> {
    cheb1ord_with(wp, ws, gpass, gstop, &OrdOptions::default())
}

/// [`cheb1ord`] with SciPy's `analog=` and `fs=`.
///
/// ```
/// use gpu_signal::{OrdOptions, cheb1ord_with};
/// let (n, wn) = cheb1ord_with(&[30.0], &[10.0], 3.0, 60.0, &OrdOptions::default().analog(true))?;
/// assert_eq!((n, wn), (5, vec![30.0])); // an analog highpass
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// As [`buttord_with`].
pub fn cheb1ord_with(
    wp: &[f64],
    ws: &[f64],
    gpass: f64,
    gstop: f64,
    opts: &OrdOptions,
) -> Result<(usize, Vec<f64>)> {
    let s = spec(wp, ws, gpass, gstop, opts)?;
    let (nat, passb) = natural(&s.stopb, &s.passb, (gpass, gstop), s.band, Family::Cheby)?;
    let n = order(cheby_measure(gpass, gstop) / nat.acosh())?;
    Ok((n, postprocess(&passb, opts)))
}

/// SciPy's `cheb2ord(wp, ws, gpass, gstop)`: the lowest order of a digital
/// Chebyshev type II filter meeting the specification (as [`buttord`]),
/// and the edges for [`cheby2`](crate::cheby2) (with `rs = gstop`) that
/// put the passband loss at `gpass`.
///
/// ```
/// use gpu_signal::cheb2ord;
/// let (n, wn) = cheb2ord(&[0.2], &[0.3], 3.0, 40.0)?; // signal.cheb2ord(0.2, 0.3, 3, 40)
/// assert_eq!(n, 6);
/// assert!((wn[0] - 0.274_564_437_378).abs() < 1e-11);
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// As [`buttord_with`].
pub fn cheb2ord(wp: &[f64], ws: &[f64], gpass: f64, gstop: f64) -> Result<(usize, Vec<f64>)> {
    cheb2ord_with(wp, ws, gpass, gstop, &OrdOptions::default())
}

/// [`cheb2ord`] with SciPy's `analog=` and `fs=`.
///
/// ```
/// use gpu_signal::{OrdOptions, cheb2ord_with};
/// let o = OrdOptions::default().fs(Some(2000.0));
/// let (n, wn) = cheb2ord_with(&[100.0, 300.0], &[50.0, 400.0], 1.0, 50.0, &o)?;
/// assert_eq!((n, wn.len()), (7, 2)); // 76.336 and 375.710 Hz
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// As [`buttord_with`].
pub fn cheb2ord_with(
    wp: &[f64],
    ws: &[f64],
    gpass: f64,
    gstop: f64,
    opts: &OrdOptions,
) -> Result<(usize, Vec<f64>)> {
    let s = spec(wp, ws, gpass, gstop, opts)?;
    let (nat, passb) = natural(&s.stopb, &s.passb, (gpass, gstop), s.band, Family::Cheby)?;
    let v = cheby_measure(gpass, gstop);
    let n = order(v / nat.acosh())?;
    // The frequency, relative to the stopband edge, that loses gpass.
    let f = 1.0 / (1.0 / n as f64 * v).cosh();
    let (p0, p1) = (passb[0], *passb.get(1).unwrap_or(&passb[0]));
    let wn = match s.band {
        Band::Low => vec![p0 / f],
        Band::High => vec![p0 * f],
        Band::Stop => {
            let a = f / 2.0 * (p0 - p1) + (f * f * (p1 - p0) * (p1 - p0) / 4.0 + p1 * p0).sqrt();
            vec![a, p1 * p0 / a]
        }
        Band::Pass => {
            let a = 1.0 / (2.0 * f) * (p0 - p1)
                + ((p1 - p0) * (p1 - p0) / (4.0 * f * f) + p1 * p0).sqrt();
            vec![a, p0 * p1 / a]
        }
    };
    Ok((n, postprocess(&wn, opts)))
}

/// SciPy's `ellipord(wp, ws, gpass, gstop)`: the lowest order of a digital
/// elliptic (Cauer) filter meeting the specification (as [`buttord`]),
/// and its passband edges for [`ellip`](crate::ellip) (with
/// `rp = gpass`, `rs = gstop`).
///
/// ```
/// use gpu_signal::ellipord;
/// let (n, wn) = ellipord(&[0.2], &[0.3], 3.0, 40.0)?; // signal.ellipord(0.2, 0.3, 3, 40)
/// assert_eq!((n, wn), (4, vec![0.2]));
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// As [`buttord_with`].
pub fn ellipord(wp: &[f64], ws: &[f64], gpass: f64, gstop: f64) -> Result<(usize, Vec<f64>)> {
    ellipord_with(wp, ws, gpass, gstop, &OrdOptions::default())
}

/// [`ellipord`] with SciPy's `analog=` and `fs=`.
///
/// ```
/// use gpu_signal::{OrdOptions, ellipord_with};
/// let (n, wn) = ellipord_with(&[30.0], &[10.0], 3.0, 60.0, &OrdOptions::default().analog(true))?;
/// assert_eq!((n, wn), (4, vec![30.0]));
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// As [`buttord_with`].
pub fn ellipord_with(
    wp: &[f64],
    ws: &[f64],
    gpass: f64,
    gstop: f64,
    opts: &OrdOptions,
) -> Result<(usize, Vec<f64>)> {
    let s = spec(wp, ws, gpass, gstop, opts)?;
    let (nat, passb) = natural(&s.stopb, &s.passb, (gpass, gstop), s.band, Family::Ellip)?;
    // 10^x - 1 near x = 0 without cancellation.
    let pow10m1 = |x: f64| (LN_10 * x).exp_m1();
    let arg1_sq = pow10m1(0.1 * gpass) / pow10m1(0.1 * gstop);
    let arg0 = 1.0 / nat;
    let d0 = (ellipk(arg0 * arg0), ellipkm1(arg0 * arg0));
    let d1 = (ellipk(arg1_sq), ellipkm1(arg1_sq));
    let n = order(d0.0 * d1.1 / (d0.1 * d1.0))?;
    Ok((n, postprocess(&passb, opts)))
}

/// SciPy's keywords of [`iirdesign_with`]: `analog` (false), `ftype`
/// (elliptic, SciPy's default), `output` (ba) and `fs` (none).
///
/// ```
/// use gpu_signal::{FilterType, IirDesignOptions, Output};
/// let o = IirDesignOptions::default().ftype(FilterType::Cheby2).output(Output::Sos);
/// assert_eq!((o.ftype, o.output, o.analog, o.fs), (FilterType::Cheby2, Output::Sos, false, None));
/// assert_eq!(IirDesignOptions::default().ftype, FilterType::Ellip);
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct IirDesignOptions {
    /// An analog design (frequencies in rad/s).
    pub analog: bool,
    /// The family (one with an order selection: not Bessel).
    pub ftype: FilterType,
    /// The form returned.
    pub output: Output,
    /// The sampling frequency the digital edges are given in.
    pub fs: Option<f64>,
}

impl Default for IirDesignOptions {
    fn default() -> Self {
        IirDesignOptions {
            analog: false,
            ftype: FilterType::Ellip,
            output: Output::Ba,
            fs: None,
        }
    }
}

impl IirDesignOptions {
    /// Sets `analog`.
    ///
    /// ```
    /// assert!(gpu_signal::IirDesignOptions::default().analog(true).analog);
    /// ```
    #[must_use]
    pub fn analog(mut self, analog: bool) -> Self {
        self.analog = analog;
        self
    }

    /// Sets `ftype`.
    ///
    /// ```
    /// use gpu_signal::{FilterType, IirDesignOptions};
    /// assert_eq!(IirDesignOptions::default().ftype(FilterType::Butter).ftype, FilterType::Butter);
    /// ```
    #[must_use]
    pub fn ftype(mut self, ftype: FilterType) -> Self {
        self.ftype = ftype;
        self
    }

    /// Sets `output`.
    ///
    /// ```
    /// use gpu_signal::{IirDesignOptions, Output};
    /// assert_eq!(IirDesignOptions::default().output(Output::Zpk).output, Output::Zpk);
    /// ```
    #[must_use]
    pub fn output(mut self, output: Output) -> Self {
        self.output = output;
        self
    }

    /// Sets `fs`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::IirDesignOptions::default().fs(Some(8e3)).fs, Some(8e3));
    /// ```
    #[must_use]
    pub fn fs(mut self, fs: Option<f64>) -> Self {
        self.fs = fs;
        self
    }
}

/// An order selection's signature ([`buttord_with`] and the others).
pub(crate) type OrderFn = fn(&[f64], &[f64], f64, f64, &OrdOptions) -> Result<(usize, Vec<f64>)>;

/// SciPy's `iirdesign` on the host: the family's lowest order for the
/// specification, then `iirfilter` with `rp = gpass`, `rs = gstop`.
pub(crate) fn iirdesign_host(
    wp: &[f64],
    ws: &[f64],
    gpass: f64,
    gstop: f64,
    o: &IirDesignOptions,
) -> Result<Zpk> {
    let ord: OrderFn = match o.ftype {
        FilterType::Butter => buttord_with,
        FilterType::Cheby1 => cheb1ord_with,
        FilterType::Cheby2 => cheb2ord_with,
        FilterType::Ellip => ellipord_with,
        FilterType::Bessel(_) => {
            return Err(Error::Value(
                "bessel does not have order selection. Use iirfilter function.".into(),
            ));
        }
    };
    let opts = OrdOptions::default().analog(o.analog).fs(o.fs);
    // The band as the order selection finds it (validated there).
    let band = match (wp.len(), wp.first() >= ws.first()) {
        (1, false) => BandType::Lowpass,
        (1, true) => BandType::Highpass,
        (_, false) => BandType::Bandstop,
        (_, true) => BandType::Bandpass,
    };
    let (n, wn) = ord(wp, ws, gpass, gstop, &opts)?;
    let spec = IirSpec {
        rp: Some(gpass),
        rs: Some(gstop),
        btype: band,
        analog: o.analog,
        ftype: o.ftype,
        fs: o.fs,
    };
    iirfilter_host(n, &wn, &spec)
}

/// SciPy's `iirdesign(wp, ws, gpass, gstop)`: the digital elliptic filter
/// of lowest order that loses at most `gpass` dB in the passband `wp` and
/// attenuates at least `gstop` dB in the stopband `ws` (edges as
/// [`buttord`]: the band follows from them), as `(b, a)` float64 device
/// arrays (designed on the host).
///
/// ```no_run
/// use gpu_signal::iirdesign;
/// # fn main() -> gpu_array::Result<()> {
/// let (b, a) = iirdesign(&[0.2], &[0.3], 1.0, 60.0)?; // an order-6 elliptic lowpass
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`iirdesign_with`].
pub fn iirdesign(wp: &[f64], ws: &[f64], gpass: f64, gstop: f64) -> Result<(Array, Array)> {
    iirdesign_with(wp, ws, gpass, gstop, &IirDesignOptions::default())?.into_ba()
}

/// [`iirdesign`] with SciPy's `analog=`, `ftype=`, `output=` and `fs=`.
///
/// ```no_run
/// use gpu_signal::{FilterType, IirDesignOptions, Output, iirdesign_with};
/// # fn main() -> gpu_array::Result<()> {
/// let o = IirDesignOptions::default().ftype(FilterType::Butter).output(Output::Sos).fs(Some(1000.0));
/// let sos = iirdesign_with(&[100.0, 200.0], &[50.0, 250.0], 3.0, 40.0, &o)?.into_sos()?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`buttord_with`]; a Bessel `ftype` (no order selection, SciPy's
/// message); as [`iirfilter_with`](crate::iirfilter_with) (`Value`).
pub fn iirdesign_with(
    wp: &[f64],
    ws: &[f64],
    gpass: f64,
    gstop: f64,
    opts: &IirDesignOptions,
) -> Result<Filter> {
    let zpk = iirdesign_host(wp, ws, gpass, gstop, opts)?;
    finish(zpk, opts.output, opts.analog)
}
