// scipy.special's incbeta functions (namespace cuprum::special); see the
// table rows in crates/gpu-special/src/table/incbeta.rs.
//
// beta(a, b), betaln(a, b): Cephes' `beta.c` order of cases (the negative
// integers, the swap to |a| >= |b|, its asymptotic and log-gamma branches)
// so that the special values are SciPy's; the finite values of positive
// arguments from
//   B(a, b) = (a + b) / (a b) Gamma(a + 1) Gamma(b + 1) / Gamma(a + b + 1)
// for a, b < 10 and, for a or b >= 10, Stirling's formula DLMF 5.11.3 with
// its correction mu(z) = lgamma(z) - (z - 1/2) log z + z - log(2 pi) / 2
// (DLMF 5.11.1, the exact Bernoulli ratios of
// crates/gpu-special/tools/coefficients_incbeta.py), so that the powers
// (a / (a + b))^a are taken by pow of a double-double ratio instead of
// exp of a difference of large log-gammas.
//
// betainc(a, b, x) = I_x(a, b) (DLMF 8.17.2): the continued fraction DLMF
// 8.17.22 (modified Lentz) for x < (a + 1) / (a + b + 2), else
// 1 - I_{1-x}(b, a) (DLMF 8.17.4); the front factor x^a (1-x)^b / (a B(a, b))
// from the same Stirling split (Temme's and DiDonato-Morris' "BRCOMP"
// idea), its logarithm summed in double-double arithmetic (lgamma(1 + a)
// for a < 20 by DLMF 5.7.3) and exponentiated once, so that it is good to
// about half an ulp whatever the libm. For min(a, b) > 1e11 Temme's uniform expansion (DLMF 8.18.8 form,
// leading term and first correction). Where I is near 1 with a small
// (a <= 8), 1 - I from the power series DLMF 8.17.8 (DiDonato-Morris'
// BPSER form) with its cancelling parts in double-double arithmetic
// (ib_small_a_upper), and the fraction's Lentz recursion keeps D and the
// running product as double-doubles (ib_cf).
//
// betaincinv: the initial guess of Abramowitz-Stegun 26.5.22 for
// a, b >= 1, the small-x / small-(1-x) power forms otherwise
// (DiDonato-Morris 1992, section 3), then Halley steps on I_x(a, b) - y
// inside a bracket that bisects when a step leaves it.
//
// Distributions (Cephes' definitions, DLMF 8.17 relations):
//   bdtr(k, n, p) = I_{1-p}(n - k, k + 1), bdtrc = I_p(k + 1, n - k),
//   nbdtr(k, n, p) = I_p(n, k + 1), nbdtrc = I_{1-p}(k + 1, n),
//   fdtr(m, n, x) = I_{mx/(mx+n)}(m/2, n/2), fdtrc its complement,
//   stdtr(df, t) = 1 - I_{df/(df+t^2)}(df/2, 1/2) / 2 for t > 0,
// and their inverses through betaincinv.
#pragma once

#include "cuprum/special/common.cuh"
#include "cuprum/special/erf.cuh"
#include "cuprum/special/gamma.cuh"
#include "cuprum/special/incgamma.cuh"

namespace cuprum {
namespace special {
namespace detail {

constexpr double IB_EPS = 2.220446049250313e-16;
constexpr double IB_INV_SQRT_2PI = 0.3989422804014327;
constexpr double IB_SQRT_2PI = 2.5066282746310007;
constexpr double IB_LOG_SQRT_2PI = 0.91893853320467278;

// Stirling's correction mu(z) = lgamma(z) - ((z - 1/2) log z - z + log(2 pi)/2)
// for z >= 10: DLMF 5.11.1, B_2k / (2k (2k - 1) z^(2k - 1)), k = 1..10
// (tools/coefficients_incbeta.py).
__device__ inline double ib_mu(double z) {
  double r = 1.0 / z, r2 = r * r;
  double s = -174611.0 / 125400.0;
  s = s * r2 + 43867.0 / 244188.0;
  s = s * r2 - 3617.0 / 122400.0;
  s = s * r2 + 1.0 / 156.0;
  s = s * r2 - 691.0 / 360360.0;
  s = s * r2 + 1.0 / 1188.0;
  s = s * r2 - 1.0 / 1680.0;
  s = s * r2 + 1.0 / 1260.0;
  s = s * r2 - 1.0 / 360.0;
  s = s * r2 + 1.0 / 12.0;
  return s * r;
}

// log(1 + m) - m, accurate near 0 (DLMF 4.6.1 for |m| < 0.25).
__device__ inline double ib_log1pmx(double m) {
  if (!(::fabs(m) < 0.25)) return ::log1p(m) - m;
  double t = m, s = 0.0;
  for (int k = 2; k < 80; ++k) {
    t *= -m;
    double term = t / k;
    s += term;
    if (::fabs(term) <= 1e-17 * ::fabs(s)) break;
  }
  return s;
}

// Error-free sum: s + e = a + b exactly (Knuth's two-sum).
__device__ inline void ib_two_sum(double a, double b, double& s, double& e) {
  s = __dadd_rn(a, b);
  double bb = __dsub_rn(s, a);
  e = __dadd_rn(__dsub_rn(a, __dsub_rn(s, bb)), __dsub_rn(b, bb));
}

// Double-double steps (Dekker's products by fma, Knuth's sums): h + l
// with |l| <= ulp(h) / 2.
// h + l = a + b for |a| >= |b| (or a = 0), exactly.
__device__ inline void ib_quick_two_sum(double a, double b, double& h, double& l) {
  h = __dadd_rn(a, b);
  l = __dsub_rn(b, __dsub_rn(h, a));
}
// (h + l) c + d, c and d doubles.
__device__ inline void ib_dd_fma_d(double h, double l, double c, double d, double& rh, double& rl) {
  double p = __dmul_rn(h, c);
  double pe = ::fma(h, c, -p) + l * c;
  double s, e;
  ib_two_sum(p, d, s, e);
  ib_quick_two_sum(s, e + pe, rh, rl);
}
// (ah + al) (bh + bl).
__device__ inline void ib_dd_mul(double ah, double al, double bh, double bl, double& rh, double& rl) {
  double p = __dmul_rn(ah, bh);
  double e = ::fma(ah, bh, -p) + (ah * bl + al * bh);
  ib_quick_two_sum(p, e, rh, rl);
}
// c / (h + l), c a double.
__device__ inline void ib_d_div_dd(double c, double h, double l, double& rh, double& rl) {
  double q = c / h;
  double r = ::fma(-q, h, c) - q * l;
  ib_quick_two_sum(q, r / h, rh, rl);
}

// (x + xl) (sh + sl) / d as a double-double qh + ql (d > 0; d = 1 to skip
// the division).
__device__ inline void ib_ratio(double x, double xl, double sh, double sl, double d, double& qh,
                                double& ql) {
  double ph = __dmul_rn(x, sh);
  double pl = ::fma(x, sh, -ph) + (x * sl + xl * sh);
  qh = ph / d;
  ql = (::fma(-qh, d, ph) + pl) / d;
  // Renormalized: pl (x's low part times s) may exceed half an ulp of ph
  // when x rounds to 1, and ib_pow_dd takes log(qh + ql) to first order.
  double q = qh + ql;
  ql -= q - qh;
  qh = q;
}

// (qh + ql)^e, q > 0, with pow's accuracy whatever the size of e.
__device__ inline double ib_pow_dd(double qh, double ql, double e) {
  double p = ::pow(qh, e);
  if (ql == 0.0 || p == 0.0 || is_inf(p)) return p;
  return p * ::exp(e * (ql / qh));
}

// psi(x) to about 10% for x > 0 (DLMF 5.11.2's first terms, shifted by
// 5.5.2 below 1): only for first-order corrections of rounded arguments.
__device__ inline double ib_psi_rough(double x) {
  if (x >= 1.0) return ::log(x) - 0.5 / x;
  return ::log(x + 1.0) - 0.5 / (x + 1.0) - 1.0 / x;
}

// Gamma(sh + sl) for a double-double argument 1e-300 < sh < 171:
// tgamma(sh) (1 + sl psi(sh)), since a rounded a + b (an error of half an
// ulp of a number up to 20) would move Gamma by psi times as many ulps.
__device__ inline double ib_tgamma_dd(double sh, double sl) {
  double g = ::tgamma(sh);
  return (sl == 0.0) ? g : g * (1.0 + sl * ib_psi_rough(sh));
}

// Gamma(1 + a) Gamma(1 + b) / Gamma(1 + a + b) for |a|, |b| < 1.
__device__ inline double ib_gamma_ratio_small(double a, double b) {
  return ::tgamma(1.0 + a) * (::tgamma(1.0 + b) / ::tgamma(1.0 + a + b));
}

// Gamma(1 + a) for 0 <= a < 10 without rounding 1 + a: a Gamma(a).
__device__ inline double ib_tgamma1p(double a) {
  if (a < 1e-300) return 1.0;
  return a * ::tgamma(a);
}

// Gamma(a + b) / (Gamma(1 + a) Gamma(b)) = 1 / (a B(a, b)) for 0 < a, b < 10,
// s = a + b = sh + sl.
__device__ inline double ib_inv_abeta_small(double a, double b, double sh, double sl) {
  if (sh < 1e-300) return b / sh;  // both tiny: (b / s) Gamma(1 + s) / Gamma(1 + b) ~ b / s
  double gs = ib_tgamma_dd(sh, sl);
  double gb = (b < 1e-300) ? 1.0 / b : ::tgamma(b);
  return gs / (ib_tgamma1p(a) * gb);
}

// q1^e1 q2^e2 c (q = qh + ql double-doubles, c a moderate factor) without
// losing digits to a denormal intermediate: when a power is small the
// halves q^(e/2) are multiplied first and the product squared.
__device__ inline double ib_pow_prod(double q1h, double q1l, double e1, double q2h, double q2l,
                                     double e2, double c) {
  double p1 = ib_pow_dd(q1h, q1l, e1), p2 = ib_pow_dd(q2h, q2l, e2);
  double p = p1 * p2;
  if (p1 > 1e-150 && p2 > 1e-150 && p1 < 1e150 && p2 < 1e150 && p > 1e-280) return p * c;
  double h = ib_pow_dd(q1h, q1l, 0.5 * e1) * ib_pow_dd(q2h, q2l, 0.5 * e2);
  return h * (h * c);
}

// lgamma(b + a) - lgamma(b) for b > 0 and 0 <= a, accurate (absolutely,
// to about eps a log b) when a is small: shifted to b + n >= 10 by the
// recurrence (DLMF 5.5.1), then Stirling's form
// a log B + (B + a - 1/2) log1p(a / B) - a + mu(B + a) - mu(B).
__device__ inline double ib_lgamma_diff(double b, double a) {
  double sum = 0.0;
  int n = 0;
  while (b < 10.0 && n < 12) {
    sum += ::log1p(a / b);
    b += 1.0;
    ++n;
  }
  return a * ::log(b) + ((b + a - 0.5) * ::log1p(a / b) - a) + (ib_mu(b + a) - ib_mu(b)) - sum;
}

// sum_{k>=11} (-1)^k (zeta(k) - 1) / k z^(k-11), k = 11..36 (the
// (zeta(k) - 1) / k from mpmath): the tail of the series of DLMF 5.7.3
// below, small enough (|z| <= 0.6: below 5e-5) for double precision.
__device__ inline double ib_zeta_tail(double z) {
  double p = 4.04220052528944e-13;
  p = 8.315385841420285e-13 - z * p;
  p = 1.711991790559618e-12 - z * p;
  p = 3.527742476575915e-12 - z * p;
  p = 7.275974480239079e-12 - z * p;
  p = 1.5021384080754142e-11 - z * p;
  p = 3.1044247747322276e-11 - z * p;
  p = 6.4229645638381e-11 - z * p;
  p = 1.330476437424449e-10 - z * p;
  p = 2.7595228851242334e-10 - z * p;
  p = 5.731367241678862e-10 - z * p;
  p = 1.1921401405860912e-09 - z * p;
  p = 2.4836745438024785e-09 - z * p;
  p = 5.183475041970047e-09 - z * p;
  p = 1.0838659214896955e-08 - z * p;
  p = 2.2711094608943164e-08 - z * p;
  p = 4.7698101693639804e-08 - z * p;
  p = 1.0043224823968099e-07 - z * p;
  p = 2.1207184805554665e-07 - z * p;
  p = 4.492469198764566e-07 - z * p;
  p = 9.55141213040742e-07 - z * p;
  p = 2.039215753801366e-06 - z * p;
  p = 4.374866789907488e-06 - z * p;
  p = 9.439488275268397e-06 - z * p;
  p = 2.050721277567069e-05 - z * p;
  p = 4.492623673813314e-05 - z * p;
  return p;
}

// (zeta(k) - 1) / k for k = 2..10 as double-doubles (hi, lo; from mpmath,
// tools/coefficients_incbeta.py).
__device__ inline void ib_zeta_head(int k, double& h, double& l) {
  const double hi[9] = {0.3224670334241132,     0.0673523010531981,    0.020580808427784546,
                        0.007385551028673986,   0.0028905103307415234, 0.001192753911703261,
                        0.0005096695247430425,  0.00022315475845357939, 9.945751278180853e-05};
  const double lo[9] = {1.520336175199238e-17,  -6.87667631175899e-18,  1.4629392512775695e-18,
                        -4.1051370891788617e-19, -7.357950161901912e-20, -4.1747852352514e-20,
                        -2.780354175057013e-20, -6.032078299350848e-21, 2.734261130690314e-21};
  h = hi[k - 2];
  l = lo[k - 2];
}

// lgamma(1 + a) for 0 <= a <= 0.6 by DLMF 5.7.3 with the zeta(k) = 1 part
// summed in closed form: -gamma a - (log(1 + a) - a)
// + sum_{k>=2} (-1)^k (zeta(k) - 1) a^k / k (the (zeta(k) - 1) / k from
// mpmath, k = 2..36), without the cancellation of the recurrence form.
__device__ inline double ib_lgamma1p_small(double a) {
  double p = ib_zeta_tail(a);
  for (int k = 10; k >= 2; --k) {
    double h, l;
    ib_zeta_head(k, h, l);
    p = h - a * p;
  }
  return a * (-0.5772156649015329 + a * p) - ib_log1pmx(a);
}

// ---- Double-double arithmetic for the front factor (ib_front) and the
// cancelling sum of ib_small_a_upper
// (Dekker's and Knuth's error-free transformations; the value is h + l
// with |l| <= ulp(h) / 2).
struct ib_dd {
  double h, l;
};
__device__ inline ib_dd ib_dd_norm(double h, double l) {
  ib_dd r;
  ib_quick_two_sum(h, l, r.h, r.l);
  return r;
}
__device__ inline ib_dd ib_dd_add(ib_dd a, ib_dd b) {
  double s, e;
  ib_two_sum(a.h, b.h, s, e);
  return ib_dd_norm(s, e + (a.l + b.l));
}
__device__ inline ib_dd ib_dd_add_d(ib_dd a, double b) {
  double s, e;
  ib_two_sum(a.h, b, s, e);
  return ib_dd_norm(s, e + a.l);
}
__device__ inline ib_dd ib_dd_neg(ib_dd a) { return ib_dd{-a.h, -a.l}; }
__device__ inline ib_dd ib_dd_mul(ib_dd a, ib_dd b) {
  double p = __dmul_rn(a.h, b.h);
  return ib_dd_norm(p, ::fma(a.h, b.h, -p) + (a.h * b.l + a.l * b.h));
}
__device__ inline ib_dd ib_dd_mul_d(ib_dd a, double b) {
  double p = __dmul_rn(a.h, b);
  return ib_dd_norm(p, ::fma(a.h, b, -p) + a.l * b);
}
__device__ inline ib_dd ib_dd_div_d(ib_dd a, double b) {
  double q = a.h / b;
  double r = (::fma(-q, b, a.h) + a.l) / b;
  return ib_dd_norm(q, r);
}
// a / b to about 2^-100 (one correction of the double quotient).
__device__ inline ib_dd ib_dd_div(ib_dd a, ib_dd b) {
  double q = a.h / b.h;
  double p = __dmul_rn(b.h, q);
  double r = ((a.h - p) - ::fma(b.h, q, -p)) + (a.l - b.l * q);  // a - q b
  return ib_dd_norm(q, r / b.h);
}

// expm1(x) for |x| <= 30 to double-double precision (relative error about
// 1e-25): r = x / 2^k with |r| <= 0.022 by its Taylor series (DLMF 4.2.19),
// r (1 + r (1/2 + r (1/6 + r (1/24 + r T)))) with T = 1/120 + r/720 + ...
// in double (r^4 T is below 2e-9 of the sum), then k doublings
// expm1(2r) = expm1(r) (2 + expm1(r)).
__device__ inline ib_dd ib_dd_expm1(ib_dd x) {
  int k = 0;
  while (::fabs(x.h) > 0.022 && k < 16) {
    x.h *= 0.5;
    x.l *= 0.5;
    ++k;
  }
  double r = x.h;
  double T = 1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0 + r * (1.0 / 40320.0 +
             r * (1.0 / 362880.0 + r * (1.0 / 3628800.0)))));
  ib_dd c = ib_dd_add(ib_dd{0.041666666666666664, 2.3129646346357427e-18}, ib_dd_mul_d(x, T));
  c = ib_dd_add(ib_dd{0.16666666666666666, 9.25185853854297e-18}, ib_dd_mul(x, c));
  c = ib_dd_add_d(ib_dd_mul(x, c), 0.5);
  c = ib_dd_add_d(ib_dd_mul(x, c), 1.0);
  ib_dd m = ib_dd_mul(x, c);
  for (int i = 0; i < k; ++i) m = ib_dd_add(ib_dd_add(m, m), ib_dd_mul(m, m));
  return m;
}

// log(m) for m in [1/sqrt 2, sqrt 2] to double-double precision (relative
// error about 1e-25): with t = (m - 1) / (m + 1) (|t| <= 0.172),
// log m = 2 atanh t = 2 t (1 + u/3 + u^2/5 + ...), u = t^2 (DLMF 4.6.4),
// the first four terms in double-double and the rest (below 8e-7 of the
// sum) in double.
__device__ inline ib_dd ib_dd_log_core(ib_dd m) {
  ib_dd t = ib_dd_div(ib_dd_add_d(m, -1.0), ib_dd_add_d(m, 1.0));
  ib_dd u = ib_dd_mul(t, t);
  double v = u.h;
  double T = 1.0 / 33.0;
  T = 1.0 / 31.0 + v * T;
  T = 1.0 / 29.0 + v * T;
  T = 1.0 / 27.0 + v * T;
  T = 1.0 / 25.0 + v * T;
  T = 1.0 / 23.0 + v * T;
  T = 1.0 / 21.0 + v * T;
  T = 1.0 / 19.0 + v * T;
  T = 1.0 / 17.0 + v * T;
  T = 1.0 / 15.0 + v * T;
  T = 1.0 / 13.0 + v * T;
  T = 1.0 / 11.0 + v * T;
  T = 1.0 / 9.0 + v * T;
  ib_dd c = ib_dd_add(ib_dd{0.14285714285714285, 7.93016446160826e-18}, ib_dd_mul_d(u, T));
  c = ib_dd_add(ib_dd{0.2, -1.1102230246251566e-17}, ib_dd_mul(u, c));
  c = ib_dd_add(ib_dd{0.3333333333333333, 1.850371707708594e-17}, ib_dd_mul(u, c));
  c = ib_dd_add_d(ib_dd_mul(u, c), 1.0);
  return ib_dd_mul_d(ib_dd_mul(t, c), 2.0);
}

// p(z) = sum_{k>=2} (-1)^k (zeta(k) - 1) / k z^(k-2) for |z| <= 0.6, the
// first four coefficients in double-double (the terms from k = 6 on sum to
// below 5e-4 at |z| = 0.6, so that z^2 p is good to 2e-20 absolutely).
__device__ inline ib_dd ib_dd_zeta_poly(double z) {
  double t = ib_zeta_tail(z);
  for (int k = 10; k >= 6; --k) {
    double h, l;
    ib_zeta_head(k, h, l);
    t = h - z * t;
  }
  ib_dd p{t, 0.0};
  for (int k = 5; k >= 2; --k) {
    double h, l;
    ib_zeta_head(k, h, l);
    p = ib_dd_add(ib_dd{h, l}, ib_dd_mul_d(p, -z));
  }
  return p;
}

// log(v) for any finite v > 0 (v.h may be denormal) to double-double
// precision: v = m 2^e with m in [1/sqrt 2, sqrt 2), e ln 2 + log(m).
__device__ inline ib_dd ib_dd_log_any(ib_dd v) {
  int e;
  double m = ::frexp(v.h, &e);
  if (m < 0.7071067811865476) {
    m *= 2.0;
    --e;
  }
  ib_dd lm = ib_dd_log_core(ib_dd_norm(m, ::ldexp(v.l, -e)));
  return ib_dd_add(lm, ib_dd_mul_d(ib_dd{0.6931471805599453, 2.3190468138462996e-17}, (double)e));
}

// e^L 2^ks for a double-double L, rounded once (but for a denormal result,
// which ldexp rounds again): L = k ln 2 + r, |r| <= 0.35, e^r = 1 +
// expm1(r) in double-double.
__device__ inline double ib_dd_exp(ib_dd L, int ks) {
  if (is_nan(L.h)) return L.h;
  if (L.h < -1200.0) return 0.0;
  if (L.h > 1200.0) return inf();
  double k = ::rint(L.h * 1.4426950408889634);
  ib_dd r = ib_dd_add(L, ib_dd_neg(ib_dd_mul_d(ib_dd{0.6931471805599453, 2.3190468138462996e-17}, k)));
  ib_dd e = ib_dd_add_d(ib_dd_expm1(r), 1.0);
  return ::ldexp(e.h + e.l, (int)k + ks);
}

// lgamma(1 + a) = poly + log(num / den) for 0 <= a <= 20 by DLMF 5.7.3:
// for a' < 0.4, -gamma a' + a'^2 p(a') + a' - log(1 + a'); for
// 0.4 <= a' <= 1.6, with e = a' - 1 (exact) and lgamma(1 + a') =
// log(1 + e) + lgamma(1 + e), the logarithms cancel: e (1 - gamma) +
// e^2 p(e); a above 1.6 shifted down to a' by the recurrence (DLMF 5.5.1),
// log(a (a - 1) ... (a' + 1)) (each factor exact). Returns poly; num is
// multiplied by the recurrence's product and den by 1 + a' (a' < 0.4), so
// that a caller takes one logarithm for several.
__device__ inline ib_dd ib_dd_lgamma1p_split(double a, ib_dd& num, ib_dd& den) {
  const ib_dd euler{0.5772156649015329, -4.942915152430645e-18};
  const ib_dd one_m_euler{0.42278433509846713, 4.942915152430645e-18};
  while (a > 1.6) {
    num = ib_dd_mul_d(num, a);
    a -= 1.0;
  }
  if (a >= 0.4) {
    double e = a - 1.0;
    ib_dd s = ib_dd_add(one_m_euler, ib_dd_mul_d(ib_dd_zeta_poly(e), e));
    return ib_dd_mul_d(s, e);
  }
  ib_dd s = ib_dd_mul_d(ib_dd_add(ib_dd_neg(euler), ib_dd_mul_d(ib_dd_zeta_poly(a), a)), a);
  double oh, ol;
  ib_two_sum(1.0, a, oh, ol);
  den = ib_dd_mul(den, ib_dd{oh, ol});
  return ib_dd_add_d(s, a);
}

// lgamma(1 + a) for 0 <= a <= 20 to double-double precision.
__device__ inline ib_dd ib_dd_lgamma1p(double a) {
  ib_dd num{1.0, 0.0}, den{1.0, 0.0};
  ib_dd p = ib_dd_lgamma1p_split(a, num, den);
  return ib_dd_add(p, ib_dd_log_any(ib_dd_div(num, den)));
}

// mu(z + a) - mu(z) for z >= 10, a >= 0, without the cancellation of the
// two values (each about 1 / (12 z)): with r = 1 / (z + a), s = 1 / z,
// r^n - s^n = (r - s) sum_{j<n} r^j s^(n-1-j), r - s = -a r s, term by
// term of ib_mu's series.
__device__ inline double ib_mu_diff(double z, double a) {
  double r = 1.0 / (z + a), s = 1.0 / z;
  const double c[10] = {1.0 / 12.0,          -1.0 / 360.0,          1.0 / 1260.0,
                        -1.0 / 1680.0,       1.0 / 1188.0,          -691.0 / 360360.0,
                        1.0 / 156.0,         -3617.0 / 122400.0,    43867.0 / 244188.0,
                        -174611.0 / 125400.0};
  double h = 1.0, sn = 1.0, acc = 0.0;  // h = h_n, sn = s^(n-1)
  for (int n = 1; n <= 19; ++n) {
    if (n & 1) acc += c[n >> 1] * h;
    sn *= s;
    h = r * h + sn;
  }
  return -a * r * s * acc;
}

// The front factor of DLMF 8.17.22: x^a y^b / (a B(a, b)) for a, b > 0
// finite, with x = xh + xl and y = yh + yl (double-doubles, x + y = 1).
// scale multiplies the result (a power of 2 that keeps a front factor
// out of the denormals, see ib_front_cf). Its logarithm is summed in
// double-double arithmetic and exponentiated once (ib_dd_exp), so that
// the factor is good to about half an ulp (as a product of powers, exp,
// sqrt and tgamma it was off by up to 4 eps, 2.4 at the 99th percentile
// of the host's libm, and by more of libdevice's). With s = a + b:
//   a, b >= 10: (x s / a)^a (y s / b)^b sqrt(b / (2 pi a s))
//               exp(mu(s) - mu(a) - mu(b)) (Stirling's formula DLMF 5.11.3
//               with its correction mu, DLMF 5.11.1, the powers of ratios
//               near 1 taking no digits from the large exponents),
//   b >= 10 > a: (x s)^a (y s / b)^b sqrt(b / s) e^-a exp(mu(s) - mu(b))
//               / Gamma(a + 1),
//   a >= 10 > b: the mirror image, times b / a,
//   else x^a y^b Gamma(1 + s) b / (Gamma(1 + a) Gamma(1 + b) s),
// lgamma(1 + .) by ib_dd_lgamma1p_split (the logarithms of its products
// gathered into one) and s = a + b kept as a double-double (its low part
// through psi, lgamma(1 + s) = lgamma(1 + sh) + sl psi(1 + sh)).
__device__ __noinline__ double ib_front(double a, double b, double x, double xl, double y, double yl,
                                        double scale = 1.0) {
  if (!(x > 0.0) || !(y > 0.0)) return 0.0;  // x^a or y^b with a, b > 0
  double sh, sl;
  ib_two_sum(a, b, sh, sl);
  const ib_dd s{sh, sl};
  int ks = ::ilogb(scale);
  ib_dd L;
  if (a >= 10.0 || b >= 10.0) {
    double q1h, q1l, q2h, q2l;
    ib_ratio(x, xl, sh, sl, a >= 10.0 ? a : 1.0, q1h, q1l);
    ib_ratio(y, yl, sh, sl, b >= 10.0 ? b : 1.0, q2h, q2l);
    if (!(q1h > 0.0) || !(q2h > 0.0)) return 0.0;  // x s or y s underflowed
    L = ib_dd_add(ib_dd_mul_d(ib_dd_log_any(ib_dd{q1h, q1l}), a),
                  ib_dd_mul_d(ib_dd_log_any(ib_dd{q2h, q2l}), b));
    ib_dd r, rest;
    if (a >= 10.0 && b >= 10.0) {
      // log(b / (a s)) / 2 - log(2 pi) / 2 + mu(s) - mu(a) - mu(b); b / (a s)
      // as (b / s) / a, split where that would be denormal (a ~ 1e300).
      r = ib_dd_div_d(ib_dd_div(ib_dd{b, 0.0}, s), a);
      rest = ib_dd_add_d(ib_dd{-0.9189385332046728, 3.8782941580672414e-17}, ib_mu_diff(a, b) - ib_mu(b));
      if (!(r.h > 1e-290)) {
        r = ib_dd_div(ib_dd{b, 0.0}, s);
        rest = ib_dd_add(rest, ib_dd_mul_d(ib_dd_log_any(ib_dd{a, 0.0}), -0.5));
      }
    } else if (b >= 10.0) {
      // log(b / s) / 2 - a + mu(s) - mu(b) - lgamma(1 + a)
      ib_dd num{1.0, 0.0}, den{1.0, 0.0};
      ib_dd pa = ib_dd_lgamma1p_split(a, num, den);
      ib_dd dn = ib_dd_div(den, num);
      r = ib_dd_mul(ib_dd_div(ib_dd{b, 0.0}, s), ib_dd_mul(dn, dn));
      rest = ib_dd_add_d(ib_dd_add_d(ib_dd_neg(pa), -a), ib_mu_diff(b, a));
    } else {
      // log(a / s) / 2 - b + mu(s) - mu(a) + log(b / a) - lgamma(1 + b)
      // (log(b / a) apart where b / a would be denormal).
      ib_dd num{1.0, 0.0}, den{1.0, 0.0};
      ib_dd pb = ib_dd_lgamma1p_split(b, num, den);
      ib_dd dn = ib_dd_div(den, num);
      ib_dd ba = ib_dd_div(ib_dd{b, 0.0}, ib_dd{a, 0.0});
      rest = ib_dd_add_d(ib_dd_add_d(ib_dd_neg(pb), -b), ib_mu_diff(a, b));
      if (ba.h > 1e-290) {
        dn = ib_dd_mul(dn, ba);
      } else {
        rest = ib_dd_add(rest, ib_dd_add(ib_dd_log_any(ib_dd{b, 0.0}), ib_dd_neg(ib_dd_log_any(ib_dd{a, 0.0}))));
      }
      r = ib_dd_mul(ib_dd_div(ib_dd{a, 0.0}, s), ib_dd_mul(dn, dn));
    }
    L = ib_dd_add(L, ib_dd_add(ib_dd_mul_d(ib_dd_log_any(r), 0.5), rest));
  } else {
    // Both tiny: (b / s) Gamma(1 + s) / (Gamma(1 + a) Gamma(1 + b)) ~ b / s.
    if (sh < 1e-300) return ib_pow_prod(x, xl, a, y, yl, b, (b / sh) * scale);
    L = ib_dd_add(ib_dd_mul_d(ib_dd_log_any(ib_dd_norm(x, xl)), a),
                  ib_dd_mul_d(ib_dd_log_any(ib_dd_norm(y, yl)), b));
    ib_dd ns{1.0, 0.0}, ds{1.0, 0.0}, nab{1.0, 0.0}, dab{1.0, 0.0};
    ib_dd ps = ib_dd_lgamma1p_split(sh, ns, ds);
    ib_dd pab = ib_dd_add(ib_dd_lgamma1p_split(a, nab, dab), ib_dd_lgamma1p_split(b, nab, dab));
    ib_dd r = ib_dd_div(ib_dd_mul_d(ib_dd_mul(ns, dab), b), ib_dd_mul(ib_dd_mul(ds, nab), s));
    double psl = (sl == 0.0) ? 0.0 : sl * ib_psi_rough(1.0 + sh);
    L = ib_dd_add(L, ib_dd_add_d(ib_dd_add(ib_dd_add(ps, ib_dd_neg(pab)), ib_dd_log_any(r)), psl));
  }
  return ib_dd_exp(L, ks);
}

// lgamma(b + a) - lgamma(b) - a log b for b > 0 and 0 <= a (the part of
// ib_lgamma_diff beyond its leading a log b, so that a caller can fold
// that into a log(b x) without cancellation). With L(u) = log(1 + u) - u:
// each shift b -> b + 1 (DLMF 5.5.1) adds a L(1/b) - L(a/b), and at
// B >= 10 Stirling's form gives a (a - 1/2) / B + (B + a - 1/2) L(a/B)
// + mu(B + a) - mu(B); no term cancels its neighbour when a is small.
__device__ inline double ib_lgamma_diff_rel(double b, double a) {
  double sum = 0.0;
  int n = 0;
  while (b < 10.0 && n < 12) {
    sum += a * ib_log1pmx(1.0 / b) - ib_log1pmx(a / b);
    b += 1.0;
    ++n;
  }
  return sum + a * (a - 0.5) / b + (b + a - 0.5) * ib_log1pmx(a / b) + ib_mu_diff(b, a);
}

// 1 - I_x(a, b) where I_x(a, b) is near 1 for a small (a up to about 4, x
// below the transition):
// with K = Gamma(a + b) / (Gamma(a + 1) Gamma(b)) = 1 / (a B(a, b)) and the
// power series I_x(a, b) = x^a K (1 + a S), S = sum_{n>=1} (1-b)_n x^n /
// (n! (a + n)) (DLMF 8.17.8, in the form of DiDonato-Morris' BPSER),
//   1 - I = -(u + v + u v),  u = expm1(E),  v = a S,  E = log(x^a K)
//         = a log(b x) + [lgamma(a + b) - lgamma(b) - a log b] - lgamma(1 + a),
// the bracket by ib_lgamma_diff_rel. Where b x is of order 1 u and v
// cancel (as in -gamma - log c + Ein(c) = E1(c), the limit b -> inf: by
// 6 at b x = 1, 50 at 2), so u, v and E are carried as double-doubles
// (log(b x) from the exact product b x, lgamma(1 + a), S, expm1): the
// result is then good to about an ulp, where doubles left up to 50
// (1 - I_0.00026(0.73, 6360) was 25 ulps off).
__device__ __noinline__ double ib_small_a_upper(double a, double b, double x, double xl) {
  double xb = x * b;
  bool dd = xb > 0.125 && xb < 16.0 && a <= 8.0;
  if (!dd) {
    // No cancellation (b x small): doubles.
    double lxb = (xb > 1e-300 && xb < 1e300) ? ::log(xb) + xl / x : ::log(x) + xl / x + ::log(b);
    double lg1 = (a <= 0.6) ? ib_lgamma1p_small(a) : ib_lgamma_diff(1.0, a);
    double E = a * lxb + ib_lgamma_diff_rel(b, a) - lg1;
    double t = 1.0, S = 0.0;
    for (int n = 1; n < 2000; ++n) {
      t *= (n - b) * x / n;
      double term = t / (a + n);
      S += term;
      if (::fabs(term) <= 1e-17 * ::fabs(S)) break;
    }
    return -::expm1(E) - ::exp(E) * a * S;
  }
  ib_dd xx = ib_dd_norm(x, xl);
  ib_dd lxb = ib_dd_log_any(ib_dd_mul_d(xx, b));
  ib_dd E = ib_dd_add(ib_dd_add_d(ib_dd_mul_d(lxb, a), ib_lgamma_diff_rel(b, a)),
                      ib_dd_neg(ib_dd_lgamma1p(a)));
  ib_dd t{1.0, 0.0}, S{0.0, 0.0};
  for (int n = 1; n < 2000; ++n) {
    double nb, nbl;
    ib_two_sum((double)n, -b, nb, nbl);  // n - b exactly
    t = ib_dd_mul(t, ib_dd_div_d(ib_dd_mul(ib_dd{nb, nbl}, xx), (double)n));
    double an, anl;
    ib_two_sum(a, (double)n, an, anl);
    ib_dd term = ib_dd_div(t, ib_dd{an, anl});
    S = ib_dd_add(S, term);
    // The terms fall at least as x^n: the tail is below 1e-25 of S, well
    // under what the cancellation of u and v (a factor up to 50) exposes.
    if (::fabs(term.h) <= 1e-25 * ::fabs(S.h)) break;
  }
  ib_dd u = (::fabs(E.h) <= 30.0) ? ib_dd_expm1(E) : ib_dd{::expm1(E.h), 0.0};
  ib_dd v = ib_dd_mul_d(S, a);
  ib_dd r = ib_dd_add(ib_dd_add(u, v), ib_dd_mul(u, v));
  return -(r.h + r.l);
}

// The continued fraction of DLMF 8.17.22, 1 / (1 + d1 / (1 + d2 / ...)),
// for x < (a + 1) / (a + b + 2), where it converges in O(sqrt(min(a, b)))
// terms; x = x + xl, y = 1 - x = y + yl double-doubles. Its even part
// (the contraction of Jones-Thron / Lorentzen-Waadeland, 1 + d1 / (1 + d2
// - d2 d3 / (1 + d3 + d4 - d4 d5 / ...))) is summed by the modified Lentz
// method with its partial denominators in terms of
// lambda = a - (a + b) x (DiDonato-Morris' variable):
//   1 + d_{2m+1} = ((a + m) lambda + a (2m + 1) + m (3m + 2) + m (a + m) y)
//                  / ((a + 2m) (a + 2m + 1)),
// which is free of the cancellation of 1 - (a + m)(a + b + m) x / ... when
// x is near 1 (a large, b moderate), where a rounded x would cost
// digits in proportion to 1 / (1 - x). Lentz's D = 1 / (beta + alpha D)
// and the running product R are kept as double-doubles: near the
// transition (a and b large, x near a / (a + b), the fraction of order
// sqrt(a)) beta + alpha D cancels, and a D rounded to a double at each of
// the O(sqrt(a)) steps cost up to 9 eps (8.9 at I_0.843(75101, 13942)),
// as did the product's roundings; C = beta + alpha / C does not cancel
// there and stays a double.
__device__ __noinline__ double ib_cf(double a, double b, double x, double xl, double y) {
  // lambda = a - (a + b) x in double-double arithmetic.
  double sh, sl;
  ib_two_sum(a, b, sh, sl);
  double ph = __dmul_rn(sh, x), pl = ::fma(sh, x, -ph) + (sl * x + sh * xl);
  double lh, ll;
  ib_two_sum(a, -ph, lh, ll);
  double lam = lh + (ll - pl);
  // d_{2m+2} and 1 + d_{2m+1} (m >= 0).
  double d2 = (1.0 / (a + 1.0)) * ((b - 1.0) / (a + 2.0)) * x;
  double beta1 = 1.0 + d2;                          // 1 + d2
  double beta0 = (1.0 + lam) / (a + 1.0) + d2;      // 1 + d1 + d2
  // R = alpha_1 / (beta_2 + alpha_2 / (beta_3 + ...)), alpha_k = -d_{2k} d_{2k+1},
  // beta_{k+1} = 1 + d_{2k+1} + d_{2k+2}.
  const double tiny = 1e-300;
  double Rh = tiny, Rl = 0.0, C = tiny, Dh = 0.0, Dl = 0.0;
  double d_even = d2;  // d_{2k}
  for (int k = 1; k <= 100000; ++k) {
    // Written as products of ratios: no overflow for a or b up to 1e308.
    double m = (double)k;
    double r1 = (a + m) / (a + 2.0 * m);
    double d_odd = -(r1 * ((a + b + m) / (a + 2.0 * m + 1.0))) * x;
    double alpha = -d_even * d_odd;
    double one_odd = r1 * ((lam + m * y) / (a + 2.0 * m + 1.0)) +
                     (a / (a + 2.0 * m)) * ((2.0 * m + 1.0) / (a + 2.0 * m + 1.0)) +
                     (m / (a + 2.0 * m)) * ((3.0 * m + 2.0) / (a + 2.0 * m + 1.0));
    double d_next = ((m + 1.0) / (a + 2.0 * m + 1.0)) * ((b - m - 1.0) / (a + 2.0 * m + 2.0)) * x;
    double bet = one_odd + d_next;
    double th, tl;
    ib_dd_fma_d(Dh, Dl, alpha, bet, th, tl);  // beta + alpha D
    if (th == 0.0) {
      th = tiny;
      tl = 0.0;
    }
    ib_d_div_dd(1.0, th, tl, Dh, Dl);
    C = bet + alpha / C;
    if (C == 0.0) C = tiny;
    double dh, dl;
    ib_dd_fma_d(Dh, Dl, C, 0.0, dh, dl);  // del = C D
    ib_dd_mul(Rh, Rl, dh, dl, Rh, Rl);
    if (::fabs(dh - 1.0) < IB_EPS) break;
    d_even = d_next;
  }
  return (beta1 + Rh) / (beta0 + Rh);
}

// front factor times the continued fraction, I_x(a, b) for x below the
// transition: a front factor below 1e-280 (a large, divided by a; the
// fraction is then of order a) is recomputed scaled by 2^600 so that its
// digits are not lost to the denormals.
__device__ __noinline__ double ib_front_cf(double a, double b, double x, double xl, double y,
                                     double yl) {
  double f = ib_front(a, b, x, xl, y, yl);
  if (f == 0.0) return 0.0;
  if (f < 1e-280) {
    const double up = 4.149515568880993e+180, down = 2.409919865102884e-181;  // 2^600, 2^-600
    double fs = ib_front(a, b, x, xl, y, yl, up);
    return (fs * ib_cf(a, b, x, xl, y)) * down;
  }
  return f * ib_cf(a, b, x, xl, y);
}

// Temme's uniform expansion for large a and b (DLMF 8.18.8-8.18.9 in the
// symmetric variables of Temme, "Special functions", 11.3.3): with
// s = a + b, x0 = a / s, -eta^2 / 2 = x0 log(x / x0) + y0 log(y / y0),
// sign(eta) = sign(x - x0),
//   1 - I_x(a, b) = erfc(eta sqrt(s / 2)) / 2
//                   + exp(-s eta^2 / 2) / sqrt(2 pi s) (c0(eta) + O(1/s)),
//   c0 = 1 / eta - sqrt(x0 y0) / (x - x0)
// (removable at x = x0: c0 -> (y0 - x0) / (3 sqrt(x0 y0))).
__device__ __noinline__ void ib_temme(double a, double b, double x, double y, double& w, double& w1) {
  double s = a + b, x0 = a / s, y0 = b / s;
  double d = x - x0;
  double e2 = -2.0 * (x0 * ib_log1pmx(d / x0) + y0 * ib_log1pmx(-d / y0));
  double eta = ::sqrt(::fmax(e2, 0.0));
  if (d < 0) eta = -eta;
  double c0;
  double r = d / ::sqrt(x0 * y0);
  if (::fabs(r) < 1e-3) {
    c0 = (y0 - x0) / (3.0 * ::sqrt(x0 * y0));
  } else {
    c0 = 1.0 / eta - 1.0 / r;
  }
  double z = eta * ::sqrt(0.5 * s);
  double corr = ::exp(-z * z) * IB_INV_SQRT_2PI / ::sqrt(s) * c0;
  // Upper tail Q = 1 - I.
  double q = 0.5 * ::erfc(z) + corr, p = 0.5 * ::erfc(-z) - corr;
  w = p;
  w1 = q;
}

// I_x(a, b) (w) and 1 - I_x(a, b) (w1) for finite a, b > 0 and
// 0 < x < 1, x = x + xl and y = 1 - x = y + yl as double-doubles; the
// smaller of the two is computed directly, the other as 1 minus it.
__device__ __noinline__ void ib_core(double a, double b, double x, double xl, double y, double yl,
                               double& w, double& w1) {
  if (a > 1e11 && b > 1e11) {
    ib_temme(a, b, x, y, w, w1);
    return;
  }
  // x < (a + 1) / (a + b + 2), decided on the smaller of x and y (x may
  // round to 1 when y is tiny).
  bool lower = (x <= 0.5) ? (x < (a + 1.0) / (a + b + 2.0)) : (y > (b + 1.0) / (a + b + 2.0));
  if (lower) {
    w = ib_front_cf(a, b, x, xl, y, yl);
    if (w > 1.0) w = 1.0;
    w1 = 1.0 - w;
    // w near 1 (a small): the complement directly, by the series (in
    // double-double for a <= 8, where it is good to an ulp for any b x
    // below the transition, which the complement's fraction is not: up to
    // 16 ulps at b x = 0.5, its value of order sqrt(b) there).
    if (w > 0.75) w1 = (b * x < 0.5 || a <= 8.0 || (x < 1e-3 && !(y < (b + 1.0) / (a + b + 2.0))))
                        ? ib_small_a_upper(a, b, x, xl)
                                                 : ib_front_cf(b, a, y, yl, x, xl);
  } else {
    w1 = ib_front_cf(b, a, y, yl, x, xl);
    if (w1 > 1.0) w1 = 1.0;
    w = 1.0 - w1;
    if (w1 > 0.75) w = (a * y < 0.5 || b <= 8.0 || (y < 1e-3 && !(x < (a + 1.0) / (a + b + 2.0))))
                         ? ib_small_a_upper(b, a, y, yl)
                                                 : ib_front_cf(a, b, x, xl, y, yl);
  }
}

// The special values of SciPy's betainc / betaincc (Boost's ibeta with
// SciPy's conventions): returns true and sets w, w1 when (a, b, x) is one.
__device__ inline bool ib_special(double a, double b, double x, double& w, double& w1) {
  double n = nan();
  if (is_nan(a) || is_nan(b) || is_nan(x) || a < 0 || b < 0 || x < 0 || x > 1 ||
      (a == 0 && b == 0) || (is_inf(a) && is_inf(b))) {
    w = w1 = n;
    return true;
  }
  if (x == 0) {
    w = 0.0;
    w1 = 1.0;
    return true;
  }
  if (x == 1) {
    w = 1.0;
    w1 = 0.0;
    return true;
  }
  if (a == 0 || is_inf(b)) {
    w = 1.0;
    w1 = 0.0;
    return true;
  }
  if (b == 0 || is_inf(a)) {
    w = 0.0;
    w1 = 1.0;
    return true;
  }
  return false;
}

// betainc's pair at (a, b, x): x exact, y = 1 - x as a double-double.
__device__ __noinline__ void ib_pair(double a, double b, double x, double& w, double& w1) {
  if (ib_special(a, b, x, w, w1)) return;
  double y, yl;
  ib_two_sum(1.0, -x, y, yl);
  ib_core(a, b, x, 0.0, y, yl, w, w1);
}

}  // namespace detail

// ---------------------------------------------------------------- beta

namespace detail {

// Gamma(x) > 0? (x not a non-positive integer.)
__device__ inline double ib_gamma_sign(double x) {
  if (x > 0) return 1.0;
  double f = ::floor(x);
  return (::fmod(f, 2.0) == 0.0) ? 1.0 : -1.0;
}

// Cephes' lgam for the special values it reaches in beta's branches:
// log|Gamma(x)| with inf for 0 < x < 1 / DBL_MAX (its 1 / x overflows).
__device__ inline double ib_lgam(double x) {
  if (x > 0 && x < 5.5626846462680035e-309) return inf();
  if (is_inf(x)) return inf();
  return ::lgamma(x);
}

// B(a, b) for a >= b > 0 finite, accurate: see the header comment.
__device__ inline double ib_beta_pos(double a, double b) {
  double sh, sl;
  ib_two_sum(a, b, sh, sl);
  if (a < 10.0) {
    // Gamma(a) Gamma(b) / Gamma(a + b) = 1 / (b * (Gamma(a + b) / (Gamma(1 + b) Gamma(a)))).
    return 1.0 / (b * ib_inv_abeta_small(b, a, sh, sl));
  }
  if (b < 10.0) {
    // Gamma(b) e^b (a + b)^-b (a / (a + b))^(a - 1/2) exp(mu(a) - mu(a + b)).
    double rh = a / sh, rl = (::fma(-rh, sh, a) - rh * sl) / sh;  // a / (a + b)
    double p = ib_pow_dd(rh, rl, a) / ::sqrt(rh);
    double g = (b < 1e-300) ? 1.0 / b : ::tgamma(b);
    double t = ib_pow_dd(sh, sl, -b);
    return g * ::exp(b) * t * p * ::exp(ib_mu(a) - ib_mu(sh));
  }
  // sqrt(2 pi) sqrt((a + b) / (a b)) x0^a y0^b exp(-(mu(a + b) - mu(a) - mu(b))).
  double xh = a / sh, xl = (::fma(-xh, sh, a) - xh * sl) / sh;
  double yh = b / sh, yl = (::fma(-yh, sh, b) - yh * sl) / sh;
  double t = ib_pow_dd(xh, xl, a);
  if (t == 0.0) return 0.0;
  t *= ib_pow_dd(yh, yl, b);
  return t * IB_SQRT_2PI * ::sqrt(1.0 / a + 1.0 / b) * ::exp(ib_mu(a) + ib_mu(b) - ib_mu(sh));
}

// log B(a, b) for a >= b > 0 finite.
__device__ inline double ib_betaln_pos(double a, double b) {
  if (a < 10.0) {
    double B = ib_beta_pos(a, b);
    if (B > 1e-300 && B < 1e300) return ::log(B);
    // b tiny: log((1/a + 1/b) G).
    // B = 1 / (b K), K = Gamma(a + b) / (Gamma(1 + b) Gamma(a)).
    double sh, sl;
    ib_two_sum(a, b, sh, sl);
    return -::log(b) - ::log(ib_inv_abeta_small(b, a, sh, sl));
  }
  double s = a + b;
  if (b < 10.0) {
    // lgamma(b) + b - b log(a + b) - (a - 1/2) log1p(b / a) + mu(a) - mu(a + b).
    double lg = (b < 1e-300) ? -::log(b) : ::lgamma(b);
    return lg + (b - b * ::log(s) - (a - 0.5) * ::log1p(b / a)) + (ib_mu(a) - ib_mu(s));
  }
  // log(2 pi) / 2 + log(1/a + 1/b) / 2 - a log1p(b / a) - b log1p(a / b) - dmu.
  return IB_LOG_SQRT_2PI + 0.5 * ::log(1.0 / a + 1.0 / b) -
         (a * ::log1p(b / a) + b * ::log1p(a / b)) + (ib_mu(a) + ib_mu(b) - ib_mu(s));
}

// Cephes' asymptotic-branch corrections, evaluated as Cephes does only to
// find where they are NaN (its overflows for huge b), which SciPy returns.
__device__ inline bool ib_asymp_nan(double a, double b) {
  double c = b * (1 - b) / (2 * a);
  c += b * (1 - b) * (1 - 2 * b) / (12 * a * a);
  c += -b * b * (1 - b) * (1 - b) / (12 * a * a * a);
  return is_nan(c);
}

// A non-positive integer that fits an int (Cephes' test a == (int)a).
__device__ inline bool ib_negint(double a) { return a <= 0 && a == ::floor(a) && a > -2147483648.0; }
__device__ inline bool ib_int(double b) { return b == ::floor(b) && ::fabs(b) < 2147483648.0; }

// B(a, b) or log|B(a, b)| (lg) for a, b not non-positive integers.
__device__ __noinline__ double ib_beta_general(double a, double b, bool lg) {
  if (is_nan(a) || is_nan(b)) return nan();
  if (::fabs(a) < ::fabs(b)) {
    double t = a;
    a = b;
    b = t;
  }
  if (::fabs(a) > 1e6 * ::fabs(b) && a > 1e6) {
    if (ib_asymp_nan(a, b)) return nan();
    if (is_inf(a)) {
      // lgam(b) - b log(inf): -inf for b > 0 (NaN where lgam(b) is inf).
      if (b > 0) return ib_lgam(b) == inf() ? nan() : (lg ? -inf() : 0.0);
      return lg ? inf() : ib_gamma_sign(b) * inf();
    }
    // Cephes' lgam(b) is inf where its 1 / b overflows.
    if (b > 0 && ib_lgam(b) == inf()) return inf();
    if (b > 0) return lg ? ib_betaln_pos(a, b) : ib_beta_pos(a, b);
    // b < 0 (not an integer), a huge: Gamma(b) Gamma(a) / Gamma(a + b)
    // with Gamma(a) / Gamma(a + b) = a^-b (1 + O(b^2 / a)) (Cephes' series).
    double r = ::lgamma(b) - b * ::log(a) + b * (1 - b) / (2 * a) +
               b * (1 - b) * (1 - 2 * b) / (12 * a * a) -
               b * b * (1 - b) * (1 - b) / (12 * a * a * a);
    return lg ? r : ib_gamma_sign(b) * ::exp(r);
  }
  if (is_inf(a)) return nan();
  if (a > 0 && b > 0) return lg ? ib_betaln_pos(a, b) : ib_beta_pos(a, b);
  // A negative argument (not an integer).
  double s = a + b;
  if (s <= 0 && s == ::floor(s)) {
    // Gamma(a + b) infinite: 0 with the sign of Gamma(a) Gamma(b).
    return lg ? -inf() : ib_gamma_sign(a) * ib_gamma_sign(b) * 0.0;
  }
  if (::fabs(a) < 1.0 && ::fabs(b) < 1.0) {
    // (a + b) / (a b) Gamma(1 + a) Gamma(1 + b) / Gamma(1 + a + b).
    double g = ib_gamma_ratio_small(a, b);
    if (lg) return ::log(::fabs(s)) - ::log(::fabs(a)) - ::log(::fabs(b)) + ::log(::fabs(g));
    return ((s / a) / b) * g;
  }
  double sign = ib_gamma_sign(a) * ib_gamma_sign(b) * ib_gamma_sign(s);
  if (::fabs(s) > 171.6 || ::fabs(a) > 171.6 || ::fabs(b) > 171.6) {
    double y = ::lgamma(a) + ::lgamma(b) - ::lgamma(s);
    if (lg) return y;
    if (y > 709.782712893384) return sign * inf();
    return sign * ::exp(y);
  }
  double gs = ::tgamma(s), ga = ::tgamma(a), gb = ::tgamma(b);
  if (gs == 0.0) return lg ? inf() : sign * inf();
  double y;
  if (::fabs(::fabs(ga) - ::fabs(gs)) > ::fabs(::fabs(gb) - ::fabs(gs))) {
    y = (gb / gs) * ga;
  } else {
    y = (ga / gs) * gb;
  }
  return lg ? ::log(::fabs(y)) : y;
}

// Cephes' beta_negint / lbeta_negint: a a non-positive integer.
__device__ inline double ib_beta_negint(double a, double b, bool lg) {
  if (ib_int(b) && 1.0 - a - b > 0) {
    double sgn = (::fmod(b, 2.0) == 0.0) ? 1.0 : -1.0;
    double c = 1.0 - a - b;
    // beta(c, b) with c a positive integer: b <= 0 is itself a negative
    // integer whose beta_negint overflows.
    if (b <= 0) return lg ? inf() : sgn * inf();
    double v = ib_beta_general(c, b, lg);
    return lg ? v : sgn * v;
  }
  return inf();
}

__device__ inline double ib_beta_any(double a, double b, bool lg) {
  if (ib_negint(a)) return ib_beta_negint(a, b, lg);
  if (a <= 0 && a == ::floor(a)) return inf();
  if (ib_negint(b)) return ib_beta_negint(b, a, lg);
  if (b <= 0 && b == ::floor(b)) return inf();
  return ib_beta_general(a, b, lg);
}

}  // namespace detail

// The beta function B(a, b) = Gamma(a) Gamma(b) / Gamma(a + b) (DLMF 5.12.1).
__device__ inline double beta(double a, double b) { return detail::ib_beta_any(a, b, false); }

// log|B(a, b)|.
__device__ inline double betaln(double a, double b) { return detail::ib_beta_any(a, b, true); }

// The regularized incomplete beta function I_x(a, b).
__device__ inline double betainc(double a, double b, double x) {
  double w, w1;
  detail::ib_pair(a, b, x, w, w1);
  return w;
}

// 1 - I_x(a, b).
__device__ inline double betaincc(double a, double b, double x) {
  double w, w1;
  detail::ib_pair(a, b, x, w, w1);
  return w1;
}

namespace detail {

// A first x with I_x(a, b) = t (t < I_{1/2}(a, b), so x <= 1/2): for
// a, b >= 1 Abramowitz-Stegun 26.5.22 (the normal quantile with its
// Cornish-Fisher-like corrections), otherwise the leading term of the power
// series, I_x(a, b) ~ x^a / (a B(a, b)) (DiDonato-Morris 1992, section 3).
__device__ __noinline__ double ib_inv_guess(double a, double b, double t) {
  double z = nan();
  if (a >= 1.0 && b >= 1.0) {
    double yp = -ndtri(t);
    double lam = (yp * yp - 3.0) / 6.0;
    double h = 2.0 / (1.0 / (2.0 * a - 1.0) + 1.0 / (2.0 * b - 1.0));
    double w = yp * ::sqrt(h + lam) / h -
               (1.0 / (2.0 * b - 1.0) - 1.0 / (2.0 * a - 1.0)) * (lam + 5.0 / 6.0 - 2.0 / (3.0 * h));
    z = a / (a + b * ::exp(2.0 * w));
  }
  if (!(z > 0.0 && z < 0.5)) {
    double lb = betaln(a, b);
    z = ::exp((::log(t) + ::log(a) + lb) / a);
  }
  if (!(z > 0.0 && z <= 0.5)) z = 0.25;
  return z;
}

// Solves I_x(a, b) = t (1 - I_x(a, b) = tc, both given accurately) for
// finite a, b > 0 and 0 < t < 1: x and xc = 1 - x. The root is sought on
// the side of 1/2 it lies (I_z(b, a) = tc for z = 1 - x above it), by
// Newton's method on log I against log z (I ~ C z^a in the tail), or on
// log(1 - I) when the target there is above 1/2 (its complement is the
// accurate one), kept in a bracket that is bisected (geometrically over
// wide ranges) when a step leaves it; at most 200 steps. A target below
// 1e-280 (in or near the denormals, where I or 1 - I itself keeps few
// digits) is compared scaled by 2^600 with the front factor times the
// fraction scaled alike (ib_front_cf without its final 2^-600) wherever
// z is on the side of the fraction's transition where that is how the
// targeted I (below it) or 1 - I (above it) is computed.
__device__ __noinline__ void ib_inv(double a, double b, double t, double tc, double& x, double& xc) {
  double ph, ph1;
  ib_pair(a, b, 0.5, ph, ph1);
  // Decide with the smaller (accurate) of t and tc.
  bool flip = (t <= 0.5) ? (t > ph) : (tc < ph1);
  double A = flip ? b : a, B = flip ? a : b, T = flip ? tc : t, TC = flip ? t : tc;
  bool use_c = T > 0.5;
  {
    // A root so small that I = z^A / (A B(A, B)) (1 + O(B z)) to double
    // precision (a target in or near the denormals, where I itself loses
    // digits): the leading term solved directly.
    double z0 = ::exp((::log(T) + ::log(A) + betaln(A, B)) / A);
    if (!use_c && z0 * (1.0 + B) < 1e-17) {
      x = flip ? 1.0 - z0 : z0;
      xc = flip ? z0 : 1.0 - z0;
      return;
    }
  }
  double z = ib_inv_guess(A, B, use_c ? 0.5 : T);
  double lo = 0.0, hi = 0.5;
  const double up = 4.149515568880993e+180;  // 2^600
  bool tiny = (use_c ? TC : T) < 1e-280 && !(A > 1e11 && B > 1e11);
  const double trans = (A + 1.0) / (A + B + 2.0);
  for (int it = 0; it < 200; ++it) {
    double zy, zyl;
    ib_two_sum(1.0, -z, zy, zyl);
    double w, w1, fp, Tt = T, TCt = TC;
    if (tiny && !use_c && z < trans) {
      // w, fp and the target all times 2^600.
      fp = ib_front(A, B, z, 0.0, zy, zyl, up);
      w = fp * ib_cf(A, B, z, 0.0, zy);
      w1 = 1.0;
      fp *= A;
      Tt = T * up;
    } else if (tiny && use_c && !(z < trans)) {
      // 1 - I = I_{1-z}(B, A) with its front factor (which is fp / B).
      fp = ib_front(B, A, zy, zyl, z, 0.0, up);
      w1 = fp * ib_cf(B, A, zy, zyl, z);
      w = 1.0;
      fp *= B;
      TCt = TC * up;
    } else {
      ib_core(A, B, z, 0.0, zy, zyl, w, w1);
      // z I'(z) = fp / (1 - z): I'(z) = z^(A-1) (1-z)^(B-1) / B(A, B).
      fp = ib_front(A, B, z, 0.0, zy, zyl) * A;
    }
    if (use_c ? (w1 == TCt) : (w == Tt)) break;
    if (use_c ? (w1 < TCt) : (w > Tt)) {
      hi = z;
    } else {
      lo = z;
    }
    double zn;
    double r = use_c ? w1 : w;
    if (r > 0.0 && fp > 0.0) {
      double du = use_c ? -::log(w1 / TCt) * w1 / fp * zy : ::log(w / Tt) * w / fp * zy;
      zn = z * ::exp(-du);
      if (::fabs(du) < 1e-15) {
        z = (zn > lo && zn < hi) ? zn : z;
        break;
      }
    } else {
      zn = -1.0;
    }
    if (!(zn > lo && zn < hi)) {
      if (lo == 0.0) {
        zn = hi * 0.0625;
      } else {
        zn = (hi > 4.0 * lo) ? ::sqrt(lo * hi) : 0.5 * (lo + hi);
      }
    }
    if (hi - lo <= 2.2e-16 * lo) break;
    z = zn;
    if (z == 0.0) break;
  }
  if (flip) {
    xc = z;
    x = 1.0 - z;
  } else {
    x = z;
    xc = 1.0 - z;
  }
}

}  // namespace detail

namespace detail {

// SciPy's (Boost's) special values of betaincinv / betainccinv: NaN for
// NaN arguments, a or b <= 0 and y outside [0, 1]; then the ends y = 0 and
// y = 1 (whatever a and b); then NaN for an infinite a or b. Returns true
// and sets x when (a, b, y) is one; the lower-tail root is x for
// betaincinv (upper false), 1 - x's tail for betainccinv.
__device__ inline bool ib_inv_special(double a, double b, double y, bool upper, double& x) {
  if (is_nan(a) || is_nan(b) || is_nan(y) || !(a > 0) || !(b > 0) || y < 0 || y > 1) {
    x = nan();
    return true;
  }
  if (y == 0) {
    x = upper ? 1.0 : 0.0;
    return true;
  }
  if (y == 1) {
    x = upper ? 0.0 : 1.0;
    return true;
  }
  if (is_inf(a) || is_inf(b)) {
    x = nan();
    return true;
  }
  return false;
}

}  // namespace detail

// The inverse of betainc in x: I_x(a, b) = y (DiDonato-Morris 1992's
// initial guesses, then the safeguarded Newton iteration of ib_inv).
__device__ inline double betaincinv(double a, double b, double y) {
  double x, xc;
  if (detail::ib_inv_special(a, b, y, false, x)) return x;
  double yc, ycl;
  detail::ib_two_sum(1.0, -y, yc, ycl);
  detail::ib_inv(a, b, y, yc, x, xc);
  return x;
}

// The inverse of betaincc in x: 1 - I_x(a, b) = y, solved with the given
// upper-tail value as the target where the root lies above 1/2 (no digits
// lost to 1 - y).
__device__ inline double betainccinv(double a, double b, double y) {
  double x, xc;
  if (detail::ib_inv_special(a, b, y, true, x)) return x;
  double yc, ycl;
  detail::ib_two_sum(1.0, -y, yc, ycl);
  detail::ib_inv(a, b, yc, y, x, xc);
  return x;
}

// ---------------------------------------------------------- distributions

namespace detail {

// SciPy's conversion of a count to a C int: an int64 wraps to 32 bits; a
// double is truncated, and one outside the int range (or NaN) becomes
// INT_MIN, as the x86 conversion SciPy's legacy wrappers compile to does.
__device__ inline long long ib_wrap_int(long long v) {
  return (long long)(int)(unsigned int)(unsigned long long)v;
}
__device__ inline long long ib_c_int(double v) {
  return (::fabs(v) < 2147483648.0) ? (long long)(int)v : -2147483648LL;
}

// x = u / (u + v) and y = v / (u + v) as double-doubles (x + y = 1 to
// double-double accuracy) for u = uh + ul, v = vh + vl >= 0 finite: the
// smaller one by a corrected division, the other as 1 minus it.
__device__ inline void ib_split(double uh, double ul, double vh, double vl, double& x, double& xl,
                                double& y, double& yl) {
  double sh, sl;
  ib_two_sum(uh, vh, sh, sl);
  sl += ul + vl;
  bool small_u = uh <= vh;
  double nh = small_u ? uh : vh, nl = small_u ? ul : vl;
  double q = nh / sh;
  double ql = (::fma(-q, sh, nh) + nl - q * sl) / sh;
  double rh, rl;
  ib_two_sum(1.0, -q, rh, rl);
  rl -= ql;
  double r = rh + rl;
  rl = rl - (r - rh);
  if (small_u) {
    x = q; xl = ql; y = r; yl = rl;
  } else {
    y = q; yl = ql; x = r; xl = rl;
  }
}

// I_x(a, b) (w) and its complement (w1) with Cephes' incbet conventions,
// which the distributions call: NaN for NaN, a or b <= 0 or infinite;
// 0 and 1 at the ends. x = x + xl, y = 1 - x = y + yl.
__device__ __noinline__ void ib_dist_pair(double a, double b, double x, double xl, double y, double yl,
                                    double& w, double& w1) {
  if (is_nan(a) || is_nan(b) || is_nan(x) || is_nan(y) || !(a > 0) || !(b > 0) || is_inf(a) ||
      is_inf(b)) {
    w = w1 = nan();
    return;
  }
  if (x <= 0.0) {
    w = 0.0;
    w1 = 1.0;
    return;
  }
  if (y <= 0.0) {
    w = 1.0;
    w1 = 0.0;
    return;
  }
  ib_core(a, b, x, xl, y, yl, w, w1);
}

// I_p(a, b) and its complement at an exact p.
__device__ inline void ib_dist_at(double a, double b, double p, double& w, double& w1) {
  double y, yl;
  ib_two_sum(1.0, -p, y, yl);
  ib_dist_pair(a, b, p, 0.0, y, yl, w, w1);
}

// Cephes' bdtr / bdtrc (k floored, n an int): bdtr = I_{1-p}(n - k, k + 1)
// = 1 - I_p(k + 1, n - k), evaluated at the exact p (upper: bdtrc).
__device__ inline double ib_bdtr(double k, long long n, double p, bool upper) {
  if (is_nan(k) || is_nan(p) || p < 0 || p > 1) return nan();
  k = ::floor(k);
  // n below the floored k is a domain error before bdtrc's k < 0 answer
  // (SciPy: bdtrc(-1, -5, 0.3) is NaN, bdtrc(-1, -1, 0.3) is 1).
  if ((double)n < k) return nan();
  if (upper && k < 0) return 1.0;
  if (k < 0) return nan();
  if (k == (double)n) return upper ? 0.0 : 1.0;
  double w, w1;
  ib_dist_at(k + 1.0, (double)n - k, p, w, w1);
  return upper ? w : w1;
}

// Cephes' bdtri: the p with bdtr(k, n, p) = y, i.e. 1 - I_p(k + 1, n - k)
// = y; for k = 0 in closed form, 1 - y^(1 / n).
__device__ inline double ib_bdtri(double k, long long n, double y) {
  if (is_nan(k) || y < 0 || y > 1) return nan();
  k = ::floor(k);
  if (k < 0 || (double)n <= k) return nan();
  double dn = (double)n - k;
  if (k == 0) return -::expm1(::log(y) / dn);
  return betainccinv(k + 1.0, dn, y);
}

// Cephes' nbdtr / nbdtrc: I_p(n, k + 1) and its complement.
__device__ inline double ib_nbdtr(long long k, long long n, double p, bool upper) {
  // k = INT_MAX: Cephes' int k + 1 wraps negative, a domain error.
  if (is_nan(p) || p < 0 || p > 1 || k < 0 || k == 2147483647LL) return nan();
  double w, w1;
  ib_dist_at((double)n, (double)k + 1.0, p, w, w1);
  return upper ? w1 : w;
}

// Cephes' nbdtri: I_p(n, k + 1) = y (its inverse answers 0 and 1 at the
// ends before looking at n).
__device__ inline double ib_nbdtri(long long k, long long n, double y) {
  if (y < 0 || y > 1 || k < 0) return nan();
  if (y == 0) return 0.0;
  if (y == 1) return 1.0;
  if (n <= 0 || k == 2147483647LL) return nan();
  return betaincinv((double)n, (double)k + 1.0, y);
}

// Cephes' fdtr / fdtrc: I_w(a/2, b/2), w = a x / (b + a x), with w and
// 1 - w = b / (b + a x) both from the exact a x (a double-double).
__device__ inline double ib_fdtr(double a, double b, double x, bool upper) {
  if (a <= 0 || b <= 0 || x < 0) return nan();
  if (is_inf(x) && !is_nan(a) && !is_nan(b)) return upper ? 0.0 : 1.0;
  if (is_nan(a) || is_nan(b) || is_nan(x) || is_inf(a) || is_inf(b)) return nan();
  // a / 2 or b / 2 rounded to 0 (a or b = 5e-324): SciPy's betainc(0, b, w) = 1
  // and betainc(a, 0, w) = 0, whatever w.
  if (0.5 * a == 0.0 && 0.5 * b == 0.0) return nan();
  if (0.5 * a == 0.0) return upper ? 0.0 : 1.0;
  if (0.5 * b == 0.0) return upper ? 1.0 : 0.0;
  double ph = __dmul_rn(a, x), pl = ::fma(a, x, -ph);
  if (is_inf(ph)) {
    // a x overflows: 1 - w = b / (a x) (0 or tiny).
    double v = (b / a) / x, vc, vcl;
    ib_two_sum(1.0, -v, vc, vcl);
    double w, w1;
    ib_dist_pair(0.5 * a, 0.5 * b, vc, vcl, v, 0.0, w, w1);
    return upper ? w1 : w;
  }
  double u, ul, v, vl;
  ib_split(ph, pl, b, 0.0, u, ul, v, vl);
  double w, w1;
  ib_dist_pair(0.5 * a, 0.5 * b, u, ul, v, vl, w, w1);
  return upper ? w1 : w;
}

// fdtri: the x with fdtr(a, b, x) = y: w = I^-1_y(a/2, b/2),
// x = b w / (a (1 - w)) with 1 - w from the inverse itself.
//
// For a huge, the limit a -> inf: F = (X_a / a) / (X_b / b) with X_n
// chi-square, X_a / a -> 1, so F -> b / X_b and fdtr(a, b, x) ->
// P(X_b >= b / x) = Q(b/2, b/(2x)) (the large-parameter limit of the
// incomplete beta, DLMF 8.18.1 ff.): x_inf = (b/2) / g, g = gammainccinv(b/2, y).
// Its error: log F = log(b/2) - log G_b + L, G_b ~ Gamma(b/2) and
// L = log(G_a / (a/2)) independent, of mean -1/a and variance 2/a to
// first order; the y-quantile of -log G_b moves by mean - var/2 h'/h,
// where h'/h = g - b/2 is the log-derivative of the density of
// -log G_b there, so that x = x_inf (1 - (g - b/2 + 1) / a + O(a^-2))
// (checked against the exact quantile in mpmath for a = 1e4..1e10,
// b = 0.5..1000, y = 1e-300..1 - 1e-10). The limit is taken where that
// term is below 1e-17 (0.1 ulp): a > 1e17 (1 + |g - b/2|), and where the
// next order, (g + (g - b/2)^2) / a^2 from var^2 h''/h (h''/h = -g +
// (g - b/2)^2), is below 1e-18: a > 1e9 sqrt(g) (it is not an expansion
// in 1/a once b is of the order of a^2: for b = 1e300, g - b/2 rounds to
// 0 while the spread of L, 2/a, dominates that of -log G_b). The beta
// inverse fails there (1 - w rounds to 0 once a / 2 > ~1e150: fdtri(1e300,
// 2, 5e-324) was inf; the true value is 1.3433e-3).
__device__ inline double ib_fdtri(double a, double b, double y) {
  if (is_nan(a) || is_nan(b) || is_nan(y) || !(0.5 * a > 0) || !(0.5 * b > 0) || y < 0 || y > 1 ||
      is_inf(a) || is_inf(b))
    return nan();
  if (y == 0) return 0.0;
  if (y == 1) return inf();
  if (a > 1e17) {
    double hb = 0.5 * b;
    double g = gammainccinv(hb, y);
    if (a > 1e17 * (1.0 + ::fabs(g - hb)) && a > 1e9 * ::sqrt(g)) return hb / g;
  }
  double yc, ycl;
  ib_two_sum(1.0, -y, yc, ycl);
  double w, wc;
  ib_inv(0.5 * a, 0.5 * b, y, yc, w, wc);
  return (b * w) / (a * wc);
}

}  // namespace detail

// scipy.special.bdtr(k, n, p): the binomial CDF sum_{j <= k} C(n, j) p^j
// (1-p)^(n-j) = I_{1-p}(n - k, k + 1) (DLMF 8.17.5; Cephes `bdtr.c`).
__device__ inline double bdtr(double k, long long n, double p) {
  return detail::ib_bdtr(k, detail::ib_wrap_int(n), p, false);
}
__device__ inline double bdtr(double k, double n, double p) {
  return detail::ib_bdtr(k, detail::ib_c_int(n), p, false);
}
// scipy.special.bdtrc: the binomial upper tail I_p(k + 1, n - k).
__device__ inline double bdtrc(double k, long long n, double p) {
  return detail::ib_bdtr(k, detail::ib_wrap_int(n), p, true);
}
__device__ inline double bdtrc(double k, double n, double p) {
  return detail::ib_bdtr(k, detail::ib_c_int(n), p, true);
}
// scipy.special.bdtri: p with bdtr(k, n, p) = y.
__device__ inline double bdtri(double k, long long n, double y) {
  return detail::ib_bdtri(k, detail::ib_wrap_int(n), y);
}
__device__ inline double bdtri(double k, double n, double y) {
  return detail::ib_bdtri(k, detail::ib_c_int(n), y);
}

// scipy.special.nbdtr(k, n, p): the negative binomial CDF I_p(n, k + 1)
// (Cephes `nbdtr.c`); nbdtrc its complement, nbdtri its inverse in p.
__device__ inline double nbdtr(long long k, long long n, double p) {
  return detail::ib_nbdtr(detail::ib_wrap_int(k), detail::ib_wrap_int(n), p, false);
}
__device__ inline double nbdtr(double k, double n, double p) {
  return detail::ib_nbdtr(detail::ib_c_int(k), detail::ib_c_int(n), p, false);
}
__device__ inline double nbdtrc(long long k, long long n, double p) {
  return detail::ib_nbdtr(detail::ib_wrap_int(k), detail::ib_wrap_int(n), p, true);
}
__device__ inline double nbdtrc(double k, double n, double p) {
  return detail::ib_nbdtr(detail::ib_c_int(k), detail::ib_c_int(n), p, true);
}
__device__ inline double nbdtri(long long k, long long n, double y) {
  return detail::ib_nbdtri(detail::ib_wrap_int(k), detail::ib_wrap_int(n), y);
}
__device__ inline double nbdtri(double k, double n, double y) {
  return detail::ib_nbdtri(detail::ib_c_int(k), detail::ib_c_int(n), y);
}

// scipy.special.fdtr(dfn, dfd, x): the F distribution's CDF
// I_{dfn x / (dfd + dfn x)}(dfn / 2, dfd / 2) (Cephes `fdtr.c`); fdtrc
// its complement, fdtri its inverse in x.
__device__ inline double fdtr(double a, double b, double x) { return detail::ib_fdtr(a, b, x, false); }
__device__ inline double fdtrc(double a, double b, double x) { return detail::ib_fdtr(a, b, x, true); }
__device__ inline double fdtri(double a, double b, double y) { return detail::ib_fdtri(a, b, y); }

namespace detail {

// The Student t tail h = I_z(df/2, 1/2) / 2 = P(T < -|t|), z = df / (df + t^2)
// (DLMF 8.17 / Abramowitz-Stegun 26.7.1), with z and 1 - z from t^2 as a
// double-double; the tail is computed directly whatever the sign of t.
__device__ inline double ib_t_tail(double df, double t) {
  double at = ::fabs(t);
  double z, zl, zc, zcl;
  if (at > 1e150) {
    z = (df / at) / at;
    zl = 0.0;
    ib_two_sum(1.0, -z, zc, zcl);
  } else {
    double th = __dmul_rn(at, at), tl = ::fma(at, at, -th);
    ib_split(df, 0.0, th, tl, z, zl, zc, zcl);
  }
  double w, w1;
  ib_dist_pair(0.5 * df, 0.5, z, zl, zc, zcl, w, w1);
  return 0.5 * w;
}

}  // namespace detail

// scipy.special.stdtr(df, t): the Student t CDF, the tail ib_t_tail for
// t < 0 and 1 minus it for t > 0; ndtr(t) for df beyond 1e25 (where the
// two agree to double precision).
__device__ inline double stdtr(double df, double t) {
  if (detail::is_nan(df) || detail::is_nan(t) || !(df > 0)) return detail::nan();
  if (t == 0) return 0.5;
  if (detail::is_inf(t)) return t > 0 ? 1.0 : 0.0;
  if (df > 1e25) return ndtr(t);
  // df / 2 rounds to 0 (df = 5e-324): the limit I_z(0+, 1/2) = 1.
  if (0.5 * df == 0.0) return 0.5;
  double h = detail::ib_t_tail(df, t);
  return t < 0 ? h : 1.0 - h;
}

// scipy.special.stdtrit(df, p): the inverse of stdtr in t: for p < 1/2,
// I_z(df/2, 1/2) = 2p and t = -sqrt(df (1 - z) / z) (both z and 1 - z from
// the inverse), and by symmetry above 1/2. Where the root z is so small
// that I_z(a, 1/2) = z^a / (a B(a, 1/2)) (1 + O(z)) holds to double
// precision (DLMF 8.17.7's leading term; ib_inv's own criterion), t is
// solved from it directly, t = sqrt(df) (2p a B(a, 1/2))^(-1/df) with
// a = df / 2, since z itself may be below the doubles (stdtrit(1, 1e-300)
// = -1 / (pi 1e-300)).
__device__ inline double stdtrit(double df, double p) {
  if (detail::is_nan(df) || detail::is_nan(p) || !(df > 0) || p < 0 || p > 1) return detail::nan();
  if (p == 0.5) return 0.0;
  if (p == 0) return detail::inf();  // SciPy's value (not -inf)
  if (p == 1) return detail::inf();
  // df / 2 rounds to 0 (df = 5e-324): no beta distribution, NaN as SciPy.
  if (!(0.5 * df > 0)) return detail::nan();
  if (df > 1e25) return ndtri(p);
  double q = p < 0.5 ? p : 1.0 - p;  // exact for p >= 1/2
  double a = 0.5 * df, t2 = 2.0 * q;
  // log(a B(a, 1/2)) = lgamma(1 + a) - (lgamma(1/2 + a) - lgamma(1/2)) >= 0
  // (about 2 log(2) a for small a, where log(a) + betaln(a, 1/2) would
  // cancel: both halves by their small-a forms), and the leading term's
  // root z0.
  // Below a = 1e-8 its Taylor series, 2 log(2) a - (pi^2 / 6) a^2 +
  // 2 zeta(3) a^3 (DLMF 5.7.3 for both lgammas): the difference of the two small-a
  // forms keeps an absolute error near 2e-19 when FMAs are contracted,
  // which -lab / df turns into exp(-1e21) = 0 at df = 1e-40, and then
  // 0 * inf = NaN where the root is -inf.
  double lab = (a < 1e-8)   ? a * (1.3862943611198906 + a * (-1.6449340668482264 + a * 2.4041138063191885))
               : (a <= 0.6) ? detail::ib_lgamma1p_small(a) - detail::ib_lgamma_diff(0.5, a)
                            : ::log(a) + betaln(a, 0.5);
  double z0 = ::exp((::log(t2) + lab) / a);
  double t;
  if (z0 * 1.5 < 1e-17) {
    // (2q)^(-1/df) by pow with the exponent split e + el = -1/df (its
    // rounding times log(2q), up to 745, would cost hundreds of ulps),
    // and (a B(a, 1/2))^(-1/df) <= 1 apart, so that no product of 2q
    // falls into the denormals.
    double e = -1.0 / df;
    double pw = ::pow(t2, e);
    if (pw < detail::inf()) pw += pw * ((-::fma(e, df, 1.0) / df) * ::log(t2));
    t = (::sqrt(df) * ::exp(-lab / df)) * pw;
  } else {
    double z, zc;
    detail::ib_inv(a, 0.5, t2, 1.0 - t2, z, zc);
    t = ::sqrt(df) * (::sqrt(zc) / ::sqrt(z));
  }
  return p < 0.5 ? -t : t;
}

CUPRUM_SPECIAL_F2(beta)
CUPRUM_SPECIAL_F2(betaln)
__device__ inline float betainc(float a, float b, float x) {
  return (float)betainc((double)a, (double)b, (double)x);
}
__device__ inline float betaincinv(float a, float b, float y) {
  return (float)betaincinv((double)a, (double)b, (double)y);
}
__device__ inline float betaincc(float a, float b, float x) {
  return (float)betaincc((double)a, (double)b, (double)x);
}
__device__ inline float betainccinv(float a, float b, float y) {
  return (float)betainccinv((double)a, (double)b, (double)y);
}
__device__ inline float bdtr(float k, float n, float p) {
  return (float)bdtr((double)k, (double)n, (double)p);
}
__device__ inline float bdtrc(float k, float n, float p) {
  return (float)bdtrc((double)k, (double)n, (double)p);
}
__device__ inline float bdtri(float k, float n, float y) {
  return (float)bdtri((double)k, (double)n, (double)y);
}
__device__ inline float nbdtr(float k, float n, float p) {
  return (float)nbdtr((double)k, (double)n, (double)p);
}
__device__ inline float nbdtrc(float k, float n, float p) {
  return (float)nbdtrc((double)k, (double)n, (double)p);
}
__device__ inline float nbdtri(float k, float n, float y) {
  return (float)nbdtri((double)k, (double)n, (double)y);
}
__device__ inline float fdtr(float a, float b, float x) {
  return (float)fdtr((double)a, (double)b, (double)x);
}
__device__ inline float fdtrc(float a, float b, float x) {
  return (float)fdtrc((double)a, (double)b, (double)x);
}
__device__ inline float fdtri(float a, float b, float y) {
  return (float)fdtri((double)a, (double)b, (double)y);
}
CUPRUM_SPECIAL_F2(stdtr)
CUPRUM_SPECIAL_F2(stdtrit)

}  // namespace special
}  // namespace cuprum
