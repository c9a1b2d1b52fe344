/*
 * External semaphores through the driver and runtime APIs (DESIGN.md §15, BEHAVIOR.md's
 * external semaphore table, docs/external-semaphores.md). The exporter here is the payload
 * library itself (src/interop/sem_payload.h), as extmem's Vulkan layer uses it; tests/vk has the
 * same rules with real lavapipe semaphores through the layer.
 */
#include "framework/testing.h"

#include "extmem/cuda_runtime_api.h"

#include "framework/sem_exporter.h"

#include <atomic>
#include <cstring>
#include <chrono>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace extmem_test;

namespace {

/* The exporter's side of a semaphore: what Vulkan holds through the layer. */
enum Kind { SEMP_BINARY, SEMP_TIMELINE };

struct Exported {
    sem_exporter *s;
    explicit Exported(Kind kind, uint64_t initial = 0) : s(sem_exporter_create(kind == SEMP_TIMELINE, initial))
    {
        EXPECT_NE(nullptr, s);
    }
    ~Exported() { sem_exporter_close(s); }
    int fd() const
    {
        int fd = sem_exporter_fd(s);
        EXPECT_GE(fd, 0);
        return fd;
    }
};

CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC fd_desc(CUexternalSemaphoreHandleType type, int fd)
{
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d{};
    d.type = type;
    d.handle.fd = fd;
    return d;
}

CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS signal_value(uint64_t v)
{
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS p{};
    p.params.fence.value = v;
    return p;
}

CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wait_value(uint64_t v)
{
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS p{};
    p.params.fence.value = v;
    return p;
}

class ExternalSemaphore : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        ASSERT_OK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    }
    void TearDown() override
    {
        if (stream) {
            EXPECT_OK(cuStreamDestroy(stream));
        }
        ContextTest::TearDown();
    }
    CUexternalSemaphore import(const Exported &e, CUexternalSemaphoreHandleType type)
    {
        CUexternalSemaphore sem = nullptr;
        CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d = fd_desc(type, e.fd());
        EXPECT_OK(cuImportExternalSemaphore(&sem, &d));
        return sem;
    }
    /* cuStreamQuery stays NOT_READY for a while: the wait really holds the stream. */
    void expect_stays_busy(CUstream s)
    {
        for (int i = 0; i < 5; ++i) {
            EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(s));
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    CUstream stream = nullptr;
};

int memfd_of(size_t size)
{
    int fd = memfd_create("not-a-semaphore", MFD_CLOEXEC);
    EXPECT_EQ(0, ftruncate(fd, (off_t)size));
    return fd;
}

} // namespace

/* ---- Import: the rules in the driver's order ---- */

TEST_F(ExternalSemaphore, Import_NullOutOrDescriptor_IsInvalidValue)
{
    CUexternalSemaphore sem;
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d = fd_desc(CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, -1);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(nullptr, &d));
    EXPECT_DETAIL_HAS("extSem_out");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, nullptr));
    EXPECT_DETAIL_HAS("semHandleDesc");
}

TEST_F(ExternalSemaphore, Import_TypeZeroOrUnknown_IsInvalidValueAndKeepsFd)
{
    Exported e(SEMP_BINARY);
    int fd = e.fd();
    CUexternalSemaphore sem;
    for (int type : {0, 11, 0x7fffffff}) {
        /* Written as the int it is in memory: C++ may not hold such a value in the enum type. */
        CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d = fd_desc(CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, fd);
        std::memcpy(&d.type, &type, sizeof(type));
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, &d)) << "type " << type;
        EXPECT_DETAIL_HAS("CUexternalSemaphoreHandleType");
    }
    EXPECT_TRUE(fd_is_open(fd));
    close(fd);
}

TEST_F(ExternalSemaphore, Import_WindowsDirect3DAndNvSciSyncTypes_AreNotSupportedOnLinux)
{
    CUexternalSemaphore sem;
    for (CUexternalSemaphoreHandleType t :
         {CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT,
          CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_FENCE,
          CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_NVSCISYNC, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX,
          CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT,
          CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_WIN32}) {
        CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d{};
        d.type = t;
        d.handle.win32.handle = (void *)(uintptr_t)0x1234;
        EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuImportExternalSemaphore(&sem, &d)) << "type " << (int)t;
    }
}

TEST_F(ExternalSemaphore, Import_FlagsOrReservedSet_IsInvalidValueAndKeepsFd)
{
    Exported e(SEMP_BINARY);
    int fd = e.fd();
    CUexternalSemaphore sem;
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d = fd_desc(CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, fd);
    d.flags = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, &d));
    EXPECT_DETAIL_HAS("flags");
    d.flags = 0;
    d.reserved[15] = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, &d));
    EXPECT_DETAIL_HAS("reserved[15]");
    EXPECT_TRUE(fd_is_open(fd));
    close(fd);
}

TEST_F(ExternalSemaphore, Import_FdThatIsNoSemaphore_IsUnknownAndKeepsFd)
{
    CUexternalSemaphore sem;
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d = fd_desc(CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, -1);
    EXPECT_CU(CUDA_ERROR_UNKNOWN, cuImportExternalSemaphore(&sem, &d));
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    int memfd = memfd_of(4096);
    /* An allocation's fd is extmem memory, not a semaphore. */
    CUmemGenericAllocationHandle alloc;
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    size_t gran = 0;
    ASSERT_OK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    ASSERT_OK(cuMemCreate(&alloc, gran, &prop, 0));
    int memory = -1;
    ASSERT_OK(cuMemExportToShareableHandle(&memory, alloc, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    for (int fd : {devnull, memfd, memory}) {
        for (CUexternalSemaphoreHandleType t :
             {CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD}) {
            d = fd_desc(t, fd);
            EXPECT_CU(CUDA_ERROR_UNKNOWN, cuImportExternalSemaphore(&sem, &d)) << "fd " << fd;
            EXPECT_DETAIL_HAS("not a semaphore");
            EXPECT_TRUE(fd_is_open(fd));
        }
        close(fd);
    }
    EXPECT_OK(cuMemRelease(alloc));
}

TEST_F(ExternalSemaphore, Import_ABinaryPayloadAsATimeline_IsInvalidValueAndKeepsFd)
{
    Exported binary(SEMP_BINARY);
    CUexternalSemaphore sem;
    int fd = binary.fd();
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d = fd_desc(CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD, fd);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, &d));
    EXPECT_DETAIL_HAS("import it as OPAQUE_FD");
    EXPECT_TRUE(fd_is_open(fd));
    close(fd);
}

/* NVIDIA's driver takes a Vulkan timeline exported as OPAQUE_FD under the binary type, and a
 * signal through it raises the counter to 1 whatever the value, a wait passes at 1
 * (docs/probes/surface/timeline.out). */
TEST_F(ExternalSemaphore, Import_ATimelineAsOpaqueFd_WorksAsABinarySemaphoreOverItsCounter)
{
    Exported timeline(SEMP_TIMELINE);
    CUexternalSemaphore sem = nullptr;
    int fd = timeline.fd();
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d = fd_desc(CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, fd);
    ASSERT_OK(cuImportExternalSemaphore(&sem, &d));
    EXPECT_FALSE(fd_is_open(fd)) << "a successful import takes the fd, as for any OPAQUE_FD";
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS w = wait_value(8);
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &w, 1, s));
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(s)) << "the counter is 0";
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS p = signal_value(5);
    ASSERT_OK(cuSignalExternalSemaphoresAsync(&sem, &p, 1, nullptr));
    EXPECT_OK(cuStreamSynchronize(s)); // the wait passed at 1, not 8
    EXPECT_EQ(1u, sem_exporter_value(timeline.s)) << "as the H100's Vulkan counter read";
    p = signal_value(0);
    ASSERT_OK(cuSignalExternalSemaphoresAsync(&sem, &p, 1, nullptr));
    EXPECT_OK(cuCtxSynchronize());
    EXPECT_EQ(1u, sem_exporter_value(timeline.s));
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

TEST_F(ExternalSemaphore, Import_Success_ClosesTheCallersFdNumber)
{
    Exported e(SEMP_BINARY);
    int fd = e.fd();
    CUexternalSemaphore sem = nullptr;
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d = fd_desc(CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, fd);
    ASSERT_OK(cuImportExternalSemaphore(&sem, &d));
    EXPECT_NE(nullptr, sem);
    EXPECT_FALSE(fd_is_open(fd));
    /* A number the caller reuses is the caller's: extmem's own descriptor is another. */
    int reused = open("/dev/null", O_RDONLY | O_CLOEXEC);
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
    EXPECT_TRUE(fd_is_open(reused));
    close(reused);
}

/* ---- Signals and waits ---- */

TEST_F(ExternalSemaphore, BinarySignalledByCuda_TheExporterSeesOneSignal)
{
    Exported e(SEMP_BINARY);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD);
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = signal_value(0);
    ASSERT_OK(cuSignalExternalSemaphoresAsync(&sem, &sp, 1, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    EXPECT_TRUE(sem_exporter_try_pass(e.s, 0));
    EXPECT_FALSE(sem_exporter_try_pass(e.s, 0)) << "one signal lets one wait pass";
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

TEST_F(ExternalSemaphore, BinaryWaitNobodySignalled_KeepsTheStreamBusyUntilTheExporterSignals)
{
    Exported e(SEMP_BINARY);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD);
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(0);
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, stream)); /* returns at once */
    expect_stays_busy(stream);
    sem_exporter_signal(e.s, 0);
    EXPECT_OK(cuStreamSynchronize(stream));
    EXPECT_FALSE(sem_exporter_try_pass(e.s, 0)) << "the stream's wait took the signal";
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

TEST_F(ExternalSemaphore, Wait_HoldsBackLaterWorkInItsStream)
{
    Exported e(SEMP_TIMELINE);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    CUdeviceptr buf;
    ASSERT_OK(cuMemAlloc(&buf, 4096));
    ASSERT_OK(cuMemsetD32(buf, 0, 1024));
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(1);
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, stream));
    ASSERT_OK(cuMemsetD32Async(buf, 0xabcdef01u, 1024, stream));
    /* An event after the fill says whether it ran (reading the buffer here would race with it,
     * for ThreadSanitizer, which cannot see the hand-over through the payload's second mapping). */
    CUevent filled;
    ASSERT_OK(cuEventCreate(&filled, CU_EVENT_DISABLE_TIMING));
    ASSERT_OK(cuEventRecord(filled, stream));
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuEventQuery(filled)) << "the fill ran before the wait passed";
    sem_exporter_signal(e.s, 1);
    ASSERT_OK(cuStreamSynchronize(stream));
    EXPECT_EQ(0xabcdef01u, ((uint32_t *)(uintptr_t)buf)[1023]);
    EXPECT_OK(cuEventDestroy(filled));
    EXPECT_OK(cuMemFree(buf));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

TEST_F(ExternalSemaphore, TimelineSignal5_TheExporterReads5)
{
    Exported e(SEMP_TIMELINE);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = signal_value(5);
    ASSERT_OK(cuSignalExternalSemaphoresAsync(&sem, &sp, 1, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    EXPECT_EQ(5u, sem_exporter_value(e.s));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

TEST_F(ExternalSemaphore, TimelineWaitForAPassedValue_CompletesAtOnce)
{
    Exported e(SEMP_TIMELINE, 10);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(7);
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, stream));
    EXPECT_OK(cuStreamSynchronize(stream));
    EXPECT_EQ(10u, sem_exporter_value(e.s)) << "a timeline wait takes nothing";
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

TEST_F(ExternalSemaphore, TimelineWaitForAFutureValue_IsNotReadyUntilTheValueIsReached)
{
    Exported e(SEMP_TIMELINE);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(6);
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, stream));
    sem_exporter_signal(e.s, 3);
    expect_stays_busy(stream);
    sem_exporter_signal(e.s, 7);
    EXPECT_OK(cuStreamSynchronize(stream));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

TEST_F(ExternalSemaphore, CudaSignalsOneStream_CudaWaitsInAnother)
{
    Exported e(SEMP_TIMELINE);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    CUstream other;
    ASSERT_OK(cuStreamCreate(&other, CU_STREAM_NON_BLOCKING));
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(2);
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = signal_value(2);
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, other));
    expect_stays_busy(other);
    ASSERT_OK(cuSignalExternalSemaphoresAsync(&sem, &sp, 1, stream));
    EXPECT_OK(cuStreamSynchronize(other));
    EXPECT_OK(cuStreamDestroy(other));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

TEST_F(ExternalSemaphore, TwoSemaphoresInOneCall_TheWaitNeedsBoth)
{
    Exported a(SEMP_BINARY), b(SEMP_TIMELINE);
    CUexternalSemaphore sems[2] = {import(a, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD),
                                   import(b, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD)};
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp[2] = {wait_value(0), wait_value(4)};
    ASSERT_OK(cuWaitExternalSemaphoresAsync(sems, wp, 2, stream));
    sem_exporter_signal(a.s, 0);
    expect_stays_busy(stream);
    sem_exporter_signal(b.s, 4);
    EXPECT_OK(cuStreamSynchronize(stream));
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp[2] = {signal_value(0), signal_value(9)};
    ASSERT_OK(cuSignalExternalSemaphoresAsync(sems, sp, 2, stream));
    EXPECT_OK(cuStreamSynchronize(stream));
    EXPECT_TRUE(sem_exporter_try_pass(a.s, 0));
    EXPECT_EQ(9u, sem_exporter_value(b.s));
    for (CUexternalSemaphore s : sems)
        EXPECT_OK(cuDestroyExternalSemaphore(s));
}

TEST_F(ExternalSemaphore, SameSemaphoreImportedTwice_BothHandlesReachIt)
{
    Exported e(SEMP_TIMELINE);
    CUexternalSemaphore first = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    CUexternalSemaphore second = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    EXPECT_NE(first, second);
    CUstream other;
    ASSERT_OK(cuStreamCreate(&other, CU_STREAM_NON_BLOCKING));
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(1);
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = signal_value(1);
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&second, &wp, 1, other));
    ASSERT_OK(cuSignalExternalSemaphoresAsync(&first, &sp, 1, stream));
    EXPECT_OK(cuStreamSynchronize(other));
    EXPECT_OK(cuStreamDestroy(other));
    EXPECT_OK(cuDestroyExternalSemaphore(first));
    EXPECT_OK(cuDestroyExternalSemaphore(second));
}

TEST_F(ExternalSemaphore, BinaryOneSignal_LetsExactlyOneOfTwoWaitsPass)
{
    Exported e(SEMP_BINARY);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD);
    CUstream other;
    ASSERT_OK(cuStreamCreate(&other, CU_STREAM_NON_BLOCKING));
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(0);
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, stream));
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, other));
    sem_exporter_signal(e.s, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    int done = (cuStreamQuery(stream) == CUDA_SUCCESS) + (cuStreamQuery(other) == CUDA_SUCCESS);
    EXPECT_EQ(1, done);
    sem_exporter_signal(e.s, 0);
    EXPECT_OK(cuStreamSynchronize(stream));
    EXPECT_OK(cuStreamSynchronize(other));
    EXPECT_OK(cuStreamDestroy(other));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

TEST_F(ExternalSemaphore, DestroyWithAWaitQueued_TheWaitStillCompletesWhenSignalled)
{
    Exported e(SEMP_TIMELINE);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(1);
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, stream));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
    expect_stays_busy(stream);
    sem_exporter_signal(e.s, 1);
    EXPECT_OK(cuStreamSynchronize(stream));
}

/* ---- The legacy default stream (docs/external-semaphores.md) ---- */

TEST_F(ExternalSemaphore, WaitOnTheLegacyStream_ReturnsAtOnceAndHoldsItsLaterWork)
{
    Exported e(SEMP_TIMELINE);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    CUdeviceptr buf;
    ASSERT_OK(cuMemAlloc(&buf, 4096));
    ASSERT_OK(cuMemsetD32(buf, 0, 1024));
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(1);
    auto start = std::chrono::steady_clock::now();
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, nullptr)); /* the legacy stream */
    ASSERT_OK(cuMemsetD32Async(buf, 7, 1024, nullptr));
    CUevent filled;
    ASSERT_OK(cuEventCreate(&filled, CU_EVENT_DISABLE_TIMING));
    ASSERT_OK(cuEventRecord(filled, nullptr));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1)) << "the caller waited";
    expect_stays_busy(nullptr);
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuEventQuery(filled)) << "the fill ran before the wait passed";
    /* The signal comes from this same thread, after the wait was queued: no deadlock. */
    sem_exporter_signal(e.s, 1);
    EXPECT_OK(cuStreamSynchronize(nullptr));
    EXPECT_EQ(7u, ((uint32_t *)(uintptr_t)buf)[1023]);
    EXPECT_OK(cuStreamQuery(nullptr));
    EXPECT_OK(cuEventDestroy(filled));
    EXPECT_OK(cuMemFree(buf));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

/* Behind a deferred wait, the legacy stream's copy from pageable memory is queued, not run in
 * the caller: its source is staged at the call, which returns (docs/streams.md, as the driver
 * stages a small pageable upload), so the caller may reuse the buffer at once. */
TEST_F(ExternalSemaphore, WaitOnTheLegacyStream_APageableUploadBehindItIsStagedAndReturns)
{
    Exported e(SEMP_TIMELINE);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    CUdeviceptr buf;
    ASSERT_OK(cuMemAlloc(&buf, 4096));
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(1);
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, nullptr));
    std::vector<uint32_t> pageable(1024, 0x5a5a);
    ASSERT_OK(cuMemcpyHtoDAsync(buf, pageable.data(), 4096, nullptr)); /* returns: the signal is ours */
    pageable.assign(1024, 0xeeee);
    expect_stays_busy(nullptr);
    sem_exporter_signal(e.s, 1);
    EXPECT_OK(cuStreamSynchronize(nullptr));
    EXPECT_EQ(0x5a5au, ((uint32_t *)(uintptr_t)buf)[0]);
    EXPECT_EQ(0x5a5au, ((uint32_t *)(uintptr_t)buf)[1023]);
    EXPECT_OK(cuMemFree(buf));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

TEST_F(ExternalSemaphore, WaitOnTheLegacyStream_HoldsBlockingStreamsButNotNonBlockingOnes)
{
    Exported e(SEMP_BINARY);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD);
    CUstream blocking;
    ASSERT_OK(cuStreamCreate(&blocking, CU_STREAM_DEFAULT));
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(0);
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, CU_STREAM_LEGACY));
    CUdeviceptr a, b;
    ASSERT_OK(cuMemAlloc(&a, 4096));
    ASSERT_OK(cuMemAlloc(&b, 4096));
    ASSERT_OK(cuMemsetD32Async(a, 1, 1024, blocking)); /* after the legacy wait, as CUDA orders it */
    ASSERT_OK(cuMemsetD32Async(b, 2, 1024, stream));   /* a non-blocking stream: not held */
    ASSERT_OK(cuStreamSynchronize(stream));
    EXPECT_EQ(2u, ((uint32_t *)(uintptr_t)b)[0]);
    expect_stays_busy(blocking);
    sem_exporter_signal(e.s, 0);
    EXPECT_OK(cuStreamSynchronize(blocking));
    EXPECT_EQ(1u, ((uint32_t *)(uintptr_t)a)[1023]);
    EXPECT_OK(cuStreamDestroy(blocking));
    EXPECT_OK(cuMemFree(a));
    EXPECT_OK(cuMemFree(b));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

TEST_F(ExternalSemaphore, SynchronousCopyAfterALegacyWait_ReturnsOnceTheWaitPassedAndItRan)
{
    Exported e(SEMP_TIMELINE);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    CUdeviceptr buf;
    ASSERT_OK(cuMemAlloc(&buf, 4096));
    ASSERT_OK(cuMemsetD32(buf, 5, 1024));
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(2);
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, nullptr));
    std::thread signaller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        sem_exporter_signal(e.s, 2);
    });
    uint32_t host[1024] = {0};
    auto start = std::chrono::steady_clock::now();
    EXPECT_OK(cuMemcpyDtoH(host, buf, sizeof(host))); /* synchronous: waits for the legacy wait */
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(40));
    EXPECT_EQ(5u, host[1023]);
    signaller.join();
    EXPECT_OK(cuMemFree(buf));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

TEST_F(ExternalSemaphore, WaitOnThePerThreadStream_ReturnsAtOnceAndHoldsItsLaterWork)
{
    Exported e(SEMP_TIMELINE);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    CUdeviceptr buf;
    ASSERT_OK(cuMemAlloc(&buf, 4096));
    ASSERT_OK(cuMemsetD32(buf, 0, 1024));
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(4);
    auto start = std::chrono::steady_clock::now();
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, CU_STREAM_PER_THREAD));
    ASSERT_OK(cuMemsetD32Async(buf, 9, 1024, CU_STREAM_PER_THREAD));
    CUevent filled;
    ASSERT_OK(cuEventCreate(&filled, CU_EVENT_DISABLE_TIMING));
    ASSERT_OK(cuEventRecord(filled, CU_STREAM_PER_THREAD));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1)) << "the caller waited";
    expect_stays_busy(CU_STREAM_PER_THREAD);
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuEventQuery(filled)) << "the fill ran before the wait passed";
    sem_exporter_signal(e.s, 4); /* from this thread, after the wait: no deadlock */
    EXPECT_OK(cuStreamSynchronize(CU_STREAM_PER_THREAD));
    EXPECT_OK(cuEventQuery(filled));
    EXPECT_EQ(9u, ((uint32_t *)(uintptr_t)buf)[1023]);
    EXPECT_OK(cuStreamQuery(CU_STREAM_PER_THREAD));
    EXPECT_OK(cuEventDestroy(filled));
    EXPECT_OK(cuMemFree(buf));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

TEST_F(ExternalSemaphore, WaitOnThePerThreadStream_HoldsLegacyWorkButNotOtherThreads)
{
    Exported e(SEMP_BINARY);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD);
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(0);
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, CU_STREAM_PER_THREAD));
    /* Another thread's per-thread stream is its own: not held. */
    std::atomic<int> other{-1};
    std::thread t([&] {
        cuCtxSetCurrent(ctx);
        other = (int)cuStreamSynchronize(CU_STREAM_PER_THREAD);
    });
    t.join();
    EXPECT_EQ(CUDA_SUCCESS, other.load());
    /* The legacy stream waits for the per-thread streams (both are blocking): a signal from
     * another thread releases this thread's synchronisation of it. */
    std::thread signaller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        sem_exporter_signal(e.s, 0);
    });
    auto start = std::chrono::steady_clock::now();
    EXPECT_OK(cuStreamSynchronize(CU_STREAM_LEGACY));
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(40));
    signaller.join();
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

/* ---- Bad arguments ---- */

TEST_F(ExternalSemaphore, SignalAndWait_BadArguments_AreInvalidValue)
{
    Exported e(SEMP_TIMELINE);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = signal_value(1);
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(1);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSignalExternalSemaphoresAsync(nullptr, &sp, 1, stream));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSignalExternalSemaphoresAsync(&sem, nullptr, 1, stream));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSignalExternalSemaphoresAsync(&sem, &sp, 0, stream));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuWaitExternalSemaphoresAsync(nullptr, &wp, 1, stream));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuWaitExternalSemaphoresAsync(&sem, nullptr, 1, stream));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuWaitExternalSemaphoresAsync(&sem, &wp, 0, stream));
    sp.flags = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSignalExternalSemaphoresAsync(&sem, &sp, 1, stream));
    wp.flags = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuWaitExternalSemaphoresAsync(&sem, &wp, 1, stream));
    sp = signal_value(1);
    wp = wait_value(1);
    sp.reserved[3] = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSignalExternalSemaphoresAsync(&sem, &sp, 1, stream));
    EXPECT_DETAIL_HAS("reserved[3]");
    sp = signal_value(1);
    sp.params.reserved[11] = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSignalExternalSemaphoresAsync(&sem, &sp, 1, stream));
    wp.params.reserved[9] = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuWaitExternalSemaphoresAsync(&sem, &wp, 1, stream));
    wp = wait_value(1);
    CUexternalSemaphore none = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuWaitExternalSemaphoresAsync(&none, &wp, 1, stream));
    EXPECT_OK(cuStreamSynchronize(stream));
    EXPECT_EQ(0u, sem_exporter_value(e.s)) << "a refused call queued nothing";
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

TEST_F(ExternalSemaphore, GarbageStreamOrSemaphore_IsInvalidHandleNotACrash)
{
    Exported e(SEMP_TIMELINE);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = signal_value(1);
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(1);
    CUstream garbage = (CUstream)(uintptr_t)0xdeadbeef0ull;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuSignalExternalSemaphoresAsync(&sem, &sp, 1, garbage));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuWaitExternalSemaphoresAsync(&sem, &wp, 1, garbage));
    CUexternalSemaphore forged = (CUexternalSemaphore)(uintptr_t)0x12345670ull;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuSignalExternalSemaphoresAsync(&forged, &sp, 1, stream));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuDestroyExternalSemaphore(forged));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuSignalExternalSemaphoresAsync(&sem, &sp, 1, stream));
    EXPECT_DETAIL_HAS("destroyed");
    EXPECT_EQ(0u, sem_exporter_value(e.s));
}

TEST_F(ExternalSemaphore, Destroy_NullIsInvalidValue_SecondDestroyIsInvalidHandle)
{
    Exported e(SEMP_BINARY);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDestroyExternalSemaphore(nullptr));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuDestroyExternalSemaphore(sem)); /* the driver aborts here */
}

/* ---- A peer that dies ---- */

TEST_F(ExternalSemaphore, PeerDiesOwingASignal_TheWaitPassesWithTheOwedValue)
{
    Exported e(SEMP_TIMELINE);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    int fd = e.fd();
    ChildResult child = run_in_child([fd] {
        sem_exporter *peer = sem_exporter_open(fd);
        if (!peer)
            return 1;
        sem_exporter_owe(peer, 8); /* queued a signal of 8, then died before making it */
        _exit(0);
    });
    close(fd);
    ASSERT_TRUE(child.exited);
    ASSERT_EQ(0, child.exit_code);
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(8);
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, stream));
    EXPECT_OK(cuStreamSynchronize(stream));
    EXPECT_EQ(8u, sem_exporter_value(e.s)) << "the dead peer's owed signal was made for it";
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

TEST_F(ExternalSemaphore, LastPeerDies_TheSemaphoreIsAbandonedAndWaitsPass)
{
    CUexternalSemaphore sem;
    Exported *e = new Exported(SEMP_BINARY);
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d = fd_desc(CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, e->fd());
    ASSERT_OK(cuImportExternalSemaphore(&sem, &d));
    /* Another process holds it too, and exits without letting go (as a crash would). */
    int fd = e->fd();
    ChildResult child = run_in_child([fd] { return sem_exporter_open(fd) ? 0 : 1; });
    close(fd);
    EXPECT_TRUE(child.exited);
    EXPECT_EQ(0, child.exit_code);
    delete e; /* this process's exporter lets go normally: only CUDA's import is left */
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value(0);
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, stream));
    /* Never signalled, and nobody alive can: it passes because it is abandoned. */
    EXPECT_OK(cuStreamSynchronize(stream));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

/* ---- Concurrency ---- */

TEST_F(ExternalSemaphore, ManyThreadsSignalAndWaitOneTimeline_AllWaitsComplete)
{
    Exported e(SEMP_TIMELINE);
    CUexternalSemaphore sem = import(e, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD);
    constexpr int kThreads = 4, kSteps = 200;
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            if (cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
                ++failures;
                return;
            }
            CUstream s;
            if (cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) {
                ++failures;
                return;
            }
            /* Thread t signals the values k with k % kThreads == t, after waiting for k - 1. */
            for (int k = t + 1; k <= kSteps; k += kThreads) {
                CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = wait_value((uint64_t)k - 1);
                CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = signal_value((uint64_t)k);
                if (cuWaitExternalSemaphoresAsync(&sem, &wp, 1, s) != CUDA_SUCCESS ||
                    cuSignalExternalSemaphoresAsync(&sem, &sp, 1, s) != CUDA_SUCCESS)
                    ++failures;
            }
            if (cuStreamSynchronize(s) != CUDA_SUCCESS || cuStreamDestroy(s) != CUDA_SUCCESS)
                ++failures;
        });
    for (auto &t : threads)
        t.join();
    EXPECT_EQ(0, failures.load());
    EXPECT_EQ((uint64_t)kSteps, sem_exporter_value(e.s));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
}

/* ---- The runtime and cuGetProcAddress ---- */

TEST_F(ExternalSemaphore, Runtime_ImportSignalWaitDestroy)
{
    Exported e(SEMP_TIMELINE);
    cudaExternalSemaphoreHandleDesc d{};
    d.type = cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd;
    d.handle.fd = e.fd();
    cudaExternalSemaphore_t sem = nullptr;
    ASSERT_EQ(cudaSuccess, cudaImportExternalSemaphore(&sem, &d));
    cudaExternalSemaphoreSignalParams sp{};
    sp.params.fence.value = 3;
    cudaExternalSemaphoreWaitParams wp{};
    wp.params.fence.value = 3;
    ASSERT_EQ(cudaSuccess, cudaSignalExternalSemaphoresAsync(&sem, &sp, 1, (cudaStream_t)stream));
    ASSERT_EQ(cudaSuccess, cudaWaitExternalSemaphoresAsync(&sem, &wp, 1, (cudaStream_t)stream));
    ASSERT_EQ(cudaSuccess, cudaStreamSynchronize((cudaStream_t)stream));
    EXPECT_EQ(3u, sem_exporter_value(e.s));
    EXPECT_EQ(cudaErrorInvalidValue, cudaSignalExternalSemaphoresAsync(&sem, &sp, 0, (cudaStream_t)stream));
    EXPECT_EQ(cudaErrorInvalidValue, cudaGetLastError());
    EXPECT_EQ(cudaSuccess, cudaDestroyExternalSemaphore(sem));
    EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaDestroyExternalSemaphore(sem));
    cudaGetLastError();
}

TEST_F(ExternalSemaphore, Runtime_MoreParametersThanTheStackBatch_AllGoInOneCallInOrder)
{
    Exported e(SEMP_TIMELINE);
    cudaExternalSemaphoreHandleDesc d{};
    d.type = cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd;
    d.handle.fd = e.fd();
    cudaExternalSemaphore_t sem = nullptr;
    ASSERT_EQ(cudaSuccess, cudaImportExternalSemaphore(&sem, &d));
    const unsigned n = 100; // the runtime converts 32 on its stack, more in memory of their own
    std::vector<cudaExternalSemaphore_t> sems(n, sem);
    std::vector<cudaExternalSemaphoreSignalParams> sp(n);
    std::vector<cudaExternalSemaphoreWaitParams> wp(n);
    for (unsigned i = 0; i < n; ++i) {
        sp[i].params.fence.value = i + 1;
        wp[i].params.fence.value = i + 1;
    }
    ASSERT_EQ(cudaSuccess, cudaSignalExternalSemaphoresAsync(sems.data(), sp.data(), n, (cudaStream_t)stream));
    ASSERT_EQ(cudaSuccess, cudaWaitExternalSemaphoresAsync(sems.data(), wp.data(), n, (cudaStream_t)stream));
    ASSERT_EQ(cudaSuccess, cudaStreamSynchronize((cudaStream_t)stream));
    EXPECT_EQ((uint64_t)n, sem_exporter_value(e.s)) << "the last signal's value, converted from the heap";
    EXPECT_EQ(cudaSuccess, cudaDestroyExternalSemaphore(sem));
}

TEST(ExternalSemaphoreProcAddress, EveryCallAndItsPerThreadFormAreFound)
{
    ASSERT_OK(cuInit(0));
    for (const char *name : {"cuImportExternalSemaphore", "cuSignalExternalSemaphoresAsync",
                             "cuWaitExternalSemaphoresAsync", "cuDestroyExternalSemaphore"}) {
        void *legacy = nullptr, *per_thread = nullptr;
        CUdriverProcAddressQueryResult status;
        EXPECT_OK(cuGetProcAddress(name, &legacy, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &status)) << name;
        EXPECT_NE(nullptr, legacy) << name;
        EXPECT_OK(cuGetProcAddress(name, &per_thread, 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &status));
        EXPECT_NE(nullptr, per_thread) << name;
    }
    void *signal = nullptr, *signal_ptsz = nullptr;
    CUdriverProcAddressQueryResult status;
    EXPECT_OK(cuGetProcAddress("cuSignalExternalSemaphoresAsync", &signal, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &status));
    EXPECT_OK(cuGetProcAddress("cuSignalExternalSemaphoresAsync", &signal_ptsz, 12000,
                               CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &status));
    EXPECT_NE(signal, signal_ptsz);
}
