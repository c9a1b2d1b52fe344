#!/usr/bin/env bash
# Runs the graph and capture probes on the GPU machine (the device tool); writes graph_probe.out,
# capture_probe.out and the .dot files of B.9 under $OUT.
cd "$(dirname "$0")"
set -u
out=${OUT:-/tmp}
{
echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); $(nvcc --version | tail -2 | head -1)"
gcc -std=gnu11 -O1 -Wno-deprecated-declarations graph_probe.c -I/usr/local/cuda/include -lcuda -lpthread -o /tmp/graph_probe && timeout 500 /tmp/graph_probe "$out"
} > "$out/graph_probe.out" 2>&1
{
echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); $(nvcc --version | tail -2 | head -1)"
nvcc -arch=sm_90 -cudart shared -o /tmp/capture_probe capture_probe.cu && timeout 60 /tmp/capture_probe
} > "$out/capture_probe.out" 2>&1
tail -n 3 "$out/graph_probe.out" "$out/capture_probe.out"
