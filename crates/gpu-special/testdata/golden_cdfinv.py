"""Goldens of the distributions' parameter inverses (cdfinv.cuh); see
make_golden.py.

Each reference is the root, in mpmath, of the distribution function in
the parameter solved for: the secant method from SciPy's value (good to
about 1e-10 relative, CDFLIB's tolerance) on the smaller tail (F - p for
p <= 1/2, q - (1 - F) above it), with the incomplete gamma function of
golden_incgamma.py (`_pq`) and the incomplete beta function of
golden_incbeta.py (`ibeta`, its continued fraction at 60 digits). A
point whose root lands more than 1e-6 relative from SciPy's value, or
where SciPy answers with a search bound (0, 1e-100, 1e10, 1e100, 1e300,
-1e100), is dropped from the range set.

The edges are grids of the values where the answer is defined by the
domain (NaN), by a probability of 0 or 1 with a root at an end, or by
SciPy's search bounds; they leave out what only SciPy's search decides:
the point at which it stops where the function has no finite root (a
probability of exactly 0 for bdtrin and nbdtrin, exactly 1 for bdtrin),
and denormal probabilities and parameters (docs/special-accuracy.md).
"""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, logu, mpf, uni
from golden_incbeta import ibeta
from golden_incgamma import _pq

BOUNDS = {0.0, 1e-100, 1e10, 1e100, 1e300, -1e100}


def _root(resid, x0):
    """The root of `resid` (an mpf function) near x0 (SciPy's value)."""
    if not np.isfinite(x0) or x0 in BOUNDS or x0 <= 0:
        raise ValueError
    with mp.workdps(40):
        x0 = mp.mpf(x0)
        r = mp.findroot(resid, (x0, x0 * (1 + mp.mpf(10) ** -8)), solver="secant",
                        tol=mp.mpf(10) ** -60, maxsteps=60)
        if not abs(r / x0 - 1) < 1e-6:
            raise ValueError
        return r


def _tail(p, lower, upper):
    """F - p from the smaller tail: `lower()` is F, `upper()` 1 - F."""
    p = mpf(p)
    if p <= 0.5:
        return lower() - p
    return (1 - p) - upper()


def _prob(p):
    if not 0 < p < 1:
        raise ValueError


def gdtria_mp(p, b, x):
    _prob(p)
    if not (b > 0 and x > 0):
        raise ValueError
    b_, x_ = mpf(b), mpf(x)
    return _root(lambda a: _tail(p, lambda: _pq(b_, a * x_, False), lambda: _pq(b_, a * x_, True)),
                 float(sc.gdtria(p, b, x)))


def gdtrib_mp(a, p, x):
    _prob(p)
    if not (a > 0 and x > 0):
        raise ValueError
    z = mpf(a) * mpf(x)
    return _root(lambda s: _tail(p, lambda: _pq(s, z, False), lambda: _pq(s, z, True)),
                 float(sc.gdtrib(a, p, x)))


def chdtriv_mp(p, x):
    _prob(p)
    if not x > 0:
        raise ValueError
    z = mpf(x) / 2
    return _root(lambda v: _tail(p, lambda: _pq(v / 2, z, False), lambda: _pq(v / 2, z, True)),
                 float(sc.chdtriv(p, x)))


def pdtrik_mp(p, m):
    _prob(p)
    if not m > 0:
        raise ValueError
    m_ = mpf(m)
    return _root(lambda k: _tail(p, lambda: _pq(k + 1, m_, True), lambda: _pq(k + 1, m_, False)),
                 float(sc.pdtrik(p, m)))


def _binom(k, n, pr, p):
    # bdtr = 1 - I_pr(k + 1, n - k) (DLMF 8.17.5), continuous k and n.
    if not (n - k > 0):
        raise ValueError
    return _tail(p, lambda: ibeta(k + 1, n - k, pr, upper=True), lambda: ibeta(k + 1, n - k, pr))


def bdtrik_mp(p, n, pr):
    _prob(p)
    if n > 0 and pr == 1 and np.isfinite(n):
        # bdtr(k, n, 1) is 0 for k < n and 1 at n: the root is n.
        return mpf(n)
    if not (n > 0 and 0 < pr < 1):
        raise ValueError
    return _root(lambda k: _binom(k, mpf(n), mpf(pr), p), float(sc.bdtrik(p, n, pr)))


def bdtrin_mp(k, p, pr):
    _prob(p)
    if not (k >= 0 and 0 < pr < 1):
        raise ValueError
    return _root(lambda n: _binom(mpf(k), n, mpf(pr), p), float(sc.bdtrin(k, p, pr)))


def _negbinom(k, n, pr, p):
    # nbdtr = I_pr(n, k + 1), continuous k and n.
    return _tail(p, lambda: ibeta(n, k + 1, pr), lambda: ibeta(n, k + 1, pr, upper=True))


def nbdtrik_mp(p, n, pr):
    _prob(p)
    if not (n > 0 and 0 < pr < 1):
        raise ValueError
    return _root(lambda k: _negbinom(k, mpf(n), mpf(pr), p), float(sc.nbdtrik(p, n, pr)))


def nbdtrin_mp(k, p, pr):
    _prob(p)
    if not (k >= 0 and 0 < pr < 1):
        raise ValueError
    return _root(lambda n: _negbinom(mpf(k), n, mpf(pr), p), float(sc.nbdtrin(k, p, pr)))


def _student(df, t, p):
    # The tail 1/2 I_{df/(df+t^2)}(df/2, 1/2) below -|t| (DLMF 8.17, A&S 26.7.1).
    t = mpf(t)
    z = df / (df + t * t)
    tail = lambda: ibeta(df / 2, mp.mpf(1) / 2, z) / 2  # noqa: E731
    if t < 0:
        return _tail(p, tail, lambda: 1 - tail())
    return _tail(p, lambda: 1 - tail(), tail)


def stdtridf_mp(p, t):
    _prob(p)
    if t == 0 or not np.isfinite(t):
        raise ValueError
    return _root(lambda df: _student(df, t, p), float(sc.stdtridf(p, t)))


def _fdist(dfn, dfd, f, p):
    w = dfn * f / (dfn * f + dfd)
    return _tail(p, lambda: ibeta(dfn / 2, dfd / 2, w), lambda: ibeta(dfn / 2, dfd / 2, w, upper=True))


def fdtridfd_mp(dfn, p, f):
    _prob(p)
    if not (dfn > 0 and f > 0):
        raise ValueError
    return _root(lambda d: _fdist(mpf(dfn), d, mpf(f), p), float(sc.fdtridfd(dfn, p, f)))


def _p(n):
    """Probabilities: uniform, and both tails down to 1e-12."""
    k = n // 3
    return np.concatenate([uni(0, 1, k), logu(1e-12, 0.5, k), 1 - logu(1e-12, 0.5, n - 2 * k)])


def gdtria_points(n):
    return _p(n), logu(1e-2, 1e3, n), logu(1e-3, 1e3, n)


def gdtrib_points(n):
    return logu(1e-2, 1e2, n), _p(n), logu(1e-2, 1e2, n)


def chdtriv_points(n):
    return _p(n), logu(1e-2, 1e3, n)


def pdtrik_points(n):
    return _p(n), logu(1e-2, 1e3, n)


def bdtrik_points(n):
    return _p(n), np.round(logu(1, 1e3, n)), uni(0.01, 0.99, n)


def bdtrin_points(n):
    return np.floor(logu(1, 1e3, n)), _p(n), uni(0.01, 0.99, n)


def nbdtrik_points(n):
    return _p(n), logu(0.5, 1e3, n), uni(0.01, 0.99, n)


def nbdtrin_points(n):
    return np.floor(logu(1, 1e3, n)), _p(n), uni(0.01, 0.99, n)


def stdtridf_points(n):
    return uni(0.01, 0.99, n), uni(-5, 5, n)


def fdtridfd_points(n):
    return logu(0.1, 100, n), uni(0.01, 0.99, n), logu(0.05, 20, n)


def _grid(*vs):
    g = np.meshgrid(*vs, indexing="ij")
    return tuple(c.ravel() for c in g)


# Probabilities and parameters at the edges (see the module's docs).
_EP = np.array([0.0, -0.0, 0.5, 1.0, -1.0, 2.0, np.inf, np.nan])
_EP_OPEN = np.array([0.5, 0.25, -1.0, 2.0, np.inf, np.nan])
_EX = np.array([0.0, -0.0, 0.5, 1.0, 3.0, -1.0, 1e300, np.inf, -np.inf, np.nan])
_EPR = np.array([0.0, 0.3, 1.0, -0.5, 1.5, np.nan])
# stdtridf at p = 1/2 has its root at df = 0, below SciPy's search range;
# fdtridfd at dfn = 1e300 evaluates SciPy's F distribution where it loses
# all accuracy.
_EP_T = np.array([0.0, -0.0, 0.25, 0.75, 1.0, -1.0, 2.0, np.inf, np.nan])
_EDFN = np.array([0.0, -0.0, 0.5, 1.0, 3.0, -1.0, np.inf, -np.inf, np.nan])


def gdtria_edges(dtype):
    return _grid(_EP, _EX, _EX)


def gdtrib_edges(dtype):
    return _grid(_EX, _EP, _EX)


def chdtriv_edges(dtype):
    return _grid(_EP, _EX)


def pdtrik_edges(dtype):
    return _grid(_EP, _EX)


def bdtrik_edges(dtype):
    p, n, pr = _grid(_EP, _EX, _EPR)
    # p = 0 at n = 1e300: bdtr(k, 1e300, 0.3) underflows to 0 for every k
    # below about 0.3 n, all of them roots in double.
    keep = ~((p == 0) & (n == 1e300))
    return p[keep], n[keep], pr[keep]


def bdtrin_edges(dtype):
    return _grid(_EX, _EP_OPEN, _EPR)


def nbdtrik_edges(dtype):
    return _grid(_EP, _EX, _EPR)


def nbdtrin_edges(dtype):
    return _grid(_EX, _EP_OPEN, _EPR)


def stdtridf_edges(dtype):
    return _grid(_EP_T, _EX)


def fdtridfd_edges(dtype):
    return _grid(_EDFN, _EP, _EX)


def _case(nin, name, mp_f, points, edges):
    return Case(nin, mp_f, getattr(sc, name), points, goal=None, edges=edges, timeout=5.0)


FUNCS = {
    "gdtria": _case(3, "gdtria", gdtria_mp, gdtria_points, gdtria_edges),
    "gdtrib": _case(3, "gdtrib", gdtrib_mp, gdtrib_points, gdtrib_edges),
    # The root inherits gammaincc's error at small a: at v = 1.2e-4 (p near
    # 1), Q(v/2, x/2) is 17 ulps off on the host and the root 35, where
    # SciPy's search lands within 17 (twice that is the default bound).
    "chdtriv": Case(2, chdtriv_mp, sc.chdtriv, chdtriv_points, goal=64.0, edges=chdtriv_edges,
                    timeout=5.0),
    "pdtrik": _case(2, "pdtrik", pdtrik_mp, pdtrik_points, pdtrik_edges),
    "bdtrik": _case(3, "bdtrik", bdtrik_mp, bdtrik_points, bdtrik_edges),
    "bdtrin": _case(3, "bdtrin", bdtrin_mp, bdtrin_points, bdtrin_edges),
    "nbdtrik": _case(3, "nbdtrik", nbdtrik_mp, nbdtrik_points, nbdtrik_edges),
    "nbdtrin": _case(3, "nbdtrin", nbdtrin_mp, nbdtrin_points, nbdtrin_edges),
    "stdtridf": _case(2, "stdtridf", stdtridf_mp, stdtridf_points, stdtridf_edges),
    "fdtridfd": _case(3, "fdtridfd", fdtridfd_mp, fdtridfd_points, fdtridfd_edges),
}
