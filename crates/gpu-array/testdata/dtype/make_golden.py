"""NumPy's answers for `result_type` of two to five operands.

Writes result_type.tsv: one line per case, the operands then `->` and
NumPy's result, tab-separated. An operand is a dtype name (a strongly typed
array) or `int`, `float`, `complex` (a Python scalar, weak under NEP 50).
Every pair and triple of the 14 NumPy dtypes and the three weak kinds is
there, and 3000 seeded random sequences of four and five. NumPy's answer
does not depend on the operands' order (checked here), so each line holds
one order. Read by the unit tests of crates/gpu-array/src/dtype/.
"""

import itertools
import os
import random
import sys

import numpy as np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
          "uint32", "uint64", "float16", "float32", "float64", "complex64",
          "complex128"]
WEAK = {"int": 1, "float": 1.0, "complex": 1j}
NAMES = DTYPES + list(WEAK)


def value(name):
    return WEAK[name] if name in WEAK else np.empty(0, dtype=name)


def answer(names):
    ops = [value(n) for n in names]
    result = str(np.result_type(*ops))
    rng = random.Random(",".join(names))
    for _ in range(3):
        rng.shuffle(ops)
        assert str(np.result_type(*ops)) == result, names
    return result


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__)
    cases = [list(t) for n in (2, 3) for t in itertools.product(NAMES, repeat=n)]
    rng = random.Random(20250118)
    cases += [[rng.choice(NAMES) for _ in range(rng.choice((4, 5)))] for _ in range(3000)]
    lines = ["\t".join(c + ["->", answer(c)]) for c in cases]
    with open(os.path.join(outdir, "result_type.tsv"), "w") as f:
        f.write(f"# NumPy {np.__version__}: operands -> np.result_type(*operands)\n")
        f.write("\n".join(lines) + "\n")
    print(f"{len(lines)} result_type cases -> {outdir} (NumPy {np.__version__})")


if __name__ == "__main__":
    main()
