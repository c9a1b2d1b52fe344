// Events: recording, querying, waiting across streams and timing.
#include "framework/testing.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace extmem_test;

using Event = ContextTest;

namespace {
struct Gate {
    std::atomic<bool> open{false};
    static void CUDA_CB wait(void *p)
    {
        auto *g = static_cast<Gate *>(p);
        while (!g->open.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
};
} // namespace

TEST_F(Event, Create_Flags)
{
    CUevent e;
    ASSERT_OK(cuEventCreate(&e, CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING));
    EXPECT_OK(cuEventDestroy(e));
    ASSERT_OK(cuEventCreate(&e, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
    EXPECT_OK(cuEventDestroy(e));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventCreate(&e, CU_EVENT_INTERPROCESS));
    EXPECT_DETAIL_HAS("needs CU_EVENT_DISABLE_TIMING");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventCreate(&e, 0x10));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventCreate(nullptr, 0));
}

TEST_F(Event, NeverRecorded_IsComplete)
{
    CUevent e;
    ASSERT_OK(cuEventCreate(&e, 0));
    EXPECT_OK(cuEventQuery(e));
    EXPECT_OK(cuEventSynchronize(e));
    EXPECT_OK(cuEventDestroy(e));
}

TEST_F(Event, Record_CompletesWhenTheWorkBeforeItHasRun)
{
    CUstream s;
    CUevent e;
    ASSERT_OK(cuStreamCreate(&s, 0));
    ASSERT_OK(cuEventCreate(&e, 0));
    Gate gate;
    ASSERT_OK(cuLaunchHostFunc(s, Gate::wait, &gate));
    ASSERT_OK(cuEventRecord(e, s));
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuEventQuery(e));
    gate.open = true;
    EXPECT_OK(cuEventSynchronize(e));
    EXPECT_OK(cuEventQuery(e));
    EXPECT_OK(cuEventDestroy(e));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Event, StreamWaitEvent_OrdersWorkAcrossStreams)
{
    CUstream producer, consumer;
    CUevent e;
    ASSERT_OK(cuStreamCreate(&producer, CU_STREAM_NON_BLOCKING));
    ASSERT_OK(cuStreamCreate(&consumer, CU_STREAM_NON_BLOCKING));
    ASSERT_OK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
    Gate gate;
    std::atomic<int> value{0};
    ASSERT_OK(cuLaunchHostFunc(producer, Gate::wait, &gate));
    ASSERT_OK(cuLaunchHostFunc(producer, [](void *p) { static_cast<std::atomic<int> *>(p)->store(1); }, &value));
    ASSERT_OK(cuEventRecord(e, producer));
    ASSERT_OK(cuStreamWaitEvent(consumer, e, 0));
    int seen = -1;
    struct Args { std::atomic<int> *v; int *seen; } args{&value, &seen};
    ASSERT_OK(cuLaunchHostFunc(consumer, [](void *p) {
        auto *a = static_cast<Args *>(p);
        *a->seen = a->v->load();
    }, &args));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(consumer));
    gate.open = true;
    EXPECT_OK(cuStreamSynchronize(consumer));
    EXPECT_EQ(1, seen);
    EXPECT_OK(cuEventDestroy(e));
    EXPECT_OK(cuStreamDestroy(producer));
    EXPECT_OK(cuStreamDestroy(consumer));
}

TEST_F(Event, StreamWaitEvent_BadArguments)
{
    CUstream s;
    CUevent e;
    ASSERT_OK(cuStreamCreate(&s, 0));
    ASSERT_OK(cuEventCreate(&e, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWaitEvent(s, e, 0x2));
    EXPECT_CU(CUDA_ERROR_ILLEGAL_STATE, cuStreamWaitEvent(s, e, CU_EVENT_WAIT_EXTERNAL)); // not capturing
    EXPECT_OK(cuStreamWaitEvent(s, e, 0)); // never recorded: nothing to wait for
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamWaitEvent(s, nullptr, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamWaitEvent(s, (CUevent)s, 0));
    EXPECT_DETAIL_HAS("is a stream handle, not an event handle");
    EXPECT_OK(cuEventDestroy(e));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Event, ElapsedTime_MeasuresTheWorkBetweenTwoEvents)
{
    CUstream s;
    CUevent start, end;
    ASSERT_OK(cuStreamCreate(&s, 0));
    ASSERT_OK(cuEventCreate(&start, 0));
    ASSERT_OK(cuEventCreate(&end, 0));
    ASSERT_OK(cuEventRecord(start, s));
    ASSERT_OK(cuLaunchHostFunc(s, [](void *) { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }, nullptr));
    ASSERT_OK(cuEventRecord(end, s));
    ASSERT_OK(cuEventSynchronize(end));
    float ms = 0;
    EXPECT_OK(cuEventElapsedTime(&ms, start, end));
    EXPECT_GE(ms, 19.0f);
    EXPECT_LT(ms, 5000.0f);
    EXPECT_OK(cuEventElapsedTime(&ms, start, start));
    EXPECT_EQ(0.0f, ms);
    EXPECT_OK(cuEventDestroy(start));
    EXPECT_OK(cuEventDestroy(end));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Event, ElapsedTime_Errors)
{
    CUevent a, b, nt;
    ASSERT_OK(cuEventCreate(&a, 0));
    ASSERT_OK(cuEventCreate(&b, 0));
    ASSERT_OK(cuEventCreate(&nt, CU_EVENT_DISABLE_TIMING));
    float ms;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, a, b));
    EXPECT_DETAIL_HAS("never been recorded");
    ASSERT_OK(cuEventRecord(a, nullptr));
    ASSERT_OK(cuEventRecord(nt, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, a, nt));
    EXPECT_DETAIL_HAS("CU_EVENT_DISABLE_TIMING");
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(nullptr, a, a)); // the driver's code
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    Gate gate;
    ASSERT_OK(cuLaunchHostFunc(s, Gate::wait, &gate));
    ASSERT_OK(cuEventRecord(b, s));
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuEventElapsedTime(&ms, a, b));
    gate.open = true;
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_OK(cuEventElapsedTime(&ms, a, b));
    for (CUevent e : {a, b, nt})
        EXPECT_OK(cuEventDestroy(e));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Event, DestroyedEvents_AreInvalidHandle)
{
    CUevent e;
    ASSERT_OK(cuEventCreate(&e, 0));
    ASSERT_OK(cuEventDestroy(e));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventDestroy(e));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventQuery(e));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventSynchronize(e));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventRecord(e, nullptr));
}

TEST_F(Event, RecordInAStreamOfAnotherContext_IsInvalidHandle)
{
    CUevent e;
    ASSERT_OK(cuEventCreate(&e, 0));
    CUcontext other;
    ASSERT_OK(cuCtxCreate(&other, nullptr, 0, 0));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventRecord(e, s));
    EXPECT_DETAIL_HAS("another context");
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuCtxDestroy(other));
    EXPECT_OK(cuEventDestroy(e));
}

TEST_F(Event, RecordWithFlags_AcceptsOnlyExternal)
{
    CUevent e;
    ASSERT_OK(cuEventCreate(&e, 0));
    EXPECT_OK(cuEventRecordWithFlags(e, nullptr, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventRecordWithFlags(e, nullptr, 2));
    EXPECT_OK(cuEventDestroy(e));
}
