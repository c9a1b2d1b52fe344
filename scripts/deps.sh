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
# The windowed image sample's test (samples/vulkan_image.cu, tests/vk/xvfb_screenshot.sh): an X
# server of its own (Xvfb) and XCB's headers for the window.
packages+=(xvfb libxcb1-dev)
# The Khronos validation layers, which the semaphore layer's tests run above it (tests/vk).
packages+=(vulkan-validationlayers)
# ccache: scripts/test.sh compiles through it, so a second run of the test command on the same
# machine (CI on a fresh clone, a developer's rerun) recompiles only what changed.
packages+=(ccache)
# The dma-buf VM test (scripts/vm, docs/dmabuf.md): qemu, a static busybox and cpio for the
# initramfs, and what builds the udmabuf module (make, binutils; libelf1 for the kernel's objtool).
# The kernel packages themselves are fetched with `apt-get download` into a cache, not installed.
packages+=(qemu-system-x86 busybox-static cpio xz-utils make binutils libelf1)
# extmem-run's tests (a Python ctypes client), scripts/action-local.py and scripts/lint-workflows.py
# (which read the GitHub workflow and action files).
packages+=(python3 python3-yaml)
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

# Another package manager may hold dpkg's and apt's locks for minutes (unattended upgrades after
# a machine boots, or a second install beside this one): wait for it, up to ten minutes, saying
# which process holds them, rather than fail. apt itself then waits for the dpkg lock too.
lock_holders() {
  local f pid
  for f in /proc/[0-9]*/fd/*; do
    case "$(readlink "$f" 2>/dev/null)" in
      /var/lib/dpkg/lock-frontend | /var/lib/dpkg/lock | /var/lib/apt/lists/lock | /var/cache/apt/archives/lock)
        pid=${f#/proc/}
        pid=${pid%%/*}
        [ "$pid" = "$$" ] || echo "$pid ($(cat "/proc/$pid/comm" 2>/dev/null))"
        ;;
    esac
  done 2>/dev/null | sort -u | tr '\n' ' '
}
waited=0
while holders=$(lock_holders) && [ -n "$holders" ]; do
  if [ $waited -ge 600 ]; then
    echo "deps: the package manager's locks are still held after 10 minutes by: $holders" >&2
    exit 1
  fi
  [ $waited -eq 0 ] && echo "deps: waiting for the package manager's locks, held by: $holders"
  sleep 5
  waited=$((waited + 5))
done
apt_get() { $sudo apt-get -o DPkg::Lock::Timeout=600 "$@"; }
apt_get install -y --no-install-recommends "${missing[@]}" ||
  { apt_get update && apt_get install -y --no-install-recommends "${missing[@]}"; }
