#!/usr/bin/env python3
"""NumPy's stable sorts, searchsorted and unique for every dtype NumPy has
(bfloat16 aside), over inputs full of duplicates, extremes, signed zeros,
infinities and NaNs of both signs: the semantic oracle of the host test
`sorting::keys` mirror (crates/gpu-array/tests/gpu/sort.rs, `golden_*`)
and of the GPU sorts. Run `python3 make_golden.py OUTDIR` (OUTDIR defaults
to this folder); needs NumPy 2.

Writes OUTDIR/sort_golden.npz with, per dtype name DT: `DT.in` (the input,
600 elements), `DT.argsort` and `DT.sort` (kind='stable'), `DT.v` (queries),
`DT.left` and `DT.right` (searchsorted of `DT.v` in `DT.sort`), and, except
for complex dtypes (NumPy's representative of the merged NaNs is not
specified), `DT.unique`, `DT.index`, `DT.inverse`, `DT.counts`.

Then `unique` along an axis (`uaxis_TAG.x`, `.axis` and the four outputs
`.unique`, `.index`, `.inverse`, `.counts`; rows with duplicates, NaN,
-0.0 and 0.0; float16 is left out: NumPy's structured comparison orders
its NaN first, unlike its sort) and `lexsort` of N-d keys
(`lexnd_TAG.k0`, `.k1`, `.k2`, `.axis`, `.out`).
"""

import sys
from pathlib import Path

import numpy as np

rng = np.random.default_rng(20261129)
N = 600
out = {}


def floats(dt, n):
    info = np.finfo(dt)
    pool = np.array(
        [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0, 0.5, info.max, -info.max,
         info.tiny, -info.tiny, info.smallest_subnormal, -info.smallest_subnormal],
        dtype=dt,
    )
    x = rng.integers(-20, 20, n).astype(dt)
    pick = rng.random(n) < 0.4
    x[pick] = rng.choice(pool, pick.sum())
    return x


def make(dt):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.random(N) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        x = rng.integers(-20 if dt.kind == "i" else 0, 20, N).astype(dt)
        pick = rng.random(N) < 0.3
        x[pick] = rng.choice(np.array([info.min, info.max, info.min + 1, info.max - 1, 0], dtype=dt), pick.sum())
        return x
    if dt.kind == "f":
        return floats(dt, N)
    part = np.float32 if dt == np.complex64 else np.float64
    re, im = floats(part, N), floats(part, N)
    same = rng.random(N) < 0.5
    im[same] = 0
    return _complex(re, im, dt)


def _complex(re, im, dt):
    x = np.empty(len(re), dtype=dt)
    x.real = re
    x.imag = im
    return x


for name in ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
             "uint64", "float16", "float32", "float64", "complex64", "complex128"]:
    x = make(name)
    s = np.sort(x, kind="stable")
    out[f"{name}.in"] = x
    out[f"{name}.argsort"] = np.argsort(x, kind="stable").astype(np.int64)
    out[f"{name}.sort"] = s
    v = np.concatenate([make(name)[:40], s[::37]])
    out[f"{name}.v"] = v
    out[f"{name}.left"] = np.searchsorted(s, v, side="left").astype(np.int64)
    out[f"{name}.right"] = np.searchsorted(s, v, side="right").astype(np.int64)
    if np.dtype(name).kind != "c":
        u, i, inv, c = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
        out[f"{name}.unique"] = u
        out[f"{name}.index"] = i.astype(np.int64)
        out[f"{name}.inverse"] = inv.astype(np.int64)
        out[f"{name}.counts"] = c.astype(np.int64)



def rows_with_duplicates(pool, shape, dt):
    x = rng.choice(np.array(pool), shape).astype(dt)
    # Copies of earlier slices along axis 0, so that runs are long.
    for i in range(1, shape[0]):
        if rng.random() < 0.4:
            x[i] = x[rng.integers(0, i)]
    return x


fpool = [0.0, -0.0, 1.0, -1.0, 2.0, np.inf, np.nan]
uaxis = {
    "f8_rows": (rows_with_duplicates(fpool, (40, 3), np.float64), 0),
    "f4_cols": (np.ascontiguousarray(rows_with_duplicates(fpool, (30, 2, 2), np.float32).transpose(1, 0, 2)), 1),
    "i1_last": (np.ascontiguousarray(rows_with_duplicates([-2, -1, 0, 1], (25, 3, 2), np.int8).transpose(1, 2, 0)), -1),
    "b_rows": (rows_with_duplicates([False, True], (20, 4), np.bool_), 0),
    "c8_rows": (rows_with_duplicates(fpool, (30, 2), np.float32).astype(np.complex64), 0),
    "u8_single": (rows_with_duplicates([0, 7, 2**64 - 1], (15, 1), np.uint64), 0),
}
# Imaginary parts with NaN too, keeping the duplicated rows duplicated.
c8 = uaxis["c8_rows"][0]
c8.imag = np.where(c8.real == 1.0, np.nan, c8.real * 2)
for tag, (x, axis) in uaxis.items():
    u, i, inv, c = np.unique(x, axis=axis, return_index=True, return_inverse=True, return_counts=True)
    out[f"uaxis_{tag}.x"] = x
    out[f"uaxis_{tag}.axis"] = np.array(axis, dtype=np.int64)
    out[f"uaxis_{tag}.unique"] = np.ascontiguousarray(u)
    out[f"uaxis_{tag}.index"] = i.astype(np.int64)
    out[f"uaxis_{tag}.inverse"] = inv.astype(np.int64).reshape(-1)
    out[f"uaxis_{tag}.counts"] = c.astype(np.int64)

lexnd = {
    "3d_last": ((4, 5, 60), -1),
    "3d_first": ((30, 3, 4), 0),
    "2d_mid": ((6, 50), 1),
}
for tag, (shape, axis) in lexnd.items():
    k0 = rng.integers(-3, 3, shape).astype(np.int32)
    k1 = rng.choice(np.array(fpool), shape).astype(np.float64)
    k2 = rng.integers(0, 2, shape).astype(np.uint8)
    out[f"lexnd_{tag}.k0"] = k0
    out[f"lexnd_{tag}.k1"] = k1
    out[f"lexnd_{tag}.k2"] = k2
    out[f"lexnd_{tag}.axis"] = np.array(axis, dtype=np.int64)
    out[f"lexnd_{tag}.out"] = np.lexsort((k0, k1, k2), axis=axis).astype(np.int64)

outdir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
np.savez_compressed(outdir / "sort_golden.npz", **out)
