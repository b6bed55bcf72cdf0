//! Cuprum's own CUDA kernels of the crate, for what cuBLAS and cuSOLVER do
//! not do: integer and boolean matmul (NumPy accepts them, cuBLAS does
//! not), the determinant's reduction over an LU factorization, and the
//! formation of `Q` from Householder reflectors for a stack of small
//! matrices (cuSOLVER's `orgqr` takes one matrix per call, and cuBLAS has
//! `geqrfBatched` but no batched `orgqr`).
//!
//! The source is self-contained (no headers): one NVRTC program per dtype,
//! compiled on first use and cached for the process (and on disk by the
//! runtime's kernel cache).

use std::sync::Arc;

use gpu_array::DType;
use gpu_runtime::nvrtc::CompileRequest;
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

const COMMON: &str = r#"
template <typename R> struct cuprum_cplx { R re, im; };

// The row order of a right-side LU solve (`decomp::lu`): from the
// identity, getrf's interchanges (1-based int64, `n` per matrix) applied
// last to first; perm[b * n + r] = b * n + the row of the unpermuted
// solution that belongs in row r. One block per matrix: every thread
// stages the pivots in shared memory, one applies the interchanges (they
// are sequential), every thread writes the order out.
#define CUPRUM_PERM_MAX 6144
extern "C" __global__ void __launch_bounds__(256) cuprum_linalg_pivot_perm(
    const long long* __restrict__ ipiv, long long* __restrict__ perm, long long n) {
  __shared__ int s_idx[CUPRUM_PERM_MAX], s_piv[CUPRUM_PERM_MAX];
  const long long base = (long long)blockIdx.x * n;
  const int m = (int)n;
  for (int i = threadIdx.x; i < m; i += blockDim.x) {
    const long long p = ipiv[base + i] - 1;
    s_idx[i] = i;
    s_piv[i] = p >= 0 && p < n ? (int)p : i;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int i = m - 1; i >= 0; --i) {
      const int j = s_piv[i];
      const int t = s_idx[i];
      s_idx[i] = s_idx[j];
      s_idx[j] = t;
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < m; i += blockDim.x) perm[base + i] = base + s_idx[i];
}

// Integer matmul: C[b] = A[b] @ B[b] with arbitrary element strides for A
// and B, C contiguous (batch, M, N). Accumulation is modulo 2^64 in
// unsigned arithmetic, which after the final narrowing equals NumPy's
// wrap-around accumulation in the result type; bool is OR of ANDs.
template <typename T>
struct imatmul_acc {
  typedef unsigned long long type;
  static __device__ __forceinline__ type zero() { return 0ull; }
  static __device__ __forceinline__ type fma(type acc, T a, T b) {
    return acc + (unsigned long long)(long long)a * (unsigned long long)(long long)b;
  }
  static __device__ __forceinline__ T out(type acc) { return (T)acc; }
};
template <>
struct imatmul_acc<bool> {
  typedef bool type;
  static __device__ __forceinline__ type zero() { return false; }
  static __device__ __forceinline__ type fma(type acc, bool a, bool b) { return acc || (a && b); }
  static __device__ __forceinline__ bool out(type acc) { return acc; }
};
template <>
struct imatmul_acc<unsigned long long> {
  typedef unsigned long long type;
  static __device__ __forceinline__ type zero() { return 0ull; }
  static __device__ __forceinline__ type fma(type acc, unsigned long long a, unsigned long long b) {
    return acc + a * b;
  }
  static __device__ __forceinline__ unsigned long long out(type acc) { return acc; }
};

template <typename T>
__device__ __forceinline__ void imatmul(
    const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C,
    long long M, long long N, long long K, long long batch,
    long long sab, long long sam, long long sak,
    long long sbb, long long sbk, long long sbn) {
  typedef imatmul_acc<T> Acc;
  __shared__ T As[16][17];
  __shared__ T Bs[16][17];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const long long row = (long long)blockIdx.y * 16 + ty;
  const long long col = (long long)blockIdx.x * 16 + tx;
  for (long long b = blockIdx.z; b < batch; b += gridDim.z) {
    const T* a = A + b * sab;
    const T* bm = B + b * sbb;
    typename Acc::type acc = Acc::zero();
    for (long long k0 = 0; k0 < K; k0 += 16) {
      const long long ka = k0 + tx, kb = k0 + ty;
      As[ty][tx] = (row < M && ka < K) ? a[row * sam + ka * sak] : T(0);
      Bs[ty][tx] = (kb < K && col < N) ? bm[kb * sbk + col * sbn] : T(0);
      __syncthreads();
#pragma unroll
      for (int kk = 0; kk < 16; ++kk) acc = Acc::fma(acc, As[ty][kk], Bs[kk][tx]);
      __syncthreads();
    }
    if (row < M && col < N) C[(b * M + row) * N + col] = Acc::out(acc);
  }
}

// sign and log|det| of each matrix of a batch from its LU factors (column
// major, leading dimension ld, matrices mstride elements apart) and its
// 1-based int64 pivots: one block per matrix.
template <typename R>
__device__ __forceinline__ void det_item(R d, R& logsum, R& sgn) {
  if (d < R(0)) { sgn = -sgn; }
  logsum += log(fabs(d));
}
template <typename R>
__device__ __forceinline__ void det_item(cuprum_cplx<R> d, R& logsum, cuprum_cplx<R>& sgn) {
  R a = hypot(d.re, d.im);
  logsum += log(a);
  cuprum_cplx<R> u;
  if (a == R(0)) { u.re = R(0); u.im = R(0); } else { u.re = d.re / a; u.im = d.im / a; }
  cuprum_cplx<R> t;
  t.re = sgn.re * u.re - sgn.im * u.im;
  t.im = sgn.re * u.im + sgn.im * u.re;
  sgn = t;
}
template <typename R> __device__ __forceinline__ void set_one(R& s) { s = R(1); }
template <typename R> __device__ __forceinline__ void set_one(cuprum_cplx<R>& s) { s.re = R(1); s.im = R(0); }
template <typename R> __device__ __forceinline__ R mul(R a, R b) { return a * b; }
template <typename R> __device__ __forceinline__ cuprum_cplx<R> mul(cuprum_cplx<R> a, cuprum_cplx<R> b) {
  cuprum_cplx<R> t; t.re = a.re * b.re - a.im * b.im; t.im = a.re * b.im + a.im * b.re; return t;
}
template <typename R> __device__ __forceinline__ bool is_zero(R a) { return a == R(0); }
template <typename R> __device__ __forceinline__ bool is_zero(cuprum_cplx<R> a) { return a.re == R(0) && a.im == R(0); }
template <typename R> __device__ __forceinline__ void neg(R& a) { a = -a; }
template <typename R> __device__ __forceinline__ void neg(cuprum_cplx<R>& a) { a.re = -a.re; a.im = -a.im; }
template <typename R> __device__ __forceinline__ void set_zero(R& s) { s = R(0); }
template <typename R> __device__ __forceinline__ void set_zero(cuprum_cplx<R>& s) { s.re = R(0); s.im = R(0); }

template <typename T, typename R>
__device__ __forceinline__ void lu_slogdet(
    const T* __restrict__ lu, const long long* __restrict__ ipiv,
    T* __restrict__ sign, R* __restrict__ logdet,
    long long n, long long mstride, long long ld) {
  __shared__ T s_sign[256];
  __shared__ R s_log[256];
  __shared__ int s_flip[256];
  __shared__ int s_zero[256];
  const long long b = blockIdx.x;
  const T* m = lu + b * mstride;
  const long long* piv = ipiv + b * n;
  T sg; set_one(sg);
  R lg = R(0);
  int flips = 0, zero = 0;
  for (long long i = threadIdx.x; i < n; i += blockDim.x) {
    T d = m[i * (ld + 1)];
    if (is_zero(d)) zero = 1;
    det_item(d, lg, sg);
    if (piv[i] != i + 1) flips ^= 1;
  }
  s_sign[threadIdx.x] = sg; s_log[threadIdx.x] = lg;
  s_flip[threadIdx.x] = flips; s_zero[threadIdx.x] = zero;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      s_sign[threadIdx.x] = mul(s_sign[threadIdx.x], s_sign[threadIdx.x + s]);
      s_log[threadIdx.x] += s_log[threadIdx.x + s];
      s_flip[threadIdx.x] ^= s_flip[threadIdx.x + s];
      s_zero[threadIdx.x] |= s_zero[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    T out = s_sign[0];
    R l = s_log[0];
    if (s_zero[0]) { set_zero(out); l = log(R(0)); }
    else if (s_flip[0]) neg(out);
    sign[b] = out;
    logdet[b] = l;
  }
}

// Q from Householder reflectors, in place, for each matrix of a stack:
// LAPACK's unblocked org2r/ung2r. Each matrix is m x n column-major
// (leading dimension ld, matrices mstride elements apart) whose first k
// columns hold the reflectors below the diagonal (geqrf's layout), with k
// scalars tau per matrix. On exit it holds the first n columns of
// Q = H(0) H(1) ... H(k-1), H(i) = I - tau[i] v v^H, v = (0.., 1, A[i+1:, i]).
// One block per matrix (grid-stride over the stack).
template <typename R> __device__ __forceinline__ R cj(R a) { return a; }
template <typename R> __device__ __forceinline__ cuprum_cplx<R> cj(cuprum_cplx<R> a) { a.im = -a.im; return a; }
template <typename R> __device__ __forceinline__ R addv(R a, R b) { return a + b; }
template <typename R> __device__ __forceinline__ cuprum_cplx<R> addv(cuprum_cplx<R> a, cuprum_cplx<R> b) {
  a.re += b.re; a.im += b.im; return a;
}
template <typename R> __device__ __forceinline__ R subv(R a, R b) { return a - b; }
template <typename R> __device__ __forceinline__ cuprum_cplx<R> subv(cuprum_cplx<R> a, cuprum_cplx<R> b) {
  a.re -= b.re; a.im -= b.im; return a;
}

template <typename T>
__device__ __forceinline__ void org2r(
    T* __restrict__ qs, const T* __restrict__ taus, long long m, long long n, long long k,
    long long mstride, long long ld, long long batch) {
  for (long long b = blockIdx.x; b < batch; b += gridDim.x) {
    T* a = qs + b * mstride;
    const T* tau = taus + b * k;
    T one; set_one(one);
    T zero; set_zero(zero);
    // Columns k..n-1 start as the unit vectors e_j.
    const long long extra = (n - k) * m;
    for (long long e = threadIdx.x; e < extra; e += blockDim.x) {
      const long long j = k + e / m, r = e % m;
      a[r + j * ld] = (r == j) ? one : zero;
    }
    __syncthreads();
    for (long long i = k - 1; i >= 0; --i) {
      const T t = tau[i];
      const T* v = a + i * ld;
      // H(i) applied from the left to columns i+1..n-1, rows i..m-1:
      // c -= tau * v * (v^H c), with v[i] = 1 (the diagonal holds R).
      for (long long j = i + 1 + threadIdx.x; j < n; j += blockDim.x) {
        T* c = a + j * ld;
        T w = c[i];
        for (long long r = i + 1; r < m; ++r) w = addv(w, mul(cj(v[r]), c[r]));
        const T tw = mul(t, w);
        c[i] = subv(c[i], tw);
        for (long long r = i + 1; r < m; ++r) c[r] = subv(c[r], mul(v[r], tw));
      }
      __syncthreads();
      // Column i itself: -tau * v below, 1 - tau on the diagonal, 0 above.
      T nt = t; neg(nt);
      for (long long r = threadIdx.x; r < m; r += blockDim.x) {
        T* x = a + r + i * ld;
        if (r > i) *x = mul(nt, *x);
        else if (r == i) *x = subv(one, t);
        else *x = zero;
      }
      __syncthreads();
    }
  }
}
"#;

/// The C type of a dtype in this module's kernels.
fn c_type(dtype: DType) -> Option<&'static str> {
    Some(match dtype {
        DType::Bool => "bool",
        DType::Int8 => "signed char",
        DType::Int16 => "short",
        DType::Int32 => "int",
        DType::Int64 => "long long",
        DType::UInt8 => "unsigned char",
        DType::UInt16 => "unsigned short",
        DType::UInt32 => "unsigned int",
        DType::UInt64 => "unsigned long long",
        DType::Float32 => "float",
        DType::Float64 => "double",
        DType::Complex64 => "cuprum_cplx<float>",
        DType::Complex128 => "cuprum_cplx<double>",
        _ => return None,
    })
}

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
    let t = c_type(dtype)?;
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
    let t = c_type(dtype)?;
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
    let t = c_type(dtype)?;
    let r = c_type(dtype.real_dtype())?;
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
        RawKernel::from_request(CompileRequest::new(source), &name)
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
