
#include "cuprum/types.cuh"
#include "cuprum/math.cuh"
#include "cuprum/warp.cuh"

namespace cuprum_scan {

constexpr int BLOCK = 256;
// Items per thread of a tile accumulating in A (as items_for on the host):
// 32 KiB of shared memory per tile.
template <typename A> struct tile_of {
  static constexpr int items = sizeof(A) <= 4 ? 32 : sizeof(A) <= 8 ? 16 : 8;
  static constexpr int size = BLOCK * items;
};
constexpr int WARPS = BLOCK / 32;
constexpr unsigned long long FLAG_AGG = 1, FLAG_PREFIX = 2;

__device__ __forceinline__ int pad(int i) { return i + (i >> 5); }

// OP 0: sum, 1: product. Every accumulator type's + and * commute, so the
// order of the look-back's combination changes only float rounding.
template <int OP, typename A> __device__ __forceinline__ A combine(const A& a, const A& b) {
  if constexpr (OP == 0) return a + b; else return a * b;
}
template <int OP, typename A> __device__ __forceinline__ A identity() {
  return cuprum::cast<A>(OP == 0 ? 0 : 1);
}
template <typename In, typename A, int OP, bool NAN>
__device__ __forceinline__ A convert(const In& x) {
  if constexpr (NAN) {
    if (cuprum::isnan(x)) return identity<OP, A>();
  }
  return cuprum::cast<A>(x);
}
template <typename In, typename A, int OP, bool NAN>
__device__ __forceinline__ A load(const In* p) {
  return convert<In, A, OP, NAN>(*p);
}
struct __align__(16) v16 { unsigned long long a, b; };
// Elements per 16-byte vector, when ITEMS per thread split into whole
// vectors; else 0.
template <typename T, int ITEMS> struct vec_of {
  static constexpr int n = (sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8)
      && ITEMS % (16 / sizeof(T)) == 0 ? (int)(16 / sizeof(T)) : 0;
};
// The warp's running combination (lane order) and its total.
template <int OP, typename A> __device__ __forceinline__ A warp_scan(const A& v) {
  return cuprum::warp_inclusive_scan(v, [](const A& a, const A& b) { return combine<OP>(a, b); });
}
template <int OP, typename A> __device__ __forceinline__ A warp_reduce(const A& v) {
  return cuprum::warp_allreduce(v, [](const A& a, const A& b) { return combine<OP>(a, b); });
}

// Tile status: packed (flag << 32 | value bits) for accumulators of at
// most 4 bytes, else a flag word plus separate aggregate and prefix arrays.
template <typename A> struct status {
  static constexpr bool packed = sizeof(A) <= 4;
  volatile unsigned long long* flags;
  char* agg;
  char* pre;
  __device__ status(char* tmp, long long tiles) {
    flags = (volatile unsigned long long*)(tmp + 256);
    long long t2 = (tiles + 1) & ~1ll;
    agg = tmp + 256 + 8 * t2;
    pre = agg + sizeof(A) * t2;
  }
  __device__ void publish(long long tile, unsigned long long flag, const A& v) {
    if constexpr (packed) {
      unsigned int bits = 0;
      memcpy(&bits, &v, sizeof(A));
      flags[tile] = (flag << 32) | bits;
    } else {
      volatile unsigned long long* dst =
          (volatile unsigned long long*)((flag == FLAG_AGG ? agg : pre) + sizeof(A) * tile);
      unsigned long long w[sizeof(A) / 8];
      memcpy(w, &v, sizeof(A));
#pragma unroll
      for (int i = 0; i < (int)(sizeof(A) / 8); ++i) dst[i] = w[i];
      __threadfence();
      flags[tile] = flag;
    }
  }
  // Waits until `tile` has published; returns its flag and value.
  __device__ unsigned long long wait(long long tile, A& v) {
    unsigned long long word;
    do { word = flags[tile]; } while (packed ? (word >> 32) == 0 : word == 0);
    if constexpr (packed) {
      unsigned int bits = (unsigned int)word;
      memcpy(&v, &bits, sizeof(A));
      return word >> 32;
    } else {
      __threadfence();
      const volatile unsigned long long* src =
          (const volatile unsigned long long*)((word == FLAG_AGG ? agg : pre) + sizeof(A) * tile);
      unsigned long long w[sizeof(A) / 8];
#pragma unroll
      for (int i = 0; i < (int)(sizeof(A) / 8); ++i) w[i] = src[i];
      memcpy(&v, w, sizeof(A));
      return word;
    }
  }
};

// Long rows: decoupled look-back over tiles; rows are segments.
template <typename In, typename A, typename Out, int OP, bool NAN>
__device__ void scan_tiles(const In* src_, Out* dst_, char* tmp, long long rows, long long n,
                           long long tiles_per_row) {
  constexpr int ITEMS = tile_of<A>::items, TILE = tile_of<A>::size;
  __shared__ __align__(16) unsigned char smem_raw[sizeof(A) * (TILE + TILE / 32)];
  __shared__ __align__(16) unsigned char warp_raw[sizeof(A) * WARPS];
  __shared__ __align__(16) unsigned char prefix_raw[sizeof(A)];
  __shared__ long long s_tile;
  A* smem = (A*)smem_raw;
  A* warp_tot = (A*)warp_raw;
  A* tile_prefix = (A*)prefix_raw;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const long long tiles = rows * tiles_per_row;
  status<A> st(tmp, tiles);
  if (tid == 0) s_tile = (long long)atomicAdd((unsigned long long*)tmp, 1ull);
  __syncthreads();
  const long long tile = s_tile;
  const long long row = tile / tiles_per_row, t = tile - row * tiles_per_row;
  const long long start = t * TILE;
  const int cnt = (int)(n - start < TILE ? n - start : TILE);
  const In* src = src_ + row * n + start;
  Out* dst = dst_ + row * n + start;
  const A id = identity<OP, A>();

  // Full, 16-byte aligned tiles move 16 bytes per load and store (the
  // shared-memory padding keeps those accesses free of bank conflicts).
  constexpr int VI = vec_of<In, ITEMS>::n, VO = vec_of<Out, ITEMS>::n;
  bool vec_in = false, vec_out = false;
  if constexpr (VI > 0) vec_in = cnt == TILE && ((unsigned long long)src & 15) == 0;
  if constexpr (VO > 0) vec_out = cnt == TILE && ((unsigned long long)dst & 15) == 0;
  if (vec_in) {
    if constexpr (VI > 0) {
#pragma unroll
      for (int k = 0; k < ITEMS / VI; ++k) {
        const int q = k * BLOCK + tid;
        v16 w = ((const v16*)src)[q];
        In x[VI];
        memcpy(x, &w, 16);
#pragma unroll
        for (int j = 0; j < VI; ++j) smem[pad(q * VI + j)] = convert<In, A, OP, NAN>(x[j]);
      }
    }
  } else {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      int i = k * BLOCK + tid;
      smem[pad(i)] = i < cnt ? load<In, A, OP, NAN>(src + i) : id;
    }
  }
  __syncthreads();
  // A thread's items stay in shared memory: its total now, its running
  // values below (registers kept for occupancy: the look-back leaves the
  // other warps waiting, so more blocks per SM is what hides it).
  const int base = tid * ITEMS;
  A tot = smem[pad(base)];
#pragma unroll
  for (int k = 1; k < ITEMS; ++k) tot = combine<OP>(tot, smem[pad(base + k)]);
  A incl = warp_scan<OP>(tot);
  A excl = cuprum::shfl_up(incl, 1);
  if (lane == 0) excl = id;
  if (lane == 31) warp_tot[warp] = incl;
  __syncthreads();
  A wpre = id;
  for (int w = 0; w < warp; ++w) wpre = combine<OP>(wpre, warp_tot[w]);
  // Each thread's running values within the tile, without the tile's
  // prefix, replace its items: warps 1.. do this while warp 0 looks back
  // (instead of waiting at the barrier), and the store adds the prefix.
  auto local_scan = [&]() {
    A run = combine<OP>(wpre, excl);
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      run = combine<OP>(run, smem[pad(base + k)]);
      smem[pad(base + k)] = run;
    }
  };
  if (warp != 0) local_scan();

  if (warp == 0) {
    A agg = warp_tot[0];
#pragma unroll
    for (int w = 1; w < WARPS; ++w) agg = combine<OP>(agg, warp_tot[w]);
    A prefix = id;
    if (t == 0) {
      if (lane == 0) st.publish(tile, FLAG_PREFIX, agg);
    } else {
      if (lane == 0) st.publish(tile, FLAG_AGG, agg);
      const long long first = tile - t;
      long long j = tile - 1;
      while (true) {
        const long long jj = j - lane;
        A v = id;
        unsigned long long flag = FLAG_PREFIX;
        if (jj >= first) flag = st.wait(jj, v);
        const unsigned pmask = __ballot_sync(cuprum::warp_full_mask, flag == FLAG_PREFIX);
        const int p = pmask ? __ffs(pmask) - 1 : 32;
        A c = lane <= p ? v : id;
        c = warp_reduce<OP>(c);
        prefix = combine<OP>(c, prefix);
        if (pmask) break;
        j -= 32;
      }
      if (lane == 0) {
        st.publish(tile, FLAG_PREFIX, combine<OP>(prefix, agg));
        *tile_prefix = prefix;
      }
    }
    local_scan();
  }
  __syncthreads();
  // The first tile of a row adds nothing (so a leading -0.0 keeps its sign).
  const bool has_tp = t != 0;
  const A tp = has_tp ? *tile_prefix : id;
  auto final_value = [&](int i) {
    const A v = smem[pad(i)];
    return cuprum::cast<Out>(has_tp ? combine<OP>(tp, v) : v);
  };
  if (vec_out) {
    if constexpr (VO > 0) {
#pragma unroll
      for (int k = 0; k < ITEMS / VO; ++k) {
        const int q = k * BLOCK + tid;
        Out y[VO];
#pragma unroll
        for (int j = 0; j < VO; ++j) y[j] = final_value(q * VO + j);
        v16 w;
        memcpy(&w, y, 16);
        ((v16*)dst)[q] = w;
      }
    }
  } else {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      int i = k * BLOCK + tid;
      if (i < cnt) dst[i] = final_value(i);
    }
  }
}

// Short rows: one warp per row.
template <typename In, typename A, typename Out, int OP, bool NAN>
__device__ void scan_rows(const In* src_, Out* dst_, long long rows, long long n) {
  const int lane = threadIdx.x & 31;
  const long long row = (long long)blockIdx.x * WARPS + (threadIdx.x >> 5);
  if (row >= rows) return;
  const In* src = src_ + row * n;
  Out* dst = dst_ + row * n;
  const A id = identity<OP, A>();
  A carry = id;
  for (long long b = 0; b < n; b += 128) {
    A v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      long long i = b + k * 32 + lane;
      v[k] = i < n ? load<In, A, OP, NAN>(src + i) : id;
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      long long i = b + k * 32 + lane;
      A s = combine<OP>(carry, warp_scan<OP>(v[k]));
      if (i < n) dst[i] = cuprum::cast<Out>(s);
      carry = cuprum::shfl_idx(s, 31);
    }
  }
}

// Strided axis: one thread per column of [outer, n, inner].
template <typename In, typename A, typename Out, int OP, bool NAN>
__device__ void scan_cols(const In* src_, Out* dst_, long long outer, long long n,
                          long long inner) {
  const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= outer * inner) return;
  const long long o = c / inner, i = c - o * inner;
  const In* src = src_ + o * n * inner + i;
  Out* dst = dst_ + o * n * inner + i;
  A acc = identity<OP, A>();
  for (long long k = 0; k < n; ++k) {
    acc = combine<OP>(acc, load<In, A, OP, NAN>(src + k * inner));
    dst[k * inner] = cuprum::cast<Out>(acc);
  }
}

// Strided axis in segments, for too few columns to fill the device: pass 1
// reduces each (outer, segment, inner) run of `len` elements into
// tmp[(o * segs + s) * inner + i]; pass 2 turns those into exclusive
// prefixes down the segments; pass 3 rescans each run from its prefix.
// The run of this thread of a segmented pass over [outer, n, inner] in
// segments of `len`: thread c is (outer o, segment sg, inner i); its run is
// the axis positions [k0, k1) of the column starting at element `base`.
struct segment_run {
  long long c, base, k0, k1;
  bool ok;
  __device__ __forceinline__ segment_run(long long outer, long long n, long long inner, long long len) {
    const long long segs = (n + len - 1) / len;
    c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    ok = c < outer * segs * inner;
    const long long i = c % inner, r = c / inner, sg = r % segs, o = r / segs;
    base = o * n * inner + i;
    k0 = sg * len;
    k1 = k0 + len < n ? k0 + len : n;
  }
};

template <typename In, typename A, typename Out, int OP, bool NAN>
__device__ void scan_cols_totals(const In* src_, A* tmp, long long outer, long long n,
                                 long long inner, long long len) {
  const segment_run g(outer, n, inner, len);
  if (!g.ok) return;
  const long long c = g.c, k0 = g.k0, k1 = g.k1;
  const In* src = src_ + g.base;
  A acc = identity<OP, A>();
  for (long long k = k0; k < k1; ++k) acc = combine<OP>(acc, load<In, A, OP, NAN>(src + k * inner));
  tmp[c] = acc;
}
template <typename A, int OP>
__device__ void scan_cols_carry(A* tmp, long long outer, long long segs, long long inner) {
  const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= outer * inner) return;
  const long long o = c / inner, i = c - o * inner;
  A* t = tmp + o * segs * inner + i;
  A acc = identity<OP, A>();
  for (long long s = 0; s < segs; ++s) {
    A v = t[s * inner];
    t[s * inner] = acc;
    acc = combine<OP>(acc, v);
  }
}
template <typename In, typename A, typename Out, int OP, bool NAN>
__device__ void scan_cols_finish(const In* src_, Out* dst_, const A* tmp, long long outer,
                                 long long n, long long inner, long long len) {
  const segment_run g(outer, n, inner, len);
  if (!g.ok) return;
  const long long c = g.c, k0 = g.k0, k1 = g.k1;
  const In* src = src_ + g.base;
  Out* dst = dst_ + g.base;
  A acc = tmp[c];
  for (long long k = k0; k < k1; ++k) {
    acc = combine<OP>(acc, load<In, A, OP, NAN>(src + k * inner));
    dst[k * inner] = cuprum::cast<Out>(acc);
  }
}

}  // namespace cuprum_scan

// Parameters as `Tiles`, `Rows`, `Cols`, `SegTotals`, `SegCarry` and
// `SegFinish` in kernels.rs declare them.
#define CUPRUM_SCAN_ONE(SUF, NAME, OP, NAN, IN, ACC, OUT)                                          \
  extern "C" __global__ void __launch_bounds__(256, sizeof(ACC) <= 4 ? 8 : sizeof(ACC) <= 8 ? 4 : 1) \
      cuprum_scan_tiles_##NAME##_##SUF(const IN* src, OUT* dst, void* status, long long rows,      \
                                       long long n, long long tiles_per_row) {                     \
    cuprum_scan::scan_tiles<IN, ACC, OUT, OP, NAN>(src, dst, (char*)status, rows, n, tiles_per_row); } \
  extern "C" __global__ void __launch_bounds__(256) cuprum_scan_rows_##NAME##_##SUF(               \
      const IN* src, OUT* dst, long long rows, long long n) {                                      \
    cuprum_scan::scan_rows<IN, ACC, OUT, OP, NAN>(src, dst, rows, n); }                            \
  extern "C" __global__ void __launch_bounds__(256) cuprum_scan_cols_##NAME##_##SUF(               \
      const IN* src, OUT* dst, long long outer, long long n, long long inner) {                    \
    cuprum_scan::scan_cols<IN, ACC, OUT, OP, NAN>(src, dst, outer, n, inner); }                    \
  extern "C" __global__ void __launch_bounds__(256) cuprum_scan_segtotals_##NAME##_##SUF(          \
      const IN* src, ACC* totals, long long outer, long long n, long long inner, long long len) {  \
    cuprum_scan::scan_cols_totals<IN, ACC, OUT, OP, NAN>(src, totals, outer, n, inner, len); }     \
  extern "C" __global__ void __launch_bounds__(256) cuprum_scan_segcarry_##NAME##_##SUF(           \
      ACC* totals, long long outer, long long segs, long long inner) {                             \
    cuprum_scan::scan_cols_carry<ACC, OP>(totals, outer, segs, inner); }                           \
  extern "C" __global__ void __launch_bounds__(256) cuprum_scan_segfinish_##NAME##_##SUF(          \
      const IN* src, OUT* dst, const ACC* totals, long long outer, long long n, long long inner,   \
      long long len) {                                                                             \
    cuprum_scan::scan_cols_finish<IN, ACC, OUT, OP, NAN>(src, dst, totals, outer, n, inner, len); }
// Integer and bool inputs have no NaN: their nan scans are the plain ones.
#define CUPRUM_SCAN_EXACT(SUF, IN, ACC, OUT)                                                       \
  CUPRUM_SCAN_ONE(SUF, sum, 0, false, IN, ACC, OUT)                                                \
  CUPRUM_SCAN_ONE(SUF, prod, 1, false, IN, ACC, OUT)
#define CUPRUM_SCAN(SUF, IN, ACC, OUT)                                                             \
  CUPRUM_SCAN_EXACT(SUF, IN, ACC, OUT)                                                             \
  CUPRUM_SCAN_ONE(SUF, nansum, 0, true, IN, ACC, OUT)                                              \
  CUPRUM_SCAN_ONE(SUF, nanprod, 1, true, IN, ACC, OUT)
