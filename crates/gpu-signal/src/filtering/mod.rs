//! Filtering (`scipy.signal._signaltools`, `_savitzky_golay`): linear
//! filters by their coefficients ([`lfilter`], [`sosfilt`]) and their
//! initial states ([`lfilter_zi`], [`lfiltic`], [`sosfilt_zi`]),
//! forward-backward filtering ([`filtfilt`], [`sosfiltfilt`]),
//! [`decimate`], [`detrend`], Savitzky-Golay smoothing
//! ([`savgol_coeffs`], [`savgol_filter`]) and the analytic signal
//! ([`hilbert`], [`hilbert2`]).
//!
//! The recursive filters run parallel along the signal (the `iir`
//! module: blocks filtered at once, their boundary states carried by a
//! scan, `kernels/carry.cuh`; `fixed_scan` for states small enough to sit
//! in registers), so that one long signal fills the GPU as well as many
//! short ones; `tools/emulate/run.sh` runs the carry's phases on the host.
//! FIR filters (`a = [1]`) are direct convolutions. Results have
//! SciPy's dtypes: the promoted dtype of the coefficients, the signal and
//! the initial state (float32 only when all of them are single
//! precision).

mod deconvolve;
mod detrend;
mod filtfilt;
pub(crate) mod fixed_scan;
mod gust;
mod hilbert;
pub(crate) mod iir;
pub(crate) mod lfilter;
mod memo;
pub(crate) mod savgol;
pub(crate) mod sos;

pub use deconvolve::deconvolve;
pub use detrend::{DetrendOptions, DetrendType, detrend, detrend_with};
pub use filtfilt::{
    DecimateFtype, DecimateOptions, FiltfiltMethod, FiltfiltOptions, PadType, decimate,
    decimate_system, decimate_with, filtfilt, filtfilt_with, sosfiltfilt, sosfiltfilt_with,
};
pub use hilbert::{
    Hilbert2Options, HilbertOptions, hilbert, hilbert_with, hilbert2, hilbert2_with,
};
pub use lfilter::{LfilterOptions, lfilter, lfilter_with, lfilter_zi, lfiltic};
pub use savgol::{
    SavgolCoeffsOptions, SavgolMode, SavgolOptions, savgol_coeffs, savgol_coeffs_with,
    savgol_filter, savgol_filter_with,
};
pub use sos::{SosfiltOptions, sosfilt, sosfilt_with, sosfilt_zi};

use gpu_array::{Array, DType, Error, Result};
use num_complex::Complex64;

/// `axis` of an array of `ndim` dimensions, SciPy's error otherwise.
pub(crate) fn check_axis(axis: isize, ndim: usize) -> Result<usize> {
    let n = ndim as isize;
    let a = if axis < 0 { axis + n } else { axis };
    if ndim == 0 || a < 0 || a >= n {
        return Err(Error::Value("selected axis is out of range".into()));
    }
    Ok(a as usize)
}

/// `x` with `axis` moved last and the others flattened: a C-contiguous
/// `(signals, n)` array of `dt`, and the moved shape to restore. A view of
/// `x` where it already is that (contiguous along a last `axis`, of `dt`):
/// callers only read the rows (every result is a new array, and
/// [`from_rows`] copies), so copying them would only move bytes.
pub(crate) fn to_rows(x: &Array, axis: usize, dt: DType) -> Result<(Array, Vec<usize>)> {
    let moved = x.moveaxis(&[axis as isize], &[-1])?;
    let shape = moved.shape().to_vec();
    let n = shape[shape.len() - 1];
    let signals: usize = shape[..shape.len() - 1].iter().product();
    let moved = if moved.dtype() == dt {
        moved
    } else {
        moved.astype(dt)?
    };
    let moved = if moved.is_c_contiguous() {
        moved
    } else {
        moved.copy()?
    };
    Ok((moved.reshape(&[signals, n][..])?, shape))
}

/// The inverse of [`to_rows`]: `rows` (`signals x n'`) back to `shape`
/// (its last axis now `n'`) with the last axis moved to `axis`,
/// C-contiguous.
pub(crate) fn from_rows(rows: &Array, shape: &[usize], axis: usize) -> Result<Array> {
    let mut s = shape.to_vec();
    let last = s.len() - 1;
    s[last] = rows.shape()[1];
    rows.reshape(&s[..])?
        .moveaxis(&[-1], &[axis as isize])?
        .copy()
}

/// The dtype a filter runs in: `result_type` of its operands, refused
/// with SciPy's `NotImplementedError` text unless float32, float64 or
/// complex.
pub(crate) fn filter_dtype(dts: &[DType]) -> Result<DType> {
    let ops: Vec<_> = dts.iter().map(|&d| d.into()).collect();
    let dt = gpu_array::dtype::result_type(&ops)?;
    if iir::DTYPES.contains(&dt) {
        Ok(dt)
    } else {
        Err(Error::Unsupported(format!(
            "input type '{}' not supported",
            dt.name()
        )))
    }
}

/// A 1-D device array's values on the host, as complex numbers.
pub(crate) fn host_values(a: &Array) -> Result<Vec<Complex64>> {
    a.to_vec_as::<Complex64>()
}

/// A device array's values on the host as float64, for the host-side
/// designs and searches (real dtypes only: NumPy would drop the imaginary
/// parts).
pub(crate) fn host_reals(a: &Array, what: &str) -> Result<Vec<f64>> {
    if a.dtype().is_complex() {
        return Err(Error::Unsupported(format!("{what}: complex values")));
    }
    a.to_vec_as::<f64>()
}

/// `v` positive and finite, else `Value("{what} must be positive and
/// finite, not {v}")`: sampling frequencies and intervals, quality
/// factors, band edges of the host-side designs.
pub(crate) fn positive_finite(v: f64, what: &str) -> Result<()> {
    if v.is_nan() || v <= 0.0 || v.is_infinite() {
        return Err(Error::Value(format!(
            "{what} must be positive and finite, not {v}"
        )));
    }
    Ok(())
}

/// `a`'s slice `start..stop` along axis 1 of a 2-D array (Python bounds).
pub(crate) fn cols(
    a: &Array,
    start: Option<isize>,
    stop: Option<isize>,
    step: isize,
) -> Result<Array> {
    a.slice(&[
        gpu_array::AxisIndex::FULL,
        gpu_array::AxisIndex::Slice { start, stop, step },
    ])
}
