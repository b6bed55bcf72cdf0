#!/usr/bin/env bash
# The zoom candidates of bench/gpu/zoom_variants.py on the host (no GPU),
# with the crate's emulator (crates/gpu-ndimage/tools/emulate): zoom.cpp's
# cases, and the same cases with its 64-bit-index instance made float32
# order 1, bit for bit against interp.cu's general interpolation, for
# group sizes 1, 2, 3, 4 and 8:
#   bash bench/gpu/zoom_variants_emulate.sh [grouped|pipelined ...]
# Needs g++ with C++20 and python3; about two minutes on two cores.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
emu="$here/../../crates/gpu-ndimage/tools/emulate"
k="$here/../../crates/gpu-ndimage/src/kernels"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/cuprum" && : >"$work/cuprum/types.cuh"
sed 's/z_wide_double_double_3/z_wide_float_float_1/;
     s/<double, double, 3, long long>/<float, float, 1, long long>/;
     s/z_wide_float_float_1(const double\* in, double\* out/z_wide_float_float_1(const float* in, float* out/;
     s/one<double, double>("double double order 3, 64-bit indices", z_wide_float_float_1, i_double_double, 3)/one<float, float>("float order 1, 64-bit indices", z_wide_float_float_1, i_float_float, 1)/' \
  "$emu/zoom.cpp" >"$work/zoom_wide1.cpp"
grep -q 'i_float_float, 1)' "$work/zoom_wide1.cpp"
status=0
python3 "$here/zoom_variants.py" --write "$work"
[ $# -gt 0 ] || set -- grouped pipelined
for v in "$@"; do
  for g in 1 2 3 4 8; do
    (echo "#define CUPRUM_ZOOM_GROUP $g"; cat "$k/interp.cu" "$work/zoom_$v.cu") | sed 's/extern "C" //' \
      >"$work/interp_kernels.cpp"
    for t in "$emu/zoom.cpp" "$work/zoom_wide1.cpp"; do
      g++ -std=c++20 -O1 -ffp-contract=off -pthread -w -I"$emu" -I"$work" "$t" -o "$work/z"
      line=$("$work/z" | tail -1) || status=1
      echo "$v G=$g $(basename "$t" .cpp): $line"
    done
  done
done
exit $status
