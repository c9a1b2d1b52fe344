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

/* A channel descriptor's format and channel count: channels are the leading non-zero sizes (1,
 * 2 or 4), all of the same size; false when it names no format a texture may read. */
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
    if (n == 0 || n == 3)
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

/* NVIDIA's runtime answers cudaErrorInvalidNormSetting to a channel descriptor of a normalized
 * or block-compressed kind for linear memory (rt_texobj_probe.out: UnsignedNormalized8X1), and
 * cudaErrorInvalidChannelDescriptor to the others that name no format. */
static cudaError_t bad_desc(const char *fn, const char *what, const struct cudaChannelFormatDesc *d)
{
    cudaError_t code = (int)d->f >= 5 && (int)d->f <= 31 ? cudaErrorInvalidNormSetting
                                                          : cudaErrorInvalidChannelDescriptor;
    return rt_fail(code, "%s: %s (%d, %d, %d, %d, kind %d) names no format linear memory is read as (1, 2 or 4 "
                   "channels of one size: signed or unsigned 8, 16, 32 bits, float 16 or 32)", fn, what, d->x, d->y,
                   d->z, d->w, (int)d->f);
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
            return bad_desc(fn, "pResDesc->res.linear.desc", &in->res.linear.desc);
        out->res.linear.devPtr = (CUdeviceptr)(uintptr_t)in->res.linear.devPtr;
        out->res.linear.format = f;
        out->res.linear.numChannels = ch;
        out->res.linear.sizeInBytes = in->res.linear.sizeInBytes;
        break;
    case cudaResourceTypePitch2D:
        if (!format_of(&in->res.pitch2D.desc, &f, &ch))
            return bad_desc(fn, "pResDesc->res.pitch2D.desc", &in->res.pitch2D.desc);
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

/* The format a resource's texels have: linear memory's, or an array's (a mipmapped array's
 * level 0); 0 when the driver is left to judge the resource. */
static CUarray_format resource_format(const CUDA_RESOURCE_DESC *res)
{
    CUDA_ARRAY3D_DESCRIPTOR d;
    CUarray level = NULL;
    switch (res->resType) {
    case CU_RESOURCE_TYPE_LINEAR: return res->res.linear.format;
    case CU_RESOURCE_TYPE_PITCH2D: return res->res.pitch2D.format;
    case CU_RESOURCE_TYPE_ARRAY:
        return res->res.array.hArray && cuArray3DGetDescriptor(&d, res->res.array.hArray) == CUDA_SUCCESS
                   ? d.Format : (CUarray_format)0;
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
        if (!res->res.mipmap.hMipmappedArray ||
            cuMipmappedArrayGetLevel(&level, res->res.mipmap.hMipmappedArray, 0) != CUDA_SUCCESS)
            return (CUarray_format)0;
        return cuArray3DGetDescriptor(&d, level) == CUDA_SUCCESS ? d.Format : (CUarray_format)0;
    default: return (CUarray_format)0;
    }
}

/* What NVIDIA's runtime checks of the read mode itself (rt_texobj_probe.out): texels read as
 * normalized floats must be 8 or 16-bit integers (a float array: cudaErrorInvalidNormSetting,
 * as the Programming Guide says of cudaReadModeNormalizedFloat), and integers read as
 * integers are not filtered linearly (cudaErrorInvalidFilterSetting; the driver itself takes
 * CU_TRSF_READ_AS_INTEGER with linear filtering). Any readMode other than ElementType reads as
 * normalized floats, as there. */
static cudaError_t check_read_mode(const char *fn, const CUDA_RESOURCE_DESC *res, const struct cudaTextureDesc *t)
{
    CUarray_format f = resource_format(res);
    bool small_int = f == CU_AD_FORMAT_UNSIGNED_INT8 || f == CU_AD_FORMAT_SIGNED_INT8 ||
                     f == CU_AD_FORMAT_UNSIGNED_INT16 || f == CU_AD_FORMAT_SIGNED_INT16;
    bool integer = small_int || f == CU_AD_FORMAT_UNSIGNED_INT32 || f == CU_AD_FORMAT_SIGNED_INT32;
    /* Block-compressed formats (part texfilter, docs/probes/kernels/texfilter/probe.txt): BC6H
     * reads its halves as elements only, the others are read as normalized floats only. */
    if ((f >= CU_AD_FORMAT_P010 && f <= CU_AD_FORMAT_Y410) || ((unsigned)f >= CU_AD_FORMAT_NV12 && (unsigned)f <= 0xb5u))
        return cudaSuccess; /* video formats: the driver refuses the texture (cudaErrorInvalidValue) */
    if (f >= CU_AD_FORMAT_BC1_UNORM && f <= CU_AD_FORMAT_BC7_UNORM_SRGB) {
        bool halves = f == CU_AD_FORMAT_BC6H_UF16 || f == CU_AD_FORMAT_BC6H_SF16;
        if ((t->readMode == cudaReadModeElementType) != halves)
            return rt_fail(cudaErrorInvalidNormSetting, "%s: a texture of block-compressed format 0x%x is read %s", fn,
                           (unsigned)f, halves ? "as elements (cudaReadModeElementType: BC6H holds halves)"
                                               : "as normalized floats (cudaReadModeNormalizedFloat)");
        return cudaSuccess;
    }
    if (t->readMode != cudaReadModeElementType && f && !small_int)
        return rt_fail(cudaErrorInvalidNormSetting, "%s: cudaReadModeNormalizedFloat reads 8 or 16-bit integers as "
                       "normalized floats; the resource's format is 0x%x", fn, (unsigned)f);
    if (t->readMode == cudaReadModeElementType && integer && t->filterMode == cudaFilterModeLinear)
        return rt_fail(cudaErrorInvalidFilterSetting, "%s: integers read as integers (cudaReadModeElementType) are "
                       "not filtered linearly: use cudaReadModeNormalizedFloat or cudaFilterModePoint", fn);
    return cudaSuccess;
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
    /* NVIDIA's runtime answers cudaErrorInvalidResourceHandle here (rt_texobj_probe.out). */
    if (!pTexDesc)
        return rt_fail(cudaErrorInvalidResourceHandle, "%s: pTexDesc is NULL", fn);
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUDA_RESOURCE_DESC res;
    if ((err = to_driver_resource(fn, pResDesc, &res)) != cudaSuccess)
        return err;
    if ((err = check_read_mode(fn, &res, pTexDesc)) != cudaSuccess)
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
    if (!pTexDesc) /* cudaErrorInvalidResourceHandle on NVIDIA's runtime (rt_texobj_probe.out) */
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaGetTextureObjectTextureDesc: pTexDesc is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUDA_TEXTURE_DESC tex;
    memset(&tex, 0, sizeof(tex));
    CUresult r = cuTexObjectGetTextureDesc(&tex, texObject);
    if (r)
        return rt_cu(r);
    /* The driver hands back no border colour (extmem/cuda.h): the runtime's reads 0 (NVIDIA's
     * gave the colour for one object of the probe and bytes of its stack for another). */
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
