// Bessel functions of scipy.special: j0, j1, y0, y1 (first and second
// kind, orders 0 and 1) and i0, i1 (modified, first kind).
//
// Sources: CUDA's libdevice j0/j1/y0/y1 and cyl_bessel_i0/i1 (rational
// and asymptotic approximations after Hart et al., "Computer
// Approximations"), with SciPy's special values: y0, y1 are -inf at 0
// and NaN below; i0, i1 are NaN at +-inf. Beyond |x| of about 40 CUDA's
// j0/j1/y0/y1 lose absolute accuracy that SciPy's Cephes keeps (see
// docs/special-accuracy.md).
#pragma once

#include "cuprum/special/common.cuh"

namespace cuprum {
namespace special {

// SciPy gives NaN at +-inf for all four.
__device__ __forceinline__ double j0(double x) { return detail::is_inf(x) ? detail::nan() : ::j0(x); }
__device__ __forceinline__ double j1(double x) { return detail::is_inf(x) ? detail::nan() : ::j1(x); }

__device__ __forceinline__ double y0(double x) {
  if (x == 0.0) return -detail::inf();
  if (x < 0.0 || detail::is_inf(x)) return detail::nan();
  return ::y0(x);
}

__device__ __forceinline__ double y1(double x) {
  if (x == 0.0) return -detail::inf();
  if (x < 0.0 || detail::is_inf(x)) return detail::nan();
  return ::y1(x);
}

// i0, i1 at +-inf are NaN and i1(-0) is +0, as SciPy's.
__device__ __forceinline__ double i0(double x) {
  if (detail::is_inf(x)) return detail::nan();
  return ::cyl_bessel_i0(x);
}

__device__ __forceinline__ double i1(double x) {
  if (detail::is_inf(x)) return detail::nan();
  if (x == 0.0) return 0.0;
  return ::cyl_bessel_i1(x);
}

CUPRUM_SPECIAL_F1(j0)
CUPRUM_SPECIAL_F1(j1)
CUPRUM_SPECIAL_F1(y0)
CUPRUM_SPECIAL_F1(y1)
CUPRUM_SPECIAL_F1(i0)
CUPRUM_SPECIAL_F1(i1)

}  // namespace special
}  // namespace cuprum
