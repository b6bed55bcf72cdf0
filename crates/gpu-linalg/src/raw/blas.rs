//! cuBLAS calls: (strided-batched) GEMM through `cublasGemm*Ex` and the
//! triangular solve `trsm`.

use gpu_array::DType;
use gpu_runtime::{DevicePtr, Stream};
use gpu_sys::cublas;

use super::handles::{check_blas, with_cublas};
use crate::error::{Result, unsupported};

/// cuBLAS's `cudaDataType` of a dtype GEMM takes.
pub(crate) fn blas_type(dtype: DType) -> Result<cublas::cudaDataType_t> {
    Ok(cublas::cudaDataType_t(match dtype {
        DType::Float16 => 2,
        DType::BFloat16 => 14,
        DType::Float32 => 0,
        DType::Float64 => 1,
        DType::Complex64 => 4,
        DType::Complex128 => 5,
        other => {
            return Err(unsupported(format!(
                "cuBLAS GEMM does not take dtype {other}"
            )));
        }
    }))
}

/// Whether float32 (and complex64) GEMMs may use TF32 tensor cores:
/// `CUPRUM_TF32` set to a positive integer, read on each call (CuPy reads
/// `CUPY_TF32` once per dtype and caches it; here a change takes effect at
/// the next product).
pub(crate) fn tf32_enabled() -> bool {
    tf32_from(std::env::var("CUPRUM_TF32").ok().as_deref())
}

/// `CUPRUM_TF32`'s value (`None`: unset): on for an integer above 0, as
/// CuPy's `int(CUPY_TF32) > 0`; a value that is no integer is off, where
/// CuPy's `int()` raises.
fn tf32_from(value: Option<&str>) -> bool {
    value
        .and_then(|v| v.trim().parse::<i64>().ok())
        .is_some_and(|n| n > 0)
}

/// The compute type and the bytes of the scalars 1 and 0 in its scalar
/// type: float16 and bfloat16 accumulate in float32, as CuPy does.
fn compute(dtype: DType) -> Result<(cublas::cublasComputeType_t, Vec<u8>, Vec<u8>)> {
    let f32s = |v: f32| v.to_ne_bytes().to_vec();
    let f64s = |v: f64| v.to_ne_bytes().to_vec();
    let c32 = |v: f32| [v.to_ne_bytes(), 0f32.to_ne_bytes()].concat();
    let c64 = |v: f64| [v.to_ne_bytes(), 0f64.to_ne_bytes()].concat();
    let tf32 = tf32_enabled();
    let c32f = if tf32 {
        cublas::cublasComputeType_t::CUBLAS_COMPUTE_32F_FAST_TF32
    } else {
        cublas::cublasComputeType_t::CUBLAS_COMPUTE_32F
    };
    Ok(match dtype {
        DType::Float16 | DType::BFloat16 => (
            cublas::cublasComputeType_t::CUBLAS_COMPUTE_32F,
            f32s(1.0),
            f32s(0.0),
        ),
        DType::Float32 => (c32f, f32s(1.0), f32s(0.0)),
        DType::Complex64 => (c32f, c32(1.0), c32(0.0)),
        DType::Float64 => (
            cublas::cublasComputeType_t::CUBLAS_COMPUTE_64F,
            f64s(1.0),
            f64s(0.0),
        ),
        DType::Complex128 => (
            cublas::cublasComputeType_t::CUBLAS_COMPUTE_64F,
            c64(1.0),
            c64(0.0),
        ),
        other => {
            return Err(unsupported(format!(
                "cuBLAS GEMM does not take dtype {other}"
            )));
        }
    })
}

/// One operand of a column-major GEMM: its address, whether cuBLAS reads
/// it transposed, its leading dimension and its batch stride (elements).
#[derive(Debug, Clone, Copy)]
pub(crate) struct GemmOperand {
    pub ptr: DevicePtr,
    pub trans: bool,
    pub ld: i64,
    pub batch_stride: i64,
}

/// `C[b] = op(A[b]) @ op(B[b])` for `b < batch`, column-major, all of
/// `dtype`; `C` is `m x n` with leading dimension `ldc` and batch stride
/// `stride_c`.
///
/// The caller guarantees that every matrix lies inside live device memory
/// of `stream`'s device as its operand describes (`ld` at least the rows of
/// the stored matrix), that `C` overlaps neither input, and that the sizes
/// fit cuBLAS's 32-bit arguments (checked here) .
#[allow(clippy::too_many_arguments)]
pub(crate) fn gemm(
    stream: &Stream,
    dtype: DType,
    (m, n, k): (i64, i64, i64),
    a: GemmOperand,
    b: GemmOperand,
    c: DevicePtr,
    ldc: i64,
    stride_c: i64,
    batch: i64,
) -> Result<()> {
    let ty = blas_type(dtype)?;
    let (ctype, one, zero) = compute(dtype)?;
    let i32_of = |v: i64, what: &str| -> Result<i32> {
        i32::try_from(v).map_err(|_| {
            unsupported(format!(
                "matmul: {what} = {v} exceeds cuBLAS's 32-bit argument range"
            ))
        })
    };
    let (m32, n32, k32) = (i32_of(m, "m")?, i32_of(n, "n")?, i32_of(k, "k")?);
    let (lda, ldb, ldc32) = (
        i32_of(a.ld, "lda")?,
        i32_of(b.ld, "ldb")?,
        i32_of(ldc, "ldc")?,
    );
    let batch32 = i32_of(batch, "batch count")?;
    let op = |t: bool| {
        if t {
            cublas::cublasOperation_t::CUBLAS_OP_T
        } else {
            cublas::cublasOperation_t::CUBLAS_OP_N
        }
    };
    let algo = cublas::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT;
    with_cublas(stream, |h| {
        if batch == 1 {
            // SAFETY: as the function's contract; alpha and beta are host
            // scalars of the compute type (host pointer mode, the default),
            // read before the call returns.
            check_blas("cublasGemmEx", unsafe {
                cublas::cublasGemmEx(
                    h,
                    op(a.trans),
                    op(b.trans),
                    m32,
                    n32,
                    k32,
                    one.as_ptr().cast(),
                    a.ptr.raw() as *const _,
                    ty,
                    lda,
                    b.ptr.raw() as *const _,
                    ty,
                    ldb,
                    zero.as_ptr().cast(),
                    c.raw() as *mut _,
                    ty,
                    ldc32,
                    ctype,
                    algo,
                )
            })
        } else {
            // SAFETY: as above, for every matrix of the batch.
            check_blas("cublasGemmStridedBatchedEx", unsafe {
                cublas::cublasGemmStridedBatchedEx(
                    h,
                    op(a.trans),
                    op(b.trans),
                    m32,
                    n32,
                    k32,
                    one.as_ptr().cast(),
                    a.ptr.raw() as *const _,
                    ty,
                    lda,
                    a.batch_stride,
                    b.ptr.raw() as *const _,
                    ty,
                    ldb,
                    b.batch_stride,
                    zero.as_ptr().cast(),
                    c.raw() as *mut _,
                    ty,
                    ldc32,
                    stride_c,
                    batch32,
                    ctype,
                    algo,
                )
            })
        }
    })
}

/// Options of a triangular solve with many right-hand sides.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Trsm {
    /// `op(A) X = B` (left) or `X op(A) = B` (right).
    pub left: bool,
    /// The triangle of `A` that is read.
    pub upper: bool,
    /// 0: `A`, 1: `A^T`, 2: `A^H`.
    pub trans: u32,
    /// The diagonal is taken as ones.
    pub unit_diagonal: bool,
}

/// Solves in place `op(A) X = B` (or `X op(A) = B`), column-major: `A`
/// is `m x m` (left) or `n x n` (right) with leading dimension `lda`, `B`
/// is `m x n` with `ldb`. The caller guarantees the matrices lie in live
/// memory of `stream`'s device as described.
#[allow(clippy::too_many_arguments)]
pub(crate) fn trsm(
    stream: &Stream,
    dtype: DType,
    opts: Trsm,
    (m, n): (i64, i64),
    a: DevicePtr,
    lda: i64,
    b: DevicePtr,
    ldb: i64,
) -> Result<()> {
    let to32 = |v: i64| {
        i32::try_from(v).map_err(|_| {
            unsupported(format!(
                "solve_triangular: {v} exceeds cuBLAS's 32-bit argument range"
            ))
        })
    };
    let (m, n, lda, ldb) = (to32(m)?, to32(n)?, to32(lda)?, to32(ldb)?);
    let side = if opts.left {
        cublas::cublasSideMode_t::CUBLAS_SIDE_LEFT
    } else {
        cublas::cublasSideMode_t::CUBLAS_SIDE_RIGHT
    };
    let uplo = if opts.upper {
        cublas::cublasFillMode_t::CUBLAS_FILL_MODE_UPPER
    } else {
        cublas::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER
    };
    let trans = cublas::cublasOperation_t(opts.trans);
    let diag = if opts.unit_diagonal {
        cublas::cublasDiagType_t::CUBLAS_DIAG_UNIT
    } else {
        cublas::cublasDiagType_t::CUBLAS_DIAG_NON_UNIT
    };
    with_cublas(stream, |h| {
        macro_rules! call {
            ($name:literal, $f:ident, $t:ty, $one:expr) => {{
                let one: $t = $one;
                // SAFETY: as the function's contract; alpha is a host
                // scalar of the element type, read before the call returns.
                check_blas($name, unsafe {
                    cublas::$f(
                        h,
                        side,
                        uplo,
                        trans,
                        diag,
                        m,
                        n,
                        &one,
                        a.raw() as *const $t,
                        lda,
                        b.raw() as *mut $t,
                        ldb,
                    )
                })
            }};
        }
        super::sdcz!(
            dtype,
            "solve_triangular",
            call,
            ["cublasStrsm", cublasStrsm_v2, f32, 1f32],
            ["cublasDtrsm", cublasDtrsm_v2, f64, 1f64],
            [
                "cublasCtrsm",
                cublasCtrsm_v2,
                cublas::float2,
                cublas::float2 { x: 1.0, y: 0.0 }
            ],
            [
                "cublasZtrsm",
                cublasZtrsm_v2,
                cublas::double2,
                cublas::double2 { x: 1.0, y: 0.0 }
            ],
        )
    })
}

/// LU factorization with partial pivoting, in place, of `batch` `n x n`
/// column-major matrices whose addresses are the device array `a_ptrs`
/// (`cublas<t>getrfBatched`, fast for small `n`): 1-based `int32` pivots
/// into `piv` (`n` per matrix), one `int` per matrix into `info`. The
/// caller guarantees the arrays hold what they describe, on `stream`'s
/// device.
#[allow(clippy::too_many_arguments)]
pub(crate) fn getrf_batched(
    stream: &Stream,
    dtype: DType,
    n: i64,
    (a_ptrs, lda): (DevicePtr, i64),
    piv: DevicePtr,
    info: DevicePtr,
    batch: i64,
) -> Result<()> {
    let to32 = |v: i64| super::int32("getrfBatched", v);
    let (n, lda, batch) = (to32(n)?, to32(lda)?, to32(batch)?);
    let p = piv.raw() as *mut i32;
    let inf = info.raw() as *mut i32;
    macro_rules! call {
        ($f:ident, $t:ty) => {
            with_cublas(stream, |h| {
                // SAFETY: the function's contract.
                check_blas(stringify!($f), unsafe {
                    cublas::$f(h, n, a_ptrs.raw() as *const *mut $t, lda, p, inf, batch)
                })
            })
        };
    }
    super::sdcz!(
        dtype,
        "getrfBatched",
        call,
        [cublasSgetrfBatched, f32],
        [cublasDgetrfBatched, f64],
        [cublasCgetrfBatched, cublas::float2],
        [cublasZgetrfBatched, cublas::double2],
    )
}

/// Solves `op(A_i) X_i = B_i` in place of each `B_i` (`n x nrhs`,
/// column-major, addresses in `b_ptrs`) from [`getrf_batched`]'s factors;
/// `trans` 0: `A`, 1: `A^T`, 2: `A^H`. Same contract as
/// [`getrf_batched`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn getrs_batched(
    stream: &Stream,
    dtype: DType,
    trans: u32,
    (n, nrhs): (i64, i64),
    (a_ptrs, lda): (DevicePtr, i64),
    piv: DevicePtr,
    (b_ptrs, ldb): (DevicePtr, i64),
    batch: i64,
) -> Result<()> {
    let to32 = |v: i64| super::int32("getrsBatched", v);
    let (n, nrhs, lda, ldb, batch) = (to32(n)?, to32(nrhs)?, to32(lda)?, to32(ldb)?, to32(batch)?);
    let op = cublas::cublasOperation_t(trans);
    let p = piv.raw() as *const i32;
    // getrsBatched reports bad arguments in a host word.
    let mut host_info = 0i32;
    macro_rules! call {
        ($f:ident, $t:ty) => {
            with_cublas(stream, |h| {
                // SAFETY: the function's contract; `host_info` is a host
                // word written before the call returns.
                check_blas(stringify!($f), unsafe {
                    cublas::$f(
                        h,
                        op,
                        n,
                        nrhs,
                        a_ptrs.raw() as *const *const $t,
                        lda,
                        p,
                        b_ptrs.raw() as *const *mut $t,
                        ldb,
                        &mut host_info,
                        batch,
                    )
                })
            })
        };
    }
    super::sdcz!(
        dtype,
        "getrsBatched",
        call,
        [cublasSgetrsBatched, f32],
        [cublasDgetrsBatched, f64],
        [cublasCgetrsBatched, cublas::float2],
        [cublasZgetrsBatched, cublas::double2],
    )?;
    host_info_ok("getrsBatched", host_info)
}

/// The host `info` word of a batched cuBLAS routine that checks its
/// arguments there (`getrsBatched`, `geqrfBatched`): `-i` names the bad
/// argument `i`, which only a bug of Cuprum can pass.
fn host_info_ok(routine: &str, host_info: i32) -> Result<()> {
    if host_info != 0 {
        return Err(unsupported(format!(
            "{routine} rejected argument {} (a bug of Cuprum)",
            -host_info
        )));
    }
    Ok(())
}

/// Householder QR factorizations in place of `batch` `m x n` column-major
/// matrices whose addresses are the device array `a_ptrs`
/// (`cublas<t>geqrfBatched`, for small matrices): `R` on and above the
/// diagonal, the reflectors below it, and `min(m, n)` scalars into each of
/// the `tau` vectors whose addresses are `tau_ptrs` (LAPACK's `geqrf`
/// layout). Same contract as [`getrf_batched`].
pub(crate) fn geqrf_batched(
    stream: &Stream,
    dtype: DType,
    (m, n): (i64, i64),
    (a_ptrs, lda): (DevicePtr, i64),
    tau_ptrs: DevicePtr,
    batch: i64,
) -> Result<()> {
    let to32 = |v: i64| super::int32("geqrfBatched", v);
    let (m, n, lda, batch) = (to32(m)?, to32(n)?, to32(lda)?, to32(batch)?);
    // geqrfBatched reports bad arguments in a host word (it has no
    // numerical failure to report).
    let mut host_info = 0i32;
    macro_rules! call {
        ($f:ident, $t:ty) => {
            with_cublas(stream, |h| {
                // SAFETY: the function's contract; `host_info` is a host
                // word written before the call returns.
                check_blas(stringify!($f), unsafe {
                    cublas::$f(
                        h,
                        m,
                        n,
                        a_ptrs.raw() as *const *mut $t,
                        lda,
                        tau_ptrs.raw() as *const *mut $t,
                        &mut host_info,
                        batch,
                    )
                })
            })
        };
    }
    super::sdcz!(
        dtype,
        "geqrfBatched",
        call,
        [cublasSgeqrfBatched, f32],
        [cublasDgeqrfBatched, f64],
        [cublasCgeqrfBatched, cublas::float2],
        [cublasZgeqrfBatched, cublas::double2],
    )?;
    host_info_ok("geqrfBatched", host_info)
}

#[cfg(test)]
mod tests {
    /// `CUPRUM_TF32` as CuPy reads `CUPY_TF32` (tested on the parser: the
    /// process's environment is shared by every test).
    #[test]
    fn cuprum_tf32_values() {
        for on in ["1", " 1\n", "2", "+3"] {
            assert!(super::tf32_from(Some(on)), "{on:?}");
        }
        for off in [None, Some("0"), Some("-1"), Some(""), Some("true")] {
            assert!(!super::tf32_from(off), "{off:?}");
        }
    }
}
