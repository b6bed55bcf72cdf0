//! Conversions between a filter's forms (`scipy.signal._filter_design`):
//! zeros, poles and gain; transfer-function polynomials; second-order
//! sections. All on the host in float64 (the arrays are small), read from
//! and returned as device arrays.

use gpu_array::{Array, DType, Error, Result};
use num_complex::Complex64;

use super::linalg::{conjugate_closed, poly, polymul, roots};
use crate::filtering::host_values;

const ZERO: Complex64 = Complex64::new(0.0, 0.0);

/// A filter as zeros, poles and gain, on the host.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Zpk {
    pub z: Vec<Complex64>,
    pub p: Vec<Complex64>,
    pub k: f64,
}

/// How [`zpk2sos_with`] pairs poles with zeros (SciPy's `pairing=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pairing {
    /// Each pole with its nearest zero, an odd order padded with a pole
    /// and a zero at the origin (the digital default).
    Nearest,
    /// As nearest, an odd order keeping one first-order section.
    KeepOdd,
    /// No added zeros at the origin (the analog default; the only analog
    /// pairing).
    Minimal,
}

gpu_array::from_numpy_str! {
    Pairing, Error,
    else: |s| Error::Value(format!(
        "pairing must be one of ['nearest', 'keep_odd', 'minimal'], not {s}"
    )),
    { "nearest" => Pairing::Nearest, "keep_odd" => Pairing::KeepOdd, "minimal" => Pairing::Minimal }
}

/// SciPy's keywords of [`zpk2sos_with`] and [`tf2sos_with`]: `pairing`
/// (default: nearest, minimal when analog) and `analog` (false).
///
/// ```
/// use gpu_signal::{Pairing, Zpk2SosOptions};
/// let o = Zpk2SosOptions::default().pairing(Pairing::KeepOdd);
/// assert_eq!((o.pairing, o.analog), (Some(Pairing::KeepOdd), false));
/// ```
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Zpk2SosOptions {
    /// The pairing (`None`: SciPy's default for `analog`).
    pub pairing: Option<Pairing>,
    /// Whether the filter is analog (sections ordered by the poles'
    /// distance to the imaginary axis).
    pub analog: bool,
}

impl Zpk2SosOptions {
    /// Sets `pairing`.
    ///
    /// ```
    /// use gpu_signal::{Pairing, Zpk2SosOptions};
    /// assert_eq!(Zpk2SosOptions::default().pairing(Pairing::Minimal).pairing, Some(Pairing::Minimal));
    /// ```
    #[must_use]
    pub fn pairing(mut self, pairing: Pairing) -> Self {
        self.pairing = Some(pairing);
        self
    }

    /// Sets `analog`.
    ///
    /// ```
    /// assert!(gpu_signal::Zpk2SosOptions::default().analog(true).analog);
    /// ```
    #[must_use]
    pub fn analog(mut self, analog: bool) -> Self {
        self.analog = analog;
        self
    }
}

fn isreal(z: Complex64) -> bool {
    z.im == 0.0
}

/// SciPy's `_cplxreal`: the complex values of `z` as one of each
/// conjugate pair (positive imaginary part, averaged with its partner),
/// then the real values, each sorted SciPy's way.
pub(crate) fn cplxreal(z: &[Complex64]) -> Result<(Vec<Complex64>, Vec<f64>)> {
    if z.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let tol = 100.0 * f64::EPSILON;
    let mut z = z.to_vec();
    // lexsort((abs(imag), real)): by real part, then |imag|; stable.
    z.sort_by(|a, b| {
        a.re.total_cmp(&b.re)
            .then(a.im.abs().total_cmp(&b.im.abs()))
    });
    let is_real = |v: &Complex64| v.im.abs() <= tol * v.norm();
    let zr: Vec<f64> = z.iter().filter(|v| is_real(v)).map(|v| v.re).collect();
    if zr.len() == z.len() {
        return Ok((Vec::new(), zr));
    }
    let rest: Vec<Complex64> = z.into_iter().filter(|v| !is_real(v)).collect();
    let mut zp: Vec<Complex64> = rest.iter().copied().filter(|v| v.im > 0.0).collect();
    let mut zn: Vec<Complex64> = rest.iter().copied().filter(|v| v.im < 0.0).collect();
    let unmatched =
        || Error::Value("Array contains complex value with no matching conjugate.".into());
    if zp.len() != zn.len() {
        return Err(unmatched());
    }
    // Runs of (about) the same real part, each sorted by |imag|.
    let same: Vec<bool> = zp
        .windows(2)
        .map(|w| w[1].re - w[0].re <= tol * w[0].norm())
        .collect();
    let mut i = 0;
    while i < same.len() {
        if same[i] {
            let start = i;
            while i < same.len() && same[i] {
                i += 1;
            }
            let stop = i + 1;
            for chunk in [&mut zp[start..stop], &mut zn[start..stop]] {
                chunk.sort_by(|a, b| a.im.abs().total_cmp(&b.im.abs()));
            }
        }
        i += 1;
    }
    if zp
        .iter()
        .zip(&zn)
        .any(|(a, b)| (a - b.conj()).norm() > tol * b.norm())
    {
        return Err(unmatched());
    }
    let zc = zp
        .iter()
        .zip(&zn)
        .map(|(a, b)| (a + b.conj()) / 2.0)
        .collect();
    Ok((zc, zr))
}

/// SciPy's `_nearest_real_complex_idx`: the index of the value of `fro`
/// nearest `to` (among the real ones, the complex ones, or any).
fn nearest(fro: &[Complex64], to: Complex64, which: Option<bool>) -> Result<usize> {
    let mut order: Vec<usize> = (0..fro.len()).collect();
    order.sort_by(|&a, &b| (fro[a] - to).norm().total_cmp(&(fro[b] - to).norm()));
    order
        .into_iter()
        .find(|&i| which.is_none_or(|real| isreal(fro[i]) == real))
        .ok_or_else(|| Error::Value("zpk2sos: no zero of the kind to pair".into()))
}

/// SciPy's `_single_zpksos`: one section of unit gain, right-aligned.
fn single(z: &[Complex64], p: &[Complex64]) -> [f64; 6] {
    let (b, a) = (poly(z), poly(p));
    let mut s = [0.0; 6];
    for (i, v) in b.iter().enumerate() {
        s[3 - b.len() + i] = v.re;
    }
    for (i, v) in a.iter().enumerate() {
        s[6 - a.len() + i] = v.re;
    }
    s
}

impl Zpk {
    /// SciPy's `zpk2tf`: `k * poly(z)` and `poly(p)` (real when the roots
    /// are closed under conjugation, as NumPy's `poly`).
    pub fn tf(&self) -> (Vec<Complex64>, Vec<Complex64>) {
        let b: Vec<Complex64> = poly(&self.z).iter().map(|v| v * self.k).collect();
        (real_if(b, &self.z), real_if(poly(&self.p), &self.p))
    }

    /// [`Zpk::tf`] as real coefficients.
    pub fn ba(&self) -> (Vec<f64>, Vec<f64>) {
        let (b, a) = self.tf();
        (
            b.iter().map(|v| v.re).collect(),
            a.iter().map(|v| v.re).collect(),
        )
    }

    /// SciPy's `zpk2sos` with the digital default pairing: the sections,
    /// row-major `(n_sections, 6)`.
    pub fn sos(&self) -> Result<Vec<f64>> {
        self.sos_with(None, false)
    }

    /// SciPy's `zpk2sos(z, p, k, pairing, analog)`.
    pub fn sos_with(&self, pairing: Option<Pairing>, analog: bool) -> Result<Vec<f64>> {
        let pairing = pairing.unwrap_or(if analog {
            Pairing::Minimal
        } else {
            Pairing::Nearest
        });
        if analog && pairing != Pairing::Minimal {
            return Err(Error::Value(
                "for analog zpk2sos conversion, pairing must be \"minimal\"".into(),
            ));
        }
        let (mut z, mut p) = (self.z.clone(), self.p.clone());
        if z.is_empty() && p.is_empty() {
            return Ok(if analog {
                vec![0.0, 0.0, self.k, 0.0, 0.0, 1.0]
            } else {
                vec![self.k, 0.0, 0.0, 1.0, 0.0, 0.0]
            });
        }
        let n_sections;
        if pairing != Pairing::Minimal {
            let (lz, lp) = (z.len(), p.len());
            p.extend(std::iter::repeat_n(ZERO, lz.saturating_sub(lp)));
            z.extend(std::iter::repeat_n(ZERO, lp.saturating_sub(lz)));
            n_sections = p.len().max(z.len()).div_ceil(2);
            if p.len() % 2 == 1 && pairing == Pairing::Nearest {
                p.push(ZERO);
                z.push(ZERO);
            }
        } else {
            if p.len() < z.len() {
                return Err(Error::Value(
                    "for analog zpk2sos conversion, must have len(p)>=len(z)".into(),
                ));
            }
            n_sections = p.len().div_ceil(2);
        }
        let joined = |(c, r): (Vec<Complex64>, Vec<f64>)| {
            let mut v = c;
            v.extend(r.into_iter().map(|x| Complex64::new(x, 0.0)));
            v
        };
        let mut z = joined(cplxreal(&z)?);
        let mut p = joined(cplxreal(&p)?);
        let worst = |v: &[Complex64]| -> usize {
            let key = |c: &Complex64| {
                if analog {
                    c.re.abs()
                } else {
                    (1.0 - c.norm()).abs()
                }
            };
            let mut best = 0;
            for (i, c) in v.iter().enumerate() {
                if key(c) < key(&v[best]) {
                    best = i;
                }
            }
            best
        };
        let nreal = |v: &[Complex64]| v.iter().filter(|c| isreal(**c)).count();
        let mut sos = vec![[0.0f64; 6]; n_sections];
        for si in (0..n_sections).rev() {
            let p1 = p.remove(worst(&p));
            if isreal(p1) && nreal(&p) == 0 {
                if pairing != Pairing::Minimal {
                    let z1 = z.remove(nearest(&z, p1, Some(true))?);
                    sos[si] = single(&[z1, ZERO], &[p1, ZERO]);
                } else if !z.is_empty() {
                    let z1 = z.remove(nearest(&z, p1, Some(true))?);
                    sos[si] = single(&[z1], &[p1]);
                } else {
                    sos[si] = single(&[], &[p1]);
                }
            } else if p.len() + 1 == z.len() && !isreal(p1) && nreal(&p) == 1 && nreal(&z) == 1 {
                let z1 = z.remove(nearest(&z, p1, Some(false))?);
                sos[si] = single(&[z1, z1.conj()], &[p1, p1.conj()]);
            } else {
                let p2 = if isreal(p1) {
                    let idx: Vec<usize> = (0..p.len()).filter(|&i| isreal(p[i])).collect();
                    let reals: Vec<Complex64> = idx.iter().map(|&i| p[i]).collect();
                    p.remove(idx[worst(&reals)])
                } else {
                    p1.conj()
                };
                if z.is_empty() {
                    sos[si] = single(&[], &[p1, p2]);
                } else {
                    let z1 = z.remove(nearest(&z, p1, None)?);
                    if !isreal(z1) {
                        sos[si] = single(&[z1, z1.conj()], &[p1, p2]);
                    } else if !z.is_empty() {
                        let z2 = z.remove(nearest(&z, p1, Some(true))?);
                        sos[si] = single(&[z1, z2], &[p1, p2]);
                    } else {
                        sos[si] = single(&[z1], &[p1, p2]);
                    }
                }
            }
        }
        for v in &mut sos[0][..3] {
            *v *= self.k;
        }
        Ok(sos.into_iter().flatten().collect())
    }
}

/// `v`, with its imaginary parts dropped when `roots` are closed under
/// conjugation (NumPy's `poly`).
fn real_if(v: Vec<Complex64>, roots: &[Complex64]) -> Vec<Complex64> {
    if conjugate_closed(roots) {
        v.into_iter().map(|c| Complex64::new(c.re, 0.0)).collect()
    } else {
        v
    }
}

/// SciPy's `normalize(b, a)` for 1-D `b`: leading zeros of `a` trimmed,
/// both divided by `a[0]`, leading near-zeros (`<= 1e-14`) of `b` trimmed
/// (at least one kept).
pub(crate) fn normalize(
    b: &[Complex64],
    a: &[Complex64],
) -> Result<(Vec<Complex64>, Vec<Complex64>)> {
    if a.iter().all(|&v| v == ZERO) {
        return Err(Error::Value(
            "Denominator must have at least on nonzero element.".into(),
        ));
    }
    let first = a.iter().position(|&v| v != ZERO).unwrap_or(0);
    let a = &a[first..];
    let a0 = a[0];
    let num: Vec<Complex64> = b.iter().map(|v| v / a0).collect();
    let den: Vec<Complex64> = a.iter().map(|v| v / a0).collect();
    let mut lead = num.iter().take_while(|v| v.norm() <= 1e-14).count();
    if lead == num.len() && lead > 0 {
        lead -= 1;
    }
    Ok((num[lead..].to_vec(), den))
}

/// SciPy's `tf2zpk` on the host.
pub(crate) fn tf2zpk_host(
    b: &[Complex64],
    a: &[Complex64],
) -> Result<(Vec<Complex64>, Vec<Complex64>, Complex64)> {
    let (b, a) = normalize(b, a)?;
    let k = b.first().copied().unwrap_or(ZERO);
    let bn: Vec<Complex64> = b.iter().map(|v| v / k).collect();
    Ok((roots(&bn), roots(&a), k))
}

/// SciPy's `sos2tf` on the host.
pub(crate) fn sos2tf_host(sos: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let c = |v: &[f64]| {
        v.iter()
            .map(|&r| Complex64::new(r, 0.0))
            .collect::<Vec<_>>()
    };
    let (mut b, mut a) = (
        vec![Complex64::new(1.0, 0.0)],
        vec![Complex64::new(1.0, 0.0)],
    );
    for s in sos.chunks(6) {
        b = polymul(&b, &c(&s[..3]));
        a = polymul(&a, &c(&s[3..]));
    }
    (
        b.iter().map(|v| v.re).collect(),
        a.iter().map(|v| v.re).collect(),
    )
}

fn upload_c(v: &[Complex64]) -> Result<Array> {
    Array::from_slice(v, &[v.len()])
}

pub(crate) fn one_d(a: &Array, what: &str) -> Result<()> {
    if a.ndim() > 1 {
        return Err(Error::Unsupported(format!(
            "{what} of more than one dimension"
        )));
    }
    Ok(())
}

/// SciPy's `zpk2tf(z, p, k)`: the numerator `k * poly(z)` and denominator
/// `poly(p)`, computed on the host; float64 when the zeros (poles) are
/// closed under conjugation, complex128 otherwise.
///
/// ```no_run
/// use gpu_array::Array;
/// use num_complex::Complex64;
/// use gpu_signal::zpk2tf;
/// # fn main() -> gpu_array::Result<()> {
/// let z = Array::from_slice(&[Complex64::new(-1.0, 0.0)], &[1])?;
/// let p = Array::from_slice(&[Complex64::new(0.5, 0.5), Complex64::new(0.5, -0.5)], &[2])?;
/// let (b, a) = zpk2tf(&z, &p, 2.0)?; // [2, 2], [1, -1, 0.5]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Zeros or poles of more than one dimension (`Unsupported`).
pub fn zpk2tf(z: &Array, p: &Array, k: f64) -> Result<(Array, Array)> {
    one_d(z, "zpk2tf zeros")?;
    one_d(p, "zpk2tf poles")?;
    let zpk = Zpk {
        z: host_values(z)?,
        p: host_values(p)?,
        k,
    };
    let (b, a) = zpk.tf();
    let real = |v: &[Complex64], r: &[Complex64]| conjugate_closed(r) || v.is_empty();
    let up = |v: &[Complex64], roots: &[Complex64]| {
        if real(v, roots) {
            let r: Vec<f64> = v.iter().map(|c| c.re).collect();
            Array::from_slice(&r, &[r.len()])
        } else {
            upload_c(v)
        }
    };
    Ok((up(&b, &zpk.z)?, up(&a, &zpk.p)?))
}

/// SciPy's `tf2zpk(b, a)`: the zeros, poles (complex128, the roots of the
/// normalized polynomials on the host, see the [module
/// docs](mod@crate::design) on root finding) and gain of real
/// coefficients.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::tf2zpk;
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[2.0f64, 2.0], &[2])?;
/// let a = Array::from_slice(&[1.0f64, -1.0, 0.5], &[3])?;
/// let (z, p, k) = tf2zpk(&b, &a)?; // [-1], [0.5 ± 0.5j], 2
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: an all-zero denominator ("Denominator must have at least on
/// nonzero element."); complex coefficients or more than one dimension
/// (`Unsupported`).
pub fn tf2zpk(b: &Array, a: &Array) -> Result<(Array, Array, f64)> {
    one_d(b, "tf2zpk numerator")?;
    one_d(a, "tf2zpk denominator")?;
    if b.dtype().is_complex() || a.dtype().is_complex() {
        return Err(Error::Unsupported("tf2zpk of complex coefficients".into()));
    }
    let (z, p, k) = tf2zpk_host(&host_values(b)?, &host_values(a)?)?;
    Ok((upload_c(&z)?, upload_c(&p)?, k.re))
}

/// SciPy's `sos2zpk(sos)` on the host: each section's zeros and poles
/// (two each, zeros at 0 where a section has fewer) and the product of
/// their gains.
pub(crate) fn sos2zpk_host(sections: &[[Complex64; 6]]) -> Result<Zpk> {
    let n = sections.len();
    let mut z = vec![ZERO; 2 * n];
    let mut p = vec![ZERO; 2 * n];
    let mut k = 1.0f64;
    for (i, s) in sections.iter().enumerate() {
        let (zs, ps, ks) = tf2zpk_host(&s[..3], &s[3..])?;
        for (slot, v) in z[2 * i..].iter_mut().zip(zs.iter().take(2)) {
            *slot = *v;
        }
        for (slot, v) in p[2 * i..].iter_mut().zip(ps.iter().take(2)) {
            *slot = *v;
        }
        k *= ks.re;
    }
    Ok(Zpk { z, p, k })
}

/// SciPy's `sos2zpk(sos)`: the zeros and poles (complex128, two a
/// section: zeros at 0 where a section's numerator is of lower degree)
/// and the gain of second-order sections, computed on the host.
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let sos = Array::from_slice(&[1.0f64, 2.0, 1.0, 1.0, -0.5, 0.0], &[1, 6])?;
/// let (z, p, k) = gpu_signal::sos2zpk(&sos)?; // [-1, -1], [0.5, 0], 1
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: `sos` not of shape `(n_sections, 6)`, `sos[:, 3]` not all
/// ones; a section's denominator all zero (`Value`).
pub fn sos2zpk(sos: &Array) -> Result<(Array, Array, f64)> {
    let sections = crate::filtering::sos::validate_sos(sos)?;
    upload_zpk(&sos2zpk_host(&sections)?)
}

/// SciPy's `zpk2sos(z, p, k)`: second-order sections `(n_sections, 6)`,
/// float64, paired and ordered SciPy's way (the poles nearest the unit
/// circle last), computed on the host.
///
/// ```no_run
/// use gpu_array::Array;
/// use num_complex::Complex64;
/// use gpu_signal::zpk2sos;
/// # fn main() -> gpu_array::Result<()> {
/// let z = Array::from_slice(&[Complex64::new(-1.0, 0.0); 3], &[3])?;
/// let p = Array::from_slice(&[Complex64::new(0.5, 0.0); 3], &[3])?;
/// let sos = zpk2sos(&z, &p, 0.1)?; // (2, 6)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`zpk2sos_with`].
pub fn zpk2sos(z: &Array, p: &Array, k: f64) -> Result<Array> {
    zpk2sos_with(z, p, k, &Zpk2SosOptions::default())
}

/// [`zpk2sos`] with SciPy's `pairing=` and `analog=`.
///
/// ```no_run
/// use gpu_array::Array;
/// use num_complex::Complex64;
/// use gpu_signal::{Pairing, Zpk2SosOptions, zpk2sos_with};
/// # fn main() -> gpu_array::Result<()> {
/// let z = Array::from_slice(&[Complex64::new(-1.0, 0.0); 3], &[3])?;
/// let p = Array::from_slice(&[Complex64::new(0.5, 0.0); 3], &[3])?;
/// let sos = zpk2sos_with(&z, &p, 0.1, &Zpk2SosOptions::default().pairing(Pairing::KeepOdd))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: complex values without their conjugates ("Array contains
/// complex value with no matching conjugate."), an analog pairing other
/// than minimal, fewer analog poles than zeros.
pub fn zpk2sos_with(z: &Array, p: &Array, k: f64, opts: &Zpk2SosOptions) -> Result<Array> {
    one_d(z, "zpk2sos zeros")?;
    one_d(p, "zpk2sos poles")?;
    let zpk = Zpk {
        z: host_values(z)?,
        p: host_values(p)?,
        k,
    };
    let sos = zpk.sos_with(opts.pairing, opts.analog)?;
    Array::from_slice(&sos, &[sos.len() / 6, 6])
}

/// SciPy's `tf2sos(b, a)`: [`zpk2sos`] of [`tf2zpk`].
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::tf2sos;
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[1.0f64, 3.0, 3.0, 1.0], &[4])?;
/// let a = Array::from_slice(&[1.0f64, -0.6, 0.2, -0.1], &[4])?;
/// let sos = tf2sos(&b, &a)?; // (2, 6)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`tf2zpk`] and [`zpk2sos_with`].
pub fn tf2sos(b: &Array, a: &Array) -> Result<Array> {
    tf2sos_with(b, a, &Zpk2SosOptions::default())
}

/// [`tf2sos`] with SciPy's `pairing=` and `analog=`.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::{Zpk2SosOptions, tf2sos_with};
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[1.0f64], &[1])?;
/// let a = Array::from_slice(&[1.0f64, 2.0, 2.0, 1.0], &[4])?;
/// let sos = tf2sos_with(&b, &a, &Zpk2SosOptions::default().analog(true))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`tf2zpk`] and [`zpk2sos_with`].
pub fn tf2sos_with(b: &Array, a: &Array, opts: &Zpk2SosOptions) -> Result<Array> {
    let (z, p, k) = tf2zpk(b, a)?;
    zpk2sos_with(&z, &p, k, opts)
}

/// SciPy's `sos2tf(sos)`: the transfer function of the sections (products
/// of their polynomials on the host), float64 (float32 for float32
/// sections, as SciPy's).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::sos2tf;
/// # fn main() -> gpu_array::Result<()> {
/// let sos = Array::from_slice(&[1.0f64, 1.0, 0.0, 1.0, -0.5, 0.0], &[1, 6])?;
/// let (b, a) = sos2tf(&sos)?; // [1, 1, 0], [1, -0.5, 0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `sos` not of shape `(n_sections, 6)`; complex sections (`Unsupported`).
pub fn sos2tf(sos: &Array) -> Result<(Array, Array)> {
    if sos.ndim() != 2 || sos.shape()[1] != 6 {
        return Err(Error::Value(
            "sos array must be shape (n_sections, 6)".into(),
        ));
    }
    if sos.dtype().is_complex() {
        return Err(Error::Unsupported("sos2tf of complex sections".into()));
    }
    let (b, a) = sos2tf_host(&sos.to_vec_as::<f64>()?);
    let dt = if sos.dtype() == DType::Float32 {
        DType::Float32
    } else {
        DType::Float64
    };
    Ok((
        Array::from_slice(&b, &[b.len()])?.astype(dt)?,
        Array::from_slice(&a, &[a.len()])?.astype(dt)?,
    ))
}

/// The zeros and poles of a [`Zpk`] as device arrays (complex128).
pub(crate) fn upload_zpk(zpk: &Zpk) -> Result<(Array, Array, f64)> {
    Ok((upload_c(&zpk.z)?, upload_c(&zpk.p)?, zpk.k))
}

/// Real coefficients as a float64 device array.
pub(crate) fn upload_real(v: &[f64]) -> Result<Array> {
    Array::from_slice(v, &[v.len()])
}
