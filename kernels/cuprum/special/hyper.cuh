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
// hyp1f1(a, b, z) of complex z (real a, b: SciPy's ddD->D loop; ffF->F
//   rounds it): SciPy's special cases in its (Zhang and Jin's CCHG)
//   order, inf + 0i at every pole of b, 1 at a = 0 or z = 0, the closed
//   forms at a = -1, a = b, a = b + 1 and (a, b) = (1, 2); then Kummer's
//   transformation M(a, b, z) = e^z M(b - a, b, -z) (DLMF 13.2.39) to
//   Re z >= 0 (not for the polynomials, a a negative integer, whose terms
//   do not cancel for Re z < 0) and three methods, each with an estimate
//   of its relative error, the first within 8 eps taken (else the best):
//   for |z| > 8 the large-|z| expansion DLMF 13.7.2 with both its
//   exponentially large and algebraic parts, the latter with e^(+-i pi a)
//   by the sign of Im z (cos(pi a) on the real axis) and counted as error
//   within the Stokes transition |ph z| < 3 / sqrt|z| near the positive
//   axis, each part summed to the precision its size needs (in
//   double-double where large parameters make its terms grow before they
//   fall; a part cut while its terms still grow has no estimate and is
//   ranked after the methods within 1e-11); the Maclaurin series DLMF
//   13.2.2 in double for |z| <= 4; the
//   Maclaurin series in double-double (about 32 digits, which absorb the
//   cancellation of up to 1e15 near the imaginary axis). Powers z^p as
//   z^n by squaring times |z|^f e^(i f ph z), Gamma ratios by tgamma (by
//   lgamma beyond), and the products scaled by powers of 2, so that
//   e^z may overflow where M does not. Non-finite z: SciPy's values
//   (NaN, except its closed forms, its polynomial sums and its series at
//   Re z = +inf for a < 0).
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
// hyp2f1(a, b, c, z) of complex z (real a, b, c: SciPy's dddD->D loop;
//   fffF->F rounds it): SciPy's special cases in its order (1 at a or b
//   = 0 and at z = 0, NaN + 0i there for c = 0; inf + 0i at a pole of c
//   not cancelled by a polynomial's end; the polynomials, a or b a
//   negative integer, and those after Euler's transformation, c - a or
//   c - b one; Kummer's theorem at z = -1, DLMF 15.4.26; inf + 0i at z = 1
//   for c - a - b <= 0, Gauss' theorem DLMF 15.4.20 above); then the
//   methods in the order of their convergence ratio, each with an
//   estimate of its relative error, the first within 8 eps taken (else
//   the best): the Gauss series DLMF 15.2.1 and Euler's form (|z|),
//   Pfaff's two (|z / (z - 1)|, DLMF 15.8.1), the 1 - z connection DLMF
//   15.8.4 (|1 - z|) with its limit form DLMF 15.8.10 where c - a - b is
//   an integer, the 1/z connection DLMF 15.8.2 (1/|z|) with its limit
//   form DLMF 15.8.8 where a - b is one (-psi/Gamma at the poles of
//   Gamma(c - a - m - k) by its limit), and Lopez and Temme's expansion
//   in z / (z - 2) (Adv. Comput. Math. 39 (2013) 349-365; Re z < 1) with
//   its polynomials F(-n, b; c; 2) by their contiguous relation, which
//   alone converges fast near e^(+-i pi / 3). Series in double, again in
//   double-double where their terms cancel (Lopez and Temme's always);
//   Gamma ratios and powers as m 2^k. Near an integer a - b or c - a - b
//   the connections' two terms cancel as 1 / distance (as SciPy's).
//   Non-finite z: SciPy's values (NaN, except its polynomial sums).
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
  double s = __dadd_rn(a, b);
  double bb = __dsub_rn(s, a);
  *e = __dadd_rn(__dsub_rn(a, __dsub_rn(s, bb)), __dsub_rn(b, bb));
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
  double p = __dmul_rn(x.hi, y.hi);
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

typedef cuprum::complex<double> hyp_cx;

// A complex double-double (a Dekker pair for each part).
struct hyp_cdd {
  hyp_dd re, im;
};

__device__ __forceinline__ hyp_dd hyp_dd_mul_d(hyp_dd x, double y) {
  double p = __dmul_rn(x.hi, y);
  double e = ::fma(x.hi, y, -p) + x.lo * y;
  return hyp_dd_quick(p, e);
}

__device__ __forceinline__ hyp_dd hyp_dd_neg(hyp_dd x) { return {-x.hi, -x.lo}; }

// t z for a complex double z.
__device__ __forceinline__ hyp_cdd hyp_cdd_mul_c(hyp_cdd t, hyp_cx z) {
  hyp_dd rr = hyp_dd_mul_d(t.re, z.re), ii = hyp_dd_mul_d(t.im, z.im);
  hyp_dd ri = hyp_dd_mul_d(t.re, z.im), ir = hyp_dd_mul_d(t.im, z.re);
  return {hyp_dd_add(rr, hyp_dd_neg(ii)), hyp_dd_add(ri, ir)};
}

// A complex value m 2^k (k an integer in a double), so that e^z, Gamma
// ratios and powers multiply without intermediate over- or underflow.
struct hyp_scaled {
  hyp_cx m;
  double k;
};

// e^x = 2^k e^r with r = x - k ln 2 (Cody and Waite's two-part ln 2: k
// ln2_hi is exact for |k| < 2^21).
__device__ __forceinline__ double hyp_exp_split(double x, double* k) {
  const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  double n = ::rint(x * 1.4426950408889634074);
  if (::fabs(n) > 1.0e6) n = ::copysign(1.0e6, n);
  *k = n;
  return ::exp((x - n * ln2_hi) - n * ln2_lo);
}

// e^w as m 2^k.
__device__ __forceinline__ hyp_scaled hyp_cexp_scaled(hyp_cx w) {
  double k;
  double e = hyp_exp_split(w.re, &k);
  double s, c;
  ::sincos(w.im, &s, &c);
  if (w.im == 0.0) s = 0.0;
  return {hyp_cx(e * c, e * s), k};
}

// m 2^k as a complex double (inf or 0 beyond the double's range).
__device__ __forceinline__ hyp_cx hyp_unscale(hyp_scaled v) {
  double k = v.k;
  if (k > 2200.0) k = 2200.0;
  if (k < -2200.0) k = -2200.0;
  int ki = (int)k;
  // Two steps, so that 2^ki itself need not be representable.
  int k1 = ki / 2, k2 = ki - k1;
  return hyp_cx(::ldexp(::ldexp(v.m.re, k1), k2), ::ldexp(::ldexp(v.m.im, k1), k2));
}

// z^p for p = p0 + pe (pe a small correction: the rounding error of a
// parameter difference): z^n by repeated squaring for the integer n
// nearest p0, times exp((p - n) log z), so that the rounding of p log z
// (|p log z| eps) is not incurred. As m 2^k.
__device__ __noinline__ hyp_scaled hyp_cpow_scaled(hyp_cx z, double p0, double pe) {
  double az = abs(z);
  double lz = ::log(az);
  double n = ::rint(p0);
  double f = (p0 - n) + pe;
  hyp_scaled r = {hyp_cx(1.0, 0.0), 0.0};
  if (::fabs(n) <= 128.0 && ::fabs(n * lz) < 600.0) {
    // |z|^|n| stays within the double's range.
    hyp_cx base = z, w(1.0, 0.0);
    int m = (int)::fabs(n);
    while (m) {
      if (m & 1) w = w * base;
      m >>= 1;
      if (m) base = base * base;
    }
    r.m = n < 0.0 ? 1.0 / w : w;
  } else {
    f = p0 + pe;
  }
  if (f != 0.0) {
    // |z|^f by the real pow (exact argument, no rounded f log|z|) where
    // it is within range.
    double ph = f * arg(z);
    double s, c;
    ::sincos(ph, &s, &c);
    hyp_scaled e;
    if (::fabs(f * lz) < 700.0) {
      double m = ::pow(az, f);
      e = {hyp_cx(m * c, m * s), 0.0};
    } else {
      double k;
      double m = hyp_exp_split(f * lz, &k);
      e = {hyp_cx(m * c, m * s), k};
    }
    r.m = r.m * e.m;
    r.k += e.k;
  }
  return r;
}

// 1 / Gamma(x + e) for a small correction e: 1/Gamma(x) (1 - psi(x) e),
// and (-1)^n n! e at the pole x = -n.
__device__ __noinline__ double hyp_rgamma_dd(double x, double e) {
  if (is_nonpos_int(x)) {
    if (e == 0.0 || x < -170.0) return 0.0;
    return ((((long long)-x) & 1) ? -1.0 : 1.0) * ::tgamma(1.0 - x) * e;
  }
  double r = ::fabs(x) < 170.0 ? 1.0 / ::tgamma(x) : 0.0;
  if (e != 0.0 && r != 0.0) r -= r * digamma(x) * e;
  return r;
}

// log |1 / Gamma(x + e)| (-inf at a pole).
__device__ inline double hyp_lrgamma(double x, double e) {
  if (is_nonpos_int(x) && e == 0.0) return -inf();
  return -::lgamma(x + e);
}

// G e^w z^(p + pe) (G real, given by its value g where finite and by
// log |G| = lg and the sign sg beyond) as m 2^k.
__device__ __noinline__ hyp_scaled hyp_prefactor(double g, double lg, double sg, hyp_cx w, hyp_cx z,
                                           double p, double pe) {
  hyp_scaled e = hyp_cexp_scaled(w);
  hyp_scaled q = hyp_cpow_scaled(z, p, pe);
  double gm = g, gk = 0.0;
  if (!(::fabs(g) < 1e300 && ::fabs(g) > 1e-300)) {
    double r = hyp_exp_split(lg, &gk);
    gm = sg * r;
  }
  hyp_cx m = (e.m * q.m) * gm;
  return {m, e.k + q.k + gk};
}

// The Maclaurin series of M(a + ae, b, z) (DLMF 13.2.2) in double, with an
// estimate of its rounding and truncation error in *err (absolute; inf
// if it did not converge): eps sum_n sqrt(n + 2) |t_n|, the n-th term
// the product of n roundings (a random walk), and the cancellation.
__device__ inline hyp_cx chyp1f1_series(double a, double ae, double b, hyp_cx z, double* err) {
  hyp_cx term(1.0, 0.0), sum(1.0, 0.0);
  double az = abs(z), acc = 1.0;
  *err = inf();
  for (int k = 0; k < 3000; ++k) {
    double apk = (a + k) + ae;
    if (apk == 0.0) {
      *err = HYP_EPS * acc;  // a polynomial ends
      return sum;
    }
    double r = apk / ((b + k) * (k + 1.0));
    term = (term * r) * z;
    sum += term;
    double at = abs(term);
    acc += ::sqrt(k + 2.0) * at;
    if (!(at < inf())) return sum;
    // (Not before b + k >= 0: a b near a pole -n amplifies the terms
    // from k = n on.)
    if (at <= 0.25 * HYP_EPS * abs(sum) && ::fabs(r) * az < 0.5 && b + k >= 0.0) {
      *err = HYP_EPS * acc;
      return sum;
    }
  }
  return sum;
}

// The same in double-double: about 32 digits, for the points where the
// terms cancel (near the imaginary axis, the polynomials).
__device__ __noinline__ hyp_cx chyp1f1_series_dd(double a, double ae, double b, hyp_cx z,
                                                 double* err) {
  hyp_cdd term = {{1.0, 0.0}, {0.0, 0.0}}, sum = term;
  double az = abs(z), acc = 1.0;
  *err = inf();
  for (int k = 0; k < 3000; ++k) {
    hyp_dd apk = hyp_dd_add(hyp_dd_sum(a, (double)k), {ae, 0.0});
    if (apk.hi == 0.0) {
      *err = 2.0 * acc * 1e-32;
      break;
    }
    hyp_dd den = hyp_dd_mul_d(hyp_dd_sum(b, (double)k), k + 1.0);
    hyp_dd r = hyp_dd_div(apk, den);
    term = {hyp_dd_mul(term.re, r), hyp_dd_mul(term.im, r)};
    term = hyp_cdd_mul_c(term, z);
    sum = {hyp_dd_add(sum.re, term.re), hyp_dd_add(sum.im, term.im)};
    double at = ::hypot(term.re.hi, term.im.hi);
    acc += (k + 2.0) * at;
    if (!(at < inf())) break;
    double as = ::hypot(sum.re.hi, sum.im.hi);
    if (at <= 1e-33 * as && ::fabs(r.hi) * az < 0.5 && b + k >= 0.0) {
      *err = 2.0 * acc * 1e-32;
      break;
    }
  }
  hyp_cx v(sum.re.hi + sum.re.lo, sum.im.hi + sum.im.lo);
  *err += 0.5 * HYP_EPS * abs(v);
  return v;
}

// One sum of DLMF 13.7.2, sum_n (p)_n (q)_n / n! (s z)^-n (s = +-1),
// until a term below tol |sum|, or NaN where the terms grow for good.
// *acc receives sum_n sqrt(n + 2) |t_n| (the rounding), *last the last
// term (negative where the terms still grow after it).
__device__ inline hyp_cx chyp1f1_asy_sum(double p, double q, hyp_cx zi, double az, double tol,
                                         double* acc, double* last) {
  hyp_cx t(1.0, 0.0), s(1.0, 0.0);
  *acc = 1.0;
  *last = inf();
  for (int n = 0; n < 2000; ++n) {
    double c = (p + n) * (q + n) / (n + 1.0);
    if (c == 0.0) {
      *last = 0.0;  // terminates
      return s;
    }
    double ratio = ::fabs(c) / az;
    if (ratio >= 1.0 && n + 1.0 >= az) return s;  // the terms grow from here
    t = (t * c) * zi;
    s += t;
    double at = abs(t);
    *acc += ::sqrt(n + 2.0) * at;
    // Where the terms still grow from here the omitted ones are larger
    // than the last (the expansion of a part whose terms grow from the
    // first says little of its size): flagged by a negative *last.
    double cn = (p + n + 1.0) * (q + n + 1.0) / (n + 2.0);
    if (at <= tol * abs(s)) {
      *last = ::fabs(cn) < az ? at : -at;
      return s;
    }
  }
  return s;
}

// The same sum in double-double, for large parameters, whose terms grow
// before they fall and cancel: t_(n+1) = t_n (p + n) (q + n) / ((n + 1) w)
// with w = s z exact (1 / w as conj(w) / |w|^2, |w|^2 in double-double).
// *acc: sum_n (n + 2) |t_n| (a bound, the rounding being 1e-32).
__device__ __noinline__ hyp_cx chyp1f1_asy_sum_dd(hyp_dd p, hyp_dd q, hyp_cx w, double az,
                                                  double tol, double* acc, double* last) {
  hyp_dd n2 = hyp_dd_add(hyp_dd_mul({w.re, 0.0}, {w.re, 0.0}), hyp_dd_mul({w.im, 0.0}, {w.im, 0.0}));
  hyp_cx wc(w.re, -w.im);
  hyp_cdd t = {{1.0, 0.0}, {0.0, 0.0}}, s = t;
  *acc = 1.0;
  *last = inf();
  for (int n = 0; n < 2000; ++n) {
    hyp_dd c = hyp_dd_mul(hyp_dd_add(p, {(double)n, 0.0}), hyp_dd_add(q, {(double)n, 0.0}));
    if (c.hi == 0.0) {
      *last = 0.0;
      break;
    }
    if (::fabs(c.hi) / (n + 1.0) >= az && n + 1.0 >= az) break;
    c = hyp_dd_div(c, hyp_dd_mul_d(n2, n + 1.0));
    t = {hyp_dd_mul(t.re, c), hyp_dd_mul(t.im, c)};
    t = hyp_cdd_mul_c(t, wc);
    s = {hyp_dd_add(s.re, t.re), hyp_dd_add(s.im, t.im)};
    double at = ::hypot(t.re.hi, t.im.hi);
    *acc += (n + 2.0) * at;
    double cn = (p.hi + n + 1.0) * (q.hi + n + 1.0) / (n + 2.0);
    if (at <= tol * ::hypot(s.re.hi, s.im.hi)) {
      *last = ::fabs(cn) < az ? at : -at;
      break;
    }
  }
  return hyp_cx(s.re.hi + s.re.lo, s.im.hi + s.im.lo);
}

// M(a + ae, b, z) e^(-z if kummer) for Re z >= 0 by the large-|z|
// expansion DLMF 13.7.2 (M = Gamma(b) times Olver's bold M there), both
// the exponentially large and the algebraic parts, the latter with
// e^(+-i pi a) by the sign of Im z (cos(pi a) on the real axis, the
// Stokes line, as the real loop). kummer: the result is e^(-z) M (the
// caller's Kummer transformation), so that e^z e^-z = 1 is exact. *err
// receives an estimate of its relative error (inf where the expansion
// does not reach the double's precision).
__device__ __noinline__ hyp_cx chyp1f1_asymptotic(double a, double ae, double b, hyp_cx z,
                                                  bool kummer, double* rel) {
  *rel = inf();
  double az = abs(z), lz = ::log(az);
  // b - a as a pair.
  double bae;
  double ba = hyp_two_sum(b, -a, &bae);
  bae -= ae;
  double amb_e;
  double amb = hyp_two_sum(a, -b, &amb_e);
  amb_e += ae;
  // Gamma(b) / Gamma(a) and Gamma(b) / Gamma(b - a): values and logs.
  double gb = ::fabs(b) < 170.0 ? ::tgamma(b) : inf();
  double lgb = ::lgamma(b), sgb = hyp_gamma_sign(b);
  double ra = hyp_rgamma_dd(a, ae), rba = hyp_rgamma_dd(ba, bae);
  double lra = hyp_lrgamma(a, ae), lrba = hyp_lrgamma(ba, bae);
  bool dom = !(is_nonpos_int(a) && ae == 0.0);
  bool alg = !(is_nonpos_int(ba) && bae == 0.0);
  hyp_cx w1 = kummer ? hyp_cx(0.0, 0.0) : z;
  hyp_cx w2 = kummer ? -z : hyp_cx(0.0, 0.0);
  // log |part| (without the sums), to weigh the parts' tolerances.
  double l1 = dom ? lgb + lra + w1.re + amb * lz : -inf();
  double l2 = alg ? lgb + lrba + w2.re - a * lz : -inf();
  double lmax = ::fmax(l1, l2);
  if (!(lmax < inf()) && !(lmax > -inf())) return hyp_cx(nan(), nan());
  hyp_cx zi = 1.0 / z;
  double acc1 = 0.0, last1 = 0.0, acc2 = 0.0, last2 = 0.0;
  hyp_cx s1(0.0, 0.0), s2(0.0, 0.0);
  // The sums' rounding errors (relative to the sums' terms): eps in
  // double, 1e-32 where they are summed again in double-double.
  double u1 = HYP_EPS, u2 = HYP_EPS;
  if (dom) {
    double tol = 0.25 * HYP_EPS * ::exp(::fmin(lmax - l1, 700.0));
    s1 = chyp1f1_asy_sum(1.0 - a - ae, ba + bae, zi, az, tol, &acc1, &last1);
    if (!(last1 < inf())) return s1;
    if (u1 * acc1 > tol * abs(s1) && last1 >= 0.0) {
      double e1;
      hyp_dd p = hyp_dd_add(hyp_dd_sum(1.0, -a), {-ae, 0.0});
      hyp_dd q = hyp_dd_add(hyp_dd_sum(ba, 0.0), {bae, 0.0});
      s1 = chyp1f1_asy_sum_dd(p, q, z, az, tol, &acc1, &e1);
      u1 = 2e-32;
    }
  }
  if (alg) {
    double tol = 0.25 * HYP_EPS * ::exp(::fmin(lmax - l2, 700.0));
    s2 = chyp1f1_asy_sum(a + ae, 1.0 - ba - bae, -zi, az, tol, &acc2, &last2);
    if (!(last2 < inf())) return s2;
    if (u2 * acc2 > tol * abs(s2) && last2 >= 0.0) {
      double e2;
      hyp_dd p = hyp_dd_add(hyp_dd_sum(a, 0.0), {ae, 0.0});
      hyp_dd q = hyp_dd_add(hyp_dd_sum(1.0, -ba), {-bae, 0.0});
      s2 = chyp1f1_asy_sum_dd(p, q, -z, az, tol, &acc2, &e2);
      u2 = 2e-32;
    }
  }
  hyp_scaled t1 = {hyp_cx(0.0, 0.0), -1e9}, t2 = {hyp_cx(0.0, 0.0), -1e9};
  if (dom) {
    t1 = hyp_prefactor(gb * ra, lgb + lra, sgb * hyp_gamma_sign(a), w1, z, amb, amb_e);
    t1.m = t1.m * s1;
  }
  if (alg) {
    t2 = hyp_prefactor(gb * rba, lgb + lrba, sgb * hyp_gamma_sign(ba), w2, z, -a, -ae);
    // e^(+-i pi a): by the sign of Im z, cos(pi a) on the real axis.
    double sp, cp;
    ::sincospi(a, &sp, &cp);
    double ph = PI * ae;
    hyp_cx f = z.im > 0.0 ? hyp_cx(cp - sp * ph, sp + cp * ph)
                          : (z.im < 0.0 ? hyp_cx(cp - sp * ph, -(sp + cp * ph)) : hyp_cx(cp - sp * ph, 0.0));
    t2.m = (t2.m * f) * s2;
  }
  // The sum on a common exponent.
  double k = ::fmax(t1.k, t2.k);
  hyp_cx m = hyp_unscale({t1.m, t1.k - k}) + hyp_unscale({t2.m, t2.k - k});
  hyp_cx v = hyp_unscale({m, k});
  // Error: truncation and rounding of each sum, the prefactors' rounding
  // (a few eps, and |p log z| eps from the powers' fractional parts).
  // (In units of 2^k, which keep an overflowing value's error finite.)
  double m1 = abs(hyp_unscale({t1.m, t1.k - k})), m2 = abs(hyp_unscale({t2.m, t2.k - k}));
  double as1 = dom ? abs(s1) : 1.0, as2 = alg ? abs(s2) : 1.0;
  double e = 0.0;
  if (dom) e += m1 / as1 * (::fabs(last1) + u1 * acc1) + 3.0 * HYP_EPS * m1;
  if (alg) {
    e += m2 / as2 * (::fabs(last2) + u2 * acc2) + 3.0 * HYP_EPS * m2;
    // Near the positive real axis the Stokes switch of e^(+-i pi a) is
    // not resolved: its jump |sin(pi a)| |part| counts as error within
    // the transition (|ph z| < 3 / sqrt|z|; on the axis cos(pi a) is
    // the value).
    if (dom && z.im != 0.0 && ::fabs(z.im) < 3.0 * z.re / ::sqrt(az)) {
      e += ::fabs(::sinpi(a)) * m2;
    }
  }
  *rel = e / abs(m);
  // A part cut while its terms grew: no estimate, ranked after the
  // methods that have one within 1e-11.
  if ((dom && last1 < 0.0) || (alg && last2 < 0.0)) *rel = ::fmax(*rel, 1e-11);
  return v;
}

// e^s M(a, b, z) where M is the sum s of a series path, s = z of Kummer's
// transformation.
__device__ __forceinline__ hyp_cx hyp_times_exp(hyp_cx v, hyp_cx s) {
  hyp_scaled e = hyp_cexp_scaled(s);
  return hyp_unscale({e.m * v, e.k});
}

__device__ __noinline__ hyp_cx chyp1f1_general(double a, double b, hyp_cx z) {
  // Kummer's transformation M(a, b, z) = e^z M(b - a, b, -z) (DLMF
  // 13.2.39) to Re z >= 0, except for the polynomials (a a negative
  // integer), whose terms do not cancel for Re z < 0.
  bool poly = is_nonpos_int(a);
  bool kummer = z.re < 0.0 && !poly;
  double a2 = a, ae = 0.0;
  hyp_cx zz = z;
  if (kummer) {
    a2 = hyp_two_sum(b, -a, &ae);
    zz = -z;
  }
  double az = abs(zz);
  // Each method estimates its relative error; the first within 8 eps is
  // taken, else the best.
  hyp_cx best(nan(), nan());
  double best_rel = inf();
  const double ok = 8.0 * HYP_EPS;
  if (az > 8.0) {
    double rel;
    hyp_cx v = chyp1f1_asymptotic(a2, ae, b, zz, kummer, &rel);
    if (rel <= ok) return v;
    if (rel < best_rel) {
      best = v;
      best_rel = rel;
    }
  }
  if (az <= 4.0) {
    double err;
    hyp_cx v = chyp1f1_series(a2, ae, b, zz, &err);
    double rel = err / abs(v);
    if (kummer) v = hyp_times_exp(v, z);
    if (rel <= ok) return v;
    if (rel < best_rel) {
      best = v;
      best_rel = rel;
    }
  }
  double err;
  hyp_cx v = chyp1f1_series_dd(a2, ae, b, zz, &err);
  double rel = err / abs(v);
  if (kummer) v = hyp_times_exp(v, z);
  if (rel <= best_rel || !(best_rel <= 1.0)) return v;
  return best;
}

// x y with C99's recovery of infinities (Annex G.5.1, the multiplication
// of libgcc that SciPy's complex products use): NaN + NaN i from inf
// operands becomes an infinity.
__device__ inline hyp_cx hyp_cmul_c99(hyp_cx x, hyp_cx y) {
  double a = x.re, b = x.im, c = y.re, d = y.im;
  double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  double re = ac - bd, im = ad + bc;
  if (is_nan(re) && is_nan(im)) {
    bool recalc = false;
    if (is_inf(a) || is_inf(b)) {
      a = ::copysign(is_inf(a) ? 1.0 : 0.0, a);
      b = ::copysign(is_inf(b) ? 1.0 : 0.0, b);
      if (is_nan(c)) c = ::copysign(0.0, c);
      if (is_nan(d)) d = ::copysign(0.0, d);
      recalc = true;
    }
    if (is_inf(c) || is_inf(d)) {
      c = ::copysign(is_inf(c) ? 1.0 : 0.0, c);
      d = ::copysign(is_inf(d) ? 1.0 : 0.0, d);
      if (is_nan(a)) a = ::copysign(0.0, a);
      if (is_nan(b)) b = ::copysign(0.0, b);
      recalc = true;
    }
    if (!recalc && (is_inf(ac) || is_inf(bd) || is_inf(ad) || is_inf(bc))) {
      if (is_nan(a)) a = ::copysign(0.0, a);
      if (is_nan(b)) b = ::copysign(0.0, b);
      if (is_nan(c)) c = ::copysign(0.0, c);
      if (is_nan(d)) d = ::copysign(0.0, d);
      recalc = true;
    }
    if (recalc) {
      re = inf() * (a * c - b * d);
      im = inf() * (a * d + b * c);
    }
  }
  return hyp_cx(re, im);
}

// The polynomial M(-n, b, z) summed term by term in SciPy's order of
// operations, for its values where they are not finite (an infinite z or
// b, an overflow), which follow that order.
__device__ inline hyp_cx chyp1f1_poly_literal(double a, double b, hyp_cx z) {
  hyp_cx cr(1.0, 0.0), s(1.0, 0.0);
  int m = (int)(-a);
  for (int k = 1; k <= m; ++k) {
    cr = cr * (a + k - 1.0);
    cr = cr / (double)k;
    cr = cr / (b + k - 1.0);
    cr = hyp_cmul_c99(cr, z);
    s += cr;
  }
  return s;
}

}  // namespace detail

// M(a, b, z) for real a, b and complex z (see the header comment).
__device__ inline cuprum::complex<double> hyp1f1(double a, double b, cuprum::complex<double> z) {
  using namespace detail;
  typedef cuprum::complex<double> C;
  // SciPy's special cases, in its order: a pole of b (even where a
  // negative integer a would end the series first, unlike the real
  // loop), a = 0 or z = 0, then closed forms.
  if (b == 0.0 || (is_nonpos_int(b) && b > -inf())) return C(inf(), 0.0);
  if (a == 0.0 || (z.re == 0.0 && z.im == 0.0)) return C(1.0, 0.0);
  if (a == -1.0) return C(1.0 - z.re / b, -(z.im / b));
  if (a == b) return cuprum::exp(z);
  if (a - b == 1.0) return hyp_cmul_c99(1.0 + z / b, cuprum::exp(z));
  if (a == 1.0 && b == 2.0) return (cuprum::exp(z) - 1.0) / z;
  bool zfinite = cuprum::isfinite(z.re) && cuprum::isfinite(z.im);
  if (is_nonpos_int(a) && a > -inf() && !is_nan(b)) {
    // A polynomial: its non-finite values as SciPy's sum.
    if (!zfinite || is_inf(b)) return chyp1f1_poly_literal(a, b, z);
    C v = chyp1f1_general(a, b, z);
    if (!(cuprum::isfinite(v.re) && cuprum::isfinite(v.im)) && a >= -1000.0) return chyp1f1_poly_literal(a, b, z);
    return v;
  }
  if (is_nan(a) || is_nan(b) || is_nan(z.re) || is_nan(z.im)) return C(nan(), nan());
  if (is_inf(b)) {
    // SciPy's series: every term 0 (1) for Re z >= 0 and a < 2 (a >= 2
    // recurs in a, Re z < 0 transforms a to b - a: NaN).
    return (zfinite && !is_inf(a) && z.re >= 0.0 && a < 2.0) ? C(1.0, 0.0) : C(nan(), nan());
  }
  if (is_inf(a)) {
    // SciPy's series for real z of the sign of a, |z| < 20 + |b|: terms of
    // one sign (+-inf + NaN i) where b > -1, else NaN.
    bool series = z.im == 0.0 && (a > 0.0 ? z.re > 0.0 : z.re < 0.0) && ::fabs(z.re) < 20.0 + ::fabs(b);
    return (series && b > -1.0) ? C(::copysign(inf(), b), nan()) : C(nan(), nan());
  }
  if (!zfinite) {
    // SciPy sums the series for a < 0 at Re z = +inf too: terms +-inf +
    // NaN i, of one sign where no integer i >= 1 lies between -a and -b
    // (all (a + i) (b + i) > 0), else NaN.
    if (a < 0.0 && z.re == inf() && !is_inf(z.im)) {
      double lo = ::fmin(a, b), hi = ::fmax(a, b);
      double i0 = ::fmax(::floor(-hi) + 1.0, 1.0);
      if (!(i0 < -lo)) return C(::copysign(inf(), a / b), nan());
    }
    return C(nan(), nan());
  }
  return chyp1f1_general(a, b, z);
}

__device__ __forceinline__ cuprum::complex<float> hyp1f1(float a, float b, cuprum::complex<float> z) {
  return cuprum::complex<float>(hyp1f1((double)a, (double)b, cuprum::complex<double>(z)));
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

// m 2^k with m's larger part in [0.5, 1).
__device__ inline hyp_scaled hyp_snorm(hyp_scaled x) {
  double mx = ::fmax(::fabs(x.m.re), ::fabs(x.m.im));
  if (!(mx > 0.0) || !(mx < inf())) return x;
  int e;
  ::frexp(mx, &e);
  return {hyp_cx(::ldexp(x.m.re, -e), ::ldexp(x.m.im, -e)), x.k + e};
}

__device__ __forceinline__ hyp_scaled hyp_smul(hyp_scaled x, hyp_scaled y) {
  return hyp_snorm({x.m * y.m, x.k + y.k});
}

__device__ __forceinline__ hyp_scaled hyp_smul_c(hyp_scaled x, hyp_cx c) {
  return hyp_snorm({x.m * c, x.k});
}

// Gamma(p1) Gamma(p2) / (Gamma(q1) Gamma(q2)) as m 2^k: 0 where a
// denominator has a pole, NaN where a numerator has; tgamma where the
// arguments allow, else lgamma and the signs.
__device__ __noinline__ hyp_scaled hyp_gamma4(double p1, double p2, double q1, double q2) {
  if (is_nonpos_int(p1) || is_nonpos_int(p2)) return {hyp_cx(nan(), 0.0), 0.0};
  if (is_nonpos_int(q1) || is_nonpos_int(q2)) return {hyp_cx(0.0, 0.0), 0.0};
  if (::fabs(p1) < 170.0 && ::fabs(p2) < 170.0 && ::fabs(q1) < 170.0 && ::fabs(q2) < 170.0) {
    int e1, e2, e3, e4;
    double m1 = ::frexp(::tgamma(p1), &e1), m2 = ::frexp(::tgamma(p2), &e2);
    double m3 = ::frexp(::tgamma(q1), &e3), m4 = ::frexp(::tgamma(q2), &e4);
    if (m1 != 0.0 && m2 != 0.0 && m3 != 0.0 && m4 != 0.0) {
      return hyp_snorm({hyp_cx(m1 * m2 / (m3 * m4), 0.0), (double)(e1 + e2 - e3 - e4)});
    }
  }
  double s = hyp_gamma_sign(p1) * hyp_gamma_sign(p2) * hyp_gamma_sign(q1) * hyp_gamma_sign(q2);
  double k;
  double r = hyp_exp_split(::lgamma(p1) + ::lgamma(p2) - ::lgamma(q1) - ::lgamma(q2), &k);
  return {hyp_cx(s * r, 0.0), k};
}

// The tail after a term t whose successors shrink by at most q per term.
__device__ __forceinline__ double hyp_rel(double err, double mag) {
  return err == 0.0 ? 0.0 : err / mag;
}

__device__ __forceinline__ double hyp_tail(double at, double q) {
  return q < 1.0 ? at * q / (1.0 - q) : inf();
}

// The Gauss series sum_k (a)_k (b)_k / ((c)_k k!) w^k (DLMF 15.2.1) in
// double, for |w| < 1; *rel its estimated relative error (rounding: eps
// sum_k sqrt(k + 2) |t_k|; truncation: the tail), inf where it does not
// converge within 3000 terms. A polynomial (a or b a non-positive
// integer) ends with its last term.
__device__ inline hyp_cx h2f1_series(double a, double b, double c, hyp_cx w, double* rel) {
  hyp_cx t(1.0, 0.0), s(1.0, 0.0);
  double aw = abs(w), acc = 1.0;
  *rel = inf();
  for (int k = 0; k < 3000; ++k) {
    double num = (a + k) * (b + k);
    if (num == 0.0) {
      *rel = HYP_EPS * acc / abs(s);
      return s;
    }
    double r = num / ((c + k) * (k + 1.0));
    t = (t * r) * w;
    s += t;
    double at = abs(t);
    acc += ::sqrt(k + 2.0) * at;
    if (!(at < inf())) return s;
    double qn = ::fabs((a + k + 1.0) * (b + k + 1.0) / ((c + k + 1.0) * (k + 2.0))) * aw;
    double tail = hyp_tail(at, ::fmax(qn, aw));
    if (tail <= 0.25 * HYP_EPS * abs(s) && c + k >= 0.0) {
      *rel = (HYP_EPS * acc + tail) / abs(s);
      return s;
    }
  }
  return s;
}

// The same in double-double, where its terms cancel.
__device__ __noinline__ hyp_cx h2f1_series_dd(double a, double b, double c, hyp_cx w, double* rel) {
  hyp_cdd t = {{1.0, 0.0}, {0.0, 0.0}}, s = t;
  double aw = abs(w), acc = 1.0;
  *rel = inf();
  bool done = false;
  for (int k = 0; k < 3000; ++k) {
    hyp_dd num = hyp_dd_mul(hyp_dd_sum(a, (double)k), hyp_dd_sum(b, (double)k));
    if (num.hi == 0.0) {
      done = true;
      break;
    }
    hyp_dd den = hyp_dd_mul_d(hyp_dd_sum(c, (double)k), k + 1.0);
    hyp_dd r = hyp_dd_div(num, den);
    t = {hyp_dd_mul(t.re, r), hyp_dd_mul(t.im, r)};
    t = hyp_cdd_mul_c(t, w);
    s = {hyp_dd_add(s.re, t.re), hyp_dd_add(s.im, t.im)};
    double at = ::hypot(t.re.hi, t.im.hi);
    acc += (k + 2.0) * at;
    if (!(at < inf())) break;
    double qn = ::fabs((a + k + 1.0) * (b + k + 1.0) / ((c + k + 1.0) * (k + 2.0))) * aw;
    if (hyp_tail(at, ::fmax(qn, aw)) <= 1e-33 * ::hypot(s.re.hi, s.im.hi) && c + k >= 0.0) {
      done = true;
      break;
    }
  }
  hyp_cx v(s.re.hi + s.re.lo, s.im.hi + s.im.lo);
  if (done) *rel = 2e-32 * acc / abs(v) + 0.5 * HYP_EPS;
  return v;
}

// The Gauss series in double, again in double-double where its
// estimate says its terms cancel.
__device__ __noinline__ hyp_cx h2f1_sum(double a, double b, double c, hyp_cx w, double* rel) {
  hyp_cx v = h2f1_series(a, b, c, w, rel);
  if (*rel > 8.0 * HYP_EPS && *rel < inf()) {
    double r2;
    hyp_cx v2 = h2f1_series_dd(a, b, c, w, &r2);
    if (r2 < *rel) {
      *rel = r2;
      return v2;
    }
  }
  return v;
}

// Lopez and Temme's expansion (Adv. Comput. Math. 39 (2013) 349-365):
// F(a, b; c; z) = (1 - z/2)^-a sum_n (a)_n / n! P_n w^n, w = z / (z - 2),
// P_n = F(-n, b; c; 2), convergent for Re z < 1 and fastest where no
// transformation of the series is (near e^(+-i pi / 3)). P_n by the
// contiguous relation DLMF 15.5.11 in a at z = 2: (c + n) P_(n+1) =
// (c - 2b) P_n + n P_(n-1). This returns the sum, in double-double
// (the P_n too), with *rel its estimated relative error.
__device__ __noinline__ hyp_cx h2f1_lt_sum(double a, double b, double c, hyp_cx w, double* rel) {
  hyp_cdd t = {{1.0, 0.0}, {0.0, 0.0}}, s = t;
  hyp_dd cc = {c, 0.0};
  hyp_dd c2b = hyp_dd_sum(c, -2.0 * b);
  hyp_dd p0 = {1.0, 0.0}, p1 = hyp_dd_add({1.0, 0.0}, hyp_dd_neg(hyp_dd_div({2.0 * b, 0.0}, cc)));
  double aw = abs(w), acc = 1.0, pmax = 1.0;
  *rel = inf();
  bool done = false;
  int small = 0;
  for (int n = 1; n < 3000; ++n) {
    // t_n = (a)_n / n! w^n.
    hyp_dd f = hyp_dd_div(hyp_dd_sum(a, n - 1.0), {(double)n, 0.0});
    t = {hyp_dd_mul(t.re, f), hyp_dd_mul(t.im, f)};
    t = hyp_cdd_mul_c(t, w);
    hyp_cdd u = {hyp_dd_mul(t.re, p1), hyp_dd_mul(t.im, p1)};
    s = {hyp_dd_add(s.re, u.re), hyp_dd_add(s.im, u.im)};
    double ap = ::fabs(p1.hi);
    pmax = ::fmax(pmax, ap);
    double au = ::hypot(u.re.hi, u.im.hi);
    acc += (n + 1.0) * au;
    if (!(au < inf()) || f.hi == 0.0) {
      done = f.hi == 0.0;
      break;
    }
    // P_(n+1).
    hyp_dd p2 = hyp_dd_div(hyp_dd_add(hyp_dd_mul(c2b, p1), hyp_dd_mul_d(p0, (double)n)),
                           hyp_dd_sum(c, (double)n));
    p0 = p1;
    p1 = p2;
    // Two successive terms (and the next, by the largest P so far) below
    // the precision, once (a + n) / (n + 1) |w| < 1.
    double at = ::hypot(t.re.hi, t.im.hi);
    double q = ::fabs((a + n) / (n + 1.0)) * aw;
    double tail = hyp_tail(at * ::fmax(pmax, 1.0), ::fmax(q, aw));
    small = (tail <= 1e-33 * ::hypot(s.re.hi, s.im.hi)) ? small + 1 : 0;
    if (small >= 2 && c + n >= 0.0) {
      done = true;
      break;
    }
  }
  hyp_cx v(s.re.hi + s.re.lo, s.im.hi + s.im.lo);
  if (done) *rel = 2e-32 * acc / abs(v) + 0.5 * HYP_EPS;
  return v;
}

// One part of a connection formula, G p^e S as m 2^k (G a Gamma ratio,
// p^e a complex power, S a sum), and the relative error of its sum.
struct h2f1_part {
  hyp_scaled v;
  double rel;
};

// The sum of n parts and its estimated relative error: each part's
// error (its sum's, and `extra` for its Gamma ratio and power) relative
// to the sum's modulus, so that parts which cancel count.
__device__ __noinline__ hyp_cx h2f1_combine(const h2f1_part* p, int n, double extra, double* rel) {
  double k = -1e9;
  for (int i = 0; i < n; ++i) {
    if (abs(p[i].v.m) > 0.0 || is_nan(p[i].v.m.re) || is_nan(p[i].v.m.im)) k = ::fmax(k, p[i].v.k);
  }
  if (k == -1e9) k = 0.0;
  hyp_cx m(0.0, 0.0);
  double e = 0.0;
  for (int i = 0; i < n; ++i) {
    hyp_cx u = hyp_unscale({p[i].v.m, p[i].v.k - k});
    m += u;
    if (abs(u) > 0.0) e += abs(u) * (p[i].rel + extra);
  }
  *rel = hyp_rel(e, abs(m));
  return hyp_unscale({m, k});
}

// F by a series in w after a prefactor: G(z) S(a, b; c; w).
__device__ inline hyp_cx h2f1_pref_series(hyp_scaled pre, double a, double b, double c, hyp_cx w,
                                          double* rel) {
  double r;
  hyp_cx s = h2f1_sum(a, b, c, w, &r);
  h2f1_part p = {hyp_smul_c(pre, s), r};
  return h2f1_combine(&p, 1, 2.0 * HYP_EPS, rel);
}

// F(a, b; a + b + m; z) for an integer m >= 0 around z = 1 (DLMF 15.8.10):
// the finite sum Gamma(m) Gamma(c) / (Gamma(a + m) Gamma(b + m)) sum_(n<m)
// (a)_n (b)_n / (n! (1 - m)_n) w^n and the logarithmic series
// -(z - 1)^m Gamma(c) / (Gamma(a) Gamma(b)) sum_n (a + m)_n (b + m)_n /
// (n! (n + m)!) w^n (ln w - psi(n + 1) - psi(n + m + 1) + psi(a + n + m) +
// psi(b + n + m)), w = 1 - z.
__device__ __noinline__ hyp_cx h2f1_one_minus_degenerate(double a, double b, int m, hyp_cx z,
                                                         double* rel) {
  hyp_cx w(1.0 - z.re, -z.im);
  double c = a + b + m;
  h2f1_part p[2];
  int np = 0;
  if (m > 0) {
    hyp_cx t(1.0, 0.0), s(1.0, 0.0);
    double acc = 1.0;
    for (int n = 0; n < m - 1; ++n) {
      t = (t * ((a + n) * (b + n) / ((n + 1.0) * (1.0 - m + n)))) * w;
      s += t;
      acc += ::sqrt(n + 2.0) * abs(t);
    }
    p[np++] = {hyp_smul_c(hyp_gamma4((double)m, c, a + m, b + m), s), hyp_rel(HYP_EPS * acc, abs(s))};
  }
  hyp_cx lw = log(w);
  double aw = abs(w);
  double pn1 = digamma(1.0), pnm = digamma(m + 1.0), pa = digamma(a + m), pb = digamma(b + m);
  double t = 1.0;
  for (int k = 1; k <= m; ++k) t /= k;  // 1 / m!
  hyp_cx tw(t, 0.0), s(0.0, 0.0);
  double acc = 0.0;
  bool done = false;
  for (int n = 0; n < 3000; ++n) {
    // (The psi of a + n + m and b + n + m apart, for a or b near a pole.)
    hyp_cx v = tw * (lw - (pn1 + pnm)) + tw * pa + tw * pb;
    s += v;
    double av = abs(v);
    acc += ::sqrt(n + 2.0) * av;
    double an = a + m + n, bn = b + m + n;
    double r = an * bn / ((n + 1.0) * (n + m + 1.0));
    tw = (tw * r) * w;
    pn1 += 1.0 / (n + 1.0);
    pnm += 1.0 / (n + m + 1.0);
    pa += 1.0 / an;
    pb += 1.0 / bn;
    double atw = abs(tw);
    if (atw == 0.0) {
      done = true;
      break;
    }
    // The bracket grows like log n: the tail by the next term's.
    double q = ::fabs((an + 1.0) * (bn + 1.0) / ((n + 2.0) * (n + m + 2.0))) * aw;
    double nxt = atw * (abs(lw) + ::fabs(pa + pb - pn1 - pnm) + 1.0);
    if (n > 2 && hyp_tail(nxt, ::fmax(q, aw)) <= 0.25 * HYP_EPS * abs(s)) {
      done = true;
      break;
    }
  }
  if (!done) {
    *rel = inf();
    return hyp_cx(nan(), nan());
  }
  // -(z - 1)^m = -(-w)^m.
  hyp_scaled pw = hyp_cpow_scaled(hyp_cx(-w.re, -w.im), (double)m, 0.0);
  hyp_scaled g = hyp_gamma4(c, 1.0, a, b);
  hyp_scaled q = hyp_smul(pw, g);
  q.m = -q.m;
  p[np++] = {hyp_smul_c(q, s), hyp_rel(HYP_EPS * acc, abs(s))};
  return h2f1_combine(p, np, 2.0 * HYP_EPS, rel);
}

// F(a, b; c; z) around z = 1 (DLMF 15.8.4), |ph(1 - z)| < pi:
// Gamma(c) Gamma(d) / (Gamma(c - a) Gamma(c - b)) F(a, b; 1 - d; w) +
// w^d Gamma(c) Gamma(-d) / (Gamma(a) Gamma(b)) F(c - a, c - b; 1 + d; w),
// d = c - a - b, w = 1 - z; the limit form where d is an integer
// (Euler's transformation F = w^d F(c - a, c - b; c; z) first for d < 0).
__device__ __noinline__ hyp_cx h2f1_one_minus(double a, double b, double c, hyp_cx z, double* rel) {
  hyp_cx w(1.0 - z.re, -z.im);
  double d = c - a - b, dm = ::rint(d);
  if (::fabs(d - dm) <= 1e-15 * ::fmax(1.0, ::fabs(a) + ::fabs(b) + ::fabs(c)) && ::fabs(d) < 1000.0) {
    if (dm >= 0.0) return h2f1_one_minus_degenerate(a, b, (int)dm, z, rel);
    double r;
    hyp_cx v = h2f1_one_minus_degenerate(c - a, c - b, (int)(-dm), z, &r);
    h2f1_part p = {hyp_smul_c(hyp_cpow_scaled(w, d, 0.0), v), r};
    return h2f1_combine(&p, 1, 2.0 * HYP_EPS, rel);
  }
  double r1, r2;
  hyp_cx s1 = h2f1_sum(a, b, 1.0 - d, w, &r1);
  hyp_cx s2 = h2f1_sum(c - a, c - b, 1.0 + d, w, &r2);
  h2f1_part p[2];
  p[0] = {hyp_smul_c(hyp_gamma4(c, d, c - a, c - b), s1), r1};
  p[1] = {hyp_smul_c(hyp_smul(hyp_gamma4(c, -d, a, b), hyp_cpow_scaled(w, d, 0.0)), s2), r2};
  return h2f1_combine(p, 2, 2.0 * HYP_EPS, rel);
}

// F(a, a + m; c; z) for an integer m >= 0 and |z| > 1 (DLMF 15.8.8):
// Gamma(c) (-z)^-a [ 1 / Gamma(a + m) sum_(k<m) (a)_k (m - k - 1)! /
// (k! Gamma(c - a - k)) z^-k + 1 / Gamma(a) sum_k (a + m)_k / (k! (k + m)!
// Gamma(c - a - m - k)) (-1)^k z^(-k-m) (ln(-z) + psi(1 + m + k) + psi(1 +
// k) - psi(a + m + k) - psi(c - a - m - k)) ]; at the poles of Gamma(c - a
// - m - k) only -psi / Gamma survives, (-1)^j j! at -j.
__device__ __noinline__ hyp_cx h2f1_inverse_degenerate(double a, int m, double c, hyp_cx z,
                                                       double* rel) {
  hyp_cx v = 1.0 / z;
  double av = abs(v);
  h2f1_part p[2];
  int np = 0;
  hyp_scaled pz = hyp_cpow_scaled(-z, -a, 0.0);
  if (m > 0) {
    // t_k = (a)_k / k! (m - k - 1)! / Gamma(c - a - k) v^k.
    double rg = is_nonpos_int(c - a) ? 0.0 : 1.0 / ::tgamma(c - a);
    double fm = 1.0;
    for (int k = 1; k < m; ++k) fm *= k;  // (m - 1)!
    hyp_cx t(fm * rg, 0.0), s = t;
    double acc = abs(t);
    double ak = 1.0;
    hyp_cx vk(1.0, 0.0);
    for (int k = 1; k < m; ++k) {
      ak *= (a + k - 1.0) / k;
      fm /= (m - k);
      rg *= (c - a - k);
      vk = vk * v;
      t = vk * (ak * fm * rg);
      s += t;
      acc += ::sqrt(k + 1.0) * abs(t);
    }
    hyp_scaled g = hyp_gamma4(c, 1.0, a + m, 1.0);
    p[np++] = {hyp_smul_c(hyp_smul(g, pz), s), hyp_rel(HYP_EPS * acc, abs(s))};
  }
  // R_k = (a + m)_k / (k! (k + m)!) (-v)^k / Gamma(x_k), x_k = c - a - m - k;
  // past a pole of Gamma(x_k), R_k = (a + m)_k / (k! (k + m)!) (-v)^k
  // (-1)^(j+1) j! (j = -x_k), both by the factor x_k - 1 per step.
  // x_k = n0 - k + dx exactly (dx the fraction of c - a - m), so that a
  // c - a near an integer keeps its distance from the poles.
  double x = c - a - m;
  double n0 = ::rint(x), dx = x - n0;
  bool pole = is_nonpos_int(x);
  double r0 = 1.0;
  for (int k = 1; k <= m; ++k) r0 /= k;  // 1 / m!
  if (pole) {
    // (-1)^(j+1) j!
    double j = -x, f = 1.0;
    for (int i = 1; i <= (int)j; ++i) f *= i;
    r0 *= (((long long)j) & 1) ? f : -f;
  } else {
    r0 *= ::fabs(x) < 170.0 ? 1.0 / ::tgamma(x) : 0.0;
  }
  hyp_cx lz = log(-z);
  double p1 = digamma(1.0), pm = digamma(1.0 + m), pam = digamma(a + m);
  double px = pole ? 0.0 : digamma(x);
  hyp_cx R(r0, 0.0), s(0.0, 0.0);
  double acc = 0.0;
  bool done = false;
  for (int k = 0; k < 3000; ++k) {
    // (R psi(x_k) apart: near a pole of Gamma(x_k) it is the O(1) limit,
    // and the rest O(R) would be lost beside it in one sum.)
    hyp_cx term = pole ? -R : R * (lz + (pm + p1 - pam)) - R * px;
    s += term;
    double at = abs(term);
    acc += ::sqrt(k + 2.0) * at;
    double g = (a + m + k) / ((k + 1.0) * (k + m + 1.0));
    double x1 = (n0 - k - 1.0) + dx;  // x_(k+1)
    if (!pole && dx == 0.0 && n0 - k - 1.0 == 0.0) {
      // x_(k+1) = 0, the first pole: R_(k+1) = -(a + m)_(k+1) / ((k + 1)!
      // (k + 1 + m)!) (-v)^(k+1), R_k's 1/Gamma(x_k) replaced.
      R = (R * (-g * ::tgamma((n0 - k) + dx))) * (-v);
      pole = true;
    } else {
      R = (R * (g * x1)) * (-v);
      if (!pole) px -= 1.0 / x1;
    }
    p1 += 1.0 / (k + 1.0);
    pm += 1.0 / (m + k + 1.0);
    pam += 1.0 / (a + m + k);
    x = x1;
    double aR = abs(R);
    if (aR == 0.0) {
      done = true;
      break;
    }
    double q = ::fabs((a + m + k + 1.0) * (x - 1.0) / ((k + 2.0) * (k + m + 2.0))) * av;
    double nxt = aR * (abs(lz) + ::fabs(pm + p1 - pam - px) + 1.0);
    if (k > 2 && hyp_tail(nxt, ::fmax(q, av)) <= 0.25 * HYP_EPS * abs(s)) {
      done = true;
      break;
    }
  }
  if (!done) {
    *rel = inf();
    return hyp_cx(nan(), nan());
  }
  hyp_scaled g = hyp_gamma4(c, 1.0, a, 1.0);
  hyp_scaled vm = hyp_cpow_scaled(v, (double)m, 0.0);
  p[np++] = {hyp_smul_c(hyp_smul(hyp_smul(g, pz), vm), s), hyp_rel(HYP_EPS * acc, abs(s))};
  return h2f1_combine(p, np, 2.0 * HYP_EPS, rel);
}

// F(a, b; c; z) for |z| > 1 (DLMF 15.8.2), |ph(-z)| < pi:
// Gamma(c) Gamma(b - a) / (Gamma(b) Gamma(c - a)) (-z)^-a F(a, a - c + 1;
// a - b + 1; 1/z) + (a <-> b); the limit form where a - b is an integer.
__device__ __noinline__ hyp_cx h2f1_inverse(double a, double b, double c, hyp_cx z, double* rel) {
  double d = a - b, m = ::rint(d);
  // An integer a - b (within rounding: SciPy's 1e-15) by the limit form;
  // nearby the two terms cancel as 1 / (d - m), which the estimate counts.
  if (::fabs(d - m) <= 1e-15 * ::fmax(1.0, ::fmax(::fabs(a), ::fabs(b))) && ::fabs(d) < 1000.0) {
    return m >= 0.0 ? h2f1_inverse_degenerate(b, (int)m, c, z, rel)
                    : h2f1_inverse_degenerate(a, (int)(-m), c, z, rel);
  }
  hyp_cx v = 1.0 / z;
  double r1, r2;
  hyp_cx s1 = h2f1_sum(a, a - c + 1.0, a - b + 1.0, v, &r1);
  hyp_cx s2 = h2f1_sum(b, b - c + 1.0, b - a + 1.0, v, &r2);
  h2f1_part p[2];
  p[0] = {hyp_smul_c(hyp_smul(hyp_gamma4(c, b - a, b, c - a), hyp_cpow_scaled(-z, -a, 0.0)), s1), r1};
  p[1] = {hyp_smul_c(hyp_smul(hyp_gamma4(c, a - b, a, c - b), hyp_cpow_scaled(-z, -b, 0.0)), s2), r2};
  return h2f1_combine(p, 2, 2.0 * HYP_EPS, rel);
}

// The polynomial F(a, b; c; z) summed term by term (n terms) in SciPy's
// order of operations, for its values where they are not finite (an
// infinite z, an overflow), which follow that order.
__device__ inline hyp_cx h2f1_poly_literal(double a, double b, double c, hyp_cx z, double n) {
  hyp_cx t(1.0, 0.0), s(0.0, 0.0);
  for (int k = 0; k < (int)n; ++k) {
    s += t;
    t = t * (a + k);
    t = t * (b + k);
    t = t / ((k + 1.0) * (c + k));
    t = hyp_cmul_c99(t, z);
  }
  return s;
}

// One method of h2f1_general by its number.
__device__ __noinline__ hyp_cx h2f1_method(int id, double a, double b, double c, hyp_cx z,
                                           double* rel) {
  hyp_cx w1(1.0 - z.re, -z.im);
  switch (id) {
    case 0:  // the series
      return h2f1_pref_series({hyp_cx(1.0, 0.0), 0.0}, a, b, c, z, rel);
    case 1:  // Euler: (1 - z)^(c - a - b) F(c - a, c - b; c; z) (DLMF 15.8.1)
      return h2f1_pref_series(hyp_cpow_scaled(w1, c - a - b, 0.0), c - a, c - b, c, z, rel);
    case 2:  // Pfaff: (1 - z)^-a F(a, c - b; c; z / (z - 1)) (DLMF 15.8.1)
      return h2f1_pref_series(hyp_cpow_scaled(w1, -a, 0.0), a, c - b, c, z / (z - 1.0), rel);
    case 3:
      return h2f1_pref_series(hyp_cpow_scaled(w1, -b, 0.0), b, c - a, c, z / (z - 1.0), rel);
    case 4:
      return h2f1_one_minus(a, b, c, z, rel);
    case 5:
      return h2f1_inverse(a, b, c, z, rel);
    case 6:
    case 7: {
      // Lopez-Temme, of (a, b) or after Euler's transformation.
      bool euler = id == 7;
      double a2 = euler ? c - a : a, b2 = euler ? c - b : b;
      hyp_cx hz(1.0 - 0.5 * z.re, -0.5 * z.im);
      double r;
      hyp_cx s = h2f1_lt_sum(a2, b2, c, z / (z - 2.0), &r);
      hyp_scaled pre = hyp_cpow_scaled(hz, -a2, 0.0);
      if (euler) pre = hyp_smul(pre, hyp_cpow_scaled(w1, c - a - b, 0.0));
      h2f1_part p = {hyp_smul_c(pre, s), r};
      return h2f1_combine(&p, 1, 2.0 * HYP_EPS, rel);
    }
  }
  *rel = inf();
  return hyp_cx(nan(), nan());
}

// F(a, b; c; z), finite arguments past SciPy's special cases: the
// methods in the order of their convergence ratio (|z| for the series and
// Euler's form, |z / (z - 1)| for Pfaff's, |1 - z|, 1 / |z|, |z / (z - 2)|
// for Lopez and Temme's where Re z < 1), of two alike the one of smaller
// parameters first; the first whose estimate is within 8 eps is taken,
// else the best.
__device__ __noinline__ hyp_cx h2f1_general(double a, double b, double c, hyp_cx z) {
  double az = abs(z);
  double rate[8];
  rate[0] = rate[1] = az;
  rate[2] = rate[3] = abs(z / (z - 1.0));
  rate[4] = hypot(1.0 - z.re, z.im);
  rate[5] = 1.0 / az;
  rate[6] = rate[7] = z.re < 1.0 ? abs(z / (z - 2.0)) : inf();
  // The order: by rate, Lopez and Temme's sum (in double-double
  // throughout) by a margin of 0.3, so first only where the others are
  // slow (near e^(+-i pi / 3)).
  double key[8];
  for (int i = 0; i < 8; ++i) key[i] = rate[i] + (i >= 6 ? 0.3 : 0.0);
  // Of two alike, the smaller parameters first (by a small bias).
  double s0 = ::fabs(a) + ::fabs(b), s1 = ::fabs(c - a) + ::fabs(c - b);
  double s2 = ::fabs(a) + ::fabs(c - b), s3 = ::fabs(b) + ::fabs(c - a);
  if (s1 < s0) key[0] *= 1.0 + 1e-9; else key[1] *= 1.0 + 1e-9;
  if (s3 < s2) key[2] *= 1.0 + 1e-9; else key[3] *= 1.0 + 1e-9;
  if (s1 < s0) key[6] *= 1.0 + 1e-9; else key[7] *= 1.0 + 1e-9;
  int order[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  for (int i = 1; i < 8; ++i) {
    for (int j = i; j > 0 && key[order[j]] < key[order[j - 1]]; --j) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  }
  hyp_cx best(nan(), nan());
  double best_rel = inf();
  for (int i = 0; i < 8; ++i) {
    int id = order[i];
    if (!(rate[id] < 0.97)) continue;
    double rel;
    hyp_cx v = h2f1_method(id, a, b, c, z, &rel);
    if (rel <= 8.0 * HYP_EPS) return v;
    if (rel < best_rel) {
      best = v;
      best_rel = rel;
    }
  }
  return best;
}

}  // namespace detail

// F(a, b; c; z) for real a, b, c and complex z (see the header comment).
__device__ inline cuprum::complex<double> hyp2f1(double a, double b, double c,
                                                 cuprum::complex<double> z) {
  using namespace detail;
  typedef cuprum::complex<double> C;
  // SciPy's special cases, in its order: a or b = 0 (1, even at a pole of
  // c or a NaN z), z = 0 (1, NaN + 0i for c = 0), a pole of c not
  // cancelled by a polynomial's end (inf + 0i), the polynomials.
  if (a == 0.0 || b == 0.0) return C(1.0, 0.0);
  double az = abs(z);
  if (az == 0.0) return c != 0.0 ? C(1.0, 0.0) : C(nan(), 0.0);
  bool an = a == ::trunc(a) && a < 0.0, bn = b == ::trunc(b) && b < 0.0;
  bool cn = c == ::trunc(c) && c <= 0.0;
  if (cn && !((an && c <= a) || (bn && c <= b))) return C(inf(), 0.0);
  bool zfinite = cuprum::isfinite(z.re) && cuprum::isfinite(z.im);
  bool finite = zfinite && !is_nan(c) && !is_inf(c) && !is_nan(a) && !is_inf(a) && !is_nan(b) &&
                !is_inf(b);
  if (an || bn) {
    // A polynomial of degree the smaller of -a, -b (SciPy's sum where it
    // is not finite).
    if (is_inf(a) || is_inf(b)) return C(nan(), nan());
    double n = (an && bn) ? ::fmin(-a, -b) : (an ? -a : -b);
    if (!finite || n > 3000.0) return h2f1_poly_literal(a, b, c, z, n + 1.0);
    double rel;
    C v = h2f1_pref_series({C(1.0, 0.0), 0.0}, a, b, c, z, &rel);
    if (!(cuprum::isfinite(v.re) && cuprum::isfinite(v.im))) return h2f1_poly_literal(a, b, c, z, n + 1.0);
    return v;
  }
  // Kummer's theorem at z = -1 for c = 1 + a - b (DLMF 15.4.26).
  if (abs(z + 1.0) < 1e-15 && ::fabs(1.0 + a - b - c) < 1e-15 && !cn) {
    return C(hyp_unscale(hyp_gamma4(a - b + 1.0, 0.5 * a + 1.0, a + 1.0, 0.5 * a - b + 1.0)).re, 0.0);
  }
  // c - a or c - b a negative integer: a polynomial after Euler's
  // transformation (DLMF 15.8.1).
  bool can = (c - a) == ::trunc(c - a) && c - a < 0.0, cbn = (c - b) == ::trunc(c - b) && c - b < 0.0;
  if (can || cbn) {
    if (!finite) return C(nan(), nan());
    if (z.re == 1.0 && z.im == 0.0) {
      // SciPy's std::pow(1 - z, c - a - b) at 1 - z = 0 - 0i, polar(exp(p
      // log|w|), p ph w): inf + NaN i for p < 0, 0 - 0i above; times its
      // sum of the polynomial's terms (and two more), C99's product.
      double n = cbn ? -(c - b) : -(c - a);
      C p = h2f1_poly_literal(c - a, c - b, c, z, n + 2.0);
      double e = c - a - b, th = e * ::atan2(-z.im, 0.0);
      double r = ::exp(e * -inf());
      return hyp_cmul_c99(C(r * ::cos(th), r * ::sin(th)), p);
    }
    double rel;
    return h2f1_method(1, a, b, c, z, &rel);
  }
  // SciPy's values at z = 1: inf + 0i where c - a - b <= 0 (within 1e-15
  // of 1 on the real axis), Gauss' theorem (DLMF 15.4.20) else.
  if (::fabs(1.0 - z.re) < 1e-15 && z.im == 0.0 && c - a - b <= 0.0 && !cn) return C(inf(), 0.0);
  if (z.re == 1.0 && z.im == 0.0 && c - a - b > 0.0 && !cn) {
    return C(hyp_unscale(hyp_gamma4(c, c - a - b, c - a, c - b)).re, 0.0);
  }
  if (!finite) return C(nan(), nan());
  return h2f1_general(a, b, c, z);
}

__device__ __forceinline__ cuprum::complex<float> hyp2f1(float a, float b, float c,
                                                         cuprum::complex<float> z) {
  return cuprum::complex<float>(
      hyp2f1((double)a, (double)b, (double)c, cuprum::complex<double>(z)));
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
