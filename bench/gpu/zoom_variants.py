#!/usr/bin/env python3
"""Candidate zoom2 kernels beside the committed one, on the GPU machine.

    python3 bench/gpu/zoom_variants.py [--reps 30]

    python3 bench/gpu/zoom_variants.py --write DIR   # the candidates' sources only

The bench row "ndimage zoom 2x order 1 4096^2 f32" runs gpu-ndimage's
zoom2 (crates/gpu-ndimage/src/kernels/zoom.cu) at about one output a
multiprocessor a cycle, its time falling with the warps resident (H100:
0.341 ms at three blocks of 256 a multiprocessor, 0.277 at four, the
same bits): bound by the latency of each row's loads, which its sum
waits on before the next row's are issued. The candidates, spliced into
the committed zoom.cu below, take orders 0 and 1 in groups of
CUPRUM_ZOOM_GROUP rows of a tile: "grouped" loads a group's taps, then
sums and stores its rows; "pipelined" loads the next group's taps before
summing this one's. The sums are the committed loop's operations in the
same order (the same bits), without its branches; taps two rows share
are loaded twice (the second hits L1) instead of kept.

Each is built as zoom.rs builds the committed kernel (interp.cu's text
first, --fmad=false, C++17, the float32 order-1 instance, zoom.rs's
grid), checked for the committed kernel's output bits on the bench's
image and on edge shapes (odd sizes, tails of fewer rows than a group or
a tile, shrinking, shift), then timed round-robin with CUDA events beside
the committed kernel and CuPy's cupyx.scipy.ndimage.zoom. No Rust needed.
bench/gpu/zoom_variants_emulate.sh runs the candidates on the host with
the crate's emulator. Not yet run on a GPU.
"""
import argparse
import os
import statistics


ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
KERNELS = os.path.join(ROOT, "crates", "gpu-ndimage", "src", "kernels")
THREADS, ROWS = 256, 32
MODE_CONSTANT = 1  # interp.rs's interp_code


# Spliced in before the tile function: the group size, a group's loads,
# and its sums and stores.
GROUP_PARTS = r"""
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

"""

# Spliced in after the tile's `base`: orders 0 and 1 leave the row loop.
TAIL = r"""
      for (int r = groups * G; r < last; ++r) {
        TI one[1][ORDER + 1][ORDER + 1];
        cuprum_zoom_load<ORDER, 1>(one, in, rows + r, cidx);
        cuprum_zoom_sum<ORDER, 1, TI, TO, I>(one, out, rows + r, cidx, col.w, col.ok,
                                             base + (I)r * (I)m1, (I)m1, cval);
      }
      continue;
    }
"""
LOOPS = {
    "grouped": r"""    if constexpr (ORDER <= 1) {
      constexpr int G = CuprumZoomGroup<TI>::G;
      const int groups = last / G;
      for (int k = 0; k < groups; ++k) {
        TI cur[G][ORDER + 1][ORDER + 1];
        cuprum_zoom_load<ORDER, G>(cur, in, rows + k * G, cidx);
        cuprum_zoom_sum<ORDER, G, TI, TO, I>(cur, out, rows + k * G, cidx, col.w, col.ok,
                                             base + (I)(k * G) * (I)m1, (I)m1, cval);
      }""" + TAIL,
    "pipelined": r"""    if constexpr (ORDER <= 1) {
      // Group k + 1's loads are issued before group k is summed.
      constexpr int G = CuprumZoomGroup<TI>::G;
      const int groups = last / G;
      TI cur[G][ORDER + 1][ORDER + 1];
      if (groups > 0) cuprum_zoom_load<ORDER, G>(cur, in, rows, cidx);
      for (int k = 0; k < groups; ++k) {
        TI nxt[G][ORDER + 1][ORDER + 1];
        if (k + 1 < groups) cuprum_zoom_load<ORDER, G>(nxt, in, rows + (k + 1) * G, cidx);
        cuprum_zoom_sum<ORDER, G, TI, TO, I>(cur, out, rows + k * G, cidx, col.w, col.ok,
                                             base + (I)(k * G) * (I)m1, (I)m1, cval);
#pragma unroll
        for (int g = 0; g < G; ++g)
#pragma unroll
          for (int a = 0; a <= ORDER; ++a)
#pragma unroll
            for (int b = 0; b <= ORDER; ++b) cur[g][a][b] = nxt[g][a][b];
      }""" + TAIL,
}


def splice(text, anchor, new, after):
    assert text.count(anchor) == 1, "zoom.cu changed: %r" % anchor
    at = text.index(anchor) + (len(anchor) if after else 0)
    return text[:at] + new + text[at:]


def candidate(kind):
    """The committed zoom.cu with candidate `kind` spliced in."""
    s = open(os.path.join(KERNELS, "zoom.cu")).read()
    s = "// A zoom2 candidate from bench/gpu/zoom_variants.py (%s), not a crate's.\n" % kind + s
    s = splice(s, "// I: int when every input and output offset fits", GROUP_PARTS, False)
    # Orders 0 and 1 keep no taps from row to row: no row's shift is read.
    old = "      if (threadIdx.x > 0) {"
    assert s.count(old) == 1
    s = s.replace(old, "      if (ORDER > 1 && threadIdx.x > 0) {")
    return splice(s, "    const I base = (I)i0 * (I)m1 + (I)j;\n", LOOPS[kind], True)


def build(kind, group, bounds):
    import cupy as cp
    src = open(os.path.join(KERNELS, "interp.cu")).read()
    if group:
        src = "#define CUPRUM_ZOOM_GROUP %d\n" % group + src
    src += candidate(kind) if kind else open(os.path.join(KERNELS, "zoom.cu")).read()
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
    blocks = min(tiles, sms * 8)
    fn((blocks,), (THREADS,), (x, out, p, np.int64(n0), np.int64(n1), np.int64(m0),
                               np.int64(m1), np.int32(MODE_CONSTANT), np.float64(0.0),
                               np.int64(0)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--write", metavar="DIR", help="write zoom_<kind>.cu to DIR and stop")
    args = ap.parse_args()
    if args.write:
        for kind in LOOPS:
            with open(os.path.join(args.write, "zoom_%s.cu" % kind), "w") as f:
                f.write(candidate(kind))
        return
    import cupy as cp
    import numpy as np
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    cands = {"committed (256,4)": (None, 0, "__launch_bounds__(256, 4)")}
    for name in LOOPS:
        for g, b in ((2, "(256, 4)"), (4, "(256, 4)"), (4, "(256, 3)"), (2, "(256, 3)"),
                     (4, "")):
            label = "%s G=%d %s" % (name, g, b or "unbounded")
            cands[label] = (name, g, "__launch_bounds__%s" % b if b else "")
    fns = {k: build(*v) for k, v in cands.items()}

    # The same bits as the committed kernel.
    rng = np.random.default_rng(1)
    shapes = [((4096, 4096), (8192, 8192), 0.0), ((37, 53), (101, 300), 0.0),
              ((64, 64), (33, 31), 0.0), ((40, 40), (79, 257), -0.5), ((5, 700), (3, 1500), 0.25),
              ((1, 9), (70, 17), 0.0)]
    bad = 0
    for n, m, sh in shapes:
        x = cp.asarray(rng.standard_normal(n), dtype=cp.float32)
        p = params(n, m, sh)
        ref = cp.empty(m, cp.float32)
        launch(fns["committed (256,4)"], x, ref, p, sms)
        for k, fn in fns.items():
            out = cp.full(m, cp.nan, cp.float32)
            launch(fn, x, out, p, sms)
            if not bool((out.view(cp.uint32) == ref.view(cp.uint32)).all()):
                bad += 1
                print("DIFFERS: %s on %s -> %s shift %s" % (k, n, m, sh))
    print("bit checks: %d candidates x %d shapes, %d differ" % (len(fns), len(shapes), bad))

    # Timing: the bench's image, round-robin, median of --reps.
    side = 4096
    x = ((cp.arange(side * side, dtype=cp.float64) % 1000) * 0.001).astype(cp.float32)
    x = x.reshape(side, side)
    out = cp.empty((2 * side, 2 * side), cp.float32)
    p = params(x.shape, out.shape)
    import cupyx.scipy.ndimage as nd
    runs = {k: (lambda fn=fn: launch(fn, x, out, p, sms)) for k, fn in fns.items()}
    runs["CuPy ndimage.zoom"] = lambda: nd.zoom(x, 2.0, order=1)
    times = {k: [] for k in runs}
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for f in runs.values():
        f()
    cp.cuda.Device().synchronize()
    for _ in range(args.reps):
        for k, f in runs.items():
            start.record()
            for _ in range(5):
                f()
            stop.record()
            stop.synchronize()
            times[k].append(cp.cuda.get_elapsed_time(start, stop) / 5)
    print("| kernel (zoom 2x order 1, 4096^2 f32) | registers | median ms | min ms |")
    print("|---|---|---|---|")
    for k, t in times.items():
        regs = getattr(fns[k], "num_regs", "?") if k in fns else ""
        print("| %s | %s | %.4f | %.4f |" % (k, regs, statistics.median(t), min(t)))


if __name__ == "__main__":
    main()
