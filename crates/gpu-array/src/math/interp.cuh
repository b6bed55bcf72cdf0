// NumPy's arr_interp at one point v (float64): binary search for
// xp[j] <= v < xp[j + 1], left/right outside, fp[j] on a sample point,
// else the slope formula with NumPy's NaN retries. Out is float64 or
// complex128 (fp's dtype); bit 0 of `given`: left given, bit 1: right
// given (else fp[0] and fp[len - 1]).
namespace cuprum_np {
template <class Out, class XP, class FP>
__device__ __forceinline__ Out interp_lerp(double v, const XP& xp, const FP& fp, long long j) {
  if constexpr (cuprum::is_complex<Out>::value) {
    const double inv = 1.0 / __dsub_rn(xp[j + 1], xp[j]);
    const Out a = fp[j], b = fp[j + 1];
    const double sr = __dmul_rn(__dsub_rn(b.real(), a.real()), inv);
    const double si = __dmul_rn(__dsub_rn(b.imag(), a.imag()), inv);
    double re = __dadd_rn(__dmul_rn(sr, __dsub_rn(v, xp[j])), a.real());
    if (re != re) {
      re = __dadd_rn(__dmul_rn(sr, __dsub_rn(v, xp[j + 1])), b.real());
      if (re != re && a.real() == b.real()) re = a.real();
    }
    double im = __dadd_rn(__dmul_rn(si, __dsub_rn(v, xp[j])), a.imag());
    if (im != im) {
      im = __dadd_rn(__dmul_rn(si, __dsub_rn(v, xp[j + 1])), b.imag());
      if (im != im && a.imag() == b.imag()) im = a.imag();
    }
    return Out(re, im);
  } else {
    const double a = fp[j], b = fp[j + 1];
    const double s = __ddiv_rn(__dsub_rn(b, a), __dsub_rn(xp[j + 1], xp[j]));
    Out r = __dadd_rn(__dmul_rn(s, __dsub_rn(v, xp[j])), a);
    if (r != r) {
      r = __dadd_rn(__dmul_rn(s, __dsub_rn(v, xp[j + 1])), b);
      if (r != r && a == b) r = a;
    }
    return r;
  }
}

template <class Out, class XP, class FP>
__device__ __forceinline__ Out interp(double v, const XP& xp, const FP& fp, Out left, Out right,
                                      double period, long long len, long long given) {
  if (period != 0.0) v = cuprum::remainder(v, period);
  const long long n = len;
  const Out lv = (given & 1) ? left : Out(fp[0]);
  const Out rv = (given & 2) ? right : Out(fp[n - 1]);
  if (n == 1) return v < xp[0] ? lv : (v > xp[0] ? rv : Out(fp[0]));
  if (v != v) return Out(v);
  if (v < xp[0]) return lv;
  if (v > xp[n - 1]) return rv;
  if (v == xp[n - 1]) return Out(fp[n - 1]);
  long long lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    const long long mid = lo + (hi - lo) / 2;
    if (v >= xp[mid]) lo = mid; else hi = mid;
  }
  if (xp[lo] == v) return Out(fp[lo]);
  return interp_lerp<Out>(v, xp, fp, lo);
}
}  // namespace cuprum_np
