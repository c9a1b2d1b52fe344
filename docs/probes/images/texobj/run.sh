#!/bin/sh
# The command run on the device machine (one H100, driver 580): builds the probe against
# NVIDIA's headers and runs each section in its own process (a section that crashes the driver
# loses only itself); the output is texobj_probe.out.
cd "$(dirname "$0")"
gcc -O0 -Wno-deprecated-declarations -I/usr/local/cuda/include texobj_probe.c -L/usr/local/cuda/lib64/stubs -lcuda -lm -o /tmp/texobj_probe || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for s in ${SECTIONS:-1 2 3 4 5 6 7 8 9 10 11}; do echo "#### section $s"; /tmp/texobj_probe $s; echo "#### section $s exit $?"; done
# texobj_probe.extmem.out: the same program, built here against NVIDIA's headers, run against
# extmem's drop-in:  for s in 1 ... 11; do LD_LIBRARY_PATH=build/libcuda ./texobj_probe $s; done
