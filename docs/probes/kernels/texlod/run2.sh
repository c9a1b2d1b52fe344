#!/bin/sh
# The second texlod run on the GPU machine (H100, driver 580): tests/cuda/textures_lod.cu built
# by nvcc against NVIDIA's runtime (its output is tests/cuda/textures_lod.expected), and the
# probe's log2 section (log2.out). Sent as .probes/texlod/ of the main checkout with check.h.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -arch=sm_90 -cudart shared -I. textures_lod.cu -o /tmp/textures_lod || exit 1
/tmp/textures_lod > "${OUT:-.}/textures_lod.expected" 2> "${OUT:-.}/textures_lod.stderr"
echo "textures_lod rc=$? lines $(wc -l < "${OUT:-.}/textures_lod.expected")"
cat "${OUT:-.}/textures_lod.stderr"
nvcc -arch=sm_90 -o /tmp/lod_probe lod_probe.cu -lcuda || exit 1
/tmp/lod_probe log2 > "${OUT:-.}/log2.out" 2>&1
echo "log2 rc=$? lines $(wc -l < "${OUT:-.}/log2.out")"
