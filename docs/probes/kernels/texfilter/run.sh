#!/bin/sh
# The texfilter part's one run on the GPU machine (H100, driver 580, CUDA 13.0). The tree that
# travels is the main checkout's, so filter_probe.cu, tests/cuda/textures_filter.cu, check.h and
# this script were copied to .probes/texfilter/ there and carried (run's carry), and run as
#   sh .probes/texfilter/run.sh
# Outputs (under $OUT): probe.txt, bc.bin, filt1.bin, filt2.bin, filt3.bin (fit_*.py read them),
# textures_filter.expected (tests/cuda/), textures_filter.stderr.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -arch=sm_90 -cudart shared -I. textures_filter.cu -o /tmp/textures_filter || exit 1
/tmp/textures_filter > "$OUT/textures_filter.expected" 2> "$OUT/textures_filter.stderr"
echo "textures_filter rc=$?"; wc -l "$OUT/textures_filter.expected"; cat "$OUT/textures_filter.stderr"
nvcc -arch=sm_90 -o /tmp/filter_probe filter_probe.cu -lcuda || exit 1
time /tmp/filter_probe "$OUT"
echo "probe rc=$?"
grep -v "^planar.*tex" "$OUT/probe.txt" | head -80
ls -l "$OUT"
