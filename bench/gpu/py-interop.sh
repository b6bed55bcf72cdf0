#!/usr/bin/env bash
# On the GPU machine, from the repository root: the Python exchange tests of
# Cuprum with PyTorch and CuPy (python/cuprum-py/tests), against the
# extension that bench/gpu/build-py.sh put into the pack:
#   bash bench/gpu/py-interop.sh            # host checks, then the GPU ones
#   bash bench/gpu/py-interop.sh gpu        # only test_interop.py
# Each script closes with 'N passed, N failed, N skipped'; exits non-zero on
# a failure. A missing torch or CuPy skips its tests (SKIP: lines).
set -u
cd "$(dirname "$0")/../.."
pack=target/gpu-pack/python
if [ ! -f "$pack/cuprum_py.abi3.so.gz" ]; then
  echo "no $pack/cuprum_py.abi3.so.gz: run bench/gpu/build-py.sh on the build machine" >&2
  echo "(after gpu-pack, which empties target/gpu-pack) and carry target/gpu-pack" >&2
  exit 2
fi
mod=${TMPDIR:-/tmp}/cuprum-py
mkdir -p "$mod"
gzip -dc "$pack/cuprum_py.abi3.so.gz" >"$mod/cuprum_py.abi3.so"
echo "py-interop: cuprum_py built from $(cat "$pack/built_from" 2>/dev/null || echo '?')"
export PYTHONPATH="$mod${PYTHONPATH:+:$PYTHONPATH}"
rc=0
if [ "${1:-all}" != gpu ]; then
  python3 python/cuprum-py/tests/test_host.py || rc=1
fi
python3 python/cuprum-py/tests/test_interop.py || rc=1
exit $rc
