//! Cuprum's own CUDA kernels of the crate, for what cuBLAS and cuSOLVER do
//! not do: integer and boolean matmul (NumPy accepts them, cuBLAS does
//! not), the determinant's reduction over an LU factorization, and the
//! formation of `Q` from Householder reflectors for a stack of small
//! matrices (cuSOLVER's `orgqr` takes one matrix per call, and cuBLAS has
//! `geqrfBatched` but no batched `orgqr`).
//!
//! One NVRTC program per dtype, with gpu-array's device headers (complex
//! matrices are `cuprum::complex<R>`, and dtypes name their C types by
//! `DType::c_type`, as every Cuprum kernel does), compiled on first use and
//! cached for the process (and on disk by the runtime's kernel cache).

use std::sync::Arc;

use gpu_array::DType;
use gpu_runtime::{DevicePtr, LaunchConfig, RawKernel, Stream};

use crate::error::{Result, unsupported};

/// Largest matrix order whose row order [`launch_pivot_perm`] builds (the
/// kernel's two shared arrays of `int`, 48 KiB together).
pub const PERM_MAX: usize = 6144;
/// Threads per block of the pivot-order kernel.
const PERM_BLOCK: u32 = 256;

/// Side of the square tiles of the integer matmul (threads per block are
/// `TILE * TILE`).
pub const TILE: u32 = 16;
/// Threads per block of the determinant kernel.
pub const DET_BLOCK: u32 = 256;
/// Threads per block of the batched `orgqr` kernel (one block per
/// matrix; the threads share the columns, then the rows).
pub const ORGQR_BLOCK: u32 = 64;

const COMMON: &str = include_str!("kernels.cu");

/// The name of the integer matmul kernel of `dtype`.
pub fn imatmul_name(dtype: DType) -> String {
    format!("cuprum_linalg_imatmul_{}", dtype.name())
}

/// The name of the slogdet kernel of `dtype`.
pub fn slogdet_name(dtype: DType) -> String {
    format!("cuprum_linalg_lu_slogdet_{}", dtype.name())
}

/// The name of the batched `orgqr` kernel of `dtype`.
pub fn orgqr_name(dtype: DType) -> String {
    format!("cuprum_linalg_orgqr_{}", dtype.name())
}

/// The dtypes the integer matmul kernel is instantiated for.
pub const IMATMUL_DTYPES: [DType; 9] = [
    DType::Bool,
    DType::Int8,
    DType::Int16,
    DType::Int32,
    DType::Int64,
    DType::UInt8,
    DType::UInt16,
    DType::UInt32,
    DType::UInt64,
];

/// The dtypes the slogdet kernel is instantiated for.
pub const SLOGDET_DTYPES: [DType; 4] = [
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
];

/// The dtypes the batched `orgqr` kernel is instantiated for (those of
/// the factorizations, as the slogdet kernel's).
pub const ORGQR_DTYPES: [DType; 4] = SLOGDET_DTYPES;

fn orgqr_instance(dtype: DType) -> Option<String> {
    if !ORGQR_DTYPES.contains(&dtype) {
        return None;
    }
    let t = dtype.c_type();
    Some(format!(
        "extern \"C\" __global__ void __launch_bounds__({ORGQR_BLOCK}) {name}({t}* q, const {t}* tau, \
         long long m, long long n, long long k, long long mstride, long long ld, long long batch) {{\n  \
         org2r<{t}>(q, tau, m, n, k, mstride, ld, batch);\n}}\n",
        name = orgqr_name(dtype)
    ))
}

fn imatmul_instance(dtype: DType) -> Option<String> {
    if !IMATMUL_DTYPES.contains(&dtype) {
        return None;
    }
    let t = dtype.c_type();
    Some(format!(
        "extern \"C\" __global__ void __launch_bounds__(256) {name}(const {t}* A, const {t}* B, {t}* C, \
         long long M, long long N, long long K, long long batch, long long sab, long long sam, \
         long long sak, long long sbb, long long sbk, long long sbn) {{\n  \
         imatmul<{t}>(A, B, C, M, N, K, batch, sab, sam, sak, sbb, sbk, sbn);\n}}\n",
        name = imatmul_name(dtype)
    ))
}

fn slogdet_instance(dtype: DType) -> Option<String> {
    if !SLOGDET_DTYPES.contains(&dtype) {
        return None;
    }
    let t = dtype.c_type();
    let r = dtype.real_dtype().c_type();
    Some(format!(
        "extern \"C\" __global__ void __launch_bounds__(256) {name}(const {t}* lu, const long long* ipiv, \
         {t}* sign, {r}* logdet, long long n, long long mstride, long long ld) {{\n  \
         lu_slogdet<{t}, {r}>(lu, ipiv, sign, logdet, n, mstride, ld);\n}}\n",
        name = slogdet_name(dtype)
    ))
}

/// The program holding every kernel of the given dtypes (the nvrtc test
/// compiles all of them in one program).
pub fn program_source(imatmul: &[DType], slogdet: &[DType], orgqr: &[DType]) -> String {
    let mut s = COMMON.to_string();
    for &d in imatmul {
        s.push_str(&imatmul_instance(d).unwrap_or_default());
    }
    for &d in slogdet {
        s.push_str(&slogdet_instance(d).unwrap_or_default());
    }
    for &d in orgqr {
        s.push_str(&orgqr_instance(d).unwrap_or_default());
    }
    s
}

fn kernel(name: String, source: String) -> Result<Arc<RawKernel>> {
    Ok(RawKernel::cached(&name, || {
        RawKernel::from_request(gpu_array::kernels::request(source), &name)
    })?)
}

/// Element strides of the integer matmul's operands: batch, row, column.
#[derive(Debug, Clone, Copy)]
pub(crate) struct IntOperand {
    pub ptr: DevicePtr,
    pub batch: i64,
    pub row: i64,
    pub col: i64,
}

/// Launches the integer matmul over `batch` products of `m x k` by
/// `k x n` into the contiguous `c`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn launch_imatmul(
    stream: &Stream,
    dtype: DType,
    (m, n, k): (i64, i64, i64),
    batch: i64,
    a: IntOperand,
    b: IntOperand,
    c: DevicePtr,
) -> Result<()> {
    let src = imatmul_instance(dtype)
        .ok_or_else(|| unsupported(format!("integer matmul does not take dtype {dtype}")))?;
    let k_ = kernel(imatmul_name(dtype), format!("{COMMON}{src}"))?;
    let gx = u32::try_from((n as u64).div_ceil(TILE as u64)).ok();
    let gy = u32::try_from((m as u64).div_ceil(TILE as u64))
        .ok()
        .filter(|&g| g <= 65535);
    let (Some(gx), Some(gy)) = (gx, gy) else {
        return Err(unsupported(format!(
            "integer matmul: a {m} x {n} result exceeds one launch's grid"
        )));
    };
    let gz = batch.clamp(1, 65535) as u32;
    let cfg = LaunchConfig::new((gx, gy, gz), (TILE, TILE, 1));
    crate::raw::launch_imatmul(&k_, cfg, stream, [a.ptr, b.ptr, c], (m, n, k, batch), a, b)
}

/// Launches the slogdet reduction over `batch` LU factorizations.
#[allow(clippy::too_many_arguments)]
pub(crate) fn launch_slogdet(
    stream: &Stream,
    dtype: DType,
    batch: usize,
    n: i64,
    (lu, mstride, ld): (DevicePtr, i64, i64),
    ipiv: DevicePtr,
    sign: DevicePtr,
    logdet: DevicePtr,
) -> Result<()> {
    let src = slogdet_instance(dtype)
        .ok_or_else(|| unsupported(format!("det does not take dtype {dtype}")))?;
    let k = kernel(slogdet_name(dtype), format!("{COMMON}{src}"))?;
    let blocks = u32::try_from(batch)
        .ok()
        .filter(|&b| b < (1 << 31))
        .ok_or_else(|| unsupported(format!("det: {batch} matrices exceed one launch")))?;
    let cfg = LaunchConfig::new((blocks, 1, 1), (DET_BLOCK, 1, 1));
    crate::raw::launch_slogdet(&k, cfg, stream, [lu, ipiv, sign, logdet], [n, mstride, ld])
}

/// Launches the pivot-order kernel over `batch` matrices of order
/// `n <= PERM_MAX`: `ipiv` holds getrf's `batch * n` 1-based int64
/// pivots, `perm` receives `batch * n` int64 row indices into the stacked
/// `(batch * n, k)` solution (see `cuprum_linalg_pivot_perm`).
pub(crate) fn launch_pivot_perm(
    stream: &Stream,
    ipiv: DevicePtr,
    perm: DevicePtr,
    n: usize,
    batch: usize,
) -> Result<()> {
    if n > PERM_MAX {
        return Err(unsupported(format!(
            "pivot order: {n} rows exceed the kernel's {PERM_MAX}"
        )));
    }
    let k = kernel("cuprum_linalg_pivot_perm".into(), COMMON.into())?;
    let blocks = u32::try_from(batch)
        .ok()
        .filter(|&b| b < (1 << 31))
        .ok_or_else(|| unsupported(format!("solve: {batch} matrices exceed one launch")))?;
    let cfg = LaunchConfig::new((blocks.max(1), 1, 1), (PERM_BLOCK, 1, 1));
    crate::raw::launch_pivot_perm(&k, cfg, stream, [ipiv, perm], n as i64)
}

/// Forms in place the first `n` columns of `Q` of each of `batch`
/// column-major `m x n` matrices (`mstride` elements apart, leading
/// dimension `ld >= m`) whose first `k <= min(m, n)` columns hold
/// `geqrf`'s reflectors, `tau` holding `k` scalars per matrix.
#[allow(clippy::too_many_arguments)]
pub(crate) fn launch_orgqr(
    stream: &Stream,
    dtype: DType,
    (m, n, k): (i64, i64, i64),
    (q, mstride, ld): (DevicePtr, i64, i64),
    tau: DevicePtr,
    batch: usize,
) -> Result<()> {
    let src = orgqr_instance(dtype)
        .ok_or_else(|| unsupported(format!("qr does not take dtype {dtype}")))?;
    let kern = kernel(orgqr_name(dtype), format!("{COMMON}{src}"))?;
    // A grid-stride loop covers stacks beyond one launch's blocks.
    let blocks = batch.clamp(1, 1 << 20) as u32;
    let cfg = LaunchConfig::new((blocks, 1, 1), (ORGQR_BLOCK, 1, 1));
    crate::raw::launch_orgqr(
        &kern,
        cfg,
        stream,
        [q, tau],
        [m, n, k, mstride, ld, batch as i64],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instances_cover_their_dtypes() {
        for d in IMATMUL_DTYPES {
            let s = imatmul_instance(d).unwrap();
            assert!(s.contains(&imatmul_name(d)));
        }
        assert!(imatmul_instance(DType::Float32).is_none());
        for d in SLOGDET_DTYPES {
            assert!(slogdet_instance(d).unwrap().contains(&slogdet_name(d)));
        }
        assert!(slogdet_instance(DType::Int32).is_none());
        for d in ORGQR_DTYPES {
            assert!(orgqr_instance(d).unwrap().contains(&orgqr_name(d)));
        }
        assert!(orgqr_instance(DType::Float16).is_none());
        let all = program_source(&IMATMUL_DTYPES, &SLOGDET_DTYPES, &ORGQR_DTYPES);
        assert_eq!(all.matches("extern \"C\"").count(), 18);
    }
}
