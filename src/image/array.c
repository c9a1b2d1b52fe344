/*
 * CUDA arrays: cuArrayCreate, cuArray3DCreate, cuArrayDestroy, their descriptors, planes,
 * memory requirements and sparse properties (DESIGN.md §17, docs/images.md).
 *
 * An array is device memory of the software device (a RANGE_ARRAY range in the address maps,
 * so that a kernel's texture and surface accesses are checked against real device memory)
 * with the linear layout docs/images.md gives: rows of row_pitch bytes, slices or layers
 * slice_pitch bytes apart.
 *
 * The driver's codes for what cuda.h leaves open come from the H100 (driver 580;
 * docs/probes/images/arrays/array_probe.out): a bad shape, format, channel count or flag
 * combination, and every limit, is CUDA_ERROR_INVALID_VALUE; a surface over a BC format is
 * CUDA_ERROR_NOT_SUPPORTED; DEPTH_TEXTURE and COLOR_ATTACHMENT were refused in every shape the
 * probe tried, and are here too. CUDA_ARRAY3D_SPARSE is CUDA_ERROR_NOT_SUPPORTED (the
 * software device has no sparse arrays: CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED is 0).
 */
#include "image/array.h"
#include "exec/exec.h"

#include <stdlib.h>
#include <string.h>

os_mutex images_lock = OS_MUTEX_INITIALIZER;
struct list_node images_owners = {&images_owners, &images_owners};

/* ---- Formats ---- */

#define U8 CU_AD_FORMAT_UNSIGNED_INT8
#define U16 CU_AD_FORMAT_UNSIGNED_INT16

const struct image_format *image_format_info(CUarray_format format)
{
    static const struct image_format plain1 = {1, 0, false, 0, false, 0, 0, 0, 0},
                                     plain2 = {2, 0, false, 0, false, 0, 0, 0, 0},
                                     plain4 = {4, 0, false, 0, false, 0, 0, 0, 0};
    static const struct image_format packed_101010_2 = {4, 4, false, 0, false, 0, 0, 0, 0};
    static const struct image_format bc8_4 = {8, 4, true, 0, false, 0, 0, 0, 0},
                                     bc16_4 = {16, 4, true, 0, false, 0, 0, 0, 0},
                                     bc8_1 = {8, 1, true, 0, false, 0, 0, 0, 0},
                                     bc16_2 = {16, 2, true, 0, false, 0, 0, 0, 0},
                                     bc16_3 = {16, 3, true, 0, false, 0, 0, 0, 0};
    static const struct image_format n1x1 = {1, 1, false, 0, false, 0, 0, 0, 0},
                                     n1x2 = {2, 2, false, 0, false, 0, 0, 0, 0},
                                     n1x4 = {4, 4, false, 0, false, 0, 0, 0, 0},
                                     n2x1 = {2, 1, false, 0, false, 0, 0, 0, 0},
                                     n2x2 = {4, 2, false, 0, false, 0, 0, 0, 0},
                                     n2x4 = {8, 4, false, 0, false, 0, 0, 0, 0};
    /* Video formats (plane_probe.out: the channel counts the H100 takes). Planar: 3 channels,
     * the luma plane's element; packed: one element of the channels the format names. */
    static const struct image_format nv12 = {1, 3, false, 2, true, U8, 2, 2, 2},
                                     p016 = {2, 3, false, 2, true, U16, 2, 2, 2},
                                     nv16 = {1, 3, false, 2, true, U8, 2, 2, 1},
                                     p216 = {2, 3, false, 2, true, U16, 2, 2, 1},
                                     y444_8 = {1, 3, false, 3, true, U8, 1, 1, 1},
                                     y444_16 = {2, 3, false, 3, true, U16, 1, 1, 1};
    static const struct image_format yuy2 = {4, 4, false, 0, true, 0, 0, 0, 0},
                                     y21x = {4, 2, false, 0, true, 0, 0, 0, 0},
                                     ayuv = {4, 4, false, 0, true, 0, 0, 0, 0},
                                     y410 = {4, 1, false, 0, true, 0, 0, 0, 0},
                                     y416 = {8, 4, false, 0, true, 0, 0, 0, 0};
    switch ((int)format) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8: return &plain1;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF: return &plain2;
    case CU_AD_FORMAT_UNSIGNED_INT32:
    case CU_AD_FORMAT_SIGNED_INT32:
    case CU_AD_FORMAT_FLOAT: return &plain4;
    case CU_AD_FORMAT_UNORM_INT_101010_2: return &packed_101010_2;
    case CU_AD_FORMAT_BC1_UNORM:
    case CU_AD_FORMAT_BC1_UNORM_SRGB: return &bc8_4;
    case CU_AD_FORMAT_BC2_UNORM:
    case CU_AD_FORMAT_BC2_UNORM_SRGB:
    case CU_AD_FORMAT_BC3_UNORM:
    case CU_AD_FORMAT_BC3_UNORM_SRGB:
    case CU_AD_FORMAT_BC7_UNORM:
    case CU_AD_FORMAT_BC7_UNORM_SRGB: return &bc16_4;
    case CU_AD_FORMAT_BC4_UNORM:
    case CU_AD_FORMAT_BC4_SNORM: return &bc8_1;
    case CU_AD_FORMAT_BC5_UNORM:
    case CU_AD_FORMAT_BC5_SNORM: return &bc16_2;
    case CU_AD_FORMAT_BC6H_UF16:
    case CU_AD_FORMAT_BC6H_SF16: return &bc16_3;
    case CU_AD_FORMAT_UNORM_INT8X1:
    case CU_AD_FORMAT_SNORM_INT8X1: return &n1x1;
    case CU_AD_FORMAT_UNORM_INT8X2:
    case CU_AD_FORMAT_SNORM_INT8X2: return &n1x2;
    case CU_AD_FORMAT_UNORM_INT8X4:
    case CU_AD_FORMAT_SNORM_INT8X4: return &n1x4;
    case CU_AD_FORMAT_UNORM_INT16X1:
    case CU_AD_FORMAT_SNORM_INT16X1: return &n2x1;
    case CU_AD_FORMAT_UNORM_INT16X2:
    case CU_AD_FORMAT_SNORM_INT16X2: return &n2x2;
    case CU_AD_FORMAT_UNORM_INT16X4:
    case CU_AD_FORMAT_SNORM_INT16X4: return &n2x4;
    case CU_AD_FORMAT_NV12: return &nv12;
    case CU_AD_FORMAT_P010:
    case CU_AD_FORMAT_P016: return &p016;
    case CU_AD_FORMAT_NV16: return &nv16;
    case CU_AD_FORMAT_P210:
    case CU_AD_FORMAT_P216: return &p216;
    case CU_AD_FORMAT_Y444_PLANAR8: return &y444_8;
    case CU_AD_FORMAT_Y444_PLANAR10: return &y444_16;
    case CU_AD_FORMAT_YUY2: return &yuy2;
    case CU_AD_FORMAT_Y210:
    case CU_AD_FORMAT_Y216: return &y21x;
    case CU_AD_FORMAT_AYUV: return &ayuv;
    case CU_AD_FORMAT_Y410: return &y410;
    case CU_AD_FORMAT_Y416: return &y416;
    default: return NULL;
    }
}

unsigned image_element_bytes(CUarray_format format, unsigned channels)
{
    const struct image_format *f = image_format_info(format);
    if (!f)
        return 0;
    if (f->channels)
        return channels == f->channels ? f->bytes : 0;
    return channels == 1 || channels == 2 || channels == 4 ? f->bytes * channels : 0;
}

/* ---- Checks ---- */

#define KNOWN_FLAGS                                                                                                \
    (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_TEXTURE_GATHER |       \
     CUDA_ARRAY3D_DEPTH_TEXTURE | CUDA_ARRAY3D_COLOR_ATTACHMENT | CUDA_ARRAY3D_SPARSE |                            \
     CUDA_ARRAY3D_DEFERRED_MAPPING | CUDA_ARRAY3D_VIDEO_ENCODE_DECODE)

/* One limit: INVALID_VALUE with the attribute that sets it. */
static CUresult over(const char *fn, const char *what, size_t value, size_t limit, const char *attribute)
{
    return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s %zu is above the device's limit %zu (%s)", fn, what, value, limit,
                attribute);
}

#define LIMIT(what, value, limit, attribute)                                                                       \
    do {                                                                                                           \
        if ((value) > (size_t)(limit))                                                                             \
            return over(fn, what, value, limit, attribute);                                                        \
    } while (0)

/* The limits of cuda.h's table for cuArray3DCreate, with the H100's values
 * (CU_DEVICE_ATTRIBUTE_MAXIMUM_*, src/device/device.c). */
static CUresult check_limits(const char *fn, const CUDA_ARRAY3D_DESCRIPTOR *d, bool mipmapped)
{
    bool surface = d->Flags & CUDA_ARRAY3D_SURFACE_LDST, layered = d->Flags & CUDA_ARRAY3D_LAYERED;
    size_t w = d->Width, h = d->Height, n = d->Depth;
    if (d->Flags & CUDA_ARRAY3D_CUBEMAP) {
        LIMIT("Width of a cubemap", w, 32768, surface ? "MAXIMUM_SURFACECUBEMAP_WIDTH" : "MAXIMUM_TEXTURECUBEMAP_WIDTH");
        if (layered)
            LIMIT("Depth (faces of a layered cubemap)", n, 2046,
                  surface ? "MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS" : "MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS");
        return CUDA_SUCCESS;
    }
    if (d->Flags & CUDA_ARRAY3D_TEXTURE_GATHER) {
        LIMIT("Width of a gather array", w, 32768, "MAXIMUM_TEXTURE2D_GATHER_WIDTH");
        LIMIT("Height of a gather array", h, 32768, "MAXIMUM_TEXTURE2D_GATHER_HEIGHT");
    }
    if (layered) {
        LIMIT("Width of a layered array", w, 32768,
              h ? (surface ? "MAXIMUM_SURFACE2D_LAYERED_WIDTH" : "MAXIMUM_TEXTURE2D_LAYERED_WIDTH")
                : (surface ? "MAXIMUM_SURFACE1D_LAYERED_WIDTH" : "MAXIMUM_TEXTURE1D_LAYERED_WIDTH"));
        LIMIT("Height of a layered array", h, 32768,
              surface ? "MAXIMUM_SURFACE2D_LAYERED_HEIGHT" : "MAXIMUM_TEXTURE2D_LAYERED_HEIGHT");
        LIMIT("Depth (layers)", n, 2048,
              h ? (surface ? "MAXIMUM_SURFACE2D_LAYERED_LAYERS" : "MAXIMUM_TEXTURE2D_LAYERED_LAYERS")
                : (surface ? "MAXIMUM_SURFACE1D_LAYERED_LAYERS" : "MAXIMUM_TEXTURE1D_LAYERED_LAYERS"));
        return CUDA_SUCCESS;
    }
    if (n) { /* 3D: the ordinary limits, or the alternate ones (texture only) */
        bool ordinary = w <= 16384 && h <= 16384 && n <= 16384;
        bool alternate = !surface && w <= 8192 && h <= 8192 && n <= 32768;
        if (!ordinary && !alternate)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: a 3D array of %zu x %zu x %zu is above the device's limits "
                        "(MAXIMUM_%s3D_WIDTH/HEIGHT/DEPTH 16384 each%s)", fn, w, h, n, surface ? "SURFACE" : "TEXTURE",
                        surface ? "" : ", or the ALTERNATE 8192 x 8192 x 32768");
        return CUDA_SUCCESS;
    }
    if (mipmapped) {
        LIMIT("Width of a mipmapped array", w, 32768,
              h ? "MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH" : "MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH");
        LIMIT("Height of a mipmapped array", h, 32768, "MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT");
    }
    if (h) {
        LIMIT("Width", w, 131072, surface ? "MAXIMUM_SURFACE2D_WIDTH" : "MAXIMUM_TEXTURE2D_WIDTH");
        LIMIT("Height", h, 65536, surface ? "MAXIMUM_SURFACE2D_HEIGHT" : "MAXIMUM_TEXTURE2D_HEIGHT");
    } else {
        LIMIT("Width", w, surface ? 32768 : 131072, surface ? "MAXIMUM_SURFACE1D_WIDTH" : "MAXIMUM_TEXTURE1D_WIDTH");
    }
    return CUDA_SUCCESS;
}

CUresult image_check_desc(const char *fn, const CUDA_ARRAY3D_DESCRIPTOR *d, bool mipmapped)
{
    unsigned flags = d->Flags;
    if (flags & ~(unsigned)KNOWN_FLAGS)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: Flags 0x%x has bits that are no CUDA_ARRAY3D_* flag", fn, flags);
    const struct image_format *f = image_format_info(d->Format);
    if (!f)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: Format 0x%x is not a CUarray_format", fn, (unsigned)d->Format);
    if (f->video && !(flags & CUDA_ARRAY3D_VIDEO_ENCODE_DECODE))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: Format 0x%x is a video format: the H100 takes it only with "
                    "CUDA_ARRAY3D_VIDEO_ENCODE_DECODE (docs/probes/images/arrays/plane_probe.out)", fn,
                    (unsigned)d->Format);
    if (f->video && mipmapped)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: Format 0x%x is a video format: a mipmapped array cannot have it",
                    fn, (unsigned)d->Format);
    if (!image_element_bytes(d->Format, d->NumChannels)) {
        if (f->channels)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: NumChannels is %u: format 0x%x has exactly %u", fn,
                        d->NumChannels, (unsigned)d->Format, f->channels);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: NumChannels is %u: it must be 1, 2 or 4", fn, d->NumChannels);
    }
    bool layered = flags & CUDA_ARRAY3D_LAYERED, cubemap = flags & CUDA_ARRAY3D_CUBEMAP;
    if (d->Width == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: Width is 0", fn);
    if (d->Height == 0 && d->Depth && !layered)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: Height is 0 with Depth %zu: a 3D array needs a height", fn,
                    d->Depth);
    if (layered && d->Depth == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: CUDA_ARRAY3D_LAYERED with Depth 0: Depth counts the layers", fn);
    if (flags & CUDA_ARRAY3D_SPARSE) {
        if (flags & CUDA_ARRAY3D_DEFERRED_MAPPING)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: CUDA_ARRAY3D_SPARSE and CUDA_ARRAY3D_DEFERRED_MAPPING together",
                        fn);
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: CUDA_ARRAY3D_SPARSE: the software device has no sparse arrays "
                    "(CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED is 0)", fn);
    }
    if (flags & (CUDA_ARRAY3D_DEPTH_TEXTURE | CUDA_ARRAY3D_COLOR_ATTACHMENT))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: CUDA_ARRAY3D_%s: the H100 refuses it for arrays of every shape and "
                    "format tried (docs/probes/images/arrays)", fn,
                    flags & CUDA_ARRAY3D_DEPTH_TEXTURE ? "DEPTH_TEXTURE" : "COLOR_ATTACHMENT");
    if (f->video && (d->Height == 0 || (d->Depth && !layered) || cubemap))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: a video format's array is 2D (or 2D layered)", fn);
    if (f->planes && (f->xdiv == 2 && d->Width % 2))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: Width %zu is odd: format 0x%x subsamples its chroma by 2 across", fn,
                    d->Width, (unsigned)d->Format);
    if (f->planes && (f->ydiv == 2 && d->Height % 2))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: Height %zu is odd: format 0x%x subsamples its chroma by 2 down", fn,
                    d->Height, (unsigned)d->Format);
    if (f->block && d->Height == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: format 0x%x is block-compressed: a 1D array cannot hold 4x4 blocks",
                    fn, (unsigned)d->Format);
    if (f->block && (flags & CUDA_ARRAY3D_SURFACE_LDST))
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: CUDA_ARRAY3D_SURFACE_LDST over block-compressed format 0x%x: "
                    "surfaces cannot write compressed blocks", fn, (unsigned)d->Format);
    if (cubemap) {
        if (d->Width != d->Height)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: a cubemap's faces are square: Width %zu, Height %zu", fn,
                        d->Width, d->Height);
        if (!layered && d->Depth != 6)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: a cubemap has Depth 6 (its faces), not %zu", fn, d->Depth);
        if (layered && d->Depth % 6)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: a layered cubemap's Depth %zu is not a multiple of 6", fn,
                        d->Depth);
    }
    if ((flags & CUDA_ARRAY3D_TEXTURE_GATHER) && (d->Height == 0 || d->Depth || layered || cubemap))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: CUDA_ARRAY3D_TEXTURE_GATHER is for 2D arrays only", fn);
    return check_limits(fn, d, mipmapped);
}

/* ---- Layout (docs/images.md) ---- */

#define ROW_ALIGN 64    /* a row starts on a cache line */
#define LEVEL_ALIGN 512 /* CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT */

uint64_t image_layout_level(const CUDA_ARRAY3D_DESCRIPTOR *desc, unsigned elem_bytes, size_t w, size_t h, size_t d,
                            uintptr_t base, uint64_t at, struct image_level *out)
{
    const struct image_format *f = image_format_info(desc->Format);
    bool block = f && f->block;
    uint64_t units = block ? (w + 3) / 4 : w, rows = h ? (block ? (h + 3) / 4 : h) : 1;
    bool layers = desc->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
    uint64_t slices = d ? d : 1;
    out->base = base + (uintptr_t)at;
    out->width = (uint32_t)w;
    out->height = h ? (uint32_t)h : 1;
    out->depth = layers || !d ? 1 : (uint32_t)d;
    out->row_pitch = (units * elem_bytes + ROW_ALIGN - 1) / ROW_ALIGN * ROW_ALIGN;
    out->slice_pitch = out->row_pitch * rows;
    out->size = out->slice_pitch * slices;
    return (at + out->size + LEVEL_ALIGN - 1) / LEVEL_ALIGN * LEVEL_ALIGN;
}

/* ---- Memory ---- */

CUresult image_memory(const char *fn, struct ctx *ctx, size_t size, struct range **out)
{
    struct range *r = calloc(1, sizeof(*r));
    if (!r)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the array's memory record", fn);
    CUresult res = mem_range_init(fn, r, size, RANGE_ARRAY, 0);
    if (res) {
        free(r);
        return res;
    }
    mem_register(ctx, r);
    *out = r;
    return CUDA_SUCCESS;
}

void image_memory_free(struct range *r)
{
    if (!r)
        return;
    amap_lock_write();
    mem_unpublish(r);
    amap_unlock();
    mem_free_range(r);
}

/* ---- Objects ---- */

static void array_destroy(struct obj *o)
{
    struct array_impl *a = (struct array_impl *)o;
    os_mutex_lock(&images_lock);
    struct range *mem = a->mem;
    a->mem = NULL;
    if (a->node.next)
        list_del(&a->node);
    a->node.next = a->node.prev = NULL;
    os_mutex_unlock(&images_lock);
    image_memory_free(mem);
    if (a->owner)
        obj_release(a->owner);
    free(a);
}

struct array_impl *image_array_new(struct ctx *ctx, const CUDA_ARRAY3D_DESCRIPTOR *desc, unsigned elem_bytes,
                                   const struct image_level *level)
{
    struct array_impl *a = calloc(1, sizeof(*a));
    if (!a)
        return NULL;
    a->a.desc = *desc;
    a->a.elem_bytes = elem_bytes;
    a->a.level = *level;
    a->a.ctx = ctx;
    return a;
}

bool image_array_register(struct array_impl *a) { return obj_register(&a->a.obj, OBJ_ARRAY, array_destroy) != 0; }

CUresult image_array_get(const char *fn, const char *what, CUarray array, struct image_array **out)
{
    struct obj *o;
    obj_status st = obj_lookup((uint64_t)(uintptr_t)array, OBJ_ARRAY, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: %s: %s", fn, what,
                    obj_status_text(st, OBJ_ARRAY, (uint64_t)(uintptr_t)array));
    *out = (struct image_array *)o;
    return CUDA_SUCCESS;
}

void image_array_put(struct image_array *a)
{
    if (a)
        obj_release(&a->obj);
}

/* The images teardown step: the context's arrays and mipmapped arrays lose their handles and
 * their memory (device.h: images before memory, whose list holds their ranges). */
static void images_context_gone(struct ctx *ctx);
static const struct ctx_step teardown_step = {CTX_STEP_IMAGES, images_context_gone};

void image_track_context(struct ctx *ctx)
{
    atomic_store(&mem_array_hook, image_resolve_side);
    atomic_store(&mem_array_element_hook, image_array_element_bytes); /* texlod */
    os_mutex_lock(&ctx->lock);
    ctx_add_teardown(ctx, &teardown_step);
    os_mutex_unlock(&ctx->lock);
}

/* Unregisters an array's planes and the array (with images_lock held: the caller says which). */
static void array_kill_locked(struct array_impl *a, struct obj **drop, unsigned *ndrop)
{
    a->gone = true;
    for (unsigned p = 0; p < a->nplanes; ++p)
        if (a->plane[p] && !a->plane[p]->gone) {
            a->plane[p]->gone = true;
            drop[(*ndrop)++] = &a->plane[p]->a.obj;
        }
    drop[(*ndrop)++] = &a->a.obj;
}

static void images_context_gone(struct ctx *ctx)
{
    image_mipmaps_context_gone(ctx);
    for (;;) {
        struct obj *drop[IMAGE_MAX_PLANES + 1];
        unsigned ndrop = 0;
        struct range *mem = NULL;
        os_mutex_lock(&images_lock);
        for (struct list_node *n = images_owners.next; n != &images_owners; n = n->next) {
            struct array_impl *a = list_entry(n, struct array_impl, node);
            if (a->a.ctx == ctx && a->mem) {
                mem = a->mem;
                a->mem = NULL;
                list_del(&a->node);
                a->node.next = a->node.prev = NULL;
                if (!a->gone)
                    array_kill_locked(a, drop, &ndrop);
                break;
            }
        }
        os_mutex_unlock(&images_lock);
        if (!mem)
            return;
        for (unsigned i = 0; i < ndrop; ++i)
            obj_unregister(drop[i]);
        image_memory_free(mem);
    }
}

/* ---- Planes ----
 * A planar format's array holds its planes one after the other, each laid out as an array of
 * its own (the luma plane first): plane 0 is the array's extent in the luma's format with one
 * channel, the chroma planes the extent divided as the format subsamples, with 2 channels
 * (interleaved U and V) or, for 4:4:4, one plane each (plane_probe.out gives the shapes). */

/* The descriptor of plane p of an array of desc and format f. */
static CUDA_ARRAY3D_DESCRIPTOR plane_desc(const CUDA_ARRAY3D_DESCRIPTOR *desc, const struct image_format *f,
                                          unsigned p)
{
    CUDA_ARRAY3D_DESCRIPTOR d = *desc;
    d.Format = f->plane_format;
    d.NumChannels = p ? f->chroma_channels : 1;
    if (p) {
        d.Width /= f->xdiv;
        d.Height /= f->ydiv;
    }
    return d;
}

/* Lays out the array (its planes, for a planar format); returns the bytes it takes. */
static uint64_t array_layout(const CUDA_ARRAY3D_DESCRIPTOR *desc, unsigned elem, struct image_level *level,
                             struct image_level planes[IMAGE_MAX_PLANES])
{
    const struct image_format *f = image_format_info(desc->Format);
    if (!f->planes)
        return image_layout_level(desc, elem, desc->Width, desc->Height, desc->Depth, 0, 0, level);
    uint64_t at = 0;
    for (unsigned p = 0; p < f->planes; ++p) {
        CUDA_ARRAY3D_DESCRIPTOR d = plane_desc(desc, f, p);
        at = image_layout_level(&d, image_element_bytes(d.Format, d.NumChannels), d.Width, d.Height, d.Depth, 0, at,
                                &planes[p]);
    }
    *level = planes[0];
    return at;
}

/* Makes and registers the planes of a (its memory placed); false when out of memory. */
static bool make_planes(struct array_impl *a, const struct image_level planes[IMAGE_MAX_PLANES])
{
    const struct image_format *f = image_format_info(a->a.desc.Format);
    for (unsigned p = 0; p < f->planes; ++p) {
        CUDA_ARRAY3D_DESCRIPTOR d = plane_desc(&a->a.desc, f, p);
        struct image_level l = planes[p];
        l.base += a->mem->base;
        struct array_impl *pa = image_array_new(a->a.ctx, &d, image_element_bytes(d.Format, d.NumChannels), &l);
        if (!pa)
            return false;
        obj_retain(&a->a.obj);
        pa->owner = &a->a.obj;
        if (!image_array_register(pa)) {
            obj_release(pa->owner);
            free(pa);
            return false;
        }
        os_mutex_lock(&images_lock);
        a->plane[a->nplanes++] = pa;
        os_mutex_unlock(&images_lock);
    }
    return true;
}

/* ---- Entry points ---- */

static CUresult array_create(const char *fn, CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *desc)
{
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    unsigned elem = image_element_bytes(desc->Format, desc->NumChannels);
    struct image_level level, planes[IMAGE_MAX_PLANES];
    size_t size = (size_t)array_layout(desc, elem, &level, planes);
    struct range *mem = NULL;
    struct array_impl *a = NULL;
    if ((r = image_memory(fn, ctx, size, &mem)))
        goto out;
    level.base = mem->base;
    if (!(a = image_array_new(ctx, desc, elem, &level))) {
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the array", fn);
        goto out;
    }
    a->mem = mem;
    os_mutex_lock(&images_lock);
    list_add(&images_owners, &a->node);
    os_mutex_unlock(&images_lock);
    image_track_context(ctx);
    if (!image_array_register(a)) {
        array_destroy(&a->a.obj); /* frees mem */
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the array's handle", fn);
        goto out_ctx;
    }
    if (!make_planes(a, planes)) {
        struct obj *drop[IMAGE_MAX_PLANES + 1];
        unsigned ndrop = 0;
        os_mutex_lock(&images_lock);
        array_kill_locked(a, drop, &ndrop);
        os_mutex_unlock(&images_lock);
        for (unsigned i = 0; i < ndrop; ++i)
            obj_unregister(drop[i]); /* the array and its memory go with its last plane */
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the planes' handles", fn);
        goto out_ctx;
    }
    *out = (CUarray)(uintptr_t)a->a.obj.handle;
    goto out_ctx;
out:
    image_memory_free(mem);
out_ctx:
    ctx_release(ctx);
    return r;
}

CUresult CUDAAPI cuArray3DCreate(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray)
{
    REQUIRE_INIT("cuArray3DCreate");
    if (!pHandle)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuArray3DCreate: pHandle is NULL");
    if (!pAllocateArray)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuArray3DCreate: pAllocateArray is NULL");
    CUresult r = image_check_desc("cuArray3DCreate", pAllocateArray, false);
    return r ? r : array_create("cuArray3DCreate", pHandle, pAllocateArray);
}

CUresult CUDAAPI cuArrayCreate(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray)
{
    REQUIRE_INIT("cuArrayCreate");
    if (!pHandle)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuArrayCreate: pHandle is NULL");
    if (!pAllocateArray)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuArrayCreate: pAllocateArray is NULL");
    CUDA_ARRAY3D_DESCRIPTOR d = {pAllocateArray->Width, pAllocateArray->Height, 0, pAllocateArray->Format,
                                 pAllocateArray->NumChannels, 0};
    CUresult r = image_check_desc("cuArrayCreate", &d, false);
    return r ? r : array_create("cuArrayCreate", pHandle, &d);
}

CUresult CUDAAPI cuArrayDestroy(CUarray hArray)
{
    REQUIRE_INIT("cuArrayDestroy");
    struct image_array *ia;
    CUresult r = image_array_get("cuArrayDestroy", "hArray", hArray, &ia);
    if (r)
        return r;
    struct array_impl *a = (struct array_impl *)ia;
    if (ia->parent || a->owner) { /* a level or a plane: its owner's, which the driver leaves be */
        image_array_put(ia);
        return CUDA_SUCCESS;
    }
    /* Synchronous, as cuMemFree: work queued before the call may still read the array. */
    if ((r = device_release_begin("cuArrayDestroy"))) {
        image_array_put(ia);
        return r;
    }
    struct obj *drop[IMAGE_MAX_PLANES + 1];
    unsigned ndrop = 0;
    os_mutex_lock(&images_lock);
    bool first = !a->gone;
    if (first)
        array_kill_locked(a, drop, &ndrop);
    os_mutex_unlock(&images_lock);
    for (unsigned i = 0; i < ndrop; ++i)
        obj_unregister(drop[i]);
    image_array_put(ia); /* the memory goes with the last reference */
    device_release_end();
    if (!first)
        return fail(CUDA_ERROR_INVALID_HANDLE, "cuArrayDestroy: hArray was destroyed by another thread");
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
    REQUIRE_INIT("cuArray3DGetDescriptor");
    struct image_array *a;
    CUresult r = image_array_get("cuArray3DGetDescriptor", "hArray", hArray, &a);
    if (r)
        return r;
    if (!pArrayDescriptor)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuArray3DGetDescriptor: pArrayDescriptor is NULL");
    else
        *pArrayDescriptor = a->desc;
    image_array_put(a);
    return r;
}

/* The driver answers a 3D array's width and height here too (array_probe.out). */
CUresult CUDAAPI cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
    REQUIRE_INIT("cuArrayGetDescriptor");
    struct image_array *a;
    CUresult r = image_array_get("cuArrayGetDescriptor", "hArray", hArray, &a);
    if (r)
        return r;
    if (!pArrayDescriptor) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuArrayGetDescriptor: pArrayDescriptor is NULL");
    } else {
        pArrayDescriptor->Width = a->desc.Width;
        pArrayDescriptor->Height = a->desc.Height;
        pArrayDescriptor->Format = a->desc.Format;
        pArrayDescriptor->NumChannels = a->desc.NumChannels;
    }
    image_array_put(a);
    return r;
}

CUresult CUDAAPI cuArrayGetPlane(CUarray *pPlaneArray, CUarray hArray, unsigned int planeIdx)
{
    REQUIRE_INIT("cuArrayGetPlane");
    if (!pPlaneArray)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuArrayGetPlane: pPlaneArray is NULL");
    struct image_array *ia;
    CUresult r = image_array_get("cuArrayGetPlane", "hArray", hArray, &ia);
    if (r)
        return r;
    struct array_impl *a = (struct array_impl *)ia;
    os_mutex_lock(&images_lock);
    if (planeIdx < a->nplanes && !a->gone && a->plane[planeIdx])
        *pPlaneArray = (CUarray)(uintptr_t)a->plane[planeIdx]->a.obj.handle;
    else if (!a->nplanes)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuArrayGetPlane: hArray's format 0x%x is not planar: it has no planes",
                 (unsigned)ia->desc.Format);
    else
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuArrayGetPlane: planeIdx %u: the array has %u planes", planeIdx,
                 a->nplanes);
    os_mutex_unlock(&images_lock);
    image_array_put(ia);
    return r;
}

/* The memory an array needs when it is made with CUDA_ARRAY3D_DEFERRED_MAPPING (the driver
 * refuses the question for other arrays: array_probe.out): its layout's size rounded up to
 * 64 KiB, aligned to 64 KiB, as the H100 answers for every shape probed. */
#define MEMREQ_ALIGN ((size_t)65536)

CUresult image_memory_requirements(const char *fn, const CUDA_ARRAY3D_DESCRIPTOR *desc, uint64_t size,
                                   CUDA_ARRAY_MEMORY_REQUIREMENTS *out, CUdevice device)
{
    if (device != 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: device %d is not the software device (0)", fn, (int)device);
    if (!(desc->Flags & CUDA_ARRAY3D_DEFERRED_MAPPING))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the array was not made with CUDA_ARRAY3D_DEFERRED_MAPPING: only "
                    "such arrays have memory requirements", fn);
    memset(out, 0, sizeof(*out));
    out->size = (size_t)((size + MEMREQ_ALIGN - 1) / MEMREQ_ALIGN * MEMREQ_ALIGN);
    out->alignment = MEMREQ_ALIGN;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS *memoryRequirements, CUarray array,
                                              CUdevice device)
{
    REQUIRE_INIT("cuArrayGetMemoryRequirements");
    if (!memoryRequirements)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuArrayGetMemoryRequirements: memoryRequirements is NULL");
    struct image_array *a;
    /* The driver answers INVALID_VALUE for a NULL array here (array_probe.out). */
    if (!array)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuArrayGetMemoryRequirements: array is NULL");
    CUresult r = image_array_get("cuArrayGetMemoryRequirements", "array", array, &a);
    if (r)
        return r;
    r = image_memory_requirements("cuArrayGetMemoryRequirements", &a->desc, a->level.size, memoryRequirements,
                                  device);
    image_array_put(a);
    return r;
}

CUresult CUDAAPI cuArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES *sparseProperties, CUarray array)
{
    REQUIRE_INIT("cuArrayGetSparseProperties");
    if (!sparseProperties)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuArrayGetSparseProperties: sparseProperties is NULL");
    if (!array)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuArrayGetSparseProperties: array is NULL");
    struct image_array *a;
    CUresult r = image_array_get("cuArrayGetSparseProperties", "array", array, &a);
    if (r)
        return r;
    image_array_put(a);
    /* As the driver answers for an array made without CUDA_ARRAY3D_SPARSE (array_probe.out). */
    return fail(CUDA_ERROR_INVALID_VALUE, "cuArrayGetSparseProperties: the array is not sparse (the software device "
                "makes no sparse arrays)");
}
