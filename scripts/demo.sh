#!/usr/bin/env bash
# The demo command: installs what it needs, builds extmem and runs the Vulkan demo, a CUDA
# program compiled by Debian's clang with no CUDA toolkit, written as NVIDIA's Vulkan interop
# samples are: CUDA imports a Vulkan buffer without a copy, then a compute shader on lavapipe
# and a __global__ kernel on the software device take turns on it for 600 frames, handing each
# frame over through a timeline semaphore exported from Vulkan, with no host synchronisation;
# then cudaMalloc memory goes to Vulkan the same way. It runs through extmem-run, which gives
# Vulkan lavapipe alone and extmem's semaphore layer (lavapipe exports no semaphores itself).
#   scripts/demo.sh [--frames N] [--words N]   the Vulkan demo (extmem-vulkan-demo, samples/vulkan_demo.cu)
#   scripts/demo.sh --no-vulkan                the software device alone (extmem-demo)
set -euo pipefail
cd "$(dirname "$0")/.."

demo=extmem-vulkan-demo
if [ "${1:-}" = "--no-vulkan" ]; then
  demo=extmem-demo
  shift
fi

scripts/deps.sh
cmake -S . -B build/demo -G Ninja -DCMAKE_BUILD_TYPE=Release -DEXTMEM_TESTS=OFF -DEXTMEM_VULKAN=ON >/dev/null
if [ "$demo" = extmem-demo ]; then
  cmake --build build/demo -j "$(nproc)" --target extmem-demo
  exec build/demo/samples/extmem-demo "$@"
fi
# The demo builds the semaphore layer with it; extmem-run wants extmem's libcuda.so.1 too.
cmake --build build/demo -j "$(nproc)" --target extmem-vulkan-demo extmem_libcuda
exec build/demo/bin/extmem-run -- build/demo/samples/extmem-vulkan-demo "$@"
