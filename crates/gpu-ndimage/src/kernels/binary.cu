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

// The same step for a 2-D image and a structure within 3 x 3 of the
// output (origins applied), sixteen outputs a thread as bits: each of the
// three rows' 18 bytes around the sixteen (one either side) becomes an
// 18-bit word of "value xor invert" (outside the image: `border`), the
// result is the AND of the words shifted by each tap's column, and the
// bits go back to bytes. `taps` holds bit (dr + 1) * 3 + (dc + 1) for tap
// (dr, dc). The result is the generic step's: the centre rule falls out of
// the AND (a centre tap reading "false" clears the result, which is then
// the value), the mask keeps the value where it is false. `vec`: the width
// is a multiple of 16 and every array 16-byte aligned, so whole segments
// load and store as uint4.

// 4 bytes (nonzero: true) to 4 bits.
__device__ __forceinline__ unsigned cuprum_binary_nibble(unsigned w) {
  return (((__vcmpne4(w, 0u) & 0x01010101u) * 0x01020408u) >> 24) & 0xFu;
}

// 4 bits to 4 bytes of 0 or 1.
__device__ __forceinline__ unsigned cuprum_binary_spread(unsigned n) {
  return (n * 0x00204081u) & 0x01010101u;
}

// Bits 0..17 for columns c0 - 1 .. c0 + 16 of `row` (`rowok`: the row is
// inside the image), each "nonzero xor inv", `border` outside.
__device__ __forceinline__ unsigned cuprum_binary_row(const unsigned char* row, bool rowok, int c0,
                                                      int width, bool vec, unsigned inv,
                                                      unsigned border) {
  if (!rowok) return border ? 0x3FFFFu : 0u;
  unsigned bits = 0;
  if (vec && c0 + 16 <= width) {
    const uint4 v = *reinterpret_cast<const uint4*>(row + c0);
    bits = (cuprum_binary_nibble(v.x) | cuprum_binary_nibble(v.y) << 4 |
            cuprum_binary_nibble(v.z) << 8 | cuprum_binary_nibble(v.w) << 12);
    bits = (bits ^ (inv ? 0xFFFFu : 0u)) << 1;
  } else {
    for (int j = 0; j < 16; ++j) {
      const int c = c0 + j;
      const unsigned b = c < width ? (unsigned)(row[c] != 0) ^ inv : border;
      bits |= b << (j + 1);
    }
  }
  bits |= (c0 >= 1 ? (unsigned)(row[c0 - 1] != 0) ^ inv : border);
  bits |= (c0 + 16 < width ? (unsigned)(row[c0 + 16] != 0) ^ inv : border) << 17;
  return bits;
}

extern "C" __global__ void cuprum_ndimage_binary_step2d(const bool* input, const bool* mask,
                                                        long long height, int width,
                                                        int taps, int border, int invert,
                                                        int vec, bool* out, int* changed) {
  const unsigned char* in = reinterpret_cast<const unsigned char*>(input);
  const unsigned char* mk = reinterpret_cast<const unsigned char*>(mask);
  const unsigned inv = invert ? 1u : 0u;
  const unsigned flip = invert ? 0xFFFFu : 0u;
  const unsigned bord = border ? 1u : 0u;
  const long long segs = ((long long)width + 15) / 16;
  const long long total = height * segs;
  bool any = false;
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long r = t / segs;
    const int c0 = (int)(t - r * segs) * 16;
    unsigned rows[3];
    for (int k = 0; k < 3; ++k) {
      const long long rr = r + k - 1;
      const bool ok = rr >= 0 && rr < height;
      rows[k] = cuprum_binary_row(in + (ok ? rr : 0) * (long long)width, ok, c0, width, vec != 0,
                                  inv, bord);
    }
    unsigned acc = 0xFFFFu;
    for (int k = 0; k < 9; ++k) {
      if ((taps >> k) & 1) acc &= rows[k / 3] >> (k % 3);
    }
    const unsigned v = ((rows[1] >> 1) & 0xFFFFu) ^ flip;
    unsigned res = (acc & 0xFFFFu) ^ flip;
    if (mk) {
      const unsigned m = (cuprum_binary_row(mk + r * width, true, c0, width, vec != 0, 0u, 0u) >> 1) &
                         0xFFFFu;
      res = (res & m) | (v & ~m);
    }
    const int valid = min(16, width - c0);
    const unsigned live = valid == 16 ? 0xFFFFu : (1u << valid) - 1u;
    any = any || ((res ^ v) & live) != 0;
    unsigned char* o = reinterpret_cast<unsigned char*>(out) + r * width + c0;
    if (vec && valid == 16) {
      *reinterpret_cast<uint4*>(o) =
          make_uint4(cuprum_binary_spread(res & 0xFu), cuprum_binary_spread((res >> 4) & 0xFu),
                     cuprum_binary_spread((res >> 8) & 0xFu), cuprum_binary_spread(res >> 12));
    } else {
      for (int j = 0; j < valid; ++j) o[j] = (unsigned char)((res >> j) & 1u);
    }
  }
  if (any) atomicOr(changed, 1);
}
