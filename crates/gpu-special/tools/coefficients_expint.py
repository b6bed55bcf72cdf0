"""Constants of expint.cuh and ellip.cuh.

Neither header uses a fitted polynomial: every function is a series,
continued fraction, asymptotic expansion, AGM or Carlson duplication
evaluated term by term from its published formula (DLMF 6.6, 6.9, 6.12,
8.19, 19.8, 19.36, 22.20). The only literal constants are Euler's gamma
and pi split in two doubles for the amplitude reduction of ellipkinc /
ellipeinc; this script prints them from mpmath:

    /tmp/venv/bin/python crates/gpu-special/tools/coefficients_expint.py
"""
import mpmath as mp

mp.mp.dps = 40
print("EULER =", mp.nstr(mp.euler, 35))
hi = float(mp.pi)
lo = float(mp.pi - hi)
print("PI_HI = %.19g" % hi)
print("PI_LO = %.17g" % lo)
