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
//
// Orders 2 and above keep a thread's taps' values (converted to double)
// from one row to the next: where a row's taps are the last row's (shift
// 0) or the last row's moved by one (shift 1: a zoom by more than 1 moves
// one input row every row or two), it reads and converts only the new
// row's. Orders 0 and 1, whose few taps are cheap to read again, take a
// tile's rows in groups of CUPRUM_ZOOM_GROUP (half as many for eight-byte
// inputs): a group's taps are all loaded before its rows are summed, so
// their loads are in flight together, where a row at a time each sum
// waited on its row's loads (taps two rows share are read twice, the
// second from L1). Zoom 2x order 1 of 4096^2 float32 on the H200: 0.243
// ms in groups of 4 against 0.260 a row at a time, CuPy 0.368
// (bench/gpu/zoom_variants.py at b6a88e3: the same bits on six shapes;
// groups of 2, fewer blocks a multiprocessor and loads a group ahead
// were slower).

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

// A row's steps as the tile's threads read them: the taps' offsets of
// their rows in the input (index * n1; -1: cval) in the index type I.
template <int ORDER, typename I>
struct CuprumZoomRow {
  I off[ORDER + 1];
  double w[ORDER + 1];
  bool ok;
  int shift;  // 0: the last row's taps; 1: those moved by one; else none kept
};

// The taps' values v[a][b] (row a, column b; cval where either maps
// outside) of a row whose first ORDER + 1 - S rows of taps are the last
// row's rows S.. (S == ORDER + 1: every value read).
template <int ORDER, int S, typename TI, typename I>
__device__ __forceinline__ void cuprum_zoom_refill(double (&v)[ORDER + 1][ORDER + 1],
                                                   const TI* __restrict__ in, const I* off,
                                                   const I* cidx, double cval) {
#pragma unroll
  for (int a = 0; a <= ORDER; ++a) {
#pragma unroll
    for (int b = 0; b <= ORDER; ++b) {
      if (a + S <= ORDER)
        v[a][b] = v[a + S][b];
      else
        v[a][b] = (off[a] < 0 || cidx[b] < 0) ? cval : (double)in[off[a] + cidx[b]];
    }
  }
}

// Rows a group of orders 0 and 1.
#ifndef CUPRUM_ZOOM_GROUP
#define CUPRUM_ZOOM_GROUP 4
#endif
// Rows a group; eight-byte inputs take half as many, for the registers.
template <typename TI>
struct CuprumZoomGroup {
  static constexpr int G =
      sizeof(TI) <= 4 ? CUPRUM_ZOOM_GROUP : (CUPRUM_ZOOM_GROUP > 1 ? CUPRUM_ZOOM_GROUP / 2 : 1);
};

// The taps of rows r .. r + G - 1 of a tile (orders 0 and 1).
template <int ORDER, int G, typename TI, typename I>
__device__ __forceinline__ void cuprum_zoom_load(TI (&raw)[G][ORDER + 1][ORDER + 1],
                                                 const TI* __restrict__ in,
                                                 const CuprumZoomRow<ORDER, I>* rows,
                                                 const I* cidx) {
#pragma unroll
  for (int g = 0; g < G; ++g) {
#pragma unroll
    for (int a = 0; a <= ORDER; ++a) {
      const I off = rows[g].off[a];
#pragma unroll
      for (int b = 0; b <= ORDER; ++b)
        raw[g][a][b] = (off < 0 || cidx[b] < 0) ? TI(0) : in[off + cidx[b]];
    }
  }
}

// Those rows' sums and stores: the row loop's operations in its order,
// without branches (the sum of a row outside is taken and dropped).
template <int ORDER, int G, typename TI, typename TO, typename I>
__device__ __forceinline__ void cuprum_zoom_sum(const TI (&raw)[G][ORDER + 1][ORDER + 1],
                                                TO* __restrict__ out,
                                                const CuprumZoomRow<ORDER, I>* rows,
                                                const I* cidx, const double* cw, bool col_ok,
                                                I at, I m1, double cval) {
#pragma unroll
  for (int g = 0; g < G; ++g) {
    const CuprumZoomRow<ORDER, I>& row = rows[g];
    double acc = 0.0;
#pragma unroll
    for (int a = 0; a <= ORDER; ++a) {
#pragma unroll
      for (int b = 0; b <= ORDER; ++b) {
        double coeff = (row.off[a] < 0 || cidx[b] < 0) ? cval : (double)raw[g][a][b];
        if (ORDER > 0) coeff = __dmul_rn(__dmul_rn(coeff, row.w[a]), cw[b]);
        acc = __dadd_rn(acc, coeff);
      }
    }
    out[at + (I)g * m1] = cuprum_interp_store<TO>((row.ok && col_ok) ? acc : cval);
  }
}

// I: int when every input and output offset fits (32-bit index
// arithmetic: the taps' addresses are a third of the instructions with
// 64-bit products), long long otherwise.
template <typename TI, typename TO, int ORDER, typename I>
__device__ __forceinline__ void cuprum_ndimage_zoom2_tiles(const TI* __restrict__ in,
                                                           TO* __restrict__ out,
                                                           const double* __restrict__ params,
                                                           long long n0, long long n1,
                                                           long long m0, long long m1, int mode,
                                                           double cval, long long npad) {
  __shared__ CuprumZoomRow<ORDER, I> rows[CUPRUM_ZOOM_ROWS];
  const long long cols = blockDim.x;
  const long long ty = (m0 + CUPRUM_ZOOM_ROWS - 1) / CUPRUM_ZOOM_ROWS, tx = (m1 + cols - 1) / cols;
  const double p0[3] = {params[0], params[1], params[2]};
  const double p1[3] = {params[3], params[4], params[5]};
  for (long long t = blockIdx.x; t < ty * tx; t += gridDim.x) {
    const long long i0 = (t / tx) * CUPRUM_ZOOM_ROWS, j = (t % tx) * cols + threadIdx.x;
    __syncthreads();  // the last tile's readers are done with `rows`
    if (threadIdx.x < CUPRUM_ZOOM_ROWS && i0 + threadIdx.x < m0) {
      const CuprumZoomAxis<ORDER> ax =
          cuprum_zoom_axis<ORDER>(i0 + threadIdx.x, p0, n0, mode, npad);
      CuprumZoomRow<ORDER, I> row;
#pragma unroll
      for (int a = 0; a <= ORDER; ++a) {
        row.off[a] = ax.idx[a] < 0 ? (I)-1 : (I)(ax.idx[a] * n1);
        row.w[a] = ax.w[a];
      }
      row.ok = ax.ok;
      // The taps kept from the tile's last row (none for its first).
      row.shift = ORDER + 1;
      if (ORDER > 1 && threadIdx.x > 0) {
        const CuprumZoomAxis<ORDER> last =
            cuprum_zoom_axis<ORDER>(i0 + threadIdx.x - 1, p0, n0, mode, npad);
        bool same = true, moved = true;
#pragma unroll
        for (int a = 0; a <= ORDER; ++a) {
          const I prev = last.idx[a] < 0 ? (I)-1 : (I)(last.idx[a] * n1);
          same = same && prev == row.off[a];
          if (a > 0) moved = moved && prev == row.off[a - 1];
        }
        row.shift = same ? 0 : moved ? 1 : ORDER + 1;
      }
      rows[threadIdx.x] = row;
    }
    __syncthreads();
    if (j >= m1) continue;
    const CuprumZoomAxis<ORDER> col = cuprum_zoom_axis<ORDER>(j, p1, n1, mode, npad);
    I cidx[ORDER + 1];
#pragma unroll
    for (int b = 0; b <= ORDER; ++b) cidx[b] = (I)col.idx[b];
    const int last = (int)(m0 - i0 < CUPRUM_ZOOM_ROWS ? m0 - i0 : CUPRUM_ZOOM_ROWS);
    const I base = (I)i0 * (I)m1 + (I)j;
    if constexpr (ORDER <= 1) {
      constexpr int G = CuprumZoomGroup<TI>::G;
      const int groups = last / G;
      for (int k = 0; k < groups; ++k) {
        TI cur[G][ORDER + 1][ORDER + 1];
        cuprum_zoom_load<ORDER, G>(cur, in, rows + k * G, cidx);
        cuprum_zoom_sum<ORDER, G, TI, TO, I>(cur, out, rows + k * G, cidx, col.w, col.ok,
                                             base + (I)(k * G) * (I)m1, (I)m1, cval);
      }
      for (int r = groups * G; r < last; ++r) {
        TI one[1][ORDER + 1][ORDER + 1];
        cuprum_zoom_load<ORDER, 1>(one, in, rows + r, cidx);
        cuprum_zoom_sum<ORDER, 1, TI, TO, I>(one, out, rows + r, cidx, col.w, col.ok,
                                             base + (I)r * (I)m1, (I)m1, cval);
      }
      continue;
    }
    double v[ORDER + 1][ORDER + 1];
    for (int r = 0; r < last; ++r) {
      const CuprumZoomRow<ORDER, I>& row = rows[r];
      // The same shift for every thread of the block: no divergence.
      if (row.shift == 1 && ORDER > 0)
        cuprum_zoom_refill<ORDER, 1>(v, in, row.off, cidx, cval);
      else if (row.shift != 0 || r == 0)
        cuprum_zoom_refill<ORDER, ORDER + 1>(v, in, row.off, cidx, cval);
      double acc = cval;
      if (row.ok && col.ok) {
        acc = 0.0;
#pragma unroll
        for (int a = 0; a <= ORDER; ++a) {
#pragma unroll
          for (int b = 0; b <= ORDER; ++b) {
            double coeff = v[a][b];
            if (ORDER > 0) coeff = __dmul_rn(__dmul_rn(coeff, row.w[a]), col.w[b]);
            acc = __dadd_rn(acc, coeff);
          }
        }
      }
      out[base + (I)r * (I)m1] = cuprum_interp_store<TO>(acc);
    }
  }
}

template <typename TI, typename TO, int ORDER>
__device__ __forceinline__ void cuprum_ndimage_zoom2(const TI* in, TO* out, const double* params,
                                                     long long n0, long long n1, long long m0,
                                                     long long m1, int mode, double cval,
                                                     long long npad) {
  // Every offset formed below is under n0 * n1 (taps) or m0 * m1
  // (outputs).
  if (n0 * n1 <= 2147483647LL && m0 * m1 <= 2147483647LL)
    cuprum_ndimage_zoom2_tiles<TI, TO, ORDER, int>(in, out, params, n0, n1, m0, m1, mode, cval,
                                                   npad);
  else
    cuprum_ndimage_zoom2_tiles<TI, TO, ORDER, long long>(in, out, params, n0, n1, m0, m1, mode,
                                                         cval, npad);
}

// BOUNDS: the kernel's launch bounds, if any (src/zoom.rs: order 1 asks
// for four blocks of its 256 threads a multiprocessor).
#define CUPRUM_NDIMAGE_ZOOM2(NAME, TI, TO, ORDER, BOUNDS)                                      \
  extern "C" __global__ void BOUNDS NAME(const TI* in, TO* out, const double* params,         \
                                         long long n0, long long n1, long long m0,           \
                                         long long m1, int mode, double cval,                \
                                         long long npad) {                                   \
    cuprum_ndimage_zoom2<TI, TO, ORDER>(in, out, params, n0, n1, m0, m1, mode, cval, npad);   \
  }
