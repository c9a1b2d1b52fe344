#!/bin/sh
# layer_order.sh EXTMEM_RUN PROGRAM: with the Khronos validation layer enabled the ways a user
# enables it from the environment (VK_INSTANCE_LAYERS, VK_LOADER_LAYERS_ENABLE), extmem-run
# leaves it above extmem's semaphore layer: the loader's own report of the chain it built
# (VK_LOADER_DEBUG=layer, "callstack setup") lists validation first (nearest the application)
# and extmem's layer after it, next to the driver.
set -u
run=$1
program=$2
status=0
for var in VK_INSTANCE_LAYERS VK_LOADER_LAYERS_ENABLE; do
  chain=$(env -u VK_INSTANCE_LAYERS -u VK_LOADER_LAYERS_ENABLE -u VK_ADD_LAYER_PATH -u VK_LAYER_PATH \
    "$var=VK_LAYER_KHRONOS_validation" VK_LOADER_DEBUG=layer "$run" -- "$program" 2>&1 |
    awk '/callstack setup to/ { on = 1; next } on && /<Drivers>/ { exit } on && $2 ~ /^VK_LAYER_(KHRONOS|EXTMEM)/ { printf "%s ", $2 }')
  echo "$var: $chain"
  case $chain in
    "VK_LAYER_KHRONOS_validation VK_LAYER_EXTMEM_external_semaphore ") ;;
    "") echo "layer_order: no chain in the loader's report for $var (is vulkan-validationlayers installed?)"; status=1 ;;
    *) echo "layer_order: FAILED for $var: extmem's layer is not below validation"; status=1 ;;
  esac
done
[ $status -ne 0 ] || echo "layer_order: validation above extmem's layer: PASSED"
exit $status
