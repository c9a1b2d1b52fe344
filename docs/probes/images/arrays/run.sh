#!/bin/sh
# On the GPU machine, from the repository root: builds and runs array_probe.c and plane_probe.c
# against the real driver. (The device tool copies the main checkout: these outputs were made by
# sending the sources inside the command, xz | base64, and running the same steps in /tmp.)
set -x
cd docs/probes/images/arrays
gcc -std=gnu11 -O0 array_probe.c -I/usr/local/cuda/include -lcuda -o /tmp/array_probe || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
/tmp/array_probe > $OUT/array_probe.out 2>&1; echo "rc=$?" >> $OUT/array_probe.out
/tmp/array_probe destroyed >> $OUT/array_probe.out 2>&1; echo "destroyed rc=$?" >> $OUT/array_probe.out
/tmp/array_probe forged >> $OUT/array_probe.out 2>&1; echo "forged rc=$?" >> $OUT/array_probe.out
gcc -std=gnu11 -O0 plane_probe.c -I/usr/local/cuda/include -lcuda -o /tmp/plane_probe && /tmp/plane_probe > $OUT/plane_probe.out 2>&1
