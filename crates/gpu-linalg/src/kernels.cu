// Cuprum's own kernels of gpu-linalg (see kernels.rs). Complex matrices
// are cuprum::complex<R> (kernels/cuprum/complex.cuh), the type every
// Cuprum kernel uses for complex64 and complex128.
#include "cuprum/complex.cuh"

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
__device__ __forceinline__ void det_item(cuprum::complex<R> d, R& logsum, cuprum::complex<R>& sgn) {
  R a = hypot(d.re, d.im);
  logsum += log(a);
  sgn = sgn * (a == R(0) ? cuprum::complex<R>(R(0), R(0)) : d / a);
}

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
  T sg = T(1);
  R lg = R(0);
  int flips = 0, zero = 0;
  for (long long i = threadIdx.x; i < n; i += blockDim.x) {
    T d = m[i * (ld + 1)];
    if (d == T(0)) zero = 1;
    det_item(d, lg, sg);
    if (piv[i] != i + 1) flips ^= 1;
  }
  s_sign[threadIdx.x] = sg; s_log[threadIdx.x] = lg;
  s_flip[threadIdx.x] = flips; s_zero[threadIdx.x] = zero;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      s_sign[threadIdx.x] = s_sign[threadIdx.x] * s_sign[threadIdx.x + s];
      s_log[threadIdx.x] += s_log[threadIdx.x + s];
      s_flip[threadIdx.x] ^= s_flip[threadIdx.x + s];
      s_zero[threadIdx.x] |= s_zero[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    T out = s_sign[0];
    R l = s_log[0];
    if (s_zero[0]) { out = T(0); l = log(R(0)); }
    else if (s_flip[0]) out = -out;
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
template <typename T>
__device__ __forceinline__ void org2r(
    T* __restrict__ qs, const T* __restrict__ taus, long long m, long long n, long long k,
    long long mstride, long long ld, long long batch) {
  for (long long b = blockIdx.x; b < batch; b += gridDim.x) {
    T* a = qs + b * mstride;
    const T* tau = taus + b * k;
    const T one = T(1), zero = T(0);
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
        for (long long r = i + 1; r < m; ++r) w = w + cuprum::conj(v[r]) * c[r];
        const T tw = t * w;
        c[i] = c[i] - tw;
        for (long long r = i + 1; r < m; ++r) c[r] = c[r] - v[r] * tw;
      }
      __syncthreads();
      // Column i itself: -tau * v below, 1 - tau on the diagonal, 0 above.
      const T nt = -t;
      for (long long r = threadIdx.x; r < m; r += blockDim.x) {
        T* x = a + r + i * ld;
        if (r > i) *x = nt * *x;
        else if (r == i) *x = one - t;
        else *x = zero;
      }
      __syncthreads();
    }
  }
}

// The kernels of each dtype, with the parameters kernels.rs declares
// (`Imatmul`, `Slogdet`, `Orgqr`; `PivotPerm` for the one above).
#define CUPRUM_LINALG_IMATMUL(NAME, T)                                                             \
  extern "C" __global__ void __launch_bounds__(256) NAME(const T* a, const T* b, T* c, long long m, \
      long long n, long long k, long long batch, long long sab, long long sam, long long sak,      \
      long long sbb, long long sbk, long long sbn) {                                               \
    imatmul<T>(a, b, c, m, n, k, batch, sab, sam, sak, sbb, sbk, sbn);                             \
  }
#define CUPRUM_LINALG_SLOGDET(NAME, T, R)                                                          \
  extern "C" __global__ void __launch_bounds__(256) NAME(const T* lu, const long long* ipiv,       \
      T* sign, R* logdet, long long n, long long mstride, long long ld) {                          \
    lu_slogdet<T, R>(lu, ipiv, sign, logdet, n, mstride, ld);                                      \
  }
#define CUPRUM_LINALG_ORGQR(NAME, T, BLOCK)                                                        \
  extern "C" __global__ void __launch_bounds__(BLOCK) NAME(T* q, const T* tau, long long m,        \
      long long n, long long k, long long mstride, long long ld, long long batch) {                \
    org2r<T>(q, tau, m, n, k, mstride, ld, batch);                                                 \
  }
