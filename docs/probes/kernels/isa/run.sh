#!/bin/sh
# isa part of issue 25: what the GPU machine records (run from the repository root).
set -u
cd .probes/isa
cuda=/usr/local/cuda
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader > $OUT/machine.txt
gcc -std=c11 -O2 -DSWEEP_NVIDIA -I$cuda/include isa_sweep.c -o /tmp/isa_sweep -l:libcuda.so.1 2> $OUT/build.txt || gcc -std=c11 -O2 -DSWEEP_NVIDIA -I$cuda/include isa_sweep.c -o /tmp/isa_sweep -lcuda 2>> $OUT/build.txt
gcc -std=c11 -O2 -DCORPUS_NVIDIA -I$cuda/include corpus_runner.c cases.c -o /tmp/corpus_runner -l:libcuda.so.1 -lm 2>> $OUT/build.txt
timeout 120 /tmp/isa_sweep isa_sweep.txt --record > $OUT/sweep.txt 2>&1; echo "sweep rc=$?" >> $OUT/machine.txt
export LD_LIBRARY_PATH=$cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 60 ./sreg_probe > $OUT/sreg_probe.out 2>&1; echo "sreg rc=$?" >> $OUT/machine.txt
mkdir -p $OUT/expected/nvcc $OUT/expected/clang
for c in isa_bits isa_half_compare isa_sreg_tiles; do
  for comp in nvcc clang; do
    timeout 60 /tmp/corpus_runner --record $OUT/expected/$comp --ptx ptx/$comp --case $c >> $OUT/corpus.txt 2>&1
    timeout 60 /tmp/corpus_runner --check $OUT/expected/$comp --ptx ptx/$comp --case $c >> $OUT/corpus.txt 2>&1
  done
done
cd $OUT && tar czf corpus.tgz expected && rm -rf expected
cat $OUT/machine.txt; cat $OUT/build.txt | head -20; tail -5 $OUT/sweep.txt; tail -8 $OUT/corpus.txt
