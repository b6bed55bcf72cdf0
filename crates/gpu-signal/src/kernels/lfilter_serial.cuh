// cuprum_sig_lfilter_serial: a recursive filter of any order along one
// signal, one thread a signal: SciPy's own loop (direct form II
// transposed, a[0] == 1), the state z (order values) in global memory,
// where it starts as zi and ends as zf. For the orders the parallel
// block kernels (lfilter.cu) do not hold.
namespace cuprum_sig {

template <class T>
__device__ __forceinline__ void lfilter_serial(const T* b, const T* a, const T* x, T* y, T* z,
                                               long long order, long long n) {
  for (long long k = 0; k < n; ++k) {
    const T xk = x[k];
    const T yk = b[0] * xk + z[0];
    for (long long j = 0; j + 1 < order; ++j) {
      z[j] = z[j + 1] + b[j + 1] * xk - a[j + 1] * yk;
    }
    z[order - 1] = b[order] * xk - a[order] * yk;
    y[k] = yk;
  }
}

}  // namespace cuprum_sig
