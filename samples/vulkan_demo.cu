/*
 * extmem-vulkan-demo: a Vulkan-CUDA interop program on lavapipe and the software device,
 * written the way NVIDIA's Vulkan interop samples are: shared memory with no copies, and the
 * two sides handing every frame to each other through an exported timeline semaphore, with no
 * host synchronisation between them.
 *
 * It uses the CUDA runtime API as on an NVIDIA GPU and is compiled by Debian's clang with no
 * CUDA toolkit (cmake/ExtmemCuda.cmake):
 * 1. Pairs the devices: the Vulkan physical device whose VkPhysicalDeviceIDProperties::deviceUUID
 *    equals cudaDeviceProp::uuid. On extmem that is Mesa's lavapipe, which needs extmem's layer
 *    VK_LAYER_EXTMEM_external_semaphore for VK_KHR_external_semaphore_fd (run the demo through
 *    extmem-run; without the layer it says how and exits 1).
 * 2. CUDA imports an exportable Vulkan buffer (vkGetMemoryFdKHR, cudaImportExternalMemory,
 *    cudaExternalMemoryGetMappedBuffer), and the demo proves no copy was made: both mappings
 *    are the same pages of the same file.
 * 3. The frame loop: a timeline semaphore exported from Vulkan (VkExportSemaphoreCreateInfo,
 *    vkGetSemaphoreFdKHR) is imported by CUDA (cudaImportExternalSemaphore). Every frame a
 *    compute shader (frame.comp) checks what the kernel made of the previous frame, writes the
 *    next one and signals; CUDA waits in its stream (cudaWaitExternalSemaphoresAsync), a
 *    __global__ kernel checks and transforms the frame, CUDA signals
 *    (cudaSignalExternalSemaphoresAsync), and the queue's next submission waits for that. All
 *    frames are queued at once; the host waits once, at the end, then reports the first wrong
 *    frame if any, and the frames per second.
 * 4. The other way: cudaMalloc memory handed to Vulkan through VK_EXT_external_memory_host,
 *    passed back and forth through the same semaphore.
 * Options: --frames N (600), --words N (words per frame, 262144).
 * Exits 0 when every check passes; at the first failure it says which call failed and exits 1.
 */
#include <volk.h>

#include <cuda_runtime.h>

#include "extmem/extmem.h"

#include <unistd.h>

#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "pattern.h"
#include "shaders/fill.comp.spv.h"
#include "shaders/frame.comp.spv.h"
#include "shaders/verify.comp.spv.h"

namespace {

constexpr uint32_t HOST_WORDS = 1u << 20; // the last act: 4 MiB, shared from CUDA to Vulkan
constexpr uint32_t BLOCK = 256;           // threads per block of the kernel, and the shaders' local size
constexpr uint32_t MAX_GROUPS = 4096;     // the shaders stride over the rest
// The frame buffer: a header (its first word counts the frames the kernel finished), then the
// frame's words (frame.comp's layout).
constexpr uint32_t HEADER_WORDS = 4;
constexpr uint32_t FRAME_MUL = 3, FRAME_ADD = 1; // the kernel turns each word w into w * 3 + 1

/* frame.comp's push constants. */
struct frame_push {
    uint32_t count, seed, mul, add;
    uint32_t frames; // the turn that finds this many frames done only checks
};

/* Frame k's seed, as frame.comp computes it. */
__host__ __device__ inline uint32_t frame_seed(uint32_t seed, uint32_t k) { return seed ^ (k * 0x9e3779b9u); }

struct options {
    uint32_t frames = 600;
    uint32_t words = 256u << 10; // 1 MiB a frame
};

[[noreturn]] void usage(int status)
{
    std::fprintf(status ? stderr : stdout,
                 "usage: extmem-vulkan-demo [--frames N] [--words N]\n"
                 "  --frames N  frames passed between Vulkan and CUDA (default 600)\n"
                 "  --words N   32-bit words in a frame (default 262144, 1 MiB)\n"
                 "Run it through extmem-run, which enables the semaphore layer lavapipe needs.\n");
    std::exit(status);
}

uint32_t number_option(const char *name, const char *text, uint32_t lo, uint32_t hi)
{
    char *end = nullptr;
    const unsigned long long v = text ? std::strtoull(text, &end, 10) : 0;
    if (!text || !*text || *end || text[0] == '-' || v < lo || v > hi) {
        std::fprintf(stderr, "extmem-vulkan-demo: %s wants a number from %u to %u, not \"%s\"\n", name, lo, hi,
                     text ? text : "");
        usage(2);
    }
    return static_cast<uint32_t>(v);
}

options parse_options(int argc, char **argv)
{
    options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h")
            usage(0);
        else if (a == "--frames")
            o.frames = number_option("--frames", i + 1 < argc ? argv[++i] : nullptr, 1, 1000000);
        else if (a.rfind("--frames=", 0) == 0)
            o.frames = number_option("--frames", argv[i] + 9, 1, 1000000);
        else if (a == "--words")
            o.words = number_option("--words", i + 1 < argc ? argv[++i] : nullptr, 1, 64u << 20);
        else if (a.rfind("--words=", 0) == 0)
            o.words = number_option("--words", argv[i] + 8, 1, 64u << 20);
        else {
            std::fprintf(stderr, "extmem-vulkan-demo: unknown argument \"%s\"\n", argv[i]);
            usage(2);
        }
    }
    return o;
}

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

/* CUDA's turn of frame k in the loop: every word must hold what frame.comp wrote,
 * pattern(i, seed of frame k) (the words that do not are counted in wrong[k]); each becomes
 * w * mul + add, and the header says frame k is done, which tells frame.comp's next turn
 * which frame it checks. */
__global__ void frame_kernel(uint32_t *frame, uint32_t count, uint32_t k, uint32_t seed, uint32_t mul, uint32_t add,
                             uint32_t *wrong)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t *data = frame + HEADER_WORDS;
    if (i < count) {
        const uint32_t w = data[i];
        if (w != extmem_pattern(i, seed))
            atomicAdd(&wrong[k], 1u);
        data[i] = w * mul + add;
    }
    if (i == 0)
        frame[0] = k + 1; // nobody reads the header until the kernel is done and has signalled
}

/* ---- Vulkan: one queue, three compute pipelines (fill.comp, verify.comp, frame.comp) ---- */

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
    VkPipeline fill, verify, frame;
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

/* A buffer in host-visible, coherent memory of Vulkan's own, mapped: how the shaders report to
 * the host. */
void *create_mapped_buffer(const gpu &g, VkDeviceSize size, VkBuffer *buffer, VkDeviceMemory *memory)
{
    *buffer = create_buffer(g, size, 0);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(g.device, *buffer, &req);
    VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = memory_type(g, req.memoryTypeBits,
                                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)};
    VK(vkAllocateMemory(g.device, &ai, nullptr, memory));
    VK(vkBindBufferMemory(g.device, *buffer, *memory, 0));
    void *map = nullptr;
    VK(vkMapMemory(g.device, *memory, 0, VK_WHOLE_SIZE, 0, &map));
    return map;
}

/* Binds data (binding 0) and the result buffer (binding 1) to set. */
void write_set(const gpu &g, VkDescriptorSet set, VkBuffer data, VkDeviceSize data_bytes, VkBuffer result)
{
    const VkDescriptorBufferInfo infos[2] = {{data, 0, data_bytes}, {result, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet writes[2];
    for (uint32_t i = 0; i < 2; ++i)
        writes[i] = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                     .dstSet = set,
                     .dstBinding = i,
                     .descriptorCount = 1,
                     .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                     .pBufferInfo = &infos[i]};
    vkUpdateDescriptorSets(g.device, 2, writes, 0, nullptr);
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

bool has_device_extension(VkPhysicalDevice physical, const char *name)
{
    uint32_t count = 0;
    VK(vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr));
    std::vector<VkExtensionProperties> all(count);
    VK(vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, all.data()));
    for (const VkExtensionProperties &e : all)
        if (std::strcmp(e.extensionName, name) == 0)
            return true;
    return false;
}

/* The path of what sits at rel from this program's folder, "" when nothing does: the demo
 * runs from <build>/samples, so its build's extmem-run and layer can be named exactly. */
std::string beside_program(const char *rel)
{
    char exe[PATH_MAX], path[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0)
        return "";
    exe[n] = 0;
    char *slash = std::strrchr(exe, '/');
    if (!slash)
        return "";
    *slash = 0;
    const std::string joined = std::string(exe) + "/" + rel;
    return realpath(joined.c_str(), path) ? std::string(path) : "";
}

/* lavapipe exports no semaphores; extmem's layer adds VK_KHR_external_semaphore_fd to it. A
 * demo run without the layer says how to run it, rather than failing in a Vulkan call. */
[[noreturn]] void no_semaphore_export(const char *device_name)
{
    std::string run = beside_program("../bin/extmem-run"), layer = beside_program("../src/vk/layer");
    std::string self = beside_program("extmem-vulkan-demo");
    if (run.empty())
        run = "<build>/bin/extmem-run";
    if (layer.empty())
        layer = "<build>/src/vk/layer";
    if (self.empty())
        self = "extmem-vulkan-demo";
    std::fflush(stdout); // the pairing first, then why the demo stops
    std::fprintf(stderr,
                 "extmem-vulkan-demo: the Vulkan device \"%s\" lacks VK_KHR_external_semaphore_fd: it cannot export "
                 "the semaphore through which Vulkan and CUDA hand each other every frame.\n"
                 "  Mesa's lavapipe has no exportable semaphores; extmem's Vulkan layer "
                 "VK_LAYER_EXTMEM_external_semaphore adds them. Run the demo through extmem-run, which enables it:\n"
                 "    %s -- %s\n"
                 "  or enable the layer yourself:\n"
                 "    VK_ADD_LAYER_PATH=%s VK_INSTANCE_LAYERS=VK_LAYER_EXTMEM_external_semaphore %s\n"
                 "  (docs/external-semaphores.md)\n",
                 device_name, run.c_str(), self.c_str(), layer.c_str(), self.c_str());
    std::exit(1);
}

void gpu_create_instance(gpu &g)
{
    VK(volkInitialize());
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "extmem-vulkan-demo",
                             .apiVersion = VK_API_VERSION_1_2}; // timeline semaphores
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

    // The frame loop's semaphore: a timeline (Vulkan 1.2) that can be exported as an fd.
    if (!has_device_extension(g.physical, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME))
        no_semaphore_export(p2.properties.deviceName);
    VkPhysicalDeviceTimelineSemaphoreFeatures timeline = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &timeline};
    vkGetPhysicalDeviceFeatures2(g.physical, &f2);
    if (p2.properties.apiVersion < VK_API_VERSION_1_2 || !timeline.timelineSemaphore) {
        std::fprintf(stderr, "extmem-vulkan-demo: the Vulkan device \"%s\" has no timeline semaphores (Vulkan 1.2), "
                             "which the frame loop hands frames through\n",
                     p2.properties.deviceName);
        std::exit(1);
    }

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
    const char *extensions[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME,
                                VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME};
    VkPhysicalDeviceVulkan12Features v12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                            .timelineSemaphore = VK_TRUE};
    VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = &v12,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qi,
                             .enabledExtensionCount = 3,
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
    // frame.comp's push constants hold one word more than fill.comp's and verify.comp's.
    VkPushConstantRange push = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = sizeof(frame_push)};
    VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = &g.set_layout,
                                      .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &push};
    VK(vkCreatePipelineLayout(g.device, &pli, nullptr, &g.layout));
    g.fill = create_pipeline(g, fill_spv, sizeof(fill_spv));
    g.verify = create_pipeline(g, verify_spv, sizeof(verify_spv));
    g.frame = create_pipeline(g, frame_spv, sizeof(frame_spv));
    VkDescriptorPoolSize ps = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 2};
    VkDescriptorPoolCreateInfo dpi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps};
    VK(vkCreateDescriptorPool(g.device, &dpi, nullptr, &g.descriptors));

    // verify.comp's answer, read by the host.
    g.result_map = static_cast<extmem_pattern_result *>(
        create_mapped_buffer(g, sizeof(extmem_pattern_result), &g.result, &g.result_memory));
}

void gpu_destroy(gpu &g)
{
    vkDeviceWaitIdle(g.device);
    vkDestroyBuffer(g.device, g.result, nullptr);
    vkFreeMemory(g.device, g.result_memory, nullptr);
    vkDestroyDescriptorPool(g.device, g.descriptors, nullptr);
    vkDestroyPipeline(g.device, g.fill, nullptr);
    vkDestroyPipeline(g.device, g.verify, nullptr);
    vkDestroyPipeline(g.device, g.frame, nullptr);
    vkDestroyPipelineLayout(g.device, g.layout, nullptr);
    vkDestroyDescriptorSetLayout(g.device, g.set_layout, nullptr);
    vkDestroyFence(g.device, g.fence, nullptr);
    vkDestroyCommandPool(g.device, g.pool, nullptr);
    vkDestroyDevice(g.device, nullptr);
    vkDestroyInstance(g.instance, nullptr);
}

/* An exportable timeline semaphore (VkExportSemaphoreCreateInfo naming OPAQUE_FD), as NVIDIA's
 * samples make the semaphores they share with CUDA; its value starts at 0. */
VkSemaphore create_exported_timeline(const gpu &g)
{
    VkExportSemaphoreCreateInfo export_info = {.sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO,
                                               .handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkSemaphoreTypeCreateInfo type = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                      .pNext = &export_info,
                                      .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
                                      .initialValue = 0};
    VkSemaphoreCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type};
    VkSemaphore semaphore;
    VK(vkCreateSemaphore(g.device, &info, nullptr, &semaphore));
    return semaphore;
}

/* Submits cmd to the queue: it starts once timeline reaches wait (0: at once) and sets it to
 * signal when done (0: no signal); fence (if any) is signalled after that. Never waits. */
void gpu_submit(const gpu &g, VkCommandBuffer cmd, VkSemaphore timeline, uint64_t wait, uint64_t signal, VkFence fence)
{
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    VkTimelineSemaphoreSubmitInfo values = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                            .waitSemaphoreValueCount = wait ? 1u : 0u,
                                            .pWaitSemaphoreValues = &wait,
                                            .signalSemaphoreValueCount = signal ? 1u : 0u,
                                            .pSignalSemaphoreValues = &signal};
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .pNext = &values,
                       .waitSemaphoreCount = wait ? 1u : 0u,
                       .pWaitSemaphores = &timeline,
                       .pWaitDstStageMask = &stage,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &cmd,
                       .signalSemaphoreCount = signal ? 1u : 0u,
                       .pSignalSemaphores = &timeline};
    VK(vkQueueSubmit(g.queue, 1, &si, fence));
}

/* Runs one dispatch of pipeline over the first push.count words of buffer once timeline
 * reaches wait (0: at once), sets timeline to signal after it (0: no signal), waits for it
 * and returns verify.comp's answer (meaningless after fill.comp); *ms receives the wall time
 * of the submission. */
extmem_pattern_result gpu_run(gpu &g, VkPipeline pipeline, VkBuffer buffer, const extmem_pattern_push &push, double *ms,
                              VkSemaphore timeline = VK_NULL_HANDLE, uint64_t wait = 0, uint64_t signal = 0)
{
    VK(vkResetDescriptorPool(g.device, g.descriptors, 0));
    VkDescriptorSet set;
    VkDescriptorSetAllocateInfo sai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = g.descriptors,
                                       .descriptorSetCount = 1,
                                       .pSetLayouts = &g.set_layout};
    VK(vkAllocateDescriptorSets(g.device, &sai, &set));
    write_set(g, set, buffer, static_cast<VkDeviceSize>(push.count) * 4, g.result);
    *g.result_map = extmem_pattern_result{0, 0xffffffffu, 0, 0};

    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VK(vkBeginCommandBuffer(g.cmd, &bi));
    vkCmdBindPipeline(g.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(g.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, g.layout, 0, 1, &set, 0, nullptr);
    vkCmdPushConstants(g.cmd, g.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    const uint32_t groups = (push.count + BLOCK - 1) / BLOCK;
    vkCmdDispatch(g.cmd, groups > MAX_GROUPS ? MAX_GROUPS : groups, 1, 1);
    // The shader's writes become visible to the host at the fence (to CUDA at the semaphore).
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(g.cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0,
                         nullptr, 0, nullptr);
    VK(vkEndCommandBuffer(g.cmd));
    const double t0 = now_ms();
    gpu_submit(g, g.cmd, timeline, wait, signal, g.fence);
    VK(vkWaitForFences(g.device, 1, &g.fence, VK_TRUE, UINT64_MAX));
    *ms = now_ms() - t0;
    VK(vkResetFences(g.device, 1, &g.fence));
    return *g.result_map;
}

/* ---- The frame loop ---- */

/* CUDA's side of the semaphore, as NVIDIA's samples drive it: a wait for, or a signal of, a
 * timeline value, queued in the stream; neither call waits. */
void cuda_wait(cudaExternalSemaphore_t semaphore, uint64_t value, cudaStream_t stream)
{
    cudaExternalSemaphoreWaitParams params = {};
    params.params.fence.value = value;
    CUDA(cudaWaitExternalSemaphoresAsync(&semaphore, &params, 1, stream));
}

void cuda_signal(cudaExternalSemaphore_t semaphore, uint64_t value, cudaStream_t stream)
{
    cudaExternalSemaphoreSignalParams params = {};
    params.params.fence.value = value;
    CUDA(cudaSignalExternalSemaphoresAsync(&semaphore, &params, 1, stream));
}

/* Passes o.frames frames between Vulkan and CUDA through the shared buffer (buffer in Vulkan,
 * frame in CUDA, header zeroed through vk_map) and the timeline: Vulkan's turn k waits for
 * 2k (CUDA finished frame k - 1), checks it, writes frame k and signals 2k + 1; CUDA's waits
 * for 2k + 1, checks and transforms, and signals 2k + 2. Everything is queued at once; the
 * host waits once, for Vulkan's last turn (the check of the last frame). Returns the value
 * the timeline ends at; exits at the first frame found wrong. */
uint64_t run_frames(gpu &g, const options &o, VkBuffer buffer, uint32_t *vk_map, uint32_t *frame, VkSemaphore timeline,
                    cudaExternalSemaphore_t semaphore, cudaStream_t stream)
{
    const uint32_t frames = o.frames, words = o.words, seed = 0x5eed1234u;
    const size_t frame_bytes = size_t{words} * 4;

    // Vulkan's verdict on every frame, and CUDA's count of what it found wrong in every frame.
    VkBuffer results;
    VkDeviceMemory results_memory;
    auto *verdict = static_cast<extmem_pattern_result *>(
        create_mapped_buffer(g, sizeof(extmem_pattern_result) * frames, &results, &results_memory));
    for (uint32_t k = 0; k < frames; ++k)
        verdict[k] = extmem_pattern_result{0, 0xffffffffu, 0, 0};
    uint32_t *wrong = nullptr;
    CUDA(cudaMalloc(&wrong, sizeof(uint32_t) * frames));
    CUDA(cudaMemsetAsync(wrong, 0, sizeof(uint32_t) * frames, stream));
    vk_map[0] = 0; // no frame done yet: Vulkan's first turn only writes

    // One command buffer, recorded once and submitted every turn while earlier turns are still
    // pending: frame.comp reads the frame number from the header the kernel writes.
    VkDescriptorPool pool;
    VkDescriptorPoolSize ps = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 2};
    VkDescriptorPoolCreateInfo dpi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps};
    VK(vkCreateDescriptorPool(g.device, &dpi, nullptr, &pool));
    VkDescriptorSet set;
    VkDescriptorSetAllocateInfo sai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = pool,
                                       .descriptorSetCount = 1,
                                       .pSetLayouts = &g.set_layout};
    VK(vkAllocateDescriptorSets(g.device, &sai, &set));
    write_set(g, set, buffer, HEADER_WORDS * 4 + frame_bytes, results);
    VkCommandBuffer cmd;
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = g.pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VK(vkAllocateCommandBuffers(g.device, &cai, &cmd));
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT};
    VK(vkBeginCommandBuffer(cmd, &bi));
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, g.frame);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, g.layout, 0, 1, &set, 0, nullptr);
    const frame_push push = {words, seed, FRAME_MUL, FRAME_ADD, frames};
    vkCmdPushConstants(cmd, g.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    const uint32_t groups = (words + BLOCK - 1) / BLOCK;
    vkCmdDispatch(cmd, groups > MAX_GROUPS ? MAX_GROUPS : groups, 1, 1);
    // The verdicts reach the host at the last turn's fence (the frame reaches CUDA at the semaphore).
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr,
                         0, nullptr);
    VK(vkEndCommandBuffer(cmd));

    const dim3 block(BLOCK), grid((words + BLOCK - 1) / BLOCK);
    std::printf("  every frame: [Vulkan] frame.comp checks the kernel's previous frame, writes pattern(i) of a new "
                "seed, signals 2k + 1\n"
                "               [CUDA] cudaWaitExternalSemaphoresAsync(2k + 1), frame_kernel<<<%u, %u, 0, stream>>> "
                "checks it and turns w into w * %u + %u, cudaSignalExternalSemaphoresAsync(2k + 2)\n",
                grid.x, block.x, FRAME_MUL, FRAME_ADD);
    const double t0 = now_ms();
    for (uint32_t k = 0;; ++k) {
        gpu_submit(g, cmd, timeline, 2ull * k, 2ull * k + 1, k == frames ? g.fence : VK_NULL_HANDLE);
        if (k == frames)
            break;
        cuda_wait(semaphore, 2ull * k + 1, stream);
        frame_kernel<<<grid, block, 0, stream>>>(frame, words, k, frame_seed(seed, k), FRAME_MUL, FRAME_ADD, wrong);
        CUDA(cudaGetLastError());
        cuda_signal(semaphore, 2ull * k + 2, stream);
    }
    const double queued = now_ms();
    // The one host wait: a lost signal would hang the loop, so it is bounded and says where.
    const uint64_t limit_s = 60 + frames / 10;
    const VkResult done = vkWaitForFences(g.device, 1, &g.fence, VK_TRUE, limit_s * 1000000000ull);
    const double t1 = now_ms();
    uint64_t value = 0;
    VK(vkGetSemaphoreCounterValue(g.device, timeline, &value));
    if (done == VK_TIMEOUT) {
        std::printf("verification FAILED: the loop stopped after %" PRIu64 " s at timeline value %" PRIu64
                    ": %s's turn of frame %" PRIu64 " never signalled\n",
                    limit_s, value, value % 2 ? "CUDA" : "Vulkan", value / 2);
        std::exit(1);
    }
    VK(done);
    VK(vkResetFences(g.device, 1, &g.fence));
    CUDA(cudaStreamSynchronize(stream)); // finished before Vulkan's last turn began
    std::vector<uint32_t> cuda_wrong(frames);
    CUDA(cudaMemcpy(cuda_wrong.data(), wrong, sizeof(uint32_t) * frames, cudaMemcpyDeviceToHost));

    uint32_t first_bad = UINT32_MAX;
    for (uint32_t k = 0; k < frames; ++k) {
        const extmem_pattern_result &v = verdict[k];
        const bool ok = cuda_wrong[k] == 0 && v.mismatches == 0 && v.checked == words;
        if (!ok && first_bad == UINT32_MAX)
            first_bad = k;
        if (k < 2 || k % 100 == 0 || k + 1 == frames || k == first_bad)
            std::printf("  frame %5u: [CUDA] %u of %u words not what Vulkan wrote; [Vulkan] %u of %u checked words "
                        "not what the kernel wrote%s\n",
                        k, cuda_wrong[k], words, v.mismatches, v.checked, ok ? "" : "  <- WRONG");
    }
    const double seconds = (t1 - t0) / 1e3;
    std::printf("  %u frames of %zu bytes in %.3f s: %.0f frames/s (%.2f ms a frame, %.2f GB/s through the buffer)\n"
                "  the host queued every turn in %.1f ms and then waited once; the timeline ended at %" PRIu64 "\n",
                frames, frame_bytes, seconds, frames / seconds, (t1 - t0) / frames,
                gbps(4 * frame_bytes * frames, t1 - t0), queued - t0, value);
    if (first_bad != UINT32_MAX) {
        const extmem_pattern_result &v = verdict[first_bad];
        std::printf("verification FAILED: frame %u is the first wrong one: ", first_bad);
        if (cuda_wrong[first_bad])
            std::printf("the kernel found %u words that Vulkan had not written (did it run before Vulkan's "
                        "signal?)\n",
                        cuda_wrong[first_bad]);
        else if (v.checked != words)
            std::printf("Vulkan checked %u of its %u words (a turn that ran before CUDA's signal checks another "
                        "frame)\n",
                        v.checked, words);
        else
            std::printf("Vulkan found %u words wrong, the first at index %u\n", v.mismatches, v.first_bad);
        std::exit(1);
    }
    if (value != 2ull * frames + 1 || vk_map[0] != frames) {
        std::printf("verification FAILED: the timeline ended at %" PRIu64 " (not %" PRIu64
                    ") or the header counts %u frames\n",
                    value, uint64_t{2} * frames + 1, vk_map[0]);
        std::exit(1);
    }

    vkFreeCommandBuffers(g.device, g.pool, 1, &cmd);
    vkDestroyDescriptorPool(g.device, pool, nullptr);
    vkDestroyBuffer(g.device, results, nullptr);
    vkFreeMemory(g.device, results_memory, nullptr);
    CUDA(cudaFree(wrong));
    return value;
}

} // namespace

int main(int argc, char **argv)
{
    const options opt = parse_options(argc, argv);
    const size_t bytes = (size_t{HEADER_WORDS} + opt.words) * 4, host_bytes = size_t{HOST_WORDS} * 4;
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
    CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    /* ---- Vulkan's memory to CUDA, with no copy ---- */
    std::printf("\nVulkan -> CUDA (OPAQUE_FD), %zu bytes: a %zu-byte header and a frame of %u words\n", bytes,
                size_t{HEADER_WORDS} * 4, opt.words);
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
    const uint32_t probe = HEADER_WORDS + opt.words / 2;
    vk_view[probe] = 0xC0FFEE00u;
    const bool live = cuda_view[probe] == 0xC0FFEE00u;
    std::printf("  no copy: a word written through Vulkan's mapping reads back through the device pointer: %s\n",
                live ? "yes" : "NO");
    std::vector<uint32_t> copy(bytes / 4 > HOST_WORDS ? bytes / 4 : HOST_WORDS, 0); // faulted in: time the copy
    const double c0 = now_ms();
    std::memcpy(copy.data(), vk_view, bytes);
    const double c1 = now_ms();
    std::printf("  for scale: one memcpy of the %zu bytes takes %.3f ms here; the import moved none of them\n", bytes,
                c1 - c0);
    if (!live || !same_file)
        verification_failed("the imported memory is not Vulkan's memory");

    /* ---- The frame loop: the two sides hand each frame over through a timeline semaphore ---- */
    VkSemaphore timeline = create_exported_timeline(g);
    int sem_fd = -1;
    VkSemaphoreGetFdInfoKHR sem_fd_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR,
                                           .semaphore = timeline,
                                           .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
    VK(vkGetSemaphoreFdKHR(g.device, &sem_fd_info, &sem_fd));
    cudaExternalSemaphoreHandleDesc sem_handle = {};
    sem_handle.type = cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd;
    sem_handle.handle.fd = sem_fd; // CUDA's on success, as the memory's fd
    cudaExternalSemaphore_t semaphore;
    CUDA(cudaImportExternalSemaphore(&semaphore, &sem_handle));
    std::printf("\nThe frame loop: %u frames, Vulkan and CUDA taking turns through a timeline semaphore\n"
                "  [Vulkan] vkCreateSemaphore(TIMELINE, exportable as OPAQUE_FD), vkGetSemaphoreFdKHR = fd %d\n"
                "  [CUDA] cudaImportExternalSemaphore(TimelineSemaphoreFd, fd %d)\n",
                opt.frames, sem_fd, sem_fd);
    uint64_t value = run_frames(g, opt, buffer, vk_view, static_cast<uint32_t *>(shared), timeline, semaphore, stream);
    vkUnmapMemory(g.device, memory);

    /* ---- cudaMalloc memory handed to Vulkan (VK_EXT_external_memory_host), through the same
     * semaphore. On a GPU this takes pinned host memory (cudaMallocHost); on the software
     * device all device memory is host memory, so cudaMalloc's own pointer can be imported. */
    std::printf("\nCUDA -> Vulkan (VK_EXT_external_memory_host), %zu bytes, minImportedHostPointerAlignment %" PRIu64
                "\n",
                host_bytes, static_cast<uint64_t>(g.host_alignment));
    uint32_t *dptr = nullptr;
    CUDA(cudaMalloc(&dptr, host_bytes));
    const uint32_t seed2 = 0xab5c1551u;
    transform<<<(HOST_WORDS + BLOCK - 1) / BLOCK, BLOCK, 0, stream>>>(dptr, HOST_WORDS, 5, 7, seed2, true);
    CUDA(cudaGetLastError());
    cuda_signal(semaphore, ++value, stream);
    std::printf("  [CUDA] cudaMalloc = %p; transform<<<%u, %u, 0, stream>>> writes pattern(i) * 5 + 7, then "
                "signals %" PRIu64 "\n",
                static_cast<void *>(dptr), (HOST_WORDS + BLOCK - 1) / BLOCK, BLOCK, value);
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
    const extmem_pattern_result res =
        gpu_run(g, g.verify, host_buffer, extmem_pattern_push{HOST_WORDS, seed2, 5, 7}, &ms, timeline, value);
    std::printf("  [Vulkan] verify.comp, after waiting for %" PRIu64 ", checked %u words written by the kernel: %u "
                "wrong: %.2f ms\n",
                value, res.checked, res.mismatches, ms);
    if (res.mismatches || res.checked != HOST_WORDS)
        verification_failed("Vulkan does not see what the kernel wrote in cudaMalloc memory");
    gpu_run(g, g.fill, host_buffer, extmem_pattern_push{HOST_WORDS, seed2 ^ 0xffffu, 1, 0}, &ms, timeline, 0, ++value);
    cuda_wait(semaphore, value, stream);
    CUDA(cudaMemcpyAsync(copy.data(), dptr, host_bytes, cudaMemcpyDeviceToHost, stream));
    CUDA(cudaStreamSynchronize(stream));
    size_t wrong2 = 0;
    for (uint32_t i = 0; i < HOST_WORDS; ++i)
        wrong2 += copy[i] != extmem_pattern(i, seed2 ^ 0xffffu);
    std::printf("  [Vulkan] fill.comp wrote new words into CUDA's memory and signalled %" PRIu64 "; [CUDA] waited "
                "for it and cudaMemcpyAsync reads them: %zu wrong\n",
                value, wrong2);
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
    CUDA(cudaDestroyExternalSemaphore(semaphore));
    vkDestroySemaphore(g.device, timeline, nullptr);
    vkDestroyBuffer(g.device, buffer, nullptr);
    vkFreeMemory(g.device, memory, nullptr);
    gpu_destroy(g);
    CUDA(cudaStreamDestroy(stream));
    std::printf("\nverified every word of %u frames and of both directions, with no copies, every hand-over "
                "through the semaphore: PASSED\n",
                opt.frames);
    return 0;
}
