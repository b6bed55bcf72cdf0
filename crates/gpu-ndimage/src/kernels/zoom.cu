// zoom2: zoom's and shift's 2-D interpolation (src/zoom.rs launches it),
// one NVRTC program per (input, output, order) after interp.cu's text.
//
// An output's coordinate along axis 0 depends on its row alone and along
// axis 1 on its column alone, so the steps of cuprum_interp_point2 that
// need one coordinate (the boundary map, the spline weights, the taps'
// indices) are taken once per row and once per column of a tile instead
// of once per output. A block's tile is ZOOM_ROWS rows by blockDim.x
// columns: the first ZOOM_ROWS threads put their row's steps in shared
// memory, every thread keeps its column's in registers, and then walks
// the tile's rows. The sum is point2's: the taps in C order, each value
// times the axis-0 weight and then the axis-1 weight, cval for a tap
// mapped outside and for an output whose coordinate leaves the input
// (constant mode, NaN); each product and sum rounded on its own, as
// SciPy's NI_ZoomShift computes them (the interpolation programs
// compile with --fmad=false), so the same bits as interp.cu's kernels.

#define CUPRUM_ZOOM_ROWS 32

// One axis' steps for one coordinate: `ok` false where the output is cval;
// tap a reads index idx[a] (-1: cval) with weight w[a].
template <int ORDER>
struct CuprumZoomAxis {
  long long idx[ORDER + 1];
  double w[ORDER + 1];
  bool ok;
};

template <int ORDER>
__device__ __forceinline__ CuprumZoomAxis<ORDER> cuprum_zoom_axis(long long o, const double* p,
                                                                  long long n, int mode,
                                                                  long long npad) {
  CuprumZoomAxis<ORDER> ax;
  const double c = cuprum_interp_zoom_coord((double)o, p[0], p[1], p[2]);
  long long start = 0;
  ax.ok = cuprum_interp_axis<ORDER>(c, n, mode, npad, start, ax.w);
#pragma unroll
  for (int a = 0; a <= ORDER; ++a) ax.idx[a] = ax.ok ? cuprum_interp_tap(start + a, n, mode) : -1;
  return ax;
}

template <typename TI, typename TO, int ORDER>
__device__ __forceinline__ void cuprum_ndimage_zoom2(const TI* __restrict__ in,
                                                     TO* __restrict__ out,
                                                     const double* __restrict__ params,
                                                     long long n0, long long n1, long long m0,
                                                     long long m1, int mode, double cval,
                                                     long long npad) {
  __shared__ CuprumZoomAxis<ORDER> rows[CUPRUM_ZOOM_ROWS];
  const long long cols = blockDim.x;
  const long long ty = (m0 + CUPRUM_ZOOM_ROWS - 1) / CUPRUM_ZOOM_ROWS, tx = (m1 + cols - 1) / cols;
  const double p0[3] = {params[0], params[1], params[2]};
  const double p1[3] = {params[3], params[4], params[5]};
  for (long long t = blockIdx.x; t < ty * tx; t += gridDim.x) {
    const long long i0 = (t / tx) * CUPRUM_ZOOM_ROWS, j = (t % tx) * cols + threadIdx.x;
    __syncthreads();  // the last tile's readers are done with `rows`
    if (threadIdx.x < CUPRUM_ZOOM_ROWS && i0 + threadIdx.x < m0)
      rows[threadIdx.x] = cuprum_zoom_axis<ORDER>(i0 + threadIdx.x, p0, n0, mode, npad);
    __syncthreads();
    if (j >= m1) continue;
    const CuprumZoomAxis<ORDER> col = cuprum_zoom_axis<ORDER>(j, p1, n1, mode, npad);
    const long long last = m0 - i0 < CUPRUM_ZOOM_ROWS ? m0 - i0 : CUPRUM_ZOOM_ROWS;
    for (int r = 0; r < last; ++r) {
      const CuprumZoomAxis<ORDER>& row = rows[r];
      double t = cval;
      if (row.ok && col.ok) {
        t = 0.0;
#pragma unroll
        for (int a = 0; a <= ORDER; ++a) {
#pragma unroll
          for (int b = 0; b <= ORDER; ++b) {
            double coeff = (row.idx[a] < 0 || col.idx[b] < 0)
                               ? cval
                               : (double)in[row.idx[a] * n1 + col.idx[b]];
            if (ORDER > 0) coeff = __dmul_rn(__dmul_rn(coeff, row.w[a]), col.w[b]);
            t = __dadd_rn(t, coeff);
          }
        }
      }
      out[(i0 + r) * m1 + j] = cuprum_interp_store<TO>(t);
    }
  }
}

#define CUPRUM_NDIMAGE_ZOOM2(NAME, TI, TO, ORDER)                                              \
  extern "C" __global__ void NAME(const TI* in, TO* out, const double* params, long long n0,  \
                                  long long n1, long long m0, long long m1, int mode,         \
                                  double cval, long long npad) {                              \
    cuprum_ndimage_zoom2<TI, TO, ORDER>(in, out, params, n0, n1, m0, m1, mode, cval, npad);   \
  }
