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

// ---- Priorities, ids, the device and the context of a stream (docs/probes/surface/probe.out) ----

TEST_F(Stream, CreateWithPriority_IsClampedIntoTheRange)
{
    const int asked[] = {-100, 100, -3, -5, 0}, kept[] = {-5, 0, -3, -5, 0}; // the probe's -100 -> -5, 100 -> 0
    for (int i = 0; i < 5; ++i) {
        CUstream s;
        ASSERT_OK(cuStreamCreateWithPriority(&s, CU_STREAM_NON_BLOCKING, asked[i]));
        int prio = 99;
        EXPECT_OK(cuStreamGetPriority(s, &prio));
        EXPECT_EQ(kept[i], prio) << "asked " << asked[i];
        unsigned int flags = 0;
        EXPECT_OK(cuStreamGetFlags(s, &flags));
        EXPECT_EQ((unsigned)CU_STREAM_NON_BLOCKING, flags);
        EXPECT_OK(cuStreamDestroy(s));
    }
    int prio = 99;
    EXPECT_OK(cuStreamGetPriority(nullptr, &prio)); // the legacy stream: 0
    EXPECT_EQ(0, prio);
    CUstream s;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamCreateWithPriority(&s, 4, -1));
}

TEST_F(Stream, GetId_IsUniqueForEveryStreamTheDefaultOnesIncluded)
{
    CUstream a, b;
    ASSERT_OK(cuStreamCreate(&a, 0));
    ASSERT_OK(cuStreamCreate(&b, 0));
    unsigned long long ia = 0, ib = 0, legacy = 0, legacy2 = 0, ptds = 0, ptds2 = 0, ctx_id = 0;
    ASSERT_OK(cuStreamGetId(a, &ia));
    ASSERT_OK(cuStreamGetId(b, &ib));
    ASSERT_OK(cuStreamGetId(nullptr, &legacy));
    ASSERT_OK(cuStreamGetId(CU_STREAM_LEGACY, &legacy2));
    ASSERT_OK(cuStreamGetId(CU_STREAM_PER_THREAD, &ptds));
    ASSERT_OK(cuStreamGetId(CU_STREAM_PER_THREAD, &ptds2));
    ASSERT_OK(cuCtxGetId(ctx, &ctx_id));
    EXPECT_EQ(legacy, legacy2); // NULL and CU_STREAM_LEGACY are one stream
    EXPECT_EQ(ptds, ptds2);
    std::vector<unsigned long long> ids = {ia, ib, legacy, ptds, ctx_id};
    for (size_t i = 0; i < ids.size(); ++i)
        for (size_t j = i + 1; j < ids.size(); ++j)
            EXPECT_NE(ids[i], ids[j]) << i << " and " << j;
    unsigned long long other_thread = 0;
    std::thread t([&] {
        EXPECT_OK(cuCtxSetCurrent(ctx));
        EXPECT_OK(cuStreamGetId(CU_STREAM_PER_THREAD, &other_thread));
    });
    t.join();
    EXPECT_NE(0u, other_thread);
    EXPECT_NE(ptds, other_thread); // each thread's per-thread stream is its own
    EXPECT_OK(cuStreamDestroy(a));
    CUstream c;
    ASSERT_OK(cuStreamCreate(&c, 0));
    unsigned long long ic = 0;
    ASSERT_OK(cuStreamGetId(c, &ic));
    EXPECT_NE(ia, ic); // never reused
    EXPECT_GT(ic, ib);
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamGetId(a, &ia)); // destroyed
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamGetId(b, nullptr));
    EXPECT_OK(cuStreamDestroy(b));
    EXPECT_OK(cuStreamDestroy(c));
}

TEST_F(Stream, GetDeviceAndGetCtxV2_AnswerTheStreamsContext)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    CUdevice dev = 99;
    EXPECT_OK(cuStreamGetDevice(s, &dev));
    EXPECT_EQ(0, dev);
    dev = 99;
    EXPECT_OK(cuStreamGetDevice(nullptr, &dev));
    EXPECT_EQ(0, dev);
    CUcontext c = nullptr;
    CUgreenCtx g = reinterpret_cast<CUgreenCtx>(1);
    EXPECT_OK(cuStreamGetCtx_v2(s, &c, &g));
    EXPECT_EQ(ctx, c);
    EXPECT_EQ(nullptr, g); // no green contexts
    EXPECT_OK(cuStreamGetCtx_v2(CU_STREAM_PER_THREAD, &c, &g));
    EXPECT_EQ(ctx, c);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamGetCtx_v2(s, nullptr, &g));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamGetCtx_v2(s, &c, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamGetDevice(s, nullptr));
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamGetDevice(s, &dev));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamGetCtx_v2(s, &c, &g));
}

// The per-thread forms, which the public header declares only for code built with
// CUDA_API_PER_THREAD_DEFAULT_STREAM (the names it renames the calls to).
extern "C" {
CUresult CUDAAPI cuStreamGetId_ptsz(CUstream hStream, unsigned long long *streamId);
CUresult CUDAAPI cuStreamGetDevice_ptsz(CUstream hStream, CUdevice *device);
CUresult CUDAAPI cuStreamGetCtx_v2_ptsz(CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx);
}

TEST_F(Stream, PerThreadForms_TakeNullAsThePerThreadStream)
{
    unsigned long long a = 0, b = 0;
    EXPECT_OK(cuStreamGetId_ptsz(nullptr, &a));
    EXPECT_OK(cuStreamGetId(CU_STREAM_PER_THREAD, &b));
    EXPECT_EQ(a, b);
    CUdevice dev = 99;
    EXPECT_OK(cuStreamGetDevice_ptsz(nullptr, &dev));
    EXPECT_EQ(0, dev);
    CUcontext c = nullptr;
    CUgreenCtx g;
    EXPECT_OK(cuStreamGetCtx_v2_ptsz(nullptr, &c, &g));
    EXPECT_EQ(ctx, c);
}
