/*
 * cuGetProcAddress: entry points by name, so loaders that resolve the driver's functions at
 * run time (the CUDA runtime, language bindings) find extmem's. Each name maps to the
 * variants extmem exports, with the CUDA version that introduced each; a request gets the
 * newest variant introduced at or before its cudaVersion.
 */
#include "device/device.h"
#include "exec/per_thread.h"

#include <string.h>

/* The unsuffixed variants, declared here because the public header renames them. */
#undef cuCtxDestroy
#undef cuStreamDestroy
#undef cuEventDestroy
#undef cuEventElapsedTime
#undef cuDeviceGetUuid
#undef cuDevicePrimaryCtxRelease
#undef cuDevicePrimaryCtxReset
#undef cuDevicePrimaryCtxSetFlags
#undef cuGetProcAddress
#undef cuIpcOpenMemHandle
EXTMEM_API CUresult CUDAAPI cuIpcOpenMemHandle(CUdeviceptr *pdptr, CUipcMemHandle handle, unsigned int Flags);
CUresult CUDAAPI cuStreamDestroy(CUstream hStream);
CUresult CUDAAPI cuEventDestroy(CUevent hEvent);
CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);
CUresult CUDAAPI cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev);
CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev);
CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags);

struct entry {
    const char *name;
    int version; /* the CUDA version that introduced this variant */
    void (*fn)(void);
};

#define E(name, version, fn) {name, version, (void (*)(void))fn}

static const struct entry entries[] = {
    E("cuGetErrorName", 6000, cuGetErrorName),
    E("cuGetErrorString", 6000, cuGetErrorString),
    E("cuInit", 2000, cuInit),
    E("cuDriverGetVersion", 2020, cuDriverGetVersion),
    E("cuDeviceGet", 2000, cuDeviceGet),
    E("cuDeviceGetCount", 2000, cuDeviceGetCount),
    E("cuDeviceGetName", 2000, cuDeviceGetName),
    E("cuDeviceGetUuid", 9020, cuDeviceGetUuid),
    E("cuDeviceGetUuid", 11040, cuDeviceGetUuid_v2),
    E("cuDeviceGetLuid", 10000, cuDeviceGetLuid),
    E("cuDeviceTotalMem", 3020, cuDeviceTotalMem_v2),
    E("cuDeviceGetAttribute", 2000, cuDeviceGetAttribute),
    E("cuDevicePrimaryCtxRetain", 7000, cuDevicePrimaryCtxRetain),
    E("cuDevicePrimaryCtxRelease", 7000, cuDevicePrimaryCtxRelease),
    E("cuDevicePrimaryCtxRelease", 11000, cuDevicePrimaryCtxRelease_v2),
    E("cuDevicePrimaryCtxReset", 7000, cuDevicePrimaryCtxReset),
    E("cuDevicePrimaryCtxReset", 11000, cuDevicePrimaryCtxReset_v2),
    E("cuDevicePrimaryCtxSetFlags", 7000, cuDevicePrimaryCtxSetFlags),
    E("cuDevicePrimaryCtxSetFlags", 11000, cuDevicePrimaryCtxSetFlags_v2),
    E("cuDevicePrimaryCtxGetState", 7000, cuDevicePrimaryCtxGetState),
    E("cuCtxCreate", 3020, cuCtxCreate_v2),
    E("cuCtxCreate", 11040, cuCtxCreate_v3),
    E("cuCtxCreate", 12050, cuCtxCreate_v4),
    E("cuCtxDestroy", 4000, cuCtxDestroy_v2),
    E("cuCtxSetCurrent", 4000, cuCtxSetCurrent),
    E("cuCtxGetCurrent", 4000, cuCtxGetCurrent),
    E("cuCtxPushCurrent", 4000, cuCtxPushCurrent_v2),
    E("cuCtxPopCurrent", 4000, cuCtxPopCurrent_v2),
    E("cuCtxGetDevice", 2000, cuCtxGetDevice),
    E("cuCtxGetFlags", 7000, cuCtxGetFlags),
    E("cuCtxGetApiVersion", 3020, cuCtxGetApiVersion),
    E("cuCtxSynchronize", 2000, cuCtxSynchronize),
    E("cuCtxSetLimit", 3010, cuCtxSetLimit),
    E("cuCtxGetLimit", 3010, cuCtxGetLimit),
    E("cuMemAlloc", 3020, cuMemAlloc_v2),
    E("cuMemAllocPitch", 3020, cuMemAllocPitch_v2),
    E("cuMemFree", 3020, cuMemFree_v2),
    E("cuMemGetInfo", 3020, cuMemGetInfo_v2),
    E("cuMemGetAddressRange", 3020, cuMemGetAddressRange_v2),
    E("cuMemAllocHost", 3020, cuMemAllocHost_v2),
    E("cuMemHostAlloc", 2020, cuMemHostAlloc),
    E("cuMemFreeHost", 2000, cuMemFreeHost),
    E("cuMemHostGetDevicePointer", 3020, cuMemHostGetDevicePointer_v2),
    E("cuMemHostGetFlags", 2030, cuMemHostGetFlags),
    E("cuPointerGetAttribute", 4000, cuPointerGetAttribute),
    E("cuPointerGetAttributes", 7000, cuPointerGetAttributes),
    E("cuMemcpy", 4000, cuMemcpy),
    E("cuMemcpyAsync", 4000, cuMemcpyAsync),
    E("cuMemcpyHtoD", 3020, cuMemcpyHtoD_v2),
    E("cuMemcpyDtoH", 3020, cuMemcpyDtoH_v2),
    E("cuMemcpyDtoD", 3020, cuMemcpyDtoD_v2),
    E("cuMemcpyHtoDAsync", 3020, cuMemcpyHtoDAsync_v2),
    E("cuMemcpyDtoHAsync", 3020, cuMemcpyDtoHAsync_v2),
    E("cuMemcpyDtoDAsync", 3020, cuMemcpyDtoDAsync_v2),
    E("cuMemcpy2D", 3020, cuMemcpy2D_v2),
    E("cuMemcpy2DUnaligned", 3020, cuMemcpy2DUnaligned_v2),
    E("cuMemcpy2DAsync", 3020, cuMemcpy2DAsync_v2),
    E("cuMemsetD8", 3020, cuMemsetD8_v2),
    E("cuMemsetD16", 3020, cuMemsetD16_v2),
    E("cuMemsetD32", 3020, cuMemsetD32_v2),
    E("cuMemsetD8Async", 3020, cuMemsetD8Async),
    E("cuMemsetD16Async", 3020, cuMemsetD16Async),
    E("cuMemsetD32Async", 3020, cuMemsetD32Async),
    E("cuMemsetD2D8", 3020, cuMemsetD2D8_v2),
    E("cuMemsetD2D16", 3020, cuMemsetD2D16_v2),
    E("cuMemsetD2D32", 3020, cuMemsetD2D32_v2),
    E("cuMemsetD2D8Async", 3020, cuMemsetD2D8Async),
    E("cuMemsetD2D16Async", 3020, cuMemsetD2D16Async),
    E("cuMemsetD2D32Async", 3020, cuMemsetD2D32Async),
    E("cuStreamCreate", 2000, cuStreamCreate),
    E("cuStreamCreateWithPriority", 5050, cuStreamCreateWithPriority),
    E("cuStreamGetFlags", 5050, cuStreamGetFlags),
    E("cuStreamGetPriority", 5050, cuStreamGetPriority),
    E("cuStreamGetCtx", 9020, cuStreamGetCtx),
    E("cuStreamDestroy", 2000, cuStreamDestroy),
    E("cuStreamDestroy", 4000, cuStreamDestroy_v2),
    E("cuStreamSynchronize", 2000, cuStreamSynchronize),
    E("cuStreamQuery", 2000, cuStreamQuery),
    E("cuStreamWaitEvent", 3020, cuStreamWaitEvent),
    E("cuLaunchHostFunc", 10000, cuLaunchHostFunc),
    E("cuEventCreate", 2000, cuEventCreate),
    E("cuEventRecord", 2000, cuEventRecord),
    E("cuEventRecordWithFlags", 11010, cuEventRecordWithFlags),
    E("cuEventQuery", 2000, cuEventQuery),
    E("cuEventSynchronize", 2000, cuEventSynchronize),
    E("cuEventElapsedTime", 2000, cuEventElapsedTime),
    E("cuEventElapsedTime", 12080, cuEventElapsedTime_v2),
    E("cuEventDestroy", 2000, cuEventDestroy),
    E("cuEventDestroy", 4000, cuEventDestroy_v2),
    E("cuMemGetAllocationGranularity", 10020, cuMemGetAllocationGranularity),
    E("cuMemCreate", 10020, cuMemCreate),
    E("cuMemRelease", 10020, cuMemRelease),
    E("cuMemAddressReserve", 10020, cuMemAddressReserve),
    E("cuMemAddressFree", 10020, cuMemAddressFree),
    E("cuMemMap", 10020, cuMemMap),
    E("cuMemUnmap", 10020, cuMemUnmap),
    E("cuMemSetAccess", 10020, cuMemSetAccess),
    E("cuMemGetAccess", 10020, cuMemGetAccess),
    E("cuMemExportToShareableHandle", 10020, cuMemExportToShareableHandle),
    E("cuMemImportFromShareableHandle", 10020, cuMemImportFromShareableHandle),
    E("cuMemRetainAllocationHandle", 11000, cuMemRetainAllocationHandle),
    E("cuMemGetAllocationPropertiesFromHandle", 10020, cuMemGetAllocationPropertiesFromHandle),
    E("cuImportExternalMemory", 10000, cuImportExternalMemory),
    E("cuExternalMemoryGetMappedBuffer", 10000, cuExternalMemoryGetMappedBuffer),
    E("cuDestroyExternalMemory", 10000, cuDestroyExternalMemory),
    E("cuImportExternalSemaphore", 10000, cuImportExternalSemaphore),
    E("cuSignalExternalSemaphoresAsync", 10000, cuSignalExternalSemaphoresAsync),
    E("cuWaitExternalSemaphoresAsync", 10000, cuWaitExternalSemaphoresAsync),
    E("cuDestroyExternalSemaphore", 10000, cuDestroyExternalSemaphore),
    E("cuMemGetHandleForAddressRange", 11070, cuMemGetHandleForAddressRange),
    E("cuIpcGetMemHandle", 4010, cuIpcGetMemHandle),
    E("cuIpcOpenMemHandle", 4010, cuIpcOpenMemHandle),
    E("cuIpcOpenMemHandle", 11000, cuIpcOpenMemHandle_v2),
    E("cuIpcCloseMemHandle", 4010, cuIpcCloseMemHandle),
    E("cuIpcGetEventHandle", 4010, cuIpcGetEventHandle),
    E("cuIpcOpenEventHandle", 4010, cuIpcOpenEventHandle),
    E("cuModuleLoad", 2000, cuModuleLoad),
    E("cuModuleLoadData", 2000, cuModuleLoadData),
    E("cuModuleLoadDataEx", 2010, cuModuleLoadDataEx),
    E("cuModuleLoadFatBinary", 2000, cuModuleLoadFatBinary),
    E("cuModuleUnload", 2000, cuModuleUnload),
    E("cuModuleGetLoadingMode", 11070, cuModuleGetLoadingMode),
    E("cuModuleGetFunction", 2000, cuModuleGetFunction),
    E("cuModuleGetFunctionCount", 12040, cuModuleGetFunctionCount),
    E("cuModuleEnumerateFunctions", 12040, cuModuleEnumerateFunctions),
    E("cuModuleGetGlobal", 3020, cuModuleGetGlobal_v2),
    E("cuLibraryLoadData", 12000, cuLibraryLoadData),
    E("cuLibraryLoadFromFile", 12000, cuLibraryLoadFromFile),
    E("cuLibraryUnload", 12000, cuLibraryUnload),
    E("cuLibraryGetKernel", 12000, cuLibraryGetKernel),
    E("cuLibraryGetKernelCount", 12040, cuLibraryGetKernelCount),
    E("cuLibraryEnumerateKernels", 12040, cuLibraryEnumerateKernels),
    E("cuLibraryGetModule", 12000, cuLibraryGetModule),
    E("cuLibraryGetGlobal", 12000, cuLibraryGetGlobal),
    E("cuKernelGetFunction", 12000, cuKernelGetFunction),
    E("cuKernelGetLibrary", 12050, cuKernelGetLibrary),
    E("cuKernelGetName", 12030, cuKernelGetName),
    E("cuKernelGetAttribute", 12000, cuKernelGetAttribute),
    E("cuKernelSetAttribute", 12000, cuKernelSetAttribute),
    E("cuFuncGetAttribute", 2020, cuFuncGetAttribute),
    E("cuFuncSetAttribute", 9000, cuFuncSetAttribute),
    E("cuFuncSetCacheConfig", 3000, cuFuncSetCacheConfig),
    E("cuFuncGetModule", 11000, cuFuncGetModule),
    E("cuFuncGetName", 12030, cuFuncGetName),
    E("cuFuncGetParamInfo", 12040, cuFuncGetParamInfo),
    E("cuFuncIsLoaded", 12040, cuFuncIsLoaded),
    E("cuFuncLoad", 12040, cuFuncLoad),
    E("cuOccupancyMaxActiveBlocksPerMultiprocessor", 6050, cuOccupancyMaxActiveBlocksPerMultiprocessor),
    E("cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", 7000, cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags),
    E("cuOccupancyMaxPotentialBlockSize", 6050, cuOccupancyMaxPotentialBlockSize),
    E("cuOccupancyMaxPotentialBlockSizeWithFlags", 7000, cuOccupancyMaxPotentialBlockSizeWithFlags),
    E("cuOccupancyAvailableDynamicSMemPerBlock", 10020, cuOccupancyAvailableDynamicSMemPerBlock),
    E("cuLaunchKernel", 4000, cuLaunchKernel),
    E("cuLaunchKernelEx", 11060, cuLaunchKernelEx),
    E("cuGetProcAddress", 11030, cuGetProcAddress),
    E("cuGetProcAddress", 12000, cuGetProcAddress_v2),
    /* NVIDIA's libcudart asks for it first: the answer explains itself
     * (src/entry/export_table.c). */
    E("cuGetExportTable", 3000, cuGetExportTable),
};

/* Works before cuInit, as the driver's does. A name or version that is not found is not an
 * error for cuGetProcAddress_v2 (the status says which), as the driver answers; the CUDA 11.3
 * form has no status and returns CUDA_ERROR_NOT_FOUND. */
/* The per-thread default stream variants, returned for CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM. */
static const struct entry per_thread_entries[] = {
    E("cuMemcpy", 7000, cuMemcpy_ptds),
    E("cuMemcpyAsync", 7000, cuMemcpyAsync_ptsz),
    E("cuMemcpyHtoD", 7000, cuMemcpyHtoD_v2_ptds),
    E("cuMemcpyDtoH", 7000, cuMemcpyDtoH_v2_ptds),
    E("cuMemcpyDtoD", 7000, cuMemcpyDtoD_v2_ptds),
    E("cuMemcpyHtoDAsync", 7000, cuMemcpyHtoDAsync_v2_ptsz),
    E("cuMemcpyDtoHAsync", 7000, cuMemcpyDtoHAsync_v2_ptsz),
    E("cuMemcpyDtoDAsync", 7000, cuMemcpyDtoDAsync_v2_ptsz),
    E("cuMemcpy2D", 7000, cuMemcpy2D_v2_ptds),
    E("cuMemcpy2DUnaligned", 7000, cuMemcpy2DUnaligned_v2_ptds),
    E("cuMemcpy2DAsync", 7000, cuMemcpy2DAsync_v2_ptsz),
    E("cuMemsetD8", 7000, cuMemsetD8_v2_ptds),
    E("cuMemsetD16", 7000, cuMemsetD16_v2_ptds),
    E("cuMemsetD32", 7000, cuMemsetD32_v2_ptds),
    E("cuMemsetD2D8", 7000, cuMemsetD2D8_v2_ptds),
    E("cuMemsetD2D16", 7000, cuMemsetD2D16_v2_ptds),
    E("cuMemsetD2D32", 7000, cuMemsetD2D32_v2_ptds),
    E("cuMemsetD8Async", 7000, cuMemsetD8Async_ptsz),
    E("cuMemsetD16Async", 7000, cuMemsetD16Async_ptsz),
    E("cuMemsetD32Async", 7000, cuMemsetD32Async_ptsz),
    E("cuMemsetD2D8Async", 7000, cuMemsetD2D8Async_ptsz),
    E("cuMemsetD2D16Async", 7000, cuMemsetD2D16Async_ptsz),
    E("cuMemsetD2D32Async", 7000, cuMemsetD2D32Async_ptsz),
    E("cuStreamGetPriority", 7000, cuStreamGetPriority_ptsz),
    E("cuStreamGetFlags", 7000, cuStreamGetFlags_ptsz),
    E("cuStreamGetCtx", 9020, cuStreamGetCtx_ptsz),
    E("cuStreamWaitEvent", 7000, cuStreamWaitEvent_ptsz),
    E("cuStreamQuery", 7000, cuStreamQuery_ptsz),
    E("cuStreamSynchronize", 7000, cuStreamSynchronize_ptsz),
    E("cuEventRecord", 7000, cuEventRecord_ptsz),
    E("cuEventRecordWithFlags", 11010, cuEventRecordWithFlags_ptsz),
    E("cuLaunchHostFunc", 10000, cuLaunchHostFunc_ptsz),
    E("cuLaunchKernel", 7000, cuLaunchKernel_ptsz),
    E("cuLaunchKernelEx", 11060, cuLaunchKernelEx_ptsz),
    E("cuSignalExternalSemaphoresAsync", 10000, cuSignalExternalSemaphoresAsync_ptsz),
    E("cuWaitExternalSemaphoresAsync", 10000, cuWaitExternalSemaphoresAsync_ptsz),
};

static const struct entry *per_thread_variant(const char *name)
{
    for (size_t i = 0; i < sizeof(per_thread_entries) / sizeof(per_thread_entries[0]); ++i)
        if (strcmp(per_thread_entries[i].name, name) == 0)
            return &per_thread_entries[i];
    return NULL;
}

static CUresult lookup(const char *fn, const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                       CUdriverProcAddressQueryResult *status, bool not_found_is_error)
{
    if (!symbol || !pfn)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !symbol ? "symbol" : "pfn");
    if (flags & ~(cuuint64_t)(CU_GET_PROC_ADDRESS_LEGACY_STREAM | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%llx has bits other than CU_GET_PROC_ADDRESS_*", fn,
                    (unsigned long long)flags);
    if (cudaVersion > EXTMEM_DRIVER_VERSION)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: cudaVersion %d is newer than this driver (%d)", fn, cudaVersion,
                    EXTMEM_DRIVER_VERSION);
    if (cudaVersion < 0) /* the driver reads a negative version as "the newest" */
        cudaVersion = EXTMEM_DRIVER_VERSION;
    const struct entry *best = NULL;
    bool named = false;
    for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); ++i) {
        if (strcmp(entries[i].name, symbol) != 0)
            continue;
        named = true;
        if (entries[i].version <= cudaVersion && (!best || entries[i].version > best->version))
            best = &entries[i];
    }
    if (best && (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) && per_thread_variant(symbol))
        best = per_thread_variant(symbol);
    *pfn = best ? (void *)best->fn : NULL;
    if (status)
        *status = best ? CU_GET_PROC_ADDRESS_SUCCESS
                       : named ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    if (!best && !not_found_is_error) {
        if (named)
            log_info("%s: %s has no variant as old as CUDA version %d", fn, symbol, cudaVersion);
        else
            log_info("%s: %s is not an entry point extmem provides", fn, symbol);
        return CUDA_SUCCESS;
    }
    if (!best && named)
        return fail(CUDA_ERROR_NOT_FOUND, "%s: %s has no variant as old as CUDA version %d", fn, symbol, cudaVersion);
    if (!best)
        return fail(CUDA_ERROR_NOT_FOUND,
                    "%s: %s is not an entry point extmem provides (symbols are base names such as \"cuMemAlloc\")", fn,
                    symbol);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                                     CUdriverProcAddressQueryResult *symbolStatus)
{
    return lookup("cuGetProcAddress", symbol, pfn, cudaVersion, flags, symbolStatus, false);
}

CUresult CUDAAPI cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags)
{
    return lookup("cuGetProcAddress", symbol, pfn, cudaVersion, flags, NULL, true);
}
