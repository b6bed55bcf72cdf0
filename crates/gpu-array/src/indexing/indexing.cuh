// The indexing routines' device functions. Out-of-bounds indices follow
// CuPy (they wrap, negative ones counting from the end) unless a mode
// says otherwise. Every indexing kernel includes this file, the scatters
// with the atomics of scatter.cu: the guard keeps one definition in a
// program that holds both.
#ifndef CUPRUM_NP_INDEXING_CUH
#define CUPRUM_NP_INDEXING_CUH
namespace cuprum_np {
// k wrapped into 0..n.
__device__ __forceinline__ long long wrap_index(long long k, long long n) {
  if (k < 0 || k >= n) { k %= n; if (k < 0) k += n; }
  return k;
}

// take's and put's index: clamped into 0..n with clip, else wrapped.
__device__ __forceinline__ long long take_index(long long k, long long n, int clip) {
  if (clip) { k = k < 0 ? 0 : (k >= n ? n - 1 : k); }
  else { k = wrap_index(k, n); }
  return k;
}

// k in 0..n by NumPy's clip modes: 0 raise (sets bad[0] and takes 0),
// 1 wrap, 2 clip (choose, ravel_multi_index).
template <class B>
__device__ __forceinline__ long long mode_index(long long k, long long n, long long mode,
                                                const B& bad) {
  if (k < 0 || k >= n) {
    if (mode == 0) { bad[0] = 1; k = 0; }
    else if (mode == 1) { k %= n; if (k < 0) k += n; }
    else { k = k < 0 ? 0 : n - 1; }
  }
  return k;
}

// The C-order position in [outer, cdim, rdim] of element i of [outer,
// isz, rdim] indexed along its middle axis by ind (take along an axis,
// the scatters).
template <class I>
__device__ __forceinline__ long long axis_position(const I& ind, long long i, long long cdim,
                                                   long long rdim, long long isz, int clip) {
  const long long r = i % rdim, t = i / rdim;
  const long long j = t % isz, l = t / isz;
  const long long k = take_index((long long)ind[j], cdim, clip);
  return (l * cdim + k) * rdim + r;
}

// take_along_axis: the C-order position in [outer, adim, rdim] of element
// i of [outer, odim, rdim] whose index along the axis is ind.
template <class I>
__device__ __forceinline__ long long along_position(I ind, long long i, long long adim,
                                                    long long odim, long long rdim) {
  const long long r = i % rdim, l = i / rdim / odim;
  const long long k = wrap_index((long long)ind, adim);
  return (l * adim + k) * rdim + r;
}

// advanced indexing's index k wrapped into 0..len, or taken as is when
// len is 0 (k is a byte offset already: masks, summed offsets).
__device__ __forceinline__ long long adv_index(long long k, long long len) {
  if (len > 0 && (k < 0 || k >= len)) { k %= len; if (k < 0) k += len; }
  return k;
}

// The byte offset of element i of a C-order flattened mask over the nd
// lengths s and byte strides t.
__device__ __forceinline__ long long mask_offset(long long i, long long nd,
                                                 const long long (&s)[8],
                                                 const long long (&t)[8]) {
  long long r = i, o = 0;
  for (int d = (int)nd - 1; d >= 0; --d) { o += (r % s[d]) * t[d]; r /= s[d]; }
  return o;
}

// argwhere: the coordinates of element i over the nd lengths s (C order)
// into row c - 1 of out (c the inclusive cumulative sum of the mask).
template <class O>
__device__ __forceinline__ void argwhere_row(const O& out, long long i, long long c, long long nd,
                                             const long long (&s)[8]) {
  long long r = i;
  const long long base = (c - 1) * nd;
  for (int d = (int)nd - 1; d >= 0; --d) { out[base + d] = r % s[d]; r /= s[d]; }
}

// ravel_multi_index of element i: its nd coordinates idx[d * cnt + i],
// prm the dims, the flat-index multipliers and the modes (nd each).
template <class X, class P, class B>
__device__ __forceinline__ long long ravel_multi_index(const X& idx, const P& prm, const B& bad,
                                                       long long i, long long nd, long long cnt) {
  long long acc = 0;
  for (long long d = 0; d < nd; ++d) {
    long long k = idx[d * cnt + i];
    const long long dim = prm[d], md = prm[2 * nd + d];
    k = mode_index(k, dim, md, bad);
    acc += k * prm[nd + d];
  }
  return acc;
}

// unravel_index of element i (the flat index x): its coordinates into
// out[d * cnt + i], prm the dims and the flat-index multipliers (nd
// each); an index outside 0..total leaves them and lowers bad[0] to i.
template <class X, class P, class O, class B>
__device__ __forceinline__ void unravel_index(X x, const P& prm, const O& out, const B& bad,
                                              long long i, long long nd, long long cnt,
                                              long long total) {
  const long long v = (long long)x;
  if (v < 0 || v >= total) {
    atomicMin((unsigned long long*)&bad[0], (unsigned long long)i);
  } else {
    for (long long d = 0; d < nd; ++d) {
      out[d * cnt + i] = (v / prm[nd + d]) % prm[d];
    }
  }
}
}  // namespace cuprum_np
#endif  // CUPRUM_NP_INDEXING_CUH
