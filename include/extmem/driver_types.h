/*
 * extmem/driver_types.h: the types of the CUDA runtime API subset that extmem implements.
 *
 * Written for extmem from the CUDA runtime documentation. Names, values and layouts match
 * NVIDIA's CUDA 13.0 headers, so code written for the runtime compiles here unchanged and a
 * binary built against NVIDIA's headers can run on libextmem. Included by
 * extmem/cuda_runtime_api.h; it needs no other runtime header.
 */
#ifndef EXTMEM_DRIVER_TYPES_H
#define EXTMEM_DRIVER_TYPES_H

#include <stddef.h>

/* The handle types (CUstream_st, CUevent_st) and CUuuid_st are shared with the driver API,
 * as in NVIDIA's headers: a cudaStream_t is a CUstream. */
#include "extmem/cuda.h"
#include "extmem/vector_types.h"

/* This header stands in for NVIDIA's: keep the include guard that code tests for. */
#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__
#endif

#if defined(_WIN32)
#define CUDART_CB __stdcall
#else
#define CUDART_CB
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Flags -------------------------------------------------------------------------- */

/* cudaHostAlloc */
#define cudaHostAllocDefault       0x00
#define cudaHostAllocPortable      0x01
#define cudaHostAllocMapped        0x02
#define cudaHostAllocWriteCombined 0x04

/* cudaHostRegister */
#define cudaHostRegisterDefault  0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped   0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08

/* cudaStreamCreateWithFlags */
#define cudaStreamDefault     0x00
#define cudaStreamNonBlocking 0x01

/* The legacy and per-thread default streams as handle values (the same values as
 * CU_STREAM_LEGACY and CU_STREAM_PER_THREAD). */
#define cudaStreamLegacy    ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)

/* cudaEventCreateWithFlags */
#define cudaEventDefault       0x00
#define cudaEventBlockingSync  0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess  0x04

/* cudaEventRecordWithFlags and cudaStreamWaitEvent */
#define cudaEventRecordDefault  0x00
#define cudaEventRecordExternal 0x01
#define cudaEventWaitDefault    0x00
#define cudaEventWaitExternal   0x01

/* cudaSetDeviceFlags */
#define cudaDeviceScheduleAuto         0x00
#define cudaDeviceScheduleSpin         0x01
#define cudaDeviceScheduleYield        0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync         0x04
#define cudaDeviceScheduleMask         0x07
#define cudaDeviceMapHost              0x08
#define cudaDeviceLmemResizeToMax      0x10
#define cudaDeviceSyncMemops           0x80
#define cudaDeviceMask                 0xff

/* cudaMallocArray */
#define cudaArrayDefault          0x00
#define cudaArrayLayered          0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap          0x04
#define cudaArrayTextureGather    0x08
#define cudaArrayColorAttachment  0x20
#define cudaArraySparse           0x40
#define cudaArrayDeferredMapping  0x80

/* cudaIpcOpenMemHandle */
#define cudaIpcMemLazyEnablePeerAccess 0x01

/* cudaMallocManaged and cudaStreamAttachMemAsync */
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost   0x02
#define cudaMemAttachSingle 0x04

/* Special device ordinals */
#define cudaCpuDeviceId     ((int)-1)
#define cudaInvalidDeviceId ((int)-2)

/* cudaInitDevice */
#define cudaInitDeviceFlagsAreValid 0x01

/* ---- Result codes --------------------------------------------------------------------
 * The runtime's own numbering: most values equal the CUresult of the same meaning, but the
 * names differ and some codes exist on one side only. cudaGetErrorName and
 * cudaGetErrorString describe each. */
enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorCudartUnloading = 4,
    cudaErrorProfilerDisabled = 5,
    cudaErrorProfilerNotInitialized = 6,
    cudaErrorProfilerAlreadyStarted = 7,
    cudaErrorProfilerAlreadyStopped = 8,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidHostPointer = 16,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidTexture = 18,
    cudaErrorInvalidTextureBinding = 19,
    cudaErrorInvalidChannelDescriptor = 20,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorAddressOfConstant = 22,
    cudaErrorTextureFetchFailed = 23,
    cudaErrorTextureNotBound = 24,
    cudaErrorSynchronizationError = 25,
    cudaErrorInvalidFilterSetting = 26,
    cudaErrorInvalidNormSetting = 27,
    cudaErrorMixedDeviceExecution = 28,
    cudaErrorNotYetImplemented = 31,
    cudaErrorMemoryValueTooLarge = 32,
    cudaErrorStubLibrary = 34,
    cudaErrorInsufficientDriver = 35,
    cudaErrorCallRequiresNewerDriver = 36,
    cudaErrorInvalidSurface = 37,
    cudaErrorDuplicateVariableName = 43,
    cudaErrorDuplicateTextureName = 44,
    cudaErrorDuplicateSurfaceName = 45,
    cudaErrorDevicesUnavailable = 46,
    cudaErrorIncompatibleDriverContext = 49,
    cudaErrorMissingConfiguration = 52,
    cudaErrorPriorLaunchFailure = 53,
    cudaErrorLaunchMaxDepthExceeded = 65,
    cudaErrorLaunchFileScopedTex = 66,
    cudaErrorLaunchFileScopedSurf = 67,
    cudaErrorSyncDepthExceeded = 68,
    cudaErrorLaunchPendingCountExceeded = 69,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorDeviceNotLicensed = 102,
    cudaErrorSoftwareValidityNotEstablished = 103,
    cudaErrorStartupFailure = 127,
    cudaErrorInvalidKernelImage = 200,
    cudaErrorDeviceUninitialized = 201,
    cudaErrorMapBufferObjectFailed = 205,
    cudaErrorUnmapBufferObjectFailed = 206,
    cudaErrorArrayIsMapped = 207,
    cudaErrorAlreadyMapped = 208,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorAlreadyAcquired = 210,
    cudaErrorNotMapped = 211,
    cudaErrorNotMappedAsArray = 212,
    cudaErrorNotMappedAsPointer = 213,
    cudaErrorECCUncorrectable = 214,
    cudaErrorUnsupportedLimit = 215,
    cudaErrorDeviceAlreadyInUse = 216,
    cudaErrorPeerAccessUnsupported = 217,
    cudaErrorInvalidPtx = 218,
    cudaErrorInvalidGraphicsContext = 219,
    cudaErrorNvlinkUncorrectable = 220,
    cudaErrorJitCompilerNotFound = 221,
    cudaErrorUnsupportedPtxVersion = 222,
    cudaErrorJitCompilationDisabled = 223,
    cudaErrorUnsupportedExecAffinity = 224,
    cudaErrorUnsupportedDevSideSync = 225,
    cudaErrorContained = 226,
    cudaErrorInvalidSource = 300,
    cudaErrorFileNotFound = 301,
    cudaErrorSharedObjectSymbolNotFound = 302,
    cudaErrorSharedObjectInitFailed = 303,
    cudaErrorOperatingSystem = 304,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorIllegalState = 401,
    cudaErrorLossyQuery = 402,
    cudaErrorSymbolNotFound = 500,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorLaunchIncompatibleTexturing = 703,
    cudaErrorPeerAccessAlreadyEnabled = 704,
    cudaErrorPeerAccessNotEnabled = 705,
    cudaErrorSetOnActiveProcess = 708,
    cudaErrorContextIsDestroyed = 709,
    cudaErrorAssert = 710,
    cudaErrorTooManyPeers = 711,
    cudaErrorHostMemoryAlreadyRegistered = 712,
    cudaErrorHostMemoryNotRegistered = 713,
    cudaErrorHardwareStackError = 714,
    cudaErrorIllegalInstruction = 715,
    cudaErrorMisalignedAddress = 716,
    cudaErrorInvalidAddressSpace = 717,
    cudaErrorInvalidPc = 718,
    cudaErrorLaunchFailure = 719,
    cudaErrorCooperativeLaunchTooLarge = 720,
    cudaErrorTensorMemoryLeak = 721,
    cudaErrorNotPermitted = 800,
    cudaErrorNotSupported = 801,
    cudaErrorSystemNotReady = 802,
    cudaErrorSystemDriverMismatch = 803,
    cudaErrorCompatNotSupportedOnDevice = 804,
    cudaErrorMpsConnectionFailed = 805,
    cudaErrorMpsRpcFailure = 806,
    cudaErrorMpsServerNotReady = 807,
    cudaErrorMpsMaxClientsReached = 808,
    cudaErrorMpsMaxConnectionsReached = 809,
    cudaErrorMpsClientTerminated = 810,
    cudaErrorCdpNotSupported = 811,
    cudaErrorCdpVersionMismatch = 812,
    cudaErrorStreamCaptureUnsupported = 900,
    cudaErrorStreamCaptureInvalidated = 901,
    cudaErrorStreamCaptureMerge = 902,
    cudaErrorStreamCaptureUnmatched = 903,
    cudaErrorStreamCaptureUnjoined = 904,
    cudaErrorStreamCaptureIsolation = 905,
    cudaErrorStreamCaptureImplicit = 906,
    cudaErrorCapturedEvent = 907,
    cudaErrorStreamCaptureWrongThread = 908,
    cudaErrorTimeout = 909,
    cudaErrorGraphExecUpdateFailure = 910,
    cudaErrorExternalDevice = 911,
    cudaErrorInvalidClusterSize = 912,
    cudaErrorFunctionNotLoaded = 913,
    cudaErrorInvalidResourceType = 914,
    cudaErrorInvalidResourceConfiguration = 915,
    cudaErrorUnknown = 999,
    cudaErrorApiFailureBase = 10000 /* deprecated since CUDA 4.1; never returned */
};
typedef enum cudaError cudaError_t;

/* ---- Handles ------------------------------------------------------------------------ */
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUuuid_st cudaUUID_t;

/* A function queued in a stream by cudaLaunchHostFunc. */
typedef void (CUDART_CB *cudaHostFn_t)(void *userData);

/* ---- Copies -------------------------------------------------------------------------- */
enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4 /* the direction follows from the addresses (unified addressing) */
};

/* ---- Device attributes -----------------------------------------------------------------
 * The values are those of CUdevice_attribute; the runtime leaves some out or names them
 * Reserved, but cudaDeviceGetAttribute answers every value below cudaDevAttrMax. */
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxPitch = 11,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrClockRate = 13,
    cudaDevAttrTextureAlignment = 14,
    cudaDevAttrGpuOverlap = 15,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrKernelExecTimeout = 17,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrComputeMode = 20,
    cudaDevAttrMaxTexture1DWidth = 21,
    cudaDevAttrMaxTexture2DWidth = 22,
    cudaDevAttrMaxTexture2DHeight = 23,
    cudaDevAttrMaxTexture3DWidth = 24,
    cudaDevAttrMaxTexture3DHeight = 25,
    cudaDevAttrMaxTexture3DDepth = 26,
    cudaDevAttrMaxTexture2DLayeredWidth = 27,
    cudaDevAttrMaxTexture2DLayeredHeight = 28,
    cudaDevAttrMaxTexture2DLayeredLayers = 29,
    cudaDevAttrSurfaceAlignment = 30,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrEccEnabled = 32,
    cudaDevAttrPciBusId = 33,
    cudaDevAttrPciDeviceId = 34,
    cudaDevAttrTccDriver = 35,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrMaxTexture1DLayeredWidth = 42,
    cudaDevAttrMaxTexture1DLayeredLayers = 43,
    cudaDevAttrMaxTexture2DGatherWidth = 45,
    cudaDevAttrMaxTexture2DGatherHeight = 46,
    cudaDevAttrMaxTexture3DWidthAlt = 47,
    cudaDevAttrMaxTexture3DHeightAlt = 48,
    cudaDevAttrMaxTexture3DDepthAlt = 49,
    cudaDevAttrPciDomainId = 50,
    cudaDevAttrTexturePitchAlignment = 51,
    cudaDevAttrMaxTextureCubemapWidth = 52,
    cudaDevAttrMaxTextureCubemapLayeredWidth = 53,
    cudaDevAttrMaxTextureCubemapLayeredLayers = 54,
    cudaDevAttrMaxSurface1DWidth = 55,
    cudaDevAttrMaxSurface2DWidth = 56,
    cudaDevAttrMaxSurface2DHeight = 57,
    cudaDevAttrMaxSurface3DWidth = 58,
    cudaDevAttrMaxSurface3DHeight = 59,
    cudaDevAttrMaxSurface3DDepth = 60,
    cudaDevAttrMaxSurface1DLayeredWidth = 61,
    cudaDevAttrMaxSurface1DLayeredLayers = 62,
    cudaDevAttrMaxSurface2DLayeredWidth = 63,
    cudaDevAttrMaxSurface2DLayeredHeight = 64,
    cudaDevAttrMaxSurface2DLayeredLayers = 65,
    cudaDevAttrMaxSurfaceCubemapWidth = 66,
    cudaDevAttrMaxSurfaceCubemapLayeredWidth = 67,
    cudaDevAttrMaxSurfaceCubemapLayeredLayers = 68,
    cudaDevAttrMaxTexture1DLinearWidth = 69,
    cudaDevAttrMaxTexture2DLinearWidth = 70,
    cudaDevAttrMaxTexture2DLinearHeight = 71,
    cudaDevAttrMaxTexture2DLinearPitch = 72,
    cudaDevAttrMaxTexture2DMipmappedWidth = 73,
    cudaDevAttrMaxTexture2DMipmappedHeight = 74,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxTexture1DMipmappedWidth = 77,
    cudaDevAttrStreamPrioritiesSupported = 78,
    cudaDevAttrGlobalL1CacheSupported = 79,
    cudaDevAttrLocalL1CacheSupported = 80,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83,
    cudaDevAttrIsMultiGpuBoard = 84,
    cudaDevAttrMultiGpuBoardGroupID = 85,
    cudaDevAttrHostNativeAtomicSupported = 86,
    cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
    cudaDevAttrPageableMemoryAccess = 88,
    cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrComputePreemptionSupported = 90,
    cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
    cudaDevAttrReserved92 = 92,
    cudaDevAttrReserved93 = 93,
    cudaDevAttrReserved94 = 94,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrReserved96 = 96,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrCanFlushRemoteWrites = 98,
    cudaDevAttrHostRegisterSupported = 99,
    cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
    cudaDevAttrDirectManagedMemAccessFromHost = 101,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrMaxPersistingL2CacheSize = 108,
    cudaDevAttrMaxAccessPolicyWindowSize = 109,
    cudaDevAttrReservedSharedMemoryPerBlock = 111,
    cudaDevAttrSparseCudaArraySupported = 112,
    cudaDevAttrHostRegisterReadOnlySupported = 113,
    cudaDevAttrTimelineSemaphoreInteropSupported = 114,
    cudaDevAttrMemoryPoolsSupported = 115,
    cudaDevAttrGPUDirectRDMASupported = 116,
    cudaDevAttrGPUDirectRDMAFlushWritesOptions = 117,
    cudaDevAttrGPUDirectRDMAWritesOrdering = 118,
    cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
    cudaDevAttrClusterLaunch = 120,
    cudaDevAttrDeferredMappingCudaArraySupported = 121,
    cudaDevAttrReserved122 = 122,
    cudaDevAttrReserved123 = 123,
    cudaDevAttrReserved124 = 124,
    cudaDevAttrIpcEventSupport = 125,
    cudaDevAttrMemSyncDomainCount = 126,
    cudaDevAttrReserved127 = 127,
    cudaDevAttrReserved128 = 128,
    cudaDevAttrReserved129 = 129,
    cudaDevAttrNumaConfig = 130,
    cudaDevAttrNumaId = 131,
    cudaDevAttrReserved132 = 132,
    cudaDevAttrMpsEnabled = 133,
    cudaDevAttrHostNumaId = 134,
    cudaDevAttrD3D12CigSupported = 135,
    cudaDevAttrVulkanCigSupported = 138,
    cudaDevAttrGpuPciDeviceId = 139,
    cudaDevAttrGpuPciSubsystemId = 140,
    cudaDevAttrReserved141 = 141,
    cudaDevAttrHostNumaMemoryPoolsSupported = 142,
    cudaDevAttrHostNumaMultinodeIpcSupported = 143,
    cudaDevAttrHostMemoryPoolsSupported = 144,
    cudaDevAttrReserved145 = 145,
    cudaDevAttrOnlyPartialHostNativeAtomicSupported = 147,
    cudaDevAttrMax
};

/* ---- Device properties ------------------------------------------------------------------
 * The CUDA 13.0 layout (1008 bytes on LP64): CUDA 13 dropped the clock rates, the compute
 * mode, the kernel timeout and the other fields that now live only behind
 * cudaDeviceGetAttribute. Each field equals the device attribute of the same meaning;
 * cudaGetDeviceProperties lists the pairs. */
struct cudaDeviceProp {
    char name[256];
    cudaUUID_t uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int multiProcessorCount;
    int integrated;
    int canMapHostMemory;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int deviceNumaConfig;
    int deviceNumaId;
    int mpsEnabled;
    int hostNumaId;
    unsigned int gpuPciDeviceID;
    unsigned int gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
    int reserved[56];
};

/* ---- External memory ------------------------------------------------------------------ */
typedef struct CUexternalMemory_st *cudaExternalMemory_t;

enum cudaExternalMemoryHandleType {
    cudaExternalMemoryHandleTypeOpaqueFd         = 1,
    cudaExternalMemoryHandleTypeOpaqueWin32      = 2,
    cudaExternalMemoryHandleTypeOpaqueWin32Kmt   = 3,
    cudaExternalMemoryHandleTypeD3D12Heap        = 4,
    cudaExternalMemoryHandleTypeD3D12Resource    = 5,
    cudaExternalMemoryHandleTypeD3D11Resource    = 6,
    cudaExternalMemoryHandleTypeD3D11ResourceKmt = 7,
    cudaExternalMemoryHandleTypeNvSciBuf         = 8
};

#define cudaExternalMemoryDedicated 0x1

struct cudaExternalMemoryHandleDesc {
    enum cudaExternalMemoryHandleType type;
    union {
        int fd;
        struct {
            void *handle;
            const void *name;
        } win32;
        const void *nvSciBufObject;
    } handle;
    unsigned long long size;
    unsigned int flags;
    unsigned int reserved[16];
};

struct cudaExternalMemoryBufferDesc {
    unsigned long long offset;
    unsigned long long size;
    unsigned int flags;
    unsigned int reserved[16];
};

/* ---- External semaphores --------------------------------------------------------------- */
typedef struct CUexternalSemaphore_st *cudaExternalSemaphore_t;

enum cudaExternalSemaphoreHandleType {
    cudaExternalSemaphoreHandleTypeOpaqueFd              = 1,
    cudaExternalSemaphoreHandleTypeOpaqueWin32           = 2,
    cudaExternalSemaphoreHandleTypeOpaqueWin32Kmt        = 3,
    cudaExternalSemaphoreHandleTypeD3D12Fence            = 4,
    cudaExternalSemaphoreHandleTypeD3D11Fence            = 5,
    cudaExternalSemaphoreHandleTypeNvSciSync             = 6,
    cudaExternalSemaphoreHandleTypeKeyedMutex            = 7,
    cudaExternalSemaphoreHandleTypeKeyedMutexKmt         = 8,
    cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd   = 9,
    cudaExternalSemaphoreHandleTypeTimelineSemaphoreWin32 = 10
};

#define cudaExternalSemaphoreSignalSkipNvSciBufMemSync 0x01
#define cudaExternalSemaphoreWaitSkipNvSciBufMemSync 0x02

struct cudaExternalSemaphoreHandleDesc {
    enum cudaExternalSemaphoreHandleType type;
    union {
        int fd;
        struct {
            void *handle;
            const void *name;
        } win32;
        const void *nvSciSyncObj;
    } handle;
    unsigned int flags;
    unsigned int reserved[16];
};

struct cudaExternalSemaphoreSignalParams {
    struct {
        struct {
            unsigned long long value;
        } fence;
        union {
            void *fence;
            unsigned long long reserved;
        } nvSciSync;
        struct {
            unsigned long long key;
        } keyedMutex;
        unsigned int reserved[12];
    } params;
    unsigned int flags;
    unsigned int reserved[16];
};

struct cudaExternalSemaphoreWaitParams {
    struct {
        struct {
            unsigned long long value;
        } fence;
        union {
            void *fence;
            unsigned long long reserved;
        } nvSciSync;
        struct {
            unsigned long long key;
            unsigned int timeoutMs;
        } keyedMutex;
        unsigned int reserved[10];
    } params;
    unsigned int flags;
    unsigned int reserved[16];
};

/* ---- Interprocess handles ------------------------------------------------------------- */
#define CUDA_IPC_HANDLE_SIZE 64

typedef struct cudaIpcEventHandle_st {
    char reserved[CUDA_IPC_HANDLE_SIZE];
} cudaIpcEventHandle_t;

typedef struct cudaIpcMemHandle_st {
    char reserved[CUDA_IPC_HANDLE_SIZE];
} cudaIpcMemHandle_t;

/* ---- Kernels -------------------------------------------------------------------------- */
/* A kernel as __cudaGetKernel names it (nvcc's launch path), and a module's function. */
typedef struct CUkern_st *cudaKernel_t;
typedef struct CUfunc_st *cudaFunction_t;

enum cudaFuncCache {
    cudaFuncCachePreferNone   = 0,
    cudaFuncCachePreferShared = 1,
    cudaFuncCachePreferL1     = 2,
    cudaFuncCachePreferEqual  = 3
};

/* Shared memory bank sizes: accepted and ignored (fixed since compute capability 5.0). */
enum cudaSharedMemConfig {
    cudaSharedMemBankSizeDefault   = 0,
    cudaSharedMemBankSizeFourByte  = 1,
    cudaSharedMemBankSizeEightByte = 2
};

/* What cudaDeviceGetP2PAttribute asks about a pair of devices. */
enum cudaDeviceP2PAttr {
    cudaDevP2PAttrPerformanceRank = 1,
    cudaDevP2PAttrAccessSupported = 2,
    cudaDevP2PAttrNativeAtomicSupported = 3,
    cudaDevP2PAttrCudaArrayAccessSupported = 4,
    cudaDevP2PAttrOnlyPartialNativeAtomicSupported = 5
};

/* A texel's channels: bits per channel (x, y, z, w) and their kind. The plain kinds; the
 * normalized and compressed ones follow NVIDIA's numbering from 4. */
enum cudaChannelFormatKind {
    cudaChannelFormatKindSigned = 0,
    cudaChannelFormatKindUnsigned = 1,
    cudaChannelFormatKindFloat = 2,
    cudaChannelFormatKindNone = 3,
    cudaChannelFormatKindNV12 = 4,
    /* Normalized integers: the channel count is the kind's (8X2: two 8-bit channels). */
    cudaChannelFormatKindUnsignedNormalized8X1 = 5,
    cudaChannelFormatKindUnsignedNormalized8X2 = 6,
    cudaChannelFormatKindUnsignedNormalized8X4 = 7,
    cudaChannelFormatKindUnsignedNormalized16X1 = 8,
    cudaChannelFormatKindUnsignedNormalized16X2 = 9,
    cudaChannelFormatKindUnsignedNormalized16X4 = 10,
    cudaChannelFormatKindSignedNormalized8X1 = 11,
    cudaChannelFormatKindSignedNormalized8X2 = 12,
    cudaChannelFormatKindSignedNormalized8X4 = 13,
    cudaChannelFormatKindSignedNormalized16X1 = 14,
    cudaChannelFormatKindSignedNormalized16X2 = 15,
    cudaChannelFormatKindSignedNormalized16X4 = 16,
    /* Block-compressed (BC1 to BC7, 4x4 texels a block). */
    cudaChannelFormatKindUnsignedBlockCompressed1 = 17,
    cudaChannelFormatKindUnsignedBlockCompressed1SRGB = 18,
    cudaChannelFormatKindUnsignedBlockCompressed2 = 19,
    cudaChannelFormatKindUnsignedBlockCompressed2SRGB = 20,
    cudaChannelFormatKindUnsignedBlockCompressed3 = 21,
    cudaChannelFormatKindUnsignedBlockCompressed3SRGB = 22,
    cudaChannelFormatKindUnsignedBlockCompressed4 = 23,
    cudaChannelFormatKindSignedBlockCompressed4 = 24,
    cudaChannelFormatKindUnsignedBlockCompressed5 = 25,
    cudaChannelFormatKindSignedBlockCompressed5 = 26,
    cudaChannelFormatKindUnsignedBlockCompressed6H = 27,
    cudaChannelFormatKindSignedBlockCompressed6H = 28,
    cudaChannelFormatKindUnsignedBlockCompressed7 = 29,
    cudaChannelFormatKindUnsignedBlockCompressed7SRGB = 30,
    /* Three 10-bit channels and a 2-bit one, normalized. */
    cudaChannelFormatKindUnsignedNormalized1010102 = 31
};
struct cudaChannelFormatDesc {
    int x;
    int y;
    int z;
    int w;
    enum cudaChannelFormatKind f;
};

enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize        = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout     = 9,
    cudaFuncAttributeClusterDimMustBeSet               = 10,
    cudaFuncAttributeRequiredClusterWidth              = 11,
    cudaFuncAttributeRequiredClusterHeight             = 12,
    cudaFuncAttributeRequiredClusterDepth              = 13,
    cudaFuncAttributeNonPortableClusterSizeAllowed     = 14,
    cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
    cudaFuncAttributeMax
};

struct cudaFuncAttributes {
    size_t sharedSizeBytes;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
    int clusterDimMustBeSet;
    int requiredClusterWidth;
    int requiredClusterHeight;
    int requiredClusterDepth;
    int clusterSchedulingPolicyPreference;
    int nonPortableClusterSizeAllowed;
    int reserved[16];
};

/* cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags */
#define cudaOccupancyDefault                0x00
#define cudaOccupancyDisableCachingOverride 0x01

/* Launch attributes (cudaLaunchKernelExC). The value is 64 bytes, as in CUDA 13.0; extmem
 * reads the members named here. */
typedef enum cudaLaunchAttributeID {
    cudaLaunchAttributeIgnore                = 0,
    cudaLaunchAttributeAccessPolicyWindow    = 1,
    cudaLaunchAttributeCooperative           = 2,
    cudaLaunchAttributeSynchronizationPolicy = 3,
    cudaLaunchAttributeClusterDimension      = 4,
    cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
    cudaLaunchAttributeProgrammaticStreamSerialization   = 6,
    cudaLaunchAttributeProgrammaticEvent     = 7,
    cudaLaunchAttributePriority              = 8,
    cudaLaunchAttributeMemSyncDomainMap      = 9,
    cudaLaunchAttributeMemSyncDomain         = 10
} cudaLaunchAttributeID;

enum cudaAccessProperty {
    cudaAccessPropertyNormal     = 0,
    cudaAccessPropertyStreaming  = 1,
    cudaAccessPropertyPersisting = 2
};

/* An L2 persistence hint (the software device keeps it and reads it back). */
struct cudaAccessPolicyWindow {
    void *base_ptr;
    size_t num_bytes;
    float hitRatio;
    enum cudaAccessProperty hitProp;
    enum cudaAccessProperty missProp;
};

enum cudaSynchronizationPolicy {
    cudaSyncPolicyAuto         = 1,
    cudaSyncPolicySpin         = 2,
    cudaSyncPolicyYield        = 3,
    cudaSyncPolicyBlockingSync = 4
};

typedef enum cudaLaunchMemSyncDomain {
    cudaLaunchMemSyncDomainDefault = 0,
    cudaLaunchMemSyncDomainRemote  = 1
} cudaLaunchMemSyncDomain;

typedef struct cudaLaunchMemSyncDomainMap_st {
    unsigned char default_;
    unsigned char remote;
} cudaLaunchMemSyncDomainMap;

typedef union cudaLaunchAttributeValue {
    char pad[64];
    struct cudaAccessPolicyWindow accessPolicyWindow;
    int cooperative;
    enum cudaSynchronizationPolicy syncPolicy;
    int priority;
    cudaLaunchMemSyncDomainMap memSyncDomainMap;
    cudaLaunchMemSyncDomain memSyncDomain;
    struct {
        unsigned int x, y, z;
    } clusterDim;
    int programmaticStreamSerializationAllowed;
    struct {
        cudaEvent_t event; /* a pointer: the union is 8-byte aligned, as NVIDIA's */
        int flags;
        int triggerAtBlockStart;
    } programmaticEvent;
} cudaLaunchAttributeValue;

typedef struct cudaLaunchAttribute_st {
    cudaLaunchAttributeID id;
    char pad[8 - sizeof(cudaLaunchAttributeID)];
    cudaLaunchAttributeValue val;
} cudaLaunchAttribute;

/* A stream's attributes are launch attributes (cudaStreamGetAttribute). */
typedef cudaLaunchAttributeID cudaStreamAttrID;
typedef cudaLaunchAttributeValue cudaStreamAttrValue;
#define cudaStreamAttributeAccessPolicyWindow   cudaLaunchAttributeAccessPolicyWindow
#define cudaStreamAttributeSynchronizationPolicy cudaLaunchAttributeSynchronizationPolicy
#define cudaStreamAttributePriority             cudaLaunchAttributePriority
#define cudaStreamAttributeMemSyncDomainMap     cudaLaunchAttributeMemSyncDomainMap
#define cudaStreamAttributeMemSyncDomain        cudaLaunchAttributeMemSyncDomain

enum cudaStreamCaptureStatus {
    cudaStreamCaptureStatusNone        = 0,
    cudaStreamCaptureStatusActive      = 1,
    cudaStreamCaptureStatusInvalidated = 2
};

/* Which calls a capture refuses while it runs (cudaStreamBeginCapture,
 * cudaThreadExchangeStreamCaptureMode): those unsafe during any global capture of the process,
 * during a capture of this thread, or none. */
enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal      = 0,
    cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed     = 2
};

/* cudaStreamUpdateCaptureDependencies: add the nodes to the capture's open ends, or replace them. */
enum cudaStreamUpdateCaptureDependenciesFlags {
    cudaStreamAddCaptureDependencies = 0x0,
    cudaStreamSetCaptureDependencies = 0x1
};

typedef struct cudaLaunchConfig_st {
    dim3 gridDim;
    dim3 blockDim;
    size_t dynamicSmemBytes;
    cudaStream_t stream;
    cudaLaunchAttribute *attrs;
    unsigned int numAttrs;
} cudaLaunchConfig_t;

/* ---- Limits ---------------------------------------------------------------------------- */
enum cudaLimit {
    cudaLimitStackSize                    = 0x00,
    cudaLimitPrintfFifoSize               = 0x01,
    cudaLimitMallocHeapSize               = 0x02,
    cudaLimitDevRuntimeSyncDepth          = 0x03,
    cudaLimitDevRuntimePendingLaunchCount = 0x04,
    cudaLimitMaxL2FetchGranularity        = 0x05,
    cudaLimitPersistingL2CacheSize        = 0x06
};

/* ---- Stream callbacks ---- */
typedef void (CUDART_CB *cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);

/* ---- Managed memory -------------------------------------------------------------------- */
enum cudaMemoryAdvise {
    cudaMemAdviseSetReadMostly          = 1,
    cudaMemAdviseUnsetReadMostly        = 2,
    cudaMemAdviseSetPreferredLocation   = 3,
    cudaMemAdviseUnsetPreferredLocation = 4,
    cudaMemAdviseSetAccessedBy          = 5,
    cudaMemAdviseUnsetAccessedBy        = 6
};

enum cudaMemLocationType {
    cudaMemLocationTypeInvalid              = 0,
    cudaMemLocationTypeNone                 = 0,
    cudaMemLocationTypeDevice               = 1,
    cudaMemLocationTypeHost                 = 2,
    cudaMemLocationTypeHostNuma             = 3,
    cudaMemLocationTypeHostNumaCurrent      = 4
};

struct cudaMemLocation {
    enum cudaMemLocationType type;
    int id;
};

/* ---- Pitched and 3D linear memory ----------------------------------------------------- */
/* A CUDA array (cudaMallocArray, cudaMalloc3DArray, a mipmapped array's level): the driver's
 * CUarray, the same value. The const form is what copies read from. */
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
/* A mipmapped array (cudaMallocMipmappedArray): the driver's CUmipmappedArray. */
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef const struct cudaMipmappedArray *cudaMipmappedArray_const_t;

/* A sparse array's tiles (no array of the software device is sparse). */
#define cudaArraySparsePropertiesSingleMipTail 0x1
struct cudaArraySparseProperties {
    struct {
        unsigned int width;
        unsigned int height;
        unsigned int depth;
    } tileExtent;
    unsigned int miptailFirstLevel;
    unsigned long long miptailSize;
    unsigned int flags;
    unsigned int reserved[4];
};

/* What a cudaArrayDeferredMapping array needs of the memory it would be given. */
struct cudaArrayMemoryRequirements {
    size_t size;
    size_t alignment;
    unsigned int reserved[4];
};

/* Linear memory with its row pitch (bytes) and the logical width (bytes) and height it was
 * made for (cudaMalloc3D). */
struct cudaPitchedPtr {
    void *ptr;
    size_t pitch;
    size_t xsize;
    size_t ysize;
};

/* A size: width in bytes for linear memory (elements for arrays), height and depth in rows
 * and layers. */
struct cudaExtent {
    size_t width;
    size_t height;
    size_t depth;
};

/* ---- Imported images as mipmapped arrays ------------------------------------------------- */
/* cudaExternalMemoryGetMappedMipmappedArray: numLevels levels of an image at offset, level 0
 * of extent (elements; depth 0 for 1D and 2D, layers with cudaArrayLayered) in formatDesc. */
struct cudaExternalMemoryMipmappedArrayDesc {
    unsigned long long offset;
    struct cudaChannelFormatDesc formatDesc;
    struct cudaExtent extent;
    unsigned int flags;
    unsigned int numLevels;
    unsigned int reserved[16];
};

/* A position: x in bytes for linear memory, y a row, z a layer. */
struct cudaPos {
    size_t x;
    size_t y;
    size_t z;
};

/* A 3D copy: each side is an array or a pitched pointer (one of the two), at a position. */
struct cudaMemcpy3DParms {
    cudaArray_t srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    cudaArray_t dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent;
    enum cudaMemcpyKind kind;
};

/* The same between devices (every side's device is an ordinal). */
struct cudaMemcpy3DPeerParms {
    cudaArray_t srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    int srcDevice;
    cudaArray_t dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    int dstDevice;
    struct cudaExtent extent;
};

/* ---- Batch copies (CUDA 12.8): the driver's CUmemcpy* types under runtime names --------- */
enum cudaMemcpyFlags {
    cudaMemcpyFlagDefault                  = 0x0,
    cudaMemcpyFlagPreferOverlapWithCompute = 0x1
};

enum cudaMemcpySrcAccessOrder {
    cudaMemcpySrcAccessOrderInvalid       = 0x0,
    cudaMemcpySrcAccessOrderStream        = 0x1,
    cudaMemcpySrcAccessOrderDuringApiCall = 0x2,
    cudaMemcpySrcAccessOrderAny           = 0x3,
    cudaMemcpySrcAccessOrderMax           = 0x7FFFFFFF
};

struct cudaMemcpyAttributes {
    enum cudaMemcpySrcAccessOrder srcAccessOrder;
    struct cudaMemLocation srcLocHint;
    struct cudaMemLocation dstLocHint;
    unsigned int flags;
};

enum cudaMemcpy3DOperandType {
    cudaMemcpyOperandTypePointer = 0x1,
    cudaMemcpyOperandTypeArray   = 0x2,
    cudaMemcpyOperandTypeMax     = 0x7FFFFFFF
};

struct cudaOffset3D {
    size_t x;
    size_t y;
    size_t z;
};

struct cudaMemcpy3DOperand {
    enum cudaMemcpy3DOperandType type;
    union {
        struct {
            void *ptr;
            size_t rowLength;   /* elements per row; 0: the copy's width */
            size_t layerHeight; /* rows per layer; 0: the copy's height */
            struct cudaMemLocation locHint;
        } ptr;
        struct {
            cudaArray_t array;
            struct cudaOffset3D offset;
        } array;
    } op;
};

struct cudaMemcpy3DBatchOp {
    struct cudaMemcpy3DOperand src;
    struct cudaMemcpy3DOperand dst;
    struct cudaExtent extent;
    enum cudaMemcpySrcAccessOrder srcAccessOrder;
    unsigned int flags;
};
enum cudaMemRangeAttribute {
    cudaMemRangeAttributeReadMostly               = 1,
    cudaMemRangeAttributePreferredLocation        = 2,
    cudaMemRangeAttributeAccessedBy               = 3,
    cudaMemRangeAttributeLastPrefetchLocation     = 4,
    cudaMemRangeAttributePreferredLocationType    = 5,
    cudaMemRangeAttributePreferredLocationId      = 6,
    cudaMemRangeAttributeLastPrefetchLocationType = 7,
    cudaMemRangeAttributeLastPrefetchLocationId   = 8
};

/* ---- The driver's log (cudaLogs*, CUDA 12.9) ------------------------------------------- */
typedef enum CUDAlogLevel_enum {
    cudaLogLevelError   = 0,
    cudaLogLevelWarning = 1
} cudaLogLevel;
typedef struct CUlogsCallbackEntry_st *cudaLogsCallbackHandle;
typedef unsigned int cudaLogIterator;

/* ---- Memory pools ---------------------------------------------------------------------- */
typedef struct CUmemPoolHandle_st *cudaMemPool_t;

enum cudaMemPoolAttr {
    cudaMemPoolReuseFollowEventDependencies   = 0x1,
    cudaMemPoolReuseAllowOpportunistic        = 0x2,
    cudaMemPoolReuseAllowInternalDependencies = 0x3,
    cudaMemPoolAttrReleaseThreshold           = 0x4,
    cudaMemPoolAttrReservedMemCurrent         = 0x5,
    cudaMemPoolAttrReservedMemHigh            = 0x6,
    cudaMemPoolAttrUsedMemCurrent             = 0x7,
    cudaMemPoolAttrUsedMemHigh                = 0x8
};

/* ---- Driver entry points (cudaGetDriverEntryPoint) ------------------------------------- */
enum cudaGetDriverEntryPointFlags {
    cudaEnableDefault                = 0x0,
    cudaEnableLegacyStream           = 0x1,
    cudaEnablePerThreadDefaultStream = 0x2
};

enum cudaDriverEntryPointQueryResult {
    cudaDriverEntryPointSuccess             = 0,
    cudaDriverEntryPointSymbolNotFound      = 1,
    cudaDriverEntryPointVersionNotSufficent = 2 /* sic: NVIDIA's spelling */
};

/* ---- Pointers (cudaPointerGetAttributes) ------------------------------------------------ */
enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost         = 1,
    cudaMemoryTypeDevice       = 2,
    cudaMemoryTypeManaged      = 3
};

struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
    long reserved[8];
};

/* ---- Libraries (cudaLibraryLoadData) --------------------------------------------------- */
typedef struct CUlib_st *cudaLibrary_t;

/* The JIT's options: the values of CUjit_option. */
enum cudaJitOption {
    cudaJitMaxRegisters            = 0,
    cudaJitThreadsPerBlock         = 1,
    cudaJitWallTime                = 2,
    cudaJitInfoLogBuffer           = 3,
    cudaJitInfoLogBufferSizeBytes  = 4,
    cudaJitErrorLogBuffer          = 5,
    cudaJitErrorLogBufferSizeBytes = 6,
    cudaJitOptimizationLevel       = 7,
    cudaJitFallbackStrategy        = 10,
    cudaJitGenerateDebugInfo       = 11,
    cudaJitLogVerbose              = 12,
    cudaJitGenerateLineInfo        = 13,
    cudaJitCacheMode               = 14,
    cudaJitPositionIndependentCode = 30,
    cudaJitMinCtaPerSm             = 31,
    cudaJitMaxThreadsPerBlock      = 32,
    cudaJitOverrideDirectiveValues = 33
};

/* The values of CUlibraryOption. */
enum cudaLibraryOption {
    cudaLibraryHostUniversalFunctionAndDataTable = 0,
    cudaLibraryBinaryIsPreserved                 = 1
};

/* ---- GPUDirect RDMA (cudaDeviceFlushGPUDirectRDMAWrites) -------------------------------- */
enum cudaFlushGPUDirectRDMAWritesTarget {
    cudaFlushGPUDirectRDMAWritesTargetCurrentDevice = 0
};
enum cudaFlushGPUDirectRDMAWritesScope {
    cudaFlushGPUDirectRDMAWritesToOwner      = 100,
    cudaFlushGPUDirectRDMAWritesToAllDevices = 200
};

enum cudaMemAccessFlags {
    cudaMemAccessFlagsProtNone      = 0,
    cudaMemAccessFlagsProtRead      = 1,
    cudaMemAccessFlagsProtReadWrite = 3
};

struct cudaMemAccessDesc {
    struct cudaMemLocation location;
    enum cudaMemAccessFlags flags;
};

enum cudaMemAllocationType {
    cudaMemAllocationTypeInvalid = 0x0,
    cudaMemAllocationTypePinned  = 0x1,
    cudaMemAllocationTypeManaged = 0x2,
    cudaMemAllocationTypeMax     = 0x7FFFFFFF
};

enum cudaMemAllocationHandleType {
    cudaMemHandleTypeNone                = 0x0,
    cudaMemHandleTypePosixFileDescriptor = 0x1, /* an int */
    cudaMemHandleTypeWin32               = 0x2, /* a HANDLE */
    cudaMemHandleTypeWin32Kmt            = 0x4, /* a D3DKMT_HANDLE */
    cudaMemHandleTypeFabric              = 0x8
};

#define cudaMemPoolCreateUsageHwDecompress 0x2

/* The same layout as the driver's CUmemPoolProps. */
struct cudaMemPoolProps {
    enum cudaMemAllocationType allocType;
    enum cudaMemAllocationHandleType handleTypes;
    struct cudaMemLocation location;
    void *win32SecurityAttributes;
    size_t maxSize;
    unsigned short usage;
    unsigned char reserved[54];
};

/* Opaque, 64 bytes: what cudaMemPoolExportPointer writes. */
struct cudaMemPoolPtrExportData {
    unsigned char reserved[64];
};

/* ---- Graphs (cudaGraph*; the driver's CUgraph, docs/graphs.md) -------------------------- *
 * The handles are the driver's: a cudaGraph_t is a CUgraph, and so on. The node parameter
 * structures are the runtime's own spelling of the driver's: a kernel is named by its host
 * stub, sizes are dim3, addresses are pointers. */
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUuserObject_st *cudaUserObject_t;
typedef unsigned long long cudaGraphConditionalHandle;

enum cudaGraphNodeType {
    cudaGraphNodeTypeKernel             = 0x00,
    cudaGraphNodeTypeMemcpy             = 0x01,
    cudaGraphNodeTypeMemset             = 0x02,
    cudaGraphNodeTypeHost               = 0x03,
    cudaGraphNodeTypeGraph              = 0x04, /* a child graph */
    cudaGraphNodeTypeEmpty              = 0x05,
    cudaGraphNodeTypeWaitEvent          = 0x06,
    cudaGraphNodeTypeEventRecord        = 0x07,
    cudaGraphNodeTypeExtSemaphoreSignal = 0x08,
    cudaGraphNodeTypeExtSemaphoreWait   = 0x09,
    cudaGraphNodeTypeMemAlloc           = 0x0a,
    cudaGraphNodeTypeMemFree            = 0x0b,
    cudaGraphNodeTypeConditional        = 0x0d, /* 0x0c, batch memory operations, has no runtime name */
    cudaGraphNodeTypeCount
};

/* A kernel node: func is the kernel's host function (what <<<>>> and cudaLaunchKernel take). */
struct cudaKernelNodeParams {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};

/* The same, as a member of cudaGraphNodeParams (a union, where C++ before 2011 allows no
 * member with a constructor: there the sizes are uint3, of the same layout). */
struct cudaKernelNodeParamsV2 {
    void *func;
#if !defined(__cplusplus) || __cplusplus >= 201103L
    dim3 gridDim;
    dim3 blockDim;
#else
    uint3 gridDim;
    uint3 blockDim;
#endif
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};

/* A copy node (cudaGraphAddNode): flags and reserved are 0. */
struct cudaMemcpyNodeParams {
    int flags;
    int reserved[3];
    struct cudaMemcpy3DParms copyParams;
};

/* A fill of height rows of width elements (1, 2 or 4 bytes each), rows pitch bytes apart. */
struct cudaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
};
struct cudaMemsetParamsV2 {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
};

struct cudaHostNodeParams {
    cudaHostFn_t fn;
    void *userData;
};
struct cudaHostNodeParamsV2 {
    cudaHostFn_t fn;
    void *userData;
};

enum cudaGraphChildGraphNodeOwnership {
    cudaGraphChildGraphOwnershipClone = 0, /* the node holds a copy of the graph */
    cudaGraphChildGraphOwnershipMove  = 1  /* the node takes the graph itself */
};
struct cudaChildGraphNodeParams {
    cudaGraph_t graph;
    enum cudaGraphChildGraphNodeOwnership ownership;
};
struct cudaEventRecordNodeParams {
    cudaEvent_t event;
};
struct cudaEventWaitNodeParams {
    cudaEvent_t event;
};

struct cudaExternalSemaphoreSignalNodeParams {
    cudaExternalSemaphore_t *extSemArray;
    const struct cudaExternalSemaphoreSignalParams *paramsArray;
    unsigned int numExtSems;
};
struct cudaExternalSemaphoreSignalNodeParamsV2 {
    cudaExternalSemaphore_t *extSemArray;
    const struct cudaExternalSemaphoreSignalParams *paramsArray;
    unsigned int numExtSems;
};
struct cudaExternalSemaphoreWaitNodeParams {
    cudaExternalSemaphore_t *extSemArray;
    const struct cudaExternalSemaphoreWaitParams *paramsArray;
    unsigned int numExtSems;
};
struct cudaExternalSemaphoreWaitNodeParamsV2 {
    cudaExternalSemaphore_t *extSemArray;
    const struct cudaExternalSemaphoreWaitParams *paramsArray;
    unsigned int numExtSems;
};

/* Graph-owned memory: dptr is written when the node is made. */
struct cudaMemAllocNodeParams {
    struct cudaMemPoolProps poolProps; /* handleTypes must be cudaMemHandleTypeNone */
    const struct cudaMemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    void *dptr; /* out */
};
struct cudaMemAllocNodeParamsV2 {
    struct cudaMemPoolProps poolProps;
    const struct cudaMemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    void *dptr; /* out */
};
struct cudaMemFreeNodeParams {
    void *dptr;
};

/* Conditional nodes: bodies run if, while or by the value of a handle (its default at each
 * launch with cudaGraphCondAssignDefault, or what device code set). */
enum cudaGraphConditionalHandleFlags {
    cudaGraphCondAssignDefault = 1
};
enum cudaGraphConditionalNodeType {
    cudaGraphCondTypeIf     = 0, /* body 0 when non-zero; with size 2, body 1 when zero */
    cudaGraphCondTypeWhile  = 1, /* body 0 again while non-zero */
    cudaGraphCondTypeSwitch = 2  /* body n for the value n; none past size */
};
struct cudaConditionalNodeParams {
    cudaGraphConditionalHandle handle;
    enum cudaGraphConditionalNodeType type;
    unsigned int size;        /* the number of bodies */
    cudaGraph_t *phGraph_out; /* out: the bodies, owned by the node */
};

/* Any node's parameters (cudaGraphAddNode, cudaGraphNodeSetParams): unused bytes are zero. */
struct cudaGraphNodeParams {
    enum cudaGraphNodeType type;
    int reserved0[3];
    union {
        long long reserved1[29];
        struct cudaKernelNodeParamsV2 kernel;
        struct cudaMemcpyNodeParams memcpy;
        struct cudaMemsetParamsV2 memset;
        struct cudaHostNodeParamsV2 host;
        struct cudaChildGraphNodeParams graph;
        struct cudaEventWaitNodeParams eventWait;
        struct cudaEventRecordNodeParams eventRecord;
        struct cudaExternalSemaphoreSignalNodeParamsV2 extSemSignal;
        struct cudaExternalSemaphoreWaitNodeParamsV2 extSemWait;
        struct cudaMemAllocNodeParamsV2 alloc;
        struct cudaMemFreeNodeParams free;
        struct cudaConditionalNodeParams conditional;
    };
    long long reserved2;
};

/* Edge data (CUDA 12.3): all zero is an ordinary edge. */
typedef enum cudaGraphDependencyType_enum {
    cudaGraphDependencyTypeDefault      = 0,
    cudaGraphDependencyTypeProgrammatic = 1
} cudaGraphDependencyType;
typedef struct cudaGraphEdgeData_st {
    unsigned char from_port; /* cudaGraphKernelNodePort* of a kernel node; 0 otherwise */
    unsigned char to_port;   /* 0 */
    unsigned char type;      /* a cudaGraphDependencyType */
    unsigned char reserved[5];
} cudaGraphEdgeData;
#define cudaGraphKernelNodePortDefault          0 /* the kernel finished */
#define cudaGraphKernelNodePortProgrammatic     1 /* every block triggered or finished */
#define cudaGraphKernelNodePortLaunchCompletion 2 /* every block began */

enum cudaGraphExecUpdateResult {
    cudaGraphExecUpdateSuccess                        = 0x0,
    cudaGraphExecUpdateError                          = 0x1,
    cudaGraphExecUpdateErrorTopologyChanged           = 0x2,
    cudaGraphExecUpdateErrorNodeTypeChanged           = 0x3,
    cudaGraphExecUpdateErrorFunctionChanged           = 0x4,
    cudaGraphExecUpdateErrorParametersChanged         = 0x5,
    cudaGraphExecUpdateErrorNotSupported              = 0x6,
    cudaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7,
    cudaGraphExecUpdateErrorAttributesChanged         = 0x8
};
typedef struct cudaGraphExecUpdateResultInfo_st {
    enum cudaGraphExecUpdateResult result;
    cudaGraphNode_t errorNode;     /* the node of the new graph the update failed at, or NULL */
    cudaGraphNode_t errorFromNode; /* with a changed edge: its other end; NULL otherwise */
} cudaGraphExecUpdateResultInfo;

enum cudaGraphInstantiateFlags {
    cudaGraphInstantiateFlagAutoFreeOnLaunch = 1, /* a launch first frees what the last one allocated */
    cudaGraphInstantiateFlagUpload           = 2, /* upload to uploadStream at once (WithParams) */
    cudaGraphInstantiateFlagDeviceLaunch     = 4, /* launchable from device code */
    cudaGraphInstantiateFlagUseNodePriority  = 8  /* kernel nodes' own priorities, not the stream's */
};
typedef enum cudaGraphInstantiateResult {
    cudaGraphInstantiateSuccess                     = 0,
    cudaGraphInstantiateError                       = 1,
    cudaGraphInstantiateInvalidStructure            = 2,
    cudaGraphInstantiateNodeOperationNotSupported   = 3,
    cudaGraphInstantiateMultipleDevicesNotSupported = 4,
    cudaGraphInstantiateConditionalHandleUnused     = 5
} cudaGraphInstantiateResult;
typedef struct cudaGraphInstantiateParams_st {
    unsigned long long flags;
    cudaStream_t uploadStream;
    cudaGraphNode_t errNode_out;
    cudaGraphInstantiateResult result_out;
} cudaGraphInstantiateParams;

/* Graph-owned memory of a device (cudaDeviceGetGraphMemAttribute): unsigned long long values. */
enum cudaGraphMemAttributeType {
    cudaGraphMemAttrUsedMemCurrent     = 0x0,
    cudaGraphMemAttrUsedMemHigh        = 0x1, /* may be reset to 0 */
    cudaGraphMemAttrReservedMemCurrent = 0x2,
    cudaGraphMemAttrReservedMemHigh    = 0x3  /* may be reset to 0 */
};

enum cudaGraphDebugDotFlags {
    cudaGraphDebugDotFlagsVerbose                  = 1 << 0,
    cudaGraphDebugDotFlagsKernelNodeParams         = 1 << 2,
    cudaGraphDebugDotFlagsMemcpyNodeParams         = 1 << 3,
    cudaGraphDebugDotFlagsMemsetNodeParams         = 1 << 4,
    cudaGraphDebugDotFlagsHostNodeParams           = 1 << 5,
    cudaGraphDebugDotFlagsEventNodeParams          = 1 << 6,
    cudaGraphDebugDotFlagsExtSemasSignalNodeParams = 1 << 7,
    cudaGraphDebugDotFlagsExtSemasWaitNodeParams   = 1 << 8,
    cudaGraphDebugDotFlagsKernelNodeAttributes     = 1 << 9,
    cudaGraphDebugDotFlagsHandles                  = 1 << 10,
    cudaGraphDebugDotFlagsConditionalNodeParams    = 1 << 15
};

/* User objects: a destructor that runs when the last reference, graphs' included, goes. */
enum cudaUserObjectFlags {
    cudaUserObjectNoDestructorSync = 0x1 /* required */
};
enum cudaUserObjectRetainFlags {
    cudaGraphUserObjectMove = 0x1 /* the graph takes over the caller's references */
};

/* A kernel node's attributes are launch attributes. */
typedef cudaLaunchAttributeID cudaKernelNodeAttrID;
typedef cudaLaunchAttributeValue cudaKernelNodeAttrValue;
#define cudaKernelNodeAttributeAccessPolicyWindow cudaLaunchAttributeAccessPolicyWindow
#define cudaKernelNodeAttributeCooperative        cudaLaunchAttributeCooperative
#define cudaKernelNodeAttributePriority           cudaLaunchAttributePriority
#define cudaKernelNodeAttributeClusterDimension   cudaLaunchAttributeClusterDimension
#define cudaKernelNodeAttributeClusterSchedulingPolicyPreference cudaLaunchAttributeClusterSchedulingPolicyPreference
#define cudaKernelNodeAttributeMemSyncDomainMap   cudaLaunchAttributeMemSyncDomainMap
#define cudaKernelNodeAttributeMemSyncDomain      cudaLaunchAttributeMemSyncDomain

/* ---- Atomic capabilities (cudaDeviceGetHostAtomicCapabilities): CUatomicOperation's values */
enum cudaAtomicOperation {
    cudaAtomicOperationIntegerAdd       = 0,
    cudaAtomicOperationIntegerMin       = 1,
    cudaAtomicOperationIntegerMax       = 2,
    cudaAtomicOperationIntegerIncrement = 3,
    cudaAtomicOperationIntegerDecrement = 4,
    cudaAtomicOperationAnd              = 5,
    cudaAtomicOperationOr               = 6,
    cudaAtomicOperationXOR              = 7,
    cudaAtomicOperationExchange         = 8,
    cudaAtomicOperationCAS              = 9,
    cudaAtomicOperationFloatAdd         = 10,
    cudaAtomicOperationFloatMin         = 11,
    cudaAtomicOperationFloatMax         = 12
};

/* ---- What texture and surface objects read (cudaCreateTextureObject) ------------------ */
enum cudaResourceType {
    cudaResourceTypeArray = 0x00,
    cudaResourceTypeMipmappedArray = 0x01,
    cudaResourceTypeLinear = 0x02,
    cudaResourceTypePitch2D = 0x03
};

/* A view's element format: the driver's CU_RES_VIEW_FORMAT_* values, in the runtime's names
 * (channels of 8, 16 or 32-bit integers, half or float, or a block-compressed format). */
enum cudaResourceViewFormat {
    cudaResViewFormatNone = 0x00,
    cudaResViewFormatUnsignedChar1 = 0x01,
    cudaResViewFormatUnsignedChar2 = 0x02,
    cudaResViewFormatUnsignedChar4 = 0x03,
    cudaResViewFormatSignedChar1 = 0x04,
    cudaResViewFormatSignedChar2 = 0x05,
    cudaResViewFormatSignedChar4 = 0x06,
    cudaResViewFormatUnsignedShort1 = 0x07,
    cudaResViewFormatUnsignedShort2 = 0x08,
    cudaResViewFormatUnsignedShort4 = 0x09,
    cudaResViewFormatSignedShort1 = 0x0a,
    cudaResViewFormatSignedShort2 = 0x0b,
    cudaResViewFormatSignedShort4 = 0x0c,
    cudaResViewFormatUnsignedInt1 = 0x0d,
    cudaResViewFormatUnsignedInt2 = 0x0e,
    cudaResViewFormatUnsignedInt4 = 0x0f,
    cudaResViewFormatSignedInt1 = 0x10,
    cudaResViewFormatSignedInt2 = 0x11,
    cudaResViewFormatSignedInt4 = 0x12,
    cudaResViewFormatHalf1 = 0x13,
    cudaResViewFormatHalf2 = 0x14,
    cudaResViewFormatHalf4 = 0x15,
    cudaResViewFormatFloat1 = 0x16,
    cudaResViewFormatFloat2 = 0x17,
    cudaResViewFormatFloat4 = 0x18,
    cudaResViewFormatUnsignedBlockCompressed1 = 0x19,
    cudaResViewFormatUnsignedBlockCompressed2 = 0x1a,
    cudaResViewFormatUnsignedBlockCompressed3 = 0x1b,
    cudaResViewFormatUnsignedBlockCompressed4 = 0x1c,
    cudaResViewFormatSignedBlockCompressed4 = 0x1d,
    cudaResViewFormatUnsignedBlockCompressed5 = 0x1e,
    cudaResViewFormatSignedBlockCompressed5 = 0x1f,
    cudaResViewFormatUnsignedBlockCompressed6H = 0x20,
    cudaResViewFormatSignedBlockCompressed6H = 0x21,
    cudaResViewFormatUnsignedBlockCompressed7 = 0x22
};

/* The memory a texture or surface object reads, by resType; linear memory's elements are
 * given as a channel descriptor. flags must be 0. */
struct cudaResourceDesc {
    enum cudaResourceType resType;
    union {
        struct {
            cudaArray_t array;
        } array;
        struct {
            cudaMipmappedArray_t mipmap;
        } mipmap;
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t sizeInBytes;
        } linear;
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t width;  /* elements */
            size_t height; /* rows */
            size_t pitchInBytes;
        } pitch2D;
        struct {
            int reserved[32];
        } reserved;
    } res;
    unsigned int flags;
};

/* Part of a resource in another element format (the driver's CUDA_RESOURCE_VIEW_DESC). */
struct cudaResourceViewDesc {
    enum cudaResourceViewFormat format;
    size_t width;
    size_t height;
    size_t depth;
    unsigned int firstMipmapLevel;
    unsigned int lastMipmapLevel;
    unsigned int firstLayer;
    unsigned int lastLayer;
    unsigned int reserved[16];
};

#ifdef __cplusplus
}
#endif

#endif /* EXTMEM_DRIVER_TYPES_H */
