"""Goldens for gpu-signal's LTI conversions (SciPy's own outputs):
lti_golden.npz, read by the host tests of src/lti (no GPU). Members are
`<function>__<i>__<part>`:

- tf2ss: `num`, `den` and `A`, `B`, `C`, `D`;
- ss2tf: `A`, `B`, `C`, `D`, `input` and `num` (outputs x (n + 1)), `den`
  (systems of 1-5 states, 1-3 inputs and outputs, random entries).

Run through `cargo xtask golden` (numpy and scipy needed): the optional
first argument is the output folder (this one by default).
"""
import os
import sys

import numpy as np
from scipy import signal


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rng = np.random.default_rng(20261207)
    m = {}
    counts = {}

    def add(fn, **parts):
        i = counts.get(fn, 0)
        counts[fn] = i + 1
        for k, v in parts.items():
            m[f"{fn}__{i}__{k}"] = np.asarray(v, dtype=np.float64)

    for num, den in (([1.0, 3.0, 3.0], [1.0, 2.0, 1.0]), ([1.0], [1.0, 0.5]),
                     ([2.0, 1.0], [4.0, 3.0, 2.0, 1.0]), ([5.0], [2.0]),
                     ([0.0, 0.0, 1.0, 2.0], [1.0, -1.5, 0.7, -0.1]),
                     ([3.0, 2.0, 1.0], [1.0, 0.0, 0.0])):
        a, b, c, d = signal.tf2ss(num, den)
        add("tf2ss", num=num, den=den, A=a, B=b, C=c, D=d)
    for n, p, q in ((1, 1, 1), (2, 1, 1), (3, 2, 1), (4, 1, 2), (5, 3, 3), (3, 1, 1)):
        a = rng.standard_normal((n, n))
        b = rng.standard_normal((n, p))
        c = rng.standard_normal((q, n))
        d = rng.standard_normal((q, p))
        for inp in range(p):
            num, den = signal.ss2tf(a, b, c, d, input=inp)
            add("ss2tf", A=a, B=b, C=c, D=d, input=[inp], num=np.atleast_2d(num),
                den=np.atleast_1d(den))

    np.savez_compressed(os.path.join(out, "lti_golden.npz"), **m)
    print(f"lti_golden.npz: {len(m)} members")


if __name__ == "__main__":
    main()
