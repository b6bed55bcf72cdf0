// Cuprum's radix sort and the kernels built on its keys (searchsorted,
// unique). Every dtype is handled as raw bits: the kernels take arrays of
// the dtype's C type (half.cuh, complex.cuh) and read them as the traits'
// storage type.
//
// Keys: each dtype maps to an unsigned key (u32, u64 or a 128-bit pair)
// whose unsigned order is NumPy's sort order: signed integers flip the sign
// bit; floats flip every bit of negatives and the sign bit of positives;
// every NaN becomes the largest key (NaN last); complex keys are (real,
// imaginary) lexicographic within NumPy's NaN classes. With CZ (argsort, searchsorted, unique) -0.0
// becomes +0.0 so the two compare equal; without it (sort) -0.0 sorts just
// before +0.0 and keeps its sign.
//
// The sort is LSD with 8-bit digits, "onesweep" style (Adinets and
// Merrill, 2022): one histogram kernel counts the digits of every pass at
// once, one block scans them into each digit's global start, then one
// kernel per pass ranks, looks back and scatters: a block takes the next
// tile from an atomic counter (so its predecessors have started), ranks
// its keys by warp (peers of a digit by one ballot per digit bit, per-warp
// digit counters bumped by the lowest peer, items in input order: stable),
// publishes its per-digit counts (before ranking when values travel) and
// looks back per digit over its predecessors' published counts (decoupled
// look-back), then stages keys in shared memory by digit and writes each
// digit's run to its global place. Status words pack a pass tag (top 8
// bits) with a count, so one zeroing serves every pass of a sort.
//
// Segmented sorts (rows of `row_n` elements, an axis sort) carry each
// element's flat index as its value and, after the key passes, run passes
// over the digits of the row (index / row_n): a stable sort by (row, key).

#include "cuprum/half.cuh"
#include "cuprum/complex.cuh"
#include "cuprum/warp.cuh"

typedef unsigned int u32;
typedef unsigned long long u64;
struct __align__(16) u128 { u64 lo, hi; };

#define CUPRUM_SORT_BLOCK 256
#define CUPRUM_SORT_WARPS 8
#define CUPRUM_SORT_MAXP 24
#define CUPRUM_SORT_VALMASK 0x00FFFFFFFFFFFFFFull

namespace cuprum_sort {

__device__ __forceinline__ u32 digit_of(u32 k, int shift) { return (k >> shift) & 255u; }
__device__ __forceinline__ u32 digit_of(u64 k, int shift) { return (u32)(k >> shift) & 255u; }
__device__ __forceinline__ u32 digit_of(u128 k, int shift) {
  return shift < 64 ? (u32)(k.lo >> shift) & 255u : (u32)(k.hi >> (shift - 64)) & 255u;
}
__device__ __forceinline__ bool key_less(u32 a, u32 b) { return a < b; }
__device__ __forceinline__ bool key_less(u64 a, u64 b) { return a < b; }
__device__ __forceinline__ bool key_less(u128 a, u128 b) {
  return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}
__device__ __forceinline__ bool key_eq(u32 a, u32 b) { return a == b; }
__device__ __forceinline__ bool key_eq(u64 a, u64 b) { return a == b; }
__device__ __forceinline__ bool key_eq(u128 a, u128 b) { return a.hi == b.hi && a.lo == b.lo; }

// Floats as bits: W-bit words with E exponent bits.
template <typename U, int W, U SIGN, U ABSMAX_INF>
struct FloatBits {
  static __device__ __forceinline__ bool isnan(U b) { return (U)(b & (U)~SIGN) > ABSMAX_INF; }
  static __device__ __forceinline__ U key(U b, bool cz) {
    if ((U)(b & (U)~SIGN) > ABSMAX_INF) return (U)~(U)0;  // NaN: largest
    if (cz && (U)(b & (U)~SIGN) == 0) b = 0;                // -0.0 -> +0.0
    return (b & SIGN) ? (U)~b : (U)(b | SIGN);
  }
  static __device__ __forceinline__ U back(U k) { return (k & SIGN) ? (U)(k ^ SIGN) : (U)~k; }
};
typedef FloatBits<unsigned short, 16, 0x8000, 0x7C00> F16;
typedef FloatBits<unsigned short, 16, 0x8000, 0x7F80> BF16;
typedef FloatBits<u32, 32, 0x80000000u, 0x7F800000u> F32;
typedef FloatBits<u64, 64, 0x8000000000000000ull, 0x7FF0000000000000ull> F64;

// Traits per dtype: Raw (storage), K (key), ITEMS (keys per thread).
struct TBool {
  typedef unsigned char Raw; typedef u32 K; static const int BITS = 8;
  static __device__ __forceinline__ K key(Raw x, bool) { return x != 0; }
  static __device__ __forceinline__ Raw back(K k) { return (Raw)k; }
};
template <typename S, typename U, u32 FLIP, int B>
struct TInt32 {
  typedef S Raw; typedef u32 K; static const int BITS = B;
  static __device__ __forceinline__ K key(Raw x, bool) { return (u32)(U)x ^ FLIP; }
  static __device__ __forceinline__ Raw back(K k) { return (Raw)(U)(k ^ FLIP); }
};
typedef TInt32<signed char, unsigned char, 0x80u, 8> TI8;
typedef TInt32<unsigned char, unsigned char, 0u, 8> TU8;
typedef TInt32<short, unsigned short, 0x8000u, 16> TI16;
typedef TInt32<unsigned short, unsigned short, 0u, 16> TU16;
typedef TInt32<int, u32, 0x80000000u, 32> TI32;
typedef TInt32<u32, u32, 0u, 32> TU32;
template <typename S, u64 FLIP>
struct TInt64 {
  typedef S Raw; typedef u64 K; static const int BITS = 64;
  static __device__ __forceinline__ K key(Raw x, bool) { return (u64)x ^ FLIP; }
  static __device__ __forceinline__ Raw back(K k) { return (Raw)(k ^ FLIP); }
};
typedef TInt64<long long, 0x8000000000000000ull> TI64;
typedef TInt64<u64, 0ull> TU64;
template <typename FB>
struct THalf {
  typedef unsigned short Raw; typedef u32 K; static const int BITS = 16;
  static __device__ __forceinline__ K key(Raw x, bool cz) { return FB::key(x, cz); }
  static __device__ __forceinline__ Raw back(K k) { return FB::back((unsigned short)k); }
};
typedef THalf<F16> TF16;
typedef THalf<BF16> TBF16;
struct TF32 {
  typedef u32 Raw; typedef u32 K; static const int BITS = 32;
  static __device__ __forceinline__ K key(Raw x, bool cz) { return F32::key(x, cz); }
  static __device__ __forceinline__ Raw back(K k) { return F32::back(k); }
};
struct TF64 {
  typedef u64 Raw; typedef u64 K; static const int BITS = 64;
  static __device__ __forceinline__ K key(Raw x, bool cz) { return F64::key(x, cz); }
  static __device__ __forceinline__ Raw back(K k) { return F64::back(k); }
};
// Complex keys follow NumPy's order of classes, [R + Rj, R + nanj,
// nan + Rj, nan + nanj], each class ordered lexicographically: no NaN is
// (key(real), key(imag)); the NaN classes take high words above every
// non-NaN float key (FD.., FE.., FF..) and order by their non-NaN part.
// complex64 as one 64-bit word: real in the low half (little endian).
struct TC64 {
  typedef u64 Raw; typedef u64 K; static const int BITS = 64;
  static __device__ __forceinline__ K key(Raw x, bool cz) {
    const u32 re = (u32)x, im = (u32)(x >> 32);
    const bool rn = F32::isnan(re), in = F32::isnan(im);
    if (!rn && !in) return ((u64)F32::key(re, cz) << 32) | (u64)F32::key(im, cz);
    if (!rn) return (0xFFFFFFFDull << 32) | (u64)F32::key(re, cz);
    if (!in) return (0xFFFFFFFEull << 32) | (u64)F32::key(im, cz);
    return ~0ull;
  }
  static __device__ __forceinline__ Raw back(K k) {
    const u32 hi = (u32)(k >> 32), lo = (u32)k, qnan = 0x7FC00000u;
    u32 re, im;
    if (hi == 0xFFFFFFFDu) { re = F32::back(lo); im = qnan; }
    else if (hi == 0xFFFFFFFEu) { re = qnan; im = F32::back(lo); }
    else if (hi == 0xFFFFFFFFu) { re = qnan; im = qnan; }
    else { re = F32::back(hi); im = F32::back(lo); }
    return (u64)re | ((u64)im << 32);
  }
};
// complex128 as two 64-bit words: lo = real, hi = imaginary.
struct TC128 {
  typedef u128 Raw; typedef u128 K; static const int BITS = 128;
  static __device__ __forceinline__ K key(Raw x, bool cz) {
    const bool rn = F64::isnan(x.lo), in = F64::isnan(x.hi);
    u128 k;
    if (!rn && !in) { k.hi = F64::key(x.lo, cz); k.lo = F64::key(x.hi, cz); }
    else if (!rn) { k.hi = 0xFFFFFFFFFFFFFFFDull; k.lo = F64::key(x.lo, cz); }
    else if (!in) { k.hi = 0xFFFFFFFFFFFFFFFEull; k.lo = F64::key(x.hi, cz); }
    else { k.hi = ~0ull; k.lo = ~0ull; }
    return k;
  }
  static __device__ __forceinline__ Raw back(K k) {
    const u64 qnan = 0x7FF8000000000000ull;
    u128 x;
    if (k.hi == 0xFFFFFFFFFFFFFFFDull) { x.lo = F64::back(k.lo); x.hi = qnan; }
    else if (k.hi == 0xFFFFFFFFFFFFFFFEull) { x.lo = qnan; x.hi = F64::back(k.lo); }
    else if (k.hi == ~0ull) { x.lo = qnan; x.hi = qnan; }
    else { x.lo = F64::back(k.hi); x.hi = F64::back(k.lo); }
    return x;
  }
};

// Whether a key holds a NaN (for `unique`: merged with every other NaN by
// default, each its own without equal_nan). A float NaN's key is all ones
// of its width, which no other value's key is (+inf's is 0xFF80.. in
// float32); integers and bools have none.
template <typename Tr> struct NanClass {
  static __device__ __forceinline__ bool any(typename Tr::K) { return false; }
};
template <> struct NanClass<TF16> {
  static __device__ __forceinline__ bool any(u32 k) { return k == 0xFFFFu; }
};
template <> struct NanClass<TBF16> {
  static __device__ __forceinline__ bool any(u32 k) { return k == 0xFFFFu; }
};
template <> struct NanClass<TF32> {
  static __device__ __forceinline__ bool any(u32 k) { return k == 0xFFFFFFFFu; }
};
template <> struct NanClass<TF64> {
  static __device__ __forceinline__ bool any(u64 k) { return k == ~0ull; }
};
template <> struct NanClass<TC64> {
  static __device__ __forceinline__ bool any(u64 k) { return (k >> 32) >= 0xFFFFFFFDull; }
};
template <> struct NanClass<TC128> {
  static __device__ __forceinline__ bool any(u128 k) { return k.hi >= 0xFFFFFFFFFFFFFFFDull; }
};

template <typename K, typename V> struct Items {
  static const int N = sizeof(K) + sizeof(V) <= 8 ? 16 : (sizeof(K) + sizeof(V) <= 16 ? 8 : 4);
};

// Flags of one pass.
#define F_FIRST 1     // read the input dtype and make keys; values are indices
#define F_LAST 2      // write the results (input dtype and/or int64 indices)
#define F_ROW 4       // the digit comes from the row (value / row_n)
#define F_VALS 8      // values travel with the keys
#define F_KEYS_OUT 16 // write keys (as keys, or as the input dtype when F_LAST)
#define F_VALS_OUT 32 // write values (as int64 `value % row_n` when F_LAST)

__device__ __forceinline__ u64 ld_volatile(const u64* p) { return *(const volatile u64*)p; }
__device__ __forceinline__ void st_volatile(u64* p, u64 v) { *(volatile u64*)p = v; }

// The lanes of the warp whose `bit` of `x` equals this lane's: one test,
// one ballot and a predicated complement (written out in PTX because the
// compiler's own form of `bit ? ballot : ~ballot` takes twice the
// instructions, in the loop that dominates a sort pass).
__device__ __forceinline__ u32 lanes_with_same_bit(u32 x, u32 bit) {
  u32 m;
  asm("{\n\t.reg .pred p;\n\t"
      "and.b32 %0, %1, %2;\n\t"
      "setp.ne.u32 p, %0, 0;\n\t"
      "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
      "@!p not.b32 %0, %0;\n\t}"
      : "=r"(m) : "r"(x), "r"(bit));
  return m;
}

// Exclusive scan of one value per thread of a 256-thread block; `warp_tot`
// is free again when it returns.
template <typename T>
__device__ __forceinline__ T block_exclusive_scan(T x, T* warp_tot) {
  const T before = cuprum::block_exclusive_sum(x, warp_tot);
  __syncthreads();
  return before;
}

// Digit counts of every pass: key passes from the keys, row passes from
// the row numbers (each row counts row_n elements).
template <typename Tr>
__device__ void histogram(const typename Tr::Raw* src, u64 n, u64 row_n, u64 rows,
                          int key_passes, int row_passes, bool cz, u64* hist) {
  typedef typename Tr::K K;
  __shared__ u32 sh[CUPRUM_SORT_MAXP * 256];
  const int passes = key_passes + row_passes;
  for (int j = threadIdx.x; j < passes * 256; j += CUPRUM_SORT_BLOCK) sh[j] = 0;
  __syncthreads();
  const u64 stride = (u64)gridDim.x * CUPRUM_SORT_BLOCK;
  u64 i = (u64)blockIdx.x * CUPRUM_SORT_BLOCK + threadIdx.x;
  // Four loads in flight per thread before any counting.
  for (; i + 3 * stride < n; i += 4 * stride) {
    typename Tr::Raw x[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) x[j] = src[i + j * stride];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const K k = Tr::key(x[j], cz);
      for (int p = 0; p < key_passes; ++p) atomicAdd(&sh[p * 256 + digit_of(k, 8 * p)], 1u);
    }
  }
  for (; i < n; i += stride) {
    const K k = Tr::key(src[i], cz);
    for (int p = 0; p < key_passes; ++p) atomicAdd(&sh[p * 256 + digit_of(k, 8 * p)], 1u);
  }
  if (row_passes > 0) {
    for (u64 r = (u64)blockIdx.x * CUPRUM_SORT_BLOCK + threadIdx.x; r < rows; r += stride) {
      for (int q = 0; q < row_passes; ++q)
        atomicAdd(&sh[(key_passes + q) * 256 + (u32)((r >> (8 * q)) & 255u)], 1u);
    }
  }
  __syncthreads();
  for (int j = threadIdx.x; j < passes * 256; j += CUPRUM_SORT_BLOCK) {
    const u32 c = sh[j];
    if (c) atomicAdd(&hist[j], j >= key_passes * 256 ? (u64)c * row_n : (u64)c);
  }
}

// Each pass's digit counts to exclusive starts, in place (one block).
__device__ void scan_bins(u64* hist, int passes) {
  __shared__ u64 tot[CUPRUM_SORT_WARPS];
  for (int p = 0; p < passes; ++p) {
    const u64 c = hist[p * 256 + threadIdx.x];
    const u64 e = block_exclusive_scan<u64>(c, tot);
    hist[p * 256 + threadIdx.x] = e;
  }
}

// One LSD pass over digit `shift` (bits of the key, or of the row). VALS:
// values travel with the keys (argsort, segmented sorts); a keys-only
// pass keeps no value registers, which is what lets it run without spills
// at four blocks per multiprocessor.
template <typename Tr, typename V, bool VALS>
__device__ void onesweep(const void* keys_in, const V* vals_in, void* keys_out_p, void* vals_out_p,
                         u64 n, u64 row_n, int shift, int flags, int pass, bool cz,
                         const u64* bin_start, u64* status, u32* counter) {
  typedef typename Tr::K K;
  typedef typename Tr::Raw Raw;
  const int ITEMS = Items<K, V>::N;
  const int TILE = CUPRUM_SORT_BLOCK * ITEMS;
  // Keys and values are staged side by side, so one pass over the tile
  // scatters both and the tile positions need no registers afterwards.
  __shared__ __align__(16) unsigned char s_buf[sizeof(K) * TILE + (VALS ? sizeof(V) * TILE : 0)];
  // Digits of the staged items of a pass with values (a keys-only pass
  // takes the digit again from the staged key).
  __shared__ unsigned char s_dig[VALS ? TILE : 1];
  // Per warp and digit: the warp's count, then where its items of that
  // digit start in the tile.
  __shared__ u32 s_whist[CUPRUM_SORT_WARPS * 256];
  // Per digit: global position of the tile's element 0 if it were of
  // this digit (global start - tile start), so an element's destination
  // is one lookup plus its tile position.
  __shared__ u64 s_off[256];
  __shared__ u32 s_tot[CUPRUM_SORT_WARPS];
  __shared__ u32 s_tile;
  // The tile's digit counts, published before ranking (passes with values).
  __shared__ u32 s_cnt[VALS ? 256 : 1];
  K* s_keys = (K*)s_buf;
  V* s_vals = (V*)(s_buf + sizeof(K) * TILE);

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const bool first = flags & F_FIRST, last = flags & F_LAST, rowp = VALS && (flags & F_ROW);
  // A row pass of an argsort moves only values.
  const bool need_key = !rowp || (flags & F_KEYS_OUT);
  if (tid == 0) s_tile = atomicAdd(counter, 1u);
  for (int j = tid; j < CUPRUM_SORT_WARPS * 256; j += CUPRUM_SORT_BLOCK) s_whist[j] = 0;
  if constexpr (VALS) s_cnt[tid] = 0;
  __syncthreads();
  const u64 tile = s_tile;
  const u64 tile_base = tile * (u64)TILE;
  const u64 base = tile_base + (u64)warp * (32 * ITEMS) + lane;
  // Items of this thread are base + 32 k for k * 32 < lim: one 32-bit
  // compare per item instead of a 64-bit one in each of the three loops.
  const u32 lim = base < n ? (u32)min(n - base, (u64)(32 * ITEMS)) : 0u;

  K key[ITEMS];
  V val[VALS ? ITEMS : 1];
  // Digits of a pass with values, four to a register (a digit is 8 bits;
  // a row pass takes them from the values); a keys-only pass takes each
  // digit from its key when needed, which saves the registers. Items past
  // the end are told by their index, not by a digit.
  u32 dig4[VALS ? (ITEMS + 3) / 4 : 1];
#pragma unroll
  for (int k = 0; k < (VALS ? (ITEMS + 3) / 4 : 1); ++k) dig4[k] = 0;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const u64 i = base + (u64)k * 32;
    if (k * 32 < lim) {
      if (need_key) key[k] = first ? Tr::key(((const Raw*)keys_in)[i], cz) : ((const K*)keys_in)[i];
      if constexpr (VALS) {
        val[k] = first ? (V)i : vals_in[i];
        const u32 d = rowp ? (u32)(((u64)val[k] / row_n) >> shift) & 255u : digit_of(key[k], shift);
        dig4[k >> 2] |= d << (8 * (k & 3));
      }
    }
  }
#define CUPRUM_DIG(k) \
  (VALS ? ((dig4[VALS ? (k) >> 2 : 0] >> (8 * ((k) & 3))) & 255u) : digit_of(key[k], shift))
  // A pass with values publishes its tile's counts before ranking
  // ("early counts", as CUB's onesweep): its successors' look-back then
  // rarely waits for it. Measured on the H200, this pays for its shared
  // atomics when values travel (argsort 3.49 -> 3.36 ms for 2^26 float32)
  // but not in a keys-only pass, whose tiles are ranked faster.
  if constexpr (VALS) {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (k * 32 < lim) atomicAdd(&s_cnt[CUPRUM_DIG(k)], 1u);
    __syncthreads();
    const u64 agg_tag = (u64)(2 * pass + 1) << 56, pre_tag = (u64)(2 * pass + 2) << 56;
    st_volatile(status + tile * 256 + tid, (tile == 0 ? pre_tag : agg_tag) | s_cnt[tid]);
  }
  // Rank within the warp: items in input order (k, then lane).
  u32* wh = s_whist + warp * 256;
  const u32 lt_mask = (1u << lane) - 1u;
  // Each item's rank within its warp and digit, two to a register (a tile
  // holds fewer than 2^16 items): the registers that keep the pass free of
  // spills.
  u32 pos2[(ITEMS + 1) / 2];
#pragma unroll
  for (int k = 0; k < (ITEMS + 1) / 2; ++k) pos2[k] = 0;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const bool ok = k * 32 < lim;
    // Peers (lanes of the same digit) by one ballot per digit bit: on
    // Hopper this is much cheaper than __match_any_sync, whose cost grows
    // with the number of distinct digits and which runs in the same
    // (shared memory) pipe as the counters.
    const u32 d = ok ? CUPRUM_DIG(k) : 0u;
    u32 peers = __ballot_sync(cuprum::warp_full_mask, ok);
#pragma unroll
    for (int b = 0; b < 8; ++b) peers &= lanes_with_same_bit(d, 1u << b);
    const u32 before = peers & lt_mask;
    // The lowest peer reads and bumps the warp's counter; the others get
    // the count by shuffle.
    u32 cnt = 0;
    if (ok && before == 0) {
      cnt = wh[d];
      wh[d] = cnt + __popc(peers);
    }
    cnt = cuprum::shfl_idx(cnt, __ffs(peers) - 1);
    __syncwarp();
    pos2[k >> 1] |= (cnt + __popc(before)) << (16 * (k & 1));
  }
  __syncthreads();
  // Per digit (one per thread): warp prefixes, the tile's count, its start
  // in the tile, and its global start by look-back.
  const u32 d = tid;
  u32 run = 0;
#pragma unroll
  for (int w = 0; w < CUPRUM_SORT_WARPS; ++w) run += s_whist[w * 256 + d];
  const u32 start = block_exclusive_scan<u32>(run, s_tot);
  {
    u32 at = start;
#pragma unroll
    for (int w = 0; w < CUPRUM_SORT_WARPS; ++w) {
      const u32 t = s_whist[w * 256 + d];
      s_whist[w * 256 + d] = at;
      at += t;
    }
  }
  // The tile's counts go out now (keys-only passes; passes with values
  // published them before ranking), the look-back waits until the keys
  // are staged: the predecessors get that much longer to publish.
  const u64 agg_tag = (u64)(2 * pass + 1) << 56, pre_tag = (u64)(2 * pass + 2) << 56;
  u64* my = status + tile * 256 + d;
  if constexpr (!VALS) st_volatile(my, (tile == 0 ? pre_tag : agg_tag) | run);
  __syncthreads();
  // Stage keys and digits in digit order.
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    if (k * 32 < lim) {
      const u32 dk = CUPRUM_DIG(k);
      const u32 at = ((pos2[k >> 1] >> (16 * (k & 1))) & 0xFFFFu) + s_whist[warp * 256 + dk];
      if (need_key) s_keys[at] = key[k];
      if constexpr (VALS) {
        s_vals[at] = val[k];
        s_dig[at] = (unsigned char)dk;
      }
    }
  }
  u64 prev = 0;
  if (tile > 0) {
    long long j = (long long)tile - 1;
    while (true) {
      const u64 w = ld_volatile(status + (u64)j * 256 + d);
      const u64 tag = w & ~CUPRUM_SORT_VALMASK;
      if (tag < agg_tag) continue;  // not yet published in this pass
      prev += w & CUPRUM_SORT_VALMASK;
      if (tag == pre_tag) break;
      --j;
    }
    st_volatile(my, pre_tag | (prev + run));
  }
  s_off[d] = bin_start[d] + prev - start;
#undef CUPRUM_DIG
  __syncthreads();
  const u64 rem = n - tile_base;
  const u32 cnt = rem < (u64)TILE ? (u32)rem : (u32)TILE;
  if constexpr (!VALS) {
    // Keys only: the loop without value state, the digit again from the
    // key (what keeps this kernel within 64 registers).
    if (flags & F_KEYS_OUT) {
      for (u32 i = tid; i < cnt; i += CUPRUM_SORT_BLOCK) {
        const K k = s_keys[i];
        const u64 g = s_off[digit_of(k, shift)] + i;
        if (last) ((Raw*)keys_out_p)[g] = Tr::back(k);
        else ((K*)keys_out_p)[g] = k;
      }
    }
  } else {
    const bool keys_out = flags & F_KEYS_OUT, vals_out = flags & F_VALS_OUT;
    for (u32 i = tid; i < cnt; i += CUPRUM_SORT_BLOCK) {
      const u64 g = s_off[s_dig[i]] + i;
      if (keys_out) {
        if (last) ((Raw*)keys_out_p)[g] = Tr::back(s_keys[i]);
        else ((K*)keys_out_p)[g] = s_keys[i];
      }
      if (vals_out) {
        const V v = s_vals[i];
        if (last) ((long long*)vals_out_p)[g] = (long long)(row_n == n ? (u64)v : (u64)v % row_n);
        else ((V*)vals_out_p)[g] = v;
      }
    }
  }
}

// searchsorted: the insertion point of each query in the sorted `a`.
template <typename Tr>
__device__ void searchsorted(const typename Tr::Raw* a, u64 n, const typename Tr::Raw* v, u64 m,
                            long long* out, bool right) {
  typedef typename Tr::K K;
  const u64 i = (u64)blockIdx.x * CUPRUM_SORT_BLOCK + threadIdx.x;
  if (i >= m) return;
  const K q = Tr::key(v[i], true);
  u64 lo = 0, hi = n;
  while (lo < hi) {
    const u64 mid = lo + (hi - lo) / 2;
    const K x = Tr::key(a[mid], true);
    const bool go_right = right ? !key_less(q, x) : key_less(x, q);
    if (go_right) lo = mid + 1; else hi = mid;
  }
  out[i] = (long long)lo;
}

// unique: flag[i] = 1 where sorted s[i] starts a run of equal keys (-0.0 ==
// 0.0). With equal_nan (NumPy's default) NaNs are equal, complex values with
// a NaN all equal; without, every NaN starts a run of its own.
template <typename Tr>
__device__ void unique_flags(const typename Tr::Raw* s, u64 n, unsigned char* flag,
                             bool equal_nan) {
  const u64 i = (u64)blockIdx.x * CUPRUM_SORT_BLOCK + threadIdx.x;
  if (i >= n) return;
  if (i == 0) { flag[i] = 1; return; }
  const typename Tr::K a = Tr::key(s[i], true), b = Tr::key(s[i - 1], true);
  const bool nan = NanClass<Tr>::any(a);
  flag[i] = equal_nan ? !(key_eq(a, b) || (nan && NanClass<Tr>::any(b))) : (nan || !key_eq(a, b));
}

// unique: scatter run starts to their slot (cumsum - 1): the value, the
// original index (from perm), the run's start (for counts); inverse[perm[i]]
// = slot for every i. Null pointers skip an output.
template <typename Tr>
__device__ void unique_scatter(const typename Tr::Raw* s, const unsigned char* flag,
                               const long long* csum, const long long* perm, u64 n,
                               typename Tr::Raw* out, long long* index, long long* inverse,
                               long long* start) {
  const u64 i = (u64)blockIdx.x * CUPRUM_SORT_BLOCK + threadIdx.x;
  if (i >= n) return;
  const long long slot = csum[i] - 1;
  if (flag[i]) {
    if (out) out[slot] = s[i];
    if (index) index[slot] = perm[i];
    if (start) start[slot] = (long long)i;
  }
  if (inverse) inverse[perm[i]] = slot;
}

}  // namespace cuprum_sort

// Parameters as the declarations of radix.rs (and select.rs) give them:
// element arrays of the dtype's C type T (read as the traits' raw bits),
// sizes as long long.
#define CUPRUM_SORT_DTYPE(NAME, TR, T)                                                           \
  extern "C" __global__ void __launch_bounds__(256) cuprum_sort_hist_##NAME(                     \
      const T* src, unsigned long long* hist, long long n, long long row_n, long long rows,      \
      int key_passes, int row_passes, bool cz) {                                                \
    cuprum_sort::histogram<cuprum_sort::TR>((const cuprum_sort::TR::Raw*)src, n, row_n, rows,   \
        key_passes, row_passes, cz, hist);                                                      \
  }                                                                                             \
  extern "C" __global__ void __launch_bounds__(256) cuprum_sort_scan_##NAME(                     \
      unsigned long long* hist, int passes) {                                                   \
    cuprum_sort::scan_bins(hist, passes);                                                       \
  }                                                                                             \
  CUPRUM_SORT_PASS(NAME, TR, u32, k32, false, 4)                                                \
  CUPRUM_SORT_PASS(NAME, TR, u32, v32, true, 4)                                                 \
  CUPRUM_SORT_PASS(NAME, TR, u64, v64, true, 3)                                                 \
  extern "C" __global__ void __launch_bounds__(256) cuprum_sort_search_##NAME(                   \
      const T* a, long long n, const T* v, long long m, long long* out, bool right) {           \
    cuprum_sort::searchsorted<cuprum_sort::TR>((const cuprum_sort::TR::Raw*)a, n,               \
        (const cuprum_sort::TR::Raw*)v, m, out, right);                                         \
  }                                                                                             \
  extern "C" __global__ void __launch_bounds__(256) cuprum_sort_uflags_##NAME(                   \
      const T* sorted, long long n, bool* flag, bool equal_nan) {                               \
    cuprum_sort::unique_flags<cuprum_sort::TR>((const cuprum_sort::TR::Raw*)sorted, n,          \
        (unsigned char*)flag, equal_nan);                                                       \
  }                                                                                             \
  extern "C" __global__ void __launch_bounds__(256) cuprum_sort_uscatter_##NAME(                 \
      const T* sorted, const bool* flag, const long long* csum, const long long* perm,          \
      long long n, T* values, long long* index, long long* inverse, long long* start) {         \
    cuprum_sort::unique_scatter<cuprum_sort::TR>((const cuprum_sort::TR::Raw*)sorted,           \
        (const unsigned char*)flag, csum, perm, n, (cuprum_sort::TR::Raw*)values, index,        \
        inverse, start);                                                                        \
  }                                                                                             \
  CUPRUM_SELECT_DTYPE(NAME, TR, T)

#define CUPRUM_SORT_PASS(NAME, TR, V, VS, VALS, MINB)                                          \
  extern "C" __global__ void __launch_bounds__(256, MINB) cuprum_sort_pass_##VS##_##NAME(       \
      const void* keys_in, const V* vals_in, void* keys_out, void* vals_out, long long n,       \
      long long row_n, int shift, int flags, int pass, bool cz,                                 \
      const unsigned long long* bin_start, unsigned long long* status, unsigned int* counter) { \
    cuprum_sort::onesweep<cuprum_sort::TR, V, VALS>(keys_in, vals_in, keys_out, vals_out, n,    \
        row_n, shift, flags, pass, cz, bin_start, status, counter);                             \
  }
