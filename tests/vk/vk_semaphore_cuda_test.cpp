// CUDA on the other side of the layer's semaphores: extmem's cuImportExternalSemaphore opens
// the payload the layer exports (extmem_vk_import_semaphore, or the fd by hand), and each side
// really waits for the other. Ends with the NVIDIA-sample loop: a Vulkan compute shader and a
// software-device kernel taking turns on one buffer every frame, thousands of frames, with no
// host synchronisation at all, in one process and across two.
#include "framework/testing.h"
#include "semaphore_harness.h"

#include "extmem/vulkan.h"
#include "shaders/frame.comp.spv.h"

#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>

using namespace extmem_test;
using namespace extmem_vk_sem_test;

namespace {

class CudaLayerTest : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        ASSERT_EQ("", vk.init());
        ASSERT_EQ("", d.init(vk));
        ASSERT_OK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    }
    void TearDown() override
    {
        if (stream) {
            EXPECT_OK(cuStreamDestroy(stream));
        }
        d.close();
        ContextTest::TearDown();
    }
    Instance vk;
    Device d;
    CUstream stream = nullptr;
};

CUresult signal(CUexternalSemaphore s, uint64_t value, CUstream stream)
{
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS p;
    memset(&p, 0, sizeof(p));
    p.params.fence.value = value;
    return cuSignalExternalSemaphoresAsync(&s, &p, 1, stream);
}

CUresult wait(CUexternalSemaphore s, uint64_t value, CUstream stream)
{
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS p;
    memset(&p, 0, sizeof(p));
    p.params.fence.value = value;
    return cuWaitExternalSemaphoresAsync(&s, &p, 1, stream);
}

bool fence_done_within(Device &d, VkFence f, int ms)
{
    return vkWaitForFences(d.device, 1, &f, VK_TRUE, (uint64_t)ms * 1000000u) == VK_SUCCESS;
}

// The stream finishes within ms (cuStreamQuery slept on, never a busy wait).
bool stream_done_within(CUstream s, int ms)
{
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (cuStreamQuery(s) == CUDA_ERROR_NOT_READY) {
        if (std::chrono::steady_clock::now() > until)
            return false;
        usleep(1000);
    }
    return cuStreamQuery(s) == CUDA_SUCCESS;
}

} // namespace

TEST_F(CudaLayerTest, CudaSignalsBinary_VulkanQueueWaitCompletes)
{
    VkSemaphore s = d.semaphore(false, 0, true);
    CUexternalSemaphore ext = nullptr;
    ASSERT_OK(extmem_vk_import_semaphore(d.device, s, false, &ext));
    VkFence f = d.fence();
    ASSERT_EQ(VK_SUCCESS, d.submit({{s, 0}}, {}, f));
    EXPECT_FALSE(fence_done_within(d, f, 50));
    ASSERT_OK(signal(ext, 0, stream));
    EXPECT_TRUE(fence_done_within(d, f, 5000));
    EXPECT_OK(cuStreamSynchronize(stream));
    EXPECT_OK(cuDestroyExternalSemaphore(ext));
    d.destroy(f);
    d.destroy(s);
}

TEST_F(CudaLayerTest, VulkanSignalsBinary_CudaStreamWaitCompletes)
{
    VkSemaphore s = d.semaphore(false, 0, true);
    CUexternalSemaphore ext = nullptr;
    ASSERT_OK(extmem_vk_import_semaphore(d.device, s, false, &ext));
    ASSERT_OK(wait(ext, 0, stream));
    EXPECT_FALSE(stream_done_within(stream, 50));
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(stream));
    ASSERT_EQ(VK_SUCCESS, d.submit({}, {{s, 0}}, VK_NULL_HANDLE));
    EXPECT_TRUE(stream_done_within(stream, 5000));
    EXPECT_EQ(VK_SUCCESS, vkQueueWaitIdle(d.queue));
    EXPECT_OK(cuDestroyExternalSemaphore(ext));
    d.destroy(s);
}

TEST_F(CudaLayerTest, TimelineValues_TravelBothWays)
{
    VkSemaphore s = d.semaphore(true, 0, true);
    CUexternalSemaphore ext = nullptr;
    ASSERT_OK(extmem_vk_import_semaphore(d.device, s, true, &ext));
    ASSERT_OK(signal(ext, 5, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    uint64_t v = 0;
    EXPECT_EQ(VK_SUCCESS, vkGetSemaphoreCounterValue(d.device, s, &v));
    EXPECT_EQ(5u, v); // CUDA signals 5: Vulkan reads 5
    ASSERT_OK(wait(ext, 7, stream));
    EXPECT_FALSE(stream_done_within(stream, 50));
    ASSERT_EQ(VK_SUCCESS, d.submit({}, {{s, 7}}, VK_NULL_HANDLE));
    EXPECT_TRUE(stream_done_within(stream, 5000));
    // A Vulkan queue waiting for a value CUDA signals later.
    VkFence f = d.fence();
    ASSERT_EQ(VK_SUCCESS, d.submit({{s, 9}}, {}, f));
    EXPECT_FALSE(fence_done_within(d, f, 50));
    ASSERT_OK(signal(ext, 9, stream));
    EXPECT_TRUE(fence_done_within(d, f, 5000));
    EXPECT_OK(cuDestroyExternalSemaphore(ext));
    d.destroy(f);
    d.destroy(s);
}

TEST_F(CudaLayerTest, CudaWaitForAFutureValue_IsReleasedByAHostVkSignalSemaphore)
{
    VkSemaphore s = d.semaphore(true, 1, true);
    CUexternalSemaphore ext = nullptr;
    ASSERT_OK(extmem_vk_import_semaphore(d.device, s, true, &ext));
    ASSERT_OK(wait(ext, 1, stream)); // passed already
    EXPECT_TRUE(stream_done_within(stream, 5000));
    ASSERT_OK(wait(ext, 10, stream));
    EXPECT_FALSE(stream_done_within(stream, 50));
    VkSemaphoreSignalInfo si = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, s, 10};
    ASSERT_EQ(VK_SUCCESS, vkSignalSemaphore(d.device, &si));
    EXPECT_TRUE(stream_done_within(stream, 5000));
    EXPECT_OK(cuDestroyExternalSemaphore(ext));
    d.destroy(s);
}

TEST_F(CudaLayerTest, TwoSemaphoresInOneCall_TheStreamWaitsForBoth)
{
    VkSemaphore s1 = d.semaphore(false, 0, true), s2 = d.semaphore(true, 0, true);
    CUexternalSemaphore ext[2] = {};
    ASSERT_OK(extmem_vk_import_semaphore(d.device, s1, false, &ext[0]));
    ASSERT_OK(extmem_vk_import_semaphore(d.device, s2, true, &ext[1]));
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp[2];
    memset(wp, 0, sizeof(wp));
    wp[1].params.fence.value = 4;
    ASSERT_OK(cuWaitExternalSemaphoresAsync(ext, wp, 2, stream));
    ASSERT_EQ(VK_SUCCESS, d.submit({}, {{s1, 0}}, VK_NULL_HANDLE));
    EXPECT_FALSE(stream_done_within(stream, 50)); // one of two
    ASSERT_EQ(VK_SUCCESS, d.submit({}, {{s2, 4}}, VK_NULL_HANDLE));
    EXPECT_TRUE(stream_done_within(stream, 5000));
    // And both signalled by one CUDA call release one Vulkan batch.
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp[2];
    memset(sp, 0, sizeof(sp));
    sp[1].params.fence.value = 6;
    VkFence f = d.fence();
    ASSERT_EQ(VK_SUCCESS, d.submit({{s1, 0}, {s2, 6}}, {}, f));
    ASSERT_OK(cuSignalExternalSemaphoresAsync(ext, sp, 2, stream));
    EXPECT_TRUE(fence_done_within(d, f, 5000));
    EXPECT_OK(cuDestroyExternalSemaphore(ext[0]));
    EXPECT_OK(cuDestroyExternalSemaphore(ext[1]));
    d.destroy(f);
    d.destroy(s1);
    d.destroy(s2);
}

TEST_F(CudaLayerTest, SameSemaphoreImportedTwice_BothImportsShareOnePayload)
{
    VkSemaphore s = d.semaphore(true, 0, true);
    CUexternalSemaphore one = nullptr, two = nullptr;
    ASSERT_OK(extmem_vk_import_semaphore(d.device, s, true, &one));
    ASSERT_OK(extmem_vk_import_semaphore(d.device, s, true, &two));
    CUstream other = nullptr;
    ASSERT_OK(cuStreamCreate(&other, CU_STREAM_NON_BLOCKING));
    ASSERT_OK(wait(two, 3, other));
    EXPECT_FALSE(stream_done_within(other, 50));
    ASSERT_OK(signal(one, 3, stream));
    EXPECT_TRUE(stream_done_within(other, 5000));
    uint64_t v = 0;
    EXPECT_EQ(VK_SUCCESS, vkGetSemaphoreCounterValue(d.device, s, &v));
    EXPECT_EQ(3u, v);
    EXPECT_OK(cuDestroyExternalSemaphore(one));
    // The second import still works once the first is gone.
    ASSERT_OK(signal(two, 4, other));
    ASSERT_OK(cuStreamSynchronize(other));
    EXPECT_EQ(VK_SUCCESS, vkGetSemaphoreCounterValue(d.device, s, &v));
    EXPECT_EQ(4u, v);
    EXPECT_OK(cuDestroyExternalSemaphore(two));
    EXPECT_OK(cuStreamDestroy(other));
    d.destroy(s);
}

TEST_F(CudaLayerTest, ImportHelper_BadArgumentsAndNotExportable_FailWithAReasonAndLeakNothing)
{
    CUexternalSemaphore ext = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_vk_import_semaphore(VK_NULL_HANDLE, VK_NULL_HANDLE, false, &ext));
    VkSemaphore plain = d.semaphore(false, 0, false);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_vk_import_semaphore(d.device, plain, false, nullptr));
    VkSemaphore tl = d.semaphore(true, 0, true); // its payload holds an fd of the layer's
    int fds = open_fd_count();
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_vk_import_semaphore(d.device, plain, false, &ext));
    EXPECT_DETAIL_HAS("VkExportSemaphoreCreateInfo");
    EXPECT_EQ(fds, open_fd_count());
    // A timeline imported as binary is taken, as NVIDIA's driver takes it
    // (docs/probes/surface/timeline.out); destroying it gives back what it held.
    ASSERT_OK(extmem_vk_import_semaphore(d.device, tl, false, &ext));
    EXPECT_OK(cuDestroyExternalSemaphore(ext));
    EXPECT_EQ(fds, open_fd_count());
    d.destroy(tl);
    d.destroy(plain);
}

// ---- The producer/consumer loop ----

namespace {

constexpr uint32_t kWords = 4096;

// Words i * 7 + 2k are frame k's input to Vulkan (k in ctrl); Vulkan writes i * 7 + 2k + 1,
// the kernel i * 7 + 2k + 2 and ctrl = k + 1. Each side counts what it did not find.
struct Frame {
    uint32_t ctrl, mismatches, data[kWords];
};

struct KernelArgs {
    Frame *frame;
    uint32_t k;
    std::atomic<uint32_t> *mismatches;
};

void frame_kernel(const extmem_block *blk, void *p)
{
    const KernelArgs *a = static_cast<const KernelArgs *>(p);
    EXTMEM_FOR_EACH_THREAD(blk, tx, ty, tz)
    {
        (void)ty;
        (void)tz;
        uint32_t i = blk->blockIdx.x * blk->blockDim.x + tx;
        if (i >= kWords)
            continue;
        if (a->frame->data[i] != i * 7u + 2u * a->k + 1u)
            a->mismatches->fetch_add(1, std::memory_order_relaxed);
        a->frame->data[i] = i * 7u + 2u * a->k + 2u;
        if (i == 0)
            a->frame->ctrl = a->k + 1;
    }
}

// The CUDA side of frame k: wait for Vulkan's 2k + 1, run, signal 2k + 2. Never waits itself.
CUresult cuda_frame(CUexternalSemaphore t, Frame *frame, uint32_t k, std::atomic<uint32_t> *mismatches, CUstream s)
{
    CUresult r = wait(t, 2ull * k + 1, s);
    KernelArgs args = {frame, k, mismatches};
    extmem_dim3 block = {256, 1, 1}, grid = {kWords / 256, 1, 1};
    if (!r)
        r = extmem_launch_kernel(frame_kernel, grid, block, &args, sizeof(args), s);
    return r ? r : signal(t, 2ull * k + 2, s);
}

// The Vulkan side: an exportable host-visible buffer holding a Frame and a command buffer
// that runs frame.comp over it, recorded once and submitted every frame.
class VulkanFrames {
public:
    std::string init(Device &d);
    ~VulkanFrames();
    VkResult frame(uint32_t k, VkSemaphore t) { return d_->submit({{t, 2ull * k}}, {{t, 2ull * k + 1}}, VK_NULL_HANDLE, cmd_); }
    int export_memory(); /* an OPAQUE_FD of the memory, -1 on failure */
    VkDeviceMemory memory() const { return memory_; }
    Frame *map = nullptr;
    VkDeviceSize size = 0;

private:
    Device *d_ = nullptr;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    VkCommandPool cmd_pool_ = VK_NULL_HANDLE;
    VkCommandBuffer cmd_ = VK_NULL_HANDLE;
};

#define TRY(call)                                                                                                \
    do {                                                                                                         \
        VkResult try_r_ = (call);                                                                                \
        if (try_r_ != VK_SUCCESS)                                                                                \
            return std::string(#call) + " failed: VkResult " + std::to_string((int)try_r_);                    \
    } while (0)

std::string VulkanFrames::init(Device &d)
{
    d_ = &d;
    VkExternalMemoryBufferCreateInfo ebi = {VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, nullptr,
                                            VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkBufferCreateInfo bi = {};
    bi.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bi.pNext = &ebi;
    bi.size = sizeof(Frame);
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    TRY(vkCreateBuffer(d.device, &bi, nullptr, &buffer_));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(d.device, buffer_, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(d.physical, &mp);
    uint32_t type = 0;
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    while (type < mp.memoryTypeCount &&
           !((req.memoryTypeBits & (1u << type)) && (mp.memoryTypes[type].propertyFlags & want) == want))
        ++type;
    VkExportMemoryAllocateInfo emi = {VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO, nullptr,
                                      VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &emi, req.size, type};
    TRY(vkAllocateMemory(d.device, &mai, nullptr, &memory_));
    size = req.size;
    TRY(vkBindBufferMemory(d.device, buffer_, memory_, 0));
    TRY(vkMapMemory(d.device, memory_, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void **>(&map)));

    VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo dli = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &binding};
    TRY(vkCreateDescriptorSetLayout(d.device, &dli, nullptr, &set_layout_));
    VkPushConstantRange push = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(uint32_t)};
    VkPipelineLayoutCreateInfo pli = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &set_layout_, 1, &push};
    TRY(vkCreatePipelineLayout(d.device, &pli, nullptr, &layout_));
    VkShaderModuleCreateInfo smi = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, sizeof(frame_spv), frame_spv};
    VkShaderModule module;
    TRY(vkCreateShaderModule(d.device, &smi, nullptr, &module));
    VkComputePipelineCreateInfo cpi = {};
    cpi.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    cpi.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpi.stage.module = module;
    cpi.stage.pName = "main";
    cpi.layout = layout_;
    VkResult r = vkCreateComputePipelines(d.device, VK_NULL_HANDLE, 1, &cpi, nullptr, &pipeline_);
    vkDestroyShaderModule(d.device, module, nullptr);
    TRY(r);
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo dpi = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &ps};
    TRY(vkCreateDescriptorPool(d.device, &dpi, nullptr, &pool_));
    VkDescriptorSetAllocateInfo dsai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool_, 1, &set_layout_};
    VkDescriptorSet set;
    TRY(vkAllocateDescriptorSets(d.device, &dsai, &set));
    VkDescriptorBufferInfo dbi = {buffer_, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet w = {};
    w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    w.dstSet = set;
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w.pBufferInfo = &dbi;
    vkUpdateDescriptorSets(d.device, 1, &w, 0, nullptr);

    VkCommandPoolCreateInfo cpci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, 0, d.family};
    TRY(vkCreateCommandPool(d.device, &cpci, nullptr, &cmd_pool_));
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, cmd_pool_,
                                       VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    TRY(vkAllocateCommandBuffers(d.device, &cai, &cmd_));
    // Submitted again while earlier submissions may still be pending: no host waits.
    VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                      VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT, nullptr};
    TRY(vkBeginCommandBuffer(cmd_, &begin));
    vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    vkCmdBindDescriptorSets(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set, 0, nullptr);
    const uint32_t count = kWords;
    vkCmdPushConstants(cmd_, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(count), &count);
    vkCmdDispatch(cmd_, kWords / 256, 1, 1);
    TRY(vkEndCommandBuffer(cmd_));

    map->ctrl = 0;
    map->mismatches = 0;
    for (uint32_t i = 0; i < kWords; ++i)
        map->data[i] = i * 7u;
    return "";
}

int VulkanFrames::export_memory()
{
    VkMemoryGetFdInfoKHR gi = {VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR, nullptr, memory_,
                               VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    int fd = -1;
    return vkGetMemoryFdKHR(d_->device, &gi, &fd) == VK_SUCCESS ? fd : -1;
}

VulkanFrames::~VulkanFrames()
{
    if (!d_)
        return;
    vkDestroyCommandPool(d_->device, cmd_pool_, nullptr);
    vkDestroyDescriptorPool(d_->device, pool_, nullptr);
    vkDestroyPipeline(d_->device, pipeline_, nullptr);
    vkDestroyPipelineLayout(d_->device, layout_, nullptr);
    vkDestroyDescriptorSetLayout(d_->device, set_layout_, nullptr);
    vkDestroyBuffer(d_->device, buffer_, nullptr);
    vkFreeMemory(d_->device, memory_, nullptr);
}

} // namespace

TEST_F(CudaLayerTest, ProducerConsumer_ThousandsOfFrames_NoHostSynchronisation_DataRightEveryFrame)
{
    const uint32_t frames = 2000;
    VulkanFrames vf;
    ASSERT_EQ("", vf.init(d));
    // The memory as NVIDIA's samples share it (vkGetMemoryFdKHR + cuImportExternalMemory).
    CUexternalMemory mem = nullptr;
    ASSERT_OK(extmem_vk_import_memory(d.device, vf.memory(), vf.size, &mem));
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd = {};
    bd.size = sizeof(Frame);
    CUdeviceptr p = 0;
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&p, mem, &bd));
    Frame *frame = reinterpret_cast<Frame *>(p);

    VkSemaphore t = d.semaphore(true, 0, true);
    CUexternalSemaphore ext = nullptr;
    ASSERT_OK(extmem_vk_import_semaphore(d.device, t, true, &ext));
    std::atomic<uint32_t> cuda_mismatches{0};
    auto start = std::chrono::steady_clock::now();
    for (uint32_t k = 0; k < frames; ++k) {
        ASSERT_EQ(VK_SUCCESS, vf.frame(k, t));
        ASSERT_OK(cuda_frame(ext, frame, k, &cuda_mismatches, stream));
    }
    ASSERT_OK(cuStreamSynchronize(stream));
    ASSERT_EQ(VK_SUCCESS, vkQueueWaitIdle(d.queue));
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    printf("%u frames in %.3f s: %.0f frames/s\n", frames, seconds, frames / seconds);
    uint64_t v = 0;
    EXPECT_EQ(VK_SUCCESS, vkGetSemaphoreCounterValue(d.device, t, &v));
    EXPECT_EQ(2ull * frames, v);
    EXPECT_EQ(0u, vf.map->mismatches) << "Vulkan saw words the kernel had not written yet";
    EXPECT_EQ(0u, cuda_mismatches.load()) << "the kernel saw words Vulkan had not written yet";
    EXPECT_EQ(frames, frame->ctrl);
    size_t wrong = 0;
    for (uint32_t i = 0; i < kWords; ++i)
        wrong += frame->data[i] != i * 7u + 2u * frames;
    EXPECT_EQ(0u, wrong);
    EXPECT_OK(cuDestroyExternalSemaphore(ext));
    EXPECT_OK(cuMemFree(p));
    EXPECT_OK(cuDestroyExternalMemory(mem));
    d.destroy(t);
}

// The Vulkan side in a process of its own: sends the memory and the timeline semaphore over
// the socket args[0], runs args[1] frames, then reports what its shader counted.
EXTMEM_CHILD_ROLE(sem_vulkan_frames)
{
    if (args.size() != 2)
        return 90;
    Instance vk;
    Device d;
    if (!vk.init().empty() || !d.init(vk).empty())
        return 91;
    VulkanFrames vf;
    if (!vf.init(d).empty())
        return 92;
    VkSemaphore t = d.semaphore(true, 0, true);
    int sock = connect_to(args[0]);
    int memfd = vf.export_memory(), semfd = d.export_fd(t);
    if (sock < 0 || memfd < 0 || semfd < 0 || send_fd(sock, memfd) != 0 || send_fd(sock, semfd) != 0)
        return 93;
    close(memfd);
    close(semfd);
    printf("size %llu\n", (unsigned long long)vf.size);
    fflush(stdout);
    const uint32_t frames = (uint32_t)std::stoul(args[1]);
    for (uint32_t k = 0; k < frames; ++k)
        if (vf.frame(k, t) != VK_SUCCESS)
            return 94;
    const uint64_t last = 2ull * frames;
    VkSemaphoreWaitInfo wi = {VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &t, &last};
    if (vkWaitSemaphores(d.device, &wi, 60ull * 1000000000u) != VK_SUCCESS || vkQueueWaitIdle(d.queue) != VK_SUCCESS)
        return 95;
    printf("vulkan mismatches %u\n", vf.map->mismatches);
    d.destroy(t);
    close(sock);
    return 0;
}

TEST_F(CudaLayerTest, ProducerConsumer_AcrossTwoProcesses_DataRightEveryFrame)
{
    const uint32_t frames = 1000;
    std::string name;
    int listener = listen_somewhere(&name);
    ASSERT_GE(listener, 0);
    Child child("sem_vulkan_frames", {name, std::to_string(frames)});
    int conn = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    ASSERT_GE(conn, 0);
    int memfd = recv_fd(conn), semfd = recv_fd(conn);
    ASSERT_GE(memfd, 0);
    ASSERT_GE(semfd, 0);
    std::string line = child.read_line();
    ASSERT_EQ(0u, line.rfind("size ", 0)) << line;

    CUDA_EXTERNAL_MEMORY_HANDLE_DESC md = {};
    md.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
    md.handle.fd = memfd;
    md.size = std::stoull(line.substr(5));
    CUexternalMemory mem = nullptr;
    ASSERT_OK(cuImportExternalMemory(&mem, &md));
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd = {};
    bd.size = sizeof(Frame);
    CUdeviceptr p = 0;
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&p, mem, &bd));
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC sd = {};
    sd.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
    sd.handle.fd = semfd;
    CUexternalSemaphore ext = nullptr;
    ASSERT_OK(cuImportExternalSemaphore(&ext, &sd));
    EXPECT_FALSE(fd_is_open(semfd));

    std::atomic<uint32_t> cuda_mismatches{0};
    Frame *frame = reinterpret_cast<Frame *>(p);
    for (uint32_t k = 0; k < frames; ++k)
        ASSERT_OK(cuda_frame(ext, frame, k, &cuda_mismatches, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    EXPECT_EQ("vulkan mismatches 0", child.read_line());
    EXPECT_EQ(0, child.wait());
    EXPECT_EQ(0u, cuda_mismatches.load());
    size_t wrong = 0;
    for (uint32_t i = 0; i < kWords; ++i)
        wrong += frame->data[i] != i * 7u + 2u * frames;
    EXPECT_EQ(0u, wrong);
    EXPECT_OK(cuDestroyExternalSemaphore(ext));
    EXPECT_OK(cuMemFree(p));
    EXPECT_OK(cuDestroyExternalMemory(mem));
    close(conn);
    close(listener);
}
