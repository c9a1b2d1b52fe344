// The software device: initialisation, identity and attributes.
#include "framework/testing.h"

#include <cstring>
#include <string>

using namespace extmem_test;

TEST(Init, CallsBeforeCuInit_AreNotInitialized)
{
    int count = -1;
    CUdevice dev;
    CUdeviceptr p;
    EXPECT_CU(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetCount(&count));
    EXPECT_DETAIL_HAS("cuInit has not been called");
    EXPECT_CU(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGet(&dev, 0));
    EXPECT_CU(CUDA_ERROR_NOT_INITIALIZED, cuMemAlloc(&p, 16));
    EXPECT_EQ(-1, count);
}

TEST(Init, DriverVersionAndErrorNames_WorkBeforeCuInit)
{
    int v = 0;
    EXPECT_OK(cuDriverGetVersion(&v));
    EXPECT_EQ(CUDA_VERSION, v);
    const char *name = nullptr;
    EXPECT_OK(cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &name));
    EXPECT_STREQ("CUDA_ERROR_INVALID_VALUE", name);
}

TEST(Init, NonZeroFlags_AreInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuInit(1));
    EXPECT_DETAIL_HAS("cuInit: Flags is 1");
    int count;
    EXPECT_CU(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetCount(&count));
}

TEST(Init, SecondCuInit_Succeeds)
{
    EXPECT_OK(cuInit(0));
    EXPECT_OK(cuInit(0));
}

TEST(Init, DriverGetVersion_NullIsInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDriverGetVersion(nullptr));
}

class Device : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_OK(cuInit(0)); }
};

TEST_F(Device, ThereIsExactlyOne)
{
    int count = 0;
    EXPECT_OK(cuDeviceGetCount(&count));
    EXPECT_EQ(1, count);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetCount(nullptr));
}

TEST_F(Device, Get_OrdinalZeroIsTheDevice_OthersAreInvalidDevice)
{
    CUdevice dev = -1;
    EXPECT_OK(cuDeviceGet(&dev, 0));
    EXPECT_EQ(0, dev);
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&dev, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&dev, -1));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&dev, 0x7fffffff));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGet(nullptr, 0));
}

TEST_F(Device, Name_IsTheSoftwareDevice_AndIsTruncatedToLen)
{
    char name[256];
    EXPECT_OK(cuDeviceGetName(name, sizeof(name), 0));
    EXPECT_STREQ("extmem software device", name);
    char small[7];
    memset(small, 'x', sizeof(small));
    EXPECT_OK(cuDeviceGetName(small, sizeof(small), 0));
    EXPECT_STREQ("extmem", small);
}

TEST_F(Device, Name_BadArguments)
{
    char name[16];
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetName(nullptr, 16, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetName(name, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetName(name, -5, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetName(name, 16, 3));
}

TEST_F(Device, Uuid_IsStableAndTheSameThroughBothVariants)
{
    CUuuid a, b;
    EXPECT_OK(cuDeviceGetUuid(&a, 0));
    EXPECT_OK(cuDeviceGetUuid_v2(&b, 0));
    EXPECT_EQ(0, memcmp(a.bytes, b.bytes, 16));
    CUuuid zero{};
    EXPECT_NE(0, memcmp(a.bytes, zero.bytes, 16));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetUuid(nullptr, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetUuid(&a, 1));
}

TEST_F(Device, Luid_IsFilledFromTheUuid)
{
    char luid[8];
    unsigned int mask = 0;
    EXPECT_OK(cuDeviceGetLuid(luid, &mask, 0));
    EXPECT_EQ(1u, mask);
    CUuuid uuid;
    ASSERT_OK(cuDeviceGetUuid(&uuid, 0));
    EXPECT_EQ(0, memcmp(luid, uuid.bytes, 8));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetLuid(nullptr, &mask, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetLuid(luid, nullptr, 0));
}

TEST_F(Device, TotalMem_IsTheHostsMemory)
{
    size_t bytes = 0;
    EXPECT_OK(cuDeviceTotalMem(&bytes, 0));
    EXPECT_GT(bytes, size_t(64) << 20);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceTotalMem(nullptr, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceTotalMem(&bytes, 1));
}

TEST_F(Device, EveryAttribute_HasAValue)
{
    for (int a = 1; a < CU_DEVICE_ATTRIBUTE_MAX; ++a) {
        int v = 12345;
        EXPECT_OK(cuDeviceGetAttribute(&v, (CUdevice_attribute)a, 0)) << "attribute " << a;
        EXPECT_NE(12345, v) << "attribute " << a;
    }
}

TEST_F(Device, Attributes_DescribeTheSoftwareDevice)
{
    auto attr = [](CUdevice_attribute a) {
        int v = -99;
        EXPECT_OK(cuDeviceGetAttribute(&v, a, 0));
        return v;
    };
    EXPECT_EQ(1, attr(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING));
    EXPECT_EQ(1, attr(CU_DEVICE_ATTRIBUTE_INTEGRATED));
    EXPECT_EQ(1, attr(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY));
    EXPECT_EQ(1024, attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
    EXPECT_EQ(64, attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z));
    EXPECT_EQ(2147483647, attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X));
    EXPECT_EQ((int)extmem_worker_count(), attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
    // The platform's own handle types: fds on Linux, NT and KMT handles on Windows.
    bool windows = kNativeHandleType == CU_MEM_HANDLE_TYPE_WIN32;
    EXPECT_EQ(windows, attr(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED));
    EXPECT_EQ(windows, attr(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED));
    EXPECT_EQ(!windows, attr(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED));
    EXPECT_EQ(1, attr(CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED));
}

namespace {
int attribute(CUdevice_attribute a)
{
    int v = -99;
    EXPECT_OK(cuDeviceGetAttribute(&v, a, 0));
    return v;
}
} // namespace

// docs/attributes.md gives each value and why it differs from the H100's.
TEST_F(Device, Attribute_ManagedMemory_IsOne_BecauseCuMemAllocManagedIsDeviceMemoryEveryoneReadsInPlace)
{
    EXPECT_EQ(1, attribute(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY));
    EXPECT_EQ(1, attribute(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS));
    // The H100 says 0: its host faults managed pages over; here the host reads them in place.
    EXPECT_EQ(1, attribute(CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST));
}

TEST_F(Device, Attribute_PageableMemoryAccess_IsZero_BecauseKernelsRefuseAddressesOutsideAllocations)
{
    EXPECT_EQ(0, attribute(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS));
    EXPECT_EQ(0, attribute(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES));
}

TEST_F(Device, Attribute_StreamMemOps_AreOne_BecauseTheV2WaitAndWriteValueWork)
{
    EXPECT_EQ(1, attribute(CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS));
    EXPECT_EQ(1, attribute(CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR));
    // No remote writes: the FLUSH flag and operation are NOT_SUPPORTED, as on the H100.
    EXPECT_EQ(0, attribute(CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES));
}

TEST_F(Device, Attribute_StreamMemOpsV1_AreZero_BecauseTheCuda8FormsAreNotSupportedAsOnTheH100)
{
    EXPECT_EQ(0, attribute(CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1));
    EXPECT_EQ(0, attribute(CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1));
    EXPECT_EQ(0, attribute(CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1));
}

TEST_F(Device, Attribute_HostRegister_IsOne_BecauseRegisteredMemoryIsItsOwnDeviceAddress)
{
    EXPECT_EQ(1, attribute(CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED));
    EXPECT_EQ(1, attribute(CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED));
    EXPECT_EQ(1, attribute(CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM));
}

TEST_F(Device, Attribute_TimelineSemaphoreInterop_IsOne_BecauseTimelineSemaphoreFdsImport)
{
    EXPECT_EQ(1, attribute(CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED));
}

TEST_F(Device, Attribute_MemoryPools_AreOne_WithThePlatformsOwnHandles)
{
    EXPECT_EQ(1, attribute(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED));
    // Pools export as the platform's handle (src/memory/pool.c): fds, or NT handles on Windows.
    EXPECT_EQ((int)kNativeHandleType, attribute(CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES));
}

TEST_F(Device, Attribute_GpuDirectRdma_IsZero_BecauseNoNicCanReachHostMemoryThroughTheDevice)
{
    EXPECT_EQ(0, attribute(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED));
    EXPECT_EQ(0, attribute(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED));
    EXPECT_EQ(0, attribute(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS));
    EXPECT_EQ(0, attribute(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING));
}

TEST_F(Device, Attributes_From148On_AreInvalidValue_AsOnTheH100)
{
    for (int a = 148; a < 160; ++a) {
        int v = 7;
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(&v, (CUdevice_attribute)a, 0)) << a;
    }
    EXPECT_EQ(148, (int)CU_DEVICE_ATTRIBUTE_MAX);
}

TEST_F(Device, Attribute_OutOfRangeOrNull_IsInvalidValue)
{
    int v;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(&v, (CUdevice_attribute)0, 0));
    EXPECT_DETAIL_HAS("attribute 0 is not a CUdevice_attribute");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(&v, (CUdevice_attribute)1000, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(&v, (CUdevice_attribute)-1, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(nullptr, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 1));
}

// ---- Device queries of issue 22 (NVIDIA's answers: docs/probes/surface/probe.out) ----

TEST_F(Device, ComputeCapability_IsTheAttributes)
{
    int major = -1, minor = -1;
    ASSERT_OK(cuDeviceComputeCapability(&major, &minor, 0));
    EXPECT_EQ(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR), major);
    EXPECT_EQ(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR), minor);
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceComputeCapability(&major, &minor, 5));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceComputeCapability(nullptr, &minor, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceComputeCapability(&major, nullptr, 0));
}

TEST_F(Device, ExecAffinitySupport_IsNone)
{
    int pi = 99;
    ASSERT_OK(cuDeviceGetExecAffinitySupport(&pi, CU_EXEC_AFFINITY_TYPE_SM_COUNT, 0));
    EXPECT_EQ(0, pi); // cuCtxCreate refuses affinity parameters
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetExecAffinitySupport(nullptr, CU_EXEC_AFFINITY_TYPE_SM_COUNT, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetExecAffinitySupport(&pi, CU_EXEC_AFFINITY_TYPE_MAX, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetExecAffinitySupport(&pi, CU_EXEC_AFFINITY_TYPE_SM_COUNT, 1));
}

TEST_F(Device, Properties_AreTheAttributesOfTheSameMeaning)
{
    CUdevprop p;
    std::memset(&p, 0x55, sizeof p);
    ASSERT_OK(cuDeviceGetProperties(&p, 0));
    EXPECT_EQ(attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK), p.maxThreadsPerBlock);
    EXPECT_EQ(1024, p.maxThreadsDim[0]);
    EXPECT_EQ(1024, p.maxThreadsDim[1]);
    EXPECT_EQ(64, p.maxThreadsDim[2]);
    EXPECT_EQ(2147483647, p.maxGridSize[0]);
    EXPECT_EQ(65535, p.maxGridSize[1]);
    EXPECT_EQ(65535, p.maxGridSize[2]);
    EXPECT_EQ(49152, p.sharedMemPerBlock);
    EXPECT_EQ(65536, p.totalConstantMemory);
    EXPECT_EQ(32, p.SIMDWidth);
    EXPECT_EQ(2147483647, p.memPitch);
    EXPECT_EQ(65536, p.regsPerBlock);
    EXPECT_EQ(attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE), p.clockRate);
    EXPECT_EQ(attribute(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT), p.textureAlign);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetProperties(nullptr, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetProperties(&p, 1));
}

TEST_F(Device, PciBusId_IsAllZeroAsThePciAttributes_AndRoundTrips)
{
    char bus[64] = "";
    ASSERT_OK(cuDeviceGetPCIBusId(bus, sizeof bus, 0));
    EXPECT_STREQ("0000:00:00.0", bus);
    EXPECT_EQ(0, attribute(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID));
    EXPECT_EQ(0, attribute(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID));
    EXPECT_EQ(0, attribute(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID));
    CUdevice dev = 99;
    ASSERT_OK(cuDeviceGetByPCIBusId(&dev, bus));
    EXPECT_EQ(0, dev);
    dev = 99;
    EXPECT_OK(cuDeviceGetByPCIBusId(&dev, "00:00.0")); // bus:device.function
    EXPECT_EQ(0, dev);
    EXPECT_OK(cuDeviceGetByPCIBusId(&dev, "0000:00:00")); // domain:bus:device
}

TEST_F(Device, PciBusId_ShortBufferWritesWhatFitsAndIsInvalidValue)
{
    char bus[64];
    std::memset(bus, 'x', sizeof bus);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetPCIBusId(bus, 5, 0)); // the probe: '0000'
    EXPECT_STREQ("0000", bus);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetPCIBusId(bus, 12, 0)); // no room for the NUL
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetPCIBusId(bus, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetPCIBusId(bus, -1, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetPCIBusId(nullptr, 64, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetPCIBusId(bus, 64, 1));
    EXPECT_OK(cuDeviceGetPCIBusId(bus, 13, 0)); // exactly the id and its NUL
}

TEST_F(Device, ByPciBusId_OtherAddressOrGarbage)
{
    CUdevice dev = 99;
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetByPCIBusId(&dev, "0000:ff:1f.0")); // the probe's cases
    EXPECT_EQ(99, dev);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetByPCIBusId(&dev, "garbage"));
    EXPECT_DETAIL_HAS("not a PCI address");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetByPCIBusId(&dev, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetByPCIBusId(nullptr, "0000:00:00.0"));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetByPCIBusId(&dev, ""));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetByPCIBusId(&dev, "0000:00:00.0 "));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetByPCIBusId(&dev, "0000:00.00:0"));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetByPCIBusId(&dev, "1:2:3:4:5"));
}

TEST_F(Device, Peers_OneDeviceIsNotItsOwnPeer)
{
    int can = 99;
    ASSERT_OK(cuDeviceCanAccessPeer(&can, 0, 0));
    EXPECT_EQ(0, can);
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceCanAccessPeer(&can, 0, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceCanAccessPeer(&can, -1, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceCanAccessPeer(nullptr, 0, 0));
    int v = 99;
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 0));
    EXPECT_EQ(99, v); // untouched, as the driver leaves it
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK, 0, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetP2PAttribute(nullptr, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetP2PAttribute(&v, (CUdevice_P2PAttribute)0, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetP2PAttribute(&v, (CUdevice_P2PAttribute)6, 0, 0));
}

TEST_F(Device, Texture1DLinearMaxWidth_IsTheH100s)
{
    size_t w = 0;
    ASSERT_OK(cuDeviceGetTexture1DLinearMaxWidth(&w, CU_AD_FORMAT_FLOAT, 4, 0));
    EXPECT_EQ(size_t(1) << 28, w); // the probe's numbers
    ASSERT_OK(cuDeviceGetTexture1DLinearMaxWidth(&w, CU_AD_FORMAT_UNSIGNED_INT8, 1, 0));
    EXPECT_EQ(size_t(1) << 30, w);
    ASSERT_OK(cuDeviceGetTexture1DLinearMaxWidth(&w, CU_AD_FORMAT_HALF, 2, 0));
    EXPECT_EQ(size_t(1) << 30, w);
    ASSERT_OK(cuDeviceGetTexture1DLinearMaxWidth(&w, CU_AD_FORMAT_SIGNED_INT32, 2, 0));
    EXPECT_EQ(size_t(1) << 29, w);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetTexture1DLinearMaxWidth(&w, CU_AD_FORMAT_FLOAT, 3, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetTexture1DLinearMaxWidth(&w, CU_AD_FORMAT_FLOAT, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetTexture1DLinearMaxWidth(&w, (CUarray_format)0x77, 1, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetTexture1DLinearMaxWidth(nullptr, CU_AD_FORMAT_FLOAT, 1, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetTexture1DLinearMaxWidth(&w, CU_AD_FORMAT_FLOAT, 1, 2));
}

// CUDA 13.0's atomic capability queries (NVIDIA's answers on the H200: docs/probes/surface/atomic.out).
TEST_F(Device, HostAtomicCapabilities_SayWhatKernelAtomicsDoOnMemoryTheHostShares)
{
    CUatomicOperation ops[CU_ATOMIC_OPERATION_MAX];
    unsigned int caps[CU_ATOMIC_OPERATION_MAX];
    for (int i = 0; i < CU_ATOMIC_OPERATION_MAX; ++i)
        ops[i] = (CUatomicOperation)i;
    ASSERT_OK(cuDeviceGetHostAtomicCapabilities(caps, ops, CU_ATOMIC_OPERATION_MAX, 0));
    const unsigned int ints = CU_ATOMIC_CAPABILITY_SIGNED | CU_ATOMIC_CAPABILITY_UNSIGNED |
                              CU_ATOMIC_CAPABILITY_SCALAR_32 | CU_ATOMIC_CAPABILITY_SCALAR_64;
    EXPECT_EQ(ints | CU_ATOMIC_CAPABILITY_REDUCTION, caps[CU_ATOMIC_OPERATION_INTEGER_ADD]);
    EXPECT_EQ(ints, caps[CU_ATOMIC_OPERATION_CAS]);
    EXPECT_NE(0u, caps[CU_ATOMIC_OPERATION_FLOAT_ADD] & CU_ATOMIC_CAPABILITY_SCALAR_32);
    EXPECT_EQ(0u, caps[CU_ATOMIC_OPERATION_FLOAT_MIN]); // no such PTX atomic for global memory
    int native = 0;
    EXPECT_OK(cuDeviceGetAttribute(&native, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED, 0));
    EXPECT_EQ(1, native) << "the same answer as the attribute";
}

TEST_F(Device, AtomicCapabilities_BadArgumentsAndPeers_AsTheDriverAnswers)
{
    CUatomicOperation op = CU_ATOMIC_OPERATION_INTEGER_ADD, bad = (CUatomicOperation)13;
    unsigned int cap = 0xdead;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetHostAtomicCapabilities(&cap, &bad, 1, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetHostAtomicCapabilities(&cap, &op, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetHostAtomicCapabilities(nullptr, &op, 1, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetHostAtomicCapabilities(&cap, &op, 1, 5));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetP2PAtomicCapabilities(&cap, &op, 1, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetP2PAtomicCapabilities(&cap, &op, 1, 0, 1));
    EXPECT_EQ(0xdeadu, cap);
}
