"""A NumPy stand-in for CuPy: enough of it to run the GPU harnesses'
(bench/gpu/*_variants.py) Python on a machine without a GPU, so that a
typo or a kernel that does not compile costs no device time. Kernels are
compiled for real, by NVRTC through ctypes (`RawModule`), and launch as
no-ops; arrays are NumPy's and every timing is 0.2 ms. Run a harness
through bench/gpu/dryrun.sh, not directly."""
import ctypes
import os

import numpy as _np
from numpy import *  # noqa: F401,F403  (the array API the harnesses use)

_NVRTC = ctypes.CDLL(os.path.join(os.environ["CUPRUM_NVRTC_PATH"], "libnvrtc.so.13"))


class _Function:
    """A compiled kernel: calls check their shape and do nothing."""

    num_regs = 0

    def __init__(self, name):
        self.name = name

    def __call__(self, grid, block, args):
        assert isinstance(grid, tuple) and isinstance(block, tuple) and isinstance(args, tuple)


class RawModule:
    """`code` compiled by NVRTC for sm_90 with `options`; a failed compile
    raises with NVRTC's log, as CuPy's does."""

    def __init__(self, code, options=()):
        prog = ctypes.c_void_p()
        if _NVRTC.nvrtcCreateProgram(ctypes.byref(prog), code.encode(), b"k.cu", 0, None, None):
            raise RuntimeError("nvrtcCreateProgram failed")
        opts = [o.encode() for o in options] + [b"--gpu-architecture=sm_90"]
        status = _NVRTC.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
        size = ctypes.c_size_t()
        _NVRTC.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        _NVRTC.nvrtcGetProgramLog(prog, log)
        _NVRTC.nvrtcDestroyProgram(ctypes.byref(prog))
        if status:
            raise RuntimeError("NVRTC: " + log.value.decode()[-4000:])
        self.code = code

    def get_function(self, name):
        if name not in self.code:
            raise AttributeError("no kernel %s in the module" % name)
        return _Function(name)


class _Device:
    attributes = {"MultiProcessorCount": 132}

    def synchronize(self):
        pass


class _Event:
    def record(self):
        pass

    def synchronize(self):
        pass


class cuda:  # noqa: N801  (CuPy's module name)
    Device = _Device
    Event = _Event

    @staticmethod
    def get_elapsed_time(start, stop):
        return 1.0


class random:  # noqa: N801
    default_rng = staticmethod(_np.random.default_rng)
