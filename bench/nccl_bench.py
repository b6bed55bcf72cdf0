#!/usr/bin/env python3
"""Cuprum's all_reduce_perf beside CuPy's NCCL, same sizes, same method, one
table: size, Cuprum's time and bus bandwidth, CuPy's, and the ratio of the
times (Cuprum / CuPy; below 1 is faster); with PyTorch present, a
torch.distributed column too (one process per GPU, NCCL backend, in-place
all_reduce, the slowest rank's time), the baseline issue 27 names.

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
import argparse, os, json, shlex, subprocess, sys, time

# NVLink multicast stays off on the shared machines (a program that uses it
# can take the host's GPUs out of service), for CuPy, torch and the Cuprum
# processes started from here alike, unless the caller chose otherwise.
os.environ.setdefault("NCCL_NVLS_ENABLE", "0")

try:
    import cupy as cp
    from cupy.cuda import nccl
except ImportError as e:  # the table needs CuPy's NCCL beside Cuprum's
    print(f"SKIP: CuPy's NCCL is not available ({e})")
    sys.exit(0)
if not getattr(nccl, "available", False):  # CuPy imports without its NCCL
    print("SKIP: CuPy's NCCL is not available (cupy.cuda.nccl.available is False)")
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


def _torch_worker(rank, n, port, sizes_, dtype_name, warmup, iters, queue):
    """One rank of the torch.distributed run (one process per GPU, as
    torchrun starts them): in-place all_reduce (sum) of each size, the same
    timing; rank 0 reports each size's slowest rank."""
    import torch
    import torch.distributed as dist
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=n)
    dt = getattr(torch, dtype_name)
    want = n * (n + 1) // 2
    for nbytes in sizes_:
        count = nbytes // torch.tensor([], dtype=dt).element_size()
        x = torch.full((count,), rank + 1, dtype=dt, device="cuda")
        for _ in range(warmup):
            x.fill_(rank + 1)
            dist.all_reduce(x)
        torch.cuda.synchronize()
        dist.barrier()
        torch.cuda.synchronize()
        t = time.perf_counter()
        for _ in range(iters):
            dist.all_reduce(x)
        torch.cuda.synchronize()
        us = torch.tensor([(time.perf_counter() - t) * 1e6 / iters], device="cuda")
        dist.all_reduce(us, op=dist.ReduceOp.MAX)
        # Check one reduction from fresh inputs.
        x.fill_(rank + 1)
        dist.all_reduce(x)
        wrong = torch.tensor([int(not bool((x == want).all()))], device="cuda")
        dist.all_reduce(wrong)
        if rank == 0:
            queue.put((nbytes, float(us.item()), int(wrong.item())))
    dist.destroy_process_group()


def torch_rows(a, byte_sizes):
    """torch.distributed's all_reduce over the same sizes, or None without
    torch (or without as many GPUs)."""
    try:
        import socket
        import torch
        import torch.multiprocessing as mp
    except ImportError as e:
        print(f"note: torch.distributed column skipped ({e})")
        return None
    n = a.gpus or torch.cuda.device_count()
    if n < 1 or torch.cuda.device_count() < n:
        return None
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    mp.spawn(_torch_worker, args=(n, port, byte_sizes, a.dtype, a.warmup, a.iters, queue),
             nprocs=n, join=True)
    rows = {}
    for _ in byte_sizes:
        nbytes, us, wrong = queue.get(timeout=60)
        algbw = nbytes / us / 1e3
        rows[nbytes] = {"time_us": us, "busbw": algbw * 2 * (n - 1) / n, "wrong": wrong}
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
    ap.add_argument("--no-torch", action="store_true",
                    help="leave out the torch.distributed column")
    a = ap.parse_args()
    mine = {r["bytes"]: r for r in cuprum_rows(a)}
    theirs = cupy_rows(a)
    torch_by_size = None if a.no_torch else torch_rows(a, [t["bytes"] for t in theirs])
    n = theirs[0]["gpus"] if theirs else 0
    print(f"all_reduce ({a.dtype}, sum, out of place) on {n} GPU(s), "
          f"{a.iters} iterations after {a.warmup}")
    head = ["size (B)", "Cuprum us", "Cuprum busbw GB/s", "CuPy us", "CuPy busbw GB/s",
            "ratio", "wrong"]
    if torch_by_size:
        head[6:6] = ["torch us", "torch busbw GB/s", "ratio to torch"]
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
        if torch_by_size:
            tt = torch_by_size[t["bytes"]]
            bad += tt["wrong"]
            cells[6:6] = [f"{tt['time_us']:.2f}", f"{tt['busbw']:.2f}",
                          f"{m['time_us'] / tt['time_us']:.2f}"]
        if a.markdown:
            print("| " + " | ".join(cells) + " |")
        else:
            print("  ".join(f"{c:>17}" for c in cells))
    if bad:
        sys.exit(f"nccl_bench: {bad} wrong result(s)")


if __name__ == "__main__":
    main()
