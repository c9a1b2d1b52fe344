/*
 * src/runtime/mempool.c: stream-ordered allocation and memory pools, over the driver's pools
 * (src/memory/pool.c; docs/memory-pools.md). The runtime's pool types are the driver's
 * (cudaMemPool_t is a CUmemoryPool; cudaMemPoolProps, cudaMemAccessDesc, cudaMemLocation and
 * cudaMemPoolPtrExportData have the driver structures' layouts), so each call checks what the
 * runtime alone decides and hands the rest to the driver.
 */
#include <stdbool.h>
#include <stdint.h>

#include "runtime/runtime.h"

_Static_assert(sizeof(struct cudaMemPoolProps) == sizeof(CUmemPoolProps), "pool properties share a layout");
_Static_assert(sizeof(struct cudaMemAccessDesc) == sizeof(CUmemAccessDesc), "access descriptors share a layout");
_Static_assert(sizeof(struct cudaMemLocation) == sizeof(CUmemLocation), "locations share a layout");
_Static_assert(sizeof(struct cudaMemPoolPtrExportData) == sizeof(CUmemPoolPtrExportData), "export data is 64 bytes");

static CUmemoryPool cu_pool(cudaMemPool_t p) { return (CUmemoryPool)p; }

/* A size of 0 gives NULL and success: the runtime's answer, where the driver refuses 0. */
static cudaError_t malloc_async(const char *fn, void **devPtr, size_t size, cudaMemPool_t memPool, bool named,
                                cudaStream_t stream)
{
    if (devPtr == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: devPtr is NULL", fn);
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    *devPtr = NULL;
    if (size == 0) {
        unsigned int flags;
        return rt_cu(cuStreamGetFlags(stream, &flags)); /* the stream is still checked */
    }
    CUdeviceptr dptr = 0;
    CUresult r = named ? cuMemAllocFromPoolAsync(&dptr, size, cu_pool(memPool), stream)
                       : cuMemAllocAsync(&dptr, size, stream);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    *devPtr = (void *)(uintptr_t)dptr;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream)
{
    return malloc_async("cudaMallocAsync", devPtr, size, NULL, false, stream);
}

cudaError_t CUDARTAPI cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t stream)
{
    return cudaMallocAsync(devPtr, size, rt_ptsz(stream));
}

cudaError_t CUDARTAPI cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    return malloc_async("cudaMallocFromPoolAsync", ptr, size, memPool, true, stream);
}

cudaError_t CUDARTAPI cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    return cudaMallocFromPoolAsync(ptr, size, memPool, rt_ptsz(stream));
}

cudaError_t CUDARTAPI cudaFreeAsync(void *devPtr, cudaStream_t stream)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuMemFreeAsync(rt_dptr(devPtr), stream));
}

cudaError_t CUDARTAPI cudaFreeAsync_ptsz(void *devPtr, cudaStream_t stream)
{
    return cudaFreeAsync(devPtr, rt_ptsz(stream));
}

cudaError_t CUDARTAPI cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
    CUdevice dev;
    cudaError_t err = rt_device("cudaDeviceGetDefaultMemPool", device, &dev);
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuDeviceGetDefaultMemPool((CUmemoryPool *)memPool, dev));
}

cudaError_t CUDARTAPI cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
    CUdevice dev;
    cudaError_t err = rt_device("cudaDeviceGetMemPool", device, &dev);
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuDeviceGetMemPool((CUmemoryPool *)memPool, dev));
}

cudaError_t CUDARTAPI cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
    CUdevice dev;
    cudaError_t err = rt_device("cudaDeviceSetMemPool", device, &dev);
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuDeviceSetMemPool(dev, cu_pool(memPool)));
}

cudaError_t CUDARTAPI cudaMemGetDefaultMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                               enum cudaMemAllocationType type)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    return rt_cu(cuMemGetDefaultMemPool((CUmemoryPool *)memPool, (CUmemLocation *)(void *)location,
                                        (CUmemAllocationType)type));
}

cudaError_t CUDARTAPI cudaMemGetMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                        enum cudaMemAllocationType type)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    return rt_cu(cuMemGetMemPool((CUmemoryPool *)memPool, (CUmemLocation *)(void *)location, (CUmemAllocationType)type));
}

cudaError_t CUDARTAPI cudaMemSetMemPool(struct cudaMemLocation *location, enum cudaMemAllocationType type,
                                        cudaMemPool_t memPool)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    return rt_cu(cuMemSetMemPool((CUmemLocation *)(void *)location, (CUmemAllocationType)type, cu_pool(memPool)));
}

cudaError_t CUDARTAPI cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    return rt_cu(cuMemPoolCreate((CUmemoryPool *)memPool, (const CUmemPoolProps *)(const void *)poolProps));
}

cudaError_t CUDARTAPI cudaMemPoolDestroy(cudaMemPool_t memPool)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    return rt_cu(cuMemPoolDestroy(cu_pool(memPool)));
}

cudaError_t CUDARTAPI cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    return rt_cu(cuMemPoolTrimTo(cu_pool(memPool), minBytesToKeep));
}

/* cudaMemPoolAttr has the driver's values (1..8). */
cudaError_t CUDARTAPI cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    return rt_cu(cuMemPoolSetAttribute(cu_pool(memPool), (CUmemPool_attribute)attr, value));
}

cudaError_t CUDARTAPI cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    return rt_cu(cuMemPoolGetAttribute(cu_pool(memPool), (CUmemPool_attribute)attr, value));
}

cudaError_t CUDARTAPI cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList, size_t count)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    return rt_cu(cuMemPoolSetAccess(cu_pool(memPool), (const CUmemAccessDesc *)(const void *)descList, count));
}

cudaError_t CUDARTAPI cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                           struct cudaMemLocation *location)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    if (!flags)
        return rt_fail(cudaErrorInvalidValue, "cudaMemPoolGetAccess: flags is NULL");
    CUmemAccess_flags f = CU_MEM_ACCESS_FLAGS_PROT_NONE;
    r = cuMemPoolGetAccess(&f, cu_pool(memPool), (CUmemLocation *)(void *)location);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    *flags = (enum cudaMemAccessFlags)f;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPoolExportToShareableHandle(void *shareableHandle, cudaMemPool_t memPool,
                                                         enum cudaMemAllocationHandleType handleType,
                                                         unsigned int flags)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    return rt_cu(cuMemPoolExportToShareableHandle(shareableHandle, cu_pool(memPool),
                                                  (CUmemAllocationHandleType)handleType, flags));
}

cudaError_t CUDARTAPI cudaMemPoolImportFromShareableHandle(cudaMemPool_t *memPool, void *shareableHandle,
                                                           enum cudaMemAllocationHandleType handleType,
                                                           unsigned int flags)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    return rt_cu(cuMemPoolImportFromShareableHandle((CUmemoryPool *)memPool, shareableHandle,
                                                    (CUmemAllocationHandleType)handleType, flags));
}

cudaError_t CUDARTAPI cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *exportData, void *ptr)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuMemPoolExportPointer((CUmemPoolPtrExportData *)(void *)exportData, rt_dptr(ptr)));
}

cudaError_t CUDARTAPI cudaMemPoolImportPointer(void **ptr, cudaMemPool_t memPool,
                                               struct cudaMemPoolPtrExportData *exportData)
{
    if (!ptr)
        return rt_fail(cudaErrorInvalidValue, "cudaMemPoolImportPointer: ptr is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUdeviceptr dptr = 0;
    CUresult r = cuMemPoolImportPointer(&dptr, cu_pool(memPool), (CUmemPoolPtrExportData *)(void *)exportData);
    *ptr = (void *)(uintptr_t)dptr;
    return rt_cu(r);
}
