/* Library state: cuInit and the driver version. */
#include "internal.h"

static atomic_bool initialized;

bool lib_initialized(void) { return atomic_load_explicit(&initialized, memory_order_acquire); }

CUresult CUDAAPI cuInit(unsigned int Flags)
{
    if (Flags != 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuInit: Flags is %u: it must be 0", Flags);
    if (!lib_initialized()) {
        os_raise_handle_limit();
        atomic_store_explicit(&initialized, true, memory_order_release);
        log_info("cuInit: software device ready: %u worker threads, granularity %zu",
                 pool_worker_count(), device_granularity());
    }
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDriverGetVersion: driverVersion is NULL");
    *driverVersion = EXTMEM_DRIVER_VERSION;
    return CUDA_SUCCESS;
}
