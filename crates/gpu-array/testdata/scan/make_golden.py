#!/usr/bin/env python3
"""NumPy's outputs for cumsum, cumprod, nancumsum, nancumprod and diff: the
semantic oracle of crates/gpu-array/tests/gpu/scans.rs (`numpy_golden`).
Run `python3 make_golden.py OUTDIR` (OUTDIR defaults to this folder);
needs NumPy 2.

Writes OUTDIR/scan_golden.npz with, for each case NAME, the input
`NAME.in` and NumPy's result `NAME.out`. NAME is `op__axis__dtype__tag`:
op is cumsum, cumprod, nancumsum, nancumprod, diff1 or diff2 (diff with
n=1 or 2); axis is an integer or `none`; dtype is a dtype name passed as
`dtype=` or `default`. The cases pin the result dtypes (bool and small
integers to int64/uint64, float16 kept), integer wrap-around, NaN
handling, complex values, 0-d input, rows longer than one scan tile, and
diff's bool (`!=`) and unsigned wrap-around.
"""

import sys
from pathlib import Path

import numpy as np

rng = np.random.default_rng(20261129)
cases = {}


def add(op, axis, dtype, tag, a):
    kw = {} if dtype is None else {"dtype": dtype}
    if op.startswith("diff"):
        out = np.diff(a, n=int(op[4:]), axis=-1 if axis is None else axis)
    else:
        out = getattr(np, op)(a, axis=axis, **kw)
    name = f"{op}__{'none' if axis is None else axis}__{dtype or 'default'}__{tag}"
    cases[name + ".in"] = np.ascontiguousarray(a)
    cases[name + ".out"] = np.ascontiguousarray(out)


def floats(shape, dtype, nan=False):
    a = rng.uniform(-1, 1, shape).astype(dtype)
    if nan:
        a[rng.random(shape) < 0.1] = np.nan
    return a


def cfloats(shape, dtype, nan=False):
    a = (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)).astype(dtype)
    if nan:
        m = rng.random(shape) < 0.1
        a[m] = np.nan + 0j
        a[rng.random(shape) < 0.05] = complex(0.5, np.nan)
    return a


add("cumsum", None, None, "uint8_to_uint64", np.array([200, 100, 50, 255], np.uint8))
add("cumsum", 0, "int8", "int8_wraps", np.array([100, 100, 100, -128], np.int8))
add("cumsum", 0, None, "bool_counts", rng.random((5, 4)) < 0.5)
add("cumprod", 1, None, "bool_to_int64", rng.random((3, 6)) < 0.7)
add("cumsum", None, None, "float16", rng.uniform(0, 1, 50).astype(np.float16))
add("nancumsum", -1, None, "float16_nan", floats((4, 9), np.float16, nan=True))
add("cumprod", 1, None, "float32", rng.uniform(0.5, 1.5, (4, 30)).astype(np.float32))
add("cumsum", 1, None, "float32_long_rows", rng.uniform(0, 1, (3, 5000)).astype(np.float32))
add("cumsum", 0, "float64", "float32_as_float64", floats((40, 3), np.float32))
add("nancumsum", 0, None, "float64_nan_3d", floats((5, 3, 4), np.float64, nan=True))
add("cumsum", 2, None, "float64_nan_propagates", floats((2, 3, 7), np.float64, nan=True))
add("nancumprod", -1, None, "complex64_nan", cfloats((3, 8), np.complex64, nan=True))
add("cumsum", None, None, "complex128", cfloats((4, 5), np.complex128))
add("cumprod", 1, None, "int16_to_int64", rng.integers(-3, 4, (3, 10)).astype(np.int16))
add("nancumsum", None, None, "int32_to_int64", rng.integers(-1000, 1000, (6, 7)).astype(np.int32))
add("cumprod", 0, None, "uint64_wraps", np.array([2**40, 2**30, 3], np.uint64))
add("cumsum", 0, None, "zero_d", np.array(2.5))
add("nancumprod", 0, "float32", "int64_as_float32", rng.integers(1, 4, 12).astype(np.int64))
add("diff1", 0, None, "bool_not_equal", rng.random((6, 3)) < 0.5)
add("diff2", -1, None, "uint8_wraps", rng.integers(0, 256, (3, 9)).astype(np.uint8))
add("diff1", 1, None, "float32", floats((4, 6), np.float32))
add("diff2", 0, None, "complex64", cfloats((5, 2), np.complex64))

out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
out.mkdir(parents=True, exist_ok=True)
np.savez_compressed(out / "scan_golden.npz", **cases)
print(f"wrote {len(cases) // 2} cases to {out / 'scan_golden.npz'}")
