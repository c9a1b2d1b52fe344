#!/bin/sh
# install_prefix.sh BUILD_DIR WORK_DIR DRIVER_DLOPEN EXPECT_SH: installs the build into a prefix,
# moves the prefix (as a restored CI cache is elsewhere), and runs a program that dlopen()s
# libcuda.so.1 through the installed extmem-run: it must get the installed library.
#
# Then the Vulkan variables: extmem's driver manifest from <prefix>/share/extmem/vulkan/icd.d (a
# Vulkan program loads it: the installed manifest names the installed library), and with
# --vulkan-layer the semaphore layer's; where the build has no layer yet, a placeholder manifest
# is put where the install puts the layer's, to see that extmem-run enables it from there (no
# Vulkan program runs with the placeholder).
set -eu
build=$1 work=$2 program=$3 expect=$4
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/first" >/dev/null ||
  { echo "install_prefix: FAILED: cmake --install $build (is the whole build tree built?)"; exit 1; }
mv "$work/first" "$work/prefix"
run=$work/prefix/bin/extmem-run
[ -x "$run" ] || { echo "install_prefix: FAILED: no executable $run after cmake --install"; exit 1; }
dropin=$(dirname "$(find "$work/prefix" -name libcuda.so.1 | head -n 1)")
case $dropin in
  "$work/prefix"/lib*/extmem) ;;
  *) echo "install_prefix: FAILED: libcuda.so.1 is installed in '$dropin', not <prefix>/lib*/extmem"; exit 1 ;;
esac
sh "$expect" 0 "^libcuda.so.1 loaded from $dropin/libcuda.so.1$" "device 0: extmem software device" -- \
  "$run" --verbose -- "$program"

layers=$work/prefix/share/vulkan/explicit_layer.d
if [ ! -f "$layers/extmem_semaphore_layer.json" ]; then
  mkdir -p "$layers"
  echo '{}' >"$layers/extmem_semaphore_layer.json"
fi
if [ -f "$work/prefix/share/extmem/vulkan/icd.d/extmem_icd.json" ]; then
  sh "$expect" 0 "^VK_DRIVER_FILES=$work/prefix/share/extmem/vulkan/icd.d/extmem_icd.json$" \
    "^EXTMEM_VK_DRIVER_FILE=.*lvp_icd" -- "$run" -- env
  lib=$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "$work/prefix/share/extmem/vulkan/icd.d/extmem_icd.json")
  [ -f "$work/prefix/share/extmem/vulkan/icd.d/$lib" ] ||
    { echo "install_prefix: FAILED: the installed driver manifest names '$lib', which is not there"; exit 1; }
fi
sh "$expect" 0 "!^VK_ADD_LAYER_PATH=" "^VK_LAYER_PATH=.*/usr/share/vulkan/explicit_layer.d:$layers$" \
  "^VK_LOADER_LAYERS_ENABLE=VK_LAYER_EXTMEM_external_semaphore$" "^VK_INSTANCE_LAYERS=VK_LAYER_EXTMEM_external_semaphore$" -- \
  env -u VK_ADD_LAYER_PATH -u VK_LAYER_PATH -u VK_LOADER_LAYERS_ENABLE -u VK_INSTANCE_LAYERS "$run" --vulkan-layer -- env
echo "install_prefix: extmem-run works from a moved install prefix: PASSED"
