#!/usr/bin/env bash
# Runs probe.c on the GPU machine (the device tool, with .gl carried for the Vulkan loader and
# headers, as docs/probes/surface/run-timeline.sh does): output probe.out. The device tool sends
# the session's main checkout, not a helper's worktree, so the sources went over as base64
# chunks appended to /tmp/xi/p.b64 (xz'd tar of probe.c and run.sh), then:
#   d=/tmp/xi/p; mkdir -p $d; base64 -d /tmp/xi/p.b64 | xz -d | tar xf - -C $d; bash $d/run.sh
cd "$(dirname "$0")"
gl=$(pwd)/../../../../.gl
[ -d "$gl" ] || gl=$(cd ~- && pwd)/.gl   # run from the repository root with $d elsewhere
for f in "$gl"/*.deb; do dpkg -x "$f" /; done; ldconfig
icd=$(ls /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json 2>/dev/null | head -1)
echo "# Vulkan ICD: ${icd:-none found}"
[ -n "$icd" ] && export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd
gcc -std=gnu11 -Wall probe.c -I"$gl/include" -I/usr/local/cuda/include -l:libvulkan.so.1 -lcuda -o /tmp/extimg_probe &&
  timeout 120 /tmp/extimg_probe
