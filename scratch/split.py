# Time pieces of special functions as CuPy RawKernels over the project's headers.
import cupy as cp, cupyx.scipy.special as csp, sys, os
inc = os.path.abspath("kernels")
src = r'''
#include "cuprum/special/bessel.cuh"
#include "cuprum/special/gamma.cuh"
extern "C" __global__ void k_j0(const double* x, double* y, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) y[i] = cuprum::special::j0(x[i]); }
extern "C" __global__ void k_libj0(const double* x, double* y, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) y[i] = ::j0(x[i]); }
extern "C" __global__ void k_i0e(const double* x, double* y, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) y[i] = cuprum::special::i0e(x[i]); }
extern "C" __global__ void k_copy(const double* x, double* y, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) y[i] = x[i]; }
extern "C" __global__ void k_lgf(const float* x, float* y, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) y[i] = cuprum::special::gammaln(x[i]); }
extern "C" __global__ void k_liblgf(const float* x, float* y, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) y[i] = ::lgammaf(x[i]); }
'''
mod = cp.RawModule(code=src, options=("-I" + inc, "--std=c++17"))
def t(f, reps=20):
    f(); cp.cuda.Device().synchronize()
    s, e = cp.cuda.Event(), cp.cuda.Event()
    s.record()
    for _ in range(reps): f()
    e.record(); e.synchronize()
    return cp.cuda.get_elapsed_time(s, e) / reps
def ramp(n, scale, off, dt):
    return ((cp.arange(n, dtype=cp.float64) % 1000) * scale + off).astype(dt)
n = 1 << 27
sm = cp.cuda.Device().attributes["MultiProcessorCount"]
def launch(name, x):
    y = cp.empty_like(x); k = mod.get_function(name)
    return lambda: k((sm * 16,), (256,), (x, y, cp.int64(x.size)))
for label, off in (("[0,50)", 0.0), ("[0,25)", None), ("[25,50)", 25.0)):
    x = ramp(n, 0.05 if off is not None else 0.025, off or 0.0, cp.float64)
    print(f"j0 {label}: ours {t(launch('k_j0', x)):.3f}  libdevice {t(launch('k_libj0', x)):.3f}  cupy {t(lambda: csp.j0(x)):.3f}  copy {t(launch('k_copy', x)):.3f}")
for label, sc, off in (("[0,50)", 0.05, 0.0), ("[0,30)", 0.03, 0.0), ("[30,50)", 0.02, 30.0)):
    x = ramp(n, sc, off, cp.float64)
    print(f"i0e {label}: ours {t(launch('k_i0e', x)):.3f}  cupy {t(lambda: csp.i0e(x)):.3f}")
x = ramp(1 << 28, 0.01, 0.05, cp.float32)
print(f"gammaln f32: ours {t(launch('k_lgf', x)):.3f}  lgammaf {t(launch('k_liblgf', x)):.3f}  cupy {t(lambda: csp.gammaln(x)):.3f}")
