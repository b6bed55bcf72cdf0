// The creation routines' elements, by C-order index i of a C-contiguous
// output. Floating-point formulas use the _rn intrinsics: NumPy computes
// them as separate multiplies and adds, and NVRTC would otherwise contract
// them into fused multiply-adds, whose single rounding differs.
namespace cuprum_np {
// eye (TRI false: c - r == k) or tri (c - r <= k) of an m-column matrix.
template <bool TRI>
__device__ __forceinline__ bool eye_value(long long i, long long m, long long k) {
  const long long r = i / m;
  const long long c = i - r * m;
  return TRI ? (c - r <= k) : (c - r == k);
}

// Whether element i of the last two axes (nrows x ncols) is at or below
// (LOWER) or at or above diagonal k.
template <bool LOWER>
__device__ __forceinline__ bool in_triangle(long long i, long long nrows, long long ncols, long long k) {
  const long long c = i % ncols;
  const long long r = (i / ncols) % nrows;
  return LOWER ? (c - r <= k) : (c - r >= k);
}

// diag(v, k) of a side x side matrix: v[min(r, c)] on diagonal k, else 0.
template <typename Y, typename V>
__device__ __forceinline__ Y diag_value(long long i, const V& v, long long k, long long side) {
  const long long r = i / side;
  const long long c = i - r * side;
  if (c - r == k) return v[k >= 0 ? r : c];
  return cuprum::cast<Y>(0);
}

// NumPy's <TYPE>_fill (arraytypes.c.src): a and b as given, then
// a + i * (b - a) in the type's arithmetic (float for the 16-bit floats,
// the components for complex, 64-bit wrapping for integers and bool).
template <typename Y>
__device__ __forceinline__ Y arange_value(long long i, Y a, Y b) {
  if (i == 0) return a;
  if (i == 1) return b;
  if constexpr (cuprum::is_half_like<Y>::value || cuprum::is_same<Y, float>::value) {
    const float s = (float)a;
    const float d = __fsub_rn((float)b, s);
    return Y(__fadd_rn(s, __fmul_rn((float)i, d)));
  } else if constexpr (cuprum::is_same<Y, double>::value) {
    const double d = __dsub_rn(b, a);
    return __dadd_rn(a, __dmul_rn((double)i, d));
  } else if constexpr (cuprum::is_same<Y, cuprum::complex<float> >::value) {
    const float dr = __fsub_rn(b.real(), a.real());
    const float di = __fsub_rn(b.imag(), a.imag());
    return Y(__fadd_rn(a.real(), __fmul_rn((float)i, dr)), __fadd_rn(a.imag(), __fmul_rn((float)i, di)));
  } else if constexpr (cuprum::is_same<Y, cuprum::complex<double> >::value) {
    const double dr = __dsub_rn(b.real(), a.real());
    const double di = __dsub_rn(b.imag(), a.imag());
    return Y(__dadd_rn(a.real(), __dmul_rn((double)i, dr)), __dadd_rn(a.imag(), __dmul_rn((double)i, di)));
  } else {
    const Y d = (Y)(b - a);
    return (Y)((unsigned long long)a + (unsigned long long)i * (unsigned long long)d);
  }
}

// NumPy's linspace (function_base.py) in float64: arange(num) * step +
// start (mode 0), arange(num) / div * delta + start when the step
// underflows to zero (mode 1), arange(num) * delta + start when div <= 0
// (mode 2); element `last` is stop; floor for integer outputs (FLOOR).
template <bool FLOOR>
__device__ __forceinline__ double linspace_real(long long i, double start, double stop, double step,
                                                double delta, double div, long long mode,
                                                long long last) {
  const double t = (double)i;
  double v;
  if (mode == 0) v = __dmul_rn(t, step);
  else if (mode == 1) v = __dmul_rn(__ddiv_rn(t, div), delta);
  else v = __dmul_rn(t, delta);
  v = __dadd_rn(v, start);
  if (i == last) v = stop;
  if (FLOOR) v = floor(v);
  return v;
}

// linspace in complex128: NumPy's formulas for a complex array times (or
// over) a complex scalar.
__device__ __forceinline__ cuprum::complex<double> linspace_complex(
    long long i, cuprum::complex<double> start, cuprum::complex<double> stop,
    cuprum::complex<double> step, cuprum::complex<double> delta, double div, long long mode,
    long long last) {
  double tr = (double)i, ti = 0.0;
  cuprum::complex<double> b = mode == 2 ? delta : step;
  if (mode == 1) {
    const double scl = __drcp_rn(div);
    const double qr = __dmul_rn(__dadd_rn(tr, __dmul_rn(ti, 0.0)), scl);
    const double qi = __dmul_rn(__dsub_rn(ti, __dmul_rn(tr, 0.0)), scl);
    tr = qr; ti = qi; b = delta;
  }
  const double vr = __dsub_rn(__dmul_rn(tr, b.real()), __dmul_rn(ti, b.imag()));
  const double vi = __dadd_rn(__dmul_rn(tr, b.imag()), __dmul_rn(ti, b.real()));
  cuprum::complex<double> v(__dadd_rn(vr, start.real()), __dadd_rn(vi, start.imag()));
  if (i == last) v = stop;
  return v;
}

// mgrid/ogrid: ((i / inner) % dim) * step + start in wrapping int64 ...
__device__ __forceinline__ long long grid_int(long long i, long long inner, long long dim,
                                              long long step, long long start) {
  const unsigned long long t = (unsigned long long)((i / inner) % dim);
  return (long long)(t * (unsigned long long)step + (unsigned long long)start);
}

// ... or in float64.
__device__ __forceinline__ double grid_float(long long i, long long inner, long long dim,
                                             double step, double start) {
  const double t = (double)((i / inner) % dim);
  return __dadd_rn(__dmul_rn(t, step), start);
}
}  // namespace cuprum_np
