"""Goldens of the incomplete gamma functions, their inverses and the
distributions on them (incgamma.cuh); see make_golden.py.

The inverses are solved by Newton's method on log P (or log Q) against
log x in mpmath at 40 digits, started from SciPy's value; the
distributions are mpmath's regularized gammainc at the exact arguments
(a x, v / 2, floor(k) + 1 formed in mpmath, not rounded)."""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, ints, logu, mpf, uni


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


def _temme(a, x, upper):
    """Temme's uniform expansion DLMF 8.12.3-8.12.8 with c0 and c1, for
    a >= 1e9 where the dropped terms are O(a^-2) = 1e-18 relative or less
    (mpmath's own hypergeometric sums do not converge there)."""
    lam = x / a
    if lam == 1:
        eta, c0, c1 = mp.mpf(0), mp.mpf(-1) / 3, mp.mpf(-1) / 540
    else:
        eta = mp.sqrt(2 * (lam - 1 - mp.log(lam))) * (1 if lam > 1 else -1)
        c0 = 1 / (lam - 1) - 1 / eta
        c1 = 1 / eta ** 3 - 1 / (lam - 1) ** 3 - 1 / (lam - 1) ** 2 - 1 / (12 * (lam - 1))
    r = mp.exp(-a * eta ** 2 / 2) / mp.sqrt(2 * mp.pi * a) * (c0 + c1 / a)
    if upper:
        return mp.erfc(eta * mp.sqrt(a / 2)) / 2 + r
    return mp.erfc(-eta * mp.sqrt(a / 2)) / 2 - r


def _pq(a, x, upper):
    """P(a, x) or Q(a, x) in mpmath for a > 0, x >= 0 (mpf arguments)."""
    if x == 0:
        return mp.mpf(1 if upper else 0)
    if a >= 1e9 and abs(x / a - 1) < mp.mpf(10) ** -2:
        return _temme(a, x, upper)
    if a < 1e-200:
        # Q = a E1(x) (1 + O(a)) (DLMF 8.4.4, 5.7.1): mpmath gives NaN at
        # such a.
        q = a * mp.e1(x)
        return q if upper else 1 - q
    if upper:
        return mp.gammainc(a, x, mp.inf, regularized=True)
    return mp.gammainc(a, 0, x, regularized=True)


def inv_solve(a, y, upper, x0):
    """x with P(a, x) = y (Q when upper), Newton on log P against log x
    (concave there, so it converges from any start) from x0 (SciPy's)."""
    with mp.workdps(40):
        a, y = mpf(a), mpf(y)
        if not (0 < y < 1) or not (a > 0) or mp.isinf(a) or 1e7 < a < 1e9:
            raise ValueError
        x = mp.mpf(x0) if (x0 > 0 and np.isfinite(x0)) else a
        la = mp.loggamma(a)
        for _ in range(400):
            v = _pq(a, x, upper)
            f = mp.exp(a * mp.log(x) - x - la)
            if v == 0 or f == 0:
                x = x / 2 if upper else x * 2
                continue
            g = mp.log(v / y)
            dt = g * v / f if upper else -g * v / f
            dt = max(min(dt, 20), -20)
            x = x * mp.exp(dt)
            if abs(dt) < mp.mpf(10) ** -34:
                return x
        raise ValueError("no convergence")


def gammaincinv_mp(a, p):
    x0 = float(sc.gammaincinv(a, p))
    if p > 0.5:
        return inv_solve(a, 1 - mpf(p), True, x0)
    return inv_solve(a, p, False, x0)


def gammainccinv_mp(a, q):
    x0 = float(sc.gammainccinv(a, q))
    if q > 0.5:
        return inv_solve(a, 1 - mpf(q), False, x0)
    return inv_solve(a, q, True, x0)


def inv_points(n):
    k = n // 5
    g = [(logu(1e-3, 10, k), uni(0, 1, k)),
         (logu(1, 1e4, k), uni(0, 1, k)),
         (logu(0.05, 1e3, k), logu(1e-200, 1e-3, k)),
         (logu(0.05, 1e3, k), 1 - logu(1e-16, 1e-3, k)),
         (logu(1e-3, 1, n - 4 * k), logu(1e-30, 1, n - 4 * k))]
    return tuple(np.concatenate(c) for c in zip(*g))


_E2 = np.array([0.0, -0.0, 5e-324, 1e-300, 0.5, 1.0, 2.0, 3.0, -1.0, 1e20, 1e300, 700.0,
                np.inf, -np.inf, np.nan])
_EA = np.array([0.0, -0.0, 1e-300, 1e-40, 0.5, 1.0, 2.0, 3.0, 1e20, 1e300, np.inf, -1.0,
                -np.inf, np.nan])
_EY = np.array([0.0, -0.0, 5e-324, 1e-300, 1e-40, 0.5, 1 - 2.0 ** -53, 1.0, -1.0, 2.0, 1e300,
                np.inf, -np.inf, np.nan])


def _grid(*vs):
    g = np.meshgrid(*vs, indexing="ij")
    return tuple(c.ravel() for c in g)


def inv_edges(dtype):
    return _grid(_EA, _EY)


def edges2(dtype):
    return _grid(_E2, _E2)


def edges3(dtype):
    e = np.array([0.0, 0.5, 1.0, -1.0, 1e300, np.inf, np.nan])
    return _grid(e, e, e)


def gdtr_mp(a, b, x, upper=False):
    a, b, x = mpf(a), mpf(b), mpf(x)
    if not (a > 0 and b > 0 and x >= 0) or mp.isinf(a * b * x):
        raise ValueError
    return _pq(b, a * x, upper)


def gdtrc_mp(a, b, x):
    return gdtr_mp(a, b, x, True)


def gdtr_points(n):
    a = logu(1e-2, 1e2, n)
    b = logu(1e-2, 1e3, n)
    x = b / a * logu(0.02, 5, n)
    return a, b, x


def gdtrix_mp(a, b, p):
    if not a > 0:
        raise ValueError
    return gammaincinv_mp(b, p) / mpf(a)


def gdtrix_points(n):
    q = n // 2
    a = logu(1e-2, 1e2, n)
    b = logu(1e-2, 1e3, n)
    p = np.concatenate([uni(0, 1, q), logu(1e-100, 1e-3, n - q)])
    return a, b, p


def pdtr_mp(k, m, upper=False):
    k, m = mpf(k), mpf(m)
    if not (k >= 0 and m > 0) or mp.isinf(k) or mp.isinf(m):
        raise ValueError
    return _pq(mp.floor(k) + 1, m, not upper)


def pdtrc_mp(k, m):
    return pdtr_mp(k, m, True)


def pdtr_points(n):
    q = n // 3
    k1 = ints(0, 60, q)
    m1 = logu(1e-2, 200, q)
    k2 = uni(0, 100, q)
    m2 = logu(1e-2, 300, q)
    r = n - 2 * q
    k3 = ints(60, 5000, r)
    m3 = np.maximum(k3 * (1 + uni(-4, 4, r) / np.sqrt(k3)), 1.0)
    return np.concatenate([k1, k2, k3]), np.concatenate([m1, m2, m3])


def pdtri_mp(k, y):
    # SciPy passes k on as a C int (an int64 wraps to 32 bits).
    k = (int(k) + 2 ** 31) % 2 ** 32 - 2 ** 31
    if k < 0 or k == 2 ** 31 - 1:
        raise ValueError
    x0 = float(sc.pdtri(k, y))
    return gammainccinv_mp_x0(k + 1, y, x0)


def gammainccinv_mp_x0(a, q, x0):
    if q > 0.5:
        return inv_solve(a, 1 - mpf(q), False, x0)
    return inv_solve(a, q, True, x0)


def pdtri_points(n):
    q = n // 3
    k = np.concatenate([ints(0, 30, q), ints(0, 300, q), ints(0, 3000, n - 2 * q)])
    y = np.concatenate([uni(0, 1, q), logu(1e-100, 0.5, q), 1 - logu(1e-16, 0.5, n - 2 * q)])
    return k, y


def pdtri_edges(dtype):
    k = np.array([0.0, 1.0, 2.0, 5.0, 100.0, -1.0, 2.0 ** 31 - 1, 2.0 ** 31, 2.0 ** 32 + 1, 1e10])
    y = np.array([0.0, -0.0, 5e-324, 1e-300, 0.5, 1 - 2.0 ** -53, 1.0, -1.0, 2.0, np.inf,
                  np.nan])
    return _grid(k, y)


def chdtr_mp(v, x, upper=False):
    v, x = mpf(v), mpf(x)
    if not (v > 0 and x >= 0) or mp.isinf(v) or mp.isinf(x):
        raise ValueError
    return _pq(v / 2, x / 2, upper)


def chdtrc_mp(v, x):
    return chdtr_mp(v, x, True)


def chdtr_points(n):
    v = np.concatenate([logu(0.1, 1e3, n // 2), ints(1, 100, n - n // 2)])
    x = v * logu(0.02, 5, n)
    return v, x


def chdtri_mp(v, p):
    x0 = float(sc.chdtri(v, p))
    return 2 * gammainccinv_mp_x0(mpf(v) / 2, p, x0 / 2)


def chdtri_points(n):
    q = n // 3
    v = np.concatenate([logu(0.1, 1e3, q), ints(1, 100, q), logu(0.1, 1e3, n - 2 * q)])
    p = np.concatenate([uni(0, 1, q), uni(0, 1, q), logu(1e-100, 1e-3, n - 2 * q)])
    return v, p


FUNCS = {
    "ndtri": Case(1, ndtri_mp, sc.ndtri, ndtri_points, goal=4.0),
    "log_ndtr": Case(1, log_ndtr_mp, sc.log_ndtr, log_ndtr_points, goal=4.0),
    "gammainc": Case(2, gammainc_mp, sc.gammainc, ig_points, goal=None),
    "gammaincc": Case(2, gammaincc_mp, sc.gammaincc, ig_points, goal=None),
    "gammaincinv": Case(2, gammaincinv_mp, sc.gammaincinv, inv_points, goal=None,
                        edges=inv_edges, timeout=5.0),
    "gammainccinv": Case(2, gammainccinv_mp, sc.gammainccinv, inv_points, goal=None,
                         edges=inv_edges, timeout=5.0),
    "gdtr": Case(3, gdtr_mp, sc.gdtr, gdtr_points, goal=None, edges=edges3),
    "gdtrc": Case(3, gdtrc_mp, sc.gdtrc, gdtr_points, goal=None, edges=edges3),
    "gdtrix": Case(3, gdtrix_mp, sc.gdtrix, gdtrix_points, goal=None, edges=edges3,
                   timeout=5.0),
    "pdtr": Case(2, pdtr_mp, sc.pdtr, pdtr_points, goal=None, edges=edges2),
    "pdtrc": Case(2, pdtrc_mp, sc.pdtrc, pdtr_points, goal=None, edges=edges2),
    "pdtri": Case(2, pdtri_mp, sc.pdtri, pdtri_points, goal=None, ints=(0,),
                  edges=pdtri_edges, timeout=5.0),
    "chdtr": Case(2, chdtr_mp, sc.chdtr, chdtr_points, goal=None, edges=edges2),
    "chdtrc": Case(2, chdtrc_mp, sc.chdtrc, chdtr_points, goal=None, edges=edges2),
    "chdtri": Case(2, chdtri_mp, sc.chdtri, chdtri_points, goal=None, edges=edges2,
                   timeout=5.0),
}
