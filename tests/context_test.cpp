// Contexts: creation, the current-context stack, the primary context, destruction.
#include "framework/testing.h"

#include <thread>

using namespace extmem_test;

class Context : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_OK(cuInit(0)); }
};

TEST_F(Context, Create_MakesItCurrent_AndDestroyPopsIt)
{
    CUcontext ctx = nullptr, cur = nullptr;
    ASSERT_OK(cuCtxCreate(&ctx, nullptr, 0, 0));
    EXPECT_NE(nullptr, ctx);
    EXPECT_OK(cuCtxGetCurrent(&cur));
    EXPECT_EQ(ctx, cur);
    EXPECT_OK(cuCtxDestroy(ctx));
    EXPECT_OK(cuCtxGetCurrent(&cur));
    EXPECT_EQ(nullptr, cur);
}

TEST_F(Context, Create_BadArguments)
{
    CUcontext ctx;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxCreate(nullptr, nullptr, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxCreate(&ctx, nullptr, 0x100, 0));
    EXPECT_DETAIL_HAS("CU_CTX_FLAGS_MASK");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxCreate(&ctx, nullptr, CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuCtxCreate(&ctx, nullptr, 0, 1));
    CUctxCreateParams params{};
    params.numExecAffinityParams = 1;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuCtxCreate(&ctx, &params, 0, 0));
}

TEST_F(Context, OlderCreateVariants_Work)
{
    CUcontext a, b;
    ASSERT_OK(cuCtxCreate_v2(&a, CU_CTX_SCHED_BLOCKING_SYNC, 0));
    unsigned int flags = 0;
    EXPECT_OK(cuCtxGetFlags(&flags));
    EXPECT_EQ((unsigned)CU_CTX_SCHED_BLOCKING_SYNC, flags); // a created context's flags as given
    ASSERT_OK(cuCtxCreate_v3(&b, nullptr, 0, 0, 0));
    EXPECT_OK(cuCtxDestroy(b));
    EXPECT_OK(cuCtxDestroy(a));
}

TEST_F(Context, DestroyTwice_IsContextIsDestroyed)
{
    CUcontext ctx;
    ASSERT_OK(cuCtxCreate(&ctx, nullptr, 0, 0));
    ASSERT_OK(cuCtxDestroy(ctx));
    EXPECT_CU(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxDestroy(ctx));
    EXPECT_DETAIL_HAS("was destroyed");
}

TEST_F(Context, ForgedHandles_AreInvalidContext)
{
    for (uintptr_t v : {uintptr_t(1), uintptr_t(0xdeadbeef), uintptr_t(0x12345678abcdULL), ~uintptr_t(0)}) {
        EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxDestroy((CUcontext)v));
        EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetCurrent((CUcontext)v));
        EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxPushCurrent((CUcontext)v));
    }
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxPushCurrent(nullptr));
}

// NVIDIA's driver answers a NULL context with INVALID_VALUE, not INVALID_CONTEXT
// (docs/probes/surface/probe.out), before cuInit as after.
TEST_F(Context, DestroyNull_IsInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxDestroy(nullptr));
    EXPECT_DETAIL_HAS("ctx is NULL");
}

EXTMEM_CHILD_ROLE(ctx_destroy_null_before_init)
{
    (void)args;
    printf("%d\n", (int)cuCtxDestroy(nullptr));
    return 0;
}

TEST(ContextProcess, DestroyNullBeforeCuInit_IsInvalidValue)
{
    Child child("ctx_destroy_null_before_init");
    EXPECT_EQ(std::to_string((int)CUDA_ERROR_INVALID_VALUE), child.read_line());
    EXPECT_EQ(0, child.wait());
}

#if !defined(_WIN32)
// The unsuffixed symbols binaries built before CUDA 4.0 ask for (the header renames the calls,
// so they are reached by their symbol names, as such a binary's loader reaches them).
extern "C" CUresult CUDAAPI legacy_cuCtxCreate(CUcontext *, unsigned int, CUdevice) __asm__("cuCtxCreate");
extern "C" CUresult CUDAAPI legacy_cuCtxDestroy(CUcontext) __asm__("cuCtxDestroy");
extern "C" CUresult CUDAAPI legacy_cuCtxPushCurrent(CUcontext) __asm__("cuCtxPushCurrent");
extern "C" CUresult CUDAAPI legacy_cuCtxPopCurrent(CUcontext *) __asm__("cuCtxPopCurrent");
extern "C" CUresult CUDAAPI legacy_cuDeviceTotalMem(unsigned int *, CUdevice) __asm__("cuDeviceTotalMem");

TEST_F(Context, UnsuffixedSymbols_WorkAsTheirV2Forms)
{
    CUcontext ctx = nullptr, popped = nullptr;
    ASSERT_OK(legacy_cuCtxCreate(&ctx, CU_CTX_SCHED_YIELD, 0));
    EXPECT_OK(legacy_cuCtxPopCurrent(&popped));
    EXPECT_EQ(ctx, popped);
    EXPECT_OK(legacy_cuCtxPushCurrent(ctx));
    unsigned int total = 0;
    EXPECT_OK(legacy_cuDeviceTotalMem(&total, 0));
    EXPECT_GT(total, 0u);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, legacy_cuDeviceTotalMem(nullptr, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, legacy_cuDeviceTotalMem(&total, 3));
    EXPECT_OK(legacy_cuCtxDestroy(ctx));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, legacy_cuCtxDestroy(nullptr));
}
#endif

TEST_F(Context, AStreamHandle_IsNotAContext)
{
    CUcontext ctx;
    CUstream s;
    ASSERT_OK(cuCtxCreate(&ctx, nullptr, 0, 0));
    ASSERT_OK(cuStreamCreate(&s, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxDestroy((CUcontext)s));
    EXPECT_DETAIL_HAS("is a stream handle, not a context handle");
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuCtxDestroy(ctx));
}

TEST_F(Context, PushAndPop_FollowAStack)
{
    CUcontext a, b, out;
    ASSERT_OK(cuCtxCreate(&a, nullptr, 0, 0));
    ASSERT_OK(cuCtxCreate(&b, nullptr, 0, 0)); // b is now on top of a
    EXPECT_OK(cuCtxPopCurrent(&out));
    EXPECT_EQ(b, out);
    EXPECT_OK(cuCtxGetCurrent(&out));
    EXPECT_EQ(a, out);
    EXPECT_OK(cuCtxPushCurrent(b));
    EXPECT_OK(cuCtxGetCurrent(&out));
    EXPECT_EQ(b, out);
    EXPECT_OK(cuCtxPopCurrent(nullptr));
    EXPECT_OK(cuCtxPopCurrent(&out));
    EXPECT_EQ(a, out);
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxPopCurrent(&out));
    EXPECT_DETAIL_HAS("stack is empty");
    EXPECT_OK(cuCtxDestroy(a));
    EXPECT_OK(cuCtxDestroy(b));
}

TEST_F(Context, SetCurrentNull_PopsTheTop)
{
    CUcontext ctx, out;
    ASSERT_OK(cuCtxCreate(&ctx, nullptr, 0, 0));
    EXPECT_OK(cuCtxSetCurrent(nullptr));
    EXPECT_OK(cuCtxGetCurrent(&out));
    EXPECT_EQ(nullptr, out);
    EXPECT_OK(cuCtxSetCurrent(nullptr)); // an empty stack: nothing to do
    EXPECT_OK(cuCtxSetCurrent(ctx));
    EXPECT_OK(cuCtxGetCurrent(&out));
    EXPECT_EQ(ctx, out);
    EXPECT_OK(cuCtxDestroy(ctx));
}

TEST_F(Context, CallsWithoutACurrentContext_AreInvalidContext)
{
    CUdeviceptr p;
    CUdevice dev;
    CUstream s;
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemAlloc(&p, 16));
    EXPECT_DETAIL_HAS("no context is current");
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxSynchronize());
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetDevice(&dev));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuStreamCreate(&s, 0));
}

TEST_F(Context, CurrentIsPerThread)
{
    CUcontext ctx;
    ASSERT_OK(cuCtxCreate(&ctx, nullptr, 0, 0));
    CUcontext seen = (CUcontext)1;
    std::thread([&] { cuCtxGetCurrent(&seen); }).join();
    EXPECT_EQ(nullptr, seen);
    EXPECT_OK(cuCtxDestroy(ctx));
}

TEST_F(Context, ACurrentContextDestroyedByAnotherThread_IsReportedAsDestroyed)
{
    CUcontext ctx;
    ASSERT_OK(cuCtxCreate(&ctx, nullptr, 0, 0));
    CUresult r = CUDA_ERROR_UNKNOWN;
    std::thread([&] { r = cuCtxDestroy(ctx); }).join();
    EXPECT_OK(r);
    CUdeviceptr p;
    EXPECT_CU(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuMemAlloc(&p, 16));
    EXPECT_DETAIL_HAS("the current context");
    EXPECT_DETAIL_HAS("was destroyed");
}

TEST_F(Context, Destroy_FreesItsAllocations)
{
    CUcontext ctx;
    CUdeviceptr p;
    ASSERT_OK(cuCtxCreate(&ctx, nullptr, 0, 0));
    ASSERT_OK(cuMemAlloc(&p, 1 << 20));
    int before = open_fd_count();
    EXPECT_OK(cuCtxDestroy(ctx));
    EXPECT_EQ(before - 1, open_fd_count()); // the allocation's memfd is closed
    CUmemorytype type;
    CUpointer_attribute attr = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
    void *data[] = {&type};
    EXPECT_OK(cuPointerGetAttributes(1, &attr, data, p));
    EXPECT_EQ(0, (int)type);
}

TEST_F(Context, GetDeviceFlagsAndApiVersion)
{
    CUcontext ctx;
    ASSERT_OK(cuCtxCreate(&ctx, nullptr, CU_CTX_SCHED_SPIN, 0));
    CUdevice dev = -1;
    unsigned int flags = 0, version = 0;
    EXPECT_OK(cuCtxGetDevice(&dev));
    EXPECT_EQ(0, dev);
    EXPECT_OK(cuCtxGetFlags(&flags));
    EXPECT_EQ((unsigned)CU_CTX_SCHED_SPIN, flags);
    EXPECT_OK(cuCtxGetApiVersion(ctx, &version));
    EXPECT_EQ(3020u, version);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetDevice(nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetFlags(nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetApiVersion(ctx, nullptr));
    EXPECT_OK(cuCtxSynchronize());
    EXPECT_OK(cuCtxDestroy(ctx));
}

TEST_F(Context, Primary_RetainReleaseAndState)
{
    unsigned int flags = 99;
    int active = 99;
    EXPECT_OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    EXPECT_EQ(0, active);
    CUcontext p1, p2;
    ASSERT_OK(cuDevicePrimaryCtxRetain(&p1, 0));
    ASSERT_OK(cuDevicePrimaryCtxRetain(&p2, 0));
    EXPECT_EQ(p1, p2);
    EXPECT_OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    EXPECT_EQ(1, active);
    EXPECT_OK(cuDevicePrimaryCtxRelease(0));
    EXPECT_OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    EXPECT_EQ(1, active);
    EXPECT_OK(cuDevicePrimaryCtxRelease(0));
    EXPECT_OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    EXPECT_EQ(0, active);
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuDevicePrimaryCtxRelease(0));
    EXPECT_DETAIL_HAS("not retained");
}

TEST_F(Context, Primary_CannotBeDestroyedWithCtxDestroy)
{
    CUcontext p;
    ASSERT_OK(cuDevicePrimaryCtxRetain(&p, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxDestroy(p));
    EXPECT_DETAIL_HAS("primary context");
    EXPECT_OK(cuDevicePrimaryCtxRelease(0));
}

TEST_F(Context, Primary_RetainDoesNotMakeItCurrent)
{
    CUcontext p, cur = (CUcontext)1;
    ASSERT_OK(cuDevicePrimaryCtxRetain(&p, 0));
    EXPECT_OK(cuCtxGetCurrent(&cur));
    EXPECT_EQ(nullptr, cur);
    EXPECT_OK(cuDevicePrimaryCtxRelease(0));
}

TEST_F(Context, Primary_ResetFreesItsMemoryAndKeepsItsHandle)
{
    CUcontext p, again, cur;
    CUdeviceptr mem;
    ASSERT_OK(cuDevicePrimaryCtxRetain(&p, 0));
    ASSERT_OK(cuCtxSetCurrent(p));
    ASSERT_OK(cuMemAlloc(&mem, 4096));
    int before = open_fd_count();
    EXPECT_OK(cuDevicePrimaryCtxReset(0));
    EXPECT_EQ(before - 1, open_fd_count());
    int active = 1;
    unsigned int flags;
    EXPECT_OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    EXPECT_EQ(0, active);
    EXPECT_OK(cuCtxGetCurrent(&cur)); // still current, but inactive
    EXPECT_EQ(p, cur);
    EXPECT_CU(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuMemAlloc(&mem, 4096));
    EXPECT_DETAIL_HAS("retain it again");
    ASSERT_OK(cuDevicePrimaryCtxRetain(&again, 0));
    EXPECT_EQ(p, again); // the same handle, active again
    EXPECT_OK(cuMemAlloc(&mem, 4096));
    EXPECT_OK(cuMemFree(mem));
    EXPECT_OK(cuDevicePrimaryCtxRelease(0)); // the reset did not drop the first retain
    EXPECT_OK(cuDevicePrimaryCtxRelease(0));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuDevicePrimaryCtxRelease(0));
}

TEST_F(Context, Primary_SetFlags)
{
    EXPECT_OK(cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_YIELD));
    unsigned int flags = 0;
    int active;
    EXPECT_OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    EXPECT_EQ((unsigned)CU_CTX_SCHED_YIELD, flags);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxSetFlags(0, 0x100));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxSetFlags(0, CU_CTX_MAP_HOST));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxSetFlags(1, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxGetState(0, nullptr, &active));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxRetain(nullptr, 0));
}
