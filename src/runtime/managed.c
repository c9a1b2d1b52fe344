/*
 * src/runtime/managed.c: managed memory, prefetches and advice.
 *
 * On the software device all device memory is host memory at one address for both sides:
 * memory from cuMemAlloc is already what cudaMallocManaged promises (reachable from host and
 * device, freed by cudaFree). Prefetches move nothing and advice changes nothing; both are
 * checked as NVIDIA's runtime checks them, so that a program's mistakes show here too.
 *
 * CUDA 13 changed cudaMemPrefetchAsync and cudaMemAdvise to take a cudaMemLocation where CUDA
 * 12 took a device ordinal (cudaCpuDeviceId for the host). libcudart.so.12 is built with
 * EXTMEM_CUDART_ABI=12 and exports the CUDA 12 forms under the same names.
 */
#include <stdint.h>

#if defined(EXTMEM_CUDART_ABI) && EXTMEM_CUDART_ABI == 12
/* The header declares CUDA 13's forms: keep them out of the way of CUDA 12's below. */
#define cudaMemPrefetchAsync      rt_unused_prefetch_13
#define cudaMemPrefetchAsync_ptsz rt_unused_prefetch_13_ptsz
#define cudaMemAdvise             rt_unused_advise_13
#endif
#include "runtime/runtime.h"
#undef cudaMemPrefetchAsync
#undef cudaMemPrefetchAsync_ptsz
#undef cudaMemAdvise

cudaError_t CUDARTAPI cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    const char *fn = "cudaMallocManaged";
    if (devPtr == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: devPtr is NULL", fn);
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
        return rt_fail(cudaErrorInvalidValue, "%s: flags 0x%x is not cudaMemAttachGlobal or cudaMemAttachHost", fn,
                       flags);
    *devPtr = NULL;
    /* NVIDIA's runtime answers a size of 0 with success and NULL, as cudaMalloc does (H100,
     * CUDA 13.0), though the driver's cuMemAllocManaged refuses it. */
    if (size == 0)
        return cudaSuccess;
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUdeviceptr dptr = 0;
    CUresult r = cuMemAlloc(&dptr, size);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    *devPtr = (void *)(uintptr_t)dptr;
    return cudaSuccess;
}

/* The range must lie in one allocation the driver knows. */
static cudaError_t check_range(const char *fn, const void *devPtr, size_t count)
{
    if (devPtr == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: devPtr is NULL", fn);
    if (count == 0)
        return rt_fail(cudaErrorInvalidValue, "%s: count is 0", fn);
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUdeviceptr base = 0;
    size_t size = 0;
    CUdeviceptr p = rt_dptr(devPtr);
    if (cuMemGetAddressRange(&base, &size, p) != CUDA_SUCCESS)
        return rt_fail(cudaErrorInvalidValue, "%s: %p is not in memory the device knows (cudaMallocManaged, cudaMalloc)",
                       fn, devPtr);
    if (count > size - (size_t)(p - base))
        return rt_fail(cudaErrorInvalidValue, "%s: %zu bytes from %p run past the end of its allocation", fn, count,
                       devPtr);
    return cudaSuccess;
}

/* A device location must be device 0; the host is always valid. A missing device is
 * cudaErrorInvalidDevice for a prefetch and cudaErrorInvalidValue for advice, as NVIDIA's
 * runtime answers (H100, CUDA 13.0). */
static cudaError_t check_location(const char *fn, enum cudaMemLocationType type, int id, cudaError_t no_device)
{
    switch (type) {
    case cudaMemLocationTypeDevice:
        if (id != 0)
            return rt_fail(no_device, "%s: device %d does not exist: the software device is 0", fn, id);
        return cudaSuccess;
    case cudaMemLocationTypeHost:
    case cudaMemLocationTypeHostNuma:
    case cudaMemLocationTypeHostNumaCurrent:
        return cudaSuccess;
    default:
        return rt_fail(cudaErrorInvalidValue, "%s: location type %d is not a device or the host", fn, (int)type);
    }
}

static cudaError_t check_stream(cudaStream_t stream)
{
    unsigned int flags;
    return rt_cu(cuStreamGetFlags(stream, &flags));
}

static cudaError_t prefetch(const void *devPtr, size_t count, enum cudaMemLocationType type, int id,
                            unsigned int flags, cudaStream_t stream)
{
    const char *fn = "cudaMemPrefetchAsync";
    cudaError_t err = check_range(fn, devPtr, count);
    if (err != cudaSuccess)
        return err;
    if (flags != 0)
        return rt_fail(cudaErrorInvalidValue, "%s: flags 0x%x is not 0", fn, flags);
    err = check_location(fn, type, id, cudaErrorInvalidDevice);
    if (err != cudaSuccess)
        return err;
    /* Nothing moves: the memory is where both sides read it. */
    return check_stream(stream);
}

static cudaError_t advise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          enum cudaMemLocationType type, int id)
{
    const char *fn = "cudaMemAdvise";
    cudaError_t err = check_range(fn, devPtr, count);
    if (err != cudaSuccess)
        return err;
    if ((int)advice < (int)cudaMemAdviseSetReadMostly || (int)advice > (int)cudaMemAdviseUnsetAccessedBy)
        return rt_fail(cudaErrorInvalidValue, "%s: advice %d is not a cudaMemoryAdvise (1..6)", fn, (int)advice);
    /* Read-mostly takes no location (CUDA ignores it); the others name one. */
    if (advice == cudaMemAdviseSetReadMostly || advice == cudaMemAdviseUnsetReadMostly)
        return cudaSuccess;
    return check_location(fn, type, id, cudaErrorInvalidValue);
}

#if defined(EXTMEM_CUDART_ABI) && EXTMEM_CUDART_ABI == 12
/* CUDA 12: a device ordinal, cudaCpuDeviceId for the host. Declared here (the header has CUDA 13's
 * forms), exported as the header's declarations are. */
static enum cudaMemLocationType ordinal_type(int device)
{
    return device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
}

EXTMEM_API cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream)
{
    return prefetch(devPtr, count, ordinal_type(dstDevice), dstDevice, 0, stream);
}

EXTMEM_API cudaError_t CUDARTAPI cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream)
{
    return prefetch(devPtr, count, ordinal_type(dstDevice), dstDevice, 0, rt_ptsz(stream));
}

EXTMEM_API cudaError_t CUDARTAPI cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, int device);
cudaError_t CUDARTAPI cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, int device)
{
    return advise(devPtr, count, advice, ordinal_type(device), device);
}
#else
cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                           unsigned int flags, cudaStream_t stream)
{
    return prefetch(devPtr, count, location.type, location.id, flags, stream);
}

cudaError_t CUDARTAPI cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, struct cudaMemLocation location,
                                                unsigned int flags, cudaStream_t stream)
{
    return prefetch(devPtr, count, location.type, location.id, flags, rt_ptsz(stream));
}

cudaError_t CUDARTAPI cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                    struct cudaMemLocation location)
{
    return advise(devPtr, count, advice, location.type, location.id);
}
#endif
