"""Constants of kernels/cuprum/special/bessel.cuh's k1 and k1e, computed
with mpmath (prints C++ initializers; nothing reads this at build time).

- The power series of K_1 at x <= 1 (DLMF 10.31.1 with 10.25.2):
  K_1(x) = 1/x + ln(x/2) I_1(x) - (x/4) sum_k c_k z^k,  z = x^2/4,
  I_1(x) = (x/2) sum_k z^k / (k! (k+1)!),
  c_k = (psi(k+1) + psi(k+2)) / (k! (k+1)!).
- The Chebyshev expansion of g(x) = e^x sqrt(x) K_1(x) on x >= 1 in
  t = 2/x - 1 (x = 1 -> t = 1, x = inf -> t = -1), g(x) = sum' a_j T_j(t):
  the coefficients by Chebyshev-Gauss quadrature at 60 nodes, 50 digits
  (the construction of Cephes' k1.c expansions, S. L. Moshier, "Methods
  and Programs for Mathematical Functions", 1989, over a longer range).
"""
import mpmath as mp

mp.mp.dps = 50


def show(name, values):
    print(f"// {name}")
    print(",\n".join(f"    {float(v)!r}" for v in values))


K = 15
show("I_1 series 1/(k!(k+1)!), k = 0..%d" % (K - 1),
     [1 / (mp.factorial(k) * mp.factorial(k + 1)) for k in range(K)])
show("K_1 series c_k, k = 0..%d" % (K - 1),
     [(mp.digamma(k + 1) + mp.digamma(k + 2)) / (mp.factorial(k) * mp.factorial(k + 1))
      for k in range(K)])

N = 60


def g(t):
    x = 2 / (t + 1)
    return mp.exp(x) * mp.sqrt(x) * mp.besselk(1, x)


nodes = [mp.cos(mp.pi * (k + mp.mpf(1) / 2) / N) for k in range(N)]
vals = [g(t) for t in nodes]
a = [2 * mp.fsum(vals[k] * mp.cos(mp.pi * j * (k + mp.mpf(1) / 2) / N) for k in range(N)) / N
     for j in range(N)]
a[0] /= 2
M = max(j for j in range(N) if abs(a[j]) > 1e-18) + 1
show(f"e^x sqrt(x) K_1(x), x >= 1, Chebyshev a_0..a_{M - 1} in t = 2/x - 1", a[:M])
