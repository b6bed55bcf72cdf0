// Support for generated reduction kernels (gpu_array::reduction): warp
// shuffles of any accumulator type (moved as 32-bit words, so 8-byte,
// complex and half types work alike), and warp and block reductions that
// combine only the first `valid` values, so that kernels need no identity
// value in the hot path (a thread holds a value only when it read one).
#pragma once

#include "cuprum/elementwise.cuh"

namespace cuprum {

/// A value of T seen as W 32-bit words (for shuffles).
template <typename T, int W>
union shfl_words {
  T value;
  unsigned w[W];
  __device__ __forceinline__ shfl_words() {}
};

/// `__shfl_down_sync` over the full warp for any trivially copyable T: the
/// value travels as ceil(sizeof(T) / 4) 32-bit words.
template <typename T>
__device__ __forceinline__ T shfl_down(const T& v, unsigned delta) {
  constexpr int W = (int)((sizeof(T) + 3) / 4);
  shfl_words<T, W> u;
#pragma unroll
  for (int k = 0; k < W; ++k) u.w[k] = 0u;
  u.value = v;
#pragma unroll
  for (int k = 0; k < W; ++k) u.w[k] = __shfl_down_sync(0xffffffffu, u.w[k], delta);
  return u.value;
}

/// Combines the values of lanes 0..valid-1 (valid <= 32) of the calling
/// warp with `op`; lane 0 receives the result. Every lane of the warp must
/// call it (the shuffles are full-warp); lanes at or past `valid` may hold
/// anything. With valid <= 1 lane 0 keeps its own value.
template <typename T, typename Op>
__device__ __forceinline__ T warp_reduce(T v, const Op& op, int valid) {
  const int lane = (int)(threadIdx.x & 31u);
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    const T o = shfl_down(v, (unsigned)off);
    if (lane + off < valid) v = op(v, o);
  }
  return v;
}

/// Combines the values of threads 0..valid-1 of a one-dimensional block
/// (blockDim.x a multiple of 32, at most 1024); thread 0 receives the
/// result. Every thread of the block must call it. `smem` holds 32 values
/// of T in shared memory; it is free again when the function returns to
/// every thread (the leading barrier protects a previous call's reads).
template <typename T, typename Op>
__device__ __forceinline__ T block_reduce(T v, const Op& op, int valid, T* smem) {
  const int lane = (int)(threadIdx.x & 31u);
  const int warp = (int)(threadIdx.x >> 5);
  int wvalid = valid - warp * 32;
  wvalid = wvalid < 0 ? 0 : (wvalid > 32 ? 32 : wvalid);
  // wvalid is uniform over the warp, so whole warps skip together.
  if (wvalid > 0) v = warp_reduce(v, op, wvalid);
  __syncthreads();
  if (lane == 0 && wvalid > 0) smem[warp] = v;
  __syncthreads();
  const int nw = (valid + 31) / 32;
  if (warp == 0) {
    if (lane < nw) v = smem[lane];
    v = warp_reduce(v, op, nw);
  }
  return v;
}

}  // namespace cuprum
