#!/bin/sh
# Records the kernel corpus's expected results on a real NVIDIA GPU: builds corpus_runner
# against NVIDIA's cuda.h and libcuda with gcc, runs every case with nvcc's PTX
# (tests/kernels/ptx/nvcc) and clang's (tests/kernels/ptx/clang, the checked-in copy of what
# the build makes), and writes the outputs to $OUT/expected/{nvcc,clang}/<case>.bin with a
# description of the machine in $OUT/expected/machine.txt. Copy them to tests/kernels/expected/.
#
# Usage (in the repository root, on the GPU machine): OUT=/some/dir scripts/kernels-gpu-expected.sh
set -eu
: "${OUT:?set OUT to the directory for the results}"
cuda=${CUDA_HOME:-/usr/local/cuda}
root=$(cd "$(dirname "$0")/.." && pwd)
k=$root/tests/kernels
bin=${TMPDIR:-/tmp}/corpus_runner_nvidia
mkdir -p "$OUT/expected/nvcc" "$OUT/expected/clang"

libdir=""
for d in /usr/lib/x86_64-linux-gnu /usr/lib64 "$cuda/lib64" "$cuda/lib64/stubs"; do
    if [ -e "$d/libcuda.so" ] || [ -e "$d/libcuda.so.1" ]; then libdir=$d; break; fi
done
gcc -std=c11 -O2 -Wall -Wextra -DCORPUS_NVIDIA -I"$cuda/include" "$k/corpus_runner.c" "$k/cases.c" \
    -o "$bin" ${libdir:+-L"$libdir"} -l:libcuda.so.1 -lm 2>/dev/null ||
    gcc -std=c11 -O2 -Wall -Wextra -DCORPUS_NVIDIA -I"$cuda/include" "$k/corpus_runner.c" "$k/cases.c" \
        -o "$bin" ${libdir:+-L"$libdir"} -lcuda -lm

{
    echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | sed 's/^/gpu, driver, compute capability: /'
    nvidia-smi | sed -n '3p'
    echo "runner: gcc $(gcc -dumpfullversion), $cuda/include; libcuda at run time: $(ldd "$bin" | awk '/libcuda/ {print $3}' | xargs readlink -f)"
} >"$OUT/expected/machine.txt"
cat "$OUT/expected/machine.txt"

status=0
for compiler in nvcc clang; do
    echo "== $compiler"
    "$bin" --record "$OUT/expected/$compiler" --ptx "$k/ptx/$compiler" || status=1
    # The recording must replay: the GPU against itself (atomics and warps must not depend on
    # timing).
    "$bin" --check "$OUT/expected/$compiler" --ptx "$k/ptx/$compiler" >"$OUT/replay-$compiler.txt" 2>&1 ||
        { echo "replay of $compiler differs:"; grep -v '^PASS' "$OUT/replay-$compiler.txt" | head -50; status=1; }
done
# Where the two compilers' results differ (each is right for its PTX; a difference is noted).
for f in "$OUT"/expected/nvcc/*.bin; do
    c=$(basename "$f")
    cmp -s "$f" "$OUT/expected/clang/$c" || echo "nvcc and clang differ: $c"
done
exit $status
