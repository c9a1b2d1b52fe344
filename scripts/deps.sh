#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages extmem's build, tests and demo need (DESIGN.md §11).
# Only what is missing is installed; `apt-get update` runs only when an install needs it.
set -euo pipefail

packages=(cmake ninja-build gcc g++ clang libclang-rt-dev pkg-config libgtest-dev)
# clang also compiles CUDA with no CUDA toolkit (cmake/ExtmemCuda.cmake: the demo, tests/cuda):
# Debian's has the NVPTX target, and clang++ comes with the clang package.
# Compressed PTX in fat binaries (src/kernel/fatbin.c).
packages+=(libzstd-dev liblz4-dev)
# Vulkan interop (src/vk, the Vulkan demo and tests/vk): the loader and headers, volk, Mesa's
# lavapipe (the software device's Vulkan partner) and glslangValidator for the shaders.
packages+=(libvulkan-dev libvulkan-volk-dev mesa-vulkan-drivers glslang-tools)
# The dma-buf VM test (scripts/vm, docs/dmabuf.md): qemu, a static busybox and cpio for the
# initramfs, and what builds the udmabuf module (make, binutils; libelf1 for the kernel's objtool).
# The kernel packages themselves are fetched with `apt-get download` into a cache, not installed.
packages+=(qemu-system-x86 busybox-static cpio xz-utils make binutils libelf1)
packages+=("$@")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get install -y --no-install-recommends "${missing[@]}" ||
  { $sudo apt-get update && $sudo apt-get install -y --no-install-recommends "${missing[@]}"; }
