"""Constants of incbeta.cuh (kernels/cuprum/special/incbeta.cuh).

Stirling's series for log Gamma (DLMF 5.11.1):
    lgamma(z) = (z - 1/2) log z - z + log(2 pi) / 2 + mu(z),
    mu(z) = sum_{k>=1} B_2k / (2k (2k - 1) z^(2k - 1)),
with the Bernoulli numbers B_2k: the exact ratios are printed as C
fractions (numerator / denominator), k = 1..10, for the Horner form in
1/z^2 used by detail::ib_mu (z >= 10: the k = 10 term is below 1e-21 of
mu there). Also log(2 pi) / 2 and 1 / sqrt(2 pi) to 17 digits.

Run: python3 coefficients_incbeta.py
"""
from fractions import Fraction

import mpmath as mp

mp.mp.dps = 40

for k in range(1, 11):
    b = Fraction(mp.bernfrac(2 * k)[0], mp.bernfrac(2 * k)[1])
    c = b / (2 * k * (2 * k - 1))
    print(f"k = {k}: {c.numerator}.0 / {c.denominator}.0  ({float(c):.17g})")
print("log(2 pi) / 2 = %.17g" % (mp.log(2 * mp.pi) / 2))
print("1 / sqrt(2 pi) = %.17g" % (1 / mp.sqrt(2 * mp.pi)))
print("sqrt(2 pi) = %.17g" % mp.sqrt(2 * mp.pi))
