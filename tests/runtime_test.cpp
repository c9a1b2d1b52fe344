// The CUDA runtime API subset (extmem/cuda_runtime_api.h): each call's success path and the
// result codes its declaration lists. Where NVIDIA's runtime was probed (CUDA 13.0, H100), the
// expected codes are what it returned; where it crashes (destroyed and forged handles),
// extmem answers cudaErrorInvalidResourceHandle.
#include "framework/testing.h"

#include "extmem/cuda_runtime_api.h"

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

/* Compares runtime results by name, and shows the error detail when they differ. */
::testing::AssertionResult rt_equal(const char *, const char *call_text, cudaError_t expected, cudaError_t actual)
{
    if (expected == actual)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << call_text << " returned " << cudaGetErrorName(actual) << " ("
                                         << (int)actual << "), expected " << cudaGetErrorName(expected)
                                         << "; detail: " << extmem_error_detail();
}
#define EXPECT_RT(expected, call) EXPECT_PRED_FORMAT2(rt_equal, expected, call)
#define ASSERT_RT(expected, call) ASSERT_PRED_FORMAT2(rt_equal, expected, call)
#define EXPECT_RT_OK(call) EXPECT_RT(cudaSuccess, call)
#define ASSERT_RT_OK(call) ASSERT_RT(cudaSuccess, call)

/* A host function that holds its stream until the test opens the gate. The destructor opens
 * it, so that a failed assertion never leaves a stream blocked. */
struct Gate {
    std::atomic<bool> open{false};
    static void CUDART_CB wait(void *p)
    {
        auto *g = static_cast<Gate *>(p);
        while (!g->open.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ~Gate() { open = true; }
};

struct Flag {
    std::atomic<bool> set{false};
    static void CUDART_CB raise(void *p) { static_cast<Flag *>(p)->set = true; }
};

void CUDART_CB sleep_20ms(void *) { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }

const cudaStream_t forged_stream = reinterpret_cast<cudaStream_t>(uintptr_t(0xdeadbeef));
const cudaEvent_t forged_event = reinterpret_cast<cudaEvent_t>(uintptr_t(0x7ffd12345678));

CUcontext current_context()
{
    EXPECT_OK(cuInit(0));
    CUcontext c = nullptr;
    EXPECT_OK(cuCtxGetCurrent(&c));
    return c;
}

CUcontext primary_context()
{
    CUcontext c = nullptr;
    EXPECT_OK(cuDevicePrimaryCtxRetain(&c, 0));
    EXPECT_OK(cuDevicePrimaryCtxRelease(0));
    return c;
}

/* Runs fn in a new thread (which starts with no current context) and waits for it. */
template <typename F> void in_thread(F fn)
{
    std::thread t(fn);
    t.join();
}

/* Memory of every kind a copy can touch, freed at the end of the test. */
struct Buffers {
    static constexpr size_t size = 4096;
    void *dev = nullptr;
    void *pinned = nullptr;
    std::vector<unsigned char> pageable = std::vector<unsigned char>(size);
    Buffers()
    {
        EXPECT_RT_OK(cudaMalloc(&dev, size));
        EXPECT_RT_OK(cudaMallocHost(&pinned, size));
    }
    ~Buffers()
    {
        EXPECT_RT_OK(cudaFree(dev));
        EXPECT_RT_OK(cudaFreeHost(pinned));
    }
};

} // namespace

/* ==== Errors and the last error ==== */

TEST(RuntimeError, GetLastError_ReturnsTheFailureAndResetsIt)
{
    (void)cudaGetLastError(); /* what earlier tests left, when all run in one process */
    EXPECT_RT_OK(cudaGetLastError());
    EXPECT_RT(cudaErrorInvalidValue, cudaMalloc(nullptr, 16));
    EXPECT_RT(cudaErrorInvalidValue, cudaGetLastError());
    EXPECT_RT_OK(cudaGetLastError());
}

TEST(RuntimeError, PeekAtLastError_KeepsTheFailure)
{
    EXPECT_RT(cudaErrorInvalidDevice, cudaSetDevice(1));
    EXPECT_RT(cudaErrorInvalidDevice, cudaPeekAtLastError());
    EXPECT_RT(cudaErrorInvalidDevice, cudaPeekAtLastError());
    EXPECT_RT(cudaErrorInvalidDevice, cudaGetLastError());
    EXPECT_RT_OK(cudaPeekAtLastError());
}

TEST(RuntimeError, SuccessfulCalls_LeaveTheLastErrorAlone)
{
    void *p = nullptr;
    EXPECT_RT(cudaErrorMemoryAllocation, cudaMalloc(&p, SIZE_MAX));
    ASSERT_RT_OK(cudaMalloc(&p, 16));
    EXPECT_RT_OK(cudaFree(p));
    int n;
    EXPECT_RT_OK(cudaGetDeviceCount(&n));
    EXPECT_RT(cudaErrorMemoryAllocation, cudaPeekAtLastError());
    EXPECT_RT(cudaErrorMemoryAllocation, cudaGetLastError());
}

TEST(RuntimeError, LaterFailure_ReplacesTheLastError)
{
    void *p;
    EXPECT_RT(cudaErrorMemoryAllocation, cudaMalloc(&p, SIZE_MAX));
    EXPECT_RT(cudaErrorInvalidDevice, cudaSetDevice(5));
    EXPECT_RT(cudaErrorInvalidDevice, cudaGetLastError());
    EXPECT_RT_OK(cudaGetLastError());
}

TEST(RuntimeError, LastError_IsPerThread)
{
    EXPECT_RT(cudaErrorInvalidValue, cudaGetDeviceCount(nullptr));
    cudaError_t seen = cudaErrorUnknown;
    in_thread([&] { seen = cudaGetLastError(); });
    EXPECT_RT_OK(seen);
    in_thread([&] { EXPECT_RT(cudaErrorInvalidDevice, cudaSetDevice(-1)); });
    EXPECT_RT(cudaErrorInvalidValue, cudaGetLastError());
}

TEST(RuntimeError, NotReady_IsNotRecordedAsTheLastError)
{
    (void)cudaGetLastError();
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    cudaEvent_t e;
    ASSERT_RT_OK(cudaEventCreate(&e));
    {
        Gate gate;
        ASSERT_RT_OK(cudaLaunchHostFunc(s, Gate::wait, &gate));
        ASSERT_RT_OK(cudaEventRecord(e, s));
        EXPECT_RT(cudaErrorNotReady, cudaStreamQuery(s));
        EXPECT_RT(cudaErrorNotReady, cudaEventQuery(e));
        float ms;
        EXPECT_RT(cudaErrorNotReady, cudaEventElapsedTime(&ms, e, e));
        EXPECT_RT_OK(cudaPeekAtLastError());
        gate.open = true;
        EXPECT_RT_OK(cudaStreamSynchronize(s));
    }
    EXPECT_RT_OK(cudaEventDestroy(e));
    EXPECT_RT_OK(cudaStreamDestroy(s));
}

/* Every runtime result code, spelled as the enumerator: cudaGetErrorName must return it. */
#define RT_TEST_CODES(X) \
    X(cudaSuccess) X(cudaErrorInvalidValue) X(cudaErrorMemoryAllocation) X(cudaErrorInitializationError) \
    X(cudaErrorCudartUnloading) X(cudaErrorProfilerDisabled) X(cudaErrorProfilerNotInitialized) \
    X(cudaErrorProfilerAlreadyStarted) X(cudaErrorProfilerAlreadyStopped) X(cudaErrorInvalidConfiguration) \
    X(cudaErrorInvalidPitchValue) X(cudaErrorInvalidSymbol) X(cudaErrorInvalidHostPointer) \
    X(cudaErrorInvalidDevicePointer) X(cudaErrorInvalidTexture) X(cudaErrorInvalidTextureBinding) \
    X(cudaErrorInvalidChannelDescriptor) X(cudaErrorInvalidMemcpyDirection) X(cudaErrorAddressOfConstant) \
    X(cudaErrorTextureFetchFailed) X(cudaErrorTextureNotBound) X(cudaErrorSynchronizationError) \
    X(cudaErrorInvalidFilterSetting) X(cudaErrorInvalidNormSetting) X(cudaErrorMixedDeviceExecution) \
    X(cudaErrorNotYetImplemented) X(cudaErrorMemoryValueTooLarge) X(cudaErrorStubLibrary) \
    X(cudaErrorInsufficientDriver) X(cudaErrorCallRequiresNewerDriver) X(cudaErrorInvalidSurface) \
    X(cudaErrorDuplicateVariableName) X(cudaErrorDuplicateTextureName) X(cudaErrorDuplicateSurfaceName) \
    X(cudaErrorDevicesUnavailable) X(cudaErrorIncompatibleDriverContext) X(cudaErrorMissingConfiguration) \
    X(cudaErrorPriorLaunchFailure) X(cudaErrorLaunchMaxDepthExceeded) X(cudaErrorLaunchFileScopedTex) \
    X(cudaErrorLaunchFileScopedSurf) X(cudaErrorSyncDepthExceeded) X(cudaErrorLaunchPendingCountExceeded) \
    X(cudaErrorInvalidDeviceFunction) X(cudaErrorNoDevice) X(cudaErrorInvalidDevice) \
    X(cudaErrorDeviceNotLicensed) X(cudaErrorSoftwareValidityNotEstablished) X(cudaErrorStartupFailure) \
    X(cudaErrorInvalidKernelImage) X(cudaErrorDeviceUninitialized) X(cudaErrorMapBufferObjectFailed) \
    X(cudaErrorUnmapBufferObjectFailed) X(cudaErrorArrayIsMapped) X(cudaErrorAlreadyMapped) \
    X(cudaErrorNoKernelImageForDevice) X(cudaErrorAlreadyAcquired) X(cudaErrorNotMapped) \
    X(cudaErrorNotMappedAsArray) X(cudaErrorNotMappedAsPointer) X(cudaErrorECCUncorrectable) \
    X(cudaErrorUnsupportedLimit) X(cudaErrorDeviceAlreadyInUse) X(cudaErrorPeerAccessUnsupported) \
    X(cudaErrorInvalidPtx) X(cudaErrorInvalidGraphicsContext) X(cudaErrorNvlinkUncorrectable) \
    X(cudaErrorJitCompilerNotFound) X(cudaErrorUnsupportedPtxVersion) X(cudaErrorJitCompilationDisabled) \
    X(cudaErrorUnsupportedExecAffinity) X(cudaErrorUnsupportedDevSideSync) X(cudaErrorContained) \
    X(cudaErrorInvalidSource) X(cudaErrorFileNotFound) X(cudaErrorSharedObjectSymbolNotFound) \
    X(cudaErrorSharedObjectInitFailed) X(cudaErrorOperatingSystem) X(cudaErrorInvalidResourceHandle) \
    X(cudaErrorIllegalState) X(cudaErrorLossyQuery) X(cudaErrorSymbolNotFound) X(cudaErrorNotReady) \
    X(cudaErrorIllegalAddress) X(cudaErrorLaunchOutOfResources) X(cudaErrorLaunchTimeout) \
    X(cudaErrorLaunchIncompatibleTexturing) X(cudaErrorPeerAccessAlreadyEnabled) \
    X(cudaErrorPeerAccessNotEnabled) X(cudaErrorSetOnActiveProcess) X(cudaErrorContextIsDestroyed) \
    X(cudaErrorAssert) X(cudaErrorTooManyPeers) X(cudaErrorHostMemoryAlreadyRegistered) \
    X(cudaErrorHostMemoryNotRegistered) X(cudaErrorHardwareStackError) X(cudaErrorIllegalInstruction) \
    X(cudaErrorMisalignedAddress) X(cudaErrorInvalidAddressSpace) X(cudaErrorInvalidPc) \
    X(cudaErrorLaunchFailure) X(cudaErrorCooperativeLaunchTooLarge) X(cudaErrorTensorMemoryLeak) \
    X(cudaErrorNotPermitted) X(cudaErrorNotSupported) X(cudaErrorSystemNotReady) \
    X(cudaErrorSystemDriverMismatch) X(cudaErrorCompatNotSupportedOnDevice) X(cudaErrorMpsConnectionFailed) \
    X(cudaErrorMpsRpcFailure) X(cudaErrorMpsServerNotReady) X(cudaErrorMpsMaxClientsReached) \
    X(cudaErrorMpsMaxConnectionsReached) X(cudaErrorMpsClientTerminated) X(cudaErrorCdpNotSupported) \
    X(cudaErrorCdpVersionMismatch) X(cudaErrorStreamCaptureUnsupported) X(cudaErrorStreamCaptureInvalidated) \
    X(cudaErrorStreamCaptureMerge) X(cudaErrorStreamCaptureUnmatched) X(cudaErrorStreamCaptureUnjoined) \
    X(cudaErrorStreamCaptureIsolation) X(cudaErrorStreamCaptureImplicit) X(cudaErrorCapturedEvent) \
    X(cudaErrorStreamCaptureWrongThread) X(cudaErrorTimeout) X(cudaErrorGraphExecUpdateFailure) \
    X(cudaErrorExternalDevice) X(cudaErrorInvalidClusterSize) X(cudaErrorFunctionNotLoaded) \
    X(cudaErrorInvalidResourceType) X(cudaErrorInvalidResourceConfiguration) X(cudaErrorUnknown) \
    X(cudaErrorApiFailureBase)

TEST(RuntimeError, GetErrorName_SpellsEveryEnumerator)
{
    struct Code {
        cudaError_t code;
        const char *name;
    };
#define RT_TEST_CODE(name) {name, #name},
    const Code codes[] = {RT_TEST_CODES(RT_TEST_CODE)};
#undef RT_TEST_CODE
    EXPECT_EQ(134u, sizeof codes / sizeof codes[0]);
    for (const Code &c : codes) {
        EXPECT_STREQ(c.name, cudaGetErrorName(c.code));
        const char *text = cudaGetErrorString(c.code);
        ASSERT_NE(nullptr, text);
        EXPECT_NE(0u, strlen(text)) << c.name;
        EXPECT_STRNE("unrecognized error code", text) << c.name;
    }
    /* No other value in the range is named. */
    int named = 0;
    for (int v = -10; v <= 10010; ++v)
        if (strcmp(cudaGetErrorName((cudaError_t)v), "unrecognized error code") != 0)
            ++named;
    EXPECT_EQ(134, named);
}

TEST(RuntimeError, GetErrorString_UsesTheRuntimesDescriptions)
{
    EXPECT_STREQ("no error", cudaGetErrorString(cudaSuccess));
    EXPECT_STREQ("invalid argument", cudaGetErrorString(cudaErrorInvalidValue));
    EXPECT_STREQ("out of memory", cudaGetErrorString(cudaErrorMemoryAllocation));
    EXPECT_STREQ("invalid device ordinal", cudaGetErrorString(cudaErrorInvalidDevice));
    EXPECT_STREQ("invalid copy direction for memcpy", cudaGetErrorString(cudaErrorInvalidMemcpyDirection));
    EXPECT_STREQ("invalid resource handle", cudaGetErrorString(cudaErrorInvalidResourceHandle));
    EXPECT_STREQ("device not ready", cudaGetErrorString(cudaErrorNotReady));
}

TEST(RuntimeError, UnknownValues_AreUnrecognizedAndNeverNull)
{
    (void)cudaGetLastError();
    for (int v : {-1, 10, 1000, 10001, INT_MAX, INT_MIN}) {
        EXPECT_STREQ("unrecognized error code", cudaGetErrorName((cudaError_t)v)) << v;
        EXPECT_STREQ("unrecognized error code", cudaGetErrorString((cudaError_t)v)) << v;
    }
    EXPECT_RT_OK(cudaPeekAtLastError());
}

TEST(RuntimeError, DriverFailure_KeepsTheDriversDetail)
{
    void *p;
    EXPECT_RT(cudaErrorMemoryAllocation, cudaMalloc(&p, SIZE_MAX));
    EXPECT_DETAIL_HAS("cuMemAlloc");
    EXPECT_EQ(CUDA_ERROR_OUT_OF_MEMORY, extmem_error_code());
}

TEST(RuntimeError, RuntimeFailure_RecordsItsOwnDetail)
{
    char a[8], b[8];
    EXPECT_RT(cudaErrorInvalidMemcpyDirection, cudaMemcpy(a, b, sizeof a, (cudaMemcpyKind)7));
    EXPECT_DETAIL_HAS("cudaMemcpy: kind 7 is not a cudaMemcpyKind: use cudaMemcpyHostToHost..cudaMemcpyDefault");
    /* The driver's record speaks CUresult: the copy direction is an invalid value there. */
    EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, extmem_error_code());
    EXPECT_RT(cudaErrorInvalidDevice, cudaSetDevice(3));
    EXPECT_DETAIL_HAS("cudaSetDevice: device 3 does not exist");
    EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, extmem_error_code());
}

/* ==== Versions ==== */

TEST(RuntimeVersion, DriverAndRuntimeVersions_Are13000)
{
    int v = 0;
    EXPECT_RT_OK(cudaDriverGetVersion(&v));
    EXPECT_EQ(13000, v);
    int driver = 0;
    EXPECT_OK(cuDriverGetVersion(&driver));
    EXPECT_EQ(driver, v);
    v = 0;
    EXPECT_RT_OK(cudaRuntimeGetVersion(&v));
    EXPECT_EQ(CUDART_VERSION, v);
    EXPECT_EQ(13000, v);
}

TEST(RuntimeVersion, NullOut_IsInvalidValue)
{
    EXPECT_RT(cudaErrorInvalidValue, cudaDriverGetVersion(nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaRuntimeGetVersion(nullptr));
    EXPECT_DETAIL_HAS("cudaRuntimeGetVersion: runtimeVersion is NULL");
}

/* ==== Device management ==== */

TEST(RuntimeDevice, GetDeviceCount_IsOneAndCreatesNoContext)
{
    in_thread([] {
        int n = 0;
        EXPECT_RT_OK(cudaGetDeviceCount(&n));
        EXPECT_EQ(1, n);
        EXPECT_EQ(nullptr, current_context());
    });
}

TEST(RuntimeDevice, GetDeviceCount_Null_IsInvalidValue)
{
    EXPECT_RT(cudaErrorInvalidValue, cudaGetDeviceCount(nullptr));
    EXPECT_DETAIL_HAS("cudaGetDeviceCount: count is NULL");
}

TEST(RuntimeDevice, SetDevice_MakesThePrimaryContextCurrent)
{
    in_thread([] {
        ASSERT_RT_OK(cudaSetDevice(0));
        CUcontext c = current_context();
        EXPECT_NE(nullptr, c);
        EXPECT_EQ(primary_context(), c);
        unsigned int flags;
        int active = 0;
        EXPECT_OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
        EXPECT_EQ(1, active);
        EXPECT_RT_OK(cudaSetDevice(0));
        EXPECT_EQ(c, current_context());
    });
}

TEST(RuntimeDevice, SetDevice_OtherOrdinals_AreInvalidDevice)
{
    for (int ordinal : {1, 2, 100, -1, -2, INT_MAX, INT_MIN}) {
        EXPECT_RT(cudaErrorInvalidDevice, cudaSetDevice(ordinal));
        EXPECT_DETAIL_HAS("cudaSetDevice: device " + std::to_string(ordinal) + " does not exist");
    }
    int d = -1;
    EXPECT_RT_OK(cudaGetDevice(&d));
    EXPECT_EQ(0, d);
}

TEST(RuntimeDevice, SetDevice_ReplacesAContextTheApplicationMadeCurrent)
{
    in_thread([] {
        ASSERT_OK(cuInit(0));
        CUcontext own;
        ASSERT_OK(cuCtxCreate(&own, nullptr, 0, 0));
        EXPECT_EQ(own, current_context());
        EXPECT_RT_OK(cudaSetDevice(0));
        EXPECT_EQ(primary_context(), current_context());
        EXPECT_OK(cuCtxDestroy(own));
    });
}

TEST(RuntimeDevice, GetDevice_IsZeroAndCreatesNoContext)
{
    in_thread([] {
        int d = -1;
        EXPECT_RT_OK(cudaGetDevice(&d));
        EXPECT_EQ(0, d);
        EXPECT_EQ(nullptr, current_context());
    });
    EXPECT_RT(cudaErrorInvalidValue, cudaGetDevice(nullptr));
}

TEST(RuntimeDevice, FirstCall_UsesAContextTheThreadAlreadyHas)
{
    in_thread([] {
        ASSERT_OK(cuInit(0));
        CUcontext own;
        ASSERT_OK(cuCtxCreate(&own, nullptr, 0, 0));
        void *p = nullptr;
        ASSERT_RT_OK(cudaMalloc(&p, 64));
        EXPECT_EQ(own, current_context());
        CUcontext owner = nullptr;
        EXPECT_OK(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)p));
        EXPECT_EQ(own, owner);
        EXPECT_RT_OK(cudaFree(p));
        EXPECT_OK(cuCtxDestroy(own));
    });
}

TEST(RuntimeDevice, NoCurrentContext_RetainsThePrimaryContext)
{
    in_thread([] {
        EXPECT_EQ(nullptr, current_context());
        void *p = nullptr;
        ASSERT_RT_OK(cudaMalloc(&p, 64));
        EXPECT_EQ(primary_context(), current_context());
        EXPECT_RT_OK(cudaFree(p));
        /* The application takes its context away: the next call puts the primary back. */
        EXPECT_OK(cuCtxSetCurrent(nullptr));
        EXPECT_RT_OK(cudaFree(nullptr));
        EXPECT_EQ(primary_context(), current_context());
    });
}

TEST(RuntimeDevice, EveryThread_SharesOnePrimaryContext)
{
    CUcontext a = nullptr, b = nullptr;
    in_thread([&] {
        EXPECT_RT_OK(cudaFree(nullptr));
        a = current_context();
    });
    in_thread([&] {
        EXPECT_RT_OK(cudaFree(nullptr));
        b = current_context();
    });
    EXPECT_NE(nullptr, a);
    EXPECT_EQ(a, b);
    /* Memory allocated in one thread is freed in another. */
    void *p = nullptr;
    in_thread([&] { EXPECT_RT_OK(cudaMalloc(&p, 128)); });
    in_thread([&] { EXPECT_RT_OK(cudaFree(p)); });
}

TEST(RuntimeDevice, ThreadsStartingTogether_RetainOnePrimaryContext)
{
    constexpr int n = 8;
    std::atomic<int> ready{0};
    std::vector<CUcontext> seen(n, nullptr);
    std::vector<std::thread> threads;
    for (int i = 0; i < n; ++i)
        threads.emplace_back([&, i] {
            ++ready;
            while (ready.load() != n)
                std::this_thread::yield();
            for (int k = 0; k < 20; ++k) {
                void *p = nullptr;
                EXPECT_RT_OK(cudaMalloc(&p, 4096));
                EXPECT_RT_OK(cudaMemset(p, k, 4096));
                EXPECT_RT_OK(cudaFree(p));
            }
            seen[i] = current_context();
        });
    for (auto &t : threads)
        t.join();
    for (int i = 0; i < n; ++i)
        EXPECT_EQ(primary_context(), seen[i]) << i;
}

/* Every cudaDeviceProp field with the attribute it mirrors (independent of src/runtime). */
#define RT_TEST_PROP_FIELDS(X) \
    X(sharedMemPerBlock, 8) X(regsPerBlock, 12) X(warpSize, 10) X(memPitch, 11) X(maxThreadsPerBlock, 1) \
    X(maxThreadsDim[0], 2) X(maxThreadsDim[1], 3) X(maxThreadsDim[2], 4) X(maxGridSize[0], 5) \
    X(maxGridSize[1], 6) X(maxGridSize[2], 7) X(totalConstMem, 9) X(major, 75) X(minor, 76) \
    X(textureAlignment, 14) X(texturePitchAlignment, 51) X(multiProcessorCount, 16) X(integrated, 18) \
    X(canMapHostMemory, 19) X(maxTexture1D, 21) X(maxTexture1DMipmap, 77) X(maxTexture2D[0], 22) \
    X(maxTexture2D[1], 23) X(maxTexture2DMipmap[0], 73) X(maxTexture2DMipmap[1], 74) \
    X(maxTexture2DLinear[0], 70) X(maxTexture2DLinear[1], 71) X(maxTexture2DLinear[2], 72) \
    X(maxTexture2DGather[0], 45) X(maxTexture2DGather[1], 46) X(maxTexture3D[0], 24) X(maxTexture3D[1], 25) \
    X(maxTexture3D[2], 26) X(maxTexture3DAlt[0], 47) X(maxTexture3DAlt[1], 48) X(maxTexture3DAlt[2], 49) \
    X(maxTextureCubemap, 52) X(maxTexture1DLayered[0], 42) X(maxTexture1DLayered[1], 43) \
    X(maxTexture2DLayered[0], 27) X(maxTexture2DLayered[1], 28) X(maxTexture2DLayered[2], 29) \
    X(maxTextureCubemapLayered[0], 53) X(maxTextureCubemapLayered[1], 54) X(maxSurface1D, 55) \
    X(maxSurface2D[0], 56) X(maxSurface2D[1], 57) X(maxSurface3D[0], 58) X(maxSurface3D[1], 59) \
    X(maxSurface3D[2], 60) X(maxSurface1DLayered[0], 61) X(maxSurface1DLayered[1], 62) \
    X(maxSurface2DLayered[0], 63) X(maxSurface2DLayered[1], 64) X(maxSurface2DLayered[2], 65) \
    X(maxSurfaceCubemap, 66) X(maxSurfaceCubemapLayered[0], 67) X(maxSurfaceCubemapLayered[1], 68) \
    X(surfaceAlignment, 30) X(concurrentKernels, 31) X(ECCEnabled, 32) X(pciBusID, 33) X(pciDeviceID, 34) \
    X(pciDomainID, 50) X(tccDriver, 35) X(asyncEngineCount, 40) X(unifiedAddressing, 41) \
    X(memoryBusWidth, 37) X(l2CacheSize, 38) X(persistingL2CacheMaxSize, 108) \
    X(maxThreadsPerMultiProcessor, 39) X(streamPrioritiesSupported, 78) X(globalL1CacheSupported, 79) \
    X(localL1CacheSupported, 80) X(sharedMemPerMultiprocessor, 81) X(regsPerMultiprocessor, 82) \
    X(managedMemory, 83) X(isMultiGpuBoard, 84) X(multiGpuBoardGroupID, 85) \
    X(hostNativeAtomicSupported, 86) X(pageableMemoryAccess, 88) X(concurrentManagedAccess, 89) \
    X(computePreemptionSupported, 90) X(canUseHostPointerForRegisteredMem, 91) X(cooperativeLaunch, 95) \
    X(sharedMemPerBlockOptin, 97) X(pageableMemoryAccessUsesHostPageTables, 100) \
    X(directManagedMemAccessFromHost, 101) X(maxBlocksPerMultiProcessor, 106) \
    X(accessPolicyMaxWindowSize, 109) X(reservedSharedMemPerBlock, 111) X(hostRegisterSupported, 99) \
    X(sparseCudaArraySupported, 112) X(hostRegisterReadOnlySupported, 113) \
    X(timelineSemaphoreInteropSupported, 114) X(memoryPoolsSupported, 115) X(gpuDirectRDMASupported, 116) \
    X(gpuDirectRDMAFlushWritesOptions, 117) X(gpuDirectRDMAWritesOrdering, 118) \
    X(memoryPoolSupportedHandleTypes, 119) X(deferredMappingCudaArraySupported, 121) \
    X(ipcEventSupported, 125) X(clusterLaunch, 120) X(unifiedFunctionPointers, 129) \
    X(deviceNumaConfig, 130) X(deviceNumaId, 131) X(mpsEnabled, 133) X(hostNumaId, 134) \
    X(gpuPciDeviceID, 139) X(gpuPciSubsystemID, 140) X(hostNumaMultinodeIpcSupported, 143)

TEST(RuntimeDevice, GetDeviceProperties_MatchesTheDriver)
{
    struct cudaDeviceProp prop;
    memset(&prop, 0xab, sizeof prop);
    ASSERT_RT_OK(cudaGetDeviceProperties(&prop, 0));
    ASSERT_OK(cuInit(0));

    char name[256] = {};
    ASSERT_OK(cuDeviceGetName(name, sizeof name, 0));
    EXPECT_STREQ(name, prop.name);
    size_t total = 0;
    ASSERT_OK(cuDeviceTotalMem(&total, 0));
    EXPECT_EQ(total, prop.totalGlobalMem);

    int checked = 0;
#define RT_TEST_PROP_CHECK(field, attr)                                                     \
    {                                                                                      \
        int v = -12345;                                                                    \
        EXPECT_OK(cuDeviceGetAttribute(&v, (CUdevice_attribute)(attr), 0));                \
        EXPECT_EQ((long long)v, (long long)prop.field) << #field " (attribute " #attr ")"; \
        ++checked;                                                                         \
    }
    RT_TEST_PROP_FIELDS(RT_TEST_PROP_CHECK)
#undef RT_TEST_PROP_CHECK
    EXPECT_EQ(111, checked);

    for (int r : prop.reserved)
        EXPECT_EQ(0, r);
}

TEST(RuntimeDevice, GetDeviceProperties_UuidIsTheDriversUuid)
{
    struct cudaDeviceProp prop;
    ASSERT_RT_OK(cudaGetDeviceProperties(&prop, 0));
    CUuuid uuid;
    ASSERT_OK(cuDeviceGetUuid(&uuid, 0));
    EXPECT_EQ(0, memcmp(uuid.bytes, prop.uuid.bytes, sizeof uuid.bytes));
    static const char zero[16] = {};
    EXPECT_NE(0, memcmp(zero, prop.uuid.bytes, sizeof zero));
}

TEST(RuntimeDevice, GetDeviceProperties_LuidIsFilled)
{
    struct cudaDeviceProp prop;
    ASSERT_RT_OK(cudaGetDeviceProperties(&prop, 0));
    char luid[8];
    unsigned int mask = 0;
    ASSERT_OK(cuDeviceGetLuid(luid, &mask, 0));
    EXPECT_EQ(0, memcmp(luid, prop.luid, sizeof luid));
    EXPECT_EQ(mask, prop.luidDeviceNodeMask);
    EXPECT_EQ(1u, prop.luidDeviceNodeMask);
    static const char zero[8] = {};
    EXPECT_NE(0, memcmp(zero, prop.luid, sizeof zero));
}

TEST(RuntimeDevice, GetDeviceProperties_CreatesNoContext)
{
    in_thread([] {
        struct cudaDeviceProp prop;
        EXPECT_RT_OK(cudaGetDeviceProperties(&prop, 0));
        int v;
        EXPECT_RT_OK(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0));
        EXPECT_EQ(nullptr, current_context());
    });
}

TEST(RuntimeDevice, GetDeviceProperties_Null_IsInvalidValueBeforeTheOrdinal)
{
    EXPECT_RT(cudaErrorInvalidValue, cudaGetDeviceProperties(nullptr, 0));
    EXPECT_RT(cudaErrorInvalidValue, cudaGetDeviceProperties(nullptr, 1));
    EXPECT_DETAIL_HAS("cudaGetDeviceProperties: prop is NULL");
}

TEST(RuntimeDevice, GetDeviceProperties_BadOrdinal_IsInvalidDeviceAndLeavesPropAlone)
{
    struct cudaDeviceProp prop;
    memset(&prop, 0x5a, sizeof prop);
    for (int ordinal : {1, -1, INT_MAX}) {
        EXPECT_RT(cudaErrorInvalidDevice, cudaGetDeviceProperties(&prop, ordinal));
        EXPECT_EQ(0x5a, (unsigned char)prop.name[0]);
    }
}

TEST(RuntimeDevice, DeviceGetAttribute_AnswersEveryDriverAttribute)
{
    ASSERT_OK(cuInit(0));
    /* Values the runtime's enumeration leaves out or calls Reserved are answered too, as on
     * NVIDIA's runtime. */
    for (int attr = 1; attr < cudaDevAttrMax; ++attr) {
        int mine = -1, driver = -2;
        EXPECT_RT_OK(cudaDeviceGetAttribute(&mine, (cudaDeviceAttr)attr, 0)) << attr;
        EXPECT_OK(cuDeviceGetAttribute(&driver, (CUdevice_attribute)attr, 0));
        EXPECT_EQ(driver, mine) << "attribute " << attr;
    }
    int v = 0;
    EXPECT_RT_OK(cudaDeviceGetAttribute(&v, cudaDevAttrUnifiedAddressing, 0));
    EXPECT_EQ(1, v);
}

TEST(RuntimeDevice, DeviceGetAttribute_BadArguments)
{
    int v = 0;
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceGetAttribute(nullptr, cudaDevAttrWarpSize, 0));
    EXPECT_DETAIL_HAS("cudaDeviceGetAttribute: value is NULL");
    EXPECT_RT(cudaErrorInvalidDevice, cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1));
    EXPECT_RT(cudaErrorInvalidDevice, cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, -1));
    for (int attr : {0, -1, (int)cudaDevAttrMax, 1000})
        EXPECT_RT(cudaErrorInvalidValue, cudaDeviceGetAttribute(&v, (cudaDeviceAttr)attr, 0)) << attr;
    /* The order NVIDIA's runtime checks in: value, then device, then attribute. */
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceGetAttribute(nullptr, (cudaDeviceAttr)1000, 1));
    EXPECT_RT(cudaErrorInvalidDevice, cudaDeviceGetAttribute(&v, (cudaDeviceAttr)1000, 1));
}

TEST(RuntimeDevice, DeviceSynchronize_WaitsForEveryStream)
{
    cudaStream_t a, b;
    ASSERT_RT_OK(cudaStreamCreate(&a));
    ASSERT_RT_OK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    Flag fa, fb;
    ASSERT_RT_OK(cudaLaunchHostFunc(a, sleep_20ms, nullptr));
    ASSERT_RT_OK(cudaLaunchHostFunc(a, Flag::raise, &fa));
    ASSERT_RT_OK(cudaLaunchHostFunc(b, sleep_20ms, nullptr));
    ASSERT_RT_OK(cudaLaunchHostFunc(b, Flag::raise, &fb));
    EXPECT_RT_OK(cudaDeviceSynchronize());
    EXPECT_TRUE(fa.set);
    EXPECT_TRUE(fb.set);
    EXPECT_RT_OK(cudaStreamDestroy(a));
    EXPECT_RT_OK(cudaStreamDestroy(b));
}

TEST(RuntimeDevice, DeviceReset_WithNoContext_Succeeds)
{
    in_thread([] {
        EXPECT_RT_OK(cudaDeviceReset());
        EXPECT_RT_OK(cudaDeviceSynchronize());
    });
}

TEST(RuntimeDevice, DeviceReset_DestroysStateAndTheNextCallStartsAfresh)
{
    void *old = nullptr;
    ASSERT_RT_OK(cudaMalloc(&old, 4096));
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    cudaEvent_t e;
    ASSERT_RT_OK(cudaEventCreate(&e));

    ASSERT_RT_OK(cudaDeviceReset());
    /* The runtime gave back its reference: nothing holds the primary context now. */
    unsigned int flags;
    int active = 1;
    EXPECT_OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    EXPECT_EQ(0, active);

    EXPECT_RT(cudaErrorInvalidValue, cudaFree(old));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaStreamQuery(s));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventQuery(e));

    void *fresh = nullptr;
    ASSERT_RT_OK(cudaMalloc(&fresh, 4096));
    EXPECT_RT_OK(cudaMemset(fresh, 1, 4096));
    EXPECT_OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    EXPECT_EQ(1, active);
    EXPECT_RT_OK(cudaFree(fresh));
    EXPECT_RT_OK(cudaDeviceReset());
    EXPECT_RT_OK(cudaDeviceReset());
}

TEST(RuntimeDevice, DeviceReset_OtherThreadsGetAWorkingContextBack)
{
    std::atomic<int> step{0};
    std::thread worker([&] {
        EXPECT_RT_OK(cudaFree(nullptr));
        step = 1;
        while (step.load() != 2)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        void *p = nullptr;
        EXPECT_RT_OK(cudaMalloc(&p, 64));
        EXPECT_RT_OK(cudaMemset(p, 0, 64));
        EXPECT_RT_OK(cudaFree(p));
    });
    while (step.load() != 1)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_RT_OK(cudaDeviceReset());
    step = 2;
    worker.join();
}

/* ==== Memory ==== */

TEST(RuntimeMalloc, AllocatesDeviceMemory)
{
    void *p = nullptr;
    ASSERT_RT_OK(cudaMalloc(&p, 1 << 20));
    ASSERT_NE(nullptr, p);
    EXPECT_EQ(0u, (uintptr_t)p % 512);
    CUmemorytype type = (CUmemorytype)0;
    EXPECT_OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)p));
    EXPECT_EQ(CU_MEMORYTYPE_DEVICE, type);
    /* A device pointer is a host address on the software device. */
    memset(p, 0x42, 1 << 20);
    EXPECT_EQ(0x42, static_cast<unsigned char *>(p)[(1 << 20) - 1]);
    EXPECT_RT_OK(cudaFree(p));
}

TEST(RuntimeMalloc, SizeZero_SucceedsWithNull)
{
    void *p = reinterpret_cast<void *>(0x1234);
    EXPECT_RT_OK(cudaMalloc(&p, 0));
    EXPECT_EQ(nullptr, p);
    EXPECT_RT_OK(cudaFree(p));
}

TEST(RuntimeMalloc, NullOut_IsInvalidValue)
{
    EXPECT_RT(cudaErrorInvalidValue, cudaMalloc(nullptr, 16));
    EXPECT_DETAIL_HAS("cudaMalloc: devPtr is NULL");
    EXPECT_RT(cudaErrorInvalidValue, cudaMalloc(nullptr, 0));
}

TEST(RuntimeMalloc, HugeSize_IsMemoryAllocationAndNull)
{
    for (size_t size : {SIZE_MAX, SIZE_MAX - 4095, size_t(1) << 50}) {
        void *p = reinterpret_cast<void *>(0x1234);
        EXPECT_RT(cudaErrorMemoryAllocation, cudaMalloc(&p, size)) << size;
        EXPECT_EQ(nullptr, p);
    }
}

TEST(RuntimeMalloc, OddSizes_AreUsable)
{
    for (size_t size : {size_t(1), size_t(3), size_t(4097), size_t(2 << 20) + 1}) {
        void *p = nullptr;
        ASSERT_RT_OK(cudaMalloc(&p, size));
        EXPECT_RT_OK(cudaMemset(p, 0xee, size));
        EXPECT_EQ(0xee, static_cast<unsigned char *>(p)[size - 1]);
        EXPECT_RT_OK(cudaFree(p));
    }
}

TEST(RuntimeFree, Null_SucceedsAndCreatesTheContext)
{
    in_thread([] {
        EXPECT_RT_OK(cudaFree(nullptr));
        EXPECT_EQ(primary_context(), current_context());
    });
}

TEST(RuntimeFree, PointersNotFromCudaMalloc_AreInvalidValue)
{
    Buffers b;
    EXPECT_RT(cudaErrorInvalidValue, cudaFree(static_cast<char *>(b.dev) + 1));
    EXPECT_RT(cudaErrorInvalidValue, cudaFree(static_cast<char *>(b.dev) + 256));
    EXPECT_RT(cudaErrorInvalidValue, cudaFree(reinterpret_cast<void *>(0x1234)));
    EXPECT_RT(cudaErrorInvalidValue, cudaFree(b.pageable.data()));
    EXPECT_RT(cudaErrorInvalidValue, cudaFree(b.pinned));
    void *p = nullptr;
    ASSERT_RT_OK(cudaMalloc(&p, 64));
    EXPECT_RT_OK(cudaFree(p));
    EXPECT_RT(cudaErrorInvalidValue, cudaFree(p));
}

TEST(RuntimeHostAlloc, MallocHost_IsPageLockedAndDeviceAddressable)
{
    void *p = nullptr;
    ASSERT_RT_OK(cudaMallocHost(&p, 4096));
    ASSERT_NE(nullptr, p);
    CUmemorytype type = (CUmemorytype)0;
    EXPECT_OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)p));
    EXPECT_EQ(CU_MEMORYTYPE_HOST, type);
    memset(p, 7, 4096);
    void *d = nullptr;
    EXPECT_RT_OK(cudaHostGetDevicePointer(&d, p, 0));
    EXPECT_EQ(p, d);
    EXPECT_RT_OK(cudaFreeHost(p));
}

TEST(RuntimeHostAlloc, EveryFlagCombination_Succeeds)
{
    for (unsigned int flags = 0; flags <= 7; ++flags) {
        void *p = nullptr;
        ASSERT_RT_OK(cudaHostAlloc(&p, 100, flags)) << flags;
        ASSERT_NE(nullptr, p);
        static_cast<char *>(p)[99] = 1;
        void *d = nullptr;
        EXPECT_RT_OK(cudaHostGetDevicePointer(&d, p, 0));
        EXPECT_EQ(p, d);
        EXPECT_RT_OK(cudaFreeHost(p));
    }
}

TEST(RuntimeHostAlloc, SizeZero_SucceedsWithNullBeforeFlagsAreChecked)
{
    void *p = reinterpret_cast<void *>(0x1234);
    EXPECT_RT_OK(cudaMallocHost(&p, 0));
    EXPECT_EQ(nullptr, p);
    p = reinterpret_cast<void *>(0x1234);
    EXPECT_RT_OK(cudaHostAlloc(&p, 0, 0));
    EXPECT_EQ(nullptr, p);
    p = reinterpret_cast<void *>(0x1234);
    EXPECT_RT_OK(cudaHostAlloc(&p, 0, 8));
    EXPECT_EQ(nullptr, p);
}

TEST(RuntimeHostAlloc, NullOut_IsInvalidValue)
{
    EXPECT_RT(cudaErrorInvalidValue, cudaMallocHost(nullptr, 16));
    EXPECT_RT(cudaErrorInvalidValue, cudaMallocHost(nullptr, 0));
    EXPECT_RT(cudaErrorInvalidValue, cudaHostAlloc(nullptr, 16, 0));
    EXPECT_RT(cudaErrorInvalidValue, cudaHostAlloc(nullptr, 0, 8));
    EXPECT_DETAIL_HAS("cudaHostAlloc: pHost is NULL");
}

TEST(RuntimeHostAlloc, UnknownFlags_AreInvalidValue)
{
    for (unsigned int flags : {0x8u, 0x10u, 0xffu, 0x80000000u}) {
        void *p = reinterpret_cast<void *>(0x1234);
        EXPECT_RT(cudaErrorInvalidValue, cudaHostAlloc(&p, 16, flags)) << flags;
        EXPECT_DETAIL_HAS("cudaHostAlloc: flags");
        EXPECT_EQ(nullptr, p);
    }
}

TEST(RuntimeHostAlloc, HugeSize_IsMemoryAllocation)
{
    void *p = reinterpret_cast<void *>(0x1234);
    EXPECT_RT(cudaErrorMemoryAllocation, cudaMallocHost(&p, SIZE_MAX));
    EXPECT_EQ(nullptr, p);
    EXPECT_RT(cudaErrorMemoryAllocation, cudaHostAlloc(&p, SIZE_MAX, cudaHostAllocMapped));
    EXPECT_EQ(nullptr, p);
}

TEST(RuntimeFreeHost, Null_Succeeds)
{
    EXPECT_RT_OK(cudaFreeHost(nullptr));
}

TEST(RuntimeFreeHost, PointersNotFromTheHostAllocators_AreInvalidValue)
{
    Buffers b;
    EXPECT_RT(cudaErrorInvalidValue, cudaFreeHost(b.pageable.data()));
    EXPECT_RT(cudaErrorInvalidValue, cudaFreeHost(b.dev));
    EXPECT_RT(cudaErrorInvalidValue, cudaFreeHost(static_cast<char *>(b.pinned) + 16));
    EXPECT_RT(cudaErrorInvalidValue, cudaFreeHost(reinterpret_cast<void *>(0x1234)));
    void *p = nullptr;
    ASSERT_RT_OK(cudaMallocHost(&p, 16));
    EXPECT_RT_OK(cudaFreeHost(p));
    EXPECT_RT(cudaErrorInvalidValue, cudaFreeHost(p));
}

TEST(RuntimeHostGetDevicePointer, AnyAddressInsideTheAllocation_MapsToItself)
{
    Buffers b;
    for (size_t offset : {size_t(0), size_t(8), Buffers::size - 1}) {
        void *host = static_cast<char *>(b.pinned) + offset;
        void *d = nullptr;
        EXPECT_RT_OK(cudaHostGetDevicePointer(&d, host, 0)) << offset;
        EXPECT_EQ(host, d);
    }
}

TEST(RuntimeHostGetDevicePointer, PastTheEndOfTheAllocation_IsInvalidValue)
{
    void *p = nullptr;
    ASSERT_RT_OK(cudaHostAlloc(&p, 64, cudaHostAllocMapped));
    void *d = nullptr;
    EXPECT_RT_OK(cudaHostGetDevicePointer(&d, static_cast<char *>(p) + 63, 0));
    EXPECT_RT(cudaErrorInvalidValue, cudaHostGetDevicePointer(&d, static_cast<char *>(p) + 64, 0));
    EXPECT_RT(cudaErrorInvalidValue, cudaHostGetDevicePointer(&d, static_cast<char *>(p) + 4096, 0));
    EXPECT_RT_OK(cudaFreeHost(p));
}

TEST(RuntimeHostGetDevicePointer, BadArguments_AreInvalidValue)
{
    Buffers b;
    void *d = reinterpret_cast<void *>(0x77);
    EXPECT_RT(cudaErrorInvalidValue, cudaHostGetDevicePointer(nullptr, b.pinned, 0));
    EXPECT_RT(cudaErrorInvalidValue, cudaHostGetDevicePointer(&d, nullptr, 0));
    EXPECT_RT(cudaErrorInvalidValue, cudaHostGetDevicePointer(&d, b.pinned, 1));
    EXPECT_DETAIL_HAS("cudaHostGetDevicePointer: flags is 0x1: it must be 0");
    EXPECT_RT(cudaErrorInvalidValue, cudaHostGetDevicePointer(nullptr, nullptr, 1));
    EXPECT_RT(cudaErrorInvalidValue, cudaHostGetDevicePointer(&d, b.pageable.data(), 0));
    EXPECT_RT(cudaErrorInvalidValue, cudaHostGetDevicePointer(&d, b.dev, 0));
    EXPECT_EQ(reinterpret_cast<void *>(0x77), d);
}

TEST(RuntimeMemGetInfo, FreeIsAtMostTotal_AndEitherOutMayBeNull)
{
    size_t free_bytes = 0, total = 0;
    EXPECT_RT_OK(cudaMemGetInfo(&free_bytes, &total));
    EXPECT_GT(total, 0u);
    EXPECT_LE(free_bytes, total);
    size_t driver_free = 0, driver_total = 0;
    EXPECT_OK(cuMemGetInfo(&driver_free, &driver_total));
    EXPECT_EQ(driver_total, total);
    EXPECT_RT_OK(cudaMemGetInfo(nullptr, &total));
    EXPECT_RT_OK(cudaMemGetInfo(&free_bytes, nullptr));
    EXPECT_RT_OK(cudaMemGetInfo(nullptr, nullptr));
}

/* ==== Copies ==== */

TEST(RuntimeMemcpy, EveryKind_CopiesBetweenTheMemoryItNames)
{
    Buffers b;
    std::vector<unsigned char> src(256), dst(256);
    for (int i = 0; i < 256; ++i)
        src[i] = (unsigned char)i;
    ASSERT_RT_OK(cudaMemcpy(b.dev, src.data(), 256, cudaMemcpyHostToDevice));
    char *dev2 = static_cast<char *>(b.dev) + 1024;
    ASSERT_RT_OK(cudaMemcpy(dev2, b.dev, 256, cudaMemcpyDeviceToDevice));
    ASSERT_RT_OK(cudaMemcpy(b.pinned, dev2, 256, cudaMemcpyDeviceToDevice));
    ASSERT_RT_OK(cudaMemcpy(b.pageable.data(), b.pinned, 256, cudaMemcpyDeviceToHost));
    ASSERT_RT_OK(cudaMemcpy(dst.data(), b.pageable.data(), 256, cudaMemcpyHostToHost));
    EXPECT_EQ(src, dst);

    std::fill(dst.begin(), dst.end(), 0);
    ASSERT_RT_OK(cudaMemcpy(b.dev, src.data(), 256, cudaMemcpyDefault));
    ASSERT_RT_OK(cudaMemcpy(dst.data(), b.dev, 256, cudaMemcpyDefault));
    EXPECT_EQ(src, dst);
    /* Default copies host to host too. */
    std::fill(dst.begin(), dst.end(), 0);
    ASSERT_RT_OK(cudaMemcpy(dst.data(), src.data(), 256, cudaMemcpyDefault));
    EXPECT_EQ(src, dst);
}

TEST(RuntimeMemcpy, UnalignedAddressesAndSizes_Copy)
{
    Buffers b;
    const char text[] = "unaligned copy";
    char *d = static_cast<char *>(b.dev) + 3;
    ASSERT_RT_OK(cudaMemset(b.dev, 0, 64));
    ASSERT_RT_OK(cudaMemcpy(d, text, 13, cudaMemcpyHostToDevice));
    char out[16] = {};
    ASSERT_RT_OK(cudaMemcpy(out + 1, d, 13, cudaMemcpyDeviceToHost));
    EXPECT_EQ(0, memcmp(out + 1, text, 13));
    EXPECT_EQ(0, static_cast<char *>(b.dev)[2]);
    EXPECT_EQ(0, static_cast<char *>(b.dev)[16]);
}

TEST(RuntimeMemcpy, InvalidKind_IsInvalidMemcpyDirection)
{
    Buffers b;
    for (int kind : {5, 7, 100, -1, INT_MAX, INT_MIN}) {
        EXPECT_RT(cudaErrorInvalidMemcpyDirection, cudaMemcpy(b.dev, b.pinned, 64, (cudaMemcpyKind)kind));
        EXPECT_DETAIL_HAS("cudaMemcpy: kind " + std::to_string(kind) + " is not a cudaMemcpyKind");
    }
    EXPECT_RT(cudaErrorInvalidMemcpyDirection, cudaGetLastError());
}

TEST(RuntimeMemcpy, InvalidKind_IsCheckedBeforeThePointers)
{
    char host[16];
    EXPECT_RT(cudaErrorInvalidMemcpyDirection, cudaMemcpy(nullptr, host, 16, (cudaMemcpyKind)9));
    EXPECT_RT(cudaErrorInvalidMemcpyDirection, cudaMemcpy(host, nullptr, 16, (cudaMemcpyKind)9));
}

TEST(RuntimeMemcpy, ZeroBytes_SucceedsWhateverTheArguments)
{
    (void)cudaGetLastError();
    EXPECT_RT_OK(cudaMemcpy(nullptr, nullptr, 0, (cudaMemcpyKind)7));
    EXPECT_RT_OK(cudaMemcpy(nullptr, nullptr, 0, cudaMemcpyDefault));
    EXPECT_RT_OK(cudaMemcpyAsync(nullptr, nullptr, 0, (cudaMemcpyKind)9, nullptr));
    EXPECT_RT_OK(cudaPeekAtLastError());
}

TEST(RuntimeMemcpy, NullPointers_AreInvalidValue)
{
    Buffers b;
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy(nullptr, b.pageable.data(), 16, cudaMemcpyDefault));
    EXPECT_DETAIL_HAS("cudaMemcpy: dst is NULL");
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy(nullptr, b.pageable.data(), 16, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy(b.pageable.data(), nullptr, 16, cudaMemcpyDeviceToHost));
    EXPECT_DETAIL_HAS("cudaMemcpy: src is NULL");
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy(b.dev, nullptr, 16, cudaMemcpyHostToHost));
}

TEST(RuntimeMemcpy, KindContradictingTheAddresses_IsInvalidValue)
{
    Buffers b;
    void *pageable = b.pageable.data();
    std::vector<unsigned char> other(64);
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy(pageable, other.data(), 64, cudaMemcpyHostToDevice));
    EXPECT_DETAIL_HAS("is not device memory: cudaMemcpyHostToDevice");
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy(pageable, other.data(), 64, cudaMemcpyDeviceToHost));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy(pageable, other.data(), 64, cudaMemcpyDeviceToDevice));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy(b.dev, pageable, 64, cudaMemcpyDeviceToHost));
    EXPECT_DETAIL_HAS("src");
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy(pageable, b.dev, 64, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy(b.dev, pageable, 64, cudaMemcpyDeviceToDevice));
    /* Page-locked memory is device memory to every kind, and device memory is a valid host
     * source (unified addressing), as on NVIDIA's runtime. */
    EXPECT_RT_OK(cudaMemcpy(b.pinned, b.dev, 64, cudaMemcpyHostToDevice));
    EXPECT_RT_OK(cudaMemcpy(pageable, b.pinned, 64, cudaMemcpyDeviceToHost));
    EXPECT_RT_OK(cudaMemcpy(b.dev, b.dev, 0, cudaMemcpyDeviceToHost));
    EXPECT_RT_OK(cudaMemcpy(static_cast<char *>(b.dev) + 64, b.dev, 64, cudaMemcpyDeviceToHost));
}

TEST(RuntimeMemcpy, HostToHost_AcceptsAnyAddress)
{
    Buffers b;
    std::vector<unsigned char> other(64, 9);
    EXPECT_RT_OK(cudaMemcpy(b.dev, other.data(), 64, cudaMemcpyHostToHost));
    EXPECT_RT_OK(cudaMemcpy(b.pinned, b.dev, 64, cudaMemcpyHostToHost));
    EXPECT_RT_OK(cudaMemcpy(b.pageable.data(), b.pinned, 64, cudaMemcpyHostToHost));
    EXPECT_EQ(9, b.pageable[63]);
}

TEST(RuntimeMemcpy, PastTheEndOfAnAllocation_IsInvalidValue)
{
    void *d = nullptr;
    ASSERT_RT_OK(cudaMalloc(&d, 4096));
    std::vector<unsigned char> big(8192);
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy(d, big.data(), 8192, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy(big.data(), d, 8192, cudaMemcpyDeviceToHost));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy(d, big.data(), 8192, cudaMemcpyDefault));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy(static_cast<char *>(d) + 4095, big.data(), 2, cudaMemcpyDefault));
    EXPECT_RT_OK(cudaMemcpy(static_cast<char *>(d) + 4095, big.data(), 1, cudaMemcpyDefault));
    EXPECT_RT_OK(cudaFree(d));
}

TEST(RuntimeMemcpy, OddSizedAllocation_EndsAtItsSizeNotItsPage)
{
    /* NVIDIA's runtime judges the range by the size asked for (probed with 100 bytes). */
    void *d = nullptr;
    ASSERT_RT_OK(cudaMalloc(&d, 100));
    char byte[2] = {1, 2};
    char *end = static_cast<char *>(d) + 100;
    EXPECT_RT_OK(cudaMemcpy(end - 1, byte, 1, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy(end - 1, byte, 2, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy(end, byte, 1, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemset(end - 1, 0, 2));
    EXPECT_RT_OK(cudaMemset(end - 1, 0, 1));
    EXPECT_RT_OK(cudaFree(d));
}

TEST(RuntimeMemcpy, PerThreadDefaultStreamForm_Copies)
{
    Buffers b;
    const char text[] = "per-thread";
    ASSERT_RT_OK(cudaMemcpy_ptds(b.dev, text, sizeof text, cudaMemcpyHostToDevice));
    char out[sizeof text] = {};
    ASSERT_RT_OK(cudaMemcpy_ptds(out, b.dev, sizeof text, cudaMemcpyDefault));
    EXPECT_STREQ(text, out);
    EXPECT_RT(cudaErrorInvalidMemcpyDirection, cudaMemcpy_ptds(out, b.dev, 4, (cudaMemcpyKind)5));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy_ptds(out, text, 4, cudaMemcpyHostToDevice));
}

TEST(RuntimeMemcpyAsync, IsOrderedInItsStream)
{
    Buffers b;
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    std::vector<unsigned char> src(Buffers::size, 0x3c);
    memset(b.pinned, 0, Buffers::size);
    {
        Gate gate;
        ASSERT_RT_OK(cudaLaunchHostFunc(s, Gate::wait, &gate));
        ASSERT_RT_OK(cudaMemcpyAsync(b.dev, src.data(), Buffers::size, cudaMemcpyHostToDevice, s));
        ASSERT_RT_OK(cudaMemcpyAsync(b.pinned, b.dev, Buffers::size, cudaMemcpyDeviceToHost, s));
        EXPECT_RT(cudaErrorNotReady, cudaStreamQuery(s));
        EXPECT_EQ(0, static_cast<unsigned char *>(b.pinned)[0]);
        gate.open = true;
        ASSERT_RT_OK(cudaStreamSynchronize(s));
    }
    EXPECT_EQ(0x3c, static_cast<unsigned char *>(b.pinned)[Buffers::size - 1]);
    EXPECT_RT_OK(cudaStreamDestroy(s));
}

TEST(RuntimeMemcpyAsync, DefaultStreamArgument_IsTheLegacyStream)
{
    Buffers b;
    const char text[] = "default argument";
    ASSERT_RT_OK(cudaMemcpyAsync(b.dev, text, sizeof text, cudaMemcpyHostToDevice));
    ASSERT_RT_OK(cudaMemcpyAsync(b.pinned, b.dev, sizeof text, cudaMemcpyDeviceToHost, cudaStreamLegacy));
    ASSERT_RT_OK(cudaStreamSynchronize(nullptr));
    EXPECT_STREQ(text, static_cast<char *>(b.pinned));
}

TEST(RuntimeMemcpyAsync, InvalidKind_IsCheckedBeforeTheStream)
{
    char host[16];
    EXPECT_RT(cudaErrorInvalidMemcpyDirection, cudaMemcpyAsync(host, host, 16, (cudaMemcpyKind)9, forged_stream));
    EXPECT_DETAIL_HAS("cudaMemcpyAsync: kind 9 is not a cudaMemcpyKind");
}

TEST(RuntimeMemcpyAsync, DestroyedOrForgedStream_IsInvalidResourceHandle)
{
    Buffers b;
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    ASSERT_RT_OK(cudaStreamDestroy(s));
    for (cudaStream_t bad : {s, forged_stream})
        EXPECT_RT(cudaErrorInvalidResourceHandle,
                  cudaMemcpyAsync(b.dev, b.pinned, 16, cudaMemcpyHostToDevice, bad));
}

TEST(RuntimeMemcpyAsync, PageableDestinationForHostToDevice_IsInvalidValue)
{
    Buffers b;
    std::vector<unsigned char> other(64);
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpyAsync(b.pageable.data(), other.data(), 64, cudaMemcpyHostToDevice, 0));
    EXPECT_DETAIL_HAS("cudaMemcpyAsync: dst");
    EXPECT_RT_OK(cudaMemcpyAsync(b.pageable.data(), other.data(), 64, cudaMemcpyHostToHost, 0));
    EXPECT_RT_OK(cudaStreamSynchronize(0));
}

TEST(RuntimeMemcpyAsync, PerThreadForms_DoNotWaitForOtherStreams)
{
    /* The _ptds/_ptsz forms use the per-thread stream, which (unlike the legacy stream) does
     * not wait for blocking streams: they complete while another stream is held. */
    Buffers b;
    memset(b.pinned, 0, 64);
    const char text[] = "ptsz";
    cudaStream_t blocking;
    ASSERT_RT_OK(cudaStreamCreate(&blocking));
    {
        Gate gate;
        ASSERT_RT_OK(cudaLaunchHostFunc(blocking, Gate::wait, &gate));
        ASSERT_RT_OK(cudaMemcpyAsync_ptsz(b.pinned, text, sizeof text, cudaMemcpyHostToDevice, nullptr));
        ASSERT_RT_OK(cudaStreamSynchronize_ptsz(nullptr));
        EXPECT_RT_OK(cudaStreamQuery_ptsz(nullptr));
        EXPECT_STREQ(text, static_cast<char *>(b.pinned));
        ASSERT_RT_OK(cudaMemset_ptds(b.pinned, 0x31, 2));
        EXPECT_EQ(0x31, static_cast<unsigned char *>(b.pinned)[1]);
        char out[sizeof text] = {};
        ASSERT_RT_OK(cudaMemcpy_ptds(out, b.pinned, sizeof text, cudaMemcpyDeviceToHost));
        EXPECT_STREQ("11sz", out);
        EXPECT_RT(cudaErrorNotReady, cudaStreamQuery(blocking));
        gate.open = true;
        ASSERT_RT_OK(cudaStreamSynchronize(blocking));
    }
    EXPECT_RT_OK(cudaStreamDestroy(blocking));
}

/* ==== Fills ==== */

TEST(RuntimeMemset, SetsTheLowByteOfValue)
{
    Buffers b;
    ASSERT_RT_OK(cudaMemset(b.dev, 0, Buffers::size));
    ASSERT_RT_OK(cudaMemset(static_cast<char *>(b.dev) + 3, 0x1ff, 7));
    unsigned char out[16];
    ASSERT_RT_OK(cudaMemcpy(out, b.dev, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 16; ++i)
        EXPECT_EQ(i >= 3 && i < 10 ? 0xff : 0, out[i]) << i;
}

TEST(RuntimeMemset, PageLockedHostMemory_IsFilled)
{
    Buffers b;
    ASSERT_RT_OK(cudaMemset(b.pinned, 0x11, Buffers::size));
    EXPECT_EQ(0x11, static_cast<unsigned char *>(b.pinned)[Buffers::size - 1]);
}

TEST(RuntimeMemset, ZeroBytes_SucceedsWhateverThePointer)
{
    EXPECT_RT_OK(cudaMemset(nullptr, 0, 0));
    EXPECT_RT_OK(cudaMemset(reinterpret_cast<void *>(0x1234), 0, 0));
    EXPECT_RT_OK(cudaMemsetAsync(nullptr, 0, 0, forged_stream));
}

TEST(RuntimeMemset, NullOrPageableMemory_IsInvalidValue)
{
    Buffers b;
    EXPECT_RT(cudaErrorInvalidValue, cudaMemset(nullptr, 0, 16));
    EXPECT_DETAIL_HAS("cudaMemset: devPtr is NULL");
    EXPECT_RT(cudaErrorInvalidValue, cudaMemset(b.pageable.data(), 0, 16));
    EXPECT_DETAIL_HAS("is not device memory");
    char stack[16];
    EXPECT_RT(cudaErrorInvalidValue, cudaMemset(stack, 0, sizeof stack));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemsetAsync(nullptr, 0, 16, 0));
}

TEST(RuntimeMemset, PastTheEndOfAnAllocation_IsInvalidValue)
{
    void *d = nullptr;
    ASSERT_RT_OK(cudaMalloc(&d, 4096));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemset(d, 0, 8192));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemset(static_cast<char *>(d) + 4095, 0, 2));
    EXPECT_RT_OK(cudaMemset(static_cast<char *>(d) + 4095, 0, 1));
    EXPECT_RT_OK(cudaFree(d));
}

TEST(RuntimeMemsetAsync, IsOrderedInItsStream)
{
    Buffers b;
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    memset(b.pinned, 0, Buffers::size);
    {
        Gate gate;
        ASSERT_RT_OK(cudaLaunchHostFunc(s, Gate::wait, &gate));
        ASSERT_RT_OK(cudaMemsetAsync(b.pinned, 0x5d, Buffers::size, s));
        EXPECT_EQ(0, static_cast<unsigned char *>(b.pinned)[0]);
        gate.open = true;
        ASSERT_RT_OK(cudaStreamSynchronize(s));
    }
    EXPECT_EQ(0x5d, static_cast<unsigned char *>(b.pinned)[Buffers::size - 1]);
    EXPECT_RT_OK(cudaStreamDestroy(s));
}

TEST(RuntimeMemsetAsync, DestroyedOrForgedStream_IsInvalidResourceHandle)
{
    Buffers b;
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    ASSERT_RT_OK(cudaStreamDestroy(s));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaMemsetAsync(b.dev, 0, 16, s));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaMemsetAsync(b.dev, 0, 16, forged_stream));
}

TEST(RuntimeMemset, PerThreadForms_Fill)
{
    Buffers b;
    ASSERT_RT_OK(cudaMemset_ptds(b.pinned, 0x21, 64));
    EXPECT_EQ(0x21, static_cast<unsigned char *>(b.pinned)[63]);
    ASSERT_RT_OK(cudaMemsetAsync_ptsz(b.pinned, 0x22, 64, nullptr));
    ASSERT_RT_OK(cudaStreamSynchronize(cudaStreamPerThread));
    EXPECT_EQ(0x22, static_cast<unsigned char *>(b.pinned)[63]);
    EXPECT_RT(cudaErrorInvalidValue, cudaMemset_ptds(b.pageable.data(), 0, 16));
}

/* ==== Streams ==== */

TEST(RuntimeStream, CreateAndDestroy)
{
    cudaStream_t s = nullptr;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    ASSERT_NE(nullptr, s);
    unsigned int flags = 99;
    EXPECT_OK(cuStreamGetFlags(s, &flags));
    EXPECT_EQ((unsigned int)cudaStreamDefault, flags);
    EXPECT_RT_OK(cudaStreamQuery(s));
    EXPECT_RT_OK(cudaStreamSynchronize(s));
    EXPECT_RT_OK(cudaStreamDestroy(s));

    ASSERT_RT_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    EXPECT_OK(cuStreamGetFlags(s, &flags));
    EXPECT_EQ((unsigned int)cudaStreamNonBlocking, flags);
    CUcontext c = nullptr;
    EXPECT_OK(cuStreamGetCtx(s, &c));
    EXPECT_EQ(primary_context(), c);
    EXPECT_RT_OK(cudaStreamDestroy(s));
}

TEST(RuntimeStream, Create_NullOrUnknownFlags_IsInvalidValue)
{
    cudaStream_t s;
    EXPECT_RT(cudaErrorInvalidValue, cudaStreamCreate(nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaStreamCreateWithFlags(nullptr, 0));
    for (unsigned int flags : {2u, 3u, 0xffu, 0x80000000u}) {
        EXPECT_RT(cudaErrorInvalidValue, cudaStreamCreateWithFlags(&s, flags)) << flags;
        EXPECT_DETAIL_HAS("cudaStreamCreateWithFlags: flags");
    }
}

TEST(RuntimeStream, DestroyingADefaultStream_IsInvalidResourceHandle)
{
    for (cudaStream_t s : {(cudaStream_t) nullptr, cudaStreamLegacy, cudaStreamPerThread}) {
        EXPECT_RT(cudaErrorInvalidResourceHandle, cudaStreamDestroy(s));
        EXPECT_DETAIL_HAS("is a default stream");
    }
    EXPECT_RT_OK(cudaStreamSynchronize(nullptr));
}

TEST(RuntimeStream, DestroyedOrForgedStream_IsInvalidResourceHandleEverywhere)
{
    cudaStream_t destroyed;
    ASSERT_RT_OK(cudaStreamCreate(&destroyed));
    ASSERT_RT_OK(cudaStreamDestroy(destroyed));
    cudaEvent_t e;
    ASSERT_RT_OK(cudaEventCreate(&e));
    int local = 0;
    for (cudaStream_t s : {destroyed, forged_stream, reinterpret_cast<cudaStream_t>(&local),
                           reinterpret_cast<cudaStream_t>(e)}) {
        EXPECT_RT(cudaErrorInvalidResourceHandle, cudaStreamDestroy(s));
        EXPECT_RT(cudaErrorInvalidResourceHandle, cudaStreamSynchronize(s));
        EXPECT_RT(cudaErrorInvalidResourceHandle, cudaStreamQuery(s));
        EXPECT_RT(cudaErrorInvalidResourceHandle, cudaStreamWaitEvent(s, e, 0));
        EXPECT_RT(cudaErrorInvalidResourceHandle, cudaLaunchHostFunc(s, sleep_20ms, nullptr));
        EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventRecord(e, s));
        EXPECT_RT(cudaErrorInvalidResourceHandle, cudaStreamSynchronize_ptsz(s));
    }
    EXPECT_RT_OK(cudaEventDestroy(e));
}

TEST(RuntimeStream, DefaultStreams_CanBeSynchronizedAndQueried)
{
    for (cudaStream_t s : {(cudaStream_t) nullptr, cudaStreamLegacy, cudaStreamPerThread}) {
        EXPECT_RT_OK(cudaStreamSynchronize(s));
        EXPECT_RT_OK(cudaStreamQuery(s));
    }
}

TEST(RuntimeStream, Query_PendingWork_IsNotReadyUntilDone)
{
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    {
        Gate gate;
        ASSERT_RT_OK(cudaLaunchHostFunc(s, Gate::wait, &gate));
        EXPECT_RT(cudaErrorNotReady, cudaStreamQuery(s));
        gate.open = true;
        EXPECT_RT_OK(cudaStreamSynchronize(s));
    }
    EXPECT_RT_OK(cudaStreamQuery(s));
    EXPECT_RT_OK(cudaStreamDestroy(s));
}

TEST(RuntimeStream, LaunchHostFunc_RunsInOrder)
{
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    struct Step {
        std::vector<int> *order;
        int id;
        static void CUDART_CB run(void *p)
        {
            auto *st = static_cast<Step *>(p);
            st->order->push_back(st->id);
        }
    };
    std::vector<int> order;
    std::vector<Step> steps(50);
    for (int i = 0; i < 50; ++i) {
        steps[i] = {&order, i};
        ASSERT_RT_OK(cudaLaunchHostFunc(s, Step::run, &steps[i]));
    }
    ASSERT_RT_OK(cudaStreamSynchronize(s));
    ASSERT_EQ(50u, order.size());
    for (int i = 0; i < 50; ++i)
        EXPECT_EQ(i, order[i]);
    EXPECT_RT_OK(cudaStreamDestroy(s));
}

TEST(RuntimeStream, LaunchHostFunc_NullFunction_IsInvalidValue)
{
    EXPECT_RT(cudaErrorInvalidValue, cudaLaunchHostFunc(nullptr, nullptr, nullptr));
    EXPECT_DETAIL_HAS("cudaLaunchHostFunc: fn is NULL");
    EXPECT_RT(cudaErrorInvalidValue, cudaLaunchHostFunc_ptsz(nullptr, nullptr, nullptr));
}

TEST(RuntimeStream, WaitEvent_OrdersWorkAcrossStreams)
{
    cudaStream_t a, b;
    ASSERT_RT_OK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    ASSERT_RT_OK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    cudaEvent_t e;
    ASSERT_RT_OK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    Flag done;
    {
        Gate gate;
        ASSERT_RT_OK(cudaLaunchHostFunc(a, Gate::wait, &gate));
        ASSERT_RT_OK(cudaEventRecord(e, a));
        ASSERT_RT_OK(cudaStreamWaitEvent(b, e));
        ASSERT_RT_OK(cudaLaunchHostFunc(b, Flag::raise, &done));
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        EXPECT_FALSE(done.set);
        EXPECT_RT(cudaErrorNotReady, cudaStreamQuery(b));
        gate.open = true;
        ASSERT_RT_OK(cudaStreamSynchronize(b));
    }
    EXPECT_TRUE(done.set);
    EXPECT_RT_OK(cudaStreamSynchronize(a));
    EXPECT_RT_OK(cudaEventDestroy(e));
    EXPECT_RT_OK(cudaStreamDestroy(a));
    EXPECT_RT_OK(cudaStreamDestroy(b));
}

TEST(RuntimeStream, WaitEvent_BadArguments)
{
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    cudaEvent_t e;
    ASSERT_RT_OK(cudaEventCreate(&e));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaStreamWaitEvent(s, nullptr, 0));
    EXPECT_DETAIL_HAS("cudaStreamWaitEvent: event is NULL");
    EXPECT_RT(cudaErrorInvalidValue, cudaStreamWaitEvent(s, e, 2));
    EXPECT_RT(cudaErrorInvalidValue, cudaStreamWaitEvent(s, e, 0xff));
    EXPECT_RT(cudaErrorInvalidValue, cudaStreamWaitEvent(s, nullptr, 2)); /* flags first */
    /* External waits belong to stream capture, as on NVIDIA's runtime. */
    ASSERT_RT_OK(cudaEventRecord(e, s));
    EXPECT_RT(cudaErrorIllegalState, cudaStreamWaitEvent(s, e, cudaEventWaitExternal));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaStreamWaitEvent(s, forged_event, 0));
    cudaEvent_t destroyed;
    ASSERT_RT_OK(cudaEventCreate(&destroyed));
    ASSERT_RT_OK(cudaEventDestroy(destroyed));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaStreamWaitEvent(s, destroyed, 0));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaStreamWaitEvent_ptsz(nullptr, destroyed, 0));
    /* An event never recorded is complete: waiting on it waits for nothing. */
    EXPECT_RT_OK(cudaStreamWaitEvent(s, e, 0));
    EXPECT_RT_OK(cudaStreamWaitEvent_ptsz(nullptr, e, 0));
    EXPECT_RT_OK(cudaStreamSynchronize(s));
    EXPECT_RT_OK(cudaEventDestroy(e));
    EXPECT_RT_OK(cudaStreamDestroy(s));
}

/* ==== Events ==== */

TEST(RuntimeEvent, ElapsedTime_MeasuresTheWorkBetweenTwoEvents)
{
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    cudaEvent_t start, end;
    ASSERT_RT_OK(cudaEventCreate(&start));
    ASSERT_RT_OK(cudaEventCreateWithFlags(&end, cudaEventBlockingSync));
    ASSERT_RT_OK(cudaEventRecord(start, s));
    ASSERT_RT_OK(cudaLaunchHostFunc(s, sleep_20ms, nullptr));
    ASSERT_RT_OK(cudaEventRecord(end, s));
    ASSERT_RT_OK(cudaEventSynchronize(end));
    EXPECT_RT_OK(cudaEventQuery(end));
    float ms = -1;
    ASSERT_RT_OK(cudaEventElapsedTime(&ms, start, end));
    EXPECT_GE(ms, 15.0f);
    EXPECT_LT(ms, 5000.0f);
    EXPECT_RT_OK(cudaEventDestroy(start));
    EXPECT_RT_OK(cudaEventDestroy(end));
    EXPECT_RT_OK(cudaStreamDestroy(s));
}

TEST(RuntimeEvent, RecordInTheDefaultStream_ByDefaultArgument)
{
    cudaEvent_t e;
    ASSERT_RT_OK(cudaEventCreate(&e));
    ASSERT_RT_OK(cudaEventRecord(e));
    ASSERT_RT_OK(cudaEventRecord_ptsz(e, nullptr));
    EXPECT_RT_OK(cudaEventSynchronize(e));
    EXPECT_RT_OK(cudaEventDestroy(e));
}

TEST(RuntimeEvent, CreateWithFlags_Validation)
{
    cudaEvent_t e;
    EXPECT_RT(cudaErrorInvalidValue, cudaEventCreate(nullptr));
    EXPECT_DETAIL_HAS("cudaEventCreate: event is NULL");
    EXPECT_RT(cudaErrorInvalidValue, cudaEventCreateWithFlags(nullptr, 0));
    for (unsigned int flags : {8u, 0xffu, 0x80000000u}) {
        EXPECT_RT(cudaErrorInvalidValue, cudaEventCreateWithFlags(&e, flags)) << flags;
        EXPECT_DETAIL_HAS("cudaEventCreateWithFlags: flags");
    }
    /* An interprocess event cannot time. */
    EXPECT_RT(cudaErrorInvalidValue, cudaEventCreateWithFlags(&e, cudaEventInterprocess));
    for (unsigned int flags : {0u, 1u, 2u, 3u, 6u, 7u}) {
        ASSERT_RT_OK(cudaEventCreateWithFlags(&e, flags)) << flags;
        EXPECT_RT_OK(cudaEventDestroy(e));
    }
}

TEST(RuntimeEvent, NullEvent_IsInvalidResourceHandle)
{
    cudaEvent_t e;
    ASSERT_RT_OK(cudaEventCreate(&e));
    ASSERT_RT_OK(cudaEventRecord(e, 0));
    float ms;
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventRecord(nullptr, 0));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventQuery(nullptr));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventSynchronize(nullptr));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventDestroy(nullptr));
    EXPECT_DETAIL_HAS("cudaEventDestroy: event is NULL");
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventElapsedTime(&ms, nullptr, e));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventElapsedTime(&ms, e, nullptr));
    EXPECT_RT_OK(cudaEventDestroy(e));
}

TEST(RuntimeEvent, ElapsedTime_NullMs_IsInvalidValue)
{
    cudaEvent_t e;
    ASSERT_RT_OK(cudaEventCreate(&e));
    ASSERT_RT_OK(cudaEventRecord(e, 0));
    ASSERT_RT_OK(cudaEventSynchronize(e));
    EXPECT_RT(cudaErrorInvalidValue, cudaEventElapsedTime(nullptr, e, e));
    EXPECT_DETAIL_HAS("cudaEventElapsedTime: ms is NULL");
    EXPECT_RT(cudaErrorInvalidValue, cudaEventElapsedTime(nullptr, nullptr, nullptr));
    EXPECT_RT_OK(cudaEventDestroy(e));
}

TEST(RuntimeEvent, ElapsedTime_UnrecordedOrUntimedEvents_AreInvalidResourceHandle)
{
    cudaEvent_t timed, untimed, unrecorded;
    ASSERT_RT_OK(cudaEventCreate(&timed));
    ASSERT_RT_OK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
    ASSERT_RT_OK(cudaEventCreate(&unrecorded));
    ASSERT_RT_OK(cudaEventRecord(timed, 0));
    ASSERT_RT_OK(cudaEventRecord(untimed, 0));
    ASSERT_RT_OK(cudaDeviceSynchronize());
    float ms;
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventElapsedTime(&ms, timed, untimed));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventElapsedTime(&ms, untimed, timed));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventElapsedTime(&ms, unrecorded, timed));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventElapsedTime(&ms, timed, unrecorded));
    EXPECT_RT_OK(cudaEventElapsedTime(&ms, timed, timed));
    EXPECT_EQ(0.0f, ms);
    for (cudaEvent_t e : {timed, untimed, unrecorded})
        EXPECT_RT_OK(cudaEventDestroy(e));
}

TEST(RuntimeEvent, NeverRecorded_IsComplete)
{
    cudaEvent_t e;
    ASSERT_RT_OK(cudaEventCreate(&e));
    EXPECT_RT_OK(cudaEventQuery(e));
    EXPECT_RT_OK(cudaEventSynchronize(e));
    EXPECT_RT_OK(cudaEventDestroy(e));
}

TEST(RuntimeEvent, Query_PendingWork_IsNotReadyUntilDone)
{
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    cudaEvent_t e;
    ASSERT_RT_OK(cudaEventCreate(&e));
    {
        Gate gate;
        ASSERT_RT_OK(cudaLaunchHostFunc(s, Gate::wait, &gate));
        ASSERT_RT_OK(cudaEventRecord(e, s));
        EXPECT_RT(cudaErrorNotReady, cudaEventQuery(e));
        gate.open = true;
        EXPECT_RT_OK(cudaEventSynchronize(e));
    }
    EXPECT_RT_OK(cudaEventQuery(e));
    EXPECT_RT_OK(cudaEventDestroy(e));
    EXPECT_RT_OK(cudaStreamDestroy(s));
}

TEST(RuntimeEvent, DestroyedOrForgedEvent_IsInvalidResourceHandleEverywhere)
{
    cudaEvent_t destroyed, good;
    ASSERT_RT_OK(cudaEventCreate(&destroyed));
    ASSERT_RT_OK(cudaEventDestroy(destroyed));
    ASSERT_RT_OK(cudaEventCreate(&good));
    ASSERT_RT_OK(cudaEventRecord(good, 0));
    ASSERT_RT_OK(cudaEventSynchronize(good));
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    float ms;
    for (cudaEvent_t e : {destroyed, forged_event, reinterpret_cast<cudaEvent_t>(s)}) {
        EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventDestroy(e));
        EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventRecord(e, 0));
        EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventQuery(e));
        EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventSynchronize(e));
        EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventElapsedTime(&ms, e, good));
        EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventElapsedTime(&ms, good, e));
        EXPECT_RT(cudaErrorInvalidResourceHandle, cudaStreamWaitEvent(s, e, 0));
    }
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaGetLastError());
    EXPECT_RT_OK(cudaEventDestroy(good));
    EXPECT_RT_OK(cudaStreamDestroy(s));
}
