"""What the family modules of make_golden.py share: the `Case` record,
the point makers and the edge values.

A family module (`golden_<family>.py`) defines `FUNCS = {name: Case(...)}`
for the functions of its header; make_golden.py writes them to
`golden_<family>.npz`. A function of several outputs (sici) is one case
per output, named `sici.0`, `sici.1`.
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
    timeout: float = 2.0
    extra: dict = field(default_factory=dict)
