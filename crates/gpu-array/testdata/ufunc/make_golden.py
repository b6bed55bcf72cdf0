#!/usr/bin/env python3
"""NumPy's outputs for every type loop of every Cuprum ufunc: the oracle of
crates/gpu-array/tests/gpu/ufuncs.rs. Run through `cargo xtask golden`
(or `python3 make_golden.py OUTDIR`); needs NumPy 2.

Writes into OUTDIR:

- ufunc_golden.npz: for each ufunc `u` and loop signature `s` (NumPy's
  `ufunc.types` spelling, `l`/`L` for the 64-bit integers), the inputs
  `u/s/x0`, `u/s/x1` and NumPy's outputs `u/s/y0`, `u/s/y1` (1-D, N
  elements). bfloat16 loops (`E`, which NumPy lacks) store bfloat16-exact
  float32 inputs and NumPy's float32 result rounded to bfloat16 (to
  nearest even), stored as float32. `nep50/k/x` and `nep50/k/y` hold the
  array operand and result of the k-th line of nep50.tsv.
- nep50.tsv: weak-scalar (NEP 50) cases: `k  ufunc  operand  operand
  result`, where an operand is `array:<dtype>` (the array `nep50/k/x`) or
  `int:<value>`, `float:<value>`, `complex:<re>,<im>`, `bool:<0|1>`, and
  the result is a dtype name or `error:<Python exception>`.

Inputs mix random values with NaN, +-inf, -0.0, 0, +-1, huge, tiny and
subnormal floats, and MIN, MAX, 0 and -1 for integers, keeping out what
NumPy leaves undefined or raises on: float-to-int overflow, integer
reciprocal of 0, shift counts outside [0, bits), negative integer powers,
overflowing gcd/lcm. Integer division by 0 (NumPy 2: 0) and MIN // -1
(wraps) stay in.

The loop list is NumPy's `types` minus object, long double, datetime and
timedelta loops, `q`/`Q` folded into `l`/`L`, with Cuprum's documented
differences (crates/gpu-array/src/ufunc/table.rs): no bool/integer loops
for floor/ceil/trunc, exact `lL->?`/`Ll->?` comparisons, bfloat16 loops
wherever float16 has one. true_divide of bool/integer pairs (`bb->d`, ...,
NumPy's type resolver) is added too.
"""

import os
import sys

import numpy as np

N = 64
SEED = 20240607

# Cuprum's ufuncs (table.rs, aliases excluded).
UFUNCS = """
add subtract multiply true_divide logaddexp logaddexp2 floor_divide negative
positive power float_power remainder fmod divmod absolute fabs rint sign
heaviside conjugate exp exp2 log log2 log10 expm1 log1p sqrt square cbrt
reciprocal gcd lcm sin cos tan arcsin arccos arctan arctan2 hypot sinh cosh
tanh arcsinh arccosh arctanh deg2rad rad2deg bitwise_and bitwise_or
bitwise_xor invert left_shift right_shift greater greater_equal less
less_equal not_equal equal logical_and logical_or logical_xor logical_not
maximum minimum fmax fmin isfinite isinf isnan signbit copysign nextafter
spacing modf ldexp frexp floor ceil trunc
""".split()

COMPARISONS = {"greater", "greater_equal", "less", "less_equal", "not_equal", "equal"}
FLOAT_ONLY_ROUNDING = {"floor", "ceil", "trunc"}

DT = {
    "?": np.bool_, "b": np.int8, "B": np.uint8, "h": np.int16, "H": np.uint16,
    "i": np.int32, "I": np.uint32, "l": np.int64, "L": np.uint64,
    "e": np.float16, "f": np.float32, "d": np.float64,
    "F": np.complex64, "D": np.complex128,
    "E": np.float32,  # bfloat16, stored as bfloat16-exact float32
}


def loops(name):
    """Cuprum's loop signatures of ufunc `name`, in NumPy's order."""
    u = getattr(np, name)
    out = []
    for t in u.types:
        t = t.replace("q", "l").replace("Q", "L")
        if any(c in t for c in "OgGMmP"):
            continue
        ins = t.split("->")[0]
        if name in FLOAT_ONLY_ROUNDING and ins[0] in "?bBhHiIlL":
            continue
        if t not in out:
            out.append(t)
    if name in COMPARISONS and "lL->?" not in out:  # NumPy 2 has qQ->? and Qq->?
        k = out.index("LL->?") + 1
        out[k:k] = ["lL->?", "Ll->?"]
    # bfloat16 after float16, as table.rs.
    with_bf16 = []
    for t in out:
        with_bf16.append(t)
        if "e" in t:
            with_bf16.append(t.replace("e", "E"))
    return with_bf16


# ---------------------------------------------------------------------------
# bfloat16 emulation on float32 bit patterns.

def to_bf16(x):
    """float32 -> nearest-even bfloat16, returned as float32."""
    x = np.asarray(x, dtype=np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    out = rounded.astype(np.uint32).view(np.float32).copy()
    out[np.isnan(x)] = np.float32("nan")
    return out


def bf16_bits(x):
    return (np.asarray(x, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)


def from_bf16_bits(b):
    return (b.astype(np.uint32) << 16).view(np.float32)


def bf16_nextafter(x, y):
    """npy_half_nextafter's rules on bfloat16 patterns (x when x == y)."""
    out = np.empty_like(x)
    for i, (a, b) in enumerate(zip(x, y)):
        if np.isnan(a) or np.isnan(b):
            out[i] = np.nan
        elif a == b:
            out[i] = a
        elif a == 0:
            out[i] = from_bf16_bits(np.array([(bf16_bits([b])[0] & 0x8000) | 1], np.uint16))[0]
        else:
            bits = int(bf16_bits([a])[0])
            away = (a < b) == (a > 0)
            bits = bits + 1 if away else bits - 1
            out[i] = from_bf16_bits(np.array([bits], np.uint16))[0]
    return out


def bf16_spacing(x):
    """np.spacing's rules on bfloat16: next away from zero minus x, +tiny
    for both zeros, NaN for inf and NaN."""
    out = np.empty_like(x)
    for i, a in enumerate(x):
        if not np.isfinite(a):
            out[i] = np.nan
        else:
            target = np.float32(-np.inf) if a < 0 else np.float32(np.inf)
            if a == 0:
                a = np.float32(0.0)
            nxt = bf16_nextafter(np.array([a], np.float32), np.array([target], np.float32))[0]
            out[i] = np.float32(nxt) - np.float32(a)
    return out


# ---------------------------------------------------------------------------
# Inputs.

class Gen:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def shuffle_fill(self, specials, random):
        """`specials` at random positions among `random` values, N in all."""
        specials = list(specials)[: N // 2]
        vals = np.concatenate([np.asarray(specials), random[: N - len(specials)]])
        self.rng.shuffle(vals)
        return vals

    # Floats ---------------------------------------------------------------

    def float_specials(self, c):
        info = np.finfo(DT["f" if c == "E" else c])
        big = {"e": 6.0e4, "f": 1.0e30, "d": 1.0e300, "E": 1.0e30}[c]
        tiny = {"e": 1.0e-4, "f": 1.0e-30, "d": 1.0e-300, "E": 1.0e-30}[c]
        sub = float(info.smallest_subnormal) * 3
        return [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0,
                big, -big, tiny, -tiny, sub, -sub, float(info.max)]

    def float_random(self, c, kind):
        r = self.rng
        n = N
        if kind == "unit":  # arcsin, arccos, arctanh
            v = r.uniform(-1, 1, n)
        elif kind == "ge1":  # arccosh
            v = 1 + r.exponential(5, n)
        elif kind == "pos":  # logs, sqrt
            v = 10.0 ** r.uniform(-6 if c != "e" else -3, 6 if c != "e" else 4, n)
        elif kind == "exp":
            lim = {"e": 10, "f": 80, "d": 700, "E": 80}[c]
            v = r.uniform(-lim, lim, n)
        elif kind == "exp2":
            lim = {"e": 15, "f": 120, "d": 1000, "E": 120}[c]
            v = r.uniform(-lim, lim, n)
        elif kind == "round":
            v = np.round(r.uniform(-10, 10, n) * 2) / 2
            v[::3] += r.uniform(-0.3, 0.3, len(v[::3]))
        elif kind == "trig":
            v = r.uniform(-10, 10, n)
        else:
            mag = 10.0 ** r.uniform(-4, 4 if c != "e" else 3, n)
            v = np.where(r.random(n) < 0.5, -mag, mag)
            v[: n // 3] = r.uniform(-10, 10, n // 3)
        return v

    def floats(self, c, kind="any", specials=True):
        sp = self.float_specials(c) if specials else []
        v = self.shuffle_fill(sp, self.float_random(c, kind))
        v = v.astype(DT[c])
        if c == "E":
            v = to_bf16(v)
        return v

    # Complex --------------------------------------------------------------

    def complexes(self, c, kind="any"):
        r = self.rng
        inf, nan = np.inf, np.nan
        sp = [0, complex(-0.0, -0.0), complex(0.0, -0.0), 1, -1, 1j, -1j, 0.5 + 0.5j,
              complex(inf, 0), complex(-inf, 0), complex(nan, 0), complex(0, nan),
              complex(1, nan), complex(nan, nan), complex(0, inf), complex(1, -inf),
              complex(inf, 1), complex(-inf, 1), complex(inf, inf), complex(inf, nan),
              complex(nan, inf),
              # Either side of the branch cuts (sqrt, log, arc*): signed zeros.
              complex(-1, -0.0), complex(-2, 0.0), complex(2, -0.0), complex(0, 2),
              complex(-0.0, -2)]
        if kind == "power":
            mod = 2.0 ** r.uniform(-2, 2, N)
            ang = r.uniform(-np.pi, np.pi, N)
            v = mod * np.exp(1j * ang)
            sp = [1, -1, 1j, 0.5 + 0.5j, 2]
        elif kind == "exponent":
            v = r.uniform(-2, 2, N) + 1j * r.uniform(-2, 2, N)
            v[::4] = np.round(v[::4].real)
            sp = [0, 1, 2, -1, 0.5]
        else:
            v = r.uniform(-3, 3, N) + 1j * r.uniform(-3, 3, N)
        return self.shuffle_fill(np.array(sp, dtype=np.complex128), v).astype(DT[c])

    # Integers -------------------------------------------------------------

    def ints(self, c, lo=None, hi=None, specials=None):
        t = DT[c]
        if c == "?":
            return self.rng.random(N) < 0.5
        info = np.iinfo(t)
        lo = info.min if lo is None else lo
        hi = info.max if hi is None else hi
        if specials is None:
            specials = [info.min, info.min + 1, -1, 0, 1, 2, 3, info.max - 1, info.max]
        specials = [s for s in specials if lo <= s <= hi]
        # uint64's full range: draw through two halves to cover it.
        if c == "L" and hi > 2**63:
            rand = self.rng.integers(0, 2**63, N, dtype=np.uint64) * np.uint64(2) + \
                self.rng.integers(0, 2, N, dtype=np.uint64)
        else:
            rand = self.rng.integers(lo, hi, N, endpoint=True, dtype=t)
        small = self.rng.integers(max(lo, -20), min(hi, 20), N // 4, endpoint=True, dtype=t)
        rand[: N // 4] = small
        return self.shuffle_fill(np.array(specials, dtype=t), rand).astype(t)


UNIT = {"arcsin", "arccos", "arctanh"}
POS = {"log", "log2", "log10", "log1p", "sqrt"}
EXPLIKE = {"exp", "expm1", "sinh", "cosh"}
ROUND = {"rint", "floor", "ceil", "trunc", "modf"}
TRIG = {"sin", "cos", "tan"}


def float_kind(name):
    if name in UNIT:
        return "unit"
    if name == "arccosh":
        return "ge1"
    if name in POS:
        return "pos"
    if name in EXPLIKE:
        return "exp"
    if name == "exp2":
        return "exp2"
    if name in ROUND:
        return "round"
    if name in TRIG:
        return "trig"
    return "any"


def make_inputs(g, name, sig):
    ins = sig.split("->")[0]
    out = []
    for k, c in enumerate(ins):
        if c in "eEfd":
            if name in ("power", "float_power") and k == 1:
                v = g.rng.uniform(-5, 5, N)
                v[::3] = np.round(v[::3])
                v = g.shuffle_fill([0.0, -0.0, 1.0, 0.5, 2.0, -1.0, np.nan, np.inf, -np.inf], v)
                v = v.astype(DT[c])
                out.append(to_bf16(v) if c == "E" else v)
            elif name in ("power", "float_power"):
                mag = 10.0 ** g.rng.uniform(-1, 1, N)
                v = np.where(g.rng.random(N) < 0.3, -mag, mag)
                v = g.shuffle_fill(g.float_specials(c)[:11], v).astype(DT[c])
                out.append(to_bf16(v) if c == "E" else v)
            else:
                out.append(g.floats(c, float_kind(name)))
        elif c in "FD":
            if name in ("power", "float_power"):
                out.append(g.complexes(c, "power" if k == 0 else "exponent"))
            else:
                out.append(g.complexes(c))
        else:
            out.append(int_input(g, name, c, k, ins))
    # Shared special pairs, so that they meet at least once.
    if len(ins) == 2 and all(c in "eEfd" for c in ins):
        out[0][-4:] = [-0.0, -0.0, 0.0, -0.0]
        out[1][-4:] = [-0.0, 0.0, -0.0, 1.0]
    if name == "nextafter":
        for a, (x, y) in enumerate([(-0.0, 0.0), (0.0, -0.0), (0.0, 0.0), (1.0, 1.0),
                                    (0.0, 1.0), (-0.0, -1.0), (1.0, np.inf), (-1.0, np.nan)]):
            out[0][a], out[1][a] = x, y
    if name == "heaviside":
        out[0][:4] = [0.0, -0.0, 0.0, np.nan]
        out[1][:4] = [0.5, 0.5, np.nan, 0.5]
    if len(ins) == 2 and name in ("floor_divide", "remainder", "fmod", "divmod") and ins[0] in "bhil":
        info = np.iinfo(DT[ins[0]])
        out[0][:4] = [info.min, info.min, 7, -7]
        out[1][:4] = [-1, 0, 0, -1]
    return out


def int_input(g, name, c, k, ins):
    if c == "?":
        return g.ints(c)
    info = np.iinfo(DT[c])
    bits = info.bits
    if name == "power" and k == 1:
        return g.ints(c, 0, 7, specials=[0, 1, 2])
    if name in ("left_shift", "right_shift") and k == 1:
        return g.ints(c, 0, bits - 1, specials=[0, 1, bits - 1])
    if name == "ldexp":
        v = g.ints(c, -30, 30, specials=[0, 1, -1])
        v[:4] = [200, -200, 1000, -1100]
        if c == "l":
            v[4:6] = [10**12, -(10**12)]
        return v
    if name == "gcd":
        return g.ints(c, info.min + 1, info.max)
    if name == "lcm":
        lim = int(np.sqrt(float(info.max))) // 2
        return g.ints(c, -lim if info.min < 0 else 0, lim, specials=[0, 1, -1, lim])
    if name == "reciprocal":
        v = g.ints(c)
        v[v == 0] = 1
        return v
    return g.ints(c)


def run_numpy(name, sig, inputs):
    """NumPy's outputs of loop `sig`; bfloat16 loops through float32."""
    u = getattr(np, name)
    if "E" in sig:
        fsig = sig.replace("E", "f")
        outs = u(*inputs, signature=fsig)
        outs = outs if isinstance(outs, tuple) else (outs,)
        outc = sig.split("->")[1]
        res = []
        for c, o in zip(outc, outs):
            res.append(to_bf16(o) if c == "E" else o)
        if name == "nextafter":
            res = [bf16_nextafter(inputs[0], inputs[1])]
        if name == "spacing":
            res = [bf16_spacing(inputs[0])]
        return res
    if (name == "true_divide" and sig[0] in "?bBhHiIlL") or sig in ("lL->?", "Ll->?"):
        # NumPy's resolver (true_divide) or its qQ->? loops, which a
        # signature spelled with l/L does not find.
        outs = u(*inputs)
    else:
        outs = u(*inputs, signature=sig)
    outs = outs if isinstance(outs, tuple) else (outs,)
    want = sig.split("->")[1]
    for c, o in zip(want, outs):
        assert o.dtype == np.dtype(DT[c]), (name, sig, o.dtype)
    return list(outs)


# ---------------------------------------------------------------------------
# NEP 50 weak scalars.

NEP50 = [
    ("add", "array:float32", "float:2.0"),
    ("add", "array:float16", "float:2.0"),
    ("add", "array:float32", "float:1e300"),
    ("add", "array:uint8", "int:300"),
    ("add", "array:uint8", "int:255"),
    ("add", "array:int8", "int:-129"),
    ("add", "array:int8", "int:-128"),
    ("add", "array:uint64", "int:-1"),
    ("add", "array:uint64", "int:18446744073709551615"),
    ("add", "array:int64", "int:9223372036854775808"),
    ("multiply", "array:int8", "float:1.5"),
    ("multiply", "array:uint16", "float:1.5"),
    ("add", "array:int32", "complex:0,1"),
    ("add", "array:float32", "complex:0,1"),
    ("add", "array:float16", "complex:0,1"),
    ("multiply", "array:complex64", "float:2.5"),
    ("add", "array:bool", "int:1"),
    ("add", "array:bool", "bool:1"),
    ("add", "array:bool", "float:1.0"),
    ("true_divide", "array:int16", "int:2"),
    ("true_divide", "array:float16", "int:2"),
    ("power", "array:float32", "int:2"),
    ("power", "array:int32", "int:2"),
    ("subtract", "array:uint8", "int:1"),
    ("subtract", "int:1", "array:uint8"),
    ("maximum", "array:int8", "float:1.5"),
    ("arctan2", "array:float32", "int:1"),
    ("ldexp", "array:float32", "int:2"),
    ("bitwise_and", "array:int8", "int:255"),
    ("bitwise_and", "array:uint8", "int:255"),
    ("left_shift", "array:uint8", "int:3"),
    ("gcd", "array:uint8", "int:-1"),
    ("less", "array:uint8", "int:300"),
    ("equal", "array:uint8", "int:-1"),
    ("greater", "array:int8", "float:0.5"),
    ("logical_and", "array:float32", "int:0"),
    ("floor_divide", "array:int16", "float:2.0"),
    ("hypot", "array:int8", "int:3"),
    ("copysign", "array:float16", "float:-1.0"),
]

NEP50_ARRAYS = {
    "bool": [True, False, True],
    "int8": [-128, 0, 127],
    "int16": [-7, 0, 9],
    "int32": [-3, 0, 5],
    "int64": [-(2**62), 0, 2**62],
    "uint8": [0, 1, 255],
    "uint16": [0, 3, 65535],
    "uint64": [0, 1, 2**63],
    "float16": [-1.5, 0.0, 2.0],
    "float32": [-1.5, 0.0, 3.25],
    "complex64": [1 + 2j, 0, -1.5j],
}


def parse_operand(spec):
    kind, val = spec.split(":", 1)
    if kind == "array":
        return np.array(NEP50_ARRAYS[val], dtype=val)
    if kind == "int":
        return int(val)
    if kind == "float":
        return float(val)
    if kind == "bool":
        return bool(int(val))
    re, im = val.split(",")
    return complex(float(re), float(im))


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(outdir, exist_ok=True)
    major = int(np.__version__.split(".")[0])
    if major < 2:
        sys.exit(f"make_golden.py needs NumPy 2 (found {np.__version__})")
    g = Gen(SEED)
    arrays = {}
    count = 0
    with np.errstate(all="ignore"):
        for name in UFUNCS:
            for sig in loops(name):
                inputs = make_inputs(g, name, sig)
                outs = run_numpy(name, sig, inputs)
                for k, x in enumerate(inputs):
                    arrays[f"{name}/{sig}/x{k}"] = np.ascontiguousarray(x)
                for k, y in enumerate(outs):
                    arrays[f"{name}/{sig}/y{k}"] = np.ascontiguousarray(y)
                count += 1
            if name == "true_divide":
                for c in "?bBhHiIlL":
                    sig = f"{c}{c}->d"
                    inputs = [g.ints(c), g.ints(c)]
                    outs = run_numpy(name, sig, inputs)
                    assert outs[0].dtype == np.float64
                    arrays[f"{name}/{sig}/x0"] = inputs[0]
                    arrays[f"{name}/{sig}/x1"] = inputs[1]
                    arrays[f"{name}/{sig}/y0"] = outs[0]
                    count += 1

        lines = []
        for k, (name, a, b) in enumerate(NEP50):
            ops = [parse_operand(a), parse_operand(b)]
            try:
                r = getattr(np, name)(*ops)
                result = str(r.dtype)
                arrays[f"nep50/{k}/y"] = r
            except Exception as e:  # noqa: BLE001 - the exception is the oracle
                result = f"error:{type(e).__name__}"
            arr = ops[0] if isinstance(ops[0], np.ndarray) else ops[1]
            arrays[f"nep50/{k}/x"] = arr
            lines.append(f"{k}\t{name}\t{a}\t{b}\t{result}")

    np.savez_compressed(os.path.join(outdir, "ufunc_golden.npz"), **arrays)
    with open(os.path.join(outdir, "nep50.tsv"), "w") as f:
        f.write(f"# NumPy {np.__version__}: k\tufunc\toperand\toperand\tresult dtype or error\n")
        f.write("\n".join(lines) + "\n")
    print(f"{count} loops, {len(NEP50)} NEP 50 cases -> {outdir} (NumPy {np.__version__})")


if __name__ == "__main__":
    main()
