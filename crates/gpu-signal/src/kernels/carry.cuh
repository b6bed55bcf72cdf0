// Pass 2 of the blocked recursions (lfilter.cu's and fixed_scan.cu's
// comments): the state entering block k + 1 is z[k+1] = Phi z[k] + s[k],
// z[1] = s[0], with s[k] block k's final state from zero and Phi the
// state map of a block of zero input. The K - 2 steps are cut into
// groups of G: phase 0 sums each group from zero (a thread a group),
// phase 1 walks the groups (a thread a signal, Phi^G a step) and phase 2
// walks each group's blocks again from its entering state, writing every
// block's state. mats: Phi (L samples), Phi_last (the last block's
// length), Phi^G and Phi^(the last group's length), N x N each.
//
// D > 0: the state size compiled in (fixed_scan.cu), so the vectors sit
// in registers and `maps` is a shared-memory copy (the compiler keeps it
// in registers across the steps where it fits); D == 0: any `order` up to
// CUPRUM_LFILTER_MAXORDER (lfilter.cu), the vectors in local memory, so
// that each product of the serial walks waits on a local load.

#include "cuprum/types.cuh"

#define CUPRUM_LFILTER_MAXORDER 64

// The serial walks read one vector a step from memory written by the pass
// before (the block states, the group sums): with a step's load issued
// one step ahead (D > 0) each step still waits most of a DRAM latency
// (ncu, H100, lfilter order 8 over 2^24 samples: 256 walks of 256 steps,
// phase 0 196 us, phase 2 288 us, far above their arithmetic). The
// vector CUPRUM_CARRY_AHEAD steps on is prefetched into L2 (no register
// holds it; a hint, no effect on the values), so the step-ahead load
// finds it there. On the host (tools/emulate) it is nothing.
#define CUPRUM_CARRY_AHEAD 8

template <class T>
__device__ __forceinline__ void cuprum_carry_prefetch(const T* v, int n) {
#ifdef __CUDA_ARCH__
  asm volatile("prefetch.L2 [%0];" ::"l"(v));
  asm volatile("prefetch.L2 [%0];" ::"l"(v + n - 1));
#else
  (void)v;
  (void)n;
#endif
}

template <int D>
struct CuprumCarrySize {
  static constexpr int N = D > 0 ? D : CUPRUM_LFILTER_MAXORDER;
};

// v <- P v + u (P row-major n x n).
template <class T, int D>
__device__ __forceinline__ void cuprum_carry_affine(const T* P, T (&v)[CuprumCarrySize<D>::N],
                                                    const T* u, int order) {
  const int n = D > 0 ? D : order;
  T w[CuprumCarrySize<D>::N];
#pragma unroll
  for (int i = 0; i < n; ++i) {
    T acc = u[i];
#pragma unroll
    for (int j = 0; j < n; ++j) acc = acc + P[i * n + j] * v[j];
    w[i] = acc;
  }
#pragma unroll
  for (int i = 0; i < n; ++i) v[i] = w[i];
}

// Phases 0 and 2: v through the steps first..last of one group of one
// signal (s: its block states), v <- Phi v + s[k]; with STORE, the state
// entering each block to init's row k first.
template <class T, int D, bool STORE>
__device__ __forceinline__ void cuprum_carry_walk(const T* phi, const T* s, T* init,
                                                  T (&v)[CuprumCarrySize<D>::N], long long first,
                                                  long long last, int order) {
  const int n = D > 0 ? D : order;
  // D > 0: the map in registers, read from shared memory once (the
  // prefetch's asm would otherwise have it read again every step), and
  // the next block's state loaded while this step computes.
  constexpr int NN = D > 0 ? D * D : 1;
  T pm[NN];
  if constexpr (D > 0) {
#pragma unroll
    for (int i = 0; i < NN; ++i) pm[i] = phi[i];
  }
  const T* map = D > 0 ? pm : phi;
  T next[CuprumCarrySize<D>::N];
  if constexpr (D > 0) {
    if (first < last) {
#pragma unroll
      for (int r = 0; r < n; ++r) next[r] = s[first * n + r];
    }
  }
  for (long long k = first; k < last; ++k) {
    if (k + CUPRUM_CARRY_AHEAD < last) cuprum_carry_prefetch(s + (k + CUPRUM_CARRY_AHEAD) * n, n);
    if (STORE) {
#pragma unroll
      for (int r = 0; r < n; ++r) init[k * n + r] = v[r];
    }
    if constexpr (D > 0) {
      T cur[CuprumCarrySize<D>::N];
#pragma unroll
      for (int r = 0; r < n; ++r) cur[r] = next[r];
      if (k + 1 < last) {
#pragma unroll
        for (int r = 0; r < n; ++r) next[r] = s[(k + 1) * n + r];
      }
      cuprum_carry_affine<T, D>(map, v, cur, order);
    } else {
      cuprum_carry_affine<T, D>(map, v, s + k * n, order);
    }
  }
}

template <class T, int D>
__device__ __forceinline__ void cuprum_lfilter_carry(const T* state, const T* maps, T* sums,
                                                     T* init, T* zf, int order,
                                                     long long signals, long long blocks,
                                                     long long group, long long groups,
                                                     int phase) {
  const int n = D > 0 ? D : order;
  const long long nn = (long long)n * n;
  const T* phi = maps;
  const T* phi_last = maps + nn;
  const T* phi_group = maps + 2 * nn;
  const T* phi_group_last = maps + 3 * nn;
  const long long steps = blocks >= 2 ? blocks - 2 : 0;  // chain steps k = 1..=K-2
  T v[CuprumCarrySize<D>::N];
  const long long work = phase == 1 ? signals : signals * groups;
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < work;
       t += (long long)gridDim.x * blockDim.x) {
    if (phase == 1) {
      const long long m = t;
      const T* s = state + m * blocks * n;
#pragma unroll
      for (int r = 0; r < n; ++r) v[r] = s[r];
      // D > 0: the next group's sum is loaded while this step computes
      // (a serial walk otherwise waits a global load's latency a step).
      T next[CuprumCarrySize<D>::N];
      if constexpr (D > 0) {
        if (groups > 0) {
#pragma unroll
          for (int r = 0; r < n; ++r) next[r] = sums[m * groups * n + r];
        }
      }
      for (long long g = 0; g < groups; ++g) {
        // v <- P v + (the group's zero-state sum), and the sum's slot
        // takes the state entering the group.
        T* u = sums + (m * groups + g) * n;
        if (g + CUPRUM_CARRY_AHEAD < groups) cuprum_carry_prefetch(u + CUPRUM_CARRY_AHEAD * n, n);
        T w[CuprumCarrySize<D>::N];
#pragma unroll
        for (int r = 0; r < n; ++r) w[r] = D > 0 ? next[r] : u[r];
        if constexpr (D > 0) {
          if (g + 1 < groups) {
#pragma unroll
            for (int r = 0; r < n; ++r) next[r] = u[n + r];
          }
        }
#pragma unroll
        for (int r = 0; r < n; ++r) u[r] = v[r];
        cuprum_carry_affine<T, D>((g + 1 == groups) ? phi_group_last : phi_group, v, w, order);
      }
      if (blocks >= 2) {
        T* dst = init + (m * blocks + blocks - 1) * n;
#pragma unroll
        for (int r = 0; r < n; ++r) dst[r] = v[r];
        if (zf != nullptr) cuprum_carry_affine<T, D>(phi_last, v, s + (blocks - 1) * n, order);
      }
      if (zf != nullptr) {
#pragma unroll
        for (int r = 0; r < n; ++r) zf[m * n + r] = v[r];
      }
    } else {
      const long long m = t / groups, g = t % groups;
      const long long first = 1 + g * group;
      const long long last = first + group < 1 + steps ? first + group : 1 + steps;
      const T* s = state + m * blocks * n;
      T* u = sums + (m * groups + g) * n;
#pragma unroll
      for (int r = 0; r < n; ++r) v[r] = (phase == 0) ? T(0) : u[r];
      // Each phase its own loop (the stores to init phase 2's only).
      if (phase == 2)
        cuprum_carry_walk<T, D, true>(phi, s, init + m * blocks * n, v, first, last, order);
      else
        cuprum_carry_walk<T, D, false>(phi, s, nullptr, v, first, last, order);
      if (phase == 0) {
#pragma unroll
        for (int r = 0; r < n; ++r) u[r] = v[r];
      }
    }
  }
}
