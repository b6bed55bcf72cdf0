#!/usr/bin/env bash
# Runs every packed example (../shared/tools/gpu-pack --bins) on the GPU
# machine and checks it: each example asserts its own results, so a run
# that exits 0 is a pass. Output per example goes to $OUT/example_NAME.log
# (or /tmp); the last line is "N passed, N failed".
#   bash bench/gpu/examples.sh
set -u
out="${OUT:-/tmp}"
pass=0 fail=0
for gz in target/gpu-pack/bin/example__*.gz; do
    name=$(basename "$gz" .gz)
    name=${name##*__}
    if bash target/gpu-pack/run.sh bin "$name" >"$out/example_$name.log" 2>&1; then
        echo "ok   $name"
        pass=$((pass + 1))
    else
        echo "FAIL $name (see example_$name.log)"
        tail -5 "$out/example_$name.log"
        fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
