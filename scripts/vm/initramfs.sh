#!/usr/bin/env bash
# Builds the dma-buf VM test's initramfs: busybox (Debian's busybox-static), /init
# (scripts/vm/init), the udmabuf module and the test programs, each as /bin/extmem-test-NAME.
#   initramfs.sh OUT.cpio.gz UDMABUF.KO PROGRAM...
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/vm/common.sh
. "$here/common.sh"
out=$1 ko=$2
shift 2

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
for p in "$@"; do
  name=$(basename "$p")
  cp "$p" "$stage/bin/extmem-test-$name"
  strip --strip-debug "$stage/bin/extmem-test-$name" 2>/dev/null || true
done
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
