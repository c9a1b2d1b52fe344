/*
 * TEMPORARY (branch texobj, until the arrays helper's src/image/array.c and mipmap.c land on
 * main): the array lookups texture.c needs, answering that no array exists. Deleted at the merge.
 */
#include "image/image.h"

CUresult image_array_get(const char *fn, const char *what, CUarray array, struct image_array **out)
{
    (void)out;
    return fail(array ? CUDA_ERROR_INVALID_HANDLE : CUDA_ERROR_INVALID_VALUE, "%s: %s %p: no array exists yet", fn,
                what, (void *)array);
}
void image_array_put(struct image_array *a) { (void)a; }
CUresult image_mipmap_get(const char *fn, const char *what, CUmipmappedArray mipmap, struct image_mipmap **out)
{
    (void)out;
    return fail(mipmap ? CUDA_ERROR_INVALID_HANDLE : CUDA_ERROR_INVALID_VALUE, "%s: %s %p: no mipmapped array exists yet",
                fn, what, (void *)mipmap);
}
void image_mipmap_put(struct image_mipmap *m) { (void)m; }
