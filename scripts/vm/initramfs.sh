#!/usr/bin/env bash
# Builds the dma-buf VM test's initramfs: busybox (Debian's busybox-static), /init
# (scripts/vm/init), the udmabuf module and the test programs, each as /bin/extmem-test-NAME.
#   initramfs.sh OUT.cpio.gz UDMABUF.KO [--file PATH]... PROGRAM...
# A PROGRAM may be a script (run by busybox sh) or a dynamically linked program. Each --file
# PATH is put at the same absolute path in the VM (the files a script runs, a Vulkan driver's
# or layer's manifest and library); every dynamically linked file, PROGRAM or --file, brings the
# loader and the libraries it needs, each at the path the host's loader resolves it to (ldd).
# The VM has no ld.so.cache: the loader searches its default folders, where they are put.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/vm/common.sh
. "$here/common.sh"
out=$1 ko=$2
shift 2
files=()
while [ "${1:-}" = "--file" ]; do
  files+=("$2")
  shift 2
done

busybox=$(command -v busybox || true)
[ -x /bin/busybox ] && busybox=/bin/busybox
[ -n "$busybox" ] || vm_die "busybox is missing (Debian: busybox-static)"
file -L "$busybox" 2>/dev/null | grep -q 'dynamically linked' &&
  vm_die "$busybox is dynamically linked: the initramfs needs busybox-static"
command -v cpio >/dev/null || vm_die "cpio is missing"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,lib,dev,proc,sys,tmp}
cp "$busybox" "$stage/bin/busybox"
cp "$here/init" "$stage/init"
chmod 755 "$stage/init"
[ -s "$ko" ] && cp "$ko" "$stage/lib/udmabuf.ko" # empty: the kernel has udmabuf built in
# A file at its own absolute path in the stage (once), with what the loader needs for it.
declare -A staged=()
put() {
  local path=$1
  [ -n "${staged[$path]:-}" ] && return 0
  staged[$path]=1
  [ -e "$path" ] || vm_die "$path (for the initramfs) does not exist"
  mkdir -p "$stage$(dirname "$path")"
  cp -L "$path" "$stage$path"
  needs "$path"
}
# The loader and libraries of a dynamically linked file, as `ldd` resolves them here.
needs() {
  file -L "$1" 2>/dev/null | grep -q 'dynamically linked' || return 0
  local line lib
  while read -r line; do
    case $line in
      *"=> not found"*) vm_die "$1 needs ${line%% *}, which the loader does not find here" ;;
      *"=> /"*) lib=${line#*=> }; lib=${lib%% (*} ;;
      /*) lib=${line%% (*} ;;
      *) continue ;;
    esac
    put "$lib"
  done < <(ldd "$1")
}
for f in ${files[@]+"${files[@]}"}; do
  put "$f"
done
for p in "$@"; do
  name=$(basename "$p")
  cp "$p" "$stage/bin/extmem-test-$name"
  strip --strip-debug "$stage/bin/extmem-test-$name" 2>/dev/null || true
  needs "$p"
done
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
