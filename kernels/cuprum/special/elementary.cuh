// The elementary-like functions of scipy.special: expm1, log1p, cbrt,
// exp2, exp10 (CUDA's own, with SciPy's special values), round (half to
// even, Cephes' `round`), the degree trigonometry sindg, cosdg, tandg,
// cotdg and radian (Cephes' method: reduction by octants of 45 degrees,
// exact because x - 45 y is exact below 1e14, then the radian argument in
// double-double; beyond 1e14 degrees, where no digit of the reduction is
// left, SciPy's 0), xlogy, xlog1py, exprel, the Box-Cox transforms
// (Box and Cox 1964, through expm1/log1p so that small lambda does not
// cancel), log_expit, and numpy's sinc.
#pragma once

#include "cuprum/complex.cuh"
#include "cuprum/special/common.cuh"

namespace cuprum {
namespace special {
namespace detail {

// pi / 180 as a double-double: x * PI180 to about 2^-106 relative.
constexpr double PI180_HI = 1.7453292519943295e-02;
constexpr double PI180_LO = 2.9486522708701687e-19;
// Beyond this many degrees the octant reduction has no digits left.
constexpr double DEG_LOSS = 1.0e14;

__device__ __forceinline__ double deg_to_rad(double t) {
  return ::fma(t, PI180_HI, t * PI180_LO);
}

}  // namespace detail

__device__ __forceinline__ double expm1(double x) { return ::expm1(x); }
__device__ __forceinline__ double log1p(double x) { return ::log1p(x); }
__device__ __forceinline__ double cbrt(double x) { return ::cbrt(x); }
__device__ __forceinline__ double exp2(double x) { return ::exp2(x); }
__device__ __forceinline__ double exp10(double x) { return ::exp10(x); }

// Nearest integer, halves to even; -0.5 rounds to +0 as Cephes' (and
// SciPy's) floor-based rounding gives.
__device__ __forceinline__ double round(double x) {
  double y = ::floor(x);
  double r = x - y;
  if (r > 0.5) {
    y += 1.0;
  } else if (r == 0.5 && ::fmod(y, 2.0) != 0.0) {
    y += 1.0;
  }
  return y;
}

namespace detail {

// sin (want_cos false) or cos of x degrees, by octants.
__device__ inline double trig_deg(double x, bool want_cos) {
  double sign = 1.0;
  if (x < 0.0) {
    x = -x;
    if (!want_cos) sign = -1.0;
  }
  if (x > DEG_LOSS) return 0.0;
  double y = ::floor(x / 45.0);
  // The octant modulo 16, rounded up to even: j in {0, 2, 4, 6}.
  double z = y - 16.0 * ::floor(y / 16.0);
  int j = (int)z;
  if (j & 1) {
    j += 1;
    y += 1.0;
  }
  j &= 7;
  if (j > 3) {
    sign = -sign;
    j -= 4;
  }
  if (want_cos && j > 1) sign = -sign;
  double t = deg_to_rad(x - y * 45.0);  // |t| <= pi / 4
  double r = (j == 2) != want_cos ? ::cos(t) : ::sin(t);
  return sign < 0.0 ? -r : r;
}

// tan (cot false) or cot of x degrees: reduced exactly to t in [0, 90]
// by half-turns and the reflection x -> 180 - x (Cephes' tancot), then
// evaluated as tan or 1 / tan of an angle of at most 45 degrees, whose
// complement 90 - t is exact: near a pole the rounding of the radian
// argument would otherwise be magnified by 1 / cos.
__device__ inline double tancot_deg(double x, bool cot) {
  double sign = 1.0;
  if (x < 0.0) {
    x = -x;
    sign = -1.0;
  }
  if (x > DEG_LOSS) return 0.0;
  x = x - 180.0 * ::floor(x / 180.0);
  if (x > 90.0) {
    x = 180.0 - x;
    sign = -sign;
  }
  if (x == 45.0) return sign;
  // SciPy's zeros are +0 and its poles +inf, whatever the sign.
  if (x == (cot ? 90.0 : 0.0)) return 0.0;
  // (and cot of an angle too small to move 90 - x: SciPy's +inf too)
  if (x == (cot ? 0.0 : 90.0) || (cot && 90.0 - x == 90.0)) return inf();
  bool small = x <= 45.0;
  double t = ::tan(deg_to_rad(small ? x : 90.0 - x));
  return sign * (small != cot ? t : 1.0 / t);
}

}  // namespace detail

__device__ inline double sindg(double x) { return detail::trig_deg(x, false); }
__device__ inline double cosdg(double x) { return detail::trig_deg(x, true); }
__device__ inline double tandg(double x) { return detail::tancot_deg(x, false); }
__device__ inline double cotdg(double x) { return detail::tancot_deg(x, true); }

// Degrees, minutes and seconds to radians.
__device__ __forceinline__ double radian(double d, double m, double s) {
  return detail::deg_to_rad((s / 60.0 + m) / 60.0 + d);
}

// x log(y), 0 where x = 0 and y is not NaN.
__device__ __forceinline__ double xlogy(double x, double y) {
  if (x == 0.0 && !detail::is_nan(y)) return 0.0;
  return x * ::log(y);
}

// x log1p(y), 0 where x = 0 and y is not NaN.
__device__ __forceinline__ double xlog1py(double x, double y) {
  if (x == 0.0 && !detail::is_nan(y)) return 0.0;
  return x * ::log1p(y);
}

// (exp(x) - 1) / x, 1 at 0.
__device__ __forceinline__ double exprel(double x) {
  if (::fabs(x) < 1e-16) return 1.0;
  if (x > 717.0) return detail::inf();
  return ::expm1(x) / x;
}

// (x^lambda - 1) / lambda, log(x) at lambda = 0.
__device__ __forceinline__ double boxcox(double x, double lmbda) {
  if (::fabs(lmbda) < 1e-19) return ::log(x);
  return ::expm1(lmbda * ::log(x)) / lmbda;
}

// ((1 + x)^lambda - 1) / lambda, log1p(x) at lambda = 0.
__device__ __forceinline__ double boxcox1p(double x, double lmbda) {
  double l = ::log1p(x);
  // SciPy: lambda * l is below the rounding of any result.
  if (::fabs(lmbda) < 1e-19 || (::fabs(l) < 1e-289 && ::fabs(lmbda) < 1e273)) return l;
  return ::expm1(lmbda * l) / lmbda;
}

namespace detail {

// log1p(l y) / l, also where l y under- or overflows: y where the
// product is subnormal or underflows (log1p(t) = t there), (log|l| + log|y|) / l where a
// positive product overflows (1 is below its rounding).
__device__ __forceinline__ double log1p_product_over(double l, double y) {
  double p = l * y;
  // Below the normal range the product has lost digits: log1p(p) / l is y.
  if (::fabs(p) < 2.2250738585072014e-308 && l != 0.0 && y != 0.0) return y;
  if (p == inf() && !is_inf(l) && !is_inf(y)) return (::log(::fabs(l)) + ::log(::fabs(y))) / l;
  return ::log1p(p) / l;
}

}  // namespace detail

// The inverse of boxcox: (1 + lambda y)^(1 / lambda).
__device__ __forceinline__ double inv_boxcox(double y, double lmbda) {
  if (lmbda == 0.0) return ::exp(y);
  return ::exp(detail::log1p_product_over(lmbda, y));
}

// The inverse of boxcox1p.
__device__ __forceinline__ double inv_boxcox1p(double y, double lmbda) {
  if (lmbda == 0.0) return ::expm1(y);
  return ::expm1(detail::log1p_product_over(lmbda, y));
}

// log(expit(x)) = -log1p(exp(-x)), without overflow or cancellation.
__device__ __forceinline__ double log_expit(double x) {
  if (x < 0.0) return x - ::log1p(::exp(x));
  return -::log1p(::exp(-x));
}

// numpy's normalized sinc: sin(pi x) / (pi x), 1 at 0.
__device__ __forceinline__ double sinc(double x) {
  if (x == 0.0) return 1.0;
  // pi x in double-double keeps the quotient within an ulp or two.
  const double pi_hi = 3.141592653589793, pi_lo = 1.2246467991473532e-16;
  double p = __dmul_rn(pi_hi, x);
  double e = ::fma(pi_hi, x, -p) + pi_lo * x;
  double s = ::sinpi(x);
  return (s / p) * (1.0 - e / p);
}

CUPRUM_SPECIAL_F1(expm1)
CUPRUM_SPECIAL_F1(log1p)
CUPRUM_SPECIAL_F1(cbrt)
CUPRUM_SPECIAL_F1(exp2)
CUPRUM_SPECIAL_F1(exp10)
CUPRUM_SPECIAL_F1(round)
CUPRUM_SPECIAL_F1(sindg)
CUPRUM_SPECIAL_F1(cosdg)
CUPRUM_SPECIAL_F1(tandg)
CUPRUM_SPECIAL_F1(cotdg)
CUPRUM_SPECIAL_F2(xlogy)
CUPRUM_SPECIAL_F2(xlog1py)
CUPRUM_SPECIAL_F1(exprel)
CUPRUM_SPECIAL_F2(boxcox)
CUPRUM_SPECIAL_F2(boxcox1p)
CUPRUM_SPECIAL_F2(inv_boxcox)
CUPRUM_SPECIAL_F2(inv_boxcox1p)
CUPRUM_SPECIAL_F1(log_expit)
CUPRUM_SPECIAL_F1(sinc)
// SciPy's complex loops of expm1, log1p, xlogy and xlog1py. expm1 and
// log1p are NumPy's complex expm1 and log1p in double (complex64 rounds
// the complex128 value once, as SciPy's F->F loop does); a non-finite
// part takes exp(z) - 1 with C99's special values of exp, as SciPy's
// cexpm1 (expm1(inf + 0j) = inf + 0j, expm1(-inf + inf j) = -1 + 0j).
__device__ __forceinline__ cuprum::complex<double> expm1(const cuprum::complex<double>& z) {
  if (!cuprum::isfinite(z.re) || !cuprum::isfinite(z.im)) return cuprum::exp(z) - 1.0;
  return cuprum::expm1(z);
}
__device__ __forceinline__ cuprum::complex<float> expm1(const cuprum::complex<float>& z) {
  return cuprum::complex<float>(expm1(cuprum::complex<double>(z)));
}
__device__ __forceinline__ cuprum::complex<double> log1p(const cuprum::complex<double>& z) {
  return cuprum::log1p(z);
}
__device__ __forceinline__ cuprum::complex<float> log1p(const cuprum::complex<float>& z) {
  return cuprum::complex<float>(log1p(cuprum::complex<double>(z)));
}
template <typename T>
__device__ __forceinline__ cuprum::complex<T> xlogy(const cuprum::complex<T>& x,
                                                    const cuprum::complex<T>& y) {
  if (x.re == T(0) && x.im == T(0) && !(y.re != y.re) && !(y.im != y.im)) return cuprum::complex<T>(T(0));
  return x * cuprum::log(y);
}
template <typename T>
__device__ __forceinline__ cuprum::complex<T> xlog1py(const cuprum::complex<T>& x,
                                                      const cuprum::complex<T>& y) {
  if (x.re == T(0) && x.im == T(0) && !(y.re != y.re) && !(y.im != y.im)) return cuprum::complex<T>(T(0));
  return x * cuprum::log1p(y);
}
__device__ __forceinline__ float radian(float d, float m, float s) {
  return (float)radian((double)d, (double)m, (double)s);
}

}  // namespace special
}  // namespace cuprum
