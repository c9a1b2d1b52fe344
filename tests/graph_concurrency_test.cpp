// Graphs from many threads (src/graph; docs/graphs.md): launches of one executable graph from
// several threads and streams run one at a time and all run; an executable graph destroyed while
// its launches are queued lets them finish; captures on several threads, in each mode, keep to
// their own streams and to the driver's rules for the other threads. Runs under ThreadSanitizer
// (the `concurrency` label).
#include "framework/testing.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace extmem_test;

namespace {

using GraphThreads = ContextTest;

std::atomic<int> inside, most, calls;

void CUDA_CB one_at_a_time(void *)
{
    int now = ++inside;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now))
        ;
    calls++;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    --inside;
}

TEST_F(GraphThreads, OneExecLaunchedFromFourThreads_RunsEveryLaunchOneAtATime)
{
    inside = most = calls = 0;
    CUgraph g;
    ASSERT_OK(cuGraphCreate(&g, 0));
    CUDA_HOST_NODE_PARAMS h = {one_at_a_time, nullptr};
    CUgraphNode a, b;
    ASSERT_OK(cuGraphAddHostNode(&a, g, nullptr, 0, &h));
    ASSERT_OK(cuGraphAddHostNode(&b, g, &a, 1, &h));
    CUgraphExec x;
    ASSERT_OK(cuGraphInstantiate(&x, g, 0));
    std::vector<std::thread> threads;
    std::atomic<int> errors{0};
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            CUcontext c = ctx;
            if (cuCtxSetCurrent(c))
                errors++;
            CUstream s;
            if (cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)) {
                errors++;
                return;
            }
            for (int i = 0; i < 25; ++i)
                if (cuGraphLaunch(x, s))
                    errors++;
            if (cuStreamSynchronize(s) || cuStreamDestroy(s))
                errors++;
        });
    for (auto &t : threads)
        t.join();
    EXPECT_EQ(errors.load(), 0);
    EXPECT_EQ(calls.load(), 4 * 25 * 2);
    EXPECT_EQ(most.load(), 1);
    ASSERT_OK(cuGraphExecDestroy(x));
    ASSERT_OK(cuGraphDestroy(g));
}

TEST_F(GraphThreads, ExecDestroyedWhileItsLaunchesAreQueued_LetsThemFinish)
{
    inside = most = calls = 0;
    CUgraph g;
    ASSERT_OK(cuGraphCreate(&g, 0));
    CUDA_HOST_NODE_PARAMS h = {one_at_a_time, nullptr};
    CUgraphNode a;
    ASSERT_OK(cuGraphAddHostNode(&a, g, nullptr, 0, &h));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    for (int round = 0; round < 20; ++round) {
        CUgraphExec x;
        ASSERT_OK(cuGraphInstantiate(&x, g, 0));
        for (int i = 0; i < 5; ++i)
            ASSERT_OK(cuGraphLaunch(x, s));
        ASSERT_OK(cuGraphExecDestroy(x)); // while queued or running
    }
    ASSERT_OK(cuGraphDestroy(g)); // the launches keep their own copies
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(calls.load(), 100);
    ASSERT_OK(cuStreamDestroy(s));
}

TEST_F(GraphThreads, ThreadLocalAndRelaxedCapturesOnFourThreads_EachGetsItsOwnGraph)
{
    std::vector<std::thread> threads;
    std::atomic<int> errors{0};
    CUdeviceptr mem;
    ASSERT_OK(cuMemAlloc(&mem, 4 * 256));
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            if (cuCtxSetCurrent(ctx))
                errors++;
            CUstream s;
            if (cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)) {
                errors++;
                return;
            }
            for (int round = 0; round < 10; ++round) {
                CUgraph g = nullptr;
                CUgraphExec x = nullptr;
                size_t n = 0;
                // Neither mode holds other threads to this one's capture (global mode does: below).
                CUstreamCaptureMode mode = t % 2 ? CU_STREAM_CAPTURE_MODE_RELAXED : CU_STREAM_CAPTURE_MODE_THREAD_LOCAL;
                if (cuStreamBeginCapture(s, mode) ||
                    cuMemsetD8Async(mem + 256 * t, (unsigned char)(t + round), 128, s) ||
                    cuMemsetD8Async(mem + 256 * t + 128, (unsigned char)(t + round + 1), 128, s) ||
                    cuStreamEndCapture(s, &g) || cuGraphGetNodes(g, nullptr, &n) || n != 2 ||
                    cuGraphInstantiate(&x, g, 0) || cuGraphLaunch(x, s) || cuStreamSynchronize(s))
                    errors++;
                unsigned char got[2] = {0, 0};
                if (cuMemcpyDtoH(&got[0], mem + 256 * t, 1) || cuMemcpyDtoH(&got[1], mem + 256 * t + 200, 1) ||
                    got[0] != (unsigned char)(t + round) || got[1] != (unsigned char)(t + round + 1))
                    errors++;
                if (x)
                    cuGraphExecDestroy(x);
                if (g)
                    cuGraphDestroy(g);
            }
            cuStreamDestroy(s);
        });
    for (auto &t : threads)
        t.join();
    EXPECT_EQ(errors.load(), 0);
    ASSERT_OK(cuMemFree(mem));
}

TEST_F(GraphThreads, GlobalCapture_ForbidsUnsafeCallsInOtherThreadsUnlessRelaxed)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    ASSERT_OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUresult global_code = CUDA_SUCCESS, relaxed_code = CUDA_ERROR_UNKNOWN;
    std::thread other([&] {
        cuCtxSetCurrent(ctx);
        CUdeviceptr p = 0;
        global_code = cuMemAlloc(&p, 64); // this thread's mode is global: refused
        CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
        cuThreadExchangeStreamCaptureMode(&mode);
        relaxed_code = cuMemAlloc(&p, 64);
        if (!relaxed_code)
            cuMemFree(p);
    });
    other.join();
    EXPECT_EQ(global_code, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    EXPECT_EQ(relaxed_code, CUDA_SUCCESS);
    CUgraph g;
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s, &g));
    // Thread-local: another thread is not held to this thread's capture.
    ASSERT_OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    std::thread free_thread([&] {
        cuCtxSetCurrent(ctx);
        CUdeviceptr p = 0;
        global_code = cuMemAlloc(&p, 64);
        if (!global_code)
            cuMemFree(p);
        // Ending another thread's (non-relaxed) capture ends it with no graph.
        CUgraph none = (CUgraph)1;
        relaxed_code = cuStreamEndCapture(s, &none);
    });
    free_thread.join();
    EXPECT_EQ(global_code, CUDA_SUCCESS);
    EXPECT_EQ(relaxed_code, CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD);
    CUstreamCaptureStatus st;
    ASSERT_OK(cuStreamIsCapturing(s, &st));
    EXPECT_EQ(st, CU_STREAM_CAPTURE_STATUS_NONE);
    ASSERT_OK(cuStreamDestroy(s));
}

TEST_F(GraphThreads, GraphsBuiltAndLaunchedOnManyThreads_StayIndependent)
{
    std::vector<std::thread> threads;
    std::atomic<int> errors{0};
    calls = 0;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            cuCtxSetCurrent(ctx);
            CUstream s;
            if (cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)) {
                errors++;
                return;
            }
            for (int round = 0; round < 10; ++round) {
                CUgraph g;
                CUgraphExec x;
                CUgraphNode prev = nullptr, n;
                if (cuGraphCreate(&g, 0)) {
                    errors++;
                    continue;
                }
                CUDA_HOST_NODE_PARAMS h = {[](void *) { calls++; }, nullptr};
                for (int i = 0; i < 8; ++i) {
                    if (cuGraphAddHostNode(&n, g, prev ? &prev : nullptr, prev ? 1 : 0, &h))
                        errors++;
                    prev = n;
                }
                CUgraph c;
                if (cuGraphClone(&c, g) || cuGraphInstantiate(&x, c, 0) || cuGraphLaunch(x, s) ||
                    cuGraphExecDestroy(x) || cuGraphDestroy(c) || cuGraphDestroy(g))
                    errors++;
            }
            if (cuStreamSynchronize(s) || cuStreamDestroy(s))
                errors++;
        });
    for (auto &t : threads)
        t.join();
    EXPECT_EQ(errors.load(), 0);
    EXPECT_EQ(calls.load(), 4 * 10 * 8);
}

std::atomic<int> arrived;

// Each of two independent host nodes waits (up to 10 s) for the other to have started: they
// pass only when the graph runs its independent branches at once, as the driver does.
void CUDA_CB meet(void *ok)
{
    arrived++;
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (arrived.load() < 2 && std::chrono::steady_clock::now() < until)
        std::this_thread::yield();
    *static_cast<std::atomic<bool> *>(ok) = arrived.load() >= 2;
}

TEST_F(GraphThreads, IndependentBranches_RunAtOnceOnTheWorkerPool)
{
    ASSERT_GE(extmem_worker_count(), 2u) << "the test needs two workers (EXTMEM_WORKERS)";
    CUgraph g;
    ASSERT_OK(cuGraphCreate(&g, 0));
    std::atomic<bool> ok_a{false}, ok_b{false};
    CUDA_HOST_NODE_PARAMS a = {meet, &ok_a}, b = {meet, &ok_b};
    CUgraphNode root, na, nb, join;
    ASSERT_OK(cuGraphAddEmptyNode(&root, g, nullptr, 0));
    ASSERT_OK(cuGraphAddHostNode(&na, g, &root, 1, &a));
    ASSERT_OK(cuGraphAddHostNode(&nb, g, &root, 1, &b));
    CUgraphNode both[2] = {na, nb};
    inside = most = calls = 0;
    CUDA_HOST_NODE_PARAMS after = {one_at_a_time, nullptr};
    ASSERT_OK(cuGraphAddHostNode(&join, g, both, 2, &after));
    CUgraphExec x;
    ASSERT_OK(cuGraphInstantiate(&x, g, 0));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    for (int round = 0; round < 3; ++round) {
        arrived = 0;
        ok_a = ok_b = false;
        ASSERT_OK(cuGraphLaunch(x, s));
        ASSERT_OK(cuStreamSynchronize(s));
        EXPECT_TRUE(ok_a.load() && ok_b.load()) << "round " << round;
        EXPECT_EQ(calls.load(), round + 1); // the join ran after both
    }
    ASSERT_OK(cuGraphExecDestroy(x));
    ASSERT_OK(cuGraphDestroy(g));
    ASSERT_OK(cuStreamDestroy(s));
}

TEST_F(GraphThreads, OneExecLaunchedOnOneStreamFromTwoThreads_NeverWaitsForALaunchQueuedBehindIt)
{
    inside = most = calls = 0;
    CUgraph g;
    ASSERT_OK(cuGraphCreate(&g, 0));
    CUDA_HOST_NODE_PARAMS h = {one_at_a_time, nullptr};
    CUgraphNode a;
    ASSERT_OK(cuGraphAddHostNode(&a, g, nullptr, 0, &h));
    CUgraphExec x;
    ASSERT_OK(cuGraphInstantiate(&x, g, 0));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    std::atomic<int> errors{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t)
        threads.emplace_back([&] {
            cuCtxSetCurrent(ctx);
            for (int i = 0; i < 50; ++i)
                if (cuGraphLaunch(x, s))
                    errors++;
        });
    for (auto &t : threads)
        t.join();
    ASSERT_OK(cuStreamSynchronize(s)); // a launch's turn follows its place in the stream
    EXPECT_EQ(errors.load(), 0);
    EXPECT_EQ(calls.load(), 100);
    ASSERT_OK(cuGraphExecDestroy(x));
    ASSERT_OK(cuGraphDestroy(g));
    ASSERT_OK(cuStreamDestroy(s));
}

} // namespace
