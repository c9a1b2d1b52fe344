#!/bin/bash
# The texlod2 probe on the GPU machine (H100, driver 580): lod2_probe.cu built with nvcc 13 against
# NVIDIA's headers and runtime, each section in a process of its own, outputs gzipped under $OUT;
# then tests/cuda/textures_lod.cu (with its gradlod 3D and cube map sections) built by nvcc
# against NVIDIA's runtime: its output is tests/cuda/textures_lod.expected. Sent as
# .probes/gradlod/ of the main checkout (run's carry) with textures_lod.cu and check.h beside it.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -arch=sm_90 -o /tmp/lod2_probe lod2_probe.cu || exit 1
for s in g2 g1 g3 gc taps; do
    timeout 150 /tmp/lod2_probe $s | gzip -1 > "${OUT:-.}/$s.out.gz"
    echo "$s rc=${PIPESTATUS[0]} lines $(zcat "${OUT:-.}/$s.out.gz" | wc -l) $(zcat "${OUT:-.}/$s.out.gz" | tail -1)"
done
nvcc -arch=sm_90 -cudart shared -I. textures_lod.cu -o /tmp/textures_lod || exit 1
/tmp/textures_lod > "${OUT:-.}/textures_lod.expected" 2> "${OUT:-.}/textures_lod.stderr"
echo "textures_lod rc=$? lines $(wc -l < "${OUT:-.}/textures_lod.expected")"
cat "${OUT:-.}/textures_lod.stderr"
