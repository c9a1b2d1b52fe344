#!/bin/sh
# run.sh BUILD_DIR PROJECT_DIR WORK_DIR: installs the build and builds PROJECT against it.
set -eu
build=$1 project=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null

cmake -S "$project" -B "$work/cmake" -G "$GENERATOR" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/cmake" >/dev/null
LD_LIBRARY_PATH="$work/prefix/lib:$work/prefix/lib64:${LD_LIBRARY_PATH:-}" "$work/cmake/consumer"
echo "consumer: cmake package OK"
if [ -x "$work/cmake/consumer_cuda" ]; then
  LD_LIBRARY_PATH="$work/prefix/lib:$work/prefix/lib64:${LD_LIBRARY_PATH:-}" "$work/cmake/consumer_cuda"
  echo "consumer: CUDA through extmem_add_cuda_executable OK"
else
  echo "consumer: no clang: the CUDA program was not built"
fi

pc=$(find "$work/prefix" -name extmem.pc -path '*pkgconfig*' | head -n 1)
export PKG_CONFIG_PATH=$(dirname "$pc")
"$CC" -o "$work/consumer-pc" "$project/consumer.c" $(pkg-config --cflags --libs extmem) \
  -Wl,-rpath,"$work/prefix/lib:$work/prefix/lib64"
"$work/consumer-pc"
echo "consumer: pkg-config OK"
