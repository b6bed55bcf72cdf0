"""Goldens for gpu-signal's peak finding (SciPy's own outputs):
peaks_golden.npz, read by the host tests of src/peak_finding (no GPU).
Members are `<case>__<part>`:

- `sig__<j>`: the signals; each case names its own by `xi` = [j];
- `find__<i>`: `xi`, `opts` (float64: height min/max, threshold min/max,
  distance, prominence min/max, width min/max, wlen, rel_height,
  plateau min/max; nan where not given; a condition with both borders
  nan is given as (None, None), -inf marks one not given at all), the
  optional per-sample borders `hmin_arr`, `hmax_arr`, and `peaks` and
  each property SciPy returned (`prop_<name>`); `distance` only on signals
  whose maxima differ in height (NumPy breaks ties by an unstable sort);
- `prom__<i>`: `xi`, `peaks`, `wlen` (nan: none) and `prominences`,
  `left_bases`, `right_bases`; `widths__<i>`: also `rel_height` and
  `widths`, `width_heights`, `left_ips`, `right_ips`.

Run through `cargo xtask golden` (numpy and scipy needed): the optional
first argument is the output folder (this one by default).
"""
import os
import sys

import numpy as np
from scipy import signal

NAN = float("nan")
NOT_GIVEN = -np.inf


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rng = np.random.default_rng(20261207)
    m = {}

    def signal_with_plateaus(n):
        # Rounded random walk plus bumps: plateaus and repeated values.
        x = np.cumsum(rng.standard_normal(n))
        x += 3 * np.sin(np.arange(n) / 7.0)
        return np.round(x * 4) / 4

    def smooth(n):
        t = np.arange(n)
        return (np.sin(t / 5.0) + 0.5 * np.sin(t / 1.7 + 1.0) + 0.3 * rng.standard_normal(n))

    xs = [signal_with_plateaus(400), smooth(500), signal_with_plateaus(57), smooth(3),
          np.array([0.0, 1.0, 1.0, 1.0, 0.0, 2.0, 2.0, 3.0, 3.0, 1.0]),
          np.array([1.0, 1.0, 1.0]), np.array([0.0, 2.0, np.nan, 3.0, 0.0, 1.0, 0.0])]

    def cond(c):
        if c is None:
            return [NOT_GIVEN, NOT_GIVEN]
        if isinstance(c, tuple):
            return [NAN if v is None or isinstance(v, np.ndarray) else v for v in c]
        return [c, NAN]

    option_sets = [
        dict(),
        dict(height=0.5),
        dict(height=(None, 2.0), threshold=0.1),
        dict(threshold=(0.0, 1.0)),
        dict(distance=5),
        dict(distance=2.5, height=(None, None)),
        dict(prominence=1.0),
        dict(prominence=(0.5, 4.0), wlen=21),
        dict(width=2.0),
        dict(width=(1.0, 10.0), rel_height=0.8, prominence=(None, None)),
        dict(width=(None, None), rel_height=1.0, wlen=15.5),
        dict(plateau_size=2),
        dict(plateau_size=(1, 3), height=0.0, distance=3, prominence=0.2, width=1.0),
        dict(height="arr"),
    ]
    for xi, x in enumerate(xs):
        m[f"sig__{xi}"] = x
    k = 0
    for xi, x in enumerate(xs):
        for oi, o in enumerate(option_sets):
            kw = dict(o)
            extra = {}
            if kw.get("height") == "arr":
                hmin = np.linspace(-1.0, 1.0, x.size)
                hmax = np.full(x.size, 5.0)
                kw["height"] = (hmin, hmax)
                extra = dict(hmin_arr=hmin, hmax_arr=hmax)
            if "distance" in kw:
                # Equal heights within the distance are left to NumPy's
                # unstable argsort (SIMD sorts differ by machine): only
                # signals whose maxima all differ in height.
                cand, _ = signal.find_peaks(x)
                h = x[cand]
                if np.unique(h).size != h.size:
                    continue
            peaks, props = signal.find_peaks(x, **kw)
            opts = (cond(kw.get("height")) + cond(kw.get("threshold"))
                    + [kw.get("distance", NAN)] + cond(kw.get("prominence"))
                    + cond(kw.get("width")) + [kw.get("wlen", NAN), kw.get("rel_height", 0.5)]
                    + cond(kw.get("plateau_size")))
            m[f"find__{k}__xi"] = np.array([xi], dtype=np.float64)
            m[f"find__{k}__opts"] = np.array(opts, dtype=np.float64)
            m[f"find__{k}__peaks"] = peaks.astype(np.int64)
            for name, v in extra.items():
                m[f"find__{k}__{name}"] = v
            for name, v in props.items():
                m[f"find__{k}__prop_{name}"] = np.asarray(v)
            k += 1

    for i, x in enumerate(xs[:3]):
        peaks, _ = signal.find_peaks(x)
        for j, wlen in enumerate([None, 5, 30.2]):
            c = f"prom__{3 * i + j}"
            prom = signal.peak_prominences(x, peaks, wlen=wlen)
            m[f"{c}__xi"], m[f"{c}__peaks"] = np.array([float(i)]), peaks.astype(np.int64)
            m[f"{c}__wlen"] = np.array([NAN if wlen is None else wlen], dtype=np.float64)
            for name, v in zip(["prominences", "left_bases", "right_bases"], prom):
                m[f"{c}__{name}"] = np.asarray(v)
            for rh in (0.0, 0.5, 1.0, 2.0):
                c2 = f"widths__{12 * i + 4 * j + [0.0, 0.5, 1.0, 2.0].index(rh)}"
                w = signal.peak_widths(x, peaks, rel_height=rh, wlen=wlen)
                m[f"{c2}__xi"], m[f"{c2}__peaks"] = np.array([float(i)]), peaks.astype(np.int64)
                m[f"{c2}__wlen"] = np.array([NAN if wlen is None else wlen], dtype=np.float64)
                m[f"{c2}__rel_height"] = np.array([rh], dtype=np.float64)
                for name, v in zip(["widths", "width_heights", "left_ips", "right_ips"], w):
                    m[f"{c2}__{name}"] = np.asarray(v)

    np.savez_compressed(os.path.join(out, "peaks_golden.npz"), **m)
    print(f"peaks_golden.npz: {len(m)} members")


if __name__ == "__main__":
    main()
