//! The measurement kernels (`kernels/label.cu`, `kernels/measure.cu`): one
//! NVRTC program for every dtype, compiled on first use and cached by the
//! runtime. The launchers check every size the kernels index with;
//! `raw.rs` vouches for the launches.

use gpu_array::kernels::{input, output};
use gpu_array::{Array, DType, Error, Result};
use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::signature::In;
use gpu_runtime::{KernelSignature, LaunchConfig, TypedKernel};

const LABEL_SOURCE: &str = include_str!("../kernels/label.cu");
const MEASURE_SOURCE: &str = include_str!("../kernels/measure.cu");

/// Threads per block (`CUPRUM_MEAS_THREADS`: the reductions' fixed tree).
const THREADS: u32 = 256;

/// The most dimensions the kernels index (their local coordinate arrays).
pub(crate) const MAXDIM: usize = 16;

/// The dtypes the kernels read: those of the filters (bool, the integers,
/// float32 and float64).
pub(crate) const DTYPES: [DType; 11] = crate::kernels::DTYPES;

/// The label dtypes `label` writes.
pub(crate) const LABEL_DTYPES: [DType; 8] = [
    DType::Int8,
    DType::UInt8,
    DType::Int16,
    DType::UInt16,
    DType::Int32,
    DType::UInt32,
    DType::Int64,
    DType::UInt64,
];

gpu_runtime::kernel_signature! {
    /// `cuprum_label_init_{dtype}`: `parent[i] = i` where the input is
    /// nonzero, else -1.
    pub(crate) struct LabelInit[T] {
        input: In<T>,
        n: i64,
        parent: Out<i64>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_label_merge`: the union of each foreground element with its
    /// neighbours at `offs` (`noffs * ndim` components, `lin` their linear
    /// distances).
    pub(crate) struct LabelMerge {
        parent: Out<i64>,
        geom: In<i64>,
        ndim: i32,
        offs: In<i64>,
        lin: In<i64>,
        noffs: i32,
        n: i64,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_label_compress`: every element's parent set to its root;
    /// `roots[i]` 1 for the roots, else 0.
    pub(crate) struct LabelCompress {
        parent: Out<i64>,
        n: i64,
        roots: Out<u8>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_label_final_{dtype}`: each element's label, `rank[parent]`.
    pub(crate) struct LabelFinal[T] {
        parent: In<i64>,
        rank: In<i64>,
        n: i64,
        out: Out<T>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_meas_stats_{dtype}`: count, sums, mean, variance, standard
    /// deviation and extremes of each of `k` segments.
    pub(crate) struct SegStats[T] {
        values: In<T>,
        perm: In<i64>,
        lo: In<i64>,
        hi: In<i64>,
        k: i64,
        count: Out<i64>,
        sum: Out<f64>,
        isum: Out<i64>,
        mean: Out<f64>,
        var: Out<f64>,
        sd: Out<f64>,
        minv: Out<T>,
        maxv: Out<T>,
        minpos: Out<i64>,
        maxpos: Out<i64>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_meas_moments_{dtype}`: each segment's sum and its sums of
    /// value times coordinate, `ndim + 1` values a segment.
    pub(crate) struct SegMoments[T] {
        values: In<T>,
        perm: In<i64>,
        lo: In<i64>,
        hi: In<i64>,
        k: i64,
        geom: In<i64>,
        ndim: i32,
        out: Out<f64>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_meas_hist_{dtype}`: each segment's histogram over `bins`
    /// bins between `bins + 1` edges.
    pub(crate) struct SegHist[T] {
        values: In<T>,
        perm: In<i64>,
        lo: In<i64>,
        hi: In<i64>,
        k: i64,
        edges: In<f64>,
        bins: i64,
        out: Out<i64>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_meas_median_{dtype}`: each sorted segment's median in `M`.
    pub(crate) struct SegMedian[T, M] {
        values: In<T>,
        perm: In<i64>,
        lo: In<i64>,
        hi: In<i64>,
        k: i64,
        absent_first: bool,
        n: i64,
        out: Out<M>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_meas_find_objects`: the bounding boxes of labels
    /// `1..=max_label`, two coordinates an axis.
    pub(crate) struct FindObjects {
        labels: In<i64>,
        n: i64,
        geom: In<i64>,
        ndim: i32,
        max_label: i64,
        bbox: Out<i64>,
    }
}

fn name(which: &str, dt: DType) -> String {
    format!("cuprum_{which}_{}", dt.name())
}

/// The median's dtype for data of `dt`: the float dtypes their own, every
/// other float64 (SciPy's).
pub(crate) fn median_dtype(dt: DType) -> DType {
    if dt == DType::Float32 {
        DType::Float32
    } else {
        DType::Float64
    }
}

/// The one NVRTC program of the measurement kernels, every dtype at once.
pub(crate) fn program_request() -> CompileRequest {
    let mut src = String::from(LABEL_SOURCE);
    src += MEASURE_SOURCE;
    src += &LabelMerge::prototype("cuprum_label_merge", []);
    src += &LabelCompress::prototype("cuprum_label_compress", []);
    src += &FindObjects::prototype("cuprum_meas_find_objects", []);
    for dt in DTYPES {
        let c = dt.c_type();
        let n = name("label_init", dt);
        src += &LabelInit::prototype(&n, [c]);
        src += &format!("CUPRUM_LABEL_INIT({n}, {c})\n");
        for (which, mac) in [
            ("meas_stats", "STATS"),
            ("meas_moments", "MOMENTS"),
            ("meas_hist", "HIST"),
        ] {
            let n = name(which, dt);
            src += &match mac {
                "STATS" => SegStats::prototype(&n, [c]),
                "MOMENTS" => SegMoments::prototype(&n, [c]),
                _ => SegHist::prototype(&n, [c]),
            };
            src += &format!("CUPRUM_MEAS_{mac}({n}, {c})\n");
        }
        let n = name("meas_median", dt);
        let m = median_dtype(dt).c_type();
        src += &SegMedian::prototype(&n, [c, m]);
        src += &format!("CUPRUM_MEAS_MEDIAN({n}, {c}, {m})\n");
    }
    for dt in LABEL_DTYPES {
        let c = dt.c_type();
        let n = name("label_final", dt);
        src += &LabelFinal::prototype(&n, [c]);
        src += &format!("CUPRUM_LABEL_FINAL({n}, {c})\n");
    }
    gpu_array::kernels::request(src)
}

/// Blocks for `n` units of work (threads, or blocks' worth when
/// `per_block`): enough to cover it, at most 32 a multiprocessor (the
/// kernels loop over the rest).
fn grid(on: &Array, n: usize, per_block: bool) -> Result<u32> {
    let sms = crate::kernels::multiprocessors(on)? as u64;
    let want = if per_block {
        n as u64
    } else {
        (n as u64).div_ceil(u64::from(THREADS))
    };
    Ok(u32::try_from(want.clamp(1, sms * 32)).unwrap_or(u32::MAX))
}

fn config(blocks: u32) -> LaunchConfig {
    LaunchConfig::new((blocks, 1, 1), (THREADS, 1, 1))
}

fn check(ok: bool, what: &str) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(Error::Value(format!("ndimage {what}: arrays do not fit")))
    }
}

fn is_i64_vec(a: &Array, n: usize) -> bool {
    a.dtype() == DType::Int64 && a.is_c_contiguous() && a.size() == n
}

/// `parent` (int64, C-contiguous, the input's size) from the C-contiguous
/// `input` of a dtype of [`DTYPES`]: each nonzero element its own root.
pub(crate) fn label_init(input_: &Array, parent: &Array) -> Result<()> {
    let dt = input_.dtype();
    let n = input_.size();
    check(
        DTYPES.contains(&dt) && input_.is_c_contiguous() && is_i64_vec(parent, n),
        "label_init",
    )?;
    if n == 0 {
        return Ok(());
    }
    let nm = name("label_init", dt);
    let k = TypedKernel::<LabelInit>::cached(&nm, [dt.c_type()], program_request)?;
    let args = LabelInit {
        input: input(input_),
        n: n as i64,
        parent: output(parent),
    };
    k.launch(&config(grid(parent, n, false)?), &parent.stream(), &args)?;
    Ok(())
}

/// The unions of every foreground element of `parent` (of `shape`) with
/// its neighbours at `offsets` (per neighbour, `shape.len()` components,
/// each in -1..=1, none outside the array's rank).
pub(crate) fn label_merge(parent: &Array, shape: &[usize], offsets: &[Vec<i64>]) -> Result<()> {
    let n: usize = shape.iter().product();
    let ndim = shape.len();
    check(
        is_i64_vec(parent, n)
            && (1..=MAXDIM).contains(&ndim)
            && offsets.len() <= i32::MAX as usize
            && offsets
                .iter()
                .all(|o| o.len() == ndim && o.iter().all(|c| (-1..=1).contains(c))),
        "label_merge",
    )?;
    if n == 0 || offsets.is_empty() {
        return Ok(());
    }
    let geom: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
    let strides = c_strides(shape);
    let lin: Vec<i64> = offsets
        .iter()
        .map(|o| o.iter().zip(&strides).map(|(c, s)| c * s).sum())
        .collect();
    let flat: Vec<i64> = offsets.concat();
    let geom = Array::from_slice(&geom, &[ndim])?;
    let offs = Array::from_slice(&flat, &[flat.len()])?;
    let lin_a = Array::from_slice(&lin, &[lin.len()])?;
    let k = TypedKernel::<LabelMerge>::cached("cuprum_label_merge", [], program_request)?;
    let args = LabelMerge {
        parent: output(parent),
        geom: input(&geom),
        ndim: ndim as i32,
        offs: input(&offs),
        lin: input(&lin_a),
        noffs: offsets.len() as i32,
        n: n as i64,
    };
    k.launch(&config(grid(parent, n, false)?), &parent.stream(), &args)?;
    Ok(())
}

/// Path compression of `parent`; `roots` (uint8, same size) gets 1 at
/// each root, else 0.
pub(crate) fn label_compress(parent: &Array, roots: &Array) -> Result<()> {
    let n = parent.size();
    check(
        is_i64_vec(parent, n)
            && roots.dtype() == DType::UInt8
            && roots.is_c_contiguous()
            && roots.size() == n,
        "label_compress",
    )?;
    if n == 0 {
        return Ok(());
    }
    let k = TypedKernel::<LabelCompress>::cached("cuprum_label_compress", [], program_request)?;
    let args = LabelCompress {
        parent: output(parent),
        n: n as i64,
        roots: output(roots),
    };
    k.launch(&config(grid(parent, n, false)?), &parent.stream(), &args)?;
    Ok(())
}

/// `out` (C-contiguous, a dtype of [`LABEL_DTYPES`]) = `rank[parent]`, 0
/// for the background.
pub(crate) fn label_final(parent: &Array, rank: &Array, out: &Array) -> Result<()> {
    let n = parent.size();
    let dt = out.dtype();
    check(
        LABEL_DTYPES.contains(&dt)
            && out.is_c_contiguous()
            && out.size() == n
            && is_i64_vec(parent, n)
            && is_i64_vec(rank, n),
        "label_final",
    )?;
    if n == 0 {
        return Ok(());
    }
    let nm = name("label_final", dt);
    let k = TypedKernel::<LabelFinal>::cached(&nm, [dt.c_type()], program_request)?;
    let args = LabelFinal {
        parent: input(parent),
        rank: input(rank),
        n: n as i64,
        out: output(out),
    };
    k.launch(&config(grid(out, n, false)?), &out.stream(), &args)?;
    Ok(())
}

/// The C-order strides, in elements, of `shape`.
pub(crate) fn c_strides(shape: &[usize]) -> Vec<i64> {
    let mut s = vec![1i64; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * shape[d + 1] as i64;
    }
    s
}

/// Segments of `values` (C-contiguous, a dtype of [`DTYPES`]): segment
/// `s` holds `values[perm[j]]` (or `values[j]` without `perm`) for `j` in
/// `lo[s]..hi[s]`, each within `0..values.size()`.
pub(crate) struct Segments<'a> {
    pub values: &'a Array,
    pub perm: Option<&'a Array>,
    /// int64, `k` values.
    pub lo: Array,
    /// int64, `k` values.
    pub hi: Array,
}

impl Segments<'_> {
    fn k(&self) -> usize {
        self.lo.size()
    }

    fn check(&self, what: &str) -> Result<()> {
        let n = self.values.size();
        check(
            DTYPES.contains(&self.values.dtype())
                && self.values.is_c_contiguous()
                && self.perm.is_none_or(|p| is_i64_vec(p, n))
                && is_i64_vec(&self.lo, self.k())
                && is_i64_vec(&self.hi, self.k()),
            what,
        )
    }

    fn perm_arg(&self) -> In {
        self.perm.map_or(In::NULL, input)
    }
}

/// [`Segments::stats`]' results, one value a segment.
pub(crate) struct SegStatsOut {
    pub count: Array,
    pub sum: Array,
    pub isum: Array,
    pub mean: Array,
    pub var: Array,
    pub sd: Array,
    pub minv: Array,
    pub maxv: Array,
    pub minpos: Array,
    pub maxpos: Array,
}

impl Segments<'_> {
    /// Every statistic of `SegStats` for each segment.
    pub(crate) fn stats(&self) -> Result<SegStatsOut> {
        self.check("stats")?;
        let k = self.k();
        let dt = self.values.dtype();
        let i64s = || Array::empty([k], DType::Int64);
        let f64s = || Array::empty([k], DType::Float64);
        let out = SegStatsOut {
            count: i64s()?,
            sum: f64s()?,
            isum: i64s()?,
            mean: f64s()?,
            var: f64s()?,
            sd: f64s()?,
            minv: Array::empty([k], dt)?,
            maxv: Array::empty([k], dt)?,
            minpos: i64s()?,
            maxpos: i64s()?,
        };
        if k == 0 {
            return Ok(out);
        }
        let nm = name("meas_stats", dt);
        let kern = TypedKernel::<SegStats>::cached(&nm, [dt.c_type()], program_request)?;
        let args = SegStats {
            values: input(self.values),
            perm: self.perm_arg(),
            lo: input(&self.lo),
            hi: input(&self.hi),
            k: k as i64,
            count: output(&out.count),
            sum: output(&out.sum),
            isum: output(&out.isum),
            mean: output(&out.mean),
            var: output(&out.var),
            sd: output(&out.sd),
            minv: output(&out.minv),
            maxv: output(&out.maxv),
            minpos: output(&out.minpos),
            maxpos: output(&out.maxpos),
        };
        kern.launch(&config(grid(&out.sum, k, true)?), &out.sum.stream(), &args)?;
        Ok(out)
    }

    /// Per segment, `shape.len() + 1` float64 values: the sum and the sums
    /// of value times each coordinate (`shape`: the values' shape).
    pub(crate) fn moments(&self, shape: &[usize]) -> Result<Array> {
        self.check("moments")?;
        let ndim = shape.len();
        check(
            ndim <= MAXDIM && shape.iter().product::<usize>() == self.values.size(),
            "moments",
        )?;
        let k = self.k();
        let dt = self.values.dtype();
        let out = Array::empty([k * (ndim + 1)], DType::Float64)?;
        if k == 0 {
            return Ok(out);
        }
        let geom: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
        // A 0-d array still needs a valid pointer; the kernel reads none.
        let geom = Array::from_slice(&geom, &[ndim])?;
        let nm = name("meas_moments", dt);
        let kern = TypedKernel::<SegMoments>::cached(&nm, [dt.c_type()], program_request)?;
        let args = SegMoments {
            values: input(self.values),
            perm: self.perm_arg(),
            lo: input(&self.lo),
            hi: input(&self.hi),
            k: k as i64,
            geom: input(&geom),
            ndim: ndim as i32,
            out: output(&out),
        };
        kern.launch(&config(grid(&out, k, true)?), &out.stream(), &args)?;
        Ok(out)
    }

    /// Per segment, `edges.len() - 1` int64 counts (shape `(k, bins)`).
    pub(crate) fn histogram(&self, edges: &[f64]) -> Result<Array> {
        self.check("histogram")?;
        check(!edges.is_empty(), "histogram")?;
        let bins = edges.len() - 1;
        let k = self.k();
        let dt = self.values.dtype();
        let out = Array::zeros([k, bins], DType::Int64)?;
        if k == 0 || bins == 0 {
            return Ok(out);
        }
        let e = Array::from_slice(edges, &[edges.len()])?;
        let nm = name("meas_hist", dt);
        let kern = TypedKernel::<SegHist>::cached(&nm, [dt.c_type()], program_request)?;
        let args = SegHist {
            values: input(self.values),
            perm: self.perm_arg(),
            lo: input(&self.lo),
            hi: input(&self.hi),
            k: k as i64,
            edges: input(&e),
            bins: bins as i64,
            out: output(&out),
        };
        kern.launch(&config(grid(&out, k, true)?), &out.stream(), &args)?;
        Ok(out)
    }

    /// Per segment (each sorted by value), the median in
    /// [`median_dtype`]; empty ones NaN, or with `absent_first` the value
    /// at sorted position 0.
    pub(crate) fn median(&self, absent_first: bool) -> Result<Array> {
        self.check("median")?;
        let k = self.k();
        let dt = self.values.dtype();
        let md = median_dtype(dt);
        let out = Array::empty([k], md)?;
        if k == 0 {
            return Ok(out);
        }
        let nm = name("meas_median", dt);
        let kern =
            TypedKernel::<SegMedian>::cached(&nm, [dt.c_type(), md.c_type()], program_request)?;
        let args = SegMedian {
            values: input(self.values),
            perm: self.perm_arg(),
            lo: input(&self.lo),
            hi: input(&self.hi),
            k: k as i64,
            absent_first,
            n: self.values.size() as i64,
            out: output(&out),
        };
        kern.launch(&config(grid(&out, k, false)?), &out.stream(), &args)?;
        Ok(out)
    }
}

/// The bounding boxes of labels `1..=max_label` in `labels` (int64,
/// C-contiguous, of `shape`): `max_label * ndim * 2` int64 values, the
/// smallest and largest coordinate of each axis (`i64::MAX` and -1 for an
/// absent label).
pub(crate) fn find_objects(labels: &Array, shape: &[usize], max_label: usize) -> Result<Array> {
    let n = labels.size();
    let ndim = shape.len();
    check(
        is_i64_vec(labels, n)
            && shape.iter().product::<usize>() == n
            && (1..=MAXDIM).contains(&ndim),
        "find_objects",
    )?;
    let too_many = || Error::Value(format!("find_objects: max_label {max_label} is too large"));
    let len = max_label
        .checked_mul(ndim * 2)
        .filter(|_| i64::try_from(max_label).is_ok())
        .ok_or_else(too_many)?;
    // A user's max_label sizes this host table: an error, not an abort,
    // when the host cannot hold it.
    let mut init: Vec<i64> = Vec::new();
    init.try_reserve_exact(len).map_err(|_| too_many())?;
    init.extend((0..len).map(|i| if i % 2 == 0 { i64::MAX } else { -1 }));
    let bbox = Array::from_slice(&init, &[len])?;
    if n == 0 || max_label == 0 {
        return Ok(bbox);
    }
    let geom: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
    let geom = Array::from_slice(&geom, &[ndim])?;
    let k = TypedKernel::<FindObjects>::cached("cuprum_meas_find_objects", [], program_request)?;
    let args = FindObjects {
        labels: input(labels),
        n: n as i64,
        geom: input(&geom),
        ndim: ndim as i32,
        max_label: max_label as i64,
        bbox: output(&bbox),
    };
    k.launch(&config(grid(&bbox, n, false)?), &bbox.stream(), &args)?;
    Ok(bbox)
}
