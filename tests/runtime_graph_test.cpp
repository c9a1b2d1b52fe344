// The runtime's graph and stream-capture calls (issue 24) over the driver's: the runtime's
// own checks (NULL parameter blocks, kinds, symbols, node types without runtime parameters),
// the conversions (a kernel node is made from its host stub and hands the stub back, copies
// and fills keep their addresses), and graphs built by hand and by capture that run. The
// driver's answers the tests expect are NVIDIA's (docs/probes/graphs on the GPU machine:
// a NULL, destroyed or wrong-type handle is CUDA_ERROR_INVALID_VALUE there).
// tests/cuda/graphs.cu holds the same ground as a CUDA program.
#include "framework/testing.h"

#include "extmem/cuda.h"
#include "extmem/cuda_runtime_api.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

::testing::AssertionResult rt_equal(const char *, const char *call_text, cudaError_t expected, cudaError_t actual)
{
    if (expected == actual)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << call_text << " returned " << cudaGetErrorName(actual) << " ("
                                         << (int)actual << "), expected " << cudaGetErrorName(expected)
                                         << "; detail: " << extmem_error_detail();
}
#define EXPECT_RT(expected, call) EXPECT_PRED_FORMAT2(rt_equal, expected, call)
#define ASSERT_RT(expected, call) ASSERT_PRED_FORMAT2(rt_equal, expected, call)
#define EXPECT_RT_OK(call) EXPECT_RT(cudaSuccess, call)
#define ASSERT_RT_OK(call) ASSERT_RT(cudaSuccess, call)

// add(p, v, n): p[i] += v for i < n; total is a device variable.
const char kPtx[] = R"(
.version 7.0
.target sm_80
.address_size 64

.global .align 4 .u32 total = 0;

.visible .entry add(.param .u64 p, .param .u32 v, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [v];
    ld.param.u32 %r9, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.s32 %p1, %r5, %r9;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.s32 %rd3, %r5, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.u32 %r6, [%rd4];
    add.s32 %r7, %r6, %r1;
    st.global.u32 [%rd4], %r7;
DONE:
    ret;
}
)";

struct Wrapper {
    int magic;
    int version;
    const void *data;
    const void *unused;
};

// Host "stubs" and shadows: only their addresses matter to the runtime.
char stub_add;
unsigned int shadow_total;

struct Registered {
    Wrapper wrapper{0x466243b1, 1, kPtx, nullptr};
    void **handle = nullptr;
    Registered()
    {
        handle = __cudaRegisterFatBinary(&wrapper);
        __cudaRegisterFunction(handle, &stub_add, const_cast<char *>("add"), "add", -1, nullptr, nullptr, nullptr,
                               nullptr, nullptr);
        __cudaRegisterVar(handle, reinterpret_cast<char *>(&shadow_total), const_cast<char *>("total"), "total", 0,
                          sizeof(unsigned int), 0, 0);
        __cudaRegisterFatBinaryEnd(handle);
    }
    ~Registered()
    {
        if (handle)
            __cudaUnregisterFatBinary(handle);
    }
};

void *stub() { return &stub_add; }

struct Buffer {
    int *device = nullptr;
    int n;
    explicit Buffer(int count) : n(count)
    {
        EXPECT_RT_OK(cudaMalloc(reinterpret_cast<void **>(&device), n * sizeof(int)));
        EXPECT_RT_OK(cudaMemset(device, 0, n * sizeof(int)));
    }
    ~Buffer() { cudaFree(device); }
    std::vector<int> read() const
    {
        std::vector<int> h(n, -1);
        EXPECT_RT_OK(cudaMemcpy(h.data(), device, n * sizeof(int), cudaMemcpyDeviceToHost));
        return h;
    }
};

// A graph destroyed at the end of the test, whatever happened.
struct Graph {
    cudaGraph_t g = nullptr;
    Graph() { EXPECT_RT_OK(cudaGraphCreate(&g, 0)); }
    ~Graph()
    {
        if (g)
            cudaGraphDestroy(g);
    }
};

struct Exec {
    cudaGraphExec_t x = nullptr;
    ~Exec()
    {
        if (x)
            cudaGraphExecDestroy(x);
    }
};

struct KernelArgs {
    int *p;
    int v;
    int n;
    void *args[3];
    KernelArgs(int *dp, int value, int count) : p(dp), v(value), n(count) { args[0] = &p, args[1] = &v, args[2] = &n; }
    cudaKernelNodeParams params(unsigned int blocks = 1, unsigned int threads = 64)
    {
        cudaKernelNodeParams k;
        std::memset(static_cast<void *>(&k), 0, sizeof k);
        k.func = stub();
        k.gridDim = dim3(blocks);
        k.blockDim = dim3(threads);
        k.kernelParams = args;
        return k;
    }
};

const cudaGraph_t kForgedGraph = reinterpret_cast<cudaGraph_t>(uintptr_t(0xdead0000));
const cudaGraphNode_t kForgedNode = reinterpret_cast<cudaGraphNode_t>(uintptr_t(0xdead0100));

size_t node_count(cudaGraph_t g)
{
    size_t n = 0;
    EXPECT_RT_OK(cudaGraphGetNodes(g, nullptr, &n));
    return n;
}

std::vector<int> node_types(cudaGraph_t g)
{
    size_t n = node_count(g);
    std::vector<cudaGraphNode_t> nodes(n);
    std::vector<int> types;
    EXPECT_RT_OK(cudaGraphGetNodes(g, nodes.data(), &n));
    for (cudaGraphNode_t node : nodes) {
        cudaGraphNodeType t = cudaGraphNodeTypeCount;
        EXPECT_RT_OK(cudaGraphNodeGetType(node, &t));
        types.push_back((int)t);
    }
    return types;
}

} // namespace

// ---- What the runtime decides before the driver is asked ----

TEST(RuntimeGraph, AddKernelNode_NullParameters_IsInvalidValue)
{
    cudaGraphNode_t node = nullptr;
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphAddKernelNode(&node, kForgedGraph, nullptr, 0, nullptr));
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
    EXPECT_EQ(node, nullptr);
}

TEST(RuntimeGraph, AddKernelNode_FunctionThatIsNoKernel_IsInvalidResourceHandleNamingIt)
{
    int not_a_stub = 0;
    cudaKernelNodeParams k;
    std::memset(static_cast<void *>(&k), 0, sizeof k);
    k.func = &not_a_stub;
    k.gridDim = dim3(1);
    k.blockDim = dim3(1);
    cudaGraphNode_t node = nullptr;
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaGraphAddKernelNode(&node, kForgedGraph, nullptr, 0, &k));
    EXPECT_NE(std::string(extmem_error_detail()).find("is not a kernel"), std::string::npos) << extmem_error_detail();
    k.func = nullptr;
    EXPECT_RT(cudaErrorInvalidDeviceFunction, cudaGraphAddKernelNode(&node, kForgedGraph, nullptr, 0, &k));
}

TEST(RuntimeGraph, AddNode_TypeWithoutRuntimeParameters_IsInvalidValue)
{
    cudaGraphNodeParams p = {};
    std::memset(static_cast<void *>(&p), 0, sizeof p);
    cudaGraphNode_t node = nullptr;
    p.type = (cudaGraphNodeType)12; // the driver's batch memory operations: no runtime form
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphAddNode(&node, kForgedGraph, nullptr, nullptr, 0, &p));
    p.type = (cudaGraphNodeType)99;
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphAddNode(&node, kForgedGraph, nullptr, nullptr, 0, &p));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphAddNode(&node, kForgedGraph, nullptr, nullptr, 0, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphNodeSetParams(kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphExecNodeSetParams(nullptr, kForgedNode, nullptr));
}

TEST(RuntimeGraph, AddNode_MemcpyWithReservedWordsSet_IsInvalidValue)
{
    Buffer b(16);
    cudaGraphNodeParams p = {};
    std::memset(static_cast<void *>(&p), 0, sizeof p);
    p.type = cudaGraphNodeTypeMemcpy;
    p.memcpy.reserved[2] = 1;
    p.memcpy.copyParams.srcPtr = {b.device, 64, 64, 1};
    p.memcpy.copyParams.dstPtr = {b.device + 8, 64, 64, 1};
    p.memcpy.copyParams.extent = {32, 1, 1};
    p.memcpy.copyParams.kind = cudaMemcpyDeviceToDevice;
    cudaGraphNode_t node = nullptr;
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphAddNode(&node, kForgedGraph, nullptr, nullptr, 0, &p));
}

TEST(RuntimeGraph, MemcpyNodes_KindThatIsNone_IsInvalidMemcpyDirection)
{
    Buffer b(16);
    cudaGraphNode_t node = nullptr;
    EXPECT_RT(cudaErrorInvalidMemcpyDirection, cudaGraphAddMemcpyNode1D(&node, kForgedGraph, nullptr, 0, b.device,
                                                                         b.device + 8, 16, (cudaMemcpyKind)7));
    EXPECT_RT(cudaErrorInvalidMemcpyDirection,
              cudaGraphMemcpyNodeSetParams1D(kForgedNode, b.device, b.device + 8, 16, (cudaMemcpyKind)9));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphAddMemcpyNode(&node, kForgedGraph, nullptr, 0, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphMemcpyNodeSetParams(kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphExecMemcpyNodeSetParams(nullptr, kForgedNode, nullptr));
}

TEST(RuntimeGraph, SymbolCopyNodes_CheckTheSymbolTheKindAndTheRange)
{
    Registered reg;
    unsigned int host = 0;
    int not_a_variable = 0;
    cudaGraphNode_t node = nullptr;
    EXPECT_RT(cudaErrorInvalidSymbol, cudaGraphAddMemcpyNodeToSymbol(&node, kForgedGraph, nullptr, 0, &not_a_variable,
                                                                       &host, 4, 0, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidMemcpyDirection, cudaGraphAddMemcpyNodeToSymbol(&node, kForgedGraph, nullptr, 0,
                                                                                &shadow_total, &host, 4, 0,
                                                                                cudaMemcpyDeviceToHost));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphAddMemcpyNodeToSymbol(&node, kForgedGraph, nullptr, 0, &shadow_total,
                                                                      &host, 4, 4, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidMemcpyDirection, cudaGraphAddMemcpyNodeFromSymbol(&node, kForgedGraph, nullptr, 0,
                                                                                  &host, &shadow_total, 4, 0,
                                                                                  cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidSymbol,
              cudaGraphMemcpyNodeSetParamsFromSymbol(kForgedNode, &host, nullptr, 4, 0, cudaMemcpyDeviceToHost));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphExecMemcpyNodeSetParamsToSymbol(nullptr, kForgedNode, &shadow_total,
                                                                                &host, 8, 0, cudaMemcpyHostToDevice));
}

TEST(RuntimeGraph, GettersAndSetters_NullParameterBlocks_AreInvalidValue)
{
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphKernelNodeGetParams(kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphKernelNodeSetParams(kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphExecKernelNodeSetParams(nullptr, kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphMemcpyNodeGetParams(kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphMemsetNodeGetParams(kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphMemsetNodeSetParams(kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphAddMemsetNode(nullptr, kForgedGraph, nullptr, 0, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphExecMemsetNodeSetParams(nullptr, kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphHostNodeGetParams(kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphHostNodeSetParams(kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphAddHostNode(nullptr, kForgedGraph, nullptr, 0, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphExecHostNodeSetParams(nullptr, kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphMemAllocNodeGetParams(kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphAddMemAllocNode(nullptr, kForgedGraph, nullptr, 0, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphMemFreeNodeGetParams(kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphExternalSemaphoresSignalNodeGetParams(kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphExternalSemaphoresWaitNodeSetParams(kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphNodeGetType(kForgedNode, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphInstantiateWithParams(nullptr, kForgedGraph, nullptr));
}

TEST(RuntimeGraph, CaptureInfoAndModeExchange_NullOutputs_AreInvalidValue)
{
    EXPECT_RT(cudaErrorInvalidValue, cudaStreamGetCaptureInfo(nullptr, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaStreamGetCaptureInfo_ptsz(nullptr, nullptr, nullptr, nullptr, nullptr,
                                                                     nullptr, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaThreadExchangeStreamCaptureMode(nullptr));
}

TEST(RuntimeGraph, GraphMemoryCalls_DeviceOutOfRange_IsInvalidDevice)
{
    unsigned long long v = 0;
    EXPECT_RT(cudaErrorInvalidDevice, cudaDeviceGetGraphMemAttribute(99, cudaGraphMemAttrUsedMemCurrent, &v));
    EXPECT_RT(cudaErrorInvalidDevice, cudaDeviceSetGraphMemAttribute(-1, cudaGraphMemAttrUsedMemHigh, &v));
    EXPECT_RT(cudaErrorInvalidDevice, cudaDeviceGraphMemTrim(99));
}

// ---- Over the driver ----

TEST(RuntimeGraph, KernelNode_GetParams_GivesBackTheHostStubAndTheShape)
{
    Registered reg;
    Buffer b(64);
    Graph g;
    KernelArgs a(b.device, 3, 64);
    cudaKernelNodeParams k = a.params(2, 32);
    k.sharedMemBytes = 16;
    cudaGraphNode_t node = nullptr;
    ASSERT_RT_OK(cudaGraphAddKernelNode(&node, g.g, nullptr, 0, &k));
    cudaKernelNodeParams got;
    std::memset(static_cast<void *>(&got), 0xab, sizeof got);
    ASSERT_RT_OK(cudaGraphKernelNodeGetParams(node, &got));
    EXPECT_EQ(got.func, stub());
    EXPECT_EQ(got.gridDim.x, 2u);
    EXPECT_EQ(got.gridDim.y, 1u);
    EXPECT_EQ(got.blockDim.x, 32u);
    EXPECT_EQ(got.blockDim.z, 1u);
    EXPECT_EQ(got.sharedMemBytes, 16u);
    ASSERT_NE(got.kernelParams, nullptr);
    EXPECT_EQ(*static_cast<int **>(got.kernelParams[0]), b.device);
    EXPECT_EQ(*static_cast<int *>(got.kernelParams[1]), 3);

    cudaGraphNodeType t = cudaGraphNodeTypeCount;
    ASSERT_RT_OK(cudaGraphNodeGetType(node, &t));
    EXPECT_EQ(t, cudaGraphNodeTypeKernel);
}

TEST(RuntimeGraph, KernelNode_ReadBackAfterTheKernelRanInAnotherContext_IsStillTheStub)
{
    Registered reg;
    Buffer b(64);
    Graph g;
    KernelArgs a(b.device, 1, 64);
    cudaKernelNodeParams k = a.params();
    cudaGraphNode_t node = nullptr;
    ASSERT_RT_OK(cudaGraphAddKernelNode(&node, g.g, nullptr, 0, &k));
    CUcontext primary = nullptr, own = nullptr;
    ASSERT_EQ(cuCtxGetCurrent(&primary), CUDA_SUCCESS);
    ASSERT_EQ(cuCtxCreate(&own, nullptr, 0, 0), CUDA_SUCCESS); // current now: the kernel resolves anew there
    EXPECT_RT_OK(cudaLaunchKernel(stub(), dim3(1), dim3(64), a.args, 0, nullptr));
    EXPECT_RT_OK(cudaDeviceSynchronize());
    ASSERT_EQ(cuCtxSetCurrent(primary), CUDA_SUCCESS);
    cudaKernelNodeParams got;
    EXPECT_RT_OK(cudaGraphKernelNodeGetParams(node, &got));
    EXPECT_EQ(got.func, stub());
    EXPECT_EQ(cuCtxDestroy(own), CUDA_SUCCESS);
}

TEST(RuntimeGraph, KernelNode_SetParams_IsWhatTheNextGetAndLaunchSee)
{
    Registered reg;
    Buffer b(64);
    Graph g;
    KernelArgs a(b.device, 1, 64);
    cudaKernelNodeParams k = a.params();
    cudaGraphNode_t node = nullptr;
    ASSERT_RT_OK(cudaGraphAddKernelNode(&node, g.g, nullptr, 0, &k));
    KernelArgs a2(b.device, 5, 32);
    cudaKernelNodeParams k2 = a2.params(1, 32);
    ASSERT_RT_OK(cudaGraphKernelNodeSetParams(node, &k2));
    cudaKernelNodeParams got;
    ASSERT_RT_OK(cudaGraphKernelNodeGetParams(node, &got));
    EXPECT_EQ(got.func, stub());
    EXPECT_EQ(got.blockDim.x, 32u);
    Exec x;
    ASSERT_RT_OK(cudaGraphInstantiate(&x.x, g.g, 0));
    ASSERT_RT_OK(cudaGraphLaunch(x.x, nullptr));
    ASSERT_RT_OK(cudaStreamSynchronize(nullptr));
    std::vector<int> h = b.read();
    EXPECT_EQ(h[0], 5);
    EXPECT_EQ(h[31], 5);
    EXPECT_EQ(h[32], 0);
}

TEST(RuntimeGraph, GenericKernelNode_AddNodeAndNodeSetParams_RoundTripTheStub)
{
    Registered reg;
    Buffer b(64);
    Graph g;
    KernelArgs a(b.device, 2, 64);
    cudaGraphNodeParams p = {};
    std::memset(static_cast<void *>(&p), 0, sizeof p);
    p.type = cudaGraphNodeTypeKernel;
    p.kernel.func = stub();
    p.kernel.gridDim = dim3(1);
    p.kernel.blockDim = dim3(64);
    p.kernel.kernelParams = a.args;
    cudaGraphNode_t node = nullptr;
    ASSERT_RT_OK(cudaGraphAddNode(&node, g.g, nullptr, nullptr, 0, &p));
    p.kernel.blockDim = dim3(16);
    ASSERT_RT_OK(cudaGraphNodeSetParams(node, &p));
    cudaKernelNodeParams got;
    ASSERT_RT_OK(cudaGraphKernelNodeGetParams(node, &got));
    EXPECT_EQ(got.func, stub());
    EXPECT_EQ(got.blockDim.x, 16u);
}

TEST(RuntimeGraph, GettersOnANodeOfAnotherType_AreInvalidValue)
{
    Buffer b(16);
    Graph g;
    cudaMemsetParams m;
    std::memset(static_cast<void *>(&m), 0, sizeof m);
    m.dst = b.device;
    m.value = 7;
    m.elementSize = 4;
    m.width = 16;
    m.height = 1;
    cudaGraphNode_t memset_node = nullptr, empty = nullptr;
    ASSERT_RT_OK(cudaGraphAddMemsetNode(&memset_node, g.g, nullptr, 0, &m));
    ASSERT_RT_OK(cudaGraphAddEmptyNode(&empty, g.g, nullptr, 0));
    cudaKernelNodeParams k;
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphKernelNodeGetParams(memset_node, &k));
    cudaMemcpy3DParms c;
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphMemcpyNodeGetParams(memset_node, &c));
    cudaHostNodeParams h;
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphHostNodeGetParams(empty, &h));
    cudaGraph_t child = nullptr;
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphChildGraphNodeGetGraph(empty, &child));
    void *freed = nullptr;
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphMemFreeNodeGetParams(empty, &freed));
}

TEST(RuntimeGraph, MemsetAndCopyNodes_GetParams_GiveThePointersBack)
{
    Buffer b(64);
    Graph g;
    cudaMemsetParams m;
    std::memset(static_cast<void *>(&m), 0, sizeof m);
    m.dst = b.device;
    m.value = 9;
    m.elementSize = 4;
    m.width = 32;
    m.height = 1;
    cudaGraphNode_t set = nullptr, copy = nullptr;
    ASSERT_RT_OK(cudaGraphAddMemsetNode(&set, g.g, nullptr, 0, &m));
    ASSERT_RT_OK(cudaGraphAddMemcpyNode1D(&copy, g.g, &set, 1, b.device + 32, b.device, 32 * sizeof(int),
                                          cudaMemcpyDeviceToDevice));
    cudaMemsetParams mg;
    ASSERT_RT_OK(cudaGraphMemsetNodeGetParams(set, &mg));
    EXPECT_EQ(mg.dst, b.device);
    EXPECT_EQ(mg.value, 9u);
    EXPECT_EQ(mg.width, 32u);
    cudaMemcpy3DParms cg;
    ASSERT_RT_OK(cudaGraphMemcpyNodeGetParams(copy, &cg));
    EXPECT_EQ(cg.srcPtr.ptr, b.device);
    EXPECT_EQ(cg.dstPtr.ptr, b.device + 32);
    EXPECT_EQ(cg.extent.width, 32 * sizeof(int));
    EXPECT_EQ(cg.extent.height, 1u);
    EXPECT_EQ(cg.extent.depth, 1u);
    EXPECT_EQ(cg.srcArray, nullptr);
    EXPECT_EQ(cg.kind, cudaMemcpyDeviceToDevice);
    // A 1D node reads back with pitch, xsize and ysize 0 (NVIDIA's runtime, H200, CUDA 13.0).
    EXPECT_EQ(cg.srcPtr.pitch, 0u);
    EXPECT_EQ(cg.srcPtr.xsize, 0u);
    EXPECT_EQ(cg.dstPtr.ysize, 0u);

    Exec x;
    ASSERT_RT_OK(cudaGraphInstantiate(&x.x, g.g, 0));
    ASSERT_RT_OK(cudaGraphLaunch(x.x, nullptr));
    ASSERT_RT_OK(cudaDeviceSynchronize());
    std::vector<int> h = b.read();
    EXPECT_EQ(h[0], 9);
    EXPECT_EQ(h[63], 9);
}

static void CUDART_CB count_call(void *p) { ++*static_cast<int *>(p); }

TEST(RuntimeGraph, HostNode_RunsOncePerLaunchAndReadsBack)
{
    Graph g;
    int calls = 0;
    cudaHostNodeParams hp = {count_call, &calls};
    cudaGraphNode_t node = nullptr;
    ASSERT_RT_OK(cudaGraphAddHostNode(&node, g.g, nullptr, 0, &hp));
    cudaHostNodeParams got = {nullptr, nullptr};
    ASSERT_RT_OK(cudaGraphHostNodeGetParams(node, &got));
    EXPECT_EQ(got.fn, &count_call);
    EXPECT_EQ(got.userData, &calls);
    Exec x;
    ASSERT_RT_OK(cudaGraphInstantiateWithFlags(&x.x, g.g, 0));
    for (int i = 0; i < 3; ++i)
        ASSERT_RT_OK(cudaGraphLaunch(x.x, nullptr));
    ASSERT_RT_OK(cudaDeviceSynchronize());
    EXPECT_EQ(calls, 3);
}

TEST(RuntimeGraph, SymbolCopyNodes_WriteAndReadTheVariable)
{
    Registered reg;
    Graph g;
    unsigned int in = 41, out = 0;
    cudaGraphNode_t to = nullptr, from = nullptr;
    ASSERT_RT_OK(cudaGraphAddMemcpyNodeToSymbol(&to, g.g, nullptr, 0, &shadow_total, &in, sizeof in, 0,
                                                cudaMemcpyHostToDevice));
    ASSERT_RT_OK(cudaGraphAddMemcpyNodeFromSymbol(&from, g.g, &to, 1, &out, &shadow_total, sizeof out, 0,
                                                  cudaMemcpyDeviceToHost));
    Exec x;
    ASSERT_RT_OK(cudaGraphInstantiate(&x.x, g.g, 0));
    ASSERT_RT_OK(cudaGraphLaunch(x.x, nullptr));
    ASSERT_RT_OK(cudaDeviceSynchronize());
    EXPECT_EQ(out, 41u);
    in = 42;
    ASSERT_RT_OK(cudaGraphExecMemcpyNodeSetParamsToSymbol(x.x, to, &shadow_total, &in, sizeof in, 0,
                                                          cudaMemcpyHostToDevice));
    ASSERT_RT_OK(cudaGraphLaunch(x.x, nullptr));
    ASSERT_RT_OK(cudaDeviceSynchronize());
    EXPECT_EQ(out, 42u);
}

TEST(RuntimeGraph, ExecUpdate_ChangedArgumentIsTakenAndAddedNodeIsTopologyChanged)
{
    Registered reg;
    Buffer b(64);
    Graph g;
    KernelArgs a(b.device, 1, 64);
    cudaKernelNodeParams k = a.params();
    cudaGraphNode_t node = nullptr;
    ASSERT_RT_OK(cudaGraphAddKernelNode(&node, g.g, nullptr, 0, &k));
    Exec x;
    ASSERT_RT_OK(cudaGraphInstantiate(&x.x, g.g, 0));

    a.v = 10;
    ASSERT_RT_OK(cudaGraphKernelNodeSetParams(node, &k));
    cudaGraphExecUpdateResultInfo info;
    std::memset(static_cast<void *>(&info), 0xff, sizeof info);
    ASSERT_RT_OK(cudaGraphExecUpdate(x.x, g.g, &info));
    EXPECT_EQ(info.result, cudaGraphExecUpdateSuccess);
    ASSERT_RT_OK(cudaGraphLaunch(x.x, nullptr));
    ASSERT_RT_OK(cudaDeviceSynchronize());
    EXPECT_EQ(b.read()[0], 10);

    cudaGraphNode_t extra = nullptr;
    ASSERT_RT_OK(cudaGraphAddEmptyNode(&extra, g.g, &node, 1));
    EXPECT_RT(cudaErrorGraphExecUpdateFailure, cudaGraphExecUpdate(x.x, g.g, &info));
    EXPECT_EQ(info.result, cudaGraphExecUpdateErrorTopologyChanged);
    // NULL result info: the update is still judged (NVIDIA's driver, docs/probes/graphs B7).
    EXPECT_RT(cudaErrorGraphExecUpdateFailure, cudaGraphExecUpdate(x.x, g.g, nullptr));
}

TEST(RuntimeGraph, ExecKernelNodeSetParams_ChangesTheNextLaunchOnly)
{
    Registered reg;
    Buffer b(64);
    Graph g;
    KernelArgs a(b.device, 1, 64);
    cudaKernelNodeParams k = a.params();
    cudaGraphNode_t node = nullptr;
    ASSERT_RT_OK(cudaGraphAddKernelNode(&node, g.g, nullptr, 0, &k));
    Exec x;
    ASSERT_RT_OK(cudaGraphInstantiate(&x.x, g.g, 0));
    KernelArgs a2(b.device, 100, 64);
    cudaKernelNodeParams k2 = a2.params();
    ASSERT_RT_OK(cudaGraphExecKernelNodeSetParams(x.x, node, &k2));
    ASSERT_RT_OK(cudaGraphLaunch(x.x, nullptr));
    ASSERT_RT_OK(cudaDeviceSynchronize());
    EXPECT_EQ(b.read()[5], 100);
    cudaKernelNodeParams got;
    ASSERT_RT_OK(cudaGraphKernelNodeGetParams(node, &got)); // the graph's node is unchanged
    EXPECT_EQ(*static_cast<int *>(got.kernelParams[1]), 1);
}

TEST(RuntimeGraph, NullDestroyedAndForgedHandles_AreInvalidValue)
{
    cudaGraph_t g = nullptr;
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphCreate(nullptr, 0));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphCreate(&g, 1));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphDestroy(nullptr));
    size_t n = 0;
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphGetNodes(nullptr, nullptr, &n));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphLaunch(nullptr, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphExecDestroy(nullptr));
    cudaGraphNodeType t;
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphNodeGetType(nullptr, &t));

    ASSERT_RT_OK(cudaGraphCreate(&g, 0));
    cudaGraphExec_t x = nullptr;
    ASSERT_RT_OK(cudaGraphInstantiate(&x, g, 0));
    ASSERT_RT_OK(cudaGraphExecDestroy(x));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphLaunch(x, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphExecDestroy(x));
    ASSERT_RT_OK(cudaGraphDestroy(g));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphDestroy(g));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphDestroy(kForgedGraph));
    cudaKernelNodeParams k;
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphKernelNodeGetParams(kForgedNode, &k));
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphNodeGetType(kForgedNode, &t));
    cudaGraphNode_t empty = nullptr;
    EXPECT_RT(cudaErrorInvalidValue, cudaGraphAddEmptyNode(&empty, kForgedGraph, nullptr, 0));
    EXPECT_RT(cudaErrorInvalidValue,
              cudaGraphLaunch(reinterpret_cast<cudaGraphExec_t>(uintptr_t(0xdead0200)), nullptr));
}

TEST(RuntimeGraph, ChildGraphNode_HoldsACopyOfTheGraph)
{
    Graph child, parent;
    cudaGraphNode_t e1 = nullptr, e2 = nullptr, node = nullptr;
    ASSERT_RT_OK(cudaGraphAddEmptyNode(&e1, child.g, nullptr, 0));
    ASSERT_RT_OK(cudaGraphAddEmptyNode(&e2, child.g, &e1, 1));
    ASSERT_RT_OK(cudaGraphAddChildGraphNode(&node, parent.g, nullptr, 0, child.g));
    cudaGraph_t held = nullptr;
    ASSERT_RT_OK(cudaGraphChildGraphNodeGetGraph(node, &held));
    EXPECT_NE(held, child.g);
    EXPECT_EQ(node_count(held), 2u);
    EXPECT_EQ(node_types(parent.g), std::vector<int>{cudaGraphNodeTypeGraph});
}

TEST(RuntimeGraph, Capture_KernelAndFill_BecomeNodesWithTheStubKept)
{
    Registered reg;
    Buffer b(64);
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    KernelArgs a(b.device, 4, 64);
    ASSERT_RT_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    ASSERT_RT_OK(cudaStreamIsCapturing(s, &status));
    EXPECT_EQ(status, cudaStreamCaptureStatusActive);
    ASSERT_RT_OK(cudaMemsetAsync(b.device, 0, 64 * sizeof(int), s));
    ASSERT_RT_OK(cudaLaunchKernel(stub(), dim3(1), dim3(64), a.args, 0, s));
    unsigned long long id = 0;
    cudaGraph_t capturing = nullptr;
    const cudaGraphNode_t *deps = nullptr;
    const cudaGraphEdgeData *edges = nullptr;
    size_t ndeps = 0;
    ASSERT_RT_OK(cudaStreamGetCaptureInfo(s, &status, &id, &capturing, &deps, &edges, &ndeps));
    EXPECT_EQ(status, cudaStreamCaptureStatusActive);
    EXPECT_NE(capturing, nullptr);
    EXPECT_EQ(ndeps, 1u);
    cudaGraph_t g = nullptr;
    ASSERT_RT_OK(cudaStreamEndCapture(s, &g));
    EXPECT_EQ(node_types(g), (std::vector<int>{cudaGraphNodeTypeMemset, cudaGraphNodeTypeKernel}));
    size_t n = 2;
    cudaGraphNode_t nodes[2];
    ASSERT_RT_OK(cudaGraphGetNodes(g, nodes, &n));
    cudaKernelNodeParams got;
    ASSERT_RT_OK(cudaGraphKernelNodeGetParams(nodes[1], &got));
    EXPECT_EQ(got.func, stub());
    Exec x;
    ASSERT_RT_OK(cudaGraphInstantiate(&x.x, g, 0));
    for (int i = 0; i < 3; ++i)
        ASSERT_RT_OK(cudaGraphLaunch(x.x, s));
    ASSERT_RT_OK(cudaStreamSynchronize(s));
    EXPECT_EQ(b.read()[63], 4); // the fill resets each launch
    ASSERT_RT_OK(cudaGraphDestroy(g));
    ASSERT_RT_OK(cudaStreamDestroy(s));
}

TEST(RuntimeGraph, Capture_LegacyStream_IsStreamCaptureUnsupported)
{
    EXPECT_RT(cudaErrorStreamCaptureUnsupported, cudaStreamBeginCapture(nullptr, cudaStreamCaptureModeGlobal));
    EXPECT_EQ(cudaGetLastError(), cudaErrorStreamCaptureUnsupported);
    EXPECT_RT(cudaErrorStreamCaptureUnsupported,
              cudaStreamBeginCapture(cudaStreamLegacy, cudaStreamCaptureModeRelaxed));
}

TEST(RuntimeGraph, PtszForms_NullIsThePerThreadStream)
{
    ASSERT_RT_OK(cudaStreamBeginCapture_ptsz(nullptr, cudaStreamCaptureModeThreadLocal));
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    ASSERT_RT_OK(cudaStreamIsCapturing(cudaStreamPerThread, &status));
    EXPECT_EQ(status, cudaStreamCaptureStatusActive);
    ASSERT_RT_OK(cudaStreamGetCaptureInfo_ptsz(nullptr, &status, nullptr, nullptr, nullptr, nullptr, nullptr));
    EXPECT_EQ(status, cudaStreamCaptureStatusActive);
    cudaGraph_t g = nullptr;
    ASSERT_RT_OK(cudaStreamEndCapture_ptsz(nullptr, &g));
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(node_count(g), 0u);
    Exec x;
    ASSERT_RT_OK(cudaGraphInstantiate(&x.x, g, 0));
    ASSERT_RT_OK(cudaGraphLaunch_ptsz(x.x, nullptr));
    ASSERT_RT_OK(cudaGraphUpload_ptsz(x.x, nullptr));
    ASSERT_RT_OK(cudaStreamSynchronize(cudaStreamPerThread));
    ASSERT_RT_OK(cudaGraphDestroy(g));
}

TEST(RuntimeGraph, ThreadExchangeStreamCaptureMode_SwapsAndRestores)
{
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    ASSERT_RT_OK(cudaThreadExchangeStreamCaptureMode(&mode));
    EXPECT_EQ(mode, cudaStreamCaptureModeGlobal); // a thread starts in global mode
    ASSERT_RT_OK(cudaThreadExchangeStreamCaptureMode(&mode));
    EXPECT_EQ(mode, cudaStreamCaptureModeRelaxed);
}

TEST(RuntimeGraph, CapturedMallocAsyncAndFreeAsync_AreAllocAndFreeNodes)
{
    Registered reg;
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    ASSERT_RT_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    int *p = nullptr;
    ASSERT_RT_OK(cudaMallocAsync(reinterpret_cast<void **>(&p), 64 * sizeof(int), s));
    ASSERT_NE(p, nullptr);
    KernelArgs a(p, 1, 64);
    ASSERT_RT_OK(cudaMemsetAsync(p, 0, 64 * sizeof(int), s));
    ASSERT_RT_OK(cudaLaunchKernel(stub(), dim3(1), dim3(64), a.args, 0, s));
    ASSERT_RT_OK(cudaFreeAsync(p, s));
    cudaGraph_t g = nullptr;
    ASSERT_RT_OK(cudaStreamEndCapture(s, &g));
    EXPECT_EQ(node_types(g), (std::vector<int>{cudaGraphNodeTypeMemAlloc, cudaGraphNodeTypeMemset,
                                               cudaGraphNodeTypeKernel, cudaGraphNodeTypeMemFree}));
    size_t n = 4;
    cudaGraphNode_t nodes[4];
    ASSERT_RT_OK(cudaGraphGetNodes(g, nodes, &n));
    cudaMemAllocNodeParams ap;
    ASSERT_RT_OK(cudaGraphMemAllocNodeGetParams(nodes[0], &ap));
    EXPECT_EQ(ap.dptr, p);
    EXPECT_EQ(ap.bytesize, 64 * sizeof(int));
    void *freed = nullptr;
    ASSERT_RT_OK(cudaGraphMemFreeNodeGetParams(nodes[3], &freed));
    EXPECT_EQ(freed, p);
    Exec x;
    ASSERT_RT_OK(cudaGraphInstantiate(&x.x, g, 0));
    ASSERT_RT_OK(cudaGraphLaunch(x.x, s));
    ASSERT_RT_OK(cudaGraphLaunch(x.x, s));
    ASSERT_RT_OK(cudaStreamSynchronize(s));
    unsigned long long used_high = 0;
    ASSERT_RT_OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &used_high));
    EXPECT_GE(used_high, 64 * sizeof(int));
    ASSERT_RT_OK(cudaGraphDestroy(g));
    ASSERT_RT_OK(cudaStreamDestroy(s));
}

static void CUDART_CB note_destroyed(void *p) { static_cast<std::atomic<int> *>(p)->fetch_add(1); }

TEST(RuntimeGraph, UserObject_LastReleaseRunsTheDestructor)
{
    static std::atomic<int> destroyed{0};
    destroyed = 0;
    cudaUserObject_t o = nullptr;
    EXPECT_RT(cudaErrorInvalidValue, cudaUserObjectCreate(&o, &destroyed, note_destroyed, 1, 0));
    ASSERT_RT_OK(cudaUserObjectCreate(&o, &destroyed, note_destroyed, 2, cudaUserObjectNoDestructorSync));
    Graph g;
    ASSERT_RT_OK(cudaGraphRetainUserObject(g.g, o, 1, cudaGraphUserObjectMove));
    ASSERT_RT_OK(cudaUserObjectRelease(o, 1));
    EXPECT_EQ(destroyed.load(), 0);
    ASSERT_RT_OK(cudaGraphDestroy(g.g));
    g.g = nullptr;
    // No destructor synchronisation: it runs when the last reference goes, possibly on a
    // driver thread (NVIDIA's ran it within 50 ms, docs/probes/graphs B11).
    for (int i = 0; i < 2000 && destroyed.load() == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_EQ(destroyed.load(), 1);
}
