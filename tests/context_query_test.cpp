// What a context answers and keeps (issue 22): the usage count (cuCtxAttach / cuCtxDetach), ids,
// flags, cache and shared memory preferences, stream priorities, events across the whole
// context, execution affinity, peer access, the profiler, and cuLibraryGetKernel's error state.
// NVIDIA's answers: docs/probes/surface/probe.out.
#include "framework/testing.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace extmem_test;

using ContextQuery = ContextTest;

namespace {

CUcontext forged() { return reinterpret_cast<CUcontext>(static_cast<uintptr_t>(0xdead0000)); }

} // namespace

// ---- cuCtxAttach / cuCtxDetach ----

TEST_F(ContextQuery, Attach_ReturnsTheCurrentContext_AndDetachDropsTheUse)
{
    CUcontext attached = nullptr;
    ASSERT_OK(cuCtxAttach(&attached, 0));
    EXPECT_EQ(ctx, attached);
    EXPECT_OK(cuCtxDetach(ctx)); // back to the creator's use: the context lives on
    CUcontext cur = nullptr;
    EXPECT_OK(cuCtxGetCurrent(&cur));
    EXPECT_EQ(ctx, cur);
    unsigned int v = 0;
    EXPECT_OK(cuCtxGetApiVersion(ctx, &v));
}

TEST_F(ContextQuery, Attach_BadArguments)
{
    CUcontext attached = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxAttach(&attached, 1)); // the probe's cases
    EXPECT_DETAIL_HAS("must be 0");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxAttach(nullptr, 0));
    CUcontext popped;
    ASSERT_OK(cuCtxPopCurrent(&popped));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxAttach(&attached, 0)); // none current
    ASSERT_OK(cuCtxPushCurrent(popped));
}

TEST_F(ContextQuery, Detach_BadArguments_IsInvalidContext)
{
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxDetach(nullptr)); // the probe's case
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxDetach(forged()));
    CUcontext other;
    ASSERT_OK(cuCtxCreate(&other, nullptr, 0, 0));
    CUcontext popped;
    ASSERT_OK(cuCtxPopCurrent(&popped));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxDetach(other)); // not current
    EXPECT_DETAIL_HAS("not current");
    EXPECT_OK(cuCtxDestroy(other));
}

TEST_F(ContextQuery, DetachOfTheLastUse_DestroysACreatedContext)
{
    CUcontext other;
    ASSERT_OK(cuCtxCreate(&other, nullptr, 0, 0));
    EXPECT_OK(cuCtxDetach(other));
    EXPECT_CU(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxDestroy(other));
    CUcontext cur = nullptr;
    EXPECT_OK(cuCtxGetCurrent(&cur));
    EXPECT_EQ(ctx, cur); // popped, as cuCtxDestroy pops
}

TEST_F(ContextQuery, PrimaryContext_DetachesOnlyWhatWasAttached)
{
    CUcontext primary, attached;
    ASSERT_OK(cuDevicePrimaryCtxRetain(&primary, 0));
    ASSERT_OK(cuCtxPushCurrent(primary));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxDetach(primary));
    ASSERT_OK(cuCtxAttach(&attached, 0));
    EXPECT_EQ(primary, attached);
    EXPECT_OK(cuCtxDetach(primary));
    int active = 0;
    unsigned int flags;
    EXPECT_OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    EXPECT_EQ(1, active); // never destroyed by a detach
    CUcontext popped;
    ASSERT_OK(cuCtxPopCurrent(&popped));
    EXPECT_OK(cuDevicePrimaryCtxRelease(0));
}

// ---- Ids ----

TEST_F(ContextQuery, GetId_IsUniqueAndNullMeansTheCurrentContext)
{
    unsigned long long id = 0, cur = 0, other_id = 0;
    ASSERT_OK(cuCtxGetId(ctx, &id));
    EXPECT_NE(0u, id);
    ASSERT_OK(cuCtxGetId(nullptr, &cur));
    EXPECT_EQ(id, cur);
    CUcontext other;
    ASSERT_OK(cuCtxCreate(&other, nullptr, 0, 0));
    ASSERT_OK(cuCtxGetId(other, &other_id));
    EXPECT_NE(id, other_id);
    EXPECT_OK(cuCtxDestroy(other));
    CUcontext again;
    unsigned long long again_id = 0;
    ASSERT_OK(cuCtxCreate(&again, nullptr, 0, 0));
    ASSERT_OK(cuCtxGetId(again, &again_id));
    EXPECT_NE(other_id, again_id); // never reused
    EXPECT_OK(cuCtxDestroy(again));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetId(ctx, nullptr));
    EXPECT_CU(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxGetId(other, &id));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetId(forged(), &id));
}

// ---- Flags and preferences ----

TEST_F(ContextQuery, SetFlags_ReplacesTheFlags)
{
    unsigned int flags = 99;
    ASSERT_OK(cuCtxGetFlags(&flags));
    EXPECT_EQ(0u, flags); // the probe: a context created with 0 says 0
    EXPECT_OK(cuCtxSetFlags(CU_CTX_SCHED_BLOCKING_SYNC));
    ASSERT_OK(cuCtxGetFlags(&flags));
    EXPECT_EQ((unsigned)CU_CTX_SCHED_BLOCKING_SYNC, flags);
    EXPECT_OK(cuCtxSetFlags(CU_CTX_MAP_HOST));
    ASSERT_OK(cuCtxGetFlags(&flags));
    EXPECT_EQ((unsigned)CU_CTX_MAP_HOST, flags);
    EXPECT_OK(cuCtxSetFlags(CU_CTX_SCHED_AUTO));
    ASSERT_OK(cuCtxGetFlags(&flags));
    EXPECT_EQ(0u, flags);
}

TEST_F(ContextQuery, SetFlags_UnknownBitsOrTwoPolicies_IsInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxSetFlags(0x80000)); // the probe's case
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxSetFlags(CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD));
    unsigned int flags = 99;
    ASSERT_OK(cuCtxGetFlags(&flags));
    EXPECT_EQ(0u, flags); // unchanged
}

TEST_F(ContextQuery, SetFlagsOnThePrimary_IsWhatGetStateAnswers)
{
    CUcontext primary;
    ASSERT_OK(cuDevicePrimaryCtxRetain(&primary, 0));
    ASSERT_OK(cuCtxPushCurrent(primary));
    EXPECT_OK(cuCtxSetFlags(CU_CTX_SCHED_YIELD | CU_CTX_MAP_HOST));
    unsigned int flags = 0;
    int active = 0;
    EXPECT_OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    EXPECT_EQ((unsigned)CU_CTX_SCHED_YIELD, flags);
    EXPECT_OK(cuCtxGetFlags(&flags));
    EXPECT_EQ((unsigned)(CU_CTX_SCHED_YIELD | CU_CTX_MAP_HOST), flags); // MAP_HOST always reported there
    CUcontext popped;
    ASSERT_OK(cuCtxPopCurrent(&popped));
    EXPECT_OK(cuDevicePrimaryCtxReset(0));
    EXPECT_OK(cuDevicePrimaryCtxRelease(0));
}

TEST_F(ContextQuery, CacheConfig_IsKeptAndChecked)
{
    CUfunc_cache cc = (CUfunc_cache)99;
    ASSERT_OK(cuCtxGetCacheConfig(&cc));
    EXPECT_EQ(CU_FUNC_CACHE_PREFER_NONE, cc);
    EXPECT_OK(cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_SHARED));
    ASSERT_OK(cuCtxGetCacheConfig(&cc));
    EXPECT_EQ(CU_FUNC_CACHE_PREFER_SHARED, cc);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxSetCacheConfig((CUfunc_cache)7)); // the probe's case
    ASSERT_OK(cuCtxGetCacheConfig(&cc));
    EXPECT_EQ(CU_FUNC_CACHE_PREFER_SHARED, cc);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetCacheConfig(nullptr));
}

TEST_F(ContextQuery, SharedMemConfig_ReadsBackFourByteBanksWhateverIsSet)
{
    CUsharedconfig sc = (CUsharedconfig)99;
    ASSERT_OK(cuCtxGetSharedMemConfig(&sc));
    EXPECT_EQ(CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE, sc);
    EXPECT_OK(cuCtxSetSharedMemConfig(CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE));
    ASSERT_OK(cuCtxGetSharedMemConfig(&sc));
    EXPECT_EQ(CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE, sc); // as the H100 answers
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxSetSharedMemConfig((CUsharedconfig)9));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetSharedMemConfig(nullptr));
}

TEST_F(ContextQuery, StreamPriorityRange_IsZeroToMinusFive)
{
    int least = 99, greatest = 99;
    ASSERT_OK(cuCtxGetStreamPriorityRange(&least, &greatest));
    EXPECT_EQ(0, least);
    EXPECT_EQ(-5, greatest);
    EXPECT_OK(cuCtxGetStreamPriorityRange(nullptr, nullptr));
    EXPECT_OK(cuCtxGetStreamPriorityRange(&least, nullptr));
}

TEST_F(ContextQuery, ResetPersistingL2Cache_Succeeds)
{
    EXPECT_OK(cuCtxResetPersistingL2Cache());
}

TEST_F(ContextQuery, ExecAffinity_IsTheDevicesMultiprocessorCount)
{
    CUexecAffinityParam aff;
    aff.param.smCount.val = 0;
    ASSERT_OK(cuCtxGetExecAffinity(&aff, CU_EXEC_AFFINITY_TYPE_SM_COUNT));
    int sms = 0;
    ASSERT_OK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
    EXPECT_EQ((unsigned)sms, aff.param.smCount.val);
    EXPECT_EQ(CU_EXEC_AFFINITY_TYPE_SM_COUNT, aff.type);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetExecAffinity(nullptr, CU_EXEC_AFFINITY_TYPE_SM_COUNT));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetExecAffinity(&aff, CU_EXEC_AFFINITY_TYPE_MAX));
}

TEST_F(ContextQuery, GetDeviceV2AndSynchronizeV2_TakeTheContextOrNull)
{
    CUdevice dev = -1;
    EXPECT_OK(cuCtxGetDevice_v2(&dev, ctx));
    EXPECT_EQ(0, dev);
    dev = -1;
    EXPECT_OK(cuCtxGetDevice_v2(&dev, nullptr));
    EXPECT_EQ(0, dev);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetDevice_v2(nullptr, ctx));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetDevice_v2(&dev, forged()));
    EXPECT_OK(cuCtxSynchronize_v2(ctx));
    EXPECT_OK(cuCtxSynchronize_v2(nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxSynchronize_v2(forged()));
}

// ---- Events across the context ----

namespace {

struct Gate {
    std::atomic<bool> open{false};
    std::atomic<int> ran{0};
};

void CUDA_CB wait_gate(void *p)
{
    Gate *g = static_cast<Gate *>(p);
    while (!g->open.load())
        std::this_thread::yield();
    g->ran++;
}

void CUDA_CB open_gate_later(void *p)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    static_cast<Gate *>(p)->open = true;
}

} // namespace

TEST_F(ContextQuery, RecordEvent_CompletesOnceEveryStreamRanItsWork)
{
    CUstream a, b;
    ASSERT_OK(cuStreamCreate(&a, 0));
    ASSERT_OK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
    Gate ga, gb;
    ASSERT_OK(cuLaunchHostFunc(a, wait_gate, &ga));
    ASSERT_OK(cuLaunchHostFunc(b, wait_gate, &gb));
    CUevent ev;
    ASSERT_OK(cuEventCreate(&ev, 0));
    ASSERT_OK(cuCtxRecordEvent(ctx, ev));
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuEventQuery(ev));
    ga.open = true;
    ASSERT_OK(cuStreamSynchronize(a));
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuEventQuery(ev)); // b (non-blocking) is part of the context too
    gb.open = true;
    EXPECT_OK(cuEventSynchronize(ev));
    EXPECT_EQ(1, gb.ran.load());
    EXPECT_OK(cuEventDestroy(ev));
    EXPECT_OK(cuStreamDestroy(a));
    EXPECT_OK(cuStreamDestroy(b));
}

TEST_F(ContextQuery, RecordEvent_IdleContext_CompletesAtOnce)
{
    CUevent ev;
    ASSERT_OK(cuEventCreate(&ev, 0));
    ASSERT_OK(cuCtxRecordEvent(ctx, ev));
    EXPECT_OK(cuEventQuery(ev));
    float ms = -1;
    CUevent start;
    ASSERT_OK(cuEventCreate(&start, 0));
    ASSERT_OK(cuEventRecord(start, nullptr));
    ASSERT_OK(cuCtxRecordEvent(ctx, ev));
    EXPECT_OK(cuEventElapsedTime(&ms, start, ev)); // a timed record, as cuEventRecord's
    EXPECT_GE(ms, 0.0f);
    EXPECT_OK(cuEventDestroy(start));
    EXPECT_OK(cuEventDestroy(ev));
}

TEST_F(ContextQuery, WaitEvent_LaterWorkFollowsTheEvent)
{
    CUstream a, b, c;
    ASSERT_OK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    ASSERT_OK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
    Gate g;
    ASSERT_OK(cuLaunchHostFunc(a, wait_gate, &g));
    CUevent ev;
    ASSERT_OK(cuEventCreate(&ev, 0));
    ASSERT_OK(cuEventRecord(ev, a));
    ASSERT_OK(cuLaunchHostFunc(b, open_gate_later, &g)); // opens it from b's worker
    EXPECT_OK(cuCtxWaitEvent(ctx, ev));
    EXPECT_EQ(1, g.ran.load()); // returned once the event completed
    ASSERT_OK(cuStreamCreate(&c, CU_STREAM_NON_BLOCKING)); // a stream made later is after it too
    EXPECT_OK(cuEventQuery(ev));
    EXPECT_OK(cuCtxSynchronize());
    EXPECT_OK(cuStreamDestroy(a));
    EXPECT_OK(cuStreamDestroy(b));
    EXPECT_OK(cuStreamDestroy(c));
    EXPECT_OK(cuEventDestroy(ev));
}

TEST_F(ContextQuery, RecordAndWaitEvent_BadArguments)
{
    CUevent ev;
    ASSERT_OK(cuEventCreate(&ev, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxRecordEvent(nullptr, ev)); // the probe's case
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxWaitEvent(nullptr, ev));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxRecordEvent(forged(), ev));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuCtxRecordEvent(ctx, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuCtxWaitEvent(ctx, reinterpret_cast<CUevent>(ctx)));
    CUcontext other;
    ASSERT_OK(cuCtxCreate(&other, nullptr, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuCtxRecordEvent(other, ev)); // an event of another context
    EXPECT_DETAIL_HAS("another context");
    EXPECT_OK(cuCtxDestroy(other));
    EXPECT_OK(cuEventDestroy(ev));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuCtxRecordEvent(ctx, ev)); // destroyed
}

// ---- Peer access: one device ----

TEST_F(ContextQuery, PeerAccess_IsUnsupportedAndNeverEnabled)
{
    EXPECT_CU(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, cuCtxEnablePeerAccess(ctx, 0)); // the probe's cases
    EXPECT_CU(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, cuCtxDisablePeerAccess(ctx));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxEnablePeerAccess(ctx, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxEnablePeerAccess(nullptr, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxDisablePeerAccess(forged()));
}

// ---- Profiler ----

TEST_F(ContextQuery, Profiler_StartAndStopSucceed_InitializeIsNotSupported)
{
    EXPECT_OK(cuProfilerStart());
    EXPECT_OK(cuProfilerStop());
    EXPECT_OK(cuProfilerStop()); // twice, as the probe
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuProfilerInitialize("cfg", "out", CU_OUT_CSV));
    CUcontext popped;
    ASSERT_OK(cuCtxPopCurrent(&popped));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuProfilerStart()); // no context current
    ASSERT_OK(cuCtxPushCurrent(popped));
}

// ---- cuLibraryGetKernel leaves no error behind when it succeeds ----

TEST_F(ContextQuery, LibraryGetKernel_Found_LeavesNoErrorRecorded)
{
    const char *ptx = ".version 7.5\n.target sm_75\n.address_size 64\n"
                      ".visible .entry first() { ret; }\n.visible .entry second() { ret; }\n";
    CUlibrary lib;
    ASSERT_OK(cuLibraryLoadData(&lib, ptx, nullptr, nullptr, 0, nullptr, nullptr, 0));
    extmem_error_clear();
    CUkernel k;
    ASSERT_OK(cuLibraryGetKernel(&k, lib, "second"));
    EXPECT_EQ(CUDA_SUCCESS, extmem_error_code()) << extmem_error_detail();
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuLibraryGetKernel(&k, lib, "third"));
    EXPECT_DETAIL_HAS("no kernel named \"third\"");
    EXPECT_OK(cuLibraryUnload(lib));
}

TEST_F(ContextQuery, KernelParamInfoAndCacheConfig_AreTheFunctions)
{
    const char *ptx = ".version 7.5\n.target sm_75\n.address_size 64\n"
                      ".visible .entry k(.param .u64 p, .param .u32 v) { ret; }\n";
    CUlibrary lib;
    ASSERT_OK(cuLibraryLoadData(&lib, ptx, nullptr, nullptr, 0, nullptr, nullptr, 0));
    CUkernel k;
    ASSERT_OK(cuLibraryGetKernel(&k, lib, "k"));
    size_t off = 99, sz = 99;
    ASSERT_OK(cuKernelGetParamInfo(k, 1, &off, &sz));
    EXPECT_EQ(8u, off);
    EXPECT_EQ(4u, sz);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuKernelGetParamInfo(k, 2, &off, &sz));
    EXPECT_OK(cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_L1, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuKernelSetCacheConfig(k, (CUfunc_cache)5, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_L1, 1));
    EXPECT_OK(cuLibraryUnload(lib));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuKernelGetParamInfo(k, 0, &off, &sz));
}
