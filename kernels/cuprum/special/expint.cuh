// scipy.special's exponential, sine and cosine integrals (namespace
// cuprum::special); see the table rows in crates/gpu-special/src/table/expint.rs.
// Methods: power series (DLMF 6.6.2, 6.6.5, 6.6.6, 8.19.8), continued
// fractions evaluated by the modified Lentz algorithm (DLMF 6.9, 8.19.17
// after A&S 5.1.22) and the asymptotic series (DLMF 6.12.2). No fitted
// coefficients are used (crates/gpu-special/tools/coefficients_expint.py
// prints the constants). The complex loops of exp1, expi, sici and
// shichi (end of the file) share one complex E1: the series DLMF 6.6.2,
// the continued fraction DLMF 6.9.1 (its even part, evaluated from a
// fixed depth upward) and the asymptotic series DLMF 6.12.1.
#pragma once

#include "cuprum/complex.cuh"
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

// ---------------------------------------------------------------------------
// SciPy's complex loops of exp1, expi, sici and shichi (D->D, D->DD; the
// complex64 loops evaluate the complex128 function and round once, as
// SciPy's F->F loops do). All four rest on E1(z) on its principal branch
// (cut along the negative real axis, the sign of a zero imaginary part
// picking the side: E1(-x +- 0i) = -Ei(x) -+ i pi, DLMF 6.2.7-6.2.8):
// - the power series DLMF 6.6.2, E1 = -gamma - Log z - sum (-z)^k/(k k!),
//   where |z| + Re z <= 1.5 and |z| < 45: there the terms' largest
//   magnitude, e^{|z|}/|z|, exceeds |E1| ~ e^{-Re z}/|z| by at most e^1.5
//   (small |z|, and the strip along the negative real axis where the
//   continued fraction converges slowly);
// - the continued fraction DLMF 6.9.1 elsewhere below |z| = 45, through
//   its even part e^{-z}/(z + 1 - 1^2/(z + 3 - 2^2/(z + 5 - ...)))
//   evaluated from the fixed depth 24 + 260/(|z| + Re z) upward (measured
//   against mpmath: the tail has converged to a quarter of an epsilon by
//   then; the upward evaluation is more stable than forward Lentz, which
//   loses tens of ulps where the fraction needs 100 terms);
// - the asymptotic series DLMF 6.12.1, e^{-z}/z sum (-1)^k k!/z^k, from
//   |z| = 45: its optimally truncated remainder and the Stokes jump near
//   the negative real axis (2 pi against |E1| ~ e^{|z|}/|z|) are both
//   below 1e-17 relatively; exactly on the axis the -+ i pi of DLMF 6.2.7
//   is added.

namespace detail {

typedef cuprum::complex<double> cexpint_t;

// a + b = s + e exactly (Knuth's TwoSum) and a b = p + e exactly (FMA).
__device__ __forceinline__ void expint_two_sum(double a, double b, double& s, double& e) {
  s = __dadd_rn(a, b);
  const double bb = __dsub_rn(s, a);
  e = __dadd_rn(__dsub_rn(a, __dsub_rn(s, bb)), __dsub_rn(b, bb));
}
__device__ __forceinline__ void expint_two_prod(double a, double b, double& p, double& e) {
  p = __dmul_rn(a, b);
  e = ::fma(a, b, -p);
}

// (h + l) / k for an integer k, as a new pair: the remainder of the
// rounded quotient is exact (FMA).
__device__ __forceinline__ void expint_div_k(cexpint_t& h, cexpint_t& l, double k) {
  const double qr = h.re / k, qi = h.im / k;
  const double rr = ::fma(-qr, k, h.re), ri = ::fma(-qi, k, h.im);
  h = cexpint_t(qr, qi);
  l = cexpint_t((rr + l.re) / k, (ri + l.im) / k);
}

// sum_{k>=1} w^k / (k k!) = s + sl: Ein(-w)'s series (DLMF 6.6.2, 6.2.3)
// and Ei's (DLMF 6.6.1). Compensated (the error-free transformations of
// Ogita, Rump and Oishi, "Accurate sum and dot product", SIAM J. Sci.
// Comput. 26 (2005)): the terms w^k/k! and the sum are carried as
// unevaluated pairs, so the rounding does not build up along the 40 to
// 150 terms summed near |z| = 45 (plain summation lost 7 epsilons there).
__device__ inline void expint_series(const cexpint_t& w, cexpint_t& s, cexpint_t& sl) {
  cexpint_t th(1.0, 0.0), tl(0.0, 0.0);  // w^k / k!
  s = cexpint_t(0.0, 0.0);
  sl = cexpint_t(0.0, 0.0);
  for (int k = 1; k < 250; ++k) {
    // (th + tl) w, the products of th's parts exactly.
    double p1, e1, p2, e2, p3, e3, p4, e4, rh, rl, ih, il;
    expint_two_prod(th.re, w.re, p1, e1);
    expint_two_prod(th.im, w.im, p2, e2);
    expint_two_prod(th.re, w.im, p3, e3);
    expint_two_prod(th.im, w.re, p4, e4);
    expint_two_sum(p1, -p2, rh, rl);
    expint_two_sum(p3, p4, ih, il);
    rl += (e1 - e2) + (tl.re * w.re - tl.im * w.im);
    il += (e3 + e4) + (tl.re * w.im + tl.im * w.re);
    th = cexpint_t(rh, ih);
    tl = cexpint_t(rl, il);
    const double dk = (double)k;
    expint_div_k(th, tl, dk);
    cexpint_t dh = th, dl = tl;
    expint_div_k(dh, dl, dk);
    double er, ei;
    expint_two_sum(s.re, dh.re, s.re, er);
    expint_two_sum(s.im, dh.im, s.im, ei);
    sl.re += er + dl.re;
    sl.im += ei + dl.im;
    if (::fabs(dh.re) + ::fabs(dh.im) <= 1e-17 * (::fabs(s.re) + ::fabs(s.im))) break;
  }
}

// a b with C99 Annex G's recovery of infinities (the C standard's
// _Cmulcd, G.5.1): where both parts of the plain product are NaN and a
// factor is infinite, the infinities are kept (inf (1 + 0i) is not NaN).
__device__ inline cexpint_t expint_mul_annex_g(cexpint_t a, cexpint_t b) {
  const double ac = a.re * b.re, bd = a.im * b.im, ad = a.re * b.im, bc = a.im * b.re;
  double x = ac - bd, y = ad + bc;
  if (is_nan(x) && is_nan(y)) {
    bool recalc = false;
    if (is_inf(a.re) || is_inf(a.im)) {
      a.re = ::copysign(is_inf(a.re) ? 1.0 : 0.0, a.re);
      a.im = ::copysign(is_inf(a.im) ? 1.0 : 0.0, a.im);
      if (is_nan(b.re)) b.re = ::copysign(0.0, b.re);
      if (is_nan(b.im)) b.im = ::copysign(0.0, b.im);
      recalc = true;
    }
    if (is_inf(b.re) || is_inf(b.im)) {
      b.re = ::copysign(is_inf(b.re) ? 1.0 : 0.0, b.re);
      b.im = ::copysign(is_inf(b.im) ? 1.0 : 0.0, b.im);
      if (is_nan(a.re)) a.re = ::copysign(0.0, a.re);
      if (is_nan(a.im)) a.im = ::copysign(0.0, a.im);
      recalc = true;
    }
    if (recalc) {
      x = inf() * (a.re * b.re - a.im * b.im);
      y = inf() * (a.re * b.im + a.im * b.re);
    }
  }
  return cexpint_t(x, y);
}

// Log z, exact in its real part down to the smallest subnormal parts
// (|z| of a subnormal z is itself rounded to the subnormal grid).
__device__ inline cexpint_t expint_log(const cexpint_t& z) {
  const double m = ::fmax(::fabs(z.re), ::fabs(z.im));
  if (m < 1e-290) {
    // 2^600 z is normal; ln 2^600 as a sum exact to double-double.
    const cexpint_t w(::ldexp(z.re, 600), ::ldexp(z.im, 600));
    return cexpint_t((::log(cuprum::abs(w)) - 415.88830833596717) - 1.8355172981578424e-14,
                     ::atan2(z.im, z.re));
  }
  return cuprum::log(z);
}

// E1(z) for finite z != 0 (see above).
__device__ __noinline__ cexpint_t e1_complex(cexpint_t z) {
  const double x = z.re, y = z.im;
  const double r = cuprum::abs(z);
  if (r >= 45.0) {
    // DLMF 6.12.1, sum_{k<n} (-1)^k k!/z^k by Horner's rule (summed
    // forward, the n roundings against the leading 1 cost 3 epsilons),
    // n the first k with k!/|z|^k < 1e-17 (the terms fall while k < |z|,
    // so n <= 45).
    const cexpint_t q = 1.0 / z;
    int n = 1;
    for (double t = 1.0; n < 60; ++n) {
      t *= n / r;
      if (t < 1e-17) break;
    }
    cexpint_t h(1.0, 0.0);
    for (int k = n; k >= 1; --k) h = 1.0 - (double)k * (h * q);
    // e^{-z}/z = e^{-x} e^{-iy} q. Beyond |x| = 700 each part as
    // e^{-x/2} ((e^{-x/2}/|z|) u), u = e^{-iy} conj(z)/|z|, which over-
    // or underflows only where it does. Where E1 overflows, SciPy's
    // special values are those of e^{-z} (infinite parts) times the
    // finite rest in C99 Annex G complex arithmetic: so computed there
    // (E1(-800 + 0i) = -inf + NaN i, E1(-1e300 + i) = -inf + inf i,
    // E1(-1e300 + 1e300 i) = inf + NaN i).
    double sn, cs;
    ::sincos(y, &sn, &cs);
    cexpint_t e;
    if (::fabs(x) < 700.0) {
      const cexpint_t u = cexpint_t(cs, -sn) * (h * q);
      const double g = ::exp(-x);
      e = cexpint_t(g * u.re, g * u.im);
    } else {
      const cexpint_t u = cexpint_t(cs, -sn) * (h * cexpint_t(x / r, -y / r));
      const double g = ::exp(-0.5 * x), gr = g / r;
      e = cexpint_t(g * (gr * u.re), g * (gr * u.im));
      if (is_inf(e.re) || is_inf(e.im)) {
        const double big = ::exp(-x);  // inf
        e = expint_mul_annex_g(cexpint_t(big * cs, -(big * sn)), h * q);
      }
    }
    if (y == 0.0 && x < 0.0) e.im -= ::copysign(PI, y);  // DLMF 6.2.7 on the cut
    return e;
  }
  if (r + x <= 1.5) {
    // Log z's argument is +-pi on the cut, by the sign of y.
    cexpint_t p, pl;
    expint_series(-z, p, pl);
    const cexpint_t l = expint_log(z);
    return cexpint_t(((-p.re - l.re) - EULER) - pl.re, (-p.im - l.im) - pl.im);
  }
  const int depth = 24 + (int)(260.0 / (r + x));
  cexpint_t t(0.0, 0.0);
  for (int i = depth; i > 0; --i) t = -(double)i * (double)i / (z + (2.0 * i + 1.0) + t);
  return cuprum::exp(-z) / (z + 1.0 + t);
}

// Log z with SciPy's side of the cut on the negative real axis for the
// cosine integrals: the sign of a zero imaginary part picks the side
// below |z| = 0.8 (SciPy's power series takes log(z)); from 0.8 on SciPy
// adds +i pi for both signs of zero.
__device__ inline cexpint_t expint_log_cut(const cexpint_t& z, double r) {
  cexpint_t l = expint_log(z);
  if (z.im == 0.0 && z.re < 0.0 && r >= 0.8) l.im = PI;
  return l;
}

// s = sum_{k>=0} g^k z^{2k+1} / ((2k+1) (2k+1)!) and
// c = sum_{k>=1} g^k z^{2k} / (2k (2k)!): with g = -1 the series of Si and
// Ci - gamma - Log z (DLMF 6.6.5, 6.6.6), with g = 1 those of Shi and
// Chi - gamma - Log z (their analogues, from DLMF 6.2.15-6.2.16).
__device__ inline void expint_sc_series(const cexpint_t& z, double g, cexpint_t& s,
                                        cexpint_t& c) {
  cexpint_t z2 = z * z * g;
  cexpint_t ts = z, tc(1.0, 0.0);
  s = z;
  c = cexpint_t(0.0, 0.0);
  for (int k = 1; k < 40; ++k) {
    const double a = 2.0 * k;
    tc = tc * z2 / ((a - 1.0) * a);
    cexpint_t dc = tc / a;
    c += dc;
    ts = ts * z2 / (a * (a + 1.0));
    cexpint_t ds = ts / (a + 1.0);
    s += ds;
    if (::fabs(ds.re) + ::fabs(ds.im) <= 1e-17 * (::fabs(s.re) + ::fabs(s.im)) &&
        ::fabs(dc.re) + ::fabs(dc.im) <= 1e-17 * (::fabs(c.re) + ::fabs(c.im)))
      break;
  }
}

// The real zeros of Ei, Chi and Ci nearest the origin, as double-double
// (tools/coefficients_expint.py).
constexpr double EI_ZERO = 0.3725074107813666, EI_ZERO_LO = 1.3140183414386028e-17;
constexpr double CHI_ZERO = 0.5238225713898644, CHI_ZERO_LO = -2.6671382575502846e-17;
constexpr double CI_ZERO = 0.6165054856207163, CI_ZERO_LO = -4.209920321433186e-17;

// Ei(z) for |z - x0| <= 0.18 around Ei's zero x0: as Ei(x0) = 0,
// Ei(z) = Log(z/x0) + sum_k (z^k - x0^k)/(k k!) (DLMF 6.6.1), the
// logarithm as log1p((z - x0)/x0) and each difference as (z - x0) D_k,
// D_k = (z^k - x0^k)/(z - x0) = z D_{k-1} + x0^{k-1}: every part is
// proportional to z - x0, so Ei keeps its relative accuracy at the zero
// (gamma + Log z + sum cancel to |z - x0| there).
__device__ inline cexpint_t ei_near_zero(const cexpint_t& z) {
  const cexpint_t w((z.re - EI_ZERO) - EI_ZERO_LO, z.im);
  cexpint_t d(1.0, 0.0), q(1.0, 0.0);
  double xp = 1.0, f = 1.0;
  for (int k = 2; k < 30; ++k) {
    xp *= EI_ZERO;
    f *= k;
    d = z * d + xp;
    const cexpint_t t = d / (k * f);
    q += t;
    if (::fabs(t.re) + ::fabs(t.im) <= 1e-17 * (::fabs(q.re) + ::fabs(q.im))) break;
  }
  return cuprum::log1p(w / EI_ZERO) + w * q;
}

// The same for Chi (g = 1) and Ci (g = -1) within 0.25 of their zeros
// x0: f(z) = Log(z/x0) + sum_k g^k (z^2k - x0^2k)/(2k (2k)!) (DLMF 6.6.6
// and its analogue), the differences as (z - x0)(z + x0) D_k with
// D_k = (u^k - v^k)/(u - v) = u D_{k-1} + v^{k-1}, u = z^2, v = x0^2.
__device__ inline cexpint_t cosint_near_zero(const cexpint_t& z, double g, double x0, double x0_lo) {
  const cexpint_t w((z.re - x0) - x0_lo, z.im);
  const cexpint_t u = z * z;
  const double v = x0 * x0;
  cexpint_t d(1.0, 0.0), q(0.25 * g, 0.0);
  double vp = 1.0, f = 2.0, gk = g;
  for (int k = 2; k < 30; ++k) {
    vp *= v;
    f *= (2.0 * k - 1.0) * (2.0 * k);
    gk *= g;
    d = u * d + vp;
    const cexpint_t t = d * (gk / (2.0 * k * f));
    q += t;
    if (::fabs(t.re) + ::fabs(t.im) <= 1e-17 * (::fabs(q.re) + ::fabs(q.im))) break;
  }
  return cuprum::log1p(w / x0) + w * cexpint_t(z.re + x0, z.im) * q;
}

__device__ inline bool expint_finite(const cexpint_t& z) {
  return ::fabs(z.re) < inf() && ::fabs(z.im) < inf();
}

}  // namespace detail

// scipy.special.exp1 on complex z: E1(z) on its principal branch (see
// above); inf at 0; NaN at every infinite or NaN part (as SciPy).
__device__ inline cuprum::complex<double> exp1(const cuprum::complex<double>& z) {
  if (!detail::expint_finite(z)) return cuprum::complex<double>(detail::nan(), detail::nan());
  if (z.re == 0.0 && z.im == 0.0) return cuprum::complex<double>(detail::inf(), 0.0);
  return detail::e1_complex(z);
}
__device__ inline cuprum::complex<float> exp1(const cuprum::complex<float>& z) {
  return cuprum::complex<float>(exp1(cuprum::complex<double>(z)));
}

// scipy.special.expi on complex z: Ei(z) = -E1(-z) + i pi sign(Im z)
// (DLMF 6.2.7 continued off the axis), real on the real axis (Ei(x) for
// x > 0 and -E1(-x) for x < 0, whatever the sign of the zero imaginary
// part, as SciPy); -inf at 0, NaN at infinite or NaN parts. Where E1(-z)
// would take its series the series DLMF 6.6.1, gamma + Log z + sum
// z^k/(k k!), is summed directly (no i pi to cancel near Ei's zero
// 0.3725).
__device__ inline cuprum::complex<double> expi(const cuprum::complex<double>& z) {
  typedef cuprum::complex<double> C;
  if (!detail::expint_finite(z)) return C(detail::nan(), detail::nan());
  if (z.re == 0.0 && z.im == 0.0) return C(-detail::inf(), -0.0);
  const double r = cuprum::abs(z);
  if (::fabs(z.re - detail::EI_ZERO) <= 0.18 && ::fabs(z.im) <= 0.18 &&
      cuprum::abs(C(z.re - detail::EI_ZERO, z.im)) <= 0.18)
    return detail::ei_near_zero(z);
  if (r < 45.0 && r - z.re <= 1.5) {
    C l = detail::expint_log(z);
    if (z.im == 0.0) l.im = 0.0;
    C p, pl;
    detail::expint_series(z, p, pl);
    return C(((p.re + l.re) + detail::EULER) + pl.re, (p.im + l.im) + pl.im);
  }
  C e = -detail::e1_complex(-z);
  if (z.im != 0.0) e.im += ::copysign(detail::PI, z.im);
  else if (e.im == e.im) e.im = z.re < 0.0 ? -0.0 : 0.0;  // NaN where Ei overflows, as SciPy
  return e;
}
__device__ inline cuprum::complex<float> expi(const cuprum::complex<float>& z) {
  return cuprum::complex<float>(expi(cuprum::complex<double>(z)));
}

// scipy.special.sici on complex z: Si(z) (entire, odd) and Ci(z) (cut
// along the negative real axis). The series DLMF 6.6.5-6.6.6 for
// |z| <= 2; beyond, for Re z >= 0, DLMF 6.5.5-6.5.6:
// Si = pi/2 + (E1(iz) - E1(-iz))/(2i), Ci = -(E1(iz) + E1(-iz))/2, and
// for Re z < 0 Si(z) = -Si(-z), Ci(z) = Ci(-z) + i pi sign(Im z) (DLMF
// 6.4.4). On the negative real axis Ci takes +i pi from |z| = 0.8 on
// for both signs of a zero imaginary part, and below 0.8 the side the
// sign picks, as SciPy; Ci(0) = -inf + NaN i; Si(+-inf) = +-pi/2 with
// Ci(inf) = 0, Ci(-inf) = i pi; NaN at every other infinite or NaN part.
__device__ __noinline__ void sici(const cuprum::complex<double>& z, cuprum::complex<double>& si,
                                  cuprum::complex<double>& ci) {
  typedef cuprum::complex<double> C;
  const double nan = detail::nan(), inf = detail::inf();
  if (!detail::expint_finite(z)) {
    if (detail::is_inf(z.re) && z.im == 0.0) {
      si = C(z.re > 0.0 ? detail::PI / 2 : -detail::PI / 2, 0.0);
      ci = C(0.0, z.re > 0.0 ? 0.0 : detail::PI);
    } else {
      si = C(nan, nan);
      ci = C(nan, nan);
    }
    return;
  }
  if (z.re == 0.0 && z.im == 0.0) {
    si = z;
    ci = C(-inf, nan);
    return;
  }
  const double r = cuprum::abs(z);
  if (r <= 2.0) {
    C c;
    detail::expint_sc_series(z, -1.0, si, c);
    if (cuprum::abs(C(z.re - detail::CI_ZERO, z.im)) <= 0.25) {
      ci = detail::cosint_near_zero(z, -1.0, detail::CI_ZERO, detail::CI_ZERO_LO);
    } else {
      ci = detail::expint_log_cut(z, r) + c;
      ci.re += detail::EULER;
    }
    return;
  }
  // Re z >= +0 (a zero real part taken as +0, so that iz = -y + 0i lies
  // on the upper side of E1's cut for y > 0).
  const bool left = z.re < 0.0;
  const C w(left ? -z.re : z.re + 0.0, left ? -z.im : z.im);
  const C a = detail::e1_complex(C(-w.im, w.re));
  const C b = detail::e1_complex(C(w.im, -w.re));
  const C d = a - b;
  C s(detail::PI / 2 + 0.5 * d.im, -0.5 * d.re);
  C c(-0.5 * (a.re + b.re), -0.5 * (a.im + b.im));
  if (left) {
    s = -s;
    c.im += z.im < 0.0 ? -detail::PI : detail::PI;
  }
  si = s;
  ci = c;
}
__device__ inline void sici(const cuprum::complex<float>& z, cuprum::complex<float>& si,
                            cuprum::complex<float>& ci) {
  cuprum::complex<double> s, c;
  sici(cuprum::complex<double>(z), s, c);
  si = cuprum::complex<float>(s);
  ci = cuprum::complex<float>(c);
}

// scipy.special.shichi on complex z: Shi(z) (entire, odd) and Chi(z) (cut
// along the negative real axis). The series (DLMF 6.6.5-6.6.6 with z^2
// for -z^2, the expansions of DLMF 6.2.15-6.2.16) for |z| <= 2; beyond,
// for Re z >= 0, Shi = (E1(z) - E1(-z))/2 + i pi/2 s and
// Chi = -(E1(z) + E1(-z))/2 + i pi/2 s, s = the sign of Im z (of a zero
// too, which also picks the side of E1(-z)'s cut; DLMF 6.2.15-6.2.16 with
// 6.2.7), and for Re z < 0 Shi(z) = -Shi(-z), Chi(z) = Chi(-z) + i pi
// sign(Im z), with SciPy's sides on the negative real axis as for Ci;
// Chi(0) = -inf + NaN i; Shi(+-inf) = +-inf, Chi(+-inf) = inf; NaN at
// every other infinite or NaN part.
__device__ __noinline__ void shichi(const cuprum::complex<double>& z, cuprum::complex<double>& shi,
                                    cuprum::complex<double>& chi) {
  typedef cuprum::complex<double> C;
  const double nan = detail::nan(), inf = detail::inf();
  if (!detail::expint_finite(z)) {
    if (detail::is_inf(z.re) && z.im == 0.0) {
      shi = C(z.re, 0.0);
      chi = C(inf, 0.0);
    } else {
      shi = C(nan, nan);
      chi = C(nan, nan);
    }
    return;
  }
  if (z.re == 0.0 && z.im == 0.0) {
    shi = z;
    chi = C(-inf, nan);
    return;
  }
  const double r = cuprum::abs(z);
  if (r <= 2.0) {
    C c;
    detail::expint_sc_series(z, 1.0, shi, c);
    if (cuprum::abs(C(z.re - detail::CHI_ZERO, z.im)) <= 0.25) {
      chi = detail::cosint_near_zero(z, 1.0, detail::CHI_ZERO, detail::CHI_ZERO_LO);
    } else {
      chi = detail::expint_log_cut(z, r) + c;
      chi.re += detail::EULER;
    }
    return;
  }
  const bool left = z.re < 0.0;
  const C w(left ? -z.re : z.re + 0.0, left ? -z.im : z.im);
  const C a = detail::e1_complex(w);
  const C b = detail::e1_complex(-w);
  const double h = cuprum::signbit(w.im) ? -detail::PI / 2 : detail::PI / 2;
  C s(0.5 * (a.re - b.re), 0.5 * (a.im - b.im) + h);
  C c(-0.5 * (a.re + b.re), -0.5 * (a.im + b.im) + h);
  if (left) {
    s = -s;
    c.im += z.im < 0.0 ? -detail::PI : detail::PI;
  }
  shi = s;
  chi = c;
}
__device__ inline void shichi(const cuprum::complex<float>& z, cuprum::complex<float>& shi,
                              cuprum::complex<float>& chi) {
  cuprum::complex<double> s, c;
  shichi(cuprum::complex<double>(z), s, c);
  shi = cuprum::complex<float>(s);
  chi = cuprum::complex<float>(c);
}

}  // namespace special
}  // namespace cuprum
