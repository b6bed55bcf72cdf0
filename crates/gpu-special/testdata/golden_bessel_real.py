"""Goldens of bessel_real.cuh: jv, yv, iv, kv of real order and argument,
and airy (see make_golden.py)."""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, ints, logu, mpf, uni
import golden_common as gc

# Orders of the edge grid (each against every golden_common.EDGES x).
V_EDGES = np.array([0.0, -0.0, 0.5, 1.0, -1.0, 2.0, -2.0, -1.5, 3.0, -2.5, 10.3, -7.7, 50.0,
                    np.inf, -np.inf, np.nan])


def edges(dt):
    v, x = np.meshgrid(V_EDGES, gc.EDGES, indexing="ij")
    return v.ravel(), x.ravel()


def orders(n):
    # Non-integer orders in [-50, 50], integers, and small orders.
    return np.concatenate([uni(-50, 50, n - n // 4 - n // 8), ints(-50, 51, n // 8),
                           uni(-3, 3, n // 4)])


def args(n, big):
    """Orders in [-50, 50] against x in [0, 100]; x in [1e-5, 1] against
    |v| <= 10 (at |v| near 50 there the value is near or below the
    smallest normal double, where SciPy returns garbage of 1e16 ulps);
    and the large-x tail `big`."""
    n1, n2 = n - n // 4 - n // 8, n // 8
    v = np.concatenate([orders(n1), uni(-10, 10, n2), orders(n - n1 - n2)])
    x = np.concatenate([uni(0, 100, n1), logu(1e-5, 1, n2), big(n - n1 - n2)])
    return v, x


def jv_points(n):
    v, x = args(n, lambda m: logu(100, 1e4, m))
    # Negative x for integer orders (SciPy's (-1)^n J_n(|x|)).
    k = gc.rng.integers(0, len(v), n // 16)
    v[k] = np.round(v[k])
    x[k] = -x[k]
    return v, x


def jv_mp(v, x):
    return mp.besselj(mpf(v), mpf(x))


def yv_mp(v, x):
    if x <= 0:
        raise ValueError
    return mp.bessely(mpf(v), mpf(x))


def iv_mp(v, x):
    return mp.besseli(mpf(v), mpf(x))


def kv_mp(v, x):
    if x <= 0:
        raise ValueError
    return mp.besselk(mpf(v), mpf(x))


def airy_points(n):
    return np.concatenate([uni(-30, 30, n // 2), uni(-300, -30, n // 8), uni(30, 103, n // 8),
                           uni(-2, 2, n // 8), -logu(300, 1e6, n // 16),
                           np.concatenate([logu(1e-300, 1e-3, n // 32), -logu(1e-300, 1e-3, n // 32)])])


def airy_out(k):
    def f(x):
        x = mpf(x)
        if k == 0:
            return mp.airyai(x)
        if k == 1:
            return mp.airyai(x, derivative=1)
        if k == 2:
            return mp.airybi(x)
        return mp.airybi(x, derivative=1)
    return f


FUNCS = {
    "jv": Case(2, jv_mp, sc.jv, jv_points, goal=None, edges=edges),
    "yv": Case(2, yv_mp, sc.yv, lambda n: args(n, lambda m: logu(100, 1e4, m)), goal=None,
               edges=edges),
    "iv": Case(2, iv_mp, sc.iv, lambda n: args(n, lambda m: uni(100, 700, m)), goal=None,
               edges=edges),
    # x to 650: beyond, K_v(x) nears the smallest normal double, where
    # SciPy's kv loses all digits (1e16 ulps).
    "kv": Case(2, kv_mp, sc.kv, lambda n: args(n, lambda m: uni(100, 650, m)), goal=None,
               edges=edges),
}
for _k in range(4):
    FUNCS[f"airy.{_k}"] = Case(1, airy_out(_k), (lambda k: lambda x: sc.airy(x)[k])(_k),
                               airy_points, goal=None)
