// unwrap's phase correction of one difference d in Y: ddmod =
// mod(d - low, period) + low (low = -high), high where ddmod == low and
// d > 0 when the boundary is ambiguous (amb != 0), ddmod - d, and 0
// where |d| < discont (compared in Y for float differences, in float64
// for integer ones: INT_INPUT).
namespace cuprum_np {
template <bool INT_INPUT, class Y>
__device__ __forceinline__ Y unwrap_correction(Y d, Y period, Y high, double discont, long long amb) {
  const Y low = Y(-high);
  Y m = Y(cuprum::remainder(Y(d - low), period) + low);
  if (amb != 0 && m == low && d > Y(0)) m = high;
  Y r = Y(m - d);
  if constexpr (INT_INPUT) {
    if ((double)cuprum::absolute(d) < discont) r = Y(0);
  } else {
    if (cuprum::absolute(d) < cuprum::cast<Y>(discont)) r = Y(0);
  }
  return r;
}
}  // namespace cuprum_np
