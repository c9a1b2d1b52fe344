// Streams: ordered queues of work; the legacy and per-thread default streams.
#include "framework/testing.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace extmem_test;

using Stream = ContextTest;

namespace {

/* A host function that blocks its stream until the test opens the gate. */
struct Gate {
    std::atomic<bool> open{false};
    static void CUDA_CB wait(void *p)
    {
        auto *g = static_cast<Gate *>(p);
        while (!g->open.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
};

struct Log {
    std::vector<int> order;
    int next = 0;
};
struct Step {
    Log *log;
    int id;
    static void CUDA_CB run(void *p)
    {
        auto *s = static_cast<Step *>(p);
        s->log->order.push_back(s->id);
    }
};

} // namespace

TEST_F(Stream, CreateAndDestroy)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    unsigned int flags = 0;
    EXPECT_OK(cuStreamGetFlags(s, &flags));
    EXPECT_EQ((unsigned)CU_STREAM_NON_BLOCKING, flags);
    int prio = 7;
    EXPECT_OK(cuStreamGetPriority(s, &prio));
    EXPECT_EQ(0, prio);
    CUcontext c;
    EXPECT_OK(cuStreamGetCtx(s, &c));
    EXPECT_EQ(ctx, c);
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Stream, Create_BadArguments)
{
    CUstream s;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamCreate(&s, 2));
    EXPECT_DETAIL_HAS("only CU_STREAM_NON_BLOCKING");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamCreate(nullptr, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamCreateWithPriority(nullptr, 0, 0));
    ASSERT_OK(cuStreamCreateWithPriority(&s, 0, -5));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Stream, HostFunctions_RunInOrder)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    Log log;
    std::vector<Step> steps(100);
    for (int i = 0; i < 100; ++i) {
        steps[i] = {&log, i};
        ASSERT_OK(cuLaunchHostFunc(s, Step::run, &steps[i]));
    }
    ASSERT_OK(cuStreamSynchronize(s));
    ASSERT_EQ(100u, log.order.size());
    for (int i = 0; i < 100; ++i)
        EXPECT_EQ(i, log.order[i]);
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Stream, Query_IsNotReadyWhileWorkIsPending)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    Gate gate;
    ASSERT_OK(cuLaunchHostFunc(s, Gate::wait, &gate));
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(s));
    gate.open = true;
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_OK(cuStreamQuery(s));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Stream, Destroy_LetsQueuedWorkFinish)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    Gate gate;
    std::atomic<int> ran{0};
    ASSERT_OK(cuLaunchHostFunc(s, Gate::wait, &gate));
    ASSERT_OK(cuLaunchHostFunc(s, [](void *p) { ++*static_cast<std::atomic<int> *>(p); }, &ran));
    EXPECT_OK(cuStreamDestroy(s)); // returns at once
    EXPECT_EQ(0, ran.load());
    gate.open = true;
    for (int i = 0; i < 5000 && ran.load() == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_EQ(1, ran.load());
}

TEST_F(Stream, DestroyedOrForgedStreams_AreInvalidHandle)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    ASSERT_OK(cuStreamDestroy(s));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(s));
    EXPECT_DETAIL_HAS("was destroyed");
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamQuery(s));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamSynchronize(s));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamSynchronize((CUstream)0x4242));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(nullptr));
    EXPECT_DETAIL_HAS("default streams cannot be destroyed");
}

TEST_F(Stream, AStreamOfAnotherContext_IsRefused)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    CUcontext other;
    ASSERT_OK(cuCtxCreate(&other, nullptr, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamSynchronize(s));
    EXPECT_DETAIL_HAS("belongs to another context");
    ASSERT_OK(cuCtxDestroy(other));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Stream, LaunchHostFunc_NullIsInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchHostFunc(nullptr, nullptr, nullptr));
}

TEST_F(Stream, LegacyDefaultStream_WaitsForBlockingStreams)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    Gate gate;
    std::atomic<bool> blocked_done{false};
    ASSERT_OK(cuLaunchHostFunc(s, Gate::wait, &gate));
    std::thread opener([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        blocked_done = true;
        gate.open = true;
    });
    bool seen = false;
    ASSERT_OK(cuLaunchHostFunc(nullptr, [](void *p) { *static_cast<bool *>(p) = true; }, &seen));
    EXPECT_TRUE(seen);
    EXPECT_TRUE(blocked_done.load()); // the default stream ran only after the gate opened
    opener.join();
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Stream, LegacyDefaultStream_DoesNotWaitForNonBlockingStreams)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    Gate gate;
    ASSERT_OK(cuLaunchHostFunc(s, Gate::wait, &gate));
    bool seen = false;
    ASSERT_OK(cuLaunchHostFunc(CU_STREAM_LEGACY, [](void *p) { *static_cast<bool *>(p) = true; }, &seen));
    EXPECT_TRUE(seen);
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(s));
    gate.open = true;
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Stream, PerThreadDefaultStream_Works)
{
    bool seen = false;
    ASSERT_OK(cuLaunchHostFunc(CU_STREAM_PER_THREAD, [](void *p) { *static_cast<bool *>(p) = true; }, &seen));
    EXPECT_OK(cuStreamSynchronize(CU_STREAM_PER_THREAD));
    EXPECT_TRUE(seen);
    EXPECT_OK(cuStreamQuery(CU_STREAM_PER_THREAD));
}

TEST_F(Stream, CtxSynchronize_WaitsForEveryStream)
{
    std::vector<CUstream> streams(8);
    std::atomic<int> ran{0};
    for (auto &s : streams) {
        ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
        for (int i = 0; i < 10; ++i)
            ASSERT_OK(cuLaunchHostFunc(s, [](void *p) {
                std::this_thread::sleep_for(std::chrono::microseconds(200));
                ++*static_cast<std::atomic<int> *>(p);
            }, &ran));
    }
    EXPECT_OK(cuCtxSynchronize());
    EXPECT_EQ(80, ran.load());
    for (auto &s : streams)
        EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Stream, CtxDestroy_WithPendingWork_RunsItAndFreesTheStreams)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    std::atomic<int> ran{0};
    for (int i = 0; i < 10; ++i)
        ASSERT_OK(cuLaunchHostFunc(s, [](void *p) { ++*static_cast<std::atomic<int> *>(p); }, &ran));
    ASSERT_OK(cuCtxDestroy(ctx));
    ctx = nullptr;
    EXPECT_EQ(10, ran.load());
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(s));
}
