/*
 * src/interop/image_layout.h: the layouts exporters give images, derived from a CUDA array
 * descriptor (image_layout.c). Plain C, no core state: the Vulkan tests include it to compare
 * the derived layout with what the exporter reports.
 */
#ifndef EXTMEM_INTEROP_IMAGE_LAYOUT_H
#define EXTMEM_INTEROP_IMAGE_LAYOUT_H

#include "extmem/cuda.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One level as the exporter lays it out. */
struct ext_layout_level {
    uint64_t offset;               /* of element (0, 0, 0) of layer 0, from the image's start */
    uint32_t width, height, depth; /* in elements; depth: layers, or the level's depth slices */
    uint64_t row_pitch;            /* bytes from one row to the next */
    uint64_t slice_pitch;          /* bytes from one layer or depth slice to the next */
    uint64_t size;                 /* bytes of the level, all layers */
};

/* The levels of the image d describes as Mesa's llvmpipe lays them out (lavapipe's images, both
 * tilings), elem_bytes an element (a BC format: a 4x4 block); *total the image's bytes. False
 * when the sizes overflow. */
bool ext_image_layout_llvmpipe(const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned nlevels, unsigned elem_bytes,
                               struct ext_layout_level *levels, uint64_t *total);

#ifdef __cplusplus
}
#endif

#endif /* EXTMEM_INTEROP_IMAGE_LAYOUT_H */
