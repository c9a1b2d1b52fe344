/*
 * vk_cuda.h: the CUDA side that extmem's windowed samples share (header-only: it is compiled
 * as CUDA, by clang or nvcc, with each program): CUDA(call), which ends the program naming the
 * failed call, and the CUDA device paired with the Vulkan device by UUID, as NVIDIA's samples
 * pair them.
 */
#ifndef EXTMEM_SAMPLES_VK_CUDA_H
#define EXTMEM_SAMPLES_VK_CUDA_H

#include <cuda_runtime.h>
#if __has_include("extmem/extmem.h")
#include "extmem/extmem.h"
#define VK_SAMPLE_ON_EXTMEM 1
#endif

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "vk_window.h"

namespace vkwin {

[[noreturn]] inline void failed_cuda(const char *call, cudaError_t e)
{
    std::fflush(stdout);
#ifdef VK_SAMPLE_ON_EXTMEM
    // extmem records why a call failed; NVIDIA's runtime has only the code's text.
    std::fprintf(stderr, "%s: %s failed: %s (%s)\n  why: %s\n", program, call, cudaGetErrorName(e),
                 cudaGetErrorString(e), extmem_error_detail());
#else
    std::fprintf(stderr, "%s: %s failed: %s (%s)\n", program, call, cudaGetErrorName(e), cudaGetErrorString(e));
#endif
    std::exit(1);
}

#define CUDA(call)                                                                                               \
    do {                                                                                                         \
        cudaError_t cuda_e_ = (call);                                                                            \
        if (cuda_e_ != cudaSuccess)                                                                              \
            ::vkwin::failed_cuda(#call, cuda_e_);                                                                \
    } while (0)

/* The CUDA device whose UUID is the Vulkan device's becomes the current one; its number. */
inline int set_cuda_device(const uint8_t (&uuid)[VK_UUID_SIZE])
{
    int count = 0;
    CUDA(cudaGetDeviceCount(&count));
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp prop;
        CUDA(cudaGetDeviceProperties(&prop, d));
        if (std::memcmp(prop.uuid.bytes, uuid, VK_UUID_SIZE) == 0) {
            CUDA(cudaSetDevice(d));
            std::printf("CUDA device %d: \"%s\", the Vulkan device's UUID\n", d, prop.name);
            return d;
        }
    }
    fail("no CUDA device has the Vulkan device's UUID");
}

/* Vulkan memory (allocated with VkExportMemoryAllocateInfo, OPAQUE_FD) imported by CUDA. A
 * successful import makes the fd CUDA's (cudaImportExternalMemory's documentation: do not use
 * or close it); a failed one leaves it the caller's, so it is closed here. */
inline cudaExternalMemory_t import_memory(VkDevice device, VkDeviceMemory memory, VkDeviceSize bytes)
{
    int fd = -1;
    VkMemoryGetFdInfoKHR gi = {};
    gi.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR;
    gi.memory = memory;
    gi.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VK(vkGetMemoryFdKHR(device, &gi, &fd));
    cudaExternalMemoryHandleDesc md = {};
    md.type = cudaExternalMemoryHandleTypeOpaqueFd;
    md.handle.fd = fd;
    md.size = bytes;
    cudaExternalMemory_t out = nullptr;
    const cudaError_t e = cudaImportExternalMemory(&out, &md);
    if (e != cudaSuccess) {
        close(fd);
        failed_cuda("cudaImportExternalMemory(&out, &md)", e);
    }
    return out;
}

/* A Vulkan semaphore exported as OPAQUE_FD (made by window_app::create_exported_semaphore)
 * imported by CUDA, binary or timeline; the fd follows the same rule as memory's. */
inline cudaExternalSemaphore_t import_semaphore(VkDevice device, VkSemaphore s, bool timeline)
{
    int fd = -1;
    VkSemaphoreGetFdInfoKHR gi = {};
    gi.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR;
    gi.semaphore = s;
    gi.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    VK(vkGetSemaphoreFdKHR(device, &gi, &fd));
    cudaExternalSemaphoreHandleDesc sd = {};
    sd.type = timeline ? cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd : cudaExternalSemaphoreHandleTypeOpaqueFd;
    sd.handle.fd = fd;
    cudaExternalSemaphore_t out = nullptr;
    const cudaError_t e = cudaImportExternalSemaphore(&out, &sd);
    if (e != cudaSuccess) {
        close(fd);
        failed_cuda("cudaImportExternalSemaphore(&out, &sd)", e);
    }
    return out;
}

} // namespace vkwin

#endif
