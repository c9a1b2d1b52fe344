/* Library state: cuInit, the driver version, and what a fork() child of an initialised
 * process may do (nothing: docs/fork.md). */
#include "device/device.h"

static atomic_bool initialized;
/* This process is a fork() child (or grandchild...) of a process that had called cuInit: set
 * in the child by the fork handler cuInit registers. */
static atomic_bool forked;
static os_mutex init_lock = OS_MUTEX_INITIALIZER;

static void in_fork_child(void) { atomic_store_explicit(&forked, true, memory_order_relaxed); }

bool lib_initialized(void)
{
    return atomic_load_explicit(&initialized, memory_order_acquire) &&
           !atomic_load_explicit(&forked, memory_order_relaxed);
}

uint64_t lib_start_time(void)
{
    static _Atomic uint64_t t;
    uint64_t v = atomic_load(&t);
    if (!v)
        atomic_store(&t, v = os_process_start_time(os_process_id()));
    return v;
}

CUresult lib_not_ready(const char *fn)
{
    /* The driver, probed in docs/probes/fork: in the fork child of an initialised process,
     * cuInit and every call answer NOT_INITIALIZED (calls with the parent's streams and events
     * give stale answers or crash there; extmem answers them as the rest). The parent's
     * contexts, streams and memory are the parent's: the child has no worker threads to run
     * its streams, and device memory is not mapped in it. */
    if (atomic_load_explicit(&forked, memory_order_relaxed))
        return fail(CUDA_ERROR_NOT_INITIALIZED, "%s: this process is a fork() child of a process that had initialised "
                    "extmem (cuInit): CUDA cannot be used in it, as on NVIDIA's driver; the parent's contexts, "
                    "streams and memory are not this process's. exec() a new program, or fork before cuInit", fn);
    return fail(CUDA_ERROR_NOT_INITIALIZED, "%s: cuInit has not been called", fn);
}

CUresult CUDAAPI cuInit(unsigned int Flags)
{
    if (Flags != 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuInit: Flags is %u: it must be 0", Flags);
    if (atomic_load_explicit(&forked, memory_order_relaxed))
        return lib_not_ready("cuInit");
    if (lib_initialized())
        return CUDA_SUCCESS;
    os_mutex_lock(&init_lock);
    if (!lib_initialized()) {
        /* Watching forks before anything is initialised: no fork after this call may escape. */
        os_watch_fork(in_fork_child);
        os_raise_handle_limit();
        atomic_store_explicit(&initialized, true, memory_order_release);
        log_info("cuInit: software device ready: %u worker threads, granularity %zu",
                 pool_worker_count(), device_granularity());
    }
    os_mutex_unlock(&init_lock);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDriverGetVersion: driverVersion is NULL");
    *driverVersion = EXTMEM_DRIVER_VERSION;
    return CUDA_SUCCESS;
}

/* ---- Profiler ----
 * No profiler (Nsight, nvprof) can attach to the software device, so there is nothing to start
 * or stop; the calls succeed as the driver's do without a profiler, and say so at
 * EXTMEM_LOG=info. A current context is needed, as on the driver. */
static CUresult profiler(const char *fn, const char *verb)
{
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    log_info("%s: no profiler is attached to the software device: nothing to %s", fn, verb);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuProfilerStart(void) { return profiler("cuProfilerStart", "start"); }
CUresult CUDAAPI cuProfilerStop(void) { return profiler("cuProfilerStop", "stop"); }

