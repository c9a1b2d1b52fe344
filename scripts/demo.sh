#!/usr/bin/env bash
# The demo command: installs what it needs, builds extmem and runs the demo on the software
# device.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build/demo -G Ninja -DCMAKE_BUILD_TYPE=Release -DEXTMEM_TESTS=OFF >/dev/null
cmake --build build/demo -j "$(nproc)" --target extmem-demo
exec build/demo/samples/extmem-demo "$@"
