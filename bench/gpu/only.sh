#!/usr/bin/env bash
# Runs only some of the packed tests (../shared/tools/gpu-pack), e.g. after
# changing one module; from the repository root of the GPU machine:
#   bash bench/gpu/only.sh gpu-array:scans::,math::   # two modules of gpu-array's GPU binary
#   bash bench/gpu/only.sh gpu-runtime gpu-linalg:decomp::qr   # a whole GPU binary; some tests of another
#   CUPRUM_TEST_ALL_ARCHS=1 bash bench/gpu/only.sh nvrtc      # every crate's NVRTC binary
#   bash bench/gpu/only.sh gpu-array:sort:: -- --test-threads=4 --nocapture
# Each SPEC (bench/gpu/lib.sh: CRATE[:FILTER,...], CRATE/NAME[:FILTER,...],
# NAME[:FILTER,...]) is one run of each binary it names; the arguments after
# `--` go to every run. Ends as run.sh does: 'N passed, N failed, N ignored'.
set -u
. "$(dirname "$0")/lib.sh"
specs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do specs+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
if [ ${#specs[@]} -eq 0 ]; then
  echo "usage: bash bench/gpu/only.sh SPEC... [-- ARGS...] (see the comment at its top)" >&2
  exit 2
fi
pack_init
plan=$(mktemp)
trap 'rm -f "$plan"' EXIT
for s in "${specs[@]}"; do pack_resolve "$s" || exit 2; done >"$plan"
pack_run_plan "$plan" "$@"
