//! `histogram`, `histogram2d`, `histogramdd`, `bincount` and `digitize`.

use gpu_runtime::signature::In;
use half::{bf16, f16};

use super::kernels::{
    BinMode, CountArgs, CountKernel, Weights, float_of_key, launch as count, minmax,
    minmax_supports,
};
use crate::array::Array;
use crate::creation::ascontiguousarray;
use crate::dtype::{Casting, DType, can_cast, promote_types};
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::kernels::{input, output};
use crate::layout::{AxisIndex, Order};
use crate::reduction::ReduceOptions;
use crate::ufunc;

/// The `bins` argument of [`histogram`].
#[derive(Debug, Clone, Copy)]
pub enum Bins<'a> {
    /// This many equal-width bins over the range.
    Count(usize),
    /// The bin edges, increasing (the last bin is closed on the right).
    Edges(&'a Array),
}

/// The keyword arguments of [`histogram`].
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct HistogramOptions<'a> {
    /// The lower and upper range of the bins (default: the data's min and
    /// max); ignored with array bins.
    pub range: Option<(f64, f64)>,
    /// Return the probability density instead of counts.
    pub density: bool,
    /// A weight per element of `a` (same shape).
    pub weights: Option<&'a Array>,
}

impl<'a> HistogramOptions<'a> {
    /// Sets `range`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, stats::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let a = array([0.5, 1.5, 1.5, 9.0])?;
    /// let (h, e) = histogram(&a, Bins::Count(2), &HistogramOptions::default().range((0.0, 2.0)))?; // range=(0, 2): [1, 2]
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn range(mut self, range: impl Into<Option<(f64, f64)>>) -> HistogramOptions<'a> {
        self.range = range.into();
        self
    }

    /// Sets `density`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, stats::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let a = array([0.5, 1.5, 1.5, 9.0])?;
    /// let (h, e) = histogram(&a, Bins::Count(3), &HistogramOptions::default().density(true))?; // density=True
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn density(mut self, density: bool) -> HistogramOptions<'a> {
        self.density = density;
        self
    }

    /// Sets `weights`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, stats::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let a = array([0.5, 1.5, 1.5, 9.0])?;
    /// let w = array([1.0, 0.5, 0.5, 2.0])?;
    /// let (h, e) = histogram(&a, Bins::Count(2), &HistogramOptions::default().weights(&w))?; // weights=w: [2, 2]
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn weights(mut self, weights: impl Into<Option<&'a Array>>) -> HistogramOptions<'a> {
        self.weights = weights.into();
        self
    }
}

/// A zeroed C-contiguous array on `dev`.
pub(crate) fn zeros_on(dev: gpu_runtime::Device, shape: &[usize], dt: DType) -> Result<Array> {
    let a = Array::empty_on(dev, shape, dt, Order::C)?;
    a.zero_contiguous()?;
    Ok(a)
}

/// The contiguous 1-D view (or copy) of `a`.
fn flat(a: &Array) -> Result<Array> {
    let c = ascontiguousarray(a, None)?;
    c.reshape([a.size() as isize])
}

/// Rounds an exact float64 result to dtype `l` (one IEEE operation in `l`,
/// as float64 holds every `l` operation's exact result closely enough that
/// this double rounding is innocuous for float32 and float16).
pub(crate) fn round_to(v: f64, l: DType) -> f64 {
    match l {
        DType::Float32 => v as f32 as f64,
        DType::Float16 => f16::from_f64(v).to_f64(),
        DType::BFloat16 => bf16::from_f32(v as f32).to_f64(),
        _ => v,
    }
}

/// NumPy's `linspace(first, last, num, dtype=t)` evaluated in dtype `l`
/// (the dtype of `first` and `last`), then converted to `t`.
pub(crate) fn linspace_host(first: f64, last: f64, num: usize, l: DType, t: DType) -> Vec<f64> {
    let div = num.saturating_sub(1);
    let delta = round_to(last - first, l);
    let mut y: Vec<f64> = (0..num).map(|i| i as f64).collect();
    if div > 0 {
        let step = round_to(delta / div as f64, l);
        if step == 0.0 {
            for v in &mut y {
                *v = round_to(round_to(*v / div as f64, l) * delta, l);
            }
        } else {
            for v in &mut y {
                *v = round_to(*v * step, l);
            }
        }
    } else {
        for v in &mut y {
            *v = round_to(*v * delta, l);
        }
    }
    for v in &mut y {
        *v = round_to(*v + first, l);
    }
    if num > 1 {
        y[num - 1] = last;
    }
    y.into_iter().map(|v| round_to(v, t)).collect()
}

/// Host values (exactly representable in `dt`) as an array of `dt` on
/// `dev`: converted on the host, one copy.
pub(crate) fn upload(dev: gpu_runtime::Device, v: &[f64], dt: DType) -> Result<Array> {
    let n = [v.len()];
    match dt {
        DType::Float32 => {
            let h: Vec<f32> = v.iter().map(|&x| x as f32).collect();
            Array::from_slice_on(dev, &h, &n)
        }
        DType::Float16 => {
            let h: Vec<f16> = v.iter().map(|&x| f16::from_f64(x)).collect();
            Array::from_slice_on(dev, &h, &n)
        }
        DType::BFloat16 => {
            let h: Vec<bf16> = v.iter().map(|&x| bf16::from_f64(x)).collect();
            Array::from_slice_on(dev, &h, &n)
        }
        DType::Float64 => Array::from_slice_on(dev, v, &n),
        _ => Array::from_slice_on(dev, v, &n)?.astype(dt),
    }
}

/// The accumulation array of `n` bins for `weights` and what it becomes.
fn accumulator(
    dev: gpu_runtime::Device,
    n: usize,
    weights: Option<&Array>,
) -> Result<(Array, Weights)> {
    Ok(match weights {
        None => (zeros_on(dev, &[n], DType::Int64)?, Weights::None),
        Some(w) if w.dtype().is_complex() => (
            zeros_on(dev, &[n], DType::Complex128)?,
            Weights::Complex(w.dtype()),
        ),
        Some(w) => (
            zeros_on(dev, &[n], DType::Float64)?,
            Weights::Real(w.dtype()),
        ),
    })
}

/// The min and max of a non-empty C-contiguous 1-D `a` as float64 (NaN
/// when `a` holds one), with one copy back: one fused pass where the
/// dtype allows, else NumPy's two reductions.
fn min_max(a: &Array) -> Result<(f64, f64)> {
    if minmax_supports(a.dtype()) {
        let buf = Array::empty_on(a.device(), &[3], DType::UInt64, Order::C)?;
        return Ok(match minmax(a, &buf)? {
            None => (f64::NAN, f64::NAN),
            Some((lo, hi)) if a.dtype().is_floating() => (float_of_key(lo), float_of_key(hi)),
            Some((lo, hi)) => (lo as f64, hi as f64),
        });
    }
    let buf = Array::empty_on(a.device(), &[2], a.dtype(), Order::C)?;
    let lo = buf.slice(&[AxisIndex::Index(0)])?;
    let hi = buf.slice(&[AxisIndex::Index(1)])?;
    crate::stats::amin(a, ReduceOptions::default().out(&lo))?;
    crate::stats::amax(a, ReduceOptions::default().out(&hi))?;
    let v: Vec<f64> = buf.astype(DType::Float64)?.to_vec()?;
    Ok((v[0], v[1]))
}

/// NumPy's `histogram(a, bins, range, density, weights)` over the
/// flattened `a`: returns `(hist, bin_edges)`.
///
/// Integer bins are NumPy's equal-width bins: edges from `linspace` over
/// `range` (default the data's min and max, one copy back; widened by 0.5
/// on each side when they are equal) in the dtype NumPy uses (`a`'s float
/// dtype, float64 for integers), and each element's bin computed as
/// NumPy's fast path does, then corrected against the edges, so elements
/// on an edge land where NumPy puts them. Array bins must increase
/// (checked, one copy back); an element is counted in bin `i` when
/// `edges[i] <= x < edges[i + 1]`, the last bin closed. NaN and values
/// outside the range are not counted. `hist` is int64 counts, or the sums
/// of `weights` (accumulated in float64, then cast to the weights' dtype,
/// as NumPy's `bincount`), or with `density` the float64 (complex128)
/// density `hist / width / hist.sum()`. bool `a` is counted as uint8, as
/// NumPy converts it.
///
/// ```no_run
/// use gpu_array::{creation::array, stats::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (counts, edges) = histogram(&array([0.5, 1.5, 1.7])?, Bins::Count(2), &HistogramOptions::default())?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// Complex `a`; zero bins ("`bins` must be positive, when an integer");
/// `range` with min above max or not finite; data with NaN or infinity
/// and no range ("autodetected range of [nan, nan] is not finite");
/// `weights` of another shape; array bins not 1-D or decreasing.
pub fn histogram(a: &Array, bins: Bins<'_>, opts: &HistogramOptions<'_>) -> Result<(Array, Array)> {
    if a.dtype().is_complex() {
        return Err(Error::Unsupported(
            "histogram of complex values: the bins of complex numbers are not defined".into(),
        ));
    }
    let dev = a.device();
    let a = if a.dtype().is_bool() {
        a.astype(DType::UInt8)?
    } else {
        a.clone()
    };
    let x = flat(&a)?;
    let w = match opts.weights {
        Some(w) if w.shape() != a.shape() => {
            return Err(Error::Value(
                "weights should have the same shape as a.".into(),
            ));
        }
        Some(w) => Some(flat(w)?),
        None => None,
    };
    let n = x.size();
    let (hist, edges) = match bins {
        Bins::Count(nb) => {
            if nb == 0 {
                return Err(Error::Value(
                    "`bins` must be positive, when an integer".into(),
                ));
            }
            let float = x.dtype().is_floating();
            let t = if float { x.dtype() } else { DType::Float64 };
            let (given, mut first, mut last) = match opts.range {
                Some((lo, hi)) => {
                    if lo > hi {
                        return Err(Error::Value(
                            "max must be larger than min in range parameter.".into(),
                        ));
                    }
                    if !(lo.is_finite() && hi.is_finite()) {
                        return Err(Error::Value(format!(
                            "supplied range of [{lo}, {hi}] is not finite"
                        )));
                    }
                    (true, lo, hi)
                }
                None if n == 0 => (true, 0.0, 1.0),
                None => {
                    let (lo, hi) = min_max(&x)?;
                    if !(lo.is_finite() && hi.is_finite()) {
                        return Err(Error::Value(format!(
                            "autodetected range of [{}, {}] is not finite",
                            fmt_py(lo),
                            fmt_py(hi)
                        )));
                    }
                    (false, lo, hi)
                }
            };
            // The dtype NumPy computes the edges and the divisor in: the
            // data's float dtype when the range came from the data, else
            // float64 (Python floats or integer scalars).
            let l = if float && !given { t } else { DType::Float64 };
            if first == last {
                first = round_to(first - 0.5, l);
                last = round_to(last + 0.5, l);
            }
            let denom = round_to(last - first, l);
            let edges_host = linspace_host(first, last, nb + 1, l, t);
            let edges = upload(dev, &edges_host, t)?;
            let (acc, weights) = accumulator(dev, nb, w.as_ref())?;
            let k = CountKernel {
                mode: BinMode::Uniform,
                input: x.dtype(),
                edges: t,
                calc: l,
                weights,
            };
            count(
                &k,
                &x.stream(),
                &CountArgs {
                    x: input(&x),
                    w: w.as_ref().map_or(In::NULL, input),
                    edges: input(&edges),
                    out: output(&acc),
                    n,
                    nb,
                    first: round_to(first, t),
                    last: round_to(last, t),
                    denom,
                },
            )?;
            (acc, edges)
        }
        Bins::Edges(e) => {
            if e.ndim() != 1 {
                return Err(Error::Value("`bins` must be 1d, when an array".into()));
            }
            let len = e.shape()[0];
            if len >= 2 {
                let hi = e.slice(&[AxisIndex::Slice {
                    start: Some(1),
                    stop: None,
                    step: 1,
                }])?;
                let lo = e.slice(&[AxisIndex::Slice {
                    start: None,
                    stop: Some(-1),
                    step: 1,
                }])?;
                let bad = crate::logic::any(&ufunc::greater(&lo, &hi)?, ReduceOptions::default())?;
                if bad.item::<bool>(&[])? {
                    return Err(Error::Value(
                        "`bins` must increase monotonically, when an array".into(),
                    ));
                }
            }
            let nb = len.saturating_sub(1);
            let (acc, weights) = accumulator(dev, nb, w.as_ref())?;
            if nb > 0 {
                let edges = ascontiguousarray(e, None)?;
                let k = CountKernel {
                    mode: BinMode::Search,
                    input: x.dtype(),
                    edges: e.dtype(),
                    calc: promote_types(x.dtype(), e.dtype()),
                    weights,
                };
                count(
                    &k,
                    &x.stream(),
                    &CountArgs {
                        x: input(&x),
                        w: w.as_ref().map_or(In::NULL, input),
                        edges: input(&edges),
                        out: output(&acc),
                        n,
                        nb,
                        first: 0.0,
                        last: 0.0,
                        denom: 1.0,
                    },
                )?;
            }
            (acc, e.clone())
        }
    };
    let hist = match opts.weights {
        Some(wt) if hist.dtype() != wt.dtype() => hist.astype(wt.dtype())?,
        _ => hist,
    };
    if !opts.density {
        return Ok((hist, edges));
    }
    let nb = edges.size().saturating_sub(1);
    let width = if nb == 0 {
        Array::empty_on(dev, &[0], DType::Float64, Order::C)?
    } else {
        crate::math::diff(&edges, 1, 0, None, None)?.astype(DType::Float64)?
    };
    let total = crate::math::sum(&hist, ReduceOptions::default())?;
    let d = ufunc::divide(&ufunc::divide(&hist, &width)?, &total)?;
    Ok((d, edges))
}

/// Python's repr of a float for messages: `nan`, `inf`, `1.0`.
pub(crate) fn fmt_py(v: f64) -> String {
    if v.is_nan() {
        "nan".into()
    } else if v.is_infinite() {
        if v > 0.0 { "inf".into() } else { "-inf".into() }
    } else {
        format!("{v:?}")
    }
}

/// NumPy's `bincount(x, weights, minlength)`: the number of occurrences
/// of each value `0..=max(x)` in the non-negative integer 1-D `x` (at
/// least `minlength` bins), or the sums of `weights` per value (float64).
/// The max and min come back to the host in one copy (the result's length
/// depends on them).
///
/// ```no_run
/// use gpu_array::{creation::array, stats::*};
/// # fn main() -> gpu_array::Result<()> {
/// let b = bincount(&array([0, 1, 1, 3])?, None, 0)?; // [1, 2, 0, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `x` not 1-D, of a dtype that does not cast safely to int64 (floats,
/// uint64), with negative values ("'list' argument must have no negative
/// elements"); `weights` of another length or not castable to float64.
pub fn bincount(x: &Array, weights: Option<&Array>, minlength: usize) -> Result<Array> {
    match x.ndim() {
        1 => {}
        0 => {
            return Err(Error::Value(
                "object of too small depth for desired array".into(),
            ));
        }
        _ => return Err(Error::Value("object too deep for desired array".into())),
    }
    if !can_cast(x.dtype(), DType::Int64, Casting::Safe) {
        return Err(Error::Cast {
            from: x.dtype(),
            to: DType::Int64,
            casting: Casting::Safe,
        });
    }
    if let Some(w) = weights {
        if w.shape() != x.shape() {
            return Err(Error::Value(
                "The weights and list don't have the same length.".into(),
            ));
        }
        if !can_cast(w.dtype(), DType::Float64, Casting::Safe) {
            return Err(Error::Cast {
                from: w.dtype(),
                to: DType::Float64,
                casting: Casting::Safe,
            });
        }
    }
    let dev = x.device();
    let out_dt = if weights.is_some() {
        DType::Float64
    } else {
        DType::Int64
    };
    let n = x.shape()[0];
    if n == 0 {
        return zeros_on(dev, &[minlength], out_dt);
    }
    let xi = if x.dtype().is_bool() {
        x.astype(DType::UInt8)?
    } else {
        ascontiguousarray(x, None)?
    };
    let (lo, hi) = min_max_int(&xi)?;
    if lo < 0 {
        return Err(Error::Value(
            "'list' argument must have no negative elements".into(),
        ));
    }
    let size = (usize::try_from(hi).unwrap_or(usize::MAX - 1) + 1).max(minlength);
    let w = weights.map(|w| ascontiguousarray(w, None)).transpose()?;
    let (acc, wk) = match &w {
        None => (zeros_on(dev, &[size], DType::Int64)?, Weights::None),
        Some(w) => (
            zeros_on(dev, &[size], DType::Float64)?,
            Weights::Real(w.dtype()),
        ),
    };
    let k = CountKernel {
        mode: BinMode::Direct,
        input: xi.dtype(),
        edges: DType::Float64,
        calc: DType::Float64,
        weights: wk,
    };
    count(
        &k,
        &xi.stream(),
        &CountArgs {
            x: input(&xi),
            w: w.as_ref().map_or(In::NULL, input),
            edges: In::NULL,
            out: output(&acc),
            n,
            nb: size,
            first: 0.0,
            last: 0.0,
            denom: 1.0,
        },
    )?;
    Ok(acc)
}

/// The min and max of a non-empty C-contiguous 1-D integer array (not
/// uint64) as int64: one pass, one copy back.
fn min_max_int(a: &Array) -> Result<(i64, i64)> {
    let buf = Array::empty_on(a.device(), &[3], DType::UInt64, Order::C)?;
    Ok(minmax(a, &buf)?.expect("integers have no NaN"))
}

/// NumPy's `check_array_monotonic` on float64 values: 1 increasing (or
/// constant), -1 decreasing, 0 neither.
fn monotonicity(a: &[f64]) -> i32 {
    if a.is_empty() {
        return 1;
    }
    let first = a[0];
    let Some(i) = a.iter().position(|&v| v != first) else {
        return 1;
    };
    let mut next = a[i];
    let mut last;
    if first < next {
        for &v in &a[i + 1..] {
            last = next;
            next = v;
            if last > next {
                return 0;
            }
        }
        1
    } else {
        for &v in &a[i + 1..] {
            last = next;
            next = v;
            if last < next {
                return 0;
            }
        }
        -1
    }
}

/// NumPy's `digitize(x, bins, right)`: the index of the bin of each value
/// of `x` (int64, `x`'s shape), `bins` 1-D and monotonic (increasing or
/// decreasing; checked on the host, one copy back). For increasing bins
/// with `right == false`, `bins[i-1] <= x < bins[i]`; NaN sorts last, as
/// in `searchsorted`.
///
/// ```no_run
/// use gpu_array::{creation::array, stats::*};
/// # fn main() -> gpu_array::Result<()> {
/// let d = digitize(&array([0.2, 6.4, 3.0])?, &array([0.0, 1.0, 2.5, 4.0])?, false)?; // [1, 4, 3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Complex `x` ("x may not be complex"); `bins` not 1-D or not monotonic
/// ("bins must be monotonically increasing or decreasing").
pub fn digitize(x: &Array, bins: &Array, right: bool) -> Result<Array> {
    if x.dtype().is_complex() || bins.dtype().is_complex() {
        return Err(Error::DType("x may not be complex".into()));
    }
    if bins.ndim() != 1 {
        return Err(Error::Value("object too deep for desired array".into()));
    }
    let host: Vec<f64> = bins.astype(DType::Float64)?.to_vec()?;
    let mono = monotonicity(&host);
    if mono == 0 {
        return Err(Error::Value(
            "bins must be monotonically increasing or decreasing".into(),
        ));
    }
    let b = ascontiguousarray(bins, None)?;
    let cmp = promote_types(x.dtype(), bins.dtype());
    let out = Array::empty_on(x.device(), x.shape(), DType::Int64, Order::C)?;
    if b.size() == 0 {
        out.fill(0i64)?;
        return Ok(out);
    }
    // `right` searches with side 'left', and the reverse.
    let search = Search {
        len: host.len(),
        side_right: !right,
        decreasing: mono == -1,
    };
    digitize_kernel(x.into(), (&b).into(), (&out).into(), cmp, search).launch(x.shape())?;
    Ok(out)
}

/// How [`digitize_kernel`] searches its bins.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Search {
    /// The number of bins.
    pub(crate) len: usize,
    /// NumPy's `side='right'` (else 'left').
    pub(crate) side_right: bool,
    /// Decreasing bins, searched reversed.
    pub(crate) decreasing: bool,
}

/// `digitize`'s search of each `x` in the raw `bins`, both compared in
/// `cmp` with NaN ordered last, into int64 `y` (`search.cuh`).
pub(crate) fn digitize_kernel<'a>(
    x: Bind<'a>,
    bins: Bind<'a>,
    y: Bind<'a>,
    cmp: DType,
    s: Search,
) -> Elementwise<'a> {
    Elementwise::new("digitize")
        .input("x", x)
        .raw("bins", bins)
        .scalar("len", DType::Int64, s.len as i64)
        .scalar("side", DType::Int64, i64::from(s.side_right))
        .scalar("dec", DType::Int64, i64::from(s.decreasing))
        .output("y", y)
        .alias("cmp_type", cmp)
        .op("y = cuprum_np::digitize<cmp_type>(x, bins, len, side, dec);")
        .preamble(include_str!("search.cuh"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linspace_matches_numpy() {
        // np.linspace(0.0, 1.0, 5)
        assert_eq!(
            linspace_host(0.0, 1.0, 5, DType::Float64, DType::Float64),
            vec![0.0, 0.25, 0.5, 0.75, 1.0]
        );
        // np.linspace(np.float32(-1.1), np.float32(2.3), 4) in float32.
        let e = linspace_host(
            f64::from(-1.1f32),
            f64::from(2.3f32),
            4,
            DType::Float32,
            DType::Float32,
        );
        let (a, b) = (-1.1f32, 2.3f32);
        let step = (b - a) / 3.0;
        let want: Vec<f64> = (0..4)
            .map(|i| if i == 3 { b } else { i as f32 * step + a })
            .map(f64::from)
            .collect();
        assert_eq!(e, want);
    }

    #[test]
    fn monotonic_like_numpy() {
        assert_eq!(monotonicity(&[]), 1);
        assert_eq!(monotonicity(&[1.0, 1.0]), 1);
        assert_eq!(monotonicity(&[1.0, 1.0, 2.0, 2.0, 3.0]), 1);
        assert_eq!(monotonicity(&[3.0, 2.0, 2.0, 1.0]), -1);
        assert_eq!(monotonicity(&[1.0, 3.0, 2.0]), 0);
        assert_eq!(monotonicity(&[3.0, 1.0, 2.0]), 0);
    }

    #[test]
    fn python_float_repr() {
        assert_eq!(fmt_py(f64::NAN), "nan");
        assert_eq!(fmt_py(1.0), "1.0");
        assert_eq!(fmt_py(f64::NEG_INFINITY), "-inf");
    }
}
