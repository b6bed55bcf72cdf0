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
//   pass 2 (carry, carry.cuh): the state entering block k + 1 is
//     z[k+1] = Phi z[k] + s[k] with Phi = A^L (the state map of L samples
//     of zero input) and z[1] = s[0], by a two-level scan;
//   pass 3 (fixup): sample j of block k >= 1 adds the zero-input response
//     of the state entering the block, sum_r h[r][j] z[k][r], where h[r]
//     is the response to the unit state e_r (precomputed on the host).
// T is float, double, cuprum::complex<float> or cuprum::complex<double>.

// Needs carry.cuh before it.

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
    cuprum_lfilter_carry<T, 0>(state, mats, sums, init, zf, order, signals, blocks, group,     \
                               groups, phase);                                                 \
  }                                                                                            \
  extern "C" __global__ void FIXUP(T* y, const T* init, const T* h, int order,                 \
                                   long long signals, long long n, long long block,            \
                                   long long blocks) {                                         \
    cuprum_lfilter_fixup<T>(y, init, h, order, signals, n, block, blocks);                     \
  }
