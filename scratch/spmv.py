# CSR SpMV variants for 2^20 rows x 16 random columns, f32, beside cuSPARSE (CuPy).
import cupy as cp, cupyx.scipy.sparse as sp
def t(f, reps=50):
    for _ in range(3): f()
    cp.cuda.Device().synchronize()
    s, e = cp.cuda.Event(), cp.cuda.Event()
    s.record()
    for _ in range(reps): f()
    e.record(); e.synchronize()
    return cp.cuda.get_elapsed_time(s, e) / reps
n = 1 << 20
k = cp.arange(n * 16, dtype=cp.int64)
a = sp.coo_matrix((((k % 7) + 1).astype(cp.float32) / 8, ((k // 16).astype(cp.int32), ((k * 2654435761) % n).astype(cp.int32))), shape=(n, n)).tocsr()
x = cp.ones(n, cp.float32)
src = r'''
template <int L>
__device__ void spmv(const float* __restrict__ v, const int* __restrict__ col, const int* __restrict__ ptr, const float* __restrict__ x, float* __restrict__ y, int rows) {
  const int lane = threadIdx.x % L;
  long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / L;
  const long long stride = (long long)gridDim.x * blockDim.x / L;
  for (; row < rows; row += stride) {
    const int b = ptr[row], e = ptr[row + 1];
    float s = 0.f;
    for (int i = b + lane; i < e; i += L) s += v[i] * __ldg(&x[col[i]]);
    #pragma unroll
    for (int o = L / 2; o > 0; o /= 2) s += __shfl_down_sync(0xffffffff, s, o, L);
    if (lane == 0) y[row] = s;
  }
}
extern "C" __global__ void spmv4(const float* v, const int* c, const int* p, const float* x, float* y, int r) { spmv<4>(v, c, p, x, y, r); }
extern "C" __global__ void spmv8(const float* v, const int* c, const int* p, const float* x, float* y, int r) { spmv<8>(v, c, p, x, y, r); }
extern "C" __global__ void spmv16(const float* v, const int* c, const int* p, const float* x, float* y, int r) { spmv<16>(v, c, p, x, y, r); }
extern "C" __global__ void spmv32(const float* v, const int* c, const int* p, const float* x, float* y, int r) { spmv<32>(v, c, p, x, y, r); }
'''
m = cp.RawModule(code=src, options=("--std=c++17",))
y = cp.empty(n, cp.float32)
ref = a @ x
print(f"cupy a@x: {t(lambda: a @ x):.4f} ms  nnz {a.nnz}")
sm = cp.cuda.Device().attributes["MultiProcessorCount"]
for L in (4, 8, 16, 32):
    f = m.get_function(f"spmv{L}")
    for blocks_per_sm in (8, 16, 32):
        g = sm * blocks_per_sm
        run = lambda: f((g,), (256,), (a.data, a.indices, a.indptr, x, y, cp.int32(n)))
        ms = t(run)
        ok = bool(cp.allclose(y, ref))
        print(f"L={L} grid={blocks_per_sm}/SM: {ms:.4f} ms ok={ok}")
