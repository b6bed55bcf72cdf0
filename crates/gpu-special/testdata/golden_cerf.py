"""Goldens of erf.cuh's complex loops (erf, erfc, erfcx, ndtr, log_ndtr),
in the complex layout of golden_common.py (`<func>.c`, sets c16 and c8).

The points cover the plane where the values are representable: near 0
(the Maclaurin series), the axes, |z| up to 8 (the trapezoidal rule of w and its
switch to the continued fraction at |z| = 7 and Im = 5), strips along
both axes (where erfc and w cancel, and where exp(-z^2) is nearly real
or imaginary), moderate |z| up to 60, and the diagonals |x| ~ |y| up to
|z| ~ 1e8 (the only place where erfc of large |z| is neither 0, 2 nor
beyond the range, and where the phase 2xy of exp(-z^2) needs more
than double precision). A point is kept where an estimate of log|f| lies
within +-650 (within +-80 for the complex64 set, n < 1000), so that the
reference neither over- nor underflows the dtype.
"""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, cplx, disk, logu, uni


def _phase_digits(f):
    """f evaluated with as many more digits as |z|^2 has before the point:
    the phase 2xy of exp(-z^2) must keep 50 digits after it."""
    def g(z):
        extra = int(2 * mp.log10(abs(z))) + 5 if abs(z) > 1 else 0
        with mp.workdps(mp.mp.dps + extra):
            return +f(z)
    return g


def _erfc_asym(z):
    """erfcx(z) for |z| > 1e4, |arg z| < 3 pi / 4 (DLMF 7.12.1)."""
    s, t = mp.mpf(1), mp.mpf(1)
    for m in range(1, 8):
        t = -t * (2 * m - 1) / (2 * z * z)
        s += t
    return s / (z * mp.sqrt(mp.pi))


def erfcx_mp(z):
    if abs(z) > 1e4:
        if z.real >= 0:
            return _erfc_asym(z)
        return 2 * mp.exp(z * z) - _erfc_asym(-z)
    return mp.exp(z * z) * mp.erfc(z)


def erfc_mp(z):
    if abs(z) > 1e4:
        e = mp.exp(-z * z)
        return e * _erfc_asym(z) if z.real >= 0 else 2 - e * _erfc_asym(-z)
    return mp.erfc(z)


def erf_mp(z):
    if abs(z) > 1e4:
        return 1 - erfc_mp(z)
    return mp.erf(z)


def ndtr_mp(z):
    return erfc_mp(-z / mp.sqrt(2)) / 2


def log_ndtr_mp(z):
    # ndtr(z) = 1 - ndtr(-z): log1p where ndtr(z) is near 1.
    if z.real > 0:
        return mp.log1p(-ndtr_mp(-z))
    return mp.log(ndtr_mp(z))


def _log_erfc(z):
    """log|erfc(z)| roughly (DLMF 7.12.1), elementwise."""
    r2 = (z.real - z.imag) * (z.real + z.imag)
    la = -np.log(np.maximum(1.0, np.abs(z)))
    right = -r2 + la
    return np.where(z.real >= 0, right, np.maximum(np.log(2.0), right))


def _estimates(z):
    with np.errstate(all="ignore"):
        r2 = (z.real - z.imag) * (z.real + z.imag)
        le = _log_erfc(z)
        s = z / np.sqrt(2.0)
        return {
            "erfc": le,
            "erf": np.maximum(0.0, _log_erfc(np.where(z.real >= 0, z, -z))),
            "erfcx": np.where(z.real >= 0, 0.0, np.maximum(0.0, r2)),
            "ndtr": _log_erfc(-s) - np.log(2.0),
            # log_ndtr is about -z^2/2 where ndtr is small, -ndtr(-z) where
            # ndtr is near 1: the latter must not underflow.
            "log_ndtr": np.where(z.real > 0, _log_erfc(s), 0.0),
        }


def _points(name):
    def make(n):
        k = n // 9
        # Strips along the axes: one part uniform, the other log-uniform in
        # [1e-10, 1] with either sign.
        t = uni(-12.0, 12.0, k)
        e = logu(1e-10, 1.0, k) * np.where(uni(0, 1, k) < 0.5, -1.0, 1.0)
        t2 = uni(-12.0, 12.0, k)
        e2 = logu(1e-10, 1.0, k) * np.where(uni(0, 1, k) < 0.5, -1.0, 1.0)
        # Diagonals: x = +-s, y = +-sqrt(s^2 + c), |c| < 300.
        s = logu(20.0, 1e8, k)
        c = uni(-300.0, 300.0, k)
        sx = np.where(uni(0, 1, k) < 0.5, -1.0, 1.0)
        sy = np.where(uni(0, 1, k) < 0.5, -1.0, 1.0)
        diag = cplx(sx * s, sy * np.sqrt(np.maximum(s * s + c, 0.0)))
        z = np.concatenate([
            disk(1e-8, 0.5, k),
            disk(0.5, 8.0, 3 * k),
            cplx(t, e),
            cplx(e2, t2),
            disk(8.0, 60.0, k),
            diag,
            disk(60.0, 1e150, n - 9 * k),
            # On the axes themselves (the real and imaginary loops of the
            # same formulas), with either sign of zero.
            cplx(uni(-30.0, 30.0, k // 2), np.where(uni(0, 1, k // 2) < 0.5, -0.0, 0.0)),
            cplx(np.where(uni(0, 1, k - k // 2) < 0.5, -0.0, 0.0), uni(-30.0, 30.0, k - k // 2)),
        ])
        lim = 650.0 if n >= 1000 else 80.0
        est = _estimates(z)[name]
        keep = np.isfinite(est) & (np.abs(est) < lim)
        if name == "log_ndtr":
            keep &= np.abs(z) < 1e150
        return z[keep]
    return make


FUNCS = {
    "erf.c": Case(1, _phase_digits(erf_mp), sc.erf, _points("erf"), goal=16.0, cplx=True),
    "erfc.c": Case(1, _phase_digits(erfc_mp), sc.erfc, _points("erfc"), goal=16.0, cplx=True),
    "erfcx.c": Case(1, _phase_digits(erfcx_mp), sc.erfcx, _points("erfcx"), goal=16.0, cplx=True),
    "ndtr.c": Case(1, _phase_digits(ndtr_mp), sc.ndtr, _points("ndtr"), goal=16.0, cplx=True),
    "log_ndtr.c": Case(1, _phase_digits(log_ndtr_mp), sc.log_ndtr, _points("log_ndtr"), goal=16.0,
                       cplx=True),
}
