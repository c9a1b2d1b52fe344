/*
 * src/runtime/pitched.c: registered host memory, pitched and 3D allocations, and the 2D, 3D
 * and peer copies and fills over them, on the driver's cuMemHostRegister, cuMemAllocPitch,
 * cuMemcpy2D/3D(Peer) and cuMemsetD2D8.
 *
 * A cudaMemcpyKind becomes the driver's memory types: HOST for a host side, DEVICE for a
 * device side (which the driver then holds to memory CUDA gave out or registered), UNIFIED for
 * both sides of cudaMemcpyDefault; the runtime checks the addresses against the kind first,
 * as cudaMemcpy does (rt_memcpy_check).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "runtime/runtime.h"

/* How a call is ordered: the legacy stream and waited for, the per-thread stream and waited
 * for (_ptds), or queued in a stream (the Async forms; _ptsz with NULL the per-thread one). */
typedef enum rt_order { RT_SYNC_LEGACY, RT_SYNC_PER_THREAD, RT_ASYNC } rt_order;

/* CU_DEVICE_ATTRIBUTE_MAX_PITCH, which the runtime checks a 2D copy's pitches against. */
#define RT_MAX_PITCH ((size_t)2147483647)

/* ---- Registered host memory ---- */

cudaError_t CUDARTAPI cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    /* The cudaHostRegister* flags have the values of CU_MEMHOSTREGISTER_*: the driver judges them. */
    return rt_cu(cuMemHostRegister(ptr, size, flags));
}

cudaError_t CUDARTAPI cudaHostUnregister(void *ptr)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuMemHostUnregister(ptr));
}

cudaError_t CUDARTAPI cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
    if (pFlags == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaHostGetFlags: pFlags is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuMemHostGetFlags(pFlags, pHost));
}

/* ---- Allocation ---- */

/* rows rows of width bytes with padded rows; nothing for a 0 width or row count. */
static cudaError_t rt_alloc_pitch(void **ptr, size_t *pitch, size_t width, size_t rows)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    *ptr = NULL;
    *pitch = 0;
    if (width == 0 || rows == 0) {
        /* NVIDIA's runtime answers success with a pitch of 0 for a width of 0; a row count of
         * 0 is answered the same way, with the pitch the width would have. */
        if (width && width <= SIZE_MAX - 511)
            *pitch = (width + 511) / 512 * 512;
        return cudaSuccess;
    }
    CUdeviceptr dptr = 0;
    size_t p = 0;
    CUresult r = cuMemAllocPitch(&dptr, &p, width, rows, 4); /* the pitch does not depend on the element size */
    if (r != CUDA_SUCCESS) /* rows of padded width that overflow are out of memory there */
        return rt_cu(r);
    *ptr = (void *)(uintptr_t)dptr;
    *pitch = p;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    if (devPtr == NULL || pitch == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaMallocPitch: %s is NULL", devPtr == NULL ? "devPtr" : "pitch");
    return rt_alloc_pitch(devPtr, pitch, width, height);
}

cudaError_t CUDARTAPI cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    if (pitchedDevPtr == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaMalloc3D: pitchedDevPtr is NULL");
    if (extent.depth && extent.height > SIZE_MAX / extent.depth)
        return rt_fail(cudaErrorMemoryAllocation, "cudaMalloc3D: %zu layers of %zu rows overflow", extent.depth,
                       extent.height);
    void *ptr = NULL;
    size_t pitch = 0;
    cudaError_t err = rt_alloc_pitch(&ptr, &pitch, extent.width, extent.height * extent.depth);
    if (err != cudaSuccess)
        return err;
    pitchedDevPtr->ptr = ptr;
    pitchedDevPtr->pitch = pitch;
    pitchedDevPtr->xsize = extent.width;
    pitchedDevPtr->ysize = extent.height;
    return cudaSuccess;
}

/* ---- Copies ---- */

/* The driver's memory types for a kind (already checked to be one). */
static void rt_kind_types(enum cudaMemcpyKind kind, CUmemorytype *src, CUmemorytype *dst)
{
    switch (kind) {
    case cudaMemcpyHostToHost: *src = *dst = CU_MEMORYTYPE_HOST; break;
    case cudaMemcpyHostToDevice: *src = CU_MEMORYTYPE_HOST, *dst = CU_MEMORYTYPE_DEVICE; break;
    case cudaMemcpyDeviceToHost: *src = CU_MEMORYTYPE_DEVICE, *dst = CU_MEMORYTYPE_HOST; break;
    case cudaMemcpyDeviceToDevice: *src = *dst = CU_MEMORYTYPE_DEVICE; break;
    default: *src = *dst = CU_MEMORYTYPE_UNIFIED; break;
    }
}

/* Runs an ordered driver call's result to completion for the synchronous per-thread forms. */
static CUresult rt_finish(rt_order order, CUresult r)
{
    if (r == CUDA_SUCCESS && order == RT_SYNC_PER_THREAD)
        r = cuStreamSynchronize(CU_STREAM_PER_THREAD);
    return r;
}

/* The stream a driver call is given for order (the legacy forms' NULL is the legacy stream). */
static CUstream rt_stream(rt_order order, cudaStream_t stream)
{
    return order == RT_SYNC_PER_THREAD ? CU_STREAM_PER_THREAD : order == RT_SYNC_LEGACY ? NULL : stream;
}

static cudaError_t rt_memcpy2d(const char *fn, void *dst, size_t dpitch, const void *src, size_t spitch,
                               size_t width, size_t height, enum cudaMemcpyKind kind, rt_order order,
                               cudaStream_t stream)
{
    if (width == 0 || height == 0)
        return cudaSuccess;
    cudaError_t err = rt_memcpy_check(fn, dst, src, kind);
    if (err != cudaSuccess)
        return err;
    if (dpitch < width || spitch < width)
        return rt_fail(cudaErrorInvalidPitchValue, "%s: %s %zu is smaller than width %zu", fn,
                       dpitch < width ? "dpitch" : "spitch", dpitch < width ? dpitch : spitch, width);
    if (dpitch > RT_MAX_PITCH || spitch > RT_MAX_PITCH)
        return rt_fail(cudaErrorInvalidPitchValue, "%s: %s %zu is above the device's maximum pitch %zu", fn,
                       dpitch > RT_MAX_PITCH ? "dpitch" : "spitch", dpitch > RT_MAX_PITCH ? dpitch : spitch,
                       RT_MAX_PITCH);
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof(c));
    rt_kind_types(kind, &c.srcMemoryType, &c.dstMemoryType);
    c.srcHost = src;
    c.srcDevice = rt_dptr(src);
    c.srcPitch = spitch;
    c.dstHost = dst;
    c.dstDevice = rt_dptr(dst);
    c.dstPitch = dpitch;
    c.WidthInBytes = width;
    c.Height = height;
    CUresult r = order == RT_SYNC_LEGACY ? cuMemcpy2D(&c) : cuMemcpy2DAsync(&c, rt_stream(order, stream));
    return rt_cu(rt_finish(order, r));
}

cudaError_t CUDARTAPI cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                   size_t height, enum cudaMemcpyKind kind)
{
    return rt_memcpy2d("cudaMemcpy2D", dst, dpitch, src, spitch, width, height, kind, RT_SYNC_LEGACY, NULL);
}
cudaError_t CUDARTAPI cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                        size_t height, enum cudaMemcpyKind kind)
{
    return rt_memcpy2d("cudaMemcpy2D", dst, dpitch, src, spitch, width, height, kind, RT_SYNC_PER_THREAD, NULL);
}
cudaError_t CUDARTAPI cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                        size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_memcpy2d("cudaMemcpy2DAsync", dst, dpitch, src, spitch, width, height, kind, RT_ASYNC, stream);
}
cudaError_t CUDARTAPI cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch,
                                             size_t width, size_t height, enum cudaMemcpyKind kind,
                                             cudaStream_t stream)
{
    return rt_memcpy2d("cudaMemcpy2DAsync", dst, dpitch, src, spitch, width, height, kind, RT_ASYNC,
                       rt_ptsz(stream));
}

/* One side of a 3D copy: an array or a pointer, exactly one. An array is handed to the driver
 * as CU_MEMORYTYPE_ARRAY (its x and the width become bytes: rt_copy3d_elements_to_bytes). */
static cudaError_t rt_side3d(const char *fn, const char *side, cudaArray_t array, const struct cudaPitchedPtr *ptr,
                             CUmemorytype type, CUmemorytype *out_type, CUarray *out_array)
{
    if (array && ptr->ptr)
        return rt_fail(cudaErrorInvalidValue, "%s: %sArray and %sPtr are both given: a side is one or the other", fn,
                       side, side);
    if (!array && !ptr->ptr)
        return rt_fail(cudaErrorInvalidValue, "%s: neither %sArray nor %sPtr.ptr is given", fn, side, side);
    *out_type = array ? CU_MEMORYTYPE_ARRAY : type;
    *out_array = (CUarray)(void *)array;
    return cudaSuccess;
}

/* The positions, pitched pointers and extent of a runtime 3D copy (cudaMemcpy3DParms or
 * cudaMemcpy3DPeerParms) in the driver's descriptor (CUDA_MEMCPY3D or CUDA_MEMCPY3D_PEER),
 * whose fields of these names are the same in both. */
#define RT_COPY3D_GEOMETRY(c, p)                                                                                     \
    do {                                                                                                             \
        (c).srcXInBytes = (p)->srcPos.x;                                                                             \
        (c).srcY = (p)->srcPos.y;                                                                                    \
        (c).srcZ = (p)->srcPos.z;                                                                                    \
        (c).srcDevice = rt_dptr((p)->srcPtr.ptr);                                                                    \
        (c).srcPitch = (p)->srcPtr.pitch;                                                                            \
        (c).srcHeight = (p)->srcPtr.ysize;                                                                           \
        (c).dstXInBytes = (p)->dstPos.x;                                                                             \
        (c).dstY = (p)->dstPos.y;                                                                                    \
        (c).dstZ = (p)->dstPos.z;                                                                                    \
        (c).dstDevice = rt_dptr((p)->dstPtr.ptr);                                                                    \
        (c).dstPitch = (p)->dstPtr.pitch;                                                                            \
        (c).dstHeight = (p)->dstPtr.ysize;                                                                           \
        (c).WidthInBytes = (p)->extent.width;                                                                        \
        (c).Height = (p)->extent.height;                                                                             \
        (c).Depth = (p)->extent.depth;                                                                               \
    } while (0)

cudaError_t rt_copy3d_to_cu(const char *fn, const struct cudaMemcpy3DParms *p, CUDA_MEMCPY3D *c)
{
    if ((unsigned int)p->kind > (unsigned int)cudaMemcpyDefault)
        return rt_fail(cudaErrorInvalidMemcpyDirection, "%s: kind %d is not a cudaMemcpyKind", fn, (int)p->kind);
    memset(c, 0, sizeof(*c));
    CUmemorytype src_type, dst_type;
    rt_kind_types(p->kind, &src_type, &dst_type);
    cudaError_t err = rt_side3d(fn, "src", p->srcArray, &p->srcPtr, src_type, &c->srcMemoryType, &c->srcArray);
    if (err == cudaSuccess)
        err = rt_side3d(fn, "dst", p->dstArray, &p->dstPtr, dst_type, &c->dstMemoryType, &c->dstArray);
    if (err == cudaSuccess && !p->srcArray && !p->dstArray)
        err = rt_memcpy_check(fn, p->dstPtr.ptr, p->srcPtr.ptr, p->kind);
    if (err != cudaSuccess)
        return err;
    RT_COPY3D_GEOMETRY(*c, p);
    c->srcHost = p->srcPtr.ptr;
    c->dstHost = p->dstPtr.ptr;
    return rt_copy3d_elements_to_bytes(c->srcArray, c->dstArray, &c->srcXInBytes, &c->dstXInBytes,
                                       &c->WidthInBytes);
}

cudaError_t rt_copy3d_elements_to_bytes(CUarray src, CUarray dst, size_t *src_x, size_t *dst_x, size_t *width)
{
    /* Where an array takes part, x and the width are in its elements (a pointer's x in bytes). */
    size_t se = 1, de = 1;
    cudaError_t err = cudaSuccess;
    CUresult init = src || dst ? rt_driver_init() : CUDA_SUCCESS;
    if (init != CUDA_SUCCESS)
        return rt_cu(init);
    if (src)
        err = rt_array_element_bytes(src, &se);
    if (err == cudaSuccess && dst)
        err = rt_array_element_bytes(dst, &de);
    if (err != cudaSuccess)
        return err;
    size_t we = src ? se : de;
    if (*src_x > SIZE_MAX / se || *dst_x > SIZE_MAX / de || *width > SIZE_MAX / we)
        return rt_fail(cudaErrorInvalidValue, "a 3D copy's position or extent overflows in bytes");
    *src_x *= se;
    *dst_x *= de;
    *width *= we;
    return cudaSuccess;
}

/* One side of a driver descriptor as the runtime's array or pitched pointer. The runtime's
 * xsize (the width the allocation was made for) has no driver field: 0, as NVIDIA's runtime
 * reads a copy node back (docs/driver-observations.md, "The runtime's graph ... calls"). */
static void rt_side_from_cu(CUmemorytype type, const void *host, CUdeviceptr device, CUarray array, size_t pitch,
                            size_t height, cudaArray_t *out_array, struct cudaPitchedPtr *out)
{
    *out_array = type == CU_MEMORYTYPE_ARRAY ? (cudaArray_t)(void *)array : NULL;
    out->ptr = type == CU_MEMORYTYPE_ARRAY ? NULL
               : type == CU_MEMORYTYPE_HOST ? (void *)(uintptr_t)host
                                            : (void *)(uintptr_t)device;
    out->pitch = pitch;
    out->xsize = 0;
    out->ysize = height;
}

void rt_copy3d_from_cu(const CUDA_MEMCPY3D *c, struct cudaMemcpy3DParms *p)
{
    memset(p, 0, sizeof(*p));
    rt_side_from_cu(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcPitch, c->srcHeight,
                    &p->srcArray, &p->srcPtr);
    rt_side_from_cu(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstPitch, c->dstHeight,
                    &p->dstArray, &p->dstPtr);
    p->srcPos.x = c->srcXInBytes;
    p->srcPos.y = c->srcY;
    p->srcPos.z = c->srcZ;
    p->dstPos.x = c->dstXInBytes;
    p->dstPos.y = c->dstY;
    p->dstPos.z = c->dstZ;
    p->extent.width = c->WidthInBytes;
    p->extent.height = c->Height;
    p->extent.depth = c->Depth;
    /* An array's positions and extent are in its elements for the runtime. */
    size_t se = 0, de = 0;
    if (c->srcMemoryType == CU_MEMORYTYPE_ARRAY && rt_array_element_bytes(c->srcArray, &se) == cudaSuccess && se) {
        p->srcPos.x /= se;
        p->extent.width /= se;
    }
    if (c->dstMemoryType == CU_MEMORYTYPE_ARRAY && rt_array_element_bytes(c->dstArray, &de) == cudaSuccess && de) {
        p->dstPos.x /= de;
        if (!se)
            p->extent.width /= de;
    }
    bool src_host = c->srcMemoryType == CU_MEMORYTYPE_HOST, dst_host = c->dstMemoryType == CU_MEMORYTYPE_HOST;
    bool src_dev = c->srcMemoryType == CU_MEMORYTYPE_DEVICE || c->srcMemoryType == CU_MEMORYTYPE_ARRAY;
    bool dst_dev = c->dstMemoryType == CU_MEMORYTYPE_DEVICE || c->dstMemoryType == CU_MEMORYTYPE_ARRAY;
    p->kind = src_host && dst_host ? cudaMemcpyHostToHost
              : src_host && dst_dev ? cudaMemcpyHostToDevice
              : src_dev && dst_host ? cudaMemcpyDeviceToHost
              : src_dev && dst_dev  ? cudaMemcpyDeviceToDevice
                                    : cudaMemcpyDefault;
}

static cudaError_t rt_memcpy3d(const char *fn, const struct cudaMemcpy3DParms *p, rt_order order,
                               cudaStream_t stream)
{
    if (p == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: p is NULL", fn);
    CUDA_MEMCPY3D c;
    cudaError_t err = rt_copy3d_to_cu(fn, p, &c);
    if (err == cudaSuccess)
        err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUresult r = order == RT_SYNC_LEGACY ? cuMemcpy3D(&c) : cuMemcpy3DAsync(&c, rt_stream(order, stream));
    return rt_cu(rt_finish(order, r));
}

cudaError_t CUDARTAPI cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    return rt_memcpy3d("cudaMemcpy3D", p, RT_SYNC_LEGACY, NULL);
}
cudaError_t CUDARTAPI cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p)
{
    return rt_memcpy3d("cudaMemcpy3D", p, RT_SYNC_PER_THREAD, NULL);
}
cudaError_t CUDARTAPI cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    return rt_memcpy3d("cudaMemcpy3DAsync", p, RT_ASYNC, stream);
}
cudaError_t CUDARTAPI cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    return rt_memcpy3d("cudaMemcpy3DAsync", p, RT_ASYNC, rt_ptsz(stream));
}

/* The context of a device ordinal for a peer copy: the current (primary) context, the only
 * device's. */
static cudaError_t rt_peer_context(const char *fn, int dst_device, int src_device, CUcontext *ctx)
{
    CUdevice dev;
    cudaError_t err = rt_device(fn, dst_device, &dev);
    if (err == cudaSuccess)
        err = rt_device(fn, src_device, &dev);
    if (err == cudaSuccess)
        err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuCtxGetCurrent(ctx));
}

static cudaError_t rt_memcpy3d_peer(const char *fn, const struct cudaMemcpy3DPeerParms *p, rt_order order,
                                    cudaStream_t stream)
{
    if (p == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: p is NULL", fn);
    CUcontext ctx = NULL;
    cudaError_t err = rt_peer_context(fn, p->dstDevice, p->srcDevice, &ctx);
    if (err != cudaSuccess)
        return err;
    CUDA_MEMCPY3D_PEER c;
    memset(&c, 0, sizeof(c));
    err = rt_side3d(fn, "src", p->srcArray, &p->srcPtr, CU_MEMORYTYPE_UNIFIED, &c.srcMemoryType, &c.srcArray);
    if (err == cudaSuccess)
        err = rt_side3d(fn, "dst", p->dstArray, &p->dstPtr, CU_MEMORYTYPE_UNIFIED, &c.dstMemoryType, &c.dstArray);
    if (err != cudaSuccess)
        return err;
    c.srcContext = c.dstContext = ctx;
    RT_COPY3D_GEOMETRY(c, p);
    if ((err = rt_copy3d_elements_to_bytes(c.srcArray, c.dstArray, &c.srcXInBytes, &c.dstXInBytes,
                                           &c.WidthInBytes)) != cudaSuccess)
        return err;
    CUresult r = order == RT_SYNC_LEGACY ? cuMemcpy3DPeer(&c) : cuMemcpy3DPeerAsync(&c, rt_stream(order, stream));
    return rt_cu(rt_finish(order, r));
}

cudaError_t CUDARTAPI cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p)
{
    return rt_memcpy3d_peer("cudaMemcpy3DPeer", p, RT_SYNC_LEGACY, NULL);
}
cudaError_t CUDARTAPI cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p)
{
    return rt_memcpy3d_peer("cudaMemcpy3DPeer", p, RT_SYNC_PER_THREAD, NULL);
}
cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream)
{
    return rt_memcpy3d_peer("cudaMemcpy3DPeerAsync", p, RT_ASYNC, stream);
}
cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream)
{
    return rt_memcpy3d_peer("cudaMemcpy3DPeerAsync", p, RT_ASYNC, rt_ptsz(stream));
}

static cudaError_t rt_memcpy_peer(const char *fn, void *dst, int dstDevice, const void *src, int srcDevice,
                                  size_t count, rt_order order, cudaStream_t stream)
{
    CUcontext ctx = NULL;
    cudaError_t err = rt_peer_context(fn, dstDevice, srcDevice, &ctx);
    if (err != cudaSuccess || count == 0)
        return err;
    CUresult r = order == RT_SYNC_LEGACY ? cuMemcpyPeer(rt_dptr(dst), ctx, rt_dptr(src), ctx, count)
                                         : cuMemcpyPeerAsync(rt_dptr(dst), ctx, rt_dptr(src), ctx, count, stream);
    return rt_cu(r);
}

cudaError_t CUDARTAPI cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count)
{
    return rt_memcpy_peer("cudaMemcpyPeer", dst, dstDevice, src, srcDevice, count, RT_SYNC_LEGACY, NULL);
}
cudaError_t CUDARTAPI cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                          cudaStream_t stream)
{
    return rt_memcpy_peer("cudaMemcpyPeerAsync", dst, dstDevice, src, srcDevice, count, RT_ASYNC, stream);
}

/* ---- Fills ---- */

static cudaError_t rt_memset2d(const char *fn, void *devPtr, size_t pitch, int value, size_t width, size_t height,
                               rt_order order, cudaStream_t stream)
{
    if (width == 0 || height == 0)
        return cudaSuccess;
    if (devPtr == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: devPtr is NULL", fn);
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    if (!rt_is_device_memory(devPtr))
        return rt_fail(cudaErrorInvalidValue, "%s: devPtr %p is not device memory: fills need memory from cudaMalloc, "
                       "page-locked or registered host memory", fn, devPtr);
    unsigned char byte = (unsigned char)value;
    CUresult r = order == RT_SYNC_LEGACY ? cuMemsetD2D8(rt_dptr(devPtr), pitch, byte, width, height)
                                         : cuMemsetD2D8Async(rt_dptr(devPtr), pitch, byte, width, height,
                                                             rt_stream(order, stream));
    return rt_cu(rt_finish(order, r));
}

cudaError_t CUDARTAPI cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    return rt_memset2d("cudaMemset2D", devPtr, pitch, value, width, height, RT_SYNC_LEGACY, NULL);
}
cudaError_t CUDARTAPI cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    return rt_memset2d("cudaMemset2D", devPtr, pitch, value, width, height, RT_SYNC_PER_THREAD, NULL);
}
cudaError_t CUDARTAPI cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                        cudaStream_t stream)
{
    return rt_memset2d("cudaMemset2DAsync", devPtr, pitch, value, width, height, RT_ASYNC, stream);
}
cudaError_t CUDARTAPI cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                             cudaStream_t stream)
{
    return rt_memset2d("cudaMemset2DAsync", devPtr, pitch, value, width, height, RT_ASYNC, rt_ptsz(stream));
}

/* Layers whose rows follow one another without a gap (ysize equal to the height) are one 2D
 * fill; otherwise one 2D fill per layer, in order. */
static cudaError_t rt_memset3d(const char *fn, struct cudaPitchedPtr p, int value, struct cudaExtent e,
                               rt_order order, cudaStream_t stream)
{
    if (e.width == 0 || e.height == 0 || e.depth == 0)
        return cudaSuccess;
    if (p.ptr == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: pitchedDevPtr.ptr is NULL", fn);
    if (e.depth > 1 && p.ysize < e.height)
        return rt_fail(cudaErrorInvalidValue, "%s: pitchedDevPtr.ysize %zu is below extent.height %zu: the layers "
                       "would overlap", fn, p.ysize, e.height);
    if (e.depth == 1 || p.ysize == e.height) {
        if (e.height > SIZE_MAX / e.depth)
            return rt_fail(cudaErrorInvalidValue, "%s: %zu layers of %zu rows overflow", fn, e.depth, e.height);
        return rt_memset2d(fn, p.ptr, p.pitch, value, e.width, e.height * e.depth, order, stream);
    }
    if (p.pitch && p.ysize > SIZE_MAX / p.pitch)
        return rt_fail(cudaErrorInvalidValue, "%s: layers of %zu rows of pitch %zu overflow", fn, p.ysize, p.pitch);
    size_t slice = p.pitch * p.ysize;
    for (size_t z = 0; z < e.depth; ++z) {
        if (z && slice > (UINTPTR_MAX - (uintptr_t)p.ptr) / z)
            return rt_fail(cudaErrorInvalidValue, "%s: layer %zu lies past the end of the address space", fn, z);
        cudaError_t err = rt_memset2d(fn, (unsigned char *)p.ptr + z * slice, p.pitch, value, e.width, e.height,
                                      order, stream);
        if (err != cudaSuccess)
            return err;
    }
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    return rt_memset3d("cudaMemset3D", pitchedDevPtr, value, extent, RT_SYNC_LEGACY, NULL);
}
cudaError_t CUDARTAPI cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    return rt_memset3d("cudaMemset3D", pitchedDevPtr, value, extent, RT_SYNC_PER_THREAD, NULL);
}
cudaError_t CUDARTAPI cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                                        cudaStream_t stream)
{
    return rt_memset3d("cudaMemset3DAsync", pitchedDevPtr, value, extent, RT_ASYNC, stream);
}
cudaError_t CUDARTAPI cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                                             cudaStream_t stream)
{
    return rt_memset3d("cudaMemset3DAsync", pitchedDevPtr, value, extent, RT_ASYNC, rt_ptsz(stream));
}
