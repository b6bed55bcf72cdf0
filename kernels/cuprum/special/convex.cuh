// The convex-analysis and information-theory functions of scipy.special:
// entr, rel_entr, kl_div, huber, pseudo_huber; with the logistic pair
// expit and logit.
//
// Definitions are SciPy's (Boyd and Vandenberghe, "Convex Optimization",
// for the entropy family; Huber 1964; Charbonnier et al. 1997 for the
// pseudo-Huber loss), written so that no case cancels: pseudo_huber uses
// sqrt(1 + v^2) - 1 = v^2 / (sqrt(1 + v^2) + 1).
#pragma once

#include "cuprum/special/common.cuh"

namespace cuprum {
namespace special {
namespace detail {

// log(x / y) for x, y > 0: through log1p where x / y is near 1 (x - y is
// then exact), through the difference of logs where x / y would under-
// or overflow.
__device__ __forceinline__ double log_ratio(double x, double y) {
  double d = x - y;
  if (::fabs(d) < 0.5 * y) return ::log1p(d / y);
  double r = x / y;
  if (r == 0.0 || is_inf(r) || r < 2.2250738585072014e-308) return ::log(x) - ::log(y);
  return ::log(r);
}

}  // namespace detail

// -x log x; 0 at 0, -inf for x < 0.
__device__ __forceinline__ double entr(double x) {
  if (detail::is_nan(x)) return x;
  if (x > 0.0) return -x * ::log(x);
  if (x == 0.0) return 0.0;
  return -detail::inf();
}

// x log(x / y); 0 where x = 0 <= y, inf elsewhere outside x, y > 0.
__device__ __forceinline__ double rel_entr(double x, double y) {
  if (detail::is_nan(x) || detail::is_nan(y)) return detail::nan();
  if (x > 0.0 && y > 0.0) return x * detail::log_ratio(x, y);
  if (x == 0.0 && y >= 0.0) return 0.0;
  return detail::inf();
}

// x log(x / y) - x + y; y where x = 0 <= y, inf elsewhere outside x, y > 0.
__device__ __forceinline__ double kl_div(double x, double y) {
  if (detail::is_nan(x) || detail::is_nan(y)) return detail::nan();
  if (x > 0.0 && y > 0.0) return x * detail::log_ratio(x, y) - x + y;
  if (x == 0.0 && y >= 0.0) return y;
  return detail::inf();
}

// r^2 / 2 for |r| <= delta, delta (|r| - delta / 2) beyond; inf for delta < 0.
__device__ __forceinline__ double huber(double delta, double r) {
  if (delta < 0.0) return detail::inf();
  if (::fabs(r) <= delta) return 0.5 * r * r;
  return delta * (::fabs(r) - 0.5 * delta);
}

// delta^2 (sqrt(1 + (r / delta)^2) - 1); 0 where delta or r is 0, inf for
// delta < 0.
__device__ __forceinline__ double pseudo_huber(double delta, double r) {
  if (delta < 0.0) return detail::inf();
  if (delta == 0.0 || r == 0.0) return 0.0;
  // SciPy's delta^2 (sqrt(1 + (r / delta)^2) - 1) at an infinite r: inf,
  // or NaN where delta^2 underflows to 0 (0 * inf) or delta is inf or NaN.
  if (detail::is_inf(r)) {
    double d2 = delta * delta;
    return (d2 == 0.0 || detail::is_inf(delta) || detail::is_nan(delta)) ? detail::nan() : detail::inf();
  }
  double v = r / delta;
  double v2 = v * v;
  if (detail::is_inf(v2)) return delta * ::fabs(r) - delta * delta;
  return delta * delta * (v2 / (::sqrt(1.0 + v2) + 1.0));
}

// 1 / (1 + e^-x), without overflow for large |x|.
__device__ __forceinline__ double expit(double x) {
  if (x >= 0.0) return 1.0 / (1.0 + ::exp(-x));
  double e = ::exp(x);
  return e / (1.0 + e);
}

// log(p / (1 - p)); -inf at 0, inf at 1, NaN outside [0, 1]. Each range
// keeps its operations exact: 1 - p for p >= 1/2, 2p - 1 near 1/2.
__device__ __forceinline__ double logit(double p) {
  if (!(p >= 0.0 && p <= 1.0)) return detail::nan();
  if (p < 0.25) return ::log(p / (1.0 - p));
  if (p <= 0.75) return ::log1p((2.0 * p - 1.0) / (1.0 - p));
  return ::log(p) - ::log(1.0 - p);
}

CUPRUM_SPECIAL_F1(entr)
CUPRUM_SPECIAL_F2(rel_entr)
CUPRUM_SPECIAL_F2(kl_div)
CUPRUM_SPECIAL_F2(huber)
CUPRUM_SPECIAL_F2(pseudo_huber)
// float32 expit in float (within a few ulp), so that a fused expression
// over it stays at the memory limit.
__device__ __forceinline__ float expit(float x) {
  float e = ::expf(-::fabsf(x));
  return x >= 0.0f ? 1.0f / (1.0f + e) : e / (1.0f + e);
}
CUPRUM_SPECIAL_F1(logit)

}  // namespace special
}  // namespace cuprum
