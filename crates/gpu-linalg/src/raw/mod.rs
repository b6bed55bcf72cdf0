//! The crate's one door to `unsafe`: the cuBLAS and cuSOLVER handles and
//! calls, and the launches of the crate's own kernels.
#![allow(unsafe_code)]

/// One cuBLAS or cuSOLVER entry point in its S, D, C or Z form for a
/// dtype: `sdcz!(dtype, "what", call, [float32 args], [float64 args],
/// [complex64 args], [complex128 args])` runs the caller's local macro
/// `call!` with the arguments of the dtype's form; any other dtype is
/// `Unsupported`, naming `what`. The one dispatch of every typed call.
macro_rules! sdcz {
    ($dtype:expr, $what:expr, $call:ident,
     [$($s:tt)*], [$($d:tt)*], [$($c:tt)*], [$($z:tt)*] $(,)?) => {
        match $dtype {
            gpu_array::DType::Float32 => $call!($($s)*),
            gpu_array::DType::Float64 => $call!($($d)*),
            gpu_array::DType::Complex64 => $call!($($c)*),
            gpu_array::DType::Complex128 => $call!($($z)*),
            other => Err($crate::error::unsupported(format!(
                "{} does not take dtype {other}",
                $what
            ))),
        }
    };
}
pub(crate) use sdcz;

pub(crate) mod blas;
pub(crate) mod handles;
pub(crate) mod solver;

use gpu_runtime::{DevicePtr, LaunchConfig, RawKernel, Stream};

use crate::error::{Result, unsupported};
use crate::kernels::IntOperand;

/// `v` as a 32-bit argument of the library routine `routine`, or an
/// `Unsupported` error naming the routine.
fn int32(routine: &str, v: i64) -> Result<i32> {
    i32::try_from(v).map_err(|_| unsupported(format!("{routine}: {v} exceeds 32 bits")))
}

/// Launches `cuprum_linalg_imatmul_*` (`kernels`).
pub(crate) fn launch_imatmul(
    kernel: &RawKernel,
    cfg: LaunchConfig,
    stream: &Stream,
    [a, b, c]: [DevicePtr; 3],
    (m, n, k, batch): (i64, i64, i64, i64),
    sa: IntOperand,
    sb: IntOperand,
) -> Result<()> {
    // SAFETY: the arguments match the kernel's (three pointers, ten long
    // longs). The caller (`products::matmul`) passes operands of the
    // kernel's element type whose `batch x m x k` and `batch x k x n`
    // elements at these element strides lie inside live arrays of this
    // device, and a C-contiguous output of `batch x m x n` elements that
    // overlaps neither; the kernel checks every index against m, n, k and
    // batch. The arrays are freed in stream order, after the launch.
    unsafe {
        kernel.launch(
            &cfg,
            stream,
            &gpu_runtime::kernel_args![
                a, b, c, m, n, k, batch, sa.batch, sa.row, sa.col, sb.batch, sb.row, sb.col
            ],
        )
    }?;
    Ok(())
}

/// Launches `cuprum_linalg_lu_slogdet_*` (`kernels`).
pub(crate) fn launch_slogdet(
    kernel: &RawKernel,
    cfg: LaunchConfig,
    stream: &Stream,
    [lu, ipiv, sign, logdet]: [DevicePtr; 4],
    [n, mstride, ld]: [i64; 3],
) -> Result<()> {
    // SAFETY: the arguments match the kernel's (four pointers, three long
    // longs). The caller (`decomp::lu`) passes one block per matrix: LU
    // factors of `grid.x` matrices `mstride` elements apart with leading
    // dimension `ld >= n`, `grid.x * n` int64 pivots, and outputs of
    // `grid.x` elements of the kernel's types; the block is 256 threads, as
    // the kernel's shared arrays assume.
    unsafe {
        kernel.launch(
            &cfg,
            stream,
            &gpu_runtime::kernel_args![lu, ipiv, sign, logdet, n, mstride, ld],
        )
    }?;
    Ok(())
}

/// Launches `cuprum_linalg_pivot_perm` (`kernels`).
pub(crate) fn launch_pivot_perm(
    kernel: &RawKernel,
    cfg: LaunchConfig,
    stream: &Stream,
    [ipiv, perm]: [DevicePtr; 2],
    n: i64,
) -> Result<()> {
    // SAFETY: the arguments match the kernel's (two pointers, one long
    // long). The caller (`kernels::launch_pivot_perm`) passes one block
    // per matrix, `n <= PERM_MAX` (the kernel's shared arrays), and
    // buffers of `grid.x * n` int64 pivots and indices on this device;
    // pivots outside 1..=n are ignored by the kernel, not followed.
    unsafe { kernel.launch(&cfg, stream, &gpu_runtime::kernel_args![ipiv, perm, n]) }?;
    Ok(())
}

/// Launches `cuprum_linalg_orgqr_*` (`kernels`).
pub(crate) fn launch_orgqr(
    kernel: &RawKernel,
    cfg: LaunchConfig,
    stream: &Stream,
    [q, tau]: [DevicePtr; 2],
    [m, n, k, mstride, ld, batch]: [i64; 6],
) -> Result<()> {
    // SAFETY: the arguments match the kernel's (two pointers, six long
    // longs). The caller (`decomp::qr`) passes `batch` column-major
    // `m x n` matrices of the kernel's element type, `mstride` elements
    // apart with leading dimension `ld >= m`, inside one live array of
    // this device, and `batch * k` scalars in another, `k <= min(m, n)`;
    // the kernel touches only rows below `m` and columns below `n` of
    // each. The arrays are freed in stream order, after the launch.
    unsafe {
        kernel.launch(
            &cfg,
            stream,
            &gpu_runtime::kernel_args![q, tau, m, n, k, mstride, ld, batch],
        )
    }?;
    Ok(())
}
