#!/usr/bin/env python3
"""median3x3 kernels beside the committed one and CuPy, on the GPU machine.

    python3 bench/gpu/median_variants.py [--reps 30]

The bench row "ndimage median_filter 3 4096^2 f32" runs gpu-ndimage's
median3x3 (crates/gpu-ndimage/src/kernels/tiled.cu) at 0.124 ms on the
H100 (33rd session; goal 0.08 on the H200, CuPy 0.356 here). Its compute
phase is 374 SASS instructions for a thread's 8 outputs (ptxas sm_90, 80
registers, three blocks of 256 a multiprocessor), about 35 us for the
image at four instructions a cycle, and the image's bytes are 43 us of
the H100's bandwidth: what the row spends beyond that is waiting. Each
block loads a tile, waits at the barrier, computes, and only then issues
the next tile's loads, so a multiprocessor's three blocks are its only
overlap. The candidates:

- "committed": tiled.rs's kernel and grid (8 blocks a multiprocessor,
  each walking its tiles with a grid stride);
- "committed, resident grid": 3 blocks a multiprocessor (the resident
  count: no second wave that leaves most of the machine idle at its end);
- "committed, a block a tile": no grid stride;
- "prefetch": the next tile's loads issued into registers before this
  tile's compute (its values wait in registers while the shared tile is
  read), at the committed grid, and the same with __launch_bounds__(256,
  3) and (256, 2);
- "cp.async": the next tile's raw inputs copied global-to-shared by
  cp.async into a buffer of their own while this tile computes (no
  registers held for them), turned into the keys of `tile` once they
  have landed, as is and at __launch_bounds__(256, 3) and (256, 4).

Both are made from tiled.cu's median function at run time (`--write
FILE` writes them), so they track it.

Each is built as tiled.rs builds the committed program (boundary.cuh,
filters.cu and tiled.cu, the prototype, the float32 instance; C++17),
checked for the committed kernel's output bits on the bench's image and
on edge shapes (odd sizes, a batch, every mode, NaN, infinities and
signed zeros), then timed round-robin with CUDA events beside the
committed kernel and cupyx.scipy.ndimage.median_filter. No Rust needed.
Not yet run on a GPU. Compiled here with NVRTC 13 for sm_90: committed
80 registers; prefetch 115 (two blocks a multiprocessor), 80 at (256, 3)
with 8 bytes spilled; cp.async 104, 80 at (256, 3) without spills, 64 at
(256, 4) with 36 bytes spilled (18 KB of shared memory a block). Both
functions ran on the host through crates/gpu-ndimage/tools/emulate/shim.h
(cp.async as a plain copy) beside the committed kernel: the same bits on
40 random images up to 3 x 200 x 120 (every mode, origins, signed zeros,
infinities and NaNs, one to five blocks walking many tiles each).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from j0_variants import harness_args, print_times, rounds  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
KERNELS = os.path.join(ROOT, "crates", "gpu-ndimage", "src", "kernels")
HEADERS = os.path.join(ROOT, "kernels")
THREADS, TILE_ROWS, TILE_COLS = 256, 64, 32
PARAMS = ("(const float* in, long long batch, long long n0, long long n1, long long a0, "
          "long long b0, int mode, double cval, float* out)")

# Both candidates are made from tiled.cu's own median function at run
# time (the anchors they need are asserted), so they track it.
HEAD = """  CuprumTileWalk walk(tx, ty);
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x, walk.next()) {
    const long long z = walk.z;
    const long long i0 = walk.ti * TY, j0 = walk.tj * W;
    const TI* plane = in + z * n0 * n1;
    const long long p0 = i0 + a0, q0 = j0 + b0;
    const bool inside = p0 >= 0 && p0 + ROWS <= n0 && q0 >= 0 && q0 + PITCH <= n1;
    K v[NL];
"""
STORE = """    __syncthreads();  // the last tile's readers are done with `tile`
#pragma unroll
    for (int k = 0; k < NL; ++k) {
      const int e = inside ? (r0 < RS ? (r0 + k * RS) * PITCH + col : ROWS * PITCH)
                           : (k < FILL ? tid + k * T : ROWS * PITCH);
      if (e < ROWS * PITCH) tile[e] = v[k];
    }
    __syncthreads();
"""
# The loop's head once the loads have moved out of it.
LOOP = """  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
    const long long z = walk.z;
    const long long i0 = walk.ti * TY, j0 = walk.tj * W;
"""
# The tile `w` names: its plane, corner and whether its box is inside.
WHERE = """    const TI* plane = in + w.z * n0 * n1;
    const long long p0 = w.ti * TY + a0, q0 = w.tj * W + b0;
    inside = p0 >= 0 && p0 + ROWS <= n0 && q0 >= 0 && q0 + PITCH <= n1;
"""


def committed_median(tiled):
    """tiled.cu's median function, and its load phase (the branch on
    `inside` that fills `v`)."""
    start = tiled.index("template <typename TI, typename TO>\n"
                        "__device__ __forceinline__ void cuprum_tiled_median3x3(")
    f = tiled[start:tiled.index("#define CUPRUM_NDIMAGE_MEDIAN3X3")]
    loads = f[f.index(HEAD) + len(HEAD):f.index(STORE)]
    assert loads.startswith("    if (inside) {"), "median3x3's loop moved"
    return f, loads


def prefetch_function(tiled):
    """The next tile's loads into registers (`v`) right after this tile's
    are in shared memory, so that they fly during its compute."""
    f, loads = committed_median(tiled)
    f = f.replace("void cuprum_tiled_median3x3(", "void median_prefetch(")
    f = f.replace(HEAD + loads, """  CuprumTileWalk walk(tx, ty);
  K v[NL];
  bool inside = false;
  auto load = [&](const CuprumTileWalk& w) {
""" + WHERE + loads + """  };
  if ((long long)blockIdx.x < tiles) load(walk);
""" + LOOP)
    return f.replace(STORE, STORE + """    walk.next();
    if (t + gridDim.x < tiles) load(walk);
""")


CP_ASYNC = r"""
__device__ __forceinline__ void median_cp_async4(void* smem, const void* gmem) {
  const unsigned s = (unsigned)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(s), "l"(gmem) : "memory");
}
__device__ __forceinline__ void median_cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
__device__ __forceinline__ void median_cp_async_wait() {
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
}
"""


def async_function(tiled):
    """The next tile's raw inputs copied by cp.async into a shared buffer
    `raw` (no registers held) right after this tile's have been turned
    into keys in `tile`; the edge tiles' mapped loads stay plain stores
    into `raw` (float input: cval is a float, tiled.rs's cval_exact)."""
    f, loads = committed_median(tiled)
    inside_start = loads.index("    if (inside) {\n") + len("    if (inside) {\n")
    edge_start = loads.index("    } else {\n")
    edge = loads[edge_start + len("    } else {\n"):]
    for old, new in (("        v[k] = K(0);\n", ""),
                     ("          v[k] = O::key(p < 0 || q < 0 ? (C)cval : (C)plane[p * n1 + q]);",
                      "          raw[e] = p < 0 || q < 0 ? (TI)cval : plane[p * n1 + q];")):
        assert old in edge, "median3x3's edge loads moved"
        edge = edge.replace(old, new)
    assert inside_start < edge_start
    f = f.replace("void cuprum_tiled_median3x3(", "void median_async(")
    f = f.replace(HEAD + loads, """  CuprumTileWalk walk(tx, ty);
  __shared__ TI raw[ROWS * PITCH];
  bool inside = false;
  auto issue = [&](const CuprumTileWalk& w) {
""" + WHERE + """    if (inside) {
      if (r0 < RS) {
        const TI* src = plane + (p0 + r0) * n1 + q0 + col;
        const long long step = (long long)RS * n1;
#pragma unroll
        for (int k = 0; k < ROUNDS; ++k) {
          if (r0 + k * RS < ROWS) {
            median_cp_async4(raw + (r0 + k * RS) * PITCH + col, src);
            if (r0 + (k + 1) * RS < ROWS) src += step;
          }
        }
      }
    } else {
""" + edge + """    median_cp_async_commit();
  };
  if ((long long)blockIdx.x < tiles) issue(walk);
""" + LOOP)
    return CP_ASYNC + f.replace(STORE, """    median_cp_async_wait();
    __syncthreads();  // `raw` complete; the last tile's readers are done with `tile`
#pragma unroll
    for (int k = 0; k < FILL; ++k) {
      const int e = tid + k * T;
      if (e < ROWS * PITCH) tile[e] = O::key((C)raw[e]);
    }
    __syncthreads();  // `raw` free for the next tile
    walk.next();
    if (t + gridDim.x < tiles) issue(walk);
""")


# name: (kernel body or None for the committed macro, launch bounds'
# minimum blocks or None, blocks a multiprocessor or None for one a tile)
CANDS = {
    "committed": (None, None, 8),
    "committed, resident grid": (None, None, 3),
    "committed, a block a tile": (None, None, None),
    "prefetch": ("median_prefetch", None, 8),
    "prefetch, bounds (256, 3)": ("median_prefetch", 3, 8),
    "prefetch, bounds (256, 3), resident grid": ("median_prefetch", 3, 3),
    "prefetch, bounds (256, 2)": ("median_prefetch", 2, 8),
    "cp.async": ("median_async", None, 8),
    "cp.async, resident grid": ("median_async", None, 3),
    "cp.async, bounds (256, 3)": ("median_async", 3, 8),
    "cp.async, bounds (256, 4)": ("median_async", 4, 8),
    "cp.async, bounds (256, 4), resident grid": ("median_async", 4, 4),
}


def source(body, min_blocks):
    text = "".join(open(os.path.join(KERNELS, f)).read()
                   for f in ("boundary.cuh", "filters.cu", "tiled.cu"))
    text += prefetch_function(text) + async_function(text)
    name = "cuprum_ndimage_median3x3_float32_float32"
    text += 'extern "C" __global__ void %s%s;\n' % (name, PARAMS)
    if body is None:
        return text + "CUPRUM_NDIMAGE_MEDIAN3X3(%s, float, float)\n" % name, name
    bounds = "%d, %d" % (THREADS, min_blocks) if min_blocks else str(THREADS)
    text += ('extern "C" __global__ void __launch_bounds__(%s) %s%s {\n'
             '  %s<float, float>(in, batch, n0, n1, a0, b0, mode, cval, out);\n}\n'
             % (bounds, name, PARAMS, body))
    return text, name


def build(body, min_blocks):
    import cupy as cp
    text, name = source(body, min_blocks)
    mod = cp.RawModule(code=text, options=("-std=c++17", "-I" + HEADERS))
    return mod.get_function(name)


def launch(fn, per_sm, x, out, mode=0, cval=0.0):
    import cupy as cp
    import numpy as np
    batch, n0, n1 = x.shape
    tiles = batch * -(-n0 // TILE_ROWS) * -(-n1 // TILE_COLS)
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    blocks = tiles if per_sm is None else min(tiles, sms * per_sm)
    fn((blocks,), (THREADS,), (x, np.int64(batch), np.int64(n0), np.int64(n1), np.int64(-1),
                               np.int64(-1), np.int32(mode), np.float64(cval), out))


def write_functions(path):
    tiled = open(os.path.join(KERNELS, "tiled.cu")).read()
    with open(path, "w") as f:
        f.write(prefetch_function(tiled) + async_function(tiled))


def main():
    args = harness_args(write_functions)
    import cupy as cp
    import cupyx.scipy.ndimage as nd
    fns = {k: (build(b, m), g) for k, (b, m, g) in CANDS.items()}
    for k, (fn, _) in fns.items():
        print("%s: %s registers" % (k, fn.num_regs))

    side = 4096
    img = ((cp.arange(side * side, dtype=cp.float64) % 1000) * 0.001).astype(cp.float32)
    img = img.reshape(1, side, side)
    rng = cp.random.default_rng(7)
    cases = [(img, 0, 0.0)]
    for shape in [(1, 1, 1), (1, 3, 5), (1, 67, 33), (3, 130, 97), (2, 65, 34), (1, 200, 1)]:
        x = rng.standard_normal(shape, dtype=cp.float32)
        flat = x.reshape(-1)
        flat[::7] = 0.0
        flat[1::11] = -0.0
        flat[2::13] = cp.nan
        flat[3::17] = cp.inf
        flat[4::19] = -cp.inf
        for mode in range(5):
            cases.append((x, mode, 0.5 if mode == 1 else 0.0))
    ref_fn, ref_grid = fns["committed"]
    for x, mode, cval in cases:
        ref = cp.empty_like(x)
        launch(ref_fn, ref_grid, x, ref, mode, cval)
        for k, (fn, grid) in fns.items():
            out = cp.full_like(x, 7.0)
            launch(fn, grid, x, out, mode, cval)
            if not bool((out.view(cp.uint32) == ref.view(cp.uint32)).all()):
                print("%s DIFFERS on %s mode %d" % (k, x.shape, mode))
    print("checked %d cases" % len(cases))

    out = cp.empty_like(img)
    runs = {k: (lambda fn=fn, g=g: launch(fn, g, img, out)) for k, (fn, g) in fns.items()}
    img2 = img.reshape(side, side)
    runs["CuPy ndimage.median_filter"] = lambda: nd.median_filter(img2, 3)
    print_times("median 3 4096^2 f32", rounds(runs, args.reps), {k: v[0] for k, v in fns.items()})


if __name__ == "__main__":
    main()
