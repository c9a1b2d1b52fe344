set -x
cd .probes/cluster
nvcc -arch=sm_90 -o cluster cluster.cu -lcuda 2>&1 | tail -5
./cluster > $OUT/cluster.txt 2>&1; echo rc $? >> $OUT/cluster.txt
./cluster bad > $OUT/bad.txt 2>&1; echo rc $? >> $OUT/bad.txt
nvcc -arch=sm_90 -ptx -o $OUT/cluster.ptx cluster.cu
cat $OUT/cluster.txt $OUT/bad.txt
