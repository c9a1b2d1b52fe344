#include "vk_harness.h"

#include <cstdlib>
#include <cstring>
#include <vector>

#include "shaders/fill.comp.spv.h"
#include "shaders/verify.comp.spv.h"

namespace extmem_vk_test {

namespace {
constexpr uint32_t kLocalSize = 256, kMaxGroups = 1024;
}

void use_lavapipe_only()
{
#ifdef EXTMEM_LAVAPIPE_ICD
    if (!getenv("VK_ICD_FILENAMES") && !getenv("VK_DRIVER_FILES")) {
        setenv("VK_ICD_FILENAMES", EXTMEM_LAVAPIPE_ICD, 0);
        setenv("VK_DRIVER_FILES", EXTMEM_LAVAPIPE_ICD, 0);
    }
#endif
}

#define TRY(call)                                                                                                \
    do {                                                                                                         \
        VkResult try_r_ = (call);                                                                                \
        if (try_r_ != VK_SUCCESS)                                                                                \
            return std::string(#call) + " failed: VkResult " + std::to_string((int)try_r_);                    \
    } while (0)

std::string Gpu::init()
{
    use_lavapipe_only();
    TRY(volkInitialize());
    VkApplicationInfo app = {};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "extmem vk tests";
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ici = {};
    ici.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    ici.pApplicationInfo = &app;
    TRY(vkCreateInstance(&ici, nullptr, &instance));
    volkLoadInstance(instance);

    uint32_t count = 0;
    TRY(vkEnumeratePhysicalDevices(instance, &count, nullptr));
    std::vector<VkPhysicalDevice> devs(count);
    TRY(vkEnumeratePhysicalDevices(instance, &count, devs.data()));
    for (VkPhysicalDevice d : devs) {
        VkPhysicalDeviceIDProperties id = {};
        id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
        VkPhysicalDeviceProperties2 p2 = {};
        p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        p2.pNext = &id;
        vkGetPhysicalDeviceProperties2(d, &p2);
        if (p2.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU &&
            strncmp(p2.properties.deviceName, "llvmpipe", 8) == 0) {
            physical = d;
            props = p2.properties;
            memcpy(device_uuid, id.deviceUUID, VK_UUID_SIZE);
            break;
        }
    }
    if (!physical)
        return "no lavapipe among " + std::to_string(count) +
               " Vulkan devices (install mesa-vulkan-drivers; scripts/deps.sh does)";

    uint32_t nfam = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &nfam, nullptr);
    std::vector<VkQueueFamilyProperties> fams(nfam);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &nfam, fams.data());
    uint32_t family = UINT32_MAX;
    for (uint32_t i = 0; i < nfam && family == UINT32_MAX; ++i)
        if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            family = i;
    if (family == UINT32_MAX)
        return "lavapipe has no compute queue";
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qi = {};
    qi.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    qi.queueFamilyIndex = family;
    qi.queueCount = 1;
    qi.pQueuePriorities = &priority;
    const char *extensions[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME};
    VkDeviceCreateInfo di = {};
    di.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    di.queueCreateInfoCount = 1;
    di.pQueueCreateInfos = &qi;
    di.enabledExtensionCount = 2;
    di.ppEnabledExtensionNames = extensions;
    TRY(vkCreateDevice(physical, &di, nullptr, &device));
    volkLoadDevice(device);
    vkGetDeviceQueue(device, family, 0, &queue_);

    VkCommandPoolCreateInfo cpi = {};
    cpi.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    cpi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    cpi.queueFamilyIndex = family;
    TRY(vkCreateCommandPool(device, &cpi, nullptr, &pool_));
    VkCommandBufferAllocateInfo cai = {};
    cai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    cai.commandPool = pool_;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    TRY(vkAllocateCommandBuffers(device, &cai, &cmd_));
    VkFenceCreateInfo fi = {};
    fi.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    TRY(vkCreateFence(device, &fi, nullptr, &fence_));

    VkDescriptorSetLayoutBinding bindings[2] = {};
    for (uint32_t i = 0; i < 2; ++i) {
        bindings[i].binding = i;
        bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        bindings[i].descriptorCount = 1;
        bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo dli = {};
    dli.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    dli.bindingCount = 2;
    dli.pBindings = bindings;
    TRY(vkCreateDescriptorSetLayout(device, &dli, nullptr, &set_layout_));
    VkPushConstantRange push = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(extmem_pattern_push)};
    VkPipelineLayoutCreateInfo pli = {};
    pli.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &set_layout_;
    pli.pushConstantRangeCount = 1;
    pli.pPushConstantRanges = &push;
    TRY(vkCreatePipelineLayout(device, &pli, nullptr, &layout_));
    TRY(make_pipeline(fill_spv, sizeof(fill_spv), &fill_));
    TRY(make_pipeline(verify_spv, sizeof(verify_spv), &verify_));
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo dpi = {};
    dpi.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    dpi.maxSets = 1;
    dpi.poolSizeCount = 1;
    dpi.pPoolSizes = &ps;
    TRY(vkCreateDescriptorPool(device, &dpi, nullptr, &descriptors_));

    result_ = buffer(sizeof(extmem_pattern_result), 0);
    if (!result_)
        return "cannot create the result buffer";
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, result_, &req);
    result_memory_ = allocate(req.size, req.memoryTypeBits, false);
    if (!result_memory_)
        return "cannot allocate the result buffer";
    TRY(vkBindBufferMemory(device, result_, result_memory_, 0));
    TRY(vkMapMemory(device, result_memory_, 0, VK_WHOLE_SIZE, 0, (void **)&result_map_));
    return "";
}

Gpu::~Gpu()
{
    if (device) {
        vkDeviceWaitIdle(device);
        vkDestroyBuffer(device, result_, nullptr);
        vkFreeMemory(device, result_memory_, nullptr);
        vkDestroyDescriptorPool(device, descriptors_, nullptr);
        vkDestroyPipeline(device, fill_, nullptr);
        vkDestroyPipeline(device, verify_, nullptr);
        vkDestroyPipelineLayout(device, layout_, nullptr);
        vkDestroyDescriptorSetLayout(device, set_layout_, nullptr);
        vkDestroyFence(device, fence_, nullptr);
        vkDestroyCommandPool(device, pool_, nullptr);
        vkDestroyDevice(device, nullptr);
    }
    if (instance)
        vkDestroyInstance(instance, nullptr);
}

VkResult Gpu::make_pipeline(const uint32_t *code, size_t size, VkPipeline *out)
{
    VkShaderModuleCreateInfo mi = {};
    mi.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    mi.codeSize = size;
    mi.pCode = code;
    VkShaderModule module;
    VkResult r = vkCreateShaderModule(device, &mi, nullptr, &module);
    if (r != VK_SUCCESS)
        return r;
    VkComputePipelineCreateInfo pi = {};
    pi.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    pi.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    pi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pi.stage.module = module;
    pi.stage.pName = "main";
    pi.layout = layout_;
    r = vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pi, nullptr, out);
    vkDestroyShaderModule(device, module, nullptr);
    return r;
}

VkBuffer Gpu::buffer(VkDeviceSize size, VkExternalMemoryHandleTypeFlags external)
{
    VkExternalMemoryBufferCreateInfo ext = {};
    ext.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO;
    ext.handleTypes = external;
    VkBufferCreateInfo info = {};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.pNext = external ? &ext : nullptr;
    info.size = size;
    info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkBuffer b = VK_NULL_HANDLE;
    return vkCreateBuffer(device, &info, nullptr, &b) == VK_SUCCESS ? b : VK_NULL_HANDLE;
}

VkDeviceMemory Gpu::allocate(VkDeviceSize size, uint32_t type_bits, bool exportable)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(physical, &mp);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < mp.memoryTypeCount && type == UINT32_MAX; ++i)
        if ((type_bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
            type = i;
    if (type == UINT32_MAX)
        return VK_NULL_HANDLE;
    VkExportMemoryAllocateInfo export_info = {};
    export_info.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO;
    export_info.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkMemoryAllocateInfo ai = {};
    ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    ai.pNext = exportable ? &export_info : nullptr;
    ai.allocationSize = size;
    ai.memoryTypeIndex = type;
    VkDeviceMemory m = VK_NULL_HANDLE;
    return vkAllocateMemory(device, &ai, nullptr, &m) == VK_SUCCESS ? m : VK_NULL_HANDLE;
}

VkResult Gpu::run(VkPipeline pipeline, VkBuffer buf, VkDeviceSize offset, const extmem_pattern_push &push)
{
    VkResult r = vkResetDescriptorPool(device, descriptors_, 0);
    if (r != VK_SUCCESS)
        return r;
    VkDescriptorSet set;
    VkDescriptorSetAllocateInfo sai = {};
    sai.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    sai.descriptorPool = descriptors_;
    sai.descriptorSetCount = 1;
    sai.pSetLayouts = &set_layout_;
    if ((r = vkAllocateDescriptorSets(device, &sai, &set)) != VK_SUCCESS)
        return r;
    VkDescriptorBufferInfo infos[2] = {{buf, offset, (VkDeviceSize)push.count * 4}, {result_, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet writes[2] = {};
    for (uint32_t i = 0; i < 2; ++i) {
        writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        writes[i].dstSet = set;
        writes[i].dstBinding = i;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &infos[i];
    }
    vkUpdateDescriptorSets(device, 2, writes, 0, nullptr);
    *result_map_ = extmem_pattern_result{0, 0xffffffffu, 0, 0};

    VkCommandBufferBeginInfo bi = {};
    bi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if ((r = vkBeginCommandBuffer(cmd_, &bi)) != VK_SUCCESS)
        return r;
    vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set, 0, nullptr);
    vkCmdPushConstants(cmd_, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    uint32_t groups = (push.count + kLocalSize - 1) / kLocalSize;
    vkCmdDispatch(cmd_, groups > kMaxGroups ? kMaxGroups : (groups ? groups : 1), 1, 1);
    VkMemoryBarrier mb = {};
    mb.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr,
                         0, nullptr);
    if ((r = vkEndCommandBuffer(cmd_)) != VK_SUCCESS)
        return r;
    VkSubmitInfo si = {};
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd_;
    if ((r = vkQueueSubmit(queue_, 1, &si, fence_)) != VK_SUCCESS)
        return r;
    r = vkWaitForFences(device, 1, &fence_, VK_TRUE, UINT64_MAX);
    vkResetFences(device, 1, &fence_);
    return r;
}

VkResult Gpu::fill(VkBuffer buf, VkDeviceSize offset, uint32_t count, uint32_t seed, uint32_t mul, uint32_t add)
{
    return run(fill_, buf, offset, extmem_pattern_push{count, seed, mul, add});
}

VkResult Gpu::verify(VkBuffer buf, VkDeviceSize offset, uint32_t count, uint32_t seed, uint32_t mul, uint32_t add,
                     extmem_pattern_result *out)
{
    VkResult r = run(verify_, buf, offset, extmem_pattern_push{count, seed, mul, add});
    *out = *result_map_;
    return r;
}

namespace {
struct KernelArgs {
    CUdeviceptr data;
    uint32_t count, seed, mul, add;
    int fill;
};

void pattern_kernel(const extmem_block *blk, void *p)
{
    const KernelArgs *a = static_cast<const KernelArgs *>(p);
    uint32_t *data = reinterpret_cast<uint32_t *>(a->data);
    EXTMEM_FOR_EACH_THREAD(blk, tx, ty, tz)
    {
        (void)ty;
        (void)tz;
        uint32_t i = blk->blockIdx.x * blk->blockDim.x + tx;
        if (i < a->count)
            data[i] = (a->fill ? extmem_pattern(i, a->seed) : data[i]) * a->mul + a->add;
    }
}

CUresult launch(const KernelArgs &args)
{
    extmem_dim3 block = {kLocalSize, 1, 1};
    extmem_dim3 grid = {(args.count + kLocalSize - 1) / kLocalSize, 1, 1};
    CUresult r = extmem_launch_kernel(pattern_kernel, grid, block, &args, sizeof(args), nullptr);
    return r ? r : cuCtxSynchronize();
}
} // namespace

CUresult kernel_fill(CUdeviceptr data, uint32_t count, uint32_t seed, uint32_t mul, uint32_t add)
{
    return launch(KernelArgs{data, count, seed, mul, add, 1});
}

CUresult kernel_transform(CUdeviceptr data, uint32_t count, uint32_t mul, uint32_t add)
{
    return launch(KernelArgs{data, count, 0, mul, add, 0});
}

size_t count_wrong(const uint32_t *data, uint32_t count, uint32_t seed, uint32_t mul, uint32_t add)
{
    size_t wrong = 0;
    for (uint32_t i = 0; i < count; ++i)
        wrong += data[i] != extmem_pattern(i, seed) * mul + add;
    return wrong;
}

} // namespace extmem_vk_test
