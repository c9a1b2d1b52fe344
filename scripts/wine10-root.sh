#!/usr/bin/env bash
# A Debian trixie root with wine 10, Mesa's Vulkan drivers (lavapipe, under wine's vkd3d), Xvfb
# and ctest: where scripts/test-wine10.sh runs the mingw build's tests, because wine 10 has the
# placeholder calls (VirtualAlloc2 with MEM_RESERVE_PLACEHOLDER) that bookworm's wine 8 refuses.
#   scripts/wine10-root.sh     makes the root if it is not cached, and prints its path
# The root is a directory, ~/.cache/extmem-wine10/root-<key>, where the key is a hash of this
# script: a change here makes a new root (and removes the old ones). Made with mmdebstrap from
# http://deb.debian.org/debian in 40 to 105 seconds on the 2-core VM; 1.3 GB (and the wine
# prefix that scripts/test-wine10.sh makes in it, 0.8 GB).
set -euo pipefail
cd "$(dirname "$0")/.."

cache=${XDG_CACHE_HOME:-$HOME/.cache}/extmem-wine10
key=$(sha256sum scripts/wine10-root.sh | cut -c1-16)
root=$cache/root-$key
if [ -f "$root/.extmem-complete" ]; then
  echo "$root"
  exit 0
fi

# mmdebstrap through deps.sh, which waits for another package manager's locks.
# debian-archive-keyring: Ubuntu's apt has no Debian keys of its own.
scripts/deps.sh mmdebstrap debian-archive-keyring >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo" # the root's files belong to root: mmdebstrap in its root mode
mkdir -p "$cache"

# One maker at a time; runs (scripts/test-wine10.sh) hold the lock shared, so an old root is
# not removed under a run.
exec 9>>"$cache/lock"
flock 9
if [ ! -f "$root/.extmem-complete" ]; then
  echo "== extmem: making the wine 10 root $root (Debian trixie, mmdebstrap)" >&2
  $sudo rm -rf "$cache"/root-* # older keys, and a half-made one of this key
  # What the tests need: wine (64-bit), Mesa's lavapipe and the Vulkan loader for vkd3d, Xvfb
  # for an X server, cmake for ctest. No documentation, manual pages or translations.
  $sudo mmdebstrap --variant=apt --mode=root \
    --include=wine,wine64,mesa-vulkan-drivers,libvulkan1,xvfb,cmake \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    trixie "$root.tmp" http://deb.debian.org/debian >&2
  $sudo touch "$root.tmp/.extmem-complete"
  $sudo mv "$root.tmp" "$root"
fi
echo "$root"
