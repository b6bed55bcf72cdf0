"""Goldens for gpu-special's GPU tests: special_golden.npz.

For each function and dtype, two sets:
- `range`: points over the function's standard test ranges (and its
  roots, near-poles and tails), with the reference computed by mpmath at
  50 digits and rounded to the dtype; SciPy's own output beside it, so
  the accuracy table can state SciPy's error too.
- `edge`: 0, -0, denormals, poles, huge arguments, NaN and infinities,
  with SciPy's output as the reference (special values must match it
  exactly).

Members: `<func>__<dtype>__<set>__x` (and `__y` for two inputs),
`__ref`, `__scipy`. Run through `cargo xtask golden` (numpy, scipy and
mpmath in the virtual environment); the optional argument is the output
folder (this one by default).
"""
import os
import sys

import mpmath as mp
import numpy as np
import scipy.special as sc

mp.mp.dps = 50
rng = np.random.default_rng(20261202)
N64, N32 = 1500, 600


def uni(lo, hi, n):
    return rng.uniform(lo, hi, n)


def logu(lo, hi, n):
    return np.exp(rng.uniform(np.log(lo), np.log(hi), n))


def pm(v):
    return np.concatenate([v, -v])


def mpf(v):
    return mp.mpf(float(v))


# name: (number of inputs, mpmath function, scipy function, point maker)
def erfcinv_mp(x):
    x = mpf(x)
    # 1 - x must keep x's digits: as many more as x has leading zeros.
    digits = 50 + (int(-mp.log10(x)) if 0 < x < 1 else 0)
    with mp.workdps(digits):
        return mp.erfinv(1 - x)


def erfcx_mp(x):
    x = mpf(x)
    if x > 1e4:
        # DLMF 7.12.1: erfc(x) e^{x^2} ~ 1/(x sqrt(pi)) (1 - 1/(2x^2) + 3/(4x^4)).
        z = 1 / (x * x)
        return (1 - z / 2 + 3 * z * z / 4) / (x * mp.sqrt(mp.pi))
    return mp.exp(x * x) * mp.erfc(x)


def ndtr_mp(x):
    return mp.ncdf(mpf(x))


def gammaln_mp(x):
    x = mpf(x)
    return mp.log(abs(mp.gamma(x)))


def zetac_mp(s):
    return mp.zeta(mpf(s)) - 1


def pseudo_huber_mp(d, r):
    d, r = mpf(d), mpf(r)
    if d < 0:
        return mp.inf
    if d == 0 or r == 0:
        return mp.mpf(0)
    return d * d * (mp.sqrt(1 + (r / d) ** 2) - 1)


def huber_mp(d, r):
    d, r = mpf(d), mpf(r)
    if d < 0:
        return mp.inf
    return r * r / 2 if abs(r) <= d else d * (abs(r) - d / 2)


def entr_mp(x):
    x = mpf(x)
    return -x * mp.log(x) if x > 0 else (mp.mpf(0) if x == 0 else -mp.inf)


def rel_entr_mp(x, y):
    x, y = mpf(x), mpf(y)
    return x * mp.log(x / y)


def kl_div_mp(x, y):
    x, y = mpf(x), mpf(y)
    return x * mp.log(x / y) - x + y


FUNCS = {
    "erf": (1, lambda x: mp.erf(mpf(x)), sc.erf,
            lambda n: np.concatenate([uni(-6, 6, n // 2), pm(logu(1e-300, 1, n // 4))])),
    "erfc": (1, lambda x: mp.erfc(mpf(x)), sc.erfc,
             lambda n: np.concatenate([uni(-6, 27, n // 2), pm(logu(1e-300, 1, n // 4))])),
    "erfcx": (1, erfcx_mp, sc.erfcx,
              lambda n: np.concatenate([uni(-26, 30, n // 2), logu(30, 1e300, n // 2)])),
    "erfinv": (1, lambda x: mp.erfinv(mpf(x)), sc.erfinv,
               lambda n: np.concatenate([uni(-1, 1, n // 2), pm(1 - logu(1e-16, 0.5, n // 4))])),
    "erfcinv": (1, erfcinv_mp, sc.erfcinv,
                lambda n: np.concatenate([uni(0, 2, n // 2), logu(1e-300, 1, n // 2)])),
    "ndtr": (1, ndtr_mp, sc.ndtr, lambda n: uni(-38, 9, n)),
    "gamma": (1, lambda x: mp.gamma(mpf(x)), sc.gamma,
              lambda n: np.concatenate([uni(-170, 171.6, n // 2), pm(logu(1e-300, 1, n // 4))])),
    "gammaln": (1, gammaln_mp, sc.gammaln,
                lambda n: np.concatenate([uni(-100, 100, n // 4), logu(1e-300, 1e300, n // 4),
                                          uni(0.9, 1.1, n // 8), uni(1.9, 2.1, n // 8),
                                          uni(-5, 0, n // 4)])),
    "digamma": (1, lambda x: mp.digamma(mpf(x)), sc.digamma,
                lambda n: np.concatenate([uni(-100, 100, n // 4), logu(1e-300, 1e15, n // 4),
                                          uni(1.2, 1.7, n // 4), uni(-5, 0, n // 4)])),
    "zetac": (1, zetac_mp, sc.zetac,
              lambda n: np.concatenate([uni(-30, 1, n // 4), uni(1.001, 60, n // 2),
                                        logu(1e-10, 1, n // 4)])),
    "riemann_zeta": (1, lambda s: mp.zeta(mpf(s)), lambda s: sc.zeta(s),
                     lambda n: np.concatenate([uni(-30, 1, n // 2), uni(1.001, 60, n // 2)])),
    "j0": (1, lambda x: mp.besselj(0, mpf(x)), sc.j0, lambda n: pm(uni(0, 100, n // 2))),
    "j1": (1, lambda x: mp.besselj(1, mpf(x)), sc.j1, lambda n: pm(uni(0, 100, n // 2))),
    "y0": (1, lambda x: mp.bessely(0, mpf(x)), sc.y0,
           lambda n: np.concatenate([uni(0, 100, n // 2), logu(1e-300, 1, n // 2)])),
    "y1": (1, lambda x: mp.bessely(1, mpf(x)), sc.y1,
           lambda n: np.concatenate([uni(0, 100, n // 2), logu(1e-300, 1, n // 2)])),
    "i0": (1, lambda x: mp.besseli(0, mpf(x)), sc.i0, lambda n: pm(uni(0, 700, n // 2))),
    "i1": (1, lambda x: mp.besseli(1, mpf(x)), sc.i1, lambda n: pm(uni(0, 700, n // 2))),
    "entr": (1, entr_mp, sc.entr, lambda n: np.concatenate([uni(0, 10, n // 2), logu(1e-300, 1e300, n // 2)])),
    "expit": (1, lambda x: 1 / (1 + mp.exp(-mpf(x))), sc.expit, lambda n: uni(-700, 700, n)),
    "logit": (1, lambda p: mp.log(mpf(p) / (1 - mpf(p))), sc.logit,
              lambda n: np.concatenate([uni(0, 1, n // 2), logu(1e-300, 0.5, n // 4),
                                        1 - logu(1e-16, 0.5, n // 4)])),
    "rel_entr": (2, rel_entr_mp, sc.rel_entr,
                 lambda n: (logu(1e-5, 1e5, n), logu(1e-5, 1e5, n))),
    "kl_div": (2, kl_div_mp, sc.kl_div,
               lambda n: (logu(1e-5, 1e5, n), logu(1e-5, 1e5, n))),
    "huber": (2, huber_mp, sc.huber, lambda n: (uni(0, 10, n), uni(-100, 100, n))),
    "pseudo_huber": (2, pseudo_huber_mp, sc.pseudo_huber,
                     lambda n: (logu(1e-3, 10, n), np.concatenate([uni(-100, 100, n // 2),
                                                                  pm(logu(1e-8, 1e-2, n // 4))]))),
    "zeta": (2, lambda s, q: mp.zeta(mpf(s), mpf(q)), sc.zeta,
             lambda n: (uni(1.01, 60, n), logu(0.05, 1e3, n))),
    "polygamma": (2, lambda k, x: mp.polygamma(int(k), mpf(x)), sc.polygamma,
                  lambda n: (rng.integers(0, 8, n).astype(float), logu(0.01, 100, n))),
}

EDGES = np.array([0.0, -0.0, 5e-324, -5e-324, 1e-310, 1e-40, -1e-40, 1e-300, 0.5, 1.0, -1.0, 2.0,
                  -2.0, -1.5, 3.0, 1e20, -1e20, 1e300, -1e300, 3e38, 700.0, 1000.0, np.inf,
                  -np.inf, np.nan])


def scipy_eval(name, f, args):
    with np.errstate(all="ignore"):
        if name == "riemann_zeta":
            return f(*args)
        return f(*args)


def to_ref(values, dtype):
    return np.array([float(v) if mp.isfinite(v) or mp.isinf(v) else np.nan for v in values],
                    dtype=np.float64).astype(dtype)


def main():
    out = {}
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for name, (nin, mpfun, scfun, points) in FUNCS.items():
        for dtype, n in ((np.float64, N64), (np.float32, N32)):
            tag = "f8" if dtype == np.float64 else "f4"
            p = points(n)
            args = list(p) if nin == 2 else [p]
            args = [np.asarray(a, dtype=np.float64).astype(dtype) for a in args]
            # Points the dtype's rounding put on a pole (a float32 1e-300 is
            # 0) belong to the edge set, not here.
            ref, keep = [], []
            for k in range(len(args[0])):
                try:
                    ref.append(mpfun(*[a[k] for a in args]))
                    keep.append(k)
                except (ValueError, ZeroDivisionError):
                    pass
            args = [a[keep] for a in args]
            key = f"{name}__{tag}__range"
            for j, a in enumerate(args):
                out[f"{key}__{'xy'[j]}"] = a
            out[f"{key}__ref"] = to_ref(ref, dtype)
            out[f"{key}__scipy"] = np.asarray(scipy_eval(name, scfun, args)).astype(dtype)
            # Edges: every pair of edge values for two inputs.
            e = EDGES.astype(dtype)
            eargs = [e] if nin == 1 else [np.repeat(e, len(e)), np.tile(e, len(e))]
            if name == "polygamma":
                eargs = [np.repeat(np.array([0, 1, 2, 3.5, -1], dtype), len(e)),
                         np.tile(e, 5)]
            key = f"{name}__{tag}__edge"
            for j, a in enumerate(eargs):
                out[f"{key}__{'xy'[j]}"] = a
            s = np.asarray(scipy_eval(name, scfun, eargs)).astype(dtype)
            out[f"{key}__ref"] = s
            out[f"{key}__scipy"] = s
        print(name, file=sys.stderr)
    np.savez_compressed(os.path.join(folder, "special_golden.npz"), **out)


if __name__ == "__main__":
    main()
