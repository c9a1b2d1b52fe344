/*
 * src/image/surface.c: surface objects (cuSurfObject*): an array made with
 * CUDA_ARRAY3D_SURFACE_LDST, read and written by suld/sust/sured. The registry, the resource's
 * checks and the teardown are texture.c's (struct image_view); the codes are driver 580's
 * (docs/probes/images/texobj/texobj_probe.out, "== surfaces").
 */
#include "image/image.h"

#include <stdlib.h>

CUresult CUDAAPI cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc)
{
    static const char fn[] = "cuSurfObjectCreate";
    REQUIRE_INIT(fn);
    /* The driver crashes on a NULL pSurfObject: extmem says INVALID_VALUE (DESIGN.md §4). */
    if (!pSurfObject)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pSurfObject is NULL", fn);
    if (!pResDesc)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pResDesc is NULL", fn);
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    struct image_view *v = calloc(1, sizeof(*v));
    if (!v) {
        ctx_release(ctx);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: no host memory for the surface object", fn);
    }
    v->ctx = ctx;
    if ((r = image_resource_take(fn, pResDesc, true, v)))
        goto fail;
    image_view_fill_kernel(v, true);
    uint64_t h = image_view_register(v, OBJ_SURFACE);
    if (!h) {
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: the handle registry is full", fn);
        goto fail;
    }
    *pSurfObject = h;
    return CUDA_SUCCESS;
fail:
    if (v->array)
        image_array_put(v->array);
    ctx_release(ctx);
    free(v);
    return r;
}

CUresult CUDAAPI cuSurfObjectDestroy(CUsurfObject surfObject)
{
    return image_view_destroy("cuSurfObjectDestroy", surfObject, OBJ_SURFACE);
}

CUresult CUDAAPI cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject)
{
    return image_view_resource_desc("cuSurfObjectGetResourceDesc", pResDesc, surfObject, OBJ_SURFACE);
}
