// Bessel functions of scipy.special of integer order: j0, j1, y0, y1
// (first and second kind, orders 0 and 1), i0, i1 (modified, first
// kind), i0e, i1e, k0, k0e, k1, k1e, yn (order n) and the spherical
// spherical_jn, spherical_yn and their derivatives spherical_jn_d,
// spherical_yn_d, also of complex argument (each function's comment names
// its sources).
//
// Sources: CUDA's libdevice j0/j1/y0/y1 and cyl_bessel_i0/i1 (rational
// and asymptotic approximations after Hart et al., "Computer
// Approximations"), with SciPy's special values: y0, y1 are -inf at 0
// and NaN below; i0, i1 are NaN at +-inf. Beyond |x| of about 25-40 CUDA's
// j0/j1/y0/y1 lose absolute accuracy, so |x| >= 25 takes Hankel's
// asymptotic expansion (DLMF 10.17.3) with an exactly reduced phase.
#pragma once

#include "cuprum/complex.cuh"
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

// hankel_pq for the orders 0 and 1 as two polynomials in w = 1/x^2, the
// exact coefficients (-1)^k a_2k(n) and (-1)^k a_2k+1(n) rounded once
// (tools/coefficients_bessel.py): 23 fused multiply-adds where the
// term-by-term product takes 26 x 4 operations, and no rounding of the
// running product. To a_22: at x >= 25 the first term left out is below
// 3e-19 of the sum.
// `rx` is 1/x, which the caller reuses for the amplitude.
__device__ __forceinline__ void hankel_pq01(int n, double rx, double& p, double& q) {
  const double cp[2][12] = {
    {
      1.0, -0.0703125, 0.112152099609375,
      -0.5725014209747314, 6.074042001273483, -110.01714026924674,
      3038.090510922384, -118838.42625678325, 6252951.493434797,
      -425939216.5047669, 36468400807.06556, -3833534661393.9443,
    },
    {
      1.0, 0.1171875, -0.144195556640625,
      0.6765925884246826, -6.883914268109947, 121.59789187653587,
      -3302.2722944808525, 127641.2726461746, -6656367.718817688,
      450278600.3050393, -38338575207.427895, 4011838599133.1978,
    },
  };
  const double cq[2][11] = {
    {
      -0.125, 0.0732421875, -0.22710800170898438,
      1.7277275025844574, -24.380529699556064, 551.3358961220206,
      -18257.755474293175, 832859.3040162893, -50069589.531988926,
      3836255180.2304335, -364901081884.98334,
    },
    {
      0.375, -0.1025390625, 0.2775764465332031,
      -1.993531733751297, 27.248827311268542, -603.8440767050702,
      19718.37591223663, -890297.8767070678, 53104110.10968523,
      -4043620325.107754, 382701134659.8606,
    },
  };
  const double w = rx * rx;
  double sp = cp[n][11], sq = cq[n][10];
#pragma unroll
  for (int k = 10; k >= 0; --k) {
    sp = ::fma(sp, w, cp[n][k]);
    sq = ::fma(sq, w, cq[n][k]);
  }
  p = sp;
  q = sq * rx;
}

// order 0 or 1 at x >= 25: j and y together.
__device__ __forceinline__ void hankel01(int n, double x, double& j, double& y) {
  double p, q, s, c;
  const double rx = 1.0 / x;  // the one division
  hankel_pq01(n, rx, p, q);
  ::sincos(x, &s, &c);
  double cw, sw;  // cos w, sin w times sqrt 2
  if (n == 0) { cw = c + s; sw = s - c; }   // w = x - pi/4
  else { cw = s - c; sw = -(s + c); }       // w = x - 3 pi/4
  const double a = ::sqrt(rx * (1.0 / PI));  // sqrt(2/(pi x)) / sqrt 2
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
// 10.40.1, 10.40.2) for n = 0, 1: sum sg^k a_k(n) / x^k with a_k as in
// hankel_pq; sg = -1 gives sqrt(2 pi x) e^-x I_n(x), sg = +1 gives
// sqrt(2x/pi) e^x K_n(x). Used at x >= 30, where the terms fall below
// 1e-18 of the sum long before they grow and the neglected exponentially
// small part of I is below e^-60. A polynomial in r = sg/x with the exact
// a_k(n) rounded once (tools/coefficients_bessel.py), to a_19
// (at x >= 30 the first term left out is below 1.1e-19 of the sum).
__device__ __forceinline__ double ik_asym_sum01(int n, double x, double sg) {
  const double ca[2][20] = {
    {
      1.0, -0.125, 0.0703125,
      -0.0732421875, 0.112152099609375, -0.22710800170898438,
      0.5725014209747314, -1.7277275025844574, 6.074042001273483,
      -24.380529699556064, 110.01714026924674, -551.3358961220206,
      3038.090510922384, -18257.755474293175, 118838.42625678325,
      -832859.3040162893, 6252951.493434797, -50069589.531988926,
      425939216.5047669, -3836255180.2304335,
    },
    {
      1.0, 0.375, -0.1171875,
      0.1025390625, -0.144195556640625, 0.2775764465332031,
      -0.6765925884246826, 1.993531733751297, -6.883914268109947,
      27.248827311268542, -121.59789187653587, 603.8440767050702,
      -3302.2722944808525, 19718.37591223663, -127641.2726461746,
      890297.8767070678, -6656367.718817688, 53104110.10968523,
      -450278600.3050393, 4043620325.107754,
    },
  };
  const double r = sg / x;
  double s = ca[n][19];
#pragma unroll
  for (int k = 18; k >= 0; --k) s = ::fma(s, r, ca[n][k]);
  return s;
}

// e^-|x| I_n(|x|), n = 0, 1, for |x| finite: CUDA's I_0, I_1 (3 and 4
// ulp here, see docs/special-accuracy.md) times e^-|x| below 30, DLMF
// 10.40.1 above. (The power series DLMF 10.25.2 is as accurate but needs
// up to 70 divisions an element: 5x slower than the memory traffic.)
__device__ __forceinline__ double ine_abs(int n, double ax) {
  if (ax < 30.0) return ::exp(-ax) * (n == 0 ? ::cyl_bessel_i0(ax) : ::cyl_bessel_i1(ax));
  return ik_asym_sum01(n, ax, -1.0) / ::sqrt(2.0 * PI * ax);
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
    const double k = ik_asym_sum01(n, x, 1.0) * ::sqrt(PI / (2.0 * x));
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
// Double-double numbers hi + lo (T. J. Dekker, Numer. Math. 18 (1971)
// 224-242) for the spherical Bessel functions near their zeros, real
// and complex (below).

namespace detail {

struct sph_dd {
  double hi, lo;
};

__device__ __forceinline__ sph_dd sph_dd_quick(double a, double b) {
  const double s = a + b;
  return sph_dd{s, b - (s - a)};
}
__device__ __forceinline__ sph_dd sph_dd_add(const sph_dd& a, const sph_dd& b) {
  const double s = a.hi + b.hi;
  const double bb = s - a.hi;
  const double e = (a.hi - (s - bb)) + (b.hi - bb);
  return sph_dd_quick(s, e + a.lo + b.lo);
}
__device__ __forceinline__ sph_dd sph_dd_neg(const sph_dd& a) { return sph_dd{-a.hi, -a.lo}; }
__device__ __forceinline__ sph_dd sph_dd_mul(const sph_dd& a, const sph_dd& b) {
  const double p = __dmul_rn(a.hi, b.hi);
  const double e = ::fma(a.hi, b.hi, -p);
  return sph_dd_quick(p, e + (a.hi * b.lo + a.lo * b.hi));
}
__device__ __forceinline__ sph_dd sph_dd_muld(const sph_dd& a, double b) {
  const double p = __dmul_rn(a.hi, b);
  const double e = ::fma(a.hi, b, -p);
  return sph_dd_quick(p, e + a.lo * b);
}
// a / b: two steps of long division.
__device__ __forceinline__ sph_dd sph_dd_div(const sph_dd& a, const sph_dd& b) {
  const double q1 = a.hi / b.hi;
  const sph_dd r = sph_dd_add(a, sph_dd_neg(sph_dd_muld(b, q1)));
  const double q2 = r.hi / b.hi;
  return sph_dd_quick(q1, q2);
}
__device__ __forceinline__ sph_dd sph_dd_divd(const sph_dd& a, double b) {
  return sph_dd_div(a, sph_dd{b, 0.0});
}

// sin and cos of x, |x| <= 2^19, in double-double: x - k pi/2 with pi/2
// in three 33-bit parts (k pi/2 exact part by part for k < 2^20), then
// the Taylor series on |r| <= pi/4 (r^2 <= 0.62) to 1e-32 by Horner's
// rule in r^2: sin r = r sum_k (-1)^k r^2k/(2k+1)!, cos r = sum_k (-1)^k
// r^2k/(2k)!, the coefficients 1/m! as hi + lo pairs; the terms below
// 2^-53 (k >= 8 for sin, k >= 9 for cos) in double.
__device__ inline void sph_dd_sincos(double x, sph_dd& s, sph_dd& c) {
  const double P1 = 1.57079632673412561417e+00;   // pi/2: first 33 bits
  const double P2 = 6.07710050630396597660e-11;   // next 33 bits
  const double P3 = 2.02226624871116645580e-21;   // next 33 bits
  const double P3T = 8.47842766036889956997e-32;  // pi/2 - P1 - P2 - P3
  const double k = ::rint(x * 0.63661977236758134308);
  const double r0 = x - k * P1;  // exact
  const double m2 = k * P2;      // exact
  const double a = r0 - m2;
  const double bb = a - r0;
  sph_dd r = sph_dd_quick(a, (r0 - (a - bb)) + (-m2 - bb));
  r = sph_dd_add(r, sph_dd{-k * P3, -k * P3T});
  const sph_dd r2 = sph_dd_mul(r, r);
  const double z = r2.hi;
  double ts = -9.183689863795546e-29;
  ts = ts * z + 6.446950284384474e-26;
  ts = ts * z - 3.868170170630684e-23;
  ts = ts * z + 1.9572941063391263e-20;
  ts = ts * z - 8.22063524662433e-18;
  ts = ts * z + 2.8114572543455206e-15;
  double tc = -2.4795962632247976e-27;
  tc = tc * z + 1.6117375710961184e-24;
  tc = tc * z - 8.896791392450574e-22;
  tc = tc * z + 4.110317623312165e-19;
  tc = tc * z - 1.5619206968586225e-16;
  sph_dd ps{ts, 0.0}, pc{tc, 0.0};
  ps = sph_dd_add(sph_dd_mul(ps, r2), sph_dd{-7.647163731819816e-13, -7.03872877733453e-30});
  ps = sph_dd_add(sph_dd_mul(ps, r2), sph_dd{1.6059043836821613e-10, 1.2585294588752098e-26});
  ps = sph_dd_add(sph_dd_mul(ps, r2), sph_dd{-2.505210838544172e-08, 1.448814070935912e-24});
  ps = sph_dd_add(sph_dd_mul(ps, r2), sph_dd{2.7557319223985893e-06, -1.858393274046472e-22});
  ps = sph_dd_add(sph_dd_mul(ps, r2), sph_dd{-0.0001984126984126984, -1.7209558293420705e-22});
  ps = sph_dd_add(sph_dd_mul(ps, r2), sph_dd{0.008333333333333333, 1.1564823173178714e-19});
  ps = sph_dd_add(sph_dd_mul(ps, r2), sph_dd{-0.16666666666666666, -9.25185853854297e-18});
  ps = sph_dd_add(sph_dd_mul(ps, r2), sph_dd{1.0, 0.0});
  pc = sph_dd_add(sph_dd_mul(pc, r2), sph_dd{4.779477332387385e-14, 4.399205485834081e-31});
  pc = sph_dd_add(sph_dd_mul(pc, r2), sph_dd{-1.1470745597729725e-11, -2.0655512752830745e-28});
  pc = sph_dd_add(sph_dd_mul(pc, r2), sph_dd{2.08767569878681e-09, -1.20734505911326e-25});
  pc = sph_dd_add(sph_dd_mul(pc, r2), sph_dd{-2.755731922398589e-07, -2.3767714622250297e-23});
  pc = sph_dd_add(sph_dd_mul(pc, r2), sph_dd{2.48015873015873e-05, 2.1511947866775882e-23});
  pc = sph_dd_add(sph_dd_mul(pc, r2), sph_dd{-0.001388888888888889, 5.300543954373577e-20});
  pc = sph_dd_add(sph_dd_mul(pc, r2), sph_dd{0.041666666666666664, 2.3129646346357427e-18});
  pc = sph_dd_add(sph_dd_mul(pc, r2), sph_dd{-0.5, 0.0});
  pc = sph_dd_add(sph_dd_mul(pc, r2), sph_dd{1.0, 0.0});
  s = sph_dd_mul(r, ps);
  c = pc;
  const sph_dd s0 = s, c0 = c;
  switch ((int)((long long)k & 3)) {
    case 0: break;
    case 1: s = c0; c = sph_dd_neg(s0); break;
    case 2: s = sph_dd_neg(s0); c = sph_dd_neg(c0); break;
    default: s = sph_dd_neg(c0); c = s0; break;
  }
}

// The highest order the double-double paths (n steps of the recurrence)
// take, real and complex.
constexpr long long SPH_DD_MAX_ORDER = 1000;
// The real loops redo a value in double-double where it is below this
// fraction of the envelope's floor 1/x (|x h_n(x)| >= 1 for real x, DLMF
// 10.49.6 and 10.49.1: x^2 (j_n^2 + y_n^2) is a sum of positive terms
// with constant term 1), i.e. where the rounding of the double-precision
// evaluation, of the envelope's size, would be amplified past 1/SPH_DD_SMALL.
constexpr double SPH_DD_SMALL = 1.0 / 32.0;

// Whether the real double-double path takes (n, x): 1 <= n <=
// SPH_DD_MAX_ORDER, n <= x <= 2^19 (sph_dd_sincos's range). The real zeros
// of j_n, y_n, j_n' and y_n' (n >= 1) lie beyond x = n (DLMF 10.21(i)).
__device__ __forceinline__ bool sph_dd_real_ok(long long n, double x) {
  return n >= 1 && n <= SPH_DD_MAX_ORDER && (double)n <= x && x <= 524288.0;
}

// f_n(x) (deriv: f_n'(x)), f = j (want_j) or y, where sph_dd_real_ok, all
// in double-double and rounded once: sin x and cos x (sph_dd_sincos), 1/x,
// f_0 and f_1 (DLMF 10.49.3), the forward recurrence f_{k+1} = (2k+1)/x
// f_k - f_{k-1} (DLMF 10.51.1, stable for k < x for both kinds) and
// f_n' = f_{n-1} - (n+1)/x f_n (DLMF 10.51.2).
__device__ __noinline__ double sph_dd_real(long long n, double x, bool want_j, bool deriv) {
  sph_dd s, c;
  sph_dd_sincos(x, s, c);
  const sph_dd inv = sph_dd_div(sph_dd{1.0, 0.0}, sph_dd{x, 0.0});
  sph_dd a0, a1;  // f_{k-1}, f_k
  if (want_j) {
    a0 = sph_dd_mul(s, inv);
    a1 = sph_dd_mul(sph_dd_add(a0, sph_dd_neg(c)), inv);
  } else {
    a0 = sph_dd_neg(sph_dd_mul(c, inv));
    a1 = sph_dd_mul(sph_dd_add(a0, sph_dd_neg(s)), inv);
  }
  for (long long k = 1; k < n; ++k) {
    const sph_dd a2 =
        sph_dd_add(sph_dd_muld(sph_dd_mul(inv, a1), 2.0 * (double)k + 1.0), sph_dd_neg(a0));
    a0 = a1;
    a1 = a2;
  }
  sph_dd v = a1;
  if (deriv) v = sph_dd_add(a0, sph_dd_neg(sph_dd_muld(sph_dd_mul(inv, a1), (double)(n + 1))));
  return v.hi + v.lo;
}

}  // namespace detail

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
// (n + 1/2)^2 <= 2x. Orders past 50000 with x of their size take the
// real-order jv / yv with j_n = sqrt(pi/(2x)) J_{n+1/2}(x) (DLMF 10.47.3).
// Near the real zeros (which lie beyond x = n) the forward recurrence and
// Hankel's expansion both lose the value's relative accuracy: their
// rounding (of sin x and cos x, and of each step or term) is of the
// envelope's size, amplified by the ratio of the envelope to the value
// (7000 ulp at j_39 near 943.2). So where 1 <= n <= 1000 and n <= x <=
// 2^19, a value below SPH_DD_SMALL = 1/32 of the envelope's floor 1/x
// (DLMF 10.49.6: |x h_n(x)| >= 1), or of (|P| + |Q|)/x for Hankel's, is
// redone in double-double arithmetic (Dekker; sph_dd_real: sin and cos,
// 1/x, j_0, j_1 or y_0, y_1 and the forward recurrence), which keeps it
// to a few units; elsewhere the double's error is at most 32 times its
// error against the envelope (a few units for n <= 100, 30 near n =
// 1000). Only about 2% of uniformly spread points take it.

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
// size: (|P| + |Q|)/x, at least the envelope |h_n(x)| = sqrt(P^2 + Q^2)/x.
__device__ __forceinline__ double sph_hankel(long long n, double x, bool want_j, double& size) {
  double p, q, s, c;
  hankel_pq((double)n + 0.5, x, p, q);
  size = (::fabs(p) + ::fabs(q)) / x;
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

// dd: whether a value near a zero is redone in double-double (see
// SPH_DD_SMALL).
__device__ inline double sph_jn_int(long long n, double x, bool dd = true) {
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
  if (x >= 25.0 && (dn + 0.5) * (dn + 0.5) <= 2.0 * x) {
    double size;
    const double v = sph_hankel(n, x, true, size);
    if (dd && ::fabs(v) < SPH_DD_SMALL * size && sph_dd_real_ok(n, x)) {
      return sign * sph_dd_real(n, x, true, false);
    }
    return sign * v;
  }
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
  if (dd && ::fabs(a1) * x < SPH_DD_SMALL && sph_dd_real_ok(n, x)) {
    return sign * sph_dd_real(n, x, true, false);
  }
  return sign * a1;
}

__device__ inline double sph_yn_int(long long n, double x, bool dd = true) {
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
  if (x >= 25.0 && (dn + 0.5) * (dn + 0.5) <= 2.0 * x) {
    double size;
    const double v = sph_hankel(n, x, false, size);
    if (dd && ::fabs(v) < SPH_DD_SMALL * size && sph_dd_real_ok(n, x)) {
      return sign * sph_dd_real(n, x, false, false);
    }
    return sign * v;
  }
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
  if (dd && ::fabs(a1) * x < SPH_DD_SMALL && sph_dd_real_ok(n, x)) {
    return sign * sph_dd_real(n, x, false, false);
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
// same for y_n (for j_n where x^2 <= 2n + 3 the differentiated series);
// j_0' = -j_1, y_0' = -y_1; j_n'(0) is 1/3 for n = 1, else 0 (also for n
// < 0, where SciPy's is 0 at 0 and NaN elsewhere); at x < 0, j_n'(x) =
// (-1)^(n+1) j_n'(-x) and y_n'(x) = (-1)^n y_n'(-x). Where sph_dd_real_ok,
// a value below SPH_DD_SMALL of both 1/x and the sum of DLMF 10.51.2's two
// terms' sizes (near a zero of f_n', and near x = n + 1/2, where the
// terms cancel) is redone in double-double (sph_dd_real), as j_n and y_n.
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

// f_{n-1} - (n+1)/x f_n from f0 = f_{n-1} and f1 = f_n (n >= 1), redone in
// double-double where it is small against both the envelope's floor 1/x
// and the two terms (near a zero, and near x = n + 1/2, where they cancel).
__device__ inline double sph_d_redo(long long n, double x, double f0, double f1, bool want_j) {
  const double t = (double)(n + 1) * f1 / x;
  const double v = f0 - t;
  if (::fabs(v) < SPH_DD_SMALL * ::fmax(1.0 / x, ::fabs(f0) + ::fabs(t)) && sph_dd_real_ok(n, x)) {
    return sph_dd_real(n, x, want_j, true);
  }
  return v;
}

__device__ inline double sph_jn_d_pos(long long n, double x) {
  if (n < 0) return x == 0.0 ? 0.0 : nan();
  if (n == 0) return -sph_jn_int(1, x);
  if (x == 0.0) return n == 1 ? 1.0 / 3.0 : 0.0;
  if (n <= YN_MAX_STEPS && x * x <= 2.0 * (double)n + 3.0) {
    const double v = sph_j_series_d(n, x);
    if (::fabs(v) * x < SPH_DD_SMALL && sph_dd_real_ok(n, x)) return sph_dd_real(n, x, true, true);
    return v;
  }
  return sph_d_redo(n, x, sph_jn_int(n - 1, x, false), sph_jn_int(n, x, false), true);
}

__device__ inline double sph_yn_d_pos(long long n, double x) {
  if (n < 0) return nan();
  if (n == 0) return -sph_yn_int(1, x);
  return sph_d_redo(n, x, sph_yn_int(n - 1, x, false), sph_yn_int(n, x, false), false);
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

// ---------------------------------------------------------------------
// Complex loops of the spherical Bessel functions (SciPy's lD->D, and
// lF->F as the complex128 value rounded once): j_n(z), y_n(z) and their
// derivatives for integer n and complex z, as SciPy's _spherical_jn,
// _spherical_yn, _spherical_jn_d and _spherical_yn_d (SciPy's Python
// wrapper takes complex z straight to the ufunc, without reflection).
//
// Both are single-valued (z^n and z^{-n-1} times even entire functions,
// DLMF 10.49.1-2), so z is taken to w = |Re z| + i |Im z| by j_n(-z) =
// (-1)^n j_n(z), y_n(-z) = (-1)^{n+1} y_n(z) (DLMF 10.47.14) and f(conj
// z) = conj f(z). sin w and cos w are formed scaled by e^{-Im w} (sin(x
// + iy) = sin x cosh y + i cos x sinh y), and the result multiplied by
// e^{Im w} once at the end (Cody and Waite's split of ln 2), so nothing
// overflows on the way for large Im w. 1/w is kept as a double-double
// pair in the recurrences, which multiply by it n times.
//
// Methods, with r = |w|:
// - j_n: the power series DLMF 10.53.1 where r^2 <= 2n + 3 (each term
//   at most half the one before); Hankel's expansion where r >= 25 and
//   (n + 1/2)^2 <= 2r, which terminates at half-integer order (DLMF
//   10.49.1: j_n = (P sin(w - n pi/2) + Q cos(w - n pi/2))/w, P and Q
//   finite sums in 1/w); else the forward recurrence f_{k+1} = (2k+1)/w
//   f_k - f_{k-1} (DLMF 10.51.1) from j_0 = sin w/w, j_1 = (j_0 - cos
//   w)/w (DLMF 10.49.3) where n <= r and n^2 Im w <= r^2/2. In Im w > 0,
//   j_n is the minimal solution beside h1_n = j_n + i y_n (DLMF 10.49.6:
//   |h1_n/j_n| grows with n, as about exp(n^2 Im w/r^2) e^{-2 Im w} while
//   n < r, DLMF 10.20), so elsewhere Miller's backward recurrence (DLMF
//   3.6(vi)), started where the forward test solution p_n = 0, p_{n+1} =
//   1 has grown past 2^57 sqrt(r) e^{Im w} (the estimate of Miller's
//   error by Olver and Gautschi, DLMF 3.6(v); W. Gautschi, SIAM Review 9
//   (1967) 24-82), normalised by j_0 or j_1, whichever is the larger.
// - y_n = i (j_n - h1_n): Hankel's expansion as for j_n (DLMF 10.49.2);
//   else the forward recurrence from y_0 = -cos w/w, y_1 = (y_0 - sin
//   w)/w where j_n's is stable or Im w <= 0.35 (its rounding, mostly of
//   the part i j_n, is amplified by about e^{2 Im w} once the part h1_n
//   takes over); elsewhere i (j_n - h1_n) with j_n as above and h1_n by
//   its own forward recurrence from h1_0 = -i e^{iw}/w, h1_1 = -e^{iw}
//   (w + i)/w^2 (stable: h1_n is the dominant solution).
// - derivatives: DLMF 10.51.2, f_n' = f_{n-1} - (n+1)/z f_n with f_{n-1}
//   and f_n from the same run (their common errors cancel), f_0' = -f_1;
//   for j_n where r^2 <= 2n + 3 the series differentiated term by term.
// - near the real axis (|Im w| <= 1/2, n <= Re w, where the real zeros
//   lie), all of it in double-double arithmetic (Dekker's sums and
//   products, T. J. Dekker, Numer. Math. 18 (1971) 224-242): sin and cos
//   of Re w reduced by pi/2 in three parts, then their Taylor series;
//   cosh and sinh of Im w by theirs; the forward recurrence (stable
//   there for j_n and y_n alike) and DLMF 10.51.2. Near a zero the
//   rounding of sin, cos and of each step in double is amplified by the
//   ratio of the envelope to the value (1e5 a tenth of a unit from a zero
//   of j_11' near 112.5); in double-double the value is correctly
//   rounded but for a few units. Also on the real axis itself.
//
// SciPy's values elsewhere (its wrappers of AMOS's zbesj and zbesy
// times sqrt(pi/(2z))): a NaN part returns z itself (the derivatives: -z
// for n = 0, else NaN + NaN i); n < 0 is NaN + 0i (the derivatives NaN +
// NaN i, and j_n'(0) = 0); Re z = +-inf gives 0 on the real axis and
// inf + inf i off it (the derivatives NaN + NaN i there for n >= 1); a
// finite z with Im z = +-inf NaN + NaN i; j_n(0) = 1 for n = 0 (else 0),
// y_n(0) = NaN + 0i, j_1'(0) = 1/3, y_n'(0) NaN + NaN i. On the real
// axis the real functions with a +0 imaginary part. Where the value
// overflows: y_n is -inf + NaN i on the positive real axis (AMOS's -inf
// times sqrt(pi/(2z))), NaN + NaN i elsewhere; j_n is NaN + NaN i beyond
// |z| = 2^51 (where AMOS gives up), else sqrt(pi/(2z)) times the scaled
// J_{n+1/2}'s signs times inf (SciPy's product, e.g. NaN - inf i at z =
// 1 + 800i); the derivatives are then SciPy's formula evaluated on those
// values as its C++ does (C99 Annex G's division). Beyond |z| = 2^51
// SciPy has NaN throughout; here the values are computed. Orders past
// 50000 (the recurrences' bound) give 0 for j_n and overflow for y_n
// where |z| <= n/4 (certain underflow and overflow), else NaN + NaN i;
// off the real axis Miller's recurrence is bounded by 100000 steps (the
// forward recurrence beyond, for j_n with n <= |z|).

namespace detail {

typedef ::cuprum::complex<double> sph_c;

constexpr double SPH_LOG2E = 1.4426950408889634074;
constexpr double SPH_LN2_HI = 6.93147180369123816490e-01;  // 32 bits: k LN2_HI is exact
constexpr double SPH_LN2_LO = 1.90821492927058770002e-10;
constexpr double SPH_AMOS_LIMIT = 2251799813685248.0;  // 2^51 = 0.5/eps, AMOS's bound on |z|
constexpr long long SPH_MILLER_STEPS = 100000;

__device__ __forceinline__ double sph_max_part(const sph_c& v) {
  return ::fmax(::fabs(v.re), ::fabs(v.im));
}
__device__ __forceinline__ bool sph_finite(const sph_c& v) {
  return ::fabs(v.re) <= 1.7976931348623157e308 && ::fabs(v.im) <= 1.7976931348623157e308;
}
__device__ __forceinline__ sph_c sph_scale2(const sph_c& v, int e) {
  return sph_c(::ldexp(v.re, e), ::ldexp(v.im, e));
}
__device__ __forceinline__ sph_c sph_times_i(const sph_c& v) { return sph_c(-v.im, v.re); }

// v e^t 2^e part by part, without spurious over- or underflow: e^t =
// 2^k e^u, u = t - k ln 2 (Cody and Waite's split of ln 2).
__device__ inline sph_c sph_rescale(const sph_c& v, double t, int e) {
  if (t > 3000.0) {  // beyond any finite nonzero part's reach
    return sph_c(v.re == 0.0 ? v.re : ::copysign(inf(), v.re),
                 v.im == 0.0 ? v.im : ::copysign(inf(), v.im));
  }
  if (t < -3000.0) return sph_c(::copysign(0.0, v.re), ::copysign(0.0, v.im));
  const int k = (int)::floor(t * SPH_LOG2E);
  const double u = (t - k * SPH_LN2_HI) - k * SPH_LN2_LO;
  const double f = ::exp(u);
  return sph_scale2(sph_c(v.re * f, v.im * f), k + e);
}

// log2 of the larger part of v e^t 2^e.
__device__ inline double sph_log2(const sph_c& v, double t, int e) {
  return ::log2(sph_max_part(v)) + t * SPH_LOG2E + e;
}

// e^{-y} sin(x + iy) and e^{-y} cos(x + iy), y >= 0.
__device__ inline void sph_sincos(double x, double y, sph_c& s, sph_c& c) {
  double sx, cx;
  ::sincos(x, &sx, &cx);
  const double ch = 0.5 + 0.5 * ::exp(-2.0 * y);  // e^{-y} cosh y
  const double sh = -0.5 * ::expm1(-2.0 * y);     // e^{-y} sinh y
  s = sph_c(sx * ch, cx * sh);
  c = sph_c(cx * ch, -sx * sh);
}

// Complex double-double numbers.
struct sph_cdd {
  sph_dd re, im;
};
__device__ __forceinline__ sph_cdd sph_cdd_sub(const sph_cdd& a, const sph_cdd& b) {
  return sph_cdd{sph_dd_add(a.re, sph_dd_neg(b.re)), sph_dd_add(a.im, sph_dd_neg(b.im))};
}
__device__ __forceinline__ sph_cdd sph_cdd_mul(const sph_cdd& a, const sph_cdd& b) {
  return sph_cdd{sph_dd_add(sph_dd_mul(a.re, b.re), sph_dd_neg(sph_dd_mul(a.im, b.im))),
                 sph_dd_add(sph_dd_mul(a.re, b.im), sph_dd_mul(a.im, b.re))};
}
__device__ __forceinline__ sph_cdd sph_cdd_muld(const sph_cdd& a, double b) {
  return sph_cdd{sph_dd_muld(a.re, b), sph_dd_muld(a.im, b)};
}

// 1/w as hi + lo, lo the double-double remainder.
struct sph_inv {
  sph_c hi, lo;
};
__device__ inline sph_inv sph_make_inv(const sph_c& w) {
  const double x = w.re, y = w.im;
  const sph_dd m = sph_dd_add(sph_dd_mul(sph_dd{x, 0.0}, sph_dd{x, 0.0}),
                              sph_dd_mul(sph_dd{y, 0.0}, sph_dd{y, 0.0}));
  if (!(m.hi >= 0x1p-900 && m.hi <= 0x1p900)) {  // tiny or huge w: no remainder
    return sph_inv{1.0 / w, sph_c(0.0, 0.0)};
  }
  const sph_dd re = sph_dd_div(sph_dd{x, 0.0}, m), im = sph_dd_div(sph_dd{-y, 0.0}, m);
  return sph_inv{sph_c(re.hi, im.hi), sph_c(re.lo, im.lo)};
}
__device__ __forceinline__ sph_c sph_mul_inv(const sph_inv& v, const sph_c& a) {
  return v.hi * a + v.lo * a;
}

// j_n(w) (deriv: j_n'(w)), 0 <= n <= YN_MAX_STEPS, |w|^2 <= 2n + 3, by
// DLMF 10.53.1: w^n/(2n+1)!! sum_k (-w^2/2)^k / (k! (2n+3)...(2n+2k+1)),
// the derivative w^{n-1}/(2n+1)!! sum_k (n + 2k) (...). Unscaled.
__device__ inline sph_c sph_cj_series(long long n, const sph_c& w, bool deriv) {
  sph_c lead(deriv ? 1.0 / 3.0 : 1.0, 0.0);
  for (long long k = deriv ? 2 : 1; k <= n; ++k) {
    lead = lead * (w / (2.0 * (double)k + 1.0));
    if (lead.re == 0.0 && lead.im == 0.0) return lead;
  }
  const sph_c q = -0.5 * (w * w);
  const double dn = (double)n;
  sph_c t(1.0, 0.0), s(deriv ? dn : 1.0, 0.0);
  for (int k = 1; k <= 40; ++k) {
    t = t * q / ((double)k * (2.0 * (dn + k) + 1.0));
    const sph_c u = deriv ? t * (dn + 2.0 * k) : t;
    s = s + u;
    if (sph_max_part(u) < 1e-17 * sph_max_part(s)) break;
  }
  return lead * s;
}

// e^{-Im w} j_n(w) (want_j) or e^{-Im w} y_n(w) by Hankel's terminating
// expansion (DLMF 10.49.1-2), n <= YN_MAX_STEPS, (n + 1/2)^2 <= 2|w|: P =
// sum (-1)^k a_2k/w^2k, Q = sum (-1)^k a_2k+1/w^2k+1, a_k = a_{k-1} (n+k)
// (n-k+1)/(2k); the terms fall at least as 1/k!.
__device__ inline sph_c sph_c_hankel(long long n, const sph_c& w, const sph_c& s, const sph_c& c,
                                     bool want_j) {
  const sph_c inv = 1.0 / w;
  sph_c p(1.0, 0.0), q(0.0, 0.0), t(1.0, 0.0);
  const double dn = (double)n;
  for (int k = 1; k <= n && k <= 64; ++k) {
    t = (t * inv) * ((dn + k) * (dn - k + 1.0) / (2.0 * k));
    switch (k & 3) {
      case 0: p = p + t; break;
      case 1: q = q + t; break;
      case 2: p = p - t; break;
      default: q = q - t; break;
    }
    if (sph_max_part(t) < 1e-18 * sph_max_part(p)) break;
  }
  // sin and cos of w - n pi/2: n mod 4 quarter turns back.
  sph_c sw, cw;
  switch ((int)(n & 3)) {
    case 0: sw = s; cw = c; break;
    case 1: sw = -c; cw = s; break;
    case 2: sw = -s; cw = -c; break;
    default: sw = c; cw = -s; break;
  }
  return (want_j ? p * sw + q * cw : q * sw - p * cw) * inv;
}

// Forward recurrence from f_0 = a0, f_1 = a1 to f_n (n >= 1), f_{n-1} in
// prev; stops at a non-finite value (an overflow of y_n).
__device__ inline sph_c sph_c_forward(long long n, const sph_inv& inv, sph_c a0, sph_c a1,
                                      sph_c& prev) {
  for (long long k = 1; k < n; ++k) {
    const sph_c a2 = sph_mul_inv(inv, a1) * (2.0 * (double)k + 1.0) - a0;
    a0 = a1;
    a1 = a2;
    if (!sph_finite(a2)) break;
  }
  prev = a0;
  return a1;
}

// j_n(w) = v e^{Im w} 2^e and j_{n-1}(w) = vp e^{Im w} 2^e (n >= 2) by
// Miller's algorithm (see above), from e^{-Im w} j_0 and j_1; false where
// the start would lie beyond SPH_MILLER_STEPS.
__device__ inline bool sph_cj_miller(long long n, const sph_c& w, double r, const sph_inv& inv,
                                     const sph_c& j0, const sph_c& j1, sph_c& v, sph_c& vp,
                                     int& e) {
  // The test solution p_n = 0, p_{n+1} = 1 forward until |p| > 2^need.
  double need = 57.0 + 0.5 * ::log2(::fmax(r, 1.0)) + w.im * SPH_LOG2E;
  sph_c p0(0.0, 0.0), p1(1.0, 0.0);
  long long k = n + 1;
  bool found = false;
  for (; k < SPH_MILLER_STEPS; ++k) {
    const sph_c p2 = sph_mul_inv(inv, p1) * (2.0 * (double)k + 1.0) - p0;
    p0 = p1;
    p1 = p2;
    double m = sph_max_part(p1);
    if (m > 0x1p500) {
      p0 = sph_scale2(p0, -500);
      p1 = sph_scale2(p1, -500);
      m = sph_max_part(p1);
      need -= 500.0;
    }
    if (need < 1000.0 && m >= ::exp2(need)) {
      found = true;
      break;
    }
  }
  if (!found) return false;
  // p_{k+1} is past the bound: start at N = k + 1 with f_{N+1} = 0.
  sph_c f1(0.0, 0.0), f0(1.0, 0.0), fn(0.0, 0.0), fnp(0.0, 0.0);
  int cnt = 0;
  for (long long m = k + 1; m >= 1; --m) {
    // f0 = f_m, f1 = f_{m+1}.
    if (m == n) {
      fn = f0;
      cnt = 0;
    }
    const sph_c fm = sph_mul_inv(inv, f0) * (2.0 * (double)m + 1.0) - f1;
    f1 = f0;
    f0 = fm;
    if (m == n) fnp = f0;
    if (sph_max_part(f0) > 0x1p500) {
      f0 = sph_scale2(f0, -500);
      f1 = sph_scale2(f1, -500);
      ++cnt;
    }
  }
  // f0 ~ j_0, f1 ~ j_1, both 2^{-500 cnt} below the scale of fn and fnp.
  const bool use0 = sph_max_part(j0) >= sph_max_part(j1);
  const sph_c ratio = use0 ? j0 / f0 : j1 / f1;
  const int m = ::ilogb(sph_max_part(fn));
  v = sph_scale2(fn, -m) * ratio;
  vp = sph_scale2(fnp, -m) * ratio;
  e = m - 500 * cnt;
  return true;
}

// e^{Im w} h1_n(w) 2^{-e} and e^{Im w} h1_{n-1}(w) 2^{-e} (n >= 2), Im w
// > 0, by the forward recurrence from h1_0 = -i e^{iw}/w, h1_1 = -e^{iw}
// (w + i)/w^2 (DLMF 10.49.6), rescaled by 2^-500 against overflow.
__device__ inline sph_c sph_ch1(long long n, const sph_c& w, const sph_inv& inv, sph_c& prev,
                                int& e) {
  double sx, cx;
  ::sincos(w.re, &sx, &cx);
  const sph_c ei(cx, sx);  // e^{Im w} e^{iw}
  const sph_c t = ei * inv.hi;
  sph_c a0(t.im, -t.re);  // -i e^{iw}/w
  const sph_c u = inv.hi * inv.hi;
  sph_c a1 = -(ei * (inv.hi + sph_times_i(u)));  // -e^{iw} (1/w + i/w^2)
  e = 0;
  for (long long k = 1; k < n; ++k) {
    const sph_c a2 = sph_mul_inv(inv, a1) * (2.0 * (double)k + 1.0) - a0;
    a0 = a1;
    a1 = a2;
    if (sph_max_part(a1) > 0x1p500) {
      a0 = sph_scale2(a0, -500);
      a1 = sph_scale2(a1, -500);
      e += 500;
    }
  }
  prev = a0;
  return a1;
}

// f_n(w) = v e^t 2^e and f_{n-1}(w) = vp e^t 2^e (vp when n >= 1).
struct sph_out {
  sph_c v, vp;
  double t;
  int e;
};

__device__ __forceinline__ bool sph_hankel_region(double dn, double r) {
  return r >= 25.0 && (dn + 0.5) * (dn + 0.5) <= 2.0 * r;
}
__device__ __forceinline__ bool sph_forward_stable(double dn, double r, double y) {
  return dn <= r && dn * dn * y <= 0.5 * r * r;
}

// j_n at w = x + iy, x >= 0, y > 0 finite, n >= 0 (see above); false
// where not computed (orders past 50000 with |w| > n/4; n > |w| beyond
// SPH_MILLER_STEPS).
__device__ inline bool sph_cj_core(long long n, double x, double y, sph_out& o) {
  const sph_c w(x, y);
  const double r = ::cuprum::hypot(x, y);
  const double dn = (double)n;
  o.t = 0.0;
  o.e = 0;
  o.vp = sph_c(0.0, 0.0);
  if (r * r <= 2.0 * dn + 3.0) {
    // Past 50000, |j_n| <= (e r/(2n))^n e^y underflows.
    if (n > YN_MAX_STEPS) {
      o.v = sph_c(0.0, 0.0);
      return true;
    }
    o.v = sph_cj_series(n, w, false);
    if (n >= 1) o.vp = sph_cj_series(n - 1, w, false);
    return true;
  }
  if (n > YN_MAX_STEPS) {
    o.v = sph_c(0.0, 0.0);  // |j_n| < (e/8)^n e^{n/4} where r <= n/4
    return r <= 0.25 * dn;
  }
  o.t = y;
  sph_c s, c;
  sph_sincos(x, y, s, c);
  if (sph_hankel_region(dn, r)) {
    o.v = sph_c_hankel(n, w, s, c, true);
    if (n >= 1) o.vp = sph_c_hankel(n - 1, w, s, c, true);
    return true;
  }
  const sph_inv inv = sph_make_inv(w);
  const sph_c a0 = s * inv.hi;
  const sph_c a1 = (a0 - c) * inv.hi;
  if (n == 0) {
    o.v = a0;
    return true;
  }
  if (sph_forward_stable(dn, r, y) || n == 1) {
    o.v = sph_c_forward(n, inv, a0, a1, o.vp);
    return true;
  }
  if (sph_cj_miller(n, w, r, inv, a0, a1, o.v, o.vp, o.e)) return true;
  if (dn > r) return false;
  o.v = sph_c_forward(n, inv, a0, a1, o.vp);  // r beyond SPH_MILLER_STEPS
  return true;
}

// y_n as sph_cj_core: 0 computed, 1 overflow, 2 not computed.
__device__ inline int sph_cy_core(long long n, double x, double y, sph_out& o) {
  const sph_c w(x, y);
  const double r = ::cuprum::hypot(x, y);
  const double dn = (double)n;
  o.t = y;
  o.e = 0;
  o.vp = sph_c(0.0, 0.0);
  if (n > YN_MAX_STEPS) return r > 0.25 * dn ? 2 : 1;  // |y_n| > (8/e)^n where r <= n/4
  sph_c s, c;
  sph_sincos(x, y, s, c);
  if (sph_hankel_region(dn, r)) {
    o.v = sph_c_hankel(n, w, s, c, false);
    if (n >= 1) o.vp = sph_c_hankel(n - 1, w, s, c, false);
    return 0;
  }
  const sph_inv inv = sph_make_inv(w);
  const sph_c a0 = -(c * inv.hi);
  if (n == 0) {
    o.v = a0;
    return sph_finite(o.v) ? 0 : 1;
  }
  const sph_c a1 = (a0 - s) * inv.hi;
  if (n == 1 || y <= 0.35 || sph_forward_stable(dn, r, y)) {
    o.v = sph_c_forward(n, inv, a0, a1, o.vp);
    return sph_finite(o.v) && sph_finite(o.vp) ? 0 : 1;
  }
  // i (j_n - h1_n), in the units of the larger term at n.
  sph_out oj;
  if (!sph_cj_core(n, x, y, oj)) return 2;
  int eh;
  sph_c hp;
  const sph_c h = sph_ch1(n, w, inv, hp, eh);
  const double lj = sph_log2(oj.v, oj.t, oj.e), lh = sph_log2(h, -y, eh);
  sph_c d, dp;
  if (lj >= lh) {
    d = oj.v - sph_rescale(h, -y - oj.t, eh - oj.e);
    dp = oj.vp - sph_rescale(hp, -y - oj.t, eh - oj.e);
    o.t = oj.t;
    o.e = oj.e;
  } else {
    d = sph_rescale(oj.v, oj.t + y, oj.e - eh) - h;
    dp = sph_rescale(oj.vp, oj.t + y, oj.e - eh) - hp;
    o.t = -y;
    o.e = eh;
  }
  o.v = sph_times_i(d);
  o.vp = sph_times_i(dp);
  return 0;
}

// Whether the double-double path takes order n at w = x + iy, x, y >= 0.
__device__ __forceinline__ bool sph_near_real(long long n, double x, double y) {
  return y <= 0.5 && x >= 1.0 && x <= 524288.0 && (double)n <= x && n <= SPH_DD_MAX_ORDER;
}

// f_n(w) (deriv: f_n'(w)), f = j (want_j) or y, in double-double where
// sph_near_real (see above).
__device__ __noinline__ sph_c sph_dd_near_real(long long n, double x, double y, bool want_j,
                                               bool deriv) {
  sph_dd sx, cx;
  sph_dd_sincos(x, sx, cx);
  // cosh y, sinh y by their series (y <= 1/2: 1e-33 after 14 terms).
  const sph_dd y2 = sph_dd_mul(sph_dd{y, 0.0}, sph_dd{y, 0.0});
  sph_dd tch{1.0, 0.0}, tsh{y, 0.0}, ch{1.0, 0.0}, sh{y, 0.0};
  for (int j = 1; j <= 14 && y != 0.0; ++j) {
    tch = sph_dd_divd(sph_dd_mul(tch, y2), (2.0 * j - 1.0) * (2.0 * j));
    tsh = sph_dd_divd(sph_dd_mul(tsh, y2), (2.0 * j) * (2.0 * j + 1.0));
    ch = sph_dd_add(ch, tch);
    sh = sph_dd_add(sh, tsh);
  }
  const sph_cdd sw{sph_dd_mul(sx, ch), sph_dd_mul(cx, sh)};
  const sph_cdd cw{sph_dd_mul(cx, ch), sph_dd_neg(sph_dd_mul(sx, sh))};
  // 1/w = (x - iy)/(x^2 + y^2).
  const sph_dd m = sph_dd_add(sph_dd_mul(sph_dd{x, 0.0}, sph_dd{x, 0.0}), y2);
  const sph_cdd inv{sph_dd_div(sph_dd{x, 0.0}, m), sph_dd_div(sph_dd{-y, 0.0}, m)};
  sph_cdd a0, a1;
  if (want_j) {
    a0 = sph_cdd_mul(sw, inv);
    a1 = sph_cdd_mul(sph_cdd_sub(a0, cw), inv);
  } else {
    a0 = sph_cdd_mul(sph_cdd{sph_dd_neg(cw.re), sph_dd_neg(cw.im)}, inv);
    a1 = sph_cdd_mul(sph_cdd_sub(a0, sw), inv);
  }
  // a0 = f_{k-1}, a1 = f_k, up to k = n (k = 1 for f_0' = -f_1).
  const long long top = (deriv && n == 0) ? 1 : n;
  if (top == 0) a1 = a0;
  for (long long k = 1; k < top; ++k) {
    const sph_cdd a2 = sph_cdd_sub(sph_cdd_muld(sph_cdd_mul(inv, a1), 2.0 * (double)k + 1.0), a0);
    a0 = a1;
    a1 = a2;
  }
  sph_cdd v = a1;
  if (deriv) {
    v = n == 0 ? sph_cdd{sph_dd_neg(a1.re), sph_dd_neg(a1.im)}
               : sph_cdd_sub(a0, sph_cdd_muld(sph_cdd_mul(inv, a1), (double)(n + 1)));
  }
  return sph_c(v.re.hi + v.re.lo, v.im.hi + v.im.lo);
}

// j_n(z) (want_j) or y_n(z) for complex z, with SciPy's special values.
__device__ __noinline__ sph_c sph_cbessel(long long n, const sph_c& z, bool want_j) {
  const double a = z.re, b = z.im;
  if (is_nan(a) || is_nan(b)) return z;
  if (n < 0) return sph_c(nan(), 0.0);
  if (is_inf(a)) return b == 0.0 ? sph_c(0.0, 0.0) : sph_c(inf(), inf());
  if (is_inf(b)) return sph_c(nan(), nan());
  if (a == 0.0 && b == 0.0) return want_j ? sph_c(n == 0 ? 1.0 : 0.0, 0.0) : sph_c(nan(), 0.0);
  const double x = ::fabs(a), y = ::fabs(b);
  // Back from w = x + iy to z: the conjugate, the parity.
  const bool conj = (a < 0.0) != (b < 0.0);
  const bool flip = a < 0.0 && ((n & 1) != 0) == want_j;
  if (sph_near_real(n, x, y)) {
    sph_c v = sph_dd_near_real(n, x, y, want_j, false);
    if (conj) v.im = -v.im;
    if (flip) v = -v;
    return b == 0.0 ? sph_c(v.re + 0.0, 0.0) : v;  // +0 for -0, as SciPy's
  }
  if (b == 0.0) {
    const double v = want_j ? sph_jn_int(n, a) : sph_yn_int(n, a);
    // y_n's overflow (-inf, or NaN from -inf - -inf in the recurrence).
    if (is_inf(v) || is_nan(v)) return a > 0.0 ? sph_c(-inf(), nan()) : sph_c(nan(), nan());
    return sph_c(v + 0.0, 0.0);
  }
  sph_out o;
  if (want_j) {
    if (!sph_cj_core(n, x, y, o)) return sph_c(nan(), nan());
  } else if (sph_cy_core(n, x, y, o) != 0) {
    return sph_c(nan(), nan());  // overflow (SciPy's NaN), or not computed
  }
  sph_c v = o.v;
  if (conj) v.im = -v.im;
  if (flip) v = -v;
  const sph_c res = sph_rescale(v, o.t, o.e);
  if (sph_finite(res)) return res;
  if (!want_j || ::cuprum::hypot(a, b) > SPH_AMOS_LIMIT) return sph_c(nan(), nan());
  // SciPy's j_n on overflow: sqrt(pi/(2z)) times the scaled J_{n+1/2}'s
  // parts times inf, multiplied out part by part.
  const sph_c q = ::cuprum::sqrt(sph_c(0.5 * PI, 0.0) / z);
  const sph_c jv = v / q;
  const double cr = jv.re == 0.0 ? nan() : ::copysign(inf(), jv.re);
  const double ci = jv.im == 0.0 ? nan() : ::copysign(inf(), jv.im);
  return sph_c(q.re * cr - q.im * ci, q.re * ci + q.im * cr);
}

// a / b as C99 Annex G's division (G.5.1, with its recovery of infinite
// results from NaN + NaN i), as SciPy's C++ computes it.
__device__ inline sph_c sph_div_annex_g(const sph_c& a, const sph_c& b) {
  const double c = b.re, d = b.im;
  double x, y;
  if (::fabs(c) < ::fabs(d)) {
    const double t = c / d, den = c * t + d;
    x = (a.re * t + a.im) / den;
    y = (a.im * t - a.re) / den;
  } else {
    const double t = d / c, den = d * t + c;
    x = (a.im * t + a.re) / den;
    y = (a.im - a.re * t) / den;
  }
  if (is_nan(x) && is_nan(y)) {
    const bool fin_a = !is_inf(a.re) && !is_nan(a.re) && !is_inf(a.im) && !is_nan(a.im);
    const bool fin_b = !is_inf(c) && !is_nan(c) && !is_inf(d) && !is_nan(d);
    if (c == 0.0 && d == 0.0 && (!is_nan(a.re) || !is_nan(a.im))) {
      x = ::copysign(inf(), c) * a.re;
      y = ::copysign(inf(), c) * a.im;
    } else if ((is_inf(a.re) || is_inf(a.im)) && fin_b) {
      const double p = ::copysign(is_inf(a.re) ? 1.0 : 0.0, a.re);
      const double q = ::copysign(is_inf(a.im) ? 1.0 : 0.0, a.im);
      x = inf() * (p * c + q * d);
      y = inf() * (q * c - p * d);
    } else if ((is_inf(c) || is_inf(d)) && fin_a) {
      const double p = ::copysign(is_inf(c) ? 1.0 : 0.0, c);
      const double q = ::copysign(is_inf(d) ? 1.0 : 0.0, d);
      x = 0.0 * (a.re * p + a.im * q);
      y = 0.0 * (a.im * p - a.re * q);
    }
  }
  return sph_c(x, y);
}

// j_n'(z) (want_j) or y_n'(z) for complex z, with SciPy's special values.
__device__ __noinline__ sph_c sph_cbessel_d(long long n, const sph_c& z, bool want_j) {
  const double a = z.re, b = z.im;
  if (is_nan(a) || is_nan(b)) return n == 0 ? -z : sph_c(nan(), nan());
  if (n == 0) return -sph_cbessel(1, z, want_j);
  if (want_j && a == 0.0 && b == 0.0) return sph_c(n == 1 ? 1.0 / 3.0 : 0.0, 0.0);
  if (n < 0 || (a == 0.0 && b == 0.0)) return sph_c(nan(), nan());
  if (is_inf(a)) return b == 0.0 ? sph_c(0.0, 0.0) : sph_c(nan(), nan());
  if (is_inf(b)) return sph_c(nan(), nan());
  const double x = ::fabs(a), y = ::fabs(b);
  // j_n'(-z) = (-1)^{n+1} j_n'(z), y_n'(-z) = (-1)^n y_n'(z); conjugates.
  const bool conj = (a < 0.0) != (b < 0.0);
  const bool flip = a < 0.0 && ((n & 1) != 0) != want_j;
  sph_c v;
  if (sph_near_real(n, x, y)) {
    v = sph_dd_near_real(n, x, y, want_j, true);
    if (conj) v.im = -v.im;
    if (flip) v = -v;
    return b == 0.0 ? sph_c(v.re + 0.0, 0.0) : v;  // +0 for -0, as SciPy's
  }
  if (b == 0.0) {
    const double u = want_j ? ::cuprum::special::spherical_jn_d(n, a)
                            : ::cuprum::special::spherical_yn_d(n, a);
    if (!is_inf(u) && !is_nan(u)) return sph_c(u + 0.0, 0.0);
  } else if (want_j && n <= YN_MAX_STEPS && x * x + y * y <= 2.0 * (double)n + 3.0) {
    return sph_cj_series(n, z, true);
  } else {
    sph_out o;
    const int st = want_j ? (sph_cj_core(n, x, y, o) ? 0 : 2) : sph_cy_core(n, x, y, o);
    if (st == 2) return sph_c(nan(), nan());
    if (st == 0) {
      v = o.vp - (o.v * (double)(n + 1)) / sph_c(x, y);
      if (conj) v.im = -v.im;
      if (flip) v = -v;
      const sph_c res = sph_rescale(v, o.t, o.e);
      if (sph_finite(res)) return res;
    }
  }
  // Overflowing values: SciPy's formula as its C++ evaluates it.
  const sph_c f0 = sph_cbessel(n - 1, z, want_j), f1 = sph_cbessel(n, z, want_j);
  return f0 - sph_div_annex_g(f1 * (double)(n + 1), z);
}

}  // namespace detail

__device__ inline cuprum::complex<double> spherical_jn(long long n, const cuprum::complex<double>& z) {
  return detail::sph_cbessel(n, z, true);
}
__device__ inline cuprum::complex<double> spherical_yn(long long n, const cuprum::complex<double>& z) {
  return detail::sph_cbessel(n, z, false);
}
__device__ inline cuprum::complex<double> spherical_jn_d(long long n, const cuprum::complex<double>& z) {
  return detail::sph_cbessel_d(n, z, true);
}
__device__ inline cuprum::complex<double> spherical_yn_d(long long n, const cuprum::complex<double>& z) {
  return detail::sph_cbessel_d(n, z, false);
}
__device__ __forceinline__ cuprum::complex<float> spherical_jn(long long n, const cuprum::complex<float>& z) {
  return cuprum::complex<float>(spherical_jn(n, cuprum::complex<double>(z)));
}
__device__ __forceinline__ cuprum::complex<float> spherical_yn(long long n, const cuprum::complex<float>& z) {
  return cuprum::complex<float>(spherical_yn(n, cuprum::complex<double>(z)));
}
__device__ __forceinline__ cuprum::complex<float> spherical_jn_d(long long n, const cuprum::complex<float>& z) {
  return cuprum::complex<float>(spherical_jn_d(n, cuprum::complex<double>(z)));
}
__device__ __forceinline__ cuprum::complex<float> spherical_yn_d(long long n, const cuprum::complex<float>& z) {
  return cuprum::complex<float>(spherical_yn_d(n, cuprum::complex<double>(z)));
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
