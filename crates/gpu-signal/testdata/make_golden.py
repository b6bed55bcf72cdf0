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
    # oaconvolve: long signals and short kernels (several blocks), either
    # order, 2-D along one axis, every mode.
    for tag, (sa, sb, ax) in {"long": ((2000,), (37,), None), "swap": ((45,), (1500,), None),
                              "rows": ((3, 900), (1, 21), 1), "2d": ((120, 90), (7, 5), None)}.items():
        a = rng.standard_normal(sa)
        b = rng.standard_normal(sb)
        for mode in ("full", "same", "valid"):
            try:
                y = signal.oaconvolve(a, b, mode=mode, axes=ax)
            except ValueError:
                continue
            add(f"oaconvolve__{tag}__{mode}__ax{-1 if ax is None else ax}", a, b, y)
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
    # sepfir2d: odd filters, float64 and float32 (float32 filters, as
    # SciPy requires); `b` holds hrow then hcol, their lengths in the name.
    for dt in (np.float64, np.float32):
        for lr, lc in ((3, 5), (7, 1), (1, 3)):
            hr = rng.standard_normal(lr).astype(dt)
            hc = rng.standard_normal(lc).astype(dt)
            x = img.astype(dt)
            add(f"sepfir2d__{np.dtype(dt).name}__r{lr}__c{lc}", x,
                np.concatenate([hr, hc]).astype(np.float64), signal.sepfir2d(x, hr, hc))
    # filtfilt with Gustafsson's method: `b` holds the filter's b then a
    # (lengths nb, na in the name), irlen 0 meaning None.
    for order, n, irlen in ((2, 60, 0), (4, 201, 0), (4, 201, 15)):
        bb, aa = signal.butter(order, 0.2)
        xg = rng.standard_normal((3, n))
        add(f"filtfilt_gust__o{order}__n{n}__i{irlen}__nb{len(bb)}", xg,
            np.concatenate([bb, aa]),
            signal.filtfilt(bb, aa, xg, method="gust", irlen=irlen or None))
    add("wiener__f64__k3", img, None, signal.wiener(img))
    add("wiener__f64__k5__n0.5", img, None, signal.wiener(img, 5, 0.5))
    # upfirdn: every mode, rates, float32/complex, 2-D along both axes.
    modes = ["constant", "wrap", "edge", "smooth", "symmetric", "reflect", "antisymmetric",
             "antireflect", "line"]
    x1 = rng.standard_normal(23)
    h1 = rng.standard_normal(7)
    for mode in modes:
        for up, down in ((1, 1), (3, 2), (2, 5), (4, 1)):
            # upfirdn's filter is `a`, its signal `b`.
            add(f"upfirdn__x1__{mode}__u{up}__d{down}__ax0", h1, x1,
                signal.upfirdn(h1, x1, up, down, mode=mode, cval=0.5))
    x2 = rng.standard_normal((6, 17)).astype(np.float32)
    h2 = rng.standard_normal(5).astype(np.float32)
    for ax in (0, 1):
        add(f"upfirdn__x2f32__symmetric__u3__d2__ax{ax}", h2, x2,
            signal.upfirdn(h2, x2, 3, 2, axis=ax, mode="symmetric"))
    xc = (rng.standard_normal(15) + 1j * rng.standard_normal(15)).astype(np.complex64)
    add("upfirdn__xc__line__u2__d3__ax0", h1, xc, signal.upfirdn(h1, xc, 2, 3, mode="line"))
    # resample: up and down, odd and even lengths, real and complex, the
    # frequency domain, windows, 2-D along both axes.
    for n in (16, 17):
        x = rng.standard_normal(n)
        for num in (8, 9, 32, 33):
            add(f"resample__n{n}__num{num}__ax0", x, None, signal.resample(x, num))
            w = np.hanning(n)
            add(f"resample__n{n}__num{num}__ax0__w", x, w, signal.resample(x, num, window=w))
            xc = x + 1j * rng.standard_normal(n)
            add(f"resample__c{n}__num{num}__ax0", xc, None, signal.resample(xc, num))
            add(f"resample__c{n}__num{num}__ax0__w", xc, w, signal.resample(xc, num, window=w))
            add(f"resample__f{n}__num{num}__ax0__freq", xc, None,
                signal.resample(xc, num, domain="freq"))
    x2 = rng.standard_normal((10, 12)).astype(np.float32)
    for ax in (0, 1):
        add(f"resample__2d__num7__ax{ax}", x2, None, signal.resample(x2, 7, axis=ax))
    # resample_poly: rates, padtypes, float32, 2-D along both axes, a
    # window by name and given taps.
    xr = rng.standard_normal(101)
    for up, down in ((3, 2), (2, 5), (4, 4), (7, 3)):
        for pad in ("constant", "mean", "median", "line", "reflect"):
            add(f"resample_poly__x__u{up}__d{down}__p{pad}__ax0", xr, None,
                signal.resample_poly(xr, up, down, padtype=pad))
    x2p = rng.standard_normal((5, 64)).astype(np.float32)
    for ax in (0, 1):
        add(f"resample_poly__2d__u3__d2__pconstant__ax{ax}", x2p, None,
            signal.resample_poly(x2p, 3, 2, axis=ax))
    add("resample_poly__hamming__u5__d3__pconstant__ax0", xr, None,
        signal.resample_poly(xr, 5, 3, window="hamming"))
    taps = signal.firwin(31, 0.3)
    add("resample_poly__taps__u2__d3__pconstant__ax0", xr, taps,
        signal.resample_poly(xr, 2, 3, window=taps))
    # A window by name: fftshift(get_window('hann', n)).
    x = rng.standard_normal(20)
    add("resample__named__num13__ax0__hann", x, None, signal.resample(x, 13, window="hann"))
    np.savez_compressed(os.path.join(out, "signal_golden.npz"), **m)
    print(f"signal_golden.npz: {sum(1 for k in m if k.endswith('__out'))} cases")


if __name__ == "__main__":
    main()
