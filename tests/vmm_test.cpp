// Virtual memory management: reservations, physical allocations, mappings and access, on
// real OS mappings (../shared/seeds/003_3a96fd0a7bd408ba.txt, BEHAVIOR.md's VMM table).
#include "vmm_fixture.h"

#include <csetjmp>
#include <csignal>
#include <cstring>
#include <vector>

using namespace extmem_test;

TEST_F(Vmm, Granularity_Is2MiB_MinimumAndRecommended)
{
    size_t g = 0;
    EXPECT_OK(cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
    EXPECT_EQ(size_t(2) << 20, g);
    EXPECT_EQ(size_t(2) << 20, gran);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetAllocationGranularity(nullptr, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetAllocationGranularity(&g, nullptr, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetAllocationGranularity(&g, &prop, (CUmemAllocationGranularity_flags)2));
}

TEST_F(Vmm, Attributes_AdvertiseVmmAndPosixFds)
{
    int vmm = 0, fd = 0, win = 1;
    EXPECT_OK(cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0));
    EXPECT_OK(cuDeviceGetAttribute(&fd, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, 0));
    EXPECT_OK(cuDeviceGetAttribute(&win, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED, 0));
    EXPECT_EQ(1, vmm);
    EXPECT_EQ(1, fd);
    EXPECT_EQ(0, win);
}

TEST_F(Vmm, CreateReserveMapSetAccess_DataRoundTrips)
{
    // BEHAVIOR.md: create 4 MiB, reserve 8 MiB, map 4 MiB at the start, set access, write, read.
    CUmemGenericAllocationHandle h = create(2 * gran);
    CUdeviceptr p = reserve(4 * gran);
    ASSERT_OK(cuMemMap(p, 2 * gran, 0, h, 0));
    ASSERT_OK(cuMemSetAccess(p, 2 * gran, &rw, 1));
    std::vector<unsigned char> in(2 * gran), out(2 * gran);
    for (size_t i = 0; i < in.size(); ++i)
        in[i] = (unsigned char)(i * 31);
    EXPECT_OK(cuMemcpyHtoD(p, in.data(), in.size()));
    EXPECT_OK(cuMemcpyDtoH(out.data(), p, out.size()));
    EXPECT_EQ(in, out);
    EXPECT_EQ(in[12345], ((unsigned char *)p)[12345]); // a device pointer is a host address
    EXPECT_OK(cuMemUnmap(p, 2 * gran));
    EXPECT_OK(cuMemAddressFree(p, 4 * gran));
    EXPECT_OK(cuMemRelease(h));
}

#if !defined(_WIN32)
// The faults are caught in this process: a fork child would not see the mapping at all, since
// device memory is not inherited by fork children (docs/fork.md). vmm_fault_test has the
// uncaught variants, in processes of their own, on POSIX and Windows.
namespace {

sigjmp_buf fault_jump;
volatile std::sig_atomic_t fault_signal;

void on_fault(int sig)
{
    fault_signal = sig;
    siglongjmp(fault_jump, 1);
}

/* The signal a read (or write) of the byte at p raises in this process, or 0. */
int access_signal(CUdeviceptr p, bool write)
{
    struct sigaction sa = {}, old_segv, old_bus;
    sa.sa_handler = on_fault;
    sigaction(SIGSEGV, &sa, &old_segv);
    sigaction(SIGBUS, &sa, &old_bus);
    fault_signal = 0;
    if (sigsetjmp(fault_jump, 1) == 0) {
        volatile unsigned char *q = (volatile unsigned char *)p;
        if (write)
            q[0] = 1;
        else
            (void)q[0];
    }
    sigaction(SIGSEGV, &old_segv, nullptr);
    sigaction(SIGBUS, &old_bus, nullptr);
    return fault_signal;
}

} // namespace

TEST_F(Vmm, TouchingAMappingBeforeSetAccess_Faults)
{
    CUmemGenericAllocationHandle h = create(gran);
    CUdeviceptr p = reserve(gran);
    ASSERT_OK(cuMemMap(p, gran, 0, h, 0));
    EXPECT_EQ(SIGSEGV, access_signal(p, false));
    unsigned long long flags = 9;
    EXPECT_OK(cuMemGetAccess(&flags, &rw.location, p));
    EXPECT_EQ(0u, flags);
    char byte;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(&byte, p, 1));
    EXPECT_DETAIL_HAS("is not readable");
    EXPECT_OK(cuMemUnmap(p, gran));
    EXPECT_OK(cuMemAddressFree(p, gran));
    EXPECT_OK(cuMemRelease(h));
}

TEST_F(Vmm, WritingAReadOnlyMapping_Faults)
{
    CUmemGenericAllocationHandle h = create(gran);
    CUdeviceptr p = reserve(gran);
    ASSERT_OK(cuMemMap(p, gran, 0, h, 0));
    ASSERT_OK(cuMemSetAccess(p, gran, &rw, 1));
    ((unsigned char *)p)[0] = 42;
    CUmemAccessDesc ro = rw;
    ro.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
    ASSERT_OK(cuMemSetAccess(p, gran, &ro, 1));
    EXPECT_EQ(42, ((volatile unsigned char *)p)[0]); // reading is allowed
    EXPECT_EQ(0, access_signal(p, false));
    EXPECT_EQ(SIGSEGV, access_signal(p, true));
    EXPECT_EQ(42, ((volatile unsigned char *)p)[0]); // the write did not happen
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD8(p, 0, 16));
    EXPECT_DETAIL_HAS("is not writable");
    int access = -1;
    EXPECT_OK(cuPointerGetAttribute(&access, CU_POINTER_ATTRIBUTE_ACCESS_FLAGS, p));
    EXPECT_EQ(CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ, access);
    EXPECT_OK(cuMemUnmap(p, gran));
    EXPECT_OK(cuMemAddressFree(p, gran));
    EXPECT_OK(cuMemRelease(h));
}
#endif

TEST_F(Vmm, OneAllocationMappedTwice_ShowsTheSameBytes)
{
    CUmemGenericAllocationHandle h = create(gran);
    CUdeviceptr a = reserve(gran), b = reserve(gran);
    ASSERT_OK(cuMemMap(a, gran, 0, h, 0));
    ASSERT_OK(cuMemMap(b, gran, 0, h, 0));
    ASSERT_OK(cuMemSetAccess(a, gran, &rw, 1));
    ASSERT_OK(cuMemSetAccess(b, gran, &rw, 1));
    strcpy((char *)a, "same pages");
    EXPECT_STREQ("same pages", (const char *)b);
    for (CUdeviceptr p : {a, b}) {
        EXPECT_OK(cuMemUnmap(p, gran));
        EXPECT_OK(cuMemAddressFree(p, gran));
    }
    EXPECT_OK(cuMemRelease(h));
}

TEST_F(Vmm, ReleaseWhileMapped_KeepsTheMemoryUntilTheLastUnmap)
{
    CUmemGenericAllocationHandle h = create(gran);
    CUdeviceptr p = reserve(gran);
    ASSERT_OK(cuMemMap(p, gran, 0, h, 0));
    ASSERT_OK(cuMemSetAccess(p, gran, &rw, 1));
    int fds = open_fd_count();
    EXPECT_OK(cuMemRelease(h)); // BEHAVIOR.md: SUCCESS; the memory stays readable
    ((unsigned char *)p)[gran - 1] = 7;
    EXPECT_EQ(7, ((unsigned char *)p)[gran - 1]);
    EXPECT_EQ(fds, open_fd_count());
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRelease(h)); // released once already
    EXPECT_DETAIL_HAS("already released");
    CUdeviceptr q = reserve(gran); // while mapped the handle still works, as on the driver
    EXPECT_OK(cuMemMap(q, gran, 0, h, 0));
    EXPECT_OK(cuMemUnmap(p, gran));
    EXPECT_EQ(fds, open_fd_count());
    EXPECT_OK(cuMemUnmap(q, gran));
    EXPECT_EQ(fds - 1, open_fd_count()); // the memfd closes with the last mapping
    CUmemAllocationProp out;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetAllocationPropertiesFromHandle(&out, h)); // and the handle dies
    EXPECT_DETAIL_HAS("was destroyed");
    EXPECT_OK(cuMemAddressFree(p, gran));
    EXPECT_OK(cuMemAddressFree(q, gran));
}

TEST_F(Vmm, ARangeStitchedFromTwoAllocations_WorksForCopiesFillsAndKernels)
{
    CUmemGenericAllocationHandle h1 = create(gran), h2 = create(gran);
    CUdeviceptr p = reserve(2 * gran);
    ASSERT_OK(cuMemMap(p, gran, 0, h1, 0));
    ASSERT_OK(cuMemMap(p + gran, gran, 0, h2, 0));
    ASSERT_OK(cuMemSetAccess(p, 2 * gran, &rw, 1)); // one call across both mappings
    ASSERT_OK(cuMemsetD32(p, 0x01020304u, 2 * gran / 4));
    std::vector<unsigned char> host(64, 0xee);
    ASSERT_OK(cuMemcpyHtoD(p + gran - 32, host.data(), 64)); // straddles the seam
    EXPECT_EQ(0xee, ((unsigned char *)p)[gran + 31]);
    EXPECT_EQ(0x04, ((unsigned char *)p)[gran + 32]);
    struct Args {
        unsigned int *data;
    } args{(unsigned int *)p};
    ASSERT_OK(extmem_launch_kernel(
        [](const extmem_block *b, void *a) {
            auto *d = static_cast<Args *>(a)->data;
            EXTMEM_FOR_EACH_THREAD(b, tx, ty, tz)
            {
                (void)ty;
                (void)tz;
                d[(size_t)b->blockIdx.x * b->blockDim.x + tx] = b->blockIdx.x;
            }
        },
        {(unsigned int)(2 * gran / 4 / 1024), 1, 1}, {1024, 1, 1}, &args, sizeof(args), nullptr));
    EXPECT_EQ(0u, ((unsigned int *)p)[0]);
    EXPECT_EQ((unsigned int)(2 * gran / 4 / 1024 - 1), ((unsigned int *)p)[2 * gran / 4 - 1]);
    CUdeviceptr base;
    size_t size;
    EXPECT_OK(cuMemGetAddressRange(&base, &size, p + gran + 5));
    EXPECT_EQ(p + gran, base);
    EXPECT_EQ(gran, size);
    unsigned int type = 0;
    EXPECT_OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p + 5));
    EXPECT_EQ((unsigned)CU_MEMORYTYPE_DEVICE, type);
    EXPECT_OK(cuMemUnmap(p, 2 * gran)); // one call across both mappings
    EXPECT_OK(cuMemAddressFree(p, 2 * gran));
    EXPECT_OK(cuMemRelease(h1));
    EXPECT_OK(cuMemRelease(h2));
}

TEST_F(Vmm, Map_RulesOfTheSpecificationAndBehaviorTable)
{
    CUmemGenericAllocationHandle h = create(2 * gran);
    CUdeviceptr p = reserve(4 * gran);
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemMap(p, 4096, 0, h, 0));
    EXPECT_DETAIL_HAS("not a multiple of the granularity");
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemMap(p, gran, 4096, h, 0));
    EXPECT_DETAIL_HAS("currently must be 0");
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemMap(p, gran, gran, h, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemMap(p, gran, 0, h, 1));
    int local;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemMap((CUdeviceptr)&local & ~(CUdeviceptr)(gran - 1), gran, 0, h, 0));
    EXPECT_DETAIL_HAS("not inside one reservation");
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemMap(p, 3 * gran, 0, h, 0));
    EXPECT_DETAIL_HAS("larger than the allocation");
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemMap(p + 4096, gran, 0, h, 0));
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemMap(p + 3 * gran, 2 * gran, 0, h, 0)); // past the reservation's end
    ASSERT_OK(cuMemMap(p, 2 * gran, 0, h, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemMap(p, 2 * gran, 0, h, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemMap(p + gran, 2 * gran, 0, h, 0)); // overlaps
    EXPECT_DETAIL_HAS("already mapped");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemUnmap(p, gran)); // part of one mapping
    EXPECT_DETAIL_HAS("part of the mapping");
    EXPECT_OK(cuMemUnmap(p, 2 * gran));
    EXPECT_OK(cuMemUnmap(p, 2 * gran)); // twice: nothing left to unmap, as on the driver
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemMap(p, 0, 0, h, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemMap(0, gran, 0, h, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemMap(p, 4096, 0, h, 1)); // flags win over size
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemUnmap(p + 4096, gran));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemUnmap(p, 0));
    EXPECT_OK(cuMemAddressFree(p, 4 * gran));
    EXPECT_OK(cuMemRelease(h));
}

TEST_F(Vmm, FailedMaps_LeaveNothingMapped)
{
    CUmemGenericAllocationHandle h = create(2 * gran);
    CUdeviceptr p = reserve(2 * gran);
    ASSERT_OK(cuMemMap(p + gran, gran, 0, h, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemMap(p, 2 * gran, 0, h, 0)); // second granule taken
    CUdeviceptr base;
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, nullptr, p));
    ASSERT_OK(cuMemMap(p, gran, 0, h, 0)); // the first granule is still free
    EXPECT_OK(cuMemUnmap(p, 2 * gran));
    EXPECT_OK(cuMemAddressFree(p, 2 * gran));
    EXPECT_OK(cuMemRelease(h));
}

TEST_F(Vmm, GarbageAndForgedAllocationHandles_AreErrorsNotCrashes)
{
    CUdeviceptr p = reserve(gran);
    CUmemAllocationProp out;
    int fd;
    for (CUmemGenericAllocationHandle g : {0ull, 1ull, 0x12345ull, 0xdeadbeefcafeull, ~0ull}) {
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemMap(p, gran, 0, g, 0));
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRelease(g));
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetAllocationPropertiesFromHandle(&out, g));
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
                  cuMemExportToShareableHandle(&fd, g, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    }
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemMap(p, gran, 0, (CUmemGenericAllocationHandle)(uintptr_t)s, 0));
    EXPECT_DETAIL_HAS("is a stream handle, not an allocation handle");
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuMemAddressFree(p, gran));
}

TEST_F(Vmm, Create_BadArguments)
{
    CUmemGenericAllocationHandle h;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&h, 0, &prop, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&h, gran / 2, &prop, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&h, gran, &prop, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(nullptr, gran, &prop, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&h, gran, nullptr, 0));
    EXPECT_CU(CUDA_ERROR_OUT_OF_MEMORY, cuMemCreate(&h, size_t(1) << 50, &prop, 0));
    CUmemAllocationProp bad = prop;
    bad.type = CU_MEM_ALLOCATION_TYPE_MANAGED;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&h, gran, &bad, 0));
    bad = prop;
    bad.location.id = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemCreate(&h, gran, &bad, 0));
    bad = prop;
    bad.requestedHandleTypes = kForeignHandleType; // the other platform's
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&h, gran, &bad, 0));
    EXPECT_DETAIL_HAS("only");
    bad = prop;
    int junk = 1; // the driver on Linux refuses any metadata; on Windows it must be security attributes
    bad.win32HandleMetaData = &junk;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&h, gran, &bad, 0));
    EXPECT_DETAIL_HAS("win32HandleMetaData");
    bad = prop;
    bad.requestedHandleTypes = CU_MEM_HANDLE_TYPE_FABRIC;
    EXPECT_CU(CUDA_ERROR_NOT_PERMITTED, cuMemCreate(&h, gran, &bad, 0));
    bad = prop;
    bad.location.type = CU_MEM_LOCATION_TYPE_HOST;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&h, gran, &bad, 0));
    bad = prop;
    bad.allocFlags.usage = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&h, gran, &bad, 0));
    bad = prop;
    bad.type = CU_MEM_ALLOCATION_TYPE_INVALID;
    bad.location.id = 5;
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemCreate(&h, gran, &bad, 0)); // the device is checked first
}

TEST_F(Vmm, Create_KeepsCompressionAndRdmaRequests_AndDropsUnknownHandleBits)
{
    CUmemAllocationProp p = prop;
    p.allocFlags.compressionType = CU_MEM_ALLOCATION_COMP_GENERIC;
    p.allocFlags.gpuDirectRDMACapable = 1;
    p.requestedHandleTypes = (CUmemAllocationHandleType)(kNativeHandleType | 0x10);
    CUmemGenericAllocationHandle h;
    ASSERT_OK(cuMemCreate(&h, gran, &p, 0));
    CUmemAllocationProp out{};
    EXPECT_OK(cuMemGetAllocationPropertiesFromHandle(&out, h));
    EXPECT_EQ(CU_MEM_ALLOCATION_COMP_GENERIC, out.allocFlags.compressionType);
    EXPECT_EQ(1, out.allocFlags.gpuDirectRDMACapable);
    EXPECT_EQ(kNativeHandleType, out.requestedHandleTypes);
    EXPECT_OK(cuMemRelease(h));
}

TEST_F(Vmm, Granularity_IgnoresThePropertiesFields)
{
    CUmemAllocationProp odd{}; // type 0, location 0: the driver answers anyway
    size_t g = 0;
    EXPECT_OK(cuMemGetAllocationGranularity(&g, &odd, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    EXPECT_EQ(gran, g);
}

TEST_F(Vmm, Reserve_AlignmentHintAndBadArguments)
{
    CUdeviceptr p = 0, q = 0;
    ASSERT_OK(cuMemAddressReserve(&p, gran, 8 * gran, 0, 0));
    EXPECT_EQ(0u, p % (8 * gran));
    EXPECT_OK(cuMemAddressFree(p, gran));
    ASSERT_OK(cuMemAddressReserve(&q, gran, 0, p, 0)); // the hint is free again: honoured
    EXPECT_EQ(p, q);
    EXPECT_OK(cuMemAddressFree(q, gran));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressReserve(&q, gran, 0, p + 4096, 0)); // unaligned hint
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressReserve(nullptr, gran, 0, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressReserve(&p, 0, 0, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressReserve(&p, gran + 4096, 0, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressReserve(&p, gran, 3 * gran, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressReserve(&p, gran, 0, 0, 1));
    EXPECT_CU(CUDA_ERROR_OUT_OF_MEMORY, cuMemAddressReserve(&p, size_t(1) << 62, 0, 0, 0));
}

TEST_F(Vmm, AddressFree_BadRanges)
{
    CUdeviceptr p = reserve(2 * gran);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressFree(p, gran)); // not the whole reservation
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressFree(p + gran, gran));
    int local;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressFree((CUdeviceptr)&local, gran));
    CUmemGenericAllocationHandle h = create(gran);
    ASSERT_OK(cuMemMap(p, gran, 0, h, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressFree(p, 2 * gran));
    EXPECT_DETAIL_HAS("still live");
    EXPECT_OK(cuMemUnmap(p, gran));
    EXPECT_OK(cuMemAddressFree(p, 2 * gran));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressFree(p, 2 * gran)); // twice
    EXPECT_OK(cuMemRelease(h));
}

TEST_F(Vmm, SetAccess_BadArguments)
{
    CUmemGenericAllocationHandle h = create(gran);
    CUdeviceptr p = reserve(2 * gran);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemSetAccess(p, gran, &rw, 1)); // reserved, not mapped
    EXPECT_DETAIL_HAS("not mapped throughout");
    ASSERT_OK(cuMemMap(p, gran, 0, h, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemSetAccess(p, 2 * gran, &rw, 1)); // runs past the mapping
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemSetAccess(p, gran, nullptr, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemSetAccess(p, gran, &rw, 0));
    CUmemAccessDesc bad = rw;
    bad.flags = (CUmemAccess_flags)2;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemSetAccess(p, gran, &bad, 1));
    bad = rw;
    bad.location.type = CU_MEM_LOCATION_TYPE_HOST;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemSetAccess(p, gran, &bad, 1));
    bad = rw;
    bad.location.id = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemSetAccess(p, gran, &bad, 1));
    unsigned long long flags = 5;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetAccess(&flags, nullptr, p));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetAccess(&flags, &rw.location, p + gran));
    EXPECT_EQ(0u, flags); // written, as the driver does
    EXPECT_OK(cuMemUnmap(p, gran));
    EXPECT_OK(cuMemAddressFree(p, 2 * gran));
    EXPECT_OK(cuMemRelease(h));
}

TEST_F(Vmm, RetainAllocationHandle_GivesTheHandleBackAndCountsIt)
{
    CUmemGenericAllocationHandle h = create(gran), r = 0;
    CUdeviceptr p = reserve(gran);
    ASSERT_OK(cuMemMap(p, gran, 0, h, 0));
    ASSERT_OK(cuMemRetainAllocationHandle(&r, (void *)(p + 100)));
    EXPECT_EQ(h, r);
    EXPECT_OK(cuMemRelease(h));
    CUmemAllocationProp out{};
    EXPECT_OK(cuMemGetAllocationPropertiesFromHandle(&out, h));
    EXPECT_EQ(kNativeHandleType, out.requestedHandleTypes);
    EXPECT_EQ(CU_MEM_LOCATION_TYPE_DEVICE, out.location.type);
    EXPECT_OK(cuMemRelease(r)); // the retain's reference: two releases in all
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRelease(r));
    int local;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRetainAllocationHandle(&r, &local));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRetainAllocationHandle(nullptr, (void *)p));
    EXPECT_OK(cuMemUnmap(p, gran));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetAllocationPropertiesFromHandle(&out, h));
    EXPECT_OK(cuMemAddressFree(p, gran));
}

TEST_F(Vmm, Export_BadArguments)
{
    CUmemGenericAllocationHandle h = create(gran);
    int fd;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemExportToShareableHandle(nullptr, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_WIN32, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_NONE, 0));
    CUmemAllocationProp none = prop;
    none.requestedHandleTypes = CU_MEM_HANDLE_TYPE_NONE;
    CUmemGenericAllocationHandle h2;
    ASSERT_OK(cuMemCreate(&h2, gran, &none, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemExportToShareableHandle(&fd, h2, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    EXPECT_DETAIL_HAS("requestedHandleTypes");
    EXPECT_OK(cuMemRelease(h2));
    EXPECT_OK(cuMemRelease(h));
}
