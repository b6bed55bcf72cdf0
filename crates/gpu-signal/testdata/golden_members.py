"""The member naming the host-test goldens of make_golden_design_order.py
and make_golden_lti.py share: `<function>__<i>__<part>`, `i` counting
each function's cases, every part float64 and C-ordered (NumPy keeps a
transposed matrix Fortran-ordered in the file, which the Rust tests would
read in storage order)."""
import numpy as np


class Members:
    def __init__(self):
        self.m = {}
        self.counts = {}

    def add(self, fn, **parts):
        i = self.counts.get(fn, 0)
        self.counts[fn] = i + 1
        for k, v in parts.items():
            self.m[f"{fn}__{i}__{k}"] = np.ascontiguousarray(np.asarray(v, dtype=np.float64))
