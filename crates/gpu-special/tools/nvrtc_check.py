"""Compiles a header of kernels/cuprum/special/ with NVRTC (no cargo, no
GPU): `python3 nvrtc_check.py HEADER 'out = cuprum::special::i0e(x);' ...`
builds one kernel per statement, over double and over float, for
compute_90, and prints NVRTC's log on failure. CUPRUM_NVRTC_PATH (or
.cuprum/nvrtc/nvidia/cu13/lib) locates libnvrtc. Statements see
`x, y, z, w` (inputs of the loop type, `n` an int), `out, out1` (outputs).
CI's own check is src/nvrtc_tests.rs; this is the quick loop for writing.
"""
import ctypes
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


def lib():
    d = os.environ.get("CUPRUM_NVRTC_PATH", os.path.join(ROOT, ".cuprum/nvrtc/nvidia/cu13/lib"))
    # libnvrtc opens its builtins by name: load them first, globally.
    for b in sorted(glob.glob(os.path.join(d, "libnvrtc-builtins.so*"))):
        ctypes.CDLL(b, mode=ctypes.RTLD_GLOBAL)
    so = sorted(glob.glob(os.path.join(d, "libnvrtc.so*")))
    return ctypes.CDLL(so[0])


def compile_source(src):
    L = lib()
    prog = ctypes.c_void_p()
    assert L.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"check.cu", 0, None, None) == 0
    opts = [b"--gpu-architecture=compute_90", b"-std=c++17",
            ("--include-path=" + os.path.join(ROOT, "kernels")).encode()]
    arr = (ctypes.c_char_p * len(opts))(*opts)
    rc = L.nvrtcCompileProgram(prog, len(opts), arr)
    size = ctypes.c_size_t()
    L.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    L.nvrtcGetProgramLog(prog, log)
    L.nvrtcDestroyProgram(ctypes.byref(prog))
    return rc, log.value.decode(errors="replace")


def main():
    header, stmts = sys.argv[1], sys.argv[2:]
    body = []
    for k, s in enumerate(stmts):
        for t in ("double", "float"):
            body.append(
                f'extern "C" __global__ void k{k}_{t}(const {t}* a, const int* ni, {t}* o) {{\n'
                f"  int i = threadIdx.x; {t} x = a[i], y = a[i + 1], z = a[i + 2], w = a[i + 3];\n"
                f"  int n = ni[i]; {t} out = 0, out1 = 0, out2 = 0, out3 = 0;\n"
                f"  (void)y; (void)z; (void)w; (void)n;\n  {s}\n"
                f"  o[i] = out + out1 + out2 + out3;\n}}\n")
    src = f'#include "{header}"\n' + "\n".join(body)
    rc, log = compile_source(src)
    print("ok" if rc == 0 else f"NVRTC failed ({rc})")
    if log.strip():
        print(log)
    sys.exit(0 if rc == 0 else 1)


if __name__ == "__main__":
    main()
