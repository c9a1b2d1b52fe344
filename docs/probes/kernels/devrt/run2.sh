#!/bin/bash
# The second device run of part "devrt": bash .probes/devrt/run2.sh (from the repository root).
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu2.txt 2>&1
( timeout 60 ./device_runtime ) > $OUT/device_runtime.out 2> $OUT/device_runtime.err; echo "rc $?" >> $OUT/device_runtime.err
{ for m in $(seq 1 31); do timeout 20 ./devrt_probe api $m; echo "rc $?"; done; } > $OUT/api.out 2>&1
{
  timeout 20 ./devrt_probe pend; echo "rc $?"
  for a in "300 0" "300 1" "2100 0" "2100 1"; do timeout 60 ./devrt_probe nest $a; echo "rc $?"; done
  timeout 30 ./devrt_probe nest 100 1 5; echo "rc $?"
  timeout 30 ./devrt_probe nest 100 2 5; echo "rc $?"
} > $OUT/launch2.out 2>&1
cat $OUT/device_runtime.out $OUT/device_runtime.err; tail -c 5000 $OUT/api.out; cut -c1-300 $OUT/launch2.out
