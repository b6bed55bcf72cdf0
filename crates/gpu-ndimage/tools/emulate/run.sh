#!/usr/bin/env bash
# Runs the fast paths of kernels/distance.cu, binary.cu, tiled.cu and
# zoom.cu on the host (no GPU), against the kernels they must agree with:
#   bash crates/gpu-ndimage/tools/emulate/run.sh
# shim.h gives each block's threads as std::threads, with barriers for
# __syncthreads, __syncwarp and the shuffles, and host versions of the
# intrinsics used. What each program compares:
#   edt.cpp     the EDT's exact path (edt_first, then edt_exact with the
#               distances) with SciPy's sequential one (edt_init, edt_pass,
#               edt_distances): features and distance bits;
#   binary.cpp  binary_step2d with the generic step, every 3 x 3 structure
#               (bool bytes other than 0 and 1 are not valid input);
#   tiled.cpp   tiled1d with window1d, bit for bit (every op, both layouts,
#               windows of 1 to 25, every mode and origin), and median3x3
#               with a sorted box (NaN last);
#   zoom.cpp    zoom2 with interp.cu's general interpolation (every order
#               and mode), bit for bit;
#   spline.cpp  the spline prefilter as built with itself at
#               CUPRUM_SPL_BATCH 1, bit for bit.
# filters.cu's include of cuprum/types.cuh gets an empty stand-in (its
# kernels here use plain C types only). Needs g++ with C++20; about three
# minutes on two cores (edt and binary; the rest take seconds). A check of
# the logic, not a substitute for the GPU run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
k="$here/../../src/kernels"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed 's/extern __shared__ int cuprum_edt_line\[\];/int* cuprum_edt_line = g_dyn;/; s/extern "C" //' \
  "$k/distance.cu" >"$work/distance_kernels.cpp"
sed 's/extern "C" //' "$k/binary.cu" >"$work/binary_kernels.cpp"
mkdir -p "$work/cuprum" && : >"$work/cuprum/types.cuh"
cat "$k/boundary.cuh" "$k/filters.cu" "$k/tiled.cu" | sed 's/extern "C" //' >"$work/filters_kernels.cpp"
cat "$k/interp.cu" "$k/zoom.cu" | sed 's/extern "C" //' >"$work/interp_kernels.cpp"
sed 's/^#define CUPRUM_SPL_BATCH .*/#define CUPRUM_SPL_BATCH 1/' "$work/interp_kernels.cpp" \
  >"$work/interp_single.cpp"
for t in edt binary tiled zoom spline; do
  g++ -std=c++20 -O1 -ffp-contract=off -pthread -w -I"$here" -I"$work" "$here/$t.cpp" -o "$work/$t"
  echo "== $t: $("$work/$t" | tail -1)"
done
