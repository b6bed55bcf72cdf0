"""Constants of kernels/cuprum/special/cgamma.cuh (the complex loggamma,
gamma, rgamma and digamma), computed with mpmath at 50 digits.

Prints the C++ initializers pasted into the header; nothing here is read
at build time. The series lengths were chosen with mpmath so that the
truncation is below 3e-18 relative over each series' region (see the
header for the regions).
"""
import mpmath as mp

mp.mp.dps = 50


def wrap(items):
    lines, line = [], "   "
    for it in items:
        if len(line) + len(it) + 2 > 100:
            lines.append(line.rstrip())
            line = "   "
        line += f" {it},"
    lines.append(line.rstrip().rstrip(","))
    print("\n".join(lines))


def show(name, values):
    print(f"// {name}")
    wrap([repr(float(mp.re(v))) for v in values])


def show_complex(name, values):
    print(f"// {name} (re, im pairs)")
    wrap([f"{float(mp.re(v))!r}, {float(mp.im(v))!r}" for v in values])


# loggamma(1 + e) = -gamma e + sum_{k>=2} (-1)^k zeta(k) e^k / k (DLMF 5.7.3),
# |e| < 1/4: coefficients of e^1..e^28.
show("loggamma(1 + e): e^1..e^28", [-mp.euler] + [(-1) ** k * mp.zeta(k) / k for k in range(2, 29)])

# Taylor series of loggamma at c = 2 + i k (k = 0..3): a_0 = loggamma(c),
# a_j = psi^(j-1)(c) / j! (DLMF 5.15.1), for |e| <= 1/sqrt(2) (the square
# of side 1 around c); digamma uses the derivative, sum_j j a_j e^(j-1).
# At c = 2 the coefficients are real, a_0 = 0, a_j = (-1)^j (zeta(j) - 1) / j
# for j >= 2.
for k, n in ((0, 40), (1, 36), (2, 30), (3, 24)):
    c = mp.mpc(2, k)
    a = [mp.loggamma(c)] + [mp.polygamma(j - 1, c) / mp.factorial(j) for j in range(1, n + 1)]
    if k == 0:
        show(f"loggamma(2 + e): e^1..e^{n}", a[1:])
    else:
        show_complex(f"loggamma(2 + {k}i + e): e^0..e^{n}", a)

# Stirling's series (DLMF 5.11.1): B_2k / (2k (2k - 1)), k = 1..13.
show("Stirling B_2k / (2k (2k-1))",
     [mp.bernoulli(2 * k) / (2 * k * (2 * k - 1)) for k in range(1, 14)])
# digamma's asymptotic series (DLMF 5.11.2): B_2k / (2k), k = 1..13.
show("digamma asymptotic B_2k / (2k)", [mp.bernoulli(2 * k) / (2 * k) for k in range(1, 14)])

# digamma at its positive root x0: psi(x0 + h) = sum_k (-1)^(k+1) zeta(k+1, x0) h^k
# (DLMF 5.15.1 with 25.11.12), |h| < 0.35: k = 1..28; x0 as hi + lo.
x0 = mp.findroot(mp.digamma, 1.46)
hi = mp.mpf(float(x0))
show("x0 hi, lo", [hi, x0 - hi])
show("psi(x0 + h): h^1..h^28", [(-1) ** (k + 1) * mp.zeta(k + 1, x0) for k in range(1, 29)])

# digamma at its first negative roots r_n in (-n, 1 - n): psi(r + h) =
# sum_k psi^(k)(r) / k! h^k, for |h| < 0.05 at r1 (17 terms) and |h| < 0.1
# at r2, r3, r4 (28, 30, 31 terms); r as hi + lo.
for n, (start, terms) in enumerate(((-0.504, 17), (-1.573, 28), (-2.611, 30), (-3.635, 31)), 1):
    r = mp.findroot(mp.digamma, start)
    hi = mp.mpf(float(r))
    show(f"r{n} hi, lo", [hi, r - hi])
    show(f"psi(r{n} + h): h^1..h^{terms}",
         [mp.polygamma(k, r) / mp.factorial(k) for k in range(1, terms + 1)])

show("Euler's gamma; log(2 pi); log(2 pi) / 2; log 2; log pi; e^709",
     [mp.euler, mp.log(2 * mp.pi), mp.log(2 * mp.pi) / 2, mp.log(2), mp.log(mp.pi), mp.exp(709)])


# Double-doubles (hi, lo) for the exponent of Gamma (cg_log_dd,
# cg_stirling_dd, cg_exp_reflect).
def hilo(v):
    hi = mp.mpf(float(v))
    return [hi, v - hi]


show("atan(k/16), k = 0..16, (hi, lo)", sum((hilo(mp.atan(mp.mpf(k) / 16)) for k in range(17)), []))
show("log 2, pi/2, pi, log(2 pi)/2, log pi (hi, lo)",
     hilo(mp.log(2)) + hilo(mp.pi / 2) + hilo(mp.pi) + hilo(mp.log(2 * mp.pi) / 2) + hilo(mp.log(mp.pi)))
