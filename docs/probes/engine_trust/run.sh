#!/usr/bin/env bash
# Runs the probes of this folder on the GPU machine (the device tool); output: probe.out.
cd "$(dirname "$0")"
set -u
nvcc -arch=sm_90 -o /tmp/printf_probe printf_probe.cu
gcc -std=gnu11 ctx_probe.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64/stubs -lcuda -o /tmp/ctx_probe
echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
for c in st_generic st_global; do timeout 30 /tmp/ctx_probe $c; echo "rc=$?"; done
for c in query exit destroy reset unload; do
  s=$(date +%s%N); timeout 25 /tmp/ctx_probe $c; rc=$?; e=$(date +%s%N)
  echo "$c: rc=$rc ($([ $rc = 124 ] && echo 'killed by timeout after 25 s' || echo "process ended after $(( (e-s)/1000000 )) ms"))"
done
for spec in "65536 1000" "4096 100" "1048576 2000" "1 10"; do
  set -- $spec
  /tmp/printf_probe fifo $1 $2 > /tmp/fifo.txt 2>/tmp/fifo.err
  echo "fifo $1 bytes, 32 threads x $2 lines: $(cat /tmp/fifo.err | tr '\n' ';') lines out $(wc -l < /tmp/fifo.txt), bytes $(wc -c < /tmp/fifo.txt)"
  awk '{print $1}' /tmp/fifo.txt | sort | uniq -c | head -40 | tr '\n' ' '; echo
  head -3 /tmp/fifo.txt; echo ...; grep -n -A6 -- '---' /tmp/fifo.txt | head -8; tail -3 /tmp/fifo.txt
done
for p in 100 1000 100000 10000000; do
  s=$(date +%s%N); timeout 60 /tmp/printf_probe prec $p > /tmp/prec.txt 2>/tmp/prec.err; e=$(date +%s%N)
  echo "precision $p: $(cat /tmp/prec.err) in $(( (e-s)/1000000 )) ms"
  while IFS= read -r l; do echo "  ${#l} chars: ${l:0:60}...${l: -30}"; done < /tmp/prec.txt
done
