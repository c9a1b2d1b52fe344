// Virtual memory management with what only POSIX has: allocations exported as file
// descriptors and imported again, memfds that are not extmem's (vmm_test.cpp has the rest).
#include "vmm_fixture.h"

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
