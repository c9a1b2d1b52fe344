/*
 * The layout Mesa's llvmpipe gives an image (lavapipe's images), derived from a CUDA array
 * descriptor: what an array over a lavapipe image's memory must look like
 * (cuExternalMemoryGetMappedMipmappedArray, external_image.c). Pure arithmetic, no state: the
 * Vulkan tests compile this file to compare it with vkGetImageSubresourceLayout.
 */
#include "interop/image_layout.h"

/* ---- llvmpipe's layout (Mesa's src/gallium/drivers/llvmpipe/lp_texture.c,
 * llvmpipe_texture_layout; lavapipe's vkGetImageSubresourceLayout reports it) ----
 * Per level: the width is rounded up to 4 texels and the height to 4 rows (1D images: 1 row),
 * LP_RASTER_BLOCK_SIZE, so that the rasteriser may touch whole 4x4 blocks; a row is then
 * rounded up to the CPU's cache line (64 bytes on the x86-64 and AArch64 machines Mesa runs
 * on). An image (one layer, one depth slice) is rows times the rounded height; a level is
 * images times layers (or, in 3D, the level's own depth); each level starts 64 bytes aligned
 * after the previous one. Compressed formats use whole blocks and no rounding. Checked
 * against lavapipe by tests/vk/vk_image_test.cpp for every case the tests use. */
#define LP_BLOCK 4u
#define LP_CACHELINE 64u
#define LP_MIP_ALIGN 64u

static uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
static uint32_t minify(uint32_t v, unsigned level) { return v >> level ? v >> level : 1; }

static bool is_bc(CUarray_format f) { return f >= CU_AD_FORMAT_BC1_UNORM && f <= CU_AD_FORMAT_BC7_UNORM_SRGB; }

bool ext_image_layout_llvmpipe(const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned nlevels, unsigned elem_bytes,
                               struct ext_layout_level *levels, uint64_t *total)
{
    bool layered = d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
    bool one_d = d->Height == 0;
    uint32_t w = (uint32_t)d->Width, h = one_d ? 1 : (uint32_t)d->Height;
    uint32_t depth = layered || d->Depth == 0 ? 1 : (uint32_t)d->Depth;
    uint32_t layers = layered ? (uint32_t)d->Depth : 1;
    uint64_t offset = 0;
    for (unsigned l = 0; l < nlevels; ++l) {
        uint32_t lw = minify(w, l), lh = one_d ? 1 : minify(h, l), ld = minify(depth, l);
        uint64_t row, rows;
        if (is_bc(d->Format)) {
            row = (uint64_t)((lw + 3) / 4) * elem_bytes;
            rows = (lh + 3) / 4;
        } else {
            row = round_up(round_up(lw, LP_BLOCK) * elem_bytes, LP_CACHELINE);
            rows = one_d ? 1 : round_up(lh, LP_BLOCK);
        }
        uint64_t image = row * rows;
        uint64_t slices = layered ? layers : ld;
        struct ext_layout_level *o = &levels[l];
        o->offset = offset;
        o->width = lw;
        o->height = lh;
        o->depth = layered ? layers : ld;
        o->row_pitch = row;
        o->slice_pitch = image;
        o->size = image * slices;
        if (o->size / slices != image || offset + o->size < offset)
            return false;
        offset += round_up(o->size, LP_MIP_ALIGN);
    }
    *total = offset;
    return true;
}
