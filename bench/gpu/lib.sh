# Sourced (not run) by par.sh, only.sh and the sanitize scripts beside it:
# picks test binaries out of a GPU pack (../shared/tools/gpu-pack) and runs
# each with its own arguments, as the pack's run.sh would run it (from its
# package folder, CUPRUM_TEST_REQUIRE_GPU=1), but one binary at a time.
# From the repository root of the GPU machine.
#
# A SPEC names test binaries of the pack and, after a colon, which of their
# tests to run: libtest name filters, comma-separated, each a substring of
# the tests' full names (`module::test`); a test runs if any matches.
#   CRATE[:FILTER,...]       the crate's GPU binary (tests/gpu/main.rs):
#                            gpu-array:scans::,math::  gpu-runtime
#   CRATE/NAME[:FILTER,...]  the crate's test binary NAME: gpu-array/nvrtc,
#                            gpu-testing/api, gpu-linalg/gpu:decomp::qr
#   NAME[:FILTER,...]        every test binary so named: nvrtc (one per
#                            crate), gpu_array (gpu-array's unit tests)
# CRATE is the last part of the package's folder (crates/gpu-array).
# A filter ending in `::` takes a whole module (scans:: is every test of
# tests/gpu/scans.rs).
#
# A plan is a file of runs, one a line, tab-separated: the package folder,
# the binary's name, its packed file, then its arguments.

pack=target/gpu-pack
bindir=${TMPDIR:-/tmp}/gpu-pack-bin

# Checks that there is a pack, and lets run.sh unpack it into $bindir and
# link the build machine's checkout path here (CARGO_MANIFEST_DIR) once;
# its `--list` runs touch no device. Device tests fail rather than skip,
# as under run.sh (CUPRUM_TEST_REQUIRE_GPU=0 in the environment lets them
# skip, for a dry run without a device).
pack_init() {
  if [ ! -f "$pack/manifest.tsv" ]; then
    echo "no $pack/manifest.tsv: pack the tests first (../shared/tools/gpu-pack)" >&2
    exit 2
  fi
  if [ "$(cat "$bindir/.from" 2>/dev/null)" != "$(cat "$pack/pack_id")" ] ||
    [ ! -e "$(cat "$pack/build_root")" ]; then
    bash "$pack/run.sh" tests --list >/dev/null 2>&1
  fi
  export CUPRUM_TEST_REQUIRE_GPU=${CUPRUM_TEST_REQUIRE_GPU:-1}
}

# Prints the plan of one SPEC (a line per binary it names); fails, saying
# so, when it names none.
pack_resolve() {
  local spec=$1 sel=$1 filters=""
  case $spec in *:*) sel=${spec%%:*} filters=${spec#*:} ;; esac
  awk -F'\t' -v sel="$sel" -v filters="$filters" '
    $1 != "test" { next }
    {
      n = split($3, part, "/"); crate = part[n]
      if (index(sel, "/") ? sel == crate "/" $2 : (sel == crate && $2 == "gpu") || sel == $2) {
        line = $3 "\t" $2 "\t" $4
        k = split(filters, f, ",")
        for (i = 1; i <= k; i++) if (f[i] != "") line = line "\t" f[i]
        print line; found = 1
      }
    }
    END { exit !found }' "$pack/manifest.tsv" && return 0
  echo "no test binary in $pack for '$spec'" >&2
  return 1
}

# Prints the full names of the tests that a plan's runs would run, one a
# line after the package folder and binary: `crates/gpu-array gpu scans::x`.
pack_list() {
  local row
  while IFS=$'\t' read -r -u 3 -a row; do
    (cd "${row[0]}" && "$bindir/${row[2]}" "${row[@]:3}" --list 2>/dev/null) |
      awk -v p="${row[0]} ${row[1]} " '/: test$/ { sub(/: test$/, ""); print p $0 }'
  done 3<"$1"
}

pass=0 fail=0 ign=0 bad=""

# Runs one binary: pack_run DIR NAME FILE ARGS...; prints, as run.sh does,
# `ok  DIR NAME ARGS: <libtest's result>` or `---- FAILED: ...` and the
# output's end, and adds to the totals. With $OUT set (the device's
# output folder), the binary's whole output stays in $OUT/runs/, written
# as the tests finish: a run that `timeout` cuts (a fresh machine's
# compiles) still shows which tests passed.
pack_run() {
  local dir=$1 name=$2 bin=$3 log rc r p f i
  shift 3
  if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT/runs"
    log="$OUT/runs/$(pack_tag "$dir" "$name" "$@").log"
  else
    log=$(mktemp)
  fi
  (cd "$dir" && "$bindir/$bin" "$@") >"$log" 2>&1
  rc=$?
  r=$(grep -E '^test result:' "$log" | tail -1)
  p=$(echo "$r" | sed -nE 's/.* ([0-9]+) passed.*/\1/p')
  f=$(echo "$r" | sed -nE 's/.* ([0-9]+) failed.*/\1/p')
  i=$(echo "$r" | sed -nE 's/.* ([0-9]+) ignored.*/\1/p')
  pass=$((pass + ${p:-0})) fail=$((fail + ${f:-0})) ign=$((ign + ${i:-0}))
  if [ $rc -ne 0 ]; then
    bad="$bad $dir:$name"
    [ -z "$f" ] && fail=$((fail + 1))
    echo "---- FAILED: $dir $name $* (exit $rc)"
    grep -vE '^test .* ok$' "$log" | tail -60
  else
    echo "ok  $dir $name $*: ${r#test result: }"
  fi
  [ -n "${OUT:-}" ] || rm -f "$log"
}

# Runs every run of a plan, with ARGS after each run's own arguments, and
# ends as run.sh does: `N passed, N failed, N ignored` (status 1 on a
# failure). pack_run_plan PLAN ARGS...
pack_run_plan() {
  local plan=$1 row
  shift
  while IFS=$'\t' read -r -u 3 -a row; do
    pack_run "${row[@]}" "$@"
  done 3<"$plan"
  [ -n "$bad" ] && echo "failing binaries:$bad"
  echo "$pass passed, $fail failed, $ign ignored"
  [ $fail -eq 0 ]
}

# A short name for a run, for log files: pack_tag DIR NAME ARGS... gives
# gpu-array-gpu-sort.axis_sorts+scans for crates/gpu-array gpu
# sort::axis_sorts scans::.
pack_tag() {
  local tag="${1##*/}-$2" args
  shift 2
  if [ $# -gt 0 ]; then
    args=$(printf '%s+' "$@" | sed -E 's/::/./g; s/\.?\+$//; s/\.\+/+/g')
    tag="$tag-$args"
  fi
  printf '%s' "$tag" | tr -c 'A-Za-z0-9_.+-' '_'
}
