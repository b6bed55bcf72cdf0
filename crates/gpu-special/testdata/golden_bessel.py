"""Goldens of bessel.cuh's functions beyond golden_base.py's j0..i1:
i0e, i1e, k0, k0e, k1, k1e, yn, spherical_jn, spherical_yn,
spherical_jn_d, spherical_yn_d (see make_golden.py)."""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, ints, logu, mpf, pm, uni
import golden_common as gc


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


def yn_mp(n, x):
    if x <= 0:
        raise ValueError
    return mp.bessely(int(n), mpf(x))


def yn_points(n):
    m = n // 3
    nn = np.concatenate([ints(-50, 51, n - m), ints(0, 6, m)])
    x = np.concatenate([uni(0, 100, m), logu(1e-3, 25, m), logu(25, 1e4, n - 2 * m)])
    return nn, x


def int_edges(orders):
    def f(dtype):
        g = np.meshgrid(np.array(orders, dtype=np.float64), gc.EDGES, indexing="ij")
        return g[0].ravel(), g[1].ravel()
    return f


def sph_mp(kind):
    def f(n, x):
        if n < 0:
            raise ValueError
        x = mpf(x)
        if x == 0:
            raise ValueError
        s = 1
        if x < 0:
            x = -x
            s = (-1) ** n if kind == "j" else (-1) ** (n + 1)
        b = mp.besselj if kind == "j" else mp.bessely
        return s * mp.sqrt(mp.pi / (2 * x)) * b(n + mp.mpf(1) / 2, x)
    return f


def sph_points(n):
    m = n // 4
    nn = np.concatenate([ints(0, 30, n - m), ints(30, 120, m)])
    x = np.concatenate([uni(0, 60, 2 * m), logu(1e-5, 1, m // 2), -uni(0, 30, m // 2),
                        logu(60, 1e4, n - 2 * m - 2 * (m // 2))])
    return nn, x


# yn: SciPy's Cephes recurrence at x = 1e20 with n = 2^31 takes 44 s a
# point and returns a wrong value, so the edge orders stop at 200.
YN_ORDERS = [0, 1, 2, 3, 5, 50, 200, -1, -2, -3, -50, 2.5, -3.9]
SPH_ORDERS = [0, 1, 2, 3, 5, 50, 200, -1, -2]
FUNCS["yn"] = Case(2, yn_mp, sc.yn, yn_points, goal=None, ints=(0,),
                   edges=int_edges(YN_ORDERS), timeout=5.0)
# spherical_jn, spherical_yn: SciPy's loops are ld->d and lf->f, and an
# int64 n beside a float32 array resolves to ld->d, so only the float64
# set is made (the lf->f loop is the double one rounded once).
FUNCS["spherical_jn"] = Case(2, sph_mp("j"), sc.spherical_jn, sph_points, goal=None, ints=(0,),
                             edges=int_edges(SPH_ORDERS), dtypes=("f8",), timeout=5.0)
FUNCS["spherical_yn"] = Case(2, sph_mp("y"), sc.spherical_yn, sph_points, goal=None, ints=(0,),
                             edges=int_edges(SPH_ORDERS), dtypes=("f8",), timeout=5.0)


def sph_d_mp(kind):
    f = sph_mp(kind)

    def d(n, x):
        if n < 0 or x == 0:
            raise ValueError
        if n == 0:
            return -f(1, x)
        return f(n - 1, x) - (n + 1) * f(n, x) / mpf(x)
    return d


# The derivatives (spherical_jn(n, x, derivative=True), SciPy's
# _spherical_jn_d and _spherical_yn_d ufuncs behind its reflection).
FUNCS["spherical_jn_d"] = Case(2, sph_d_mp("j"), lambda n, x: sc.spherical_jn(n, x, derivative=True),
                               sph_points, goal=None, ints=(0,), edges=int_edges(SPH_ORDERS),
                               dtypes=("f8",), timeout=5.0)
FUNCS["spherical_yn_d"] = Case(2, sph_d_mp("y"), lambda n, x: sc.spherical_yn(n, x, derivative=True),
                               sph_points, goal=None, ints=(0,), edges=int_edges(SPH_ORDERS),
                               dtypes=("f8",), timeout=5.0)
