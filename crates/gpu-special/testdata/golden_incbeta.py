"""Goldens of beta, the incomplete beta function, its inverse and the
distributions built on them (incbeta.cuh); see make_golden.py.

The reference I_x(a, b) is the continued fraction DLMF 8.17.22 summed in
mpmath at 60 digits (mpmath's own betainc, a hypergeometric sum, takes
seconds at a, b ~ 1e4); its front factor x^a (1-x)^b / B(a, b) from
mpmath's loggamma. The inverses are solved on it in mpmath from a
bracket (`root_p`), not from SciPy's value, which is far off in the deep
tails (bdtri, nbdtri, betaincinv at huge a or b).
"""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, ints, logu, mpf, pm, uni
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


def root_p(a, b, y, upper=False, both=False):
    """The p in (0, 1) with I_p(a, b) = y (1 - I_p(a, b) = y when upper),
    a, b > 0, 0 < y < 1, solved from a bracket (not from SciPy's answer,
    which is far off in the deep tails: bdtri(2305, 741809, 2.2e-85) ~ 1,
    and near which a Newton solve found wrong roots: betaincinv(2, 1e-300,
    1e-300) = 0.84, not 2.1e-31, and roots 1 to 160 ulp off where 1 - y
    rounds to 1 at 60 digits).

    The unknown is t = log(p / (1 - p)), so that p and 1 - p = 1 / (1 + e^t)
    are both exact at any distance from 0 and 1; the function is
    g(t) = log S(t) - log s for the tail S (lower I or upper 1 - I) whose
    target s = y or 1 - y is at most 1/2 (exact, and no digits lost to a
    difference), monotone in t. Newton steps on g (g' = p^a (1-p)^b /
    (B(a, b) S), I ~ C p^a in the tail makes g nearly linear there) inside
    the bracket [-3000, 3000], which is bisected whenever a step leaves it.
    The answer is accepted only when g changes sign across t -+ 1e-30 (the
    root is within that of t: 1e-30 relative in p and in 1 - p); otherwise
    ValueError (the point is dropped). The digits `ibeta` adds for a tiny
    a or b are kept here too (I_p(1e-300, 1e-300) differs from 1/2 by
    1e-297 over the whole bracket). With `both`, (p, 1 - p), the second as
    exact as the first."""
    if not (0 < y < 1) or not (a > 0 and b > 0) or max(a, b) > 1e12:
        raise ValueError
    extra = int(max(0, -mp.log10(min(a, b))))
    with mp.workdps(DPS + extra):
        a, b, y = mp.mpf(a), mp.mpf(b), mp.mpf(y)
        # I_p(a, b) increases with p: lower side s = I, upper s = 1 - I.
        lower = not upper
        s = y
        if y > 0.5:
            lower, s = not lower, 1 - y
        ls = mp.log(s)
        lb = mp.loggamma(a) + mp.loggamma(b) - mp.loggamma(a + b)
        sgn = 1 if lower else -1

        def g(t):
            p, q = 1 / (1 + mp.exp(-t)), 1 / (1 + mp.exp(t))
            v = ibeta(a, b, p, y=q, upper=not lower)
            if v < 0:
                raise ValueError("tail lost to rounding")
            if v == 0:
                return -mp.inf, mp.inf, p
            lv = mp.log(v)
            d = mp.exp(a * mp.log(p) + b * mp.log(q) - lb - lv)
            return lv - ls, sgn * d, p

        lo, hi = mp.mpf(-3000), mp.mpf(3000)
        # g(lo) < 0 < g(hi) in the increasing orientation h = sgn g; a
        # root outside (|t| > 3000) is 0 or 1 in double, and a tie at an
        # end means the precision did not tell, so the point is dropped.
        h_lo, h_hi = sgn * g(lo)[0], sgn * g(hi)[0]
        if h_lo > 0:
            return (mp.mpf(0), mp.mpf(1)) if both else mp.mpf(0)
        if h_hi < 0:
            return (mp.mpf(1), mp.mpf(0)) if both else mp.mpf(1)
        if h_lo == 0 or h_hi == 0:
            raise ValueError("no sign at the bracket's ends")
        t = mp.mpf(0)
        for _ in range(2000):
            v, d, _p = g(t)
            h = sgn * v
            if h < 0:
                lo = t
            elif h > 0:
                hi = t
            else:
                break
            tn = t - v / d if mp.isfinite(v) and d != 0 and mp.isfinite(d) else None
            if tn is None or not lo < tn < hi:
                tn = (lo + hi) / 2
            if abs(tn - t) < mp.mpf(10) ** -45 or hi - lo < mp.mpf(10) ** -45:
                t = tn
                break
            t = tn
        else:
            raise ValueError("no convergence")
        eps = mp.mpf(10) ** -30
        if not (sgn * g(t - eps)[0] < 0 < sgn * g(t + eps)[0]):
            raise ValueError("not a bracketed root")
        p = 1 / (1 + mp.exp(-t))
        return (p, 1 / (1 + mp.exp(t))) if both else p


def betaincinv_mp(a, b, y):
    return root_p(a, b, y)


def betainccinv_mp(a, b, y):
    return root_p(a, b, y, upper=True)


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




def inv_edges(dtype):
    # Not 1e300 (nor 1e20, beyond the reference's reach): SciPy's (Boost's)
    # inverse is NaN at a scatter of a or b beyond about 1e155, and NaN,
    # inf or 2.2e-308 at some denormal y, where the root is well defined.
    ab = np.array([0.0, 1e-300, 0.5, 2.0, 1e6, np.inf, np.nan, -1.0])
    y = np.array([0.0, 1e-300, 0.25, 0.5, 1.0, -0.5, 1.5, np.nan])
    g = np.meshgrid(ab, ab, y, indexing="ij")
    return tuple(v.ravel() for v in g)


# The distributions (Cephes' definitions, which SciPy's use): the
# integer arguments as SciPy passes them on (k of bdtr floored, n cast to
# a C int), the reference from `ibeta` at the exact transformed argument.


def _c_int(v):
    """SciPy's cast of a double (or int64) count to a C int."""
    if isinstance(v, int):
        return (v + 2 ** 31) % 2 ** 32 - 2 ** 31
    return int(v) if abs(v) < 2 ** 31 else -2 ** 31


def _bdtr_args(k, n):
    k, n = np.floor(k), _c_int(n)
    if not (0 <= k < n):
        raise ValueError
    return int(k), n


def bdtr_mp(k, n, p):
    k, n = _bdtr_args(k, n)
    return ibeta(n - k, k + 1, mp.mpf(1) - mp.mpf(p), y=p)


def bdtrc_mp(k, n, p):
    k, n = _bdtr_args(k, n)
    return ibeta(n - k, k + 1, mp.mpf(1) - mp.mpf(p), y=p, upper=True)


def bdtri_mp(k, n, y):
    # bdtr(k, n, p) = I_{1-p}(n - k, k + 1) = 1 - I_p(k + 1, n - k) = y.
    k, n = _bdtr_args(k, n)
    return root_p(k + 1, n - k, y, upper=True)


def bdtr_points(n):
    k = n // 4
    nn = np.concatenate([ints(1, 60, k), ints(60, 2000, k), ints(2000, 10 ** 6, k),
                         ints(1, 500, n - 3 * k)])
    kk = np.floor(uni(0, 1, n) * nn)
    # Non-integer k (floored) in the last group.
    kk[3 * k:] += uni(0, 1, n - 3 * k)
    p = np.concatenate([uni(0, 1, 2 * k), (kk[2 * k:3 * k] + 0.5) / nn[2 * k:3 * k] *
                        (1 + 0.01 * uni(-1, 1, k)), logu(1e-6, 1, n - 3 * k)])
    return kk, nn, np.clip(p, 0, 1)


def bdtri_points(n):
    kk, nn, _ = bdtr_points(n)
    m = n // 2
    y = np.concatenate([uni(0, 1, m), logu(1e-200, 1e-2, (n - m) // 2),
                        1 - logu(1e-16, 1e-2, n - m - (n - m) // 2)])
    return kk, nn, y


def bdtr_edges(dtype):
    k = np.array([0.0, 0.5, 2.0, 5.0, 6.0, -1.0, np.inf, np.nan])
    n = np.array([0.0, 1.0, 5.0, -1.0, 2.0 ** 31 - 1, 2.0 ** 32 + 5])
    p = np.array([0.0, 5e-324, 0.3, 1.0, -0.5, 1.5, np.nan])
    g = np.meshgrid(k, n, p, indexing="ij")
    return tuple(v.ravel() for v in g)


def nbdtr_mp(k, n, p):
    k, n = _c_int(k), _c_int(n)
    if k < 0 or n <= 0:
        raise ValueError
    return ibeta(n, k + 1, p)


def nbdtrc_mp(k, n, p):
    k, n = _c_int(k), _c_int(n)
    if k < 0 or n <= 0:
        raise ValueError
    return ibeta(n, k + 1, p, upper=True)


def nbdtri_mp(k, n, y):
    k, n = _c_int(k), _c_int(n)
    if k < 0 or n <= 0:
        raise ValueError
    return root_p(n, k + 1, y)


def nbdtr_points(n):
    k = n // 3
    kk = np.concatenate([ints(0, 60, k), ints(0, 3000, k), ints(0, 10 ** 5, n - 2 * k)])
    nn = np.concatenate([ints(1, 60, k), ints(1, 3000, k), ints(1, 10 ** 5, n - 2 * k)])
    p = np.concatenate([uni(0, 1, k), nn[k:2 * k] / (nn[k:2 * k] + kk[k:2 * k] + 1) *
                        (1 + 0.02 * uni(-1, 1, k)), logu(1e-6, 1, n - 2 * k)])
    return kk, nn, np.clip(p, 0, 1)


def nbdtri_points(n):
    kk, nn, _ = nbdtr_points(n)
    m = n // 2
    y = np.concatenate([uni(0, 1, m), logu(1e-200, 1e-2, (n - m) // 2),
                        1 - logu(1e-16, 1e-2, n - m - (n - m) // 2)])
    return kk, nn, y


def nbdtr_edges(dtype):
    k = np.array([0.0, 2.0, 5.0, -1.0, 2.0 ** 31 - 1, 2.0 ** 32 + 2])
    n = np.array([0.0, 1.0, 5.0, -1.0, 2.0 ** 31 - 1])
    p = np.array([0.0, 5e-324, 0.3, 1.0, -0.5, 1.5, np.nan])
    g = np.meshgrid(k, n, p, indexing="ij")
    return tuple(v.ravel() for v in g)


def _fdtr_w(a, b, x):
    a, b, x = mp.mpf(a), mp.mpf(b), mp.mpf(x)
    if not (a > 0 and b > 0 and x >= 0):
        raise ValueError
    return a / 2, b / 2, a * x / (b + a * x), b / (b + a * x)


def fdtr_mp(a, b, x):
    with mp.workdps(DPS):
        A, B, w, wc = _fdtr_w(a, b, x)
        return ibeta(A, B, w, y=wc)


def fdtrc_mp(a, b, x):
    with mp.workdps(DPS):
        A, B, w, wc = _fdtr_w(a, b, x)
        return ibeta(A, B, w, y=wc, upper=True)


def fdtri_mp(a, b, y):
    # w = I^-1_y(a/2, b/2), x = b w / (a (1 - w)).
    with mp.workdps(DPS):
        w, wc = root_p(a / 2, b / 2, y, both=True)
        return mp.mpf(b) * w / (mp.mpf(a) * wc)


def fdtr_points(n):
    k = n // 3
    a = np.concatenate([logu(0.1, 100, k), logu(1, 1e4, k), ints(1, 100, n - 2 * k)])
    b = np.concatenate([logu(0.1, 100, k), logu(1, 1e4, k), ints(1, 100, n - 2 * k)])
    x = np.concatenate([logu(1e-4, 1e4, k), uni(0, 5, k), logu(1e-3, 1e3, n - 2 * k)])
    return a, b, x


def fdtri_points(n):
    a, b, _ = fdtr_points(n)
    m = n // 2
    y = np.concatenate([uni(0, 1, m), logu(1e-100, 1e-2, (n - m) // 2),
                        1 - logu(1e-16, 1e-2, n - m - (n - m) // 2)])
    return a, b, y


def fdtr_edges(dtype):
    ab = np.array([0.0, 5e-324, 0.5, 2.0, 1e300, np.inf, np.nan, -1.0])
    x = np.array([0.0, -0.0, 5e-324, 0.5, 1.0, 1e300, np.inf, -0.5, np.nan])
    g = np.meshgrid(ab, ab, x, indexing="ij")
    return tuple(v.ravel() for v in g)


def fdtri_edges(dtype):
    ab = np.array([0.0, 5e-324, 0.5, 2.0, 1e300, np.inf, np.nan, -1.0])
    y = np.array([0.0, -0.0, 5e-324, 0.5, 1.0, -0.5, 1.5, np.nan])
    g = np.meshgrid(ab, ab, y, indexing="ij")
    return tuple(v.ravel() for v in g)


def stdtr_mp(df, t):
    # 1 - I_{df/(df+t^2)}(df/2, 1/2) / 2 for t > 0 (DLMF 8.17, Cephes).
    with mp.workdps(DPS):
        df, t = mp.mpf(df), mp.mpf(t)
        if not df > 0:
            raise ValueError
        if t == 0:
            return mp.mpf(0.5)
        z, zc = df / (df + t * t), t * t / (df + t * t)
        h = ibeta(df / 2, mp.mpf(0.5), z, y=zc) / 2
        return h if t < 0 else 1 - h


def stdtr_points(n):
    k = n // 4
    df = np.concatenate([logu(0.1, 10, k), logu(10, 1e6, k), ints(1, 50, k),
                         logu(0.1, 1e3, n - 3 * k)])
    t = np.concatenate([pm(logu(1e-3, 1e2, k // 2)), pm(uni(0, 5, k // 2)), pm(logu(1e-4, 1e4, k // 2)),
                        pm(logu(1e-3, 1e10, (n - 3 * k) // 2))])
    m = min(len(df), len(t))
    return df[:m], t[:m]


def stdtrit_mp(df, p):
    with mp.workdps(DPS):
        if not (0 < p < 1) or not df > 0:
            raise ValueError
        # p <= 1/2: I_z(df/2, 1/2) = 2p, t = -sqrt(df (1 - z) / z).
        q = min(p, 1 - mp.mpf(p))
        if q == 0.5:
            return mp.mpf(0)
        z, zc = root_p(df / 2, 0.5, 2 * q, both=True)
        # z = 0: the root is below 1 / (1 + e^3000), |t| > sqrt(df) e^1500,
        # beyond the doubles for any df >= 5e-324.
        t = mp.sqrt(mp.mpf(df) * zc / z) if z > 0 else mp.inf
        return -t if p < 0.5 else t


def stdtrit_points(n):
    k = n // 3
    df = np.concatenate([logu(0.1, 10, k), logu(10, 1e6, k), ints(1, 50, n - 2 * k)])
    p = np.concatenate([uni(0, 1, k), logu(1e-100, 0.5, k), 1 - logu(1e-16, 0.5, n - 2 * k)])
    return df, p


FUNCS = {
    "beta": Case(2, beta_mp, sc.beta, beta_points, goal=None),
    "betaln": Case(2, betaln_mp, sc.betaln, betaln_points, goal=None),
    "betainc": Case(3, betainc_mp, sc.betainc, ibeta_points, goal=None, timeout=5.0),
    "betaincc": Case(3, betaincc_mp, sc.betaincc, ibeta_points, goal=None, timeout=5.0),
    "betaincinv": Case(3, betaincinv_mp, sc.betaincinv, inv_points, goal=None, timeout=5.0,
                       edges=inv_edges),
    "betainccinv": Case(3, betainccinv_mp, sc.betainccinv, inv_points, goal=None, timeout=5.0,
                        edges=inv_edges),
    "bdtr": Case(3, bdtr_mp, sc.bdtr, bdtr_points, goal=None, ints=(1,), edges=bdtr_edges,
                 timeout=5.0),
    "bdtrc": Case(3, bdtrc_mp, sc.bdtrc, bdtr_points, goal=None, ints=(1,), edges=bdtr_edges,
                  timeout=5.0),
    "bdtri": Case(3, bdtri_mp, sc.bdtri, bdtri_points, goal=None, ints=(1,), edges=bdtr_edges,
                  timeout=5.0),
    "nbdtr": Case(3, nbdtr_mp, sc.nbdtr, nbdtr_points, goal=None, ints=(0, 1),
                  edges=nbdtr_edges, timeout=5.0),
    "nbdtrc": Case(3, nbdtrc_mp, sc.nbdtrc, nbdtr_points, goal=None, ints=(0, 1),
                   edges=nbdtr_edges, timeout=5.0),
    "nbdtri": Case(3, nbdtri_mp, sc.nbdtri, nbdtri_points, goal=None, ints=(0, 1),
                   edges=nbdtr_edges, timeout=5.0),
    "fdtr": Case(3, fdtr_mp, sc.fdtr, fdtr_points, goal=None, edges=fdtr_edges, timeout=5.0),
    "fdtrc": Case(3, fdtrc_mp, sc.fdtrc, fdtr_points, goal=None, edges=fdtr_edges, timeout=5.0),
    "fdtri": Case(3, fdtri_mp, sc.fdtri, fdtri_points, goal=None, edges=fdtri_edges,
                  timeout=5.0),
    "stdtr": Case(2, stdtr_mp, sc.stdtr, stdtr_points, goal=None, timeout=5.0),
    "stdtrit": Case(2, stdtrit_mp, sc.stdtrit, stdtrit_points, goal=None, timeout=5.0),
}
