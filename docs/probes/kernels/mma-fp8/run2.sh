#!/bin/sh
# The fp8 part's second GPU run: the structured fp8 probes moved their helpers out of line (the
# native tier's module size limit) and were split into mma90_f8p/mma90_f8q, and mma_sp lost its tf32 kernel and was split into mma_sp and mma_spi (the same reason):
# records those cases again for both PTX sets, replays them, and compares with the
# first run's recordings.
set -u
P=.probes/fp8
cuda=/usr/local/cuda
mkdir -p "$OUT/expected/nvcc" "$OUT/expected/clang"
gcc -std=c11 -O2 -DCORPUS_NVIDIA -I$cuda/include $P/kernels/corpus_runner.c $P/kernels/cases.c -o /tmp/runner -l:libcuda.so.1 -lm 2>"$OUT/gcc.err" ||
  gcc -std=c11 -O2 -DCORPUS_NVIDIA -I$cuda/include $P/kernels/corpus_runner.c $P/kernels/cases.c -o /tmp/runner -lcuda -lm 2>>"$OUT/gcc.err"
{ date -u; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; } > "$OUT/machine2.txt"
for set in nvcc clang; do
  for c in $(cat $P/cases2.list); do
    /tmp/runner --record "$OUT/expected/$set" --ptx $P/kernels/ptx/$set --case $c > /dev/null 2>>"$OUT/record2.err" || echo "record $set $c failed" >> "$OUT/record2.err"
    /tmp/runner --check "$OUT/expected/$set" --ptx $P/kernels/ptx/$set --case $c >> "$OUT/replay2.txt" 2>&1 || echo "replay $set $c differs" >> "$OUT/replay2.txt"
    if cmp -s "$OUT/expected/$set/$c.bin" $P/prev/$c.$set.bin; then echo "same as run 1: $set $c"; else echo "DIFFERS from run 1: $set $c"; fi >> "$OUT/compare2.txt"
  done
done
(cd "$OUT" && tar czf expected2.tgz expected && rm -rf expected)
cat "$OUT/machine2.txt" "$OUT/compare2.txt" "$OUT/record2.err"; grep -c PASS "$OUT/replay2.txt"
