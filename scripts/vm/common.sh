# shellcheck shell=bash
# Shared by the scripts of the dma-buf VM test (sourced, not run).
VM_CACHE=${EXTMEM_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/extmem-vm}

vm_log() { echo "vm: $*" >&2; }
vm_die() {
  echo "vm: error: $*" >&2
  exit 2
}
# Exit status 77: ctest reports the test as skipped (SKIP_RETURN_CODE).
vm_skip() {
  echo "vm: skipped: $*" >&2
  exit 77
}

# The kernel ABI to boot (6.1.0-56-amd64): EXTMEM_VM_KERNEL, else the one Debian's
# linux-image-amd64 depends on now, else (apt knows none, as on a machine without package
# lists) the newest kernel already in the cache.
vm_kernel_abi() {
  if [ -n "${EXTMEM_VM_KERNEL:-}" ]; then
    echo "$EXTMEM_VM_KERNEL"
    return
  fi
  local abi
  abi=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: linux-image-\([0-9].*-amd64\)$/\1/p' | head -1)
  if [ -z "$abi" ] && command -v apt-get >/dev/null; then
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -q >&2 || true
    abi=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: linux-image-\([0-9].*-amd64\)$/\1/p' | head -1)
  fi
  if [ -z "$abi" ]; then
    local cached
    cached=$(ls -d "$VM_CACHE"/kernel-*/.complete 2>/dev/null | sed 's|/.complete$||; s|.*/kernel-||' | sort -V | tail -1)
    if [ -z "$cached" ]; then
      # The test boots Debian's kernel packages: elsewhere (Ubuntu) there are none to fetch.
      grep -qs '^ID=debian' /etc/os-release ||
        vm_skip "the VM test boots Debian's kernel (linux-image-amd64), which this system's apt does not have"
      vm_die "no Debian kernel package is known (linux-image-amd64) and none is cached in $VM_CACHE"
    fi
    abi=$cached
  fi
  echo "$abi"
}
