#!/usr/bin/env bash
# Runs the recursive filters' kernels on the host (no GPU). carry.cpp: the
# carry (src/kernels/carry.cuh): the compiled-size instance (D = 8, the maps and vectors in
# registers, each step's operands loaded a step ahead) against the runtime
# order one (D = 0), bit for bit, and both against the serial recursion
# z[k+1] = Phi z[k] + s[k] (1e-9), over block counts, group sizes, signals
# and zf. One emulated thread walks every work item of a phase (the
# kernel's grid-stride loop; the phases' results do not depend on the
# grid). scan.cpp: fixed_scan.cu's states pass (each block's final state
# from zero, block 0 from zi, exactly) and run pass (from the entering
# states, against SciPy's loop over the whole signal, with zf), every
# block length, packed and element loads (whole batches, batches and
# single packs, element tails), for the direct form of order 4 (batches
# of 4 packs) and a cascade of 5 sections (10 states, batches of 2) in
# float64, the input stored as double and as float. The includes of
# cuprum/types.cuh get an empty stand-in; the carry's L2 prefetch is
# nothing on the host.
#   bash crates/gpu-signal/tools/emulate/run.sh
# Needs g++ with C++17; seconds. A check of the logic, not a substitute for
# the GPU run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/cuprum"
: >"$work/cuprum/types.cuh"
for prog in carry scan; do
  g++ -std=c++17 -O1 -ffp-contract=off -I"$work" -I"$here/../../src/kernels" \
    -o "$work/$prog" "$here/$prog.cpp"
  "$work/$prog"
done
