// gpu-signal's cascade of S second-order sections along the signal
// (src/filtering/sos_scan.rs launches them, src/raw.rs vouches for the
// launches): lfilter.cu's blocked recursion with the whole cascade's
// state in registers (2S values, section s's z0 and z1 at 2s and 2s + 1;
// S is compiled in), every section in one pass over the samples.
//   states: thread (m, k) runs block k of signal m through the cascade
//     from the zero state (block 0 from zi) and writes its final state;
//   lfilter.cu's carry (order 2S) then gives the state entering each
//     block from those and the cascade's block map Phi;
//   run: thread (m, k) runs block k again from its entering state (block
//     0 from zi), writing the outputs and, for the last block, zf.
// Re-running the block rather than adding the zero-input response of the
// entering state (lfilter.cu's fixup) reads the input twice but keeps
// SciPy's arithmetic inside a block: with one block a signal the result
// is SciPy's to the bit. Each section is SciPy's _sosfilt step, every
// product and sum rounded on its own (compiled with --fmad=false):
//   y = b0 x + z0;  z0 = b1 x - a1 y + z1;  z1 = b2 x - a2 y.
// zi and zf are laid out (section, signal, 2); coef holds b0 b1 b2 a1 a2
// of each section.

#include "cuprum/types.cuh"

// V samples of 16 bytes, read or written at once where the block and the
// row are aligned to them.
template <class T>
struct CuprumSosPack {
  static constexpr int V = sizeof(T) >= 16 ? 1 : 16 / sizeof(T);
  struct alignas(16) type {
    T v[V];
  };
};

template <class T, int S>
__device__ __forceinline__ T cuprum_sos_step(T x, T (&z)[2 * S], const T (&c)[5 * S]) {
#pragma unroll
  for (int s = 0; s < S; ++s) {
    const T y = c[5 * s] * x + z[2 * s];
    z[2 * s] = c[5 * s + 1] * x - c[5 * s + 3] * y + z[2 * s + 1];
    z[2 * s + 1] = c[5 * s + 2] * x - c[5 * s + 4] * y;
    x = y;
  }
  return x;
}

// Samples start..stop of one row through the cascade; with OUT, the
// outputs to y. `packed`: start, stop and the rows sit on 16-byte
// boundaries (the host checks; every thread of a launch agrees).
template <class T, int S, bool OUT>
__device__ __forceinline__ void cuprum_sos_run_block(const T* __restrict__ x, T* __restrict__ y,
                                                     long long start, long long stop,
                                                     bool packed, T (&z)[2 * S],
                                                     const T (&c)[5 * S]) {
  using P = typename CuprumSosPack<T>::type;
  constexpr int V = CuprumSosPack<T>::V;
  long long j = start;
  if (packed) {
    for (; j + V <= stop; j += V) {
      P p = *reinterpret_cast<const P*>(x + j);
#pragma unroll
      for (int v = 0; v < V; ++v) p.v[v] = cuprum_sos_step<T, S>(p.v[v], z, c);
      if (OUT) *reinterpret_cast<P*>(y + j) = p;
    }
  }
  for (; j < stop; ++j) {
    const T v = cuprum_sos_step<T, S>(x[j], z, c);
    if (OUT) y[j] = v;
  }
}

template <class T, int S>
__device__ __forceinline__ void cuprum_sos_load(const T* coef, T (&c)[5 * S]) {
#pragma unroll
  for (int k = 0; k < 5 * S; ++k) c[k] = coef[k];
}

// The state block k of signal m starts from: zi's (or zero) for block 0,
// init's (the carry's) for the others.
template <class T, int S>
__device__ __forceinline__ void cuprum_sos_enter(T (&z)[2 * S], const T* zi, const T* init,
                                                 long long m, long long k, long long signals,
                                                 long long blocks) {
#pragma unroll
  for (int s = 0; s < S; ++s) {
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      if (k > 0)
        z[2 * s + i] = init[(m * blocks + k) * (2 * S) + 2 * s + i];
      else
        z[2 * s + i] = zi != nullptr ? zi[(s * signals + m) * 2 + i] : T(0);
    }
  }
}

template <class T, int S>
__device__ __forceinline__ void cuprum_sos_states(const T* x, const T* coef, const T* zi,
                                                  T* state, long long signals, long long n,
                                                  long long block, long long blocks,
                                                  bool packed) {
  T c[5 * S];
  cuprum_sos_load<T, S>(coef, c);
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < signals * blocks;
       t += (long long)gridDim.x * blockDim.x) {
    const long long m = t / blocks, k = t % blocks;
    T z[2 * S];
    // Block 0 from zi; the others from zero (init is not read for k == 0).
    if (k == 0) {
      cuprum_sos_enter<T, S>(z, zi, nullptr, m, 0, signals, blocks);
    } else {
#pragma unroll
      for (int r = 0; r < 2 * S; ++r) z[r] = T(0);
    }
    const long long start = k * block, stop = start + block < n ? start + block : n;
    cuprum_sos_run_block<T, S, false>(x + m * n, nullptr, start, stop, packed, z, c);
#pragma unroll
    for (int r = 0; r < 2 * S; ++r) state[t * (2 * S) + r] = z[r];
  }
}

template <class T, int S>
__device__ __forceinline__ void cuprum_sos_run(const T* x, T* y, const T* coef, const T* zi,
                                               const T* init, T* zf, long long signals,
                                               long long n, long long block, long long blocks,
                                               bool packed) {
  T c[5 * S];
  cuprum_sos_load<T, S>(coef, c);
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < signals * blocks;
       t += (long long)gridDim.x * blockDim.x) {
    const long long m = t / blocks, k = t % blocks;
    T z[2 * S];
    cuprum_sos_enter<T, S>(z, zi, init, m, k, signals, blocks);
    const long long start = k * block, stop = start + block < n ? start + block : n;
    cuprum_sos_run_block<T, S, true>(x + m * n, y + m * n, start, stop, packed, z, c);
    if (zf != nullptr && k + 1 == blocks) {
#pragma unroll
      for (int s = 0; s < S; ++s) {
        zf[(s * signals + m) * 2] = z[2 * s];
        zf[(s * signals + m) * 2 + 1] = z[2 * s + 1];
      }
    }
  }
}

#define CUPRUM_SOSFILT(STATES, RUN, T, S)                                                      \
  extern "C" __global__ void STATES(const T* x, const T* coef, const T* zi, T* state,          \
                                    long long signals, long long n, long long block,           \
                                    long long blocks, bool packed) {                           \
    cuprum_sos_states<T, S>(x, coef, zi, state, signals, n, block, blocks, packed);            \
  }                                                                                            \
  extern "C" __global__ void RUN(const T* x, T* y, const T* coef, const T* zi, const T* init,  \
                                 T* zf, long long signals, long long n, long long block,       \
                                 long long blocks, bool packed) {                              \
    cuprum_sos_run<T, S>(x, y, coef, zi, init, zf, signals, n, block, blocks, packed);         \
  }
