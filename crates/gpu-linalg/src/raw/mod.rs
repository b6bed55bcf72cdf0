//! The crate's one door to `unsafe`: the cuBLAS and cuSOLVER handles and
//! calls, and vouching for the launches of the crate's own kernels
//! (`kernels`), which makes their `TypedKernel::launch` safe.
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

use gpu_runtime::Vouched;

use crate::error::{Result, unsupported};

/// `v` as a 32-bit argument of the library routine `routine`, or an
/// `Unsupported` error naming the routine.
fn int32(routine: &str, v: i64) -> Result<i32> {
    i32::try_from(v).map_err(|_| unsupported(format!("{routine}: {v} exceeds 32 bits")))
}

// SAFETY: `products::matmul` passes operands of the kernel's element type
// whose `batch x m x k` and `batch x k x n` elements at these element
// strides lie inside live arrays of this device, and a C-contiguous output
// of `batch x m x n` elements that overlaps neither; the kernel checks
// every index against m, n, k and batch. The arrays are freed in stream
// order, after the launch.
unsafe impl Vouched for crate::kernels::Imatmul {}
// SAFETY: `decomp::lu` launches one block per matrix: LU factors of
// `grid.x` matrices `mstride` elements apart with leading dimension
// `ld >= n`, `grid.x * n` int64 pivots, and outputs of `grid.x` elements;
// the block is 256 threads, as the kernel's shared arrays assume.
unsafe impl Vouched for crate::kernels::Slogdet {}
// SAFETY: `kernels::launch_pivot_perm` launches one block per matrix with
// `n <= PERM_MAX` (the kernel's shared arrays) and buffers of `grid.x * n`
// int64 pivots and indices on this device; pivots outside 1..=n are
// ignored by the kernel, not followed.
unsafe impl Vouched for crate::kernels::PivotPerm {}
// SAFETY: `decomp::qr` passes `batch` column-major `m x n` matrices,
// `mstride` elements apart with leading dimension `ld >= m`, inside one
// live array of this device, and `batch * k` scalars in another,
// `k <= min(m, n)`; the kernel touches only rows below `m` and columns below
// `n` of each. The arrays are freed in stream order, after the launch.
unsafe impl Vouched for crate::kernels::Orgqr {}
