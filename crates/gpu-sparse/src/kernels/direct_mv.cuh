// Sparse @ dense for the dtypes cuSPARSE does not take (bool, the
// integers, the 16-bit floats; products.rs runs it through gpu-array's
// elementwise engine): output element t = (r, c) of the (rows, ncol)
// result is the sum over row r's entries of a CSR matrix, in storage
// order, of d[j] * x[ix[j], c] (x C-contiguous), accumulated in ACC;
// bool sums are ORs of ANDs, as NumPy's matmul. One thread an output
// element: the sum's order is fixed, so results repeat exactly.
namespace cuprum_sparse_mv {

template <class ACC, class DR, class IR, class PR, class XR>
__device__ __forceinline__ ACC row(const DR& d, const IR& ix, const PR& p, const XR& x,
                                   long long t, long long ncol) {
  const long long r = t / ncol;
  const long long c = t - r * ncol;
  ACC acc = cuprum::cast<ACC>(0);
  const long long e = (long long)p[r + 1];
  for (long long j = (long long)p[r]; j < e; ++j) {
    const ACC a = cuprum::cast<ACC>(d[j]);
    const ACC b = cuprum::cast<ACC>(x[(long long)ix[j] * ncol + c]);
    if constexpr (cuprum::is_same<ACC, bool>::value) {
      acc = acc || (a && b);
    } else {
      acc = acc + a * b;
    }
  }
  return acc;
}

}  // namespace cuprum_sparse_mv
