// scipy.special's parameter inverses of the distribution functions
// (namespace cuprum::special); see the table rows in
// crates/gpu-special/src/table/cdfinv.rs.
//
// Each solves a distribution function of incgamma.cuh or incbeta.cuh for
// one of its parameters: gdtria (the gamma rate, in closed form), gdtrib
// (the gamma shape), chdtriv (the chi-square degrees of freedom), pdtrik
// (the Poisson count), bdtrik / bdtrin (the binomial count and trials),
// nbdtrik / nbdtrin (the negative binomial count and successes), stdtridf
// (Student's t degrees of freedom) and fdtridfd (the F denominator degrees
// of freedom). The count parameters are continuous, as in CDFLIB (Brown,
// Lovato and Russell, "DCDFLIB: Library of C Routines for Cumulative
// Distribution Functions, Inverses, and Other Parameters", 1994): the
// distributions are the incomplete gamma and beta functions of DLMF 8.4.10
// (Poisson), 8.17.5 (binomial) and 8.17 (negative binomial, F, t).
//
// The search follows CDFLIB's approach (a monotone residual, solved from
// the smaller of p and q = 1 - p, bracketed from a starting point outward,
// then refined), with its own pieces: the bracket grows by squaring step
// factors (2, 4, 16, 256, ...), is narrowed by geometric bisection to a
// ratio of 4, and is finished by Brent's zeroin (R. P. Brent, "Algorithms
// for Minimization without Derivatives", 1973, ch. 4) to full double
// precision, with at most 200 function evaluations in all. Where the
// residual keeps one sign over the whole search range, SciPy's bound is
// returned (CDFLIB's status 1 / 2, which SciPy's wrappers pass on), so the
// ends are SciPy's: 0, 1e-100, 1e10, 1e100 or -1e100 as each function's (the
// gamma-based searches run up to the largest double, inf beyond).
#pragma once

#include "cuprum/special/common.cuh"
#include "cuprum/special/incgamma.cuh"
#include "cuprum/special/incbeta.cuh"

// A float overload of the three-argument double function `name`:
// evaluated in double, rounded once (as common.cuh's F1 and F2).
#define CUPRUM_SPECIAL_CDFINV_F3(name)                                 \
  __device__ __forceinline__ float name(float a, float b, float c) { \
    return (float)name((double)a, (double)b, (double)c);             \
  }

namespace cuprum {
namespace special {
namespace detail {

// The outcome of cdf_root: a root, or that the residual has one sign over
// [lo, hi] (the root lies below lo or above hi), or a NaN residual.
enum CdfRootStatus { CDF_ROOT = 0, CDF_BELOW = 1, CDF_ABOVE = 2, CDF_NAN = 3 };

// The upper end of the gamma-based searches (gdtrib, chdtriv, pdtrik):
// SciPy's find roots up to the largest double, and answer inf beyond.
constexpr double CDF_MAX = 1.7976931348623157e308;

// A root of g on [lo, hi] (0 <= lo < hi, both finite), searched outward
// from x0 in [lo, hi]. g is taken as monotone, rising where g(hi) > g(lo)
// and falling otherwise (CDFLIB's rule, so that a residual constant in
// double over the range is answered as CDFLIB answers it: "below" where
// g(lo) is already past 0, "above" where g(hi) has not reached it, x0
// where g(x0) = 0).
template <class G>
__device__ int cdf_root(const G& g, double lo, double hi, double x0, double& root) {
  const double eps = 2.220446049250313e-16;
  const double tiny = 1e-300;
  double g_lo = g(lo), g_hi = g(hi);
  if (is_nan(g_lo) || is_nan(g_hi)) return CDF_NAN;
  bool rising = g_hi > g_lo;
  if (rising ? g_lo > 0 : g_lo < 0) return CDF_BELOW;
  if (rising ? g_hi < 0 : g_hi > 0) return CDF_ABOVE;
  // h = sg g rises, h(lo) <= 0 <= h(hi).
  const double sg = rising ? 1.0 : -1.0;
  double a = x0, fa = sg * g(a), b, fb;
  int evals = 3;
  if (is_nan(fa)) return CDF_NAN;
  if (fa == 0) {
    root = a;
    return CDF_ROOT;
  }
  // The bracket: steps of factor 2, 4, 16, 256, ... outward from x0,
  // ending at lo or hi at the latest, where h's sign is known.
  double step = 2.0;
  if (fa < 0) {
    for (;;) {
      if (a < hi / step) {
        b = a * step;
        fb = sg * g(b);
        ++evals;
        if (is_nan(fb)) return CDF_NAN;
      } else {
        b = hi;
        fb = sg * g_hi;
      }
      if (fb >= 0) break;
      a = b;
      fa = fb;
      step = step < 1e16 ? step * step : 1e32;
    }
  } else {
    b = a;
    fb = fa;
    for (;;) {
      a = b / step;
      if (a > lo && a >= tiny) {
        fa = sg * g(a);
        ++evals;
        if (is_nan(fa)) return CDF_NAN;
      } else {
        a = lo;
        fa = sg * g_lo;
      }
      if (fa <= 0) break;
      b = a;
      fb = fa;
      step = step < 1e16 ? step * step : 1e32;
    }
  }
  if (fa == 0) {
    root = a;
    return CDF_ROOT;
  }
  if (fb == 0) {
    root = b;
    return CDF_ROOT;
  }
  // Geometric bisection to a bracket of ratio 4, so that zeroin starts on
  // a scale where linear interpolation means something.
  while (a > 0 && b > 4.0 * a && evals < 150) {
    double m = ::sqrt(a) * ::sqrt(b);
    double fm = sg * g(m);
    ++evals;
    if (is_nan(fm)) return CDF_NAN;
    if (fm == 0) {
      root = m;
      return CDF_ROOT;
    }
    if (fm < 0) {
      a = m;
      fa = fm;
    } else {
      b = m;
      fb = fm;
    }
  }
  // Brent's zeroin on [a, b] with fa < 0 < fb: b is the best estimate, c
  // the other end of the bracket, a the previous b.
  double c = a, fc = fa, d = b - a, e = d;
  for (; evals < 200; ++evals) {
    if ((fb > 0) == (fc > 0)) {
      c = a;
      fc = fa;
      d = b - a;
      e = d;
    }
    if (::fabs(fc) < ::fabs(fb)) {
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    double tol = 2.0 * eps * ::fabs(b) + tiny;
    double xm = 0.5 * (c - b);
    if (::fabs(xm) <= tol || fb == 0) break;
    if (::fabs(e) >= tol && ::fabs(fa) > ::fabs(fb)) {
      // Secant (a == c) or inverse quadratic interpolation.
      double s = fb / fa, p, q;
      if (a == c) {
        p = 2.0 * xm * s;
        q = 1.0 - s;
      } else {
        double qq = fa / fc, rr = fb / fc;
        p = s * (2.0 * xm * qq * (qq - rr) - (b - a) * (rr - 1.0));
        q = (qq - 1.0) * (rr - 1.0) * (s - 1.0);
      }
      if (p > 0) q = -q;
      p = ::fabs(p);
      double m1 = 3.0 * xm * q - ::fabs(tol * q), m2 = ::fabs(e * q);
      if (2.0 * p < (m1 < m2 ? m1 : m2)) {
        e = d;
        d = p / q;
      } else {
        d = xm;
        e = d;
      }
    } else {
      d = xm;
      e = d;
    }
    a = b;
    fa = fb;
    b += (::fabs(d) > tol) ? d : (xm > 0 ? tol : -tol);
    fb = sg * g(b);
    if (is_nan(fb)) return CDF_NAN;
  }
  root = b;
  return CDF_ROOT;
}

// The residuals, CDFLIB's: F(x) - p from the lower tail for p <= 1/2,
// Fc(x) - q from the upper tail above (Fc = 1 - F computed directly,
// q = 1 - p exact), so that the small tail is never lost to rounding.
__device__ inline double cdf_residual(double p, double q, double cum, double ccum) {
  return p <= 0.5 ? cum - p : ccum - q;
}
// P(c v, z) in v (gdtrib: c = 1, z = a x; chdtriv: c = 1/2, z = x / 2).
struct CdfGammaShape {
  double c, z, p, q;
  __device__ double operator()(double v) const {
    // P(s, 0) = 0 for every s >= 0 (CDFLIB's cumgam; a x may underflow).
    if (z == 0.0) return cdf_residual(p, q, 0.0, 1.0);
    return cdf_residual(p, q, gammainc(c * v, z), gammaincc(c * v, z));
  }
};
// The Poisson CDF Q(k + 1, m) in k (pdtrik).
struct CdfPoissonK {
  double m, p, q;
  __device__ double operator()(double k) const {
    return cdf_residual(p, q, gammaincc(k + 1.0, m), gammainc(k + 1.0, m));
  }
};
// The continuous binomial CDF 1 - I_pr(k + 1, n - k), 1 for k >= n, in k
// (bdtrik) or n (bdtrin, solve_n).
struct CdfBinom {
  double k, n, pr, p, q;
  int solve_n;
  __device__ double operator()(double x) const {
    double kk = solve_n ? k : x, nn = solve_n ? x : n;
    if (kk >= nn) return cdf_residual(p, q, 1.0, 0.0);
    return cdf_residual(p, q, betaincc(kk + 1.0, nn - kk, pr), betainc(kk + 1.0, nn - kk, pr));
  }
};
// The negative binomial CDF I_pr(n, k + 1) in k (nbdtrik) or n (nbdtrin,
// solve_n).
struct CdfNegBinom {
  double k, n, pr, p, q;
  int solve_n;
  __device__ double operator()(double x) const {
    double kk = solve_n ? k : x, nn = solve_n ? x : n;
    return cdf_residual(p, q, betainc(nn, kk + 1.0, pr), betaincc(nn, kk + 1.0, pr));
  }
};
// Student's t CDF at t in df (stdtridf).
struct CdfStudentDf {
  double t, p, q;
  __device__ double operator()(double df) const { return cdf_residual(p, q, stdtr(df, t), stdtr(df, -t)); }
};
// The F CDF at f in dfd (fdtridfd).
struct CdfFDfd {
  double dfn, f, p, q;
  __device__ double operator()(double dfd) const {
    return cdf_residual(p, q, fdtr(dfn, dfd, f), fdtrc(dfn, dfd, f));
  }
};

// A root of r on [lo, hi] from x0, or SciPy's bound: below_value where
// the root lies below lo, above_value where above hi, NaN where r is.
template <class R>
__device__ double cdf_solve(const R& r, double lo, double hi, double x0, double below_value, double above_value) {
  double root = 0;
  switch (cdf_root(r, lo, hi, x0, root)) {
    case CDF_ROOT:
      return root;
    case CDF_BELOW:
      return below_value;
    case CDF_ABOVE:
      return above_value;
    default:
      return nan();
  }
}

}  // namespace detail

// scipy.special.gdtria(p, b, x): the rate a with gdtr(a, b, x) = P(b, a x)
// = p, in closed form a = gammaincinv(b, p) / x (DLMF 8.2.4), as SciPy
// computes it: its special values are gammaincinv's, divided by x, with
// NaN at x = 0 and SciPy's values at b = p = 0 (+0, or NaN for
// x = +inf). x < 0 is not rejected (SciPy's is not either).
__device__ inline double gdtria(double p, double b, double x) {
  if (x == 0.0) return detail::nan();
  if (b == 0.0 && p == 0.0) return x == detail::inf() ? detail::nan() : 0.0;
  return gammaincinv(b, p) / x;
}
CUPRUM_SPECIAL_CDFINV_F3(gdtria)

// scipy.special.gdtrib(a, p, x): the shape b with gdtr(a, b, x) = p,
// P(b, a x) = p solved for b (decreasing in b); 0 at x = 0 or p = 1, inf
// at p = 0 (NaN at p = x = 0), NaN for a <= 0 or infinite, p outside
// [0, 1] or x < 0 or infinite.
__device__ inline double gdtrib(double a, double p, double x) {
  if (detail::is_nan(a) || detail::is_nan(p) || detail::is_nan(x)) return detail::nan();
  if (!(a > 0.0) || detail::is_inf(a) || !(p >= 0.0 && p <= 1.0) || x < 0.0 || detail::is_inf(x))
    return detail::nan();
  if (x == 0.0) return p == 0.0 ? detail::nan() : 0.0;
  if (p == 1.0) return 0.0;
  if (p == 0.0) return detail::inf();
  detail::CdfGammaShape r{1.0, a * x, p, 1.0 - p};
  return detail::cdf_solve(r, 0.0, detail::CDF_MAX, 5.0, 0.0, detail::inf());
}
CUPRUM_SPECIAL_CDFINV_F3(gdtrib)

// scipy.special.chdtriv(p, x): the degrees of freedom v with
// chdtr(v, x) = P(v / 2, x / 2) = p, solved for v (decreasing in v); 0 at
// p = 1, inf at p = 0 (also for x = inf, SciPy's), NaN for p outside
// [0, 1], x <= 0 (or x / 2 underflowing to 0) or infinite.
__device__ inline double chdtriv(double p, double x) {
  if (detail::is_nan(p) || detail::is_nan(x)) return detail::nan();
  if (!(p >= 0.0 && p <= 1.0) || !(x > 0.0)) return detail::nan();
  if (p == 1.0) return 0.0;
  if (p == 0.0) return detail::inf();
  if (detail::is_inf(x) || !(0.5 * x > 0.0)) return detail::nan();
  detail::CdfGammaShape r{0.5, 0.5 * x, p, 1.0 - p};
  return detail::cdf_solve(r, 0.0, detail::CDF_MAX, 5.0, 0.0, detail::inf());
}
CUPRUM_SPECIAL_F2(chdtriv)

// scipy.special.pdtrik(p, m): the (continuous) count k with
// pdtr(k, m) = Q(k + 1, m) = p (DLMF 8.4.10), increasing in k; 0 where
// the root would be negative (p <= e^-m, and at m = 0), NaN for p outside
// [0, 1), m < 0 or m = inf (0 there at p = 0, SciPy's).
__device__ inline double pdtrik(double p, double m) {
  if (detail::is_nan(p) || detail::is_nan(m)) return detail::nan();
  if (!(p >= 0.0 && p < 1.0) || m < 0.0) return detail::nan();
  if (p == 0.0) return 0.0;
  if (detail::is_inf(m)) return detail::nan();
  if (::exp(-m) >= p) return 0.0;
  detail::CdfPoissonK r{m, p, 1.0 - p};
  return detail::cdf_solve(r, 0.0, detail::CDF_MAX, 5.0, 0.0, detail::inf());
}
CUPRUM_SPECIAL_F2(pdtrik)

// scipy.special.bdtrik(p, n, pr): the (continuous) count k in [0, n] with
// bdtr(k, n, pr) = 1 - I_pr(k + 1, n - k) = p; 0 at p = 0, n at p = 1 or
// pr = 1, NaN for n <= 0 or infinite, pr outside (0, 1] or p outside
// [0, 1].
__device__ inline double bdtrik(double p, double n, double pr) {
  if (detail::is_nan(p) || detail::is_nan(n) || detail::is_nan(pr)) return detail::nan();
  // pr so small that 1 - pr rounds to 1 is NaN in SciPy (its CDFLIB
  // takes 1 - pr as an argument and rejects 1).
  if (!(n > 0.0) || detail::is_inf(n) || !(1.0 - pr < 1.0 && pr <= 1.0) || !(p >= 0.0 && p <= 1.0))
    return detail::nan();
  detail::CdfBinom r{0.0, n, pr, p, 1.0 - p, 0};
  return detail::cdf_solve(r, 0.0, n, 0.5 * n, 0.0, n);
}
CUPRUM_SPECIAL_CDFINV_F3(bdtrik)

// scipy.special.bdtrin(k, p, pr): the (continuous) number of trials n with
// bdtr(k, n, pr) = p, searched on [k, 1e100] (bdtr is 1 for n <= k);
// 1e100 for an infinite k, NaN for k < 0, p outside [0, 1] or pr outside
// (0, 1].
__device__ inline double bdtrin(double k, double p, double pr) {
  if (detail::is_nan(k) || detail::is_nan(p) || detail::is_nan(pr)) return detail::nan();
  if (!(k >= 0.0) || !(1.0 - pr < 1.0 && pr <= 1.0) || !(p >= 0.0 && p <= 1.0)) return detail::nan();
  if (detail::is_inf(k)) return 1e100;
  detail::CdfBinom r{k, 0.0, pr, p, 1.0 - p, 1};
  return detail::cdf_solve(r, 1e-100, 1e100, 5.0, 1e-100, 1e100);
}
CUPRUM_SPECIAL_CDFINV_F3(bdtrin)

// scipy.special.nbdtrik(p, n, pr): the (continuous) count of failures k
// with nbdtr(k, n, pr) = I_pr(n, k + 1) = p; 0 at p = 0 or pr = 0, 1e100
// (SciPy's bound) at n = 0 or pr = 1, NaN for p outside [0, 1), n < 0 or
// infinite, pr outside [0, 1].
__device__ inline double nbdtrik(double p, double n, double pr) {
  if (detail::is_nan(p) || detail::is_nan(n) || detail::is_nan(pr)) return detail::nan();
  if (!(p >= 0.0 && p < 1.0) || !(n >= 0.0) || detail::is_inf(n) || !(pr >= 0.0 && pr <= 1.0))
    return detail::nan();
  detail::CdfNegBinom r{0.0, n, pr, p, 1.0 - p, 0};
  return detail::cdf_solve(r, 0.0, 1e100, 5.0, 0.0, 1e100);
}
CUPRUM_SPECIAL_CDFINV_F3(nbdtrik)

// scipy.special.nbdtrin(k, p, pr): the (continuous) number of successes n
// with nbdtr(k, n, pr) = I_pr(n, k + 1) = p; 0 at pr = 0, 1e100 (SciPy's
// bound) at pr = 1 or an infinite k, NaN for k < 0, p outside [0, 1) or
// pr outside [0, 1].
__device__ inline double nbdtrin(double k, double p, double pr) {
  if (detail::is_nan(k) || detail::is_nan(p) || detail::is_nan(pr)) return detail::nan();
  if (!(k >= 0.0) || !(p >= 0.0 && p < 1.0) || !(pr >= 0.0 && pr <= 1.0)) return detail::nan();
  detail::CdfNegBinom r{k, 0.0, pr, p, 1.0 - p, 1};
  return detail::cdf_solve(r, 0.0, 1e100, 5.0, 0.0, 1e100);
}
CUPRUM_SPECIAL_CDFINV_F3(nbdtrin)

// scipy.special.stdtridf(p, t): the degrees of freedom df with
// stdtr(df, t) = p, searched on [1e-100, 1e10] as SciPy's CDFLIB; SciPy's
// bounds where there is none: 1e10 where the root would lie above (p
// beyond ndtr(t), or t = 0), -1e100 where below (p on the wrong side of
// 1/2 for t, or t infinite); NaN for p outside [0, 1].
__device__ inline double stdtridf(double p, double t) {
  if (detail::is_nan(p) || detail::is_nan(t)) return detail::nan();
  if (!(p >= 0.0 && p <= 1.0)) return detail::nan();
  detail::CdfStudentDf r{t, p, 1.0 - p};
  return detail::cdf_solve(r, 1e-100, 1e10, 5.0, -1e100, 1e10);
}
CUPRUM_SPECIAL_F2(stdtridf)

// scipy.special.fdtridfd(dfn, p, f): the denominator degrees of freedom
// dfd with fdtr(dfn, dfd, f) = p, searched on [1e-100, 1e100] as SciPy's
// CDFLIB; SciPy's bounds where there is no root; 1e-100 at f = 0, 1e100
// for an infinite f or dfn, NaN for dfn <= 0, f < 0 or p outside [0, 1).
__device__ inline double fdtridfd(double dfn, double p, double f) {
  if (detail::is_nan(dfn) || detail::is_nan(p) || detail::is_nan(f)) return detail::nan();
  if (!(dfn > 0.0) || f < 0.0 || !(p >= 0.0 && p < 1.0)) return detail::nan();
  // An infinite dfn: SciPy's values, those of a CDF 0 at f = 0 and 1
  // above (x0 = 5 where the residual is 0 throughout).
  if (detail::is_inf(dfn)) return f > 0.0 ? 1e100 : p == 0.0 ? 5.0 : 1e-100;
  detail::CdfFDfd r{dfn, f, p, 1.0 - p};
  // fdtr is not monotone in dfd: it rises from 0 and may pass a maximum
  // before its limit chdtr(dfn, dfn f). cdf_root decides from the ends
  // of the range as CDFLIB does (no root where fdtr at 1e100 stays below
  // p, whatever lies between); otherwise the rise crosses p once.
  return detail::cdf_solve(r, 1e-100, 1e100, 5.0, 1e-100, 1e100);
}
CUPRUM_SPECIAL_CDFINV_F3(fdtridfd)

}  // namespace special
}  // namespace cuprum
