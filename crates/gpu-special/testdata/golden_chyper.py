"""Goldens of hyper.cuh's complex loop of hyp1f1 (real a and b, complex z:
SciPy's ddD->D and ffF->F), in the complex layout of golden_common.py
(`hyp1f1.c`, sets c16 and c8; a and b stay real).

The reference is mpmath's hyp1f1 at 50 digits. Points: a and b in
[-30, 30], weighted toward small |a| and |b| (b never a non-positive
integer here; the edges hold those), z with |z| from 1e-3 to 1e3 in all
directions, with groups where the algorithms switch or cancel: just off
the real and imaginary axes (Kummer's transformation, the Stokes lines of
the large-|z| expansion), the polynomials (a a negative integer), b near
its poles, a - b an integer (one part of the large-|z| expansion
vanishes). Points whose value is outside 1e-305..1e300 (e^z over- or
underflows the double) are dropped.
"""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, cplx, disk, ints, logu, uni
import golden_common as gc


def _cat(*groups):
    return tuple(np.concatenate(g) for g in zip(*groups))


def sign(n):
    return np.where(gc.rng.uniform(0, 1, n) < 0.5, -1.0, 1.0)


def not_pole(b):
    """b nudged off the non-positive integers (the range set's b never is one)."""
    return np.where((b <= 0) & (b == np.round(b)), b + 0.25, b)


def near_axes(rmin, rmax, n):
    """|z| from rmin to rmax within 1e-8..0.3 radians of the real or
    imaginary axes, on both sides."""
    r = logu(rmin, rmax, n)
    t = gc.rng.integers(-1, 3, n) * (np.pi / 2) + sign(n) * logu(1e-8, 0.3, n)
    return cplx(r * np.cos(t), r * np.sin(t))


def hyp1f1_points(n):
    k = n // 10
    groups = [
        # Small parameters over the whole plane (twice).
        (uni(-3, 3, 2 * k), not_pole(uni(-3, 3, 2 * k)), disk(1e-3, 1e3, 2 * k)),
        (uni(-3, 3, k), not_pole(uni(-3, 3, k)), near_axes(1e-3, 1e3, k)),
        # Moderate and large parameters.
        (uni(-10, 10, k), not_pole(uni(-10, 10, k)), disk(1e-3, 1e3, k)),
        (uni(-30, 30, k), not_pole(uni(-30, 30, k)), disk(1e-3, 1e3, k)),
        (uni(-30, 30, k // 2), not_pole(uni(-30, 30, k // 2)), near_axes(1e-3, 1e3, k // 2)),
        # Positive a and b (the statistics' use).
        (logu(0.01, 30, k), logu(0.01, 30, k), disk(1e-3, 1e3, k)),
        # Polynomials: a a negative integer.
        (-ints(1, 31, k // 2), not_pole(uni(-30, 30, k // 2)), disk(1e-3, 1e3, k // 2)),
    ]
    # b near its poles 0, -1, ..., -20.
    b = -ints(0, 21, k // 2) + sign(k // 2) * logu(1e-6, 0.3, k // 2)
    groups.append((uni(-5, 5, k // 2), not_pole(b), disk(1e-3, 100, k // 2)))
    # a - b an integer, a a positive integer.
    m = n - sum(len(g[0]) for g in groups)
    b = not_pole(uni(-10, 10, m))
    a = np.where(np.arange(m) % 2 == 0, b + ints(-5, 6, m), ints(1, 11, m))
    groups.append((a, b, disk(1e-3, 1e3, m)))
    return _cat(*groups)


def hyp1f1_mp(a, b, z):
    if b <= 0 and b == int(b):
        raise ValueError
    v = mp.hyp1f1(a, b, z, maxterms=10**6)
    if v != 0 and not (mp.mpf(10) ** -305 < abs(v) < mp.mpf(10) ** 300):
        raise ValueError  # outside the double's range
    return v


# Edges: the parameters' special values (b a pole, a = 0, -1, b, b + 1,
# (1, 2), a negative integer) and infinite or NaN a, b, against z = 0,
# small, moderate and large values (up to 1e30, within float32's range,
# where the value stays finite), and z's infinite or NaN parts. (Not
# z = 1e300 or 1e30 + i, where e^z overflows: SciPy's values there are
# those of its 8-term expansion's overflows, 1e300 + i giving inf + NaN i
# for M(1, 2, z) and -8e-301 + 1.6e-300 i at 1e300 i.)
EA = np.array([0.0, 1.0, -1.0, -2.0, 0.5, -0.5, 3.0, np.inf, -np.inf, np.nan])
EB = np.array([0.0, -1.0, -2.0, 1.0, 2.0, 0.5, -0.5, np.inf, np.nan])
EZ = cplx([0.0, -0.0, 0.0, 1e-300, 1.0, -2.5, 0.0, 0.0, 10.0, -100.0, 3e2, -3e2, -1e30, 0.0,
           np.inf, -np.inf, 0.0, 0.0, np.nan, 0.0, np.nan, 1.0, np.inf, -np.inf, 1.0, np.nan],
          [0.0, 0.0, -0.0, 0.0, 1.0, 1.0, 1.0, -1.0, -20.0, 5.0, 3e2, -3e2, 1.0, 1e30,
           0.0, 0.0, np.inf, -np.inf, 0.0, np.nan, np.nan, np.nan, 1.0, 1.0, np.inf, 1.0])


def hyp1f1_edges(dtype):
    g = np.meshgrid(EA, EB, np.arange(len(EZ)), indexing="ij")
    a, b, z = g[0].ravel(), g[1].ravel(), EZ[g[2].ravel()]
    # At Re z = +inf and a > 0 SciPy evaluates its large-|z| expansion at
    # infinity (std::pow and exp of an infinite z, the imaginary part of
    # log Gamma(b)): M(1, 0.5, inf) = inf + NaN i, M(1, 0.5, inf + i) =
    # inf + inf i, M(0.5, 1, inf) = NaN, not limits. Left out (Cuprum: NaN),
    # except where a closed form of SciPy's answers first.
    with np.errstate(invalid="ignore"):
        closed = (a == b) | (a - b == 1) | ((a == 1) & (b == 2)) | \
            ((b <= 0) & (b == np.round(b)))
        drop = (z.real == np.inf) & (a > 0) & np.isfinite(a) & np.isfinite(b) & ~closed
    return a[~drop], b[~drop], z[~drop]


FUNCS = {
    "hyp1f1.c": Case(3, hyp1f1_mp, sc.hyp1f1, hyp1f1_points, goal=None, edges=hyp1f1_edges,
                     cplx=True, real=(0, 1), timeout=5.0),
}
