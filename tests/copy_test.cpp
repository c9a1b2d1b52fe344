// Copies and fills, synchronous and in streams.
#include "framework/testing.h"

#include <cstring>
#include <vector>

using namespace extmem_test;

class Copy : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        ASSERT_OK(cuMemAlloc(&a, 1000));
        ASSERT_OK(cuMemAlloc(&b, 1000));
    }
    void TearDown() override
    {
        EXPECT_OK(cuMemFree(a));
        EXPECT_OK(cuMemFree(b));
        ContextTest::TearDown();
    }
    CUdeviceptr a = 0, b = 0;
};

TEST_F(Copy, HostToDeviceToDeviceToHost_RoundTrips)
{
    std::vector<unsigned char> in(1000), out(1000, 0);
    for (size_t i = 0; i < in.size(); ++i)
        in[i] = (unsigned char)(i * 7);
    EXPECT_OK(cuMemcpyHtoD(a, in.data(), 1000));
    EXPECT_OK(cuMemcpyDtoD(b, a, 1000));
    EXPECT_OK(cuMemcpyDtoH(out.data(), b, 1000));
    EXPECT_EQ(in, out);
}

TEST_F(Copy, UnifiedMemcpy_AcceptsHostAndDeviceAddresses)
{
    std::vector<int> in(250, 42), out(250, 0);
    EXPECT_OK(cuMemcpy(a, (CUdeviceptr)in.data(), 1000));
    EXPECT_OK(cuMemcpy((CUdeviceptr)out.data(), a, 1000));
    EXPECT_EQ(in, out);
}

TEST_F(Copy, OverlappingCopyWithinAnAllocation_BehavesLikeMemmove)
{
    unsigned char *p = (unsigned char *)a;
    for (int i = 0; i < 16; ++i)
        p[i] = (unsigned char)i;
    EXPECT_OK(cuMemcpyDtoD(a + 4, a, 8));
    EXPECT_EQ(0, p[4]);
    EXPECT_EQ(7, p[11]);
}

TEST_F(Copy, PastTheEndOfAnAllocation_IsInvalidValue)
{
    std::vector<char> host(4096);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(a, host.data(), 2000));
    EXPECT_DETAIL_HAS("runs past the end of its allocation");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(host.data(), a + 999, 2));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(b, a, 1001));
}

TEST_F(Copy, NullOrUnmappedPointers_AreInvalidValue)
{
    char host[16];
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(a, nullptr, 16));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(nullptr, a, 16));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(0, host, 16));
    void *hole = map_inaccessible(8192);
    ASSERT_NE(nullptr, hole);
    unmap_inaccessible(hole, 8192);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(a, hole, 16));
    EXPECT_DETAIL_HAS("neither extmem memory nor readable host memory");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy(a, (CUdeviceptr)-4096, 100));
}

TEST_F(Copy, MappedButInaccessibleHostMemory_IsInvalidValueNotACrash)
{
    void *guard = map_inaccessible(8192);
    ASSERT_NE(nullptr, guard);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(a, guard, 16)); // a guard page: mapped, not readable
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH((char *)guard + 4096, a, 16));
    EXPECT_DETAIL_HAS("readable host memory");
    unmap_inaccessible(guard, 8192);
}

TEST_F(Copy, ZeroBytes_IsANoOp)
{
    EXPECT_OK(cuMemcpyHtoD(a, nullptr, 0));
    EXPECT_OK(cuMemcpy(a, a + 8, 0));
}

TEST_F(Copy, Memset_WritesElementsOfEachSize)
{
    EXPECT_OK(cuMemsetD8(a, 0x11, 1000));
    EXPECT_EQ(0x11, ((unsigned char *)a)[999]);
    EXPECT_OK(cuMemsetD16(a, 0x2233, 500));
    EXPECT_EQ(0x2233, ((unsigned short *)a)[499]);
    EXPECT_OK(cuMemsetD32(a, 0x44556677u, 250));
    EXPECT_EQ(0x44556677u, ((unsigned int *)a)[249]);
}

TEST_F(Copy, Memset_UnalignedOrOverrunOrNull_IsInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(a + 1, 0, 4));
    EXPECT_DETAIL_HAS("not aligned to the 4-byte element size");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD16(a + 1, 0, 4));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD8(a, 0, 2000));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(0, 0, 4));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(a, 0, SIZE_MAX / 2));
    EXPECT_OK(cuMemsetD32(a, 0, 0));
}

TEST_F(Copy, Memset2D_FillsRowsAndLeavesThePadding)
{
    EXPECT_OK(cuMemsetD8(a, 0, 1000));
    EXPECT_OK(cuMemsetD2D32(a, 100, 0xffffffffu, 10, 5)); // 40 bytes of each 100-byte row
    unsigned char *p = (unsigned char *)a;
    EXPECT_EQ(0xff, p[0]);
    EXPECT_EQ(0xff, p[39]);
    EXPECT_EQ(0x00, p[40]);
    EXPECT_EQ(0xff, p[400 + 39]);
    EXPECT_EQ(0x00, p[499]);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D32(a, 20, 0, 10, 5)); // pitch < row
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D8(a, 300, 0, 100, 5)); // past the end
}

TEST_F(Copy, Copy2D_HonoursPitchesAndOffsets)
{
    std::vector<unsigned char> host(64 * 4);
    for (size_t i = 0; i < host.size(); ++i)
        host[i] = (unsigned char)i;
    EXPECT_OK(cuMemsetD8(a, 0, 1000));
    CUDA_MEMCPY2D c{};
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = host.data();
    c.srcPitch = 64;
    c.srcXInBytes = 2;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = a;
    c.dstPitch = 100;
    c.dstY = 1;
    c.WidthInBytes = 10;
    c.Height = 3;
    EXPECT_OK(cuMemcpy2D(&c));
    unsigned char *p = (unsigned char *)a;
    EXPECT_EQ(2, p[100]);
    EXPECT_EQ(64 + 2, p[200]);
    EXPECT_EQ(128 + 11, p[309]);
    EXPECT_EQ(0, p[310]);
}

TEST_F(Copy, Copy2D_BadDescriptors)
{
    CUDA_MEMCPY2D c{};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(nullptr));
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = a;
    c.WidthInBytes = 4;
    c.Height = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c)); // a NULL array (tests/array_test.cpp has the rest)
    EXPECT_DETAIL_HAS("srcArray is NULL");
    c.srcMemoryType = (CUmemorytype)9;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c));
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = b;
    c.srcPitch = 2;
    c.dstPitch = 8;
    c.Height = 2;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c)); // srcPitch < WidthInBytes
    c.srcPitch = 8;
    c.Height = 200;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2DUnaligned(&c)); // past the end
}

TEST_F(Copy, AsyncCopiesAndFills_RunInStreamOrder)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    std::vector<unsigned int> out(250, 0);
    for (unsigned int v = 1; v <= 50; ++v) {
        ASSERT_OK(cuMemsetD32Async(a, v, 250, s));
        ASSERT_OK(cuMemcpyDtoDAsync(b, a, 1000, s));
    }
    ASSERT_OK(cuMemcpyDtoHAsync(out.data(), b, 1000, s));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(50u, out[0]);
    EXPECT_EQ(50u, out[249]);
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Copy, AsyncOnADestroyedStream_IsInvalidHandle)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    ASSERT_OK(cuStreamDestroy(s));
    char host[8];
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMemcpyHtoDAsync(a, host, 8, s));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMemsetD8Async(a, 0, 8, s));
}
