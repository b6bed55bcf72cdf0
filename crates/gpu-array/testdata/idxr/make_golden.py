#!/usr/bin/env python3
"""NumPy's outputs for the indexing routines (choose, select, place,
putmask, fill_diagonal, diag_indices, ix_, ravel_multi_index,
unravel_index, r_, c_), cupyx's scatter_add/max/min (as NumPy's add.at,
maximum.at, minimum.at with indices wrapped, as CuPy wraps them) and the
logic and bit routines (iscomplex, isreal, packbits, unpackbits): the
semantic oracle of crates/gpu-array/tests/gpu/manip.rs (`idxr_golden`).
Run `python3 make_golden.py OUTDIR` (OUTDIR defaults to this folder);
needs NumPy 2.

Writes OUTDIR/idxr_golden.npz with the inputs `in.NAME` and, for each
case NAME, NumPy's results `NAME.0`, `NAME.1`, ... (several for the
functions that return tuples). The Rust test holds the same calls by NAME.
"""

import sys
from pathlib import Path

import numpy as np

rng = np.random.default_rng(20261207)
inputs = {
    "a": rng.integers(-5, 6, (3, 4, 5)).astype(np.float32),
    "x": rng.integers(-50, 50, (4, 6)).astype(np.int32),
    "ci": rng.integers(-3, 6, (4, 6)).astype(np.int64),
    "ci_ok": rng.integers(0, 3, (4, 6)).astype(np.int8),
    "c0": rng.integers(-9, 9, (4, 6)).astype(np.float32),
    "c1": rng.integers(-9, 9, (6,)).astype(np.int16),
    "c2": rng.integers(-9, 9, (1, 6)).astype(np.float64),
    "m0": rng.random((4, 6)) < 0.4,
    "m1": rng.random((4, 6)) < 0.5,
    "vi": np.array([7, -8, 9, 10, -11], dtype=np.int32),
    "v16": np.array([1, 2, 3, 4, 5, 6, 7], dtype=np.int16),
    "r0": rng.integers(0, 3, (2, 3)).astype(np.int64),
    "r1": rng.integers(0, 4, (3,)).astype(np.int32),
    "r0b": np.array([[-4, 0, 5], [2, 3, -1]], dtype=np.int64),
    "r1b": np.array([9, -1, 4], dtype=np.int64),
    "u": rng.integers(0, 60, (2, 3)).astype(np.int64),
    "u8": np.array([0, 7, 59, 33], dtype=np.uint8),
    "pb": rng.random((3, 10)) < 0.5,
    "pi": rng.integers(-2, 3, (4, 11)).astype(np.int16),
    "ub": rng.integers(0, 256, (3, 4)).astype(np.uint8),
    "zc": np.array([1 + 0j, 2 + 1j, -0.0 + 0j, 3 - 2j, np.nan + 0j, 1 + np.nan * 1j], dtype=np.complex64),
    "ixb": np.array([True, False, True, True]),
    "ixi": np.array([0, 2], dtype=np.int64),
    "ixj": np.array([1], dtype=np.int32),
    # Scatter: duplicate indices (2 twice, 0 twice, 8 -> 2 and -1 -> 5 after wrapping).
    "sidx": np.array([0, 2, 2, 5, -1, 0, 8], dtype=np.int64),
    "sidx_flat": np.array([3, 3, 23, -1, 0, 30, 3, 7, 7, 11], dtype=np.int32),
    "sidx_ax1": np.array([1, 3, 1, -4, 1], dtype=np.int64),
}
i = inputs
cases = {
    "choose_wrap": np.choose(i["ci"], [i["c0"], i["c1"], i["c2"]], mode="wrap"),
    "choose_clip": np.choose(i["ci"], [i["c0"], i["c1"], i["c2"]], mode="clip"),
    "choose_raise": np.choose(i["ci_ok"], [i["c0"], i["c1"], i["c2"]]),
    "choose_bool": np.choose(i["m0"], [i["x"], i["c1"]]),
    "choose_t": np.choose(i["ci"].T, [i["c0"].T, i["c2"].T], mode="clip"),
    "select_t": np.select([i["m0"].T], [i["x"].T[::-1]], 1),
    "select": np.select([i["m0"], i["m1"]], [i["x"], i["c0"]], 7),
    "select_weak": np.select([i["m0"], i["m1"][:1]], [i["c1"], i["c1"][::-1]], 0.5),
    "select_int8": np.select([i["m1"]], [i["ci_ok"]], -1),
    "diag_indices": list(np.diag_indices(4, 3)),
    "diag_indices_from": list(np.diag_indices_from(np.zeros((3, 3)))),
    "ix": list(np.ix_(i["ixi"], i["ixb"], i["ixj"])),
    "ravel_c": np.ravel_multi_index((i["r0"], i["r1"]), (3, 4)),
    "ravel_f": np.ravel_multi_index((i["r0"], i["r1"]), (3, 4), order="F"),
    "ravel_modes": np.ravel_multi_index((i["r0b"], i["r1b"]), (3, 4), mode=("clip", "wrap")),
    "ravel_3": np.ravel_multi_index((i["r1"], i["r1"], i["r0"]), (4, 5, 3), mode="wrap"),
    "unravel_c": list(np.unravel_index(i["u"], (3, 4, 5))),
    "unravel_f": list(np.unravel_index(i["u"], (3, 4, 5), order="F")),
    "unravel_u8": list(np.unravel_index(i["u8"], (6, 10))),
    "unravel_t": list(np.unravel_index(i["u"].T, (60,))),
    "packbits_none": np.packbits(i["pb"]),
    "packbits_axis1": np.packbits(i["pb"], axis=1),
    "packbits_axis0_little": np.packbits(i["pb"], axis=0, bitorder="little"),
    "packbits_int": np.packbits(i["pi"], axis=-1),
    "packbits_t": np.packbits(i["pb"].T, axis=0),
    "unpackbits_none": np.unpackbits(i["ub"]),
    "unpackbits_count": np.unpackbits(i["ub"], axis=1, count=13),
    "unpackbits_neg_little": np.unpackbits(i["ub"], axis=0, count=-5, bitorder="little"),
    "unpackbits_pad": np.unpackbits(i["ub"], axis=1, count=40),
    "unpackbits_t": np.unpackbits(i["ub"].T, axis=1),
    "r_mixed": np.r_[i["x"][0], 3, 4.5, 0:3, 0:1:5j],
    "r_int8": np.r_[i["ci_ok"][0], 3],
    "r_2d": np.r_[i["x"], i["x"][:1]],
    "r_dir": np.r_["0,2,1", i["x"][0], i["x"][1]],
    "c_1d": np.c_[i["x"][0], i["x"][1]],
    "c_2d": np.c_[i["x"][:1], 0, 0, i["x"][1:2]],
    "c_range": np.c_[0:6, i["c1"]],
    "iscomplex": np.iscomplex(i["zc"]),
    "isreal": np.isreal(i["zc"]),
    "iscomplex_real": np.iscomplex(i["a"]),
    "isreal_real": np.isreal(i["a"]),
}


def inplace(name, target, f):
    t = target.copy()
    f(t)
    cases[name] = t


x, m0 = i["x"], i["m0"]
inplace("place", x, lambda t: np.place(t, m0, i["vi"]))
inplace("place_float", i["a"], lambda t: np.place(t, i["a"] > 0, np.array([1.5, -2.0], np.float32)))
inplace("place_t", x, lambda t: np.place(t.T, m0.T, i["vi"]))
inplace("place_none", x, lambda t: np.place(t, np.zeros_like(m0), i["vi"]))
inplace("putmask", x, lambda t: np.putmask(t, m0, i["v16"]))
inplace("putmask_t", x, lambda t: np.putmask(t.T, m0.T, i["v16"]))
inplace("putmask_same", x, lambda t: np.putmask(t, m0, -x))
inplace("fill_diagonal_tall", np.zeros((7, 3), np.int32), lambda t: np.fill_diagonal(t, 5))
inplace("fill_diagonal_wrap", np.zeros((7, 3), np.int32), lambda t: np.fill_diagonal(t, 5, wrap=True))
inplace("fill_diagonal_vals", np.zeros((5, 5), np.float32), lambda t: np.fill_diagonal(t, [1, 2]))
inplace("fill_diagonal_3d", np.zeros((3, 3, 3), np.int16), lambda t: np.fill_diagonal(t, 9))
inplace("fill_diagonal_view", np.zeros((6, 8)), lambda t: np.fill_diagonal(t[:, ::2], 3.5))
inplace("fill_diagonal_cast", np.zeros((3, 4), np.int8), lambda t: np.fill_diagonal(t, 2.7))

# Scatters over every dtype NumPy has (bfloat16 is checked against a host
# reference in Rust). Small integers, so that sums are exact in any order.
DTYPES = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "float16", "float32", "float64", "complex64", "complex128",
]
sidx = np.mod(i["sidx"], 6)
for dt in DTYPES:
    base = (np.arange(24) % 5).reshape(6, 4)
    lo = 0 if dt.startswith("uint") or dt == "bool" else -3
    vals = rng.integers(lo, 4, (7, 4))
    if dt == "bool":
        base, vals = base % 2, vals % 2
    base, vals = base.astype(dt), vals.astype(dt)
    if dt.startswith("complex"):
        vals = vals + 1j * rng.integers(-2, 3, (7, 4)).astype(dt)
    inputs[f"sbase_{dt}"] = base
    inputs[f"svals_{dt}"] = vals
    inplace(f"scatter_add_{dt}", base, lambda t: np.add.at(t, sidx, vals))
    if dt != "complex128":
        inplace(f"scatter_max_{dt}", base, lambda t: np.maximum.at(t, sidx, vals))
        inplace(f"scatter_min_{dt}", base, lambda t: np.minimum.at(t, sidx, vals))

fbase, fvals = inputs["sbase_float32"], inputs["svals_float32"]
fnan = fvals.copy()
fnan[1, 2] = np.nan
fnan[4, 0] = np.nan
inputs["svals_nan"] = fnan
inplace("scatter_max_nan", fbase, lambda t: np.maximum.at(t, sidx, fnan))
inplace("scatter_min_nan", fbase, lambda t: np.minimum.at(t, sidx, fnan))
flat_vals = np.arange(10, dtype=np.float32) - 4
inplace("scatter_add_flat", fbase, lambda t: np.add.at(t.reshape(-1), np.mod(i["sidx_flat"], 24), flat_vals))
ax1 = np.arange(30, dtype=np.float64).reshape(6, 5) % 7 - 3
inputs["svals_ax1"] = ax1
inplace("scatter_add_axis1", inputs["sbase_float64"], lambda t: np.add.at(t, (slice(None), np.mod(i["sidx_ax1"], 4)), ax1))
inplace("scatter_add_scalar", inputs["sbase_int64"], lambda t: np.add.at(t, sidx, 1))
inplace("scatter_add_bcast", fbase, lambda t: np.add.at(t, sidx, fvals[0]))
inplace("scatter_min_view", np.zeros((6, 8), np.float32) + 2, lambda t: np.minimum.at(t[:, ::2], sidx, fvals))

out = {f"in.{k}": v for k, v in inputs.items()}
for name, r in cases.items():
    rs = r if isinstance(r, list) else [r]
    for k, v in enumerate(rs):
        out[f"{name}.{k}"] = np.ascontiguousarray(v)

outdir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
np.savez_compressed(outdir / "idxr_golden.npz", **out)
