// The error function family and the normal distribution of
// scipy.special: erf, erfc, erfcx, erfinv, erfcinv, ndtr, log_ndtr, ndtri.
//
// erf, erfc, erfcx and the inverses are CUDA's libdevice functions (CUDA
// Math API, "Mathematical Functions", with their stated ulp bounds),
// measured against mpmath in docs/special-accuracy.md, with SciPy's
// special values.
// ndtr follows Cephes' split (W. J. Cody's erf/erfc, as Cephes `ndtr.c`
// does: erf near 0, erfc in the tails) with the rounding of x/sqrt(2)
// corrected to first order, which SciPy leaves in.
// The complex loops of erf, erfc, erfcx, ndtr and log_ndtr (at the end)
// rest on the Faddeeva function w(z) = exp(-z^2) erfc(-iz).
#pragma once

#include "cuprum/complex.cuh"
#include "cuprum/special/common.cuh"

namespace cuprum {
namespace special {

__device__ __forceinline__ double erf(double x) { return ::erf(x); }
__device__ __forceinline__ double erfc(double x) { return ::erfc(x); }
__device__ __forceinline__ double erfcx(double x) { return ::erfcx(x); }

// erfinv: +-inf at +-1, NaN outside [-1, 1] (SciPy's domain), +0 at -0
// as SciPy's.
__device__ __forceinline__ double erfinv(double x) {
  if (x == 0.0) return 0.0;
  if (x == 1.0) return detail::inf();
  if (x == -1.0) return -detail::inf();
  if (!(::fabs(x) < 1.0)) return detail::nan();
  return ::erfinv(x);
}

// erfcinv: inf at 0, -inf at 2, NaN outside [0, 2], -0 at 1 as SciPy's.
// Below 1e-300 (down to the denormals, where SciPy returns inf though the
// value is finite, 27.2133 at 5e-324) it solves erfc(t) = x as
// t^2 = log(erfcx(t)) - log(x) (DLMF 7.2.3) by fixed-point iteration from
// t = sqrt(-log x); the map contracts by about 1 / (2 t^2) < 1e-3.
__device__ __forceinline__ double erfcinv(double x) {
  if (x == 1.0) return -0.0;
  if (x == 0.0) return detail::inf();
  if (x == 2.0) return -detail::inf();
  if (!(x > 0.0 && x < 2.0)) return detail::nan();
  if (x < 1e-300) {
    double lx = ::log(x);
    double t = ::sqrt(-lx);
    for (int i = 0; i < 8; ++i) t = ::sqrt(::log(::erfcx(t)) - lx);
    return t;
  }
  return ::erfcinv(x);
}

// ndtr(x) = (1 + erf(x / sqrt 2)) / 2. z = x / sqrt 2 rounds; its error
// dz (from an fma) moves erfc by -2/sqrt(pi) e^{-z^2} dz, which matters in
// the tails where erfc's relative slope is about 2 z.
__device__ __forceinline__ double ndtr(double x) {
  if (detail::is_nan(x)) return x;
  if (detail::is_inf(x)) return x < 0 ? 0.0 : 1.0;
  const double r_hi = 0.70710678118654757;    // 1/sqrt(2) rounded
  const double r_lo = -4.8336466567264567e-17;  // 1/sqrt(2) - r_hi
  double z = __dmul_rn(x, r_hi);
  double dz = ::fma(x, r_hi, -z) + x * r_lo;
  double az = ::fabs(z);
  if (az < r_hi) return 0.5 + 0.5 * ::erf(z);
  // d/dz (erfc(-z) / 2) = e^{-z^2} / sqrt(pi): the lower tail gains
  // that times dz (the upper one too, below the rounding of 1 - y).
  const double rsqrt_pi = 0.56418958354775628;
  if (z < 0) return 0.5 * ::erfc(-z) + rsqrt_pi * ::exp(-z * z) * dz;
  double y = 0.5 * ::erfc(z);
  return 1.0 - y;
}

// ndtri(p): the inverse of ndtr. For p in [1/4, 3/4], y = 2p - 1 is exact
// and t = sqrt(2) z with z = erfinv(y), polished by one Newton step on
// erf(z) = y (DLMF 7.17); outside, q = min(p, 1 - p) (exact),
// t = -sqrt(2) erfcinv(2q), polished by one Newton step on ndtr(t) = q
// written with the Mills ratio ndtr(t) / phi(t) = sqrt(pi/2)
// erfcx(-t / sqrt 2) (DLMF 7.2.3) so that nothing underflows; skipped
// below q = 1e-290 where ndtr loses precision to the denormals.
// -inf at 0, inf at 1, NaN outside [0, 1], +0 at 1/2 as SciPy's.
__device__ inline double ndtri(double p) {
  if (detail::is_nan(p)) return p;
  if (p == 0.0) return -detail::inf();
  if (p == 1.0) return detail::inf();
  if (!(p > 0.0 && p < 1.0)) return detail::nan();
  const double sqrt2 = 1.4142135623730951;
  if (p >= 0.25 && p <= 0.75) {
    double y = 2.0 * p - 1.0;
    if (y == 0.0) return 0.0;
    double z = ::erfinv(y);
    const double two_rsqrt_pi = 1.1283791670955126;
    z -= (::erf(z) - y) / (two_rsqrt_pi * ::exp(-z * z));
    return sqrt2 * z;
  }
  double q = p < 0.5 ? p : 1.0 - p;
  double t = -sqrt2 * erfcinv(2.0 * q);
  if (q >= 1e-290) {
    double c = ndtr(t);
    double mills = 1.2533141373155003 * ::erfcx(-t * 0.70710678118654757);
    t -= (1.0 - q / c) * mills;
  }
  return p < 0.5 ? t : -t;
}
CUPRUM_SPECIAL_F1(ndtri)

// log_ndtr(x) = log(ndtr(x)): log1p(-ndtr(-x)) for x > 0, log(ndtr(x)) on
// [-1, 0], and for x < -1 log(erfcx(-x / sqrt 2) / 2) - x^2 / 2 with x^2
// split exactly by an fma (DLMF 7.2.3, 7.2.2). -inf at -inf, -0 at +inf
// as SciPy's.
__device__ inline double log_ndtr(double x) {
  if (detail::is_nan(x)) return x;
  if (x > 0.0) return ::log1p(-ndtr(-x));
  if (x >= -1.0) return ::log(ndtr(x));
  if (detail::is_inf(x)) return -detail::inf();
  double hi = __dmul_rn(x, x), lo = ::fma(x, x, -hi);
  if (detail::is_inf(hi)) return -detail::inf();
  return (::log(0.5 * ::erfcx(-x * 0.70710678118654757)) - 0.5 * lo) - 0.5 * hi;
}
CUPRUM_SPECIAL_F1(log_ndtr)

// float32 erf in float: CUDA's erff is within 2 ulp, and the double
// evaluation costs twice the memory time of 2^28 elements on the H200.
__device__ __forceinline__ float erf(float x) { return ::erff(x); }
CUPRUM_SPECIAL_F1(erfc)
CUPRUM_SPECIAL_F1(erfcx)
CUPRUM_SPECIAL_F1(erfinv)
CUPRUM_SPECIAL_F1(erfcinv)
CUPRUM_SPECIAL_F1(ndtr)

// ---------------------------------------------------------------------------
// The complex loops of erf, erfc, erfcx, ndtr and log_ndtr (SciPy's D->D,
// and F->F as the complex128 value rounded once), all through the Faddeeva
// function w(z) = exp(-z^2) erfc(-iz) (DLMF 7.2.3) of the closed upper
// half plane:
//   erfcx(z) = w(iz) for Re z >= 0, 2 exp(z^2) - w(-iz) otherwise (DLMF 7.4.3);
//   erfc(z) = exp(-z^2) w(iz) for Re z >= 0, 2 - erfc(-z) otherwise;
//   erf(z) = 1 - erfc(z) for Re z >= 0 and |z| >= 1, erf(-z) = -erf(z),
//     and its Maclaurin series (DLMF 7.6.1) for |z| < 1;
//   ndtr(z) = erfc(-z / sqrt 2) / 2, log_ndtr(z) = log(ndtr(z)) (principal
//     branch, imaginary part in [-pi, pi) as SciPy's) as
//     -z^2/2 + log(w / 2) for Re z <= 0 and log1p(-ndtr(-z)) for Re z > 0.
// exp(-z^2) takes z^2 as a double-double (exact products by fma), so that
// neither its modulus nor its phase loses the digits that |z|^2 times the
// rounding of z^2 would cost; ndtr's exp(-z^2/2) is formed from z itself,
// not from the rounded z / sqrt 2.
//
// w(z), Im z >= 0, by three methods:
// - |z| < 1/2: its Maclaurin series sum_k (iz)^k / Gamma(k/2 + 1) (DLMF
//   7.6.3; erf's own series, DLMF 7.6.1, serves erf, erfc, ndtr and
//   log_ndtr there, and erfcx = exp(z^2) (1 - erf z) for Re z < 0, |z| < 1);
// - |z| >= 7 or Im z >= 5: Laplace's continued fraction
//   w(z) = (i / sqrt pi) / (z - (1/2) / (z - 1 / (z - (3/2) / (z - ...))))
//   (Gautschi 1970, SIAM J. Numer. Anal. 7, 187; Poppe & Wijers 1990, ACM
//   TOMS 16, 38), evaluated backward with 5 + 80 / |z| terms (measured
//   against mpmath: a truncation error below 1e-17 over the region);
// - elsewhere the trapezoidal rule of w(z) = (i/pi) int e^{-t^2} / (z - t) dt
//   on the nodes t = n a, a = 7/16, with the correction for the pole at
//   t = z (Matta & Reichel 1971, Math. Comp. 25, 339; Zaghloul & Ali 2011,
//   ACM TOMS 38, 15, "Algorithm 916"; Weideman 1994, SIAM J. Numer. Anal.
//   31, 1497, for the analysis):
//     w(z) = (i a / pi) sum_n e^{-n^2 a^2} / (z - n a)
//            + 2 e^{-z^2} / (1 - e^{-2 pi i z / a}) + O(e^{-pi^2 / a^2}),
//   |n| <= 16 (e^{-pi^2/a^2} ~ 4e-23). The pole term is singular at the
//   nodes, where it cancels the node's own term; the node m nearest to
//   Re z is merged with it:
//     e^{-m^2 a^2} [1 - e^{A} s / sin s] / (z - m a),
//     s = pi (z - m a) / a,  A = (z - m a) (pi i / a - (z + m a)),
//   with 1 - s / sin s, 1 - e^A and their quotients by z - m a from
//   series (of (s - sin s) / s^3 and expm1) for |s| < 2, so that the merged
//   term is exact to rounding up to the node itself.
// ---------------------------------------------------------------------------

namespace detail {

typedef cuprum::complex<double> cplx;

// e^{-(n a)^2}, a = 7/16, n = 0 .. 16.
__device__ static const double FADDEEVA_GAUSS[17] = {
    1.0, 0.8257970399501007, 0.4650431881340563, 0.17859113461243561, 0.04677062238395898,
    0.008352818518081014, 0.0010172778436147007, 8.448756028504651e-05, 4.785117392129009e-06,
    1.8481578772048032e-07, 4.867793902108199e-09, 8.743230754733761e-11, 1.0709232382508077e-12,
    8.945227455904632e-15, 5.095315462737445e-17, 1.9792352186549065e-19, 5.242885663363464e-22};

// (s - sin s) / s^3 = sum_k (-1)^k s^{2k} / (2k + 3)!.
__device__ static const double FADDEEVA_SINC[12] = {
    0.16666666666666666, -0.008333333333333333, 0.0001984126984126984, -2.7557319223985893e-06,
    2.505210838544172e-08, -1.6059043836821613e-10, 7.647163731819816e-13, -2.8114572543455206e-15,
    8.22063524662433e-18, -1.9572941063391263e-20, 3.868170170630684e-23, -6.446950284384474e-26};

// erf(z) = (2 / sqrt pi) sum_n (-1)^n z^{2n+1} / (n! (2n + 1)) (DLMF 7.6.1).
__device__ static const double ERF_MACLAURIN[19] = {
    1.0, -0.3333333333333333, 0.1, -0.023809523809523808, 0.004629629629629629,
    -0.0007575757575757576, 0.00010683760683760684, -1.3227513227513228e-05,
    1.4589169000933706e-06, -1.4503852223150468e-07, 1.3122532963802806e-08,
    -1.0892221037148573e-09, 8.35070279514724e-11, -5.9477940136376354e-12,
    3.9554295164585257e-13, -2.466827010264457e-14, 1.4483264643598138e-15,
    -8.032735012415773e-17, 4.221407288807088e-18};

// w(z) = sum_k (iz)^k / Gamma(k/2 + 1) (DLMF 7.6.3 with 7.2.3).
__device__ static const double FADDEEVA_MACLAURIN[27] = {
    1.0, 1.1283791670955126, 1.0, 0.7522527780636751, 0.5, 0.30090111122547003,
    0.16666666666666666, 0.08597174606442, 0.041666666666666664, 0.01910483245876,
    0.008333333333333333, 0.0034736059015927274, 0.001388888888888889, 0.0005344009079373427,
    0.0001984126984126984, 7.125345439164569e-05, 2.48015873015873e-05, 8.38275934019361e-06,
    2.7557319223985893e-06, 8.823957200203801e-07, 2.755731922398589e-07, 8.403768762098858e-08,
    2.505210838544172e-08, 7.307625010520746e-09, 2.08767569878681e-09, 5.846100008416597e-10,
    1.6059043836821613e-10};

constexpr double RSQRT_PI = 0.5641895835477563;      // 1 / sqrt(pi)
constexpr double TWO_RSQRT_PI = 1.1283791670955126;  // 2 / sqrt(pi)
constexpr double RSQRT2 = 0.7071067811865476;        // 1 / sqrt(2)
constexpr double LN2 = 0.6931471805599453;
constexpr double TWO_PI_HI = 6.283185307179586;
constexpr double TWO_PI_LO = 2.4492935982947064e-16;

__device__ __forceinline__ cplx cnan() { return cplx(nan(), nan()); }

// z^2 = (x - y)(x + y) + 2ixy as double-doubles: re = rh + rl, im = ih + il,
// each to about 2^-104 relative (the low parts 0 where the high part
// overflows).
__device__ inline void square_dd(double x, double y, double& rh, double& rl, double& ih,
                                 double& il) {
  double p = x - y, q = x + y;
  double h = __dmul_rn(p, q);
  if (::fabs(h) < inf()) {
    // The rounding errors of x - y and x + y (two-sum), then of p q (fma).
    double bp = p - x, ep = (x - (p - bp)) + (-y - bp);
    double bq = q - x, eq = (x - (q - bq)) + (y - bq);
    double l = ::fma(p, q, -h) + (p * eq + q * ep);
    rh = h + l;
    rl = l - (rh - h);
  } else {
    rh = h;
    rl = 0.0;
  }
  double xy = __dmul_rn(x, y);
  ih = 2.0 * xy;
  il = ::fabs(ih) < inf() ? 2.0 * ::fma(x, y, -xy) : 0.0;
}

// a b + c d as m 2^e, each product formed from the mantissas of its
// factors, so that neither under- nor overflows before the final scaling
// (the smaller product is aligned to the larger one).
__device__ inline double scaled_dot(double a, double b, double c, double d, int& e) {
  int ea, eb, ec, ed;
  double t1 = ::frexp(a, &ea) * ::frexp(b, &eb);
  double t2 = ::frexp(c, &ec) * ::frexp(d, &ed);
  int e1 = ea + eb, e2 = ec + ed;
  if (t1 == 0.0) { e = e2; return t2; }
  if (t2 == 0.0) { e = e1; return t1; }
  e = e1 > e2 ? e1 : e2;
  return ::ldexp(t1, e1 - e) + ::ldexp(t2, e2 - e);
}

// c exp((rh + rl) + i (ih + il)) for finite c. The phase: il to first
// order below 2^-27 (where its square is below the rounding), and beyond
// (|ih| > 2^26, where the low part of 2xy can exceed a radian) as a
// rotation by its own sine and cosine. The modulus: e^{rh + rl} = 2^k e^r
// with |r| <= ln(2)/2 (Cody & Waite's split of k ln 2); the parts of c
// times the phase as scaled products, and all powers of two applied last
// by ldexp, so that a result near the ends of the range is rounded once
// and an infinite one keeps the signs of the finite parts it comes from.
__device__ inline cplx mul_exp(const cplx& c, double rh, double rl, double ih, double il) {
  if (rh == -inf()) return cplx(0.0, 0.0);  // whatever the phase
  double sn, cs;
  cuprum::sincos_(ih, &sn, &cs);
  if (::fabs(il) < 7.450580596923828e-09) {
    double t = ::fma(cs, il, sn);
    cs = ::fma(-sn, il, cs);
    sn = t;
  } else {
    double sl, cl;
    cuprum::sincos_(il, &sl, &cl);
    double t = sn * cl + cs * sl;
    cs = cs * cl - sn * sl;
    sn = t;
  }
  if (is_nan(rh) || is_nan(sn) || is_nan(cs)) return cnan();
  const double LN2_HI = 6.93147180369123816490e-01;  // 32 bits: k LN2_HI is exact
  const double LN2_LO = 1.90821492927058770002e-10;
  const double LOG2E = 1.4426950408889634;
  int k;
  double er;
  if (::fabs(rh) < 2900.0) {
    double kd = ::rint(rh * LOG2E);
    k = (int)kd;
    er = ::exp(((rh - kd * LN2_HI) - kd * LN2_LO) + rl);
  } else {
    // Beyond any finite result: 2^+-4000 saturates ldexp.
    k = rh > 0.0 ? 4000 : -4000;
    er = 1.0;
  }
  int e_re, e_im;
  double m_re = scaled_dot(c.re, cs, -c.im, sn, e_re);
  double m_im = scaled_dot(c.re, sn, c.im, cs, e_im);
  return cplx(::ldexp(m_re * er, e_re + k), ::ldexp(m_im * er, e_im + k));
}

// w(z) for |z| < 1/2 (any half plane): its Maclaurin series, 27 terms.
__device__ inline cplx faddeeva_maclaurin(const cplx& z) {
  cplx u(-z.im, z.re);
  cplx s(FADDEEVA_MACLAURIN[26]);
  for (int k = 25; k >= 0; --k) s = s * u + FADDEEVA_MACLAURIN[k];
  return s;
}

// erf(z) for |z| < 1: its Maclaurin series, 19 terms.
__device__ inline cplx erf_maclaurin(const cplx& z) {
  cplx z2 = z * z;
  cplx s(ERF_MACLAURIN[18]);
  for (int k = 17; k >= 0; --k) s = s * z2 + ERF_MACLAURIN[k];
  return (z * s) * TWO_RSQRT_PI;
}

// w(z) for 0 <= x, 0 <= y < 5, |z| < 7: the trapezoidal rule with the
// node nearest to x merged with the pole term (see above).
__device__ __noinline__ cplx faddeeva_trapezoid(double x, double y) {
  const double A = 0.4375;                      // the step a = 7/16: n a is exact
  const double PI_A = 7.180783208205241;       // pi / a
  const double A_PI = 0.1392605752054084;      // a / pi
  int m = (int)(x * (1.0 / A) + 0.5);
  if (m > 16) m = 16;
  double y2 = y * y;
  // sum over n != m of e^{-n^2 a^2} / (z - n a) = sr - i si, the nodes +-n
  // together (so that the sum is odd in x exactly), smallest first.
  double sr = 0.0, si = 0.0;
  for (int n = 16; n >= 1; --n) {
    double g = FADDEEVA_GAUSS[n];
    double dm = x + n * A;
    double tm = g / (dm * dm + y2);
    double r = tm * dm, i = tm * y;
    if (n != m) {
      double dp = x - n * A;
      double tp = g / (dp * dp + y2);
      r += tp * dp;
      i += tp * y;
    }
    sr += r;
    si += i;
  }
  if (m != 0) {
    double t = 1.0 / (x * x + y2);
    sr += t * x;
    si += t * y;
  }
  // The node m with the pole term: e^{-m^2 a^2} T, T = [1 - e^A s / sin s] / (z - m a).
  double d = x - m * A;                  // exact (Sterbenz)
  cplx zm(d, y);                         // z - m a
  cplx b(-(x + m * A), PI_A - y);        // pi i / a - (z + m a)
  cplx s(PI_A * d, PI_A * y);            // pi (z - m a) / a
  cplx a_exp = zm * b;                   // A
  cplx t;
  if (s.re * s.re + s.im * s.im < 4.0) {
    // 1 - s / sin s = -sigma / (1 - sigma), sigma = 1 - sin(s) / s = s^2 rho(s):
    // T = -(expm1(A) / A) b - e^A (pi / a) s rho / (1 - sigma).
    cplx s2 = s * s;
    cplx rho(FADDEEVA_SINC[11]);
    for (int k = 10; k >= 0; --k) rho = rho * s2 + FADDEEVA_SINC[k];
    cplx sigma = s2 * rho;
    cplx ea = cuprum::exp(a_exp);
    cplx em1 = (a_exp.re == 0.0 && a_exp.im == 0.0) ? cplx(1.0) : cuprum::expm1(a_exp) / a_exp;
    t = -(em1 * b) - (ea * (s * rho)) * PI_A / (1.0 - sigma);
  } else {
    t = (1.0 - cuprum::exp(a_exp) * s / cuprum::sin(s)) / zm;
  }
  double gm = FADDEEVA_GAUSS[m];
  sr += gm * t.re;
  si -= gm * t.im;
  // w = (i a / pi) (sr - i si)
  return cplx(A_PI * si, A_PI * sr);
}

// w(z) for 0 <= x, 0 <= y, |z| >= 5: Laplace's continued fraction,
// backward.
__device__ __noinline__ cplx faddeeva_cf(double x, double y) {
  double r = cuprum::hypot(x, y);
  int k = 5 + (int)(80.0 / r);
  if (k > 21) k = 21;
  cplx z(x, y), t(0.0, 0.0);
  for (; k >= 1; --k) t = (0.5 * k) / (z - t);
  cplx q = 1.0 / (z - t);
  return cplx(-RSQRT_PI * q.im, RSQRT_PI * q.re);
}

// w(x + iy) for y >= 0, finite x and y; w(-conj z) = conj w(z).
__device__ inline cplx faddeeva_upper(double x, double y) {
  double ax = ::fabs(x);
  double r2 = ax * ax + y * y;
  if (r2 < 0.25) return faddeeva_maclaurin(cplx(x, y));
  cplx w = (y >= 5.0 || ax >= 7.0 || r2 >= 49.0) ? faddeeva_cf(ax, y) : faddeeva_trapezoid(ax, y);
  return x < 0.0 ? cplx(w.re, -w.im) : w;
}

// erfc(x + iy) for finite x >= 0: exp(-z^2) w(iz).
__device__ inline cplx erfc_right(double x, double y) {
  double rh, rl, ih, il;
  square_dd(x, y, rh, rl, ih, il);
  return mul_exp(faddeeva_upper(-y, x), -rh, -rl, -ih, -il);
}

// erfi(y) = -i erf(iy) = e^{y^2} Im w(y) (y real, w on the real axis).
__device__ inline double erfi_real(double y) {
  if (is_nan(y) || is_inf(y) || y == 0.0) return y;
  cplx w = faddeeva_upper(y, 0.0);
  double hy = __dmul_rn(y, y), ly = ::fabs(hy) < inf() ? ::fma(y, y, -hy) : 0.0;
  return mul_exp(cplx(0.0, w.im), hy, ly, 0.0, 0.0).im;
}

// An angle congruent to hi + lo modulo 2 pi, in [-2 pi, 2 pi]: each part
// beyond pi reduced by the library's own (exact) argument reduction
// through sin and cos.
__device__ inline double reduce_angle(double a) {
  if (::fabs(a) <= 3.141592653589793) return a;
  double sn, cs;
  cuprum::sincos_(a, &sn, &cs);
  return ::atan2(sn, cs);
}
__device__ inline double principal_angle(double hi, double lo) {
  return reduce_angle(hi) + reduce_angle(lo);
}

// t into [-pi, pi), with 2 pi as a double-double; |t| < 4 pi.
__device__ inline double wrap_angle(double t) {
  const double PI = 3.141592653589793;
  if (t >= PI) t = (t - TWO_PI_HI) - TWO_PI_LO;
  if (t >= PI) t = (t - TWO_PI_HI) - TWO_PI_LO;
  if (t < -PI) t = (t + TWO_PI_HI) + TWO_PI_LO;
  if (t < -PI) t = (t + TWO_PI_HI) + TWO_PI_LO;
  return t;
}

// log_ndtr where z^2 overflows (|z| beyond 1e154) and the real part is
// infinite: the imaginary part as SciPy forms it, from the rounded
// z' = -z / sqrt 2, fmod(-2 x' y', 2 pi) and the argument of
// w(-y' + i x') (here w_neg = that value), so that the edges match.
__device__ inline cplx log_ndtr_overflow(double x, double y, double re, const cplx& w_neg) {
  const double PI = 3.141592653589793;
  double xs = -(x * RSQRT2), ys = -(y * RSQRT2);
  double im = ::fmod((-2.0 * xs) * ys, TWO_PI_HI);
  if (im > PI) im -= TWO_PI_HI;
  im += ::atan2(w_neg.im, w_neg.re);
  if (im >= PI) im -= TWO_PI_HI;
  if (im < -PI) im += TWO_PI_HI;
  return cplx(re, im);
}

}  // namespace detail

// erfcx(z) = w(iz).
__device__ __noinline__ cuprum::complex<double> erfcx(const cuprum::complex<double>& z) {
  using detail::cplx;
  double x = z.re, y = z.im;
  // SciPy's special values; on the real axis -y is the imaginary part.
  if (y == 0.0 && !(::fabs(x) < detail::inf())) return cplx(erfcx(x), -y);
  if (detail::is_nan(x) || detail::is_nan(y)) return detail::cnan();
  if (detail::is_inf(x)) return x > 0.0 ? cplx(0.0, 0.0) : detail::cnan();
  if (detail::is_inf(y)) return cplx(0.0, y > 0.0 ? -0.0 : 0.0);
  cplx r;
  double r2 = x * x + y * y;
  if (r2 < 0.25) {
    r = detail::faddeeva_maclaurin(cplx(-y, x));
  } else if (x >= 0.0) {
    r = detail::faddeeva_upper(-y, x);
  } else if (r2 < 1.0) {
    // exp(z^2) erfc(z) near 0; beyond, erfcx(z) = 2 exp(z^2) - erfcx(-z).
    r = cuprum::exp(z * z) * (1.0 - detail::erf_maclaurin(z));
  } else {
    double rh, rl, ih, il;
    detail::square_dd(x, y, rh, rl, ih, il);
    r = detail::mul_exp(cplx(2.0), rh, rl, ih, il) - detail::faddeeva_upper(y, -x);
  }
  if (y == 0.0) r.im = -y;
  return r;
}

__device__ __noinline__ cuprum::complex<double> erfc(const cuprum::complex<double>& z) {
  using detail::cplx;
  double x = z.re, y = z.im;
  if (x == 0.0) return cplx(1.0, -detail::erfi_real(y));
  if (y == 0.0) return cplx(erfc(x), 0.0);
  if (detail::is_nan(x) || detail::is_nan(y) || detail::is_inf(y)) return detail::cnan();
  if (detail::is_inf(x)) return cplx(x > 0.0 ? 0.0 : 2.0, 0.0);
  if (x * x + y * y < 0.25) return 1.0 - detail::erf_maclaurin(z);
  if (x > 0.0) return detail::erfc_right(x, y);
  return 2.0 - detail::erfc_right(-x, -y);
}

__device__ __noinline__ cuprum::complex<double> erf(const cuprum::complex<double>& z) {
  using detail::cplx;
  double x = z.re, y = z.im;
  if (x == 0.0) return cplx(x, detail::erfi_real(y));
  if (y == 0.0) return cplx(erf(x), detail::is_nan(x) ? 0.0 : y);
  if (detail::is_nan(x) || detail::is_nan(y) || detail::is_inf(y)) return detail::cnan();
  if (detail::is_inf(x)) return cplx(x > 0.0 ? 1.0 : -1.0, 0.0);
  if (x * x + y * y < 1.0) return detail::erf_maclaurin(z);
  if (x > 0.0) return 1.0 - detail::erfc_right(x, y);
  return detail::erfc_right(-x, -y) - 1.0;
}

// ndtr(z) = erfc(-z / sqrt 2) / 2: w at the rounded -z / sqrt 2, the
// factor exp(-z^2 / 2) from z.
__device__ __noinline__ cuprum::complex<double> ndtr(const cuprum::complex<double>& z) {
  using detail::cplx;
  double x = z.re, y = z.im;
  if (x == 0.0) {
    // erfi(y / sqrt 2) / 2 = e^{y^2/2} Im w(y / sqrt 2) / 2
    if (detail::is_nan(y) || detail::is_inf(y) || y == 0.0) return cplx(0.5, y);
    cplx w = detail::faddeeva_upper(y * detail::RSQRT2, 0.0);
    double hy = __dmul_rn(y, y), ly = ::fabs(hy) < detail::inf() ? ::fma(y, y, -hy) : 0.0;
    return cplx(0.5, detail::mul_exp(cplx(0.0, 0.5 * w.im), 0.5 * hy, 0.5 * ly, 0.0, 0.0).im);
  }
  if (y == 0.0) return cplx(ndtr(x), 0.0);
  if (detail::is_nan(x) || detail::is_nan(y) || detail::is_inf(y)) return detail::cnan();
  if (detail::is_inf(x)) return cplx(x > 0.0 ? 1.0 : 0.0, 0.0);
  double u = x * detail::RSQRT2, v = y * detail::RSQRT2;
  if (u * u + v * v < 0.25) return 0.5 + 0.5 * detail::erf_maclaurin(cplx(u, v));
  double rh, rl, ih, il;
  detail::square_dd(x, y, rh, rl, ih, il);
  rh *= -0.5; rl *= -0.5; ih *= -0.5; il *= -0.5;
  if (x < 0.0) return detail::mul_exp(0.5 * detail::faddeeva_upper(v, -u), rh, rl, ih, il);
  return 1.0 - detail::mul_exp(0.5 * detail::faddeeva_upper(-v, u), rh, rl, ih, il);
}

// log_ndtr(z): for Re z <= 0, -z^2/2 + log(w(i zeta) / 2), zeta = -z / sqrt 2,
// the imaginary part reduced to the principal branch; for Re z > 0,
// log1p(-q), q = ndtr(-z), or log(-q) + iπ where |q| is beyond 1e17.
__device__ __noinline__ cuprum::complex<double> log_ndtr(const cuprum::complex<double>& z) {
  using detail::cplx;
  double x = z.re, y = z.im;
  if (detail::is_nan(x) || detail::is_nan(y)) return detail::cnan();
  if (detail::is_inf(x) && !detail::is_inf(y)) {
    return x > 0.0 ? cplx(-0.0, -0.0) : cplx(-detail::inf(), detail::nan());
  }
  if (detail::is_inf(y)) return detail::cnan();
  if (y == 0.0) return cplx(log_ndtr(x), x > 0.0 ? -0.0 : y);
  double u = x * detail::RSQRT2, v = y * detail::RSQRT2;
  // Near 0: log((1 + erf(z / sqrt 2)) / 2).
  if (u * u + v * v < 0.25) return cuprum::log1p(detail::erf_maclaurin(cplx(u, v))) - detail::LN2;
  double rh, rl, ih, il;
  detail::square_dd(x, y, rh, rl, ih, il);
  rh *= -0.5; rl *= -0.5; ih *= -0.5; il *= -0.5;
  if (x <= 0.0) {
    cplx w = detail::faddeeva_upper(v, -u);
    double re = (rh + (::log(cuprum::abs(w)) - detail::LN2)) + rl;
    if (detail::is_inf(re)) return detail::log_ndtr_overflow(x, y, re, w);
    double im = detail::wrap_angle(detail::principal_angle(ih, il) + cuprum::arg(w));
    return cplx(re, im);
  }
  cplx w = detail::faddeeva_upper(-v, u);
  double lre = (rh + (::log(cuprum::abs(w)) - detail::LN2)) + rl;
  if (lre == detail::inf()) return detail::log_ndtr_overflow(x, y, lre, cplx(-w.re, -w.im));
  if (lre > 40.0) {
    // log(1 - q) = log(-q) + O(1/q)
    double im = detail::principal_angle(ih, il) + (cuprum::arg(w) + 3.141592653589793);
    return cplx(lre, detail::wrap_angle(im));
  }
  cplx q = detail::mul_exp(0.5 * w, rh, rl, ih, il);
  if (q.re == 0.0 && q.im == 0.0) return cplx(-0.0, -0.0);
  if (::fabs(q.re) + ::fabs(q.im) < 5.551115123125783e-17) return cplx(-q.re, -q.im);
  return cuprum::log1p(cplx(-q.re, -q.im));
}

__device__ __forceinline__ cuprum::complex<float> erf(const cuprum::complex<float>& z) {
  return cuprum::complex<float>(erf(cuprum::complex<double>(z)));
}
__device__ __forceinline__ cuprum::complex<float> erfc(const cuprum::complex<float>& z) {
  return cuprum::complex<float>(erfc(cuprum::complex<double>(z)));
}
__device__ __forceinline__ cuprum::complex<float> erfcx(const cuprum::complex<float>& z) {
  return cuprum::complex<float>(erfcx(cuprum::complex<double>(z)));
}
__device__ __forceinline__ cuprum::complex<float> ndtr(const cuprum::complex<float>& z) {
  return cuprum::complex<float>(ndtr(cuprum::complex<double>(z)));
}
__device__ __forceinline__ cuprum::complex<float> log_ndtr(const cuprum::complex<float>& z) {
  return cuprum::complex<float>(log_ndtr(cuprum::complex<double>(z)));
}

}  // namespace special
}  // namespace cuprum
