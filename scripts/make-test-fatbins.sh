#!/usr/bin/env bash
# Makes the small fat binaries tests/module_test.cpp loads (tests/data/fatbin/), with NVIDIA's
# nvcc (13.0 made the checked-in files). CI has no nvcc, so the outputs are checked in; run
# this again only to change them. Each holds the kernel below:
#   ptx75.fatbin        PTX for compute_75, stored
#   ptx75_zstd.fatbin   the same, ZSTD-compressed (--compress-mode=size)
#   ptx75_lz4.fatbin    the same, LZ4-compressed (--compress-mode=speed)
#   sass90.fatbin       SASS for sm_90 only (no PTX: a CPU cannot run it)
#   ptx90.fatbin        PTX for compute_90 only (newer than the device's default 8.0)
#   multi.fatbin        PTX for compute_75 and compute_86, SASS for sm_90
set -euo pipefail
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
out=$(cd "$(dirname "$0")/.." && pwd)/tests/data/fatbin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/add.cu" <<'CU'
// out[i] += value for the block's threads below n.
extern "C" __global__ void add_value(int *out, int value, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += value;
}
CU
fatbin() { "$nvcc" -fatbin "$@" "$tmp/add.cu"; }
fatbin -gencode arch=compute_75,code=compute_75 --compress-mode=none -o "$out/ptx75.fatbin"
fatbin -gencode arch=compute_75,code=compute_75 --compress-mode=size -o "$out/ptx75_zstd.fatbin"
fatbin -gencode arch=compute_75,code=compute_75 --compress-mode=speed -o "$out/ptx75_lz4.fatbin"
fatbin -gencode arch=compute_90,code=sm_90 --compress-mode=none -o "$out/sass90.fatbin"
fatbin -gencode arch=compute_90,code=compute_90 --compress-mode=none -o "$out/ptx90.fatbin"
fatbin -gencode arch=compute_75,code=compute_75 -gencode arch=compute_86,code=compute_86 \
  -gencode arch=compute_90,code=sm_90 --compress-mode=none -o "$out/multi.fatbin"
ls -l "$out"
