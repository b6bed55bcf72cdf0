"""Goldens of the exponential, sine and cosine integrals (expint.cuh) and
the elliptic integrals and Jacobi functions (ellip.cuh); see make_golden.py."""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, ints, logu, mpf, pm, uni
import golden_common as gc


def pos(x):
    x = mpf(x)
    if x < 0:
        raise ValueError
    return x


def exp1_mp(x):
    return mp.e1(pos(x))


def expn_cf(n, x):
    """e^{-x} times the continued fraction DLMF 8.19.17 (modified Lentz) at
    50 digits: mpmath's expint cancels to nonsense for large n and x."""
    tiny = mp.mpf(10) ** -200
    b = x + n
    f = 1 / b
    c, d = 1 / tiny, f
    for i in range(1, 200000):
        a = -i * (n - 1 + i)
        b += 2
        d = 1 / (a * d + b)
        c = b + a / c
        dl = c * d
        f *= dl
        if abs(dl - 1) < mp.mpf(10) ** -45:
            return mp.exp(-x) * f
    raise ValueError


def expn_mp(n, x):
    if n < 0:
        raise ValueError
    x = pos(x)
    if x > 1 and n > 0:
        return expn_cf(n, x)
    return mp.expint(int(n), x)


def expn_points(n):
    a = ints(0, 60, n // 2)
    b = ints(60, 2000, n - n // 2)
    nn = np.concatenate([a, b])
    x = np.concatenate([logu(1e-6, 1, n // 4), uni(0, 5, n // 4), logu(5, 700, n // 4),
                        logu(1e-3, 100, n - 3 * (n // 4))])
    return nn, x


def expn_edges(dtype):
    nn = np.array([0, 1, 2, 3, 5, 50, -1, 2.0**31 - 1, 2.0**31, 2.0**40], dtype=np.float64)
    g = np.meshgrid(nn, gc.EDGES, indexing="ij")
    return g[0].ravel(), g[1].ravel()


def sici_out(k):
    def f(x):
        x = mpf(x)
        if k == 0:
            return mp.si(x)
        return mp.ci(abs(x))
    return f


def shichi_out(k):
    def f(x):
        x = mpf(x)
        if k == 0:
            return mp.shi(x)
        return mp.chi(abs(x))
    return f


def ellipk_mp(m):
    m = mpf(m)
    if m >= 1:
        raise ValueError
    return mp.ellipk(m)


def ellipkm1_mp(p):
    p = mpf(p)
    if p <= 0:
        raise ValueError
    digits = 50 + (int(-mp.log10(p)) if p < 1 else 0)
    with mp.workdps(digits):
        return mp.ellipk(1 - p)


def ellipe_mp(m):
    m = mpf(m)
    if m > 1:
        raise ValueError
    return mp.ellipe(m)


def m_points(n):
    return np.concatenate([uni(-10, 1, n // 2), 1 - logu(1e-16, 1, n // 4),
                           -logu(10, 1e300, n // 8), logu(1e-300, 1e-3, n - n // 2 - n // 4 - n // 8)])


def inc_mp(kind):
    def f(phi, m):
        phi, m = mpf(phi), mpf(m)
        if m * mp.sin(phi) ** 2 > 1:
            raise ValueError
        if m == 1 and abs(phi) >= mp.pi / 2:
            raise ValueError
        return mp.ellipf(phi, m) if kind == "f" else mp.ellipe(phi, m)
    return f


def inc_points(n):
    k = n // 4
    phi = np.concatenate([uni(-1.5, 1.5, k), uni(-20, 20, k), uni(-1.5, 1.5, k), uni(-5, 5, n - 3 * k)])
    m = np.concatenate([uni(0, 1, k), uni(-10, 1, k), uni(1, 10, k), -logu(1e-3, 1e20, n - 3 * k)])
    return phi, m


def ellipj_out(k):
    def f(u, m):
        u, m = mpf(u), mpf(m)
        if m < 0 or m > 1:
            raise ValueError
        if k == 0:
            return mp.ellipfun("sn", u, m=m)
        if k == 1:
            return mp.ellipfun("cn", u, m=m)
        if k == 2:
            return mp.ellipfun("dn", u, m=m)
        # am(u|m): am(u + 2K) = am(u) + pi.
        if m == 1:
            return mp.asin(mp.tanh(u)) if False else 2 * mp.atan(mp.exp(u)) - mp.pi / 2
        K = mp.ellipk(m)
        j = mp.nint(u / (2 * K))
        r = u - 2 * j * K
        return mp.atan2(mp.ellipfun("sn", r, m=m), mp.ellipfun("cn", r, m=m)) + j * mp.pi
    return f


def ellipj_points(n):
    k = n // 4
    u = np.concatenate([uni(-10, 10, 2 * k), uni(-3, 3, k), uni(-50, 50, n - 3 * k)])
    m = np.concatenate([uni(0, 1, 2 * k), 1 - logu(1e-14, 1e-2, k), logu(1e-12, 1, n - 3 * k)])
    return u, m


FUNCS = {
    "expn": Case(2, expn_mp, sc.expn, expn_points, goal=None, ints=(0,), edges=expn_edges),
    "exp1": Case(1, exp1_mp, sc.exp1,
                 lambda n: np.concatenate([logu(1e-300, 0.1, n // 4), uni(0, 10, n // 2),
                                           uni(10, 740, n - n // 2 - n // 4)]), goal=4.0),
    "expi": Case(1, lambda x: mp.ei(mpf(x)), sc.expi,
                 lambda n: np.concatenate([pm(logu(1e-300, 0.1, n // 8)), pm(uni(0, 10, n // 4)),
                                           uni(10, 715, n // 8), -uni(10, 740, n // 8)]),
                 goal=None),
}
for _k in range(2):
    FUNCS[f"sici.{_k}"] = Case(1, sici_out(_k), (lambda k: lambda x: sc.sici(x)[k])(_k),
                               lambda n: np.concatenate([pm(uni(0, 10, n // 4)),
                                                         pm(logu(1e-300, 1e-2, n // 8)),
                                                         pm(logu(10, 1e8, n // 8))]), goal=None)
    FUNCS[f"shichi.{_k}"] = Case(1, shichi_out(_k), (lambda k: lambda x: sc.shichi(x)[k])(_k),
                                 lambda n: np.concatenate([pm(uni(0, 10, n // 4)),
                                                           pm(logu(1e-300, 1e-2, n // 8)),
                                                           pm(uni(10, 700, n // 8))]), goal=None)
FUNCS.update({
    "ellipk": Case(1, ellipk_mp, sc.ellipk, m_points, goal=4.0),
    "ellipkm1": Case(1, ellipkm1_mp, sc.ellipkm1,
                     lambda n: np.concatenate([logu(1e-300, 1, n // 2), uni(0, 1, n // 4),
                                               logu(1, 1e300, n - n // 2 - n // 4)]), goal=4.0),
    "ellipe": Case(1, ellipe_mp, sc.ellipe, m_points, goal=4.0),
    "ellipkinc": Case(2, inc_mp("f"), sc.ellipkinc, inc_points, goal=None),
    "ellipeinc": Case(2, inc_mp("e"), sc.ellipeinc, inc_points, goal=None),
})
for _k in range(4):
    FUNCS[f"ellipj.{_k}"] = Case(2, ellipj_out(_k), (lambda k: lambda u, m: sc.ellipj(u, m)[k])(_k),
                                 ellipj_points, goal=None)
