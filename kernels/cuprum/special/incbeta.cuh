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
// idea). For min(a, b) > 1e11 Temme's uniform expansion (DLMF 8.18.8 form,
// leading term and first correction).
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
  s = a + b;
  double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

// (x + xl) (sh + sl) / d as a double-double qh + ql (d > 0; d = 1 to skip
// the division).
__device__ inline void ib_ratio(double x, double xl, double sh, double sl, double d, double& qh,
                                double& ql) {
  double ph = x * sh;
  double pl = ::fma(x, sh, -ph) + (x * sl + xl * sh);
  qh = ph / d;
  ql = (::fma(-qh, d, ph) + pl) / d;
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

// The front factor of DLMF 8.17.22: x^a y^b / (a B(a, b)) for a, b > 0
// finite, with x = xh + xl and y = yh + yl (double-doubles, x + y = 1).
__device__ inline double ib_front(double a, double b, double x, double xl, double y, double yl) {
  double sh, sl;
  ib_two_sum(a, b, sh, sl);
  if (a >= 10.0 && b >= 10.0) {
    // (x s / a)^a (y s / b)^b sqrt(b / (2 pi a s)) exp(mu(s) - mu(a) - mu(b)).
    double q1h, q1l, q2h, q2l;
    ib_ratio(x, xl, sh, sl, a, q1h, q1l);
    ib_ratio(y, yl, sh, sl, b, q2h, q2l);
    double la = a * ::log(q1h), lb = b * ::log(q2h);
    double c = (::sqrt(b / sh / a) * IB_INV_SQRT_2PI) * ::exp(ib_mu(sh) - ib_mu(a) - ib_mu(b));
    if (::fabs(la) < 700.0 && ::fabs(lb) < 700.0) {
      return ib_pow_prod(q1h, q1l, a, q2h, q2l, b, c);
    }
    return ::exp(a * ib_log1pmx((q1h - 1.0) + q1l) + b * ib_log1pmx((q2h - 1.0) + q2l)) * c;
  }
  if (b >= 10.0) {
    // (x s)^a (y s / b)^b sqrt(b / s) e^-a exp(mu(s) - mu(b)) / Gamma(a + 1).
    double q1h, q1l, q2h, q2l;
    ib_ratio(x, xl, sh, sl, 1.0, q1h, q1l);
    ib_ratio(y, yl, sh, sl, b, q2h, q2l);
    double c = ::sqrt(b / sh) * ::exp(-a) * ::exp(ib_mu(sh) - ib_mu(b)) / ib_tgamma1p(a);
    return ib_pow_prod(q1h, q1l, a, q2h, q2l, b, c);
  }
  if (a >= 10.0) {
    // (x s / a)^a (y s)^b sqrt(a / s) e^-b exp(mu(s) - mu(a)) b / (a Gamma(b + 1)).
    double q1h, q1l, q2h, q2l;
    ib_ratio(x, xl, sh, sl, a, q1h, q1l);
    ib_ratio(y, yl, sh, sl, 1.0, q2h, q2l);
    double c = ::sqrt(a / sh) * ::exp(-b) * ::exp(ib_mu(sh) - ib_mu(a)) * (b / a) / ib_tgamma1p(b);
    return ib_pow_prod(q1h, q1l, a, q2h, q2l, b, c);
  }
  // x^a y^b Gamma(a + b) / (Gamma(a + 1) Gamma(b)).
  return ib_pow_prod(x, xl, a, y, yl, b, ib_inv_abeta_small(a, b, sh, sl));
}

// 1 - I_x(a, b) where I_x(a, b) is near 1 for a small (a < 1, x small):
// with K = Gamma(a + b) / (Gamma(a + 1) Gamma(b)) = 1 / (a B(a, b)) and the
// power series I_x(a, b) = x^a K (1 + a S), S = sum_{n>=1} (1-b)_n x^n /
// (n! (a + n)) (DLMF 8.17.8 with 1 - t = (1-x)... in the form of
// DiDonato-Morris' BPSER),
//   1 - I = -expm1(a log x) - x^a expm1(log K) - x^a K a S,
// log K = [lgamma(a + b) - lgamma(b)] - [lgamma(1 + a) - lgamma(1)] by
// ib_lgamma_diff, so that no digit of the small result is lost to 1 - I.
__device__ inline double ib_small_a_upper(double a, double b, double x, double xl) {
  double lk = ib_lgamma_diff(b, a) - ib_lgamma_diff(1.0, a);
  double lx = ::log(x) + xl / x;
  double xa = ::exp(a * lx);
  double t = 1.0, S = 0.0;
  for (int n = 1; n < 2000; ++n) {
    t *= (n - b) * x / n;
    double term = t / (a + n);
    S += term;
    if (::fabs(term) <= 1e-17 * ::fabs(S)) break;
  }
  return -::expm1(a * lx) - xa * ::expm1(lk) - xa * ::exp(lk) * a * S;
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
// digits in proportion to 1 / (1 - x).
__device__ inline double ib_cf(double a, double b, double x, double xl, double y) {
  // lambda = a - (a + b) x in double-double arithmetic.
  double sh, sl;
  ib_two_sum(a, b, sh, sl);
  double ph = sh * x, pl = ::fma(sh, x, -ph) + (sl * x + sh * xl);
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
  double R = tiny, C = tiny, D = 0.0;
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
    D = bet + alpha * D;
    if (D == 0.0) D = tiny;
    D = 1.0 / D;
    C = bet + alpha / C;
    if (C == 0.0) C = tiny;
    double del = C * D;
    R *= del;
    if (::fabs(del - 1.0) < IB_EPS) break;
    d_even = d_next;
  }
  return (beta1 + R) / (beta0 + R);
}

// Temme's uniform expansion for large a and b (DLMF 8.18.8-8.18.9 in the
// symmetric variables of Temme, "Special functions", 11.3.3): with
// s = a + b, x0 = a / s, -eta^2 / 2 = x0 log(x / x0) + y0 log(y / y0),
// sign(eta) = sign(x - x0),
//   1 - I_x(a, b) = erfc(eta sqrt(s / 2)) / 2
//                   + exp(-s eta^2 / 2) / sqrt(2 pi s) (c0(eta) + O(1/s)),
//   c0 = 1 / eta - sqrt(x0 y0) / (x - x0)
// (removable at x = x0: c0 -> (y0 - x0) / (3 sqrt(x0 y0))).
__device__ inline void ib_temme(double a, double b, double x, double y, double& w, double& w1) {
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
__device__ inline void ib_core(double a, double b, double x, double xl, double y, double yl,
                               double& w, double& w1) {
  if (a > 1e11 && b > 1e11) {
    ib_temme(a, b, x, y, w, w1);
    return;
  }
  if (x < (a + 1.0) / (a + b + 2.0)) {
    w = ib_front(a, b, x, xl, y, yl);
    if (w != 0.0) w *= ib_cf(a, b, x, xl, y);
    if (w > 1.0) w = 1.0;
    w1 = 1.0 - w;
    // w near 1 (a small): the complement directly.
    if (w > 0.75) w1 = (b * x < 0.5 || x < 1e-3) ? ib_small_a_upper(a, b, x, xl)
                                                 : ib_front(b, a, y, yl, x, xl) * ib_cf(b, a, y, yl, x);
  } else {
    w1 = ib_front(b, a, y, yl, x, xl);
    if (w1 != 0.0) w1 *= ib_cf(b, a, y, yl, x);
    if (w1 > 1.0) w1 = 1.0;
    w = 1.0 - w1;
    if (w1 > 0.75) w = (a * y < 0.5 || y < 1e-3) ? ib_small_a_upper(b, a, y, yl)
                                                 : ib_front(a, b, x, xl, y, yl) * ib_cf(a, b, x, xl, y);
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
__device__ inline void ib_pair(double a, double b, double x, double& w, double& w1) {
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
__device__ inline double ib_beta_general(double a, double b, bool lg) {
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
__device__ inline double ib_inv_guess(double a, double b, double t) {
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
// Newton's method on log I against log z (I ~ C z^a in the tail), kept in
// a bracket that is bisected (geometrically over wide ranges) when a step
// leaves it.
__device__ inline void ib_inv(double a, double b, double t, double tc, double& x, double& xc) {
  double ph, ph1;
  ib_pair(a, b, 0.5, ph, ph1);
  bool flip = t > ph;
  double A = flip ? b : a, B = flip ? a : b, T = flip ? tc : t;
  double z = ib_inv_guess(A, B, T);
  double lo = 0.0, hi = 0.5;
  for (int it = 0; it < 200; ++it) {
    double zy, zyl;
    ib_two_sum(1.0, -z, zy, zyl);
    double w, w1;
    ib_core(A, B, z, 0.0, zy, zyl, w, w1);
    if (w == T) break;
    if (w > T) {
      hi = z;
    } else {
      lo = z;
    }
    // z I'(z) = fp / (1 - z): I'(z) = z^(A-1) (1-z)^(B-1) / B(A, B).
    double fp = ib_front(A, B, z, 0.0, zy, zyl) * A;
    double zn;
    if (w > 0.0 && fp > 0.0) {
      double du = ::log(w / T) * w / fp * zy;
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

// The inverse of betainc in x: I_x(a, b) = y.
__device__ inline double betaincinv(double a, double b, double y) {
  if (detail::is_nan(a) || detail::is_nan(b) || detail::is_nan(y)) return detail::nan();
  if (!(a > 0) || !(b > 0) || y < 0 || y > 1) return detail::nan();
  if (y == 0) return 0.0;
  if (y == 1) return 1.0;
  if (detail::is_inf(a) || detail::is_inf(b)) {
    if (detail::is_inf(a) && detail::is_inf(b)) return detail::nan();
    return detail::is_inf(a) ? 1.0 : 0.0;
  }
  double yc, ycl;
  detail::ib_two_sum(1.0, -y, yc, ycl);
  double x, xc;
  detail::ib_inv(a, b, y, yc, x, xc);
  return x;
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

}  // namespace special
}  // namespace cuprum
