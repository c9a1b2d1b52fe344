// An interop frame as a CUDA graph (issue 24): a Vulkan buffer and a timeline semaphore shared
// through extmem's layer on lavapipe, and one executable graph per program, as NVIDIA's interop
// samples build it: external semaphore wait -> kernel -> copy -> external semaphore signal,
// instantiated once and launched every frame with the frame's values set on the executable
// graph. Vulkan writes each frame's input and reads each frame's result back with transfer
// commands ordered by the same semaphore; every word of every frame is checked. Then the same
// frame made by stream capture, and what the frame needs of src/graph one thing at a time (a
// signal node signals at launches only; a kernel node's new arguments; a launch on a default
// stream never holds its caller in a wait node).
#include "framework/testing.h"
#include "semaphore_harness.h"

#include "extmem/vulkan.h"

#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <vector>

using namespace extmem_test;
using namespace extmem_vk_sem_test;

namespace {

constexpr uint32_t kWords = 1024;                 // words per region
constexpr VkDeviceSize kRegion = kWords * 4;      // bytes per region
constexpr uint32_t kInFlight = 3;                 // frames queued ahead of the host

// out[j] = in[j] * 3 + frame for j < n (one thread per word).
const char kFramePtx[] = R"(
.version 7.5
.target sm_75
.address_size 64
.visible .entry frame(.param .u64 in, .param .u64 out, .param .u32 f, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    ld.param.u32 %r1, [f];
    ld.param.u32 %r2, [n];
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %tid.x;
    mad.lo.s32 %r6, %r3, %r4, %r5;
    setp.ge.u32 %p1, %r6, %r2;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mul.wide.u32 %rd5, %r6, 4;
    add.s64 %rd6, %rd3, %rd5;
    ld.global.u32 %r7, [%rd6];
    mad.lo.s32 %r8, %r7, 3, %r1;
    add.s64 %rd7, %rd4, %rd5;
    st.global.u32 [%rd7], %r8;
DONE:
    ret;
}
)";

// Frame f's input word j: no two frames alike, no word equal to its neighbour.
uint32_t input_word(uint32_t f, uint32_t j)
{
    uint32_t x = f * 2654435761u ^ (j * 40503u + 0x9e3779b9u);
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    return x ^ (x >> 12);
}

uint32_t result_word(uint32_t f, uint32_t j) { return input_word(f, j) * 3u + f; }

std::string to_hex32(uint32_t v)
{
    char text[9];
    snprintf(text, sizeof(text), "%08x", v);
    return text;
}

#define TRY(call)                                                                                                \
    do {                                                                                                         \
        VkResult try_r_ = (call);                                                                                \
        if (try_r_ != VK_SUCCESS)                                                                                \
            return std::string(#call) + " failed: VkResult " + std::to_string((int)try_r_);                    \
    } while (0)

// A buffer with memory of its own, host-visible (lavapipe's memory is), optionally exportable.
struct VkMem {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0; // the allocation's
    void *map = nullptr;
};

std::string make_buffer(Device &d, VkDeviceSize size, bool exportable, VkMem *out)
{
    VkExternalMemoryBufferCreateInfo ebi = {VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, nullptr,
                                            VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkBufferCreateInfo bi = {};
    bi.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bi.pNext = exportable ? &ebi : nullptr;
    bi.size = size;
    bi.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    TRY(vkCreateBuffer(d.device, &bi, nullptr, &out->buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(d.device, out->buffer, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(d.physical, &mp);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = 0;
    while (type < mp.memoryTypeCount &&
           !((req.memoryTypeBits & (1u << type)) && (mp.memoryTypes[type].propertyFlags & want) == want))
        ++type;
    if (type == mp.memoryTypeCount)
        return "no host-visible coherent memory type for the buffer";
    VkExportMemoryAllocateInfo emi = {VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO, nullptr,
                                      VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, exportable ? &emi : nullptr, req.size, type};
    TRY(vkAllocateMemory(d.device, &mai, nullptr, &out->memory));
    out->size = req.size;
    TRY(vkBindBufferMemory(d.device, out->buffer, out->memory, 0));
    TRY(vkMapMemory(d.device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->map));
    return "";
}

void free_buffer(Device &d, VkMem &m)
{
    if (m.map)
        vkUnmapMemory(d.device, m.memory);
    vkDestroyBuffer(d.device, m.buffer, nullptr);
    vkFreeMemory(d.device, m.memory, nullptr);
    m = VkMem();
}

// The CUDA graph's nodes as launches change them.
struct FrameNodes {
    CUgraphNode wait = nullptr, kernel = nullptr, copy = nullptr, signal = nullptr;
};

class GraphFrame : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        ASSERT_EQ("", vk.init());
        ASSERT_EQ("", d.init(vk));
        ASSERT_OK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
        ASSERT_OK(cuModuleLoadData(&module, kFramePtx));
        ASSERT_OK(cuModuleGetFunction(&func, module, "frame"));
        // shared: in[kWords] then out[kWords], Vulkan's memory imported as NVIDIA's samples do.
        ASSERT_EQ("", make_buffer(d, 2 * kRegion, true, &shared));
        ASSERT_OK(extmem_vk_import_memory(d.device, shared.memory, shared.size, &ext_mem));
        CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd = {};
        bd.size = 2 * kRegion;
        ASSERT_OK(cuExternalMemoryGetMappedBuffer(&shared_ptr, ext_mem, &bd));
        ASSERT_OK(cuMemAlloc(&scratch, kRegion));
        timeline = d.semaphore(true, 0, true);
        ASSERT_NE(VK_NULL_HANDLE, timeline);
        ASSERT_OK(extmem_vk_import_semaphore(d.device, timeline, true, &ext_sem));
        VkCommandPoolCreateInfo cpci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, 0, d.family};
        ASSERT_EQ(VK_SUCCESS, vkCreateCommandPool(d.device, &cpci, nullptr, &pool));
    }
    void TearDown() override
    {
        if (d.device)
            vkQueueWaitIdle(d.queue);
        if (stream) {
            EXPECT_OK(cuStreamSynchronize(stream));
            EXPECT_OK(cuStreamDestroy(stream));
        }
        if (ext_sem) {
            EXPECT_OK(cuDestroyExternalSemaphore(ext_sem));
        }
        if (scratch) {
            EXPECT_OK(cuMemFree(scratch));
        }
        if (shared_ptr) {
            EXPECT_OK(cuMemFree(shared_ptr));
        }
        if (ext_mem) {
            EXPECT_OK(cuDestroyExternalMemory(ext_mem));
        }
        if (module) {
            EXPECT_OK(cuModuleUnload(module));
        }
        if (d.device) {
            vkDestroyCommandPool(d.device, pool, nullptr);
            free_buffer(d, readback);
            free_buffer(d, shared);
            d.destroy(timeline);
        }
        d.close();
        ContextTest::TearDown();
    }

    CUdeviceptr in_ptr() const { return shared_ptr; }
    CUdeviceptr out_ptr() const { return shared_ptr + kRegion; }

    // Vulkan's part of frame f, one submission after CUDA's frame f - 1 (timeline >= 2f): the
    // result of frame f - 1 copied to its readback slot, then frame f's input written; signals
    // 2f + 1. f == frames: only the last readback (the frame loop's end).
    VkResult vulkan_frame(uint32_t f, uint32_t frames, VkFence fence)
    {
        VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                           VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
        VkCommandBuffer cmd;
        VkResult r = vkAllocateCommandBuffers(d.device, &cai, &cmd);
        if (r != VK_SUCCESS)
            return r;
        VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                          VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, nullptr};
        vkBeginCommandBuffer(cmd, &begin);
        if (f > 0) {
            VkBufferCopy region = {kRegion, (VkDeviceSize)(f - 1) * kRegion, kRegion};
            vkCmdCopyBuffer(cmd, shared.buffer, readback.buffer, 1, &region);
        }
        if (f < frames) {
            std::vector<uint32_t> words(kWords);
            for (uint32_t j = 0; j < kWords; ++j)
                words[j] = input_word(f, j);
            vkCmdUpdateBuffer(cmd, shared.buffer, 0, kRegion, words.data());
        }
        if ((r = vkEndCommandBuffer(cmd)) != VK_SUCCESS)
            return r;
        SemList signals;
        if (f < frames)
            signals.push_back({timeline, 2ull * f + 1});
        return d.submit({{timeline, 2ull * f}}, signals, fence, cmd);
    }

    // Waits until CUDA has finished frame f (timeline >= 2f + 2).
    bool cuda_finished(uint32_t f)
    {
        const uint64_t value = 2ull * f + 2;
        VkSemaphoreWaitInfo wi = {VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &timeline, &value};
        return vkWaitSemaphores(d.device, &wi, 30ull * 1000000000u) == VK_SUCCESS;
    }

    // Frame f's values on the executable graph: the wait for Vulkan's 2f + 1, the kernel's
    // frame number, the signal of 2f + 2. Odd frames through the generic setter.
    void set_frame(CUgraphExec x, const FrameNodes &n, uint32_t f)
    {
        CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = {};
        wp.params.fence.value = 2ull * f + 1;
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = {};
        sp.params.fence.value = 2ull * f + 2;
        if (f % 2 == 0) {
            CUDA_EXT_SEM_WAIT_NODE_PARAMS w = {&ext_sem, &wp, 1};
            ASSERT_OK(cuGraphExecExternalSemaphoresWaitNodeSetParams(x, n.wait, &w));
            CUDA_EXT_SEM_SIGNAL_NODE_PARAMS s = {&ext_sem, &sp, 1};
            ASSERT_OK(cuGraphExecExternalSemaphoresSignalNodeSetParams(x, n.signal, &s));
        } else {
            CUgraphNodeParams p;
            memset(&p, 0, sizeof(p));
            p.type = CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT;
            p.extSemWait.extSemArray = &ext_sem;
            p.extSemWait.paramsArray = &wp;
            p.extSemWait.numExtSems = 1;
            ASSERT_OK(cuGraphExecNodeSetParams(x, n.wait, &p));
            memset(&p, 0, sizeof(p));
            p.type = CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL;
            p.extSemSignal.extSemArray = &ext_sem;
            p.extSemSignal.paramsArray = &sp;
            p.extSemSignal.numExtSems = 1;
            ASSERT_OK(cuGraphExecNodeSetParams(x, n.signal, &p));
        }
        CUdeviceptr in = in_ptr(), out = scratch;
        uint32_t frame = f, count = kWords;
        void *args[] = {&in, &out, &frame, &count};
        ASSERT_OK(kernel_params(args, &kp));
        ASSERT_OK(cuGraphExecKernelNodeSetParams(x, n.kernel, &kp));
    }

    CUresult kernel_params(void **args, CUDA_KERNEL_NODE_PARAMS *p)
    {
        memset(p, 0, sizeof(*p));
        p->func = func;
        p->gridDimX = kWords / 256;
        p->gridDimY = p->gridDimZ = 1;
        p->blockDimX = 256;
        p->blockDimY = p->blockDimZ = 1;
        p->kernelParams = args;
        return CUDA_SUCCESS;
    }

    // `frames` frames of x: Vulkan's part queued at most kInFlight frames ahead of CUDA's, no
    // other host waits; then every word of every frame's result as Vulkan read it back.
    void run_frames(CUgraphExec x, const FrameNodes &n, uint32_t frames)
    {
        ASSERT_EQ("", make_buffer(d, (VkDeviceSize)frames * kRegion, false, &readback));
        memset(readback.map, 0xee, (size_t)frames * kRegion);
        // Nothing has signalled yet: a timeline already ahead would have Vulkan signal it
        // backwards (undefined: lavapipe may hang), so stop here.
        uint64_t start_value = 99;
        ASSERT_EQ(VK_SUCCESS, vkGetSemaphoreCounterValue(d.device, timeline, &start_value));
        ASSERT_EQ(0u, start_value) << "the timeline moved before the first frame";
        auto start = std::chrono::steady_clock::now();
        for (uint32_t f = 0; f < frames; ++f) {
            if (f >= kInFlight) {
                ASSERT_TRUE(cuda_finished(f - kInFlight)) << "frame " << f - kInFlight << " never finished";
            }
            ASSERT_EQ(VK_SUCCESS, vulkan_frame(f, frames, VK_NULL_HANDLE)) << "frame " << f;
            set_frame(x, n, f);
            if (HasFatalFailure())
                return;
            ASSERT_OK(cuGraphLaunch(x, stream)) << "frame " << f;
        }
        VkFence fence = d.fence();
        ASSERT_EQ(VK_SUCCESS, vulkan_frame(frames, frames, fence));
        EXPECT_EQ(VK_SUCCESS, vkWaitForFences(d.device, 1, &fence, VK_TRUE, 60ull * 1000000000u));
        d.destroy(fence);
        ASSERT_OK(cuStreamSynchronize(stream));
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        printf("%u graph frames in %.3f s: %.0f frames/s\n", frames, seconds, frames / seconds);
        uint64_t v = 0;
        EXPECT_EQ(VK_SUCCESS, vkGetSemaphoreCounterValue(d.device, timeline, &v));
        EXPECT_EQ(2ull * frames, v);
        const uint32_t *got = static_cast<const uint32_t *>(readback.map);
        uint32_t bad_frames = 0;
        for (uint32_t f = 0; f < frames; ++f) {
            uint32_t wrong = 0, first = kWords;
            for (uint32_t j = 0; j < kWords; ++j)
                if (got[(size_t)f * kWords + j] != result_word(f, j)) {
                    if (!wrong++)
                        first = j;
                }
            if (wrong && ++bad_frames <= 5) {
                std::string before = f ? " (the last frame's: 0x" + to_hex32(result_word(f - 1, first)) + ")" : "";
                ADD_FAILURE() << "frame " << f << ": " << wrong << " of " << kWords << " words wrong; word " << first
                              << " is 0x" << to_hex32(got[(size_t)f * kWords + first]) << ", not 0x"
                              << to_hex32(result_word(f, first)) << before;
            }
        }
        EXPECT_EQ(0u, bad_frames) << "frames with a wrong word";
        // The shared buffer holds the last frame's input and result.
        const uint32_t *sh = static_cast<const uint32_t *>(shared.map);
        uint32_t wrong = 0;
        for (uint32_t j = 0; j < kWords; ++j)
            wrong += sh[j] != input_word(frames - 1, j) || sh[kWords + j] != result_word(frames - 1, j);
        EXPECT_EQ(0u, wrong);
    }

    Instance vk;
    Device d;
    CUstream stream = nullptr;
    CUmodule module = nullptr;
    CUfunction func = nullptr;
    VkMem shared, readback;
    CUexternalMemory ext_mem = nullptr;
    CUdeviceptr shared_ptr = 0, scratch = 0;
    VkSemaphore timeline = VK_NULL_HANDLE;
    CUexternalSemaphore ext_sem = nullptr;
    VkCommandPool pool = VK_NULL_HANDLE;
    CUDA_KERNEL_NODE_PARAMS kp = {};
};

// The node types CUDA numbers them with (cuda.h's CUgraphNodeType).
static_assert(CU_GRAPH_NODE_TYPE_KERNEL == 0 && CU_GRAPH_NODE_TYPE_MEMCPY == 1 &&
                  CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL == 8 && CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT == 9,
              "node type numbers");

CUgraphNodeType type_of(CUgraphNode n)
{
    CUgraphNodeType t = (CUgraphNodeType)-1;
    EXPECT_OK(cuGraphNodeGetType(n, &t));
    return t;
}

} // namespace

TEST_F(GraphFrame, WaitKernelCopySignal_600FramesOfOneGraph_EveryWordOfEveryFrameRight)
{
    CUgraph g = nullptr;
    ASSERT_OK(cuGraphCreate(&g, 0));
    FrameNodes n;
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = {};
    wp.params.fence.value = 1;
    CUDA_EXT_SEM_WAIT_NODE_PARAMS w = {&ext_sem, &wp, 1};
    ASSERT_OK(cuGraphAddExternalSemaphoresWaitNode(&n.wait, g, nullptr, 0, &w));
    CUdeviceptr in = in_ptr(), out = scratch;
    uint32_t frame = 0, count = kWords;
    void *args[] = {&in, &out, &frame, &count};
    ASSERT_OK(kernel_params(args, &kp));
    ASSERT_OK(cuGraphAddKernelNode(&n.kernel, g, &n.wait, 1, &kp));
    CUDA_MEMCPY3D c = {};
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = scratch;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = out_ptr();
    c.WidthInBytes = kRegion;
    c.Height = 1;
    c.Depth = 1;
    ASSERT_OK(cuGraphAddMemcpyNode(&n.copy, g, &n.kernel, 1, &c, ctx));
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = {};
    sp.params.fence.value = 2;
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS s = {&ext_sem, &sp, 1};
    ASSERT_OK(cuGraphAddExternalSemaphoresSignalNode(&n.signal, g, &n.copy, 1, &s));
    CUgraphExec x = nullptr;
    ASSERT_OK(cuGraphInstantiate(&x, g, 0));
    run_frames(x, n, 600);
    EXPECT_OK(cuGraphExecDestroy(x));
    EXPECT_OK(cuGraphDestroy(g));
}

TEST_F(GraphFrame, TheSameFrameCaptured_IsAChainOfWaitKernelCopySignal_AndRuns)
{
    ASSERT_OK(cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = {};
    wp.params.fence.value = 1;
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&ext_sem, &wp, 1, stream));
    CUdeviceptr in = in_ptr(), out = scratch;
    uint32_t frame = 0, count = kWords;
    void *args[] = {&in, &out, &frame, &count};
    ASSERT_OK(cuLaunchKernel(func, kWords / 256, 1, 1, 256, 1, 1, 0, stream, args, nullptr));
    ASSERT_OK(cuMemcpyAsync(out_ptr(), scratch, kRegion, stream));
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = {};
    sp.params.fence.value = 2;
    ASSERT_OK(cuSignalExternalSemaphoresAsync(&ext_sem, &sp, 1, stream));
    CUgraph g = nullptr;
    ASSERT_OK(cuStreamEndCapture(stream, &g));
    ASSERT_NE(nullptr, g);

    // One root, and a chain from it: wait (9) -> kernel (0) -> memcpy (1) -> signal (8).
    size_t count_nodes = 0;
    ASSERT_OK(cuGraphGetNodes(g, nullptr, &count_nodes));
    EXPECT_EQ(4u, count_nodes);
    size_t nedges = 0;
    ASSERT_OK(cuGraphGetEdges(g, nullptr, nullptr, nullptr, &nedges));
    EXPECT_EQ(3u, nedges);
    CUgraphNode chain[4] = {};
    size_t nroots = 1;
    ASSERT_OK(cuGraphGetRootNodes(g, &chain[0], &nroots));
    ASSERT_EQ(1u, nroots);
    for (int i = 1; i < 4; ++i) {
        size_t nd = 0;
        ASSERT_OK(cuGraphNodeGetDependentNodes(chain[i - 1], nullptr, nullptr, &nd));
        ASSERT_EQ(1u, nd) << "node " << i - 1 << " of the chain";
        ASSERT_OK(cuGraphNodeGetDependentNodes(chain[i - 1], &chain[i], nullptr, &nd));
    }
    size_t nd = 9;
    ASSERT_OK(cuGraphNodeGetDependentNodes(chain[3], nullptr, nullptr, &nd));
    EXPECT_EQ(0u, nd);
    const CUgraphNodeType want[4] = {CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, CU_GRAPH_NODE_TYPE_KERNEL,
                                     CU_GRAPH_NODE_TYPE_MEMCPY, CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL};
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ((int)want[i], (int)type_of(chain[i])) << "node " << i << " of the chain";

    // What capture recorded: the semaphore and its values, the kernel and its arguments, the copy.
    CUDA_EXT_SEM_WAIT_NODE_PARAMS gw = {};
    ASSERT_OK(cuGraphExternalSemaphoresWaitNodeGetParams(chain[0], &gw));
    ASSERT_EQ(1u, gw.numExtSems);
    EXPECT_EQ(ext_sem, gw.extSemArray[0]);
    EXPECT_EQ(1u, gw.paramsArray[0].params.fence.value);
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS gs = {};
    ASSERT_OK(cuGraphExternalSemaphoresSignalNodeGetParams(chain[3], &gs));
    ASSERT_EQ(1u, gs.numExtSems);
    EXPECT_EQ(ext_sem, gs.extSemArray[0]);
    EXPECT_EQ(2u, gs.paramsArray[0].params.fence.value);
    CUDA_KERNEL_NODE_PARAMS gk = {};
    ASSERT_OK(cuGraphKernelNodeGetParams(chain[1], &gk));
    EXPECT_EQ(func, gk.func);
    EXPECT_EQ(kWords / 256, gk.gridDimX);
    EXPECT_EQ(256u, gk.blockDimX);
    ASSERT_NE(nullptr, gk.kernelParams);
    EXPECT_EQ(in, *static_cast<CUdeviceptr *>(gk.kernelParams[0]));
    EXPECT_EQ(kWords, *static_cast<uint32_t *>(gk.kernelParams[3]));
    CUDA_MEMCPY3D gc = {};
    ASSERT_OK(cuGraphMemcpyNodeGetParams(chain[2], &gc));
    EXPECT_EQ(out_ptr(), gc.dstDevice);
    EXPECT_EQ(scratch, gc.srcDevice);
    EXPECT_EQ(kRegion, gc.WidthInBytes);
    // Nothing ran while capturing: Vulkan's semaphore never moved.
    uint64_t v = 99;
    EXPECT_EQ(VK_SUCCESS, vkGetSemaphoreCounterValue(d.device, timeline, &v));
    EXPECT_EQ(0u, v);

    CUgraphExec x = nullptr;
    ASSERT_OK(cuGraphInstantiate(&x, g, 0));
    FrameNodes n = {chain[0], chain[1], chain[2], chain[3]};
    run_frames(x, n, 8);
    EXPECT_OK(cuGraphExecDestroy(x));
    EXPECT_OK(cuGraphDestroy(g));
}

// ---- What the frame needs of src/graph, one thing at a time ----

// A signal node signals when a launch of its graph gets there, never before: instantiating
// the graph or uploading it moves nothing Vulkan can see.
TEST_F(GraphFrame, SignalNode_SignalsAtLaunchOnly_NotAtInstantiateOrUpload)
{
    CUgraph g = nullptr;
    ASSERT_OK(cuGraphCreate(&g, 0));
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = {};
    sp.params.fence.value = 5;
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS s = {&ext_sem, &sp, 1};
    CUgraphNode node = nullptr;
    ASSERT_OK(cuGraphAddExternalSemaphoresSignalNode(&node, g, nullptr, 0, &s));
    uint64_t v = 99;
    CUgraphExec x = nullptr;
    ASSERT_OK(cuGraphInstantiate(&x, g, 0));
    EXPECT_EQ(VK_SUCCESS, vkGetSemaphoreCounterValue(d.device, timeline, &v));
    EXPECT_EQ(0u, v) << "cuGraphInstantiate signalled the semaphore";
    // 7 from now (a value instantiation did not see, so an upload that signals shows apart).
    sp.params.fence.value = 7;
    ASSERT_OK(cuGraphExecExternalSemaphoresSignalNodeSetParams(x, node, &s));
    ASSERT_OK(cuGraphUpload(x, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    EXPECT_EQ(VK_SUCCESS, vkGetSemaphoreCounterValue(d.device, timeline, &v));
    EXPECT_NE(7u, v) << "cuGraphUpload signalled the semaphore";
    ASSERT_OK(cuGraphLaunch(x, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    EXPECT_EQ(VK_SUCCESS, vkGetSemaphoreCounterValue(d.device, timeline, &v));
    EXPECT_EQ(7u, v);
    EXPECT_OK(cuGraphExecDestroy(x));
    EXPECT_OK(cuGraphDestroy(g));
}

// A kernel node's arguments changed on the executable graph (the frame number, every frame)
// are what the next launch runs with.
TEST_F(GraphFrame, ExecKernelNodeSetParams_TheNextLaunchRunsTheNewArguments)
{
    CUgraph g = nullptr;
    ASSERT_OK(cuGraphCreate(&g, 0));
    std::vector<uint32_t> input(kWords);
    for (uint32_t j = 0; j < kWords; ++j)
        input[j] = input_word(0, j);
    ASSERT_OK(cuMemcpyHtoD(in_ptr(), input.data(), kRegion));
    CUdeviceptr in = in_ptr(), out = scratch;
    uint32_t frame = 0, count = kWords;
    void *args[] = {&in, &out, &frame, &count};
    ASSERT_OK(kernel_params(args, &kp));
    CUgraphNode node = nullptr;
    ASSERT_OK(cuGraphAddKernelNode(&node, g, nullptr, 0, &kp));
    CUgraphExec x = nullptr;
    ASSERT_OK(cuGraphInstantiate(&x, g, 0));
    frame = 7;
    ASSERT_OK(cuGraphExecKernelNodeSetParams(x, node, &kp));
    ASSERT_OK(cuGraphLaunch(x, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    std::vector<uint32_t> got(kWords);
    ASSERT_OK(cuMemcpyDtoH(got.data(), scratch, kRegion));
    uint32_t wrong = 0;
    for (uint32_t j = 0; j < kWords; ++j)
        wrong += got[j] != input[j] * 3u + 7u;
    EXPECT_EQ(0u, wrong);
    EXPECT_OK(cuGraphExecDestroy(x));
    EXPECT_OK(cuGraphDestroy(g));
}

// ---- A launch on a default stream whose graph waits for a later signal ----
// cuGraphLaunch is asynchronous on every stream: a program may launch a graph that waits for a
// semaphore and signal it afterwards from the same thread, as it may with
// cuWaitExternalSemaphoresAsync on stream 0 (docs/external-semaphores.md, "The default
// streams"). Run in a process of its own, under an alarm, so that a launch that holds its caller
// ends as a failure (128 + SIGALRM) instead of a hung test.

// args: "legacy" or "per-thread". Prints "launched" once cuGraphLaunch returned, then "done", or
// why not.
EXTMEM_CHILD_ROLE(graph_wait_on_default_stream)
{
    if (args.size() != 1)
        return 90;
    alarm(20);
    CUdevice dev;
    CUcontext c = nullptr;
    if (cuInit(0) || cuDeviceGet(&dev, 0) || cuCtxCreate(&c, nullptr, 0, dev))
        return 91;
    Instance vk;
    Device d;
    if (!vk.init().empty() || !d.init(vk).empty())
        return 92;
    VkSemaphore t = d.semaphore(true, 0, true);
    CUexternalSemaphore ext = nullptr;
    if (extmem_vk_import_semaphore(d.device, t, true, &ext))
        return 93;
    CUgraph g = nullptr;
    CUgraphNode wait = nullptr, signal = nullptr;
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = {};
    wp.params.fence.value = 1;
    CUDA_EXT_SEM_WAIT_NODE_PARAMS w = {&ext, &wp, 1};
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = {};
    sp.params.fence.value = 2;
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS s = {&ext, &sp, 1};
    CUgraphExec x = nullptr;
    if (cuGraphCreate(&g, 0) || cuGraphAddExternalSemaphoresWaitNode(&wait, g, nullptr, 0, &w) ||
        cuGraphAddExternalSemaphoresSignalNode(&signal, g, &wait, 1, &s) || cuGraphInstantiate(&x, g, 0))
        return 94;
    CUstream stream = args[0] == "legacy" ? CU_STREAM_LEGACY : CU_STREAM_PER_THREAD;
    if (cuGraphLaunch(x, stream))
        return 95;
    printf("launched\n");
    fflush(stdout);
    // The signal node has not run: its wait is still waiting.
    usleep(50 * 1000);
    uint64_t before = 99;
    if (vkGetSemaphoreCounterValue(d.device, t, &before) != VK_SUCCESS || before != 0) {
        printf("the signal node ran before its wait passed: the value is %llu\n", (unsigned long long)before);
        return 89;
    }
    VkSemaphoreSignalInfo si = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, t, 1};
    if (vkSignalSemaphore(d.device, &si) != VK_SUCCESS)
        return 96;
    if (cuStreamSynchronize(stream))
        return 97;
    uint64_t v = 0;
    if (vkGetSemaphoreCounterValue(d.device, t, &v) != VK_SUCCESS || v != 2)
        return 98;
    cuGraphExecDestroy(x);
    cuGraphDestroy(g);
    cuDestroyExternalSemaphore(ext);
    d.destroy(t);
    d.close();
    cuCtxDestroy(c);
    printf("done\n");
    return 0;
}

TEST(GraphFrameDefaultStream, LaunchOnTheLegacyStream_ReturnsBeforeItsWaitNodePasses)
{
    Child child("graph_wait_on_default_stream", {"legacy"});
    EXPECT_EQ("launched", child.read_line());
    // "" and 142 (128 + SIGALRM): cuGraphLaunch(stream 0) held its caller in the wait node.
    EXPECT_EQ("done", child.read_line());
    EXPECT_EQ(0, child.wait());
}

TEST(GraphFrameDefaultStream, LaunchOnThePerThreadStream_ReturnsBeforeItsWaitNodePasses)
{
    Child child("graph_wait_on_default_stream", {"per-thread"});
    EXPECT_EQ("launched", child.read_line());
    // "" and 142 (128 + SIGALRM): cuGraphLaunch(CU_STREAM_PER_THREAD) held its caller in the wait node.
    EXPECT_EQ("done", child.read_line());
    EXPECT_EQ(0, child.wait());
}
