/*
 * What the texture family (ops_tex.c: tex, tld4, txq, istypep) and the surface family
 * (ops_surf.c: suld, sust, sured, suq) share: the decoded operands of an image instruction (in
 * in->aux), the lookup of an object's struct kimage for a warp-instruction, and element access
 * inside the object's extent (docs/kernels.md, "Textures and surfaces"; docs/images.md,
 * "Sampling").
 */
#ifndef EXTMEM_KERNEL_OPS_IMAGE_H
#define EXTMEM_KERNEL_OPS_IMAGE_H

#include "kernel.h"

/* Geometries of the instructions' coordinates (PTX .1d .2d .3d .a1d .a2d .cube .acube). */
enum kimg_geom { KG_1D, KG_2D, KG_3D, KG_A1D, KG_A2D, KG_CUBE, KG_ACUBE };
/* txq / suq queries: the ones the H100's driver loads (docs/images.md). */
enum kimg_query { KQ_WIDTH, KQ_HEIGHT, KQ_DEPTH };

/* An image instruction's operands (in->aux, KF_OWNS_AUX). Slots are KOPND_NONE where unused. */
struct kimg_op {
    uint8_t geom;       /* enum kimg_geom */
    uint8_t ncoord;     /* coordinate slots read */
    uint8_t int_coords; /* tex with .s32 coordinates: texel indices, no filtering */
    uint8_t mip;        /* 0, 1 (.level) or 2 (.grad) */
    uint8_t comp;       /* tld4: the component gathered (0 r, 1 g, 2 b, 3 a) */
    uint8_t f16x2;      /* tex ... .v2.f16x2: the four results packed as halves */
    uint8_t query;      /* txq / suq: enum kimg_query */
    uint8_t bound;      /* surfaces: 0 .trap, 1 .clamp, 2 .zero */
    uint8_t esize;      /* surfaces: bytes of one element of the access (.b8 ... .b64, .b32 for .p) */
    uint8_t vec;        /* surfaces: 1, 2 or 4 elements */
    uint8_t formatted;  /* sust.p / sured.p: x counts elements, not bytes */
    uint8_t redop;      /* sured: 0 add, 1 min, 2 max, 3 and, 4 or */
    uint8_t red_signed; /* sured .s32 */
    kopnd handle;
    kopnd coord[4];
    kopnd lod;
    kopnd grad[2][3];
    kopnd dst[4];
    kopnd pred;
    kopnd val[4];       /* sust: values; sured: the operand */
    /* texlod: tex/tld4's optional operands (PTX ISA 9.0, tex and tld4: e and f). Texel offsets
     * are read as 4-bit (tex) or 6-bit (tld4) signed integers, as the H100 reads them; the
     * depth-compare value is read and ignored, as the H100 ignores it (no texture CUDA makes is a
     * depth texture: docs/images.md, "Sampling"). */
    uint8_t noffset;    /* offset components given (0: none) */
    kopnd offset[3];
    kopnd depth;        /* KOPND_NONE when absent */
};

/* The object a lane's handle names, for the warp-instruction: a handle equal to the previous
 * lane's reuses *im. False after faulting the launch: no live object of that kind
 * (CUDA_ERROR_ILLEGAL_ADDRESS, as the H100 reports a forged handle), a description that does not
 * hold together, or an extent that is not device memory the kernel may read (write: and write). */
struct kimg_cache {
    bool valid;
    uint64_t handle;
    struct kimage im;
};
bool kimg_get(struct kwarp *w, const struct kinsn *in, uint32_t lane, uint64_t handle, bool surface, bool write,
              struct kimg_cache *c);
/* The address of `bytes` bytes at byte offset `off` from level lv's element (0, 0) of slice or
 * layer z, row y: NULL after faulting (ILLEGAL_ADDRESS) when they do not lie in [lo, hi). */
unsigned char *kimg_addr(struct kwarp *w, const struct kinsn *in, uint32_t lane, const struct kimage *im,
                         const struct kimage_level *lv, uint64_t off, uint32_t y, uint32_t z, unsigned bytes);

/* Formats: how an element's channels are stored. */
enum kfmt_kind { KFK_NONE, KFK_UINT, KFK_SINT, KFK_HALF, KFK_FLOAT, KFK_UNORM, KFK_SNORM, KFK_1010102, KFK_BC };
struct kfmt {
    uint8_t kind;     /* enum kfmt_kind */
    uint8_t bits;     /* of one channel (1010102: 10; KFK_BC: 1, 2 or 3 for BC1 to BC3) */
    uint8_t srgb;     /* KFK_BC: an _SRGB format */
    uint8_t channels;
    uint8_t bc_signed; /* KFK_BC: BC4, BC5 SNORM or BC6H SF16 (part texfilter) */
};
/* The format of im's elements; kind KFK_NONE for the formats the engine does not decode
 * (BC-compressed and planar video formats). */
struct kfmt kimg_format(const struct kimage *im);
/* The raw channels of an element (integers zero-extended; halves and floats as bits). */
void kimg_raw(struct kfmt f, const unsigned char *p, uint32_t raw[4]);

/* Lowering helpers shared by the two families. */
bool kimg_lower_geom(struct klower *lw, const struct kparsed *p, struct kimg_op *op);
bool kimg_lower_coords(struct klower *lw, const struct kparsed *p, const struct kparsed_op *a, struct kimg_op *op,
                       bool surface);
/* txq / suq (width, height, depth; the other queries refused with NOT_SUPPORTED as the H100's
 * driver refuses them). */
bool kimg_lower_query(struct klower *lw, const struct kparsed *p, struct kinsn *in, bool surface);
/* Allocates the aux of in and marks it owned. */
struct kimg_op *kimg_new(struct klower *lw, struct kinsn *in);

/* Texel (i, j) of a block-compressed block at p (tex_bc.c): bc 1 to 7 (BC1 ... BC7), sgn for
 * BC4/BC5 SNORM and BC6H SF16. out[] holds RGBA in the representation returned: 8-bit values,
 * 16-bit unsigned (of 65535), 16-bit signed (of 32767, two's complement) or half bits. */
enum kbc_repr { KBC_UNORM8, KBC_UNORM16, KBC_SNORM16, KBC_HALF };
enum kbc_repr kimg_bc_decode(unsigned bc, bool sgn, const unsigned char *p, unsigned i, unsigned j, uint32_t out[4]);

/* half <-> float bits, exactly as the texture unit converts them (NaN payloads kept). */
uint32_t kimg_half_to_float(uint16_t h);
uint16_t kimg_float_to_half(uint32_t f);

#endif /* EXTMEM_KERNEL_OPS_IMAGE_H */
