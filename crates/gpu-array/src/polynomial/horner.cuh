// Polynomial evaluation in NumPy's operation order (compiled with
// --fmad=false: each multiply and add rounds, as NumPy's separate ufunc
// calls do).
namespace cuprum_np {
// Horner's rule over raw coefficients p (len of them) at x, in Y:
// numpy.polyval (rev == 0: acc = 0 * x, then acc = acc * x + p[k] for k
// ascending) or numpy.polynomial.polynomial.polyval (rev != 0: acc =
// p[len - 1] + x * 0, then acc = p[k] + acc * x for k descending).
template <class Y, class X, class P>
__device__ __forceinline__ Y horner(X x, const P& p, long long len, long long rev) {
  const Y xv = cuprum::cast<Y>(x);
  const Y z = cuprum::cast<Y>(x * X(0));
  Y acc;
  if (rev == 0) {
    acc = z;
    for (long long k = 0; k < len; ++k) acc = Y(Y(acc * xv) + cuprum::cast<Y>(p[k]));
  } else {
    acc = Y(cuprum::cast<Y>(p[len - 1]) + z);
    for (long long k = len - 2; k >= 0; --k) acc = Y(cuprum::cast<Y>(p[k]) + Y(acc * xv));
  }
  return acc;
}

// polyval with tensor=True: element i of the C-contiguous result of shape
// m... + x.shape (xs points) evaluates column i / xs of the raw flat c
// (cols columns, len rows) at x[i % xs].
template <class Y, class X, class XR, class CR>
__device__ __forceinline__ Y horner_tensor(long long i, const XR& x, const CR& c, long long len,
                                           long long cols, long long xs) {
  const long long col = i / xs;
  const X xv = x[i - col * xs];
  const Y xy = cuprum::cast<Y>(xv);
  const Y z = cuprum::cast<Y>(xv * X(0));
  Y acc = Y(cuprum::cast<Y>(c[(len - 1) * cols + col]) + z);
  for (long long k = len - 2; k >= 0; --k) acc = Y(cuprum::cast<Y>(c[k * cols + col]) + Y(acc * xy));
  return acc;
}

// polyvander: element [.., j] of a C-contiguous output with cols columns
// is x**j by repeated multiplication (x * 0 + 1, x, v[j - 1] * x).
template <class Y, class XR>
__device__ __forceinline__ Y vander(long long i, const XR& x, long long cols) {
  const long long j = i % cols;
  const Y xv = x[i / cols];
  Y v = Y(Y(xv * Y(0)) + Y(1));
  if (j >= 1) v = xv;
  for (long long k = 2; k <= j; ++k) v = Y(v * xv);
  return v;
}
}  // namespace cuprum_np
