//! `pad`: the index modes (edge, wrap, reflect, symmetric) as one gather
//! per padded axis with host-computed source positions; `constant` as a
//! fill and one copy into the interior; the statistic modes (maximum,
//! minimum, mean, median, each over `stat_length` elements of each side)
//! and `linear_ramp` axis by axis as NumPy does: a statistic or a ramp per
//! side, then a concatenation. Axis by axis matters: the corners of axis
//! `d`'s pads are computed from the array already padded along the axes
//! before `d`, as NumPy's.

use super::{axis_view, concatenate};
use crate::array::Array;
use crate::dtype::{DType, ScalarValue};
use crate::error::{Error, Result};
use crate::indexing::{TakeMode, take, where_};
use crate::layout::Order;
use crate::reduction::{ReduceOptions, amax, amin, any, mean};
use crate::ufunc::{self, Input};

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
    /// The maximum of the side's `stat_length` edge elements (default:
    /// the whole axis).
    Maximum,
    /// Their minimum.
    Minimum,
    /// Their mean (rounded half to even for integer dtypes, as NumPy).
    Mean,
    /// Their median (rounded alike).
    Median,
    /// A linear ramp from an end value (NumPy's `end_values`; this one on
    /// every side unless [`PadOptions::end_values`] says otherwise) to the
    /// edge value.
    LinearRamp(ScalarValue),
}

impl PadMode {
    /// NumPy's name of the mode (for messages).
    pub const fn name(&self) -> &'static str {
        match self {
            PadMode::Constant(_) => "constant",
            PadMode::Edge => "edge",
            PadMode::Wrap => "wrap",
            PadMode::Reflect => "reflect",
            PadMode::Symmetric => "symmetric",
            PadMode::Maximum => "maximum",
            PadMode::Minimum => "minimum",
            PadMode::Mean => "mean",
            PadMode::Median => "median",
            PadMode::LinearRamp(_) => "linear_ramp",
        }
    }

    const fn is_statistic(&self) -> bool {
        matches!(
            self,
            PadMode::Maximum | PadMode::Minimum | PadMode::Mean | PadMode::Median
        )
    }
}

/// NumPy's per-side keyword arguments of `pad` beyond the mode ([`pad_with`]).
/// Each list holds one `(before, after)` pair for every axis, or one pair
/// for all axes, or nothing for NumPy's default.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PadOptions {
    /// `stat_length` of the statistic modes: how many elements at each
    /// edge the statistic covers (`None`, and any length beyond the axis:
    /// the whole axis). Empty: the whole axis everywhere.
    pub stat_length: Vec<(Option<usize>, Option<usize>)>,
    /// `end_values` of [`PadMode::LinearRamp`]: the value each ramp starts
    /// from at the outer edge. Empty: the mode's value on every side.
    pub end_values: Vec<(ScalarValue, ScalarValue)>,
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

/// The elements each side's statistic covers on an axis of length `n`
/// (NumPy's `_get_stats`: `None` or a length beyond the axis is the whole
/// axis).
pub fn stat_lengths(n: usize, stat_length: (Option<usize>, Option<usize>)) -> (usize, usize) {
    let clamp = |l: Option<usize>| l.map_or(n, |l| l.min(n));
    (clamp(stat_length.0), clamp(stat_length.1))
}

/// One entry per axis from NumPy's broadcast forms: one for every axis,
/// or one each.
fn per_axis<T: Clone>(v: &[T], nd: usize, what: &str) -> Result<Vec<T>> {
    match v.len() {
        1 => Ok(vec![v[0].clone(); nd]),
        l if l == nd => Ok(v.to_vec()),
        l => Err(Error::Value(format!(
            "pad: {l} {what} for an array of {nd} dimensions"
        ))),
    }
}

/// `a` padded by `pad_width[d] = (before, after)` elements on each axis
/// (one pair for every axis when given one) with `mode` (NumPy's `pad`
/// with its default `stat_length` and `end_values`; see [`pad_with`]).
///
/// # Errors
/// A `pad_width` whose length is neither 1 nor `a.ndim()`; a non-constant
/// mode extending an empty axis (NumPy's message); a median of complex
/// values; a complex ramp end value for a real array.
pub fn pad(a: &Array, pad_width: &[(usize, usize)], mode: PadMode) -> Result<Array> {
    pad_with(a, pad_width, mode, &PadOptions::default())
}

/// [`pad`] with NumPy's `stat_length` and per-side `end_values`
/// ([`PadOptions`]).
///
/// `linear_ramp` evaluates NumPy's `linspace(end, edge, width,
/// endpoint=False)` in float64 (complex128 for complex arrays), floors it
/// for integer dtypes and casts: NumPy's own arithmetic for a scalar or a
/// single pair of end values (NumPy scalars, which promote float16 and
/// float32 ramps to float64). For per-axis pairs NumPy evaluates float16
/// and float32 ramps in the array's dtype, so those may differ from
/// Cuprum's in the last place.
///
/// # Errors
/// As [`pad`]; a `stat_length` or `end_values` list whose length is
/// neither 0, 1 nor `a.ndim()`; either given for a mode that does not take
/// it ("unsupported keyword arguments for mode 'edge': {'stat_length'}",
/// as NumPy); a `stat_length` of 0 for maximum or minimum (NumPy's "stat_length
/// of 0 yields no value for padding").
pub fn pad_with(
    a: &Array,
    pad_width: &[(usize, usize)],
    mode: PadMode,
    opts: &PadOptions,
) -> Result<Array> {
    let nd = a.ndim();
    let widths = per_axis(pad_width, nd, "(before, after) pairs")?;
    let unsupported = |kw: &str| {
        Err(Error::Value(format!(
            "unsupported keyword arguments for mode '{}': {{'{kw}'}}",
            mode.name()
        )))
    };
    if !opts.stat_length.is_empty() && !mode.is_statistic() {
        return unsupported("stat_length");
    }
    if !opts.end_values.is_empty() && !matches!(mode, PadMode::LinearRamp(_)) {
        return unsupported("end_values");
    }
    let stat_len = if opts.stat_length.is_empty() {
        vec![(None, None); nd]
    } else {
        per_axis(&opts.stat_length, nd, "stat_length pairs")?
    };
    let ends = match mode {
        PadMode::LinearRamp(v) if opts.end_values.is_empty() => vec![(v, v); nd],
        PadMode::LinearRamp(_) => per_axis(&opts.end_values, nd, "end_values pairs")?,
        _ => Vec::new(),
    };
    let shape: Vec<usize> = a
        .shape()
        .iter()
        .zip(&widths)
        .map(|(&n, &(b, e))| n + b + e)
        .collect();
    if let PadMode::Constant(v) = mode {
        let out = Array::empty_on(a.device(), &shape, a.dtype(), Order::C)?;
        if out.size() > 0 {
            out.fill(v)?;
        }
        let mut inner = out.clone();
        for (d, &(b, _)) in widths.iter().enumerate() {
            inner = axis_view(&inner, d, b, a.shape()[d], 1);
        }
        inner.copy_from(a)?;
        return Ok(out);
    }
    if a.size() == 0 {
        // NumPy's early exit: only the empty axes must stay unpadded, and
        // the result holds no element to compute.
        if let Some(d) = (0..nd).find(|&d| a.shape()[d] == 0 && widths[d] != (0, 0)) {
            return Err(Error::Value(format!(
                "can't extend empty axis {d} using modes other than 'constant' or 'empty'"
            )));
        }
        return Array::empty_on(a.device(), &shape, a.dtype(), Order::C);
    }
    let mut cur = a.clone();
    for (d, &(b, e)) in widths.iter().enumerate() {
        let n = cur.shape()[d];
        let (left_len, right_len) = stat_lengths(n, stat_len[d]);
        // NumPy checks every axis, padded or not.
        if matches!(mode, PadMode::Maximum | PadMode::Minimum) && (left_len == 0 || right_len == 0)
        {
            return Err(Error::Value(
                "stat_length of 0 yields no value for padding".into(),
            ));
        }
        if b == 0 && e == 0 {
            continue;
        }
        cur = match mode {
            PadMode::Maximum | PadMode::Minimum | PadMode::Mean | PadMode::Median => {
                let left = side_statistic(mode, &axis_view(&cur, d, 0, left_len, 1), d)?;
                let right = if left_len == n && right_len == n {
                    left.clone()
                } else {
                    side_statistic(mode, &axis_view(&cur, d, n - right_len, right_len, 1), d)?
                };
                let side = |stat: &Array, w: usize| -> Result<Array> {
                    let mut s = cur.shape().to_vec();
                    s[d] = w;
                    stat.broadcast_to(&s)
                };
                concatenate(
                    &[&side(&left, b)?, &cur, &side(&right, e)?],
                    Some(d as isize),
                )?
            }
            PadMode::LinearRamp(_) => {
                let (end_b, end_e) = ends[d];
                let left = linear_ramp(&cur, d, 0, end_b, b)?;
                let right = linear_ramp(&cur, d, n - 1, end_e, e)?;
                // NumPy reverses the right ramp: it climbs towards the edge.
                let right = crate::manipulation::flip(&right, Some(&[d as isize]))?;
                concatenate(&[&left, &cur, &right], Some(d as isize))?
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

/// The statistic of `chunk` along `d` (kept as length 1) in `chunk`'s
/// dtype: NumPy's `_get_stats` and `_round_if_needed` (integer dtypes
/// round half to even; bool does not round, any nonzero mean is true).
fn side_statistic(mode: PadMode, chunk: &Array, d: usize) -> Result<Array> {
    let opts = ReduceOptions {
        axis: Some(vec![d as isize]),
        keepdims: true,
        ..Default::default()
    };
    let dt = chunk.dtype();
    let m = match mode {
        PadMode::Maximum => return amax(chunk, &opts),
        PadMode::Minimum => return amin(chunk, &opts),
        PadMode::Mean => mean(chunk, &opts)?,
        _ => crate::sorting::median(chunk, Some(&[d as isize]), true)?,
    };
    if dt.is_integer() {
        ufunc::rint(&m)?.astype(dt)
    } else if m.dtype() != dt {
        m.astype(dt)
    } else {
        Ok(m)
    }
}

/// NumPy's `linspace(end, edge, width, endpoint=False, axis=d)` from the
/// edge at position `edge_at` of axis `d`, in `cur`'s dtype: evaluated in
/// float64 (complex128) as `j * step + end`, or `j / width * delta + end`
/// when any step is zero (NumPy's guard for denormal steps, decided on the
/// device), floored for integer dtypes.
fn linear_ramp(
    cur: &Array,
    d: usize,
    edge_at: usize,
    end: ScalarValue,
    width: usize,
) -> Result<Array> {
    let dt = cur.dtype();
    let mut shape = cur.shape().to_vec();
    shape[d] = width;
    if width == 0 {
        return Array::empty_on(cur.device(), &shape, dt, Order::C);
    }
    let wide = if dt.is_complex() {
        DType::Complex128
    } else {
        if matches!(end, ScalarValue::Complex(_)) {
            return Err(Error::DType(format!(
                "pad: a complex end value for a {dt} array"
            )));
        }
        DType::Float64
    };
    let edge = axis_view(cur, d, edge_at, 1, 1).astype(wide)?;
    let delta = ufunc::subtract(&edge, Input::Scalar(end))?;
    let mut jshape = vec![1usize; cur.ndim()];
    jshape[d] = width;
    let js: Vec<f64> = (0..width).map(|j| j as f64).collect();
    let j = Array::from_slice_on(cur.device(), &js, &jshape)?;
    let w = width as f64;
    let step = ufunc::divide(&delta, w)?;
    let by_step = ufunc::multiply(&j, &step)?;
    let by_delta = ufunc::multiply(&ufunc::divide(&j, w)?, &delta)?;
    let any_zero = any(&step.equal(0.0)?, &ReduceOptions::default())?;
    let y = ufunc::add(&where_(&any_zero, &by_delta, &by_step)?, Input::Scalar(end))?;
    let y = if dt.is_integer() {
        ufunc::floor(&y)?
    } else {
        y
    };
    y.astype(dt)
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

    /// NumPy's `_get_stats` lengths: `None` and long lengths cover the axis.
    #[test]
    fn stat_lengths_clamp_to_the_axis() {
        assert_eq!(stat_lengths(5, (None, None)), (5, 5));
        assert_eq!(stat_lengths(5, (Some(2), Some(9))), (2, 5));
        assert_eq!(stat_lengths(5, (Some(0), None)), (0, 5));
        assert_eq!(stat_lengths(0, (Some(3), None)), (0, 0));
    }

    #[test]
    fn per_axis_broadcasts_one_pair() {
        assert_eq!(per_axis(&[(1, 2)], 3, "x").unwrap(), vec![(1, 2); 3]);
        assert_eq!(per_axis(&[1, 2], 2, "x").unwrap(), vec![1, 2]);
        assert_eq!(
            per_axis(&[1, 2], 3, "stat_length pairs")
                .unwrap_err()
                .to_string(),
            "pad: 2 stat_length pairs for an array of 3 dimensions"
        );
        assert_eq!(
            PadMode::LinearRamp(ScalarValue::Int(0)).name(),
            "linear_ramp"
        );
    }
}
