"""Goldens of bessel_real.cuh's complex loops: jv, yv, iv, kv of real
order v and complex z (SciPy's "fF->F dD->D") and airy of complex z
("D->DDDD"), in the complex layout of golden_common.py (`jv.c`,
`airy.c0`..`airy.c3`; sets c16 and c8). The order stays real: float64
beside complex128, float32 beside complex64, as SciPy's loops take it.

Points: orders in [-20, 50], weighted to |v| < 5, with integers,
half-integers and 0; z over |z| from 1e-3 to 1e3 in every direction, near
the real and imaginary axes (on both sides of the cut along the negative
real axis), and near |z| = |v| (the turning point, where the methods
switch). |Im z| (J, Y) or |Re z| (I, K) stays below 680 (80 in the
complex64 set), where the value neither over- nor underflows; the overflow
patterns are in the edges.
"""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, cplx, disk, ints, logu, uni
import golden_common as gc

# Orders of the edge grid, each against every golden_common complex edge.
V_EDGES = np.array([0.0, 0.5, 1.0, -1.0, 2.5, -2.5, 10.0, -7.7, np.inf, np.nan])


def sign(n):
    return np.where(uni(0, 1, n) < 0.5, -1.0, 1.0)


def orders(n):
    """|v| < 5 (continuous, integers, half-integers, 0) and [-20, 50]."""
    k = n // 20
    parts = [uni(-5, 5, 6 * k), ints(-5, 6, 2 * k), ints(-10, 10, 2 * k) + 0.5,
             np.zeros(k), ints(-20, 51, 2 * k)]
    m = n - sum(len(p) for p in parts)
    v = np.concatenate(parts + [uni(-20, 50, m)])
    return v[gc.rng.permutation(n)]


def near_axes(n):
    """|z| in [1e-3, 1e3] within 1e-12..0.1 radians of a half-axis, on
    either side; a tenth exactly on one (-x + 0i on the cut's upper side)."""
    r = logu(1e-3, 1e3, n)
    axis = (np.pi / 2) * gc.rng.integers(-1, 3, n)
    off = sign(n) * logu(1e-12, 0.1, n)
    off[: n // 10] = 0.0
    t = axis + off
    z = cplx(r * np.cos(t), r * np.sin(t))
    # On an axis exactly: no rounding residue in the other part.
    on = off == 0.0
    c, s = np.round(np.cos(t[on])), np.round(np.sin(t[on]))
    z[on] = cplx(r[on] * c, r[on] * s)
    return z


def arguments(n, v):
    """z for the orders v: the whole disk, small |z|, the axes, and |z|
    near |v| in every direction."""
    k = n // 10
    near_v = (np.abs(v[: 2 * k]) + 0.5) * np.exp(uni(-0.3, 0.3, 2 * k)) * \
        np.exp(1j * uni(-np.pi, np.pi, 2 * k))
    parts = [near_v, disk(1e-3, 1.0, k), near_axes(3 * k), disk(1.0, 30.0, k)]
    m = n - sum(len(p) for p in parts)
    return np.concatenate(parts + [disk(1e-3, 1e3, m)])


def limit(n):
    """The largest exponent |Re z| (I, K) or |Im z| (J, Y) of the set: 680
    for complex128 (e^{+-680} stays normal after the algebraic factors;
    SciPy's AMOS declares overflow from about 690), 80 for the complex64
    set (n < 1000), whose values should mostly stay within float32."""
    return 680.0 if n >= 1000 else 80.0


def bounded(z, part, lim):
    """|Re z| (part 0) or |Im z| (part 1) at most lim, redrawn uniformly
    where larger."""
    re, im = z.real.copy(), z.imag.copy()
    p = re if part == 0 else im
    big = np.abs(p) > lim
    p[big] = uni(-lim, lim, int(big.sum()))
    return cplx(re, im)


def points(part):
    def f(n):
        v = orders(n)
        return v, bounded(arguments(n, v), part, limit(n))
    return f


def edges(dt):
    z = gc.complex_edges()[0]
    v, zz = np.meshgrid(V_EDGES, np.arange(len(z)), indexing="ij")
    return v.ravel(), z[zz.ravel()]


def ref(f):
    def g(v, z):
        return f(mp.mpf(float(v)), z)
    return g


# Held to SciPy's own error (goal=None): near the zeros of J, Y, I (on
# and near the imaginary axis), K (left half-plane) and the Airy functions
# the normwise error of any double evaluation grows as 1/|f|, and SciPy's
# maximum there is thousands of eps (millions for airy at |z| ~ 1e4).
FUNCS = {
    "jv.c": Case(2, ref(mp.besselj), sc.jv, points(1), goal=None, edges=edges, cplx=True),
    "yv.c": Case(2, ref(mp.bessely), sc.yv, points(1), goal=None, edges=edges, cplx=True),
    "iv.c": Case(2, ref(mp.besseli), sc.iv, points(0), goal=None, edges=edges, cplx=True),
    "kv.c": Case(2, ref(mp.besselk), sc.kv, points(0), goal=None, edges=edges, cplx=True),
}


def airy_bounded(z, lim):
    """z with |Re (2/3) z^{3/2}| at most lim (680, or 80 for the complex64
    set: see `limit`): larger points are pulled in along their ray."""
    zeta = (2.0 / 3.0) * z ** 1.5
    big = np.abs(zeta.real) > lim
    z = z.copy()
    z[big] *= (lim / np.abs(zeta.real[big])) ** (2.0 / 3.0) * uni(0.3, 1.0, int(big.sum()))
    return z


def ray(angle, rmin, rmax, n):
    """|z| in [rmin, rmax] within 1e-12..0.1 radians of the ray at `angle`
    (less where |zeta| is large, to stay bounded), on either side; a tenth
    exactly on it."""
    r = logu(rmin, rmax, n)
    zeta = (2.0 / 3.0) * r ** 1.5
    off = sign(n) * logu(1e-12, 1.0, n) * np.minimum(0.1, 300 / zeta)
    off[: n // 10] = 0.0
    t = angle + off
    z = cplx(r * np.cos(t), r * np.sin(t))
    if angle in (0.0, np.pi):
        on = off == 0.0
        z[on] = cplx(r[on] * np.cos(angle), 0.0)
    return z


def airy_points(n):
    """The series disk |z| <= 1, the plane to |z| = 100, the negative real
    axis (oscillating) to 1e4, the positive one, and the rays |ph z| = pi/3,
    2 pi/3 where the methods switch (and Bi has its complex zeros)."""
    k = n // 16
    rays = [ray(a, 1.0, 60.0, k // 2) for a in (np.pi / 3, -np.pi / 3, 2 * np.pi / 3,
                                                -2 * np.pi / 3)]
    parts = [disk(1e-3, 1.0, 2 * k), disk(1.0, 10.0, 4 * k), ray(np.pi, 1.0, 1e4, 2 * k),
             ray(0.0, 1.0, 100.0, k)] + rays
    m = n - sum(len(p) for p in parts)
    return airy_bounded(np.concatenate(parts + [disk(1.0, 100.0, m)]), limit(n))


def airy_out(k):
    def f(z):
        if k == 0:
            return mp.airyai(z)
        if k == 1:
            return mp.airyai(z, derivative=1)
        if k == 2:
            return mp.airybi(z)
        return mp.airybi(z, derivative=1)
    return f


for _k in range(4):
    FUNCS[f"airy.c{_k}"] = Case(1, airy_out(_k), (lambda k: lambda z: sc.airy(z)[k])(_k),
                                airy_points, goal=None, cplx=True)
