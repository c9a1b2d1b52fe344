// Pointer attributes.
#include "framework/testing.h"

#include <cstring>

using namespace extmem_test;

using Pointer = ContextTest;

TEST_F(Pointer, DeviceMemory_Attributes)
{
    CUdeviceptr p;
    ASSERT_OK(cuMemAlloc(&p, 1000));
    unsigned int type = 0, managed = 9;
    CUcontext c = nullptr;
    CUdeviceptr dp = 0, start = 0;
    size_t size = 0;
    int ordinal = 9, mapped = 0;
    unsigned long long id1 = 0, id2 = 0;
    EXPECT_OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p + 100));
    EXPECT_EQ((unsigned)CU_MEMORYTYPE_DEVICE, type);
    EXPECT_OK(cuPointerGetAttribute(&c, CU_POINTER_ATTRIBUTE_CONTEXT, p));
    EXPECT_EQ(ctx, c);
    EXPECT_OK(cuPointerGetAttribute(&dp, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, p + 100));
    EXPECT_EQ(p + 100, dp);
    EXPECT_OK(cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, p + 100));
    EXPECT_EQ(p, start);
    EXPECT_OK(cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, p + 100));
    EXPECT_EQ(1000u, size);
    EXPECT_OK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, p));
    EXPECT_EQ(0u, managed);
    EXPECT_OK(cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, p));
    EXPECT_EQ(0, ordinal);
    EXPECT_OK(cuPointerGetAttribute(&mapped, CU_POINTER_ATTRIBUTE_MAPPED, p));
    EXPECT_EQ(1, mapped);
    EXPECT_OK(cuPointerGetAttribute(&id1, CU_POINTER_ATTRIBUTE_BUFFER_ID, p));
    CUdeviceptr q;
    ASSERT_OK(cuMemAlloc(&q, 16));
    EXPECT_OK(cuPointerGetAttribute(&id2, CU_POINTER_ATTRIBUTE_BUFFER_ID, q));
    EXPECT_NE(id1, id2);
    void *host = (void *)1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&host, CU_POINTER_ATTRIBUTE_HOST_POINTER, p));
    EXPECT_DETAIL_HAS("no host pointer");
    EXPECT_OK(cuMemFree(q));
    EXPECT_OK(cuMemFree(p));
}

TEST_F(Pointer, HostMemory_Attributes)
{
    void *h;
    ASSERT_OK(cuMemAllocHost(&h, 4096));
    unsigned int type = 0;
    void *hp = nullptr;
    CUdeviceptr dp = 0;
    EXPECT_OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)h));
    EXPECT_EQ((unsigned)CU_MEMORYTYPE_HOST, type);
    EXPECT_OK(cuPointerGetAttribute(&hp, CU_POINTER_ATTRIBUTE_HOST_POINTER, (CUdeviceptr)h + 8));
    EXPECT_EQ((char *)h + 8, hp);
    EXPECT_OK(cuPointerGetAttribute(&dp, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, (CUdeviceptr)h));
    EXPECT_EQ((CUdeviceptr)h, dp);
    EXPECT_OK(cuMemFreeHost(h));
}

TEST_F(Pointer, UnknownPointer_IsInvalidValueForEveryAttribute)
{
    int local;
    for (int a = CU_POINTER_ATTRIBUTE_CONTEXT; a <= CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE; ++a) {
        if (a == CU_POINTER_ATTRIBUTE_P2P_TOKENS)
            continue;
        unsigned char buf[16];
        memset(buf, 0xaa, sizeof(buf));
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(buf, (CUpointer_attribute)a, (CUdeviceptr)&local))
            << "attribute " << a;
        EXPECT_EQ(0xaa, buf[0]) << "nothing is written";
    }
}

TEST_F(Pointer, BadAttributesOrData_AreInvalidValue)
{
    CUdeviceptr p;
    ASSERT_OK(cuMemAlloc(&p, 16));
    int v;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&v, (CUpointer_attribute)0, p));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&v, (CUpointer_attribute)1000, p));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(nullptr, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p + 16));
    CUDA_POINTER_ATTRIBUTE_ACCESS_FLAGS unused{};
    (void)unused;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_P2P_TOKENS, p));
    EXPECT_OK(cuMemFree(p));
}

TEST_F(Pointer, GetAttributes_OnAnUnknownPointer_SucceedsWithDefaults)
{
    int local;
    unsigned int type = 7;
    CUcontext c = (CUcontext)7;
    int ordinal = 7;
    CUdeviceptr start = 7;
    CUpointer_attribute attrs[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_CONTEXT,
                                   CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR};
    void *data[] = {&type, &c, &ordinal, &start};
    EXPECT_OK(cuPointerGetAttributes(4, attrs, data, (CUdeviceptr)&local));
    EXPECT_EQ(0u, type);
    EXPECT_EQ(nullptr, c);
    EXPECT_EQ(-2, ordinal);  // as the driver answers
    EXPECT_EQ(7u, start);    // left alone, as the driver does
}

TEST_F(Pointer, GetAttributes_OnDeviceMemory_MatchesTheSingleQueries)
{
    CUdeviceptr p;
    ASSERT_OK(cuMemAlloc(&p, 100));
    unsigned int type = 0;
    size_t size = 0;
    void *host = (void *)1;
    CUpointer_attribute attrs[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_RANGE_SIZE,
                                   CU_POINTER_ATTRIBUTE_HOST_POINTER};
    void *data[] = {&type, &size, &host};
    EXPECT_OK(cuPointerGetAttributes(3, attrs, data, p));
    EXPECT_EQ((unsigned)CU_MEMORYTYPE_DEVICE, type);
    EXPECT_EQ(100u, size);
    EXPECT_EQ(nullptr, host);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttributes(0, attrs, data, p));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttributes(3, nullptr, data, p));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttributes(3, attrs, nullptr, p));
    EXPECT_OK(cuMemFree(p));
}

// Only SYNC_MEMOPS can be set, and only on known memory (docs/probes/surface/atomic.out).
TEST_F(Pointer, SetAttribute_OnlySyncMemopsOnKnownMemory)
{
    CUdeviceptr d = 0;
    ASSERT_OK(cuMemAlloc(&d, 4096));
    int one = 1, zero = 0, local = 0;
    EXPECT_OK(cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
    EXPECT_OK(cuPointerSetAttribute(&zero, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d + 100));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS,
                                                              (CUdeviceptr)(uintptr_t)&local));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerSetAttribute(nullptr, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
    EXPECT_OK(cuMemFree(d));
}
