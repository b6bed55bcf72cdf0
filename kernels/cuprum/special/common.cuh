// Shared pieces of scipy.special's device functions (namespace
// cuprum::special): the float overloads, which evaluate the double
// function and round once (the H200's double rate makes that nearly free
// beside the memory traffic, and it keeps float32 within an ulp of the
// correctly rounded value), and the IEEE constants.
//
// The headers under cuprum/special/ are self-contained: a kernel that
// calls into them includes only the header it needs
// (`#include "cuprum/special/gamma.cuh"`), inside a ufunc loop, a fused
// kernel or a user's ElementwiseKernel preamble.
#pragma once

namespace cuprum {
namespace special {
namespace detail {

__device__ __forceinline__ double inf() { return __longlong_as_double(0x7ff0000000000000LL); }
__device__ __forceinline__ double nan() { return __longlong_as_double(0x7ff8000000000000LL); }
__device__ __forceinline__ bool is_nan(double x) { return x != x; }
__device__ __forceinline__ bool is_inf(double x) { return ::fabs(x) == inf(); }
// x is an integer (finite).
__device__ __forceinline__ bool is_int(double x) { return x == ::floor(x) && !is_inf(x); }

constexpr double PI = 3.141592653589793238462643383279502884;

}  // namespace detail
}  // namespace special
}  // namespace cuprum

// A float overload of the unary double function `name`: evaluated in
// double, rounded once.
#define CUPRUM_SPECIAL_F1(name) \
  __device__ __forceinline__ float name(float x) { return (float)name((double)x); }
// The same for two arguments.
#define CUPRUM_SPECIAL_F2(name) \
  __device__ __forceinline__ float name(float a, float b) { return (float)name((double)a, (double)b); }
