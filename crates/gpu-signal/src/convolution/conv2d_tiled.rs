//! convolve2d's tiled kernel (`kernels/conv2d_tile.cuh`) for real floating
//! inputs: the elementwise kernel's sum, term for term, with the input
//! window of a tile of outputs staged in shared memory (each input value
//! read from global memory once a tile rather than once a tap). Kernels
//! up to 7 x 7 get a kernel compiled for their size (on first use, one
//! small program each), whose threads compute several output rows from
//! each shared load.

use gpu_array::kernels::{input, output};
use gpu_array::{Array, DType, Result};
use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::{KernelSignature, LaunchConfig, TypedKernel};

const TILE_CUH: &str = include_str!("../kernels/conv2d_tile.cuh");

/// Output rows and the run of columns per thread of a tile
/// (`CUPRUM_CONV2D_ROWS`, `CUPRUM_CONV2D_RUN`); a block is 32 x ROWS
/// threads.
const ROWS: usize = 8;
const RUN: usize = 4;

/// The largest kernel extent with a fixed-size kernel.
const FIXED_MAX: usize = 7;

/// Output rows a thread of a fixed-size kernel computes: 8 in single
/// precision, 4 in double (registers).
fn rows_per_thread(y: DType) -> usize {
    if y == DType::Float64 { 4 } else { 8 }
}

/// The shared memory a block may take without opting in (48 KiB).
const SHARED_LIMIT: usize = 48 * 1024;

/// The (a, b, output) dtypes with a tiled kernel: real floating inputs
/// whose result type is the output's.
const PAIRS: [(DType, DType, DType); 4] = [
    (DType::Float32, DType::Float32, DType::Float32),
    (DType::Float64, DType::Float64, DType::Float64),
    (DType::Float32, DType::Float64, DType::Float64),
    (DType::Float64, DType::Float32, DType::Float64),
];

gpu_runtime::kernel_signature! {
    /// `cuprum_signal_conv2d_tiled_{a}_{b}_{y}`: y = convolve2d(a, b) over
    /// a tile of outputs per block.
    pub(crate) struct Conv2dTiled[TA, TB, TY] {
        a: In<TA>,
        b: In<TB>,
        y: Out<TY>,
        m: i64,
        n: i64,
        bm: i32,
        bn: i32,
        off0: i64,
        off1: i64,
        ym: i64,
        yn: i64,
        rule: i32,
        fill: f64,
    }
}

fn name(a: DType, b: DType, y: DType) -> String {
    format!(
        "cuprum_signal_conv2d_tiled_{}_{}_{}",
        a.name(),
        b.name(),
        y.name()
    )
}

fn fixed_name(a: DType, b: DType, y: DType, bm: usize, bn: usize) -> String {
    format!("{}_{bm}x{bn}", name(a, b, y))
}

/// Whether a `bm x bn` kernel has a fixed-size kernel.
fn fixed(bm: usize, bn: usize) -> bool {
    bm <= FIXED_MAX && bn <= FIXED_MAX
}

/// The program of one fixed-size kernel.
pub(crate) fn fixed_request(a: DType, b: DType, y: DType, bm: usize, bn: usize) -> CompileRequest {
    let mut src = String::from("#include \"cuprum/types.cuh\"\n");
    src += super::direct::CONVOLVE_CUH;
    src += TILE_CUH;
    let k = fixed_name(a, b, y, bm, bn);
    let types = [a.c_type(), b.c_type(), y.c_type()];
    src += &Conv2dTiled::prototype(&k, types);
    src += &format!(
        "CUPRUM_CONV2D_FIXED({k}, {}, {}, {}, {bm}, {bn}, {})\n",
        types[0],
        types[1],
        types[2],
        rows_per_thread(y)
    );
    gpu_array::kernels::request(src)
}

/// The one NVRTC program of the general tiled kernels, every pair.
pub(crate) fn program_request() -> CompileRequest {
    let mut src = String::from("#include \"cuprum/types.cuh\"\n");
    src += super::direct::CONVOLVE_CUH;
    src += TILE_CUH;
    for (a, b, y) in PAIRS {
        let k = name(a, b, y);
        let types = [a.c_type(), b.c_type(), y.c_type()];
        src += &Conv2dTiled::prototype(&k, types);
        src += &format!(
            "CUPRUM_CONV2D_TILED({k}, {}, {}, {})\n",
            types[0], types[1], types[2]
        );
    }
    gpu_array::kernels::request(src)
}

/// The output rows of a block's tile for a `bm x bn` kernel in `y`.
fn tile_rows(bm: usize, bn: usize, y: DType) -> usize {
    if fixed(bm, bn) {
        ROWS * rows_per_thread(y)
    } else {
        ROWS
    }
}

/// The dynamic shared memory of a block for a `bm x bn` kernel in `y`'s
/// dtype: the kernel, then the tile's input window.
fn shared_bytes(bm: usize, bn: usize, y: DType) -> Option<usize> {
    let window = (tile_rows(bm, bn, y).checked_add(bm)? - 1).checked_mul(32 * RUN + bn - 1)?;
    window
        .checked_add(bm.checked_mul(bn)?)?
        .checked_mul(y.itemsize())
}

/// Whether the tiled kernel takes these operands: C-contiguous 2-D `a`
/// and `b` (non-empty) of a pair of [`PAIRS`] with `y`, and a block's
/// shared memory within the default limit.
pub(crate) fn applies(a: &Array, b: &Array, y: DType) -> bool {
    let pair = PAIRS.contains(&(a.dtype(), b.dtype(), y));
    let layout = a.ndim() == 2 && b.ndim() == 2 && a.is_c_contiguous() && b.is_c_contiguous();
    pair && layout
        && a.size() > 0
        && b.size() > 0
        && shared_bytes(b.shape()[0], b.shape()[1], y).is_some_and(|s| s <= SHARED_LIMIT)
}

/// `y` (C-contiguous, `ym x yn`, non-empty) = the convolution of `a` with
/// `b` at outputs offset by `off` in the full convolution, past `a`'s
/// edges by `rule` (convolve.cuh's boundary codes) with `fill`. The caller
/// checked [`applies`].
pub(crate) fn launch(
    a: &Array,
    b: &Array,
    y: &Array,
    off: [usize; 2],
    rule: i32,
    fill: f64,
) -> Result<()> {
    // `applies` checks the operands' ranks and bounds the shared memory.
    let fits = applies(a, b, y.dtype()) && y.is_c_contiguous() && y.ndim() == 2 && y.size() > 0;
    if !fits {
        return Err(gpu_array::Error::Value(
            "convolve2d: operands do not fit the tiled kernel".into(),
        ));
    }
    let (m, n) = (a.shape()[0], a.shape()[1]);
    let (bm, bn) = (b.shape()[0], b.shape()[1]);
    let (ym, yn) = (y.shape()[0], y.shape()[1]);
    let shared = shared_bytes(bm, bn, y.dtype()).unwrap_or(SHARED_LIMIT);
    let (ta, tb, ty) = (a.dtype(), b.dtype(), y.dtype());
    let types = [ta.c_type(), tb.c_type(), ty.c_type()];
    let k = if fixed(bm, bn) {
        TypedKernel::<Conv2dTiled>::cached(&fixed_name(ta, tb, ty, bm, bn), types, || {
            fixed_request(ta, tb, ty, bm, bn)
        })?
    } else {
        TypedKernel::<Conv2dTiled>::cached(&name(ta, tb, ty), types, program_request)?
    };
    let args = Conv2dTiled {
        a: input(a),
        b: input(b),
        y: output(y),
        m: m as i64,
        n: n as i64,
        bm: bm as i32,
        bn: bn as i32,
        off0: off[0] as i64,
        off1: off[1] as i64,
        ym: ym as i64,
        yn: yn as i64,
        rule,
        fill,
    };
    let ctiles = yn.div_ceil(32 * RUN).min(i32::MAX as usize) as u32;
    let rtiles = ym.div_ceil(tile_rows(bm, bn, ty)).min(65535) as u32;
    let config =
        LaunchConfig::new((ctiles, rtiles, 1), (32, ROWS as u32, 1)).with_shared_mem(shared as u32);
    k.launch(&config, &y.stream(), &args)?;
    Ok(())
}
