/*
 * src/runtime/mempool.c: stream-ordered allocation and the default memory pool.
 *
 * CUDA asks that memory from cudaMallocAsync be used only by work ordered after the
 * allocation in its stream, and that cudaFreeAsync's memory be released only once the work
 * before it in the stream is done. extmem gives more than that: the allocation is usable at
 * once (cuMemAlloc, host memory), and the free is cuMemFree, which waits for all queued work
 * of the device (src/device/drain.c), before the call returns. So a free never outruns a kernel
 * still using the memory; what a program loses is only the overlap of the free with the work.
 *
 * The default pool is one process-wide handle: its attributes are kept so that a program
 * setting a release threshold reads it back; the memory counters are 0, since nothing is
 * cached.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "runtime/runtime.h"

/* The default pool's handle: an address of this file, never dereferenced by callers. */
static struct {
    char tag;
} rt_default_pool;

static _Atomic unsigned long long rt_release_threshold;
static atomic_int rt_reuse[3] = {1, 1, 1}; /* FollowEventDependencies .. AllowInternalDependencies */

#define RT_POOL ((cudaMemPool_t)(void *)&rt_default_pool)

static cudaError_t check_stream(cudaStream_t stream)
{
    unsigned int flags;
    return rt_cu(cuStreamGetFlags(stream, &flags));
}

cudaError_t CUDARTAPI cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream)
{
    if (devPtr == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaMallocAsync: devPtr is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    err = check_stream(stream);
    if (err != cudaSuccess)
        return err;
    *devPtr = NULL;
    if (size == 0)
        return cudaSuccess;
    CUdeviceptr dptr = 0;
    CUresult r = cuMemAlloc(&dptr, size);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    *devPtr = (void *)(uintptr_t)dptr;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t stream)
{
    return cudaMallocAsync(devPtr, size, rt_ptsz(stream));
}

cudaError_t CUDARTAPI cudaFreeAsync(void *devPtr, cudaStream_t stream)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    err = check_stream(stream);
    if (err != cudaSuccess)
        return err;
    if (devPtr == NULL)
        return cudaSuccess;
    /* cuMemFree waits for the device's queued work (this stream's included). */
    return rt_cu(cuMemFree(rt_dptr(devPtr)));
}

cudaError_t CUDARTAPI cudaFreeAsync_ptsz(void *devPtr, cudaStream_t stream)
{
    return cudaFreeAsync(devPtr, rt_ptsz(stream));
}

static cudaError_t pool_of(const char *fn, cudaMemPool_t *memPool, int device)
{
    if (memPool == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: memPool is NULL", fn);
    CUdevice dev;
    cudaError_t err = rt_device(fn, device, &dev);
    if (err != cudaSuccess)
        return err;
    *memPool = RT_POOL;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
    return pool_of("cudaDeviceGetDefaultMemPool", memPool, device);
}

cudaError_t CUDARTAPI cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
    /* cudaDeviceSetMemPool is not offered: the current pool is the default one. */
    return pool_of("cudaDeviceGetMemPool", memPool, device);
}

static cudaError_t check_pool(const char *fn, cudaMemPool_t memPool)
{
    if (memPool != RT_POOL)
        return rt_fail(cudaErrorInvalidValue, "%s: memPool %p is not the default pool (cudaDeviceGetDefaultMemPool)",
                       fn, (void *)memPool);
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    const char *fn = "cudaMemPoolSetAttribute";
    cudaError_t err = check_pool(fn, memPool);
    if (err != cudaSuccess)
        return err;
    if (value == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: value is NULL", fn);
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
        atomic_store(&rt_reuse[attr - cudaMemPoolReuseFollowEventDependencies], *(const int *)value != 0);
        return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold: {
        unsigned long long v;
        memcpy(&v, value, sizeof v);
        atomic_store(&rt_release_threshold, v);
        return cudaSuccess;
    }
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh: {
        /* CUDA resets a high mark with 0 only. */
        unsigned long long v;
        memcpy(&v, value, sizeof v);
        if (v != 0)
            return rt_fail(cudaErrorInvalidValue, "%s: a high-water mark can only be reset to 0, not %llu", fn, v);
        return cudaSuccess;
    }
    default:
        return rt_fail(cudaErrorInvalidValue, "%s: attr %d is not a cudaMemPoolAttr that can be set", fn, (int)attr);
    }
}

cudaError_t CUDARTAPI cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    const char *fn = "cudaMemPoolGetAttribute";
    cudaError_t err = check_pool(fn, memPool);
    if (err != cudaSuccess)
        return err;
    if (value == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: value is NULL", fn);
    unsigned long long v = 0;
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies: {
        int flag = atomic_load(&rt_reuse[attr - cudaMemPoolReuseFollowEventDependencies]);
        memcpy(value, &flag, sizeof flag);
        return cudaSuccess;
    }
    case cudaMemPoolAttrReleaseThreshold:
        v = atomic_load(&rt_release_threshold);
        break;
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemCurrent:
    case cudaMemPoolAttrUsedMemHigh:
        break; /* nothing is cached by the pool */
    default:
        return rt_fail(cudaErrorInvalidValue, "%s: attr %d is not a cudaMemPoolAttr", fn, (int)attr);
    }
    memcpy(value, &v, sizeof v);
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
    (void)minBytesToKeep;
    return check_pool("cudaMemPoolTrimTo", memPool);
}
