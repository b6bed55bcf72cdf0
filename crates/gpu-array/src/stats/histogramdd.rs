//! `histogramdd` and `histogram2d`: NumPy's algorithm (a `searchsorted`
//! per column with two outlier bins per axis, the flat index counted by
//! `bincount`, the outliers sliced off), one elementwise kernel for the
//! indices and the counting kernel for the counts.

use super::histogram::{Bins, linspace_host, round_to, upload, zeros_on};
use super::kernels::{BinMode, CountArgs, CountKernel, Weights, launch as count};
use gpu_runtime::signature::In;

use crate::array::Array;
use crate::creation::ascontiguousarray;
use crate::dtype::{DType, promote_types};
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::kernels::{input, output};
use crate::layout::{AxisIndex, Order};
use crate::reduction::ReduceOptions;
use crate::ufunc;

/// One column's bins before upload: NumPy's equal-width edges (values and
/// dtype) or the given edge array.
enum Edges {
    Host(Vec<f64>, DType),
    Given(Array),
}

/// NumPy's `histogramdd(sample, bins, range, density, weights)`: the
/// multidimensional histogram of the `N` points of the `(N, D)` `sample`
/// (a 1-D sample is `(N, 1)`). `bins` holds one entry per dimension, or
/// one for all: a number of equal-width bins (edges from `linspace` over
/// the column's range or its min and max, as NumPy's) or increasing edges.
/// Returns the float64 histogram (a view without NumPy's outlier bins)
/// and the edges of each dimension. A point is counted where `searchsorted`
/// (side right) puts it, points on a dimension's last edge in the last
/// bin; NaN and points outside are not counted. Edges and points are
/// compared in the promoted dtype of the sample and every edge array.
///
/// ```no_run
/// use gpu_array::{creation::array, stats::*};
/// # fn main() -> gpu_array::Result<()> {
/// let pts = array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]])?;
/// // hist, edges = np.histogramdd(pts, bins=2): hist [[1, 0], [1, 1]]
/// let (hist, edges) = histogramdd(&pts, &[Bins::Count(2)], None, false, None)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// A sample of more than two dimensions or complex; `bins` or `range` of
/// the wrong length; zero bins; decreasing or empty edge arrays; data with
/// NaN and no range; weights of another length or complex.
pub fn histogramdd(
    sample: &Array,
    bins: &[Bins<'_>],
    range: Option<&[Option<(f64, f64)>]>,
    density: bool,
    weights: Option<&Array>,
) -> Result<(Array, Vec<Array>)> {
    if sample.dtype().is_complex() {
        return Err(Error::Unsupported(
            "histogramdd of complex values: the bins of complex numbers are not defined".into(),
        ));
    }
    let s = match sample.ndim() {
        1 => sample.reshape([sample.size() as isize, 1])?,
        2 => sample.clone(),
        _ => {
            return Err(Error::Value(
                "histogramdd: the sample must be a 2-D array of N points in D dimensions".into(),
            ));
        }
    };
    let s = if s.dtype().is_bool() {
        s.astype(DType::UInt8)?
    } else {
        ascontiguousarray(&s, None)?
    };
    let (n, d) = (s.shape()[0], s.shape()[1]);
    let bins: Vec<Bins<'_>> = match bins.len() {
        1 => vec![bins[0]; d],
        k if k == d => bins.to_vec(),
        _ => {
            return Err(Error::Value(
                "The dimension of bins must be equal to the dimension of the sample x.".into(),
            ));
        }
    };
    let ranges: Vec<Option<(f64, f64)>> = match range {
        None => vec![None; d],
        Some(r) if r.len() == d => r.to_vec(),
        Some(_) => {
            return Err(Error::Value(
                "range argument must have one entry per dimension".into(),
            ));
        }
    };
    if let Some(w) = weights {
        if w.ndim() != 1 || w.shape()[0] != n {
            return Err(Error::Value(
                "The weights and list don't have the same length.".into(),
            ));
        }
        if w.dtype().is_complex() {
            return Err(Error::Cast {
                from: w.dtype(),
                to: DType::Float64,
                casting: crate::dtype::Casting::Safe,
            });
        }
    }
    // The data's min and max per column, where a count has no range: one
    // pair of reductions and one copy back for all columns.
    let need = bins
        .iter()
        .zip(&ranges)
        .any(|(b, r)| matches!(b, Bins::Count(_)) && r.is_none());
    let (mins, maxs) = if need && n > 0 {
        let buf = Array::empty_on(s.device(), &[2, d], s.dtype(), Order::C)?;
        let lo = buf.slice(&[AxisIndex::Index(0)])?;
        let hi = buf.slice(&[AxisIndex::Index(1)])?;
        crate::stats::amin(&s, ReduceOptions::axis(0).out(&lo))?;
        crate::stats::amax(&s, ReduceOptions::axis(0).out(&hi))?;
        let v: Vec<f64> = buf.astype(DType::Float64)?.to_vec()?;
        (v[..d].to_vec(), v[d..].to_vec())
    } else {
        (vec![0.0; d], vec![1.0; d])
    };
    let float = s.dtype().is_floating();
    let mut cols = Vec::with_capacity(d);
    for (i, (b, r)) in bins.iter().zip(&ranges).enumerate() {
        cols.push(match *b {
            Bins::Count(0) => {
                return Err(Error::Value(format!(
                    "`bins[{i}]` must be positive, when an integer"
                )));
            }
            Bins::Count(nb) => {
                let (given, mut lo, mut hi) = match r {
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
                        (true, *lo, *hi)
                    }
                    None if n == 0 => (true, 0.0, 1.0),
                    None => {
                        let (lo, hi) = (mins[i], maxs[i]);
                        if !(lo.is_finite() && hi.is_finite()) {
                            return Err(Error::Value(format!(
                                "autodetected range of [{}, {}] is not finite",
                                super::histogram::fmt_py(lo),
                                super::histogram::fmt_py(hi)
                            )));
                        }
                        (false, lo, hi)
                    }
                };
                let l = if float && !given {
                    s.dtype()
                } else {
                    DType::Float64
                };
                if lo == hi {
                    lo = round_to(lo - 0.5, l);
                    hi = round_to(hi + 0.5, l);
                }
                Edges::Host(linspace_host(lo, hi, nb + 1, l, l), l)
            }
            Bins::Edges(e) => {
                if e.ndim() != 1 {
                    return Err(Error::Value(format!(
                        "`bins[{i}]` must be a scalar or 1d array"
                    )));
                }
                if e.size() == 0 {
                    return Err(Error::Value(format!("`bins[{i}]` must not be empty")));
                }
                if e.size() >= 2 {
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
                    let bad =
                        crate::logic::any(&ufunc::greater(&lo, &hi)?, ReduceOptions::default())?;
                    if bad.item::<bool>(&[])? {
                        return Err(Error::Value(format!(
                            "`bins[{i}]` must be monotonically increasing, when an array"
                        )));
                    }
                }
                Edges::Given(e.clone())
            }
        });
    }
    let cmp = cols.iter().fold(s.dtype(), |c, e| {
        promote_types(
            c,
            match e {
                Edges::Host(_, dt) => *dt,
                Edges::Given(a) => a.dtype(),
            },
        )
    });
    // Upload: the edges of every column in `cmp`, their offsets and lengths.
    let dev = s.device();
    let mut edges_out = Vec::with_capacity(d);
    let mut meta = Vec::with_capacity(2 * d);
    let mut nbin = Vec::with_capacity(d);
    let mut total = 0usize;
    for c in &cols {
        let a = match c {
            Edges::Host(v, dt) => upload(dev, v, *dt)?,
            Edges::Given(a) => a.clone(),
        };
        meta.push(total as i64);
        meta.push(a.size() as i64);
        nbin.push(a.size() + 1);
        total += a.size();
        edges_out.push(a);
    }
    let flat = Array::empty_on(dev, &[total], cmp, Order::C)?;
    let mut at = 0isize;
    for e in &edges_out {
        let len = e.size() as isize;
        let dst = flat.slice(&[AxisIndex::Slice {
            start: Some(at),
            stop: Some(at + len),
            step: 1,
        }])?;
        dst.copy_from(&e.astype(cmp)?)?;
        at += len;
    }
    let meta_a = Array::from_slice_on(dev, &meta, &[meta.len()])?;
    let cells = nbin
        .iter()
        .try_fold(1usize, |p, &b| p.checked_mul(b))
        .filter(|&c| c <= isize::MAX as usize / 8)
        .ok_or_else(|| Error::Value("histogramdd: too many bins".into()))?;
    let (acc, wk) = match weights {
        None => (zeros_on(dev, &[cells], DType::Int64)?, Weights::None),
        Some(w) => (
            zeros_on(dev, &[cells], DType::Float64)?,
            Weights::Real(w.dtype()),
        ),
    };
    if n > 0 {
        let idx = Array::empty_on(dev, &[n], DType::Int64, Order::C)?;
        let flat_s = s.reshape([(n * d) as isize])?;
        histdd_kernel(
            (&flat_s).into(),
            (&flat).into(),
            (&meta_a).into(),
            (&idx).into(),
            d,
        )
        .launch(&[n])?;
        let w = weights.map(|w| ascontiguousarray(w, None)).transpose()?;
        let k = CountKernel {
            mode: BinMode::Direct,
            input: DType::Int64,
            edges: DType::Float64,
            calc: DType::Float64,
            weights: wk,
        };
        count(
            &k,
            &idx.stream(),
            &CountArgs {
                x: input(&idx),
                w: w.as_ref().map_or(In::NULL, input),
                edges: In::NULL,
                out: output(&acc),
                n,
                nb: cells,
                first: 0.0,
                last: 0.0,
                denom: 1.0,
            },
        )?;
    }
    let shape: Vec<isize> = nbin.iter().map(|&b| b as isize).collect();
    let full = acc.astype(DType::Float64)?.reshape(&shape)?;
    let core: Vec<AxisIndex> = (0..d)
        .map(|_| AxisIndex::Slice {
            start: Some(1),
            stop: Some(-1),
            step: 1,
        })
        .collect();
    let mut hist = full.slice(&core)?;
    if density {
        let total = crate::math::sum(&hist, ReduceOptions::default())?;
        for (i, e) in edges_out.iter().enumerate() {
            let de = crate::math::diff(e, 1, 0, None, None)?;
            let mut sh = vec![1isize; d];
            sh[i] = de.size() as isize;
            hist = ufunc::divide(&hist, &de.reshape(&sh)?)?;
        }
        hist = ufunc::divide(&hist, &total)?;
    }
    Ok((hist, edges_out))
}

/// NumPy's `histogram2d(x, y, bins, range, density, weights)`: the
/// histogram of the points `(x[i], y[i])` (stacked in their promoted
/// dtype), as [`histogramdd`]; returns `(hist, xedges, yedges)`.
///
/// ```no_run
/// use gpu_array::{creation::array, stats::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (x, y) = (array([0.0, 1.0, 1.0])?, array([0.0, 1.0, 0.0])?);
/// // np.histogram2d(x, y, bins=[2, 3], range=[(0, 1), (0, 3)])
/// let r = [Some((0.0, 1.0)), Some((0.0, 3.0))];
/// let (h, xe, ye) = histogram2d(&x, &y, &[Bins::Count(2), Bins::Count(3)], Some(&r), false, None)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// `x` and `y` not 1-D of one length ("x and y must have the same
/// length."); as [`histogramdd`].
pub fn histogram2d(
    x: &Array,
    y: &Array,
    bins: &[Bins<'_>],
    range: Option<&[Option<(f64, f64)>]>,
    density: bool,
    weights: Option<&Array>,
) -> Result<(Array, Array, Array)> {
    if x.ndim() != 1 || y.ndim() != 1 || x.shape()[0] != y.shape()[0] {
        return Err(Error::Value("x and y must have the same length.".into()));
    }
    let n = x.shape()[0];
    let dt = promote_types(x.dtype(), y.dtype());
    let s = Array::empty_on(x.device(), &[n, 2], dt, Order::C)?;
    s.slice(&[AxisIndex::FULL, AxisIndex::Index(0)])?
        .copy_from(&x.astype(dt)?)?;
    s.slice(&[AxisIndex::FULL, AxisIndex::Index(1)])?
        .copy_from(&y.astype(dt)?)?;
    let (h, mut e) = histogramdd(&s, bins, range, density, weights)?;
    let ye = e.pop().expect("two dimensions");
    let xe = e.pop().expect("two dimensions");
    Ok((h, xe, ye))
}
/// `histogramdd`'s flat bin index of each sample (int64 `y`): the raw
/// C-ordered `(N, dims)` sample `s`, the raw flat edges `e` of every column
/// (NaN ordered last) and their raw int64 `meta` (offset and count per
/// column; `search.cuh`).
pub(crate) fn histdd_kernel<'a>(
    s: Bind<'a>,
    e: Bind<'a>,
    meta: Bind<'a>,
    y: Bind<'a>,
    dims: usize,
) -> Elementwise<'a> {
    Elementwise::new("histdd")
        .raw("s", s)
        .raw("e", e)
        .raw("meta", meta)
        .scalar("dims", DType::Int64, dims as i64)
        .output("y", y)
        .op("y = cuprum_np::histdd_index<e_type>((long long)i, s, e, meta, dims);")
        .preamble(include_str!("search.cuh"))
}
