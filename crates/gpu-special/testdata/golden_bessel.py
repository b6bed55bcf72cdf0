"""Goldens of bessel.cuh's functions beyond golden_base.py's j0..i1:
i0e, i1e, k0, k0e, k1, k1e (see make_golden.py)."""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, logu, mpf, pm, uni


def ie_mp(n):
    def f(x):
        x = mpf(x)
        return mp.exp(-abs(x)) * mp.besseli(n, x)
    return f


def k_mp(n, scaled):
    def f(x):
        x = mpf(x)
        if x < 0:
            return mp.nan
        if x == 0:
            return mp.inf
        if mp.isinf(x):
            return 0.0
        v = mp.besselk(n, x)
        return v * mp.exp(x) if scaled else v
    return f


def small_large(hi):
    # SciPy's usual range plus tails toward 0 and large x.
    return lambda n: np.concatenate([uni(0, 30, n // 2), logu(1e-30, hi, n - n // 2)])


FUNCS = {
    "i0e": Case(1, ie_mp(0), sc.i0e, lambda n: pm(np.concatenate([uni(0, 60, n // 4), logu(1e-30, 1e300, n // 4)])), goal=None),
    "i1e": Case(1, ie_mp(1), sc.i1e, lambda n: pm(np.concatenate([uni(0, 60, n // 4), logu(1e-30, 1e300, n // 4)])), goal=None),
    "k0": Case(1, k_mp(0, False), sc.k0, small_large(700.0), goal=None),
    "k0e": Case(1, k_mp(0, True), sc.k0e, small_large(1e300), goal=None),
    # k1 also about its series/Chebyshev switch at x = 1 and SciPy's at 2.
    "k1": Case(1, k_mp(1, False), sc.k1,
               lambda n: np.concatenate([small_large(705.0)(n - n // 8), uni(0.9, 2.1, n // 8)]),
               goal=None),
    "k1e": Case(1, k_mp(1, True), sc.k1e,
                lambda n: np.concatenate([small_large(1e300)(n - n // 8), uni(0.9, 2.1, n // 8)]),
                goal=None),
}
