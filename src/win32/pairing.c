/*
 * Device pairing with Vulkan on Windows (DESIGN.md §7): not yet. lavapipe is rarely installed
 * on Windows, and D3D pairs by LUID instead (src/d3d, still to do), so the software device
 * keeps its own UUID. src/vk/pairing.c is the Linux implementation (dlopen of libvulkan.so.1);
 * a Windows one would LoadLibrary vulkan-1.dll the same way.
 */
#include "vk/pairing.h"

int extmem_vk_lavapipe_uuid(unsigned char uuid[16])
{
    (void)uuid;
    return EXTMEM_VK_PAIRING_NO_LOADER;
}
