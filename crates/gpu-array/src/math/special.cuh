// i0 and sinc as NumPy evaluates them.
namespace cuprum_np {
// i0(|v|); inf gives NaN as NumPy's Cephes evaluation (exp(inf) * c / sqrt(inf)).
__device__ __forceinline__ float i0(float v) {
  v = cuprum::fabs(v);
  return cuprum::isinf(v) ? v - v : cyl_bessel_i0f(v);
}
__device__ __forceinline__ double i0(double v) {
  v = cuprum::fabs(v);
  return cuprum::isinf(v) ? v - v : cyl_bessel_i0(v);
}

// Real sinc in Y (C: its compute type): v = pi * x with pi first
// converted to Y (as NumPy converts a Python float) and the product
// rounded to Y; v = eps where v == 0; sin(v) / v.
template <class Y, class C>
__device__ __forceinline__ Y sinc_real(Y x, C eps) {
  Y v = Y((C)Y(3.14159265358979323846) * (C)x);
  if ((C)v == (C)0) v = Y(eps);
  return Y((C)cuprum::sin(v) / (C)v);
}

// Complex sinc (R: the component type); 1e-20 in place of 0.
template <class R, class Y>
__device__ __forceinline__ Y sinc_complex(Y x) {
  const Y pi(R(3.14159265358979323846), R(0));
  Y v = pi * x;
  if (v.real() == R(0) && v.imag() == R(0)) v = Y(R(1e-20), R(0));
  return cuprum::sin(v) / v;
}
}  // namespace cuprum_np
