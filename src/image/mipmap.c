/*
 * Mipmapped arrays: cuMipmappedArrayCreate, cuMipmappedArrayDestroy, cuMipmappedArrayGetLevel,
 * their memory requirements and sparse properties, and image_mipmap_wrap (an imported image's
 * levels, src/interop).
 *
 * All levels are one allocation, laid out one after the other (docs/images.md). Level l has
 * the extent max(1, X >> l) of each dimension the array has; layers (LAYERED, the faces of a
 * cubemap) stay. Every level is an array handle made with the mipmapped array, as on the
 * driver, which hands the same handle out each time (array_probe.out) and answers success to a
 * cuArrayDestroy of it without destroying it.
 *
 * What the H100 answers (array_probe.out): a level count of 0 makes one level; a count above
 * what the extent allows makes as many as it allows (1 + floor(log2 of the largest dimension));
 * a level at or past the count is INVALID_VALUE; the mipmapped limits are 32768 for 1D and 2D.
 */
#include "image/array.h"
#include "exec/exec.h"

#include <stdlib.h>
#include <string.h>

static struct list_node mipmaps = {&mipmaps, &mipmaps}; /* mipmap_impl.node, under images_lock */

static size_t mip_extent(size_t x, unsigned level) { return x ? ((x >> level) ? (x >> level) : 1) : 0; }

/* The levels an extent allows: 1 + floor(log2(largest dimension that shrinks)). */
static unsigned max_levels(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    size_t big = d->Width > d->Height ? d->Width : d->Height;
    bool layers = d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
    if (!layers && d->Depth > big)
        big = d->Depth;
    unsigned n = 1;
    while (big >>= 1)
        ++n;
    return n < KIMAGE_MAX_LEVELS ? n : KIMAGE_MAX_LEVELS;
}

static void mipmap_destroy(struct obj *o)
{
    struct mipmap_impl *m = (struct mipmap_impl *)o;
    os_mutex_lock(&images_lock);
    struct range *mem = m->mem;
    m->mem = NULL;
    if (m->node.next)
        list_del(&m->node);
    m->node.next = m->node.prev = NULL;
    os_mutex_unlock(&images_lock);
    image_memory_free(mem);
    if (m->keep)
        obj_release(m->keep);
    free(m);
}

CUresult image_mipmap_get(const char *fn, const char *what, CUmipmappedArray mipmap, struct image_mipmap **out)
{
    struct obj *o;
    obj_status st = obj_lookup((uint64_t)(uintptr_t)mipmap, OBJ_MIPMAPPED_ARRAY, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: %s: %s", fn, what,
                    obj_status_text(st, OBJ_MIPMAPPED_ARRAY, (uint64_t)(uintptr_t)mipmap));
    *out = (struct image_mipmap *)o;
    return CUDA_SUCCESS;
}

void image_mipmap_put(struct image_mipmap *m)
{
    if (m)
        obj_release(&m->obj);
}

/* Marks m gone and collects the handles to unregister: its levels, then itself. */
static unsigned mipmap_kill_locked(struct mipmap_impl *m, struct obj **drop)
{
    unsigned n = 0;
    m->gone = true;
    for (unsigned l = 0; l < m->m.nlevels; ++l)
        if (m->levels[l] && !m->levels[l]->gone) {
            m->levels[l]->gone = true;
            drop[n++] = &m->levels[l]->a.obj;
        }
    drop[n++] = &m->m.obj;
    return n;
}

void image_mipmaps_context_gone(struct ctx *ctx)
{
    for (;;) {
        struct obj *drop[KIMAGE_MAX_LEVELS + 1];
        unsigned ndrop = 0;
        struct range *mem = NULL;
        bool found = false;
        os_mutex_lock(&images_lock);
        for (struct list_node *n = mipmaps.next; n != &mipmaps; n = n->next) {
            struct mipmap_impl *m = list_entry(n, struct mipmap_impl, node);
            if (m->m.ctx == ctx) {
                found = true;
                mem = m->mem;
                m->mem = NULL;
                list_del(&m->node);
                m->node.next = m->node.prev = NULL;
                if (!m->gone)
                    ndrop = mipmap_kill_locked(m, drop);
                break;
            }
        }
        os_mutex_unlock(&images_lock);
        if (!found)
            return;
        for (unsigned i = 0; i < ndrop; ++i)
            obj_unregister(drop[i]);
        image_memory_free(mem);
    }
}

/* Makes the mipmapped array over levels (memory of mem, or of keep's owner), its handle and
 * its levels' handles. On failure nothing is left: mem is freed, keep is not retained. */
static CUresult mipmap_make(const char *fn, struct ctx *ctx, const CUDA_ARRAY3D_DESCRIPTOR *desc, unsigned nlevels,
                            const struct image_level *levels, struct range *mem, struct obj *keep,
                            struct image_mipmap **out_m, CUmipmappedArray *out)
{
    unsigned elem = image_element_bytes(desc->Format, desc->NumChannels);
    struct mipmap_impl *m = calloc(1, sizeof(*m));
    if (!m) {
        image_memory_free(mem);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the mipmapped array", fn);
    }
    m->m.desc = *desc;
    m->m.elem_bytes = elem;
    m->m.nlevels = nlevels;
    m->m.ctx = ctx;
    memcpy(m->m.level, levels, nlevels * sizeof(*levels));
    m->mem = mem;
    if (!obj_register(&m->m.obj, OBJ_MIPMAPPED_ARRAY, mipmap_destroy)) {
        image_memory_free(mem);
        free(m);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the mipmapped array's handle", fn);
    }
    if (keep) {
        obj_retain(keep);
        m->keep = keep;
    }
    bool layers = desc->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
    for (unsigned l = 0; l < nlevels; ++l) {
        CUDA_ARRAY3D_DESCRIPTOR ld = *desc;
        ld.Width = mip_extent(desc->Width, l);
        ld.Height = mip_extent(desc->Height, l);
        ld.Depth = layers ? desc->Depth : mip_extent(desc->Depth, l);
        struct array_impl *a = image_array_new(ctx, &ld, elem, &levels[l]);
        if (!a)
            goto oom;
        a->a.parent = &m->m;
        obj_retain(&m->m.obj);
        a->owner = &m->m.obj;
        if (!image_array_register(a)) {
            obj_release(a->owner);
            free(a);
            goto oom;
        }
        os_mutex_lock(&images_lock);
        m->levels[l] = a;
        os_mutex_unlock(&images_lock);
    }
    os_mutex_lock(&images_lock);
    list_add(&mipmaps, &m->node);
    os_mutex_unlock(&images_lock);
    image_track_context(ctx);
    if (out_m)
        *out_m = &m->m;
    if (out)
        *out = (CUmipmappedArray)(uintptr_t)m->m.obj.handle;
    return CUDA_SUCCESS;
oom: {
    struct obj *drop[KIMAGE_MAX_LEVELS + 1];
    os_mutex_lock(&images_lock);
    unsigned n = mipmap_kill_locked(m, drop);
    os_mutex_unlock(&images_lock);
    for (unsigned i = 0; i < n; ++i)
        obj_unregister(drop[i]); /* the mipmap goes with its last level, its memory and keep with it */
    return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the levels' handles", fn);
}
}

CUresult image_mipmap_wrap(const char *fn, struct ctx *ctx, const CUDA_ARRAY3D_DESCRIPTOR *desc, unsigned nlevels,
                           const struct image_level *levels, struct obj *keep, struct image_mipmap **out)
{
    if (nlevels == 0 || nlevels > KIMAGE_MAX_LEVELS)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %u levels: a mipmapped array has 1 to %d", fn, nlevels,
                    KIMAGE_MAX_LEVELS);
    return mipmap_make(fn, ctx, desc, nlevels, levels, NULL, keep, out, NULL);
}

CUresult CUDAAPI cuMipmappedArrayCreate(CUmipmappedArray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pMipmappedArrayDesc,
                                        unsigned int numMipmapLevels)
{
    const char *fn = "cuMipmappedArrayCreate";
    REQUIRE_INIT(fn);
    if (!pHandle)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pHandle is NULL", fn);
    if (!pMipmappedArrayDesc)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pMipmappedArrayDesc is NULL", fn);
    const CUDA_ARRAY3D_DESCRIPTOR *d = pMipmappedArrayDesc;
    CUresult r = image_check_desc(fn, d, true);
    if (r)
        return r;
    struct ctx *ctx;
    if ((r = ctx_current(fn, &ctx)))
        return r;
    unsigned most = max_levels(d), n = numMipmapLevels == 0 ? 1 : numMipmapLevels > most ? most : numMipmapLevels;
    unsigned elem = image_element_bytes(d->Format, d->NumChannels);
    bool layers = d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
    struct image_level levels[KIMAGE_MAX_LEVELS];
    uint64_t at = 0;
    for (unsigned l = 0; l < n; ++l)
        at = image_layout_level(d, elem, mip_extent(d->Width, l), mip_extent(d->Height, l),
                                layers ? d->Depth : mip_extent(d->Depth, l), 0, at, &levels[l]);
    struct range *mem;
    if (!(r = image_memory(fn, ctx, (size_t)at, &mem))) {
        for (unsigned l = 0; l < n; ++l)
            levels[l].base += mem->base;
        r = mipmap_make(fn, ctx, d, n, levels, mem, NULL, NULL, pHandle);
    }
    ctx_release(ctx);
    return r;
}

CUresult CUDAAPI cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray)
{
    const char *fn = "cuMipmappedArrayDestroy";
    REQUIRE_INIT(fn);
    struct image_mipmap *im;
    CUresult r = image_mipmap_get(fn, "hMipmappedArray", hMipmappedArray, &im);
    if (r)
        return r;
    if ((r = device_release_begin(fn))) {
        image_mipmap_put(im);
        return r;
    }
    struct mipmap_impl *m = (struct mipmap_impl *)im;
    struct obj *drop[KIMAGE_MAX_LEVELS + 1];
    unsigned n = 0;
    os_mutex_lock(&images_lock);
    bool first = !m->gone;
    if (first)
        n = mipmap_kill_locked(m, drop);
    os_mutex_unlock(&images_lock);
    for (unsigned i = 0; i < n; ++i)
        obj_unregister(drop[i]);
    image_mipmap_put(im);
    device_release_end();
    if (!first)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: hMipmappedArray was destroyed by another thread", fn);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMipmappedArrayGetLevel(CUarray *pLevelArray, CUmipmappedArray hMipmappedArray, unsigned int level)
{
    const char *fn = "cuMipmappedArrayGetLevel";
    REQUIRE_INIT(fn);
    struct image_mipmap *im;
    CUresult r = image_mipmap_get(fn, "hMipmappedArray", hMipmappedArray, &im);
    if (r)
        return r;
    struct mipmap_impl *m = (struct mipmap_impl *)im;
    if (!pLevelArray) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: pLevelArray is NULL", fn);
    } else if (level >= im->nlevels) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: level %u: the mipmapped array has %u levels", fn, level, im->nlevels);
    } else {
        os_mutex_lock(&images_lock);
        if (m->gone || !m->levels[level]) /* destroyed, or still being made (a guessed handle) */
            r = fail(CUDA_ERROR_INVALID_HANDLE, "%s: hMipmappedArray was destroyed by another thread", fn);
        else
            *pLevelArray = (CUarray)(uintptr_t)m->levels[level]->a.obj.handle;
        os_mutex_unlock(&images_lock);
    }
    image_mipmap_put(im);
    return r;
}

CUresult CUDAAPI cuMipmappedArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS *memoryRequirements,
                                                       CUmipmappedArray mipmap, CUdevice device)
{
    const char *fn = "cuMipmappedArrayGetMemoryRequirements";
    REQUIRE_INIT(fn);
    if (!memoryRequirements)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: memoryRequirements is NULL", fn);
    if (!mipmap) /* INVALID_VALUE, as the driver answers (array_probe.out) */
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: mipmap is NULL", fn);
    struct image_mipmap *m;
    CUresult r = image_mipmap_get(fn, "mipmap", mipmap, &m);
    if (r)
        return r;
    const struct image_level *last = &m->level[m->nlevels - 1];
    uint64_t size = last->base + last->size - m->level[0].base;
    r = image_memory_requirements(fn, &m->desc, size, memoryRequirements, device);
    image_mipmap_put(m);
    return r;
}

CUresult CUDAAPI cuMipmappedArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES *sparseProperties,
                                                     CUmipmappedArray mipmap)
{
    const char *fn = "cuMipmappedArrayGetSparseProperties";
    REQUIRE_INIT(fn);
    if (!sparseProperties)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: sparseProperties is NULL", fn);
    if (!mipmap)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: mipmap is NULL", fn);
    struct image_mipmap *m;
    CUresult r = image_mipmap_get(fn, "mipmap", mipmap, &m);
    if (r)
        return r;
    image_mipmap_put(m);
    return fail(CUDA_ERROR_INVALID_VALUE, "%s: the mipmapped array is not sparse (the software device makes no "
                "sparse arrays)", fn);
}
