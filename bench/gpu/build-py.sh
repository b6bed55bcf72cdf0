#!/usr/bin/env bash
# Builds the test-only Python extension (python/cuprum-py) here, where Rust
# is, and puts it into the GPU pack for the machine that has none:
#   ../shared/tools/gpu-pack -p gpu-array   # (optional) first: it wipes target/gpu-pack
#   bash bench/gpu/build-py.sh              # then: adds target/gpu-pack/python/
# Carry target/gpu-pack to the GPU machine and run, from the repository root:
#   bash bench/gpu/py-interop.sh
# The .so is abi3 (CPython 3.9 and later), built with this machine's python3;
# it finds the CUDA libraries at run time as the packed test binaries do.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
(cd python/cuprum-py && cargo build --release --locked)
out=target/gpu-pack/python
mkdir -p "$out"
# CPython imports `cuprum_py` from `cuprum_py.abi3.so` on every version.
cp target/py/release/libcuprum_py.so "$out/cuprum_py.abi3.so"
echo "$(git -C "$root" rev-parse --short HEAD)$([ -z "$(git -C "$root" status --porcelain -- python)" ] || echo '+dirty')" \
  >"$out/built_from"
# It must at least import here (no GPU needed) and pass the host checks.
PYTHONPATH="$root/$out" python3 python/cuprum-py/tests/test_host.py
echo "build-py: $out/cuprum_py.abi3.so ($(du -h "$out/cuprum_py.abi3.so" | cut -f1)), built from $(cat "$out/built_from")"
