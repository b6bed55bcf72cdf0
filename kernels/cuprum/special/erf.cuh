// The error function family and the normal distribution of
// scipy.special: erf, erfc, erfcx, erfinv, erfcinv, ndtr, log_ndtr, ndtri.
//
// erf, erfc, erfcx and the inverses are CUDA's libdevice functions (CUDA
// Math API, "Mathematical Functions", with their stated ulp bounds),
// measured against mpmath in docs/special-accuracy.md, with SciPy's
// special values.
// ndtr follows Cephes' split (W. J. Cody's erf/erfc, as Cephes `ndtr.c`
// does: erf near 0, erfc in the tails) with the rounding of x/sqrt(2)
// corrected to first order, which SciPy leaves in.
#pragma once

#include "cuprum/special/common.cuh"

namespace cuprum {
namespace special {

__device__ __forceinline__ double erf(double x) { return ::erf(x); }
__device__ __forceinline__ double erfc(double x) { return ::erfc(x); }
__device__ __forceinline__ double erfcx(double x) { return ::erfcx(x); }

// erfinv: +-inf at +-1, NaN outside [-1, 1] (SciPy's domain), +0 at -0
// as SciPy's.
__device__ __forceinline__ double erfinv(double x) {
  if (x == 0.0) return 0.0;
  if (x == 1.0) return detail::inf();
  if (x == -1.0) return -detail::inf();
  if (!(::fabs(x) < 1.0)) return detail::nan();
  return ::erfinv(x);
}

// erfcinv: inf at 0, -inf at 2, NaN outside [0, 2], -0 at 1 as SciPy's.
// Below 1e-300 (down to the denormals, where SciPy returns inf though the
// value is finite, 27.2133 at 5e-324) it solves erfc(t) = x as
// t^2 = log(erfcx(t)) - log(x) (DLMF 7.2.3) by fixed-point iteration from
// t = sqrt(-log x); the map contracts by about 1 / (2 t^2) < 1e-3.
__device__ __forceinline__ double erfcinv(double x) {
  if (x == 1.0) return -0.0;
  if (x == 0.0) return detail::inf();
  if (x == 2.0) return -detail::inf();
  if (!(x > 0.0 && x < 2.0)) return detail::nan();
  if (x < 1e-300) {
    double lx = ::log(x);
    double t = ::sqrt(-lx);
    for (int i = 0; i < 8; ++i) t = ::sqrt(::log(::erfcx(t)) - lx);
    return t;
  }
  return ::erfcinv(x);
}

// ndtr(x) = (1 + erf(x / sqrt 2)) / 2. z = x / sqrt 2 rounds; its error
// dz (from an fma) moves erfc by -2/sqrt(pi) e^{-z^2} dz, which matters in
// the tails where erfc's relative slope is about 2 z.
__device__ __forceinline__ double ndtr(double x) {
  if (detail::is_nan(x)) return x;
  if (detail::is_inf(x)) return x < 0 ? 0.0 : 1.0;
  const double r_hi = 0.70710678118654757;    // 1/sqrt(2) rounded
  const double r_lo = -4.8336466567264567e-17;  // 1/sqrt(2) - r_hi
  double z = x * r_hi;
  double dz = ::fma(x, r_hi, -z) + x * r_lo;
  double az = ::fabs(z);
  if (az < r_hi) return 0.5 + 0.5 * ::erf(z);
  // d/dz (erfc(-z) / 2) = e^{-z^2} / sqrt(pi): the lower tail gains
  // that times dz (the upper one too, below the rounding of 1 - y).
  const double rsqrt_pi = 0.56418958354775628;
  if (z < 0) return 0.5 * ::erfc(-z) + rsqrt_pi * ::exp(-z * z) * dz;
  double y = 0.5 * ::erfc(z);
  return 1.0 - y;
}

// ndtri(p): the inverse of ndtr. For p in [1/4, 3/4], y = 2p - 1 is exact
// and t = sqrt(2) z with z = erfinv(y), polished by one Newton step on
// erf(z) = y (DLMF 7.17); outside, q = min(p, 1 - p) (exact),
// t = -sqrt(2) erfcinv(2q), polished by one Newton step on ndtr(t) = q
// written with the Mills ratio ndtr(t) / phi(t) = sqrt(pi/2)
// erfcx(-t / sqrt 2) (DLMF 7.2.3) so that nothing underflows; skipped
// below q = 1e-290 where ndtr loses precision to the denormals.
// -inf at 0, inf at 1, NaN outside [0, 1], +0 at 1/2 as SciPy's.
__device__ inline double ndtri(double p) {
  if (detail::is_nan(p)) return p;
  if (p == 0.0) return -detail::inf();
  if (p == 1.0) return detail::inf();
  if (!(p > 0.0 && p < 1.0)) return detail::nan();
  const double sqrt2 = 1.4142135623730951;
  if (p >= 0.25 && p <= 0.75) {
    double y = 2.0 * p - 1.0;
    if (y == 0.0) return 0.0;
    double z = ::erfinv(y);
    const double two_rsqrt_pi = 1.1283791670955126;
    z -= (::erf(z) - y) / (two_rsqrt_pi * ::exp(-z * z));
    return sqrt2 * z;
  }
  double q = p < 0.5 ? p : 1.0 - p;
  double t = -sqrt2 * erfcinv(2.0 * q);
  if (q >= 1e-290) {
    double c = ndtr(t);
    double mills = 1.2533141373155003 * ::erfcx(-t * 0.70710678118654757);
    t -= (1.0 - q / c) * mills;
  }
  return p < 0.5 ? t : -t;
}
CUPRUM_SPECIAL_F1(ndtri)

// log_ndtr(x) = log(ndtr(x)): log1p(-ndtr(-x)) for x > 0, log(ndtr(x)) on
// [-1, 0], and for x < -1 log(erfcx(-x / sqrt 2) / 2) - x^2 / 2 with x^2
// split exactly by an fma (DLMF 7.2.3, 7.2.2). -inf at -inf, -0 at +inf
// as SciPy's.
__device__ inline double log_ndtr(double x) {
  if (detail::is_nan(x)) return x;
  if (x > 0.0) return ::log1p(-ndtr(-x));
  if (x >= -1.0) return ::log(ndtr(x));
  if (detail::is_inf(x)) return -detail::inf();
  double hi = x * x, lo = ::fma(x, x, -hi);
  if (detail::is_inf(hi)) return -detail::inf();
  return (::log(0.5 * ::erfcx(-x * 0.70710678118654757)) - 0.5 * lo) - 0.5 * hi;
}
CUPRUM_SPECIAL_F1(log_ndtr)

// float32 erf in float: CUDA's erff is within 2 ulp, and the double
// evaluation costs twice the memory time of 2^28 elements on the H200.
__device__ __forceinline__ float erf(float x) { return ::erff(x); }
CUPRUM_SPECIAL_F1(erfc)
CUPRUM_SPECIAL_F1(erfcx)
CUPRUM_SPECIAL_F1(erfinv)
CUPRUM_SPECIAL_F1(erfcinv)
CUPRUM_SPECIAL_F1(ndtr)

}  // namespace special
}  // namespace cuprum
