/*
 * Device pairing (DESIGN.md §7): the physical device whose deviceUUID is cuDeviceGetUuid,
 * found exactly as NVIDIA's samples find it, so that their code finds lavapipe here.
 */
#include "vk_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void uuid_text(const unsigned char *u, char out[33])
{
    for (int i = 0; i < 16; ++i)
        snprintf(out + 2 * i, 3, "%02x", u[i]);
}

CUresult extmem_vk_find_paired_device(VkInstance instance, CUdevice dev, VkPhysicalDevice *physicalDevice)
{
    static const char fn[] = "extmem_vk_find_paired_device";
    if (instance == VK_NULL_HANDLE)
        return vk_fail(CUDA_ERROR_INVALID_VALUE, "%s: instance is VK_NULL_HANDLE", fn);
    if (!physicalDevice)
        return vk_fail(CUDA_ERROR_INVALID_VALUE, "%s: physicalDevice is NULL", fn);
    CUuuid uuid;
    CUresult r = cuDeviceGetUuid(&uuid, dev);
    if (r)
        return r; /* its reason stands */
    if ((r = vk_loader(fn)))
        return r;

    PFN_vkEnumeratePhysicalDevices enumerate =
        (PFN_vkEnumeratePhysicalDevices)vkGetInstanceProcAddr(instance, "vkEnumeratePhysicalDevices");
    PFN_vkGetPhysicalDeviceProperties2 props2 =
        (PFN_vkGetPhysicalDeviceProperties2)vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceProperties2");
    if (!props2)
        props2 = (PFN_vkGetPhysicalDeviceProperties2)vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceProperties2KHR");
    if (!enumerate || !props2)
        return vk_fail(CUDA_ERROR_NOT_SUPPORTED,
                       "%s: the instance has no vkGetPhysicalDeviceProperties2: create it for Vulkan 1.1 or enable "
                       "VK_KHR_get_physical_device_properties2",
                       fn);

    uint32_t count = 0;
    VkResult vr = enumerate(instance, &count, NULL);
    VkPhysicalDevice *devs = vr == VK_SUCCESS && count ? calloc(count, sizeof(*devs)) : NULL;
    if (vr == VK_SUCCESS && count && !devs)
        return vk_fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %u physical devices", fn, count);
    if (devs)
        vr = enumerate(instance, &count, devs);
    if (vr != VK_SUCCESS && vr != VK_INCOMPLETE) {
        free(devs);
        return vk_fail(vk_result_to_cu(vr) == CUDA_ERROR_OUT_OF_MEMORY ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_UNKNOWN,
                       "%s: vkEnumeratePhysicalDevices failed: %s", fn, vk_result_name(vr));
    }

    /* The reason, should nothing match, lists what the instance has. */
    char seen[320] = "";
    size_t used = 0;
    for (uint32_t i = 0; i < count; ++i) {
        VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
        VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &id};
        props2(devs[i], &p2);
        if (memcmp(id.deviceUUID, uuid.bytes, VK_UUID_SIZE) == 0) {
            *physicalDevice = devs[i];
            free(devs);
            return CUDA_SUCCESS;
        }
        char text[33];
        uuid_text(id.deviceUUID, text);
        if (used < sizeof(seen))
            used += (size_t)snprintf(seen + used, sizeof(seen) - used, "%s\"%s\" %s", i ? ", " : "",
                                     p2.properties.deviceName, text);
    }
    free(devs);
    char want[33];
    uuid_text((const unsigned char *)uuid.bytes, want);
    return vk_fail(CUDA_ERROR_NOT_FOUND, "%s: no physical device has device %d's UUID %s: the instance has %s", fn,
                   (int)dev, want, count ? seen : "no physical devices");
}
