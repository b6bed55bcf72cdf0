// scipy.special's elliptic integrals and Jacobi elliptic functions
// (namespace cuprum::special), in SciPy's parameter m (k^2); see the table
// rows in crates/gpu-special/src/table/expint.rs. Methods: the
// arithmetic-geometric mean for K (DLMF 19.8.1), Carlson's symmetric
// integrals R_F and R_D by the duplication algorithm (DLMF 19.36.1-2,
// B. C. Carlson, Numer. Algorithms 10 (1995) 13-26) for E, F(phi|m) and
// E(phi|m) (DLMF 19.25.1, 19.25.5, 19.25.9), and the descending Landen /
// AGM scheme for sn, cn, dn (DLMF 22.20.1-22.20.2) with the expansions of
// DLMF 22.10 near m = 0 and m = 1. No fitted coefficients are used
// (crates/gpu-special/tools/coefficients_expint.py prints the constants).
#pragma once

#include "cuprum/special/common.cuh"

namespace cuprum {
namespace special {
namespace detail {

// R_F(x, y, z) by duplication (DLMF 19.36.1, Carlson 1995 eq. 2.2-2.4).
__device__ inline double carlson_rf(double x, double y, double z) {
  double a = (x + y + z) / 3.0;
  double q = ::fmax(::fabs(a - x), ::fmax(::fabs(a - y), ::fabs(a - z))) * 3.0e3;  // above Carlson's (3r)^{-1/6}, r = 1e-20
  double f = 1.0;
  for (int i = 0; i < 200; ++i) {
    if (q * f < ::fabs(a)) break;
    double sx = ::sqrt(x), sy = ::sqrt(y), sz = ::sqrt(z);
    double lam = sx * sy + sy * sz + sz * sx;
    x = 0.25 * (x + lam); y = 0.25 * (y + lam); z = 0.25 * (z + lam);
    a = 0.25 * (a + lam);
    f *= 0.25;
  }
  double X = (a - x) / a, Y = (a - y) / a, Z = -(X + Y);
  double e2 = X * Y - Z * Z, e3 = X * Y * Z;
  // DLMF 19.36.1's series to fifth order.
  double s = 1.0 - e2 / 10.0 + e3 / 14.0 + e2 * e2 / 24.0 - 3.0 * e2 * e3 / 44.0;
  return s / ::sqrt(a);
}

// R_D(x, y, z) by duplication (DLMF 19.36.2, Carlson 1995 eq. 2.28-2.30).
__device__ inline double carlson_rd(double x, double y, double z) {
  double a = (x + y + 3.0 * z) / 5.0;
  double q = ::fmax(::fabs(a - x), ::fmax(::fabs(a - y), ::fabs(a - z))) * 4.0e3;  // above Carlson's (r/4)^{-1/6}, r = 1e-20
  double f = 1.0, sum = 0.0;
  for (int i = 0; i < 200; ++i) {
    if (q * f < ::fabs(a)) break;
    double sx = ::sqrt(x), sy = ::sqrt(y), sz = ::sqrt(z);
    double lam = sx * sy + sy * sz + sz * sx;
    sum += f / (sz * (z + lam));
    x = 0.25 * (x + lam); y = 0.25 * (y + lam); z = 0.25 * (z + lam);
    a = 0.25 * (a + lam);
    f *= 0.25;
  }
  double X = (a - x) / a, Y = (a - y) / a, Z = -(X + Y) / 3.0;
  double e2 = X * Y - 6.0 * Z * Z, e3 = (3.0 * X * Y - 8.0 * Z * Z) * Z;
  double e4 = 3.0 * (X * Y - Z * Z) * Z * Z, e5 = X * Y * Z * Z * Z;
  double s = 1.0 - 3.0 * e2 / 14.0 + e3 / 6.0 + 9.0 * e2 * e2 / 88.0 - 3.0 * e4 / 22.0
             - 9.0 * e2 * e3 / 52.0 + 3.0 * e5 / 26.0;
  return 3.0 * sum + f * s / (a * ::sqrt(a));
}

// pi / (2 AGM(1, sqrt(p))) = K(1 - p) (DLMF 19.8.5).
__device__ inline double agm_k(double p) {
  double a = 1.0, b = ::sqrt(p);
  for (int i = 0; i < 40; ++i) {
    double an = 0.5 * (a + b);
    if (::fabs(a - b) <= 1e-16 * a) { a = an; break; }
    b = ::sqrt(a * b);
    a = an;
  }
  return PI / (2.0 * a);
}

constexpr double PI_HI = 3.141592653589793116;
constexpr double PI_LO = 1.2246467991473532e-16;

}  // namespace detail

// scipy.special.ellipkm1: K(1 - p); inf at p = 0, NaN for p < 0, 0 at inf.
__device__ inline double ellipkm1(double p) {
  if (detail::is_nan(p) || p < 0.0) return detail::nan();
  if (p == 0.0) return detail::inf();
  if (detail::is_inf(p)) return 0.0;
  // K(m) = K(m / (m - 1)) / sqrt(1 - m) (DLMF 19.7.5) keeps sqrt(p) finite.
  if (p > 1e300) return ::sqrt(1.0 / p) * detail::agm_k(1.0 / p);
  return detail::agm_k(p);
}
CUPRUM_SPECIAL_F1(ellipkm1)

// scipy.special.ellipk: K(m) = R_F(0, 1 - m, 1); inf at m = 1, NaN above,
// 0 at -inf.
__device__ inline double ellipk(double m) {
  if (detail::is_nan(m) || m > 1.0) return detail::nan();
  if (m == -detail::inf()) return 0.0;
  return ellipkm1(1.0 - m);
}
CUPRUM_SPECIAL_F1(ellipk)

// scipy.special.ellipe: E(m) = (p/3)(R_D(0, p, 1) + R_D(0, 1, p)),
// p = 1 - m (DLMF 19.25.1); 1 at m = 1, NaN above, inf at -inf.
__device__ inline double ellipe(double m) {
  if (detail::is_nan(m) || m > 1.0) return detail::nan();
  if (m == 1.0) return 1.0;
  if (m == -detail::inf()) return detail::inf();
  double p = 1.0 - m;
  if (p > 1e200) {
    // E(m) = sqrt(p) E(m / (m - 1)) (DLMF 19.7.5 as a parameter change).
    double p2 = 1.0 / p;
    return ::sqrt(p) * (p2 / 3.0 * (detail::carlson_rd(0.0, p2, 1.0) + detail::carlson_rd(0.0, 1.0, p2)));
  }
  if (m >= 0.0 && m < 0.5)
    return detail::carlson_rf(0.0, p, 1.0) - m / 3.0 * detail::carlson_rd(0.0, p, 1.0);
  return p / 3.0 * (detail::carlson_rd(0.0, p, 1.0) + detail::carlson_rd(0.0, 1.0, p));
}
CUPRUM_SPECIAL_F1(ellipe)

namespace detail {
// phi = k pi + r, |r| <= pi/2, with pi in two parts.
__device__ inline double reduce_pi(double phi, double& k) {
  k = ::rint(phi / PI_HI);
  return ::fma(-k, PI_LO, ::fma(-k, PI_HI, phi));
}
}  // namespace detail

// scipy.special.ellipkinc: F(phi | m) = sin(phi) R_F(cos^2, 1 - m sin^2, 1)
// (DLMF 19.25.5), with F(phi + k pi) = F(phi) + 2 k K(m) (DLMF 19.2.10). NaN where
// 1 - m sin^2 phi < 0; at m = 1, inf for |phi| >= pi/2.
__device__ inline double ellipkinc(double phi, double m) {
  if (detail::is_nan(phi) || detail::is_nan(m)) return detail::nan();
  if (m == detail::inf()) return detail::nan();
  if (m == -detail::inf()) return detail::is_inf(phi) ? detail::nan() : 0.0;
  if (detail::is_inf(phi)) return m > 1.0 ? detail::nan() : phi;
  if (m == 1.0 && ::fabs(phi) >= detail::PI / 2) return detail::inf();
  if (phi == 0.0) return phi;
  double k;
  double r = detail::reduce_pi(phi, k);
  double s, c;
  ::sincos(r, &s, &c);
  double d = 1.0 - m * s * s;
  if (d < 0.0) return detail::nan();
  double f = s * detail::carlson_rf(c * c, d, 1.0);
  if (k != 0.0) {
    if (m > 1.0) return detail::nan();
    f += 2.0 * k * ellipk(m);
  }
  return f;
}
__device__ __forceinline__ float ellipkinc(float a, float b) { return (float)ellipkinc((double)a, (double)b); }

// scipy.special.ellipeinc: E(phi | m) = s R_F(c^2, d, 1) - (m/3) s^3
// R_D(c^2, d, 1) (DLMF 19.25.9), E(phi + k pi) = E(phi) + 2 k E(m).
__device__ inline double ellipeinc(double phi, double m) {
  if (detail::is_nan(phi) || detail::is_nan(m)) return detail::nan();
  if (m == detail::inf()) return detail::nan();
  if (m == -detail::inf()) return detail::is_inf(phi) ? phi : detail::inf();
  if (detail::is_inf(phi)) return m > 1.0 ? detail::nan() : phi;
  if (phi == 0.0) return phi;
  double k;
  double r = detail::reduce_pi(phi, k);
  double s, c;
  ::sincos(r, &s, &c);
  double d = 1.0 - m * s * s;
  if (d < 0.0) return detail::nan();
  double e = s * detail::carlson_rf(c * c, d, 1.0) - m / 3.0 * s * s * s * detail::carlson_rd(c * c, d, 1.0);
  if (k != 0.0) {
    if (m > 1.0) return detail::nan();
    e += 2.0 * k * ellipe(m);
  }
  return e;
}
__device__ __forceinline__ float ellipeinc(float a, float b) { return (float)ellipeinc((double)a, (double)b); }

// scipy.special.ellipj: sn, cn, dn and the amplitude ph = am(u | m) for
// 0 <= m <= 1 (NaN otherwise and for infinite u). Descending Landen / AGM
// (DLMF 22.20.1-22.20.2); near m = 0 and m = 1 the first-order
// expansions DLMF 22.10.1-22.10.6 in m and 1 - m.
__device__ inline void ellipj(double u, double m, double& sn, double& cn, double& dn, double& ph) {
  if (detail::is_nan(u) || detail::is_nan(m) || m < 0.0 || m > 1.0 || detail::is_inf(u)) {
    sn = cn = dn = ph = detail::nan();
    return;
  }
  if (m < 1e-9) {
    double s, c;
    ::sincos(u, &s, &c);
    double t = 0.25 * m * (u - s * c);
    sn = s - t * c;
    cn = c + t * s;
    ph = u - t;
    dn = 1.0 - 0.5 * m * s * s;
    return;
  }
  if (m >= 0.9999999999) {
    double p = 1.0 - m;
    double ch = ::cosh(u), th = ::tanh(u), sech = 1.0 / ch;
    double t = 0.25 * p * (::sinh(u) * ch - u);
    sn = th + t * sech * sech;
    ph = 2.0 * ::atan(::exp(u)) - detail::PI / 2 + t * sech;
    cn = sech - t * th * sech;
    dn = sech + 0.25 * p * (::sinh(u) * ch + u) * th * sech;
    return;
  }
  double a[12], c[12];
  a[0] = 1.0;
  double b = ::sqrt(1.0 - m);
  c[0] = ::sqrt(m);
  int n = 0;
  while (::fabs(c[n]) > 1e-17 * a[n] && n < 11) {
    double an = 0.5 * (a[n] + b);
    c[n + 1] = 0.5 * (a[n] - b);
    b = ::sqrt(a[n] * b);
    a[n + 1] = an;
    ++n;
  }
  double phi = ::ldexp(a[n] * u, n);
  double prev = phi;
  for (int j = n; j > 0; --j) {
    prev = phi;
    phi = 0.5 * (phi + ::asin(c[j] * ::sin(phi) / a[j]));
  }
  double s, co;
  ::sincos(phi, &s, &co);
  sn = s;
  cn = co;
  // dn^2 = 1 - m sn^2 = (1 - m) + m cn^2 (1 - m exact for m >= 1/2): the
  // form that does not cancel. (Beyond |u| = 1e10 the phase has no
  // digits; SciPy keeps DLMF 22.20.2's cos(phi_0) / cos(phi_1 - phi_0).)
  double msn = m * s * s;
  if (::fabs(u) >= 1e10 && n > 0)
    dn = co / ::cos(prev - phi);
  else
    dn = msn < 0.5 ? ::sqrt(1.0 - msn) : ::sqrt((1.0 - m) + m * co * co);
  ph = phi;
}
__device__ inline void ellipj(float u, float m, float& sn, float& cn, float& dn, float& ph) {
  double a, b, c, d;
  ellipj((double)u, (double)m, a, b, c, d);
  sn = (float)a; cn = (float)b; dn = (float)c; ph = (float)d;
}

}  // namespace special
}  // namespace cuprum
