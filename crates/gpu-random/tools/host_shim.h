// Lets g++ compile kernels/philox.cuh and kernels/distributions.cuh for
// the host (tools/host_check.py): the CUDA-only names they use, from
// <cmath> or as plain host versions. Good for checking the algorithms'
// distributions, not for bit-exact GPU results (the host's libm is not
// libdevice).
#pragma once
#include <cmath>

#define __device__
#define __host__
#define __global__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))

inline unsigned int __umulhi(unsigned int a, unsigned int b) {
  return (unsigned int)(((unsigned long long)a * b) >> 32);
}

// sin(pi x), cos(pi x) with exact reduction to |r| <= 1/2, as CUDA's.
inline double sinpi(double x) {
  double r = std::remainder(x, 2.0);  // exact, in [-1, 1]
  if (r > 0.5) r = 1.0 - r;
  if (r < -0.5) r = -1.0 - r;
  if (r == 0.0) return std::copysign(0.0, x);
  return std::sin(M_PI * r);
}
inline double cospi(double x) {
  const double r = std::fabs(std::remainder(x, 2.0));  // [0, 1]
  if (r == 0.5) return 0.0;
  return sinpi(0.5 - r);
}
