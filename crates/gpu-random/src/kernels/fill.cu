// The fixed-cost draws of the default bit generator, one Philox block per
// thread and iteration (grid-stride, so any grid gives the same numbers):
// random and standard_normal (float32: four values per block, float64:
// two) with an optional affine map, and integers (Lemire's
// multiply-and-reject). Which lanes an element uses is src/philox.rs's
// table; the host twin there computes the same values.
// Needs philox.cuh before it; compiled with --fmad=false.

// kind: 0 uniform [0, 1), 1 standard normal; kind | 4: then fma(b, x, a).
template <typename T>
__device__ __forceinline__ void cuprum_random_fill_lanes(cuprum_random::Block r, int kind, T* v);

template <>
__device__ __forceinline__ void cuprum_random_fill_lanes<double>(cuprum_random::Block r, int kind,
                                                                 double* v) {
  if ((kind & 3) == 0) {
    v[0] = cuprum_random::u01(r.x, r.y);
    v[1] = cuprum_random::u01(r.z, r.w);
  } else {
    cuprum_random::box_muller_d(cuprum_random::u01_open(r.x, r.y), cuprum_random::u01(r.z, r.w),
                                &v[0], &v[1]);
  }
}

template <>
__device__ __forceinline__ void cuprum_random_fill_lanes<float>(cuprum_random::Block r, int kind,
                                                                float* v) {
  if ((kind & 3) == 0) {
    v[0] = cuprum_random::u01f(r.x);
    v[1] = cuprum_random::u01f(r.y);
    v[2] = cuprum_random::u01f(r.z);
    v[3] = cuprum_random::u01f(r.w);
  } else {
    cuprum_random::box_muller_f(cuprum_random::u01f_open(r.x), cuprum_random::u01f(r.y), &v[0],
                                &v[1]);
    cuprum_random::box_muller_f(cuprum_random::u01f_open(r.z), cuprum_random::u01f(r.w), &v[2],
                                &v[3]);
  }
}

// One 16-byte store of a block's values.
__device__ __forceinline__ void cuprum_random_store(float* p, const float* v) {
  *(float4*)p = make_float4(v[0], v[1], v[2], v[3]);
}
__device__ __forceinline__ void cuprum_random_store(double* p, const double* v) {
  *(double2*)p = make_double2(v[0], v[1]);
}

template <typename T, int L>
__device__ __forceinline__ void cuprum_random_fill(T* out, long long n, unsigned int k0,
                                                   unsigned int k1, unsigned long long pos,
                                                   unsigned int word, int kind, double a, double b) {
  const cuprum_random::Key key{k0, k1};
  const unsigned long long blocks = ((unsigned long long)n + L - 1) / L;
  const bool aligned = ((unsigned long long)out & 15) == 0;
  for (unsigned long long j = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; j < blocks;
       j += (unsigned long long)gridDim.x * blockDim.x) {
    T v[L];
    cuprum_random_fill_lanes<T>(cuprum_random::block_at(key, pos + j, word, 0), kind, v);
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

#define CUPRUM_RANDOM_FILL_F32(NAME, T)                                                        \
  extern "C" __global__ void NAME(T* out, long long n, unsigned int k0, unsigned int k1,       \
                                  unsigned long long pos, unsigned int word, int kind, double a, \
                                  double b) {                                                  \
    cuprum_random_fill<float, 4>(out, n, k0, k1, pos, word, kind, a, b);               \
  }
#define CUPRUM_RANDOM_FILL_F64(NAME, T)                                                        \
  extern "C" __global__ void NAME(T* out, long long n, unsigned int k0, unsigned int k1,       \
                                  unsigned long long pos, unsigned int word, int kind, double a, \
                                  double b) {                                                  \
    cuprum_random_fill<double, 2>(out, n, k0, k1, pos, word, kind, a, b);             \
  }

// Integers in [low, low + range) (range 0: all 2^64), written as T (the
// sum wraps in 64 bits, so a signed low works through its two's
// complement). wide: range above 2^32, two lanes per element.
template <typename T>
__device__ __forceinline__ void cuprum_random_ints(T* out, long long n, unsigned int k0,
                                                   unsigned int k1, unsigned long long pos,
                                                   unsigned int word, unsigned long long low,
                                                   unsigned long long range, int wide) {
  const cuprum_random::Key key{k0, k1};
  const int L = wide ? 2 : 4;
  const unsigned long long blocks = ((unsigned long long)n + L - 1) / L;
  // Lemire: accept m = x range when its low part is at least 2^w mod range.
  const unsigned long long t32 = wide ? 0 : ((1ull << 32) - range) % range;
  const unsigned long long t64 = (wide && range != 0) ? (0ull - range) % range : 0;
  for (unsigned long long j = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; j < blocks;
       j += (unsigned long long)gridDim.x * blockDim.x) {
    const cuprum_random::Block r = cuprum_random::block_at(key, pos + j, word, 0);
    const unsigned int lanes[4] = {r.x, r.y, r.z, r.w};
    for (int l = 0; l < L; ++l) {
      const unsigned long long e = j * L + l;
      if (e >= (unsigned long long)n) break;
      unsigned long long off;
      if (!wide) {
        unsigned int x = lanes[l];
        for (unsigned int inner = 1;; ++inner) {
          const unsigned long long m = (unsigned long long)x * range;
          if ((m & 0xFFFFFFFFull) >= t32) {
            off = m >> 32;
            break;
          }
          const cuprum_random::Block q = cuprum_random::block_at(key, pos + j, word, inner);
          x = l == 0 ? q.x : l == 1 ? q.y : l == 2 ? q.z : q.w;
        }
      } else {
        unsigned long long x = ((unsigned long long)lanes[2 * l] << 32) | lanes[2 * l + 1];
        for (unsigned int inner = 1;; ++inner) {
          if (range == 0) {
            off = x;
            break;
          }
          const unsigned long long lo = x * range;
          if (lo >= t64) {
            off = __umul64hi(x, range);
            break;
          }
          const cuprum_random::Block q = cuprum_random::block_at(key, pos + j, word, inner);
          x = l == 0 ? (((unsigned long long)q.x << 32) | q.y)
                     : (((unsigned long long)q.z << 32) | q.w);
        }
      }
      out[e] = (T)(low + off);
    }
  }
}

#define CUPRUM_RANDOM_INTS(NAME, T)                                                          \
  extern "C" __global__ void NAME(T* out, long long n, unsigned int k0, unsigned int k1,     \
                                  unsigned long long pos, unsigned int word,                 \
                                  unsigned long long low, unsigned long long range, int wide) { \
    cuprum_random_ints<T>(out, n, k0, k1, pos, word, low, range, wide);                      \
  }
