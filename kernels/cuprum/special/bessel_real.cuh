// scipy.special's Bessel functions of real order and real argument (jv,
// yv, iv, kv) and the Airy functions (airy) (namespace cuprum::special);
// see the table rows in crates/gpu-special/src/table/bessel_real.rs.
//
// Methods (written from the published descriptions):
// - N. M. Temme, "On the numerical evaluation of the ordinary Bessel
//   function of the second kind", J. Comput. Phys. 21 (1976) 343-350, and
//   "On the numerical evaluation of the modified Bessel function of the
//   third kind", J. Comput. Phys. 19 (1975) 324-337: the series for
//   Y_mu, Y_{mu+1} and K_mu, K_{mu+1} at x <= 2, |mu| <= 1/2.
// - I. J. Thompson and A. R. Barnett, "Modified Bessel functions I_nu(z)
//   and K_nu(z) of real order and complex argument", Comput. Phys.
//   Commun. 47 (1987) 245-257 (Steed's continued fraction CF2 for K_mu,
//   K_{mu+1} at x > 2, CF1 for I_{nu+1}/I_nu), and A. R. Barnett et al.,
//   Comput. Phys. Commun. 8 (1974) 377 / 27 (1982) 147 (Steed's method:
//   CF1 for J_nu'/J_nu, here summed from the bottom as the backward
//   recurrence, and the complex CF2 for (J' + iY')/(J + iY), normalised
//   by the Wronskian).
// - DLMF 10.17.3 (Hankel's expansion at large x), 10.40.1 (I, K), 10.25.2
//   (the series of I_nu), 10.4.7/10.4.8 and 10.27.2/10.27.3 (negative
//   orders), 9.4.1 (Maclaurin series of Ai, Bi), 9.6.1-9.6.9 (Airy
//   functions through Bessel functions of order 1/3 and 2/3).
// The Taylor coefficients of 1/Gamma(1 + z) come from
// crates/gpu-special/tools/coefficients_bessel_real.py.
#pragma once

#include "cuprum/complex.cuh"
#include "cuprum/special/common.cuh"

namespace cuprum {
namespace special {
namespace detail {

// 1/Gamma(1+z) = sum c_k z^k (tools/coefficients_bessel_real.py).
__device__ static const double BR_RGAMMA_TAYLOR[27] = {
    1.00000000000000000e+00,
    5.77215664901532866e-01,
    -6.55878071520253902e-01,
    -4.20026350340952370e-02,
    1.66538611382291479e-01,
    -4.21977345555443334e-02,
    -9.62197152787697303e-03,
    7.21894324666309990e-03,
    -1.16516759185906517e-03,
    -2.15241674114950975e-04,
    1.28050282388116196e-04,
    -2.01348547807882387e-05,
    -1.25049348214267063e-06,
    1.13302723198169593e-06,
    -2.05633841697760707e-07,
    6.11609510448141609e-09,
    5.00200764446922295e-09,
    -1.18127457048702004e-09,
    1.04342671169110054e-10,
    7.78226343990507081e-12,
    -3.69680561864220598e-12,
    5.10037028745447575e-13,
    -2.05832605356650664e-14,
    -5.34812253942301782e-15,
    1.22677862823826084e-15,
    -1.18125930169745883e-16,
    1.18669225475160037e-18,
};

constexpr double BR_EPS = 1.1102230246251565e-16;
constexpr double BR_TINY = 1e-300;

// Temme's gamma_1(mu), gamma_2(mu) and 1/Gamma(1 +- mu), |mu| <= 1/2.
__device__ inline void br_temme_gammas(double mu, double& g1, double& g2, double& gp, double& gm) {
  double m2 = mu * mu;
  double odd = 0.0, even = 0.0;
  for (int k = 25; k >= 1; k -= 2) odd = odd * m2 + BR_RGAMMA_TAYLOR[k];
  for (int k = 26; k >= 0; k -= 2) even = even * m2 + BR_RGAMMA_TAYLOR[k];
  g1 = -odd;
  g2 = even;
  gp = even + mu * odd;  // 1/Gamma(1 + mu)
  gm = even - mu * odd;  // 1/Gamma(1 - mu)
}

// Temme's series (J. Comput. Phys. 21, 1976): Y_mu(x), Y_{mu+1}(x), |mu|
// <= 1/2, 0 < x <= 2.
__device__ inline void br_temme_y(double mu, double x, double& ymu, double& ymu1) {
  double g1, g2, gp, gm;
  br_temme_gammas(mu, g1, g2, gp, gm);
  double x2 = 0.5 * x;
  double pimu = PI * mu;
  double fact = ::fabs(pimu) < BR_EPS ? 1.0 : pimu / ::sin(pimu);
  double d = -::log(x2);
  double e = mu * d;
  double fact2 = ::fabs(e) < BR_EPS ? 1.0 : ::sinh(e) / e;
  double ff = (2.0 / PI) * fact * (g1 * ::cosh(e) + g2 * fact2 * d);
  double ee = ::exp(e);
  double p = ee / (gp * PI);
  double q = 1.0 / (ee * PI * gm);
  double pimu2 = 0.5 * pimu;
  double fact3 = ::fabs(pimu2) < BR_EPS ? 1.0 : ::sin(pimu2) / pimu2;
  double r = PI * pimu2 * fact3 * fact3;
  double c = 1.0;
  d = -x2 * x2;
  double sum = ff + r * q, sum1 = p;
  for (int i = 1; i <= 500; ++i) {
    double di = (double)i;
    ff = (di * ff + p + q) / (di * di - mu * mu);
    c *= d / di;
    p /= di - mu;
    q /= di + mu;
    double del = c * (ff + r * q);
    sum += del;
    double del1 = c * p - di * del;
    sum1 += del1;
    if (::fabs(del) < (1.0 + ::fabs(sum)) * BR_EPS * 0.5) break;
  }
  ymu = -sum;
  ymu1 = -sum1 * (2.0 / x);
}

// Temme's series (J. Comput. Phys. 19, 1975): K_mu(x), K_{mu+1}(x), |mu|
// <= 1/2, 0 < x <= 2.
__device__ inline void br_temme_k(double mu, double x, double& kmu, double& kmu1) {
  double g1, g2, gp, gm;
  br_temme_gammas(mu, g1, g2, gp, gm);
  double x2 = 0.5 * x;
  double pimu = PI * mu;
  double fact = ::fabs(pimu) < BR_EPS ? 1.0 : pimu / ::sin(pimu);
  double d = -::log(x2);
  double e = mu * d;
  double fact2 = ::fabs(e) < BR_EPS ? 1.0 : ::sinh(e) / e;
  double ff = fact * (g1 * ::cosh(e) + g2 * fact2 * d);
  double sum = ff;
  double ee = ::exp(e);
  double p = 0.5 * ee / gp;
  double q = 0.5 / (ee * gm);
  double c = 1.0;
  d = x2 * x2;
  double sum1 = p;
  for (int i = 1; i <= 500; ++i) {
    double di = (double)i;
    ff = (di * ff + p + q) / (di * di - mu * mu);
    c *= d / di;
    p /= di - mu;
    q /= di + mu;
    double del = c * ff;
    sum += del;
    double del1 = c * (p - di * ff);
    sum1 += del1;
    if (::fabs(del) < ::fabs(sum) * BR_EPS * 0.5) break;
  }
  kmu = sum;
  kmu1 = sum1 * (2.0 / x);
}

// Steed's CF2 for K (Thompson and Barnett 1987): e^x K_mu(x), e^x
// K_{mu+1}(x), x > 2.
__device__ inline void br_steed_k(double mu, double x, double& kmu, double& kmu1) {
  double b = 2.0 * (1.0 + x);
  double d = 1.0 / b;
  double h = d, delh = d;
  double q1 = 0.0, q2 = 1.0;
  double a1 = 0.25 - mu * mu;
  double q = a1, c = a1, a = -a1;
  double s = 1.0 + q * delh;
  for (int i = 2; i <= 2000; ++i) {
    a -= 2.0 * (i - 1);
    c = -a * c / i;
    double qnew = (q1 - b * q2) / a;
    q1 = q2;
    q2 = qnew;
    q += c * qnew;
    b += 2.0;
    d = 1.0 / (b + a * d);
    delh = (b * d - 1.0) * delh;
    h += delh;
    double dels = q * delh;
    s += dels;
    if (::fabs(dels / s) < BR_EPS * 0.5) break;
  }
  h = a1 * h;
  kmu = ::sqrt(PI / (2.0 * x)) / s;
  kmu1 = kmu * (mu + x + 0.5 - h) / x;
}

// e^{-x} multiplied into e^x-scaled value s, without overflow in between.
__device__ inline double br_scale_down(double s, double x) {
  double e = ::exp(-0.5 * x);
  return (s * e) * e;
}

// I_nu(x) (sg = 1) or J_nu(x) (sg = -1) by the series DLMF 10.25.2 /
// 10.2.2, nu >= 0, x > 0; for x^2/4 small against nu + 1 (J) or moderate x (I).
__device__ inline double br_i_series(double nu, double x, double sg = 1.0) {
  double z = 0.25 * x * x * sg;
  double t = 1.0, sum = 1.0;
  for (int k = 1; k <= 1000; ++k) {
    t *= z / (k * (nu + k));
    sum += t;
    if (::fabs(t) < sum * BR_EPS * 0.25) break;
  }
  double pre;
  if (nu < 170.0) {
    // Gamma(nu + 1) as nu Gamma(nu): nu + 1 would round nu.
    double g = nu == 0.0 ? 1.0 : (nu < 1.0 ? ::tgamma(nu + 1.0) : nu * ::tgamma(nu));
    pre = (x < 1e-290 ? ::pow(x, nu) * ::pow(0.5, nu) : ::pow(0.5 * x, nu)) / g;
  } else {
    pre = ::exp(nu * ::log(0.5 * x) - ::lgamma(nu + 1.0));
  }
  return pre * sum;
}

// (x/2)^-nu without overflow of 2/x.
__device__ inline double br_half_pow_neg(double x, double nu) {
  return ::pow(x, -nu) * ::pow(2.0, nu);
}

// Leading terms at x < 1e-100 (DLMF 10.7.3, 10.7.4, 10.30.2, 10.30.3,
// and 10.2.3 / 10.27.4 with the two leading powers for 0 < nu < 1).
__device__ inline void br_small_ik(double nu, double x, double& inu, double& knu) {
  const double EG = 0.57721566490153286061;
  inu = br_i_series(nu, x);
  if (nu == 0.0) {
    knu = -(::log(x) - 0.69314718055994530942) - EG;
  } else if (nu < 1.0) {
    double s = ::sinpi(nu);
    double a = br_half_pow_neg(x, nu) / ::tgamma(1.0 - nu);
    double b = inu;
    knu = 0.5 * PI * (a - b) / s;
  } else {
    knu = 0.5 * ::tgamma(nu) * br_half_pow_neg(x, nu);
  }
}

__device__ inline void br_small_jy(double nu, double x, double& jnu, double& ynu) {
  const double EG = 0.57721566490153286061;
  jnu = br_i_series(nu, x, -1.0);
  if (nu == 0.0) {
    ynu = (2.0 / PI) * (::log(x) - 0.69314718055994530942 + EG);
  } else if (nu < 1.0) {
    double a = br_half_pow_neg(x, nu) / ::tgamma(1.0 - nu);
    ynu = (::cospi(nu) * jnu - a) / ::sinpi(nu);
  } else {
    ynu = -(::tgamma(nu) / PI) * br_half_pow_neg(x, nu);
  }
}

// I_nu(x) (when want_i) and K_nu(x) for nu >= 0, 0 < x finite; dx the
// low part of x when x is carried in two doubles (airy).
__device__ inline void br_ik(double nu, double x, double& inu, double& knu, bool want_i,
                             double dx = 0.0) {
  if (x < 1e-100) {
    br_small_ik(nu, x, inu, knu);
    return;
  }
  int nl = (int)(nu + 0.5);
  double mu = nu - nl;
  bool scaled = x > 2.0;
  double k0, k1;
  if (scaled) {
    br_steed_k(mu, x, k0, k1);
  } else {
    br_temme_k(mu, x, k0, k1);
  }
  // Upward recurrence K_{m+1} = (2m/x) K_m + K_{m-1} (stable).
  for (int i = 1; i <= nl; ++i) {
    double kn = (2.0 * (mu + i)) / x * k1 + k0;
    k0 = k1;
    k1 = kn;
    if (is_inf(k0)) break;
  }
  bool over = !(k1 < 1e300);
  if (is_inf(k0)) {
    knu = inf();
  } else {
    knu = scaled ? br_scale_down(k0, x) * (1.0 - dx) : k0;
  }
  if (!want_i) return;
  if (x <= 2.0 || over || (nu < 170.0 && (x <= 40.0 || 0.25 * x * x <= nu + 1.0))) {
    inu = br_i_series(nu, x);
    return;
  }
  // CF1: r = I_{nu+1}/I_nu = 1/(2(nu+1)/x + 1/(2(nu+2)/x + ...)) (Lentz),
  // then the Wronskian I_nu K_{nu+1} + I_{nu+1} K_nu = 1/x.
  double f = BR_TINY, c = f, d = 0.0;
  for (int i = 1; i <= 20000; ++i) {
    double b = (2.0 * (nu + i)) / x;
    d = b + d;
    c = b + 1.0 / c;
    d = 1.0 / d;
    double del = c * d;
    f *= del;
    if (::fabs(del - 1.0) < BR_EPS * 0.5) break;
  }
  double is = 1.0 / (x * (f * k0 + k1));
  if (scaled) {
    if (x > 740.0) {
      inu = inf();
    } else {
      double e = ::exp(0.5 * x);
      inu = (is * e) * e * (1.0 + dx);
    }
  } else {
    inu = is;
  }
}

// Hankel's expansion (DLMF 10.17.3) of J_nu, Y_nu; false where it does
// not reach full precision.
__device__ inline bool br_hankel(double nu, double x, double& j, double& y, double dx) {
  double m = 4.0 * nu * nu;
  double t = 1.0, p = 1.0, q = 0.0, tprev = 2.0;
  bool ok = false;
  double p8x = 1.0 / (8.0 * x);
  for (int k = 1; k <= 60; ++k) {
    double a = (2.0 * k - 1.0);
    t *= (m - a * a) * p8x / k;
    double at = ::fabs(t);
    int r = k & 3;
    if (r == 1) q += t;
    else if (r == 2) p -= t;
    else if (r == 3) q -= t;
    else p += t;
    if (at < BR_EPS * 0.25 * (::fabs(p) + ::fabs(q))) {
      ok = true;
      break;
    }
    if (at > tprev && (double)k > nu) break;  // diverging
    tprev = at;
    if (t == 0.0) {
      ok = true;
      break;
    }
  }
  if (!ok) return false;
  // cos(x - theta), sin(x - theta), theta = pi (nu/2 + 1/4).
  double sx, cx;
  ::sincos(x, &sx, &cx);
  double th = 0.5 * nu + 0.25;
  double st = ::sinpi(th), ct = ::cospi(th);
  double cw = cx * ct + sx * st;
  double sw = sx * ct - cx * st;
  // x + dx: the low part of an argument carried in two doubles.
  double sd = dx, cd = 1.0;
  if (::fabs(dx) > 1e-8) ::sincos(dx, &sd, &cd);
  double cw2 = cw * cd - sw * sd;
  sw = sw * cd + cw * sd;
  cw = cw2;
  double amp = ::sqrt(2.0 / (PI * x));
  j = amp * (p * cw - q * sw);
  y = amp * (p * sw + q * cw);
  return true;
}

// J_nu(x), Y_nu(x) for nu >= 0, 0 < x finite (Steed's method, Temme's
// series, Hankel's expansion).
__device__ inline void br_jy(double nu, double x, double& jnu, double& ynu, double dx = 0.0) {
  if (x < 1e-100) {
    br_small_jy(nu, x, jnu, ynu);
    return;
  }
  if (x > 25.0 && x > 0.5 * nu * nu && br_hankel(nu, x, jnu, ynu, dx)) return;
  int nl = x < 2.0 ? (int)(nu + 0.5) : (int)::fmax(0.0, nu - x + 1.5);
  double mu = nu - nl;
  double xi = 1.0 / x, xi2 = 2.0 * xi;
  double jser = 0.0;
  bool use_ser = 0.25 * x * x <= 2.0 * (nu + 1.0);
  if (use_ser) jser = br_i_series(nu, x, -1.0);
  // CF1, J_{nu+1}/J_nu, evaluated from the bottom: the backward
  // recurrence J_{k-1} = (2k/x) J_k - J_{k+1} from J_{N+1} = 0, J_N = 1,
  // N past the turning point by enough that J_N(x)/J_nu(x) < 1e-17
  // (J_{x+m}(x) ~ exp(-(2m)^{3/2} / (3 sqrt x))). h = J_nu'/J_nu; isign
  // the sign of J_nu (J_N > 0).
  double m = 0.5 * ::pow(120.0 * ::sqrt(x), 2.0 / 3.0) + 20.0;
  int nsteps = (int)::fmin(::fmax(x - nu, 0.0) + m, 2000000.0);
  double ja = 0.0, jb = 1.0;  // J_{k+1}, J_k
  for (int i = nsteps; i >= 1; --i) {
    double k = nu + i;
    double jc = (2.0 * k) / x * jb - ja;
    ja = jb;
    jb = jc;
    if (::fabs(jb) > 1e250) {
      ja *= 1e-250;
      jb *= 1e-250;
    }
  }
  int isign = jb < 0.0 ? -1 : 1;
  double h = jb == 0.0 ? 1.0 / BR_TINY : nu * xi - ja / jb;
  // Backward recurrence from nu to mu (J_{k-1} = (k/x) J_k + J_k',
  // J_{k-1}' = ((k-1)/x) J_{k-1} - J_k), rescaled by 2^-600 on the way.
  double rjl = (double)isign, rjpl = h * rjl;
  int scale = 0;
  double lx = nu;
  for (int l = nl; l >= 1; --l) {
    double rjtemp = (lx / x) * rjl + rjpl;
    lx -= 1.0;
    rjpl = (lx / x) * rjtemp - rjl;
    rjl = rjtemp;
    if (::fabs(rjl) > 1e200) {
      rjl *= 2.409919865102884e-181;  // 2^-600
      rjpl *= 2.409919865102884e-181;
      ++scale;
    }
  }
  if (rjl == 0.0) rjl = BR_EPS;
  double f = rjpl / rjl;  // J_mu'/J_mu
  double jmu, ymu, ymu1;
  double w = xi2 / PI;
  if (x < 2.0) {
    br_temme_y(mu, x, ymu, ymu1);
    double ymup = mu * xi * ymu - ymu1;
    jmu = w / (ymup - f * ymu);
  } else {
    // CF2: p + iq = (J' + iY')/(J + iY) = -1/(2x) + i + (i/x) T, T =
    // a1/(b1 + a2/(b2 + ...)), a_k = (k - 1/2)^2 - mu^2, b_k = 2(x + ik).
    // W = b1 + a2/(b2 + ...) by Lentz (b1 != 0), T = a1 / W.
    double fr = 2.0 * x, fi = 2.0, cr = fr, ci = fi, dr = 0.0, di = 0.0;
    for (int k = 2; k <= 20000; ++k) {
      double a = (k - 0.5) * (k - 0.5) - mu * mu;
      double br = 2.0 * x, bi = 2.0 * k;
      // D = 1/(b + a D)
      dr = br + a * dr;
      di = bi + a * di;
      double den = dr * dr + di * di;
      dr = dr / den;
      di = -di / den;
      // C = b + a / C
      double cden = cr * cr + ci * ci;
      cr = br + a * cr / cden;
      ci = bi - a * ci / cden;
      // delta = C D
      double er = cr * dr - ci * di, ei = cr * di + ci * dr;
      double nfr = fr * er - fi * ei, nfi = fr * ei + fi * er;
      fr = nfr;
      fi = nfi;
      if (::fabs(er - 1.0) + ::fabs(ei) < BR_EPS * 0.5) break;
    }
    {
      double a1 = 0.25 - mu * mu;
      double den = fr * fr + fi * fi;
      double tr = a1 * fr / den, ti = -a1 * fi / den;
      fr = tr;
      fi = ti;
    }
    double p = -0.5 * xi - xi * fi;
    double q = 1.0 + xi * fr;
    double gam = (p - f) / q;
    jmu = ::sqrt(w / ((p - f) * gam + q));
    jmu = ::copysign(jmu, rjl);
    ymu = gam * jmu;
    double ymup = ymu * (p + q / gam);
    ymu1 = mu * xi * ymu - ymup;
  }
  // J_nu = J_mu (J_nu / J_mu) of the recurrence; Y upward from mu.
  double jv = jmu * ((double)isign / rjl);
  for (int s = 0; s < scale; ++s) jv *= 2.409919865102884e-181;
  jnu = use_ser ? jser : jv;
  for (int i = 1; i <= nl; ++i) {
    double yn = (2.0 * (mu + i)) / x * ymu1 - ymu;
    ymu = ymu1;
    ymu1 = yn;
    if (::fabs(ymu) > 1.7976931348623157e308) break;
  }
  ynu = ymu;
}

// Orders beyond 1e5 (the recurrences' step counts): at x <= |v|/2 the
// value under- or overflows (J_v(x), I_v(x) <= (e x / 2v)^v e^{x/8}), so
// 0 or an infinity there; no result (NaN) for larger x. Returns false
// where the order is an ordinary one.
__device__ inline bool br_huge_order(double v, double x, double small, double& out) {
  double a = ::fabs(v);
  if (a <= 1e5) return false;
  out = (x <= 0.5 * a && (v > 0.0 || is_int(v))) ? small : nan();
  return true;
}

// Integer check with parity: n = v (finite integer).
__device__ inline double br_neg1pow(double v) {
  return ::fmod(::fabs(v), 2.0) == 1.0 ? -1.0 : 1.0;
}

}  // namespace detail

// scipy.special.jv(v, x): Bessel function of the first kind of real
// order v (Steed's method, Temme's series, Hankel's expansion; DLMF
// 10.4.7 for v < 0, (-1)^n J_n for integers). NaN for x < 0 unless v is
// an integer; J_v(0) = 1 (v = 0), 0 (v > 0 or a negative integer), +-inf
// (other v < 0, the sign of Gamma(1 + v)); NaN at x = +-inf.
__device__ inline double jv(double v, double x) {
  using namespace detail;
  if (is_nan(v) || is_nan(x)) return nan();
  if (is_inf(v)) return (x >= 0.0 && x <= 2.0) ? 0.0 : nan();
  bool vint = is_int(v);
  double sgn = 1.0;
  if (x < 0.0) {
    if (!vint) return nan();
    x = -x;
    sgn = br_neg1pow(v);
  }
  if (x == 0.0) {
    if (v == 0.0) return 1.0;
    if (v > 0.0) return 0.0;
    if (vint) return br_neg1pow(v) * 0.0;
    return (((long long)::ceil(-v)) & 1) ? inf() : -inf();
  }
  if (is_inf(x)) return nan();
  double a = ::fabs(v);
  double j, y;
  if (br_huge_order(v, x, 0.0, j)) return j;
  br_jy(a, x, j, y);
  if (v < 0.0) {
    if (vint) {
      j *= br_neg1pow(v);
    } else {
      double cp = ::cospi(a), sp = ::sinpi(a);
      j = (cp == 0.0 ? 0.0 : cp * j) - (sp == 0.0 ? 0.0 : sp * y);
    }
  }
  return sgn * j;
}
CUPRUM_SPECIAL_F2(jv)

// scipy.special.yv(v, x): Bessel function of the second kind of real
// order v (Temme's series, Steed's method, Hankel's expansion; DLMF
// 10.4.8 for v < 0, (-1)^n Y_n for integers). NaN for x < 0; -inf at x
// = 0 for v >= 0 (for v < 0 SciPy's signed infinity); NaN at x = inf.
__device__ inline double yv(double v, double x) {
  using namespace detail;
  if (is_nan(v) || is_nan(x)) return nan();
  if (x < 0.0) return nan();
  bool vint = is_int(v);
  if (x == 0.0) {
    if (v >= 0.0 || is_inf(v)) return -inf();
    if (vint) return -br_neg1pow(v) * inf();
    double cp = ::cospi(-v);
    if (cp != 0.0) return cp > 0.0 ? -inf() : inf();
    return ::sinpi(-v) > 0.0 ? -inf() : inf();
  }
  if (is_inf(v) || is_inf(x)) return nan();
  double a = ::fabs(v);
  double j, y;
  if (br_huge_order(v, x, -inf(), y)) return y;
  br_jy(a, x, j, y);
  if (v < 0.0) {
    if (vint) {
      y *= br_neg1pow(v);
    } else {
      double cp = ::cospi(a), sp = ::sinpi(a);
      y = (sp == 0.0 ? 0.0 : sp * j) + (cp == 0.0 ? 0.0 : cp * y);
    }
  }
  return y;
}
CUPRUM_SPECIAL_F2(yv)

// scipy.special.iv(v, x): modified Bessel function of the first kind of
// real order v (the series DLMF 10.25.2; CF1 for I_{v+1}/I_v with the
// Wronskian and Temme's / Steed's K; DLMF 10.27.2 for v < 0). NaN for x
// < 0 unless v is an integer ((-1)^v I_v(|x|)); I_v(0) = 1 (v = 0), 0 (v
// > 0 or a negative integer), inf (other v < 0); NaN at x = +-inf, 0 for
// v = +-inf.
__device__ inline double iv(double v, double x) {
  using namespace detail;
  if (is_nan(v) || is_nan(x)) return nan();
  if (is_inf(x)) return nan();
  if (is_inf(v)) return 0.0;
  bool vint = is_int(v);
  double sgn = 1.0;
  if (x < 0.0) {
    if (!vint) return nan();
    x = -x;
    sgn = br_neg1pow(v);
  }
  if (x == 0.0) {
    if (v == 0.0) return 1.0;
    if (v > 0.0 || vint) return 0.0;
    return inf();
  }
  double a = ::fabs(v);
  double i, k;
  if (br_huge_order(v, x, 0.0, i)) return i;
  br_ik(a, x, i, k, true);
  if (v < 0.0 && !vint) {
    double sp = ::sinpi(a);
    if (sp != 0.0) i += (2.0 / PI) * sp * k;
  }
  return sgn * i;
}
CUPRUM_SPECIAL_F2(iv)

// scipy.special.kv(v, x): modified Bessel function of the second kind of
// real order v (Temme's series at x <= 2, Steed's CF2 beyond, upward
// recurrence; K_{-v} = K_v). inf at x = 0, NaN for x < 0, 0 at x = inf.
__device__ inline double kv(double v, double x) {
  using namespace detail;
  if (x == 0.0) return inf();
  if (is_nan(v) || is_nan(x) || x < 0.0 || is_inf(v)) return nan();
  if (is_inf(x)) return 0.0;
  if (x > 800.0 && ::fabs(v) < 100.0) return 0.0;
  double i, k;
  if (br_huge_order(::fabs(v), x, inf(), k)) return k;
  br_ik(::fabs(v), x, i, k, false);
  return k;
}
CUPRUM_SPECIAL_F2(kv)

namespace detail {

// Maclaurin series of Ai, Ai', Bi, Bi' (DLMF 9.4.1-9.4.4), |x| <= 1.
__device__ inline void br_airy_series(double x, double& ai, double& aip, double& bi, double& bip) {
  const double c1 = 0.35502805388781723926;  // Ai(0)
  const double c2 = 0.25881940379280679840;  // -Ai'(0)
  const double s3 = 1.7320508075688772935;
  double x3 = x * x * x;
  double f = 1.0, g = x, fp = 0.0, gp = 1.0;
  double tf = 1.0, tg = x, tfp = 0.5 * x * x, tgp = 1.0;
  fp = tfp;
  for (int k = 1; k <= 60; ++k) {
    double k3 = 3.0 * k;
    tf *= x3 / ((k3 - 1.0) * k3);
    tg *= x3 / (k3 * (k3 + 1.0));
    tgp *= x3 / ((k3 - 2.0) * k3);
    f += tf;
    g += tg;
    gp += tgp;
    if (k >= 2) {
      tfp *= x3 / ((k3 - 3.0) * (k3 - 1.0));
      fp += tfp;
    }
    if (::fabs(tf) + ::fabs(tg) + ::fabs(tgp) + ::fabs(tfp) < 1e-18) break;
  }
  ai = c1 * f - c2 * g;
  aip = c1 * fp - c2 * gp;
  bi = s3 * (c1 * f + c2 * g);
  bip = s3 * (c1 * fp + c2 * gp);
}

}  // namespace detail

// scipy.special.airy(x): Ai(x), Ai'(x), Bi(x), Bi'(x) (the Maclaurin
// series DLMF 9.4 for |x| <= 1; beyond, Bessel functions of order 1/3 and
// 2/3, DLMF 9.6). NaN at +-inf and NaN.
__device__ inline void airy(double x, double& ai, double& aip, double& bi, double& bip) {
  using namespace detail;
  if (is_nan(x) || is_inf(x)) {
    ai = aip = bi = bip = nan();
    return;
  }
  if (::fabs(x) <= 1.0) {
    br_airy_series(x, ai, aip, bi, bip);
    return;
  }
  const double s3 = 1.7320508075688772935;
  // zeta = (2/3) |x|^{3/2} as z + dz (two doubles; its rounding error
  // would otherwise cost |zeta| ulps in e^-zeta and in the phase).
  double t = ::fabs(x);
  double sq = ::sqrt(t);
  double esq = ::fma(-sq, sq, t) / (2.0 * sq);
  double pr = __dmul_rn(t, sq);
  double epr = ::fma(t, sq, -pr) + t * esq;
  double z = (2.0 * pr) / 3.0;
  double dz = (::fma(-3.0, z, 2.0 * pr) + 2.0 * epr) / 3.0;
  if (x > 0.0) {
    double sx = ::sqrt(x / 3.0);
    double i1, k1, i2, k2;
    br_ik(1.0 / 3.0, z, i1, k1, true, dz);
    br_ik(2.0 / 3.0, z, i2, k2, true, dz);
    ai = sx * k1 / PI;
    aip = -(x / (PI * s3)) * k2;
    // I_{-nu} = I_nu + (2/pi) sin(nu pi) K_nu.
    bi = sx * (2.0 * i1 + (s3 / PI) * k1);
    bip = (x / s3) * (2.0 * i2 + (s3 / PI) * k2);
    return;
  }
  if (!(z < 9007199254740992.0)) {
    // zeta's low part no longer fits below an ulp of the phase.
    ai = aip = bi = bip = nan();
    return;
  }
  double j1, y1, j2, y2;
  br_jy(1.0 / 3.0, z, j1, y1, dz);
  br_jy(2.0 / 3.0, z, j2, y2, dz);
  double st = sq;
  ai = 0.5 * st * (j1 - y1 / s3);
  aip = 0.5 * t * (j2 + y2 / s3);
  bi = -0.5 * st * (j1 / s3 + y1);
  bip = 0.5 * t * (j2 / s3 - y2);
}
__device__ inline void airy(float x, float& ai, float& aip, float& bi, float& bip) {
  double a, b, c, d;
  airy((double)x, a, b, c, d);
  ai = (float)a;
  aip = (float)b;
  bi = (float)c;
  bip = (float)d;
}

// ---------------------------------------------------------------------------
// Complex argument: SciPy's "fF->F dD->D" loops of jv, yv, iv, kv (real
// order v, complex z) and the "F->FFFF D->DDDD" loop of airy. Written from
// the published methods (not from AMOS, which SciPy calls):
// - The core (cb_ik) gives, for nu >= 0 and Re zeta >= 0, the scaled
//   e^{-zeta} I_nu(zeta) and e^{zeta} K_nu(zeta):
//   * K_mu, K_{mu+1} for |mu| <= 1/2 by Temme's series (N. M. Temme, J.
//     Comput. Phys. 19 (1975) 324-337, valid for complex z) at |zeta| <= 2
//     and by Steed's continued fraction CF2 (I. J. Thompson and A. R.
//     Barnett, Comput. Phys. Commun. 47 (1987) 245-257) beyond; then the
//     recurrence DLMF 10.29.1 upward in the order (stable for K);
//   * I_nu by the power series DLMF 10.25.2 where its terms do not cancel
//     much, else by the continued fraction for I_{nu+1}/I_nu (from DLMF
//     10.29.1, Thompson and Barnett's CF1) and the Wronskian DLMF 10.28.2;
//   * Hankel's expansions DLMF 10.40.2 and 10.40.5 at |zeta| > max(25,
//     nu^2/2) where they reach full precision.
// - Re z < 0: DLMF 10.34.1 and 10.34.2 with m = 1 on the upper side; Im z <
//   0 by conjugation (real order). Im z = -0 counts as +0, as in SciPy.
// - J and Y: J_nu(z) = e^{nu pi i/2} I_nu(-iz) (DLMF 10.27.6) and H1_nu(z)
//   = (2/(pi i)) e^{-nu pi i/2} K_nu(-iz) (DLMF 10.27.8) for Im z >= 0,
//   Y = (H1 - J)/i.
// - Negative orders: DLMF 10.4.7, 10.4.8 (J, Y), 10.27.2, 10.27.3 (I, K);
//   (-1)^n for integers.
// Special values follow SciPy's (AMOS's) results: an overflowed I or J is
// its scaled value (e^{-|Re z|} I, e^{-|Im z|} J) times inf part by part (a
// zero part gives NaN), a real I_v(x) overflows to +-inf + 0i; an
// overflowed K or Y is inf + 0i or -inf + 0i on the positive real axis and
// NaN elsewhere, and NaN inside the formulas for negative orders. NaN where
// SciPy gives up: a part of z infinite, |z| > 2^30 off the positive real
// axis (I, K), |z| > 0.5/eps off the real axis (J, Y), K_v(0), and orders
// beyond 1e5 except where the value under- or overflows (|z| <= |v|/2).
namespace detail {

typedef cuprum::complex<double> cb_c;

constexpr double CB_LN2 = 0.69314718055994530942;
constexpr double CB_2P600 = 4.149515568880993e180;   // 2^600

__device__ inline bool cb_finite(const cb_c& a) {
  return !(is_nan(a.re) || is_nan(a.im) || is_inf(a.re) || is_inf(a.im));
}
__device__ inline cb_c cb_nan() { return cb_c(nan(), nan()); }
__device__ inline cb_c cb_conj(const cb_c& a) { return cb_c(a.re, -a.im); }
// i a.
__device__ inline cb_c cb_i(const cb_c& a) { return cb_c(-a.im, a.re); }
__device__ inline double cb_abs(const cb_c& a) { return ::hypot(a.re, a.im); }
// e^{i pi t} (exact at the multiples of 1/2).
__device__ inline cb_c cb_cispi(double t) { return cb_c(::cospi(t), ::sinpi(t)); }
// e^{i t}.
__device__ inline cb_c cb_cis(double t) {
  double s, c;
  ::sincos(t, &s, &c);
  return cb_c(c, s);
}
__device__ inline cb_c cb_exp(const cb_c& a) { return ::exp(a.re) * cb_cis(a.im); }
// z scaled by 2^600 where both parts are tiny (exact), so that hypot and
// division keep their precision among the subnormals; k: 1 if scaled.
__device__ inline cb_c cb_unsubnormal(const cb_c& z, int& k) {
  k = (::fabs(z.re) < 1e-290 && ::fabs(z.im) < 1e-290) ? 1 : 0;
  return k ? CB_2P600 * z : z;
}
// log z, also for subnormal parts.
__device__ inline cb_c cb_log(const cb_c& z) {
  int k;
  cb_c w = cb_unsubnormal(z, k);
  return cb_c(::log(cb_abs(w)) - k * (600.0 * CB_LN2), ::atan2(z.im, z.re));
}
// |z|^s, also for subnormal parts.
__device__ inline double cb_powabs(const cb_c& z, double s) {
  int k;
  cb_c w = cb_unsubnormal(z, k);
  double p = ::pow(cb_abs(w), s);
  return k ? p * ::exp2(-600.0 * s) : p;
}
// a / z, also for subnormal parts of z.
__device__ inline cb_c cb_div(const cb_c& a, const cb_c& z) {
  int k;
  cb_c w = cb_unsubnormal(z, k);
  cb_c q = a / w;
  return k ? CB_2P600 * q : q;
}

// |z|^s to a few ulps also for large s: |z|^2 in two doubles (a rounded
// |z| would carry its rounding error s times into the power). |z| < 633.
__device__ inline double cb_powabs_accurate(const cb_c& z, double s) {
  bool tiny = ::fmax(::fabs(z.re), ::fabs(z.im)) < 1e-100;
  double x = tiny ? CB_2P600 * z.re : z.re, y = tiny ? CB_2P600 * z.im : z.im;
  double x2 = __dmul_rn(x, x), y2 = __dmul_rn(y, y);
  double a = x2 + y2;
  double bb = a - x2;
  double ae = ((x2 - (a - bb)) + (y2 - bb)) + (::fma(x, x, -x2) + ::fma(y, y, -y2));
  double h = 0.5 * s;
  double p = ::pow(a, h) * (1.0 + h * (ae / a));
  return tiny ? p * ::exp2(-600.0 * s) : p;
}

// e^{i s arg z} with arg z refined by one Newton step and s arg z carried
// in two doubles (the rounding of arg z would be multiplied by s).
__device__ inline cb_c cb_cis_nu_arg(const cb_c& z, double s) {
  int k;
  cb_c w = cb_unsubnormal(z, k);
  double th = ::atan2(w.im, w.re);
  double sn, cs;
  ::sincos(th, &sn, &cs);
  // sin(arg z - th) |z| = y cos th - x sin th.
  double px = __dmul_rn(w.re, sn);
  double r = ::fma(w.im, cs, -px) - ::fma(w.re, sn, -px);
  double dth = r / cb_abs(w);
  double ph = __dmul_rn(s, th);
  double pl = ::fma(s, th, -ph) + s * dth;
  return cb_cis(ph) * cb_cis(pl);
}

// Temme's series (J. Comput. Phys. 19, 1975) in complex arithmetic:
// K_mu(z), K_{mu+1}(z), |mu| <= 1/2, 0 < |z| <= 2, Re z >= 0.
__device__ inline void cb_temme_k(double mu, const cb_c& z, cb_c& kmu, cb_c& kmu1) {
  double g1, g2, gp, gm;
  br_temme_gammas(mu, g1, g2, gp, gm);
  double pimu = PI * mu;
  double fact = ::fabs(pimu) < BR_EPS ? 1.0 : pimu / ::sin(pimu);
  cb_c d = CB_LN2 - cb_log(z);  // -log(z/2)
  cb_c e = mu * d;
  // e^e = (2/z)^mu by pow: exp(mu d) would carry the rounding of d, |d| eps
  // relative, into K at tiny |z|.
  cb_c ee = (cb_powabs(z, -mu) * ::exp2(mu)) * cb_cis(-mu * ::atan2(z.im, z.re));
  cb_c eei = 1.0 / ee;
  // sinh(e)/e; |Im e| <= pi/4 here.
  cb_c fact2;
  if (cb_abs(e) < 0.5) {
    cb_c e2 = e * e, t(1.0, 0.0);
    fact2 = cb_c(1.0, 0.0);
    for (int k = 1; k <= 10; ++k) {
      t = t * e2 / (double)((2 * k) * (2 * k + 1));
      fact2 += t;
    }
  } else {
    fact2 = (ee - eei) / (2.0 * e);
  }
  cb_c ff = fact * (g1 * (0.5 * (ee + eei)) + g2 * (fact2 * d));
  cb_c p = (0.5 / gp) * ee;
  cb_c q = (0.5 / gm) * eei;
  cb_c c(1.0, 0.0);
  cb_c x2 = 0.5 * z;
  cb_c w = x2 * x2;
  cb_c sum = ff, sum1 = p;
  for (int i = 1; i <= 500; ++i) {
    double di = (double)i;
    ff = (di * ff + p + q) / (di * di - mu * mu);
    c = c * w / di;
    p = p / (di - mu);
    q = q / (di + mu);
    cb_c del = c * ff;
    sum += del;
    cb_c del1 = c * (p - di * ff);
    sum1 += del1;
    if (cb_abs(del) < cb_abs(sum) * BR_EPS * 0.25 && cb_abs(del1) < cb_abs(sum1) * BR_EPS * 0.25)
      break;
  }
  kmu = sum;
  kmu1 = cb_div(2.0 * sum1, z);
}

// Steed's CF2 for K (Thompson and Barnett 1987) in complex arithmetic:
// e^z K_mu(z), e^z K_{mu+1}(z), |mu| <= 1/2, |z| > 2, Re z >= 0.
__device__ inline void cb_steed_k(double mu, const cb_c& x, cb_c& kmu, cb_c& kmu1) {
  cb_c b = 2.0 * (1.0 + x);
  cb_c d = 1.0 / b;
  cb_c h = d, delh = d;
  cb_c q1(0.0, 0.0), q2(1.0, 0.0);
  double a1 = 0.25 - mu * mu;
  cb_c q(a1, 0.0);
  double c = a1, a = -a1;
  cb_c s = 1.0 + q * delh;
  for (int i = 2; i <= 5000; ++i) {
    a -= 2.0 * (i - 1);
    c = -a * c / i;
    cb_c qnew = (q1 - b * q2) / a;
    q1 = q2;
    q2 = qnew;
    q += c * qnew;
    b += 2.0;
    d = 1.0 / (b + a * d);
    delh = (b * d - 1.0) * delh;
    h += delh;
    cb_c dels = q * delh;
    s += dels;
    if (cb_abs(dels) < cb_abs(s) * BR_EPS * 0.25) break;
  }
  h = a1 * h;
  kmu = cuprum::sqrt(PI / (2.0 * x)) / s;
  kmu1 = kmu * (mu + x + 0.5 - h) / x;
}

// I_nu(z) by the power series DLMF 10.25.2, nu >= 0, Re z >= 0.
__device__ inline cb_c cb_i_series(double nu, const cb_c& z) {
  cb_c x2 = 0.5 * z;
  cb_c w = x2 * x2;
  cb_c t(1.0, 0.0), sum(1.0, 0.0);
  for (int k = 1; k <= 2000; ++k) {
    t = t * w / ((double)k * (nu + k));
    sum += t;
    if (cb_abs(t) < cb_abs(sum) * BR_EPS * 0.125) break;
  }
  if (nu == 0.0) return sum;
  // (z/2)^nu / Gamma(nu + 1).
  double mag;
  if (nu < 170.0) {
    // Gamma(nu + 1) as nu Gamma(nu): nu + 1 would round nu.
    double g = nu < 1.0 ? ::tgamma(nu + 1.0) : nu * ::tgamma(nu);
    mag = cb_powabs_accurate(z, nu) * ::exp2(-nu) / g;
  } else {
    mag = ::exp(nu * (cb_log(z).re - CB_LN2) - ::lgamma(nu + 1.0));
  }
  return (mag * cb_cis_nu_arg(z, nu)) * sum;
}

// I_{nu+1}(z)/I_nu(z) = 1/(2(nu+1)/z + 1/(2(nu+2)/z + ...)) (from DLMF
// 10.29.1; Thompson and Barnett's CF1), modified Lentz; false if it has
// not converged within the bound (|z| beyond about 1e5).
__device__ inline bool cb_cf1_i(double nu, const cb_c& z, cb_c& r) {
  cb_c zi = 1.0 / z;
  cb_c f(BR_TINY, 0.0), c = f, d(0.0, 0.0);
  for (int i = 1; i <= 200000; ++i) {
    cb_c b = (2.0 * (nu + i)) * zi;
    d = b + d;
    if (d.re == 0.0 && d.im == 0.0) d = cb_c(BR_TINY, 0.0);
    c = b + 1.0 / c;
    if (c.re == 0.0 && c.im == 0.0) c = cb_c(BR_TINY, 0.0);
    d = 1.0 / d;
    cb_c del = c * d;
    f = f * del;
    if (::fabs(del.re - 1.0) + ::fabs(del.im) < BR_EPS * 0.5) {
      r = f;
      return true;
    }
  }
  return false;
}

// Hankel's expansions at large |zeta|, Re zeta >= 0: e^{zeta} K_nu(zeta)
// (DLMF 10.40.2) and e^{-zeta} I_nu(zeta) (DLMF 10.40.5, the sign of Im
// zeta picking the form); false where the terms do not fall below the
// precision before they diverge.
__device__ inline bool cb_hankel_ik(double nu, const cb_c& zeta, cb_c& is, cb_c& ks, bool want_i,
                                    const cb_c& dz) {
  double m = 4.0 * nu * nu;
  cb_c zi = 1.0 / zeta;
  cb_c t(1.0, 0.0), sp(1.0, 0.0), sm(1.0, 0.0);
  double tprev = inf();
  bool ok = false;
  for (int k = 1; k <= 100; ++k) {
    double a = 2.0 * k - 1.0;
    t = t * zi * ((m - a * a) / (8.0 * k));
    sp += t;
    if (k & 1) sm -= t;
    else sm += t;
    double at = cb_abs(t);
    if (at < BR_EPS * 0.125 * ::fmin(cb_abs(sp), cb_abs(sm)) || at == 0.0) {
      ok = true;
      break;
    }
    if (at > tprev && (double)k > nu) break;
    tprev = at;
  }
  if (!ok) return false;
  cb_c sq = cuprum::sqrt(zeta);
  ks = (1.2533141373155002512 * sp) / sq;  // sqrt(pi/2)
  if (want_i) {
    double sg = zeta.im >= 0.0 ? 1.0 : -1.0;
    // i sg e^{sg nu pi i} e^{-2 zeta} S+, with e^{-2 dz} for the low part.
    cb_c e2 = (::exp(-2.0 * zeta.re) * cb_cis(-2.0 * zeta.im)) * (1.0 - 2.0 * dz);
    cb_c other = cb_i(sg * (cb_cispi(sg * nu) * (e2 * sp)));
    is = (sm + other) / (2.5066282746310005024 * sq);  // sqrt(2 pi)
  }
  return true;
}

// a 2^n, part by part (inf or 0 past the range; zero parts stay zero).
__device__ inline cb_c cb_ldexp(const cb_c& a, int n) {
  n = n > 5000 ? 5000 : (n < -5000 ? -5000 : n);
  return cb_c(::ldexp(a.re, n), ::ldexp(a.im, n));
}

// a = m 2^n with the larger part of m in [1/2, 1) (n = 0 for a zero or
// non-finite a): keeps a scaled value and its range apart.
__device__ inline cb_c cb_normalize(const cb_c& a, int& n) {
  double t = ::fmax(::fabs(a.re), ::fabs(a.im));
  n = 0;
  if (!(t > 0.0) || is_inf(t)) return a;
  ::frexp(t, &n);
  return cb_ldexp(a, -n);
}

// m e^{E} 2^{n}, E real and n an integer: e^E as 2^q e^r, |r| <= ln2/2,
// so the binary exponent is exact and the result rounds once into the
// subnormals. over when a part overflows (a zero part stays zero).
__device__ inline cb_c cb_scale(const cb_c& m, double E, int n, bool& over) {
  const double LN2_HI = 6.93147180369123816490e-01;  // 21 low bits zero
  const double LN2_LO = 1.90821492927058770002e-10;
  cb_c r;
  if (E > 4000.0) {
    r = cb_c(m.re == 0.0 ? m.re : m.re * inf(), m.im == 0.0 ? m.im : m.im * inf());
  } else if (E < -4000.0) {
    r = cb_c(0.0 * m.re, 0.0 * m.im);
  } else {
    double q = ::rint(E * 1.4426950408889634074);
    double rr = (E - q * LN2_HI) - q * LN2_LO;
    r = cb_ldexp(m * ::exp(rr), (int)q + n);
  }
  over = !cb_finite(r);
  return r;
}

// A e^{Ea} 2^{na} + B e^{Eb} 2^{nb} = s e^{E} 2^{n}, factoring out the larger
// term's scale (the other one may underflow against it).
__device__ inline cb_c cb_combine(const cb_c& A, double Ea, int na, const cb_c& B, double Eb, int nb,
                                  double& E, int& n) {
  const double L2E = 1.4426950408889634074;
  double la = ::log2(::fmax(::fabs(A.re), ::fabs(A.im))) + na + Ea * L2E;
  double lb = ::log2(::fmax(::fabs(B.re), ::fabs(B.im))) + nb + Eb * L2E;
  bool o;
  if (la >= lb) {
    E = Ea;
    n = na;
    return A + cb_scale(B, Eb - Ea, nb - na, o);
  }
  E = Eb;
  n = nb;
  return B + cb_scale(A, Ea - Eb, na - nb, o);
}

// The core: e^{-zeta} I_nu(zeta) = is 2^ie (when want_i) and e^{zeta}
// K_nu(zeta) = ks 2^ke for nu >= 0, Re zeta >= 0, 0 < |zeta| finite (the
// binary exponents keep large orders in range). ks is not finite where
// K_nu overflows outright. False where there is no result (CF1
// unconverged: orders of hundreds at |zeta| beyond 1e5). dz: a low part
// of zeta (airy's zeta in two doubles): inside Hankel's e^{-2 zeta}, to
// first order elsewhere (not in the series, |zeta| <= 2).
__device__ __noinline__ bool cb_ik(double nu, cb_c zeta, cb_c& is, int& ie, cb_c& ks, int& ke,
                                   bool want_i, cb_c dz = cb_c(0.0, 0.0)) {
  double az = cb_abs(zeta);
  ie = ke = 0;
  if (az > 25.0 && az > 0.5 * nu * nu && cb_hankel_ik(nu, zeta, is, ks, want_i, dz)) return true;
  int nl = (int)(nu + 0.5);
  double mu = nu - nl;
  cb_c k0, k1;
  if (az <= 2.0) {
    cb_temme_k(mu, zeta, k0, k1);
    cb_c ez = cb_exp(zeta);
    k0 = k0 * ez;
    k1 = k1 * ez;
  } else {
    cb_steed_k(mu, zeta, k0, k1);
  }
  // K_{m+1} = (2m/zeta) K_m + K_{m-1}, dividing at each step (a rounded
  // 1/zeta taken once would enter K_nu to the power nu), rescaled by
  // 2^-500 past 2^500. A step that still overflows (|zeta| below about
  // 1e-150) means K_nu overflows.
  for (int i = 1; i <= nl; ++i) {
    cb_c kn = cb_div((2.0 * (mu + i)) * k1, zeta) + k0;
    k0 = k1;
    k1 = kn;
    if (!cb_finite(k1)) {
      if (i < nl) k0 = k1;
      break;
    }
    if (::fmax(::fabs(k1.re), ::fabs(k1.im)) > 3.273390607896142e150) {  // 2^500
      k0 = cb_ldexp(k0, -500);
      k1 = cb_ldexp(k1, -500);
      ke += 500;
    }
  }
  // The low part dz to first order: (e^z K_nu)' = e^z (K_nu - K_{nu+1} +
  // (nu/z) K_nu) (DLMF 10.29.2).
  cb_c dzeta = cb_div(nu * dz, zeta);
  cb_c k0p = k0;
  if (dz.re != 0.0 || dz.im != 0.0) k0 = k0 + (dz * (k0 - k1) + dzeta * k0);
  int e;
  ks = cb_normalize(k0, e);
  if (!want_i) {
    ke += e;
    return true;
  }
  if (az <= 2.0 || 0.25 * az * az <= nu + 1.0) {
    // e^{-zeta} I_nu by its e^{-Re zeta} split as 2^-q e^-r.
    double q = ::rint(zeta.re * 1.4426950408889634074);
    double rr = (zeta.re - q * 6.93147180369123816490e-01) - q * 1.90821492927058770002e-10;
    is = cb_normalize((cb_i_series(nu, zeta) * ::exp(-rr)) * cb_cis(-zeta.im), ie);
    ie -= (int)q;
  } else {
    cb_c r;
    if (!cb_cf1_i(nu, zeta, r)) {
      is = cb_nan();
      return false;
    }
    // The Wronskian with the K of exponent ke (k0 before the dz step);
    // then dz to first order: (e^-z I_nu)' = e^-z (I_{nu+1} + (nu/z - 1)
    // I_nu).
    cb_c ik = 1.0 / (zeta * (r * k0p + k1));
    ik = ik + ik * (dz * (r - 1.0) + dzeta);
    is = cb_normalize(ik, ie);
    ie -= ke;
  }
  ke += e;
  return true;
}

// SciPy's overflowed I and J: the scaled value times inf, part by part.
__device__ inline cb_c cb_times_inf(const cb_c& s) { return cb_c(s.re * inf(), s.im * inf()); }

// I_nu(z) and K_nu(z) (SciPy's overflow patterns; kover where K
// overflows) as wanted, for nu >= 0, Im z >= 0 (-0 as +0), 0 < |z|
// finite.
__device__ __noinline__ void cb_ik_upper(double nu, const cb_c& z, cb_c& iv, cb_c& kv, bool& kover,
                                         bool want_i, bool want_k) {
  bool left = z.re < 0.0;
  cb_c zeta = left ? -z : z;
  cb_c is, ks;
  int ie, ke;
  kover = false;
  if (!cb_ik(nu, zeta, is, ie, ks, ke, want_i || left)) {
    iv = kv = cb_nan();
    return;
  }
  bool axis = z.im == 0.0;
  bool over;
  // e^{-Re zeta} I_nu(zeta) 2^-ie, times e^{nu pi i} on the left (DLMF
  // 10.34.1).
  cb_c si = is * cb_cis(zeta.im);
  if (want_i) {
    cb_c s = left ? si * cb_cispi(nu) : si;
    iv = cb_scale(s, zeta.re, ie, over);
    if (over) {
      iv = (axis && (!left || is_int(nu))) ? cb_c(::copysign(inf(), s.re), 0.0) : cb_times_inf(s);
    } else if (axis && !left) {
      iv.im = 0.0;
    }
  }
  if (!want_k) return;
  // e^{Re zeta} K_nu(zeta) 2^-ke.
  cb_c sk = ks * cb_cis(-zeta.im);
  if (!left) {
    kv = cb_scale(sk, -zeta.re, ke, over);
  } else {
    // DLMF 10.34.2, m = 1: K_nu(z) = e^{-nu pi i} K_nu(zeta) - pi i
    // I_nu(zeta).
    double E;
    int n;
    cb_c s = cb_combine(sk * cb_cispi(-nu), -zeta.re, ke, -PI * cb_i(si), zeta.re, ie, E, n);
    kv = cb_scale(s, E, n, over);
  }
  kover = over || !cb_finite(sk);
  if (kover) {
    kv = (axis && !left) ? cb_c(inf(), 0.0) : cb_nan();
  } else if (axis && !left) {
    kv.im = 0.0;
  }
}

// J_nu(z) and Y_nu(z) (SciPy's overflow patterns; jover, yover where
// they overflow) for nu >= 0, Im z >= 0 (-0 as +0), 0 < |z| finite.
__device__ __noinline__ void cb_jy_upper(double nu, const cb_c& z, cb_c& jv, cb_c& yv, bool& jover,
                                         bool& yover) {
  cb_c zeta(z.im, -z.re);  // -i z: Re zeta = Im z >= 0
  cb_c is, ks;
  int ie, ke;
  jover = yover = false;
  if (!cb_ik(nu, zeta, is, ie, ks, ke, true)) {
    jv = yv = cb_nan();
    return;
  }
  bool axis = z.im == 0.0 && z.re > 0.0;
  // e^{-Im z} J_nu(z) 2^-ie and e^{Im z} H1_nu(z) 2^-ke.
  cb_c js = cb_cispi(0.5 * nu) * (is * cb_cis(zeta.im));
  cb_c hs = cb_cispi(-0.5 * nu) * (ks * cb_cis(-zeta.im));
  hs = (2.0 / PI) * cb_c(hs.im, -hs.re);  // times -2i/pi
  jv = cb_scale(js, zeta.re, ie, jover);
  if (jover) {
    jv = cb_times_inf(js);
  } else if (axis) {
    jv.im = 0.0;
  }
  // Y = i (J - H1).
  double E;
  int n;
  cb_c ys = cb_i(cb_combine(js, zeta.re, ie, -hs, -zeta.re, ke, E, n));
  yv = cb_scale(ys, E, n, yover);
  yover = yover || !cb_finite(ys);
  if (yover) {
    yv = axis ? cb_c(-inf(), 0.0) : cb_nan();
  } else if (axis) {
    yv.im = 0.0;
  }
}

// |z| past which SciPy (AMOS) gives NaN: 2^30 - 1/2 for I and K, 0.5/eps
// for J and Y.
constexpr double CB_IK_ZMAX = 1073741823.5;
constexpr double CB_JY_ZMAX = 2251799813685248.0;

// J_v and Y_v for any finite real v and finite z != 0 (DLMF 10.4.7,
// 10.4.8 for non-integer v < 0, where an overflowed J or Y gives NaN as in
// SciPy).
__device__ inline void cb_jy(double v, const cb_c& z, cb_c& j, cb_c& y) {
  bool lower = z.im < 0.0;
  cb_c w = lower ? cb_conj(z) : z;
  double nu = ::fabs(v);
  bool jover, yover;
  if (nu > 1e5) {
    // Orders past 1e5 (the recurrences' step counts): where |z| <= nu/2, J
    // underflows and Y overflows (|J_nu(z)| <= (e |z|/2 nu)^nu e^{|Im z|});
    // no result (NaN) elsewhere.
    bool small = cb_abs(z) <= 0.5 * nu;
    j = small ? cb_c(0.0, 0.0) : cb_nan();
    y = (small && z.im == 0.0 && z.re > 0.0) ? cb_c(-inf(), 0.0) : cb_nan();
    jover = false;
    yover = true;
  } else {
    cb_jy_upper(nu, w, j, y, jover, yover);
  }
  if (v < 0.0) {
    if (is_int(nu)) {
      double sg = br_neg1pow(nu);
      j = sg * j;
      y = sg * y;
    } else {
      double c = ::cospi(nu), s = ::sinpi(nu);
      cb_c jr = jover ? cb_nan() : j;
      cb_c yr = yover ? cb_nan() : y;
      cb_c j2 = c * j - s * yr;
      y = s * jr + c * y;
      j = j2;
    }
  }
  if (lower) {
    j = cb_conj(j);
    y = cb_conj(y);
  }
}

}  // namespace detail

// scipy.special.iv(v, z) on complex z (loops fF->F, dD->D): see the notes
// at the start of the complex section.
__device__ __noinline__ cuprum::complex<double> iv(double v, const cuprum::complex<double>& z) {
  using namespace detail;
  if (is_nan(v) || is_nan(z.re) || is_nan(z.im) || is_inf(v)) return cb_nan();
  bool vint = is_int(v);
  if (z.re == 0.0 && z.im == 0.0) {
    if (v == 0.0) return cb_c(1.0, 0.0);
    return (v > 0.0 || vint) ? cb_c(0.0, 0.0) : cb_nan();
  }
  if (is_inf(z.re) || is_inf(z.im)) return cb_nan();
  if (!(z.im == 0.0 && z.re > 0.0) && cb_abs(z) > CB_IK_ZMAX) return cb_nan();
  double nu = ::fabs(v);
  // Orders past 1e5 (the recurrences' step counts): where |z| <= nu/2, I
  // underflows (|I_nu(z)| <= (e |z|/2 nu)^nu e^{|Re z|}); else no result.
  if (nu > 1e5) {
    return (cb_abs(z) <= 0.5 * nu && (v > 0.0 || vint)) ? cb_c(0.0, 0.0) : cb_nan();
  }
  bool lower = z.im < 0.0;
  cb_c w = lower ? cb_conj(z) : z;
  bool refl = v < 0.0 && !vint;
  cb_c i, k;
  bool kover;
  cb_ik_upper(nu, w, i, k, kover, true, refl);
  // DLMF 10.27.2; an overflowed K gives NaN there, as in SciPy.
  if (refl) i = i + ((2.0 / PI) * ::sinpi(nu)) * (kover ? cb_nan() : k);
  return lower ? cb_conj(i) : i;
}
__device__ inline cuprum::complex<float> iv(float v, const cuprum::complex<float>& z) {
  return cuprum::complex<float>(iv((double)v, cuprum::complex<double>(z)));
}

// scipy.special.kv(v, z) on complex z (loops fF->F, dD->D).
__device__ __noinline__ cuprum::complex<double> kv(double v, const cuprum::complex<double>& z) {
  using namespace detail;
  if (is_nan(v) || is_nan(z.re) || is_nan(z.im) || is_inf(v)) return cb_nan();
  if (z.re == 0.0 && z.im == 0.0) return cb_nan();
  if (is_inf(z.re) || is_inf(z.im)) return cb_nan();
  bool posaxis = z.im == 0.0 && z.re > 0.0;
  if (!posaxis && cb_abs(z) > CB_IK_ZMAX) return cb_nan();
  double nu = ::fabs(v);
  if (nu > 1e5) {
    return (cb_abs(z) <= 0.5 * nu && posaxis) ? cb_c(inf(), 0.0) : cb_nan();
  }
  bool lower = z.im < 0.0;
  cb_c w = lower ? cb_conj(z) : z;
  cb_c i, k;
  bool kover;
  cb_ik_upper(nu, w, i, k, kover, false, true);
  return lower ? cb_conj(k) : k;
}
__device__ inline cuprum::complex<float> kv(float v, const cuprum::complex<float>& z) {
  return cuprum::complex<float>(kv((double)v, cuprum::complex<double>(z)));
}

// scipy.special.jv(v, z) on complex z (loops fF->F, dD->D).
__device__ __noinline__ cuprum::complex<double> jv(double v, const cuprum::complex<double>& z) {
  using namespace detail;
  if (is_nan(v) || is_nan(z.re) || is_nan(z.im) || is_inf(v)) return cb_nan();
  if (z.re == 0.0 && z.im == 0.0) {
    if (v == 0.0) return cb_c(1.0, 0.0);
    return (v > 0.0 || is_int(v)) ? cb_c(0.0, 0.0) : cb_nan();
  }
  if (is_inf(z.re) || is_inf(z.im)) return cb_nan();
  if (z.im != 0.0 && cb_abs(z) > CB_JY_ZMAX) return cb_nan();
  cb_c j, y;
  cb_jy(v, z, j, y);
  return j;
}
__device__ inline cuprum::complex<float> jv(float v, const cuprum::complex<float>& z) {
  return cuprum::complex<float>(jv((double)v, cuprum::complex<double>(z)));
}

// scipy.special.yv(v, z) on complex z (loops fF->F, dD->D).
__device__ __noinline__ cuprum::complex<double> yv(double v, const cuprum::complex<double>& z) {
  using namespace detail;
  if (is_nan(v) || is_nan(z.re) || is_nan(z.im)) return cb_nan();
  double nu = ::fabs(v);
  if (z.re == 0.0 && z.im == 0.0) {
    // SciPy: -inf + 0i for the order |v|, then DLMF 10.4.8 with J_|v|(0) = 0.
    cb_c y(-inf(), 0.0);
    if (v < 0.0 && !is_inf(v)) {
      if (is_int(nu)) {
        y = br_neg1pow(nu) * y;
      } else {
        double c = ::cospi(nu);
        y = cb_c(c * y.re, 0.0);
      }
    }
    return y;
  }
  if (is_inf(v) || is_inf(z.re) || is_inf(z.im)) return cb_nan();
  if (z.im != 0.0 && cb_abs(z) > CB_JY_ZMAX) return cb_nan();
  cb_c j, y;
  cb_jy(v, z, j, y);
  return y;
}
__device__ inline cuprum::complex<float> yv(float v, const cuprum::complex<float>& z) {
  return cuprum::complex<float>(yv((double)v, cuprum::complex<double>(z)));
}

namespace detail {

// Maclaurin series DLMF 9.4.1-9.4.4 in complex arithmetic, |z| <= 1.
__device__ inline void cb_airy_series(const cb_c& z, cb_c& ai, cb_c& aip, cb_c& bi, cb_c& bip) {
  const double c1 = 0.35502805388781723926;  // Ai(0)
  const double c2 = 0.25881940379280679840;  // -Ai'(0)
  const double s3 = 1.7320508075688772935;
  cb_c z3 = z * z * z;
  cb_c f(1.0, 0.0), g = z, gp(1.0, 0.0);
  cb_c tf(1.0, 0.0), tg = z, tfp = 0.5 * (z * z), tgp(1.0, 0.0);
  cb_c fp = tfp;
  for (int k = 1; k <= 60; ++k) {
    double k3 = 3.0 * k;
    tf = tf * z3 / ((k3 - 1.0) * k3);
    tg = tg * z3 / (k3 * (k3 + 1.0));
    tgp = tgp * z3 / ((k3 - 2.0) * k3);
    f += tf;
    g += tg;
    gp += tgp;
    if (k >= 2) {
      tfp = tfp * z3 / ((k3 - 3.0) * (k3 - 1.0));
      fp += tfp;
    }
    if (cb_abs(tf) + cb_abs(tg) + cb_abs(tgp) + cb_abs(tfp) < 1e-18) break;
  }
  ai = c1 * f - c2 * g;
  aip = c1 * fp - c2 * gp;
  bi = s3 * (c1 * f + c2 * g);
  bip = s3 * (c1 * fp + c2 * gp);
}

// a + b = s + e exactly.
__device__ inline void cb_two_sum(double a, double b, double& s, double& e) {
  s = __dadd_rn(a, b);
  double bb = __dsub_rn(s, a);
  e = __dadd_rn(__dsub_rn(a, __dsub_rn(s, bb)), __dsub_rn(b, bb));
}

// zeta = (2/3) z^{3/2} in two doubles, zh + zl (its rounding, |zeta| eps,
// would enter e^{+-zeta} as a relative error), and s = sqrt(z); Im z >= 0.
__device__ inline void cb_airy_zeta(const cb_c& z, cb_c& s, cb_c& zh, cb_c& zl) {
  s = cuprum::sqrt(z);
  double a = s.re, b = s.im;
  // r = z - s^2 in extra precision; sqrt(z) = s + r/(2s).
  double p1 = __dmul_rn(a, a), e1 = ::fma(a, a, -p1);
  double p2 = __dmul_rn(b, b), e2 = ::fma(b, b, -p2);
  double t, te, u, ue;
  cb_two_sum(z.re, -p1, t, te);
  cb_two_sum(t, p2, u, ue);
  double rre = u + (te + ue + e2 - e1);
  double p3 = (2.0 * a) * b, e3 = ::fma(2.0 * a, b, -p3);
  cb_two_sum(z.im, -p3, t, te);
  double rim = t + (te - e3);
  cb_c ds = cb_c(rre, rim) / (2.0 * s);
  // P = z s + z ds: the products in two doubles.
  double q1 = __dmul_rn(z.re, a), f1 = ::fma(z.re, a, -q1);
  double q2 = __dmul_rn(z.im, b), f2 = ::fma(z.im, b, -q2);
  double q3 = __dmul_rn(z.re, b), f3 = ::fma(z.re, b, -q3);
  double q4 = __dmul_rn(z.im, a), f4 = ::fma(z.im, a, -q4);
  cb_c zd = z * ds;
  double ph, pl, qh, ql;
  cb_two_sum(q1, -q2, ph, pl);
  pl += (f1 - f2) + zd.re;
  cb_two_sum(q3, q4, qh, ql);
  ql += (f3 + f4) + zd.im;
  // (2/3) P: q = 2 P_hi / 3 and its remainder.
  double xr = (2.0 * ph) / 3.0, xi = (2.0 * qh) / 3.0;
  double dr = (::fma(-3.0, xr, 2.0 * ph) + 2.0 * pl) / 3.0;
  double di = (::fma(-3.0, xi, 2.0 * qh) + 2.0 * ql) / 3.0;
  cb_two_sum(xr, dr, zh.re, zl.re);
  cb_two_sum(xi, di, zh.im, zl.im);
}

// s e^{E}, NaN where it overflows (SciPy's airy).
__device__ inline cb_c cb_airy_unscale(const cb_c& s, double E) {
  bool over;
  cb_c r = cb_scale(s, E, 0, over);
  return (over || !cb_finite(s)) ? cb_nan() : r;
}

// Ai, Ai', Bi, Bi' for |z| > 1, Im z >= +0 (DLMF 9.6.1-9.6.8 through the
// scaled core at xi with Re xi >= 0: xi = zeta for |ph z| <= pi/3, xi =
// -zeta (DLMF 10.34.1, 10.34.2) for pi/3 < ph z <= 2 pi/3, and J, Y of
// (2/3)(-z)^{3/2} (DLMF 9.6.6-9.6.9 with 10.4.7, 10.4.8) beyond). A value
// that overflows is NaN (SciPy's).
__device__ __noinline__ void cb_airy_big(const cb_c& z, cb_c& ai, cb_c& aip, cb_c& bi, cb_c& bip) {
  const double s3 = 1.7320508075688772935;
  const double rpi = 0.31830988618379067154;  // 1/pi
  cb_c s, zh, zl;
  cb_airy_zeta(z, s, zh, zl);
  int cas = zh.im < 0.0 ? 2 : (zh.re >= 0.0 ? 0 : 1);
  cb_c xh = cas == 0 ? zh : (cas == 1 ? -zh : cb_c(-zh.re, zh.im));
  cb_c xl = cas == 0 ? zl : (cas == 1 ? -zl : cb_c(-zl.re, zl.im));
  cb_c i1, k1, i2, k2;
  int e1, f1, e2, f2;
  if (!cb_ik(1.0 / 3.0, xh, i1, e1, k1, f1, true, xl) ||
      !cb_ik(2.0 / 3.0, xh, i2, e2, k2, f2, true, xl)) {
    ai = aip = bi = bip = cb_nan();
    return;
  }
  // Orders 1/3, 2/3 at |xi| > 2/3: the scaled values are moderate.
  i1 = cb_ldexp(i1, e1);
  k1 = cb_ldexp(k1, f1);
  i2 = cb_ldexp(i2, e2);
  k2 = cb_ldexp(k2, f2);
  double E = xh.re;
  // e^{xi} = e^E P, e^{-xi} = e^{-E} Q.
  cb_c P = cb_cis(xh.im) * (1.0 + xl);
  cb_c Q = cb_cis(-xh.im) * (1.0 - xl);
  cb_c I1 = i1 * P, I2 = i2 * P, K1 = k1 * Q, K2 = k2 * Q;
  double d = ::exp(-2.0 * E);
  cb_c sr3 = s / s3;   // sqrt(z/3)
  cb_c zr3 = z / s3;   // z / sqrt(3)
  // Each value as (dominant-scaled value, its exponent).
  cb_c a0, a1, b0, b1;
  double ea, eb;
  if (cas == 0) {
    a0 = rpi * (sr3 * K1);
    a1 = -rpi * (zr3 * K2);
    ea = -E;
    b0 = sr3 * (2.0 * I1 + (s3 * rpi) * (K1 * d));
    b1 = zr3 * (2.0 * I2 + (s3 * rpi) * (K2 * d));
    eb = E;
  } else if (cas == 1) {
    a0 = rpi * (sr3 * (cb_cispi(-1.0 / 3.0) * (K1 * d) - PI * cb_i(I1)));
    a1 = -rpi * (zr3 * (cb_cispi(-2.0 / 3.0) * (K2 * d) - PI * cb_i(I2)));
    b0 = sr3 * (I1 + (s3 * rpi) * (cb_cispi(-1.0 / 3.0) * (K1 * d)));
    b1 = zr3 * ((s3 * rpi) * (cb_cispi(-2.0 / 3.0) * (K2 * d)) - I2);
    ea = eb = E;
  } else {
    // u = conj((2/3) w^{3/2}), w = -z: J(u) = e^{nu pi i/2} I(xi), H1(u) =
    // -(2i/pi) e^{-nu pi i/2} K(xi), Y(u) = i (J - H1); J, Y at
    // (2/3) w^{3/2} are their conjugates. Scaled by e^{-E}.
    cb_c j1 = cb_cispi(1.0 / 6.0) * I1, j2 = cb_cispi(1.0 / 3.0) * I2;
    cb_c h1 = (cb_cispi(-1.0 / 6.0) * (K1 * d)) * (2.0 * rpi);
    cb_c h2 = (cb_cispi(-1.0 / 3.0) * (K2 * d)) * (2.0 * rpi);
    h1 = cb_c(h1.im, -h1.re);  // times -i
    h2 = cb_c(h2.im, -h2.re);
    cb_c y1 = cb_conj(cb_i(j1 - h1)), y2 = cb_conj(cb_i(j2 - h2));
    j1 = cb_conj(j1);
    j2 = cb_conj(j2);
    cb_c sw = cb_c(s.im, -s.re);  // sqrt(-z) = -i sqrt(z)
    cb_c w = -z;
    a0 = sw * (0.5 * j1 - y1 / (2.0 * s3));
    a1 = (0.5 * w) * (j2 + y2 / s3);
    b0 = -(0.5 * sw) * (j1 / s3 + y1);
    b1 = (0.5 * w) * (j2 / s3 - y2);
    ea = eb = E;
  }
  ai = cb_airy_unscale(a0, ea);
  aip = cb_airy_unscale(a1, ea);
  bi = cb_airy_unscale(b0, eb);
  bip = cb_airy_unscale(b1, eb);
}

// |z| past which SciPy (AMOS) gives NaN: (2^30 - 1/2)^{2/3}.
constexpr double CB_AIRY_ZMAX = 1048575.9996744791;

}  // namespace detail

// scipy.special.airy(z) on complex z (loops F->FFFF, D->DDDD): Ai, Ai',
// Bi, Bi'. On the real axis the real airy above (real values); elsewhere
// the Maclaurin series DLMF 9.4.1-9.4.4 for |z| <= 1 and beyond DLMF 9.6
// through the Bessel core of the complex section, with zeta = (2/3)
// z^{3/2} carried in two doubles. Im z < 0 by conjugation (entire, real on
// the real axis). NaN for a NaN or infinite part and for |z| >
// (2^30)^{2/3} (all four), and for each value that overflows (as SciPy's
// AMOS); 0 where a value underflows.
__device__ __noinline__ void airy(const cuprum::complex<double>& z, cuprum::complex<double>& ai,
                            cuprum::complex<double>& aip, cuprum::complex<double>& bi,
                            cuprum::complex<double>& bip) {
  using namespace detail;
  if (!cb_finite(z) || !(cb_abs(z) <= CB_AIRY_ZMAX)) {
    ai = aip = bi = bip = cb_nan();
    return;
  }
  if (z.im == 0.0) {
    double a, b, c, d;
    airy(z.re, a, b, c, d);
    ai = is_inf(a) ? cb_nan() : cb_c(a, 0.0);
    aip = is_inf(b) ? cb_nan() : cb_c(b, 0.0);
    bi = is_inf(c) ? cb_nan() : cb_c(c, 0.0);
    bip = is_inf(d) ? cb_nan() : cb_c(d, 0.0);
    return;
  }
  bool lower = z.im < 0.0;
  cb_c w(z.re, lower ? -z.im : z.im);
  if (cb_abs(w) <= 1.0) {
    cb_airy_series(w, ai, aip, bi, bip);
  } else {
    cb_airy_big(w, ai, aip, bi, bip);
  }
  if (lower) {
    ai = cb_conj(ai);
    aip = cb_conj(aip);
    bi = cb_conj(bi);
    bip = cb_conj(bip);
  }
}
__device__ inline void airy(const cuprum::complex<float>& z, cuprum::complex<float>& ai,
                            cuprum::complex<float>& aip, cuprum::complex<float>& bi,
                            cuprum::complex<float>& bip) {
  cuprum::complex<double> a, b, c, d;
  airy(cuprum::complex<double>(z), a, b, c, d);
  ai = cuprum::complex<float>(a);
  aip = cuprum::complex<float>(b);
  bi = cuprum::complex<float>(c);
  bip = cuprum::complex<float>(d);
}

}  // namespace special
}  // namespace cuprum
