// The distributions that are short transforms of one element's stream
// (NumPy's definitions; Devroye 1986, "Non-Uniform Random Variate
// Generation", for the inversions). Needs philox.cuh before it.
#pragma once

namespace cuprum_random {

// Gumbel: loc - scale log(E), E standard exponential (-log U).
__device__ inline double gumbel(Stream& st, double loc, double scale) {
  return loc - scale * log(st.exponential());
}

// Laplace by inversion of its CDF on an open uniform.
__device__ inline double laplace(Stream& st, double loc, double scale) {
  const double u = st.uniform_open();
  return u < 0.5 ? loc + scale * log(2.0 * u) : loc - scale * log(2.0 - 2.0 * u);
}

// Logistic by inversion: loc + scale log(u / (1 - u)).
__device__ inline double logistic(Stream& st, double loc, double scale) {
  const double u = st.uniform_open();
  return loc + scale * log(u / (1.0 - u));
}

__device__ inline double lognormal(Stream& st, double mean, double sigma) {
  return exp(mean + sigma * st.normal());
}

// Pareto II (Lomax), NumPy's: exp(E / a) - 1.
__device__ inline double pareto(Stream& st, double a) { return expm1(st.exponential() / a); }

// Power: (1 - e^-E)^(1/a), that is U^(1/a).
__device__ inline double power(Stream& st, double a) {
  return pow(-expm1(-st.exponential()), 1.0 / a);
}

__device__ inline double rayleigh(Stream& st, double scale) {
  return scale * sqrt(2.0 * st.exponential());
}

// Weibull: E^(1/a); a = 0 gives 0, as NumPy.
__device__ inline double weibull(Stream& st, double a) {
  return a == 0.0 ? 0.0 : pow(st.exponential(), 1.0 / a);
}

// Triangular by inversion of its CDF.
__device__ inline double triangular(Stream& st, double left, double mode, double right) {
  const double base = right - left, lbase = mode - left, rbase = right - mode;
  const double ratio = lbase / base;
  const double u = st.uniform();
  if (u <= ratio) return left + sqrt(u * lbase * base);
  return right - sqrt((1.0 - u) * rbase * base);
}

// An integer in [low, high] (high >= low) from the element's stream:
// Lemire's multiply-and-reject on 64-bit words (Lemire 2019), for the
// integers draw with array bounds.
__device__ inline long long integer_between(Stream& st, long long low, long long high) {
  const unsigned long long range = (unsigned long long)high - (unsigned long long)low + 1ull;
  if (range == 0) return (long long)st.next_u64();  // all 2^64 values
  const unsigned long long t = (0ull - range) % range;
  for (;;) {
    const unsigned long long x = st.next_u64();
    if (x * range >= t) return (long long)((unsigned long long)low + __umul64hi(x, range));
  }
}

}  // namespace cuprum_random
