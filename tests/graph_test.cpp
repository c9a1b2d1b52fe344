// Graphs and stream capture (src/graph; docs/graphs.md). The codes are those NVIDIA's driver gave
// in docs/probes/graphs/graph_probe.out.
#include "framework/testing.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <cstdio>
#include <string>
#include <cstring>
#include <vector>

using namespace extmem_test;

namespace {

const char *kPtx = R"(
.version 7.5
.target sm_75
.address_size 64
.visible .entry add_value(.param .u64 out, .param .u32 value, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [value];
    ld.param.u32 %r2, [n];
    mov.u32 %r3, %tid.x;
    mov.u32 %r4, %ctaid.x;
    mov.u32 %r5, %ntid.x;
    mad.lo.s32 %r6, %r4, %r5, %r3;
    setp.ge.s32 %p1, %r6, %r2;
    @%p1 bra DONE;
    mul.wide.s32 %rd2, %r6, 4;
    add.s64 %rd3, %rd1, %rd2;
    ld.global.u32 %r7, [%rd3];
    add.s32 %r7, %r7, %r1;
    st.global.u32 [%rd3], %r7;
DONE:
    ret;
}
.extern .func cudaGraphSetConditional(.param .b64 h, .param .b32 v);
.visible .entry count_down(.param .u64 handle, .param .u64 counter)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [handle];
    ld.param.u64 %rd2, [counter];
    ld.global.u32 %r1, [%rd2];
    sub.s32 %r1, %r1, 1;
    st.global.u32 [%rd2], %r1;
    setp.ne.s32 %p1, %r1, 0;
    selp.u32 %r2, 1, 0, %p1;
    {
        .param .b64 a0;
        .param .b32 a1;
        st.param.b64 [a0], %rd1;
        st.param.b32 [a1], %r2;
        call.uni cudaGraphSetConditional, (a0, a1);
    }
    ret;
}
)";

class Graph : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        ASSERT_OK(cuMemAlloc(&mem, 4096));
        ASSERT_OK(cuMemsetD8(mem, 0, 4096));
        ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
        ASSERT_OK(cuGraphCreate(&g, 0));
    }
    void TearDown() override
    {
        if (g)
            cuGraphDestroy(g);
        cuStreamDestroy(s);
        cuMemFree(mem);
        ContextTest::TearDown();
    }
    std::vector<unsigned char> read(size_t n)
    {
        std::vector<unsigned char> v(n);
        EXPECT_OK(cuMemcpyDtoH(v.data(), mem, n));
        return v;
    }
    CUgraphNode memset_node(unsigned char value, size_t offset, size_t n, const CUgraphNode *deps = nullptr,
                            size_t ndeps = 0)
    {
        CUDA_MEMSET_NODE_PARAMS p = {};
        p.dst = mem + offset;
        p.value = value;
        p.elementSize = 1;
        p.width = n;
        p.height = 1;
        CUgraphNode node = nullptr;
        EXPECT_OK(cuGraphAddMemsetNode(&node, g, deps, ndeps, &p, ctx));
        return node;
    }
    CUdeviceptr mem = 0;
    CUstream s = nullptr;
    CUgraph g = nullptr;
};

std::atomic<int> host_calls;
void CUDA_CB count_call(void *arg)
{
    host_calls++;
    if (arg)
        static_cast<std::vector<int> *>(arg)->push_back(host_calls.load());
}

TEST_F(Graph, MemsetCopyAndHostNodes_RunInDependencyOrderAtEachLaunch)
{
    CUgraphNode set = memset_node(7, 0, 64);
    CUDA_MEMCPY3D c = {};
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = mem;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = mem + 1024;
    c.WidthInBytes = 64;
    c.Height = 1;
    c.Depth = 1;
    CUgraphNode copy, host;
    ASSERT_OK(cuGraphAddMemcpyNode(&copy, g, &set, 1, &c, ctx));
    host_calls = 0;
    CUDA_HOST_NODE_PARAMS h = {count_call, nullptr};
    ASSERT_OK(cuGraphAddHostNode(&host, g, &copy, 1, &h));
    CUgraphExec x;
    ASSERT_OK(cuGraphInstantiate(&x, g, 0));
    for (int i = 0; i < 3; ++i)
        ASSERT_OK(cuGraphLaunch(x, s));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(host_calls.load(), 3);
    auto v = read(2048);
    for (int i = 0; i < 64; ++i)
        ASSERT_EQ(v[1024 + i], 7);
    EXPECT_EQ(v[1024 + 64], 0);
    ASSERT_OK(cuGraphExecDestroy(x));
}

TEST_F(Graph, Queries_CountAndFillAsTheDriverDoes)
{
    CUgraphNode a = memset_node(1, 0, 8), b = memset_node(2, 8, 8, &a, 1), c = memset_node(3, 16, 8, &a, 1);
    size_t n = 0;
    ASSERT_OK(cuGraphGetNodes(g, nullptr, &n));
    EXPECT_EQ(n, 3u);
    CUgraphNode nodes[3];
    n = 2; // a smaller count: the first two, in creation order, and the count stays
    ASSERT_OK(cuGraphGetNodes(g, nodes, &n));
    EXPECT_EQ(n, 2u);
    EXPECT_EQ(nodes[0], a);
    EXPECT_EQ(nodes[1], b);
    ASSERT_OK(cuGraphGetRootNodes(g, nullptr, &n));
    EXPECT_EQ(n, 1u);
    ASSERT_OK(cuGraphGetEdges(g, nullptr, nullptr, nullptr, &n));
    EXPECT_EQ(n, 2u);
    CUgraphNode deps[2];
    n = 2;
    ASSERT_OK(cuGraphNodeGetDependentNodes(a, deps, nullptr, &n));
    EXPECT_EQ(n, 2u);
    CUgraphNodeType type;
    ASSERT_OK(cuGraphNodeGetType(c, &type));
    EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_MEMSET);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphGetEdges(g, nodes, nullptr, nullptr, &n)); // from without to
}

TEST_F(Graph, BadEdges_AreRefusedAndChangeNothing)
{
    CUgraphNode a = memset_node(1, 0, 8), b = memset_node(2, 8, 8);
    CUgraph other;
    ASSERT_OK(cuGraphCreate(&other, 0));
    CUgraphNode foreign;
    ASSERT_OK(cuGraphAddEmptyNode(&foreign, other, nullptr, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddDependencies(g, &a, &a, nullptr, 1));         // self
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddDependencies(g, &a, &foreign, nullptr, 1));   // other graph
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphRemoveDependencies(g, &a, &b, nullptr, 1));      // no such edge
    CUgraphNode twice[2] = {a, a};
    CUgraphNode e;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&e, g, twice, 2));                  // the same twice
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&e, g, nullptr, 1));                // NULL array
    ASSERT_OK(cuGraphAddDependencies(g, &a, &b, nullptr, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddDependencies(g, &a, &b, nullptr, 1));         // exists
    size_t n = 0;
    ASSERT_OK(cuGraphGetEdges(g, nullptr, nullptr, nullptr, &n));
    EXPECT_EQ(n, 1u);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphCreate(&other, 1));
    ASSERT_OK(cuGraphDestroy(other));
}

TEST_F(Graph, ACycle_IsAcceptedAsEdgesButRefusedAtInstantiation)
{
    CUgraphNode a = memset_node(1, 0, 8), b = memset_node(2, 8, 8, &a, 1);
    ASSERT_OK(cuGraphAddDependencies(g, &b, &a, nullptr, 1));
    CUDA_GRAPH_INSTANTIATE_PARAMS ip = {};
    CUgraphExec x = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphInstantiateWithParams(&x, g, &ip));
    EXPECT_EQ(ip.result_out, CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE);
}

TEST_F(Graph, BadNodeParameters_AreRefusedWithTheDriversCodes)
{
    CUDA_MEMSET_NODE_PARAMS p = {};
    p.dst = mem;
    p.elementSize = 3;
    p.width = 4;
    p.height = 1;
    CUgraphNode n;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemsetNode(&n, g, nullptr, 0, &p, ctx));
    p.elementSize = 1;
    p.width = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemsetNode(&n, g, nullptr, 0, &p, ctx));
    CUDA_HOST_NODE_PARAMS h = {nullptr, nullptr};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddHostNode(&n, g, nullptr, 0, &h));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddChildGraphNode(&n, g, nullptr, 0, g));
    CUgraphNodeParams gp = {};
    gp.type = (CUgraphNodeType)99;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddNode(&n, g, nullptr, nullptr, 0, &gp));
    CUgraphNode set = memset_node(1, 0, 8);
    CUDA_HOST_NODE_PARAMS out;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphHostNodeGetParams(set, &out)); // the wrong type
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetType((CUgraphNode)(uintptr_t)0x1234567, nullptr));
}

TEST_F(Graph, ChildGraph_IsACopyAndRunsInPlace)
{
    CUgraph child;
    ASSERT_OK(cuGraphCreate(&child, 0));
    CUDA_MEMSET_NODE_PARAMS p = {};
    p.dst = mem + 100;
    p.value = 9;
    p.elementSize = 1;
    p.width = 10;
    p.height = 1;
    CUgraphNode cn, node;
    ASSERT_OK(cuGraphAddMemsetNode(&cn, child, nullptr, 0, &p, ctx));
    ASSERT_OK(cuGraphAddChildGraphNode(&node, g, nullptr, 0, child));
    ASSERT_OK(cuGraphDestroy(child)); // the node keeps its own copy
    CUgraph inner;
    ASSERT_OK(cuGraphChildGraphNodeGetGraph(node, &inner));
    size_t n = 0;
    ASSERT_OK(cuGraphGetNodes(inner, nullptr, &n));
    EXPECT_EQ(n, 1u);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphDestroy(inner)); // it belongs to the node
    CUgraphExec x;
    ASSERT_OK(cuGraphInstantiate(&x, g, 0));
    ASSERT_OK(cuGraphLaunch(x, s));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(read(200)[105], 9);
    ASSERT_OK(cuGraphExecDestroy(x));
}

TEST_F(Graph, ExecUpdate_TakesNewParametersAndRefusesANewTopology)
{
    CUgraphNode a = memset_node(1, 0, 8);
    CUgraphExec x;
    ASSERT_OK(cuGraphInstantiate(&x, g, 0));
    CUgraph g2;
    ASSERT_OK(cuGraphCreate(&g2, 0));
    CUDA_MEMSET_NODE_PARAMS p = {};
    p.dst = mem;
    p.value = 5;
    p.elementSize = 1;
    p.width = 8;
    p.height = 1;
    CUgraphNode b;
    ASSERT_OK(cuGraphAddMemsetNode(&b, g2, nullptr, 0, &p, ctx));
    CUgraphExecUpdateResultInfo info;
    ASSERT_OK(cuGraphExecUpdate(x, g2, &info));
    EXPECT_EQ(info.result, CU_GRAPH_EXEC_UPDATE_SUCCESS);
    ASSERT_OK(cuGraphLaunch(x, s));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(read(8)[3], 5);
    CUgraphNode extra;
    ASSERT_OK(cuGraphAddEmptyNode(&extra, g2, nullptr, 0));
    EXPECT_CU(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, cuGraphExecUpdate(x, g2, &info));
    EXPECT_EQ(info.result, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED);
    // One node's parameters, in the executable graph only.
    p.value = 6;
    ASSERT_OK(cuGraphExecMemsetNodeSetParams(x, a, &p, ctx));
    ASSERT_OK(cuGraphLaunch(x, s));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(read(8)[3], 6);
    ASSERT_OK(cuGraphDestroy(g2));
    ASSERT_OK(cuGraphExecDestroy(x));
}

TEST_F(Graph, DisabledNode_IsSkippedByLaunches)
{
    CUgraphNode a = memset_node(4, 0, 8);
    CUgraphExec x;
    ASSERT_OK(cuGraphInstantiate(&x, g, 0));
    ASSERT_OK(cuGraphNodeSetEnabled(x, a, 0));
    unsigned int on = 1;
    ASSERT_OK(cuGraphNodeGetEnabled(x, a, &on));
    EXPECT_EQ(on, 0u);
    ASSERT_OK(cuGraphLaunch(x, s));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(read(8)[0], 0);
    ASSERT_OK(cuGraphExecDestroy(x));
}

TEST_F(Graph, InstantiateFlags_AsTheDriverTakesThem)
{
    memset_node(1, 0, 8);
    CUgraphExec x;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphInstantiate(&x, g, 0x10));
    ASSERT_OK(cuGraphInstantiate(&x, g, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH));
    cuuint64_t flags = 0;
    ASSERT_OK(cuGraphExecGetFlags(x, &flags));
    EXPECT_EQ(flags, (cuuint64_t)CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH);
    ASSERT_OK(cuGraphExecDestroy(x));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphLaunch(x, s)); // destroyed
}

TEST_F(Graph, Capture_RecordsStreamWorkAsNodes)
{
    ASSERT_OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUstreamCaptureStatus st;
    ASSERT_OK(cuStreamIsCapturing(s, &st));
    EXPECT_EQ(st, CU_STREAM_CAPTURE_STATUS_ACTIVE);
    ASSERT_OK(cuMemsetD8Async(mem, 3, 100, s));
    ASSERT_OK(cuMemcpyDtoDAsync(mem + 2048, mem, 100, s));
    host_calls = 0;
    ASSERT_OK(cuLaunchHostFunc(s, count_call, nullptr));
    EXPECT_EQ(read(8)[0], 0); // recorded, not run
    CUgraph cg;
    ASSERT_OK(cuStreamEndCapture(s, &cg));
    size_t n = 0;
    ASSERT_OK(cuGraphGetNodes(cg, nullptr, &n));
    ASSERT_EQ(n, 3u);
    CUgraphNode nodes[3];
    ASSERT_OK(cuGraphGetNodes(cg, nodes, &n));
    CUgraphNodeType t[3];
    for (int i = 0; i < 3; ++i)
        ASSERT_OK(cuGraphNodeGetType(nodes[i], &t[i]));
    EXPECT_EQ(t[0], CU_GRAPH_NODE_TYPE_MEMSET);
    EXPECT_EQ(t[1], CU_GRAPH_NODE_TYPE_MEMCPY);
    EXPECT_EQ(t[2], CU_GRAPH_NODE_TYPE_HOST);
    CUDA_MEMSET_NODE_PARAMS mp;
    ASSERT_OK(cuGraphMemsetNodeGetParams(nodes[0], &mp));
    EXPECT_EQ(mp.elementSize, 1u);
    EXPECT_EQ(mp.width, 100u);
    EXPECT_EQ(mp.height, 1u);
    CUgraphExec x;
    ASSERT_OK(cuGraphInstantiate(&x, cg, 0));
    ASSERT_OK(cuGraphLaunch(x, s));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(host_calls.load(), 1);
    EXPECT_EQ(read(2200)[2048 + 99], 3);
    ASSERT_OK(cuGraphExecDestroy(x));
    ASSERT_OK(cuGraphDestroy(cg));
}

TEST_F(Graph, CaptureForkAndJoin_MakeEdgesNotNodes)
{
    CUstream s2;
    ASSERT_OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    CUevent fork, join;
    ASSERT_OK(cuEventCreate(&fork, CU_EVENT_DISABLE_TIMING));
    ASSERT_OK(cuEventCreate(&join, CU_EVENT_DISABLE_TIMING));
    ASSERT_OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(cuMemsetD8Async(mem, 1, 8, s));
    ASSERT_OK(cuEventRecord(fork, s));
    ASSERT_OK(cuStreamWaitEvent(s2, fork, 0)); // s2 joins the capture
    CUstreamCaptureStatus st;
    ASSERT_OK(cuStreamIsCapturing(s2, &st));
    EXPECT_EQ(st, CU_STREAM_CAPTURE_STATUS_ACTIVE);
    ASSERT_OK(cuMemsetD8Async(mem + 8, 2, 8, s2));
    ASSERT_OK(cuMemsetD8Async(mem + 16, 3, 8, s));
    ASSERT_OK(cuEventRecord(join, s2));
    ASSERT_OK(cuStreamWaitEvent(s, join, 0));
    ASSERT_OK(cuMemsetD8Async(mem + 24, 4, 8, s));
    CUgraph cg;
    ASSERT_OK(cuStreamEndCapture(s, &cg));
    size_t n = 0, e = 0;
    ASSERT_OK(cuGraphGetNodes(cg, nullptr, &n));
    ASSERT_OK(cuGraphGetEdges(cg, nullptr, nullptr, nullptr, &e));
    EXPECT_EQ(n, 4u);
    EXPECT_EQ(e, 4u); // 0->1, 0->2, 1->3, 2->3
    ASSERT_OK(cuStreamIsCapturing(s2, &st));
    EXPECT_EQ(st, CU_STREAM_CAPTURE_STATUS_NONE);
    ASSERT_OK(cuGraphDestroy(cg));
    ASSERT_OK(cuEventDestroy(fork));
    ASSERT_OK(cuEventDestroy(join));
    ASSERT_OK(cuStreamDestroy(s2));
}

TEST_F(Graph, CaptureUnjoined_EndsWithNoGraph)
{
    CUstream s2;
    ASSERT_OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    CUevent fork;
    ASSERT_OK(cuEventCreate(&fork, CU_EVENT_DISABLE_TIMING));
    ASSERT_OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(cuEventRecord(fork, s));
    ASSERT_OK(cuStreamWaitEvent(s2, fork, 0));
    ASSERT_OK(cuMemsetD8Async(mem, 1, 8, s2));
    CUgraph cg = (CUgraph)1;
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, cuStreamEndCapture(s, &cg));
    EXPECT_EQ(cg, nullptr);
    CUstreamCaptureStatus st;
    ASSERT_OK(cuStreamIsCapturing(s2, &st));
    EXPECT_EQ(st, CU_STREAM_CAPTURE_STATUS_NONE);
    ASSERT_OK(cuEventDestroy(fork));
    ASSERT_OK(cuStreamDestroy(s2));
}

TEST_F(Graph, CaptureRules_LegacyStreamAndUnsafeCalls)
{
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuStreamBeginCapture(nullptr, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUgraph cg = (CUgraph)1;
    EXPECT_CU(CUDA_ERROR_ILLEGAL_STATE, cuStreamEndCapture(s, &cg));
    ASSERT_OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    EXPECT_CU(CUDA_ERROR_ILLEGAL_STATE, cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUdeviceptr p;
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuMemAlloc(&p, 64));
    CUstreamCaptureStatus st;
    ASSERT_OK(cuStreamIsCapturing(s, &st));
    EXPECT_EQ(st, CU_STREAM_CAPTURE_STATUS_INVALIDATED);
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuMemsetD8Async(mem, 1, 8, s));
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s, &cg));
    EXPECT_EQ(cg, nullptr);
    // Relaxed: allowed.
    ASSERT_OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    ASSERT_OK(cuThreadExchangeStreamCaptureMode(&mode));
    EXPECT_EQ(mode, CU_STREAM_CAPTURE_MODE_GLOBAL);
    ASSERT_OK(cuMemAlloc(&p, 64));
    ASSERT_OK(cuMemFree(p));
    ASSERT_OK(cuThreadExchangeStreamCaptureMode(&mode));
    ASSERT_OK(cuStreamEndCapture(s, &cg));
    ASSERT_OK(cuGraphDestroy(cg));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuThreadExchangeStreamCaptureMode(nullptr));
}

TEST_F(Graph, CaptureOfABlockingStream_RefusesLegacyWork)
{
    CUstream b;
    ASSERT_OK(cuStreamCreate(&b, 0));
    ASSERT_OK(cuStreamBeginCapture(b, CU_STREAM_CAPTURE_MODE_RELAXED));
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, cuMemsetD8Async(mem, 1, 8, nullptr));
    CUgraph cg;
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(b, &cg));
    ASSERT_OK(cuStreamDestroy(b));
}

TEST_F(Graph, MemoryNodes_AllocationLivesUntilFreed)
{
    CUDA_MEM_ALLOC_NODE_PARAMS ap = {};
    ap.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    ap.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    ap.bytesize = 1 << 20;
    CUgraphNode alloc;
    ASSERT_OK(cuGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap));
    ASSERT_NE(ap.dptr, 0u);
    CUDA_MEMSET_NODE_PARAMS p = {};
    p.dst = ap.dptr;
    p.value = 0x5a;
    p.elementSize = 1;
    p.width = 16;
    p.height = 1;
    CUgraphNode set;
    ASSERT_OK(cuGraphAddMemsetNode(&set, g, &alloc, 1, &p, ctx));
    CUgraphNode bad;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemFreeNode(&bad, g, &set, 1, mem)); // not graph memory
    CUgraphExec x;
    ASSERT_OK(cuGraphInstantiate(&x, g, 0));
    ASSERT_OK(cuGraphLaunch(x, s));
    ASSERT_OK(cuStreamSynchronize(s));
    unsigned char byte = 0;
    ASSERT_OK(cuMemcpyDtoH(&byte, ap.dptr + 3, 1));
    EXPECT_EQ(byte, 0x5a);
    cuuint64_t used = 0;
    ASSERT_OK(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &used));
    EXPECT_EQ(used, 1u << 20);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphLaunch(x, s)); // still alive
    ASSERT_OK(cuMemFreeAsync(ap.dptr, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(ap.dptr)); // freed already
    ASSERT_OK(cuGraphLaunch(x, s));
    ASSERT_OK(cuStreamSynchronize(s));
    ASSERT_OK(cuMemFree(ap.dptr));
    ASSERT_OK(cuGraphExecDestroy(x));
}

TEST_F(Graph, CapturedMallocAsyncAndFreeAsync_BecomeMemoryNodes)
{
    ASSERT_OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUdeviceptr p = 0;
    ASSERT_OK(cuMemAllocAsync(&p, 4096, s));
    ASSERT_NE(p, 0u);
    ASSERT_OK(cuMemsetD32Async(p, 0x01020304, 1024, s));
    ASSERT_OK(cuMemcpyDtoDAsync(mem, p, 16, s));
    ASSERT_OK(cuMemFreeAsync(p, s));
    CUgraph cg;
    ASSERT_OK(cuStreamEndCapture(s, &cg));
    CUgraphNode nodes[4];
    size_t n = 4;
    ASSERT_OK(cuGraphGetNodes(cg, nodes, &n));
    ASSERT_EQ(n, 4u);
    CUgraphNodeType t;
    ASSERT_OK(cuGraphNodeGetType(nodes[0], &t));
    EXPECT_EQ(t, CU_GRAPH_NODE_TYPE_MEM_ALLOC);
    ASSERT_OK(cuGraphNodeGetType(nodes[3], &t));
    EXPECT_EQ(t, CU_GRAPH_NODE_TYPE_MEM_FREE);
    CUgraphExec x;
    ASSERT_OK(cuGraphInstantiate(&x, cg, 0));
    for (int i = 0; i < 2; ++i)
        ASSERT_OK(cuGraphLaunch(x, s)); // alloc .. free: relaunches freely
    ASSERT_OK(cuStreamSynchronize(s));
    uint32_t w;
    ASSERT_OK(cuMemcpyDtoH(&w, mem, 4));
    EXPECT_EQ(w, 0x01020304u);
    ASSERT_OK(cuGraphExecDestroy(x));
    ASSERT_OK(cuGraphDestroy(cg));
}

TEST_F(Graph, UserObject_DestructorRunsOnceTheLastReferenceGoes)
{
    static std::atomic<int> destroyed;
    destroyed = 0;
    CUuserObject u;
    ASSERT_OK(cuUserObjectCreate(&u, nullptr, [](void *) { destroyed++; }, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuUserObjectCreate(&u, nullptr, [](void *) {}, 1, 0));
    ASSERT_OK(cuGraphRetainUserObject(g, u, 1, CU_GRAPH_USER_OBJECT_MOVE));
    ASSERT_OK(cuGraphDestroy(g));
    g = nullptr;
    ASSERT_OK(cuCtxSynchronize());
    EXPECT_EQ(destroyed.load(), 1);
}

TEST_F(Graph, ExecLaunchedOnTwoStreams_RunsOneLaunchAtATime)
{
    static std::atomic<int> inside, most;
    inside = most = 0;
    CUDA_HOST_NODE_PARAMS h = {[](void *) {
                                   int now = ++inside;
                                   if (now > most)
                                       most = now;
                                   std::this_thread::sleep_for(std::chrono::milliseconds(20));
                                   --inside;
                               },
                               nullptr};
    CUgraphNode n;
    ASSERT_OK(cuGraphAddHostNode(&n, g, nullptr, 0, &h));
    CUgraphExec x;
    ASSERT_OK(cuGraphInstantiate(&x, g, 0));
    CUstream s2;
    ASSERT_OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    for (int i = 0; i < 4; ++i)
        ASSERT_OK(cuGraphLaunch(x, i % 2 ? s : s2));
    ASSERT_OK(cuGraphExecDestroy(x)); // the launches still run
    ASSERT_OK(cuCtxSynchronize());
    EXPECT_EQ(most.load(), 1);
    ASSERT_OK(cuStreamDestroy(s2));
}

TEST_F(Graph, DotPrint_WritesTheDriversLayout)
{
    CUgraphNode a = memset_node(1, 0, 8);
    memset_node(2, 8, 8, &a, 1);
    std::string name = testing::TempDir() + "extmem_graph.dot"; // each test runs in a process of its own
    const char *path = name.c_str();
    ASSERT_OK(cuGraphDebugDotPrint(g, path, CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE));
    FILE *f = fopen(path, "r");
    ASSERT_NE(f, nullptr);
    char buf[4096] = {};
    size_t got = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    std::remove(path);
    ASSERT_GT(got, 0u);
    EXPECT_NE(strstr(buf, "digraph dot"), nullptr);
    EXPECT_NE(strstr(buf, "\"graph_0_node_0\" -> \"graph_0_node_1\""), nullptr);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphDebugDotPrint(g, nullptr, 0));
    EXPECT_CU(CUDA_ERROR_OPERATING_SYSTEM, cuGraphDebugDotPrint(g, "/nonexistent-dir/x.dot", 0));
}

TEST_F(Graph, KernelNode_CopiesItsArgumentsAndTakesNewOnes)
{
    CUmodule m;
    ASSERT_OK(cuModuleLoadData(&m, kPtx));
    CUfunction f;
    ASSERT_OK(cuModuleGetFunction(&f, m, "add_value"));
    unsigned int value = 5, n = 256;
    void *args[] = {&mem, &value, &n};
    CUDA_KERNEL_NODE_PARAMS k = {};
    k.func = f;
    k.gridDimX = 2;
    k.gridDimY = k.gridDimZ = 1;
    k.blockDimX = 128;
    k.blockDimY = k.blockDimZ = 1;
    k.kernelParams = args;
    CUgraphNode node;
    ASSERT_OK(cuGraphAddKernelNode(&node, g, nullptr, 0, &k));
    value = 1000; // the node keeps what it was given
    CUDA_KERNEL_NODE_PARAMS back = {};
    ASSERT_OK(cuGraphKernelNodeGetParams(node, &back));
    EXPECT_EQ(back.func, f);
    EXPECT_EQ(*(unsigned int *)back.kernelParams[1], 5u);
    CUgraphExec x;
    ASSERT_OK(cuGraphInstantiate(&x, g, 0));
    ASSERT_OK(cuGraphLaunch(x, s));
    ASSERT_OK(cuGraphLaunch(x, s));
    ASSERT_OK(cuStreamSynchronize(s));
    uint32_t w[256];
    ASSERT_OK(cuMemcpyDtoH(w, mem, sizeof(w)));
    EXPECT_EQ(w[0], 10u);
    EXPECT_EQ(w[255], 10u);
    value = 7;
    ASSERT_OK(cuGraphExecKernelNodeSetParams(x, node, &k));
    ASSERT_OK(cuGraphLaunch(x, s));
    ASSERT_OK(cuStreamSynchronize(s));
    ASSERT_OK(cuMemcpyDtoH(w, mem, sizeof(w)));
    EXPECT_EQ(w[17], 17u);
    k.func = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuGraphAddKernelNode(&node, g, nullptr, 0, &k));
    k.func = f;
    k.blockDimX = 2048;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddKernelNode(&node, g, nullptr, 0, &k));
    // A captured launch is a kernel node with the arguments of the call.
    ASSERT_OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    value = 3;
    ASSERT_OK(cuLaunchKernel(f, 2, 1, 1, 128, 1, 1, 0, s, args, nullptr));
    CUgraph cg;
    ASSERT_OK(cuStreamEndCapture(s, &cg));
    CUgraphNode cn;
    size_t count = 1;
    ASSERT_OK(cuGraphGetNodes(cg, &cn, &count));
    ASSERT_OK(cuGraphKernelNodeGetParams(cn, &back));
    EXPECT_EQ(back.gridDimX, 2u);
    EXPECT_EQ(*(unsigned int *)back.kernelParams[1], 3u);
    ASSERT_OK(cuGraphDestroy(cg));
    ASSERT_OK(cuGraphExecDestroy(x));
    ASSERT_OK(cuModuleUnload(m));
}

TEST_F(Graph, CapturedEvents_FollowTheDriversRules)
{
    CUevent e, before;
    ASSERT_OK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
    ASSERT_OK(cuEventCreate(&before, CU_EVENT_DISABLE_TIMING));
    ASSERT_OK(cuEventRecord(before, s));
    ASSERT_OK(cuStreamSynchronize(s));
    ASSERT_OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
    ASSERT_OK(cuEventRecord(e, s));
    EXPECT_CU(CUDA_ERROR_CAPTURED_EVENT, cuEventQuery(e));
    CUgraph cg;
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s, &cg));
    // Ended: the event stands for work that will never run, until it is recorded again.
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventQuery(e));
    ASSERT_OK(cuEventRecord(e, s));
    ASSERT_OK(cuStreamSynchronize(s));
    ASSERT_OK(cuEventQuery(e));
    // An event recorded before the capture: isolation, unless waited for as an external event.
    ASSERT_OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(cuStreamWaitEvent(s, before, CU_EVENT_WAIT_EXTERNAL));
    ASSERT_OK(cuEventRecordWithFlags(e, s, CU_EVENT_RECORD_EXTERNAL));
    ASSERT_OK(cuStreamEndCapture(s, &cg));
    CUgraphNode nodes[2];
    size_t count = 2;
    ASSERT_OK(cuGraphGetNodes(cg, nodes, &count));
    ASSERT_EQ(count, 2u);
    CUgraphNodeType t0, t1;
    ASSERT_OK(cuGraphNodeGetType(nodes[0], &t0));
    ASSERT_OK(cuGraphNodeGetType(nodes[1], &t1));
    EXPECT_EQ(t0, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
    EXPECT_EQ(t1, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
    CUgraphExec x;
    ASSERT_OK(cuGraphInstantiate(&x, cg, 0));
    ASSERT_OK(cuGraphLaunch(x, s));
    ASSERT_OK(cuStreamSynchronize(s));
    ASSERT_OK(cuEventQuery(e));
    ASSERT_OK(cuGraphExecDestroy(x));
    ASSERT_OK(cuGraphDestroy(cg));
    ASSERT_OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, cuStreamWaitEvent(s, before, 0));
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s, &cg));
    ASSERT_OK(cuEventRecordWithFlags(e, s, CU_EVENT_RECORD_EXTERNAL)); // not capturing: a plain record
    ASSERT_OK(cuEventDestroy(e));
    ASSERT_OK(cuEventDestroy(before));
}

TEST_F(Graph, ConditionalNodes_RunTheirBodyByTheDefaultValue)
{
    CUgraphConditionalHandle h1, h0;
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuGraphConditionalHandleCreate(&h1, g, nullptr, 1, 0));
    ASSERT_OK(cuGraphConditionalHandleCreate(&h1, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT));
    ASSERT_OK(cuGraphConditionalHandleCreate(&h0, g, ctx, 0, CU_GRAPH_COND_ASSIGN_DEFAULT));
    CUgraphNodeParams p = {};
    p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    p.conditional.handle = h1;
    p.conditional.type = CU_GRAPH_COND_TYPE_IF;
    p.conditional.size = 3;
    p.conditional.ctx = ctx;
    CUgraphNode n1, n0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddNode(&n1, g, nullptr, nullptr, 0, &p)); // IF takes 1 or 2
    p.conditional.size = 2;
    ASSERT_OK(cuGraphAddNode(&n1, g, nullptr, nullptr, 0, &p));
    ASSERT_NE(p.conditional.phGraph_out, nullptr);
    CUgraph then_body = p.conditional.phGraph_out[0], else_body = p.conditional.phGraph_out[1];
    CUDA_MEMSET_NODE_PARAMS m = {};
    m.dst = mem;
    m.value = 1;
    m.elementSize = 1;
    m.width = 4;
    m.height = 1;
    CUgraphNode b;
    ASSERT_OK(cuGraphAddMemsetNode(&b, then_body, nullptr, 0, &m, ctx));
    m.value = 2;
    ASSERT_OK(cuGraphAddMemsetNode(&b, else_body, nullptr, 0, &m, ctx));
    CUgraphExec x;
    CUDA_GRAPH_INSTANTIATE_PARAMS ip = {};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphInstantiateWithParams(&x, g, &ip)); // h0 serves no node
    EXPECT_EQ(ip.result_out, CUDA_GRAPH_INSTANTIATE_CONDITIONAL_HANDLE_UNUSED);
    p.conditional.handle = h0;
    p.conditional.size = 1;
    p.conditional.type = CU_GRAPH_COND_TYPE_WHILE; // default 0: never runs
    ASSERT_OK(cuGraphAddNode(&n0, g, &n1, nullptr, 1, &p));
    m.dst = mem + 8;
    m.value = 3;
    ASSERT_OK(cuGraphAddMemsetNode(&b, p.conditional.phGraph_out[0], nullptr, 0, &m, ctx));
    ASSERT_OK(cuGraphInstantiate(&x, g, 0));
    ASSERT_OK(cuGraphLaunch(x, s));
    ASSERT_OK(cuStreamSynchronize(s));
    auto v = read(16);
    EXPECT_EQ(v[0], 1);  // IF with 1: the first body
    EXPECT_EQ(v[8], 0);  // WHILE with 0: no round
    CUgraph c;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuGraphClone(&c, g));
    ASSERT_OK(cuGraphExecDestroy(x));
}

TEST_F(Graph, WhileNode_RunsUntilAKernelSetsItsValueToZero)
{
    CUmodule m;
    ASSERT_OK(cuModuleLoadData(&m, kPtx));
    CUfunction f;
    ASSERT_OK(cuModuleGetFunction(&f, m, "count_down"));
    CUgraphConditionalHandle h;
    ASSERT_OK(cuGraphConditionalHandleCreate(&h, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT));
    CUgraphNodeParams p = {};
    p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    p.conditional.handle = h;
    p.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
    p.conditional.size = 1;
    p.conditional.ctx = ctx;
    CUgraphNode w;
    ASSERT_OK(cuGraphAddNode(&w, g, nullptr, nullptr, 0, &p));
    void *args[] = {&h, &mem};
    CUDA_KERNEL_NODE_PARAMS k = {};
    k.func = f;
    k.gridDimX = k.gridDimY = k.gridDimZ = 1;
    k.blockDimX = k.blockDimY = k.blockDimZ = 1;
    k.kernelParams = args;
    CUgraphNode kn;
    ASSERT_OK(cuGraphAddKernelNode(&kn, p.conditional.phGraph_out[0], nullptr, 0, &k));
    CUgraphExec x;
    ASSERT_OK(cuGraphInstantiate(&x, g, 0));
    for (uint32_t start : {5u, 1u, 12u}) {
        ASSERT_OK(cuMemcpyHtoD(mem, &start, 4));
        ASSERT_OK(cuGraphLaunch(x, s));
        ASSERT_OK(cuStreamSynchronize(s));
        uint32_t left = 99;
        ASSERT_OK(cuMemcpyDtoH(&left, mem, 4));
        EXPECT_EQ(left, 0u) << "from " << start; // the body ran `start` times
    }
    ASSERT_OK(cuGraphExecDestroy(x));
    // A kernel that sets a value no handle has: the launch faults (sticky), nothing is written.
    CUstream s2;
    ASSERT_OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    CUgraphConditionalHandle forged = 0x1234;
    void *bad[] = {&forged, &mem};
    ASSERT_OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s2, bad, nullptr));
    EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, cuStreamSynchronize(s2));
}

TEST_F(Graph, PerThreadStreamCapture_RecordsAndRefusesItsOwnSynchronisation)
{
    ASSERT_OK(cuStreamBeginCapture(CU_STREAM_PER_THREAD, CU_STREAM_CAPTURE_MODE_RELAXED));
    ASSERT_OK(cuMemsetD8Async(mem, 9, 16, CU_STREAM_PER_THREAD));
    CUgraph cg;
    ASSERT_OK(cuStreamEndCapture(CU_STREAM_PER_THREAD, &cg));
    size_t n = 0;
    ASSERT_OK(cuGraphGetNodes(cg, nullptr, &n));
    EXPECT_EQ(n, 1u);
    EXPECT_EQ(read(1)[0], 0); // recorded, not run
    ASSERT_OK(cuGraphDestroy(cg));
    ASSERT_OK(cuStreamBeginCapture(CU_STREAM_PER_THREAD, CU_STREAM_CAPTURE_MODE_RELAXED));
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuStreamSynchronize(CU_STREAM_PER_THREAD));
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(CU_STREAM_PER_THREAD, &cg));
    ASSERT_OK(cuStreamBeginCapture(CU_STREAM_PER_THREAD, CU_STREAM_CAPTURE_MODE_RELAXED));
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuStreamQuery(CU_STREAM_PER_THREAD));
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(CU_STREAM_PER_THREAD, &cg));
    // A callback runs once and frees what it was given: a capture refuses it (cuLaunchHostFunc is the node).
    ASSERT_OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
              cuStreamAddCallback(s, [](CUstream, CUresult, void *) {}, nullptr, 0));
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s, &cg));
}

} // namespace
