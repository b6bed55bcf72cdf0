#!/usr/bin/env python3
"""SciPy's outputs for gpu-fft's real trigonometric transforms: the oracle of
crates/gpu-fft/tests/gpu/realtrig.rs. Run `python3 make_golden.py OUTDIR`
(OUTDIR defaults to this folder); needs NumPy 2 and SciPy.

Writes OUTDIR/realtrig_golden.npz. Each case NAME has the input `NAME.x`
(float64, or complex128 for the complex cases) and SciPy's output
`NAME.y`. NAME is `func__type=T__n=N__axis=A__norm=M__orth=O__tag` for the
1-D functions (N `-` for none, O `-` for the default) and
`func__type=T__s=S__axes=X__norm=M__orth=O__tag` for the n-dimensional
ones (S and X comma-separated, `-` for none).
"""

import sys
from pathlib import Path

import numpy as np
import scipy.fft as sf

rng = np.random.default_rng(20261202)
cases = {}


def put(name, x, y):
    cases[name + ".x"] = np.ascontiguousarray(x)
    cases[name + ".y"] = np.ascontiguousarray(y)


def one_d():
    for func in ("dct", "idct", "dst", "idst"):
        f = getattr(sf, func)
        for t in (1, 2, 3, 4):
            for norm in ("backward", "ortho", "forward"):
                for orth in (None, False) if norm == "ortho" else (None,):
                    for shape, n, axis, tag in (
                        ((9,), None, -1, "odd"),
                        ((3, 8), None, -1, "rows"),
                        ((6, 5), None, 0, "cols"),
                        ((4, 7), 10, -1, "padded"),
                        ((4, 7), 5, -1, "cut"),
                    ):
                        x = rng.uniform(-1, 1, shape)
                        y = f(x, type=t, n=n, axis=axis, norm=norm, orthogonalize=orth)
                        name = (f"{func}__type={t}__n={'-' if n is None else n}__axis={axis}"
                                f"__norm={norm}__orth={'-' if orth is None else int(orth)}__{tag}")
                        put(name, x, y)
    # Complex input: real and imaginary parts separately.
    for func in ("dct", "dst"):
        x = rng.uniform(-1, 1, (2, 6)) + 1j * rng.uniform(-1, 1, (2, 6))
        y = getattr(sf, func)(x, type=2)
        put(f"{func}__type=2__n=-__axis=-1__norm=backward__orth=-__complex", x, y)


def n_d():
    for func in ("dctn", "idctn", "dstn", "idstn"):
        f = getattr(sf, func)
        for t in (1, 2, 3, 4):
            for norm in ("backward", "ortho"):
                for s, axes, tag in (
                    (None, None, "all"),
                    (None, (0, 2), "axes"),
                    ((6, 4), (2, 1), "s"),
                ):
                    x = rng.uniform(-1, 1, (3, 5, 4))
                    y = f(x, type=t, s=s, axes=axes, norm=norm)
                    fmt = lambda v: "-" if v is None else ",".join(str(int(e)) for e in v)
                    put(f"{func}__type={t}__s={fmt(s)}__axes={fmt(axes)}__norm={norm}__orth=-__{tag}",
                        x, y)


def hankel():
    from scipy.fft._fftlog_backend import fhtcoeff
    for n, dln, mu, offset, bias in (
        (64, 0.1, 0.0, 0.0, 0.0),
        (65, 0.05, 0.5, 0.3, 0.0),
        (128, 0.08, 2.0, 0.0, 0.4),
        (33, 0.2, -0.5, -0.2, -0.3),
        (16, 0.1, 1.0, 0.0, 2.0),   # xm = 0: a pole, u[0] from poch
    ):
        tag = f"n={n}__dln={dln}__mu={mu}__offset={offset}__bias={bias}"
        x = rng.uniform(0.5, 1.5, (2, n))
        put(f"fht__{tag}", x, sf.fht(x, dln, mu, offset=offset, bias=bias))
        put(f"ifht__{tag}", x, sf.ifht(x, dln, mu, offset=offset, bias=bias))
        for inv in (0, 1):
            u = fhtcoeff(n, dln, mu, offset=offset, bias=bias, inverse=bool(inv))
            cases[f"fhtcoeff__{tag}__inverse={inv}.y"] = np.asarray(u, dtype=np.complex128)
    for dln, mu, initial, bias in ((0.1, 2.0, 0.5, 0.0), (0.05, 0.0, 0.0, 0.3), (0.3, -0.5, 1.0, -0.2)):
        cases[f"fhtoffset__dln={dln}__mu={mu}__initial={initial}__bias={bias}.y"] = np.array(
            [sf.fhtoffset(dln, mu, initial=initial, bias=bias)])


one_d()
n_d()
hankel()
out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
out.mkdir(parents=True, exist_ok=True)
np.savez_compressed(out / "realtrig_golden.npz", **cases)
print(f"{len(cases)} arrays -> {out / 'realtrig_golden.npz'}")
