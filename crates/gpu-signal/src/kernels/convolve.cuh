// gpu-signal's direct convolutions (convolution/direct.rs and
// convolution/conv2d.rs run them through gpu-array's elementwise engine,
// one output element a thread, `t` its C-order index).
//
// cuprum_sig_convolve: the N-D convolution of raw arrays a and b (any
// layout: they index by C-order position) at output element t,
//   sum_j a[o + off - j] * b[j]   (terms whose a index leaves a skipped),
// accumulated in ACC from b's first element to its last in C order.
// g holds a's shape, b's shape, the output's shape and the offsets of the
// output in the full convolution, nd values each (nd <= 16).
//
// cuprum_sig_convolve2d: scipy.signal.convolve2d's sum at output (i, j),
//   sum_{p,q} b[p, q] * ext(i + off0 - p, j + off1 - q),
// where ext reads a (m x n) past its edges by the boundary rule: 0 fill
// (fillvalue), 1 wrap (periodic), 2 symm (mirrored with the edge repeated,
// periodic with period 2n); g = [m, n, bm, bn, off0, off1, out_n].
namespace cuprum_sig {

template <class ACC>
__device__ __forceinline__ ACC madd(ACC acc, ACC p, ACC q) {
  if constexpr (cuprum::is_same<ACC, bool>::value) {
    return acc || (p && q);
  } else {
    return acc + p * q;
  }
}

template <class ACC, class AR, class BR>
__device__ __forceinline__ ACC convolve(const AR& a, const BR& b, const long long* g, int nd,
                                        long long t) {
  long long o[16];
  long long jj[16];
  long long rest = t;
  long long nb = 1;
  for (int d = nd - 1; d >= 0; --d) {
    const long long n = g[2 * nd + d];
    o[d] = rest % n + g[3 * nd + d];
    rest /= n;
    jj[d] = 0;
    nb *= g[nd + d];
  }
  ACC acc = cuprum::cast<ACC>(0);
  for (long long j = 0; j < nb; ++j) {
    long long lin = 0;
    bool inside = true;
    for (int d = 0; d < nd; ++d) {
      const long long p = o[d] - jj[d];
      if (p < 0 || p >= g[d]) {
        inside = false;
        break;
      }
      lin = lin * g[d] + p;
    }
    if (inside) acc = madd<ACC>(acc, cuprum::cast<ACC>(a[lin]), cuprum::cast<ACC>(b[j]));
    for (int d = nd - 1; d >= 0; --d) {
      if (++jj[d] < g[nd + d]) break;
      jj[d] = 0;
    }
  }
  return acc;
}

// p mapped into 0..n by the boundary rule, or -1 for the fill value.
__device__ __forceinline__ long long boundary(long long p, long long n, int rule) {
  if (p >= 0 && p < n) return p;
  if (rule == 1) {
    long long r = p % n;
    return r < 0 ? r + n : r;
  }
  if (rule == 2) {
    const long long period = 2 * n;
    long long r = p % period;
    if (r < 0) r += period;
    return r < n ? r : period - 1 - r;
  }
  return -1;
}

template <class ACC, class AR, class BR>
__device__ __forceinline__ ACC convolve2d(const AR& a, const BR& b, const long long* g,
                                          int rule, ACC fill, long long t) {
  const long long m = g[0], n = g[1], bm = g[2], bn = g[3];
  const long long i = t / g[6] + g[4];
  const long long j = t % g[6] + g[5];
  ACC acc = cuprum::cast<ACC>(0);
  for (long long p = 0; p < bm; ++p) {
    const long long r = boundary(i - p, m, rule);
    for (long long q = 0; q < bn; ++q) {
      const long long c = boundary(j - q, n, rule);
      const ACC v = (r < 0 || c < 0) ? fill : cuprum::cast<ACC>(a[r * n + c]);
      acc = madd<ACC>(acc, v, cuprum::cast<ACC>(b[p * bn + q]));
    }
  }
  return acc;
}

}  // namespace cuprum_sig
