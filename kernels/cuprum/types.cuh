// Cuprum's dtypes in kernels: type traits and conversions between every
// pair of them (cuprum::cast<To>(from)).
//
// C++ names of the dtypes (gpu_array::dtype::ctype keeps the host in step):
//   bool, signed char, short, int, long long, unsigned char, unsigned short,
//   unsigned int, unsigned long long, cuprum::half, cuprum::bfloat16, float,
//   double, cuprum::complex<float>, cuprum::complex<double>.
//
// Conversion rules (what cuprum::cast does, and so what astype and every
// ufunc's input/output casts do):
// - to bool: nonzero is true; NaN is true (NumPy's bool(nan)); a complex is
//   true when either part is nonzero;
// - from bool: 0 or 1;
// - complex to real or integer: the real part (NumPy's ComplexWarning case);
// - real to complex: imaginary part +0;
// - float to integer: truncation toward zero, CuPy's behaviour (its
//   "Cast behavior from float to integer"): the value is first converted
//   with the GPU's saturating conversion to a 32-bit integer (signed for
//   signed targets, unsigned for unsigned targets; 64-bit for 64-bit
//   targets), then truncated to the target's width. There is no saturation
//   to the target's own range: float32(300) -> int8 is 44, inf -> int32 is
//   2147483647, inf -> int8 is -1, -1.0 -> uint32 (and uint8) is 0, NaN -> 0.
//   NumPy's answers for out-of-range values are CPU-specific; these are the
//   ones CuPy gives (plain C++ casts compile to the same instructions), made
//   explicit here with intrinsics so that they are defined behaviour;
// - integer to integer: two's complement wrap-around (NumPy's);
// - to float16/bfloat16: round to nearest even (from 64-bit integers and
//   double through double for half, through float for bfloat16).
#pragma once

#include "cuprum/half.cuh"
#include "cuprum/complex.cuh"

namespace cuprum {

// ---------------------------------------------------------------------------
// Type traits (NVRTC has no <type_traits> without a toolkit).

template <bool B> struct bool_constant { static constexpr bool value = B; };
typedef bool_constant<true> true_type;
typedef bool_constant<false> false_type;

template <typename A, typename B> struct is_same : false_type {};
template <typename A> struct is_same<A, A> : true_type {};

template <bool B, typename T = void> struct enable_if {};
template <typename T> struct enable_if<true, T> { typedef T type; };

template <typename T> struct is_complex : false_type {};
template <typename T> struct is_complex<complex<T> > : true_type {};

/// float16 and bfloat16: stored in 16 bits, computed in float.
template <typename T> struct is_half_like : false_type {};
template <> struct is_half_like<half> : true_type {};
template <> struct is_half_like<bfloat16> : true_type {};

/// Real floating types, half types included.
template <typename T> struct is_floating : false_type {};
template <> struct is_floating<half> : true_type {};
template <> struct is_floating<bfloat16> : true_type {};
template <> struct is_floating<float> : true_type {};
template <> struct is_floating<double> : true_type {};

/// Integer types (not bool).
template <typename T> struct is_integer : false_type {};
template <> struct is_integer<signed char> : true_type {};
template <> struct is_integer<short> : true_type {};
template <> struct is_integer<int> : true_type {};
template <> struct is_integer<long long> : true_type {};
template <> struct is_integer<unsigned char> : true_type {};
template <> struct is_integer<unsigned short> : true_type {};
template <> struct is_integer<unsigned int> : true_type {};
template <> struct is_integer<unsigned long long> : true_type {};

template <typename T> struct is_signed_integer : false_type {};
template <> struct is_signed_integer<signed char> : true_type {};
template <> struct is_signed_integer<short> : true_type {};
template <> struct is_signed_integer<int> : true_type {};
template <> struct is_signed_integer<long long> : true_type {};

template <typename T> struct is_unsigned_integer
    : bool_constant<is_integer<T>::value && !is_signed_integer<T>::value> {};

/// The unsigned type of an integer's width (for wrap-around arithmetic).
template <typename T> struct make_unsigned;
template <> struct make_unsigned<signed char> { typedef unsigned char type; };
template <> struct make_unsigned<short> { typedef unsigned short type; };
template <> struct make_unsigned<int> { typedef unsigned int type; };
template <> struct make_unsigned<long long> { typedef unsigned long long type; };
template <> struct make_unsigned<unsigned char> { typedef unsigned char type; };
template <> struct make_unsigned<unsigned short> { typedef unsigned short type; };
template <> struct make_unsigned<unsigned int> { typedef unsigned int type; };
template <> struct make_unsigned<unsigned long long> { typedef unsigned long long type; };
template <> struct make_unsigned<bool> { typedef bool type; };

/// The real type of a complex type; other types map to themselves.
template <typename T> struct real_type { typedef T type; };
template <typename T> struct real_type<complex<T> > { typedef T type; };

/// The type arithmetic is done in: float for half types, else the type.
template <typename T> struct compute_type { typedef T type; };
template <> struct compute_type<half> { typedef float type; };
template <> struct compute_type<bfloat16> { typedef float type; };

// ---------------------------------------------------------------------------
// Conversions.

namespace cast_detail {

// Float to integer, CuPy's way (see the file's comment).
template <typename To> struct from_float;
#define CUPRUM_FROM_FLOAT(To, F32, F64)                                              \
  template <> struct from_float<To> {                                               \
    static __device__ __forceinline__ To apply(float x) { return (To)F32(x); }      \
    static __device__ __forceinline__ To apply(double x) { return (To)F64(x); }     \
  };
CUPRUM_FROM_FLOAT(signed char, __float2int_rz, __double2int_rz)
CUPRUM_FROM_FLOAT(short, __float2int_rz, __double2int_rz)
CUPRUM_FROM_FLOAT(int, __float2int_rz, __double2int_rz)
CUPRUM_FROM_FLOAT(long long, __float2ll_rz, __double2ll_rz)
CUPRUM_FROM_FLOAT(unsigned char, __float2uint_rz, __double2uint_rz)
CUPRUM_FROM_FLOAT(unsigned short, __float2uint_rz, __double2uint_rz)
CUPRUM_FROM_FLOAT(unsigned int, __float2uint_rz, __double2uint_rz)
CUPRUM_FROM_FLOAT(unsigned long long, __float2ull_rz, __double2ull_rz)
#undef CUPRUM_FROM_FLOAT

// The general case: a real (non-complex) source.
template <typename To, typename From, typename Enable = void> struct caster {
  static __device__ __forceinline__ To apply(From x) { return static_cast<To>(x); }
};

// Identity.
template <typename T> struct caster<T, T, void> {
  static __device__ __forceinline__ T apply(T x) { return x; }
};

// To bool.
template <typename From> struct caster<bool, From, typename enable_if<!is_same<From, bool>::value && !is_complex<From>::value && !is_half_like<From>::value>::type> {
  static __device__ __forceinline__ bool apply(From x) { return x != From(0); }
};
template <typename From> struct caster<bool, From, typename enable_if<is_half_like<From>::value>::type> {
  static __device__ __forceinline__ bool apply(From x) { return (x.x & 0x7fffu) != 0; }
};
template <typename T> struct caster<bool, complex<T>, void> {
  static __device__ __forceinline__ bool apply(const complex<T>& x) { return x.re != T(0) || x.im != T(0); }
};

// Float (float, double, half types) to integer.
template <typename To, typename From> struct caster<To, From, typename enable_if<is_integer<To>::value && is_floating<From>::value>::type> {
  static __device__ __forceinline__ To apply(From x) {
    return from_float<To>::apply(static_cast<typename compute_type<From>::type>(x));
  }
};

// Half types from and to everything real.
template <typename To> struct caster<To, half, typename enable_if<!is_integer<To>::value && !is_complex<To>::value && !is_same<To, bool>::value && !is_same<To, half>::value>::type> {
  static __device__ __forceinline__ To apply(half x) { return To((float)x); }
};
template <typename To> struct caster<To, bfloat16, typename enable_if<!is_integer<To>::value && !is_complex<To>::value && !is_same<To, bool>::value && !is_same<To, bfloat16>::value>::type> {
  static __device__ __forceinline__ To apply(bfloat16 x) { return To((float)x); }
};
template <typename From> struct caster<half, From, typename enable_if<is_integer<From>::value>::type> {
  static __device__ __forceinline__ half apply(From x) {
    return sizeof(From) == 8 ? half((double)x) : half((float)x);
  }
};
template <typename From> struct caster<bfloat16, From, typename enable_if<is_integer<From>::value>::type> {
  static __device__ __forceinline__ bfloat16 apply(From x) {
    return sizeof(From) == 8 ? bfloat16((double)x) : bfloat16((float)x);
  }
};
template <> struct caster<half, bool, void> {
  static __device__ __forceinline__ half apply(bool x) { return half(x ? 1.0f : 0.0f); }
};
template <> struct caster<bfloat16, bool, void> {
  static __device__ __forceinline__ bfloat16 apply(bool x) { return bfloat16(x ? 1.0f : 0.0f); }
};

// Complex targets.
template <typename T, typename From> struct caster<complex<T>, From, typename enable_if<!is_complex<From>::value>::type> {
  static __device__ __forceinline__ complex<T> apply(From x) { return complex<T>(caster<T, From>::apply(x), T(0)); }
};
template <typename T, typename U> struct caster<complex<T>, complex<U>, typename enable_if<!is_same<T, U>::value>::type> {
  static __device__ __forceinline__ complex<T> apply(const complex<U>& x) { return complex<T>(T(x.re), T(x.im)); }
};
// Complex to real or integer: the real part.
template <typename To, typename T> struct caster<To, complex<T>, typename enable_if<!is_complex<To>::value && !is_same<To, bool>::value>::type> {
  static __device__ __forceinline__ To apply(const complex<T>& x) { return caster<To, T>::apply(x.re); }
};

}  // namespace cast_detail

/// Converts between any two Cuprum dtypes with NumPy/CuPy semantics (see
/// the file's comment).
template <typename To, typename From>
__device__ __forceinline__ To cast(const From& x) {
  return cast_detail::caster<To, From>::apply(x);
}

}  // namespace cuprum
