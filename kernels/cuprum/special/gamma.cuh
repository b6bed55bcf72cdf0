// The gamma family of scipy.special: gamma, gammaln, digamma, polygamma,
// zeta (Hurwitz, and Riemann's for zeta(x) without q), zetac.
//
// Sources: gamma and gammaln are CUDA's tgamma/lgamma (libdevice) with
// SciPy's special values; digamma follows DLMF 5.5.2 (recurrence), 5.11.2
// (asymptotic series) and 5.15.1 (a Taylor series at its positive root,
// as Boost and SciPy's xsf do there); the Hurwitz zeta is the
// Euler-Maclaurin sum of DLMF 25.11.5 (the method of Cephes `zeta.c`);
// Riemann's zeta uses Borwein's accelerated eta series for 0 <= s < 1
// and the functional equation (DLMF 25.4.1) below. The constants are
// computed by crates/gpu-special/tools/coefficients.py.
#pragma once

#include "cuprum/special/common.cuh"
#include "cuprum/special/cgamma.cuh"

namespace cuprum {
namespace special {

// Gamma: inf at +0, -inf at -0, NaN at negative integers and -inf.
__device__ __forceinline__ double gamma(double x) { return ::tgamma(x); }

// log|Gamma(x)|: inf at 0 and the negative integers; -inf at -inf (SciPy).
__device__ __forceinline__ double gammaln(double x) {
  if (x == -detail::inf()) return x;
  return ::lgamma(x);
}

namespace detail {

// psi(x) for x > 0, finite.
__device__ inline double digamma_positive(double x) {
  const double root_hi = 1.4616321449683622, root_lo = 9.549995429965697e-17;
  double h = (x - root_hi) - root_lo;
  if (::fabs(h) < 0.25) {
    // DLMF 5.15.1 at the root: c_k = (-1)^(k+1) zeta(k+1, x0).
    const double c[24] = {
        0.9676722454476212,     -0.4427631689835921,    0.258499760955651,
        -0.16394270544240652,   0.10782405069126237,    -0.07219956125645471,
        0.04880428816414311,    -0.03316112647484736,   0.022597648232218104,
        -0.01542476590494896,   0.010538791616612175,   -0.007204534386356869,
        0.004926781395729853,   -0.003369801655439328,  0.002305126326734928,
        -0.0015769367714301972, 0.0010788252019162967,  -0.0007380709389960052,
        0.000504953265834602,   -0.0003454680251063077, 0.00023635601564027053,
        -0.00016170622091974803, 0.0001106337276874741, -7.569179582195066e-05};
    double p = c[23];
#pragma unroll
    for (int k = 22; k >= 0; --k) p = ::fma(p, h, c[k]);
    return p * h;
  }
  // Recurrence up to 10, then the asymptotic series (B_2k / 2k).
  double acc = 0.0;
  while (x < 10.0) {
    acc += 1.0 / x;
    x += 1.0;
  }
  const double b[8] = {0.08333333333333333,  -0.008333333333333333, 0.003968253968253968,
                       -0.004166666666666667, 0.007575757575757576,  -0.021092796092796094,
                       0.08333333333333333,   -0.4432598039215686};
  double z = 1.0 / (x * x);
  double s = b[7];
#pragma unroll
  for (int k = 6; k >= 0; --k) s = ::fma(s, z, b[k]);
  return (::log(x) - 0.5 / x) - (s * z + acc);
}

}  // namespace detail

// psi(x): -inf at +0, inf at -0, NaN at negative integers and -inf.
__device__ inline double digamma(double x) {
  if (detail::is_nan(x) || x == detail::inf()) return x;
  if (x == -detail::inf()) return detail::nan();
  if (x == 0.0) return ::copysign(detail::inf(), -x);
  if (x < 0.0) {
    if (x == ::floor(x)) return detail::nan();
    // DLMF 5.5.4: psi(1 - x) - psi(x) = pi cot(pi x).
    return detail::digamma_positive(1.0 - x) - detail::PI * ::cospi(x) / ::sinpi(x);
  }
  return detail::digamma_positive(x);
}

// The Hurwitz zeta function sum_k (k + q)^-s (SciPy's zeta(x, q)): inf at
// s = 1 and at non-positive integer q, NaN for s < 1 and for negative q
// with a non-integer s.
__device__ inline double zeta(double s, double q) {
  // SciPy's order of checks: the pole at s = 1 and at non-positive integer
  // q come before NaN propagates.
  if (s == 1.0) return detail::inf();
  if (s < 1.0) return detail::nan();
  if (q <= 0.0) {
    if (q == ::floor(q)) return detail::inf();
    if (s != ::floor(s)) return detail::nan();
  }
  if (detail::is_nan(s) || detail::is_nan(q)) return detail::nan();
  if (q == detail::inf()) return 0.0;
  if (s == detail::inf()) {
    // SciPy's values: 1 at q = 1, inf below; 0 for q > 1e8 (its
    // asymptotic branch) and NaN between (its sum meets inf * 0).
    if (q == 1.0) return 1.0;
    if (q < 1.0) return detail::inf();
    return q > 1e8 ? 0.0 : detail::nan();
  }
  if (q > 1e8) {
    // DLMF 25.11.43's first terms: q^(1-s)/(s-1) + q^-s/2 (the next, s q^(-s-1)/12,
    // is below the rounding for q > 1e8). From q^(1-s), which stays
    // normal where q^-s underflows (zeta(2, 1e300) = 1e-300).
    double b1 = ::pow(q, 1.0 - s);
    return b1 / (s - 1.0) + 0.5 * (b1 / q);
  }
  const double eps = 1.1102230246251565e-16;
  // The direct sum, ended early when its terms no longer count.
  double sum = ::pow(q, -s);
  double a = q;
  int i = 0;
  while (i < 9 || a <= 9.0) {
    ++i;
    a += 1.0;
    double t = ::pow(a, -s);
    sum += t;
    if (::fabs(t) <= eps * ::fabs(sum)) return sum;
  }
  // DLMF 25.11.5 at w = q + N: w^(1-s)/(s-1) - w^-s/2 (the sum above
  // holds w^-s once) + sum_j B_2j/(2j)! s(s+1)..(s+2j-2) w^(-s-2j+1).
  const double a2j[12] = {0.08333333333333333,     -0.001388888888888889,
                          3.306878306878307e-05,   -8.267195767195768e-07,
                          2.08767569878681e-08,    -5.284190138687493e-10,
                          1.3382536530684679e-11,  -3.3896802963225827e-13,
                          8.586062056277845e-15,   -2.174868698558062e-16,
                          5.5090028283602295e-18,  -1.3954464685812522e-19};
  double w = a;
  double b = ::pow(w, -s);
  if (b == 0.0) return sum;
  sum += w * b / (s - 1.0) - 0.5 * b;
  double rising = s;  // s (s+1) ... (s+2j-2)
  double wp = b / w;  // w^(-s-2j+1)
  for (int j = 0; j < 12; ++j) {
    double t = a2j[j] * rising * wp;
    sum += t;
    if (::fabs(t) < eps * ::fabs(sum)) break;
    rising *= (s + 2 * j + 1) * (s + 2 * j + 2);
    wp /= w * w;
  }
  return sum;
}

// Riemann's zeta (SciPy's zeta(x)): inf at 1, 1 at inf, 0 at the
// negative even integers, NaN at -inf.
__device__ inline double riemann_zeta(double s) {
  if (detail::is_nan(s)) return s;
  if (s == 1.0) return detail::inf();
  if (s == detail::inf()) return 1.0;
  if (s == -detail::inf()) return detail::nan();
  if (s > 1.0) return 1.0 + zeta(s, 2.0);
  // Borwein's series holds for s > -1 too (eta is entire; its terms grow
  // at most like 24^|s|), which keeps s near -0 exact: zeta(-0) = -1/2.
  if (s > -1.0) {
    // Borwein: eta(s) = sum_k (-1)^k e_k (k+1)^-s; zeta = eta / (1 - 2^(1-s)).
    const double e[24] = {
        1.0, 0.999999999999999, 0.999999999999812, 0.9999999999855517, 0.9999999994080065,
        0.9999999850335489, 0.9999997450236661, 0.9999968965547265, 0.999971877502541,
        0.9998044297284367, 0.998931938694946, 0.995336218072075, 0.9834807623952175,
        0.9519634894573569, 0.8840929599033391, 0.7655145634411474, 0.5976878813515132,
        0.4062278518731426, 0.23178649168173823, 0.1067246914876162, 0.03778036573957456,
        0.00959406764049133, 0.0015493525382159912, 0.00011918096447815317};
    double eta = 0.0;
    for (int k = 23; k >= 0; --k) {
      double t = e[k] * ::pow((double)(k + 1), -s);
      eta += (k & 1) ? -t : t;
    }
    return eta / -::expm1((1.0 - s) * 0.69314718055994531);
  }
  // DLMF 25.4.1: zeta(s) = 2^s pi^(s-1) sin(pi s / 2) Gamma(1 - s) zeta(1 - s).
  double half = 0.5 * s;
  if (half == ::floor(half)) return 0.0;
  double t = 1.0 - s;
  double sn = ::sinpi(half);
  double z1 = 1.0 + zeta(t, 2.0);  // t > 1
  if (t < 170.0) {
    return ::exp2(s) * ::pow(detail::PI, s - 1.0) * sn * ::tgamma(t) * z1;
  }
  double lg = s * 0.69314718055994531 + (s - 1.0) * 1.1447298858494002 + ::lgamma(t) +
              ::log(::fabs(sn) * z1);
  return ::copysign(::exp(lg), sn);
}

// Riemann's zeta minus one (SciPy's zetac); for s > 1 the Hurwitz sum
// from 2, exact where zeta is near 1.
__device__ inline double zetac(double s) {
  if (s == detail::inf()) return 0.0;
  if (s > 1.0) return zeta(s, 2.0);
  return riemann_zeta(s) - 1.0;
}

// polygamma(n, x) = (-1)^(n+1) n! zeta(n+1, x) (DLMF 5.15.2); digamma at
// n = 0; NaN for a negative or non-integer n.
__device__ inline double polygamma(double n, double x) {
  if (detail::is_nan(n) || detail::is_nan(x)) return detail::nan();
  if (n < 0.0 || n != ::floor(n)) return detail::nan();
  if (n == 0.0) return digamma(x);
  double sign = ::fmod(n, 2.0) == 0.0 ? -1.0 : 1.0;
  return sign * ::tgamma(n + 1.0) * zeta(n + 1.0, x);
}

CUPRUM_SPECIAL_F1(gamma)
// float32 gammaln in float (CUDA's lgammaf) where that is within 2 ulp:
// the double evaluation costs 2.5 times the memory time of 2^28 elements
// on the H200. Below 0 (lgammaf's error reaches hundreds of ulp between
// -10 and -2) and near the zeros at 1 and 2 (where any relative error is
// magnified) the double function, or its Taylor series, is rounded
// instead.
namespace detail {
// Not inlined: the double lgamma's registers would otherwise lower the
// occupancy of every float32 gammaln kernel, rarely as it is taken.
__device__ __noinline__ float gammaln_via_double(float x) { return (float)::lgamma((double)x); }

// lgamma(x) for |x - 1| < 0.1 or |x - 2| < 0.1, where lgammaf's absolute
// error is a large relative one: the Taylor series at the zero (DLMF
// 5.7.3; tools/coefficients.py), in float. e = x - 1 or x - 2 is exact
// (Sterbenz), q = c1 + c2 e + ... + c8 e^7 by Horner (the terms after c8
// are below 2^-27 of the sum at |e| < 0.1), and the result c0 e + e (e q)
// with c0 in two parts, so that only the last fused multiply-add rounds
// the leading term: 0.75 ulp at most against SciPy's float64 gammaln over
// every 13th float32 of both windows (an emulation in NumPy float32). It
// replaced the same series in double (0.59 -> 0.93 ms for the bench row:
// the quarter of the warps whose 128 inputs straddle a window paid for
// eleven double FMAs and their double coefficient selects).
__device__ __forceinline__ float gammaln_near_zeros(float x) {
  const float c1[9] = {-0.5772156649015329f, 0.8224670334241132f,  -0.40068563438653143f,
                       0.27058080842778454f, -0.20738555102867398f, 0.1695571769974082f,
                       -0.1440498967688461f, 0.12550966952474304f,  -0.11133426586956469f};
  const float c2[9] = {0.42278433509846713f,   0.3224670334241132f,     -0.0673523010531981f,
                       0.020580808427784546f,  -0.007385551028673986f,  0.0028905103307415234f,
                       -0.001192753911703261f, 0.0005096695247430425f,  -0.00022315475845357939f};
  // The low part of c0 = -Euler's gamma and of 1 - Euler's gamma (c0 -
  // (float)c0 in double; the same for both).
  const float lo = 6.637774e-09f;
  const bool one = x < 1.5f;
  const float e = x - (one ? 1.0f : 2.0f);
  if (e == 0.0f) return 0.0f;  // lgamma(1) = lgamma(2) = +0
  float q = one ? c1[8] : c2[8];
#pragma unroll
  for (int k = 7; k >= 1; --k) q = ::fmaf(q, e, one ? c1[k] : c2[k]);
  const float inner = ::fmaf(lo, e, e * (e * q));
  return ::fmaf(one ? c1[0] : c2[0], e, inner);
}
}  // namespace detail

__device__ __forceinline__ float gammaln(float x) {
  if (x == -__int_as_float(0x7f800000)) return x;
  if (x < 0.0f) return detail::gammaln_via_double(x);
  if (::fabsf(x - 1.0f) < 0.1f || ::fabsf(x - 2.0f) < 0.1f) return detail::gammaln_near_zeros(x);
  return ::lgammaf(x);
}
CUPRUM_SPECIAL_F1(digamma)
CUPRUM_SPECIAL_F2(zeta)
CUPRUM_SPECIAL_F1(riemann_zeta)
CUPRUM_SPECIAL_F1(zetac)
CUPRUM_SPECIAL_F2(polygamma)

}  // namespace special
}  // namespace cuprum
