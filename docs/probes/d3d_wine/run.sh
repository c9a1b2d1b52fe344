#!/bin/sh
# Build d3d_probe.exe with mingw-w64 and run it under wine on a private Xvfb display.
#
#   docs/probes/d3d_wine/run.sh [BUILD_DIR]      (default /tmp/d3d_probe_build)
#
# Needs: mingw-w64 (x86_64-w64-mingw32-gcc-posix), wine64 8.x, xvfb.  Each section runs as its own
# wine process under `timeout 120`, so a hang or crash in one (say d3d12 on lavapipe) does not hide
# the others.  A last pass repeats "all" with wine's err/fixme channels on (stderr kept apart) to
# show what wine itself says about the calls.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-/tmp/d3d_probe_build}
mkdir -p "$build"

export WINEPREFIX=${WINEPREFIX:-/tmp/d3dprobe-wine}
export WINEDLLOVERRIDES="mscoree,mshtml="
export WINEDEBUG=-all
WINE=$(command -v wine64 || command -v wine || echo /usr/lib/wine/wine64)

echo "== build"
x86_64-w64-mingw32-gcc-posix -std=c11 -O1 -Wall -idirafter /usr/include -o "$build/d3d_probe.exe" "$here/d3d_probe.c" -lole32 || exit 1

# a free X display number, from :93 up
dpy=93
while [ -e "/tmp/.X$dpy-lock" ] || [ -e "/tmp/.X11-unix/X$dpy" ]; do dpy=$((dpy + 1)); done
Xvfb ":$dpy" -screen 0 1024x768x24 -nolisten tcp >"$build/xvfb.log" 2>&1 &
xvfb_pid=$!
trap 'kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null' EXIT INT TERM
i=0
while [ ! -e "/tmp/.X11-unix/X$dpy" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
export DISPLAY=":$dpy"
echo "== Xvfb pid $xvfb_pid on $DISPLAY; wine: $WINE ($($WINE --version 2>/dev/null)); WINEPREFIX=$WINEPREFIX"

if [ ! -f "$WINEPREFIX/system.reg" ]; then
    echo "== creating the wine prefix (wineboot -i)"
    timeout 300 "$WINE" wineboot -i >/dev/null 2>&1
    "$(dirname "$WINE")/wineserver" -w 2>/dev/null || wineserver -w 2>/dev/null || true
fi

for section in env dxgi d3d11 d3d12 vulkan interop; do
    echo "== wine d3d_probe.exe $section"
    timeout 120 "$WINE" "$build/d3d_probe.exe" "$section" 2>"$build/stderr-$section.txt"
    rc=$?
    echo "== exit status $rc$( [ $rc -eq 124 ] && echo ' (timeout 120 s)')"
    [ -s "$build/stderr-$section.txt" ] && sed 's/^/   stderr: /' "$build/stderr-$section.txt" | head -20
done

echo "== wined3d's Vulkan renderer instead of OpenGL (HKCU\\Software\\Wine\\Direct3D renderer=vulkan): dxgi, d3d11"
"$WINE" reg add 'HKCU\Software\Wine\Direct3D' /v renderer /d vulkan /f >/dev/null 2>&1
for section in dxgi d3d11; do
    timeout 120 "$WINE" "$build/d3d_probe.exe" "$section" 2>/dev/null | grep -E 'GetDesc1|CreateDevice|EnumWarp|OpenShared|STAGING' | sed 's/^/   renderer=vulkan: /'
done
"$WINE" reg delete 'HKCU\Software\Wine\Direct3D' /v renderer /f >/dev/null 2>&1

echo "== diagnostic pass: WINEDEBUG=err+all,fixme+all,trace+d3d12 wine d3d_probe.exe all (stdout discarded)"
WINEDEBUG=err+all,fixme+all,trace+d3d12 timeout 120 "$WINE" "$build/d3d_probe.exe" all >/dev/null 2>"$build/stderr-diag.txt"
echo "== exit status $?"
sed 's/^[0-9a-f]*://; s/\(iface\|object\|handle\|adapter\|device\|shared_handle\|resource\|out\) [0-9A-Fa-f]\{8,16\}/\1 .../g' \
    "$build/stderr-diag.txt" | sort | uniq -c | sort -rn | head -60
"$(dirname "$WINE")/wineserver" -k 2>/dev/null || true
