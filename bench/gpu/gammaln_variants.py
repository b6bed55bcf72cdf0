#!/usr/bin/env python3
"""float32 gammaln kernels beside CuPy, on the GPU machine: where the
bench row "special gammaln f32 2^28" loses its time.

    python3 bench/gpu/gammaln_variants.py [--reps 30] [--only 'maxnreg 32,warp']

The row (inputs (k % 1000) * 0.01 + 0.05, all positive) took 0.586 ms on
the H200 with CUDA's lgammaf alone (twelfth session), then 0.87-0.93 ms
once gamma.cuh took the double function below 0 and a Taylor series in
windows around the zeros at 1 and 2 (issue 20's 2 ulp; docs/benchmarks.md,
thirteenth session), against a goal of 0.65 ms. The input never takes
the path below 0, yet that path sets the kernel's registers: ptxas counts
the not-inlined double lgamma's into every thread (46 registers with it,
22 without; sm_90, NVRTC 13), so three quarters of the warps an SM could
hold do not fit. Candidates (gpu-array's vector loop, four floats a
thread, as j0_variants.py renders it), the same bits as gamma.cuh unless
said:

- "gamma.cuh": cuprum::special::gammaln as it is;
- "maxnreg 32": the same with `__maxnreg__(32)` on the kernel, as
  UfuncBuilder::max_registers renders it (the hot path stays spill-free;
  the call below 0 spills its return address), and 40;
- "windows as selects": the Taylor series computed at every x and
  selected, not branched to (a warp straddling a window runs lgammaf and
  the series either way), with and without the cap of 32;
- "no path below 0": diagnostic, wrong below 0 (lgammaf's 213 ulp);
- "windows as selects, no path below 0": diagnostic, what the windows
  cost once the registers are not in the way;
- "warp-contiguous": the same functions with a thread's four elements a
  block apart (WARP, below), so that a warp's lanes hold neighbours;
- "lgammaf only": diagnostic, the twelfth session's kernel.

Adopting a cap: `UfuncBuilder::max_registers(&["f->f"], N)`
(`__maxnreg__(N)` on that loop's kernels only) after the loops in
gpu-special's table/mod.rs `build`; gammaln's float64 loop (42
registers, E=2) spills under 32 in its hot path (40 costs it nothing),
so cap the float32 loop alone.

No Rust needed; seven NVRTC compiles and the timings, about a minute.
Not yet run on a GPU.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from j0_variants import BLOCK, HEADERS, VECTOR, print_times, rounds  # noqa: E402

FUNCS = r"""
__device__ __forceinline__ float lg_select(float x) {
  if (x == -__int_as_float(0x7f800000)) return x;
  if (x < 0.0f) return cuprum::special::detail::gammaln_via_double(x);
  const float l = ::lgammaf(x);
  const float t = cuprum::special::detail::gammaln_near_zeros(x);
  // |x - 1| < 0.1 or |x - 2| < 0.1 as gamma.cuh tests it (both exact
  // there: Sterbenz), in one compare.
  return (::fabsf(x - 1.0f) < 0.1f || ::fabsf(x - 2.0f) < 0.1f) ? t : l;
}
__device__ __forceinline__ float lg_positive(float x) {
  if (::fabsf(x - 1.0f) < 0.1f || ::fabsf(x - 2.0f) < 0.1f)
    return cuprum::special::detail::gammaln_near_zeros(x);
  return ::lgammaf(x);
}
__device__ __forceinline__ float lg_select_positive(float x) {
  const float l = ::lgammaf(x);
  const float t = cuprum::special::detail::gammaln_near_zeros(x);
  return (::fabsf(x - 1.0f) < 0.1f || ::fabsf(x - 2.0f) < 0.1f) ? t : l;
}
__device__ __forceinline__ float lg_lgammaf(float x) { return ::lgammaf(x); }
"""

PRELUDE = '#include "cuprum/elementwise.cuh"\n#include "cuprum/special/gamma.cuh"\n' + FUNCS

# name: (function, register cap or None, the same bits as gamma.cuh[,
# "warp" for the warp-contiguous loop below])
CANDS = {
    "gamma.cuh": ("cuprum::special::gammaln", None, True),
    "gamma.cuh, maxnreg 32": ("cuprum::special::gammaln", 32, True),
    "gamma.cuh, maxnreg 40": ("cuprum::special::gammaln", 40, True),
    "windows as selects": ("lg_select", None, True),
    "windows as selects, maxnreg 32": ("lg_select", 32, True),
    "no path below 0 (wrong below 0)": ("lg_positive", None, False),
    "windows as selects, no path below 0 (wrong below 0)": ("lg_select_positive", None, False),
    "lgammaf only (wrong near 1, 2, below 0)": ("lg_lgammaf", None, False),
    "warp-contiguous": ("cuprum::special::gammaln", None, True, "warp"),
    "warp-contiguous, maxnreg 32": ("cuprum::special::gammaln", 32, True, "warp"),
    "warp-contiguous, lgammaf only (wrong near 1, 2, below 0)": ("lg_lgammaf", None, False, "warp"),
}
E = 4

# A thread's E elements a block apart instead of side by side: lane l of a
# warp takes element 32 w + l of each of the block's E slices, so a warp's
# lanes hold 32 neighbours (a span of 0.32 of the bench's input, not
# 1.28) and cross fewer of lgammaf's and the windows' branch boundaries
# together; each load and store still 128 coalesced bytes a warp, as
# four 4-byte accesses a thread instead of one of 16.
WARP = r"""
extern "C" __global__ void k(const {T}* _p_x0, {T}* _p_y0, int _n) {
  typedef unsigned int _U;
  constexpr int _E = {E};
  const _U _chunk = (_U)blockDim.x * (_U)_E;
  const _U _nchunks = (_U)_n / _chunk;
  for (_U _c = blockIdx.x; _c < _nchunks; _c += gridDim.x) {
    const _U _base = _c * _chunk + threadIdx.x;
    {T} _v[_E];
#pragma unroll
    for (int _l = 0; _l < _E; ++_l) _v[_l] = _p_x0[_base + (_U)_l * blockDim.x];
#pragma unroll
    for (int _l = 0; _l < _E; ++_l) _p_y0[_base + (_U)_l * blockDim.x] = {F}(_v[_l]);
  }
  for (_U _j = _nchunks * _chunk + blockIdx.x * blockDim.x + threadIdx.x; _j < (_U)_n;
       _j += gridDim.x * blockDim.x)
    _p_y0[_j] = {F}(_p_x0[_j]);
}
"""


def build(fn, cap, loop="vector"):
    import cupy as cp
    attr = "__maxnreg__(%d) " % cap if cap else ""
    body = (VECTOR if loop == "vector" else WARP)
    body = (body.replace("{E}", str(E)).replace("{UNROLL}", "unroll").replace("{F}", fn)
            .replace("{T}", "float").replace("void k(", "void " + attr + "k("))
    mod = cp.RawModule(code=PRELUDE + body, options=("-std=c++17", "-I" + HEADERS))
    return mod.get_function("k")


def launch(fn, x, out):
    import numpy as np
    n = x.size
    fn((max(1, -(-n // (BLOCK * E))),), (BLOCK,), (x, out, np.int32(n)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--only", default="", help="the candidates whose names contain one of "
                    "these comma-separated words (with gamma.cuh, the reference)")
    args = ap.parse_args()
    import cupy as cp
    import cupyx.scipy.special as csp
    words = [w for w in args.only.split(",") if w]
    cands = {k: c for k, c in CANDS.items()
             if k == "gamma.cuh" or not words or any(w in k for w in words)}
    fns = {k: (build(*c[:2], *c[3:]), c[2]) for k, c in cands.items()}

    n = 1 << 28
    x = ((cp.arange(n, dtype=cp.float64) % 1000) * 0.01 + 0.05).astype(cp.float32)
    # [-12, 12] in steps of about 1e-5 (both windows, the poles, the zeros
    # below 0), the specials, and an odd length for the tail loop.
    fine = cp.arange(-1.2e6, 1.2e6, 0.97, dtype=cp.float64).astype(cp.float32) * 1e-5
    edge = cp.concatenate([x[:100003], fine, cp.asarray(
        [0.0, -0.0, cp.inf, -cp.inf, cp.nan, 1e-45, -1e-45, 3e38, -3e38, 0.9, 1.1, 1.9, 2.1,
         -2.0, -2.5, -2.4570247], dtype=cp.float32)])
    ref_fn, _ = fns["gamma.cuh"]
    for data in (x, edge):
        ref = cp.empty_like(data)
        launch(ref_fn, data, ref)
        for k, (fn, same) in fns.items():
            out = cp.full_like(data, 7.0)
            launch(fn, data, out)
            eq = bool(((out.view(cp.uint32) == ref.view(cp.uint32))
                       | (cp.isnan(out) & cp.isnan(ref))).all())
            diff = cp.abs(out.view(cp.int32).astype(cp.int64) - ref.view(cp.int32).astype(cp.int64))
            note = "same bits" if eq else "max %d ulp apart" % int(diff.max())
            flag = "" if eq or not same else "  <-- DIFFERS"
            print("%s, n=%d: %s%s" % (k, data.size, note, flag))

    out = cp.empty_like(x)
    runs = {k: (lambda fn=fn: launch(fn, x, out)) for k, (fn, _) in fns.items()}
    runs["CuPy cupyx.scipy.special.gammaln"] = lambda: csp.gammaln(x, out=out)
    print_times("gammaln f32 2^28", rounds(runs, args.reps), {k: v[0] for k, v in fns.items()})


if __name__ == "__main__":
    main()
