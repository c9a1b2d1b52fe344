#!/usr/bin/env bash
# Runs probe.c on the GPU machine (the device tool, with .gl carried for the Vulkan loader and
# headers, as docs/probes/surface/run-timeline.sh does): output probe.out.
cd "$(dirname "$0")"
root=$(cd ../../../.. && pwd)
for f in "$root"/.gl/*.deb; do dpkg -x "$f" /; done; ldconfig
icd=$(ls /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json 2>/dev/null | head -1)
echo "# Vulkan ICD: ${icd:-none found}"
[ -n "$icd" ] && export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd
gcc -std=gnu11 -Wall probe.c -I"$root/.gl/include" -I/usr/local/cuda/include -l:libvulkan.so.1 -lcuda -o /tmp/extimg_probe &&
  timeout 120 /tmp/extimg_probe
