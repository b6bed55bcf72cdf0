#!/usr/bin/env bash
# Builds the test-only Python extension (python/cuprum-py) here, where Rust
# is, and puts it into the GPU pack for the machine that has none:
#   ../shared/tools/gpu-pack -p gpu-array   # (optional) first: it empties target/gpu-pack
#   bash bench/gpu/build-py.sh              # then: adds target/gpu-pack/python/
# Carry target/gpu-pack to the GPU machine and run, from the repository root:
#   bash bench/gpu/py-interop.sh
# The .so is abi3 (CPython 3.9 and later), built with this machine's python3;
# it finds the CUDA libraries at run time as the packed test binaries do.
# It travels gzip-compressed (the carry limit is shared with the pack).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
(cd python/cuprum-py && cargo build --release --locked)
# CPython imports `cuprum_py` from `cuprum_py.abi3.so` on every version.
stage=target/py/module
mkdir -p "$stage"
cp target/py/release/libcuprum_py.so "$stage/cuprum_py.abi3.so"
# It must at least import here (no GPU needed) and pass the host checks.
PYTHONPATH="$root/$stage" python3 python/cuprum-py/tests/test_host.py
out=target/gpu-pack/python
mkdir -p "$out"
gzip -9 -n -c "$stage/cuprum_py.abi3.so" >"$out/cuprum_py.abi3.so.gz"
echo "$(git rev-parse --short HEAD)$([ -z "$(git status --porcelain -- python)" ] || echo '+dirty')" \
  >"$out/built_from"
echo "build-py: $out/cuprum_py.abi3.so.gz ($(du -h "$out/cuprum_py.abi3.so.gz" | cut -f1)), built from $(cat "$out/built_from")"
