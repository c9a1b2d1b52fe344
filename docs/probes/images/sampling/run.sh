#!/bin/sh
# Runs the sampling probe on the GPU machine (H100, driver 580.159.04, CUDA 13.0): sampling.out
# is its output, faults.out the fault cases, each in a process of its own.
#
# The GPU machine's copy of the tree is the main checkout's, not this worktree's: the probe and
# this script were sent as an xz'd tar in base64 chunks of a few KiB (one printf >> file per
# call), unpacked into a folder of their own and run there. A first run failed every launch
# with cudaErrorNotSupported: the module held txq queries the driver does not load
# (channel_data_type and the like), so the queries are now PTX modules of their own, loaded one
# by one through the driver API (sampling.out records which ones load). The surface section did
# not run (a linear texture with the default descriptor is cudaErrorInvalidNormSetting, which
# ended the program before it); the corpus (tests/cuda/textures.cu, run2.sh) covers surfaces.
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
