// Large copies and fills, which run in pieces on the worker pool (src/memory/copy.c): every byte
// lands where a single memmove/memset would put it, whatever the alignment, overlap or mapping.
#include "framework/testing.h"

#include <cstring>
#include <vector>

using namespace extmem_test;

namespace {

constexpr size_t kBig = 48u << 20; /* well above the 4 MiB where copies are split */

void pattern(unsigned char *p, size_t n, unsigned seed)
{
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; ++i) {
        x = x * 1664525u + 1013904223u;
        p[i] = (unsigned char)(x >> 24);
    }
}

class CopyParallel : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        ASSERT_OK(cuMemAlloc(&a, kBig));
        ASSERT_OK(cuMemAlloc(&b, kBig));
    }
    void TearDown() override
    {
        EXPECT_OK(cuMemFree(a));
        EXPECT_OK(cuMemFree(b));
        ContextTest::TearDown();
    }
    unsigned char *pa() { return (unsigned char *)(uintptr_t)a; }
    unsigned char *pb() { return (unsigned char *)(uintptr_t)b; }
    CUdeviceptr a = 0, b = 0;
};

} // namespace

TEST_F(CopyParallel, UnalignedLargeCopy_EveryByteArrivesAndNothingAround)
{
    pattern(pa(), kBig, 1);
    std::memset(pb(), 0xee, kBig);
    size_t n = kBig - (1u << 20) - 13; /* not a multiple of any piece */
    ASSERT_OK(cuMemcpyDtoD(b + 5, a + 3, n));
    EXPECT_EQ(0, std::memcmp(pb() + 5, pa() + 3, n));
    EXPECT_EQ(0xee, pb()[4]);
    EXPECT_EQ(0xee, pb()[5 + n]);
}

TEST_F(CopyParallel, OverlappingLargeCopies_BehaveLikeMemmoveBothWays)
{
    std::vector<unsigned char> expect(kBig);
    pattern(pa(), kBig, 2);
    std::memcpy(expect.data(), pa(), kBig);
    size_t n = kBig - (8u << 20);
    std::memmove(expect.data() + 4099, expect.data(), n);
    ASSERT_OK(cuMemcpyDtoD(a + 4099, a, n)); /* forward overlap */
    EXPECT_EQ(0, std::memcmp(expect.data(), pa(), kBig));
    std::memmove(expect.data() + 1, expect.data() + (3u << 20), n);
    ASSERT_OK(cuMemcpyDtoD(a + 1, a + (3u << 20), n)); /* backward overlap */
    EXPECT_EQ(0, std::memcmp(expect.data(), pa(), kBig));
}

TEST_F(CopyParallel, LargeFillsOfEachElementSize_WriteExactlyTheirRange)
{
    std::memset(pa(), 0, kBig);
    size_t n32 = (kBig - 64) / 4 - 3;
    ASSERT_OK(cuMemsetD32(a + 4, 0x01020304u, n32));
    const uint32_t *w = (const uint32_t *)(const void *)(pa() + 4);
    EXPECT_EQ(0x01020304u, w[0]);
    EXPECT_EQ(0x01020304u, w[n32 / 2]);
    EXPECT_EQ(0x01020304u, w[n32 - 1]);
    EXPECT_EQ(0u, w[n32]);
    size_t n16 = (kBig - 64) / 2 - 1;
    ASSERT_OK(cuMemsetD16(b + 2, 0xabcd, n16));
    const uint16_t *h = (const uint16_t *)(const void *)(pb() + 2);
    size_t bad = 0;
    for (size_t i = 0; i < n16; ++i)
        bad += h[i] != 0xabcd;
    EXPECT_EQ(0u, bad);
    std::memset(pb(), 0, kBig);
    ASSERT_OK(cuMemsetD8(b + 1, 0x5a, kBig - 2));
    EXPECT_EQ(0, pb()[0]);
    EXPECT_EQ(0x5a, pb()[1]);
    EXPECT_EQ(0x5a, pb()[kBig - 2]);
    EXPECT_EQ(0, pb()[kBig - 1]);
}

TEST_F(CopyParallel, Large2DCopyInAStream_HonoursPitches)
{
    pattern(pa(), kBig, 3);
    std::memset(pb(), 0, kBig);
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUDA_MEMCPY2D c{};
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = a;
    c.srcPitch = 4096;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = b;
    c.dstPitch = 4000 + 64;
    c.WidthInBytes = 4000;
    c.Height = 10000;
    ASSERT_OK(cuMemcpy2DAsync(&c, s));
    ASSERT_OK(cuStreamSynchronize(s));
    size_t bad = 0;
    for (size_t row = 0; row < c.Height; ++row) {
        bad += std::memcmp(pb() + row * c.dstPitch, pa() + row * c.srcPitch, c.WidthInBytes) != 0;
        bad += pb()[row * c.dstPitch + c.WidthInBytes] != 0;
    }
    EXPECT_EQ(0u, bad);
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(CopyParallel, CopyAcrossVmmMappingsOfSeveralAllocations_IsSeamless)
{
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    size_t gran = 0;
    ASSERT_OK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    size_t pieces = (16u << 20) / gran < 3 ? 3 : (16u << 20) / gran, size = pieces * gran;
    CUdeviceptr range;
    ASSERT_OK(cuMemAddressReserve(&range, size, 0, 0, 0));
    std::vector<CUmemGenericAllocationHandle> handles(pieces);
    CUmemAccessDesc access{};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    for (size_t i = 0; i < pieces; ++i) {
        ASSERT_OK(cuMemCreate(&handles[i], gran, &prop, 0));
        ASSERT_OK(cuMemMap(range + i * gran, gran, 0, handles[i], 0));
    }
    ASSERT_OK(cuMemSetAccess(range, size, &access, 1));
    pattern(pa(), size, 4);
    ASSERT_OK(cuMemcpyDtoD(range + 7, a, size - 7));
    EXPECT_EQ(0, std::memcmp((const void *)(uintptr_t)(range + 7), pa(), size - 7));
    ASSERT_OK(cuMemcpyDtoD(b, range + 7, size - 7));
    EXPECT_EQ(0, std::memcmp(pb(), pa(), size - 7));
    ASSERT_OK(cuMemUnmap(range, size));
    for (auto h : handles)
        EXPECT_OK(cuMemRelease(h));
    EXPECT_OK(cuMemAddressFree(range, size));
}
