#!/usr/bin/env bash
# The test command: installs what the tests need, builds extmem with warnings as errors and
# runs the whole suite, then the Windows build under wine (scripts/test-windows.sh), then the
# suite again under AddressSanitizer + UndefinedBehaviorSanitizer, then the concurrency tests
# under ThreadSanitizer.
#   scripts/test.sh            everything
#   scripts/test.sh --quick    the plain build only (no sanitizer passes)
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
[ "${1:-}" = "--quick" ] && quick=1

# Kernels run on the portable executor unless a test asks for the native tier itself (the
# kernel_corpus_tiers tests and kernel_native_test do): compiling every test's modules would
# cost minutes (docs/kernels.md, "The native tier").
export EXTMEM_JIT=${EXTMEM_JIT:-portable}

scripts/deps.sh
jobs=$(nproc)

# Every build below compiles through ccache (deps.sh installs it): four builds of the same tree
# cost minutes on two cores, and a fresh clone's objects are the last clone's. Paths are taken
# relative to the checkout (CCACHE_BASEDIR) and the working directory is left out of the hash,
# so a clone in another folder hits the same entries; the cache is ccache's own (its config, or
# ~/.cache/ccache). A compiler, flag or source change is a miss as always.
launcher=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

run_suite() { # build-dir, extra cmake args...
  local dir=$1
  shift
  cmake -S . -B "$dir" -G Ninja -DEXTMEM_WERROR=ON -DEXTMEM_TESTS=ON "${launcher[@]}" "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
  # shellcheck disable=SC2086 # TEST_ENV is a list of NAME=value words for the tests alone
  (cd "$dir" && env ${TEST_ENV:-} ctest -j "$jobs" --output-on-failure --timeout 300)
}

# The plain pass includes the dma-buf VM test (ctest label `vm`, docs/dmabuf.md): Debian's
# kernel under qemu with a udmabuf module; the first run on a machine fetches and builds the
# kernel side (about half a minute), later runs reuse ~/.cache/extmem-vm.
echo "== extmem: build and test (gcc, release with assertions)"
run_suite build/test -DCMAKE_BUILD_TYPE=RelWithDebInfo

# The GitHub Action (action.yml) and the example user workflow (.github/workflows/example-user.yml),
# run here as GitHub runs them (scripts/action-local.py: the same commands in the same order). The
# action's configure, build and install steps are pointed at the plain build above, which they
# find built: the pass adds the user project's clang compile and a few runs (about 20 s).
echo "== extmem: the GitHub Action and the example user project, outside GitHub"
scripts/action-local.py --work build/action-local --with build-dir=build/test --with build-type=RelWithDebInfo \
  --with cmake-args=

# The Windows build (mingw-w64) and its tests under wine: about a minute and a half cold.
scripts/test-windows.sh build/windows
# The same programs under wine 10, whose placeholders the VMM uses (wine 8 covers its fallback):
# a Debian trixie root, cached (about 40 seconds to make), then about a minute.
scripts/test-wine10.sh build/windows

if [ $quick -eq 0 ]; then
  echo "== extmem: build and test under ASan + UBSan (clang)"
  # Mesa's lavapipe (22.3.6-1+deb12u2) leaves a 128-byte block of its own behind when the
  # Vulkan loader unloads it at vkDestroyInstance; LeakSanitizer then reports it from an
  # "<unknown module>". Preloaded, the driver stays loaded for the process's life and the
  # block stays reachable through its globals, so only extmem's own leaks are reported.
  lvp=$(ls /usr/lib/*/libvulkan_lvp.so 2>/dev/null | head -n 1 || true)
  TEST_ENV=${lvp:+LD_PRELOAD=$lvp} ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_suite build/asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
      -DEXTMEM_SANITIZE=address,undefined

  # The concurrency tests (ctest label `concurrency`, tests/CMakeLists.txt) under ThreadSanitizer:
  # only their programs are built. A race report fails the test (halt_on_error).
  echo "== extmem: the concurrency tests under ThreadSanitizer (clang)"
  cmake -S . -B build/tsan -G Ninja -DEXTMEM_WERROR=ON -DEXTMEM_TESTS=ON "${launcher[@]}" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DEXTMEM_SANITIZE=thread >/dev/null
  cmake --build build/tsan -j "$jobs" --target concurrency_test release_test stress_test stream_test event_test \
    ipc_test external_semaphore_test kernel_cancel_test mempool_test stream_memop_test logs_test graph_concurrency_test texture_concurrency_test cooperative_launch_test device_heap_concurrency_test cluster_launch_test extmem-unload-check \
    vk_semaphore_test vk_graph_frame_test VkLayer_extmem_semaphore
  (cd build/tsan && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    ctest -j "$jobs" -L concurrency --output-on-failure --timeout 300)
fi
echo "== extmem: all tests passed"
