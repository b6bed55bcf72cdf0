"""The GPU accuracy test's check, run on the host (g++, tools/host_eval.py)
over a family's goldens: `python3 host_accuracy.py FAMILY [NAME ...]`.

Reads testdata/golden_FAMILY.npz (make it first: `python3
testdata/make_golden.py --only FAMILY`) and the family's rows in
src/table/FAMILY.rs, evaluates each function on the golden points with
the host build of its header, and prints the same table and failures as
tests/gpu/accuracy.rs: max and p99.9 ulps against mpmath beside SciPy's,
the bound, and the edges that match neither SciPy's value nor mpmath's.
The host's libm stands in for libdevice, so treat it as a check of the
algorithm; the committed table comes from the GPU.
"""
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CRATE = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import host_eval  # noqa: E402


def headers():
    text = open(os.path.join(CRATE, "src", "table", "mod.rs")).read()
    return dict(re.findall(r'const (\w+): &str = "([^"]+)";', text))


def rows(family):
    """Every table row by name. A family's goldens may test another
    family's rows (the complex loops' goldens, golden_c<family>.py), so
    all of src/table/ is read."""
    folder = os.path.join(CRATE, "src", "table")
    text = "".join(open(os.path.join(folder, f)).read() for f in sorted(os.listdir(folder)))
    pat = r'"(\w+)",\s*(\d+),\s*"([^"]+)",\s*(\w+),\s*"(\w+)",\s*"'
    h = headers()
    return {m[0]: (int(m[1]), m[2], h[m[3]], m[4]) for m in re.findall(pat, text)}


def statement(function, nin, nout):
    args = ", ".join(f"in{k}" for k in range(nin))
    if nout == 1:
        return f"out0 = cuprum::special::{function}({args});"
    outs = ", ".join(f"out{k}" for k in range(nout))
    return f"cuprum::special::{function}({args}, {outs});"


def nout_of(sigs):
    first = sigs.split()[0]
    return len(first.split("->")[1]) if "->" in first else 1


def ordinal(v, dtype):
    if dtype == np.float32:
        b = np.asarray(v, np.float32).view(np.int32).astype(np.int64)
        return np.where(b < 0, -(b & 0x7FFFFFFF), b)
    b = np.asarray(v, np.float64).view(np.int64)
    return np.where(b < 0, -(b & 0x7FFFFFFFFFFFFFFF), b).astype(object)


def ulps(got, want, dtype):
    got, want = np.asarray(got, dtype), np.asarray(want, dtype)
    d = np.abs(ordinal(got, dtype) - ordinal(want, dtype)).astype(np.float64)
    gn, wn = np.isnan(got), np.isnan(want)
    d[gn & wn] = 0
    d[gn ^ wn] = np.inf
    return d


def rel_eps(got, want, dtype):
    """Complex sets: |got - want| / |want| in units of the dtype's epsilon;
    NaN parts must be NaN together, infinite parts equal."""
    got, want = np.asarray(got, np.complex128), np.asarray(want, np.complex128)
    eps = np.finfo(np.dtype(dtype)).eps
    with np.errstate(all="ignore"):
        d = np.abs(got - want) / np.abs(want) / eps
    d[(want == 0) & (got == 0)] = 0
    d[(want == 0) & (got != 0)] = np.inf
    gn, wn = np.isnan(got), np.isnan(want)
    d[gn & wn] = 0
    d[gn ^ wn] = np.inf
    fin = np.isfinite(got) & np.isfinite(want)
    both_inf = ~gn & ~wn & ~fin
    d[both_inf] = np.where(got[both_inf] == want[both_inf], 0, np.inf)
    return d


def same_value(a, b):
    """Equal as the edges demand: NaN with NaN, the sign of 0 and inf."""
    def part(x, y):
        return (np.isnan(x) and np.isnan(y)) or (x == y and np.signbit(x) == np.signbit(y))
    if isinstance(a, complex) or isinstance(b, complex):
        a, b = complex(a), complex(b)
        return part(a.real, b.real) and part(a.imag, b.imag)
    return part(a, b)


def parts_close(a, b, tol):
    """A complex edge's parts agree: each non-finite part exactly, each
    finite one within tol relative to the norm of b's finite parts (as
    tests/gpu/accuracy.rs)."""
    a, b = complex(a), complex(b)
    norm = np.hypot(*[v if np.isfinite(v) else 0.0 for v in (b.real, b.imag)])

    def part(x, y):
        if np.isfinite(x) and np.isfinite(y):
            return abs(x - y) <= tol * norm
        return (np.isnan(x) and np.isnan(y)) or x == y
    return part(a.real, b.real) and part(a.imag, b.imag)


def stats(e):
    if len(e) == 0:
        return 0.0, 0.0
    e = np.sort(e)
    return float(e[-1]), float(e[min(len(e), int(np.ceil(len(e) * 0.999))) - 1])


def main():
    family, names = sys.argv[1], sys.argv[2:]
    g = np.load(os.path.join(CRATE, "testdata", f"golden_{family}.npz"))
    table = rows(family)
    funcs = sorted({k.split("__")[0] for k in g.files})
    failures = []
    print("| function | dtype | max | p99.9 | SciPy max | SciPy p99.9 | bound | points | edges |")
    for fname in funcs:
        base, _, part = fname.partition(".")
        if names and base not in names and fname not in names:
            continue
        if base not in table:
            failures.append(f"{fname}: no row in src/table/")
            continue
        nin, sigs, header, function = table[base]
        nout = nout_of(sigs)
        k_out = int(part.lstrip("c") or 0)
        goal64, goal32 = g[f"{fname}__goal"]
        for tag, dtype in (("f8", np.float64), ("f4", np.float32), ("c16", np.complex128),
                           ("c8", np.complex64)):
            cx = tag.startswith("c")
            err = rel_eps if cx else ulps
            scalar = complex if cx else float
            key = f"{fname}__{tag}__range"
            if f"{key}__x" not in g.files:
                continue

            def run(key):
                args = [g[f"{key}__{c}"] for c in "xyzw" if f"{key}__{c}" in g.files]
                r = host_eval.evaluate(header, statement(function, nin, nout), args, nout, dtype)
                return r if nout == 1 else r[k_out]

            got, want, sc = run(key), g[f"{key}__ref"], g[f"{key}__scipy"]
            ours, theirs = err(got, want, dtype), err(sc, want, dtype)
            mx, p = stats(ours)
            smx, sp = stats(theirs)
            if tag in ("f4", "c8"):
                bound = goal32
            elif np.isnan(goal64):
                bound = max(2 * smx, smx + 4)
            else:
                bound = goal64
            ekey = f"{fname}__{tag}__edge"
            egot, eref, emp = run(ekey), g[f"{ekey}__ref"], g[f"{ekey}__mp"]
            misses = []
            for k in range(len(egot)):
                a, b, m = scalar(egot[k]), scalar(eref[k]), scalar(emp[k])
                same = same_value(a, b)
                if cx:
                    eps = np.finfo(np.dtype(dtype)).eps
                    close = parts_close(a, b, max(4.0, smx) * eps)
                    # SciPy under- or overflows where mpmath has the true value.
                    true = not np.isnan(m) and parts_close(a, m, max(4.0, bound) * eps)
                else:
                    close = np.isfinite(a) and np.isfinite(b) and b != 0 and \
                        err([a], [b], dtype)[0] <= max(4.0, smx)
                    # SciPy under- or overflows where mpmath has the true value.
                    true = not np.isnan(m) and ((a == m) or (m != 0 and np.isfinite(a) and
                                                           err([a], [m], dtype)[0] <= max(4.0, bound)))
                if not (same or close or true):
                    xs = ", ".join(f"{g[f'{ekey}__{c}'][k]:.6g}" for c in "xyzw"
                                   if f"{ekey}__{c}" in g.files)
                    misses.append(f"({xs}) -> {a:.6g}, SciPy {b:.6g}, mpmath {m:.6g}")
            print(f"| {fname} | {tag} | {mx:g} | {p:g} | {smx:g} | {sp:g} | {bound:g} | "
                  f"{len(want)} | {'all' if not misses else f'{len(misses)} differ'} |")
            if mx > bound:
                w = int(np.argmax(ours))
                xs = ", ".join(f"{g[f'{key}__{c}'][w]:.17g}" for c in "xyzw"
                               if f"{key}__{c}" in g.files)
                failures.append(f"{fname} {tag}: max {mx:g} > {bound:g} at ({xs}): got "
                                f"{got[w]:.17g}, want {want[w]:.17g}")
            if misses:
                failures.append(f"{fname} {tag} edges: " + "; ".join(misses[:12]))
    if failures:
        print("\nFAILURES:\n" + "\n".join(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
