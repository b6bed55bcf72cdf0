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
  cp.async into a second buffer while this tile computes (no registers
  held for them; one barrier a tile; the keys taken as the rows are
  read), as is and at __launch_bounds__(256, 3) and (256, 4).

Each is built as tiled.rs builds the committed program (boundary.cuh,
filters.cu and tiled.cu, the prototype, the float32 instance; C++17),
checked for the committed kernel's output bits on the bench's image and
on edge shapes (odd sizes, a batch, every mode, NaN, infinities and
signed zeros), then timed round-robin with CUDA events beside the
committed kernel and cupyx.scipy.ndimage.median_filter. No Rust needed.
Not yet run on a GPU. Compiled here with NVRTC 13 for sm_90: committed
80 registers, prefetch 115 (two blocks a multiprocessor), at (256, 3) 80
with 8 bytes spilled; cp.async 112, at (256, 3) 80 and at (256, 4) 64,
neither spilling (18 KB of shared memory a block). Both functions ran on
the host through crates/gpu-ndimage/tools/emulate/shim.h (cp.async as a
plain copy) beside the committed kernel: the same bits on 40 random
images up to 3 x 200 x 120 (every mode, origins, signed zeros,
infinities and NaNs, one to five blocks).
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from j0_variants import rounds  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
KERNELS = os.path.join(ROOT, "crates", "gpu-ndimage", "src", "kernels")
HEADERS = os.path.join(ROOT, "kernels")
THREADS, TILE_ROWS, TILE_COLS = 256, 64, 32
PARAMS = ("(const float* in, long long batch, long long n0, long long n1, long long a0, "
          "long long b0, int mode, double cval, float* out)")

# The committed function with its loads moved ahead of the previous
# tile's compute: `load` is the committed load phase for the tile `w`
# names, the store to shared memory and the compute are the committed
# ones.
PREFETCH = r"""
template <typename TI, typename TO>
__device__ __forceinline__ void median_prefetch(const TI* __restrict__ in, long long batch,
                                                long long n0, long long n1, long long a0,
                                                long long b0, int mode, double cval,
                                                TO* __restrict__ out) {
  using C = typename CuprumTiledCompare<TI>::type;
  using O = CuprumMedianOrder<C>;
  using K = typename O::K;
  constexpr int R = 8, W = 32, TY = (CUPRUM_TILED_THREADS / W) * R;
  constexpr int PITCH = W + 2, ROWS = TY + 2;
  constexpr int T = CUPRUM_TILED_THREADS;
  constexpr int FILL = (ROWS * PITCH + T - 1) / T;
  constexpr int RS = T / PITCH, ROUNDS = (ROWS + RS - 1) / RS;
  constexpr int NL = FILL > ROUNDS ? FILL : ROUNDS;
  __shared__ K tile[ROWS * PITCH];
  const int tid = threadIdx.x;
  const int col = tid % PITCH, r0 = tid / PITCH;
  const long long ty = (n0 + TY - 1) / TY, tx = (n1 + W - 1) / W;
  const long long tiles = batch * ty * tx;
  CuprumTileWalk walk(tx, ty);
  K v[NL];
  bool inside = false;
  auto load = [&](const CuprumTileWalk& w) {
    const TI* plane = in + w.z * n0 * n1;
    const long long p0 = w.ti * TY + a0, q0 = w.tj * W + b0;
    inside = p0 >= 0 && p0 + ROWS <= n0 && q0 >= 0 && q0 + PITCH <= n1;
    if (inside) {
      const TI* src = plane + (p0 + r0) * n1 + q0 + col;
      const long long step = (long long)RS * n1;
#pragma unroll
      for (int k = 0; k < NL; ++k) {
        v[k] = K(0);
        if (r0 < RS && r0 + k * RS < ROWS) {
          v[k] = O::key((C)*src);
          if (r0 + (k + 1) * RS < ROWS) src += step;
        }
      }
    } else {
#pragma unroll
      for (int k = 0; k < NL; ++k) {
        const int e = tid + k * T;
        v[k] = K(0);
        if (k < FILL && e < ROWS * PITCH) {
          long long p = p0 + e / PITCH, q = q0 + e % PITCH;
          if (p < 0 || p >= n0) p = cuprum_tiled_map(p, n0, mode);
          if (q < 0 || q >= n1) q = cuprum_tiled_map(q, n1, mode);
          v[k] = O::key(p < 0 || q < 0 ? (C)cval : (C)plane[p * n1 + q]);
        }
      }
    }
  };
  if ((long long)blockIdx.x < tiles) load(walk);
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
    __syncthreads();
#pragma unroll
    for (int k = 0; k < NL; ++k) {
      const int e = inside ? (r0 < RS ? (r0 + k * RS) * PITCH + col : ROWS * PITCH)
                           : (k < FILL ? tid + k * T : ROWS * PITCH);
      if (e < ROWS * PITCH) tile[e] = v[k];
    }
    __syncthreads();
    const long long z = walk.z, i0 = walk.ti * TY, j0 = walk.tj * W;
    walk.next();
    if (t + gridDim.x < tiles) load(walk);
    const int lane = tid % W, g = tid / W;
    K lo[R + 2], mid[R + 2], hi[R + 2];
#pragma unroll
    for (int r = 0; r < R + 2; ++r) {
      const K* row = tile + (g * R + r) * PITCH + lane;
      K a = row[0], b = row[1], c = row[2];
      cuprum_tiled_cx<O>(a, b);
      cuprum_tiled_cx<O>(b, c);
      cuprum_tiled_cx<O>(a, b);
      lo[r] = a;
      mid[r] = b;
      hi[r] = c;
    }
    const long long j = j0 + lane;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const K l = O::up(O::up(lo[r], lo[r + 1]), lo[r + 2]);
      const K h = O::down(O::down(hi[r], hi[r + 1]), hi[r + 2]);
      const K m = cuprum_tiled_med3<O>(l, cuprum_tiled_med3<O>(mid[r], mid[r + 1], mid[r + 2]), h);
      const long long i = i0 + g * R + r;
      if (i < n0 && j < n1)
        out[(z * n0 + i) * n1 + j] = cuprum_ndimage_from_double<TO>((double)O::value(m));
    }
  }
}
"""

# The raw inputs of the next tile copied into a second shared buffer by
# cp.async (no registers held) while this tile computes; one barrier a
# tile. Edge tiles' mapped loads stay synchronous stores. The keys are
# taken when the rows are read (three a row, not one a load).
ASYNC = r"""
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

template <typename TI, typename TO>
__device__ __forceinline__ void median_async(const TI* __restrict__ in, long long batch,
                                             long long n0, long long n1, long long a0,
                                             long long b0, int mode, double cval,
                                             TO* __restrict__ out) {
  using C = typename CuprumTiledCompare<TI>::type;
  using O = CuprumMedianOrder<C>;
  using K = typename O::K;
  constexpr int R = 8, W = 32, TY = (CUPRUM_TILED_THREADS / W) * R;
  constexpr int PITCH = W + 2, ROWS = TY + 2;
  constexpr int T = CUPRUM_TILED_THREADS;
  constexpr int FILL = (ROWS * PITCH + T - 1) / T;
  constexpr int RS = T / PITCH, ROUNDS = (ROWS + RS - 1) / RS;
  __shared__ TI raw[2][ROWS * PITCH];
  const int tid = threadIdx.x;
  const int col = tid % PITCH, r0 = tid / PITCH;
  const long long ty = (n0 + TY - 1) / TY, tx = (n1 + W - 1) / W;
  const long long tiles = batch * ty * tx;
  CuprumTileWalk walk(tx, ty);
  auto issue = [&](const CuprumTileWalk& w, TI* dst) {
    const TI* plane = in + w.z * n0 * n1;
    const long long p0 = w.ti * TY + a0, q0 = w.tj * W + b0;
    if (p0 >= 0 && p0 + ROWS <= n0 && q0 >= 0 && q0 + PITCH <= n1) {
      if (r0 < RS) {
        const TI* src = plane + (p0 + r0) * n1 + q0 + col;
        const long long step = (long long)RS * n1;
#pragma unroll
        for (int k = 0; k < ROUNDS; ++k) {
          if (r0 + k * RS < ROWS) {
            median_cp_async4(dst + (r0 + k * RS) * PITCH + col, src);
            if (r0 + (k + 1) * RS < ROWS) src += step;
          }
        }
      }
    } else {
#pragma unroll
      for (int k = 0; k < FILL; ++k) {
        const int e = tid + k * T;
        if (e < ROWS * PITCH) {
          long long p = p0 + e / PITCH, q = q0 + e % PITCH;
          if (p < 0 || p >= n0) p = cuprum_tiled_map(p, n0, mode);
          if (q < 0 || q >= n1) q = cuprum_tiled_map(q, n1, mode);
          dst[e] = p < 0 || q < 0 ? (TI)cval : plane[p * n1 + q];
        }
      }
    }
    median_cp_async_commit();
  };
  int buf = 0;
  if ((long long)blockIdx.x < tiles) issue(walk, raw[0]);
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
    median_cp_async_wait();
    // This tile's inputs visible to all; every thread done with the
    // other buffer (the previous tile's compute).
    __syncthreads();
    const long long z = walk.z, i0 = walk.ti * TY, j0 = walk.tj * W;
    walk.next();
    if (t + gridDim.x < tiles) issue(walk, raw[buf ^ 1]);
    const TI* tile = raw[buf];
    buf ^= 1;
    const int lane = tid % W, g = tid / W;
    K lo[R + 2], mid[R + 2], hi[R + 2];
#pragma unroll
    for (int r = 0; r < R + 2; ++r) {
      const TI* row = tile + (g * R + r) * PITCH + lane;
      K a = O::key((C)row[0]), b = O::key((C)row[1]), c = O::key((C)row[2]);
      cuprum_tiled_cx<O>(a, b);
      cuprum_tiled_cx<O>(b, c);
      cuprum_tiled_cx<O>(a, b);
      lo[r] = a;
      mid[r] = b;
      hi[r] = c;
    }
    const long long j = j0 + lane;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const K l = O::up(O::up(lo[r], lo[r + 1]), lo[r + 2]);
      const K h = O::down(O::down(hi[r], hi[r + 1]), hi[r + 2]);
      const K m = cuprum_tiled_med3<O>(l, cuprum_tiled_med3<O>(mid[r], mid[r + 1], mid[r + 2]), h);
      const long long i = i0 + g * R + r;
      if (i < n0 && j < n1)
        out[(z * n0 + i) * n1 + j] = cuprum_ndimage_from_double<TO>((double)O::value(m));
    }
  }
}
"""

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
    text += PREFETCH + ASYNC
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=30)
    args = ap.parse_args()
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
    times = rounds(runs, args.reps)
    print("| kernel (median 3 4096^2 f32) | registers | median ms | min ms |")
    print("|---|---|---|---|")
    for k, t in times.items():
        regs = fns[k][0].num_regs if k in fns else ""
        print("| %s | %s | %.4f | %.4f |" % (k, regs, statistics.median(t), min(t)))


if __name__ == "__main__":
    main()
