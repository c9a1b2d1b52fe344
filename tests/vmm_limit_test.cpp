// The operating system's limit on mappings. Linux gives a process at most vm.max_map_count
// memory mappings (VMAs; 65530 by default, /proc/sys/vm/max_map_count): the physical limit on
// live cuMemMap mappings of the software device, since each one is a MAP_FIXED mmap of a
// memfd (DESIGN.md §8). These cases fill a reservation with one-granule mappings until the
// OS refuses, then check what extmem reports and that the state stays consistent. Each runs
// in its own process (ctest), so the exhausted map count touches nothing else.
#include "framework/testing.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <sys/uio.h>
#include <unistd.h>

using namespace extmem_test;

/* Not built under sanitizers (tests/CMakeLists.txt): their runtimes abort at the limit. */

namespace {

long max_map_count()
{
    FILE *f = std::fopen("/proc/sys/vm/max_map_count", "r");
    long v = -1;
    if (f) {
        if (std::fscanf(f, "%ld", &v) != 1)
            v = -1;
        std::fclose(f);
    }
    return v;
}

// Lines of /proc/self/maps that contain text (all lines when text is empty).
int maps_lines(const char *text)
{
    FILE *f = std::fopen("/proc/self/maps", "r");
    if (!f)
        return -1;
    char line[512];
    int n = 0;
    while (std::fgets(line, sizeof(line), f))
        n += !*text || std::strstr(line, text) != nullptr;
    std::fclose(f);
    return n;
}

// 0 when addr can be read, else the errno (EFAULT: not accessible). No signal either way.
int probe_read(CUdeviceptr addr)
{
    char byte;
    struct iovec local = {&byte, 1}, remote = {(void *)(uintptr_t)addr, 1};
    return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 1 ? 0 : errno;
}

class VmmMapLimit : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        limit = max_map_count();
        if (limit <= 0 || limit > (1 << 20))
            GTEST_SKIP() << "vm.max_map_count is " << limit << ": too large to reach in a test";
        CUmemAllocationProp prop{};
        prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        ASSERT_OK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
        ASSERT_OK(cuMemCreate(&handle, gran, &prop, 0));
        slots = (size_t)limit + 1000;
        ASSERT_OK(cuMemAddressReserve(&base, slots * gran, 0, 0, 0));
    }

    // Maps the granule-sized allocation into successive granules until cuMemMap fails.
    void fill()
    {
        for (mapped = 0; mapped < slots; ++mapped) {
            failure = cuMemMap(base + mapped * gran, gran, 0, handle, 0);
            if (failure != CUDA_SUCCESS) {
                detail = extmem_error_detail();
                return;
            }
        }
    }

    void TearDown() override
    {
        if (base) {
            EXPECT_OK(cuMemUnmap(base, slots * gran));
            EXPECT_OK(cuMemAddressFree(base, slots * gran));
            EXPECT_EQ(0, maps_lines("/memfd:extmem-vmm")) << "mappings survived the teardown";
        }
        if (handle) {
            EXPECT_OK(cuMemRelease(handle));
        }
        ContextTest::TearDown();
    }

    long limit = 0;
    size_t gran = 0, slots = 0, mapped = 0;
    CUmemGenericAllocationHandle handle = 0;
    CUdeviceptr base = 0;
    CUresult failure = CUDA_SUCCESS;
    std::string detail;
};

} // namespace

TEST_F(VmmMapLimit, MappingPastVmMaxMapCount_IsOutOfMemoryNamingTheLimit_AndLeavesNothingHalfDone)
{
    fill();
    std::printf("vm.max_map_count %ld: %zu one-granule mappings succeeded, the next returned %d: %s\n", limit, mapped,
                (int)failure, detail.c_str());
    ASSERT_LT(mapped, slots) << "the OS never refused a mapping";
    EXPECT_EQ(CUDA_ERROR_OUT_OF_MEMORY, failure);
    EXPECT_NE(std::string::npos, detail.find("vm.max_map_count")) << detail;
    EXPECT_GT(mapped, (size_t)limit - 500) << "the limit came far earlier than vm.max_map_count";
    // The refused mapping left no trace: not registered, not in the address space.
    CUdeviceptr refused = base + mapped * gran;
    unsigned long long flags = 9;
    CUmemLocation dev = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetAccess(&flags, &dev, refused));
    EXPECT_EQ(EFAULT, probe_read(refused));
    // Access can still be set on the existing mappings (mprotect of a whole mapping needs no
    // new one), and the memory works.
    CUmemAccessDesc rw{};
    rw.location = dev;
    rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    ASSERT_OK(cuMemSetAccess(base, gran, &rw, 1));
    *(volatile int *)(uintptr_t)base = 42;
    EXPECT_EQ(42, *(volatile int *)(uintptr_t)(base + 0));
}

// Found by this test: at the limit, cuMemUnmap returns CUDA_SUCCESS but the memory stays
// mapped and accessible. src/posix/vmm.c's os_unmap_fixed puts the reservation back with an
// mmap(MAP_FIXED, PROT_NONE) over the mapping, which needs a new mapping of its own, and the
// OS refuses it (ENOMEM) at the limit; cuMemUnmap (src/memory/vmm_map.c) ignores that error,
// forgets the mapping and drops its reference, while the old MAP_SHARED view of the memfd is
// still readable and writable.
TEST_F(VmmMapLimit, UnmapAtTheLimit_MakesTheRangeInaccessibleOrFails)
{
    fill();
    ASSERT_EQ(CUDA_ERROR_OUT_OF_MEMORY, failure) << detail;
    CUmemAccessDesc rw{};
    rw.location = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
    rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    ASSERT_OK(cuMemSetAccess(base, gran, &rw, 1));
    *(volatile int *)(uintptr_t)base = 42;
    int before = maps_lines("/memfd:extmem-vmm");
    CUresult r = cuMemUnmap(base, gran);
    int after = maps_lines("/memfd:extmem-vmm");
    if (r == CUDA_SUCCESS) {
        EXPECT_EQ(EFAULT, probe_read(base)) << "cuMemUnmap returned CUDA_SUCCESS, yet the memory is still readable";
        EXPECT_EQ(before - 1, after) << "cuMemUnmap returned CUDA_SUCCESS, yet the OS still has the mapping";
    } else {
        // Failing is acceptable at the limit, if the mapping is then still what extmem says.
        unsigned long long flags = 0;
        EXPECT_OK(cuMemGetAccess(&flags, &rw.location, base)) << "a failed unmap forgot the mapping";
        EXPECT_EQ(3u, flags);
        EXPECT_EQ(42, *(volatile int *)(uintptr_t)base);
    }
}
