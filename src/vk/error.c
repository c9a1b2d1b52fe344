/*
 * Failures of the Vulkan helpers land where extmem's own do (DESIGN.md §5): the core's
 * thread-local reason, read with extmem_error_detail(), recorded through extmem_error_set.
 */
#include "vk_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CUresult vk_fail(CUresult code, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    return extmem_error_set(code, "%s", text);
}

const char *vk_result_name(VkResult r)
{
    switch (r) {
#define NAME(x) \
    case x: return #x;
        NAME(VK_SUCCESS)
        NAME(VK_NOT_READY)
        NAME(VK_TIMEOUT)
        NAME(VK_INCOMPLETE)
        NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
        NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        NAME(VK_ERROR_INITIALIZATION_FAILED)
        NAME(VK_ERROR_DEVICE_LOST)
        NAME(VK_ERROR_MEMORY_MAP_FAILED)
        NAME(VK_ERROR_LAYER_NOT_PRESENT)
        NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
        NAME(VK_ERROR_FEATURE_NOT_PRESENT)
        NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
        NAME(VK_ERROR_TOO_MANY_OBJECTS)
        NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
        NAME(VK_ERROR_FRAGMENTED_POOL)
        NAME(VK_ERROR_UNKNOWN)
        NAME(VK_ERROR_OUT_OF_POOL_MEMORY)
        NAME(VK_ERROR_INVALID_EXTERNAL_HANDLE)
        NAME(VK_ERROR_FRAGMENTATION)
        NAME(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
#undef NAME
    default: {
        static _Thread_local char text[32];
        snprintf(text, sizeof(text), "VkResult %d", (int)r);
        return text;
    }
    }
}

CUresult vk_result_to_cu(VkResult r)
{
    switch (r) {
    case VK_SUCCESS: return CUDA_SUCCESS;
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_TOO_MANY_OBJECTS: return CUDA_ERROR_OUT_OF_MEMORY;
    case VK_ERROR_INVALID_EXTERNAL_HANDLE: return CUDA_ERROR_INVALID_VALUE;
    default: return CUDA_ERROR_UNKNOWN;
    }
}
