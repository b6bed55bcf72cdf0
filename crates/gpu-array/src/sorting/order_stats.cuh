// The order statistics' pick-and-interpolate step for element i of the
// (quantile, row) result: the sorted rows s (len each, the first cnt[row]
// valid), the quantiles qs; T is the input dtype, O the result's. method
// is QuantileMethod's code (5: median, the mean of the two middle values
// when they differ); prop: a trailing NaN makes the row's result NaN;
// round_diff: b - a rounded to T, as NumPy's lerp.
namespace cuprum_np {
template <class T, class O, class S, class C, class Q>
__device__ __forceinline__ O quantile_pick(const S& s, const C& cnt, const Q& qs, long long i,
                                           long long rows, long long len, int method, int prop,
                                           int round_diff) {
  const long long row = i % rows;
  const long long k = i / rows;
  const long long c = cnt[row];
  const long long b0 = row * len;
  if (c == 0 || (prop && cuprum::isnan(cuprum::cast<double>(s[b0 + len - 1])))) {
    return cuprum::cast<O>(__longlong_as_double(0x7FF8000000000000LL));
  } else {
    const double q = qs[k], n = (double)c;
    long long lo = 0, hi = 0, pick = -1;
    double t = 0.0;
    if (method <= 5) {
      const double v = q * (double)(c - 1);
      lo = (long long)floor(v);
      hi = lo + 1 < c ? lo + 1 : c - 1;
      const double g = v - (double)lo;
      if (method == 1) pick = lo;
      else if (method == 2) pick = g > 0.0 ? hi : lo;
      else if (method == 3) pick = (long long)rint(v);
      else t = method >= 4 ? (g > 0.0 ? 0.5 : 0.0) : g;
    } else if (method == 6 || method == 8) {
      // inverted_cdf, closest_observation: NumPy's index n q - 1 (- 0.5),
      // its floor where the fraction is 0 (and, for closest_observation,
      // the floor odd), else the next; products and sums rounded apart,
      // as NumPy's.
      double x = __dsub_rn(__dmul_rn(n, q), 1.0);
      if (method == 8) x = __dsub_rn(x, 0.5);
      const double f = floor(x);
      const bool at = __dsub_rn(x, f) == 0.0 && (method == 6 || (((long long)f) & 1));
      pick = (long long)(at ? f : f + 1.0);
      if (pick < 0) pick = 0;
      if (pick > c - 1) pick = c - 1;
    } else {
      // NumPy's virtual index n q + (alpha + q (1 - alpha - beta)) - 1
      // (n q - 1 for averaged_inverted_cdf), clamped to the ends with its
      // gamma taken from the clamped floor.
      double v;
      if (method == 7) {
        v = __dsub_rn(__dmul_rn(n, q), 1.0);
      } else {
        const double al = method == 9 ? 0.0 : method == 10 ? 0.5 : method == 11 ? 0.0
                        : method == 12 ? 1.0 / 3.0 : 0.375;
        const double be = method == 9 ? 1.0 : al;
        v = __dsub_rn(__dadd_rn(__dmul_rn(n, q),
              __dadd_rn(al, __dmul_rn(q, __dsub_rn(__dsub_rn(1.0, al), be)))), 1.0);
      }
      double f;
      if (v >= (double)(c - 1)) { lo = hi = c - 1; f = -1.0; }
      else if (v < 0.0) { lo = hi = 0; f = 0.0; }
      else { f = floor(v); lo = (long long)f; hi = lo + 1; }
      t = __dsub_rn(v, f);
      if (method == 7) t = t == 0.0 ? 0.5 : 1.0;
    }
    if (pick >= 0) {
      return cuprum::cast<O>(s[b0 + pick]);
    } else {
      const double a = cuprum::cast<double>(s[b0 + lo]);
      const double b = cuprum::cast<double>(s[b0 + hi]);
      double r;
      if (method == 5) r = t > 0.0 ? (a + b) / 2.0 : a;
      else {
        const double d = round_diff ?
          cuprum::cast<double>(cuprum::cast<T>(b - a)) : b - a;
        r = t >= 0.5 ? b - d * (1.0 - t) : a + d * t;
      }
      return cuprum::cast<O>(r);
    }
  }
}
}  // namespace cuprum_np
