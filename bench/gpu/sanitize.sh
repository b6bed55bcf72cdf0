#!/usr/bin/env bash
# Runs compute-sanitizer over packed GPU tests (../shared/tools/gpu-pack),
# one binary at a time, each under a time limit, and prints the tool's
# summary line per run. From the repository root on the GPU machine:
#   bash bench/gpu/sanitize.sh TOOL LIMIT SPEC... [-- ARGS...]
#   bash bench/gpu/sanitize.sh memcheck 300 gpu-runtime:core::,memory:: -- --skip slow_test
#   bash bench/gpu/sanitize.sh racecheck 120 gpu-array:scans::
#   bash bench/gpu/sanitize.sh racecheck 120 gpu-array/gpu -- sort::axis_sorts scans::
# Each SPEC (bench/gpu/lib.sh: CRATE[:FILTER,...], CRATE/NAME[:FILTER,...],
# NAME[:FILTER,...]) is one run of each binary it names, logged to
# $OUT/sanitize-TOOL-TAG.log (or /tmp; TAG from the crate, the binary and
# the filters: gpu-array-gpu-scans). The arguments after `--` go to every
# run after its filters: --skip narrows it, a name there widens it (libtest
# runs a test that matches any filter). SAN_FLAGS adds options of the
# sanitizer itself.
set -u
. "$(dirname "$0")/lib.sh"
tool=$1 limit=$2
shift 2
specs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do specs+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
pack_init
plan=$(mktemp)
trap 'rm -f "$plan"' EXIT
for spec in "${specs[@]}"; do
  pack_resolve "$spec" >"$plan" || { echo "== $tool $spec: not in the pack"; continue; }
  while IFS=$'\t' read -r -u 3 -a row; do
    tag=$(pack_tag "${row[0]}" "${row[1]}" "${row[@]:3}")
    log=${OUT:-/tmp}/sanitize-$tool-$tag.log
    # shellcheck disable=SC2086 # SAN_FLAGS is a list of options
    (cd "${row[0]}" && timeout "$limit" compute-sanitizer --tool "$tool" --print-limit 20 ${SAN_FLAGS:-} \
      "$bindir/${row[2]}" --test-threads=4 "${row[@]:3}" "$@") >"$log" 2>&1
    rc=$?
    echo "== $tool $tag (exit $rc$([ $rc -eq 124 ] && echo ', time limit'))"
    grep -E "^test result:|ERROR SUMMARY|RACECHECK SUMMARY|SYNCCHECK SUMMARY" "$log" | tail -3
  done 3<"$plan"
done
