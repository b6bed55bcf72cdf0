// Binary morphology's one step (SciPy's NI_BinaryErosion; morphology/
// binary.rs launches it): erosion of a C-contiguous bool image by a flat
// structuring element, or, with `invert`, dilation as SciPy computes it
// (the erosion of the complement, complemented).
//
// geom holds the image's shape (ndim <= 16 values); taps the structure's
// true elements, ndim offsets each from the output's index (origin and
// centre applied). Element t keeps its input value where the mask is
// false, and where the structure's centre is true and the value is the
// operation's "false" (erosion can only clear, dilation only set, a
// pixel). Otherwise it is "true" unless some tap reads a "false"
// neighbour, or falls outside the image while `border` (the border value,
// already complemented for dilation) is 0. `changed` is set to 1 when any
// element differs from its input (iterating to convergence reads it).

#define CUPRUM_BINARY_MAXDIM 16

// The grid-stride loop in index type I: int when the element count and
// the grid's last step fit (32-bit divisions cost a third of 64-bit ones,
// and taking the index apart dominates a 3 x 3 step); each thread reports
// a change once, at its end, not per element (an atomic a changed pixel
// serialises on one address).
template <typename I>
__device__ __forceinline__ void cuprum_binary_step(const bool* in, const bool* mask,
                                                   const long long* shape, int ndim,
                                                   const long long* taps, int ntaps, int border,
                                                   int invert, int center_is_true, I total,
                                                   bool* out, int* changed) {
  const int tru = invert ? 0 : 1;
  const int fls = invert ? 1 : 0;
  bool any = false;
  const I step = (I)gridDim.x * (I)blockDim.x;
  for (I t = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; t < total; t += step) {
    const int v = in[t] ? 1 : 0;
    int r;
    if ((mask != nullptr && !mask[t]) || (center_is_true && v == fls)) {
      r = v;
    } else {
      I idx[CUPRUM_BINARY_MAXDIM];
      I rest = t;
      for (int d = ndim - 1; d >= 0; --d) {
        const I s = (I)shape[d];
        idx[d] = rest % s;
        rest /= s;
      }
      r = tru;
      for (int k = 0; k < ntaps; ++k) {
        const long long* off = taps + (long long)k * ndim;
        long long lin = 0;
        bool inside = true;
        for (int d = 0; d < ndim; ++d) {
          const long long p = (long long)idx[d] + off[d];
          if (p < 0 || p >= shape[d]) {
            inside = false;
            break;
          }
          lin = lin * shape[d] + p;
        }
        if (!inside) {
          if (!border) {
            r = fls;
            break;
          }
        } else if ((in[lin] ? tru : fls) == 0) {
          r = fls;
          break;
        }
      }
    }
    out[t] = r != 0;
    any = any || r != v;
  }
  if (any) atomicOr(changed, 1);
}

extern "C" __global__ void cuprum_ndimage_binary_step(const bool* in, const bool* mask,
                                                      const long long* geom, int ndim,
                                                      const long long* taps, int ntaps,
                                                      int border, int invert,
                                                      int center_is_true, long long total,
                                                      bool* out, int* changed) {
  long long shape[CUPRUM_BINARY_MAXDIM];
  for (int d = 0; d < ndim; ++d) shape[d] = geom[d];
  const long long step = (long long)gridDim.x * blockDim.x;
  if (total + step < 2147483647LL)
    cuprum_binary_step<int>(in, mask, shape, ndim, taps, ntaps, border, invert, center_is_true,
                            (int)total, out, changed);
  else
    cuprum_binary_step<long long>(in, mask, shape, ndim, taps, ntaps, border, invert,
                                  center_is_true, total, out, changed);
}
