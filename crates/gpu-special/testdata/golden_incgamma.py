"""Goldens of the incomplete gamma functions (incgamma.cuh); see make_golden.py."""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, logu, mpf, uni


def _ig(a, x, upper):
    a, x = mpf(a), mpf(x)
    if not (a > 0 and x > 0) or mp.isinf(a) or mp.isinf(x):
        raise ValueError
    return mp.gammainc(a, 0 if not upper else x, x if not upper else mp.inf, regularized=True)


def gammainc_mp(a, x):
    return _ig(a, x, False)


def gammaincc_mp(a, x):
    if 0 < a < 1e-200 and 0 < x < float("inf"):
        # Q(a, x) = a E1(x) (1 + O(a)) (DLMF 8.4.4, 5.7.1): mpmath gives
        # NaN at denormal a.
        return mpf(a) * mp.e1(mpf(x))
    return _ig(a, x, True)


def ig_points(n):
    k = n // 5
    a1 = logu(1e-3, 10, k)
    x1 = logu(1e-3, 30, k)
    a2 = logu(0.5, 1e4, k)
    x2 = a2 * uni(0.5, 1.5, k)
    a3 = logu(10, 1e5, k)
    x3 = a3 * (1 + uni(-3, 3, k) / np.sqrt(a3))
    a4 = logu(1e-10, 1, k)
    x4 = logu(1e-6, 1.5, k)
    m = n - 4 * k
    a5 = logu(1e-2, 200, m)
    x5 = logu(1e-2, 700, m)
    return (np.concatenate([a1, a2, a3, a4, a5]), np.concatenate([x1, x2, x3, x4, x5]))


def ndtri_mp(p):
    p = mpf(p)
    if not 0 < p < 1:
        raise ValueError
    if p > 0.5:
        return mp.sqrt(2) * mp.erfinv(2 * p - 1)
    return -mp.sqrt(2) * mp.erfinv(1 - 2 * p) if p > 1e-10 else _ndtri_tail(p)


def _ndtri_tail(p):
    # ndtr(t) = p, solved in log form (mpmath's erfinv near -1 is slow).
    lp = mp.log(p)
    return mp.findroot(lambda t: mp.log(mp.ncdf(t)) - lp, -mp.sqrt(-2 * lp))


def ndtri_points(n):
    k = n // 3
    return np.concatenate([uni(0, 1, k), logu(1e-300, 0.25, k), 1 - logu(1e-16, 0.25, n - 2 * k)])


def log_ndtr_mp(x):
    x = mpf(x)
    if x > 0:
        return mp.log1p(-mp.ncdf(-x))
    return mp.log(mp.ncdf(x))


def log_ndtr_points(n):
    k = n // 3
    return np.concatenate([uni(-5, 5, k), -logu(5, 1e5, k), logu(5, 38, n - 2 * k)])


FUNCS = {
    "ndtri": Case(1, ndtri_mp, sc.ndtri, ndtri_points, goal=4.0),
    "log_ndtr": Case(1, log_ndtr_mp, sc.log_ndtr, log_ndtr_points, goal=4.0),
    "gammainc": Case(2, gammainc_mp, sc.gammainc, ig_points, goal=None),
    "gammaincc": Case(2, gammaincc_mp, sc.gammaincc, ig_points, goal=None),
}
