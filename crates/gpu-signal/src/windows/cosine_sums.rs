//! The cosine-sum windows (`general_cosine` and its named weights:
//! Blackman, Nuttall, Blackman-Harris, flat top, Hamming, Hann).

use super::{extend, len_guard, linspace, truncate};

/// Blackman's weights.
pub(super) const BLACKMAN: [f64; 3] = [0.42, 0.50, 0.08];
/// Nuttall's minimum 4-term Blackman-Harris weights.
pub(super) const NUTTALL: [f64; 4] = [0.3635819, 0.4891775, 0.1365995, 0.0106411];
/// The minimum 4-term Blackman-Harris weights.
pub(super) const BLACKMANHARRIS: [f64; 4] = [0.35875, 0.48829, 0.14128, 0.01168];
/// The flat top weights.
pub(super) const FLATTOP: [f64; 5] = [
    0.21557895,
    0.41663158,
    0.277263158,
    0.083578947,
    0.006947368,
];

/// SciPy's `_general_cosine_impl`: `sum_k a[k] cos(k x)` over
/// `x = linspace(-pi, pi, M)`, the terms added in SciPy's order.
pub(super) fn general_cosine(m: usize, a: &[f64], sym: bool) -> Vec<f64> {
    if let Some(w) = len_guard(m) {
        return w;
    }
    let (m, trunc) = extend(m, sym);
    let fac = linspace(-std::f64::consts::PI, std::f64::consts::PI, m);
    let mut w = vec![0.0; m];
    for (k, &ak) in a.iter().enumerate() {
        for (wi, &f) in w.iter_mut().zip(&fac) {
            *wi += ak * (k as f64 * f).cos();
        }
    }
    truncate(w, trunc)
}
