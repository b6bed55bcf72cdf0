"""NumPy's order statistics (quantile, percentile, median and the nan forms)
for gpu-array's tests/gpu/math.rs (`order_statistics_golden`): writes
quantile_golden.npz beside this file. Case names:
`{func}__{method}__{axis}__{keepdims}__{q}__{input}` with `q` either `s`
(scalar, stored as `.q` with one value), `v` (a list) or `m` (an array of
any shape, stored with its shape), axis `none`, an int or several ints
joined by `,` (a tuple axis; `t` alone is the empty tuple); `.q` and
`.out` arrays per case, each input once as `input.{tag}`."""
from pathlib import Path

import numpy as np

rng = np.random.default_rng(20261129)
cases = {}


def add(name, a, q, out, keep_shape=False):
    q = np.array(q, dtype=np.float64)
    cases[f"{name}.q"] = q if keep_shape else q.reshape(-1)
    cases[f"{name}.out"] = np.array(out, order="C")


inputs = {
    "f8_7x9": rng.standard_normal((7, 9)),
    "f4_40x33": rng.standard_normal((40, 33)).astype(np.float32),
    "f2_6x10": rng.standard_normal((6, 10)).astype(np.float16),
    "i4_5x8x6": rng.integers(-50, 50, (5, 8, 6)).astype(np.int32),
    "u1_100": rng.integers(0, 255, 100).astype(np.uint8),
}
nan = rng.standard_normal((6, 11))
nan[1, 3] = np.nan
nan[4, :] = np.nan
nan[2, [0, 5, 9]] = np.nan
inputs["f8nan_6x11"] = nan

for tag, a in inputs.items():
    cases[f"input.{tag}"] = np.array(a, order="C")
    axes = [None, 0, -1] if a.ndim > 1 else [None, 0]
    for axis in axes:
        at = "none" if axis is None else str(axis)
        for kd in (False, True):
            add(f"median__linear__{at}__{int(kd)}__s__{tag}", a, [0.5],
                np.median(a, axis=axis, keepdims=kd))
            add(f"nanmedian__linear__{at}__{int(kd)}__s__{tag}", a, [0.5],
                np.nanmedian(a, axis=axis, keepdims=kd))
        # The classic five, then the Hyndman-Fan methods (discrete and
        # continuous); the q list holds values where n q is a whole number
        # for some inputs (the discrete methods' ties).
        for method in ("linear", "lower", "higher", "nearest", "midpoint",
                       "inverted_cdf", "averaged_inverted_cdf",
                       "closest_observation", "interpolated_inverted_cdf",
                       "hazen", "weibull", "median_unbiased", "normal_unbiased"):
            q = [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0]
            add(f"quantile__{method}__{at}__0__v__{tag}", a, q,
                np.quantile(a, q, axis=axis, method=method))
            add(f"nanquantile__{method}__{at}__0__v__{tag}", a, q,
                np.nanquantile(a, q, axis=axis, method=method))
            add(f"percentile__{method}__{at}__1__s__{tag}", a, [37.5],
                np.percentile(a, 37.5, axis=axis, method=method, keepdims=True))
            add(f"nanpercentile__{method}__{at}__0__s__{tag}", a, [62.5],
                np.nanpercentile(a, 62.5, axis=axis, method=method))

def nanquantile_merged(a, q, axis, method):
    """np.nanquantile over the tuple `axis`, with the axes merged first:
    NumPy 2.4's nanquantile misplaces the result's axes for a q of two or
    more dimensions with two or more axes (it moves axes `-1 + i` after its
    apply_along_axis), giving (3, 5, 2) where quantile gives (2, 3, 5)."""
    axis = [x % a.ndim for x in axis]
    kept = [d for d in range(a.ndim) if d not in axis]
    m = np.transpose(a, kept + axis).reshape([a.shape[d] for d in kept] + [-1])
    return np.nanquantile(m, q, axis=m.ndim - 1, method=method)


# Tuple axes (reduced together, keepdims keeping each) and q of any shape.
f3 = rng.standard_normal((4, 5, 6)).astype(np.float32)
f3[1, 2, :] = np.nan
f3[0, :, 3] = np.nan
f3[3, 4, 5] = np.nan
tuple_inputs = {"f4nan_4x5x6": f3, "i4_5x8x6": inputs["i4_5x8x6"]}
cases["input.f4nan_4x5x6"] = f3
qm = np.array([[0.0, 0.3, 0.5], [0.75, 0.9, 1.0]])
for tag, a in tuple_inputs.items():
    for axis in [(0, 2), (-1, 0), (0, 1, 2), ()]:
        at = ",".join(str(x) for x in axis) if axis else "t"
        for kd in (False, True):
            add(f"median__linear__{at}__{int(kd)}__s__{tag}", a, [0.5],
                np.median(a, axis=axis, keepdims=kd))
            add(f"nanmedian__linear__{at}__{int(kd)}__s__{tag}", a, [0.5],
                np.nanmedian(a, axis=axis, keepdims=kd))
        if not axis:
            continue  # the empty tuple: the medians above suffice
        for method in ("linear", "nearest"):
            add(f"quantile__{method}__{at}__1__m__{tag}", a, qm,
                np.quantile(a, qm, axis=axis, method=method, keepdims=True), keep_shape=True)
            add(f"nanquantile__{method}__{at}__0__m__{tag}", a, qm,
                nanquantile_merged(a, qm, axis, method), keep_shape=True)
        add(f"nanpercentile__midpoint__{at}__0__v__{tag}", a, [12.5, 50.0, 99.0],
            np.nanpercentile(a, [12.5, 50.0, 99.0], axis=axis, method="midpoint"))
    # A 0-d array q: one value, but float64 as NumPy's array q.
    add(f"quantile__linear__0,2__0__m__{tag}", a, np.array(0.4),
        np.quantile(a, np.array(0.4), axis=(0, 2)), keep_shape=True)
    add(f"percentile__lower__none__0__m__{tag}", a, np.array([[25.0], [75.0]]),
        np.percentile(a, np.array([[25.0], [75.0]]), method="lower"), keep_shape=True)

out = Path(__file__).with_name("quantile_golden.npz")
np.savez_compressed(out, **cases)
print((len(cases) - len(inputs)) // 2, "cases")
