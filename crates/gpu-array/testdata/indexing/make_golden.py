"""NumPy's advanced indexing (get and set) for gpu-array's
tests/gpu/indexing.rs (`numpy_golden_get`, `numpy_golden_set`): writes
indexing_golden.npz beside this file.

Members: `in.{x}` the arrays indexed, `ix.{x}` the index arrays and masks
(shared by the cases), `get.{case}` NumPy's `x[index]` and `set.{case}`
the whole array after NumPy's `x[index] = value`. The index of each case
is spelled out in the test's `get_case`/`set_case` with the same name.
Out-of-bounds integer indices are CuPy's: they wrap, so the expected
values come from indices wrapped beforehand (`np.take(..., mode='wrap')`
semantics). Set cases have no duplicate positions (CuPy leaves the winner
undefined)."""
import sys
from pathlib import Path

import numpy as np

rng = np.random.default_rng(20260412)
out = {}

a = rng.standard_normal((3, 4, 5))
b = rng.integers(-100, 100, (6, 5)).astype(np.int32)
c = (rng.standard_normal((4, 3)) + 1j * rng.standard_normal((4, 3))).astype(np.complex64)
h = rng.standard_normal((5, 4)).astype(np.float16)
z = rng.integers(0, 2, (4, 5)).astype(bool)
u = rng.integers(0, 255, 7).astype(np.uint8)
for k, v in dict(a=a, b=b, c=c, h=h, z=z, u=u).items():
    out[f"in.{k}"] = v

ix = {
    "ia": np.array([0, -1, 2, 2], dtype=np.int64),
    "ib": np.array([[0], [2]], dtype=np.int32),
    "ic": np.array([1, 3, -1], dtype=np.int16),
    "id": np.array([3, 0, 1], dtype=np.uint8),
    "i2d": np.array([[0, 1], [3, -1]], dtype=np.int64),
    "i02": np.array([0, 2], dtype=np.int64),
    "i1m1": np.array([1, -1], dtype=np.int64),
    "i03": np.array([0, 3], dtype=np.int64),
    "i14": np.array([1, 4], dtype=np.int64),
    "i012": np.array([0, 1, 2], dtype=np.int64),
    "i30": np.array([3, 0], dtype=np.int64),
    "iempty": np.array([], dtype=np.int64),
    "i0d": np.array(1, dtype=np.int64),
    "iwrap": np.array([9, -8, 13], dtype=np.int32),
    "ic_int": np.array([3, 0], dtype=np.int8),
    "ic_int2": np.array([2, 1], dtype=np.uint16),
    "izb": np.array([1, 3], dtype=np.int64),
    "i14b": np.array([1, 4], dtype=np.int32),
    "i05": np.array([0, 5], dtype=np.int64),
    "m_a": rng.integers(0, 2, (3, 4, 5)).astype(bool),
    "m34": rng.integers(0, 2, (3, 4)).astype(bool),
    "m4": np.array([True, False, True, True]),
    "m3": np.array([True, False, True]),
    "m5": np.array([False, True, True, False, True]),
    "mnone": np.zeros(3, dtype=bool),
    "mtrue": np.array(True),
    "mfalse": np.array(False),
    "mh": h > 0,
}
for k, v in ix.items():
    out[f"ix.{k}"] = v
g = ix


def wrap(i, n):
    return np.asarray(i) % n


get = {
    "int_1d": a[g["ia"]],
    "int_axis1": a[:, g["ic"]],
    "int_last_u8": a[..., g["id"]],
    "two_bcast": a[g["ib"], g["ic"]],
    "separated": a[g["i02"], :, g["i1m1"]],
    "adjacent_mid": a[:, g["i03"], g["i14"]],
    "int_scalar_sep": a[1, :, g["id"]],
    "int_scalar_adj": a[:, 2, g["id"]],
    "int_2d": b[g["i2d"]],
    "mask_full": a[g["m_a"]],
    "mask_partial": a[g["m34"]],
    "mask_mid": a[:, g["m4"], 1],
    "mask_int_sep": a[g["m3"], :, g["i1m1"]],
    "mask_ellipsis": a[..., g["m5"]],
    "mask_empty": a[g["mnone"]],
    "mask_0d_true": b[g["mtrue"]],
    "mask_0d_false": b[g["mfalse"]],
    "mask_0d_int": b[g["mtrue"], g["i05"]],
    "newaxis_sep": a[g["i02"], None, g["i03"]],
    "newaxis_first": a[None, :, g["ic"]],
    "slices": a[1::-1, g["i30"], ::-2],
    "view_rev": a[::-1, ::2][:, g["i1m1"]],
    "transposed": a.transpose(2, 0, 1)[g["id"], ..., g["i012"]],
    "empty_index": a[:, g["iempty"]],
    "int_0d": a[g["i0d"], ::2],
    "c_int": c[g["ic_int"], g["ic_int2"]],
    "h_mask": h[g["mh"]],
    "z_bool_data": z[g["izb"]],
    "u_wrap": u[wrap(g["iwrap"], 7)],
    "b_wrap_axis1": b[:, wrap(g["iwrap"], 5)],
    "u_0d": u[g["i0d"]],
}
for k, v in get.items():
    # np.array keeps a 0-d result 0-d (CuPy returns a 0-d array, not a scalar).
    out[f"get.{k}"] = np.array(v, order="C")


def setting(x, f):
    y = x.copy()
    f(y)
    return y


m34 = g["m34"]
count = int(m34.sum())
vals = {
    "v5": np.arange(5, dtype=np.int32) * 3 - 7,
    "vmask": rng.standard_normal((count, 5)),
    "v4": rng.standard_normal(4),
    "vf": np.array([1.7, -2.9], dtype=np.float64),
    "v1x2x5": rng.standard_normal((1, 2, 5)),
}
for k, v in vals.items():
    out[f"val.{k}"] = v

sets = {
    "int_scalar": setting(a, lambda y: y.__setitem__(g["i02"], 2.5)),
    "int_bcast_row": setting(b, lambda y: y.__setitem__((g["i14b"], slice(None)), vals["v5"])),
    "mask_scalar": setting(a, lambda y: y.__setitem__(g["m34"], -1.0)),
    "mask_array": setting(a, lambda y: y.__setitem__(g["m34"], vals["vmask"])),
    "separated_bcast": setting(a, lambda y: y.__setitem__((g["i02"], slice(None), g["i1m1"]), vals["v4"])),
    "cast_float_to_int": setting(b, lambda y: y.__setitem__(g["i05"], vals["vf"][:, None])),
    "view_writes_through": setting(a, lambda y: y[::-1].__setitem__((slice(None), g["i03"]), 7.0)),
    "mask_0d_scalar": setting(b, lambda y: y.__setitem__(g["mtrue"], 3)),
    "u8_wrap_scalar": setting(u, lambda y: y.__setitem__(wrap(g["iwrap"], 7), 200)),
    "leading_ones_value": setting(a, lambda y: y.__setitem__((0, g["i02"]), vals["v1x2x5"])),
    "bool_data_mask": setting(z, lambda y: y.__setitem__(g["m4"], False)),
}
for k, v in sets.items():
    out[f"set.{k}"] = v

dest = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
dest.mkdir(parents=True, exist_ok=True)
np.savez_compressed(dest / "indexing_golden.npz", **out)
print(len(get), "get cases,", len(sets), "set cases")
