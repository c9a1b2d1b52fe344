#!/usr/bin/env bash
# Runs timeline_probe.c on the GPU machine (the device tool), with the Vulkan loader carried in
# .gl (see the device tool's README), and managed_probe.c: output probe3.out.
cd "$(dirname "$0")"
root=$(cd ../../.. && pwd)
for f in "$root"/.gl/*.deb; do dpkg -x "$f" /; done; ldconfig
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
echo "# Vulkan ICD: ${icd:-none found}"
[ -n "$icd" ] && export VK_DRIVER_FILES=$icd
gcc -std=gnu11 timeline_probe.c -I"$root/.gl/include" -I/usr/local/cuda/include -l:libvulkan.so.1 -lcuda -o /tmp/timeline_probe &&
  timeout 60 /tmp/timeline_probe
[ -n "${SKIP_MANAGED:-}" ] || gcc -std=gnu11 managed_probe.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcuda -lcudart -o /tmp/managed_probe &&
  LD_LIBRARY_PATH=/usr/local/cuda/lib64 timeout 60 /tmp/managed_probe
