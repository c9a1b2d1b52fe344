/*
 * src/vk/pairing.h: lavapipe's deviceUUID, for the core's cuDeviceGetUuid (DESIGN.md §7).
 * No Vulkan headers and no link-time Vulkan dependency: pairing.c reaches libvulkan.so.1
 * through dlopen, so the core can compile it in.
 */
#ifndef EXTMEM_VK_PAIRING_H
#define EXTMEM_VK_PAIRING_H

enum {
    EXTMEM_VK_PAIRING_NO_LOADER = -1, /* libvulkan.so.1 is not installed (or is not a loader) */
    EXTMEM_VK_PAIRING_NOT_FOUND = -2, /* the loader has no lavapipe (or no drivers at all) */
};

/* Writes lavapipe's VkPhysicalDeviceIDProperties::deviceUUID to uuid and returns 0, or
 * returns one of the codes above and leaves uuid as it was. Creates and destroys a
 * VkInstance of its own each call (see docs/lavapipe-memfd.md for the cost): call it once and
 * keep the answer. Thread-safe as the loader is. */
int extmem_vk_lavapipe_uuid(unsigned char uuid[16]);

#endif
