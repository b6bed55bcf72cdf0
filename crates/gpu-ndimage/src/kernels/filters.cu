// gpu-ndimage's filter kernels (src/kernels.rs launches them).
//
// Every kernel reads a C-contiguous input (the host copies a strided one
// first) and writes a fresh C-contiguous output, one thread an output
// element (grid-stride loops). Past the edge of an axis they read through
// cuprum_ndimage_map (boundary.cuh): the mapped index, or cval.
//
// Values are converted to double and combined in double, as SciPy's
// ni_filters.c does through its double line buffers; products and sums use
// __dmul_rn/__dadd_rn so that NVRTC does not contract them into fused
// multiply-adds, which SciPy's (x86-64 baseline) build does not use either:
// the sums are SciPy's to the last bit where the order of terms is its.
//
// window1d: the 1-D filters along one axis of an input seen as
// (outer, n, inner). Output element (o, i, j) reads the input at
// c + jj, jj in -size1..size2 along the axis, where c = i - origin,
// size1 = size / 2, size2 = size - size1 - 1 (SciPy's NI_Correlate1D,
// NI_UniformFilter1D, NI_MinOrMaxFilter1D windows). op:
//   0: correlation, SciPy's general order: w[size-1] * x(c + size2) first,
//      then jj = -size1 .. size2 - 1;
//   1: symmetric weights (odd size): x(c) w[size1], then
//      (x(c + jj) + x(c - jj)) w[size1 + jj] for jj = -size1 .. -1;
//   2: antisymmetric weights: the same with x(c + jj) - x(c - jj);
//   3: mean (uniform filter): the sum in window order, divided by size;
//   4: minimum; 5: maximum (the first of equal values; NaN as < and >
//      compare it, as SciPy's C).
#include "cuprum/types.cuh"

template <typename T>
__device__ __forceinline__ double cuprum_ndimage_to_double(T v) {
  return (double)v;
}

// SciPy writes `(type)tmp`: a C conversion of the double result
// (truncation toward zero into integers). Integers narrower than 64 bits
// go through long long so that out-of-range values wrap as on the host
// rather than hit the device's saturation; bool is `tmp != 0`.
template <typename T>
__device__ __forceinline__ T cuprum_ndimage_from_double(double v) {
  return (T)(long long)v;
}
template <>
__device__ __forceinline__ bool cuprum_ndimage_from_double<bool>(double v) {
  return v != 0.0;
}
template <>
__device__ __forceinline__ float cuprum_ndimage_from_double<float>(double v) {
  return (float)v;
}
template <>
__device__ __forceinline__ double cuprum_ndimage_from_double<double>(double v) {
  return v;
}
template <>
__device__ __forceinline__ unsigned long long cuprum_ndimage_from_double<unsigned long long>(
    double v) {
  return v < 0.0 ? (unsigned long long)(long long)v : (unsigned long long)v;
}

// x(p) of one line: the element at p of the axis (stride `inner` elements
// from `line`), or the mapped one, or cval.
template <typename TI>
struct CuprumNdimageLine {
  const TI* line;
  long long n;
  long long inner;
  int mode;
  double cval;
  __device__ __forceinline__ double at(long long p) const {
    if (p < 0 || p >= n) {
      p = cuprum_ndimage_map(p, n, mode);
      if (p < 0) return cval;
    }
    return cuprum_ndimage_to_double(line[p * inner]);
  }
};

// One output of window1d: `x` reads the line through the boundary map
// (any c), or `p` points at the line's element c when the whole window
// c - size1 .. c + size2 lies inside the line (no map, no bounds checks:
// most outputs). Both give the same terms in the same order.
template <typename X>
__device__ __forceinline__ double cuprum_ndimage_window1d_one(const X& x, const double* w,
                                                              long long size1, long long size2,
                                                              int op) {
  double acc;
  switch (op) {
    case 1:
    case 2: {
      acc = __dmul_rn(x(0), w[size1]);
      for (long long jj = -size1; jj < 0; ++jj) {
        const double a = x(jj);
        const double b = x(-jj);
        acc = __dadd_rn(acc, __dmul_rn(op == 1 ? __dadd_rn(a, b) : __dsub_rn(a, b),
                                       w[size1 + jj]));
      }
      break;
    }
    case 3: {
      acc = 0.0;
      for (long long jj = -size1; jj <= size2; ++jj) acc = __dadd_rn(acc, x(jj));
      acc = __ddiv_rn(acc, (double)(size1 + size2 + 1));
      break;
    }
    case 4:
    case 5: {
      acc = x(-size1);
      for (long long jj = -size1 + 1; jj <= size2; ++jj) {
        const double v = x(jj);
        if (op == 4 ? v < acc : v > acc) acc = v;
      }
      break;
    }
    default: {
      acc = __dmul_rn(x(size2), w[size1 + size2]);
      for (long long jj = -size1; jj < size2; ++jj)
        acc = __dadd_rn(acc, __dmul_rn(x(jj), w[size1 + jj]));
      break;
    }
  }
  return acc;
}

// The element at offset k from the centre of a window inside its line.
template <typename TI, typename I>
struct CuprumNdimageInside {
  const TI* __restrict__ p;
  I inner;
  __device__ __forceinline__ double operator()(long long k) const {
    return cuprum_ndimage_to_double(p[(I)k * inner]);
  }
};

// The same through the boundary map (CuprumNdimageLine) around c.
template <typename TI>
struct CuprumNdimageMapped {
  CuprumNdimageLine<TI> line;
  long long c;
  __device__ __forceinline__ double operator()(long long k) const { return line.at(c + k); }
};

// Output i of a line (`line` its first element, `inner` apart).
template <typename TI, typename TO, typename I>
__device__ __forceinline__ void cuprum_ndimage_window1d_at(const TI* line, const double* w,
                                                           I size1, I size2, I n, I inner, I i,
                                                           I origin, int op, int mode,
                                                           double cval, TO* oline) {
  const I c = i - origin;
  double acc;
  if (c >= size1 && c + size2 < n) {
    acc = cuprum_ndimage_window1d_one(CuprumNdimageInside<TI, I>{line + c * inner, inner}, w,
                                      size1, size2, op);
  } else {
    CuprumNdimageLine<TI> x{line, n, inner, mode, cval};
    acc = cuprum_ndimage_window1d_one(CuprumNdimageMapped<TI>{x, (long long)c}, w, size1, size2,
                                      op);
  }
  oline[i * inner] = cuprum_ndimage_from_double<TO>(acc);
}

// Marching: along an axis that is not the last, with lines at least a
// warp wide, a thread computes `march` (1 to CUPRUM_NDIMAGE_MARCH, the
// host's choice: as many as still leave every thread of the GPU work)
// consecutive outputs down its line. The next output's window shares all
// but one input row with this one's, and the multiprocessor's L1 still
// holds them, where one thread an output reads every input row once per
// tap from L2 (which then bounds the pass).
#define CUPRUM_NDIMAGE_MARCH 16

// The grid-stride loop in index type I: int when every index fits (32-bit
// divisions and products cost a third of 64-bit ones, and they dominate a
// short window), long long otherwise. Work item t is a run of `march`
// outputs down a line (the last run shorter; consecutive items are
// neighbouring lines, so loads and stores stay coalesced). Each output is
// the same function of the input whatever the run.
template <typename TI, typename TO, typename I>
__device__ __forceinline__ void cuprum_ndimage_window1d_loop(const TI* __restrict__ in,
                                                             const double* __restrict__ w,
                                                             I size, I outer, I n, I inner,
                                                             I origin, int op, int mode,
                                                             double cval, I len,
                                                             TO* __restrict__ out) {
  const I size1 = size / 2;
  const I size2 = size - size1 - 1;
  const I step = (I)gridDim.x * (I)blockDim.x;
  const I runs = (n + len - 1) / len;
  const I items = outer * runs * inner;
  for (I t = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; t < items; t += step) {
    I j = 0, r = t;
    if (inner != 1) {
      j = t % inner;
      r = t / inner;
    }
    const I base = (r / runs) * n * inner + j;
    const I i0 = (r % runs) * len;
    const I i1 = n - i0 < len ? n : i0 + len;
    for (I i = i0; i < i1; ++i)
      cuprum_ndimage_window1d_at<TI, TO, I>(in + base, w, size1, size2, n, inner, i, origin, op,
                                            mode, cval, out + base);
  }
}

template <typename TI, typename TO>
__device__ __forceinline__ void cuprum_ndimage_window1d(const TI* in, const double* w,
                                                        long long size, long long outer,
                                                        long long n, long long inner,
                                                        long long origin, int op, int mode,
                                                        double cval, int march, TO* out) {
  const long long total = outer * n * inner;
  march = march < 1 ? 1 : march > CUPRUM_NDIMAGE_MARCH ? CUPRUM_NDIMAGE_MARCH : march;
  // int indexing when the loop's last step and every window index
  // (c + size2 with c <= n, a run's end below n + march)
  // stay below 2^31 too.
  const long long step = (long long)gridDim.x * blockDim.x;
  if (total + step + 2 * size + march < 2147483647LL) {
    cuprum_ndimage_window1d_loop<TI, TO, int>(in, w, (int)size, (int)outer, (int)n, (int)inner,
                                              (int)origin, op, mode, cval, march, out);
  } else {
    cuprum_ndimage_window1d_loop<TI, TO, long long>(in, w, size, outer, n, inner, origin, op,
                                                    mode, cval, march, out);
  }
}

#define CUPRUM_NDIMAGE_WINDOW1D(NAME, TI, TO)                                                 \
  extern "C" __global__ void NAME(const TI* in, const double* w, long long size,             \
                                  long long outer, long long n, long long inner,             \
                                  long long origin, int op, int mode, double cval,           \
                                  int march, TO* out) {                                      \
    cuprum_ndimage_window1d<TI, TO>(in, w, size, outer, n, inner, origin, op, mode, cval,    \
                                    march, out);                                             \
  }

// windownd: the n-D filters over a footprint. geom holds the input's
// shape (ndim <= CUPRUM_NDIMAGE_MAXDIM values), then per axis the taps'
// least and then greatest offset (2 ndim values); taps lists the
// footprint's elements in C order, each as ndim offsets from the output's
// index (the origin and centre already applied), then each tap's offset
// in elements of the C-contiguous input (ntaps values); w is the taps'
// weights. An output whose whole footprint lies inside the input reads
// in[t + offset] (most outputs); the others read each tap through the
// boundary map. op:
//   0: correlation: 0.0 + w[0] x(tap 0) + w[1] x(tap 1) + ... (SciPy's
//      NI_Correlate order);
//   4: minimum; 5: maximum (NI_MinOrMaxFilter: first tap, then strict
//      comparisons);
//   6: rank: the value of rank `rank` (0-based, ascending, NaN last)
//      among the ntaps <= CAP values: for the common small footprints
//      (CUPRUM_NDIMAGE_SMALL_RANKS: 3, 5, 9 taps) a sorting network in
//      registers, otherwise a selection in local memory. Both give the
//      same value; only the sign of a zero among equal zeros may differ.
// The result, a double, is written as TO (cuprum_ndimage_from_double,
// SciPy's C cast): the input's dtype or float64, so that the usual
// output needs no second pass; the host casts float64 to any other.
#define CUPRUM_NDIMAGE_MAXDIM 16

// The tap at offsets `off` from output t (C order in `shape`), read
// through the boundary map: t's index is taken apart from the last axis
// on, and the offsets of the mapped indices summed with the axes'
// strides (cval as soon as one axis maps outside, as in constant mode
// any does).
template <typename TI, typename I>
__device__ __forceinline__ double cuprum_ndimage_tap(const TI* in, const long long* shape, I t,
                                                     const long long* off, int ndim, int mode,
                                                     double cval) {
  long long lin = 0, stride = 1;
  I rest = t;
  for (int d = ndim - 1; d >= 0; --d) {
    const I s = (I)shape[d];
    long long p = (long long)(rest % s) + off[d];
    rest /= s;
    if (p < 0 || p >= s) {
      p = cuprum_ndimage_map(p, s, mode);
      if (p < 0) return cval;
    }
    lin += p * stride;
    stride *= s;
  }
  return cuprum_ndimage_to_double(in[lin]);
}

// The footprint around one output element t and whether every tap lies
// inside the input. No per-output arrays: the index is taken apart again
// for the taps of the few outputs near an edge, which keeps the window in
// registers (an index array indexed by axis would live in local memory).
template <typename TI, typename I>
struct CuprumNdimageWindow {
  const TI* in;
  const long long* shape;
  const long long* lo;
  const long long* hi;
  const long long* taps;
  const long long* lin;
  int ndim;
  int mode;
  double cval;
  I t;
  bool inside;
  __device__ __forceinline__ void at(I t_) {
    t = t_;
    inside = true;
    I rest = t_;
    for (int d = ndim - 1; d >= 0; --d) {
      const I s = (I)shape[d];
      const I i = rest % s;
      rest /= s;
      inside = inside && i + (I)lo[d] >= 0 && i + (I)hi[d] < s;
    }
  }
  __device__ __forceinline__ double tap(int k) const {
    if (inside) return cuprum_ndimage_to_double(in[t + (I)lin[k]]);
    return cuprum_ndimage_tap<TI, I>(in, shape, t, taps + (long long)k * ndim, ndim, mode, cval);
  }
};

// The window of the n-D kernels' arguments: geom is the shape, then the
// taps' least and greatest offsets per axis; taps the offsets, then the
// linear offsets (kernels.rs's footprint_geometry).
template <typename TI, typename I>
__device__ __forceinline__ CuprumNdimageWindow<TI, I> cuprum_ndimage_window(
    const TI* in, const long long* geom, int ndim, const long long* taps, int ntaps, int mode,
    double cval) {
  return CuprumNdimageWindow<TI, I>{in,   geom, geom + ndim, geom + 2 * ndim, taps,
                                    taps + (long long)ntaps * ndim, ndim, mode, cval};
}

// Whether the n-D loops may index in int: the last grid step, and every
// index plus a tap's offset, stay below 2^31.
__device__ __forceinline__ bool cuprum_ndimage_int_fits(const long long* geom, int ndim,
                                                        long long total) {
  long long reach = 0;
  for (int d = ndim; d < 3 * ndim; ++d) {
    const long long a = geom[d] < 0 ? -geom[d] : geom[d];
    if (a > reach) reach = a;
  }
  const long long step = (long long)gridDim.x * blockDim.x;
  return reach < 1073741824LL && total + step + reach < 2147483647LL;
}

// a < b with NaN after every number: a strict weak order, so that the
// selection below stays inside v whatever the values (any arithmetic
// type: tiled.cu's median compares in the input's own).
template <typename C>
__device__ __forceinline__ bool cuprum_ndimage_less(C a, C b) {
  return a < b || (b != b && a == a);
}

// The k-th smallest (0-based) of v[0..m), by quickselect (Hoare's FIND;
// NaN last): v is reordered. Each scan stops at the pivot's value at the
// latest, so a and b stay within lo..hi.
__device__ __forceinline__ double cuprum_ndimage_select(double* v, int m, int k) {
  int lo = 0, hi = m - 1;
  while (lo < hi) {
    const double pivot = v[(lo + hi) / 2];
    int a = lo, b = hi;
    while (a <= b) {
      while (cuprum_ndimage_less(v[a], pivot)) ++a;
      while (cuprum_ndimage_less(pivot, v[b])) --b;
      if (a <= b) {
        const double s = v[a];
        v[a] = v[b];
        v[b] = s;
        ++a;
        --b;
      }
    }
    if (k <= b)
      hi = b;
    else if (k >= a)
      lo = a;
    else
      break;
  }
  return v[k];
}

// Compare-exchange in the selection's order: afterwards !(b < a).
template <typename C>
__device__ __forceinline__ void cuprum_ndimage_cx(C& a, C& b) {
  const bool swap = cuprum_ndimage_less(b, a);
  const C lo = swap ? b : a;
  b = swap ? a : b;
  a = lo;
}

// The k-th smallest (0-based, NaN last) of N values held in registers:
// an odd-even transposition sort (N rounds of neighbour exchanges, from
// the even and then the odd positions, which sorts any N values under a
// strict weak order), then v[k] picked without indexing by k, which would
// move v to local memory.
template <int N>
__device__ __forceinline__ double cuprum_ndimage_select_small(double (&v)[N], int k) {
#pragma unroll
  for (int r = 0; r < N; ++r) {
#pragma unroll
    for (int i = r & 1; i + 1 < N; i += 2) cuprum_ndimage_cx(v[i], v[i + 1]);
  }
  double out = v[0];
#pragma unroll
  for (int i = 1; i < N; ++i) out = i == k ? v[i] : out;
  return out;
}

// The footprint sizes with a register path (a 3 or 5 window of a line,
// a 3 x 3 box): the rank filters users call most.
#define CUPRUM_NDIMAGE_SMALL_RANKS(X) X(3) X(5) X(9)

// Calls f(t) for every output t the thread owns: runs of `march` (1 to
// CUPRUM_NDIMAGE_MARCH, the host's choice) consecutive rows (the outputs
// of one index along axis 0) of one column, so that a footprint's rows,
// read again by the next output, are still in L1 (window1d's march).
template <typename I, typename F>
__device__ __forceinline__ void cuprum_ndimage_each_output(const long long* shape, I total,
                                                           I len, F&& f) {
  const I step = (I)gridDim.x * (I)blockDim.x;
  const I n0 = (I)shape[0];
  const I row = total / n0;
  const I runs = (n0 + len - 1) / len;
  const I items = runs * row;
  for (I u = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; u < items; u += step) {
    I j = 0, run = u;
    if (row != 1) {
      j = u % row;
      run = u / row;
    }
    const I i0 = run * len;
    const I i1 = n0 - i0 < len ? n0 : i0 + len;
    for (I i = i0; i < i1; ++i) f(i * row + j);
  }
}

// The rank filter over exactly N taps, each output's values in registers.
template <typename TI, typename TO, int N, typename I>
__device__ __forceinline__ void cuprum_ndimage_rank_small_loop(CuprumNdimageWindow<TI, I>& win,
                                                               int rank, long long total,
                                                               int march, TO* out) {
  cuprum_ndimage_each_output<I>(win.shape, (I)total, (I)march, [&](I t) {
    win.at(t);
    double v[N];
#pragma unroll
    for (int k = 0; k < N; ++k) v[k] = win.tap(k);
    out[t] = cuprum_ndimage_from_double<TO>(cuprum_ndimage_select_small<N>(v, rank));
  });
}

template <typename TI, typename TO, int CAP, typename I>
__device__ __forceinline__ void cuprum_ndimage_windownd_loop(const TI* in, const long long* geom,
                                                             int ndim, const long long* taps,
                                                             const double* w, int ntaps, int op,
                                                             int rank, int mode, double cval,
                                                             long long total, int march,
                                                             TO* out) {
  auto win = cuprum_ndimage_window<TI, I>(in, geom, ndim, taps, ntaps, mode, cval);
  // The small instantiation only: the large one serves more than 32 taps.
  if constexpr (CAP <= 32) {
    if (op == 6) {
#define CUPRUM_NDIMAGE_RANK_CASE(N)                                                    \
  if (ntaps == N) {                                                                    \
    cuprum_ndimage_rank_small_loop<TI, TO, N, I>(win, rank, total, march, out);       \
    return;                                                                            \
  }
      CUPRUM_NDIMAGE_SMALL_RANKS(CUPRUM_NDIMAGE_RANK_CASE)
#undef CUPRUM_NDIMAGE_RANK_CASE
    }
  }
  double vals[CAP];
  cuprum_ndimage_each_output<I>(geom, (I)total, (I)march, [&](I t) {
    win.at(t);
    double acc = 0.0;
    for (int k = 0; k < ntaps; ++k) {
      const double v = win.tap(k);
      if (op == 0) {
        acc = __dadd_rn(acc, __dmul_rn(v, w[k]));
      } else if (op == 6) {
        vals[k] = v;
      } else if (k == 0 || (op == 4 ? v < acc : v > acc)) {
        acc = v;
      }
    }
    if (op == 6) acc = cuprum_ndimage_select(vals, ntaps, rank);
    out[t] = cuprum_ndimage_from_double<TO>(acc);
  });
}

template <typename TI, typename TO, int CAP>
__device__ __forceinline__ void cuprum_ndimage_windownd(const TI* in, const long long* geom,
                                                        int ndim, const long long* taps,
                                                        const double* w, int ntaps,
                                                        int op, int rank, int mode,
                                                        double cval, long long total,
                                                        int march, TO* out) {
  march = march < 1 ? 1 : march > CUPRUM_NDIMAGE_MARCH ? CUPRUM_NDIMAGE_MARCH : march;
  if (cuprum_ndimage_int_fits(geom, ndim, total))
    cuprum_ndimage_windownd_loop<TI, TO, CAP, int>(in, geom, ndim, taps, w, ntaps, op, rank,
                                                   mode, cval, total, march, out);
  else
    cuprum_ndimage_windownd_loop<TI, TO, CAP, long long>(in, geom, ndim, taps, w, ntaps, op,
                                                         rank, mode, cval, total, march, out);
}

#define CUPRUM_NDIMAGE_WINDOWND(NAME, TI, TO, CAP)                                            \
  extern "C" __global__ void NAME(const TI* in, const long long* geom, int ndim,             \
                                  const long long* taps, const double* w, int ntaps, int op, \
                                  int rank, int mode, double cval, long long total,          \
                                  int march, TO* out) {                                      \
    cuprum_ndimage_windownd<TI, TO, CAP>(in, geom, ndim, taps, w, ntaps, op, rank, mode,     \
                                         cval, total, march, out);                           \
  }

#ifdef CUPRUM_NDIMAGE_USER_FUNCTION
// generic_filter: the user's function (CUPRUM_NDIMAGE_USER_FUNCTION(buffer,
// n), a double) of the footprint's values, gathered as windownd gathers
// them into a local buffer of CAP >= ntaps doubles. The launcher passes
// windownd's arguments (w unused).
template <typename TI, int CAP, typename I>
__device__ __forceinline__ void cuprum_ndimage_generic_loop(const TI* in, const long long* geom,
                                                            int ndim, const long long* taps,
                                                            int ntaps, int mode, double cval,
                                                            long long total, int march,
                                                            double* out) {
  auto win = cuprum_ndimage_window<TI, I>(in, geom, ndim, taps, ntaps, mode, cval);
  double vals[CAP];
  cuprum_ndimage_each_output<I>(geom, (I)total, (I)march, [&](I t) {
    win.at(t);
    for (int k = 0; k < ntaps; ++k) vals[k] = win.tap(k);
    out[t] = CUPRUM_NDIMAGE_USER_FUNCTION(vals, (long long)ntaps);
  });
}

template <typename TI, int CAP>
__device__ __forceinline__ void cuprum_ndimage_generic(const TI* in, const long long* geom,
                                                       int ndim, const long long* taps,
                                                       int ntaps, int mode, double cval,
                                                       long long total, int march,
                                                       double* out) {
  march = march < 1 ? 1 : march > CUPRUM_NDIMAGE_MARCH ? CUPRUM_NDIMAGE_MARCH : march;
  if (cuprum_ndimage_int_fits(geom, ndim, total))
    cuprum_ndimage_generic_loop<TI, CAP, int>(in, geom, ndim, taps, ntaps, mode, cval, total,
                                              march, out);
  else
    cuprum_ndimage_generic_loop<TI, CAP, long long>(in, geom, ndim, taps, ntaps, mode, cval,
                                                    total, march, out);
}

#define CUPRUM_NDIMAGE_GENERIC(NAME, TI, CAP)                                                 \
  extern "C" __global__ void NAME(const TI* in, const long long* geom, int ndim,             \
                                  const long long* taps, const double* w, int ntaps, int op, \
                                  int rank, int mode, double cval, long long total,          \
                                  int march, double* out) {                                  \
    cuprum_ndimage_generic<TI, CAP>(in, geom, ndim, taps, ntaps, mode, cval, total, march,   \
                                    out);                                                    \
  }
#endif

#ifdef CUPRUM_NDIMAGE_USER_LINE_FUNCTION
// generic_filter1d: one thread a line of the float64 input seen as
// (lines, n). It extends its line by `left` values before and
// `size - 1 - left` after (read through the boundary map) into its row of
// `ext` (n + size - 1 doubles), then calls the user's function
// CUPRUM_NDIMAGE_USER_LINE_FUNCTION(ext_row, n + size - 1, out_row, n).
__device__ __forceinline__ void cuprum_ndimage_generic1d(const double* in, long long lines,
                                                         long long n, long long size,
                                                         long long left, int mode, double cval,
                                                         double* ext, double* out) {
  const long long len = n + size - 1;
  for (long long l = (long long)blockIdx.x * blockDim.x + threadIdx.x; l < lines;
       l += (long long)gridDim.x * blockDim.x) {
    CuprumNdimageLine<double> x{in + l * n, n, 1, mode, cval};
    double* row = ext + l * len;
    for (long long p = 0; p < len; ++p) row[p] = x.at(p - left);
    CUPRUM_NDIMAGE_USER_LINE_FUNCTION(row, len, out + l * n, n);
  }
}

#define CUPRUM_NDIMAGE_GENERIC1D(NAME)                                                        \
  extern "C" __global__ void NAME(const double* in, long long lines, long long n,            \
                                  long long size, long long left, int mode, double cval,     \
                                  double* ext, double* out) {                                \
    cuprum_ndimage_generic1d(in, lines, n, size, left, mode, cval, ext, out);                \
  }
#endif
