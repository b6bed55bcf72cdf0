
#include "cuprum/types.cuh"
#include "cuprum/math.cuh"
#include "cuprum/warp.cuh"

namespace cuprum_stats {

template <typename T> __device__ __forceinline__ T from_double(double v) { return cuprum::cast<T>(v); }

// NumPy's equal-width bin of x (edges of dtype T), or -1 outside [first, last]
// (NaN too).
template <typename In, typename T, typename C>
__device__ __forceinline__ long long uniform_bin(const In& x, const T* edges, long long nb,
                                                 const T first, const T last, const C denom) {
  typedef typename cuprum::compute_type<T>::type F;
  typedef typename cuprum::compute_type<C>::type CF;
  const T xt = cuprum::cast<T>(x);
  if (!((F)xt >= (F)first && (F)xt <= (F)last)) return -1;
  const T s = T((F)xt - (F)first);
  C f = C((CF)cuprum::cast<C>(s) / (CF)denom);
  f = C((CF)f * (CF)nb);
  long long idx = cuprum::cast<long long>(f);
  if (idx >= nb) idx = nb - 1;
  if (idx < 0) idx = 0;
  if ((F)xt < (F)edges[idx]) idx -= 1;
  if (idx != nb - 1 && (F)xt >= (F)edges[idx + 1]) idx += 1;
  if (idx < 0) idx = 0;
  if (idx > nb - 1) idx = nb - 1;
  return idx;
}

// The bin of x among nb + 1 sorted edges of dtype E compared in C: the last
// edge <= x, the last bin closed on the right; -1 outside or NaN.
template <typename In, typename E, typename C>
__device__ __forceinline__ long long search_bin(const In& x, const E* edges, long long nb) {
  const C v = cuprum::cast<C>(x);
  if (!(v >= cuprum::cast<C>(edges[0]) && v <= cuprum::cast<C>(edges[nb]))) return -1;
  long long lo = 0, hi = nb + 1;
  while (hi - lo > 1) {
    const long long mid = lo + (hi - lo) / 2;
    if (cuprum::cast<C>(edges[mid]) <= v) lo = mid; else hi = mid;
  }
  return lo < nb ? lo : nb - 1;
}

// f(x[i], i) for this thread's elements of x[0, n), grid-stride; with VEC
// and x 16-byte aligned (1-, 2-, 4- and 8-byte types), 16 bytes per load
// and two loads in flight per thread and iteration, the tail one element
// at a time.
template <bool VEC, typename In, typename F>
__device__ __forceinline__ void grid_for_each(const In* x, long long n, const F& f) {
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long step = (long long)gridDim.x * blockDim.x;
  long long rest = 0;
  constexpr int V = (VEC && (sizeof(In) == 1 || sizeof(In) == 2 || sizeof(In) == 4 || sizeof(In) == 8))
      ? (int)(16 / sizeof(In)) : 1;
  if constexpr (V > 1) {
    if (((unsigned long long)x & 15ull) == 0) {
      const long long nv = n / V;
      for (long long q = tid; q < nv; q += 2 * step) {
        const bool two = q + step < nv;
        const uint4 raw0 = ((const uint4*)x)[q];
        const uint4 raw1 = two ? ((const uint4*)x)[q + step] : raw0;
        In xs[2 * V];
        memcpy(xs, &raw0, 16);
        memcpy(xs + V, &raw1, 16);
#pragma unroll
        for (int j = 0; j < 2 * V; ++j) {
          if (j >= V && !two) break;
          f(xs[j], (j < V ? q : q + step - 1) * V + j);
        }
      }
      rest = nv * V;
    }
  }
  for (long long i = rest + tid; i < n; i += step) f(x[i], i);
}

template <int WMODE> struct acc_of { typedef double type; };
template <> struct acc_of<0> { typedef unsigned int type; };

template <typename W> __device__ __forceinline__ double wre(const W& w) { return cuprum::cast<double>(w); }
template <typename R> __device__ __forceinline__ double wre(const cuprum::complex<R>& w) { return (double)w.real(); }
template <typename W> __device__ __forceinline__ double wim(const W&) { return 0.0; }
template <typename R> __device__ __forceinline__ double wim(const cuprum::complex<R>& w) { return (double)w.imag(); }

// MODE 0 uniform, 1 search, 2 direct; WMODE 0 counts, 1 real weights,
// 2 complex weights (two float64 per bin).
template <typename In, typename T, typename C, typename W, int MODE, int WMODE>
__device__ void count(const In* x, const W* w, const T* edges, char* out_, long long n,
                      long long nb, double first_d, double last_d, double denom_d, int use_smem) {
  typedef typename acc_of<WMODE>::type A;
  constexpr int K = WMODE == 2 ? 2 : 1;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  A* sh = (A*)smem_raw;
  const T first = from_double<T>(first_d), last = from_double<T>(last_d);
  const C denom = from_double<C>(denom_d);
  (void)first; (void)last; (void)denom; (void)edges; (void)w;
  if (use_smem) {
    for (long long i = threadIdx.x; i < nb * K; i += blockDim.x) sh[i] = A(0);
    __syncthreads();
  }
  auto bin_of = [&](const In& v) -> long long {
    if constexpr (MODE == 0) {
      return uniform_bin<In, T, C>(v, edges, nb, first, last, denom);
    } else if constexpr (MODE == 1) {
      return search_bin<In, T, C>(v, edges, nb);
    } else {
      const long long b = cuprum::cast<long long>(v);
      return (b >= 0 && b < nb) ? b : -1;
    }
  };
  auto add = [&](long long b, long long i) {
    if constexpr (WMODE == 0) {
      if (use_smem) atomicAdd(&sh[b], 1u);
      else atomicAdd((unsigned long long*)out_ + b, 1ull);
    } else {
      const W wv = w[i];
      double* g = (double*)out_;
      if (use_smem) {
        atomicAdd(&sh[b * K], wre(wv));
        if constexpr (K == 2) atomicAdd(&sh[b * K + 1], wim(wv));
      } else {
        atomicAdd(&g[b * K], wre(wv));
        if constexpr (K == 2) atomicAdd(&g[b * K + 1], wim(wv));
      }
    }
  };
  // Unweighted counts read 16 bytes per load (weights are read per element).
  grid_for_each<WMODE == 0>(x, n, [&](const In& v, long long i) {
    const long long b = bin_of(v);
    if (b >= 0) add(b, i);
  });
  if (use_smem) {
    __syncthreads();
    for (long long i = threadIdx.x; i < nb * K; i += blockDim.x) {
      const A v = sh[i];
      if (v != A(0)) {
        if constexpr (WMODE == 0) atomicAdd((unsigned long long*)out_ + i, (unsigned long long)v);
        else atomicAdd((double*)out_ + i, v);
      }
    }
  }
}

// Min and max of n values in one pass, as order-preserving 64-bit keys
// (integers: the value; floats: the float64 bits with the magnitude of
// negatives flipped), folded into a zeroed out[3] with unsigned atomicMax:
// out[0] = ~u(min), out[1] = u(max) (u: the signed-to-unsigned order map,
// so that 0 is each one's identity), out[2] |= 1 when a NaN was seen.
template <typename In>
__device__ __forceinline__ long long key_of(const In& v, unsigned& nan) {
  if constexpr (cuprum::is_floating<In>::value) {
    const double d = cuprum::cast<double>(v);
    if (d != d) { nan = 1u; return 0x7fffffffffffffffLL; }
    const long long b = __double_as_longlong(d);
    return b >= 0 ? b : b ^ 0x7fffffffffffffffLL;
  } else {
    return (long long)v;
  }
}

template <typename In>
__device__ void minmax(const In* x, unsigned long long* out, long long n) {
  long long kmin = 0x7fffffffffffffffLL, kmax = (-0x7fffffffffffffffLL - 1);
  unsigned nan = 0u;
  grid_for_each<true>(x, n, [&](const In& v, long long) {
    unsigned nn = 0u;
    const long long k = key_of(v, nn);
    if (nn) {
      nan = 1u;
    } else {
      kmin = k < kmin ? k : kmin;
      kmax = k > kmax ? k : kmax;
    }
  });
  kmin = cuprum::warp_min(kmin);
  kmax = cuprum::warp_max(kmax);
  // One atomic per block: the warps' results through shared memory.
  __shared__ long long s_min[32], s_max[32];
  __shared__ unsigned s_nan;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, warps = blockDim.x >> 5;
  if (threadIdx.x == 0) s_nan = 0u;
  __syncthreads();
  if (lane == 0) {
    s_min[warp] = kmin;
    s_max[warp] = kmax;
  }
  if (nan) s_nan = 1u;
  __syncthreads();
  if (warp != 0) return;
  kmin = lane < warps ? s_min[lane] : 0x7fffffffffffffffLL;
  kmax = lane < warps ? s_max[lane] : (-0x7fffffffffffffffLL - 1);
  kmin = cuprum::warp_min(kmin);
  kmax = cuprum::warp_max(kmax);
  const unsigned any_nan = s_nan;
  if (lane == 0) {
    const unsigned long long sign = 0x8000000000000000ull;
    const unsigned long long umin = (unsigned long long)kmin ^ sign;
    const unsigned long long umax = (unsigned long long)kmax ^ sign;
    if (umin != ~0ull) atomicMax(&out[0], ~umin);
    if (umax != 0ull) atomicMax(&out[1], umax);
    if (any_nan) atomicOr(&out[2], 1ull);
  }
}

}  // namespace cuprum_stats

// Parameters as `MinMax` and `Count` in kernels.rs declare them.
#define CUPRUM_MINMAX(NAME, IN)                                                                   \
  extern "C" __global__ void __launch_bounds__(256) NAME(                                         \
      const IN* x, unsigned long long* out, long long n) {                                        \
    cuprum_stats::minmax<IN>(x, out, n); }

#define CUPRUM_COUNT(NAME, IN, T, C, W, OUT, MODE, WMODE)                                         \
  extern "C" __global__ void __launch_bounds__(256) NAME(                                         \
      const IN* x, const W* w, const T* e, OUT* out, long long n, long long nb,                   \
      double first, double last, double denom, int use_smem) {                                    \
    cuprum_stats::count<IN, T, C, W, MODE, WMODE>(x, w, e, (char*)out, n, nb, first, last, denom, \
        use_smem); }
