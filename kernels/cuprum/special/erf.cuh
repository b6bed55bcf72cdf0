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
__device__ __forceinline__ double erfcinv(double x) {
  if (x == 1.0) return -0.0;
  if (x == 0.0) return detail::inf();
  if (x == 2.0) return -detail::inf();
  if (!(x > 0.0 && x < 2.0)) return detail::nan();
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
