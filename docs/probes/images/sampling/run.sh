#!/bin/sh
# Runs the sampling probe on the GPU machine (H100): sampling.out is its output, faults.out the
# fault cases, each in a process of its own.
cd "$(dirname "$0")"
nvcc -arch=sm_90 -o /tmp/sampling_probe sampling_probe.cu -lcuda || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
/tmp/sampling_probe > "${OUT:-.}/sampling.out" 2>&1
echo "sampling rc=$?"
for f in suld_trap suld_trap_y suld_trap_neg suld_unaligned sust_trap sured_trap tex_destroyed tex_forged tex_zero \
         suld_destroyed suld_on_tex tex_on_surf txq_destroyed; do
    timeout 60 /tmp/sampling_probe $f
done > "${OUT:-.}/faults.out" 2>&1
cat "${OUT:-.}/faults.out"
