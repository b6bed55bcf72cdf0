"""Goldens of elementary.cuh's complex loops (expm1, log1p), in the
complex layout of golden_common.py (`<func>.c`, sets c16 and c8)."""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, cplx, disk, uni
import golden_common as gc


def near_zero(n):
    # Where exp(z) - 1 and log(1 + z) cancel: |z| from 1e-12 to 1, plus
    # the circle |1 + z| = 1 (log1p's real part near 0).
    a = disk(1e-12, 1.0, n - n // 4)
    t = uni(-3.0, 3.0, n // 4)
    return np.concatenate([a, cplx(np.cos(t) - 1, np.sin(t))])


def wide(n):
    return np.concatenate([near_zero(n // 2), disk(1.0, 700.0, n - n // 2)])


def log1p_points(n):
    return np.concatenate([near_zero(n // 2), disk(1.0, 1e300, n - n // 2)])


FUNCS = {
    "expm1.c": Case(1, mp.expm1, sc.expm1, wide, goal=None, cplx=True),
    "log1p.c": Case(1, mp.log1p, sc.log1p, log1p_points, goal=None, cplx=True),
}
