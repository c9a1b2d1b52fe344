#!/bin/sh
# The mma part's one GPU run (issue 25): records the corpus cases of mma.cu and mma90.cu on the GPU
# for both PTX sets, replays them, and runs the wmma program with NVIDIA's runtime.
set -u
P=.probes/mma
cuda=/usr/local/cuda
mkdir -p "$OUT/expected/nvcc" "$OUT/expected/clang"
gcc -std=c11 -O2 -DCORPUS_NVIDIA -I$cuda/include $P/kernels/corpus_runner.c $P/kernels/cases.c -o /tmp/runner -lcuda -lm 2>&1 | tail -3
{ date -u; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; } > "$OUT/machine.txt"
for set in nvcc clang; do
  for c in $(cat $P/cases.list); do
    /tmp/runner --record "$OUT/expected/$set" --ptx $P/kernels/ptx/$set --case $c > /dev/null 2>>"$OUT/record-$set.err" || echo "record $set $c failed" >> "$OUT/record-$set.err"
    /tmp/runner --check "$OUT/expected/$set" --ptx $P/kernels/ptx/$set --case $c >> "$OUT/replay-$set.txt" 2>&1 || echo "replay $set $c differs" >> "$OUT/replay-$set.txt"
  done
done
chmod +x $P/wmma_prog
LD_LIBRARY_PATH=$cuda/lib64 $P/wmma_prog > "$OUT/wmma.expected" 2> "$OUT/wmma.err"; echo "wmma rc $?" >> "$OUT/wmma.err"
(cd "$OUT" && tar czf expected.tgz expected && rm -rf expected); ls -la "$OUT"; cat "$OUT"/record-*.err | tail -5; grep -v PASS "$OUT"/replay-*.txt | grep -v "1 passed, 0 failed" | head; tail -30 "$OUT/wmma.expected"
