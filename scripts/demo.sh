#!/usr/bin/env bash
# The demo command: installs what it needs, builds extmem and runs the Vulkan demo, a CUDA
# program compiled by Debian's clang with no CUDA toolkit: a compute shader on lavapipe fills a
# buffer, CUDA imports it without a copy, a __global__ kernel on the software device transforms
# it, Vulkan verifies it; then cudaMalloc memory goes to Vulkan the same way.
#   scripts/demo.sh               the Vulkan demo (extmem-vulkan-demo, samples/vulkan_demo.cu)
#   scripts/demo.sh --no-vulkan   the software device alone (extmem-demo)
set -euo pipefail
cd "$(dirname "$0")/.."

demo=extmem-vulkan-demo
if [ "${1:-}" = "--no-vulkan" ]; then
  demo=extmem-demo
  shift
fi

scripts/deps.sh
cmake -S . -B build/demo -G Ninja -DCMAKE_BUILD_TYPE=Release -DEXTMEM_TESTS=OFF -DEXTMEM_VULKAN=ON >/dev/null
cmake --build build/demo -j "$(nproc)" --target "$demo"
exec "build/demo/samples/$demo" "$@"
