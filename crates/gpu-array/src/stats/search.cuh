// Searches of digitize and histogramdd, NaN ordered last as NumPy's sorts.
namespace cuprum_np {
// digitize(x, bins, right) as NumPy's searchsorted on increasing bins
// (dec == 0) or on the reversed decreasing bins (dec != 0: len -
// searchsorted(bins[::-1], x)), compared in C; side 0 'left', 1 'right'.
template <class C, class X, class B>
__device__ __forceinline__ long long digitize(X x, const B& bins, long long len, long long side,
                                              long long dec) {
  const C v = cuprum::cast<C>(x);
  long long lo = 0, hi = len;
  while (lo < hi) {
    const long long mid = lo + (hi - lo) / 2;
    const C b = cuprum::cast<C>(bins[dec != 0 ? len - 1 - mid : mid]);
    const bool b_nan = cuprum::isnan(b), v_nan = cuprum::isnan(v);
    const bool b_lt_v = (b < v) || (v_nan && !b_nan);
    const bool v_lt_b = (v < b) || (b_nan && !v_nan);
    const bool go_right = side == 0 ? b_lt_v : !v_lt_b;
    if (go_right) lo = mid + 1; else hi = mid;
  }
  return dec != 0 ? len - lo : lo;
}

// histogramdd's flat bin index of sample i: for each of the dims columns
// of the raw C-ordered (N, dims) sample s, searchsorted(edges, x,
// side='right') over that column's edges (at meta[2d], meta[2d + 1] of
// them, in the raw flat e of type C) minus one on the last edge, combined
// C-order with len + 1 bins (two outlier bins) per column.
template <class C, class S, class E, class M>
__device__ __forceinline__ long long histdd_index(long long i, const S& s, const E& e, const M& meta,
                                                  long long dims) {
  long long idx = 0;
  for (long long d = 0; d < dims; ++d) {
    const C v = cuprum::cast<C>(s[i * dims + d]);
    const long long off = meta[2 * d], len = meta[2 * d + 1];
    long long lo = 0, hi = len;
    while (lo < hi) {
      const long long mid = lo + (hi - lo) / 2;
      const C b = e[off + mid];
      const bool lt = (v < b) || (cuprum::isnan(b) && !cuprum::isnan(v));
      if (lt) hi = mid; else lo = mid + 1;
    }
    if (v == e[off + len - 1]) lo -= 1;
    idx = idx * (len + 1) + lo;
  }
  return idx;
}
}  // namespace cuprum_np
