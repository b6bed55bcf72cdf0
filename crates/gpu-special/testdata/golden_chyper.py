"""Goldens of hyper.cuh's complex loops of hyp1f1 (real a and b, complex z:
SciPy's ddD->D and ffF->F) and hyp2f1 (real a, b, c: dddD->D, fffF->F),
in the complex layout of golden_common.py (`hyp1f1.c`, `hyp2f1.c`, sets
c16 and c8; the parameters stay real).

The references are mpmath's hyp1f1 and hyp2f1 at 50 digits. hyp1f1's
points: a and b in [-30, 30], weighted toward small |a| and |b| (b never
a non-positive integer here; the edges hold those), z with |z| from 1e-3
to 1e3 in all directions, with groups where the algorithms switch or
cancel: just off the real and imaginary axes (Kummer's transformation,
the Stokes lines of the large-|z| expansion), the polynomials (a a
negative integer), b near its poles, a - b an integer (one part of the
large-|z| expansion vanishes). hyp2f1's: a, b, c in [-30, 30], weighted
the same, over the whole plane, near the unit circle, near e^(+-i pi/3)
(only Lopez and Temme's expansion converges fast there), near z = 1,
just off the axes (the cut z > 1), and the degenerate connections: c - a
- b an integer, a - b an integer (with c - a one too), c - a an
integer, the polynomials. Points whose value is outside 1e-305..1e300
(e^z or a power over- or underflows the double) are dropped.
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


def hyp2f1_points(n):
    k = n // 12
    e3 = np.exp(1j * np.pi / 3)
    groups = [
        # Small parameters over the whole plane (twice), near the unit
        # circle, near e^(+-i pi/3) (where only Lopez and Temme's series
        # converges fast), near z = 1.
        (uni(-3, 3, 2 * k), uni(-3, 3, 2 * k), not_pole(uni(-3, 3, 2 * k)), disk(1e-3, 1e3, 2 * k)),
        (uni(-3, 3, k), uni(-3, 3, k), not_pole(uni(-3, 3, k)), disk(0.8, 1.25, k)),
        (uni(-5, 5, k), uni(-5, 5, k), not_pole(uni(-5, 5, k)),
         np.where(sign(k) > 0, e3, np.conj(e3)) + disk(1e-4, 0.2, k)),
        (uni(-5, 5, k), uni(-5, 5, k), not_pole(uni(-5, 5, k)), 1 + disk(1e-6, 0.5, k)),
        # Moderate and large parameters; positive ones (the statistics' use).
        (uni(-10, 10, k), uni(-10, 10, k), not_pole(uni(-10, 10, k)), disk(1e-3, 1e3, k)),
        (uni(-30, 30, k), uni(-30, 30, k), not_pole(uni(-30, 30, k)), disk(1e-3, 1e3, k)),
        (logu(0.01, 30, k), logu(0.01, 30, k), logu(0.01, 30, k), disk(1e-3, 1e3, k)),
        # Just off the real axis (the cut z > 1, and z = -1) and the
        # imaginary axis.
        (uni(-5, 5, k), uni(-5, 5, k), not_pole(uni(-5, 5, k)), near_axes(1e-3, 1e3, k)),
    ]
    # c - a - b an integer (the limit form around z = 1), a - b an integer
    # (the limit form of 1/z), c - a an integer (its poles there; Euler's
    # polynomials for negative ones), a polynomial.
    h = k // 2
    a, b = uni(-5, 5, h), uni(-5, 5, h)
    groups.append((a, b, not_pole(a + b + ints(-4, 5, h)), disk(1e-2, 1e2, h)))
    a = uni(-5, 5, h)
    groups.append((a, a + ints(-4, 5, h), not_pole(uni(-5, 5, h)), disk(0.5, 1e3, h)))
    a = uni(-5, 5, h)
    groups.append((a, a + ints(-4, 5, h), not_pole(a + ints(-3, 6, h)), disk(0.5, 1e3, h)))
    a = uni(-5, 5, h)
    groups.append((a, uni(-5, 5, h), not_pole(a + ints(-4, 6, h)), disk(1e-2, 1e3, h)))
    m = n - sum(len(g[0]) for g in groups)
    groups.append((-ints(1, 21, m), uni(-10, 10, m), not_pole(uni(-10, 10, m)), disk(1e-2, 1e2, m)))
    return _cat(*groups)


def hyp2f1_mp(a, b, c, z):
    if c <= 0 and c == int(c):
        raise ValueError
    v = mp.hyp2f1(a, b, c, z, maxterms=10**6)
    if v != 0 and not (mp.mpf(10) ** -305 < abs(v) < mp.mpf(10) ** 300):
        raise ValueError  # outside the double's range
    return v


# hyp2f1's edges: a, b, c at 0, the poles of c and the polynomials, z at
# 0, 1 and -1 (Gauss' and Kummer's theorems), either side of the cut
# z > 1 (2 +- 1e-30 i: on it, 2 + 0i, SciPy's signed zero and mpmath's
# convention pick different sides), near e^(i pi / 3), large, and z's
# infinite or NaN parts (not for an integer a - b outside the
# polynomials, where SciPy evaluates its 1/z limit series at infinity:
# F(-2.5, 0.5; 0.5; inf) = inf - inf i).
E2A = np.array([0.0, 1.0, -1.0, 0.5, -2.5, 2.0, np.nan])
E2B = np.array([0.0, 1.0, -1.0, 0.5, 1.5])
E2C = np.array([0.0, -1.0, -2.0, 1.0, 2.5, 0.5])
E2Z = cplx([0.0, -0.0, 0.5, 1.0, -1.0, 2.0, 2.0, 0.99, 1.0, -1.0, 0.5, 10.0, 0.0, 1e-300, -1e30,
            np.inf, -np.inf, 0.0, np.nan, 0.0, 1.0],
           [0.0, 0.0, 0.0, 0.0, 0.0, 1e-30, -1e-30, 0.0, 1.0, 0.5, np.sqrt(3) / 2, 10.0, 1e30, 0.0,
            1.0, 0.0, 0.0, np.inf, 0.0, np.nan, np.nan])


def hyp2f1_edges(dtype):
    g = np.meshgrid(E2A, E2B, E2C, np.arange(len(E2Z)), indexing="ij")
    a, b, c, z = g[0].ravel(), g[1].ravel(), g[2].ravel(), E2Z[g[3].ravel()]
    with np.errstate(invalid="ignore"):
        poly = ((a < 0) & (a == np.round(a))) | ((b < 0) & (b == np.round(b)))
        drop = np.isinf(z.real) | np.isinf(z.imag)
        drop &= (a - b == np.round(a - b)) & ~poly & (a != 0) & (b != 0)
    return a[~drop], b[~drop], c[~drop], z[~drop]


FUNCS = {
    "hyp1f1.c": Case(3, hyp1f1_mp, sc.hyp1f1, hyp1f1_points, goal=64.0, edges=hyp1f1_edges,
                     cplx=True, real=(0, 1), timeout=5.0),
    "hyp2f1.c": Case(4, hyp2f1_mp, sc.hyp2f1, hyp2f1_points, goal=2048.0, edges=hyp2f1_edges,
                     cplx=True, real=(0, 1, 2), timeout=5.0),
}
