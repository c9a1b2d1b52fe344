/*
 * Memory between Vulkan and extmem, with no copy either way: Vulkan's OPAQUE_FD exports
 * imported by cuImportExternalMemory (lavapipe's memfds, docs/lavapipe-memfd.md), and extmem
 * memory imported by Vulkan as a host allocation (VK_EXT_external_memory_host).
 */
#include "vk_internal.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

CUresult extmem_vk_import_memory(VkDevice device, VkDeviceMemory memory, VkDeviceSize size, CUexternalMemory *extMem)
{
    static const char fn[] = "extmem_vk_import_memory";
    if (device == VK_NULL_HANDLE || memory == VK_NULL_HANDLE)
        return vk_fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is VK_NULL_HANDLE", fn,
                       device == VK_NULL_HANDLE ? "device" : "memory");
    if (size == 0)
        return vk_fail(CUDA_ERROR_INVALID_VALUE, "%s: size is 0: give the size of the memory", fn);
    if (!extMem)
        return vk_fail(CUDA_ERROR_INVALID_VALUE, "%s: extMem is NULL", fn);
    CUresult r = vk_loader(fn);
    if (r)
        return r;
    PFN_vkGetMemoryFdKHR get_fd = (PFN_vkGetMemoryFdKHR)vk_exports()->GetDeviceProcAddr(device, "vkGetMemoryFdKHR");
    if (!get_fd)
        return vk_fail(CUDA_ERROR_NOT_SUPPORTED, "%s: the device was created without VK_KHR_external_memory_fd", fn);

    const VkMemoryGetFdInfoKHR info = {.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR,
                                       .memory = memory,
                                       .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    int fd = -1;
    VkResult vr = get_fd(device, &info, &fd);
    if (vr != VK_SUCCESS)
        return vk_fail(vk_result_to_cu(vr), "%s: vkGetMemoryFdKHR failed: %s%s", fn, vk_result_name(vr),
                       vr == VK_ERROR_INVALID_EXTERNAL_HANDLE ? ": allocate the memory with VkExportMemoryAllocateInfo "
                                                                "naming VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT"
                                                              : "");
    /* lavapipe answers VK_SUCCESS and -1 for memory that was not allocated exportable. */
    if (fd < 0)
        return vk_fail(CUDA_ERROR_INVALID_VALUE,
                       "%s: vkGetMemoryFdKHR gave no fd (%d): the memory was not allocated with "
                       "VkExportMemoryAllocateInfo naming VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT",
                       fn, fd);

    CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
    desc.handle.fd = fd;
    desc.size = size;
    r = cuImportExternalMemory(extMem, &desc);
    if (r) {
        /* A failed import leaves the fd ours; nobody else has it, so close it and say so. */
        char why[400];
        snprintf(why, sizeof(why), "%s", extmem_error_detail());
        close(fd);
        return vk_fail(r, "%s: %s [the fd %d was this call's own export: it is closed]", fn, why, fd);
    }
    return CUDA_SUCCESS;
}

/* minImportedHostPointerAlignment, or 0 when the device does not have the extension. */
static VkDeviceSize host_alignment(VkPhysicalDevice physicalDevice)
{
    PFN_vkGetPhysicalDeviceProperties2 props2 = vk_exports()->GetPhysicalDeviceProperties2;
    if (!props2)
        return 0;
    VkPhysicalDeviceExternalMemoryHostPropertiesEXT host = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &host};
    props2(physicalDevice, &p2);
    return host.minImportedHostPointerAlignment;
}

CUresult extmem_vk_host_import_alignment(VkPhysicalDevice physicalDevice, VkDeviceSize *alignment)
{
    static const char fn[] = "extmem_vk_host_import_alignment";
    if (physicalDevice == VK_NULL_HANDLE)
        return vk_fail(CUDA_ERROR_INVALID_VALUE, "%s: physicalDevice is VK_NULL_HANDLE", fn);
    if (!alignment)
        return vk_fail(CUDA_ERROR_INVALID_VALUE, "%s: alignment is NULL", fn);
    CUresult r = vk_loader(fn);
    if (r)
        return r;
    VkDeviceSize a = host_alignment(physicalDevice);
    if (a == 0)
        return vk_fail(CUDA_ERROR_NOT_SUPPORTED,
                       "%s: the physical device does not support VK_EXT_external_memory_host (its "
                       "minImportedHostPointerAlignment is 0)",
                       fn);
    *alignment = a;
    return CUDA_SUCCESS;
}

/* The first type allowed by bits, host-visible ones first (so vkMapMemory shows ptr). */
static uint32_t pick_type(VkPhysicalDevice physicalDevice, uint32_t bits)
{
    VkPhysicalDeviceMemoryProperties mp;
    vk_exports()->GetPhysicalDeviceMemoryProperties(physicalDevice, &mp);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
            return i;
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
        if (bits & (1u << i))
            return i;
    return UINT32_MAX;
}

CUresult extmem_vk_import_host_memory(VkPhysicalDevice physicalDevice, VkDevice device, CUdeviceptr ptr,
                                      VkDeviceSize size, uint32_t memoryTypeBits, VkDeviceMemory *memory)
{
    static const char fn[] = "extmem_vk_import_host_memory";
    if (physicalDevice == VK_NULL_HANDLE || device == VK_NULL_HANDLE)
        return vk_fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is VK_NULL_HANDLE", fn,
                       physicalDevice == VK_NULL_HANDLE ? "physicalDevice" : "device");
    if (!ptr)
        return vk_fail(CUDA_ERROR_INVALID_VALUE, "%s: ptr is 0", fn);
    if (size == 0)
        return vk_fail(CUDA_ERROR_INVALID_VALUE, "%s: size is 0", fn);
    if (!memory)
        return vk_fail(CUDA_ERROR_INVALID_VALUE, "%s: memory is NULL", fn);
    CUresult r = vk_loader(fn);
    if (r)
        return r;
    PFN_vkGetMemoryHostPointerPropertiesEXT host_props = (PFN_vkGetMemoryHostPointerPropertiesEXT)vk_exports()
                                                             ->GetDeviceProcAddr(device, "vkGetMemoryHostPointerPropertiesEXT");
    VkDeviceSize align = host_alignment(physicalDevice);
    if (!host_props || align == 0)
        return vk_fail(CUDA_ERROR_NOT_SUPPORTED, "%s: the device was created without VK_EXT_external_memory_host", fn);
    if (ptr % align)
        return vk_fail(CUDA_ERROR_INVALID_VALUE,
                       "%s: ptr 0x%llx is not aligned to the device's minImportedHostPointerAlignment %llu", fn,
                       (unsigned long long)ptr, (unsigned long long)align);
    if (size > ~(VkDeviceSize)0 - (align - 1))
        return vk_fail(CUDA_ERROR_INVALID_VALUE, "%s: size %llu is too large", fn, (unsigned long long)size);
    const VkDeviceSize rounded = (size + align - 1) / align * align;

    /* The bytes must be extmem's, and all of them: Vulkan will read and write the whole
     * rounded range. */
    CUdeviceptr base = 0;
    size_t base_size = 0;
    r = cuMemGetAddressRange(&base, &base_size, ptr);
    if (r == CUDA_ERROR_INVALID_CONTEXT)
        return r;
    if (r)
        return vk_fail(CUDA_ERROR_INVALID_VALUE, "%s: ptr 0x%llx is not extmem memory of the current context (%s)", fn,
                       (unsigned long long)ptr, extmem_error_detail());
    if (rounded > (VkDeviceSize)(base + base_size - ptr))
        return vk_fail(CUDA_ERROR_INVALID_VALUE,
                       "%s: %llu bytes (size %llu rounded up to the alignment %llu) at 0x%llx pass the end of its "
                       "allocation (0x%llx, %zu bytes)",
                       fn, (unsigned long long)rounded, (unsigned long long)size, (unsigned long long)align,
                       (unsigned long long)ptr, (unsigned long long)base, base_size);

    VkMemoryHostPointerPropertiesEXT props = {.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
    VkResult vr = host_props(device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
                             (const void *)(uintptr_t)ptr, &props);
    if (vr != VK_SUCCESS)
        return vk_fail(vk_result_to_cu(vr), "%s: vkGetMemoryHostPointerPropertiesEXT failed: %s", fn,
                       vk_result_name(vr));
    uint32_t type = pick_type(physicalDevice, props.memoryTypeBits & memoryTypeBits);
    if (type == UINT32_MAX)
        return vk_fail(CUDA_ERROR_INVALID_VALUE,
                       "%s: no memory type can import the pointer: the device allows types 0x%x, memoryTypeBits "
                       "is 0x%x",
                       fn, props.memoryTypeBits, memoryTypeBits);

    const VkImportMemoryHostPointerInfoEXT import = {.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT,
                                                     .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
                                                     .pHostPointer = (void *)(uintptr_t)ptr};
    const VkMemoryAllocateInfo info = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                       .pNext = &import,
                                       .allocationSize = rounded,
                                       .memoryTypeIndex = type};
    PFN_vkAllocateMemory allocate = (PFN_vkAllocateMemory)vk_exports()->GetDeviceProcAddr(device, "vkAllocateMemory");
    vr = allocate(device, &info, NULL, memory);
    if (vr != VK_SUCCESS)
        return vk_fail(vk_result_to_cu(vr), "%s: vkAllocateMemory of %llu bytes at 0x%llx failed: %s", fn,
                       (unsigned long long)rounded, (unsigned long long)ptr, vk_result_name(vr));
    return CUDA_SUCCESS;
}
