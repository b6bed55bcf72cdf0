//! The Kaiser window and the Kaiser-Bessel-derived window, over a host
//! modified Bessel function of order 0.

use gpu_array::{Error, Result};

use super::{extend, len_guard, truncate};

/// `exp(-x) I0(x)` for `x >= 0`: the power series `sum (x/2)^(2k) /
/// (k!)^2` (positive terms, so a few ulps) up to 30, the asymptotic
/// series `(2 pi x)^(-1/2) sum ((2k-1)!!)^2 / (k! (8x)^k)` beyond (its
/// smallest term there is below 1e-25).
pub(crate) fn i0e(x: f64) -> f64 {
    let x = x.abs();
    if x <= 30.0 {
        let q = x * x / 4.0;
        let (mut term, mut sum) = (1.0f64, 1.0f64);
        let mut k = 1.0f64;
        while term > sum * 1e-18 {
            term *= q / (k * k);
            sum += term;
            k += 1.0;
        }
        sum * (-x).exp()
    } else {
        let (mut term, mut sum) = (1.0f64, 1.0f64);
        for k in 1..60 {
            let k = k as f64;
            let next = term * (2.0 * k - 1.0) * (2.0 * k - 1.0) / (k * 8.0 * x);
            if next < sum * 1e-18 || next > term {
                break;
            }
            term = next;
            sum += term;
        }
        sum / (2.0 * std::f64::consts::PI * x).sqrt()
    }
}

pub(super) fn kaiser(m: usize, beta: f64, sym: bool) -> Vec<f64> {
    if let Some(w) = len_guard(m) {
        return w;
    }
    let (m, trunc) = extend(m, sym);
    let alpha = (m as f64 - 1.0) / 2.0;
    let b = beta.abs();
    let den = i0e(b);
    let w = (0..m)
        .map(|n| {
            let r = (n as f64 - alpha) / alpha;
            let a = (beta * (1.0 - r * r).sqrt()).abs();
            // I0(a) / I0(b), as scaled values and one exponential.
            i0e(a) / den * (a - b).exp()
        })
        .collect();
    truncate(w, trunc)
}

pub(super) fn kaiser_bessel_derived(m: usize, beta: f64, sym: bool) -> Result<Vec<f64>> {
    if !sym {
        return Err(Error::Value(
            "Kaiser-Bessel Derived windows are only defined for symmetric shapes".into(),
        ));
    }
    if m < 1 {
        return Ok(Vec::new());
    }
    if m % 2 == 1 {
        return Err(Error::Value(
            "Kaiser-Bessel Derived windows are only defined for even number of points".into(),
        ));
    }
    let k = kaiser(m / 2 + 1, beta, true);
    let mut csum = Vec::with_capacity(k.len());
    let mut acc = 0.0;
    for v in &k {
        acc += v;
        csum.push(acc);
    }
    let total = csum[csum.len() - 1];
    let half: Vec<f64> = csum[..csum.len() - 1]
        .iter()
        .map(|c| (c / total).sqrt())
        .collect();
    Ok(half.iter().chain(half.iter().rev()).copied().collect())
}
