// Memory pools: stream-ordered allocation, true counters, and exportable pools shared between
// processes (src/memory/pool.c; docs/memory-pools.md; the driver's codes in
// docs/probes/surface/probe-pools.out).
#include "framework/testing.h"
#include "extmem/cuda_runtime_api.h"

#if !defined(_WIN32)
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace extmem_test;

/* The per-thread default stream's forms, which the public header declares only in that mode. */
extern "C" {
EXTMEM_API CUresult CUDAAPI cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
                                                         CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream);
}

namespace {

unsigned long long attr(CUmemoryPool pool, CUmemPool_attribute a)
{
    unsigned long long v = ~0ull;
    EXPECT_OK(cuMemPoolGetAttribute(pool, a, &v));
    return v;
}

size_t page_size()
{
#if defined(_WIN32)
    return 4096;
#else
    return (size_t)sysconf(_SC_PAGESIZE);
#endif
}

CUmemPoolProps device_props(CUmemAllocationHandleType types = CU_MEM_HANDLE_TYPE_NONE)
{
    CUmemPoolProps p;
    memset(&p, 0, sizeof(p));
    p.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.handleTypes = types;
    p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = 0;
    return p;
}

/* A pool of the test's own, so that counters start at 0 whatever ran before in the process. */
class MemPool : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        CUmemPoolProps p = device_props();
        ASSERT_OK(cuMemPoolCreate(&pool, &p));
        ASSERT_OK(cuStreamCreate(&stream, 0));
    }
    void TearDown() override
    {
        if (stream) {
            EXPECT_OK(cuStreamDestroy(stream));
        }
        if (pool) {
            EXPECT_OK(cuMemPoolDestroy(pool));
        }
        ContextTest::TearDown();
    }
    CUmemoryPool pool = nullptr;
    CUstream stream = nullptr;
};

void wait_for_flag(void *arg)
{
    auto *flag = static_cast<std::atomic<int> *>(arg);
    while (flag->load() == 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

} // namespace

// ---- The default pool and the device ----

TEST_F(MemPool, DefaultPool_HasTheDriversDefaultsAndIsTheCurrentOne)
{
    CUmemoryPool def = nullptr, cur = nullptr;
    ASSERT_OK(cuDeviceGetDefaultMemPool(&def, 0));
    ASSERT_OK(cuDeviceGetMemPool(&cur, 0));
    EXPECT_EQ(def, cur);
    // probe-pools.out: the reuse flags are on, the threshold is 0.
    for (int a = CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES; a <= CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES;
         ++a) {
        int v = -1;
        EXPECT_OK(cuMemPoolGetAttribute(def, (CUmemPool_attribute)a, &v));
        EXPECT_EQ(1, v) << "attribute " << a;
    }
    EXPECT_EQ(0u, attr(def, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD));
    EXPECT_EQ(0u, attr(def, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy(def)); // the driver's code
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetDefaultMemPool(&def, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetDefaultMemPool(nullptr, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetMemPool(nullptr, 0));
}

TEST_F(MemPool, DeviceAttributes_SayPoolsWorkAndExportAsFds)
{
    int v = -1;
    ASSERT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, 0));
    EXPECT_EQ(1, v);
    ASSERT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES, 0));
    EXPECT_EQ((int)kNativeHandleType, v);
}

TEST_F(MemPool, SetMemPool_MakesAllocAsyncTakeFromThePool_UntilItIsDestroyed)
{
    ASSERT_OK(cuDeviceSetMemPool(0, pool));
    CUmemoryPool cur = nullptr;
    ASSERT_OK(cuDeviceGetMemPool(&cur, 0));
    EXPECT_EQ(pool, cur);
    CUdeviceptr p = 0;
    ASSERT_OK(cuMemAllocAsync(&p, 5000, stream));
    EXPECT_EQ(5000u, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
    ASSERT_OK(cuMemFreeAsync(p, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
    ASSERT_OK(cuMemPoolDestroy(pool));
    pool = nullptr;
    CUmemoryPool def = nullptr;
    ASSERT_OK(cuDeviceGetDefaultMemPool(&def, 0));
    ASSERT_OK(cuDeviceGetMemPool(&cur, 0));
    EXPECT_EQ(def, cur); // the default one again
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceSetMemPool(1, def));
    EXPECT_OK(cuDeviceSetMemPool(0, def)); // as on the driver
}

TEST_F(MemPool, ByLocation_EachPlaceHasItsDefaultAndCurrentPool)
{
    CUmemLocation dev = {CU_MEM_LOCATION_TYPE_DEVICE, 0}, host = {CU_MEM_LOCATION_TYPE_HOST, 0},
                  numa = {CU_MEM_LOCATION_TYPE_HOST_NUMA, 0};
    CUmemoryPool a = nullptr, b = nullptr;
    ASSERT_OK(cuMemGetDefaultMemPool(&a, &dev, CU_MEM_ALLOCATION_TYPE_PINNED));
    ASSERT_OK(cuDeviceGetDefaultMemPool(&b, 0));
    EXPECT_EQ(a, b); // the device's, either way
    CUmemoryPool hdef = nullptr, ndef = nullptr, cur = nullptr;
    ASSERT_OK(cuMemGetDefaultMemPool(&hdef, &host, CU_MEM_ALLOCATION_TYPE_PINNED));
    ASSERT_OK(cuMemGetDefaultMemPool(&ndef, &numa, CU_MEM_ALLOCATION_TYPE_PINNED));
    EXPECT_NE(a, hdef);
    EXPECT_NE(hdef, ndef);
    ASSERT_OK(cuMemGetMemPool(&cur, &host, CU_MEM_ALLOCATION_TYPE_PINNED));
    EXPECT_EQ(hdef, cur);
    CUmemAccess_flags f = CU_MEM_ACCESS_FLAGS_PROT_NONE;
    ASSERT_OK(cuMemPoolGetAccess(&f, hdef, &host));
    EXPECT_EQ(CU_MEM_ACCESS_FLAGS_PROT_READWRITE, f); // a host pool's memory is the host's
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy(hdef));
    CUdeviceptr p = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, 4096, hdef, stream));
    EXPECT_OK(cuMemFreeAsync(p, stream));
    EXPECT_OK(cuStreamSynchronize(stream));
    // A pool of the host becomes the host's current pool; a device pool cannot.
    CUmemPoolProps props = device_props();
    props.location.type = CU_MEM_LOCATION_TYPE_HOST;
    CUmemoryPool mine = nullptr;
    ASSERT_OK(cuMemPoolCreate(&mine, &props));
    ASSERT_OK(cuMemSetMemPool(&host, CU_MEM_ALLOCATION_TYPE_PINNED, mine));
    ASSERT_OK(cuMemGetMemPool(&cur, &host, CU_MEM_ALLOCATION_TYPE_PINNED));
    EXPECT_EQ(mine, cur);
    ASSERT_OK(cuMemGetMemPool(&cur, &dev, CU_MEM_ALLOCATION_TYPE_PINNED));
    EXPECT_EQ(a, cur); // the device's is untouched
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemSetMemPool(&host, CU_MEM_ALLOCATION_TYPE_PINNED, pool));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemSetMemPool(&numa, CU_MEM_ALLOCATION_TYPE_PINNED, mine));
    ASSERT_OK(cuMemPoolDestroy(mine));
    ASSERT_OK(cuMemGetMemPool(&cur, &host, CU_MEM_ALLOCATION_TYPE_PINNED));
    EXPECT_EQ(hdef, cur); // the default again
    ASSERT_OK(cuMemSetMemPool(&dev, CU_MEM_ALLOCATION_TYPE_PINNED, pool));
    ASSERT_OK(cuDeviceGetMemPool(&cur, 0));
    EXPECT_EQ(pool, cur);
    ASSERT_OK(cuMemSetMemPool(&dev, CU_MEM_ALLOCATION_TYPE_PINNED, a));
    // Bad arguments.
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemGetDefaultMemPool(&cur, &dev, CU_MEM_ALLOCATION_TYPE_MANAGED));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetDefaultMemPool(&cur, &dev, CU_MEM_ALLOCATION_TYPE_INVALID));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetDefaultMemPool(&cur, nullptr, CU_MEM_ALLOCATION_TYPE_PINNED));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetDefaultMemPool(nullptr, &dev, CU_MEM_ALLOCATION_TYPE_PINNED));
    CUmemLocation bad = {CU_MEM_LOCATION_TYPE_DEVICE, 1};
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemGetMemPool(&cur, &bad, CU_MEM_ALLOCATION_TYPE_PINNED));
    bad = {CU_MEM_LOCATION_TYPE_HOST_NUMA, 1};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetMemPool(&cur, &bad, CU_MEM_ALLOCATION_TYPE_PINNED));
    bad = {CU_MEM_LOCATION_TYPE_NONE, 0};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemSetMemPool(&bad, CU_MEM_ALLOCATION_TYPE_PINNED, pool));
    // The runtime's forms.
    cudaMemPool_t rp = nullptr;
    struct cudaMemLocation rhost = {cudaMemLocationTypeHost, 0};
    EXPECT_EQ(cudaSuccess, cudaMemGetDefaultMemPool(&rp, &rhost, cudaMemAllocationTypePinned));
    EXPECT_EQ((cudaMemPool_t)hdef, rp);
    EXPECT_EQ(cudaSuccess, cudaMemGetMemPool(&rp, &rhost, cudaMemAllocationTypePinned));
    EXPECT_EQ(cudaSuccess, cudaMemSetMemPool(&rhost, cudaMemAllocationTypePinned, (cudaMemPool_t)hdef));
    EXPECT_EQ(cudaErrorNotSupported, cudaMemGetMemPool(&rp, &rhost, cudaMemAllocationTypeManaged));
    (void)cudaGetLastError();
}

// ---- Creating and destroying ----

TEST_F(MemPool, Create_RefusesBadPropertiesWithTheDriversCodes)
{
    CUmemoryPool p = nullptr;
    CUmemPoolProps props = device_props();
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(nullptr, &props));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&p, nullptr));
    props.handleTypes = (CUmemAllocationHandleType)0x40; // probe-pools.out: INVALID_VALUE
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&p, &props));
    props.handleTypes = CU_MEM_HANDLE_TYPE_FABRIC; // the driver makes them where fabric exists
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemPoolCreate(&p, &props));
    props.handleTypes = kForeignHandleType;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&p, &props));
    props.handleTypes = CU_MEM_HANDLE_TYPE_WIN32_KMT;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&p, &props));
    props = device_props();
    props.allocType = CU_MEM_ALLOCATION_TYPE_INVALID;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&p, &props));
    props = device_props();
    props.location.id = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&p, &props)); // pool_probe.out
    props.location.type = (CUmemLocationType)9;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&p, &props));
    props = device_props();
    props.reserved[10] = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&p, &props));
    props = device_props();
    props.usage = 0x100; // unknown usage bits are ignored, as by the driver
    ASSERT_OK(cuMemPoolCreate(&p, &props));
    EXPECT_OK(cuMemPoolDestroy(p));
    props.usage = CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemPoolCreate(&p, &props));
    props = device_props();
    props.location.type = CU_MEM_LOCATION_TYPE_HOST_NUMA;
    ASSERT_OK(cuMemPoolCreate(&p, &props));
    EXPECT_OK(cuMemPoolDestroy(p));
    props.location.id = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&p, &props));
    // A host pool, as the driver accepts (probe-pools.out): the host reaches its memory.
    props = device_props();
    props.location.type = CU_MEM_LOCATION_TYPE_HOST;
    ASSERT_OK(cuMemPoolCreate(&p, &props));
    CUmemLocation host = {CU_MEM_LOCATION_TYPE_HOST, 0};
    CUmemAccess_flags f = CU_MEM_ACCESS_FLAGS_PROT_NONE;
    EXPECT_OK(cuMemPoolGetAccess(&f, p, &host));
    EXPECT_EQ(CU_MEM_ACCESS_FLAGS_PROT_READWRITE, f);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceSetMemPool(0, p)); // not a pool of the device
    EXPECT_OK(cuMemPoolDestroy(p));
}

TEST_F(MemPool, Destroy_TwiceOrForged_IsInvalidValue_AndMemoryHandedOutStaysUsable)
{
    CUdeviceptr p = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, 4096, pool, stream));
    ASSERT_OK(cuMemPoolDestroy(pool));
    CUmemoryPool gone = pool;
    pool = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy(gone));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy((CUmemoryPool)(uintptr_t)0x12345678));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy(nullptr));
    unsigned long long v = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAttribute(gone, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v));
    CUdeviceptr q = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocFromPoolAsync(&q, 16, gone, stream));
    EXPECT_EQ(0u, q);
    ASSERT_OK(cuMemsetD8Async(p, 0x5a, 4096, stream)); // still memory
    unsigned char byte = 0;
    ASSERT_OK(cuMemcpyDtoH(&byte, p + 4095, 1));
    EXPECT_EQ(0x5a, byte);
    ASSERT_OK(cuMemFreeAsync(p, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    CUmemoryPool def;
    ASSERT_OK(cuDeviceGetDefaultMemPool(&def, 0));
    EXPECT_OK(cuMemPoolTrimTo(def, 0)); // releases what the destroyed pool left
}

// ---- Counters ----

TEST_F(MemPool, Counters_AreTrueThroughAllocFreeAndTrim)
{
    size_t page = page_size();
    CUdeviceptr p = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, 1000, pool, stream));
    ASSERT_NE(0u, p);
    EXPECT_EQ(1000u, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
    EXPECT_EQ(1000u, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH));
    EXPECT_EQ(page, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT)); // reserved per allocation
    EXPECT_EQ(page, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH));
    ASSERT_OK(cuMemFreeAsync(p, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    // probe-pools.out: with the release threshold at 0, the synchronisation gave it back.
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
    EXPECT_EQ(1000u, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH));
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
    EXPECT_EQ(page, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH));
    // Above the threshold memory is kept until a trim.
    unsigned long long keep = 1 << 20;
    ASSERT_OK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep));
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, 1000, pool, stream));
    ASSERT_OK(cuMemFreeAsync(p, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    EXPECT_EQ(page, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT)); // kept for reuse
    ASSERT_OK(cuMemPoolTrimTo(pool, 0));
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
    EXPECT_EQ(page, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH));
    // The high marks are reset with 0 only (probe-pools.out), to what is held now.
    unsigned long long v = 7;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v));
    v = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v));
    EXPECT_OK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v));
    EXPECT_OK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &v));
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH));
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH));
}

TEST_F(MemPool, Attributes_BadArguments_AreInvalidValue)
{
    unsigned long long v = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAttribute(pool, (CUmemPool_attribute)0, &v));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAttribute(pool, (CUmemPool_attribute)9, &v));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAttribute(pool, (CUmemPool_attribute)9, &v));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAttribute(nullptr, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v));
    int off = 0, back = -1;
    EXPECT_OK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &off));
    EXPECT_OK(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &back));
    EXPECT_EQ(0, back);
    v = 1ull << 40;
    EXPECT_OK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v));
    EXPECT_EQ(1ull << 40, attr(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD));
}

TEST_F(MemPool, FreedMemory_IsReusedByTheNextAllocationOfItsSize)
{
    unsigned long long keep = 1 << 20;
    ASSERT_OK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep));
    CUdeviceptr p = 0, q = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, 100000, pool, stream));
    ASSERT_OK(cuMemFreeAsync(p, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    unsigned long long reserved = attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT);
    ASSERT_OK(cuMemAllocFromPoolAsync(&q, 99000, pool, stream));
    EXPECT_EQ(p, q);
    EXPECT_EQ(reserved, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
    EXPECT_EQ(99000u, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
    size_t size = 0;
    CUdeviceptr base = 0;
    ASSERT_OK(cuMemGetAddressRange(&base, &size, q + 10));
    EXPECT_EQ(q, base);
    EXPECT_EQ(99000u, size); // the size asked for this time
    EXPECT_OK(cuMemFreeAsync(q, stream));
    EXPECT_OK(cuStreamSynchronize(stream));
}

TEST_F(MemPool, ReleaseThreshold_DecidesWhatFreedMemoryIsKept)
{
    const size_t mib = 1 << 20;
    CUdeviceptr p = 0, q = 0;
    // Threshold 0: freed memory goes back to the system at the synchronisation.
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, mib, pool, stream));
    ASSERT_OK(cuMemFreeAsync(p, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
    // Not while other work is queued anywhere: it might still touch the memory.
    std::atomic<int> go{0};
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, mib, pool, stream));
    ASSERT_OK(cuMemFreeAsync(p, stream));
    CUstream s2;
    ASSERT_OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    ASSERT_OK(cuLaunchHostFunc(s2, wait_for_flag, &go));
    ASSERT_OK(cuStreamSynchronize(stream));                          // s2 keeps the device busy,
    EXPECT_EQ(mib, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT)); // so nothing went back
    go = 1;
    ASSERT_OK(cuStreamSynchronize(s2));
    EXPECT_OK(cuStreamDestroy(s2));
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT)); // this synchronisation found it idle
    // With no synchronisation at all: an allocation that cannot reuse it gives it back.
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, mib, pool, stream));
    ASSERT_OK(cuMemFreeAsync(p, stream));
    while (cuStreamQuery(stream) == CUDA_ERROR_NOT_READY)
        std::this_thread::yield();
    EXPECT_EQ(mib, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
    ASSERT_OK(cuMemAllocFromPoolAsync(&q, 3 * mib, pool, stream));
    EXPECT_EQ(3 * mib, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
    ASSERT_OK(cuMemFreeAsync(q, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
    // A threshold above what is held: it is kept.
    unsigned long long keep = 64 * mib;
    ASSERT_OK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep));
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, mib, pool, stream));
    ASSERT_OK(cuMemFreeAsync(p, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    ASSERT_OK(cuMemAllocFromPoolAsync(&q, 3 * mib, pool, stream));
    EXPECT_EQ(4 * mib, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
    ASSERT_OK(cuMemFreeAsync(q, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    // TrimTo keeps at most what it is told.
    ASSERT_OK(cuMemPoolTrimTo(pool, 3 * mib));
    EXPECT_LE(attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 3 * mib);
    ASSERT_OK(cuMemPoolTrimTo(pool, 0));
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
}

TEST_F(MemPool, MaxSize_IsNoCap_AsOnTheDriver)
{
    CUmemoryPool small = nullptr;
    CUmemPoolProps props = device_props();
    props.maxSize = 2 << 20;
    ASSERT_OK(cuMemPoolCreate(&small, &props));
    CUdeviceptr p = 0, q = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, 1 << 20, small, stream));
    EXPECT_OK(cuMemAllocFromPoolAsync(&q, 3 << 20, small, stream)); // pool_probe.out: SUCCESS
    EXPECT_OK(cuMemFreeAsync(q, stream));
    EXPECT_OK(cuMemFreeAsync(p, stream));
    EXPECT_OK(cuStreamSynchronize(stream));
    EXPECT_OK(cuMemPoolDestroy(small));
}

// ---- Stream order ----

TEST_F(MemPool, FreeAfterAHostFunction_ReturnsTheMemoryOnlyOnceItRan)
{
    unsigned long long keep = 1 << 20; // keep freed memory, to see it handed out again
    ASSERT_OK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep));
    CUdeviceptr p = 0, other = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, 8192, pool, stream));
    std::atomic<int> go{0};
    ASSERT_OK(cuLaunchHostFunc(stream, wait_for_flag, &go));
    ASSERT_OK(cuMemFreeAsync(p, stream));
    // The host function has not run: the memory is still the program's, and still findable.
    EXPECT_EQ(CUDA_ERROR_NOT_READY, cuStreamQuery(stream));
    EXPECT_EQ(8192u, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
    CUdeviceptr base = 0;
    EXPECT_OK(cuMemGetAddressRange(&base, nullptr, p));
    CUstream s2;
    ASSERT_OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    ASSERT_OK(cuMemAllocFromPoolAsync(&other, 8192, pool, s2)); // must not get p's memory
    EXPECT_NE(p, other);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(p, s2)); // the first free owns it
    go = 1;
    ASSERT_OK(cuStreamSynchronize(stream));
    EXPECT_EQ(8192u, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT)); // `other` only
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, nullptr, p));
    CUdeviceptr again = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&again, 8192, pool, s2));
    EXPECT_EQ(p, again); // now it is the pool's to hand out
    EXPECT_OK(cuMemFreeAsync(again, s2));
    EXPECT_OK(cuMemFreeAsync(other, s2));
    EXPECT_OK(cuStreamSynchronize(s2));
    EXPECT_OK(cuStreamDestroy(s2));
}

namespace {
struct SlowWrite {
    std::atomic<int> *go;
    unsigned int *dst;
    unsigned int value;
};

void slow_write_kernel(const extmem_block *, void *args)
{
    SlowWrite *a = static_cast<SlowWrite *>(args);
    while (a->go->load() == 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    for (int i = 0; i < 1024; ++i)
        a->dst[i] = a->value;
}
} // namespace

TEST_F(MemPool, FreeAfterAKernel_LetsTheKernelFinishInTheMemory)
{
    CUdeviceptr p = 0, out = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, 4096, pool, stream));
    ASSERT_OK(cuMemAlloc(&out, 4096));
    std::atomic<int> go{0};
    SlowWrite args = {&go, (unsigned int *)(uintptr_t)p, 77};
    ASSERT_OK(extmem_launch_kernel(slow_write_kernel, {1, 1, 1}, {1, 1, 1}, &args, sizeof(args), stream));
    ASSERT_OK(cuMemcpyDtoDAsync(out, p, 4096, stream)); // reads what the kernel wrote
    ASSERT_OK(cuMemFreeAsync(p, stream));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(4096u, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
    go = 1;
    ASSERT_OK(cuStreamSynchronize(stream)); // no ILLEGAL_ADDRESS: the memory was there throughout
    unsigned int host[1024];
    ASSERT_OK(cuMemcpyDtoH(host, out, sizeof(host)));
    EXPECT_EQ(77u, host[0]);
    EXPECT_EQ(77u, host[1023]);
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
    EXPECT_OK(cuMemFree(out));
}

TEST_F(MemPool, FreeOnTheDefaultStreams_IsInOrderToo)
{
    unsigned long long keep = 1 << 20;
    ASSERT_OK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep));
    CUdeviceptr p = 0, q = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, 4096, pool, nullptr));
    ASSERT_OK(cuMemFreeAsync(p, nullptr));
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT)); // the legacy stream runs it in the call
    ASSERT_OK(cuMemAllocFromPoolAsync_ptsz(&q, 4096, pool, nullptr));
    EXPECT_EQ(p, q);
    ASSERT_OK(cuMemFreeAsync_ptsz(q, nullptr));
    ASSERT_OK(cuStreamSynchronize(CU_STREAM_PER_THREAD));
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
    ASSERT_OK(cuMemAllocAsync_ptsz(&q, 4096, nullptr));
    EXPECT_OK(cuMemFreeAsync(q, CU_STREAM_LEGACY));
}

// ---- Bad arguments ----

TEST_F(MemPool, AllocAsync_BadArguments)
{
    CUdeviceptr p = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocAsync(nullptr, 16, stream));
    EXPECT_OK(cuMemAllocAsync(&p, 0, stream)); // as on the driver (pool_probe.out)
    EXPECT_EQ(0u, p);
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMemAllocAsync(&p, 16, (CUstream)(uintptr_t)0x7777));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocFromPoolAsync(&p, 16, nullptr, stream));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocFromPoolAsync(&p, 16, (CUmemoryPool)stream, stream)); // a stream
    EXPECT_CU(CUDA_ERROR_OUT_OF_MEMORY, cuMemAllocFromPoolAsync(&p, (size_t)1 << 60, pool, stream));
    EXPECT_EQ(0u, p);
    CUcontext cur;
    ASSERT_OK(cuCtxPopCurrent(&cur));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemAllocAsync(&p, 16, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemFreeAsync(0x1000, nullptr));
    ASSERT_OK(cuCtxPushCurrent(cur));
}

TEST_F(MemPool, FreeAsync_OfWhatIsNotALiveAllocationStart_IsInvalidValue)
{
    CUdeviceptr p = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, 4096, pool, stream));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(p + 1, stream));
    int on_stack = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync((CUdeviceptr)(uintptr_t)&on_stack, stream));
    EXPECT_OK(cuMemFreeAsync(0, stream)); // as cuMemFree(0)
    std::atomic<int> go{0};
    ASSERT_OK(cuLaunchHostFunc(stream, wait_for_flag, &go)); // the free waits behind it
    EXPECT_OK(cuMemFreeAsync(p, stream));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(p, stream)); // twice
    EXPECT_DETAIL_HAS("already being freed");
    go = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(p)); // waits for the free, which took it
    ASSERT_OK(cuStreamSynchronize(stream));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(p, stream)); // freed
    // Memory of cuMemAlloc is freed too, after the stream's work.
    CUdeviceptr plain = 0;
    ASSERT_OK(cuMemAlloc(&plain, 4096));
    EXPECT_OK(cuMemFreeAsync(plain, stream));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(plain));
}

TEST_F(MemPool, PoolMemory_NamesItsPool_AndIsNotLegacyIpcMemory)
{
    CUdeviceptr p = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, 4096, pool, stream));
    void *handle = nullptr;
    ASSERT_OK(cuPointerGetAttribute(&handle, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, p + 100));
    EXPECT_EQ((void *)pool, handle);
    int legacy = -1;
    ASSERT_OK(cuPointerGetAttribute(&legacy, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, p));
    EXPECT_EQ(0, legacy); // as on the driver (docs/driver-observations.md, IPC)
    CUipcMemHandle h;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcGetMemHandle(&h, p));
    unsigned int type = 0;
    ASSERT_OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p));
    EXPECT_EQ((unsigned int)CU_MEMORYTYPE_DEVICE, type);
    CUdeviceptr plain = 0;
    ASSERT_OK(cuMemAlloc(&plain, 4096));
    ASSERT_OK(cuPointerGetAttribute(&handle, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, plain));
    EXPECT_EQ(nullptr, handle);
    EXPECT_OK(cuMemFree(plain));
    EXPECT_OK(cuMemFreeAsync(p, stream));
    EXPECT_OK(cuStreamSynchronize(stream));
}

TEST_F(MemPool, CuMemFree_OfPoolMemory_GivesItBack)
{
    CUdeviceptr p = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, 4096, pool, stream));
    ASSERT_OK(cuMemFree(p));
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
}

TEST_F(MemPool, Access_IsTheDevicesAlways_AndChangesAreRefused)
{
    CUmemLocation dev = {CU_MEM_LOCATION_TYPE_DEVICE, 0}, host = {CU_MEM_LOCATION_TYPE_HOST, 0};
    CUmemAccess_flags f = (CUmemAccess_flags)99;
    ASSERT_OK(cuMemPoolGetAccess(&f, pool, &dev));
    EXPECT_EQ(CU_MEM_ACCESS_FLAGS_PROT_READWRITE, f); // probe-pools.out: 3
    ASSERT_OK(cuMemPoolGetAccess(&f, pool, &host));
    EXPECT_EQ(CU_MEM_ACCESS_FLAGS_PROT_NONE, f); // probe-pools.out: host 0
    CUmemAccessDesc rw = {dev, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    EXPECT_OK(cuMemPoolSetAccess(pool, &rw, 1));
    // The driver's codes (pool_probe.out).
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAccess(pool, nullptr, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAccess(pool, nullptr, 1));
    CUmemAccessDesc none = {dev, CU_MEM_ACCESS_FLAGS_PROT_NONE};
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemPoolSetAccess(pool, &none, 1));
    CUmemAccessDesc ro = {dev, CU_MEM_ACCESS_FLAGS_PROT_READ};
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemPoolSetAccess(pool, &ro, 1));
    CUmemAccessDesc hostrw = {host, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemPoolSetAccess(pool, &hostrw, 1));
    ASSERT_OK(cuMemPoolGetAccess(&f, pool, &dev));
    EXPECT_EQ(CU_MEM_ACCESS_FLAGS_PROT_READWRITE, f); // nothing changed
    CUmemAccessDesc other = {{CU_MEM_LOCATION_TYPE_DEVICE, 1}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemPoolSetAccess(pool, &other, 1));
    CUmemAccessDesc bad = {dev, (CUmemAccess_flags)2};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAccess(pool, &bad, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAccess(nullptr, pool, &dev));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAccess(&f, pool, nullptr));
    dev.id = 3;
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemPoolGetAccess(&f, pool, &dev));
}

// ---- Export: within one process ----

#if !defined(_WIN32)
namespace {
/* A new descriptor of process pid's fd, as a program receives one (SCM_RIGHTS, pidfd_getfd). */
int fd_of(int pid, int fd)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
    return open(path, O_RDWR | O_CLOEXEC);
}

class PoolExport : public MemPool {
protected:
    void SetUp() override
    {
        MemPool::SetUp();
        CUmemPoolProps p = device_props(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
        ASSERT_OK(cuMemPoolCreate(&xpool, &p));
    }
    void TearDown() override
    {
        if (xpool) {
            EXPECT_OK(cuMemPoolDestroy(xpool));
        }
        MemPool::TearDown();
    }
    CUmemoryPool xpool = nullptr;
};
} // namespace

TEST_F(PoolExport, OnlyAnExportablePool_ExportsWithTheDriversCodes)
{
    int fd = -1;
    CUmemoryPool def;
    ASSERT_OK(cuDeviceGetDefaultMemPool(&def, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuMemPoolExportToShareableHandle(&fd, def, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    EXPECT_DETAIL_HAS("default pool");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuMemPoolExportToShareableHandle(&fd, pool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuMemPoolExportToShareableHandle(&fd, xpool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolExportToShareableHandle(&fd, xpool, CU_MEM_HANDLE_TYPE_FABRIC, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolExportToShareableHandle(&fd, xpool, CU_MEM_HANDLE_TYPE_WIN32, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuMemPoolExportToShareableHandle(nullptr, xpool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    EXPECT_EQ(-1, fd);
    ASSERT_OK(cuMemPoolExportToShareableHandle(&fd, xpool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    EXPECT_TRUE(fd_is_open(fd)); // a new fd, the caller's
    EXPECT_EQ(0, close(fd));
}

TEST_F(PoolExport, ExportPointer_OfMemoryNotFromAnExportablePool_IsInvalidValue)
{
    CUmemPoolPtrExportData ed;
    CUdeviceptr fromdef = 0, plain = 0, mine = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&fromdef, 4096, pool, stream));
    ASSERT_OK(cuMemAlloc(&plain, 4096));
    ASSERT_OK(cuMemAllocFromPoolAsync(&mine, 4096, xpool, stream));
    // Not before the pool itself was exported (pool_ipc_probe.out).
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolExportPointer(&ed, mine));
    EXPECT_DETAIL_HAS("not been exported");
    int fd = -1;
    ASSERT_OK(cuMemPoolExportToShareableHandle(&fd, xpool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    close(fd);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolExportPointer(&ed, fromdef)); // probe-pools.out
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolExportPointer(&ed, plain));   // probe-pools.out
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolExportPointer(&ed, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolExportPointer(nullptr, mine));
    ASSERT_OK(cuMemPoolExportPointer(&ed, mine));
    CUdeviceptr imp = 0;
    // Into the exporting pool itself: it is not an imported pool (probe-pools.out).
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportPointer(&imp, xpool, &ed));
    EXPECT_OK(cuMemFreeAsync(fromdef, stream));
    EXPECT_OK(cuMemFreeAsync(mine, stream));
    EXPECT_OK(cuStreamSynchronize(stream));
    EXPECT_OK(cuMemFree(plain));
}

TEST_F(PoolExport, Import_LeavesTheCallersFdOpen_AndLeaksNothing)
{
    int fds = open_fd_count();
    int fd = -1;
    ASSERT_OK(cuMemPoolExportToShareableHandle(&fd, xpool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    CUmemoryPool ip = nullptr;
    ASSERT_OK(cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    EXPECT_TRUE(fd_is_open(fd)); // probe-pools.out: the exporter's fd stays open after import
    EXPECT_OK(cuMemPoolDestroy(ip));
    EXPECT_TRUE(fd_is_open(fd));
    EXPECT_EQ(0, close(fd));
    EXPECT_EQ(fds, open_fd_count());
}

TEST_F(PoolExport, Import_OfWhatIsNotAnExportedPool_IsInvalidValue)
{
    CUmemoryPool ip = nullptr;
    const CUmemAllocationHandleType fdt = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    // A closed fd (the driver: UNKNOWN; extmem names it, BEHAVIOR.md rule 3).
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)9999, fdt, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)-1, fdt, 0));
    // A file that is not extmem's.
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)devnull, fdt, 0));
    EXPECT_TRUE(fd_is_open(devnull));
    close(devnull);
    // A memfd of someone else, of the right size.
    int foreign = memfd_create("extmem-pool-0000", MFD_CLOEXEC);
    ASSERT_GE(foreign, 0);
    ASSERT_EQ(0, ftruncate(foreign, 64 * 1024));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)foreign, fdt, 0));
    close(foreign);
    // extmem memory that is not a pool: a VMM allocation's fd.
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.requestedHandleTypes = fdt;
    size_t gran = 0;
    ASSERT_OK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CUmemGenericAllocationHandle h;
    ASSERT_OK(cuMemCreate(&h, gran, &prop, 0));
    int vfd = -1;
    ASSERT_OK(cuMemExportToShareableHandle(&vfd, h, fdt, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)vfd, fdt, 0));
    EXPECT_DETAIL_HAS("not an exported pool");
    close(vfd);
    EXPECT_OK(cuMemRelease(h));
    // Wrong types and flags, with a real pool fd.
    int fd = -1;
    ASSERT_OK(cuMemPoolExportToShareableHandle(&fd, xpool, fdt, 0));
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, // the driver's code (pool_probe.out)
              cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_WIN32, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_NONE, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)fd, fdt, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportFromShareableHandle(nullptr, (void *)(intptr_t)fd, fdt, 0));
    EXPECT_TRUE(fd_is_open(fd));
    close(fd);
}

TEST_F(PoolExport, ImportedPointers_ShareTheMemory_AndForgedOrStaleDataIsRefused)
{
    int fd = -1;
    ASSERT_OK(cuMemPoolExportToShareableHandle(&fd, xpool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    CUmemoryPool ip = nullptr;
    ASSERT_OK(cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    close(fd);
    unsigned long long keep = 1 << 20; // keep freed memory, to see it handed out again
    ASSERT_OK(cuMemPoolSetAttribute(xpool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep));
    CUdeviceptr a = 0, b = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&a, 10000, xpool, stream));
    ASSERT_OK(cuMemAllocFromPoolAsync(&b, 10000, xpool, stream));
    ASSERT_OK(cuMemsetD32Async(a, 0xabcd, 10000 / 4, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    CUmemPoolPtrExportData ed, edb;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolExportPointer(&ed, a + 16)); // an allocation's start only
    ASSERT_OK(cuMemPoolExportPointer(&ed, a));
    ASSERT_OK(cuMemPoolExportPointer(&edb, b));
    CUdeviceptr imp = 0;
    ASSERT_OK(cuMemPoolImportPointer(&imp, ip, &ed));
    EXPECT_NE(a, imp); // a mapping of its own
    CUdeviceptr twice = 0;
    ASSERT_OK(cuMemPoolImportPointer(&twice, ip, &ed));
    EXPECT_EQ(imp, twice); // the same allocation again: the same pointer (pool_ipc_probe.out)
    unsigned int word = 0;
    ASSERT_OK(cuMemcpyDtoH(&word, imp, 4));
    EXPECT_EQ(0xabcdu, word);
    word = 99;
    ASSERT_OK(cuMemcpyHtoD(imp + 4, &word, 4));
    EXPECT_EQ(99u, ((unsigned int *)(uintptr_t)a)[1]);
    // Every bit of the export data matters.
    for (size_t bit = 0; bit < 8 * sizeof(ed); ++bit) {
        CUmemPoolPtrExportData forged = ed;
        forged.reserved[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        CUdeviceptr x = 0;
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportPointer(&x, ip, &forged)) << "bit " << bit;
    }
    CUmemPoolPtrExportData zero;
    memset(&zero, 0, sizeof(zero));
    CUdeviceptr x = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportPointer(&x, ip, &zero));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportPointer(nullptr, ip, &ed));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportPointer(&x, ip, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportPointer(&x, pool, &ed)); // not imported
    // Stale: b freed (and its memory cached by the pool, then handed out again).
    ASSERT_OK(cuMemFreeAsync(b, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportPointer(&x, ip, &edb));
    EXPECT_DETAIL_HAS("freed");
    CUdeviceptr reuse = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&reuse, 10000, xpool, stream));
    EXPECT_EQ(b, reuse);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportPointer(&x, ip, &edb)); // never the new owner's
    // The imported pointer is freed with cuMemFreeAsync; the exporter's memory lives on.
    EXPECT_OK(cuMemFreeAsync(imp, stream));
    EXPECT_OK(cuStreamSynchronize(stream));
    EXPECT_EQ(99u, ((unsigned int *)(uintptr_t)a)[1]);
    EXPECT_OK(cuMemFreeAsync(a, stream));
    EXPECT_OK(cuMemFreeAsync(reuse, stream));
    EXPECT_OK(cuStreamSynchronize(stream));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocFromPoolAsync(&x, 16, ip, stream)); // imported pools give nothing
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceSetMemPool(0, ip));
    int again = -1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuMemPoolExportToShareableHandle(&again, ip, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    EXPECT_OK(cuMemPoolDestroy(ip));
}

TEST_F(PoolExport, ExportData_FromAnotherPool_IsInvalidValue)
{
    CUmemoryPool other = nullptr, ip = nullptr;
    CUmemPoolProps p = device_props(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    ASSERT_OK(cuMemPoolCreate(&other, &p));
    int fd = -1;
    ASSERT_OK(cuMemPoolExportToShareableHandle(&fd, xpool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    ASSERT_OK(cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    close(fd);
    CUdeviceptr a = 0, x = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&a, 4096, other, stream));
    int ofd = -1;
    ASSERT_OK(cuMemPoolExportToShareableHandle(&ofd, other, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    close(ofd);
    CUmemPoolPtrExportData ed;
    ASSERT_OK(cuMemPoolExportPointer(&ed, a));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportPointer(&x, ip, &ed));
    EXPECT_DETAIL_HAS("another pool");
    EXPECT_OK(cuMemFreeAsync(a, stream));
    EXPECT_OK(cuStreamSynchronize(stream));
    EXPECT_OK(cuMemPoolDestroy(ip));
    EXPECT_OK(cuMemPoolDestroy(other));
}

// ---- Export: between processes ----

namespace {
std::string code_name(CUresult r)
{
    const char *n = "?";
    cuGetErrorName(r, &n);
    return n;
}

CUcontext start_role()
{
    CUcontext ctx = nullptr;
    if (cuInit(0) || cuCtxCreate(&ctx, nullptr, 0, 0))
        return nullptr;
    return ctx;
}
} // namespace

/* args: exporter pid, its pool fd, export data (hex), a word to write at +4. Imports the pool
 * and the pointer, reports the first word, writes, waits for a line, reads again, frees. */
EXTMEM_CHILD_ROLE(pool_importer)
{
    if (!start_role())
        return 10;
    int fds = open_fd_count();
    int fd = fd_of(std::stoi(args[0]), std::stoi(args[1]));
    if (fd < 0)
        return 11;
    CUmemoryPool ip = nullptr;
    CUresult r = cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
    printf("pool %s fd %s\n", code_name(r).c_str(), fd_is_open(fd) ? "open" : "closed");
    close(fd);
    if (r)
        return 0;
    CUmemPoolPtrExportData ed;
    from_hex(args[2], &ed, sizeof(ed));
    CUdeviceptr p = 0;
    r = cuMemPoolImportPointer(&p, ip, &ed);
    printf("pointer %s\n", code_name(r).c_str());
    fflush(stdout);
    if (!r) {
        unsigned int word = 0;
        cuMemcpyDtoH(&word, p, 4);
        printf("read %u\n", word);
        unsigned int mine = (unsigned int)std::stoul(args[3]);
        cuMemcpyHtoD(p + 4, &mine, 4);
        printf("wrote\n");
        fflush(stdout);
        char line[64];
        if (!fgets(line, sizeof(line), stdin))
            return 12;
        cuMemcpyDtoH(&word, p, 4);
        printf("read-again %u\n", word);
        CUstream s;
        cuStreamCreate(&s, 0);
        printf("free %s\n", code_name(cuMemFreeAsync(p, s)).c_str());
        cuStreamSynchronize(s);
        cuStreamDestroy(s);
    }
    std::string destroyed = code_name(cuMemPoolDestroy(ip));
    printf("destroy %s fds %d\n", destroyed.c_str(), open_fd_count() - fds);
    return 0;
}

/* Creates an exportable pool and two allocations holding argv[0] and argv[0]+1, prints its
 * pid, the pool's fd and both export data, then waits for a line (and is killed meanwhile). */
EXTMEM_CHILD_ROLE(pool_exporter)
{
    if (!start_role())
        return 10;
    CUmemPoolProps props = device_props(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    CUmemoryPool xp;
    if (cuMemPoolCreate(&xp, &props))
        return 11;
    CUdeviceptr a, b;
    if (cuMemAllocFromPoolAsync(&a, 1 << 16, xp, nullptr) || cuMemAllocFromPoolAsync(&b, 1 << 16, xp, nullptr))
        return 12;
    unsigned int v = (unsigned int)std::stoul(args[0]);
    cuMemsetD32(a, v, (1 << 16) / 4);
    cuMemsetD32(b, v + 1, (1 << 16) / 4);
    int fd = -1;
    CUmemPoolPtrExportData ea, eb;
    if (cuMemPoolExportToShareableHandle(&fd, xp, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0) ||
        cuMemPoolExportPointer(&ea, a) || cuMemPoolExportPointer(&eb, b))
        return 13;
    printf("%d %d %s %s\n", (int)getpid(), fd, to_hex(&ea, sizeof(ea)).c_str(), to_hex(&eb, sizeof(eb)).c_str());
    fflush(stdout);
    char line[64];
    if (!fgets(line, sizeof(line), stdin))
        return 0;
    return 0;
}

TEST_F(PoolExport, AnotherProcess_ImportsThePoolAndAPointer_AndSeesTheSameBytes)
{
    int fd = -1;
    ASSERT_OK(cuMemPoolExportToShareableHandle(&fd, xpool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    CUdeviceptr a = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&a, 1 << 20, xpool, stream));
    ASSERT_OK(cuMemsetD32Async(a, 42, (1 << 20) / 4, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    CUmemPoolPtrExportData ed;
    ASSERT_OK(cuMemPoolExportPointer(&ed, a));
    int fds = open_fd_count();
    {
        Child c("pool_importer", {std::to_string(getpid()), std::to_string(fd), to_hex(&ed, sizeof(ed)), "7"});
        EXPECT_EQ("pool CUDA_SUCCESS fd open", c.read_line()); // the importer's fd stays its own
        EXPECT_EQ("pointer CUDA_SUCCESS", c.read_line());
        EXPECT_EQ("read 42", c.read_line());
        EXPECT_EQ("wrote", c.read_line());
        EXPECT_EQ(7u, ((unsigned int *)(uintptr_t)a)[1]); // the child's write, in our memory
        ((unsigned int *)(uintptr_t)a)[0] = 43;
        c.write_line("go");
        EXPECT_EQ("read-again 43", c.read_line());
        EXPECT_EQ("free CUDA_SUCCESS", c.read_line());
        EXPECT_EQ("destroy CUDA_SUCCESS fds 0", c.read_line()); // the child leaked nothing
        EXPECT_EQ(0, c.wait());
    }
    EXPECT_EQ(fds, open_fd_count());
    // Freed here, the export data names nothing any more, in any process.
    ASSERT_OK(cuMemFreeAsync(a, stream));
    ASSERT_OK(cuStreamSynchronize(stream));
    {
        Child c("pool_importer", {std::to_string(getpid()), std::to_string(fd), to_hex(&ed, sizeof(ed)), "8"});
        EXPECT_EQ("pool CUDA_SUCCESS fd open", c.read_line());
        EXPECT_EQ("pointer CUDA_ERROR_INVALID_VALUE", c.read_line());
        EXPECT_EQ("destroy CUDA_SUCCESS fds 0", c.read_line());
        EXPECT_EQ(0, c.wait());
    }
    close(fd);
}

TEST_F(PoolExport, AnExporterThatDied_LeavesImportedMemoryAndRefusesNewImports)
{
    Child c("pool_exporter", {"500"});
    std::string line = c.read_line();
    int pid = 0, cfd = -1;
    char ea_hex[160] = "", eb_hex[160] = "";
    ASSERT_EQ(4, sscanf(line.c_str(), "%d %d %159s %159s", &pid, &cfd, ea_hex, eb_hex)) << line;
    int fd = fd_of(pid, cfd);
    ASSERT_GE(fd, 0);
    CUmemoryPool ip = nullptr;
    ASSERT_OK(cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    close(fd);
    CUmemPoolPtrExportData ea, eb;
    ASSERT_TRUE(from_hex(ea_hex, &ea, sizeof(ea)));
    ASSERT_TRUE(from_hex(eb_hex, &eb, sizeof(eb)));
    CUdeviceptr a = 0, b = 0;
    ASSERT_OK(cuMemPoolImportPointer(&a, ip, &ea));
    c.kill_now();
    EXPECT_EQ(128 + 9, c.wait());
    auto start = std::chrono::steady_clock::now();
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportPointer(&b, ip, &eb));
    EXPECT_DETAIL_HAS("exited");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2)); // no hang
    unsigned int word = 0;
    ASSERT_OK(cuMemcpyDtoH(&word, a, 4)); // what was imported stays mapped
    EXPECT_EQ(500u, word);
    EXPECT_OK(cuMemFree(a));
    EXPECT_OK(cuMemPoolDestroy(ip));
}
#endif // !_WIN32

// ---- The runtime over the driver ----

TEST_F(MemPool, Runtime_PoolCallsWorkOverTheDriversPools)
{
    cudaMemPool_t rp = nullptr;
    struct cudaMemPoolProps props;
    memset(&props, 0, sizeof(props));
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    ASSERT_EQ(cudaSuccess, cudaMemPoolCreate(&rp, &props));
    void *p = nullptr;
    ASSERT_EQ(cudaSuccess, cudaMallocFromPoolAsync(&p, 3000, rp, (cudaStream_t)stream));
    unsigned long long used = 0;
    ASSERT_EQ(cudaSuccess, cudaMemPoolGetAttribute(rp, cudaMemPoolAttrUsedMemCurrent, &used));
    EXPECT_EQ(3000u, used);
    ASSERT_EQ(cudaSuccess, cudaFreeAsync(p, (cudaStream_t)stream));
    ASSERT_EQ(cudaSuccess, cudaStreamSynchronize((cudaStream_t)stream));
    ASSERT_EQ(cudaSuccess, cudaMemPoolGetAttribute(rp, cudaMemPoolAttrUsedMemCurrent, &used));
    EXPECT_EQ(0u, used);
    EXPECT_EQ(cudaSuccess, cudaMemPoolTrimTo(rp, 0));
    enum cudaMemAccessFlags f = cudaMemAccessFlagsProtNone;
    struct cudaMemLocation dev = {cudaMemLocationTypeDevice, 0};
    EXPECT_EQ(cudaSuccess, cudaMemPoolGetAccess(&f, rp, &dev));
    EXPECT_EQ(cudaMemAccessFlagsProtReadWrite, f);
    struct cudaMemAccessDesc d = {dev, cudaMemAccessFlagsProtReadWrite};
    EXPECT_EQ(cudaSuccess, cudaMemPoolSetAccess(rp, &d, 1));
    int fd = -1;
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemPoolExportToShareableHandle(&fd, rp, cudaMemHandleTypePosixFileDescriptor, 0));
    EXPECT_EQ(cudaSuccess, cudaDeviceSetMemPool(0, rp));
    cudaMemPool_t cur = nullptr;
    EXPECT_EQ(cudaSuccess, cudaDeviceGetMemPool(&cur, 0));
    EXPECT_EQ(rp, cur);
    ASSERT_EQ(cudaSuccess, cudaMallocAsync(&p, 100, (cudaStream_t)stream));
    ASSERT_EQ(cudaSuccess, cudaMemPoolGetAttribute(rp, cudaMemPoolAttrUsedMemCurrent, &used));
    EXPECT_EQ(100u, used);
    EXPECT_EQ(cudaSuccess, cudaFreeAsync(p, (cudaStream_t)stream));
    EXPECT_EQ(cudaSuccess, cudaStreamSynchronize((cudaStream_t)stream));
    EXPECT_EQ(cudaSuccess, cudaMemPoolDestroy(rp));
    cudaMemPool_t def = nullptr;
    EXPECT_EQ(cudaSuccess, cudaDeviceGetDefaultMemPool(&def, 0));
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemPoolDestroy(def));
    EXPECT_EQ(cudaErrorInvalidDevice, cudaDeviceGetMemPool(&cur, 1));
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemPoolCreate(&rp, nullptr));
    (void)cudaGetLastError();
}

#if !defined(_WIN32)
TEST_F(PoolExport, Runtime_ExportsAndImportsPointersInOneProcess)
{
    int fd = -1;
    ASSERT_EQ(cudaSuccess, cudaMemPoolExportToShareableHandle(&fd, (cudaMemPool_t)xpool,
                                                              cudaMemHandleTypePosixFileDescriptor, 0));
    cudaMemPool_t ip = nullptr;
    ASSERT_EQ(cudaSuccess, cudaMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)fd,
                                                                cudaMemHandleTypePosixFileDescriptor, 0));
    EXPECT_TRUE(fd_is_open(fd));
    close(fd);
    void *a = nullptr, *imp = nullptr;
    ASSERT_EQ(cudaSuccess, cudaMallocFromPoolAsync(&a, 4096, (cudaMemPool_t)xpool, (cudaStream_t)stream));
    ((unsigned int *)a)[0] = 1234;
    struct cudaMemPoolPtrExportData ed;
    ASSERT_EQ(cudaSuccess, cudaMemPoolExportPointer(&ed, a));
    ASSERT_EQ(cudaSuccess, cudaMemPoolImportPointer(&imp, ip, &ed));
    EXPECT_EQ(1234u, ((unsigned int *)imp)[0]);
    EXPECT_EQ(cudaSuccess, cudaFreeAsync(imp, (cudaStream_t)stream));
    EXPECT_EQ(cudaSuccess, cudaFreeAsync(a, (cudaStream_t)stream));
    EXPECT_EQ(cudaSuccess, cudaStreamSynchronize((cudaStream_t)stream));
    EXPECT_EQ(cudaSuccess, cudaMemPoolDestroy(ip));
}
#endif

// ---- Concurrency ----

TEST_F(MemPool, ASynchronisation_NeverWaitsForAnotherThreadsSubmission_ToGiveMemoryBack)
{
    // Memory above the threshold (0) waits in the pool for a synchronisation.
    CUdeviceptr p = 0;
    ASSERT_OK(cuMemAllocFromPoolAsync(&p, 1 << 20, pool, stream));
    ASSERT_OK(cuMemFreeAsync(p, stream));
    while (cuStreamQuery(stream) == CUDA_ERROR_NOT_READY)
        std::this_thread::yield();
    ASSERT_EQ(1u << 20, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
    // Another thread's synchronous copy waits, inside its submission, for a host function that
    // only this thread's later step lets finish.
    CUstream blocked;
    ASSERT_OK(cuStreamCreate(&blocked, 0));
    std::atomic<int> go{0}, copied{0};
    ASSERT_OK(cuLaunchHostFunc(blocked, wait_for_flag, &go));
    CUdeviceptr word = 0;
    ASSERT_OK(cuMemAlloc(&word, 4));
    std::thread other([&] {
        cuCtxSetCurrent(ctx);
        unsigned int v = 0;
        if (cuMemcpyDtoH(&v, word, 4) == CUDA_SUCCESS) // the legacy stream: after `blocked`
            copied = 1;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_OK(cuStreamSynchronize(stream)); // must return: the release is tried, never waited for
    EXPECT_EQ(1u << 20, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT)); // still held
    go = 1;
    other.join();
    EXPECT_EQ(1, copied.load());
    EXPECT_OK(cuStreamSynchronize(blocked));
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT)); // now it could
    EXPECT_OK(cuStreamDestroy(blocked));
    EXPECT_OK(cuMemFree(word));
}

TEST_F(MemPool, ManyThreads_AllocAndFreeAsyncOnTheirStreams_AndTheCountersEndAtZero)
{
    const int threads = 6, rounds = 150;
    std::atomic<int> failures{0};
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            if (cuCtxSetCurrent(ctx)) {
                failures++;
                return;
            }
            CUstream s;
            if (cuStreamCreate(&s, t % 2 ? CU_STREAM_NON_BLOCKING : 0)) {
                failures++;
                return;
            }
            std::vector<CUdeviceptr> live;
            for (int i = 0; i < rounds; ++i) {
                size_t size = 512 + (size_t)((i * 7919 + t * 104729) % 40000);
                CUdeviceptr p = 0;
                if (cuMemAllocFromPoolAsync(&p, size, pool, s) || cuMemsetD8Async(p, (unsigned char)t, size, s)) {
                    failures++;
                    break;
                }
                live.push_back(p);
                if (live.size() > 3 || i % 5 == 0) {
                    // The memory must still hold this thread's bytes: nobody else was given it.
                    unsigned char byte = 0xff;
                    if (cuMemcpyDtoHAsync(&byte, live.front(), 1, s) || cuStreamSynchronize(s) || byte != t)
                        failures++;
                    if (cuMemFreeAsync(live.front(), s))
                        failures++;
                    live.erase(live.begin());
                }
            }
            for (CUdeviceptr p : live)
                if (cuMemFreeAsync(p, s))
                    failures++;
            if (cuStreamSynchronize(s) || cuStreamDestroy(s))
                failures++;
        });
    }
    for (auto &w : workers)
        w.join();
    EXPECT_EQ(0, failures.load());
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
    EXPECT_GT(attr(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH), 0u);
    ASSERT_OK(cuMemPoolTrimTo(pool, 0));
    EXPECT_EQ(0u, attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
}
