/*
 * Semaphores from Vulkan to extmem in one call: vkGetSemaphoreFdKHR (OPAQUE_FD) and
 * cuImportExternalSemaphore, as NVIDIA's interop samples write it. On lavapipe the export
 * comes from extmem's semaphore layer (docs/external-semaphores.md).
 */
#include "vk_internal.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

CUresult extmem_vk_import_semaphore(VkDevice device, VkSemaphore semaphore, bool timeline,
                                    CUexternalSemaphore *extSem)
{
    static const char fn[] = "extmem_vk_import_semaphore";
    if (device == VK_NULL_HANDLE || semaphore == VK_NULL_HANDLE)
        return vk_fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is VK_NULL_HANDLE", fn,
                       device == VK_NULL_HANDLE ? "device" : "semaphore");
    if (!extSem)
        return vk_fail(CUDA_ERROR_INVALID_VALUE, "%s: extSem is NULL", fn);
    CUresult r = vk_loader(fn);
    if (r)
        return r;
    PFN_vkGetSemaphoreFdKHR get_fd =
        (PFN_vkGetSemaphoreFdKHR)vk_exports()->GetDeviceProcAddr(device, "vkGetSemaphoreFdKHR");
    if (!get_fd)
        return vk_fail(CUDA_ERROR_NOT_SUPPORTED,
                       "%s: the device was created without VK_KHR_external_semaphore_fd (on lavapipe, enable "
                       "extmem's layer VK_LAYER_EXTMEM_external_semaphore: docs/external-semaphores.md)",
                       fn);

    const VkSemaphoreGetFdInfoKHR info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR,
                                          .semaphore = semaphore,
                                          .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
    int fd = -1;
    VkResult vr = get_fd(device, &info, &fd);
    if (vr != VK_SUCCESS || fd < 0)
        return vk_fail(vr == VK_SUCCESS ? CUDA_ERROR_INVALID_VALUE : vk_result_to_cu(vr),
                       "%s: vkGetSemaphoreFdKHR failed: %s: create the semaphore with VkExportSemaphoreCreateInfo "
                       "naming VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT",
                       fn, vr == VK_SUCCESS ? "no fd" : vk_result_name(vr));

    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC desc;
    memset(&desc, 0, sizeof(desc));
    desc.type = timeline ? CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD
                         : CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
    desc.handle.fd = fd;
    r = cuImportExternalSemaphore(extSem, &desc);
    if (r) {
        /* A failed import leaves the fd ours; nobody else has it, so close it and say so. */
        char why[400];
        snprintf(why, sizeof(why), "%s", extmem_error_detail());
        close(fd);
        return vk_fail(r, "%s: %s [the fd %d was this call's own export: it is closed]", fn, why, fd);
    }
    return CUDA_SUCCESS;
}
