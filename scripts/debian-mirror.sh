#!/usr/bin/env bash
# Prints the Debian archive mirror this machine uses, for scripts/wine10-root.sh (mmdebstrap):
# no archive address is written into extmem's tree, so a machine whose apt sources name a local
# mirror, a caching proxy (apt-cacher-ng) or a CI cache makes the root from there, as its own
# apt does.
#   scripts/debian-mirror.sh         this machine's mirror
#   scripts/debian-mirror.sh ROOT    the mirror of the apt sources under ROOT (ROOT/etc/apt/...,
#                                    ROOT/etc/os-release): what the tests use
#   EXTMEM_DEBIAN_MIRROR=URI         this mirror, whatever the sources say
# The mirror is the first URI of the first `deb` entry for Debian's main archive, in the order
# apt reads its sources: sources.list, then sources.list.d/*.list and *.sources by name (one-line
# and deb822 formats). Debian's main archive is told by its suites: a Debian release's codename
# or alias (bookworm, trixie, stable, sid; the machine's own codename where /etc/os-release says
# Debian), with or without -updates, -backports or -proposed-updates, and the `main`
# component. The security archive (-security) and other repositories are not it; an Ubuntu
# machine has no such entry and needs EXTMEM_DEBIAN_MIRROR. The URI goes to stdout, where it was
# found to stderr; no mirror found is exit status 1 with a message naming the variable.
set -euo pipefail

root=${1:-}

if [ -n "${EXTMEM_DEBIAN_MIRROR:-}" ]; then
  # A URI is one word with a scheme (http://, https://, file:/, mirror+file:/): the value is
  # written into an apt sources line, where a space would start another field.
  if ! [[ $EXTMEM_DEBIAN_MIRROR =~ ^[a-z][a-z0-9+.-]*:[^[:space:]]+$ ]]; then
    echo "debian-mirror: EXTMEM_DEBIAN_MIRROR='$EXTMEM_DEBIAN_MIRROR' is not a URI (e.g. http://<mirror>/debian)" >&2
    exit 1
  fi
  echo "debian-mirror: $EXTMEM_DEBIAN_MIRROR (EXTMEM_DEBIAN_MIRROR)" >&2
  printf '%s\n' "$EXTMEM_DEBIAN_MIRROR"
  exit 0
fi

# Where apt reads its sources: apt's own configuration says (Dir::Etc::SourceList and
# SourceParts) for this machine; under ROOT, the default places.
if [ -z "$root" ] && command -v apt-config >/dev/null; then
  list="" parts=""
  eval "$(apt-config shell list Dir::Etc::SourceList/f parts Dir::Etc::SourceParts/d)"
else
  list=$root/etc/apt/sources.list parts=$root/etc/apt/sources.list.d
fi
files=()
[ -z "$list" ] || [ ! -f "$list" ] || files+=("$list")
if [ -n "$parts" ] && [ -d "$parts" ]; then
  while IFS= read -r -d '' f; do
    files+=("$f")
  done < <(find "$parts" -maxdepth 1 -type f \( -name '*.list' -o -name '*.sources' \) -print0 | LC_ALL=C sort -z)
fi

# This machine's codename when it is Debian: a release newer than the names below.
codename=""
if [ -r "$root/etc/os-release" ]; then
  codename=$(
    # shellcheck disable=SC1091 # os-release is the machine's
    . "$root/etc/os-release"
    [ "${ID:-}" = debian ] && printf '%s' "${VERSION_CODENAME:-}"
  ) || codename=""
fi

for f in "${files[@]}"; do
  case $f in *.sources) format=deb822 ;; *) format=oneline ;; esac
  uri=$(awk -v format="$format" -v codename="$codename" '
    function debian_suite(s, base) {
      if (s ~ /-security$/ || s ~ /\//) return 0
      base = s
      sub(/-(updates|backports|backports-sloppy|proposed-updates)$/, "", base)
      return base ~ /^(stable|oldstable|oldoldstable|testing|unstable|sid|experimental|rc-buggy|bullseye|bookworm|trixie|forky|duke)$/ ||
        (codename != "" && base == codename)
    }
    function has(list, word, n, a, i) {
      n = split(list, a, /[ \t]+/)
      for (i = 1; i <= n; i++) if (a[i] == word) return 1
      return 0
    }
    function any_debian(list, n, a, i) {
      n = split(list, a, /[ \t]+/)
      for (i = 1; i <= n; i++) if (debian_suite(a[i])) return 1
      return 0
    }
    # deb822: a stanza of Field: value lines (continued on lines that start with a blank),
    # stanzas apart by empty lines, comment lines ignored; names are not case-sensitive.
    function stanza_end(n, a) {
      if (f["types"] != "" && has(f["types"], "deb") && tolower(f["enabled"]) != "no" &&
          any_debian(f["suites"]) && has(f["components"], "main")) {
        n = split(f["uris"], a, /[ \t]+/)
        if (n > 0 && a[1] != "") { print a[1]; found = 1; exit }
      }
      delete f
      field = ""
    }
    format == "deb822" {
      if ($0 ~ /^#/) next
      if ($0 ~ /^[ \t]*$/) { stanza_end(); next }
      if ($0 ~ /^[ \t]/) {
        if (field != "") { v = $0; gsub(/^[ \t]+|[ \t]+$/, "", v); f[field] = (f[field] == "" ? v : f[field] " " v) }
        next
      }
      i = index($0, ":")
      if (i == 0) next
      field = tolower(substr($0, 1, i - 1))
      v = substr($0, i + 1); gsub(/^[ \t]+|[ \t]+$/, "", v)
      f[field] = v
      next
    }
    # One-line: deb [options] URI suite component...; a # starts a comment.
    format == "oneline" {
      sub(/#.*/, "")
      if ($1 != "deb") next
      i = 2
      if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
      uri = $(i); suite = $(i + 1)
      if (uri == "" || suite == "" || !debian_suite(suite)) next
      for (j = i + 2; j <= NF; j++) if ($j == "main") { print uri; exit }
    }
    END { if (format == "deb822" && !found) stanza_end() }
  ' "$f")
  if [ -n "$uri" ]; then
    echo "debian-mirror: $uri (from $f)" >&2
    printf '%s\n' "$uri"
    exit 0
  fi
done

echo "debian-mirror: no Debian archive among apt's sources (${files[*]:-none}): set EXTMEM_DEBIAN_MIRROR to a Debian mirror's URI (e.g. http://<mirror>/debian)" >&2
exit 1
