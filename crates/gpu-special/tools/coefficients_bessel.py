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

# Hankel's expansion of J_n, Y_n (DLMF 10.17.3-4) and the scaled I_n, K_n
# expansion (DLMF 10.40.1-2) for n = 0, 1 as polynomials: a_k(n) =
# prod_{j<=k} (4n^2 - (2j-1)^2) / (8j), exactly (fractions), then
#   P(w) = sum_k (-1)^k a_2k w^k, Q(w) = sum_k (-1)^k a_2k+1 w^k
# (w = 1/x^2; Q times 1/x), to a_22: at x >= 25 the first term left out,
# a_23/25^23, is below 3e-19; and the I/K sum in r = +-1/x to a_19 (at
# x >= 30 a_20/30^20 is below 1.1e-19).
from fractions import Fraction


def hankel_a(n, kmax):
    a, out = Fraction(1), [Fraction(1)]
    for k in range(1, kmax + 1):
        a = a * (4 * n * n - (2 * k - 1) ** 2) / (8 * k)
        out.append(a)
    return out


for n in (0, 1):
    a = hankel_a(n, 22)
    show(f"Hankel P, n = {n}, in w = 1/x^2 (w^0..w^11)",
         [(-1) ** k * a[2 * k] for k in range(12)])
    show(f"Hankel Q, n = {n}, in w = 1/x^2 (w^0..w^10), times 1/x",
         [(-1) ** k * a[2 * k + 1] for k in range(11)])
    show(f"I/K asymptotic sum, n = {n}, in r = +-1/x (r^0..r^19)", hankel_a(n, 19))
