"""Goldens of the first 26 functions: erf.cuh, gamma.cuh, bessel.cuh and
convex.cuh (see make_golden.py)."""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, logu, mpf, pm, uni
import golden_common as gc

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
    s = mpf(s)
    if s > 40:
        # zeta(s) - 1 cancels below 50 digits: sum the terms themselves.
        return mp.fsum(mp.mpf(k) ** -s for k in range(2, 60))
    return mp.zeta(s) - 1


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
    "erf": Case(1, lambda x: mp.erf(mpf(x)), sc.erf,
            lambda n: np.concatenate([uni(-6, 6, n // 2), pm(logu(1e-300, 1, n // 4))]), goal=4.0),
    "erfc": Case(1, lambda x: mp.erfc(mpf(x)), sc.erfc,
             lambda n: np.concatenate([uni(-6, 27, n // 2), pm(logu(1e-300, 1, n // 4))]), goal=4.0),
    "erfcx": Case(1, erfcx_mp, sc.erfcx,
              lambda n: np.concatenate([uni(-26, 30, n // 2), logu(30, 1e300, n // 2)]), goal=4.0),
    "erfinv": Case(1, lambda x: mp.erfinv(mpf(x)), sc.erfinv,
               lambda n: np.concatenate([uni(-1, 1, n // 2), pm(1 - logu(1e-16, 0.5, n // 4))]), goal=4.0),
    "erfcinv": Case(1, erfcinv_mp, sc.erfcinv,
                lambda n: np.concatenate([uni(0, 2, n // 2), logu(1e-300, 1, n // 2)]), goal=4.0),
    "ndtr": Case(1, ndtr_mp, sc.ndtr, lambda n: uni(-38, 9, n), goal=4.0),
    "gamma": Case(1, lambda x: mp.gamma(mpf(x)), sc.gamma,
              lambda n: np.concatenate([uni(-170, 171.6, n // 2), pm(logu(1e-300, 1, n // 4))]), goal=4.0),
    "gammaln": Case(1, gammaln_mp, sc.gammaln,
                lambda n: np.concatenate([uni(-100, 100, n // 4), logu(1e-300, 1e300, n // 4),
                                          uni(0.9, 1.1, n // 8), uni(1.9, 2.1, n // 8),
                                          uni(-5, 0, n // 4)]), goal=None),
    "digamma": Case(1, lambda x: mp.digamma(mpf(x)), sc.digamma,
                lambda n: np.concatenate([uni(-100, 100, n // 4), logu(1e-300, 1e15, n // 4),
                                          uni(1.2, 1.7, n // 4), uni(-5, 0, n // 4)]), goal=None),
    "zetac": Case(1, zetac_mp, sc.zetac,
              lambda n: np.concatenate([uni(-30, 1, n // 4), uni(1.001, 60, n // 2),
                                        logu(1e-10, 1, n // 4)]), goal=None),
    "riemann_zeta": Case(1, lambda s: mp.zeta(mpf(s)), lambda s: sc.zeta(s),
                     lambda n: np.concatenate([uni(-30, 1, n // 2), uni(1.001, 60, n // 2)]), goal=None),
    "j0": Case(1, lambda x: mp.besselj(0, mpf(x)), sc.j0, lambda n: pm(uni(0, 100, n // 2)), goal=None),
    "j1": Case(1, lambda x: mp.besselj(1, mpf(x)), sc.j1, lambda n: pm(uni(0, 100, n // 2)), goal=None),
    "y0": Case(1, lambda x: mp.bessely(0, mpf(x)), sc.y0,
           lambda n: np.concatenate([uni(0, 100, n // 2), logu(1e-300, 1, n // 2)]), goal=None),
    "y1": Case(1, lambda x: mp.bessely(1, mpf(x)), sc.y1,
           lambda n: np.concatenate([uni(0, 100, n // 2), logu(1e-300, 1, n // 2)]), goal=None),
    "i0": Case(1, lambda x: mp.besseli(0, mpf(x)), sc.i0, lambda n: pm(uni(0, 700, n // 2)), goal=4.0),
    "i1": Case(1, lambda x: mp.besseli(1, mpf(x)), sc.i1, lambda n: pm(uni(0, 700, n // 2)), goal=4.0),
    "entr": Case(1, entr_mp, sc.entr, lambda n: np.concatenate([uni(0, 10, n // 2), logu(1e-300, 1e300, n // 2)]), goal=4.0),
    "expit": Case(1, lambda x: 1 / (1 + mp.exp(-mpf(x))), sc.expit, lambda n: uni(-700, 700, n), goal=4.0),
    "logit": Case(1, lambda p: mp.log(mpf(p) / (1 - mpf(p))), sc.logit,
              lambda n: np.concatenate([uni(0, 1, n // 2), logu(1e-300, 0.5, n // 4),
                                        1 - logu(1e-16, 0.5, n // 4)]), goal=4.0),
    "rel_entr": Case(2, rel_entr_mp, sc.rel_entr,
                 lambda n: (logu(1e-5, 1e5, n), logu(1e-5, 1e5, n)), goal=4.0),
    "kl_div": Case(2, kl_div_mp, sc.kl_div,
               lambda n: (logu(1e-5, 1e5, n), logu(1e-5, 1e5, n)), goal=None),
    "huber": Case(2, huber_mp, sc.huber, lambda n: (uni(0, 10, n), uni(-100, 100, n)), goal=4.0),
    "pseudo_huber": Case(2, pseudo_huber_mp, sc.pseudo_huber,
                     lambda n: (logu(1e-3, 10, n), np.concatenate([uni(-100, 100, n // 2),
                                                                  pm(logu(1e-8, 1e-2, n // 4))])), goal=4.0),
    "zeta": Case(2, lambda s, q: mp.zeta(mpf(s), mpf(q)), sc.zeta,
             lambda n: (uni(1.01, 60, n), logu(0.05, 1e3, n)), goal=None),
    "polygamma": Case(2, lambda k, x: mp.polygamma(int(k), mpf(x)), sc.polygamma,
                  lambda n: (gc.rng.integers(0, 8, n).astype(float), logu(0.01, 100, n)), goal=None,
                      ints=(), edges=lambda dt: (np.repeat(np.array([0, 1, 2, 3.5, -1]), len(gc.EDGES)), np.tile(gc.EDGES, 5))),
}
