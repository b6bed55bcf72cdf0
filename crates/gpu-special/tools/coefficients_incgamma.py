"""Coefficients of incgamma.cuh: zeta(k) - 1 for k = 2..30, the Taylor
coefficients of lgamma(1 + a) - (a - log1p(a)) + euler a (DLMF 5.7.3):
lgamma(1 + a) = -euler a + sum_{k>=2} (-a)^k zeta(k) / k."""
import mpmath as mp

mp.mp.dps = 40
print("euler = %.17g" % mp.euler)
for k in range(2, 31):
    print("%.17g," % (mp.zeta(k) - 1))
