#!/usr/bin/env bash
# Runs a GPU harness's Python here, without a GPU, before it costs device
# time: bash bench/gpu/dryrun.sh bench/gpu/gammaln_variants.py [ARGS...]
# bench/gpu/dryrun/ stands in for CuPy (NumPy arrays, kernels compiled by
# NVRTC for sm_90 and launched as no-ops, every timing 0.2 ms), so a
# harness that finishes here has no Python error and compiles every
# kernel it builds; its bit checks say nothing here (nothing ran). Needs
# NumPy (PYTHON, default python3) and NVRTC (CUPRUM_NVRTC_PATH, default
# the wheel `cargo xtask setup-nvrtc` installs under .cuprum/nvrtc).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
export CUPRUM_NVRTC_PATH=${CUPRUM_NVRTC_PATH:-$root/.cuprum/nvrtc/nvidia/cu13/lib}
export LD_LIBRARY_PATH=$CUPRUM_NVRTC_PATH${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PYTHONPATH=$root/bench/gpu/dryrun${PYTHONPATH:+:$PYTHONPATH}
harness=$1
shift
exec "${PYTHON:-python3}" "$harness" --reps 2 "$@"
