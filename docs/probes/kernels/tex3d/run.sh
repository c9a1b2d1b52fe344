#!/bin/sh
# Part tex3d's run on the GPU machine (H100, driver 580, CUDA 13.0): copied to
# /work/main/.probes/tex3d/ (ignored there), carried, and run from the repository root as
#   sh .probes/tex3d/run.sh
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -arch=sm_90 -o /tmp/tex3d_probe tex3d_probe.cu || exit 1
time /tmp/tex3d_probe "$OUT" || exit 1
cd "$OUT" && gzip -9 w3d_miss.bin w3d_axis.bin srgb.bin bc.bin
for f in *.gz; do
  if [ "$(stat -c %s "$f")" -gt 15000000 ]; then split -b 15000000 "$f" "$f."; rm "$f"; fi
done
cat w3d_count.txt; ls -l
