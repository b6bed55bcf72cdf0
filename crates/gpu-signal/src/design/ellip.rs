//! The elliptic-function numerics of `ellipap`, on the host: the complete
//! elliptic integral `K(m)` and `K(1 - p)` by the arithmetic-geometric
//! mean, Jacobi's `sn`, `cn`, `dn` by Cephes' descending Landen
//! transformation (SciPy's `ellipj`), and SciPy's `_ellipdeg` and
//! `_arc_jac_sn`/`_arc_jac_sc1`.

use num_complex::Complex64;
use std::f64::consts::{FRAC_PI_2, PI};

/// The arithmetic-geometric mean of `a` and `b`.
fn agm(mut a: f64, mut b: f64) -> f64 {
    for _ in 0..64 {
        let (an, bn) = (0.5 * (a + b), (a * b).sqrt());
        if (an - bn).abs() <= f64::EPSILON * an {
            return an;
        }
        a = an;
        b = bn;
    }
    a
}

/// `K(m)`, the complete elliptic integral of the first kind of parameter
/// `m < 1` (SciPy's `ellipk`).
pub(crate) fn ellipk(m: f64) -> f64 {
    if m == 1.0 {
        return f64::INFINITY;
    }
    PI / (2.0 * agm(1.0, (1.0 - m).sqrt()))
}

/// `K(1 - p)`, accurate for small `p` (SciPy's `ellipkm1`).
pub(crate) fn ellipkm1(p: f64) -> f64 {
    if p == 0.0 {
        return f64::INFINITY;
    }
    PI / (2.0 * agm(1.0, p.sqrt()))
}

/// Jacobi's elliptic functions `(sn, cn, dn)` of `u` and parameter
/// `0 <= m <= 1` (Cephes' `ellpj`, SciPy's `ellipj`).
pub(crate) fn ellipj(u: f64, m: f64) -> (f64, f64, f64) {
    if m < 1e-9 {
        let (t, b) = (u.sin(), u.cos());
        let ai = 0.25 * m * (u - t * b);
        return (t - ai * b, b + ai * t, 1.0 - 0.5 * m * t * t);
    }
    if m >= 0.999_999_999_9 {
        let mut ai = 0.25 * (1.0 - m);
        let b = u.cosh();
        let t = u.tanh();
        let phi = 1.0 / b;
        let twon = b * u.sinh();
        let sn = t + ai * (twon - u) / (b * b);
        ai *= t * phi;
        return (sn, phi - ai * (twon - u), phi + ai * (twon + u));
    }
    let mut a = [0.0f64; 9];
    let mut c = [0.0f64; 9];
    a[0] = 1.0;
    let mut b = (1.0 - m).sqrt();
    c[0] = m.sqrt();
    let mut twon = 1.0;
    let mut i = 0;
    while (c[i] / a[i]).abs() > f64::EPSILON / 2.0 {
        if i > 7 {
            break;
        }
        let ai = a[i];
        i += 1;
        c[i] = (ai - b) / 2.0;
        let t = (ai * b).sqrt();
        a[i] = (ai + b) / 2.0;
        b = t;
        twon *= 2.0;
    }
    let mut phi = twon * a[i] * u;
    let mut prev;
    loop {
        let t = c[i] * phi.sin() / a[i];
        prev = phi;
        phi = (t.asin() + phi) / 2.0;
        i -= 1;
        if i == 0 {
            break;
        }
    }
    let (sn, cn) = (phi.sin(), phi.cos());
    (sn, cn, cn / (phi - prev).cos())
}

/// SciPy's `_ellipdeg`: the parameter `m` of the elliptic filter of order
/// `n` whose discrimination parameter is `m1`, by the nome series.
pub(crate) fn ellipdeg(n: usize, m1: f64) -> f64 {
    const MMAX: i32 = 7;
    let (k1, k1p) = (ellipk(m1), ellipkm1(m1));
    let q1 = (-PI * k1p / k1).exp();
    let q = q1.powf(1.0 / n as f64);
    let num: f64 = (0..=MMAX).map(|m| q.powi(m * (m + 1))).sum();
    let den = 1.0 + 2.0 * (1..=MMAX + 1).map(|m| q.powi(m * m)).sum::<f64>();
    16.0 * q * (num / den).powi(4)
}

/// SciPy's `_arc_jac_sn`: the inverse of Jacobi's `sn` of complex `w`
/// for parameter `m`, by Landen transformations.
fn arc_jac_sn(w: Complex64, m: f64) -> Option<Complex64> {
    let complement = |kx: Complex64| ((1.0 - kx) * (1.0 + kx)).sqrt();
    let k = m.sqrt();
    if k > 1.0 {
        return None;
    }
    if k == 1.0 {
        return Some(w.atanh());
    }
    let mut ks = vec![k];
    while *ks.last()? != 0.0 {
        let k_ = *ks.last()?;
        let kp = complement(Complex64::new(k_, 0.0)).re;
        ks.push((1.0 - kp) / (1.0 + kp));
        if ks.len() > 11 {
            return None;
        }
    }
    let big_k = ks[1..].iter().map(|v| 1.0 + v).product::<f64>() * FRAC_PI_2;
    let mut wn = w;
    for pair in ks.windows(2) {
        let (kn, knext) = (pair[0], pair[1]);
        wn = 2.0 * wn / ((1.0 + knext) * (1.0 + complement(kn * wn)));
    }
    let u = 2.0 / PI * wn.asin();
    Some(big_k * u)
}

/// SciPy's `_arc_jac_sc1`: the real inverse of Jacobi's `sc` at `w` for
/// parameter `m` (`None` where SciPy raises).
pub(crate) fn arc_jac_sc1(w: f64, m: f64) -> Option<f64> {
    let z = arc_jac_sn(Complex64::new(0.0, w), m)?;
    if z.re.abs() > 1e-14 {
        return None;
    }
    Some(z.im)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elliptic_functions_are_scipys() {
        // scipy.special.ellipk(0.5), ellipkm1(1e-10), ellipj(0.7, 0.3)
        assert!((ellipk(0.5) - 1.854_074_677_301_372).abs() < 1e-15);
        assert!((ellipkm1(1e-10) - 12.899_219_826_387_6).abs() < 1e-13);
        let (sn, cn, dn) = ellipj(0.7, 0.3);
        assert!((sn - 0.632_304_776_310_864_6).abs() < 1e-15, "{sn}");
        assert!((cn - 0.774_719_736_326_929_8).abs() < 1e-15, "{cn}");
        assert!((dn - 0.938_113_639_681_430_4).abs() < 1e-15, "{dn}");
    }
}
