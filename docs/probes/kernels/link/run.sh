#!/bin/bash
# The one device run of part "link": bash .probes/link/run.sh (from the repository root).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt 2>&1
( timeout 60 ./link_probe . ) > $OUT/link_probe.out 2>&1; echo "rc $?" >> $OUT/link_probe.out
{
  timeout 30 ./heap_probe 0; echo "rc $?"
  for m in 1 2 3 4 5 6 7; do timeout 30 ./heap_probe $m; echo "rc $?"; done
} > $OUT/heap_probe.out 2>&1
( timeout 30 ./device_heap ) > $OUT/device_heap.out 2>&1; echo "rc $?" >> $OUT/device_heap.out
{ timeout 30 ./rdc; echo "rc $?"; echo "== ptx only"; timeout 60 ./rdc_ptx; echo "rc $?"; echo "== multi"; timeout 30 ./multi_rdc; echo "rc $?"; } > $OUT/rdc.out 2>&1
cat $OUT/*.out | head -c 11000
