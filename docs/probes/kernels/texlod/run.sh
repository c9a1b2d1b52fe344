#!/bin/sh
# The texlod probe on the GPU machine (H100, driver 580): lod_probe.cu built with nvcc 13 against
# NVIDIA's headers and runtime, each section in a process of its own (a failure ends only its
# own), outputs under $OUT. Sent as .probes/texlod/ of the main checkout (run's carry).
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -arch=sm_90 -o /tmp/lod_probe lod_probe.cu -lcuda || exit 1
for s in ${SECTIONS:-lod aniso tri cube off batch}; do
    timeout 120 /tmp/lod_probe $s > "${OUT:-.}/$s.out" 2>&1
    echo "$s rc=$? lines $(wc -l < "${OUT:-.}/$s.out")"
    tail -2 "${OUT:-.}/$s.out"
done
