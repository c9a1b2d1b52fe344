/*
 * src/runtime/memory.c: allocation, copies and fills.
 *
 * Device pointers are host addresses on the software device, so the runtime's void * and the
 * driver's CUdeviceptr convert both ways without a lookup. What the real runtime checks on
 * top of the driver is the copy direction: an explicit cudaMemcpyKind must agree with where
 * the addresses live, and a fill must land in memory the device can address. Both are
 * judged by asking the driver what it knows of an address.
 */
#include <stdbool.h>
#include <stdint.h>

#include "runtime/runtime.h"

/* True when the driver knows p: device memory, page-locked host memory, or other memory
 * mapped for the device. cuPointerGetAttributes answers zeros for an unknown address
 * instead of failing, so the question records no error. */
bool rt_is_device_memory(const void *p)
{
    CUpointer_attribute attr = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
    CUmemorytype type = (CUmemorytype)0;
    void *data = &type;
    if (cuPointerGetAttributes(1, &attr, &data, rt_dptr(p)) != CUDA_SUCCESS)
        return false;
    return type != (CUmemorytype)0;
}

static const char *rt_kind_name(enum cudaMemcpyKind kind)
{
    switch (kind) {
    case cudaMemcpyHostToHost: return "cudaMemcpyHostToHost";
    case cudaMemcpyHostToDevice: return "cudaMemcpyHostToDevice";
    case cudaMemcpyDeviceToHost: return "cudaMemcpyDeviceToHost";
    case cudaMemcpyDeviceToDevice: return "cudaMemcpyDeviceToDevice";
    case cudaMemcpyDefault: return "cudaMemcpyDefault";
    }
    return "?";
}

/* ---- Allocation ---- */

cudaError_t CUDARTAPI cudaMalloc(void **devPtr, size_t size)
{
    if (devPtr == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaMalloc: devPtr is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    *devPtr = NULL;
    /* The driver refuses 0 bytes; the runtime answers NULL, as NVIDIA's does. */
    if (size == 0)
        return cudaSuccess;
    CUdeviceptr dptr = 0;
    CUresult r = cuMemAlloc(&dptr, size);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    *devPtr = (void *)(uintptr_t)dptr;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFree(void *devPtr)
{
    /* Even cudaFree(NULL) sets the context up: programs call it for that reason. */
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    if (devPtr == NULL)
        return cudaSuccess;
    return rt_cu(cuMemFree(rt_dptr(devPtr)));
}

cudaError_t CUDARTAPI cudaMallocHost(void **ptr, size_t size)
{
    if (ptr == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaMallocHost: ptr is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    *ptr = NULL;
    if (size == 0)
        return cudaSuccess;
    return rt_cu(cuMemAllocHost(ptr, size));
}

#define RT_HOST_ALLOC_FLAGS (cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined)

cudaError_t CUDARTAPI cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    if (pHost == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaHostAlloc: pHost is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    *pHost = NULL;
    /* NVIDIA's runtime answers a size of 0 before it looks at the flags. */
    if (size == 0)
        return cudaSuccess;
    if (flags & ~(unsigned int)RT_HOST_ALLOC_FLAGS)
        return rt_fail(cudaErrorInvalidValue,
                       "cudaHostAlloc: flags 0x%x has unknown bits 0x%x: use cudaHostAllocPortable, "
                       "cudaHostAllocMapped and cudaHostAllocWriteCombined",
                       flags, flags & ~(unsigned int)RT_HOST_ALLOC_FLAGS);
    /* The cudaHostAlloc* flags have the values of CU_MEMHOSTALLOC_*. */
    return rt_cu(cuMemHostAlloc(pHost, size, flags));
}

cudaError_t CUDARTAPI cudaFreeHost(void *ptr)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    if (ptr == NULL)
        return cudaSuccess;
    return rt_cu(cuMemFreeHost(ptr));
}

cudaError_t CUDARTAPI cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    if (pDevice == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaHostGetDevicePointer: pDevice is NULL");
    if (pHost == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaHostGetDevicePointer: pHost is NULL");
    if (flags != 0)
        return rt_fail(cudaErrorInvalidValue, "cudaHostGetDevicePointer: flags is 0x%x: it must be 0", flags);
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUdeviceptr dptr = 0;
    CUresult r = cuMemHostGetDevicePointer(&dptr, pHost, 0);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    *pDevice = (void *)(uintptr_t)dptr;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemGetInfo(size_t *free, size_t *total)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    /* NVIDIA's runtime lets either pointer be NULL. */
    size_t f = 0, t = 0;
    CUresult r = cuMemGetInfo(&f, &t);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    if (free)
        *free = f;
    if (total)
        *total = t;
    return cudaSuccess;
}

/* ---- Copies ---- */

/* How a copy or fill is ordered: in the legacy stream and waited for (the plain forms), in
 * the per-thread stream and waited for (_ptds), or queued in a stream (the Async forms). */
typedef enum rt_order { RT_SYNC_LEGACY, RT_SYNC_PER_THREAD, RT_ASYNC } rt_order;

/* The checks NVIDIA's runtime makes, in its order: nothing to copy succeeds at once; then
 * the kind; then the addresses against the kind. */
cudaError_t rt_memcpy_check(const char *fn, void *dst, const void *src, enum cudaMemcpyKind kind)
{
    if ((unsigned int)kind > (unsigned int)cudaMemcpyDefault)
        return rt_fail(cudaErrorInvalidMemcpyDirection,
                       "%s: kind %d is not a cudaMemcpyKind: use cudaMemcpyHostToHost..cudaMemcpyDefault", fn,
                       (int)kind);
    if (dst == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: dst is NULL", fn);
    if (src == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: src is NULL", fn);
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    bool dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (dst_device && !rt_is_device_memory(dst))
        return rt_fail(cudaErrorInvalidValue,
                       "%s: dst %p is not device memory: %s needs a destination from cudaMalloc or "
                       "page-locked host memory (cudaMemcpyDefault takes any address)",
                       fn, dst, rt_kind_name(kind));
    if (src_device && !rt_is_device_memory(src))
        return rt_fail(cudaErrorInvalidValue,
                       "%s: src %p is not device memory: %s needs a source from cudaMalloc or "
                       "page-locked host memory (cudaMemcpyDefault takes any address)",
                       fn, src, rt_kind_name(kind));
    return cudaSuccess;
}

static cudaError_t rt_memcpy(const char *fn, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                             rt_order order, CUstream stream)
{
    if (count == 0)
        return cudaSuccess;
    cudaError_t err = rt_memcpy_check(fn, dst, src, kind);
    if (err != cudaSuccess)
        return err;
    /* With unified addressing one driver copy serves every kind. */
    CUresult r;
    switch (order) {
    case RT_SYNC_LEGACY:
        r = cuMemcpy(rt_dptr(dst), rt_dptr(src), count);
        break;
    case RT_SYNC_PER_THREAD:
        r = cuMemcpyAsync(rt_dptr(dst), rt_dptr(src), count, CU_STREAM_PER_THREAD);
        if (r == CUDA_SUCCESS)
            r = cuStreamSynchronize(CU_STREAM_PER_THREAD);
        break;
    default:
        r = cuMemcpyAsync(rt_dptr(dst), rt_dptr(src), count, stream);
        break;
    }
    return rt_cu(r);
}

cudaError_t CUDARTAPI cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    return rt_memcpy("cudaMemcpy", dst, src, count, kind, RT_SYNC_LEGACY, NULL);
}

cudaError_t CUDARTAPI cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    return rt_memcpy("cudaMemcpy", dst, src, count, kind, RT_SYNC_PER_THREAD, NULL);
}

cudaError_t CUDARTAPI cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                      cudaStream_t stream)
{
    return rt_memcpy("cudaMemcpyAsync", dst, src, count, kind, RT_ASYNC, stream);
}

cudaError_t CUDARTAPI cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                           cudaStream_t stream)
{
    return rt_memcpy("cudaMemcpyAsync", dst, src, count, kind, RT_ASYNC, rt_ptsz(stream));
}

/* ---- Fills ---- */

static cudaError_t rt_memset(const char *fn, void *devPtr, int value, size_t count, rt_order order,
                             CUstream stream)
{
    if (count == 0)
        return cudaSuccess;
    if (devPtr == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: devPtr is NULL", fn);
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    if (!rt_is_device_memory(devPtr))
        return rt_fail(cudaErrorInvalidValue,
                       "%s: devPtr %p is not device memory: fills need memory from cudaMalloc or "
                       "page-locked host memory",
                       fn, devPtr);
    unsigned char byte = (unsigned char)value;
    CUresult r;
    switch (order) {
    case RT_SYNC_LEGACY:
        r = cuMemsetD8(rt_dptr(devPtr), byte, count);
        break;
    case RT_SYNC_PER_THREAD:
        r = cuMemsetD8Async(rt_dptr(devPtr), byte, count, CU_STREAM_PER_THREAD);
        if (r == CUDA_SUCCESS)
            r = cuStreamSynchronize(CU_STREAM_PER_THREAD);
        break;
    default:
        r = cuMemsetD8Async(rt_dptr(devPtr), byte, count, stream);
        break;
    }
    return rt_cu(r);
}

cudaError_t CUDARTAPI cudaMemset(void *devPtr, int value, size_t count)
{
    return rt_memset("cudaMemset", devPtr, value, count, RT_SYNC_LEGACY, NULL);
}

cudaError_t CUDARTAPI cudaMemset_ptds(void *devPtr, int value, size_t count)
{
    return rt_memset("cudaMemset", devPtr, value, count, RT_SYNC_PER_THREAD, NULL);
}

cudaError_t CUDARTAPI cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    return rt_memset("cudaMemsetAsync", devPtr, value, count, RT_ASYNC, stream);
}

cudaError_t CUDARTAPI cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    return rt_memset("cudaMemsetAsync", devPtr, value, count, RT_ASYNC, rt_ptsz(stream));
}
