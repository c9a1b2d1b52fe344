#!/usr/bin/env bash
# A Debian trixie root with wine 10, Mesa's Vulkan drivers (lavapipe, under wine's vkd3d), Xvfb
# and ctest: where scripts/test-wine10.sh runs the mingw build's tests, because wine 10 has the
# placeholder calls (VirtualAlloc2 with MEM_RESERVE_PLACEHOLDER) that bookworm's wine 8 refuses.
#   scripts/wine10-root.sh     makes the root if it is not cached, and prints its path
# The root is a directory, ~/.cache/extmem-wine10/root-<key>, where the key is a hash of this
# script: a change here makes a new root (and removes the old ones). Made with mmdebstrap in 40
# to 105 seconds on the 2-core VM; 1.3 GB (and the wine prefix that scripts/test-wine10.sh makes
# in it, 0.8 GB). The packages come from the Debian mirror this machine's apt uses
# (scripts/debian-mirror.sh: its apt sources, or EXTMEM_DEBIAN_MIRROR), through apt's proxy
# settings here, so a local mirror, a caching proxy or a CI cache serves them as it serves apt.
set -euo pipefail
cd "$(dirname "$0")/.."

cache=${XDG_CACHE_HOME:-$HOME/.cache}/extmem-wine10
key=$(sha256sum scripts/wine10-root.sh | cut -c1-16)
root=$cache/root-$key
if [ -f "$root/.extmem-complete" ]; then
  echo "$root"
  exit 0
fi

# Where the packages come from: found before anything is installed, so that a machine with no
# Debian mirror stops here, saying to set EXTMEM_DEBIAN_MIRROR.
mirror=$(scripts/debian-mirror.sh)

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
  echo "== extmem: making the wine 10 root $root (Debian trixie from $mirror, mmdebstrap)" >&2
  $sudo rm -rf "$cache"/root-* # older keys, and a half-made one of this key
  # mmdebstrap's apt reads its configuration from the new root (its Dir), not from this
  # machine's /etc/apt: the proxy settings of this machine's apt (an apt-cacher-ng, a CI
  # proxy) are handed to it for the making only, appended by a setup hook to mmdebstrap's
  # temporary apt configuration, so that nothing of them (a proxy's password) stays in the root;
  # the log names the settings, not their values. Proxies in the environment (http_proxy) reach
  # apt as they reach mmdebstrap (through sudo, as far as its policy keeps them).
  proxy=$(mktemp "${TMPDIR:-/tmp}/extmem-wine10-apt.XXXXXX")
  trap 'rm -f "$proxy"' EXIT
  apt-config dump Acquire::http::Proxy Acquire::https::Proxy Acquire::ftp::Proxy \
    Acquire::http::Proxy-Auto-Detect Acquire::https::Proxy-Auto-Detect Acquire::http::ProxyAutoDetect >"$proxy"
  [ ! -s "$proxy" ] || echo "   apt's proxy settings, for the making: $(cut -d' ' -f1 "$proxy" | tr '\n' ' ')" >&2
  # What the tests need: wine (64-bit), Mesa's lavapipe and the Vulkan loader for vkd3d, Xvfb
  # for an X server, cmake for ctest. No documentation, manual pages or translations. The
  # mirror goes as a sources line, which mmdebstrap takes whatever the URI's form (file:/,
  # mirror+file:/ as well as http://).
  # shellcheck disable=SC2016 # the hook's variables are its own
  $sudo env EXTMEM_APT_PROXY="$proxy" mmdebstrap --variant=apt --mode=root \
    --include=wine,wine64,mesa-vulkan-drivers,libvulkan1,xvfb,cmake \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --setup-hook='cat "$EXTMEM_APT_PROXY" >>"$MMDEBSTRAP_APT_CONFIG"' \
    trixie "$root.tmp" "deb $mirror trixie main" >&2
  $sudo touch "$root.tmp/.extmem-complete"
  $sudo mv "$root.tmp" "$root"
fi
echo "$root"
