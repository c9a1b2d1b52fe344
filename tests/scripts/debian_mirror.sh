#!/usr/bin/env bash
# debian_mirror.sh SCRIPT WORK_DIR: scripts/debian-mirror.sh (the mirror scripts/wine10-root.sh
# makes its Debian root from) on sample apt sources, each in a root of its own under WORK_DIR:
# the one-line format (sources.list, sources.list.d/*.list) and deb822 (*.sources), the
# security archive and other repositories passed over, apt's reading order, EXTMEM_DEBIAN_MIRROR
# over everything, and no mirror at all refused with a message naming the variable. The hosts
# are made-up names (.example): nothing is fetched.
set -euo pipefail
script=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
unset EXTMEM_DEBIAN_MIRROR
failures=0 checks=0

# A root with the given files: root NAME then pairs of PATH CONTENT (PATH under etc/).
root() {
  local dir=$work/$1
  shift
  mkdir -p "$dir/etc/apt/sources.list.d"
  while [ $# -gt 0 ]; do
    printf '%s' "$2" >"$dir/etc/$1"
    shift 2
  done
}
# expect NAME WANT [ENV...]: the script on root NAME prints WANT (a URI) and exits 0, or, with
# WANT "fail", exits 1 saying EXTMEM_DEBIAN_MIRROR.
expect() {
  local name=$1 want=$2 out err status
  shift 2
  checks=$((checks + 1))
  status=0
  out=$(env "$@" "$script" "$work/$name" 2>"$work/$name.err") || status=$?
  err=$(cat "$work/$name.err")
  if [ "$want" = fail ]; then
    if [ $status -eq 1 ] && [ -z "$out" ] && [[ $err == *EXTMEM_DEBIAN_MIRROR* ]]; then
      echo "ok: $name: refused: $err"
      return
    fi
  elif [ $status -eq 0 ] && [ "$out" = "$want" ]; then
    echo "ok: $name: $out ($err)"
    return
  fi
  echo "FAILED: $name: expected $want; got status $status, output '$out', messages: $err"
  failures=$((failures + 1))
}

# This machine's kind (Debian 12's image): the main archive, then the security archive.
root deb822 apt/sources.list.d/debian.sources 'Types: deb
# a comment line inside the stanza
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://mirror.example/debian-security
Suites: bookworm-security
Components: main
'
expect deb822 http://mirror.example/debian

# deb822: the security archive first, a disabled stanza, a deb-src stanza, field names in
# other cases, URIs continued on the next line (the first is taken), no final empty line.
root deb822-order apt/sources.list.d/all.sources 'Types: deb
URIs: http://security.example/debian-security
Suites: trixie-security
Components: main

Types: deb
Enabled: no
URIs: http://disabled.example/debian
Suites: trixie
Components: main

Types: deb-src
URIs: http://source.example/debian
Suites: trixie
Components: main

types: deb deb-src
uris:
 http://first.example/debian
 http://second.example/debian
suites: trixie trixie-updates
components: main contrib non-free-firmware'
expect deb822-order http://first.example/debian

# One-line format: comments, deb-src, options in brackets (with and without spaces), the
# security archive, a repository of another distribution's suite.
root oneline apt/sources.list '# deb http://commented.example/debian bookworm main
deb-src http://source.example/debian bookworm main
deb [signed-by=/usr/share/keyrings/x.gpg] http://security.example/debian-security bookworm-security main
deb https://nodesource.example/node_20.x nodistro main
deb [ arch=amd64 trusted=yes ] http://cache.example:3142/debian bookworm-updates main contrib # a proxy
deb http://later.example/debian bookworm main
'
expect oneline http://cache.example:3142/debian

# A suite alias, and a component list without main (passed over).
root aliases apt/sources.list 'deb http://contrib-only.example/debian stable contrib
deb file:/srv/mirror/debian unstable main
'
expect aliases file:/srv/mirror/debian

# apt's order: sources.list first, then sources.list.d by name, .list and .sources alike;
# other files there (a .disabled one, a .save) are not apt's.
root order apt/sources.list '' \
  apt/sources.list.d/b.sources 'Types: deb
URIs: http://b.example/debian
Suites: bookworm
Components: main
' \
  apt/sources.list.d/a.list 'deb http://a.example/debian bookworm main
' \
  apt/sources.list.d/0.list.disabled-by-farm 'deb http://disabled.example/debian bookworm main
' \
  apt/sources.list.d/0.sources.save 'Types: deb
URIs: http://saved.example/debian
Suites: bookworm
Components: main
'
expect order http://a.example/debian
root order-list apt/sources.list 'deb http://list.example/debian trixie main
' apt/sources.list.d/a.list 'deb http://a.example/debian bookworm main
'
expect order-list http://list.example/debian

# A Debian release newer than the names the script knows: its codename counts where
# /etc/os-release says the machine is Debian, and not elsewhere.
root newer apt/sources.list 'deb http://newer.example/debian futurename main
' os-release 'ID=debian
VERSION_CODENAME=futurename
'
expect newer http://newer.example/debian
root newer-elsewhere apt/sources.list 'deb http://newer.example/debian futurename main
' os-release 'ID=ubuntu
VERSION_CODENAME=futurename
'
expect newer-elsewhere fail

# An Ubuntu machine: Ubuntu's archive is not Debian's; nothing at all; then the variable.
root ubuntu apt/sources.list.d/ubuntu.sources 'Types: deb
URIs: http://archive.example/ubuntu/
Suites: noble noble-updates noble-backports
Components: main universe restricted multiverse

Types: deb
URIs: http://security.example/ubuntu/
Suites: noble-security
Components: main universe restricted multiverse
' os-release 'ID=ubuntu
VERSION_CODENAME=noble
'
expect ubuntu fail
root empty
expect empty fail
expect ubuntu http://override.example/debian EXTMEM_DEBIAN_MIRROR=http://override.example/debian
expect deb822 http://override.example/debian EXTMEM_DEBIAN_MIRROR=http://override.example/debian
# A value that is not one word with a scheme is refused, naming the variable.
expect deb822 fail "EXTMEM_DEBIAN_MIRROR=http://a.example/debian bookworm"
expect deb822 fail EXTMEM_DEBIAN_MIRROR=mirror.example/debian

echo "debian_mirror: $((checks - failures)) of $checks checks passed"
[ $failures -eq 0 ]
