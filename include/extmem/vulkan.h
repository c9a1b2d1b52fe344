/*
 * extmem/vulkan.h: Vulkan interop helpers (library extmem_vulkan, CMake target
 * extmem::vulkan), an opt-in header beside the core's (STYLE.md 7).
 *
 * The helpers reach Vulkan through volk inside extmem_vulkan, so neither the library nor a
 * program that uses only these calls links the Vulkan loader. They work with Vulkan objects
 * created through the system loader (libvulkan.so.1) by the application, whether the
 * application links the loader or loads it with volk.
 *
 * A program that uses volk includes <volk.h> (or defines VK_NO_PROTOTYPES) before this
 * header, as volk requires of every header that includes vulkan.h.
 *
 * Every call returns a CUresult and, on failure, records why (extmem_error_detail), with the
 * VkResult of a failed Vulkan call named in the text. Linux only: the memory crosses as an
 * OPAQUE_FD (a memfd).
 */
#ifndef EXTMEM_VULKAN_H
#define EXTMEM_VULKAN_H

#ifndef VULKAN_H_
#include <vulkan/vulkan.h>
#endif

#include "extmem/extmem.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Finds the physical device of instance that is dev itself, the way NVIDIA's samples pair
 * devices: the one whose VkPhysicalDeviceIDProperties::deviceUUID equals cuDeviceGetUuid(dev).
 * On extmem that is Mesa's lavapipe. instance must be a Vulkan 1.1 instance (or have
 * VK_KHR_get_physical_device_properties2 enabled).
 * Returns:
 *   CUDA_SUCCESS                   *physicalDevice is the paired device
 *   CUDA_ERROR_INVALID_VALUE       instance is VK_NULL_HANDLE; physicalDevice is NULL
 *   CUDA_ERROR_NOT_INITIALIZED, CUDA_ERROR_INVALID_DEVICE
 *                                  from cuDeviceGetUuid (cuInit not called; dev does not exist)
 *   CUDA_ERROR_NOT_SUPPORTED       no Vulkan loader (libvulkan.so.1) can be loaded; the
 *                                  instance has neither vkGetPhysicalDeviceProperties2 nor
 *                                  its KHR form
 *   CUDA_ERROR_NOT_FOUND           no physical device of instance has dev's UUID (the detail
 *                                  lists the devices seen with their UUIDs)
 *   CUDA_ERROR_OUT_OF_MEMORY       vkEnumeratePhysicalDevices ran out of memory, or a host
 *                                  allocation failed
 *   CUDA_ERROR_UNKNOWN             vkEnumeratePhysicalDevices failed otherwise (the detail names
 *                                  its VkResult) */
EXTMEM_API CUresult extmem_vk_find_paired_device(VkInstance instance, CUdevice dev,
                                                 VkPhysicalDevice *physicalDevice);

/* Exports memory as an OPAQUE_FD (vkGetMemoryFdKHR) and imports that fd into the current
 * context (cuImportExternalMemory), in one call: NVIDIA's sample code without the fd
 * bookkeeping. memory must have been allocated with VkExportMemoryAllocateInfo naming
 * VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT on a device created with
 * VK_KHR_external_memory_fd. size is the size to import, as NVIDIA's samples pass it
 * (VkMemoryRequirements::size or VkMemoryAllocateInfo::allocationSize). The fd becomes
 * extmem's on success; on any failure after the export it is closed, so nothing leaks. The
 * VkDeviceMemory stays the application's and may be freed before or after
 * cuDestroyExternalMemory: the pages live while either side holds them.
 * Returns:
 *   CUDA_SUCCESS                   *extMem is the imported memory
 *   CUDA_ERROR_INVALID_VALUE       device or memory is VK_NULL_HANDLE; size is 0; extMem is
 *                                  NULL; memory was not allocated exportable as OPAQUE_FD
 *                                  (vkGetMemoryFdKHR gave no fd, or failed with
 *                                  VK_ERROR_INVALID_EXTERNAL_HANDLE)
 *   CUDA_ERROR_NOT_SUPPORTED       no Vulkan loader; device was created without
 *                                  VK_KHR_external_memory_fd
 *   CUDA_ERROR_OUT_OF_MEMORY       vkGetMemoryFdKHR ran out of memory or fds
 *   any code of cuImportExternalMemory (no current context, a size larger than the memory...) */
EXTMEM_API CUresult extmem_vk_import_memory(VkDevice device, VkDeviceMemory memory, VkDeviceSize size,
                                           CUexternalMemory *extMem);

/* The alignment VK_EXT_external_memory_host needs of a host pointer and of the size
 * imported with it on physicalDevice (minImportedHostPointerAlignment: 4096 on lavapipe).
 * Returns:
 *   CUDA_SUCCESS                   *alignment is set
 *   CUDA_ERROR_INVALID_VALUE       physicalDevice is VK_NULL_HANDLE; alignment is NULL
 *   CUDA_ERROR_NOT_SUPPORTED       no Vulkan loader; the device lacks VK_EXT_external_memory_host
 *                                  (it reports an alignment of 0) */
EXTMEM_API CUresult extmem_vk_host_import_alignment(VkPhysicalDevice physicalDevice, VkDeviceSize *alignment);

/* Hands extmem memory to Vulkan without a copy: allocates a VkDeviceMemory over the bytes at
 * ptr (VkImportMemoryHostPointerInfoEXT, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT).
 * ptr is extmem device memory of the current context (cuMemAlloc, a mapped external buffer,
 * a cuMemMap'ped range...) aligned to extmem_vk_host_import_alignment; size is rounded up to
 * that alignment and the rounded range must lie inside the allocation that contains ptr.
 * memoryTypeBits limits the memory types (VkMemoryRequirements::memoryTypeBits of the buffer
 * to bind, or ~0u); a host-visible type is preferred, so vkMapMemory shows ptr itself.
 * device must have VK_EXT_external_memory_host enabled. The bytes stay extmem's: free the
 * VkDeviceMemory (and destroy what is bound to it) before freeing ptr.
 * Returns:
 *   CUDA_SUCCESS                   *memory is the new VkDeviceMemory
 *   CUDA_ERROR_INVALID_VALUE       physicalDevice or device is VK_NULL_HANDLE; ptr is 0 or
 *                                  not aligned; size is 0; memory is NULL; ptr is not extmem
 *                                  memory of the current context; the rounded range passes the
 *                                  end of its allocation; no memory type in memoryTypeBits
 *                                  can import the pointer
 *   CUDA_ERROR_INVALID_CONTEXT     no current context
 *   CUDA_ERROR_NOT_SUPPORTED       no Vulkan loader; VK_EXT_external_memory_host is not
 *                                  enabled on device
 *   CUDA_ERROR_OUT_OF_MEMORY       vkAllocateMemory ran out of host or device memory */
EXTMEM_API CUresult extmem_vk_import_host_memory(VkPhysicalDevice physicalDevice, VkDevice device, CUdeviceptr ptr,
                                                VkDeviceSize size, uint32_t memoryTypeBits, VkDeviceMemory *memory);

/* Exports semaphore as an OPAQUE_FD (vkGetSemaphoreFdKHR) and imports that fd into extmem
 * (cuImportExternalSemaphore), in one call: NVIDIA's sample code without the fd bookkeeping.
 * semaphore must have been created with VkExportSemaphoreCreateInfo naming
 * VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT on a device created with
 * VK_KHR_external_semaphore_fd (on lavapipe, which lacks it, extmem's layer
 * VK_LAYER_EXTMEM_external_semaphore adds it: docs/external-semaphores.md). timeline says what
 * the semaphore is (VkSemaphoreTypeCreateInfo): true imports it as
 * CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD, false as
 * CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD. The fd becomes extmem's on success; on any
 * failure after the export it is closed, so nothing leaks. The VkSemaphore stays the
 * application's: both sides share one payload until both have let go of it.
 * Returns:
 *   CUDA_SUCCESS                   *extSem is the imported semaphore
 *   CUDA_ERROR_INVALID_VALUE       device or semaphore is VK_NULL_HANDLE; extSem is NULL; the
 *                                  semaphore is not exportable as OPAQUE_FD (vkGetSemaphoreFdKHR
 *                                  failed with VK_ERROR_INVALID_EXTERNAL_HANDLE or gave no fd);
 *                                  timeline does not say what the semaphore is
 *   CUDA_ERROR_NOT_SUPPORTED       no Vulkan loader; the device was created without
 *                                  VK_KHR_external_semaphore_fd
 *   CUDA_ERROR_OUT_OF_MEMORY       vkGetSemaphoreFdKHR ran out of memory or fds
 *   CUDA_ERROR_UNKNOWN             vkGetSemaphoreFdKHR failed otherwise; the fd is not a payload
 *                                  extmem knows (a driver's own export), as the driver says
 *   any other code of cuImportExternalSemaphore */
EXTMEM_API CUresult extmem_vk_import_semaphore(VkDevice device, VkSemaphore semaphore, bool timeline,
                                               CUexternalSemaphore *extSem);

#ifdef __cplusplus
}
#endif

#endif /* EXTMEM_VULKAN_H */
