"""Goldens of expint.cuh's complex loops (exp1, expi, sici, shichi), in
the complex layout of golden_common.py (`<func>.c`, `sici.c0`, ...; sets
c16 and c8).

The points cover where the algorithms switch: the power series (|z| + Re z
small for E1), the continued fraction, the asymptotic series (|z| >= 45),
the strips along the negative real axis (E1's cut, where the fraction
is slow), the imaginary axis, and the real zeros of Ei, Ci and Chi.
"""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, cplx, disk, logu, uni
import golden_common as gc

# Real zeros of Ei (0.3725...), Ci (0.6165..., 3.3842..., 6.4270...) and
# Chi (0.5238...).
EI_ZERO = 0.3725074107813666
CI_ZEROS = (0.6165054856207163, 3.3841804225511862, 6.427047744050369)
CHI_ZERO = 0.5238225713898644


def near(centres, n):
    c = np.array(centres)[gc.rng.integers(0, len(centres), n)]
    return c + disk(1e-7, 1e-2, n)


def axis_strip(r_lo, r_hi, angle, n):
    """Points at modulus r_lo..r_hi within 1e-8..0.5 radians of the ray
    at `angle`, on both sides."""
    r = logu(r_lo, r_hi, n)
    t = angle + sign(n) * logu(1e-8, 0.5, n)
    return cplx(r * np.cos(t), r * np.sin(t))


def sign(n):
    return np.where(uni(0, 1, n) < 0.5, -1.0, 1.0)


def bounded(rmin, rmax, n, re_max=700.0):
    """disk(rmin, rmax, n) with |Re z| clipped to re_max (beyond it E1 and
    Ei under- or overflow)."""
    z = disk(rmin, rmax, n)
    return cplx(np.clip(z.real, -re_max, re_max), z.imag)


def e1_points(n):
    k = n // 8
    m = n - 7 * k - k // 2
    return np.concatenate([
        disk(1e-8, 1.0, k),
        disk(1.0, 45.0, 4 * k),
        axis_strip(1.0, 60.0, np.pi, k),         # E1's cut
        axis_strip(1.0, 60.0, np.pi / 2, k // 2),
        bounded(45.0, 700.0, k),
        cplx(uni(-50, 50, m), sign(m) * logu(700, 1e6, m)),    # far up the imaginary axis
    ])


def ei_points(n):
    k = n // 8
    return np.concatenate([-e1_points(n - k), near([EI_ZERO], k)])


def sici_points(n):
    # |Im z| <= 700: Si and Ci grow as e^{|Im z|}/|z| and overflow beyond.
    k = n // 8
    m = n - 7 * k
    return np.concatenate([
        disk(1e-8, 1.0, k),
        disk(1.0, 40.0, 3 * k),
        cplx(sign(k) * logu(1.0, 1e5, k), sign(k) * logu(1e-8, 30.0, k)),    # the real axis
        cplx(sign(k) * logu(1e-8, 30.0, k), sign(k) * logu(1.0, 700.0, k)),  # the imaginary axis
        near(CI_ZEROS + tuple(-c for c in CI_ZEROS), k),
        cplx(uni(-1e4, 1e4, m), uni(-700, 700, m)),
    ])


def shichi_points(n):
    # Shi(z) = -i Si(iz): sici's points turned a quarter, with Chi's zero.
    k = n // 8
    return np.concatenate([1j * sici_points(n - k), near([CHI_ZERO, -CHI_ZERO], k)])


def digits(f):
    """f at 50 digits plus those of |z|: beyond 1e50 mpmath's Ci at 50
    digits loses the imaginary part (Ci(1e300 + i) ~ sin(z)/z comes out
    real), as its sums cancel to 1/|z| from log|z|."""
    def g(z):
        extra = max(0, int(mp.log10(abs(z)))) if z != 0 else 0
        with mp.workdps(mp.mp.dps + extra + 10):
            return f(z)
    return g


def out(f, k):
    return lambda z: f(z)[k]


# Si, Ci, Shi and Chi have complex zeros (Shi's at +-3.0056 +- 5.9652i,
# Ci's at -5.8609 +- 3.7244i, ...) and Ci infinitely many real ones, where
# the normwise error of any evaluation in double grows as 1/|f|: Ci and
# Shi, whose points come near such zeros, are held to SciPy's own error.
FUNCS = {
    "exp1.c": Case(1, digits(mp.e1), sc.exp1, e1_points, goal=8.0, cplx=True),
    "expi.c": Case(1, digits(mp.ei), sc.expi, ei_points, goal=8.0, cplx=True),
    "sici.c0": Case(1, digits(mp.si), out(sc.sici, 0), sici_points, goal=8.0, cplx=True),
    "sici.c1": Case(1, digits(mp.ci), out(sc.sici, 1), sici_points, goal=None, cplx=True),
    "shichi.c0": Case(1, digits(mp.shi), out(sc.shichi, 0), shichi_points, goal=None, cplx=True),
    "shichi.c1": Case(1, digits(mp.chi), out(sc.shichi, 1), shichi_points, goal=8.0, cplx=True),
}
