// isclose of one pair, computed in C (double, or cuprum::complex<double>
// for complex inputs): NaN is close only to NaN and only with eqnan,
// infinities only to themselves, else |a - b| <= atol + rtol |b|.
namespace cuprum_np {
template <class C, class X, class Y>
__device__ __forceinline__ bool isclose(X x, Y y, double rtol, double atol, bool eqnan) {
  const C a = cuprum::cast<C>(x), b = cuprum::cast<C>(y);
  if (cuprum::isnan(a) || cuprum::isnan(b)) {
    return eqnan && cuprum::isnan(a) && cuprum::isnan(b);
  } else if (!cuprum::isfinite(a) || !cuprum::isfinite(b)) {
    return a == b;
  } else {
    return cuprum::absolute(a - b) <= atol + rtol * cuprum::absolute(b);
  }
}
}  // namespace cuprum_np
