/*
 * src/image/array.h: what array.c, mipmap.c and array_copy.c share of arrays and mipmapped
 * arrays beyond image.h. Private to src/image.
 *
 * Lifetimes (docs/images.md): an array or a mipmapped array made by the API owns its memory
 * (a RANGE_ARRAY range of its context). A plane of a planar array and a level of a mipmapped
 * array are arrays of their own handle over their owner's memory; each keeps its owner alive
 * (a reference), and dies with it: the owner's destroy unregisters them, and cuArrayDestroy on
 * one of them does nothing (the driver answers success and the handle stays, as
 * docs/probes/images/arrays/array_probe.out shows for levels). Memory goes when the owner's
 * last reference goes, or earlier when its context is destroyed (the images teardown step,
 * before the memory step); a handle is dead from either point on.
 */
#ifndef EXTMEM_IMAGE_ARRAY_H
#define EXTMEM_IMAGE_ARRAY_H

#include "image/image.h"
#include "memory/memory.h"

/* What a format is made of (array.c's table). */
struct image_format {
    unsigned bytes;    /* plain formats: one channel; others: one element (one 4x4 block for BC) */
    unsigned channels; /* 0: 1, 2 or 4, chosen by NumChannels; else exactly this many */
    bool block;        /* BC: 4x4 texels an element */
    unsigned planes;   /* planar video formats: 2 or 3 (cuArrayGetPlane); else 0 */
    bool video;        /* a video format: only with CUDA_ARRAY3D_VIDEO_ENCODE_DECODE */
    /* Planar formats: plane 1's (and 2's) format, its channels, and how its extent divides
     * the array's (4:2:0: 2 and 2; 4:2:2: 2 and 1; 4:4:4: 1 and 1). Plane 0 is the luma:
     * `plane_format` with 1 channel, the array's extent. */
    CUarray_format plane_format;
    unsigned chroma_channels, xdiv, ydiv;
};
/* The format's description, or NULL for a value that is no CUarray_format the driver takes. */
const struct image_format *image_format_info(CUarray_format format);

#define IMAGE_MAX_PLANES 3

/* An array with what only src/image sees. */
struct array_impl {
    struct image_array a;
    struct range *mem;        /* owned memory (NULL: a level's or a plane's, or already freed) */
    struct obj *owner;        /* a plane: its array's obj; a level: its mipmap's (a reference) */
    struct obj *keep;         /* image_mipmap_wrap's kept object, for its own arrays: none */
    unsigned nplanes;
    struct array_impl *plane[IMAGE_MAX_PLANES];
    bool gone;                /* destroyed or its context torn down (under images_lock) */
    struct list_node node;    /* every owner of memory (images_lock) */
};

struct mipmap_impl {
    struct image_mipmap m;
    struct range *mem;
    struct obj *keep;         /* image_mipmap_wrap: the importer's object, released at the end */
    struct array_impl *levels[KIMAGE_MAX_LEVELS];
    bool gone;
    struct list_node node;
};

/* Guards `gone`, the planes' and levels' pointers, and the list of owners of memory. */
extern os_mutex images_lock;
extern struct list_node images_owners; /* array_impl.node: arrays that own memory */

/* Lays out one level of extent w x h x d (d: 3D depth, or layers) at offset `at` of base;
 * returns the offset after it (TEXTURE_ALIGNMENT-aligned). */
uint64_t image_layout_level(const CUDA_ARRAY3D_DESCRIPTOR *desc, unsigned elem_bytes, size_t w, size_t h, size_t d,
                            uintptr_t base, uint64_t at, struct image_level *out);
/* A new array object (not registered) describing desc over level; NULL when out of memory. */
struct array_impl *image_array_new(struct ctx *ctx, const CUDA_ARRAY3D_DESCRIPTOR *desc, unsigned elem_bytes,
                                   const struct image_level *level);
/* Registers a (its destroy callback frees what it owns); false when out of memory. */
bool image_array_register(struct array_impl *a);
/* Memory of size bytes for ctx, registered in the address maps as RANGE_ARRAY. */
CUresult image_memory(const char *fn, struct ctx *ctx, size_t size, struct range **out);
void image_memory_free(struct range *r);
/* cuArrayGetMemoryRequirements' answer for an array of desc whose layout takes size bytes. */
CUresult image_memory_requirements(const char *fn, const CUDA_ARRAY3D_DESCRIPTOR *desc, uint64_t size,
                                   CUDA_ARRAY_MEMORY_REQUIREMENTS *out, CUdevice device);
/* Levels: the mipmap's register function (mipmap.c) tells whether it is in the teardown list. */
void image_mipmaps_context_gone(struct ctx *ctx);
/* mem_array_hook's resolver (array_copy.c), installed with the first array. */
CUresult image_resolve_side(const char *fn, const char *side, CUarray array, size_t x, size_t y, size_t z,
                            size_t width, size_t height, size_t depth, uintptr_t *addr, size_t *pitch, size_t *slice);
/* texlod: the bytes of one element of a live array (mem_array_element_hook): a BC array's element
 * is one 4x4 block. */
CUresult image_array_element_bytes(const char *fn, const char *what, CUarray array, size_t *bytes);
/* The teardown step, registered when the first owner of memory of ctx is made (and the copy
 * resolver installed). */
void image_track_context(struct ctx *ctx);

#endif /* EXTMEM_IMAGE_ARRAY_H */
