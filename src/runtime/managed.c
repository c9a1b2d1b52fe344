/*
 * src/runtime/managed.c: managed memory, prefetches and advice.
 *
 * On the software device all device memory is host memory at one address for both sides, so
 * cudaMallocManaged is cuMemAllocManaged: device memory that remembers what it was advised and
 * where it was prefetched (src/memory/managed.c), which cudaMemRangeGetAttribute(s) read back.
 * Nothing moves. Every call here is the driver's, its codes turned into the runtime's.
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
    CUresult r = cuMemAllocManaged(&dptr, size, flags);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    *devPtr = (void *)(uintptr_t)dptr;
    return cudaSuccess;
}

/* The runtime's locations are the driver's, member for member. */
_Static_assert(sizeof(struct cudaMemLocation) == sizeof(CUmemLocation), "cudaMemLocation is CUmemLocation");
_Static_assert(sizeof(void *) == sizeof(CUdeviceptr), "a device pointer array is a CUdeviceptr array");

static CUmemLocation cu_location(enum cudaMemLocationType type, int id)
{
    CUmemLocation loc = {(CUmemLocationType)type, id};
    return loc;
}

static cudaError_t prefetch(const void *devPtr, size_t count, enum cudaMemLocationType type, int id,
                            unsigned int flags, cudaStream_t stream)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuMemPrefetchAsync_v2(rt_dptr(devPtr), count, cu_location(type, id), flags, (CUstream)stream));
}

static cudaError_t advise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          enum cudaMemLocationType type, int id)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuMemAdvise_v2(rt_dptr(devPtr), count, (CUmem_advise)advice, cu_location(type, id)));
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

cudaError_t CUDARTAPI cudaMemRangeGetAttribute(void *data, size_t dataSize, enum cudaMemRangeAttribute attribute,
                                               const void *devPtr, size_t count)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuMemRangeGetAttribute(data, dataSize, (CUmem_range_attribute)attribute, rt_dptr(devPtr), count));
}

cudaError_t CUDARTAPI cudaMemRangeGetAttributes(void **data, size_t *dataSizes, enum cudaMemRangeAttribute *attributes,
                                                size_t numAttributes, const void *devPtr, size_t count)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuMemRangeGetAttributes(data, dataSizes, (CUmem_range_attribute *)attributes, numAttributes,
                                         rt_dptr(devPtr), count));
}

static cudaError_t attach(cudaStream_t stream, void *devPtr, size_t length, unsigned int flags)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuStreamAttachMemAsync((CUstream)stream, rt_dptr(devPtr), length, flags));
}

cudaError_t CUDARTAPI cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length, unsigned int flags)
{
    return attach(stream, devPtr, length, flags);
}

cudaError_t CUDARTAPI cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr, size_t length,
                                                    unsigned int flags)
{
    return attach(rt_ptsz(stream), devPtr, length, flags);
}

/* The batch calls (CUDA 12.8). */
enum batch_kind { BATCH_PREFETCH, BATCH_DISCARD, BATCH_DISCARD_PREFETCH };

static cudaError_t batch(enum batch_kind kind, void **dptrs, size_t *sizes, size_t count,
                         struct cudaMemLocation *locs, size_t *idxs, size_t nlocs, unsigned long long flags,
                         cudaStream_t stream)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUdeviceptr *p = (CUdeviceptr *)(void *)dptrs;
    CUmemLocation *l = (CUmemLocation *)(void *)locs;
    CUstream s = (CUstream)stream;
    switch (kind) {
    case BATCH_PREFETCH: return rt_cu(cuMemPrefetchBatchAsync(p, sizes, count, l, idxs, nlocs, flags, s));
    case BATCH_DISCARD: return rt_cu(cuMemDiscardBatchAsync(p, sizes, count, flags, s));
    default: return rt_cu(cuMemDiscardAndPrefetchBatchAsync(p, sizes, count, l, idxs, nlocs, flags, s));
    }
}

cudaError_t CUDARTAPI cudaMemPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                                struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                                size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream)
{
    return batch(BATCH_PREFETCH, dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, stream);
}

cudaError_t CUDARTAPI cudaMemPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                     struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                                     size_t numPrefetchLocs, unsigned long long flags,
                                                     cudaStream_t stream)
{
    return batch(BATCH_PREFETCH, dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags,
                 rt_ptsz(stream));
}

cudaError_t CUDARTAPI cudaMemDiscardBatchAsync(void **dptrs, size_t *sizes, size_t count, unsigned long long flags,
                                               cudaStream_t stream)
{
    return batch(BATCH_DISCARD, dptrs, sizes, count, NULL, NULL, 0, flags, stream);
}

cudaError_t CUDARTAPI cudaMemDiscardBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                    unsigned long long flags, cudaStream_t stream)
{
    return batch(BATCH_DISCARD, dptrs, sizes, count, NULL, NULL, 0, flags, rt_ptsz(stream));
}

cudaError_t CUDARTAPI cudaMemDiscardAndPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                                          struct cudaMemLocation *prefetchLocs,
                                                          size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                          unsigned long long flags, cudaStream_t stream)
{
    return batch(BATCH_DISCARD_PREFETCH, dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags,
                 stream);
}

cudaError_t CUDARTAPI cudaMemDiscardAndPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                               struct cudaMemLocation *prefetchLocs,
                                                               size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                               unsigned long long flags, cudaStream_t stream)
{
    return batch(BATCH_DISCARD_PREFETCH, dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags,
                 rt_ptsz(stream));
}

/* ---- The driver's log (CUDA 12.9): the runtime's calls are the driver's ---- */

cudaError_t CUDARTAPI cudaLogsRegisterCallback(cudaLogsCallback_t callbackFunc, void *userData,
                                               cudaLogsCallbackHandle *callback_out)
{
    /* The same function type: (data, level, message, length), with the same level values. */
    return rt_cu(cuLogsRegisterCallback((CUlogsCallback)callbackFunc, userData, callback_out));
}

cudaError_t CUDARTAPI cudaLogsUnregisterCallback(cudaLogsCallbackHandle callback)
{
    return rt_cu(cuLogsUnregisterCallback(callback));
}

cudaError_t CUDARTAPI cudaLogsCurrent(cudaLogIterator *iterator_out, unsigned int flags)
{
    return rt_cu(cuLogsCurrent(iterator_out, flags));
}

cudaError_t CUDARTAPI cudaLogsDumpToFile(cudaLogIterator *iterator, const char *pathToFile, unsigned int flags)
{
    return rt_cu(cuLogsDumpToFile(iterator, pathToFile, flags));
}

cudaError_t CUDARTAPI cudaLogsDumpToMemory(cudaLogIterator *iterator, char *buffer, size_t *size, unsigned int flags)
{
    return rt_cu(cuLogsDumpToMemory(iterator, buffer, size, flags));
}
