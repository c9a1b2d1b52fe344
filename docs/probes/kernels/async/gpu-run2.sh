#!/bin/sh
# Second GPU run of the async part: the corpus's expected files as one archive (the first run's
# were too many files to come back), and the src-size / bulk-size probe cases.
set -u
D=.probes/async
mkdir -p /tmp/exp/expected/nvcc /tmp/exp/expected/clang
gcc -std=c11 -O2 -DCORPUS_NVIDIA -I/usr/local/cuda/include $D/kernels/corpus_runner.c $D/kernels/cases.c -o /tmp/cr -lcuda -lm || exit 1
{ date -u '+date: %Y-%m-%d %H:%M:%S UTC'; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; } > /tmp/exp/expected/machine-async.txt
for cc in nvcc clang; do
  for c in async_pipeline async_mbarrier_phases async_cp_mbarrier async_named_barriers async_producer_consumer; do
    timeout 60 /tmp/cr --record /tmp/exp/expected/$cc --ptx $D/ptx/$cc --case $c 2>&1 | tail -1
    timeout 60 /tmp/cr --check /tmp/exp/expected/$cc --ptx $D/ptx/$cc --case $c 2>&1 | tail -1
  done
done
tar -C /tmp/exp -czf "$OUT/expected.tgz" expected
for c in cp_srcsize_big cp8_ss12 cp4_ss6 cp4_ss5 cp16_ss17 cp16_ss40 bulk_size8 bulk_size24 bulk24_expect16 bulk24_expect24 bulk8_expect0 bulk40_expect32; do
  timeout 20 $D/bin/gpu_async_probe $c 2>&1 | tr '\n' ' '; echo " [rc=$?]"
done > "$OUT/probe2.out"
cat /tmp/exp/expected/machine-async.txt "$OUT/probe2.out"
