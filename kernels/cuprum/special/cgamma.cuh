// SciPy's complex loops of loggamma, gamma, rgamma and digamma (D->D and
// F->F: complex64 evaluates the complex128 function and rounds once).
//
// loggamma is the principal branch of log Gamma, analytic in the plane cut
// along the negative real axis (D. E. G. Hare, "Computing the principal
// branch of log-Gamma", J. Algorithms 25 (1997) 221-236), from
// - Stirling's series (DLMF 5.11.1) for Re z >= 7 or |Im z| >= 7, thirteen
//   terms (|z| >= 7 leaves under 2e-18 of them);
// - for 0 <= Re z < 7, |Im z| < 3.5: the Taylor series of loggamma at
//   1 (DLMF 5.7.3, |z - 1| < 1/4, where it has its zero) or at the centre
//   2 + ik of the unit square holding z shifted by the recurrence
//   loggamma(z + 1) = loggamma(z) + log z (DLMF 5.5.1) into
//   1.5 <= Re < 2.5 (the centre 2 keeps the zero at 2 relative); the logs
//   of the recurrence are one log of the product with its argument
//   counted across the cut (Hare), so the branch stays the principal one;
// - for 3.5 <= |Im z| < 7: the recurrence up to Re >= 7, then Stirling;
// - for Re z < 0, |Im z| < 7: the reflection formula DLMF 5.5.3 in Hare's
//   principal-branch form, for Im z >= 0:
//     loggamma(z) = log(2 pi) - i pi/2 + i pi z - log(1 - e^(2 pi i z))
//                   - loggamma(1 - z),
//   the log of 1 - e^(2 pi i z) taken without cancellation near the poles.
// The lower half plane is the conjugate (loggamma(conj z) = conj
// loggamma(z)); a zero imaginary part's sign picks the side of the cut,
// as SciPy's.
//
// gamma and rgamma are not exp(+-loggamma) rounded (that loses |loggamma|
// ulps, SciPy's 1000 eps at |z| ~ 300): in the strip above, exp of the
// Taylor series (whose value stays small) times or over the recurrence's
// product; in Stirling's region, exp of Stirling's exponent carried in
// double-double (Dekker); for Re z < 0 the reflection Gamma(z) Gamma(1 - z)
// = pi / sin(pi z) (DLMF 5.5.3), with sin(pi z) from sinpi and cospi, as a
// product for Re z > -6 and with the exponent split from its powers of two
// beyond; the series 1/z - gamma (DLMF 5.7.1) at |z| < 2^-60 and the
// Laurent terms at the poles (DLMF 5.7.1, 5.5.1) where sin(pi z) would be
// subnormal. Past |z| = 2^26, where Gamma is 0 or inf and its phase has
// no digit left, the plain exp(+-loggamma) gives SciPy's signs.
//
// digamma: the asymptotic series (DLMF 5.11.2) for |z| >= 7 after the
// recurrence DLMF 5.5.2, the derivative of the Taylor series at 2 + ik
// above, the reflection DLMF 5.5.4 for Re z < 0 and |Im z| < 16, and the
// Taylor series (DLMF 5.15.1) at the positive root x0 (|z - x0| < 0.35, as
// the real loop) and at the first four negative roots (|z - r1| < 0.05,
// |z - r_n| < 0.1), where the other forms cancel.
//
// Special values follow SciPy's: NaN at the poles of loggamma and gamma
// (0 for rgamma), NaN for an infinite real part, the limits of Stirling's
// formula for an infinite imaginary part, Smith's division's NaN in
// digamma's -1/z at a subnormal z, and SciPy's exp(loggamma) where gamma
// overflows at a subnormal distance from a pole. The constants are
// computed by crates/gpu-special/tools/coefficients_cgamma.py.
#pragma once

#include "cuprum/complex.cuh"
#include "cuprum/special/common.cuh"

namespace cuprum {
namespace special {
namespace detail {

typedef cuprum::complex<double> cg_c;

constexpr double CG_EULER = 0.5772156649015329;
constexpr double CG_LOG_2PI = 1.8378770664093456;
constexpr double CG_HALF_LOG_2PI = 0.9189385332046728;
constexpr double CG_LN2 = 0.6931471805599453;

__device__ __forceinline__ double cg_nan() { return __longlong_as_double(0x7ff8000000000000LL); }
__device__ __forceinline__ double cg_inf() { return __longlong_as_double(0x7ff0000000000000LL); }

// log z = (log |z|, arg z) without the losses of log(hypot): subnormal
// and tiny |z| are scaled by 2^600 first, and |z| near 1 takes
// log1p(x^2 + y^2 - 1) with the squares' rounding errors added back.
__device__ inline cg_c cg_log(double x, double y) {
  double ax = ::fabs(x), ay = ::fabs(y);
  double big = ax > ay ? ax : ay, small = ax > ay ? ay : ax;
  double lr;
  if (big < 0x1p-500) {
    lr = ::log(cuprum::hypot(::ldexp(x, 600), ::ldexp(y, 600))) - 600.0 * CG_LN2;
  } else if (big >= 0.7071 && big <= 1.4142 && small < 1.0) {
    // The squares rounded as such (no contraction into p - 1), their
    // rounding errors by fma.
    double p = __dmul_rn(big, big), ep = ::fma(big, big, -p);
    double q = __dmul_rn(small, small), eq = ::fma(small, small, -q);
    // p - 1 is exact (p in [1/2, 2]).
    double s = ((p - 1.0) + q) + (ep + eq);
    lr = 0.5 * ::log1p(s);
  } else {
    lr = ::log(cuprum::hypot(x, y));
  }
  return cg_c(lr, ::atan2(y, x));
}

// 1/z for tiny z (|z| < 2^-500): scaled by 2^600 so that a zero part stays
// exactly zero and a part past DBL_MAX is inf.
__device__ inline cg_c cg_recip_tiny(double x, double y) {
  cg_c r = cg_c(1.0) / cg_c(::ldexp(x, 600), ::ldexp(y, 600));
  return cg_c(::ldexp(r.re, 600), ::ldexp(r.im, 600));
}
__device__ inline cg_c cg_recip(double x, double y) {
  double big = ::fabs(x) > ::fabs(y) ? ::fabs(x) : ::fabs(y);
  if (big < 0x1p-500) return cg_recip_tiny(x, y);
  return cg_c(1.0) / cg_c(x, y);
}

// log(z (z + 1) ... (z + n - 1)) for Im z >= 0 on the branch continuous
// from the positive real axis: the product, whose argument wraps past pi
// where its imaginary part turns negative (each factor adds less than pi),
// then one log plus 2 pi per wrap (Hare).
__device__ inline cg_c cg_log_rising(double x, double y, int n) {
  cg_c p(x, y);
  int wraps = 0;
  for (int j = 1; j < n; ++j) {
    double before = p.im;
    p = p * cg_c(x + j, y);
    if (before >= 0.0 && p.im < 0.0) ++wraps;
  }
  cg_c l = cg_log(p.re, p.im);
  return cg_c(l.re, l.im + 2.0 * detail::PI * wraps);
}

// z (z + 1) ... (z + n - 1).
__device__ inline cg_c cg_rising(double x, double y, int n) {
  cg_c p(x, y);
  for (int j = 1; j < n; ++j) p = p * cg_c(x + j, y);
  return p;
}

// Stirling's series (DLMF 5.11.1) for |w| >= 7, Im w >= 0:
// (w - 1/2) log w - w + log(2 pi)/2 + sum_k B_2k / (2k (2k-1) w^(2k-1)).
// The leading products are rounded one by one (no contraction), as a
// plain evaluation: at |w| ~ 1e300 the imaginary part's last bit sets the
// signs of Gamma's infinities, as in SciPy. w is x + dx + iy, dx the
// rounding error of a shifted real part (x + n), taken in as dx psi(w),
// psi(w) ~ log w - 1/(2w) (DLMF 5.11.2).
__device__ __noinline__ cg_c cg_stirling(double x, double y, double dx = 0.0) {
  cg_c l = cg_log(x, y);
  double a = x - 0.5;
  double re = __dadd_rn(__dsub_rn(__dmul_rn(a, l.re), __dmul_rn(y, l.im)), -x) + CG_HALF_LOG_2PI;
  double im = __dadd_rn(__dadd_rn(__dmul_rn(a, l.im), __dmul_rn(y, l.re)), -y);
  const double b[13] = {0.08333333333333333,  -0.002777777777777778, 0.0007936507936507937,
                        -0.0005952380952380953, 0.0008417508417508417, -0.0019175269175269176,
                        0.00641025641025641,  -0.029550653594771242, 0.17964437236883057,
                        -1.3924322169059011,  13.402864044168393,    -156.84828462600203,
                        2193.1033333333335};
  cg_c r = cg_recip(x, y);
  cg_c r2 = r * r;
  cg_c s(b[12]);
#pragma unroll
  for (int k = 11; k >= 0; --k) s = s * r2 + b[k];
  s = s * r;
  s += dx * cg_c(l.re - 0.5 * r.re, l.im - 0.5 * r.im);
  return cg_c(re + s.re, im + s.im);
}

// Double-double arithmetic (Dekker; Knuth's two-sum) for the exponent of
// Gamma: exp(loggamma) loses |loggamma| ulps when loggamma is rounded
// to double, so Stirling's leading terms are carried to about 2^-100
// where Gamma is finite (|w| < 2^26).
struct cg_dd {
  double hi, lo;
};
__device__ __forceinline__ cg_dd cg_two_sum(double a, double b) {
  double s = __dadd_rn(a, b);
  double bb = __dsub_rn(s, a);
  return {s, __dadd_rn(__dsub_rn(a, __dsub_rn(s, bb)), __dsub_rn(b, bb))};
}
__device__ __forceinline__ cg_dd cg_quick_two_sum(double a, double b) {
  double s = __dadd_rn(a, b);
  return {s, __dsub_rn(b, __dsub_rn(s, a))};
}
__device__ __forceinline__ cg_dd cg_two_prod(double a, double b) {
  double p = __dmul_rn(a, b);
  return {p, ::fma(a, b, -p)};
}
__device__ __forceinline__ cg_dd cg_dd_add(cg_dd a, cg_dd b) {
  cg_dd s = cg_two_sum(a.hi, b.hi);
  return cg_quick_two_sum(s.hi, s.lo + (a.lo + b.lo));
}
__device__ __forceinline__ cg_dd cg_dd_neg(cg_dd a) { return {-a.hi, -a.lo}; }
__device__ __forceinline__ cg_dd cg_dd_mul(cg_dd a, cg_dd b) {
  cg_dd p = cg_two_prod(a.hi, b.hi);
  return cg_quick_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}
__device__ __forceinline__ cg_dd cg_dd_mul_d(cg_dd a, double b) {
  cg_dd p = cg_two_prod(a.hi, b);
  return cg_quick_two_sum(p.hi, ::fma(a.lo, b, p.lo));
}
__device__ __forceinline__ cg_dd cg_dd_div(cg_dd a, cg_dd b) {
  double q1 = a.hi / b.hi;
  cg_dd r = cg_dd_add(a, cg_dd_neg(cg_dd_mul_d(b, q1)));
  return cg_quick_two_sum(q1, r.hi / b.hi);
}

// log |w| and arg w (Im w >= 0) as double-doubles, for 2^-26 < |w| < 2^26.
// log: |w|^2 = 2^e f exactly as a double-double, f in [1/sqrt 2, sqrt 2),
// log f = 2 atanh t, t = (f - 1)/(f + 1), |t| < 0.172, the series beyond 2t
// in double. arg: atan of the ratio u <= 1 of the smaller part to the
// larger, atan u = atan(k/16) + atan v with v = (u - k/16)/(1 + u k/16),
// |v| < 1/32 (atan(k/16) tabulated as double-doubles), then the quadrant.
__device__ __noinline__ void cg_log_dd(double x, double y, cg_dd& lr, cg_dd& th) {
  const double ln2_hi = 0.6931471805599453, ln2_lo = 2.3190468138462996e-17;
  cg_dd s = cg_dd_add(cg_two_prod(x, x), cg_two_prod(y, y));
  int e;
  double f = ::frexp(s.hi, &e);
  if (f < 0.70710678118654752) {
    f *= 2.0;
    --e;
  }
  cg_dd fd = cg_quick_two_sum(f, ::ldexp(s.lo, -e));
  cg_dd num = cg_two_sum(fd.hi - 1.0, fd.lo);  // f - 1 exact (Sterbenz)
  cg_dd den = cg_dd_add(cg_two_sum(fd.hi, 1.0), cg_dd{fd.lo, 0.0});
  cg_dd t = cg_dd_div(num, den);
  double t2 = t.hi * t.hi;
  double c = 1.0 / 23.0;
#pragma unroll
  for (int k = 10; k >= 1; --k) c = ::fma(c, t2, 1.0 / (2 * k + 1));
  c *= t2;  // sum_k>=1 t^2k / (2k + 1)
  cg_dd lf = cg_quick_two_sum(2.0 * t.hi, ::fma(2.0 * t.hi, c, 2.0 * t.lo));
  cg_dd le = cg_two_prod((double)e, ln2_hi);
  le = cg_quick_two_sum(le.hi, ::fma((double)e, ln2_lo, le.lo));
  cg_dd l2 = cg_dd_add(le, lf);
  lr = {0.5 * l2.hi, 0.5 * l2.lo};

  const double at[34] = {
      0.0, 0.0, 0.06241880999595735, -1.5490756308295046e-18,
      0.12435499454676144, -3.1253241424539383e-18, 0.18534794999569476, 4.180692268843079e-18,
      0.24497866312686414, 1.0698755618734451e-17, 0.3028848683749714, -1.1010827903001369e-17,
      0.35877067027057225, -2.4623815582638635e-17, 0.4124104415973873, -1.587652227770689e-17,
      0.4636476090008061, 2.2698777452961687e-17, 0.5123894603107377, -2.5462781472855804e-17,
      0.5585993153435624, -5.4556305485916264e-18, 0.6022873461349642, 2.950430737228402e-17,
      0.6435011087932844, 1.5834785051444286e-17, 0.6823165548747481, 6.943223671560008e-18,
      0.7188299996216245, -2.1478388444456983e-17, 0.7531512809621944, -2.4256934659182068e-17,
      0.7853981633974483, 3.061616997868383e-17};
  double ax = ::fabs(x);
  bool swap = y > ax;
  double n = swap ? ax : y, d = swap ? y : ax;
  double q = n / d;
  cg_dd u = {q, ::fma(-q, d, n) / d};
  int k = (int)::rint(16.0 * q);
  double ck = k * 0.0625;
  cg_dd vn = cg_dd_add(cg_two_sum(u.hi, -ck), cg_dd{u.lo, 0.0});
  cg_dd cu = cg_two_prod(ck, u.hi);
  cg_dd vd = cg_dd_add(cg_two_sum(1.0, cu.hi), cg_dd{::fma(ck, u.lo, cu.lo), 0.0});
  cg_dd v = cg_dd_div(vn, vd);
  double v2 = v.hi * v.hi;
  double a = 1.0 / 13.0;
#pragma unroll
  for (int j = 5; j >= 1; --j) a = ::fma(a, v2, ((j & 1) ? -1.0 : 1.0) / (2 * j + 1));
  a *= v2;  // sum_j>=1 (-1)^j v^2j / (2j + 1)
  cg_dd av = cg_quick_two_sum(v.hi, ::fma(v.hi, a, v.lo));
  cg_dd r = cg_dd_add(cg_dd{at[2 * k], at[2 * k + 1]}, av);
  const cg_dd half_pi = {1.5707963267948966, 6.123233995736766e-17};
  const cg_dd pi = {3.141592653589793, 1.2246467991473532e-16};
  if (swap) r = cg_dd_add(half_pi, cg_dd_neg(r));
  if (x < 0.0) r = cg_dd_add(pi, cg_dd_neg(r));
  th = r;
}

// Stirling's (w - 1/2) log w - w + log(2 pi)/2 + series (DLMF 5.11.1) for
// 7 <= |w| < 2^26, Im w >= 0, its real and imaginary parts as
// double-doubles (the series, below 1/80, in double).
__device__ __noinline__ void cg_stirling_dd(double x, double y, double dx, cg_dd& re, cg_dd& im) {
  cg_dd lr, th;
  cg_log_dd(x, y, lr, th);
  const double b[13] = {0.08333333333333333,  -0.002777777777777778, 0.0007936507936507937,
                        -0.0005952380952380953, 0.0008417508417508417, -0.0019175269175269176,
                        0.00641025641025641,  -0.029550653594771242, 0.17964437236883057,
                        -1.3924322169059011,  13.402864044168393,    -156.84828462600203,
                        2193.1033333333335};
  cg_c r = cg_c(1.0) / cg_c(x, y);
  cg_c r2 = r * r;
  cg_c s(b[12]);
#pragma unroll
  for (int k = 11; k >= 0; --k) s = s * r2 + b[k];
  s = s * r;
  s += dx * cg_c(lr.hi - 0.5 * r.re, th.hi - 0.5 * r.im);
  cg_dd a = cg_two_sum(x, -0.5);
  const cg_dd hl2pi = {0.9189385332046728, -3.8782941580672414e-17};
  // Re: a lr - y th - x + log(2 pi)/2 + s; Im: a th + y lr - y + s.
  re = cg_dd_add(cg_dd_mul(a, lr), cg_dd_neg(cg_dd_mul_d(th, y)));
  re = cg_dd_add(re, cg_two_sum(-x, s.re));
  re = cg_dd_add(re, hl2pi);
  im = cg_dd_add(cg_dd_mul(a, th), cg_dd_mul_d(lr, y));
  im = cg_dd_add(im, cg_two_sum(-y, s.im));
}

// exp(re + i im) for double-double parts: e^re.hi (1 + re.lo) times the
// rotation by im.hi + im.lo; scaled where e^re.hi alone overflows.
__device__ __forceinline__ cg_c cg_exp_dd(cg_dd re, cg_dd im) {
  double s, c;
  ::sincos(im.hi, &s, &c);
  double cr = c - im.lo * s, ci = s + im.lo * c;
  if (re.hi > 709.0) {
    double h = ::exp(0.5 * re.hi) * (1.0 + re.lo);
    return cg_c((h * cr) * ::exp(0.5 * re.hi), (h * ci) * ::exp(0.5 * re.hi));
  }
  double m = ::exp(re.hi) * (1.0 + re.lo);
  return cg_c(m * cr, m * ci);
}

// exp(sign * loggamma(w)) by Stirling for |w| >= 7, Im w >= 0: the
// exponent in double-double below |w| = 2^26; beyond, the plain double
// one (whose last bits set the signs of the infinities at |w| ~ 1e300 as
// SciPy's do).
__device__ __noinline__ cg_c cg_exp_stirling(double x, double y, double sign, double dx = 0.0) {
  if (::fabs(x) < 0x1p26 && y < 0x1p26) {
    cg_dd re, im;
    cg_stirling_dd(x, y, dx, re, im);
    if (sign < 0.0) {
      re = cg_dd_neg(re);
      im = cg_dd_neg(im);
    }
    return cg_exp_dd(re, im);
  }
  cg_c l = cg_stirling(x, y, dx);
  return cuprum::exp(sign < 0.0 ? -l : l);
}

// digamma's asymptotic series (DLMF 5.11.2) for |w| >= 7:
// log w - 1/(2w) - sum_k B_2k / (2k w^2k); w = x + dx + iy as in
// cg_stirling, dx taken in as dx psi'(w), psi'(w) ~ 1/w + 1/(2 w^2).
__device__ __noinline__ cg_c cg_digamma_asymptotic(double x, double y, double dx = 0.0) {
  const double b[13] = {0.08333333333333333,  -0.008333333333333333, 0.003968253968253968,
                        -0.004166666666666667, 0.007575757575757576,  -0.021092796092796094,
                        0.08333333333333333,  -0.4432598039215686,   3.0539543302701198,
                        -26.456212121212122,  281.46014492753625,    -3607.5105463980462,
                        54827.583333333336};
  cg_c r = cg_recip(x, y);
  cg_c r2 = r * r;
  cg_c s(b[12]);
#pragma unroll
  for (int k = 11; k >= 0; --k) s = s * r2 + b[k];
  s = s * r2;
  cg_c l = cg_log(x, y);
  cg_c t = dx * (r + 0.5 * r2);
  return cg_c(l.re - 0.5 * r.re - s.re + t.re, l.im - 0.5 * r.im - s.im + t.im);
}

// loggamma(1 + e), |e| < 1/4 (DLMF 5.7.3): -gamma e + sum_k (-1)^k zeta(k) e^k / k.
__device__ __noinline__ cg_c cg_loggamma_at1(cg_c e) {
  const double c[28] = {
      -0.5772156649015329,  0.8224670334241132,   -0.40068563438653143, 0.27058080842778454,
      -0.20738555102867398, 0.1695571769974082,   -0.1440498967688461,  0.12550966952474304,
      -0.11133426586956469, 0.1000994575127818,   -0.09095401714582904, 0.083353840546109,
      -0.0769325164113522,  0.07143294629536133,  -0.06666870588242046, 0.06250095514121304,
      -0.058823978658684585, 0.055555767627403614, -0.05263167937961666, 0.05000004769810169,
      -0.047619070330142226, 0.04545455629320467,  -0.04347826605304026, 0.04166666915034121,
      -0.04000000119214014, 0.03846153903467518,  -0.037037037312989324, 0.035714285847333355};
  cg_c p(c[27]);
#pragma unroll
  for (int k = 26; k >= 0; --k) p = p * e + c[k];
  return p * e;
}

// The Taylor series of loggamma at c = 2 + ik (k = 0..3) in e = z - c,
// |e| <= 1/sqrt(2): a_j = psi^(j-1)(c) / j! (DLMF 5.15.1). D = false gives
// loggamma(c + e) = sum_j a_j e^j, D = true digamma(c + e) = sum_j j a_j e^(j-1).
template <bool D, int N>
__device__ __forceinline__ cg_c cg_horner_complex(const double (&a)[2 * N + 2], cg_c e) {
  cg_c p = D ? cg_c(N * a[2 * N], N * a[2 * N + 1]) : cg_c(a[2 * N], a[2 * N + 1]);
#pragma unroll
  for (int j = N - 1; j >= (D ? 1 : 0); --j) {
    p = p * e + (D ? cg_c(j * a[2 * j], j * a[2 * j + 1]) : cg_c(a[2 * j], a[2 * j + 1]));
  }
  return p;
}

template <bool D>
__device__ __noinline__ cg_c cg_strip_series(int k, cg_c e) {
  if (k == 0) {
    // loggamma(2 + e) = (1 - gamma) e + sum_j>=2 (-1)^j (zeta(j) - 1) e^j / j.
    const double a[40] = {
        0.42278433509846713,     0.3224670334241132,     -0.0673523010531981,
        0.020580808427784546,    -0.007385551028673986,  0.0028905103307415234,
        -0.001192753911703261,   0.0005096695247430425,  -0.00022315475845357939,
        9.945751278180853e-05,   -4.492623673813314e-05, 2.050721277567069e-05,
        -9.439488275268397e-06,  4.374866789907488e-06,  -2.039215753801366e-06,
        9.55141213040742e-07,    -4.492469198764566e-07, 2.1207184805554665e-07,
        -1.0043224823968099e-07, 4.7698101693639804e-08, -2.2711094608943164e-08,
        1.0838659214896955e-08,  -5.183475041970047e-09, 2.4836745438024785e-09,
        -1.1921401405860912e-09, 5.731367241678862e-10,  -2.7595228851242334e-10,
        1.330476437424449e-10,   -6.4229645638381e-11,   3.1044247747322276e-11,
        -1.5021384080754142e-11, 7.275974480239079e-12,  -3.527742476575915e-12,
        1.711991790559618e-12,   -8.315385841420285e-13, 4.04220052528944e-13,
        -1.9664756310966165e-13, 9.573630387838556e-14,  -4.6640760264283744e-14,
        2.2737369600659724e-14};
    if (D) {
      cg_c p(40.0 * a[39]);
#pragma unroll
      for (int j = 39; j >= 1; --j) p = p * e + j * a[j - 1];
      return p;
    }
    cg_c p(a[39]);
#pragma unroll
    for (int j = 38; j >= 0; --j) p = p * e + a[j];
    return p * e;
  }
  if (k == 1) {
    const double a[74] = {
        -0.3043496090218837,     0.48375784292991514,    0.594650320622477,
        0.5766740474685812,      0.2315000483113819,     -0.14711677137965942,
        -0.02190784473534414,    0.0444421417241777,     -0.0009531020397289991,
        -0.013220274110915028,   0.0023292347420337443,  0.0034948995719835964,
        -0.0012959511615067624,  -0.0006724273723554638, 0.0005371508347718395,
        -8.750860019838301e-06,  -0.0001797176817406351, 9.904930272786276e-05,
        4.4452934047776184e-05,  -6.703485499892131e-05, -3.48155803278782e-06,
        3.192913672146351e-05,   -4.638975708852712e-06, -1.2147221205551192e-05,
        3.945419055043315e-06,   3.568362976137562e-06,  -2.116940503183401e-06,
        -5.779872589841927e-07,  8.92951604382651e-07,   -1.8166227286822408e-07,
        -2.989650513017281e-07,  2.3532493119085586e-07, 6.777263193716313e-08,
        -1.4448446817853156e-07, 1.7606087757050015e-09, 6.718173180060611e-08,
        -1.3379894504944476e-08, -2.504832653025571e-08, 9.823435654947073e-09,
        6.954795319798385e-09,   -5.056155692233423e-09, -7.750965776439657e-10,
        2.074194673932164e-09,   -6.683418288706282e-10, -6.644361522926766e-10,
        6.513606460783266e-10,   1.2961058686023001e-10, -3.7638720281485134e-10,
        2.246282590074376e-11,   1.691414118249496e-10,  -4.1104300817124674e-11,
        -6.064193551374691e-11,  2.7472678031188442e-11, 1.542011490060572e-11,
        -1.3552372172976939e-11, -6.487077627592663e-13, 5.352610917394477e-12,
        -2.3634634067455768e-12, -1.6108677767495517e-12, 1.9464110682224425e-12,
        2.4657421725827104e-13,  -1.0640562110064295e-12, 1.104958646228653e-13,
        4.596206373169992e-13,   -1.318683191298659e-13, -1.5669578150550606e-13,
        8.153844533770651e-14,   3.520493477184856e-14,  -3.849005352454318e-14,
        2.1601322091353693e-15,  1.4536479173489746e-14, -8.317403075853973e-15,
        -4.035813194484292e-15,  6.0610770885868496e-15};
    return cg_horner_complex<D, 36>(a, e);
  }
  if (k == 2) {
    const double a[62] = {
        -1.0713598302138791,     1.236795034103879,      0.9145915153739775,
        0.9208072826422302,      0.12246558107047228,    -0.15891277507361487,
        0.0065040590089415875,   0.0260945793264495,     -0.004899263891225428,
        -0.0023012785338248007,  0.0011852763814045005,  -0.000550699339140168,
        -9.4941884849747e-05,    0.00033693635299170897, -5.4419771548768e-05,
        -8.40867924913272e-05,   2.9593113381260014e-05, 4.730528511981262e-06,
        -7.256182878769819e-06,  5.741287946600897e-06,  2.4025725935245313e-07,
        -2.9120159764449673e-06, 6.250106513621969e-07,  6.994237336618602e-07,
        -3.0459227107037714e-07, -1.104338888524418e-08, 7.217484808765895e-08,
        -6.913071663070662e-08,  -3.6333024465893304e-10, 3.299418652361436e-08,
        -7.71459831578032e-09,   -7.772968852030112e-09, 3.6498390241155053e-09,
        -3.461710347461653e-12,  -8.597224836329976e-10, 8.662413256206621e-10,
        -2.143400377406091e-12,  -4.092172549727075e-10, 9.781063313169941e-11,
        9.669261810226539e-11,   -4.631988164887332e-11, 2.609155115715062e-13,
        1.0994637186319314e-11,  -1.1108220792660662e-11, 2.3489230353889098e-14,
        5.282593357809341e-12,   -1.2692396686064377e-12, -1.2599253224498587e-12,
        6.063759198845425e-13,   -1.7778047933597792e-15, -1.4526624975015586e-13,
        1.459200515244578e-13,   -1.1555081774673893e-16, -7.001266805929002e-14,
        1.6875831561230998e-14,  1.6836814487024434e-14, -8.127067452309056e-15,
        6.214600091100967e-18,   1.9606607973896175e-15, -1.962481124195482e-15,
        2.3044302713165624e-19,  9.479984996421862e-16};
    return cg_horner_complex<D, 30>(a, e);
  }
  const double a[50] = {
      -2.0928517530927335,     2.302396543466868,      1.2079807107101508,
      1.1041296805875762,      0.06777771350284546,    -0.13350499622917283,
      0.008779364846822643,    0.012172704889067635,   -0.0022429984204833217,
      0.00032037889686402,     0.00014059307085105904, -0.0003872569102092913,
      5.5366910975504305e-05,  6.251446458743965e-05,  -1.7749079523240293e-05,
      3.95361344045921e-06,    1.2101822380842218e-06, -3.986047227276756e-06,
      6.779730985838798e-07,   7.224373680217857e-07,  -2.3641523419120368e-07,
      5.356696990720698e-08,   1.8855242888413538e-08, -5.760662773481548e-08,
      1.0015368705581847e-08,  1.1714002112822597e-08, -3.9229372082103165e-09,
      6.043047990062669e-10,   4.100683908820216e-10,  -9.473188106186e-10,
      1.5154139047528523e-10,  2.239928145243069e-10,  -7.122270635481232e-11,
      1.5676729828969596e-12,  9.934132934604738e-12,  -1.6009886132464284e-11,
      2.1027660546652434e-12,  4.533726645075428e-12,  -1.3134191499040551e-12,
      -1.9846526816469137e-13, 2.375306531027439e-13,  -2.6190315447183914e-13,
      2.2912739717027445e-14,  9.138268571353352e-14,  -2.364937802508612e-14,
      -8.475613347185786e-15,  5.392457105564539e-15,  -3.981599710776029e-15,
      8.025168326898368e-17,   1.7876637805338885e-15};
  return cg_horner_complex<D, 24>(a, e);
}

// The strip 0 <= Re z < 7, 0 <= Im z < 3.5: z = w + m with 1.5 <= Re w < 2.5
// (m from -2 to 5), w = 2 + ik + e exactly.
struct cg_strip {
  int m, k;
  cg_c e;
};
__device__ __forceinline__ cg_strip cg_strip_of(double x, double y) {
  cg_strip s;
  double m = ::floor(x - 1.5);
  s.m = (int)m;
  s.k = (int)::rint(y);
  // Both differences are exact (Sterbenz).
  s.e = cg_c(x - (2.0 + m), y - s.k);
  return s;
}

// loggamma(x + iy) for y >= 0 and x >= 0 or y >= 7 (finite).
__device__ __noinline__ cg_c cg_loggamma_right(double x, double y) {
  if (x >= 7.0 || y >= 7.0) return cg_stirling(x, y);
  double d1 = x - 1.0;
  if (d1 * d1 + y * y < 0.0625) return cg_loggamma_at1(cg_c(d1, y));
  if (y < 3.5) {
    cg_strip s = cg_strip_of(x, y);
    cg_c l = cg_strip_series<false>(s.k, s.e);
    // loggamma(w + m) = loggamma(w) + log(w (w + 1) ... (w + m - 1)), and
    // loggamma(z) = loggamma(z + n) - log(z ... (z + n - 1)).
    if (s.m > 0) l += cg_log_rising(x - s.m, y, s.m);
    if (s.m < 0) l -= cg_log_rising(x, y, -s.m);
    return l;
  }
  int n = (int)::ceil(7.0 - x);
  cg_dd w = cg_two_sum(x, n);
  return cg_stirling(w.hi, y, w.lo) - cg_log_rising(x, y, n);
}

// log(1 - e^(2 pi i z)) for Im z = y >= 0, on the principal branch (its
// argument is Re >= 0): with d = x - rint(x) and a = -2 pi y,
// 1 - e^(a + 2 pi i d) = (2 sin^2(pi d) - expm1(a) cos(2 pi d)) - i e^a sin(2 pi d),
// both terms of the real part >= 0 or the first >= 1; near a pole (d and
// y below 1e-20) it is 2 pi (y - i d) to 1e-20 relative.
__device__ inline cg_c cg_log_1m_exp2piz(double x, double y) {
  double d = x - ::rint(x);
  if (::fabs(d) < 1e-20 && y < 1e-20) {
    cg_c l = cg_log(y, -d);
    return cg_c(l.re + CG_LOG_2PI, l.im);
  }
  double a = -2.0 * detail::PI * y;
  double s = ::sinpi(d);
  double re = 2.0 * s * s - ::expm1(a) * ::cospi(2.0 * d);
  double im = -::exp(a) * ::sinpi(2.0 * d);
  return cg_log(re, im);
}

// loggamma(x + iy) for y >= 0, finite, not a pole.
__device__ __noinline__ cg_c cg_loggamma_upper(double x, double y) {
  if (x < 0.0 && y < 7.0) {
    // Hare's reflection: log(2 pi) - i pi/2 + i pi z - log(1 - e^(2 pi i z))
    // - loggamma(1 - z), with loggamma(1 - z) = conj(loggamma(1 - x + iy)).
    cg_c r = cg_loggamma_right(1.0 - x, y);
    cg_c u = cg_log_1m_exp2piz(x, y);
    double re = (CG_LOG_2PI - detail::PI * y) - u.re - r.re;
    double im = ((detail::PI * x - 0.5 * detail::PI) - u.im) + r.im;
    return cg_c(re, im);
  }
  return cg_loggamma_right(x, y);
}

__device__ __forceinline__ bool cg_pole(double x, double y) {
  return y == 0.0 && x <= 0.0 && x == ::floor(x);
}

// SciPy's Gamma(-k + iy) for y subnormal (k = 0, 1, ...), where Gamma's
// imaginary part overflows: SciPy takes exp(loggamma) there, loggamma's
// real part log pi - log(pi |y|) - log k! from the subnormal (rounded)
// pi |y|, its imaginary part -+(k + 1/2) pi, and the exp of C99's cexp
// that scales by e^709 first (glibc). Reproduced so that the finite part
// beside the infinity is SciPy's.
__device__ __noinline__ cg_c cg_gamma_pole_scipy(int k, double y) {
  double s = detail::PI * ::fabs(y);
  // log pi and e^709 correctly rounded; log k! exactly 0 for k < 2.
  double lr = 1.1447298858494002 - ::log(::sinh(s));
  if (k > 1) lr -= ::lgamma(1.0 + k);
  double phi = -(2.0 * k + 1.0) * (0.5 * detail::PI);
  if (y < 0.0) phi = -phi;
  double sn, cs;
  ::sincos(phi, &sn, &cs);
  if (lr > 709.0) {
    double e = ::exp(lr - 709.0), et = 8.218407461554972e307;
    return cg_c(e * (cs * et), e * (sn * et));
  }
  double e = ::exp(lr);
  return cg_c(e * cs, e * sn);
}

// Gamma(x + iy) for x >= 0, y >= 0, finite, |z| >= 2^-60.
__device__ __noinline__ cg_c cg_gamma_right(double x, double y) {
  if (x < 7.0 && y < 3.5) {
    double d1 = x - 1.0;
    if (d1 * d1 + y * y < 0.0625) return cuprum::exp(cg_loggamma_at1(cg_c(d1, y)));
    cg_strip s = cg_strip_of(x, y);
    cg_c g = cuprum::exp(cg_strip_series<false>(s.k, s.e));
    if (s.m > 0) g = g * cg_rising(x - s.m, y, s.m);
    if (s.m < 0) g = g / cg_rising(x, y, -s.m);
    return g;
  }
  if (x < 7.0 && y < 7.0) {
    int n = (int)::ceil(7.0 - x);
    cg_dd w = cg_two_sum(x, n);
    return cg_exp_stirling(w.hi, y, 1.0, w.lo) / cg_rising(x, y, n);
  }
  return cg_exp_stirling(x, y, 1.0);
}

// 1/Gamma(x + iy) for x >= 0, y >= 0, finite, |z| >= 2^-60.
__device__ __noinline__ cg_c cg_rgamma_right(double x, double y) {
  if (x < 7.0 && y < 3.5) {
    double d1 = x - 1.0;
    if (d1 * d1 + y * y < 0.0625) return cuprum::exp(-cg_loggamma_at1(cg_c(d1, y)));
    cg_strip s = cg_strip_of(x, y);
    cg_c g = cuprum::exp(-cg_strip_series<false>(s.k, s.e));
    if (s.m > 0) g = g / cg_rising(x - s.m, y, s.m);
    if (s.m < 0) g = g * cg_rising(x, y, -s.m);
    return g;
  }
  if (x < 7.0 && y < 7.0) {
    int n = (int)::ceil(7.0 - x);
    cg_dd w = cg_two_sum(x, n);
    return cg_exp_stirling(w.hi, y, -1.0, w.lo) * cg_rising(x, y, n);
  }
  return cg_exp_stirling(x, y, -1.0);
}

// sin(pi z) for z = x + iy: sinpi and cospi reduce x exactly, and pi y
// is a double-double, so that cosh and sinh keep their accuracy at large y.
__device__ __forceinline__ cg_c cg_sinpi(double x, double y) {
  cg_dd py = cg_two_prod(3.141592653589793, y);
  py.lo = ::fma(1.2246467991473532e-16, y, py.lo);
  double ch = ::cosh(py.hi), sh = ::sinh(py.hi);
  return cg_c(::sinpi(x) * ::fma(py.lo, sh, ch), ::cospi(x) * ::fma(py.lo, ch, sh));
}

// Gamma(z)^sign for Re z <= -6, 0 <= Im z < 7, by the reflection DLMF 5.5.3,
// Gamma(z) = exp(log pi - loggamma(1 - z)) / sin(pi z), loggamma(1 - z) =
// conj(loggamma(1 - x + iy)) by Stirling (double-double below 2^26) and
// sin(pi z) from sinpi and cospi. The exponent's and sin's powers of two
// are taken out and put back with ldexp, so that nothing over- or
// underflows before the result does; where the exponent is past 1e4 (Re z
// near -1e4 and below) the result is 0 or inf, with the phase of
// exp(exponent - log sin(pi z)), and past Re z = -2^26 SciPy's
// exp(+-loggamma(z)).
__device__ __noinline__ cg_c cg_exp_reflect(double x, double y, double sign) {
  const double ln2_hi = 0.6931471805599453, ln2_lo = 2.3190468138462996e-17;
  cg_dd w = cg_two_sum(1.0, -x);
  if (w.hi >= 0x1p26) {
    // Gamma is 0 or inf here; its phase has no digit left: SciPy's
    // exp(+-loggamma), whose last bits set the signs.
    cg_c l = cg_loggamma_upper(x, y);
    return cuprum::exp(sign < 0.0 ? -l : l);
  }
  cg_c s = cg_sinpi(x, y);
  cg_dd re, im;
  cg_stirling_dd(w.hi, y, w.lo, re, im);
  const cg_dd log_pi = {1.1447298858494002, 1.0265951162707826e-17};
  // Gamma(z)^sign = exp(sign (log pi - conj(E))) sin(pi z)^-sign.
  cg_dd ar = cg_dd_add(log_pi, cg_dd_neg(re)), ai = im;
  if (sign < 0.0) {
    ar = cg_dd_neg(ar);
    ai = cg_dd_neg(ai);
  }
  if (::fabs(ar.hi) > 1e4) {
    cg_c ls = cg_log(s.re, s.im);
    return cuprum::exp(cg_c(ar.hi - sign * ls.re, ai.hi - sign * ls.im));
  }
  double k = ::rint(ar.hi / ln2_hi);
  cg_dd kl = cg_two_prod(k, ln2_hi);
  kl.lo = ::fma(k, ln2_lo, kl.lo);
  cg_c m = cg_exp_dd(cg_dd_add(ar, cg_dd_neg(kl)), ai);
  double big = ::fabs(s.re) > ::fabs(s.im) ? ::fabs(s.re) : ::fabs(s.im);
  int j;
  ::frexp(big, &j);
  cg_c sn(::ldexp(s.re, -j), ::ldexp(s.im, -j));
  cg_c q = sign > 0.0 ? m / sn : m * sn;
  int e = (int)k - (sign > 0.0 ? j : -j);
  return cg_c(::ldexp(q.re, e), ::ldexp(q.im, e));
}

// psi(x + iy) for y >= 0 and x >= 0 or y >= 16 (finite).
__device__ __noinline__ cg_c cg_digamma_right(double x, double y) {
  const double x0_hi = 1.4616321449683622, x0_lo = 9.549995429965697e-17;
  double h = (x - x0_hi) - x0_lo;
  if (h * h + y * y < 0.1225) {
    // psi(x0 + h) = sum_k (-1)^(k+1) zeta(k+1, x0) h^k (DLMF 5.15.1).
    const double c[28] = {
        0.9676722454476212,     -0.4427631689835921,    0.258499760955651,
        -0.16394270544240652,   0.10782405069126237,    -0.07219956125645471,
        0.04880428816414311,    -0.03316112647484736,   0.022597648232218104,
        -0.01542476590494896,   0.010538791616612175,   -0.007204534386356869,
        0.004926781395729853,   -0.003369801655439328,  0.002305126326734928,
        -0.0015769367714301972, 0.0010788252019162967,  -0.0007380709389960052,
        0.000504953265834602,   -0.0003454680251063077, 0.00023635601564027053,
        -0.00016170622091974803, 0.0001106337276874741, -7.569179582195066e-05,
        5.178575795222081e-05,  -3.5430070947659604e-05, 2.424006611860132e-05,
        -1.6584242271854135e-05};
    cg_c e(h, y);
    cg_c p(c[27]);
#pragma unroll
    for (int k = 26; k >= 0; --k) p = p * e + c[k];
    return p * e;
  }
  if (x < 7.0 && y < 3.5) {
    cg_strip s = cg_strip_of(x, y);
    cg_c p = cg_strip_series<true>(s.k, s.e);
    // psi(w + m) = psi(w) + sum_{j<m} 1/(w + j); psi(z) = psi(z + n) - sum_{j<n} 1/(z + j).
    double w = x - s.m;
    for (int j = 0; j < s.m; ++j) p += cg_c(1.0) / cg_c(w + j, y);
    for (int j = 0; j < -s.m; ++j) p -= cg_c(1.0) / cg_c(x + j, y);
    return p;
  }
  if (x < 7.0 && y < 7.0) {
    int n = (int)::ceil(7.0 - x);
    cg_dd w = cg_two_sum(x, n);
    cg_c p = cg_digamma_asymptotic(w.hi, y, w.lo);
    for (int j = 0; j < n; ++j) p -= cg_c(1.0) / cg_c(x + j, y);
    return p;
  }
  return cg_digamma_asymptotic(x, y);
}

// Sum_k c_k e^(k+1) (a series without constant term, real coefficients).
template <int N>
__device__ __forceinline__ cg_c cg_root_series(const double (&c)[N], cg_c e) {
  cg_c p(c[N - 1]);
#pragma unroll
  for (int k = N - 2; k >= 0; --k) p = p * e + c[k];
  return p * e;
}

// psi near its negative roots r_n in (-n, 1 - n), n = 1..4, where the
// reflection cancels: psi(r_n + h) = sum_k psi^(k)(r_n) / k! h^k for |h| <
// 0.05 (r1) or 0.1 (r2..r4). False outside those disks.
__device__ __noinline__ bool cg_digamma_near_root(double x, double y, cg_c& out) {
  if (x <= -4.0) return false;
  int n = (int)-::floor(x);
  if (n == 1) {
    double h = (x - (-0.5040830082644554)) - (-8.15428206243813e-18);
    if (h * h + y * y >= 0.0025) return false;
    const double c[17] = {
        8.939798558792134, -0.8093454625306507, 32.258572064915505,
        -2.761011648790828, 128.27342343090902, -14.70672173553036,
        513.2704629562862, -75.37700066344631, 2055.5357119463315,
        -368.5783503832191, 8234.667099203069, -1743.364608867363,
        32997.785655255044, -8051.818155363498, 132262.95480834588,
        -36529.94596948565, 530280.3912420176};
    out = cg_root_series(c, cg_c(h, y));
    return true;
  }
  if (n == 2) {
    double h = (x - (-1.5734984731623904)) - (-1.574185691077347e-17);
    if (h * h + y * y >= 0.01) return false;
    const double c[28] = {
        9.941513615924176, -7.802593974782628, 39.911910808498966,
        -54.82093287162743, 194.4376179574295, -340.5781696501909,
        998.8875783432551, -1992.4996040262852, 5280.90721723033,
        -11319.594764761363, 28392.778384038458, -63341.621003608976,
        154145.9448243582, -351599.7910103957, 841503.4207747859,
        -1943181.342358103, 4608154.024613989, -10713767.831316479,
        25278398.938754097, -58993192.05385585, 138800078.37784168,
        -324599498.0350916, 762537849.2688279, -1785338714.8001394,
        4190456567.903232, -9817428126.535824, 23032032608.20299,
        -53978642372.9445};
    out = cg_root_series(c, cg_c(h, y));
    return true;
  }
  if (n == 3) {
    double h = (x - (-2.6107208684441447)) - (9.881960746978353e-17);
    if (h * h + y * y >= 0.01) return false;
    const double c[30] = {
        10.84832879920919, -12.770725694247192, 51.217352382808855,
        -100.2036323192089, 306.843080795829, -706.7052450573435,
        1948.0852652620983, -4786.785969940508, 12652.372604354454,
        -31919.2289457462, 82949.8731907648, -211523.43319593722,
        545930.3505014677, -1398224.70739006, 3598689.520560963,
        -9233265.531308448, 23737270.807886213, -60947395.49249487,
        156614068.50404468, -402237440.62896353, 1033420152.2070676,
        -2654485713.20714, 6819332105.297987, -17517266261.77796,
        45000193293.40704, -115597225647.38393, 296954570712.59143,
        -762827808475.693, 1959597639924.4612, -5033902737690.281};
    out = cg_root_series(c, cg_c(h, y));
    return true;
  }
  if (n == 4) {
    double h = (x - (-3.635293366436901)) - (5.454396163173039e-17);
    if (h * h + y * y >= 0.01) return false;
    const double c[31] = {
        11.650939359651861, -16.938337607821335, 63.16205964241572,
        -145.45199182008608, 440.37818718162464, -1141.3233980389668,
        3232.6440925841607, -8700.78423006634, 24112.90022627927,
        -65712.73440774584, 180814.05819229368, -494780.80672965344,
        1358226.093813731, -3721686.383217015, 10208497.556997271,
        -27984853.560869675, 76742154.734458, -210406414.22026286,
        576943534.3265252, -1581901055.2067955, 4337520941.919529,
        -11893084835.87434, 32610150937.01554, -89414514768.86761,
        245168689511.3904, -672234772189.3932, 1843221479852.8743,
        -5053982551790.693, 13857667782700.045, -37996749238107.65,
        104184425943740.9};
    out = cg_root_series(c, cg_c(h, y));
    return true;
  }
  return false;
}

}  // namespace detail

// loggamma(z), the principal branch (see the header's notes).
__device__ __noinline__ cuprum::complex<double> loggamma(const cuprum::complex<double>& z) {
  using detail::cg_c;
  const double x = z.re, y = z.im;
  const double nan = detail::cg_nan(), inf = detail::cg_inf();
  if (x != x || y != y || ::fabs(x) == inf) return cg_c(nan, nan);
  // Stirling's limit: Re (w - 1/2) log w - w is -inf for Re w < 1/2, inf - inf above.
  if (::fabs(y) == inf) return x < 0.5 ? cg_c(-inf, nan) : cg_c(nan, nan);
  if (detail::cg_pole(x, y)) return cg_c(nan, nan);
  cg_c r = detail::cg_loggamma_upper(x, ::fabs(y));
  if (y == 0.0 && x > 0.0) return cg_c(r.re, 0.0);
  return cuprum::signbit(y) ? cuprum::conj(r) : r;
}
__device__ __forceinline__ cuprum::complex<float> loggamma(const cuprum::complex<float>& z) {
  return cuprum::complex<float>(loggamma(cuprum::complex<double>(z)));
}

// Gamma(z): NaN at the poles and for an infinite real part; exp of
// Stirling's limit for an infinite imaginary part (0 below Re z = 1/2).
__device__ __noinline__ cuprum::complex<double> gamma(const cuprum::complex<double>& z) {
  using detail::cg_c;
  const double x = z.re, y = z.im;
  const double nan = detail::cg_nan(), inf = detail::cg_inf();
  if (x != x || y != y || ::fabs(x) == inf) return cg_c(nan, nan);
  if (::fabs(y) == inf) return x < 0.5 ? cg_c(0.0, -0.0) : cg_c(nan, nan);
  if (detail::cg_pole(x, y)) return cg_c(nan, nan);
  double ax = ::fabs(x), ay = ::fabs(y);
  if ((ax > ay ? ax : ay) < 0x1p-60) {
    // DLMF 5.7.1: Gamma(z) = 1/z - gamma + O(z).
    cg_c r = detail::cg_recip(x, y);
    r = cg_c(r.re - detail::CG_EULER, r.im);
    if (x == 0.0 && !cuprum::isfinite(r.im)) return detail::cg_gamma_pole_scipy(0, y);
    return r;
  }
  cg_c g;
  if (x < 0.0 && ay < 7.0) {
    double n = ::rint(x);
    double d = x - n;
    if (x > -160.0 && ::fabs(d) < 1e-20 && ay < 1e-20) {
      // Near the pole -k: Gamma(-k + t) = (-1)^k / k! (1/t + psi(k + 1)) + O(t)
      // (DLMF 5.7.1 with 5.5.1), where sin(pi z) would be subnormal.
      int k = (int)-n;
      double f = 1.0, hk = 0.0;
      for (int j = 1; j <= k; ++j) {
        f *= j;
        hk += 1.0 / j;
      }
      cg_c r = detail::cg_recip(d, ay);
      double s = (k & 1) ? -1.0 : 1.0;
      g = cg_c(s * (r.re + (hk - detail::CG_EULER)) / f, s * r.im / f);
      if (d == 0.0 && !cuprum::isfinite(g.im)) g = detail::cg_gamma_pole_scipy(k, ay);
    } else if (x > -6.0) {
      // DLMF 5.5.3: Gamma(z) = pi / (sin(pi z) Gamma(1 - z)).
      cg_c gr = cuprum::conj(detail::cg_gamma_right(1.0 - x, ay));
      g = cg_c(detail::PI) / (detail::cg_sinpi(x, ay) * gr);
    } else {
      g = detail::cg_exp_reflect(x, ay, 1.0);
    }
  } else if (x < 0.0) {
    g = detail::cg_exp_stirling(x, ay, 1.0);
  } else {
    g = detail::cg_gamma_right(x, ay);
  }
  if (y == 0.0 && x > 0.0) return cg_c(g.re, 0.0);
  return cuprum::signbit(y) ? cuprum::conj(g) : g;
}
__device__ __forceinline__ cuprum::complex<float> gamma(const cuprum::complex<float>& z) {
  return cuprum::complex<float>(gamma(cuprum::complex<double>(z)));
}

// 1/Gamma(z): 0 at the poles (and at -inf on the real axis), NaN for +inf
// and other infinite real parts.
__device__ __noinline__ cuprum::complex<double> rgamma(const cuprum::complex<double>& z) {
  using detail::cg_c;
  const double x = z.re, y = z.im;
  const double nan = detail::cg_nan(), inf = detail::cg_inf();
  if (x != x || y != y) return cg_c(nan, nan);
  if (x == -inf && y == 0.0) return cg_c(0.0, 0.0);
  if (::fabs(x) == inf) return cg_c(nan, nan);
  if (::fabs(y) == inf) return x < 0.5 ? cg_c(inf, nan) : cg_c(nan, nan);
  if (detail::cg_pole(x, y)) return cg_c(0.0, 0.0);
  double ax = ::fabs(x), ay = ::fabs(y);
  if ((ax > ay ? ax : ay) < 0x1p-60) {
    // DLMF 5.7.1: 1/Gamma(z) = z + gamma z^2 + O(z^3).
    cg_c z2(x * x - y * y, 2.0 * x * y);
    cg_c r(x + detail::CG_EULER * z2.re, y + detail::CG_EULER * z2.im);
    if (y == 0.0) return cg_c(r.re, -0.0);
    return r;
  }
  cg_c g;
  if (x < 0.0 && ay < 7.0) {
    double n = ::rint(x);
    double d = x - n;
    if (x > -160.0 && ::fabs(d) < 1e-20 && ay < 1e-20) {
      // 1/Gamma(-k + t) = (-1)^k k! t + O(t^2) (DLMF 5.7.1 with 5.5.1).
      int k = (int)-n;
      double f = 1.0;
      for (int j = 1; j <= k; ++j) f *= j;
      double s = (k & 1) ? -f : f;
      g = cg_c(s * d, s * ay);
    } else if (x > -6.0) {
      // DLMF 5.5.3: 1/Gamma(z) = sin(pi z) Gamma(1 - z) / pi.
      cg_c gr = cuprum::conj(detail::cg_gamma_right(1.0 - x, ay));
      g = (detail::cg_sinpi(x, ay) * gr) / detail::PI;
    } else {
      g = detail::cg_exp_reflect(x, ay, -1.0);
    }
  } else if (x < 0.0) {
    g = detail::cg_exp_stirling(x, ay, -1.0);
  } else {
    g = detail::cg_rgamma_right(x, ay);
  }
  if (y == 0.0 && x > 0.0) return cg_c(g.re, -0.0);
  return cuprum::signbit(y) ? cuprum::conj(g) : g;
}
__device__ __forceinline__ cuprum::complex<float> rgamma(const cuprum::complex<float>& z) {
  return cuprum::complex<float>(rgamma(cuprum::complex<double>(z)));
}

// psi(z): NaN at the poles; log z's limits at infinity (SciPy's values:
// inf + i arg z, NaN for Re z = -inf with |Im z| < 16, where the reflection
// is taken).
__device__ __noinline__ cuprum::complex<double> digamma(const cuprum::complex<double>& z) {
  using detail::cg_c;
  const double x = z.re, y = z.im;
  const double nan = detail::cg_nan(), inf = detail::cg_inf();
  const double pi = detail::PI;
  if (x != x) return cg_c(::fabs(y) == inf ? inf : nan, nan);
  if (y != y) return cg_c(::fabs(x) == inf ? inf : nan, nan);
  if (x == inf) return cg_c(inf, ::fabs(y) == inf ? ::copysign(0.25 * pi, y) : 0.0);
  if (x == -inf) {
    if (::fabs(y) == inf) return cg_c(inf, ::copysign(0.75 * pi, y));
    if (::fabs(y) >= 16.0) return cg_c(inf, ::copysign(pi, y));
    return cg_c(nan, nan);
  }
  if (::fabs(y) == inf) return cg_c(inf, ::copysign(0.5 * pi, y));
  if (detail::cg_pole(x, y)) return cg_c(nan, nan);
  double ax = ::fabs(x), ay = ::fabs(y);
  if ((ax > ay ? ax : ay) < 0x1p-60) {
    // DLMF 5.7.6 at 0: psi(z) = -1/z - gamma + O(z); 1/z by Smith's
    // division, whose 0 * inf at a subnormal z gives SciPy's NaN parts.
    cg_c r = cg_c(1.0) / z;
    return cg_c(-r.re - detail::CG_EULER, -r.im);
  }
  cg_c p;
  if (x < 0.0 && ay < 16.0) {
    double n = ::rint(x);
    double d = x - n;
    if (detail::cg_digamma_near_root(x, ay, p)) {
      // p is the Taylor series at the root.
    } else if (::fabs(d) < 1e-20 && ay < 1e-20) {
      // Near the pole n: psi(n + t) = -1/t + psi(1 - n) + O(t) (DLMF 5.5.4),
      // 1/t by Smith's division as at 0.
      cg_c r = cg_c(1.0) / cg_c(d, ay);
      cg_c q = detail::cg_digamma_right(1.0 - n, 0.0);
      p = cg_c(q.re - r.re, -r.im);
    } else {
      // DLMF 5.5.4: psi(z) = psi(1 - z) - pi cot(pi z), psi(1 - z) =
      // conj(psi(1 - x + iy)); cot from sin and cos of pi z.
      cg_c q = cuprum::conj(detail::cg_digamma_right(1.0 - x, ay));
      double py = pi * ay;
      double sp = ::sinpi(x), cp = ::cospi(x), ch = ::cosh(py), sh = ::sinh(py);
      cg_c cot = cg_c(cp * ch, -sp * sh) / cg_c(sp * ch, cp * sh);
      p = cg_c(q.re - pi * cot.re, q.im - pi * cot.im);
    }
  } else {
    p = detail::cg_digamma_right(x, ay);
  }
  if (y == 0.0) return cg_c(p.re, 0.0);
  return cuprum::signbit(y) ? cuprum::conj(p) : p;
}
__device__ __forceinline__ cuprum::complex<float> digamma(const cuprum::complex<float>& z) {
  return cuprum::complex<float>(digamma(cuprum::complex<double>(z)));
}

}  // namespace special
}  // namespace cuprum
