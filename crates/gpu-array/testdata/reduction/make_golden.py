#!/usr/bin/env python3
"""NumPy's outputs for sum, prod, max, min, all, any, count_nonzero,
mean, nansum, nanprod, nanmax, nanmin, ptp, argmax, argmin, nanargmax,
nanargmin, var, std, nanmean, nanvar and nanstd: the semantic oracle of
crates/gpu-array/tests/gpu/reductions.rs (`numpy_golden`). Run
`python3 make_golden.py OUTDIR` (OUTDIR defaults to this folder); needs
NumPy 2.

Writes OUTDIR/reduction_golden.npz with each input once, as `in__TAG`
(C-contiguous), and for each case NAME NumPy's result `NAME.out`. NAME is
`op__axis__keepdims__dtype__view__TAG`:
- op: sum, prod, max, min, all, any, count_nonzero, mean, nansum,
  nanprod, nanmax, nanmin, ptp, argmax, argmin, nanargmax, nanargmin,
  var, std, nanmean, nanvar, nanstd; var/std/nanvar/nanstd may end in
  `_ddofN` (`ddof=N`, else 0);
- axis: `none`, an integer, or a tuple joined by `_`; a leading `m` means
  minus (`m1` is -1, `0_m1` is (0, -1));
- keepdims: 0 or 1;
- dtype: a dtype name passed as `dtype=`, or `default`;
- view: what the test applies to the input before reducing, NumPy's
  result being computed on the same view: `c` (none), `t` (`a.T`),
  `step` (`a[..., ::2]`), `rev` (`a[::-1]`);
- TAG: the input's name (its dtype and shape by default).
The cases pin the result dtypes (bool and small integers to int64/uint64,
float16 kept with float32 accumulation, mean of integers to float64),
integer wrap-around in prod, NaN propagation in max/min/sum, complex
values, 0-d inputs, and strided, reversed and transposed views.
"""

import sys
import warnings
from pathlib import Path

import numpy as np

rng = np.random.default_rng(20261129)
cases = {}

VIEWS = {
    "c": lambda a: a,
    "t": lambda a: a.T,
    "step": lambda a: a[..., ::2],
    "rev": lambda a: a[::-1],
}


def axis_tag(axis):
    if axis is None:
        return "none"
    if isinstance(axis, int):
        axis = (axis,)
    return "_".join(f"m{-x}" if x < 0 else str(x) for x in axis) or "empty"


def add(op, a, axis=None, keepdims=False, dtype=None, view="c", tag=None, ddof=None):
    if tag is None:
        tag = a.dtype.str[1:] + "_" + ("x".join(map(str, a.shape)) or "0d")
    v = VIEWS[view](a)
    kw = {"axis": axis, "keepdims": keepdims}
    if dtype is not None:
        kw["dtype"] = dtype
    if ddof is not None:
        kw["ddof"] = ddof
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        out = getattr(np, op)(v, **kw)
    out = np.asarray(out)
    if op == "count_nonzero":
        out = out.astype(np.int64)
    if ddof is not None:
        op = f"{op}_ddof{ddof}"
    name = f"{op}__{axis_tag(axis)}__{int(keepdims)}__{dtype or 'default'}__{view}__{tag}"
    assert name + ".out" not in cases, name
    key = f"in__{tag}"
    if key in cases:
        assert np.array_equal(cases[key], a, equal_nan=True), key
    cases[key] = np.array(a, order="C", copy=True)
    cases[name + ".out"] = np.array(out, order="C", copy=True)


def floats(shape, dtype, nan=False):
    a = rng.uniform(-1, 1, shape).astype(dtype)
    if nan:
        a[rng.random(shape) < 0.05] = np.nan
    return a


def ints(shape, dtype, lo, hi):
    return rng.integers(lo, hi, shape).astype(dtype)


f4 = floats((5, 7, 9), np.float32)
f8 = floats((6, 301), np.float64)
f2 = floats((4, 300), np.float16)
f4nan = floats((8, 33), np.float32, nan=True)
f4nan[0] = 1.0  # a row without NaN
i1 = ints((6, 40), np.int8, -100, 100)
u1 = ints((7, 13), np.uint8, 0, 255)
i4 = ints((300, 3), np.int32, -1000, 1000)
u8 = ints((9, 5), np.uint64, 0, 1 << 40)
b1 = rng.random((5, 8)) < 0.7
b1[1] = True
b1[2] = False
c8 = (floats((4, 50), np.float32) + 1j * floats((4, 50), np.float32)).astype(np.complex64)
c16 = (floats((3, 3, 20), np.float64) + 1j * floats((3, 3, 20), np.float64))
zero_d = np.array(2.5, dtype=np.float32)

for op in ["sum", "prod", "max", "min", "mean"]:
    for axis in [None, 0, 1, -1, (0, 2), (2, 0), ()]:
        add(op, f4, axis=axis)
    add(op, f8, axis=1, keepdims=True)
    add(op, f8, axis=0, view="t")
    add(op, f2, axis=1)
    add(op, f2, axis=None)
    add(op, f4nan, axis=1)
    add(op, f4nan, axis=0)
    add(op, f4, axis=1, view="step")
    add(op, f4, axis=(0, 1), view="rev", keepdims=True)
    add(op, i4, axis=0)
    add(op, u8, axis=None)
    add(op, zero_d, axis=None)
for op in ["sum", "prod", "mean"]:
    add(op, c8, axis=1)
    add(op, c16, axis=(0, -1))
for op in ["sum", "prod", "max", "min"]:
    add(op, i1, axis=1)
    add(op, i1, axis=None)
    add(op, u1, axis=0)
    add(op, b1, axis=1)
for op in ["nansum", "nanprod", "nanmax", "nanmin"]:
    add(op, f4nan, axis=1)
    add(op, f4nan, axis=0, view="t")
    add(op, f4nan, axis=None)
    add(op, f2, axis=1)
    add(op, i1, axis=0)
for op in ["nansum", "nanprod"]:
    add(op, c8, axis=1)
    add(op, f4nan, axis=1, dtype="float64")
all_nan = np.full((3, 4), np.nan, dtype=np.float32)
all_nan[0, 1] = 2.0
add("nanmax", all_nan, axis=1, tag="allnan")
add("nanmin", all_nan, axis=1, tag="allnan")
add("nansum", all_nan, axis=1, tag="allnan")
for a in [f4, i1, u1]:
    add("ptp", a, axis=1)
    add("ptp", a, axis=None, keepdims=True)
add("ptp", f4nan, axis=1)
add("mean", i1, axis=1)
add("mean", b1, axis=None)
add("sum", i1, axis=1, dtype="int8")
add("sum", i1, axis=0, dtype="float32")
add("sum", f2, axis=1, dtype="float64")
add("prod", u1, axis=1, dtype="uint16")
add("mean", f4, axis=2, dtype="float64")
add("sum", b1, axis=0, dtype="bool")
for op in ["all", "any", "count_nonzero"]:
    for a, tag in [(b1, None), (f4nan, None), (i1 % 3, "i1mod3"), (c8, None)]:
        add(op, a, axis=None, tag=tag)
        add(op, a, axis=1, tag=tag)
        add(op, a, axis=0, view="t", tag=tag)
    add(op, b1, axis=1, keepdims=True)

# argmax/argmin and the nan forms: one axis or None (flat C-order index of
# the view), ties (first occurrence), NaN (the first NaN wins; skipped by
# nanarg*), complex (lexicographic), bool, strided/reversed/transposed.
ties = ints((6, 40), np.int8, -100, 100) % 3
ties[2] = 1  # a row of equal values
c8t = c8.copy()
c8t[:, 10] = 2 + 0j
c8t[:, 20] = 2 + 1j  # same real part: the imaginary part decides
c8t[:, 30] = 2 + 1j  # a tie after it
for op in ["argmax", "argmin"]:
    for axis in [None, 0, 1, -1, 2]:
        add(op, f4, axis=axis)
    add(op, f4, axis=2, keepdims=True)
    add(op, f4, axis=None, keepdims=True)
    add(op, f4, axis=1, view="t")
    add(op, f4, axis=None, view="t")
    add(op, f4, axis=2, view="step")
    add(op, f4, axis=0, view="rev")
    add(op, f4nan, axis=1)
    add(op, f4nan, axis=0)
    add(op, f4nan, axis=None)
    add(op, ties, axis=1, tag="ties")
    add(op, ties, axis=0, tag="ties")
    add(op, ties, axis=None, tag="ties")
    add(op, ties, axis=1, view="rev", tag="ties")
    add(op, b1, axis=1)
    add(op, b1, axis=None)
    add(op, f2, axis=1)
    add(op, f8, axis=1)
    add(op, f8, axis=0, view="t")
    add(op, i4, axis=0)
    add(op, u8, axis=None)
    add(op, c8t, axis=1, tag="c8ties")
    add(op, c16, axis=2)
    add(op, zero_d, axis=None)
for op in ["nanargmax", "nanargmin"]:
    add(op, f4nan, axis=1)
    add(op, f4nan, axis=0, view="t")
    add(op, f4nan, axis=None)
    add(op, f4nan, axis=1, view="step")
    add(op, f2, axis=1)
    add(op, i1, axis=0)
    add(op, ties, axis=1, tag="ties")
# var/std (ddof 0, 1, 2), nanmean/nanvar/nanstd: axis tuples, keepdims,
# dtype=, integers and bool (float64), float16 (computed in float32),
# complex (a real result), NaN, all-NaN rows, views.
for op in ["var", "std", "nanvar", "nanstd"]:
    for axis in [None, 0, 1, -1, (0, 2), (2, 0), ()]:
        add(op, f4, axis=axis)
    add(op, f8, axis=1, keepdims=True)
    add(op, f8, axis=1, ddof=1)
    add(op, f8, axis=None, ddof=2)
    add(op, f8, axis=0, view="t", ddof=1)
    add(op, f2, axis=1)
    add(op, f2, axis=None)
    add(op, f4nan, axis=1)
    add(op, f4nan, axis=0)
    add(op, f4, axis=1, view="step")
    add(op, f4, axis=(0, 1), view="rev", keepdims=True)
    add(op, i4, axis=0)
    add(op, i1, axis=None)
    add(op, u8, axis=1)
    add(op, b1, axis=1)
    add(op, c8, axis=1)
    add(op, c16, axis=(0, -1))
    add(op, c16, axis=None, ddof=1)
    add(op, i4, axis=0, dtype="float32")
    add(op, f4, axis=2, dtype="float64")
    add(op, zero_d, axis=None)
    add(op, all_nan, axis=1, tag="allnan")
for op in ["nanmean"]:
    for axis in [None, 0, 1, -1, (0, 2), ()]:
        add(op, f4, axis=axis)
    add(op, f4nan, axis=1)
    add(op, f4nan, axis=0, view="t")
    add(op, f4nan, axis=None, keepdims=True)
    add(op, f2, axis=1)
    add(op, i1, axis=0)
    add(op, b1, axis=None)
    add(op, c8, axis=1)
    add(op, f4nan, axis=1, dtype="float64")
    add(op, all_nan, axis=1, tag="allnan")
# One-element rows with ddof=1 (0/0: NaN) and ddof=2 on two (M2/0: inf).
small = floats((4, 2), np.float64)
for op in ["var", "std"]:
    add(op, small, axis=1, ddof=2)
    add(op, small[:, :1].copy(), axis=1, ddof=1)

out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
np.savez_compressed(out_dir / "reduction_golden.npz", **cases)
print(f"{sum(k.endswith('.out') for k in cases)} cases")
