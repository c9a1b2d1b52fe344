#!/usr/bin/env bash
# The second batch (printf_fifo_probe.cu) on the GPU machine; output: probe2.out.
cd "$(dirname "$0")"
set -u
nvcc -arch=sm_90 -o /tmp/pf printf_fifo_probe.cu
echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
/tmp/pf sizes
for c in 0 1 2 3 4 5 6 7 8 9; do
  /tmp/pf $c > /tmp/o.txt 2>/tmp/e.txt
  echo "case $c: $(cat /tmp/e.txt), 32 threads x 4000 records into 1 MiB: $(wc -l < /tmp/o.txt) lines out; first: $(head -1 /tmp/o.txt | cut -c1-60)"
done
s=$(date +%s%N); timeout 120 /tmp/pf prec > /tmp/p.txt 2>/tmp/pe.txt; rc=$?; e=$(date +%s%N)
echo "prec: rc=$rc $(cat /tmp/pe.txt) in $(( (e-s)/1000000 )) ms"
while IFS= read -r l; do echo "  ${#l} chars: ${l:0:50}...${l: -20}"; done < /tmp/p.txt
