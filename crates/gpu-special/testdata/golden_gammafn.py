"""Goldens of the real loggamma, rgamma, gammasgn and poch (gammafn.cuh);
see make_golden.py. References: mpmath's loggamma, rgamma and gamma
ratio (rf) at 50 digits."""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, logu, mpf, pm, uni


def loggamma_mp(x):
    x = mpf(x)
    if x < 0:
        return mp.nan
    return mp.loggamma(x)


def rgamma_mp(x):
    return mp.rgamma(mpf(x))


def gammasgn_mp(x):
    x = mpf(x)
    if x <= 0 and x == mp.floor(x):
        raise ValueError
    return mp.sign(mp.gamma(x)) if abs(x) < 1e6 else (1 if x > 0 else (-1) ** int(mp.ceil(-x)))


def poch_mp(z, m):
    z, m = mpf(z), mpf(m)
    with mp.workdps(60):
        return mp.rf(z, m)


def loggamma_points(n):
    k = n // 4
    return np.concatenate([logu(1e-300, 1, k), uni(0.5, 3, k), logu(3, 1e300, k),
                           uni(1, 2, n - 3 * k)])


def rgamma_points(n):
    k = n // 6
    near = -np.floor(uni(1, 170, k)) + pm(logu(1e-15, 0.1, k // 2))[: k]
    return np.concatenate([logu(1e-300, 1, k), uni(0.5, 30, k), uni(30, 185, k),
                           -uni(0, 30, k), -uni(30, 190, k), near[: n - 5 * k]])


def gammasgn_points(n):
    return np.concatenate([uni(0, 10, n // 3), -uni(0, 200, n // 3), -logu(1e-300, 1e9, n - 2 * (n // 3))])


def poch_points(n):
    k = n // 5
    g1 = (uni(0, 10, k), uni(-5, 5, k))
    g2 = (logu(10, 1e6, k), uni(-1, 1, k))
    g3 = (-uni(0, 20, k), uni(-10, 10, k))
    g4 = (logu(1e-3, 100, k), np.floor(uni(-20, 20, k)))
    m = n - 4 * k
    g5 = (logu(0.1, 1e3, m), uni(-50, 50, m))
    return tuple(np.concatenate(g) for g in zip(g1, g2, g3, g4, g5))


FUNCS = {
    "loggamma": Case(1, loggamma_mp, sc.loggamma, loggamma_points),
    "rgamma": Case(1, rgamma_mp, sc.rgamma, rgamma_points),
    "gammasgn": Case(1, gammasgn_mp, sc.gammasgn, gammasgn_points, goal=0.0, goal32=0.0),
    "poch": Case(2, poch_mp, sc.poch, poch_points, goal=None),
}
