// VMM cases where docs/driver-observations.md §15 records what the real driver does and
// extmem answers otherwise, with no deviation documented in docs/vmm.md. BEHAVIOR.md's rule
// 2 applies (match the driver's result code and what it writes). Each case quotes the row
// of the observation table it checks.
#include "framework/testing.h"

using namespace extmem_test;

namespace {

class VmmConformance : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        CUmemAllocationProp prop{};
        prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        prop.requestedHandleTypes = kNativeHandleType;
        ASSERT_OK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
        ASSERT_OK(cuMemCreate(&handle, gran, &prop, 0));
        ASSERT_OK(cuMemAddressReserve(&base, 2 * gran, 0, 0, 0));
        ASSERT_OK(cuMemMap(base, gran, 0, handle, 0));
    }
    void TearDown() override
    {
        EXPECT_OK(cuMemUnmap(base, gran));
        EXPECT_OK(cuMemAddressFree(base, 2 * gran));
        EXPECT_OK(cuMemRelease(handle));
        ContextTest::TearDown();
    }
    void set_rw()
    {
        CUmemAccessDesc rw{};
        rw.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        ASSERT_OK(cuMemSetAccess(base, gran, &rw, 1));
    }
    size_t gran = 0;
    CUmemGenericAllocationHandle handle = 0;
    CUdeviceptr base = 0;
};

} // namespace

// "GetAccess location.type HOST (id 0) on a RW mapping | SUCCESS, 3 (location type not checked)"
TEST_F(VmmConformance, GetAccess_HostLocationOnAReadWriteMapping_IsSuccessWithFlags3)
{
    set_rw();
    CUmemLocation host = {CU_MEM_LOCATION_TYPE_HOST, 0};
    unsigned long long flags = 77;
    EXPECT_OK(cuMemGetAccess(&flags, &host, base));
    EXPECT_EQ(3u, flags);
}

// "GetAccess location.id 1 | INVALID_DEVICE, untouched"
TEST_F(VmmConformance, GetAccess_LocationOfDevice1_IsInvalidDeviceAndLeavesFlagsUntouched)
{
    set_rw();
    CUmemLocation dev1 = {CU_MEM_LOCATION_TYPE_DEVICE, 1};
    unsigned long long flags = 77;
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemGetAccess(&flags, &dev1, base));
    EXPECT_EQ(77u, flags);
}

// "GetAccess ptr 0 | INVALID_VALUE, untouched" (an unmapped address other than 0 gets 0 written)
TEST_F(VmmConformance, GetAccess_PtrZero_IsInvalidValueAndLeavesFlagsUntouched)
{
    CUmemLocation dev = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
    unsigned long long flags = 77;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetAccess(&flags, &dev, 0));
    EXPECT_EQ(77u, flags);
}

// cuPointerGetAttribute table: "DEVICE_POINTER | RW mapping: SUCCESS, the pointer itself |
// mapping without access: INVALID_VALUE, writes 0"
TEST_F(VmmConformance, PointerAttribute_DevicePointerOfAMappingWithoutAccess_IsInvalidValueAndWritesZero)
{
    CUdeviceptr out = 5;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&out, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, base + 100));
    EXPECT_EQ(0u, out);
    set_rw();
    EXPECT_OK(cuPointerGetAttribute(&out, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, base + 100));
    EXPECT_EQ(base + 100, out);
}
