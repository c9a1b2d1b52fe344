// Managed memory: cuMemAllocManaged, advice, prefetches, discards, range attributes and stream
// association (src/memory/managed.c). Nothing moves on the software device; what a program can
// observe is what it told the driver, page by page.
#include "framework/testing.h"

#include <cstring>
#include <vector>
#if defined(_WIN32)
#include <windows.h>
#else
#include <unistd.h>
#endif

using namespace extmem_test;

// The forms before CUDA 12.2, which extmem exports under their plain names (the header's
// macros give those names to the _v2 forms).
#undef cuMemAdvise
#undef cuMemPrefetchAsync
extern "C" {
EXTMEM_API CUresult CUDAAPI cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device);
EXTMEM_API CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count, CUdevice dstDevice,
                                                    CUstream hStream);
}
static const auto cuMemAdvise_v1 = cuMemAdvise;
static const auto cuMemPrefetchAsync_v1 = cuMemPrefetchAsync;
static const auto cuMemPrefetchAsync_v1_ptsz = cuMemPrefetchAsync_ptsz;
#define cuMemAdvise cuMemAdvise_v2
#define cuMemPrefetchAsync cuMemPrefetchAsync_v2

namespace {

class Managed : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        page = host_page_size();
        ASSERT_OK(cuMemAllocManaged(&m, 4 * page, CU_MEM_ATTACH_GLOBAL));
    }
    void TearDown() override
    {
        if (m) {
            EXPECT_OK(cuMemFree(m));
        }
        ContextTest::TearDown();
    }
    int range_int(CUmem_range_attribute a, CUdeviceptr p, size_t count)
    {
        int v = 12345;
        EXPECT_OK(cuMemRangeGetAttribute(&v, sizeof v, a, p, count));
        return v;
    }
    /* CUDA rounds ranges to the host's pages; so does extmem (os_page_size). */
    static size_t host_page_size()
    {
#if defined(_WIN32)
        SYSTEM_INFO si;
        GetSystemInfo(&si);
        return si.dwPageSize;
#else
        return (size_t)sysconf(_SC_PAGESIZE);
#endif
    }
    size_t page = 4096;
    CUdeviceptr m = 0;
};

const CUmemLocation kDevice = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
const CUmemLocation kHost = {CU_MEM_LOCATION_TYPE_HOST, 0};

} // namespace

TEST_F(Managed, Alloc_IsDeviceMemoryTheHostReadsAndWritesInPlace)
{
    memset((void *)(uintptr_t)m, 0x5a, 4 * page);
    unsigned char back[16];
    EXPECT_OK(cuMemcpyDtoH(back, m + page, sizeof back));
    EXPECT_EQ(0x5a, back[15]);
    unsigned int managed = 0;
    EXPECT_OK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, m));
    EXPECT_EQ(1u, managed);
    void *host = nullptr;
    EXPECT_OK(cuPointerGetAttribute(&host, CU_POINTER_ATTRIBUTE_HOST_POINTER, m + 8));
    EXPECT_EQ((void *)(uintptr_t)(m + 8), host);
    CUdeviceptr plain;
    ASSERT_OK(cuMemAlloc(&plain, 64));
    EXPECT_OK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, plain));
    EXPECT_EQ(0u, managed);
    EXPECT_OK(cuMemFree(plain));
}

// NVIDIA's driver shares no managed memory through IPC handles or dma-bufs.
TEST_F(Managed, IpcAndDmaBuf_RefuseManagedMemory_AsTheDriverDoes)
{
    CUipcMemHandle h;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcGetMemHandle(&h, m));
    EXPECT_DETAIL_HAS("managed memory");
    int capable = 7;
    EXPECT_OK(cuPointerGetAttribute(&capable, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, m));
    EXPECT_EQ(0, capable);
    int fd = -1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuMemGetHandleForAddressRange(&fd, m, page, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0));
    // Copies and fills take it like device memory.
    CUdeviceptr d;
    ASSERT_OK(cuMemAlloc(&d, 64));
    EXPECT_OK(cuMemsetD8(m, 1, 64));
    EXPECT_OK(cuMemcpyDtoD(d, m, 64));
    unsigned char b = 0;
    EXPECT_OK(cuMemcpyDtoH(&b, d + 63, 1));
    EXPECT_EQ(1, b);
    EXPECT_OK(cuMemFree(d));
}

TEST_F(Managed, Alloc_BadArguments_AreInvalidValue)
{
    CUdeviceptr p = 77;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocManaged(nullptr, 64, CU_MEM_ATTACH_GLOBAL));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocManaged(&p, 0, CU_MEM_ATTACH_GLOBAL));
    EXPECT_EQ(0u, p);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocManaged(&p, 64, CU_MEM_ATTACH_SINGLE));
    EXPECT_DETAIL_HAS("not CU_MEM_ATTACH_GLOBAL or CU_MEM_ATTACH_HOST");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocManaged(&p, 64, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocManaged(&p, 64, 3));
    EXPECT_CU(CUDA_ERROR_OUT_OF_MEMORY, cuMemAllocManaged(&p, SIZE_MAX / 2, CU_MEM_ATTACH_HOST));
    EXPECT_OK(cuMemAllocManaged(&p, 1, CU_MEM_ATTACH_HOST));
    EXPECT_OK(cuMemFree(p));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(p)); // freed
}

TEST_F(Managed, NothingAdvised_ReadsAsTheDefaults)
{
    EXPECT_EQ(0, range_int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4 * page));
    EXPECT_EQ(CU_DEVICE_INVALID, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, page));
    EXPECT_EQ(CU_DEVICE_INVALID, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, page));
    EXPECT_EQ(CU_MEM_LOCATION_TYPE_INVALID, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, page));
    EXPECT_EQ(CU_MEM_LOCATION_TYPE_INVALID, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, m, page));
    int by[3] = {7, 7, 7};
    EXPECT_OK(cuMemRangeGetAttribute(by, sizeof by, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, page));
    EXPECT_EQ(CU_DEVICE_INVALID, by[0]);
    EXPECT_EQ(CU_DEVICE_INVALID, by[2]);
}

TEST_F(Managed, ReadMostly_IsOneOnlyWhereEveryPageOfTheRangeIsReadMostly)
{
    ASSERT_OK(cuMemAdvise(m, page, CU_MEM_ADVISE_SET_READ_MOSTLY, kDevice));
    EXPECT_EQ(1, range_int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, page));
    EXPECT_EQ(1, range_int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m + 100, 10));
    EXPECT_EQ(0, range_int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 2 * page)); // half of it
    EXPECT_EQ(0, range_int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m + page, page));
    // A range is rounded out to whole pages: one byte of the second page advises all of it.
    ASSERT_OK(cuMemAdvise(m + 2 * page - 1, 2, CU_MEM_ADVISE_SET_READ_MOSTLY, kHost));
    EXPECT_EQ(1, range_int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 3 * page));
    ASSERT_OK(cuMemAdvise(m + page, 1, CU_MEM_ADVISE_UNSET_READ_MOSTLY, kHost));
    EXPECT_EQ(0, range_int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 3 * page));
    EXPECT_EQ(1, range_int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m + 2 * page, page));
}

TEST_F(Managed, PreferredLocation_IsTheCommonOne_OrInvalidWhereThePagesDiffer)
{
    ASSERT_OK(cuMemAdvise(m, 2 * page, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, kDevice));
    EXPECT_EQ(0, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 2 * page));
    EXPECT_EQ(CU_MEM_LOCATION_TYPE_DEVICE, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, 2 * page));
    EXPECT_EQ(0, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, m, 2 * page));
    ASSERT_OK(cuMemAdvise(m + 2 * page, 2 * page, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, kHost));
    EXPECT_EQ(CU_DEVICE_CPU, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m + 2 * page, page));
    EXPECT_EQ(CU_MEM_LOCATION_TYPE_HOST, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m + 3 * page, 1));
    // Device pages and host pages: no common preferred location.
    EXPECT_EQ(CU_DEVICE_INVALID, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 4 * page));
    EXPECT_EQ(CU_MEM_LOCATION_TYPE_INVALID, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, 4 * page));
    EXPECT_EQ(CU_DEVICE_INVALID, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, m, 4 * page));
    // Unset on one page: that page has none, so the range has none.
    ASSERT_OK(cuMemAdvise(m + page, page, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, kHost));
    EXPECT_EQ(CU_DEVICE_INVALID, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 2 * page));
    EXPECT_EQ(0, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, page));
}

TEST_F(Managed, PreferredHostNuma_IsTheHostToAnOrdinal_AndNodeZeroById)
{
    CUmemLocation numa = {CU_MEM_LOCATION_TYPE_HOST_NUMA, 0};
    ASSERT_OK(cuMemAdvise(m, page, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, numa));
    EXPECT_EQ(CU_DEVICE_CPU, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, page));
    EXPECT_EQ(CU_MEM_LOCATION_TYPE_HOST_NUMA, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, page));
    EXPECT_EQ(0, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, m, page));
    CUmemLocation current = {CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 99}; // id ignored
    ASSERT_OK(cuMemAdvise(m + page, page, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, current));
    EXPECT_EQ(CU_MEM_LOCATION_TYPE_HOST_NUMA, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, 2 * page));
    CUmemLocation node3 = {CU_MEM_LOCATION_TYPE_HOST_NUMA, 3};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(m, page, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, node3));
    EXPECT_DETAIL_HAS("one host node");
}

TEST_F(Managed, AccessedBy_ListsTheProcessorsSetOnEveryPage_ThenInvalid)
{
    ASSERT_OK(cuMemAdvise(m, 4 * page, CU_MEM_ADVISE_SET_ACCESSED_BY, kDevice));
    ASSERT_OK(cuMemAdvise(m, 2 * page, CU_MEM_ADVISE_SET_ACCESSED_BY, kHost));
    int by[3];
    ASSERT_OK(cuMemRangeGetAttribute(by, sizeof by, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 2 * page));
    EXPECT_EQ(0, by[0]);
    EXPECT_EQ(CU_DEVICE_CPU, by[1]);
    EXPECT_EQ(CU_DEVICE_INVALID, by[2]);
    // The host is not set on the whole of 4 pages: only the device is listed.
    ASSERT_OK(cuMemRangeGetAttribute(by, sizeof by, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 4 * page));
    EXPECT_EQ(0, by[0]);
    EXPECT_EQ(CU_DEVICE_INVALID, by[1]);
    // An array smaller than the list holds what fits.
    int one = 9;
    ASSERT_OK(cuMemRangeGetAttribute(&one, sizeof one, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, page));
    EXPECT_EQ(0, one);
    ASSERT_OK(cuMemAdvise(m, 4 * page, CU_MEM_ADVISE_UNSET_ACCESSED_BY, kDevice));
    ASSERT_OK(cuMemRangeGetAttribute(by, sizeof by, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, page));
    EXPECT_EQ(CU_DEVICE_CPU, by[0]);
    EXPECT_EQ(CU_DEVICE_INVALID, by[1]);
}

TEST_F(Managed, Advise_BadArguments)
{
    int on_stack = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(m, page, (CUmem_advise)0, kHost));
    EXPECT_DETAIL_HAS("not a CUmem_advise");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(m, page, (CUmem_advise)7, kHost));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(m, 0, CU_MEM_ADVISE_SET_READ_MOSTLY, kHost));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(0, page, CU_MEM_ADVISE_SET_READ_MOSTLY, kHost));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(m, 4 * page + 1, CU_MEM_ADVISE_SET_READ_MOSTLY, kHost));
    EXPECT_DETAIL_HAS("run past the end");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuMemAdvise((CUdeviceptr)(uintptr_t)&on_stack, sizeof on_stack, CU_MEM_ADVISE_SET_READ_MOSTLY, kHost));
    EXPECT_DETAIL_HAS("PAGEABLE_MEMORY_ACCESS");
    CUmemLocation device1 = {CU_MEM_LOCATION_TYPE_DEVICE, 1};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(m, page, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, device1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(m, page, CU_MEM_ADVISE_SET_ACCESSED_BY, device1));
    CUmemLocation numa = {CU_MEM_LOCATION_TYPE_HOST_NUMA, 0};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(m, page, CU_MEM_ADVISE_SET_ACCESSED_BY, numa));
    EXPECT_DETAIL_HAS("device or the host");
    CUmemLocation bad = {(CUmemLocationType)9, 0};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(m, page, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, bad));
    // Read-mostly ignores the location, even a device that does not exist, but not a type that
    // is none (NVIDIA's driver).
    EXPECT_OK(cuMemAdvise(m, page, CU_MEM_ADVISE_SET_READ_MOSTLY, device1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(m, page, CU_MEM_ADVISE_SET_READ_MOSTLY, bad));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(m, page, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, bad));
    EXPECT_DETAIL_HAS("not a CUmemLocationType");
    // Failures recorded nothing.
    EXPECT_EQ(CU_DEVICE_INVALID, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, page));
}

TEST_F(Managed, Advise_OnDeviceHostOrFreedMemory_IsInvalidValue)
{
    CUdeviceptr plain;
    ASSERT_OK(cuMemAlloc(&plain, page));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(plain, page, CU_MEM_ADVISE_SET_READ_MOSTLY, kHost));
    EXPECT_DETAIL_HAS("not managed memory");
    int v;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, plain, 4));
    EXPECT_OK(cuMemFree(plain));
    void *host;
    ASSERT_OK(cuMemAllocHost(&host, page));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuMemAdvise((CUdeviceptr)(uintptr_t)host, page, CU_MEM_ADVISE_SET_READ_MOSTLY, kHost));
    EXPECT_OK(cuMemFreeHost(host));
    CUdeviceptr gone;
    ASSERT_OK(cuMemAllocManaged(&gone, page, CU_MEM_ATTACH_GLOBAL));
    ASSERT_OK(cuMemFree(gone));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(gone, page, CU_MEM_ADVISE_SET_READ_MOSTLY, kHost));
}

TEST_F(Managed, OlderForms_TakeADeviceOrdinal_CpuForTheHost)
{
    // The CUDA 8 forms, as a program built against an older header calls them.
    EXPECT_OK(cuMemAdvise_v1(m, page, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, CU_DEVICE_CPU));
    EXPECT_EQ(CU_DEVICE_CPU, range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, page));
    EXPECT_OK(cuMemAdvise_v1(m, page, CU_MEM_ADVISE_SET_ACCESSED_BY, 0));
    // This form says INVALID_DEVICE for a missing device where the location form says
    // INVALID_VALUE (NVIDIA's driver, docs/probes/managed/probe.out).
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemAdvise_v1(m, page, CU_MEM_ADVISE_SET_ACCESSED_BY, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemAdvise_v1(m, page, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, 1));
    EXPECT_OK(cuMemAdvise_v1(m, page, CU_MEM_ADVISE_SET_READ_MOSTLY, 1)); // takes no location
    EXPECT_OK(cuMemPrefetchAsync_v1(m, page, 0, nullptr));
    EXPECT_EQ(0, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, page));
    EXPECT_OK(cuMemPrefetchAsync_v1_ptsz(m, page, CU_DEVICE_CPU, nullptr));
    EXPECT_EQ(CU_DEVICE_CPU, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, page));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemPrefetchAsync_v1(m, page, 1, nullptr));
}

TEST_F(Managed, Prefetch_RecordsTheLastLocationAskedFor_PageByPage)
{
    EXPECT_OK(cuMemPrefetchAsync(m, 4 * page, kDevice, 0, nullptr));
    EXPECT_EQ(0, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 4 * page));
    EXPECT_EQ(CU_MEM_LOCATION_TYPE_DEVICE, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, m, page));
    EXPECT_EQ(0, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, m, page));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    EXPECT_OK(cuMemPrefetchAsync(m + 3 * page, page, kHost, 0, s));
    EXPECT_EQ(CU_DEVICE_CPU, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m + 3 * page, page));
    EXPECT_EQ(CU_DEVICE_INVALID, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 4 * page));
    EXPECT_EQ(CU_MEM_LOCATION_TYPE_INVALID,
              range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, m + 2 * page, 2 * page));
    EXPECT_OK(cuMemPrefetchAsync(m, page, kHost, 0, CU_STREAM_PER_THREAD));
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_OK(cuStreamDestroy(s));
    // The data never moved: it is where it was written.
    *(volatile int *)(uintptr_t)m = 42;
    EXPECT_OK(cuMemPrefetchAsync(m, 4, kDevice, 0, nullptr));
    EXPECT_EQ(42, *(volatile int *)(uintptr_t)m);
}

TEST_F(Managed, PrefetchToTheHostNumaNodes_ReadsAsTheDriverAnswers)
{
    CUmemLocation numa0 = {CU_MEM_LOCATION_TYPE_HOST_NUMA, 0};
    EXPECT_OK(cuMemPrefetchAsync(m, page, numa0, 0, nullptr));
    EXPECT_EQ(CU_DEVICE_CPU, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, page));
    EXPECT_EQ(CU_MEM_LOCATION_TYPE_HOST_NUMA, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, m, page));
    EXPECT_EQ(0, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, m, page));
    // The current node is remembered as asked, id and all (H200: type 4, id 77).
    CUmemLocation current = {CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 77};
    EXPECT_OK(cuMemPrefetchAsync(m, page, current, 0, nullptr));
    EXPECT_EQ(CU_DEVICE_CPU, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, page));
    EXPECT_EQ(CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT,
              range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, m, page));
    EXPECT_EQ(77, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, m, page));
    // The host's id reads -1 whatever was given.
    CUmemLocation host5 = {CU_MEM_LOCATION_TYPE_HOST, 5};
    EXPECT_OK(cuMemPrefetchAsync(m, page, host5, 0, nullptr));
    EXPECT_EQ(CU_DEVICE_CPU, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, m, page));
    CUmemLocation numa5 = {CU_MEM_LOCATION_TYPE_HOST_NUMA, 5};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync(m, page, numa5, 0, nullptr));
}

TEST_F(Managed, Prefetch_BadArguments)
{
    CUmemLocation device1 = {CU_MEM_LOCATION_TYPE_DEVICE, 1};
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemPrefetchAsync(m, page, device1, 0, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync(m, page, kHost, 1, nullptr));
    EXPECT_DETAIL_HAS("flags 0x1 is not 0");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync(m, 0, kHost, 0, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync(m, 8 * page, kHost, 0, nullptr));
    CUmemLocation invalid = {CU_MEM_LOCATION_TYPE_INVALID, 0};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync(m, page, invalid, 0, nullptr));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    ASSERT_OK(cuStreamDestroy(s));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMemPrefetchAsync(m, page, kHost, 0, s));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMemPrefetchAsync(m, page, kHost, 0, (CUstream)(uintptr_t)0xdead0));
    EXPECT_EQ(CU_DEVICE_INVALID, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, page));
}

TEST_F(Managed, PrefetchBatch_AppliesEachLocationFromItsIndex)
{
    CUdeviceptr m2;
    ASSERT_OK(cuMemAllocManaged(&m2, page, CU_MEM_ATTACH_GLOBAL));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr ptrs[3] = {m, m + page, m2};
    size_t sizes[3] = {page, page, page};
    CUmemLocation locs[2] = {kDevice, kHost};
    size_t idxs[2] = {0, 2};
    EXPECT_OK(cuMemPrefetchBatchAsync(ptrs, sizes, 3, locs, idxs, 2, 0, s));
    EXPECT_EQ(0, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 2 * page));
    EXPECT_EQ(CU_DEVICE_CPU, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m2, page));
    EXPECT_EQ(CU_DEVICE_INVALID, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m + 2 * page, page));
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuMemFree(m2));
}

TEST_F(Managed, Batches_BadArguments_RecordNothing)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr ptrs[2] = {m, m + page};
    size_t sizes[2] = {page, page};
    CUmemLocation locs[2] = {kDevice, kHost};
    size_t idxs[2] = {0, 1};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchBatchAsync(nullptr, sizes, 2, locs, idxs, 2, 0, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchBatchAsync(ptrs, nullptr, 2, locs, idxs, 2, 0, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchBatchAsync(ptrs, sizes, 0, locs, idxs, 2, 0, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idxs, 2, 1, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchBatchAsync(ptrs, sizes, 2, nullptr, idxs, 2, 0, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchBatchAsync(ptrs, sizes, 2, locs, nullptr, 2, 0, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idxs, 0, 0, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchBatchAsync(ptrs, sizes, 1, locs, idxs, 2, 0, s)); // 2 > count
    size_t not_zero[2] = {1, 1};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchBatchAsync(ptrs, sizes, 2, locs, not_zero, 2, 0, s));
    EXPECT_DETAIL_HAS("prefetchLocIdxs[0] is 1");
    CUdeviceptr three[3] = {m, m + page, m + 2 * page};
    size_t sizes3[3] = {page, page, page};
    CUmemLocation locs3[3] = {kDevice, kHost, kDevice};
    size_t falling[3] = {0, 2, 1};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchBatchAsync(three, sizes3, 3, locs3, falling, 3, 0, s));
    size_t past[2] = {0, 2};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchBatchAsync(ptrs, sizes, 2, locs, past, 2, 0, s));
    CUmemLocation bad[2] = {kDevice, {CU_MEM_LOCATION_TYPE_DEVICE, 5}};
    // A missing device: INVALID_VALUE in a batch, INVALID_DEVICE for a single prefetch (the driver).
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchBatchAsync(ptrs, sizes, 2, bad, idxs, 2, 0, s));
    // The second range is not managed: the first is not recorded either.
    CUdeviceptr plain;
    ASSERT_OK(cuMemAlloc(&plain, page));
    CUdeviceptr mixed[2] = {m, plain};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchBatchAsync(mixed, sizes, 2, locs, idxs, 2, 0, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemDiscardBatchAsync(mixed, sizes, 2, 0, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemDiscardAndPrefetchBatchAsync(mixed, sizes, 2, locs, idxs, 2, 0, s));
    EXPECT_EQ(CU_DEVICE_INVALID, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, page));
    // CUDA forbids the legacy default stream for batches.
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idxs, 2, 0, nullptr));
    EXPECT_DETAIL_HAS("legacy default stream");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemDiscardBatchAsync(ptrs, sizes, 2, 0, CU_STREAM_LEGACY));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemDiscardBatchAsync(ptrs, sizes, 2, 2, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemDiscardBatchAsync(ptrs, sizes, 0, 0, s));
    EXPECT_OK(cuMemFree(plain));
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMemDiscardBatchAsync(ptrs, sizes, 2, 0, s));
}

TEST_F(Managed, PrefetchBatch_EqualIndices_AreTaken_TheLaterLocationApplying)
{
    CUdeviceptr ptrs[2] = {m, m + page};
    size_t sizes[2] = {page, page};
    CUmemLocation locs[2] = {kDevice, kHost};
    size_t same[2] = {0, 0}; // NVIDIA's driver: success
    EXPECT_OK(cuMemPrefetchBatchAsync(ptrs, sizes, 2, locs, same, 2, 0, CU_STREAM_PER_THREAD));
    EXPECT_EQ(CU_DEVICE_CPU, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 2 * page));
}

TEST_F(Managed, Discard_KeepsTheBytes_AndDiscardAndPrefetchRecordsTheLocation)
{
    memset((void *)(uintptr_t)m, 7, 4 * page);
    CUdeviceptr ptrs[1] = {m};
    size_t sizes[1] = {2 * page};
    EXPECT_OK(cuMemDiscardBatchAsync(ptrs, sizes, 1, 0, CU_STREAM_PER_THREAD));
    EXPECT_OK(cuStreamSynchronize(CU_STREAM_PER_THREAD));
    EXPECT_EQ(7, *(volatile unsigned char *)(uintptr_t)(m + page)); // undefined by CUDA; kept here
    CUmemLocation locs[1] = {kHost};
    size_t idxs[1] = {0};
    EXPECT_OK(cuMemDiscardAndPrefetchBatchAsync(ptrs, sizes, 1, locs, idxs, 1, 0, CU_STREAM_PER_THREAD));
    EXPECT_EQ(CU_DEVICE_CPU, range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 2 * page));
}

TEST_F(Managed, RangeAttribute_BadArguments)
{
    int v = 0;
    int two[2];
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(nullptr, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(&v, 3, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4));
    EXPECT_DETAIL_HAS("is not 4");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(two, 8, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 4));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(&v, 0, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 4));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(two, 6, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 4));
    EXPECT_DETAIL_HAS("multiple of 4");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(&v, 4, (CUmem_range_attribute)0, m, 4));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(&v, 4, (CUmem_range_attribute)9, m, 4));
    EXPECT_DETAIL_HAS("not a CUmem_range_attribute");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, 0, 4));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m + page, 4 * page));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
                                                               (CUdeviceptr)(uintptr_t)&v, 4));
}

TEST_F(Managed, RangeAttributes_AnswersEach_AndChecksAllBeforeWriting)
{
    ASSERT_OK(cuMemAdvise(m, page, CU_MEM_ADVISE_SET_READ_MOSTLY, kHost));
    ASSERT_OK(cuMemAdvise(m, page, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, kDevice));
    int rm = -1, pref = -1, type = -1;
    int by[2] = {-5, -5};
    void *data[4] = {&rm, &pref, by, &type};
    size_t sizes[4] = {4, 4, sizeof by, 4};
    CUmem_range_attribute attrs[4] = {CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
                                      CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
                                      CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE};
    ASSERT_OK(cuMemRangeGetAttributes(data, sizes, attrs, 4, m, page));
    EXPECT_EQ(1, rm);
    EXPECT_EQ(0, pref);
    EXPECT_EQ(CU_DEVICE_INVALID, by[0]);
    EXPECT_EQ(CU_MEM_LOCATION_TYPE_DEVICE, type);
    rm = pref = -1;
    sizes[3] = 8; // the last is wrong: nothing is written
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttributes(data, sizes, attrs, 4, m, page));
    EXPECT_DETAIL_HAS("dataSize[3]");
    EXPECT_EQ(-1, rm);
    sizes[3] = 4;
    data[2] = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttributes(data, sizes, attrs, 4, m, page));
    EXPECT_DETAIL_HAS("data[2] is NULL");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttributes(nullptr, sizes, attrs, 4, m, page));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttributes(data, nullptr, attrs, 4, m, page));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttributes(data, sizes, nullptr, 4, m, page));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttributes(data, sizes, attrs, 0, m, page));
    EXPECT_EQ(-1, rm);
}

TEST_F(Managed, StreamAttach_WholeAllocation_IsQueuedAndCompletes)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    EXPECT_OK(cuStreamAttachMemAsync(s, m, 0, CU_MEM_ATTACH_SINGLE));
    EXPECT_OK(cuStreamAttachMemAsync(s, m, 4 * page, CU_MEM_ATTACH_HOST));
    EXPECT_OK(cuStreamAttachMemAsync(nullptr, m, 0, CU_MEM_ATTACH_GLOBAL));
    EXPECT_OK(cuStreamAttachMemAsync(CU_STREAM_PER_THREAD, m, 0, CU_MEM_ATTACH_SINGLE));
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_OK(cuStreamDestroy(s));
    // Freed while an attach is queued behind other work: the attach finds nothing and is harmless.
    CUdeviceptr m2;
    ASSERT_OK(cuMemAllocManaged(&m2, page, CU_MEM_ATTACH_GLOBAL));
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    EXPECT_OK(cuStreamAttachMemAsync(s, m2, 0, CU_MEM_ATTACH_SINGLE));
    EXPECT_OK(cuMemFree(m2));
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Managed, StreamAttach_BadArguments)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamAttachMemAsync(s, m, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamAttachMemAsync(s, m, 0, 7));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamAttachMemAsync(s, m, 0, CU_MEM_ATTACH_GLOBAL | CU_MEM_ATTACH_HOST));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamAttachMemAsync(s, m, page, CU_MEM_ATTACH_SINGLE));
    EXPECT_DETAIL_HAS("whole allocation");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamAttachMemAsync(s, m + page, 0, CU_MEM_ATTACH_SINGLE));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamAttachMemAsync(nullptr, m, 0, CU_MEM_ATTACH_SINGLE));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamAttachMemAsync(s, 0, 0, CU_MEM_ATTACH_SINGLE));
    CUdeviceptr plain;
    ASSERT_OK(cuMemAlloc(&plain, page));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamAttachMemAsync(s, plain, 0, CU_MEM_ATTACH_SINGLE));
    EXPECT_DETAIL_HAS("not in managed memory");
    EXPECT_OK(cuMemFree(plain));
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamAttachMemAsync(s, m, 0, CU_MEM_ATTACH_SINGLE));
}

TEST_F(Managed, ContextDestruction_FreesManagedMemory)
{
    CUcontext c2;
    ASSERT_OK(cuCtxCreate(&c2, nullptr, 0, 0));
    CUdeviceptr p;
    ASSERT_OK(cuMemAllocManaged(&p, 3 * page, CU_MEM_ATTACH_GLOBAL));
    ASSERT_OK(cuMemAdvise(p, page, CU_MEM_ADVISE_SET_READ_MOSTLY, kHost));
    ASSERT_OK(cuCtxDestroy(c2));
    ASSERT_OK(cuCtxSetCurrent(ctx));
    int v;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 4));
}
