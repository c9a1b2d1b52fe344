// External memory: importing fds, mapping buffers on them, and who owns the fd
// (../shared/seeds/004_899ba516d5a0237d.txt, 001_a59e0c8da9f21121.txt, BEHAVIOR.md).
#include "framework/testing.h"
#include "extmem/cuda_runtime_api.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

using namespace extmem_test;

namespace {

class ExternalMemory : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
        ASSERT_OK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
        ASSERT_OK(cuMemCreate(&alloc, 2 * gran, &prop, 0));
    }
    void TearDown() override
    {
        EXPECT_OK(cuMemRelease(alloc));
        ContextTest::TearDown();
    }
    /* A fresh fd exported from the allocation. */
    int export_fd()
    {
        int fd = -1;
        EXPECT_OK(cuMemExportToShareableHandle(&fd, alloc, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
        return fd;
    }
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC opaque_fd(int fd, unsigned long long size)
    {
        CUDA_EXTERNAL_MEMORY_HANDLE_DESC d{};
        d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
        d.handle.fd = fd;
        d.size = size;
        return d;
    }
    CUdeviceptr map_buffer(CUexternalMemory e, unsigned long long offset, unsigned long long size)
    {
        CUDA_EXTERNAL_MEMORY_BUFFER_DESC b{};
        b.offset = offset;
        b.size = size;
        CUdeviceptr p = 0;
        EXPECT_OK(cuExternalMemoryGetMappedBuffer(&p, e, &b));
        return p;
    }
    CUmemAllocationProp prop{};
    size_t gran = 0;
    CUmemGenericAllocationHandle alloc = 0;
};

} // namespace

// BEHAVIOR.md and docs/probes/fd_ownership: after a successful import the driver has closed the
// caller's fd number; what it keeps is its own.
TEST_F(ExternalMemory, ImportOpaqueFd_Success_ClosesCallersFdNumber)
{
    int fd = export_fd();
    auto d = opaque_fd(fd, 2 * gran);
    CUexternalMemory e = nullptr;
    ASSERT_OK(cuImportExternalMemory(&e, &d));
    EXPECT_NE(nullptr, e);
    errno = 0;
    EXPECT_EQ(-1, fcntl(fd, F_GETFD));
    EXPECT_EQ(EBADF, errno);
    CUdeviceptr p = map_buffer(e, 0, gran); // extmem's own descriptor still reaches the memory
    EXPECT_OK(cuMemsetD8(p, 7, gran));
    EXPECT_OK(cuMemFree(p));
    EXPECT_OK(cuDestroyExternalMemory(e)); // and it goes with the import: the fd check sees no leak
}

TEST_F(ExternalMemory, ImportOpaqueFd_Failure_LeavesCallersFdOpen)
{
    int fd = export_fd();
    auto d = opaque_fd(fd, 0); // size 0: INVALID_VALUE (BEHAVIOR.md: the fd stays open)
    CUexternalMemory e = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&e, &d));
    EXPECT_NE(-1, fcntl(fd, F_GETFD));
    int foreign = memfd_create("not-extmem", MFD_CLOEXEC);
    ASSERT_EQ(0, ftruncate(foreign, gran));
    d = opaque_fd(foreign, gran); // refused after the fd was looked at
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&e, &d));
    EXPECT_NE(-1, fcntl(foreign, F_GETFD));
    close(foreign);
    d = opaque_fd(fd, 2 * gran); // the fd is still good for an import that succeeds
    ASSERT_OK(cuImportExternalMemory(&e, &d));
    EXPECT_OK(cuDestroyExternalMemory(e));
}

// A program that closes the fd after importing it (a bug on the driver too, where the number is
// already closed) and gets the number back for another file: extmem's later release must not
// touch that file.
TEST_F(ExternalMemory, CallerClosesAndReusesTheFdNumber_ReleaseLeavesTheNewFileAlone)
{
    int fd = export_fd();
    auto d = opaque_fd(fd, 2 * gran);
    CUexternalMemory e = nullptr;
    ASSERT_OK(cuImportExternalMemory(&e, &d));
    CUdeviceptr p = map_buffer(e, 0, gran);
    close(fd); // wrong, and harmless: the number is closed already
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    ASSERT_GE(devnull, 0);
    if (devnull != fd) { // make sure the number is reused
        ASSERT_EQ(fd, dup3(devnull, fd, O_CLOEXEC));
        close(devnull);
    }
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b{};
    b.offset = gran;
    b.size = gran;
    CUdeviceptr q = 0; // a buffer mapped now still comes from the memory, not from /dev/null
    EXPECT_OK(cuExternalMemoryGetMappedBuffer(&q, e, &b));
    for (CUdeviceptr buf : {p, q}) {
        if (!buf)
            continue;
        EXPECT_OK(cuMemsetD32(buf, 0x5a5a5a5a, gran / 4));
        EXPECT_OK(cuMemFree(buf));
    }
    EXPECT_OK(cuDestroyExternalMemory(e));
    ASSERT_NE(-1, fcntl(fd, F_GETFD)) << "extmem closed the file that reused the number";
    char link[64], target[64] = {};
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    ASSERT_GT(readlink(link, target, sizeof(target) - 1), 0);
    EXPECT_STREQ("/dev/null", target);
    EXPECT_EQ(4, write(fd, "still", 4)); // and it still works
    close(fd);
}

TEST_F(ExternalMemory, MappedBuffer_IsTheSamePages_NoCopy)
{
    CUdeviceptr vmm = 0;
    ASSERT_OK(cuMemAddressReserve(&vmm, 2 * gran, 0, 0, 0));
    ASSERT_OK(cuMemMap(vmm, 2 * gran, 0, alloc, 0));
    CUmemAccessDesc rw{{CU_MEM_LOCATION_TYPE_DEVICE, 0}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    ASSERT_OK(cuMemSetAccess(vmm, 2 * gran, &rw, 1));
    auto d = opaque_fd(export_fd(), 2 * gran);
    CUexternalMemory e;
    ASSERT_OK(cuImportExternalMemory(&e, &d));
    CUdeviceptr buf = map_buffer(e, 4096, gran);
    ((char *)vmm)[4096 + 10] = 'x'; // written through the VMM mapping...
    EXPECT_EQ('x', ((char *)buf)[10]); // ...seen through the buffer
    ((char *)buf)[gran - 1] = 'y';
    EXPECT_EQ('y', ((char *)vmm)[4096 + gran - 1]);
    EXPECT_OK(cuMemFree(buf));
    EXPECT_OK(cuDestroyExternalMemory(e));
    EXPECT_OK(cuMemUnmap(vmm, 2 * gran));
    EXPECT_OK(cuMemAddressFree(vmm, 2 * gran));
}

TEST_F(ExternalMemory, OverlappingBuffers_AreDistinctPointersOnTheSameBytes)
{
    auto d = opaque_fd(export_fd(), 2 * gran);
    CUexternalMemory e;
    ASSERT_OK(cuImportExternalMemory(&e, &d));
    CUdeviceptr a = map_buffer(e, 0, gran), b = map_buffer(e, 100, gran), c = map_buffer(e, 1, 1);
    EXPECT_NE(a, b);
    EXPECT_OK(cuMemsetD8(a, 0x5a, gran));
    EXPECT_EQ(0x5a, ((unsigned char *)b)[0]);
    EXPECT_EQ(0x5a, ((unsigned char *)c)[0]);
    CUdeviceptr base;
    size_t size;
    EXPECT_OK(cuMemGetAddressRange(&base, &size, c));
    EXPECT_EQ(c, base);
    EXPECT_EQ(1u, size);
    CUcontext owner = nullptr;
    EXPECT_OK(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, a));
    EXPECT_EQ(ctx, owner);
    for (CUdeviceptr p : {a, b, c})
        EXPECT_OK(cuMemFree(p));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(a)); // twice
    EXPECT_OK(cuDestroyExternalMemory(e));
}

TEST_F(ExternalMemory, DestroyWithABufferStillMapped_LeavesTheBufferUsable)
{
    auto d = opaque_fd(export_fd(), 2 * gran);
    CUexternalMemory e;
    ASSERT_OK(cuImportExternalMemory(&e, &d));
    CUdeviceptr buf = map_buffer(e, 0, 2 * gran);
    EXPECT_OK(cuDestroyExternalMemory(e)); // BEHAVIOR (probe): SUCCESS, the buffer stays usable
    EXPECT_OK(cuMemsetD32(buf, 7, 2 * gran / 4));
    EXPECT_EQ(7u, ((unsigned int *)buf)[2 * gran / 4 - 1]);
    EXPECT_OK(cuMemFree(buf));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuDestroyExternalMemory(e)); // twice: the driver crashes
    EXPECT_DETAIL_HAS("was destroyed");
}

TEST_F(ExternalMemory, Import_BadDescriptors_AreInvalidValueAndKeepTheFd)
{
    int fd = export_fd();
    CUexternalMemory e = nullptr;
    auto d = opaque_fd(fd, 0);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&e, &d)); // BEHAVIOR: size 0
    EXPECT_DETAIL_HAS("size is 0");
    d = opaque_fd(fd, gran);
    d.flags = 2;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&e, &d));
    d = opaque_fd(fd, gran);
    d.reserved[3] = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&e, &d));
    d = opaque_fd(fd, gran);
    d.type = (CUexternalMemoryHandleType)0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&e, &d));
    d.type = (CUexternalMemoryHandleType)42;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&e, &d));
    d = opaque_fd(fd, gran);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(nullptr, &d));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&e, nullptr));
    EXPECT_EQ(nullptr, e);
    EXPECT_TRUE(fd_is_open(fd)); // every failure left the fd alone
    close(fd);
}

TEST_F(ExternalMemory, Import_ForeignOrDeadFds_AreRefusedAndStayOpen)
{
    CUexternalMemory e;
    int foreign = memfd_create("someone-else", MFD_ALLOW_SEALING);
    ASSERT_EQ(0, ftruncate(foreign, gran));
    auto d = opaque_fd(foreign, gran);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&e, &d));
    EXPECT_DETAIL_HAS("not memory from a compatible exporter");
    EXPECT_DETAIL_HAS("stays open and yours");
    EXPECT_TRUE(fd_is_open(foreign));
    int devnull = open("/dev/null", O_RDWR);
    d = opaque_fd(devnull, gran);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&e, &d)); // the driver: UNKNOWN, and closes it
    EXPECT_TRUE(fd_is_open(devnull));
    close(devnull);
    close(foreign);
    d = opaque_fd(devnull, gran); // closed now
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&e, &d));
    EXPECT_DETAIL_HAS("Bad file descriptor");
    d = opaque_fd(-1, gran);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&e, &d));
}

TEST_F(ExternalMemory, WindowsTypes_AreNotSupported_AfterTheDedicatedRule)
{
    CUexternalMemory e;
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d{};
    d.size = gran;
    d.handle.win32.handle = (void *)0x1234;
    for (auto t : {CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32, CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT,
                   CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP}) {
        d.type = t;
        d.flags = 0;
        EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuImportExternalMemory(&e, &d)) << t;
    }
    for (auto t : {CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE, CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE,
                   CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT}) {
        d.type = t;
        d.flags = 0;
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&e, &d)) << t; // BEHAVIOR: flag rule first
        EXPECT_DETAIL_HAS("CUDA_EXTERNAL_MEMORY_DEDICATED");
        d.flags = CUDA_EXTERNAL_MEMORY_DEDICATED;
        EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuImportExternalMemory(&e, &d)) << t;
    }
    d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF;
    d.flags = 0;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuImportExternalMemory(&e, &d));
}

TEST_F(ExternalMemory, DmabufFd_RefusesWhatIsNotADmabuf)
{
    CUexternalMemory e;
    int fd = export_fd();
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d = opaque_fd(fd, 2 * gran);
    d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&e, &d));
    EXPECT_DETAIL_HAS("is not a dma-buf");
    EXPECT_TRUE(fd_is_open(fd));
    close(fd);
}

TEST_F(ExternalMemory, MappedBuffer_Rules)
{
    auto d = opaque_fd(export_fd(), gran); // imported smaller than the object: allowed, as on the driver
    CUexternalMemory e;
    ASSERT_OK(cuImportExternalMemory(&e, &d));
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b{};
    CUdeviceptr p = 5;
    b.size = 16;
    b.flags = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&p, e, &b)); // BEHAVIOR: flags 1
    b.flags = 0;
    b.size = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&p, e, &b)); // BEHAVIOR: size 0
    b.offset = gran - 8;
    b.size = 16;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&p, e, &b)); // BEHAVIOR: past the end
    EXPECT_DETAIL_HAS("runs past the end");
    b.offset = ~0ull - 4;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&p, e, &b)); // no wrap-around
    b.offset = 0;
    b.reserved[0] = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&p, e, &b));
    b.reserved[0] = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(nullptr, e, &b));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&p, e, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&p, nullptr, &b));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuExternalMemoryGetMappedBuffer(&p, (CUexternalMemory)0xbad0bad0, &b));
    EXPECT_OK(cuDestroyExternalMemory(e));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuExternalMemoryGetMappedBuffer(&p, e, &b));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDestroyExternalMemory(nullptr));
}

TEST_F(ExternalMemory, ImportFromAReleasedAllocationsFd_KeepsTheMemory)
{
    int fd = export_fd();
    CUmemGenericAllocationHandle other;
    ASSERT_OK(cuMemCreate(&other, gran, &prop, 0));
    int fd2 = -1;
    ASSERT_OK(cuMemExportToShareableHandle(&fd2, other, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    ASSERT_OK(cuMemRelease(other)); // the fd keeps the memory alive
    auto d = opaque_fd(fd2, gran);
    CUexternalMemory e;
    ASSERT_OK(cuImportExternalMemory(&e, &d));
    CUdeviceptr p = map_buffer(e, 0, gran);
    EXPECT_OK(cuMemsetD8(p, 1, gran));
    EXPECT_OK(cuMemFree(p));
    EXPECT_OK(cuDestroyExternalMemory(e));
    close(fd);
}

TEST_F(ExternalMemory, ContextDestroy_UnmapsItsBuffers)
{
    auto d = opaque_fd(export_fd(), gran);
    CUexternalMemory e;
    ASSERT_OK(cuImportExternalMemory(&e, &d));
    CUdeviceptr p = map_buffer(e, 0, gran);
    CUcontext other;
    ASSERT_OK(cuCtxCreate(&other, nullptr, 0, 0));
    CUdeviceptr q = map_buffer(e, 0, 64);
    ASSERT_OK(cuCtxDestroy(other));
    unsigned int type = 9;
    CUpointer_attribute a = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
    void *data[] = {&type};
    EXPECT_OK(cuPointerGetAttributes(1, &a, data, q));
    EXPECT_EQ(0u, type); // gone with its context
    EXPECT_OK(cuMemFree(p));
    EXPECT_OK(cuDestroyExternalMemory(e));
}

TEST_F(ExternalMemory, RuntimeCalls_ImportMapAndDestroy)
{
    struct cudaExternalMemoryHandleDesc d{};
    d.type = cudaExternalMemoryHandleTypeOpaqueFd;
    d.handle.fd = export_fd();
    d.size = 2 * gran;
    cudaExternalMemory_t e = nullptr;
    ASSERT_EQ(cudaSuccess, cudaImportExternalMemory(&e, &d));
    struct cudaExternalMemoryBufferDesc b{};
    b.size = gran;
    void *p = nullptr;
    ASSERT_EQ(cudaSuccess, cudaExternalMemoryGetMappedBuffer(&p, e, &b));
    EXPECT_EQ(cudaSuccess, cudaMemset(p, 3, gran));
    EXPECT_EQ(3, ((unsigned char *)p)[gran - 1]);
    EXPECT_EQ(cudaSuccess, cudaFree(p));
    EXPECT_EQ(cudaSuccess, cudaDestroyExternalMemory(e));
    b.flags = 1;
    EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaExternalMemoryGetMappedBuffer(&p, e, &b));
    d.size = 0;
    EXPECT_EQ(cudaErrorInvalidValue, cudaImportExternalMemory(&e, &d));
    cudaGetLastError();
}
