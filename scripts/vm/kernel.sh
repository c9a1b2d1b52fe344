#!/usr/bin/env bash
# Prepares the kernel side of the dma-buf VM test (docs/dmabuf.md), cached between runs:
#   - Debian's current kernel image (linux-image-<abi>, the one linux-image-amd64 points at),
#   - a udmabuf module for it, built out of tree from drivers/dma-buf/udmabuf.c of Debian's
#     linux-source package of the same version, against the matching linux-headers packages.
# Debian's kernel is built without CONFIG_UDMABUF, so the module is what gives the VM a
# /dev/udmabuf (where a later kernel has udmabuf built in, or as a module, that is used instead).
# Prints two lines: the vmlinuz path and the udmabuf.ko path (an empty file: built in).
#
#   scripts/vm/kernel.sh            prepare (or reuse) the cache
#   EXTMEM_VM_CACHE=DIR             where the cache lives (default ${XDG_CACHE_HOME:-~/.cache}/extmem-vm)
#   EXTMEM_VM_KERNEL=6.1.0-56-amd64 a given kernel ABI instead of the newest
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/vm/common.sh
. "$here/common.sh"

abi=$(vm_kernel_abi)
dir="$VM_CACHE/kernel-$abi"
if [ -f "$dir/.complete" ]; then
  echo "$dir/vmlinuz"
  echo "$dir/udmabuf.ko"
  exit 0
fi

for tool in apt-get apt-cache dpkg-deb tar make gcc; do
  command -v "$tool" >/dev/null || vm_die "$tool is missing (scripts/deps.sh installs what the VM test needs)"
done
version=$(apt-cache show --no-all-versions "linux-image-$abi" 2>/dev/null | sed -n 's/^Version: //p' | head -1)
[ -n "$version" ] || vm_die "apt knows no linux-image-$abi: run apt-get update, or set EXTMEM_VM_KERNEL"
major=$(echo "$abi" | sed -E 's/^([0-9]+\.[0-9]+)\..*/\1/') # 6.1
base=${abi%-amd64}                                          # 6.1.0-56

vm_log "preparing kernel $abi (Debian $version) in $dir"
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp/debs" "$dir.tmp/root" "$dir.tmp/module"
# apt-get download writes into the current directory; the _apt user cannot write there when
# root runs it from a private folder, which apt reports and then downloads anyway.
(cd "$dir.tmp/debs" && apt-get download -q \
  "linux-image-$abi=$version" "linux-headers-$abi=$version" "linux-headers-$base-common=$version" \
  "linux-kbuild-$major=$version" "linux-source-$major=$version" 2>&1 |
  { grep -v '^W: Download is performed unsandboxed' || true; } >&2) ||
  vm_die "downloading the kernel packages failed"
for deb in "$dir.tmp"/debs/*.deb; do
  dpkg-deb -x "$deb" "$dir.tmp/root"
done
root="$dir.tmp/root"
cp "$root/boot/vmlinuz-$abi" "$dir.tmp/vmlinuz"
cp "$root/boot/config-$abi" "$dir.tmp/config"
# What the kernel has: no udmabuf (or it would be built in or a module already) and no heaps.
grep -E '^(# )?CONFIG_(UDMABUF|DMABUF_HEAPS|DMA_SHARED_BUFFER)[ =]' "$dir.tmp/config" | sed 's/^/  config: /' >&2

if grep -q '^CONFIG_UDMABUF=y' "$dir.tmp/config"; then
  # A kernel with udmabuf built in needs no module: an empty file says so to the initramfs.
  vm_log "this kernel has udmabuf built in"
  : >"$dir.tmp/udmabuf.ko"
  : >"$dir.tmp/module/udmabuf.c"
  : >"$dir.tmp/module/Kbuild"
elif shipped=$(find "$root/lib/modules/$abi" -name udmabuf.ko 2>/dev/null | grep .); then
  vm_log "this kernel ships udmabuf as a module"
  cp "$(echo "$shipped" | head -1)" "$dir.tmp/udmabuf.ko"
  : >"$dir.tmp/module/udmabuf.c"
  : >"$dir.tmp/module/Kbuild"
else
  # The headers package includes the common tree by its installed path; point it at ours.
  headers="$root/usr/src/linux-headers-$abi"
  echo "include $root/usr/src/linux-headers-$base-common/Makefile" >"$headers/Makefile"

  vm_log "extracting drivers/dma-buf/udmabuf.c from linux-source-$major"
  mkdir -p "$dir.tmp/src"
  tar -xJf "$root/usr/src/linux-source-$major.tar.xz" -C "$dir.tmp/src" --wildcards "*/drivers/dma-buf/udmabuf.c"
  src=$(find "$dir.tmp/src" -path '*/drivers/dma-buf/udmabuf.c' | head -1)
  [ -n "$src" ] || vm_die "linux-source-$major has no drivers/dma-buf/udmabuf.c"
  "$here/udmabuf-oot.sh" "$src" "$dir.tmp/module/udmabuf.c"
  echo 'obj-m := udmabuf.o' >"$dir.tmp/module/Kbuild"
  vm_log "building udmabuf.ko against linux-headers-$abi"
  make -s -C "$headers" M="$dir.tmp/module" -j"$(nproc)" modules >&2 || vm_die "building udmabuf.ko failed"
  strip --strip-debug -o "$dir.tmp/udmabuf.ko" "$dir.tmp/module/udmabuf.ko"
fi

# Keep what the test needs (and the module's source, to read); drop the packages.
mkdir -p "$dir"
mv "$dir.tmp/vmlinuz" "$dir.tmp/config" "$dir.tmp/udmabuf.ko" "$dir/"
cp "$dir.tmp/module/udmabuf.c" "$dir.tmp/module/Kbuild" "$dir/"
echo "linux-image-$abi $version" >"$dir/VERSION"
rm -rf "$dir.tmp"
touch "$dir/.complete"
# One kernel at a time: drop the ones an older Debian kernel left.
for old in "$VM_CACHE"/kernel-*; do
  [ "$old" = "$dir" ] || { vm_log "removing the older $old"; rm -rf "$old"; }
done
echo "$dir/vmlinuz"
echo "$dir/udmabuf.ko"
