#!/usr/bin/env bash
# no_archive_address.sh SOURCE_DIR: no Debian or Ubuntu archive address in what the scripts and
# the action run (scripts/, action.yml). The Debian mirror is the machine's
# (scripts/debian-mirror.sh: its apt sources, or EXTMEM_DEBIAN_MIRROR), so that a local mirror,
# a caching proxy or a CI cache serves a machine that has one.
set -euo pipefail
cd "$1"
if grep -rnIE "(https?|ftp)://[^[:space:]'\"]*(debian\.(org|net)|ubuntu\.com)" scripts action.yml; then
  echo "FAILED: an archive address, above: take the mirror from the machine (scripts/debian-mirror.sh)"
  exit 1
fi
echo "no archive address in scripts/ or action.yml"
