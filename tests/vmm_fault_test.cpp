// What the OS does to a program that touches VMM memory it has no access to: the access it was
// given with cuMemSetAccess is the page protection itself (DESIGN.md §8), so a read of a mapping
// without access, or a write to a read-only one, ends the process as a real fault does. Each
// case runs in a child process started for it (POSIX and Windows alike; vmm_test.cpp has the
// variants caught in-process on POSIX).
#include "framework/testing.h"

#include <cstdio>
#include <string>

using namespace extmem_test;

namespace {

/* A fresh program's context and one granule mapped at a reservation, with `flags` access
 * (0: none given). Returns the address, or 0. */
CUdeviceptr mapped_granule(CUmemAccess_flags flags)
{
    CUcontext ctx = nullptr;
    if (cuInit(0) || cuCtxCreate(&ctx, nullptr, 0, 0))
        return 0;
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    size_t gran = 0;
    CUmemGenericAllocationHandle h = 0;
    CUdeviceptr p = 0;
    if (cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) || cuMemCreate(&h, gran, &prop, 0) ||
        cuMemAddressReserve(&p, gran, 0, 0, 0) || cuMemMap(p, gran, 0, h, 0))
        return 0;
    if (flags != CU_MEM_ACCESS_FLAGS_PROT_NONE) {
        CUmemAccessDesc rw = {};
        rw.location = prop.location;
        rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        if (cuMemSetAccess(p, gran, &rw, 1))
            return 0;
        ((volatile unsigned char *)p)[0] = 42;
        CUmemAccessDesc given = rw;
        given.flags = flags;
        if (cuMemSetAccess(p, gran, &given, 1))
            return 0;
    }
    return p;
}

} // namespace

/* argv[0]: "none" or "read" (the access given); argv[1]: "read" or "write" (what it then does). */
EXTMEM_CHILD_ROLE(toucher)
{
    CUdeviceptr p = mapped_granule(args[0] == "read" ? CU_MEM_ACCESS_FLAGS_PROT_READ : CU_MEM_ACCESS_FLAGS_PROT_NONE);
    if (!p)
        return 10;
    fault_kills_process();
    printf("mapped\n");
    fflush(stdout);
    volatile unsigned char *q = (volatile unsigned char *)p;
    if (args[1] == "read")
        printf("read %d\n", q[0]);
    else
        q[0] = 1;
    printf("survived\n");
    return 0;
}

TEST(VmmFault, ReadingAMappingBeforeSetAccess_EndsTheProcess)
{
    Child c("toucher", {"none", "read"});
    EXPECT_EQ("mapped", c.read_line());
    EXPECT_EQ("", c.read_line()); // nothing after the fault
    EXPECT_EQ(128 + 11, c.wait());
}

TEST(VmmFault, ReadingAReadOnlyMapping_Works)
{
    Child c("toucher", {"read", "read"});
    EXPECT_EQ("mapped", c.read_line());
    EXPECT_EQ("read 42", c.read_line());
    EXPECT_EQ("survived", c.read_line());
    EXPECT_EQ(0, c.wait());
}

TEST(VmmFault, WritingAReadOnlyMapping_EndsTheProcess)
{
    Child c("toucher", {"read", "write"});
    EXPECT_EQ("mapped", c.read_line());
    EXPECT_EQ("", c.read_line());
    EXPECT_EQ(128 + 11, c.wait());
}
