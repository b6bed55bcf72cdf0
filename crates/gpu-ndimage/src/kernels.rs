//! The crate's CUDA kernels (`kernels/filters.cu`): one NVRTC program for
//! every dtype, compiled on first use and cached by the runtime.
//!
//! - `window1d` (every input dtype x every output dtype): the 1-D filters
//!   along one axis (correlation, uniform, minimum, maximum);
//! - `windownd` (every input dtype, into the same dtype or float64): the
//!   n-D filters over a footprint (correlation, minimum, maximum, rank).
//!
//! The launchers here take C-contiguous arrays only and check every size
//! the kernels index with; `raw.rs` vouches for the launches.

use gpu_array::kernels::{input, output};
use gpu_array::{Array, DType, Error, Result};
use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::{KernelSignature, LaunchConfig, TypedKernel};

pub(crate) const SOURCE: &str = include_str!("kernels/filters.cu");

/// Threads per block.
const THREADS: u32 = 256;

/// The most outputs a thread computes down its line (`window1d`, along a
/// filtered axis that is not the last) or column (`windownd`, along axis
/// 0): the kernels' `CUPRUM_NDIMAGE_MARCH`.
const MARCH: usize = 16;

/// Lines narrower than a warp do not march: their loads would not
/// coalesce anyway, and L1 holds little of use.
const MARCH_MIN_INNER: usize = 32;

/// Threads a multiprocessor keeps resident (Hopper's 2048); a march may
/// not leave fewer work items than these times the multiprocessors.
const RESIDENT_THREADS: usize = 2048;

/// The dtypes the filters take and write: SciPy's (`ni_support`), less
/// float16 and complex (SciPy filters complex data through its real parts,
/// which the caller does here).
pub(crate) const DTYPES: [DType; 11] = [
    DType::Bool,
    DType::Int8,
    DType::UInt8,
    DType::Int16,
    DType::UInt16,
    DType::Int32,
    DType::UInt32,
    DType::Int64,
    DType::UInt64,
    DType::Float32,
    DType::Float64,
];

/// The most dimensions `windownd` indexes (`CUPRUM_NDIMAGE_MAXDIM`).
pub(crate) const MAXDIM: usize = 16;

/// The largest footprint of the rank filters (`windownd`'s local buffer
/// of its larger instantiation; 25 x 25 fits).
pub(crate) const RANK_CAP: usize = 640;

/// The small instantiation's buffer: footprints up to this many elements
/// keep their values in registers.
const RANK_SMALL: usize = 32;

gpu_runtime::kernel_signature! {
    /// `cuprum_ndimage_window1d_{in}_{out}`: a 1-D filter along one axis.
    pub(crate) struct Window1d[TI, TO] {
        input: In<TI>,
        w: In<f64>,
        size: i64,
        outer: i64,
        n: i64,
        inner: i64,
        origin: i64,
        op: i32,
        mode: i32,
        cval: f64,
        march: i32,
        out: Out<TO>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_ndimage_windownd_{in}_{out}_{cap}`: an n-D filter over a
    /// footprint (also `generic_filter`'s kernels, float64 out).
    pub(crate) struct WindowNd[TI, TO] {
        input: In<TI>,
        geom: In<i64>,
        ndim: i32,
        taps: In<i64>,
        w: In<f64>,
        ntaps: i32,
        op: i32,
        rank: i32,
        mode: i32,
        cval: f64,
        total: i64,
        march: i32,
        out: Out<TO>,
    }
}

/// What `window1d` computes (its `op`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op1d {
    /// Correlation with the weights, SciPy's general order of terms.
    Correlate,
    /// Correlation with symmetric weights (odd length), SciPy's order.
    Symmetric,
    /// Correlation with antisymmetric weights (odd length), SciPy's order.
    Antisymmetric,
    /// The window's mean.
    Mean,
    /// The window's minimum.
    Min,
    /// The window's maximum.
    Max,
}

impl Op1d {
    pub(crate) fn code(self) -> i32 {
        match self {
            Op1d::Correlate => 0,
            Op1d::Symmetric => 1,
            Op1d::Antisymmetric => 2,
            Op1d::Mean => 3,
            Op1d::Min => 4,
            Op1d::Max => 5,
        }
    }

    pub(crate) fn weighted(self) -> bool {
        matches!(
            self,
            Op1d::Correlate | Op1d::Symmetric | Op1d::Antisymmetric
        )
    }
}

/// What `windownd` computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OpNd {
    /// Correlation with the taps' weights, in tap order.
    Correlate,
    /// The footprint's minimum.
    Min,
    /// The footprint's maximum.
    Max,
    /// The value of this rank (0-based, ascending).
    Rank(usize),
}

fn window1d_name(ti: DType, to: DType) -> String {
    format!("cuprum_ndimage_window1d_{}_{}", ti.name(), to.name())
}

fn windownd_name(ti: DType, to: DType, cap: usize) -> String {
    format!("cuprum_ndimage_windownd_{}_{}_{cap}", ti.name(), to.name())
}

/// The output dtypes `windownd` writes for input `ti`: its own (the
/// filters' default output) and float64 (which the host casts to any
/// other).
fn windownd_outputs(ti: DType) -> impl Iterator<Item = DType> {
    let f64_too = (ti != DType::Float64).then_some(DType::Float64);
    std::iter::once(ti).chain(f64_too)
}

/// The one NVRTC program of the crate's kernels, every dtype at once.
pub(crate) fn program_request() -> CompileRequest {
    let mut src = String::from(crate::BOUNDARY_CUH);
    src += SOURCE;
    for ti in DTYPES {
        for to in DTYPES {
            let name = window1d_name(ti, to);
            src += &Window1d::prototype(&name, [ti.c_type(), to.c_type()]);
            src += &format!(
                "CUPRUM_NDIMAGE_WINDOW1D({name}, {}, {})\n",
                ti.c_type(),
                to.c_type()
            );
        }
        for to in windownd_outputs(ti) {
            for cap in [RANK_SMALL, RANK_CAP] {
                let name = windownd_name(ti, to, cap);
                let types = [ti.c_type(), to.c_type()];
                src += &WindowNd::prototype(&name, types);
                src += &format!(
                    "CUPRUM_NDIMAGE_WINDOWND({name}, {}, {}, {cap})\n",
                    types[0], types[1]
                );
            }
        }
    }
    gpu_array::kernels::request(src)
}

pub(crate) fn check_dtype(dt: DType) -> Result<()> {
    if DTYPES.contains(&dt) {
        Ok(())
    } else {
        // SciPy's RuntimeError, in its words.
        Err(Error::NumpyRuntime(format!(
            "array type dtype('{}') not supported",
            dt.name()
        )))
    }
}

/// The multiprocessors of `out`'s device.
pub(crate) fn multiprocessors(out: &Array) -> Result<usize> {
    let sms = out.stream().device().properties()?.multiprocessor_count;
    Ok(usize::try_from(sms).unwrap_or(1).max(1))
}

/// Blocks for `n` threads' work: enough to cover it, at most 32 a
/// multiprocessor (the kernels loop over the rest).
fn grid(sms: usize, n: usize) -> u32 {
    let blocks = (n as u64)
        .div_ceil(u64::from(THREADS))
        .clamp(1, sms as u64 * 32);
    u32::try_from(blocks).unwrap_or(u32::MAX)
}

/// The run of outputs a thread takes down lines of length `n` that are
/// `inner` wide (`total` outputs in all), and the kernel's work items
/// (runs): the longest run, at most [`MARCH`], that still leaves every
/// resident thread of `sms` multiprocessors an item; 1 for narrow lines.
fn march(total: usize, n: usize, inner: usize, sms: usize) -> (usize, usize) {
    let threads = sms.saturating_mul(RESIDENT_THREADS).max(1);
    let mut len = 1;
    if inner >= MARCH_MIN_INNER {
        while len < MARCH && total / (2 * len) >= threads {
            len *= 2;
        }
    }
    (len, (total / n.max(1)) * n.div_ceil(len))
}

/// A 1-D filter of `input` (C-contiguous) along `axis` into `out` (a
/// C-contiguous array of the same shape; any dtype of [`DTYPES`]).
/// `weights` (float64, C-contiguous, `size` of them) for the weighted ops;
/// `origin` already checked against `size`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn window1d(
    input_: &Array,
    out: &Array,
    axis: usize,
    size: usize,
    weights: Option<&Array>,
    op: Op1d,
    origin: i64,
    mode: crate::Mode,
    cval: f64,
) -> Result<()> {
    let (ti, to) = (input_.dtype(), out.dtype());
    check_dtype(ti)?;
    check_dtype(to)?;
    let shape = input_.shape();
    let fits = input_.is_c_contiguous()
        && out.is_c_contiguous()
        && out.shape() == shape
        && axis < shape.len()
        && size >= 1
        && (-(size as i64 / 2)..=(size as i64 - 1) / 2).contains(&origin);
    if !fits {
        return Err(Error::Value(
            "ndimage window1d: arrays or window do not fit".into(),
        ));
    }
    // The kernel reads w[0..size) for the weighted ops only.
    let w_arg = match (op.weighted(), weights) {
        (true, Some(w)) => {
            if w.dtype() != DType::Float64 || !w.is_c_contiguous() || w.size() != size {
                return Err(Error::Value("ndimage window1d: weights do not fit".into()));
            }
            input(w)
        }
        (true, None) => {
            return Err(Error::Value("ndimage window1d: no weights".into()));
        }
        // The other ops never read `w`: a null pointer of any element type.
        (false, _) => gpu_runtime::signature::In::NULL,
    };
    let total = input_.size();
    if total == 0 {
        return Ok(());
    }
    let n = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let outer = total / (n * inner);
    let lines = (outer, n, inner);
    if crate::tiled::window1d(input_, out, lines, size, w_arg, op, origin, mode, cval)? {
        return Ok(());
    }
    let sms = multiprocessors(out)?;
    let (len, items) = march(total, n, inner, sms);
    let name = window1d_name(ti, to);
    let k = TypedKernel::<Window1d>::cached(&name, [ti.c_type(), to.c_type()], program_request)?;
    let args = Window1d {
        input: input(input_),
        w: w_arg,
        size: size as i64,
        outer: outer as i64,
        n: n as i64,
        inner: inner as i64,
        origin,
        op: op.code(),
        mode: mode.code(),
        cval,
        march: len as i32,
        out: output(out),
    };
    let blocks = grid(sms, items);
    k.launch(
        &LaunchConfig::new((blocks, 1, 1), (THREADS, 1, 1)),
        &out.stream(),
        &args,
    )?;
    Ok(())
}

/// An n-D filter of `input` (C-contiguous, at most [`MAXDIM`] dimensions)
/// over `taps` (per tap, `ndim` offsets from the output's index, C order)
/// with `weights` (one a tap; read for correlation only), into `out_dt`
/// when it is the input's dtype or float64, else into float64 (the
/// caller casts).
pub(crate) fn windownd(
    input_: &Array,
    taps: &[i64],
    weights: &[f64],
    op: OpNd,
    (mode, cval): (crate::Mode, f64),
    out_dt: DType,
) -> Result<Array> {
    let ti = input_.dtype();
    check_dtype(ti)?;
    let ntaps = weights.len();
    let rank = match op {
        OpNd::Rank(r) => {
            if ntaps > RANK_CAP {
                return Err(Error::Unsupported(format!(
                    "rank filters over footprints of more than {RANK_CAP} elements \
                     (this one has {ntaps})"
                )));
            }
            if r >= ntaps {
                return Err(Error::NumpyRuntime(
                    "rank not within filter footprint size".into(),
                ));
            }
            r
        }
        _ => 0,
    };
    let cap = if ntaps <= RANK_SMALL {
        RANK_SMALL
    } else {
        RANK_CAP
    };
    let to = if out_dt == ti { ti } else { DType::Float64 };
    if op == OpNd::Rank(4)
        && input_.size() > 0
        && input_.is_c_contiguous()
        && let Some(out) = crate::tiled::median3x3(input_, taps, (mode, cval), to)?
    {
        return Ok(out);
    }
    let name = windownd_name(ti, to, cap);
    let k = TypedKernel::<WindowNd>::cached(&name, [ti.c_type(), to.c_type()], program_request)?;
    let (op_code, rank) = match op {
        OpNd::Correlate => (0, 0),
        OpNd::Min => (4, 0),
        OpNd::Max => (5, 0),
        OpNd::Rank(_) => (6, rank as i32),
    };
    let w = Array::from_slice(weights, &[ntaps.max(1)])
        .or_else(|_| Array::zeros([1], DType::Float64))?;
    launch_windownd(
        &k,
        input_,
        taps,
        ntaps,
        Some(&w),
        (op_code, rank),
        (mode, cval),
        to,
    )
}

/// Launches a `windownd`-shaped kernel (the filters' or a
/// `generic_filter`'s) over `input_` (C-contiguous, 1 to [`MAXDIM`]
/// dimensions) with `ntaps` taps of `ndim` offsets each, checked, into a
/// new array of dtype `to` (the kernel's output type).
#[allow(clippy::too_many_arguments)]
fn launch_windownd(
    k: &TypedKernel<WindowNd>,
    input_: &Array,
    taps: &[i64],
    ntaps: usize,
    weights: Option<&Array>,
    (op, rank): (i32, i32),
    (mode, cval): (crate::Mode, f64),
    to: DType,
) -> Result<Array> {
    let ndim = input_.ndim();
    if !input_.is_c_contiguous() || ndim == 0 || ndim > MAXDIM {
        return Err(Error::Unsupported(format!(
            "n-D filters of arrays of {ndim} dimensions (1 to {MAXDIM})"
        )));
    }
    if ntaps == 0 || ntaps > i32::MAX as usize || Some(taps.len()) != ntaps.checked_mul(ndim) {
        return Err(Error::Value("ndimage windownd: taps do not fit".into()));
    }
    let out = Array::empty(input_.shape(), to)?;
    let total = input_.size();
    if total == 0 {
        return Ok(out);
    }
    let (geom, taps) = footprint_geometry(input_.shape(), taps, ntaps)?;
    // Runs down axis 0 (rows `total / shape[0]` wide; a 1-D array's rows
    // are single elements, which never march).
    let sms = multiprocessors(&out)?;
    let (len, items) = march(total, input_.shape()[0], total / input_.shape()[0], sms);
    let geom = Array::from_slice(&geom, &[geom.len()])?;
    let taps_a = Array::from_slice(&taps, &[taps.len()])?;
    let args = WindowNd {
        input: input(input_),
        geom: input(&geom),
        ndim: ndim as i32,
        taps: input(&taps_a),
        w: weights.map_or(gpu_runtime::signature::In::NULL, input),
        ntaps: ntaps as i32,
        op,
        rank,
        mode: mode.code(),
        cval,
        total: total as i64,
        march: len as i32,
        out: output(&out),
    };
    let blocks = grid(sms, items);
    k.launch(
        &LaunchConfig::new((blocks, 1, 1), (THREADS, 1, 1)),
        &out.stream(),
        &args,
    )?;
    Ok(out)
}

/// What the n-D kernels read besides the taps' offsets: `geom` (the
/// shape, then per axis the taps' least and greatest offset) and the taps
/// (`ntaps * ndim` offsets, then each tap's offset in elements of the
/// C-contiguous input), with which an output whose whole footprint lies
/// inside the input reads its taps without the boundary map.
fn footprint_geometry(shape: &[usize], taps: &[i64], ntaps: usize) -> Result<(Vec<i64>, Vec<i64>)> {
    let ndim = shape.len();
    let too_far = || Error::Value("ndimage windownd: taps do not fit".into());
    let mut geom = vec![0i64; 3 * ndim];
    let mut strides = vec![1i64; ndim];
    for d in (0..ndim).rev() {
        geom[d] = i64::try_from(shape[d]).map_err(|_| too_far())?;
        if d + 1 < ndim {
            strides[d] = strides[d + 1]
                .checked_mul(geom[d + 1])
                .ok_or_else(too_far)?;
        }
    }
    let mut out = taps.to_vec();
    out.reserve(ntaps);
    for d in 0..ndim {
        let offs = taps.iter().skip(d).step_by(ndim);
        geom[ndim + d] = offs.clone().copied().min().unwrap_or(0);
        geom[2 * ndim + d] = offs.copied().max().unwrap_or(0);
    }
    for tap in taps.chunks_exact(ndim) {
        let lin = tap.iter().zip(&strides).try_fold(0i64, |acc, (&o, &s)| {
            o.checked_mul(s).and_then(|v| acc.checked_add(v))
        });
        // A tap whose offset overflows never lies inside the input: the
        // kernel reads it through the boundary map, never this value.
        out.push(lin.unwrap_or(0));
    }
    Ok((geom, out))
}

/// The largest window of `generic_filter` (its kernel's local buffer).
pub(crate) const GENERIC_CAP: usize = 1024;

gpu_runtime::kernel_signature! {
    /// `cuprum_ndimage_generic1d_{hash}`: the user's line function over
    /// each line of a (lines, n) float64 array.
    pub(crate) struct Generic1d {
        input: In<f64>,
        lines: i64,
        n: i64,
        size: i64,
        left: i64,
        mode: i32,
        cval: f64,
        ext: Out<f64>,
        out: Out<f64>,
    }
}

/// A program of the user's `function` (with `define` naming it for the
/// kernels) and the instance `instance`.
fn user_request(define: &str, function: &str, instance: &str) -> CompileRequest {
    let mut src = String::from(crate::BOUNDARY_CUH);
    src += define;
    src += "\n";
    src += function;
    src += "\n";
    src += SOURCE;
    src += instance;
    gpu_array::kernels::request(src)
}

/// The smallest local buffer of `generic_nd` that holds `ntaps` values
/// (powers of two from 32, so that a few programs serve every window).
fn generic_cap(ntaps: usize) -> usize {
    ntaps.next_power_of_two().max(RANK_SMALL)
}

/// The program of `generic_filter`'s kernel for `function` over `ti`
/// with a buffer of `cap` values, and its kernel's name.
pub(crate) fn generic_nd_request(
    function: &str,
    ti: DType,
    cap: usize,
) -> (String, CompileRequest) {
    let name = format!(
        "cuprum_ndimage_generic_{:016x}_{}_{cap}",
        crate::interp::fnv1a(function),
        ti.name()
    );
    let mut instance = WindowNd::prototype(&name, [ti.c_type(), "double"]);
    instance += &format!("CUPRUM_NDIMAGE_GENERIC({name}, {}, {cap})\n", ti.c_type());
    let define = "#define CUPRUM_NDIMAGE_USER_FUNCTION(B, N) function(B, N)";
    let req = user_request(define, function, &instance);
    (name, req)
}

/// The user's `function` of the footprint's values (taps as
/// [`windownd`]'s) at every element of `input_` (C-contiguous), float64
/// out.
pub(crate) fn generic_nd(
    input_: &Array,
    taps: &[i64],
    ntaps: usize,
    function: &str,
    mode: crate::Mode,
    cval: f64,
) -> Result<Array> {
    let ti = input_.dtype();
    check_dtype(ti)?;
    if ntaps > GENERIC_CAP {
        return Err(Error::Unsupported(format!(
            "generic_filter over footprints of more than {GENERIC_CAP} elements \
             (this one has {ntaps})"
        )));
    }
    let cap = generic_cap(ntaps);
    let (name, req) = generic_nd_request(function, ti, cap);
    let k = TypedKernel::<WindowNd>::cached(&name, [ti.c_type(), "double"], || req)?;
    launch_windownd(
        &k,
        input_,
        taps,
        ntaps,
        None,
        (0, 0),
        (mode, cval),
        DType::Float64,
    )
}

/// The program of `generic_filter1d`'s kernel for `function`, and its
/// kernel's name.
pub(crate) fn generic_1d_request(function: &str) -> (String, CompileRequest) {
    let name = format!(
        "cuprum_ndimage_generic1d_{:016x}",
        crate::interp::fnv1a(function)
    );
    let mut instance = Generic1d::prototype(&name, []);
    instance += &format!("CUPRUM_NDIMAGE_GENERIC1D({name})\n");
    let define = "#define CUPRUM_NDIMAGE_USER_LINE_FUNCTION(I, IN, O, ON) function(I, IN, O, ON)";
    (name, user_request(define, function, &instance))
}

/// The user's line `function` over each row of `rows` (a C-contiguous
/// float64 (lines, n) array), each extended by `left` values before and
/// `size - 1 - left` after; the (lines, n) float64 result.
pub(crate) fn generic_1d(
    rows: &Array,
    size: usize,
    left: usize,
    function: &str,
    mode: crate::Mode,
    cval: f64,
) -> Result<Array> {
    let fits = rows.dtype() == DType::Float64
        && rows.is_c_contiguous()
        && rows.ndim() == 2
        && size >= 1
        && left < size;
    if !fits {
        return Err(Error::Value(
            "ndimage generic_filter1d: rows do not fit".into(),
        ));
    }
    let (lines, n) = (rows.shape()[0], rows.shape()[1]);
    let out = Array::empty([lines, n], DType::Float64)?;
    if lines == 0 || n == 0 {
        return Ok(out);
    }
    let len = n
        .checked_add(size - 1)
        .and_then(|l| l.checked_mul(lines))
        .ok_or_else(|| Error::Overflow("generic_filter1d line buffers too large".into()))?;
    let ext = Array::empty([len], DType::Float64)?;
    let (name, req) = generic_1d_request(function);
    let k = TypedKernel::<Generic1d>::cached(&name, [], || req)?;
    let args = Generic1d {
        input: input(rows),
        lines: lines as i64,
        n: n as i64,
        size: size as i64,
        left: left as i64,
        mode: mode.code(),
        cval,
        ext: output(&ext),
        out: output(&out),
    };
    let blocks = grid(multiprocessors(&out)?, lines);
    k.launch(
        &LaunchConfig::new((blocks, 1, 1), (THREADS, 1, 1)),
        &out.stream(),
        &args,
    )?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{footprint_geometry, march};

    #[test]
    fn march_leaves_every_resident_thread_work() {
        // 132 multiprocessors (an H100 SXM) hold 270336 threads.
        let sms = 132;
        // A 4096^2 image down axis 0: runs of 16, 4096 x 256 items.
        assert_eq!(march(1 << 24, 4096, 4096, sms), (16, 4096 * 256));
        // 1024^2: 2^20 outputs leave runs of 2 (2^19 items >= 270336 but
        // 2^18 would not).
        assert_eq!(march(1 << 20, 1024, 1024, sms), (2, 1024 * 512));
        // Narrow lines and the last axis never march.
        assert_eq!(march(1 << 24, 1 << 19, 31, sms), (1, 1 << 24));
        assert_eq!(march(1 << 24, 1 << 24, 1, sms), (1, 1 << 24));
        // A length that the run does not divide: the last run is short.
        assert_eq!(march(100 * (1 << 20), 100, 1 << 20, 1), (16, 7 << 20));
    }

    #[test]
    fn footprint_geometry_gives_reach_and_linear_offsets() {
        // A 3x3 footprint's taps around the centre of a (4, 5) array, C
        // order, with an origin shifting axis 1 by one.
        let mut taps = Vec::new();
        for a in -1..=1i64 {
            for b in 0..=2i64 {
                taps.extend([a, b]);
            }
        }
        let (geom, out) = footprint_geometry(&[4, 5], &taps, 9).unwrap();
        assert_eq!(geom, vec![4, 5, -1, 0, 1, 2]);
        assert_eq!(&out[..18], &taps[..]);
        assert_eq!(&out[18..], &[-5, -4, -3, 0, 1, 2, 5, 6, 7]);
    }

    #[test]
    fn footprint_geometry_survives_offsets_that_overflow() {
        // An offset no array could reach: its linear offset is stored as 0
        // (the kernel never reads it: that tap is never inside).
        let taps = [i64::MAX / 2, 0, 0, 0];
        let (geom, out) = footprint_geometry(&[3, 1 << 20], &taps, 2).unwrap();
        assert_eq!(geom, vec![3, 1 << 20, 0, 0, i64::MAX / 2, 0]);
        assert_eq!(&out[4..], &[0, 0]);
    }
}
