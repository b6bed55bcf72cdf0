// Samplers of the non-uniform distributions, one output element from its
// own Stream (philox.cuh, which this header follows in the same program).
//
// The algorithms are published ones, with NumPy's Generator's parameter
// conventions and switch points (BTRS and the gamma boost stand in for
// NumPy's BTPE and its shape < 1 rejection); the arithmetic is rearranged
// so that extreme but valid parameters neither hang a rejection loop nor
// lose the answer:
// - every integer result is proposed as mode + floor(offset), so that
//   means above 2^53 still reach every integer;
// - log-probability ratios are differences of log-factorials of integers
//   a - b apart, taken as (b + 1/2) log1p((a - b)/b) + ... (Loader 2000)
//   instead of lgamma(a + 1) - lgamma(b + 1), which cancels to nothing
//   at 1e18;
// - a proposal is range-checked as a double before its integer cast.
// Parameters are validated on the host; the comments state the ranges.
#pragma once

namespace cuprum_random {

// 2^63 - 1, and NumPy's largest Poisson mean, 2^63 - 10 sqrt(2^63): past
// it a draw would not fit in an int64.
#define CUPRUM_RANDOM_I64_MAX 0x7fffffffffffffffLL
#define CUPRUM_RANDOM_POISSON_LAM_MAX 9.2233720064847708e18

// ---- Log-factorial helpers (Loader, "Fast and accurate computation of
// binomial probabilities", 2000).

// stirlerr(n) = log(n!) - [(n + 1/2) log n - n + log sqrt(2 pi)], n >= 1
// an integer: the Stirling series (DLMF 5.11.1) from 16 on, where its
// first omitted term is under 1e-17; lgamma below.
__device__ inline double stirlerr(double n) {
  if (n < 16.0) return lgamma(n + 1.0) - (n + 0.5) * log(n) + n - 0.91893853320467274;
  const double nn = 1.0 / (n * n);
  return (1.0 / 12.0 -
          nn * (1.0 / 360.0 - nn * (1.0 / 1260.0 - nn * (1.0 / 1680.0 - nn * (1.0 / 1188.0))))) /
         n;
}

// log(a!) - log(b!) for integers a, b >= 0. When both are large it is
// (b + 1/2) log(a/b) + (a - b)(log a - 1) + stirlerr(a) - stirlerr(b),
// with a - b exact: its error is a few ulps of (a - b) log a, not of
// a log a.
__device__ inline double log_factorial_ratio(long long a, long long b) {
  if (a == b) return 0.0;
  if (a < 16 || b < 16) return lgamma((double)a + 1.0) - lgamma((double)b + 1.0);
  const double da = (double)a, db = (double)b, d = (double)(a - b);
  return (db + 0.5) * log1p(d / db) + d * (log(da) - 1.0) + stirlerr(da) - stirlerr(db);
}

// bd0(x, m) = x log(x/m) + m - x >= 0 without cancellation: near x = m
// as the series 2 x sum v^(2j+1)/(2j+1), v = (x - m)/(x + m), |v| < 1/11.
__device__ inline double bd0(double x, double m) {
  if (fabs(x - m) < 0.1 * (x + m)) {
    double v = (x - m) / (x + m);
    double s = (x - m) * v;
    double ej = 2.0 * x * v;
    v = v * v;
    for (int j = 1; j < 40; ++j) {  // v^2 < 1/121: 8 terms reach 2^-53
      ej *= v;
      const double s1 = s + ej / (double)(2 * j + 1);
      if (s1 == s) break;
      s = s1;
    }
    return s;
  }
  return x * log(x / m) + m - x;
}

// log of the Poisson(lam) probability of k: -lam at 0, else
// -log sqrt(2 pi k) - stirlerr(k) - bd0(k, lam) (Loader 2000).
__device__ inline double poisson_log_pmf(long long k, double lam) {
  if (k == 0) return -lam;
  const double dk = (double)k;
  return -0.5 * log(6.283185307179586 * dk) - stirlerr(dk) - bd0(dk, lam);
}

// An integer uniform on [0, max] by masked rejection (under two tries on
// average).
__device__ inline unsigned long long uniform_index(Stream& st, unsigned long long max) {
  if (max == 0) return 0;
  unsigned long long mask = max;
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  mask |= mask >> 16;
  mask |= mask >> 32;
  unsigned long long v;
  if (max <= 0xffffffffULL) {
    do {
      v = st.next_u32() & mask;
    } while (v > max);
  } else {
    do {
      v = st.next_u64() & mask;
    } while (v > max);
  }
  return v;
}

// ---- Continuous distributions.

// Marsaglia and Tsang, "A simple method for generating gamma variables"
// (2000), for shape >= 1. 1 - v + log v is taken as
// 3 log1p(t) - t (3 + 3t + t^2), t = c x, which keeps its ~t^2 size
// accurate when the shape is large (c small).
__device__ __noinline__ double gamma_mt(Stream& st, double shape) {
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / sqrt(9.0 * d);
  for (;;) {
    double x, t;
    do {
      x = st.normal();
      t = c * x;
    } while (t <= -1.0);
    const double v = (1.0 + t) * (1.0 + t) * (1.0 + t);
    const double u = st.uniform();
    const double x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2) return d * v;
    if (log(u) < 0.5 * x2 + d * (3.0 * log1p(t) - t * (3.0 + t * (3.0 + t)))) return d * v;
  }
}

// Standard gamma: shape 1 is the exponential; below 1, Marsaglia and
// Tsang's boost G(a) = G(a + 1) U^(1/a) (2000, section 7), which
// underflows to 0 exactly where the variate is below the doubles.
__device__ __noinline__ double standard_gamma(Stream& st, double shape) {
  if (shape == 1.0) return st.exponential();
  if (shape > 1.0) return gamma_mt(st, shape);
  if (shape == 0.0) return 0.0;
  const double g = gamma_mt(st, shape + 1.0);
  return g * pow(st.uniform_open(), 1.0 / shape);
}

// log of a standard gamma variate, finite where the variate itself would
// underflow (shape < 1): log G(a + 1) + log(U) / a.
__device__ inline double log_standard_gamma(Stream& st, double shape) {
  if (shape >= 1.0) return log(gamma_mt(st, shape));
  const double g = gamma_mt(st, shape + 1.0);
  return log(g) + log(st.uniform_open()) / shape;
}

// Beta(a, b). Both <= 1: Johnk's algorithm (Johnk 1964; Devroye 1986,
// IX.3.5), accept X = U^(1/a), Y = V^(1/b) when X + Y <= 1 (probability
// >= 1/2), kept in logarithms so that tiny a, b return X/(X + Y) =
// 1/(1 + e^(log Y - log X)) instead of 0/0. Otherwise Ga/(Ga + Gb)
// (Devroye 1986, IX.4.1), in logarithms when one shape is below 1.
__device__ __noinline__ double beta(Stream& st, double a, double b) {
  if (a <= 1.0 && b <= 1.0) {
    for (;;) {
      const double lu = log(st.uniform_open()), lv = log(st.uniform_open());
      const double lx = lu / a, ly = lv / b;  // may be -inf
      // d = ly - lx, with no inf - inf: factor out the larger 1/shape.
      const double d = a >= b ? (lv * (a / b) - lu) / a : (lv - lu * (b / a)) / b;
      const double m = lx > ly ? lx : ly;
      if (m < -1.7976931348623157e308 || m + log1p(exp(-fabs(d))) <= 0.0) {
        return 1.0 / (1.0 + exp(d));
      }
    }
  }
  if (a >= 1.0 && b >= 1.0) {
    const double ga = gamma_mt(st, a);
    const double gb = gamma_mt(st, b);
    return ga / (ga + gb);
  }
  const double la = log_standard_gamma(st, a);
  const double lb = log_standard_gamma(st, b);
  return 1.0 / (1.0 + exp(lb - la));
}

// Chi-square(df) = 2 G(df/2).
__device__ inline double chisquare(Stream& st, double df) {
  return 2.0 * standard_gamma(st, 0.5 * df);
}

// A Poisson count as a double, for the mixtures: past POISSON_LAM_MAX
// (only reachable from nonc > 1.8e19) the count is lam + sqrt(lam) Z,
// whose skewness 1/sqrt(lam) < 4e-10 is invisible in a double.
__device__ long long poisson(Stream& st, double lam);
__device__ inline double poisson_count(Stream& st, double lam) {
  if (lam <= CUPRUM_RANDOM_POISSON_LAM_MAX) return (double)poisson(st, lam);
  return lam + sqrt(lam) * st.normal();
}

// Noncentral chi-square, as NumPy: nonc == 0 is the central one; df > 1
// is chi2(df - 1) + (Z + sqrt(nonc))^2; otherwise the Poisson mixture
// chi2(df + 2 N), N ~ Poisson(nonc/2) (Johnson, Kotz and Balakrishnan
// 1995, 29.1).
__device__ __noinline__ double noncentral_chisquare(Stream& st, double df, double nonc) {
  if (nonc == 0.0) return chisquare(st, df);
  if (df > 1.0) {
    const double chi2 = chisquare(st, df - 1.0);
    const double z = st.normal() + sqrt(nonc);
    return chi2 + z * z;
  }
  const double i = poisson_count(st, 0.5 * nonc);
  return chisquare(st, df + 2.0 * i);
}

// F = (X1/d1) / (X2/d2) with X the chi-squares, i.e. the ratio of
// G(d/2)/(d/2); in logarithms when a G may underflow (d < 2). log(d/2)
// is log d - log 2, finite even where d/2 underflows.
__device__ __noinline__ double f(Stream& st, double dfnum, double dfden) {
  const double ln2 = 0.6931471805599453;
  const double hn = 0.5 * dfnum, hd = 0.5 * dfden;
  if (hn >= 1.0 && hd >= 1.0) {
    const double num = gamma_mt(st, hn) / hn;
    return num / (gamma_mt(st, hd) / hd);
  }
  const double ln = log_standard_gamma(st, hn) - (log(dfnum) - ln2);
  return exp(ln - (log_standard_gamma(st, hd) - (log(dfden) - ln2)));
}

// Noncentral F: (noncentral chi2(d1, nonc)/d1) / (chi2(d2)/d2).
__device__ __noinline__ double noncentral_f(Stream& st, double dfnum, double dfden, double nonc) {
  const double num = noncentral_chisquare(st, dfnum, nonc) / dfnum;
  const double hd = 0.5 * dfden;
  if (hd >= 1.0) return num / (gamma_mt(st, hd) / hd);
  return exp(log(num) - (log_standard_gamma(st, hd) - (log(dfden) - 0.6931471805599453)));
}

// Student's t = Z sqrt(df/2) / sqrt(G(df/2)); below df = 2 the gamma is
// taken in logarithms, so tiny df gives the huge finite values it should
// rather than Z/0 (and +-inf, not 0 * inf, where df/2 underflows).
__device__ __noinline__ double standard_t(Stream& st, double df) {
  const double z = st.normal();
  const double h = 0.5 * df;
  if (h >= 1.0) return z * sqrt(h) / sqrt(gamma_mt(st, h));
  return z * exp(0.5 * ((log(df) - 0.6931471805599453) - log_standard_gamma(st, h)));
}

// Cauchy as the ratio of two independent standard normals (Devroye 1986,
// IX.2).
__device__ inline double standard_cauchy(Stream& st) {
  const double n = st.normal();
  return n / st.normal();
}

// von Mises(mu, kappa) on [-pi, pi): Best and Fisher, "Efficient
// simulation of the von Mises distribution" (1979). Its r, 1 - f and
// acos f are rewritten so that nothing cancels at either end of kappa:
//   tau = 1 + sqrt(1 + 4 kappa^2), rho = 2 kappa / (tau + sqrt(2 tau)),
//   r - 1 = (1 - rho)^2 / (2 rho), 1 - rho from tau - 2 kappa =
//   1 + 1/(tau - 1 + 2 kappa), and with z = cos(pi u) = 1 - 2 s^2 =
//   2 c^2 - 1 (s, c = sin, cos(pi u / 2)):
//   1 - f = (r - 1)(1 - z)/((r - 1) + (1 + z)), acos f = 2 asin sqrt((1 - f)/2).
// Below kappa = 1e-17 the density exp(kappa cos t) is flat to under half
// an ulp; above 1e16 it is the normal N(0, 1/kappa) to relative 1/kappa
// (the kappa t^4 / 24 term), so both ends are exact in doubles.
__device__ __noinline__ double vonmises(Stream& st, double mu, double kappa) {
  const double pi = 3.141592653589793, two_pi = 6.283185307179586;
  double theta;
  if (kappa < 1e-17) {
    theta = pi * (2.0 * st.uniform() - 1.0);
  } else if (kappa > 1e16) {
    theta = st.normal() / sqrt(kappa);
  } else {
    const double tau = 1.0 + hypot(1.0, 2.0 * kappa);
    const double sq = sqrt(2.0 * tau);
    const double rho = 2.0 * kappa / (tau + sq);
    const double one_m_rho = (1.0 + 1.0 / (tau - 1.0 + 2.0 * kappa) + sq) / (tau + sq);
    const double rm1 = one_m_rho * one_m_rho / (2.0 * rho);
    double omf;
    for (;;) {
      const double u = st.uniform();
      const double s = sinpi(0.5 * u), c = cospi(0.5 * u);
      omf = rm1 * (2.0 * s * s) / (rm1 + 2.0 * c * c);
      const double y = kappa * (rm1 + omf);  // kappa (r - f)
      const double v = st.uniform();
      // v == 0 is fine: y >= 0 accepts in the first test.
      if (y * (2.0 - y) - v >= 0.0 || log(y / v) + 1.0 - y >= 0.0) break;
    }
    theta = 2.0 * asin(sqrt(0.5 * omf));
    if (st.uniform() < 0.5) theta = -theta;
  }
  double x = theta + mu;
  x = x - two_pi * floor((x + pi) / two_pi);
  if (x >= pi) x -= two_pi;
  if (x < -pi) x += two_pi;
  return x;
}

// Wald (inverse Gaussian) with mean m and scale l: Michael, Schucany and
// Haas, "Generating random variates using transformations with multiple
// roots" (1976). Its smaller root m + m^2 Y/(2l) - (m/(2l)) sqrt(4 m l Y +
// m^2 Y^2), Y = Z^2, is m / w^2 with w = t + sqrt(t^2 + 1), t =
// |Z| sqrt(m/l) / 2 (no cancellation, no overflow of Y^2); the other root
// is m w^2, taken with probability 1 - m/(m + X) = 1/(1 + w^2).
__device__ __noinline__ double wald(Stream& st, double mean, double scale) {
  const double t = 0.5 * fabs(st.normal()) * sqrt(mean / scale);
  const double w = t + hypot(t, 1.0);
  const double w2 = w * w;
  const double u = st.uniform();
  return u * (1.0 + w2) <= w2 ? mean / w2 : mean * w2;
}

// ---- Discrete distributions.

// Poisson, lam >= 10: Hormann, "The transformed rejection method for
// generating Poisson random variables" (1993), algorithm PTRS, with the
// exact acceptance test log V + log(1/alpha) - log(a/us^2 + b) <=
// log p(k) taken as poisson_log_pmf. k = floor(lam) + floor(offset).
__device__ __noinline__ long long poisson_ptrs(Stream& st, double lam) {
  const double b = 0.931 + 2.53 * sqrt(lam);
  const double a = -0.059 + 0.02483 * b;
  const double log_inv_alpha = log(1.1239 + 1.1328 / (b - 3.4));
  const double vr = 0.9277 - 3.6224 / (b - 2.0);
  const double fl = floor(lam);
  const long long base = (long long)fl;
  const double frac = (lam - fl) + 0.43;
  // 2^63 - 2048: k stays below 2^63 with the rounding of offset + fl.
  const double hi = 9223372036854773760.0 - fl;
  for (;;) {
    const double u = st.uniform() - 0.5;
    const double v = st.uniform();
    const double us = 0.5 - fabs(u);
    const double off = (2.0 * a / us + b) * u + frac;
    if (!(off >= -fl && off < hi)) continue;  // also us == 0 (inf, nan)
    const long long k = base + (long long)floor(off);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (log(v) + log_inv_alpha - log(a / (us * us) + b) <= poisson_log_pmf(k, lam)) return k;
  }
}

// Poisson(lam): 0 at 0; below 10 the multiplication method (Knuth, TAOCP
// 2, 3.4.1 F: the count of uniforms whose product stays above e^-lam);
// PTRS from 10. Past POISSON_LAM_MAX (reachable only through
// negative_binomial with p near 0) the draw would not fit in an int64,
// and it saturates to 2^63 - 1.
__device__ __noinline__ long long poisson(Stream& st, double lam) {
  if (lam >= 10.0) {
    if (lam > CUPRUM_RANDOM_POISSON_LAM_MAX) return CUPRUM_RANDOM_I64_MAX;
    return poisson_ptrs(st, lam);
  }
  if (lam == 0.0) return 0;
  const double enlam = exp(-lam);
  long long x = 0;
  double prod = 1.0;
  for (;;) {
    prod *= st.uniform();
    if (prod > enlam) {
      x += 1;
    } else {
      return x;
    }
  }
}

// Binomial by inversion (sequential search from 0 with the pmf
// recurrence), for n p <= 30, p <= 1/2; as NumPy, a search that runs past
// n p + 10 sqrt(n p q + 1) restarts with a fresh uniform.
//
// The search carries u - F(x - 1) and p(x) both scaled by x!, so a step
// is multiplications only: p(x) x! = p(x - 1) (x - 1)! (n - x + 1) p/q.
// NumPy's form divides by x q every step, and a double division is a
// subroutine of some twenty instructions on the FP64 pipe; the search's
// thirty-odd steps of it were most of the kernel's time. The scale
// cannot overflow: the bound keeps x <= 30 + 10 sqrt(31) < 86, and
// 86! < 1e131; both sides of the comparison carry the same factor, so
// its rounding is that of the unscaled form to an ulp or two.
__device__ __noinline__ long long binomial_inversion(Stream& st, long long n, double p) {
  const double q = 1.0 - p;
  const double r = p / q;
  const double qn = exp((double)n * log1p(-p));
  const double np = (double)n * p;
  const double bound = floor(fmin((double)n, np + 10.0 * sqrt(np * q + 1.0)));
  for (;;) {
    double u = st.uniform();
    double px = qn;  // p(x) x!
    double x = 0.0;
    double k = (double)n;  // n - x + 1 for the next step
    while (u > px) {
      x += 1.0;
      if (x > bound) break;
      u = (u - px) * x;
      px *= k * r;
      k -= 1.0;
    }
    if (!(x > bound)) return (long long)x;
  }
}

// Binomial, n p > 30, p <= 1/2: Hormann, "The generation of binomial
// random variates" (1993), algorithm BTRS (transformed rejection with
// squeeze; the same family as PTRS), with the exact test log V <=
// log(p(k)/p(m)), m = floor((n + 1) p), as log-factorial ratios.
__device__ __noinline__ long long binomial_btrs(Stream& st, long long n, double p) {
  const double q = 1.0 - p;
  const double np = (double)n * p;
  const double spq = sqrt(np * q);
  const double b = 1.15 + 2.53 * spq;
  const double a = -0.0873 + 0.0248 * b + 0.01 * p;
  const double alpha = (2.83 + 5.1 / b) * spq;
  const double vr = 0.92 - 4.2 / b;
  const double lpq = log(p) - log1p(-p);
  long long m = (long long)floor(np + p);  // the mode, floor((n + 1) p)
  if (m > n) m = n;
  // c - m with c = n p + 1/2: exact (np and m are within 1 of each other).
  const double cm = (np - (double)m) + 0.5;
  const double lo = -(double)m, hi = (double)(n - m) + 1.0;
  for (;;) {
    const double u = st.uniform() - 0.5;
    const double v = st.uniform();
    const double us = 0.5 - fabs(u);
    const double off = (2.0 * a / us + b) * u + cm;
    if (!(off >= lo && off < hi)) continue;
    const long long k = m + (long long)floor(off);
    if (k < 0 || k > n) continue;
    if (us >= 0.07 && v <= vr) return k;
    const double lv = log(v * alpha / (a / (us * us) + b));
    if (lv <= log_factorial_ratio(m, k) + log_factorial_ratio(n - m, n - k) + (double)(k - m) * lpq)
      return k;
  }
}

// Binomial(n, p): 0 for n == 0 or p == 0, n for p == 1; p > 1/2 as
// n - Binomial(n, 1 - p); inversion for n p <= 30, else BTRS.
__device__ __noinline__ long long binomial(Stream& st, long long n, double p) {
  if (n == 0 || p == 0.0) return 0;
  if (p == 1.0) return n;
  if (p <= 0.5) {
    return p * (double)n <= 30.0 ? binomial_inversion(st, n, p) : binomial_btrs(st, n, p);
  }
  const double q = 1.0 - p;
  return n - (q * (double)n <= 30.0 ? binomial_inversion(st, n, q) : binomial_btrs(st, n, q));
}

// Negative binomial (failures before the n-th success) as the gamma-
// Poisson mixture Poisson(G(n) (1 - p)/p) (Devroye 1986, X.4.7); p == 1
// gives 0, and a mean past POISSON_LAM_MAX saturates to 2^63 - 1.
__device__ __noinline__ long long negative_binomial(Stream& st, double n, double p) {
  const double g = standard_gamma(st, n);
  const double y = g == 0.0 ? 0.0 : g * ((1.0 - p) / p);
  return poisson(st, y);
}

// Geometric on 1, 2, ...: as NumPy, a sequential search for p >= 1/3
// (at most ~40 steps before the sum is within an ulp of 1; where the
// terms underflow first it finishes by inversion of the same uniform),
// and inversion ceil(log(U) / log(1 - p)) below (Devroye 1986, X.2).
// Results past 2^63 - 1 (p below ~4e-18) saturate.
__device__ __noinline__ long long geometric(Stream& st, double p) {
  if (p >= 1.0 / 3.0) {
    const double u = st.uniform();
    const double q = 1.0 - p;
    double prod = p, sum = p;
    long long x = 1;
    while (u > sum) {
      prod *= q;
      if (prod == 0.0) return (long long)ceil(log1p(-u) / log1p(-p));
      sum += prod;
      x += 1;
    }
    return x;
  }
  const double x = ceil(log(st.uniform_open()) / log1p(-p));
  return x < 9.2233720368547758e18 ? (long long)x : CUPRUM_RANDOM_I64_MAX;
}

// Hypergeometric by drawing the smaller of sample and total - sample
// items one at a time (under 10 here), as NumPy.
__device__ __noinline__ long long hypergeometric_direct(Stream& st, long long good, long long bad,
                                                        long long sample) {
  const long long total = good + bad;
  const bool complement = sample > total / 2;
  long long left = complement ? total - sample : sample;
  long long rem_total = total, rem_good = good;
  while (left > 0 && rem_good > 0 && rem_total > rem_good) {
    rem_total -= 1;
    if ((long long)uniform_index(st, (unsigned long long)rem_total) < rem_good) rem_good -= 1;
    left -= 1;
  }
  if (rem_total == rem_good) rem_good -= left;  // only good items are left
  return complement ? rem_good : good - rem_good;
}

// Hypergeometric: Stadlober, "The ratio of uniforms approach for
// generating discrete random variates" (1990) and his 1989 thesis,
// algorithm HRUA, with NumPy's reductions (sample <= total/2, good <=
// bad, undone at the end) and its 16-sigma cut of the proposal.
// T = log(p(k)/p(m)) is a sum of log-factorial ratios.
__device__ __noinline__ long long hypergeometric_hrua(Stream& st, long long good, long long bad,
                                                      long long sample) {
  const double D1 = 1.7155277699214135;  // 2 sqrt(2/e)
  const double D2 = 0.8989161620588988;  // 3 - 2 sqrt(3/e)
  const long long total = good + bad;
  const long long n = sample < total - sample ? sample : total - sample;
  const long long mn = good < bad ? good : bad;
  const long long mx = good < bad ? bad : good;
  const double p = (double)mn / (double)total, q = (double)mx / (double)total;
  const double mu = (double)n * p;
  const double var = (double)(total - n) * (double)n * p * q / (double)(total - 1);
  const double c = sqrt(var + 0.5);
  const double h = D1 * c + D2;
  const long long kmax = n < mn ? n : mn;
  long long m = (long long)floor(((double)n + 1.0) * ((double)mn + 1.0) / ((double)total + 2.0));
  if (m > kmax) m = kmax;
  // Proposals relative to m: a - m with a = mu + 1/2 (exact difference).
  const double am = (mu - (double)m) + 0.5;
  const double hi = fmin((double)(kmax + 1 - m), floor(am + 16.0 * c));
  const double lo = -(double)m;
  const long long base = mx - n;  // the fourth factorial is (mx - n + k)!
  long long k;
  for (;;) {
    const double u = st.uniform();
    const double v = st.uniform();
    const double off = am + h * (v - 0.5) / u;
    if (!(off >= lo && off < hi)) continue;  // also u == 0
    k = m + (long long)floor(off);
    if (k < 0 || k > kmax) continue;
    const double t = log_factorial_ratio(m, k) + log_factorial_ratio(mn - m, mn - k) +
                     log_factorial_ratio(n - m, n - k) +
                     log_factorial_ratio(base + m, base + k);
    if (u * (4.0 - u) - 3.0 <= t) break;  // squeeze: accept
    if (u * (u - t) >= 1.0) continue;     // squeeze: reject
    if (2.0 * log(u) <= t) break;
  }
  if (good > bad) k = n - k;
  if (n < sample) k = good - k;
  return k;
}

// Hypergeometric(ngood, nbad, nsample): HRUA when 10 <= nsample <=
// total - 10, else direct, as NumPy.
__device__ inline long long hypergeometric(Stream& st, long long ngood, long long nbad,
                                           long long nsample) {
  if (nsample >= 10 && nsample <= ngood + nbad - 10)
    return hypergeometric_hrua(st, ngood, nbad, nsample);
  return hypergeometric_direct(st, ngood, nbad, nsample);
}

// Logarithmic series on 1, 2, ...: Kemp, "Efficient generation of
// logarithmically distributed pseudo-random variables" (1981), algorithm
// LK. log q is taken from q = -expm1(r u) directly when q is small and as
// log1p(-e^(r u)) when q is near 1, so neither end loses it.
__device__ __noinline__ long long logseries(Stream& st, double p) {
  const double r = log1p(-p);
  for (;;) {
    const double v = st.uniform();
    if (v >= p) return 1;
    const double ru = r * st.uniform();
    const double q = -expm1(ru);
    if (v <= q * q) {
      if (v == 0.0) continue;
      const double lq = q < 0.5 ? log(q) : log1p(-exp(ru));
      return (long long)floor(1.0 + log(v) / lq);
    }
    return v >= q ? 1 : 2;
  }
}

// Zipf(a), a > 1: Devroye, "Non-Uniform Random Variate Generation"
// (1986), X.6.1: X = floor(U^(-1/(a-1))), accepted when V X (T - 1)/(b - 1)
// <= T/b, T = (1 + 1/X)^(a-1), b = 2^(a-1), taken as V X (1 - 1/T) <=
// 1 - 1/b by expm1 (no overflow for large a, no cancellation for a near
// 1). NumPy rejects X > 2^63 - 1; here U is drawn from (2^(-63(a-1)), 1]
// instead, the same truncated law without the ~1/(1 - 2^(-63(a-1)))
// rejections (230000 per draw at a = 1 + 1e-7).
__device__ __noinline__ long long zipf(Stream& st, double a) {
  const double am1 = a - 1.0;
  const double span = -expm1(-am1 * 43.668272375276554);  // 1 - 2^(-63 (a-1))
  const double eb = -expm1(-am1 * 0.6931471805599453);     // 1 - 1/b
  for (;;) {
    const double w = st.uniform() * span;  // 1 - U
    const double x = floor(exp(-log1p(-w) / am1));
    if (!(x < 9.2233720368547758e18)) continue;  // rounding at the cut
    const double v = st.uniform();
    if (v * x * -expm1(-am1 * log1p(1.0 / x)) <= eb) return (long long)x;
  }
}

}  // namespace cuprum_random
