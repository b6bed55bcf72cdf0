#!/usr/bin/env bash
# Runs compute-sanitizer over packed GPU test binaries (../shared/tools/gpu-pack),
# one binary at a time, each under a time limit, and prints the tool's summary
# line per binary. From the repository root on the GPU machine:
#   bash bench/gpu/sanitize.sh memcheck 300 gpu_core gpu_memory -- --skip slow_test
#   bash bench/gpu/sanitize.sh racecheck 120 gpu_scans -- scan
# The arguments after `--` go to each test binary (a filter, --skip ...);
# SAN_FLAGS adds options of the sanitizer itself.
set -u
tool=$1; limit=$2; shift 2
names=(); while [ $# -gt 0 ] && [ "$1" != "--" ]; do names+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
pack=target/gpu-pack
# Unpack the binaries (run.sh does it on first use) without running tests.
bash $pack/run.sh tests --list >/dev/null 2>&1
bindir=${TMPDIR:-/tmp}/gpu-pack-bin
export CUPRUM_TEST_REQUIRE_GPU=1
for name in "${names[@]}"; do
  line=$(awk -F'\t' -v n="$name" '$1=="test" && $2==n' $pack/manifest.tsv | head -1)
  [ -n "$line" ] || { echo "== $tool $name: not in the pack"; continue; }
  dir=$(echo "$line" | cut -f3); bin=$(echo "$line" | cut -f4)
  log=${OUT:-/tmp}/sanitize-$tool-$name.log
  ( cd "$dir" && timeout "$limit" compute-sanitizer --tool "$tool" --print-limit 20 ${SAN_FLAGS:-} \
      "$bindir/$bin" --test-threads=4 "$@" ) >"$log" 2>&1
  rc=$?
  echo "== $tool $name (exit $rc$([ $rc -eq 124 ] && echo ', time limit'))"
  grep -E "^test result:|ERROR SUMMARY|RACECHECK SUMMARY|SYNCCHECK SUMMARY" "$log" | tail -3
done
