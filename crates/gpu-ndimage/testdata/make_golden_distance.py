#!/usr/bin/env python3
"""SciPy's outputs for gpu-ndimage's distance transforms: the oracle of
crates/gpu-ndimage/tests/gpu/distance.rs. Run
`python3 make_golden_distance.py OUTDIR` (OUTDIR defaults to this folder);
needs NumPy 2 and SciPy.

Writes OUTDIR/golden_distance.npz. Each case NAME is `kind__k=v__...`
(`i`, a case number, keeps names unique) with members:

- `edt`: `x` the input, `s` the sampling (absent for None; one value:
  SciPy got the scalar), `y` SciPy's distances (float64), `ft` its
  indices (int32, `(ndim, *shape)`); `t=1`: SciPy transformed `x.T`, and
  so does the test (a strided input).
- `cdt`: `x`, `m` the metric as a bool structure (`metric=` names it:
  `chessboard` and `taxicab` were passed to SciPy by name, `custom` as the
  array), `y` SciPy's distances (int32), `ft` its indices.

Backgrounds (`bg=`): `sparse` (about 2% zeros), `mid` (30%), `dense`
(80%), `one` (a single zero), `none` (no zero: SciPy's -1 rows) and
`all` (every element zero).
"""

import sys
from pathlib import Path

import numpy as np
from scipy import ndimage as nd

rng = np.random.default_rng(20260601)
cases = {}


def put(kind, arrays, **p):
    p["i"] = len(cases)
    name = kind + "".join(f"__{k}={v}" for k, v in p.items())
    for k, v in arrays.items():
        cases[f"{name}.{k}"] = np.ascontiguousarray(v)
    return name


SHAPES = [(1,), (7,), (64,), (1, 9), (17, 20), (32, 31), (9, 10, 11), (6, 7, 8),
          (4, 5, 3, 6)]


def background(shape, bg, dt):
    if bg == "none":
        m = np.ones(shape, bool)
    elif bg == "all":
        m = np.zeros(shape, bool)
    elif bg == "one":
        m = np.ones(shape, bool)
        m[tuple(rng.integers(0, s) for s in shape)] = False
    else:
        p = {"sparse": 0.02, "mid": 0.3, "dense": 0.8}[bg]
        m = rng.random(shape) >= p
    if dt == "bool":
        return m
    if dt == "int16":
        return (m * rng.integers(1, 4, shape) * rng.choice([-1, 1], shape)).astype(np.int16)
    # float32 with NaN among the foreground (NaN is nonzero).
    x = (m * rng.standard_normal(shape)).astype(np.float32)
    x[m & (rng.random(shape) < 0.1)] = np.nan
    return x


def edt():
    bgs = ["sparse", "mid", "dense", "one", "none", "all"]
    for shape in SHAPES:
        n = len(shape)
        for bg in bgs:
            for samp in ("no", "one", "aniso"):
                dt = ["bool", "int16", "float32"][len(cases) % 3]
                x = background(shape, bg, dt)
                if samp == "no":
                    s = None
                elif samp == "one":
                    s = 1.5
                else:
                    # Non-integer spacings exercise the float ties.
                    s = list(rng.choice([0.5, 0.7, 1.0, 1.3, 2.0, 3.0], n))
                for t in (0, 1) if n >= 2 and bg in ("mid", "sparse") else (0,):
                    xx = x.T if t else x
                    y, ft = nd.distance_transform_edt(xx, sampling=s, return_indices=True)
                    arrays = {"x": x, "y": y, "ft": ft}
                    if s is not None:
                        arrays["s"] = np.atleast_1d(np.asarray(s, np.float64))
                    put("edt", arrays, bg=bg, samp=samp, dt=dt, t=t)
    # Larger images: long lines and deep stacks.
    for shape, p in [((200, 240), 0.001), ((1000,), 0.003), ((40, 50, 30), 0.01)]:
        x = rng.random(shape) >= p
        y, ft = nd.distance_transform_edt(x, return_indices=True)
        put("edt", {"x": x, "y": y, "ft": ft}, bg="big", samp="no", dt="bool", t=0)
        s = list(rng.choice([0.7, 1.3, 2.0], len(shape)))
        y, ft = nd.distance_transform_edt(x, sampling=s, return_indices=True)
        put("edt", {"x": x, "y": y, "ft": ft, "s": np.asarray(s, np.float64)},
            bg="big", samp="aniso", dt="bool", t=0)
    # Exact ties: a lattice of zeros makes many equidistant features.
    x = np.ones((23, 24), bool)
    x[::4, ::4] = False
    x[2::6, 1::5] = False
    y, ft = nd.distance_transform_edt(x, return_indices=True)
    put("edt", {"x": x, "y": y, "ft": ft}, bg="lattice", samp="no", dt="bool", t=0)


def cdt():
    bgs = ["sparse", "mid", "dense", "one", "none", "all"]
    for shape in SHAPES:
        n = len(shape)
        for bg in bgs:
            for metric in ("chessboard", "taxicab", "custom"):
                dt = ["bool", "int16", "float32"][len(cases) % 3]
                x = background(shape, bg, dt)
                if metric == "custom":
                    m = rng.random((3,) * n) < 0.5
                    arg = m
                else:
                    m = nd.generate_binary_structure(n, n if metric == "chessboard" else 1)
                    arg = metric
                for t in (0, 1) if n >= 2 and bg == "mid" else (0,):
                    xx = x.T if t else x
                    if t and metric == "custom":
                        continue
                    y, ft = nd.distance_transform_cdt(xx, metric=arg, return_indices=True)
                    put("cdt", {"x": x, "m": m, "y": y, "ft": ft},
                        bg=bg, metric=metric, dt=dt, t=t)
    for shape, p in [((120, 130), 0.001), ((20, 25, 30), 0.005)]:
        x = rng.random(shape) >= p
        for metric in ("chessboard", "taxicab"):
            conn = len(shape) if metric == "chessboard" else 1
            m = nd.generate_binary_structure(len(shape), conn)
            y, ft = nd.distance_transform_cdt(x, metric=metric, return_indices=True)
            put("cdt", {"x": x, "m": m, "y": y, "ft": ft},
                bg="big", metric=metric, dt="bool", t=0)


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
    out.mkdir(parents=True, exist_ok=True)
    edt()
    cdt()
    np.savez_compressed(out / "golden_distance.npz", **cases)
    print(f"{len(cases)} arrays -> {out / 'golden_distance.npz'}")


if __name__ == "__main__":
    main()
