#!/usr/bin/env bash
# Regenerates bench/kernels/bench_kernels.ptx from bench_kernels.cu with nvcc 13 (where
# /usr/local/cuda/bin/nvcc exists), so the software device and the GPU run the same PTX.
set -euo pipefail
cd "$(dirname "$0")/../bench/kernels"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
"$nvcc" -ptx -arch=compute_80 -O3 bench_kernels.cu -o bench_kernels.ptx
echo "bench/kernels/bench_kernels.ptx: $("$nvcc" --version | tail -n 1)"
