#!/usr/bin/env python3
"""NumPy's outputs for the array manipulation routines and take: the
semantic oracle of crates/gpu-array/tests/gpu/manip.rs (`numpy_golden`).
Run `python3 make_golden.py OUTDIR` (OUTDIR defaults to this folder);
needs NumPy 2.

Writes OUTDIR/manip_golden.npz with the inputs `in.a`, `in.b`, `in.c`,
`in.v`, `in.z`, `in.i2`, `in.i1`, ... (every entry of `inputs`) and, for each case NAME, NumPy's results
`NAME.0`, `NAME.1`, ... (several for the splits). The Rust test holds the
same calls by NAME.
"""

import sys
import warnings
from pathlib import Path

import numpy as np

rng = np.random.default_rng(20261129)
inputs = {
    "a": rng.integers(-50, 50, (3, 4, 5)).astype(np.float32),
    "b": rng.integers(-50, 50, (3, 2, 5)).astype(np.int32),
    "c": rng.integers(-50, 50, (3, 4, 5)).astype(np.float64),
    "v": rng.integers(-50, 50, 7).astype(np.int16),
    "z": np.array([0, 0, 1, 2, 0, 3, 0, 0], dtype=np.float32),
    "i2": np.array([[0, -1], [3, 5]], dtype=np.int64),
    "i1": np.array([-5, 0, 7, 100], dtype=np.int32),
    "ia": rng.integers(-4, 8, (3, 6, 5)).astype(np.int64),
    "f": np.array([1.0, np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-9, 100.0, np.nan, 3.0], dtype=np.float64),
    "g": np.array([1.0 + 1e-6, np.nan, np.inf, np.inf, -0.0, 1e-9, 0.0, 100.001, 1.0, 3.0], dtype=np.float32),
    "cmask": np.array([True, False, True, True], dtype=np.bool_),
}
a, b, c, v, z, i2, i1, ia, f, g, cmask = (
    inputs[k] for k in "a b c v z i2 i1 ia f g cmask".split()
)
cases = {
    "concatenate_axis1": np.concatenate((a, b), axis=1),
    "concatenate_axis0": np.concatenate((a, c.astype(np.float32)), axis=0),
    "concatenate_none": np.concatenate((a, b), axis=None),
    "concatenate_reversed": np.concatenate((a, a[:, ::-1]), axis=-1),
    "concatenate_dtype": np.concatenate((b, b), axis=0, dtype=np.int64),
    "stack_axis2": np.stack((a, c), axis=2),
    "stack_neg": np.stack((v, v, v), axis=-1),
    "hstack_1d": np.hstack((v, v)),
    "hstack_3d": np.hstack((a, b)),
    "vstack_1d": np.vstack((v, v)),
    "dstack_2d": np.dstack((a[0], a[1])),
    "column_stack_1d": np.column_stack((v, v)),
    "split_count": np.split(a, 2, axis=1),
    "array_split_count": np.array_split(a, 3, axis=2),
    "split_indices": np.split(a, [1, 3], axis=1),
    "array_split_neg": np.array_split(a, [-2, 1, 9], axis=2),
    "hsplit": np.hsplit(a, 2),
    "vsplit": np.vsplit(a, 3),
    "dsplit": np.dsplit(a, [2]),
    "tile_2d": np.tile(v, (2, 3)),
    "tile_1": np.tile(a, 2),
    "tile_lead": np.tile(a[0], (2, 1, 1)),
    "repeat_axis1": np.repeat(a, 2, axis=1),
    "repeat_counts": np.repeat(v, [1, 0, 2, 3, 1, 0, 2]),
    "repeat_counts_axis": np.repeat(a, [2, 0, 1], axis=0),
    "repeat_none": np.repeat(a, 3),
    "flip_02": np.flip(a, (0, 2)),
    "flip_all": np.flip(a),
    "fliplr": np.fliplr(a),
    "flipud": np.flipud(a),
    "roll_axis1": np.roll(a, 2, axis=1),
    "roll_none": np.roll(a, -3),
    "roll_two": np.roll(a, (1, 2), axis=(0, 2)),
    "roll_same_axis": np.roll(a, (1, 1), axis=(1, 1)),
    "rot90_1": np.rot90(a, 1, axes=(0, 1)),
    "rot90_2": np.rot90(a, 2, axes=(1, 2)),
    "rot90_3": np.rot90(a, 3, axes=(2, 0)),
    "rot90_neg": np.rot90(a, -1),
    "trim_zeros_fb": np.trim_zeros(z, "fb"),
    "trim_zeros_f": np.trim_zeros(z, "f"),
    "trim_zeros_b": np.trim_zeros(z, "b"),
    "take_axis1_wrap": np.take(a, i2, axis=1, mode="wrap"),
    "take_flat_clip": np.take(a, i1, mode="clip"),
    "take_flat_wrap": np.take(c, i1, mode="wrap"),
    "take_along_axis1": np.take_along_axis(a, np.mod(ia, 4), axis=1),
    "take_along_axis_b": np.take_along_axis(a, np.mod(ia[:1, :4, :1], 3), axis=0),
    "take_along_none": np.take_along_axis(a, np.mod(i1.astype(np.int64), 60), axis=None),
    "where3": np.where(a > 0, a, b[:, :1, :]),
    "where_scalar": np.where(b > 0, b, 0.5),
    "nonzero": list(np.nonzero(a > 10)),
    "argwhere": np.argwhere(b > 0),
    "flatnonzero": np.flatnonzero(v),
    "compress_axis": np.compress(cmask[:3], a, axis=1),
    "compress_none": np.compress(cmask, a),
    "extract": np.extract(a > 20, a),
    "diagonal_0": np.diagonal(a).copy(),
    "diagonal_off": np.diagonal(a, 2, 2, 1).copy(),
    "diagonal_neg": np.diagonal(a, -1, 0, 2).copy(),
    "isin": np.isin(a, b),
    "isin_invert": np.isin(v, a, invert=True),
    "isin_nan": np.isin(f, g),
    "in1d": np.isin(a.ravel(), v),
    "isclose": np.isclose(f, g),
    "isclose_nan": np.isclose(f, g, rtol=1e-3, atol=0.0, equal_nan=True),
}


def put(mode):
    # Indices distinct after wrapping or clipping (duplicates' order is
    # undefined on the GPU, as CuPy documents).
    idx = [0, -1, 7, 200, -70] if mode == "wrap" else [3, -1, 7, 200]
    r = a.copy()
    np.put(r, np.array(idx), np.array([9.0, 8.0], dtype=np.float64), mode=mode)
    return r


cases["pad_constant"] = np.pad(a, ((1, 2), (0, 1), (3, 0)), constant_values=7)
cases["pad_edge"] = np.pad(b, ((1, 2), (2, 1), (0, 3)), mode="edge")
cases["pad_wrap"] = np.pad(v, (9, 4), mode="wrap")
cases["pad_reflect"] = np.pad(a, ((4, 1), (5, 2), (1, 6)), mode="reflect")
cases["pad_symmetric"] = np.pad(b, ((2, 3), (3, 2), (6, 1)), mode="symmetric")
cases["pad_maximum"] = np.pad(a, ((1, 1), (2, 0), (0, 2)), mode="maximum")
cases["pad_minimum"] = np.pad(b, 2, mode="minimum")
cases["pad_mean_int"] = np.pad(b, ((1, 0), (1, 2), (2, 1)), mode="mean")
# One axis of length 4: the means are exact, whatever the summation order.
cases["pad_mean_float"] = np.pad(c, ((0, 0), (1, 2), (0, 0)), mode="mean")
# linear_ramp: NumPy's linspace per side (floored for integers); `r` has an
# edge equal to the end value, so a step of zero switches NumPy (and Cuprum)
# to its other formula for that side.
r = rng.standard_normal((4, 3))
r[0, 1] = 0.7
inputs["r"] = r
cases["pad_linear_ramp_int"] = np.pad(b, ((1, 2), (2, 1), (0, 3)), mode="linear_ramp", end_values=-7)
cases["pad_linear_ramp_f32"] = np.pad(a, ((2, 1), (0, 3), (1, 1)), mode="linear_ramp", end_values=0.3)
cases["pad_linear_ramp_pairs"] = np.pad(
    c, ((1, 2), (3, 0), (2, 2)), mode="linear_ramp", end_values=((1, -2), (3.5, 0), (0, 9))
)
cases["pad_linear_ramp_zero_step"] = np.pad(r, ((3, 2), (4, 5)), mode="linear_ramp", end_values=0.7)
cases["pad_linear_ramp_default"] = np.pad(v, (5, 4), mode="linear_ramp")
# median and stat_length: integer statistics round half to even, bool ones
# do not round (any nonzero mean is True).
cases["pad_median_f32"] = np.pad(a, ((1, 1), (2, 0), (0, 2)), mode="median")
cases["pad_median_int"] = np.pad(b, ((1, 0), (1, 2), (2, 1)), mode="median")
cases["pad_median_stat"] = np.pad(
    c, ((2, 1), (1, 2), (0, 3)), mode="median", stat_length=((1, 2), (3, 1), (2, 2))
)
cases["pad_mean_stat"] = np.pad(b, 2, mode="mean", stat_length=3)
cases["pad_maximum_stat"] = np.pad(a, ((1, 2), (0, 0), (3, 1)), mode="maximum", stat_length=((1, 2),))
cases["pad_minimum_stat"] = np.pad(v, (3, 2), mode="minimum", stat_length=((2, 20),))
cases["pad_mean_bool"] = np.pad(cmask, (2, 3), mode="mean", stat_length=((2, 1),))
# Strided inputs: a transposed, reversed view.
at = a.transpose(2, 0, 1)[::-1]
cases["pad_median_strided"] = np.pad(at, ((1, 2), (0, 1), (2, 0)), mode="median")
cases["pad_linear_ramp_strided"] = np.pad(at, ((0, 2), (3, 1), (1, 1)), mode="linear_ramp", end_values=-1.5)
# constant_values per side and axis, with NumPy's casts: one value or one
# pair are NumPy scalars (uint8 wraps 300 and -1, a complex loses its
# imaginary part), per-axis pairs Python scalars; a later axis wins at the
# corners. reflect_type='odd' (2 * edge - mirror, round by round, so
# several rounds on wide pads), linear_ramp with complex ends on real
# arrays (NumPy drops the imaginary part; bool keeps "nonzero").
warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
u8 = np.array([3, 250, 7, 0, 128], dtype=np.uint8)
cz = (rng.integers(-9, 9, (3, 4)) + 1j * rng.integers(-9, 9, (3, 4))).astype(np.complex64)
inputs["u8"], inputs["cz"] = u8, cz
cases["pad_constant_axes"] = np.pad(b, ((1, 2), (0, 1), (3, 0)), constant_values=((1, -2), (3, 4), (5, 6)))
cases["pad_constant_pair_u8"] = np.pad(u8, (2, 3), constant_values=(300, -1))
cases["pad_constant_float_on_int"] = np.pad(v, (1, 2), constant_values=((-2.7, 9.9),))
cases["pad_constant_complex_on_f32"] = np.pad(a[0], 1, constant_values=(1.5, 2 + 3j))
cases["pad_constant_bool"] = np.pad(cmask, ((2, 1),), constant_values=(0.5, 0))
cases["pad_constant_complex"] = np.pad(cz, ((1, 0), (2, 1)), constant_values=((1 + 1j, 2.5), (-1j, 3)))
cases["pad_constant_strided"] = np.pad(at, ((1, 0), (0, 2), (1, 1)), constant_values=((0.5, 1), (2, -3), (4, 5)))
cases["pad_constant_empty"] = np.pad(np.zeros((2, 0)), ((1, 0), (1, 2)), constant_values=((1, 2), (3, 4)))
cases["pad_reflect_odd"] = np.pad(a[:2], ((4, 1), (5, 2), (1, 6)), mode="reflect", reflect_type="odd")
cases["pad_symmetric_odd"] = np.pad(b, ((2, 3), (3, 2), (6, 1)), mode="symmetric", reflect_type="odd")
cases["pad_reflect_odd_wide"] = np.pad(v, (9, 14), mode="reflect", reflect_type="odd")
cases["pad_symmetric_odd_u8"] = np.pad(u8, (7, 11), mode="symmetric", reflect_type="odd")
cases["pad_symmetric_odd_bool"] = np.pad(cmask, (5, 6), mode="symmetric", reflect_type="odd")
cases["pad_reflect_odd_bool"] = np.pad(cmask, (4, 7), mode="reflect", reflect_type="odd")
cases["pad_reflect_odd_complex"] = np.pad(cz, ((2, 3), (4, 1)), mode="reflect", reflect_type="odd")
# Non-integer floats over several rounds: the rounding of each round.
cases["pad_reflect_odd_float"] = np.pad(r, ((7, 9), (2, 8)), mode="reflect", reflect_type="odd")
cases["pad_symmetric_odd_float"] = np.pad(r, ((5, 6), (7, 3)), mode="symmetric", reflect_type="odd")
cases["pad_reflect_even_given"] = np.pad(v, (4, 3), mode="reflect", reflect_type="even")
# A singleton axis pads with its edge, odd or not (NumPy's legacy rule).
cases["pad_reflect_odd_singleton"] = np.pad(a[:2, :1, :3], ((1, 1), (2, 3), (1, 0)), mode="reflect", reflect_type="odd")
cases["pad_symmetric_odd_strided"] = np.pad(at, ((1, 2), (0, 1), (2, 0)), mode="symmetric", reflect_type="odd")
cases["pad_linear_ramp_complex_f32"] = np.pad(a[0], ((2, 1), (1, 3)), mode="linear_ramp", end_values=2.5 + 1j)
cases["pad_linear_ramp_complex_bool"] = np.pad(cmask, (2, 3), mode="linear_ramp", end_values=1j)
cases["pad_linear_ramp_complex_f64"] = np.pad(r, ((3, 2), (1, 2)), mode="linear_ramp", end_values=((0.5 - 2j, 1j), (3, -1 + 1j)))
cases["put_wrap"] = put("wrap")
cases["put_clip"] = put("clip")

out = {f"in.{k}": x for k, x in inputs.items()}
for name, r in cases.items():
    rs = r if isinstance(r, list) else [r]
    for k, x in enumerate(rs):
        out[f"{name}.{k}"] = np.ascontiguousarray(x)

outdir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
np.savez_compressed(outdir / "manip_golden.npz", **out)
