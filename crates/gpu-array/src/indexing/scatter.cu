
namespace cuprum_scatter {

struct OpAdd {
  template <typename T> __device__ __forceinline__ static T f(T a, T b) { return T(a + b); }
  __device__ __forceinline__ static bool f(bool a, bool b) { return a || b; }
};
struct OpMax {
  template <typename T> __device__ __forceinline__ static T f(T a, T b) { return cuprum::maximum(a, b); }
};
struct OpMin {
  template <typename T> __device__ __forceinline__ static T f(T a, T b) { return cuprum::minimum(a, b); }
};

// The bits of a 1- or 2-byte element, and back.
__device__ __forceinline__ unsigned int bits(bool x) { return x ? 1u : 0u; }
__device__ __forceinline__ unsigned int bits(signed char x) { return (unsigned char)x; }
__device__ __forceinline__ unsigned int bits(unsigned char x) { return x; }
__device__ __forceinline__ unsigned int bits(short x) { return (unsigned short)x; }
__device__ __forceinline__ unsigned int bits(unsigned short x) { return x; }
__device__ __forceinline__ unsigned int bits(cuprum::half x) { return x.x; }
__device__ __forceinline__ unsigned int bits(cuprum::bfloat16 x) { return x.x; }
__device__ __forceinline__ void from_bits(unsigned int b, bool* o) { *o = b != 0u; }
__device__ __forceinline__ void from_bits(unsigned int b, signed char* o) { *o = (signed char)(unsigned char)b; }
__device__ __forceinline__ void from_bits(unsigned int b, unsigned char* o) { *o = (unsigned char)b; }
__device__ __forceinline__ void from_bits(unsigned int b, short* o) { *o = (short)(unsigned short)b; }
__device__ __forceinline__ void from_bits(unsigned int b, unsigned short* o) { *o = (unsigned short)b; }
__device__ __forceinline__ void from_bits(unsigned int b, cuprum::half* o) { *o = cuprum::half::from_bits((unsigned short)b); }
__device__ __forceinline__ void from_bits(unsigned int b, cuprum::bfloat16* o) { *o = cuprum::bfloat16::from_bits((unsigned short)b); }

// A CAS loop on the aligned 32-bit word that holds a 1- or 2-byte element.
template <typename Op, typename T>
__device__ __forceinline__ void narrow(T* p, T v) {
  unsigned int* w = (unsigned int*)((unsigned long long)p & ~3ull);
  const unsigned int sh = (unsigned int)((unsigned long long)p & 3ull) * 8u;
  const unsigned int m = (sizeof(T) == 1 ? 0xffu : 0xffffu) << sh;
  unsigned int old = *w, assumed;
  do {
    assumed = old;
    T cur;
    from_bits((assumed & m) >> sh, &cur);
    const unsigned int nb = (bits(Op::f(cur, v)) << sh) & m;
    if (nb == (assumed & m)) return;
    old = atomicCAS(w, assumed, (assumed & ~m) | nb);
  } while (old != assumed);
}

template <typename Op> __device__ __forceinline__ void f32(float* p, float v) {
  unsigned int* w = (unsigned int*)p;
  unsigned int old = *w, assumed;
  do {
    assumed = old;
    const float r = Op::f(__uint_as_float(assumed), v);
    if (__float_as_uint(r) == assumed) return;
    old = atomicCAS(w, assumed, __float_as_uint(r));
  } while (old != assumed);
}
template <typename Op> __device__ __forceinline__ void f64(double* p, double v) {
  unsigned long long* w = (unsigned long long*)p;
  unsigned long long old = *w, assumed;
  do {
    assumed = old;
    const double r = Op::f(__longlong_as_double((long long)assumed), v);
    if ((unsigned long long)__double_as_longlong(r) == assumed) return;
    old = atomicCAS(w, assumed, (unsigned long long)__double_as_longlong(r));
  } while (old != assumed);
}
template <typename Op> __device__ __forceinline__ void c64(cuprum::complex<float>* p, cuprum::complex<float> v) {
  unsigned long long* w = (unsigned long long*)p;
  unsigned long long old = *w, assumed;
  do {
    assumed = old;
    const cuprum::complex<float> cur(__uint_as_float((unsigned int)(assumed & 0xffffffffull)),
                                     __uint_as_float((unsigned int)(assumed >> 32)));
    const cuprum::complex<float> r = Op::f(cur, v);
    const unsigned long long nb = (unsigned long long)__float_as_uint(r.real()) |
                                  ((unsigned long long)__float_as_uint(r.imag()) << 32);
    if (nb == assumed) return;
    old = atomicCAS(w, assumed, nb);
  } while (old != assumed);
}

#define CUPRUM_SCATTER_NARROW(T)                                                  \
  __device__ __forceinline__ void add(T* p, T v) { narrow<OpAdd>(p, v); }       \
  __device__ __forceinline__ void max(T* p, T v) { narrow<OpMax>(p, v); }       \
  __device__ __forceinline__ void min(T* p, T v) { narrow<OpMin>(p, v); }
CUPRUM_SCATTER_NARROW(bool)
CUPRUM_SCATTER_NARROW(signed char)
CUPRUM_SCATTER_NARROW(unsigned char)
CUPRUM_SCATTER_NARROW(short)
CUPRUM_SCATTER_NARROW(unsigned short)
CUPRUM_SCATTER_NARROW(cuprum::half)
CUPRUM_SCATTER_NARROW(cuprum::bfloat16)
#undef CUPRUM_SCATTER_NARROW

__device__ __forceinline__ void add(int* p, int v) { atomicAdd(p, v); }
__device__ __forceinline__ void max(int* p, int v) { atomicMax(p, v); }
__device__ __forceinline__ void min(int* p, int v) { atomicMin(p, v); }
__device__ __forceinline__ void add(unsigned int* p, unsigned int v) { atomicAdd(p, v); }
__device__ __forceinline__ void max(unsigned int* p, unsigned int v) { atomicMax(p, v); }
__device__ __forceinline__ void min(unsigned int* p, unsigned int v) { atomicMin(p, v); }
// Two's complement: the unsigned add is the signed add, wrapping.
__device__ __forceinline__ void add(long long* p, long long v) {
  atomicAdd((unsigned long long*)p, (unsigned long long)v);
}
__device__ __forceinline__ void max(long long* p, long long v) { atomicMax(p, v); }
__device__ __forceinline__ void min(long long* p, long long v) { atomicMin(p, v); }
__device__ __forceinline__ void add(unsigned long long* p, unsigned long long v) { atomicAdd(p, v); }
__device__ __forceinline__ void max(unsigned long long* p, unsigned long long v) { atomicMax(p, v); }
__device__ __forceinline__ void min(unsigned long long* p, unsigned long long v) { atomicMin(p, v); }
__device__ __forceinline__ void add(float* p, float v) { atomicAdd(p, v); }
__device__ __forceinline__ void max(float* p, float v) { f32<OpMax>(p, v); }
__device__ __forceinline__ void min(float* p, float v) { f32<OpMin>(p, v); }
__device__ __forceinline__ void add(double* p, double v) { atomicAdd(p, v); }
__device__ __forceinline__ void max(double* p, double v) { f64<OpMax>(p, v); }
__device__ __forceinline__ void min(double* p, double v) { f64<OpMin>(p, v); }
__device__ __forceinline__ void add(cuprum::complex<float>* p, cuprum::complex<float> v) {
  atomicAdd((float*)p, v.real());
  atomicAdd((float*)p + 1, v.imag());
}
__device__ __forceinline__ void max(cuprum::complex<float>* p, cuprum::complex<float> v) { c64<OpMax>(p, v); }
__device__ __forceinline__ void min(cuprum::complex<float>* p, cuprum::complex<float> v) { c64<OpMin>(p, v); }
__device__ __forceinline__ void add(cuprum::complex<double>* p, cuprum::complex<double> v) {
  atomicAdd((double*)p, v.real());
  atomicAdd((double*)p + 1, v.imag());
}

// The scatters' one statement (scatter.rs): the value at C-order position
// i of the values broadcast to [outer, isz, rdim] lands on a's element
// (l * cdim + k) * rdim + r, (l, j, r) being i's position and k the index
// ind[j] wrapped into [0, cdim) (CuPy's wrap, where NumPy's add.at raises).
struct Add {
  template <typename T> static __device__ __forceinline__ void at(T* p, T v) { add(p, v); }
};
struct Max {
  template <typename T> static __device__ __forceinline__ void at(T* p, T v) { max(p, v); }
};
struct Min {
  template <typename T> static __device__ __forceinline__ void at(T* p, T v) { min(p, v); }
};
template <typename Op, typename Ind, typename Val, typename Arr>
__device__ __forceinline__ void scatter_one(long long i, const Ind& ind, const Val& v, const Arr& a,
                                            long long cdim, long long rdim, long long isz) {
  const long long r = i % rdim, t = i / rdim;
  const long long j = t % isz, l = t / isz;
  long long k = (long long)ind[j];
  if (k < 0 || k >= cdim) {
    k %= cdim;
    if (k < 0) k += cdim;
  }
  Op::at(&a[(l * cdim + k) * rdim + r], v[i]);
}

}  // namespace cuprum_scatter
