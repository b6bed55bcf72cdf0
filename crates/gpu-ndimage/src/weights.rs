//! Filter weights built on the host: SciPy's Gaussian kernel and its
//! derivatives (`_gaussian_kernel1d`), and the test SciPy's C code makes
//! for symmetric weights (which picks its order of summation).

use gpu_array::{Error, Result};

/// NumPy's pairwise sum of float64 values (`np.sum` of a contiguous
/// array): eight running sums over blocks of up to 128, halves above;
/// the normalisation of the Gaussian divides by exactly this sum.
fn numpy_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        return a.iter().fold(-0.0, |s, v| s + v);
    }
    if n <= 128 {
        let mut r = [0.0; 8];
        r.copy_from_slice(&a[..8]);
        let mut i = 8;
        while i < n - n % 8 {
            for (j, rj) in r.iter_mut().enumerate() {
                *rj += a[i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for v in &a[i..] {
            res += v;
        }
        return res;
    }
    let mut n2 = n / 2;
    n2 -= n2 % 8;
    numpy_sum(&a[..n2]) + numpy_sum(&a[n2..])
}

/// SciPy's `_gaussian_kernel1d(sigma, order, radius)`: the normalised
/// Gaussian on `-radius..=radius`, times the polynomial that makes it the
/// `order`-th derivative (`q' = D q + P q`, a Hermite recurrence).
///
/// # Errors
/// A negative order: SciPy's "order must be non-negative".
pub fn gaussian_kernel1d(sigma: f64, order: i64, radius: usize) -> Result<Vec<f64>> {
    if order < 0 {
        return Err(Error::Value("order must be non-negative".into()));
    }
    let order =
        usize::try_from(order).map_err(|_| Error::Value("order must be non-negative".into()))?;
    let r = i64::try_from(radius).map_err(|_| Error::Overflow("radius too large".into()))?;
    let sigma2 = sigma * sigma;
    let scale = -0.5 / sigma2;
    let xs: Vec<i64> = (-r..=r).collect();
    let mut phi: Vec<f64> = xs
        .iter()
        .map(|&x| (scale * x.saturating_mul(x) as f64).exp())
        .collect();
    let total = numpy_sum(&phi);
    for p in &mut phi {
        *p /= total;
    }
    if order == 0 {
        return Ok(phi);
    }
    // q holds the coefficients of the polynomial factor; each step
    // applies (D + P): D differentiates, P multiplies by p'(x) = -x/sigma2.
    let mut q = vec![0.0; order + 1];
    q[0] = 1.0;
    let down = 1.0 / -sigma2;
    for _ in 0..order {
        let next: Vec<f64> = (0..=order)
            .map(|i| {
                let from_p = if i >= 1 { down * q[i - 1] } else { 0.0 };
                let from_d = if i < order {
                    (i + 1) as f64 * q[i + 1]
                } else {
                    0.0
                };
                from_p + from_d
            })
            .collect();
        q = next;
    }
    Ok(xs
        .iter()
        .zip(&phi)
        .map(|(&x, &p)| {
            let mut poly = 0.0;
            let mut xk = 1.0f64;
            for qk in &q {
                poly += xk * qk;
                xk *= x as f64;
            }
            poly * p
        })
        .collect())
}

/// SciPy's `gaussian_filter1d` radius: `int(truncate * sigma + 0.5)`, or
/// `radius` when given.
///
/// # Errors
/// A negative radius (a negative sigma makes one): SciPy's "Radius must
/// be a nonnegative integer."
pub fn gaussian_radius(sigma: f64, truncate: f64, radius: Option<i64>) -> Result<usize> {
    let lw = match radius {
        Some(r) => r,
        None => {
            let v = (truncate * sigma + 0.5).trunc();
            if !v.is_finite() || v.abs() > 1e15 {
                return Err(Error::Value("Radius must be a nonnegative integer.".into()));
            }
            v as i64
        }
    };
    usize::try_from(lw).map_err(|_| Error::Value("Radius must be a nonnegative integer.".into()))
}

/// How SciPy's `NI_Correlate1D` sums: 1 for symmetric weights (odd
/// length, each pair within `DBL_EPSILON`), -1 for antisymmetric ones,
/// 0 otherwise.
pub(crate) fn symmetry(w: &[f64]) -> i32 {
    let n = w.len();
    if n.is_multiple_of(2) {
        return 0;
    }
    let c = n / 2;
    if (1..=c).all(|i| (w[c + i] - w[c - i]).abs() <= f64::EPSILON) {
        return 1;
    }
    if (1..=c).all(|i| (w[c + i] + w[c - i]).abs() <= f64::EPSILON) {
        return -1;
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: &[f64], want: &[f64]) {
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert!(
                (g - w).abs() <= 4.0 * f64::EPSILON * w.abs().max(1e-300),
                "{got:?}\n{want:?}"
            );
        }
    }

    /// SciPy 1.17's `_gaussian_kernel1d` outputs, printed with repr.
    #[test]
    fn gaussian_weights_are_scipys() {
        close(
            &gaussian_kernel1d(1.5, 0, 6).unwrap(),
            &[
                8.922106863539231e-05,
                0.001028196578138909,
                0.007597402196596929,
                0.03599434807370883,
                0.1093411749545305,
                0.212967528547854,
                0.2659642571610709,
                0.212967528547854,
                0.1093411749545305,
                0.03599434807370883,
                0.007597402196596929,
                0.001028196578138909,
                8.922106863539231e-05,
            ],
        );
        close(
            &gaussian_kernel1d(1.0, 1, 4).unwrap(),
            &[
                0.000535322498458967,
                0.013295584860093797,
                0.10798225484140882,
                0.24197144565660073,
                0.0,
                -0.24197144565660073,
                -0.10798225484140882,
                -0.013295584860093797,
                -0.000535322498458967,
            ],
        );
        close(
            &gaussian_kernel1d(2.0, 2, 8).unwrap(),
            &[
                0.0002509360858973832,
                0.0012272316201753421,
                0.00443192634519311,
                0.011503149476156454,
                0.020246968475474136,
                0.020237480188977326,
                0.0,
                -0.03300670479089819,
                -0.04986866196618625,
                -0.03300670479089819,
                0.0,
                0.020237480188977326,
                0.020246968475474136,
                0.011503149476156454,
                0.00443192634519311,
                0.0012272316201753421,
                0.0002509360858973832,
            ],
        );
        close(
            &gaussian_kernel1d(0.8, 3, 3).unwrap(),
            &[
                0.03571086545426656,
                0.34769785672331827,
                -0.8012613645240333,
                0.0,
                0.8012613645240333,
                -0.34769785672331827,
                -0.03571086545426656,
            ],
        );
    }

    #[test]
    fn radius_and_order_checks_are_scipys() {
        assert_eq!(gaussian_radius(2.0, 4.0, None).unwrap(), 8);
        assert_eq!(gaussian_radius(1.1, 4.0, None).unwrap(), 4);
        assert_eq!(gaussian_radius(2.0, 4.0, Some(3)).unwrap(), 3);
        // int(4 * -0.1 + 0.5) == 0: SciPy accepts it.
        assert_eq!(gaussian_radius(-0.1, 4.0, None).unwrap(), 0);
        for bad in [
            gaussian_radius(-1.0, 4.0, None),
            gaussian_radius(1.0, 4.0, Some(-1)),
        ] {
            assert_eq!(
                bad.unwrap_err().to_string(),
                "Radius must be a nonnegative integer."
            );
        }
        assert_eq!(
            gaussian_kernel1d(1.0, -1, 3).unwrap_err().to_string(),
            "order must be non-negative"
        );
    }

    #[test]
    fn numpy_sums_and_symmetry() {
        let v: Vec<f64> = (0..300).map(|i| 1.0 / (1.0 + i as f64)).collect();
        let s = numpy_sum(&v);
        assert!((s - v.iter().sum::<f64>()).abs() < 1e-12);
        assert_eq!(symmetry(&[1.0, 2.0, 1.0]), 1);
        assert_eq!(symmetry(&[-1.0, 0.0, 1.0]), -1);
        assert_eq!(symmetry(&[1.0, 2.0, 3.0]), 0);
        assert_eq!(symmetry(&[1.0, 1.0]), 0);
        assert_eq!(symmetry(&[5.0]), 1);
    }
}
