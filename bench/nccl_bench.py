#!/usr/bin/env python3
"""Cuprum's all_reduce_perf beside CuPy's NCCL, same sizes, same method, one
table: size, Cuprum's time and bus bandwidth, CuPy's, and the ratio of the
times (Cuprum / CuPy; below 1 is faster).

usage (repository root of the GPU machine, after gpu-pack --bins):
  python3 bench/nccl_bench.py [--gpus N] [--min 8] [--max 1G] [--iters 20]
          [--warmup 5] [--dtype float32] [--markdown]
          [--cuprum "bash target/gpu-pack/run.sh bin all_reduce_perf"]

Method (nccl-tests' `all_reduce_perf -g N`, and the Rust binary's): one
process drives every GPU through communicators made by one initAll; an
iteration is one NCCL group with an out-of-place allReduce (sum) per
device on its current stream; a size's time is the host wall time of
--iters iterations after --warmup, every device synchronized before and
after, divided by the iterations. busbw = bytes / time * 2 (n - 1) / n.
CuPy's results are checked as Cuprum's are (rank r sends r + 1).
"""
import argparse, json, shlex, subprocess, sys, time

try:
    import cupy as cp
    from cupy.cuda import nccl
except ImportError as e:  # the table needs CuPy's NCCL beside Cuprum's
    print(f"SKIP: CuPy's NCCL is not available ({e})")
    sys.exit(0)

DTYPES = {"float32": (cp.float32, nccl.NCCL_FLOAT32), "float64": (cp.float64, nccl.NCCL_FLOAT64),
          "float16": (cp.float16, nccl.NCCL_FLOAT16), "int32": (cp.int32, nccl.NCCL_INT32),
          "int64": (cp.int64, nccl.NCCL_INT64)}


def parse_bytes(s):
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(s[-1:].upper(), 1)
    return int(s[:-1] if mult > 1 else s) * mult


def sizes(lo, hi, factor, item):
    b, out = max(lo, item), []
    while b <= hi:
        out.append(b // item * item)
        b *= factor
    return out


def cupy_rows(a):
    n = a.gpus or cp.cuda.runtime.getDeviceCount()
    dtype, nccl_dtype = DTYPES[a.dtype]
    item = cp.dtype(dtype).itemsize
    comms = nccl.NcclCommunicator.initAll(list(range(n)))
    want = n * (n + 1) // 2
    rows = []
    for nbytes in sizes(a.min, a.max, 2, item):
        count = nbytes // item
        bufs = []
        for r in range(n):
            with cp.cuda.Device(r):
                bufs.append((cp.full(count, r + 1, dtype), cp.zeros(count, dtype)))

        def iteration():
            nccl.groupStart()
            for r, c in enumerate(comms):
                with cp.cuda.Device(r):
                    s, d = bufs[r]
                    c.allReduce(s.data.ptr, d.data.ptr, count, nccl_dtype, nccl.NCCL_SUM,
                                cp.cuda.get_current_stream().ptr)
            nccl.groupEnd()

        def sync():
            for r in range(n):
                cp.cuda.Device(r).synchronize()

        for _ in range(a.warmup):
            iteration()
        sync()
        t = time.perf_counter()
        for _ in range(a.iters):
            iteration()
        sync()
        us = (time.perf_counter() - t) * 1e6 / a.iters
        wrong = 0
        for r in range(n):
            with cp.cuda.Device(r):
                wrong += int(not bool((bufs[r][1] == want).all()))
        algbw = nbytes / us / 1e3
        rows.append({"bytes": nbytes, "time_us": us, "algbw": algbw,
                     "busbw": algbw * 2 * (n - 1) / n, "wrong": wrong, "gpus": n})
    return rows


def cuprum_rows(a):
    cmd = shlex.split(a.cuprum) + ["--json", "--min", str(a.min), "--max", str(a.max),
                                   "--iters", str(a.iters), "--warmup", str(a.warmup),
                                   "--dtype", a.dtype]
    if a.gpus:
        cmd += ["--gpus", str(a.gpus)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"nccl_bench: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    return [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuprum", default="bash target/gpu-pack/run.sh bin all_reduce_perf")
    ap.add_argument("--gpus", type=int, default=0)
    ap.add_argument("--min", type=parse_bytes, default=8)
    ap.add_argument("--max", type=parse_bytes, default=1 << 30)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--dtype", default="float32", choices=sorted(DTYPES))
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    mine = {r["bytes"]: r for r in cuprum_rows(a)}
    theirs = cupy_rows(a)
    n = theirs[0]["gpus"] if theirs else 0
    print(f"all_reduce ({a.dtype}, sum, out of place) on {n} GPU(s), "
          f"{a.iters} iterations after {a.warmup}")
    head = ["size (B)", "Cuprum us", "Cuprum busbw GB/s", "CuPy us", "CuPy busbw GB/s",
            "ratio", "wrong"]
    if a.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    else:
        print("  ".join(f"{h:>17}" for h in head))
    bad = 0
    for t in theirs:
        m = mine.get(t["bytes"])
        if m is None:
            sys.exit(f"nccl_bench: Cuprum has no row for {t['bytes']} bytes")
        bad += m["wrong"] + t["wrong"]
        cells = [str(t["bytes"]), f"{m['time_us']:.2f}", f"{m['busbw']:.2f}",
                 f"{t['time_us']:.2f}", f"{t['busbw']:.2f}", f"{m['time_us'] / t['time_us']:.2f}",
                 f"{m['wrong']}/{t['wrong']}"]
        if a.markdown:
            print("| " + " | ".join(cells) + " |")
        else:
            print("  ".join(f"{c:>17}" for c in cells))
    if bad:
        sys.exit(f"nccl_bench: {bad} wrong result(s)")


if __name__ == "__main__":
    main()
