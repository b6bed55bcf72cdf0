#!/usr/bin/env bash
# The multi-GPU run (issue 27) in one device call on a kind with 2+ GPUs,
# after `../shared/tools/gpu-pack --bins` here (carry target/gpu-pack):
#   bash bench/gpu/multi.sh
# 1. gpu-nccl's tests (the two-process ones start themselves as torchrun
#    would; the timeout test kills a rank) and the multi-GPU FFT test;
# 2. all_reduce_perf beside CuPy's NCCL (bench/nccl_bench.py);
# 3. peer copies and the 2^28 multi-GPU FFT beside CuPy
#    (bench/multi_gpu_bench.py).
# NVLink multicast stays off (NCCL_NVLS_ENABLE=0), as the machines ask.
set -u
export NCCL_NVLS_ENABLE=0
cd "$(dirname "$0")/../.."
nvidia-smi -L
status=0
CUPRUM_TEST_REQUIRE_NCCL=1 bash bench/gpu/only.sh gpu-nccl gpu-fft:multi_gpu -- --test-threads=1 || status=1
python3 bench/nccl_bench.py --markdown || status=1
python3 bench/multi_gpu_bench.py || status=1
exit $status
