/*
 * src/runtime/context.c: the thread's device and context, set up lazily as NVIDIA's runtime
 * does.
 *
 * The process retains the primary context of a device once, on the first call of any
 * thread that needs it, and never releases it (the runtime's contexts live until the
 * process ends, or cudaDeviceReset). Each thread makes it current on its first such call. A
 * context the thread already has current, made by the driver API, is used as it is: NVIDIA's
 * runtime allocates in it too. cudaDeviceReset destroys the primary context's state and
 * gives back the reference; a generation count then tells every thread to retain and make
 * current afresh.
 */
#include <stdatomic.h>
#include <stddef.h>

#include "runtime/runtime.h"

/* The primary context the runtime holds a reference on, and the generation it was retained
 * in. A spin lock guards them: it is taken once per thread and generation, and around a
 * reset, never on the fast path. */
static atomic_flag rt_lock = ATOMIC_FLAG_INIT;
static atomic_uint rt_generation = 1;
static CUcontext rt_primary = NULL;
static unsigned int rt_primary_generation = 0;

/* What this thread knows: its device (cudaSetDevice), the primary context it made current
 * and the generation it did so in. */
static RT_THREAD_LOCAL int rt_tls_device = 0;
static RT_THREAD_LOCAL CUcontext rt_tls_context = NULL;
static RT_THREAD_LOCAL unsigned int rt_tls_generation = 0;

static void rt_lock_take(void)
{
    while (atomic_flag_test_and_set_explicit(&rt_lock, memory_order_acquire))
        ;
}

static void rt_lock_give(void)
{
    atomic_flag_clear_explicit(&rt_lock, memory_order_release);
}

CUresult rt_driver_init(void)
{
    /* cuInit is cheap once done, and the driver keeps no count of calls. */
    return cuInit(0);
}

cudaError_t rt_device(const char *fn, int ordinal, CUdevice *dev)
{
    int count = 0;
    CUresult r = rt_driver_init();
    if (r == CUDA_SUCCESS)
        r = cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    if (ordinal < 0 || ordinal >= count)
        return rt_fail(cudaErrorInvalidDevice, "%s: device %d does not exist: the ordinals are 0..%d", fn, ordinal,
                       count - 1);
    return rt_cu(cuDeviceGet(dev, ordinal));
}

unsigned int rt_context_generation(void)
{
    return atomic_load(&rt_generation);
}

int rt_thread_device(void)
{
    return rt_tls_device;
}

/* Retains the primary context of the thread's device if this generation has not, and makes
 * it current in the thread. */
static cudaError_t rt_activate(void)
{
    CUdevice dev;
    CUresult r = cuDeviceGet(&dev, rt_tls_device);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);

    rt_lock_take();
    unsigned int generation = atomic_load(&rt_generation);
    if (rt_primary == NULL || rt_primary_generation != generation) {
        CUcontext ctx = NULL;
        r = cuDevicePrimaryCtxRetain(&ctx, dev);
        if (r != CUDA_SUCCESS) {
            rt_lock_give();
            return rt_cu(r);
        }
        rt_primary = ctx;
        rt_primary_generation = generation;
    }
    CUcontext ctx = rt_primary;
    rt_lock_give();

    r = cuCtxSetCurrent(ctx);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    rt_tls_context = ctx;
    rt_tls_generation = generation;
    return cudaSuccess;
}

cudaError_t rt_context(void)
{
    CUcontext current = NULL;
    CUresult r = cuCtxGetCurrent(&current);
    if (r == CUDA_ERROR_NOT_INITIALIZED) {
        r = rt_driver_init();
        if (r == CUDA_SUCCESS)
            r = cuCtxGetCurrent(&current);
    }
    if (r != CUDA_SUCCESS)
        return rt_cu(r);

    if (current != NULL) {
        /* A context the application made current itself: use it. */
        if (current != rt_tls_context)
            return cudaSuccess;
        /* Ours, and no reset since this thread made it current. */
        if (rt_tls_generation == atomic_load(&rt_generation))
            return cudaSuccess;
    }
    return rt_activate();
}

cudaError_t rt_set_device(int ordinal)
{
    rt_tls_device = ordinal;
    /* cudaSetDevice replaces whatever context is current, the application's too; a thread
     * that already has the primary context of this generation current keeps it. */
    CUcontext current = NULL;
    if (cuCtxGetCurrent(&current) == CUDA_SUCCESS && current != NULL && current == rt_tls_context &&
        rt_tls_generation == atomic_load(&rt_generation))
        return cudaSuccess;
    return rt_activate();
}

cudaError_t rt_reset_device(void)
{
    CUdevice dev;
    CUresult r = cuDeviceGet(&dev, rt_tls_device);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);

    rt_lock_take();
    r = cuDevicePrimaryCtxReset(dev);
    if (r == CUDA_SUCCESS) {
        /* A reset does not release: give back the runtime's reference (the driver allows a
         * release after a reset), so that the retain on next use keeps the count even. */
        if (rt_primary != NULL)
            (void)cuDevicePrimaryCtxRelease(dev);
        rt_primary = NULL;
        atomic_fetch_add(&rt_generation, 1);
    }
    rt_lock_give();
    return rt_cu(r);
}
