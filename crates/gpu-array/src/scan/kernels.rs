//! The scan kernels: CUDA C++ in a Rust string, one NVRTC program per
//! (input dtype, output dtype) pair holding every scan of that pair, and
//! the launches.
//!
//! Three shapes of work, all over a C-contiguous input seen as
//! `[outer, n, inner]` with the scanned axis in the middle:
//!
//! - `tiles` (`inner == 1`, long rows): a single-pass decoupled look-back
//!   scan (Merrill and Garland, "Single-pass Parallel Prefix Scan with
//!   Decoupled Look-back", 2016). Each block takes the next tile of
//!   [`tile_for`] elements from an atomic counter (so a tile's predecessors
//!   were started before it, which makes spinning on them safe), scans it
//!   in shared memory, publishes its aggregate, looks back over its
//!   predecessors in the same row 32 at a time with one warp until it
//!   meets an inclusive prefix, and publishes its own inclusive prefix.
//!   Rows are segments: the look-back stops at the row's first tile, so
//!   one launch scans any number of long rows. Full tiles whose start is
//!   16-byte aligned load and store 16 bytes per access (2-, 4- and 8-byte
//!   types); the status words are zeroed by a memset on the stream before
//!   each launch.
//! - `rows` (`inner == 1`, rows of at most one tile): one warp per row,
//!   four striped chunks of 32 in flight, a shuffle scan per chunk and a
//!   carry.
//! - `cols` (`inner >= 32` and enough columns to fill the device): one
//!   thread per (outer, inner) column walks down the axis; neighbouring
//!   threads read neighbouring addresses, so every step is coalesced
//!   without a transpose.
//! - `segtotals`, `segcarry`, `segfinish` (`inner >= 32`, too few columns):
//!   the axis cut into segments, one thread per (outer, segment, inner):
//!   segment totals, their exclusive prefixes down the segments, and a
//!   rescan of each segment from its prefix (two reads and one write of
//!   the data, all coalesced, with enough threads in flight).
//!
//! Accumulation is in the output dtype, except float16 and bfloat16, which
//! accumulate in float (NumPy accumulates float16 in float16; the values
//! agree within float16's tolerance and are closer to the exact sums).
//!
//! Memory ordering of the look-back: a 1-, 2- or 4-byte accumulator is
//! packed with its status flag into one 64-bit word, written and read with
//! single volatile 64-bit accesses, so a reader sees flag and value of the
//! same publication. Wider accumulators keep their aggregate and inclusive
//! prefix in two separate arrays (each written once, before its flag, with
//! `__threadfence()` between value and flag; a reader fences between
//! reading the flag and the value), so a reader that saw the aggregate flag
//! can never pick up the inclusive value by mistake.

use std::sync::Arc;

use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::{DevicePtr, LaunchConfig, RawKernel, Stream};

use crate::dtype::DType;
use crate::error::Result;
use crate::kernels::HEADERS;

/// Threads per block of every scan kernel.
pub(crate) const BLOCK: u32 = 256;
/// Elements per thread of the look-back scan by accumulator size: 32 for
/// at most 4 bytes, 16 for 8, 8 for 16, so that every tile's shared memory
/// is 32 KiB (plus padding), under the 48 KiB a block may declare
/// statically. Larger tiles mean fewer blocks, each paying the
/// load-scan-look-back latency once for more elements: float32 cumsum of
/// 2^26 went from 0.205 to 0.185 ms on the H200 when its tiles grew from
/// 4096 to 8192 elements (40 items per thread, or 128-thread blocks, were
/// slower; docs/benchmarks.md).
pub(crate) const fn items_for(out: DType) -> usize {
    match acc_size(out) {
        0..=4 => 32,
        5..=8 => 16,
        _ => 8,
    }
}
/// Elements per tile of the look-back scan with the smallest tiles (the
/// planner's unit).
pub(crate) const TILE: usize = BLOCK as usize * 8;

/// Elements per tile of the look-back scan accumulating in `out`'s
/// accumulator (`tile_of` in the kernels).
pub(crate) const fn tile_for(out: DType) -> usize {
    BLOCK as usize * items_for(out)
}
/// Bytes before the tile status words in the temporary buffer (the tile
/// counter, padded).
pub(crate) const STATUS_OFFSET: usize = 256;

/// The templates shared by every program.
pub(crate) const COMMON: &str = r#"
#include "cuprum/types.cuh"
#include "cuprum/math.cuh"

namespace cuprum_scan {

constexpr int BLOCK = 256;
// Items per thread of a tile accumulating in A (as items_for on the host):
// 32 KiB of shared memory per tile.
template <typename A> struct tile_of {
  static constexpr int items = sizeof(A) <= 4 ? 32 : sizeof(A) <= 8 ? 16 : 8;
  static constexpr int size = BLOCK * items;
};
constexpr int WARPS = BLOCK / 32;
constexpr unsigned FULL = 0xffffffffu;
constexpr unsigned long long FLAG_AGG = 1, FLAG_PREFIX = 2;

__device__ __forceinline__ int pad(int i) { return i + (i >> 5); }

// Shuffles of any trivially copyable type, 32 bits at a time.
template <typename T> struct words { unsigned int w[(sizeof(T) + 3) / 4]; };
template <typename T> __device__ __forceinline__ T shfl_up(T v, unsigned d) {
  words<T> x = {};
  memcpy(&x, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < (int)(sizeof(x) / 4); ++i) x.w[i] = __shfl_up_sync(FULL, x.w[i], d);
  memcpy(&v, &x, sizeof(T));
  return v;
}
template <typename T> __device__ __forceinline__ T shfl_idx(T v, int src) {
  words<T> x = {};
  memcpy(&x, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < (int)(sizeof(x) / 4); ++i) x.w[i] = __shfl_sync(FULL, x.w[i], src);
  memcpy(&v, &x, sizeof(T));
  return v;
}
template <typename T> __device__ __forceinline__ T shfl_xor(T v, int mask) {
  words<T> x = {};
  memcpy(&x, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < (int)(sizeof(x) / 4); ++i) x.w[i] = __shfl_xor_sync(FULL, x.w[i], mask);
  memcpy(&v, &x, sizeof(T));
  return v;
}

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
template <int OP, typename A> __device__ __forceinline__ A warp_scan(A v, int lane) {
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    A u = shfl_up(v, d);
    if (lane >= d) v = combine<OP>(u, v);
  }
  return v;
}
template <int OP, typename A> __device__ __forceinline__ A warp_reduce(A v) {
#pragma unroll
  for (int d = 16; d >= 1; d >>= 1) v = combine<OP>(v, shfl_xor(v, d));
  return v;
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
__device__ void scan_tiles(const char* src_, char* dst_, char* tmp, long long rows, long long n,
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
  const In* src = (const In*)src_ + row * n + start;
  Out* dst = (Out*)dst_ + row * n + start;
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
  A incl = warp_scan<OP>(tot, lane);
  A excl = shfl_up(incl, 1);
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
        const unsigned pmask = __ballot_sync(FULL, flag == FLAG_PREFIX);
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
__device__ void scan_rows(const char* src_, char* dst_, long long rows, long long n) {
  const int lane = threadIdx.x & 31;
  const long long row = (long long)blockIdx.x * WARPS + (threadIdx.x >> 5);
  if (row >= rows) return;
  const In* src = (const In*)src_ + row * n;
  Out* dst = (Out*)dst_ + row * n;
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
      A s = combine<OP>(carry, warp_scan<OP>(v[k], lane));
      if (i < n) dst[i] = cuprum::cast<Out>(s);
      carry = shfl_idx(s, 31);
    }
  }
}

// Strided axis: one thread per column of [outer, n, inner].
template <typename In, typename A, typename Out, int OP, bool NAN>
__device__ void scan_cols(const char* src_, char* dst_, long long outer, long long n,
                          long long inner) {
  const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= outer * inner) return;
  const long long o = c / inner, i = c - o * inner;
  const In* src = (const In*)src_ + o * n * inner + i;
  Out* dst = (Out*)dst_ + o * n * inner + i;
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
template <typename In, typename A, typename Out, int OP, bool NAN>
__device__ void scan_cols_totals(const char* src_, char* tmp, long long outer, long long n,
                                 long long inner, long long len) {
  const long long segs = (n + len - 1) / len;
  const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= outer * segs * inner) return;
  const long long i = c % inner, r = c / inner, sg = r % segs, o = r / segs;
  const long long k0 = sg * len, k1 = k0 + len < n ? k0 + len : n;
  const In* src = (const In*)src_ + o * n * inner + i;
  A acc = identity<OP, A>();
  for (long long k = k0; k < k1; ++k) acc = combine<OP>(acc, load<In, A, OP, NAN>(src + k * inner));
  ((A*)tmp)[c] = acc;
}
template <typename A, int OP>
__device__ void scan_cols_carry(char* tmp, long long outer, long long segs, long long inner) {
  const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= outer * inner) return;
  const long long o = c / inner, i = c - o * inner;
  A* t = (A*)tmp + o * segs * inner + i;
  A acc = identity<OP, A>();
  for (long long s = 0; s < segs; ++s) {
    A v = t[s * inner];
    t[s * inner] = acc;
    acc = combine<OP>(acc, v);
  }
}
template <typename In, typename A, typename Out, int OP, bool NAN>
__device__ void scan_cols_finish(const char* src_, char* dst_, const char* tmp, long long outer,
                                 long long n, long long inner, long long len) {
  const long long segs = (n + len - 1) / len;
  const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= outer * segs * inner) return;
  const long long i = c % inner, r = c / inner, sg = r % segs, o = r / segs;
  const long long k0 = sg * len, k1 = k0 + len < n ? k0 + len : n;
  const In* src = (const In*)src_ + o * n * inner + i;
  Out* dst = (Out*)dst_ + o * n * inner + i;
  A acc = ((const A*)tmp)[c];
  for (long long k = k0; k < k1; ++k) {
    acc = combine<OP>(acc, load<In, A, OP, NAN>(src + k * inner));
    dst[k * inner] = cuprum::cast<Out>(acc);
  }
}

}  // namespace cuprum_scan

#define CUPRUM_SCAN_ONE(SUF, NAME, OP, NAN, IN, ACC, OUT)                                          \
  extern "C" __global__ void __launch_bounds__(256, sizeof(ACC) <= 4 ? 8 : sizeof(ACC) <= 8 ? 4 : 1)     \
      cuprum_scan_tiles_##NAME##_##SUF(                                                         \
      const char* s, char* d, char* tmp, long long a, long long b, long long c, long long e) {                  \
    cuprum_scan::scan_tiles<IN, ACC, OUT, OP, NAN>(s, d, tmp, a, b, c); }                          \
  extern "C" __global__ void __launch_bounds__(256) cuprum_scan_rows_##NAME##_##SUF(               \
      const char* s, char* d, char* tmp, long long a, long long b, long long c, long long e) {                  \
    cuprum_scan::scan_rows<IN, ACC, OUT, OP, NAN>(s, d, a, b); }                                   \
  extern "C" __global__ void __launch_bounds__(256) cuprum_scan_cols_##NAME##_##SUF(               \
      const char* s, char* d, char* tmp, long long a, long long b, long long c, long long e) {                  \
    cuprum_scan::scan_cols<IN, ACC, OUT, OP, NAN>(s, d, a, b, c); }                                \
  extern "C" __global__ void __launch_bounds__(256) cuprum_scan_segtotals_##NAME##_##SUF(          \
      const char* s, char* d, char* tmp, long long a, long long b, long long c, long long e) {     \
    cuprum_scan::scan_cols_totals<IN, ACC, OUT, OP, NAN>(s, tmp, a, b, c, e); }                    \
  extern "C" __global__ void __launch_bounds__(256) cuprum_scan_segcarry_##NAME##_##SUF(           \
      const char* s, char* d, char* tmp, long long a, long long b, long long c, long long e) {     \
    cuprum_scan::scan_cols_carry<ACC, OP>(tmp, a, b, c); }                                         \
  extern "C" __global__ void __launch_bounds__(256) cuprum_scan_segfinish_##NAME##_##SUF(          \
      const char* s, char* d, char* tmp, long long a, long long b, long long c, long long e) {     \
    cuprum_scan::scan_cols_finish<IN, ACC, OUT, OP, NAN>(s, d, tmp, a, b, c, e); }
// Integer and bool inputs have no NaN: their nan scans are the plain ones.
#define CUPRUM_SCAN_EXACT(SUF, IN, ACC, OUT)                                                       \
  CUPRUM_SCAN_ONE(SUF, sum, 0, false, IN, ACC, OUT)                                                \
  CUPRUM_SCAN_ONE(SUF, prod, 1, false, IN, ACC, OUT)
#define CUPRUM_SCAN(SUF, IN, ACC, OUT)                                                             \
  CUPRUM_SCAN_EXACT(SUF, IN, ACC, OUT)                                                             \
  CUPRUM_SCAN_ONE(SUF, nansum, 0, true, IN, ACC, OUT)                                              \
  CUPRUM_SCAN_ONE(SUF, nanprod, 1, true, IN, ACC, OUT)
"#;

/// The scan: which accumulation and whether NaN counts as the identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ScanOp {
    /// `cumsum`.
    Sum,
    /// `cumprod`.
    Prod,
    /// `nancumsum`.
    NanSum,
    /// `nancumprod`.
    NanProd,
}

impl ScanOp {
    /// The scan a kernel of `input` runs: inputs without NaN (integers,
    /// bool) run the plain scan for the nan forms.
    pub(crate) const fn for_input(self, input: DType) -> ScanOp {
        let has_nan = input.is_floating() || input.is_complex();
        match self {
            ScanOp::NanSum if !has_nan => ScanOp::Sum,
            ScanOp::NanProd if !has_nan => ScanOp::Prod,
            op => op,
        }
    }

    pub(crate) const fn name(self) -> &'static str {
        match self {
            ScanOp::Sum => "sum",
            ScanOp::Prod => "prod",
            ScanOp::NanSum => "nansum",
            ScanOp::NanProd => "nanprod",
        }
    }
}

/// The kernel shape (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Decoupled look-back over tiles of long rows.
    Tiles,
    /// One warp per short row.
    Rows,
    /// One thread per column of a strided axis.
    Cols,
    /// Segmented columns, pass 1: each segment's total.
    SegTotals,
    /// Segmented columns, pass 2: exclusive prefixes of the totals.
    SegCarry,
    /// Segmented columns, pass 3: each segment rescanned from its prefix.
    SegFinish,
}

impl Shape {
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Shape::Tiles => "tiles",
            Shape::Rows => "rows",
            Shape::Cols => "cols",
            Shape::SegTotals => "segtotals",
            Shape::SegCarry => "segcarry",
            Shape::SegFinish => "segfinish",
        }
    }
}

/// The C type a scan accumulates `out` in.
pub(crate) const fn acc_c_type(out: DType) -> &'static str {
    match out {
        DType::Float16 | DType::BFloat16 => "float",
        _ => out.c_type(),
    }
}

/// Bytes of the accumulator of `out`.
pub(crate) const fn acc_size(out: DType) -> usize {
    match out {
        DType::Float16 | DType::BFloat16 => 4,
        _ => out.itemsize(),
    }
}

/// The instantiation line of the (input, output) pair.
pub(crate) fn instantiation(input: DType, out: DType) -> String {
    let has_nan = input.is_floating() || input.is_complex();
    format!(
        "CUPRUM_SCAN{}({}_{}, {}, {}, {})\n",
        if has_nan { "" } else { "_EXACT" },
        input.name(),
        out.name(),
        input.c_type(),
        acc_c_type(out),
        out.c_type()
    )
}

/// The kernel's `extern "C"` name.
pub(crate) fn kernel_name(shape: Shape, op: ScanOp, input: DType, out: DType) -> String {
    format!(
        "cuprum_scan_{}_{}_{}_{}",
        shape.name(),
        op.name(),
        input.name(),
        out.name()
    )
}

/// A compile request for `source` with Cuprum's headers.
pub(crate) fn request(source: String) -> CompileRequest {
    HEADERS
        .iter()
        .fold(CompileRequest::new(source), |r, (name, text)| {
            r.header(*name, *text)
        })
}

/// The NVRTC request of the scan program of an (input, result) dtype pair
/// (every scan kernel of the pair), without an architecture: what
/// [`kernel`] compiles and what `cargo xtask precompile` compiles ahead of
/// time.
pub(crate) fn program_request(input: DType, out: DType) -> CompileRequest {
    request(format!("{COMMON}{}", instantiation(input, out)))
}

/// The compiled kernel, cached for the process (the program of a pair is
/// compiled once: NVRTC's cache is keyed by source).
fn kernel(shape: Shape, op: ScanOp, input: DType, out: DType) -> Result<Arc<RawKernel>> {
    let name = kernel_name(shape, op, input, out);
    Ok(RawKernel::cached(&name, || {
        RawKernel::from_request(program_request(input, out), &name)
    })?)
}

/// Bytes of the look-back's temporary buffer for `tiles` tiles.
pub(crate) fn temp_bytes(tiles: usize, out: DType) -> (usize, usize) {
    let t2 = tiles.next_multiple_of(2);
    let zeroed = STATUS_OFFSET + 8 * t2;
    (zeroed, zeroed + 2 * acc_size(out).max(8) * t2)
}

/// One launch of a scan kernel over `dims` (each kernel's meaning:
/// `tiles` `[rows, n, tiles_per_row, -]`, `rows` `[rows, n, -, -]`, `cols`
/// `[outer, n, inner, -]`, `segtotals`/`segfinish` `[outer, n, inner,
/// segment length]`, `segcarry` `[outer, segments, inner, -]`); `ptrs` are
/// source, destination and temporary (the zeroed status buffer of
/// `tiles`, the segment totals of the `seg*` passes, else unused).
pub(crate) fn launch(
    shape: Shape,
    op: ScanOp,
    input: DType,
    out: DType,
    stream: &Stream,
    ptrs: [DevicePtr; 3],
    dims: [usize; 4],
) -> Result<()> {
    let k = kernel(shape, op.for_input(input), input, out)?;
    let threads = BLOCK as usize;
    let blocks = match shape {
        Shape::Tiles => dims[0] * dims[2],
        Shape::Rows => dims[0].div_ceil(threads / 32),
        Shape::Cols | Shape::SegCarry => (dims[0] * dims[2]).div_ceil(threads),
        Shape::SegTotals | Shape::SegFinish => {
            (dims[0] * dims[1].div_ceil(dims[3]) * dims[2]).div_ceil(threads)
        }
    };
    let blocks = u32::try_from(blocks)
        .ok()
        .filter(|&b| b < 1 << 31)
        .ok_or_else(|| {
            crate::error::Error::Value(format!("scan: too many blocks ({blocks}) for one launch"))
        })?;
    let cfg = LaunchConfig::new((blocks, 1, 1), (BLOCK, 1, 1));
    crate::raw::launch_scan(&k, cfg, stream, ptrs, dims.map(|d| d as i64))
}
