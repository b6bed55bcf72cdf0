"""Goldens of beta, the incomplete beta function, its inverse and the
distributions built on them (incbeta.cuh); see make_golden.py.

The reference I_x(a, b) is the continued fraction DLMF 8.17.22 summed in
mpmath at 60 digits (mpmath's own betainc, a hypergeometric sum, takes
seconds at a, b ~ 1e4); its front factor x^a (1-x)^b / B(a, b) from
mpmath's loggamma. The inverses are solved by Newton's method on it in
mpmath, started from SciPy's value.
"""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, ints, logu, mpf, uni
import golden_common as gc

DPS = 60


def _cf(a, b, x):
    """1 / (1 + d1 / (1 + d2 / ...)) of DLMF 8.17.22 (modified Lentz)."""
    tiny = mp.mpf(10) ** -(mp.mp.dps * 4)
    f, C, D = mp.mpf(1), mp.mpf(1), mp.mpf(0)
    tol = mp.mpf(10) ** -(mp.mp.dps - 5)
    for n in range(1, 400000):
        m = n // 2
        if n % 2:
            d = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        else:
            d = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        D = 1 + d * D
        if D == 0:
            D = tiny
        D = 1 / D
        C = 1 + d / C
        if C == 0:
            C = tiny
        delta = C * D
        f *= delta
        if abs(delta - 1) < tol:
            return 1 / f
    raise ValueError("no convergence")


def _lower(a, b, x, y):
    """I_x(a, b) by the fraction, x < (a + 1) / (a + b + 2), y = 1 - x."""
    if x == 0:
        return mp.mpf(0)
    lf = a * mp.log(x) + b * mp.log(y) - (mp.loggamma(a) + mp.loggamma(b) - mp.loggamma(a + b))
    return mp.exp(lf) / a * _cf(a, b, x)


def ibeta(a, b, x, y=None, upper=False):
    """I_x(a, b) (or 1 - I_x(a, b)) in mpmath for a, b > 0, 0 <= x <= 1."""
    # 1 - I loses as many digits as a or b has leading zeros (x^a near 1).
    extra = int(max(0, -mp.log10(max(min(a, b), 1e-320)))) if min(a, b) > 0 else 0
    with mp.workdps(DPS + extra):
        a, b, x = mp.mpf(a), mp.mpf(b), mp.mpf(x)
        y = 1 - x if y is None else mp.mpf(y)
        if not (a > 0 and b > 0) or not 0 <= x <= 1 or max(a, b) > 1e12:
            raise ValueError
        if x < (a + 1) / (a + b + 2):
            p = _lower(a, b, x, y)
            return 1 - p if upper else p
        q = _lower(b, a, y, x)
        return q if upper else 1 - q


def betainc_mp(a, b, x):
    return ibeta(a, b, x)


def betaincc_mp(a, b, x):
    return ibeta(a, b, x, upper=True)


def beta_mp(a, b):
    a, b = mpf(a), mpf(b)
    return mp.beta(a, b)


def betaln_mp(a, b):
    a, b = mpf(a), mpf(b)
    if a > 0 and b > 0:
        return mp.loggamma(a) + mp.loggamma(b) - mp.loggamma(a + b)
    return mp.log(abs(mp.beta(a, b)))


def inv_solve(a, b, y, x0):
    """x with I_x(a, b) = y, by Newton's method on log I against log z in
    mpmath, z = x or 1 - x on the side of 1/2 where the root lies, from x0
    (SciPy's value); raises ValueError when it does not converge."""
    with mp.workdps(DPS):
        a, b, y = mp.mpf(a), mp.mpf(b), mp.mpf(y)
        if not (0 < y < 1) or not (a > 0 and b > 0) or max(a, b) > 1e12:
            raise ValueError
        if y <= ibeta(a, b, 0.5):
            A, B, T, z, flip = a, b, y, mp.mpf(x0), False
        else:
            A, B, T, z, flip = b, a, 1 - y, 1 - mp.mpf(x0), True
        if not 0 < z < 1:
            z = mp.mpf(0.25)
        lb = mp.loggamma(A) + mp.loggamma(B) - mp.loggamma(A + B)
        for _ in range(300):
            val = ibeta(A, B, z)
            if val == 0:
                z /= 16
                continue
            d = mp.exp((A - 1) * mp.log(z) + (B - 1) * mp.log1p(-z) - lb)
            du = (mp.log(val) - mp.log(T)) * val / (z * d)
            if du < -5:
                du = mp.mpf(-5)
            zn = z * mp.exp(-du)
            if zn >= 1:
                zn = (z + 1) / 2
            z = zn
            if abs(du) < mp.mpf(10) ** -(DPS - 10):
                break
        else:
            raise ValueError("no convergence")
        return 1 - z if flip else z


def betaincinv_mp(a, b, y):
    x0 = float(sc.betaincinv(a, b, y))
    return inv_solve(a, b, y, x0)


def _cat(*groups):
    return tuple(np.concatenate(g) for g in zip(*groups))


def beta_points(n, big=False):
    k = n // 6
    g1 = (logu(1e-3, 20, k), logu(1e-3, 20, k))
    g2 = (logu(10, 500 if not big else 1e8, k), logu(10, 500 if not big else 1e8, k))
    g3 = (logu(20, 1e8, k), logu(1e-3, 20, k))
    g4 = (logu(1e-300, 1e-3, k), logu(1e-3, 1e3, k))
    g5 = (-uni(0, 20, k), logu(0.1, 30, k))
    m = n - 5 * k
    g6 = (logu(1e-2, 1e3, m), -uni(0, 10, m))
    return _cat(g1, g2, g3, g4, g5, g6)


def betaln_points(n):
    return beta_points(n, big=True)


def _clip01(x):
    return np.clip(x, 1e-300, 1 - 2 ** -53)


def ibeta_points(n):
    k = n // 7
    g1 = (logu(1e-3, 10, k), logu(1e-3, 10, k), uni(0, 1, k))
    g2 = (logu(1, 1e3, k), logu(1, 1e3, k), uni(0, 1, k))
    a3, b3 = logu(10, 1e5, k), logu(10, 1e5, k)
    s3 = a3 + b3
    x3 = _clip01(a3 / s3 + uni(-5, 5, k) * np.sqrt(a3 * b3 / s3 ** 3))
    g3 = (a3, b3, x3)
    a4, b4 = logu(1e-3, 10, k), logu(10, 1e5, k)
    g4 = (a4, b4, _clip01(logu(1e-3, 30, k) / b4))
    a5 = logu(1e-3, 5, k)
    # x^a from 1 down to e^-600 (not into the denormals, where SciPy's
    # underflow to 0 would count billions of ulps).
    g5 = (a5, logu(1e-3, 1e3, k), np.exp(-uni(np.log(1e3) * a5, 600, k) / a5))
    g6 = (logu(1e-3, 100, k), logu(1e-3, 100, k), 1 - logu(1e-16, 0.1, k))
    m = n - 6 * k
    g7 = (np.floor(logu(1, 300, m)), np.floor(logu(1, 300, m)), uni(0, 1, m))
    return _cat(g1, g2, g3, g4, g5, g6, g7)


def inv_points(n):
    k = n // 5
    g1 = (logu(1e-2, 10, k), logu(1e-2, 10, k), uni(0, 1, k))
    g2 = (logu(1, 1e4, k), logu(1, 1e4, k), uni(0, 1, k))
    g3 = (logu(0.1, 1e3, k), logu(0.1, 1e3, k), logu(1e-200, 1e-3, k))
    g4 = (logu(0.1, 1e3, k), logu(0.1, 1e3, k), 1 - logu(1e-16, 1e-3, k))
    m = n - 4 * k
    g5 = (logu(1e-3, 1, m), logu(1, 1e3, m), uni(0, 1, m))
    return _cat(g1, g2, g3, g4, g5)


# betaincc and betaincinv are not in the table yet (betaincc 15 ulp
# against SciPy's 1; betaincinv's edges differ from SciPy's).
FUNCS = {
    "beta": Case(2, beta_mp, sc.beta, beta_points, goal=None),
    "betaln": Case(2, betaln_mp, sc.betaln, betaln_points, goal=None),
    "betainc": Case(3, betainc_mp, sc.betainc, ibeta_points, goal=None, timeout=5.0),
}
