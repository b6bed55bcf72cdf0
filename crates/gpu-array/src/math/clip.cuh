// clip and nan_to_num.
namespace cuprum_np {
// NumPy's real clip loop: min(max(v, lo), hi) where max(a, b) is a when a
// is NaN, else a > b ? a : b (so NaN in v or a bound propagates, and equal
// values take the bound).
template <class Y>
__device__ __forceinline__ Y clip_real(Y v, Y lo, Y hi) {
  if (!cuprum::isnan(v)) v = (v > lo) ? v : lo;
  if (!cuprum::isnan(v)) v = (v < hi) ? v : hi;
  return v;
}

// NumPy's complex clip loop: lexicographic comparison, no NaN rule.
template <class Y>
__device__ __forceinline__ Y clip_complex(Y v, Y lo, Y hi) {
  v = (v > lo) ? v : lo;
  v = (v < hi) ? v : hi;
  return v;
}

// One real component of nan_to_num.
template <class R>
__device__ __forceinline__ R nan_to_num(R v, R nan, R pinf, R ninf) {
  return cuprum::isnan(v) ? nan : (cuprum::isinf(v) ? (cuprum::signbit(v) ? ninf : pinf) : v);
}
}  // namespace cuprum_np
