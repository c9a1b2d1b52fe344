/*
 * src/runtime/entry.c: the driver's entry points through the runtime (cudaGetDriverEntryPoint,
 * over cuGetProcAddress), the driver's private tables, and channel descriptors.
 */
#include "runtime/runtime.h"

#include <stdbool.h>
#include <stdint.h>

#undef cudaGetDriverEntryPoint
#undef cudaGetDriverEntryPointByVersion

static cudaError_t entry_point(const char *fn, const char *symbol, void **funcPtr, unsigned int cudaVersion,
                               unsigned long long flags, enum cudaDriverEntryPointQueryResult *driverStatus,
                               bool per_thread_build)
{
    if (symbol == NULL || funcPtr == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: %s is NULL", fn, symbol == NULL ? "symbol" : "funcPtr");
    if (flags & ~(unsigned long long)(cudaEnableLegacyStream | cudaEnablePerThreadDefaultStream))
        return rt_fail(cudaErrorInvalidValue, "%s: flags 0x%llx has bits other than cudaEnable*", fn, flags);
    /* cudaEnableDefault is the program's own default stream semantics (the _ptsz form is what
     * a program compiled for the per-thread default stream calls). */
    cuuint64_t cu_flags = CU_GET_PROC_ADDRESS_DEFAULT;
    if ((flags & cudaEnablePerThreadDefaultStream) || (flags == cudaEnableDefault && per_thread_build))
        cu_flags = CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
    else if (flags & cudaEnableLegacyStream)
        cu_flags = CU_GET_PROC_ADDRESS_LEGACY_STREAM;
    if (cudaVersion > (unsigned int)INT32_MAX)
        return rt_fail(cudaErrorInvalidValue, "%s: cudaVersion %u is newer than the driver", fn, cudaVersion);
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult r = cuGetProcAddress_v2(symbol, funcPtr, (int)cudaVersion, cu_flags, &status);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    if (driverStatus != NULL)
        *driverStatus = status == CU_GET_PROC_ADDRESS_SUCCESS ? cudaDriverEntryPointSuccess
                        : status == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT ? cudaDriverEntryPointVersionNotSufficent
                                                                             : cudaDriverEntryPointSymbolNotFound;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                                       unsigned long long flags,
                                                       enum cudaDriverEntryPointQueryResult *driverStatus)
{
    return entry_point("cudaGetDriverEntryPointByVersion", symbol, funcPtr, cudaVersion, flags, driverStatus, false);
}

cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr,
                                                            unsigned int cudaVersion, unsigned long long flags,
                                                            enum cudaDriverEntryPointQueryResult *driverStatus)
{
    return entry_point("cudaGetDriverEntryPointByVersion", symbol, funcPtr, cudaVersion, flags, driverStatus, true);
}

/* The deprecated form asks for the runtime's own version. */
cudaError_t CUDARTAPI cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                              enum cudaDriverEntryPointQueryResult *driverStatus)
{
    return entry_point("cudaGetDriverEntryPoint", symbol, funcPtr, CUDART_VERSION, flags, driverStatus, false);
}

cudaError_t CUDARTAPI cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr, unsigned long long flags,
                                                   enum cudaDriverEntryPointQueryResult *driverStatus)
{
    return entry_point("cudaGetDriverEntryPoint", symbol, funcPtr, CUDART_VERSION, flags, driverStatus, true);
}

cudaError_t CUDARTAPI cudaGetExportTable(const void **ppExportTable, const cudaUUID_t *pExportTableId)
{
    return rt_cu(cuGetExportTable(ppExportTable, pExportTableId));
}

struct cudaChannelFormatDesc CUDARTAPI cudaCreateChannelDesc(int x, int y, int z, int w,
                                                             enum cudaChannelFormatKind f)
{
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}
