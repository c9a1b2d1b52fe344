/*
 * src/runtime/array.c: CUDA arrays and mipmapped arrays in the runtime (cudaMallocArray,
 * cudaMalloc3DArray, cudaMallocMipmappedArray and their queries), and the copies with an array
 * on one side or both, over the driver's cuArray3DCreate, cuMipmappedArrayCreate and
 * cuMemcpy2D(Async) (docs/images.md). A cudaArray_t is the driver's CUarray, the same value.
 *
 * A channel descriptor maps to a CUarray_format and a channel count as NVIDIA's runtime maps
 * it (driver_types.h's kinds; the bits are those cudaCreateChannelDesc<T> gives each kind),
 * and back (cudaGetChannelDesc, cudaArrayGetInfo).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "runtime/runtime.h"

/* ---- Channel descriptors ---- */

struct rt_format {
    enum cudaChannelFormatKind kind;
    int x, y, z, w;
    CUarray_format format;
    unsigned int channels;
};

/* The kinds whose channels and bits are fixed (cudaCreateChannelDesc<kind>()). */
static const struct rt_format fixed_formats[] = {
    {cudaChannelFormatKindNV12, 8, 8, 8, 0, CU_AD_FORMAT_NV12, 3},
    {cudaChannelFormatKindUnsignedNormalized8X1, 8, 0, 0, 0, CU_AD_FORMAT_UNORM_INT8X1, 1},
    {cudaChannelFormatKindUnsignedNormalized8X2, 8, 8, 0, 0, CU_AD_FORMAT_UNORM_INT8X2, 2},
    {cudaChannelFormatKindUnsignedNormalized8X4, 8, 8, 8, 8, CU_AD_FORMAT_UNORM_INT8X4, 4},
    {cudaChannelFormatKindUnsignedNormalized16X1, 16, 0, 0, 0, CU_AD_FORMAT_UNORM_INT16X1, 1},
    {cudaChannelFormatKindUnsignedNormalized16X2, 16, 16, 0, 0, CU_AD_FORMAT_UNORM_INT16X2, 2},
    {cudaChannelFormatKindUnsignedNormalized16X4, 16, 16, 16, 16, CU_AD_FORMAT_UNORM_INT16X4, 4},
    {cudaChannelFormatKindSignedNormalized8X1, 8, 0, 0, 0, CU_AD_FORMAT_SNORM_INT8X1, 1},
    {cudaChannelFormatKindSignedNormalized8X2, 8, 8, 0, 0, CU_AD_FORMAT_SNORM_INT8X2, 2},
    {cudaChannelFormatKindSignedNormalized8X4, 8, 8, 8, 8, CU_AD_FORMAT_SNORM_INT8X4, 4},
    {cudaChannelFormatKindSignedNormalized16X1, 16, 0, 0, 0, CU_AD_FORMAT_SNORM_INT16X1, 1},
    {cudaChannelFormatKindSignedNormalized16X2, 16, 16, 0, 0, CU_AD_FORMAT_SNORM_INT16X2, 2},
    {cudaChannelFormatKindSignedNormalized16X4, 16, 16, 16, 16, CU_AD_FORMAT_SNORM_INT16X4, 4},
    {cudaChannelFormatKindUnsignedBlockCompressed1, 8, 8, 8, 8, CU_AD_FORMAT_BC1_UNORM, 4},
    {cudaChannelFormatKindUnsignedBlockCompressed1SRGB, 8, 8, 8, 8, CU_AD_FORMAT_BC1_UNORM_SRGB, 4},
    {cudaChannelFormatKindUnsignedBlockCompressed2, 8, 8, 8, 8, CU_AD_FORMAT_BC2_UNORM, 4},
    {cudaChannelFormatKindUnsignedBlockCompressed2SRGB, 8, 8, 8, 8, CU_AD_FORMAT_BC2_UNORM_SRGB, 4},
    {cudaChannelFormatKindUnsignedBlockCompressed3, 8, 8, 8, 8, CU_AD_FORMAT_BC3_UNORM, 4},
    {cudaChannelFormatKindUnsignedBlockCompressed3SRGB, 8, 8, 8, 8, CU_AD_FORMAT_BC3_UNORM_SRGB, 4},
    {cudaChannelFormatKindUnsignedBlockCompressed4, 8, 0, 0, 0, CU_AD_FORMAT_BC4_UNORM, 1},
    {cudaChannelFormatKindSignedBlockCompressed4, 8, 0, 0, 0, CU_AD_FORMAT_BC4_SNORM, 1},
    {cudaChannelFormatKindUnsignedBlockCompressed5, 8, 8, 0, 0, CU_AD_FORMAT_BC5_UNORM, 2},
    {cudaChannelFormatKindSignedBlockCompressed5, 8, 8, 0, 0, CU_AD_FORMAT_BC5_SNORM, 2},
    {cudaChannelFormatKindUnsignedBlockCompressed6H, 16, 16, 16, 0, CU_AD_FORMAT_BC6H_UF16, 3},
    {cudaChannelFormatKindSignedBlockCompressed6H, 16, 16, 16, 0, CU_AD_FORMAT_BC6H_SF16, 3},
    {cudaChannelFormatKindUnsignedBlockCompressed7, 8, 8, 8, 8, CU_AD_FORMAT_BC7_UNORM, 4},
    {cudaChannelFormatKindUnsignedBlockCompressed7SRGB, 8, 8, 8, 8, CU_AD_FORMAT_BC7_UNORM_SRGB, 4},
    {cudaChannelFormatKindUnsignedNormalized1010102, 10, 10, 10, 2, CU_AD_FORMAT_UNORM_INT_101010_2, 4},
};
#define NFIXED (sizeof(fixed_formats) / sizeof(fixed_formats[0]))

cudaError_t rt_format_from_desc(const char *fn, const struct cudaChannelFormatDesc *d, CUarray_format *format,
                                unsigned int *channels)
{
    for (size_t i = 0; i < NFIXED; ++i) {
        const struct rt_format *f = &fixed_formats[i];
        if (f->kind != d->f)
            continue;
        if (d->x != f->x || d->y != f->y || d->z != f->z || d->w != f->w)
            return rt_fail(cudaErrorInvalidChannelDescriptor, "%s: kind %d takes channels of %d, %d, %d, %d bits, "
                           "not %d, %d, %d, %d", fn, (int)d->f, f->x, f->y, f->z, f->w, d->x, d->y, d->z, d->w);
        *format = f->format;
        *channels = f->channels;
        return cudaSuccess;
    }
    if (d->f != cudaChannelFormatKindSigned && d->f != cudaChannelFormatKindUnsigned &&
        d->f != cudaChannelFormatKindFloat)
        return rt_fail(cudaErrorInvalidChannelDescriptor, "%s: kind %d is no channel format kind an array takes", fn,
                       (int)d->f);
    /* Channels x, y, z, w in that order, each of the first's bits. */
    int bits[4] = {d->x, d->y, d->z, d->w};
    unsigned int n = 0;
    while (n < 4 && bits[n])
        ++n;
    for (unsigned int i = n; i < 4; ++i)
        if (bits[i])
            return rt_fail(cudaErrorInvalidChannelDescriptor, "%s: channel %u has %d bits after an empty channel", fn,
                           i, bits[i]);
    for (unsigned int i = 1; i < n; ++i)
        if (bits[i] != bits[0])
            return rt_fail(cudaErrorInvalidChannelDescriptor, "%s: the channels' bits differ (%d, %d, %d, %d)", fn,
                           d->x, d->y, d->z, d->w);
    if (n == 0 || n == 3)
        return rt_fail(cudaErrorInvalidChannelDescriptor, "%s: %u channels: an array has 1, 2 or 4", fn, n);
    CUarray_format f = (CUarray_format)0;
    if (d->f == cudaChannelFormatKindFloat)
        f = bits[0] == 16 ? CU_AD_FORMAT_HALF : bits[0] == 32 ? CU_AD_FORMAT_FLOAT : f;
    else if (d->f == cudaChannelFormatKindSigned)
        f = bits[0] == 8 ? CU_AD_FORMAT_SIGNED_INT8 : bits[0] == 16 ? CU_AD_FORMAT_SIGNED_INT16
            : bits[0] == 32 ? CU_AD_FORMAT_SIGNED_INT32 : f;
    else
        f = bits[0] == 8 ? CU_AD_FORMAT_UNSIGNED_INT8 : bits[0] == 16 ? CU_AD_FORMAT_UNSIGNED_INT16
            : bits[0] == 32 ? CU_AD_FORMAT_UNSIGNED_INT32 : f;
    if (!f)
        return rt_fail(cudaErrorInvalidChannelDescriptor, "%s: %d-bit channels of kind %d name no array format", fn,
                       bits[0], (int)d->f);
    *format = f;
    *channels = n;
    return cudaSuccess;
}

void rt_desc_from_format(CUarray_format format, unsigned int channels, struct cudaChannelFormatDesc *d)
{
    memset(d, 0, sizeof(*d));
    for (size_t i = 0; i < NFIXED; ++i)
        if (fixed_formats[i].format == format) {
            d->x = fixed_formats[i].x, d->y = fixed_formats[i].y, d->z = fixed_formats[i].z;
            d->w = fixed_formats[i].w, d->f = fixed_formats[i].kind;
            return;
        }
    int bits = 0;
    switch ((int)format) {
    case CU_AD_FORMAT_UNSIGNED_INT8: bits = 8, d->f = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT16: bits = 16, d->f = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT32: bits = 32, d->f = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_SIGNED_INT8: bits = 8, d->f = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_SIGNED_INT16: bits = 16, d->f = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_SIGNED_INT32: bits = 32, d->f = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_HALF: bits = 16, d->f = cudaChannelFormatKindFloat; break;
    case CU_AD_FORMAT_FLOAT: bits = 32, d->f = cudaChannelFormatKindFloat; break;
    default: d->f = cudaChannelFormatKindNone; return; /* the other video formats have no kind */
    }
    d->x = bits;
    d->y = channels >= 2 ? bits : 0;
    d->z = channels >= 3 ? bits : 0;
    d->w = channels >= 4 ? bits : 0;
}

/* Bytes of one element of an array (a BC format: one 4x4 block), for the copies that count in
 * elements; 0 for a format this does not know. */
static size_t element_bytes(CUarray_format format, unsigned int channels)
{
    switch ((int)format) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8: return channels;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF: return 2u * channels;
    case CU_AD_FORMAT_UNSIGNED_INT32:
    case CU_AD_FORMAT_SIGNED_INT32:
    case CU_AD_FORMAT_FLOAT: return 4u * channels;
    case CU_AD_FORMAT_UNORM_INT8X1:
    case CU_AD_FORMAT_SNORM_INT8X1: return 1;
    case CU_AD_FORMAT_UNORM_INT8X2:
    case CU_AD_FORMAT_SNORM_INT8X2:
    case CU_AD_FORMAT_UNORM_INT16X1:
    case CU_AD_FORMAT_SNORM_INT16X1: return 2;
    case CU_AD_FORMAT_UNORM_INT8X4:
    case CU_AD_FORMAT_SNORM_INT8X4:
    case CU_AD_FORMAT_UNORM_INT16X2:
    case CU_AD_FORMAT_SNORM_INT16X2:
    case CU_AD_FORMAT_UNORM_INT_101010_2: return 4;
    case CU_AD_FORMAT_UNORM_INT16X4:
    case CU_AD_FORMAT_SNORM_INT16X4:
    case CU_AD_FORMAT_BC1_UNORM:
    case CU_AD_FORMAT_BC1_UNORM_SRGB:
    case CU_AD_FORMAT_BC4_UNORM:
    case CU_AD_FORMAT_BC4_SNORM: return 8;
    case CU_AD_FORMAT_BC2_UNORM:
    case CU_AD_FORMAT_BC2_UNORM_SRGB:
    case CU_AD_FORMAT_BC3_UNORM:
    case CU_AD_FORMAT_BC3_UNORM_SRGB:
    case CU_AD_FORMAT_BC5_UNORM:
    case CU_AD_FORMAT_BC5_SNORM:
    case CU_AD_FORMAT_BC6H_UF16:
    case CU_AD_FORMAT_BC6H_SF16:
    case CU_AD_FORMAT_BC7_UNORM:
    case CU_AD_FORMAT_BC7_UNORM_SRGB: return 16;
    case CU_AD_FORMAT_NV12:
    case CU_AD_FORMAT_NV16:
    case CU_AD_FORMAT_Y444_PLANAR8: return 1;
    case CU_AD_FORMAT_P010:
    case CU_AD_FORMAT_P016:
    case CU_AD_FORMAT_P210:
    case CU_AD_FORMAT_P216:
    case CU_AD_FORMAT_Y444_PLANAR10: return 2;
    case CU_AD_FORMAT_Y416: return 8;
    default: return 4; /* YUY2, Y210, Y216, AYUV, Y410 */
    }
}

cudaError_t rt_array_element_bytes(CUarray array, size_t *bytes)
{
    CUDA_ARRAY3D_DESCRIPTOR d;
    CUresult r = cuArray3DGetDescriptor(&d, array);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    *bytes = element_bytes(d.Format, d.NumChannels);
    return cudaSuccess;
}

/* ---- Arrays ---- */

static cudaError_t rt_malloc3d_array(const char *fn, cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                     size_t w, size_t h, size_t d, unsigned int flags)
{
    if (array == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: array is NULL", fn);
    *array = NULL;
    if (desc == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: desc is NULL", fn);
    CUDA_ARRAY3D_DESCRIPTOR ad;
    memset(&ad, 0, sizeof(ad));
    cudaError_t err = rt_format_from_desc(fn, desc, &ad.Format, &ad.NumChannels);
    if (err != cudaSuccess)
        return err;
    if ((err = rt_context()) != cudaSuccess)
        return err;
    ad.Width = w, ad.Height = h, ad.Depth = d, ad.Flags = flags;
    if (desc->f == cudaChannelFormatKindNV12) /* the driver makes video formats with this flag only */
        ad.Flags |= CUDA_ARRAY3D_VIDEO_ENCODE_DECODE;
    CUarray a = NULL;
    CUresult r = cuArray3DCreate(&a, &ad);
    if (r == CUDA_SUCCESS)
        *array = (cudaArray_t)(void *)a;
    return rt_cu(r);
}

cudaError_t CUDARTAPI cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                                      size_t height, unsigned int flags)
{
    return rt_malloc3d_array("cudaMallocArray", array, desc, width, height, 0, flags);
}

cudaError_t CUDARTAPI cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                        struct cudaExtent extent, unsigned int flags)
{
    return rt_malloc3d_array("cudaMalloc3DArray", array, desc, extent.width, extent.height, extent.depth, flags);
}

cudaError_t CUDARTAPI cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
                                               const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                                               unsigned int numLevels, unsigned int flags)
{
    const char *fn = "cudaMallocMipmappedArray";
    if (mipmappedArray == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: mipmappedArray is NULL", fn);
    *mipmappedArray = NULL;
    if (desc == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: desc is NULL", fn);
    CUDA_ARRAY3D_DESCRIPTOR ad;
    memset(&ad, 0, sizeof(ad));
    cudaError_t err = rt_format_from_desc(fn, desc, &ad.Format, &ad.NumChannels);
    if (err != cudaSuccess)
        return err;
    if ((err = rt_context()) != cudaSuccess)
        return err;
    ad.Width = extent.width, ad.Height = extent.height, ad.Depth = extent.depth, ad.Flags = flags;
    CUmipmappedArray m = NULL;
    CUresult r = cuMipmappedArrayCreate(&m, &ad, numLevels);
    if (r == CUDA_SUCCESS)
        *mipmappedArray = (cudaMipmappedArray_t)(void *)m;
    return rt_cu(r);
}

cudaError_t CUDARTAPI cudaFreeArray(cudaArray_t array)
{
    if (array == NULL)
        return cudaSuccess;
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuArrayDestroy((CUarray)(void *)array));
}

cudaError_t CUDARTAPI cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray)
{
    if (mipmappedArray == NULL)
        return cudaSuccess;
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuMipmappedArrayDestroy((CUmipmappedArray)(void *)mipmappedArray));
}

cudaError_t CUDARTAPI cudaGetMipmappedArrayLevel(cudaArray_t *levelArray, cudaMipmappedArray_const_t mipmappedArray,
                                                 unsigned int level)
{
    if (levelArray == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaGetMipmappedArrayLevel: levelArray is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUarray a = NULL;
    CUresult r = cuMipmappedArrayGetLevel(&a, (CUmipmappedArray)(uintptr_t)mipmappedArray, level);
    if (r == CUDA_SUCCESS)
        *levelArray = (cudaArray_t)(void *)a;
    return rt_cu(r);
}

cudaError_t CUDARTAPI cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                                       unsigned int *flags, cudaArray_t array)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUDA_ARRAY3D_DESCRIPTOR d;
    CUresult r = cuArray3DGetDescriptor(&d, (CUarray)(void *)array);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    if (desc)
        rt_desc_from_format(d.Format, d.NumChannels, desc);
    if (extent) {
        extent->width = d.Width;
        extent->height = d.Height;
        extent->depth = d.Depth;
    }
    if (flags)
        *flags = d.Flags;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
    if (desc == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaGetChannelDesc: desc is NULL");
    return cudaArrayGetInfo(desc, NULL, NULL, (cudaArray_t)(uintptr_t)array);
}

cudaError_t CUDARTAPI cudaArrayGetPlane(cudaArray_t *pPlaneArray, cudaArray_t hArray, unsigned int planeIdx)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUarray p = NULL;
    CUresult r = cuArrayGetPlane(pPlaneArray ? &p : NULL, (CUarray)(void *)hArray, planeIdx);
    if (r == CUDA_SUCCESS)
        *pPlaneArray = (cudaArray_t)(void *)p;
    return rt_cu(r);
}

/* The driver's requirements and the runtime's have the same layout (size, alignment, reserved). */
cudaError_t CUDARTAPI cudaArrayGetMemoryRequirements(struct cudaArrayMemoryRequirements *memoryRequirements,
                                                     cudaArray_t array, int device)
{
    CUdevice dev;
    cudaError_t err = rt_device("cudaArrayGetMemoryRequirements", device, &dev);
    if (err == cudaSuccess)
        err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuArrayGetMemoryRequirements((CUDA_ARRAY_MEMORY_REQUIREMENTS *)(void *)memoryRequirements,
                                              (CUarray)(void *)array, dev));
}

cudaError_t CUDARTAPI cudaMipmappedArrayGetMemoryRequirements(struct cudaArrayMemoryRequirements *memoryRequirements,
                                                              cudaMipmappedArray_t mipmap, int device)
{
    CUdevice dev;
    cudaError_t err = rt_device("cudaMipmappedArrayGetMemoryRequirements", device, &dev);
    if (err == cudaSuccess)
        err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuMipmappedArrayGetMemoryRequirements((CUDA_ARRAY_MEMORY_REQUIREMENTS *)(void *)memoryRequirements,
                                                       (CUmipmappedArray)(void *)mipmap, dev));
}

cudaError_t CUDARTAPI cudaArrayGetSparseProperties(struct cudaArraySparseProperties *sparseProperties,
                                                   cudaArray_t array)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuArrayGetSparseProperties((CUDA_ARRAY_SPARSE_PROPERTIES *)(void *)sparseProperties,
                                            (CUarray)(void *)array));
}

cudaError_t CUDARTAPI cudaMipmappedArrayGetSparseProperties(struct cudaArraySparseProperties *sparseProperties,
                                                            cudaMipmappedArray_t mipmap)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuMipmappedArrayGetSparseProperties((CUDA_ARRAY_SPARSE_PROPERTIES *)(void *)sparseProperties,
                                                     (CUmipmappedArray)(void *)mipmap));
}

/* ---- Copies ---- */

/* How a copy is ordered (as pitched.c's): the legacy stream and waited for, the per-thread
 * stream and waited for (_ptds), or queued (Async; _ptsz with NULL the per-thread stream). */
typedef enum { ORDER_LEGACY, ORDER_PER_THREAD, ORDER_ASYNC } order_t;

/* One side of an array copy: an array, or a pointer whose place the kind gives. */
struct side {
    CUarray array;    /* or NULL: a pointer */
    const void *ptr;
    size_t pitch;
    size_t x, y;      /* bytes and rows */
};

/* The driver's memory type of a pointer side, from kind (the array side is device memory):
 * cudaErrorInvalidMemcpyDirection for a kind that is no cudaMemcpyKind or says the array is
 * on the host. */
static cudaError_t pointer_type(const char *fn, enum cudaMemcpyKind kind, bool pointer_is_src, bool two_arrays,
                                CUmemorytype *type)
{
    if ((unsigned int)kind > (unsigned int)cudaMemcpyDefault)
        return rt_fail(cudaErrorInvalidMemcpyDirection, "%s: kind %d is not a cudaMemcpyKind", fn, (int)kind);
    bool ok;
    if (two_arrays)
        ok = kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault;
    else if (pointer_is_src) /* pointer -> array */
        ok = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault;
    else /* array -> pointer */
        ok = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault;
    if (!ok)
        return rt_fail(cudaErrorInvalidMemcpyDirection, "%s: kind %d puts an array (device memory) on the host side",
                       fn, (int)kind);
    *type = kind == cudaMemcpyDefault ? CU_MEMORYTYPE_UNIFIED
            : (pointer_is_src ? kind == cudaMemcpyHostToDevice : kind == cudaMemcpyDeviceToHost) ? CU_MEMORYTYPE_HOST
                                                                                                 : CU_MEMORYTYPE_DEVICE;
    return cudaSuccess;
}

static void set_side(bool is_src, const struct side *s, CUmemorytype ptype, CUDA_MEMCPY2D *c)
{
    CUmemorytype t = s->array ? CU_MEMORYTYPE_ARRAY : ptype;
    if (is_src) {
        c->srcMemoryType = t, c->srcArray = s->array, c->srcHost = s->ptr, c->srcDevice = rt_dptr(s->ptr);
        c->srcPitch = s->pitch, c->srcXInBytes = s->x, c->srcY = s->y;
    } else {
        c->dstMemoryType = t, c->dstArray = s->array, c->dstHost = (void *)(uintptr_t)s->ptr;
        c->dstDevice = rt_dptr(s->ptr), c->dstPitch = s->pitch, c->dstXInBytes = s->x, c->dstY = s->y;
    }
}

static CUresult run_2d(const CUDA_MEMCPY2D *c, order_t order, cudaStream_t stream)
{
    switch (order) {
    case ORDER_LEGACY: return cuMemcpy2D(c);
    case ORDER_PER_THREAD: {
        CUresult r = cuMemcpy2DAsync(c, CU_STREAM_PER_THREAD);
        return r ? r : cuStreamSynchronize(CU_STREAM_PER_THREAD);
    }
    default: return cuMemcpy2DAsync(c, stream);
    }
}

/* A 2D copy of width bytes x height rows with an array on one side or both. */
static cudaError_t copy2d(const char *fn, const struct side *dst, const struct side *src, size_t width,
                          size_t height, enum cudaMemcpyKind kind, order_t order, cudaStream_t stream)
{
    CUmemorytype ptype = CU_MEMORYTYPE_UNIFIED;
    cudaError_t err = pointer_type(fn, kind, !src->array, src->array && dst->array, &ptype);
    if (err != cudaSuccess)
        return err;
    const struct side *p = src->array ? dst : src; /* the pointer side, if there is one */
    if (!(src->array && dst->array) && p->pitch < width) /* as cudaMemcpy2D checks its pitches */
        return rt_fail(cudaErrorInvalidPitchValue, "%s: %s %zu is smaller than width %zu", fn,
                       p == src ? "spitch" : "dpitch", p->pitch, width);
    if ((err = rt_context()) != cudaSuccess)
        return err;
    if (width == 0 || height == 0)
        return cudaSuccess;
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof(c));
    set_side(true, src, ptype, &c);
    set_side(false, dst, ptype, &c);
    c.WidthInBytes = width;
    c.Height = height;
    return rt_cu(run_2d(&c, order, stream));
}

#define ARR(a) ((CUarray)(uintptr_t)(a))

static cudaError_t to_array_2d(const char *fn, cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                               size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind, order_t order,
                               cudaStream_t stream)
{
    if (dst == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: dst is NULL", fn);
    if (src == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: src is NULL", fn);
    struct side d = {ARR(dst), NULL, 0, wOffset, hOffset}, s = {NULL, src, spitch, 0, 0};
    return copy2d(fn, &d, &s, width, height, kind, order, stream);
}

static cudaError_t from_array_2d(const char *fn, void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                 size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind, order_t order,
                                 cudaStream_t stream)
{
    if (dst == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: dst is NULL", fn);
    if (src == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: src is NULL", fn);
    struct side d = {NULL, dst, dpitch, 0, 0}, s = {ARR(src), NULL, 0, wOffset, hOffset};
    return copy2d(fn, &d, &s, width, height, kind, order, stream);
}

static cudaError_t array_to_array_2d(const char *fn, cudaArray_t dst, size_t wd, size_t hd, cudaArray_const_t src,
                                     size_t ws, size_t hs, size_t width, size_t height, enum cudaMemcpyKind kind,
                                     order_t order)
{
    if (dst == NULL || src == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: %s is NULL", fn, dst == NULL ? "dst" : "src");
    struct side d = {ARR(dst), NULL, 0, wd, hd}, s = {ARR(src), NULL, 0, ws, hs};
    return copy2d(fn, &d, &s, width, height, kind, order, NULL);
}

/* The deprecated 1D forms: count bytes from (wOffset, hOffset) on, through the rows that
 * follow, as row pieces (the array's row is Width elements). */
static cudaError_t row_bytes(const char *fn, CUarray a, size_t *out)
{
    CUDA_ARRAY3D_DESCRIPTOR d;
    CUresult r = cuArray3DGetDescriptor(&d, a);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    size_t e = element_bytes(d.Format, d.NumChannels);
    bool block = (int)d.Format >= CU_AD_FORMAT_BC1_UNORM && (int)d.Format <= CU_AD_FORMAT_BC7_UNORM_SRGB;
    *out = (block ? (d.Width + 3) / 4 : d.Width) * e;
    if (*out == 0)
        return rt_fail(cudaErrorInvalidValue, "%s: the array has no row", fn);
    return cudaSuccess;
}

static cudaError_t linear_copy(const char *fn, CUarray dst_a, size_t wd, size_t hd, void *dst, CUarray src_a,
                               size_t ws, size_t hs, const void *src, size_t count, enum cudaMemcpyKind kind,
                               order_t order, cudaStream_t stream)
{
    if ((dst_a == NULL && dst == NULL) || (src_a == NULL && src == NULL))
        return rt_fail(cudaErrorInvalidValue, "%s: %s is NULL", fn, dst_a == NULL && dst == NULL ? "dst" : "src");
    CUmemorytype ptype = CU_MEMORYTYPE_UNIFIED;
    cudaError_t err = pointer_type(fn, kind, src_a == NULL, src_a && dst_a, &ptype);
    if (err == cudaSuccess)
        err = rt_context();
    if (err != cudaSuccess)
        return err;
    size_t drow = 0, srow = 0;
    if (dst_a && (err = row_bytes(fn, dst_a, &drow)) != cudaSuccess)
        return err;
    if (src_a && (err = row_bytes(fn, src_a, &srow)) != cudaSuccess)
        return err;
    if ((dst_a && wd >= drow && count) || (src_a && ws >= srow && count))
        return rt_fail(cudaErrorInvalidValue, "%s: wOffset %zu is past the array's row of %zu bytes", fn,
                       dst_a && wd >= drow ? wd : ws, dst_a && wd >= drow ? drow : srow);
    /* Pieces: each ends where a row of either array ends. */
    size_t done = 0;
    while (done < count) {
        size_t n = count - done;
        if (dst_a && drow - wd < n)
            n = drow - wd;
        if (src_a && srow - ws < n)
            n = srow - ws;
        struct side d = {dst_a, (unsigned char *)dst + done, n, wd, hd};
        struct side s = {src_a, (const unsigned char *)src + done, n, ws, hs};
        if (dst_a)
            d.ptr = NULL;
        if (src_a)
            s.ptr = NULL;
        CUDA_MEMCPY2D c;
        memset(&c, 0, sizeof(c));
        set_side(true, &s, ptype, &c);
        set_side(false, &d, ptype, &c);
        c.WidthInBytes = n;
        c.Height = 1;
        CUresult r = run_2d(&c, order, stream);
        if (r != CUDA_SUCCESS)
            return rt_cu(r);
        done += n;
        if (dst_a && (wd += n) == drow)
            wd = 0, ++hd;
        if (src_a && (ws += n) == srow)
            ws = 0, ++hs;
    }
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                          size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return to_array_2d("cudaMemcpy2DToArray", dst, wOffset, hOffset, src, spitch, width, height, kind, ORDER_LEGACY,
                       NULL);
}
cudaError_t CUDARTAPI cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                               size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return to_array_2d("cudaMemcpy2DToArray", dst, wOffset, hOffset, src, spitch, width, height, kind,
                       ORDER_PER_THREAD, NULL);
}
cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                               size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
                                               cudaStream_t stream)
{
    return to_array_2d("cudaMemcpy2DToArrayAsync", dst, wOffset, hOffset, src, spitch, width, height, kind,
                       ORDER_ASYNC, stream);
}
cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                                    size_t spitch, size_t width, size_t height,
                                                    enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return to_array_2d("cudaMemcpy2DToArrayAsync", dst, wOffset, hOffset, src, spitch, width, height, kind,
                       ORDER_ASYNC, rt_ptsz(stream));
}
cudaError_t CUDARTAPI cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return from_array_2d("cudaMemcpy2DFromArray", dst, dpitch, src, wOffset, hOffset, width, height, kind,
                         ORDER_LEGACY, NULL);
}
cudaError_t CUDARTAPI cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                 size_t hOffset, size_t width, size_t height,
                                                 enum cudaMemcpyKind kind)
{
    return from_array_2d("cudaMemcpy2DFromArray", dst, dpitch, src, wOffset, hOffset, width, height, kind,
                         ORDER_PER_THREAD, NULL);
}
cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                 size_t hOffset, size_t width, size_t height,
                                                 enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return from_array_2d("cudaMemcpy2DFromArrayAsync", dst, dpitch, src, wOffset, hOffset, width, height, kind,
                         ORDER_ASYNC, stream);
}
cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src,
                                                      size_t wOffset, size_t hOffset, size_t width, size_t height,
                                                      enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return from_array_2d("cudaMemcpy2DFromArrayAsync", dst, dpitch, src, wOffset, hOffset, width, height, kind,
                         ORDER_ASYNC, rt_ptsz(stream));
}
cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                               cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                               size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return array_to_array_2d("cudaMemcpy2DArrayToArray", dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc,
                             width, height, kind, ORDER_LEGACY);
}
cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                    cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                    size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return array_to_array_2d("cudaMemcpy2DArrayToArray", dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc,
                             width, height, kind, ORDER_PER_THREAD);
}

cudaError_t CUDARTAPI cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                        size_t count, enum cudaMemcpyKind kind)
{
    return linear_copy("cudaMemcpyToArray", ARR(dst), wOffset, hOffset, NULL, NULL, 0, 0, src, count, kind,
                       ORDER_LEGACY, NULL);
}
cudaError_t CUDARTAPI cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                             size_t count, enum cudaMemcpyKind kind)
{
    return linear_copy("cudaMemcpyToArray", ARR(dst), wOffset, hOffset, NULL, NULL, 0, 0, src, count, kind,
                       ORDER_PER_THREAD, NULL);
}
cudaError_t CUDARTAPI cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                             size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return linear_copy("cudaMemcpyToArrayAsync", ARR(dst), wOffset, hOffset, NULL, NULL, 0, 0, src, count, kind,
                       ORDER_ASYNC, stream);
}
cudaError_t CUDARTAPI cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                                  size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return linear_copy("cudaMemcpyToArrayAsync", ARR(dst), wOffset, hOffset, NULL, NULL, 0, 0, src, count, kind,
                       ORDER_ASYNC, rt_ptsz(stream));
}
cudaError_t CUDARTAPI cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                          size_t count, enum cudaMemcpyKind kind)
{
    return linear_copy("cudaMemcpyFromArray", NULL, 0, 0, dst, ARR(src), wOffset, hOffset, NULL, count, kind,
                       ORDER_LEGACY, NULL);
}
cudaError_t CUDARTAPI cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                               size_t count, enum cudaMemcpyKind kind)
{
    return linear_copy("cudaMemcpyFromArray", NULL, 0, 0, dst, ARR(src), wOffset, hOffset, NULL, count, kind,
                       ORDER_PER_THREAD, NULL);
}
cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                               size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return linear_copy("cudaMemcpyFromArrayAsync", NULL, 0, 0, dst, ARR(src), wOffset, hOffset, NULL, count, kind,
                       ORDER_ASYNC, stream);
}
cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                                    size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return linear_copy("cudaMemcpyFromArrayAsync", NULL, 0, 0, dst, ARR(src), wOffset, hOffset, NULL, count, kind,
                       ORDER_ASYNC, rt_ptsz(stream));
}
cudaError_t CUDARTAPI cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                             cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t count,
                                             enum cudaMemcpyKind kind)
{
    return linear_copy("cudaMemcpyArrayToArray", ARR(dst), wOffsetDst, hOffsetDst, NULL, ARR(src), wOffsetSrc,
                       hOffsetSrc, NULL, count, kind, ORDER_LEGACY, NULL);
}
cudaError_t CUDARTAPI cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                  cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                  size_t count, enum cudaMemcpyKind kind)
{
    return linear_copy("cudaMemcpyArrayToArray", ARR(dst), wOffsetDst, hOffsetDst, NULL, ARR(src), wOffsetSrc,
                       hOffsetSrc, NULL, count, kind, ORDER_PER_THREAD, NULL);
}
