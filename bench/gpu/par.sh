#!/usr/bin/env bash
# Runs the packed GPU tests (../shared/tools/gpu-pack) as six groups at
# once. Three groups took about two minutes on the H200, but on an H100
# (2026-12-06) the third, every binary the first two left, ran past six
# minutes (gpu-special's accuracy tests alone 154 s), so the long binaries
# now have groups of their own: gpu-special, gpu-ndimage, gpu-signal.
# Most GPU tests are in one binary per crate (tests/gpu/, a module per
# area), so the groups split by test name: groups 1 to 5 run the SPECs of
# bench/gpu/lib.sh below (modules of gpu-array's and gpu-linalg's GPU
# binaries, whole binaries of the long crates), and the last group
# everything else: those binaries again with --skip for each module the
# other groups took, and every other test binary whole. Before running, the groups' `--list` is checked against the
# binaries' own: every test must run exactly once. The NVRTC binaries
# (nvrtc, which CI runs), the bench harness and first_call are left out.
#
# From the repository root on the GPU machine:
#   bash bench/gpu/par.sh [ARGS...]   # ARGS go to every binary, e.g.
#                                     # --test-threads=8 (a name filter
#                                     # there would widen the groups' runs)
#   bash bench/gpu/par.sh --check     # only the check, and what each group runs
# Each group's log goes to $OUT/groupN.log (or /tmp), and the closing lines
# are printed; the exit status is 1 if a test failed.
set -u
. "$(dirname "$0")/lib.sh"
groups=(
  "gpu-array:fusion::,elementwise::,creation::,reductions::,views::,display_io::,indexing:: gpu_array gpu-linalg:decomp::"
  "gpu-array:manip::,scans::,ufuncs:: gpu-linalg:products::"
  "gpu-special gpu_special"
  "gpu-ndimage gpu_ndimage"
  "gpu-signal gpu_signal"
)
last=$((${#groups[@]} + 1))
pack_init
plans=$(mktemp -d)
trap 'rm -rf "$plans"' EXIT
for i in "${!groups[@]}"; do
  for s in ${groups[$i]}; do pack_resolve "$s" || exit 2; done >"$plans/g$((i + 1))"
done
# The last group: every other test binary, less what the others take of
# it (a binary they name whole is not run again; one they filter runs
# here with --skip for each of their filters).
awk -F'\t' '
  FNR == NR {
    k = $1 FS $2
    if (NF == 3) whole[k] = 1
    for (i = 4; i <= NF; i++) skip[k] = skip[k] FS "--skip" FS $i
    next
  }
  $1 != "test" || $2 ~ /^nvrtc/ || $2 == "cuprum-bench" || $2 == "first_call" { next }
  !(($3 FS $2) in whole) { print $3 FS $2 FS $4 skip[$3 FS $2] }
' <(for g in $(seq 1 $((last - 1))); do cat "$plans/g$g"; done) "$pack/manifest.tsv" >"$plans/rest"
# Less the runs that would run nothing (a binary all of whose modules the
# other groups take).
while IFS= read -r -u 3 line; do
  printf '%s\n' "$line" >"$plans/one"
  [ -n "$(pack_list "$plans/one")" ] && printf '%s\n' "$line"
done 3<"$plans/rest" >"$plans/g$last"

# The check: the groups' tests against all tests of their binaries.
for g in $(seq 1 $last); do cut -f1-3 "$plans/g$g"; done | sort -u >"$plans/all"
pack_list "$plans/all" | sort >"$plans/l-all"
for g in $(seq 1 $last); do pack_list "$plans/g$g" >"$plans/l$g"; done
for g in $(seq 1 $last); do cat "$plans/l$g"; done | sort | uniq -d >"$plans/twice"
for g in $(seq 1 $last); do cat "$plans/l$g"; done | sort -u | comm -23 "$plans/l-all" - >"$plans/never"
counts=$(for g in $(seq 1 $last); do printf 'group %s: %s; ' "$g" "$(wc -l <"$plans/l$g")"; done)
echo "check: $(wc -l <"$plans/l-all") tests; ${counts}run twice: $(wc -l <"$plans/twice")," \
  "never: $(wc -l <"$plans/never")"
if [ "${1:-}" = --check ]; then
  for g in $(seq 1 $last); do
    echo "== group $g"
    while IFS=$'\t' read -r -u 3 -a row; do
      (IFS=$'\t' && printf '%s\n' "${row[*]}") >"$plans/one"
      echo "  ${row[*]:0:2}${row[3]:+ ${row[*]:3}} ($(pack_list "$plans/one" | wc -l) tests)"
    done 3<"$plans/g$g"
  done
fi
if [ -s "$plans/twice" ] || [ -s "$plans/never" ]; then
  echo "par.sh: the groups do not run every test once; fix the groups here:"
  sed 's/^/  twice: /' "$plans/twice" | head -20
  sed 's/^/  never: /' "$plans/never" | head -20
  exit 1
fi
[ "${1:-}" = --check ] && exit 0

for g in $(seq 1 $last); do (pack_run_plan "$plans/g$g" "$@" >"${OUT:-/tmp}/group$g.log" 2>&1) & done
wait
rc=0
for g in $(seq 1 $last); do
  echo "== group $g"
  grep -E "^(ok|---- FAILED|failing)" "${OUT:-/tmp}/group$g.log"
  tail -1 "${OUT:-/tmp}/group$g.log"
  tail -1 "${OUT:-/tmp}/group$g.log" | grep -q ' 0 failed,' || rc=1
done
exit $rc
