#!/bin/sh
# The fp8 part's GPU run (issue 25): records the new corpus cases (mma90_f8x, mma90_f8p, mma_m884,
# mma_sp) for nvcc's and clang's PTX, replays them, re-records the H200's six e4m3/e5m2 f32 cases
# on this GPU and compares, and disassembles the sm_90 cubins (ptxas 13.0 here) to show how the
# JIT lowers fp8 mma, m8n8k4 and mma.sp.
set -u
P=.probes/fp8
cuda=/usr/local/cuda
mkdir -p "$OUT/expected/nvcc" "$OUT/expected/clang" "$OUT/rerecord" "$OUT/sass"
gcc -std=c11 -O2 -DCORPUS_NVIDIA -I$cuda/include $P/kernels/corpus_runner.c $P/kernels/cases.c -o /tmp/runner -l:libcuda.so.1 -lm 2>"$OUT/gcc.err" ||
  gcc -std=c11 -O2 -DCORPUS_NVIDIA -I$cuda/include $P/kernels/corpus_runner.c $P/kernels/cases.c -o /tmp/runner -lcuda -lm 2>>"$OUT/gcc.err"
{ date -u; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; nvidia-smi | sed -n '3p'; gcc -dumpfullversion; } > "$OUT/machine.txt"
for set in nvcc clang; do
  for c in $(cat $P/cases.list); do
    /tmp/runner --record "$OUT/expected/$set" --ptx $P/kernels/ptx/$set --case $c > /dev/null 2>>"$OUT/record-$set.err" || echo "record $set $c failed" >> "$OUT/record-$set.err"
    /tmp/runner --check "$OUT/expected/$set" --ptx $P/kernels/ptx/$set --case $c >> "$OUT/replay-$set.txt" 2>&1 || echo "replay $set $c differs" >> "$OUT/replay-$set.txt"
  done
done
for f in $P/h200/*.bin; do
  c=$(basename $f .bin)
  /tmp/runner --record "$OUT/rerecord" --ptx $P/kernels/ptx/nvcc --case $c > /dev/null 2>&1
  if cmp -s $f "$OUT/rerecord/$c.bin"; then echo "same as the H200: $c"; else echo "DIFFERS from the H200: $c"; fi
done > "$OUT/rerecord.txt"
rm -rf "$OUT/rerecord"
D=$cuda/bin/cuobjdump; [ -x $D ] || D=$(command -v cuobjdump || true)
ls $cuda/bin > "$OUT/sass/toolkit-bin.txt" 2>&1
for f in $P/cubin/*.cubin; do
  if [ -n "$D" ]; then $D -sass $f > "$OUT/sass/$(basename $f .cubin).sass" 2>&1; else echo "no cuobjdump" > "$OUT/sass/none.txt"; fi
done
(cd "$OUT" && tar czf expected.tgz expected sass && rm -rf expected sass)
ls -la "$OUT"; cat "$OUT/machine.txt" "$OUT/rerecord.txt"; tail -5 "$OUT"/record-*.err; grep -v PASS "$OUT"/replay-*.txt | grep -v "1 passed, 0 failed" | head
