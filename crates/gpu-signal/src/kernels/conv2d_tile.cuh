// gpu-signal's tiled 2-D convolution (convolution/conv2d_tiled.rs
// launches it): scipy.signal.convolve2d of real floating inputs, the same
// sum as cuprum_sig::convolve2d (convolve.cuh) term for term,
//   y(i, j) = sum_{p, q} ext(i + off0 - p, j + off1 - q) * b[p, q],
// accumulated in ACC over p and then q, each term one multiply-add.
//
// A block of 32 x CUPRUM_CONV2D_ROWS threads computes a tile of R rows by
// 32 * CUPRUM_CONV2D_RUN columns of outputs: it first copies the input
// window they read (the tile plus the kernel's reach, through the boundary
// rule, cast to ACC) and the kernel into shared memory, so that each input
// value is read from global memory once per tile instead of once per tap.
// The general kernel (any bm x bn) has R = CUPRUM_CONV2D_ROWS: thread (x,
// r) computes row r's outputs at columns x, x + 32, ..., so a warp's shared
// loads of one tap are consecutive words (no bank conflicts) and the kernel
// value of a tap serves CUPRUM_CONV2D_RUN outputs. The fixed-size kernels
// (conv2d_fixed, BM x BN up to 7 x 7) have R = CUPRUM_CONV2D_ROWS * RR: the
// thread computes RR consecutive rows at those columns. Tiles beyond the
// grid are taken in grid-stride loops.
//
// Shared memory (dynamic): bm * bn kernel values, then
// (R + bm - 1) x (32 * CUPRUM_CONV2D_RUN + bn - 1) input values, all ACC.
#define CUPRUM_CONV2D_ROWS 8
#define CUPRUM_CONV2D_RUN 4

namespace cuprum_sig {

// The input window of the tile whose first output is at (r0, c0) in a's
// coordinates (less the kernel's reach) is loaded into `tile`, `th` rows
// of `tw`, each row's boundary mapping computed once; the callers
// synchronise around it.
template <typename TA, typename ACC>
__device__ __forceinline__ void conv2d_load(const TA* __restrict__ a, long long m, long long n,
                                            int th, int tw, long long r0, long long c0, int rule,
                                            ACC fill, ACC* tile, int tx, int ty) {
  for (int tr = ty; tr < th; tr += CUPRUM_CONV2D_ROWS) {
    const long long r = boundary(r0 + tr, m, rule);
    for (int tc = tx; tc < tw; tc += 32) {
      const long long c = boundary(c0 + tc, n, rule);
      tile[tr * tw + tc] = (r < 0 || c < 0) ? fill : cuprum::cast<ACC>(a[r * n + c]);
    }
  }
}

// Row i0 + ty of the tile's outputs at columns j0 + tx + 32 k.
template <typename ACC>
__device__ __forceinline__ void conv2d_compute(const ACC* tile, const ACC* bs, int bm, int bn,
                                               int tx, int ty, long long i0, long long j0,
                                               long long ym, long long yn, ACC* __restrict__ y) {
  const int tw = 32 * CUPRUM_CONV2D_RUN + bn - 1;
  const long long i = i0 + ty;
  if (i >= ym) return;
  ACC acc[CUPRUM_CONV2D_RUN];
#pragma unroll
  for (int k = 0; k < CUPRUM_CONV2D_RUN; ++k) acc[k] = cuprum::cast<ACC>(0);
  for (int p = 0; p < bm; ++p) {
    const ACC* row = tile + (ty + bm - 1 - p) * tw + tx + bn - 1;
    for (int q = 0; q < bn; ++q) {
      const ACC bv = bs[p * bn + q];
#pragma unroll
      for (int k = 0; k < CUPRUM_CONV2D_RUN; ++k) acc[k] = madd<ACC>(acc[k], row[32 * k - q], bv);
    }
  }
#pragma unroll
  for (int k = 0; k < CUPRUM_CONV2D_RUN; ++k) {
    const long long j = j0 + tx + 32 * k;
    if (j < yn) y[i * yn + j] = acc[k];
  }
}

template <typename TA, typename TB, typename ACC>
__device__ __forceinline__ void conv2d_tiled(const TA* __restrict__ a, const TB* __restrict__ b,
                                             ACC* __restrict__ y, long long m, long long n,
                                             int bm, int bn, long long off0, long long off1,
                                             long long ym, long long yn, int rule, double fillv,
                                             ACC* smem) {
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int threads = 32 * CUPRUM_CONV2D_ROWS;
  const int tid = ty * 32 + tx;
  const ACC fill = cuprum::cast<ACC>(fillv);
  ACC* bs = smem;
  ACC* tile = smem + bm * bn;
  for (int k = tid; k < bm * bn; k += threads) bs[k] = cuprum::cast<ACC>(b[k]);
  const long long rtiles = (ym + CUPRUM_CONV2D_ROWS - 1) / CUPRUM_CONV2D_ROWS;
  const long long cw = 32 * CUPRUM_CONV2D_RUN;
  const long long ctiles = (yn + cw - 1) / cw;
  for (long long rt = blockIdx.y; rt < rtiles; rt += gridDim.y) {
    for (long long ct = blockIdx.x; ct < ctiles; ct += gridDim.x) {
      const long long i0 = rt * CUPRUM_CONV2D_ROWS, j0 = ct * cw;
      // The previous tile's readers are done before it is overwritten
      // (and, the first time, bs is written).
      __syncthreads();
      conv2d_load<TA, ACC>(a, m, n, CUPRUM_CONV2D_ROWS + bm - 1, 32 * CUPRUM_CONV2D_RUN + bn - 1,
                           i0 + off0 - (bm - 1), j0 + off1 - (bn - 1), rule, fill, tile, tx, ty);
      __syncthreads();
      conv2d_compute<ACC>(tile, bs, bm, bn, tx, ty, i0, j0, ym, yn, y);
    }
  }
}


// ---- The fixed-size kernels (BM x BN known when compiled, up to 7 x 7):
// thread (x, r) computes RR consecutive output rows (r RR ..) at the
// columns x + 32 k, so one shared load of an input value serves every
// output row whose window covers it (up to min(RR, BM) of them) instead of
// one. The sums are the same as above term for term: for each output, p
// rises (the input rows are taken from the bottom up) and, within a p, q
// rises.
template <typename ACC, int BM, int BN, int RR>
__device__ __forceinline__ void conv2d_compute_fixed(const ACC* tile, const ACC* bs, int tx, int ty,
                                                     long long i0, long long j0, long long ym,
                                                     long long yn, ACC* __restrict__ y) {
  constexpr int tw = 32 * CUPRUM_CONV2D_RUN + BN - 1;
  ACC acc[RR][CUPRUM_CONV2D_RUN];
#pragma unroll
  for (int rr = 0; rr < RR; ++rr)
#pragma unroll
    for (int k = 0; k < CUPRUM_CONV2D_RUN; ++k) acc[rr][k] = cuprum::cast<ACC>(0);
  // Input row ty RR + s of the tile is row rr's tap p = rr + BM - 1 - s.
#pragma unroll
  for (int s = RR + BM - 2; s >= 0; --s) {
    const ACC* row = tile + (ty * RR + s) * tw + tx + BN - 1;
#pragma unroll
    for (int q = 0; q < BN; ++q) {
      ACC v[CUPRUM_CONV2D_RUN];
#pragma unroll
      for (int k = 0; k < CUPRUM_CONV2D_RUN; ++k) v[k] = row[32 * k - q];
#pragma unroll
      for (int rr = 0; rr < RR; ++rr) {
        const int p = rr + BM - 1 - s;
        if (p >= 0 && p < BM) {
          const ACC bv = bs[p * BN + q];
#pragma unroll
          for (int k = 0; k < CUPRUM_CONV2D_RUN; ++k) acc[rr][k] = madd<ACC>(acc[rr][k], v[k], bv);
        }
      }
    }
  }
#pragma unroll
  for (int rr = 0; rr < RR; ++rr) {
    const long long i = i0 + ty * RR + rr;
    if (i < ym) {
#pragma unroll
      for (int k = 0; k < CUPRUM_CONV2D_RUN; ++k) {
        const long long j = j0 + tx + 32 * k;
        if (j < yn) y[i * yn + j] = acc[rr][k];
      }
    }
  }
}

// The tile loop of conv2d_tiled with compile-time sizes. (A shared driver
// taking the compute step as a lambda cost this kernel 16 registers and
// 28 bytes of spills at 7 x 7 float32 under ptxas for sm_90, so the loop
// is written twice.)
template <typename TA, typename TB, typename ACC, int BM, int BN, int RR>
__device__ __forceinline__ void conv2d_fixed(const TA* __restrict__ a, const TB* __restrict__ b,
                                             ACC* __restrict__ y, long long m, long long n,
                                             long long off0, long long off1, long long ym,
                                             long long yn, int rule, double fillv, ACC* smem) {
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * 32 + tx;
  const ACC fill = cuprum::cast<ACC>(fillv);
  ACC* bs = smem;
  ACC* tile = smem + BM * BN;
  for (int k = tid; k < BM * BN; k += 32 * CUPRUM_CONV2D_ROWS) bs[k] = cuprum::cast<ACC>(b[k]);
  constexpr long long rows = CUPRUM_CONV2D_ROWS * RR;
  constexpr long long cw = 32 * CUPRUM_CONV2D_RUN;
  const long long rtiles = (ym + rows - 1) / rows;
  const long long ctiles = (yn + cw - 1) / cw;
  for (long long rt = blockIdx.y; rt < rtiles; rt += gridDim.y) {
    for (long long ct = blockIdx.x; ct < ctiles; ct += gridDim.x) {
      const long long i0 = rt * rows, j0 = ct * cw;
      __syncthreads();
      conv2d_load<TA, ACC>(a, m, n, (int)rows + BM - 1, (int)cw + BN - 1, i0 + off0 - (BM - 1),
                           j0 + off1 - (BN - 1), rule, fill, tile, tx, ty);
      __syncthreads();
      conv2d_compute_fixed<ACC, BM, BN, RR>(tile, bs, tx, ty, i0, j0, ym, yn, y);
    }
  }
}

}  // namespace cuprum_sig

#define CUPRUM_CONV2D_TILED(NAME, TA, TB, ACC)                                                \
  extern "C" __global__ void __launch_bounds__(32 * CUPRUM_CONV2D_ROWS)                     \
      NAME(const TA* a, const TB* b, ACC* y, long long m, long long n, int bm, int bn,      \
           long long off0, long long off1, long long ym, long long yn, int rule,           \
           double fill) {                                                                   \
    extern __shared__ double cuprum_sig_conv2d_smem[];                                      \
    cuprum_sig::conv2d_tiled<TA, TB, ACC>(a, b, y, m, n, bm, bn, off0, off1, ym, yn, rule,  \
                                          fill, (ACC*)cuprum_sig_conv2d_smem);              \
  }

// The fixed-size kernel for a BM x BN kernel (bm and bn unused: the
// signature is the general kernel's).
#define CUPRUM_CONV2D_FIXED(NAME, TA, TB, ACC, BM, BN, RR)                                      \
  extern "C" __global__ void __launch_bounds__(32 * CUPRUM_CONV2D_ROWS)                     \
      NAME(const TA* a, const TB* b, ACC* y, long long m, long long n, int bm, int bn,      \
           long long off0, long long off1, long long ym, long long yn, int rule,           \
           double fill) {                                                                   \
    extern __shared__ double cuprum_sig_conv2d_smem[];                                      \
    cuprum_sig::conv2d_fixed<TA, TB, ACC, BM, BN, RR>(a, b, y, m, n, off0, off1, ym, yn, rule, \
                                                      fill, (ACC*)cuprum_sig_conv2d_smem);  \
  }
