// NumPy-semantics math for ufunc loops and user kernels.
//
// Every function is in namespace cuprum and overloaded for the types its
// ufunc loops take: integers, bool, cuprum::half and cuprum::bfloat16
// (computed in float and rounded back, as NumPy's float16 loops do), float,
// double and cuprum::complex<float/double>. Integer division and remainder
// never trap: division by zero gives 0 (NumPy 2's result, which also warns),
// and the most negative value divided by -1 wraps (NumPy's result).
#pragma once

#include "cuprum/types.cuh"

namespace cuprum {

// ---------------------------------------------------------------------------
// Half-type overloads of the real functions of complex.cuh.

#define CUPRUM_HALF_UNARY(name)                                                              \
  __device__ __forceinline__ half name(half x) { return half(name((float)x)); }             \
  __device__ __forceinline__ bfloat16 name(bfloat16 x) { return bfloat16(name((float)x)); }
CUPRUM_HALF_UNARY(sqrt)
CUPRUM_HALF_UNARY(cbrt)
CUPRUM_HALF_UNARY(exp)
CUPRUM_HALF_UNARY(exp2)
CUPRUM_HALF_UNARY(expm1)
CUPRUM_HALF_UNARY(log)
CUPRUM_HALF_UNARY(log2)
CUPRUM_HALF_UNARY(log10)
CUPRUM_HALF_UNARY(log1p)
CUPRUM_HALF_UNARY(sin)
CUPRUM_HALF_UNARY(cos)
CUPRUM_HALF_UNARY(tan)
CUPRUM_HALF_UNARY(asin)
CUPRUM_HALF_UNARY(acos)
CUPRUM_HALF_UNARY(atan)
CUPRUM_HALF_UNARY(sinh)
CUPRUM_HALF_UNARY(cosh)
CUPRUM_HALF_UNARY(tanh)
CUPRUM_HALF_UNARY(asinh)
CUPRUM_HALF_UNARY(acosh)
CUPRUM_HALF_UNARY(atanh)
CUPRUM_HALF_UNARY(floor)
CUPRUM_HALF_UNARY(ceil)
CUPRUM_HALF_UNARY(trunc)
CUPRUM_HALF_UNARY(rint)
#undef CUPRUM_HALF_UNARY

#define CUPRUM_HALF_BINARY(name)                                                                               \
  __device__ __forceinline__ half name(half x, half y) { return half(name((float)x, (float)y)); }             \
  __device__ __forceinline__ bfloat16 name(bfloat16 x, bfloat16 y) { return bfloat16(name((float)x, (float)y)); }
CUPRUM_HALF_BINARY(pow)
CUPRUM_HALF_BINARY(atan2)
CUPRUM_HALF_BINARY(hypot)
CUPRUM_HALF_BINARY(fmod)
#undef CUPRUM_HALF_BINARY

// Sign-bit operations on the 16-bit patterns: exact, no float round trip.
__device__ __forceinline__ half fabs(half x) { return half::from_bits(x.x & 0x7fffu); }
__device__ __forceinline__ bfloat16 fabs(bfloat16 x) { return bfloat16::from_bits(x.x & 0x7fffu); }
__device__ __forceinline__ bool signbit(half x) { return (x.x & 0x8000u) != 0; }
__device__ __forceinline__ bool signbit(bfloat16 x) { return (x.x & 0x8000u) != 0; }
__device__ __forceinline__ bool isfinite(half x) { return (x.x & 0x7c00u) != 0x7c00u; }
__device__ __forceinline__ bool isfinite(bfloat16 x) { return (x.x & 0x7f80u) != 0x7f80u; }
__device__ __forceinline__ half copysign(half x, half y) { return half::from_bits((x.x & 0x7fffu) | (y.x & 0x8000u)); }
__device__ __forceinline__ bfloat16 copysign(bfloat16 x, bfloat16 y) { return bfloat16::from_bits((x.x & 0x7fffu) | (y.x & 0x8000u)); }
__device__ __forceinline__ half ldexp(half x, int e) { return half(::ldexpf((float)x, e)); }
__device__ __forceinline__ bfloat16 ldexp(bfloat16 x, int e) { return bfloat16(::ldexpf((float)x, e)); }

namespace detail {
// nextafter on a 16-bit pattern (sign-magnitude, as every IEEE format).
template <typename H>
__device__ __forceinline__ H nextafter16(H x, H y) {
  float fx = (float)x, fy = (float)y;
  if (isnan(x) || isnan(y)) return H(fx + fy);
  if (fx == fy) return x;  // x, not y, for +-0: NumPy's npy_half_nextafter
  if (fx == 0.0f) return H::from_bits((unsigned short)((y.x & 0x8000u) | 1u));
  bool up = (fx < fy) == (fx > 0.0f);  // away from zero
  return H::from_bits((unsigned short)(up ? x.x + 1u : x.x - 1u));
}
}  // namespace detail
__device__ __forceinline__ half nextafter(half x, half y) { return detail::nextafter16(x, y); }
__device__ __forceinline__ bfloat16 nextafter(bfloat16 x, bfloat16 y) { return detail::nextafter16(x, y); }

// ---------------------------------------------------------------------------
// Classification of non-float types (NumPy's integer and bool loops).

template <typename T> __device__ __forceinline__ typename enable_if<is_integer<T>::value || is_same<T, bool>::value, bool>::type isnan(T) { return false; }
template <typename T> __device__ __forceinline__ typename enable_if<is_integer<T>::value || is_same<T, bool>::value, bool>::type isinf(T) { return false; }
template <typename T> __device__ __forceinline__ typename enable_if<is_integer<T>::value || is_same<T, bool>::value, bool>::type isfinite(T) { return true; }

namespace detail {
/// x < 0, without a pointless comparison for unsigned types.
template <typename T> __device__ __forceinline__ bool negative(T x) {
  if constexpr (is_signed_integer<T>::value || is_floating<T>::value) {
    return x < T(0);
  } else {
    return false;
  }
}
}  // namespace detail

// ---------------------------------------------------------------------------
// Division and remainder.

/// Python's floor division for integers; 0 when y == 0.
template <typename T>
__device__ __forceinline__ typename enable_if<is_integer<T>::value, T>::type floor_divide(T x, T y) {
  typedef typename make_unsigned<T>::type U;
  if (y == T(0)) return T(0);
  if constexpr (is_signed_integer<T>::value) {
    if (y == T(-1)) return (T)(U(0) - (U)x);  // MIN / -1 wraps to MIN
    T q = x / y;
    if ((x % y != T(0)) && ((x < T(0)) != (y < T(0)))) q = q - T(1);
    return q;
  } else {
    return x / y;
  }
}

/// Python's remainder (sign of the divisor) for integers; 0 when y == 0.
template <typename T>
__device__ __forceinline__ typename enable_if<is_integer<T>::value, T>::type remainder(T x, T y) {
  if (y == T(0)) return T(0);
  if constexpr (is_signed_integer<T>::value) {
    if (y == T(-1)) return T(0);
    T r = x % y;
    if (r != T(0) && ((r < T(0)) != (y < T(0)))) r = r + y;
    return r;
  } else {
    return x % y;
  }
}

/// C's remainder (sign of the dividend) for integers; 0 when y == 0.
template <typename T>
__device__ __forceinline__ typename enable_if<is_integer<T>::value, T>::type fmod(T x, T y) {
  if (y == T(0)) return T(0);
  if (is_signed_integer<T>::value && y == T(-1)) return T(0);
  return x % y;
}

/// NumPy's npy_divmod for floats: returns the floor quotient, stores the
/// remainder with the divisor's sign. x / 0 gives inf or NaN (and the
/// remainder fmod's NaN), as NumPy.
template <typename T>
__device__ __forceinline__ T divmod_float(T a, T b, T* modulus) {
  T mod = fmod(a, b);
  if (b == T(0)) {
    *modulus = mod;
    return a / b;
  }
  T div = (a - mod) / b;
  if (mod != T(0)) {
    if ((b < T(0)) != (mod < T(0))) {
      mod += b;
      div -= T(1);
    }
  } else {
    mod = copysign(T(0), b);
  }
  T floordiv;
  if (div != T(0)) {
    floordiv = floor(div);
    if (div - floordiv > T(0.5)) floordiv += T(1);
  } else {
    floordiv = copysign(T(0), a / b);
  }
  *modulus = mod;
  return floordiv;
}

__device__ __forceinline__ float floor_divide(float x, float y) { float m; return divmod_float(x, y, &m); }
__device__ __forceinline__ double floor_divide(double x, double y) { double m; return divmod_float(x, y, &m); }
__device__ __forceinline__ float remainder(float x, float y) { float m; divmod_float(x, y, &m); return m; }
__device__ __forceinline__ double remainder(double x, double y) { double m; divmod_float(x, y, &m); return m; }
__device__ __forceinline__ half floor_divide(half x, half y) { return half(floor_divide((float)x, (float)y)); }
__device__ __forceinline__ bfloat16 floor_divide(bfloat16 x, bfloat16 y) { return bfloat16(floor_divide((float)x, (float)y)); }
__device__ __forceinline__ half remainder(half x, half y) { return half(remainder((float)x, (float)y)); }
__device__ __forceinline__ bfloat16 remainder(bfloat16 x, bfloat16 y) { return bfloat16(remainder((float)x, (float)y)); }

/// divmod for the integers: floor_divide returned, remainder stored (each
/// 0 for a zero divisor, as NumPy's integer loops).
template <typename T>
__device__ __forceinline__ typename enable_if<is_integer<T>::value, T>::type divmod(T a, T b, T* m) {
  *m = remainder(a, b);
  return floor_divide(a, b);
}

/// divmod for the float types: floor quotient returned, remainder stored
/// (half types computed in float, as NumPy's npy_half_divmod).
__device__ __forceinline__ float divmod(float a, float b, float* m) { return divmod_float(a, b, m); }
__device__ __forceinline__ double divmod(double a, double b, double* m) { return divmod_float(a, b, m); }
__device__ __forceinline__ half divmod(half a, half b, half* m) {
  float fm;
  float q = divmod_float((float)a, (float)b, &fm);
  *m = half(fm);
  return half(q);
}
__device__ __forceinline__ bfloat16 divmod(bfloat16 a, bfloat16 b, bfloat16* m) {
  float fm;
  float q = divmod_float((float)a, (float)b, &fm);
  *m = bfloat16(fm);
  return bfloat16(q);
}

// ---------------------------------------------------------------------------
// Comparisons: the built-in operators (NaN compares false, complex
// lexicographically), except that a signed and an unsigned integer compare
// by value (int64 -1 < uint64 0), as NumPy 2's comparison loops.

namespace detail {
template <typename A, typename B> struct mixed_sign
    : bool_constant<is_integer<A>::value && is_integer<B>::value &&
                    (is_signed_integer<A>::value != is_signed_integer<B>::value)> {};
}  // namespace detail

template <typename A, typename B> __device__ __forceinline__ bool less(A a, B b) {
  if constexpr (detail::mixed_sign<A, B>::value) {
    if (detail::negative(a)) return true;
    if (detail::negative(b)) return false;
    return (unsigned long long)a < (unsigned long long)b;
  } else {
    return a < b;
  }
}
template <typename A, typename B> __device__ __forceinline__ bool less_equal(A a, B b) {
  if constexpr (detail::mixed_sign<A, B>::value) {
    return !less(b, a);
  } else {
    return a <= b;
  }
}
template <typename A, typename B> __device__ __forceinline__ bool greater(A a, B b) {
  if constexpr (detail::mixed_sign<A, B>::value) {
    return less(b, a);
  } else {
    return a > b;
  }
}
template <typename A, typename B> __device__ __forceinline__ bool greater_equal(A a, B b) {
  if constexpr (detail::mixed_sign<A, B>::value) {
    return !less(a, b);
  } else {
    return a >= b;
  }
}
template <typename A, typename B> __device__ __forceinline__ bool equal(A a, B b) {
  if constexpr (detail::mixed_sign<A, B>::value) {
    return !detail::negative(a) && !detail::negative(b) && (unsigned long long)a == (unsigned long long)b;
  } else {
    return a == b;
  }
}
template <typename A, typename B> __device__ __forceinline__ bool not_equal(A a, B b) { return !equal(a, b); }

// ---------------------------------------------------------------------------
// Powers.

/// Integer power by squaring, wrapping on overflow. Negative exponents
/// (an error in NumPy, which a kernel cannot raise) give 1 for base 1,
/// +-1 for base -1, and 0 otherwise, as CuPy.
template <typename T>
__device__ __forceinline__ typename enable_if<is_integer<T>::value, T>::type power(T x, T y) {
  typedef typename make_unsigned<T>::type U;
  if (detail::negative(y)) {
    if (x == T(1)) return T(1);
    if (x == T(-1)) return (y & T(1)) ? T(-1) : T(1);
    return T(0);
  }
  U base = (U)x, acc = 1;
  unsigned long long e = (unsigned long long)y;
  while (e) {
    if (e & 1ull) acc = (U)(acc * base);
    e >>= 1;
    if (e) base = (U)(base * base);
  }
  return (T)acc;
}
__device__ __forceinline__ float power(float x, float y) { return pow(x, y); }
__device__ __forceinline__ double power(double x, double y) { return pow(x, y); }
__device__ __forceinline__ half power(half x, half y) { return pow(x, y); }
__device__ __forceinline__ bfloat16 power(bfloat16 x, bfloat16 y) { return pow(x, y); }
template <typename T> __device__ __forceinline__ complex<T> power(const complex<T>& x, const complex<T>& y) { return pow(x, y); }

// ---------------------------------------------------------------------------
// Sign, absolute value, rounding.

template <typename T>
__device__ __forceinline__ typename enable_if<is_integer<T>::value, T>::type sign(T x) {
  return (T)((x > T(0)) - detail::negative(x));
}
template <typename T>
__device__ __forceinline__ typename enable_if<is_floating<T>::value, T>::type sign(T x) {
  typedef typename compute_type<T>::type C;
  C c = (C)x;
  return T(c > C(0) ? C(1) : (c < C(0) ? C(-1) : (c == C(0) ? C(0) : c)));
}
/// NumPy 2's complex sign: z / |z|, 0 for 0; NaN when |z| is NaN (an
/// infinite part beats a NaN one: sign(inf+nanj) is 1, as NumPy).
template <typename T> __device__ __forceinline__ complex<T> sign(const complex<T>& z) {
  if (isnan(abs(z))) return complex<T>(real_limits<T>::quiet_nan(), real_limits<T>::quiet_nan());
  if (z.re == T(0) && z.im == T(0)) return complex<T>(T(0), T(0));
  if (isinf(z.re) || isinf(z.im)) {
    if (isinf(z.re) && isinf(z.im)) return complex<T>(real_limits<T>::quiet_nan(), real_limits<T>::quiet_nan());
    return complex<T>(isinf(z.re) ? copysign(T(1), z.re) : T(0), isinf(z.im) ? copysign(T(1), z.im) : T(0));
  }
  T a = abs(z);
  return complex<T>(z.re / a, z.im / a);
}

/// |x|; for integers the most negative value maps to itself (NumPy's wrap).
template <typename T>
__device__ __forceinline__ typename enable_if<is_integer<T>::value, T>::type absolute(T x) {
  typedef typename make_unsigned<T>::type U;
  return detail::negative(x) ? (T)(U(0) - (U)x) : x;
}
__device__ __forceinline__ bool absolute(bool x) { return x; }
__device__ __forceinline__ float absolute(float x) { return fabs(x); }
__device__ __forceinline__ double absolute(double x) { return fabs(x); }
__device__ __forceinline__ half absolute(half x) { return fabs(x); }
__device__ __forceinline__ bfloat16 absolute(bfloat16 x) { return fabs(x); }
template <typename T> __device__ __forceinline__ T absolute(const complex<T>& z) { return abs(z); }

template <typename T> __device__ __forceinline__ complex<T> rint(const complex<T>& z) { return complex<T>(rint(z.re), rint(z.im)); }

/// x * x with wrap-around for integers.
template <typename T> __device__ __forceinline__ T square(T x) { return T(x * x); }

/// 1 / x; for integers 1 / x in integer arithmetic, 0 for x == 0 (NumPy's
/// loop would divide by zero).
template <typename T>
__device__ __forceinline__ typename enable_if<is_integer<T>::value, T>::type reciprocal(T x) {
  return x == T(0) ? T(0) : T(T(1) / x);
}
__device__ __forceinline__ float reciprocal(float x) { return 1.0f / x; }
__device__ __forceinline__ double reciprocal(double x) { return 1.0 / x; }
__device__ __forceinline__ half reciprocal(half x) { return half(1.0f / (float)x); }
__device__ __forceinline__ bfloat16 reciprocal(bfloat16 x) { return bfloat16(1.0f / (float)x); }
template <typename T> __device__ __forceinline__ complex<T> reciprocal(const complex<T>& z) { return T(1) / z; }

// ---------------------------------------------------------------------------
// Maximum and minimum: NaN propagates (maximum/minimum) or is ignored
// (fmax/fmin), as NumPy; complex compare lexicographically.

template <typename T> __device__ __forceinline__ T maximum(T a, T b) { return (a >= b || isnan(a)) ? a : b; }
template <typename T> __device__ __forceinline__ T minimum(T a, T b) { return (a <= b || isnan(a)) ? a : b; }
template <typename T> __device__ __forceinline__ T fmax(T a, T b) { return (a >= b || isnan(b)) ? a : b; }
template <typename T> __device__ __forceinline__ T fmin(T a, T b) { return (a <= b || isnan(b)) ? a : b; }

// ---------------------------------------------------------------------------
// Exponential sums.

template <typename T>
__device__ __forceinline__ typename enable_if<is_floating<T>::value && !is_half_like<T>::value, T>::type logaddexp(T x, T y) {
  if (x == y) return x + real_limits<T>::ln2();  // same-sign infinities too
  T d = x - y;
  if (d > T(0)) return x + log1p(exp(-d));
  if (d <= T(0)) return y + log1p(exp(d));
  return d;  // NaN
}
template <typename T>
__device__ __forceinline__ typename enable_if<is_floating<T>::value && !is_half_like<T>::value, T>::type logaddexp2(T x, T y) {
  const T log2e = T(1.442695040888963407359924681001892137);
  if (x == y) return x + T(1);
  T d = x - y;
  if (d > T(0)) return x + log2e * log1p(exp2(-d));
  if (d <= T(0)) return y + log2e * log1p(exp2(d));
  return d;
}
__device__ __forceinline__ half logaddexp(half x, half y) { return half(logaddexp((float)x, (float)y)); }
__device__ __forceinline__ bfloat16 logaddexp(bfloat16 x, bfloat16 y) { return bfloat16(logaddexp((float)x, (float)y)); }
__device__ __forceinline__ half logaddexp2(half x, half y) { return half(logaddexp2((float)x, (float)y)); }
__device__ __forceinline__ bfloat16 logaddexp2(bfloat16 x, bfloat16 y) { return bfloat16(logaddexp2((float)x, (float)y)); }

// ---------------------------------------------------------------------------
// Floating-point decomposition.

/// Mantissa in [0.5, 1) and exponent; for 0, inf and NaN the exponent is 0.
__device__ __forceinline__ float frexp(float x, int* e) {
  if (!isfinite(x) || x == 0.0f) { *e = 0; return x + x; }
  return ::frexpf(x, e);
}
__device__ __forceinline__ double frexp(double x, int* e) {
  if (!isfinite(x) || x == 0.0) { *e = 0; return x + x; }
  return ::frexp(x, e);
}
__device__ __forceinline__ half frexp(half x, int* e) { return half(frexp((float)x, e)); }
__device__ __forceinline__ bfloat16 frexp(bfloat16 x, int* e) { return bfloat16(frexp((float)x, e)); }

/// Fractional part, integral part through `ip`; both keep x's sign.
__device__ __forceinline__ float modf(float x, float* ip) { return ::modff(x, ip); }
__device__ __forceinline__ double modf(double x, double* ip) { return ::modf(x, ip); }
__device__ __forceinline__ half modf(half x, half* ip) { float i; float f = ::modff((float)x, &i); *ip = half(i); return half(f); }
__device__ __forceinline__ bfloat16 modf(bfloat16 x, bfloat16* ip) { float i; float f = ::modff((float)x, &i); *ip = bfloat16(i); return bfloat16(f); }

/// x * 2**e for a 64-bit exponent (clamped: the result saturates anyway).
template <typename T>
__device__ __forceinline__ T ldexp_ll(T x, long long e) {
  int ei = e > 100000 ? 100000 : (e < -100000 ? -100000 : (int)e);
  return ldexp(x, ei);
}

/// NumPy's spacing: distance to the next float away from zero (the
/// smallest positive subnormal for both zeros); NaN for inf and NaN.
/// (float16 has its own overload below: NumPy's half rule differs.)
template <typename T>
__device__ __forceinline__ T spacing(T x) {
  typedef typename compute_type<T>::type C;
  if (!isfinite(x)) return T(real_limits<C>::quiet_nan());
  T inf = T(real_limits<C>::infinity());
  T away = (C)x < C(0) ? T(-(C)inf) : inf;  // -0.0 too goes up, as NumPy
  return T((C)nextafter(x, away) - (C)x);
}

/// float16 spacing is NumPy's npy_half_spacing, on the bit pattern: always
/// positive (|spacing| of the generic rule), and for a negative power of
/// two the gap towards zero; +inf for 65504, NaN for inf and NaN.
__device__ __forceinline__ half spacing(half x) {
  const unsigned h = x.x;
  const unsigned h_exp = h & 0x7c00u, h_sig = h & 0x03ffu;
  unsigned r;
  if (h_exp == 0x7c00u) {
    r = 0x7e00u;  // NaN
  } else if (h == 0x7bffu) {
    r = 0x7c00u;  // +inf
  } else if ((h & 0x8000u) && h_sig == 0) {  // negative boundary case
    if (h_exp > 0x2c00u) {
      r = h_exp - 0x2c00u;
    } else if (h_exp > 0x0400u) {
      r = 1u << ((h_exp >> 10) - 2);
    } else {
      r = 0x0001u;
    }
  } else if (h_exp > 0x2800u) {
    r = h_exp - 0x2800u;
  } else if (h_exp > 0x0400u) {
    r = 1u << ((h_exp >> 10) - 1);
  } else {
    r = 0x0001u;  // smallest subnormal
  }
  return half::from_bits((unsigned short)r);
}

/// NumPy's heaviside: 0 below zero, h0 at zero, 1 above, NaN for NaN.
template <typename T>
__device__ __forceinline__ T heaviside(T x, T h0) {
  typedef typename compute_type<T>::type C;
  C c = (C)x;
  if (c != c) return x;
  if (c == C(0)) return h0;
  return c < C(0) ? T(C(0)) : T(C(1));
}

template <typename T>
__device__ __forceinline__ T deg2rad(T x) {
  typedef typename compute_type<T>::type C;
  return T((C)x * (real_limits<C>::pi() / C(180)));
}
template <typename T>
__device__ __forceinline__ T rad2deg(T x) {
  typedef typename compute_type<T>::type C;
  return T((C)x * (C(180) / real_limits<C>::pi()));
}

// ---------------------------------------------------------------------------
// Integer helpers.

/// Greatest common divisor, non-negative (NumPy's gcd); gcd(0, 0) == 0.
template <typename T>
__device__ __forceinline__ typename enable_if<is_integer<T>::value, T>::type gcd(T x, T y) {
  typedef typename make_unsigned<T>::type U;
  U a = (U)absolute(x), b = (U)absolute(y);
  while (b != U(0)) {
    U t = (U)(a % b);
    a = b;
    b = t;
  }
  return (T)a;
}
/// Least common multiple, non-negative; 0 when either is 0.
template <typename T>
__device__ __forceinline__ typename enable_if<is_integer<T>::value, T>::type lcm(T x, T y) {
  T g = gcd(x, y);
  if (g == T(0)) return T(0);
  return absolute(T((x / g) * y));
}

/// Shifts as NumPy: a count at or beyond the width gives 0 (or -1 for a
/// right shift of a negative value) instead of C's undefined behaviour.
template <typename T>
__device__ __forceinline__ T left_shift(T x, T n) {
  typedef typename make_unsigned<T>::type U;
  if (detail::negative(n) || (unsigned long long)n >= sizeof(T) * 8) return T(0);
  return (T)((U)x << n);
}
template <typename T>
__device__ __forceinline__ T right_shift(T x, T n) {
  if (detail::negative(n) || (unsigned long long)n >= sizeof(T) * 8) return detail::negative(x) ? T(-1) : T(0);
  return (T)(x >> n);
}

}  // namespace cuprum
