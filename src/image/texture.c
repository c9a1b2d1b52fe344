/*
 * src/image/texture.c: texture objects (cuTexObject*) and what texture and surface objects
 * share: the resource descriptor's checks, the registry of live objects and their teardown with
 * their context.
 *
 * Every check here is the one NVIDIA's driver 580 makes, with its code, as the probe in
 * docs/probes/images/texobj/ saw it on an H100 (docs/images.md, "Texture and surface objects").
 * The driver answers CUDA_ERROR_INVALID_VALUE to every bad descriptor; it does not look at a
 * linear or pitch-2D resource's pointer beyond its alignment (a freed, host or forged pointer
 * is accepted, and so is a size past the allocation): extmem accepts them too, and a kernel that
 * reads such a texture faults (image_for_kernel finds no device memory under it).
 */
#include "image/image.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- The live objects, for their context's teardown ---- */

static os_mutex live_lock = OS_MUTEX_INITIALIZER;
static struct list_node live = {&live, &live};

static void view_free(struct obj *o)
{
    struct image_view *v = (struct image_view *)o;
    if (v->array)
        image_array_put(v->array);
    if (v->mipmap)
        image_mipmap_put(v->mipmap);
    ctx_release(v->ctx);
    free(v);
}

/* The context's teardown (device.h: after modules, before memory): its objects' handles die;
 * the arrays they held go with their last reference. */
static void views_of_context_die(struct ctx *ctx)
{
    for (;;) {
        struct image_view *v = NULL;
        os_mutex_lock(&live_lock);
        for (struct list_node *n = live.next; n != &live; n = n->next) {
            struct image_view *c = list_entry(n, struct image_view, node);
            if (c->ctx == ctx) {
                v = c;
                list_del(&c->node);
                break;
            }
        }
        os_mutex_unlock(&live_lock);
        if (!v)
            return;
        obj_unregister(&v->obj);
    }
}

static const struct ctx_step teardown_step = {CTX_STEP_IMAGE_OBJECTS, views_of_context_die};

uint64_t image_view_register(struct image_view *v, obj_type type)
{
    os_mutex_lock(&v->ctx->lock);
    ctx_add_teardown(v->ctx, &teardown_step);
    os_mutex_unlock(&v->ctx->lock);
    uint64_t h = obj_register(&v->obj, type, view_free);
    if (!h)
        return 0;
    os_mutex_lock(&live_lock);
    list_add(&live, &v->node);
    os_mutex_unlock(&live_lock);
    return h;
}

static const char *kind_name(obj_type type) { return type == OBJ_TEXTURE ? "texture object" : "surface object"; }

CUresult image_view_get(const char *fn, uint64_t handle, obj_type type, struct image_view **out)
{
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    struct obj *o;
    obj_status st = obj_lookup(handle, type, &o);
    if (st != OBJ_FOUND) {
        ctx_release(ctx);
        /* The driver answers INVALID_VALUE, not INVALID_HANDLE, to every handle it does not
         * know (0, destroyed, forged, the other kind's). */
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s", fn, obj_status_text(st, type, handle));
    }
    struct image_view *v = (struct image_view *)o;
    if (v->ctx != ctx) {
        ctx_release(ctx);
        obj_release(o);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx was made in another context: the driver's texture and "
                    "surface objects are the context's", fn, kind_name(type), (unsigned long long)handle);
    }
    ctx_release(ctx);
    *out = v;
    return CUDA_SUCCESS;
}

void image_view_put(struct image_view *v) { obj_release(&v->obj); }

CUresult image_view_destroy(const char *fn, uint64_t handle, obj_type type)
{
    REQUIRE_INIT(fn);
    struct obj *o;
    obj_status st = obj_lookup(handle, type, &o);
    if (st != OBJ_FOUND) {
        /* Driver 580 answers CUDA_SUCCESS to 0, a destroyed handle, a forged one and the other
         * kind's (docs/probes/images/texobj/texobj_probe.out): so does extmem, saying so. */
        if (handle)
            log_warn("%s: %s: nothing destroyed (CUDA_SUCCESS, as the driver answers)", fn,
                     obj_status_text(st, type, handle));
        return CUDA_SUCCESS;
    }
    struct image_view *v = (struct image_view *)o;
    bool mine = false;
    os_mutex_lock(&live_lock);
    for (struct list_node *n = live.next; n != &live; n = n->next)
        if (n == &v->node) {
            list_del(&v->node);
            mine = true;
            break;
        }
    os_mutex_unlock(&live_lock);
    if (mine)
        obj_unregister(&v->obj); /* a racing destroy or the context's teardown took it otherwise */
    obj_release(o);
    return CUDA_SUCCESS;
}

static void view_resource(const struct image_view *v, CUDA_RESOURCE_DESC *out)
{
    *out = v->res;
    /* The driver hands back a NULL array once the array's handle was destroyed (the texture
     * still reads it: its memory is kept by the object's reference). */
    struct obj *o;
    if (v->res.resType == CU_RESOURCE_TYPE_ARRAY) {
        if (obj_lookup((uint64_t)(uintptr_t)v->res.res.array.hArray, OBJ_ARRAY, &o) == OBJ_FOUND)
            obj_release(o);
        else
            out->res.array.hArray = NULL;
    } else if (v->res.resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY) {
        if (obj_lookup((uint64_t)(uintptr_t)v->res.res.mipmap.hMipmappedArray, OBJ_MIPMAPPED_ARRAY, &o) == OBJ_FOUND)
            obj_release(o);
        else
            out->res.mipmap.hMipmappedArray = NULL;
    }
}

CUresult image_view_resource_desc(const char *fn, CUDA_RESOURCE_DESC *out, uint64_t handle, obj_type type)
{
    REQUIRE_INIT(fn);
    if (!out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc is NULL", fn);
    struct image_view *v;
    CUresult r = image_view_get(fn, handle, type, &v);
    if (r)
        return r;
    view_resource(v, out);
    image_view_put(v);
    return CUDA_SUCCESS;
}

/* ---- The resource descriptor ---- */

/* The formats a linear or pitch-2D resource may have: the integer, half and float ones and the
 * packed 10-10-10-2 (driver 580 refuses the others, the block-compressed, video and UNORM_INTnXm
 * ones). */
static bool linear_format(CUarray_format f)
{
    switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_UNSIGNED_INT32:
    case CU_AD_FORMAT_SIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT32:
    case CU_AD_FORMAT_HALF:
    case CU_AD_FORMAT_FLOAT:
    case CU_AD_FORMAT_UNORM_INT_101010_2: return true;
    default: return false;
    }
}

static unsigned linear_element_bytes(CUarray_format f, unsigned channels)
{
    unsigned b;
    switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8: b = 1; break;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF: b = 2; break;
    default: b = 4; break; /* 32-bit formats; 101010_2 is one 32-bit word whatever channels say */
    }
    return f == CU_AD_FORMAT_UNORM_INT_101010_2 ? 4 : b * channels;
}

static CUresult check_linear_format(const char *fn, const char *what, CUarray_format f, unsigned channels)
{
    if (!linear_format(f))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s.format 0x%x is not a format linear memory can be read as (8, 16 "
                    "or 32-bit integers, half, float, UNORM_INT_101010_2)", fn, what, (unsigned)f);
    if (channels != 1 && channels != 2 && channels != 4)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s.numChannels %u: it must be 1, 2 or 4", fn, what, channels);
    return CUDA_SUCCESS;
}

static CUresult check_linear(const char *fn, const CUDA_RESOURCE_DESC *res)
{
    CUdeviceptr p = res->res.linear.devPtr;
    if (!p)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc->res.linear.devPtr is NULL", fn);
    if (p % DEVICE_TEXTURE_ALIGNMENT)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc->res.linear.devPtr 0x%llx is not aligned to %d bytes "
                    "(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT)", fn, (unsigned long long)p, DEVICE_TEXTURE_ALIGNMENT);
    CUresult r = check_linear_format(fn, "pResDesc->res.linear", res->res.linear.format, res->res.linear.numChannels);
    if (r)
        return r;
    /* Driver 580 takes 1 GiB + 4 bytes of float1 (past 2^28 elements, the 1D linear width it
     * reports) and refuses 4 GiB + 16 of float4: what it bounds is the size in bytes, which must
     * fit 32 bits (docs/images.md). */
    if (res->res.linear.sizeInBytes > UINT32_MAX)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc->res.linear.sizeInBytes %zu is more than the 4 GiB a linear "
                    "texture may span", fn, res->res.linear.sizeInBytes);
    return CUDA_SUCCESS;
}

static CUresult check_pitch2d(const char *fn, const CUDA_RESOURCE_DESC *res)
{
    CUdeviceptr p = res->res.pitch2D.devPtr;
    if (!p)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc->res.pitch2D.devPtr is NULL", fn);
    if (p % DEVICE_TEXTURE_ALIGNMENT)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc->res.pitch2D.devPtr 0x%llx is not aligned to %d bytes "
                    "(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT)", fn, (unsigned long long)p, DEVICE_TEXTURE_ALIGNMENT);
    CUresult r = check_linear_format(fn, "pResDesc->res.pitch2D", res->res.pitch2D.format, res->res.pitch2D.numChannels);
    if (r)
        return r;
    size_t w = res->res.pitch2D.width, h = res->res.pitch2D.height, pitch = res->res.pitch2D.pitchInBytes;
    if (pitch % DEVICE_TEXTURE_PITCH_ALIGNMENT)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc->res.pitch2D.pitchInBytes %zu is not a multiple of %d "
                    "(CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT)", fn, pitch, DEVICE_TEXTURE_PITCH_ALIGNMENT);
    if (w > DEVICE_TEXTURE2D_LINEAR_WIDTH)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc->res.pitch2D.width %zu is more than %d "
                    "(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH)", fn, w, DEVICE_TEXTURE2D_LINEAR_WIDTH);
    if (h > DEVICE_TEXTURE2D_LINEAR_HEIGHT)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc->res.pitch2D.height %zu is more than %d "
                    "(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT)", fn, h, DEVICE_TEXTURE2D_LINEAR_HEIGHT);
    if (pitch > DEVICE_TEXTURE2D_LINEAR_PITCH)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc->res.pitch2D.pitchInBytes %zu is more than %d "
                    "(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH)", fn, pitch, DEVICE_TEXTURE2D_LINEAR_PITCH);
    /* Driver 580 takes a width, height or pitch of 0 and a row wider than the pitch; a kernel
     * reads such a texture inside its extent (kernel_view.c). */
    return CUDA_SUCCESS;
}

CUresult image_resource_take(const char *fn, const CUDA_RESOURCE_DESC *res, bool surface, struct image_view *v)
{
    if (res->flags)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc->flags 0x%x: it must be 0", fn, res->flags);
    CUresult r;
    switch (res->resType) {
    case CU_RESOURCE_TYPE_ARRAY: {
        if (!res->res.array.hArray)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc->res.array.hArray is NULL", fn);
        /* A destroyed array is INVALID_VALUE on the driver; a forged one crashes it: extmem says
         * INVALID_VALUE to both (DESIGN.md §4). */
        struct image_array *a;
        if ((r = image_array_get(fn, "pResDesc->res.array.hArray", res->res.array.hArray, &a)))
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc->res.array.hArray %p is no live array", fn,
                        (void *)res->res.array.hArray);
        /* A surface over an array made without CUDA_ARRAY3D_SURFACE_LDST: the documentation
         * says the flag is needed, driver 580 takes the array all the same
         * (texobj_probe.out, "surf on array without SURFACE_LDST"), and so does extmem. */
        if (surface && !(a->desc.Flags & CUDA_ARRAY3D_SURFACE_LDST))
            log_info("%s: the array %p was made without CUDA_ARRAY3D_SURFACE_LDST; taken, as driver 580 takes it",
                     fn, (void *)res->res.array.hArray);
        v->array = a;
        break;
    }
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: {
        if (surface)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: a surface object is made over an array (a mipmapped array's "
                        "level: cuMipmappedArrayGetLevel), not over a mipmapped array", fn);
        if (!res->res.mipmap.hMipmappedArray)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc->res.mipmap.hMipmappedArray is NULL", fn);
        struct image_mipmap *m;
        if ((r = image_mipmap_get(fn, "pResDesc->res.mipmap.hMipmappedArray", res->res.mipmap.hMipmappedArray, &m)))
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc->res.mipmap.hMipmappedArray %p is no live mipmapped "
                        "array", fn, (void *)res->res.mipmap.hMipmappedArray);
        v->mipmap = m;
        break;
    }
    case CU_RESOURCE_TYPE_LINEAR:
    case CU_RESOURCE_TYPE_PITCH2D:
        if (surface)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc->resType %s: a surface object is made over an array "
                        "(CU_RESOURCE_TYPE_ARRAY) only", fn,
                        res->resType == CU_RESOURCE_TYPE_LINEAR ? "CU_RESOURCE_TYPE_LINEAR" : "CU_RESOURCE_TYPE_PITCH2D");
        r = res->resType == CU_RESOURCE_TYPE_LINEAR ? check_linear(fn, res) : check_pitch2d(fn, res);
        if (r)
            return r;
        break;
    default:
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc->resType %d is not a CUresourcetype", fn, (int)res->resType);
    }
    v->res = *res;
    return CUDA_SUCCESS;
}

/* ---- The texture descriptor and the view ---- */

/* The array flags of the resource (0 for linear memory), its dimensions as address modes count
 * them, and its level 0. */
static unsigned resource_flags(const struct image_view *v)
{
    return v->array ? v->array->desc.Flags : v->mipmap ? v->mipmap->desc.Flags : 0;
}

static unsigned resource_dims(const struct image_view *v)
{
    if (v->res.resType == CU_RESOURCE_TYPE_LINEAR)
        return 1;
    if (v->res.resType == CU_RESOURCE_TYPE_PITCH2D)
        return 2;
    const CUDA_ARRAY3D_DESCRIPTOR *d = v->array ? &v->array->desc : &v->mipmap->desc;
    if (d->Flags & (CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED))
        return d->Height ? 2 : 1; /* faces and layers are no addressed dimension */
    return d->Depth ? 3 : d->Height ? 2 : 1;
}

#define TRSF_KNOWN 0x7fu /* the CU_TRSF_* bits and the two unnamed ones (0x04, 0x08) the driver takes */

static CUresult check_texture_desc(const char *fn, const CUDA_TEXTURE_DESC *t, const struct image_view *v)
{
    for (unsigned i = 0; i < sizeof(t->reserved) / sizeof(t->reserved[0]); ++i)
        if (t->reserved[i])
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: pTexDesc->reserved[%u] is %d: it must be 0", fn, i, t->reserved[i]);
    /* The driver looks only at the address modes of the dimensions the resource has (a linear
     * texture's addressMode[1] may be anything). */
    unsigned dims = resource_dims(v);
    for (unsigned i = 0; i < dims; ++i)
        if ((unsigned)t->addressMode[i] > CU_TR_ADDRESS_MODE_BORDER)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: pTexDesc->addressMode[%u] %d is not a CUaddress_mode", fn, i,
                        (int)t->addressMode[i]);
    if ((unsigned)t->filterMode > CU_TR_FILTER_MODE_LINEAR)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pTexDesc->filterMode %d is not a CUfilter_mode", fn, (int)t->filterMode);
    if (t->flags & ~TRSF_KNOWN)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pTexDesc->flags 0x%x has unknown bits 0x%x", fn, t->flags,
                    t->flags & ~TRSF_KNOWN);
    if ((t->flags & CU_TRSF_SEAMLESS_CUBEMAP) && !(resource_flags(v) & CUDA_ARRAY3D_CUBEMAP))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pTexDesc->flags has CU_TRSF_SEAMLESS_CUBEMAP and the resource is no "
                    "cubemap", fn);
    if ((unsigned)t->mipmapFilterMode > CU_TR_FILTER_MODE_LINEAR)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pTexDesc->mipmapFilterMode %d is not a CUfilter_mode", fn,
                    (int)t->mipmapFilterMode);
    /* Formats (part texfilter, docs/probes/kernels/texfilter/probe.txt, driver 580): a texture
     * over a video-format array (planar or packed) is INVALID_VALUE, its planes are read as the
     * plain arrays they are; the sRGB block-compressed formats need CU_TRSF_SRGB (without it:
     * INVALID_VALUE, in either read mode). */
    CUarray_format af = v->array ? v->array->desc.Format : v->mipmap ? v->mipmap->desc.Format : (CUarray_format)0;
    if ((af >= CU_AD_FORMAT_P010 && af <= CU_AD_FORMAT_Y410) ||
        ((unsigned)af >= CU_AD_FORMAT_NV12 && (unsigned)af <= 0xb5u)) /* NV12 ... the 4:4:4 semi-planar ones */
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the resource's format 0x%x is a video format, which textures do not "
                    "read (a texture over one of its planes, cuArrayGetPlane, does)", fn, (unsigned)af);
    if ((af == CU_AD_FORMAT_BC1_UNORM_SRGB || af == CU_AD_FORMAT_BC2_UNORM_SRGB || af == CU_AD_FORMAT_BC3_UNORM_SRGB ||
         af == CU_AD_FORMAT_BC7_UNORM_SRGB) && !(t->flags & CU_TRSF_SRGB))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the resource's format 0x%x is an sRGB block-compressed format: "
                    "pTexDesc->flags needs CU_TRSF_SRGB", fn, (unsigned)af);
    /* maxAnisotropy, the LOD bias and clamps and the border colour may be anything on the
     * driver (NaN, a minimum clamp above the maximum, 2^32 - 1): the sampler clamps them. Linear
     * filtering of an integer format read as integers is taken too. */
    return CUDA_SUCCESS;
}

CUarray_format image_view_format(CUresourceViewFormat f, unsigned *channels, bool *block)
{
    static const struct {
        CUarray_format format;
        unsigned char channels;
    } plain[] = {
        [CU_RES_VIEW_FORMAT_UINT_1X8] = {CU_AD_FORMAT_UNSIGNED_INT8, 1},
        [CU_RES_VIEW_FORMAT_UINT_2X8] = {CU_AD_FORMAT_UNSIGNED_INT8, 2},
        [CU_RES_VIEW_FORMAT_UINT_4X8] = {CU_AD_FORMAT_UNSIGNED_INT8, 4},
        [CU_RES_VIEW_FORMAT_SINT_1X8] = {CU_AD_FORMAT_SIGNED_INT8, 1},
        [CU_RES_VIEW_FORMAT_SINT_2X8] = {CU_AD_FORMAT_SIGNED_INT8, 2},
        [CU_RES_VIEW_FORMAT_SINT_4X8] = {CU_AD_FORMAT_SIGNED_INT8, 4},
        [CU_RES_VIEW_FORMAT_UINT_1X16] = {CU_AD_FORMAT_UNSIGNED_INT16, 1},
        [CU_RES_VIEW_FORMAT_UINT_2X16] = {CU_AD_FORMAT_UNSIGNED_INT16, 2},
        [CU_RES_VIEW_FORMAT_UINT_4X16] = {CU_AD_FORMAT_UNSIGNED_INT16, 4},
        [CU_RES_VIEW_FORMAT_SINT_1X16] = {CU_AD_FORMAT_SIGNED_INT16, 1},
        [CU_RES_VIEW_FORMAT_SINT_2X16] = {CU_AD_FORMAT_SIGNED_INT16, 2},
        [CU_RES_VIEW_FORMAT_SINT_4X16] = {CU_AD_FORMAT_SIGNED_INT16, 4},
        [CU_RES_VIEW_FORMAT_UINT_1X32] = {CU_AD_FORMAT_UNSIGNED_INT32, 1},
        [CU_RES_VIEW_FORMAT_UINT_2X32] = {CU_AD_FORMAT_UNSIGNED_INT32, 2},
        [CU_RES_VIEW_FORMAT_UINT_4X32] = {CU_AD_FORMAT_UNSIGNED_INT32, 4},
        [CU_RES_VIEW_FORMAT_SINT_1X32] = {CU_AD_FORMAT_SIGNED_INT32, 1},
        [CU_RES_VIEW_FORMAT_SINT_2X32] = {CU_AD_FORMAT_SIGNED_INT32, 2},
        [CU_RES_VIEW_FORMAT_SINT_4X32] = {CU_AD_FORMAT_SIGNED_INT32, 4},
        [CU_RES_VIEW_FORMAT_FLOAT_1X16] = {CU_AD_FORMAT_HALF, 1},
        [CU_RES_VIEW_FORMAT_FLOAT_2X16] = {CU_AD_FORMAT_HALF, 2},
        [CU_RES_VIEW_FORMAT_FLOAT_4X16] = {CU_AD_FORMAT_HALF, 4},
        [CU_RES_VIEW_FORMAT_FLOAT_1X32] = {CU_AD_FORMAT_FLOAT, 1},
        [CU_RES_VIEW_FORMAT_FLOAT_2X32] = {CU_AD_FORMAT_FLOAT, 2},
        [CU_RES_VIEW_FORMAT_FLOAT_4X32] = {CU_AD_FORMAT_FLOAT, 4},
        [CU_RES_VIEW_FORMAT_UNSIGNED_BC1] = {CU_AD_FORMAT_BC1_UNORM, 4},
        [CU_RES_VIEW_FORMAT_UNSIGNED_BC2] = {CU_AD_FORMAT_BC2_UNORM, 4},
        [CU_RES_VIEW_FORMAT_UNSIGNED_BC3] = {CU_AD_FORMAT_BC3_UNORM, 4},
        [CU_RES_VIEW_FORMAT_UNSIGNED_BC4] = {CU_AD_FORMAT_BC4_UNORM, 1},
        [CU_RES_VIEW_FORMAT_SIGNED_BC4] = {CU_AD_FORMAT_BC4_SNORM, 1},
        [CU_RES_VIEW_FORMAT_UNSIGNED_BC5] = {CU_AD_FORMAT_BC5_UNORM, 2},
        [CU_RES_VIEW_FORMAT_SIGNED_BC5] = {CU_AD_FORMAT_BC5_SNORM, 2},
        [CU_RES_VIEW_FORMAT_UNSIGNED_BC6H] = {CU_AD_FORMAT_BC6H_UF16, 3},
        [CU_RES_VIEW_FORMAT_SIGNED_BC6H] = {CU_AD_FORMAT_BC6H_SF16, 3},
        [CU_RES_VIEW_FORMAT_UNSIGNED_BC7] = {CU_AD_FORMAT_BC7_UNORM, 4},
    };
    *channels = 0;
    *block = (unsigned)f >= CU_RES_VIEW_FORMAT_UNSIGNED_BC1 && (unsigned)f <= CU_RES_VIEW_FORMAT_UNSIGNED_BC7;
    if ((unsigned)f == 0 || (unsigned)f >= sizeof(plain) / sizeof(plain[0]))
        return (CUarray_format)0;
    *channels = plain[f].channels;
    return plain[f].format;
}

/* Bytes of one element of a view format (a block for the BC ones). */
static unsigned view_element_bytes(CUresourceViewFormat f)
{
    unsigned ch;
    bool block;
    CUarray_format af = image_view_format(f, &ch, &block);
    if (block)
        return af == CU_AD_FORMAT_BC1_UNORM || af == CU_AD_FORMAT_BC4_UNORM || af == CU_AD_FORMAT_BC4_SNORM ? 8 : 16;
    return linear_element_bytes(af, ch);
}

/* The checks driver 580 makes on a view (texobj_probe.out, "== views"): the element's size is
 * the array's (a block-compressed view of 8 or 16-byte elements spans 4x4 texels of each); the
 * extent is level 0's (in texels); depth is the array's depth or layers, 0 for a 2D array; the
 * levels and layers run forward, and the driver takes a last level or layer one past the end. */
static CUresult check_view(const char *fn, const CUDA_RESOURCE_VIEW_DESC *w, const struct image_view *v)
{
    for (unsigned i = 0; i < sizeof(w->reserved) / sizeof(w->reserved[0]); ++i)
        if (w->reserved[i])
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResViewDesc->reserved[%u] is %u: it must be 0", fn, i,
                        w->reserved[i]);
    unsigned ch;
    bool block;
    if (image_view_format(w->format, &ch, &block) == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResViewDesc->format %d is not a CUresourceViewFormat a view may "
                    "have", fn, (int)w->format);
    unsigned vbytes = view_element_bytes(w->format);
    if (!v->array && !v->mipmap) {
        /* Linear memory: the driver takes a view and reads the memory as the resource says;
         * extmem asks that the view keep the element's size, so both read the same texels. */
        CUarray_format rf = v->res.resType == CU_RESOURCE_TYPE_LINEAR ? v->res.res.linear.format : v->res.res.pitch2D.format;
        unsigned rch = v->res.resType == CU_RESOURCE_TYPE_LINEAR ? v->res.res.linear.numChannels
                                                                 : v->res.res.pitch2D.numChannels;
        if (block || vbytes != linear_element_bytes(rf, rch))
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResViewDesc->format %d has elements of %u bytes; the linear "
                        "resource's have %u", fn, (int)w->format, vbytes, linear_element_bytes(rf, rch));
        return CUDA_SUCCESS;
    }
    const CUDA_ARRAY3D_DESCRIPTOR *d = v->array ? &v->array->desc : &v->mipmap->desc;
    unsigned abytes = v->array ? v->array->elem_bytes : v->mipmap->elem_bytes;
    if (vbytes != abytes)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResViewDesc->format %d has elements of %u bytes; the array's have %u",
                    fn, (int)w->format, vbytes, abytes);
    /* A block-compressed view of plain elements spans 4x4 texels of each; over a
     * block-compressed array the extents are texels already (image.h). */
    bool array_block = d->Format >= CU_AD_FORMAT_BC1_UNORM && d->Format <= CU_AD_FORMAT_BC7_UNORM_SRGB;
    size_t scale = block && !array_block ? 4 : 1;
    if (w->width != d->Width * scale || w->height != d->Height * scale)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResViewDesc's extent %zux%zu is not the array's (%zux%zu %s)", fn,
                    w->width, w->height, d->Width * scale, d->Height * scale, block ? "texels" : "elements");
    if (w->depth != d->Depth)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResViewDesc->depth %zu is not the array's depth or layers (%zu)", fn,
                    w->depth, d->Depth);
    unsigned levels = v->mipmap ? v->mipmap->nlevels : 1;
    if (w->firstMipmapLevel > w->lastMipmapLevel || (levels == 1 ? w->lastMipmapLevel != 0 : w->lastMipmapLevel > levels))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResViewDesc's levels %u..%u are not levels of the resource (%u)", fn,
                    w->firstMipmapLevel, w->lastMipmapLevel, levels);
    bool layered = d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
    if (w->firstLayer > w->lastLayer || (layered ? w->lastLayer > d->Depth : w->lastLayer != 0))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResViewDesc's layers %u..%u are not layers of the resource (%zu)", fn,
                    w->firstLayer, w->lastLayer, layered ? d->Depth : (size_t)1);
    return CUDA_SUCCESS;
}

/* ---- Entry points ---- */

CUresult CUDAAPI cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                                   const CUDA_TEXTURE_DESC *pTexDesc, const CUDA_RESOURCE_VIEW_DESC *pResViewDesc)
{
    static const char fn[] = "cuTexObjectCreate";
    REQUIRE_INIT(fn);
    if (!pTexObject)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pTexObject is NULL", fn);
    if (!pResDesc)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc is NULL", fn);
    if (!pTexDesc)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pTexDesc is NULL", fn);
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    struct image_view *v = calloc(1, sizeof(*v));
    if (!v) {
        ctx_release(ctx);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: no host memory for the texture object", fn);
    }
    v->ctx = ctx;
    if ((r = image_resource_take(fn, pResDesc, false, v)))
        goto fail;
    if ((r = check_texture_desc(fn, pTexDesc, v)))
        goto fail;
    if (pResViewDesc && (r = check_view(fn, pResViewDesc, v)))
        goto fail;
    v->tex = *pTexDesc;
    if (pResViewDesc) {
        v->view = *pResViewDesc;
        v->has_view = true;
    }
    image_view_fill_kernel(v, false);
    uint64_t h = image_view_register(v, OBJ_TEXTURE);
    if (!h) {
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: the handle registry is full", fn);
        goto fail;
    }
    *pTexObject = h;
    return CUDA_SUCCESS;
fail:
    view_free(&v->obj);
    return r;
}

CUresult CUDAAPI cuTexObjectDestroy(CUtexObject texObject)
{
    return image_view_destroy("cuTexObjectDestroy", texObject, OBJ_TEXTURE);
}

CUresult CUDAAPI cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject)
{
    return image_view_resource_desc("cuTexObjectGetResourceDesc", pResDesc, texObject, OBJ_TEXTURE);
}

CUresult CUDAAPI cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject)
{
    static const char fn[] = "cuTexObjectGetTextureDesc";
    REQUIRE_INIT(fn);
    if (!pTexDesc)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pTexDesc is NULL", fn);
    struct image_view *v;
    CUresult r = image_view_get(fn, texObject, OBJ_TEXTURE, &v);
    if (r)
        return r;
    /* Driver 580 writes the fields up to maxMipmapLevelClamp and leaves borderColor and
     * reserved as the caller had them (texobj_probe.out, "== more getters"): so does extmem. */
    memcpy(pTexDesc, &v->tex, offsetof(CUDA_TEXTURE_DESC, borderColor));
    image_view_put(v);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *pResViewDesc, CUtexObject texObject)
{
    static const char fn[] = "cuTexObjectGetResourceViewDesc";
    REQUIRE_INIT(fn);
    if (!pResViewDesc)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResViewDesc is NULL", fn);
    struct image_view *v;
    CUresult r = image_view_get(fn, texObject, OBJ_TEXTURE, &v);
    if (r)
        return r;
    /* A texture made without a view: the driver answers CUDA_SUCCESS and writes nothing. */
    if (v->has_view)
        *pResViewDesc = v->view;
    image_view_put(v);
    return CUDA_SUCCESS;
}
