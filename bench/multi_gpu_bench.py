#!/usr/bin/env python3
"""The multi-GPU run's peer-copy and multi-GPU FFT tables (issue 27, points
3 and 4): Cuprum's `multi_gpu` binary, then the same work through CuPy in
the same call, one markdown table each.

usage (repository root of a machine with 2+ GPUs, after gpu-pack --bins):
  python3 bench/multi_gpu_bench.py [--peer-bytes 256M] [--fft-log2 28] [--iters 10]
          [--cuprum "bash target/gpu-pack/run.sh bin multi_gpu"]

Peer copies: `--peer-bytes` from every GPU to every other; Cuprum's
`to_device` (a device-to-device copy on the destination's stream after an
event of the source's), CuPy's `MemoryPointer.copy_from_device_async` into a
buffer of the destination (the same one copy); host wall time of --iters
copies after 2, both devices synchronized before and after. FFT: a 1-D
complex64 transform of 2^--fft-log2 elements on one GPU and over every GPU
(CuPy's `fft.config.use_multi_gpus` and `set_cufft_gpus`), wall time per
transform of --iters after 1; the relative difference between the
multi-GPU and the single-GPU result is printed for both.
"""
import argparse, os, json, shlex, subprocess, sys, time

# NVLink multicast stays off on the shared machines (a program that uses it
# can take the host's GPUs out of service), for CuPy, torch and the Cuprum
# processes started from here alike, unless the caller chose otherwise.
os.environ.setdefault("NCCL_NVLS_ENABLE", "0")

try:
    import cupy as cp
except ImportError as e:
    print(f"SKIP: CuPy is not available ({e})")
    sys.exit(0)


def parse_bytes(s):
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(s[-1:].upper(), 1)
    return int(s[:-1] if mult > 1 else s) * mult


def sync(n):
    for d in range(n):
        cp.cuda.Device(d).synchronize()


def cupy_peer(n, nbytes, iters):
    count = nbytes // 4
    rows = {}
    for i in range(n):
        with cp.cuda.Device(i):
            src = cp.ones(count, cp.float32)
        for j in range(n):
            if i == j:
                continue
            with cp.cuda.Device(j):
                dst = cp.empty(count, cp.float32)
                stream = cp.cuda.get_current_stream()
                for _ in range(2):
                    dst.data.copy_from_device_async(src.data, count * 4, stream)
                sync(n)
                t = time.perf_counter()
                for _ in range(iters):
                    dst.data.copy_from_device_async(src.data, count * 4, stream)
                sync(n)
                s = (time.perf_counter() - t) / iters
                assert bool((dst == 1).all()), f"peer copy {i}->{j} is wrong"
            rows[(i, j)] = count * 4 / s / 1e9
    return rows


def signal(length):
    k = cp.arange(length, dtype=cp.float32)
    return (cp.cos(k * cp.float32(0.37)) + 1j * cp.sin(k * k * cp.float32(0.011))).astype(cp.complex64)


def cupy_fft(n, log2, iters):
    with cp.cuda.Device(0):
        x = signal(1 << log2)

        def timed():
            y = cp.fft.fft(x)
            sync(n)
            t = time.perf_counter()
            for _ in range(iters):
                y = cp.fft.fft(x)
            sync(n)
            return (time.perf_counter() - t) * 1e3 / iters, y

        cp.fft.config.use_multi_gpus = False
        one_ms, one = timed()
        cp.fft.config.use_multi_gpus = True
        cp.fft.config.set_cufft_gpus(list(range(n)))
        try:
            all_ms, spread = timed()
        finally:
            cp.fft.config.use_multi_gpus = False
        spread = cp.asarray(spread)
        rel = float(cp.abs(spread - one).max() / cp.abs(one).max())
    return one_ms, all_ms, rel


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuprum", default="bash target/gpu-pack/run.sh bin multi_gpu")
    ap.add_argument("--peer-bytes", type=parse_bytes, default=256 << 20)
    ap.add_argument("--fft-log2", type=int, default=28)
    ap.add_argument("--iters", type=int, default=10)
    a = ap.parse_args()
    n = cp.cuda.runtime.getDeviceCount()
    if n < 2:
        print(f"SKIP: {n} GPU(s) visible, the tables need 2 or more")
        return
    cmd = shlex.split(a.cuprum) + ["--peer-bytes", str(a.peer_bytes), "--fft-log2",
                                   str(a.fft_log2), "--iters", str(a.iters)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"multi_gpu_bench: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    mine = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    peer = {(r["from"], r["to"]): r["gbps"] for r in mine if r["table"] == "peer"}
    fft = next(r for r in mine if r["table"] == "fft")
    theirs = cupy_peer(n, a.peer_bytes, a.iters)
    print(f"Peer copies of {a.peer_bytes} bytes, GB/s (Cuprum / CuPy), {n} GPUs")
    print("| from \\ to | " + " | ".join(str(j) for j in range(n)) + " |")
    print("|---|" + "---|" * n)
    for i in range(n):
        cells = ["-" if i == j else f"{peer[(i, j)]:.1f} / {theirs[(i, j)]:.1f}" for j in range(n)]
        print(f"| {i} | " + " | ".join(cells) + " |")
    one_ms, all_ms, rel = cupy_fft(n, a.fft_log2, a.iters)
    print()
    print(f"1-D complex64 FFT of 2^{a.fft_log2}, ms per transform")
    print("| | one GPU | all GPUs | rel. diff. all vs one |")
    print("|---|---|---|---|")
    print(f"| Cuprum | {fft['one_gpu_ms']:.3f} | {fft['all_gpus_ms']:.3f} | {fft['rel_diff']:.2e} |")
    print(f"| CuPy | {one_ms:.3f} | {all_ms:.3f} | {rel:.2e} |")
    print(f"| ratio | {fft['one_gpu_ms'] / one_ms:.2f} | {fft['all_gpus_ms'] / all_ms:.2f} | |")


if __name__ == "__main__":
    main()
