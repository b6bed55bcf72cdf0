// scipy.special's hypergeometric functions and the Lambert W function
// (namespace cuprum::special); see the table rows in
// crates/gpu-special/src/table/hyper.rs.
//
// hyp1f1(a, b, x) = M(a, b, x), Kummer's function (DLMF 13.2.2):
//   SciPy's order of special cases (b a non-positive integer: inf unless
//   a is a non-positive integer >= b, whose polynomial is summed; a = 0,
//   x = 0, a = -1, a = b, a = b + 1, (a, b) = (1, 2) in closed form);
//   Kummer's transformation M(a, b, x) = e^x M(b - a, b, -x) (DLMF 13.2.39)
//   for x < 0 where the series would cancel; for x > 0 the large-x
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
//   of its relative error, the first within 4 eps taken (else the best):
//   for |z| > 8 the large-|z| expansion DLMF 13.7.2 with both its
//   exponentially large and algebraic parts, the latter with e^(+-i pi a)
//   by the sign of Im z (cos(pi a) on the real axis) and counted as error
//   within the Stokes transition |ph z| < 3 / sqrt|z| near the positive
//   axis, each part summed to the precision its size needs (in
//   double-double where large parameters make its terms grow before they
//   fall); the Maclaurin series DLMF 13.2.2 in double for |z| <= 4; the
//   Maclaurin series in double-double (about 32 digits, which absorb the
//   cancellation of up to 1e15 near the imaginary axis). Powers z^p as
//   z^n by squaring times |z|^f e^(i f ph z), Gamma ratios by tgamma (by
//   lgamma beyond), and the products scaled by powers of 2, so that
//   e^z may overflow where M does not. Non-finite z: SciPy's values
//   (NaN, except its closed forms, its polynomial sums and its series at
//   Re z = +inf for a < 0).
//
// hyp2f1(a, b, c, x) = F(a, b; c; x), Gauss' function (DLMF 15.2.1), real x:
//   the polynomials (a or b a non-positive integer) summed; Gauss' theorem
//   at x = 1 (DLMF 15.4.20), inf where c - a - b <= 0 or c is a pole;
//   Pfaff's transformation x -> x / (x - 1) (DLMF 15.8.1) for x < 0, so
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
// cancellation of up to 1e15 still leaves the double's.
__device__ __noinline__ double hyp1f1_series_dd(double a, double b, double x) {
  hyp_dd term = {1.0, 0.0}, sum = {1.0, 0.0};
  hyp_dd xx = {x, 0.0};
  for (int k = 0; k < 5000; ++k) {
    hyp_dd num = hyp_dd_mul(hyp_dd_sum(a, (double)k), xx);
    hyp_dd den = hyp_dd_mul(hyp_dd_sum(b, (double)k), {(double)(k + 1), 0.0});
    if (den.hi == 0.0) return num.hi == 0.0 ? sum.hi : inf();
    term = hyp_dd_mul(term, hyp_dd_div(num, den));
    sum = hyp_dd_add(sum, term);
    if (term.hi == 0.0) break;
    if (::fabs(term.hi) <= 1e-33 * ::fabs(sum.hi) && ::fabs(num.hi) < 0.5 * ::fabs(den.hi)) break;
    if (!(::fabs(sum.hi) < inf())) break;
  }
  return sum.hi + sum.lo;
}

// The Maclaurin series of M(a, b, x) (DLMF 13.2.2), summed until a term
// below eps of the sum once the terms decrease; (a)_n / (b)_n cancel
// where both reach 0 (a non-positive integer >= b), inf where b's pole
// is reached first. `abssum` receives the sum of the terms' magnitudes.
__device__ inline double hyp1f1_series(double a, double b, double x, double* abssum) {
  double term = 1.0, sum = 1.0, asum = 1.0;
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
    if (term == 0.0) break;
    if (::fabs(term) <= HYP_EPS * ::fabs(sum) && ::fabs(r) < 0.5) break;
  }
  *abssum = asum;
  return sum;
}

// e^s M(a, b, x) for x > 0 by DLMF 13.7.2, or NaN where the expansion does
// not reach eps before its terms grow.
__device__ inline double hyp1f1_asymptotic(double a, double b, double x, double s) {
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
  double dom = inf(), sub = inf();
  if (::fabs(b) < 160.0 && ::fabs(a) < 160.0 && x + s < 709.0 && x + s > -700.0) {
    double g = ::tgamma(b);
    dom = poly ? 0.0 : (g * ra) * (::exp(x + s) * hyp_pow2(x, amb, e)) * sum;
    sub = (g * rba) * ::cospi(a) * (::exp(s) * ::pow(x, -a)) * sum2;
  }
  if (!(::fabs(dom) < inf() && ::fabs(sub) < inf())) {
    double lg = ::lgamma(b);
    double sg = hyp_gamma_sign(b);
    dom = poly ? 0.0
                    : sg * hyp_gamma_sign(a) * sum *
                          ::exp(lg - ::lgamma(a) + x + s + amb * ::log(x));
    sub = rba == 0.0 ? 0.0
                     : sg * hyp_gamma_sign(b - a) * ::cospi(a) * sum2 *
                           ::exp(lg - ::lgamma(b - a) + s - a * ::log(x));
  }
  return dom + sub;
}

// e^s M(a, b, x) for x > 0, b not a non-positive integer, a > 0 or
// a non-positive integer.
__device__ inline double hyp1f1_plain(double a, double b, double x, double s) {
  if (x > 20.0) {
    double v = hyp1f1_asymptotic(a, b, x, s);
    if (!is_nan(v)) return v;
  }
  double asum;
  double v = hyp1f1_series(a, b, x, &asum);
  return s == 0.0 ? v : v * ::exp(s);
}

// e^s M(a, b, x), x > 0, b not a non-positive integer.
__device__ inline double hyp1f1_positive(double a, double b, double x, double s) {
  if (a < 0.0) {
    if (x > 20.0 && !is_nonpos_int(a)) {
      double v = hyp1f1_asymptotic(a, b, x, s);
      if (!is_nan(v)) return v;
    }
    double asum;
    double v = hyp1f1_series(a, b, x, &asum);
    if (!(asum > 64.0 * ::fabs(v))) return s == 0.0 ? v : v * ::exp(s);
    v = hyp1f1_series_dd(a, b, x);
    return s == 0.0 ? v : v * ::exp(s);
  }
  return hyp1f1_plain(a, b, x, s);
}

__device__ __noinline__ double hyp1f1_general(double a, double b, double x) {
  if (x > 0.0) return hyp1f1_positive(a, b, x, 0.0);
  // x < 0: the series without cancellation where its terms fall at once
  // (SciPy's criterion), else Kummer's transformation.
  if (b > 0.0 && (::fabs(a) + 1.0) * ::fabs(x) < 0.9 * b) {
    double asum;
    return hyp1f1_series(a, b, x, &asum);
  }
  return hyp1f1_positive(b - a, b, -x, x);
}

}  // namespace detail

// M(a, b, x), Kummer's confluent hypergeometric function (see the header
// comment).
__device__ inline double hyp1f1(double a, double b, double x) {
  using namespace detail;
  if (is_nan(a) || is_nan(b) || is_nan(x)) return nan();
  if (is_nonpos_int(b)) {
    if (b <= a && a != 0.0 && is_nonpos_int(a)) {
      if (is_inf(x)) return inf();
      double asum;
      return hyp1f1_series(a, b, x, &asum);
    }
    return inf();
  }
  if (a == 0.0 || x == 0.0) return 1.0;
  // SciPy's values at the infinities.
  if (b == inf()) return is_inf(x) ? nan() : 1.0;
  if (is_inf(a) || is_inf(b)) return nan();
  if (is_inf(x)) {
    if (a == 0.0) return 1.0;
    if (a == -1.0) return inf();
    if (a == 1.0 && b == 2.0 && x < 0.0) return 0.0;
    return nan();
  }
  if (a == 0.0 || x == 0.0) return 1.0;
  if (a == -1.0) return 1.0 - x / b;
  if (a == b) return ::exp(x);
  if (a - b == 1.0) return (1.0 + x / b) * ::exp(x);
  if (a == 1.0 && b == 2.0) return ::expm1(x) / x;
  if (is_nonpos_int(a)) {
    // A polynomial, in double-double where its terms cancel.
    double asum;
    double v = hyp1f1_series(a, b, x, &asum);
    if (asum > 64.0 * ::fabs(v)) return hyp1f1_series_dd(a, b, x);
    return v;
  }
  return hyp1f1_general(a, b, x);
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
  double p = x.hi * y;
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
__device__ inline hyp_scaled hyp_cpow_scaled(hyp_cx z, double p0, double pe) {
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
__device__ inline double hyp_rgamma_dd(double x, double e) {
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
__device__ inline hyp_scaled hyp_prefactor(double g, double lg, double sg, hyp_cx w, hyp_cx z,
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

// The Maclaurin series of M(a + ae, b, z) (DLMF 13.2.2) in double, with a
// bound on its rounding and truncation error in *err (absolute, NaN-free;
// inf if it did not converge). The (n + 1) |t_n| sum bounds the rounding
// of the n products that make the n-th term.
__device__ inline hyp_cx chyp1f1_series(double a, double ae, double b, hyp_cx z, double* err) {
  hyp_cx term(1.0, 0.0), sum(1.0, 0.0);
  double az = abs(z), acc = 1.0;
  *err = inf();
  for (int k = 0; k < 3000; ++k) {
    double apk = (a + k) + ae;
    if (apk == 0.0) {
      *err = HYP_EPS * 2.0 * acc;  // a polynomial ends
      return sum;
    }
    double r = apk / ((b + k) * (k + 1.0));
    term = (term * r) * z;
    sum += term;
    double at = abs(term);
    acc += (k + 2.0) * at;
    if (!(at < inf())) return sum;
    // (Not before b + k >= 0: a b near a pole -n amplifies the terms
    // from k = n on.)
    if (at <= 0.25 * HYP_EPS * abs(sum) && ::fabs(r) * az < 0.5 && b + k >= 0.0) {
      *err = HYP_EPS * 2.0 * acc;
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
// until a term below tol |sum|, or NaN where the terms grow first.
// *acc receives sum_n (n + 1) |t_n| (the rounding), *last the last term.
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
    *acc += (n + 2.0) * at;
    if (at <= tol * abs(s)) {
      *last = at;
      return s;
    }
  }
  return s;
}

// The same sum in double-double, for large parameters, whose terms grow
// before they fall and cancel: t_(n+1) = t_n (p + n) (q + n) / ((n + 1) w)
// with w = s z exact (1 / w as conj(w) / |w|^2, |w|^2 in double-double).
// *acc: sum_n (n + 1) |t_n| again.
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
    if (at <= tol * ::hypot(s.re.hi, s.im.hi)) {
      *last = at;
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
  double u1 = 2.0 * HYP_EPS, u2 = 2.0 * HYP_EPS;
  if (dom) {
    double tol = 0.25 * HYP_EPS * ::exp(::fmin(lmax - l1, 700.0));
    s1 = chyp1f1_asy_sum(1.0 - a - ae, ba + bae, zi, az, tol, &acc1, &last1);
    if (!(last1 < inf())) return s1;
    if (u1 * acc1 > tol * abs(s1)) {
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
    if (u2 * acc2 > tol * abs(s2)) {
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
  if (dom) e += m1 / as1 * (last1 + u1 * acc1) + 8.0 * HYP_EPS * m1;
  if (alg) {
    e += m2 / as2 * (last2 + u2 * acc2) + 8.0 * HYP_EPS * m2;
    // Near the positive real axis the Stokes switch of e^(+-i pi a) is
    // not resolved: its jump |sin(pi a)| |part| counts as error within
    // the transition (|ph z| < 3 / sqrt|z|; on the axis cos(pi a) is
    // the value).
    if (dom && z.im != 0.0 && ::fabs(z.im) < 3.0 * z.re / ::sqrt(az)) {
      e += ::fabs(::sinpi(a)) * m2;
    }
  }
  *rel = e / abs(m);
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
  // Each method estimates its relative error; the first within 4 eps is
  // taken, else the best.
  hyp_cx best(nan(), nan());
  double best_rel = inf();
  const double ok = 4.0 * HYP_EPS;
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

}  // namespace detail

// F(a, b; c; x), Gauss' hypergeometric function of real x (see the header
// comment); inf for x > 1 and at the poles of c, as SciPy's.
__device__ inline double hyp2f1(double a, double b, double c, double x) {
  using namespace detail;
  // Cephes' order (SciPy's values): x = 0 and a or b = 0 first, even
  // beside a NaN; c = a or c = b as (1 - x)^-b or (1 - x)^-a, even at a
  // pole of c.
  if (x == 0.0) return 1.0;
  if ((a == 0.0 || b == 0.0) && c != 0.0) return 1.0;
  bool na = is_nonpos_int(a), nb = is_nonpos_int(b);
  if (::fabs(x) < 1.0 || x == -1.0) {
    if (c == b) return nb ? hyp2f1_series(b, a, c, x) : ::pow(1.0 - x, -a);
    if (c == a) return ::pow(1.0 - x, -b);
  }
  if (is_nan(x)) return (is_nonpos_int(c) && (na || nb)) ? inf() : nan();
  if (is_nonpos_int(c)) {
    // The pole of c is cancelled where a non-positive integer a (or b)
    // ends the series first.
    if (!((na && a > c) || (nb && b > c))) return inf();
  }
  if (is_nan(a) || is_nan(b) || is_nan(c) || is_nan(x)) return nan();
  if (is_inf(a) || is_inf(b) || is_inf(c) || is_inf(x)) return nan();
  if (na || nb) {
    // A polynomial: sum it (the shorter one).
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
    // Near x = 1 its terms cancel: DLMF 15.8.7, F(-n, b; c; x) =
    // (c-b)_n / (c)_n F(-n, b; b - c - n + 1; 1 - x), where defined.
    double n = -a, c2 = b - c - n + 1.0;
    if (x > 0.5 && x <= 1.0 && n <= 1000.0 && !is_nonpos_int(c2) && !is_nonpos_int(c)) {
      double r = 1.0;
      for (int k = 0; k < (int)n; ++k) r *= (c - b + k) / (c + k);
      return r * hyp2f1_series(a, b, c2, 1.0 - x);
    }
    return hyp2f1_series(a, b, c, x);
  }
  if (x == 1.0) {
    if (c - a - b > 0.0) return hyp_gamma_ratio(c, c - a - b, c - a, c - b);
    return inf();
  }
  if (x > 1.0) return inf();
  return hyp2f1_general(a, b, c, x);
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
