#!/bin/sh
# Regenerates tests/kernels/ptx/nvcc/*.ptx, the kernel corpus as nvcc 13 compiles it (checked
# in, so that CI, which has no CUDA toolkit, runs nvcc's PTX too). The H100's expected results
# (tests/kernels/expected/nvcc) were recorded from these files: after regenerating them, record
# the results again (scripts/kernels-gpu-expected.sh).
#
# Usage: scripts/kernels-nvcc-ptx.sh [NVCC]   (default /usr/local/cuda/bin/nvcc)
set -eu
nvcc=${1:-/usr/local/cuda/bin/nvcc}
root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/tests/kernels/corpus
dst=$root/tests/kernels/ptx/nvcc
if [ ! -x "$nvcc" ]; then
    echo "kernels-nvcc-ptx.sh: no nvcc at $nvcc" >&2
    exit 1
fi
mkdir -p "$dst"
"$nvcc" --version | tail -n 2
for cu in "$src"/*.cu; do
    mod=$(basename "$cu" .cu)
    # compute_80: PTX only, for the target the device reports (compute capability 8.0);
    # the sm_89/sm_90 tensor-core forms (mma90_*), need compute_90.
    arch=compute_80
    case $mod in mma90_*) arch=compute_90 ;; esac
    (cd "$src" && "$nvcc" -ptx -arch=$arch -O3 "$mod.cu" -o "$dst/$mod.ptx")
    echo "$dst/$mod.ptx"
done
