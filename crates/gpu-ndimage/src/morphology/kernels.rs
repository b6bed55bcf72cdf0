//! The binary morphology kernel (`kernels/binary.cu`): one step of
//! erosion or dilation, compiled on first use and cached by the runtime.
//! The launcher checks every size the kernel indexes with; `raw.rs`
//! vouches for the launch.

use gpu_array::kernels::{input, output};
use gpu_array::{Array, DType, Error, Result};
use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::signature::In;
use gpu_runtime::{KernelSignature, LaunchConfig, TypedKernel};

const SOURCE: &str = include_str!("../kernels/binary.cu");

const THREADS: u32 = 256;

/// The most dimensions the kernel indexes (`CUPRUM_BINARY_MAXDIM`).
pub(crate) const MAXDIM: usize = 16;

const NAME: &str = "cuprum_ndimage_binary_step";

gpu_runtime::kernel_signature! {
    /// `cuprum_ndimage_binary_step`: one erosion (or, inverted, dilation)
    /// step of a bool image.
    pub(crate) struct BinaryStep {
        input: In<bool>,
        mask: In<bool>,
        geom: In<i64>,
        ndim: i32,
        taps: In<i64>,
        ntaps: i32,
        border: i32,
        invert: i32,
        center_is_true: i32,
        total: i64,
        out: Out<bool>,
        changed: Out<i32>,
    }
}

const NAME_2D: &str = "cuprum_ndimage_binary_step2d";

gpu_runtime::kernel_signature! {
    /// `cuprum_ndimage_binary_step2d`: the step of a 2-D image by a
    /// structure within 3 x 3, sixteen outputs a thread.
    pub(crate) struct BinaryStep2d {
        input: In<bool>,
        mask: In<bool>,
        height: i64,
        width: i32,
        taps: i32,
        border: i32,
        invert: i32,
        vec: i32,
        out: Out<bool>,
        changed: Out<i32>,
    }
}

/// The kernels' program.
pub(crate) fn program_request() -> CompileRequest {
    let mut src = String::from(SOURCE);
    src += &BinaryStep::prototype(NAME, []);
    src += &BinaryStep2d::prototype(NAME_2D, []);
    gpu_array::kernels::request(src)
}

/// A structuring element ready for the kernel: its taps (`ndim` offsets
/// each) on the device, and whether its centre is set.
pub(crate) struct Taps {
    pub(crate) offsets: Array,
    pub(crate) count: usize,
    pub(crate) center_is_true: bool,
    /// For a 2-D image and taps within one element of the output: bit
    /// `(dr + 1) * 3 + (dc + 1)` set for each tap `(dr, dc)`
    /// (`cuprum_ndimage_binary_step2d`'s form).
    pub(crate) small2d: Option<u32>,
}

/// What one step does.
#[derive(Clone, Copy)]
pub(crate) struct Step<'a> {
    /// Where false, elements keep their input value.
    pub(crate) mask: Option<&'a Array>,
    /// The border value as the kernel reads it (complemented for dilation).
    pub(crate) border: bool,
    /// Dilation (the erosion of the complement).
    pub(crate) invert: bool,
}

/// One step of `src` into `dst` (bool, C-contiguous, of one shape; the
/// mask too); sets `changed[0]` to 1 when an element changed.
pub(crate) fn binary_step(
    src: &Array,
    dst: &Array,
    taps: &Taps,
    step: Step<'_>,
    changed: &Array,
) -> Result<()> {
    let shape = src.shape();
    let ndim = shape.len();
    let bool_c = |a: &Array| a.dtype() == DType::Bool && a.is_c_contiguous() && a.shape() == shape;
    let fits = bool_c(src)
        && bool_c(dst)
        && step.mask.is_none_or(bool_c)
        && (1..=MAXDIM).contains(&ndim)
        && taps.offsets.dtype() == DType::Int64
        && taps.offsets.is_c_contiguous()
        && Some(taps.offsets.size()) == taps.count.max(1).checked_mul(ndim)
        && taps.count <= i32::MAX as usize
        && changed.dtype() == DType::Int32
        && changed.size() >= 1;
    if !fits {
        return Err(Error::Value(
            "ndimage binary step: arrays do not fit".into(),
        ));
    }
    let total = src.size();
    if total == 0 {
        return Ok(());
    }
    let sms = crate::kernels::multiprocessors(dst)? as u64;
    if let Some(bits) = taps
        .small2d
        .filter(|_| ndim == 2 && shape[1] <= (i32::MAX - 32) as usize)
    {
        return step2d(src, dst, bits, step, changed, sms);
    }
    let geom: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
    let geom = Array::from_slice(&geom, &[ndim])?;
    let k = TypedKernel::<BinaryStep>::cached(NAME, [], program_request)?;
    let args = BinaryStep {
        input: input(src),
        mask: step.mask.map_or(In::NULL, input),
        geom: input(&geom),
        ndim: ndim as i32,
        taps: input(&taps.offsets),
        ntaps: taps.count as i32,
        border: i32::from(step.border),
        invert: i32::from(step.invert),
        center_is_true: i32::from(taps.center_is_true),
        total: total as i64,
        out: output(dst),
        changed: output(changed),
    };
    k.launch(&config(total as u64, sms), &dst.stream(), &args)?;
    Ok(())
}

/// [`binary_step`] of a 2-D image by taps within 3 x 3 (`bits`, as
/// [`Taps::small2d`]), the arrays already checked.
fn step2d(
    src: &Array,
    dst: &Array,
    bits: u32,
    step: Step<'_>,
    changed: &Array,
    sms: u64,
) -> Result<()> {
    let (height, width) = (src.shape()[0], src.shape()[1]);
    let aligned = |a: &Array| a.data_ptr().raw().is_multiple_of(16);
    let vec =
        width.is_multiple_of(16) && aligned(src) && aligned(dst) && step.mask.is_none_or(aligned);
    let k = TypedKernel::<BinaryStep2d>::cached(NAME_2D, [], program_request)?;
    let args = BinaryStep2d {
        input: input(src),
        mask: step.mask.map_or(In::NULL, input),
        height: height as i64,
        width: width as i32,
        taps: bits as i32,
        border: i32::from(step.border),
        invert: i32::from(step.invert),
        vec: i32::from(vec),
        out: output(dst),
        changed: output(changed),
    };
    let segments = (height as u64).saturating_mul(width.div_ceil(16) as u64);
    k.launch(&config(segments, sms), &dst.stream(), &args)?;
    Ok(())
}

/// Blocks of `THREADS` for `items` threads' work, at most 32 a
/// multiprocessor (the kernels walk the rest with a grid stride).
fn config(items: u64, sms: u64) -> LaunchConfig {
    let blocks = items.div_ceil(u64::from(THREADS)).clamp(1, sms * 32);
    LaunchConfig::new((blocks as u32, 1, 1), (THREADS, 1, 1))
}
