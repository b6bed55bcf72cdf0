"""Goldens of gpu-signal's lombscargle: SciPy 1.17's own outputs.

lombscargle_golden.npz (read by tests/gpu/spectral.rs): each case
`lomb__<k>__norm=<power|normalize|amplitude>__floating=<0|1>__pre=<0|1>`
has `__x`, `__y`, `__f` (angular frequencies), `__out` and, when weighted,
`__w`. Unevenly spaced times, lengths from 4 to 2000, with a sinusoid and
an offset in the data. (With a floating mean and three or fewer samples the
fit is underdetermined and SciPy's answer depends on rounding: no such
cases.)

Run through `cargo xtask golden` (numpy and scipy needed): the optional
first argument is the output folder (this one by default).
"""
import os
import sys
import warnings

import numpy as np
from scipy import signal


def cases():
    rng = np.random.default_rng(20261206)
    m = {}
    k = 0
    for n, nf in ((4, 3), (17, 40), (256, 500), (2000, 64)):
        x = np.sort(rng.uniform(0, 60, n))
        y = 1.5 * np.sin(0.8 * x + 0.3) + rng.standard_normal(n) * 0.5 + 2.0
        f = np.sort(rng.uniform(0.05, 6.0, nf))
        w = rng.uniform(0.0, 2.0, n)
        for weighted in (False, True):
            for floating in (False, True):
                for norm in ("power", "normalize", "amplitude"):
                    for pre in (False, True):
                        kw = dict(normalize=norm, floating_mean=floating,
                                  weights=w if weighted else None)
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore", DeprecationWarning)
                            if pre:
                                kw["precenter"] = True
                            out = signal.lombscargle(x, y, f, **kw)
                        name = (f"lomb__{k}__norm={norm}__floating={int(floating)}"
                                f"__pre={int(pre)}")
                        k += 1
                        m[name + "__x"] = x
                        m[name + "__y"] = y
                        m[name + "__f"] = f
                        m[name + "__out"] = out
                        if weighted:
                            m[name + "__w"] = w
    return m


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    c = cases()
    np.savez_compressed(os.path.join(out, "lombscargle_golden.npz"), **c)
    print(f"lombscargle_golden.npz: {sum(1 for k in c if k.endswith('__out'))} cases")


if __name__ == "__main__":
    main()
