"""Goldens for gpu-ndimage's interpolation GPU tests (tests/gpu/interp.rs):
golden_interp.npz, SciPy's own outputs. Members are named
`<case>__in`, `<case>__out` (and `<case>__coords` for map_coordinates);
the case name carries the function and its options, which the Rust test
parses. Inputs are seeded and lines are at least 10 long (SciPy's reflect
prefilter initialisation departs from the exact one by ~1e-5 on shorter
lines). Run through `cargo xtask golden` (numpy and scipy needed): the
optional first argument is the output folder (this one by default).
"""
import os
import sys

import numpy as np
from scipy import ndimage as ndi

MODES = ["constant", "grid-constant", "nearest", "mirror", "reflect", "grid-mirror", "wrap",
         "grid-wrap"]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rng = np.random.default_rng(20250523)
    m = {}
    x1 = rng.standard_normal(12)
    x2 = rng.standard_normal((10, 11))
    x3 = rng.standard_normal((10, 10, 11))
    # spline_filter1d / spline_filter, every order and mode.
    for order in range(6):
        for mode in MODES:
            m[f"sf1d__o{order}__{mode}__ax0"] = (x2, ndi.spline_filter1d(x2, order, 0, mode=mode))
            m[f"sf1d__o{order}__{mode}__ax1"] = (x2, ndi.spline_filter1d(x2, order, 1, mode=mode))
        if order > 1:
            m[f"sf__o{order}__mirror__f32"] = (x2, ndi.spline_filter(x2, order, output=np.float32))
    # map_coordinates: 1-D, 2-D, orders, modes, prefilter on and off.
    c1 = np.concatenate([np.linspace(-20, 30, 97), [-0.5, 0.5, 11.0, 11.5, -1e-9]])[None, :]
    c2 = rng.uniform(-4, 14, (2, 7, 9))
    for order in range(6):
        for mode in MODES:
            for pf in (True, False):
                tag = f"o{order}__{mode}__pf{int(pf)}__c1.5"
                m[f"mc1__{tag}"] = (x1, ndi.map_coordinates(x1, c1, order=order, mode=mode,
                                                            cval=1.5, prefilter=pf), c1)
            m[f"mc2__o{order}__{mode}__pf1__c0"] = (x2, ndi.map_coordinates(x2, c2, order=order,
                                                                            mode=mode), c2)
    # Output dtypes: uint8 (rounded and clamped), int16, float32.
    xi = (rng.uniform(0, 255, (10, 12))).astype(np.uint8)
    for order in (0, 1, 3):
        for dt in (np.uint8, np.int16, np.float32, np.float64):
            name = np.dtype(dt).name
            m[f"zoomdt__o{order}__{name}"] = (xi, ndi.zoom(xi, 1.7, order=order, output=dt))
    # zoom with and without grid_mode, 2-D and 3-D.
    for order in range(6):
        for mode in ("constant", "grid-constant", "nearest", "mirror", "reflect", "grid-wrap"):
            for gm in (False, True):
                m[f"zoom2__o{order}__{mode}__g{int(gm)}"] = (
                    x2, ndi.zoom(x2, (1.5, 0.8), order=order, mode=mode, grid_mode=gm))
        m[f"zoom3__o{order}__reflect__g0"] = (x3, ndi.zoom(x3, 1.3, order=order, mode="reflect"))
    # shift, affine_transform (full, homogeneous, diagonal), rotate.
    for order in range(6):
        for mode in MODES:
            m[f"shift2__o{order}__{mode}"] = (x2, ndi.shift(x2, (1.25, -2.5), order=order,
                                                            mode=mode, cval=0.5))
        mat = np.array([[0.9, 0.2], [-0.3, 1.1]])
        m[f"aff2__o{order}__mirror"] = (x2, ndi.affine_transform(
            x2, mat, offset=(0.5, -1.0), output_shape=(12, 9), order=order, mode="mirror"))
        h = np.array([[0.9, 0.2, 0.5], [-0.3, 1.1, -1.0], [0, 0, 1]])
        m[f"affh2__o{order}__nearest"] = (x2, ndi.affine_transform(x2, h, order=order,
                                                                   mode="nearest"))
        m[f"affd2__o{order}__reflect"] = (x2, ndi.affine_transform(
            x2, np.array([0.7, 1.3]), offset=0.25, order=order, mode="reflect"))
        for rs in (True, False):
            m[f"rot2__o{order}__constant__r{int(rs)}"] = (x2, ndi.rotate(x2, 33.0, reshape=rs,
                                                                         order=order))
        m[f"rot3__o{order}__nearest__r1"] = (x3, ndi.rotate(x3, -20.0, axes=(2, 0), order=order,
                                                            mode="nearest"))
    arrays = {}
    for k, v in m.items():
        arrays[k + "__in"] = v[0]
        arrays[k + "__out"] = v[1]
        if len(v) > 2:
            arrays[k + "__coords"] = v[2]
    np.savez_compressed(os.path.join(out, "golden_interp.npz"), **arrays)


if __name__ == "__main__":
    main()
