#!/usr/bin/env bash
# Makes the inputs tests/link_test.cpp links (tests/data/link/), with NVIDIA's nvcc (13.0 made the
# checked-in files; CI has no nvcc, so they are checked in: run this again only to change them).
# Each holds the device code below, relocatable (-dc), uncompressed (so builds without zstd read
# them):
#   b.o            a host object (nvcc -dc) with PTX for compute_75 in its __nv_relfatbin section
#   libb.a         an archive of it and of a host-only object (nvcc -lib does the same)
#   b.fatbin       a fat binary of the relocatable PTX (nvcc -fatbin -dc)
#   b_sass.fatbin  the same with SASS for sm_90 only (a CPU cannot run it)
#   b.cubin        a relocatable cubin for sm_90 (likewise)
#   libsass.a      an archive whose object has SASS only (as libcudadevrt.a for the software device)
set -euo pipefail
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
out=$(cd "$(dirname "$0")/.." && pwd)/tests/data/link
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/b.cu" <<'CU'
// What tests/link_test.cpp's PTX declares .extern: add_one and counter.
__device__ unsigned counter = 100;
__device__ int add_one_impl(int x) { return x + 1; }
extern "C" __device__ int add_one(int x) { return add_one_impl(x); }
CU
echo 'int host_only(int x) { return x * 2; }' >"$tmp/host.c"
ptx=(-gencode arch=compute_75,code=compute_75 --compress-mode=none)
"$nvcc" -dc "${ptx[@]}" "$tmp/b.cu" -o "$out/b.o"
cc -c "$tmp/host.c" -o "$tmp/host.o"
rm -f "$out/libb.a"
(cd "$tmp" && cp "$out/b.o" b.o && ar rcs "$out/libb.a" host.o b.o)
"$nvcc" -fatbin -dc "${ptx[@]}" "$tmp/b.cu" -o "$out/b.fatbin"
"$nvcc" -fatbin -dc -gencode arch=compute_90,code=sm_90 --compress-mode=none "$tmp/b.cu" -o "$out/b_sass.fatbin"
"$nvcc" -cubin -dc -arch=sm_90 "$tmp/b.cu" -o "$out/b.cubin"
"$nvcc" -dc -gencode arch=compute_90,code=sm_90 --compress-mode=none "$tmp/b.cu" -o "$tmp/b_sass.o"
rm -f "$out/libsass.a"
(cd "$tmp" && ar rcs "$out/libsass.a" b_sass.o)
