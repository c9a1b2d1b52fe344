#!/bin/sh
# The third run on the GPU machine (H100): bc_probe.cu, how block-compressed textures decode;
# its output is bc.out. Sent to the machine as run.sh says.
cd "$(dirname "$0")"
nvcc -arch=sm_90 -o /tmp/bc_probe bc_probe.cu || exit 1
/tmp/bc_probe > "${OUT:-.}/bc.out" 2>&1
echo "bc rc=$?"
grep -c block "${OUT:-.}/bc.out"
grep -v block "${OUT:-.}/bc.out"
