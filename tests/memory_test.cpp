// Device and host allocations.
#include "framework/testing.h"

#include <cstring>
#include <fstream>
#include <sstream>

using namespace extmem_test;

using Memory = ContextTest;

static std::string maps_line_for(uintptr_t addr)
{
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        unsigned long lo, hi;
        if (sscanf(line.c_str(), "%lx-%lx", &lo, &hi) == 2 && addr >= lo && addr < hi)
            return line;
    }
    return "";
}

TEST_F(Memory, Alloc_GivesWritableSharedMemfdMemory)
{
    CUdeviceptr p = 0;
    ASSERT_OK(cuMemAlloc(&p, 3 << 20));
    EXPECT_EQ(0u, p % 4096);
    memset((void *)p, 0xab, 3 << 20);
    EXPECT_EQ(0xab, ((unsigned char *)p)[(3 << 20) - 1]);
    std::string line = maps_line_for(p);
    EXPECT_NE(std::string::npos, line.find("memfd:extmem-device")) << line;
    EXPECT_NE(std::string::npos, line.find("rw-s")) << line;
    EXPECT_OK(cuMemFree(p));
}

TEST_F(Memory, Alloc_HoldsOneFdThatFreeCloses)
{
    int before = open_fd_count();
    CUdeviceptr p;
    ASSERT_OK(cuMemAlloc(&p, 1));
    EXPECT_EQ(before + 1, open_fd_count());
    EXPECT_OK(cuMemFree(p));
    EXPECT_EQ(before, open_fd_count());
}

TEST_F(Memory, Alloc_ZeroOrNull_IsInvalidValue)
{
    CUdeviceptr p = 123;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(&p, 0));
    EXPECT_DETAIL_HAS("bytesize is 0");
    EXPECT_EQ(0u, p); // as the driver leaves it
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(nullptr, 16));
}

TEST_F(Memory, Alloc_MoreThanTheMachineHas_IsOutOfMemory)
{
    CUdeviceptr p = 0;
    EXPECT_CU(CUDA_ERROR_OUT_OF_MEMORY, cuMemAlloc(&p, size_t(1) << 50));
    EXPECT_DETAIL_HAS("available");
    EXPECT_CU(CUDA_ERROR_OUT_OF_MEMORY, cuMemAlloc(&p, SIZE_MAX));
    EXPECT_EQ(0u, p);
}

TEST_F(Memory, Free_NullIsANoOp)
{
    EXPECT_OK(cuMemFree(0));
}

TEST_F(Memory, Free_AnInnerPointer_IsInvalidValueAndKeepsTheAllocation)
{
    CUdeviceptr p;
    ASSERT_OK(cuMemAlloc(&p, 8192));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(p + 1));
    EXPECT_DETAIL_HAS("not its start");
    ((char *)p)[8191] = 1; // still mapped
    EXPECT_OK(cuMemFree(p));
}

TEST_F(Memory, Free_Twice_IsInvalidValue)
{
    CUdeviceptr p;
    ASSERT_OK(cuMemAlloc(&p, 64));
    ASSERT_OK(cuMemFree(p));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(p));
    EXPECT_DETAIL_HAS("or it was freed");
}

TEST_F(Memory, Free_OfHostMemoryOrAForeignPointer_IsInvalidValue)
{
    void *h;
    ASSERT_OK(cuMemAllocHost(&h, 64));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree((CUdeviceptr)h));
    EXPECT_DETAIL_HAS("is host memory, not device memory");
    int local;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree((CUdeviceptr)&local));
    EXPECT_OK(cuMemFreeHost(h));
}

TEST_F(Memory, GetAddressRange_FindsTheAllocationFromAnyInnerAddress)
{
    CUdeviceptr p, base = 0;
    size_t size = 0;
    ASSERT_OK(cuMemAlloc(&p, 1000));
    for (CUdeviceptr q : {p, p + 500, p + 999}) {
        EXPECT_OK(cuMemGetAddressRange(&base, &size, q));
        EXPECT_EQ(p, base);
        EXPECT_EQ(1000u, size);
    }
    EXPECT_OK(cuMemGetAddressRange(nullptr, nullptr, p));
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, p + 1000));
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, 0));
    int local;
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, (CUdeviceptr)&local));
    EXPECT_OK(cuMemFree(p));
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, p));
}

TEST_F(Memory, ManyAllocations_AreEachFoundAgain)
{
    const int n = 500;
    CUdeviceptr p[n];
    for (int i = 0; i < n; ++i)
        ASSERT_OK(cuMemAlloc(&p[i], 4096 + i));
    for (int i = n - 1; i >= 0; --i) {
        CUdeviceptr base;
        size_t size;
        ASSERT_OK(cuMemGetAddressRange(&base, &size, p[i] + 4000));
        EXPECT_EQ(p[i], base);
        EXPECT_EQ(4096u + i, size);
    }
    for (int i = 0; i < n; i += 2)
        ASSERT_OK(cuMemFree(p[i]));
    for (int i = 1; i < n; i += 2)
        ASSERT_OK(cuMemFree(p[i]));
}

TEST_F(Memory, GetInfo_ReportsFreeAndTotal)
{
    size_t free_b = 0, total = 0;
    EXPECT_OK(cuMemGetInfo(&free_b, &total));
    EXPECT_GT(total, 0u);
    EXPECT_LE(free_b, total);
    EXPECT_OK(cuMemGetInfo(nullptr, &total)); // either may be NULL, as on the driver
    EXPECT_OK(cuMemGetInfo(&free_b, nullptr));
}

TEST_F(Memory, AllocPitch_PadsRowsTo512Bytes)
{
    CUdeviceptr p;
    size_t pitch = 0;
    ASSERT_OK(cuMemAllocPitch(&p, &pitch, 100, 10, 4));
    EXPECT_EQ(512u, pitch);
    size_t size;
    EXPECT_OK(cuMemGetAddressRange(nullptr, &size, p));
    EXPECT_EQ(5120u, size);
    EXPECT_OK(cuMemFree(p));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocPitch(&p, &pitch, 100, 10, 3));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocPitch(&p, &pitch, 0, 10, 4));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocPitch(&p, nullptr, 100, 10, 4));
    EXPECT_CU(CUDA_ERROR_OUT_OF_MEMORY, cuMemAllocPitch(&p, &pitch, 1 << 20, SIZE_MAX / 1024, 4));
}

TEST_F(Memory, HostAlloc_IsHostMemoryAtTheSameDeviceAddress)
{
    void *h = nullptr;
    ASSERT_OK(cuMemHostAlloc(&h, 10000, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED));
    memset(h, 1, 10000);
    CUdeviceptr d = 0;
    EXPECT_OK(cuMemHostGetDevicePointer(&d, (char *)h + 16, 0));
    EXPECT_EQ((CUdeviceptr)h + 16, d);
    unsigned int flags = 0;
    EXPECT_OK(cuMemHostGetFlags(&flags, h));
    EXPECT_EQ((unsigned)(CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED), flags);
    CUdeviceptr base;
    size_t size;
    EXPECT_OK(cuMemGetAddressRange(&base, &size, (CUdeviceptr)h + 16));
    EXPECT_EQ((CUdeviceptr)h, base);
    EXPECT_EQ(10000u, size);
    EXPECT_OK(cuMemFreeHost(h));
}

TEST_F(Memory, HostAlloc_BadArguments)
{
    void *h;
    h = (void *)1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostAlloc(&h, 4096, 0x10));
    EXPECT_DETAIL_HAS("CU_MEMHOSTALLOC_");
    EXPECT_EQ(nullptr, h);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostAlloc(nullptr, 16, 0));
    EXPECT_CU(CUDA_ERROR_OUT_OF_MEMORY, cuMemAllocHost(&h, size_t(1) << 50));
    EXPECT_DETAIL_HAS("cuMemAllocHost: ");
}

TEST_F(Memory, HostAlloc_OfZeroBytes_SucceedsWithNull)
{
    void *h = (void *)1;
    EXPECT_OK(cuMemHostAlloc(&h, 0, 0));
    EXPECT_EQ(nullptr, h);
    h = (void *)1;
    EXPECT_OK(cuMemAllocHost(&h, 0));
    EXPECT_EQ(nullptr, h);
    EXPECT_OK(cuMemFreeHost(nullptr));
}

TEST_F(Memory, HostMemory_IsAlwaysMappedForTheDevice)
{
    void *h;
    unsigned int flags = 0;
    ASSERT_OK(cuMemAllocHost(&h, 64));
    EXPECT_OK(cuMemHostGetFlags(&flags, h));
    EXPECT_EQ((unsigned)CU_MEMHOSTALLOC_DEVICEMAP, flags);
    EXPECT_OK(cuMemFreeHost(h));
    ASSERT_OK(cuMemHostAlloc(&h, 64, CU_MEMHOSTALLOC_PORTABLE));
    EXPECT_OK(cuMemHostGetFlags(&flags, h));
    EXPECT_EQ((unsigned)(CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE), flags);
    EXPECT_OK(cuMemFreeHost(h));
}

TEST_F(Memory, FailedCalls_LeaveZeroInTheirOutputs)
{
    CUdeviceptr p = 5, base = 5;
    size_t size = 5, pitch = 5;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(&p, 0));
    EXPECT_EQ(0u, p);
    p = 5;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocPitch(&p, &pitch, 100, 10, 3));
    EXPECT_EQ(0u, p);
    EXPECT_EQ(0u, pitch);
    int local;
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, (CUdeviceptr)&local));
    EXPECT_EQ(0u, base);
    EXPECT_EQ(0u, size);
    CUdeviceptr d = 5;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(&d, &local, 0));
    EXPECT_EQ(0u, d);
}

TEST_F(Memory, HostGetDevicePointer_BadArguments)
{
    void *h;
    ASSERT_OK(cuMemAllocHost(&h, 64));
    CUdeviceptr d;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(&d, h, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(nullptr, h, 0));
    int local;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(&d, &local, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(&d, nullptr, 0));
    unsigned int flags;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostGetFlags(&flags, &local));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostGetFlags(nullptr, h));
    EXPECT_OK(cuMemFreeHost(h));
}

TEST_F(Memory, FreeHost_BadPointers_AreInvalidValue)
{
    void *h;
    ASSERT_OK(cuMemAllocHost(&h, 64));
    int local;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(&local));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost((char *)h + 16));
    CUdeviceptr d;
    ASSERT_OK(cuMemAlloc(&d, 64));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost((void *)d));
    EXPECT_DETAIL_HAS("is device memory, not host memory");
    EXPECT_OK(cuMemFree(d));
    EXPECT_OK(cuMemFreeHost(h));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(h));
}
