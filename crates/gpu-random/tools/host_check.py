"""Checks the samplers of src/kernels/distributions.cuh on the host.

    /work/venv/bin/python tools/host_check.py [name ...]
    /work/venv/bin/python tools/host_check.py --nvrtc

compiles philox.cuh + distributions.cuh with g++ through host_shim.h
(-O2 -ffp-contract=off, cached by source hash) into a shared library,
draws N samples of a sampler (sample i from Stream(Key{k0, k1}, pos = i,
word = 0)) and compares them with scipy.stats (or an exact reference
written here where scipy has none or breaks down):

- continuous: Kolmogorov-Smirnov (where no value underflows or rounds
  onto a point) and a chi-square test on bins;
- discrete: a chi-square test on the pmf, binned;
- both: z-scores of the sample mean and variance, where the variance's
  own variance is finite and the kurtosis small enough for the z-score to
  be near normal;
- very large means: a chi-square test of k mod 1024 (every integer must
  be reachable, not only multiples of the double spacing);
- edges: exact results (p = 0 gives 0, ...).

--nvrtc instead compiles the headers and a kernel calling every sampler
with NVRTC and prints the compile time.

Bins come from the quantiles of a pilot sample drawn with another key,
so they do not depend on the sample tested; adjacent bins are merged
until every expected count is at least 5. A p-value below 1e-7 or a
|z| above 5.33 (two-sided 1e-7) fails, so a correct sampler fails a given
test less often than once in 1e7 runs. Needs numpy, scipy and mpmath.
"""
import ctypes
import hashlib
import math
import os
import subprocess
import sys
import tempfile

import mpmath
import numpy as np
import scipy.special as sp
import scipy.stats as ss

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.normpath(os.path.join(HERE, "..", "src", "kernels"))
CACHE = os.path.join(tempfile.gettempdir(), "cuprum-random-host")
N = 200_000
P_FAIL = 1e-7
Z_FAIL = 5.33
I64_MAX = 2**63 - 1

# name: (parameter C types, returns integer)
SAMPLERS = {
    "standard_gamma": (["double"], False),
    "beta": (["double", "double"], False),
    "chisquare": (["double"], False),
    "noncentral_chisquare": (["double", "double"], False),
    "f": (["double", "double"], False),
    "noncentral_f": (["double", "double", "double"], False),
    "standard_t": (["double"], False),
    "standard_cauchy": ([], False),
    "vonmises": (["double", "double"], False),
    "wald": (["double", "double"], False),
    "poisson": (["double"], True),
    "binomial": (["long long", "double"], True),
    "negative_binomial": (["double", "double"], True),
    "geometric": (["double"], True),
    "hypergeometric": (["long long", "long long", "long long"], True),
    "logseries": (["double"], True),
    "zipf": (["double"], True),
}


def build():
    names = list(SAMPLERS)
    lines = [f'#include "{os.path.join(HERE, "host_shim.h")}"',
             f'#include "{os.path.join(KERNELS, "philox.cuh")}"',
             f'#include "{os.path.join(KERNELS, "distributions.cuh")}"',
             "using namespace cuprum_random;",
             'extern "C" int draw(int which, const double* d, const long long* l, long long n,',
             "                    unsigned k0, unsigned k1, double* od, long long* oi) {",
             "  switch (which) {"]
    for w, name in enumerate(names):
        types, integer = SAMPLERS[name]
        args = ", ".join(("l" if t == "long long" else "d") + f"[{k}]" for k, t in enumerate(types))
        call = f"{name}(st{', ' if args else ''}{args})"
        out = "oi" if integer else "od"
        lines += [f"  case {w}:",
                  "    for (long long i = 0; i < n; ++i) {",
                  "      Stream st(Key{k0, k1}, (unsigned long long)i, 0u);",
                  f"      {out}[i] = {call};",
                  "    }",
                  "    return 0;"]
    lines += ["  }", "  return 1;", "}"]
    src = "\n".join(lines) + "\n"
    deps = "".join(open(os.path.join(p)).read() for p in
                   [os.path.join(HERE, "host_shim.h"), os.path.join(KERNELS, "philox.cuh"),
                    os.path.join(KERNELS, "distributions.cuh")])
    tag = hashlib.sha1((src + deps).encode()).hexdigest()[:16]
    os.makedirs(CACHE, exist_ok=True)
    so = os.path.join(CACHE, tag + ".so")
    if not os.path.exists(so):
        cpp = os.path.join(CACHE, tag + ".cpp")
        with open(cpp, "w") as f:
            f.write(src)
        subprocess.run(["g++", "-O2", "-std=c++17", "-ffp-contract=off", "-fno-fast-math",
                        "-shared", "-fPIC", "-Wall", "-Wno-unknown-pragmas", cpp, "-o",
                        so + ".tmp"], check=True)
        os.replace(so + ".tmp", so)
    lib = ctypes.CDLL(so)
    lib.draw.restype = ctypes.c_int
    return lib, names


LIB, NAMES = None, None


def draw(name, params, n=N, key=(0x12345678, 0x9ABCDEF0)):
    global LIB, NAMES
    if LIB is None:
        LIB, NAMES = build()
    types, integer = SAMPLERS[name]
    d = (ctypes.c_double * 4)(*[float(p) if t == "double" else 0.0
                                for p, t in zip(params, types)])
    l = (ctypes.c_longlong * 4)(*[int(p) if t == "long long" else 0
                                  for p, t in zip(params, types)])
    od = np.zeros(n if not integer else 1, np.float64)
    oi = np.zeros(n if integer else 1, np.int64)
    rc = LIB.draw(NAMES.index(name), d, l, ctypes.c_longlong(n), ctypes.c_uint(key[0]),
                  ctypes.c_uint(key[1]), od.ctypes.data_as(ctypes.c_void_p),
                  oi.ctypes.data_as(ctypes.c_void_p))
    assert rc == 0
    return oi if integer else od


# ---- Statistics.

def merge_bins(obs, exp):
    """Merges adjacent bins until every expected count is >= 5."""
    mo, me, co, ce = [], [], 0.0, 0.0
    for o, e in zip(obs, exp):
        co += o
        ce += e
        if ce >= 5:
            mo.append(co)
            me.append(ce)
            co, ce = 0.0, 0.0
    if ce > 0 or co > 0:
        if me:
            mo[-1] += co
            me[-1] += ce
        else:
            mo.append(co)
            me.append(ce)
    return np.array(mo), np.array(me)


def chi2_binned(x, edges, cdf):
    """Chi-square over the bins (-inf, e0], (e0, e1], ..., (e_last, inf)."""
    edges = np.unique(np.asarray(edges, dtype=np.float64))
    if len(edges) == 0:
        return None
    c = np.concatenate([[0.0], np.asarray(cdf(edges), np.float64), [1.0]])
    exp = np.diff(c) * len(x)
    exp = np.maximum(exp, 0.0)
    idx = np.searchsorted(edges, x, side="left")  # x <= e_j -> bin j
    obs = np.bincount(idx, minlength=len(edges) + 1).astype(np.float64)
    obs, exp = merge_bins(obs, exp)
    if len(obs) < 2:
        return None
    exp = exp * obs.sum() / exp.sum()  # the cdf's own rounding
    stat = float(((obs - exp) ** 2 / exp).sum())
    return float(ss.chi2.sf(stat, len(obs) - 1))


def chi2_uniform_residues(k, mod=1024):
    obs = np.bincount(np.asarray(k) % mod, minlength=mod).astype(float)
    exp = np.full(mod, len(k) / mod)
    stat = float(((obs - exp) ** 2 / exp).sum())
    return float(ss.chi2.sf(stat, mod - 1))


def ks(x, cdf):
    x = np.clip(np.asarray(x, np.float64), -np.finfo(float).max, np.finfo(float).max)
    return float(ss.kstest(x, cdf).pvalue)


def zscores(x, mean, var, exkurt):
    """z of the sample mean and of the sample variance."""
    x = np.asarray(x, np.float64)
    n = len(x)
    zm = zv = None
    if mean is not None and var is not None and np.isfinite(var) and var > 0:
        zm = (x.mean() - mean) / math.sqrt(var / n)
        # (mu4 - sigma^4) vanishes for a fair two-point law: the next
        # order decides there, so skip it.
        if exkurt is not None and np.isfinite(exkurt) and 0.01 < exkurt + 2 and exkurt <= 100:
            # Var(s^2) ~ (mu4 - sigma^4)/n = (exkurt + 2) sigma^4 / n.
            zv = (x.var(ddof=1) - var) / math.sqrt((exkurt + 2) * var * var / n)
    return zm, zv


# ---- Reference distributions not in scipy (or not reliable there).

class Normalish:
    """A discrete law by the normal cdf with continuity correction, for
    parameters where the skewness (~1/sd) is far below what N samples
    resolve and scipy overflows."""

    def __init__(self, mean, var):
        self.m, self.s = mean, math.sqrt(var)

    def cdf(self, k):
        return ss.norm.cdf((np.floor(k) + 0.5 - self.m) / self.s)

    def stats(self):
        return self.m, self.s ** 2, 0.0


class ZipfTrunc:
    """Zipf(a) on 1..2^63 - 1 (NumPy's law: it rejects larger draws)."""

    def __init__(self, a):
        self.a = mpmath.mpf(a)
        mpmath.mp.dps = 40
        self.z = mpmath.zeta(self.a)
        self.norm = self.z - mpmath.zeta(self.a, I64_MAX + 1)

    def cdf(self, ks_):
        return np.array([float((self.z - mpmath.zeta(self.a, mpmath.floor(k) + 1)) / self.norm)
                         if k >= 1 else 0.0 for k in np.atleast_1d(ks_)])

    def stats(self):
        return None, None, None


class LogserTail:
    """Logarithmic series by its tail, mpmath's Lerch phi: scipy sums the
    pmf term by term, hopeless at p near 1."""

    def __init__(self, p):
        mpmath.mp.dps = 40
        self.p = mpmath.mpf(p)
        self.c = -1 / mpmath.log1p(-self.p)

    def cdf(self, ks_):
        out = []
        for k in np.atleast_1d(ks_):
            k = mpmath.floor(k)
            if k < 1:
                out.append(0.0)
                continue
            tail = self.c * self.p ** (k + 1) * mpmath.lerchphi(self.p, 1, k + 1)
            out.append(float(1 - tail))
        return np.array(out)

    def stats(self):
        p = float(self.p)
        r = -1 / math.log1p(-p)
        m = r * p / (1 - p)
        v = r * p * (1 - r * p) / (1 - p) ** 2
        return m, v, None


class VonMisesWrapped:
    """Samples are compared as (x - mu) wrapped to [-pi, pi)."""

    def __init__(self, kappa):
        self.k = kappa
        self.d = ss.uniform(-math.pi, 2 * math.pi) if kappa == 0 else ss.vonmises(kappa)

    def cdf(self, x):
        return self.d.cdf(x)


class TFar:
    """Student's t whose cdf is right out to the largest doubles: scipy's
    gives exactly 0 or 1 once x^2 overflows, while at df = 0.01 a tenth
    of a percent of the mass lies beyond 1e300. Past |x| = 1e10 the tail
    is I_z(df/2, 1/2)/2 ~ z^(df/2) / (df B(df/2, 1/2)), z = df/(df + x^2)
    (relative error O(z))."""

    def __init__(self, df):
        self.df, self.t = df, ss.t(df)
        self.lc = -math.log(df) - sp.betaln(df / 2, 0.5)

    def cdf(self, x):
        x = np.asarray(x, np.float64)
        out = np.asarray(self.t.cdf(x), np.float64).copy()
        far = np.abs(x) > 1e10
        ax = np.abs(x[far])
        logz = math.log(self.df) - 2 * np.log(ax)
        tail = np.exp(self.df / 2 * logz + self.lc)
        out[far] = np.where(x[far] > 0, 1 - tail, tail)
        return out

    def stats(self):
        return self.t.stats(moments="mvk") if self.df > 4 else (None, None, None)


def wrap(x):
    # Only what lies outside [-pi, pi): adding pi would round tiny angles away.
    x = np.asarray(x, np.float64)
    return np.where((x >= -math.pi) & (x < math.pi), x, (x + math.pi) % (2 * math.pi) - math.pi)


# ---- The cases: (name, params, reference, options).
# reference: a scipy frozen distribution or an object with cdf() and
# optionally stats(); options: ks (default True for continuous), bins
# (explicit edges), mod (residue test), transform (of the samples before
# testing), exkurt (override).

def cases():
    C = []
    g = lambda a: ss.gamma(a)
    for a in [1e-8, 1e-3, 0.3, 1.0, 2.5, 30.0, 1e6, 1e15]:
        opts = {}
        if a < 0.1:
            opts = {"ks": False, "bins": [1e-300, 1e-250, 1e-200, 1e-150, 1e-100, 1e-70, 1e-50,
                                          1e-30, 1e-20, 1e-10, 1e-5, 1e-2, 0.1, 1]}
        C.append(("standard_gamma", [a], g(a), opts))
    for a, b in [(1e-8, 1e-8), (1e-3, 1e-3), (1e-3, 0.5), (0.5, 0.5), (1.0, 1.0), (0.3, 2.0),
                 (2.0, 3.0), (50.0, 1e-3), (0.2, 1e4), (1e4, 1e4)]:
        opts = {}
        if min(a, b) < 0.1:
            opts = {"ks": False, "bins": np.concatenate([
                [1e-300, 1e-200, 1e-100, 1e-50, 1e-20, 1e-10],
                np.linspace(0.01, 0.99, 25), 1 - np.array([1e-4, 1e-8, 1e-12])])}
        C.append(("beta", [a, b], ss.beta(a, b), opts))
    for df in [1e-3, 1.0, 3.0, 100.0]:
        opts = {"ks": False, "bins": [1e-300, 1e-100, 1e-30, 1e-10, 1e-3, 0.1, 1, 10]} \
            if df < 0.1 else {}
        C.append(("chisquare", [df], ss.chi2(df), opts))
    for df, nc in [(3.0, 0.0), (3.0, 2.0), (1.0, 5.0), (0.5, 3.0), (0.05, 1.0), (2.0, 1e3),
                   (5.0, 1e6)]:
        ref = ss.chi2(df) if nc == 0 else ss.ncx2(df, nc)
        opts = {"ks": False} if df < 0.1 else {}
        C.append(("noncentral_chisquare", [df, nc], ref, opts))
    for d1, d2 in [(1.0, 1.0), (5.0, 10.0), (0.5, 3.0), (3.0, 0.5), (100.0, 1e4)]:
        C.append(("f", [d1, d2], ss.f(d1, d2), {}))
    for d1, d2, nc in [(3.0, 5.0, 2.0), (0.5, 10.0, 4.0), (10.0, 20.0, 0.0), (4.0, 1.5, 10.0)]:
        ref = ss.f(d1, d2) if nc == 0 else ss.ncf(d1, d2, nc)
        C.append(("noncentral_f", [d1, d2, nc], ref, {}))
    for df in [0.01, 1.0, 2.5, 30.0, 1e8]:
        C.append(("standard_t", [df], TFar(df) if df < 1 else ss.t(df), {}))
    C.append(("standard_cauchy", [], ss.cauchy(), {}))
    for mu, k in [(0.0, 0.0), (1.0, 0.0), (0.0, 1e-12), (0.0, 1e-6), (0.5, 0.5), (-3.0, 4.0),
                  (2.0, 100.0), (0.0, 1e5), (3.0, 1e5)]:
        C.append(("vonmises", [mu, k], VonMisesWrapped(k),
                  {"transform": lambda x, mu=mu: wrap(x - mu)}))
    # (At kappa 1e300 the spread is 1e-150: only mu = 0 keeps it visible.)
    for mu, k in [(0.0, 1e12), (1.0, 1e15), (0.0, 1e20), (0.0, 1e300)]:
        C.append(("vonmises", [mu, k], ss.norm(),
                  {"transform": lambda x, mu=mu, k=k: wrap(x - mu) * math.sqrt(k)}))
    for m, l in [(1.0, 1.0), (3.0, 0.5), (1e-3, 1e3), (1e3, 1e-3), (1.0, 1e10), (1e5, 1.0)]:
        C.append(("wald", [m, l], ss.invgauss(m / l, scale=l), {}))
    # discrete
    for lam in [1e-300, 1e-3, 0.5, 3.0, 9.99, 10.0, 30.0, 1e3, 1e8, 1e12, 1e15]:
        opts = {"mod": True} if lam >= 1e12 else {}
        C.append(("poisson", [lam], ss.poisson(lam), opts))
    C.append(("poisson", [4e18], Normalish(4e18, 4e18), {"mod": True}))
    for n, p in [(20, 0.3), (100, 0.29), (100, 0.31), (1000, 0.5), (1000, 0.97), (60, 0.5),
                 (10**6, 1e-5), (10**9, 0.2), (2**62, 0.5), (2**62, 1e-10), (2**62, 1e-17),
                 (2**62, 1 - 1e-12), (2**53 + 1, 0.3), (62, 0.49), (2**62, 5e-18)]:
        opts = {"mod": True} if n * min(p, 1 - p) > 1e9 else {}
        q = min(p, 1 - p)
        ref = ss.binom(n, p)
        if n >= 2**53 and n * q > 1e12:
            ref = Normalish(n * p, n * p * (1 - p))
        elif n >= 2**53 and p > 0.5:
            # Draws within a few thousand of 2^62 do not survive float64:
            # test n - k ~ Binomial(n, 1 - p) instead (1 - p is exact).
            ref = ss.binom(n, 1 - p)
            opts["transform"] = lambda k, n=n: n - k
        C.append(("binomial", [n, p], ref, opts))
    for n, p in [(1.0, 0.5), (3.5, 0.2), (0.01, 0.5), (100.0, 0.9), (1e3, 1e-3), (5.0, 1e-9)]:
        C.append(("negative_binomial", [n, p], ss.nbinom(n, p), {}))
    for p in [0.9, 0.5, 1 / 3, 0.3333, 0.2, 1e-5, 1e-12]:
        C.append(("geometric", [p], ss.geom(p), {}))
    for g_, b_, s_ in [(5, 5, 3), (10, 20, 9), (10, 20, 25), (100, 200, 50), (1000, 10, 500),
                       (10, 1000, 500), (50, 50, 90), (10**6, 2 * 10**6, 10**6), (1, 10**5, 5000)]:
        C.append(("hypergeometric", [g_, b_, s_], ss.hypergeom(g_ + b_, g_, s_), {}))
    for g_, b_, s_ in [(10**15, 2 * 10**15, 10**15), (2**61, 2**61 + 12345, 2**61 + 999)]:
        M, nn, NN = g_ + b_, g_, s_
        mean = NN * nn / M
        var = NN * (nn / M) * (1 - nn / M) * (M - NN) / (M - 1)
        C.append(("hypergeometric", [g_, b_, s_], Normalish(mean, var), {"mod": True}))
    # Five draws from 2^62 items: binomial(5, 1/2) to within 1e-18.
    C.append(("hypergeometric", [2**61, 2**61, 5], ss.binom(5, 0.5), {}))
    for p in [1e-300, 0.1, 0.5, 0.9, 0.999]:
        C.append(("logseries", [p], ss.logser(p), {}))
    for p in [1 - 1e-6, 1 - 1e-12]:
        C.append(("logseries", [p], LogserTail(p), {}))
    for a in [1.0000001, 1.1, 1.5, 2.0, 3.0, 10.0, 200.0]:
        C.append(("zipf", [a], ZipfTrunc(a), {}))
    return C


# Exact results: (name, params, value every sample must equal).
EXACT = [
    ("standard_gamma", [0.0], 0.0),
    ("standard_gamma", [1e-300], 0.0),
    ("chisquare", [0.0], 0.0),
    ("poisson", [0.0], 0),
    ("poisson", [1e300], I64_MAX),
    ("binomial", [0, 0.3], 0),
    ("binomial", [10, 0.0], 0),
    ("binomial", [10, 1.0], 10),
    ("binomial", [2**62, 1.0], 2**62),
    ("binomial", [2**62, 1e-300], 0),
    ("negative_binomial", [3.0, 1.0], 0),
    ("negative_binomial", [3.0, 1e-300], I64_MAX),
    ("geometric", [1.0], 1),
    ("geometric", [1e-300], I64_MAX),
    ("hypergeometric", [0, 50, 20], 0),
    ("hypergeometric", [50, 0, 20], 20),
    ("hypergeometric", [30, 40, 0], 0),
    ("hypergeometric", [30, 40, 70], 30),
    ("logseries", [0.0], 1),
    ("zipf", [1e4], 1),
    ("vonmises", [-1.0, 1e300], -1.0),
]


def pilot_edges(name, params, integer, nb=100):
    x = draw(name, params, n=20000, key=(0xDEADBEEF, 0x0BADF00D))
    x = np.sort(x[np.isfinite(x)] if not integer else x)
    qs = np.quantile(x, np.linspace(0, 1, nb + 1)[1:-1], method="lower")
    if integer:
        lo, hi = int(x[0]), int(x[-1])
        if hi - lo <= 3000:
            return np.arange(lo, hi + 1, dtype=np.float64)
    e = np.unique(qs.astype(np.float64))
    return e[np.abs(e) > 1e-300] if not integer else e


def moments(ref):
    try:
        if isinstance(ref, ss.distributions.rv_frozen):
            m, v, k = (float(t) for t in ref.stats(moments="mvk"))
            return m, v, k
        return ref.stats()
    except Exception:
        return None, None, None


def run_case(name, params, ref, opts):
    integer = SAMPLERS[name][1]
    x = draw(name, params)
    tr = opts.get("transform")
    res = {}
    bad_vals = int(np.sum(~np.isfinite(x))) if not integer else 0
    xt = tr(x) if tr else x
    if integer:
        res["neg"] = int(np.sum(x < 0))
    edges = opts.get("bins")
    if edges is None:
        pe = pilot_edges(name, params, integer)
        edges = tr(pe) if tr else pe
        edges = np.sort(edges)
    res["chi2"] = chi2_binned(xt, edges, ref.cdf)
    if not integer and opts.get("ks", True):
        res["ks"] = ks(xt, ref.cdf)
    if opts.get("mod"):
        res["mod"] = chi2_uniform_residues(x)
    if not tr:
        m, v, k = moments(ref)
        if integer and m is not None and m > 1e15:
            m = None  # float64 sums of int64 draws: check the law, not the sum
        zm, zv = zscores(x, m, v, k)
        res["zm"], res["zv"] = zm, zv
    res["nonfinite"] = bad_vals
    fail = any(res.get(t) is not None and res[t] < P_FAIL for t in ("chi2", "ks", "mod"))
    fail |= any(res.get(t) is not None and abs(res[t]) > Z_FAIL for t in ("zm", "zv"))
    fail |= res.get("neg", 0) > 0
    return res, fail


def fmt_p(p):
    return "      -" if p is None else f"{p:7.1e}" if p < 1e-3 else f"{p:7.4f}"


def fmt_z(z):
    return "     -" if z is None else f"{z:+6.2f}"


def nvrtc_check():
    """Compiles philox.cuh + distributions.cuh and one kernel calling every
    sampler with NVRTC (compute_90, --fmad=false), as the crate does;
    CUPRUM_NVRTC_PATH (or .cuprum/nvrtc/nvidia/cu13/lib) locates libnvrtc."""
    import glob
    import time
    root = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
    d = os.environ.get("CUPRUM_NVRTC_PATH", os.path.join(root, ".cuprum/nvrtc/nvidia/cu13/lib"))
    for b in sorted(glob.glob(os.path.join(d, "libnvrtc-builtins.so*"))):
        ctypes.CDLL(b, mode=ctypes.RTLD_GLOBAL)
    L = ctypes.CDLL(sorted(glob.glob(os.path.join(d, "libnvrtc.so*")))[0])
    calls = []
    for k, (name, (types, integer)) in enumerate(SAMPLERS.items()):
        args = ", ".join(f"({t})p[{j}]" for j, t in enumerate(types))
        calls.append(f"  acc += (double)cuprum_random::{name}(st{', ' if args else ''}{args});")
    src = (open(os.path.join(KERNELS, "philox.cuh")).read() +
           open(os.path.join(KERNELS, "distributions.cuh")).read() +
           'extern "C" __global__ void all_samplers(const double* p, double* out, unsigned k0,\n'
           "                                        unsigned k1) {\n"
           "  const unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  cuprum_random::Stream st(cuprum_random::Key{k0, k1}, i, 0u);\n"
           "  double acc = 0.0;\n" + "\n".join(calls) + "\n  out[i] = acc;\n}\n")
    prog = ctypes.c_void_p()
    t0 = time.perf_counter()
    assert L.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"distributions.cu", 0, None,
                                None) == 0
    opts = [b"--gpu-architecture=compute_90", b"--fmad=false", b"-std=c++17"]
    rc = L.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
    dt = time.perf_counter() - t0
    size = ctypes.c_size_t()
    L.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    L.nvrtcGetProgramLog(prog, log)
    L.nvrtcDestroyProgram(ctypes.byref(prog))
    print(f"NVRTC {'ok' if rc == 0 else f'failed ({rc})'} in {dt:.2f} s "
          f"(compute_90, --fmad=false, {len(SAMPLERS)} samplers in one kernel)")
    if log.value.strip():
        print(log.value.decode(errors="replace"))
    sys.exit(0 if rc == 0 else 1)


def main():
    if sys.argv[1:] == ["--nvrtc"]:
        nvrtc_check()
    only = set(sys.argv[1:])
    unknown = only - set(SAMPLERS)
    if unknown:
        sys.exit(f"unknown sampler(s): {', '.join(sorted(unknown))}")
    nfail = 0
    print(f"N = {N} per case; FAIL if a p-value < {P_FAIL:g} or |z| > {Z_FAIL}\n")
    print(f"{'sampler':22s} {'parameters':34s} {'chi2 p':>7s} {'KS p':>7s} {'mod p':>7s} "
          f"{'z mean':>6s} {'z var':>6s}  result")
    for name, params, ref, opts in cases():
        if only and name not in only:
            continue
        res, fail = run_case(name, params, ref, opts)
        nfail += fail
        ps = ", ".join(f"{p:.13g}" if isinstance(p, float) else str(p) for p in params)
        extra = f"  ({res['nonfinite']} non-finite)" if res.get("nonfinite") else ""
        print(f"{name:22s} {ps:34s} {fmt_p(res.get('chi2'))} {fmt_p(res.get('ks'))} "
              f"{fmt_p(res.get('mod'))} {fmt_z(res.get('zm'))} {fmt_z(res.get('zv'))}  "
              f"{'FAIL' if fail else 'PASS'}{extra}", flush=True)
    print()
    for name, params, want in EXACT:
        if only and name not in only:
            continue
        x = draw(name, params, n=20000)
        ok = bool(np.all(x == want))
        nfail += not ok
        ps = ", ".join(str(p) for p in params)
        got = "" if ok else f" (got {np.unique(x)[:5]})"
        print(f"{name:22s} {ps:34s} == {want!s:22s} {'PASS' if ok else 'FAIL'}{got}")
    print(f"\n{nfail} failure(s)")
    sys.exit(1 if nfail else 0)


if __name__ == "__main__":
    main()
