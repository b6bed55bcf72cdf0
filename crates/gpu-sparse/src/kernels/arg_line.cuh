// The argmax/argmin of each line of a canonical compressed matrix
// (reduce.rs, SciPy's _argminmax_axis), one thread a line `r`, through
// gpu-array's elementwise engine: the line's entries are v[p[r]..p[r+1])
// at sorted distinct positions ix[..] of a line of `len` positions.
// The first extreme stored entry wins (NumPy's argmax: the first NaN if
// any); unless `explicit`, an implicit zero beats it when it does not
// beat zero and the line is not full: the first missing position, or the
// smaller of it and the entry's position for an extreme equal to zero
// (a NaN extreme loses to the zeros, as in SciPy). An empty line gives 0.
namespace cuprum_sparse_arg {

template <class VR, class IR, class PR>
__device__ __forceinline__ long long line(const VR& v, const IR& ix, const PR& p, long long r,
                                          long long len, int amax, int expl) {
  const long long b = (long long)p[r];
  const long long e = (long long)p[r + 1];
  if (b == e) return 0;
  long long ext = b;
  for (long long i = b + 1; i < e; ++i) {
    const auto c = v[ext];
    if (c != c) break;
    const auto a = v[i];
    if (a != a) {
      ext = i;
      break;
    }
    if (amax ? (a > c) : (a < c)) ext = i;
  }
  const auto ev = v[ext];
  const long long at = (long long)ix[ext];
  if (expl) return at;
  const bool beats = amax ? (ev > 0) : (ev < 0);
  if (beats || e - b == len) return at;
  long long k = 0;
  while (k < e - b && (long long)ix[b + k] == k) ++k;
  if (ev == 0) return at < k ? at : k;
  return k;
}

}  // namespace cuprum_sparse_arg
