#!/bin/sh
# The async part's GPU run (issue 25): corpus cases of async.cu recorded for both PTX sets and
# replayed 3 times, the tests/cuda programs' output, the fault probe.
set -u
D=.probes/async
mkdir -p "$OUT/expected/nvcc" "$OUT/expected/clang"
gcc -std=c11 -O2 -DCORPUS_NVIDIA -I/usr/local/cuda/include $D/kernels/corpus_runner.c $D/kernels/cases.c -o /tmp/cr -lcuda -lm || exit 1
{ date -u '+date: %Y-%m-%d %H:%M:%S UTC'; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; } > "$OUT/machine.txt"
cat "$OUT/machine.txt"
for cc in nvcc clang; do
  for c in async_pipeline async_mbarrier_phases async_cp_mbarrier async_named_barriers async_producer_consumer; do
    timeout 60 /tmp/cr --record "$OUT/expected/$cc" --ptx $D/ptx/$cc --case $c 2>&1 | tail -1
    for i in 1 2 3; do timeout 60 /tmp/cr --check "$OUT/expected/$cc" --ptx $D/ptx/$cc --case $c 2>&1 | tail -1; done
  done
done > "$OUT/corpus.txt" 2>&1
cat "$OUT/corpus.txt" | sort | uniq -c
timeout 60 $D/bin/gpu_async_copy > "$OUT/async_copy.out" 2>&1; echo "async_copy rc=$?"
timeout 60 $D/bin/gpu_async_bulk > "$OUT/async_bulk.out" 2>&1; echo "async_bulk rc=$?"
for c in cp_misaligned_src cp_misaligned_dst cp_null_srcsize0 cp_srcsize_big cp_bad_global mb_init_global mb_arrive_global mb_shared_oob mb_misaligned bulk_size8 bulk_size24 bulk_misaligned mb_state load0 load1 load2 load3; do
  timeout 20 $D/bin/gpu_async_probe $c 2>&1 | tr '\n' ' '; echo " [rc=$?]"
done > "$OUT/probe.out"
cat "$OUT/probe.out" "$OUT/async_copy.out" "$OUT/async_bulk.out"
