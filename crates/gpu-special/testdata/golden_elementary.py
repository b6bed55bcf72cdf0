"""Goldens of elementary.cuh (see make_golden.py)."""
import mpmath as mp
import numpy as np
import scipy.special as sc

from golden_common import Case, logu, mpf, pm, uni
import golden_common as gc


def nint_even(x):
    x = mpf(x)
    f = mp.floor(x)
    r = x - f
    if r > 0.5 or (r == 0.5 and int(f) % 2 != 0):
        f += 1
    return f


def trig_deg(fun):
    # x / 180 in mpf is exact to 50 digits; sinpi/cospi reduce exactly.
    def ref(x):
        t = mpf(x) / 180
        return fun(t)
    return ref


def tan_deg(t):
    c = mp.cospi(t)
    if c == 0:
        raise ZeroDivisionError
    return mp.sinpi(t) / c


def cot_deg(t):
    s = mp.sinpi(t)
    if s == 0:
        raise ZeroDivisionError
    return mp.cospi(t) / s


def degrees_points(n):
    return np.concatenate([uni(-720, 720, n // 2), pm(logu(1, 1e14, n // 4)) if n >= 4 else [],
                           (gc.rng.integers(-48, 48, n - 2 * (n // 4) - n // 2) * 15.0)])


def boxcox_mp(x, l):
    x, l = mpf(x), mpf(l)
    return mp.log(x) if l == 0 else mp.expm1(l * mp.log(x)) / l


def boxcox1p_mp(x, l):
    x, l = mpf(x), mpf(l)
    return mp.log1p(x) if l == 0 else mp.expm1(l * mp.log1p(x)) / l


def inv_boxcox_mp(y, l):
    y, l = mpf(y), mpf(l)
    return mp.exp(y) if l == 0 else mp.exp(mp.log1p(l * y) / l)


def inv_boxcox1p_mp(y, l):
    y, l = mpf(y), mpf(l)
    return mp.expm1(y) if l == 0 else mp.expm1(mp.log1p(l * y) / l)


FUNCS = {
    "expm1": Case(1, lambda x: mp.expm1(mpf(x)), sc.expm1,
                  lambda n: np.concatenate([uni(-40, 709, n // 2), pm(logu(1e-300, 1, n // 4))])),
    "log1p": Case(1, lambda x: mp.log1p(mpf(x)), sc.log1p,
                  lambda n: np.concatenate([uni(-1, 10, n // 4), logu(1e-300, 1e300, n // 4),
                                            -logu(1e-300, 1, n // 4), -1 + logu(1e-16, 1, n // 4)])),
    "cbrt": Case(1, lambda x: mp.sign(mpf(x)) * mp.cbrt(abs(mpf(x))), sc.cbrt, lambda n: pm(logu(1e-300, 1e300, n // 2))),
    "exp2": Case(1, lambda x: mp.power(2, mpf(x)), sc.exp2, lambda n: uni(-1070, 1023, n)),
    "exp10": Case(1, lambda x: mp.power(10, mpf(x)), sc.exp10, lambda n: uni(-320, 308, n)),
    "round": Case(1, nint_even, sc.round,
                  lambda n: np.concatenate([uni(-1e6, 1e6, n // 2),
                                            gc.rng.integers(-1000, 1000, n - n // 2) + 0.5])),
    "sindg": Case(1, trig_deg(mp.sinpi), sc.sindg, degrees_points),
    "cosdg": Case(1, trig_deg(mp.cospi), sc.cosdg, degrees_points),
    "tandg": Case(1, trig_deg(tan_deg), sc.tandg, degrees_points),
    "cotdg": Case(1, trig_deg(cot_deg), sc.cotdg, degrees_points),
    # d + m / 60 + s / 3600 cancels where the three nearly balance.
    "radian": Case(3, lambda d, m, s: (mpf(d) + mpf(m) / 60 + mpf(s) / 3600) * mp.pi / 180,
                   sc.radian, lambda n: (uni(-360, 360, n), uni(-60, 60, n), uni(-60, 60, n)),
                   goal=None),
    "xlogy": Case(2, lambda x, y: mpf(x) * mp.log(mpf(y)), sc.xlogy,
                  lambda n: (uni(-10, 10, n), np.concatenate([logu(1e-300, 1e300, n // 2),
                                                              uni(0.5, 2, n - n // 2)]))),
    "xlog1py": Case(2, lambda x, y: mpf(x) * mp.log1p(mpf(y)), sc.xlog1py,
                    lambda n: (uni(-10, 10, n), np.concatenate([logu(1e-300, 1e300, n // 2),
                                                                uni(-1, 2, n - n // 2)]))),
    "exprel": Case(1, lambda x: mp.expm1(mpf(x)) / mpf(x), sc.exprel,
                   lambda n: np.concatenate([uni(-50, 700, n // 2), pm(logu(1e-20, 1, n // 4))])),
    # expm1(lambda log x) magnifies the rounding of lambda log x by up to
    # its size, for any implementation.
    "boxcox": Case(2, boxcox_mp, sc.boxcox, lambda n: (logu(1e-10, 1e10, n), uni(-3, 3, n)),
                   goal=None),
    "boxcox1p": Case(2, boxcox1p_mp, sc.boxcox1p,
                     lambda n: (np.concatenate([uni(-0.99, 10, n // 2), logu(1e-10, 1e10, n - n // 2)]),
                                uni(-3, 3, n)), goal=None),
    "inv_boxcox": Case(2, inv_boxcox_mp, sc.inv_boxcox, lambda n: (uni(-5, 5, n), uni(-2, 2, n)),
                       goal=None),
    "inv_boxcox1p": Case(2, inv_boxcox1p_mp, sc.inv_boxcox1p,
                         lambda n: (uni(-5, 5, n), uni(-2, 2, n)), goal=None),
    "log_expit": Case(1, lambda x: -mp.log1p(mp.exp(-mpf(x))), sc.log_expit,
                      lambda n: np.concatenate([uni(-700, 700, n // 2), uni(-40, 40, n // 4),
                                                pm(logu(1e-300, 1, n // 8))])),
    "sinc": Case(1, lambda x: mp.sincpi(mpf(x)), np.sinc,
                 lambda n: np.concatenate([uni(-20, 20, n // 2), pm(logu(1e-300, 1e10, n // 4))])),
}
