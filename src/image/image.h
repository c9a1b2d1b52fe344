/*
 * src/image/image.h: CUDA's image side as the rest of the core sees it (DESIGN.md §17): arrays
 * and mipmapped arrays (array.c, mipmap.c), copies with an array on either side (array_copy.c),
 * texture and surface objects (texture.c, surface.c) and what a kernel sees of them
 * (struct kimage, kernel/kernel.h).
 *
 * An array is device memory of the software device with a linear layout: each level is rows of
 * `row_pitch` bytes, depth slices or layers `slice_pitch` bytes apart (struct image_level). An
 * array extmem allocates uses the layout docs/images.md gives; an array over an imported
 * image (src/interop) uses the exporter's layout, so the array is the image's very bytes.
 *
 * Calls go one way: memory <- image <- {interop, module}. The memory folder's 2D/3D copies
 * reach arrays through the resolver image registers (mem_array_hook, memory.h).
 */
#ifndef EXTMEM_IMAGE_IMAGE_H
#define EXTMEM_IMAGE_IMAGE_H

#include "device/device.h"
#include "kernel/kernel.h"

/* One level of an array: where its bytes are and how they are laid out. */
struct image_level {
    uintptr_t base;                /* element (0, 0, 0) of layer 0: device memory */
    uint32_t width, height, depth; /* in elements; 1 where the array has no such dimension */
    uint64_t row_pitch;            /* bytes from one row to the next */
    uint64_t slice_pitch;          /* bytes from one depth slice (or layer) to the next */
    uint64_t size;                 /* bytes of the level, all layers */
};

struct image_mipmap;

/* A CUarray. Made by cuArrayCreate / cuArray3DCreate (its own memory), as a level of a
 * mipmapped array (its parent's memory; it lives as long as the parent) or over an imported
 * image (the external memory's; it keeps that alive). */
struct image_array {
    struct obj obj;                /* OBJ_ARRAY; the CUarray is (CUarray)(uintptr_t)obj.handle */
    CUDA_ARRAY3D_DESCRIPTOR desc;  /* as the caller gave it (Height and Depth 0 where unused) */
    unsigned elem_bytes;           /* one element, every channel (BC formats: one 4x4 block) */
    struct image_level level;
    struct image_mipmap *parent;   /* a mipmapped array's level, else NULL */
    struct ctx *ctx;
};

/* A CUmipmappedArray: levels of one allocation. */
struct image_mipmap {
    struct obj obj;                /* OBJ_MIPMAPPED_ARRAY */
    CUDA_ARRAY3D_DESCRIPTOR desc;  /* level 0's extent */
    unsigned elem_bytes;
    unsigned nlevels;
    struct image_level level[KIMAGE_MAX_LEVELS];
    struct ctx *ctx;
};

/* Looks up an array (a mipmapped array) handle for fn: on success *out holds a reference the
 * caller drops with image_array_put (image_mipmap_put); otherwise the driver's code
 * (INVALID_HANDLE, INVALID_VALUE for NULL as the call's rules say) with a reason. */
CUresult image_array_get(const char *fn, const char *what, CUarray array, struct image_array **out);
void image_array_put(struct image_array *a);
CUresult image_mipmap_get(const char *fn, const char *what, CUmipmappedArray mipmap, struct image_mipmap **out);
void image_mipmap_put(struct image_mipmap *m);

/* Makes a mipmapped array (nlevels levels) over memory someone else owns, with the levels
 * laid out as `levels` says (an imported image's layout): `keep` is retained until the
 * mipmapped array and every level handed out of it are destroyed. The descriptor's checks are
 * the caller's. */
CUresult image_mipmap_wrap(const char *fn, struct ctx *ctx, const CUDA_ARRAY3D_DESCRIPTOR *desc, unsigned nlevels,
                           const struct image_level *levels, struct obj *keep, struct image_mipmap **out);

/* Bytes of one element of format with channels channels (0 when the pair is not valid). */
unsigned image_element_bytes(CUarray_format format, unsigned channels);

/* What a kernel sees of the texture or surface object `handle` (khost.image): false when it
 * names no live object of that kind. */
bool image_for_kernel(uint64_t handle, bool surface, struct kimage *out);


/* ---- Arrays (array.c, mipmap.c; docs/images.md) ----
 * How the levels above read, for every array and level extmem makes or wraps:
 *  - width and height are the level's extent in texels (a 1D array: height 1); a BC format's
 *    rows are rows of 4x4 blocks (ceil(height / 4) of them), elem_bytes one block;
 *  - depth is a 3D level's depth; layered arrays and cubemaps have depth 1 and
 *    desc.Depth layers (faces included), slice_pitch apart; size covers every layer;
 *  - a planar (video) array's level is its luma plane; cuArrayGetPlane's planes are arrays;
 *  - image_array.ctx / image_mipmap.ctx are not references: a context's teardown takes the
 *    handles and the memory of its arrays (image_array_get fails from then on), while an
 *    object someone still holds stays allocated, with no memory.
 * image_array_get and image_mipmap_get answer CUDA_ERROR_INVALID_HANDLE for NULL, destroyed,
 * forged and wrong-type handles (callers whose call answers INVALID_VALUE for NULL check it
 * first). image_mipmap_wrap refuses 0 levels or more than KIMAGE_MAX_LEVELS. */
/* ---- Texture and surface objects (texture.c, surface.c, kernel_view.c) ---- */
/* A CUtexObject or CUsurfObject. Everything is fixed at creation: the descriptors as the caller
 * gave them, the array or mipmapped array it holds a reference on (so the array's memory stays
 * while the object lives, whatever happens to the array's handle), and what a kernel sees of it
 * (struct kimage), made once. */
struct image_view {
    struct obj obj;                /* OBJ_TEXTURE or OBJ_SURFACE */
    struct ctx *ctx;               /* a reference: objects are the context's, as on the driver */
    CUDA_RESOURCE_DESC res;
    CUDA_TEXTURE_DESC tex;         /* zero for a surface */
    CUDA_RESOURCE_VIEW_DESC view;
    bool has_view;
    struct image_array *array;     /* a reference, for CU_RESOURCE_TYPE_ARRAY */
    struct image_mipmap *mipmap;   /* a reference, for CU_RESOURCE_TYPE_MIPMAPPED_ARRAY */
    struct kimage k;
    struct list_node node;         /* on the list of live objects (texture.c) */
};

/* Checks a resource descriptor for a texture (surface: false) or surface object and takes the
 * references it needs into *v (res, array, mipmap); on failure nothing is held. */
CUresult image_resource_take(const char *fn, const CUDA_RESOURCE_DESC *res, bool surface, struct image_view *v);
/* Registers v (every field filled) as type OBJ_TEXTURE or OBJ_SURFACE: its handle. */
uint64_t image_view_register(struct image_view *v, obj_type type);
/* Looks up a live object of type made in the current context, for fn's getters: with a
 * reference (image_view_put), or the driver's code (CUDA_ERROR_INVALID_VALUE) with a reason. */
CUresult image_view_get(const char *fn, uint64_t handle, obj_type type, struct image_view **out);
void image_view_put(struct image_view *v);
/* cuTexObjectDestroy and cuSurfObjectDestroy: as on the driver, a handle that names no live
 * object of type is answered with CUDA_SUCCESS (with a warning). */
CUresult image_view_destroy(const char *fn, uint64_t handle, obj_type type);
/* cuTexObjectGetResourceDesc and cuSurfObjectGetResourceDesc: the resource descriptor of the
 * live object `handle` of type, as the driver hands it back (an array whose handle was destroyed
 * reads as NULL), or the getter's code with a reason. */
CUresult image_view_resource_desc(const char *fn, CUDA_RESOURCE_DESC *out, uint64_t handle, obj_type type);
/* Fills v->k from the resource, the view and the texture descriptor (kernel_view.c). */
void image_view_fill_kernel(struct image_view *v, bool surface);
/* The CUarray_format and channels of a resource view format (0 for NONE and unknown ones), and
 * whether it is block compressed. */
CUarray_format image_view_format(CUresourceViewFormat f, unsigned *channels, bool *block);
/* Checks desc for fn as cuArray3DCreate does, with the H100's codes and reasons (mipmapped: as
 * cuMipmappedArrayCreate does, with the mipmapped limits): format, channels, extent, flags and
 * limits (docs/images.md). For callers that make arrays of their own (imported images). */
CUresult image_check_desc(const char *fn, const CUDA_ARRAY3D_DESCRIPTOR *desc, bool mipmapped);

#endif /* EXTMEM_IMAGE_IMAGE_H */
