#!/bin/sh
# layer_order.sh EXTMEM_RUN PROGRAM MODE: with the Khronos validation layer enabled the ways a
# user enables it from the environment (VK_INSTANCE_LAYERS, VK_LOADER_LAYERS_ENABLE), the loader's
# own report of the chain it built (VK_LOADER_DEBUG=layer, "callstack setup") shows validation
# where it belongs:
#   MODE driver (extmem-run's default): validation is the only layer, above the driver, which is
#     extmem's (libvulkan_extmem.so, wrapping lavapipe); also with validation enabled as vkconfig
#     enables it, through its override meta-layer (VkLayer_override.json, implicit, in
#     $XDG_DATA_HOME/vulkan/implicit_layer.d);
#   MODE layer (extmem-run --vulkan-layer): validation first (nearest the application) and
#     extmem's semaphore layer after it, next to the driver.
set -u
run=$1
program=$2
mode=${3:-layer}
status=0
option=""
[ "$mode" = layer ] && option=--vulkan-layer
ways="VK_INSTANCE_LAYERS VK_LOADER_LAYERS_ENABLE"
[ "$mode" = driver ] && ways="$ways vkconfig"
home=$(mktemp -d "${TMPDIR:-/tmp}/layer_order.XXXXXX") || exit 1
trap 'rm -rf "$home"' EXIT
mkdir -p "$home/vulkan/implicit_layer.d"
cat >"$home/vulkan/implicit_layer.d/VkLayer_override.json" <<'JSON'
{
    "file_format_version": "1.1.2",
    "layer": {
        "name": "VK_LAYER_LUNARG_override",
        "type": "GLOBAL",
        "api_version": "1.3.239",
        "implementation_version": "1",
        "description": "the override meta-layer vkconfig writes, enabling validation",
        "component_layers": ["VK_LAYER_KHRONOS_validation"],
        "disable_environment": {"DISABLE_VK_LAYER_LUNARG_override": "1"}
    }
}
JSON
for var in $ways; do
  if [ "$var" = vkconfig ]; then
    set -- "XDG_DATA_HOME=$home"
  else
    set -- "$var=VK_LAYER_KHRONOS_validation"
  fi
  report=$(env -u VK_INSTANCE_LAYERS -u VK_LOADER_LAYERS_ENABLE -u VK_ADD_LAYER_PATH -u VK_LAYER_PATH \
    "$@" VK_LOADER_DEBUG=layer,driver "$run" $option -- "$program" 2>&1)
  chain=$(printf '%s\n' "$report" |
    awk '/callstack setup to/ { on = 1; next } on && /<Drivers>/ { exit } on && $2 ~ /^VK_LAYER_(KHRONOS|EXTMEM)/ { printf "%s ", $2 }')
  echo "$var: $chain"
  case $mode:$chain in
    "layer:VK_LAYER_KHRONOS_validation VK_LAYER_EXTMEM_external_semaphore ") ;;
    "driver:VK_LAYER_KHRONOS_validation ")
      printf '%s\n' "$report" | grep -q "libvulkan_extmem.so" ||
        { echo "layer_order: FAILED for $var: the loader did not load extmem's driver"; status=1; } ;;
    *:) echo "layer_order: no chain in the loader's report for $var (is vulkan-validationlayers installed?)"; status=1 ;;
    *) echo "layer_order: FAILED for $var: the chain is not what $mode mode makes"; status=1 ;;
  esac
done
if [ $status -eq 0 ]; then
  if [ "$mode" = layer ]; then echo "layer_order: validation above extmem's layer: PASSED"; else echo "layer_order: validation above extmem's driver: PASSED"; fi
fi
exit $status
