// app.cu: Vulkan fills a buffer, CUDA imports its memory and transforms it in place with a
// kernel, and Vulkan's mapping reads the result back. On a GitHub runner it runs on lavapipe and
// extmem's software device (`extmem-run -- ./app`); on a machine with an NVIDIA GPU, built with
// nvcc, the same code runs there.
#include "common.h"

#include <cuda_runtime.h>
#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void scale_and_offset(unsigned *words, unsigned count)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        words[i] = words[i] * 3 + i;
}

int main()
{
    const unsigned count = 1u << 18; // 1 MiB of words
    const VkDeviceSize bytes = count * sizeof(unsigned);

    VkApplicationInfo app_info = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app_info.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo instance_info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    instance_info.pApplicationInfo = &app_info;
    VkInstance instance;
    CHECK_VK(vkCreateInstance(&instance_info, nullptr, &instance));

    // The Vulkan device that is the CUDA device: the same UUID.
    VkPhysicalDevice physical = cuda_vulkan_device(instance, "app");
    if (physical == VK_NULL_HANDLE)
        return 1;

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue_info.queueFamilyIndex = 0; // the first family does graphics or compute, hence transfers
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    const char *extensions[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME};
    VkDeviceCreateInfo device_info = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue_info;
    device_info.enabledExtensionCount = 1;
    device_info.ppEnabledExtensionNames = extensions;
    VkDevice device;
    CHECK_VK(vkCreateDevice(physical, &device_info, nullptr, &device));
    VkQueue queue;
    vkGetDeviceQueue(device, 0, 0, &queue);

    // An exportable, host-visible buffer.
    VkExternalMemoryBufferCreateInfo external_buffer = {VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
    external_buffer.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkBufferCreateInfo buffer_info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &external_buffer};
    buffer_info.size = bytes;
    buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    VkBuffer buffer;
    CHECK_VK(vkCreateBuffer(device, &buffer_info, nullptr, &buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, buffer, &req);
    VkPhysicalDeviceMemoryProperties memory_props;
    vkGetPhysicalDeviceMemoryProperties(physical, &memory_props);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = 0;
    while (type < memory_props.memoryTypeCount &&
           !((req.memoryTypeBits >> type & 1) && (memory_props.memoryTypes[type].propertyFlags & want) == want))
        ++type;
    VkExportMemoryAllocateInfo export_info = {VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
    export_info.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkMemoryAllocateInfo alloc_info = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &export_info};
    alloc_info.allocationSize = req.size;
    alloc_info.memoryTypeIndex = type;
    VkDeviceMemory memory;
    CHECK_VK(vkAllocateMemory(device, &alloc_info, nullptr, &memory));
    CHECK_VK(vkBindBufferMemory(device, buffer, memory, 0));

    // Vulkan fills every word with 7 on its queue.
    VkCommandPool pool;
    VkCommandBuffer cmd = one_command_buffer(device, &pool);
    VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CHECK_VK(vkBeginCommandBuffer(cmd, &begin));
    vkCmdFillBuffer(cmd, buffer, 0, bytes, 7);
    CHECK_VK(vkEndCommandBuffer(cmd));
    VkSubmitInfo submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    CHECK_VK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
    CHECK_VK(vkQueueWaitIdle(queue));

    // CUDA imports the same memory (no copy) and transforms it.
    auto get_fd = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(device, "vkGetMemoryFdKHR"));
    VkMemoryGetFdInfoKHR fd_info = {VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
    fd_info.memory = memory;
    fd_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    int fd = -1;
    CHECK_VK(get_fd(device, &fd_info, &fd));
    cudaExternalMemoryHandleDesc handle = {};
    handle.type = cudaExternalMemoryHandleTypeOpaqueFd;
    handle.handle.fd = fd;
    handle.size = req.size;
    cudaExternalMemory_t external;
    CHECK_CUDA(cudaImportExternalMemory(&external, &handle));
    cudaExternalMemoryBufferDesc buffer_desc = {};
    buffer_desc.size = bytes;
    void *words = nullptr;
    CHECK_CUDA(cudaExternalMemoryGetMappedBuffer(&words, external, &buffer_desc));
    scale_and_offset<<<(count + 255) / 256, 256>>>(static_cast<unsigned *>(words), count);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());

    // Vulkan's mapping sees what the kernel wrote.
    void *mapped = nullptr;
    CHECK_VK(vkMapMemory(device, memory, 0, bytes, 0, &mapped));
    const unsigned *seen = static_cast<const unsigned *>(mapped);
    unsigned wrong = 0;
    for (unsigned i = 0; i < count; ++i)
        wrong += seen[i] != 7 * 3 + i;
    vkUnmapMemory(device, memory);
    std::printf("app: %u words: Vulkan filled them, a CUDA kernel transformed them, Vulkan read them back: %u wrong\n",
                count, wrong);

    CHECK_CUDA(cudaFree(words));
    CHECK_CUDA(cudaDestroyExternalMemory(external));
    vkDestroyCommandPool(device, pool, nullptr);
    vkDestroyBuffer(device, buffer, nullptr);
    vkFreeMemory(device, memory, nullptr);
    vkDestroyDevice(device, nullptr);
    vkDestroyInstance(instance, nullptr);
    std::printf("app: %s\n", wrong ? "FAILED" : "PASSED");
    return wrong ? 1 : 0;
}
