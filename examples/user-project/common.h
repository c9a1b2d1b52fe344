// common.h: what the project's programs share: the checks of CUDA and Vulkan calls (the first
// failure ends the program, naming the call and its source file) and the Vulkan device that is
// the CUDA device.
#pragma once

#include <cuda_runtime.h>
#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

inline const char *check_source(const char *file)
{
    const char *slash = std::strrchr(file, '/');
    return slash ? slash + 1 : file;
}

#define CHECK_CUDA(call)                                                                           \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "%s: %s failed: %s\n", check_source(__FILE__), #call,             \
                         cudaGetErrorString(e_));                                                  \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

#define CHECK_VK(call)                                                                             \
    do {                                                                                           \
        VkResult r_ = (call);                                                                      \
        if (r_ != VK_SUCCESS) {                                                                    \
            std::fprintf(stderr, "%s: %s failed: VkResult %d\n", check_source(__FILE__), #call,    \
                         static_cast<int>(r_));                                                    \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

// The physical device whose UUID is CUDA device 0's (VK_NULL_HANDLE if none), as NVIDIA's samples
// pair them; who names the program in the message it prints.
inline VkPhysicalDevice cuda_vulkan_device(VkInstance instance, const char *who)
{
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    uint32_t n = 0;
    CHECK_VK(vkEnumeratePhysicalDevices(instance, &n, nullptr));
    std::vector<VkPhysicalDevice> physicals(n);
    CHECK_VK(vkEnumeratePhysicalDevices(instance, &n, physicals.data()));
    for (VkPhysicalDevice p : physicals) {
        VkPhysicalDeviceIDProperties id = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
        VkPhysicalDeviceProperties2 props = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &id};
        vkGetPhysicalDeviceProperties2(p, &props);
        if (std::memcmp(id.deviceUUID, prop.uuid.bytes, VK_UUID_SIZE) == 0) {
            std::printf("%s: CUDA device \"%s\" is Vulkan device \"%s\"\n", who, prop.name,
                        props.properties.deviceName);
            return p;
        }
    }
    std::fprintf(stderr, "%s: no Vulkan device has the CUDA device's UUID\n", who);
    return VK_NULL_HANDLE;
}

// A command pool on queue family 0 and one primary command buffer from it (resettable).
inline VkCommandBuffer one_command_buffer(VkDevice device, VkCommandPool *pool)
{
    VkCommandPoolCreateInfo pool_info = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    CHECK_VK(vkCreateCommandPool(device, &pool_info, nullptr, pool));
    VkCommandBufferAllocateInfo cmd_info = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cmd_info.commandPool = *pool;
    cmd_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cmd_info.commandBufferCount = 1;
    VkCommandBuffer cmd;
    CHECK_VK(vkAllocateCommandBuffers(device, &cmd_info, &cmd));
    return cmd;
}
