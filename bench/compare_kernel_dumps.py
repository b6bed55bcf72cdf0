#!/usr/bin/env python3
"""Compares two `cargo xtask precompile --dump DIR` folders program by
program, with kernel names masked (every `__global__ void NAME(` of a
program, and identifiers built on it) and the header-list comment line
dropped (the headers' contents are not in the dump: compare
kernels/cuprum/*.cuh with git diff). Prints per family how many programs
render identically but for names.

usage: python3 bench/compare_kernel_dumps.py BEFORE AFTER [FAMILY]
  FAMILY: also list the programs of that family that differ.
"""
import collections
import os
import re
import sys


def load(root):
    out = {}
    for fam in sorted(os.listdir(root)):
        for f in sorted(os.listdir(os.path.join(root, fam))):
            t = open(os.path.join(root, fam, f)).read()
            t = re.sub(r"^// headers:.*\n", "", t, flags=re.M)
            t = t.replace(f[:-3], "KLABEL")
            names = re.findall(r"__global__ void (\w+)\(", t)
            for k, name in enumerate(sorted(set(names), key=len, reverse=True)):
                t = t.replace(name, "KNAME%d" % k)
            out[(fam, f[:-3])] = t
    return out


def main():
    b, a = load(sys.argv[1]), load(sys.argv[2])
    for fam in sorted(set(f for f, _ in b) | set(f for f, _ in a)):
        bc = collections.Counter(v for (f, _), v in b.items() if f == fam)
        ac = collections.Counter(v for (f, _), v in a.items() if f == fam)
        same = sum((bc & ac).values())
        print(f"{fam}: before {sum(bc.values())} after {sum(ac.values())} "
              f"identical-but-name {same}")
        if len(sys.argv) > 3 and fam == sys.argv[3]:
            print(" only before:", [k[1] for k, v in b.items() if k[0] == fam and v not in ac][:10])
            print(" only after:", [k[1] for k, v in a.items() if k[0] == fam and v not in bc][:10])


if __name__ == "__main__":
    main()
