//! The windows designed for a sidelobe level: Dolph-Chebyshev
//! (`chebwin`) and Taylor.

use std::f64::consts::PI;

use super::{extend, len_guard, truncate};

pub(super) fn chebwin(m: usize, at: f64, sym: bool) -> Vec<f64> {
    if let Some(w) = len_guard(m) {
        return w;
    }
    let (m, trunc) = extend(m, sym);
    let order = m as f64 - 1.0;
    let beta = (1.0 / order * 10f64.powf(at.abs() / 20.0).acosh()).cosh();
    let odd = m % 2 == 1;
    let p: Vec<f64> = (0..m)
        .map(|k| {
            let x = beta * (PI * k as f64 / m as f64).cos();
            if x > 1.0 {
                (order * x.acosh()).cosh()
            } else if x < -1.0 {
                let sign = if odd { 1.0 } else { -1.0 };
                sign * (order * (-x).acosh()).cosh()
            } else {
                (order * x.acos()).cos()
            }
        })
        .collect();
    // SciPy takes the real part of an FFT of p (times exp(i pi j / M) for
    // even M); the needed bins are summed directly, the angles reduced
    // exactly in integers first.
    let mi = m as u128;
    let w = if odd {
        let n = m.div_ceil(2);
        let half: Vec<f64> = (0..n)
            .map(|k| {
                p.iter()
                    .enumerate()
                    .map(|(j, &pj)| {
                        let r = (j as u128 * k as u128) % mi;
                        pj * (2.0 * PI * r as f64 / m as f64).cos()
                    })
                    .sum()
            })
            .collect();
        half[1..]
            .iter()
            .rev()
            .chain(&half)
            .copied()
            .collect::<Vec<f64>>()
    } else {
        let n = m / 2 + 1;
        let half: Vec<f64> = (1..n)
            .map(|k| {
                p.iter()
                    .enumerate()
                    .map(|(j, &pj)| {
                        // cos(pi j (1 - 2k) / M), the angle mod 2 pi.
                        let r = (j as u128 * (2 * k as u128 - 1)) % (2 * mi);
                        pj * (PI * r as f64 / m as f64).cos()
                    })
                    .sum()
            })
            .collect();
        half.iter()
            .rev()
            .chain(&half)
            .copied()
            .collect::<Vec<f64>>()
    };
    let max = w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    truncate(w.into_iter().map(|v| v / max).collect(), trunc)
}

pub(super) fn taylor(m: usize, nbar: usize, sll: f64, norm: bool, sym: bool) -> Vec<f64> {
    if let Some(w) = len_guard(m) {
        return w;
    }
    let (m, trunc) = extend(m, sym);
    let b = 10f64.powf(sll / 20.0);
    let a = b.acosh() / PI;
    let s2 = (nbar * nbar) as f64 / (a * a + (nbar as f64 - 0.5).powi(2));
    let ma: Vec<f64> = (1..nbar).map(|v| v as f64).collect();
    let m2: Vec<f64> = ma.iter().map(|v| v * v).collect();
    let fm: Vec<f64> = (0..ma.len())
        .map(|mi| {
            let sign = if mi % 2 == 0 { 1.0 } else { -1.0 };
            let numer = sign
                * ma.iter()
                    .map(|&mm| 1.0 - m2[mi] / s2 / (a * a + (mm - 0.5).powi(2)))
                    .product::<f64>();
            let d1: f64 = m2[..mi].iter().map(|&v| 1.0 - m2[mi] / v).product();
            let d2: f64 = m2[mi + 1..].iter().map(|&v| 1.0 - m2[mi] / v).product();
            numer / (2.0 * d1 * d2)
        })
        .collect();
    let mf = m as f64;
    let big_w = |n: f64| {
        1.0 + 2.0
            * fm.iter()
                .zip(&ma)
                .map(|(&f, &mm)| f * (2.0 * PI * mm * (n - mf / 2.0 + 0.5) / mf).cos())
                .sum::<f64>()
    };
    let mut w: Vec<f64> = (0..m).map(|n| big_w(n as f64)).collect();
    if norm {
        let scale = 1.0 / big_w((mf - 1.0) / 2.0);
        for v in &mut w {
            *v *= scale;
        }
    }
    truncate(w, trunc)
}
