/*
 * extmem-vulkan-demo: a Vulkan-CUDA interop program on lavapipe and the software device,
 * sharing memory both ways with no copies.
 *
 * It is written as such programs are written for an NVIDIA GPU, with the CUDA runtime API,
 * and compiled by Debian's clang with no CUDA toolkit (cmake/ExtmemCuda.cmake):
 * 1. Pairs the devices: the Vulkan physical device whose VkPhysicalDeviceIDProperties::deviceUUID
 *    equals cudaDeviceProp::uuid. On extmem that is Mesa's lavapipe.
 * 2. A Vulkan compute shader fills an exportable buffer on that device.
 * 3. CUDA imports the buffer's memory (vkGetMemoryFdKHR, cudaImportExternalMemory,
 *    cudaExternalMemoryGetMappedBuffer), and the demo proves no copy was made: both mappings
 *    are the same pages of the same file.
 * 4. A __global__ kernel, launched with <<<>>> on a stream, transforms every word in place.
 * 5. A Vulkan compute shader verifies every word, and the host reads them back through
 *    vkMapMemory and checks them again.
 * 6. The other way: cudaMalloc memory handed to Vulkan through VK_EXT_external_memory_host;
 *    Vulkan checks what the kernel wrote, fills it anew, and CUDA checks that.
 * Exits 0 when every check passes; at the first failure it says which call failed and exits 1.
 */
#include <volk.h>

#include <cuda_runtime.h>

#include "extmem/extmem.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "pattern.h"
#include "shaders/fill.comp.spv.h"
#include "shaders/verify.comp.spv.h"

namespace {

constexpr uint32_t WORDS = 4u << 20;      // act one: 16 MiB, shared from Vulkan to CUDA
constexpr uint32_t HOST_WORDS = 1u << 20; // act two: 4 MiB, shared from CUDA to Vulkan
constexpr uint32_t BLOCK = 256;           // threads per block of the kernel, and the shaders' local size
constexpr uint32_t MAX_GROUPS = 4096;     // the shaders stride over the rest

/* ---- Reporting: the first failure ends the demo, naming the call ---- */

[[noreturn]] void failed_cuda(const char *call, cudaError_t e)
{
    // extmem records why a call failed; NVIDIA's runtime has only the code's text.
    std::fprintf(stderr, "extmem-vulkan-demo: %s failed: %s (%s)\n  why: %s\n", call, cudaGetErrorName(e),
                 cudaGetErrorString(e), extmem_error_detail());
    std::exit(1);
}

[[noreturn]] void failed_vk(const char *call, VkResult r)
{
    std::fprintf(stderr, "extmem-vulkan-demo: %s failed: VkResult %d\n", call, static_cast<int>(r));
    std::exit(1);
}

[[noreturn]] void verification_failed(const char *what)
{
    std::printf("verification FAILED: %s\n", what);
    std::exit(1);
}

#define CUDA(call)                                                                                               \
    do {                                                                                                         \
        cudaError_t cuda_e_ = (call);                                                                            \
        if (cuda_e_ != cudaSuccess)                                                                              \
            failed_cuda(#call, cuda_e_);                                                                         \
    } while (0)

#define VK(call)                                                                                                 \
    do {                                                                                                         \
        VkResult vk_r_ = (call);                                                                                 \
        if (vk_r_ != VK_SUCCESS)                                                                                 \
            failed_vk(#call, vk_r_);                                                                             \
    } while (0)

double now_ms()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double gbps(size_t bytes, double ms) { return ms > 0 ? static_cast<double>(bytes) / (ms * 1e6) : 0.0; }

void uuid_text(const unsigned char *u, char out[37])
{
    static const int dash[16] = {0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0};
    char *p = out;
    for (int i = 0; i < 16; ++i)
        p += std::sprintf(p, "%02x%s", u[i], dash[i] ? "-" : "");
}

/* Which file and offset backs address p, from /proc/self/maps: the proof that two mappings
 * are the same pages. */
struct backing {
    unsigned long long inode, offset;
    char path[96];
};

bool backing_of(const void *p, backing *b)
{
    FILE *f = std::fopen("/proc/self/maps", "r");
    if (!f)
        return false;
    char line[512];
    bool found = false;
    const auto addr = reinterpret_cast<uintptr_t>(p);
    while (!found && std::fgets(line, sizeof(line), f)) {
        unsigned long long lo, hi, off, inode;
        int n = 0;
        if (std::sscanf(line, "%llx-%llx %*s %llx %*s %llu %n", &lo, &hi, &off, &inode, &n) < 4)
            continue;
        if (addr < lo || addr >= hi)
            continue;
        b->inode = inode;
        b->offset = off + (addr - lo);
        std::snprintf(b->path, sizeof(b->path), "%s", line + n);
        b->path[std::strcspn(b->path, "\n")] = 0;
        found = true;
    }
    std::fclose(f);
    return found;
}

} // namespace

/* ---- The CUDA kernel ---- */

// fill: write pattern(i) * mul + add; otherwise turn each word w into w * mul + add.
__global__ void transform(uint32_t *data, uint32_t count, uint32_t mul, uint32_t add, uint32_t seed, bool fill)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        data[i] = (fill ? extmem_pattern(i, seed) : data[i]) * mul + add;
}

/* ---- Vulkan: one queue, two compute pipelines (fill.comp, verify.comp) ---- */

namespace {

struct gpu {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDeviceSize host_alignment; // minImportedHostPointerAlignment
    VkDevice device;
    VkQueue queue;
    uint32_t family;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline fill, verify;
    VkDescriptorPool descriptors;
    VkBuffer result;
    VkDeviceMemory result_memory;
    extmem_pattern_result *result_map;
};

uint32_t memory_type(const gpu &g, uint32_t bits, VkMemoryPropertyFlags want)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(g.physical, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
            return i;
    return UINT32_MAX;
}

VkBuffer create_buffer(const gpu &g, VkDeviceSize size, VkExternalMemoryHandleTypeFlags external)
{
    VkExternalMemoryBufferCreateInfo ext = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
                                            .handleTypes = external};
    VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                               .pNext = external ? &ext : nullptr,
                               .size = size,
                               .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkBuffer buffer;
    VK(vkCreateBuffer(g.device, &info, nullptr, &buffer));
    return buffer;
}

VkPipeline create_pipeline(const gpu &g, const uint32_t *code, size_t size)
{
    VkShaderModuleCreateInfo mi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = code};
    VkShaderModule module;
    VK(vkCreateShaderModule(g.device, &mi, nullptr, &module));
    VkComputePipelineCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
                                      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                                                .module = module,
                                                .pName = "main"},
                                      .layout = g.layout};
    VkPipeline pipeline;
    VK(vkCreateComputePipelines(g.device, VK_NULL_HANDLE, 1, &pi, nullptr, &pipeline));
    vkDestroyShaderModule(g.device, module, nullptr);
    return pipeline;
}

/* The Vulkan side of the pairing: the physical device whose deviceUUID is the CUDA
 * device's UUID. Every device seen is listed, so a failed pairing shows what was there. */
VkPhysicalDevice find_paired_device(VkInstance instance, const cudaDeviceProp &prop, int cuda_device)
{
    uint32_t count = 0;
    VK(vkEnumeratePhysicalDevices(instance, &count, nullptr));
    std::vector<VkPhysicalDevice> devices(count);
    VK(vkEnumeratePhysicalDevices(instance, &count, devices.data()));
    char uuid[37];
    uuid_text(reinterpret_cast<const unsigned char *>(prop.uuid.bytes), uuid);
    std::printf("pairing by UUID:\n  CUDA device %d \"%s\", cudaDeviceProp::uuid %s\n", cuda_device, prop.name, uuid);
    VkPhysicalDevice paired = VK_NULL_HANDLE;
    for (uint32_t i = 0; i < count; ++i) {
        VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
        VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &id};
        vkGetPhysicalDeviceProperties2(devices[i], &p2);
        const bool same = std::memcmp(id.deviceUUID, prop.uuid.bytes, VK_UUID_SIZE) == 0;
        uuid_text(id.deviceUUID, uuid);
        std::printf("  Vulkan device %u \"%s\" (Vulkan %u.%u), deviceUUID %s%s\n", i, p2.properties.deviceName,
                    VK_API_VERSION_MAJOR(p2.properties.apiVersion), VK_API_VERSION_MINOR(p2.properties.apiVersion),
                    uuid, same ? ": the same device" : "");
        if (same && paired == VK_NULL_HANDLE)
            paired = devices[i];
    }
    if (paired == VK_NULL_HANDLE) {
        std::fprintf(stderr, "extmem-vulkan-demo: no Vulkan device has the CUDA device's UUID: is Mesa's lavapipe "
                             "installed (Debian: mesa-vulkan-drivers)?\n");
        std::exit(1);
    }
    return paired;
}

void gpu_create_instance(gpu &g)
{
    VK(volkInitialize());
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "extmem-vulkan-demo",
                             .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    VK(vkCreateInstance(&ici, nullptr, &g.instance));
    volkLoadInstance(g.instance);
}

/* Pairs the physical device with the CUDA device and builds the rest. */
void gpu_init(gpu &g, const cudaDeviceProp &prop, int cuda_device)
{
    g.physical = find_paired_device(g.instance, prop, cuda_device);

    VkPhysicalDeviceExternalMemoryHostPropertiesEXT host = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &host};
    vkGetPhysicalDeviceProperties2(g.physical, &p2);
    g.host_alignment = host.minImportedHostPointerAlignment;

    uint32_t nfam = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(g.physical, &nfam, nullptr);
    std::vector<VkQueueFamilyProperties> fams(nfam);
    vkGetPhysicalDeviceQueueFamilyProperties(g.physical, &nfam, fams.data());
    g.family = UINT32_MAX;
    for (uint32_t i = 0; i < nfam && g.family == UINT32_MAX; ++i)
        if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            g.family = i;
    if (g.family == UINT32_MAX) {
        std::fprintf(stderr, "extmem-vulkan-demo: the paired device has no compute queue\n");
        std::exit(1);
    }
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = g.family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &priority};
    const char *extensions[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME};
    VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qi,
                             .enabledExtensionCount = 2,
                             .ppEnabledExtensionNames = extensions};
    VK(vkCreateDevice(g.physical, &di, nullptr, &g.device));
    volkLoadDevice(g.device);
    vkGetDeviceQueue(g.device, g.family, 0, &g.queue);

    VkCommandPoolCreateInfo cpi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                   .queueFamilyIndex = g.family};
    VK(vkCreateCommandPool(g.device, &cpi, nullptr, &g.pool));
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = g.pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VK(vkAllocateCommandBuffers(g.device, &cai, &g.cmd));
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK(vkCreateFence(g.device, &fi, nullptr, &g.fence));

    VkDescriptorSetLayoutBinding bindings[2] = {{.binding = 0,
                                                 .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                 .descriptorCount = 1,
                                                 .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
                                                {.binding = 1,
                                                 .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                 .descriptorCount = 1,
                                                 .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT}};
    VkDescriptorSetLayoutCreateInfo dli = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 2, .pBindings = bindings};
    VK(vkCreateDescriptorSetLayout(g.device, &dli, nullptr, &g.set_layout));
    VkPushConstantRange push = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = sizeof(extmem_pattern_push)};
    VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = &g.set_layout,
                                      .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &push};
    VK(vkCreatePipelineLayout(g.device, &pli, nullptr, &g.layout));
    g.fill = create_pipeline(g, fill_spv, sizeof(fill_spv));
    g.verify = create_pipeline(g, verify_spv, sizeof(verify_spv));
    VkDescriptorPoolSize ps = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 2};
    VkDescriptorPoolCreateInfo dpi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps};
    VK(vkCreateDescriptorPool(g.device, &dpi, nullptr, &g.descriptors));

    // verify.comp's answer, read by the host.
    g.result = create_buffer(g, sizeof(extmem_pattern_result), 0);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(g.device, g.result, &req);
    VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = memory_type(g, req.memoryTypeBits,
                                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)};
    VK(vkAllocateMemory(g.device, &ai, nullptr, &g.result_memory));
    VK(vkBindBufferMemory(g.device, g.result, g.result_memory, 0));
    void *map = nullptr;
    VK(vkMapMemory(g.device, g.result_memory, 0, VK_WHOLE_SIZE, 0, &map));
    g.result_map = static_cast<extmem_pattern_result *>(map);
}

void gpu_destroy(gpu &g)
{
    vkDeviceWaitIdle(g.device);
    vkDestroyBuffer(g.device, g.result, nullptr);
    vkFreeMemory(g.device, g.result_memory, nullptr);
    vkDestroyDescriptorPool(g.device, g.descriptors, nullptr);
    vkDestroyPipeline(g.device, g.fill, nullptr);
    vkDestroyPipeline(g.device, g.verify, nullptr);
    vkDestroyPipelineLayout(g.device, g.layout, nullptr);
    vkDestroyDescriptorSetLayout(g.device, g.set_layout, nullptr);
    vkDestroyFence(g.device, g.fence, nullptr);
    vkDestroyCommandPool(g.device, g.pool, nullptr);
    vkDestroyDevice(g.device, nullptr);
    vkDestroyInstance(g.instance, nullptr);
}

/* Runs one dispatch of pipeline over the first push.count words of buffer, waits for it and
 * returns verify.comp's answer (meaningless after fill.comp); *ms receives the wall time of
 * the submission. */
extmem_pattern_result gpu_run(gpu &g, VkPipeline pipeline, VkBuffer buffer, const extmem_pattern_push &push, double *ms)
{
    VK(vkResetDescriptorPool(g.device, g.descriptors, 0));
    VkDescriptorSet set;
    VkDescriptorSetAllocateInfo sai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = g.descriptors,
                                       .descriptorSetCount = 1,
                                       .pSetLayouts = &g.set_layout};
    VK(vkAllocateDescriptorSets(g.device, &sai, &set));
    const VkDescriptorBufferInfo infos[2] = {{buffer, 0, static_cast<VkDeviceSize>(push.count) * 4},
                                             {g.result, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet writes[2];
    for (uint32_t i = 0; i < 2; ++i)
        writes[i] = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                     .dstSet = set,
                     .dstBinding = i,
                     .descriptorCount = 1,
                     .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                     .pBufferInfo = &infos[i]};
    vkUpdateDescriptorSets(g.device, 2, writes, 0, nullptr);
    *g.result_map = extmem_pattern_result{0, 0xffffffffu, 0, 0};

    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VK(vkBeginCommandBuffer(g.cmd, &bi));
    vkCmdBindPipeline(g.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(g.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, g.layout, 0, 1, &set, 0, nullptr);
    vkCmdPushConstants(g.cmd, g.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    const uint32_t groups = (push.count + BLOCK - 1) / BLOCK;
    vkCmdDispatch(g.cmd, groups > MAX_GROUPS ? MAX_GROUPS : groups, 1, 1);
    // The shader's writes become visible to the host (and so to CUDA) at the fence.
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(g.cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0,
                         nullptr, 0, nullptr);
    VK(vkEndCommandBuffer(g.cmd));
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &g.cmd};
    const double t0 = now_ms();
    VK(vkQueueSubmit(g.queue, 1, &si, g.fence));
    VK(vkWaitForFences(g.device, 1, &g.fence, VK_TRUE, UINT64_MAX));
    *ms = now_ms() - t0;
    VK(vkResetFences(g.device, 1, &g.fence));
    return *g.result_map;
}

} // namespace

int main()
{
    const size_t bytes = size_t{WORDS} * 4, host_bytes = size_t{HOST_WORDS} * 4;
    double ms;

    /* Vulkan first: extmem's device takes lavapipe's UUID when the process has loaded Vulkan
     * by the time CUDA is first asked for it (docs/vulkan-interop.md), as a GPU's two drivers
     * report the same UUID. */
    gpu g = {};
    gpu_create_instance(g);
    int dev = 0, runtime_version = 0, driver_version = 0;
    cudaDeviceProp prop;
    CUDA(cudaSetDevice(dev));
    CUDA(cudaGetDeviceProperties(&prop, dev));
    CUDA(cudaRuntimeGetVersion(&runtime_version));
    CUDA(cudaDriverGetVersion(&driver_version));
    std::printf("extmem %s (CUDA runtime %d.%d, driver %d.%d), a CUDA program compiled by clang; Vulkan through volk\n",
                extmem_version(), runtime_version / 1000, runtime_version % 1000 / 10, driver_version / 1000,
                driver_version % 1000 / 10);
    gpu_init(g, prop, dev);
    cudaStream_t stream;
    cudaEvent_t start, stop;
    CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUDA(cudaEventCreate(&start));
    CUDA(cudaEventCreate(&stop));

    /* ---- Act one: Vulkan fills, CUDA transforms in place, Vulkan verifies ---- */
    std::printf("\nVulkan -> CUDA (OPAQUE_FD), %zu bytes (%u words)\n", bytes, WORDS);
    VkBuffer buffer = create_buffer(g, bytes, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(g.device, buffer, &req);
    VkExportMemoryAllocateInfo export_info = {.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
                                              .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = &export_info,
        .allocationSize = req.size,
        .memoryTypeIndex = memory_type(g, req.memoryTypeBits,
                                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)};
    VkDeviceMemory memory;
    VK(vkAllocateMemory(g.device, &ai, nullptr, &memory));
    VK(vkBindBufferMemory(g.device, buffer, memory, 0));
    std::printf("  exportable VkBuffer: size %zu, memory requirements %" PRIu64 " bytes aligned to %" PRIu64
                ", memory type %u\n",
                bytes, static_cast<uint64_t>(req.size), static_cast<uint64_t>(req.alignment), ai.memoryTypeIndex);

    const uint32_t seed = 0x5eed1234u;
    gpu_run(g, g.fill, buffer, extmem_pattern_push{WORDS, seed, 1, 0}, &ms);
    std::printf("  [Vulkan] fill.comp wrote pattern(i) to every word: %.2f ms (%.2f GB/s)\n", ms, gbps(bytes, ms));

    // The memory crosses as a file descriptor; on success CUDA owns it and closes it.
    double t0 = now_ms();
    int fd = -1;
    VkMemoryGetFdInfoKHR fd_info = {.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR,
                                    .memory = memory,
                                    .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    VK(vkGetMemoryFdKHR(g.device, &fd_info, &fd));
    cudaExternalMemoryHandleDesc handle = {};
    handle.type = cudaExternalMemoryHandleTypeOpaqueFd;
    handle.handle.fd = fd;
    handle.size = req.size; // the whole allocation, as Vulkan sized it
    cudaExternalMemory_t ext;
    CUDA(cudaImportExternalMemory(&ext, &handle));
    double t1 = now_ms();
    cudaExternalMemoryBufferDesc buffer_desc = {};
    buffer_desc.offset = 0;
    buffer_desc.size = bytes;
    void *shared = nullptr;
    CUDA(cudaExternalMemoryGetMappedBuffer(&shared, ext, &buffer_desc));
    double t2 = now_ms();
    std::printf("  [CUDA] cudaImportExternalMemory(OpaqueFd, fd %d from vkGetMemoryFdKHR, size %" PRIu64 "): %.3f ms\n",
                fd, static_cast<uint64_t>(req.size), t1 - t0);
    std::printf("  [CUDA] cudaExternalMemoryGetMappedBuffer(offset 0, size %zu) = device pointer %p: %.3f ms\n", bytes,
                shared, t2 - t1);

    /* Proof that no copy was made: the device pointer and Vulkan's own mapping are the same
     * pages of the same file, and a write through one shows through the other at once. On
     * the software device a device pointer is a host address, so the host can look. */
    void *map = nullptr;
    VK(vkMapMemory(g.device, memory, 0, VK_WHOLE_SIZE, 0, &map));
    uint32_t *vk_view = static_cast<uint32_t *>(map);
    uint32_t *cuda_view = static_cast<uint32_t *>(shared);
    backing on_cuda = {}, on_vk = {};
    const bool same_file = backing_of(cuda_view, &on_cuda) && backing_of(vk_view, &on_vk) &&
                           on_cuda.inode == on_vk.inode && on_cuda.offset == on_vk.offset;
    std::printf("  no copy: device pointer %p -> inode %llu offset %llu \"%s\"\n"
                "           vkMapMemory    %p -> inode %llu offset %llu \"%s\"\n           %s\n",
                shared, on_cuda.inode, on_cuda.offset, on_cuda.path, map, on_vk.inode, on_vk.offset, on_vk.path,
                same_file ? "same file, same offset: the same bytes" : "DIFFERENT backing");
    const uint32_t saved = vk_view[12345];
    vk_view[12345] = 0xC0FFEE00u;
    const bool live = cuda_view[12345] == 0xC0FFEE00u;
    vk_view[12345] = saved;
    std::printf("  no copy: a word written through Vulkan's mapping reads back through the device pointer: %s\n",
                live ? "yes" : "NO");
    std::vector<uint32_t> copy(WORDS, 0); // faulted in first: time the copy, not the faults
    const double c0 = now_ms();
    std::memcpy(copy.data(), vk_view, bytes);
    const double c1 = now_ms();
    std::printf("  for scale: one memcpy of the %zu bytes takes %.3f ms here; the import moved none of them\n", bytes,
                c1 - c0);
    if (!live || !same_file)
        verification_failed("the imported memory is not Vulkan's memory");

    const dim3 block(BLOCK), grid((WORDS + BLOCK - 1) / BLOCK);
    CUDA(cudaEventRecord(start, stream));
    transform<<<grid, block, 0, stream>>>(static_cast<uint32_t *>(shared), WORDS, 3, 1, 0, false);
    CUDA(cudaGetLastError());
    CUDA(cudaEventRecord(stop, stream));
    CUDA(cudaEventSynchronize(stop));
    float kernel_ms = 0;
    CUDA(cudaEventElapsedTime(&kernel_ms, start, stop));
    std::printf("  [CUDA] transform<<<%u, %u, 0, stream>>>: w = w * 3 + 1 in place: %.2f ms (%.2f GB/s)\n", grid.x,
                block.x, static_cast<double>(kernel_ms), gbps(2 * bytes, static_cast<double>(kernel_ms)));

    extmem_pattern_result res = gpu_run(g, g.verify, buffer, extmem_pattern_push{WORDS, seed, 3, 1}, &ms);
    std::printf("  [Vulkan] verify.comp checked %u words against pattern(i) * 3 + 1: %u wrong: %.2f ms\n", res.checked,
                res.mismatches, ms);
    size_t host_wrong = 0;
    for (uint32_t i = 0; i < WORDS; ++i)
        host_wrong += vk_view[i] != extmem_pattern(i, seed) * 3 + 1;
    std::printf("  [Vulkan] the host read all %u words back through vkMapMemory: %zu wrong\n", WORDS, host_wrong);
    vkUnmapMemory(g.device, memory);
    if (res.mismatches || res.checked != WORDS || host_wrong)
        verification_failed("Vulkan does not see what the kernel wrote");

    /* ---- Act two: cudaMalloc memory handed to Vulkan (VK_EXT_external_memory_host) ----
     * On a GPU this takes pinned host memory (cudaMallocHost); on the software device all
     * device memory is host memory, so cudaMalloc's own pointer can be imported. */
    std::printf("\nCUDA -> Vulkan (VK_EXT_external_memory_host), %zu bytes, minImportedHostPointerAlignment %" PRIu64
                "\n",
                host_bytes, static_cast<uint64_t>(g.host_alignment));
    uint32_t *dptr = nullptr;
    CUDA(cudaMalloc(&dptr, host_bytes));
    const uint32_t seed2 = 0xab5c1551u;
    transform<<<(HOST_WORDS + BLOCK - 1) / BLOCK, BLOCK, 0, stream>>>(dptr, HOST_WORDS, 5, 7, seed2, true);
    CUDA(cudaGetLastError());
    CUDA(cudaStreamSynchronize(stream));
    std::printf("  [CUDA] cudaMalloc = %p; transform<<<%u, %u, 0, stream>>> wrote pattern(i) * 5 + 7\n",
                static_cast<void *>(dptr), (HOST_WORDS + BLOCK - 1) / BLOCK, BLOCK);
    if (g.host_alignment == 0 || reinterpret_cast<uintptr_t>(dptr) % g.host_alignment ||
        host_bytes % g.host_alignment) {
        std::fprintf(stderr, "extmem-vulkan-demo: the device pointer or the size is not aligned to %" PRIu64 "\n",
                     static_cast<uint64_t>(g.host_alignment));
        return 1;
    }

    VkBuffer host_buffer = create_buffer(g, host_bytes, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT);
    vkGetBufferMemoryRequirements(g.device, host_buffer, &req);
    t0 = now_ms();
    VkMemoryHostPointerPropertiesEXT pointer_props = {.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
    VK(vkGetMemoryHostPointerPropertiesEXT(g.device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, dptr,
                                           &pointer_props));
    VkImportMemoryHostPointerInfoEXT import_info = {.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT,
                                                    .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
                                                    .pHostPointer = dptr};
    VkMemoryAllocateInfo host_ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = &import_info,
        .allocationSize = host_bytes,
        .memoryTypeIndex = memory_type(g, req.memoryTypeBits & pointer_props.memoryTypeBits,
                                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)};
    VkDeviceMemory host_memory;
    VK(vkAllocateMemory(g.device, &host_ai, nullptr, &host_memory));
    t1 = now_ms();
    VK(vkBindBufferMemory(g.device, host_buffer, host_memory, 0));
    void *host_view = nullptr;
    VK(vkMapMemory(g.device, host_memory, 0, VK_WHOLE_SIZE, 0, &host_view));
    std::printf("  [Vulkan] vkAllocateMemory with VkImportMemoryHostPointerInfoEXT over the device pointer: %.3f ms\n"
                "  [Vulkan] vkMapMemory gives %p: %s\n",
                t1 - t0, host_view, host_view == dptr ? "the device pointer itself (no copy)" : "ANOTHER address");
    vkUnmapMemory(g.device, host_memory);
    if (host_view != dptr)
        verification_failed("Vulkan's mapping is not the device pointer");
    res = gpu_run(g, g.verify, host_buffer, extmem_pattern_push{HOST_WORDS, seed2, 5, 7}, &ms);
    std::printf("  [Vulkan] verify.comp checked %u words written by the kernel: %u wrong: %.2f ms\n", res.checked,
                res.mismatches, ms);
    if (res.mismatches || res.checked != HOST_WORDS)
        verification_failed("Vulkan does not see what the kernel wrote in cudaMalloc memory");
    gpu_run(g, g.fill, host_buffer, extmem_pattern_push{HOST_WORDS, seed2 ^ 0xffffu, 1, 0}, &ms);
    CUDA(cudaMemcpy(copy.data(), dptr, host_bytes, cudaMemcpyDeviceToHost));
    size_t wrong2 = 0;
    for (uint32_t i = 0; i < HOST_WORDS; ++i)
        wrong2 += copy[i] != extmem_pattern(i, seed2 ^ 0xffffu);
    std::printf("  [Vulkan] fill.comp wrote new words into CUDA's memory; [CUDA] cudaMemcpy reads them: %zu wrong\n",
                wrong2);
    if (wrong2)
        verification_failed("CUDA does not see what Vulkan wrote");

    /* Vulkan lets go of CUDA's memory before CUDA frees it; the imported memory may go in
     * either order. A failed teardown still fails the demo, before the verdict is printed. */
    vkDeviceWaitIdle(g.device);
    vkDestroyBuffer(g.device, host_buffer, nullptr);
    vkFreeMemory(g.device, host_memory, nullptr);
    CUDA(cudaFree(dptr));
    CUDA(cudaFree(shared));
    CUDA(cudaDestroyExternalMemory(ext));
    vkDestroyBuffer(g.device, buffer, nullptr);
    vkFreeMemory(g.device, memory, nullptr);
    gpu_destroy(g);
    CUDA(cudaEventDestroy(start));
    CUDA(cudaEventDestroy(stop));
    CUDA(cudaStreamDestroy(stream));
    std::printf("\nverified every word in both directions with no copies: PASSED\n");
    return 0;
}
