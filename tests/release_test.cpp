// Releasing memory waits for the work queued before the release (docs/streams.md): cuMemFree,
// cuMemFreeHost, cuMemUnmap and context destruction never pull memory from under a stream.
#include "framework/testing.h"
#include "vmm_fixture.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

using namespace extmem_test;

using Release = ContextTest;
using ReleaseVmm = Vmm;

namespace {

constexpr size_t kSize = 1 << 20;

/* A host function that holds its stream for a while, so the work queued behind it is still
 * pending when the test releases the memory that work uses. */
void CUDA_CB hold_stream(void *)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
}

bool all_bytes(const void *p, size_t n, unsigned char v)
{
    const unsigned char *b = static_cast<const unsigned char *>(p);
    for (size_t i = 0; i < n; ++i)
        if (b[i] != v)
            return false;
    return true;
}

struct FreeFromHostFunction {
    CUdeviceptr ptr;
    CUresult result = CUDA_ERROR_UNKNOWN;
    static void CUDA_CB run(void *p)
    {
        auto *f = static_cast<FreeFromHostFunction *>(p);
        f->result = cuMemFree(f->ptr);
    }
};

} // namespace

TEST_F(Release, MemFree_WaitsForAFillQueuedBehindASlowHostFunction)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr p;
    ASSERT_OK(cuMemAlloc(&p, kSize));
    ASSERT_OK(cuLaunchHostFunc(s, hold_stream, nullptr));
    ASSERT_OK(cuMemsetD8Async(p, 0xab, kSize, s));
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(s));
    ASSERT_OK(cuMemFree(p));
    // The fill ran before the memory left: the stream has nothing left to do.
    EXPECT_OK(cuStreamQuery(s));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Release, MemFree_ANewAllocationAtTheSameAddressIsNotOverwrittenByOldWork)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    for (int round = 0; round < 8; ++round) {
        CUdeviceptr p, q;
        ASSERT_OK(cuMemAlloc(&p, kSize));
        ASSERT_OK(cuLaunchHostFunc(s, hold_stream, nullptr));
        ASSERT_OK(cuMemsetD8Async(p, 0xab, kSize, s));
        ASSERT_OK(cuMemFree(p));
        ASSERT_OK(cuMemAlloc(&q, kSize));
        ASSERT_OK(cuMemsetD8(q, 0x11, kSize));
        ASSERT_OK(cuStreamSynchronize(s));
        EXPECT_TRUE(all_bytes(reinterpret_cast<void *>(q), kSize, 0x11)) << "round " << round;
        ASSERT_OK(cuMemFree(q));
    }
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Release, MemFreeHost_WaitsForAnUploadFromTheStagingBuffer)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    void *staging;
    CUdeviceptr dst;
    ASSERT_OK(cuMemAllocHost(&staging, kSize));
    ASSERT_OK(cuMemAlloc(&dst, kSize));
    std::memset(staging, 0x5a, kSize);
    ASSERT_OK(cuLaunchHostFunc(s, hold_stream, nullptr));
    ASSERT_OK(cuMemcpyHtoDAsync(dst, staging, kSize, s));
    ASSERT_OK(cuMemFreeHost(staging));
    EXPECT_OK(cuStreamQuery(s));
    EXPECT_TRUE(all_bytes(reinterpret_cast<void *>(dst), kSize, 0x5a));
    EXPECT_OK(cuMemFree(dst));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Release, MemFree_WaitsForWorkOnAnotherContextsStream)
{
    CUcontext other;
    CUdevice dev;
    ASSERT_OK(cuDeviceGet(&dev, 0));
    ASSERT_OK(cuCtxCreate(&other, nullptr, 0, dev));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)); // a stream of `other`
    ASSERT_OK(cuCtxPopCurrent(nullptr));                   // back to the fixture's context
    CUdeviceptr p;
    ASSERT_OK(cuMemAlloc(&p, kSize));
    ASSERT_OK(cuCtxPushCurrent(other));
    ASSERT_OK(cuLaunchHostFunc(s, hold_stream, nullptr));
    ASSERT_OK(cuMemsetD8Async(p, 0xcd, kSize, s)); // unified addressing: any context's memory
    ASSERT_OK(cuCtxPopCurrent(nullptr));
    ASSERT_OK(cuMemFree(p));
    ASSERT_OK(cuCtxPushCurrent(other));
    EXPECT_OK(cuStreamQuery(s));
    EXPECT_OK(cuStreamDestroy(s));
    ASSERT_OK(cuCtxPopCurrent(nullptr));
    EXPECT_OK(cuCtxDestroy(other));
}

TEST_F(Release, CtxDestroy_WaitsForAnotherContextsWorkOnItsMemory)
{
    CUcontext victim;
    CUdevice dev;
    ASSERT_OK(cuDeviceGet(&dev, 0));
    ASSERT_OK(cuCtxCreate(&victim, nullptr, 0, dev));
    CUdeviceptr p;
    ASSERT_OK(cuMemAlloc(&p, kSize)); // belongs to `victim`
    ASSERT_OK(cuCtxPopCurrent(nullptr));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)); // the fixture's context
    ASSERT_OK(cuLaunchHostFunc(s, hold_stream, nullptr));
    ASSERT_OK(cuMemsetD8Async(p, 0xcd, kSize, s));
    ASSERT_OK(cuCtxDestroy(victim));
    EXPECT_OK(cuStreamQuery(s));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Release, MemFree_FromAHostFunction_IsNotPermittedInsteadOfWaitingForItself)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    FreeFromHostFunction f;
    ASSERT_OK(cuMemAlloc(&f.ptr, kSize));
    ASSERT_OK(cuLaunchHostFunc(s, FreeFromHostFunction::run, &f));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(CUDA_ERROR_NOT_PERMITTED, f.result);
    // The memory was left alone: the caller can still free it.
    EXPECT_OK(cuMemFree(f.ptr));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(ReleaseVmm, MemUnmap_WaitsForAFillOfTheMapping)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUmemGenericAllocationHandle h = create(gran);
    CUdeviceptr p = reserve(gran);
    ASSERT_OK(cuMemMap(p, gran, 0, h, 0));
    ASSERT_OK(cuMemSetAccess(p, gran, &rw, 1));
    ASSERT_OK(cuLaunchHostFunc(s, hold_stream, nullptr));
    ASSERT_OK(cuMemsetD8Async(p, 0x77, gran, s));
    ASSERT_OK(cuMemRelease(h)); // the mapping keeps the memory; the unmap is the last use
    ASSERT_OK(cuMemUnmap(p, gran));
    EXPECT_OK(cuStreamQuery(s));
    EXPECT_OK(cuMemAddressFree(p, gran));
    EXPECT_OK(cuStreamDestroy(s));
}
