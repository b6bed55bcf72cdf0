"""Constants of expint.cuh and ellip.cuh.

Neither header uses a fitted polynomial: every function is a series,
continued fraction, asymptotic expansion, AGM or Carlson duplication
evaluated term by term from its published formula (DLMF 6.6, 6.9, 6.12,
8.19, 19.8, 19.36, 22.20). The only literal constants are Euler's gamma,
pi split in two doubles for the amplitude reduction of ellipkinc /
ellipeinc, ln 2^600 in two doubles (the complex logarithm of subnormal
arguments), and the real zeros of Ei, Chi and Ci nearest the origin in
two doubles each (the complex loops sum those functions as differences
from their zero there); this script prints them from mpmath:

    /tmp/venv/bin/python crates/gpu-special/tools/coefficients_expint.py
"""
import mpmath as mp

mp.mp.dps = 40
print("EULER =", mp.nstr(mp.euler, 35))
hi = float(mp.pi)
lo = float(mp.pi - hi)
print("PI_HI = %.19g" % hi)
print("PI_LO = %.17g" % lo)
lo600 = 600 * mp.log(2)
print("LN_2_600 = %.17g + %.17g" % (float(lo600), float(lo600 - float(lo600))))
for name, f, x in (("EI_ZERO", mp.ei, 0.37), ("CHI_ZERO", mp.chi, 0.52), ("CI_ZERO", mp.ci, 0.62)):
    r = mp.findroot(f, x)
    print("%s = %.17g, %s_LO = %.17g" % (name, float(r), name, float(r - float(r))))
