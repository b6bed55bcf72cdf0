//! Whether a window and overlap allow the STFT to be inverted (SciPy's
//! `check_COLA`, `check_NOLA`): host checks on the window's values.

use gpu_array::{Error, Result};

use super::options::WindowLike;

/// The window's `nperseg` values after SciPy's checks of the two
/// functions (`nonnegative`: `check_NOLA`'s check of `noverlap`).
fn window(window: &WindowLike, nperseg: usize, noverlap: usize, nola: bool) -> Result<Vec<f64>> {
    if nperseg < 1 {
        return Err(Error::Value("nperseg must be a positive integer".into()));
    }
    if noverlap >= nperseg {
        return Err(Error::Value(if nola {
            "noverlap must be less than nperseg".into()
        } else {
            "noverlap must be less than nperseg.".into()
        }));
    }
    match window {
        WindowLike::Spec(s) => s.values(nperseg, true),
        WindowLike::Values(w) => {
            if w.len() != nperseg {
                return Err(Error::Value("window must have length of nperseg".into()));
            }
            Ok(w.clone())
        }
    }
}

/// The sums of `f(window)` over the segments that overlap each of `step`
/// positions (SciPy's `binsums`).
fn binsums(win: &[f64], step: usize, f: impl Fn(f64) -> f64) -> Vec<f64> {
    let n = win.len();
    let mut sums = vec![0.0; step];
    for ii in 0..n / step {
        for (s, &w) in sums.iter_mut().zip(&win[ii * step..(ii + 1) * step]) {
            *s += f(w);
        }
    }
    let rem = n % step;
    if rem != 0 {
        for (s, &w) in sums.iter_mut().zip(&win[n - rem..]) {
            *s += f(w);
        }
    }
    sums
}

/// SciPy's `check_COLA(window, nperseg, noverlap, tol)`: whether the
/// window's shifted copies, `nperseg - noverlap` apart, add up to a
/// constant (within `tol`, SciPy's default 1e-10): the constant
/// overlap-add condition. Computed on the host.
///
/// ```
/// use gpu_signal::check_cola;
/// use gpu_signal::windows::WindowSpec;
/// let hann: WindowSpec = "hann".parse()?; // periodic, as get_window's
/// assert!(check_cola(&hann.into(), 256, 128, 1e-10)?);
/// assert!(!check_cola(&vec![1.0, 2.0, 1.0].into(), 3, 0, 1e-10)?); // no overlap
/// assert!(check_cola(&vec![1.0, 2.0, 1.0].into(), 3, 1, 1e-10)?); // 2, 2, ...
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// SciPy's (`Value`): `nperseg` zero ("nperseg must be a positive
/// integer"), `noverlap >= nperseg`, window values not `nperseg` long; an
/// unknown window's error.
pub fn check_cola(window: &WindowLike, nperseg: usize, noverlap: usize, tol: f64) -> Result<bool> {
    let win = self::window(window, nperseg, noverlap, false)?;
    let sums = binsums(&win, nperseg - noverlap, |w| w);
    // NumPy's median: the middle value, or the mean of the middle two.
    let mut sorted = sums.clone();
    sorted.sort_by(f64::total_cmp);
    let m = sorted.len();
    let median = if m % 2 == 1 {
        sorted[m / 2]
    } else {
        (sorted[m / 2 - 1] + sorted[m / 2]) / 2.0
    };
    let dev = sums.iter().fold(0.0f64, |d, s| d.max((s - median).abs()));
    Ok(dev < tol)
}

/// SciPy's `check_NOLA(window, nperseg, noverlap, tol)`: whether the
/// squared window's shifted copies, `nperseg - noverlap` apart, add up to
/// more than `tol` everywhere (SciPy's default 1e-10): the nonzero
/// overlap-add condition [`istft`](crate::istft) needs. Computed on the
/// host.
///
/// ```
/// use gpu_signal::check_nola;
/// use gpu_signal::windows::WindowSpec;
/// let hann: WindowSpec = "hann".parse()?;
/// assert!(check_nola(&hann.clone().into(), 256, 128, 1e-10)?);
/// assert!(!check_nola(&hann.into(), 256, 0, 1e-10)?); // the window's zero at 0
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// As [`check_cola`].
pub fn check_nola(window: &WindowLike, nperseg: usize, noverlap: usize, tol: f64) -> Result<bool> {
    let win = self::window(window, nperseg, noverlap, true)?;
    let sums = binsums(&win, nperseg - noverlap, |w| w * w);
    Ok(sums.iter().fold(f64::INFINITY, |m, &s| m.min(s)) > tol)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::windows::WindowSpec;

    #[test]
    fn cola_and_nola_are_scipys() {
        // scipy.signal.check_COLA / check_NOLA, SciPy 1.17.
        let spec = |s: &str| -> WindowLike { s.parse::<WindowSpec>().unwrap().into() };
        let cola = [
            ("hann", 256, 128, true),
            ("hann", 256, 192, true),
            ("hann", 256, 100, false),
            ("boxcar", 64, 0, true),
            ("boxcar", 64, 63, true),
            ("hamming", 100, 50, true),
            ("blackman", 100, 50, false),
            ("bartlett", 100, 50, true),
            ("triang", 101, 50, false),
        ];
        for (w, n, o, want) in cola {
            assert_eq!(
                check_cola(&spec(w), n, o, 1e-10).unwrap(),
                want,
                "COLA {w} {n} {o}"
            );
        }
        let nola = [
            ("hann", 256, 128, true),
            ("hann", 256, 0, false),
            ("boxcar", 64, 0, true),
            ("bartlett", 100, 50, true),
            ("bartlett", 100, 0, false),
            ("blackman", 100, 30, true),
        ];
        for (w, n, o, want) in nola {
            assert_eq!(
                check_nola(&spec(w), n, o, 1e-10).unwrap(),
                want,
                "NOLA {w} {n} {o}"
            );
        }
        // Values: a zero covered by the next segment's last sample, and
        // one no other segment covers.
        assert!(check_nola(&vec![0.0, 1.0, 1.0].into(), 3, 1, 1e-10).unwrap());
        assert!(!check_nola(&vec![0.0, 1.0, 1.0].into(), 3, 0, 1e-10).unwrap());
        let e = |r: Result<bool>| r.unwrap_err().to_string();
        assert!(
            e(check_cola(&spec("hann"), 0, 0, 1e-10))
                .contains("nperseg must be a positive integer")
        );
        assert!(
            e(check_cola(&spec("hann"), 8, 8, 1e-10))
                .contains("noverlap must be less than nperseg.")
        );
        assert!(
            e(check_nola(&vec![1.0; 4].into(), 5, 1, 1e-10))
                .contains("window must have length of nperseg")
        );
    }
}
