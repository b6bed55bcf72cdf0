//! `zoom` and `shift` of images (`kernels/zoom.cu`): the 2-D separable
//! interpolation with each row's and each column's coordinate steps taken
//! once a tile rather than once an output, compiled per dtype pair and
//! spline order on first use. `interp::transform` hands its 2-D
//! per-axis mappings here.

use gpu_array::kernels::{input, output};
use gpu_array::{Array, DType, Result};
use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::{KernelSignature, TypedKernel};

const SOURCE: &str = include_str!("kernels/zoom.cu");

/// Threads a block (a tile's columns).
const THREADS: u32 = 256;

/// Rows a tile (`CUPRUM_ZOOM_ROWS`).
const ROWS: usize = 32;

gpu_runtime::kernel_signature! {
    /// `cuprum_ndimage_zoom2_{in}_{out}_o{order}`: a 2-D array
    /// interpolated at the per-axis coordinates `(o + s) * z + t`.
    pub(crate) struct Zoom2[TI, TO] {
        src: In<TI>,
        dst: Out<TO>,
        params: In<f64>,
        n0: i64,
        n1: i64,
        m0: i64,
        m1: i64,
        mode: i32,
        cval: f64,
        npad: i64,
    }
}

fn zoom2_name(ti: DType, to: DType, order: usize) -> String {
    format!("cuprum_ndimage_zoom2_{}_{}_o{order}", ti.name(), to.name())
}

/// The program of `zoom2` for one dtype pair and spline order.
pub(crate) fn zoom2_request(ti: DType, to: DType, order: usize) -> CompileRequest {
    let name = zoom2_name(ti, to, order);
    let mut src = String::from(crate::interp::SOURCE);
    src += SOURCE;
    src += &Zoom2::prototype(&name, [ti.c_type(), to.c_type()]);
    // Order 1 (zoom's default, and SciPy's most used) asks for four blocks
    // a multiprocessor: 64 registers and 40 bytes of spills where it took
    // 72 (three blocks), and zoom 2x of a 4096^2 float32 image took
    // 0.280 ms where it took 0.341 (H100, the same source beside the
    // unbounded one, the same bits). The other orders spill more under
    // that bound, unmeasured, and keep their own count.
    let bounds = if order == 1 {
        format!("__launch_bounds__({THREADS}, 4)")
    } else {
        String::new()
    };
    src += &format!(
        "CUPRUM_NDIMAGE_ZOOM2({name}, {}, {}, {order}, {bounds})\n",
        ti.c_type(),
        to.c_type()
    );
    crate::interp::exact(gpu_array::kernels::request(src))
}

/// Interpolates `coef` (2-D, C-contiguous, of an interpolation input
/// dtype) into `out` (2-D, C-contiguous, not empty) at the coordinates
/// `params` (float64: per axis `s, z, t`, six values), spline `order`
/// 0..=5, `mode` the kernels' interpolation code.
#[allow(clippy::too_many_arguments)]
pub(crate) fn zoom2(
    coef: &Array,
    out: &Array,
    params: &Array,
    order: usize,
    mode: i32,
    cval: f64,
    npad: usize,
) -> Result<()> {
    let (ti, to) = (coef.dtype(), out.dtype());
    let fits = coef.ndim() == 2
        && out.ndim() == 2
        && coef.is_c_contiguous()
        && out.is_c_contiguous()
        && params.dtype() == DType::Float64
        && params.size() == 6
        && order <= 5
        && coef.size() > 0;
    if !fits {
        return Err(gpu_array::Error::Value(
            "ndimage zoom2: arrays do not fit".into(),
        ));
    }
    let (n, m) = (coef.shape(), out.shape());
    let tiles = m[0].div_ceil(ROWS) * m[1].div_ceil(THREADS as usize);
    if tiles == 0 {
        return Ok(());
    }
    let name = zoom2_name(ti, to, order);
    let k = TypedKernel::<Zoom2>::cached(&name, [ti.c_type(), to.c_type()], || {
        zoom2_request(ti, to, order)
    })?;
    let sms = crate::kernels::multiprocessors(out)?;
    let blocks = tiles.min(sms.saturating_mul(8));
    let args = Zoom2 {
        src: input(coef),
        dst: output(out),
        params: input(params),
        n0: n[0] as i64,
        n1: n[1] as i64,
        m0: m[0] as i64,
        m1: m[1] as i64,
        mode,
        cval,
        npad: npad as i64,
    };
    k.launch(&crate::tiled::grid(blocks, THREADS), &out.stream(), &args)?;
    Ok(())
}
