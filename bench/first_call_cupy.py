#!/usr/bin/env python3
"""CuPy's first call of `a + b` in a fresh process with an empty kernel cache
(CUPY_CACHE_DIR set by the caller), timed like bench/src/bin/first_call.rs."""
import json, os, time
import cupy as cp

a = cp.asarray([1.0] * 1024, dtype=cp.float32)
b = cp.asarray([2.0] * 1024, dtype=cp.float32)
cp.cuda.Device().synchronize()
t = time.perf_counter()
c = a + b
cp.cuda.Device().synchronize()
first = (time.perf_counter() - t) * 1e3
t = time.perf_counter()
d = a + b
cp.cuda.Device().synchronize()
second = (time.perf_counter() - t) * 1e3
print(json.dumps({"cupy_first_call_ms": round(first, 3), "cupy_second_call_ms": round(second, 3),
                  "cache": os.environ.get("CUPY_CACHE_DIR", "")}))
