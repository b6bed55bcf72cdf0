// Every function of cuprum/warp.cuh for one element type (the nvrtc
// test `headers` instantiates it for each dtype): the shuffles, the warp
// reductions and scans, the (value, index) extreme and the block prefix sum.
#include "cuprum/types.cuh"
#include "cuprum/warp.cuh"

template <typename T>
__device__ void warp_probe(const T* x, T* y, long long* idx) {
  __shared__ T warp_tot[8];
  const unsigned n = blockDim.x, t = threadIdx.x;
  const T v = x[t];
  T r = cuprum::shfl_up(v, 1u);
  r = cuprum::shfl_down(r, 2u);
  r = cuprum::shfl_idx(r, 3);
  y[t] = cuprum::shfl_xor(r, 4);
  y[n + t] = cuprum::warp_sum(v);
  y[2 * n + t] = cuprum::warp_min(v);
  y[3 * n + t] = cuprum::warp_max(v);
  y[4 * n + t] = cuprum::warp_inclusive_sum(v);
  T total;
  y[5 * n + t] = cuprum::block_exclusive_sum<8>(v, warp_tot, total);
  y[6 * n + t] = total;
  __syncthreads();
  y[7 * n + t] = cuprum::block_exclusive_sum(v, warp_tot);
  const cuprum::value_index<T> lo = cuprum::warp_arg_extreme<false>(cuprum::value_index<T>{v, (long long)t});
  const cuprum::value_index<T> hi = cuprum::warp_arg_extreme<true>(cuprum::value_index<T>{v, (long long)t});
  idx[t] = lo.index;
  idx[n + t] = hi.index;
}

#define CUPRUM_WARP_PROBE(NAME, T)                                                    \
  extern "C" __global__ void NAME(const T* x, T* y, long long* idx) { warp_probe<T>(x, y, idx); }
