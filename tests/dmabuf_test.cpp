// cuMemGetHandleForAddressRange (../shared/seeds/000_5a44d3b7857fd408.txt, BEHAVIOR.md,
// docs/dmabuf.md): every argument rule in the driver's order (docs/probes/dmabuf_probe.out), the
// ranges it accepts, and the NOT_SUPPORTED path with its reason. These run on any machine; the
// cases that need a dma-buf provider skip where /dev/udmabuf does not work, and run in the VM
// test (scripts/vm/run.sh), which boots a kernel that has one.
#include "framework/testing.h"

#include <fcntl.h>
#include <linux/dma-buf.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace extmem_test;

namespace {

const CUmemRangeHandleType DMABUF = CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD;
const unsigned long long PCIE = CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE;
const int UNTOUCHED = -2; // what the tests preset the handle to

int attribute(CUdevice_attribute a)
{
    int v = -1;
    EXPECT_OK(cuDeviceGetAttribute(&v, a, 0));
    return v;
}

std::string fd_target(int fd)
{
    char link[64], target[256] = "";
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof(target) - 1);
    target[n > 0 ? n : 0] = '\0';
    return target;
}

bool is_dmabuf(int fd)
{
    std::string t = fd_target(fd);
    return t.rfind("/dmabuf:", 0) == 0 || t.rfind("anon_inode:dmabuf", 0) == 0;
}

int sync_buf(int fd, unsigned long long flags)
{
    struct dma_buf_sync s = {flags};
    int r;
    while ((r = ioctl(fd, DMA_BUF_IOCTL_SYNC, &s)) != 0 && (errno == EINTR || errno == EAGAIN)) {
    }
    return r;
}

class DmaBuf : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        page = (size_t)sysconf(_SC_PAGESIZE);
        ASSERT_OK(cuMemAlloc(&a, size));
        supported = attribute(CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED) == 1;
    }
    void TearDown() override
    {
        if (a) {
            EXPECT_OK(cuMemFree(a));
        }
        ContextTest::TearDown();
    }
    // Calls with the handle preset to UNTOUCHED; the result is in fd.
    CUresult get(CUdeviceptr dptr, size_t bytes, CUmemRangeHandleType type = DMABUF, unsigned long long flags = 0)
    {
        fd = UNTOUCHED;
        return cuMemGetHandleForAddressRange(&fd, dptr, bytes, type, flags);
    }
    // For the success paths: an fd that the test closes.
    int export_fd(CUdeviceptr dptr, size_t bytes)
    {
        EXPECT_OK(get(dptr, bytes));
        return fd;
    }
    void prepare_vmm()
    {
        prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
        ASSERT_OK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    }
    const size_t size = 2 << 20;
    size_t page = 4096, gran = 0;
    CUdeviceptr a = 0;
    int fd = UNTOUCHED;
    bool supported = false;
    CUmemAllocationProp prop{};
};

/* The cases that make real dma-bufs. tests/CMakeLists.txt registers them only where the
 * machine has a provider (/dev/udmabuf); the VM test (tests/dmabuf_vm) runs them on a kernel
 * with one. Where they run, the provider must work. */
class DmaBufOnAProvider : public DmaBuf {};

#define REQUIRE_PROVIDER() \
    ASSERT_TRUE(supported) << "CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED is 0: " << extmem_error_detail()

} // namespace

// ---- The arguments alone: INVALID_VALUE, and the handle is not written ----

TEST_F(DmaBuf, HandleNull_IsInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetHandleForAddressRange(nullptr, a, size, DMABUF, 0));
    EXPECT_DETAIL_HAS("handle is NULL");
}

TEST_F(DmaBuf, HandleNull_IsCheckedFirst)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuMemGetHandleForAddressRange(nullptr, 0, 0, (CUmemRangeHandleType)0, 2));
    EXPECT_DETAIL_HAS("handle is NULL");
}

TEST_F(DmaBuf, HandleTypeOtherThanDmaBufFd_IsInvalidValueAndWritesNothing)
{
    for (int type : {0, 2, 3, 0x7ffffffe, 0x7fffffff}) { // values a C++ enum of this range holds
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(a, size, (CUmemRangeHandleType)type)) << "type " << type;
        EXPECT_EQ(UNTOUCHED, fd);
        EXPECT_DETAIL_HAS("handleType");
    }
}

TEST_F(DmaBuf, HandleType_IsCheckedBeforeFlags)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(a, size, (CUmemRangeHandleType)0, 2));
    EXPECT_DETAIL_HAS("handleType");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(a, size, (CUmemRangeHandleType)0, PCIE));
    EXPECT_DETAIL_HAS("handleType");
}

TEST_F(DmaBuf, FlagsWithoutThePcieBit_AreInvalidValueAndWriteNothing)
{
    for (unsigned long long flags : {2ull, 4ull, 6ull, 1ull << 63}) {
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(a, size, DMABUF, flags)) << "flags " << flags;
        EXPECT_EQ(UNTOUCHED, fd);
        EXPECT_DETAIL_HAS("CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE");
    }
}

TEST_F(DmaBuf, Flags_AreCheckedBeforeDptr)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(0, size, DMABUF, 2));
    EXPECT_DETAIL_HAS("flags");
}

TEST_F(DmaBuf, DptrZero_IsInvalidValueAndWritesNothing)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(0, page));
    EXPECT_EQ(UNTOUCHED, fd);
    EXPECT_DETAIL_HAS("dptr is 0");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(0, 0));
    EXPECT_DETAIL_HAS("dptr is 0");
}

TEST_F(DmaBuf, SizeZero_IsInvalidValueAndWritesNothing)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(a, 0));
    EXPECT_EQ(UNTOUCHED, fd);
    EXPECT_DETAIL_HAS("size is 0");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(a + 1, 0)); // size before alignment
    EXPECT_DETAIL_HAS("size is 0");
}

TEST_F(DmaBuf, SizeNotHostPageAligned_IsInvalidValueAndWritesNothing)
{
    for (size_t bytes : {(size_t)1000, page + 1000, size - 1}) {
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(a, bytes)) << bytes;
        EXPECT_EQ(UNTOUCHED, fd);
        EXPECT_DETAIL_HAS("host page size");
    }
}

TEST_F(DmaBuf, DptrNotHostPageAligned_IsInvalidValueAndWritesNothing)
{
    for (size_t off : {(size_t)1, (size_t)2048, page - 8}) {
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(a + off, page)) << off;
        EXPECT_EQ(UNTOUCHED, fd);
        EXPECT_DETAIL_HAS("not aligned to the host page size");
    }
}

TEST_F(DmaBuf, RangeWrappingAroundTheAddressSpace_IsInvalidValueAndWritesNothing)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(a, SIZE_MAX & ~(page - 1)));
    EXPECT_EQ(UNTOUCHED, fd);
    EXPECT_DETAIL_HAS("wraps around");
}

TEST_F(DmaBuf, PcieFlagWithABadArgument_IsInvalidValueAndWritesNothing)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(0, size, DMABUF, PCIE));
    EXPECT_EQ(UNTOUCHED, fd);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(a, 1000, DMABUF, PCIE));
    EXPECT_EQ(UNTOUCHED, fd);
}

TEST_F(DmaBuf, NoCurrentContext_IsInvalidContextAfterTheArgumentChecks)
{
    CUcontext popped = nullptr;
    ASSERT_OK(cuCtxPopCurrent(&popped));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(a, 1000)); // the arguments first, as on the driver
    EXPECT_EQ(UNTOUCHED, fd);
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, get(a, size));
    EXPECT_EQ(UNTOUCHED, fd);
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, get(a, size, DMABUF, PCIE));
    EXPECT_EQ(UNTOUCHED, fd);
    ASSERT_OK(cuCtxPushCurrent(popped));
}

EXTMEM_CHILD_ROLE(dmabuf_before_init)
{
    (void)args;
    int fd = UNTOUCHED;
    CUresult r = cuMemGetHandleForAddressRange(&fd, 0x10000, 4096, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
    printf("%d %d\n", (int)r, fd);
    return 0;
}

TEST(DmaBufProcess, BeforeCuInit_IsNotInitialized)
{
    Child child("dmabuf_before_init");
    EXPECT_EQ(std::to_string((int)CUDA_ERROR_NOT_INITIALIZED) + " -2", child.read_line());
    EXPECT_EQ(0, child.wait());
}

// ---- The range: INVALID_VALUE, and the handle is -1 (as the driver writes) ----

TEST_F(DmaBuf, FreedAllocation_IsInvalidValueAndWritesMinusOne)
{
    CUdeviceptr b = 0;
    ASSERT_OK(cuMemAlloc(&b, size));
    ASSERT_OK(cuMemFree(b));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(b, page));
    EXPECT_EQ(-1, fd);
    EXPECT_DETAIL_HAS("not memory from cuMemAlloc");
}

TEST_F(DmaBuf, MallocMemory_IsInvalidValue)
{
    void *p = aligned_alloc(page, 4 * page);
    ASSERT_NE(nullptr, p);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get((CUdeviceptr)(uintptr_t)p, page));
    EXPECT_EQ(-1, fd);
    free(p);
}

TEST_F(DmaBuf, RangeRunningPastTheAllocation_IsInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(a, size + page));
    EXPECT_EQ(-1, fd);
    EXPECT_DETAIL_HAS("runs past the end of its allocation");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(a + size - page, 2 * page));
    EXPECT_DETAIL_HAS("runs past the end of its allocation");
}

// The driver's small allocations share 2 MiB chunks and it exports past their end; extmem's own
// only their pages (docs/dmabuf.md: a deliberate difference).
TEST_F(DmaBuf, SmallAllocation_OwnsItsWholePagesOnly)
{
    CUdeviceptr s = 0;
    ASSERT_OK(cuMemAlloc(&s, 1000));
    CUresult r = get(s, page);
    EXPECT_CU(supported ? CUDA_SUCCESS : CUDA_ERROR_NOT_SUPPORTED, r);
    if (r == CUDA_SUCCESS)
        close(fd);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(s, 2 * page));
    EXPECT_EQ(-1, fd);
    ASSERT_OK(cuMemFree(s));
}

TEST_F(DmaBuf, ReservedButNotMapped_IsInvalidValue)
{
    prepare_vmm();
    CUdeviceptr res = 0;
    ASSERT_OK(cuMemAddressReserve(&res, 2 * gran, 0, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(res, gran));
    EXPECT_EQ(-1, fd);
    EXPECT_DETAIL_HAS("reserved with cuMemAddressReserve but not mapped");
    ASSERT_OK(cuMemAddressFree(res, 2 * gran));
}

TEST_F(DmaBuf, HalfMappedReservation_IsInvalidValue)
{
    prepare_vmm();
    CUmemGenericAllocationHandle h = 0;
    ASSERT_OK(cuMemCreate(&h, gran, &prop, 0));
    CUdeviceptr res = 0;
    ASSERT_OK(cuMemAddressReserve(&res, 2 * gran, 0, 0, 0));
    ASSERT_OK(cuMemMap(res, gran, 0, h, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(res, 2 * gran));
    EXPECT_EQ(-1, fd);
    EXPECT_DETAIL_HAS("not mapped throughout");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(res + gran - page, 2 * page));
    EXPECT_DETAIL_HAS("not mapped throughout");
    // The mapped part alone is a good range, whatever its access (the driver's answer).
    CUresult r = get(res, gran);
    EXPECT_CU(supported ? CUDA_SUCCESS : CUDA_ERROR_NOT_SUPPORTED, r);
    if (r == CUDA_SUCCESS)
        close(fd);
    ASSERT_OK(cuMemUnmap(res, gran));
    ASSERT_OK(cuMemAddressFree(res, 2 * gran));
    ASSERT_OK(cuMemRelease(h));
}

TEST_F(DmaBuf, ExternalMemoryBuffer_IsInvalidValue)
{
    prepare_vmm();
    CUmemGenericAllocationHandle h = 0;
    ASSERT_OK(cuMemCreate(&h, gran, &prop, 0));
    int shared = -1;
    ASSERT_OK(cuMemExportToShareableHandle(&shared, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d{};
    d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
    d.handle.fd = shared;
    d.size = gran;
    CUexternalMemory ext = nullptr;
    ASSERT_OK(cuImportExternalMemory(&ext, &d));
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b{};
    b.size = gran;
    CUdeviceptr buf = 0;
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&buf, ext, &b));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(buf, page));
    EXPECT_EQ(-1, fd);
    EXPECT_DETAIL_HAS("imported external memory");
    ASSERT_OK(cuMemFree(buf));
    ASSERT_OK(cuDestroyExternalMemory(ext));
    ASSERT_OK(cuMemRelease(h));
}

TEST_F(DmaBuf, HostAllocation_IsExportedExactlyWhereTheHostAttributeSaysSo)
{
    int host = attribute(CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED);
    EXPECT_EQ(supported ? 1 : 0, host);
    void *p = nullptr;
    ASSERT_OK(cuMemAllocHost(&p, size));
    CUresult r = get((CUdeviceptr)(uintptr_t)p, size);
    if (host) {
        EXPECT_OK(r);
        EXPECT_TRUE(is_dmabuf(fd));
        close(fd);
    } else {
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, r); // the driver's answer where the attribute is 0
        EXPECT_EQ(-1, fd);
        EXPECT_DETAIL_HAS("CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED");
    }
    ASSERT_OK(cuMemFreeHost(p));
}

// ---- The PCIe flag and the provider: NOT_SUPPORTED, once the range is good ----

TEST_F(DmaBuf, PcieFlag_OnAGoodRange_IsNotSupported_TheSoftwareDeviceHasNoBar)
{
    for (unsigned long long flags : {PCIE, PCIE | 2, PCIE | 1ull << 63}) {
        EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, get(a, size, DMABUF, flags)) << flags;
        EXPECT_EQ(-1, fd);
        EXPECT_DETAIL_HAS("PCIe");
    }
}

TEST_F(DmaBuf, PcieFlag_OnABadRange_IsInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(a, size + page, DMABUF, PCIE));
    EXPECT_EQ(-1, fd);
}

TEST_F(DmaBuf, Attribute_SaysWhetherExportWorksHere)
{
    CUresult r = get(a, size);
    if (supported) {
        EXPECT_OK(r);
        close(fd);
        return;
    }
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, r);
    EXPECT_EQ(-1, fd);
    EXPECT_DETAIL_HAS("no dma-buf provider");
    EXPECT_DETAIL_HAS("CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED is 0");
    if (access("/dev/udmabuf", F_OK) != 0 && !getenv("EXTMEM_UDMABUF")) {
        EXPECT_DETAIL_HAS("/dev/udmabuf does not exist");
    }
}

// A child with EXTMEM_UDMABUF pointing elsewhere: the attributes, then the export's answer and
// its reason, one line each.
EXTMEM_CHILD_ROLE(dmabuf_provider)
{
    (void)args;
    CUcontext ctx;
    CUdeviceptr p = 0;
    if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) || cuCtxSetCurrent(ctx) || cuMemAlloc(&p, 1 << 20))
        return 3;
    int dmabuf = -1, host = -1;
    cuDeviceGetAttribute(&dmabuf, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, 0);
    cuDeviceGetAttribute(&host, CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED, 0);
    printf("%d %d\n", dmabuf, host);
    int fd = UNTOUCHED;
    CUresult r = cuMemGetHandleForAddressRange(&fd, p, 1 << 20, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
    printf("%d %d\n%s\n", (int)r, fd, extmem_error_detail());
    if (r == CUDA_SUCCESS)
        close(fd);
    return 0;
}

static void expect_unsupported_with(const char *device, const char *reason)
{
    setenv("EXTMEM_UDMABUF", device, 1);
    Child child("dmabuf_provider");
    unsetenv("EXTMEM_UDMABUF");
    EXPECT_EQ("0 0", child.read_line()) << "both attributes are 0";
    EXPECT_EQ(std::to_string((int)CUDA_ERROR_NOT_SUPPORTED) + " -1", child.read_line());
    std::string detail = child.read_line();
    EXPECT_NE(std::string::npos, detail.find("no dma-buf provider")) << detail;
    EXPECT_NE(std::string::npos, detail.find(reason)) << detail;
    EXPECT_EQ(0, child.wait());
}

TEST(DmaBufProcess, NoUdmabufDevice_AttributesAreZero_AndExportIsNotSupportedWithTheReason)
{
    expect_unsupported_with("/nonexistent/udmabuf", "/nonexistent/udmabuf: No such file or directory");
}

TEST(DmaBufProcess, ADeviceThatIsNotUdmabuf_DoesNotCount)
{
    expect_unsupported_with("/dev/null", "is not a udmabuf device");
}

TEST(DmaBufProcess, GetProcAddress_FindsItFromCuda117)
{
    void *fn = nullptr;
    CUdriverProcAddressQueryResult status;
    ASSERT_OK(cuGetProcAddress("cuMemGetHandleForAddressRange", &fn, 11070, 0, &status));
    EXPECT_EQ((void *)&cuMemGetHandleForAddressRange, fn);
    EXPECT_OK(cuGetProcAddress("cuMemGetHandleForAddressRange", &fn, 11060, 0, &status));
    EXPECT_EQ(CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT, status);
}

// ---- Success: where a provider works (the VM test boots a kernel with one) ----

TEST_F(DmaBufOnAProvider, WholeAllocation_IsADmaBufOfItsSize_CloseOnExecAndReadWrite)
{
    REQUIRE_PROVIDER();
    int f = export_fd(a, size);
    ASSERT_GE(f, 0);
    EXPECT_TRUE(is_dmabuf(f)) << fd_target(f);
    EXPECT_EQ((off_t)size, lseek(f, 0, SEEK_END));
    EXPECT_TRUE(fcntl(f, F_GETFD) & FD_CLOEXEC);
    EXPECT_EQ(O_RDWR, fcntl(f, F_GETFL) & O_ACCMODE);
    close(f);
}

TEST_F(DmaBufOnAProvider, SubRanges_AreDmaBufsOfTheirSize)
{
    REQUIRE_PROVIDER();
    for (size_t off : {(size_t)0, page, size - page}) {
        int f = export_fd(a + off, page);
        ASSERT_GE(f, 0);
        EXPECT_EQ((off_t)page, lseek(f, 0, SEEK_END));
        close(f);
    }
}

TEST_F(DmaBufOnAProvider, EachCall_GivesANewFd)
{
    REQUIRE_PROVIDER();
    int f1 = export_fd(a, size), f2 = export_fd(a, size);
    EXPECT_NE(f1, f2);
    close(f1);
    close(f2);
}

TEST_F(DmaBufOnAProvider, MappedDmaBuf_IsTheVeryMemoryOfTheRange_BothWays)
{
    REQUIRE_PROVIDER();
    int f = export_fd(a + page, 2 * page);
    ASSERT_GE(f, 0);
    auto *map = (uint32_t *)mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
    ASSERT_NE(MAP_FAILED, (void *)map);
    ASSERT_EQ(0, sync_buf(f, DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE));
    map[0] = 0x11111111;
    map[2 * page / 4 - 1] = 0x22222222;
    ASSERT_EQ(0, sync_buf(f, DMA_BUF_SYNC_END | DMA_BUF_SYNC_WRITE));
    uint32_t first = 0, last = 0;
    ASSERT_OK(cuMemcpyDtoH(&first, a + page, 4));
    ASSERT_OK(cuMemcpyDtoH(&last, a + 3 * page - 4, 4));
    EXPECT_EQ(0x11111111u, first);
    EXPECT_EQ(0x22222222u, last);
    ASSERT_OK(cuMemsetD32(a + page, 0x33333333, 1));
    ASSERT_EQ(0, sync_buf(f, DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ));
    EXPECT_EQ(0x33333333u, map[0]);
    ASSERT_EQ(0, sync_buf(f, DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ));
    munmap(map, 2 * page);
    close(f);
}

TEST_F(DmaBufOnAProvider, TwoPhysicalAllocationsSideBySide_AreOneDmaBuf)
{
    REQUIRE_PROVIDER();
    prepare_vmm();
    CUmemGenericAllocationHandle h1 = 0, h2 = 0;
    ASSERT_OK(cuMemCreate(&h1, gran, &prop, 0));
    ASSERT_OK(cuMemCreate(&h2, gran, &prop, 0));
    CUdeviceptr res = 0;
    ASSERT_OK(cuMemAddressReserve(&res, 2 * gran, 0, 0, 0));
    ASSERT_OK(cuMemMap(res, gran, 0, h1, 0));
    ASSERT_OK(cuMemMap(res + gran, gran, 0, h2, 0));
    CUmemAccessDesc rw{{CU_MEM_LOCATION_TYPE_DEVICE, 0}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    ASSERT_OK(cuMemSetAccess(res, 2 * gran, &rw, 1));
    ASSERT_OK(cuMemsetD32(res + gran - 4, 0x44444444, 2)); // the last word of h1, the first of h2
    int f = export_fd(res, 2 * gran);
    ASSERT_GE(f, 0);
    EXPECT_EQ((off_t)(2 * gran), lseek(f, 0, SEEK_END));
    auto *map = (uint32_t *)mmap(nullptr, 2 * gran, PROT_READ, MAP_SHARED, f, 0);
    ASSERT_NE(MAP_FAILED, (void *)map);
    ASSERT_EQ(0, sync_buf(f, DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ));
    EXPECT_EQ(0x44444444u, map[gran / 4 - 1]);
    EXPECT_EQ(0x44444444u, map[gran / 4]);
    ASSERT_EQ(0, sync_buf(f, DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ));
    munmap(map, 2 * gran);
    close(f);
    ASSERT_OK(cuMemUnmap(res, 2 * gran));
    ASSERT_OK(cuMemAddressFree(res, 2 * gran));
    ASSERT_OK(cuMemRelease(h1));
    ASSERT_OK(cuMemRelease(h2));
}

TEST_F(DmaBufOnAProvider, DmaBuf_OutlivesCuMemFree)
{
    REQUIRE_PROVIDER();
    ASSERT_OK(cuMemsetD32(a, 0x55555555, size / 4));
    int f = export_fd(a, size);
    ASSERT_GE(f, 0);
    ASSERT_OK(cuMemFree(a));
    a = 0;
    auto *map = (uint32_t *)mmap(nullptr, size, PROT_READ, MAP_SHARED, f, 0);
    ASSERT_NE(MAP_FAILED, (void *)map);
    EXPECT_EQ(0x55555555u, map[size / 4 - 1]);
    munmap(map, size);
    close(f);
}

TEST_F(DmaBufOnAProvider, ExportedDmaBuf_ImportsBackAsDmabufFd)
{
    REQUIRE_PROVIDER();
    int f = export_fd(a, size);
    ASSERT_GE(f, 0);
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d{};
    d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD;
    d.handle.fd = f;
    d.size = size;
    CUexternalMemory ext = nullptr;
    ASSERT_OK(cuImportExternalMemory(&ext, &d)); // the fd is extmem's now: the caller's number is closed
    EXPECT_FALSE(fd_is_open(f));
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b{};
    b.size = size;
    CUdeviceptr buf = 0;
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&buf, ext, &b));
    ASSERT_OK(cuMemsetD32(buf + size - 4, 0x66666666, 1));
    uint32_t v = 0;
    ASSERT_OK(cuMemcpyDtoH(&v, a + size - 4, 4));
    EXPECT_EQ(0x66666666u, v);
    ASSERT_OK(cuMemFree(buf));
    ASSERT_OK(cuDestroyExternalMemory(ext));
    EXPECT_FALSE(fd_is_open(f));
}
