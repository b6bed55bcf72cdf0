// gpu-signal's recursive (IIR) filter kernels (src/filtering/iir.rs launches
// them, src/raw.rs vouches for the launches).
//
// The filter is SciPy's transposed direct form II of order N with
// normalized coefficients b[0..N], a[0..N] (a[0] == 1), state z[0..N):
//   y    = b[0] x + z[0]
//   z[i] = z[i + 1] + b[i + 1] x - a[i + 1] y     (i < N - 1)
//   z[N-1] =          b[N] x     - a[N] y
// Each of the M signals (rows of a C-contiguous M x n array) is cut into K
// blocks of L samples (the last one shorter), so that a single long signal
// fills the GPU:
//   pass 1 (blocks): thread (m, k) runs block k from the zero state (block
//     0 from zi) and writes its outputs and its final state s[m, k];
//   pass 2 (carry): the state entering block k + 1 is
//     z[k+1] = Phi z[k] + s[k] with Phi = A^L (the state map of L samples
//     of zero input) and z[1] = s[0]; the K - 2 steps are cut into groups
//     of G: phase 0 sums each group from zero, phase 1 walks the groups
//     (one thread a signal, Phi^G a step) and phase 2 walks each group's
//     blocks again from its entering state, writing every block's state;
//   pass 3 (fixup): sample j of block k >= 1 adds the zero-input response
//     of the state entering the block, sum_r h[r][j] z[k][r], where h[r]
//     is the response to the unit state e_r (precomputed on the host).
// T is float, double, cuprum::complex<float> or cuprum::complex<double>.

#include "cuprum/types.cuh"

#define CUPRUM_LFILTER_MAXORDER 64

template <class T>
__device__ __forceinline__ void cuprum_lfilter_blocks(const T* x, T* y, const T* coef,
                                                      const T* zi, T* state, int order,
                                                      long long signals, long long n,
                                                      long long block, long long blocks) {
  const T* b = coef;
  const T* a = coef + order + 1;
  T z[CUPRUM_LFILTER_MAXORDER];
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < signals * blocks;
       t += (long long)gridDim.x * blockDim.x) {
    const long long m = t / blocks, k = t % blocks;
    const long long start = k * block;
    const long long stop = start + block < n ? start + block : n;
    for (int r = 0; r < order; ++r) z[r] = (k == 0 && zi != nullptr) ? zi[m * order + r] : T(0);
    const T* xm = x + m * n;
    T* ym = y + m * n;
    for (long long j = start; j < stop; ++j) {
      const T xn = xm[j];
      const T yn = (order > 0) ? z[0] + b[0] * xn : b[0] * xn;
      for (int r = 0; r + 1 < order; ++r) z[r] = z[r + 1] + b[r + 1] * xn - a[r + 1] * yn;
      if (order > 0) z[order - 1] = b[order] * xn - a[order] * yn;
      ym[j] = yn;
    }
    for (int r = 0; r < order; ++r) state[t * order + r] = z[r];
  }
}

// v <- P v + u (P row-major N x N), through the scratch w.
template <class T>
__device__ __forceinline__ void cuprum_lfilter_affine(const T* P, T* v, const T* u, T* w,
                                                      int order) {
  for (int i = 0; i < order; ++i) {
    T acc = u[i];
    for (int j = 0; j < order; ++j) acc = acc + P[i * order + j] * v[j];
    w[i] = acc;
  }
  for (int i = 0; i < order; ++i) v[i] = w[i];
}

// mats: Phi (L samples), Phi_last (the last block's length), Phi^G and
// Phi^(the last group's length), N x N each.
template <class T>
__device__ __forceinline__ void cuprum_lfilter_carry(const T* state, const T* mats, T* sums,
                                                     T* init, T* zf, int order,
                                                     long long signals, long long blocks,
                                                     long long group, long long groups,
                                                     int phase) {
  const long long nn = (long long)order * order;
  const T* phi = mats;
  const T* phi_last = mats + nn;
  const T* phi_group = mats + 2 * nn;
  const T* phi_group_last = mats + 3 * nn;
  const long long steps = blocks >= 2 ? blocks - 2 : 0;  // chain steps k = 1..=K-2
  T v[CUPRUM_LFILTER_MAXORDER];
  T w[CUPRUM_LFILTER_MAXORDER];
  const long long work = phase == 1 ? signals : signals * groups;
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < work;
       t += (long long)gridDim.x * blockDim.x) {
    if (phase == 1) {
      const long long m = t;
      const T* s = state + m * blocks * order;
      for (int r = 0; r < order; ++r) v[r] = s[r];
      for (long long g = 0; g < groups; ++g) {
        T* u = sums + (m * groups + g) * order;
        const T* P = (g + 1 == groups) ? phi_group_last : phi_group;
        for (int r = 0; r < order; ++r) {
          const T ur = u[r];
          u[r] = v[r];
          w[r] = ur;
        }
        // v <- P v + (the group's zero-state sum, now in w)
        for (int i = 0; i < order; ++i) {
          T acc = w[i];
          for (int j = 0; j < order; ++j) acc = acc + P[i * order + j] * v[j];
          w[i] = acc;
        }
        for (int r = 0; r < order; ++r) v[r] = w[r];
      }
      if (blocks >= 2) {
        T* dst = init + (m * blocks + blocks - 1) * order;
        for (int r = 0; r < order; ++r) dst[r] = v[r];
        if (zf != nullptr) {
          cuprum_lfilter_affine(phi_last, v, s + (blocks - 1) * order, w, order);
        }
      }
      if (zf != nullptr) {
        for (int r = 0; r < order; ++r) zf[m * order + r] = v[r];
      }
    } else {
      const long long m = t / groups, g = t % groups;
      const long long first = 1 + g * group;
      const long long last = first + group < 1 + steps ? first + group : 1 + steps;
      const T* s = state + m * blocks * order;
      T* u = sums + (m * groups + g) * order;
      for (int r = 0; r < order; ++r) v[r] = (phase == 0) ? T(0) : u[r];
      for (long long k = first; k < last; ++k) {
        if (phase == 2) {
          T* dst = init + (m * blocks + k) * order;
          for (int r = 0; r < order; ++r) dst[r] = v[r];
        }
        cuprum_lfilter_affine(phi, v, s + k * order, w, order);
      }
      if (phase == 0) {
        for (int r = 0; r < order; ++r) u[r] = v[r];
      }
    }
  }
}

template <class T>
__device__ __forceinline__ void cuprum_lfilter_fixup(T* y, const T* init, const T* h, int order,
                                                     long long signals, long long n,
                                                     long long block, long long blocks) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < signals * n;
       t += (long long)gridDim.x * blockDim.x) {
    const long long m = t / n, i = t % n;
    const long long k = i / block, j = i % block;
    if (k == 0) continue;
    const T* z = init + (m * blocks + k) * order;
    T acc = y[t];
    for (int r = 0; r < order; ++r) acc = acc + h[r * block + j] * z[r];
    y[t] = acc;
  }
}

#define CUPRUM_LFILTER(BLOCKS, CARRY, FIXUP, T)                                               \
  extern "C" __global__ void BLOCKS(const T* x, T* y, const T* coef, const T* zi, T* state,    \
                                    int order, long long signals, long long n,                 \
                                    long long block, long long blocks) {                       \
    cuprum_lfilter_blocks<T>(x, y, coef, zi, state, order, signals, n, block, blocks);         \
  }                                                                                            \
  extern "C" __global__ void CARRY(const T* state, const T* mats, T* sums, T* init, T* zf,     \
                                   int order, long long signals, long long blocks,             \
                                   long long group, long long groups, int phase) {             \
    cuprum_lfilter_carry<T>(state, mats, sums, init, zf, order, signals, blocks, group,        \
                            groups, phase);                                                    \
  }                                                                                            \
  extern "C" __global__ void FIXUP(T* y, const T* init, const T* h, int order,                 \
                                   long long signals, long long n, long long block,            \
                                   long long blocks) {                                         \
    cuprum_lfilter_fixup<T>(y, init, h, order, signals, n, block, blocks);                     \
  }
