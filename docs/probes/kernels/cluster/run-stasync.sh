cd .probes/stasync
nvcc -arch=sm_90 -o stasync stasync.cu 2>&1 | tail -3
for c in 0 1 2; do for o in 0 1; do for r in 0 1; do timeout 20 ./stasync $c $o $r; done; done; done > $OUT/stasync.txt 2>&1
cat $OUT/stasync.txt
