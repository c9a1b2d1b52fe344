#!/usr/bin/env bash
# The Windows build's tests under wine 10, where the VMM takes its real path, placeholders
# (bookworm's wine 8, in scripts/test-windows.sh, covers the fallback). scripts/test.sh calls it
# after test-windows.sh, on the build that script made: the same .exe files.
#   scripts/test-wine10.sh         the tests of build/windows (made by scripts/test-windows.sh)
#   scripts/test-wine10.sh DIR     another build folder
# The tests run inside a Debian trixie root (scripts/wine10-root.sh, cached) entered with
# chroot in mount and pid namespaces of their own: /proc, /dev and /sys of the machine, a /tmp
# of its own, and this checkout at its own path, so the build's absolute paths hold there. When
# the run ends (or this script is killed: --kill-child), every process left in the namespace
# (a wineserver, Xvfb) ends with it. Inside, test-windows.sh --tests-only runs ctest as it does
# under wine 8, with a wine prefix of its own (kept in the root) and
# EXTMEM_EXPECT_VMM=placeholders: the run fails if the fallback is used.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/windows}
repo=$(pwd)
case "$build" in /*) ;; *) build=$repo/$build ;; esac

if [ ! -f "$build/CTestTestfile.cmake" ] || [ ! -f "$build/bin/vmm_conformance_test.exe" ]; then
  echo "test-wine10: no Windows build in $build: make it with scripts/test-windows.sh $build" >&2
  exit 1
fi
root=$(scripts/wine10-root.sh)

# Held shared for the run: wine10-root.sh removes old roots only under the exclusive lock.
cache=$(dirname "$root")
exec 9>>"$cache/lock"
flock -s 9
[ -f "$root/.extmem-complete" ] || { echo "test-wine10: $root went away" >&2; exit 1; }

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
# shellcheck disable=SC2016 # the inner script's variables are its own
$sudo unshare --mount --pid --fork --kill-child --propagation private -- bash -euc '
  root=$1 repo=$2 build=$3
  mount -t proc proc "$root/proc"
  mount --rbind /dev "$root/dev"
  mount --rbind /sys "$root/sys"
  mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
  mkdir -p "$root$repo"
  mount --bind "$repo" "$root$repo"
  exec chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
    LANG=C.UTF-8 WINEPREFIX=/root/extmem-wine EXTMEM_EXPECT_VMM=placeholders \
    bash "$repo/scripts/test-windows.sh" --tests-only "$build"
' _ "$root" "$repo" "$build"
