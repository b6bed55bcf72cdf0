"""Goldens of the hypergeometric functions hyp1f1 and hyp2f1 (hyper.cuh);
see make_golden.py. lambertw (complex output) is checked in
tests/gpu/calls.rs against SciPy's values instead.

The references are mpmath's hyp1f1 and hyp2f1 at 50 digits (mpmath raises
the working precision itself where the series cancel; the points where
it gives up in time are dropped). Ranges: |a|, |b| up to 50 and |x| up
to 700 for hyp1f1 (SciPy's own error is the bound: its Zhang-Jin CHGM
branch is inexact in places); |a|, |b|, |c| up to 20 over -20 < x < 1 for
hyp2f1, with the integer c - a - b of the degenerate connections, the
polynomials and points next to x = 1.
"""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, ints, logu, mpf, pm, uni
import golden_common as gc


def _cat(*groups):
    return tuple(np.concatenate(g) for g in zip(*groups))


def hyp1f1_mp(a, b, x):
    if b <= 0 and b == int(b):
        raise ValueError
    a, b, x = mpf(a), mpf(b), mpf(x)
    return mp.hyp1f1(a, b, x, maxterms=10**5)


def hyp2f1_mp(a, b, c, x):
    if c <= 0 and c == int(c):
        raise ValueError
    if x > 1:
        raise ValueError
    a, b, c, x = mpf(a), mpf(b), mpf(c), mpf(x)
    return mp.hyp2f1(a, b, c, x, maxterms=10**5)


def sgn(n):
    return np.where(gc.rng.uniform(0, 1, n) < 0.5, -1.0, 1.0)


def hyp1f1_points(n):
    k = n // 6
    # Small parameters and moderate x.
    g1 = (uni(-10, 10, k), logu(0.1, 20, k), uni(-30, 30, k))
    # Larger parameters.
    g2 = (uni(-50, 50, k), logu(0.5, 50, k), uni(-100, 100, k))
    # Large |x|.
    g3 = (uni(-20, 20, k), logu(0.5, 50, k), pm(logu(50, 700, k // 2)))
    g3 = (g3[0][:len(g3[2])], g3[1][:len(g3[2])], g3[2])
    # Positive a, b (the common statistics use).
    g4 = (logu(0.01, 50, k), logu(0.01, 50, k), uni(-50, 50, k))
    # Small x.
    g5 = (uni(-5, 5, k), logu(0.05, 10, k), pm(logu(1e-10, 1, k // 2)))
    g5 = (g5[0][:len(g5[2])], g5[1][:len(g5[2])], g5[2])
    m = n - len(g1[0]) - len(g2[0]) - len(g3[0]) - len(g4[0]) - len(g5[0])
    # Integer a (polynomials) and negative non-integer b.
    g6 = (np.concatenate([-ints(1, 20, m // 2), uni(-10, 10, m - m // 2)]),
          np.concatenate([logu(0.5, 20, m // 2), -logu(0.1, 20, m - m // 2) - 0.37]),
          uni(-20, 20, m))
    return _cat(g1, g2, g3, g4, g5, g6)


def hyp2f1_points(n):
    k = n // 7
    g1 = (uni(-10, 10, k), uni(-10, 10, k), uni(-10, 10, k), uni(-1, 1, k))
    g2 = (uni(-20, 20, k), uni(-20, 20, k), logu(0.5, 20, k), uni(-20, -1, k))
    g3 = (logu(0.1, 10, k), logu(0.1, 10, k), logu(0.1, 20, k), uni(0, 1, k))
    # c - a - b an integer (the degenerate 1 - x connection).
    a4, b4 = np.round(uni(-5, 5, k), 2) + 0.25, np.round(uni(-5, 5, k), 2) + 0.5
    g4 = (a4, b4, a4 + b4 + ints(-3, 4, k), uni(0.5, 0.999, k))
    # Polynomials.
    g5 = (-ints(0, 15, k), uni(-10, 10, k), logu(0.5, 20, k), uni(-3, 1, k))
    # Near x = 1 and at x = 1 with c - a - b > 0.
    a6, b6 = uni(-3, 3, k), uni(-3, 3, k)
    c6 = a6 + b6 + logu(0.1, 5, k)
    g6 = (a6, b6, c6, np.where(np.arange(k) % 4 == 0, 1.0, 1 - logu(1e-12, 1e-2, k)))
    m = n - 6 * k
    # b - a an integer for x < -1 (where 1/x forms degenerate).
    a7 = uni(-5, 5, m)
    g7 = (a7, a7 + ints(-3, 4, m), logu(0.5, 10, m), -logu(1, 50, m))
    return _cat(g1, g2, g3, g4, g5, g6, g7)


# (SciPy 1.17 hangs at hyp1f1(1, 0.5, 1e300) and at x = inf: neither is among the edges.)
E1 = np.array([0.0, -0.0, 1e-300, 0.5, 1.0, -1.0, -2.0, 2.5, 100.0, -100.0, 1e5, -np.inf,
               np.nan])


def hyp1f1_edges(dtype):
    # (x = -inf across a > b > 0, a < b < 0 and the other signs: SciPy's
    # values there come from its large-|x| expansion's prefactor.)
    a = np.array([0.0, 1.0, -1.0, -2.0, 0.5, -0.5, 3.0, 1.5, 2.5, -1.5, np.inf, -np.inf, np.nan])
    b = np.array([0.0, -1.0, -2.0, 1.0, 2.0, 0.5, -0.5, 0.3, 3.0, -1.5, np.inf, -np.inf, np.nan])
    x = E1
    g = np.meshgrid(a, b, x, indexing="ij")
    return tuple(v.ravel() for v in g)


def hyp2f1_edges(dtype):
    # (NaN and infinite arguments included: Cephes' hyp2f1, SciPy's,
    # answers 1 or inf beside some NaNs and +-inf, 0 or 1 at infinities
    # through its transformations, which Cuprum follows there.)
    a = np.array([0.0, 1.0, -1.0, 0.5, -2.5, np.inf, -np.inf, np.nan])
    b = np.array([0.0, 1.0, -1.0, 0.5, np.nan])
    c = np.array([0.0, -1.0, -2.0, 1.0, 2.5, np.inf, -np.inf, np.nan])
    x = np.array([0.0, 0.5, 1.0, -1.0, 2.0, -3.0, 0.99, np.nan, np.inf, -np.inf])
    g = np.meshgrid(a, b, c, x, indexing="ij")
    return tuple(v.ravel() for v in g)


FUNCS = {
    "hyp1f1": Case(3, hyp1f1_mp, sc.hyp1f1, hyp1f1_points, goal=None, edges=hyp1f1_edges,
                   timeout=3.0),
    "hyp2f1": Case(4, hyp2f1_mp, sc.hyp2f1, hyp2f1_points, goal=None, edges=hyp2f1_edges,
                   timeout=3.0),
}
