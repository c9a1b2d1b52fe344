#!/usr/bin/env bash
# The dma-buf VM test (docs/dmabuf.md): boots Debian's kernel under qemu-system-x86_64 with a
# udmabuf module built for it (scripts/vm/kernel.sh, cached) and an initramfs holding the test
# programs (scripts/vm/initramfs.sh), and passes when /init reports PASS on the serial console.
#
#   scripts/vm/run.sh                      build the test programs into build/vm (or
#                                          EXTMEM_VM_BUILD), then run them
#   scripts/vm/run.sh --out DIR [--file PATH]... PROGRAM...
#                                          run these programs (static, dynamic or scripts, with
#                                          the files they need: scripts/vm/initramfs.sh); logs in DIR
#
# EXTMEM_VM_ACCEL=tcg|kvm (default tcg: software emulation, which every machine has),
# EXTMEM_VM_TIMEOUT seconds for the boot (default 780), EXTMEM_VM_CACHE (scripts/vm/kernel.sh).
# Exit status: 0 passed, 1 failed, 2 could not run, 77 skipped (no Debian kernel packages here).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/vm/common.sh
. "$here/common.sh"
start=$(date +%s)

out=""
if [ "${1:-}" = "--out" ]; then
  out=$2
  shift 2
fi
files=()
while [ "${1:-}" = "--file" ]; do
  files+=(--file "$2")
  shift 2
done
programs=("$@")
if [ ${#programs[@]} -eq 0 ]; then
  build=${EXTMEM_VM_BUILD:-$here/../../build/vm}
  vm_log "building the test programs in $build"
  cmake -S "$here/../.." -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEXTMEM_TESTS=ON >/dev/null
  cmake --build "$build" --target dmabuf_vm_test dmabuf_test_static >&2
  out=${out:-$build/tests/dmabuf_vm}
  programs=("$build/tests/dmabuf_vm/dmabuf_vm_test" "$build/tests/dmabuf_vm/dmabuf_test_static")
fi
out=${out:-.}
mkdir -p "$out"

qemu=$(command -v qemu-system-x86_64 || true)
[ -n "$qemu" ] || vm_die "qemu-system-x86_64 is missing (Debian: qemu-system-x86; scripts/deps.sh installs it)"

paths=$("$here/kernel.sh") || {
  rc=$?
  [ $rc -eq 77 ] && exit 77
  vm_die "scripts/vm/kernel.sh failed"
}
mapfile -t kernel <<<"$paths"
[ ${#kernel[@]} -eq 2 ] || vm_die "scripts/vm/kernel.sh printed no kernel and module"
vmlinuz=${kernel[0]} ko=${kernel[1]}
"$here/initramfs.sh" "$out/initramfs.cpio.gz" "$ko" ${files[@]+"${files[@]}"} "${programs[@]}"
prepared=$(date +%s)
vm_log "kernel $(cat "$(dirname "$vmlinuz")/VERSION"), initramfs $(du -k "$out/initramfs.cpio.gz" | cut -f1) KiB; prepared in $((prepared - start)) s"

accel=${EXTMEM_VM_ACCEL:-tcg}
log="$out/serial.log"
vm_log "booting under $accel (serial console in $log)"
limit=${EXTMEM_VM_TIMEOUT:-780}
# qemu runs in the background so that this script can stop it when it is stopped itself
# (ctest's timeout, ^C); tail streams the console meanwhile.
: >"$log.raw"
timeout --foreground -k 5 "$limit" "$qemu" -nographic -no-reboot -accel "$accel" -cpu max -smp 2 -m 1G -nic none \
  -kernel "$vmlinuz" -initrd "$out/initramfs.cpio.gz" -append 'console=ttyS0 panic=-1 quiet' </dev/null >"$log.raw" 2>&1 &
qpid=$!
tail -n +1 -f --pid="$qpid" "$log.raw" | tr -d '\r' &
tpid=$!
trap 'kill "$qpid" 2>/dev/null || true' EXIT
trap 'kill "$qpid" 2>/dev/null; exit 1' INT TERM
# A trap runs during `wait`, not during a foreground command: wait for qemu, then for tail.
set +e
wait "$qpid"
status=$?
wait "$tpid"
set -e
tr -d '\r' <"$log.raw" >"$log"
rm -f "$log.raw"
end=$(date +%s)
vm_log "the VM ran $((end - prepared)) s (qemu exit $status); $((end - start)) s in all"

grep '^EXTMEM-VM-BENCH' "$log" | sed 's/^EXTMEM-VM-BENCH: //' >"$out/bench.txt" || true
result=$(grep -a '^EXTMEM-VM-RESULT: ' "$log" | tail -1 | sed 's/^EXTMEM-VM-RESULT: //' || true)
case "$result" in
PASS)
  vm_log "PASS"
  exit 0
  ;;
"")
  [ "$status" -eq 124 ] && vm_log "FAIL: the VM did not finish in $limit s"
  vm_log "FAIL: no result line on the serial console"
  exit 1
  ;;
*)
  vm_log "$result"
  exit 1
  ;;
esac
