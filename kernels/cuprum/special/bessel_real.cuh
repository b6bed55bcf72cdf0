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
  double pr = t * sq;
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

}  // namespace special
}  // namespace cuprum
