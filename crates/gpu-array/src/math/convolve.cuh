// One output t of correlate (conv == 0: sum_n a[n + t - (nv - 1)] *
// conj(v[n]), conjugating when cj != 0) or convolve (conv != 0:
// sum_k a[k] * v[t - k]) over raw 1-D a (na points) and v (nv points),
// accumulated in A (NumPy's dot loops: float for the 16-bit floats). bool
// sums are ORs of ANDs, as NumPy's.
namespace cuprum_np {
template <class A, class AR, class VR>
__device__ __forceinline__ A correlate(const AR& a, const VR& v, long long t, long long na,
                                       long long nv, long long conv, long long cj) {
  A acc = cuprum::cast<A>(0);
  if (conv == 0) {
    long long n0 = nv - 1 - t; if (n0 < 0) n0 = 0;
    long long n1 = na + nv - 1 - t; if (n1 > nv) n1 = nv;
    for (long long n = n0; n < n1; ++n) {
      const A p = cuprum::cast<A>(a[n + t - (nv - 1)]);
      A q = cuprum::cast<A>(v[n]);
      if constexpr (cuprum::is_complex<A>::value) {
        if (cj != 0) q = cuprum::conj(q);
      }
      if constexpr (cuprum::is_same<A, bool>::value) acc = acc || (p && q);
      else acc = acc + p * q;
    }
  } else {
    long long k0 = t - (nv - 1); if (k0 < 0) k0 = 0;
    long long k1 = t + 1; if (k1 > na) k1 = na;
    for (long long k = k0; k < k1; ++k) {
      const A p = cuprum::cast<A>(a[k]);
      const A q = cuprum::cast<A>(v[t - k]);
      if constexpr (cuprum::is_same<A, bool>::value) acc = acc || (p && q);
      else acc = acc + p * q;
    }
  }
  return acc;
}
}  // namespace cuprum_np
