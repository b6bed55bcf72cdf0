// gpu-ndimage's distance transforms (src/distance/ drives them).
//
// Euclidean (edt_*): the feature transform of Maurer, Qi and Raghavan
// (2003) as SciPy runs it (ni_morphology.c, _VoronoiFT): one pass an axis,
// axis 0 first, each line of the axis by one thread. A pass reads the
// features of the previous one (`fin`) and writes new ones (`fout`), so a
// line's lower envelope is built from values no other thread changes; the
// stack of the envelope (`g`, indices along the line) lives in global
// memory at the line's own positions. The arithmetic is SciPy's, term for
// term, in double with __dmul_rn/__dadd_rn/__dsub_rn so that no fused
// multiply-add changes a rounding: the same ties go the same way, and the
// features are SciPy's to the element, sampling or not.
//
// Features are int32 coordinates, `ndim` planes of `n` elements
// (`ft[k * n + i]`, SciPy's `(ndim, *shape)` layout); an element without
// a feature yet has -1 in plane 0. Every linear index is 64-bit.
//
// Chamfer (cdt_*): SciPy's two raster scans, as fixed points. Its forward
// scan gives each element the best of its neighbours earlier in C order
// (the first half of the structure), the backward scan the best of the
// mirrored neighbours, starting from the forward result; each scan is the
// unique solution of a recurrence over a DAG, so a relaxation that
// re-evaluates every element until nothing changes reaches exactly the
// scan's values, and the scan's tie rule (the first neighbour in the
// structure's order with a strictly smaller distance) picks the same
// feature. Elements are updated in place: a neighbour read while its owner
// writes may give an old value, but a sweep in which no element changed
// read only settled values, so it certifies the fixed point.

#define CUPRUM_DIST_MAXDIM 16

// C-order coordinates of linear index `i` in `geom`.
__device__ __forceinline__ void cuprum_dist_unravel(long long i, const long long* geom, int ndim,
                                                    long long* c) {
  for (int k = ndim - 1; k >= 0; --k) {
    c[k] = i % geom[k];
    i /= geom[k];
  }
}

// Plane 0 of the features: -1 for the foreground (nonzero input), else the
// element's coordinate; the other planes 0 for the foreground (SciPy's
// zero-filled array), else the coordinates.
extern "C" __global__ void cuprum_edt_init(const bool* input, long long n, const long long* geom,
                                           int ndim, int* ft) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    long long c[CUPRUM_DIST_MAXDIM];
    cuprum_dist_unravel(i, geom, ndim, c);
    const bool fg = input[i];
    for (int k = 0; k < ndim; ++k) {
      ft[(long long)k * n + i] = fg ? (k == 0 ? -1 : 0) : (int)c[k];
    }
  }
}

// One line's feature component `k` at position `ii` of the line.
#define CUPRUM_EDT_F(buf, ii, k) \
  ((double)(buf)[(long long)(k) * n + base + (long long)(ii) * inner])

// The pass along axis `d`: `lines` = n / geom[d] lines, `inner` the
// product of the later axes. `sampling` is null (unit spacing) or holds
// `ndim` values.
extern "C" __global__ void cuprum_edt_pass(const int* fin, int* fout, int* g, long long n,
                                           const long long* geom, int ndim, int d,
                                           long long lines, long long inner,
                                           const double* sampling) {
  const long long len = geom[d];
  for (long long line = (long long)blockIdx.x * blockDim.x + threadIdx.x; line < lines;
       line += (long long)gridDim.x * blockDim.x) {
    const long long base = (line / inner) * len * inner + line % inner;
    long long coor[CUPRUM_DIST_MAXDIM];
    cuprum_dist_unravel(base, geom, ndim, coor);
    int* gl = g + base;  // the stack: entry t at gl[t * inner]
    long long l = -1;
    for (long long ii = 0; ii < len; ++ii) {
      if (fin[base + ii * inner] < 0) continue;  // no feature yet
      const double fd = CUPRUM_EDT_F(fin, ii, d);
      double wR = 0.0;
      for (int jj = 0; jj < ndim; ++jj) {
        if (jj == d) continue;
        double tw = CUPRUM_EDT_F(fin, ii, jj) - (double)coor[jj];
        if (sampling) tw = __dmul_rn(tw, sampling[jj]);
        wR = __dadd_rn(wR, __dmul_rn(tw, tw));
      }
      while (l >= 1) {
        const long long idx1 = gl[l * inner];
        const long long idx2 = gl[(l - 1) * inner];
        const double f1 = CUPRUM_EDT_F(fin, idx1, d);
        double a = __dsub_rn(f1, CUPRUM_EDT_F(fin, idx2, d));
        double b = __dsub_rn(fd, f1);
        if (sampling) {
          a = __dmul_rn(a, sampling[d]);
          b = __dmul_rn(b, sampling[d]);
        }
        const double c = __dadd_rn(a, b);
        double uR = 0.0, vR = 0.0;
        for (int jj = 0; jj < ndim; ++jj) {
          if (jj == d) continue;
          const double cc = (double)coor[jj];
          double tu = __dsub_rn(CUPRUM_EDT_F(fin, idx2, jj), cc);
          double tv = __dsub_rn(CUPRUM_EDT_F(fin, idx1, jj), cc);
          if (sampling) {
            tu = __dmul_rn(tu, sampling[jj]);
            tv = __dmul_rn(tv, sampling[jj]);
          }
          uR = __dadd_rn(uR, __dmul_rn(tu, tu));
          vR = __dadd_rn(vR, __dmul_rn(tv, tv));
        }
        // SciPy's c * vR - b * uR - a * wR - a * b * c, left to right.
        double e = __dsub_rn(__dmul_rn(c, vR), __dmul_rn(b, uR));
        e = __dsub_rn(e, __dmul_rn(a, wR));
        e = __dsub_rn(e, __dmul_rn(__dmul_rn(a, b), c));
        if (e <= 0.0) break;
        --l;
      }
      ++l;
      gl[l * inner] = (int)ii;
    }
    const long long maxl = l;
    if (maxl < 0) {
      // No feature on the line: SciPy leaves it as it was.
      for (long long ii = 0; ii < len; ++ii) {
        for (int k = 0; k < ndim; ++k) {
          const long long p = (long long)k * n + base + ii * inner;
          fout[p] = fin[p];
        }
      }
      continue;
    }
    l = 0;
    for (long long ii = 0; ii < len; ++ii) {
      double delta1 = 0.0;
      for (int jj = 0; jj < ndim; ++jj) {
        const long long at = jj == d ? ii : coor[jj];
        double t = (double)(fin[(long long)jj * n + base + (long long)gl[l * inner] * inner] - at);
        if (sampling) t = __dmul_rn(t, sampling[jj]);
        delta1 = __dadd_rn(delta1, __dmul_rn(t, t));
      }
      while (l < maxl) {
        double delta2 = 0.0;
        for (int jj = 0; jj < ndim; ++jj) {
          const long long at = jj == d ? ii : coor[jj];
          double t = (double)(fin[(long long)jj * n + base +
                                  (long long)gl[(l + 1) * inner] * inner] -
                              at);
          if (sampling) t = __dmul_rn(t, sampling[jj]);
          delta2 = __dadd_rn(delta2, __dmul_rn(t, t));
        }
        if (delta1 <= delta2) break;
        delta1 = delta2;
        ++l;
      }
      const long long src = base + (long long)gl[l * inner] * inner;
      for (int k = 0; k < ndim; ++k) {
        fout[(long long)k * n + base + ii * inner] = fin[(long long)k * n + src];
      }
    }
  }
}

// The distances from the features, as SciPy's NumPy code forms them:
// each plane's difference (int32) in double, times the sampling, squared,
// the planes summed in order, then the square root.
extern "C" __global__ void cuprum_edt_distances(const int* ft, long long n, const long long* geom,
                                                int ndim, const double* sampling, double* out) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    long long c[CUPRUM_DIST_MAXDIM];
    cuprum_dist_unravel(i, geom, ndim, c);
    double acc = 0.0;
    for (int k = 0; k < ndim; ++k) {
      double t = (double)(ft[(long long)k * n + i] - (int)c[k]);
      if (sampling) t = __dmul_rn(t, sampling[k]);
      const double sq = __dmul_rn(t, t);
      acc = k == 0 ? sq : __dadd_rn(acc, sq);
    }
    out[i] = sqrt(acc);
  }
}

// The exact path (edt_first, edt_exact): without sampling, and while
// every squared distance fits in an int32, SciPy's double arithmetic above
// is exact, and the features a pass gives are "the site nearest to the
// position, the lowest on ties": along the line, site s at squared
// distance w[s] across it is at w[s] + (x - s)^2 from position x, and the
// stack's pops and walks pick the lowest minimizer. (The host models in
// src/distance/model.rs check that on thousands of inputs.) Both kernels
// compute that directly, in parallel.
//
// edt_first: the pass along axis 0 straight from the mask. The first pass
// sees each zero's own coordinates, so every site weighs 0 and a
// position's feature is the nearest zero of its column, the upper one on
// ties. A block takes 32 columns (threadIdx.x: coalesced rows) and cuts
// them into CUPRUM_EDT_CHUNKS chunks of rows (threadIdx.y). A chunk learns
// the nearest zeros above and below it from the others' first and last,
// then settles its rows in one sweep: each run of foreground rows when the
// zero ending it is found, the last run with the zero below the chunk.
// Features are written as the passes write them (plane 0 the row or -1,
// plane k the position's coordinate k, or 0 without a zero); `dist`, when
// not null (1-D input: the only pass), gets the distances as
// cuprum_edt_distances forms them.
#define CUPRUM_EDT_CHUNKS 32

__device__ __forceinline__ void cuprum_edt_first_put(int* ft, double* dist, long long n,
                                                     int ndim, long long i, long long t,
                                                     long long site, const long long* c) {
  if (ft) {
    ft[i] = site >= 0 ? (int)site : -1;
    for (int k = 1; k < ndim; ++k) ft[(long long)k * n + i] = site >= 0 ? (int)c[k] : 0;
  }
  if (dist) {
    const double t0 = (double)((site >= 0 ? site : -1) - t);
    double acc = t0 * t0;
    for (int k = 1; k < ndim; ++k) {
      const double tk = site >= 0 ? 0.0 : (double)(-c[k]);
      acc = __dadd_rn(acc, __dmul_rn(tk, tk));
    }
    dist[i] = sqrt(acc);
  }
}

extern "C" __global__ void __launch_bounds__(1024) cuprum_edt_first(const bool* mask, int* ft, double* dist, long long n,
                                            const long long* geom, int ndim) {
  __shared__ int first_zero[CUPRUM_EDT_CHUNKS][32];
  __shared__ int last_zero[CUPRUM_EDT_CHUNKS][32];
  const long long len = geom[0];
  const long long inner = n / len;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const long long chunk = (len + CUPRUM_EDT_CHUNKS - 1) / CUPRUM_EDT_CHUNKS;
  const long long s = min(len, (long long)ty * chunk);
  const long long e = min(len, s + chunk);
  for (long long q0 = (long long)blockIdx.x * 32; q0 < inner; q0 += (long long)gridDim.x * 32) {
    const long long q = q0 + tx;
    const bool live = q < inner;
    int fz = -1, lz = -1;
    if (live) {
      for (long long r = s; r < e; ++r) {
        if (!mask[r * inner + q]) {
          if (fz < 0) fz = (int)r;
          lz = (int)r;
        }
      }
    }
    first_zero[ty][tx] = fz;
    last_zero[ty][tx] = lz;
    __syncthreads();
    long long up = -1, down = -1;
    for (int y = ty - 1; y >= 0 && up < 0; --y) up = last_zero[y][tx];
    for (int y = ty + 1; y < CUPRUM_EDT_CHUNKS && down < 0; ++y) down = first_zero[y][tx];
    __syncthreads();  // the tables are rewritten for the next columns
    if (!live) continue;
    // c[k], k >= 1: the column's coordinates (c[0] unused).
    long long c[CUPRUM_DIST_MAXDIM];
    long long rest = q;
    for (int k = ndim - 1; k >= 1; --k) {
      c[k] = rest % geom[k];
      rest /= geom[k];
    }
    long long pending = s;
    for (long long r = s; r <= e; ++r) {
      const bool zero = r < e && !mask[r * inner + q];
      if (!zero && r < e) continue;
      // Rows pending..r-1 lie between the zero `up` and the next one.
      const long long next = r < e ? r : down;
      for (long long t = pending; t < r; ++t) {
        long long site = up < 0 ? next : (next < 0 || t - up <= next - t ? up : next);
        cuprum_edt_first_put(ft, dist, n, ndim, t * inner + q, t, site, c);
      }
      if (r < e) {
        cuprum_edt_first_put(ft, dist, n, ndim, r * inner + q, r, r, c);
        up = r;
        pending = r + 1;
      }
    }
  }
}

// edt_exact: the pass along axis d >= 1 (any stride), one warp a line.
// The lanes load the line's sites' weights w[x] (-1: no site) into shared
// memory; position 0's feature is searched over every site, then level by
// level the positions halfway between those already settled (x = S, 3S,
// 5S, ... for S = P/2, P/4, ..., 1), each only between its neighbours'
// features, since the feature never moves back as x grows. A level's
// positions take 32/m lanes each while there are fewer than 32 (the lanes
// split the range and reduce, lowest site on ties), one lane each after.
// Work per line: O(len log len) at worst, about 2 len steps on random
// input. Shared memory: `len` ints of weights, then `len` of features.
// `fout` null: the features are not written (the last pass without
// return_indices); `dist` not null: the distances, w[s] + (x - s)^2 being
// exactly the squared distance.
#define CUPRUM_EDT_BATCH 8

extern "C" __global__ void cuprum_edt_exact(const int* fin, int* fout, double* dist, long long n,
                                            const long long* geom, int ndim, int d,
                                            long long lines, long long inner) {
  extern __shared__ int cuprum_edt_line[];
  const int len = (int)geom[d];
  int* w = cuprum_edt_line;
  int* feat = cuprum_edt_line + len;
  const int lane = threadIdx.x;
  const unsigned all = 0xffffffffu;
  int top = 1;
  while (top < len) top <<= 1;
  for (long long line = blockIdx.x; line < lines; line += gridDim.x) {
    __syncwarp();  // the previous line's reads of w and feat are done
    const long long base = (line / inner) * len * inner + line % inner;
    long long coor[CUPRUM_DIST_MAXDIM];
    cuprum_dist_unravel(base, geom, ndim, coor);
    int lo = 0x7fffffff, hi = -1;
    // Plane 0 (the site test, and the only other plane of a 2-D pass) in
    // batches of CUPRUM_EDT_BATCH loads issued before the first is used.
    for (int x0 = lane; x0 < len; x0 += 32 * CUPRUM_EDT_BATCH) {
      int f0[CUPRUM_EDT_BATCH];
#pragma unroll
      for (int u = 0; u < CUPRUM_EDT_BATCH; ++u) {
        const int x = x0 + 32 * u;
        f0[u] = x < len ? fin[base + (long long)x * inner] : -1;
      }
#pragma unroll
      for (int u = 0; u < CUPRUM_EDT_BATCH; ++u) {
        const int x = x0 + 32 * u;
        if (x >= len) break;
        int wx = -1;
        if (f0[u] >= 0) {
          const long long p = base + (long long)x * inner;
          const int t0 = f0[u] - (int)coor[0];
          int acc = d == 0 ? 0 : t0 * t0;
          for (int k = 1; k < ndim; ++k) {
            if (k == d) continue;
            const int t = fin[(long long)k * n + p] - (int)coor[k];
            acc += t * t;
          }
          wx = acc;
          lo = min(lo, x);
          hi = max(hi, x);
        }
        w[x] = wx;
      }
    }
    for (int o = 16; o >= 1; o >>= 1) {
      lo = min(lo, __shfl_xor_sync(all, lo, o));
      hi = max(hi, __shfl_xor_sync(all, hi, o));
    }
    __syncwarp();
    if (hi < 0) {
      // No site on the line: SciPy leaves it as it was.
      for (int x = lane; x < len; x += 32) {
        const long long p = base + (long long)x * inner;
        double acc = 0.0;
        for (int k = 0; k < ndim; ++k) {
          const int v = fin[(long long)k * n + p];
          if (fout) fout[(long long)k * n + p] = v;
          const double t = (double)(v - (k == d ? (long long)x : coor[k]));
          acc = k == 0 ? __dmul_rn(t, t) : __dadd_rn(acc, __dmul_rn(t, t));
        }
        if (dist) dist[p] = sqrt(acc);
      }
      continue;
    }
    for (int S = top; S >= 1; S >>= 1) {
      const bool first = S == top;
      const int m = first ? 1 : (len - 1 >= S ? (len - 1 - S) / (2 * S) + 1 : 0);
      if (m == 0) continue;
      int g = 32;  // lanes a position
      while (g > 1 && 32 / g < m) g >>= 1;
      const int per = 32 / g;
      const int sub = lane & (g - 1);
      for (int b = 0; b * per < m; ++b) {
        const int j = b * per + lane / g;
        int best = 0x7fffffff, bs = 0x7fffffff, x = 0;
        if (j < m) {
          x = first ? 0 : (2 * j + 1) * S;
          const int from = first ? lo : feat[x - S];
          const int to = first ? hi : (x + S < len ? feat[x + S] : hi);
          for (int s = from + sub; s <= to; s += g) {
            const int ws = w[s];
            if (ws >= 0) {
              const int t = x - s;
              const int v = ws + t * t;
              if (v < best) {
                best = v;
                bs = s;
              }
            }
          }
        }
        for (int o = g >> 1; o >= 1; o >>= 1) {
          const int ob = __shfl_xor_sync(all, best, o);
          const int os = __shfl_xor_sync(all, bs, o);
          if (ob < best || (ob == best && os < bs)) {
            best = ob;
            bs = os;
          }
        }
        if (j < m && sub == 0) feat[x] = bs;
      }
      __syncwarp();
    }
    for (int x = lane; x < len; x += 32) {
      const int s = feat[x];
      const long long p = base + (long long)x * inner;
      if (fout) {
        const long long src = base + (long long)s * inner;
        for (int k = 0; k < ndim; ++k) fout[(long long)k * n + p] = fin[(long long)k * n + src];
      }
      if (dist) {
        const int t = x - s;
        dist[p] = sqrt((double)(w[s] + t * t));
      }
    }
  }
}

// The chamfer's start: distance 0 for the background, -1 (not reached)
// for the foreground; each element its own feature (a linear index) when
// `f` is not null.
extern "C" __global__ void cuprum_cdt_init(const bool* input, long long n, int* dist,
                                           long long* f) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    dist[i] = input[i] ? -1 : 0;
    if (f) f[i] = i;
  }
}

// One sweep of a scan. Neighbour t of element i is at coordinates
// c + sign * offs[t] (offsets of the structure's first half, in its C
// order; sign -1 for the backward scan), linear index i + sign * lin[t].
// Each element starts from (init_d, init_f), or for the forward scan
// (null init_d) from -1 and itself; the background (start 0) never
// changes. `changed[slot]` is set to 1 when any element changed.
extern "C" __global__ void cuprum_cdt_sweep(const int* init_d, const long long* init_f,
                                            int* dist, long long* f, long long n,
                                            const long long* geom, int ndim,
                                            const long long* offs, const long long* lin,
                                            int noffs, int sign, int* changed, int slot) {
  const volatile int* vd = dist;
  const volatile long long* vf = f;
  bool any = false;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    const int start = init_d ? init_d[i] : (vd[i] == 0 ? 0 : -1);
    if (start == 0) continue;
    long long c[CUPRUM_DIST_MAXDIM];
    cuprum_dist_unravel(i, geom, ndim, c);
    long long best = start;
    long long feat = f ? (init_d ? init_f[i] : i) : 0;
    for (int t = 0; t < noffs; ++t) {
      bool inside = true;
      for (int k = 0; k < ndim; ++k) {
        const long long v = c[k] + sign * offs[(long long)t * ndim + k];
        if (v < 0 || v >= geom[k]) {
          inside = false;
          break;
        }
      }
      if (!inside) continue;
      const long long q = i + sign * lin[t];
      const long long tt = vd[q];
      if (tt >= 0 && (best < 0 || tt + 1 < best)) {
        best = tt + 1;
        if (f) feat = vf[q];
      }
    }
    // Distances are path lengths, below n; past 2^31 - 1 they saturate.
    const int nd = best > 2147483647LL ? 2147483647 : (int)best;
    if (nd != vd[i] || (f && feat != vf[i])) {
      dist[i] = nd;
      if (f) f[i] = feat;
      any = true;
    }
  }
  if (any) changed[slot] = 1;
}

// The features' coordinates: plane k of `out` (int32) holds coordinate k
// of the linear index `f[i]`.
extern "C" __global__ void cuprum_cdt_indices(const long long* f, long long n,
                                              const long long* geom, int ndim, int* out) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    long long c[CUPRUM_DIST_MAXDIM];
    cuprum_dist_unravel(f[i], geom, ndim, c);
    for (int k = 0; k < ndim; ++k) out[(long long)k * n + i] = (int)c[k];
  }
}
