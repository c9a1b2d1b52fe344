#!/usr/bin/env bash
# Runs the probes of this folder on the GPU machine (the device tool). Output: probe.out, and
# NVIDIA's export lists (libcuda.exports, libcudart13.exports) for tools/entry-points.
cd "$(dirname "$0")"
set -u
out=${OUT:-/tmp}
cu=$(ldconfig -p | awk '/libcuda.so.1 /{print $NF; exit}')
rt=$(ls /usr/local/cuda/lib64/libcudart.so.13* | head -1)
echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); $(nvcc --version | tail -2 | head -1)"
echo "# libcuda: $(readlink -f $cu); libcudart: $(readlink -f $rt)"
nm -D --defined-only "$cu" | awk '$2=="T"||$2=="W"||$2=="i"{print $3}' | sort -u > "$out/libcuda.exports"
nm -D --defined-only "$rt" | awk '$2=="T"||$2=="W"||$2=="i"{print $3}' | sort -u > "$out/libcudart13.exports"
echo "# exports: libcuda $(wc -l < $out/libcuda.exports), libcudart $(wc -l < $out/libcudart13.exports)"
gcc -std=gnu11 -O1 entry_probe.c -I/usr/local/cuda/include -lcuda -ldl -o /tmp/entry_probe
/tmp/entry_probe < "$out/libcuda.exports" > "$out/entry.out"
nvcc -arch=sm_90 -cubin -o /tmp/add.cubin add.cu
gcc -std=gnu11 -O1 -Wno-deprecated-declarations family_probe.c -I/usr/local/cuda/include -lcuda -o /tmp/family_probe
/tmp/family_probe /tmp/add.cubin
nvcc -arch=sm_90 -cudart shared -o /tmp/runtime_probe runtime_probe.cu && /tmp/runtime_probe
[ -n "${NVHEADERS:-}" ] && (cd /usr/local/cuda/include && tar czf "$out/nvheaders.tgz" cuda.h cudaProfiler.h cuda_runtime_api.h cuda_runtime.h driver_types.h surface_types.h texture_types.h vector_types.h cuda_profiler_api.h channel_descriptor.h driver_functions.h library_types.h)
