"""What the family modules of make_golden.py share: the `Case` record,
the point makers and the edge values.

A family module (`golden_<family>.py`) defines `FUNCS = {name: Case(...)}`
for the functions of its header; make_golden.py writes them to
`golden_<family>.npz`. A function of several outputs (sici) is one case
per output, named `sici.0`, `sici.1`.

A complex loop is its own case, `cplx=True`, named `<func>.c` (or
`sici.c0`, `sici.c1` per output): complex points, an mpmath reference
returning an mpc, sets "c16" and "c8" (complex128, complex64), and its
error measured normwise, `|got - want| / |want|` in units of the dtype's
epsilon (a part near zero is not held to its own ulps).
"""
import zlib
from dataclasses import dataclass, field
from typing import Callable, Optional

import mpmath as mp
import numpy as np

mp.mp.dps = 50

# Reseeded per function by make_golden.py (`seed(name)`), so a function's
# points do not depend on which others are generated with it.
rng = np.random.default_rng(0)


def seed(name):
    global rng
    rng = np.random.default_rng(zlib.crc32(name.encode()))


def uni(lo, hi, n):
    return rng.uniform(lo, hi, n)


def logu(lo, hi, n):
    return np.exp(rng.uniform(np.log(lo), np.log(hi), n))


def ints(lo, hi, n):
    """Integers in [lo, hi), as float64 (a float argument that is integral)."""
    return rng.integers(lo, hi, n).astype(np.float64)


def pm(v):
    return np.concatenate([v, -v])


def mpf(v):
    return mp.mpf(float(v))


def cplx(re, im):
    """Complex points from real and imaginary parts (arrays of one length)."""
    # Not re + 1j * im: 1j * inf is nan + inf j.
    re, im = np.broadcast_arrays(np.asarray(re, np.float64), np.asarray(im, np.float64))
    z = np.empty(re.shape, np.complex128)
    z.real, z.imag = re, im
    return z


def disk(rmin, rmax, n):
    """n complex points, log-uniform in modulus over [rmin, rmax], uniform in
    argument over the whole circle."""
    r = logu(rmin, rmax, n)
    t = uni(-np.pi, np.pi, n)
    return cplx(r * np.cos(t), r * np.sin(t))


# The parts of the complex edges: each combination of a real and an
# imaginary part of these.
CEDGE_PARTS = np.array([0.0, -0.0, 5e-324, 1e-300, 1.0, -1.0, 2.0, -2.5, 1e300, -1e300, np.inf,
                        -np.inf, np.nan])


def complex_edges():
    re, im = np.meshgrid(CEDGE_PARTS, CEDGE_PARTS, indexing="ij")
    return (cplx(re.ravel(), im.ravel()),)


EDGES = np.array([0.0, -0.0, 5e-324, -5e-324, 1e-310, 1e-40, -1e-40, 1e-300, 0.5, 1.0, -1.0, 2.0,
                  -2.0, -1.5, 3.0, 1e20, -1e20, 1e300, -1e300, 3e38, 700.0, 1000.0, np.inf,
                  -np.inf, np.nan])


@dataclass
class Case:
    """One function (or one output of one) for the goldens.

    nin: inputs. mp: the reference, called with one point's inputs as
    Python floats (ints for `ints` positions); it may return an mpf, a
    float, inf or nan, and may raise ValueError / ZeroDivisionError to
    drop the point. sc: SciPy's function (all inputs as arrays). points:
    n -> one array (nin == 1) or a tuple of nin arrays, as float64.
    goal: the float64 bound in ulps, or None for "at most SciPy's own
    error" (Cuprum's max at most max(2 x SciPy's, SciPy's + 4)); goal32
    the float32 bound. ints: input positions that are integers (yn's n): int64
    arrays in the float64 set (SciPy's "ld->d" loop), float32 in the
    float32 set (its "ff->f"). edges: n/a -> the edge
    inputs (a tuple of nin arrays); by default EDGES, and for two or more
    inputs every combination of EDGES. dtypes: which sets to make.
    """

    nin: int
    mp: Callable
    sc: Callable
    points: Callable
    goal: Optional[float] = 4.0
    goal32: float = 2.0
    ints: tuple = ()
    edges: Optional[Callable] = None
    dtypes: tuple = ("f8", "f4")
    # A complex loop (see the module's docs): points give complex128
    # arrays, mp takes mpc arguments, dtypes default to ("c16", "c8").
    cplx: bool = False
    # Input positions of a complex loop that stay real (hyp1f1's a and b,
    # SciPy's ddD->D): float64 in the c16 set, float32 in c8; mp gets them
    # as Python floats.
    real: tuple = ()
    timeout: float = 2.0
    extra: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.cplx and self.dtypes == ("f8", "f4"):
            self.dtypes = ("c16", "c8")
