#!/usr/bin/env bash
# The sanitizer runs of the correctness issue, all at once (one job per
# binary and tool, each under a time limit): memcheck over the runtime and
# the core array binaries, racecheck and synccheck over the scan, sort,
# reduction and histogram tests. Summaries in $OUT/san-*.txt, printed at the end.
set -u
L=${1:-480}
bash target/gpu-pack/run.sh tests --list >/dev/null 2>&1
S="bash bench/gpu/sanitize.sh"
# memcheck counts API errors too, and several tests provoke them on purpose
# (a bad image, an event without timing, probing parameter info): only
# memory errors are counted here.
M() { SAN_FLAGS="--report-api-errors no" $S "$@"; }
o=${OUT:-/tmp}
M memcheck $L gpu_core -- --skip a_failing_launch_is_reported >$o/san-m-core.txt &
M memcheck $L gpu_memory -- --skip pool_soak >$o/san-m-memory.txt &
M memcheck $L gpu_kernels -- --skip launch_overhead_is_small >$o/san-m-kernels.txt &
for b in gpu_views gpu_scans gpu_reductions gpu_elementwise gpu_indexing; do
  M memcheck $L $b >$o/san-m-$b.txt &
done
M memcheck $L gpu_sort -- --skip radix_sort_2_24 --skip unique_large >$o/san-m-sort.txt &
for t in racecheck synccheck; do
  $S $t $L gpu_scans >$o/san-$t-scans.txt &
  $S $t $L gpu_sort -- radix_sort_every_dtype_and_size axis_sorts >$o/san-$t-sort.txt &
  $S $t $L gpu_reductions -- every_strategy_against_float64 arg_reductions_every_strategy \
    var_std_every_strategy_and_edges >$o/san-$t-red.txt &
  $S $t $L gpu_math -- large_histogram_and_bincount >$o/san-$t-hist.txt &
done
wait
cat $o/san-*.txt
# Where a hazard was reported, what it was.
grep -h -A14 -E "(Race|Sync|Barrier).*(reported|detected|error)|Error: " $o/sanitize-racecheck-*.log \
  $o/sanitize-synccheck-*.log 2>/dev/null | head -60
