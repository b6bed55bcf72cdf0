#!/usr/bin/env bash
# Copied into target/gpu-xz as unpack.sh by xz-pack.sh; on the GPU machine,
# from the repository root: rebuilds target/gpu-pack's metadata and unpacks
# the binaries into the folder run.sh reads them from, marked as unpacked.
set -euo pipefail
xzd=target/gpu-xz
pack=target/gpu-pack
bindir=${TMPDIR:-/tmp}/gpu-pack-bin
mkdir -p "$pack/bin" && cp -r "$xzd"/meta/. "$pack/"
rm -rf "$bindir" && mkdir -p "$bindir"
# Python's lzma needs no xz tool on the machine.
python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
  "$xzd/bins.tar.xz" "$bindir"
chmod +x "$bindir"/*
cp "$pack/pack_id" "$bindir/.from"
echo "unpacked $(ls "$bindir" | wc -l) binaries into $bindir"
