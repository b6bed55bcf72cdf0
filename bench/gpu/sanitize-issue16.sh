#!/usr/bin/env bash
# The sanitizer runs of the correctness issue, all at once (one job per
# group of tests and tool, each under a time limit): memcheck over the
# runtime and the core array modules, racecheck and synccheck over the
# scan, sort, reduction and histogram tests. Summaries in $OUT/san-*.txt,
# printed at the end. bash bench/gpu/sanitize-issue16.sh [LIMIT] (seconds
# per job, 480 unless given), from the repository root on the GPU machine.
set -u
. "$(dirname "$0")/lib.sh"
L=${1:-480}
pack_init
S="bash bench/gpu/sanitize.sh"
# memcheck counts API errors too, and several tests provoke them on purpose
# (a bad image, an event without timing, probing parameter info): only
# memory errors are counted here.
M() { SAN_FLAGS="--report-api-errors no" $S "$@"; }
o=${OUT:-/tmp}
M memcheck $L gpu-runtime:core:: -- --skip a_failing_launch_is_reported >$o/san-m-core.txt &
M memcheck $L gpu-runtime:memory:: -- --skip pool_soak >$o/san-m-memory.txt &
M memcheck $L gpu-runtime:kernels:: -- --skip launch_overhead_is_small >$o/san-m-kernels.txt &
for m in views scans reductions elementwise indexing; do
  M memcheck $L gpu-array:$m:: >$o/san-m-$m.txt &
done
M memcheck $L gpu-array:sort:: -- --skip radix_sort_2_24 --skip unique_large >$o/san-m-sort.txt &
for t in racecheck synccheck; do
  $S $t $L gpu-array:scans:: >$o/san-$t-scans.txt &
  $S $t $L gpu-array:sort::radix_sort_every_dtype_and_size,sort::axis_sorts >$o/san-$t-sort.txt &
  $S $t $L gpu-array:reductions::every_strategy_against_float64,reductions::arg_reductions_every_strategy,reductions::var_std_every_strategy_and_edges \
    >$o/san-$t-red.txt &
  $S $t $L gpu-array:math::large_histogram_and_bincount >$o/san-$t-hist.txt &
done
wait
cat $o/san-*.txt
# Where a hazard was reported, what it was.
grep -h -A14 -E "(Race|Sync|Barrier).*(reported|detected|error)|Error: " $o/sanitize-racecheck-*.log \
  $o/sanitize-synccheck-*.log 2>/dev/null | head -60
