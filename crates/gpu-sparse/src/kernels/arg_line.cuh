// The argmax/argmin of each line of a canonical compressed matrix
// (reduce.rs, SciPy's _argminmax_axis), one thread a line `r`, through
// gpu-array's elementwise engine: the line's entries are v[p[r]..p[r+1])
// at sorted distinct positions ix[..] of a line of `len` positions.
// The first extreme stored entry wins (NumPy's argmax: the first NaN if
// any); unless `explicit`, an implicit zero beats it when it does not
// beat zero and the line is not full: the first missing position, or the
// smaller of it and the entry's position for an extreme equal to zero
// (a NaN extreme loses to the zeros, as in SciPy). An empty line gives 0.
// Complex values are ordered as NumPy orders them (lexicographically).
namespace cuprum_sparse_arg {

// NumPy's order: complex values compare by their real parts, then their
// imaginary parts; a NaN in either part is a NaN.
template <class T>
__device__ __forceinline__ bool nan_(const T& x) { return x != x; }
template <class T>
__device__ __forceinline__ bool nan_(const cuprum::complex<T>& z) {
  return z.real() != z.real() || z.imag() != z.imag();
}
template <class T>
__device__ __forceinline__ bool gt_(const T& a, const T& b) { return a > b; }
template <class T>
__device__ __forceinline__ bool gt_(const cuprum::complex<T>& a, const cuprum::complex<T>& b) {
  return a.real() > b.real() || (a.real() == b.real() && a.imag() > b.imag());
}
template <class T>
__device__ __forceinline__ bool lt_(const T& a, const T& b) { return a < b; }
template <class T>
__device__ __forceinline__ bool lt_(const cuprum::complex<T>& a, const cuprum::complex<T>& b) {
  return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
}

template <class T>
__device__ __forceinline__ T zero_like(const T&) { return T(0); }

template <class VR, class IR, class PR>
__device__ __forceinline__ long long line(const VR& v, const IR& ix, const PR& p, long long r,
                                          long long len, int amax, int expl) {
  const long long b = (long long)p[r];
  const long long e = (long long)p[r + 1];
  if (b == e) return 0;
  long long ext = b;
  for (long long i = b + 1; i < e; ++i) {
    const auto c = v[ext];
    if (nan_(c)) break;
    const auto a = v[i];
    if (nan_(a)) {
      ext = i;
      break;
    }
    if (amax ? gt_(a, c) : lt_(a, c)) ext = i;
  }
  const auto ev = v[ext];
  const long long at = (long long)ix[ext];
  if (expl) return at;
  const auto zero = zero_like(ev);
  const bool beats = amax ? gt_(ev, zero) : lt_(ev, zero);
  if (beats || e - b == len) return at;
  long long k = 0;
  while (k < e - b && (long long)ix[b + k] == k) ++k;
  if (ev == zero) return at < k ? at : k;
  return k;
}

}  // namespace cuprum_sparse_arg
