"""Constants of kernels/cuprum/special/*.cuh, computed with mpmath.

Run with mpmath installed (pip install mpmath); prints C++ initializers
to paste into the headers. Nothing here is read at build time: the
headers hold the numbers, this script says where they come from.
"""
import mpmath as mp

mp.mp.dps = 50


def show(name, values):
    print(f"// {name}")
    print(",\n".join(f"    {float(v)!r}" for v in values))


# digamma: its positive root x0 (as hi + lo) and the Taylor coefficients
# psi(x0 + h) = sum_k c_k h^k, c_k = (-1)^(k+1) zeta(k+1, x0) (DLMF 5.15.1).
root = mp.findroot(mp.digamma, 1.46)
hi = mp.mpf(float(root))
show("digamma root hi, lo", [hi, root - hi])
show("digamma Taylor c_1..c_24", [(-1) ** (k + 1) * mp.zeta(k + 1, root) for k in range(1, 25)])

# Euler-Maclaurin for the Hurwitz zeta: B_2j / (2j)!, j = 1..12 (DLMF 25.11.5 / 24.2).
show("B_2j / (2j)!", [mp.bernoulli(2 * j) / mp.factorial(2 * j) for j in range(1, 13)])

# digamma's asymptotic series: B_2k / (2k), k = 1..8 (DLMF 5.11.2).
show("B_2k / (2k)", [mp.bernoulli(2 * k) / (2 * k) for k in range(1, 9)])

# Borwein's eta series (P. Borwein, "An efficient algorithm for the Riemann
# zeta function", 2000): e_k = (d_n - d_k) / d_n, n = 24,
# d_k = n sum_{i<=k} (n+i-1)! 4^i / ((n-i)! (2i)!).
n = 24
d = []
acc = mp.mpf(0)
for i in range(n + 1):
    acc += mp.factorial(n + i - 1) * mp.mpf(4) ** i / (mp.factorial(n - i) * mp.factorial(2 * i))
    d.append(n * acc)
show(f"Borwein e_k, n = {n}", [(d[n] - d[k]) / d[n] for k in range(n)])

# float32 gammaln near its zeros (gamma.cuh, gammaln_near_zeros): Taylor
# coefficients of lgamma(1 + e) and lgamma(2 + e) in e from e^1 (DLMF
# 5.7.3: lgamma(1 + e) = -gamma e + sum_k>=2 (-1)^k zeta(k) e^k / k; for
# 2 + e add log(1 + e), which takes 1 from each zeta(k)).
show("lgamma(1 + e) / e, e^0..e^10",
     [-mp.euler] + [(-1) ** k * mp.zeta(k) / k for k in range(2, 12)])
show("lgamma(2 + e) / e, e^0..e^10",
     [1 - mp.euler] + [(-1) ** k * (mp.zeta(k) - 1) / k for k in range(2, 12)])
