// Lets g++ compile kernels/cuprum/special/*.cuh for the host, so an
// algorithm can be checked against mpmath without a GPU
// (tools/host_eval.py). The CUDA-only math the headers call is supplied
// from libstdc++'s special functions or a plain host version: good for
// checking an algorithm, not for the accuracy table, which is measured
// on the GPU.
#pragma once
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>

#define __device__
#define __host__
#define __global__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))

inline double __longlong_as_double(long long v) { double d; std::memcpy(&d, &v, 8); return d; }
inline long long __double_as_longlong(double d) { long long v; std::memcpy(&v, &d, 8); return v; }
inline float __int_as_float(int v) { float f; std::memcpy(&f, &v, 4); return f; }
inline int __float_as_int(float f) { int v; std::memcpy(&v, &f, 4); return v; }
inline int __double2hiint(double d) { return (int)(__double_as_longlong(d) >> 32); }
inline int __double2loint(double d) { return (int)(__double_as_longlong(d) & 0xffffffff); }
inline double __hiloint2double(int hi, int lo) {
  return __longlong_as_double(((long long)hi << 32) | (unsigned int)lo);
}

// sin(pi x) and cos(pi x) with exact reduction to |r| <= 1/2, so that
// they are accurate near the integers as CUDA's are.
inline double sinpi(double x) {
  if (!std::isfinite(x)) return NAN;
  double r = std::remainder(x, 2.0);  // exact, in [-1, 1]
  if (r > 0.5) r = 1.0 - r;
  if (r < -0.5) r = -1.0 - r;
  if (r == 0.0) return std::copysign(0.0, x);
  return std::sin(M_PI * r);
}
inline double cospi(double x) {
  if (!std::isfinite(x)) return NAN;
  double r = std::fabs(std::remainder(x, 2.0));  // [0, 1]
  if (r == 0.5) return 0.0;
  return sinpi(0.5 - r);
}
inline void sincospi(double x, double* s, double* c) { *s = sinpi(x); *c = cospi(x); }
// CUDA's explicitly rounded arithmetic (never contracted into an FMA);
// g++ runs with -ffp-contract=off, so the plain operations are the same.
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline double rcbrt(double x) { return 1.0 / std::cbrt(x); }
inline double exp10(double x) { return std::pow(10.0, x); }
// libstdc++'s special functions throw outside their domain: answer as
// CUDA's do instead.
inline double cyl_bessel_i0(double x) {
  if (std::isnan(x)) return x;
  try { return std::cyl_bessel_i(0.0, std::fabs(x)); } catch (...) { return INFINITY; }
}
inline double cyl_bessel_i1(double x) {
  if (std::isnan(x)) return x;
  try { return std::copysign(std::cyl_bessel_i(1.0, std::fabs(x)), x); } catch (...) { return std::copysign(INFINITY, x); }
}
inline double normcdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
inline double erfcx(double x) {
  if (x < 25) return std::exp(x * x) * std::erfc(x);
  double z = 1 / (x * x);
  return (1 - z / 2 + 0.75 * z * z - 1.875 * z * z * z) / (x * std::sqrt(M_PI));
}
// Newton on erf / erfc from a rough start: a host stand-in only.
inline double erfinv(double y) {
  if (y <= -1) return y == -1 ? -INFINITY : NAN;
  if (y >= 1) return y == 1 ? INFINITY : NAN;
  double w = -std::log((1 - y) * (1 + y)), x = std::copysign(std::sqrt(w), y) * 0.9;
  for (int i = 0; i < 60; ++i) x -= (std::erf(x) - y) / (2 / std::sqrt(M_PI) * std::exp(-x * x));
  return x;
}
inline double erfcinv(double y) {
  if (y <= 0) return y == 0 ? INFINITY : NAN;
  if (y >= 2) return y == 2 ? -INFINITY : NAN;
  if (y > 0.1 && y < 1.9) return erfinv(1 - y);
  double x = y < 1 ? std::sqrt(-std::log(y)) : -std::sqrt(-std::log(2 - y));
  for (int i = 0; i < 100; ++i) {
    double f = y < 1 ? std::erfc(x) - y : (2 - std::erfc(-x)) - y;
    x += f / (2 / std::sqrt(M_PI) * std::exp(-x * x));
  }
  return x;
}
inline double normcdfinv(double p) { return -std::sqrt(2.0) * erfcinv(2 * p); }
inline float erfinvf(float y) { return (float)erfinv(y); }
inline float erfcinvf(float y) { return (float)erfcinv(y); }
inline float cyl_bessel_i0f(float x) { return (float)cyl_bessel_i0(x); }
inline float cyl_bessel_i1f(float x) { return (float)cyl_bessel_i1(x); }
inline float normcdff(float x) { return (float)normcdf(x); }
inline float erfcxf(float x) { return (float)erfcx(x); }
inline float sinpif(float x) { return (float)sinpi(x); }
inline float cospif(float x) { return (float)cospi(x); }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
// CUDA's __align__ (cuprum/complex.cuh's struct), for the host.
#ifndef __align__
#define __align__(n) alignas(n)
#endif
