/*
 * cuGetProcAddress: entry points by name, so loaders that resolve the driver's functions at
 * run time (the CUDA runtime, language bindings) find extmem's. The table (table.c) comes from
 * the entry-point list, which holds NVIDIA's driver's own answers: for each name, the variant
 * handed out from each CUDA version on, with and without the per-thread default stream flag.
 * A request gets the newest variant introduced at or before its cudaVersion. Refused functions
 * are handed out too, as NVIDIA's driver hands out every function it has: calling one returns
 * its code and reason.
 */
#include "device/device.h"
#include "entry/table.h"

#include <string.h>

#undef cuGetProcAddress
EXTMEM_API CUresult CUDAAPI cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags);

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
    /* With the per-thread flag the driver answers from a table of its own: a name whose
     * per-thread variant came later than the name has no answer before it (cuMemcpyHtoD asked
     * for CUDA 6.0 per-thread is "version not sufficient", entry.out). */
    bool per_thread = flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
    const struct entry *best = NULL;
    int best_version = 0;
    bool named = false;
    for (unsigned i = 0; i < entry_count; ++i) {
        const struct entry *e = &entry_table[i];
        int v = per_thread ? e->ptds_version : e->version;
        if (v == 0 || strcmp(e->base, symbol) != 0)
            continue;
        named = true;
        if (v <= cudaVersion && v > best_version) {
            best = e;
            best_version = v;
        }
    }
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
