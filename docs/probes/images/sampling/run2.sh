#!/bin/sh
# The second run on the GPU machine (H100): tests/cuda/textures.cu built by nvcc against NVIDIA's
# runtime; its output is tests/cuda/textures.expected. The tree does not travel to the machine
# (the machine's copy is of the main checkout): textures.cu and check.h were sent as an xz'd tar
# in base64 chunks and unpacked into one folder, where this script runs.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -arch=sm_90 -cudart shared -I. textures.cu -o /tmp/textures || exit 1
/tmp/textures > "${OUT:-.}/textures.expected" 2> "${OUT:-.}/textures.stderr"
echo "textures rc=$?"
tail -2 "${OUT:-.}/textures.expected"
cat "${OUT:-.}/textures.stderr"
