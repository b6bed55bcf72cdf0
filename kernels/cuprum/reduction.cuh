// Support for generated reduction kernels (gpu_array::reduction): warp
// and block reductions of any accumulator type (shuffled as 32-bit words by
// warp.cuh, so 8-byte, complex and half types work alike) that combine
// only the first `valid` values, so that kernels need no identity value in
// the hot path (a thread holds a value only when it read one).
#pragma once

#include "cuprum/elementwise.cuh"
#include "cuprum/warp.cuh"

namespace cuprum {

/// Combines the values of lanes 0..valid-1 (valid <= 32) of the calling
/// warp with `op`; lane 0 receives the result. Every lane of the warp must
/// call it (the shuffles are full-warp); lanes at or past `valid` may hold
/// anything. With valid <= 1 lane 0 keeps its own value.
template <typename T, typename Op>
__device__ __forceinline__ T warp_reduce(T v, const Op& op, int valid) {
  const int lane = (int)(threadIdx.x & 31u);
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    const T o = shfl_down(v, (unsigned)off);
    if (lane + off < valid) v = op(v, o);
  }
  return v;
}

/// Combines the values of threads 0..valid-1 of a one-dimensional block
/// (blockDim.x a multiple of 32, at most 1024); thread 0 receives the
/// result. Every thread of the block must call it. `smem` holds 32 values
/// of T in shared memory; it is free again when the function returns to
/// every thread (the leading barrier protects a previous call's reads).
template <typename T, typename Op>
__device__ __forceinline__ T block_reduce(T v, const Op& op, int valid, T* smem) {
  const int lane = (int)(threadIdx.x & 31u);
  const int warp = (int)(threadIdx.x >> 5);
  int wvalid = valid - warp * 32;
  wvalid = wvalid < 0 ? 0 : (wvalid > 32 ? 32 : wvalid);
  // wvalid is uniform over the warp, so whole warps skip together.
  if (wvalid > 0) v = warp_reduce(v, op, wvalid);
  __syncthreads();
  if (lane == 0 && wvalid > 0) smem[warp] = v;
  __syncthreads();
  const int nw = (valid + 31) / 32;
  if (warp == 0) {
    if (lane < nw) v = smem[lane];
    v = warp_reduce(v, op, nw);
  }
  return v;
}

// ---------------------------------------------------------------------------
// Struct accumulators of the built-in reductions (`_type_reduce` is one of
// these; the shuffles above move them as ceil(sizeof / 4) words). Each has
// a `*_make` (the map of one element) and a combine (the reduce); the
// value-initialised struct (all zeros) is the empty accumulator where one
// exists.

/// NumPy's ordering for arg-reductions: complex compares lexicographically.
template <typename T>
__device__ __forceinline__ bool arg_gt(const T& a, const T& b) { return a > b; }
template <typename T>
__device__ __forceinline__ bool arg_gt(const complex<T>& a, const complex<T>& b) {
  return a.real() > b.real() || (a.real() == b.real() && a.imag() > b.imag());
}

/// argmax/argmin: the index (in the reduced row, C order) and value of the
/// best element so far; index -1 means none (nanarg*: every element NaN).
template <typename T>
struct ArgAcc {
  long long index;
  T value;
};

template <typename T>
__device__ __forceinline__ ArgAcc<T> arg_make(const T& v, long long index, bool skip_nan) {
  ArgAcc<T> r;
  r.index = (skip_nan && cuprum::isnan(v)) ? -1LL : index;
  r.value = v;
  return r;
}

/// Combines two ArgAcc: the larger (MAX) or smaller value wins, ties go to
/// the smaller index (NumPy's first occurrence), so the combine is
/// commutative and associative. Without SKIP_NAN a NaN wins (the first NaN,
/// as NumPy); with SKIP_NAN index -1 is empty.
template <bool MAX, bool SKIP_NAN, typename T>
__device__ __forceinline__ ArgAcc<T> arg_combine(const ArgAcc<T>& a, const ArgAcc<T>& b) {
  if (SKIP_NAN) {
    if (a.index < 0) return b;
    if (b.index < 0) return a;
  } else {
    const bool na = cuprum::isnan(a.value), nb = cuprum::isnan(b.value);
    if (na || nb) {
      if (na && nb) return a.index <= b.index ? a : b;
      return na ? a : b;
    }
  }
  if (MAX ? arg_gt(b.value, a.value) : arg_gt(a.value, b.value)) return b;
  if (MAX ? arg_gt(a.value, b.value) : arg_gt(b.value, a.value)) return a;
  return a.index <= b.index ? a : b;
}

/// Whether a later `b` replaces `a` as the running argmax (MAX) or argmin
/// when NaN wins: `b` beats `a`, or `b` is the first NaN. For real values
/// `!(b <= a)` is "greater or unordered" (one comparison), and an `a` that
/// is NaN already holds the first NaN.
template <bool MAX, typename T>
__device__ __forceinline__ bool arg_take(const T& a, const T& b) {
  return (MAX ? !(b <= a) : !(b >= a)) && !cuprum::isnan(a);
}
template <bool MAX, typename T>
__device__ __forceinline__ bool arg_take(const complex<T>& a, const complex<T>& b) {
  return (MAX ? arg_gt(b, a) : arg_gt(a, b)) || (cuprum::isnan(b) && !cuprum::isnan(a));
}

/// arg_combine for a `b` that comes after every element of `a` (a thread's
/// own pass, in increasing index order): a tie keeps `a`, so no index is
/// compared; without SKIP_NAN the first NaN stays.
template <bool MAX, bool SKIP_NAN, typename T>
__device__ __forceinline__ ArgAcc<T> arg_fold(const ArgAcc<T>& a, const ArgAcc<T>& b) {
  if (SKIP_NAN) {
    if (b.index < 0) return a;
    if (a.index < 0) return b;
    return (MAX ? arg_gt(b.value, a.value) : arg_gt(a.value, b.value)) ? b : a;
  }
  return arg_take<MAX>(a.value, b.value) ? b : a;
}

/// var/std of real values: count, mean and sum of squared deviations (M2),
/// merged with Chan et al.'s parallel formula (Welford's update when one
/// side holds one element).
template <typename T>
struct Welford {
  long long n;
  T mean;
  T m2;
};

template <typename T>
__device__ __forceinline__ Welford<T> welford_make(const T& x, bool skip_nan) {
  Welford<T> r;
  const bool s = skip_nan && cuprum::isnan(x);
  r.n = s ? 0LL : 1LL;
  r.mean = s ? T(0) : x;
  r.m2 = T(0);
  return r;
}

template <typename T>
__device__ __forceinline__ Welford<T> welford_combine(const Welford<T>& a, const Welford<T>& b) {
  if (b.n == 0) return a;
  if (a.n == 0) return b;
  Welford<T> r;
  r.n = a.n + b.n;
  const T fb = (T)b.n / (T)r.n;
  const T d = b.mean - a.mean;
  r.mean = a.mean + d * fb;
  r.m2 = a.m2 + b.m2 + d * d * (T)a.n * fb;
  return r;
}

/// d / n for Welford's update: float32 uses the fast division (about 2 ulp;
/// the update's rounding error is of that order anyway).
template <typename T>
__device__ __forceinline__ T welford_div(const T& d, long long n) { return d / (T)n; }
template <>
__device__ __forceinline__ float welford_div<float>(const float& d, long long n) {
  return __fdividef(d, (float)n);
}

/// welford_combine for a `b` of at most one element (a thread's own pass):
/// Welford's one-element update.
template <typename T>
__device__ __forceinline__ Welford<T> welford_fold(const Welford<T>& a, const Welford<T>& b) {
  if (b.n == 0) return a;
  Welford<T> r;
  r.n = a.n + 1;
  const T d = b.mean - a.mean;
  r.mean = a.mean + welford_div(d, r.n);
  r.m2 = a.m2 + d * (b.mean - r.mean);
  return r;
}

/// var/std of complex values: count, mean (real and imaginary parts) and
/// the sum of squared absolute deviations (var of real + var of imag).
template <typename T>
struct WelfordC {
  long long n;
  T re;
  T im;
  T m2;
};

template <typename T>
__device__ __forceinline__ WelfordC<T> welfordc_make(const complex<T>& x, bool skip_nan) {
  WelfordC<T> r;
  const bool s = skip_nan && cuprum::isnan(x);
  r.n = s ? 0LL : 1LL;
  r.re = s ? T(0) : x.real();
  r.im = s ? T(0) : x.imag();
  r.m2 = T(0);
  return r;
}

template <typename T>
__device__ __forceinline__ WelfordC<T> welford_combine(const WelfordC<T>& a, const WelfordC<T>& b) {
  if (b.n == 0) return a;
  if (a.n == 0) return b;
  WelfordC<T> r;
  r.n = a.n + b.n;
  const T fb = (T)b.n / (T)r.n;
  const T dr = b.re - a.re;
  const T di = b.im - a.im;
  r.re = a.re + dr * fb;
  r.im = a.im + di * fb;
  r.m2 = a.m2 + b.m2 + (dr * dr + di * di) * (T)a.n * fb;
  return r;
}

/// nanmean: count and sum of the non-NaN values.
template <typename S>
struct CountSum {
  long long n;
  S sum;
};

template <typename S>
__device__ __forceinline__ CountSum<S> count_sum_make(const S& x, bool skip_nan) {
  CountSum<S> r;
  const bool s = skip_nan && cuprum::isnan(x);
  r.n = s ? 0LL : 1LL;
  r.sum = s ? cuprum::cast<S>(0) : x;
  return r;
}

template <typename S>
__device__ __forceinline__ CountSum<S> count_sum_combine(const CountSum<S>& a, const CountSum<S>& b) {
  CountSum<S> r;
  r.n = a.n + b.n;
  r.sum = a.sum + b.sum;
  return r;
}

// var's (ROOT: std's) result from a Welford accumulator: M2 over the
// degrees of freedom n - ddof, clamped at 0 (NumPy's division by a
// non-positive count gives inf or NaN).
template <bool ROOT, typename A>
__device__ __forceinline__ decltype(A::m2) var_result(const A& a, double ddof) {
  typedef decltype(A::m2) R;
  const double dof = (double)a.n - ddof;
  const R den = (R)(dof > 0.0 ? dof : 0.0);
  if (ROOT) return sqrt(a.m2 / den);
  return a.m2 / den;
}

}  // namespace cuprum
