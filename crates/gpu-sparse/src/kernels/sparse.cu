// gpu-sparse's own kernels (src/kernels.rs launches them).
//
// segment_sum: out[k] = v[starts[k]] + ... + v[starts[k + 1] - 1] (the
// last run ends at n), one thread a run, adding in storage order so the
// sum is the same on every run. Runs are the duplicates of one (row,
// column) key: short, so one thread each keeps the loads of a warp close.
#include "cuprum/complex.cuh"

template <typename T>
__device__ __forceinline__ void cuprum_sparse_segment_sum(const T* v, const long long* starts,
                                                          long long nseg, long long n, T* out) {
  for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < nseg;
       k += (long long)gridDim.x * blockDim.x) {
    const long long b = starts[k];
    const long long e = k + 1 < nseg ? starts[k + 1] : n;
    T acc = v[b];
    for (long long i = b + 1; i < e; ++i) acc = acc + v[i];
    out[k] = acc;
  }
}

#define CUPRUM_SPARSE_SEGMENT_SUM(NAME, T)                                                   \
  extern "C" __global__ void NAME(const T* v, const long long* starts, long long nseg,      \
                                  long long n, T* out) {                                   \
    cuprum_sparse_segment_sum<T>(v, starts, nseg, n, out);                                  \
  }

// line_reduce: out[r] = op over v[indptr[r]..indptr[r + 1]) (sum, max or
// min), T(0) for an empty line; one thread a line, in storage order, so
// sums are the same on every run. Max and min propagate NaN (NumPy's
// maximum and minimum); implicit zeros are the caller's to add.
template <typename T>
__device__ __forceinline__ bool cuprum_sparse_isnan(T) { return false; }
template <>
__device__ __forceinline__ bool cuprum_sparse_isnan<float>(float x) { return x != x; }
template <>
__device__ __forceinline__ bool cuprum_sparse_isnan<double>(double x) { return x != x; }

struct CuprumSparseSum {
  template <typename T>
  static __device__ __forceinline__ T apply(T a, T b) { return a + b; }
};
struct CuprumSparseMax {
  template <typename T>
  static __device__ __forceinline__ T apply(T a, T b) {
    if (cuprum_sparse_isnan(a)) return a;
    if (cuprum_sparse_isnan(b)) return b;
    return a < b ? b : a;
  }
};
struct CuprumSparseMin {
  template <typename T>
  static __device__ __forceinline__ T apply(T a, T b) {
    if (cuprum_sparse_isnan(a)) return a;
    if (cuprum_sparse_isnan(b)) return b;
    return b < a ? b : a;
  }
};

template <typename T, typename Op>
__device__ __forceinline__ void cuprum_sparse_line_reduce(const T* v, const long long* indptr,
                                                          long long nlines, T* out) {
  for (long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x; r < nlines;
       r += (long long)gridDim.x * blockDim.x) {
    const long long b = indptr[r];
    const long long e = indptr[r + 1];
    if (b == e) {
      out[r] = T(0);
      continue;
    }
    T acc = v[b];
    for (long long i = b + 1; i < e; ++i) acc = Op::apply(acc, v[i]);
    out[r] = acc;
  }
}

#define CUPRUM_SPARSE_LINE_REDUCE(NAME, T, OP)                                                \
  extern "C" __global__ void NAME(const T* v, const long long* indptr, long long nlines,     \
                                  T* out) {                                                 \
    cuprum_sparse_line_reduce<T, OP>(v, indptr, nlines, out);                               \
  }
