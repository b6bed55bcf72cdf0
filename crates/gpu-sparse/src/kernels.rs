//! gpu-sparse's own CUDA kernels (`kernels/sparse.cu`), for what cuSPARSE
//! and gpu-array's operations do not do: the deterministic sum of runs of
//! duplicate entries, and sums, maxima and minima over the lines of an
//! index pointer (gpu-array has no segmented reduction). One NVRTC program
//! for every value dtype, compiled on first use and cached by the runtime.

use gpu_array::elementwise::{Bind, Elementwise};
use gpu_array::kernels::{input, output};
use gpu_array::{Array, DType, Error, Result};
use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::{KernelSignature, LaunchConfig, TypedKernel};

const SOURCE: &str = include_str!("kernels/sparse.cu");
const LSQR: &str = include_str!("kernels/lsqr.cu");
const GMRES: &str = include_str!("kernels/gmres.cu");
const MINRES: &str = include_str!("kernels/minres.cu");
const LSMR: &str = include_str!("kernels/lsmr.cu");

/// Threads per block.
const THREADS: u32 = 256;

/// The value dtypes the kernels are instantiated for: every dtype a
/// sparse matrix holds (`base::check_value_dtype`).
pub(crate) const VALUE_DTYPES: [DType; 13] = [
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
    DType::Complex64,
    DType::Complex128,
];

gpu_runtime::kernel_signature! {
    /// `cuprum_sparse_segment_sum_{dtype}`: `out[k]`, the sum of `v` over
    /// `starts[k]..starts[k + 1]` (the last run ends at `n`).
    pub(crate) struct SegmentSum[T] {
        v: In<T>,
        starts: In<i64>,
        nseg: i64,
        n: i64,
        out: Out<T>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sparse_lsqr_beta`: LSQR's state after `beta2 = |u|^2`.
    pub(crate) struct LsqrBeta {
        st: Out<f64>,
        beta2: In<f64>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sparse_lsqr_alpha`: LSQR's rotations, estimates and tests
    /// after `alpha2 = |v|^2` and `ww = |w|^2`.
    pub(crate) struct LsqrAlpha {
        st: Out<f64>,
        alpha2: In<f64>,
        ww: In<f64>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sparse_lsqr_settle`: clears the state's `live` slot once
    /// a test has stopped the iteration.
    pub(crate) struct LsqrSettle {
        st: Out<f64>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sparse_gmres_column`: GMRES's rotations and residual
    /// estimate after the Gram-Schmidt coefficients of column `col`.
    pub(crate) struct GmresColumn {
        st: Out<f64>,
        m: i64,
        col: i64,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sparse_gmres_solve`: the triangular solve of a cycle.
    pub(crate) struct GmresSolve {
        st: Out<f64>,
        m: i64,
    }
}

const GMRES_COLUMN: &str = "cuprum_sparse_gmres_column";
const GMRES_SOLVE: &str = "cuprum_sparse_gmres_solve";

/// Checks what the GMRES kernels rely on: a contiguous float64 state of
/// `gmres_state_len(m)` values, `m >= 1`.
fn check_gmres(state: &Array, m: usize) -> Result<()> {
    let ok = m >= 1
        && state.dtype() == DType::Float64
        && state.is_c_contiguous()
        && crate::linalg::gmres_state_len(m) == Some(state.size());
    if ok {
        Ok(())
    } else {
        Err(Error::Value("GMRES's state has the wrong layout".into()))
    }
}

/// GMRES's column step on `state` (restart `m`, column `col < m`).
pub(crate) fn gmres_column(state: &Array, m: usize, col: usize) -> Result<()> {
    check_gmres(state, m)?;
    if col >= m {
        return Err(Error::Value(format!(
            "GMRES column {col} of a restart of {m}"
        )));
    }
    let k = TypedKernel::<GmresColumn>::cached(GMRES_COLUMN, [], program_request)?;
    let args = GmresColumn {
        st: output(state),
        m: m as i64,
        col: col as i64,
    };
    k.launch(&single(), &state.stream(), &args)?;
    Ok(())
}

/// GMRES's triangular solve on `state` (restart `m`).
pub(crate) fn gmres_solve(state: &Array, m: usize) -> Result<()> {
    check_gmres(state, m)?;
    let k = TypedKernel::<GmresSolve>::cached(GMRES_SOLVE, [], program_request)?;
    let args = GmresSolve {
        st: output(state),
        m: m as i64,
    };
    k.launch(&single(), &state.stream(), &args)?;
    Ok(())
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sparse_minres_beta`: MINRES's rotations and estimates
    /// after `beta2 = r2^H M r2`.
    pub(crate) struct MinresBeta {
        st: Out<f64>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sparse_minres_test`: MINRES's stopping tests after
    /// `ynorm2 = |x|^2`.
    pub(crate) struct MinresTest {
        st: Out<f64>,
    }
}

const MINRES_BETA: &str = "cuprum_sparse_minres_beta";
const MINRES_TEST: &str = "cuprum_sparse_minres_test";

/// Checks MINRES's state: contiguous float64, `MINRES_STATE_LEN` values.
fn check_minres(state: &Array) -> Result<()> {
    if state.dtype() == DType::Float64
        && state.is_c_contiguous()
        && state.size() == crate::linalg::MINRES_STATE_LEN
    {
        Ok(())
    } else {
        Err(Error::Value("MINRES's state has the wrong layout".into()))
    }
}

/// MINRES's beta step on `state`.
pub(crate) fn minres_beta(state: &Array) -> Result<()> {
    check_minres(state)?;
    let k = TypedKernel::<MinresBeta>::cached(MINRES_BETA, [], program_request)?;
    k.launch(
        &single(),
        &state.stream(),
        &MinresBeta { st: output(state) },
    )?;
    Ok(())
}

/// MINRES's stopping tests on `state`.
pub(crate) fn minres_test(state: &Array) -> Result<()> {
    check_minres(state)?;
    let k = TypedKernel::<MinresTest>::cached(MINRES_TEST, [], program_request)?;
    k.launch(
        &single(),
        &state.stream(),
        &MinresTest { st: output(state) },
    )?;
    Ok(())
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sparse_lsmr_beta`: LSMR's state after `beta2 = |u|^2`.
    pub(crate) struct LsmrBeta {
        st: Out<f64>,
        beta2: In<f64>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sparse_lsmr_alpha`: LSMR's rotations and estimates after
    /// `alpha2 = |v|^2`.
    pub(crate) struct LsmrAlpha {
        st: Out<f64>,
        alpha2: In<f64>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sparse_lsmr_test`: LSMR's stopping tests after `xx = |x|^2`.
    pub(crate) struct LsmrTest {
        st: Out<f64>,
        xx: In<f64>,
    }
}

const LSMR_BETA: &str = "cuprum_sparse_lsmr_beta";
const LSMR_ALPHA: &str = "cuprum_sparse_lsmr_alpha";
const LSMR_TEST: &str = "cuprum_sparse_lsmr_test";

/// Checks what the LSMR kernels rely on: a contiguous float64 state of
/// `LSMR_STATE_LEN` values and a one-element float64 input.
fn check_lsmr(state: &Array, input: &Array) -> Result<()> {
    let ok = state.dtype() == DType::Float64
        && state.is_c_contiguous()
        && state.size() == crate::linalg::LSMR_STATE_LEN
        && input.dtype() == DType::Float64
        && input.size() == 1;
    if ok {
        Ok(())
    } else {
        Err(Error::Value(
            "LSMR's state or scalars have the wrong layout".into(),
        ))
    }
}

/// One LSMR step on `state` with its one scalar input.
pub(crate) fn lsmr_step(state: &Array, scalar: &Array, step: LsmrStep) -> Result<()> {
    check_lsmr(state, scalar)?;
    match step {
        LsmrStep::Beta => {
            let k = TypedKernel::<LsmrBeta>::cached(LSMR_BETA, [], program_request)?;
            let args = LsmrBeta {
                st: output(state),
                beta2: input(scalar),
            };
            k.launch(&single(), &state.stream(), &args)?;
        }
        LsmrStep::Alpha => {
            let k = TypedKernel::<LsmrAlpha>::cached(LSMR_ALPHA, [], program_request)?;
            let args = LsmrAlpha {
                st: output(state),
                alpha2: input(scalar),
            };
            k.launch(&single(), &state.stream(), &args)?;
        }
        LsmrStep::Test => {
            let k = TypedKernel::<LsmrTest>::cached(LSMR_TEST, [], program_request)?;
            let args = LsmrTest {
                st: output(state),
                xx: input(scalar),
            };
            k.launch(&single(), &state.stream(), &args)?;
        }
    }
    Ok(())
}

/// The three one-thread steps of an LSMR iteration (`kernels/lsmr.cu`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LsmrStep {
    /// After `beta2 = |u|^2`.
    Beta,
    /// After `alpha2 = |v|^2`.
    Alpha,
    /// After the vector updates, with `|x|^2`.
    Test,
}

const LSQR_BETA: &str = "cuprum_sparse_lsqr_beta";
const LSQR_ALPHA: &str = "cuprum_sparse_lsqr_alpha";
const LSQR_SETTLE: &str = "cuprum_sparse_lsqr_settle";

/// One thread, one block: the scalar steps of LSQR.
fn single() -> LaunchConfig {
    LaunchConfig::new((1, 1, 1), (1, 1, 1))
}

/// Checks what the LSQR kernels rely on: a contiguous float64 state of
/// `lsqr::slot::LEN` values and 0-d float64 inputs.
fn check_lsqr(state: &Array, inputs: &[&Array]) -> Result<()> {
    let ok = state.dtype() == DType::Float64
        && state.is_c_contiguous()
        && state.size() == crate::linalg::LSQR_STATE_LEN
        && inputs
            .iter()
            .all(|a| a.dtype() == DType::Float64 && a.size() == 1);
    if ok {
        Ok(())
    } else {
        Err(Error::Value(
            "LSQR's state or scalars have the wrong layout".into(),
        ))
    }
}

/// LSQR's beta step on `state`.
pub(crate) fn lsqr_beta(state: &Array, beta2: &Array) -> Result<()> {
    check_lsqr(state, &[beta2])?;
    let k = TypedKernel::<LsqrBeta>::cached(LSQR_BETA, [], program_request)?;
    let args = LsqrBeta {
        st: output(state),
        beta2: input(beta2),
    };
    k.launch(&single(), &state.stream(), &args)?;
    Ok(())
}

/// LSQR's alpha step on `state`.
pub(crate) fn lsqr_alpha(state: &Array, alpha2: &Array, ww: &Array) -> Result<()> {
    check_lsqr(state, &[alpha2, ww])?;
    let k = TypedKernel::<LsqrAlpha>::cached(LSQR_ALPHA, [], program_request)?;
    let args = LsqrAlpha {
        st: output(state),
        alpha2: input(alpha2),
        ww: input(ww),
    };
    k.launch(&single(), &state.stream(), &args)?;
    Ok(())
}

/// LSQR's settle step on `state`.
pub(crate) fn lsqr_settle(state: &Array) -> Result<()> {
    check_lsqr(state, &[])?;
    let k = TypedKernel::<LsqrSettle>::cached(LSQR_SETTLE, [], program_request)?;
    k.launch(
        &single(),
        &state.stream(),
        &LsqrSettle { st: output(state) },
    )?;
    Ok(())
}

fn segment_sum_name(dt: DType) -> String {
    format!("cuprum_sparse_segment_sum_{}", dt.name())
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sparse_line_{op}_{dtype}`: `out[r]`, the reduction of `v`
    /// over `indptr[r]..indptr[r + 1]` (zero for an empty line).
    pub(crate) struct LineReduce[T] {
        v: In<T>,
        indptr: In<i64>,
        nlines: i64,
        out: Out<T>,
    }
}

/// A reduction over the lines of an index pointer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineOp {
    /// The sum, in storage order.
    Sum,
    /// The largest value, NaN propagating.
    Max,
    /// The smallest value, NaN propagating.
    Min,
}

impl LineOp {
    const ALL: [LineOp; 3] = [LineOp::Sum, LineOp::Max, LineOp::Min];

    fn name(self) -> &'static str {
        match self {
            LineOp::Sum => "sum",
            LineOp::Max => "max",
            LineOp::Min => "min",
        }
    }

    fn functor(self) -> &'static str {
        match self {
            LineOp::Sum => "CuprumSparseSum",
            LineOp::Max => "CuprumSparseMax",
            LineOp::Min => "CuprumSparseMin",
        }
    }

    /// Whether the op is instantiated for `dt`: sums for every value
    /// dtype, maxima and minima for the ordered (real) ones.
    fn takes(self, dt: DType) -> bool {
        self == LineOp::Sum || !dt.is_complex()
    }
}

fn line_reduce_name(op: LineOp, dt: DType) -> String {
    format!("cuprum_sparse_line_{}_{}", op.name(), dt.name())
}

/// The one NVRTC program of the crate's kernels, every dtype at once.
pub(crate) fn program_request() -> CompileRequest {
    let mut src = SOURCE.to_string();
    for dt in VALUE_DTYPES {
        let name = segment_sum_name(dt);
        src += &SegmentSum::prototype(&name, [dt.c_type()]);
        src += &format!("CUPRUM_SPARSE_SEGMENT_SUM({name}, {})\n", dt.c_type());
        for op in LineOp::ALL.into_iter().filter(|op| op.takes(dt)) {
            let name = line_reduce_name(op, dt);
            src += &LineReduce::prototype(&name, [dt.c_type()]);
            src += &format!(
                "CUPRUM_SPARSE_LINE_REDUCE({name}, {}, {})\n",
                dt.c_type(),
                op.functor()
            );
        }
    }
    src += LSQR;
    src += &LsqrBeta::prototype(LSQR_BETA, []);
    src += &LsqrAlpha::prototype(LSQR_ALPHA, []);
    src += &LsqrSettle::prototype(LSQR_SETTLE, []);
    src += GMRES;
    src += &GmresColumn::prototype(GMRES_COLUMN, []);
    src += &GmresSolve::prototype(GMRES_SOLVE, []);
    src += MINRES;
    src += &MinresBeta::prototype(MINRES_BETA, []);
    src += &MinresTest::prototype(MINRES_TEST, []);
    src += LSMR;
    src += &LsmrBeta::prototype(LSMR_BETA, []);
    src += &LsmrAlpha::prototype(LSMR_ALPHA, []);
    src += &LsmrTest::prototype(LSMR_TEST, []);
    gpu_array::kernels::request(src)
}

/// The sums of `v` (1-D, contiguous) over the runs that begin at `starts`
/// (int64, increasing, the first 0, each below `v.size()`).
pub(crate) fn segment_sum(v: &Array, starts: &Array) -> Result<Array> {
    let dt = v.dtype();
    if !VALUE_DTYPES.contains(&dt) {
        return Err(Error::Unsupported(format!(
            "summing duplicate entries of dtype {dt}"
        )));
    }
    let v = crate::base::contiguous_as(v, dt)?;
    let starts = crate::base::contiguous_as(starts, DType::Int64)?;
    let nseg = starts.size();
    let out = Array::empty(nseg, dt)?;
    if nseg == 0 {
        return Ok(out);
    }
    let name = segment_sum_name(dt);
    let k = TypedKernel::<SegmentSum>::cached(&name, [dt.c_type()], program_request)?;
    let blocks = grid(&out, nseg)?;
    let args = SegmentSum {
        v: input(&v),
        starts: input(&starts),
        nseg: nseg as i64,
        n: v.size() as i64,
        out: output(&out),
    };
    k.launch(
        &LaunchConfig::new((blocks as u32, 1, 1), (THREADS, 1, 1)),
        &out.stream(),
        &args,
    )?;
    Ok(out)
}

/// Blocks for `n` threads' work: enough to cover it, at most 16 a
/// multiprocessor (the kernels loop over the rest).
fn grid(out: &Array, n: usize) -> Result<u64> {
    let sms = out
        .stream()
        .device()
        .properties()?
        .multiprocessor_count
        .max(1) as u64;
    Ok((n as u64).div_ceil(u64::from(THREADS)).clamp(1, sms * 16))
}

/// `op` of `v` (1-D) over each line of `indptr` (an index pointer into
/// `v`: non-decreasing, from 0 to at most `v.size()`), one value a line,
/// zero for an empty one, in `v`'s dtype.
///
/// # Errors
/// A dtype the op is not instantiated for (max and min of complex
/// values); allocation or launch failures.
pub(crate) fn line_reduce(v: &Array, indptr: &Array, op: LineOp) -> Result<Array> {
    let dt = v.dtype();
    if !VALUE_DTYPES.contains(&dt) || !op.takes(dt) {
        return Err(Error::Unsupported(format!(
            "the {} of sparse lines of dtype {dt}",
            op.name()
        )));
    }
    let nlines = indptr.size().saturating_sub(1);
    let out = Array::empty(nlines, dt)?;
    if nlines == 0 {
        return Ok(out);
    }
    let v = crate::base::contiguous_as(v, dt)?;
    let indptr = crate::base::contiguous_as(indptr, DType::Int64)?;
    let name = line_reduce_name(op, dt);
    let k = TypedKernel::<LineReduce>::cached(&name, [dt.c_type()], program_request)?;
    let blocks = grid(&out, nlines)?;
    let args = LineReduce {
        v: input(&v),
        indptr: input(&indptr),
        nlines: nlines as i64,
        out: output(&out),
    };
    k.launch(
        &LaunchConfig::new((blocks as u32, 1, 1), (THREADS, 1, 1)),
        &out.stream(),
        &args,
    )?;
    Ok(out)
}

/// The argmax (`max`) or argmin of each line of the canonical lines
/// (`v`, `indices`, `indptr`; lines of `len` positions) into `out`
/// (int64, one a line): SciPy's `_argminmax_axis` (`kernels/arg_line.cuh`).
pub(crate) fn arg_line_kernel<'a>(
    v: Bind<'a>,
    indices: Bind<'a>,
    indptr: Bind<'a>,
    out: Bind<'a>,
    len: i64,
    max: bool,
    explicit: bool,
) -> Elementwise<'a> {
    Elementwise::new("cuprum_sparse_arg_line")
        .raw("v", v)
        .raw("ix", indices)
        .raw("p", indptr)
        .scalar("len", DType::Int64, len)
        .scalar("amax", DType::Int32, i32::from(max))
        .scalar("expl", DType::Int32, i32::from(explicit))
        .output("y", out)
        .op("y = cuprum_sparse_arg::line(v, ix, p, (long long)i, len, amax, expl);")
        .preamble(include_str!("kernels/arg_line.cuh"))
}

/// [`arg_line_kernel`] run over every line of `indptr`.
pub(crate) fn arg_lines(
    v: &Array,
    indices: &Array,
    indptr: &Array,
    len: usize,
    max: bool,
    explicit: bool,
) -> Result<Array> {
    let nlines = indptr.size().saturating_sub(1);
    let out = Array::empty(nlines, DType::Int64)?;
    if nlines == 0 {
        return Ok(out);
    }
    // The 16-bit floats compare as float32 (the kernel's `<` and `!=`).
    let v = match v.dtype() {
        DType::Float16 | DType::BFloat16 => v.astype(DType::Float32)?,
        _ => v.clone(),
    };
    arg_line_kernel(
        (&v).into(),
        indices.into(),
        indptr.into(),
        (&out).into(),
        len as i64,
        max,
        explicit,
    )
    .launch(&[nlines])?;
    Ok(out)
}
