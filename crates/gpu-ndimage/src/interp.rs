//! SciPy's spline interpolation (`scipy.ndimage`'s `spline_filter1d`,
//! `spline_filter`, `map_coordinates`, `affine_transform`, `shift`, `zoom`,
//! `rotate` and `geometric_transform`) on the GPU, from one NVRTC program
//! (`kernels/interp.cu`).
//!
//! Every transform runs one kernel that maps each output point to input
//! coordinates on the fly (an affine map, a per-axis zoom and shift, a
//! coordinate array or the user's device function): no temporary of the
//! output's or the coordinates' size is made (cupy/cupy#2607, #5537). The
//! prefilter works on one float64 copy of the input (padded by 12 for
//! `nearest` and `grid-constant`, as SciPy pads).

use gpu_array::dtype::ScalarValue;
use gpu_array::kernels::{input, output};
use gpu_array::manipulation::{PadMode, pad};
use gpu_array::{Array, DType, Error, Result};
use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::signature::In;
use gpu_runtime::{DevicePtr, KernelSignature, LaunchConfig, TypedKernel};

use crate::{Mode, Output};

pub(crate) const SOURCE: &str = include_str!("kernels/interp.cu");

/// Threads per block.
const THREADS: u32 = 256;

/// The most axes the kernels take (`CUPRUM_NDIMAGE_MAXDIM`).
const MAXDIM: usize = 10;

/// SciPy's pad for `nearest` and `grid-constant` before the prefilter.
const NPAD: usize = 12;

/// Input dtypes the interpolation reads directly; others are read as
/// float64 copies.
const INPUT_DTYPES: [DType; 3] = [DType::UInt8, DType::Float32, DType::Float64];

/// Output dtypes the interpolation writes (SciPy's real dtypes).
const OUTPUT_DTYPES: [DType; 11] = [
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

gpu_runtime::kernel_signature! {
    /// `cuprum_ndimage_spline_filter`: the B-spline prefilter along one
    /// axis of a C-contiguous float64 array, in place, one thread a line.
    pub(crate) struct SplineFilter {
        data: Out<f64>,
        n: i64,
        inner: i64,
        lines: i64,
        poles: In<f64>,
        npoles: i32,
        gain: f64,
        init: i32,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_ndimage_interp_{in}_{out}`: one output point a thread.
    pub(crate) struct Interp[TI, TO] {
        src: In<TI>,
        dst: Out<TO>,
        coords64: In<f64>,
        coords32: In<f32>,
        params: In<f64>,
        geom: In<i64>,
        kind: i32,
        order: i32,
        mode: i32,
        cval: f64,
        npad: i64,
        size: i64,
    }
}

const SPLINE_FILTER: &str = "cuprum_ndimage_spline_filter";

fn interp_name(ti: DType, to: DType) -> String {
    format!("cuprum_ndimage_interp_{}_{}", ti.name(), to.name())
}

/// The interpolation program: the prefilter and every (input, output)
/// pair of the interpolation kernel.
pub(crate) fn program_request() -> CompileRequest {
    let mut src = SOURCE.to_string();
    src += &SplineFilter::prototype(SPLINE_FILTER, []);
    for ti in INPUT_DTYPES {
        for to in OUTPUT_DTYPES {
            src += &instance(ti, to, &interp_name(ti, to));
        }
    }
    exact(gpu_array::kernels::request(src))
}

/// An interpolation program compiled without contracting products and
/// sums into fused multiply-adds: SciPy's C rounds each on its own (its
/// x86-64 build has no FMA), and so the weights, coordinates and sums
/// here are SciPy's to the bit, the same in every kernel that computes
/// them (`zoom.rs`'s and the general ones).
pub(crate) fn exact(req: CompileRequest) -> CompileRequest {
    req.option("--fmad=false")
}

fn instance(ti: DType, to: DType, name: &str) -> String {
    let mut s = Interp::prototype(name, [ti.c_type(), to.c_type()]);
    s += &format!(
        "CUPRUM_NDIMAGE_INTERP({name}, {}, {})\n",
        ti.c_type(),
        to.c_type()
    );
    s
}

/// geometric_transform's program: the user's mapping and one kernel.
fn user_program(mapping: &str, ti: DType, to: DType, name: &str) -> CompileRequest {
    let src = format!(
        "{mapping}\n#define CUPRUM_NDIMAGE_USER_MAPPING(O, C, ON, IN) mapping(O, C, ON, IN)\n\
         {SOURCE}\n{}",
        instance(ti, to, name)
    );
    exact(gpu_array::kernels::request(src))
}

/// The poles of the B-spline prefilter of `order` (2 to 5; none below):
/// Unser's closed forms (`sqrt(3) - 2` for order 3, ...) rounded to
/// float64 as SciPy states them (evaluating the order-4 form in float64
/// loses digits to cancellation).
pub(crate) fn filter_poles(order: usize) -> Vec<f64> {
    match order {
        2 => vec![-0.171_572_875_253_809_9],
        3 => vec![-0.267_949_192_431_122_7],
        4 => vec![-0.361_341_225_900_220_2, -0.013_725_429_297_339_121],
        5 => vec![-0.430_575_347_099_973_8, -0.043_096_288_203_264_65],
        _ => vec![],
    }
}

/// Per pole `z`, `z^(n - 1)` and `z^n` for lines of `n`: the powers the
/// boundary initialisations take, from the host's `pow` (glibc's, as
/// SciPy's C calls it; the device's may differ in the last bits).
pub(crate) fn pole_table(poles: &[f64], n: usize) -> Vec<f64> {
    let n = n as f64;
    poles
        .iter()
        .flat_map(|&z| [z, z.powf(n - 1.0), z.powf(n)])
        .collect()
}

/// The filter's gain, `prod (1 - z)(1 - 1/z)` over the poles (each pole's
/// factor formed first, as SciPy's `gain *= (1 - z) * (1 - 1 / z)`).
pub(crate) fn filter_gain(poles: &[f64]) -> f64 {
    poles
        .iter()
        .fold(1.0, |g, z| g * ((1.0 - z) * (1.0 - 1.0 / z)))
}

/// The prefilter's boundary initialisation for a mode, as SciPy picks it:
/// 0 mirror (also constant, grid-constant and the legacy wrap, which have
/// no exact one), 1 reflect (also nearest), 2 periodic (grid-wrap).
pub(crate) fn filter_init(mode: Mode) -> i32 {
    match mode {
        Mode::Constant | Mode::GridConstant | Mode::Mirror | Mode::Wrap => 0,
        Mode::Reflect | Mode::GridMirror | Mode::Nearest => 1,
        Mode::GridWrap => 2,
    }
}

/// The interpolation kernel's mode number (`CUPRUM_I_*` in `interp.cu`):
/// interpolation tells `grid-constant` and `grid-wrap` apart.
pub(crate) fn interp_code(mode: Mode) -> i32 {
    match mode {
        Mode::Reflect | Mode::GridMirror => 0,
        Mode::Constant => 1,
        Mode::Nearest => 2,
        Mode::Mirror => 3,
        Mode::Wrap => 4,
        Mode::GridConstant => 5,
        Mode::GridWrap => 6,
    }
}

/// The dtype a transform writes for `output` (`default` for
/// [`Output::None`]: the input's for the transforms, float64 for the
/// spline filters).
fn out_dtype(output: &Output<'_>, default: DType) -> DType {
    match output {
        Output::None => default,
        Output::DType(d) => *d,
        Output::Array(a) => a.dtype(),
    }
}

/// The array a transform writes for `output`, checked: a new one, or the
/// given array when it has the result's shape and is C-contiguous.
fn make_output(output: &Output<'_>, shape: &[usize], default: DType) -> Result<Array> {
    let dt = out_dtype(output, default);
    if !OUTPUT_DTYPES.contains(&dt) {
        return Err(Error::Unsupported(format!(
            "ndimage interpolation into dtype {dt} (complex and float16 outputs)"
        )));
    }
    match output {
        Output::Array(a) => {
            if a.shape() != shape {
                return Err(Error::Value("output shape not correct".into()));
            }
            if !a.is_c_contiguous() {
                return Err(Error::Unsupported(
                    "ndimage interpolation into a non-contiguous output".into(),
                ));
            }
            Ok((*a).clone())
        }
        _ => Array::empty(shape.to_vec(), dt),
    }
}

/// The keywords of the interpolating transforms (SciPy's `order=`,
/// `mode=`, `cval=`, `prefilter=`, `output=`), SciPy's defaults.
///
/// ```
/// use gpu_ndimage::{InterpOptions, Mode};
/// let o = InterpOptions::default().order(1).mode(Mode::Nearest);
/// assert_eq!((o.order, o.mode, o.prefilter), (1, Mode::Nearest, true));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct InterpOptions<'a> {
    /// Spline order, 0 to 5 (default 3).
    pub order: usize,
    /// Boundary mode (default `constant`).
    pub mode: Mode,
    /// The value past the edges for the constant modes (default 0).
    pub cval: f64,
    /// Whether to prefilter the input with [`spline_filter`] for orders
    /// above 1 (default true); false when the input already holds spline
    /// coefficients.
    pub prefilter: bool,
    /// Where the result goes (default: a new array of the input's dtype).
    pub output: Output<'a>,
}

impl Default for InterpOptions<'_> {
    fn default() -> Self {
        InterpOptions {
            order: 3,
            mode: Mode::Constant,
            cval: 0.0,
            prefilter: true,
            output: Output::None,
        }
    }
}

impl<'a> InterpOptions<'a> {
    /// Sets `order` (0 to 5).
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::InterpOptions::default().order(5).order, 5);
    /// ```
    #[must_use]
    pub fn order(mut self, order: usize) -> Self {
        self.order = order;
        self
    }

    /// Sets `mode`.
    ///
    /// ```
    /// use gpu_ndimage::{InterpOptions, Mode};
    /// assert_eq!(InterpOptions::default().mode(Mode::GridWrap).mode, Mode::GridWrap);
    /// ```
    #[must_use]
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets `cval`.
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::InterpOptions::default().cval(2.0).cval, 2.0);
    /// ```
    #[must_use]
    pub fn cval(mut self, cval: f64) -> Self {
        self.cval = cval;
        self
    }

    /// Sets `prefilter`.
    ///
    /// ```
    /// assert!(!gpu_ndimage::InterpOptions::default().prefilter(false).prefilter);
    /// ```
    #[must_use]
    pub fn prefilter(mut self, prefilter: bool) -> Self {
        self.prefilter = prefilter;
        self
    }

    /// Sets `output`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_ndimage::{InterpOptions, Output};
    /// let o = InterpOptions::default().output(Output::DType(DType::Float32));
    /// assert!(matches!(o.output, Output::DType(DType::Float32)));
    /// ```
    #[must_use]
    pub fn output(mut self, output: Output<'a>) -> Self {
        self.output = output;
        self
    }
}

fn check_order(order: usize) -> Result<()> {
    if order > 5 {
        return Err(Error::Value("spline order not supported".into()));
    }
    Ok(())
}

fn check_input(a: &Array) -> Result<()> {
    if a.dtype().is_complex() {
        return Err(Error::Unsupported(
            "ndimage interpolation of complex input".into(),
        ));
    }
    if a.ndim() > MAXDIM {
        return Err(Error::Unsupported(format!(
            "ndimage interpolation of more than {MAXDIM} dimensions"
        )));
    }
    Ok(())
}

fn contiguous_as(a: &Array, dtype: DType) -> Result<Array> {
    let out = if a.dtype() == dtype {
        a.clone()
    } else {
        a.astype(dtype)?
    };
    if out.is_c_contiguous() {
        Ok(out)
    } else {
        out.copy()
    }
}

/// Blocks for `n` threads' work: enough to cover it, at most 32 a
/// multiprocessor (the kernels loop over the rest).
fn config(a: &Array, n: usize) -> Result<LaunchConfig> {
    let sms = crate::kernels::multiprocessors(a)? as u64;
    let need = (n as u64).div_ceil(THREADS as u64).max(1);
    let blocks = need.min(sms * 32);
    Ok(LaunchConfig::new((blocks as u32, 1, 1), (THREADS, 1, 1)))
}

/// Filters the float64 C-contiguous `work` along `axis` in place.
fn filter_axis(work: &Array, order: usize, axis: usize, mode: Mode) -> Result<()> {
    let shape = work.shape();
    let n = shape[axis];
    if n < 2 || order < 2 {
        return Ok(());
    }
    let inner: usize = shape[axis + 1..].iter().product();
    let lines = work.size() / n;
    if lines == 0 {
        return Ok(());
    }
    let poles = filter_poles(order);
    let pa = pole_table(&poles, n);
    let pa = Array::from_slice(&pa, &[pa.len()])?;
    let k = TypedKernel::<SplineFilter>::cached(SPLINE_FILTER, [], program_request)?;
    let args = SplineFilter {
        data: output(work),
        n: n as i64,
        inner: inner as i64,
        lines: lines as i64,
        poles: input(&pa),
        npoles: poles.len() as i32,
        gain: filter_gain(&poles),
        init: filter_init(mode),
    };
    // One thread a line, and few lines (an image's rows): small blocks
    // spread them over every multiprocessor, each thread's recursion a
    // chain of steps that waits on memory.
    let blocks = u32::try_from(lines.div_ceil(SPLINE_THREADS as usize)).unwrap_or(u32::MAX);
    let cfg = LaunchConfig::new((blocks, 1, 1), (SPLINE_THREADS, 1, 1));
    k.launch(&cfg, &work.stream(), &args)?;
    Ok(())
}

/// Threads a block of the prefilter (`filter_axis`).
const SPLINE_THREADS: u32 = 32;

fn normalize_axis(axis: isize, ndim: usize) -> Result<usize> {
    let n = ndim as isize;
    let a = if axis < 0 { axis + n } else { axis };
    if a < 0 || a >= n {
        return Err(Error::AxisOutOfBounds {
            arg: None,
            axis,
            ndim,
        });
    }
    Ok(a as usize)
}

/// SciPy's `spline_filter1d`: the B-spline coefficients of `order` (2 to
/// 5; 0 and 1 copy the input) along `axis`, with the boundary `mode`'s
/// initialisation (default output float64; integer outputs truncate as
/// SciPy's copy does).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{Mode, Output, spline_filter1d};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[1.0f64, 4.0, 2.0, 8.0], &[4])?;
/// let c = spline_filter1d(&x, 3, -1, Output::None, Mode::Mirror)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// "spline order not supported" for orders above 5; an axis out of
/// range; complex input or output (unsupported).
pub fn spline_filter1d(
    input: &Array,
    order: usize,
    axis: isize,
    output: Output<'_>,
    mode: Mode,
) -> Result<Array> {
    check_order(order)?;
    check_input(input)?;
    let axis = if input.ndim() == 0 {
        0
    } else {
        normalize_axis(axis, input.ndim())?
    };
    let out = make_output(&output, input.shape(), DType::Float64)?;
    let work = input.astype(DType::Float64)?;
    if input.ndim() > 0 {
        filter_axis(&work, order, axis, mode)?;
    }
    write_back(&work, &out)
}

/// Copies `work` (float64) into `out` with NumPy's cast.
fn write_back(work: &Array, out: &Array) -> Result<Array> {
    let cast = if out.dtype() == DType::Float64 {
        work.clone()
    } else {
        work.astype(out.dtype())?
    };
    out.copy_from(&cast)?;
    Ok(out.clone())
}

/// SciPy's `spline_filter`: [`spline_filter1d`] along every axis in turn
/// (each pass reading the previous one's output, as SciPy's does, so an
/// integer or float32 output rounds between passes).
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{Mode, Output, spline_filter};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[1.0f32, 4.0, 2.0, 8.0], &[2, 2])?;
/// let c = spline_filter(&x, 3, Output::DType(DType::Float32), Mode::Mirror)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// "spline order not supported" outside 2 to 5 (SciPy's); as
/// [`spline_filter1d`] otherwise.
pub fn spline_filter(input: &Array, order: usize, output: Output<'_>, mode: Mode) -> Result<Array> {
    if !(2..=5).contains(&order) {
        return Err(Error::Value("spline order not supported".into()));
    }
    check_input(input)?;
    let out = make_output(&output, input.shape(), DType::Float64)?;
    let dt = out.dtype();
    let mut work = input.astype(DType::Float64)?;
    for axis in 0..input.ndim() {
        filter_axis(&work, order, axis, mode)?;
        if dt != DType::Float64 && axis + 1 < input.ndim() {
            work = work.astype(dt)?.astype(DType::Float64)?;
        }
    }
    write_back(&work, &out)
}

/// The array the kernel interpolates and its pad: the prefiltered float64
/// coefficients, or the input itself (in a dtype the kernel reads).
fn coefficients(a: &Array, p: &InterpOptions<'_>) -> Result<(Array, usize)> {
    if p.prefilter && p.order > 1 {
        let work = a.astype(DType::Float64)?;
        let (work, npad) = match p.mode {
            Mode::Nearest => (
                pad(&work, &vec![(NPAD, NPAD); a.ndim()], PadMode::Edge)?,
                NPAD,
            ),
            Mode::GridConstant => (
                pad(
                    &work,
                    &vec![(NPAD, NPAD); a.ndim()],
                    PadMode::Constant(ScalarValue::Float(p.cval)),
                )?,
                NPAD,
            ),
            _ => (work, 0),
        };
        let work = contiguous_as(&work, DType::Float64)?;
        for axis in 0..work.ndim() {
            filter_axis(&work, p.order, axis, p.mode)?;
        }
        Ok((work, npad))
    } else if INPUT_DTYPES.contains(&a.dtype()) {
        Ok((contiguous_as(a, a.dtype())?, 0))
    } else {
        Ok((contiguous_as(a, DType::Float64)?, 0))
    }
}

/// How output indices become input coordinates.
enum Mapping<'a> {
    /// A float32 or float64 C-contiguous array `(in_ndim, *out_shape)`.
    Coords(&'a Array),
    /// Matrix `in_ndim x out_ndim` (row-major) then offsets.
    Affine(Vec<f64>),
    /// Per axis `(s, z, t)`: `(o + s) * z + t`.
    Separable(Vec<f64>),
    /// The user's `mapping` (geometric_transform).
    User(&'a str),
}

/// Runs the interpolation kernel into a new or given output of
/// `out_shape`.
fn transform(
    input_arr: &Array,
    out_shape: &[usize],
    mapping: Mapping<'_>,
    p: &InterpOptions<'_>,
) -> Result<Array> {
    check_order(p.order)?;
    check_input(input_arr)?;
    if input_arr.ndim() == 0 {
        return Err(Error::Value("input and output rank must be > 0".into()));
    }
    if out_shape.len() > MAXDIM {
        return Err(Error::Unsupported(format!(
            "ndimage interpolation into more than {MAXDIM} dimensions"
        )));
    }
    let out = make_output(&p.output, out_shape, input_arr.dtype())?;
    let size = out.size();
    if size == 0 {
        return Ok(out);
    }
    if input_arr.size() == 0 {
        return Err(Error::Value(
            "cannot interpolate an empty input to a non-empty output".into(),
        ));
    }
    let (coef, npad) = coefficients(input_arr, p)?;
    if let Mapping::Separable(v) = &mapping
        && coef.ndim() == 2
        && out_shape.len() == 2
    {
        let params = Array::from_slice(v, &[v.len()])?;
        let mode = interp_code(p.mode);
        crate::zoom::zoom2(&coef, &out, &params, p.order, mode, p.cval, npad)?;
        return Ok(out);
    }
    let mut geom: Vec<i64> = vec![coef.ndim() as i64, out_shape.len() as i64];
    geom.extend(coef.shape().iter().map(|&d| d as i64));
    geom.extend(out_shape.iter().map(|&d| d as i64));
    let geom = Array::from_slice(&geom, &[geom.len()])?;
    let null64 = In::new(DevicePtr::NULL, "double");
    let null32 = In::new(DevicePtr::NULL, "float");
    let one = [0.0f64];
    let (kind, c64, c32, params, user) = match mapping {
        Mapping::Coords(c) => match c.dtype() {
            DType::Float64 => (0, input(c), null32, Array::from_slice(&one, &[1])?, None),
            _ => (0, null64, input(c), Array::from_slice(&one, &[1])?, None),
        },
        Mapping::Affine(v) => (1, null64, null32, Array::from_slice(&v, &[v.len()])?, None),
        Mapping::Separable(v) => (2, null64, null32, Array::from_slice(&v, &[v.len()])?, None),
        Mapping::User(src) => (3, null64, null32, Array::from_slice(&one, &[1])?, Some(src)),
    };
    let (ti, to) = (coef.dtype(), out.dtype());
    let k = match user {
        None => {
            TypedKernel::<Interp>::cached(&interp_name(ti, to), [ti.c_type(), to.c_type()], || {
                program_request()
            })?
        }
        Some(src) => {
            let name = format!(
                "cuprum_ndimage_geometric_{:016x}_{}_{}",
                fnv1a(src),
                ti.name(),
                to.name()
            );
            TypedKernel::<Interp>::cached(&name, [ti.c_type(), to.c_type()], || {
                user_program(src, ti, to, &name)
            })?
        }
    };
    let args = Interp {
        src: input(&coef),
        dst: output(&out),
        coords64: c64,
        coords32: c32,
        params: input(&params),
        geom: input(&geom),
        kind,
        order: p.order as i32,
        mode: interp_code(p.mode),
        cval: p.cval,
        npad: npad as i64,
        size: size as i64,
    };
    k.launch(&config(&out, size)?, &out.stream(), &args)?;
    Ok(out)
}

/// FNV-1a of a user's device source (a mapping, a filter function): the
/// kernel's name, so each source compiles once.
pub(crate) fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// SciPy's `map_coordinates`: the input interpolated at `coordinates`, an
/// array of shape `(input.ndim, *out_shape)` (any real dtype; float32 and
/// float64 are read in place, others as a float64 copy).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{InterpOptions, map_coordinates};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[0.0f64, 1.0, 4.0, 9.0], &[4])?;
/// let at = Array::from_slice(&[0.5f64, 2.25], &[1, 2])?;
/// let y = map_coordinates(&x, &at, &InterpOptions::default().order(1))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// "invalid shape for coordinate array" when its first axis is not the
/// input's rank; "spline order not supported"; complex data.
pub fn map_coordinates(input: &Array, coordinates: &Array, p: &InterpOptions<'_>) -> Result<Array> {
    if coordinates.dtype().is_complex() {
        return Err(Error::Value("Complex type not supported".into()));
    }
    if coordinates.ndim() < 1 || coordinates.shape()[0] != input.ndim() {
        return Err(Error::Value("invalid shape for coordinate array".into()));
    }
    let coords = match coordinates.dtype() {
        DType::Float32 | DType::Float64 => contiguous_as(coordinates, coordinates.dtype())?,
        _ => contiguous_as(coordinates, DType::Float64)?,
    };
    transform(
        input,
        &coordinates.shape()[1..],
        Mapping::Coords(&coords),
        p,
    )
}

/// An affine matrix as SciPy accepts it: `n x n`, `n x (n + 1)` or the
/// homogeneous `(n + 1) x (n + 1)` (offset in its last column), or the
/// diagonal as a 1-D array of `n`.
#[derive(Debug, Clone)]
pub struct AffineMatrix<'a> {
    /// The values, row-major.
    pub data: &'a [f64],
    /// `[n]` (diagonal), `[rows, cols]`.
    pub shape: &'a [usize],
}

/// SciPy's `affine_transform`: output point `o` reads the input at
/// `matrix @ o + offset`. `offset` holds one value (for every axis) or
/// one per input axis; `output_shape` defaults to the input's.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{AffineMatrix, InterpOptions, affine_transform};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[0.0f32; 16], &[4, 4])?;
/// let m = AffineMatrix { data: &[1.0, 0.5, 0.0, 1.0], shape: &[2, 2] };
/// let y = affine_transform(&x, &m, &[0.0], None, &InterpOptions::default())?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: "no proper affine matrix provided", "affine matrix has wrong
/// number of rows", "affine matrix has wrong number of columns", "no
/// proper offset provided", a homogeneous matrix whose last row is not
/// `[0, ..., 0, 1]`; "spline order not supported".
pub fn affine_transform(
    input: &Array,
    matrix: &AffineMatrix<'_>,
    offset: &[f64],
    output_shape: Option<&[usize]>,
    p: &InterpOptions<'_>,
) -> Result<Array> {
    let n = input.ndim();
    let out_shape: Vec<usize> = output_shape.map_or_else(|| input.shape().to_vec(), <[_]>::to_vec);
    let (rows, cols) = match matrix.shape {
        [r] => (*r, 0),
        [r, c] => (*r, *c),
        _ => return Err(Error::Value("no proper affine matrix provided".into())),
    };
    let expect = rows.checked_mul(cols.max(1)).ok_or(Error::TooBig)?;
    if rows < 1 || matrix.data.len() != expect {
        return Err(Error::Value("no proper affine matrix provided".into()));
    }
    let mut offset: Vec<f64> = offset.to_vec();
    let mut data: Vec<f64> = matrix.data.to_vec();
    let mut rows = rows;
    let mut cols = cols;
    if cols == n + 1 && (rows == n || rows == n + 1) {
        if rows == n + 1 {
            let last = &data[n * cols..];
            let ok = last[..n].iter().all(|&v| v == 0.0) && last[n] == 1.0;
            if !ok {
                return Err(Error::Value(format!(
                    "Expected homogeneous transformation matrix with shape {:?} for image \
                     shape {:?}, but bottom row was not equal to [0, ..., 0, 1]",
                    (n + 1, n + 1),
                    input.shape()
                )));
            }
        }
        offset = (0..n).map(|r| data[r * cols + n]).collect();
        data = (0..n)
            .flat_map(|r| data[r * cols..r * cols + n].to_vec())
            .collect();
        rows = n;
        cols = n;
    }
    if rows != n {
        return Err(Error::Value(
            "affine matrix has wrong number of rows".into(),
        ));
    }
    if cols != 0 && cols != out_shape.len() {
        return Err(Error::Value(
            "affine matrix has wrong number of columns".into(),
        ));
    }
    let offset = match offset.len() {
        1 => vec![offset[0]; n],
        l if l == n => offset,
        _ => return Err(Error::Value("no proper offset provided".into())),
    };
    if cols == 0 {
        if out_shape.len() != n {
            return Err(Error::Value(
                "affine matrix has wrong number of columns".into(),
            ));
        }
        // SciPy's zoom_shift: (o + offset / m) * m.
        let v = (0..n)
            .flat_map(|d| [offset[d] / data[d], data[d], 0.0])
            .collect();
        return transform(input, &out_shape, Mapping::Separable(v), p);
    }
    data.extend_from_slice(&offset);
    transform(input, &out_shape, Mapping::Affine(data), p)
}

/// SciPy's `shift`: output point `o` reads the input at `o - shift`
/// (`shift` one value for every axis or one per axis).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{InterpOptions, Mode, shift};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[1.0f64, 2.0, 3.0, 4.0], &[4])?;
/// let y = shift(&x, &[0.5], &InterpOptions::default().mode(Mode::Nearest))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// A shift of the wrong length ("sequence argument must have length
/// equal to input rank"); as [`map_coordinates`] otherwise.
pub fn shift(input: &Array, shift: &[f64], p: &InterpOptions<'_>) -> Result<Array> {
    let s = per_axis(shift, input.ndim())?;
    let v = s.iter().flat_map(|&s| [-s, 1.0, 0.0]).collect();
    transform(input, input.shape(), Mapping::Separable(v), p)
}

fn per_axis(v: &[f64], n: usize) -> Result<Vec<f64>> {
    match v.len() {
        1 => Ok(vec![v[0]; n]),
        l if l == n => Ok(v.to_vec()),
        _ => Err(Error::Value(
            "sequence argument must have length equal to input rank".into(),
        )),
    }
}

/// Python's `round` (half to even) of a non-negative float to an index.
fn round_half_even(x: f64) -> usize {
    let r = x.round();
    let r = if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        r - x.signum()
    } else {
        r
    };
    r.max(0.0) as usize
}

/// SciPy's zoom shape and per-axis coordinate maps: output shape
/// `round(n * zoom)`; without `grid_mode` the corner pixels' centres
/// align (`o * (n - 1) / (m - 1)`), with it the corners of the grids
/// (`(o + 0.5) * n / m - 0.5`). A zero-length divisor zooms by 1.
pub(crate) fn zoom_maps(shape: &[usize], zoom: &[f64], grid_mode: bool) -> (Vec<usize>, Vec<f64>) {
    let out: Vec<usize> = shape
        .iter()
        .zip(zoom)
        .map(|(&n, &z)| round_half_even(n as f64 * z))
        .collect();
    let mut v = Vec::with_capacity(3 * shape.len());
    for (&n, &m) in shape.iter().zip(&out) {
        let (num, div) = if grid_mode {
            (n as f64, m as f64)
        } else {
            (n as f64 - 1.0, m as f64 - 1.0)
        };
        let z = if div != 0.0 { num / div } else { 1.0 };
        if grid_mode {
            v.extend([0.5, z, -0.5]);
        } else {
            v.extend([0.0, z, 0.0]);
        }
    }
    (out, v)
}

/// SciPy's `zoom`: the input resampled to `round(shape * zoom)` (`zoom`
/// one factor for every axis or one per axis); `grid_mode` as SciPy's
/// (see `zoom_maps`'s arithmetic: pixel corners aligned, for the
/// `grid-*` modes).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{InterpOptions, zoom};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[0.0f32; 16], &[4, 4])?;
/// let y = zoom(&x, &[2.0], false, &InterpOptions::default().order(1))?;
/// assert_eq!(y.shape(), &[8, 8]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// A zoom of the wrong length; as [`map_coordinates`] otherwise.
pub fn zoom(input: &Array, zoom: &[f64], grid_mode: bool, p: &InterpOptions<'_>) -> Result<Array> {
    if input.ndim() < 1 {
        return Err(Error::Value("input and output rank must be > 0".into()));
    }
    let z = per_axis(zoom, input.ndim())?;
    let (out_shape, v) = zoom_maps(input.shape(), &z, grid_mode);
    transform(input, &out_shape, Mapping::Separable(v), p)
}

/// `cos` and `sin` of `deg` degrees, exact at multiples of 90 (as SciPy's
/// `cosdg`/`sindg`).
pub(crate) fn cos_sin_deg(deg: f64) -> (f64, f64) {
    let r = deg.rem_euclid(360.0);
    if r % 90.0 == 0.0 {
        return match (r / 90.0) as i32 {
            0 => (1.0, 0.0),
            1 => (0.0, 1.0),
            2 => (-1.0, 0.0),
            _ => (0.0, -1.0),
        };
    }
    let t = r.to_radians();
    (t.cos(), t.sin())
}

/// SciPy's rotate geometry for an input plane `(iy, ix)`: the output
/// plane's shape and the 2 x 2 matrix and offset that map output to input
/// coordinates.
pub(crate) fn rotate_geometry(
    plane: [usize; 2],
    angle: f64,
    reshape: bool,
) -> ([usize; 2], [f64; 4], [f64; 2]) {
    let (c, s) = cos_sin_deg(angle);
    let m = [c, s, -s, c];
    let (iy, ix) = (plane[0] as f64, plane[1] as f64);
    let out = if reshape {
        let xs = [0.0, 0.0, iy, iy];
        let ys = [0.0, ix, 0.0, ix];
        let ptp = |row: [f64; 2]| {
            let v: Vec<f64> = (0..4).map(|k| row[0] * xs[k] + row[1] * ys[k]).collect();
            let hi = v.iter().cloned().fold(f64::MIN, f64::max);
            let lo = v.iter().cloned().fold(f64::MAX, f64::min);
            ((hi - lo) + 0.5) as usize
        };
        [ptp([m[0], m[1]]), ptp([m[2], m[3]])]
    } else {
        plane
    };
    let oc = [(out[0] as f64 - 1.0) / 2.0, (out[1] as f64 - 1.0) / 2.0];
    let ocr = [m[0] * oc[0] + m[1] * oc[1], m[2] * oc[0] + m[3] * oc[1]];
    let ic = [(iy - 1.0) / 2.0, (ix - 1.0) / 2.0];
    (out, m, [ic[0] - ocr[0], ic[1] - ocr[1]])
}

/// SciPy's `rotate`: the input rotated by `angle` degrees in the plane of
/// `axes` (SciPy's default `(1, 0)`); with `reshape` the output grows to
/// hold the whole rotated input. Arrays of more than two axes rotate
/// every plane parallel to `axes` alike.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{InterpOptions, rotate};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[0.0f32; 12], &[3, 4])?;
/// let y = rotate(&x, 90.0, (1, 0), true, &InterpOptions::default())?;
/// assert_eq!(y.shape(), &[4, 3]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's "input array should be at least 2D", "invalid rotation plane
/// specified"; as [`map_coordinates`] otherwise.
pub fn rotate(
    input: &Array,
    angle: f64,
    axes: (isize, isize),
    reshape: bool,
    p: &InterpOptions<'_>,
) -> Result<Array> {
    let nd = input.ndim();
    if nd < 2 {
        return Err(Error::Value("input array should be at least 2D".into()));
    }
    let fix = |a: isize| {
        let a = if a < 0 { a + nd as isize } else { a };
        if a < 0 || a >= nd as isize {
            Err(Error::Value("invalid rotation plane specified".into()))
        } else {
            Ok(a as usize)
        }
    };
    let (mut a0, mut a1) = (fix(axes.0)?, fix(axes.1)?);
    if a0 > a1 {
        std::mem::swap(&mut a0, &mut a1);
    }
    if a0 == a1 {
        return Err(Error::Value("invalid rotation plane specified".into()));
    }
    let shape = input.shape();
    let (plane, m, off) = rotate_geometry([shape[a0], shape[a1]], angle, reshape);
    let mut out_shape = shape.to_vec();
    out_shape[a0] = plane[0];
    out_shape[a1] = plane[1];
    // The plane's rotation on its two axes, the identity on the others.
    let mut data = vec![0.0; nd * nd + nd];
    for d in 0..nd {
        data[d * nd + d] = 1.0;
    }
    data[a0 * nd + a0] = m[0];
    data[a0 * nd + a1] = m[1];
    data[a1 * nd + a0] = m[2];
    data[a1 * nd + a1] = m[3];
    data[nd * nd + a0] = off[0];
    data[nd * nd + a1] = off[1];
    transform(input, &out_shape, Mapping::Affine(data), p)
}

/// SciPy's `geometric_transform` with the mapping as CUDA device source.
/// `mapping_src` defines
///
/// ```text
/// __device__ void mapping(const long long* out_index, double* in_coords,
///                         int out_ndim, int in_ndim);
/// ```
///
/// which reads the output point's `out_ndim` indices and writes its
/// `in_ndim` input coordinates (SciPy's Python callable, run on the
/// device for every point). Each distinct source compiles once per
/// process. `output_shape` defaults to the input's.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{InterpOptions, geometric_transform};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[0.0f64; 12], &[4, 3])?;
/// let src = "__device__ void mapping(const long long* o, double* c, int, int) \
///            { c[0] = o[0] - 0.5; c[1] = o[1] - 0.5; }";
/// let y = geometric_transform(&x, src, None, &InterpOptions::default())?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// The mapping's compile errors (NVRTC's log); as [`map_coordinates`].
pub fn geometric_transform(
    input: &Array,
    mapping_src: &str,
    output_shape: Option<&[usize]>,
    p: &InterpOptions<'_>,
) -> Result<Array> {
    let out_shape: Vec<usize> = output_shape.map_or_else(|| input.shape().to_vec(), <[_]>::to_vec);
    transform(input, &out_shape, Mapping::User(mapping_src), p)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The poles are the closed forms' roots (checked in extended
    /// precision where float64 cancels: the order-4 pair agrees to 1e-14).
    #[test]
    fn poles_are_unsers() {
        let closed: [&[f64]; 4] = [
            &[8f64.sqrt() - 3.0],
            &[3f64.sqrt() - 2.0],
            &[
                (664.0 - 438976f64.sqrt()).sqrt() + 304f64.sqrt() - 19.0,
                (664.0 + 438976f64.sqrt()).sqrt() - 304f64.sqrt() - 19.0,
            ],
            &[
                (67.5 - 4436.25f64.sqrt()).sqrt() + 26.25f64.sqrt() - 6.5,
                (67.5 + 4436.25f64.sqrt()).sqrt() - 26.25f64.sqrt() - 6.5,
            ],
        ];
        for (order, w) in (2..=5).zip(closed) {
            let got = filter_poles(order);
            assert_eq!(got.len(), w.len());
            for (g, w) in got.iter().zip(w) {
                assert!((g - w).abs() < 1e-13, "order {order}: {g} vs {w}");
            }
        }
        // Each pole is a root of the B-spline's sampled symbol: for order 3,
        // z + 4 + 1/z = 0.
        let z = filter_poles(3)[0];
        assert!((z + 4.0 + 1.0 / z).abs() < 1e-14);
        assert!(filter_poles(1).is_empty());
        // The gain makes constants pass: sum of B-spline samples times gain.
        let g = filter_gain(&filter_poles(3));
        assert!((g - 6.0).abs() < 1e-12, "{g}");
    }

    #[test]
    fn zoom_maps_are_scipys() {
        // scipy.ndimage.zoom(np.zeros((3, 4)), 1.5).shape == (4, 6)
        let (s, v) = zoom_maps(&[3, 4], &[1.5, 1.5], false);
        assert_eq!(s, [4, 6]);
        assert_eq!(v, [0.0, 2.0 / 3.0, 0.0, 0.0, 3.0 / 5.0, 0.0]);
        let (s, v) = zoom_maps(&[5], &[0.5], true);
        assert_eq!(s, [2]); // round(2.5) is 2 (half to even)
        assert_eq!(v, [0.5, 2.5, -0.5]);
        let (s, v) = zoom_maps(&[1], &[3.0], false);
        assert_eq!((s, v), (vec![3], vec![0.0, 0.0, 0.0]));
        let (s, _) = zoom_maps(&[4], &[0.1], false);
        assert_eq!(s, [0]);
    }

    #[test]
    fn rotate_geometry_is_scipys() {
        let (s, m, off) = rotate_geometry([3, 4], 90.0, true);
        assert_eq!(s, [4, 3]);
        assert_eq!(m, [0.0, 1.0, -1.0, 0.0]);
        assert_eq!(off, [0.0, 3.0]);
        // scipy: rotate(np.zeros((10, 20)), 30).shape == (19, 22)
        let (s, _, _) = rotate_geometry([10, 20], 30.0, true);
        assert_eq!(s, [19, 22]);
        let (s, _, _) = rotate_geometry([10, 20], 30.0, false);
        assert_eq!(s, [10, 20]);
    }

    #[test]
    fn modes_and_inits() {
        assert_eq!(interp_code(Mode::GridMirror), interp_code(Mode::Reflect));
        assert_ne!(interp_code(Mode::GridWrap), interp_code(Mode::Wrap));
        assert_ne!(interp_code(Mode::GridConstant), interp_code(Mode::Constant));
        assert_eq!(filter_init(Mode::Nearest), 1);
        assert_eq!(filter_init(Mode::Wrap), 0);
        assert_eq!(filter_init(Mode::GridWrap), 2);
        assert_eq!(round_half_even(2.5), 2);
        assert_eq!(round_half_even(3.5), 4);
        assert_eq!(round_half_even(2.4), 2);
    }

    #[test]
    fn interp_kernels_compile() {
        use gpu_runtime::testing::{compile_for_test_archs, nvrtc_or_skip};
        if nvrtc_or_skip().is_none() {
            return;
        }
        let user = "__device__ void mapping(const long long* o, double* c, int on, int in) \
                    { for (int d = 0; d < in; ++d) c[d] = o[d] * 0.5; }";
        compile_for_test_archs(
            "ndimage interp program",
            &[
                program_request(),
                user_program(user, DType::Float32, DType::UInt8, "probe_geometric"),
            ],
        );
    }
}
