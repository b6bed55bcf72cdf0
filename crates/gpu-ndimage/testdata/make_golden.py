#!/usr/bin/env python3
"""SciPy's outputs for gpu-ndimage's filters: the oracle of
crates/gpu-ndimage/tests/gpu/filters.rs. Run `python3 make_golden.py OUTDIR`
(OUTDIR defaults to this folder); needs NumPy 2 and SciPy.

Writes OUTDIR/filters_golden.npz. Each case NAME has the input `NAME.x`
(C-contiguous), SciPy's output `NAME.y`, and for the weighted n-D and
footprint cases `NAME.w`. NAME is `func__k=v__...`: `mode`, `cval`,
`origin` (comma-separated for sequences), `axis`, `size`, `sigma`,
`order`, `out` (an output dtype, `-` for the input's), `t` (1: the test
transposes `x` before filtering, and SciPy filtered `x.T`), `i` (a case
number keeping names unique).
"""

import sys
import warnings
from pathlib import Path

import numpy as np
from scipy import ndimage as nd

rng = np.random.default_rng(20260523)
cases = {}
MODES = ["reflect", "constant", "nearest", "mirror", "wrap",
         "grid-constant", "grid-mirror", "grid-wrap"]


def data(shape, dtype):
    if np.dtype(dtype).kind == "f":
        return rng.standard_normal(shape).astype(dtype) * 4
    if np.dtype(dtype).kind == "u":
        return rng.integers(0, 200, shape).astype(dtype)
    return rng.integers(-100, 100, shape).astype(dtype)


def put(func, x, y, w=None, **p):
    p["i"] = len(cases)
    name = func + "".join(f"__{k}={v}" for k, v in p.items())
    cases[name + ".x"] = np.ascontiguousarray(x)
    cases[name + ".y"] = np.ascontiguousarray(y)
    if w is not None:
        cases[name + ".w"] = np.ascontiguousarray(w)


def src(x, t):
    return x.T if t else x


def one_d():
    shapes = [(9,), (6, 5), (3, 4, 5)]
    weights = {"sym": [1.0, 2.0, 1.0], "two": [1.0, 3.0],
               "gen": [0.5, -1.0, 2.0, 0.25], "anti": [-1.0, 0.0, 1.0]}
    dts = ("float64", "float32", "int32", "uint8")
    for si, shape in enumerate(shapes):
        for mi, mode in enumerate(MODES):
            # one dtype a (shape, mode), every dtype over the modes
            x = data(shape, dts[(si + mi) % 4])
            if True:
                for wn, w in weights.items():
                    for origin in sorted({0, -(len(w) // 2), (len(w) - 1) // 2}):
                        axis = -1 if len(shape) < 2 else (len(shape) - 2)
                        t = int(len(shape) == 2 and wn == "gen")
                        y = nd.correlate1d(src(x, t), w, axis, None, mode, 1.5, origin)
                        put("correlate1d", x, y, np.array(w), mode=mode, cval=1.5,
                            origin=origin, axis=axis, out="-", t=t)
                        if wn != "sym":
                            y = nd.convolve1d(src(x, t), w, axis, None, mode, 1.5, origin)
                            put("convolve1d", x, y, np.array(w), mode=mode, cval=1.5,
                                origin=origin, axis=axis, out="-", t=t)
                for size, origin in ((3, 0), (4, -2), (5, 1)):
                    for func in ("uniform_filter1d", "minimum_filter1d", "maximum_filter1d"):
                        y = getattr(nd, func)(x, size, 0, None, mode, -2.0, origin)
                        put(func, x, y, mode=mode, cval=-2.0, origin=origin, axis=0,
                            size=size, out="-", t=0)
    x = data((7, 8), "float64")
    for out in ("float32", "int16"):
        y = nd.correlate1d(x, [0.3, 0.7], 1, out, "reflect", 0.0, 0)
        put("correlate1d", x, y, np.array([0.3, 0.7]), mode="reflect", cval=0.0,
            origin=0, axis=1, out=out, t=0)


def gaussian():
    dts = ("float64", "float32", "uint8")
    for si, shape in enumerate(((31,), (12, 13), (5, 6, 7))):
        for dt in dts:
            x = data(shape, dt)
            for mode in MODES[si % 3::3] if dt != "float64" else MODES:
                for sigma, order in ((1.5, 0), (1.0, 1), (2.0, 2), (0.8, 3)):
                    if dt == "uint8" and order:
                        continue
                    for t in (0, 1) if len(shape) == 2 else (0,):
                        y = nd.gaussian_filter(src(x, t), sigma, order, None, mode, 0.5)
                        put("gaussian_filter", x, y, mode=mode, cval=0.5, sigma=sigma,
                            order=order, out="-", t=t)
                y = nd.gaussian_filter1d(x, 1.2, 0, 1, np.float64, mode, 0.5)
                put("gaussian_filter1d", x, y, mode=mode, cval=0.5, sigma=1.2, order=1,
                    axis=0, out="float64", t=0)
            for func in ("uniform_filter", "minimum_filter", "maximum_filter",
                         "median_filter"):
                for size in (3, 4):
                    y = getattr(nd, func)(x, size, mode="nearest")
                    put(func, x, y, mode="nearest", cval=0.0, size=size, origin=0,
                        out="-", t=0)
            for func in ("sobel", "prewitt"):
                y = getattr(nd, func)(x.astype("float64"), 0, mode="reflect")
                put(func, x.astype("float64"), y, mode="reflect", cval=0.0, axis=0,
                    out="-", t=0)
            xf = x.astype("float64")
            put("laplace", xf, nd.laplace(xf, mode="mirror"), mode="mirror", cval=0.0,
                out="-", t=0)
            put("gaussian_laplace", xf, nd.gaussian_laplace(xf, 1.3, mode="wrap"),
                mode="wrap", cval=0.0, sigma=1.3, out="-", t=0)
            put("gaussian_gradient_magnitude", xf,
                nd.gaussian_gradient_magnitude(xf, 1.1, mode="nearest"),
                mode="nearest", cval=0.0, sigma=1.1, out="-", t=0)


def footprints():
    dts = ("float64", "float32", "int16")
    for si, (shape, wshape) in enumerate((((12,), (4,)), ((9, 10), (3, 4)),
                                         ((5, 6, 7), (3, 2, 3)))):
        w = rng.standard_normal(wshape)
        fp = rng.random(wshape) > 0.4
        fp.flat[0] = True
        fp.flat[-1] = True
        for mi, mode in enumerate(MODES):
            x = data(shape, dts[(si + mi) % 3])
            if True:
                for origin in (0, -1):
                    for func in ("correlate", "convolve"):
                        y = getattr(nd, func)(x, w, None, mode, 0.75, origin)
                        put(func, x, y, w, mode=mode, cval=0.75, origin=origin, out="-",
                            t=0)
                    for func in ("minimum_filter", "maximum_filter", "median_filter"):
                        y = getattr(nd, func)(x, footprint=fp, mode=mode, cval=0.75,
                                              origin=origin)
                        put(func, x, y, fp.astype(np.float64), mode=mode, cval=0.75,
                            origin=origin, out="-", t=0)
                    y = nd.rank_filter(x, -2, footprint=fp, mode=mode, cval=0.75,
                                       origin=origin)
                    put("rank_filter", x, y, fp.astype(np.float64), mode=mode, cval=0.75,
                        origin=origin, rank=-2, out="-", t=0)
                    y = nd.percentile_filter(x, 30, footprint=fp, mode=mode, cval=0.75,
                                             origin=origin)
                    put("percentile_filter", x, y, fp.astype(np.float64), mode=mode,
                        cval=0.75, origin=origin, pct=30, out="-", t=0)


def complex_data():
    """Complex inputs, filtered as SciPy does by their real and imaginary
    parts (`_complex_via_real_components`); a real `out=` dtype is
    promoted to complex, with SciPy's warning. Its own generator, so the
    real cases above keep their data."""
    crng = np.random.default_rng(20261206)
    w1 = np.array([0.5, -1.0, 2.0, 0.25])
    w2 = crng.standard_normal((3, 2))
    for shape in ((9,), (6, 5)):
        for dt in ("complex64", "complex128"):
            x = (crng.standard_normal(shape) + 1j * crng.standard_normal(shape)).astype(dt)
            for mode in ("constant", "reflect", "wrap"):
                for origin in (0, -1):
                    y = nd.correlate1d(x, w1, -1, None, mode, 1.5, origin)
                    put("correlate1d", x, y, w1, mode=mode, cval=1.5, origin=origin,
                        axis=-1, out="-", t=0)
                    y = nd.convolve1d(x, w1, 0, None, mode, 1.5, origin)
                    put("convolve1d", x, y, w1, mode=mode, cval=1.5, origin=origin,
                        axis=0, out="-", t=0)
                y = nd.uniform_filter1d(x, 3, -1, None, mode, 1.5, 0)
                put("uniform_filter1d", x, y, mode=mode, cval=1.5, origin=0, axis=-1,
                    size=3, out="-", t=0)
                y = nd.uniform_filter(x, 3, None, mode, 1.5, 0)
                put("uniform_filter", x, y, mode=mode, cval=1.5, origin=0, size=3,
                    out="-", t=0)
                for sigma, order in ((1.5, 0), (1.0, 1)):
                    y = nd.gaussian_filter(x, sigma, order, None, mode, 1.5)
                    put("gaussian_filter", x, y, mode=mode, cval=1.5, sigma=sigma,
                        order=order, out="-", t=0)
                y = nd.gaussian_filter1d(x, 1.2, 0, 0, None, mode, 1.5)
                put("gaussian_filter1d", x, y, mode=mode, cval=1.5, sigma=1.2, order=0,
                    axis=0, out="-", t=0)
                for func in ("sobel", "prewitt"):
                    y = getattr(nd, func)(x, 0, mode=mode, cval=1.5)
                    put(func, x, y, mode=mode, cval=1.5, axis=0, out="-", t=0)
                put("laplace", x, nd.laplace(x, mode=mode, cval=1.5), mode=mode, cval=1.5,
                    out="-", t=0)
                put("gaussian_laplace", x, nd.gaussian_laplace(x, 1.3, mode=mode, cval=1.5),
                    mode=mode, cval=1.5, sigma=1.3, out="-", t=0)
                if len(shape) == 2:
                    for func in ("correlate", "convolve"):
                        y = getattr(nd, func)(x, w2, None, mode, 1.5, 0)
                        put(func, x, y, w2, mode=mode, cval=1.5, origin=0, out="-", t=0)
            for out in ("complex128", "float32"):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    y = nd.correlate1d(x, w1, 0, np.dtype(out), "nearest", 0.0, 0)
                put("correlate1d", x, y, w1, mode="nearest", cval=0.0, origin=0, axis=0,
                    out=out, t=0)


one_d()
gaussian()
footprints()
complex_data()
out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
out.mkdir(parents=True, exist_ok=True)
np.savez_compressed(out / "filters_golden.npz", **cases)
print(len(cases) // 2, "cases,", (out / "filters_golden.npz").stat().st_size, "bytes")
