// scipy.special's loggamma (real), rgamma, gammasgn and poch.
//
// Sources: rgamma is 1/Gamma through the recurrence DLMF 5.5.1 and the
// reflection DLMF 5.5.3 written as 1/Gamma(x) = -x sin(pi x) Gamma(-x) / pi
// (-x is exact, so no rounding of 1 - x enters the large gamma), with
// sinpi exact at the poles, after the case split of Cephes `gamma.c`
// (rgamma); poch is Cephes `poch.c`'s algorithm (recurrence DLMF 5.5.1 to
// |m| < 1, the large-a expansion of DLMF 5.11.13 for a > 1e4, the
// log-gamma ratio otherwise); gammasgn follows DLMF 5.2.1 / 5.5.3 (the
// sign alternates between the poles).
#pragma once

#include "cuprum/special/common.cuh"
#include "cuprum/special/cgamma.cuh"
#include "cuprum/special/gamma.cuh"

namespace cuprum {
namespace special {

// log(Gamma(x)) for real x (SciPy's real loggamma): NaN for x < 0, inf at
// +-0 and inf, NaN at -inf and NaN.
__device__ __forceinline__ double loggamma(double x) {
  if (x < 0.0) return detail::nan();
  if (x == 0.0) return detail::inf();
  return ::lgamma(x);
}
__device__ __forceinline__ float loggamma(float x) { return (float)loggamma((double)x); }

// The sign of Gamma(x): +-1 at +-0, NaN at the negative integers, -inf
// and NaN; (-1)^ceil(-x) between the poles (DLMF 5.5.3).
__device__ __forceinline__ double gammasgn(double x) {
  if (detail::is_nan(x)) return x;
  if (x > 0.0) return 1.0;
  if (x == 0.0) return ::copysign(1.0, x);
  double fx = ::floor(x);
  if (x == fx) return detail::nan();  // also -inf
  return ::fmod(fx, 2.0) != 0.0 ? -1.0 : 1.0;
}
__device__ __forceinline__ float gammasgn(float x) { return (float)gammasgn((double)x); }

namespace detail {

// 1/Gamma(x) for x > 171 (Gamma overflows): 1/Gamma(x - n) divided by
// (x - n) ... (x - 1) (DLMF 5.5.1), each x - n + j exact; 0 past ~178.
__device__ __noinline__ double rgamma_large(double x) {
  if (x > 190.0) return 0.0;
  double y = x;
  int n = 0;
  while (y > 170.0 && n < 24) {
    y -= 1.0;
    ++n;
  }
  double r = 1.0 / ::tgamma(y);
  for (int j = 0; j < n; ++j) r /= (y + j);
  return r;
}

// -x sin(pi x) Gamma(-x) / pi for x < -170 (Gamma(-x) overflows): with
// Gamma(-x) = Gamma(y - n) (y - n) ... (y - 1), y = -x.
__device__ __noinline__ double rgamma_negative_large(double x, double s) {
  double y = -x;
  int n = 0;
  while (y > 170.0 && n < 24) {
    y -= 1.0;
    ++n;
  }
  double r = s * ::tgamma(y);
  for (int j = 0; j < n; ++j) r *= (y + j);
  return r;
}

}  // namespace detail

// 1/Gamma(x): 0 at the non-positive integers (+-0 at +-0), 0 at +-inf,
// underflowing to 0 for large x, without overflow of Gamma.
__device__ inline double rgamma(double x) {
  if (detail::is_nan(x)) return x;
  if (x == 0.0) return x;
  if (x > 0.0) {
    if (x < 1e-9) return ::fma(0.5772156649015329 * x, x, x);  // DLMF 5.7.1
    if (x > 171.0) return detail::rgamma_large(x);
    return 1.0 / ::tgamma(x);
  }
  // SciPy (Cephes) divides by x first: -0 where 1/x overflows.
  if (x > -1e-9) {
    if (detail::is_inf(1.0 / x)) return -0.0;
    return ::fma(0.5772156649015329 * x, x, x);
  }
  if (x == ::floor(x)) return 0.0;  // poles, and -inf
  double s = (-x * ::sinpi(x)) / detail::PI;
  if (x < -170.0) return detail::rgamma_negative_large(x, s);
  return s * ::tgamma(-x);
}
__device__ __forceinline__ float rgamma(float x) { return (float)rgamma((double)x); }

namespace detail {

// SciPy's (Cephes') test for a pole of Gamma in poch.
__device__ __forceinline__ bool poch_pole(double x) {
  return x <= 0.0 && x == ::ceil(x) && ::fabs(x) < 1e13;
}

// log|Gamma(x)| as Cephes' lgam, which poch's edges follow: its recurrence
// divides by x, so it is inf where 1/x overflows (|x| < 1/DBL_MAX).
__device__ __forceinline__ double poch_lgam(double x) {
  if (x != 0.0 && ::fabs(x) < 5.562684646268003e-309) return inf();
  return gammaln(x);
}

}  // namespace detail

// The Pochhammer symbol (z)_m = Gamma(z + m) / Gamma(z) (Cephes poch.c):
// the recurrence takes |m| below 1 (at most 4096 steps: past them the
// product has over- or underflowed for any finite m below 2^53, and for
// larger m its constant factor's powers go to inf or 0), then the
// expansion DLMF 5.11.13 for z > 1e4, else the log-gamma ratio with the
// signs; SciPy's values at the poles and the edges.
__device__ inline double poch(double a, double m) {
  double r = 1.0;
  int it = 0;
  while (m >= 1.0 && it < 4096) {
    if (a + m == 1.0) break;
    m -= 1.0;
    r *= (a + m);
    ++it;
    if (detail::is_nan(r) || detail::is_inf(r) || r == 0.0) break;
  }
  while (m <= -1.0 && it < 4096) {
    if (a + m == 0.0) break;
    r /= (a + m);
    m += 1.0;
    ++it;
    if (detail::is_nan(r) || detail::is_inf(r) || r == 0.0) break;
  }
  if (it == 4096 && !detail::is_inf(r) && !detail::is_nan(r) && r != 0.0) r *= ::fabs(r) > 1.0 ? detail::inf() : 0.0;
  if (m == 0.0) return r;
  if (a > 1e4 && ::fabs(m) <= 1.0) {
    double t = m * (m - 1.0) / (2.0 * a) +
               m * (m - 1.0) * (m - 2.0) * (3.0 * m - 1.0) / (24.0 * a * a) +
               m * m * (m - 1.0) * (m - 1.0) * (m - 2.0) * (m - 3.0) / (48.0 * a * a * a);
    return r * ::pow(a, m) * (1.0 + t);
  }
  if (detail::poch_pole(a + m) && !detail::poch_pole(a) && a + m != m) return detail::inf();
  if (!detail::poch_pole(a + m) && detail::poch_pole(a)) return 0.0;
  return r * ::exp(detail::poch_lgam(a + m) - detail::poch_lgam(a)) * gammasgn(a + m) * gammasgn(a);
}
__device__ __forceinline__ float poch(float a, float m) {
  return (float)poch((double)a, (double)m);
}

}  // namespace special
}  // namespace cuprum
