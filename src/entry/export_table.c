/*
 * src/entry/export_table.c: cuGetExportTable, the driver's door to private interfaces.
 *
 * NVIDIA's runtime (libcudart, shared or static) reaches the driver through tables of private
 * functions it asks for by UUID. Their contents are undocumented, so extmem offers none: a
 * program that loaded NVIDIA's libcudart on top of extmem's libcuda.so.1 gets an answer that
 * says what to do, instead of the runtime's bare error 36 (cudaErrorIncompatibleDriverContext
 * or cudaErrorInsufficientDriver, depending on the release).
 */
#include "device/error.h"

#include <stdatomic.h>
#include <stdio.h>

CUresult CUDAAPI cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
    if (ppExportTable != NULL)
        *ppExportTable = NULL;
    /* Said once at the warning level, so that a user sees it with EXTMEM_LOG=warn or above
     * even if the runtime asks for several tables. */
    static atomic_flag said = ATOMIC_FLAG_INIT;
    if (!atomic_flag_test_and_set(&said))
        log_warn("a library asked for NVIDIA's private driver interfaces, which extmem does not have: NVRTC "
                 "and nvJitLink do without them, NVIDIA's libcudart cannot. If a program stops with a runtime "
                 "error now, put extmem's libcudart.so.13 first on LD_LIBRARY_PATH (its folder holds libcuda.so.1 too), "
                 "and build the program with nvcc -cudart shared (the static runtime, nvcc's default, cannot "
                 "be replaced)");
    unsigned int first = 0;
    if (pExportTableId != NULL)
        first = (unsigned char)pExportTableId->bytes[0];
    /* NVIDIA's NVRTC and nvJitLink ask once and do without: not an error to log unless asked. */
    return fail_quietly(CUDA_ERROR_NOT_SUPPORTED,
                        "cuGetExportTable: table %02x...: extmem has no private driver tables; NVIDIA's libcudart cannot run "
                "on it (use extmem's libcudart.so.13, see docs/runtime.md)",
                first);
}
