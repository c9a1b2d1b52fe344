#!/usr/bin/env bash
# Runs managed_probe.c on the GPU machine (the device tool); its output is probe.out beside it.
cd "$(dirname "$0")"
set -u
echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); $(nvcc --version | tail -2 | head -1)"
gcc -std=gnu11 -O1 -Wall managed_probe.c -I/usr/local/cuda/include -lcuda -o /tmp/managed_probe && /tmp/managed_probe
