"""Goldens for gpu-special's GPU tests: golden_<family>.npz, one file per
family module golden_<family>.py (see golden_common.py for the `Case`
record each module's FUNCS holds).

For each function and dtype, two sets:
- `range`: points over the function's standard test ranges (and its
  roots, near-poles and tails), with the reference computed by mpmath at
  50 digits and rounded to the dtype; SciPy's own output beside it, so
  the accuracy table states SciPy's error too.
- `edge`: 0, -0, denormals, poles, huge arguments, NaN and infinities,
  with SciPy's output as the reference (special values must match it
  exactly) and mpmath's beside it where mpmath answers in time (a finite
  edge value SciPy under- or overflows may match mpmath's instead).

Complex loops (`Case(cplx=True)`, named `<func>.c`) have sets "c16" and
"c8" with complex members, and the same layout.

Members: `<func>__<dtype>__<set>__x` (`__y`, `__z`, `__w` for more
inputs), `__ref`, `__scipy`, `__mp` (edges), and `<func>__goal`
(float64 bound, NaN for "SciPy's own error"; float32 bound). Run through
`cargo xtask golden` (numpy, scipy and mpmath in the virtual
environment): the optional first argument is the output folder (this one
by default); `--only a,b` regenerates those families.
"""
import importlib
import os
import signal
import sys

import mpmath as mp
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import golden_common as gc  # noqa: E402

FAMILIES = ["base", "elementary", "bessel", "bessel_real", "incgamma", "incbeta", "cdfinv", "expint",
            "gammafn", "hyper",
            # The complex loops' goldens, a module per family (golden_common.py).
            "celementary", "cerf", "cgamma", "cexpint", "csph", "cbessel", "chyper"]
N64, N32 = 1500, 600
SMALL_EDGES = np.array([0.0, -0.0, 5e-324, 0.5, 1.0, -1.0, 1e300, np.inf, -np.inf, np.nan])


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


def reference(case, point):
    """mpmath's value at one point, or None (dropped, or too slow)."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, case.timeout)
    try:
        v = case.mp(*point)
    except Exception:  # noqa: BLE001 - a domain error, no convergence, the timeout
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    v = complex(v) if isinstance(v, (mp.mpc, complex)) else v
    if case.cplx:
        v = complex(v)
        return complex(v.real if not np.isnan(v.real) else np.nan,
                       v.imag if not np.isnan(v.imag) else np.nan)
    if isinstance(v, complex):
        if v.imag != 0:
            return None
        v = v.real
    return float(v) if mp.isfinite(v) or mp.isinf(v) else float("nan")


def python_point(case, args, k):
    if case.cplx:
        return [int(a[k]) if j in case.ints else
                mp.mpc(complex(a[k])) if np.iscomplexobj(a) else float(a[k])
                for j, a in enumerate(args)]
    return [int(a[k]) if j in case.ints else float(a[k]) for j, a in enumerate(args)]


def cast_args(case, args, dtype):
    if case.cplx:
        # An integer position (spherical_jn's n) stays int64 beside the
        # complex argument (SciPy's "lD->D" loop); a real input of a
        # complex loop (jv's order in "dD->D", `Case.real`) stays real:
        # float64 beside complex128, float32 beside complex64.
        real = np.float32 if np.dtype(dtype) == np.complex64 else np.float64
        return [np.asarray(a).astype(np.int64) if j in case.ints else
                np.asarray(a, np.float64).astype(real) if j in case.real or
                not np.iscomplexobj(a) else
                np.asarray(a).astype(dtype) for j, a in enumerate(args)]
    # Integer positions stay int64 in the float64 set (SciPy's "ld->d"
    # loops); the float32 set passes them as float32 (its "ff->f").
    return [np.asarray(a).astype(np.int64) if j in case.ints and dtype == np.float64 else
            np.asarray(a, dtype=np.float64).astype(dtype) for j, a in enumerate(args)]


def scipy_eval(case, args):
    with np.errstate(all="ignore"):
        return np.asarray(case.sc(*args))


def default_edges(case):
    if case.cplx:
        return gc.complex_edges()
    e = gc.EDGES if case.nin <= 2 else SMALL_EDGES
    grids = np.meshgrid(*([e] * case.nin), indexing="ij")
    return tuple(g.ravel() for g in grids)


def generate(name, case, out):
    for tag in case.dtypes:
        dtype, n = {"f8": (np.float64, N64), "f4": (np.float32, N32),
                    "c16": (np.complex128, N64), "c8": (np.complex64, N32)}[tag]
        gc.seed(f"{name}/{tag}")
        p = case.points(n)
        args = cast_args(case, list(p) if case.nin > 1 else [p], dtype)
        # Points the dtype's rounding put on a pole (a float32 1e-300 is 0)
        # belong to the edge set, not here.
        ref, keep = [], []
        for k in range(len(args[0])):
            v = reference(case, python_point(case, args, k))
            if v is not None:
                ref.append(v)
                keep.append(k)
        args = [a[keep] for a in args]
        key = f"{name}__{tag}__range"
        for j, a in enumerate(args):
            out[f"{key}__{'xyzw'[j]}"] = a
        out[f"{key}__ref"] = np.array(ref, dtype=np.complex128 if case.cplx
                                      else np.float64).astype(dtype)
        out[f"{key}__scipy"] = scipy_eval(case, args).astype(dtype)
        e = case.edges(dtype) if case.edges else default_edges(case)
        eargs = cast_args(case, list(e), dtype)
        key = f"{name}__{tag}__edge"
        for j, a in enumerate(eargs):
            out[f"{key}__{'xyzw'[j]}"] = a
        s = scipy_eval(case, eargs).astype(dtype)
        out[f"{key}__ref"] = s
        out[f"{key}__scipy"] = s
        # mpmath's answer at an infinite or NaN argument is not a
        # reference (its zeta(inf, 2) is 1): only finite edges get one.
        m = [reference(case, python_point(case, eargs, k))
             if all(np.isfinite(complex(a[k])) for a in eargs) else None
             for k in range(len(eargs[0]))]
        nan = complex(np.nan, np.nan) if case.cplx else np.nan
        out[f"{key}__mp"] = np.array([nan if v is None else v for v in m]).astype(dtype)
    out[f"{name}__goal"] = np.array([np.nan if case.goal is None else case.goal, case.goal32])


def main():
    argv = sys.argv[1:]
    only = None
    if "--only" in argv:
        i = argv.index("--only")
        only = argv[i + 1].split(",")
        del argv[i:i + 2]
    folder = argv[0] if argv else HERE
    for family in FAMILIES:
        if only is not None and family not in only:
            continue
        if not os.path.exists(os.path.join(HERE, f"golden_{family}.py")):
            print(f"{family}: no module yet", file=sys.stderr)
            continue
        module = importlib.import_module(f"golden_{family}")
        out = {}
        for name, case in module.FUNCS.items():
            generate(name, case, out)
            print(f"{family}: {name}", file=sys.stderr)
        np.savez_compressed(os.path.join(folder, f"golden_{family}.npz"), **out)


if __name__ == "__main__":
    main()
