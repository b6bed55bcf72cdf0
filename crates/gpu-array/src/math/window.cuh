// NumPy's window functions at point i of m (float64), each expression in
// NumPy's order with round-to-nearest steps (no contraction into FMAs).
// W: 0 bartlett, 1 blackman, 2 hamming, 3 hanning, 4 kaiser (beta).
namespace cuprum_np {
__device__ __forceinline__ double cos_window(double a, double b, double n, double m) {
  double t = __ddiv_rn(__dmul_rn(3.141592653589793, n), __dsub_rn(m, 1.0));
  return __dadd_rn(a, __dmul_rn(b, cos(t)));
}

template <int W>
__device__ __forceinline__ double window(double m, double beta, double i) {
  // n = 1 - M + 2i: NumPy's arange(1 - M, M, 2).
  const double n = __dadd_rn(__dsub_rn(1.0, m), 2.0 * i);
  if (W == 0) {
    double q = __ddiv_rn(n, __dsub_rn(m, 1.0));
    return n <= 0.0 ? __dadd_rn(1.0, q) : __dsub_rn(1.0, q);
  } else if (W == 1) {
    double d = __dsub_rn(m, 1.0);
    double c1 = cos(__ddiv_rn(__dmul_rn(3.141592653589793, n), d));
    double c2 = cos(__ddiv_rn(__dmul_rn(6.283185307179586, n), d));
    return __dadd_rn(__dadd_rn(0.42, __dmul_rn(0.5, c1)), __dmul_rn(0.08, c2));
  } else if (W == 2) {
    return cos_window(0.54, 0.46, n, m);
  } else if (W == 3) {
    return cos_window(0.5, 0.5, n, m);
  } else {
    double a = __ddiv_rn(__dsub_rn(m, 1.0), 2.0);
    double r = __ddiv_rn(__dsub_rn(i, a), a);
    double s = sqrt(__dsub_rn(1.0, __dmul_rn(r, r)));
    return __ddiv_rn(cyl_bessel_i0(__dmul_rn(beta, s)), cyl_bessel_i0(beta));
  }
}
}  // namespace cuprum_np
