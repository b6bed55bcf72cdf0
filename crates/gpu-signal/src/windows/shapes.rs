//! The windows given by one closed formula each: boxcar, triangles
//! (triang, Bartlett), Parzen, Bohman, Bartlett-Hann, cosine, Lanczos,
//! exponential, Tukey, Gaussian and generalized Gaussian.

use std::f64::consts::PI;

use gpu_array::{Error, Result};

use super::{extend, len_guard, linspace, truncate};

pub(super) fn boxcar(m: usize, sym: bool) -> Vec<f64> {
    if let Some(w) = len_guard(m) {
        return w;
    }
    let (m, trunc) = extend(m, sym);
    truncate(vec![1.0; m], trunc)
}

pub(super) fn triang(m: usize, sym: bool) -> Vec<f64> {
    if let Some(w) = len_guard(m) {
        return w;
    }
    let (m, trunc) = extend(m, sym);
    let n = (1..=m.div_ceil(2)).map(|v| v as f64);
    let mf = m as f64;
    let w: Vec<f64> = if m % 2 == 0 {
        let h: Vec<f64> = n.map(|n| (2.0 * n - 1.0) / mf).collect();
        h.iter().chain(h.iter().rev()).copied().collect()
    } else {
        let h: Vec<f64> = n.map(|n| 2.0 * n / (mf + 1.0)).collect();
        h.iter()
            .chain(h[..h.len() - 1].iter().rev())
            .copied()
            .collect()
    };
    truncate(w, trunc)
}

pub(super) fn parzen(m: usize, sym: bool) -> Vec<f64> {
    if let Some(w) = len_guard(m) {
        return w;
    }
    let (m, trunc) = extend(m, sym);
    let mf = m as f64;
    let start = -(mf - 1.0) / 2.0;
    let w = (0..m)
        .map(|i| {
            let a = (start + i as f64).abs();
            if a <= (mf - 1.0) / 4.0 {
                1.0 - 6.0 * (a / (mf / 2.0)).powi(2) + 6.0 * (a / (mf / 2.0)).powi(3)
            } else {
                2.0 * (1.0 - a / (mf / 2.0)).powi(3)
            }
        })
        .collect();
    truncate(w, trunc)
}

pub(super) fn bohman(m: usize, sym: bool) -> Vec<f64> {
    if let Some(w) = len_guard(m) {
        return w;
    }
    let (m, trunc) = extend(m, sym);
    let fac = linspace(-1.0, 1.0, m);
    let mut w = vec![0.0; m];
    for i in 1..m - 1 {
        let f = fac[i].abs();
        w[i] = (1.0 - f) * (PI * f).cos() + 1.0 / PI * (PI * f).sin();
    }
    truncate(w, trunc)
}

pub(super) fn bartlett(m: usize, sym: bool) -> Vec<f64> {
    if let Some(w) = len_guard(m) {
        return w;
    }
    let (m, trunc) = extend(m, sym);
    let d = (m - 1) as f64;
    let w = (0..m)
        .map(|n| {
            let n = n as f64;
            if n <= d / 2.0 {
                2.0 * n / d
            } else {
                2.0 - 2.0 * n / d
            }
        })
        .collect();
    truncate(w, trunc)
}

pub(super) fn barthann(m: usize, sym: bool) -> Vec<f64> {
    if let Some(w) = len_guard(m) {
        return w;
    }
    let (m, trunc) = extend(m, sym);
    let d = m as f64 - 1.0;
    let w = (0..m)
        .map(|n| {
            let fac = (n as f64 / d - 0.5).abs();
            0.62 - 0.48 * fac + 0.38 * (2.0 * PI * fac).cos()
        })
        .collect();
    truncate(w, trunc)
}

pub(super) fn cosine(m: usize, sym: bool) -> Vec<f64> {
    if let Some(w) = len_guard(m) {
        return w;
    }
    let (m, trunc) = extend(m, sym);
    let w = (0..m)
        .map(|n| (PI / m as f64 * (n as f64 + 0.5)).sin())
        .collect();
    truncate(w, trunc)
}

/// NumPy's `sinc`: `sin(pi x) / (pi x)`, 1 at 0.
fn sinc(x: f64) -> f64 {
    if x == 0.0 {
        1.0
    } else {
        let y = PI * x;
        y.sin() / y
    }
}

pub(super) fn lanczos(m: usize, sym: bool) -> Vec<f64> {
    if let Some(w) = len_guard(m) {
        return w;
    }
    let (m, trunc) = extend(m, sym);
    let right = |from: usize| -> Vec<f64> {
        (from..m)
            .map(|n| sinc(2.0 * n as f64 / (m as f64 - 1.0) - 1.0))
            .collect()
    };
    let w: Vec<f64> = if m % 2 == 0 {
        let wh = right(m / 2);
        wh.iter().rev().chain(&wh).copied().collect()
    } else {
        let wh = right(m.div_ceil(2));
        wh.iter()
            .rev()
            .chain(std::iter::once(&1.0))
            .chain(&wh)
            .copied()
            .collect()
    };
    truncate(w, trunc)
}

pub(super) fn exponential(m: usize, center: Option<f64>, tau: f64, sym: bool) -> Result<Vec<f64>> {
    if sym && center.is_some() {
        return Err(Error::Value("If sym==True, center must be None.".into()));
    }
    if let Some(w) = len_guard(m) {
        return Ok(w);
    }
    let (m, trunc) = extend(m, sym);
    let c = center.unwrap_or((m as f64 - 1.0) / 2.0);
    let w = (0..m)
        .map(|n| (-(n as f64 - c).abs() / tau).exp())
        .collect();
    Ok(truncate(w, trunc))
}

pub(super) fn tukey(m: usize, alpha: f64, sym: bool) -> Vec<f64> {
    if let Some(w) = len_guard(m) {
        return w;
    }
    if alpha <= 0.0 {
        return vec![1.0; m];
    }
    if alpha >= 1.0 {
        return super::cosine_sums::general_cosine(m, &[0.5, 0.5], sym);
    }
    let (m, trunc) = extend(m, sym);
    let d = (m - 1) as f64;
    let width = (alpha * d / 2.0).floor() as usize;
    let w = (0..m)
        .map(|i| {
            let n = i as f64;
            if i <= width {
                0.5 * (1.0 + (PI * (-1.0 + 2.0 * n / alpha / d)).cos())
            } else if i < m - width - 1 {
                1.0
            } else {
                0.5 * (1.0 + (PI * (-2.0 / alpha + 1.0 + 2.0 * n / alpha / d)).cos())
            }
        })
        .collect();
    truncate(w, trunc)
}

pub(super) fn gaussian(m: usize, std: f64, sym: bool) -> Vec<f64> {
    if let Some(w) = len_guard(m) {
        return w;
    }
    let (m, trunc) = extend(m, sym);
    let sig2 = 2.0 * std * std;
    let c = (m as f64 - 1.0) / 2.0;
    let w = (0..m)
        .map(|n| {
            let n = n as f64 - c;
            (-(n * n) / sig2).exp()
        })
        .collect();
    truncate(w, trunc)
}

pub(super) fn general_gaussian(m: usize, p: f64, sig: f64, sym: bool) -> Vec<f64> {
    if let Some(w) = len_guard(m) {
        return w;
    }
    let (m, trunc) = extend(m, sym);
    let c = (m as f64 - 1.0) / 2.0;
    let w = (0..m)
        .map(|n| (-0.5 * ((n as f64 - c) / sig).abs().powf(2.0 * p)).exp())
        .collect();
    truncate(w, trunc)
}
