// Cuprum's complex numbers for NVRTC kernels: cuprum::complex<float> and
// cuprum::complex<double> (complex64 and complex128).
//
// Layout: {re, im}, as std::complex, C99 `_Complex` and NumPy's complex
// types, aligned to their size as thrust::complex (CuPy's type): complex64
// data must be 8-byte aligned, complex128 data 16-byte aligned (Cuprum's
// allocations and views of complex arrays always are).
//
// Semantics follow NumPy:
// - ordering (<, <=, >, >=) is lexicographic on (re, im), NaN-aware as
//   NumPy's complex comparison loops (a NaN part compares false);
// - branch cuts are C99 Annex G's (NumPy's): log and sqrt along the negative
//   real axis, asin/acos/atanh along the real axis outside [-1, 1],
//   asinh/atan along the imaginary axis outside [-i, i], acosh along the
//   real axis below 1; the sign of a zero part picks the side of the cut.
// Special values (infinities, NaNs) are right on the common paths (abs,
// sqrt, exp, log with infinite or NaN parts); atan and atanh are NumPy's
// (FreeBSD's) catan and catanh, with all of Annex G's special values; not
// every Annex G corner case of the other functions is reproduced.
//
// Also here: the real overloads cuprum::exp(float), cuprum::exp(double), ...
// that the complex functions use and that math.cuh extends to half types.
#pragma once

namespace cuprum {

// ---------------------------------------------------------------------------
// Real overloads for float and double (CUDA's math API, named uniformly).

#define CUPRUM_REAL_UNARY(name, f32, f64)                                   \
  __device__ __forceinline__ float name(float x) { return ::f32(x); }      \
  __device__ __forceinline__ double name(double x) { return ::f64(x); }

CUPRUM_REAL_UNARY(sqrt, sqrtf, sqrt)
CUPRUM_REAL_UNARY(cbrt, cbrtf, cbrt)
CUPRUM_REAL_UNARY(exp, expf, exp)
CUPRUM_REAL_UNARY(exp2, exp2f, exp2)
CUPRUM_REAL_UNARY(expm1, expm1f, expm1)
CUPRUM_REAL_UNARY(log, logf, log)
CUPRUM_REAL_UNARY(log2, log2f, log2)
CUPRUM_REAL_UNARY(log10, log10f, log10)
CUPRUM_REAL_UNARY(log1p, log1pf, log1p)
CUPRUM_REAL_UNARY(sin, sinf, sin)
CUPRUM_REAL_UNARY(cos, cosf, cos)
CUPRUM_REAL_UNARY(tan, tanf, tan)
CUPRUM_REAL_UNARY(asin, asinf, asin)
CUPRUM_REAL_UNARY(acos, acosf, acos)
CUPRUM_REAL_UNARY(atan, atanf, atan)
CUPRUM_REAL_UNARY(sinh, sinhf, sinh)
CUPRUM_REAL_UNARY(cosh, coshf, cosh)
CUPRUM_REAL_UNARY(tanh, tanhf, tanh)
CUPRUM_REAL_UNARY(asinh, asinhf, asinh)
CUPRUM_REAL_UNARY(acosh, acoshf, acosh)
CUPRUM_REAL_UNARY(atanh, atanhf, atanh)
CUPRUM_REAL_UNARY(fabs, fabsf, fabs)
CUPRUM_REAL_UNARY(floor, floorf, floor)
CUPRUM_REAL_UNARY(ceil, ceilf, ceil)
CUPRUM_REAL_UNARY(trunc, truncf, trunc)
CUPRUM_REAL_UNARY(rint, rintf, rint)
#undef CUPRUM_REAL_UNARY

#define CUPRUM_REAL_BINARY(name, f32, f64)                                               \
  __device__ __forceinline__ float name(float x, float y) { return ::f32(x, y); }       \
  __device__ __forceinline__ double name(double x, double y) { return ::f64(x, y); }

CUPRUM_REAL_BINARY(pow, powf, pow)
CUPRUM_REAL_BINARY(atan2, atan2f, atan2)
CUPRUM_REAL_BINARY(copysign, copysignf, copysign)
CUPRUM_REAL_BINARY(fmod, fmodf, fmod)
CUPRUM_REAL_BINARY(nextafter, nextafterf, nextafter)
#undef CUPRUM_REAL_BINARY

__device__ __forceinline__ float hypot(float x, float y) { return ::hypotf(x, y); }
/// sqrt(x*x + y*y) without undue overflow or underflow, correct up to
/// DBL_MAX: hypot(DBL_MAX, 2.0) is DBL_MAX, as C's (NumPy's) hypot. CUDA's
/// double hypot is not used: on an H200 it gave inf where NumPy's result is
/// finite near the overflow limit. The larger part is scaled into [0.5, 1) by an exact power of
/// two, so the sum of squares cannot overflow; inf beats NaN (C99 F.9.4.3).
__device__ __forceinline__ double hypot(double x, double y) {
  double a = ::fabs(x), b = ::fabs(y);
  if (a == __longlong_as_double(0x7ff0000000000000LL) || b == __longlong_as_double(0x7ff0000000000000LL)) {
    return __longlong_as_double(0x7ff0000000000000LL);
  }
  if (a != a || b != b) return a + b;
  double t = a > b ? a : b;
  double s = a > b ? b : a;
  if (s == 0.0) return t;
  int e;
  ::frexp(t, &e);
  t = ::ldexp(t, -e);
  s = ::ldexp(s, -e);
  return ::ldexp(::sqrt(::fma(t, t, s * s)), e);
}

/// The conjugate of a real number: itself (NumPy's conj of real dtypes),
/// so that code generic over real and complex types can conjugate.
__device__ __forceinline__ float conj(float x) { return x; }
__device__ __forceinline__ double conj(double x) { return x; }

__device__ __forceinline__ bool isnan(float x) { return x != x; }
__device__ __forceinline__ bool isnan(double x) { return x != x; }
__device__ __forceinline__ bool isinf(float x) { return ::fabsf(x) == __int_as_float(0x7f800000); }
__device__ __forceinline__ bool isinf(double x) { return ::fabs(x) == __longlong_as_double(0x7ff0000000000000LL); }
__device__ __forceinline__ bool isfinite(float x) { return ::fabsf(x) < __int_as_float(0x7f800000); }
__device__ __forceinline__ bool isfinite(double x) { return ::fabs(x) < __longlong_as_double(0x7ff0000000000000LL); }
__device__ __forceinline__ bool signbit(float x) { return __float_as_int(x) < 0; }
__device__ __forceinline__ bool signbit(double x) { return __double_as_longlong(x) < 0; }
__device__ __forceinline__ float ldexp(float x, int e) { return ::ldexpf(x, e); }
__device__ __forceinline__ double ldexp(double x, int e) { return ::ldexp(x, e); }

__device__ __forceinline__ void sincos_(float x, float* s, float* c) { ::sincosf(x, s, c); }
__device__ __forceinline__ void sincos_(double x, double* s, double* c) { ::sincos(x, s, c); }

template <typename T> struct real_limits;
template <> struct real_limits<float> {
  static __device__ __forceinline__ float infinity() { return __int_as_float(0x7f800000); }
  static __device__ __forceinline__ float quiet_nan() { return __int_as_float(0x7fc00000); }
  static __device__ __forceinline__ float pi() { return 3.14159265358979323846f; }
  static __device__ __forceinline__ float ln2() { return 0.693147180559945309417f; }
  static __device__ __forceinline__ float ln10() { return 2.30258509299404568402f; }
  static __device__ __forceinline__ float log2e() { return 1.442695040888963407359924681001892137f; }
  static __device__ __forceinline__ float log10e() { return 0.434294481903251827651128931374852944f; }
  static __device__ __forceinline__ float epsilon() { return 1.1920928955078125e-07f; }
};
template <> struct real_limits<double> {
  static __device__ __forceinline__ double infinity() { return __longlong_as_double(0x7ff0000000000000LL); }
  static __device__ __forceinline__ double quiet_nan() { return __longlong_as_double(0x7ff8000000000000LL); }
  static __device__ __forceinline__ double pi() { return 3.14159265358979323846; }
  static __device__ __forceinline__ double ln2() { return 0.693147180559945309417; }
  static __device__ __forceinline__ double ln10() { return 2.30258509299404568402; }
  static __device__ __forceinline__ double log2e() { return 1.442695040888963407359924681001892137; }
  static __device__ __forceinline__ double log10e() { return 0.434294481903251827651128931374852944; }
  static __device__ __forceinline__ double epsilon() { return 2.220446049250313080847263336181640625e-16; }
};

// ---------------------------------------------------------------------------
// The type.

template <typename T>
struct __align__(2 * sizeof(T)) complex {
  T re;
  T im;

  complex() = default;
  __device__ __forceinline__ complex(T r) : re(r), im(T(0)) {}
  __device__ __forceinline__ complex(T r, T i) : re(r), im(i) {}
  template <typename U>
  __device__ __forceinline__ explicit complex(const complex<U>& z) : re(T(z.re)), im(T(z.im)) {}

  __device__ __forceinline__ T real() const { return re; }
  __device__ __forceinline__ T imag() const { return im; }
  __device__ __forceinline__ void real(T r) { re = r; }
  __device__ __forceinline__ void imag(T i) { im = i; }

  __device__ __forceinline__ complex& operator+=(const complex& z) { re += z.re; im += z.im; return *this; }
  __device__ __forceinline__ complex& operator-=(const complex& z) { re -= z.re; im -= z.im; return *this; }
  __device__ __forceinline__ complex& operator*=(const complex& z) { *this = *this * z; return *this; }
  __device__ __forceinline__ complex& operator/=(const complex& z) { *this = *this / z; return *this; }
  __device__ __forceinline__ complex& operator+=(T x) { re += x; return *this; }
  __device__ __forceinline__ complex& operator-=(T x) { re -= x; return *this; }
  __device__ __forceinline__ complex& operator*=(T x) { re *= x; im *= x; return *this; }
  __device__ __forceinline__ complex& operator/=(T x) { re /= x; im /= x; return *this; }

  friend __device__ __forceinline__ complex operator+(const complex& a) { return a; }
  friend __device__ __forceinline__ complex operator-(const complex& a) { return complex(-a.re, -a.im); }
  friend __device__ __forceinline__ complex operator+(const complex& a, const complex& b) { return complex(a.re + b.re, a.im + b.im); }
  friend __device__ __forceinline__ complex operator-(const complex& a, const complex& b) { return complex(a.re - b.re, a.im - b.im); }
  friend __device__ __forceinline__ complex operator*(const complex& a, const complex& b) {
    return complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
  }
  // Smith's algorithm: no overflow for large but representable operands.
  friend __device__ __forceinline__ complex operator/(const complex& a, const complex& b) {
    // fabs, not `x < 0 ? -x : x`: |-0.0| must be +0.0 for the division by
    // zero below (NumPy's npy_fabs).
    T abs_br = fabs(b.re);
    T abs_bi = fabs(b.im);
    if (abs_br >= abs_bi) {
      if (abs_br == T(0) && abs_bi == T(0)) {
        // Division by zero: as NumPy, (a.re / |b.re|, a.im / |b.im|).
        return complex(a.re / abs_br, a.im / abs_bi);
      }
      T rat = b.im / b.re;
      T scl = T(1) / (b.re + b.im * rat);
      return complex((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);
    }
    T rat = b.re / b.im;
    T scl = T(1) / (b.im + b.re * rat);
    return complex((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);
  }
  friend __device__ __forceinline__ complex operator+(const complex& a, T x) { return complex(a.re + x, a.im); }
  friend __device__ __forceinline__ complex operator+(T x, const complex& a) { return complex(x + a.re, a.im); }
  friend __device__ __forceinline__ complex operator-(const complex& a, T x) { return complex(a.re - x, a.im); }
  friend __device__ __forceinline__ complex operator-(T x, const complex& a) { return complex(x - a.re, -a.im); }
  friend __device__ __forceinline__ complex operator*(const complex& a, T x) { return complex(a.re * x, a.im * x); }
  friend __device__ __forceinline__ complex operator*(T x, const complex& a) { return complex(x * a.re, x * a.im); }
  friend __device__ __forceinline__ complex operator/(const complex& a, T x) { return complex(a.re / x, a.im / x); }
  friend __device__ __forceinline__ complex operator/(T x, const complex& a) { return complex(x) / a; }

  friend __device__ __forceinline__ bool operator==(const complex& a, const complex& b) { return a.re == b.re && a.im == b.im; }
  friend __device__ __forceinline__ bool operator!=(const complex& a, const complex& b) { return !(a == b); }
  friend __device__ __forceinline__ bool operator==(const complex& a, T x) { return a.re == x && a.im == T(0); }
  friend __device__ __forceinline__ bool operator!=(const complex& a, T x) { return !(a == x); }
  // NumPy's lexicographic order (numpy/_core/src/umath/loops.c.src CLT/CLE).
  friend __device__ __forceinline__ bool operator<(const complex& a, const complex& b) {
    return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im < b.im);
  }
  friend __device__ __forceinline__ bool operator<=(const complex& a, const complex& b) {
    return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im <= b.im);
  }
  friend __device__ __forceinline__ bool operator>(const complex& a, const complex& b) { return b < a; }
  friend __device__ __forceinline__ bool operator>=(const complex& a, const complex& b) { return b <= a; }
};

static_assert(sizeof(complex<float>) == 8 && alignof(complex<float>) == 8, "complex64 layout");
static_assert(sizeof(complex<double>) == 16 && alignof(complex<double>) == 16, "complex128 layout");

typedef complex<float> complex64;
typedef complex<double> complex128;

// ---------------------------------------------------------------------------
// Classification and basic functions.

template <typename T> __device__ __forceinline__ T real(const complex<T>& z) { return z.re; }
template <typename T> __device__ __forceinline__ T imag(const complex<T>& z) { return z.im; }
template <typename T> __device__ __forceinline__ bool isnan(const complex<T>& z) { return isnan(z.re) || isnan(z.im); }
template <typename T> __device__ __forceinline__ bool isinf(const complex<T>& z) { return isinf(z.re) || isinf(z.im); }
template <typename T> __device__ __forceinline__ bool isfinite(const complex<T>& z) { return isfinite(z.re) && isfinite(z.im); }
template <typename T> __device__ __forceinline__ complex<T> conj(const complex<T>& z) { return complex<T>(z.re, -z.im); }
/// |z| without intermediate overflow (hypot); inf when a part is inf, even with a NaN.
template <typename T> __device__ __forceinline__ T abs(const complex<T>& z) { return hypot(z.re, z.im); }
template <typename T> __device__ __forceinline__ T arg(const complex<T>& z) { return atan2(z.im, z.re); }
template <typename T> __device__ __forceinline__ T norm(const complex<T>& z) { return z.re * z.re + z.im * z.im; }
template <typename T> __device__ __forceinline__ complex<T> polar(T r, T theta) {
  T s, c;
  sincos_(theta, &s, &c);
  return complex<T>(r * c, r * s);
}

// ---------------------------------------------------------------------------
// Exponentials and logarithms.

template <typename T> __device__ __forceinline__ complex<T> exp(const complex<T>& z) {
  if (z.im == T(0)) {
    // Real argument: exact real part, keep the sign of the zero imaginary part.
    return complex<T>(exp(z.re), z.im);
  }
  if (isinf(z.re) && z.re < T(0) && !isfinite(z.im)) {
    return complex<T>(T(0), T(0));
  }
  if (isinf(z.re) && !isfinite(z.im)) {
    // C99 G.6.3.1: exp(+inf + i inf) and exp(+inf + i NaN) are inf + i NaN.
    return complex<T>(z.re, real_limits<T>::quiet_nan());
  }
  T s, c;
  sincos_(z.im, &s, &c);
  T e = exp(z.re);
  return complex<T>(e * c, e * s);
}

template <typename T> __device__ __forceinline__ complex<T> log(const complex<T>& z) {
  return complex<T>(log(abs(z)), arg(z));
}

// log10 and log2 multiply by log10(e) and log2(e), as NumPy's nc_log10 and
// nc_log2 (dividing by ln 10 or ln 2 rounds differently, which shows where
// the real part is infinite and the imaginary part must match exactly).
template <typename T> __device__ __forceinline__ complex<T> log10(const complex<T>& z) {
  complex<T> l = log(z);
  return complex<T>(l.re * real_limits<T>::log10e(), l.im * real_limits<T>::log10e());
}

template <typename T> __device__ __forceinline__ complex<T> log2(const complex<T>& z) {
  complex<T> l = log(z);
  return complex<T>(l.re * real_limits<T>::log2e(), l.im * real_limits<T>::log2e());
}

/// log(1 + z), accurate for small |z|.
template <typename T> __device__ __forceinline__ complex<T> log1p(const complex<T>& z) {
  if (fabs(z.re) < T(0.5) && fabs(z.im) < T(0.5)) {
    // |1 + z|^2 - 1 = 2x + x^2 + y^2
    T t = z.re * (T(2) + z.re) + z.im * z.im;
    return complex<T>(T(0.5) * log1p(t), atan2(z.im, T(1) + z.re));
  }
  return log(complex<T>(T(1) + z.re, z.im));
}

/// exp(z) - 1, accurate for small |z| (NumPy's nc_expm1).
template <typename T> __device__ __forceinline__ complex<T> expm1(const complex<T>& z) {
  T a = sin(z.im / T(2));
  return complex<T>(expm1(z.re) * cos(z.im) - T(2) * a * a, exp(z.re) * sin(z.im));
}

template <typename T> __device__ __forceinline__ complex<T> exp2(const complex<T>& z) {
  return exp(complex<T>(z.re * real_limits<T>::ln2(), z.im * real_limits<T>::ln2()));
}

/// Principal square root (Kahan's method), cut along the negative real axis.
template <typename T> __device__ __forceinline__ complex<T> sqrt(const complex<T>& z) {
  const T inf = real_limits<T>::infinity();
  if (isinf(z.im)) return complex<T>(inf, z.im);
  if (isnan(z.re)) return complex<T>(z.re, isnan(z.im) ? z.im : z.re);
  if (isinf(z.re)) {
    if (z.re > T(0)) return complex<T>(z.re, isnan(z.im) ? z.im : copysign(T(0), z.im));
    return complex<T>(isnan(z.im) ? fabs(z.im - z.im) : T(0), copysign(inf, z.im));
  }
  if (z.re == T(0) && z.im == T(0)) return complex<T>(T(0), z.im);
  // Scale to avoid overflow in |re| + |z| and underflow for tiny inputs.
  T ax = fabs(z.re), ay = fabs(z.im);
  T scale = T(1);
  const T big = sizeof(T) == 4 ? T(1e30f) : T(1e300);
  if (ax > big || ay > big) { ax *= T(0.25); ay *= T(0.25); scale = T(2); }
  T t = sqrt((ax + hypot(ax, ay)) * T(0.5)) * scale;
  if (z.re >= T(0)) return complex<T>(t, z.im / (T(2) * t));
  return complex<T>(fabs(z.im) / (T(2) * t), copysign(t, z.im));
}

/// z ** w, with exact repeated multiplication for small integral real
/// exponents as NumPy's npy_cpow.
template <typename T> __device__ __forceinline__ complex<T> pow(const complex<T>& z, const complex<T>& w) {
  if (w.re == T(0) && w.im == T(0)) return complex<T>(T(1), T(0));
  if (z.re == T(0) && z.im == T(0)) {
    if (w.re > T(0) && w.im == T(0)) return complex<T>(T(0), T(0));
    const T nan = real_limits<T>::quiet_nan();
    return complex<T>(nan, nan);
  }
  if (w.im == T(0) && w.re == trunc(w.re) && fabs(w.re) < T(100)) {
    long long n = (long long)w.re;
    long long m = n < 0 ? -n : n;
    complex<T> acc(T(1), T(0)), base = z;
    while (m) {
      if (m & 1) acc = acc * base;
      m >>= 1;
      if (m) base = base * base;
    }
    return n < 0 ? complex<T>(T(1), T(0)) / acc : acc;
  }
  return exp(w * log(z));
}
template <typename T> __device__ __forceinline__ complex<T> pow(const complex<T>& z, T x) { return pow(z, complex<T>(x)); }
template <typename T> __device__ __forceinline__ complex<T> pow(T x, const complex<T>& w) { return pow(complex<T>(x), w); }

// ---------------------------------------------------------------------------
// Trigonometric and hyperbolic functions.

template <typename T> __device__ __forceinline__ complex<T> sinh(const complex<T>& z) {
  if (z.im == T(0)) return complex<T>(sinh(z.re), z.im);
  T s, c;
  sincos_(z.im, &s, &c);
  return complex<T>(sinh(z.re) * c, cosh(z.re) * s);
}

template <typename T> __device__ __forceinline__ complex<T> cosh(const complex<T>& z) {
  if (z.im == T(0)) return complex<T>(cosh(z.re), z.re == T(0) ? T(0) : z.im * copysign(T(1), z.re));
  T s, c;
  sincos_(z.im, &s, &c);
  return complex<T>(cosh(z.re) * c, sinh(z.re) * s);
}

/// FreeBSD's ctanh (Kahan): no overflow for large |re|.
template <typename T> __device__ __forceinline__ complex<T> tanh(const complex<T>& z) {
  if (!isfinite(z.re)) {
    if (isnan(z.re)) return complex<T>(z.re, z.im == T(0) ? z.im : z.re);
    return complex<T>(copysign(T(1), z.re), isfinite(z.im) ? copysign(T(0), sin(z.im) * cos(z.im)) : copysign(T(0), z.im));
  }
  if (!isfinite(z.im)) {
    const T nan = real_limits<T>::quiet_nan();
    return complex<T>(z.re == T(0) ? z.re : nan, nan);
  }
  if (fabs(z.re) >= T(22)) {
    T e = exp(-fabs(z.re));
    return complex<T>(copysign(T(1), z.re), T(4) * sin(z.im) * cos(z.im) * e * e);
  }
  T t = tan(z.im);
  T beta = T(1) + t * t;
  T s = sinh(z.re);
  T rho = sqrt(T(1) + s * s);
  T denom = T(1) + beta * s * s;
  return complex<T>((beta * rho * s) / denom, t / denom);
}

template <typename T> __device__ __forceinline__ complex<T> sin(const complex<T>& z) {
  // sin(z) = -i sinh(iz)
  complex<T> w = sinh(complex<T>(-z.im, z.re));
  return complex<T>(w.im, -w.re);
}

template <typename T> __device__ __forceinline__ complex<T> cos(const complex<T>& z) {
  // cos(z) = cosh(iz)
  return cosh(complex<T>(-z.im, z.re));
}

template <typename T> __device__ __forceinline__ complex<T> tan(const complex<T>& z) {
  // tan(z) = -i tanh(iz)
  complex<T> w = tanh(complex<T>(-z.im, z.re));
  return complex<T>(w.im, -w.re);
}

namespace detail {
// asinh for re >= +0 (no cancellation in z + sqrt(z^2 + 1)).
template <typename T> __device__ __forceinline__ complex<T> asinh_right(const complex<T>& z) {
  if (z.im == T(0)) return complex<T>(asinh(z.re), z.im);
  const T big = sizeof(T) == 4 ? T(1e18f) : T(1e150);
  if (fabs(z.re) > big || fabs(z.im) > big) {
    // asinh(z) ~ log(2z) for large |z|.
    complex<T> l = log(z);
    return complex<T>(l.re + real_limits<T>::ln2(), l.im);
  }
  complex<T> zz(z.re * z.re - z.im * z.im + T(1), T(2) * z.re * z.im);
  return log(z + sqrt(zz));
}
}  // namespace detail

/// asinh(z) = log(z + sqrt(z^2 + 1)), computed for re >= 0 and extended by
/// oddness, so that there is no cancellation and the sign of a zero real part
/// picks the side of the cut.
template <typename T> __device__ __forceinline__ complex<T> asinh(const complex<T>& z) {
  if (signbit(z.re)) {
    complex<T> w = detail::asinh_right(complex<T>(-z.re, -z.im));
    return complex<T>(-w.re, -w.im);
  }
  return detail::asinh_right(z);
}

template <typename T> __device__ __forceinline__ complex<T> asin(const complex<T>& z) {
  // asin(z) = -i asinh(iz)
  complex<T> w = asinh(complex<T>(-z.im, z.re));
  return complex<T>(w.im, -w.re);
}

template <typename T> __device__ __forceinline__ complex<T> acos(const complex<T>& z) {
  complex<T> w = asin(z);
  return complex<T>(real_limits<T>::pi() / T(2) - w.re, -w.im);
}

/// acosh(z) = log(z + sqrt(z + 1) sqrt(z - 1)) (Kahan's form, right cuts).
template <typename T> __device__ __forceinline__ complex<T> acosh(const complex<T>& z) {
  const T big = sizeof(T) == 4 ? T(1e18f) : T(1e150);
  if (fabs(z.re) > big || fabs(z.im) > big) {
    complex<T> l = log(z);
    // log(2z), with the imaginary part in the upper half for im >= +0
    return complex<T>(l.re + real_limits<T>::ln2(), signbit(z.im) ? -fabs(l.im) : fabs(l.im));
  }
  complex<T> a = sqrt(complex<T>(z.re + T(1), z.im));
  complex<T> b = sqrt(complex<T>(z.re - T(1), z.im));
  return log(z + a * b);
}

namespace detail {
/// Re(1 / (x + iy)) = x / (x*x + y*y) without spurious overflow or
/// underflow, for x, y not NaN and one of them above 1/epsilon (FreeBSD's
/// real_part_reciprocal, in NumPy's npy_math_complex.c.src).
__device__ __forceinline__ float real_part_reciprocal(float x, float y) {
  const int cutoff = 24 / 2 + 1;
  int ix = __float_as_int(x) & 0x7f800000;
  int iy = __float_as_int(y) & 0x7f800000;
  if (ix - iy >= (cutoff << 23) || isinf(x)) return 1.0f / x;
  if (iy - ix >= (cutoff << 23)) return x / y / y;
  if (ix <= ((127 + 128 / 2 - cutoff) << 23)) return x / (x * x + y * y);
  float scale = __int_as_float(0x7f800000 - ix);
  x *= scale;
  y *= scale;
  return x / (x * x + y * y) * scale;
}
__device__ __forceinline__ double real_part_reciprocal(double x, double y) {
  const int cutoff = 53 / 2 + 1;
  int ix = __double2hiint(x) & 0x7ff00000;
  int iy = __double2hiint(y) & 0x7ff00000;
  if (ix - iy >= (cutoff << 20) || isinf(x)) return 1.0 / x;
  if (iy - ix >= (cutoff << 20)) return x / y / y;
  if (ix <= ((1023 + 1024 / 2 - cutoff) << 20)) return x / (x * x + y * y);
  double scale = __hiloint2double(0x7ff00000 - ix, 0);
  x *= scale;
  y *= scale;
  return x / (x * x + y * y) * scale;
}
}  // namespace detail

/// NumPy's npy_catanh (FreeBSD's catanh): C99 Annex G special values, cut
/// along the real axis outside [-1, 1].
template <typename T> __device__ __forceinline__ complex<T> atanh(const complex<T>& z) {
  const T eps = real_limits<T>::epsilon();
  const T sqrt_3_eps = sizeof(T) == 4 ? T(5.9801995673e-4f) : T(2.5809568279517849e-8);
  const T sqrt_min = sizeof(T) == 4 ? T(1.0842022e-19f) : T(1.4916681462400413e-154);
  const T pio2 = real_limits<T>::pi() / T(2);
  const T x = z.re, y = z.im;
  const T ax = fabs(x), ay = fabs(y);

  if (y == T(0) && ax <= T(1)) return complex<T>(atanh(x), y);
  // Same accuracy as atan, and z = 0 filtered out.
  if (x == T(0)) return complex<T>(x, atan(y));
  if (isnan(x) || isnan(y)) {
    // catanh(+-inf + i NaN) = +-0 + i NaN
    if (isinf(x)) return complex<T>(copysign(T(0), x), y + y);
    // catanh(NaN + i +-inf) = sign(NaN) 0 +- i pi/2
    if (isinf(y)) return complex<T>(copysign(T(0), x), copysign(pio2, y));
    const T nan = real_limits<T>::quiet_nan();
    return complex<T>(nan, nan);
  }
  if (ax > T(1) / eps || ay > T(1) / eps) {
    return complex<T>(detail::real_part_reciprocal(x, y), copysign(pio2, y));
  }
  if (ax < sqrt_3_eps / T(2) && ay < sqrt_3_eps / T(2)) return z;

  T rx, ry;
  if (ax == T(1) && ay < eps) {
    rx = (real_limits<T>::ln2() - log(ay)) / T(2);
  } else {
    const T am1 = ax - T(1);
    // (ax - 1)^2 + ay^2, without underflow for tiny ay.
    const T ss = ay < sqrt_min ? am1 * am1 : am1 * am1 + ay * ay;
    rx = log1p(T(4) * ax / ss) / T(4);
  }
  if (ax == T(1)) {
    ry = atan2(T(2), -ay) / T(2);
  } else if (ay < eps) {
    ry = atan2(T(2) * ay, (T(1) - ax) * (T(1) + ax)) / T(2);
  } else {
    ry = atan2(T(2) * ay, (T(1) - ax) * (T(1) + ax) - ay * ay) / T(2);
  }
  return complex<T>(copysign(rx, x), copysign(ry, y));
}

/// NumPy's npy_catan: catan(z) = i conj(catanh(i conj(z))), i.e. catanh
/// with the parts of z and of the result swapped (cut along the imaginary
/// axis outside [-i, i]).
template <typename T> __device__ __forceinline__ complex<T> atan(const complex<T>& z) {
  complex<T> w = atanh(complex<T>(z.im, z.re));
  return complex<T>(w.im, w.re);
}

}  // namespace cuprum
