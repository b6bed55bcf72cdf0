// Warp and block vocabulary of Cuprum's kernels: full-warp shuffles of any
// trivially copyable type, warp-wide reductions and scans, and a block's
// exclusive prefix sum. Every function here is called by all 32 lanes of a
// warp (the shuffles use the full mask); the block functions by every
// thread of a one-dimensional block whose size is a multiple of 32.
//
// Self-contained (no other header): the sort and compaction kernels, which
// handle their data as raw bits, include it alone.
#pragma once

namespace cuprum {

/// Every lane of a warp (the mask of the `__*_sync` intrinsics).
constexpr unsigned warp_full_mask = 0xffffffffu;

namespace warp_detail {

/// A value of T seen as 32-bit words: shuffles move ceil(sizeof(T) / 4) of
/// them, so 1-, 2-, 8- and 16-byte types (bool, half, bfloat16, long long,
/// double, complex, small structs) travel like 32-bit ones.
template <typename T> struct words {
  unsigned w[(sizeof(T) + 3) / 4];
};

/// `f(word, lane-or-offset)` applied to each word of v (a shuffle).
template <typename T, typename F>
__device__ __forceinline__ T each_word(const T& v, const F& f) {
  words<T> x = {};
  memcpy(&x, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < (int)(sizeof(x) / 4); ++i) x.w[i] = f(x.w[i]);
  T r;
  memcpy(&r, &x, sizeof(T));
  return r;
}

}  // namespace warp_detail

/// `__shfl_up_sync` over the full warp: lane l gets lane l - delta's value
/// (lanes below delta keep their own).
template <typename T> __device__ __forceinline__ T shfl_up(const T& v, unsigned delta) {
  return warp_detail::each_word(v, [&](unsigned w) { return __shfl_up_sync(warp_full_mask, w, delta); });
}

/// `__shfl_down_sync` over the full warp: lane l gets lane l + delta's
/// value (lanes past 31 - delta keep their own).
template <typename T> __device__ __forceinline__ T shfl_down(const T& v, unsigned delta) {
  return warp_detail::each_word(v, [&](unsigned w) { return __shfl_down_sync(warp_full_mask, w, delta); });
}

/// `__shfl_sync` over the full warp: every lane gets lane `src`'s value.
template <typename T> __device__ __forceinline__ T shfl_idx(const T& v, int src) {
  return warp_detail::each_word(v, [&](unsigned w) { return __shfl_sync(warp_full_mask, w, src); });
}

/// `__shfl_xor_sync` over the full warp: lane l gets lane l ^ mask's value.
template <typename T> __device__ __forceinline__ T shfl_xor(const T& v, int mask) {
  return warp_detail::each_word(v, [&](unsigned w) { return __shfl_xor_sync(warp_full_mask, w, mask); });
}

/// `op` over the 32 lanes' values by butterfly: every lane gets the result.
/// `op` must be associative and commutative up to the caller's tolerance
/// (the lanes combine in different orders).
template <typename T, typename Op>
__device__ __forceinline__ T warp_allreduce(T v, const Op& op) {
#pragma unroll
  for (int d = 16; d >= 1; d >>= 1) v = op(v, shfl_xor(v, d));
  return v;
}

/// The sum of the 32 lanes' values, in every lane.
template <typename T> __device__ __forceinline__ T warp_sum(T v) {
  return warp_allreduce(v, [](const T& a, const T& b) { return a + b; });
}

/// The smallest of the 32 lanes' values (by `<`), in every lane.
template <typename T> __device__ __forceinline__ T warp_min(T v) {
  return warp_allreduce(v, [](const T& a, const T& b) { return b < a ? b : a; });
}

/// The largest of the 32 lanes' values (by `<`), in every lane.
template <typename T> __device__ __forceinline__ T warp_max(T v) {
  return warp_allreduce(v, [](const T& a, const T& b) { return a < b ? b : a; });
}

/// A value and where it was found (an element index), for arg-reductions.
template <typename T> struct value_index {
  T value;
  long long index;
};

/// The pair with the smallest value (MAX false) or the largest (MAX true)
/// of the 32 lanes', ties to the smallest index, in every lane: the result
/// is that of a sequential scan for the first extreme value. Values are
/// compared with `<` only (an unordered value never wins).
template <bool MAX, typename T>
__device__ __forceinline__ value_index<T> warp_arg_extreme(value_index<T> v) {
  return warp_allreduce(v, [](const value_index<T>& a, const value_index<T>& b) {
    const bool b_better = MAX ? a.value < b.value : b.value < a.value;
    const bool a_better = MAX ? b.value < a.value : a.value < b.value;
    if (b_better) return b;
    if (a_better) return a;
    return b.index < a.index ? b : a;
  });
}

/// The running `op` (inclusive scan) over lanes 0..lane of the warp: lane
/// l gets op(v_0, ..., v_l), combined left to right in lane order.
template <typename T, typename Op>
__device__ __forceinline__ T warp_inclusive_scan(T v, const Op& op) {
  const int lane = (int)(threadIdx.x & 31u);
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const T u = shfl_up(v, (unsigned)d);
    if (lane >= d) v = op(u, v);
  }
  return v;
}

/// The running sum over lanes 0..lane of the warp.
template <typename T> __device__ __forceinline__ T warp_inclusive_sum(T v) {
  return warp_inclusive_scan(v, [](const T& a, const T& b) { return a + b; });
}

/// The sum of x over the threads before this one in a one-dimensional
/// block (an exclusive prefix sum). `warp_tot` holds one value per warp in
/// shared memory; it is read after the one barrier inside, so a second
/// call must be separated from the first by a barrier of the caller's.
/// Each warp adds only the warps before it (fewer registers than the
/// overload that also gives the total).
template <typename T>
__device__ __forceinline__ T block_exclusive_sum(T x, T* warp_tot) {
  const int lane = (int)(threadIdx.x & 31u), warp = (int)(threadIdx.x >> 5);
  const T incl = warp_inclusive_sum(x);
  if (lane == 31) warp_tot[warp] = incl;
  __syncthreads();
  T before = T(0);
  for (int w = 0; w < warp; ++w) before += warp_tot[w];
  return before + incl - x;
}

/// The sum of x over the threads before this one in a block of WARPS
/// warps (an exclusive prefix sum), and the block's total in `total`.
/// `warp_tot` holds WARPS values in shared memory; it is read after the one
/// barrier inside, so a second call must be separated from the first by a
/// barrier of the caller's.
template <int WARPS, typename T>
__device__ __forceinline__ T block_exclusive_sum(T x, T* warp_tot, T& total) {
  const int lane = (int)(threadIdx.x & 31u), warp = (int)(threadIdx.x >> 5);
  const T incl = warp_inclusive_sum(x);
  if (lane == 31) warp_tot[warp] = incl;
  __syncthreads();
  T before = T(0), t = T(0);
#pragma unroll
  for (int w = 0; w < WARPS; ++w) {
    const T s = warp_tot[w];
    before += w < warp ? s : T(0);
    t += s;
  }
  total = t;
  return before + incl - x;
}

}  // namespace cuprum
