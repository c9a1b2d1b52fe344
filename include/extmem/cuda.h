/*
 * extmem/cuda.h: the CUDA driver API subset that extmem implements.
 *
 * Written for extmem from the CUDA documentation. Names, values, struct layouts and
 * the versioned-symbol macros match NVIDIA's cuda.h so that code written for the real
 * driver compiles here unchanged, and binaries built against NVIDIA's header link to
 * libextmem. tests/abi checks every value and layout against NVIDIA's header.
 *
 * Each declaration lists the result codes extmem returns and when. Every failure also
 * records a reason: see extmem_error_detail() in extmem/extmem.h.
 */
#ifndef EXTMEM_CUDA_H
#define EXTMEM_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "extmem/export.h"

/* This header stands in for NVIDIA's: keep the include guard NVIDIA's code tests for. */
#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__
#endif

#define CUDA_VERSION 13000

#if defined(_WIN32)
#define CUDAAPI __stdcall
#define CUDA_CB __stdcall
#else
#define CUDAAPI
#define CUDA_CB
#endif

/* Versioned entry points. NVIDIA's header renames these, so the symbols a compiled
 * program asks for carry the suffix; extmem exports exactly those names. */
#define cuDeviceTotalMem          cuDeviceTotalMem_v2
#define cuCtxCreate               cuCtxCreate_v4
#define cuCtxDestroy              cuCtxDestroy_v2
#define cuCtxPopCurrent           cuCtxPopCurrent_v2
#define cuCtxPushCurrent          cuCtxPushCurrent_v2
#define cuDevicePrimaryCtxRelease cuDevicePrimaryCtxRelease_v2
#define cuDevicePrimaryCtxReset   cuDevicePrimaryCtxReset_v2
#define cuDevicePrimaryCtxSetFlags cuDevicePrimaryCtxSetFlags_v2
#define cuDeviceGetUuid           cuDeviceGetUuid_v2
#define cuMemGetInfo              cuMemGetInfo_v2
#define cuMemAlloc                cuMemAlloc_v2
#define cuLinkCreate              cuLinkCreate_v2
#define cuLinkAddData             cuLinkAddData_v2
#define cuLinkAddFile             cuLinkAddFile_v2
#define cuMemAllocPitch           cuMemAllocPitch_v2
#define cuMemFree                 cuMemFree_v2
#define cuMemGetAddressRange      cuMemGetAddressRange_v2
#define cuMemAllocHost            cuMemAllocHost_v2
#define cuMemHostGetDevicePointer cuMemHostGetDevicePointer_v2
#define cuMemHostRegister         cuMemHostRegister_v2
#define cuArrayCreate             cuArrayCreate_v2
#define cuArrayGetDescriptor      cuArrayGetDescriptor_v2
#define cuArray3DCreate           cuArray3DCreate_v2
#define cuArray3DGetDescriptor    cuArray3DGetDescriptor_v2
/* Code built with CUDA_API_PER_THREAD_DEFAULT_STREAM (nvcc --default-stream per-thread)
 * calls the _ptds / _ptsz variants, for which the NULL stream is the per-thread stream. */
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define EXTMEM_PTDS(api) api##_ptds
#define EXTMEM_PTSZ(api) api##_ptsz
#else
#define EXTMEM_PTDS(api) api
#define EXTMEM_PTSZ(api) api
#endif
#define cuMemcpyHtoD              EXTMEM_PTDS(cuMemcpyHtoD_v2)
#define cuMemcpyDtoH              EXTMEM_PTDS(cuMemcpyDtoH_v2)
#define cuMemcpyDtoD              EXTMEM_PTDS(cuMemcpyDtoD_v2)
#define cuMemcpyHtoDAsync         EXTMEM_PTSZ(cuMemcpyHtoDAsync_v2)
#define cuMemcpyDtoHAsync         EXTMEM_PTSZ(cuMemcpyDtoHAsync_v2)
#define cuMemcpyDtoDAsync         EXTMEM_PTSZ(cuMemcpyDtoDAsync_v2)
#define cuMemcpy2D                EXTMEM_PTDS(cuMemcpy2D_v2)
#define cuMemcpyHtoA              EXTMEM_PTDS(cuMemcpyHtoA_v2)
#define cuMemcpyAtoH              EXTMEM_PTDS(cuMemcpyAtoH_v2)
#define cuMemcpyAtoA              EXTMEM_PTDS(cuMemcpyAtoA_v2)
#define cuMemcpyAtoD              EXTMEM_PTDS(cuMemcpyAtoD_v2)
#define cuMemcpyDtoA              EXTMEM_PTDS(cuMemcpyDtoA_v2)
#define cuMemcpyHtoAAsync         EXTMEM_PTSZ(cuMemcpyHtoAAsync_v2)
#define cuMemcpyAtoHAsync         EXTMEM_PTSZ(cuMemcpyAtoHAsync_v2)
#define cuMemcpy2DUnaligned       EXTMEM_PTDS(cuMemcpy2DUnaligned_v2)
#define cuMemcpy2DAsync           EXTMEM_PTSZ(cuMemcpy2DAsync_v2)
#define cuMemcpy3D                EXTMEM_PTDS(cuMemcpy3D_v2)
#define cuMemcpy3DAsync           EXTMEM_PTSZ(cuMemcpy3DAsync_v2)
#define cuMemcpyBatchAsync        EXTMEM_PTSZ(cuMemcpyBatchAsync_v2)
#define cuMemcpy3DBatchAsync      EXTMEM_PTSZ(cuMemcpy3DBatchAsync_v2)
#define cuMemsetD8                EXTMEM_PTDS(cuMemsetD8_v2)
#define cuMemsetD16               EXTMEM_PTDS(cuMemsetD16_v2)
#define cuMemsetD32               EXTMEM_PTDS(cuMemsetD32_v2)
#define cuMemsetD2D8              EXTMEM_PTDS(cuMemsetD2D8_v2)
#define cuMemsetD2D16             EXTMEM_PTDS(cuMemsetD2D16_v2)
#define cuMemsetD2D32             EXTMEM_PTDS(cuMemsetD2D32_v2)
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define cuMemcpy                  EXTMEM_PTDS(cuMemcpy)
#define cuMemcpyAsync             EXTMEM_PTSZ(cuMemcpyAsync)
#define cuMemsetD8Async           EXTMEM_PTSZ(cuMemsetD8Async)
#define cuMemsetD16Async          EXTMEM_PTSZ(cuMemsetD16Async)
#define cuMemsetD32Async          EXTMEM_PTSZ(cuMemsetD32Async)
#define cuMemsetD2D8Async         EXTMEM_PTSZ(cuMemsetD2D8Async)
#define cuMemsetD2D16Async        EXTMEM_PTSZ(cuMemsetD2D16Async)
#define cuMemsetD2D32Async        EXTMEM_PTSZ(cuMemsetD2D32Async)
#define cuMemcpyPeer              EXTMEM_PTDS(cuMemcpyPeer)
#define cuMemcpyPeerAsync         EXTMEM_PTSZ(cuMemcpyPeerAsync)
#define cuMemcpy3DPeer            EXTMEM_PTDS(cuMemcpy3DPeer)
#define cuMemcpy3DPeerAsync       EXTMEM_PTSZ(cuMemcpy3DPeerAsync)
#define cuStreamGetPriority       EXTMEM_PTSZ(cuStreamGetPriority)
#define cuStreamGetFlags          EXTMEM_PTSZ(cuStreamGetFlags)
#define cuStreamGetCtx            EXTMEM_PTSZ(cuStreamGetCtx)
#define cuStreamGetCtx_v2         EXTMEM_PTSZ(cuStreamGetCtx_v2)
#define cuStreamGetId             EXTMEM_PTSZ(cuStreamGetId)
#define cuStreamGetDevice         EXTMEM_PTSZ(cuStreamGetDevice)
#define cuStreamWaitEvent         EXTMEM_PTSZ(cuStreamWaitEvent)
#define cuStreamQuery             EXTMEM_PTSZ(cuStreamQuery)
#define cuStreamSynchronize       EXTMEM_PTSZ(cuStreamSynchronize)
#define cuEventRecord             EXTMEM_PTSZ(cuEventRecord)
#define cuEventRecordWithFlags    EXTMEM_PTSZ(cuEventRecordWithFlags)
#define cuLaunchHostFunc          EXTMEM_PTSZ(cuLaunchHostFunc)
#define cuStreamAddCallback       EXTMEM_PTSZ(cuStreamAddCallback)
#define cuStreamGetAttribute      EXTMEM_PTSZ(cuStreamGetAttribute)
#define cuStreamSetAttribute      EXTMEM_PTSZ(cuStreamSetAttribute)
#define cuStreamCopyAttributes    EXTMEM_PTSZ(cuStreamCopyAttributes)
#define cuStreamIsCapturing       EXTMEM_PTSZ(cuStreamIsCapturing)
#define cuLaunchKernel            EXTMEM_PTSZ(cuLaunchKernel)
#define cuLaunchKernelEx          EXTMEM_PTSZ(cuLaunchKernelEx)
#define cuLaunchCooperativeKernel EXTMEM_PTSZ(cuLaunchCooperativeKernel)
#define cuMemAllocAsync           EXTMEM_PTSZ(cuMemAllocAsync)
#define cuMemAllocFromPoolAsync   EXTMEM_PTSZ(cuMemAllocFromPoolAsync)
#define cuMemFreeAsync            EXTMEM_PTSZ(cuMemFreeAsync)
#define cuSignalExternalSemaphoresAsync EXTMEM_PTSZ(cuSignalExternalSemaphoresAsync)
#define cuWaitExternalSemaphoresAsync   EXTMEM_PTSZ(cuWaitExternalSemaphoresAsync)
#endif
/* Managed memory and stream memory operations: CUDA 12.2 gave the first two a location, and
 * CUDA 11.7 gave the memory operations their _v2 form; the plain names are the older forms. */
#define cuMemAdvise               cuMemAdvise_v2
#define cuMemPrefetchAsync        EXTMEM_PTSZ(cuMemPrefetchAsync_v2)
#define cuStreamWaitValue32       EXTMEM_PTSZ(cuStreamWaitValue32_v2)
#define cuStreamWaitValue64       EXTMEM_PTSZ(cuStreamWaitValue64_v2)
#define cuStreamWriteValue32      EXTMEM_PTSZ(cuStreamWriteValue32_v2)
#define cuStreamWriteValue64      EXTMEM_PTSZ(cuStreamWriteValue64_v2)
#define cuStreamBatchMemOp        EXTMEM_PTSZ(cuStreamBatchMemOp_v2)
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define cuStreamAttachMemAsync              EXTMEM_PTSZ(cuStreamAttachMemAsync)
#define cuMemPrefetchBatchAsync             EXTMEM_PTSZ(cuMemPrefetchBatchAsync)
#define cuMemDiscardBatchAsync              EXTMEM_PTSZ(cuMemDiscardBatchAsync)
#define cuMemDiscardAndPrefetchBatchAsync   EXTMEM_PTSZ(cuMemDiscardAndPrefetchBatchAsync)
#endif
#define cuStreamDestroy           cuStreamDestroy_v2
#define cuEventDestroy            cuEventDestroy_v2
#define cuEventElapsedTime        cuEventElapsedTime_v2
#define cuGetProcAddress          cuGetProcAddress_v2
#define cuIpcOpenMemHandle        cuIpcOpenMemHandle_v2
#define cuModuleGetGlobal         cuModuleGetGlobal_v2

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Basic types ---------------------------------------------------------------- */
typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;

#if defined(_WIN64) || defined(__LP64__)
typedef unsigned long long CUdeviceptr_v2;
#else
typedef unsigned int CUdeviceptr_v2;
#endif
typedef CUdeviceptr_v2 CUdeviceptr;

typedef int CUdevice_v1;
typedef CUdevice_v1 CUdevice;

/* Opaque handles. extmem validates every one it receives against its registry. */
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUarray_st *CUarray;
typedef struct CUmipmappedArray_st *CUmipmappedArray;
typedef struct CUextMemory_st *CUexternalMemory;
typedef struct CUextSemaphore_st *CUexternalSemaphore;
typedef struct CUtexref_st *CUtexref;
/* Texture and surface objects are 64-bit values a kernel takes as a parameter. */
typedef unsigned long long CUtexObject_v1;
typedef CUtexObject_v1 CUtexObject;
typedef unsigned long long CUsurfObject_v1;
typedef CUsurfObject_v1 CUsurfObject;
typedef struct CUgreenCtx_st *CUgreenCtx;
typedef struct CUctxCigParam_st CUctxCigParam;

typedef struct CUuuid_st {
    char bytes[16];
} CUuuid;

/* Interprocess handles: 64 opaque bytes (extmem's layout: src/ipc.c). */
#define CU_IPC_HANDLE_SIZE 64
typedef struct CUipcEventHandle_st {
    char reserved[CU_IPC_HANDLE_SIZE];
} CUipcEventHandle_v1;
typedef CUipcEventHandle_v1 CUipcEventHandle;
typedef struct CUipcMemHandle_st {
    char reserved[CU_IPC_HANDLE_SIZE];
} CUipcMemHandle_v1;
typedef CUipcMemHandle_v1 CUipcMemHandle;

/* The legacy and per-thread default streams, as special handle values. */
#define CU_STREAM_LEGACY     ((CUstream)0x1)
#define CU_STREAM_PER_THREAD ((CUstream)0x2)

/* ---- Modules, libraries and kernels ------------------------------------------------ */
typedef struct CUlib_st *CUlibrary;
typedef struct CUkern_st *CUkernel;
typedef struct CUgraphDeviceUpdatableNode_st *CUgraphDeviceNode;

/* cuFuncGetAttribute / cuFuncSetAttribute. */
typedef enum CUfunction_attribute_enum {
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
    CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
    CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
    CU_FUNC_ATTRIBUTE_PTX_VERSION = 5,
    CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6,
    CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
    CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
    CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET = 10,
    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH = 11,
    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT = 12,
    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH = 13,
    CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14,
    CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 15,
    CU_FUNC_ATTRIBUTE_MAX
} CUfunction_attribute;

typedef enum CUfunc_cache_enum {
    CU_FUNC_CACHE_PREFER_NONE = 0x00,
    CU_FUNC_CACHE_PREFER_SHARED = 0x01,
    CU_FUNC_CACHE_PREFER_L1 = 0x02,
    CU_FUNC_CACHE_PREFER_EQUAL = 0x03
} CUfunc_cache;

typedef enum CUfunctionLoadingState_enum {
    CU_FUNCTION_LOADING_STATE_UNLOADED = 0,
    CU_FUNCTION_LOADING_STATE_LOADED = 1,
    CU_FUNCTION_LOADING_STATE_MAX
} CUfunctionLoadingState;

/* cuModuleLoadDataEx's options. Each value travels in a void * slot: numbers as the slot's
 * integer value, CU_JIT_WALL_TIME as a float written into the slot. */
typedef enum CUjit_option_enum {
    CU_JIT_MAX_REGISTERS = 0,
    CU_JIT_THREADS_PER_BLOCK = 1,
    CU_JIT_WALL_TIME = 2,
    CU_JIT_INFO_LOG_BUFFER = 3,
    CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    CU_JIT_ERROR_LOG_BUFFER = 5,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
    CU_JIT_OPTIMIZATION_LEVEL = 7,
    CU_JIT_TARGET_FROM_CUCONTEXT = 8,
    CU_JIT_TARGET = 9,
    CU_JIT_FALLBACK_STRATEGY = 10,
    CU_JIT_GENERATE_DEBUG_INFO = 11,
    CU_JIT_LOG_VERBOSE = 12,
    CU_JIT_GENERATE_LINE_INFO = 13,
    CU_JIT_CACHE_MODE = 14,
    CU_JIT_NEW_SM3X_OPT = 15,
    CU_JIT_FAST_COMPILE = 16,
    CU_JIT_GLOBAL_SYMBOL_NAMES = 17,
    CU_JIT_GLOBAL_SYMBOL_ADDRESSES = 18,
    CU_JIT_GLOBAL_SYMBOL_COUNT = 19,
    CU_JIT_LTO = 20,
    CU_JIT_FTZ = 21,
    CU_JIT_PREC_DIV = 22,
    CU_JIT_PREC_SQRT = 23,
    CU_JIT_FMA = 24,
    CU_JIT_REFERENCED_KERNEL_NAMES = 25,
    CU_JIT_REFERENCED_KERNEL_COUNT = 26,
    CU_JIT_REFERENCED_VARIABLE_NAMES = 27,
    CU_JIT_REFERENCED_VARIABLE_COUNT = 28,
    CU_JIT_OPTIMIZE_UNUSED_DEVICE_VARIABLES = 29,
    CU_JIT_POSITION_INDEPENDENT_CODE = 30,
    CU_JIT_MIN_CTA_PER_SM = 31,
    CU_JIT_MAX_THREADS_PER_BLOCK = 32,
    CU_JIT_OVERRIDE_DIRECTIVE_VALUES = 33,
    CU_JIT_SPLIT_COMPILE = 34,
    CU_JIT_NUM_OPTIONS
} CUjit_option;

#define CU_COMPUTE_ACCELERATED_TARGET_BASE 0x10000
#define CU_COMPUTE_FAMILY_TARGET_BASE 0x20000
/* CU_JIT_TARGET's values: the compute capability as major * 10 + minor. */
typedef enum CUjit_target_enum {
    CU_TARGET_COMPUTE_30 = 30,
    CU_TARGET_COMPUTE_32 = 32,
    CU_TARGET_COMPUTE_35 = 35,
    CU_TARGET_COMPUTE_37 = 37,
    CU_TARGET_COMPUTE_50 = 50,
    CU_TARGET_COMPUTE_52 = 52,
    CU_TARGET_COMPUTE_53 = 53,
    CU_TARGET_COMPUTE_60 = 60,
    CU_TARGET_COMPUTE_61 = 61,
    CU_TARGET_COMPUTE_62 = 62,
    CU_TARGET_COMPUTE_70 = 70,
    CU_TARGET_COMPUTE_72 = 72,
    CU_TARGET_COMPUTE_75 = 75,
    CU_TARGET_COMPUTE_80 = 80,
    CU_TARGET_COMPUTE_86 = 86,
    CU_TARGET_COMPUTE_87 = 87,
    CU_TARGET_COMPUTE_89 = 89,
    CU_TARGET_COMPUTE_90 = 90,
    CU_TARGET_COMPUTE_100 = 100,
    CU_TARGET_COMPUTE_110 = 110,
    CU_TARGET_COMPUTE_103 = 103,
    CU_TARGET_COMPUTE_120 = 120,
    CU_TARGET_COMPUTE_121 = 121,
    CU_TARGET_COMPUTE_90A = CU_COMPUTE_ACCELERATED_TARGET_BASE + 90,
    CU_TARGET_COMPUTE_100A = CU_COMPUTE_ACCELERATED_TARGET_BASE + 100,
    CU_TARGET_COMPUTE_110A = CU_COMPUTE_ACCELERATED_TARGET_BASE + 110,
    CU_TARGET_COMPUTE_103A = CU_COMPUTE_ACCELERATED_TARGET_BASE + 103,
    CU_TARGET_COMPUTE_120A = CU_COMPUTE_ACCELERATED_TARGET_BASE + 120,
    CU_TARGET_COMPUTE_121A = CU_COMPUTE_ACCELERATED_TARGET_BASE + 121,
    CU_TARGET_COMPUTE_100F = CU_COMPUTE_FAMILY_TARGET_BASE + 100,
    CU_TARGET_COMPUTE_110F = CU_COMPUTE_FAMILY_TARGET_BASE + 110,
    CU_TARGET_COMPUTE_103F = CU_COMPUTE_FAMILY_TARGET_BASE + 103,
    CU_TARGET_COMPUTE_120F = CU_COMPUTE_FAMILY_TARGET_BASE + 120,
    CU_TARGET_COMPUTE_121F = CU_COMPUTE_FAMILY_TARGET_BASE + 121,
} CUjit_target;

typedef enum CUjit_fallback_enum { CU_PREFER_PTX = 0, CU_PREFER_BINARY } CUjit_fallback;

typedef enum CUjit_cacheMode_enum {
    CU_JIT_CACHE_OPTION_NONE = 0,
    CU_JIT_CACHE_OPTION_CG,
    CU_JIT_CACHE_OPTION_CA
} CUjit_cacheMode;

/* What cuLinkAddData and cuLinkAddFile are given. */
typedef enum CUjitInputType_enum {
    CU_JIT_INPUT_CUBIN = 0,     /* machine code for a GPU: refused by the software device */
    CU_JIT_INPUT_PTX = 1,
    CU_JIT_INPUT_FATBINARY = 2, /* its PTX is linked */
    CU_JIT_INPUT_OBJECT = 3,    /* a host object (nvcc -dc) with a fat binary of relocatable PTX */
    CU_JIT_INPUT_LIBRARY = 4,   /* an ar archive of such objects */
    CU_JIT_INPUT_NVVM = 5,      /* LTO IR: refused (no NVVM compiler) */
    CU_JIT_NUM_INPUT_TYPES = 6
} CUjitInputType;
typedef struct CUlinkState_st *CUlinkState;

typedef enum CUlibraryOption_enum {
    CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE = 0,
    CU_LIBRARY_BINARY_IS_PRESERVED = 1,
    CU_LIBRARY_NUM_OPTIONS
} CUlibraryOption;

typedef struct CUlibraryHostUniversalFunctionAndDataTable_st {
    void *functionTable;
    size_t functionWindowSize;
    void *dataTable;
    size_t dataWindowSize;
} CUlibraryHostUniversalFunctionAndDataTable;

/* cuModuleGetLoadingMode: CUDA_MODULE_LOADING=EAGER or LAZY (the default since CUDA 12.2). */
typedef enum CUmoduleLoadingMode_enum {
    CU_MODULE_EAGER_LOADING = 0x1,
    CU_MODULE_LAZY_LOADING = 0x2,
} CUmoduleLoadingMode;

typedef enum CUoccupancy_flags_enum {
    CU_OCCUPANCY_DEFAULT = 0x0,
    CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE = 0x1
} CUoccupancy_flags;
/* The dynamic shared memory a block of blockSize threads needs (cuOccupancyMaxPotentialBlockSize). */
typedef size_t(CUDA_CB *CUoccupancyB2DSize)(int blockSize);

/* cuLaunchKernel's `extra`: key/value pairs ended by CU_LAUNCH_PARAM_END. */
#define CU_LAUNCH_PARAM_END_AS_INT 0x00
#define CU_LAUNCH_PARAM_END ((void *)CU_LAUNCH_PARAM_END_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT 0x01
#define CU_LAUNCH_PARAM_BUFFER_POINTER ((void *)CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT 0x02
#define CU_LAUNCH_PARAM_BUFFER_SIZE ((void *)CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT)

/* cuLaunchKernelEx's attributes (and streams': CUstreamAttrID). */
typedef enum CUaccessProperty_enum {
    CU_ACCESS_PROPERTY_NORMAL = 0,
    CU_ACCESS_PROPERTY_STREAMING = 1,
    CU_ACCESS_PROPERTY_PERSISTING = 2
} CUaccessProperty;

/* An L2 persistence hint for [base_ptr, base_ptr + num_bytes): kept and read back; the
 * software device has no L2 to act on it. */
typedef struct CUaccessPolicyWindow_st {
    void *base_ptr;
    size_t num_bytes;
    float hitRatio;
    CUaccessProperty hitProp;
    CUaccessProperty missProp;
} CUaccessPolicyWindow_v1;
typedef CUaccessPolicyWindow_v1 CUaccessPolicyWindow;

typedef enum CUsynchronizationPolicy_enum {
    CU_SYNC_POLICY_AUTO = 1,
    CU_SYNC_POLICY_SPIN = 2,
    CU_SYNC_POLICY_YIELD = 3,
    CU_SYNC_POLICY_BLOCKING_SYNC = 4
} CUsynchronizationPolicy;

typedef enum CUclusterSchedulingPolicy_enum {
    CU_CLUSTER_SCHEDULING_POLICY_DEFAULT = 0,
    CU_CLUSTER_SCHEDULING_POLICY_SPREAD = 1,
    CU_CLUSTER_SCHEDULING_POLICY_LOAD_BALANCING = 2
} CUclusterSchedulingPolicy;

typedef enum CUlaunchMemSyncDomain_enum {
    CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT = 0,
    CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE = 1
} CUlaunchMemSyncDomain;

typedef struct CUlaunchMemSyncDomainMap_st {
    unsigned char default_;
    unsigned char remote;
} CUlaunchMemSyncDomainMap;

typedef enum CUlaunchAttributeID_enum {
    CU_LAUNCH_ATTRIBUTE_IGNORE = 0,
    CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW = 1,
    CU_LAUNCH_ATTRIBUTE_COOPERATIVE = 2,
    CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY = 3,
    CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4,
    CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 5,
    CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6,
    CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT = 7,
    CU_LAUNCH_ATTRIBUTE_PRIORITY = 8,
    CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP = 9,
    CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN = 10,
    CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION = 11,
    CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT = 12,
    CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE = 13,
    CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 14,
    CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING = 16
} CUlaunchAttributeID;

/* 64 bytes whatever the attribute. */
typedef union CUlaunchAttributeValue_union {
    char pad[64];
    CUaccessPolicyWindow accessPolicyWindow;
    int cooperative;
    CUsynchronizationPolicy syncPolicy;
    struct {
        unsigned int x;
        unsigned int y;
        unsigned int z;
    } clusterDim;
    CUclusterSchedulingPolicy clusterSchedulingPolicyPreference;
    int programmaticStreamSerializationAllowed;
    struct {
        CUevent event;
        int flags;
        int triggerAtBlockStart;
    } programmaticEvent;
    struct {
        CUevent event;
        int flags;
    } launchCompletionEvent;
    int priority;
    CUlaunchMemSyncDomainMap memSyncDomainMap;
    CUlaunchMemSyncDomain memSyncDomain;
    struct {
        unsigned int x;
        unsigned int y;
        unsigned int z;
    } preferredClusterDim;
    struct {
        int deviceUpdatable;
        CUgraphDeviceNode devNode;
    } deviceUpdatableKernelNode;
    unsigned int sharedMemCarveout;
    unsigned int nvlinkUtilCentricScheduling;
} CUlaunchAttributeValue;

typedef struct CUlaunchAttribute_st {
    CUlaunchAttributeID id;
    char pad[8 - sizeof(CUlaunchAttributeID)];
    CUlaunchAttributeValue value;
} CUlaunchAttribute;

typedef struct CUlaunchConfig_st {
    unsigned int gridDimX;
    unsigned int gridDimY;
    unsigned int gridDimZ;
    unsigned int blockDimX;
    unsigned int blockDimY;
    unsigned int blockDimZ;
    unsigned int sharedMemBytes;
    CUstream hStream;
    CUlaunchAttribute *attrs;
    unsigned int numAttrs;
} CUlaunchConfig;

/* ---- Result codes ---------------------------------------------------------------- */
typedef enum cudaError_enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_DEINITIALIZED = 4,
    CUDA_ERROR_PROFILER_DISABLED = 5,
    CUDA_ERROR_PROFILER_NOT_INITIALIZED = 6,
    CUDA_ERROR_PROFILER_ALREADY_STARTED = 7,
    CUDA_ERROR_PROFILER_ALREADY_STOPPED = 8,
    CUDA_ERROR_STUB_LIBRARY = 34,
    CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER = 36,
    CUDA_ERROR_DEVICE_UNAVAILABLE = 46,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_DEVICE_NOT_LICENSED = 102,
    CUDA_ERROR_INVALID_IMAGE = 200,
    CUDA_ERROR_INVALID_CONTEXT = 201,
    CUDA_ERROR_CONTEXT_ALREADY_CURRENT = 202,
    CUDA_ERROR_MAP_FAILED = 205,
    CUDA_ERROR_UNMAP_FAILED = 206,
    CUDA_ERROR_ARRAY_IS_MAPPED = 207,
    CUDA_ERROR_ALREADY_MAPPED = 208,
    CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
    CUDA_ERROR_ALREADY_ACQUIRED = 210,
    CUDA_ERROR_NOT_MAPPED = 211,
    CUDA_ERROR_NOT_MAPPED_AS_ARRAY = 212,
    CUDA_ERROR_NOT_MAPPED_AS_POINTER = 213,
    CUDA_ERROR_ECC_UNCORRECTABLE = 214,
    CUDA_ERROR_UNSUPPORTED_LIMIT = 215,
    CUDA_ERROR_CONTEXT_ALREADY_IN_USE = 216,
    CUDA_ERROR_PEER_ACCESS_UNSUPPORTED = 217,
    CUDA_ERROR_INVALID_PTX = 218,
    CUDA_ERROR_INVALID_GRAPHICS_CONTEXT = 219,
    CUDA_ERROR_NVLINK_UNCORRECTABLE = 220,
    CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
    CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
    CUDA_ERROR_JIT_COMPILATION_DISABLED = 223,
    CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY = 224,
    CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC = 225,
    CUDA_ERROR_CONTAINED = 226,
    CUDA_ERROR_INVALID_SOURCE = 300,
    CUDA_ERROR_FILE_NOT_FOUND = 301,
    CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND = 302,
    CUDA_ERROR_SHARED_OBJECT_INIT_FAILED = 303,
    CUDA_ERROR_OPERATING_SYSTEM = 304,
    CUDA_ERROR_INVALID_HANDLE = 400,
    CUDA_ERROR_ILLEGAL_STATE = 401,
    CUDA_ERROR_LOSSY_QUERY = 402,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_ILLEGAL_ADDRESS = 700,
    CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
    CUDA_ERROR_LAUNCH_TIMEOUT = 702,
    CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING = 703,
    CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704,
    CUDA_ERROR_PEER_ACCESS_NOT_ENABLED = 705,
    CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE = 708,
    CUDA_ERROR_CONTEXT_IS_DESTROYED = 709,
    CUDA_ERROR_ASSERT = 710,
    CUDA_ERROR_TOO_MANY_PEERS = 711,
    CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
    CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED = 713,
    CUDA_ERROR_HARDWARE_STACK_ERROR = 714,
    CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
    CUDA_ERROR_MISALIGNED_ADDRESS = 716,
    CUDA_ERROR_INVALID_ADDRESS_SPACE = 717,
    CUDA_ERROR_INVALID_PC = 718,
    CUDA_ERROR_LAUNCH_FAILED = 719,
    CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720,
    CUDA_ERROR_TENSOR_MEMORY_LEAK = 721,
    CUDA_ERROR_NOT_PERMITTED = 800,
    CUDA_ERROR_NOT_SUPPORTED = 801,
    CUDA_ERROR_SYSTEM_NOT_READY = 802,
    CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
    CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
    CUDA_ERROR_MPS_CONNECTION_FAILED = 805,
    CUDA_ERROR_MPS_RPC_FAILURE = 806,
    CUDA_ERROR_MPS_SERVER_NOT_READY = 807,
    CUDA_ERROR_MPS_MAX_CLIENTS_REACHED = 808,
    CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED = 809,
    CUDA_ERROR_MPS_CLIENT_TERMINATED = 810,
    CUDA_ERROR_CDP_NOT_SUPPORTED = 811,
    CUDA_ERROR_CDP_VERSION_MISMATCH = 812,
    CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900,
    CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901,
    CUDA_ERROR_STREAM_CAPTURE_MERGE = 902,
    CUDA_ERROR_STREAM_CAPTURE_UNMATCHED = 903,
    CUDA_ERROR_STREAM_CAPTURE_UNJOINED = 904,
    CUDA_ERROR_STREAM_CAPTURE_ISOLATION = 905,
    CUDA_ERROR_STREAM_CAPTURE_IMPLICIT = 906,
    CUDA_ERROR_CAPTURED_EVENT = 907,
    CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD = 908,
    CUDA_ERROR_TIMEOUT = 909,
    CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE = 910,
    CUDA_ERROR_EXTERNAL_DEVICE = 911,
    CUDA_ERROR_INVALID_CLUSTER_SIZE = 912,
    CUDA_ERROR_FUNCTION_NOT_LOADED = 913,
    CUDA_ERROR_INVALID_RESOURCE_TYPE = 914,
    CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION = 915,
    CUDA_ERROR_KEY_ROTATION = 916,
    CUDA_ERROR_UNKNOWN = 999,
} CUresult;

/* ---- Device attributes ------------------------------------------------------------
 * cuDeviceGetAttribute answers every value below CU_DEVICE_ATTRIBUTE_MAX; what each means
 * on the software device is listed in docs/attributes.md. */
typedef enum CUdevice_attribute_enum {
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    CU_DEVICE_ATTRIBUTE_SHARED_MEMORY_PER_BLOCK = 8,
    CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY = 9,
    CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
    CU_DEVICE_ATTRIBUTE_MAX_PITCH = 11,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
    CU_DEVICE_ATTRIBUTE_REGISTERS_PER_BLOCK = 12,
    CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
    CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT = 14,
    CU_DEVICE_ATTRIBUTE_GPU_OVERLAP = 15,
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT = 17,
    CU_DEVICE_ATTRIBUTE_INTEGRATED = 18,
    CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY = 19,
    CU_DEVICE_ATTRIBUTE_COMPUTE_MODE = 20,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH = 21,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH = 22,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT = 23,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH = 24,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT = 25,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH = 26,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH = 27,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT = 28,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS = 29,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_WIDTH = 27,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_HEIGHT = 28,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_NUMSLICES = 29,
    CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT = 30,
    CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS = 31,
    CU_DEVICE_ATTRIBUTE_ECC_ENABLED = 32,
    CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
    CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
    CU_DEVICE_ATTRIBUTE_TCC_DRIVER = 35,
    CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
    CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
    CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
    CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT = 40,
    CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH = 42,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS = 43,
    CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER = 44,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH = 45,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT = 46,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE = 47,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE = 48,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE = 49,
    CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50,
    CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT = 51,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH = 52,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH = 53,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS = 54,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH = 55,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH = 56,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT = 57,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH = 58,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT = 59,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH = 60,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH = 61,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS = 62,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH = 63,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT = 64,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS = 65,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH = 66,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH = 67,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS = 68,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH = 69,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH = 70,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT = 71,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH = 72,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH = 73,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT = 74,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH = 77,
    CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED = 78,
    CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED = 79,
    CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED = 80,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR = 82,
    CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
    CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD = 84,
    CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID = 85,
    CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED = 86,
    CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO = 87,
    CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS = 88,
    CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89,
    CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED = 90,
    CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM = 91,
    CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1 = 92,
    CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1 = 93,
    CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1 = 94,
    CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH = 95,
    CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH = 96,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
    CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES = 98,
    CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED = 99,
    CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES = 100,
    CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST = 101,
    CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED = 102,
    CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 102,
    CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED = 103,
    CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED = 104,
    CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED = 105,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR = 106,
    CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED = 107,
    CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE = 108,
    CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE = 109,
    CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED = 110,
    CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK = 111,
    CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED = 112,
    CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED = 113,
    CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED = 114,
    CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115,
    CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED = 116,
    CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS = 117,
    CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING = 118,
    CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES = 119,
    CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH = 120,
    CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED = 121,
    CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS = 122,
    CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR = 123,
    CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED = 124,
    CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED = 125,
    CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT = 126,
    CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED = 127,
    CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED = 128,
    CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS = 129,
    CU_DEVICE_ATTRIBUTE_NUMA_CONFIG = 130,
    CU_DEVICE_ATTRIBUTE_NUMA_ID = 131,
    CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED = 132,
    CU_DEVICE_ATTRIBUTE_MPS_ENABLED = 133,
    CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID = 134,
    CU_DEVICE_ATTRIBUTE_D3D12_CIG_SUPPORTED = 135,
    CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK = 136,
    CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH = 137,
    CU_DEVICE_ATTRIBUTE_VULKAN_CIG_SUPPORTED = 138,
    CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID = 139,
    CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID = 140,
    CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 141,
    CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED = 142,
    CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED = 143,
    CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED = 144,
    CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 145,
    CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED = 146,
    CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED = 147,
    CU_DEVICE_ATTRIBUTE_MAX
} CUdevice_attribute;

/* ---- Enumerations ----------------------------------------------------------------- */
typedef enum CUmemorytype_enum {
    CU_MEMORYTYPE_HOST    = 0x01,
    CU_MEMORYTYPE_DEVICE  = 0x02,
    CU_MEMORYTYPE_ARRAY   = 0x03,
    CU_MEMORYTYPE_UNIFIED = 0x04
} CUmemorytype;

typedef enum CUpointer_attribute_enum {
    CU_POINTER_ATTRIBUTE_CONTEXT = 1,
    CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
    CU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3,
    CU_POINTER_ATTRIBUTE_HOST_POINTER = 4,
    CU_POINTER_ATTRIBUTE_P2P_TOKENS = 5,
    CU_POINTER_ATTRIBUTE_SYNC_MEMOPS = 6,
    CU_POINTER_ATTRIBUTE_BUFFER_ID = 7,
    CU_POINTER_ATTRIBUTE_IS_MANAGED = 8,
    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
    CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE = 10,
    CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11,
    CU_POINTER_ATTRIBUTE_RANGE_SIZE = 12,
    CU_POINTER_ATTRIBUTE_MAPPED = 13,
    CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES = 14,
    CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE = 15,
    CU_POINTER_ATTRIBUTE_ACCESS_FLAGS = 16,
    CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE = 17,
    CU_POINTER_ATTRIBUTE_MAPPING_SIZE = 18,
    CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR = 19,
    CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID = 20,
    CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE = 21
} CUpointer_attribute;

typedef enum CUDA_POINTER_ATTRIBUTE_ACCESS_FLAGS_enum {
    CU_POINTER_ATTRIBUTE_ACCESS_FLAG_NONE      = 0x0,
    CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ      = 0x1,
    CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE = 0x3
} CUDA_POINTER_ATTRIBUTE_ACCESS_FLAGS;

typedef enum CUctx_flags_enum {
    CU_CTX_SCHED_AUTO           = 0x00,
    CU_CTX_SCHED_SPIN           = 0x01,
    CU_CTX_SCHED_YIELD          = 0x02,
    CU_CTX_SCHED_BLOCKING_SYNC  = 0x04,
    CU_CTX_BLOCKING_SYNC        = 0x04,
    CU_CTX_SCHED_MASK           = 0x07,
    CU_CTX_MAP_HOST             = 0x08,
    CU_CTX_LMEM_RESIZE_TO_MAX   = 0x10,
    CU_CTX_COREDUMP_ENABLE      = 0x20,
    CU_CTX_USER_COREDUMP_ENABLE = 0x40,
    CU_CTX_SYNC_MEMOPS          = 0x80,
    CU_CTX_FLAGS_MASK           = 0xFF
} CUctx_flags;

/* Shared memory bank sizes (cuCtxSetSharedMemConfig, cuFuncSetSharedMemConfig): accepted and
 * ignored on devices since compute capability 5.0, as here. */
typedef enum CUsharedconfig_enum {
    CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE = 0x00,
    CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE = 0x01,
    CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE = 0x02
} CUsharedconfig;

/* What cuDeviceGetP2PAttribute asks about a pair of devices. */
typedef enum CUdevice_P2PAttribute_enum {
    CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK = 0x01,
    CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED = 0x02,
    CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED = 0x03,
    CU_DEVICE_P2P_ATTRIBUTE_ACCESS_ACCESS_SUPPORTED = 0x04, /* the older name of the next */
    CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED = 0x04,
    CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED = 0x05
} CUdevice_P2PAttribute;

/* Element formats of arrays and linear textures: the plain integer and float ones. */
typedef enum CUarray_format_enum {
    CU_AD_FORMAT_UNSIGNED_INT8 = 0x01,
    CU_AD_FORMAT_UNSIGNED_INT16 = 0x02,
    CU_AD_FORMAT_UNSIGNED_INT32 = 0x03,
    CU_AD_FORMAT_SIGNED_INT8 = 0x08,
    CU_AD_FORMAT_SIGNED_INT16 = 0x09,
    CU_AD_FORMAT_SIGNED_INT32 = 0x0a,
    CU_AD_FORMAT_HALF = 0x10,
    CU_AD_FORMAT_FLOAT = 0x20,
    /* Packed normalized formats: channels in the name, read as floats in [0, 1] or [-1, 1]. */
    CU_AD_FORMAT_UNORM_INT_101010_2 = 0x50,
    /* Block-compressed formats (4x4 texels a block), for textures. */
    CU_AD_FORMAT_BC1_UNORM = 0x91,
    CU_AD_FORMAT_BC1_UNORM_SRGB = 0x92,
    CU_AD_FORMAT_BC2_UNORM = 0x93,
    CU_AD_FORMAT_BC2_UNORM_SRGB = 0x94,
    CU_AD_FORMAT_BC3_UNORM = 0x95,
    CU_AD_FORMAT_BC3_UNORM_SRGB = 0x96,
    CU_AD_FORMAT_BC4_UNORM = 0x97,
    CU_AD_FORMAT_BC4_SNORM = 0x98,
    CU_AD_FORMAT_BC5_UNORM = 0x99,
    CU_AD_FORMAT_BC5_SNORM = 0x9a,
    CU_AD_FORMAT_BC6H_UF16 = 0x9b,
    CU_AD_FORMAT_BC6H_SF16 = 0x9c,
    CU_AD_FORMAT_BC7_UNORM = 0x9d,
    CU_AD_FORMAT_BC7_UNORM_SRGB = 0x9e,
    /* Video formats, several planes (cuArrayGetPlane) or packed YUV. */
    CU_AD_FORMAT_P010 = 0x9f,
    CU_AD_FORMAT_P016 = 0xa1,
    CU_AD_FORMAT_NV16 = 0xa2,
    CU_AD_FORMAT_P210 = 0xa3,
    CU_AD_FORMAT_P216 = 0xa4,
    CU_AD_FORMAT_YUY2 = 0xa5,
    CU_AD_FORMAT_Y210 = 0xa6,
    CU_AD_FORMAT_Y216 = 0xa7,
    CU_AD_FORMAT_AYUV = 0xa8,
    CU_AD_FORMAT_Y410 = 0xa9,
    CU_AD_FORMAT_NV12 = 0xb0,
    CU_AD_FORMAT_Y416 = 0xb1,
    CU_AD_FORMAT_Y444_PLANAR8 = 0xb2,
    CU_AD_FORMAT_Y444_PLANAR10 = 0xb3,
    /* Normalized integers with the channel count in the format. */
    CU_AD_FORMAT_UNORM_INT8X1 = 0xc0,
    CU_AD_FORMAT_UNORM_INT8X2 = 0xc1,
    CU_AD_FORMAT_UNORM_INT8X4 = 0xc2,
    CU_AD_FORMAT_UNORM_INT16X1 = 0xc3,
    CU_AD_FORMAT_UNORM_INT16X2 = 0xc4,
    CU_AD_FORMAT_UNORM_INT16X4 = 0xc5,
    CU_AD_FORMAT_SNORM_INT8X1 = 0xc6,
    CU_AD_FORMAT_SNORM_INT8X2 = 0xc7,
    CU_AD_FORMAT_SNORM_INT8X4 = 0xc8,
    CU_AD_FORMAT_SNORM_INT16X1 = 0xc9,
    CU_AD_FORMAT_SNORM_INT16X2 = 0xca,
    CU_AD_FORMAT_SNORM_INT16X4 = 0xcb,
    CU_AD_FORMAT_MAX = 0x7FFFFFFF
} CUarray_format;

/* How a texture fetch outside [0, size) finds its texel. */
typedef enum CUaddress_mode_enum {
    CU_TR_ADDRESS_MODE_WRAP = 0,
    CU_TR_ADDRESS_MODE_CLAMP = 1,
    CU_TR_ADDRESS_MODE_MIRROR = 2,
    CU_TR_ADDRESS_MODE_BORDER = 3
} CUaddress_mode;

/* Nearest texel, or the weighted mean of the nearest 2, 4 or 8. */
typedef enum CUfilter_mode_enum {
    CU_TR_FILTER_MODE_POINT = 0,
    CU_TR_FILTER_MODE_LINEAR = 1
} CUfilter_mode;

/* Faces of a cubemap, in the order of its layers. */
typedef enum CUarray_cubemap_face_enum {
    CU_CUBEMAP_FACE_POSITIVE_X = 0x00,
    CU_CUBEMAP_FACE_NEGATIVE_X = 0x01,
    CU_CUBEMAP_FACE_POSITIVE_Y = 0x02,
    CU_CUBEMAP_FACE_NEGATIVE_Y = 0x03,
    CU_CUBEMAP_FACE_POSITIVE_Z = 0x04,
    CU_CUBEMAP_FACE_NEGATIVE_Z = 0x05
} CUarray_cubemap_face;

/* What a texture or surface object reads. */
typedef enum CUresourcetype_enum {
    CU_RESOURCE_TYPE_ARRAY = 0x00,
    CU_RESOURCE_TYPE_MIPMAPPED_ARRAY = 0x01,
    CU_RESOURCE_TYPE_LINEAR = 0x02,
    CU_RESOURCE_TYPE_PITCH2D = 0x03
} CUresourcetype;

/* A resource view's element format: channels x bits, or a block-compressed format. */
typedef enum CUresourceViewFormat_enum {
    CU_RES_VIEW_FORMAT_NONE = 0x00,
    CU_RES_VIEW_FORMAT_UINT_1X8 = 0x01,
    CU_RES_VIEW_FORMAT_UINT_2X8 = 0x02,
    CU_RES_VIEW_FORMAT_UINT_4X8 = 0x03,
    CU_RES_VIEW_FORMAT_SINT_1X8 = 0x04,
    CU_RES_VIEW_FORMAT_SINT_2X8 = 0x05,
    CU_RES_VIEW_FORMAT_SINT_4X8 = 0x06,
    CU_RES_VIEW_FORMAT_UINT_1X16 = 0x07,
    CU_RES_VIEW_FORMAT_UINT_2X16 = 0x08,
    CU_RES_VIEW_FORMAT_UINT_4X16 = 0x09,
    CU_RES_VIEW_FORMAT_SINT_1X16 = 0x0a,
    CU_RES_VIEW_FORMAT_SINT_2X16 = 0x0b,
    CU_RES_VIEW_FORMAT_SINT_4X16 = 0x0c,
    CU_RES_VIEW_FORMAT_UINT_1X32 = 0x0d,
    CU_RES_VIEW_FORMAT_UINT_2X32 = 0x0e,
    CU_RES_VIEW_FORMAT_UINT_4X32 = 0x0f,
    CU_RES_VIEW_FORMAT_SINT_1X32 = 0x10,
    CU_RES_VIEW_FORMAT_SINT_2X32 = 0x11,
    CU_RES_VIEW_FORMAT_SINT_4X32 = 0x12,
    CU_RES_VIEW_FORMAT_FLOAT_1X16 = 0x13,
    CU_RES_VIEW_FORMAT_FLOAT_2X16 = 0x14,
    CU_RES_VIEW_FORMAT_FLOAT_4X16 = 0x15,
    CU_RES_VIEW_FORMAT_FLOAT_1X32 = 0x16,
    CU_RES_VIEW_FORMAT_FLOAT_2X32 = 0x17,
    CU_RES_VIEW_FORMAT_FLOAT_4X32 = 0x18,
    CU_RES_VIEW_FORMAT_UNSIGNED_BC1 = 0x19,
    CU_RES_VIEW_FORMAT_UNSIGNED_BC2 = 0x1a,
    CU_RES_VIEW_FORMAT_UNSIGNED_BC3 = 0x1b,
    CU_RES_VIEW_FORMAT_UNSIGNED_BC4 = 0x1c,
    CU_RES_VIEW_FORMAT_SIGNED_BC4 = 0x1d,
    CU_RES_VIEW_FORMAT_UNSIGNED_BC5 = 0x1e,
    CU_RES_VIEW_FORMAT_SIGNED_BC5 = 0x1f,
    CU_RES_VIEW_FORMAT_UNSIGNED_BC6H = 0x20,
    CU_RES_VIEW_FORMAT_SIGNED_BC6H = 0x21,
    CU_RES_VIEW_FORMAT_UNSIGNED_BC7 = 0x22
} CUresourceViewFormat;

/* cuArrayCreate's shape: Height 0 makes a 1D array. */
typedef struct CUDA_ARRAY_DESCRIPTOR_st {
    size_t Width;
    size_t Height;
    CUarray_format Format;
    unsigned int NumChannels;
} CUDA_ARRAY_DESCRIPTOR_v2;
typedef CUDA_ARRAY_DESCRIPTOR_v2 CUDA_ARRAY_DESCRIPTOR;

/* cuArray3DCreate's shape: Depth 0 makes a 1D or 2D array; with CUDA_ARRAY3D_LAYERED, Depth is
 * the number of layers. */
typedef struct CUDA_ARRAY3D_DESCRIPTOR_st {
    size_t Width;
    size_t Height;
    size_t Depth;
    CUarray_format Format;
    unsigned int NumChannels;
    unsigned int Flags; /* CUDA_ARRAY3D_* */
} CUDA_ARRAY3D_DESCRIPTOR_v2;
typedef CUDA_ARRAY3D_DESCRIPTOR_v2 CUDA_ARRAY3D_DESCRIPTOR;

/* CUDA_ARRAY3D_DESCRIPTOR.Flags */
#define CUDA_ARRAY3D_LAYERED 0x01       /* Depth counts layers */
#define CUDA_ARRAY3D_2DARRAY 0x01       /* the older name of LAYERED */
#define CUDA_ARRAY3D_SURFACE_LDST 0x02  /* surface objects may be made over it */
#define CUDA_ARRAY3D_CUBEMAP 0x04       /* six square faces (times the layers when LAYERED) */
#define CUDA_ARRAY3D_TEXTURE_GATHER 0x08 /* read by tld4 */
#define CUDA_ARRAY3D_DEPTH_TEXTURE 0x10
#define CUDA_ARRAY3D_COLOR_ATTACHMENT 0x20
#define CUDA_ARRAY3D_SPARSE 0x40
#define CUDA_ARRAY3D_DEFERRED_MAPPING 0x80
#define CUDA_ARRAY3D_VIDEO_ENCODE_DECODE 0x100

/* Sparse arrays' tiles (cuArrayGetSparseProperties). */
typedef struct CUDA_ARRAY_SPARSE_PROPERTIES_st {
    struct {
        unsigned int width;
        unsigned int height;
        unsigned int depth;
    } tileExtent;
    unsigned int miptailFirstLevel;
    unsigned long long miptailSize;
    unsigned int flags;
    unsigned int reserved[4];
} CUDA_ARRAY_SPARSE_PROPERTIES_v1;
typedef CUDA_ARRAY_SPARSE_PROPERTIES_v1 CUDA_ARRAY_SPARSE_PROPERTIES;

/* What an array made with CUDA_ARRAY3D_DEFERRED_MAPPING needs of the memory it will use. */
typedef struct CUDA_ARRAY_MEMORY_REQUIREMENTS_st {
    size_t size;
    size_t alignment;
    unsigned int reserved[4];
} CUDA_ARRAY_MEMORY_REQUIREMENTS_v1;
typedef CUDA_ARRAY_MEMORY_REQUIREMENTS_v1 CUDA_ARRAY_MEMORY_REQUIREMENTS;

/* The memory a texture or surface object reads, by resType. */
typedef struct CUDA_RESOURCE_DESC_st {
    CUresourcetype resType;
    union {
        struct {
            CUarray hArray;
        } array;
        struct {
            CUmipmappedArray hMipmappedArray;
        } mipmap;
        struct {
            CUdeviceptr devPtr;
            CUarray_format format;
            unsigned int numChannels;
            size_t sizeInBytes;
        } linear;
        struct {
            CUdeviceptr devPtr;
            CUarray_format format;
            unsigned int numChannels;
            size_t width;        /* elements */
            size_t height;       /* rows */
            size_t pitchInBytes;
        } pitch2D;
        struct {
            int reserved[32];
        } reserved;
    } res;
    unsigned int flags; /* 0 */
} CUDA_RESOURCE_DESC_v1;
typedef CUDA_RESOURCE_DESC_v1 CUDA_RESOURCE_DESC;

/* How a texture object samples its resource. */
typedef struct CUDA_TEXTURE_DESC_st {
    CUaddress_mode addressMode[3];
    CUfilter_mode filterMode;
    unsigned int flags; /* CU_TRSF_* */
    unsigned int maxAnisotropy;
    CUfilter_mode mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
    float borderColor[4];
    int reserved[12];
} CUDA_TEXTURE_DESC_v1;
typedef CUDA_TEXTURE_DESC_v1 CUDA_TEXTURE_DESC;

/* CUDA_TEXTURE_DESC.flags */
#define CU_TRSF_READ_AS_INTEGER 0x01                /* integer formats read as integers, not [0, 1] */
#define CU_TRSF_NORMALIZED_COORDINATES 0x02         /* coordinates in [0, 1) span the texture */
#define CU_TRSF_SRGB 0x10                           /* 8-bit colour channels are sRGB-encoded */
#define CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION 0x20
#define CU_TRSF_SEAMLESS_CUBEMAP 0x40
/* The texture-reference call flag that overrides the array's format. */
#define CU_TRSA_OVERRIDE_FORMAT 0x01

/* A view of part of a resource, in another element format. */
typedef struct CUDA_RESOURCE_VIEW_DESC_st {
    CUresourceViewFormat format;
    size_t width;
    size_t height;
    size_t depth;
    unsigned int firstMipmapLevel;
    unsigned int lastMipmapLevel;
    unsigned int firstLayer;
    unsigned int lastLayer;
    unsigned int reserved[16];
} CUDA_RESOURCE_VIEW_DESC_v1;
typedef CUDA_RESOURCE_VIEW_DESC_v1 CUDA_RESOURCE_VIEW_DESC;

/* cuParamSetTexRef's texunit: the only value. */
#define CU_PARAM_TR_DEFAULT -1

typedef enum CUstream_flags_enum {
    CU_STREAM_DEFAULT      = 0x0,
    CU_STREAM_NON_BLOCKING = 0x1
} CUstream_flags;

typedef enum CUevent_flags_enum {
    CU_EVENT_DEFAULT        = 0x0,
    CU_EVENT_BLOCKING_SYNC  = 0x1,
    CU_EVENT_DISABLE_TIMING = 0x2,
    CU_EVENT_INTERPROCESS   = 0x4
} CUevent_flags;

typedef enum CUevent_wait_flags_enum {
    CU_EVENT_WAIT_DEFAULT  = 0x0,
    CU_EVENT_WAIT_EXTERNAL = 0x1
} CUevent_wait_flags;
/* cuEventRecordWithFlags: EXTERNAL records the event as a node of the graph a capture makes. */
typedef enum CUevent_record_flags_enum {
    CU_EVENT_RECORD_DEFAULT = 0x0,
    CU_EVENT_RECORD_EXTERNAL = 0x1
} CUevent_record_flags;

typedef enum CUdriverProcAddress_flags_enum {
    CU_GET_PROC_ADDRESS_DEFAULT                   = 0,
    CU_GET_PROC_ADDRESS_LEGACY_STREAM             = 1 << 0,
    CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 1 << 1
} CUdriverProcAddress_flags;

typedef enum CUdriverProcAddressQueryResult_enum {
    CU_GET_PROC_ADDRESS_SUCCESS                = 0,
    CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND       = 1,
    CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2
} CUdriverProcAddressQueryResult;

typedef enum CUmemAllocationHandleType_enum {
    CU_MEM_HANDLE_TYPE_NONE                  = 0x0,
    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR = 0x1,
    CU_MEM_HANDLE_TYPE_WIN32                 = 0x2,
    CU_MEM_HANDLE_TYPE_WIN32_KMT             = 0x4,
    CU_MEM_HANDLE_TYPE_FABRIC                = 0x8,
    CU_MEM_HANDLE_TYPE_MAX                   = 0x7FFFFFFF
} CUmemAllocationHandleType;

typedef enum CUmemAccess_flags_enum {
    CU_MEM_ACCESS_FLAGS_PROT_NONE      = 0x0,
    CU_MEM_ACCESS_FLAGS_PROT_READ      = 0x1,
    CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 0x3,
    CU_MEM_ACCESS_FLAGS_PROT_MAX       = 0x7FFFFFFF
} CUmemAccess_flags;

typedef enum CUmemLocationType_enum {
    CU_MEM_LOCATION_TYPE_INVALID           = 0x0,
    CU_MEM_LOCATION_TYPE_NONE              = 0x0,
    CU_MEM_LOCATION_TYPE_DEVICE            = 0x1,
    CU_MEM_LOCATION_TYPE_HOST              = 0x2,
    CU_MEM_LOCATION_TYPE_HOST_NUMA         = 0x3,
    CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT = 0x4,
    CU_MEM_LOCATION_TYPE_MAX               = 0x7FFFFFFF
} CUmemLocationType;

typedef enum CUmemAllocationType_enum {
    CU_MEM_ALLOCATION_TYPE_INVALID = 0x0,
    CU_MEM_ALLOCATION_TYPE_PINNED  = 0x1,
    CU_MEM_ALLOCATION_TYPE_MANAGED = 0x2,
    CU_MEM_ALLOCATION_TYPE_MAX     = 0x7FFFFFFF
} CUmemAllocationType;

typedef enum CUmemAllocationGranularity_flags_enum {
    CU_MEM_ALLOC_GRANULARITY_MINIMUM     = 0x0,
    CU_MEM_ALLOC_GRANULARITY_RECOMMENDED = 0x1
} CUmemAllocationGranularity_flags;

typedef enum CUmemAllocationCompType_enum {
    CU_MEM_ALLOCATION_COMP_NONE    = 0x0,
    CU_MEM_ALLOCATION_COMP_GENERIC = 0x1
} CUmemAllocationCompType;

typedef enum CUexternalMemoryHandleType_enum {
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD          = 1,
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32       = 2,
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT   = 3,
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP         = 4,
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE     = 5,
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE     = 6,
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT = 7,
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF           = 8,
    CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD          = 9
} CUexternalMemoryHandleType;

/* The memory is a dedicated allocation (a D3D12 committed resource, a D3D11 resource, a
 * Vulkan dedicated allocation). */
#define CUDA_EXTERNAL_MEMORY_DEDICATED 0x1

typedef enum CUexternalSemaphoreHandleType_enum {
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD                = 1,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32             = 2,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT         = 3,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE              = 4,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_FENCE              = 5,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_NVSCISYNC                = 6,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX        = 7,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT    = 8,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD    = 9,
    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_WIN32 = 10
} CUexternalSemaphoreHandleType;

/* Flags of the signal and wait parameters; they mean something for NvSciSync objects only. */
#define CUDA_EXTERNAL_SEMAPHORE_SIGNAL_SKIP_NVSCIBUF_MEMSYNC 0x01
#define CUDA_EXTERNAL_SEMAPHORE_WAIT_SKIP_NVSCIBUF_MEMSYNC 0x02

/* What cuMemGetHandleForAddressRange returns: a dma-buf fd is the only kind. */
typedef enum CUmemRangeHandleType_enum {
    CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD = 0x1,
    CU_MEM_RANGE_HANDLE_TYPE_MAX        = 0x7FFFFFFF
} CUmemRangeHandleType;

/* cuMemGetHandleForAddressRange flags: a dma-buf mapped through the device's PCIe BAR1. */
typedef enum CUmemRangeFlags_enum {
    CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE = 0x1
} CUmemRangeFlags;

typedef enum CUipcMem_flags_enum {
    CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS = 0x1
} CUipcMem_flags;

/* cuMemHostAlloc flags. */
#define CU_MEMHOSTALLOC_PORTABLE      0x01
#define CU_MEMHOSTALLOC_DEVICEMAP     0x02
#define CU_MEMHOSTALLOC_WRITECOMBINED 0x04

/* cuMemHostRegister flags. */
#define CU_MEMHOSTREGISTER_PORTABLE  0x01
#define CU_MEMHOSTREGISTER_DEVICEMAP 0x02
#define CU_MEMHOSTREGISTER_IOMEMORY  0x04
#define CU_MEMHOSTREGISTER_READ_ONLY 0x08

/* ---- Structures ------------------------------------------------------------------- */
/* Execution affinity: the one kind is a count of multiprocessors. */
typedef enum CUexecAffinityType_enum {
    CU_EXEC_AFFINITY_TYPE_SM_COUNT = 0,
    CU_EXEC_AFFINITY_TYPE_MAX
} CUexecAffinityType;
typedef struct CUexecAffinitySmCount_st {
    unsigned int val;
} CUexecAffinitySmCount_v1;
typedef CUexecAffinitySmCount_v1 CUexecAffinitySmCount;
typedef struct CUexecAffinityParam_st {
    CUexecAffinityType type;
    union {
        CUexecAffinitySmCount smCount;
    } param;
} CUexecAffinityParam_v1;
typedef CUexecAffinityParam_v1 CUexecAffinityParam;

/* cuDeviceGetProperties' legacy summary of a device, each field one device attribute. */
typedef struct CUdevprop_st {
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int sharedMemPerBlock;
    int totalConstantMemory;
    int SIMDWidth;
    int memPitch;
    int regsPerBlock;
    int clockRate;
    int textureAlign;
} CUdevprop_v1;
typedef CUdevprop_v1 CUdevprop;

typedef struct CUctxCreateParams_st {
    CUexecAffinityParam *execAffinityParams;
    int numExecAffinityParams;
    CUctxCigParam *cigParams;
} CUctxCreateParams;

typedef struct CUDA_MEMCPY2D_st {
    size_t srcXInBytes;
    size_t srcY;
    CUmemorytype srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    CUarray srcArray;
    size_t srcPitch;
    size_t dstXInBytes;
    size_t dstY;
    CUmemorytype dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    CUarray dstArray;
    size_t dstPitch;
    size_t WidthInBytes;
    size_t Height;
} CUDA_MEMCPY2D_v2;
typedef CUDA_MEMCPY2D_v2 CUDA_MEMCPY2D;

/* A 3D copy: Depth layers of Height rows of WidthInBytes bytes. Each side starts at
 * base + (Z * height + Y) * pitch + XInBytes; LOD and the reserved pointers must be 0. */
typedef struct CUDA_MEMCPY3D_st {
    size_t srcXInBytes;
    size_t srcY;
    size_t srcZ;
    size_t srcLOD;
    CUmemorytype srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    CUarray srcArray;
    void *reserved0;
    size_t srcPitch;
    size_t srcHeight; /* rows per layer; may be 0 when Depth is 1 */
    size_t dstXInBytes;
    size_t dstY;
    size_t dstZ;
    size_t dstLOD;
    CUmemorytype dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    CUarray dstArray;
    void *reserved1;
    size_t dstPitch;
    size_t dstHeight;
    size_t WidthInBytes;
    size_t Height;
    size_t Depth;
} CUDA_MEMCPY3D_v2;
typedef CUDA_MEMCPY3D_v2 CUDA_MEMCPY3D;

/* The same between contexts: each side names its context where the reserved pointer was. */
typedef struct CUDA_MEMCPY3D_PEER_st {
    size_t srcXInBytes;
    size_t srcY;
    size_t srcZ;
    size_t srcLOD;
    CUmemorytype srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    CUarray srcArray;
    CUcontext srcContext;
    size_t srcPitch;
    size_t srcHeight;
    size_t dstXInBytes;
    size_t dstY;
    size_t dstZ;
    size_t dstLOD;
    CUmemorytype dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    CUarray dstArray;
    CUcontext dstContext;
    size_t dstPitch;
    size_t dstHeight;
    size_t WidthInBytes;
    size_t Height;
    size_t Depth;
} CUDA_MEMCPY3D_PEER_v1;
typedef CUDA_MEMCPY3D_PEER_v1 CUDA_MEMCPY3D_PEER;

typedef void (CUDA_CB *CUhostFn)(void *userData);

/* ---- External memory ---- */
typedef struct CUDA_EXTERNAL_MEMORY_HANDLE_DESC_st {
    CUexternalMemoryHandleType type;
    union {
        int fd;
        struct {
            void *handle;
            const void *name; /* a NUL-terminated UTF-16 name */
        } win32;
        const void *nvSciBufObject;
    } handle;
    unsigned long long size;
    unsigned int flags;
    unsigned int reserved[16];
} CUDA_EXTERNAL_MEMORY_HANDLE_DESC_v1;
typedef CUDA_EXTERNAL_MEMORY_HANDLE_DESC_v1 CUDA_EXTERNAL_MEMORY_HANDLE_DESC;

typedef struct CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC_st {
    CUexternalSemaphoreHandleType type;
    union {
        int fd;
        struct {
            void *handle;
            const void *name; /* a NUL-terminated UTF-16 name */
        } win32;
        const void *nvSciSyncObj;
    } handle;
    unsigned int flags;
    unsigned int reserved[16];
} CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC_v1;
typedef CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC_v1 CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC;

typedef struct CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS_st {
    struct {
        struct {
            unsigned long long value; /* timeline semaphores and fences: the value to set */
        } fence;
        union {
            void *fence;
            unsigned long long reserved;
        } nvSciSync;
        struct {
            unsigned long long key; /* keyed mutexes: the key to release with */
        } keyedMutex;
        unsigned int reserved[12];
    } params;
    unsigned int flags;
    unsigned int reserved[16];
} CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS_v1;
typedef CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS_v1 CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS;

typedef struct CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS_st {
    struct {
        struct {
            unsigned long long value; /* timeline semaphores and fences: the value to reach */
        } fence;
        union {
            void *fence;
            unsigned long long reserved;
        } nvSciSync;
        struct {
            unsigned long long key;  /* keyed mutexes: the key to acquire with */
            unsigned int timeoutMs;  /* ... and how long to try */
        } keyedMutex;
        unsigned int reserved[10];
    } params;
    unsigned int flags;
    unsigned int reserved[16];
} CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS_v1;
typedef CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS_v1 CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS;

typedef struct CUDA_EXTERNAL_MEMORY_BUFFER_DESC_st {
    unsigned long long offset;
    unsigned long long size;
    unsigned int flags;
    unsigned int reserved[16];
} CUDA_EXTERNAL_MEMORY_BUFFER_DESC_v1;
typedef CUDA_EXTERNAL_MEMORY_BUFFER_DESC_v1 CUDA_EXTERNAL_MEMORY_BUFFER_DESC;

/* cuExternalMemoryGetMappedMipmappedArray: numLevels levels of the array at offset. */
typedef struct CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC_st {
    unsigned long long offset;
    CUDA_ARRAY3D_DESCRIPTOR arrayDesc;
    unsigned int numLevels;
    unsigned int reserved[16];
} CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC_v1;
typedef CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC_v1 CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC;

/* ---- Virtual memory management ---- */
typedef unsigned long long CUmemGenericAllocationHandle_v1;
typedef CUmemGenericAllocationHandle_v1 CUmemGenericAllocationHandle;

typedef struct CUmemLocation_st {
    CUmemLocationType type;
    int id;
} CUmemLocation_v1;
typedef CUmemLocation_v1 CUmemLocation;

/* ---- Managed memory ---- */
/* Special device ordinals in managed-memory answers: the host, and "no one device". */
#define CU_DEVICE_CPU     ((CUdevice)-1)
#define CU_DEVICE_INVALID ((CUdevice)-2)

typedef enum CUmemAttach_flags_enum {
    CU_MEM_ATTACH_GLOBAL = 0x1,
    CU_MEM_ATTACH_HOST   = 0x2,
    CU_MEM_ATTACH_SINGLE = 0x4
} CUmemAttach_flags;

typedef enum CUmem_advise_enum {
    CU_MEM_ADVISE_SET_READ_MOSTLY          = 1,
    CU_MEM_ADVISE_UNSET_READ_MOSTLY        = 2,
    CU_MEM_ADVISE_SET_PREFERRED_LOCATION   = 3,
    CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION = 4,
    CU_MEM_ADVISE_SET_ACCESSED_BY          = 5,
    CU_MEM_ADVISE_UNSET_ACCESSED_BY        = 6
} CUmem_advise;

typedef enum CUmem_range_attribute_enum {
    CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY                 = 1,
    CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION          = 2,
    CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY                 = 3,
    CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION      = 4,
    CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE     = 5,
    CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID       = 6,
    CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE = 7,
    CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID   = 8
} CUmem_range_attribute;

/* ---- Stream memory operations ---- */
typedef enum CUstreamWaitValue_flags_enum {
    CU_STREAM_WAIT_VALUE_GEQ   = 0x0,     /* (int32_t)(*addr - value) >= 0: cyclic, ignores wraparound */
    CU_STREAM_WAIT_VALUE_EQ    = 0x1,     /* *addr == value */
    CU_STREAM_WAIT_VALUE_AND   = 0x2,     /* (*addr & value) != 0 */
    CU_STREAM_WAIT_VALUE_NOR   = 0x3,     /* ~(*addr | value) != 0 */
    CU_STREAM_WAIT_VALUE_FLUSH = 1 << 30  /* flush remote writes after the wait */
} CUstreamWaitValue_flags;

typedef enum CUstreamWriteValue_flags_enum {
    CU_STREAM_WRITE_VALUE_DEFAULT           = 0x0,
    CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER = 0x1
} CUstreamWriteValue_flags;

typedef enum CUstreamBatchMemOpType_enum {
    CU_STREAM_MEM_OP_WAIT_VALUE_32       = 1,
    CU_STREAM_MEM_OP_WRITE_VALUE_32      = 2,
    CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES = 3,
    CU_STREAM_MEM_OP_WAIT_VALUE_64       = 4,
    CU_STREAM_MEM_OP_WRITE_VALUE_64      = 5,
    CU_STREAM_MEM_OP_BARRIER             = 6
} CUstreamBatchMemOpType;

typedef enum CUstreamMemoryBarrier_flags_enum {
    CU_STREAM_MEMORY_BARRIER_TYPE_SYS = 0x0,
    CU_STREAM_MEMORY_BARRIER_TYPE_GPU = 0x1
} CUstreamMemoryBarrier_flags;

/* One operation of cuStreamBatchMemOp: `operation` is the first member of every variant. */
typedef union CUstreamBatchMemOpParams_union {
    CUstreamBatchMemOpType operation;
    struct CUstreamMemOpWaitValueParams_st {
        CUstreamBatchMemOpType operation;
        CUdeviceptr address;
        union {
            cuuint32_t value;
            cuuint64_t value64;
        };
        unsigned int flags; /* CUstreamWaitValue_flags */
        CUdeviceptr alias;  /* the driver's own; ignored */
    } waitValue;
    struct CUstreamMemOpWriteValueParams_st {
        CUstreamBatchMemOpType operation;
        CUdeviceptr address;
        union {
            cuuint32_t value;
            cuuint64_t value64;
        };
        unsigned int flags; /* CUstreamWriteValue_flags */
        CUdeviceptr alias;  /* the driver's own; ignored */
    } writeValue;
    struct CUstreamMemOpFlushRemoteWritesParams_st {
        CUstreamBatchMemOpType operation;
        unsigned int flags;
    } flushRemoteWrites;
    struct CUstreamMemOpMemoryBarrierParams_st {
        CUstreamBatchMemOpType operation;
        unsigned int flags; /* CUstreamMemoryBarrier_flags */
    } memoryBarrier;
    cuuint64_t pad[6];
} CUstreamBatchMemOpParams_v1;
typedef CUstreamBatchMemOpParams_v1 CUstreamBatchMemOpParams;

/* ---- Driver logs (CUDA 12.9) ---- */
typedef enum CUlogLevel_enum {
    CU_LOG_LEVEL_ERROR   = 0,
    CU_LOG_LEVEL_WARNING = 1
} CUlogLevel;
typedef struct CUlogsCallbackEntry_st *CUlogsCallbackHandle;
typedef void (CUDA_CB *CUlogsCallback)(void *data, CUlogLevel logLevel, char *message, size_t length);
typedef unsigned int CUlogIterator;

typedef struct CUmemAllocationProp_st {
    CUmemAllocationType type;
    CUmemAllocationHandleType requestedHandleTypes;
    CUmemLocation location;
    void *win32HandleMetaData; /* Windows: a SECURITY_ATTRIBUTES for CU_MEM_HANDLE_TYPE_WIN32 */
    struct {
        unsigned char compressionType;
        unsigned char gpuDirectRDMACapable;
        unsigned short usage;
        unsigned char reserved[4];
    } allocFlags;
} CUmemAllocationProp_v1;
typedef CUmemAllocationProp_v1 CUmemAllocationProp;

typedef struct CUmemAccessDesc_st {
    CUmemLocation location;
    CUmemAccess_flags flags;
} CUmemAccessDesc_v1;
typedef CUmemAccessDesc_v1 CUmemAccessDesc;

/* ---- Memory pools (stream-ordered allocation) ---- */
typedef struct CUmemPoolHandle_st *CUmemoryPool;

typedef enum CUmemPool_attribute_enum {
    CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES = 1,  /* int: 0 or 1 */
    CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC = 2,        /* int */
    CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES = 3, /* int */
    CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4,                /* cuuint64_t: bytes kept when freed */
    CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT = 5,             /* cuuint64_t, read only */
    CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH = 6,                /* cuuint64_t, reset with 0 */
    CU_MEMPOOL_ATTR_USED_MEM_CURRENT = 7,                 /* cuuint64_t, read only */
    CU_MEMPOOL_ATTR_USED_MEM_HIGH = 8                     /* cuuint64_t, reset with 0 */
} CUmemPool_attribute;

#define CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS 0x2

typedef struct CUmemPoolProps_st {
    CUmemAllocationType allocType;         /* CU_MEM_ALLOCATION_TYPE_PINNED */
    CUmemAllocationHandleType handleTypes; /* what the pool may be exported as */
    CUmemLocation location;
    void *win32SecurityAttributes;         /* Windows: guards exported NT handles */
    size_t maxSize;                        /* 0: no limit of the pool's own */
    unsigned short usage;
    unsigned char reserved[54];            /* zero */
} CUmemPoolProps_v1;
typedef CUmemPoolProps_v1 CUmemPoolProps;

/* What cuMemPoolExportPointer writes and cuMemPoolImportPointer reads: opaque. */
typedef struct CUmemPoolPtrExportData_st {
    unsigned char reserved[64];
} CUmemPoolPtrExportData_v1;
typedef CUmemPoolPtrExportData_v1 CUmemPoolPtrExportData;
/* ---- Batch copies (CUDA 12.8) ---- */
typedef enum CUmemcpyFlags_enum {
    CU_MEMCPY_FLAG_DEFAULT = 0x0,
    CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE = 0x1 /* a hint */
} CUmemcpyFlags;

/* When a copy of a batch may read its source (its destination is always written in order). */
typedef enum CUmemcpySrcAccessOrder_enum {
    CU_MEMCPY_SRC_ACCESS_ORDER_INVALID = 0x0,
    CU_MEMCPY_SRC_ACCESS_ORDER_STREAM = 0x1,          /* in stream order */
    CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL = 0x2, /* any time before the call returns */
    CU_MEMCPY_SRC_ACCESS_ORDER_ANY = 0x3,             /* any time, even after the call */
    CU_MEMCPY_SRC_ACCESS_ORDER_MAX = 0x7FFFFFFF
} CUmemcpySrcAccessOrder;

typedef struct CUmemcpyAttributes_st {
    CUmemcpySrcAccessOrder srcAccessOrder;
    CUmemLocation srcLocHint; /* hints for memory that migrates */
    CUmemLocation dstLocHint;
    unsigned int flags;       /* CUmemcpyFlags */
} CUmemcpyAttributes_v1;
typedef CUmemcpyAttributes_v1 CUmemcpyAttributes;

typedef enum CUmemcpy3DOperandType_enum {
    CU_MEMCPY_OPERAND_TYPE_POINTER = 0x1,
    CU_MEMCPY_OPERAND_TYPE_ARRAY = 0x2,
    CU_MEMCPY_OPERAND_TYPE_MAX = 0x7FFFFFFF
} CUmemcpy3DOperandType;

typedef struct CUoffset3D_st {
    size_t x;
    size_t y;
    size_t z;
} CUoffset3D_v1;
typedef CUoffset3D_v1 CUoffset3D;

typedef struct CUextent3D_st {
    size_t width;
    size_t height;
    size_t depth;
} CUextent3D_v1;
typedef CUextent3D_v1 CUextent3D;

typedef struct CUmemcpy3DOperand_st {
    CUmemcpy3DOperandType type;
    union {
        struct {
            CUdeviceptr ptr;
            size_t rowLength;   /* elements per row; 0: the copy's width */
            size_t layerHeight; /* rows per layer; 0: the copy's height */
            CUmemLocation locHint;
        } ptr;
        struct {
            CUarray array;
            CUoffset3D offset;
        } array;
    } op;
} CUmemcpy3DOperand_v1;
typedef CUmemcpy3DOperand_v1 CUmemcpy3DOperand;

typedef struct CUDA_MEMCPY3D_BATCH_OP_st {
    CUmemcpy3DOperand src;
    CUmemcpy3DOperand dst;
    CUextent3D extent; /* in elements (bytes between pointers); none may be 0 */
    CUmemcpySrcAccessOrder srcAccessOrder;
    unsigned int flags; /* CUmemcpyFlags */
} CUDA_MEMCPY3D_BATCH_OP_v1;
typedef CUDA_MEMCPY3D_BATCH_OP_v1 CUDA_MEMCPY3D_BATCH_OP;

/* ===================================================================================
 * Entry points. "Returns" lists every code and its exact condition; any call also
 * returns CUDA_ERROR_NOT_INITIALIZED before cuInit, and calls that work in a context
 * return CUDA_ERROR_INVALID_CONTEXT when none is current.
 * =================================================================================== */

/* ---- Errors ---- */
/* Returns CUDA_SUCCESS, or CUDA_ERROR_INVALID_VALUE if pStr is NULL or error is unknown
 * (then *pStr is set to NULL). Works before cuInit. */
EXTMEM_API CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pStr);
EXTMEM_API CUresult CUDAAPI cuGetErrorString(CUresult error, const char **pStr);

/* ---- The driver's log (CUDA 12.9) ----
 * Every failure's reason (the text extmem_error_detail() gives, then the code's name in
 * brackets; CUDA_ERROR_NOT_READY is an answer, not logged) and every warning is an entry. The
 * newest 100 entries are kept, as NVIDIA's driver keeps them (and at most the 25600 bytes CUDA
 * documents); each is handed at once to the registered callbacks (CU_LOG_LEVEL_ERROR,
 * CU_LOG_LEVEL_WARNING), in the failing thread, and a dump shows it as a line
 * "[HH:MM:SS.mmm][thread][CUDA][E] reason" (UTC; [W] for warnings). An iterator is the number of
 * the next entry. flags are ignored, as NVIDIA's driver ignores them. All work before cuInit;
 * all are thread safe. docs/driver-observations.md, "The driver's log". */
/* callback_out may be NULL. A callback runs inside the call that failed, which may hold
 * extmem's locks (the managed-memory calls hold none by then): a callback that calls CUDA
 * itself should keep to calls that cannot wait for the device.
 * CUDA_ERROR_INVALID_VALUE: callbackFunc NULL.
 * CUDA_ERROR_OUT_OF_MEMORY: 16 callbacks are registered already. */
EXTMEM_API CUresult CUDAAPI cuLogsRegisterCallback(CUlogsCallback callbackFunc, void *userData,
                                                   CUlogsCallbackHandle *callback_out);
/* Once it returns the callback runs in no thread (unless called from a callback), so its
 * userData may be freed. CUDA_ERROR_INVALID_VALUE: callback NULL, or not a registered callback
 * (NVIDIA's driver crashes on a second unregistration). */
EXTMEM_API CUresult CUDAAPI cuLogsUnregisterCallback(CUlogsCallbackHandle callback);
/* CUDA_ERROR_INVALID_VALUE: iterator_out NULL. */
EXTMEM_API CUresult CUDAAPI cuLogsCurrent(CUlogIterator *iterator_out, unsigned int flags);
/* Writes the file anew (as NVIDIA's driver does) with what cuLogsDumpToMemory gives, and
 * advances *iterator. CUDA_ERROR_INVALID_VALUE: pathToFile NULL, the file cannot be opened or
 * written. */
EXTMEM_API CUresult CUDAAPI cuLogsDumpToFile(CUlogIterator *iterator, const char *pathToFile, unsigned int flags);
/* Writes the entries from *iterator (NULL: all kept), one a line, NUL-terminated; *size is the
 * buffer's size in, the bytes written without the NUL out (0 when there is nothing new, with
 * CUDA_SUCCESS); the newest entries that fit are written, behind a line saying how many are
 * missing when some are (dropped from the log, or left out for want of room); *iterator
 * advances past the newest.
 * CUDA_ERROR_INVALID_VALUE: buffer or size NULL; the buffer holds not even the newest entry
 * (then it holds the note alone where that fits, *size says its length, *iterator stays). */
EXTMEM_API CUresult CUDAAPI cuLogsDumpToMemory(CUlogIterator *iterator, char *buffer, size_t *size, unsigned int flags);

/* ---- Initialisation and version ---- */
/* CUDA_ERROR_INVALID_VALUE if Flags is not 0. CUDA_ERROR_NOT_INITIALIZED in a fork() child of
 * a process that had called cuInit, as on the driver: there every call but cuDriverGetVersion,
 * cuGetErrorName/String and cuGetProcAddress answers CUDA_ERROR_NOT_INITIALIZED, and the
 * parent's device memory is not mapped (docs/fork.md). */
EXTMEM_API CUresult CUDAAPI cuInit(unsigned int Flags);
/* CUDA_ERROR_INVALID_VALUE if driverVersion is NULL. Works before cuInit. */
EXTMEM_API CUresult CUDAAPI cuDriverGetVersion(int *driverVersion);

/* ---- Device ---- */
/* CUDA_ERROR_INVALID_VALUE for a NULL out-pointer; CUDA_ERROR_INVALID_DEVICE for an
 * ordinal other than 0 (the software device is the only one). */
EXTMEM_API CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal);
EXTMEM_API CUresult CUDAAPI cuDeviceGetCount(int *count);
/* CUDA_ERROR_INVALID_VALUE if name is NULL or len <= 0; the name is truncated to len-1. */
EXTMEM_API CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev);
EXTMEM_API CUresult CUDAAPI cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
/* The LUID is filled on every platform (8 bytes derived from the device UUID), node mask 1. */
EXTMEM_API CUresult CUDAAPI cuDeviceGetLuid(char *luid, unsigned int *deviceNodeMask, CUdevice dev);
EXTMEM_API CUresult CUDAAPI cuDeviceTotalMem(size_t *bytes, CUdevice dev);
/* CUDA_ERROR_INVALID_VALUE for a NULL pi or an attribute outside 1..CU_DEVICE_ATTRIBUTE_MAX-1. */
EXTMEM_API CUresult CUDAAPI cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev);
/* The compute capability (device attributes 75 and 76). INVALID_VALUE: major or minor NULL;
 * INVALID_DEVICE: dev is not 0. */
EXTMEM_API CUresult CUDAAPI cuDeviceComputeCapability(int *major, int *minor, CUdevice dev);
/* 0 for CU_EXEC_AFFINITY_TYPE_SM_COUNT: a context cannot be limited to part of the device
 * (cuCtxCreate with affinity parameters is CUDA_ERROR_NOT_SUPPORTED). INVALID_VALUE: pi NULL, a
 * type that is not a CUexecAffinityType; INVALID_DEVICE: dev is not 0. */
EXTMEM_API CUresult CUDAAPI cuDeviceGetExecAffinitySupport(int *pi, CUexecAffinityType type, CUdevice dev);
/* Every field from the device attribute of the same meaning. INVALID_VALUE: prop NULL. */
EXTMEM_API CUresult CUDAAPI cuDeviceGetProperties(CUdevprop *prop, CUdevice dev);
/* The software device has no PCI location; it answers the address its PCI attributes (all 0)
 * make: "0000:00:00.0" (12 characters). INVALID_VALUE: pciBusId NULL, or len too short for
 * the id and its NUL (what fits is written, NUL-ended, as the driver does) or not positive. */
EXTMEM_API CUresult CUDAAPI cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev);
/* Reads [domain:]bus:device[.function] in hex. INVALID_VALUE: dev or pciBusId NULL, or text
 * that is no PCI address; INVALID_DEVICE: an address that is not the software device's. */
EXTMEM_API CUresult CUDAAPI cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId);
/* There is one device, and a device is not its own peer: *canAccessPeer is 0 for (0, 0).
 * INVALID_VALUE: canAccessPeer NULL; INVALID_DEVICE: either ordinal is not 0. */
EXTMEM_API CUresult CUDAAPI cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev);
/* INVALID_VALUE: value NULL or attrib unknown; INVALID_DEVICE for every pair, the same device
 * twice included (as the driver answers), since there is no second device. */
/* CUDA 13.0's atomic capability queries: for each operation, the CUatomicOperationCapability
 * bits of what a kernel's atomics can do on memory the host uses at the same time (host) or on
 * a peer's memory (P2P: one device, so INVALID_DEVICE, as the H200 answers itself). */
typedef enum CUatomicOperation_enum {
    CU_ATOMIC_OPERATION_INTEGER_ADD = 0,
    CU_ATOMIC_OPERATION_INTEGER_MIN = 1,
    CU_ATOMIC_OPERATION_INTEGER_MAX = 2,
    CU_ATOMIC_OPERATION_INTEGER_INCREMENT = 3,
    CU_ATOMIC_OPERATION_INTEGER_DECREMENT = 4,
    CU_ATOMIC_OPERATION_AND = 5,
    CU_ATOMIC_OPERATION_OR = 6,
    CU_ATOMIC_OPERATION_XOR = 7,
    CU_ATOMIC_OPERATION_EXCHANGE = 8,
    CU_ATOMIC_OPERATION_CAS = 9,
    CU_ATOMIC_OPERATION_FLOAT_ADD = 10,
    CU_ATOMIC_OPERATION_FLOAT_MIN = 11,
    CU_ATOMIC_OPERATION_FLOAT_MAX = 12,
    CU_ATOMIC_OPERATION_MAX
} CUatomicOperation;
typedef enum CUatomicOperationCapability_enum {
    CU_ATOMIC_CAPABILITY_SIGNED = 1u << 0,
    CU_ATOMIC_CAPABILITY_UNSIGNED = 1u << 1,
    CU_ATOMIC_CAPABILITY_REDUCTION = 1u << 2,
    CU_ATOMIC_CAPABILITY_SCALAR_32 = 1u << 3,
    CU_ATOMIC_CAPABILITY_SCALAR_64 = 1u << 4,
    CU_ATOMIC_CAPABILITY_SCALAR_128 = 1u << 5,
    CU_ATOMIC_CAPABILITY_VECTOR_32x4 = 1u << 6
} CUatomicOperationCapability;
EXTMEM_API CUresult CUDAAPI cuDeviceGetHostAtomicCapabilities(unsigned int *capabilities,
                                                              const CUatomicOperation *operations, unsigned int count,
                                                              CUdevice dev);
EXTMEM_API CUresult CUDAAPI cuDeviceGetP2PAtomicCapabilities(unsigned int *capabilities,
                                                             const CUatomicOperation *operations, unsigned int count,
                                                             CUdevice srcDevice, CUdevice dstDevice);
EXTMEM_API CUresult CUDAAPI cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice srcDevice,
                                                    CUdevice dstDevice);
/* The most elements of a 1D texture over linear memory: 2^30, and at most 2^32 bytes (2^28 for
 * four floats), as the H100 answers. INVALID_VALUE: maxWidthInElements NULL, a format other than
 * the plain integer, half and float ones, numChannels other than 1, 2 or 4. */
EXTMEM_API CUresult CUDAAPI cuDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements, CUarray_format format,
                                                               unsigned numChannels, CUdevice dev);

/* ---- Primary context ---- */
EXTMEM_API CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
EXTMEM_API CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev);
EXTMEM_API CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev);
/* CUDA_ERROR_INVALID_VALUE for flags outside CU_CTX_FLAGS_MASK or more than one SCHED flag. */
EXTMEM_API CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active);

/* ---- Contexts ---- */
/* cuCtxCreate_v4: ctxCreateParams may be NULL; execution affinity and CIG parameters are
 * CUDA_ERROR_NOT_SUPPORTED (the software device has neither). */
EXTMEM_API CUresult CUDAAPI cuCtxCreate(CUcontext *pctx, CUctxCreateParams *ctxCreateParams,
                                        unsigned int flags, CUdevice dev);
/* The forms that binaries built against older headers call: CUDA 3.2-11.3 and 11.4-12.4.
 * cuCtxCreate_v3 returns CUDA_ERROR_NOT_SUPPORTED for numParams > 0. */
EXTMEM_API CUresult CUDAAPI cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
EXTMEM_API CUresult CUDAAPI cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams,
                                           unsigned int flags, CUdevice dev);
/* CUDA_ERROR_INVALID_VALUE for NULL (before cuInit too), as the driver answers;
 * CUDA_ERROR_INVALID_CONTEXT for a forged context or a primary context;
 * CUDA_ERROR_CONTEXT_IS_DESTROYED for a destroyed one. */
EXTMEM_API CUresult CUDAAPI cuCtxDestroy(CUcontext ctx);
EXTMEM_API CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx);
EXTMEM_API CUresult CUDAAPI cuCtxGetCurrent(CUcontext *pctx);
EXTMEM_API CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx);
EXTMEM_API CUresult CUDAAPI cuCtxPopCurrent(CUcontext *pctx);
EXTMEM_API CUresult CUDAAPI cuCtxGetDevice(CUdevice *device);
EXTMEM_API CUresult CUDAAPI cuCtxGetFlags(unsigned int *flags);
EXTMEM_API CUresult CUDAAPI cuCtxGetApiVersion(CUcontext ctx, unsigned int *version);
/* The form with the context as an argument (NULL: the current one). */
EXTMEM_API CUresult CUDAAPI cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx);
EXTMEM_API CUresult CUDAAPI cuCtxSynchronize_v2(CUcontext ctx);
/* The deprecated usage count: cuCtxAttach returns the current context and counts a use (flags
 * must be 0: INVALID_VALUE otherwise, or for pctx NULL; INVALID_CONTEXT with none current);
 * cuCtxDetach drops one, and a created context whose count reaches 0 is destroyed as by
 * cuCtxDestroy (a primary one never is). cuCtxDetach: INVALID_CONTEXT for NULL, a context that
 * is not current, or a primary context not attached. */
EXTMEM_API CUresult CUDAAPI cuCtxAttach(CUcontext *pctx, unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuCtxDetach(CUcontext ctx);
/* A 64-bit id unique in the process, never reused. ctx NULL: the current context.
 * INVALID_VALUE: ctxId NULL. */
EXTMEM_API CUresult CUDAAPI cuCtxGetId(CUcontext ctx, unsigned long long *ctxId);
/* Replaces the current context's flags: a scheduling policy and the other CU_CTX_* bits.
 * INVALID_VALUE: bits outside CU_CTX_FLAGS_MASK, or two scheduling policies. */
EXTMEM_API CUresult CUDAAPI cuCtxSetFlags(unsigned int flags);
/* Preferences kept and answered; the software device has no L1/shared split nor banks. The
 * shared memory configuration reads back CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE whatever is
 * set, as the H100 answers. INVALID_VALUE: NULL out-pointer, a value outside the enum. */
EXTMEM_API CUresult CUDAAPI cuCtxGetCacheConfig(CUfunc_cache *pconfig);
EXTMEM_API CUresult CUDAAPI cuCtxSetCacheConfig(CUfunc_cache config);
EXTMEM_API CUresult CUDAAPI cuCtxGetSharedMemConfig(CUsharedconfig *pConfig);
EXTMEM_API CUresult CUDAAPI cuCtxSetSharedMemConfig(CUsharedconfig config);
/* Least priority 0, greatest -5 (the H100's range); either pointer may be NULL. Stream
 * priorities outside it are clamped into it. */
EXTMEM_API CUresult CUDAAPI cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
/* Succeeds: there is no L2 whose persisting lines could be reset. */
EXTMEM_API CUresult CUDAAPI cuCtxResetPersistingL2Cache(void);
/* cuCtxRecordEvent records hEvent after all work queued so far in every stream of ctx;
 * cuCtxWaitEvent makes all later work of ctx wait for it: it returns once the event has
 * completed (a stronger order than the driver's, which returns at once). INVALID_CONTEXT:
 * ctx NULL or not a live context; INVALID_HANDLE: hEvent not an event of ctx. */
EXTMEM_API CUresult CUDAAPI cuCtxRecordEvent(CUcontext hCtx, CUevent hEvent);
EXTMEM_API CUresult CUDAAPI cuCtxWaitEvent(CUcontext hCtx, CUevent hEvent);
/* CU_EXEC_AFFINITY_TYPE_SM_COUNT: the device's multiprocessor count (its worker threads).
 * INVALID_VALUE: pExecAffinity NULL, or a type that is not a CUexecAffinityType. */
EXTMEM_API CUresult CUDAAPI cuCtxGetExecAffinity(CUexecAffinityParam *pExecAffinity, CUexecAffinityType type);
/* Peer access: there is no second device. cuCtxEnablePeerAccess is PEER_ACCESS_UNSUPPORTED
 * (INVALID_VALUE for flags other than 0), cuCtxDisablePeerAccess PEER_ACCESS_NOT_ENABLED;
 * INVALID_CONTEXT for a peer context that is not live. */
EXTMEM_API CUresult CUDAAPI cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags);
EXTMEM_API CUresult CUDAAPI cuCtxDisablePeerAccess(CUcontext peerContext);
/* Waits for all work in every stream of the current context. */
EXTMEM_API CUresult CUDAAPI cuCtxSynchronize(void);

typedef enum CUlimit_enum {
    CU_LIMIT_STACK_SIZE = 0x00,
    CU_LIMIT_PRINTF_FIFO_SIZE = 0x01,
    CU_LIMIT_MALLOC_HEAP_SIZE = 0x02,
    CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH = 0x03,
    CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT = 0x04,
    CU_LIMIT_MAX_L2_FETCH_GRANULARITY = 0x05,
    CU_LIMIT_PERSISTING_L2_CACHE_SIZE = 0x06,
    CU_LIMIT_SHMEM_SIZE = 0x07,
    CU_LIMIT_CIG_ENABLED = 0x08,
    CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED = 0x09,
    CU_LIMIT_MAX
} CUlimit;
/* The current context's limits. CU_LIMIT_STACK_SIZE is each kernel thread's stack (its .local
 * memory and call frames): 1024 bytes by default, as on the driver, up to 256 KiB (a block's
 * stacks are allocated at once). PRINTF_FIFO_SIZE bounds what a launch's printf keeps (its last
 * records; docs/kernels.md, "printf and assert"): 8650752 bytes by default; any size succeeds
 * and reads back as the H100 makes it, at least 512 KiB, a multiple of 128, at most 2 GiB.
 * MALLOC_HEAP_SIZE is kept and answered; the others are answered with the H100's values and
 * cannot be set (CUDA_ERROR_UNSUPPORTED_LIMIT).
 * INVALID_VALUE: pvalue NULL, a limit that is not a CUlimit, a stack of 0 or above 256 KiB. */
EXTMEM_API CUresult CUDAAPI cuCtxSetLimit(CUlimit limit, size_t value);
EXTMEM_API CUresult CUDAAPI cuCtxGetLimit(size_t *pvalue, CUlimit limit);

/* ---- Memory ---- */
/* Device memory is shareable OS memory (memfd on Linux) mapped shared, aligned to at least
 * 4096 bytes. CUDA_ERROR_INVALID_VALUE for NULL dptr or bytesize 0; CUDA_ERROR_OUT_OF_MEMORY
 * when the OS refuses the memory (the reason carries the OS error); CUDA_ERROR_OPERATING_SYSTEM
 * when the OS has no random bytes for the allocation's IPC nonce (docs/ipc.md). */
EXTMEM_API CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytesize);
/* Rows are padded to a multiple of 512 bytes. ElementSizeBytes must be 4, 8 or 16. */
EXTMEM_API CUresult CUDAAPI cuMemAllocPitch(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes,
                                            size_t Height, unsigned int ElementSizeBytes);
/* CUDA_ERROR_INVALID_VALUE if dptr is not the start of a live cuMemAlloc allocation; dptr 0
 * is a no-op success. */
EXTMEM_API CUresult CUDAAPI cuMemFree(CUdeviceptr dptr);
EXTMEM_API CUresult CUDAAPI cuMemGetInfo(size_t *free, size_t *total);
/* CUDA_ERROR_NOT_FOUND if dptr lies in no allocation; pbase and psize may be NULL. */
EXTMEM_API CUresult CUDAAPI cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr);
EXTMEM_API CUresult CUDAAPI cuMemAllocHost(void **pp, size_t bytesize);
/* Flags: any combination of CU_MEMHOSTALLOC_*; other bits are CUDA_ERROR_INVALID_VALUE. */
EXTMEM_API CUresult CUDAAPI cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags);
/* CUDA_ERROR_INVALID_VALUE if p is not the start of a live host allocation. */
EXTMEM_API CUresult CUDAAPI cuMemFreeHost(void *p);
/* Flags must be 0. CUDA_ERROR_INVALID_VALUE if p is not in a host allocation or registered
 * range. The device pointer is p itself (unified addressing). */
EXTMEM_API CUresult CUDAAPI cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p, unsigned int Flags);
/* CU_MEMHOSTALLOC_DEVICEMAP is always reported (all host memory is mapped), with PORTABLE and
 * WRITECOMBINED where they were asked for; READ_ONLY is not reported, as on the driver.
 * CUDA_ERROR_INVALID_VALUE if p is in neither kind of page-locked memory. */
EXTMEM_API CUresult CUDAAPI cuMemHostGetFlags(unsigned int *pFlags, void *p);
/* Makes the caller's pages [p, p + bytesize) page-locked memory of the device: copies, fills
 * and kernels may use them at the same addresses, until cuMemHostUnregister. Nothing is
 * copied or remapped; an unaligned p or bytesize registers the whole pages they touch.
 * READ_ONLY pages may only be read by the device (a copy or fill into them is
 * CUDA_ERROR_INVALID_VALUE, a kernel's store CUDA_ERROR_ILLEGAL_ADDRESS).
 *   CUDA_ERROR_INVALID_VALUE   p NULL, bytesize 0, a bit that is no CU_MEMHOSTREGISTER_* flag,
 *                              IOMEMORY (the software device has no I/O memory), pages that
 *                              are not mapped and readable, or memory CUDA allocated
 *                              (cuMemHostAlloc, device memory)
 *   CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED  a page of the range is registered already */
EXTMEM_API CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags);
/* Ends the registration made with p, once the work queued on the device before the call is
 * done; the memory stays the caller's, mapped and unchanged.
 *   CUDA_ERROR_INVALID_VALUE   p NULL, or inside a registered range but not the pointer that
 *                              registered it
 *   CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED  p is in no registered range */
EXTMEM_API CUresult CUDAAPI cuMemHostUnregister(void *p);

/* ---- Pointer attributes ---- */
/* For an address extmem does not know: MEMORY_TYPE, CONTEXT, DEVICE_POINTER and the range
 * attributes are CUDA_ERROR_INVALID_VALUE, as on the real driver; cuPointerGetAttributes
 * fills zeros instead and succeeds. */
EXTMEM_API CUresult CUDAAPI cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr);
/* Only CU_POINTER_ATTRIBUTE_SYNC_MEMOPS can be set, on extmem's memory: every memory operation
 * of the software device is synchronous already, so the setting holds whatever its value. */
EXTMEM_API CUresult CUDAAPI cuPointerSetAttribute(const void *value, CUpointer_attribute attribute, CUdeviceptr ptr);
EXTMEM_API CUresult CUDAAPI cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes,
                                                   void **data, CUdeviceptr ptr);

/* cuFlushGPUDirectRDMAWrites: makes the writes of third-party devices into device memory
 * visible to later work. The software device's memory is host memory: a full memory fence. */
typedef enum CUflushGPUDirectRDMAWritesTarget_enum {
    CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX = 0
} CUflushGPUDirectRDMAWritesTarget;
typedef enum CUflushGPUDirectRDMAWritesScope_enum {
    CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER = 100,
    CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_ALL_DEVICES = 200
} CUflushGPUDirectRDMAWritesScope;
EXTMEM_API CUresult CUDAAPI cuFlushGPUDirectRDMAWrites(CUflushGPUDirectRDMAWritesTarget target,
                                                       CUflushGPUDirectRDMAWritesScope scope);
/* ---- Managed memory (docs/attributes.md: MANAGED_MEMORY, CONCURRENT_MANAGED_ACCESS) ----
 * Device memory is host memory at one address, so a managed allocation is a device allocation
 * (cuMemFree frees it; CU_POINTER_ATTRIBUTE_IS_MANAGED reads 1) that remembers, page by page,
 * what cuMemAdvise and the prefetches were told, for cuMemRangeGetAttribute(s). Prefetches and
 * discards move nothing: the bytes are where every side reads them, and a discard keeps them
 * (CUDA leaves them undefined).
 * A range (devPtr, count) is rounded out to whole host pages, as CUDA does, and must lie in one
 * managed allocation: CUDA_ERROR_INVALID_VALUE for count 0, devPtr in no allocation or in one
 * that is not managed (cuMemAlloc, host or VMM memory, pageable memory: the software device's
 * PAGEABLE_MEMORY_ACCESS is 0), or a range running past the allocation's end.
 * Locations: CU_MEM_LOCATION_TYPE_DEVICE with id 0, HOST (id ignored), HOST_NUMA with id 0 (the
 * one host node extmem knows), HOST_NUMA_CURRENT (becomes HOST_NUMA 0). */

/* flags must be CU_MEM_ATTACH_GLOBAL or CU_MEM_ATTACH_HOST.
 *   CUDA_ERROR_INVALID_VALUE  dptr NULL, bytesize 0, other flags
 *   CUDA_ERROR_OUT_OF_MEMORY  as cuMemAlloc */
EXTMEM_API CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags);
/* Records advice for every page of the range (READ_MOSTLY ignores location).
 *   CUDA_ERROR_INVALID_VALUE   the range (above); advice not a CUmem_advise; a location not
 *                              allowed for the advice (ACCESSED_BY: DEVICE or HOST only); a
 *                              device other than 0 (as NVIDIA's runtime answers, H100) */
EXTMEM_API CUresult CUDAAPI cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location);
/* Records location as the range's last prefetch location when the call is made (CUDA: the
 * attribute says what was asked, not whether it happened), after checking the stream.
 *   CUDA_ERROR_INVALID_VALUE   the range; flags not 0; a location type that is none of the above
 *   CUDA_ERROR_INVALID_DEVICE  a device other than 0
 *   CUDA_ERROR_INVALID_HANDLE  hStream is not a live stream */
EXTMEM_API CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                                               unsigned int flags, CUstream hStream);
/* The batch forms (CUDA 12.8): every range, location and index is checked before anything is
 * recorded. prefetchLocs[k] applies to the ranges from prefetchLocIdxs[k] up to the next index.
 *   CUDA_ERROR_INVALID_VALUE   dptrs or sizes NULL; count 0; flags not 0; prefetchLocs or
 *                              prefetchLocIdxs NULL; numPrefetchLocs 0 or above count;
 *                              prefetchLocIdxs[0] not 0, decreasing, or not below count; a
 *                              range or location as for cuMemPrefetchAsync, a device other than 0
 *                              too (as NVIDIA's driver answers here); hStream the legacy default
 *                              stream (NULL, CU_STREAM_LEGACY), which CUDA forbids
 *   CUDA_ERROR_INVALID_HANDLE  hStream is not a live stream */
EXTMEM_API CUresult CUDAAPI cuMemPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count,
                                                    CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                                    size_t numPrefetchLocs, unsigned long long flags, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemDiscardBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count,
                                                   unsigned long long flags, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count,
                                                              CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                                              size_t numPrefetchLocs, unsigned long long flags,
                                                              CUstream hStream);
/* What the range's pages were told, as CUDA documents it: READ_MOSTLY 1 only if every page is;
 * PREFERRED_LOCATION and LAST_PREFETCH_LOCATION a device ordinal, CU_DEVICE_CPU for the host (a
 * host NUMA node too), or CU_DEVICE_INVALID where the pages differ or some have none; the _TYPE
 * forms CU_MEM_LOCATION_TYPE_DEVICE, HOST, HOST_NUMA or INVALID likewise, and the _ID forms the
 * device ordinal or NUMA node (CU_DEVICE_CPU for the host, CU_DEVICE_INVALID for none);
 * ACCESSED_BY the processors (0, CU_DEVICE_CPU) set on every page, then CU_DEVICE_INVALID in the
 * rest of data.
 *   CUDA_ERROR_INVALID_VALUE   data NULL; dataSize not 4 (ACCESSED_BY: not a non-zero multiple
 *                              of 4); attribute not a CUmem_range_attribute; the range (above) */
EXTMEM_API CUresult CUDAAPI cuMemRangeGetAttribute(void *data, size_t dataSize, CUmem_range_attribute attribute,
                                                   CUdeviceptr devPtr, size_t count);
/* Every attribute is checked before any is written.
 *   CUDA_ERROR_INVALID_VALUE   data, dataSizes or attributes NULL; numAttributes 0; data[i]
 *                              NULL; as cuMemRangeGetAttribute for each */
EXTMEM_API CUresult CUDAAPI cuMemRangeGetAttributes(void **data, size_t *dataSizes, CUmem_range_attribute *attributes,
                                                    size_t numAttributes, CUdeviceptr devPtr, size_t count);
/* Queues the change of dptr's stream association; it takes effect when the stream reaches it.
 * Every processor sees all memory here, so the association changes no access.
 *   CUDA_ERROR_INVALID_VALUE   flags not exactly one CUmemAttach_flags; dptr not in a managed
 *                              allocation (NVIDIA's runtime answers so for cudaMalloc memory);
 *                              length neither 0 nor the allocation's size; SINGLE on the legacy
 *                              default stream
 *   CUDA_ERROR_INVALID_HANDLE  hStream is not a live stream */
EXTMEM_API CUresult CUDAAPI cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length,
                                                   unsigned int flags);

/* ---- CUDA arrays and mipmapped arrays (src/image; docs/images.md) ----
 * Device memory with a layout of its own, for textures and surfaces. Every CUarray_format the
 * H100 takes for arrays (the video formats it refuses), 1, 2 or 4 channels (what the format
 * names where it names them), the flags LAYERED, SURFACE_LDST, CUBEMAP, TEXTURE_GATHER,
 * DEFERRED_MAPPING and VIDEO_ENCODE_DECODE, within the device's MAXIMUM_TEXTURE* and
 * MAXIMUM_SURFACE* attributes.
 *   CUDA_ERROR_INVALID_VALUE   an out-pointer or descriptor NULL; Width 0; Height 0 with a
 *                              Depth (not layered); LAYERED with Depth 0; a format that is no
 *                              CUarray_format, or a video format; a channel count the format
 *                              does not take (3 never); flags with unknown bits, DEPTH_TEXTURE
 *                              or COLOR_ATTACHMENT (the H100 refuses them), SPARSE with
 *                              DEFERRED_MAPPING; a BC format 1D; a cubemap not square, with
 *                              Depth other than 6 (layered: not a multiple of 6);
 *                              TEXTURE_GATHER on anything but 2D; an extent past a limit
 *   CUDA_ERROR_NOT_SUPPORTED   CUDA_ARRAY3D_SPARSE (no sparse arrays); SURFACE_LDST on a BC format
 *   CUDA_ERROR_OUT_OF_MEMORY   more memory than the machine has available
 * Lookups of a NULL, destroyed or forged handle are CUDA_ERROR_INVALID_HANDLE (where the driver
 * answers INVALID_VALUE for NULL, so do these: memory requirements, sparse properties, copies). */
EXTMEM_API CUresult CUDAAPI cuArrayCreate(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray);
EXTMEM_API CUresult CUDAAPI cuArray3DCreate(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray);
/* Waits for work queued before it (as cuMemFree). A mipmapped array's level answers success
 * and stays (it dies with its mipmapped array), as on the driver. */
EXTMEM_API CUresult CUDAAPI cuArrayDestroy(CUarray hArray);
EXTMEM_API CUresult CUDAAPI cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor, CUarray hArray);
EXTMEM_API CUresult CUDAAPI cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor, CUarray hArray);
/* CUDA_ERROR_INVALID_VALUE for an array of a format that has no planes (every format arrays take). */
EXTMEM_API CUresult CUDAAPI cuArrayGetPlane(CUarray *pPlaneArray, CUarray hArray, unsigned int planeIdx);
/* Only for arrays made with CUDA_ARRAY3D_DEFERRED_MAPPING (else CUDA_ERROR_INVALID_VALUE, as on
 * the driver): the layout's size rounded up to 64 KiB, alignment 64 KiB. device must be 0. */
EXTMEM_API CUresult CUDAAPI cuArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS *memoryRequirements,
                                                         CUarray array, CUdevice device);
/* No array is sparse: CUDA_ERROR_INVALID_VALUE, the driver's answer for a non-sparse array. */
EXTMEM_API CUresult CUDAAPI cuArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES *sparseProperties, CUarray array);
/* numMipmapLevels 0 makes one level; more than the extent allows makes as many as it allows. */
EXTMEM_API CUresult CUDAAPI cuMipmappedArrayCreate(CUmipmappedArray *pHandle,
                                                   const CUDA_ARRAY3D_DESCRIPTOR *pMipmappedArrayDesc,
                                                   unsigned int numMipmapLevels);
EXTMEM_API CUresult CUDAAPI cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray);
/* The same handle each time; CUDA_ERROR_INVALID_VALUE for a level at or past the count. */
EXTMEM_API CUresult CUDAAPI cuMipmappedArrayGetLevel(CUarray *pLevelArray, CUmipmappedArray hMipmappedArray,
                                                     unsigned int level);
EXTMEM_API CUresult CUDAAPI cuMipmappedArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS *memoryRequirements,
                                                                  CUmipmappedArray mipmap, CUdevice device);
EXTMEM_API CUresult CUDAAPI cuMipmappedArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES *sparseProperties,
                                                                CUmipmappedArray mipmap);
/* Copies with an array on one side or both (src/image/array_copy.c). The 1D forms address row 0
 * of layer 0 of the array: offset + ByteCount must stay within Width elements (for a BC format,
 * one row of blocks), as on the driver; offsets need not be element-aligned.
 *   CUDA_ERROR_INVALID_VALUE   a NULL array or pointer; a range past the row; a device side that
 *                              is not device memory (DtoA, AtoD) */
EXTMEM_API CUresult CUDAAPI cuMemcpyHtoA(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyAtoH(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyAtoA(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset,
                                         size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyAtoD(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyDtoA(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyHtoAAsync(CUarray dstArray, size_t dstOffset, const void *srcHost,
                                              size_t ByteCount, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
                                              CUstream hStream);

/* ---- Copies and fills ----
 * Unified addressing: any address extmem allocated, and any readable host address, is a
 * valid source or destination. A range that starts inside an extmem allocation but runs past
 * its end is CUDA_ERROR_INVALID_VALUE. Async forms are ordered in hStream. */
EXTMEM_API CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
/* A side may be a CUarray (CU_MEMORYTYPE_ARRAY: its pitch is ignored; X in bytes, Y in rows, of
 * row 0 of layer 0; a BC format's rows are rows of 4x4 blocks): the region must lie inside it.
 * A pitch smaller than WidthInBytes, a region past an array's edge, a NULL array are
 * CUDA_ERROR_INVALID_VALUE; a destroyed or forged array CUDA_ERROR_INVALID_HANDLE. */
EXTMEM_API CUresult CUDAAPI cuMemcpy2D(const CUDA_MEMCPY2D *pCopy);
EXTMEM_API CUresult CUDAAPI cuMemcpy2DUnaligned(const CUDA_MEMCPY2D *pCopy);
EXTMEM_API CUresult CUDAAPI cuMemcpy2DAsync(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
/* Layers of pitched rows between linear memory of any kind (HOST, DEVICE, UNIFIED); a large
 * copy runs on all cores. An empty copy (a 0 extent) succeeds.
 *   CUDA_ERROR_INVALID_VALUE   pCopy NULL; reserved0/1 or a LOD not 0; a memory type that is
 *                              no CUmemorytype; a NULL pointer; a pitch above the device's
 *                              CU_DEVICE_ATTRIBUTE_MAX_PITCH, or below XInBytes + WidthInBytes
 *                              (where there are several rows or the pitch is given); a layer
 *                              height below Y + Height (where there are several layers or
 *                              the height is given); a Z offset with a layer height of 0; a
 *                              side that runs past the end of its allocation, or a DEVICE side
 *                              that is not memory CUDA gave out or registered; an array side
 *                              whose region (X in bytes, Y rows, Z layers or slices, LOD 0)
 *                              leaves the array, or a NULL array
 *   CUDA_ERROR_INVALID_HANDLE  a destroyed or forged array */
EXTMEM_API CUresult CUDAAPI cuMemcpy3D(const CUDA_MEMCPY3D *pCopy);
EXTMEM_API CUresult CUDAAPI cuMemcpy3DAsync(const CUDA_MEMCPY3D *pCopy, CUstream hStream);
/* Copies between contexts. The software device is one device: each context must be a live
 * context (CUDA_ERROR_INVALID_CONTEXT for NULL, the lookup's code for a destroyed or forged
 * handle), and the copy is then cuMemcpyDtoD's (cuMemcpy3D's for the 3D forms). */
EXTMEM_API CUresult CUDAAPI cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                         CUcontext srcContext, size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                              CUcontext srcContext, size_t ByteCount, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *pCopy);
EXTMEM_API CUresult CUDAAPI cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream);
/* A batch of copies, in stream order as a whole (CUDA 13's form; libcuda also exports CUDA
 * 12.8's, which has a size_t *failIdx before hStream, under the unversioned name). Every copy
 * is checked before any is queued.
 *   CUDA_ERROR_INVALID_VALUE   dsts, srcs, sizes, attrs or attrsIdxs NULL; count or numAttrs 0;
 *                              numAttrs above count; attrsIdxs not starting at 0, not rising,
 *                              or reaching count; a srcAccessOrder that is not STREAM,
 *                              DURING_API_CALL or ANY; flags outside CUmemcpyFlags; hStream
 *                              the legacy NULL stream; any copy cuMemcpyAsync would refuse
 * DURING_API_CALL sources are read before the call returns; location hints are not used (the
 * software device migrates nothing). */
EXTMEM_API CUresult CUDAAPI cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                               CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
                                               CUstream hStream);
/* 3D copies between pointers in a batch (CUDA 13's form; 12.8's has failIdx before flags).
 *   CUDA_ERROR_INVALID_VALUE   numOps 0, opList NULL, flags not 0, hStream the legacy NULL
 *                              stream; an extent with a 0; rowLength below the width or
 *                              layerHeight below the height (0 means packed); an operand type
 *                              that is no CUmemcpy3DOperandType; a bad srcAccessOrder or
 *                              flags; any copy cuMemcpy3DAsync would refuse
 *   CUDA_ERROR_NOT_SUPPORTED   an operand is a CUDA array */
EXTMEM_API CUresult CUDAAPI cuMemcpy3DBatchAsync(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList,
                                                 unsigned long long flags, CUstream hStream);
/* dstDevice must be aligned to the element size: CUDA_ERROR_INVALID_VALUE otherwise. */
EXTMEM_API CUresult CUDAAPI cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N);
EXTMEM_API CUresult CUDAAPI cuMemsetD16(CUdeviceptr dstDevice, unsigned short us, size_t N);
EXTMEM_API CUresult CUDAAPI cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N);
EXTMEM_API CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemsetD2D8(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height);
EXTMEM_API CUresult CUDAAPI cuMemsetD2D16(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height);
EXTMEM_API CUresult CUDAAPI cuMemsetD2D32(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height);
EXTMEM_API CUresult CUDAAPI cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height, CUstream hStream);

/* ---- Streams ----
 * A stream handle of NULL or CU_STREAM_LEGACY is the legacy default stream, which waits for
 * all blocking streams of the context; CU_STREAM_PER_THREAD is the per-thread stream.
 * CUDA_ERROR_INVALID_HANDLE for a destroyed or forged stream. */
EXTMEM_API CUresult CUDAAPI cuStreamCreate(CUstream *phStream, unsigned int Flags);
EXTMEM_API CUresult CUDAAPI cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority);
EXTMEM_API CUresult CUDAAPI cuStreamGetFlags(CUstream hStream, unsigned int *flags);
EXTMEM_API CUresult CUDAAPI cuStreamGetPriority(CUstream hStream, int *priority);
EXTMEM_API CUresult CUDAAPI cuStreamGetCtx(CUstream hStream, CUcontext *pctx);
/* As cuStreamGetCtx; *pGreenCtx is NULL (no green contexts). INVALID_VALUE: either NULL. */
EXTMEM_API CUresult CUDAAPI cuStreamGetCtx_v2(CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx);
/* A 64-bit id unique in the process, never reused; the legacy stream of each context and the
 * per-thread stream of each thread and context have ids of their own. INVALID_VALUE: NULL. */
EXTMEM_API CUresult CUDAAPI cuStreamGetId(CUstream hStream, unsigned long long *streamId);
EXTMEM_API CUresult CUDAAPI cuStreamGetDevice(CUstream hStream, CUdevice *device);
/* Work already queued still runs; the call returns at once. */
EXTMEM_API CUresult CUDAAPI cuStreamDestroy(CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuStreamSynchronize(CUstream hStream);
/* CUDA_SUCCESS when all queued work is done, CUDA_ERROR_NOT_READY otherwise. */
EXTMEM_API CUresult CUDAAPI cuStreamQuery(CUstream hStream);
/* Flags must be CU_EVENT_WAIT_DEFAULT or CU_EVENT_WAIT_EXTERNAL. */
EXTMEM_API CUresult CUDAAPI cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags);
/* CUDA_ERROR_INVALID_VALUE if fn is NULL. */
EXTMEM_API CUresult CUDAAPI cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);

/* The older form of cuLaunchHostFunc: the callback also gets the stream and a status
 * (CUDA_SUCCESS: the stream's earlier work ran). flags must be 0. */
typedef void(CUDA_CB *CUstreamCallback)(CUstream hStream, CUresult status, void *userData);
EXTMEM_API CUresult CUDAAPI cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData,
                                                unsigned int flags);

/* A stream's attributes: the access policy window, the synchronization policy, the priority
 * (within cuCtxGetStreamPriorityRange) and the memory synchronization domain and its map.
 * Kept per stream and read back; a default stream's are fixed (set: CUDA_ERROR_INVALID_VALUE). */
typedef CUlaunchAttributeID CUstreamAttrID;
#define CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW   CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW
#define CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY
#define CU_STREAM_ATTRIBUTE_PRIORITY               CU_LAUNCH_ATTRIBUTE_PRIORITY
#define CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP    CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP
#define CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN        CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN
typedef CUlaunchAttributeValue CUstreamAttrValue_v1;
typedef CUstreamAttrValue_v1 CUstreamAttrValue;
EXTMEM_API CUresult CUDAAPI cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue *value_out);
EXTMEM_API CUresult CUDAAPI cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr,
                                                 const CUstreamAttrValue *value);
/* Copies every attribute of src to dst. */
EXTMEM_API CUresult CUDAAPI cuStreamCopyAttributes(CUstream dst, CUstream src);

/* Whether a stream is capturing (docs/graphs.md). */
typedef enum CUstreamCaptureStatus_enum {
    CU_STREAM_CAPTURE_STATUS_NONE = 0,
    CU_STREAM_CAPTURE_STATUS_ACTIVE = 1,
    CU_STREAM_CAPTURE_STATUS_INVALIDATED = 2
} CUstreamCaptureStatus;
EXTMEM_API CUresult CUDAAPI cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus);
/* ---- Stream memory operations (docs/streams.md) ----
 * Stream-ordered reads and writes of one 32- or 64-bit word at addr, which must be memory a
 * kernel may touch (device, host or registered memory, a mapped VMM range) aligned to the word.
 * A wait keeps its stream (and what waits for it) busy until the condition holds: GEQ (cyclic:
 * (int32_t)(*addr - value) >= 0), EQ, AND ((*addr & value) != 0), NOR (~(*addr | value) != 0).
 * The word is read with acquire and written with release ordering; the calling thread never
 * waits. A wait nobody satisfies is given up when the library unloads, so the process exits.
 * The forms before CUDA 11.7 (exported under the plain names, which this header gives the _v2
 * forms) are CUDA_ERROR_NOT_SUPPORTED, as on the H100 (CAN_USE_STREAM_MEM_OPS_V1 is 0).
 *   CUDA_ERROR_INVALID_VALUE   addr 0, not aligned, or not such memory; managed memory (NVIDIA's
 *                              driver refuses it to every operation); unknown flags (a write's
 *                              NO_MEMORY_BARRIER too: the _v2 forms do not take it)
 *   CUDA_ERROR_NOT_SUPPORTED   a wait's CU_STREAM_WAIT_VALUE_FLUSH: no remote writes to flush
 *                              (CAN_FLUSH_REMOTE_WRITES is 0, as on the H100)
 *   CUDA_ERROR_INVALID_HANDLE  stream is not a live stream */
EXTMEM_API CUresult CUDAAPI cuStreamWaitValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuStreamWaitValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuStreamWriteValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuStreamWriteValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
/* count operations in order, as one piece of stream work; every operation is checked first.
 * BARRIER (flags SYS or GPU; cuStreamBatchMemOp_v2 only) is a full memory fence.
 * A count of 0 does nothing and succeeds, as on the driver.
 *   CUDA_ERROR_INVALID_VALUE   count above 255 (CUDA: "less than 256"); paramArray NULL (the
 *                              driver crashes); flags not 0; an unknown operation; an operation's
 *                              checks as above
 *   CUDA_ERROR_NOT_SUPPORTED   FLUSH_REMOTE_WRITES, as the wait's FLUSH flag */
EXTMEM_API CUresult CUDAAPI cuStreamBatchMemOp(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray,
                                               unsigned int flags);

/* ---- Events ---- */
/* CU_EVENT_INTERPROCESS requires CU_EVENT_DISABLE_TIMING (CUDA_ERROR_INVALID_VALUE otherwise). */
EXTMEM_API CUresult CUDAAPI cuEventCreate(CUevent *phEvent, unsigned int Flags);
EXTMEM_API CUresult CUDAAPI cuEventRecord(CUevent hEvent, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags);
/* CUDA_ERROR_NOT_READY while the recorded work is pending; an event never recorded is ready. */
EXTMEM_API CUresult CUDAAPI cuEventQuery(CUevent hEvent);
EXTMEM_API CUresult CUDAAPI cuEventSynchronize(CUevent hEvent);
/* CUDA_ERROR_INVALID_HANDLE if either event has timing disabled or was never recorded;
 * CUDA_ERROR_NOT_READY if either has not completed. */
EXTMEM_API CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);
EXTMEM_API CUresult CUDAAPI cuEventDestroy(CUevent hEvent);

/* ---- Virtual memory management (DESIGN.md §8) ----
 * A reservation is real address space (PROT_NONE); cuMemCreate makes a physical allocation
 * (a sealed memfd); cuMemMap maps it into a reservation with no access, and cuMemSetAccess
 * makes it readable or writable: touching a range before that faults, as on a GPU.
 * The granularity is 2 MiB (EXTMEM_GRANULARITY overrides it for tests: a power of two, at
 * least the page size). Codes for each rule are listed in docs/vmm.md. */
EXTMEM_API CUresult CUDAAPI cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop,
                                                          CUmemAllocationGranularity_flags option);
EXTMEM_API CUresult CUDAAPI cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
                                        const CUmemAllocationProp *prop, unsigned long long flags);
/* The memory stays alive while it is mapped; the handle is invalid at once. */
EXTMEM_API CUresult CUDAAPI cuMemRelease(CUmemGenericAllocationHandle handle);
EXTMEM_API CUresult CUDAAPI cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
                                                unsigned long long flags);
EXTMEM_API CUresult CUDAAPI cuMemAddressFree(CUdeviceptr ptr, size_t size);
EXTMEM_API CUresult CUDAAPI cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                                     unsigned long long flags);
EXTMEM_API CUresult CUDAAPI cuMemUnmap(CUdeviceptr ptr, size_t size);
/* All or nothing: on any failure no mapping's access has changed (docs/vmm.md). Write access to
 * an allocation imported from a read-only fd is CUDA_ERROR_INVALID_VALUE. */
EXTMEM_API CUresult CUDAAPI cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count);
EXTMEM_API CUresult CUDAAPI cuMemGetAccess(unsigned long long *flags, const CUmemLocation *location, CUdeviceptr ptr);
/* POSIX: shareableHandle points to an int that receives a new fd (O_CLOEXEC), the caller's
 * to close. Import takes (void *)(uintptr_t)fd and leaves the caller's fd open. Only fds of
 * extmem allocations (from any process) are accepted. */
EXTMEM_API CUresult CUDAAPI cuMemExportToShareableHandle(void *shareableHandle, CUmemGenericAllocationHandle handle,
                                                         CUmemAllocationHandleType handleType,
                                                         unsigned long long flags);
EXTMEM_API CUresult CUDAAPI cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle, void *osHandle,
                                                           CUmemAllocationHandleType shHandleType);
EXTMEM_API CUresult CUDAAPI cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr);
EXTMEM_API CUresult CUDAAPI cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop,
                                                                   CUmemGenericAllocationHandle handle);

/* ---- Memory pools (docs/memory-pools.md) ----
 * Each device has a default pool (not exportable, never destroyed) and a current pool, the one
 * cuMemAllocAsync takes from. An allocation is usable at once; cuMemFreeAsync gives the memory
 * back to its pool only once the work queued on the stream before it has run. Freed memory is
 * kept up to the release threshold for reuse. Common codes: NOT_INITIALIZED before cuInit;
 * INVALID_CONTEXT without a current context where a stream is involved; INVALID_VALUE for a
 * NULL out-pointer, a pool handle that is NULL, destroyed or forged; INVALID_DEVICE for a device
 * argument other than 0; INVALID_HANDLE for a destroyed or forged stream. */
EXTMEM_API CUresult CUDAAPI cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev);
EXTMEM_API CUresult CUDAAPI cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev);
/* INVALID_VALUE: an imported pool, or one of another location (a HOST pool). */
EXTMEM_API CUresult CUDAAPI cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool);
/* The same by location (CUDA 13): device 0, the host or host NUMA node 0 each have a default
 * and a current pool. INVALID_VALUE: location NULL or of another type; a HOST_NUMA node other
 * than 0; type not PINNED or MANAGED; for cuMemSetMemPool, a pool of another location or an
 * imported one. INVALID_DEVICE: a device other than 0. NOT_SUPPORTED: MANAGED (no managed pools). */
EXTMEM_API CUresult CUDAAPI cuMemGetDefaultMemPool(CUmemoryPool *pool_out, CUmemLocation *location,
                                                   CUmemAllocationType type);
EXTMEM_API CUresult CUDAAPI cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *location, CUmemAllocationType type);
EXTMEM_API CUresult CUDAAPI cuMemSetMemPool(CUmemLocation *location, CUmemAllocationType type, CUmemoryPool pool);
/* INVALID_VALUE: pool or poolProps NULL; allocType not PINNED; handleTypes with a bit other
 * than this platform's (POSIX_FILE_DESCRIPTOR; WIN32 on Windows) and fabric; location not
 * DEVICE 0, HOST or HOST_NUMA 0; reserved not zero. NOT_SUPPORTED: fabric handles; usage
 * CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS (other usage bits are ignored, as by the driver).
 * maxSize is kept but caps nothing, as on the driver. */
EXTMEM_API CUresult CUDAAPI cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps);
/* Memory still handed out stays usable until freed. INVALID_VALUE: the default pool. */
EXTMEM_API CUresult CUDAAPI cuMemPoolDestroy(CUmemoryPool pool);
/* Releases freed memory the pool keeps until at most minBytesToKeep remain held (waits for the
 * device's queued work first, as cuMemFree does). */
EXTMEM_API CUresult CUDAAPI cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep);
/* INVALID_VALUE: value NULL; attr not a CUmemPool_attribute; setting RESERVED_MEM_CURRENT or
 * USED_MEM_CURRENT; setting a high mark to anything but 0. */
EXTMEM_API CUresult CUDAAPI cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value);
EXTMEM_API CUresult CUDAAPI cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value);
/* Access cannot change on the software device: asking for what is already so succeeds.
 * INVALID_VALUE: map NULL (even with count 0); a location type other than DEVICE or HOST; flags
 * not a CUmemAccess_flags. INVALID_DEVICE: a device other than 0; taking the device's own
 * access away. NOT_SUPPORTED: read-only device access; host access to a device pool. */
EXTMEM_API CUresult CUDAAPI cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map, size_t count);
EXTMEM_API CUresult CUDAAPI cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool, CUmemLocation *location);
/* From the device's current pool. bytesize 0: SUCCESS with *dptr 0, as on the driver.
 * INVALID_VALUE: an imported pool. OUT_OF_MEMORY: the memory cannot be had. */
EXTMEM_API CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
                                                    CUstream hStream);
/* INVALID_VALUE: dptr is not the start of a live allocation (or already being freed). Memory of
 * cuMemAlloc and imported pool pointers are freed as cuMemFree frees them (after all queued work). */
EXTMEM_API CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream);
/* POSIX: handle_out points to an int that receives a new fd (close-on-exec), the caller's to
 * close. INVALID_VALUE: the pool was not created with that handle type (the default pool never
 * is); flags not 0; a type other than this platform's. */
EXTMEM_API CUresult CUDAAPI cuMemPoolExportToShareableHandle(void *handle_out, CUmemoryPool pool,
                                                             CUmemAllocationHandleType handleType,
                                                             unsigned long long flags);
/* The caller's fd stays the caller's (it is not closed). INVALID_VALUE: not an fd of an
 * exported extmem pool (the driver: UNKNOWN); flags not 0; handleType not a handle type.
 * NOT_SUPPORTED: another platform's handle type. */
EXTMEM_API CUresult CUDAAPI cuMemPoolImportFromShareableHandle(CUmemoryPool *pool_out, void *handle,
                                                               CUmemAllocationHandleType handleType,
                                                               unsigned long long flags);
/* INVALID_VALUE: ptr is not the start of a live allocation of an exportable pool of this
 * process, or the pool has not been exported (cuMemPoolExportToShareableHandle) yet. */
EXTMEM_API CUresult CUDAAPI cuMemPoolExportPointer(CUmemPoolPtrExportData *shareData_out, CUdeviceptr ptr);
/* INVALID_VALUE: pool is not an imported pool; shareData is not the export data of a live
 * allocation of that pool (forged, of another pool, freed by the exporter, or the exporter
 * exited). The same allocation imported again is the same pointer. Free it with cuMemFree or
 * cuMemFreeAsync. */
EXTMEM_API CUresult CUDAAPI cuMemPoolImportPointer(CUdeviceptr *ptr_out, CUmemoryPool pool,
                                                   CUmemPoolPtrExportData *shareData);

/* ---- External memory (../shared/seeds/004_899ba516d5a0237d.txt, 001_a59e0c8da9f21121.txt) ----
 * OPAQUE_FD takes fds of extmem allocations (cuMemExportToShareableHandle, any process) and
 * the memfds Mesa's lavapipe exports (vkGetMemoryFdKHR); DMABUF_FD takes dma-bufs. The fd
 * becomes extmem's only when the import succeeds, and then, as on the driver, the caller's fd
 * number is closed (extmem keeps a duplicate of its own until cuDestroyExternalMemory): do not
 * close it again. On any failure it stays the caller's, open and untouched. The Windows and Direct3D types are CUDA_ERROR_NOT_SUPPORTED on Linux,
 * after the dedicated-flag rule (CUDA_ERROR_INVALID_VALUE). Codes for each rule are listed
 * in docs/external-memory.md. */
EXTMEM_API CUresult CUDAAPI cuImportExternalMemory(CUexternalMemory *extMem_out,
                                                   const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *memHandleDesc);
/* The buffer maps the very same pages (no copy); free it with cuMemFree. */
EXTMEM_API CUresult CUDAAPI cuExternalMemoryGetMappedBuffer(CUdeviceptr *devPtr, CUexternalMemory extMem,
                                                            const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *bufferDesc);
/* A mipmapped array over the very bytes of an imported image (no copy), its levels laid out as
 * the exporter lays them out: Mesa's llvmpipe for Vulkan memory, Direct3D's copyable layout for
 * a Direct3D texture's staging copy (docs/images.md, "External images"); free it with
 * cuMipmappedArrayDestroy. It outlives cuDestroyExternalMemory.
 *   CUDA_ERROR_INVALID_VALUE: mipmap or mipmapDesc NULL, extMem NULL; reserved fields not 0;
 *     a format and channel count that is no array format, a video format, a block-compressed
 *     format with Height 0; undefined flags, or SPARSE, DEFERRED_MAPPING, VIDEO_ENCODE_DECODE,
 *     DEPTH_TEXTURE; Width 0; a shape CUDA has no array of (LAYERED with Depth 0, a cubemap not
 *     square or not 6 faces, Height 0 with a depth); an extent past the device's mipmapped
 *     limits; numLevels 0 or past the full chain; an offset other than 0 in dedicated memory,
 *     or not a multiple of 16; the image at offset running past the imported size or the
 *     object; a descriptor that is not the Direct3D texture's own.
 *   CUDA_ERROR_INVALID_HANDLE: extMem is no live external memory.
 *   CUDA_ERROR_NOT_SUPPORTED: DMABUF_FD memory (the specification), Direct3D buffers and heaps,
 *     SURFACE_LDST over a block-compressed format.
 *   CUDA_ERROR_OPERATING_SYSTEM, CUDA_ERROR_OUT_OF_MEMORY: mapping the memory failed. */
EXTMEM_API CUresult CUDAAPI cuExternalMemoryGetMappedMipmappedArray(CUmipmappedArray *mipmap, CUexternalMemory extMem,
                                                                    const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *mipmapDesc);
/* Buffers still mapped stay usable until cuMemFree, as on the driver. */
EXTMEM_API CUresult CUDAAPI cuDestroyExternalMemory(CUexternalMemory extMem);

/* ---- External semaphores (DESIGN.md §15; docs/external-semaphores.md) ----
 * OPAQUE_FD (binary) and TIMELINE_SEMAPHORE_FD take the fds of semaphores that Vulkan exports
 * through extmem's layer (VK_LAYER_EXTMEM_external_semaphore), in any process. The fd becomes
 * extmem's only when the import succeeds, and then the caller's number is closed, as the
 * driver closes it; on any failure it stays the caller's, open. Results:
 *   CUDA_ERROR_INVALID_VALUE   extSem_out or semHandleDesc NULL; type 0 or unknown; flags or a
 *                              reserved field not 0; a binary payload imported as a timeline or
 *                              the other way round; a Windows type without exactly one of
 *                              handle and name (KMT: a handle and no name)
 *   CUDA_ERROR_UNKNOWN         the fd is not a semaphore (-1, /dev/null, a plain memfd), as on
 *                              the driver
 *   CUDA_ERROR_NOT_SUPPORTED   Windows, Direct3D and keyed-mutex types on Linux; NVSCISYNC
 *                              everywhere; fd types on Windows; a Direct3D object this Direct3D
 *                              cannot share or open (wine), or a D3D11_FENCE by name
 * Windows: D3D12_FENCE, D3D11_FENCE and D3D11_KEYED_MUTEX(_KMT) are opened with extmem's own
 * Direct3D device; a keyed mutex is acquired by a wait (params.keyedMutex.key, .timeoutMs) and
 * released by a signal (params.keyedMutex.key). */
EXTMEM_API CUresult CUDAAPI cuImportExternalSemaphore(CUexternalSemaphore *extSem_out,
                                                      const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *semHandleDesc);
/* Queues, in order with the stream's other work, one signal per semaphore: binary, signalled;
 * timelines and fences, set to params.fence.value. Never waits.
 *   CUDA_ERROR_INVALID_VALUE   an array NULL, numExtSems 0, a semaphore handle NULL, flags or a
 *                              reserved field not 0
 *   CUDA_ERROR_INVALID_HANDLE  a semaphore or the stream is not a live handle (the driver
 *                              crashes on a garbage stream) */
EXTMEM_API CUresult CUDAAPI cuSignalExternalSemaphoresAsync(const CUexternalSemaphore *extSemArray,
                                                            const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray,
                                                            unsigned int numExtSems, CUstream stream);
/* Queues one wait per semaphore: later work in the stream runs once every semaphore is signalled
 * (binary: the wait takes the signal) or reached params.fence.value (timelines, fences). The
 * calling thread never waits; the stream stays busy (cuStreamQuery: NOT_READY) until then.
 * Results as for cuSignalExternalSemaphoresAsync. */
EXTMEM_API CUresult CUDAAPI cuWaitExternalSemaphoresAsync(const CUexternalSemaphore *extSemArray,
                                                          const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray,
                                                          unsigned int numExtSems, CUstream stream);
/* Queued signals and waits keep the semaphore alive until they have run.
 *   CUDA_ERROR_INVALID_VALUE   extSem NULL
 *   CUDA_ERROR_INVALID_HANDLE  destroyed already (the driver aborts on a second destroy) or forged */
EXTMEM_API CUresult CUDAAPI cuDestroyExternalSemaphore(CUexternalSemaphore extSem);

/* ---- dma-buf export (../shared/seeds/000_5a44d3b7857fd408.txt; DESIGN.md §10) ----
 * handle points to an int that receives a new dma-buf fd (close-on-exec, read-write), the
 * caller's to close, over the very same pages as the range (no copy); it stays valid after
 * the memory is freed or unmapped. The range is page-aligned and lies in one cuMemAlloc
 * allocation (its whole pages), in VMM mappings side by side (any access), or, where
 * CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED is 1, in one host allocation.
 * CUDA_ERROR_INVALID_VALUE, nothing written: handle NULL; handleType not DMA_BUF_FD; flags
 *   with bits set but not CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE; dptr 0; size 0; dptr
 *   or size not a multiple of the host page size; the range wraps around.
 * CUDA_ERROR_INVALID_CONTEXT, nothing written: no current context (after the checks above).
 * From here on a failure writes -1, as the driver does.
 * CUDA_ERROR_INVALID_VALUE: the range is not in such memory, runs past its allocation, is not
 *   mapped throughout, or is host memory where the host attribute is 0.
 * CUDA_ERROR_NOT_SUPPORTED: flags has the PCIe bit (the software device has no BAR); this
 *   machine has no dma-buf provider (CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED is 0: Linux
 *   without /dev/udmabuf, Windows); the range is over the provider's limits (udmabuf's
 *   size_limit_mb, list_limit). The error detail says which.
 * CUDA_ERROR_OUT_OF_MEMORY, CUDA_ERROR_OPERATING_SYSTEM: the kernel failed. docs/dmabuf.md. */
EXTMEM_API CUresult CUDAAPI cuMemGetHandleForAddressRange(void *handle, CUdeviceptr dptr, size_t size,
                                                          CUmemRangeHandleType handleType, unsigned long long flags);

/* ---- Interprocess communication (../shared/seeds/002_2ab34fea44c5cb4f.txt; DESIGN.md §9) ----
 * A handle is a capability: it names the exporting process (pid and start time), the memory
 * object and a 128-bit random nonce; nothing forged, stale or guessed opens memory, and the OS
 * keeps processes of other users out. Codes for each case: docs/ipc.md. */
EXTMEM_API CUresult CUDAAPI cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr);
/* Flags must be CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS. Opening a handle again in the same context
 * returns the same pointer and counts a reference; handles of one exporting process may be
 * open in one context of this process at a time. */
EXTMEM_API CUresult CUDAAPI cuIpcOpenMemHandle(CUdeviceptr *pdptr, CUipcMemHandle handle, unsigned int Flags);
EXTMEM_API CUresult CUDAAPI cuIpcCloseMemHandle(CUdeviceptr dptr);
/* The event must have been created with CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING. */
EXTMEM_API CUresult CUDAAPI cuIpcGetEventHandle(CUipcEventHandle *pHandle, CUevent event);
EXTMEM_API CUresult CUDAAPI cuIpcOpenEventHandle(CUevent *phEvent, CUipcEventHandle handle);

/* ---- Modules (DESIGN.md §13; docs/kernels.md) ----
 * An image is PTX text (NUL-terminated), a fat binary (the container, magic 0xBA55ED50, or the
 * wrapper nvcc's host code passes, magic 0x466243B1) whose best PTX entry is used (the
 * highest target not above the device's compute capability; ZSTD and LZ4 entries are
 * decompressed), or anything else. A module belongs to the current context and is unloaded
 * with it. Results common to the loading calls:
 * CUDA_ERROR_INVALID_VALUE: module or image (file name) NULL.
 * CUDA_ERROR_INVALID_PTX: PTX the engine cannot decode (the reason names the line).
 * CUDA_ERROR_NO_BINARY_FOR_GPU: an ELF cubin, or a fat binary with SASS only (a CPU cannot run
 *   SASS) or PTX only for targets above the device's.
 * CUDA_ERROR_INVALID_IMAGE: neither PTX nor a fat binary, or a damaged fat binary.
 * CUDA_ERROR_NOT_SUPPORTED: a compressed entry where this build has no zstd/lz4 (Windows). */
EXTMEM_API CUresult CUDAAPI cuModuleLoad(CUmodule *module, const char *fname);
EXTMEM_API CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image);
/* Options: the log buffers (INFO_LOG_BUFFER / ERROR_LOG_BUFFER with their _SIZE_BYTES, which
 * are written back with the bytes used) receive extmem's messages; WALL_TIME receives the
 * milliseconds taken; the others are checked and accepted. CUDA_ERROR_INVALID_VALUE for
 * numOptions > 0 with options or optionValues NULL, an option outside CUjit_option, or a value
 * outside its option's range. */
EXTMEM_API CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                               CUjit_option *options, void **optionValues);
EXTMEM_API CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin);
/* Waits for queued work (kernels of the module may be among it), then frees the module's
 * memory; its functions become invalid. CUDA_ERROR_INVALID_HANDLE for a NULL, unloaded or
 * forged module; CUDA_ERROR_INVALID_VALUE for a library's module (cuLibraryUnload). */
EXTMEM_API CUresult CUDAAPI cuModuleUnload(CUmodule hmod);
/* CU_MODULE_LAZY_LOADING unless CUDA_MODULE_LOADING=EAGER. CUDA_ERROR_INVALID_VALUE: mode NULL. */
EXTMEM_API CUresult CUDAAPI cuModuleGetLoadingMode(CUmoduleLoadingMode *mode);
/* The same handle for the same name each time. CUDA_ERROR_INVALID_VALUE: hfunc or name NULL;
 * CUDA_ERROR_INVALID_HANDLE: hmod NULL, unloaded or forged; CUDA_ERROR_NOT_FOUND: no kernel
 * (.entry) of that name. */
EXTMEM_API CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
EXTMEM_API CUresult CUDAAPI cuModuleGetFunctionCount(unsigned int *count, CUmodule mod);
/* CUDA_ERROR_INVALID_VALUE: functions NULL or numFunctions smaller than the count. */
EXTMEM_API CUresult CUDAAPI cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions, CUmodule mod);
/* A .global or .const variable's device address and size; dptr and bytes may each be NULL.
 * The address works with the copy calls and in kernels. CUDA_ERROR_INVALID_VALUE: name NULL;
 * CUDA_ERROR_INVALID_HANDLE: hmod invalid; CUDA_ERROR_NOT_FOUND: no such variable. */
EXTMEM_API CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name);

/* ---- Linking (docs/kernels.md, "Linking"): PTX, fat binaries, host objects and archives whose
 * fat binaries hold PTX, linked into one image that cuModuleLoadData(Ex) and cuLibraryLoadData
 * take. Externs (.extern) resolve across the inputs; .weak definitions give way to others.
 * options as cuModuleLoadDataEx; the log buffers and their sizes (written back) stay the
 * caller's until cuLinkDestroy and receive the messages of every later call.
 * CUDA_ERROR_INVALID_VALUE: stateOut NULL, numOptions > 0 with options or optionValues NULL, an
 * unknown option or value. */
EXTMEM_API CUresult CUDAAPI cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues,
                                         CUlinkState *stateOut);
/* Adds an input (checked at once: malformed PTX is CUDA_ERROR_INVALID_PTX here). name names it
 * in messages (may be NULL). The options are as cuLinkCreate's and apply to this input.
 * CUDA_ERROR_INVALID_HANDLE: state NULL, destroyed or forged; CUDA_ERROR_INVALID_VALUE: data
 * NULL, size 0, type not a CUjitInputType, or the state already completed;
 * CUDA_ERROR_NO_BINARY_FOR_GPU: a cubin, or a fat binary (object, archive) without PTX the
 * device can run; CUDA_ERROR_INVALID_IMAGE: data that is not of its type;
 * CUDA_ERROR_NOT_SUPPORTED: NVVM IR. */
EXTMEM_API CUresult CUDAAPI cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size,
                                          const char *name, unsigned int numOptions, CUjit_option *options,
                                          void **optionValues);
/* cuLinkAddData of a file's contents. CUDA_ERROR_FILE_NOT_FOUND: it cannot be read. */
EXTMEM_API CUresult CUDAAPI cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path,
                                          unsigned int numOptions, CUjit_option *options, void **optionValues);
/* Links the inputs: *cubinOut points to the image (extmem's: the linked PTX, NUL-terminated,
 * *sizeOut bytes with the NUL), which belongs to the state until cuLinkDestroy.
 * CUDA_ERROR_INVALID_PTX: an unresolved extern or a name defined twice (the error log names
 * it); CUDA_ERROR_INVALID_VALUE: no inputs, cubinOut or sizeOut NULL. */
EXTMEM_API CUresult CUDAAPI cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut);
/* Frees the state and the image cuLinkComplete gave. */
EXTMEM_API CUresult CUDAAPI cuLinkDestroy(CUlinkState state);

/* ---- Libraries: context-independent modules, loaded into each context that uses them ----
 * Images and JIT options as cuModuleLoadDataEx; libraryOptions may be
 * CU_LIBRARY_BINARY_IS_PRESERVED (accepted; extmem keeps its own copy anyway) or
 * CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE (CUDA_ERROR_NOT_SUPPORTED). */
EXTMEM_API CUresult CUDAAPI cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                              void **jitOptionsValues, unsigned int numJitOptions,
                                              CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                              unsigned int numLibraryOptions);
EXTMEM_API CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary *library, const char *fileName, CUjit_option *jitOptions,
                                                  void **jitOptionsValues, unsigned int numJitOptions,
                                                  CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                                  unsigned int numLibraryOptions);
/* Waits for queued work, unloads the library's modules; its kernels become invalid. */
EXTMEM_API CUresult CUDAAPI cuLibraryUnload(CUlibrary library);
/* CUDA_ERROR_NOT_FOUND: the library has no kernel of that name. */
EXTMEM_API CUresult CUDAAPI cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name);
EXTMEM_API CUresult CUDAAPI cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib);
EXTMEM_API CUresult CUDAAPI cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels, CUlibrary lib);
/* The library's module in the current context (loaded there on first use). */
EXTMEM_API CUresult CUDAAPI cuLibraryGetModule(CUmodule *pMod, CUlibrary library);
EXTMEM_API CUresult CUDAAPI cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name);
/* The kernel's function in the current context. A CUkernel may also be passed wherever a
 * CUfunction is taken (cuLaunchKernel, cuFuncGetAttribute ...), as on the driver. */
EXTMEM_API CUresult CUDAAPI cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel);
/* The offset and size of the kernel's parameter paramIndex (cuFuncGetParamInfo of its
 * function in the current context). */
EXTMEM_API CUresult CUDAAPI cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset,
                                                 size_t *paramSize);
/* The kernel's cache preference on dev (cuFuncSetCacheConfig in the current context): kept,
 * and read by nothing (the software device has no L1/shared split). */
EXTMEM_API CUresult CUDAAPI cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev);
EXTMEM_API CUresult CUDAAPI cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel);
EXTMEM_API CUresult CUDAAPI cuKernelGetName(const char **name, CUkernel hfunc);
/* dev must be the software device (CUDA_ERROR_INVALID_DEVICE). */
EXTMEM_API CUresult CUDAAPI cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev);
EXTMEM_API CUresult CUDAAPI cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev);
/* cuFuncGetParamInfo and cuFuncSetCacheConfig of the kernel's function in the current context
 * (CUDA_ERROR_INVALID_DEVICE for dev other than 0). */
EXTMEM_API CUresult CUDAAPI cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset,
                                                 size_t *paramSize);
EXTMEM_API CUresult CUDAAPI cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev);

/* ---- Functions ----
 * CUDA_ERROR_INVALID_HANDLE for a NULL or forged function and for one whose module was
 * unloaded. cuFuncGetAttribute's values (docs/kernels.md): MAX_THREADS_PER_BLOCK 1024, or
 * the product of .maxntid / .reqntid; SHARED_SIZE_BYTES the static .shared bytes;
 * CONST_SIZE_BYTES the module's .const bytes; LOCAL_SIZE_BYTES the .local bytes per thread;
 * NUM_REGS the function's registers (at most 255); PTX_VERSION the PTX target (.target
 * sm_75: 75); BINARY_VERSION the device's compute capability (the code it runs was made for
 * it); MAX_DYNAMIC_SHARED_SIZE_BYTES 48 KiB less the static bytes unless raised.
 * CUDA_ERROR_INVALID_VALUE: pi NULL, attrib not a CUfunction_attribute. */
EXTMEM_API CUresult CUDAAPI cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc);
/* Settable: MAX_DYNAMIC_SHARED_SIZE_BYTES (0 .. 163 KiB less the static bytes),
 * PREFERRED_SHARED_MEMORY_CARVEOUT (-1 .. 100), NON_PORTABLE_CLUSTER_SIZE_ALLOWED and
 * CLUSTER_SCHEDULING_POLICY_PREFERENCE; REQUIRED_CLUSTER_* only to 1 (CUDA_ERROR_NOT_SUPPORTED
 * otherwise: the software device launches no clusters); anything else CUDA_ERROR_INVALID_VALUE. */
EXTMEM_API CUresult CUDAAPI cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value);
EXTMEM_API CUresult CUDAAPI cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config);
EXTMEM_API CUresult CUDAAPI cuFuncGetModule(CUmodule *hmod, CUfunction hfunc);
/* Accepted and ignored (INVALID_VALUE outside the enum), as cuCtxSetSharedMemConfig. */
EXTMEM_API CUresult CUDAAPI cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config);
EXTMEM_API CUresult CUDAAPI cuFuncGetName(const char **name, CUfunction hfunc);
/* CUDA_ERROR_INVALID_VALUE: paramIndex is not a parameter of the kernel. */
EXTMEM_API CUresult CUDAAPI cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset,
                                               size_t *paramSize);
EXTMEM_API CUresult CUDAAPI cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction function);
EXTMEM_API CUresult CUDAAPI cuFuncLoad(CUfunction function);

/* ---- Occupancy: a model of an sm_80 multiprocessor (2048 threads, 32 blocks, 64K
 * registers, 164 KiB of shared memory); docs/kernels.md. ---- */
EXTMEM_API CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                                       size_t dynamicSMemSize);
EXTMEM_API CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func,
                                                                                int blockSize, size_t dynamicSMemSize,
                                                                                unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                                            CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                            size_t dynamicSMemSize, int blockSizeLimit);
EXTMEM_API CUresult CUDAAPI cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, CUfunction func,
                                                                     CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                                     size_t dynamicSMemSize, int blockSizeLimit,
                                                                     unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func,
                                                                   int numBlocks, int blockSize);
/* Thread block clusters (compute capability 9.0): resident clusters of config's shape, and the
 * largest cluster the kernel may be launched in. */
EXTMEM_API CUresult CUDAAPI cuOccupancyMaxActiveClusters(int *numClusters, CUfunction func, const CUlaunchConfig *config);
EXTMEM_API CUresult CUDAAPI cuOccupancyMaxPotentialClusterSize(int *clusterSize, CUfunction func,
                                                              const CUlaunchConfig *config);

/* ---- Kernel launches ----
 * Parameters come either as kernelParams (one pointer per parameter of the kernel, each
 * copied by the parameter's size) or as extra (CU_LAUNCH_PARAM_BUFFER_POINTER, a buffer laid
 * out as the kernel's parameters, CU_LAUNCH_PARAM_BUFFER_SIZE, a pointer to its size_t size,
 * CU_LAUNCH_PARAM_END). The call returns once the launch is queued; a kernel's fault
 * (CUDA_ERROR_ILLEGAL_ADDRESS, _MISALIGNED_ADDRESS, _LAUNCH_FAILED, _ASSERT) is reported by
 * the next call that waits and by every later call in the context (sticky; docs/kernels.md).
 * CUDA_ERROR_INVALID_HANDLE: f NULL, forged or of an unloaded module, or of another context.
 * CUDA_ERROR_INVALID_VALUE: a grid or block dimension of 0; block x or y > 1024, z > 64, or
 *   more than 1024 threads, or more than the kernel's .maxntid allows, or not its .reqntid;
 *   grid x > 2^31-1, y or z > 65535; dynamic shared memory above 48 KiB (less the static) not
 *   raised by cuFuncSetAttribute, or above the raised limit; both or neither of kernelParams
 *   and extra for a kernel with parameters; an extra list without the buffer, its size, or
 *   with a size other than the parameters' or an unknown key. */
EXTMEM_API CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                           unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                           unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                           void **kernelParams, void **extra);
/* As cuLaunchKernel. Attributes: IGNORE, COOPERATIVE, SYNCHRONIZATION_POLICY, PRIORITY,
 * MEM_SYNC_DOMAIN(_MAP), PROGRAMMATIC_STREAM_SERIALIZATION, PREFERRED_SHARED_MEMORY_CARVEOUT,
 * cluster scheduling policy and cluster dimensions of 1 are accepted (they change nothing on
 * the software device); cluster dimensions other than 1 and the event attributes are
 * CUDA_ERROR_NOT_SUPPORTED; an unknown id CUDA_ERROR_INVALID_VALUE. */
EXTMEM_API CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams,
                                             void **extra);

/* ---- Cooperative launches (issue 25; docs/kernels.md, "Cooperative launches") ----
 * As cuLaunchKernel (kernelParams only), with every block of the grid resident at once, so
 * that blocks may wait for each other (cooperative_groups' grid.sync()); so is cuLaunchKernelEx
 * with CU_LAUNCH_ATTRIBUTE_COOPERATIVE set, and a graph's kernel node with that attribute.
 * CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE: more blocks than the occupancy the device reports
 *   for the kernel, block size and dynamic shared memory, times MULTIPROCESSOR_COUNT (also
 *   dynamic shared memory past the kernel's limit, which leaves room for no block).
 * cuLaunchCooperativeKernelMultiDevice (deprecated): a list of one launch, for the one device;
 *   CUDA_ERROR_INVALID_VALUE for a NULL list, numDevices other than 1 or unknown flags. */
typedef struct CUDA_LAUNCH_PARAMS_st {
    CUfunction function;
    unsigned int gridDimX, gridDimY, gridDimZ;
    unsigned int blockDimX, blockDimY, blockDimZ;
    unsigned int sharedMemBytes;
    CUstream hStream;
    void **kernelParams;
} CUDA_LAUNCH_PARAMS_v1;
typedef CUDA_LAUNCH_PARAMS_v1 CUDA_LAUNCH_PARAMS;
#define CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC 0x01
#define CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC 0x02
EXTMEM_API CUresult CUDAAPI cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                                      unsigned int gridDimZ, unsigned int blockDimX,
                                                      unsigned int blockDimY, unsigned int blockDimZ,
                                                      unsigned int sharedMemBytes, CUstream hStream,
                                                      void **kernelParams);
EXTMEM_API CUresult CUDAAPI cuLaunchCooperativeKernelMultiDevice(CUDA_LAUNCH_PARAMS *launchParamsList,
                                                                 unsigned int numDevices, unsigned int flags);

/* ---- The legacy launch path (CUDA 1.x-3.x; PyCUDA still uses it) ----
 * Each function keeps a block shape, a dynamic shared size and a parameter buffer of 4096
 * bytes whose used size cuParamSetSize sets. cuLaunch runs a 1x1 grid, cuLaunchGrid and
 * cuLaunchGridAsync a width x height grid; the parameters are copied when the launch is queued.
 * CUDA_ERROR_INVALID_HANDLE: f NULL, forged or unloaded.
 * CUDA_ERROR_INVALID_VALUE: a block dimension of 0 or above the device's, more than 1024 threads;
 *   cuParamSet* writing past 4096 bytes, cuParamSetv with ptr NULL; a launch with no block shape
 *   set, or with a parameter size smaller than the kernel's parameters (the driver reads past
 *   them and faults; extmem refuses).
 * CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: a parameter size larger than the kernel's (as the driver).
 * Otherwise as cuLaunchKernel. cuParamSetTexRef is CUDA_ERROR_NOT_SUPPORTED: the software device
 * has no texture references. */
EXTMEM_API CUresult CUDAAPI cuFuncSetBlockShape(CUfunction hfunc, int x, int y, int z);
EXTMEM_API CUresult CUDAAPI cuFuncSetSharedSize(CUfunction hfunc, unsigned int bytes);
EXTMEM_API CUresult CUDAAPI cuParamSetSize(CUfunction hfunc, unsigned int numbytes);
EXTMEM_API CUresult CUDAAPI cuParamSeti(CUfunction hfunc, int offset, unsigned int value);
EXTMEM_API CUresult CUDAAPI cuParamSetf(CUfunction hfunc, int offset, float value);
EXTMEM_API CUresult CUDAAPI cuParamSetv(CUfunction hfunc, int offset, void *ptr, unsigned int numbytes);
EXTMEM_API CUresult CUDAAPI cuParamSetTexRef(CUfunction hfunc, int texunit, CUtexref hTexRef);
EXTMEM_API CUresult CUDAAPI cuLaunch(CUfunction f);
EXTMEM_API CUresult CUDAAPI cuLaunchGrid(CUfunction f, int grid_width, int grid_height);
EXTMEM_API CUresult CUDAAPI cuLaunchGridAsync(CUfunction f, int grid_width, int grid_height, CUstream hStream);

/* ---- Graphs and stream capture (docs/graphs.md) ----
 * A graph is work described ahead of time: nodes (a kernel, a copy, a fill, a host function, an
 * event record or wait, an external semaphore signal or wait, a memory allocation or free, a
 * child graph, a conditional) and the edges between them. cuGraphInstantiate makes an
 * executable graph of it, which cuGraphLaunch runs as one piece of work on a stream. A stream
 * that is capturing records the work given to it as nodes instead of running it. */
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphNode_st *CUgraphNode;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUuserObject_st *CUuserObject;
typedef cuuint64_t CUgraphConditionalHandle;

typedef CUlaunchAttributeID CUkernelNodeAttrID;
typedef CUlaunchAttributeValue CUkernelNodeAttrValue_v1;
typedef CUkernelNodeAttrValue_v1 CUkernelNodeAttrValue;
#define CU_KERNEL_NODE_ATTRIBUTE_ACCESS_POLICY_WINDOW CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW
#define CU_KERNEL_NODE_ATTRIBUTE_COOPERATIVE          CU_LAUNCH_ATTRIBUTE_COOPERATIVE
#define CU_KERNEL_NODE_ATTRIBUTE_PRIORITY             CU_LAUNCH_ATTRIBUTE_PRIORITY
#define CU_KERNEL_NODE_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP  CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP
#define CU_KERNEL_NODE_ATTRIBUTE_MEM_SYNC_DOMAIN      CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN

typedef enum CUgraphNodeType_enum {
    CU_GRAPH_NODE_TYPE_KERNEL = 0,
    CU_GRAPH_NODE_TYPE_MEMCPY = 1,
    CU_GRAPH_NODE_TYPE_MEMSET = 2,
    CU_GRAPH_NODE_TYPE_HOST = 3,
    CU_GRAPH_NODE_TYPE_GRAPH = 4, /* a child graph */
    CU_GRAPH_NODE_TYPE_EMPTY = 5,
    CU_GRAPH_NODE_TYPE_WAIT_EVENT = 6,
    CU_GRAPH_NODE_TYPE_EVENT_RECORD = 7,
    CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL = 8,
    CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT = 9,
    CU_GRAPH_NODE_TYPE_MEM_ALLOC = 10,
    CU_GRAPH_NODE_TYPE_MEM_FREE = 11,
    CU_GRAPH_NODE_TYPE_BATCH_MEM_OP = 12,
    CU_GRAPH_NODE_TYPE_CONDITIONAL = 13
} CUgraphNodeType;

/* A kernel node. _v2 and _v3 add `kern` (used when func is NULL) and the context for it. */
typedef struct CUDA_KERNEL_NODE_PARAMS_st {
    CUfunction func;
    unsigned int gridDimX, gridDimY, gridDimZ;
    unsigned int blockDimX, blockDimY, blockDimZ;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
} CUDA_KERNEL_NODE_PARAMS_v1;
typedef struct CUDA_KERNEL_NODE_PARAMS_v2_st {
    CUfunction func;
    unsigned int gridDimX, gridDimY, gridDimZ;
    unsigned int blockDimX, blockDimY, blockDimZ;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
    CUkernel kern;
    CUcontext ctx;
} CUDA_KERNEL_NODE_PARAMS_v2;
typedef CUDA_KERNEL_NODE_PARAMS_v2 CUDA_KERNEL_NODE_PARAMS;
typedef struct CUDA_KERNEL_NODE_PARAMS_v3_st {
    CUfunction func;
    unsigned int gridDimX, gridDimY, gridDimZ;
    unsigned int blockDimX, blockDimY, blockDimZ;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
    CUkernel kern;
    CUcontext ctx;
} CUDA_KERNEL_NODE_PARAMS_v3;

/* A fill of `height` rows of `width` elements of 1, 2 or 4 bytes, rows `pitch` bytes apart. */
typedef struct CUDA_MEMSET_NODE_PARAMS_st {
    CUdeviceptr dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
} CUDA_MEMSET_NODE_PARAMS_v1;
typedef CUDA_MEMSET_NODE_PARAMS_v1 CUDA_MEMSET_NODE_PARAMS;
typedef struct CUDA_MEMSET_NODE_PARAMS_v2_st {
    CUdeviceptr dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
    CUcontext ctx;
} CUDA_MEMSET_NODE_PARAMS_v2;

typedef struct CUDA_HOST_NODE_PARAMS_st {
    CUhostFn fn;
    void *userData;
} CUDA_HOST_NODE_PARAMS_v1;
typedef CUDA_HOST_NODE_PARAMS_v1 CUDA_HOST_NODE_PARAMS;
typedef struct CUDA_HOST_NODE_PARAMS_v2_st {
    CUhostFn fn;
    void *userData;
} CUDA_HOST_NODE_PARAMS_v2;

typedef struct CUDA_MEMCPY_NODE_PARAMS_st {
    int flags;    /* 0 */
    int reserved; /* 0 */
    CUcontext copyCtx;
    CUDA_MEMCPY3D copyParams;
} CUDA_MEMCPY_NODE_PARAMS;

typedef enum CUgraphChildGraphNodeOwnership_enum {
    CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE = 0, /* the node holds a copy of the graph */
    CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE = 1   /* the node takes the graph itself */
} CUgraphChildGraphNodeOwnership;
typedef struct CUDA_CHILD_GRAPH_NODE_PARAMS_st {
    CUgraph graph;
    CUgraphChildGraphNodeOwnership ownership;
} CUDA_CHILD_GRAPH_NODE_PARAMS;
typedef struct CUDA_EVENT_RECORD_NODE_PARAMS_st {
    CUevent event;
} CUDA_EVENT_RECORD_NODE_PARAMS;
typedef struct CUDA_EVENT_WAIT_NODE_PARAMS_st {
    CUevent event;
} CUDA_EVENT_WAIT_NODE_PARAMS;

typedef struct CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_st {
    CUexternalSemaphore *extSemArray;
    const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray;
    unsigned int numExtSems;
} CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1;
typedef CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1 CUDA_EXT_SEM_SIGNAL_NODE_PARAMS;
typedef struct CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v2_st {
    CUexternalSemaphore *extSemArray;
    const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray;
    unsigned int numExtSems;
} CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v2;
typedef struct CUDA_EXT_SEM_WAIT_NODE_PARAMS_st {
    CUexternalSemaphore *extSemArray;
    const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray;
    unsigned int numExtSems;
} CUDA_EXT_SEM_WAIT_NODE_PARAMS_v1;
typedef CUDA_EXT_SEM_WAIT_NODE_PARAMS_v1 CUDA_EXT_SEM_WAIT_NODE_PARAMS;
typedef struct CUDA_EXT_SEM_WAIT_NODE_PARAMS_v2_st {
    CUexternalSemaphore *extSemArray;
    const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray;
    unsigned int numExtSems;
} CUDA_EXT_SEM_WAIT_NODE_PARAMS_v2;

/* Graph-owned memory: the allocation's address is fixed when the node is made (dptr, out). */
typedef struct CUDA_MEM_ALLOC_NODE_PARAMS_v1_st {
    CUmemPoolProps poolProps;
    const CUmemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    CUdeviceptr dptr;
} CUDA_MEM_ALLOC_NODE_PARAMS_v1;
typedef CUDA_MEM_ALLOC_NODE_PARAMS_v1 CUDA_MEM_ALLOC_NODE_PARAMS;
typedef struct CUDA_MEM_ALLOC_NODE_PARAMS_v2_st {
    CUmemPoolProps poolProps;
    const CUmemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    CUdeviceptr dptr;
} CUDA_MEM_ALLOC_NODE_PARAMS_v2;
typedef struct CUDA_MEM_FREE_NODE_PARAMS_st {
    CUdeviceptr dptr;
} CUDA_MEM_FREE_NODE_PARAMS;

typedef struct CUDA_BATCH_MEM_OP_NODE_PARAMS_v1_st {
    CUcontext ctx;
    unsigned int count;
    CUstreamBatchMemOpParams *paramArray;
    unsigned int flags;
} CUDA_BATCH_MEM_OP_NODE_PARAMS_v1;
typedef CUDA_BATCH_MEM_OP_NODE_PARAMS_v1 CUDA_BATCH_MEM_OP_NODE_PARAMS;
typedef struct CUDA_BATCH_MEM_OP_NODE_PARAMS_v2_st {
    CUcontext ctx;
    unsigned int count;
    CUstreamBatchMemOpParams *paramArray;
    unsigned int flags;
} CUDA_BATCH_MEM_OP_NODE_PARAMS_v2;

/* Conditional nodes: a body graph (or several) run if, while or as a switch on a value that the
 * handle holds: its default at each launch (CU_GRAPH_COND_ASSIGN_DEFAULT), or what a kernel
 * set with cudaGraphSetConditional. */
#define CU_GRAPH_COND_ASSIGN_DEFAULT 0x1
typedef enum CUgraphConditionalNodeType_enum {
    CU_GRAPH_COND_TYPE_IF = 0,    /* body 0 if non-zero; with size 2, body 1 otherwise */
    CU_GRAPH_COND_TYPE_WHILE = 1, /* body 0 again and again while non-zero */
    CU_GRAPH_COND_TYPE_SWITCH = 2 /* body n for the value n; none past size */
} CUgraphConditionalNodeType;
typedef struct CUDA_CONDITIONAL_NODE_PARAMS {
    CUgraphConditionalHandle handle;
    CUgraphConditionalNodeType type;
    unsigned int size;     /* how many bodies */
    CUgraph *phGraph_out;  /* out: the bodies, owned by the node */
    CUcontext ctx;
} CUDA_CONDITIONAL_NODE_PARAMS;

/* Any node's parameters, for cuGraphAddNode and cuGraphNodeSetParams; unused bytes zero. */
typedef struct CUgraphNodeParams_st {
    CUgraphNodeType type;
    int reserved0[3];
    union {
        long long reserved1[29];
        CUDA_KERNEL_NODE_PARAMS_v3 kernel;
        CUDA_MEMCPY_NODE_PARAMS memcpy;
        CUDA_MEMSET_NODE_PARAMS_v2 memset;
        CUDA_HOST_NODE_PARAMS_v2 host;
        CUDA_CHILD_GRAPH_NODE_PARAMS graph;
        CUDA_EVENT_WAIT_NODE_PARAMS eventWait;
        CUDA_EVENT_RECORD_NODE_PARAMS eventRecord;
        CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v2 extSemSignal;
        CUDA_EXT_SEM_WAIT_NODE_PARAMS_v2 extSemWait;
        CUDA_MEM_ALLOC_NODE_PARAMS_v2 alloc;
        CUDA_MEM_FREE_NODE_PARAMS free;
        CUDA_BATCH_MEM_OP_NODE_PARAMS_v2 memOp;
        CUDA_CONDITIONAL_NODE_PARAMS conditional;
    };
    long long reserved2;
} CUgraphNodeParams;

/* Edges may carry data (CUDA 12.3): ports and a type; all zero is an ordinary edge. */
typedef enum CUgraphDependencyType_enum {
    CU_GRAPH_DEPENDENCY_TYPE_DEFAULT = 0,
    CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC = 1
} CUgraphDependencyType;
#define CU_GRAPH_KERNEL_NODE_PORT_DEFAULT 0
#define CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC 1
#define CU_GRAPH_KERNEL_NODE_PORT_LAUNCH_ORDER 2
typedef struct CUgraphEdgeData_st {
    unsigned char from_port;
    unsigned char to_port;
    unsigned char type; /* a CUgraphDependencyType */
    unsigned char reserved[5];
} CUgraphEdgeData;

typedef enum CUgraphInstantiate_flags_enum {
    CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH = 1, /* a launch first frees what the last one allocated */
    CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD = 2,              /* upload at once to hUploadStream (WithParams) */
    CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH = 4,       /* launchable from kernels */
    CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY = 8    /* kernel nodes' own priority attributes */
} CUgraphInstantiate_flags;
typedef enum CUgraphInstantiateResult_enum {
    CUDA_GRAPH_INSTANTIATE_SUCCESS = 0,
    CUDA_GRAPH_INSTANTIATE_ERROR = 1,
    CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE = 2,
    CUDA_GRAPH_INSTANTIATE_NODE_OPERATION_NOT_SUPPORTED = 3,
    CUDA_GRAPH_INSTANTIATE_MULTIPLE_CTXS_NOT_SUPPORTED = 4,
    CUDA_GRAPH_INSTANTIATE_CONDITIONAL_HANDLE_UNUSED = 5
} CUgraphInstantiateResult;
typedef struct CUDA_GRAPH_INSTANTIATE_PARAMS_st {
    cuuint64_t flags;
    CUstream hUploadStream;
    CUgraphNode hErrNode_out;
    CUgraphInstantiateResult result_out;
} CUDA_GRAPH_INSTANTIATE_PARAMS;

typedef enum CUgraphExecUpdateResult_enum {
    CU_GRAPH_EXEC_UPDATE_SUCCESS = 0x0,
    CU_GRAPH_EXEC_UPDATE_ERROR = 0x1,
    CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED = 0x2,
    CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED = 0x3,
    CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED = 0x4,
    CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED = 0x5,
    CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED = 0x6,
    CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE = 0x7,
    CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED = 0x8
} CUgraphExecUpdateResult;
typedef struct CUgraphExecUpdateResultInfo_st {
    CUgraphExecUpdateResult result;
    CUgraphNode errorNode;     /* the node of hGraph the update failed at */
    CUgraphNode errorFromNode; /* with a changed edge: its other end */
} CUgraphExecUpdateResultInfo_v1;
typedef CUgraphExecUpdateResultInfo_v1 CUgraphExecUpdateResultInfo;

typedef enum CUgraphMem_attribute_enum {
    CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT,     /* bytes graphs' allocations hold now */
    CU_GRAPH_MEM_ATTR_USED_MEM_HIGH,        /* the most they held (settable to 0) */
    CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT, /* bytes kept for graphs' allocations now */
    CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH     /* the most kept (settable to 0) */
} CUgraphMem_attribute;

typedef enum CUgraphDebugDot_flags_enum {
    CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE = 1 << 0,
    CU_GRAPH_DEBUG_DOT_FLAGS_RUNTIME_TYPES = 1 << 1,
    CU_GRAPH_DEBUG_DOT_FLAGS_KERNEL_NODE_PARAMS = 1 << 2,
    CU_GRAPH_DEBUG_DOT_FLAGS_MEMCPY_NODE_PARAMS = 1 << 3,
    CU_GRAPH_DEBUG_DOT_FLAGS_MEMSET_NODE_PARAMS = 1 << 4,
    CU_GRAPH_DEBUG_DOT_FLAGS_HOST_NODE_PARAMS = 1 << 5,
    CU_GRAPH_DEBUG_DOT_FLAGS_EVENT_NODE_PARAMS = 1 << 6,
    CU_GRAPH_DEBUG_DOT_FLAGS_EXT_SEMAS_SIGNAL_NODE_PARAMS = 1 << 7,
    CU_GRAPH_DEBUG_DOT_FLAGS_EXT_SEMAS_WAIT_NODE_PARAMS = 1 << 8,
    CU_GRAPH_DEBUG_DOT_FLAGS_KERNEL_NODE_ATTRIBUTES = 1 << 9,
    CU_GRAPH_DEBUG_DOT_FLAGS_HANDLES = 1 << 10,
    CU_GRAPH_DEBUG_DOT_FLAGS_MEM_ALLOC_NODE_PARAMS = 1 << 11,
    CU_GRAPH_DEBUG_DOT_FLAGS_MEM_FREE_NODE_PARAMS = 1 << 12,
    CU_GRAPH_DEBUG_DOT_FLAGS_BATCH_MEM_OP_NODE_PARAMS = 1 << 13,
    CU_GRAPH_DEBUG_DOT_FLAGS_EXTRA_TOPO_INFO = 1 << 14,
    CU_GRAPH_DEBUG_DOT_FLAGS_CONDITIONAL_NODE_PARAMS = 1 << 15
} CUgraphDebugDot_flags;

typedef enum CUuserObject_flags_enum {
    CU_USER_OBJECT_NO_DESTRUCTOR_SYNC = 1 /* the only flag, and required */
} CUuserObject_flags;
typedef enum CUuserObjectRetain_flags_enum {
    CU_GRAPH_USER_OBJECT_MOVE = 1 /* the graph takes the caller's references */
} CUuserObjectRetain_flags;

typedef enum CUstreamCaptureMode_enum {
    CU_STREAM_CAPTURE_MODE_GLOBAL = 0,       /* unsafe calls are refused in every thread while any global capture runs */
    CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1, /* ... in the capturing thread only */
    CU_STREAM_CAPTURE_MODE_RELAXED = 2       /* never refused */
} CUstreamCaptureMode;
typedef enum CUstreamUpdateCaptureDependencies_flags_enum {
    CU_STREAM_ADD_CAPTURE_DEPENDENCIES = 0x0,
    CU_STREAM_SET_CAPTURE_DEPENDENCIES = 0x1
} CUstreamUpdateCaptureDependencies_flags;

/* Per-thread default stream variants, as elsewhere in this header. */
#define cuStreamBeginCapture              EXTMEM_PTSZ(cuStreamBeginCapture_v2)
#define cuStreamGetCaptureInfo            EXTMEM_PTSZ(cuStreamGetCaptureInfo_v3)
#define cuStreamUpdateCaptureDependencies EXTMEM_PTSZ(cuStreamUpdateCaptureDependencies_v2)
#define cuGraphInstantiate                cuGraphInstantiateWithFlags
#define cuGraphExecUpdate                 cuGraphExecUpdate_v2
#define cuGraphAddKernelNode              cuGraphAddKernelNode_v2
#define cuGraphKernelNodeGetParams        cuGraphKernelNodeGetParams_v2
#define cuGraphKernelNodeSetParams        cuGraphKernelNodeSetParams_v2
#define cuGraphExecKernelNodeSetParams    cuGraphExecKernelNodeSetParams_v2
#define cuGraphGetEdges                   cuGraphGetEdges_v2
#define cuGraphNodeGetDependencies        cuGraphNodeGetDependencies_v2
#define cuGraphNodeGetDependentNodes      cuGraphNodeGetDependentNodes_v2
#define cuGraphAddDependencies            cuGraphAddDependencies_v2
#define cuGraphRemoveDependencies         cuGraphRemoveDependencies_v2
#define cuGraphAddNode                    cuGraphAddNode_v2
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define cuStreamEndCapture                EXTMEM_PTSZ(cuStreamEndCapture)
#define cuStreamBeginCaptureToGraph       EXTMEM_PTSZ(cuStreamBeginCaptureToGraph)
#define cuGraphInstantiateWithParams      EXTMEM_PTSZ(cuGraphInstantiateWithParams)
#define cuGraphUpload                     EXTMEM_PTSZ(cuGraphUpload)
#define cuGraphLaunch                     EXTMEM_PTSZ(cuGraphLaunch)
#endif

/* Capture. Codes (docs/graphs.md has every rule):
 *   CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED  the legacy stream cannot capture; a call not allowed
 *                                          during the capture (it invalidates the capture)
 *   CUDA_ERROR_ILLEGAL_STATE               the stream is already capturing / not capturing
 *   CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD ended from another thread than began a non-relaxed capture
 *   CUDA_ERROR_STREAM_CAPTURE_UNJOINED     a stream forked into the capture was not joined back
 *   CUDA_ERROR_STREAM_CAPTURE_INVALIDATED  the capture was invalidated by an earlier error
 *   CUDA_ERROR_STREAM_CAPTURE_IMPLICIT     the legacy stream used while a blocking stream captures */
EXTMEM_API CUresult CUDAAPI cuStreamBeginCapture(CUstream hStream, CUstreamCaptureMode mode);
EXTMEM_API CUresult CUDAAPI cuStreamBeginCaptureToGraph(CUstream hStream, CUgraph hGraph, const CUgraphNode *dependencies,
                                                        const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                                        CUstreamCaptureMode mode);
EXTMEM_API CUresult CUDAAPI cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode);
EXTMEM_API CUresult CUDAAPI cuStreamEndCapture(CUstream hStream, CUgraph *phGraph);
EXTMEM_API CUresult CUDAAPI cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                                   cuuint64_t *id_out, CUgraph *graph_out,
                                                   const CUgraphNode **dependencies_out,
                                                   const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out);
EXTMEM_API CUresult CUDAAPI cuStreamUpdateCaptureDependencies(CUstream hStream, CUgraphNode *dependencies,
                                                              const CUgraphEdgeData *dependencyData,
                                                              size_t numDependencies, unsigned int flags);

/* Graphs and their nodes. */
EXTMEM_API CUresult CUDAAPI cuGraphCreate(CUgraph *phGraph, unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuGraphDestroy(CUgraph hGraph);
EXTMEM_API CUresult CUDAAPI cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph);
EXTMEM_API CUresult CUDAAPI cuGraphNodeFindInClone(CUgraphNode *phNode, CUgraphNode hOriginalNode, CUgraph hClonedGraph);
EXTMEM_API CUresult CUDAAPI cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type);
EXTMEM_API CUresult CUDAAPI cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes);
EXTMEM_API CUresult CUDAAPI cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode *rootNodes, size_t *numRootNodes);
EXTMEM_API CUresult CUDAAPI cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *edgeData,
                                            size_t *numEdges);
EXTMEM_API CUresult CUDAAPI cuGraphNodeGetDependencies(CUgraphNode hNode, CUgraphNode *dependencies,
                                                       CUgraphEdgeData *edgeData, size_t *numDependencies);
EXTMEM_API CUresult CUDAAPI cuGraphNodeGetDependentNodes(CUgraphNode hNode, CUgraphNode *dependentNodes,
                                                         CUgraphEdgeData *edgeData, size_t *numDependentNodes);
EXTMEM_API CUresult CUDAAPI cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                                   const CUgraphEdgeData *edgeData, size_t numDependencies);
EXTMEM_API CUresult CUDAAPI cuGraphRemoveDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                                      const CUgraphEdgeData *edgeData, size_t numDependencies);
EXTMEM_API CUresult CUDAAPI cuGraphDestroyNode(CUgraphNode hNode);
EXTMEM_API CUresult CUDAAPI cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                           const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                           CUgraphNodeParams *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                                 size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphKernelNodeGetParams(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphKernelNodeSetParams(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src);
EXTMEM_API CUresult CUDAAPI cuGraphKernelNodeGetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                                          CUkernelNodeAttrValue *value_out);
EXTMEM_API CUresult CUDAAPI cuGraphKernelNodeSetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                                          const CUkernelNodeAttrValue *value);
EXTMEM_API CUresult CUDAAPI cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                                 size_t numDependencies, const CUDA_MEMCPY3D *copyParams, CUcontext ctx);
EXTMEM_API CUresult CUDAAPI cuGraphMemcpyNodeGetParams(CUgraphNode hNode, CUDA_MEMCPY3D *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphMemcpyNodeSetParams(CUgraphNode hNode, const CUDA_MEMCPY3D *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                                 size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS *memsetParams,
                                                 CUcontext ctx);
EXTMEM_API CUresult CUDAAPI cuGraphMemsetNodeGetParams(CUgraphNode hNode, CUDA_MEMSET_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphMemsetNodeSetParams(CUgraphNode hNode, const CUDA_MEMSET_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                               size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphHostNodeGetParams(CUgraphNode hNode, CUDA_HOST_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphHostNodeSetParams(CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphAddChildGraphNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                                     const CUgraphNode *dependencies, size_t numDependencies,
                                                     CUgraph childGraph);
EXTMEM_API CUresult CUDAAPI cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph *phGraph);
EXTMEM_API CUresult CUDAAPI cuGraphAddEmptyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                                size_t numDependencies);
EXTMEM_API CUresult CUDAAPI cuGraphAddEventRecordNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                                      const CUgraphNode *dependencies, size_t numDependencies,
                                                      CUevent event);
EXTMEM_API CUresult CUDAAPI cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent *event_out);
EXTMEM_API CUresult CUDAAPI cuGraphEventRecordNodeSetEvent(CUgraphNode hNode, CUevent event);
EXTMEM_API CUresult CUDAAPI cuGraphAddEventWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                                    const CUgraphNode *dependencies, size_t numDependencies,
                                                    CUevent event);
EXTMEM_API CUresult CUDAAPI cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent *event_out);
EXTMEM_API CUresult CUDAAPI cuGraphEventWaitNodeSetEvent(CUgraphNode hNode, CUevent event);
EXTMEM_API CUresult CUDAAPI cuGraphAddExternalSemaphoresSignalNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                                                   const CUgraphNode *dependencies,
                                                                   size_t numDependencies,
                                                                   const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphExternalSemaphoresSignalNodeGetParams(CUgraphNode hNode,
                                                                         CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *params_out);
EXTMEM_API CUresult CUDAAPI cuGraphExternalSemaphoresSignalNodeSetParams(CUgraphNode hNode,
                                                                         const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphAddExternalSemaphoresWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                                                 const CUgraphNode *dependencies,
                                                                 size_t numDependencies,
                                                                 const CUDA_EXT_SEM_WAIT_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphExternalSemaphoresWaitNodeGetParams(CUgraphNode hNode,
                                                                       CUDA_EXT_SEM_WAIT_NODE_PARAMS *params_out);
EXTMEM_API CUresult CUDAAPI cuGraphExternalSemaphoresWaitNodeSetParams(CUgraphNode hNode,
                                                                       const CUDA_EXT_SEM_WAIT_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphAddMemAllocNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                                   const CUgraphNode *dependencies, size_t numDependencies,
                                                   CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphMemAllocNodeGetParams(CUgraphNode hNode, CUDA_MEM_ALLOC_NODE_PARAMS *params_out);
EXTMEM_API CUresult CUDAAPI cuGraphAddMemFreeNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                                  const CUgraphNode *dependencies, size_t numDependencies,
                                                  CUdeviceptr dptr);
EXTMEM_API CUresult CUDAAPI cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr *dptr_out);
EXTMEM_API CUresult CUDAAPI cuGraphAddBatchMemOpNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                                     const CUgraphNode *dependencies, size_t numDependencies,
                                                     const CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphBatchMemOpNodeGetParams(CUgraphNode hNode, CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams_out);
EXTMEM_API CUresult CUDAAPI cuGraphBatchMemOpNodeSetParams(CUgraphNode hNode, const CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphConditionalHandleCreate(CUgraphConditionalHandle *pHandle_out, CUgraph hGraph,
                                                           CUcontext ctx, unsigned int defaultLaunchValue,
                                                           unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuGraphDebugDotPrint(CUgraph hGraph, const char *path, unsigned int flags);

/* Graph-owned memory of a device. */
EXTMEM_API CUresult CUDAAPI cuDeviceGraphMemTrim(CUdevice device);
EXTMEM_API CUresult CUDAAPI cuDeviceGetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void *value);
EXTMEM_API CUresult CUDAAPI cuDeviceSetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void *value);

/* User objects: a destructor that runs once the last reference goes, graphs' included. */
EXTMEM_API CUresult CUDAAPI cuUserObjectCreate(CUuserObject *object_out, void *ptr, CUhostFn destroy,
                                               unsigned int initialRefcount, unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuUserObjectRetain(CUuserObject object, unsigned int count);
EXTMEM_API CUresult CUDAAPI cuUserObjectRelease(CUuserObject object, unsigned int count);
EXTMEM_API CUresult CUDAAPI cuGraphRetainUserObject(CUgraph graph, CUuserObject object, unsigned int count,
                                                    unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuGraphReleaseUserObject(CUgraph graph, CUuserObject object, unsigned int count);

/* Executable graphs. */
EXTMEM_API CUresult CUDAAPI cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags);
EXTMEM_API CUresult CUDAAPI cuGraphInstantiateWithParams(CUgraphExec *phGraphExec, CUgraph hGraph,
                                                         CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams);
EXTMEM_API CUresult CUDAAPI cuGraphExecGetFlags(CUgraphExec hGraphExec, cuuint64_t *flags);
EXTMEM_API CUresult CUDAAPI cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph,
                                              CUgraphExecUpdateResultInfo *resultInfo);
EXTMEM_API CUresult CUDAAPI cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                     CUgraphNodeParams *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                           const CUDA_KERNEL_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                           const CUDA_MEMCPY3D *copyParams, CUcontext ctx);
EXTMEM_API CUresult CUDAAPI cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                           const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx);
EXTMEM_API CUresult CUDAAPI cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                         const CUDA_HOST_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphExecChildGraphNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                               CUgraph childGraph);
EXTMEM_API CUresult CUDAAPI cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event);
EXTMEM_API CUresult CUDAAPI cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event);
EXTMEM_API CUresult CUDAAPI cuGraphExecExternalSemaphoresSignalNodeSetParams(
    CUgraphExec hGraphExec, CUgraphNode hNode, const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphExecExternalSemaphoresWaitNodeSetParams(
    CUgraphExec hGraphExec, CUgraphNode hNode, const CUDA_EXT_SEM_WAIT_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphExecBatchMemOpNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                               const CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphNodeSetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int isEnabled);
EXTMEM_API CUresult CUDAAPI cuGraphNodeGetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int *isEnabled);
EXTMEM_API CUresult CUDAAPI cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec hGraphExec);

/* ---- Texture and surface objects ----
 * Every bad argument or descriptor is CUDA_ERROR_INVALID_VALUE, as on the driver (docs/images.md
 * lists each check). */
/* A texture object over pResDesc (an array, a mipmapped array, linear or pitch-2D memory),
 * sampled as pTexDesc says, through the view pResViewDesc (NULL: none; arrays only reinterpret).
 * INVALID_VALUE: a NULL pointer; resType unknown or flags not 0; a NULL, destroyed or unknown
 * array; linear or pitch-2D memory not aligned to CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, a pitch
 * not a multiple of TEXTURE_PITCH_ALIGNMENT, a format other than 8/16/32-bit integers, half,
 * float and UNORM_INT_101010_2, channels other than 1, 2, 4, an extent past the
 * TEXTURE2D_LINEAR limits, a linear size over 4 GiB; an address mode of a dimension the resource
 * has, a filter mode or mipmap filter mode out of range, unknown flags, SEAMLESS_CUBEMAP on a
 * resource that is no cubemap, reserved words not 0; a view whose element size, extent, depth,
 * levels or layers are not the array's. INVALID_CONTEXT: no current context. */
EXTMEM_API CUresult CUDAAPI cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                                              const CUDA_TEXTURE_DESC *pTexDesc,
                                              const CUDA_RESOURCE_VIEW_DESC *pResViewDesc);
/* CUDA_SUCCESS, also for 0 and a handle that names no texture object (as the driver answers). */
EXTMEM_API CUresult CUDAAPI cuTexObjectDestroy(CUtexObject texObject);
/* The descriptors the object was made with. INVALID_VALUE: a NULL pointer, or texObject names no
 * live texture object of the current context. An array destroyed since reads as NULL;
 * cuTexObjectGetTextureDesc leaves borderColor and reserved as they were, and
 * cuTexObjectGetResourceViewDesc writes nothing for an object made without a view (both as the
 * driver does). */
EXTMEM_API CUresult CUDAAPI cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject);
EXTMEM_API CUresult CUDAAPI cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject);
EXTMEM_API CUresult CUDAAPI cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *pResViewDesc,
                                                           CUtexObject texObject);
/* A surface object over an array (made with CUDA_ARRAY3D_SURFACE_LDST, as the documentation
 * asks; driver 580 takes one without, and so does extmem). INVALID_VALUE: a NULL pointer, a
 * resource that is no array, a NULL, destroyed or unknown array. */
EXTMEM_API CUresult CUDAAPI cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc);
/* CUDA_SUCCESS, also for 0 and a handle that names no surface object (as the driver answers). */
EXTMEM_API CUresult CUDAAPI cuSurfObjectDestroy(CUsurfObject surfObject);
/* INVALID_VALUE: NULL, or surfObject names no live surface object of the current context. */
EXTMEM_API CUresult CUDAAPI cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject);

/* ---- Entry points by name ---- */
/* symbol is the base name ("cuMemAlloc"); the newest variant introduced at or before
 * cudaVersion is returned. CUDA_ERROR_NOT_FOUND with *symbolStatus SYMBOL_NOT_FOUND or
 * VERSION_NOT_SUFFICIENT otherwise. */
EXTMEM_API CUresult CUDAAPI cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                                             CUdriverProcAddressQueryResult *symbolStatus);

/* The driver's private tables, which NVIDIA's runtime asks for. extmem has none: *ppExportTable
 * is set to NULL (when not NULL) and the result is CUDA_ERROR_NOT_SUPPORTED, with a warning
 * (EXTMEM_LOG=warn) saying that NVIDIA's libcudart was loaded where extmem's libcudart.so.13
 * should be (docs/runtime.md). */
EXTMEM_API CUresult CUDAAPI cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId);

#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
/* As in NVIDIA's header: per-thread code asks for per-thread variants unless it says which. */
static inline CUresult cuGetProcAddress_v2_ptsz(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                                                CUdriverProcAddressQueryResult *symbolStatus)
{
    if ((flags & (CU_GET_PROC_ADDRESS_LEGACY_STREAM | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)) == 0)
        flags |= CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
    return cuGetProcAddress_v2(symbol, pfn, cudaVersion, flags, symbolStatus);
}
#define cuGetProcAddress_v2 cuGetProcAddress_v2_ptsz
#endif

#ifdef __cplusplus
}
#endif

#endif /* EXTMEM_CUDA_H */
