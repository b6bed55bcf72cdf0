"""NumPy's order statistics (quantile, percentile, median and the nan forms)
for gpu-array's tests/gpu_math.rs (`order_statistics_golden`): writes
quantile_golden.npz beside this file. Case names:
`{func}__{method}__{axis}__{keepdims}__{q}__{input}` with `q` either `s`
(scalar, stored as `.q` with one value) or `v` (a list), axis `none` or an
int; `.q` and `.out` arrays per case, each input once as `input.{tag}`."""
from pathlib import Path

import numpy as np

rng = np.random.default_rng(20261129)
cases = {}


def add(name, a, q, out):
    cases[f"{name}.q"] = np.array(q, dtype=np.float64).reshape(-1)
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
        for method in ("linear", "lower", "higher", "nearest", "midpoint"):
            q = [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0]
            add(f"quantile__{method}__{at}__0__v__{tag}", a, q,
                np.quantile(a, q, axis=axis, method=method))
            add(f"nanquantile__{method}__{at}__0__v__{tag}", a, q,
                np.nanquantile(a, q, axis=axis, method=method))
            add(f"percentile__{method}__{at}__1__s__{tag}", a, [37.5],
                np.percentile(a, 37.5, axis=axis, method=method, keepdims=True))
            add(f"nanpercentile__{method}__{at}__0__s__{tag}", a, [62.5],
                np.nanpercentile(a, 62.5, axis=axis, method=method))

out = Path(__file__).with_name("quantile_golden.npz")
np.savez_compressed(out, **cases)
print((len(cases) - len(inputs)) // 2, "cases")
