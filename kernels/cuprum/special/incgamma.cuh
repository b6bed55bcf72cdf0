// scipy.special's incgamma functions (namespace cuprum::special); see the
// table rows in crates/gpu-special/src/table/incgamma.rs.
//
// Regularized incomplete gamma functions P(a, x) and Q(a, x):
// - power series DLMF 8.7.1 (8.11.4 form) for P when x < a + 1,
// - the continued fraction DLMF 8.9.2 (modified Lentz) for Q when x >= a + 1,
// - for a < 1 and x <= 1.5 the small-a form of Q used by Cephes' igamc and
//   Gil-Segura-Temme: Q = -expm1(a log x - lgamma(1 + a))
//   - x^a / Gamma(1 + a) * a * sum_{k>=1} (-x)^k / (k! (a + k)) (DLMF 8.7.1),
// - the prefactor x^a e^-x / Gamma(a) for a >= 10 in Temme's form
//   sqrt(a / 2pi) exp(-a (mu - log1p(mu))) / Gamma*(a), mu = (x - a) / a,
//   with Gamma*(a) from Stirling's series (DLMF 5.11.1; the coefficients are
//   the exact Bernoulli ratios B_2k / (2k (2k - 1)), no fitted constants).
// Temme's uniform expansion (DLMF 8.12) with its first two terms, for
// a > 2e7 and x / a in (1/2, 2); the series and the fraction run up to
// 40000 terms elsewhere, enough for a up to about 2e7.
//
// The inverses gammaincinv / gammainccinv (x with P(a, x) = p or
// Q(a, x) = q) start from the leading-order inversions of DiDonato and
// Morris (ACM TOMS 12 (1986) 377, section 5): the Wilson-Hilferty normal
// approximation x = a (1 - 1/(9a) + s / (3 sqrt a))^3 for a >= 1 (s the
// normal quantile), x = (p Gamma(a + 1))^(1/a) from the leading term of the
// series when x is small, and x = -log(q Gamma(a)) + (a - 1) log x from the
// leading term of the asymptotic Q when x is large. Then Newton's method on
// log P (or log Q, when p > 1/2) against log x, which is concave there
// (log X has the log-concave density e^(a t - e^t) / Gamma(a)), so it
// converges from any start; at most 40 steps, stopped at the rounding of
// P or Q. The distributions (gdtr, pdtr, chdtr and their complements and
// inverses) are Cephes' compositions of these.
#pragma once

#include "cuprum/special/common.cuh"

namespace cuprum {
namespace special {
namespace detail {

// log(1 + m) - m, accurate near 0 (Taylor series DLMF 4.6.1 for |m| < 0.25).
__device__ inline double ig_log1pmx(double m) {
  if (::fabs(m) >= 0.25) return ::log1p(m) - m;
  double t = m, s = 0.0;
  for (int k = 2; k < 60; ++k) {
    t *= -m;
    double term = t / k;
    s += term;
    if (::fabs(term) < 1e-17 * ::fabs(s)) break;
  }
  return s;
}

// log Gamma*(a) = lgamma(a) - ((a - 1/2) log a - a + log(2pi)/2), a >= 10
// (Stirling series DLMF 5.11.1: B_2k / (2k (2k - 1) a^(2k - 1))).
__device__ inline double ig_lgammastar(double a) {
  double r = 1.0 / a, r2 = r * r;
  // Horner in r2 from k = 8 down to k = 1.
  double s = 3617.0 / 122400.0;
  s = s * r2 - 1.0 / 156.0;
  s = s * r2 + 691.0 / 360360.0;
  s = s * r2 - 1.0 / 1188.0;
  s = s * r2 + 1.0 / 1680.0;
  s = s * r2 - 1.0 / 1260.0;
  s = s * r2 + 1.0 / 360.0;
  s = s * r2 - 1.0 / 12.0;
  return -s * r;
}

// x^a e^-x / Gamma(a) (a > 0, x > 0).
__device__ inline double ig_prefactor(double a, double x) {
  if (a >= 10.0) {
    double mu = (x - a) / a;
    if (::fabs(mu) >= 0.25 && a < 170.0) {
      double p = ::pow(x, a), g = ::tgamma(a);
      double r = p * ::exp(-x) / g;
      if (r > 1e-300 && p < 1e300 && x < 700.0) return r;
    }
    double e = (::fabs(mu) >= 0.25 ? a * ::log(x / a) + (a - x) : a * ig_log1pmx(mu)) - ig_lgammastar(a);
    return ::sqrt(a / (2.0 * PI)) * ::exp(e);
  }
  if (x < 700.0) {
    double g = ::tgamma(a);
    double p = ::pow(x, a);
    double r = p * ::exp(-x) / g;
    if (r > 1e-300 && p < 1e300) return r;
  }
  return ::exp(a * ::log(x) - x - ::lgamma(a));
}

// log(x^a e^-x / Gamma(a)) (a > 0, x > 0), the log form of ig_prefactor.
__device__ inline double ig_log_prefactor(double a, double x) {
  if (a >= 10.0) {
    double mu = (x - a) / a;
    double e = (::fabs(mu) >= 0.25 ? a * ::log(x / a) + (a - x) : a * ig_log1pmx(mu)) - ig_lgammastar(a);
    return 0.5 * ::log(a / (2.0 * PI)) + e;
  }
  return a * ::log(x) - x - ::lgamma(a);
}

// lgamma(1 + a) for 0 <= a < 1, accurate for tiny a: DLMF 5.7.3,
// -euler a + (a - log1p(a)) + sum_{k>=2} (-a)^k (zeta(k) - 1) / k for
// a < 0.25 (zeta(k) - 1 from tools/coefficients_incgamma.py).
__device__ inline double ig_lgamma1p(double a) {
  if (a >= 0.25) return ::lgamma(1.0 + a);
  const double zm1[24] = {0.64493406684822641, 0.20205690315959429, 0.082323233711138186, 0.036927755143369927, 0.01734306198444914, 0.0083492773819228271, 0.0040773561979443396, 0.0020083928260822143, 0.00099457512781808526, 0.00049418860411946453, 0.00024608655330804832, 0.00012271334757848915, 6.1248135058704828e-05, 3.0588236307020493e-05, 1.5282259408651871e-05, 7.6371976378997626e-06, 3.8172932649998402e-06, 1.908212716553939e-06, 9.5396203387279621e-07, 4.7693298678780645e-07, 2.38450502727733e-07, 1.1921992596531106e-07, 5.960818905125948e-08, 2.9803503514652279e-08};
  double s = 0.0, t = -a;
  for (int k = 2; k < 26; ++k) {
    t *= -a;
    s += t * zm1[k - 2] / k;
  }
  return -0.57721566490153287 * a + ((a - ::log1p(a)) + s);
}

// sum_k x^k / ((a+1)...(a+k)), the series of P(a, x) without its front
// factor x^a e^-x / Gamma(a + 1).
__device__ inline double ig_series_sum(double a, double x) {
  double s = 1.0, t = 1.0;
  for (int k = 1; k < 40000; ++k) {
    t *= x / (a + k);
    s += t;
    if (t < 1e-17 * s) break;
  }
  return s;
}

// P(a, x) by the series: x^a e^-x / Gamma(a + 1) * sum x^k / ((a+1)...(a+k)).
__device__ inline double ig_series_p(double a, double x) {
  double s = ig_series_sum(a, x);
  // pow, not exp(a log x): good to an ulp where a log x is large.
  if (a < 1.0) return ::pow(x, a) * ::exp(-x - ig_lgamma1p(a)) * s;
  return ig_prefactor(a, x) / a * s;
}

// The continued fraction DLMF 8.9.2 of Q(a, x) without its front factor,
// in the even form 1 / (x + 1 - a - 1 (1 - a) / (x + 3 - a - ...)).
__device__ inline double ig_cf_frac(double a, double x) {
  const double tiny = 1e-300;
  double b = x + 1.0 - a;
  double c = 1.0 / tiny, d = 1.0 / b, h = d;
  for (int i = 1; i < 40000; ++i) {
    double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    double del = d * c;
    h *= del;
    if (::fabs(del - 1.0) < 1e-16) break;
  }
  return h;
}

// Q(a, x) by the continued fraction: x^a e^-x / Gamma(a) times the fraction.
__device__ inline double ig_cf_q(double a, double x) { return ig_prefactor(a, x) * ig_cf_frac(a, x); }

// Q(a, x) for a < 1, x <= 1.5 (see the header comment).
__device__ inline double ig_small_q(double a, double x) {
  double lx = ::log(x);
  double lg = ig_lgamma1p(a);
  double u1 = -::expm1(a * lx - lg);  // 1 - x^a / Gamma(1 + a)
  double s = 0.0, t = 1.0;
  for (int k = 1; k < 100; ++k) {
    t *= -x / k;
    double term = t / (a + k);
    s += term;
    if (::fabs(term) < 1e-17 * ::fabs(s)) break;
  }
  double u = ::exp(a * lx - lg);
  return u1 - u * a * s;
}

// Temme's uniform expansion for a > 2e7 (DLMF 8.12.3-8.12.8):
// Q = erfc(eta sqrt(a/2)) / 2 + R, P = erfc(-eta sqrt(a/2)) / 2 - R,
// R = e^(-a eta^2/2) / sqrt(2 pi a) (c0(eta) + c1(eta) / a),
// c0 = 1/(lambda - 1) - 1/eta (series DLMF 8.12.9 near eta = 0); the
// dropped terms are O(1/a^2). Sets e2 = eta^2, eta and c0 + c1 / a.
__device__ inline void ig_temme_parts(double a, double x, double& e2, double& eta, double& cc) {
  double lm1 = (x - a) / a;
  e2 = -2.0 * ig_log1pmx(lm1);  // 2 (lambda - 1 - log lambda)
  if (!(e2 > 0.0)) e2 = 0.0;
  eta = ::sqrt(e2);
  if (lm1 < 0.0) eta = -eta;
  double c0;
  if (::fabs(lm1) < 1e-3) c0 = -1.0 / 3.0 + eta * (1.0 / 12.0 + eta * (-2.0 / 135.0 + eta / 864.0));
  else c0 = 1.0 / lm1 - 1.0 / eta;
  // c1 = 1/eta^3 - 1/(l-1)^3 - 1/(l-1)^2 - 1/(12 (l-1)) (DLMF 8.12.8 ff.),
  // its Taylor series -1/540 - eta/288 + eta^2/378 near eta = 0.
  double c1;
  if (::fabs(lm1) < 3e-3) c1 = -1.0 / 540.0 + eta * (-1.0 / 288.0 + eta / 378.0);
  else c1 = 1.0 / (eta * eta * eta) - 1.0 / (lm1 * lm1 * lm1) - 1.0 / (lm1 * lm1) - 1.0 / (12.0 * lm1);
  cc = c0 + c1 / a;
}

// Q(a, x) (P(a, x) when lower, not 1 - Q in the lower tail) for a > 2e7.
__device__ inline double ig_temme_q(double a, double x, int lower) {
  double e2, eta, cc;
  ig_temme_parts(a, x, e2, eta, cc);
  double r = ::exp(-0.5 * a * e2) / ::sqrt(2.0 * PI * a) * cc;
  if (lower) return 0.5 * ::erfc(-eta * ::sqrt(0.5 * a)) - r;
  return 0.5 * ::erfc(eta * ::sqrt(0.5 * a)) + r;
}

// log Q(a, x) for x > a (log P for x < a when lower) for a > 2e7, in the
// tail: erfc(z) = erfcx(z) e^(-z^2) with z^2 = a eta^2 / 2, the exponent of
// R, so nothing underflows.
__device__ inline double ig_temme_logtail(double a, double x, int lower) {
  double e2, eta, cc;
  ig_temme_parts(a, x, e2, eta, cc);
  double z = ::fabs(eta) * ::sqrt(0.5 * a);
  double r = cc / ::sqrt(2.0 * PI * a);
  return -0.5 * a * e2 + ::log(0.5 * ::erfcx(z) + (lower ? -r : r));
}

// 0: P, 1: Q.
__device__ inline double ig_pq(double a, double x, int which) {
  if (is_nan(a) || is_nan(x) || a < 0.0 || x < 0.0) return nan();
  if (a == 0.0) {
    if (x > 0.0) return which ? 0.0 : 1.0;
    return nan();
  }
  if (x == 0.0) return which ? 1.0 : 0.0;
  if (is_inf(a)) {
    if (is_inf(x)) return nan();
    return which ? 1.0 : 0.0;
  }
  if (is_inf(x)) return which ? 0.0 : 1.0;
  if (a > 2e7 && x > 0.5 * a && x < 2.0 * a) {
    if (which == 0 && x < a) return ig_temme_q(a, x, 1);
    double q = ig_temme_q(a, x, 0);
    return which ? q : 1.0 - q;
  }
  if (which == 0 && x < a + 1.0) return ig_series_p(a, x);
  if (a < 1.0 && x <= 1.5) {
    double q = ig_small_q(a, x);
    return which ? q : 1.0 - q;
  }
  if (x < a + 1.0) {
    double p = ig_series_p(a, x);
    return which ? 1.0 - p : p;
  }
  double q = ig_cf_q(a, x);
  return which ? q : 1.0 - q;
}

}  // namespace detail

// scipy.special.gammainc: the regularized lower incomplete gamma P(a, x).
__device__ inline double gammainc(double a, double x) { return detail::ig_pq(a, x, 0); }
CUPRUM_SPECIAL_F2(gammainc)

// scipy.special.gammaincc: the regularized upper incomplete gamma Q(a, x).
__device__ inline double gammaincc(double a, double x) { return detail::ig_pq(a, x, 1); }
CUPRUM_SPECIAL_F2(gammaincc)

namespace detail {

// x with P(a, x) = y (upper = 0) or Q(a, x) = y (upper = 1), for a > 0
// finite and 0 < y < 1, y <= 1/2 on the side it names (the caller passes
// the smaller of p and q).
__device__ __noinline__ double ig_inverse(double a, double y, int upper) {
  const double sqrt2 = 1.4142135623730951;
  double lg1 = a < 1.0 ? ig_lgamma1p(a) : ::lgamma(a + 1.0);
  double x;
  // Small-x start: x^a / Gamma(a + 1) = p (p the lower probability).
  double lp = upper ? ::log1p(-y) : ::log(y);
  double ts = (lp + lg1) / a;
  if (a >= 1.0) {
    // Wilson-Hilferty; s the normal quantile of p.
    double s = upper ? sqrt2 * ::erfcinv(2.0 * y) : -sqrt2 * ::erfcinv(2.0 * y);
    double c = 1.0 - 1.0 / (9.0 * a) + s / (3.0 * ::sqrt(a));
    x = a * c * c * c;
    if (!(c > 0.3)) x = ::exp(ts);
  } else if (upper && y < 0.3 && !(ts < -1.0)) {
    // Large-x start (the small-x one is past 1/e): Q ~ x^(a-1) e^-x / Gamma(a).
    double l = -(::log(y) + ::lgamma(a));
    x = l > 1.0 ? l : 1.0;
    for (int i = 0; i < 3; ++i) x = l + (a - 1.0) * ::log(x);
    if (!(x > 0.0)) x = 1.0;
  } else {
    x = ts < -745.0 ? 0.0 : ::exp(ts);
  }
  if ((!upper || a < 1.0) && ts < -700.0) {
    // x below 1e-304: P = x^a / Gamma(a + 1) (1 + O(x)) is exact there.
    return ts < -745.2 ? 0.0 : ::exp(ts);
  }
  if (!(x > 0.0) || is_inf(x)) x = a;
  const double ly = ::log(y);
  const double nudge = 2.0 / ::sqrt(a > 16.0 ? a : 16.0);
  double prev = 1.0;
  for (int i = 0; i < 40; ++i) {
    double v = ig_pq(a, x, upper);
    double f = ig_prefactor(a, x);  // x dP/dx
    double g, ratio;                // log(v / y), v / f
    if (v > 1e-305 && f > 1e-305) {
      double d = v / y - 1.0;
      g = ::fabs(d) < 0.5 ? ::log1p(d) : ::log(v) - ly;
      ratio = v / f;
    } else {
      // A tail at the bottom of the normal range: log v from the log of the
      // front factor and the series or fraction that it multiplies.
      double lf = ig_log_prefactor(a, x), lv;
      if (v > 1e-305) lv = ::log(v);
      else if (upper && x >= a + 1.0 && !(a > 2e7 && x < 2.0 * a)) lv = lf + ::log(ig_cf_frac(a, x));
      else if (!upper && x < a + 1.0 && !(a > 2e7 && x > 0.5 * a)) lv = lf - ::log(a) + ::log(ig_series_sum(a, x));
      else if (a > 2e7 && (upper ? x > a && x < 2.0 * a : x < a && x > 0.5 * a)) lv = ig_temme_logtail(a, x, !upper);
      else lv = ::log(v);
      if (!(lv > -1e300) || !(lf > -1e300)) {
        // Out of reach of the functions (underflow): move towards the mass.
        x = upper ? x * (1.0 - nudge) : x * (1.0 + nudge);
        continue;
      }
      double d = v > 1e-305 ? v / y - 1.0 : 1.0;
      g = ::fabs(d) < 0.5 ? ::log1p(d) : lv - ly;
      ratio = ::exp(lv - lf);
    }
    // Newton on t = log x: dt = -g / (d log v / dt), d log v / dt = +-f / v.
    double dt = upper ? g * ratio : -g * ratio;
    if (dt > 20.0) dt = 20.0;
    if (dt < -20.0) dt = -20.0;
    // No quadratic progress in a small step: v's rounding (x^a is
    // exp(a log x), good to |a log x| ulps) has the iterates alternating
    // about the root; the half step lands between them.
    bool stall = ::fabs(dt) < 1e-9 * (ratio > 1.0 ? ratio : 1.0) && ::fabs(dt) > 0.5 * ::fabs(prev);
    if (stall) dt *= 0.5;
    prev = dt;
    double xn = ::fabs(dt) < 1e-3 ? x + x * (dt + 0.5 * dt * dt) : x * ::exp(dt);
    if (!(xn > 0.0)) xn = x * 0.5;
    if (is_inf(xn)) xn = x * 2.0;
    x = xn;
    // Done when the step is down to the rounding of v, amplified by the
    // condition dt / dlog v = v / f (the error left is O(dt^2)).
    if (stall || ::fabs(dt) < 2e-15 * (ratio > 1.0 ? ratio : 1.0)) break;
  }
  return x;
}

// SciPy's answer for a lower probability s < 0 (gammaincinv's p < 0, or
// gammainccinv's q > 1 with s = 1 - q) and 0 < a < 1. SciPy's igami /
// igamci flag the domain error but do not return: they go on to the
// DiDonato-Morris start, which for a < 1 and q = 1 - s > 1 (so
// q Gamma(a) > 0.6, q > 1e-5) is their eq. 21, x0 = u / (1 - u / (a + 1)),
// u = (s Gamma(a) a)^(1/a), and three Halley steps, which return x0 at
// once where the front factor x^a e^-x / Gamma(a) is 0 (at x0 = 0, and
// where a log x0 - x0 - lgamma(a) < -log(DBL_MAX), Cephes' igam_fac) and
// leave it where the step (P(a, x0) - s) x0 / f underflows to 0. pow of the
// negative base is NaN unless the double 1/a is an integer (every double
// 1/a >= 2^53 is an even one); where |s Gamma(a + 1)|^(1/a) underflows the
// answer is 0 (-0 for an odd 1/a), where it is 1 (s Gamma(a) a rounds to
// -1) x0 = 1 / (1 - 1 / (1 + a)) (2^52 for a in [2^-53, 2^-52), inf and
// then NaN below). Elsewhere the steps leave NaN, except where they move
// x0 and land on a finite value (gammaincinv(4.42e-16, -1) = -0.144: not
// reproduced, NaN here). On 4.5e5 random points of a in (1e-323, 1) (a
// quarter of them a = 1/n), s in (-30, -1e-320), that was the only other
// value SciPy gave. Gamma(a) as Cephes
// evaluates it below 1e-9, 1 / ((1 + euler a) a) (DLMF 5.7.1), whose
// rounding decides the cases |s| = 1: gammaincinv(1e-300, -1) = 0
// (Gamma(a) a rounds below 1), gammaincinv(1e-200, -1) = NaN (it rounds
// to 1, u = 1, 1 + a rounds to 1 and x0 = inf).
__device__ inline double ig_domain_start(double a, double s) {
  if (!(a > 0.0 && a < 1.0 && s < 0.0)) return nan();
  double g = a < 1e-9 ? 1.0 / ((1.0 + 0.5772156649015329 * a) * a) : ::tgamma(a);
  double u = ::pow(s * g * a, 1.0 / a);
  double x0 = u / (1.0 - u / (a + 1.0));
  if (x0 == 0.0) return x0;
  if (x0 > 0.0 && !is_inf(x0)) {
    if (a * ::log(x0) - x0 - ::lgamma(a) < -709.782712893384) return x0;
    if ((gammainc(a, x0) - s) * x0 == 0.0) return x0;
  }
  return nan();
}

}  // namespace detail

// scipy.special.gammaincinv: x with P(a, x) = p (see the header comment:
// DiDonato-Morris starting values, Newton on log P or log Q). 0 at p = 0,
// inf at p = 1, NaN above 1 or for a < 0; for p < 0 SciPy's value
// (0 or -0 where its start underflows, else NaN: ig_domain_start); SciPy's
// values at a = 0 (0 within 1e-5 of p = 1, NaN below; -0 as SciPy's Gamma(-0) = -inf
// gives them) and a = inf (NaN).
__device__ inline double gammaincinv(double a, double p) {
  if (detail::is_nan(a) || detail::is_nan(p)) return detail::nan();
  if (a == 0.0) {
    if (::copysign(1.0, a) < 0.0) {
      if (p == 0.0) return 0.0;
      if (p >= 1.0) return p == 1.0 ? detail::inf() : 0.0;
      return detail::nan();
    }
    if (p < 0.0 || p > 1.0) return detail::nan();
    if (p == 0.0) return 0.0;
    if (p == 1.0) return detail::inf();
    return 1.0 - p <= 1e-5 ? 0.0 : detail::nan();
  }
  if (a < 0.0 || p > 1.0) return detail::nan();
  if (p < 0.0) return detail::ig_domain_start(a, p);
  if (p == 0.0) return 0.0;
  if (p == 1.0) return detail::inf();
  if (detail::is_inf(a)) return detail::nan();
  if (p > 0.5) return detail::ig_inverse(a, 1.0 - p, 1);
  return detail::ig_inverse(a, p, 0);
}
CUPRUM_SPECIAL_F2(gammaincinv)

// scipy.special.gammainccinv: x with Q(a, x) = q (as gammaincinv); inf at
// q = 0, 0 at q = 1, NaN below 0 or for a < 0; for q > 1 SciPy's value
// (ig_domain_start with 1 - q); at a = 0 (0 for q <= 1e-5, NaN above) and
// a = inf (NaN).
__device__ inline double gammainccinv(double a, double q) {
  if (detail::is_nan(a) || detail::is_nan(q)) return detail::nan();
  if (a == 0.0) {
    if (::copysign(1.0, a) < 0.0) {
      if (q == 1.0) return 0.0;
      if (q <= 0.0) return q == 0.0 ? detail::inf() : 0.0;
      return detail::nan();
    }
    if (q < 0.0 || q > 1.0) return detail::nan();
    if (q == 0.0) return detail::inf();
    if (q == 1.0) return 0.0;
    return q <= 1e-5 ? 0.0 : detail::nan();
  }
  if (a < 0.0 || q < 0.0) return detail::nan();
  if (q > 1.0) return detail::ig_domain_start(a, 1.0 - q);
  if (q == 0.0) return detail::inf();
  if (q == 1.0) return 0.0;
  if (detail::is_inf(a)) return detail::nan();
  if (q > 0.5) return detail::ig_inverse(a, 1.0 - q, 0);
  return detail::ig_inverse(a, q, 1);
}
CUPRUM_SPECIAL_F2(gammainccinv)

// scipy.special.gdtr(a, b, x): the gamma CDF of rate a and shape b,
// P(b, a x) (Cephes' gdtr); NaN for x < 0.
__device__ inline double gdtr(double a, double b, double x) {
  if (x < 0.0) return detail::nan();
  return gammainc(b, a * x);
}
// scipy.special.gdtrc(a, b, x): Q(b, a x), the complement of gdtr.
__device__ inline double gdtrc(double a, double b, double x) {
  if (x < 0.0) return detail::nan();
  return gammaincc(b, a * x);
}
// scipy.special.gdtrix(a, b, p): x with gdtr(a, b, x) = p, i.e.
// gammaincinv(b, p) / a (SciPy's own composition, not cdflib's search);
// NaN for a = b = 0 and for an infinite a or b when both are >= 0.
__device__ inline double gdtrix(double a, double b, double p) {
  if (a == 0.0 && b == 0.0) return detail::nan();
  if ((detail::is_inf(a) || detail::is_inf(b)) && a >= 0.0 && b >= 0.0) return detail::nan();
  return gammaincinv(b, p) / a;
}
__device__ inline float gdtrix(float a, float b, float p) { return (float)gdtrix((double)a, (double)b, (double)p); }
__device__ inline float gdtr(float a, float b, float x) { return (float)gdtr((double)a, (double)b, (double)x); }
__device__ inline float gdtrc(float a, float b, float x) { return (float)gdtrc((double)a, (double)b, (double)x); }

// scipy.special.pdtr(k, m): the Poisson CDF sum_{j <= k} e^-m m^j / j!
// = Q(floor(k) + 1, m) (Cephes' pdtr); NaN for k < 0 or m < 0, 1 at m = 0.
__device__ inline double pdtr(double k, double m) {
  if (k < 0.0 || m < 0.0) return detail::nan();
  if (m == 0.0) return 1.0;
  return gammaincc(::floor(k) + 1.0, m);
}
CUPRUM_SPECIAL_F2(pdtr)
// scipy.special.pdtrc(k, m): 1 - pdtr(k, m) = P(floor(k) + 1, m); 0 at m = 0.
__device__ inline double pdtrc(double k, double m) {
  if (k < 0.0 || m < 0.0) return detail::nan();
  if (m == 0.0) return 0.0;
  return gammainc(::floor(k) + 1.0, m);
}
CUPRUM_SPECIAL_F2(pdtrc)

// scipy.special.pdtri(k, y): m with pdtr(k, m) = y, gammainccinv(k + 1, y)
// (Cephes' pdtri); NaN for k < 0 or y outside [0, 1). SciPy passes k on as
// a C int: an int64 k wraps to 32 bits, a float k is truncated (NaN beyond
// the int range), and k + 1 overflows to NaN at the int maximum.
namespace detail {
__device__ inline double pdtri_int(long long k, double y) {
  if (k < 0 || k >= 2147483647LL || !(y >= 0.0 && y < 1.0)) return nan();
  return gammainccinv((double)k + 1.0, y);
}
}  // namespace detail
__device__ inline double pdtri(long long k, double y) {
  return detail::pdtri_int((long long)(int)(unsigned int)(unsigned long long)k, y);
}
__device__ inline double pdtri(double k, double y) {
  if (detail::is_nan(k) || !(::fabs(k) < 2147483648.0)) return detail::nan();
  return detail::pdtri_int((long long)::trunc(k), y);
}
CUPRUM_SPECIAL_F2(pdtri)

// scipy.special.chdtr(v, x): the chi-square CDF P(v / 2, x / 2) (Cephes'
// chdtr); NaN for x < 0.
__device__ inline double chdtr(double v, double x) {
  if (x < 0.0) return detail::nan();
  return gammainc(v / 2.0, x / 2.0);
}
CUPRUM_SPECIAL_F2(chdtr)
// scipy.special.chdtrc(v, x): Q(v / 2, x / 2).
__device__ inline double chdtrc(double v, double x) {
  if (x < 0.0) return detail::nan();
  return gammaincc(v / 2.0, x / 2.0);
}
CUPRUM_SPECIAL_F2(chdtrc)
// scipy.special.chdtri(v, p): x with chdtrc(v, x) = p,
// 2 gammainccinv(v / 2, p) (Cephes' chdtri); NaN for p outside [0, 1].
__device__ inline double chdtri(double v, double p) {
  if (p < 0.0 || p > 1.0) return detail::nan();
  return 2.0 * gammainccinv(0.5 * v, p);
}
CUPRUM_SPECIAL_F2(chdtri)

}  // namespace special
}  // namespace cuprum
