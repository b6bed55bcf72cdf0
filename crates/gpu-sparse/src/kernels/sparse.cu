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
