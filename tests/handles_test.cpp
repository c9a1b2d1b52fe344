// Every entry point that takes a handle answers freed, forged and wrong-type handles with an
// error code and a reason, never a crash (DESIGN.md §6).
#include "framework/testing.h"

#include <functional>
#include <string>
#include <vector>

using namespace extmem_test;

using Handles = ContextTest;

namespace {

struct Bad {
    const char *what;
    uintptr_t value;
};

/* Handle values no live object has: forged patterns, plus freed ones added by the test. */
std::vector<Bad> forged()
{
    return {{"small", 3},           {"odd", 0x11},          {"pointer-like", 0x7ffd12345678},
            {"all ones", ~uintptr_t(0)}, {"deadbeef", 0xdeadbeef}, {"huge slot", 0x0000000100fffff1}};
}

void call_all_stream_entry_points(CUstream s)
{
    CUdeviceptr d = 0;
    char host[8];
    unsigned int flags;
    int prio;
    CUcontext c;
    CUevent e;
    ASSERT_OK(cuEventCreate(&e, 0));
    std::vector<std::pair<const char *, std::function<CUresult()>>> calls = {
        {"cuStreamDestroy", [&] { return cuStreamDestroy(s); }},
        {"cuStreamSynchronize", [&] { return cuStreamSynchronize(s); }},
        {"cuStreamQuery", [&] { return cuStreamQuery(s); }},
        {"cuStreamGetFlags", [&] { return cuStreamGetFlags(s, &flags); }},
        {"cuStreamGetPriority", [&] { return cuStreamGetPriority(s, &prio); }},
        {"cuStreamGetCtx", [&] { return cuStreamGetCtx(s, &c); }},
        {"cuStreamWaitEvent", [&] { return cuStreamWaitEvent(s, e, 0); }},
        {"cuLaunchHostFunc", [&] { return cuLaunchHostFunc(s, [](void *) {}, nullptr); }},
        {"cuEventRecord", [&] { return cuEventRecord(e, s); }},
        {"cuMemcpyAsync", [&] { return cuMemcpyAsync((CUdeviceptr)host, (CUdeviceptr)host, 8, s); }},
        {"cuMemcpyHtoDAsync", [&] { return cuMemcpyHtoDAsync(d, host, 0, s); }},
        {"cuMemsetD8Async", [&] { return cuMemsetD8Async((CUdeviceptr)host, 0, 8, s); }},
        {"extmem_launch_kernel",
         [&] { return extmem_launch_kernel([](const extmem_block *, void *) {}, {1, 1, 1}, {1, 1, 1}, nullptr, 0, s); }},
    };
    for (auto &call : calls) {
        CUresult r = call.second();
        EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, r) << call.first << ": " << extmem_error_detail();
        EXPECT_NE(std::string(extmem_error_detail()).find(call.first), std::string::npos) << extmem_error_detail();
    }
    ASSERT_OK(cuEventDestroy(e));
}

void call_all_event_entry_points(CUevent e)
{
    CUevent good;
    ASSERT_OK(cuEventCreate(&good, 0));
    float ms;
    std::vector<std::pair<const char *, std::function<CUresult()>>> calls = {
        {"cuEventDestroy", [&] { return cuEventDestroy(e); }},
        {"cuEventQuery", [&] { return cuEventQuery(e); }},
        {"cuEventSynchronize", [&] { return cuEventSynchronize(e); }},
        {"cuEventRecord", [&] { return cuEventRecord(e, nullptr); }},
        {"cuEventRecordWithFlags", [&] { return cuEventRecordWithFlags(e, nullptr, 0); }},
        {"cuEventElapsedTime", [&] { return cuEventElapsedTime(&ms, e, good); }},
        {"cuEventElapsedTime", [&] { return cuEventElapsedTime(&ms, good, e); }},
        {"cuStreamWaitEvent", [&] { return cuStreamWaitEvent(nullptr, e, 0); }},
    };
    for (auto &call : calls) {
        CUresult r = call.second();
        EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, r) << call.first << ": " << extmem_error_detail();
    }
    ASSERT_OK(cuEventDestroy(good));
}

void call_all_context_entry_points(CUcontext c, CUresult expected = CUDA_ERROR_INVALID_CONTEXT)
{
    unsigned int v;
    std::vector<std::pair<const char *, std::function<CUresult()>>> calls = {
        {"cuCtxDestroy", [&] { return cuCtxDestroy(c); }},
        {"cuCtxSetCurrent", [&] { return cuCtxSetCurrent(c); }},
        {"cuCtxPushCurrent", [&] { return cuCtxPushCurrent(c); }},
        {"cuCtxGetApiVersion", [&] { return cuCtxGetApiVersion(c, &v); }},
    };
    for (auto &call : calls)
        EXPECT_EQ(expected, call.second()) << call.first << ": " << extmem_error_detail();
}

} // namespace

TEST_F(Handles, ForgedStreams_AreInvalidHandleEverywhere)
{
    for (auto &b : forged()) {
        SCOPED_TRACE(b.what);
        call_all_stream_entry_points((CUstream)b.value);
    }
}

TEST_F(Handles, DestroyedStreams_AreInvalidHandleEverywhere)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    ASSERT_OK(cuStreamDestroy(s));
    call_all_stream_entry_points(s);
}

TEST_F(Handles, EventsAndContextsPassedAsStreams_AreInvalidHandle)
{
    CUevent e;
    ASSERT_OK(cuEventCreate(&e, 0));
    call_all_stream_entry_points((CUstream)e);
    call_all_stream_entry_points((CUstream)ctx);
    ASSERT_OK(cuEventDestroy(e));
}

TEST_F(Handles, ForgedDestroyedAndWrongTypeEvents_AreInvalidHandleEverywhere)
{
    for (auto &b : forged())
        call_all_event_entry_points((CUevent)b.value);
    CUevent e;
    ASSERT_OK(cuEventCreate(&e, 0));
    ASSERT_OK(cuEventDestroy(e));
    call_all_event_entry_points(e);
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    call_all_event_entry_points((CUevent)s);
    ASSERT_OK(cuStreamDestroy(s));
}

TEST_F(Handles, ForgedDestroyedAndWrongTypeContexts_AreInvalidContextEverywhere)
{
    for (auto &b : forged())
        call_all_context_entry_points((CUcontext)b.value);
    CUcontext other;
    ASSERT_OK(cuCtxCreate(&other, nullptr, 0, 0));
    ASSERT_OK(cuCtxDestroy(other));
    call_all_context_entry_points(other, CUDA_ERROR_CONTEXT_IS_DESTROYED);
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    call_all_context_entry_points((CUcontext)s);
    ASSERT_OK(cuStreamDestroy(s));
}

TEST_F(Handles, AFreedSlotReusedByANewObject_DoesNotRevivetheOldHandle)
{
    CUstream a, b;
    ASSERT_OK(cuStreamCreate(&a, 0));
    ASSERT_OK(cuStreamDestroy(a));
    ASSERT_OK(cuStreamCreate(&b, 0)); // likely the same slot, a new generation
    EXPECT_NE(a, b);
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamQuery(a));
    EXPECT_OK(cuStreamQuery(b));
    EXPECT_OK(cuStreamDestroy(b));
}

TEST_F(Handles, GarbagePointersToMemoryCalls_AreErrorsNotCrashes)
{
    // Addresses unmapped in every process (also under AddressSanitizer, whose shadow memory
    // covers much of the upper address space).
    for (uintptr_t v : {uintptr_t(1), uintptr_t(0x1000), uintptr_t(0xdeadbeef), ~uintptr_t(0) - 4095}) {
        char host[16];
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree((CUdeviceptr)v));
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost((void *)v));
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(host, (CUdeviceptr)v, 16));
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD((CUdeviceptr)v, host, 16));
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD32((CUdeviceptr)(v & ~uintptr_t(3)), 0, 4));
        int type;
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, v));
    }
}
