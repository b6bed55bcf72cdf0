#!/usr/bin/env python3
"""gpu-ndimage's tiled separable filters (tiled1d, tiled2d) with their
loads one tile ahead, beside the committed kernels and CuPy, on the GPU
machine.

    python3 bench/gpu/tiled_variants.py [--reps 30]
    python3 bench/gpu/tiled_variants.py --write FILE   # the variants' functions only

The bench rows "ndimage uniform_filter 5 4096^2 f32" (0.147 ms on the
H100, 33rd session; goal 0.10 on the H200), "ndimage gaussian_filter
sigma 2 4096^2 f32" (0.176 ms; goal 0.15) and "... 512^3 f32" (2.8 ms on
the H200; goal half the bandwidth) run tiled2d, and for the 512^3 volume
tiled1d along its first axis first (crates/gpu-ndimage/src/kernels/
tiled.cu). Both walk their tiles so: load a tile's inputs into registers,
wait for them, convert them into shared memory, compute, store, and only
then issue the next tile's loads, at two blocks a multiprocessor (112 to
128 registers). The candidates ("prefetch") are the committed functions
with the next tile's loads issued right after this tile's inputs are in
shared memory, so that they fly during its arithmetic; both are made
from tiled.cu's text at run time (the anchors they need are asserted),
so they track the committed kernels. ptxas (NVRTC 13, sm_90): tiled2d's
mean of 5 at 126 registers without spills, its 17-tap Gaussian at 128
with 92 bytes spilled; tiled1d's 17-tap Gaussian at 117 (an axis before
the last) and 128 (the last), neither spilling.

Each is built as tiled.rs builds the committed program (boundary.cuh,
filters.cu and tiled.cu, the float32 instance; C++17) and launched at
tiled.rs's grid (two blocks a multiprocessor, capped at the tiles),
checked for the committed kernel's output bits on the bench's image and
edge shapes (odd sizes, a batch, every mode, origins; tiled1d along the
last axis and one before it), then timed round-robin with CUDA events
beside cupyx.scipy.ndimage. No Rust needed. Not yet run on a GPU. The
prefetch functions (`--write`) ran on the host through
crates/gpu-ndimage/tools/emulate/shim.h beside the committed kernels,
the same bits: tiled2d's mean of 5 and 17-tap Gaussian on 24 random
images up to 2 x 135 x 170, tiled1d's on 24 arrays along either layout
(every mode, origins, one to four blocks walking many tiles each).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from j0_variants import harness_args, print_times, rounds  # noqa: E402

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


def prefetch1d_function(tiled):
    """tiled.cu's cuprum_tiled1d as `tiled1d_prefetch`: its `fetch` of
    the next tile right after this tile's inputs are in shared memory."""
    start = tiled.index("template <typename TI, typename TO, int OP, int S, bool ROWS>\n"
                        "__device__ __forceinline__ void cuprum_tiled1d(")
    f = tiled[start:tiled.index("#define CUPRUM_NDIMAGE_TILED1D")]
    f = f.replace("void cuprum_tiled1d(", "void tiled1d_prefetch(")
    loop = """  CuprumTileWalk walk(segs, 1);
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x, walk.next()) {
    fetch(walk.z, walk.tj);
    __syncthreads();  // the last tile's readers are done with `tile`
"""
    stored = """            use_cval[k] ? cval : cuprum_ndimage_to_double(raw[k]);
      }
    }
    __syncthreads();
"""
    assert f.count(loop) == 1 and f.count(stored) == 1, "tiled1d's loop moved"
    head, rest = f.split(loop)
    store, compute = rest.split(stored)
    assert "fetch" not in compute
    # The rest of the body reads the tile's coordinates after the walk
    # has moved on.
    compute = compute.replace("walk.z", "cz").replace("walk.tj", "ctj")
    return head + """  CuprumTileWalk walk(segs, 1);
  if ((long long)blockIdx.x < tiles) fetch(walk.z, walk.tj);
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
    __syncthreads();  // the last tile's readers are done with `tile`
""" + store + stored + """    // The next tile's loads fly during this one's arithmetic.
    const long long cz = walk.z, ctj = walk.tj;
    walk.next();
    if (t + gridDim.x < tiles) fetch(walk.z, walk.tj);
""" + compute


PARAMS1 = ("(const float* in, const double* w, long long outer, long long n, long long inner, "
           "long long origin, int mode, double cval, float* out)")

# The 2-D rows: (name, op, window, CuPy call); the op codes are
# kernels.rs's Op1d (1 symmetric, 3 mean).
ROWS2D = [
    ("uniform_filter 5", 3, 5, lambda nd, x: nd.uniform_filter(x, 5)),
    ("gaussian_filter sigma 2", 1, 17, lambda nd, x: nd.gaussian_filter(x, 2.0)),
]


def program(prefetch):
    """Every kernel the harness launches, committed or prefetching: k2_{op}_{size}
    (tiled2d), k1_cols and k1_rows (tiled1d, the 17-tap Gaussian)."""
    tiled = open(os.path.join(KERNELS, "tiled.cu")).read()
    text = "".join(open(os.path.join(KERNELS, f)).read() for f in ("boundary.cuh", "filters.cu"))
    text += tiled
    if prefetch:
        text += prefetch_function(tiled) + prefetch1d_function(tiled)
    for _, op, size, _ in ROWS2D:
        name = "k2_%d_%d" % (op, size)
        if prefetch:
            text += ('extern "C" __global__ void __launch_bounds__(%d, 2) %s%s {\n'
                     '  tiled2d_prefetch<float, float, %d, %d, %d, %d>(in, w0, w1, batch, n0, '
                     'n1, origin0, origin1, mode0, mode1, cval, out);\n}\n'
                     % (THREADS, name, PARAMS, op, size, op, size))
        else:
            text += 'extern "C" __global__ void %s%s;\n' % (name, PARAMS)
            text += "CUPRUM_NDIMAGE_TILED2D(%s, float, float, %d, %d, %d, %d)\n" % (
                name, op, size, op, size)
    for layout, rows in (("cols", "false"), ("rows", "true")):
        name = "k1_" + layout
        if prefetch:
            text += ('extern "C" __global__ void __launch_bounds__(%d, 2) %s%s {\n'
                     '  tiled1d_prefetch<float, float, 1, 17, %s>(in, w, outer, n, inner, origin, '
                     'mode, cval, out);\n}\n' % (THREADS, name, PARAMS1, rows))
        else:
            text += 'extern "C" __global__ void %s%s;\n' % (name, PARAMS1)
            text += "CUPRUM_NDIMAGE_TILED1D(%s, float, float, 1, 17, %s)\n" % (name, rows)
    return text


def gaussian_weights(size):
    """SciPy's sigma-2 kernel at truncate 4 (radius 8), normalized."""
    import numpy as np
    r = size // 2
    x = np.arange(-r, r + 1, dtype=np.float64)
    w = np.exp(-0.5 / 4.0 * x * x)
    return w / w.sum()


def write_functions(path):
    tiled = open(os.path.join(KERNELS, "tiled.cu")).read()
    with open(path, "w") as f:
        f.write(prefetch_function(tiled) + prefetch1d_function(tiled))


def main():
    args = harness_args(write_functions)
    import cupy as cp
    import cupyx.scipy.ndimage as nd
    import numpy as np
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    mods = {k: cp.RawModule(code=program(k == "prefetch"), options=("-std=c++17", "-I" + HEADERS))
            for k in ("committed", "prefetch")}
    rng = cp.random.default_rng(3)
    w17 = cp.asarray(gaussian_weights(17))

    def launch2(fn, size, w, x, out, origin=0, mode=0, cval=0.0):
        batch, n0, n1 = x.shape
        cols = (65 - size) // 8 * 8
        tiles = batch * -(-n0 // LINES) * -(-n1 // cols)
        fn((min(tiles, 2 * sms),), (THREADS,),
           (x, w, w, np.int64(batch), np.int64(n0), np.int64(n1), np.int64(origin),
            np.int64(-origin), np.int32(mode), np.int32(mode), np.float64(cval), out))

    def launch1(fn, x, out, axis, origin=0, mode=0, cval=0.0):
        shape = x.shape
        outer = int(np.prod(shape[:axis], dtype=np.int64))
        n = shape[axis]
        inner = int(np.prod(shape[axis + 1:], dtype=np.int64))
        tiles = -(-(outer * inner) // LINES) * -(-n // 64)
        fn((min(tiles, 2 * sms),), (THREADS,),
           (x, w17, np.int64(outer), np.int64(n), np.int64(inner), np.int64(origin),
            np.int32(mode), np.float64(cval), out))

    def same(a, b):
        return bool((a.view(cp.uint32) == b.view(cp.uint32)).all())

    side = 4096
    img = ((cp.arange(side * side, dtype=cp.float64) % 1000) * 0.001).astype(cp.float32)
    img = img.reshape(1, side, side)
    for name, op, size, cupy_fn in ROWS2D:
        w = cp.asarray(gaussian_weights(size))
        fns = {k: m.get_function("k2_%d_%d" % (op, size)) for k, m in mods.items()}
        cols = (65 - size) // 8 * 8
        cases = [(img, 0, 0)]
        for shape in [(1, 16, cols // 2), (1, 67, 33), (3, 130, 97), (2, 65, 200), (1, 33, 61)]:
            x = rng.standard_normal(shape, dtype=cp.float32)
            for mode in range(5):
                for origin in (0, 1, -(size // 2)):
                    cases.append((x, mode, origin))
        bad = 0
        for x, mode, origin in cases:
            a, b = cp.full_like(x, 7.0), cp.full_like(x, -7.0)
            launch2(fns["committed"], size, w, x, a, origin, mode, 0.5)
            launch2(fns["prefetch"], size, w, x, b, origin, mode, 0.5)
            if not same(a, b):
                bad += 1
                print("%s: prefetch DIFFERS on %s mode %d origin %d" % (name, x.shape, mode, origin))
        print("%s: %d cases, %d differ" % (name, len(cases), bad))
        out = cp.empty_like(img)
        runs = {k: (lambda fn=fn: launch2(fn, size, w, img, out)) for k, fn in fns.items()}
        img2 = img.reshape(side, side)
        runs["CuPy"] = lambda: cupy_fn(nd, img2)
        print_times(name + " 4096^2 f32", rounds(runs, args.reps), fns)

    # tiled1d along the last axis (rows) and one before it (cols).
    bad, cases = 0, 0
    for shape in [(40, 300), (3, 70, 129), (33, 5, 64), (64, 2, 3, 100)]:
        x = rng.standard_normal(shape, dtype=cp.float32)
        for axis in range(len(shape)):
            layout = "rows" if axis == len(shape) - 1 else "cols"
            for mode in range(5):
                a, b = cp.full_like(x, 7.0), cp.full_like(x, -7.0)
                launch1(mods["committed"].get_function("k1_" + layout), x, a, axis, 1, mode, 0.5)
                launch1(mods["prefetch"].get_function("k1_" + layout), x, b, axis, 1, mode, 0.5)
                cases += 1
                if not same(a, b):
                    bad += 1
                    print("tiled1d: prefetch DIFFERS on %s axis %d mode %d" % (shape, axis, mode))
    print("tiled1d: %d cases, %d differ" % (cases, bad))

    # The 512^3 Gaussian as the crate runs it: tiled1d along axis 0, then
    # tiled2d over the last two axes.
    v = ((cp.arange(512 ** 3, dtype=cp.float64) % 1000) * 0.001).astype(cp.float32)
    v = v.reshape(512, 512, 512)
    mid, out = cp.empty_like(v), cp.empty_like(v)

    def volume(kind):
        m = mods[kind]
        launch1(m.get_function("k1_cols"), v, mid, 0)
        launch2(m.get_function("k2_1_17"), 17, w17, mid, out)

    runs = {k: (lambda k=k: volume(k)) for k in mods}
    runs["CuPy"] = lambda: nd.gaussian_filter(v, 2.0)
    print_times("gaussian_filter sigma 2 512^3 f32", rounds(runs, max(3, args.reps // 5)), {})


if __name__ == "__main__":
    main()
