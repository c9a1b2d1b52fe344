// Virtual memory management with what only POSIX has: allocations exported as file
// descriptors and imported again, memfds that are not extmem's (vmm_test.cpp has the rest).
#include "vmm_fixture.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>

using namespace extmem_test;

TEST_F(Vmm, ExportAndImportInOneProcess_MapTheSameMemory)
{
    CUmemGenericAllocationHandle h = create(gran), imported = 0;
    int fd = -1;
    ASSERT_OK(cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    ASSERT_GE(fd, 0);
    ASSERT_OK(cuMemImportFromShareableHandle(&imported, (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    EXPECT_TRUE(fd_is_open(fd)); // the caller's fd is still the caller's
    close(fd);
    CUdeviceptr a = reserve(gran), b = reserve(gran);
    ASSERT_OK(cuMemMap(a, gran, 0, h, 0));
    ASSERT_OK(cuMemMap(b, gran, 0, imported, 0));
    ASSERT_OK(cuMemSetAccess(a, gran, &rw, 1));
    ASSERT_OK(cuMemSetAccess(b, gran, &rw, 1));
    ((int *)a)[1000] = 1234;
    EXPECT_EQ(1234, ((int *)b)[1000]);
    for (CUdeviceptr p : {a, b}) {
        EXPECT_OK(cuMemUnmap(p, gran));
        EXPECT_OK(cuMemAddressFree(p, gran));
    }
    EXPECT_OK(cuMemRelease(h));
    EXPECT_OK(cuMemRelease(imported));
}

TEST_F(Vmm, Import_RefusesForeignOrBadDescriptors_AndLeavesThemOpen)
{
    CUmemGenericAllocationHandle h;
    auto import = [&](intptr_t fd) {
        return cuMemImportFromShareableHandle(&h, (void *)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    };
    int foreign = memfd_create("not-extmem", 0);
    ASSERT_EQ(0, ftruncate(foreign, gran));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, import(foreign));
    EXPECT_DETAIL_HAS("is not memory exported by extmem");
    EXPECT_TRUE(fd_is_open(foreign));
    close(foreign);
    int devnull = open("/dev/null", O_RDONLY);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, import(devnull));
    EXPECT_TRUE(fd_is_open(devnull));
    close(devnull);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, import(devnull)); // closed now
    EXPECT_DETAIL_HAS("Bad file descriptor");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, import(-1));
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemImportFromShareableHandle(&h, (void *)3, CU_MEM_HANDLE_TYPE_WIN32));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemImportFromShareableHandle(nullptr, (void *)3,
                                                                       CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
}

namespace {

/* The protection of the page at p as /proc/self/maps shows it ("rw-s", "---s"), or "" when
 * nothing is mapped there. */
std::string protection_at(CUdeviceptr p)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    std::string perms;
    while (f && fgets(line, sizeof(line), f)) {
        unsigned long lo, hi;
        char p4[5] = {};
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, p4) == 3 && p >= lo && p < hi)
            perms = p4;
    }
    if (f)
        fclose(f);
    return perms;
}

} // namespace

// issue 12 item 10: cuMemSetAccess over two mappings, the second of an allocation imported from
// a read-only fd, which cannot be made writable. All or nothing: the first mapping must not be
// left writable while cuMemGetAccess says 0.
TEST_F(Vmm, SetAccess_SecondMappingCannotBeMadeWritable_ChangesNothing)
{
    CUmemGenericAllocationHandle first = create(gran), second = create(gran), read_only = 0;
    int fd = -1;
    ASSERT_OK(cuMemExportToShareableHandle(&fd, second, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    int ro = open(path, O_RDONLY | O_CLOEXEC); // the same memfd, opened for reading only
    ASSERT_GE(ro, 0);
    ASSERT_OK(cuMemImportFromShareableHandle(&read_only, (void *)(intptr_t)ro, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    close(ro);
    close(fd);
    CUdeviceptr p = reserve(2 * gran);
    ASSERT_OK(cuMemMap(p, gran, 0, first, 0));
    ASSERT_OK(cuMemMap(p + gran, gran, 0, read_only, 0));

    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemSetAccess(p, 2 * gran, &rw, 1));
    EXPECT_DETAIL_HAS("read-only");
    unsigned long long flags = 9;
    EXPECT_OK(cuMemGetAccess(&flags, &rw.location, p));
    EXPECT_EQ(0u, flags);
    EXPECT_OK(cuMemGetAccess(&flags, &rw.location, p + gran));
    EXPECT_EQ(0u, flags);
    EXPECT_EQ("---s", protection_at(p)); // nothing was changed, not even the first mapping
    EXPECT_EQ("---s", protection_at(p + gran));

    CUmemAccessDesc ro_access = rw; // reading works over both
    ro_access.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
    EXPECT_OK(cuMemSetAccess(p, 2 * gran, &ro_access, 1));
    EXPECT_EQ("r--s", protection_at(p));
    EXPECT_EQ("r--s", protection_at(p + gran));
    EXPECT_OK(cuMemSetAccess(p, gran, &rw, 1)); // and the first alone may be writable
    EXPECT_EQ("rw-s", protection_at(p));

    EXPECT_OK(cuMemUnmap(p, 2 * gran));
    EXPECT_OK(cuMemAddressFree(p, 2 * gran));
    for (CUmemGenericAllocationHandle h : {first, second, read_only})
        EXPECT_OK(cuMemRelease(h));
}

// The OS refusing midway (here by EXTMEM_FAULT, the OS layer's fault injection, at the second
// mapping): what was already changed goes back to its previous protection.
TEST_F(Vmm, SetAccess_OsFailureMidway_RestoresWhatWasAlreadyChanged)
{
    CUmemGenericAllocationHandle a = create(gran), b = create(gran);
    CUdeviceptr p = reserve(2 * gran);
    ASSERT_OK(cuMemMap(p, gran, 0, a, 0));
    ASSERT_OK(cuMemMap(p + gran, gran, 0, b, 0));
    CUmemAccessDesc ro_access = rw;
    ro_access.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
    ASSERT_OK(cuMemSetAccess(p, gran, &ro_access, 1)); // before: read-only, then no access

    char spec[64];
    snprintf(spec, sizeof(spec), "os_protect@%llx", (unsigned long long)(p + gran));
    setenv("EXTMEM_FAULT", spec, 1);
    CUresult r = cuMemSetAccess(p, 2 * gran, &rw, 1);
    std::string detail = extmem_error_detail();
    unsetenv("EXTMEM_FAULT");
    EXPECT_EQ(CUDA_ERROR_OUT_OF_MEMORY, r) << detail;
    EXPECT_NE(std::string::npos, detail.find("protection")) << detail;
    unsigned long long flags = 9;
    EXPECT_OK(cuMemGetAccess(&flags, &rw.location, p));
    EXPECT_EQ((unsigned long long)CU_MEM_ACCESS_FLAGS_PROT_READ, flags);
    EXPECT_OK(cuMemGetAccess(&flags, &rw.location, p + gran));
    EXPECT_EQ(0u, flags);
    EXPECT_EQ("r--s", protection_at(p)); // put back
    EXPECT_EQ("---s", protection_at(p + gran));

    EXPECT_OK(cuMemSetAccess(p, 2 * gran, &rw, 1)); // without the fault it works
    EXPECT_EQ("rw-s", protection_at(p + gran));
    EXPECT_OK(cuMemUnmap(p, 2 * gran));
    EXPECT_OK(cuMemAddressFree(p, 2 * gran));
    EXPECT_OK(cuMemRelease(a));
    EXPECT_OK(cuMemRelease(b));
}
