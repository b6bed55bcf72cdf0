// Radix selection: the values at two ranks (an order statistic's lower
// and upper neighbours) of one flat array, without sorting it. Appended to
// kernels.cu (same keys, same program).
//
// MSD over the sort keys, 11-bit digits from the top: a histogram pass
// counts, among the keys whose higher digits equal a slot's prefix, each
// value of the current digit; one block then finds the digit holding the
// slot's rank, appends it to the prefix and subtracts the counts below.
// After the last digit each prefix is a whole key: the value. Two slots
// (ranks lo and hi) share one histogram while their prefixes agree. The
// first pass also counts NaN keys, so the ranks (computed on the device
// from q and the count of valid values) skip NaN for the nan* forms, and
// nothing waits on the host.
//
// State (u64): [0], [1] the prefixes, [2], [3] the ranks left within them,
// [4] NaN keys seen, [5] valid values. Histograms are u64, zeroed by each
// pick for the next pass.

#define CUPRUM_SEL_BINS 2048

namespace cuprum_sort {

// The key of NaN (every NaN's key is the largest of its width).
template <typename Tr>
__device__ __forceinline__ u64 sel_nan_key() {
  return Tr::BITS >= 64 ? ~0ull : ((1ull << Tr::BITS) - 1);
}

template <typename Tr>
__device__ void select_hist(const typename Tr::Raw* x, u64 n, u64* state, u64* ghist, int shift,
                            int width, bool count_nan) {
  if constexpr (sizeof(typename Tr::K) <= 8) {
    typedef typename Tr::Raw Raw;
    __shared__ u32 h[2 * CUPRUM_SEL_BINS];
    const u64 p0 = state[0], p1 = state[1];
    const bool dual = p0 != p1;
    const int top = shift + width;
    // The bits already chosen (above the digit); the first pass: none.
    const u64 mask = top >= 64 ? 0ull : ~0ull << top;
    const u32 dmask = (1u << width) - 1;
    const int nb = dual ? 2 * CUPRUM_SEL_BINS : CUPRUM_SEL_BINS;
    for (int b = threadIdx.x; b < nb; b += blockDim.x) h[b] = 0;
    __syncthreads();
    const u64 nan_key = sel_nan_key<Tr>();
    u32 nans = 0;
    auto count = [&](Raw r) {
      const u64 k = (u64)Tr::key(r, false);
      nans += count_nan && k == nan_key;
      const u32 d = (u32)(k >> shift) & dmask;
      if ((k & mask) == p0) atomicAdd(&h[d], 1u);
      else if (dual && (k & mask) == p1) atomicAdd(&h[CUPRUM_SEL_BINS + d], 1u);
    };
    // 16-byte loads, four in flight per thread; the unaligned head and the
    // tail one element at a time.
    constexpr int V = sizeof(Raw) >= 16 ? 1 : 16 / sizeof(Raw);
    const u64 stride = (u64)gridDim.x * blockDim.x;
    const u64 tid = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    u64 head = ((16 - ((size_t)x & 15)) & 15) / sizeof(Raw);
    if (head > n) head = n;
    const uint4* xv = (const uint4*)(x + head);
    const u64 nv = (n - head) / V;
    for (u64 v = tid; v < nv; v += 4 * stride) {
      uint4 r[4];
#pragma unroll
      for (int u = 0; u < 4; ++u)
        if (v + u * stride < nv) r[u] = __ldg(xv + v + u * stride);
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        if (v + u * stride < nv) {
          const Raw* e = (const Raw*)&r[u];
#pragma unroll
          for (int j = 0; j < V; ++j) count(e[j]);
        }
      }
    }
    for (u64 i = tid; i < head; i += stride) count(x[i]);
    for (u64 i = head + nv * V + tid; i < n; i += stride) count(x[i]);
    __syncthreads();
    for (int b = threadIdx.x; b < nb; b += blockDim.x) {
      const u32 c = h[b];
      if (c) atomicAdd((unsigned long long*)&ghist[b], (unsigned long long)c);
    }
    if (count_nan) {
      nans = cuprum::warp_sum(nans);
      if ((threadIdx.x & 31) == 0 && nans)
        atomicAdd((unsigned long long*)&state[4], (unsigned long long)nans);
    }
  }
}

// One block of 256 threads, eight bins each: finds each slot's digit.
template <typename Tr>
__device__ void select_pick(u64* ghist, u64* state, int shift, bool first, double q, u64 n,
                            bool skip_nan) {
  __shared__ u64 s_warp[CUPRUM_SORT_WARPS];
  __shared__ u64 s_new[4];
  __shared__ bool s_dual;
  const int t = threadIdx.x;
  if (t == 0) {
    if (first) {
      // NumPy's virtual index q * (n - 1) over the valid values.
      const u64 nv = skip_nan ? n - state[4] : n;
      u64 lo = 0, hi = 0;
      if (nv > 0) {
        lo = (u64)floor(q * (double)(nv - 1));
        if (lo > nv - 1) lo = nv - 1;
        hi = lo + 1 < nv ? lo + 1 : nv - 1;
      }
      state[2] = lo;
      state[3] = hi;
      state[5] = nv;
    }
    s_dual = state[0] != state[1];
    for (int s = 0; s < 4; ++s) s_new[s] = state[s];
  }
  __syncthreads();
  const bool dual = s_dual;
  for (int s = 0; s < 2; ++s) {
    const u64* h = ghist + (dual ? s * CUPRUM_SEL_BINS : 0);
    const u64 rank = state[2 + s];
    u64 c[8], sum = 0;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      c[j] = h[t * 8 + j];
      sum += c[j];
    }
    // Exclusive scan of the threads' sums.
    u64 before = cuprum::block_exclusive_sum(sum, s_warp);
    if (rank >= before && rank < before + sum) {
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        if (rank < before + c[j]) {
          s_new[s] = state[s] | ((u64)(t * 8 + j) << shift);
          s_new[2 + s] = rank - before;
          break;
        }
        before += c[j];
      }
    }
    __syncthreads();
  }
  for (int b = t; b < 2 * CUPRUM_SEL_BINS; b += blockDim.x) ghist[b] = 0;
  if (t == 0)
    for (int s = 0; s < 4; ++s) state[s] = s_new[s];
}

// One thread: the two values as a two-element "sorted row" for the
// quantile pick (`cnt` 2, or 0 with no valid value; `qs` the fraction
// between them). Nearest picks its neighbour here (NumPy rounds the
// virtual index half to even); a NaN seen without skip_nan makes the
// upper value NaN, which the pick propagates.
template <typename Tr>
__device__ void select_finish(const u64* state, double q, int method, bool prop,
                              typename Tr::Raw* pair, long long* cnt, double* qs) {
  if constexpr (sizeof(typename Tr::K) <= 8) {
    typedef typename Tr::K K;
    typedef typename Tr::Raw Raw;
    const u64 nv = state[5];
    Raw a = Tr::back((K)state[0]), b = Tr::back((K)state[1]);
    double g = 0.0;
    if (nv > 0) {
      const double v = q * (double)(nv - 1);
      const double lo = floor(v);
      g = v - lo;
      if (method == 3) {
        if (rint(v) == lo) b = a;
        else a = b;
      }
    }
    if (prop && state[4] > 0) b = Tr::back((K)sel_nan_key<Tr>());
    pair[0] = a;
    pair[1] = b;
    cnt[0] = nv == 0 ? 0 : 2;
    qs[0] = g;
  }
}

}  // namespace cuprum_sort

#define CUPRUM_SELECT_DTYPE(NAME, TR, T)                                                         \
  extern "C" __global__ void __launch_bounds__(256) cuprum_sort_selhist_##NAME(                  \
      const T* x, long long n, unsigned long long* state, unsigned long long* hist, int shift,   \
      int width, bool count_nan) {                                                              \
    cuprum_sort::select_hist<cuprum_sort::TR>((const cuprum_sort::TR::Raw*)x, n, state, hist,   \
        shift, width, count_nan);                                                               \
  }                                                                                             \
  extern "C" __global__ void __launch_bounds__(256) cuprum_sort_selpick_##NAME(                  \
      unsigned long long* hist, unsigned long long* state, int shift, bool first, double q,      \
      long long n, bool skip_nan) {                                                             \
    cuprum_sort::select_pick<cuprum_sort::TR>(hist, state, shift, first, q, n, skip_nan);       \
  }                                                                                             \
  extern "C" __global__ void __launch_bounds__(32) cuprum_sort_selfinish_##NAME(                 \
      const unsigned long long* state, double q, int method, bool prop, T* pair, long long* cnt, \
      double* qs) {                                                                             \
    if (threadIdx.x == 0)                                                                       \
      cuprum_sort::select_finish<cuprum_sort::TR>(state, q, method, prop,                       \
          (cuprum_sort::TR::Raw*)pair, cnt, qs);                                                \
  }
