// Host emulation of the CUDA the ndimage kernels use (see run.sh).
#pragma once
#include <algorithm>
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>
#include <vector>
using std::min; using std::max;
struct dim3 { unsigned x = 1, y = 1, z = 1; };
inline thread_local dim3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;
inline std::barrier<>* g_bar = nullptr;
inline std::vector<long long> g_shfl;
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __noinline__
#define __shared__ static
inline void __syncthreads() { g_bar->arrive_and_wait(); }
inline void __syncwarp() { g_bar->arrive_and_wait(); }
inline int lin_tid() { return threadIdx.x + blockDim.x * threadIdx.y; }
template <typename T> T __shfl_xor_sync(unsigned, T v, int o) {
  int me = lin_tid();
  g_shfl[me] = (long long)v;
  g_bar->arrive_and_wait();
  T r = (T)g_shfl[me ^ o];
  g_bar->arrive_and_wait();
  return r;
}
inline unsigned __float_as_uint(float f) { unsigned u; std::memcpy(&u, &f, 4); return u; }
inline float __uint_as_float(unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }
inline double __dadd_rn(double a, double b) { volatile double r = a + b; return r; }
inline double __dsub_rn(double a, double b) { volatile double r = a - b; return r; }
inline double __dmul_rn(double a, double b) { volatile double r = a * b; return r; }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }
inline double __ddiv_rn(double a, double b) { volatile double r = a / b; return r; }
struct uint4 { unsigned x, y, z, w; };
inline uint4 make_uint4(unsigned a, unsigned b, unsigned c, unsigned d) { return {a, b, c, d}; }
inline unsigned __vcmpne4(unsigned a, unsigned b) {
  unsigned r = 0;
  for (int k = 0; k < 4; ++k) if (((a >> 8 * k) & 0xff) != ((b >> 8 * k) & 0xff)) r |= 0xffu << 8 * k;
  return r;
}
inline int atomicOr(int* p, int v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
alignas(16) inline int g_dyn[1 << 16];
// Runs `f` over a grid, one block at a time.
inline void launch(dim3 grid, dim3 block, std::function<void()> f) {
  gridDim = grid; blockDim = block;
  int nt = block.x * block.y;
  g_shfl.assign(nt, 0);
  for (unsigned b = 0; b < grid.x; ++b) {
    std::barrier<> bar(nt);
    g_bar = &bar;
    std::vector<std::thread> ts;
    for (int t = 0; t < nt; ++t)
      ts.emplace_back([&, t, b] {
        blockIdx.x = b; threadIdx.x = t % block.x; threadIdx.y = t / block.x;
        f();
      });
    for (auto& t : ts) t.join();
  }
}
