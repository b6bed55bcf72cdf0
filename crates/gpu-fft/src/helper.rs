//! The helper routines of `numpy.fft`: sample frequencies and the shifts
//! that move the zero frequency to the middle.

use gpu_array::creation::arange_with;
use gpu_array::manipulation::roll;
use gpu_array::{Array, DType, Error, Result, layout::normalize_axis, ufunc};

/// NumPy's `fftfreq(n, d)`: the sample frequencies of an `n`-point
/// transform with sample spacing `d`, `[0, 1, ..., n/2-1, -n/2, ..., -1] / (d*n)`
/// for even `n`, float64.
///
/// ```no_run
/// let f = gpu_fft::fftfreq(4, 0.5)?.to_vec::<f64>()?;
/// assert_eq!(f, [0.0, 0.5, -1.0, -0.5]);
/// # Ok::<(), gpu_fft::Error>(())
/// ```
///
/// # Errors
/// `n == 0` (NumPy divides by zero), or the device failed.
pub fn fftfreq(n: usize, d: f64) -> Result<Array> {
    if n == 0 {
        return Err(Error::ZeroDivision("division by zero".into()));
    }
    let n64 = length(n)?;
    let val = 1.0 / (n as f64 * d);
    let positive = n.div_ceil(2) as i64;
    let k = arange_with(0i64, n64, 1i64, Some(DType::Int64))?;
    // k < (n+1)//2 stays, the rest wrap to k - n.
    let wrap = ufunc::multiply(ufunc::greater_equal(&k, positive)?, n64)?;
    ufunc::multiply(ufunc::subtract(&k, wrap)?, val)
}

/// NumPy's `rfftfreq(n, d)`: the `n/2 + 1` non-negative frequencies of
/// an `n`-point real transform, float64.
///
/// ```no_run
/// let f = gpu_fft::rfftfreq(5, 1.0)?.to_vec::<f64>()?;
/// assert_eq!(f, [0.0, 0.2, 0.4]);
/// # Ok::<(), gpu_fft::Error>(())
/// ```
///
/// # Errors
/// `n == 0`, or the device failed.
pub fn rfftfreq(n: usize, d: f64) -> Result<Array> {
    if n == 0 {
        return Err(Error::ZeroDivision("division by zero".into()));
    }
    let half = length(n / 2 + 1)?;
    let val = 1.0 / (n as f64 * d);
    let k = arange_with(0i64, half, 1i64, Some(DType::Int64))?;
    ufunc::multiply(&k, val)
}

/// A length as the int64 `arange` takes (NumPy's too-big error beyond).
fn length(n: usize) -> Result<i64> {
    i64::try_from(n).map_err(|_| crate::basic::too_big())
}

fn shift(x: &Array, axes: Option<&[isize]>, inverse: bool) -> Result<Array> {
    let all: Vec<isize> = (0..x.ndim() as isize).collect();
    let axes = axes.unwrap_or(&all);
    let mut shifts = Vec::with_capacity(axes.len());
    for &a in axes {
        let len = x.shape()[normalize_axis(a, x.ndim())?] as isize;
        shifts.push(if inverse { -(len / 2) } else { len / 2 });
    }
    roll(x, &shifts, Some(axes))
}

/// NumPy's `fftshift(x, axes)`: rolls each axis (all by default) by half
/// its length, moving the zero frequency to the middle.
///
/// ```no_run
/// let f = gpu_fft::fftfreq(5, 1.0)?;
/// let s = gpu_fft::fftshift(&f, None)?.to_vec::<f64>()?;
/// assert_eq!(s, [-0.4, -0.2, 0.0, 0.2, 0.4]);
/// # Ok::<(), gpu_fft::Error>(())
/// ```
///
/// # Errors
/// An axis out of range, or the device failed.
pub fn fftshift(x: &Array, axes: Option<&[isize]>) -> Result<Array> {
    shift(x, axes, false)
}

/// NumPy's `ifftshift(x, axes)`, the inverse of [`fftshift`] (they differ
/// for odd lengths).
///
/// ```no_run
/// let f = gpu_fft::fftfreq(5, 1.0)?;
/// let back = gpu_fft::ifftshift(&gpu_fft::fftshift(&f, None)?, None)?;
/// assert_eq!(back.to_vec::<f64>()?, f.to_vec::<f64>()?);
/// # Ok::<(), gpu_fft::Error>(())
/// ```
///
/// # Errors
/// An axis out of range, or the device failed.
pub fn ifftshift(x: &Array, axes: Option<&[isize]>) -> Result<Array> {
    shift(x, axes, true)
}

/// SciPy's `fft.next_fast_len(target)` as CuPy computes it: the smallest
/// length `>= target` whose prime factors are 2, 3, 5 and 7 (cuFFT's
/// fast radices; `real` makes no difference for cuFFT, as in CuPy).
/// `next_fast_len(0)` is 0.
///
/// ```
/// assert_eq!(gpu_fft::next_fast_len(1009, false), Some(1024));
/// assert_eq!(gpu_fft::next_fast_len(1000, true), Some(1000));
/// assert_eq!(gpu_fft::next_fast_len(11, false), Some(12));
/// ```
///
/// `None` when no such length fits in `usize`.
pub fn next_fast_len(target: usize, real: bool) -> Option<usize> {
    let _ = real;
    if target <= 1 {
        return Some(target);
    }
    let mut best: Option<usize> = None;
    // Every 2^a 3^b 5^c 7^d below the best so far, smallest first.
    let mut p7 = 1usize;
    while p7 < best.unwrap_or(usize::MAX) {
        let mut p5 = p7;
        while p5 < best.unwrap_or(usize::MAX) {
            let mut p3 = p5;
            while p3 < best.unwrap_or(usize::MAX) {
                // The power of two that lifts p3 to the target.
                let mut v = p3;
                while v < target {
                    match v.checked_mul(2) {
                        Some(w) => v = w,
                        None => break,
                    }
                }
                if v >= target && best.is_none_or(|b| v < b) {
                    best = Some(v);
                }
                match p3.checked_mul(3) {
                    Some(w) => p3 = w,
                    None => break,
                }
            }
            match p5.checked_mul(5) {
                Some(w) => p5 = w,
                None => break,
            }
        }
        match p7.checked_mul(7) {
            Some(w) => p7 = w,
            None => break,
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::next_fast_len;

    fn smooth(mut n: usize) -> bool {
        for p in [2, 3, 5, 7] {
            while n.is_multiple_of(p) {
                n /= p;
            }
        }
        n == 1
    }

    #[test]
    fn frequencies_of_impossible_lengths_are_errors_before_any_work() {
        assert!(super::fftfreq(usize::MAX, 1.0).is_err());
        assert!(super::length(usize::MAX).is_err());
        assert_eq!(super::length(5).unwrap(), 5);
    }

    #[test]
    fn next_fast_len_is_the_next_7_smooth_number() {
        for t in 0..3000usize {
            let want = if t <= 1 {
                t
            } else {
                (t..).find(|&n| smooth(n)).unwrap()
            };
            assert_eq!(next_fast_len(t, false), Some(want), "{t}");
        }
        assert_eq!(next_fast_len(usize::MAX, false), None);
        assert!(smooth(next_fast_len(1 << 40 | 1, false).unwrap()));
    }
}
