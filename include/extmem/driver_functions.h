/*
 * extmem/driver_functions.h: the runtime's helpers that build pitched pointers, positions and
 * extents (cuda_runtime.h includes this, as NVIDIA's does).
 */
#ifndef EXTMEM_DRIVER_FUNCTIONS_H
#define EXTMEM_DRIVER_FUNCTIONS_H

#include "extmem/driver_types.h"

static inline struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz)
{
    struct cudaPitchedPtr r;
    r.ptr = d;
    r.pitch = p;
    r.xsize = xsz;
    r.ysize = ysz;
    return r;
}

static inline struct cudaPos make_cudaPos(size_t x, size_t y, size_t z)
{
    struct cudaPos r;
    r.x = x;
    r.y = y;
    r.z = z;
    return r;
}

static inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d)
{
    struct cudaExtent r;
    r.width = w;
    r.height = h;
    r.depth = d;
    return r;
}

#endif /* EXTMEM_DRIVER_FUNCTIONS_H */
