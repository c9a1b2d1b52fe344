#!/bin/sh
# xvfb_screenshot.sh [options] -- PROGRAM [ARGS...]: runs a windowed program on an X server of
# its own (Xvfb) and compares the screenshot it writes with a reference image.
#
#   --screenshot FILE   where the program writes its screenshot (a binary PPM); the program is
#                       given "--screenshot FILE" after its own arguments
#   --reference FILE    the image it must equal (binary PPM)
#   --tolerance N       the largest difference allowed in any channel of any pixel (default 0)
#   --timeout S         the program's time limit in seconds (default 120): past it, it is sent
#                       SIGTERM, then SIGKILL 5 seconds later
#   --screen WxHxD      the X screen (default 1024x768x24)
#
# The display is private: Xvfb picks a free display number itself and says which (-displayfd),
# so parallel tests never share one, and it listens on no TCP port. Xvfb, the program and the
# temporary files go when the script ends, however it ends. Exit status: 0 when the program
# passed and the images match; the program's status when it failed; 1 when the images differ;
# 77 (a skip, never a pass) when there is no Xvfb here.
set -u
screenshot="" reference="" tolerance=0 timeout_s=120 screen=1024x768x24
die() {
  echo "xvfb_screenshot.sh: $*" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case $1 in
    --screenshot) screenshot=$2; shift 2 ;;
    --reference) reference=$2; shift 2 ;;
    --tolerance) tolerance=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --screen) screen=$2; shift 2 ;;
    --) shift; break ;;
    *) die "unknown option '$1'" ;;
  esac
done
[ $# -gt 0 ] || die "no program after --"
[ -n "$screenshot" ] && [ -n "$reference" ] || die "--screenshot and --reference are required"
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)

xvfb=$(command -v Xvfb) || {
  echo "skipped: no Xvfb here (Debian/Ubuntu: apt-get install xvfb; scripts/deps.sh installs it)"
  exit 77
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xvfb-screenshot.XXXXXX") || die "mktemp failed"
xvfb_pid=""
cleanup() {
  if [ -n "$xvfb_pid" ]; then
    kill "$xvfb_pid" 2>/dev/null
    wait "$xvfb_pid" 2>/dev/null
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# Xvfb writes the display number it chose to fd 3 once it accepts connections.
"$xvfb" -displayfd 3 -screen 0 "$screen" -nolisten tcp -noreset 3>"$tmp/display" >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
waited=0
while ! grep -q '[0-9]' "$tmp/display" 2>/dev/null; do
  if ! kill -0 "$xvfb_pid" 2>/dev/null; then
    echo "xvfb_screenshot.sh: Xvfb exited before it was ready:" >&2
    cat "$tmp/xvfb.log" >&2
    exit 1
  fi
  [ $waited -lt 300 ] || { echo "xvfb_screenshot.sh: Xvfb not ready after 30 s" >&2; exit 1; }
  sleep 0.1
  waited=$((waited + 1))
done
DISPLAY=:$(tr -dc '0-9' <"$tmp/display")
export DISPLAY
echo "xvfb_screenshot.sh: Xvfb (pid $xvfb_pid) on display $DISPLAY, screen $screen"

rm -f "$screenshot"
timeout -k 5 "$timeout_s" "$@" --screenshot "$screenshot"
status=$?
case $status in
  0) ;;
  124 | 137) echo "xvfb_screenshot.sh: FAILED: the program ran past its $timeout_s s limit"; exit 1 ;;
  *) echo "xvfb_screenshot.sh: FAILED: the program exited with status $status"; exit "$status" ;;
esac
[ -f "$screenshot" ] || { echo "xvfb_screenshot.sh: FAILED: the program wrote no $screenshot"; exit 1; }
python3 "$here/compare_ppm.py" --tolerance "$tolerance" --diff "$screenshot.diff.ppm" "$screenshot" "$reference"
