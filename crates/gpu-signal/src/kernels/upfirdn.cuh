// gpu-signal's upfirdn (resampling/upfirdn.rs runs it through gpu-array's
// elementwise engine, one output sample a thread, `t` its index in the
// (lines, n_out) output): upsample each line of x by `up` (zeros between
// samples), filter with h, keep every `down`-th sample:
//   y[k] = sum_{j = (k down) mod up, step up} h[j] * ext((k down - j) / up)
// where ext reads the line past its ends by scipy.signal.upfirdn's mode:
// 0 constant (cval), 1 wrap, 2 edge, 3 smooth (the end's slope), 4
// symmetric, 5 reflect, 6 antisymmetric, 7 antireflect, 8 line (the slope
// between the ends). The host refuses reflect and antireflect on lines of
// one sample (SciPy divides by zero there).
namespace cuprum_sig {

__device__ __forceinline__ long long floor_mod(long long p, long long m) {
  const long long r = p % m;
  return r < 0 ? r + m : r;
}

__device__ __forceinline__ long long floor_div(long long p, long long m) {
  return (p - floor_mod(p, m)) / m;
}

template <class T, class XR>
__device__ __forceinline__ T ufd_ext(const XR& x, long long base, long long n, long long p,
                                     int mode, T cval) {
  if (p >= 0 && p < n) return cuprum::cast<T>(x[base + p]);
  const T first = cuprum::cast<T>(x[base]);
  const T last = cuprum::cast<T>(x[base + n - 1]);
  switch (mode) {
    case 1:
      return cuprum::cast<T>(x[base + floor_mod(p, n)]);
    case 2:
      return p < 0 ? first : last;
    case 3: {
      const T second = n > 1 ? cuprum::cast<T>(x[base + 1]) : cuprum::cast<T>(0);
      const T before_last = n > 1 ? cuprum::cast<T>(x[base + n - 2]) : cuprum::cast<T>(0);
      return p < 0 ? first + cuprum::cast<T>((double)p) * (second - first)
                   : last + cuprum::cast<T>((double)(p - (n - 1))) * (last - before_last);
    }
    case 4:
    case 6: {
      const long long r = floor_mod(p, 2 * n);
      const long long k = r < n ? r : 2 * n - 1 - r;
      const T v = cuprum::cast<T>(x[base + k]);
      if (mode == 6 && floor_mod(floor_div(p, n), 2) == 1) return -v;
      return v;
    }
    case 5: {
      const long long r = floor_mod(p, 2 * n - 2);
      return cuprum::cast<T>(x[base + (r < n ? r : 2 * n - 2 - r)]);
    }
    case 7: {
      const long long period = 2 * (n - 1);
      const long long q = floor_div(p + (n - 1), period);
      const long long r = floor_mod(p + (n - 1), period) - (n - 1);
      const T v = r >= 0 ? cuprum::cast<T>(x[base + r])
                         : cuprum::cast<T>(2) * first - cuprum::cast<T>(x[base - r]);
      return v + cuprum::cast<T>((double)q) * cuprum::cast<T>(2) * (last - first);
    }
    case 8: {
      const T slope = (last - first) / cuprum::cast<T>((double)(n - 1));
      return p < 0 ? first + cuprum::cast<T>((double)p) * slope
                   : last + cuprum::cast<T>((double)(p - (n - 1))) * slope;
    }
    default:
      return cval;
  }
}

// a / b and a % b for a >= 0, b >= 1: in 32 bits where both fit (a 64-bit
// division is a call of some 70 instructions; upfirdn makes three an
// output).
__device__ __forceinline__ void ufd_divmod(long long a, long long b, long long& q, long long& r) {
  if (a <= 0xffffffffLL && b <= 0xffffffffLL) {
    const unsigned int uq = (unsigned int)a / (unsigned int)b;
    q = uq;
    r = a - (long long)uq * b;
  } else {
    q = a / b;
    r = a - q * b;
  }
}

template <class T, class XR, class HR>
__device__ __forceinline__ T upfirdn(const XR& x, const HR& h, long long nh, long long n_in,
                                     long long n_out, long long up, long long down, int mode,
                                     T cval, long long t) {
  long long row, k;
  ufd_divmod(t, n_out, row, k);
  const long long base = row * n_in;
  const long long tt = k * down;
  // The first tap j = tt mod up reads sample m = (tt - j) / up; each
  // further tap (j += up) reads the sample before (no division a tap).
  long long m, j;
  ufd_divmod(tt, up, m, j);
  T acc = cuprum::cast<T>(0);
  for (; j < nh; j += up, --m)
    acc = acc + cuprum::cast<T>(h[j]) * ufd_ext<T>(x, base, n_in, m, mode, cval);
  return acc;
}

}  // namespace cuprum_sig
