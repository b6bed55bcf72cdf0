#!/usr/bin/env python3
"""j0 float64 kernels (and j1, y0, y1) as gpu-array's vector loop and as
one element a thread, beside CuPy, on the GPU machine.

    python3 bench/gpu/j0_variants.py [--reps 30]

The bench row "special j0 f64 2^27" (inputs (k % 1000) * 0.05, so half
below 25, where cuprum::special::j0 calls CUDA's libdevice j0 as CuPy
does, and half at 25..50, Hankel's expansion in bessel.cuh) ran 5% behind
CuPy on the H100. Both are bound by FP64 instructions. gpu-array's
contiguous vector loop (two doubles a thread, the loop over them
unrolled, and the scalar tail) inlines j0 three times (2166 SASS
instructions, CuPy's kernel 698). Candidates, the same bits unless said:

- "vector loop": the loop as gpu-array renders it for a vectorizable
  ufunc (j0's before 854192b);
- "unroll 1": the two elements of a thread in a loop, not unrolled;
- "scalar": one element a thread (one copy), what gpu-special's j0, j1,
  y0 and y1 run since 854192b (`UfuncBuilder::scalar_loop`);
- "far out of line": Hankel's branch a call;
- "libdevice only": CUDA's j0 at every x (CuPy's; not the same bits at
  25..50, nor SciPy's accuracy there; the cost of the far branch).

Each kernel is the text gpu-array renders for the float64 loop (the
template below), compiled by CuPy's NVRTC with the crate's headers
(kernels/), and timed round-robin with CUDA events beside
cupyx.scipy.special on the bench's input; then the other special bench
rows (i0e, digamma, gammaln, erf) and j1, y0, y1, each both ways beside
CuPy. No Rust needed; 20 NVRTC compiles and the timings, a minute or two.
On the H200 (docs/benchmarks.md, 32nd session):
j0 vector loop 1.000 ms, scalar 0.922, CuPy 0.938; the others not yet
run.
"""
import argparse
import os
import statistics

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
HEADERS = os.path.join(ROOT, "kernels")
BLOCK = 256

# gpu-array's contiguous loop for a unary float64 ufunc, as render.rs
# writes it (vector loop, then the scalar tail), with {UNROLL} for the
# pragma of the loop over a vector's elements, {E} elements a vector and
# {F} the function of elements of type {T}.
VECTOR = r"""
extern "C" __global__ void k(const {T}* _p_x0, {T}* _p_y0, int _n) {
  typedef unsigned int _U;
  const _U _tid = (_U)blockIdx.x * (_U)blockDim.x + (_U)threadIdx.x;
  const _U _step = (_U)gridDim.x * (_U)blockDim.x;
  const _U _total = (_U)_n;
  constexpr int _E = {E};
  const _U _nvec = _total / (_U)_E;
  for (_U _v = _tid; _v < _nvec; _v += _step) {
    alignas(16) {T} _v_x0[_E];
    cuprum::vload<_E>(_v_x0, _p_x0 + _v * (_U)_E);
    alignas(16) {T} _v_y0[_E];
#pragma {UNROLL}
    for (int _l = 0; _l < _E; ++_l) _v_y0[_l] = {F}(_v_x0[_l]);
    cuprum::vstore<_E>(_p_y0 + _v * (_U)_E, _v_y0);
  }
  for (_U _j = _nvec * _E + _tid; _j < _total; _j += _step) _p_y0[_j] = {F}(_p_x0[_j]);
}
"""

SCALAR = r"""
extern "C" __global__ void k(const {T}* _p_x0, {T}* _p_y0, int _n) {
  typedef unsigned int _U;
  const _U _tid = (_U)blockIdx.x * (_U)blockDim.x + (_U)threadIdx.x;
  const _U _step = (_U)gridDim.x * (_U)blockDim.x;
  for (_U _j = _tid; _j < (_U)_n; _j += _step) _p_y0[_j] = {F}(_p_x0[_j]);
}
"""

# j0 with Hankel's branch out of line, and libdevice's j0 everywhere,
# with bessel.cuh's special values.
FUNCS = r"""
__device__ __noinline__ double j0_far(double ax) {
  double j, y;
  cuprum::special::detail::hankel01(0, ax, j, y);
  return j;
}
__device__ __forceinline__ double j0_outofline(double x) {
  if (cuprum::special::detail::is_inf(x)) return cuprum::special::detail::nan();
  const double ax = ::fabs(x);
  return ax < 25.0 ? ::j0(x) : j0_far(ax);
}
__device__ __forceinline__ double j0_libdevice(double x) {
  if (cuprum::special::detail::is_inf(x)) return cuprum::special::detail::nan();
  return ::j0(x);
}
"""

PRELUDE = ('#include "cuprum/elementwise.cuh"\n#include "cuprum/special/bessel.cuh"\n'
           '#include "cuprum/special/gamma.cuh"\n#include "cuprum/special/erf.cuh"\n' + FUNCS)

# name: (template, elements a thread, unroll pragma, function, same bits)
CANDS = {
    "vector loop (E=2, unrolled)": (VECTOR, 2, "unroll", "cuprum::special::j0", True),
    "unroll 1 (E=2)": (VECTOR, 2, "unroll 1", "cuprum::special::j0", True),
    "scalar (E=1)": (SCALAR, 1, "", "cuprum::special::j0", True),
    "far out of line (E=2)": (VECTOR, 2, "unroll", "j0_outofline", True),
    "far out of line, scalar": (SCALAR, 1, "", "j0_outofline", True),
    "libdevice only (E=2)": (VECTOR, 2, "unroll", "j0_libdevice", False),
}
# The other special bench rows (and j0's siblings j1, y0, y1, which share
# its shape): each as the vector loop and one element a thread, on its
# bench row's input (ramp: (k % 1000) * scale + offset), to see which
# bodies the scalar loop pays for. (name, C type, n, scale, offset)
OTHERS = [
    ("j1", "double", 1 << 27, 0.05, 0.0),
    ("y0", "double", 1 << 27, 0.05, 0.0),
    ("y1", "double", 1 << 27, 0.05, 0.0),
    ("i0e", "double", 1 << 27, 0.05, 0.0),
    ("digamma", "double", 1 << 27, 0.02, 0.01),
    ("gammaln", "float", 1 << 28, 0.01, 0.05),
    ("erf", "float", 1 << 28, 0.004, -2.0),
]


def build(template, e, unroll, fn, ctype="double"):
    import cupy as cp
    body = (template.replace("{E}", str(e)).replace("{UNROLL}", unroll).replace("{F}", fn)
            .replace("{T}", ctype))
    mod = cp.RawModule(code=PRELUDE + body, options=("-std=c++17", "-I" + HEADERS))
    return mod.get_function("k")


def launch(fn, e, x, out):
    import numpy as np
    n = x.size
    blocks = max(1, -(-n // (BLOCK * e)))
    fn((blocks,), (BLOCK,), (x, out, np.int32(n)))


def rounds(runs, reps):
    """Each of `runs` timed `reps` times round-robin with CUDA events (the
    mean of five calls a round, after one warm-up each): {name: [ms]}."""
    import cupy as cp
    times = {k: [] for k in runs}
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for f in runs.values():
        f()
    cp.cuda.Device().synchronize()
    for _ in range(reps):
        for k, f in runs.items():
            start.record()
            for _ in range(5):
                f()
            stop.record()
            stop.synchronize()
            times[k].append(cp.cuda.get_elapsed_time(start, stop) / 5)
    return times


def harness_args(write=None, what="the candidates' functions"):
    """The harnesses' arguments: --reps, and where `write(path)` is given,
    --write FILE, which writes `what` there (the kernel text the candidates
    are made of, for the host emulator) and exits."""
    import sys
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=30)
    if write:
        ap.add_argument("--write", help="write %s to this file and stop" % what)
    args = ap.parse_args()
    if write and args.write:
        write(args.write)
        sys.exit(0)
    return args


def print_times(title, times, regs):
    """The table of `rounds`' times, a row a kernel: `regs` maps a name to
    its function (for its register count) where it has one."""
    print("| kernel (%s) | registers | median ms | min ms |" % title)
    print("|---|---|---|---|")
    for k, t in times.items():
        r = getattr(regs[k], "num_regs", "?") if k in regs else ""
        print("| %s | %s | %.4f | %.4f |" % (k, r, statistics.median(t), min(t)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=30)
    args = ap.parse_args()
    import cupy as cp
    import cupyx.scipy.special as csp
    fns = {k: (build(t, e, u, f), e, same) for k, (t, e, u, f, same) in CANDS.items()}

    # The same bits as the vector loop, on the bench's ramp and on
    # odd lengths, signs, zeros, infinities and NaN.
    n = 1 << 27
    x = (cp.arange(n, dtype=cp.float64) % 1000) * 0.05
    edge = cp.concatenate([x[:100003], -x[:1001], cp.asarray([0.0, -0.0, cp.inf, -cp.inf, cp.nan,
                                                              24.999999999999996, 25.0])])
    ref_fn, e0, _ = fns["vector loop (E=2, unrolled)"]
    for data in (x, edge):
        ref = cp.empty_like(data)
        launch(ref_fn, e0, data, ref)
        for k, (fn, e, same) in fns.items():
            out = cp.full_like(data, 7.0)
            launch(fn, e, data, out)
            eq = bool(((out.view(cp.uint64) == ref.view(cp.uint64))
                       | (cp.isnan(out) & cp.isnan(ref))).all())
            note = "same bits" if eq else "max |diff| %.3g" % float(cp.nanmax(cp.abs(out - ref)))
            flag = "" if eq or not same else "  <-- DIFFERS"
            print("%s, n=%d: %s%s" % (k, data.size, note, flag))

    out = cp.empty_like(x)
    runs = {k: (lambda fn=fn, e=e: launch(fn, e, x, out)) for k, (fn, e, _) in fns.items()}
    runs["CuPy cupyx.scipy.special.j0"] = lambda: csp.j0(x, out=out)
    print_times("j0 f64 2^27", rounds(runs, args.reps), {k: v[0] for k, v in fns.items()})
    del x, out, edge

    print("| function | vector loop ms (regs) | scalar ms (regs) | CuPy ms | same bits |")
    print("|---|---|---|---|---|")
    for name, ctype, n, scale, offset in OTHERS:
        dt = cp.float64 if ctype == "double" else cp.float32
        e = 16 // cp.dtype(dt).itemsize
        f = "cuprum::special::" + name
        vec = build(VECTOR, e, "unroll", f, ctype)
        sca = build(SCALAR, 1, "", f, ctype)
        x = ((cp.arange(n, dtype=cp.float64) % 1000) * scale + offset).astype(dt)
        a, b = cp.empty_like(x), cp.empty_like(x)
        launch(vec, e, x, a)
        launch(sca, 1, x, b)
        ui = cp.uint64 if ctype == "double" else cp.uint32
        same = bool(((a.view(ui) == b.view(ui)) | (cp.isnan(a) & cp.isnan(b))).all())
        runs = {"vec": lambda: launch(vec, e, x, a), "sca": lambda: launch(sca, 1, x, b),
                "cupy": lambda: getattr(csp, name)(x, out=a)}
        med = {k: statistics.median(v) for k, v in rounds(runs, args.reps).items()}
        print("| %s %s 2^%d | %.4f (%s) | %.4f (%s) | %.4f | %s |" % (
            name, "f64" if ctype == "double" else "f32", n.bit_length() - 1, med["vec"],
            vec.num_regs, med["sca"], sca.num_regs, med["cupy"], "yes" if same else "NO"))
        del x, a, b


if __name__ == "__main__":
    main()
