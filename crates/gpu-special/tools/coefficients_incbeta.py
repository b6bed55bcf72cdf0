"""Constants of incbeta.cuh (kernels/cuprum/special/incbeta.cuh).

Stirling's series for log Gamma (DLMF 5.11.1):
    lgamma(z) = (z - 1/2) log z - z + log(2 pi) / 2 + mu(z),
    mu(z) = sum_{k>=1} B_2k / (2k (2k - 1) z^(2k - 1)),
with the Bernoulli numbers B_2k: the exact ratios are printed as C
fractions (numerator / denominator), k = 1..10, for the Horner form in
1/z^2 used by detail::ib_mu (z >= 10: the k = 10 term is below 1e-21 of
mu there). Also log(2 pi) / 2 and 1 / sqrt(2 pi) to 17 digits.

Also the (zeta(k) - 1) / k of DLMF 5.7.3 (lgamma(1 + a) =
-gamma a - (log(1 + a) - a) + sum_{k>=2} (-1)^k (zeta(k) - 1) a^k / k),
k = 2..36, for detail::ib_zeta_tail / ib_zeta_head, the first nine
(k = 2..10) and Euler's gamma and 1 - gamma as double-double pairs
(hi, lo with hi + lo to 32 digits) for detail::ib_dd_lgamma1p.

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


def hi_lo(v):
    h = float(v)
    return h, float(v - mp.mpf(h))


for k in range(2, 37):
    c = (mp.zeta(k) - 1) / k
    if k <= 10:
        print("(zeta(%d) - 1) / %d = %r + %r" % ((k, k) + hi_lo(c)))
    else:
        print("(zeta(%d) - 1) / %d = %.17g" % (k, k, c))
print("euler = %r + %r" % hi_lo(mp.euler))
print("1 - euler = %r + %r" % hi_lo(1 - mp.euler))
