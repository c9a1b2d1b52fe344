/* tests/vk/vk_harness.h: lavapipe for the Vulkan interop tests: an instance, the CPU device,
 * a compute queue and the two pattern shaders (samples/shaders/fill.comp and verify.comp). */
#ifndef EXTMEM_TESTS_VK_HARNESS_H
#define EXTMEM_TESTS_VK_HARNESS_H

#include <volk.h>

#include <string>

#include "extmem/vulkan.h"
#include "pattern.h"

namespace extmem_vk_test {

/* lavapipe, found by what it is (a CPU device named llvmpipe), not through pairing, so only
 * the pairing tests depend on cuDeviceGetUuid. */
class Gpu {
public:
    Gpu() = default;
    ~Gpu();
    Gpu(const Gpu &) = delete;
    Gpu &operator=(const Gpu &) = delete;

    /* "" on success, otherwise what went wrong. */
    std::string init();

    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkPhysicalDeviceProperties props{};
    unsigned char device_uuid[VK_UUID_SIZE]{};

    /* A storage buffer whose memory may be of the external handle types given (0: none). */
    VkBuffer buffer(VkDeviceSize size, VkExternalMemoryHandleTypeFlags external);
    /* Host-visible memory; exportable as OPAQUE_FD when exportable is true. */
    VkDeviceMemory allocate(VkDeviceSize size, uint32_t type_bits, bool exportable);

    /* Words [0, count) of buffer from offset: fill writes pattern(i, seed) * mul + add;
     * verify counts the words that differ from it (the result in *out). */
    VkResult fill(VkBuffer buf, VkDeviceSize offset, uint32_t count, uint32_t seed, uint32_t mul = 1,
                  uint32_t add = 0);
    VkResult verify(VkBuffer buf, VkDeviceSize offset, uint32_t count, uint32_t seed, uint32_t mul, uint32_t add,
                    extmem_pattern_result *out);

private:
    VkResult run(VkPipeline pipeline, VkBuffer buf, VkDeviceSize offset, const extmem_pattern_push &push);
    VkResult make_pipeline(const uint32_t *code, size_t size, VkPipeline *out);

    VkQueue queue_ = VK_NULL_HANDLE;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer cmd_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline fill_ = VK_NULL_HANDLE, verify_ = VK_NULL_HANDLE;
    VkDescriptorPool descriptors_ = VK_NULL_HANDLE;
    VkBuffer result_ = VK_NULL_HANDLE;
    VkDeviceMemory result_memory_ = VK_NULL_HANDLE;
    extmem_pattern_result *result_map_ = nullptr;
};

/* The software-device kernels: fill writes pattern(i, seed) * mul + add into count words
 * at data; transform turns each word w into w * mul + add. Both run in stream and wait. */
CUresult kernel_fill(CUdeviceptr data, uint32_t count, uint32_t seed, uint32_t mul, uint32_t add);
CUresult kernel_transform(CUdeviceptr data, uint32_t count, uint32_t mul, uint32_t add);

/* Words of data that differ from pattern(i, seed) * mul + add, read by the host. */
size_t count_wrong(const uint32_t *data, uint32_t count, uint32_t seed, uint32_t mul, uint32_t add);

/* Only lavapipe (VK_ICD_FILENAMES / VK_DRIVER_FILES), unless the environment names drivers
 * already: ctest sets them, this covers running the program by hand. */
void use_lavapipe_only();

} // namespace extmem_vk_test

#endif
