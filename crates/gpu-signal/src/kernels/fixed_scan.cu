// gpu-signal's recursive filters with their state size compiled in
// (src/filtering/fixed_scan.rs launches them, src/raw.rs vouches for the
// launches): lfilter.cu's blocked recursion with the state in registers,
// for two recursions (the policy R):
//   CuprumSosCascade<T, S>: sosfilt's S second-order sections, every
//     section in one pass over the samples (state: section s's z0, z1 at
//     2s and 2s + 1; zi and zf laid out (section, signal, 2); coef holds
//     b0 b1 b2 a1 a2 of each section). SciPy's _sosfilt step:
//       y = b0 x + z0;  z0 = b1 x - a1 y + z1;  z1 = b2 x - a2 y.
//   CuprumTdf2<T, N>: lfilter's transposed direct form II of order N
//     (zi and zf laid out (signal, N); coef holds b[0..N] then a[0..N],
//     normalized). SciPy's loop:
//       y = z[0] + b[0] x;  z[i] = z[i + 1] + b[i + 1] x - a[i + 1] y;
//       z[N - 1] = b[N] x - a[N] y.
// The passes:
//   states: thread (m, k) runs block k of signal m from the zero state
//     (block 0 from zi) and writes its final state;
//   carry (carry.cuh) with the state size compiled in gives the state
//     entering each block from those and the recursion's block map Phi;
//   run: thread (m, k) runs block k again from its entering state (block
//     0 from zi), writing the outputs and, for the last block, zf.
// Re-running the block rather than adding the zero-input response of the
// entering state (lfilter.cu's fixup) reads the input twice but keeps
// SciPy's arithmetic inside a block (each product and sum rounded on its
// own: compiled with --fmad=false): with one block a signal the result is
// SciPy's to the bit.

#include "cuprum/types.cuh"

template <class T, int S>
struct CuprumSosCascade {
  static constexpr int D = 2 * S;
  T c[5 * S];
  __device__ __forceinline__ void load(const T* coef) {
#pragma unroll
    for (int k = 0; k < 5 * S; ++k) c[k] = coef[k];
  }
  __device__ __forceinline__ T step(T x, T (&z)[D]) const {
#pragma unroll
    for (int s = 0; s < S; ++s) {
      const T y = c[5 * s] * x + z[2 * s];
      z[2 * s] = c[5 * s + 1] * x - c[5 * s + 3] * y + z[2 * s + 1];
      z[2 * s + 1] = c[5 * s + 2] * x - c[5 * s + 4] * y;
      x = y;
    }
    return x;
  }
  // Where state value r of signal m sits in zi and zf.
  __device__ __forceinline__ static long long at(long long m, int r, long long signals) {
    return ((long long)(r / 2) * signals + m) * 2 + r % 2;
  }
};

template <class T, int N>
struct CuprumTdf2 {
  static constexpr int D = N;
  T b[N + 1], a[N + 1];
  __device__ __forceinline__ void load(const T* coef) {
#pragma unroll
    for (int k = 0; k <= N; ++k) {
      b[k] = coef[k];
      a[k] = coef[N + 1 + k];
    }
  }
  __device__ __forceinline__ T step(T x, T (&z)[D]) const {
    const T y = z[0] + b[0] * x;
#pragma unroll
    for (int r = 0; r + 1 < N; ++r) z[r] = z[r + 1] + b[r + 1] * x - a[r + 1] * y;
    z[N - 1] = b[N] * x - a[N] * y;
    return y;
  }
  __device__ __forceinline__ static long long at(long long m, int r, long long) {
    return m * N + r;
  }
};

// V samples of 16 bytes, read or written at once where the block and the
// row are aligned to them.
template <class T>
struct CuprumScanPack {
  static constexpr int V = sizeof(T) >= 16 ? 1 : 16 / sizeof(T);
  struct alignas(16) type {
    T v[V];
  };
};

// The packed walk goes in batches of U packs of X, the next batch's loads
// issued before this batch's steps: a thread keeps U loads in flight
// while its recursion runs, where one in flight left the states and run
// passes bound by memory latency (ncu, H100, sosfilt of 1024 signals of
// 2^14: 64 MB read in 68 us, about 1 TB/s, with one 16-byte load in
// flight per thread). U = 4 (64 bytes a thread) for states of up to 8
// values; larger states hold their coefficients in many registers, and
// take 2.
template <class R>
struct CuprumScanAhead {
  static constexpr int U = R::D <= 8 ? 4 : 2;
};

// Samples start..stop of one row through the recursion; with OUT, the
// outputs to y. The input's type X is T or a narrower real (float into a
// double recursion: read as it is stored, each value widened exactly, so
// the cast a caller would make first costs no pass of its own). `packed`:
// start, stop and the rows sit on boundaries of V samples, V the larger
// of the two 16-byte packs, and x and y on 16-byte boundaries (the host
// checks; every thread of a launch agrees): V samples are read as whole
// packs of X and written as whole packs of T.
template <class R, class X, class T, bool OUT>
__device__ __forceinline__ void cuprum_scan_block(const R& rec, const X* __restrict__ x,
                                                  T* __restrict__ y, long long start,
                                                  long long stop, bool packed,
                                                  T (&z)[R::D]) {
  using PX = typename CuprumScanPack<X>::type;
  using PT = typename CuprumScanPack<T>::type;
  constexpr int VX = CuprumScanPack<X>::V, VT = CuprumScanPack<T>::V;
  constexpr int V = VX > VT ? VX : VT;
  constexpr int P = V / VX;  // packs of X a group of V samples
  constexpr int U = CuprumScanAhead<R>::U;
  constexpr int B = U * V;  // samples a batch
  // V samples from the packs p[0..P) through the recursion, out to y at j.
  auto group = [&](const PX* p, long long j) {
    T v[V];
#pragma unroll
    for (int a = 0; a < P; ++a)
#pragma unroll
      for (int b = 0; b < VX; ++b) v[a * VX + b] = T(p[a].v[b]);
#pragma unroll
    for (int i = 0; i < V; ++i) v[i] = rec.step(v[i], z);
    if (OUT) {
#pragma unroll
      for (int a = 0; a < V / VT; ++a) {
        PT q;
#pragma unroll
        for (int b = 0; b < VT; ++b) q.v[b] = v[a * VT + b];
        *reinterpret_cast<PT*>(y + j + a * VT) = q;
      }
    }
  };
  long long j = start;
  if (packed) {
    if (j + B <= stop) {
      PX cur[U * P];
#pragma unroll
      for (int u = 0; u < U * P; ++u) cur[u] = *reinterpret_cast<const PX*>(x + j + u * VX);
      for (;;) {
        const bool more = j + 2 * B <= stop;
        PX next[U * P];
        if (more) {
#pragma unroll
          for (int u = 0; u < U * P; ++u)
            next[u] = *reinterpret_cast<const PX*>(x + j + B + u * VX);
        }
#pragma unroll
        for (int u = 0; u < U; ++u) group(cur + u * P, j + u * V);
        j += B;
        if (!more) break;
#pragma unroll
        for (int u = 0; u < U * P; ++u) cur[u] = next[u];
      }
    }
    for (; j + V <= stop; j += V) {
      PX p[P];
#pragma unroll
      for (int a = 0; a < P; ++a) p[a] = *reinterpret_cast<const PX*>(x + j + a * VX);
      group(p, j);
    }
  }
  for (; j < stop; ++j) {
    const T v = rec.step(T(x[j]), z);
    if (OUT) y[j] = v;
  }
}

// The state block k of signal m starts from: zi's (or zero) for block 0,
// init's (the carry's; zero when null, as the states pass runs them) for
// the others.
template <class R, class T>
__device__ __forceinline__ void cuprum_scan_enter(T (&z)[R::D], const T* zi, const T* init,
                                                  long long m, long long k, long long signals,
                                                  long long blocks) {
#pragma unroll
  for (int r = 0; r < R::D; ++r) {
    if (k > 0)
      z[r] = init != nullptr ? init[(m * blocks + k) * R::D + r] : T(0);
    else
      z[r] = zi != nullptr ? zi[R::at(m, r, signals)] : T(0);
  }
}

// Each thread a block of a signal: entered from zi, the carry's init or
// zero (cuprum_scan_enter), walked, and then RUN: the outputs to y and
// the last block's final state to zf; else (the states pass, init null):
// the block's final state to state.
template <class R, class X, class T, bool RUN>
__device__ __forceinline__ void cuprum_scan_walk(const X* x, T* y, const T* coef, const T* zi,
                                                 const T* init, T* state, T* zf,
                                                 long long signals, long long n,
                                                 long long block, long long blocks,
                                                 bool packed) {
  R rec;
  rec.load(coef);
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < signals * blocks;
       t += (long long)gridDim.x * blockDim.x) {
    const long long m = t / blocks, k = t % blocks;
    T z[R::D];
    cuprum_scan_enter<R, T>(z, zi, init, m, k, signals, blocks);
    const long long start = k * block, stop = start + block < n ? start + block : n;
    cuprum_scan_block<R, X, T, RUN>(rec, x + m * n, RUN ? y + m * n : nullptr, start, stop, packed,
                                 z);
    if (!RUN) {
#pragma unroll
      for (int r = 0; r < R::D; ++r) state[t * R::D + r] = z[r];
    } else if (zf != nullptr && k + 1 == blocks) {
#pragma unroll
      for (int r = 0; r < R::D; ++r) zf[R::at(m, r, signals)] = z[r];
    }
  }
}

// X: the input's type (T, or float for a double T); REC: the policy,
// e.g. CuprumSosCascade<float, 4> (a type with a comma: passed last, as
// __VA_ARGS__).
#define CUPRUM_FIXED_SCAN(STATES, RUN, X, T, ...)                                              \
  extern "C" __global__ void STATES(const X* x, const T* coef, const T* zi, T* state,          \
                                    long long signals, long long n, long long block,           \
                                    long long blocks, bool packed) {                           \
    cuprum_scan_walk<__VA_ARGS__, X, T, false>(x, nullptr, coef, zi, nullptr, state, nullptr, \
                                               signals, n, block, blocks, packed);             \
  }                                                                                            \
  extern "C" __global__ void RUN(const X* x, T* y, const T* coef, const T* zi, const T* init,  \
                                 T* zf, long long signals, long long n, long long block,       \
                                 long long blocks, bool packed) {                              \
    cuprum_scan_walk<__VA_ARGS__, X, T, true>(x, y, coef, zi, init, nullptr, zf, signals, n,   \
                                              block, blocks, packed);                          \
  }

// The carry (carry.cuh, which comes before this file) with the policy's D
// compiled in, of lfilter.cu's carry signature; `order` must be D (the
// host passes it; anything else returns at once). The maps are copied to
// shared memory, and phases 0 and 2 copy Phi on into registers for their
// walks, so the host takes it only for small maps (ptxas: float64 of
// order 8 holds 222 registers, no spills; order 9 spills).
#define CUPRUM_FIXED_SCAN_CARRY(CARRY, T, ...)                                                 \
  extern "C" __global__ void CARRY(const T* state, const T* mats, T* sums, T* init, T* zf,     \
                                   int order, long long signals, long long blocks,            \
                                   long long group, long long groups, int phase) {            \
    constexpr int D = __VA_ARGS__::D;                                                          \
    __shared__ __align__(16) unsigned char raw[4 * D * D * sizeof(T)];                         \
    if (order != D) return;                                                                    \
    T* maps = reinterpret_cast<T*>(raw);                                                       \
    for (int i = threadIdx.x; i < 4 * D * D; i += blockDim.x) maps[i] = mats[i];               \
    __syncthreads();                                                                           \
    cuprum_lfilter_carry<T, D>(state, maps, sums, init, zf, order, signals, blocks, group,     \
                               groups, phase);                                                 \
  }
