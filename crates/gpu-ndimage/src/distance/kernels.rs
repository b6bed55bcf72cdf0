//! The distance-transform kernels (`kernels/distance.cu`): one NVRTC
//! program, compiled on first use and cached by the runtime. The
//! launchers take C-contiguous arrays and check every size the kernels
//! index with; `raw.rs` vouches for the launches.

use gpu_array::kernels::{input, output};
use gpu_array::{Array, DType, Error, Result};
use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::signature::{In, Out};
use gpu_runtime::{KernelSignature, LaunchConfig, TypedKernel};

const SOURCE: &str = include_str!("../kernels/distance.cu");

/// Threads per block.
const THREADS: u32 = 256;

/// Threads per block of the EDT passes (one thread a line): a warp a
/// block, so that 4096 lines spread over 128 multiprocessors rather than
/// 16 (each line is a chain of dependent loads; the 22nd session's `ncu`
/// saw the passes at 1-2% of the machine with 256-thread blocks).
const LINE_THREADS: u32 = 32;

/// The most dimensions the kernels index (`CUPRUM_DIST_MAXDIM`, their
/// local coordinate arrays).
pub(crate) const MAXDIM: usize = 16;

gpu_runtime::kernel_signature! {
    /// `cuprum_edt_init`: the features before the first pass.
    pub(crate) struct EdtInit {
        input: In<bool>,
        n: i64,
        geom: In<i64>,
        ndim: i32,
        ft: Out<i32>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_edt_pass`: the features after the pass along axis `d`.
    pub(crate) struct EdtPass {
        fin: In<i32>,
        fout: Out<i32>,
        g: Out<i32>,
        n: i64,
        geom: In<i64>,
        ndim: i32,
        d: i32,
        lines: i64,
        inner: i64,
        sampling: In<f64>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_edt_first`: the exact path's pass along axis 0, from the
    /// mask.
    pub(crate) struct EdtFirst {
        mask: In<bool>,
        ft: Out<i32>,
        dist: Out<f64>,
        n: i64,
        geom: In<i64>,
        ndim: i32,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_edt_exact`: the exact path's pass along axis `d >= 1`.
    pub(crate) struct EdtExact {
        fin: In<i32>,
        fout: Out<i32>,
        dist: Out<f64>,
        n: i64,
        geom: In<i64>,
        ndim: i32,
        d: i32,
        lines: i64,
        inner: i64,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_edt_distances`: each element's distance to its feature.
    pub(crate) struct EdtDistances {
        ft: In<i32>,
        n: i64,
        geom: In<i64>,
        ndim: i32,
        sampling: In<f64>,
        out: Out<f64>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_cdt_init`: 0 for the background, -1 for the foreground; each
    /// element its own feature.
    pub(crate) struct CdtInit {
        input: In<bool>,
        n: i64,
        dist: Out<i32>,
        f: Out<i64>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_cdt_sweep`: one relaxation sweep of a chamfer scan.
    pub(crate) struct CdtSweep {
        init_d: In<i32>,
        init_f: In<i64>,
        dist: Out<i32>,
        f: Out<i64>,
        n: i64,
        geom: In<i64>,
        ndim: i32,
        offs: In<i64>,
        lin: In<i64>,
        noffs: i32,
        sign: i32,
        changed: Out<i32>,
        slot: i32,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_cdt_indices`: linear feature indices to coordinate planes.
    pub(crate) struct CdtIndices {
        f: In<i64>,
        n: i64,
        geom: In<i64>,
        ndim: i32,
        out: Out<i32>,
    }
}

/// The one NVRTC program of the distance kernels.
pub(crate) fn program_request() -> CompileRequest {
    let mut src = String::new();
    src += &EdtInit::prototype("cuprum_edt_init", []);
    src += &EdtPass::prototype("cuprum_edt_pass", []);
    src += &EdtFirst::prototype("cuprum_edt_first", []);
    src += &EdtExact::prototype("cuprum_edt_exact", []);
    src += &EdtDistances::prototype("cuprum_edt_distances", []);
    src += &CdtInit::prototype("cuprum_cdt_init", []);
    src += &CdtSweep::prototype("cuprum_cdt_sweep", []);
    src += &CdtIndices::prototype("cuprum_cdt_indices", []);
    src += SOURCE;
    gpu_array::kernels::request(src)
}

/// Blocks for `n` threads' work: enough to cover it, at most 32 a
/// multiprocessor (the kernels loop over the rest).
fn grid(on: &Array, n: usize) -> Result<u32> {
    grid_of(on, n, THREADS)
}

/// Blocks of `threads` for `n` items of one thread each, at most 8192
/// threads a multiprocessor's worth (the kernels loop over the rest).
fn grid_of(on: &Array, n: usize, threads: u32) -> Result<u32> {
    let sms = crate::kernels::multiprocessors(on)? as u64;
    let cap = sms * (8192 / u64::from(threads));
    let blocks = (n as u64).div_ceil(u64::from(threads)).clamp(1, cap);
    Ok(u32::try_from(blocks).unwrap_or(u32::MAX))
}

fn config(blocks: u32) -> LaunchConfig {
    LaunchConfig::new((blocks, 1, 1), (THREADS, 1, 1))
}

/// `ndim * n`, the features' length, checked.
fn planes(ndim: usize, n: usize) -> Result<usize> {
    ndim.checked_mul(n)
        .ok_or_else(|| Error::Value("distance_transform_edt: array too large".into()))
}

fn check(ok: bool, what: &str) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(Error::Value(format!("ndimage {what}: arrays do not fit")))
    }
}

fn is_vec(a: &Array, dt: DType, n: usize) -> bool {
    a.dtype() == dt && a.is_c_contiguous() && a.size() == n
}

/// The shape as the kernels' `geom` (int64, on the device), after checking
/// the rank and that `n` is its size.
fn geom(shape: &[usize], n: usize) -> Result<Array> {
    check(
        (1..=MAXDIM).contains(&shape.len()) && shape.iter().product::<usize>() == n,
        "distance geometry",
    )?;
    let g: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
    Array::from_slice(&g, &[g.len()])
}

fn sampling_arg(sampling: Option<&Array>, ndim: usize) -> Result<In> {
    match sampling {
        None => Ok(In::NULL),
        Some(s) => {
            check(is_vec(s, DType::Float64, ndim), "sampling")?;
            Ok(input(s))
        }
    }
}

/// `ft` (int32, `ndim * n`) before the first pass, from `mask` (bool,
/// C-contiguous, of `shape`): plane 0 -1 on the foreground.
pub(crate) fn edt_init(mask: &Array, shape: &[usize], ft: &Array) -> Result<()> {
    let n = mask.size();
    let ndim = shape.len();
    let planes = planes(ndim, n)?;
    check(
        is_vec(mask, DType::Bool, n) && is_vec(ft, DType::Int32, planes),
        "edt_init",
    )?;
    let geom = geom(shape, n)?;
    if n == 0 {
        return Ok(());
    }
    let k = TypedKernel::<EdtInit>::cached("cuprum_edt_init", [], program_request)?;
    let args = EdtInit {
        input: input(mask),
        n: n as i64,
        geom: input(&geom),
        ndim: ndim as i32,
        ft: output(ft),
    };
    k.launch(&config(grid(ft, n)?), &ft.stream(), &args)?;
    Ok(())
}

/// The pass along `axis`: `fout` from `fin` (int32, `ndim * n` each, every
/// axis at most `i32::MAX` long), `g` (int32, `n`) the stacks' scratch;
/// `sampling` none or `ndim` float64 values.
pub(crate) fn edt_pass(
    fin: &Array,
    fout: &Array,
    g: &Array,
    shape: &[usize],
    axis: usize,
    sampling: Option<&Array>,
) -> Result<()> {
    let n: usize = shape.iter().product();
    let ndim = shape.len();
    let planes = planes(ndim, n)?;
    check(
        axis < ndim
            && shape.iter().all(|&s| s <= i32::MAX as usize)
            && is_vec(fin, DType::Int32, planes)
            && is_vec(fout, DType::Int32, planes)
            && is_vec(g, DType::Int32, n),
        "edt_pass",
    )?;
    let geom_a = geom(shape, n)?;
    if n == 0 {
        return Ok(());
    }
    let lines = n / shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let k = TypedKernel::<EdtPass>::cached("cuprum_edt_pass", [], program_request)?;
    let args = EdtPass {
        fin: input(fin),
        fout: output(fout),
        g: output(g),
        n: n as i64,
        geom: input(&geom_a),
        ndim: ndim as i32,
        d: axis as i32,
        lines: lines as i64,
        inner: inner as i64,
        sampling: sampling_arg(sampling, ndim)?,
    };
    let blocks = grid_of(fout, lines, LINE_THREADS)?;
    let cfg = LaunchConfig::new((blocks, 1, 1), (LINE_THREADS, 1, 1));
    k.launch(&cfg, &fout.stream(), &args)?;
    Ok(())
}

/// The longest line `cuprum_edt_exact` takes: its weights and features,
/// two int32 a position, in the 48 KiB of shared memory a block gets
/// without opting in.
pub(crate) const EXACT_MAX_LEN: usize = 48 * 1024 / 8;

/// Whether the exact path's arithmetic holds for `shape`: every squared
/// distance between two elements, the sum of `(len - 1)^2` over the axes,
/// fits in an int32 (`cuprum_edt_exact`'s sums; SciPy's double arithmetic
/// is then exact too).
pub(crate) fn exact_fits(shape: &[usize]) -> bool {
    shape
        .iter()
        .try_fold(0u64, |acc, &l| {
            let l = l.saturating_sub(1) as u64;
            acc.checked_add(l.checked_mul(l)?)
        })
        .is_some_and(|s| s <= i32::MAX as u64)
}

/// The exact path's pass along axis 0 from `mask` (bool, C-contiguous, of
/// `shape`, which [`exact_fits`]): the features into `ft` (int32,
/// `ndim * n`) when given, the distances into `dist` (float64, `n`; only
/// for 1-D input, whose only pass this is) when given.
pub(crate) fn edt_first(
    mask: &Array,
    shape: &[usize],
    ft: Option<&Array>,
    dist: Option<&Array>,
) -> Result<()> {
    let n = mask.size();
    let ndim = shape.len();
    let planes = planes(ndim, n)?;
    check(
        exact_fits(shape)
            && is_vec(mask, DType::Bool, n)
            && ft.is_none_or(|f| is_vec(f, DType::Int32, planes))
            && dist.is_none_or(|o| ndim == 1 && is_vec(o, DType::Float64, n)),
        "edt_first",
    )?;
    let geom_a = geom(shape, n)?;
    if n == 0 {
        return Ok(());
    }
    let k = TypedKernel::<EdtFirst>::cached("cuprum_edt_first", [], program_request)?;
    let args = EdtFirst {
        mask: input(mask),
        ft: ft.map_or(Out::NULL, output),
        dist: dist.map_or(Out::NULL, output),
        n: n as i64,
        geom: input(&geom_a),
        ndim: ndim as i32,
    };
    // 32 columns a block, by 32 chunks of rows.
    let columns = n / shape[0];
    let blocks = columns.div_ceil(32).clamp(1, 65_535) as u32;
    let cfg = LaunchConfig::new((blocks, 1, 1), (32, 32, 1));
    k.launch(&cfg, &mask.stream(), &args)?;
    Ok(())
}

/// The exact path's pass along `axis >= 1`: from `fin` (int32, `ndim * n`)
/// the features into `fout` when given, the distances into `dist`
/// (float64, `n`; the last pass) when given. `shape` [`exact_fits`] and
/// its `axis` is at most [`EXACT_MAX_LEN`] long.
pub(crate) fn edt_exact(
    fin: &Array,
    fout: Option<&Array>,
    dist: Option<&Array>,
    shape: &[usize],
    axis: usize,
) -> Result<()> {
    let n: usize = shape.iter().product();
    let ndim = shape.len();
    let planes = planes(ndim, n)?;
    check(
        (1..ndim).contains(&axis)
            && shape[axis] <= EXACT_MAX_LEN
            && exact_fits(shape)
            && is_vec(fin, DType::Int32, planes)
            && fout.is_none_or(|f| is_vec(f, DType::Int32, planes))
            && dist.is_none_or(|o| is_vec(o, DType::Float64, n)),
        "edt_exact",
    )?;
    let geom_a = geom(shape, n)?;
    if n == 0 {
        return Ok(());
    }
    let len = shape[axis];
    let lines = n / len;
    let inner: usize = shape[axis + 1..].iter().product();
    let k = TypedKernel::<EdtExact>::cached("cuprum_edt_exact", [], program_request)?;
    let args = EdtExact {
        fin: input(fin),
        fout: fout.map_or(Out::NULL, output),
        dist: dist.map_or(Out::NULL, output),
        n: n as i64,
        geom: input(&geom_a),
        ndim: ndim as i32,
        d: axis as i32,
        lines: lines as i64,
        inner: inner as i64,
    };
    // One warp a line; its weights and features in shared memory.
    let blocks = lines.clamp(1, 65_535) as u32;
    let cfg = LaunchConfig::new((blocks, 1, 1), (32, 1, 1)).with_shared_mem((len * 8) as u32);
    k.launch(&cfg, &fin.stream(), &args)?;
    Ok(())
}

/// The float64 distances (of `shape`) to the features `ft` (int32,
/// `ndim * n`).
pub(crate) fn edt_distances(
    ft: &Array,
    shape: &[usize],
    sampling: Option<&Array>,
) -> Result<Array> {
    let n: usize = shape.iter().product();
    let ndim = shape.len();
    check(
        ndim.checked_mul(n)
            .is_some_and(|p| is_vec(ft, DType::Int32, p)),
        "edt_distances",
    )?;
    let geom_a = geom(shape, n)?;
    let out = Array::empty(shape, DType::Float64)?;
    if n == 0 {
        return Ok(out);
    }
    let k = TypedKernel::<EdtDistances>::cached("cuprum_edt_distances", [], program_request)?;
    let args = EdtDistances {
        ft: input(ft),
        n: n as i64,
        geom: input(&geom_a),
        ndim: ndim as i32,
        sampling: sampling_arg(sampling, ndim)?,
        out: output(&out),
    };
    k.launch(&config(grid(&out, n)?), &out.stream(), &args)?;
    Ok(out)
}

/// `dist` (int32) and, when given, `f` (int64) before the scans, from
/// `mask` (bool); all C-contiguous of `n` elements.
pub(crate) fn cdt_init(mask: &Array, dist: &Array, f: Option<&Array>) -> Result<()> {
    let n = mask.size();
    check(
        is_vec(mask, DType::Bool, n)
            && is_vec(dist, DType::Int32, n)
            && f.is_none_or(|f| is_vec(f, DType::Int64, n)),
        "cdt_init",
    )?;
    if n == 0 {
        return Ok(());
    }
    let k = TypedKernel::<CdtInit>::cached("cuprum_cdt_init", [], program_request)?;
    let args = CdtInit {
        input: input(mask),
        n: n as i64,
        dist: output(dist),
        f: f.map_or(gpu_runtime::signature::Out::NULL, output),
    };
    k.launch(&config(grid(dist, n)?), &dist.stream(), &args)?;
    Ok(())
}

/// One chamfer scan's state: where it starts (`init`, none for the
/// forward scan) and what it relaxes in place.
pub(crate) struct Scan<'a> {
    /// The scan's start (the forward scan's result, for the backward one).
    pub init: Option<(&'a Array, Option<&'a Array>)>,
    /// The distances (int32) and features (int64, or none) it updates.
    pub dist: &'a Array,
    /// The features it updates, with `dist`.
    pub f: Option<&'a Array>,
    /// The shape of the image.
    pub shape: &'a [usize],
    /// The neighbours: `shape.len()` components each, in -1..=1.
    pub offsets: &'a [Vec<i64>],
    /// +1 for the forward scan (`x + o`), -1 for the backward (`x - o`).
    pub sign: i32,
}

impl Scan<'_> {
    /// Sweeps until a sweep changes nothing: SciPy's scan's values.
    pub(crate) fn run(&self) -> Result<()> {
        let n: usize = self.shape.iter().product();
        let ndim = self.shape.len();
        let init_ok = match self.init {
            None => true,
            Some((d, f)) => {
                is_vec(d, DType::Int32, n)
                    && match (f, self.f) {
                        (Some(f), Some(_)) => is_vec(f, DType::Int64, n),
                        (None, None) => true,
                        _ => false,
                    }
            }
        };
        check(
            init_ok
                && is_vec(self.dist, DType::Int32, n)
                && self.f.is_none_or(|f| is_vec(f, DType::Int64, n))
                && (self.sign == 1 || self.sign == -1)
                && self.offsets.len() <= i32::MAX as usize
                && self
                    .offsets
                    .iter()
                    .all(|o| o.len() == ndim && o.iter().all(|c| (-1..=1).contains(c))),
            "cdt scan",
        )?;
        let geom_a = geom(self.shape, n)?;
        if n == 0 || self.offsets.is_empty() {
            return Ok(());
        }
        let strides = crate::measurements::kernels::c_strides(self.shape);
        let lin: Vec<i64> = self
            .offsets
            .iter()
            .map(|o| o.iter().zip(&strides).map(|(c, s)| c * s).sum())
            .collect();
        let flat: Vec<i64> = self.offsets.concat();
        let offs = Array::from_slice(&flat, &[flat.len()])?;
        let lin_a = Array::from_slice(&lin, &[lin.len()])?;
        let k = TypedKernel::<CdtSweep>::cached("cuprum_cdt_sweep", [], program_request)?;
        let cfg = config(grid(self.dist, n)?);
        let stream = self.dist.stream();
        // Each sweep settles at least one more step of every path, so a
        // scan ends within (longest path + 2) sweeps, twice over with
        // features (distances first, then their ties): past that, a bug.
        let cap = n.saturating_mul(2).saturating_add(8);
        let mut done = 0usize;
        let mut batch = 1usize;
        loop {
            // One flag a sweep, read once a batch: the batch ends the scan
            // when its last sweep changed nothing.
            let flags = Array::zeros([batch], DType::Int32)?;
            for slot in 0..batch {
                let args = CdtSweep {
                    init_d: self.init.map_or(In::NULL, |(d, _)| input(d)),
                    init_f: self.init.and_then(|(_, f)| f).map_or(In::NULL, input),
                    dist: output(self.dist),
                    f: self.f.map_or(gpu_runtime::signature::Out::NULL, output),
                    n: n as i64,
                    geom: input(&geom_a),
                    ndim: ndim as i32,
                    offs: input(&offs),
                    lin: input(&lin_a),
                    noffs: self.offsets.len() as i32,
                    sign: self.sign,
                    changed: output(&flags),
                    slot: slot as i32,
                };
                k.launch(&cfg, &stream, &args)?;
                done += 1;
            }
            let changed = flags.to_vec::<i32>()?;
            if changed.last() == Some(&0) {
                return Ok(());
            }
            if done > cap {
                return Err(Error::NumpyRuntime(
                    "distance_transform_cdt: the chamfer scan did not settle".into(),
                ));
            }
            batch = (batch * 2).min(32);
        }
    }
}

/// The coordinate planes (int32, `ndim * n`) of the linear indices `f`
/// (int64, `n`, each in `0..n`).
pub(crate) fn cdt_indices(f: &Array, shape: &[usize]) -> Result<Array> {
    let n: usize = shape.iter().product();
    let ndim = shape.len();
    check(
        is_vec(f, DType::Int64, n) && shape.iter().all(|&s| s <= i32::MAX as usize),
        "cdt_indices",
    )?;
    let planes = ndim
        .checked_mul(n)
        .ok_or_else(|| Error::Value("distance_transform_cdt: array too large".into()))?;
    let geom_a = geom(shape, n)?;
    let out = Array::empty([planes], DType::Int32)?;
    if n == 0 {
        return Ok(out);
    }
    let k = TypedKernel::<CdtIndices>::cached("cuprum_cdt_indices", [], program_request)?;
    let args = CdtIndices {
        f: input(f),
        n: n as i64,
        geom: input(&geom_a),
        ndim: ndim as i32,
        out: output(&out),
    };
    k.launch(&config(grid(&out, n)?), &out.stream(), &args)?;
    Ok(out)
}
