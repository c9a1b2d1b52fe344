/*
 * src/runtime/texture.c: texture and surface objects, the runtime's twins of cuTexObject* and
 * cuSurfObject* (src/image). The runtime's descriptors carry what the driver's spell otherwise:
 * linear memory's elements as a channel descriptor (x, y, z, w bits and a kind) instead of a
 * CUarray_format and a channel count, and the texture descriptor's readMode, sRGB,
 * normalizedCoords, disableTrilinearOptimization and seamlessCubemap as fields instead of
 * CU_TRSF_* flags (readMode cudaReadModeElementType is CU_TRSF_READ_AS_INTEGER, as in NVIDIA's
 * runtime). Everything else is the driver's to judge.
 */
#include "runtime/runtime.h"

#include <string.h>

/* A channel descriptor's format and channel count: channels are the leading non-zero sizes, all
 * of the same size; false when it names no format a texture may read. */
static bool format_of(const struct cudaChannelFormatDesc *d, CUarray_format *f, unsigned *channels)
{
    int bits[4] = {d->x, d->y, d->z, d->w};
    unsigned n = 0;
    while (n < 4 && bits[n])
        ++n;
    for (unsigned i = n; i < 4; ++i)
        if (bits[i])
            return false;
    for (unsigned i = 1; i < n; ++i)
        if (bits[i] != bits[0])
            return false;
    if (n == 0)
        return false;
    *channels = n;
    switch (d->f) {
    case cudaChannelFormatKindSigned:
        *f = bits[0] == 8 ? CU_AD_FORMAT_SIGNED_INT8 : bits[0] == 16 ? CU_AD_FORMAT_SIGNED_INT16
           : bits[0] == 32 ? CU_AD_FORMAT_SIGNED_INT32 : (CUarray_format)0;
        break;
    case cudaChannelFormatKindUnsigned:
        *f = bits[0] == 8 ? CU_AD_FORMAT_UNSIGNED_INT8 : bits[0] == 16 ? CU_AD_FORMAT_UNSIGNED_INT16
           : bits[0] == 32 ? CU_AD_FORMAT_UNSIGNED_INT32 : (CUarray_format)0;
        break;
    case cudaChannelFormatKindFloat:
        *f = bits[0] == 16 ? CU_AD_FORMAT_HALF : bits[0] == 32 ? CU_AD_FORMAT_FLOAT : (CUarray_format)0;
        break;
    default: *f = (CUarray_format)0; break;
    }
    return *f != 0;
}

/* The channel descriptor of a format and channel count (the getters' way back). */
static struct cudaChannelFormatDesc desc_of(CUarray_format f, unsigned channels)
{
    struct cudaChannelFormatDesc d = {0, 0, 0, 0, cudaChannelFormatKindNone};
    int bits = 0;
    switch (f) {
    case CU_AD_FORMAT_SIGNED_INT8: bits = 8; d.f = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_SIGNED_INT16: bits = 16; d.f = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_SIGNED_INT32: bits = 32; d.f = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT8: bits = 8; d.f = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT16: bits = 16; d.f = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT32: bits = 32; d.f = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_HALF: bits = 16; d.f = cudaChannelFormatKindFloat; break;
    case CU_AD_FORMAT_FLOAT: bits = 32; d.f = cudaChannelFormatKindFloat; break;
    default: break;
    }
    int *c[4] = {&d.x, &d.y, &d.z, &d.w};
    for (unsigned i = 0; i < channels && i < 4; ++i)
        *c[i] = bits;
    return d;
}

static cudaError_t to_driver_resource(const char *fn, const struct cudaResourceDesc *in, CUDA_RESOURCE_DESC *out)
{
    memset(out, 0, sizeof(*out));
    out->resType = (CUresourcetype)in->resType;
    out->flags = in->flags;
    unsigned ch;
    CUarray_format f;
    switch (in->resType) {
    case cudaResourceTypeArray: out->res.array.hArray = (CUarray)in->res.array.array; break;
    case cudaResourceTypeMipmappedArray:
        out->res.mipmap.hMipmappedArray = (CUmipmappedArray)in->res.mipmap.mipmap;
        break;
    case cudaResourceTypeLinear:
        if (!format_of(&in->res.linear.desc, &f, &ch))
            return rt_fail(cudaErrorInvalidChannelDescriptor, "%s: pResDesc->res.linear.desc (%d, %d, %d, %d, kind %d) "
                           "names no format a texture reads", fn, in->res.linear.desc.x, in->res.linear.desc.y,
                           in->res.linear.desc.z, in->res.linear.desc.w, (int)in->res.linear.desc.f);
        out->res.linear.devPtr = (CUdeviceptr)(uintptr_t)in->res.linear.devPtr;
        out->res.linear.format = f;
        out->res.linear.numChannels = ch;
        out->res.linear.sizeInBytes = in->res.linear.sizeInBytes;
        break;
    case cudaResourceTypePitch2D:
        if (!format_of(&in->res.pitch2D.desc, &f, &ch))
            return rt_fail(cudaErrorInvalidChannelDescriptor, "%s: pResDesc->res.pitch2D.desc (%d, %d, %d, %d, kind %d) "
                           "names no format a texture reads", fn, in->res.pitch2D.desc.x, in->res.pitch2D.desc.y,
                           in->res.pitch2D.desc.z, in->res.pitch2D.desc.w, (int)in->res.pitch2D.desc.f);
        out->res.pitch2D.devPtr = (CUdeviceptr)(uintptr_t)in->res.pitch2D.devPtr;
        out->res.pitch2D.format = f;
        out->res.pitch2D.numChannels = ch;
        out->res.pitch2D.width = in->res.pitch2D.width;
        out->res.pitch2D.height = in->res.pitch2D.height;
        out->res.pitch2D.pitchInBytes = in->res.pitch2D.pitchInBytes;
        break;
    default: memcpy(&out->res, &in->res, sizeof(out->res)); break; /* the driver says what is wrong */
    }
    return cudaSuccess;
}

static void from_driver_resource(const CUDA_RESOURCE_DESC *in, struct cudaResourceDesc *out)
{
    memset(out, 0, sizeof(*out));
    out->resType = (enum cudaResourceType)in->resType;
    out->flags = in->flags;
    switch (in->resType) {
    case CU_RESOURCE_TYPE_ARRAY: out->res.array.array = (cudaArray_t)in->res.array.hArray; break;
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
        out->res.mipmap.mipmap = (cudaMipmappedArray_t)in->res.mipmap.hMipmappedArray;
        break;
    case CU_RESOURCE_TYPE_LINEAR:
        out->res.linear.devPtr = (void *)(uintptr_t)in->res.linear.devPtr;
        out->res.linear.desc = desc_of(in->res.linear.format, in->res.linear.numChannels);
        out->res.linear.sizeInBytes = in->res.linear.sizeInBytes;
        break;
    case CU_RESOURCE_TYPE_PITCH2D:
        out->res.pitch2D.devPtr = (void *)(uintptr_t)in->res.pitch2D.devPtr;
        out->res.pitch2D.desc = desc_of(in->res.pitch2D.format, in->res.pitch2D.numChannels);
        out->res.pitch2D.width = in->res.pitch2D.width;
        out->res.pitch2D.height = in->res.pitch2D.height;
        out->res.pitch2D.pitchInBytes = in->res.pitch2D.pitchInBytes;
        break;
    }
}

_Static_assert(sizeof(struct cudaResourceViewDesc) == sizeof(CUDA_RESOURCE_VIEW_DESC),
               "a runtime view is the driver's, field for field");

cudaError_t CUDARTAPI cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                              const struct cudaTextureDesc *pTexDesc,
                                              const struct cudaResourceViewDesc *pResViewDesc)
{
    static const char fn[] = "cudaCreateTextureObject";
    if (!pTexObject)
        return rt_fail(cudaErrorInvalidValue, "%s: pTexObject is NULL", fn);
    if (!pResDesc)
        return rt_fail(cudaErrorInvalidValue, "%s: pResDesc is NULL", fn);
    if (!pTexDesc)
        return rt_fail(cudaErrorInvalidValue, "%s: pTexDesc is NULL", fn);
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUDA_RESOURCE_DESC res;
    if ((err = to_driver_resource(fn, pResDesc, &res)) != cudaSuccess)
        return err;
    CUDA_TEXTURE_DESC tex;
    memset(&tex, 0, sizeof(tex));
    for (unsigned i = 0; i < 3; ++i)
        tex.addressMode[i] = (CUaddress_mode)pTexDesc->addressMode[i];
    tex.filterMode = (CUfilter_mode)pTexDesc->filterMode;
    tex.flags = (pTexDesc->readMode == cudaReadModeElementType ? CU_TRSF_READ_AS_INTEGER : 0) |
                (pTexDesc->normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0) |
                (pTexDesc->sRGB ? CU_TRSF_SRGB : 0) |
                (pTexDesc->disableTrilinearOptimization ? CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION : 0) |
                (pTexDesc->seamlessCubemap ? CU_TRSF_SEAMLESS_CUBEMAP : 0);
    if ((unsigned)pTexDesc->readMode > cudaReadModeNormalizedFloat)
        return rt_fail(cudaErrorInvalidValue, "%s: pTexDesc->readMode %d is not a cudaTextureReadMode", fn,
                       (int)pTexDesc->readMode);
    tex.maxAnisotropy = pTexDesc->maxAnisotropy;
    tex.mipmapFilterMode = (CUfilter_mode)pTexDesc->mipmapFilterMode;
    tex.mipmapLevelBias = pTexDesc->mipmapLevelBias;
    tex.minMipmapLevelClamp = pTexDesc->minMipmapLevelClamp;
    tex.maxMipmapLevelClamp = pTexDesc->maxMipmapLevelClamp;
    memcpy(tex.borderColor, pTexDesc->borderColor, sizeof(tex.borderColor));
    CUDA_RESOURCE_VIEW_DESC view;
    if (pResViewDesc)
        memcpy(&view, pResViewDesc, sizeof(view));
    return rt_cu(cuTexObjectCreate(pTexObject, &res, &tex, pResViewDesc ? &view : NULL));
}

cudaError_t CUDARTAPI cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuTexObjectDestroy(texObject));
}

cudaError_t CUDARTAPI cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject)
{
    if (!pResDesc)
        return rt_fail(cudaErrorInvalidValue, "cudaGetTextureObjectResourceDesc: pResDesc is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUDA_RESOURCE_DESC res;
    CUresult r = cuTexObjectGetResourceDesc(&res, texObject);
    if (r)
        return rt_cu(r);
    from_driver_resource(&res, pResDesc);
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject)
{
    if (!pTexDesc)
        return rt_fail(cudaErrorInvalidValue, "cudaGetTextureObjectTextureDesc: pTexDesc is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUDA_TEXTURE_DESC tex;
    memset(&tex, 0, sizeof(tex));
    CUresult r = cuTexObjectGetTextureDesc(&tex, texObject);
    if (r)
        return rt_cu(r);
    /* The driver hands back no border colour (extmem/cuda.h): the runtime's reads 0. */
    memset(pTexDesc, 0, sizeof(*pTexDesc));
    for (unsigned i = 0; i < 3; ++i)
        pTexDesc->addressMode[i] = (enum cudaTextureAddressMode)tex.addressMode[i];
    pTexDesc->filterMode = (enum cudaTextureFilterMode)tex.filterMode;
    pTexDesc->readMode = tex.flags & CU_TRSF_READ_AS_INTEGER ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
    pTexDesc->sRGB = (tex.flags & CU_TRSF_SRGB) != 0;
    pTexDesc->normalizedCoords = (tex.flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
    pTexDesc->maxAnisotropy = tex.maxAnisotropy;
    pTexDesc->mipmapFilterMode = (enum cudaTextureFilterMode)tex.mipmapFilterMode;
    pTexDesc->mipmapLevelBias = tex.mipmapLevelBias;
    pTexDesc->minMipmapLevelClamp = tex.minMipmapLevelClamp;
    pTexDesc->maxMipmapLevelClamp = tex.maxMipmapLevelClamp;
    pTexDesc->disableTrilinearOptimization = (tex.flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION) != 0;
    pTexDesc->seamlessCubemap = (tex.flags & CU_TRSF_SEAMLESS_CUBEMAP) != 0;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc,
                                                           cudaTextureObject_t texObject)
{
    if (!pResViewDesc)
        return rt_fail(cudaErrorInvalidValue, "cudaGetTextureObjectResourceViewDesc: pResViewDesc is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuTexObjectGetResourceViewDesc((CUDA_RESOURCE_VIEW_DESC *)pResViewDesc, texObject));
}

cudaError_t CUDARTAPI cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc)
{
    static const char fn[] = "cudaCreateSurfaceObject";
    if (!pSurfObject)
        return rt_fail(cudaErrorInvalidValue, "%s: pSurfObject is NULL", fn);
    if (!pResDesc)
        return rt_fail(cudaErrorInvalidValue, "%s: pResDesc is NULL", fn);
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUDA_RESOURCE_DESC res;
    if ((err = to_driver_resource(fn, pResDesc, &res)) != cudaSuccess)
        return err;
    return rt_cu(cuSurfObjectCreate(pSurfObject, &res));
}

cudaError_t CUDARTAPI cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuSurfObjectDestroy(surfObject));
}

cudaError_t CUDARTAPI cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject)
{
    if (!pResDesc)
        return rt_fail(cudaErrorInvalidValue, "cudaGetSurfaceObjectResourceDesc: pResDesc is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUDA_RESOURCE_DESC res;
    CUresult r = cuSurfObjectGetResourceDesc(&res, surfObject);
    if (r)
        return rt_cu(r);
    from_driver_resource(&res, pResDesc);
    return cudaSuccess;
}
