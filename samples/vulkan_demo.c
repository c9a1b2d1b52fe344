/*
 * extmem-vulkan-demo: Vulkan on lavapipe and the software device share memory, no copies.
 *
 * 1. Pairs the devices the way NVIDIA's samples do: the Vulkan physical device whose
 *    VkPhysicalDeviceIDProperties::deviceUUID equals cuDeviceGetUuid.
 * 2. A Vulkan compute shader fills an exportable buffer on that device.
 * 3. extmem imports the buffer's memory as an OPAQUE_FD (extmem_vk_import_memory) and maps
 *    it, and the demo proves no copy was made: both mappings are the same memfd pages.
 * 4. A software-device kernel (a C function) transforms every word in place.
 * 5. A Vulkan compute shader verifies every word, and the host reads them back through
 *    vkMapMemory and checks them again.
 * 6. The other way: extmem memory (cuMemAlloc) handed to Vulkan zero-copy through
 *    VK_EXT_external_memory_host; Vulkan checks what the kernel wrote, fills it anew, and
 *    extmem checks that.
 * Exits 0 when every check passes and 1 otherwise, printing why a call failed.
 */
#include <volk.h>

#include "extmem/vulkan.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pattern.h"
#include "shaders/fill.comp.spv.h"
#include "shaders/verify.comp.spv.h"

enum {
    WORDS = 4u << 20,      /* act one: 16 MiB, shared from Vulkan to extmem */
    HOST_WORDS = 1u << 20, /* act two: 4 MiB, shared from extmem to Vulkan */
    BLOCK = 256,           /* threads per block of the kernels, and the shaders' local size */
    MAX_GROUPS = 4096,     /* the shaders stride over the rest */
};

/* ---- Reporting ---- */

static int failed_cu(const char *call, CUresult r)
{
    const char *name = NULL;
    cuGetErrorName(r, &name);
    fprintf(stderr, "extmem-vulkan-demo: %s failed: %s (%d)\n  why: %s\n", call, name ? name : "unknown error", (int)r,
            extmem_error_detail());
    return 1;
}

static int failed_vk(const char *call, VkResult r)
{
    fprintf(stderr, "extmem-vulkan-demo: %s failed: VkResult %d\n", call, (int)r);
    return 1;
}

#define CU(call)                                                                                                 \
    do {                                                                                                         \
        CUresult cu_r_ = (call);                                                                                 \
        if (cu_r_ != CUDA_SUCCESS) {                                                                             \
            status = failed_cu(#call, cu_r_);                                                                    \
            goto done;                                                                                           \
        }                                                                                                        \
    } while (0)

#define VK(call)                                                                                                 \
    do {                                                                                                         \
        VkResult vk_r_ = (call);                                                                                 \
        if (vk_r_ != VK_SUCCESS) {                                                                               \
            status = failed_vk(#call, vk_r_);                                                                    \
            goto done;                                                                                           \
        }                                                                                                        \
    } while (0)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void uuid_text(const unsigned char *u, char out[37])
{
    static const int dash[16] = {0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0};
    char *p = out;
    for (int i = 0; i < 16; ++i)
        p += sprintf(p, "%02x%s", u[i], dash[i] ? "-" : "");
}

/* Which file and offset backs address p, from /proc/self/maps: the proof that two
 * mappings are the same pages. */
struct backing {
    unsigned long long inode, offset;
    char path[96];
};

static int backing_of(const void *p, struct backing *b)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return 0;
    char line[512];
    int found = 0;
    while (!found && fgets(line, sizeof(line), f)) {
        unsigned long long lo, hi, off, inode;
        int n = 0;
        if (sscanf(line, "%llx-%llx %*s %llx %*s %llu %n", &lo, &hi, &off, &inode, &n) < 4)
            continue;
        if ((uintptr_t)p < lo || (uintptr_t)p >= hi)
            continue;
        b->inode = inode;
        b->offset = off + ((uintptr_t)p - lo);
        snprintf(b->path, sizeof(b->path), "%s", line + n);
        b->path[strcspn(b->path, "\n")] = 0;
        found = 1;
    }
    fclose(f);
    return found;
}

/* ---- The software-device kernel ---- */

struct transform_args {
    CUdeviceptr data;
    uint32_t count, mul, add, seed;
    int fill; /* 1: write pattern * mul + add; 0: turn each word w into w * mul + add */
};

static void transform(const extmem_block *blk, void *p)
{
    const struct transform_args *a = p;
    uint32_t *data = (uint32_t *)(uintptr_t)a->data;
    EXTMEM_FOR_EACH_THREAD(blk, tx, ty, tz)
    {
        (void)ty;
        (void)tz;
        uint32_t i = blk->blockIdx.x * blk->blockDim.x + tx;
        if (i < a->count)
            data[i] = (a->fill ? extmem_pattern(i, a->seed) : data[i]) * a->mul + a->add;
    }
}

/* ---- Vulkan: one queue, two compute pipelines (fill.comp, verify.comp) ---- */

struct gpu {
    VkInstance instance;
    VkPhysicalDevice physical;
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
    struct extmem_pattern_result *result_map;
};

static uint32_t memory_type(const struct gpu *g, uint32_t bits, VkMemoryPropertyFlags want)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(g->physical, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
            return i;
    return UINT32_MAX;
}

static VkResult create_buffer(const struct gpu *g, VkDeviceSize size, VkExternalMemoryHandleTypeFlags external,
                              VkBuffer *buffer)
{
    VkExternalMemoryBufferCreateInfo ext = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
                                            .handleTypes = external};
    VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                               .pNext = external ? &ext : NULL,
                               .size = size,
                               .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    return vkCreateBuffer(g->device, &info, NULL, buffer);
}

static VkResult create_pipeline(struct gpu *g, const uint32_t *code, size_t size, VkPipeline *out)
{
    VkShaderModuleCreateInfo mi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = code};
    VkShaderModule module;
    VkResult r = vkCreateShaderModule(g->device, &mi, NULL, &module);
    if (r != VK_SUCCESS)
        return r;
    VkComputePipelineCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = module,
                  .pName = "main"},
        .layout = g->layout};
    r = vkCreateComputePipelines(g->device, VK_NULL_HANDLE, 1, &pi, NULL, out);
    vkDestroyShaderModule(g->device, module, NULL);
    return r;
}

/* Creates the instance, pairs the physical device with dev, and builds the rest. */
static int gpu_init(struct gpu *g, CUdevice dev)
{
    int status = 1;
    VK(volkInitialize());
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "extmem-vulkan-demo",
                             .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    VK(vkCreateInstance(&ici, NULL, &g->instance));
    volkLoadInstance(g->instance);

    /* NVIDIA's samples compare deviceUUIDs by hand; extmem_vk_find_paired_device is that loop. */
    CU(extmem_vk_find_paired_device(g->instance, dev, &g->physical));
    VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceExternalMemoryHostPropertiesEXT host = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT, .pNext = &id};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &host};
    vkGetPhysicalDeviceProperties2(g->physical, &p2);
    CUuuid cu_uuid;
    char name[128], a[37], b[37];
    CU(cuDeviceGetUuid(&cu_uuid, dev));
    CU(cuDeviceGetName(name, (int)sizeof(name), dev));
    uuid_text((const unsigned char *)cu_uuid.bytes, a);
    uuid_text(id.deviceUUID, b);
    printf("paired devices:\n  CUDA device %d \"%s\", cuDeviceGetUuid %s\n  Vulkan \"%s\" (Vulkan %u.%u), deviceUUID    "
           "%s\n",
           (int)dev, name, a, p2.properties.deviceName, VK_API_VERSION_MAJOR(p2.properties.apiVersion),
           VK_API_VERSION_MINOR(p2.properties.apiVersion), b);

    uint32_t nfam = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(g->physical, &nfam, NULL);
    VkQueueFamilyProperties fams[16];
    nfam = nfam > 16 ? 16 : nfam;
    vkGetPhysicalDeviceQueueFamilyProperties(g->physical, &nfam, fams);
    g->family = UINT32_MAX;
    for (uint32_t i = 0; i < nfam && g->family == UINT32_MAX; ++i)
        if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            g->family = i;
    if (g->family == UINT32_MAX) {
        fprintf(stderr, "extmem-vulkan-demo: the paired device has no compute queue\n");
        goto done;
    }
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = g->family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &priority};
    const char *extensions[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME};
    VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qi,
                             .enabledExtensionCount = 2,
                             .ppEnabledExtensionNames = extensions};
    VK(vkCreateDevice(g->physical, &di, NULL, &g->device));
    volkLoadDevice(g->device);
    vkGetDeviceQueue(g->device, g->family, 0, &g->queue);

    VkCommandPoolCreateInfo cpi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                   .queueFamilyIndex = g->family};
    VK(vkCreateCommandPool(g->device, &cpi, NULL, &g->pool));
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = g->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VK(vkAllocateCommandBuffers(g->device, &cai, &g->cmd));
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK(vkCreateFence(g->device, &fi, NULL, &g->fence));

    VkDescriptorSetLayoutBinding bindings[2] = {
        {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1,
         .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
        {.binding = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1,
         .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT}};
    VkDescriptorSetLayoutCreateInfo dli = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 2, .pBindings = bindings};
    VK(vkCreateDescriptorSetLayout(g->device, &dli, NULL, &g->set_layout));
    VkPushConstantRange push = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = sizeof(struct extmem_pattern_push)};
    VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = &g->set_layout,
                                      .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &push};
    VK(vkCreatePipelineLayout(g->device, &pli, NULL, &g->layout));
    VK(create_pipeline(g, fill_spv, sizeof(fill_spv), &g->fill));
    VK(create_pipeline(g, verify_spv, sizeof(verify_spv), &g->verify));
    VkDescriptorPoolSize ps = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 2};
    VkDescriptorPoolCreateInfo dpi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps};
    VK(vkCreateDescriptorPool(g->device, &dpi, NULL, &g->descriptors));

    /* verify.comp's answer, read by the host. */
    VK(create_buffer(g, sizeof(struct extmem_pattern_result), 0, &g->result));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(g->device, g->result, &req);
    VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = memory_type(g, req.memoryTypeBits,
                                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)};
    VK(vkAllocateMemory(g->device, &ai, NULL, &g->result_memory));
    VK(vkBindBufferMemory(g->device, g->result, g->result_memory, 0));
    VK(vkMapMemory(g->device, g->result_memory, 0, VK_WHOLE_SIZE, 0, (void **)&g->result_map));
    status = 0;
done:
    return status;
}

static void gpu_destroy(struct gpu *g)
{
    if (g->device) {
        vkDeviceWaitIdle(g->device);
        vkDestroyBuffer(g->device, g->result, NULL);
        vkFreeMemory(g->device, g->result_memory, NULL);
        vkDestroyDescriptorPool(g->device, g->descriptors, NULL);
        vkDestroyPipeline(g->device, g->fill, NULL);
        vkDestroyPipeline(g->device, g->verify, NULL);
        vkDestroyPipelineLayout(g->device, g->layout, NULL);
        vkDestroyDescriptorSetLayout(g->device, g->set_layout, NULL);
        vkDestroyFence(g->device, g->fence, NULL);
        vkDestroyCommandPool(g->device, g->pool, NULL);
        vkDestroyDevice(g->device, NULL);
    }
    if (g->instance)
        vkDestroyInstance(g->instance, NULL);
}

/* Runs one dispatch of pipeline over the first count words of buffer and waits for it;
 * *ms receives the wall time of the submission. */
static VkResult gpu_run(struct gpu *g, VkPipeline pipeline, VkBuffer buffer, const struct extmem_pattern_push *push,
                        double *ms)
{
    VkResult r = vkResetDescriptorPool(g->device, g->descriptors, 0);
    VkDescriptorSet set;
    VkDescriptorSetAllocateInfo sai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = g->descriptors,
                                       .descriptorSetCount = 1,
                                       .pSetLayouts = &g->set_layout};
    if (r == VK_SUCCESS)
        r = vkAllocateDescriptorSets(g->device, &sai, &set);
    if (r != VK_SUCCESS)
        return r;
    VkDescriptorBufferInfo infos[2] = {{buffer, 0, (VkDeviceSize)push->count * 4}, {g->result, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet writes[2];
    for (int i = 0; i < 2; ++i)
        writes[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                           .dstSet = set,
                                           .dstBinding = (uint32_t)i,
                                           .descriptorCount = 1,
                                           .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                           .pBufferInfo = &infos[i]};
    vkUpdateDescriptorSets(g->device, 2, writes, 0, NULL);
    *g->result_map = (struct extmem_pattern_result){0, 0xffffffffu, 0, 0};

    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    if ((r = vkBeginCommandBuffer(g->cmd, &bi)) != VK_SUCCESS)
        return r;
    vkCmdBindPipeline(g->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(g->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, g->layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(g->cmd, g->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(*push), push);
    uint32_t groups = (push->count + BLOCK - 1) / BLOCK;
    vkCmdDispatch(g->cmd, groups > MAX_GROUPS ? MAX_GROUPS : groups, 1, 1);
    /* The shader's writes become visible to the host (and so to extmem) at the fence. */
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(g->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL,
                         0, NULL);
    if ((r = vkEndCommandBuffer(g->cmd)) != VK_SUCCESS)
        return r;
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &g->cmd};
    double t0 = now_ms();
    if ((r = vkQueueSubmit(g->queue, 1, &si, g->fence)) != VK_SUCCESS)
        return r;
    r = vkWaitForFences(g->device, 1, &g->fence, VK_TRUE, UINT64_MAX);
    *ms = now_ms() - t0;
    vkResetFences(g->device, 1, &g->fence);
    return r;
}

static double gbps(size_t bytes, double ms) { return ms > 0 ? (double)bytes / (ms * 1e6) : 0.0; }

int main(void)
{
    int status = 1;
    struct gpu g = {0};
    CUcontext ctx = NULL;
    CUstream stream = NULL;
    CUevent start = NULL, stop = NULL;
    CUexternalMemory ext = NULL;
    CUdeviceptr shared = 0, host_ptr = 0;
    VkBuffer buffer = VK_NULL_HANDLE, host_buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE, host_memory = VK_NULL_HANDLE;
    uint32_t *copy = NULL;
    const size_t bytes = (size_t)WORDS * 4, host_bytes = (size_t)HOST_WORDS * 4;
    double ms;
    float kernel_ms;

    CUdevice dev;
    CU(cuInit(0));
    CU(cuDeviceGet(&dev, 0));
    CU(cuCtxCreate(&ctx, NULL, 0, dev));
    CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    CU(cuEventCreate(&start, CU_EVENT_DEFAULT));
    CU(cuEventCreate(&stop, CU_EVENT_DEFAULT));
    printf("extmem %s, Vulkan through volk\n", extmem_version());
    if (gpu_init(&g, dev))
        goto done;

    /* ---- Act one: Vulkan fills, extmem transforms in place, Vulkan verifies ---- */
    printf("\nVulkan -> extmem (OPAQUE_FD), %zu bytes (%u words)\n", bytes, (unsigned)WORDS);
    VK(create_buffer(&g, bytes, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, &buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(g.device, buffer, &req);
    VkExportMemoryAllocateInfo export_info = {.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
                                              .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = &export_info,
        .allocationSize = req.size,
        .memoryTypeIndex = memory_type(&g, req.memoryTypeBits,
                                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)};
    VK(vkAllocateMemory(g.device, &ai, NULL, &memory));
    VK(vkBindBufferMemory(g.device, buffer, memory, 0));
    printf("  exportable VkBuffer: size %zu, memory requirements %" PRIu64 " bytes aligned to %" PRIu64
           ", memory type %u\n",
           bytes, (uint64_t)req.size, (uint64_t)req.alignment, ai.memoryTypeIndex);

    const uint32_t seed = 0x5eed1234u;
    struct extmem_pattern_push fill = {WORDS, seed, 1, 0};
    VK(gpu_run(&g, g.fill, buffer, &fill, &ms));
    printf("  [Vulkan] fill.comp wrote pattern(i) to every word: %.2f ms (%.2f GB/s)\n", ms, gbps(bytes, ms));

    double t0 = now_ms();
    CU(extmem_vk_import_memory(g.device, memory, req.size, &ext));
    double t1 = now_ms();
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd = {.offset = 0, .size = bytes};
    CU(cuExternalMemoryGetMappedBuffer(&shared, ext, &bd));
    double t2 = now_ms();
    printf("  [extmem] imported with extmem_vk_import_memory (vkGetMemoryFdKHR + cuImportExternalMemory, "
           "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT -> CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD, size %" PRIu64
           "): %.3f ms\n",
           (uint64_t)req.size, t1 - t0);
    printf("  [extmem] cuExternalMemoryGetMappedBuffer(offset 0, size %zu) = device pointer 0x%llx: %.3f ms\n", bytes,
           (unsigned long long)shared, t2 - t1);

    /* Proof that no copy was made: the device pointer and Vulkan's own mapping are the same
     * pages of the same memfd, and a write through one shows through the other at once. */
    uint32_t *vk_view = NULL;
    VK(vkMapMemory(g.device, memory, 0, VK_WHOLE_SIZE, 0, (void **)&vk_view));
    struct backing on_cu, on_vk;
    if (backing_of((void *)(uintptr_t)shared, &on_cu) && backing_of(vk_view, &on_vk))
        printf("  no copy: device pointer 0x%llx -> inode %llu offset %llu \"%s\"\n"
               "           vkMapMemory     %p -> inode %llu offset %llu \"%s\"\n           %s\n",
               (unsigned long long)shared, on_cu.inode, on_cu.offset, on_cu.path, (void *)vk_view, on_vk.inode,
               on_vk.offset, on_vk.path,
               on_cu.inode == on_vk.inode && on_cu.offset == on_vk.offset ? "same file, same offset: the same bytes"
                                                                          : "DIFFERENT backing");
    uint32_t *cu_view = (uint32_t *)(uintptr_t)shared;
    const uint32_t saved = vk_view[12345];
    vk_view[12345] = 0xC0FFEE00u;
    int live = cu_view[12345] == 0xC0FFEE00u;
    vk_view[12345] = saved;
    printf("  no copy: a word written through Vulkan's mapping reads back through the device pointer: %s\n",
           live ? "yes" : "NO");
    if (!(copy = malloc(bytes))) {
        fprintf(stderr, "extmem-vulkan-demo: out of host memory\n");
        goto done;
    }
    memset(copy, 0, bytes); /* fault the pages in first: time the copy, not the faults */
    double c0 = now_ms();
    memcpy(copy, vk_view, bytes);
    double c1 = now_ms();
    printf("  for scale: one memcpy of the %zu bytes takes %.3f ms here; the import moved none of them\n", bytes,
           c1 - c0);
    if (!live || on_cu.inode != on_vk.inode) {
        printf("verification FAILED: the imported memory is not Vulkan's memory\n");
        goto done;
    }

    struct transform_args targs = {shared, WORDS, 3, 1, 0, 0};
    const extmem_dim3 block = {BLOCK, 1, 1}, grid = {(WORDS + BLOCK - 1) / BLOCK, 1, 1};
    CU(cuEventRecord(start, stream));
    CU(extmem_launch_kernel(transform, grid, block, &targs, sizeof(targs), stream));
    CU(cuEventRecord(stop, stream));
    CU(cuEventSynchronize(stop));
    CU(cuEventElapsedTime(&kernel_ms, start, stop));
    printf("  [extmem] kernel w = w * 3 + 1 over %u blocks of %u threads, in place: %.2f ms (%.2f GB/s)\n", grid.x,
           block.x, (double)kernel_ms, gbps(2 * bytes, (double)kernel_ms));

    struct extmem_pattern_push check = {WORDS, seed, 3, 1};
    VK(gpu_run(&g, g.verify, buffer, &check, &ms));
    struct extmem_pattern_result res = *g.result_map;
    printf("  [Vulkan] verify.comp checked %u words against pattern(i) * 3 + 1: %u wrong: %.2f ms\n", res.checked,
           res.mismatches, ms);
    size_t host_wrong = 0;
    for (uint32_t i = 0; i < WORDS; ++i)
        host_wrong += vk_view[i] != extmem_pattern(i, seed) * 3 + 1;
    printf("  [Vulkan] the host read all %u words back through vkMapMemory: %zu wrong\n", (unsigned)WORDS, host_wrong);
    vkUnmapMemory(g.device, memory);
    if (res.mismatches || res.checked != WORDS || host_wrong) {
        printf("verification FAILED: first wrong word %u\n", res.first_bad);
        goto done;
    }

    /* ---- Act two: extmem memory handed to Vulkan (VK_EXT_external_memory_host) ---- */
    VkDeviceSize align;
    CU(extmem_vk_host_import_alignment(g.physical, &align));
    printf("\nextmem -> Vulkan (VK_EXT_external_memory_host), %zu bytes, minImportedHostPointerAlignment %" PRIu64
           "\n",
           host_bytes, (uint64_t)align);
    CU(cuMemAlloc(&host_ptr, host_bytes));
    const uint32_t seed2 = 0xab5c1551u;
    struct transform_args fargs = {host_ptr, HOST_WORDS, 5, 7, seed2, 1};
    const extmem_dim3 grid2 = {(HOST_WORDS + BLOCK - 1) / BLOCK, 1, 1};
    CU(extmem_launch_kernel(transform, grid2, block, &fargs, sizeof(fargs), stream));
    CU(cuStreamSynchronize(stream));
    printf("  [extmem] cuMemAlloc = 0x%llx; kernel wrote pattern(i) * 5 + 7\n", (unsigned long long)host_ptr);

    VK(create_buffer(&g, host_bytes, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, &host_buffer));
    vkGetBufferMemoryRequirements(g.device, host_buffer, &req);
    t0 = now_ms();
    CU(extmem_vk_import_host_memory(g.physical, g.device, host_ptr, host_bytes, req.memoryTypeBits, &host_memory));
    t1 = now_ms();
    VK(vkBindBufferMemory(g.device, host_buffer, host_memory, 0));
    void *host_view = NULL;
    VK(vkMapMemory(g.device, host_memory, 0, VK_WHOLE_SIZE, 0, &host_view));
    printf("  [Vulkan] extmem_vk_import_host_memory: VkDeviceMemory over the device pointer in %.3f ms; "
           "vkMapMemory gives %p: %s\n",
           t1 - t0, host_view,
           host_view == (void *)(uintptr_t)host_ptr ? "the device pointer itself (no copy)" : "ANOTHER address");
    vkUnmapMemory(g.device, host_memory);
    struct extmem_pattern_push check2 = {HOST_WORDS, seed2, 5, 7};
    VK(gpu_run(&g, g.verify, host_buffer, &check2, &ms));
    res = *g.result_map;
    printf("  [Vulkan] verify.comp checked %u words written by the kernel: %u wrong: %.2f ms\n", res.checked,
           res.mismatches, ms);
    if (res.mismatches || res.checked != HOST_WORDS) {
        printf("verification FAILED: first wrong word %u\n", res.first_bad);
        goto done;
    }
    struct extmem_pattern_push refill = {HOST_WORDS, seed2 ^ 0xffffu, 1, 0};
    VK(gpu_run(&g, g.fill, host_buffer, &refill, &ms));
    CU(cuMemcpyDtoH(copy, host_ptr, host_bytes));
    size_t wrong2 = 0;
    for (uint32_t i = 0; i < HOST_WORDS; ++i)
        wrong2 += copy[i] != extmem_pattern(i, seed2 ^ 0xffffu);
    printf("  [Vulkan] fill.comp wrote new words into extmem's memory; [extmem] cuMemcpyDtoH reads them: %zu wrong\n",
           wrong2);
    if (wrong2) {
        printf("verification FAILED\n");
        goto done;
    }
    printf("\nverified every word in both directions with no copies: PASSED\n");
    status = 0;

done:
    /* Vulkan lets go of extmem's memory before extmem frees it; the imported memfd may go in
     * any order. Teardown failures after a success still fail the demo. */
    if (g.device)
        vkDeviceWaitIdle(g.device);
    if (host_buffer)
        vkDestroyBuffer(g.device, host_buffer, NULL);
    if (host_memory)
        vkFreeMemory(g.device, host_memory, NULL);
    if (host_ptr && cuMemFree(host_ptr) != CUDA_SUCCESS)
        status = failed_cu("cuMemFree(host_ptr)", extmem_error_code());
    if (shared && cuMemFree(shared) != CUDA_SUCCESS)
        status = failed_cu("cuMemFree(shared)", extmem_error_code());
    if (ext && cuDestroyExternalMemory(ext) != CUDA_SUCCESS)
        status = failed_cu("cuDestroyExternalMemory", extmem_error_code());
    if (buffer)
        vkDestroyBuffer(g.device, buffer, NULL);
    if (memory)
        vkFreeMemory(g.device, memory, NULL);
    gpu_destroy(&g);
    if (start)
        cuEventDestroy(start);
    if (stop)
        cuEventDestroy(stop);
    if (stream)
        cuStreamDestroy(stream);
    if (ctx)
        cuCtxDestroy(ctx);
    free(copy);
    return status;
}
