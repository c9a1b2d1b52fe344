#!/bin/sh
# Build and run fork_probe.c against the real NVIDIA driver (the GPU machine: NVIDIA's cuda.h in
# /usr/local/cuda/include, libcuda from the driver). Writes the output beside the program, or
# into $1 when given.
#
#   docs/probes/fork/run.sh [OUTPUT_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
gcc -std=gnu11 -O0 -Wall "$here/fork_probe.c" -I/usr/local/cuda/include -lcuda -o /tmp/fork_probe
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/# nvidia-smi: /'
  /tmp/fork_probe
} > "$out/fork_probe.out" 2>&1
cat "$out/fork_probe.out"
