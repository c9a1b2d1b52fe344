#!/bin/sh
# lavapipe_only.sh EXTMEM_RUN VK_DEVICES WORK_DIR: another Vulkan driver's manifest is made
# visible to the loader in a test folder, once through XDG_DATA_DIRS (the loader's search path)
# and once through VK_ADD_DRIVER_FILES; without extmem-run the loader takes it (a second
# device), under extmem-run lavapipe is the only device.
#
# The other driver is lavapipe again under another file name, a driver that loads on any
# machine, so "another driver was loaded" shows as a second device.
set -eu
run=$1 devices=$2 work=$3
rm -rf "$work"
mkdir -p "$work/share/vulkan/icd.d"
lvp=""
for f in "/usr/share/vulkan/icd.d/lvp_icd.$(uname -m).json" /usr/share/vulkan/icd.d/lvp_icd.*.json /usr/share/vulkan/icd.d/lvp_icd.json; do
  [ -f "$f" ] && lvp=$f && break
done
[ -n "$lvp" ] || { echo "lavapipe_only: lavapipe's manifest is not in /usr/share/vulkan/icd.d (mesa-vulkan-drivers)"; exit 1; }
lib=$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "$lvp")
case $lib in
  /*) ;;
  *) lib=$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }') ;;
esac
[ -f "$lib" ] || { echo "lavapipe_only: lavapipe's library ($lib) not found"; exit 1; }
ln -s "$lib" "$work/libvulkan_other.so"
fake=$work/share/vulkan/icd.d/other_icd.json
sed "s#\"library_path\": *\"[^\"]*\"#\"library_path\": \"$work/libvulkan_other.so\"#" "$lvp" >"$fake"
echo "lavapipe_only: another driver's manifest: $fake"

count() { sed -n 's/^vulkan devices: //p'; }
unset VK_DRIVER_FILES VK_ICD_FILENAMES VK_ADD_DRIVER_FILES VK_LOADER_DRIVERS_SELECT VK_LOADER_DRIVERS_DISABLE
for how in XDG_DATA_DIRS VK_ADD_DRIVER_FILES; do
  if [ $how = XDG_DATA_DIRS ]; then
    set -- env "XDG_DATA_DIRS=$work/share:/usr/local/share:/usr/share"
  else
    set -- env "VK_ADD_DRIVER_FILES=$fake"
  fi
  plain=$("$@" "$devices")
  echo "without extmem-run, $how: $plain"
  [ "$(echo "$plain" | count)" -ge 2 ] ||
    { echo "lavapipe_only: FAILED: the loader did not take the other manifest through $how: the test proves nothing"; exit 1; }
  ran=$("$@" "$run" --verbose -- "$devices")
  echo "under extmem-run, $how: $ran"
  [ "$(echo "$ran" | count)" -eq 1 ] || { echo "lavapipe_only: FAILED: not one device under extmem-run"; exit 1; }
  echo "$ran" | grep -q '^device 0: llvmpipe' || { echo "lavapipe_only: FAILED: the device is not lavapipe's"; exit 1; }
done
echo "lavapipe_only: lavapipe alone under extmem-run: PASSED"
