/*
 * src/image/kernel_view.c: what a kernel sees of a texture or surface object (struct kimage,
 * kernel/kernel.h), made once when the object is made, and handed to the engine through
 * khost.image (src/module/kernel_launch.c).
 *
 * The levels in struct kimage are the view's: level[0] is the view's first mip level, nlevels
 * runs to its last, and each level's base is the view's first layer; first_level and
 * first_layer say where the view starts in the resource (txq and the getters' business).
 */
#include "image/image.h"
#include "memory/memory.h"

#include <string.h>

static void level_from(struct kimage_level *k, const struct image_level *l, bool layered)
{
    k->base = l->base;
    k->width = l->width ? l->width : 1;
    k->height = l->height ? l->height : 1;
    k->depth = layered ? 1 : (l->depth ? l->depth : 1);
    k->row_pitch = l->row_pitch;
    k->slice_pitch = l->slice_pitch;
}

static unsigned linear_bytes(CUarray_format f, unsigned channels)
{
    switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8: return channels;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF: return 2 * channels;
    case CU_AD_FORMAT_UNORM_INT_101010_2: return 4;
    default: return 4 * channels;
    }
}

/* An array's geometry from its descriptor's flags and extent. */
static void geometry_from(struct kimage *k, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    k->layers = 1;
    if (d->Flags & CUDA_ARRAY3D_CUBEMAP) {
        k->geometry = KIMG_CUBE;
        k->layered = (d->Flags & CUDA_ARRAY3D_LAYERED) != 0;
        k->layers = d->Depth ? (uint32_t)d->Depth : 6;
    } else if (d->Flags & CUDA_ARRAY3D_LAYERED) {
        k->geometry = d->Height ? KIMG_2D : KIMG_1D;
        k->layered = 1;
        k->layers = d->Depth ? (uint32_t)d->Depth : 1;
    } else {
        k->geometry = d->Depth ? KIMG_3D : d->Height ? KIMG_2D : KIMG_1D;
    }
}

void image_view_fill_kernel(struct image_view *v, bool surface)
{
    struct kimage *k = &v->k;
    memset(k, 0, sizeof(*k));
    k->surface = surface;
    k->nlevels = 1;
    k->layers = 1;
    const CUDA_RESOURCE_DESC *res = &v->res;
    switch (res->resType) {
    case CU_RESOURCE_TYPE_LINEAR: {
        k->geometry = KIMG_LINEAR;
        k->format = res->res.linear.format;
        k->channels = (uint8_t)res->res.linear.numChannels;
        k->texel_bytes = linear_bytes(res->res.linear.format, res->res.linear.numChannels);
        size_t n = res->res.linear.sizeInBytes / k->texel_bytes;
        k->level[0].base = (uintptr_t)res->res.linear.devPtr;
        k->level[0].width = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
        k->level[0].height = k->level[0].depth = 1;
        k->level[0].row_pitch = k->level[0].slice_pitch = res->res.linear.sizeInBytes;
        k->lo = k->level[0].base;
        k->hi = k->lo + res->res.linear.sizeInBytes;
        break;
    }
    case CU_RESOURCE_TYPE_PITCH2D: {
        k->geometry = KIMG_2D;
        k->format = res->res.pitch2D.format;
        k->channels = (uint8_t)res->res.pitch2D.numChannels;
        k->texel_bytes = linear_bytes(res->res.pitch2D.format, res->res.pitch2D.numChannels);
        k->level[0].base = (uintptr_t)res->res.pitch2D.devPtr;
        k->level[0].width = (uint32_t)res->res.pitch2D.width;
        k->level[0].height = (uint32_t)res->res.pitch2D.height;
        k->level[0].depth = 1;
        k->level[0].row_pitch = res->res.pitch2D.pitchInBytes;
        k->level[0].slice_pitch = (uint64_t)res->res.pitch2D.pitchInBytes * res->res.pitch2D.height;
        /* Every byte a texel of the extent may come from: the rows' pitches and the last row's
         * elements (the driver takes a row wider than the pitch: the extent covers it). */
        k->lo = k->level[0].base;
        uint64_t row = (uint64_t)res->res.pitch2D.width * k->texel_bytes;
        k->hi = res->res.pitch2D.height && res->res.pitch2D.width
                    ? k->lo + (uint64_t)res->res.pitch2D.pitchInBytes * (res->res.pitch2D.height - 1) + row
                    : k->lo;
        break;
    }
    case CU_RESOURCE_TYPE_ARRAY: {
        const struct image_array *a = v->array;
        geometry_from(k, &a->desc);
        k->format = a->desc.Format;
        k->channels = (uint8_t)a->desc.NumChannels;
        k->texel_bytes = a->elem_bytes;
        level_from(&k->level[0], &a->level, k->layers > 1 || k->layered);
        k->lo = a->level.base;
        k->hi = a->level.base + a->level.size;
        break;
    }
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: {
        const struct image_mipmap *m = v->mipmap;
        geometry_from(k, &m->desc);
        k->format = m->desc.Format;
        k->channels = (uint8_t)m->desc.NumChannels;
        k->texel_bytes = m->elem_bytes;
        k->nlevels = m->nlevels;
        k->lo = UINTPTR_MAX;
        for (unsigned i = 0; i < m->nlevels && i < KIMAGE_MAX_LEVELS; ++i) {
            level_from(&k->level[i], &m->level[i], k->layers > 1 || k->layered);
            if (m->level[i].base < k->lo)
                k->lo = m->level[i].base;
            if (m->level[i].base + m->level[i].size > k->hi)
                k->hi = m->level[i].base + m->level[i].size;
        }
        break;
    }
    default: break;
    }
    if (v->has_view && (v->array || v->mipmap)) {
        /* The view's format, levels and layers (texture.c checked them against the array). */
        unsigned ch;
        bool block;
        CUarray_format f = image_view_format(v->view.format, &ch, &block);
        bool array_block = k->format >= CU_AD_FORMAT_BC1_UNORM && k->format <= CU_AD_FORMAT_BC7_UNORM_SRGB;
        k->format = f;
        k->channels = (uint8_t)ch;
        if (block && !array_block) {
            /* A block-compressed view of plain elements: each element is a 4x4 block, and the
             * level's extent is in texels (image.h), four times the elements. */
            for (unsigned i = 0; i < k->nlevels; ++i) {
                k->level[i].width *= 4;
                k->level[i].height *= 4;
            }
        }
        unsigned first = v->view.firstMipmapLevel, last = v->view.lastMipmapLevel;
        if (last >= k->nlevels)
            last = k->nlevels - 1; /* the driver takes a last level one past the end */
        if (first > last)
            first = last;
        if (first) {
            memmove(&k->level[0], &k->level[first], (last - first + 1) * sizeof(k->level[0]));
        }
        k->nlevels = last - first + 1;
        k->first_level = first;
        if (k->layers > 1) {
            unsigned fl = v->view.firstLayer, ll = v->view.lastLayer;
            if (ll >= k->layers)
                ll = k->layers - 1;
            if (fl > ll)
                fl = ll;
            for (unsigned i = 0; i < k->nlevels; ++i)
                k->level[i].base += (uint64_t)fl * k->level[i].slice_pitch;
            k->layers = ll - fl + 1;
            k->first_layer = fl;
        }
    } else if (v->has_view) {
        unsigned ch;
        bool block;
        k->format = image_view_format(v->view.format, &ch, &block);
        k->channels = (uint8_t)ch; /* same element size (texture.c) */
    }
    if (!surface) {
        for (unsigned i = 0; i < 3; ++i)
            k->address_mode[i] = (uint32_t)v->tex.addressMode[i];
        k->filter_mode = (uint32_t)v->tex.filterMode;
        k->mip_filter_mode = (uint32_t)v->tex.mipmapFilterMode;
        k->flags = v->tex.flags;
        k->max_anisotropy = v->tex.maxAnisotropy;
        k->mip_bias = v->tex.mipmapLevelBias;
        k->min_lod_clamp = v->tex.minMipmapLevelClamp;
        k->max_lod_clamp = v->tex.maxMipmapLevelClamp;
        memcpy(k->border, v->tex.borderColor, sizeof(k->border));
    }
}

bool image_for_kernel(uint64_t handle, bool surface, struct kimage *out)
{
    struct obj *o;
    if (obj_lookup(handle, surface ? OBJ_SURFACE : OBJ_TEXTURE, &o) != OBJ_FOUND)
        return false;
    const struct image_view *v = (const struct image_view *)o;
    *out = v->k;
    /* The texture's bytes are those of the device memory that holds its first byte now, and a
     * texel outside them faults: the driver never looked at a linear resource's pointer, and an
     * array's memory goes with its context even while an object of another context holds it. */
    bool ok = true;
    uintptr_t lo, hi;
    if (!mem_kernel_extent(out->lo, 1, false, &lo, &hi) || lo == hi) {
        ok = false;
    } else {
        if (out->lo < lo)
            out->lo = lo;
        if (out->hi > hi)
            out->hi = hi;
    }
    obj_release(o);
    return ok;
}
