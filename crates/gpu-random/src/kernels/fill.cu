// The fixed-cost draws of the default bit generator, one Philox block per
// thread and iteration (grid-stride, so any grid gives the same numbers):
// random and standard_normal (float32: four values per block, normals by
// the ziggurat; float64: two, normals by Box-Muller) with an optional
// affine map, and integers (Lemire's multiply-and-reject). Which lanes an
// element uses is src/philox.rs's table; the host twin there computes the
// same values. Needs philox.cuh and the ziggurat's tables
// (src/ziggurat.rs) before it; compiled with --fmad=false.

// ---- float32 standard normals: the ziggurat (src/ziggurat.rs, whose
// host twin does the same operations in the same order; the tables
// cuprum_zig_kw, cuprum_zig_f and CUPRUM_ZIG_R come before this file).
// A word's bits 0-7 are its layer i, bits 8-30 the odd m = 2 b + 1, bit
// 31 its sign; x = m W[i] is taken at once when m < K[i].

__device__ __forceinline__ float cuprum_zig_signed(unsigned int u, float x) {
  return __uint_as_float(__float_as_uint(x) | (u & 0x80000000u));
}

// The wedge test, the tail beyond r, and new words after a rejection
// (about one element in 67 comes here; inlined once, in a loop over the
// block's pending lanes, which keeps the fast path's registers free of a
// call's saves).
__device__ __forceinline__ float cuprum_zig_slow(cuprum_random::Key key, unsigned long long pos,
                                              unsigned int word, int lane, unsigned int u) {
  // The lane's further words: the blocks at inner = 1 + lane + 4 t.
  cuprum_random::Stream s(key, pos, word, 1u + (unsigned int)lane, 4u);
  for (;;) {
    const unsigned int i = u & 0xFFu;
    const unsigned int m = ((u >> 7) & 0x00FFFFFEu) | 1u;
    const uint2 kw = cuprum_zig_kw[i];
    const float x = (float)m * __uint_as_float(kw.y);
    if (m < kw.x) return cuprum_zig_signed(u, x);
    if (i == 0) {
      // The tail (Marsaglia 1964): r + a, a = -log(U1) / r, taken when
      // 2 (-log U2) > a^2.
      const float rf = __uint_as_float(CUPRUM_ZIG_R);
      for (;;) {
        const float a = -cuprum_random::log_f(cuprum_random::u01f_open(s.next_u32())) / rf;
        const float b = -cuprum_random::log_f(cuprum_random::u01f_open(s.next_u32()));
        if (b + b > a * a) return cuprum_zig_signed(u, rf + a);
      }
    }
    // The wedge: y uniform on [F[i], F[i+1]), taken under the curve.
    const float uu = cuprum_random::u01f(s.next_u32());
    const float f0 = __uint_as_float(cuprum_zig_f[i]);
    const float f1 = __uint_as_float(cuprum_zig_f[i + 1]);
    const float y = f0 + uu * (f1 - f0);
    const float sq = x * x;
    if (cuprum_random::log_f(y) < -0.5f * sq) return cuprum_zig_signed(u, x);
    u = s.next_u32();
  }
}

// The fixed-cost draws' per-launch context: the key (and its round keys)
// and the stream word.
struct CuprumFillCtx {
  cuprum_random::RoundKeys rk;
  cuprum_random::Key key;
  unsigned int word;
};

// The float32 normals' fast-path table in shared memory (random layer
// indices: one 8-byte shared load an element), copied from cuprum_zig_kw
// with the test recast: for the word's b = bits 8-30, fb = 0x4B800000 |
// b is the float 2^24 + 2 b, so fb - (2^24 - 1) = m exactly (no integer
// conversion), and m < K (m = 2 b + 1) is b < K / 2, that is
// fb < 0x4B800000 + (K >> 1) (src/ziggurat.rs tests the equivalence).
__shared__ uint2 cuprum_zig_fast[256];

// The launch parameters k0..k19 (round r's keys: k(2r), k(2r+1); 32-bit
// parameters, so that each round's xor takes its key from the constant
// bank and stays a 32-bit operation) as cuprum_random::RoundKeys and the
// key, the context's first fields.
#define CUPRUM_ROUND_KEYS                                                                      \
  cuprum_random::RoundKeys{{k0, k2, k4, k6, k8, k10, k12, k14, k16, k18},                      \
                           {k1, k3, k5, k7, k9, k11, k13, k15, k17, k19}},                     \
      cuprum_random::Key{k0, k1}
#define CUPRUM_ROUND_KEY_PARAMS                                                                \
  unsigned int k0, unsigned int k1, unsigned int k2, unsigned int k3, unsigned int k4,         \
      unsigned int k5, unsigned int k6, unsigned int k7, unsigned int k8, unsigned int k9,     \
      unsigned int k10, unsigned int k11, unsigned int k12, unsigned int k13,                  \
      unsigned int k14, unsigned int k15, unsigned int k16, unsigned int k17,                  \
      unsigned int k18, unsigned int k19

// kind: 0 uniform [0, 1), 1 standard normal; kind | 4: then fma(b, x, a).
template <typename T>
__device__ __forceinline__ void cuprum_random_fill_lanes(cuprum_random::Block r, int kind, T* v,
                                                         const CuprumFillCtx& c,
                                                         unsigned long long pos);

template <>
__device__ __forceinline__ void cuprum_random_fill_lanes<double>(cuprum_random::Block r, int kind,
                                                                 double* v, const CuprumFillCtx&,
                                                                 unsigned long long) {
  if ((kind & 3) == 0) {
    v[0] = cuprum_random::u01(r.x, r.y);
    v[1] = cuprum_random::u01(r.z, r.w);
  } else {
    cuprum_random::box_muller_d(cuprum_random::u01_open(r.x, r.y), cuprum_random::u01(r.z, r.w),
                                &v[0], &v[1]);
  }
}

// float32: uniforms only (the normals take cuprum_random_normal_f32).
template <>
__device__ __forceinline__ void cuprum_random_fill_lanes<float>(cuprum_random::Block r, int,
                                                                float* v, const CuprumFillCtx&,
                                                                unsigned long long) {
  const unsigned int w[4] = {r.x, r.y, r.z, r.w};
#pragma unroll
  for (int l = 0; l < 4; ++l) v[l] = cuprum_random::u01f(w[l]);
}

// One 16-byte store of a block's values.
__device__ __forceinline__ void cuprum_random_store(float* p, const float* v) {
  *(float4*)p = make_float4(v[0], v[1], v[2], v[3]);
}
__device__ __forceinline__ void cuprum_random_store(double* p, const double* v) {
  *(double2*)p = make_double2(v[0], v[1]);
}

template <typename T, int L>
__device__ __forceinline__ void cuprum_random_fill(T* out, long long n, const CuprumFillCtx& c,
                                                   unsigned long long pos, int kind, double a,
                                                   double b) {
  const unsigned long long blocks = ((unsigned long long)n + L - 1) / L;
  const bool aligned = ((unsigned long long)out & 15) == 0;
  for (unsigned long long j = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; j < blocks;
       j += (unsigned long long)gridDim.x * blockDim.x) {
    T v[L];
    cuprum_random_fill_lanes<T>(cuprum_random::block_at(c.rk, pos + j, c.word, 0), kind, v, c,
                                pos + j);
    if (kind & 4) {
#pragma unroll
      for (int l = 0; l < L; ++l) v[l] = (T)fma(b, (double)v[l], a);
    }
    const unsigned long long first = j * L;
    if (aligned && first + L <= (unsigned long long)n) {
      cuprum_random_store(out + first, v);
    } else {
#pragma unroll
      for (int l = 0; l < L; ++l)
        if (first + l < (unsigned long long)n) out[first + l] = v[l];
    }
  }
}

// ---- float32 normals, a warp at a time. About one element in 67 leaves
// the ziggurat's fast path; a warp of 32 threads of four elements each
// meets one nearly every iteration, and resolving it where it falls would
// hold the other 31 lanes idle through its Philox blocks, logarithms and
// rejections (ncu: 15 of 32 threads active on average, half the warp's
// issue slots lost). So the fast path stores every element (a provisional
// value where the fast test failed), and the failed ones queue up in
// shared memory, a ring a warp: block j << 2 | lane (the word is drawn
// again where it is resolved: a Philox block for one lane in 67 costs
// less than storing and selecting it for every one). Once 16 wait, a
// thread each resolves one and overwrites the provisional value;
// the rest are resolved after the loop. Each value is still the same
// function of (key, counter), whichever thread resolves it, in whatever
// order the entries were queued, and whatever the grid. The loop runs
// warp-uniform (the votes need every lane); blockDim.x is
// CUPRUM_FILL_THREADS.
#define CUPRUM_FILL_THREADS 256
// The ring's entries a warp (a power of two). At most 15 + 4 * 32 wait
// after an iteration's appends; the newest 32 of them are being read while
// the next iteration appends at most 128 past them, fewer than 191 in
// all, so no slot is written while a lane may still read it (the older
// reads are ordered by the __syncwarp that starts each resolving round).
#define CUPRUM_ZIG_RING 256

// The ring of one warp: the entries, and the appends' counter (slots
// are claimed with a shared atomic: which lane's entry lands where does
// not matter, each is resolved from its own (j, lane)).
struct CuprumZigRing {
  unsigned long long* idx;
  unsigned int* tail;
};

// Resolves ring slot e (its value replaces the provisional one).
__device__ __forceinline__ void cuprum_zig_resolve(float* out, const CuprumFillCtx& c,
                                                   unsigned long long pos, const CuprumZigRing& q,
                                                   unsigned int e, int kind, double a, double b) {
  const unsigned long long code = q.idx[e];
  const unsigned long long j = code >> 2;
  const int l = (int)(code & 3);
  const cuprum_random::Block r = cuprum_random::block_at(c.rk, pos + j, c.word, 0);
  const unsigned int u = l == 0 ? r.x : l == 1 ? r.y : l == 2 ? r.z : r.w;
  float z = cuprum_zig_slow(c.key, pos + j, c.word, l, u);
  if (kind & 4) z = (float)fma(b, (double)z, a);
  out[j * 4 + l] = z;
}

// One warp iteration: block j = base + lane (CHECKED: j may lie past the
// last block, the last block may be partial, or `out` unaligned). `sent`
// counts the entries ever queued, `done` those resolved (the same in every
// lane).
template <bool CHECKED>
__device__ __forceinline__ void cuprum_zig_step(float* out, long long n, const CuprumFillCtx& c,
                                                unsigned long long pos, int kind, double a,
                                                double b, unsigned long long j, bool aligned,
                                                const CuprumZigRing& q, unsigned int& sent,
                                                unsigned int& done) {
  const unsigned int full = 0xffffffffu;
  const unsigned long long blocks = ((unsigned long long)n + 3) / 4;
  unsigned int slow = 0;
  if (!CHECKED || j < blocks) {
    const cuprum_random::Block r = cuprum_random::block_at(c.rk, pos + j, c.word, 0);
    const unsigned int w[4] = {r.x, r.y, r.z, r.w};
    float v[4];
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      const unsigned int fb = ((w[l] >> 8) & 0x007FFFFFu) | 0x4B800000u;
      const uint2 kw = cuprum_zig_fast[w[l] & 0xFFu];
      const float m = __uint_as_float(fb) - 16777215.0f;  // exact
      v[l] = cuprum_zig_signed(w[l], m * __uint_as_float(kw.y));
      if (kind & 4) v[l] = (float)fma(b, (double)v[l], a);
      slow |= (fb >= kw.x ? 1u : 0u) << l;
    }
    const unsigned long long first = j * 4;
    if (!CHECKED) {
      cuprum_random_store(out + first, v);
    } else {
      const bool whole = first + 4 <= (unsigned long long)n;
      // The last block's lanes past n are not elements.
      if (!whole) slow &= (1u << (unsigned int)((unsigned long long)n - first)) - 1u;
      if (aligned && whole) {
        cuprum_random_store(out + first, v);
      } else {
#pragma unroll
        for (int l = 0; l < 4; ++l)
          if (first + l < (unsigned long long)n) out[first + l] = v[l];
      }
    }
  }
  if (__ballot_sync(full, slow != 0) == 0) return;
  const unsigned int count = (unsigned int)__popc(slow);
  sent += __reduce_add_sync(full, count);
  if (slow) {
    unsigned int at = atomicAdd(q.tail, count);
    do {
      const int l = __ffs(slow) - 1;
      slow &= slow - 1;
      q.idx[at++ & (CUPRUM_ZIG_RING - 1)] = (j << 2) | (unsigned long long)l;
    } while (slow);
  }
  // Resolved once 16 wait, not 32: a resolved value overwrites its
  // provisional one where the fast path stored it iterations ago, and the
  // longer the wait, the likelier that sector has left L2 for DRAM, which
  // then reads it back to merge four bytes (on the H100, 0.64 ms -> 0.53
  // for 2^28 normals; 8 idles too many lanes: 0.61).
  const int lane = threadIdx.x & 31;
  while (sent - done >= 16) {
    __syncwarp();  // the entries and the provisional stores are seen by the warp
    const unsigned int take = min(sent - done, 32u);
    if ((unsigned int)lane < take)
      cuprum_zig_resolve(out, c, pos, q, (done + lane) & (CUPRUM_ZIG_RING - 1), kind, a, b);
    done += take;
  }
}

__device__ __forceinline__ void cuprum_random_normal_f32(float* out, long long n,
                                                         const CuprumFillCtx& c,
                                                         unsigned long long pos, int kind,
                                                         double a, double b,
                                                         const CuprumZigRing& q) {
  const unsigned long long blocks = ((unsigned long long)n + 3) / 4;
  const bool aligned = ((unsigned long long)out & 15) == 0;
  const int lane = threadIdx.x & 31;
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  if (lane == 0) *q.tail = 0;
  __syncwarp();
  unsigned int sent = 0, done = 0;
  unsigned long long base = (unsigned long long)blockIdx.x * blockDim.x + (threadIdx.x & ~31u);
  // Whole iterations first: every lane's block lies inside n and is
  // stored with one 16-byte store, no bounds to test.
  if (aligned) {
    const unsigned long long whole = (unsigned long long)n / 4;
    for (; base + 32 <= whole; base += stride)
      cuprum_zig_step<false>(out, n, c, pos, kind, a, b, base + lane, aligned, q, sent, done);
  }
  // The rest (at most one iteration when aligned).
  for (; base < blocks; base += stride)
    cuprum_zig_step<true>(out, n, c, pos, kind, a, b, base + lane, aligned, q, sent, done);
  __syncwarp();
  if ((unsigned int)lane < sent - done)
    cuprum_zig_resolve(out, c, pos, q, (done + lane) & (CUPRUM_ZIG_RING - 1), kind, a, b);
}

// float32 normals first copy the K and W table to shared memory (random
// layer indices: one 8-byte shared load an element).
#define CUPRUM_RANDOM_FILL_F32(NAME, T)                                                        \
  extern "C" __global__ void __launch_bounds__(CUPRUM_FILL_THREADS)                           \
      NAME(T* out, long long n, CUPRUM_ROUND_KEY_PARAMS, unsigned long long pos,               \
           unsigned int word, int kind, double a, double b) {                                  \
    __shared__ unsigned long long qidx[CUPRUM_FILL_THREADS / 32][CUPRUM_ZIG_RING];             \
    __shared__ unsigned int qtail[CUPRUM_FILL_THREADS / 32];                                   \
    const CuprumFillCtx c{CUPRUM_ROUND_KEYS, word};                                            \
    if ((kind & 3) == 1) {                                                                     \
      for (int t = threadIdx.x; t < 256; t += blockDim.x) {                                    \
        const uint2 kw = cuprum_zig_kw[t];                                                     \
        cuprum_zig_fast[t] = make_uint2(0x4B800000u + (kw.x >> 1), kw.y);                      \
      }                                                                                        \
      __syncthreads();                                                                         \
      const int warp = threadIdx.x / 32;                                                       \
      cuprum_random_normal_f32(out, n, c, pos, kind, a, b,                                     \
                               CuprumZigRing{qidx[warp], &qtail[warp]});                       \
    } else {                                                                                   \
      cuprum_random_fill<float, 4>(out, n, c, pos, kind, a, b);                                \
    }                                                                                          \
  }
#define CUPRUM_RANDOM_FILL_F64(NAME, T)                                                        \
  extern "C" __global__ void NAME(T* out, long long n, CUPRUM_ROUND_KEY_PARAMS,                 \
                                  unsigned long long pos, unsigned int word, int kind, double a, \
                                  double b) {                                                  \
    const CuprumFillCtx c{CUPRUM_ROUND_KEYS, word};                                            \
    cuprum_random_fill<double, 2>(out, n, c, pos, kind, a, b);                                 \
  }

// Integers in [low, low + range) (range 0: all 2^64), written as T (the
// sum wraps in 64 bits, so a signed low works through its two's
// complement). WIDE: range above 2^32, two lanes an element; else one.
// Lemire: accept m = x range when its low part is at least 2^w mod range
// (`t`), else draw that lane again from the block at inner 1, 2, ...
// (out of line: it runs for under one lane in 2^32 / t).
template <bool WIDE>
__device__ __forceinline__ bool cuprum_random_accept(cuprum_random::Block r, int l,
                                                     unsigned long long range, unsigned long long t,
                                                     unsigned long long* off) {
  if (!WIDE) {
    const unsigned int x = l == 0 ? r.x : l == 1 ? r.y : l == 2 ? r.z : r.w;
    if (range == (1ull << 32)) {
      *off = x;
      return true;
    }
    const unsigned long long m = (unsigned long long)x * (unsigned int)range;
    *off = m >> 32;
    return (unsigned int)m >= (unsigned int)t;
  }
  const unsigned long long x = l == 0 ? (((unsigned long long)r.x << 32) | r.y)
                                      : (((unsigned long long)r.z << 32) | r.w);
  if (range == 0) {
    *off = x;
    return true;
  }
  *off = __umul64hi(x, range);
  return x * range >= t;
}

template <bool WIDE>
__device__ __noinline__ unsigned long long cuprum_random_redraw(cuprum_random::Key key,
                                                                unsigned long long pos,
                                                                unsigned int word, int l,
                                                                unsigned long long range,
                                                                unsigned long long t) {
  unsigned long long off = 0;
  for (unsigned int inner = 1;; ++inner)
    if (cuprum_random_accept<WIDE>(cuprum_random::block_at(key, pos, word, inner), l, range, t,
                                   &off))
      return off;
}

// One 16-byte store per 16 bytes of a block's values, when they fill it.
template <typename T, int L>
__device__ __forceinline__ void cuprum_random_store_ints(T* p, const T* v) {
  union {
    T t[L];
    uint4 q[(sizeof(T) * L + 15) / 16];
  } u;
#pragma unroll
  for (int l = 0; l < L; ++l) u.t[l] = v[l];
#pragma unroll
  for (int c = 0; c < (int)(sizeof(T) * L / 16); ++c) ((uint4*)p)[c] = u.q[c];
}

// The grid walks tiles of 32 consecutive blocks, one per warp, so that a
// warp can write a full tile together: 8-byte integers from 32-bit ranges
// are 32 bytes a thread, and two 16-byte stores per thread, 32 bytes
// apart, made L2 the bottleneck (86% busy for 46% of DRAM's bandwidth,
// ncu on the H100); the warp exchanges values by shuffles instead, and
// each store instruction covers 512 contiguous bytes.
template <typename T, bool WIDE>
__device__ __forceinline__ void cuprum_random_ints(T* out, long long n, unsigned int k0,
                                                   unsigned int k1, unsigned long long pos,
                                                   unsigned int word, unsigned long long low,
                                                   unsigned long long range) {
  constexpr int L = WIDE ? 2 : 4;
  constexpr bool TRANSPOSE = !WIDE && sizeof(T) == 8;
  const cuprum_random::Key key{k0, k1};
  const unsigned long long blocks = ((unsigned long long)n + L - 1) / L;
  const unsigned long long t =
      WIDE ? (range != 0 ? (0ull - range) % range : 0) : ((1ull << 32) - range) % range;
  const bool aligned = ((unsigned long long)out & 15) == 0;
  const bool vec = (sizeof(T) * L) % 16 == 0 && aligned;
  const unsigned int lane = threadIdx.x & 31;
  const unsigned long long tiles = (blocks + 31) / 32;
  const unsigned long long warps = (unsigned long long)gridDim.x * (blockDim.x / 32);
  for (unsigned long long w = ((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
       w < tiles; w += warps) {
    const unsigned long long j = w * 32 + lane;
    T v[L];
    if (j < blocks) {
      const cuprum_random::Block r = cuprum_random::block_at(key, pos + j, word, 0);
#pragma unroll
      for (int l = 0; l < L; ++l) {
        unsigned long long off;
        if (!cuprum_random_accept<WIDE>(r, l, range, t, &off))
          off = cuprum_random_redraw<WIDE>(key, pos + j, word, l, range, t);
        v[l] = (T)(low + off);
      }
    }
    // Warp-uniform: the whole tile's 128 elements exist.
    bool stored = false;
    if constexpr (TRANSPOSE) {
      if (aligned && (w + 1) * 32 * L <= (unsigned long long)n) {
        // Store k (0, 1) writes tile elements 64k + 2 lane, + 1: lanes
        // 2 (lane % 2), + 1 of thread 16k + lane / 2.
        T* tile = out + w * 32 * L;
#pragma unroll
        for (int k = 0; k < 2; ++k) {
          const int src = 16 * k + (int)(lane >> 1);
          const T a0 = __shfl_sync(0xFFFFFFFFu, v[0], src);
          const T a1 = __shfl_sync(0xFFFFFFFFu, v[1], src);
          const T b0 = __shfl_sync(0xFFFFFFFFu, v[2], src);
          const T b1 = __shfl_sync(0xFFFFFFFFu, v[3], src);
          const T pair[2] = {(lane & 1) ? b0 : a0, (lane & 1) ? b1 : a1};
          cuprum_random_store_ints<T, 2>(tile + 64 * k + 2 * lane, pair);
        }
        stored = true;
      }
    }
    if (!stored && j < blocks) {
      const unsigned long long first = j * L;
      if (vec && first + L <= (unsigned long long)n) {
        cuprum_random_store_ints<T, L>(out + first, v);
      } else {
#pragma unroll
        for (int l = 0; l < L; ++l)
          if (first + l < (unsigned long long)n) out[first + l] = v[l];
      }
    }
  }
}

#define CUPRUM_RANDOM_INTS(NAME, T)                                                          \
  extern "C" __global__ void NAME(T* out, long long n, unsigned int k0, unsigned int k1,     \
                                  unsigned long long pos, unsigned int word,                 \
                                  unsigned long long low, unsigned long long range, int wide) { \
    if (wide)                                                                                \
      cuprum_random_ints<T, true>(out, n, k0, k1, pos, word, low, range);                    \
    else                                                                                     \
      cuprum_random_ints<T, false>(out, n, k0, k1, pos, word, low, range);                   \
  }

// permutation(n): out[i] = E(i), walked (E(E(i)), ...) until below n, with
// E an 8-round balanced Feistel network on 2 * half bits (Luby and
// Rackoff 1988; cycle walking, Black and Rogaway 2002): a bijection of
// [0, 4^half) restricted to [0, n), so the result is a permutation, in
// one pass and without a sort. Round r mixes R ^ key[r] with a 32-bit
// integer hash (xor-shift-multiply, the "lowbias32" constants of
// Wellons's hash prospector). A Feistel network's permutations are all
// even, so `flip` (a random bit) composes them with the transposition of
// inputs 0 and 1, which makes the parity a fair coin.
__device__ __forceinline__ unsigned int cuprum_random_mix32(unsigned int x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

__device__ __forceinline__ unsigned long long cuprum_random_feistel(unsigned long long x,
                                                                   unsigned int half,
                                                                   const unsigned int* key) {
  const unsigned int mask = half >= 32 ? 0xFFFFFFFFu : (1u << half) - 1u;
  unsigned int l = (unsigned int)(x >> half) & mask, r = (unsigned int)x & mask;
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    const unsigned int t = r;
    r = l ^ (cuprum_random_mix32(r ^ key[k]) & mask);
    l = t;
  }
  return ((unsigned long long)l << half) | r;
}

extern "C" __global__ void cuprum_random_permutation(long long* out, long long n, unsigned int half,
                                                     unsigned int k0, unsigned int k1,
                                                     unsigned int k2, unsigned int k3,
                                                     unsigned int k4, unsigned int k5,
                                                     unsigned int k6, unsigned int k7,
                                                     unsigned int flip) {
  const unsigned int key[8] = {k0, k1, k2, k3, k4, k5, k6, k7};
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
       i < (unsigned long long)n; i += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned long long y = cuprum_random_feistel(i < 2 ? i ^ flip : i, half, key);
    while (y >= (unsigned long long)n) y = cuprum_random_feistel(y, half, key);
    out[i] = (long long)y;
  }
}
