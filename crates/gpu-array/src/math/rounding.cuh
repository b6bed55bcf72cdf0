// around's steps on one real component, each rounded to the component
// type T as NumPy's separate ufunc calls are (C: T's compute type, float
// for the 16-bit floats). MODE 0: rint(v); 1: rint(v * f) / f; 2:
// rint(v / f) * f.
namespace cuprum_np {
template <int MODE, class T, class C>
__device__ __forceinline__ T around_component(T v, T f) {
  if (MODE == 1) v = T((C)v * (C)f);
  if (MODE == 2) v = T((C)v / (C)f);
  v = cuprum::rint(v);
  if (MODE == 1) v = T((C)v / (C)f);
  if (MODE == 2) v = T((C)v * (C)f);
  return v;
}
}  // namespace cuprum_np
