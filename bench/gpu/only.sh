#!/usr/bin/env bash
# Runs only the named packed GPU test binaries, e.g. after changing one
# module: bash bench/gpu/only.sh gpu_scans gpu_math (repository root of the
# GPU machine, after ../shared/tools/gpu-pack here).
set -u
src=target/gpu-pack; d=target/gpu-pack-only; rm -rf $d; mkdir -p $d
cp -r $src/bin $src/build_root $src/pack_id $src/run.sh $d/
names=" $* "
awk -F'\t' -v n="$names" '$1=="test" && index(n, " " $2 " ")' $src/manifest.tsv > $d/manifest.tsv
bash $d/run.sh
