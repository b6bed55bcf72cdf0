"""Goldens for gpu-ndimage's Fourier filters and compound grey morphology
GPU tests (tests/gpu/fourier.rs, tests/gpu/morphology.rs):
golden_fourier.npz, SciPy's own outputs. Members are `<case>__in`,
`<case>__p` (the per-axis sigma, size or shift, float64) and
`<case>__out`; the case name carries the function and its options, which
the Rust tests parse: `n<n>` (-1: complex transforms), `ax<axis>`,
`t<0|1>` (the function applied to the input's transpose, a strided view),
`o<dtype>` (an output dtype, `o-` for the default). Morphology cases are
`<function>__<mode>__s<size>` with the size per axis. Run through
`cargo xtask golden` (numpy and scipy needed): the optional first
argument is the output folder (this one by default).
"""
import os
import sys

import numpy as np
from scipy import ndimage as ndi

FOURIER = {
    "gauss": ndi.fourier_gaussian,
    "unif": ndi.fourier_uniform,
    "ell": ndi.fourier_ellipsoid,
    "shift": ndi.fourier_shift,
}

MORPHOLOGY = {
    "gradient": ndi.morphological_gradient,
    "laplace": ndi.morphological_laplace,
    "white": ndi.white_tophat,
    "black": ndi.black_tophat,
}


def data(rng, shape, dtype):
    if np.dtype(dtype).kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-50 if np.dtype(dtype).kind == "i" else 0, 50, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rng = np.random.default_rng(20261206)
    m = {}
    shapes = {"s7": (7,), "s8": (8,), "s5x6": (5, 6), "s1x6": (1, 6), "s4x5x6": (4, 5, 6)}
    params = {1: [1.3], 2: [1.3, 2.1], 3: [1.3, 0.7, 2.1]}
    for func, f in FOURIER.items():
        for tag, shape in shapes.items():
            nd = len(shape)
            p = np.array(params[nd])
            variants = [(-1, -1, 0), (2 * shape[-1] - 1, -1, 0), (max(2 * shape[0] - 2, 1), 0, 0)]
            if nd == 2:
                variants.append((-1, -1, 1))
            for n, axis, t in variants:
                for dt in ("float64", "float32", "int32", "complex128", "complex64"):
                    x = data(rng, shape, dt)
                    xin = x.T if t else x
                    y = f(xin, p, n, axis)
                    m[f"{func}__{tag}__{dt}__n{n}__ax{axis}__t{t}__o-"] = (x, p, y)
            # Output dtypes.
            x = data(rng, shape, "float64")
            for odt in ("float32", "complex64", "complex128"):
                if func == "shift" and odt == "float32":
                    continue
                y = f(x, p, -1, -1, output=np.dtype(odt).type)
                m[f"{func}__{tag}__float64__n-1__ax-1__t0__o{odt}"] = (x, p, y)
    # Compound grey morphology: every mode, odd and even sizes, int and
    # float inputs.
    xi = rng.integers(0, 40, (6, 7)).astype(np.int32)
    xf = rng.standard_normal((6, 7))
    for func, f in MORPHOLOGY.items():
        for mode in ("reflect", "constant", "nearest", "mirror", "wrap"):
            for size in ((3, 3), (2, 3)):
                for x, dt in ((xi, "int32"), (xf, "float64")):
                    y = f(x, size=size, mode=mode, cval=1.5)
                    tag = f"s{size[0]}x{size[1]}"
                    m[f"{func}__{mode}__{tag}__{dt}__o-"] = (x, np.array(size, float), y)
    flat = {}
    for k, (x, p, y) in m.items():
        flat[f"{k}__in"] = x
        flat[f"{k}__p"] = p
        flat[f"{k}__out"] = y
    np.savez_compressed(os.path.join(out, "golden_fourier.npz"), **flat)
    print(f"golden_fourier.npz: {len(m)} cases")


if __name__ == "__main__":
    main()
