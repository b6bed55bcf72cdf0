"""Coefficients of kernels/cuprum/special/bessel_real.cuh.

Taylor coefficients c_k of 1/Gamma(1 + z) about z = 0 (an entire
function), which give Temme's gamma_1(mu), gamma_2(mu) for |mu| <= 1/2
(N. M. Temme, J. Comput. Phys. 19 (1975) 324-337):
  1/Gamma(1 - mu) - 1/Gamma(1 + mu) = -2 sum_{k odd} c_k mu^k,
  gamma_1 = -sum_{k odd} c_k mu^(k-1),  gamma_2 = sum_{k even} c_k mu^k.
Run: python3 coefficients_bessel_real.py
"""
import mpmath as mp

mp.mp.dps = 60
N = 26
c = mp.taylor(lambda z: mp.rgamma(1 + z), 0, N)
print("// 1/Gamma(1+z) = sum c_k z^k, k = 0..%d" % N)
print("__device__ static const double BR_RGAMMA_TAYLOR[%d] = {" % (N + 1))
for k, v in enumerate(c):
    print("    %.17e," % float(v))
print("};")
