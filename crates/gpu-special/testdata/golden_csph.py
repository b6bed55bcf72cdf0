"""Goldens of bessel.cuh's complex loops of the spherical Bessel functions
(spherical_jn, spherical_yn and their derivatives spherical_jn_d,
spherical_yn_d: SciPy's "lD->D" loops), in the complex layout of
golden_common.py (`<func>.c`; an int64 order n beside the complex z).

Only the complex128 set is made: an int64 n beside a complex64 array
resolves to SciPy's lD->D loop (lF->F is the complex128 value rounded
once), as for the real loops in golden_bessel.py.

Orders n from 0 to 100, weighted toward small n. Points: small |z| (the
power series, DLMF 10.53.1), moderate and large |z| up to 1e4 over the
whole plane, |Re z| up to 1e15 with |Im z| <= 300 (n <= 50 there),
strips along the real and the imaginary axis (near the real zeros, and
where the forward recurrences are least stable), the axes themselves
(either sign of zero), and the switches between the methods of
bessel.cuh (|z|^2 = 2n + 3, |z| = n, (n + 1/2)^2 = 2|z|, |z| = 25). A
point is kept where the value lies within 1e-290..1e290 (neither it nor
SciPy's over- or underflows). Edges: every complex edge of
golden_common.py at n = 0, 1, 2, 3, 5, 50, 200, -1, -2.

The reference is sqrt(pi/2) z^(-1/2) J_{n+1/2}(z) (DLMF 10.47.3; not
sqrt(pi/(2z)), whose branch differs on the negative real axis) and the
same with Y, from mpmath at 50 digits with 10 guard digits; the
derivatives by DLMF 10.51.2, f_n' = f_{n-1} - (n+1)/z f_n, f_0' = -f_1.
"""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, cplx, disk, ints, logu, uni
import golden_common as gc


def sph_mp(kind):
    b = mp.besselj if kind == "j" else mp.bessely

    def f(n, z):
        if n < 0:
            raise ValueError
        z = mp.mpc(z)
        if z == 0:
            if kind == "j":
                return mp.mpf(1) if n == 0 else mp.mpf(0)
            raise ValueError
        with mp.workdps(mp.mp.dps + 10):
            # sqrt(pi/2) / sqrt(z), not sqrt(pi/(2z)): on the negative real
            # axis both factors must take arg z = pi (principal branches).
            v = mp.sqrt(mp.pi / 2) / mp.sqrt(z) * b(n + mp.mpf(1) / 2, z)
        return +v
    return f


def sph_d_mp(kind):
    f = sph_mp(kind)

    def d(n, z):
        if n < 0:
            raise ValueError
        z = mp.mpc(z)
        if z == 0:
            if kind == "j":
                return mp.mpf(1) / 3 if n == 1 else mp.mpf(0)
            raise ValueError
        with mp.workdps(mp.mp.dps + 10):
            if n == 0:
                v = -f(1, z)
            else:
                v = f(n - 1, z) - (n + 1) * f(n, z) / z
        return +v
    return d


def _signs(k):
    return np.where(uni(0, 1, k) < 0.5, -1.0, 1.0)


def _orders(k):
    m = k * 2 // 5
    l = k * 3 // 10
    return np.concatenate([ints(0, 6, m), ints(6, 21, l), ints(21, 101, k - m - l)])


def _switches(n):
    """Moduli within 5% of bessel.cuh's switches for order n: |z|^2 =
    2n + 3, |z| = n, (n + 1/2)^2 = 2|z|, |z| = 25."""
    k = len(n)
    which = np.minimum(uni(0, 4, k).astype(int), 3)
    r0 = np.choose(which, [np.sqrt(2 * n + 3), np.maximum(n, 1.0), (n + 0.5) ** 2 / 2,
                           np.full(k, 25.0)])
    return r0 * uni(0.95, 1.05, k)


def _log10_abs(f, n, z):
    """log10 |f(n, z)| at low precision (the filter), or NaN."""
    try:
        with mp.workdps(15):
            v = f(int(n), mp.mpc(complex(z)))
        return float(mp.log10(abs(v))) if v != 0 else -np.inf
    except Exception:  # noqa: BLE001 - a pole, no convergence
        return np.nan


def _points(f):
    def make(count):
        k = count // 11
        parts = []
        # Small, moderate and large |z| over the whole plane.
        parts.append((_orders(k), disk(1e-6, 1.0, k)))
        parts.append((_orders(2 * k), disk(1.0, 30.0, 2 * k)))
        parts.append((_orders(k), disk(30.0, 300.0, k)))
        parts.append((_orders(k), disk(300.0, 1e4, k)))
        # Huge |Re z| up to 1e15 (SciPy's AMOS gives NaN past 2^51), with
        # |Im z| where the value is representable; orders up to 50 (from
        # about 85 on, SciPy's y_n is 0 there at |z| >= 1e8, which would
        # leave the bound at 1e16 eps).
        parts.append((ints(0, 51, k), cplx(_signs(k) * logu(1e4, 1e15, k), uni(-300.0, 300.0, k))))
        # Strips along the real and the imaginary axis.
        parts.append((_orders(k), cplx(uni(-150.0, 150.0, k), _signs(k) * logu(1e-12, 1.0, k))))
        parts.append((_orders(k), cplx(_signs(k) * logu(1e-12, 1.0, k), uni(-150.0, 150.0, k))))
        # The method switches.
        n = _orders(k)
        r = _switches(n)
        t = uni(-np.pi, np.pi, k)
        parts.append((n, cplx(r * np.cos(t), r * np.sin(t))))
        # On the axes, either sign of zero.
        m = count - 10 * k
        h = m // 2
        zero = np.where(uni(0, 1, h) < 0.5, -0.0, 0.0)
        parts.append((_orders(h), cplx(_signs(h) * logu(1e-3, 200.0, h), zero)))
        zero = np.where(uni(0, 1, m - h) < 0.5, -0.0, 0.0)
        parts.append((_orders(m - h), cplx(zero, _signs(m - h) * logu(1e-3, 200.0, m - h))))
        nn = np.concatenate([p[0] for p in parts])
        zz = np.concatenate([p[1] for p in parts])
        lg = np.array([_log10_abs(f, a, b) for a, b in zip(nn, zz)])
        keep = np.isfinite(lg) & (np.abs(lg) < 290)
        return nn[keep], zz[keep]
    return make


def edges(dtype):
    orders = np.array([0, 1, 2, 3, 5, 50, 200, -1, -2], dtype=np.int64)
    z = gc.complex_edges()[0]
    g = np.meshgrid(orders, np.arange(len(z)), indexing="ij")
    return g[0].ravel(), z[g[1].ravel()]


def _case(mpf, scf):
    return Case(2, mpf, scf, _points(mpf), goal=None, ints=(0,), edges=edges, cplx=True,
                dtypes=("c16",), timeout=10.0)


FUNCS = {
    "spherical_jn.c": _case(sph_mp("j"), lambda n, z: sc.spherical_jn(n, z)),
    "spherical_yn.c": _case(sph_mp("y"), lambda n, z: sc.spherical_yn(n, z)),
    "spherical_jn_d.c": _case(sph_d_mp("j"), lambda n, z: sc.spherical_jn(n, z, derivative=True)),
    "spherical_yn_d.c": _case(sph_d_mp("y"), lambda n, z: sc.spherical_yn(n, z, derivative=True)),
}
