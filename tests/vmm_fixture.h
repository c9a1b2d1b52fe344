// The fixture of the VMM tests (vmm_test.cpp, and vmm_posix_test.cpp for what only POSIX has):
// a context, allocation properties with POSIX fds requested, the granularity, read-write access.
#ifndef EXTMEM_TESTS_VMM_FIXTURE_H
#define EXTMEM_TESTS_VMM_FIXTURE_H

#include "framework/testing.h"

namespace extmem_test {

class Vmm : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        prop.location.id = 0;
        prop.requestedHandleTypes = kNativeHandleType;
        ASSERT_OK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
        rw.location = prop.location;
        rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    }
    CUmemGenericAllocationHandle create(size_t size)
    {
        CUmemGenericAllocationHandle h = 0;
        EXPECT_OK(cuMemCreate(&h, size, &prop, 0));
        return h;
    }
    CUdeviceptr reserve(size_t size)
    {
        CUdeviceptr p = 0;
        EXPECT_OK(cuMemAddressReserve(&p, size, 0, 0, 0));
        return p;
    }
    CUmemAllocationProp prop{};
    CUmemAccessDesc rw{};
    size_t gran = 0;
};

} // namespace extmem_test

#endif
