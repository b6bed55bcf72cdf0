"""Evaluates a device function of kernels/cuprum/special/ on the host.

    python3 host_eval.py HEADER EXPR NIN NOUT DTYPE < inputs > outputs

is the command-line form; from Python, `evaluate(header, expr, args,
nout=1, dtype=np.float64)` compiles (cached by source) a small g++
harness around EXPR, e.g. "out0 = cuprum::special::i0e(in0);" or
"cuprum::special::sici(in0, out0, out1);", with the header and
host_shim.h, and returns the outputs as arrays. Inputs are given as
arrays; each keeps its dtype (float64, float32 or int64), so `yn`'s
integer order is passed as an integer.

It checks an algorithm (its libm is the host's, not libdevice), so the
accuracy table is still measured on the GPU.
"""
import hashlib
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "kernels"))
CACHE = os.path.join(tempfile.gettempdir(), "cuprum-special-host")

CTYPE = {np.dtype(np.float64): "double", np.dtype(np.float32): "float",
         np.dtype(np.int64): "long long", np.dtype(np.int32): "int",
         np.dtype(np.complex128): "cuprum::complex<double>",
         np.dtype(np.complex64): "cuprum::complex<float>"}


# CUPRUM_HOST_FMA=1 contracts a * b + c into FMAs, as NVRTC does by
# default: closer to the GPU's rounding (an edge or a bound that differs
# only there shows up on the host too).
CONTRACT = (["-march=x86-64-v3", "-ffp-contract=fast"] if os.environ.get("CUPRUM_HOST_FMA")
            else ["-ffp-contract=off"])


def _build(header, expr, in_types, out_type, nout):
    lines = [f'#include "{os.path.join(HERE, "host_shim.h")}"', f'#include "{header}"', '#include "cuprum/complex.cuh"',
             "#include <cstdio>", "#include <vector>", "int main() {", "  long long n;",
             "  if (fread(&n, 8, 1, stdin) != 1) return 1;"]
    for k, t in enumerate(in_types):
        lines.append(f"  std::vector<{t}> v{k}(n); fread(v{k}.data(), sizeof({t}), n, stdin);")
    for k in range(nout):
        lines.append(f"  std::vector<{out_type}> w{k}(n);")
    lines.append("  for (long long i = 0; i < n; ++i) {")
    for k, t in enumerate(in_types):
        lines.append(f"    typedef {t} in{k}_type; const {t} in{k} = v{k}[i];")
    for k in range(nout):
        lines.append(f"    typedef {out_type} out{k}_type; {out_type} out{k} = 0;")
    lines.append(f"    {expr}")
    for k in range(nout):
        lines.append(f"    w{k}[i] = out{k};")
    lines.append("  }")
    for k in range(nout):
        lines.append(f"  fwrite(w{k}.data(), sizeof({out_type}), n, stdout);")
    lines.append("  return 0;\n}")
    src = "\n".join(lines)
    deps = "".join(open(os.path.join(r, f)).read()
                   for r, _, fs in sorted(os.walk(os.path.join(KERNELS, "cuprum")))
                   for f in sorted(fs))
    tag = hashlib.sha1((src + deps + " ".join(CONTRACT) +
                        open(os.path.join(HERE, "host_shim.h")).read()).encode()).hexdigest()[:16]
    os.makedirs(CACHE, exist_ok=True)
    exe = os.path.join(CACHE, tag)
    if not os.path.exists(exe):
        cpp = exe + ".cpp"
        with open(cpp, "w") as f:
            f.write(src)
        subprocess.run(["g++", "-O2", "-std=c++17", "-fno-fast-math", *CONTRACT,
                        "-I", KERNELS, cpp, "-o", exe + ".tmp"], check=True)
        os.replace(exe + ".tmp", exe)
    return exe


def evaluate(header, expr, args, nout=1, dtype=np.float64):
    args = [np.ascontiguousarray(a) for a in np.broadcast_arrays(*[np.asarray(a) for a in args])]
    dtype = np.dtype(dtype)
    exe = _build(header, expr, [CTYPE[a.dtype] for a in args], CTYPE[dtype], nout)
    n = args[0].size
    data = np.int64(n).tobytes() + b"".join(a.tobytes() for a in args)
    out = subprocess.run([exe], input=data, capture_output=True, check=True).stdout
    res = np.frombuffer(out, dtype=dtype).reshape(nout, n)
    return res[0] if nout == 1 else tuple(res)


if __name__ == "__main__":
    header, expr, nin, nout, dt = sys.argv[1:6]
    raw = sys.stdin.buffer.read()
    a = np.frombuffer(raw, dtype=dt).reshape(int(nin), -1)
    r = evaluate(header, expr, list(a), int(nout), dt)
    sys.stdout.buffer.write(np.asarray(r).tobytes())
