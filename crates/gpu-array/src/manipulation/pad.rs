//! `pad`: the index modes (edge, wrap, reflect, symmetric) as one gather
//! per padded axis with host-computed source positions; `constant` as a
//! fill and one copy into the interior; the statistic modes (maximum,
//! minimum, mean) axis by axis as NumPy does, each a reduction and a
//! concatenation.

use super::{axis_view, concatenate};
use crate::array::Array;
use crate::creation::full;
use crate::dtype::ScalarValue;
use crate::error::{Error, Result};
use crate::indexing::{TakeMode, take};
use crate::reduction::{ReduceOptions, amax, amin, mean};

/// How [`pad`] fills the new elements (NumPy's `mode=`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PadMode {
    /// A constant (`constant_values`, one value for every side).
    Constant(ScalarValue),
    /// The edge value.
    Edge,
    /// The other end of the axis (periodic).
    Wrap,
    /// The mirror image without the edge.
    Reflect,
    /// The mirror image with the edge.
    Symmetric,
    /// The axis' maximum.
    Maximum,
    /// The axis' minimum.
    Minimum,
    /// The axis' mean (rounded for integer dtypes, as NumPy).
    Mean,
    /// The axis' median (not supported yet).
    Median,
    /// A linear ramp to an end value (not supported yet).
    LinearRamp(ScalarValue),
}

/// The source position along an axis of length `n` of each of the
/// `before + n + after` positions of the padded axis, for the index modes
/// (NumPy's results for any pad width, however many times it exceeds the
/// axis: wrap has period `n`, reflect `2n - 2`, symmetric `2n`).
///
/// # Panics
/// For a mode that is not an index mode, or `n == 0`.
pub fn pad_indices(mode: PadMode, n: usize, before: usize, after: usize) -> Vec<i64> {
    assert!(n > 0, "pad_indices of an empty axis");
    let (n, b) = (n as i64, before as i64);
    (0..n + b + after as i64)
        .map(|j| {
            let t = j - b;
            match mode {
                PadMode::Edge => t.clamp(0, n - 1),
                PadMode::Wrap => t.rem_euclid(n),
                PadMode::Reflect => {
                    let p = 2 * (n - 1);
                    if p == 0 {
                        0
                    } else {
                        let t = t.rem_euclid(p);
                        if t < n { t } else { p - t }
                    }
                }
                PadMode::Symmetric => {
                    let p = 2 * n;
                    let t = t.rem_euclid(p);
                    if t < n { t } else { p - 1 - t }
                }
                m => panic!("{m:?} is not an index mode"),
            }
        })
        .collect()
}

/// `a` padded by `pad_width[d] = (before, after)` elements on each axis
/// (one pair for every axis when given one) with `mode` (NumPy's `pad`).
///
/// # Errors
/// A `pad_width` whose length is neither 1 nor `a.ndim()`; a non-constant
/// mode extending an empty axis (NumPy's message); `Median` and
/// `LinearRamp` (`Unsupported`).
pub fn pad(a: &Array, pad_width: &[(usize, usize)], mode: PadMode) -> Result<Array> {
    let nd = a.ndim();
    let widths: Vec<(usize, usize)> = match pad_width.len() {
        1 => vec![pad_width[0]; nd],
        l if l == nd => pad_width.to_vec(),
        l => {
            return Err(Error::Value(format!(
                "pad: {l} (before, after) pairs for an array of {nd} dimensions"
            )));
        }
    };
    match mode {
        PadMode::Median | PadMode::LinearRamp(_) => {
            return Err(Error::Unsupported(format!(
                "pad: mode {mode:?} is not supported yet"
            )));
        }
        PadMode::Constant(v) => {
            let shape: Vec<usize> = a
                .shape()
                .iter()
                .zip(&widths)
                .map(|(&n, &(b, e))| n + b + e)
                .collect();
            let out = full(&shape, v, Some(a.dtype()))?;
            let mut inner = out.clone();
            for (d, &(b, _)) in widths.iter().enumerate() {
                inner = axis_view(&inner, d, b, a.shape()[d], 1);
            }
            inner.copy_from(a)?;
            return Ok(out);
        }
        _ => {}
    }
    let mut cur = a.clone();
    for (d, &(b, e)) in widths.iter().enumerate() {
        if b == 0 && e == 0 {
            continue;
        }
        let n = cur.shape()[d];
        if n == 0 {
            return Err(Error::Value(format!(
                "can't extend empty axis {d} using modes other than 'constant' or 'empty'"
            )));
        }
        cur = match mode {
            PadMode::Maximum | PadMode::Minimum | PadMode::Mean => {
                let opts = ReduceOptions {
                    axis: Some(vec![d as isize]),
                    keepdims: true,
                    ..Default::default()
                };
                let stat = match mode {
                    PadMode::Maximum => amax(&cur, &opts)?,
                    PadMode::Minimum => amin(&cur, &opts)?,
                    _ => {
                        let m = mean(&cur, &opts)?;
                        if cur.dtype().is_integer() || cur.dtype() == crate::DType::Bool {
                            crate::ufunc::rint(&m)?.astype(cur.dtype())?
                        } else if m.dtype() != cur.dtype() {
                            m.astype(cur.dtype())?
                        } else {
                            m
                        }
                    }
                };
                let side = |w: usize| -> Result<Array> {
                    let mut s = cur.shape().to_vec();
                    s[d] = w;
                    stat.broadcast_to(&s)
                };
                concatenate(&[&side(b)?, &cur, &side(e)?], Some(d as isize))?
            }
            _ => {
                let idx = pad_indices(mode, n, b, e);
                let len = idx.len();
                let idx = Array::from_slice_on(cur.device(), &idx, &[len])?;
                take(&cur, &idx, Some(d as isize), TakeMode::Wrap)?
            }
        };
    }
    if cur.shares_memory_with(a) {
        cur = cur.copy()?;
    }
    Ok(cur)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NumPy 2.4's `np.pad(np.arange(n), (b, e), mode)` as source indices.
    #[test]
    fn index_modes_follow_numpy() {
        assert_eq!(pad_indices(PadMode::Edge, 3, 2, 1), vec![0, 0, 0, 1, 2, 2]);
        assert_eq!(
            pad_indices(PadMode::Wrap, 3, 4, 2),
            vec![2, 0, 1, 2, 0, 1, 2, 0, 1]
        );
        // np.pad([1, 2, 3], (5, 2), 'reflect') == [2, 1, 2, 3, 2, 1, 2, 3, 2, 1]
        assert_eq!(
            pad_indices(PadMode::Reflect, 3, 5, 2),
            vec![1, 0, 1, 2, 1, 0, 1, 2, 1, 0]
        );
        // np.pad([1, 2, 3], (4, 3), 'symmetric') == [3, 3, 2, 1, 1, 2, 3, 3, 2, 1]
        assert_eq!(
            pad_indices(PadMode::Symmetric, 3, 4, 3),
            vec![2, 2, 1, 0, 0, 1, 2, 2, 1, 0]
        );
        assert_eq!(pad_indices(PadMode::Reflect, 1, 2, 2), vec![0; 5]);
    }
}
