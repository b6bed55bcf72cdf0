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

extern "C" __global__ void cuprum_ndimage_binary_step(const bool* in, const bool* mask,
                                                      const long long* geom, int ndim,
                                                      const long long* taps, int ntaps,
                                                      int border, int invert,
                                                      int center_is_true, long long total,
                                                      bool* out, int* changed) {
  long long shape[CUPRUM_BINARY_MAXDIM];
  for (int d = 0; d < ndim; ++d) shape[d] = geom[d];
  const int tru = invert ? 0 : 1;
  const int fls = invert ? 1 : 0;
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const int v = in[t] ? 1 : 0;
    int r;
    if ((mask != nullptr && !mask[t]) || (center_is_true && v == fls)) {
      r = v;
    } else {
      long long idx[CUPRUM_BINARY_MAXDIM];
      long long rest = t;
      for (int d = ndim - 1; d >= 0; --d) {
        idx[d] = rest % shape[d];
        rest /= shape[d];
      }
      r = tru;
      for (int k = 0; k < ntaps; ++k) {
        const long long* off = taps + (long long)k * ndim;
        long long lin = 0;
        bool inside = true;
        for (int d = 0; d < ndim; ++d) {
          const long long p = idx[d] + off[d];
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
    if (r != v) atomicOr(changed, 1);
  }
}
