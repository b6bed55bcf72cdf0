// scipy.special's hypergeometric functions and the Lambert W function
// (namespace cuprum::special); see the table rows in
// crates/gpu-special/src/table/hyper.rs.
//
// hyp1f1(a, b, x) = M(a, b, x), Kummer's function (DLMF 13.2.2):
//   SciPy's rules in its order (its wrapper of Boost's hypergeometric_1F1,
//   then Boost's closed forms: b a non-positive integer: inf unless a is a
//   negative integer >= b, whose polynomial is summed, sum x^k / k! for
//   a = b; a = 0, x = 0, a = -1, a = b, a = b + 1, (a, b) = (1, 2) in
//   closed form; its values at infinite arguments, x = -inf by its large-|x|
//   prefactor; overflow +inf whatever its sign: detail::hyp1f1_value);
//   Kummer's transformation M(a, b, x) = e^x M(b - a, b, -x) (DLMF 13.2.39)
//   for x < 0 where the series would cancel, with the rounding error of
//   b - a carried to first order; for a < 0 < x where the Maclaurin series
//   cancels beyond double-double, the recurrence in b (DLMF 13.3.2) run
//   backward from b + n (Deano, Segura, Temme 2010); for x > 0 the large-x
//   expansion DLMF 13.7.2 (both exponential parts, the subdominant one on
//   the Stokes line with cos(pi a)) where it reaches the double's
//   precision, else the Maclaurin series DLMF 13.2.2 (bounded terms).
//
// hyp2f1(a, b, c, x) = F(a, b; c; x), Gauss' function (DLMF 15.2.1), real x:
//   SciPy's (Cephes') checks and transformations in its order, with its
//   integer tolerance 1e-13 (Euler's transformation first for c - a - b <=
//   -1, its values at x >= 1; c = a, c = b; the poles of c; the polynomials
//   (a or b a non-positive integer) summed, Chu-Vandermonde at x = 1; inf
//   for x > 1 and, by Gauss' theorem DLMF 15.4.20 at x = 1, where c - a -
//   b <= 0; infinite and NaN arguments through its own steps in IEEE
//   arithmetic: detail::hyp2f1_main); then Pfaff's transformation
//   x -> x / (x - 1) (DLMF 15.8.1) for x < 0, so
//   the series is only ever summed at 0 <= z <= 1/2; for z > 1/2 the
//   1 - z connection DLMF 15.8.4 (Abramowitz-Stegun 15.3.6), and where
//   c - a - b is an integer its limit form (AS 15.3.10, 15.3.11; negative
//   integers first through Euler's transformation DLMF 15.8.1), the forms
//   Cephes' hyp2f1 and Zhang-Jin's HYGFX use.
//
// lambertw(z, k, tol): W_k(z), the branch k of the inverse of w e^w
//   (Corless, Gonnet, Hare, Jeffrey, Knuth 1996): initial values from the
//   branch-point series (their (4.22)) near -1/e, log(1 + z) near 0 on
//   the principal branch, the asymptotic L1 - L2 + L2 / L1 + ... of their
//   (4.19) elsewhere; then Halley's iteration (their (5.9)) until the step
//   is below tol relative to the value, at most 100 steps (NaN then, as
//   SciPy). SciPy's special values at 0, 1 and infinities. Only the
//   complex128 loop: scipy.special.lambertw passes k as an int64 array and
//   tol as a double, so its complex64 loop is never chosen from it.
#pragma once

#include "cuprum/complex.cuh"
#include "cuprum/special/common.cuh"
#include "cuprum/special/gamma.cuh"

namespace cuprum {
namespace special {
namespace detail {

constexpr double HYP_EPS = 2.220446049250313e-16;

__device__ __forceinline__ bool is_nonpos_int(double x) { return x <= 0.0 && x == ::floor(x); }

// 1 / Gamma(x), 0 at the poles.
__device__ __forceinline__ double hyp_rgamma(double x) {
  if (is_nonpos_int(x)) return 0.0;
  return 1.0 / ::tgamma(x);
}

// sign of Gamma(x) (x not a pole).
__device__ __forceinline__ double hyp_gamma_sign(double x) {
  if (x > 0.0) return 1.0;
  return (((long long)::floor(x)) & 1) ? -1.0 : 1.0;
}

// Gamma(p1) Gamma(p2) / (Gamma(q1) Gamma(q2)): directly where no
// argument exceeds the double's range of Gamma, else by log-gammas.
// A pole of a denominator gives 0.
__device__ inline double hyp_gamma_ratio(double p1, double p2, double q1, double q2) {
  if (is_nonpos_int(q1) || is_nonpos_int(q2)) return 0.0;
  if (::fabs(p1) < 160.0 && ::fabs(p2) < 160.0 && ::fabs(q1) < 160.0 && ::fabs(q2) < 160.0) {
    return ::tgamma(p1) * ::tgamma(p2) * (hyp_rgamma(q1) * hyp_rgamma(q2));
  }
  double s = hyp_gamma_sign(p1) * hyp_gamma_sign(p2) * hyp_gamma_sign(q1) * hyp_gamma_sign(q2);
  return s * ::exp(::lgamma(p1) + ::lgamma(p2) - ::lgamma(q1) - ::lgamma(q2));
}

// x^(d + e) for a small correction e (the rounding error of d): the
// parameter differences a - b are rounded, and x^d magnifies their error
// by |d log x|.
__device__ __forceinline__ double hyp_pow2(double x, double d, double e) {
  double p = ::pow(x, d);
  return e == 0.0 ? p : p + p * (e * ::log(x));
}

// s = a + b and its rounding error e (Knuth's TwoSum).
__device__ __forceinline__ double hyp_two_sum(double a, double b, double* e) {
  double s = a + b;
  double bb = s - a;
  *e = (a - (s - bb)) + (b - bb);
  return s;
}

// Double-double arithmetic (Dekker 1971) for the series that cancel.
struct hyp_dd {
  double hi, lo;
};
__device__ __forceinline__ hyp_dd hyp_dd_quick(double s, double e) {
  double h = s + e;
  return {h, e - (h - s)};
}
__device__ __forceinline__ hyp_dd hyp_dd_add(hyp_dd x, hyp_dd y) {
  double e;
  double s = hyp_two_sum(x.hi, y.hi, &e);
  return hyp_dd_quick(s, e + (x.lo + y.lo));
}
__device__ __forceinline__ hyp_dd hyp_dd_mul(hyp_dd x, hyp_dd y) {
  double p = x.hi * y.hi;
  double e = ::fma(x.hi, y.hi, -p);
  e += x.hi * y.lo + x.lo * y.hi;
  return hyp_dd_quick(p, e);
}
__device__ __forceinline__ hyp_dd hyp_dd_div(hyp_dd x, hyp_dd y) {
  double q1 = x.hi / y.hi;
  hyp_dd r = hyp_dd_add(x, hyp_dd_mul(y, {-q1, 0.0}));
  double q2 = r.hi / y.hi;
  r = hyp_dd_add(r, hyp_dd_mul(y, {-q2, 0.0}));
  double q3 = r.hi / y.hi;
  hyp_dd q = hyp_dd_quick(q1, q2);
  return hyp_dd_add(q, {q3, 0.0});
}
// a + k exactly, as a double-double.
__device__ __forceinline__ hyp_dd hyp_dd_sum(double a, double k) {
  double e;
  double s = hyp_two_sum(a, k, &e);
  return {s, e};
}

// The Maclaurin series of M(a, b, x) in double-double, for the points
// where its terms cancel (a < 0, x > 0): about 32 digits, so that the
// cancellation of up to 1e15 still leaves the double's. a is a + ae (ae
// the rounding error of b - a in Kummer's transformation, which the
// cancellation would magnify), b the exact sum b.hi + b.lo (b + n of the
// recurrence in b, hyp1f1_brec); `abssum` receives the sum of the terms'
// magnitudes.
__device__ __noinline__ hyp_dd hyp1f1_series_dd2(double a, double ae, hyp_dd b, double x,
                                                 double* abssum) {
  hyp_dd term = {1.0, 0.0}, sum = {1.0, 0.0};
  hyp_dd xx = {x, 0.0};
  double asum = 1.0;
  *abssum = inf();
  for (int k = 0; k < 5000; ++k) {
    hyp_dd num = hyp_dd_mul(hyp_dd_add(hyp_dd_sum(a, (double)k), {ae, 0.0}), xx);
    hyp_dd den = hyp_dd_mul(hyp_dd_add(b, {(double)k, 0.0}), {(double)(k + 1), 0.0});
    if (den.hi == 0.0) {
      if (num.hi != 0.0) sum = {inf(), 0.0};
      break;
    }
    term = hyp_dd_mul(term, hyp_dd_div(num, den));
    sum = hyp_dd_add(sum, term);
    asum += ::fabs(term.hi);
    if (term.hi == 0.0) break;
    if (::fabs(term.hi) <= 1e-33 * ::fabs(sum.hi) && ::fabs(num.hi) < 0.5 * ::fabs(den.hi)) break;
    if (!(::fabs(sum.hi) < inf())) break;
  }
  *abssum = asum;
  return sum;
}

__device__ __forceinline__ double hyp1f1_series_dd(double a, double b, double x) {
  double asum;
  hyp_dd v = hyp1f1_series_dd2(a, 0.0, {b, 0.0}, x, &asum);
  return v.hi + v.lo;
}

// m 2^k e^s without overflow or underflow on the way: e^s = 2^j e^r with
// j = rint(s / ln 2) and |r| <= ln(2) / 2 (ln 2 split so that j ln2_hi is
// exact).
__device__ inline double hyp1f1_scale(double m, int k, double s) {
  if (m == 0.0 || !(::fabs(m) < inf())) return m * ::exp(s);
  if (s < -1e6) return 0.0 * m;
  double j = ::rint(s * 1.4426950408889634);
  double r = (s - j * 0.693147180369123816490) - j * 1.90821492927058770002e-10;
  int e;
  double f = ::frexp(m, &e);
  double t = (double)k + (double)e + j;
  if (t > 4000.0) t = 4000.0;
  if (t < -4000.0) t = -4000.0;
  return ::ldexp(f * ::exp(r), (int)t);
}

// M(a, b, x) as m 2^k for x > 0, b not a non-positive integer, where the
// Maclaurin series cancels beyond what double-double absorbs (a < 0 and
// large x |a|): the recurrence DLMF 13.3.2,
//   (b - 1) M(a, b - 1, x) = (b - 1 + x) M(a, b, x) - x (1 - a / b) M(a, b + 1, x),
// run backward in b in double-double from M(a, b + n, x) and
// M(a, b + n + 1, x), whose series cancel little once b + n exceeds 2x
// and |a| x / 10. M is the recurrence's minimal solution as b -> +inf
// (the others grow like Gamma(b) x^-b; Deano, Segura and Temme,
// J. Comput. Appl. Math. 233 (2010) 1505-1510), so the backward direction
// is stable; b + k is kept exact as a double-double, a as a + ae. Returns
// false where n would exceed 20000 or the start values still cancel.
__device__ __noinline__ bool hyp1f1_brec(double a, double ae, double b, double x, double* m,
                                         int* k2) {
  double target = ::fmax(2.0 * x, 0.1 * ::fabs(a) * x);
  double nn = ::ceil(target - b);
  if (nn < 1.0) nn = 1.0;
  if (!(nn <= 20000.0)) return false;
  int n = (int)nn;
  double as0, as1;
  hyp_dd B = hyp_dd_sum(b, (double)n);
  hyp_dd m0 = hyp1f1_series_dd2(a, ae, B, x, &as0);
  hyp_dd m1 = hyp1f1_series_dd2(a, ae, hyp_dd_sum(b, (double)n + 1.0), x, &as1);
  if (!(as0 <= 1e13 * ::fabs(m0.hi)) || !(as1 <= 1e13 * ::fabs(m1.hi))) return false;
  hyp_dd xx = {x, 0.0};
  hyp_dd na = {-a, -ae};
  int e = 0;
  for (int k = n; k >= 1; --k) {
    hyp_dd bp = hyp_dd_sum(b, (double)k);          // b + k
    hyp_dd bm = hyp_dd_sum(b, (double)(k - 1));    // b + k - 1
    hyp_dd t1 = hyp_dd_mul(hyp_dd_add(bm, xx), m0);
    hyp_dd c1 = hyp_dd_div(hyp_dd_mul(xx, hyp_dd_add(bp, na)), bp);
    hyp_dd t2 = hyp_dd_mul(c1, m1);
    hyp_dd mm = hyp_dd_div(hyp_dd_add(t1, {-t2.hi, -t2.lo}), bm);
    m1 = m0;
    m0 = mm;
    if (::fabs(m0.hi) > 0x1p900) {
      m0 = {::ldexp(m0.hi, -900), ::ldexp(m0.lo, -900)};
      m1 = {::ldexp(m1.hi, -900), ::ldexp(m1.lo, -900)};
      e += 900;
    }
    if (!(::fabs(m0.hi) < inf())) return false;
  }
  *m = m0.hi + m0.lo;
  *k2 = e;
  return true;
}

// The Maclaurin series of M(a, b, x) (DLMF 13.2.2), summed until a term
// below eps of the sum once the terms decrease; (a)_n / (b)_n cancel
// where both reach 0 (a non-positive integer >= b), inf where b's pole
// is reached first. `abssum` receives the sum of the terms' magnitudes;
// `dda`, where given, the derivative in a (the terms times
// sum_{j<k} 1 / (a + j)), for a's rounding error in Kummer's
// transformation.
__device__ inline double hyp1f1_series(double a, double b, double x, double* abssum,
                                       double* dda = nullptr) {
  double term = 1.0, sum = 1.0, asum = 1.0, h = 0.0, dsum = 0.0;
  *abssum = inf();
  for (int k = 0; k < 5000; ++k) {
    double apk = a + k, bpk = b + k;
    double r;
    if (bpk != 0.0) {
      r = apk / bpk * x / (k + 1);
    } else if (apk == 0.0) {
      r = 0.0;  // SciPy's polynomial ends where (a)_n does
    } else {
      return inf();
    }
    term *= r;
    sum += term;
    asum += ::fabs(term);
    if (dda && apk != 0.0) {
      h += 1.0 / apk;
      dsum += term * h;
    }
    if (term == 0.0) break;
    if (::fabs(term) <= HYP_EPS * ::fabs(sum) && ::fabs(r) < 0.5) break;
  }
  *abssum = asum;
  if (dda) *dda = dsum;
  return sum;
}

// e^s M(a, b, x) for x > 0 by DLMF 13.7.2, or NaN where the expansion does
// not reach eps before its terms grow.
__device__ __noinline__ double hyp1f1_asymptotic(double a, double b, double x, double s,
                                               double ae = 0.0) {
  // Dominant part: Gamma(b) / Gamma(a) e^x x^(a - b) sum (1-a)_n (b-a)_n / n! x^-n
  // (none for a non-positive integer, whose subdominant sum is the whole,
  // finite, polynomial).
  double ra = hyp_rgamma(a), rba = hyp_rgamma(b - a);
  bool poly = ra == 0.0;
  double t = 1.0, sum = 1.0;
  bool done = poly;
  for (int n = 0; n < 200 && !poly; ++n) {
    double r = (1.0 - a + n) * (b - a + n) / ((n + 1) * x);
    t *= r;
    sum += t;
    if (t == 0.0 || ::fabs(t) <= HYP_EPS * ::fabs(sum)) {
      done = true;
      break;
    }
    if (::fabs(r) >= 1.0 && n > 0) break;
  }
  if (!done) return nan();
  // Subdominant part on the Stokes line: Gamma(b) / Gamma(b - a) cos(pi a)
  // x^-a sum (a)_n (a-b+1)_n / n! (-x)^-n.
  double t2 = 1.0, sum2 = 1.0;
  for (int n = 0; n < 200; ++n) {
    double r = -(a + n) * (a - b + 1.0 + n) / ((n + 1) * x);
    if (::fabs(r) >= 1.0 && n > 0 && !poly) break;
    t2 *= r;
    sum2 += t2;
    if (t2 == 0.0 || ::fabs(t2) <= HYP_EPS * ::fabs(sum2)) break;
  }
  double e;
  double amb = hyp_two_sum(a, -b, &e);
  e += ae;
  double dom = inf(), sub = inf();
  if (::fabs(b) < 160.0 && ::fabs(a) < 160.0 && x + s < 1400.0 && x + s > -700.0) {
    double g = ::tgamma(b);
    dom = poly ? 0.0 : hyp1f1_scale((g * ra) * hyp_pow2(x, amb, e) * sum, 0, x + s);
    sub = (g * rba) * (::exp(s) * ::pow(x, -a)) * sum2;
  }
  if (!(::fabs(dom) < inf() && ::fabs(sub) < inf())) {
    double lg = ::lgamma(b);
    double sg = hyp_gamma_sign(b);
    dom = poly ? 0.0
                    : sg * hyp_gamma_sign(a) * sum *
                          ::exp(lg - ::lgamma(a) + x + s + amb * ::log(x));
    sub = rba == 0.0 ? 0.0
                     : sg * hyp_gamma_sign(b - a) * sum2 *
                           ::exp(lg - ::lgamma(b - a) + s - a * ::log(x));
  }
  double ca = ::cospi(a);
  if (ae != 0.0) {
    // a is a + ae: first order in ae of 1 / Gamma(a) (dominant part) and
    // of cos(pi a) x^-a / Gamma(b - a) (subdominant part).
    if (!poly) dom *= 1.0 - digamma(a) * ae;
    if (rba != 0.0) {
      sub *= 1.0 - ae * (::log(x) - digamma(b - a));
      ca -= PI * ::sinpi(a) * ae;
    }
  }
  sub *= ca;
  return dom + sub;
}

// e^s M(a + ae, b, x) for x > 0, b not a non-positive integer, a > 0 or
// a non-positive integer.
__device__ inline double hyp1f1_plain(double a, double b, double x, double s, double ae = 0.0) {
  if (x > 20.0) {
    double v = hyp1f1_asymptotic(a, b, x, s, ae);
    if (!is_nan(v)) return v;
  }
  double asum, da;
  double v = hyp1f1_series(a, b, x, &asum, &da);
  v += ae * da;
  return s == 0.0 ? v : hyp1f1_scale(v, 0, s);
}

// e^s M(a + ae, b, x), x > 0, b not a non-positive integer (ae: the
// rounding error of a = b - a' in Kummer's transformation, else 0).
__device__ inline double hyp1f1_positive(double a, double b, double x, double s, double ae = 0.0) {
  if (a < 0.0) {
    if (x > 20.0 && !is_nonpos_int(a)) {
      double v = hyp1f1_asymptotic(a, b, x, s, ae);
      if (!is_nan(v)) return v;
    }
    double asum, da;
    double v = hyp1f1_series(a, b, x, &asum, &da);
    if (!(asum > 64.0 * ::fabs(v))) {
      v += ae * da;
      return s == 0.0 ? v : hyp1f1_scale(v, 0, s);
    }
    hyp_dd w = hyp1f1_series_dd2(a, ae, {b, 0.0}, x, &asum);
    v = w.hi + w.lo;
    if (asum > 1e14 * ::fabs(v)) {
      // Beyond double-double: the backward recurrence in b.
      double m;
      int k;
      if (hyp1f1_brec(a, ae, b, x, &m, &k)) return hyp1f1_scale(m, k, s);
    }
    return s == 0.0 ? v : hyp1f1_scale(v, 0, s);
  }
  return hyp1f1_plain(a, b, x, s, ae);
}

__device__ __noinline__ double hyp1f1_general(double a, double b, double x) {
  if (x > 0.0) return hyp1f1_positive(a, b, x, 0.0);
  // x < 0: the series without cancellation where its terms fall at once
  // (SciPy's criterion), else Kummer's transformation.
  if (b > 0.0 && (::fabs(a) + 1.0) * ::fabs(x) < 0.9 * b) {
    double asum;
    return hyp1f1_series(a, b, x, &asum);
  }
  double ae;
  double ba = hyp_two_sum(b, -a, &ae);
  return hyp1f1_positive(ba, b, -x, x, ae);
}

// SciPy's M(a, b, -inf) for finite a, b past its closed forms: Boost's
// large-|x| expansion (DLMF 13.7.2 after Kummer's transformation) gives
// Gamma(b) / Gamma(b - a) |x|^(b - a) |x|^-b, the powers evaluated at
// inf: +-0 for 0 < b < a, +-inf (inf for SciPy) for a < b < 0, NaN for
// the other signs; only where it uses the powers directly, |b - a| and
// |b| below 10, |a| at least 0.001 (0.01 for b < 0), and b - a and a not
// negative integers. NaN elsewhere (its other methods meet inf - inf).
__device__ inline double hyp1f1_minf(double a, double b) {
  double d = b - a;
  if (::fabs(a) < (double)0.001f || (b < 0.0 && ::fabs(a) < 1e-2)) return nan();
  if (is_nonpos_int(d) || is_nonpos_int(a)) return nan();
  if (!(::fabs(d) < 10.0 && ::fabs(b) < 10.0)) return nan();
  double p = (d > 0.0 ? inf() : 0.0) * (b < 0.0 ? inf() : 0.0);
  return p * ::tgamma(b) / ::tgamma(d);
}

// M(a, b, x) in SciPy's order of rules (its wrapper of Boost's
// hypergeometric_1F1, then Boost's closed forms), before SciPy's sign of
// overflow.
__device__ __noinline__ double hyp1f1_value(double a, double b, double x) {
  if (is_nan(a) || is_nan(b) || is_nan(x)) return nan();
  double asum;
  bool poly = false;
  if (b <= 0.0 && b == ::trunc(b)) {
    // b a non-positive integer (or -inf). a = b: the series whose (a)_k
    // and (b)_k end together, sum_{k <= -b} x^k / k!.
    if (b != 0.0 && a == b) {
      if (b == -inf()) return nan();
      if (is_inf(x)) return inf();
      double v = hyp1f1_series(a, b, x, &asum);
      return asum > 64.0 * ::fabs(v) ? hyp1f1_series_dd(a, b, x) : v;
    }
    // inf unless a is a negative integer >= b, a polynomial.
    if (!(a < 0.0 && a == ::trunc(a) && a >= b)) return inf();
    poly = true;
  }
  if (x == 0.0 || a == 0.0) return 1.0;
  if (a == -1.0) {
    double r = 1.0 - x / b;
    return ::fabs(r) < 0.5 ? (b - x) / b : r;
  }
  if (poly && b == -inf()) return 1.0;
  if (b - a == 0.0) return is_inf(x) ? nan() : ::exp(x);
  if (b - a == -1.0 && ::fabs(a) > 0.5 && !(poly && a > -50.0)) {
    // M(b + 1, b, x) = (1 + x / b) e^x, as SciPy's (b + x) e^x / b.
    if (is_inf(x)) return nan();
    double h = 0.5 * x;
    return (b + x) / b * ::exp(h) * ::exp(x - h);
  }
  // (|a| <= 1/2: SciPy's series loses every digit at its zero x = -b.)
  if (b - a == -1.0 && b + x == 0.0 && !poly) return nan();
  if (poly && is_inf(x)) return inf();
  if (a == 1.0 && b == 2.0) {
    if (is_inf(x)) return x > 0.0 ? inf() : 0.0;
    return ::expm1(x) / x;
  }
  // SciPy's values at the infinities.
  if (b == inf()) {
    if (is_inf(x)) return nan();
    return (a == inf() && x < -1.0) ? ::exp(x) : 1.0;
  }
  if (is_inf(a)) return nan();
  if (x == -inf()) return hyp1f1_minf(a, b);
  if (x == inf()) return nan();
  if (poly || is_nonpos_int(a)) {
    // A polynomial, in double-double where its terms cancel, by the
    // recurrence in b beyond that.
    double v = hyp1f1_series(a, b, x, &asum);
    if (!(asum > 64.0 * ::fabs(v))) return v;
    hyp_dd w = hyp1f1_series_dd2(a, 0.0, {b, 0.0}, x, &asum);
    v = w.hi + w.lo;
    if (!poly && x > 0.0 && asum > 1e14 * ::fabs(v)) {
      double m;
      int k;
      if (hyp1f1_brec(a, 0.0, b, x, &m, &k)) return hyp1f1_scale(m, k, 0.0);
    }
    return v;
  }
  return hyp1f1_general(a, b, x);
}

}  // namespace detail

// M(a, b, x), Kummer's confluent hypergeometric function (see the header
// comment): SciPy's rules in its order (detail::hyp1f1_value), and its
// overflow, +inf whatever the sign.
__device__ inline double hyp1f1(double a, double b, double x) {
  double v = detail::hyp1f1_value(a, b, x);
  return v == -detail::inf() ? detail::inf() : v;
}

__device__ __forceinline__ float hyp1f1(float a, float b, float x) {
  return (float)hyp1f1((double)a, (double)b, (double)x);
}

namespace detail {

// The Gauss series sum (a)_n (b)_n / ((c)_n n!) z^n (DLMF 15.2.1), until a
// term below eps of the sum once the terms decrease; exact for the
// polynomials (a term reaches 0).
__device__ inline double hyp2f1_series(double a, double b, double c, double z) {
  double term = 1.0, sum = 1.0;
  for (int k = 0; k < 10000; ++k) {
    double num = (a + k) * (b + k);
    if (num == 0.0) break;  // a polynomial ends (before a pole of c)
    double r = num / ((c + k) * (k + 1)) * z;
    term *= r;
    sum += term;
    if (term == 0.0) break;
    if (::fabs(term) <= HYP_EPS * ::fabs(sum) && ::fabs(r) < 0.75) break;
  }
  return sum;
}

// F(a, b; a + b + m; z) for an integer m >= 0 and 1/2 < z < 1 (AS 15.3.10,
// 15.3.11), a and b not non-positive integers.
__device__ __noinline__ double hyp2f1_degenerate(double a, double b, int m, double z) {
  double w = 1.0 - z;
  double lw = ::log(w);
  double c = a + b + m;
  // Finite part: Gamma(m) Gamma(c) / (Gamma(a+m) Gamma(b+m))
  // sum_{n<m} (a)_n (b)_n / (n! (1-m)_n) w^n.
  double fin = 0.0;
  if (m > 0) {
    double t = 1.0, s = 1.0;
    for (int n = 0; n < m - 1; ++n) {
      t *= (a + n) * (b + n) / ((n + 1) * (1.0 - m + n)) * w;
      s += t;
    }
    fin = hyp_gamma_ratio((double)m, c, a + m, b + m) * s;
  }
  // Log part: -(z-1)^m Gamma(c) / (Gamma(a) Gamma(b)) sum_n (a+m)_n (b+m)_n
  // / (n! (n+m)!) w^n [ln w - psi(n+1) - psi(n+m+1) + psi(a+n+m) + psi(b+n+m)].
  double pn1 = digamma(1.0);
  double pnm = digamma(m + 1.0);
  double pa = digamma(a + m), pb = digamma(b + m);
  double t = 1.0;
  for (int k = 1; k <= m; ++k) t /= k;  // 1 / m!
  double s = 0.0;
  for (int n = 0; n < 3000; ++n) {
    double v = t * (lw - pn1 - pnm + pa + pb);
    s += v;
    if (::fabs(v) <= HYP_EPS * ::fabs(s) && n > 2) break;
    double an = a + m + n, bn = b + m + n;
    t *= an * bn / ((n + 1.0) * (n + m + 1.0)) * w;
    pn1 += 1.0 / (n + 1.0);
    pnm += 1.0 / (n + m + 1.0);
    pa += 1.0 / an;
    pb += 1.0 / bn;
    if (t == 0.0) break;
  }
  double sign = (m & 1) ? 1.0 : -1.0;  // -(z-1)^m = -(-1)^m w^m
  double lg = hyp_gamma_ratio(c, 1.0, a, b);
  return fin + sign * ::pow(w, (double)m) * lg * s;
}

// F(a, b; c; z) for 0 <= z < 1, a and b not non-positive integers.
__device__ inline double hyp2f1_unit(double a, double b, double c, double z) {
  if (z <= 0.75) return hyp2f1_series(a, b, c, z);
  double d = c - a - b;
  double id = ::rint(d);
  double w = 1.0 - z;
  if (::fabs(d - id) > 1e-13 * (1.0 + ::fabs(d))) {
    // Near an integer c - a - b the two terms of AS 15.3.6 cancel: the
    // series converges well enough below 0.95 (Cephes tries it first).
    if (::fabs(d - id) < 1e-3 && z < 0.95) return hyp2f1_series(a, b, c, z);
    // AS 15.3.6.
    double t1 = hyp_gamma_ratio(c, d, c - a, c - b);
    double t2 = hyp_gamma_ratio(c, -d, a, b);
    double f1 = t1 == 0.0 ? 0.0 : t1 * hyp2f1_series(a, b, 1.0 - d, w);
    double f2 = t2 == 0.0 ? 0.0 : t2 * ::pow(w, d) * hyp2f1_series(c - a, c - b, 1.0 + d, w);
    return f1 + f2;
  }
  if (id < 0.0) {
    // Euler: F(a, b; c; z) = w^d F(c-a, c-b; c; z), c - (c-a) - (c-b) = -d.
    double a2 = c - a, b2 = c - b;
    if (is_nonpos_int(a2) || is_nonpos_int(b2)) return ::pow(w, d) * hyp2f1_series(a2, b2, c, z);
    return ::pow(w, d) * hyp2f1_degenerate(a2, b2, (int)(-id), z);
  }
  return hyp2f1_degenerate(a, b, (int)id, z);
}

__device__ __noinline__ double hyp2f1_general(double a, double b, double c, double x) {
  if (x >= 0.0) return hyp2f1_unit(a, b, c, x);
  // Pfaff: F(a, b; c; x) = (1-x)^-a F(a, c-b; c; x/(x-1)).
  double z = x / (x - 1.0);
  double s = 1.0 - x;
  if (::fabs(a) > ::fabs(b)) {
    double t = a;
    a = b;
    b = t;
  }
  double b2 = c - b;
  double p = ::pow(s, -a);
  if (is_nonpos_int(b2)) return p * hyp2f1_series(a, b2, c, z);
  return p * hyp2f1_unit(a, b2, c, z);
}

// Cephes' tolerance for an integer parameter (SciPy's hyp2f1 is
// Cephes', which takes v within 1e-13 of a non-positive integer for one).
constexpr double HYP2F1_EPS = 1e-13;

// pow out of line (the rules call it in many places, each an inlined
// libdevice pow otherwise).
__device__ __noinline__ double hyp2f1_pow(double x, double y) { return ::pow(x, y); }

__device__ __forceinline__ bool hyp2f1_nint(double v) {
  return v <= 0.0 && ::fabs(v - ::round(v)) < HYP2F1_EPS;
}

// SciPy's F(a, -m; -m; x) = sum_{k <= m} (a)_k x^k / k! (b = c = -m;
// Abramowitz-Stegun 15.4.2 read as the sum up to x^m): NaN for m >= 1e5
// or where the sum cancels more than 1e9 (its loss check); in
// double-double where it cancels at all.
__device__ __noinline__ double hyp2f1_negc_bc(double a, double b, double x) {
  if (!(::fabs(b) < 1e5)) return nan();
  double t = 1.0, sum = 1.0, tmax = 1.0;
  for (double k = 1.0; k <= -b; k += 1.0) {
    t *= (a + k - 1.0) * x / k;
    tmax = ::fmax(::fabs(t), tmax);
    sum += t;
  }
  if (1e-16 * (1.0 + tmax / ::fabs(sum)) > 1e-7) return nan();
  if (!(tmax > 64.0 * ::fabs(sum)) || !(::fabs(a) < inf()) || !(::fabs(x) < inf())) return sum;
  hyp_dd td = {1.0, 0.0}, sd = {1.0, 0.0};
  for (double k = 1.0; k <= -b; k += 1.0) {
    td = hyp_dd_div(hyp_dd_mul(td, hyp_dd_mul(hyp_dd_sum(a, k - 1.0), {x, 0.0})), {k, 0.0});
    sd = hyp_dd_add(sd, td);
  }
  return sd.hi + sd.lo;
}

// F(a, b; c; x) for finite arguments, x < 1, c not a pole, a and b not
// non-positive integers: (1 - x)^-a and (1 - x)^-b at c = b and c = a
// (SciPy's within 1e-13 for |x| < 1), else hyp2f1_general.
__device__ inline double hyp2f1_fin(double a, double b, double c, double x) {
  if (::fabs(x) < 1.0 || x == -1.0) {
    if (::fabs(b - c) < HYP2F1_EPS) return hyp2f1_pow(1.0 - x, -a);
    if (::fabs(a - c) < HYP2F1_EPS) return hyp2f1_pow(1.0 - x, -b);
  }
  if (b == c) return hyp2f1_pow(1.0 - x, -a);
  if (a == c) return hyp2f1_pow(1.0 - x, -b);
  return hyp2f1_general(a, b, c, x);
}

// Cephes' Gamma and 1/Gamma at non-finite arguments (inf, -inf and NaN
// pass through Gamma; 1/Gamma(inf) = 0, NaN at -inf), for its
// transformations with infinite parameters.
__device__ __noinline__ double hyp2f1_gam(double v) { return ::fabs(v) < inf() ? ::tgamma(v) : v; }
__device__ inline double hyp2f1_rgam(double v) {
  if (v == inf()) return 0.0;
  if (!(::fabs(v) < inf())) return nan();
  return is_nonpos_int(v) ? 0.0 : 1.0 / hyp2f1_gam(v);
}

// Gamma(c) Gamma(d) / (Gamma(p) Gamma(r)): Gauss' theorem (DLMF 15.4.20)
// with d = c - a - b, p = c - a, r = c - b, or the 1/x connection's
// coefficients; Cephes' values at non-finite arguments.
__device__ __noinline__ double hyp2f1_gamma4(double c, double d, double p, double r) {
  if (::fabs(c) < inf() && ::fabs(d) < inf() && ::fabs(p) < inf() && ::fabs(r) < inf())
    return hyp_gamma_ratio(c, d, p, r);
  return hyp2f1_gam(c) * hyp2f1_gam(d) * (hyp2f1_rgam(p) * hyp2f1_rgam(r));
}

// SciPy's order of rules (Cephes' hyp2f1: the order of its checks and
// transformations), at recursion depth L (its Euler, Pfaff and 1/x
// transformations call it again; the depth is bounded, NaN beyond 3,
// which SciPy's values do not reach). Finite arguments take hyp2f1_fin wherever a
// transformation could not change a special value; the others (an
// infinite or NaN argument) follow Cephes' steps in IEEE arithmetic,
// which give SciPy's values there: hyp2f1_hyt (its transformations near
// |x| = 1), hyp2f1_hys (its series, with its order of operations and its
// stop while the sum is 0) and hyp2f1_ra (its recurrence in a,
// Abramowitz-Stegun 15.2.10, for large |a|).
template <int L> __device__ __noinline__ double hyp2f1_main(double a, double b, double c, double x);
template <int L> __device__ __noinline__ double hyp2f1_hys(double a, double b, double c, double x);
template <> __device__ __noinline__ double hyp2f1_main<4>(double, double, double, double) {
  return nan();
}
template <> __device__ __noinline__ double hyp2f1_hys<4>(double, double, double, double) {
  return nan();
}

template <int L> __device__ __noinline__ double hyp2f1_ra(double a, double b, double c, double x) {
  double da = ((c < 0.0 && a <= c) || (c >= 0.0 && a >= c)) ? ::round(a - c) : ::round(a);
  double t = a - da;
  if (::fabs(da) > 10000.0) return nan();
  double f2 = 0.0, f1 = hyp2f1_hys<L + 1>(t, b, c, x), f0;
  if (da < 0.0) {
    f0 = hyp2f1_hys<L + 1>(t - 1.0, b, c, x);
    t -= 1.0;
    for (double n = 1.0; n < -da; n += 1.0) {
      f2 = f1;
      f1 = f0;
      f0 = -(2.0 * t - c - t * x + b * x) / (c - t) * f1 - t * (x - 1.0) / (c - t) * f2;
      t -= 1.0;
    }
  } else {
    f0 = hyp2f1_hys<L + 1>(t + 1.0, b, c, x);
    t += 1.0;
    for (double n = 1.0; n < da; n += 1.0) {
      f2 = f1;
      f1 = f0;
      f0 = -((2.0 * t - c - t * x + b * x) * f1 + (c - t) * f2) / (t * (x - 1.0));
      t += 1.0;
    }
  }
  return f0;
}

// Cephes' integer tests on a rounded int (false beyond the int's range,
// as on x86): v <= 0 (its a and b near |x| = 1), or the rounded value
// <= 0 (its series' swap, and c - a, c - b), which takes 0 < v < 1e-13
// for 0.
__device__ __forceinline__ bool hyp2f1_nint_i(double v) {
  return ::fabs(v) < 2147483647.0 && hyp2f1_nint(v);
}
__device__ __forceinline__ bool hyp2f1_nint_r(double v) {
  return ::fabs(v) < 2147483647.0 && ::round(v) <= 0.0 && ::fabs(v - ::round(v)) < HYP2F1_EPS;
}

template <int L> __device__ double hyp2f1_hys(double a, double b, double c, double x) {
  const double MACHEP = 1.11022302462515654042e-16;
  if (::fabs(b) > ::fabs(a)) {
    double t = a;
    a = b;
    b = t;
  }
  bool intflag = false;
  if (hyp2f1_nint_r(b) && ::fabs(b) < ::fabs(a)) {
    double t = a;
    a = b;
    b = t;
    intflag = true;
  }
  if ((::fabs(a) > ::fabs(c) + 1.0 || intflag) && ::fabs(c - a) > 2.0 && ::fabs(a) > 2.0)
    return hyp2f1_ra<L>(a, b, c, x);
  double s = 1.0, u = 1.0;
  for (int i = 0; i < 10000; ++i) {
    if (::fabs(c) < HYP2F1_EPS) return inf();
    double k = (double)i;
    u = u * ((a + k) * (b + k) * x / ((c + k) * (k + 1.0)));
    s += u;
    if (!(s == 0.0 || ::fabs(u / s) > MACHEP)) break;
  }
  return s;
}

template <int L> __device__ __noinline__ double hyp2f1_hyt(double a, double b, double c, double x) {
  bool ni = hyp2f1_nint_i(a) || hyp2f1_nint_i(b);
  double s = 1.0 - x;
  if (x < -0.5 && !ni) {
    if (b > a) return hyp2f1_pow(s, -a) * hyp2f1_hys<L>(a, c - b, c, -x / s);
    return hyp2f1_pow(s, -b) * hyp2f1_hys<L>(c - a, b, c, -x / s);
  }
  // (Near x = 1 its Gamma and psi functions of an infinite c - a - b
  // give NaN.)
  if (x > 0.9 && !ni) return nan();
  return hyp2f1_hys<L>(a, b, c, x);
}

// Whether Cephes' series (hyp2f1_hys) passes (a, b, c) to its recurrence
// in a, upward.
__device__ inline bool hyp2f1_ra_up(double a, double b, double c) {
  if (::fabs(b) > ::fabs(a)) {
    double t = a;
    a = b;
    b = t;
  }
  bool intflag = false;
  if (hyp2f1_nint_r(b) && ::fabs(b) < ::fabs(a)) {
    a = b;
    intflag = true;
  }
  if (!((::fabs(a) > ::fabs(c) + 1.0 || intflag) && ::fabs(c - a) > 2.0 && ::fabs(a) > 2.0))
    return false;
  double da = ((c < 0.0 && a <= c) || (c >= 0.0 && a >= c)) ? ::round(a - c) : ::round(a);
  return da > 0.0;
}

// The polynomial (a or b a non-positive integer, finite arguments) summed
// (the shorter one); near x = 1, where its terms cancel, by DLMF 15.8.7,
// F(-n, b; c; x) = (c-b)_n / (c)_n F(-n, b; b - c - n + 1; 1 - x), where
// defined; at x = 1 by Chu-Vandermonde. SciPy's special values: its own
// steps (hyp2f1_hys) for |c| < 1e-13 (its series' guard), before a pole of
// c (its series runs on while the sum is 0, into the pole: NaN) and at
// x = 1 where it recurs upward in a.
__device__ __noinline__ double hyp2f1_poly(double a, double b, double c, double x) {
  if (hyp2f1_nint(c) || ::fabs(c) < HYP2F1_EPS || (x == 1.0 && hyp2f1_ra_up(a, b, c)))
    return hyp2f1_hys<1>(a, b, c, x);
  bool na = hyp2f1_nint(a), nb = hyp2f1_nint(b);
  // (A parameter within 1e-13 of the integer is summed as the integer's
  // polynomial: SciPy's series of the unrounded one does not end, and
  // diverges for |x| > 1.)
  if (na) a = ::round(a);
  if (nb) b = ::round(b);
  if (na && nb) {
    if (b > a) {
      double t = a;
      a = b;
      b = t;
    }
  } else if (nb) {
    double t = a;
    a = b;
    b = t;
  }
  double n = -a, c2 = b - c - n + 1.0;
  double v;
  if (x == 1.0 && n <= 10000.0) {
    // Chu-Vandermonde, DLMF 15.4.24: F(-n, b; c; 1) = (c - b)_n / (c)_n
    // (a zero as +0, SciPy's sum's).
    v = 1.0;
    for (int k = 0; k < (int)::rint(n); ++k) v *= (c - b + k) / (c + k);
    if (v == 0.0) v = 0.0;
  } else if (x > 0.5 && x <= 1.0 && n <= 1000.0 && !is_nonpos_int(c2) && !is_nonpos_int(c)) {
    double r = 1.0;
    for (int k = 0; k < (int)n; ++k) r *= (c - b + k) / (c + k);
    v = r * hyp2f1_series(a, b, c2, 1.0 - x);
  } else {
    v = hyp2f1_series(a, b, c, x);
  }
  return v;
}

template <int L> __device__ double hyp2f1_main(double a, double b, double c, double x) {
  bool fin = ::fabs(a) < inf() && ::fabs(b) < inf() && ::fabs(c) < inf() && ::fabs(x) < inf();
  if (x == 0.0) return 1.0;
  double d = c - a - b;
  if ((a == 0.0 || b == 0.0) && c != 0.0) return 1.0;
  bool na = hyp2f1_nint(a), nb = hyp2f1_nint(b);
  double s = 1.0 - x;
  bool cpole = hyp2f1_nint(c);
  if (d <= -1.0 && !(::fabs(d - ::round(d)) > HYP2F1_EPS && s < 0.0) && !(na || nb)) {
    // Euler's transformation F = (1 - x)^d F(c - a, c - b; c; x) (DLMF
    // 15.8.1): its special values at x >= 1, a pole of c or an infinity.
    if (fin && x < 1.0 && !cpole) {
      // (Taken where c - a or c - b is a non-positive integer: SciPy's
      // polynomial after it, its zeros exact.)
      if (!(hyp2f1_nint(c - a) || hyp2f1_nint(c - b))) return hyp2f1_fin(a, b, c, x);
    }
    return hyp2f1_pow(s, d) * hyp2f1_main<L + 1>(c - a, c - b, c, x);
  }
  if (d <= 0.0 && x == 1.0 && !(na || nb)) return inf();
  if (::fabs(x) < 1.0 || x == -1.0) {
    if (::fabs(b - c) < HYP2F1_EPS) return nb ? hyp2f1_negc_bc(a, b, x) : hyp2f1_pow(s, -a);
    if (::fabs(a - c) < HYP2F1_EPS) return hyp2f1_pow(s, -b);
  }
  bool poly = na || nb;
  if (cpole) {
    // inf unless a non-positive integer a or b ends the series before
    // the pole.
    if (!((na && ::round(a) > ::round(c)) || (nb && ::round(b) > ::round(c)))) return inf();
    poly = true;
  }
  if (poly) return fin ? hyp2f1_poly(a, b, c, x) : hyp2f1_hyt<L>(a, b, c, x);
  double t1 = ::fabs(b - a);
  if (x < -2.0 && ::fabs(t1 - ::round(t1)) > HYP2F1_EPS) {
    if (fin) return hyp2f1_fin(a, b, c, x);
    // The 1/x connection DLMF 15.8.2.
    double p = hyp2f1_main<L + 1>(a, 1.0 - c + a, 1.0 - b + a, 1.0 / x) * hyp2f1_pow(-x, -a);
    double q = hyp2f1_main<L + 1>(b, 1.0 - c + b, 1.0 - a + b, 1.0 / x) * hyp2f1_pow(-x, -b);
    return hyp2f1_gamma4(c, b - a, b, c - a) * p + hyp2f1_gamma4(c, a - b, a, c - b) * q;
  }
  if (x < -1.0) {
    if (fin) return hyp2f1_fin(a, b, c, x);
    // Pfaff's transformation DLMF 15.8.1.
    if (::fabs(a) < ::fabs(b))
      return hyp2f1_pow(s, -a) * hyp2f1_main<L + 1>(a, c - b, c, x / (x - 1.0));
    return hyp2f1_pow(s, -b) * hyp2f1_main<L + 1>(b, c - a, c, x / (x - 1.0));
  }
  if (::fabs(x) > 1.0) return inf();
  double p = c - a, r = c - b;
  // (Cephes tests these two by their rounded value, so that c - a within
  // 1e-13 above 0 counts.)
  bool ncacb = hyp2f1_nint_r(p) || hyp2f1_nint_r(r);
  if (::fabs(::fabs(x) - 1.0) < HYP2F1_EPS) {
    // |x| = 1 for Cephes.
    if (x > 0.0) {
      if (ncacb) {
        if (!(d >= 0.0)) return inf();
        if (!fin) return hyp2f1_pow(s, d) * hyp2f1_hys<L>(p, r, c, x);
        if (x == 1.0)
          return hyp2f1_pow(s, d) * (hyp2f1_nint(p) || hyp2f1_nint(r) ? hyp2f1_poly(p, r, c, x)
                                                                      : hyp2f1_hys<L>(p, r, c, x));
        return hyp2f1_fin(a, b, c, x);
      }
      if (d <= 0.0) return inf();
      // Gauss' theorem DLMF 15.4.20.
      return hyp2f1_gamma4(c, d, p, r);
    }
    if (d <= -1.0) return inf();
  }
  if (fin) return hyp2f1_fin(a, b, c, x);
  if (ncacb && !(d < 0.0)) return hyp2f1_pow(s, d) * hyp2f1_hys<L>(p, r, c, x);
  return hyp2f1_hyt<L>(a, b, c, x);
}

}  // namespace detail

// F(a, b; c; x), Gauss' hypergeometric function of real x (see the header
// comment), with SciPy's special values in its order (detail::hyp2f1_main).
__device__ inline double hyp2f1(double a, double b, double c, double x) {
  return detail::hyp2f1_main<0>(a, b, c, x);
}

__device__ __forceinline__ float hyp2f1(float a, float b, float c, float x) {
  return (float)hyp2f1((double)a, (double)b, (double)c, (double)x);
}

namespace detail {

// Halley's iteration for w e^w = z from w (Corless et al. (5.9)), in the
// form that keeps e^w finite for the sign of Re w; NaN if 100 steps do not
// bring the step below tol |w|.
__device__ __noinline__ cuprum::complex<double> lambertw_halley(cuprum::complex<double> z,
                                                                cuprum::complex<double> w,
                                                                double tol) {
  typedef cuprum::complex<double> C;
  for (int i = 0; i < 100; ++i) {
    C wn;
    if (w.re >= 0.0) {
      C ew = cuprum::exp(-w);
      C wewz = w - z * ew;
      wn = w - wewz / (w + 1.0 - (w + 2.0) * wewz / (2.0 * w + 2.0));
    } else {
      C ew = cuprum::exp(w);
      C wew = w * ew;
      C wewz = wew - z;
      wn = w - wewz / (wew + ew - (w + 2.0) * wewz / (2.0 * w + 2.0));
    }
    if (cuprum::abs(wn - w) <= tol * cuprum::abs(wn)) return wn;
    w = wn;
  }
  return C(nan(), nan());
}

}  // namespace detail

// W_k(z), the branch k of Lambert's W (see the header comment).
__device__ inline cuprum::complex<double> lambertw(cuprum::complex<double> z, long long k,
                                                   double tol) {
  using namespace detail;
  typedef cuprum::complex<double> C;
  const double twopi = 6.283185307179586476925286766559;
  if (is_nan(z.re) || is_nan(z.im)) return z;
  if (z.re == inf()) return C(z.re, z.im + twopi * (double)k);
  if (z.re == -inf()) return C(-z.re, -z.im + (twopi * (double)k + PI));
  if (z.re == 0.0 && z.im == 0.0) {
    if (k == 0) return z;
    return C(-inf(), 0.0);
  }
  if (z.re == 1.0 && z.im == 0.0 && k == 0) return C(0.56714329040978387299996866221035555, 0.0);
  const double em1 = 0.36787944117144232159552377016146087;  // 1/e
  C w;
  C zb = z + em1;
  double rb = cuprum::abs(zb);
  if (k == 0 && rb < 0.3) {
    // Branch-point series in p = sqrt(2 (e z + 1)) (Corless et al. (4.22)).
    C p = cuprum::sqrt(2.0 * (2.718281828459045235360287 * z + 1.0));
    w = -1.0 + p * (1.0 + p * (-1.0 / 3.0 + p * (11.0 / 72.0)));
  } else if (k == -1 && rb < 0.3 && z.im == 0.0 && z.re < 0.0) {
    C p = -cuprum::sqrt(2.0 * (2.718281828459045235360287 * z + 1.0));
    w = -1.0 + p * (1.0 + p * (-1.0 / 3.0 + p * (11.0 / 72.0)));
  } else if (k == 0 && cuprum::abs(z) < 8.0 && cuprum::abs(z + 1.0) > 0.5) {
    w = cuprum::log1p(z);
  } else {
    // Asymptotic L1 - L2 + L2 / L1 + L2 (L2 - 2) / (2 L1^2) (Corless (4.19)).
    C l1 = cuprum::log(z) + C(0.0, twopi * (double)k);
    C l2 = cuprum::log(l1);
    w = l1 - l2 + l2 / l1 + l2 * (l2 - 2.0) / (2.0 * l1 * l1);
  }
  return lambertw_halley(z, w, tol);
}

}  // namespace special
}  // namespace cuprum
