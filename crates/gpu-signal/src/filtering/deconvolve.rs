//! Polynomial division (SciPy's `deconvolve`): `signal = convolve(divisor,
//! quotient) + remainder`, the quotient as the impulse response of the
//! filter `signal / divisor` (SciPy's `lfilter`), on the host: each
//! quotient term depends on the ones before it.

use gpu_array::{Array, Error, Result};

/// SciPy's `deconvolve` on the host: `(quotient, remainder)`.
pub(crate) fn deconvolve_host(num: &[f64], den: &[f64]) -> Result<(Vec<f64>, Vec<f64>)> {
    let (n, d) = (num.len(), den.len());
    if d == 0 {
        return Err(Error::Value("divisor must not be empty".into()));
    }
    if d > n {
        return Ok((Vec::new(), num.to_vec()));
    }
    let a0 = den[0];
    if a0 == 0.0 {
        return Err(Error::Value(
            "BUG: filter coefficient a[0] == 0 not supported yet".into(),
        ));
    }
    // lfilter normalizes by a[0] first.
    let b: Vec<f64> = num.iter().map(|v| v / a0).collect();
    let a: Vec<f64> = den.iter().map(|v| v / a0).collect();
    let len = n - d + 1;
    let mut quot = vec![0.0; len];
    for k in 0..len {
        let mut y = b[k];
        for j in 1..d.min(k + 1) {
            y -= a[j] * quot[k - j];
        }
        quot[k] = y;
    }
    // remainder = signal - convolve(divisor, quotient, 'full') (length n).
    let mut rem = num.to_vec();
    for (i, &dv) in den.iter().enumerate() {
        for (j, &q) in quot.iter().enumerate() {
            rem[i + j] -= dv * q;
        }
    }
    Ok((quot, rem))
}

fn host(v: &Array, what: &str) -> Result<Vec<f64>> {
    if v.ndim() > 1 {
        return Err(Error::Value(format!("{what} must be 1-D.")));
    }
    super::host_reals(v, what)
}

/// SciPy's `deconvolve(signal, divisor)`: the quotient and remainder of
/// dividing the polynomial `signal` by `divisor` (coefficients highest
/// power first), so that `signal = convolve(divisor, quotient) +
/// remainder`, as float64 device arrays (computed on the host).
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let signal = Array::from_slice(&[0.0f64, 1.0, 0.5, 0.5, 0.25], &[5])?;
/// let divisor = Array::from_slice(&[1.0f64, 2.0], &[2])?;
/// let (quotient, remainder) = gpu_signal::deconvolve(&signal, &divisor)?; // [0, 1, -1.5, 3.5], [0, 0, 0, 0, -6.75]
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's (`Value`): `signal` or `divisor` not 1-D ("signal must be
/// 1-D."), a divisor starting with 0; an empty divisor; complex values
/// (`Unsupported`).
pub fn deconvolve(signal: &Array, divisor: &Array) -> Result<(Array, Array)> {
    let (q, r) = deconvolve_host(&host(signal, "signal")?, &host(divisor, "divisor")?)?;
    Ok((
        Array::from_slice(&q, &[q.len()])?,
        Array::from_slice(&r, &[r.len()])?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_is_scipys() {
        // scipy.signal.deconvolve([0, 1, 0.5, 0.5, 0.25], [1, 2])
        let (q, r) = deconvolve_host(&[0.0, 1.0, 0.5, 0.5, 0.25], &[1.0, 2.0]).unwrap();
        assert_eq!(q, [0.0, 1.0, -1.5, 3.5]);
        assert_eq!(r, [0.0, 0.0, 0.0, 0.0, -6.75]);
        // An exact division: signal = [1, 2] * [3, 1, 4].
        let (q, r) = deconvolve_host(&[3.0, 7.0, 6.0, 8.0], &[1.0, 2.0]).unwrap();
        assert_eq!((q, r), (vec![3.0, 1.0, 4.0], vec![0.0; 4]));
        // A leading coefficient other than 1, and a divisor longer than the
        // signal.
        let (q, r) = deconvolve_host(&[2.0, 5.0, 3.0], &[2.0, 1.0]).unwrap();
        assert_eq!((q, r), (vec![1.0, 2.0], vec![0.0, 0.0, 1.0]));
        let (q, r) = deconvolve_host(&[1.0], &[1.0, 2.0]).unwrap();
        assert_eq!((q, r), (vec![], vec![1.0]));
        assert!(
            deconvolve_host(&[1.0, 2.0], &[0.0, 1.0])
                .unwrap_err()
                .to_string()
                .contains("a[0] == 0")
        );
    }
}
