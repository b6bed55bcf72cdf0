// gpu-ndimage's statistics over labelled regions (src/measurements/
// stats.rs and objects.rs drive them).
//
// A region is a segment lo[s]..hi[s] of positions j whose elements are
// values[perm[j]] (perm null: values[j]); the host sorts the labels stably
// and finds each requested label's segment. The reductions run one block
// of CUPRUM_MEAS_THREADS threads a segment: thread t takes j = lo + t,
// lo + t + 256, ... in that order, then the block combines the threads'
// partials in a fixed tree. The order of every float operation depends
// only on the segment, never on scheduling, so results are the same run
// to run; sums are in double, with __dadd_rn/__dmul_rn so that no
// architecture contracts them into fused multiply-adds.

#define CUPRUM_MEAS_THREADS 256

template <typename T>
__device__ __forceinline__ bool cuprum_meas_isnan(T) {
  return false;
}
template <>
__device__ __forceinline__ bool cuprum_meas_isnan<float>(float v) {
  return v != v;
}
template <>
__device__ __forceinline__ bool cuprum_meas_isnan<double>(double v) {
  return v != v;
}

// The integer sum's term: the value for integers and bool (wrapping, so
// the sum does not depend on order), nothing for floats.
template <typename T>
__device__ __forceinline__ long long cuprum_meas_int(T v) {
  return (long long)v;
}
template <>
__device__ __forceinline__ long long cuprum_meas_int<float>(float) {
  return 0;
}
template <>
__device__ __forceinline__ long long cuprum_meas_int<double>(double) {
  return 0;
}

__device__ __forceinline__ double cuprum_meas_nan() {
  return __longlong_as_double(0x7ff8000000000000LL);
}

// Whether (b, ib) replaces (a, ia) as the extreme (max: the larger value)
// of what has been seen: NaN wins (NumPy's min and max propagate it), then
// the smaller or larger value, then the smaller position. Position -1:
// nothing seen.
template <typename T>
__device__ __forceinline__ bool cuprum_meas_better(T b, long long ib, T a, long long ia,
                                                   bool max) {
  if (ib < 0) return false;
  if (ia < 0) return true;
  const bool nb = cuprum_meas_isnan(b), na = cuprum_meas_isnan(a);
  if (nb != na) return nb;
  if (!nb && b != a) return max ? b > a : b < a;
  return ib < ia;
}

__device__ __forceinline__ double cuprum_meas_block_sum(double x, double* sh) {
  sh[threadIdx.x] = x;
  __syncthreads();
  for (int w = CUPRUM_MEAS_THREADS / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) sh[threadIdx.x] = __dadd_rn(sh[threadIdx.x], sh[threadIdx.x + w]);
    __syncthreads();
  }
  const double r = sh[0];
  __syncthreads();
  return r;
}

__device__ __forceinline__ long long cuprum_meas_block_isum(long long x, long long* sh) {
  sh[threadIdx.x] = x;
  __syncthreads();
  for (int w = CUPRUM_MEAS_THREADS / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w)
      sh[threadIdx.x] = (long long)((unsigned long long)sh[threadIdx.x] +
                                    (unsigned long long)sh[threadIdx.x + w]);
    __syncthreads();
  }
  const long long r = sh[0];
  __syncthreads();
  return r;
}

template <typename T>
__device__ __forceinline__ void cuprum_meas_block_ext(T& v, long long& p, T* shv, long long* shp,
                                                      bool max) {
  shv[threadIdx.x] = v;
  shp[threadIdx.x] = p;
  __syncthreads();
  for (int w = CUPRUM_MEAS_THREADS / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w &&
        cuprum_meas_better(shv[threadIdx.x + w], shp[threadIdx.x + w], shv[threadIdx.x],
                           shp[threadIdx.x], max)) {
      shv[threadIdx.x] = shv[threadIdx.x + w];
      shp[threadIdx.x] = shp[threadIdx.x + w];
    }
    __syncthreads();
  }
  v = shv[0];
  p = shp[0];
  __syncthreads();
}

__device__ __forceinline__ long long cuprum_meas_at(const long long* perm, long long j) {
  return perm ? perm[j] : j;
}

// Per segment: its count, sum (double, and wrapping int64 for integer
// data), mean, variance (the mean of squared deviations from the mean, as
// SciPy), standard deviation, minimum and maximum with their positions
// (the first in C order among equal values). Empty segments: sums 0,
// mean/variance NaN, extremes 0 at position 0 (SciPy's values for labels
// not present).
template <typename T>
__device__ __forceinline__ void cuprum_meas_stats(const T* values, const long long* perm,
                                                  const long long* lo, const long long* hi,
                                                  long long k, long long* count, double* sum,
                                                  long long* isum, double* mean, double* var,
                                                  double* sd, T* minv, T* maxv,
                                                  long long* minpos, long long* maxpos) {
  __shared__ double shd[CUPRUM_MEAS_THREADS];
  __shared__ long long shl[CUPRUM_MEAS_THREADS];
  __shared__ T shv[CUPRUM_MEAS_THREADS];
  for (long long s = blockIdx.x; s < k; s += gridDim.x) {
    const long long a = lo[s], b = hi[s];
    double acc = 0.0;
    long long iacc = 0;
    T mn = T(0), mx = T(0);
    long long pmn = -1, pmx = -1;
    for (long long j = a + threadIdx.x; j < b; j += CUPRUM_MEAS_THREADS) {
      const long long p = cuprum_meas_at(perm, j);
      const T x = values[p];
      acc = __dadd_rn(acc, (double)x);
      iacc = (long long)((unsigned long long)iacc + (unsigned long long)cuprum_meas_int(x));
      if (cuprum_meas_better(x, p, mn, pmn, false)) {
        mn = x;
        pmn = p;
      }
      if (cuprum_meas_better(x, p, mx, pmx, true)) {
        mx = x;
        pmx = p;
      }
    }
    const double total = cuprum_meas_block_sum(acc, shd);
    const long long itotal = cuprum_meas_block_isum(iacc, shl);
    cuprum_meas_block_ext(mn, pmn, shv, shl, false);
    cuprum_meas_block_ext(mx, pmx, shv, shl, true);
    const long long c = b - a;
    const double m = __ddiv_rn(total, (double)c);
    double acc2 = 0.0;
    for (long long j = a + threadIdx.x; j < b; j += CUPRUM_MEAS_THREADS) {
      const double d = __dsub_rn((double)values[cuprum_meas_at(perm, j)], m);
      acc2 = __dadd_rn(acc2, __dmul_rn(d, d));
    }
    const double ss = cuprum_meas_block_sum(acc2, shd);
    if (threadIdx.x == 0) {
      count[s] = c;
      sum[s] = total;
      isum[s] = itotal;
      mean[s] = c ? m : cuprum_meas_nan();
      const double v = c ? __ddiv_rn(ss, (double)c) : cuprum_meas_nan();
      var[s] = v;
      sd[s] = sqrt(v);
      minv[s] = c ? mn : T(0);
      maxv[s] = c ? mx : T(0);
      minpos[s] = c ? pmn : 0;
      maxpos[s] = c ? pmx : 0;
    }
  }
}

#define CUPRUM_MEAS_STATS(name, T)                                                          \
  extern "C" __global__ void name(const T* values, const long long* perm,                  \
                                  const long long* lo, const long long* hi, long long k,   \
                                  long long* count, double* sum, long long* isum,          \
                                  double* mean, double* var, double* sd, T* minv, T* maxv, \
                                  long long* minpos, long long* maxpos) {                  \
    cuprum_meas_stats<T>(values, perm, lo, hi, k, count, sum, isum, mean, var, sd, minv,   \
                         maxv, minpos, maxpos);                                            \
  }

// Per segment, ndim + 1 values: the sum, then for each axis d the sum of
// value * coordinate d (SciPy's center_of_mass divides them).
template <typename T>
__device__ __forceinline__ void cuprum_meas_moments(const T* values, const long long* perm,
                                                    const long long* lo, const long long* hi,
                                                    long long k, const long long* geom,
                                                    int ndim, double* out) {
  __shared__ double shd[CUPRUM_MEAS_THREADS];
  for (long long s = blockIdx.x; s < k; s += gridDim.x) {
    const long long a = lo[s], b = hi[s];
    double acc = 0.0;
    for (long long j = a + threadIdx.x; j < b; j += CUPRUM_MEAS_THREADS) {
      acc = __dadd_rn(acc, (double)values[cuprum_meas_at(perm, j)]);
    }
    const double total = cuprum_meas_block_sum(acc, shd);
    if (threadIdx.x == 0) out[s * (ndim + 1)] = total;
    long long stride = 1;
    for (int d = ndim - 1; d >= 0; --d) {
      acc = 0.0;
      for (long long j = a + threadIdx.x; j < b; j += CUPRUM_MEAS_THREADS) {
        const long long p = cuprum_meas_at(perm, j);
        const double c = (double)((p / stride) % geom[d]);
        acc = __dadd_rn(acc, __dmul_rn((double)values[p], c));
      }
      const double r = cuprum_meas_block_sum(acc, shd);
      if (threadIdx.x == 0) out[s * (ndim + 1) + 1 + d] = r;
      stride *= geom[d];
    }
  }
}

#define CUPRUM_MEAS_MOMENTS(name, T)                                                     \
  extern "C" __global__ void name(const T* values, const long long* perm,               \
                                  const long long* lo, const long long* hi, long long k, \
                                  const long long* geom, int ndim, double* out) {       \
    cuprum_meas_moments<T>(values, perm, lo, hi, k, geom, ndim, out);                   \
  }

// Per segment, `bins` counts (out zeroed by the host): edges[b] <= x <
// edges[b + 1], the last bin closed (NumPy's histogram with explicit
// edges); values outside, and NaN, are not counted. Integer atomics: the
// counts do not depend on order.
template <typename T>
__device__ __forceinline__ void cuprum_meas_hist(const T* values, const long long* perm,
                                                 const long long* lo, const long long* hi,
                                                 long long k, const double* edges,
                                                 long long bins, long long* out) {
  if (bins < 1) return;
  for (long long s = blockIdx.x; s < k; s += gridDim.x) {
    for (long long j = lo[s] + threadIdx.x; j < hi[s]; j += CUPRUM_MEAS_THREADS) {
      const double x = (double)values[cuprum_meas_at(perm, j)];
      if (!(x >= edges[0] && x <= edges[bins])) continue;
      // The number of edges <= x, less one.
      long long l = 0, h = bins + 1;
      while (l < h) {
        const long long m = l + (h - l) / 2;
        if (edges[m] <= x) {
          l = m + 1;
        } else {
          h = m;
        }
      }
      long long b = l - 1;
      if (b >= bins) b = bins - 1;
      atomicAdd((unsigned long long*)&out[s * bins + b], 1ULL);
    }
  }
}

#define CUPRUM_MEAS_HIST(name, T)                                                        \
  extern "C" __global__ void name(const T* values, const long long* perm,               \
                                  const long long* lo, const long long* hi, long long k, \
                                  const double* edges, long long bins, long long* out) { \
    cuprum_meas_hist<T>(values, perm, lo, hi, k, edges, bins, out);                     \
  }

// Per segment of values sorted within it (perm from a lexsort), the mean
// of its middle one or two values in M (the input's float type, else
// double: SciPy's). An empty segment gives NaN, or with absent_first the
// value at sorted position 0 (SciPy's result for a label that is not
// there, with an index array).
template <typename T, typename M>
__device__ __forceinline__ void cuprum_meas_median(const T* values, const long long* perm,
                                                   const long long* lo, const long long* hi,
                                                   long long k, bool absent_first, long long n,
                                                   M* out) {
  for (long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x; s < k;
       s += (long long)gridDim.x * blockDim.x) {
    long long a = lo[s], b = hi[s];
    if (a == b) {
      if (!absent_first || n < 1) {
        out[s] = (M)cuprum_meas_nan();
        continue;
      }
      a = 0;
      b = 1;
    }
    long long l = a, h = b - 1;
    const long long step = (h - l) / 2;
    l += step;
    h -= step;
    const M x = (M)values[cuprum_meas_at(perm, l)];
    const M y = (M)values[cuprum_meas_at(perm, h)];
    out[s] = (x + y) / (M)2;
  }
}

#define CUPRUM_MEAS_MEDIAN(name, T, M)                                                      \
  extern "C" __global__ void name(const T* values, const long long* perm,                  \
                                  const long long* lo, const long long* hi, long long k,   \
                                  bool absent_first, long long n, M* out) {                \
    cuprum_meas_median<T, M>(values, perm, lo, hi, k, absent_first, n, out);               \
  }

// The bounding box of each label 1..=max_label: bbox[((l - 1) * ndim + d)
// * 2] the smallest coordinate along d, [.. + 1] the largest (the host
// fills them with LLONG_MAX and -1 first). Integer atomics: order-free.
extern "C" __global__ void cuprum_meas_find_objects(const long long* labels, long long n,
                                                    const long long* geom, int ndim,
                                                    long long max_label, long long* bbox) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    const long long l = labels[i];
    if (l < 1 || l > max_label) continue;
    long long r = i;
    for (int d = ndim - 1; d >= 0; --d) {
      const long long c = r % geom[d];
      r /= geom[d];
      long long* box = &bbox[((l - 1) * ndim + d) * 2];
      atomicMin(box, c);
      atomicMax(box + 1, c);
    }
  }
}
