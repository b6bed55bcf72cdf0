// Cuprum's float16 and bfloat16 storage types for NVRTC kernels.
//
// Cuprum's own, so that a user needs no CUDA toolkit headers: conversions are
// single PTX cvt instructions; arithmetic is done in float and rounded back,
// which is what NumPy's float16 loops do.
#pragma once

namespace cuprum {

struct __align__(2) half {
  unsigned short x;
  half() = default;
  __device__ __forceinline__ half(float f) { asm("cvt.rn.f16.f32 %0, %1;" : "=h"(x) : "f"(f)); }
  __device__ __forceinline__ half(double d) { asm("cvt.rn.f16.f64 %0, %1;" : "=h"(x) : "d"(d)); }
  __device__ __forceinline__ half(int v) : half((float)v) {}
  __device__ __forceinline__ half(unsigned int v) : half((float)v) {}
  __device__ __forceinline__ half(long long v) : half((double)v) {}
  __device__ __forceinline__ half(unsigned long long v) : half((double)v) {}
  __device__ __forceinline__ half(bool v) : half(v ? 1.0f : 0.0f) {}
  __device__ __forceinline__ operator float() const {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(x));
    return f;
  }
  static __device__ __forceinline__ half from_bits(unsigned short b) { half h; h.x = b; return h; }
};

struct __align__(2) bfloat16 {
  unsigned short x;
  bfloat16() = default;
  __device__ __forceinline__ bfloat16(float f) {
#if __CUDA_ARCH__ >= 800
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(x) : "f"(f));
#else
    unsigned int u = __float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) { x = (unsigned short)((u >> 16) | 0x40); }
    else { x = (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16); }
#endif
  }
  __device__ __forceinline__ bfloat16(double d) : bfloat16((float)d) {}
  __device__ __forceinline__ bfloat16(int v) : bfloat16((float)v) {}
  __device__ __forceinline__ bfloat16(unsigned int v) : bfloat16((float)v) {}
  __device__ __forceinline__ bfloat16(long long v) : bfloat16((float)v) {}
  __device__ __forceinline__ bfloat16(unsigned long long v) : bfloat16((float)v) {}
  __device__ __forceinline__ bfloat16(bool v) : bfloat16(v ? 1.0f : 0.0f) {}
  __device__ __forceinline__ operator float() const { return __uint_as_float(((unsigned int)x) << 16); }
  static __device__ __forceinline__ bfloat16 from_bits(unsigned short b) { bfloat16 h; h.x = b; return h; }
};

#define CUPRUM_HALF_OPS(T, INF_BITS)                                                                     \
  __device__ __forceinline__ T operator+(T a, T b) { return T((float)a + (float)b); }            \
  __device__ __forceinline__ T operator-(T a, T b) { return T((float)a - (float)b); }            \
  __device__ __forceinline__ T operator*(T a, T b) { return T((float)a * (float)b); }            \
  __device__ __forceinline__ T operator/(T a, T b) { return T((float)a / (float)b); }            \
  __device__ __forceinline__ T operator-(T a) { return T::from_bits(a.x ^ 0x8000u); }            \
  __device__ __forceinline__ bool operator==(T a, T b) { return (float)a == (float)b; }          \
  __device__ __forceinline__ bool operator!=(T a, T b) { return (float)a != (float)b; }          \
  __device__ __forceinline__ bool operator<(T a, T b) { return (float)a < (float)b; }            \
  __device__ __forceinline__ bool operator<=(T a, T b) { return (float)a <= (float)b; }          \
  __device__ __forceinline__ bool operator>(T a, T b) { return (float)a > (float)b; }            \
  __device__ __forceinline__ bool operator>=(T a, T b) { return (float)a >= (float)b; }          \
  __device__ __forceinline__ T& operator+=(T& a, T b) { a = a + b; return a; }                   \
  __device__ __forceinline__ T& operator-=(T& a, T b) { a = a - b; return a; }                   \
  __device__ __forceinline__ T& operator*=(T& a, T b) { a = a * b; return a; }                   \
  __device__ __forceinline__ T& operator/=(T& a, T b) { a = a / b; return a; }                   \
  __device__ __forceinline__ bool isnan(T a) { return (a.x & 0x7fffu) > (INF_BITS); }            \
  __device__ __forceinline__ bool isinf(T a) { return (a.x & 0x7fffu) == (INF_BITS); }

CUPRUM_HALF_OPS(half, 0x7c00u)
CUPRUM_HALF_OPS(bfloat16, 0x7f80u)
#undef CUPRUM_HALF_OPS

}  // namespace cuprum
