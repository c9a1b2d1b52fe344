#!/bin/bash
# The device run of part "devrt": bash .probes/devrt/run.sh (from the repository root).
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt 2>&1
( timeout 60 ./device_runtime ) > $OUT/device_runtime.out 2> $OUT/device_runtime.err; echo "rc $?" >> $OUT/device_runtime.err
{
  for m in $(seq 1 26); do timeout 20 ./devrt_probe free $m; echo "rc $?"; done
  timeout 20 ./devrt_probe header; echo "rc $?"
} > $OUT/free.out 2>&1
{
  for a in "30 0" "70 0" "70 1" "70 2" "300 0" "300 1"; do timeout 30 ./devrt_probe nest $a; echo "rc $?"; done
  timeout 30 ./devrt_probe nest 70 0 5; echo "rc $?"
  for a in "100 0 0" "100 0 40" "100 1 40" "100 2 40" "300 1 0"; do timeout 30 ./devrt_probe many $a; echo "rc $?"; done
  for a in "100 0 40" "100 1 40" "100 2 40" "100 0 0"; do timeout 30 ./devrt_probe copies $a; echo "rc $?"; done
  timeout 30 ./devrt_probe limits; echo "rc $?"
} > $OUT/launch.out 2>&1
( timeout 30 ./cg_probe ) > $OUT/cg.out 2>&1; echo "rc $?" >> $OUT/cg.out
tail -c 3000 $OUT/device_runtime.out; tail -c 4000 $OUT/free.out; tail -c 4000 $OUT/launch.out; cat $OUT/cg.out
