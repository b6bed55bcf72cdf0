// gpu-ndimage's interpolation kernels (src/interp.rs launches them).
//
// spline_filter: the B-spline prefilter along one axis of a C-contiguous
// float64 array, in place, one thread a line (Unser, Aldroubi and Eden,
// "Fast B-spline transforms for continuous image representation and
// interpolation", 1991): the gain, then per pole a causal and an
// anticausal first-order recursion whose first values come from the
// boundary extension (SciPy's initialisations: whole-sample symmetric
// "mirror", half-sample symmetric "reflect", periodic "wrap").
//
// interp: one thread an output point: its coordinates in the input (from a
// coordinate array, an affine map or a per-axis zoom/shift), the order-0..5
// B-spline weights, the taps mapped inside the input by the mode, and the
// weighted sum written with SciPy's rounding for integer outputs.

#define CUPRUM_NDIMAGE_MAXDIM 10

// Interpolation mode numbers (src/interp.rs's interp_code).
#define CUPRUM_I_REFLECT 0
#define CUPRUM_I_CONSTANT 1
#define CUPRUM_I_NEAREST 2
#define CUPRUM_I_MIRROR 3
#define CUPRUM_I_WRAP 4
#define CUPRUM_I_GRID_CONSTANT 5
#define CUPRUM_I_GRID_WRAP 6

// The prefilter's arithmetic is SciPy's (ni_splines.c), term for term:
// each product and sum rounded on its own (__dmul_rn, __dadd_rn: no fused
// multiply-adds, which SciPy's x86-64 build does not use), the same
// association (`c *= z / d` is c * (z / d)), and where SciPy's causal
// reflect initialisation reads c[0] while accumulating into it, the
// accumulator. A line is read in batches of CUPRUM_SPL_BATCH values whose
// loads are all issued before the arithmetic needs the first: the
// recursions are a chain of dependent steps, and one load in flight per
// step leaves a thread waiting on memory for every element. A 4096^2 image
// has only 4096 lines (4096 threads), so the bytes in flight are
// 4096 * 8 * CUPRUM_SPL_BATCH: 256 KiB at 8, about a tenth of what the
// H100's memory needs in flight to stream (3.35 TB/s times about 800 ns);
// 32 gives four times that (ptxas: 168 registers, which with so few
// threads costs no occupancy, and with many lines still leaves more loads
// in flight per multiprocessor than 8 did).
#define CUPRUM_SPL_BATCH 32

// acc + z_i (c[i] + zn c[m - i]) over i in lo..hi, z_i *= z after each
// term (the causal mirror and reflect sums).
__device__ __forceinline__ double cuprum_spl_pair_sum(const double* c, long long s, long long lo,
                                                      long long hi, long long m, double zn,
                                                      double z, double acc, double& zi) {
  long long i = lo;
  for (; i + CUPRUM_SPL_BATCH <= hi; i += CUPRUM_SPL_BATCH) {
    double a[CUPRUM_SPL_BATCH], b[CUPRUM_SPL_BATCH];
#pragma unroll
    for (int k = 0; k < CUPRUM_SPL_BATCH; ++k) {
      a[k] = c[(i + k) * s];
      b[k] = c[(m - i - k) * s];
    }
#pragma unroll
    for (int k = 0; k < CUPRUM_SPL_BATCH; ++k) {
      acc = __dadd_rn(acc, __dmul_rn(zi, __dadd_rn(a[k], __dmul_rn(zn, b[k]))));
      zi = __dmul_rn(zi, z);
    }
  }
  for (; i < hi; ++i) {
    acc = __dadd_rn(acc, __dmul_rn(zi, __dadd_rn(c[i * s], __dmul_rn(zn, c[(m - i) * s]))));
    zi = __dmul_rn(zi, z);
  }
  return acc;
}

// acc + z_i c[f(i)] over i in lo..hi, f(i) = m - i (reversed: the causal
// wrap) or i (the anticausal wrap; m unused), z_i *= z after each term.
__device__ __forceinline__ double cuprum_spl_sum(const double* c, long long s, long long lo,
                                                 long long hi, bool reversed, long long m,
                                                 double z, double acc, double& zi) {
  long long i = lo;
  for (; i + CUPRUM_SPL_BATCH <= hi; i += CUPRUM_SPL_BATCH) {
    double a[CUPRUM_SPL_BATCH];
#pragma unroll
    for (int k = 0; k < CUPRUM_SPL_BATCH; ++k) a[k] = c[(reversed ? m - i - k : i + k) * s];
#pragma unroll
    for (int k = 0; k < CUPRUM_SPL_BATCH; ++k) {
      acc = __dadd_rn(acc, __dmul_rn(zi, a[k]));
      zi = __dmul_rn(zi, z);
    }
  }
  for (; i < hi; ++i) {
    acc = __dadd_rn(acc, __dmul_rn(zi, c[(reversed ? m - i : i) * s]));
    zi = __dmul_rn(zi, z);
  }
  return acc;
}

// The causal recursion c[i] += z c[i - 1], i = 1..n-1, c[0] already set.
__device__ __forceinline__ void cuprum_spl_causal(double* c, long long n, long long s, double z) {
  double prev = c[0];
  long long i = 1;
  for (; i + CUPRUM_SPL_BATCH <= n; i += CUPRUM_SPL_BATCH) {
    double a[CUPRUM_SPL_BATCH];
#pragma unroll
    for (int k = 0; k < CUPRUM_SPL_BATCH; ++k) a[k] = c[(i + k) * s];
#pragma unroll
    for (int k = 0; k < CUPRUM_SPL_BATCH; ++k) {
      prev = __dadd_rn(a[k], __dmul_rn(z, prev));
      c[(i + k) * s] = prev;
    }
  }
  for (; i < n; ++i) {
    prev = __dadd_rn(c[i * s], __dmul_rn(z, prev));
    c[i * s] = prev;
  }
}

// The anticausal recursion c[i] = z (c[i + 1] - c[i]), i = n-2..0, c[n-1]
// already set.
__device__ __forceinline__ void cuprum_spl_anticausal_run(double* c, long long n, long long s,
                                                          double z) {
  double next = c[(n - 1) * s];
  long long i = n - 2;
  for (; i + 1 >= CUPRUM_SPL_BATCH; i -= CUPRUM_SPL_BATCH) {
    double a[CUPRUM_SPL_BATCH];
#pragma unroll
    for (int k = 0; k < CUPRUM_SPL_BATCH; ++k) a[k] = c[(i - k) * s];
#pragma unroll
    for (int k = 0; k < CUPRUM_SPL_BATCH; ++k) {
      next = __dmul_rn(z, __dsub_rn(next, a[k]));
      c[(i - k) * s] = next;
    }
  }
  for (; i >= 0; --i) {
    next = __dmul_rn(z, __dsub_rn(next, c[i * s]));
    c[i * s] = next;
  }
}

// c[0] for the causal pass. init: 0 mirror (whole-sample symmetric), 1
// reflect (half-sample symmetric), 2 wrap (periodic).
__device__ __forceinline__ double cuprum_spl_causal_init(const double* c, long long n,
                                                         long long s, double z, double zn1,
                                                         double zn, int init) {
  const double c0 = c[0];
  double zi = z;
  if (init == 0) {
    double acc = __dadd_rn(c0, __dmul_rn(zn1, c[(n - 1) * s]));
    acc = cuprum_spl_pair_sum(c, s, 1, n - 1, n - 1, zn1, z, acc, zi);
    return __ddiv_rn(acc, __dsub_rn(1.0, __dmul_rn(zn1, zn1)));
  }
  if (init == 1) {
    // SciPy accumulates into c[0] and, at i = n - 1, reads c[n - 1 - i],
    // which is c[0]: the accumulator so far, not the input's c0.
    double acc = __dadd_rn(c0, __dmul_rn(zn, c[(n - 1) * s]));
    acc = cuprum_spl_pair_sum(c, s, 1, n - 1, n - 1, zn, z, acc, zi);
    acc = __dadd_rn(acc, __dmul_rn(zi, __dadd_rn(c[(n - 1) * s], __dmul_rn(zn, acc))));
    acc = __dmul_rn(acc, __ddiv_rn(z, __dsub_rn(1.0, __dmul_rn(zn, zn))));
    return __dadd_rn(acc, c0);
  }
  double acc = cuprum_spl_sum(c, s, 1, n, true, n, z, c0, zi);
  return __ddiv_rn(acc, __dsub_rn(1.0, zi));
}

// c[n - 1] for the anticausal pass.
__device__ __forceinline__ double cuprum_spl_anticausal(const double* c, long long n,
                                                        long long s, double z, int init) {
  const double last = c[(n - 1) * s];
  if (init == 0)
    return __ddiv_rn(__dmul_rn(__dadd_rn(__dmul_rn(z, c[(n - 2) * s]), last), z),
                     __dsub_rn(__dmul_rn(z, z), 1.0));
  if (init == 1) return __dmul_rn(last, __ddiv_rn(z, __dsub_rn(z, 1.0)));
  double zi = z;
  const double acc = cuprum_spl_sum(c, s, 0, n - 1, false, 0, z, last, zi);
  return __dmul_rn(acc, __ddiv_rn(z, __dsub_rn(zi, 1.0)));
}

// Filters `lines` lines of n >= 2 values, line l starting at
// (l / inner) * n * inner + l % inner with stride inner. init: 0 mirror,
// 1 reflect, 2 wrap. poles holds per pole z, z^(n - 1) and z^n (the host's
// pow, as SciPy's).
extern "C" __global__ void cuprum_ndimage_spline_filter(double* data, long long n, long long inner,
                                                        long long lines, const double* poles,
                                                        int npoles, double gain, int init) {
  for (long long l = (long long)blockIdx.x * blockDim.x + threadIdx.x; l < lines;
       l += (long long)gridDim.x * blockDim.x) {
    double* c = data + (l / inner) * n * inner + l % inner;
    const long long s = inner;
    long long i = 0;
    for (; i + CUPRUM_SPL_BATCH <= n; i += CUPRUM_SPL_BATCH) {
      double a[CUPRUM_SPL_BATCH];
#pragma unroll
      for (int k = 0; k < CUPRUM_SPL_BATCH; ++k) a[k] = c[(i + k) * s];
#pragma unroll
      for (int k = 0; k < CUPRUM_SPL_BATCH; ++k) c[(i + k) * s] = __dmul_rn(a[k], gain);
    }
    for (; i < n; ++i) c[i * s] = __dmul_rn(c[i * s], gain);
    for (int p = 0; p < npoles; ++p) {
      const double z = poles[3 * p];
      c[0] = cuprum_spl_causal_init(c, n, s, z, poles[3 * p + 1], poles[3 * p + 2], init);
      cuprum_spl_causal(c, n, s, z);
      c[(n - 1) * s] = cuprum_spl_anticausal(c, n, s, z, init);
      cuprum_spl_anticausal_run(c, n, s, z);
    }
  }
}

// The B-spline weights of the order+1 taps from `start` (SciPy's
// piecewise polynomials, the last weight making the sum one).
__device__ __forceinline__ void cuprum_spl_weights(double x, int order, double* w) {
  x -= floor((order & 1) ? x : x + 0.5);
  double y = x, z = 1.0 - x, t;
  switch (order) {
    case 1:
      w[0] = 1.0 - x;
      break;
    case 2:
      w[1] = 0.75 - x * x;
      y = 0.5 - x;
      w[0] = 0.5 * y * y;
      break;
    case 3:
      w[1] = (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0;
      w[2] = (z * z * (z - 2.0) * 3.0 + 4.0) / 6.0;
      w[0] = z * z * z / 6.0;
      break;
    case 4:
      t = x * x;
      w[2] = t * (t * 0.25 - 0.625) + 115.0 / 192.0;
      y = 1.0 + x;
      w[1] = y * (y * (y * (5.0 - y) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0;
      w[3] = z * (z * (z * (5.0 - z) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0;
      y = 0.5 - x;
      t = y * y;
      w[0] = t * t / 24.0;
      break;
    case 5:
      t = y * y;
      w[2] = t * (t * (0.25 - y / 12.0) - 0.5) + 0.55;
      t = z * z;
      w[3] = t * (t * (0.25 - z / 12.0) - 0.5) + 0.55;
      y += 1.0;
      w[1] = y * (y * (y * (y * (y / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425;
      z += 1.0;
      w[4] = z * (z * (z * (z * (z / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425;
      y = 1.0 - x;
      t = y * y;
      w[0] = y * t * t / 120.0;
      break;
    default:
      break;
  }
  w[order] = 1.0;
  for (int i = 0; i < order; ++i) w[order] -= w[i];
}

// A coordinate outside 0..n-1 mapped inside by the mode (SciPy's
// map_coordinate); -1 for constant. Not called for nearest and
// grid-constant, whose taps are mapped one by one.
__device__ __forceinline__ double cuprum_interp_map_coord(double in, long long len, int mode) {
  if (in < 0) {
    switch (mode) {
      case CUPRUM_I_MIRROR: {
        if (len <= 1) return 0.0;
        const long long sz2 = 2 * len - 2;
        in = sz2 * (double)(long long)(-in / sz2) + in;
        return in <= 1 - len ? in + sz2 : -in;
      }
      case CUPRUM_I_REFLECT: {
        if (len <= 1) return 0.0;
        const long long sz2 = 2 * len;
        if (in < -sz2) in = sz2 * (double)(long long)(-in / sz2) + in;
        // SciPy's guard: a coordinate in (-1e-15, 0) maps to 1e-15 - 1,
        // not to -1 (which the caller would take for outside).
        return in < -len ? in + sz2 : (in > -1e-15 ? 1e-15 : -in) - 1;
      }
      case CUPRUM_I_WRAP: {
        if (len <= 1) return 0.0;
        const long long sz = len - 1;
        return in + sz * (double)((long long)(-in / sz) + 1);
      }
      case CUPRUM_I_GRID_WRAP:
        if (len <= 1) return 0.0;
        return in + len * (double)((long long)((-1 - in) / len) + 1);
      default:
        return -1.0;
    }
  } else if (in > len - 1) {
    switch (mode) {
      case CUPRUM_I_MIRROR: {
        if (len <= 1) return 0.0;
        const long long sz2 = 2 * len - 2;
        in -= sz2 * (double)(long long)(in / sz2);
        return in >= len ? sz2 - in : in;
      }
      case CUPRUM_I_REFLECT: {
        if (len <= 1) return 0.0;
        const long long sz2 = 2 * len;
        in -= sz2 * (double)(long long)(in / sz2);
        return in >= len ? sz2 - in - 1 : in;
      }
      case CUPRUM_I_WRAP: {
        if (len <= 1) return 0.0;
        const long long sz = len - 1;
        return in - sz * (double)(long long)(in / sz);
      }
      case CUPRUM_I_GRID_WRAP:
        if (len <= 1) return 0.0;
        return in - len * (double)(long long)(in / len);
      default:
        return -1.0;
    }
  }
  return in;
}

// The index inside 0..n-1 that tap i reads, or -1 for cval (grid-constant).
// constant and wrap read mirrored coefficients (no exact extension exists
// for them), the others their own extension.
__device__ __forceinline__ long long cuprum_interp_tap(long long i, long long n, int mode) {
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case CUPRUM_I_GRID_CONSTANT:
      return -1;
    case CUPRUM_I_NEAREST:
      return i < 0 ? 0 : n - 1;
    case CUPRUM_I_GRID_WRAP: {
      long long k = i % n;
      return k < 0 ? k + n : k;
    }
    case CUPRUM_I_REFLECT: {
      const long long p = 2 * n;
      long long k = i % p;
      if (k < 0) k += p;
      return k < n ? k : p - 1 - k;
    }
    default: {
      if (n == 1) return 0;
      const long long p = 2 * n - 2;
      long long k = i % p;
      if (k < 0) k += p;
      return k < n ? k : p - k;
    }
  }
}

// SciPy's stores: integers rounded half away from zero (unsigned: negative
// to 0) and clamped, booleans the C cast of the truncated value.
template <typename T>
__device__ __forceinline__ T cuprum_interp_store_int(double t, double lo, double hi) {
  t = t > 0 ? t + 0.5 : (lo < 0 ? t - 0.5 : 0.0);
  t = t > hi ? hi : t;
  t = t < lo ? lo : t;
  return (T)t;
}
template <typename T>
__device__ __forceinline__ T cuprum_interp_store(double t);
template <>
__device__ __forceinline__ float cuprum_interp_store<float>(double t) { return (float)t; }
template <>
__device__ __forceinline__ double cuprum_interp_store<double>(double t) { return t; }
template <>
__device__ __forceinline__ bool cuprum_interp_store<bool>(double t) {
  return t >= 1.0 || t <= -1.0 || t != t;
}
template <>
__device__ __forceinline__ unsigned char cuprum_interp_store<unsigned char>(double t) {
  return cuprum_interp_store_int<unsigned char>(t, 0.0, 255.0);
}
template <>
__device__ __forceinline__ signed char cuprum_interp_store<signed char>(double t) {
  return cuprum_interp_store_int<signed char>(t, -128.0, 127.0);
}
template <>
__device__ __forceinline__ unsigned short cuprum_interp_store<unsigned short>(double t) {
  return cuprum_interp_store_int<unsigned short>(t, 0.0, 65535.0);
}
template <>
__device__ __forceinline__ short cuprum_interp_store<short>(double t) {
  return cuprum_interp_store_int<short>(t, -32768.0, 32767.0);
}
template <>
__device__ __forceinline__ unsigned int cuprum_interp_store<unsigned int>(double t) {
  return cuprum_interp_store_int<unsigned int>(t, 0.0, 4294967295.0);
}
template <>
__device__ __forceinline__ int cuprum_interp_store<int>(double t) {
  return cuprum_interp_store_int<int>(t, -2147483648.0, 2147483647.0);
}
// 2^64 and 2^63 are the nearest doubles above the maxima; one ulp below
// keeps the cast defined.
template <>
__device__ __forceinline__ unsigned long long cuprum_interp_store<unsigned long long>(double t) {
  return cuprum_interp_store_int<unsigned long long>(t, 0.0, 18446744073709549568.0);
}
template <>
__device__ __forceinline__ long long cuprum_interp_store<long long>(double t) {
  return cuprum_interp_store_int<long long>(t, -9223372036854775808.0, 9223372036854774784.0);
}

// A mapping from output indices to input coordinates: kind 0 a
// coordinate array (coords64 or coords32, shape (in_ndim, size)), 1 an
// affine map (params: in_ndim x out_ndim matrix, then in_ndim offsets),
// 2 per axis (params: s, z, t; coordinate (o + s) * z + t), 3 the user's
// cuprum_ndimage_mapping (geometric_transform's programs only).
#ifndef CUPRUM_NDIMAGE_USER_MAPPING
#define CUPRUM_NDIMAGE_USER_MAPPING(OUT_INDEX, IN_COORDS, OUT_NDIM, IN_NDIM)
#endif

// The 2-D case (zoom, shift, rotate, affine_transform and map_coordinates
// of images) with the spline order a template parameter: every per-axis
// array below has a size and indices known at compile time and stays in
// registers, where the generic body's, indexed by a run-time axis and
// order, live in local memory. The same steps as the generic body: the
// coordinate mapped per axis, then the taps in C order, each value times
// the axis-0 weight and then the axis-1 weight, summed in that order.
template <int ORDER>
__device__ __forceinline__ bool cuprum_interp_axis(double c, long long n, int mode,
                                                   long long npad, long long& start,
                                                   double (&w)[ORDER + 1]) {
  double cc = c + (double)npad;
  if (mode != CUPRUM_I_GRID_CONSTANT && mode != CUPRUM_I_NEAREST) {
    if (mode == CUPRUM_I_CONSTANT && !(cc >= 0.0 && cc <= (double)(n - 1))) return false;
    cc = cuprum_interp_map_coord(cc, n, mode);
  }
  if (!(cc > -1.0 || mode == CUPRUM_I_GRID_CONSTANT || mode == CUPRUM_I_NEAREST) ||
      !(fabs(cc) < 9.0e15))
    return false;
  start = (long long)floor((ORDER & 1) ? cc : cc + 0.5) - ORDER / 2;
  if (ORDER > 0) {
    double all[6];
    cuprum_spl_weights(cc, ORDER, all);
#pragma unroll
    for (int i = 0; i <= ORDER; ++i) w[i] = all[i];
  }
  return true;
}

template <typename TI, int ORDER>
__device__ __forceinline__ double cuprum_interp_point2(const TI* in, long long n0, long long n1,
                                                       double c0, double c1, int mode,
                                                       double cval, long long npad) {
  long long s0, s1;
  double w0[ORDER + 1], w1[ORDER + 1];
  if (!cuprum_interp_axis<ORDER>(c0, n0, mode, npad, s0, w0) ||
      !cuprum_interp_axis<ORDER>(c1, n1, mode, npad, s1, w1))
    return cval;
  double t = 0.0;
#pragma unroll
  for (int a = 0; a <= ORDER; ++a) {
    const long long j0 = cuprum_interp_tap(s0 + a, n0, mode);
#pragma unroll
    for (int b = 0; b <= ORDER; ++b) {
      const long long j1 = cuprum_interp_tap(s1 + b, n1, mode);
      double coeff = (j0 < 0 || j1 < 0) ? cval : (double)in[j0 * n1 + j1];
      if (ORDER > 0) {
        coeff *= w0[a];
        coeff *= w1[b];
      }
      t += coeff;
    }
  }
  return t;
}

// An input coordinate of a 2-D affine map, as SciPy's NI_GeometricTransform
// sums it: the offset first, then o0 * m0 and o1 * m1, each operation
// rounded on its own (no fused multiply-add: a coordinate one ulp off an
// exact half picks another pixel at order 0, or leaves constant mode's
// edge).
__device__ __forceinline__ double cuprum_interp_affine_row(double o0, double o1, double offset,
                                                           double m0, double m1) {
  return __dadd_rn(__dadd_rn(offset, __dmul_rn(o0, m0)), __dmul_rn(o1, m1));
}

// zoom's and shift's coordinate (o + shift) * zoom + offset, rounded as
// SciPy's separate operations are.
__device__ __forceinline__ double cuprum_interp_zoom_coord(double o, double shift, double zoom,
                                                           double offset) {
  return __dadd_rn(__dmul_rn(__dadd_rn(o, shift), zoom), offset);
}

template <typename TI, typename TO, int ORDER>
__device__ __forceinline__ void cuprum_ndimage_interp2(
    const TI* in, TO* out, const double* coords64, const float* coords32,
    const double* params, const long long* ishape, const long long* oshape, int kind, int mode,
    double cval, long long npad, long long size) {
  const long long n0 = ishape[0], n1 = ishape[1], m1 = oshape[1];
  const long long step = (long long)gridDim.x * blockDim.x;
  // 32-bit division of the output index where it fits (a 64-bit one costs
  // more than the order-1 interpolation itself).
  const bool narrow = size + step < 2147483647LL;
  for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < size; k += step) {
    double c0, c1;
    if (kind == 0) {
      c0 = coords64 ? coords64[k] : (double)coords32[k];
      c1 = coords64 ? coords64[size + k] : (double)coords32[size + k];
    } else {
      long long o0, o1;
      if (narrow) {
        const unsigned q = (unsigned)k / (unsigned)m1;
        o0 = q;
        o1 = (long long)((unsigned)k - q * (unsigned)m1);
      } else {
        o0 = k / m1;
        o1 = k - o0 * m1;
      }
      if (kind == 1) {
        c0 = cuprum_interp_affine_row((double)o0, (double)o1, params[4], params[0], params[1]);
        c1 = cuprum_interp_affine_row((double)o0, (double)o1, params[5], params[2], params[3]);
      } else {
        c0 = cuprum_interp_zoom_coord((double)o0, params[0], params[1], params[2]);
        c1 = cuprum_interp_zoom_coord((double)o1, params[3], params[4], params[5]);
      }
    }
    out[k] = cuprum_interp_store<TO>(
        cuprum_interp_point2<TI, ORDER>(in, n0, n1, c0, c1, mode, cval, npad));
  }
}

// Which (input, output) pairs get the 2-D path: an output of the input's
// dtype (zoom's and shift's default) or a float one. Six orders of it in
// every pair would make the program's compile ten times longer.
template <typename TI, typename TO>
struct CuprumInterpFast {
  static constexpr bool value = false;
};
template <typename T>
struct CuprumInterpFast<T, T> {
  static constexpr bool value = true;
};
template <>
struct CuprumInterpFast<unsigned char, float> {
  static constexpr bool value = true;
};
template <>
struct CuprumInterpFast<unsigned char, double> {
  static constexpr bool value = true;
};
template <>
struct CuprumInterpFast<float, double> {
  static constexpr bool value = true;
};
template <>
struct CuprumInterpFast<double, float> {
  static constexpr bool value = true;
};

template <typename TI, typename TO>
__device__ __forceinline__ void cuprum_ndimage_interp(
    const TI* in, TO* out, const double* coords64, const float* coords32,
    const double* params, const long long* geom, int kind, int order, int mode, double cval,
    long long npad, long long size) {
  const int in_ndim = (int)geom[0];
  const int out_ndim = (int)geom[1];
  const long long* ishape = geom + 2;
  const long long* oshape = geom + 2 + in_ndim;
  if constexpr (CuprumInterpFast<TI, TO>::value) {
    if (in_ndim == 2 && out_ndim == 2 && kind != 3) {
#define CUPRUM_INTERP2(N)                                                                    \
  case N:                                                                                    \
    cuprum_ndimage_interp2<TI, TO, N>(in, out, coords64, coords32, params, ishape, oshape,   \
                                      kind, mode, cval, npad, size);                         \
    return;
      switch (order) {
        CUPRUM_INTERP2(0)
        CUPRUM_INTERP2(1)
        CUPRUM_INTERP2(2)
        CUPRUM_INTERP2(3)
        CUPRUM_INTERP2(4)
        CUPRUM_INTERP2(5)
        default:
          break;
      }
#undef CUPRUM_INTERP2
    }
  }
  for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < size;
       k += (long long)gridDim.x * blockDim.x) {
    long long o[CUPRUM_NDIMAGE_MAXDIM];
    double c[CUPRUM_NDIMAGE_MAXDIM];
    if (kind != 0) {
      long long r = k;
      for (int d = out_ndim - 1; d >= 0; --d) {
        o[d] = r % oshape[d];
        r /= oshape[d];
      }
    }
    if (kind == 0) {
      for (int d = 0; d < in_ndim; ++d)
        c[d] = coords64 ? coords64[d * size + k] : (double)coords32[d * size + k];
    } else if (kind == 1) {
      for (int d = 0; d < in_ndim; ++d) {
        // SciPy's order (NI_GeometricTransform): the offset first, then
        // each product, every operation rounded on its own.
        double acc = params[in_ndim * out_ndim + d];
        for (int e = 0; e < out_ndim; ++e)
          acc = __dadd_rn(acc, __dmul_rn((double)o[e], params[d * out_ndim + e]));
        c[d] = acc;
      }
    } else if (kind == 2) {
      for (int d = 0; d < in_ndim; ++d)
        c[d] = cuprum_interp_zoom_coord((double)o[d], params[3 * d], params[3 * d + 1],
                                        params[3 * d + 2]);
    } else {
      CUPRUM_NDIMAGE_USER_MAPPING(o, c, out_ndim, in_ndim);
    }
    long long start[CUPRUM_NDIMAGE_MAXDIM];
    double w[CUPRUM_NDIMAGE_MAXDIM][6];
    bool outside = false;
    for (int d = 0; d < in_ndim && !outside; ++d) {
      const long long n = ishape[d];
      double cc = c[d] + (double)npad;
      if (mode != CUPRUM_I_GRID_CONSTANT && mode != CUPRUM_I_NEAREST) {
        // constant: no interpolation past the edges (NaN included).
        if (mode == CUPRUM_I_CONSTANT && !(cc >= 0.0 && cc <= (double)(n - 1))) {
          outside = true;
          break;
        }
        cc = cuprum_interp_map_coord(cc, n, mode);
      }
      if (!(cc > -1.0 || mode == CUPRUM_I_GRID_CONSTANT || mode == CUPRUM_I_NEAREST) ||
          !(fabs(cc) < 9.0e15)) {
        // NaN or coordinates beyond an exact index: cval.
        outside = true;
        break;
      }
      start[d] = (long long)floor((order & 1) ? cc : cc + 0.5) - order / 2;
      if (order > 0) cuprum_spl_weights(cc, order, w[d]);
    }
    double t = cval;
    if (!outside) {
      int digit[CUPRUM_NDIMAGE_MAXDIM];
      long long strides[CUPRUM_NDIMAGE_MAXDIM];
      long long st = 1;
      for (int d = in_ndim - 1; d >= 0; --d) {
        digit[d] = 0;
        strides[d] = st;
        st *= ishape[d];
      }
      t = 0.0;
      for (;;) {
        long long idx = 0;
        bool is_cval = false;
        for (int d = 0; d < in_ndim; ++d) {
          const long long j = cuprum_interp_tap(start[d] + digit[d], ishape[d], mode);
          if (j < 0) is_cval = true;
          idx += j * strides[d];
        }
        double coeff = is_cval ? cval : (double)in[idx];
        if (order > 0)
          for (int d = 0; d < in_ndim; ++d) coeff *= w[d][digit[d]];
        t += coeff;
        int d = in_ndim - 1;
        while (d >= 0 && digit[d] == order) {
          digit[d] = 0;
          --d;
        }
        if (d < 0) break;
        ++digit[d];
      }
    }
    out[k] = cuprum_interp_store<TO>(t);
  }
}

#define CUPRUM_NDIMAGE_INTERP(NAME, TI, TO)                                                   \
  extern "C" __global__ void NAME(const TI* in, TO* out, const double* coords64,             \
                                  const float* coords32, const double* params,              \
                                  const long long* geom, int kind, int order, int mode,     \
                                  double cval, long long npad, long long size) {            \
    cuprum_ndimage_interp<TI, TO>(in, out, coords64, coords32, params, geom, kind, order,   \
                                  mode, cval, npad, size);                                  \
  }
