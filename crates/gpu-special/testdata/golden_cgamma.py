"""Goldens of the complex loops of loggamma, gamma, rgamma and digamma
(cgamma.cuh), in the complex layout of golden_common.py (`<func>.c`, sets
c16 and c8).

Points over the whole plane and where cgamma.cuh switches method: the
recurrence and Taylor region 0 <= Re z < 7, |Im z| < 7 (the lines Re z =
7, |Im z| = 3.5 and 7), the reflection half Re z < 0 (near the poles and
near the negative real axis), the zeros of loggamma at 1 and 2 and of
digamma at x0 = 1.4616... and at its first negative roots, tiny |z|, and
large |z| (where Gamma neither over- nor underflows for gamma and
rgamma).
"""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, cplx, disk, logu, uni
import golden_common as gc


def sign(n):
    return np.where(gc.rng.uniform(0, 1, n) < 0.5, -1.0, 1.0)


def box(x0, x1, y0, y1, n):
    return cplx(uni(x0, x1, n), uni(y0, y1, n))


def near(c, rmin, rmax, n):
    return c + disk(rmin, rmax, n)


def near_axis(x0, x1, n):
    """Points just off the real axis (|Im z| from 1e-12 to 1e-2)."""
    return cplx(uni(x0, x1, n), sign(n) * logu(1e-12, 1e-2, n))


def imaginary(n):
    """Near the imaginary axis, |Re z| below 1e-3."""
    return cplx(sign(n) * logu(1e-12, 1e-3, n), sign(n) * logu(1e-3, 1e3, n))


def poles(n):
    """Around the poles 0, -1, ..., -30."""
    k = -gc.rng.integers(0, 31, n).astype(np.float64)
    return k + disk(1e-10, 0.5, n)


def switch_lines(n):
    """Across the lines where the method changes: Re z = 0 and 7, |Im z| =
    3.5 and 7, and the circle |z - 1| = 1/4."""
    m = n // 6
    t = uni(-1e-6, 1e-6, m)
    parts = [cplx(7.0 + t, uni(-7, 7, m)), cplx(t, uni(-7, 7, m)),
             cplx(uni(-7, 7, m), sign(m) * (3.5 + t)), cplx(uni(-10, 7, m), sign(m) * (7.0 + t)),
             1.0 + 0.25 * np.exp(1j * uni(-np.pi, np.pi, m)) * (1 + t)]
    return np.concatenate(parts + [box(-1, 8, -8, 8, n - 5 * m)])


def common(n):
    """The plane for all four: moderate |z| on the whole circle, the
    recurrence and Taylor region, the reflection half, near the axes, the
    poles and the switch lines."""
    k = n // 8
    return np.concatenate([
        disk(1e-3, 30.0, k),
        box(0, 7, -7, 7, k),
        box(-30, 0, -7, 7, k),
        near_axis(-30, 30, k),
        imaginary(k),
        poles(k),
        switch_lines(k),
        disk(1e-12, 1e-3, n - 7 * k),
    ])


def loggamma_points(n):
    k = n // 4
    return np.concatenate([
        common(n - 2 * k),
        # loggamma's zeros at 1 and 2, and the band between them
        near(1.0, 1e-10, 0.6, k // 2), near(2.0, 1e-10, 0.8, k // 2),
        # large |z| (loggamma stays finite)
        disk(30.0, 1e200, k),
    ])


def gamma_points(n):
    # Large |z| where Gamma is a normal number (|log Gamma| < 700 in its
    # real part, SciPy's loggamma picks them): Re z below 170, |Im z| to 300.
    k = n // 4
    big = cplx(uni(-170, 170, 8 * k), uni(-300, 300, 8 * k))
    with np.errstate(all="ignore"):
        big = big[np.abs(sc.loggamma(big).real) < 700][:k]
    return np.concatenate([common(n - k - k // 2), near(1.0, 1e-10, 0.5, k // 2), big])


def digamma_points(n):
    k = n // 4
    roots = np.array([1.4616321449683622, -0.5040830082644554, -1.5734984731623904,
                      -2.6107208684441447, -3.635293366436901])
    r = roots[gc.rng.integers(0, len(roots), k)]
    return np.concatenate([
        common(n - 2 * k),
        # digamma's zeros: the positive one and the first negative ones
        r + disk(1e-10, 0.4, k),
        disk(30.0, 1e200, k),
    ])


FUNCS = {
    "loggamma.c": Case(1, mp.loggamma, sc.loggamma, loggamma_points, goal=8.0, cplx=True),
    "gamma.c": Case(1, mp.gamma, sc.gamma, gamma_points, goal=8.0, cplx=True),
    "rgamma.c": Case(1, mp.rgamma, sc.rgamma, gamma_points, goal=8.0, cplx=True),
    "digamma.c": Case(1, mp.digamma, sc.digamma, digamma_points, goal=8.0, cplx=True),
}
