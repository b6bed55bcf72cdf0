// scipy.special's exponential, sine and cosine integrals (namespace
// cuprum::special); see the table rows in crates/gpu-special/src/table/expint.rs.
// Methods: power series (DLMF 6.6.2, 6.6.5, 6.6.6, 8.19.8), continued
// fractions evaluated by the modified Lentz algorithm (DLMF 6.9, 8.19.17
// after A&S 5.1.22) and the asymptotic series (DLMF 6.12.2). No fitted
// coefficients are used (crates/gpu-special/tools/coefficients_expint.py
// prints the two constants).
#pragma once

#include "cuprum/special/common.cuh"

namespace cuprum {
namespace special {
namespace detail {

constexpr double EULER = 0.57721566490153286060651209008240243;

// E_n(x) e^{x} for x > 1 by the continued fraction DLMF 8.19.17 /
// A&S 5.1.22: E_n(x) = e^{-x} / (x + n - 1 n/(x + n + 2 - 2(n+1)/(x + n + 4
// - ...))), evaluated from a fixed depth upward (more stable than forward
// recurrence: at x = 1 the forward Lentz scheme loses 30 ulps). The depth
// 20 + 140/x (200 below x = 1) converges for every n >= 1 at x > 0.6.
__device__ inline double expn_cf_scaled(double n, double x) {
  int depth = x < 1.0 ? 200 : (int)(20.0 + 140.0 / x);
  double t = 0.0;
  for (int i = depth; i > 0; --i) t = -(double)i * (n - 1.0 + i) / (x + n + 2.0 * i + t);
  return 1.0 / (x + n + t);
}

// E1(x) for 0 < x <= 0.6: DLMF 6.6.2, E1 = -gamma - ln x - sum (-x)^k/(k k!).
__device__ inline double e1_series(double x) {
  double term = 1.0, s = 0.0;
  for (int k = 1; k < 60; ++k) {
    term *= -x / k;
    double t = term / k;
    s += t;
    if (::fabs(t) < 1e-18 * ::fabs(s)) break;
  }
  return -EULER - ::log(x) - s;
}

// Ei(x) for 0 < x <= 40: DLMF 6.6.1 with the series sum x^k/(k k!).
__device__ inline double ei_series(double x) {
  double term = 1.0, s = 0.0;
  for (int k = 1; k < 200; ++k) {
    term *= x / k;
    double t = term / k;
    s += t;
    if (t < 1e-18 * s) break;
  }
  return EULER + ::log(x) + s;
}

// Ei(x) e^{-x} x for x > 40: the asymptotic series DLMF 6.12.2
// sum k!/x^k, stopped at its smallest term.
__device__ inline double ei_asym(double x) {
  double term = 1.0, s = 1.0;
  for (int k = 1; k < 60; ++k) {
    double nt = term * k / x;
    if (nt > term) break;
    term = nt;
    s += term;
    if (term < 1e-18 * s) break;
  }
  return s;
}

}  // namespace detail

// scipy.special.exp1: E1(x) = int_x^inf e^{-t}/t dt (real loop: NaN for
// x < 0, inf at 0).
__device__ inline double exp1(double x) {
  if (detail::is_nan(x) || x < 0.0) return detail::nan();
  if (x == 0.0) return detail::inf();
  // The series cancels towards x = 1 (10 ulps): the fraction from 0.6.
  if (x <= 0.6) return detail::e1_series(x);
  if (x > 746.0) return 0.0;
  return ::exp(-x) * detail::expn_cf_scaled(1.0, x);
}
CUPRUM_SPECIAL_F1(exp1)

// scipy.special.expi: Ei(x) = -E1(-x) for x < 0; -inf at 0.
__device__ inline double expi(double x) {
  if (detail::is_nan(x)) return x;
  if (x == 0.0) return -detail::inf();
  if (x < 0.0) return -exp1(-x);
  if (x <= 40.0) return detail::ei_series(x);
  if (x == detail::inf()) return x;
  // e^x / x without overflowing early: e^{x/2} (e^{x/2} / x).
  double h = ::exp(0.5 * x);
  return h * (h / x * detail::ei_asym(x));
}
CUPRUM_SPECIAL_F1(expi)

// scipy.special.expn: E_n(x) = int_1^inf e^{-xt}/t^n dt (DLMF 8.19).
// NaN for n < 0 or x < 0; at x = 0, inf for n < 2 and 1/(n-1) beyond.
// Series DLMF 8.19.8 for x <= 1, the continued fraction otherwise.
// SciPy passes n on as a C int: an int64 n wraps to 32 bits, a double n
// is truncated (NaN beyond the int range).
namespace detail {
__device__ inline double expn_int(long long n, double x) {
  if (detail::is_nan(x) || n < 0 || x < 0.0) return detail::nan();
  if (x == 0.0) return n < 2 ? detail::inf() : 1.0 / (double)(n - 1);
  if (n == 0) return ::exp(-x) / x;
  if (n == 1) return exp1(x);
  double dn = (double)n;
  if (x > 1.0) {
    if (x > 746.0) return 0.0;
    return ::exp(-x) * detail::expn_cf_scaled(dn, x);
  }
  // E_n(x) = (-x)^{n-1}/(n-1)! (psi(n) - ln x) - sum_{k != n-1} (-x)^k/(k!(k+1-n)).
  double s = 0.0, term = 1.0;  // term = (-x)^k / k!
  for (int k = 0; k < 60; ++k) {
    if (k > 0) term *= -x / k;
    if ((long long)k == n - 1) continue;
    double t = term / (k + 1.0 - dn);
    s -= t;
    if (k > n && ::fabs(t) < 1e-18 * ::fabs(s)) break;
  }
  if (n - 1 < 60) {
    // psi(n) = -gamma + sum_{j<n} 1/j.
    double psi = -detail::EULER;
    for (long long j = 1; j < n; ++j) psi += 1.0 / (double)j;
    double lead = ::exp((dn - 1.0) * ::log(x) - ::lgamma(dn));
    if ((n - 1) & 1) lead = -lead;
    s += lead * (psi - ::log(x));
  }
  return s;
}
}  // namespace detail
__device__ inline double expn(long long n, double x) {
  return detail::expn_int((long long)(int)(unsigned int)(unsigned long long)n, x);
}
__device__ inline double expn(double n, double x) {
  if (detail::is_nan(n) || !(::fabs(n) < 2147483648.0)) return detail::nan();
  return detail::expn_int((long long)::trunc(n), x);
}
__device__ __forceinline__ float expn(long long n, float x) { return (float)expn(n, (double)x); }
CUPRUM_SPECIAL_F2(expn)

namespace detail {
// E1(z) for z = i y, y >= 4: e^{-z} times the continued fraction of
// DLMF 6.9.1 in complex arithmetic (modified Lentz). Returns re, im.
__device__ inline void e1_imag_cf(double y, double& re, double& im) {
  const double tiny = 1e-300;
  // b = z + 1
  double br = 1.0, bi = y;
  double den = br * br + bi * bi;
  double fr = br / den, fi = -bi / den;  // f = 1/b
  double dr = fr, di = fi;
  double cr = 1.0 / tiny, ci = 0.0;
  for (int i = 1; i < 500; ++i) {
    double a = -(double)i * (double)i;
    br += 2.0;
    // d = 1 / (a d + b)
    double tr = a * dr + br, ti = a * di + bi;
    den = tr * tr + ti * ti;
    dr = tr / den; di = -ti / den;
    // c = b + a / c
    den = cr * cr + ci * ci;
    cr = br + a * cr / den; ci = bi - a * ci / den;
    if (cr == 0.0 && ci == 0.0) cr = tiny;
    double delr = cr * dr - ci * di, deli = cr * di + ci * dr;
    double nr = fr * delr - fi * deli, ni = fr * deli + fi * delr;
    fr = nr; fi = ni;
    if (::fabs(delr - 1.0) + ::fabs(deli) < 1e-17) break;
  }
  // times e^{-iy} = cos y - i sin y
  double s, c;
  ::sincos(y, &s, &c);
  re = fr * c + fi * s;
  im = fi * c - fr * s;
}
}  // namespace detail

// scipy.special.sici: Si(x) and Ci(x) (DLMF 6.2.5, 6.2.11). Si is odd;
// for x < 0 Ci gives Ci(|x|) (the real part, as SciPy); Ci(0) = -inf,
// Ci(-inf) = NaN. Series DLMF 6.6.5-6.6.6 for |x| <= 4, otherwise from
// E1(ix) = -Ci(x) + i (Si(x) - pi/2) (DLMF 6.5.5-6.5.6), and the
// auxiliary functions' asymptotic series (DLMF 6.12.3-6.12.4) beyond 1e6.
__device__ inline void sici(double x, double& si, double& ci) {
  if (detail::is_nan(x)) { si = x; ci = x; return; }
  double ax = ::fabs(x);
  if (ax == 0.0) { si = x; ci = -detail::inf(); return; }
  if (detail::is_inf(x)) {
    si = x > 0 ? detail::PI / 2 : -detail::PI / 2;
    ci = x > 0 ? 0.0 : detail::nan();
    return;
  }
  double s, c;
  if (ax <= 4.0) {
    double x2 = ax * ax, term = ax;  // x^{2k+1}/(2k+1)! with sign
    s = ax;
    c = 0.0;
    double tc = 1.0;  // (-1)^k x^{2k}/(2k)!
    for (int k = 1; k < 40; ++k) {
      tc = -tc * x2 / ((2.0 * k - 1.0) * (2.0 * k));
      double dc = tc / (2.0 * k);
      c += dc;
      term = -term * x2 / ((2.0 * k) * (2.0 * k + 1.0));
      double ds = term / (2.0 * k + 1.0);
      s += ds;
      if (::fabs(ds) < 1e-18 * ::fabs(s) && ::fabs(dc) < 1e-18) break;
    }
    c += detail::EULER + ::log(ax);
  } else if (ax > 1e6) {
    // The auxiliary functions' asymptotic series (DLMF 6.12.3-6.12.4):
    // f ~ (1 - 2!/x^2 + 4!/x^4)/x, g ~ (1 - 3!/x^2 + 5!/x^4)/x^2.
    double r = 1.0 / ax, r2 = r * r;
    double f = r * (1.0 - 2.0 * r2 + 24.0 * r2 * r2);
    double g = r2 * (1.0 - 6.0 * r2 + 120.0 * r2 * r2);
    double sn, cs;
    ::sincos(ax, &sn, &cs);
    s = detail::PI / 2 - f * cs - g * sn;
    c = f * sn - g * cs;
  } else {
    double re, im;
    detail::e1_imag_cf(ax, re, im);
    c = -re;
    s = im + detail::PI / 2;
  }
  si = x < 0 ? -s : s;
  ci = c;
}
__device__ inline void sici(float x, float& si, float& ci) {
  double s, c;
  sici((double)x, s, c);
  si = (float)s;
  ci = (float)c;
}

// scipy.special.shichi: Shi(x) and Chi(x) (DLMF 6.2.15-16). Shi is odd;
// for x < 0 Chi gives Chi(|x|); Chi(0) = -inf. Series DLMF 6.6.5-6.6.6
// analogues for |x| <= 8, otherwise Shi = (Ei + E1)/2, Chi = (Ei - E1)/2.
__device__ inline void shichi(double x, double& shi, double& chi) {
  if (detail::is_nan(x)) { shi = x; chi = x; return; }
  double ax = ::fabs(x);
  if (ax == 0.0) { shi = x; chi = -detail::inf(); return; }
  double s, c;
  if (ax <= 8.0) {
    double x2 = ax * ax, term = ax, tc = 1.0;
    s = ax;
    c = 0.0;
    for (int k = 1; k < 60; ++k) {
      tc = tc * x2 / ((2.0 * k - 1.0) * (2.0 * k));
      double dc = tc / (2.0 * k);
      c += dc;
      term = term * x2 / ((2.0 * k) * (2.0 * k + 1.0));
      double ds = term / (2.0 * k + 1.0);
      s += ds;
      if (ds < 1e-18 * s && dc < 1e-18 * c) break;
    }
    c += detail::EULER + ::log(ax);
  } else if (ax > 800.0) {
    s = detail::inf();
    c = detail::inf();
  } else {
    double e1 = exp1(ax);
    double h = ::exp(0.5 * ax);
    // Ei / 2 = e^{x/2} (e^{x/2} / (2x)) sum, or the series below 40.
    double ei2 = ax <= 40.0 ? 0.5 * detail::ei_series(ax) : h * (h / (2.0 * ax) * detail::ei_asym(ax));
    s = ei2 + 0.5 * e1;
    c = ei2 - 0.5 * e1;
  }
  shi = x < 0 ? -s : s;
  chi = c;
}
__device__ inline void shichi(float x, float& shi, float& chi) {
  double s, c;
  shichi((double)x, s, c);
  shi = (float)s;
  chi = (float)c;
}

}  // namespace special
}  // namespace cuprum
