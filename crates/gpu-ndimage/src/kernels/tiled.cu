// gpu-ndimage's tiled kernels (src/tiled.rs launches them): the common
// small windows with their size known when the program is compiled, one
// NVRTC program per (dtypes, op, size), so that every loop over the window
// unrolls and each input value is read from global memory, converted and
// bounds-mapped once per tile rather than once per tap. Needs filters.cu
// (before it in the program) for the conversions and boundary.cuh.
//
// tiled1d: window1d's filters (the same ops, terms in the same order, so
// the same results to the bit) along one axis of an input seen as
// (outer, n, inner). A tile is 32 lines (l = o * inner + j) by TN outputs
// along the axis; its TN + S - 1 inputs per line go to shared memory as
// doubles (through cuprum_ndimage_map where they fall outside the line).
// A thread computes R consecutive outputs of one line from R + S - 1
// values it loads once into registers (the window of output r + 1 shares
// S - 1 of them with output r's).
//
// Two layouts: COLS (inner > 1, an axis that is not the last) puts the
// 32 lines of a tile side by side in shared memory (a warp's lanes are 32
// neighbouring lines, whose elements are neighbours in global memory
// when inner >= 32); ROWS (inner == 1, the last axis) gives each line its
// own row of odd pitch (so that 32 lanes on 32 lines hit 32 banks) and
// stages the outputs in shared memory, so that a warp stores a run of one
// line (coalesced) rather than one element of 32 lines.
//
// Each block walks tiles with a grid stride; two blocks a multiprocessor
// (__launch_bounds__: at most 128 registers a thread) overlap one's loads
// with the other's arithmetic.

#define CUPRUM_TILED_THREADS 256
#define CUPRUM_TILED_LINES 32

// Outputs per thread: 8 while the window is short, 4 for longer ones
// (fewer registers for the window's values).
template <int S>
struct CuprumTiledShape {
  static constexpr int R = S <= 17 ? 8 : 4;
  static constexpr int TN = (CUPRUM_TILED_THREADS / CUPRUM_TILED_LINES) * R;
  static constexpr int A = TN + S - 1;  // inputs per line of a tile
  static constexpr int PITCH = A | 1;   // ROWS: odd, for distinct banks
  static constexpr int FILL = (A * CUPRUM_TILED_LINES + CUPRUM_TILED_THREADS - 1) /
                              CUPRUM_TILED_THREADS;  // inputs a thread loads
};

// The first element of line l of an (outer, n, inner) array.
__device__ __forceinline__ long long cuprum_tiled_line(long long l, long long n,
                                                       long long inner) {
  return inner == 1 ? l * n : (l / inner) * n * inner + l % inner;
}

// cuprum_ndimage_map out of line: only the tiles at a line's ends call
// it, and inlined into each of a thread's loads it would hold registers
// the whole kernel long.
__device__ __noinline__ long long cuprum_tiled_map(long long p, long long n, int mode) {
  return cuprum_ndimage_map(p, n, mode);
}

// A block's grid-stride walk over tiles t = (z ty + ti) tx + tj (t from
// blockIdx.x by gridDim.x): the first tile's coordinates divided out
// once, then stepped by the stride's own (gz, gi, gj) with carries. Each
// thread of a block would otherwise divide t by 64-bit tile counts for
// every tile, which costs more than some tiles' arithmetic.
struct CuprumTileWalk {
  long long tx, ty, gj, gi, gz, tj, ti, z;
  __device__ __forceinline__ CuprumTileWalk(long long tx_, long long ty_) : tx(tx_), ty(ty_) {
    const long long g = gridDim.x, b = blockIdx.x;
    gj = g % tx;
    gi = (g / tx) % ty;
    gz = g / (tx * ty);
    tj = b % tx;
    ti = (b / tx) % ty;
    z = b / (tx * ty);
  }
  __device__ __forceinline__ void next() {
    tj += gj;
    if (tj >= tx) {
      tj -= tx;
      ++ti;
    }
    ti += gi;
    if (ti >= ty) {
      ti -= ty;
      ++z;
    }
    z += gz;
  }
};

// x / S rounded as __ddiv_rn rounds it, for a window S known when the
// program is compiled: the product with y = 1/S (rounded once, by the
// compiler) and two corrections r = x - q S (exact in an fma) back into
// q. After the first, q is within an ulp of x / S, and from such a q the
// second gives the correctly rounded quotient (Markstein's theorem; y is
// 1/S rounded to nearest). Six FP64 operations where the division is a
// reciprocal's refinement of about twice that, twice an output of a
// mean filter. Where the theorem's range conditions could fail (zero, its
// sign; tiny x, whose remainder may not be representable; huge x; inf;
// NaN) the division itself.
template <int S>
__device__ __forceinline__ double cuprum_tiled_div(double x) {
  constexpr double y = 1.0 / (double)S;
  const double ax = fabs(x);
  if (!(ax >= 0x1p-960 && ax <= 0x1p+1000)) return __ddiv_rn(x, (double)S);
  double q = __dmul_rn(x, y);
  double r = __fma_rn(-q, (double)S, x);
  q = __fma_rn(r, y, q);
  r = __fma_rn(-q, (double)S, x);
  return __fma_rn(r, y, q);
}

// One output of the window x[0..S) (x[k] the input at c + k - size1),
// window1d's terms in window1d's order (filters.cu).
template <int OP, int S>
__device__ __forceinline__ double cuprum_tiled_one(const double* x, const double* w) {
  constexpr int size1 = S / 2;
  double acc;
  if constexpr (OP == 1 || OP == 2) {
    acc = __dmul_rn(x[size1], w[size1]);
#pragma unroll
    for (int jj = -size1; jj < 0; ++jj) {
      const double a = x[size1 + jj];
      const double b = x[size1 - jj];
      acc = __dadd_rn(acc, __dmul_rn(OP == 1 ? __dadd_rn(a, b) : __dsub_rn(a, b), w[size1 + jj]));
    }
  } else if constexpr (OP == 3) {
    acc = 0.0;
#pragma unroll
    for (int k = 0; k < S; ++k) acc = __dadd_rn(acc, x[k]);
    acc = cuprum_tiled_div<S>(acc);
  } else if constexpr (OP == 4 || OP == 5) {
    acc = x[0];
#pragma unroll
    for (int k = 1; k < S; ++k) {
      const double v = x[k];
      if (OP == 4 ? v < acc : v > acc) acc = v;
    }
  } else {
    acc = __dmul_rn(x[S - 1], w[S - 1]);
#pragma unroll
    for (int k = 0; k < S - 1; ++k) acc = __dadd_rn(acc, __dmul_rn(x[k], w[k]));
  }
  return acc;
}

template <typename TI, typename TO, int OP, int S, bool ROWS>
__device__ __forceinline__ void cuprum_tiled1d(const TI* __restrict__ in,
                                               const double* __restrict__ w, long long outer,
                                               long long n, long long inner, long long origin,
                                               int mode, double cval, TO* __restrict__ out) {
  using Shape = CuprumTiledShape<S>;
  constexpr int R = Shape::R, TN = Shape::TN, A = Shape::A, PITCH = Shape::PITCH;
  constexpr int FILL = Shape::FILL, L = CUPRUM_TILED_LINES, T = CUPRUM_TILED_THREADS;
  constexpr int size1 = S / 2;
  constexpr bool WEIGHTED = OP <= 2;
  __shared__ double tile[ROWS ? L * PITCH : A * L];
  __shared__ TO staged[ROWS ? L * (TN + 1) : 1];

  // The weights in registers: every index below is a constant.
  double wr[WEIGHTED ? S : 1];
#pragma unroll
  for (int k = 0; k < (WEIGHTED ? S : 1); ++k) wr[k] = WEIGHTED ? w[k] : 0.0;

  const long long lines = outer * inner;
  const long long segs = (n + TN - 1) / TN;
  const long long tiles = ((lines + L - 1) / L) * segs;
  const int tid = threadIdx.x;

  // The inputs of tile `t` this thread loads (element e: a line and a
  // position along it), as read, and whether each reads cval instead.
  TI raw[FILL];
  bool use_cval[FILL];
  auto fetch = [&](long long lt, long long seg) {
    const long long l0 = lt * L;
    const long long p0 = seg * TN - origin - size1;
    // COLS: a thread's loads all lie on line l0 + tid % L (T is a multiple
    // of L), whose start takes the one division.
    const long long col = l0 + tid % L;
    const long long col_base = !ROWS && col < lines ? cuprum_tiled_line(col, n, inner) : 0;
#pragma unroll
    for (int k = 0; k < FILL; ++k) {
      const int e = tid + k * T;
      const int a = ROWS ? e % A : e / L;
      const long long l = ROWS ? l0 + e / A : col;
      raw[k] = TI(0);
      use_cval[k] = false;
      if (e < A * L && l < lines) {
        long long p = p0 + a;
        if (p < 0 || p >= n) p = cuprum_tiled_map(p, n, mode);
        if (p < 0)
          use_cval[k] = true;
        else
          raw[k] = in[(ROWS ? l * n : col_base) + p * inner];
      }
    }
  };

  // Tile t is line tile t / segs, segment t % segs.
  CuprumTileWalk walk(segs, 1);
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x, walk.next()) {
    fetch(walk.z, walk.tj);
    __syncthreads();  // the last tile's readers are done with `tile`
#pragma unroll
    for (int k = 0; k < FILL; ++k) {
      const int e = tid + k * T;
      if (e < A * L) {
        const int a = ROWS ? e % A : e / L;
        const int b = ROWS ? e / A : e % L;
        tile[ROWS ? b * PITCH + a : a * L + b] =
            use_cval[k] ? cval : cuprum_ndimage_to_double(raw[k]);
      }
    }
    __syncthreads();

    // Thread (b, g): outputs g * R .. g * R + R - 1 of the tile's line b.
    const int b = tid % L, g = tid / L;
    const long long l = walk.z * L + b;
    const long long i0 = walk.tj * TN;
    double x[R + S - 1];
#pragma unroll
    for (int k = 0; k < R + S - 1; ++k) {
      const int a = g * R + k;
      x[k] = tile[ROWS ? b * PITCH + a : a * L + b];
    }
    double acc[R];
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r] = cuprum_tiled_one<OP, S>(x + r, wr);

    if constexpr (ROWS) {
#pragma unroll
      for (int r = 0; r < R; ++r)
        staged[b * (TN + 1) + g * R + r] = cuprum_ndimage_from_double<TO>(acc[r]);
      __syncthreads();
      // A warp stores consecutive outputs of one line.
      const long long l0 = walk.z * L;
#pragma unroll
      for (int k = 0; k < (L * TN) / T; ++k) {
        const int e = tid + k * T;
        const int bb = e / TN, m = e % TN;
        if (l0 + bb < lines && i0 + m < n) out[(l0 + bb) * n + i0 + m] = staged[bb * (TN + 1) + m];
      }
    } else {
      if (l < lines) {
        TO* o = out + cuprum_tiled_line(l, n, inner);
#pragma unroll
        for (int r = 0; r < R; ++r) {
          const long long i = i0 + g * R + r;
          if (i < n) o[i * inner] = cuprum_ndimage_from_double<TO>(acc[r]);
        }
      }
    }
  }
}

#define CUPRUM_NDIMAGE_TILED1D(NAME, TI, TO, OP, S, ROWS)                                     \
  extern "C" __global__ void __launch_bounds__(CUPRUM_TILED_THREADS, 2)                      \
      NAME(const TI* in, const double* w, long long outer, long long n, long long inner,     \
           long long origin, int mode, double cval, TO* out) {                               \
    cuprum_tiled1d<TI, TO, OP, S, ROWS>(in, w, outer, n, inner, origin, mode, cval, out);    \
  }

// tiled2d: two tiled1d passes in one launch, for the separable filters
// of an image (gaussian_filter, uniform_filter, sobel, ... of a 2-D array,
// or the last two axes of a deeper one): along axis n0 (window S0, op
// OP0) and then along n1 (S1, OP1) of an input seen as (batch, n0, n1),
// with the first pass's results rounded to TO between them, as SciPy
// stores them in the output array. The input is read from global memory
// once and the output written once, where two launches read and write
// the image twice each; the arithmetic is tiled1d's, term for term.
//
// A tile is TY = 32 rows by TX output columns. Its (TY + S0 - 1) x
// (TX + S1 - 1) inputs go to shared memory as doubles (`in`, rows of 64:
// TX is the largest multiple of 8 with TX + S1 - 1 <= 64). The first pass
// computes the TY x (TX + S1 - 1) intermediate values (`mid`), a thread
// R0 = 8 rows down one column (lanes on neighbouring columns); the second
// the TY x TX outputs, a thread R1 = TX / 8 neighbouring columns of one
// row (lanes on 32 rows, `mid` rows of odd pitch so that they hit 32
// banks), staged in shared memory (over `in`, free by then) so that each
// warp stores runs of one row. The second pass's reads past the image's
// columns take the intermediate of the mapped column, which is the first
// pass over the mapped input column, or cval where mode n1 gives none
// (SciPy's second pass reads cval there, not a filtered cval).
template <int S0, int S1>
struct CuprumTiled2dShape {
  static constexpr int TY = 32, R0 = 8;
  static constexpr int TX = ((65 - S1) / 8) * 8;   // output columns
  static constexpr int R1 = TX / 8;                 // second-pass outputs a thread
  static constexpr int IH = TY + S0 - 1;            // input rows of a tile
  static constexpr int IW = TX + S1 - 1;            // input (and mid) columns, <= 64
  static constexpr int MP = 65;                     // mid's pitch, odd
  static constexpr int SP = TX + 1;                 // staged outputs' pitch
  static constexpr int FILL = (IH * 64 + CUPRUM_TILED_THREADS - 1) /
                              CUPRUM_TILED_THREADS;  // loads a thread
  static_assert(S1 >= 1 && S1 <= 25 && S0 >= 1 && S0 <= 25, "tiled2d windows");
};

// Whether tiled2d issues a tile's loads before the previous tile's passes
// (into registers that then stay live through them) rather than after:
// for inputs of at most 4 bytes and windows whose passes leave those
// registers free at two blocks a multiprocessor (ptxas, sm_90: no spills
// for the weighted sums and the mean up to 5 taps, the minimum and the
// maximum up to 3). On the H100 (34th session,
// bench/gpu/tiled_variants.py at a79b8d5) the 4096^2 float32 uniform_filter(5) went
// from 0.149 to 0.125 ms; the 17-tap Gaussian (92 bytes spilled ahead)
// from 0.172 to 0.202, so longer windows, and 8-byte inputs, load after.
template <typename TI, int OP0, int S0, int OP1, int S1>
struct CuprumTiled2dAhead {
  static constexpr bool value =
      sizeof(TI) <= 4 && S0 <= (OP0 <= 3 ? 5 : 3) && S1 <= (OP1 <= 3 ? 5 : 3);
};

template <typename TI, typename TO, int OP0, int S0, int OP1, int S1>
__device__ __forceinline__ void cuprum_tiled2d(const TI* __restrict__ in,
                                               const double* __restrict__ w0,
                                               const double* __restrict__ w1, long long batch,
                                               long long n0, long long n1, long long origin0,
                                               long long origin1, int mode0, int mode1,
                                               double cval, TO* __restrict__ out) {
  using Shape = CuprumTiled2dShape<S0, S1>;
  constexpr int TY = Shape::TY, TX = Shape::TX, R0 = Shape::R0, R1 = Shape::R1;
  constexpr int IH = Shape::IH, IW = Shape::IW, MP = Shape::MP, SP = Shape::SP;
  constexpr int FILL = Shape::FILL;
  constexpr int T = CUPRUM_TILED_THREADS;
  constexpr bool W0 = OP0 <= 2, W1 = OP1 <= 2;
  static_assert(TY * SP * sizeof(TO) <= IH * 64 * sizeof(double), "staging fits in `in`");
  // Whole rounds of loads: the rows past IH are never read.
  __shared__ double tile[FILL * T];
  __shared__ double mid[TY * MP];
  TO* staged = reinterpret_cast<TO*>(tile);

  double wr0[W0 ? S0 : 1], wr1[W1 ? S1 : 1];
#pragma unroll
  for (int k = 0; k < (W0 ? S0 : 1); ++k) wr0[k] = W0 ? w0[k] : 0.0;
#pragma unroll
  for (int k = 0; k < (W1 ? S1 : 1); ++k) wr1[k] = W1 ? w1[k] : 0.0;

  const long long ty = (n0 + TY - 1) / TY, tx = (n1 + TX - 1) / TX;
  const long long tiles = batch * ty * tx;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;

  TI raw[FILL];
  bool use_cval[FILL];
  CuprumTileWalk walk(tx, ty);
  // A tile's loads into raw / use_cval, for the tile `w` names.
  auto load = [&](const CuprumTileWalk& w) {
    const long long p0 = w.ti * TY - origin0 - S0 / 2, q0 = w.tj * TX - origin1 - S1 / 2;
    const TI* plane = in + w.z * n0 * n1;
    // Every thread loads the same column of FILL rows (e % 64 == tid % 64).
    const int c = tid % 64;
    long long q = q0 + c;
    if (q < 0 || q >= n1) q = c < IW ? cuprum_tiled_map(q, n1, mode1) : 0;
    if (p0 >= 0 && p0 + IH <= n0) {
      // The tile's rows all inside the image (every tile but those of
      // its top and bottom edges): no row is mapped, and a thread's rows,
      // T / 64 apart, are one pointer step apart. (A loop of its own: one
      // loop choosing per load spills the Gaussian's 128 registers.)
      const TI* src = plane + (p0 + tid / 64) * n1 + (q < 0 ? 0 : q);
      const long long step = (long long)(T / 64) * n1;
#pragma unroll
      for (int k = 0; k < FILL; ++k) {
        const int r = (tid + k * T) / 64;
        raw[k] = TI(0);
        use_cval[k] = false;
        if (c < IW && r < IH) {
          if (q < 0)
            use_cval[k] = true;
          else
            raw[k] = src[0];
          // Only ever to a row of the tile: never past the image.
          if (r + T / 64 < IH) src += step;
        }
      }
    } else {
#pragma unroll
      for (int k = 0; k < FILL; ++k) {
        const int r = (tid + k * T) / 64;
        raw[k] = TI(0);
        use_cval[k] = false;
        if (c < IW && r < IH) {
          long long p = p0 + r;
          if (p < 0 || p >= n0) p = cuprum_tiled_map(p, n0, mode0);
          if (p < 0 || q < 0)
            use_cval[k] = true;
          else
            raw[k] = plane[p * n1 + q];
        }
      }
    }
  };
  if (CuprumTiled2dAhead<TI, OP0, S0, OP1, S1>::value && (long long)blockIdx.x < tiles) load(walk);
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
    const long long z = walk.z;
    const long long i0 = walk.ti * TY, j0 = walk.tj * TX;
    const long long q0 = j0 - origin1 - S1 / 2;
    if (!CuprumTiled2dAhead<TI, OP0, S0, OP1, S1>::value) load(walk);
    __syncthreads();  // the last tile's staged outputs are stored
#pragma unroll
    for (int k = 0; k < FILL; ++k)
      tile[tid + k * T] = use_cval[k] ? cval : cuprum_ndimage_to_double(raw[k]);
    __syncthreads();
    if (CuprumTiled2dAhead<TI, OP0, S0, OP1, S1>::value) {
      // The next tile's loads fly during this one's passes.
      walk.next();
      if (t + gridDim.x < tiles) load(walk);
    }

    // First pass: warp w takes columns (w % 2) * 32 + lane, rows
    // (w / 2) * R0 .. + R0 - 1 of mid.
    {
      const int mc = (warp % 2) * 32 + lane, g = warp / 2;
      if (mc < IW) {
        double x[R0 + S0 - 1];
#pragma unroll
        for (int k = 0; k < R0 + S0 - 1; ++k) x[k] = tile[(g * R0 + k) * 64 + mc];
        // Where mode1 maps this column outside the image, the second pass
        // reads cval itself.
        long long qq = q0 + mc;
        const bool outside = (qq < 0 || qq >= n1) && cuprum_tiled_map(qq, n1, mode1) < 0;
#pragma unroll
        for (int r = 0; r < R0; ++r) {
          const double v = cuprum_tiled_one<OP0, S0>(x + r, wr0);
          mid[(g * R0 + r) * MP + mc] =
              outside ? cval : cuprum_ndimage_to_double(cuprum_ndimage_from_double<TO>(v));
        }
      }
    }
    __syncthreads();

    // Second pass: lane b is row b, warp w outputs w * R1 .. + R1 - 1.
    {
      double x[R1 + S1 - 1];
#pragma unroll
      for (int k = 0; k < R1 + S1 - 1; ++k) x[k] = mid[lane * MP + warp * R1 + k];
#pragma unroll
      for (int r = 0; r < R1; ++r)
        staged[lane * SP + warp * R1 + r] =
            cuprum_ndimage_from_double<TO>(cuprum_tiled_one<OP1, S1>(x + r, wr1));
    }
    __syncthreads();
    TO* o = out + z * n0 * n1;
#pragma unroll
    for (int k = 0; k < TY * TX / T; ++k) {
      const int e = tid + k * T;
      const long long i = i0 + e / TX, j = j0 + e % TX;
      if (i < n0 && j < n1) o[i * n1 + j] = staged[e / TX * SP + e % TX];
    }
    if (!CuprumTiled2dAhead<TI, OP0, S0, OP1, S1>::value) walk.next();
  }
}

#define CUPRUM_NDIMAGE_TILED2D(NAME, TI, TO, OP0, S0, OP1, S1)                                \
  extern "C" __global__ void __launch_bounds__(CUPRUM_TILED_THREADS, 2)                       \
      NAME(const TI* in, const double* w0, const double* w1, long long batch, long long n0,   \
           long long n1, long long origin0, long long origin1, int mode0, int mode1,          \
           double cval, TO* out) {                                                            \
    cuprum_tiled2d<TI, TO, OP0, S0, OP1, S1>(in, w0, w1, batch, n0, n1, origin0, origin1,     \
                                             mode0, mode1, cval, out);                        \
  }

// median3x3: the median (rank 4) of a 3 x 3 box, windownd's rank filter
// for the filter users call most, over an input seen as (batch, n0, n1)
// with the box on the last two axes: output (z, i, j) takes the nine
// values at rows i + a0 .. i + a0 + 2 and columns j + b0 .. j + b0 + 2
// (the origin already in a0, b0), through cuprum_ndimage_map on each axis
// (cval as soon as one maps outside). A tile is TY rows by 32 columns of
// outputs; its (TY + 2) x 34 inputs go to shared memory once, in the
// comparison type C (the input's own, or double for 64-bit integers, as
// windownd compares them; float as CuprumMedianOrder's integer keys,
// below). A thread walks R rows down one column: each
// row of three values is sorted once (lo <= mid <= hi) and serves three
// outputs, whose median is med3(max of the three lows, med3 of the mids,
// min of the highs) (sort the rows of a 3 x 3 array, then its columns:
// the median is the middle of the anti-diagonal). Values compare as
// cuprum_ndimage_less does (NaN after every number), so the result is
// the value windownd's selection gives (up to the sign of equal zeros,
// and for float of a NaN).
template <typename T>
struct CuprumTiledCompare {
  using type = T;
  static constexpr bool same = true;  // type is T
};
template <>
struct CuprumTiledCompare<long long> {
  using type = double;
  static constexpr bool same = false;
};
template <>
struct CuprumTiledCompare<unsigned long long> {
  using type = double;
  static constexpr bool same = false;
};

// How median3x3 orders the values it holds (type K): `lo`/`hi` of a pair
// are cuprum_ndimage_cx's two results, `up(l, x)` is x where l < x (else
// l), `down(h, x)` is x where x < h (else h), all in cuprum_ndimage_less's
// order, for the comparison type C itself.
template <typename C>
struct CuprumMedianOrder {
  using K = C;
  static __device__ __forceinline__ K key(C v) { return v; }
  static __device__ __forceinline__ C value(K k) { return k; }
  static __device__ __forceinline__ K lo(K a, K b) { return cuprum_ndimage_less(b, a) ? b : a; }
  static __device__ __forceinline__ K hi(K a, K b) { return cuprum_ndimage_less(b, a) ? a : b; }
  static __device__ __forceinline__ K up(K l, K x) { return cuprum_ndimage_less(l, x) ? x : l; }
  static __device__ __forceinline__ K down(K h, K x) { return cuprum_ndimage_less(x, h) ? x : h; }
};

// float: each value as an unsigned key whose integer order is the
// floats' (negative floats' bits inverted, positive ones' sign bit set),
// every NaN made positive first so that it sorts after +inf as
// cuprum_ndimage_less puts it. A compare-exchange is then an unsigned min
// and max (two instructions) where the float compare with its NaN tests
// takes about six, and the box's medians are selected in the keys. The
// key order differs from cuprum_ndimage_less's only where that one has
// ties between different bits (-0 below +0, NaNs by payload), so the
// median's value is the same, up to the sign of a zero or a NaN's
// (the NaN comes out positive).
template <>
struct CuprumMedianOrder<float> {
  using K = unsigned int;
  static __device__ __forceinline__ K key(float v) {
    unsigned int u = __float_as_uint(v);
    if ((u & 0x7fffffffu) > 0x7f800000u) u &= 0x7fffffffu;
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
  }
  static __device__ __forceinline__ float value(K k) {
    return __uint_as_float((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k);
  }
  static __device__ __forceinline__ K lo(K a, K b) { return min(a, b); }
  static __device__ __forceinline__ K hi(K a, K b) { return max(a, b); }
  static __device__ __forceinline__ K up(K l, K x) { return max(l, x); }
  static __device__ __forceinline__ K down(K h, K x) { return min(h, x); }
};

template <typename O, typename K>
__device__ __forceinline__ void cuprum_tiled_cx(K& a, K& b) {
  const K l = O::lo(a, b), h = O::hi(a, b);
  a = l;
  b = h;
}

template <typename O, typename K>
__device__ __forceinline__ K cuprum_tiled_med3(K a, K b, K c) {
  cuprum_tiled_cx<O>(a, b);
  cuprum_tiled_cx<O>(b, c);
  cuprum_tiled_cx<O>(a, b);
  return b;
}

// A tile's inputs reach shared memory by cp.async (sm_80 and up): the
// next tile's copies are issued before this tile's compute and land while
// it runs, holding no registers; the block waits for them only at the
// next tile. Types cp.async cannot copy as they are (1 or 2 bytes, or
// 64-bit integers compared as double) are loaded and converted here, and
// wait then.
template <typename TI, typename C>
__device__ __forceinline__ void cuprum_tiled_copy_async(C* smem, const TI* gmem) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (CuprumTiledCompare<TI>::same && (sizeof(TI) == 4 || sizeof(TI) == 8)) {
    const unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(s), "l"(gmem), "n"(sizeof(TI))
                 : "memory");
    return;
  }
#endif
  *smem = (C)*gmem;
}
// The copies issued since the last commit as one group; waiting for every
// group (no-ops without cp.async).
__device__ __forceinline__ void cuprum_tiled_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void cuprum_tiled_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
#endif
}

template <typename TI, typename TO>
__device__ __forceinline__ void cuprum_tiled_median3x3(const TI* __restrict__ in, long long batch,
                                                       long long n0, long long n1, long long a0,
                                                       long long b0, int mode, double cval,
                                                       TO* __restrict__ out) {
  using C = typename CuprumTiledCompare<TI>::type;
  using O = CuprumMedianOrder<C>;
  using K = typename O::K;
  constexpr int R = 8, W = 32, TY = (CUPRUM_TILED_THREADS / W) * R;
  constexpr int PITCH = W + 2, ROWS = TY + 2;
  constexpr int T = CUPRUM_TILED_THREADS;
  // A tile at the image's edges: element e of the box's rows is thread
  // e % T's copy k = e / T, mapped through the boundary mode.
  constexpr int FILL = (ROWS * PITCH + T - 1) / T;
  // Every other tile (its box wholly inside the image) maps nothing:
  // thread tid copies column tid % PITCH of rows tid / PITCH + k RS, RS
  // rows a round, one pointer step a copy (threads past RS PITCH idle).
  constexpr int RS = T / PITCH, ROUNDS = (ROWS + RS - 1) / RS;
  // `raw` receives a tile's inputs (in C) while `tile`, its keys, serves
  // the previous tile's compute.
  __shared__ C raw[ROWS * PITCH];
  __shared__ K tile[ROWS * PITCH];
  const int tid = threadIdx.x;
  const int col = tid % PITCH, r0 = tid / PITCH;
  const long long ty = (n0 + TY - 1) / TY, tx = (n1 + W - 1) / W;
  const long long tiles = batch * ty * tx;
  CuprumTileWalk walk(tx, ty);
  // The copies of the tile `w` names into `raw`, committed as one group.
  auto issue = [&](const CuprumTileWalk& w) {
    const TI* plane = in + w.z * n0 * n1;
    const long long p0 = w.ti * TY + a0, q0 = w.tj * W + b0;
    if (p0 >= 0 && p0 + ROWS <= n0 && q0 >= 0 && q0 + PITCH <= n1) {
      if (r0 < RS) {
        const TI* src = plane + (p0 + r0) * n1 + q0 + col;
        const long long step = (long long)RS * n1;
#pragma unroll
        for (int k = 0; k < ROUNDS; ++k) {
          if (r0 + k * RS < ROWS) {
            cuprum_tiled_copy_async(raw + (r0 + k * RS) * PITCH + col, src);
            // Only ever to a row of the box: never past the image.
            if (r0 + (k + 1) * RS < ROWS) src += step;
          }
        }
      }
    } else {
#pragma unroll
      for (int k = 0; k < FILL; ++k) {
        const int e = tid + k * T;
        if (e < ROWS * PITCH) {
          long long p = p0 + e / PITCH, q = q0 + e % PITCH;
          if (p < 0 || p >= n0) p = cuprum_tiled_map(p, n0, mode);
          if (q < 0 || q >= n1) q = cuprum_tiled_map(q, n1, mode);
          raw[e] = p < 0 || q < 0 ? (C)cval : (C)plane[p * n1 + q];
        }
      }
    }
    cuprum_tiled_async_commit();
  };
  if ((long long)blockIdx.x < tiles) issue(walk);
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
    const long long z = walk.z;
    const long long i0 = walk.ti * TY, j0 = walk.tj * W;
    cuprum_tiled_async_wait();
    __syncthreads();  // `raw` complete; the last tile's readers are done with `tile`
#pragma unroll
    for (int k = 0; k < FILL; ++k) {
      const int e = tid + k * T;
      if (e < ROWS * PITCH) tile[e] = O::key(raw[e]);
    }
    __syncthreads();  // `raw` free for the next tile's copies
    walk.next();
    if (t + gridDim.x < tiles) issue(walk);
    const int lane = tid % W, g = tid / W;
    // Each window row sorted: lo[r] <= mid[r] <= hi[r].
    K lo[R + 2], mid[R + 2], hi[R + 2];
#pragma unroll
    for (int r = 0; r < R + 2; ++r) {
      const K* row = tile + (g * R + r) * PITCH + lane;
      K a = row[0], b = row[1], c = row[2];
      cuprum_tiled_cx<O>(a, b);
      cuprum_tiled_cx<O>(b, c);
      cuprum_tiled_cx<O>(a, b);
      lo[r] = a;
      mid[r] = b;
      hi[r] = c;
    }
    const long long j = j0 + lane;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const K l = O::up(O::up(lo[r], lo[r + 1]), lo[r + 2]);
      const K h = O::down(O::down(hi[r], hi[r + 1]), hi[r + 2]);
      const K m = cuprum_tiled_med3<O>(l, cuprum_tiled_med3<O>(mid[r], mid[r + 1], mid[r + 2]), h);
      const long long i = i0 + g * R + r;
      if (i < n0 && j < n1)
        out[(z * n0 + i) * n1 + j] = cuprum_ndimage_from_double<TO>((double)O::value(m));
    }
  }
}

// BOUNDS: the kernel's __launch_bounds__ (tiled.rs, median3x3_request).
#define CUPRUM_NDIMAGE_MEDIAN3X3(NAME, TI, TO, BOUNDS)                                        \
  extern "C" __global__ void BOUNDS                                                          \
      NAME(const TI* in, long long batch, long long n0, long long n1, long long a0,          \
           long long b0, int mode, double cval, TO* out) {                                   \
    cuprum_tiled_median3x3<TI, TO>(in, batch, n0, n1, a0, b0, mode, cval, out);              \
  }
