// Bessel functions of scipy.special of integer order: j0, j1, y0, y1
// (first and second kind, orders 0 and 1), i0, i1 (modified, first
// kind), i0e, i1e, k0, k0e, k1, k1e, yn (order n) and the spherical
// spherical_jn, spherical_yn and their derivatives spherical_jn_d,
// spherical_yn_d (each function's comment names its sources).
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

// K_1 at 0 < x <= 1 by its power series (DLMF 10.31.1, 10.25.2):
//   K_1(x) = (1/x) (1 - z S(z)) + ln(x/2) I_1(x),  z = x^2/4,
//   S(z) = sum c_k z^k, c_k = (psi(k+1) + psi(k+2)) / (k! (k+1)!),
//   I_1(x) = (x/2) sum z^k / (k! (k+1)!).
// 15 terms each (the 15th is below 1e-24 at z = 1/4); the constants are
// tools/coefficients_bessel.py's. At x <= 1 the terms add without
// cancellation worth an ulp: 1 - z S(z) lies in [1, 1.04] and the log
// term is at most 0.65 of the sum.
__device__ __forceinline__ double k1_series(double x) {
  const double ri[15] = {
      1.0, 0.5, 0.08333333333333333,
      0.006944444444444444, 0.00034722222222222224, 1.1574074074074073e-05,
      2.755731922398589e-07, 4.920949861426052e-09, 6.834652585313961e-11,
      7.594058428126623e-13, 6.903689480115112e-15, 5.230067787965994e-17,
      3.352607556388458e-19, 1.842092063949702e-21, 8.771866971189057e-24,
  };
  const double c[15] = {
      -0.15443132980306573, 0.6727843350984671, 0.18157516696085563,
      0.019182189839330562, 0.001115359491966528, 4.142247689271143e-05,
      1.071545914091181e-06, 2.045286003593878e-08, 3.002048746589188e-10,
      3.495928729692882e-12, 3.309914735250272e-14, 2.5986411321011286e-16,
      1.7195232826992565e-18, 9.721207518823618e-21, 4.750281743327667e-23,
  };
  const double z = 0.25 * x * x;
  double si = ri[14], sc = c[14];
#pragma unroll
  for (int k = 13; k >= 0; --k) {
    si = ::fma(si, z, ri[k]);
    sc = ::fma(sc, z, c[k]);
  }
  const double i1 = 0.5 * x * si;
  const double lead = ::fma(-z, sc, 1.0) / x;
  return ::fma(::log(0.5 * x), i1, lead);
}

// e^x sqrt(x) K_1(x) at x >= 1: its Chebyshev expansion in t = 2/x - 1
// (35 terms to 2e-18; Cephes' construction, S. L. Moshier, "Methods and
// Programs for Mathematical Functions" (1989), here over x >= 1 so that
// the series above is used only where it does not cancel), by Clenshaw's
// recurrence. The coefficients are tools/coefficients_bessel.py's.
__device__ __forceinline__ double k1_cheb(double x) {
  const double a[35] = {
      1.4532756675938414, 0.19051350202061165, -0.008406706460495654,
      0.0008815363164514389, -0.000129995769583983, 2.3441638979785087e-05,
      -4.853489413610226e-06, 1.1139969511197356e-06, -2.772707643805077e-07,
      7.37247184977708e-08, -2.0717892129028323e-08, 6.103966549420336e-09,
      -1.873778917957349e-09, 5.963886884453419e-10, -1.96028004074301e-10,
      6.632273899864202e-11, -2.3034250700407756e-11, 8.193082518369976e-12,
      -2.9786645069974164e-12, 1.1049772078983365e-12, -4.1763277431648047e-13,
      1.6061141914625803e-13, -6.277632672531289e-14, 2.4911830875182032e-14,
      -1.002779686252293e-14, 4.091059996919741e-15, -1.690331071434488e-15,
      7.068360792264328e-16, -2.9895680121763374e-16, 1.2781913900252084e-16,
      -5.521491188037584e-17, 2.4087033253210474e-17, -1.0606842599776098e-17,
      4.712904181351422e-18, -2.112162909518144e-18,
  };
  const double t = 2.0 / x - 1.0;
  const double t2 = 2.0 * t;
  double b1 = 0.0, b2 = 0.0;
#pragma unroll
  for (int j = 34; j >= 1; --j) {
    const double b0 = ::fma(t2, b1, a[j] - b2);
    b2 = b1;
    b1 = b0;
  }
  return ::fma(t, b1, a[0] - b2);
}

// K_1(x) (scaled false) or e^x K_1(x) (scaled true), x > 0 finite.
__device__ inline double k1_pos(double x, bool scaled) {
  if (x <= 1.0) {
    const double k = k1_series(x);
    return scaled ? k * ::exp(x) : k;
  }
  const double g = k1_cheb(x) / ::sqrt(x);
  return scaled ? g : br_scale_down(g, x);
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
// K_1 and e^x K_1: the power series DLMF 10.31.1 at x <= 1, a Chebyshev
// expansion of e^x sqrt(x) K_1(x) in 2/x - 1 beyond (k1_series, k1_cheb:
// Steed's CF2 for K_1 lost up to 8 ulp between x = 1.8 and 16).
__device__ inline double k1(double x) {
  double v;
  if (detail::k_special(x, v)) return v;
  return detail::k1_pos(x, false);
}
__device__ inline double k1e(double x) {
  double v;
  if (detail::k_special(x, v)) return v;
  return detail::k1_pos(x, true);
}

// ---------------------------------------------------------------------
// yn: Y_n(x) of integer order. SciPy (Cephes yn.c) passes n on as a C
// int: an int64 n wraps to 32 bits, a double n is truncated toward 0
// (NaN gives NaN, beyond the int range the C conversion's INT_MIN).
// Y_{-n} = (-1)^n Y_n (DLMF 10.4.1); x = 0 is -inf times that sign, x < 0
// and x = inf NaN. Forward recurrence Y_{k+1} = (2k/x) Y_k - Y_{k-1}
// (DLMF 10.6.1) from y0, y1, stable for Y in both the oscillating and
// the growing range, stopped at overflow (-inf as SciPy's); at x >= 25
// with n^2 <= 2x Hankel's expansion (DLMF 10.17.4) instead, with the
// phase x - n pi/2 - pi/4 reduced exactly (n mod 4 quarter turns).

namespace detail {

constexpr int YN_MAX_STEPS = 50000;

// Y_n(x) for 2 <= n, x >= 25, n^2 <= 2x.
__device__ __forceinline__ double yn_hankel(long long n, double x) {
  double p, q, s, c;
  hankel_pq((double)n, x, p, q);
  ::sincos(x, &s, &c);
  // cos and sin of x - pi/4, times sqrt 2, turned back n mod 4 quarters.
  const double c0 = c + s, s0 = s - c;
  double cw, sw;
  switch ((int)(n & 3)) {
    case 0: cw = c0; sw = s0; break;
    case 1: cw = s0; sw = -c0; break;
    case 2: cw = -c0; sw = -s0; break;
    default: cw = -s0; sw = c0; break;
  }
  return ::sqrt(1.0 / (PI * x)) * (p * sw + q * cw);
}

// Beyond YN_MAX_STEPS steps of the recurrence without overflow (orders
// past 50000 at x of the same size): the real-order yv.
__device__ __noinline__ double yn_far(long long n, double x) {
  return ::cuprum::special::yv((double)n, x);
}

__device__ inline double yn_int(int m, double x) {
  if (is_nan(x)) return x;
  double sign = 1.0;
  long long n = m;
  if (n < 0) {
    n = -n;
    if (n & 1) sign = -1.0;
  }
  if (n == 0) return sign * ::cuprum::special::y0(x);
  if (n == 1) return sign * ::cuprum::special::y1(x);
  if (x == 0.0) return -sign * inf();
  if (x < 0.0 || is_inf(x)) return nan();
  const double dn = (double)n;
  if (x >= 25.0 && dn * dn <= 2.0 * x) return sign * yn_hankel(n, x);
  if (n > YN_MAX_STEPS + 1 && x > 0.5 * dn) return sign * yn_far(n, x);
  double a0 = ::cuprum::special::y0(x), a1 = ::cuprum::special::y1(x);
  double r = 2.0;
  for (int k = 1; k < YN_MAX_STEPS + 1 && (long long)k < n; ++k) {
    const double a2 = (r * a1) / x - a0;
    a0 = a1;
    a1 = a2;
    r += 2.0;
    if (is_inf(a2)) break;
  }
  return sign * a1;
}

}  // namespace detail

__device__ inline double yn(long long n, double x) {
  return detail::yn_int((int)(unsigned int)(unsigned long long)n, x);
}
__device__ inline double yn(double n, double x) {
  if (detail::is_nan(n)) return n;
  const int m = ::fabs(n) < 2147483648.0 ? (int)::trunc(n) : (int)(-2147483647 - 1);
  return detail::yn_int(m, x);
}
__device__ __forceinline__ float yn(long long n, float x) { return (float)yn(n, (double)x); }
CUPRUM_SPECIAL_F2(yn)

// ---------------------------------------------------------------------
// Spherical Bessel functions j_n(x), y_n(x) of integer order n >= 0 and
// real x (scipy.special.spherical_jn / spherical_yn with
// derivative=False, SciPy's _spherical_jn / _spherical_yn ufuncs).
// SciPy's values: NaN for n < 0 and at NaN; 0 at +-inf; j_n(0) is 1 for
// n = 0, else 0; y_n(0) is -inf; x < 0 by the parities
// j_n(-x) = (-1)^n j_n(x), y_n(-x) = (-1)^(n+1) y_n(x) (DLMF 10.47.14).
//
// j_n: the power series DLMF 10.53.1 where x^2 <= 2n + 3 (its terms then
// shrink at least twofold from the first); Miller's backward recurrence
// (DLMF 10.51.1, 3.6(vi)) for sqrt(2n + 3) < x <= n, normalised by the
// positive sum sum_k (2k + 1) j_k^2 = 1 (DLMF 10.60.11), the sign taken
// from j_0 or j_1; forward recurrence from j_0 = sin x / x and
// j_1 = (j_0 - cos x)/x (DLMF 10.49.3) for x > n, where it is stable.
// y_n: forward recurrence from y_0 = -cos x / x, y_1 = (y_0 - sin x)/x,
// stable for all x, stopped at overflow (-inf as SciPy's). Both take
// Hankel's terminating expansion DLMF 10.49.2 at x >= 25 where
// (n + 1/2)^2 <= 2x (accurate near the zeros, where the recurrences lose
// digits against the tiny value). Orders past
// 50000 with x of their size take the real-order jv / yv with
// j_n = sqrt(pi/(2x)) J_{n+1/2}(x) (DLMF 10.47.3).

namespace detail {

__device__ __noinline__ double sph_j_far(long long n, double x) {
  return ::sqrt(PI / (2.0 * x)) * ::cuprum::special::jv((double)n + 0.5, x);
}
__device__ __noinline__ double sph_y_far(long long n, double x) {
  return ::sqrt(PI / (2.0 * x)) * ::cuprum::special::yv((double)n + 0.5, x);
}

// j_n(x) (want_j) or y_n(x), x >= 25, (n + 1/2)^2 <= 2x: Hankel's
// expansion at order n + 1/2, which terminates after k = n (DLMF 10.49.2:
// x j_n = P cos w - Q sin w, x y_n = P sin w + Q cos w, w = x - (n+1) pi/2,
// reduced exactly as n + 1 mod 4 quarter turns of sincos(x)). Beyond
// n = 25 the 26 terms of hankel_pq leave less than 1/26! of the sum.
__device__ __forceinline__ double sph_hankel(long long n, double x, bool want_j) {
  double p, q, s, c;
  hankel_pq((double)n + 0.5, x, p, q);
  ::sincos(x, &s, &c);
  double cw, sw;
  switch ((int)((n + 1) & 3)) {
    case 0: cw = c; sw = s; break;
    case 1: cw = s; sw = -c; break;
    case 2: cw = -c; sw = -s; break;
    default: cw = -s; sw = c; break;
  }
  return (want_j ? p * cw - q * sw : p * sw + q * cw) / x;
}

// j_n(x), n >= 1, 0 < x <= sqrt(2n + 3): x^n/(2n+1)!! sum_k (-x^2/2)^k /
// (k! (2n+3)(2n+5)...(2n+2k+1)).
__device__ inline double sph_j_series(long long n, double x) {
  double lead = 1.0;
  for (long long k = 1; k <= n && k <= YN_MAX_STEPS; ++k) {
    lead *= x / (2.0 * k + 1.0);
    if (lead == 0.0) return 0.0;
  }
  const double z = -0.5 * x * x, dn = (double)n;
  double t = 1.0, s = 1.0;
  for (int k = 1; k <= 30; ++k) {
    t *= z / (k * (2.0 * (dn + k) + 1.0));
    s += t;
    if (::fabs(t) < 1e-17 * ::fabs(s)) break;
  }
  return lead * s;
}

// j_n(x), n >= 2, sqrt(2n + 3) < x <= n: Miller's algorithm from
// N = n + 16 + sqrt(40 n) (NR's choice for J_n, "Numerical Recipes",
// 6.5), rescaled against overflow.
__device__ inline double sph_j_miller(long long n, double x) {
  const long long top = n + 16 + (long long)::sqrt(40.0 * (double)n);
  double f1 = 0.0, f0 = 1.0;  // f_{k+1}, f_k: j_k grows downward from N
  double sum = 0.0, fn = 0.0;
  for (long long k = top; k >= 1; --k) {
    // f_{k-1} = (2k + 1)/x f_k - f_{k+1}
    sum += (2.0 * k + 1.0) * f0 * f0;
    if (k == n) fn = f0;
    const double fm = ((2.0 * k + 1.0) / x) * f0 - f1;
    f1 = f0;
    f0 = fm;
    if (::fabs(f0) > 1e100) {  // the sum of squares stays below 1e210
      f0 *= 1e-100;
      f1 *= 1e-100;
      fn *= 1e-100;
      sum *= 1e-200;
    }
  }
  sum += f0 * f0;  // k = 0; f0 ~ j_0, f1 ~ j_1
  const double j0 = ::sin(x) / x;
  const double j1 = (j0 - ::cos(x)) / x;
  const bool use0 = ::fabs(j0) >= ::fabs(j1);
  const double ref = use0 ? j0 : j1, f = use0 ? f0 : f1;
  const double v = fn / ::sqrt(sum);
  return (ref < 0.0) != (f < 0.0) ? -v : v;
}

__device__ inline double sph_jn_int(long long n, double x) {
  if (is_nan(x)) return x;
  if (n < 0) return nan();
  double sign = 1.0;
  if (x < 0.0) {
    x = -x;
    if (n & 1) sign = -1.0;
  }
  if (is_inf(x)) return sign * 0.0;
  if (x == 0.0) return n == 0 ? 1.0 : 0.0;
  const double dn = (double)n;
  if (x >= 25.0 && (dn + 0.5) * (dn + 0.5) <= 2.0 * x) return sign * sph_hankel(n, x, true);
  const double s = ::sin(x), c = ::cos(x);
  double a0 = s / x;
  if (n == 0) return sign * a0;
  if (x * x <= 2.0 * dn + 3.0) {
    if (n > YN_MAX_STEPS) return sign * sph_j_far(n, x);
    return sign * sph_j_series(n, x);
  }
  if (x <= dn) {
    if (n > YN_MAX_STEPS) return sign * sph_j_far(n, x);
    return sign * sph_j_miller(n, x);
  }
  double a1 = (a0 - c) / x;
  if (n > YN_MAX_STEPS) return sign * sph_j_far(n, x);
  for (long long k = 1; k < n; ++k) {
    const double a2 = ((2.0 * k + 1.0) / x) * a1 - a0;
    a0 = a1;
    a1 = a2;
  }
  return sign * a1;
}

__device__ inline double sph_yn_int(long long n, double x) {
  if (is_nan(x)) return x;
  if (n < 0) return nan();
  double sign = 1.0;
  if (x < 0.0) {
    x = -x;
    if (!(n & 1)) sign = -1.0;
  }
  if (is_inf(x)) return sign * 0.0;
  if (x == 0.0) return -inf();
  const double dn = (double)n;
  if (x >= 25.0 && (dn + 0.5) * (dn + 0.5) <= 2.0 * x) return sign * sph_hankel(n, x, false);
  const double s = ::sin(x), c = ::cos(x);
  double a0 = -c / x;
  if (n == 0) return sign * a0;
  double a1 = (a0 - s) / x;
  if (n > YN_MAX_STEPS && x > 0.5 * dn) return sign * sph_y_far(n, x);
  for (long long k = 1; k < n && k <= YN_MAX_STEPS; ++k) {
    const double a2 = ((2.0 * k + 1.0) / x) * a1 - a0;
    a0 = a1;
    a1 = a2;
    if (is_inf(a2)) break;
  }
  return sign * a1;
}

}  // namespace detail

__device__ inline double spherical_jn(long long n, double x) { return detail::sph_jn_int(n, x); }
__device__ inline double spherical_yn(long long n, double x) { return detail::sph_yn_int(n, x); }
__device__ __forceinline__ float spherical_jn(long long n, float x) {
  return (float)spherical_jn(n, (double)x);
}
__device__ __forceinline__ float spherical_yn(long long n, float x) {
  return (float)spherical_yn(n, (double)x);
}

// Derivatives, as SciPy's _spherical_jn_d / _spherical_yn_d with its
// Python wrapper's reflection for x < 0 (spherical_jn(n, x,
// derivative=True)): DLMF 10.51.2, j_n' = j_{n-1} - (n+1)/x j_n and the
// same for y_n (for j_n where x^2 <= 2n + 3 the differentiated series); j_0' = -j_1, y_0' = -y_1; j_n'(0) is 1/3 for n = 1, else
// 0 (also for n < 0, where SciPy's is 0 at 0 and NaN elsewhere); at
// x < 0, j_n'(x) = (-1)^(n+1) j_n'(-x) and y_n'(x) = (-1)^n y_n'(-x).
namespace detail {

// j_n'(x), 1 <= n <= YN_MAX_STEPS, 0 < x <= sqrt(2n + 3): the series of
// sph_j_series differentiated term by term, x^(n-1)/(2n+1)!! sum_k (n + 2k)
// (-x^2/2)^k / (k! (2n+3)...(2n+2k+1)) (at tiny x DLMF 10.51.2 would
// divide a denormal j_n by x).
__device__ inline double sph_j_series_d(long long n, double x) {
  double lead = 1.0 / 3.0;
  for (long long k = 2; k <= n; ++k) {
    lead *= x / (2.0 * k + 1.0);
    if (lead == 0.0) return 0.0;
  }
  const double z = -0.5 * x * x, dn = (double)n;
  double t = 1.0, s = dn;
  for (int k = 1; k <= 30; ++k) {
    t *= z / (k * (2.0 * (dn + k) + 1.0));
    const double u = (dn + 2.0 * k) * t;
    s += u;
    if (::fabs(u) < 1e-17 * ::fabs(s)) break;
  }
  return lead * s;
}

__device__ inline double sph_jn_d_pos(long long n, double x) {
  if (n < 0) return x == 0.0 ? 0.0 : nan();
  if (n == 0) return -sph_jn_int(1, x);
  if (x == 0.0) return n == 1 ? 1.0 / 3.0 : 0.0;
  if (n <= YN_MAX_STEPS && x * x <= 2.0 * (double)n + 3.0) return sph_j_series_d(n, x);
  return sph_jn_int(n - 1, x) - (double)(n + 1) * sph_jn_int(n, x) / x;
}

__device__ inline double sph_yn_d_pos(long long n, double x) {
  if (n < 0) return nan();
  if (n == 0) return -sph_yn_int(1, x);
  return sph_yn_int(n - 1, x) - (double)(n + 1) * sph_yn_int(n, x) / x;
}

}  // namespace detail

__device__ inline double spherical_jn_d(long long n, double x) {
  if (detail::is_nan(x)) return x;
  if (x < 0.0) {
    const double v = detail::sph_jn_d_pos(n, -x);
    return (n & 1) ? v : -v;
  }
  return detail::sph_jn_d_pos(n, x);
}
__device__ inline double spherical_yn_d(long long n, double x) {
  if (detail::is_nan(x)) return x;
  if (x < 0.0) {
    const double v = detail::sph_yn_d_pos(n, -x);
    return (n & 1) ? -v : v;
  }
  return detail::sph_yn_d_pos(n, x);
}
__device__ __forceinline__ float spherical_jn_d(long long n, float x) {
  return (float)spherical_jn_d(n, (double)x);
}
__device__ __forceinline__ float spherical_yn_d(long long n, float x) {
  return (float)spherical_yn_d(n, (double)x);
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
