#!/usr/bin/env python3
"""Runs Cuprum's benchmark binary and the same workloads through CuPy on the
same machine, in the same run, and prints one table:
workload, Cuprum, CuPy, ratio (Cuprum / CuPy; below 1 is faster), rate.

usage (repository root of the GPU machine, after gpu-pack --bins):
  python3 bench/cupy_bench.py [--cuprum "bash target/gpu-pack/run.sh bin cuprum-bench"]
                              [--only NAME,NAME | --only 'NAME;NAME'] [--markdown]

The Rust binary prints one JSON object per workload:
  {"name": ..., "unit": "us"|"ms", "median": float, "rate": float|null,
   "rate_unit": "GB/s"|"TFLOP/s"|null, "what": "gpu"|"host"}
Each workload below must produce the same name on both sides. GPU times are
CUDA-event medians after warm-up; "host" workloads are host wall time per call.
"""
import argparse, json, shlex, subprocess, sys, time

import numpy as np
import cupy as cp


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def gpu_time_ms(fn, warmup=3, reps=20):
    for _ in range(warmup):
        fn()
    cp.cuda.Device().synchronize()
    times = []
    start, end = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(reps):
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end))
    return median(times)


def host_time_us(fn, inner=2000, reps=7, between=lambda: None):
    for _ in range(-(-inner // 10)):
        fn()
    between()
    per = []
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(inner):
            fn()
        per.append((time.perf_counter() - t) / inner * 1e6)
        between()
    return median(per)


# --- workloads -------------------------------------------------------------
# Each returns (median, unit, rate, rate_unit). Keep names in step with
# bench/src/main.rs.

def w_pool_alloc_free(nbytes):
    pool = cp.get_default_memory_pool()
    def f():
        m = pool.malloc(nbytes)
        del m
    return lambda: (host_time_us(f), "us", None, None)


def w_launch_empty():
    k = cp.RawKernel(r'extern "C" __global__ void empty() {}', "empty")
    k((1,), (1,), ())
    cp.cuda.Device().synchronize()
    def f():
        k((1,), (1,), ())
    def run():
        # Batches of 256 with a synchronize between, as on the Rust side.
        t = host_time_us(f, inner=256, reps=101, between=cp.cuda.Device().synchronize)
        return (t, "us", None, None)
    return run


def w_pinned(direction, nbytes=256 << 20):
    def run():
        host = cupy_pinned(nbytes)
        dev = cp.empty(nbytes, dtype=cp.uint8)
        s = cp.cuda.get_current_stream()
        if direction == "h2d":
            fn = lambda: dev.set(host, stream=s)
        else:
            fn = lambda: dev.get(out=host, stream=s)
        ms = gpu_time_ms(fn)
        return (ms, "ms", nbytes / ms / 1e6, "GB/s")
    return run


def cupy_pinned(nbytes):
    mem = cp.cuda.alloc_pinned_memory(nbytes)
    return np.frombuffer(mem, dtype=np.uint8, count=nbytes)


def w_d2d(nbytes=1 << 30):
    def run():
        a = cp.ones(nbytes, dtype=cp.uint8)
        b = cp.empty_like(a)
        fn = lambda: cp.cuda.runtime.memcpyAsync(b.data.ptr, a.data.ptr, nbytes,
                                                 cp.cuda.runtime.memcpyDeviceToDevice,
                                                 cp.cuda.get_current_stream().ptr)
        ms = gpu_time_ms(fn)
        return (ms, "ms", 2 * nbytes / ms / 1e6, "GB/s")  # read + write
    return run


N = 1 << 28
SIDE = 16384


def w_gpu(make, fn, nbytes):
    def run():
        args = make()
        ms = gpu_time_ms(lambda: fn(*args))
        return (ms, "ms", nbytes / ms / 1e6, "GB/s")
    return run


def full(shape, dtype, v):
    return cp.full(shape, v, dtype=dtype)


def w_gpu_optimized(make, fn, nbytes):
    """w_gpu inside `with cupyx.optimizing.optimize(key="cuprum-bench"):`
    (the Rust rows "... optimize"). CuPy tunes reductions only, with Optuna;
    without Optuna the row prints n/a."""
    def run():
        try:
            import optuna  # noqa: F401  (cupyx.optimizing needs it)
            import cupyx.optimizing
        except ImportError as e:
            print(f"cupy_bench: no CuPy figure for an optimize row: {e}", file=sys.stderr)
            return (None, "ms", None, None)
        args = make()
        with cupyx.optimizing.optimize(key="cuprum-bench"):
            ms = gpu_time_ms(lambda: fn(*args))
        return (ms, "ms", nbytes / ms / 1e6, "GB/s")
    return run


WIDE = (1024, 1 << 20)


def w_mask_select():
    """a[mask] of 2^28 uniform float32, mask = a > 0.5 made before the
    timing; bytes: the mask and the data read, the selected elements
    written (as bench/src/sort_workloads.rs)."""
    def run():
        a = cp.random.random(N, dtype=cp.float32)
        mask = a > 0.5
        selected = int(cp.count_nonzero(mask))
        ms = gpu_time_ms(lambda: a[mask])
        return (ms, "ms", (N * (1 + 4) + selected * 4) / ms / 1e6, "GB/s")
    return run


def w_flops(make, fn, flops):
    def run():
        args = make()
        ms = gpu_time_ms(lambda: fn(*args))
        return (ms, "ms", flops / ms / 1e9, "TFLOP/s")
    return run


def w_ms(make, fn):
    def run():
        args = make()
        ms = gpu_time_ms(lambda: fn(*args), warmup=3, reps=10)
        return (ms, "ms", None, None)
    return run


def mixed(n, dtype):
    """sin(0, 1, 2, ...) as an n x n matrix, as bench/src/linalg_workloads.rs."""
    return cp.sin(cp.arange(0, n * n, 1, dtype=dtype).reshape(n, n))


def sym(m):
    return m + m.T


def spd(n, dtype):
    return cp.eye(n, dtype=dtype) * n + 1


def where_pos(a, b):
    """where(a > 0, a, b); a named function, as cp.fuse needs for its kernel name."""
    return cp.where(a > 0, a, b)


def signal(n, dtype):
    """sin(0, 1, 2, ...) as bench/src/fft_workloads.rs makes it."""
    return cp.sin(cp.arange(0, n, 1, dtype=cp.float32)).astype(dtype)


def ramp(n, scale, offset, dtype):
    """(arange(n) % 1000) * scale + offset, as bench/src/special_workloads.rs."""
    k = cp.arange(0, n, 1, dtype=cp.float64)
    return ((k % 1000) * scale + offset).astype(dtype)


def expit_times_erf(x, y):
    import cupyx.scipy.special as csp
    return csp.expit(x) * csp.erf(y)


def w_ndimage(fn, out_factor):
    """A filter of the 4096^2 float32 image of bench/src/ndimage_workloads.rs;
    bytes: the image read, the result (out_factor images) written."""
    def run():
        import cupyx.scipy.ndimage as nd
        side = 4096
        x = ((cp.arange(side * side, dtype=cp.float64) % 1000) * 0.001).astype(cp.float32)
        x = x.reshape(side, side)
        ms = gpu_time_ms(lambda: fn(nd, x))
        return (ms, "ms", side * side * 4 * (1 + out_factor) / ms / 1e6, "GB/s")
    return run


def w_ndimage_binary(fn, out_bytes, prep=lambda nd: ()):
    """A function of the 4096^2 binary image of bench/src/ndimage_workloads.rs
    (element k set where (k * 2654435761) mod 2^32 < 2^31); bytes: the image
    read, out_bytes written. `prep(nd)` builds further arguments once,
    outside the timing, as the Rust side builds them."""
    def run():
        import cupyx.scipy.ndimage as nd
        side = 4096
        k = cp.arange(side * side, dtype=cp.int64)
        x = (((k * 2654435761) % (1 << 32)) < (1 << 31)).reshape(side, side)
        args = prep(nd)
        ms = gpu_time_ms(lambda: fn(nd, x, *args))
        return (ms, "ms", (side * side + out_bytes) / ms / 1e6, "GB/s")
    return run


def w_map_coordinates():
    """map_coordinates order 3 of the 4096^2 image at (r + 0.3, c + 0.7)."""
    def run():
        import cupyx.scipy.ndimage as nd
        side = 4096
        x = ((cp.arange(side * side, dtype=cp.float64) % 1000) * 0.001).astype(cp.float32)
        x = x.reshape(side, side)
        coords = cp.indices((side, side), dtype=cp.float32) + cp.array(
            [0.3, 0.7], cp.float32).reshape(2, 1, 1)
        ms = gpu_time_ms(lambda: nd.map_coordinates(x, coords, order=3))
        return (ms, "ms", side * side * 4 * 4 / ms / 1e6, "GB/s")
    return run


def w_gaussian_3d():
    """gaussian_filter sigma 2 of a 512^3 float32 volume (arange % 1000) * 0.001."""
    def run():
        import cupyx.scipy.ndimage as nd
        n = 512
        x = ((cp.arange(n ** 3, dtype=cp.float64) % 1000) * 0.001).astype(cp.float32)
        x = x.reshape(n, n, n)
        # 2 warm-up calls and 10 timed, as bench/src/ndimage_workloads.rs.
        ms = gpu_time_ms(lambda: nd.gaussian_filter(x, 2.0), warmup=2, reps=10)
        return (ms, "ms", 2 * n ** 3 * 4 / ms / 1e6, "GB/s")
    return run


def ramp_mod(n, modulo, scale, dtype):
    """(arange(n) % modulo) * scale, as bench/src/signal_workloads.rs makes
    it (a name of its own: it once shadowed the special rows' `ramp`)."""
    return ((cp.arange(n, dtype=cp.float64) % modulo) * scale).astype(dtype)


def w_signal(make, fn, nbytes):
    """A cupyx.scipy.signal call on the inputs of bench/src/signal_workloads.rs
    (`make(sig)` builds them, and any filter design, before the timing)."""
    def run():
        import cupyx.scipy.signal as sig
        args = make(sig)  # inputs and filter designs, outside the timing
        ms = gpu_time_ms(lambda: fn(sig, *args))
        return (ms, "ms", nbytes / ms / 1e6, "GB/s")
    return run


def sparse_coo(entries):
    """The COO matrix of bench/src/sparse_workloads.rs: 2^20 rows of 16
    entries at columns (k * 2654435761) mod 2^20, values ((k mod 7) + 1) / 8."""
    import cupyx.scipy.sparse as sp
    k = cp.arange(entries, dtype=cp.int64)
    row = (k // 16).astype(cp.int32)
    col = ((k * 2654435761) % (1 << 20)).astype(cp.int32)
    data = (((k % 7) + 1) / 8).astype(cp.float32)
    return sp.coo_matrix((data, (row, col)), shape=(1 << 20, 1 << 20))


def w_sparse(make, fn, cols):
    """A product of the CSR matrix of sparse_coo(2^24); bytes as the Rust
    row's: the matrix once, the dense operands once."""
    def run():
        a = sparse_coo(1 << 24).tocsr()
        args = make(a)
        ms = gpu_time_ms(lambda: fn(*args))
        nbytes = a.nnz * 8 + ((1 << 20) + 1) * 4 + 2 * (1 << 20) * 4 * cols
        return (ms, "ms", nbytes / ms / 1e6, "GB/s")
    return run


def poisson(g):
    """The 5-point Laplacian of a g x g grid, CSR float64 (as the Rust row's)."""
    import cupyx.scipy.sparse as sp
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(g, g), format="csr")
    i = sp.identity(g, format="csr")
    return (sp.kron(i, t) + sp.kron(t, i)).tocsr()


def w_sparse_cg(g):
    """cg for 100 iterations (tol 0: no early stop); bytes as the Rust row's."""
    def run():
        import cupyx.scipy.sparse.linalg as spla
        a = poisson(g)
        b = cp.ones(g * g, cp.float64)
        import inspect
        key = "rtol" if "rtol" in inspect.signature(spla.cg).parameters else "tol"
        ms = gpu_time_ms(lambda: spla.cg(a, b, maxiter=100, **{key: 0.0}), reps=5)
        per_it = a.nnz * 12 + g * g * 8 * 12
        return (ms, "ms", 100 * per_it / ms / 1e6, "GB/s")
    return run


def w_sparse_coo_to_csr():
    def run():
        c = sparse_coo(1 << 24)
        ms = gpu_time_ms(lambda: c.tocsr())
        return (ms, "ms", (1 << 24) * 24 / ms / 1e6, "GB/s")
    return run


def w_special(fn_name, n, scale, offset, dtype):
    def make():
        return (ramp(n, scale, offset, dtype),)

    def fn(x):
        import cupyx.scipy.special as csp
        return getattr(csp, fn_name)(x)
    return w_gpu(make, fn, 2 * n * cp.dtype(dtype).itemsize)


def w_fft_host():
    x = signal(1024, cp.complex64)
    cp.fft.fft(x)
    def run():
        t = host_time_us(lambda: cp.fft.fft(x), inner=256, reps=51,
                         between=cp.cuda.Device().synchronize)
        return (t, "us", None, None)
    return run


def w_tiny_add():
    a = full((16,), cp.float32, 1.0)
    b = full((16,), cp.float32, 2.0)
    def run():
        t = host_time_us(lambda: a + b, inner=256, reps=51, between=cp.cuda.Device().synchronize)
        return (t, "us", None, None)
    return run


@cp.fuse(kernel_name="squared_diff")
def fused_squared_diff(x, y):
    d = x - y
    return d * d


@cp.fuse(kernel_name="sum_of_products")
def fused_sum_of_products(x, y):
    return cp.sum(x * y, axis=-1)


WORKLOADS = {
    "pool alloc+free 16 B": w_pool_alloc_free(16),
    "pool alloc+free 1 MiB": w_pool_alloc_free(1 << 20),
    "launch empty kernel": w_launch_empty(),
    "pinned H2D 256 MiB": w_pinned("h2d"),
    "pinned D2H 256 MiB": w_pinned("d2h"),
    "D2D memcpy 1 GiB": w_d2d(),
    "add f32 2^28": w_gpu(lambda: (full(N, cp.float32, 1.0), full(N, cp.float32, 2.0)),
                          lambda a, b: a + b, 3 * N * 4),
    "add f32 2^28 optimize": w_gpu_optimized(
        lambda: (full(N, cp.float32, 1.0), full(N, cp.float32, 2.0)),
        lambda a, b: a + b, 3 * N * 4),
    "add f64 2^28": w_gpu(lambda: (full(N, cp.float64, 1.0), full(N, cp.float64, 2.0)),
                          lambda a, b: a + b, 3 * N * 8),
    "exp f32 2^28": w_gpu(lambda: (full(N, cp.float32, 0.5),), cp.exp, 2 * N * 4),
    "astype f32->i32 2^28": w_gpu(lambda: (full(N, cp.float32, 3.5),),
                                  lambda a: a.astype(cp.int32), 2 * N * 4),
    "broadcast add 16384^2+16384": w_gpu(
        lambda: (full((SIDE, SIDE), cp.float32, 1.0), full((SIDE,), cp.float32, 2.0)),
        lambda a, b: a + b, 2 * N * 4),
    "broadcast add 16384^2+16384 optimize": w_gpu_optimized(
        lambda: (full((SIDE, SIDE), cp.float32, 1.0), full((SIDE,), cp.float32, 2.0)),
        lambda a, b: a + b, 2 * N * 4),
    "transpose copy 16384^2 f32": w_gpu(lambda: (full((SIDE, SIDE), cp.float32, 1.0),),
                                        lambda a: cp.ascontiguousarray(a.T), 2 * N * 4),
    "fused (x-y)^2 f32 2^28": w_gpu(
        lambda: (full(N, cp.float32, 1.0), full(N, cp.float32, 2.5)),
        fused_squared_diff, 3 * N * 4),
    "fused sum(x*y,axis=-1) 16384^2 f32": w_gpu(
        lambda: (full((SIDE, SIDE), cp.float32, 1.0), full((SIDE, SIDE), cp.float32, 0.5)),
        fused_sum_of_products, 2 * N * 4),
    "add 16 elements (host per call)": w_tiny_add(),
    "sum full f32 2^28": w_gpu(lambda: (full(N, cp.float32, 1.0),), cp.sum, N * 4),
    "sum full f32 2^28 optimize": w_gpu_optimized(lambda: (full(N, cp.float32, 1.0),),
                                                  cp.sum, N * 4),
    "max full f32 2^28": w_gpu(lambda: (full(N, cp.float32, 1.0),), cp.max, N * 4),
    "sum axis=1 16384^2 f32": w_gpu(lambda: (full((SIDE, SIDE), cp.float32, 1.0),),
                                    lambda a: a.sum(axis=1), N * 4),
    "sum axis=1 16384^2 f32 optimize": w_gpu_optimized(
        lambda: (full((SIDE, SIDE), cp.float32, 1.0),), lambda a: a.sum(axis=1), N * 4),
    "sum axis=1 (1024,2^20) f32": w_gpu(lambda: (full(WIDE, cp.float32, 1.0),),
                                        lambda a: a.sum(axis=1), WIDE[0] * WIDE[1] * 4),
    "sum axis=1 (1024,2^20) f32 optimize": w_gpu_optimized(
        lambda: (full(WIDE, cp.float32, 1.0),), lambda a: a.sum(axis=1),
        WIDE[0] * WIDE[1] * 4),
    "sum axis=0 16384^2 f32": w_gpu(lambda: (full((SIDE, SIDE), cp.float32, 1.0),),
                                    lambda a: a.sum(axis=0), N * 4),
    "sum axis=0 16384^2 f32 optimize": w_gpu_optimized(
        lambda: (full((SIDE, SIDE), cp.float32, 1.0),), lambda a: a.sum(axis=0), N * 4),
    "argmax full f32 2^28": w_gpu(lambda: (full(N, cp.float32, 1.0),), cp.argmax, N * 4),
    "std axis=1 16384^2 f32": w_gpu(lambda: (full((SIDE, SIDE), cp.float32, 1.0),),
                                    lambda a: a.std(axis=1), N * 4),
    "cumsum f32 2^26": w_gpu(lambda: (full(1 << 26, cp.float32, 1.0),), cp.cumsum,
                             2 * (1 << 26) * 4),
    "matmul f32 8192^3": w_flops(
        lambda: (full((8192, 8192), cp.float32, 0.5), full((8192, 8192), cp.float32, 0.25)),
        cp.matmul, 2 * 8192 ** 3),
    "matmul f16 8192^3": w_flops(
        lambda: (full((8192, 8192), cp.float16, 0.5), full((8192, 8192), cp.float16, 0.25)),
        cp.matmul, 2 * 8192 ** 3),
    "matmul f64 4096^3": w_flops(
        lambda: (full((4096, 4096), cp.float64, 0.5), full((4096, 4096), cp.float64, 0.25)),
        cp.matmul, 2 * 4096 ** 3),
    "batched matmul 4096x64x64 f32": w_flops(
        lambda: (full((4096, 64, 64), cp.float32, 0.5), full((4096, 64, 64), cp.float32, 0.25)),
        cp.matmul, 2 * 4096 * 64 ** 3),
    "cholesky f32 4096": w_ms(lambda: (spd(4096, cp.float32),), cp.linalg.cholesky),
    "solve f32 4096x4096 rhs 4096": w_ms(
        lambda: (spd(4096, cp.float32), mixed(4096, cp.float32)), cp.linalg.solve),
    "svd f32 2048": w_ms(lambda: (mixed(2048, cp.float32),), cp.linalg.svd),
    "eigh f32 2048": w_ms(lambda: (sym(mixed(2048, cp.float32)),), cp.linalg.eigh),
    "sort f32 2^26": w_gpu(lambda: (cp.random.random(1 << 26, dtype=cp.float32),), cp.sort,
                           2 * (1 << 26) * 4),
    "argsort f32 2^26": w_gpu(lambda: (cp.random.random(1 << 26, dtype=cp.float32),),
                              cp.argsort, (1 << 26) * (4 + 8)),
    "concatenate 2x2^27 f32": w_gpu(
        lambda: (full(1 << 27, cp.float32, 1.0), full(1 << 27, cp.float32, 2.0)),
        lambda a, b: cp.concatenate((a, b)), 2 * 2 * (1 << 27) * 4),
    "take 2^26 from 2^28": w_gpu(
        lambda: (full(N, cp.float32, 1.0), cp.random.randint(0, N, 1 << 26, dtype=cp.int64)),
        lambda a, i: cp.take(a, i), (1 << 26) * (8 + 4 + 4)),
    "where(a>0,a,b) two calls f32 2^28": w_gpu(lambda: (full(N, cp.float32, 1.0), full(N, cp.float32, 2.0)),
                                     lambda a, b: cp.where(a > 0, a, b), 3 * N * 4),
    "fused where(a>0,a,b) f32 2^28": w_gpu(
        lambda: (full(N, cp.float32, 1.0), full(N, cp.float32, 2.0)),
        cp.fuse(where_pos), 3 * N * 4),
    "mask select 2^28 f32": w_mask_select(),
    "fft c2c 2^24 complex64": w_gpu(lambda: (signal(1 << 24, cp.complex64),), cp.fft.fft,
                                    2 * (1 << 24) * 8),
    "fft c2c 2^24 complex64 ortho": w_gpu(lambda: (signal(1 << 24, cp.complex64),),
                                          lambda a: cp.fft.fft(a, norm="ortho"),
                                          2 * (1 << 24) * 8),
    "fft2 4096^2 complex64": w_gpu(
        lambda: (signal(4096 * 4096, cp.complex64).reshape(4096, 4096),), cp.fft.fft2,
        2 * 4096 * 4096 * 8),
    "rfft f32 2^24 strided view": w_gpu(lambda: (signal(1 << 25, cp.float32)[::2],),
                                        cp.fft.rfft, (1 << 24) * 4 + (1 << 23) * 8),
    "fft batched 16384x1024 complex64": w_gpu(
        lambda: (signal(16384 * 1024, cp.complex64).reshape(16384, 1024),), cp.fft.fft,
        2 * 16384 * 1024 * 8),
    "fft 1024 complex64 (host per call)": w_fft_host(),
    "ndimage gaussian_filter sigma 2 4096^2 f32": w_ndimage(
        lambda nd, x: nd.gaussian_filter(x, 2.0), 1),
    "ndimage uniform_filter 5 4096^2 f32": w_ndimage(lambda nd, x: nd.uniform_filter(x, 5), 1),
    "ndimage median_filter 3 4096^2 f32": w_ndimage(lambda nd, x: nd.median_filter(x, 3), 1),
    "ndimage zoom 2x order 1 4096^2 f32": w_ndimage(lambda nd, x: nd.zoom(x, 2.0, order=1), 4),
    "ndimage map_coordinates order 3 4096^2 f32": w_map_coordinates(),
    "ndimage gaussian_filter sigma 2 512^3 f32": w_gaussian_3d(),
    "ndimage binary_erosion 3x3 4096^2": w_ndimage_binary(
        lambda nd, x, st: nd.binary_erosion(x, st), 4096 * 4096,
        prep=lambda nd: (nd.generate_binary_structure(2, 2),)),
    "ndimage label 4096^2 random binary": w_ndimage_binary(
        lambda nd, x: nd.label(x), 4 * 4096 * 4096),
    "ndimage distance_transform_edt 4096^2 random binary": w_ndimage_binary(
        lambda nd, x: nd.distance_transform_edt(x), 8 * 4096 * 4096),
    "signal fftconvolve 2^22 * 4096 f32": w_signal(
        lambda sig: (ramp_mod(1 << 22, 1000, 0.001, cp.float32), ramp_mod(4096, 7, 0.125, cp.float32)),
        lambda sig, x, k: sig.fftconvolve(x, k), (2 * (1 << 22) + 4095) * 4),
    "signal convolve2d 2048^2 * 7x7 same f32": w_signal(
        lambda sig: (ramp_mod(2048 * 2048, 1000, 0.001, cp.float32).reshape(2048, 2048),
                     ramp_mod(49, 7, 0.125, cp.float32).reshape(7, 7)),
        lambda sig, x, k: sig.convolve2d(x, k, mode="same"), 2 * 2048 * 2048 * 4),
    "signal welch 2^24 nperseg 4096 f32": w_signal(
        lambda sig: (ramp_mod(1 << 24, 1000, 0.001, cp.float32),),
        lambda sig, x: sig.welch(x, nperseg=4096), (1 << 24) * 4),
    "signal resample_poly 2^24 up 3 down 2 f32": w_signal(
        lambda sig: (ramp_mod(1 << 24, 1000, 0.001, cp.float32),),
        lambda sig, x: sig.resample_poly(x, 3, 2), ((1 << 24) + (1 << 24) * 3 // 2) * 4),
    "signal lfilter order 8 one signal 2^24 f32": w_signal(
        lambda sig: (ramp_mod(1 << 24, 1000, 0.001, cp.float32), *sig.butter(8, 0.1)),
        # float32 in, float64 out (the coefficients are float64).
        lambda sig, x, b, a: sig.lfilter(b, a, x), (1 << 24) * (4 + 8)),
    "signal sosfilt 4 sections 1024 x 2^14 f32": w_signal(
        lambda sig: (ramp_mod(1024 * (1 << 14), 1000, 0.001, cp.float32).reshape(1024, 1 << 14),
                     sig.butter(8, 0.1, output="sos")),
        lambda sig, x, sos: sig.sosfilt(sos, x), 1024 * (1 << 14) * (4 + 8)),
    "sparse csr SpMV f32 2^20x16": w_sparse(lambda a: (a, cp.ones(1 << 20, cp.float32)),
                                            lambda a, x: a @ x, 1),
    "sparse csr SpMM f32 2^20x16 @ 64 cols": w_sparse(
        lambda a: (a, cp.ones((1 << 20, 64), cp.float32)), lambda a, b: a @ b, 64),
    "sparse csr SpGEMM A @ A f32 2^20x16": w_sparse(lambda a: (a,), lambda a: a @ a, 0),
    "sparse coo->csr 2^24 entries f32": w_sparse_coo_to_csr(),
    "sparse csr fancy row indexing 2^16 rows": w_sparse(
        lambda a: (a, (cp.arange(1 << 16, dtype=cp.int64) * 40503) % (1 << 20)),
        lambda a, idx: a[idx], 0),
    "sparse cg 100 it Poisson 2048^2 f64": w_sparse_cg(2048),
    "special erf f32 2^28": w_special("erf", N, 0.004, -2.0, cp.float32),
    "special gammaln f32 2^28": w_special("gammaln", N, 0.01, 0.05, cp.float32),
    "special j0 f64 2^27": w_special("j0", 1 << 27, 0.05, 0.0, cp.float64),
    "special i0e f64 2^27": w_special("i0e", 1 << 27, 0.05, 0.0, cp.float64),
    "special digamma f64 2^27": w_special("digamma", 1 << 27, 0.02, 0.01, cp.float64),
    # gpu-random: the bytes written. CuPy's Generator lacks permutation
    # (cupy/cupy#4557), so that row and the legacy rows use cupy.random.
    "random standard_normal f32 2^28": w_gpu(
        lambda: (cp.random.default_rng(0),),
        lambda g: g.standard_normal(N, dtype=cp.float32), N * 4),
    "random random f32 2^28": w_gpu(
        lambda: (cp.random.default_rng(0),),
        lambda g: g.random(N, dtype=cp.float32), N * 4),
    "random legacy RandomState.normal f32 2^28": w_gpu(
        lambda: (cp.random.RandomState(0),),
        lambda rs: rs.normal(size=N, dtype=cp.float32), N * 4),
    "random uniform f64 2^27": w_gpu(
        lambda: (cp.random.default_rng(0),),
        lambda g: g.uniform(-1.0, 3.0, 1 << 27) if hasattr(g, "uniform")
        else cp.random.uniform(-1.0, 3.0, 1 << 27), (1 << 27) * 8),
    "random legacy RandomState.uniform f64 2^27": w_gpu(
        lambda: (cp.random.RandomState(0),),
        lambda rs: rs.uniform(-1.0, 3.0, 1 << 27), (1 << 27) * 8),
    "random integers i64 2^27": w_gpu(
        lambda: (cp.random.default_rng(0),),
        lambda g: g.integers(0, 1000, 1 << 27, dtype=cp.int64), (1 << 27) * 8),
    "random permutation 2^26": w_gpu(
        lambda: (cp.random.RandomState(0),),
        lambda rs: rs.permutation(1 << 26), (1 << 26) * 8),
    "random gamma(0.5) f64 2^24": w_gpu(
        lambda: (cp.random.default_rng(0),),
        lambda g: g.gamma(0.5, 1.0, 1 << 24), (1 << 24) * 8),
    "random binomial(100, 0.3) 2^24": w_gpu(
        lambda: (cp.random.default_rng(0),),
        lambda g: g.binomial(100, 0.3, 1 << 24), (1 << 24) * 8),
    "special fused expit(x)*erf(y) f32 2^28": w_gpu(
        lambda: (ramp(N, 0.01, -5.0, cp.float32), ramp(N, 0.004, -2.0, cp.float32)),
        cp.fuse(expit_times_erf), 3 * N * 4),
    # Uniform inputs as bench/src/stats_workloads.rs; the range comes from
    # the data (min/max and their copy back included on both sides).
    "histogram 2^26 f32 256 bins": w_gpu(
        lambda: (cp.random.random(1 << 26, dtype=cp.float32),),
        lambda a: cp.histogram(a, 256), (1 << 26) * 4),
    "bincount 2^26 i32": w_gpu(
        lambda: (cp.random.randint(0, 1024, 1 << 26, dtype=cp.int32),),
        cp.bincount, (1 << 26) * 4),
    "median 2^26 f32": w_gpu(lambda: (cp.random.random(1 << 26, dtype=cp.float32),),
                             cp.median, (1 << 26) * 4),
    "percentile axis=1 4096^2 f32": w_gpu(
        lambda: (cp.random.random((4096, 4096), dtype=cp.float32),),
        lambda a: cp.percentile(a, [10.0, 50.0, 90.0], axis=1), 4096 * 4096 * 4),
}


def run_cuprum(cmd, only):
    args = shlex.split(cmd) + ["--json"]
    if only:
        args += ["--only", ";".join(only)]
    out = {}
    # Read as the rows come, each echoed to stderr, so that a run cut off
    # by a time limit still shows how far the Rust side got.
    with subprocess.Popen(args, stdout=subprocess.PIPE, text=True) as p:
        for line in p.stdout:
            line = line.strip()
            if line.startswith("{"):
                r = json.loads(line)
                out[r["name"]] = r
                print(f"cuprum-bench: {r['name']}: {r['median']:.3f} {r['unit']}",
                      file=sys.stderr, flush=True)
            elif line:
                print("cuprum-bench:", line, file=sys.stderr, flush=True)
    if p.returncode != 0:
        print(f"cuprum-bench exited {p.returncode}", file=sys.stderr)
    return out


def fmt(v, unit):
    return "n/a" if v is None else f"{v:.3f} {unit}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuprum", default="bash target/gpu-pack/run.sh bin cuprum-bench")
    ap.add_argument("--only", default="")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    # Names holding commas ("where(a>0,a,b)") are listed with ';'.
    only = [s for s in a.only.split(";" if ";" in a.only else ",") if s]
    rust = run_cuprum(a.cuprum, only)
    dev = cp.cuda.runtime.getDeviceProperties(0)
    print(f"# device: {dev['name'].decode()}  cupy {cp.__version__}  numpy {np.__version__}")
    head = ("workload", "Cuprum", "CuPy", "ratio", "rate (Cuprum vs CuPy)")
    rows = []

    def emit(row):
        # Markdown rows print as they are measured, so that a run cut off by
        # the device's time limit still leaves the rows it finished.
        rows.append(row)
        if a.markdown:
            print("| " + " | ".join(row) + " |", flush=True)

    if a.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head), flush=True)
    for name, w in WORKLOADS.items():
        if only and name not in only:
            continue
        r = rust.get(name)
        try:
            c_med, c_unit, c_rate, rate_unit = w()
        except Exception as e:  # one failing CuPy call is a row, not the end
            msg = f"CuPy failed: {type(e).__name__}: {e}".replace("|", "/")[:120]
            emit((name, fmt(r["median"], r["unit"]) if r else "missing", msg, "n/a", ""))
            continue
        finally:
            cp.get_default_memory_pool().free_all_blocks()
        if r is None:
            emit((name, "missing", fmt(c_med, c_unit), "n/a", ""))
            continue
        r_med = r["median"] if r["unit"] == c_unit else None
        ratio = f"{r_med / c_med:.2f}" if r_med and c_med else "n/a"
        rate = ""
        if rate_unit:
            rate = f"{r.get('rate') or 0:.1f} vs {c_rate:.1f} {rate_unit}"
        emit((name, fmt(r["median"], r["unit"]), fmt(c_med, c_unit), ratio, rate))
    # Workloads with no CuPy counterpart (reference floors) still print.
    for name, r in rust.items():
        if name not in WORKLOADS:
            emit((name, fmt(r["median"], r["unit"]), "n/a", "n/a", ""))
    if not a.markdown:
        widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
        for r in [head] + rows:
            print("  ".join(str(x).ljust(w) for x, w in zip(r, widths)))

if __name__ == "__main__":
    main()
