//! The vector strength of events against periods (SciPy's
//! `vectorstrength`): how closely event times lock to a phase of each
//! period. On the host: each period's mean of `exp(2 pi i t / period)`
//! over the events.

use std::f64::consts::PI;

use gpu_array::{Array, Error, Result};
use num_complex::Complex64;

/// SciPy's `vectorstrength` on the host: `(strength, phase)` a period.
pub(crate) fn vectorstrength_host(events: &[f64], periods: &[f64]) -> Result<(Vec<f64>, Vec<f64>)> {
    if periods.iter().any(|&p| p.is_nan() || p <= 0.0) {
        return Err(Error::Value("periods must be positive".into()));
    }
    if events.is_empty() {
        // NumPy's mean of nothing: NaN.
        return Ok((vec![f64::NAN; periods.len()], vec![f64::NAN; periods.len()]));
    }
    let mut strength = Vec::with_capacity(periods.len());
    let mut phase = Vec::with_capacity(periods.len());
    for &p in periods {
        let w = 2.0 * PI / p;
        let mean = events
            .iter()
            .map(|&t| Complex64::new(0.0, w * t).exp())
            .sum::<Complex64>()
            / events.len() as f64;
        strength.push(mean.norm());
        phase.push(mean.im.atan2(mean.re));
    }
    Ok((strength, phase))
}

/// SciPy's `vectorstrength(events, period)`: for each period, the vector
/// strength (1: every event at the same phase; near 0: no locking) and
/// the mean phase in radians of the events' times, as float64 device
/// arrays of one value a period (computed on the host).
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let events = Array::from_slice(&[0.0f64, 1.0, 2.0, 3.0], &[4])?; // every 1 s
/// let periods = Array::from_slice(&[1.0f64, 2.0], &[2])?;
/// let (s, phase) = gpu_signal::vectorstrength(&events, &periods)?; // strengths [1, 0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's (`Value`): `events` or `period` of more than one dimension,
/// a period not positive; complex values (`Unsupported`).
pub fn vectorstrength(events: &Array, period: &Array) -> Result<(Array, Array)> {
    if events.ndim() > 1 {
        return Err(Error::Value(
            "events cannot have dimensions more than 1".into(),
        ));
    }
    if period.ndim() > 1 {
        return Err(Error::Value(
            "period cannot have dimensions more than 1".into(),
        ));
    }
    let e = crate::filtering::host_reals(events, "vectorstrength events")?;
    let p = crate::filtering::host_reals(period, "vectorstrength period")?;
    let (s, ph) = vectorstrength_host(&e, &p)?;
    Ok((
        Array::from_slice(&s, &[s.len()])?,
        Array::from_slice(&ph, &[ph.len()])?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strengths_and_phases_are_scipys() {
        // scipy.signal.vectorstrength(events, periods), SciPy 1.17.
        let events = [0.1, 1.3, 2.05, 3.2, 4.4, 5.15, 7.7];
        let periods = [1.0, 1.1, 2.5, 0.3];
        let (s, p) = vectorstrength_host(&events, &periods).unwrap();
        let want_s = [
            0.495_701_812_166_663_3,
            0.628_959_569_256_550_9,
            0.297_772_233_605_363_2,
            0.247_435_829_652_696_9,
        ];
        let want_p = [
            1.208_496_949_774_290_8,
            -0.172_509_633_622_463_85,
            0.025_270_492_171_522_82,
            -2.617_993_877_991_494_4,
        ];
        for k in 0..4 {
            assert!((s[k] - want_s[k]).abs() < 1e-13, "{s:?}");
            assert!((p[k] - want_p[k]).abs() < 1e-12, "{p:?}");
        }
        let (s, _) = vectorstrength_host(&[0.0, 1.0, 2.0, 3.0], &[1.0, 2.0]).unwrap();
        assert!((s[0] - 1.0).abs() < 1e-15 && s[1].abs() < 1e-15);
        assert!(
            vectorstrength_host(&events, &[0.0])
                .unwrap_err()
                .to_string()
                .contains("periods must be positive")
        );
    }
}
