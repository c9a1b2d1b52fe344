// cuMemHostRegister / cuMemHostUnregister and the runtime's cudaHostRegister: the H100's codes
// row by row (docs/probes/surface/probe.out), and registered memory used by copies, fills,
// pointer queries and kernels.
#include "framework/testing.h"

#include "extmem/cuda_runtime_api.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#if defined(_WIN32)
#include <windows.h>
#else
#include <unistd.h>
#endif

using namespace extmem_test;

namespace {

size_t page_size()
{
#if defined(_WIN32)
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwPageSize;
#else
    return (size_t)sysconf(_SC_PAGESIZE);
#endif
}

// 16 pages of the caller's own memory, page-aligned, as the probe's mmap gave it.
class HostRegister : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        pg = page_size();
        storage.assign(17 * pg, 0);
        h = (char *)(((uintptr_t)storage.data() + pg - 1) & ~(uintptr_t)(pg - 1));
    }
    std::vector<char> storage;
    char *h = nullptr;
    size_t pg = 0;
};

// The kernel: p[tid] = tid + 1 for 32 threads.
const char kStorePtx[] = R"(
.version 7.5
.target sm_75
.address_size 64
.visible .entry store(.param .u64 p)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [p];
    mov.u32 %r1, %tid.x;
    add.u32 %r2, %r1, 1;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
    ret;
}
)";

} // namespace

// docs/probes/surface/probe.out, lines 259-291, in the probe's order.
TEST_F(HostRegister, TheH100sCodes_RowByRow)
{
    EXPECT_OK(cuMemHostRegister(h, 4 * pg, 0));
    EXPECT_CU(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, cuMemHostRegister(h, 4 * pg, 0));
    EXPECT_CU(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, cuMemHostRegister(h + pg, pg, 0));
    EXPECT_CU(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, cuMemHostRegister(h + 3 * pg, 2 * pg, 0));
    EXPECT_DETAIL_HAS("shares a page with the registered range");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(h + 8 * pg, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(nullptr, pg, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(h + 8 * pg, pg, 0x100));
    EXPECT_OK(cuMemHostRegister(h + 8 * pg + 1, 100, 0));
    EXPECT_OK(cuMemHostUnregister(h + 8 * pg + 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(h + 10 * pg, pg, CU_MEMHOSTREGISTER_IOMEMORY));
    EXPECT_DETAIL_HAS("IOMEMORY");
    EXPECT_OK(cuMemHostRegister(h + 11 * pg, pg, CU_MEMHOSTREGISTER_READ_ONLY));
    EXPECT_OK(cuMemHostRegister(h + 12 * pg, pg, CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP));
    unsigned int flags = 99;
    EXPECT_OK(cuMemHostGetFlags(&flags, h));
    EXPECT_EQ(2u, flags);
    EXPECT_OK(cuMemHostGetFlags(&flags, h + 12 * pg));
    EXPECT_EQ(3u, flags);
    EXPECT_OK(cuMemHostGetFlags(&flags, h + 11 * pg));
    EXPECT_EQ(2u, flags); // READ_ONLY is not reported
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostGetFlags(&flags, h + 13 * pg));
    EXPECT_EQ(2u, flags); // untouched
    CUdeviceptr d = 0;
    EXPECT_OK(cuMemHostGetDevicePointer(&d, h + pg, 0));
    EXPECT_EQ((CUdeviceptr)(uintptr_t)(h + pg), d);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(&d, h + 13 * pg, 0));
    EXPECT_EQ(0u, d);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostUnregister(h + pg));
    EXPECT_DETAIL_HAS("only the pointer given to cuMemHostRegister");
    EXPECT_OK(cuMemHostUnregister(h));
    EXPECT_CU(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(h));
    EXPECT_CU(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(h + 13 * pg));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostUnregister(nullptr));
    void *ah = nullptr;
    ASSERT_OK(cuMemHostAlloc(&ah, pg, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(ah, pg, 0));
    EXPECT_DETAIL_HAS("cuMemHostAlloc memory");
    CUdeviceptr dmem = 0;
    ASSERT_OK(cuMemAlloc(&dmem, 1 << 20));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister((void *)(uintptr_t)dmem, pg, 0));
    EXPECT_DETAIL_HAS("device memory");
    EXPECT_CU(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(ah));
    EXPECT_OK(cuMemHostUnregister(h + 11 * pg));
    EXPECT_OK(cuMemHostUnregister(h + 12 * pg));
    EXPECT_OK(cuMemFreeHost(ah));
    EXPECT_OK(cuMemFree(dmem));
}

TEST_F(HostRegister, RegisteredPages_AreHostMemoryToPointerQueries)
{
    ASSERT_OK(cuMemHostRegister(h, 4 * pg, 0));
    CUdeviceptr p = (CUdeviceptr)(uintptr_t)(h + pg);
    unsigned int type = 0;
    EXPECT_OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p));
    EXPECT_EQ((unsigned)CU_MEMORYTYPE_HOST, type);
    unsigned int managed = 99;
    EXPECT_OK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, p));
    EXPECT_EQ(0u, managed);
    void *host = nullptr;
    EXPECT_OK(cuPointerGetAttribute(&host, CU_POINTER_ATTRIBUTE_HOST_POINTER, p));
    EXPECT_EQ((void *)(h + pg), host);
    CUdeviceptr base = 0;
    size_t size = 0;
    EXPECT_OK(cuMemGetAddressRange(&base, &size, p));
    EXPECT_EQ((CUdeviceptr)(uintptr_t)h, base);
    EXPECT_EQ(4 * pg, size);
    EXPECT_OK(cuMemHostUnregister(h));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p));
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, p));
}

TEST_F(HostRegister, AnUnalignedRange_RegistersItsWholePages_AndOnlyItsPointerUnregisters)
{
    char *p = h + 8 * pg + 1;
    ASSERT_OK(cuMemHostRegister(p, 100, 0));
    CUdeviceptr base = 0;
    size_t size = 0;
    EXPECT_OK(cuMemGetAddressRange(&base, &size, (CUdeviceptr)(uintptr_t)(h + 8 * pg)));
    EXPECT_EQ((CUdeviceptr)(uintptr_t)(h + 8 * pg), base);
    EXPECT_EQ(pg, size);
    EXPECT_CU(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, cuMemHostRegister(h + 8 * pg + pg - 1, 1, 0));
    EXPECT_CU(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, cuMemHostRegister(h + 7 * pg, pg + 1, 0));
    EXPECT_OK(cuMemHostRegister(h + 7 * pg, pg, 0)); // the page before is free
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostUnregister(h + 8 * pg));
    EXPECT_OK(cuMemHostUnregister(p));
    EXPECT_OK(cuMemHostUnregister(h + 7 * pg));
}

TEST_F(HostRegister, BadInput_IsRefusedWithAReason)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(h, SIZE_MAX, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(h, pg, 0x10));
    void *hole = map_inaccessible(4 * pg);
    ASSERT_NE(nullptr, hole);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(hole, pg, 0));
    EXPECT_DETAIL_HAS("not all mapped, readable host memory");
    unmap_inaccessible(hole, 4 * pg);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(hole, pg, 0));
    // Pages of another registration overlap from below and from above.
    ASSERT_OK(cuMemHostRegister(h + 4 * pg, 2 * pg, 0));
    EXPECT_CU(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, cuMemHostRegister(h, 16 * pg, 0));
    EXPECT_CU(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, cuMemHostRegister(h + 5 * pg + 7, 3, 0));
    EXPECT_OK(cuMemHostUnregister(h + 4 * pg));
}

TEST_F(HostRegister, WithoutAContext_IsInvalidContext)
{
    CUcontext popped = nullptr;
    ASSERT_OK(cuCtxPopCurrent(&popped));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemHostRegister(h, pg, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemHostUnregister(h));
    ASSERT_OK(cuCtxPushCurrent(popped));
}

// The probe's copies and fill through registered memory, then a 2D copy and a DtoD copy that
// treat it as device memory.
TEST_F(HostRegister, CopiesAndFills_UseRegisteredMemoryAsDeviceMemory)
{
    ASSERT_OK(cuMemHostRegister(h, 4 * pg, 0));
    CUdeviceptr dmem = 0;
    ASSERT_OK(cuMemAlloc(&dmem, 1 << 20));
    for (int i = 0; i < 100; ++i)
        h[pg + i] = (char)i;
    EXPECT_OK(cuMemcpyHtoD(dmem, h + pg, 100));
    EXPECT_OK(cuMemcpy(dmem + 100, (CUdeviceptr)(uintptr_t)(h + pg), 100));
    EXPECT_EQ(0, memcmp((void *)(uintptr_t)dmem, h + pg, 100));
    EXPECT_EQ(0, memcmp((void *)(uintptr_t)(dmem + 100), h + pg, 100));
    EXPECT_OK(cuMemsetD8((CUdeviceptr)(uintptr_t)(h + pg), 7, 100));
    EXPECT_EQ(7, h[pg]);
    EXPECT_EQ(7, h[pg + 99]);
    EXPECT_EQ(0, h[pg + 100]);
    EXPECT_OK(cuMemcpyDtoD((CUdeviceptr)(uintptr_t)(h + 2 * pg), dmem, 100));
    EXPECT_EQ(0, memcmp((void *)(uintptr_t)dmem, h + 2 * pg, 100));
    CUDA_MEMCPY2D c = {};
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = dmem;
    c.srcPitch = 10;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = (CUdeviceptr)(uintptr_t)(h + 3 * pg);
    c.dstPitch = 20;
    c.WidthInBytes = 10;
    c.Height = 5;
    EXPECT_OK(cuMemcpy2D(&c));
    EXPECT_EQ(0, memcmp(h + 3 * pg + 40, (char *)(uintptr_t)dmem + 20, 10));
    // The registration ends at its last page: a fill across it is refused.
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD8((CUdeviceptr)(uintptr_t)(h + 4 * pg - 10), 1, 20));
    EXPECT_DETAIL_HAS("runs past the end of its allocation");
    EXPECT_OK(cuMemHostUnregister(h));
    // Unregistered, it is pageable memory again, which a fill refuses.
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD8((CUdeviceptr)(uintptr_t)(h + pg), 7, 100));
    EXPECT_OK(cuMemFree(dmem));
}

TEST_F(HostRegister, ReadOnlyPages_AreSourcesButNotDestinations)
{
    memset(h, 0x5a, pg);
    ASSERT_OK(cuMemHostRegister(h, pg, CU_MEMHOSTREGISTER_READ_ONLY));
    CUdeviceptr dmem = 0;
    ASSERT_OK(cuMemAlloc(&dmem, pg));
    EXPECT_OK(cuMemcpyDtoD(dmem, (CUdeviceptr)(uintptr_t)h, pg));
    EXPECT_EQ(0x5a, ((unsigned char *)(uintptr_t)dmem)[pg - 1]);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD8((CUdeviceptr)(uintptr_t)h, 0, 16));
    EXPECT_DETAIL_HAS("READ_ONLY");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD((CUdeviceptr)(uintptr_t)h, h + pg, 16));
    EXPECT_EQ(0x5a, (unsigned char)h[0]);
    EXPECT_OK(cuMemHostUnregister(h));
    EXPECT_OK(cuMemFree(dmem));
}

// Unregistering neither frees nor unmaps nor changes the caller's memory.
TEST_F(HostRegister, Unregister_LeavesTheMemoryAndItsContentsToTheCaller)
{
    for (size_t i = 0; i < 4 * pg; ++i)
        h[i] = (char)(i * 3);
    ASSERT_OK(cuMemHostRegister(h, 4 * pg, CU_MEMHOSTREGISTER_PORTABLE));
    ASSERT_OK(cuMemHostUnregister(h));
    for (size_t i = 0; i < 4 * pg; ++i)
        ASSERT_EQ((char)(i * 3), h[i]) << i;
    memset(h, 1, 4 * pg); // still mapped and writable
    ASSERT_OK(cuMemHostRegister(h, 4 * pg, 0)); // and can be registered again
    EXPECT_OK(cuMemHostUnregister(h));
}

// Work queued before the unregister finishes before it returns: a fill waits behind a host
// function that holds the stream for a while.
TEST_F(HostRegister, Unregister_WaitsForQueuedWorkThatUsesThePages)
{
    ASSERT_OK(cuMemHostRegister(h, pg, 0));
    CUstream s = nullptr;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    static std::atomic<bool> slept{false};
    slept = false;
    ASSERT_OK(cuLaunchHostFunc(
        s,
        [](void *) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            slept = true;
        },
        nullptr));
    ASSERT_OK(cuMemsetD8Async((CUdeviceptr)(uintptr_t)h, 0x42, pg, s));
    EXPECT_OK(cuMemHostUnregister(h));
    EXPECT_TRUE(slept.load());
    EXPECT_EQ(0x42, h[0]);
    EXPECT_EQ(0x42, h[pg - 1]);
    EXPECT_OK(cuStreamDestroy(s));
}

// A kernel writes registered memory at the host address; outside the registration the same
// store is an illegal address, as any address the device was not given.
TEST_F(HostRegister, AKernel_WritesRegisteredMemory_AndIsRefusedOutsideIt)
{
    CUmodule m = nullptr;
    CUfunction f = nullptr;
    ASSERT_OK(cuModuleLoadData(&m, kStorePtx));
    ASSERT_OK(cuModuleGetFunction(&f, m, "store"));
    ASSERT_OK(cuMemHostRegister(h, pg, 0));
    void *p = h;
    void *params[] = {&p};
    ASSERT_OK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
    ASSERT_OK(cuCtxSynchronize());
    const uint32_t *v = (const uint32_t *)h;
    for (uint32_t i = 0; i < 32; ++i)
        EXPECT_EQ(i + 1, v[i]);
    void *outside = h + 2 * pg; // the caller's memory, but never registered
    void *params2[] = {&outside};
    ASSERT_OK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, params2, nullptr));
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
    EXPECT_EQ(0u, ((const uint32_t *)(h + 2 * pg))[0]);
}

TEST_F(HostRegister, AKernelsStoreToReadOnlyPages_IsAnIllegalAddress)
{
    CUmodule m = nullptr;
    CUfunction f = nullptr;
    ASSERT_OK(cuModuleLoadData(&m, kStorePtx));
    ASSERT_OK(cuModuleGetFunction(&f, m, "store"));
    ASSERT_OK(cuMemHostRegister(h, pg, CU_MEMHOSTREGISTER_READ_ONLY));
    void *p = h;
    void *params[] = {&p};
    ASSERT_OK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
    EXPECT_EQ(0u, ((const uint32_t *)h)[0]);
}

// A context's destruction ends its registrations and leaves the memory alone.
TEST_F(HostRegister, DestroyingTheContext_EndsItsRegistrations)
{
    CUcontext other = nullptr;
    CUdevice dev = 0;
    ASSERT_OK(cuDeviceGet(&dev, 0));
    ASSERT_OK(cuCtxCreate(&other, nullptr, 0, dev));
    h[0] = 9;
    ASSERT_OK(cuMemHostRegister(h, pg, 0));
    ASSERT_OK(cuCtxDestroy(other));
    ASSERT_OK(cuCtxSetCurrent(ctx));
    EXPECT_EQ(9, h[0]);
    EXPECT_CU(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(h));
    EXPECT_OK(cuMemHostRegister(h, pg, 0));
    EXPECT_OK(cuMemHostUnregister(h));
}

// The pages are the caller's, not a memory object of extmem's: nothing to export.
TEST_F(HostRegister, RegisteredMemory_CannotBeExportedOrShared)
{
    ASSERT_OK(cuMemHostRegister(h, pg, 0));
    int fd = -1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetHandleForAddressRange(&fd, (CUdeviceptr)(uintptr_t)h, pg,
                                                                      CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0));
    EXPECT_EQ(-1, fd);
    CUipcMemHandle ipc;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcGetMemHandle(&ipc, (CUdeviceptr)(uintptr_t)h));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(h)); // nor freed as CUDA's own
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree((CUdeviceptr)(uintptr_t)h));
    EXPECT_OK(cuMemHostUnregister(h));
}

TEST_F(HostRegister, TheDeviceSaysItSupportsRegistration)
{
    int v = 0;
    EXPECT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED, 0));
    EXPECT_EQ(1, v);
    EXPECT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED, 0));
    EXPECT_EQ(1, v);
}

// The runtime's rows of the probe (probe.out, lines 446-456).
TEST_F(HostRegister, Runtime_TheH100sCodes)
{
    EXPECT_EQ(cudaSuccess, cudaHostRegister(h, 8192, cudaHostRegisterDefault));
    EXPECT_EQ(cudaErrorHostMemoryAlreadyRegistered, cudaHostRegister(h, 8192, cudaHostRegisterDefault));
    EXPECT_EQ(cudaErrorHostMemoryAlreadyRegistered, cudaGetLastError());
    EXPECT_EQ(cudaErrorInvalidValue, cudaHostRegister(h + 16384, 4096, 0x100));
    unsigned int fl = 9;
    EXPECT_EQ(cudaSuccess, cudaHostGetFlags(&fl, h));
    EXPECT_EQ(2u, fl);
    EXPECT_EQ(cudaErrorInvalidValue, cudaHostGetFlags(&fl, h + 20000));
    EXPECT_EQ(2u, fl);
    EXPECT_EQ(cudaErrorInvalidValue, cudaHostGetFlags(nullptr, h));
    void *dp = nullptr;
    EXPECT_EQ(cudaSuccess, cudaHostGetDevicePointer(&dp, h + 10, 0));
    EXPECT_EQ((void *)(h + 10), dp);
    EXPECT_EQ(cudaSuccess, cudaMemset(h, 3, 16));
    EXPECT_EQ(3, h[15]);
    EXPECT_EQ(cudaSuccess, cudaHostUnregister(h));
    EXPECT_EQ(cudaErrorHostMemoryNotRegistered, cudaHostUnregister(h));
    cudaGetLastError();
}
