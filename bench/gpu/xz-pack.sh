#!/usr/bin/env bash
# The GPU pack (../shared/tools/gpu-pack --bins, then build-py.sh) is about
# 63 MiB gzip-compressed, and the device's carry limit (64 MiB) also holds
# the working tree (some 33 MiB of goldens and sources): it no longer fits.
# One solid xz archive of all the binaries shares the code they have in
# common (std, gpu-array) and comes to about 15 MiB. On the build machine:
#   ../shared/tools/gpu-pack --bins && bash bench/gpu/build-py.sh
#   bash bench/gpu/xz-pack.sh               # writes target/gpu-xz
# Carry target/gpu-xz; on the GPU machine, from the repository root, first:
#   bash target/gpu-xz/unpack.sh            # rebuilds target/gpu-pack
# after which run.sh, par.sh, only.sh, py-interop.sh and cupy_bench.py run
# as usual (the binaries are already unpacked where run.sh looks).
set -euo pipefail
cd "$(dirname "$0")/../.."
pack=target/gpu-pack
out=target/gpu-xz
[ -f "$pack/manifest.tsv" ] || { echo "no $pack: run ../shared/tools/gpu-pack first" >&2; exit 2; }
rm -rf "$out" && mkdir -p "$out/meta"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
for z in "$pack"/bin/*.gz; do gzip -dc "$z" >"$stage/$(basename "$z" .gz)"; done
tar -C "$stage" -cf - . | xz -9e -T2 >"$out/bins.tar.xz"
cp "$pack"/manifest.tsv "$pack"/pack_id "$pack"/build_root "$pack"/run.sh "$out/meta/"
[ -d "$pack/python" ] && cp -r "$pack/python" "$out/meta/python"
cp bench/gpu/xz-unpack.sh "$out/unpack.sh"
echo "xz-pack: $out ($(du -sh "$out" | cut -f1))"
