"""Goldens for gpu-signal's GPU tests (tests/gpu/*.rs): signal_golden.npz,
SciPy's own outputs. Members are `<case>__a`, `<case>__b` (the second
input, a domain or nothing) and `<case>__out`; the case name is
`<function>__<tag>` followed by the options the Rust tests parse: the
mode (`full`, `same`, `valid`), the method (`direct`, `fft`, `auto`), the
boundary (`fill`, `wrap`, `symm`), `ax<axis>`, `k<size>`, `r<rank>`,
`n<noise>`. Run through `cargo xtask golden` (numpy and scipy needed): the
optional first argument is the output folder (this one by default).
"""
import os
import sys

import numpy as np
from scipy import signal


def data(rng, shape, dt):
    if np.dtype(dt).kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    if np.dtype(dt).kind in "iu":
        return rng.integers(-9, 10, shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rng = np.random.default_rng(20261208)
    m = {}

    def add(name, a, b, y):
        m[f"{name}__a"] = a
        if b is not None:
            m[f"{name}__b"] = b
        m[f"{name}__out"] = np.asarray(y)

    shapes = {"1d": ((37,), (6,)), "1dodd": ((20,), (7,)), "2d": ((9, 12), (4, 3)),
              "2dsmall": ((3, 4), (5, 6)), "3d": ((5, 6, 7), (2, 3, 3))}
    for tag, (sa, sb) in shapes.items():
        for dt in ("float64", "float32", "complex128", "int32"):
            a, b = data(rng, sa, dt), data(rng, sb, dt)
            for mode in ("full", "same", "valid"):
                for method in ("direct", "fft", "auto"):
                    for f in ("convolve", "correlate"):
                        try:
                            y = getattr(signal, f)(a, b, mode=mode, method=method)
                        except ValueError:
                            continue
                        add(f"{f}__{tag}{dt}__{mode}__{method}", a, b, y)
    # fftconvolve along axes, with broadcasting off them.
    a = rng.standard_normal((4, 50))
    b = rng.standard_normal((1, 9))
    for mode in ("full", "same", "valid"):
        add(f"fftconvolve__bcast__{mode}__ax1", a, b,
            signal.fftconvolve(a, b, mode=mode, axes=1))
    a32 = rng.standard_normal((6, 40)).astype(np.float32)
    b32 = rng.standard_normal((6, 5)).astype(np.float32)
    add("fftconvolve__f32__full__ax1", a32, b32, signal.fftconvolve(a32, b32, axes=1))
    # convolve2d / correlate2d: every mode and boundary, odd and even kernels.
    for tag, (sa, sb) in {"odd": ((8, 9), (3, 3)), "even": ((7, 10), (2, 4)),
                          "big": ((4, 5), (6, 7))}.items():
        for dt in ("float64", "complex128", "int32"):
            a, b = data(rng, sa, dt), data(rng, sb, dt)
            for mode in ("full", "same", "valid"):
                for bd in ("fill", "wrap", "symm"):
                    for f in ("convolve2d", "correlate2d"):
                        try:
                            y = getattr(signal, f)(a, b, mode=mode, boundary=bd, fillvalue=2)
                        except ValueError:
                            continue
                        add(f"{f}__{tag}{dt}__{mode}__{bd}", a, b, y)
    # Order filters and the Wiener filter.
    img = rng.standard_normal((11, 13))
    imi = rng.integers(0, 255, (11, 13)).astype(np.uint8)
    dom = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], bool)
    for r in (0, 2, 4):
        add(f"order_filter__cross__r{r}", img, dom, signal.order_filter(img, dom, r))
    add("medfilt__f64__k3", img, None, signal.medfilt(img))
    add("medfilt__u8__k5", imi, None, signal.medfilt(imi, 5))
    v3 = rng.standard_normal((5, 6, 7)).astype(np.float32)
    add("medfilt__3d__k3", v3, None, signal.medfilt(v3))
    add("medfilt2d__u8__k3", imi, None, signal.medfilt2d(imi))
    add("medfilt2d__f64__k5", img, None, signal.medfilt2d(img, 5))
    add("wiener__f64__k3", img, None, signal.wiener(img))
    add("wiener__f64__k5__n0.5", img, None, signal.wiener(img, 5, 0.5))
    np.savez_compressed(os.path.join(out, "signal_golden.npz"), **m)
    print(f"signal_golden.npz: {sum(1 for k in m if k.endswith('__out'))} cases")


if __name__ == "__main__":
    main()
