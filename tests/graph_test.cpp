// Graphs and stream capture (src/graph; docs/graphs.md). The codes are those NVIDIA's driver gave
// in docs/probes/graphs/graph_probe.out.
#include "framework/testing.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <unistd.h>
#include <cstring>
#include <vector>

using namespace extmem_test;

namespace {

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
    char path[] = "/tmp/extmem-dot-XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    ASSERT_OK(cuGraphDebugDotPrint(g, path, CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE));
    FILE *f = fopen(path, "r");
    ASSERT_NE(f, nullptr);
    char buf[4096] = {};
    size_t got = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    unlink(path);
    ASSERT_GT(got, 0u);
    EXPECT_NE(strstr(buf, "digraph dot"), nullptr);
    EXPECT_NE(strstr(buf, "\"graph_0_node_0\" -> \"graph_0_node_1\""), nullptr);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphDebugDotPrint(g, nullptr, 0));
    EXPECT_CU(CUDA_ERROR_OPERATING_SYSTEM, cuGraphDebugDotPrint(g, "/nonexistent-dir/x.dot", 0));
}

} // namespace
