#!/usr/bin/env python3
"""tiled2d kernels (gpu-ndimage's separable 2-D filters) beside the
committed one and CuPy, on the GPU machine.

    python3 bench/gpu/tiled2d_variants.py [--reps 30]
    python3 bench/gpu/tiled2d_variants.py --write FILE   # the variant's function only

The bench rows "ndimage uniform_filter 5 4096^2 f32" (0.147 ms on the
H100, 33rd session; goal 0.10 on the H200) and "ndimage gaussian_filter
sigma 2 4096^2 f32" (0.176 ms; goal 0.15) run tiled2d
(crates/gpu-ndimage/src/kernels/tiled.cu): a block loads a tile's inputs
into registers, waits for them, converts them into shared memory, runs
both passes, stores, and only then issues the next tile's loads, at two
blocks a multiprocessor (118 and 128 registers). The candidate,
"prefetch", is the committed function with its load phase moved into a
lambda that is called for the next tile right after this tile's inputs
are in shared memory, so that the loads fly during the passes. It is
made from tiled.cu's text at run time (the anchors it needs are
asserted), so it tracks the committed kernel. ptxas (NVRTC 13, sm_90):
the mean of 5 at 126 registers without spills, the Gaussian's 17 taps at
128 with 92 bytes spilled.

Each is built as tiled.rs builds the committed program (boundary.cuh,
filters.cu and tiled.cu, the float32 instance; C++17) and launched at
tiled.rs's grid (two blocks a multiprocessor, capped at the tiles),
checked for the committed kernel's output bits on the bench's image and
edge shapes (odd sizes, a batch, every mode, origins), then timed
round-robin with CUDA events beside cupyx.scipy.ndimage. No Rust needed.
Not yet run on a GPU. The prefetch function (`--write`) ran on the host
through crates/gpu-ndimage/tools/emulate/shim.h beside the committed
kernel: the same bits for the mean of 5 and the 17-tap Gaussian on 24
random images up to 2 x 135 x 170 (every mode, origins, one to four
blocks walking many tiles each).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from j0_variants import print_times, rounds  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
KERNELS = os.path.join(ROOT, "crates", "gpu-ndimage", "src", "kernels")
HEADERS = os.path.join(ROOT, "kernels")
THREADS, LINES = 256, 32
PARAMS = ("(const float* in, const double* w0, const double* w1, long long batch, long long n0, "
          "long long n1, long long origin0, long long origin1, int mode0, int mode1, double cval, "
          "float* out)")


def prefetch_function(tiled):
    """tiled.cu's cuprum_tiled2d as `tiled2d_prefetch`, its loads issued
    one tile ahead."""
    start = tiled.index("template <typename TI, typename TO, int OP0, int S0, int OP1, int S1>\n"
                        "__device__ __forceinline__ void cuprum_tiled2d(")
    f = tiled[start:tiled.index("#define CUPRUM_NDIMAGE_TILED2D")]
    f = f.replace("void cuprum_tiled2d(", "void tiled2d_prefetch(")
    head = """  TI raw[FILL];
  bool use_cval[FILL];
  CuprumTileWalk walk(tx, ty);
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x, walk.next()) {
    const long long z = walk.z;
    const long long i0 = walk.ti * TY, j0 = walk.tj * TX;
    const long long p0 = i0 - origin0 - S0 / 2, q0 = j0 - origin1 - S1 / 2;
    const TI* plane = in + z * n0 * n1;
"""
    load_start = f.index("    // Every thread loads the same column of FILL rows")
    load_end = f.index("    __syncthreads();  // the last tile's staged outputs are stored")
    assert f.index(head) + len(head) == load_start, "tiled2d's loop head moved"
    loads = f[load_start:load_end]
    f = f.replace(head + loads, """  TI raw[FILL];
  bool use_cval[FILL];
  CuprumTileWalk walk(tx, ty);
  // The committed load phase, for the tile `w` names.
  auto load = [&](const CuprumTileWalk& w) {
    const long long i0 = w.ti * TY, j0 = w.tj * TX;
    const long long p0 = i0 - origin0 - S0 / 2, q0 = j0 - origin1 - S1 / 2;
    const TI* plane = in + w.z * n0 * n1;
""" + loads + """  };
  if ((long long)blockIdx.x < tiles) load(walk);
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
    const long long z = walk.z;
    const long long i0 = walk.ti * TY, j0 = walk.tj * TX;
    const long long q0 = j0 - origin1 - S1 / 2;
""")
    stored = """      tile[tid + k * T] = use_cval[k] ? cval : cuprum_ndimage_to_double(raw[k]);
    __syncthreads();
"""
    assert stored in f, "tiled2d's store to shared memory moved"
    return f.replace(stored, stored + """    // The next tile's loads fly during this one's passes.
    walk.next();
    if (t + gridDim.x < tiles) load(walk);
""")


# Rows: (name, op, window, CuPy call); the op codes are kernels.rs's Op1d.
ROWS = [
    ("uniform_filter 5", 3, 5, lambda nd, x: nd.uniform_filter(x, 5)),
    ("gaussian_filter sigma 2", 1, 17, lambda nd, x: nd.gaussian_filter(x, 2.0)),
]


def source(op, size, prefetch):
    tiled = open(os.path.join(KERNELS, "tiled.cu")).read()
    text = "".join(open(os.path.join(KERNELS, f)).read() for f in ("boundary.cuh", "filters.cu"))
    text += tiled
    if prefetch:
        text += prefetch_function(tiled)
        return text + ('extern "C" __global__ void __launch_bounds__(%d, 2) k%s {\n'
                       '  tiled2d_prefetch<float, float, %d, %d, %d, %d>(in, w0, w1, batch, n0, '
                       'n1, origin0, origin1, mode0, mode1, cval, out);\n}\n'
                       % (THREADS, PARAMS, op, size, op, size))
    text += 'extern "C" __global__ void k%s;\n' % PARAMS
    return text + "CUPRUM_NDIMAGE_TILED2D(k, float, float, %d, %d, %d, %d)\n" % (op, size, op, size)


def gaussian_weights(size):
    """SciPy's sigma-2 kernel at truncate 4 (radius 8), normalized."""
    import numpy as np
    r = size // 2
    x = np.arange(-r, r + 1, dtype=np.float64)
    w = np.exp(-0.5 / 4.0 * x * x)
    return w / w.sum()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--write", help="write the prefetch function to this file and stop")
    args = ap.parse_args()
    if args.write:
        with open(args.write, "w") as f:
            f.write(prefetch_function(open(os.path.join(KERNELS, "tiled.cu")).read()))
        return
    import cupy as cp
    import cupyx.scipy.ndimage as nd
    import numpy as np
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    side = 4096
    img = ((cp.arange(side * side, dtype=cp.float64) % 1000) * 0.001).astype(cp.float32)
    img = img.reshape(1, side, side)
    rng = cp.random.default_rng(3)
    for name, op, size, cupy_fn in ROWS:
        w = cp.asarray(gaussian_weights(size))
        fns = {}
        for label, pf in (("committed", False), ("prefetch", True)):
            mod = cp.RawModule(code=source(op, size, pf), options=("-std=c++17", "-I" + HEADERS))
            fns[label] = mod.get_function("k")
        cols = (65 - size) // 8 * 8

        def launch(fn, x, out, origin=0, mode=0, cval=0.0):
            batch, n0, n1 = x.shape
            tiles = batch * -(-n0 // LINES) * -(-n1 // cols)
            fn((min(tiles, 2 * sms),), (THREADS,),
               (x, w, w, np.int64(batch), np.int64(n0), np.int64(n1), np.int64(origin),
                np.int64(-origin), np.int32(mode), np.int32(mode), np.float64(cval), out))

        cases = [(img, 0, 0)]
        for shape in [(1, 16, cols // 2), (1, 67, 33), (3, 130, 97), (2, 65, 200), (1, 33, 61)]:
            x = rng.standard_normal(shape, dtype=cp.float32)
            for mode in range(5):
                for origin in (0, 1, -(size // 2)):
                    cases.append((x, mode, origin))
        bad = 0
        for x, mode, origin in cases:
            a, b = cp.full_like(x, 7.0), cp.full_like(x, -7.0)
            launch(fns["committed"], x, a, origin, mode, 0.5)
            launch(fns["prefetch"], x, b, origin, mode, 0.5)
            if not bool((a.view(cp.uint32) == b.view(cp.uint32)).all()):
                bad += 1
                print("%s: prefetch DIFFERS on %s mode %d origin %d" % (name, x.shape, mode, origin))
        print("%s: %d cases, %d differ" % (name, len(cases), bad))
        out = cp.empty_like(img)
        runs = {k: (lambda fn=fn: launch(fn, img, out)) for k, fn in fns.items()}
        img2 = img.reshape(side, side)
        runs["CuPy"] = lambda: cupy_fn(nd, img2)
        print_times(name + " 4096^2 f32", rounds(runs, args.reps), fns)


if __name__ == "__main__":
    main()
