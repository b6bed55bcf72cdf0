// Bessel functions of scipy.special: j0, j1, y0, y1 (first and second
// kind, orders 0 and 1) and i0, i1 (modified, first kind).
//
// Sources: CUDA's libdevice j0/j1/y0/y1 and cyl_bessel_i0/i1 (rational
// and asymptotic approximations after Hart et al., "Computer
// Approximations"), with SciPy's special values: y0, y1 are -inf at 0
// and NaN below; i0, i1 are NaN at +-inf. Beyond |x| of about 25-40 CUDA's
// j0/j1/y0/y1 lose absolute accuracy, so |x| >= 25 takes Hankel's
// asymptotic expansion (DLMF 10.17.3) with an exactly reduced phase.
#pragma once

#include "cuprum/special/common.cuh"
#include "cuprum/special/bessel_real.cuh"

namespace cuprum {
namespace special {

namespace detail {

// Hankel's asymptotic expansion for |x| >= 25 (DLMF 10.17.3, 10.17.4):
//   J_nu(x) = sqrt(2/(pi x)) (P cos w - Q sin w),
//   Y_nu(x) = sqrt(2/(pi x)) (P sin w + Q cos w),   w = x - nu pi/2 - pi/4,
// P = sum (-1)^k a_2k(nu)/x^2k, Q = sum (-1)^k a_2k+1(nu)/x^2k+1 with
// a_k(nu) = a_k-1(nu) (4 nu^2 - (2k-1)^2) / (8k). At x >= 25 the terms fall
// below 1e-17 of the sum well before they start to grow (k ~ 2x). The phase
// is formed from sincos(x), reduced exactly by CUDA, and the exact values
// of cos, sin at nu pi/2 + pi/4, so no rounding of x - pi/4 enters.
__device__ __forceinline__ void hankel_pq(double nu, double x, double& p, double& q) {
  // A fixed 26 terms, unrolled: for the constant orders 0 and 1 the
  // factors (mu - m^2) / 8k fold to constants, the only division is 1/x,
  // and no lane waits on another's convergence. At x >= 25 the terms
  // shrink until k ~ 2x, and the 26th is below 1e-17 of the sum.
  const double mu = 4.0 * nu * nu;
  const double rx = 1.0 / x;
  double t = 1.0;
  p = 1.0;
  q = 0.0;
#pragma unroll
  for (int k = 1; k <= 26; ++k) {
    const double m = 2.0 * k - 1.0;
    t *= (mu - m * m) * (rx * (0.125 / k));  // 0.125 / k folds: k is constant
    // k odd goes to Q with sign (-1)^((k-1)/2); k even to P with (-1)^(k/2).
    const int r = k & 3;
    if (r == 1) q += t; else if (r == 2) p -= t; else if (r == 3) q -= t; else p += t;
  }
}

// order 0 or 1 at x >= 25: j and y together.
__device__ __forceinline__ void hankel01(int n, double x, double& j, double& y) {
  double p, q, s, c;
  hankel_pq((double)n, x, p, q);
  ::sincos(x, &s, &c);
  double cw, sw;  // cos w, sin w times sqrt 2
  if (n == 0) { cw = c + s; sw = s - c; }   // w = x - pi/4
  else { cw = s - c; sw = -(s + c); }       // w = x - 3 pi/4
  const double a = ::sqrt(1.0 / (PI * x));   // sqrt(2/(pi x)) / sqrt 2
  j = a * (p * cw - q * sw);
  y = a * (p * sw + q * cw);
}

}  // namespace detail

// SciPy gives NaN at +-inf for all four.
__device__ inline double j0(double x) {
  if (detail::is_inf(x)) return detail::nan();
  const double ax = ::fabs(x);
  if (ax < 25.0) return ::j0(x);
  double j, y;
  detail::hankel01(0, ax, j, y);
  return j;
}
__device__ inline double j1(double x) {
  if (detail::is_inf(x)) return detail::nan();
  const double ax = ::fabs(x);
  if (ax < 25.0) return ::j1(x);
  double j, y;
  detail::hankel01(1, ax, j, y);
  return x < 0.0 ? -j : j;
}

__device__ __forceinline__ double y0(double x) {
  if (x == 0.0) return -detail::inf();
  if (x < 0.0 || detail::is_inf(x)) return detail::nan();
  if (x < 25.0) return ::y0(x);
  double j, y;
  detail::hankel01(0, x, j, y);
  return y;
}

__device__ __forceinline__ double y1(double x) {
  if (x == 0.0) return -detail::inf();
  if (x < 0.0 || detail::is_inf(x)) return detail::nan();
  if (x < 25.0) return ::y1(x);
  double j, y;
  detail::hankel01(1, x, j, y);
  return y;
}

// i0, i1 at +-inf are NaN and i1(-0) is +0, as SciPy's.
__device__ __forceinline__ double i0(double x) {
  if (detail::is_inf(x)) return detail::nan();
  return ::cyl_bessel_i0(x);
}

__device__ __forceinline__ double i1(double x) {
  if (detail::is_inf(x)) return detail::nan();
  if (x == 0.0) return 0.0;
  return ::cyl_bessel_i1(x);
}

namespace detail {

// Asymptotic expansion of the scaled modified Bessel functions (DLMF
// 10.40.1, 10.40.2): sum sg^k a_k(nu) / x^k with a_k as in hankel_pq;
// sg = -1 gives sqrt(2 pi x) e^-x I_nu(x), sg = +1 gives
// sqrt(2x/pi) e^x K_nu(x). Used at x >= 30, where the terms fall below
// 1e-18 of the sum long before they grow and the neglected exponentially
// small part of I is below e^-60.
__device__ __forceinline__ double ik_asym_sum(double nu, double x, double sg) {
  // A fixed 24 terms, unrolled as hankel_pq's (at x >= 30 the 24th is
  // below 1e-18 of the sum).
  const double mu = 4.0 * nu * nu;
  const double rx = sg / x;
  double t = 1.0, s = 1.0;
#pragma unroll
  for (int k = 1; k <= 24; ++k) {
    const double m = 2.0 * k - 1.0;
    t *= (mu - m * m) * (rx * (0.125 / k));
    s += t;
  }
  return s;
}

// e^-|x| I_n(|x|), n = 0, 1, for |x| finite: CUDA's I_0, I_1 (3 and 4
// ulp here, see docs/special-accuracy.md) times e^-|x| below 30, DLMF
// 10.40.1 above. (The power series DLMF 10.25.2 is as accurate but needs
// up to 70 divisions an element: 5x slower than the memory traffic.)
__device__ __forceinline__ double ine_abs(int n, double ax) {
  if (ax < 30.0) return ::exp(-ax) * (n == 0 ? ::cyl_bessel_i0(ax) : ::cyl_bessel_i1(ax));
  return ik_asym_sum((double)n, ax, -1.0) / ::sqrt(2.0 * PI * ax);
}

// K_n(x) scaled by e^x (scaled) or not, n = 0, 1, x > 0 finite: Temme's
// series at x <= 2, Steed's CF2 up to 30 (both in bessel_real.cuh, with
// mu = 0 giving K_0 and K_1 directly), DLMF 10.40.2 beyond.
__device__ inline double kn01(int n, double x, bool scaled) {
  double k0, k1;
  if (x < 1e-100) {
    // DLMF 10.31.2 and 10.30.2 leading terms (e^x = 1 here).
    if (n == 0) return -(::log(x) - 0.69314718055994530942) - 0.57721566490153286061;
    return 1.0 / x;
  }
  if (x >= 30.0) {
    const double k = ik_asym_sum((double)n, x, 1.0) * ::sqrt(PI / (2.0 * x));
    return scaled ? k : br_scale_down(k, x);
  }
  if (x <= 2.0) {
    br_temme_k(0.0, x, k0, k1);
    const double k = n == 0 ? k0 : k1;
    return scaled ? k * ::exp(x) : k;
  }
  br_steed_k(0.0, x, k0, k1);
  const double k = n == 0 ? k0 : k1;
  return scaled ? k : br_scale_down(k, x);
}

// SciPy's special values of k0, k0e, k1, k1e: NaN below 0 and at NaN,
// +inf at +-0, 0 at +inf; true when v holds the answer.
__device__ inline bool k_special(double x, double& v) {
  if (is_nan(x) || x < 0.0) { v = nan(); return true; }
  if (x == 0.0) { v = inf(); return true; }
  if (is_inf(x)) { v = 0.0; return true; }
  return false;
}

}  // namespace detail

// Exponentially scaled I_0, I_1: e^-|x| I_n(x) (i1e odd, i1e(-0) = +0
// as SciPy's). Below |x| = 30 CUDA's I_n times e^-|x|, above DLMF
// 10.40.1. +-inf gives 0 (with i1e's sign).
__device__ inline double i0e(double x) {
  if (detail::is_nan(x)) return x;
  const double ax = ::fabs(x);
  if (detail::is_inf(x)) return 0.0;
  return detail::ine_abs(0, ax);
}

__device__ inline double i1e(double x) {
  if (detail::is_nan(x)) return x;
  if (x == 0.0) return 0.0;
  const double ax = ::fabs(x);
  const double v = detail::is_inf(x) ? 0.0 : detail::ine_abs(1, ax);
  return x < 0.0 ? -v : v;
}

// Modified Bessel functions of the second kind K_0, K_1 and their scaled
// forms e^x K_n(x): N. M. Temme, J. Comput. Phys. 19 (1975) 324 (series,
// x <= 2) and Steed's continued fraction CF2 (Thompson and Barnett,
// Comput. Phys. Commun. 47 (1987) 245), x > 2.
__device__ inline double k0(double x) {
  double v;
  if (detail::k_special(x, v)) return v;
  return detail::kn01(0, x, false);
}
__device__ inline double k0e(double x) {
  double v;
  if (detail::k_special(x, v)) return v;
  return detail::kn01(0, x, true);
}
__device__ inline double k1(double x) {
  double v;
  if (detail::k_special(x, v)) return v;
  return detail::kn01(1, x, false);
}
__device__ inline double k1e(double x) {
  double v;
  if (detail::k_special(x, v)) return v;
  return detail::kn01(1, x, true);
}

CUPRUM_SPECIAL_F1(i0e)
CUPRUM_SPECIAL_F1(i1e)
CUPRUM_SPECIAL_F1(k0)
CUPRUM_SPECIAL_F1(k0e)
CUPRUM_SPECIAL_F1(k1)
CUPRUM_SPECIAL_F1(k1e)

CUPRUM_SPECIAL_F1(j0)
CUPRUM_SPECIAL_F1(j1)
CUPRUM_SPECIAL_F1(y0)
CUPRUM_SPECIAL_F1(y1)
CUPRUM_SPECIAL_F1(i0)
CUPRUM_SPECIAL_F1(i1)

}  // namespace special
}  // namespace cuprum
