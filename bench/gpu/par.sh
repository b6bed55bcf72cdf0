#!/usr/bin/env bash
# Runs the packed GPU test binaries (../shared/tools/gpu-pack) as three
# groups at once, each from its own copy of the pack with a filtered
# manifest: the whole suite in about two minutes on the H200 instead of
# five. The NVRTC-only binaries (nvrtc*, which CI runs), the bench
# harness and first_call are left out. From the repository root on the
# GPU machine: bash bench/gpu/par.sh; each group's log goes to
# $OUT/groupN.log (or /tmp), and the closing lines are printed.
set -u
src=target/gpu-pack
g1=" gpu_fusion gpu_elementwise gpu_creation gpu_reductions gpu_views gpu_array gpu_display_io gpu_decomp gpu_indexing "
g2=" gpu_manip gpu_scans gpu_ufuncs gpu_products "
for g in 1 2 3; do
  d=target/gpu-pack-g$g; rm -rf $d; mkdir -p $d; cp -r $src/bin $src/build_root $src/pack_id $src/run.sh $d/
  awk -F'\t' -v g=$g -v a="$g1" -v b="$g2" '{
    if ($1!="test") next; if ($2 ~ /^nvrtc/ || $2=="cuprum-bench" || $2=="first_call") next;
    k=" " $2 " "; grp = index(a,k) ? 1 : (index(b,k) ? 2 : 3); if (grp==g) print }' $src/manifest.tsv > $d/manifest.tsv
done
for g in 1 2 3; do (mkdir -p /tmp/t$g; TMPDIR=/tmp/t$g bash target/gpu-pack-g$g/run.sh "$@" > ${OUT:-/tmp}/group$g.log 2>&1) & done
wait
for g in 1 2 3; do echo "== group $g"; grep -E "^(ok|---- FAILED|failing)" ${OUT:-/tmp}/group$g.log; tail -1 ${OUT:-/tmp}/group$g.log; done
