#!/usr/bin/env python3
"""zoom2 order 1 with each converted tap used by every row that shares it,
beside the committed kernel and CuPy, on the GPU machine.

    python3 bench/gpu/zoom_reuse_variants.py [--reps 30]
    python3 bench/gpu/zoom_reuse_variants.py --write DIR   # the candidates' zoom.cu

The bench row "ndimage zoom 2x order 1 4096^2 f32" (0.258 ms on the
H100, 33rd session; goal 0.12 on the H200) keeps SciPy's bits: each
output sums its four taps in double, each tap converted from float
(F2F.F64.F32), times the row's and the column's weight, each product and
sum rounded on its own (8 DMUL, 4 DADD), then converted back. sm_90
issues 64 FP64 operations but only 16 conversions to or from 64 bits a
clock a multiprocessor (CUDA's arithmetic throughput table), so an
output costs 12 / 64 + 5 / 16 = 0.5 clock of a multiprocessor: for
8192^2 outputs on 132 multiprocessors at 1.98 GHz, 128 us before any
other instruction, above the goal. Zoomed 2x, an input row serves two
output rows: a row's taps are the last row's (shift 0) or those moved by
one (shift 1) every time, the case zoom.cu already exploits for orders 2
and up. Candidates, the committed grouped loads kept:

- "reuse": the group's sums take each row's taps from the previous
  row's converted values where the block-uniform shift says they are the
  same (the row setup computes the shift for orders 0 and 1 too), and
  convert only the new ones: 1 + 1 conversions an output instead of
  4 + 1 for the bench (a 0.31 clock floor, 80 us);
- "reuse, loads skipped": the same, and the kept taps are not loaded
  again either.

The same bits by construction (the same values in the same operations);
checked against the committed kernel on the bench's image and on edge
shapes (odd sizes, shrinking, shifts, constant mode's cval), then timed
round-robin with CUDA events beside the committed kernel and
cupyx.scipy.ndimage.zoom. No Rust needed. Not yet run on a GPU. On the
host, each candidate's zoom.cu (`--write`) in place of the committed one
passes crates/gpu-ndimage/tools/emulate's zoom program (182 cases, every
order, mode and dtype against interp.cu's general interpolation, bit for
bit), and a reuse that takes the wrong row's taps fails 34 of them.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from j0_variants import print_times, rounds  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
KERNELS = os.path.join(ROOT, "crates", "gpu-ndimage", "src", "kernels")
THREADS, ROWS = 256, 32
MODE_CONSTANT = 1  # interp.rs's interp_code

# The sums of a group's rows with the taps a row shares with the previous
# one taken from `v` (that row's converted taps, carried from group to
# group), the committed sum's operations otherwise.
SUM_REUSE = r"""
template <int ORDER, int G, typename TI, typename TO, typename I>
__device__ __forceinline__ void zoom_sum_reuse(const TI (&raw)[G][ORDER + 1][ORDER + 1],
                                               double (&v)[ORDER + 1][ORDER + 1],
                                               TO* __restrict__ out,
                                               const CuprumZoomRow<ORDER, I>* rows,
                                               const I* cidx, const double* cw, bool col_ok,
                                               I at, I m1, double cval) {
#pragma unroll
  for (int g = 0; g < G; ++g) {
    const CuprumZoomRow<ORDER, I>& row = rows[g];
    // row.shift is the whole block's: no divergence.
    if (row.shift != 0) {
#pragma unroll
      for (int a = 0; a <= ORDER; ++a) {
#pragma unroll
        for (int b = 0; b <= ORDER; ++b) {
          if (row.shift == 1 && a < ORDER)
            v[a][b] = v[a < ORDER ? a + 1 : a][b];
          else
            v[a][b] = (row.off[a] < 0 || cidx[b] < 0) ? cval : (double)raw[g][a][b];
        }
      }
    }
    double acc = 0.0;
#pragma unroll
    for (int a = 0; a <= ORDER; ++a) {
#pragma unroll
      for (int b = 0; b <= ORDER; ++b) {
        double coeff = v[a][b];
        if (ORDER > 0) coeff = __dmul_rn(__dmul_rn(coeff, row.w[a]), cw[b]);
        acc = __dadd_rn(acc, coeff);
      }
    }
    out[at + (I)g * m1] = cuprum_interp_store<TO>((row.ok && col_ok) ? acc : cval);
  }
}

// The committed group load without the taps the sums keep.
template <int ORDER, int G, typename TI, typename I>
__device__ __forceinline__ void zoom_load_new(TI (&raw)[G][ORDER + 1][ORDER + 1],
                                              const TI* __restrict__ in,
                                              const CuprumZoomRow<ORDER, I>* rows,
                                              const I* cidx) {
#pragma unroll
  for (int g = 0; g < G; ++g) {
#pragma unroll
    for (int a = 0; a <= ORDER; ++a) {
      const bool kept = rows[g].shift == 0 || (rows[g].shift == 1 && a < ORDER);
      const I off = rows[g].off[a];
#pragma unroll
      for (int b = 0; b <= ORDER; ++b)
        raw[g][a][b] = (kept || off < 0 || cidx[b] < 0) ? TI(0) : in[off + cidx[b]];
    }
  }
}
"""


def replace_once(text, old, new):
    assert text.count(old) == 1, "zoom.cu changed: %r" % old[:70]
    return text.replace(old, new)


def candidate(skip_loads):
    """zoom.cu with the reusing sums (and loads) in place of the group's."""
    s = open(os.path.join(KERNELS, "zoom.cu")).read()
    s = replace_once(s, "// I: int when every input and output offset fits",
                     SUM_REUSE + "\n// I: int when every input and output offset fits")
    # Every order's rows get their shift.
    s = replace_once(s, "      if (ORDER > 1 && threadIdx.x > 0) {", "      if (threadIdx.x > 0) {")
    s = replace_once(s, "      const int groups = last / G;\n",
                     "      const int groups = last / G;\n      double v[ORDER + 1][ORDER + 1];\n")
    load = "zoom_load_new" if skip_loads else "cuprum_zoom_load"
    for g, rows in (("G", "rows + k * G"), ("1", "rows + r")):
        s = replace_once(s, "cuprum_zoom_load<ORDER, %s>(" % g, "%s<ORDER, %s>(" % (load, g))
        s = replace_once(s, "cuprum_zoom_sum<ORDER, %s, TI, TO, I>(%s, out, %s," % (
            g, "cur" if g == "G" else "one", rows),
            "zoom_sum_reuse<ORDER, %s, TI, TO, I>(%s, v, out, %s," % (
                g, "cur" if g == "G" else "one", rows))
    return s


# name: (None for the committed zoom.cu, else whether the kept taps'
# loads are skipped; the kernel's launch bounds; rows a group, 0 for
# zoom.cu's). ptxas (NVRTC 13, sm_90, --fmad=false): committed 64
# registers at (256, 4), 8 bytes spilled; reuse 64 at (256, 4) with 130
# bytes spilled, 80 at (256, 3) with 64, 111 unbounded with none
# (skipping the loads: 138, 60, 117 and none); reuse in groups of 2: 80
# at (256, 3) with 16 bytes spilled, 96 unbounded with none.
CANDS = {
    "committed (256, 4)": (None, "__launch_bounds__(256, 4)", 0),
    "reuse (256, 4)": (False, "__launch_bounds__(256, 4)", 0),
    "reuse (256, 3)": (False, "__launch_bounds__(256, 3)", 0),
    "reuse unbounded": (False, "", 0),
    "reuse, loads skipped (256, 4)": (True, "__launch_bounds__(256, 4)", 0),
    "reuse, loads skipped unbounded": (True, "", 0),
    "reuse, groups of 2 (256, 3)": (False, "__launch_bounds__(256, 3)", 2),
    "reuse, groups of 2 unbounded": (False, "", 2),
}


def build(skip, bounds, group):
    import cupy as cp
    src = "#define CUPRUM_ZOOM_GROUP %d\n" % group if group else ""
    src += open(os.path.join(KERNELS, "interp.cu")).read()
    src += candidate(skip) if skip is not None else open(os.path.join(KERNELS, "zoom.cu")).read()
    src += "CUPRUM_NDIMAGE_ZOOM2(zoom_f32_o1, float, float, 1, %s)\n" % bounds
    mod = cp.RawModule(code=src, options=("--fmad=false", "-std=c++17", "-I" + KERNELS))
    return mod.get_function("zoom_f32_o1")


def params(n, m, shift=0.0):
    """zoom's per-axis (s, z, t) without grid_mode, plus a shift."""
    import cupy as cp
    p = []
    for a in range(2):
        z = (n[a] - 1) / (m[a] - 1) if m[a] > 1 else 0.0
        p += [0.0, z, shift]
    return cp.asarray(p, dtype=cp.float64)


def launch(fn, x, out, p, sms):
    import numpy as np
    n0, n1 = x.shape
    m0, m1 = out.shape
    tiles = -(-m0 // ROWS) * -(-m1 // THREADS)
    fn((min(tiles, sms * 8),), (THREADS,), (x, out, p, np.int64(n0), np.int64(n1),
                                            np.int64(m0), np.int64(m1), np.int32(MODE_CONSTANT),
                                            np.float64(0.5), np.int64(0)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--write", metavar="DIR", help="write zoom_reuse*.cu to DIR and stop")
    args = ap.parse_args()
    if args.write:
        for skip, name in ((False, "zoom_reuse.cu"), (True, "zoom_reuse_skip.cu")):
            with open(os.path.join(args.write, name), "w") as f:
                f.write(candidate(skip))
        return
    import cupy as cp
    import numpy as np
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    fns = {k: build(*v) for k, v in CANDS.items()}

    rng = np.random.default_rng(1)
    shapes = [((4096, 4096), (8192, 8192), 0.0), ((37, 53), (101, 300), 0.0),
              ((64, 64), (33, 31), 0.0), ((40, 40), (79, 257), -0.5), ((5, 700), (3, 1500), 0.25),
              ((1, 9), (70, 17), 0.0), ((300, 7), (911, 13), 0.7)]
    bad = 0
    for n, m, sh in shapes:
        x = cp.asarray(rng.standard_normal(n), dtype=cp.float32)
        p = params(n, m, sh)
        ref = cp.empty(m, cp.float32)
        launch(fns["committed (256, 4)"], x, ref, p, sms)
        for k, fn in fns.items():
            out = cp.full(m, cp.nan, cp.float32)
            launch(fn, x, out, p, sms)
            if not bool((out.view(cp.uint32) == ref.view(cp.uint32)).all()):
                bad += 1
                print("DIFFERS: %s on %s -> %s shift %s" % (k, n, m, sh))
    print("bit checks: %d kernels x %d shapes, %d differ" % (len(fns), len(shapes), bad))

    side = 4096
    x = ((cp.arange(side * side, dtype=cp.float64) % 1000) * 0.001).astype(cp.float32)
    x = x.reshape(side, side)
    out = cp.empty((2 * side, 2 * side), cp.float32)
    p = params(x.shape, out.shape)
    import cupyx.scipy.ndimage as nd
    runs = {k: (lambda fn=fn: launch(fn, x, out, p, sms)) for k, fn in fns.items()}
    runs["CuPy ndimage.zoom"] = lambda: nd.zoom(x, 2.0, order=1)
    print_times("zoom 2x order 1, 4096^2 f32", rounds(runs, args.reps), fns)


if __name__ == "__main__":
    main()
