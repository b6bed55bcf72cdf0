"""Checks of cuprum_py that need no GPU: the module imports, and what can be
refused before any device call is refused with a clean Python exception
(never a crash). Run: PYTHONPATH=<folder of cuprum_py.abi3.so> python3
test_host.py. On a machine with a GPU the device-less checks are skipped."""
import ctypes
import gc
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Skip, raises, run, test  # noqa: E402

import cuprum_py as cp  # noqa: E402

try:
    import numpy as np
except ImportError:
    np = None


def has_gpu():
    try:
        cp.zeros([1], "float32")
        return True
    except RuntimeError:
        return False


GPU = has_gpu()


@test
def module_has_its_names():
    for name in ["Array", "Stream", "MemoryWatch", "arange", "zeros", "asarray",
                 "from_bytes", "from_dlpack", "from_cuda_array_interface",
                 "import_counts", "current_stream", "synchronize"]:
        assert hasattr(cp, name), name
    assert cp.DLPACK_MAX_VERSION == (1, 1)


@test
def no_gpu_is_a_runtime_error_with_cuprums_message():
    if GPU:
        raise Skip("a GPU is present")
    for make in [lambda: cp.zeros([2], "float32"), lambda: cp.arange(3),
                 lambda: cp.Stream(), cp.current_stream, cp.synchronize,
                 lambda: cp.from_bytes(b"\0" * 8, "float32", [2])]:
        e = raises(RuntimeError, make)
        assert "libcuda" in str(e) or "driver" in str(e), e


@test
def bad_dtypes_are_type_errors():
    raises(TypeError, cp.zeros, [2], "nope", match="not understood")
    raises(TypeError, cp.arange, 3, "object")
    raises(TypeError, cp.from_bytes, b"", ">f4", [0])


@test
def read_only_policy_is_checked():
    raises(ValueError, cp.from_dlpack, object(), read_only="maybe")
    raises(ValueError, cp.from_cuda_array_interface, object(), read_only="")


@test
def from_dlpack_needs_the_protocol():
    raises(TypeError, cp.from_dlpack, object(), match="__dlpack__")
    raises(TypeError, cp.from_dlpack, 3)


class Iface:
    """An object with a hand-written __cuda_array_interface__."""

    def __init__(self, **d):
        base = {"shape": (4,), "typestr": "<f4", "data": (0x7F0000000000, False),
                "version": 3}
        base.update(d)
        self.__cuda_array_interface__ = {k: v for k, v in base.items() if v is not Ellipsis}


@test
def cuda_array_interface_is_checked_before_the_device():
    imp = cp.from_cuda_array_interface
    raises(AttributeError, imp, object())
    raises(ValueError, imp, Iface(version=4), match="version 4")
    raises(ValueError, imp, Iface(version=...), match='no "version"')
    raises(ValueError, imp, Iface(shape=...), match='no "shape"')
    raises(TypeError, imp, Iface(typestr="<q16"))
    raises(TypeError, imp, Iface(typestr=">f4"), match="big-endian")
    raises(BufferError, imp, Iface(mask=object()), match="masked")
    raises(ValueError, imp, Iface(strides=(4, 4)), match="2 strides for 1")
    raises(BufferError, imp, Iface(strides=(6,)), match="whole number")

    class NotDict:
        __cuda_array_interface__ = [1, 2]
    raises(TypeError, imp, NotDict())


def capsule_name(c):
    get = ctypes.pythonapi.PyCapsule_GetName
    get.restype = ctypes.c_char_p
    get.argtypes = [ctypes.py_object]
    return get(c).decode()


@test
def a_cpu_producer_is_refused_and_its_deleter_runs():
    if np is None:
        raise Skip("numpy is not installed")
    x = np.arange(6, dtype=np.float32)
    made, released = cp.import_counts()
    e = raises(BufferError, cp.from_dlpack, x)
    assert "CPU" in str(e) or "kDLCPU" in str(e), e
    gc.collect()
    assert cp.import_counts() == (made + 1, released + 1), cp.import_counts()
    # The same through a capsule we take ourselves: it ends up used.
    class Holder:
        def __dlpack_device__(self):
            return x.__dlpack_device__()

        def __dlpack__(self, **kw):
            self.capsule = x.__dlpack__(**kw)
            return self.capsule
    h = Holder()
    raises(BufferError, cp.from_dlpack, h)
    assert capsule_name(h.capsule).startswith("used_dltensor"), capsule_name(h.capsule)
    assert cp.import_counts() == (made + 2, released + 2)


@test
def a_legacy_producer_is_asked_again_without_max_version():
    if np is None:
        raise Skip("numpy is not installed")
    x = np.arange(3, dtype=np.int32)
    calls = []

    class Old:
        def __dlpack_device__(self):
            return x.__dlpack_device__()

        def __dlpack__(self, stream=None):
            calls.append(stream)
            return x.__dlpack__()
    raises(BufferError, cp.from_dlpack, Old())
    assert calls == [None], calls


@test
def used_or_foreign_capsules_are_refused():
    if np is None:
        raise Skip("numpy is not installed")
    x = np.arange(3, dtype=np.int32)

    class Used:
        def __dlpack_device__(self):
            return (2, 0)

        def __dlpack__(self, **kw):
            c = x.__dlpack__()
            np.from_dlpack(type("P", (), {"__dlpack__": lambda s, **k: c,
                                          "__dlpack_device__": lambda s: (1, 0)})())
            return c
    if GPU:
        raise Skip("device (2, 0) exists here; covered by the GPU tests")
    # (2, 0) with no GPU: the device lookup fails first, as a RuntimeError.
    raises(RuntimeError, cp.from_dlpack, Used())

    class Foreign:
        def __dlpack_device__(self):
            return (1, 0)

        def __dlpack__(self, **kw):
            return "not a capsule"
    raises(TypeError, cp.from_dlpack, Foreign(), match="a str")


if __name__ == "__main__":
    sys.exit(run("test_host"))
