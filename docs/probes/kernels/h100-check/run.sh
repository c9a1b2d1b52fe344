#!/bin/bash
# On the GPU machine, in the repository root: (1) the kernel corpus checked against the
# recordings (tests/kernels/expected, made on an H200 for this session's cases) on this GPU;
# (2) every tests/cuda program nvcc builds, built with the same commands and run with NVIDIA's
# own runtime, its output compared with tests/cuda/<name>.expected.
set -u
D=$OUT; mkdir -p $D/o
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader > $D/machine.txt
cuda=/usr/local/cuda
k=tests/kernels
gcc -std=c11 -O2 -DCORPUS_NVIDIA -I$cuda/include $k/corpus_runner.c $k/cases.c -o /tmp/cr -lcuda -lm 2>$D/cr_build.txt || echo "runner build failed" >> $D/summary.txt
for c in nvcc clang; do
  /tmp/cr --check $k/expected/$c --ptx $k/ptx/$c > $D/corpus_$c.txt 2>&1; echo "corpus $c rc=$?" >> $D/summary.txt
  grep -E "FAIL|MISMATCH|differ" $D/corpus_$c.txt | head -40 >> $D/summary.txt
done
# nvcc programs
mkdir -p /tmp/o
sed 's|OUT/|/tmp/o/|g' .probes/h100check/nvcc_cmds.txt > /tmp/cmds.txt
grep -- "-lib " /tmp/cmds.txt | bash > $D/nvcc_lib.txt 2>&1
grep -v -- "-lib " /tmp/cmds.txt | xargs -P 16 -I{} bash -c '{} > /dev/null 2>>/tmp/o/build_errors.txt'
cp /tmp/o/build_errors.txt $D/ 2>/dev/null
export LD_LIBRARY_PATH=$cuda/lib64:$cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
for exe in /tmp/o/nvcc_*; do
  n=$(basename $exe); base=${n#nvcc_}; base=${base#sm90_}; base=${base#rdc_}; base=${base#ptds_}
  [ "$base" = async_copy_sm90 ] && base=async_copy
  exp=tests/cuda/$base.expected
  [ -f $exp ] || { echo "$n: no $exp" >> $D/summary.txt; continue; }
  timeout 120 $exe > /tmp/o/$n.out 2>/tmp/o/$n.err; rc=$?
  if [ $rc -ne 0 ]; then echo "$n: exit $rc" >> $D/summary.txt; fi
  if cmp -s /tmp/o/$n.out $exp; then echo "$n: same" >> $D/summary.txt
  else echo "$n: DIFFERS ($(diff /tmp/o/$n.out $exp | grep -c '^<') lines)" >> $D/summary.txt; diff /tmp/o/$n.out $exp | head -20 >> $D/diffs.txt; fi
done
tar czf $D/outs.tgz -C /tmp/o $(cd /tmp/o && ls *.out *.err 2>/dev/null) 2>/dev/null
cat $D/summary.txt
