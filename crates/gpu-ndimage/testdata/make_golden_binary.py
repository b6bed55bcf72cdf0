"""Goldens for gpu-ndimage's binary morphology GPU tests
(tests/gpu/binary.rs): golden_binary.npz, SciPy's own outputs. Members are
`<case>__in`, `<case>__out` and, when the case has them, `__s` (the
structure; `__s2` the second of hit-or-miss) and `__mask`. The case name
is `<function>__<tag>` followed by options the Rust test parses:
`it<iterations>`, `bv<0|1>`, `o<origins joined by _>` (`o2` for
hit-or-miss's second origin), `ax<axis>`. Run through `cargo xtask
golden` (numpy and scipy needed): the optional first argument is the
output folder (this one by default).
"""
import os
import sys

import numpy as np
from scipy import ndimage as ndi


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rng = np.random.default_rng(20261207)
    m = {}

    def add(name, x, y, s=None, s2=None, mask=None):
        m[f"{name}__in"] = x
        m[f"{name}__out"] = y
        if s is not None:
            m[f"{name}__s"] = np.asarray(s, dtype=bool)
        if s2 is not None:
            m[f"{name}__s2"] = np.asarray(s2, dtype=bool)
        if mask is not None:
            m[f"{name}__mask"] = mask

    x2 = rng.random((9, 11)) < 0.6
    x3 = rng.random((5, 6, 7)) < 0.7
    xi = rng.integers(0, 3, (8, 7)).astype(np.uint8)
    full = ndi.generate_binary_structure(2, 2)
    asym = np.array([[1, 1, 0], [0, 1, 1]], bool)
    mask2 = rng.random((9, 11)) < 0.8
    ops = {"erosion": ndi.binary_erosion, "dilation": ndi.binary_dilation,
           "opening": ndi.binary_opening, "closing": ndi.binary_closing}
    for op, f in ops.items():
        for it in (1, 2, -1):
            for bv in (0, 1):
                add(f"{op}__x2__it{it}__bv{bv}", x2, f(x2, iterations=it, border_value=bv))
                add(f"{op}__full__it{it}__bv{bv}", x2,
                    f(x2, full, iterations=it, border_value=bv), s=full)
        add(f"{op}__asym__it1__bv0__o0_1", x2, f(x2, asym, origin=(0, 1)), s=asym)
        add(f"{op}__asym__it2__bv1__o-1_0", x2,
            f(x2, asym, iterations=2, border_value=1, origin=(-1, 0)), s=asym)
        add(f"{op}__mask__it3__bv0", x2, f(x2, iterations=3, mask=mask2), mask=mask2)
        add(f"{op}__x3__it1__bv0", x3, f(x3))
        add(f"{op}__x3full__it2__bv0", x3, f(x3, ndi.generate_binary_structure(3, 3),
                                                iterations=2),
            s=ndi.generate_binary_structure(3, 3))
        add(f"{op}__int__it1__bv0", xi, f(xi))
        line = np.ones(3, bool)
        add(f"{op}__axes__it1__bv0__ax1", x2, f(x2, line, axes=(1,)), s=line)
    # Hit-or-miss: defaults, custom structures, origins.
    add("hitmiss__default", x2, ndi.binary_hit_or_miss(x2))
    s1 = np.array([[0, 1, 0], [1, 1, 1], [0, 0, 0]], bool)
    s2 = np.array([[0, 0, 0], [0, 0, 0], [1, 1, 1]], bool)
    add("hitmiss__custom", x2, ndi.binary_hit_or_miss(x2, s1, s2), s=s1, s2=s2)
    add("hitmiss__origins__o0_1__o2-1_0", x2,
        ndi.binary_hit_or_miss(x2, s1, s2, origin1=(0, 1), origin2=(-1, 0)), s=s1, s2=s2)
    add("hitmiss__s1only", x2, ndi.binary_hit_or_miss(x2, s1), s=s1)
    # Propagation within a mask, from sparse seeds.
    seeds = rng.random((9, 11)) < 0.05
    add("propagation__mask", seeds, ndi.binary_propagation(seeds, mask=x2), mask=x2)
    add("propagation__full", seeds, ndi.binary_propagation(seeds, full, mask=x2), s=full,
        mask=x2)
    # Hole filling: rings with holes, random images, both connectivities.
    rings = np.zeros((12, 14), bool)
    rings[1:6, 1:6] = True
    rings[2:5, 2:5] = False
    rings[7:11, 8:13] = True
    rings[8, 9] = False
    add("fill__rings", rings, ndi.binary_fill_holes(rings))
    holes = rng.random((15, 16)) < 0.55
    add("fill__random", holes, ndi.binary_fill_holes(holes))
    add("fill__randomfull", holes, ndi.binary_fill_holes(holes, full), s=full)
    add("fill__x3", x3, ndi.binary_fill_holes(x3))
    np.savez_compressed(os.path.join(out, "golden_binary.npz"), **m)
    print(f"golden_binary.npz: {sum(1 for k in m if k.endswith('__out'))} cases")


if __name__ == "__main__":
    main()
