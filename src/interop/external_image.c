/*
 * Imported images as CUDA arrays (cuExternalMemoryGetMappedMipmappedArray, external_memory.c):
 * the checks on the caller's descriptor, the exporter's layout derived from it, and the
 * mapping the arrays' bytes are (docs/images.md, "External images").
 *
 * CUDA gets nothing but CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC: an offset, the level 0
 * extent, format, channels, flags and the number of levels. Where the exporter lays an image
 * out is its own business, so extmem derives the layout from that descriptor the way the
 * exporter would have laid out the same image: for Vulkan memory that is Mesa's llvmpipe
 * (lavapipe is the software device's Vulkan partner); for Direct3D the subresource footprints
 * Direct3D reports (src/d3d). The arrays are the memory's very bytes: no copy.
 */
#include "interop/interop.h"
#include "interop/image_layout.h"
#include "image/image.h"
#include "memory/memory.h"

#include <stdlib.h>

/* ---- The descriptor's checks ---- */

/* Levels of a full chain for the extent (layers do not shrink). */
static unsigned full_chain(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    bool layered = d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
    size_t m = d->Width;
    if (d->Height > m)
        m = d->Height;
    if (!layered && d->Depth > m)
        m = d->Depth;
    unsigned n = 1;
    while (m >>= 1)
        ++n;
    return n;
}

#define KNOWN_FLAGS                                                                                                  \
    (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_TEXTURE_GATHER |         \
     CUDA_ARRAY3D_DEPTH_TEXTURE | CUDA_ARRAY3D_COLOR_ATTACHMENT | CUDA_ARRAY3D_SPARSE |                              \
     CUDA_ARRAY3D_DEFERRED_MAPPING | CUDA_ARRAY3D_VIDEO_ENCODE_DECODE)

/* The extent limits: the device's mipmapped-array limits (an imported image is mapped as a
 * mipmapped array; the H100 answers cuMipmappedArrayCreate with 32768 for 1D and 2D,
 * docs/probes/images/arrays), and its 3D, layered and cubemap attributes (src/device/device.c). */
#define MAX_1D 32768u
#define MAX_2D 32768u
#define MAX_3D 16384u
#define MAX_LAYERED 32768u
#define MAX_LAYERS 2048u
#define MAX_CUBE 32768u
#define MAX_CUBE_LAYERS 2046u

CUresult ext_image_check(const char *fn, const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *m, unsigned *elem_bytes)
{
    const CUDA_ARRAY3D_DESCRIPTOR *d = &m->arrayDesc;
    for (int i = 0; i < 16; ++i)
        if (m->reserved[i])
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: reserved[%d] is %u: it must be 0", fn, i, m->reserved[i]);
    unsigned bytes = image_element_bytes(d->Format, d->NumChannels);
    if (!bytes)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc: format 0x%x with %u channels is no array format", fn,
                    (unsigned)d->Format, d->NumChannels);
    /* The video (planar and packed YUV) formats make no mipmapped array (the arrays helper's
     * probe); block-compressed ones no 1D array and no surface. */
    if (d->Format >= CU_AD_FORMAT_P010 && d->Format <= CU_AD_FORMAT_Y444_PLANAR10)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc: format 0x%x is a video format, which a mipmapped array "
                    "cannot have", fn, (unsigned)d->Format);
    bool bc = d->Format >= CU_AD_FORMAT_BC1_UNORM && d->Format <= CU_AD_FORMAT_BC7_UNORM_SRGB;
    if (bc && d->Height == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc: format 0x%x is block-compressed: a 1D array cannot hold "
                    "4x4 blocks", fn, (unsigned)d->Format);
    if (bc && (d->Flags & CUDA_ARRAY3D_SURFACE_LDST))
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: arrayDesc: SURFACE_LDST over block-compressed format 0x%x: surfaces "
                    "cannot write compressed blocks", fn, (unsigned)d->Format);
    if (d->Flags & ~(unsigned)KNOWN_FLAGS)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc.Flags 0x%x has bits no CUDA_ARRAY3D_* flag defines", fn,
                    d->Flags);
    /* The driver refuses these over imported memory (docs/probes/images/extmem_array): DEPTH_TEXTURE
     * too, even over a Vulkan depth image; such an image maps as a plain FLOAT or UNSIGNED_INT16
     * array. */
    if (d->Flags & (CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING | CUDA_ARRAY3D_VIDEO_ENCODE_DECODE |
                    CUDA_ARRAY3D_DEPTH_TEXTURE))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc.Flags 0x%x: an imported image is mapped whole as it is; "
                    "SPARSE, DEFERRED_MAPPING, VIDEO_ENCODE_DECODE and DEPTH_TEXTURE arrays cannot be made over it "
                    "(map a depth image without DEPTH_TEXTURE)", fn, d->Flags);
    if (d->Width == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc.Width is 0", fn);
    bool layered = d->Flags & CUDA_ARRAY3D_LAYERED, cube = d->Flags & CUDA_ARRAY3D_CUBEMAP;
    if (layered && !cube && d->Depth == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc: LAYERED with Depth 0: Depth counts the layers", fn);
    if (cube) {
        if (d->Width != d->Height)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc: a cubemap's faces are square; %zux%zu is not", fn,
                        d->Width, d->Height);
        if (layered ? d->Depth == 0 || d->Depth % 6 : d->Depth != 6)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc: a %scubemap has Depth %s; it is %zu", fn,
                        layered ? "layered " : "", layered ? "6 times the layers" : "6", d->Depth);
        if (d->Width > MAX_CUBE || d->Depth > MAX_CUBE_LAYERS)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc: cubemap %zux%zux%zu is past the device's limits (%u, "
                        "%u faces)", fn, d->Width, d->Height, d->Depth, MAX_CUBE, MAX_CUBE_LAYERS);
    } else if (d->Height == 0 && d->Depth != 0 && !layered) {
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc: Height 0 with Depth %zu: a 3D array needs a height", fn,
                    d->Depth);
    } else if (layered) {
        if (d->Width > MAX_LAYERED || d->Height > MAX_LAYERED || d->Depth > MAX_LAYERS)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc: layered %zux%zu with %zu layers is past the device's "
                        "limits", fn, d->Width, d->Height, d->Depth);
    } else if (d->Depth) {
        if (d->Width > MAX_3D || d->Height > MAX_3D || d->Depth > MAX_3D)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc: 3D %zux%zux%zu is past the device's limit %u", fn,
                        d->Width, d->Height, d->Depth, MAX_3D);
    } else if (d->Height) {
        if (d->Width > MAX_2D || d->Height > MAX_2D)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc: 2D %zux%zu is past the device's limits (%ux%u)", fn,
                        d->Width, d->Height, MAX_2D, MAX_2D);
    } else if (d->Width > MAX_1D) {
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc: 1D width %zu is past the device's limit %u", fn, d->Width,
                    MAX_1D);
    }
    unsigned chain = full_chain(d);
    if (m->numLevels == 0 || m->numLevels > chain || m->numLevels > KIMAGE_MAX_LEVELS)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numLevels %u: a %zux%zux%zu array has 1 to %u levels", fn,
                    m->numLevels, d->Width, d->Height, d->Depth, chain < KIMAGE_MAX_LEVELS ? chain : KIMAGE_MAX_LEVELS);
    *elem_bytes = bytes;
    return CUDA_SUCCESS;
}

/* ---- The mapping an imported array's bytes are ----
 * The levels' bytes must be device memory for kernels (struct kimage's [lo, hi)), so the
 * mapping is registered as an allocation of the context (a RANGE_EXTERNAL range without a
 * pointer anyone was given). The mipmapped array keeps `keep` (image_mipmap_wrap); when it
 * goes, the range leaves the address map, unless the context (or a cuMemFree of an address
 * nobody was given) took it first. The pages stay mapped as long as either holds them. */
struct ext_image_map {
    struct obj keep;     /* held by the mipmapped array: its end unpublishes the range */
    atomic_int holders;  /* the keep object and the range: the last one unmaps */
    struct range *range; /* freed by whoever unpublished it: read only while it is found */
    uintptr_t base;      /* where it is registered */
    uint64_t buffer_id;  /* which range that is: unique in the process, never reused */
    void *unmap_base;
    size_t unmap_len;
    void *owner; /* Direct3D: what holds the memory (ext_source), else NULL */
    void (*release)(void *owner);
};

static void map_drop(struct ext_image_map *m)
{
    if (atomic_fetch_sub(&m->holders, 1) != 1)
        return;
    if (m->unmap_len)
        os_memory_unmap(m->unmap_base, m->unmap_len);
    if (m->release)
        m->release(m->owner);
    free(m);
}

/* The range's owner hook: the range was freed (the mipmapped array's end, the context's, or a
 * cuMemFree). */
static void range_released(void *owner) { map_drop(owner); }

static void keep_destroyed(struct obj *o)
{
    struct ext_image_map *m = (struct ext_image_map *)o;
    /* The range may be gone (cuMemFree, the context's end) and its address another range's
     * (Direct3D memory has one address): the buffer id tells ours. */
    amap_lock_write();
    struct range *r = amap_find(&amap_memory, m->base);
    bool mine = r && r->buffer_id == m->buffer_id;
    if (mine)
        mem_unpublish(r);
    amap_unlock();
    if (mine)
        mem_free_range(r); /* drops the range's hold */
    map_drop(m);
}

CUresult ext_image_map(const char *fn, struct ctx *ctx, const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned nlevels,
                       const struct ext_layout_level *layout, const struct ext_image_bytes *bytes,
                       struct image_mipmap **out)
{
    struct ext_image_map *m = calloc(1, sizeof(*m));
    struct range *r = calloc(1, sizeof(*r));
    if (!m || !r) {
        free(m);
        free(r);
        if (bytes->release)
            bytes->release(bytes->owner);
        else if (bytes->unmap_len)
            os_memory_unmap(bytes->unmap_base, bytes->unmap_len);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    m->keep.type = OBJ_EXTERNAL_MEMORY; /* never registered: only its count and destroy matter */
    m->keep.destroy = keep_destroyed;
    atomic_init(&m->keep.refs, 1);
    atomic_init(&m->holders, 2);
    m->range = r;
    m->unmap_base = bytes->unmap_base;
    m->unmap_len = bytes->unmap_len;
    m->owner = bytes->owner;
    m->release = bytes->release;
    /* image.h's reading of a level: layers (LAYERED, cube faces) are desc.Depth of them, slice_pitch
     * apart, with depth 1; depth is a 3D level's own. */
    bool layered = d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
    struct image_level levels[KIMAGE_MAX_LEVELS];
    for (unsigned l = 0; l < nlevels; ++l)
        levels[l] = (struct image_level){.base = (uintptr_t)bytes->ptr + (uintptr_t)layout[l].offset,
                                         .width = layout[l].width, .height = layout[l].height,
                                         .depth = layered ? 1 : layout[l].depth, .row_pitch = layout[l].row_pitch,
                                         .slice_pitch = layout[l].slice_pitch, .size = layout[l].size};
    r->base = (uintptr_t)bytes->ptr;
    r->size = r->map_size = (size_t)bytes->size;
    r->kind = RANGE_EXTERNAL;
    r->mem.handle = OS_INVALID_HANDLE;
    r->buffer_id = m->buffer_id = mem_next_buffer_id();
    m->base = r->base;
    r->release = range_released;
    r->owner = m;
    if (bytes->release) {
        /* Memory of another API has one address (ext_source): it may hold one mapping only. */
        if (!mem_register_unless_overlapping(ctx, r)) {
            free(r);
            atomic_store(&m->holders, 1);
            map_drop(m); /* nothing was published: the bytes go back */
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: [offset, +%llu) overlaps a buffer or array already mapped "
                        "from this memory, which has a single address: free that first", fn, bytes->size);
        }
    } else {
        mem_register(ctx, r);
    }
    CUresult res = image_mipmap_wrap(fn, ctx, d, nlevels, levels, &m->keep, out);
    obj_release(&m->keep); /* the mipmapped array holds it now, or (failure) it goes */
    return res;
}
