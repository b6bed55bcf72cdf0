#!/usr/bin/env python3
"""SciPy's outputs for gpu-ndimage's measurements: the oracle of
crates/gpu-ndimage/tests/gpu/measurements.rs. Run
`python3 make_golden_measure.py OUTDIR` (OUTDIR defaults to this folder);
needs NumPy 2 and SciPy.

Writes OUTDIR/measure_golden.npz. Each case NAME is `kind__k=v__...`
(`i`, a case number, keeps names unique) with members:

- `label`: `x` the input, `s` the structure, `y` SciPy's labels, `n` the
  count; `t=1`: the test labels `x.T` (SciPy labelled `x.T`).
- `data`: `x` an input and `l` its int16 labels, for the `stat` cases
  whose `src` is its number.
- `stat`: the input and labels are those of case `data__i=SRC` (the
  labels unused with `idx=nolab`); `idx` the index values (`idx=all`: SciPy's index=None; `one`: the scalar
  `idx[0]`; `many`: all of them), `y` SciPy's result of `f`. Positions
  are `(k, ndim)` int64, center_of_mass `(k, ndim)` float64 (k = 1 for a
  single region), histogram `(k, bins)` int64 with zero rows for SciPy's
  None (params `lo`, `hi`, `bins`).
- `objects`: `x` the labels, `y` `(max_label, ndim, 2)` int64 of start and
  stop, -1 for None; `m` the max_label passed (0: SciPy's default).
- `values`: `x`, `y` `(ndim + 1, n)`: for each value in ascending order,
  its rows are the value and its coordinates, in SciPy's order; `ign`
  the ignore_value (`-` for None).
"""

import sys
from pathlib import Path

import numpy as np
from scipy import ndimage as nd

rng = np.random.default_rng(20260524)
cases = {}


def put(kind, arrays, **p):
    p["i"] = len(cases)
    name = kind + "".join(f"__{k}={v}" for k, v in p.items())
    for k, v in arrays.items():
        # asarray, not ascontiguousarray: a 0-d result (a statistic of one
        # region) stays 0-d, as SciPy returns it.
        cases[f"{name}.{k}"] = np.asarray(v, order="C")
    return name


def first_appearance_order(y):
    """SciPy numbers features by their first element in C order."""
    flat = y.ravel()
    seen = flat[flat > 0]
    _, first = np.unique(seen, return_index=True)
    order = seen[np.sort(first)]
    assert (order == np.arange(1, len(order) + 1)).all()


def labels():
    shapes = [(60,), (31, 37), (9, 10, 11), (4, 5, 3, 6)]
    for shape in shapes:
        nd_ = len(shape)
        for conn in sorted({1, nd_}):
            s = nd.generate_binary_structure(nd_, conn)
            for dt in ("bool", "int16", "float32"):
                m = rng.random(shape) < 0.45
                if dt == "bool":
                    x = m
                elif dt == "int16":
                    x = (m * rng.integers(-3, 4, shape)).astype(np.int16)
                else:
                    x = (m * rng.standard_normal(shape)).astype(np.float32)
                for t in (0, 1) if nd_ >= 2 else (0,):
                    y, n = nd.label(x.T if t else x, s)
                    first_appearance_order(y)
                    put("label", {"x": x, "s": s, "y": y, "n": np.int64(n)},
                        conn=conn, dt=dt, t=t)
    # Long snakes and large components: many merges down one chain.
    big = rng.random((200, 240)) < 0.6
    big[::4, :] = True
    big[2::4, 1:] = False
    for conn in (1, 2):
        s = nd.generate_binary_structure(2, conn)
        y, n = nd.label(big, s)
        first_appearance_order(y)
        put("label", {"x": big, "s": s, "y": y, "n": np.int64(n)}, conn=conn, dt="bool", t=0)
    snake = np.zeros((41, 41), bool)
    snake[::2, :] = True
    snake[1::4, -1] = True
    snake[3::4, 0] = True
    s = nd.generate_binary_structure(2, 1)
    y, n = nd.label(snake, s)
    put("label", {"x": snake, "s": s, "y": y, "n": np.int64(n)}, conn=1, dt="bool", t=0)
    # A structure of its own: only the diagonals (centrosymmetric).
    s = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1]], bool)
    x = rng.random((15, 16)) < 0.5
    y, n = nd.label(x, s)
    put("label", {"x": x, "s": s, "y": y, "n": np.int64(n)}, conn="diag", dt="bool", t=0)


def data(shape, dt):
    if dt in ("float64", "float32"):
        return (rng.standard_normal(shape) * 3 + 1).astype(dt)
    if dt == "bool":
        return rng.random(shape) < 0.5
    if dt == "uint8":
        return rng.integers(0, 250, shape).astype(dt)
    return rng.integers(-50, 50, shape).astype(dt)


def stats():
    shapes = [(50,), (12, 15), (5, 6, 7)]
    dts = ("float64", "float32", "int32", "uint8", "bool")
    many = np.array([1, 2, 3, 4, 5, 7, 0, -1, 2], np.int64)
    for si, shape in enumerate(shapes):
        for di, dt in enumerate(dts):
            x = data(shape, dt)
            lab = rng.integers(-1, 6, shape)
            lab[lab == 3] = 4  # label 3 absent
            lab = lab.astype(np.int16)
            src = put("data", {"x": x, "l": lab}).split("__i=")[1]
            floats = dt.startswith("float")
            funcs = ["sum_labels", "mean", "variance", "standard_deviation", "minimum",
                     "maximum", "median", "center_of_mass", "histogram"]
            if floats:  # distinct values: positions without ties
                funcs += ["minimum_position", "maximum_position"]
            for f in funcs:
                for mode in ("all", "one", "many", "nolab"):
                    if f == "histogram" and mode == "nolab" and si != 0:
                        continue
                    idx = many if mode == "many" else many[:1]
                    ix = {"all": None, "one": int(idx[0]), "many": idx, "nolab": None}[mode]
                    ll = None if mode == "nolab" else lab
                    extra = {}
                    if f == "histogram":
                        lo, hi, bins = (-4.0, 6.0, 7) if dt != "uint8" else (10.0, 200.0, 5)
                        r = nd.histogram(x, lo, hi, bins, ll, ix)
                        if mode == "many":
                            y = np.stack([np.zeros(bins, np.int64) if v is None else v
                                          for v in r]).astype(np.int64)
                        else:
                            y = np.asarray(r, np.int64)
                        extra = {"lo": lo, "hi": hi, "bins": bins}
                    else:
                        r = getattr(nd, f)(x, ll, ix)
                        if f in ("minimum_position", "maximum_position"):
                            y = np.array(r if mode == "many" else [r], np.int64)
                            y = y.reshape(-1, x.ndim)
                        elif f == "center_of_mass":
                            y = np.array(r if mode == "many" else [r], np.float64)
                            y = y.reshape(-1, x.ndim)
                        else:
                            y = np.asarray(r)
                    put("stat", {"idx": idx, "y": y}, f=f, idx=mode, dt=dt, src=src, **extra)


def objects():
    for shape in [(30,), (13, 17), (6, 7, 8)]:
        m = rng.random(shape) < 0.3
        lab, n = nd.label(m)
        lab = lab.astype(np.int64)
        for mx in (0, max(n - 2, 1), n + 3):
            r = nd.find_objects(lab, max_label=mx)
            y = np.full((len(r), len(shape), 2), -1, np.int64)
            for k, sl in enumerate(r):
                if sl is not None:
                    for d, s_ in enumerate(sl):
                        y[k, d] = (s_.start, s_.stop)
            put("objects", {"x": lab, "y": y}, m=mx)
    for shape, ign in [((40,), "-"), ((9, 11), "0"), ((4, 5, 6), "2")]:
        x = rng.integers(-2, 5, shape).astype(np.int32)
        r = nd.value_indices(x, ignore_value=None if ign == "-" else int(ign))
        rows = []
        for v in sorted(r):
            coords = r[v]
            rows.append(np.vstack([np.full(len(coords[0]), v)] + [c for c in coords]))
        y = np.hstack(rows).astype(np.int64)
        put("values", {"x": x, "y": y}, ign=ign)


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
    out.mkdir(parents=True, exist_ok=True)
    labels()
    stats()
    objects()
    np.savez_compressed(out / "measure_golden.npz", **cases)
    print(f"{len(cases)} arrays -> {out / 'measure_golden.npz'}")


if __name__ == "__main__":
    main()
