/*
 * src/vk/vk_internal.h: what extmem_vulkan's files share. The helpers validate at the door
 * (STYLE.md 2) and record why they fail (STYLE.md 3) through vk_fail.
 */
#ifndef EXTMEM_VK_INTERNAL_H
#define EXTMEM_VK_INTERNAL_H

#include <volk.h>

#include "extmem/vulkan.h"

/* Records code with a reason ("function: what: why") as this thread's failure, where
 * extmem_error_detail() shows it, and returns code. */
CUresult vk_fail(CUresult code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Vulkan's name for a result ("VK_ERROR_OUT_OF_HOST_MEMORY"), or "VkResult <n>". The
 * text lives in a thread-local buffer for unknown codes: use it before the next call. */
const char *vk_result_name(VkResult r);

/* The extmem code for a failed Vulkan call: out-of-memory results become
 * CUDA_ERROR_OUT_OF_MEMORY, VK_ERROR_INVALID_EXTERNAL_HANDLE CUDA_ERROR_INVALID_VALUE, the
 * rest CUDA_ERROR_UNKNOWN. */
CUresult vk_result_to_cu(VkResult r);

/* Loads the Vulkan loader once (volkInitialize) and the loader's own exports the helpers
 * need without an instance. Fails with CUDA_ERROR_NOT_SUPPORTED and a reason. */
CUresult vk_loader(const char *fn);

/* The loader's entry points for objects the caller passes without their instance: the
 * loader exports its trampolines for every core command (Vulkan-Loader's
 * LoaderApplicationInterface.md), and they dispatch through the object itself. */
typedef struct vk_loader_exports {
    PFN_vkGetDeviceProcAddr GetDeviceProcAddr;
    PFN_vkGetPhysicalDeviceProperties2 GetPhysicalDeviceProperties2; /* Vulkan 1.1 loaders */
    PFN_vkGetPhysicalDeviceMemoryProperties GetPhysicalDeviceMemoryProperties;
} vk_loader_exports;
const vk_loader_exports *vk_exports(void);

#endif
