/*
 * Texture instructions: tex (.1d .2d .3d .a1d .a2d .cube .acube, with .level and .grad), tld4
 * (gather), txq and istypep, on texture objects passed as .u64 handles (unified mode, what nvcc
 * and clang write for cudaTextureObject_t). The host's image callback gives the object's
 * struct kimage once per handle and warp-instruction (ops_image.h); every texel read lies in
 * the object's extent, which is device memory.
 *
 * Sampling follows what an H100 computes, probed bit for bit (docs/probes/images/sampling,
 * docs/images.md "Sampling"):
 * - a NaN coordinate counts as 0; normalized coordinates are taken to 22 fractional bits
 *   (toward minus infinity) before they are scaled by the size, after wrap reduced them to
 *   [0, 1) (mirror: [0, 2)); unnormalized coordinates are used as they are, and wrap and mirror
 *   act as clamp on them;
 * - point filtering takes the texel floor(u); linear filtering takes floor(u - 0.5) and the
 *   next, the weight being frac(u - 0.5) rounded to 1/256 (a fraction that rounds to 1 moves to
 *   the next pair);
 * - 2D weights are products of 8-bit fractions: w11 = round(wx * wy) to 1/256, the others its
 *   complements (w10 = wx - w11, w01 = wy - w11, w00 = 1 - wx - wy + w11); a 1D texture is
 *   filtered as a 2D one of height 1 sampled at y = 0, which shows only with a border;
 * - texels combine per format (combine(): f32 and halves in block floating point rounded with
 *   ties away from zero, normalized integers in 16-bit fixed point, signed 8-bit summed in
 *   8 bits and widened; part texfilter);
 * - 8-bit and 16-bit integers read as normalized floats are RN(v / (2^n - 1)), signed ones
 *   RN(max(v / (2^(n-1) - 1), -1)); sRGB decoding is the H100's table (16 significant bits);
 *   channels a format lacks read as 0 (alpha too);
 * - the border colour is quantized to the format for normalized reads, its bits masked to the
 *   channel for integer reads;
 * - layer indices are unsigned and clamp to the last layer; mip levels: lod + bias clamped to
 *   [min, max] and to the levels, point mip filtering takes floor(lod + 0.5), linear the two
 *   levels around lod with the fraction rounded to 1/256; .grad's lod is the H100's log2 of its
 *   footprint's major axis (gradlod: grad_lod_texels; cube maps by finite differences), and
 *   anisotropic samplers take the H100's taps along that axis (aniso_taps).
 */
#include "ops_image.h"
#include "softfloat.h"

#include <math.h>
#include <stdlib.h>

/* ---- Objects and memory (shared with ops_surf.c) ---- */

static bool kimage_consistent(const struct kimage *im)
{
    if (im->channels < 1 || im->channels > 4 || !im->texel_bytes || im->nlevels < 1 ||
        im->nlevels > KIMAGE_MAX_LEVELS || im->layers < 1 || im->hi <= im->lo ||
        im->geometry < KIMG_LINEAR || im->geometry > KIMG_CUBE)
        return false;
    if (im->geometry == KIMG_CUBE && im->layers % 6)
        return false;
    for (uint32_t i = 0; i < im->nlevels; ++i) {
        const struct kimage_level *lv = &im->level[i];
        if (!lv->width || !lv->height || !lv->depth)
            return false;
    }
    return true;
}

bool kimg_get(struct kwarp *w, const struct kinsn *in, uint32_t lane, uint64_t handle, bool surface, bool write,
              struct kimg_cache *c)
{
    if (c->valid && c->handle == handle)
        return true;
    c->valid = false;
    const struct khost *host = w->b->l->host;
    if (!host || !host->image || !host->image(handle, surface, &c->im)) {
        kfault(w, in, lane, CUDA_ERROR_ILLEGAL_ADDRESS, "0x%llx is no live %s object",
               (unsigned long long)handle, surface ? "surface" : "texture");
        return false;
    }
    if (!kimage_consistent(&c->im)) {
        kfault(w, in, lane, CUDA_ERROR_ILLEGAL_ADDRESS, "the %s object 0x%llx has an inconsistent description",
               surface ? "surface" : "texture", (unsigned long long)handle);
        return false;
    }
    /* The whole extent once: device memory the kernel may read (write: and write). */
    const struct kaddr_space *as = w->b->l->space;
    uintptr_t lo, hi;
    if (!as->extent(as, c->im.lo, c->im.hi - c->im.lo, write, &lo, &hi) || lo > c->im.lo || hi < c->im.hi) {
        kfault(w, in, lane, CUDA_ERROR_ILLEGAL_ADDRESS,
               "the %s object 0x%llx's memory [0x%llx, 0x%llx) is not device memory the kernel may %s",
               surface ? "surface" : "texture", (unsigned long long)handle, (unsigned long long)c->im.lo,
               (unsigned long long)c->im.hi, write ? "write" : "read");
        return false;
    }
    c->handle = handle;
    c->valid = true;
    return true;
}

unsigned char *kimg_addr(struct kwarp *w, const struct kinsn *in, uint32_t lane, const struct kimage *im,
                         const struct kimage_level *lv, uint64_t off, uint32_t y, uint32_t z, unsigned bytes)
{
    /* In 128-bit-free arithmetic: every term is bounded by the extent check below. */
    uint64_t a = (uint64_t)lv->base, rel;
    uint64_t ry = (uint64_t)y * lv->row_pitch, rz = (uint64_t)z * lv->slice_pitch;
    if (a < im->lo || a >= im->hi)
        goto out;
    rel = a - im->lo;
    if (ry / (lv->row_pitch ? lv->row_pitch : 1) != y || rz / (lv->slice_pitch ? lv->slice_pitch : 1) != z)
        goto out;
    rel += off;
    if (rel < off || rel + ry < rel)
        goto out;
    rel += ry;
    if (rel + rz < rel)
        goto out;
    rel += rz;
    if (rel >= im->hi - im->lo || bytes > im->hi - im->lo - rel)
        goto out;
    return (unsigned char *)(im->lo + (uintptr_t)rel);
out:
    kfault(w, in, lane, CUDA_ERROR_ILLEGAL_ADDRESS, "an element of the object lies outside its memory [0x%llx, 0x%llx)",
           (unsigned long long)im->lo, (unsigned long long)im->hi);
    return NULL;
}

struct kfmt kimg_format(const struct kimage *im)
{
    struct kfmt f = {KFK_NONE, 0, 0, im->channels, 0};
    switch (im->format) {
    case CU_AD_FORMAT_UNSIGNED_INT8: f.kind = KFK_UINT; f.bits = 8; break;
    case CU_AD_FORMAT_UNSIGNED_INT16: f.kind = KFK_UINT; f.bits = 16; break;
    case CU_AD_FORMAT_UNSIGNED_INT32: f.kind = KFK_UINT; f.bits = 32; break;
    case CU_AD_FORMAT_SIGNED_INT8: f.kind = KFK_SINT; f.bits = 8; break;
    case CU_AD_FORMAT_SIGNED_INT16: f.kind = KFK_SINT; f.bits = 16; break;
    case CU_AD_FORMAT_SIGNED_INT32: f.kind = KFK_SINT; f.bits = 32; break;
    case CU_AD_FORMAT_HALF: f.kind = KFK_HALF; f.bits = 16; break;
    case CU_AD_FORMAT_FLOAT: f.kind = KFK_FLOAT; f.bits = 32; break;
    case CU_AD_FORMAT_UNORM_INT8X1: case CU_AD_FORMAT_UNORM_INT8X2: case CU_AD_FORMAT_UNORM_INT8X4:
        f.kind = KFK_UNORM; f.bits = 8; f.channels = (uint8_t)(1u << (im->format - CU_AD_FORMAT_UNORM_INT8X1)); break;
    case CU_AD_FORMAT_UNORM_INT16X1: case CU_AD_FORMAT_UNORM_INT16X2: case CU_AD_FORMAT_UNORM_INT16X4:
        f.kind = KFK_UNORM; f.bits = 16; f.channels = (uint8_t)(1u << (im->format - CU_AD_FORMAT_UNORM_INT16X1)); break;
    case CU_AD_FORMAT_SNORM_INT8X1: case CU_AD_FORMAT_SNORM_INT8X2: case CU_AD_FORMAT_SNORM_INT8X4:
        f.kind = KFK_SNORM; f.bits = 8; f.channels = (uint8_t)(1u << (im->format - CU_AD_FORMAT_SNORM_INT8X1)); break;
    case CU_AD_FORMAT_SNORM_INT16X1: case CU_AD_FORMAT_SNORM_INT16X2: case CU_AD_FORMAT_SNORM_INT16X4:
        f.kind = KFK_SNORM; f.bits = 16; f.channels = (uint8_t)(1u << (im->format - CU_AD_FORMAT_SNORM_INT16X1)); break;
    case CU_AD_FORMAT_UNORM_INT_101010_2: f.kind = KFK_1010102; f.bits = 10; f.channels = 4; break;
    case CU_AD_FORMAT_BC1_UNORM: case CU_AD_FORMAT_BC1_UNORM_SRGB:
    case CU_AD_FORMAT_BC2_UNORM: case CU_AD_FORMAT_BC2_UNORM_SRGB:
    case CU_AD_FORMAT_BC3_UNORM: case CU_AD_FORMAT_BC3_UNORM_SRGB:
    case CU_AD_FORMAT_BC4_UNORM: case CU_AD_FORMAT_BC4_SNORM: case CU_AD_FORMAT_BC5_UNORM: case CU_AD_FORMAT_BC5_SNORM:
    case CU_AD_FORMAT_BC6H_UF16: case CU_AD_FORMAT_BC6H_SF16: case CU_AD_FORMAT_BC7_UNORM: case CU_AD_FORMAT_BC7_UNORM_SRGB:
        /* 4x4 blocks of 8 (BC1, BC4) or 16 bytes: texel_bytes is a block's; the decoder gives
         * all four channels (BC4 to BC6H: alpha 1, the missing colours 0) */
        f.kind = KFK_BC;
        f.bits = (uint8_t)((im->format - CU_AD_FORMAT_BC1_UNORM) / 2 + 1);
        f.srgb = (im->format - CU_AD_FORMAT_BC1_UNORM) & 1;
        if (f.bits >= 4) { /* BC4 ... BC7 (0x97 ... 0x9e): the odd ones of BC4 to BC6H are signed */
            f.srgb = im->format == CU_AD_FORMAT_BC7_UNORM_SRGB;
            f.bc_signed = im->format == CU_AD_FORMAT_BC4_SNORM || im->format == CU_AD_FORMAT_BC5_SNORM ||
                          im->format == CU_AD_FORMAT_BC6H_SF16;
        }
        f.channels = 4;
        if (im->texel_bytes != (f.bits == 1 || f.bits == 4 ? 8u : 16u))
            f.kind = KFK_NONE;
        return f;
    default: break;
    }
    if (f.kind != KFK_NONE && f.kind != KFK_1010102 && (unsigned)f.channels * f.bits / 8 != im->texel_bytes)
        f.kind = KFK_NONE; /* the description does not hold together: read nothing */
    if (f.kind == KFK_1010102 && im->texel_bytes != 4)
        f.kind = KFK_NONE;
    return f;
}

void kimg_raw(struct kfmt f, const unsigned char *p, uint32_t raw[4])
{
    raw[0] = raw[1] = raw[2] = raw[3] = 0;
    if (f.kind == KFK_1010102) {
        uint32_t v;
        memcpy(&v, p, 4);
        raw[0] = v & 0x3ff;
        raw[1] = (v >> 10) & 0x3ff;
        raw[2] = (v >> 20) & 0x3ff;
        raw[3] = v >> 30;
        return;
    }
    for (unsigned c = 0; c < f.channels && c < 4; ++c) {
        switch (f.bits) {
        case 8: raw[c] = p[c]; break;
        case 16: { uint16_t v; memcpy(&v, p + 2 * c, 2); raw[c] = v; break; }
        default: memcpy(&raw[c], p + 4 * c, 4); break;
        }
    }
}

uint32_t kimg_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ffu;
    if (e == 0x1f)
        return sign | 0x7f800000u | (m << 13); /* infinities and NaNs, payload kept (not quieted) */
    if (e)
        return sign | ((e + 112) << 23) | (m << 13);
    if (!m)
        return sign;
    int s = 0;
    while (!(m & 0x400u)) {
        m <<= 1;
        s++;
    }
    return sign | ((uint32_t)(113 - s) << 23) | ((m & 0x3ffu) << 13);
}

uint16_t kimg_float_to_half(uint32_t f)
{
    uint32_t sign = (f >> 16) & 0x8000u, e = (f >> 23) & 0xff, m = f & 0x7fffffu;
    if (e == 0xff)
        return (uint16_t)(sign | 0x7c00u | (m ? 0x200u | (m >> 13) : 0));
    int ee = (int)e - 127 + 15;
    if (ee >= 31)
        return (uint16_t)(sign | 0x7c00u);
    uint32_t mant = m | (e ? 0x800000u : 0);
    int shift = ee > 0 ? 13 : 14 - ee; /* subnormal halves */
    if (e == 0 || shift > 24)
        return (uint16_t)sign;
    uint32_t q = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    uint32_t bits = ee > 0 ? (((uint32_t)ee << 10) + (q - 0x400u)) : q; /* a carry moves into the exponent */
    return (uint16_t)(sign | bits);
}

struct kimg_op *kimg_new(struct klower *lw, struct kinsn *in)
{
    struct kimg_op *op = calloc(1, sizeof(*op));
    if (!op) {
        kl_refuse(lw, "out of memory");
        return NULL;
    }
    op->handle = op->lod = op->pred = KOPND_NONE;
    for (int i = 0; i < 4; ++i)
        op->coord[i] = op->dst[i] = op->val[i] = KOPND_NONE;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            op->grad[i][j] = KOPND_NONE;
    in->aux = op;
    in->flags |= KF_OWNS_AUX;
    return op;
}

bool kimg_lower_geom(struct klower *lw, const struct kparsed *p, struct kimg_op *op)
{
    static const kmod g[] = {KM_d1, KM_d2, KM_d3, KM_a1d, KM_a2d, KM_cube, KM_acube};
    int found = -1;
    for (int i = 0; i < 7; ++i)
        if (kp_has(p, g[i])) {
            if (found >= 0)
                return kl_refuse(lw, "'%s' names two geometries", p->text);
            found = i;
        }
    if (found < 0)
        return kl_refuse(lw, "'%s' names no geometry (.1d .2d .3d .a1d .a2d .cube .acube)", p->text);
    op->geom = (uint8_t)found;
    return true;
}

/* The coordinates [handle, {..}]: how many each geometry reads (PTX pads .3d, .a2d, .cube
 * to four). */
bool kimg_lower_coords(struct klower *lw, const struct kparsed *p, const struct kparsed_op *a, struct kimg_op *op,
                       bool surface)
{
    static const uint8_t need[] = {1, 2, 3, 2, 3, 3, 4}; /* read */
    static const uint8_t given[] = {1, 2, 4, 2, 4, 4, 4}; /* written */
    if (a->kind != KO_ADDR || !a->image)
        return kl_refuse(lw, "'%s': expected [handle, {coordinates}]", p->text);
    op->handle = a->slot;
    unsigned n = need[op->geom];
    if (surface && op->geom >= KG_CUBE)
        return kl_refuse(lw, "'%s': surfaces have no cube geometry (cubemaps are accessed as .a2d)", p->text);
    if (a->nvec != n && a->nvec != given[op->geom])
        return kl_refuse(lw, "'%s': .%s takes %u coordinates, %u are given", p->text,
                         (const char *[]){"1d", "2d", "3d", "a1d", "a2d", "cube", "acube"}[op->geom], (unsigned)given[op->geom],
                         a->nvec);
    for (unsigned i = 0; i < n; ++i) {
        if (a->vec[i] == KOPND_NONE)
            return kl_refuse(lw, "'%s': coordinate %u is missing", p->text, i + 1);
        op->coord[i] = a->vec[i];
    }
    op->ncoord = (uint8_t)n;
    return true;
}

/* ---- Texel reads ---- */

/* The H100's sRGB decoding of 0..255: the high 16 bits of the f32 results. */
static const uint16_t srgb_table[256] = {
    0x0000u, 0x39a0u, 0x3a20u, 0x3a70u, 0x3aa0u, 0x3ac8u, 0x3af0u, 0x3b0cu, 0x3b20u, 0x3b34u, 0x3b48u, 0x3b5cu, 
    0x3b70u, 0x3b84u, 0x3b90u, 0x3b9cu, 0x3baau, 0x3bb8u, 0x3bc6u, 0x3bd6u, 0x3be6u, 0x3bf6u, 0x3c03u, 0x3c0cu, 
    0x3c16u, 0x3c1fu, 0x3c29u, 0x3c34u, 0x3c3eu, 0x3c49u, 0x3c55u, 0x3c60u, 0x3c6cu, 0x3c7au, 0x3c83u, 0x3c8au, 
    0x3c91u, 0x3c98u, 0x3c9fu, 0x3ca6u, 0x3caeu, 0x3cb6u, 0x3cbeu, 0x3cc6u, 0x3cceu, 0x3cd7u, 0x3ce0u, 0x3ce9u, 
    0x3cf2u, 0x3cfcu, 0x3d03u, 0x3d08u, 0x3d0du, 0x3d12u, 0x3d17u, 0x3d1cu, 0x3d22u, 0x3d28u, 0x3d2du, 0x3d33u, 
    0x3d39u, 0x3d3fu, 0x3d45u, 0x3d4cu, 0x3d52u, 0x3d58u, 0x3d60u, 0x3d66u, 0x3d6cu, 0x3d74u, 0x3d7au, 0x3d81u, 
    0x3d85u, 0x3d88u, 0x3d8cu, 0x3d90u, 0x3d94u, 0x3d98u, 0x3d9cu, 0x3da0u, 0x3da4u, 0x3da9u, 0x3dadu, 0x3db1u, 
    0x3db6u, 0x3dbau, 0x3dbfu, 0x3dc3u, 0x3dc8u, 0x3dcdu, 0x3dd1u, 0x3dd6u, 0x3ddbu, 0x3de0u, 0x3de5u, 0x3deau, 
    0x3df0u, 0x3df4u, 0x3dfau, 0x3e00u, 0x3e02u, 0x3e05u, 0x3e08u, 0x3e0bu, 0x3e0eu, 0x3e11u, 0x3e14u, 0x3e17u, 
    0x3e1au, 0x3e1du, 0x3e20u, 0x3e23u, 0x3e26u, 0x3e29u, 0x3e2cu, 0x3e30u, 0x3e33u, 0x3e36u, 0x3e3au, 0x3e3du, 
    0x3e40u, 0x3e44u, 0x3e47u, 0x3e4bu, 0x3e4eu, 0x3e52u, 0x3e56u, 0x3e59u, 0x3e5du, 0x3e61u, 0x3e65u, 0x3e68u, 
    0x3e6cu, 0x3e70u, 0x3e74u, 0x3e78u, 0x3e7cu, 0x3e80u, 0x3e82u, 0x3e84u, 0x3e86u, 0x3e88u, 0x3e8au, 0x3e8du, 
    0x3e8fu, 0x3e91u, 0x3e93u, 0x3e95u, 0x3e98u, 0x3e9au, 0x3e9cu, 0x3e9eu, 0x3ea1u, 0x3ea3u, 0x3ea5u, 0x3ea8u, 
    0x3eaau, 0x3eadu, 0x3eafu, 0x3eb2u, 0x3eb4u, 0x3eb6u, 0x3eb9u, 0x3ebcu, 0x3ebeu, 0x3ec1u, 0x3ec3u, 0x3ec6u, 
    0x3ec8u, 0x3ecbu, 0x3eceu, 0x3ed1u, 0x3ed3u, 0x3ed6u, 0x3ed9u, 0x3edbu, 0x3edeu, 0x3ee1u, 0x3ee4u, 0x3ee7u, 
    0x3eeau, 0x3eedu, 0x3ef0u, 0x3ef2u, 0x3ef6u, 0x3ef8u, 0x3efcu, 0x3efeu, 0x3f01u, 0x3f02u, 0x3f04u, 0x3f05u, 
    0x3f07u, 0x3f09u, 0x3f0au, 0x3f0cu, 0x3f0du, 0x3f0fu, 0x3f11u, 0x3f12u, 0x3f14u, 0x3f16u, 0x3f17u, 0x3f19u, 
    0x3f1bu, 0x3f1cu, 0x3f1eu, 0x3f20u, 0x3f21u, 0x3f23u, 0x3f25u, 0x3f27u, 0x3f29u, 0x3f2au, 0x3f2cu, 0x3f2eu, 
    0x3f30u, 0x3f32u, 0x3f33u, 0x3f35u, 0x3f37u, 0x3f39u, 0x3f3bu, 0x3f3du, 0x3f3fu, 0x3f41u, 0x3f43u, 0x3f45u, 
    0x3f47u, 0x3f49u, 0x3f4bu, 0x3f4du, 0x3f4fu, 0x3f51u, 0x3f53u, 0x3f55u, 0x3f57u, 0x3f59u, 0x3f5bu, 0x3f5du, 
    0x3f5fu, 0x3f61u, 0x3f63u, 0x3f65u, 0x3f68u, 0x3f6au, 0x3f6cu, 0x3f6eu, 0x3f70u, 0x3f72u, 0x3f74u, 0x3f76u, 
    0x3f7au, 0x3f7cu, 0x3f7eu, 0x3f80u
};

/* tex3d: inside the linear filter an sRGB texel's exponent is one higher than its value's leading
 * bit for these codes (just below a power of two: 32, 33, 48, 49, 64-70, 96-98, 136, 184-187,
 * 248-254), so a texel filtered with one of them is cut a bit more coarsely. Fitted to every pair
 * of 8-bit sRGB values at 16 weights, every value with 0, 1, itself, 128 and 255 at all 256
 * weights, and 65536 four-texel footprints: all exact (docs/probes/kernels/tex3d). */
static int srgb_exponent_bump(float v)
{
    static const uint8_t bumped[] = {32, 33, 48, 49, 64, 65, 66, 67, 68, 69, 70, 96, 97,
                                     98, 136, 184, 185, 186, 187, 248, 249, 250, 251, 252, 253, 254};
    uint32_t hi = (uint32_t)kbits32(v) >> 16;
    if ((uint32_t)kbits32(v) & 0xffffu)
        return 0; /* not a decoded sRGB value (a filtered one of two levels, say) */
    for (size_t i = 0; i < sizeof(bumped); ++i)
        if (srgb_table[bumped[i]] == hi)
            return 1;
    return 0;
}

/* What sampling works with: a texel's four channels as floats (a normalized or float read)
 * or as raw integers (an integer read). */
struct ktexel {
    union {
        float f[4];
        uint32_t u[4];
    };
    double fx[4]; /* normalized integer formats: the value in 16-bit fixed point (unorm: of 65535,
                     snorm: of 32767), what the filter combines */
};

/* How linear filtering combines a format's texels (probed, docs/images.md): */
enum kfilter_path {
    KFP_FLOAT,   /* f32: texels aligned to the largest one's exponent with 28 bits, summed, rounded once */
    KFP_UNORM16, /* unsigned normalized: 16-bit fixed point, the sum rounded to 16 bits */
    KFP_SNORM16, /* signed normalized: the same of 32767 */
    KFP_HALF,    /* halves and sRGB: the exact sum rounded to half precision */
    KFP_SNORM8,  /* signed normalized 8-bit: the 8-bit values summed, widened to 16 bits (part texfilter) */
};

struct ksampler {
    struct kwarp *w;
    const struct kinsn *in;
    uint32_t lane;
    const struct kimage *im;
    struct kfmt fmt;
    bool int_read;    /* integers as integers: READ_AS_INTEGER or 32-bit integer formats */
    bool srgb;
    bool failed;      /* faulted */
    uint8_t path;     /* enum kfilter_path */
    bool seamless;    /* a cube map's face edges read the neighbouring faces */
    uint32_t levels_inside; /* bit l: every element of level l lies in [lo, hi) (no check per texel) */
    uint32_t face;    /* the face being read (seamless) */
    uint32_t layer;   /* the layer (cube: face) being read */
    struct ktexel border;
    /* gradlod: an anisotropic tap asks for its bilinear footprint (one level) instead of the
     * filtered value: cap_n texels and weights (1/256), or -1 where the sample is not that */
    bool capture;
    int cap_n;
    struct ktexel cap_t[4];
    uint32_t cap_w[4];
};

static float unorm(uint32_t v, unsigned bits)
{
    return (float)((double)v / (double)((1u << bits) - 1));
}
static float snorm(uint32_t v, unsigned bits)
{
    int32_t s = (int32_t)(v << (32 - bits)) >> (32 - bits);
    double d = (double)s / (double)((1u << (bits - 1)) - 1);
    return (float)(d < -1.0 ? -1.0 : d);
}

static void decode(const struct ksampler *s, const uint32_t raw[4], struct ktexel *t)
{
    const struct kfmt f = s->fmt;
    /* Every field of every channel defined: the filters read fx (the 16-bit paths) of all four,
     * and a missing channel's, left as the stack had it, made 1-channel linear filtering flaky
     * (valgrind: combine's reads; cuda.nvcc.textures failed once in CI). */
    memset(t, 0, sizeof(*t));
    for (unsigned c = 0; c < 4; ++c) {
        if (c >= f.channels)
            continue; /* a missing channel reads 0, alpha too (probed) */
        uint32_t v = raw[c];
        switch (f.kind) {
        case KFK_BC:
            if ((s->srgb || f.srgb) && c < 3) {
                t->u[c] = (uint32_t)srgb_table[v] << 16;
            } else {
                t->f[c] = unorm(v, 8);
                t->fx[c] = v * 257.0;
            }
            break;
        case KFK_UINT:
        case KFK_UNORM:
            if (s->int_read) {
                t->u[c] = v;
            } else if (s->srgb && f.bits == 8 && c < (f.channels == 2 ? 1u : 3u)) { /* 2 channels: red only (probed) */
                t->u[c] = (uint32_t)srgb_table[v] << 16;
            } else {
                t->f[c] = unorm(v, f.bits);
                t->fx[c] = f.bits == 8 ? v * 257.0 : (double)v;
            }
            break;
        case KFK_SINT:
        case KFK_SNORM:
            if (s->int_read) {
                t->u[c] = f.bits == 32 ? v : (uint32_t)((int32_t)(v << (32 - f.bits)) >> (32 - f.bits));
            } else {
                t->f[c] = snorm(v, f.bits);
                int32_t sv = (int32_t)(v << (32 - f.bits)) >> (32 - f.bits);
                double max = (double)((1u << (f.bits - 1)) - 1);
                /* 8 bits: the value itself, -128 included (KFP_SNORM8) */
                t->fx[c] = f.bits == 8 ? (double)sv : (sv < -max ? -max : sv) * 32767.0 / max;
            }
            break;
        case KFK_1010102:
            t->f[c] = unorm(v, c == 3 ? 2 : 10);
            break;
        case KFK_HALF:
            t->u[c] = kimg_half_to_float((uint16_t)v);
            break;
        default:
            t->u[c] = v;
            break;
        }
    }
}

/* The border colour as the format reads it. */
static void make_border(struct ksampler *s)
{
    const struct kimage *im = s->im;
    const struct kfmt f = s->fmt;
    for (unsigned c = 0; c < 4; ++c) {
        float b = im->border[c];
        if (c >= f.channels) {
            s->border.u[c] = 0;
            s->border.fx[c] = 0;
            continue;
        }
        if (s->int_read) {
            uint32_t bits = (uint32_t)kbits32(b);
            if (f.bits < 32) {
                bits &= (1u << f.bits) - 1;
                if (f.kind == KFK_SINT)
                    bits = (uint32_t)((int32_t)(bits << (32 - f.bits)) >> (32 - f.bits));
            }
            s->border.u[c] = bits;
            continue;
        }
        bool is_unorm = f.kind == KFK_UINT || f.kind == KFK_UNORM || f.kind == KFK_1010102;
        bool is_snorm = f.kind == KFK_SINT || f.kind == KFK_SNORM;
        if (is_unorm || is_snorm) {
            unsigned bits = f.kind == KFK_1010102 ? (c == 3 ? 2u : 10u) : f.bits;
            double max = is_unorm ? (double)((1u << bits) - 1) : (double)((1u << (bits - 1)) - 1);
            double v = b != b ? 0.0 : b;
            v = v > 1.0 ? 1.0 : v < (is_unorm ? 0.0 : -1.0) ? (is_unorm ? 0.0 : -1.0) : v;
            double k;
            if (s->srgb && is_unorm && bits == 8 && c < (f.channels == 2 ? 1u : 3u)) {
                /* sRGB: the colour is encoded, quantized and decoded as a texel would be */
                double e = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1.0 / 2.4) - 0.055;
                k = ceil(e * 255.0 - 0.5);
                s->border.u[c] = (uint32_t)srgb_table[(int)k] << 16;
                s->border.fx[c] = 0;
                continue;
            }
            if (is_unorm) /* the colour in 16 fractional bits first, cut (0.3f reads as 76 of 255, 19660 of 65535) */
                v = floor(v * 65536.0) / 65536.0;
            k = ceil(v * max - 0.5) + 0.0; /* ties go down: 0.5 of 8 bits is 127 (probed); no -0 */
            s->border.f[c] = (float)(k / max);
            s->border.fx[c] = is_unorm ? k * 65535.0 / max : bits == 8 ? k : k * 32767.0 / max;
        } else if (f.kind == KFK_HALF) {
            /* a half format's border is the colour cut to half precision (0.3 reads 0x34cc) */
            s->border.u[c] = kimg_half_to_float((uint16_t)ksf_from_double(&ksf_f16, (double)b, KSF_RZ));
        } else {
            s->border.f[c] = b;
        }
    }
}

/* A decoded block-compressed texel (tex_bc.c) as sampling works with it. */
static void bc_texel(const struct ksampler *s, enum kbc_repr r, const uint32_t v[4], struct ktexel *t)
{
    if (r == KBC_UNORM8) {
        decode(s, v, t);
        return;
    }
    memset(t, 0, sizeof(*t));
    for (unsigned c = 0; c < 4; ++c) {
        switch (r) {
        case KBC_UNORM16:
            t->f[c] = unorm(v[c], 16);
            t->fx[c] = (double)v[c];
            break;
        case KBC_SNORM16: {
            int32_t sv = (int32_t)v[c];
            t->f[c] = (float)((double)sv / 32767.0 < -1.0 ? -1.0 : (double)sv / 32767.0);
            t->fx[c] = (double)sv;
            break;
        }
        default:
            t->u[c] = kimg_half_to_float((uint16_t)v[c]);
            break;
        }
    }
}

/* Texel (x, y, z) of level lv, layer `layer` (indices already in range). */
static void texel(struct ksampler *s, const struct kimage_level *lv, uint32_t x, uint32_t y, uint32_t z,
                  struct ktexel *t)
{
    const struct kimage *im = s->im;
    uint32_t slice = im->geometry == KIMG_3D ? z : s->layer;
    const unsigned char *p;
    if (s->fmt.kind == KFK_BC) {
        /* the texel's 4x4 block: rows of blocks, row_pitch apart */
        p = kimg_addr(s->w, s->in, s->lane, im, lv, (uint64_t)(x / 4) * im->texel_bytes, y / 4, slice,
                      im->texel_bytes);
        if (!p) {
            s->failed = true;
            memset(t, 0, sizeof(*t));
            return;
        }
        uint32_t raw[4];
        enum kbc_repr r = kimg_bc_decode(s->fmt.bits, s->fmt.bc_signed, p, x % 4, y % 4, raw);
        bc_texel(s, r, raw, t);
        return;
    }
    if ((s->levels_inside >> (lv - im->level)) & 1u)
        p = (const unsigned char *)(lv->base + (uintptr_t)slice * lv->slice_pitch + (uintptr_t)y * lv->row_pitch +
                                    (uintptr_t)x * im->texel_bytes); /* in range: the level lies in the extent */
    else
        p = kimg_addr(s->w, s->in, s->lane, im, lv, (uint64_t)x * im->texel_bytes, y, slice, im->texel_bytes);
    if (!p) {
        s->failed = true;
        memset(t, 0, sizeof(*t));
        return;
    }
    uint32_t raw[4];
    kimg_raw(s->fmt, p, raw);
    decode(s, raw, t);
}

/* ---- Addressing ---- */

#define KCOORD_ONE 4194304.0 /* normalized coordinates keep 22 fractional bits (probed) */
#define KCOORD_LIMIT 1073741824.0 /* |u| beyond this clamps: every mode's answer is settled by then */

/* An index after the address mode: -1 for the border. Unnormalized coordinates have only clamp
 * and border (wrap and mirror act as clamp on the H100). */
static int64_t address(int64_t i, uint32_t n, unsigned mode)
{
    switch (mode) {
    case CU_TR_ADDRESS_MODE_WRAP: {
        int64_t m = i % (int64_t)n;
        return m < 0 ? m + n : m;
    }
    case CU_TR_ADDRESS_MODE_MIRROR: {
        int64_t p = 2 * (int64_t)n, m = i % p;
        if (m < 0)
            m += p;
        return m < n ? m : p - 1 - m;
    }
    case CU_TR_ADDRESS_MODE_BORDER:
        return i >= 0 && i < (int64_t)n ? i : -1;
    default:
        return i < 0 ? 0 : i >= (int64_t)n ? (int64_t)n - 1 : i;
    }
}

/* A coordinate in texel units (exact in a double). */
static double texel_coord(double x, uint32_t n, bool normalized, unsigned *mode)
{
    double d = x != x ? 0.0 : x;
    if (!normalized) {
        if (*mode == CU_TR_ADDRESS_MODE_WRAP || *mode == CU_TR_ADDRESS_MODE_MIRROR)
            *mode = CU_TR_ADDRESS_MODE_CLAMP;
    } else {
        if (*mode == CU_TR_ADDRESS_MODE_WRAP)
            d = isinf(d) ? 0.0 : d - floor(d);
        else if (*mode == CU_TR_ADDRESS_MODE_MIRROR)
            d = isinf(d) ? 0.0 : d - 2.0 * floor(d / 2.0);
        else
            d = d > 32768.0 ? 32768.0 : d < -32768.0 ? -32768.0 : d;
        d = floor(d * KCOORD_ONE) / KCOORD_ONE * (double)n; /* 22 fractional bits, then the size */
    }
    return d > KCOORD_LIMIT ? KCOORD_LIMIT : d < -KCOORD_LIMIT ? -KCOORD_LIMIT : d;
}

/* The footprint along one dimension: index (point) or the pair and 8-bit weight (linear). */
struct kaxis {
    int64_t i0, i1;  /* after the address mode (-1: border) */
    int64_t r0, r1;  /* before it */
    uint32_t w;      /* of i1, in 1/256 */
};
static struct kaxis axis(double u, uint32_t n, unsigned mode, bool linear)
{
    struct kaxis a;
    if (!linear) {
        a.r0 = a.r1 = (int64_t)floor(u);
        a.i0 = a.i1 = address(a.r0, n, mode);
        a.w = 0;
        return a;
    }
    double up = u - 0.5, f0 = floor(up);
    uint32_t w = (uint32_t)floor((up - f0) * 256.0 + 0.5);
    int64_t i = (int64_t)f0;
    if (w == 256) {
        i++;
        w = 0;
    }
    a.r0 = i;
    a.r1 = i + 1;
    a.i0 = address(i, n, mode);
    a.i1 = address(i + 1, n, mode);
    a.w = w;
    return a;
}

/* ---- Filtering ---- */

static void fetch(struct ksampler *s, const struct kimage_level *lv, int64_t x, int64_t y, int64_t z,
                  struct ktexel *t)
{
    if (x < 0 || y < 0 || z < 0)
        *t = s->border;
    else
        texel(s, lv, (uint32_t)x, (uint32_t)y, (uint32_t)z, t);
}

static uint32_t cube_face(float x, float y, float z, double *s, double *t);

/* A texel of a cube face that may lie past the face's edge: read from the neighbouring face
 * whose texel the edge texel's centre direction reaches (seamless cube maps). */
static void fetch_seamless(struct ksampler *s, const struct kimage_level *lv, int64_t i, int64_t j,
                           struct ktexel *t)
{
    int64_t n = lv->width;
    uint32_t base = s->layer - s->face;
    if (i >= 0 && i < n && j >= 0 && j < n) {
        texel(s, lv, (uint32_t)i, (uint32_t)j, 0, t);
        return;
    }
    float sc = (float)(2.0 * ((double)i + 0.5) / (double)n - 1.0), tc = (float)(2.0 * ((double)j + 0.5) / (double)n - 1.0);
    float d[3];
    switch (s->face) {
    case 0: d[0] = 1; d[1] = -tc; d[2] = -sc; break;
    case 1: d[0] = -1; d[1] = -tc; d[2] = sc; break;
    case 2: d[0] = sc; d[1] = 1; d[2] = tc; break;
    case 3: d[0] = sc; d[1] = -1; d[2] = -tc; break;
    case 4: d[0] = sc; d[1] = -tc; d[2] = 1; break;
    default: d[0] = -sc; d[1] = -tc; d[2] = -1; break;
    }
    double fs, ft;
    uint32_t face = cube_face(d[0], d[1], d[2], &fs, &ft);
    int64_t x = (int64_t)floor(fs * (double)n), y = (int64_t)floor(ft * (double)n);
    x = x < 0 ? 0 : x >= n ? n - 1 : x;
    y = y < 0 ? 0 : y >= n ? n - 1 : y;
    uint32_t keep = s->layer;
    s->layer = base + face;
    texel(s, lv, (uint32_t)x, (uint32_t)y, 0, t);
    s->layer = keep;
}

/* A double rounded to half precision, as f32 bits. */
static uint32_t half_round(double d)
{
    if (d != d)
        return 0x7fffe000u; /* the half NaN 0x7fff (probed) */
    return kimg_half_to_float((uint16_t)ksf_from_double(&ksf_f16, d, KSF_RNA)); /* ties away (probed) */
}

/* floor(v / 2^n), an arithmetic shift on every compiler */
static int64_t floor_shift(int64_t v, unsigned n)
{
    return v >= 0 ? v >> n : -((-v - 1) >> n) - 1;
}

/* d rounded to f32, to nearest with ties away from zero: how the f32 filter rounds its exact
 * sum (every one of a million two-texel samples and 74000 four-texel ones of
 * docs/probes/kernels/texfilter; ties to even missed 1.4%). */
static float f32_away(double d)
{
    float f = (float)d;
    if ((double)f == d || !isfinite(f) || fabs((double)f) > fabs(d))
        return f;
    float g = nextafterf(f, d > 0 ? INFINITY : -INFINITY);
    return (double)f + ((double)g - (double)f) / 2 == d ? g : f;
}

/* The exact sum of texels t[0 .. n)'s channel c times their weights, each texel that counts cut
 * toward zero to `bits` below the leading bit of the largest (the sRGB values' exponents as the
 * filter has them: srgb_exponent_bump); nothing is cut where an infinity or a NaN counts. */
static double block_sum(const struct ktexel *t, const uint32_t *w, int n, int c, int bits)
{
    int emax = INT32_MIN, emin = INT32_MAX;
    bool special = false;
    for (int k = 0; k < n; ++k) {
        float v = t[k].f[c];
        if (!w[k] || v == 0)
            continue;
        uint32_t be = ((uint32_t)kbits32(v) >> 23) & 0xff;
        int e;
        if (be == 0xff) {
            special = true;
            continue;
        }
        if (be)
            e = (int)be - 126; /* frexp's exponent of a normal value */
        else
            frexpf(v, &e);
        if (bits == 8)
            e += srgb_exponent_bump(v); /* tex3d */
        emax = e > emax ? e : emax;
        emin = e < emin ? e : emin;
    }
    /* Nothing to cut when every texel's 24 bits reach no lower than `bits` below the
     * largest's leading bit. */
    bool cut = !special && emax != INT32_MIN && emax - emin > bits - 24;
    double q = cut ? ldexp(1.0, emax - bits) : 1.0, rq = cut ? ldexp(1.0, bits - emax) : 1.0;
    double acc = 0;
    for (int k = 0; k < n; ++k) {
        if (!w[k])
            continue;
        double v = t[k].f[c];
        if (cut)
            v = trunc(v * rq) * q;
        acc += v * w[k];
    }
    return acc;
}

/* The weighted texels t[0 .. n) (weights in 1/256, summing to 256) as the format's filter
 * combines them. */
static void combine(const struct ksampler *s, const struct ktexel *t, const uint32_t *w, int n, struct ktexel *out)
{
    for (int c = 0; c < 4; ++c) {
        unsigned path = s->path;
        /* sRGB formats filter the channels they do not decode (alpha; a 2-channel format's
         * second) as unsigned normalized (probed) */
        if (path == KFP_HALF && s->fmt.kind != KFK_HALF && !(s->fmt.kind == KFK_BC && s->fmt.bits == 6) &&
            c >= (s->fmt.channels == 2 ? 1 : 3))
            path = KFP_UNORM16;
        switch (path) {
        case KFP_SNORM8: {
            /* The 8-bit values weighted and summed exactly (L, of 127 * 256), then widened to
             * 16 bits as L + ((L >> 4) * 257 + 1024) >> 11 with arithmetic shifts: every one of
             * the 65281 sums of the texfilter probe's 65536 pairs at 16 weights. */
            int64_t L = 0;
            for (int k = 0; k < n; ++k)
                L += (int64_t)t[k].fx[c] * w[k];
            int64_t x = L + floor_shift(floor_shift(L, 4) * 257 + 1024, 11);
            if (x < -32767)
                x = -32767;
            out->fx[c] = (double)x * 127.0 / 32767.0; /* for a blend of two levels (not fitted) */
            out->f[c] = (float)((double)x / 32767.0);
            break;
        }
        case KFP_UNORM16:
        case KFP_SNORM16: {
            double acc = 0;
            for (int k = 0; k < n; ++k)
                acc += t[k].fx[c] * w[k];
            double q = floor(acc / 256.0 + 0.5), max = path == KFP_UNORM16 ? 65535.0 : 32767.0;
            out->fx[c] = q;
            double v = q / max;
            out->f[c] = (float)(v < -1.0 ? -1.0 : v);
            break;
        }
        case KFP_HALF: {
            /* Block floating point, as f32 but narrower: the texels that count cut to 15 bits
             * below the largest one's leading bit (halves, BC6H; every one of 40000 two-texel
             * samples), 8 for sRGB (the exponent of 26 sRGB values one higher than their
             * leading bit's: srgb_exponent_bump), the sum exact and rounded to half precision
             * with ties away from zero. Eight texels (3D, two levels) are cut as two blocks of
             * four (block_sum). */
            int bits = s->fmt.kind == KFK_HALF || (s->fmt.kind == KFK_BC && s->fmt.bits == 6) ? 15 : 8;
            double acc = 0;
            for (int g = 0; g < n; g += n == 8 ? 4 : n)
                acc += block_sum(t + g, w + g, n == 8 ? 4 : n, c, bits);
            out->u[c] = half_round(acc / 256.0);
            break;
        }
        default: {
            /* Block floating point: every texel that counts is cut to 28 bits below the
             * largest one's leading bit (toward zero), then the sum is exact and rounded once.
             * tex3d: a footprint of eight texels (a 3D texture's two z layers, two mip levels) is
             * cut as two blocks of four, each to its own largest texel, and the two exact sums
             * added: every 3D line of textures_filter.cu (one block of eight: 50 of 55 f32
             * results differed). */
            double acc = 0;
            for (int g = 0; g < n; g += n == 8 ? 4 : n)
                acc += block_sum(t + g, w + g, n == 8 ? 4 : n, c, 28);
            out->f[c] = f32_away(acc / 256.0);
            break;
        }
        }
    }
}

/* texlod: a seamless cube footprint with a texel past both edges of the face (a cube corner,
 * where no face has that texel): its weight goes to the three texels around the corner, a third
 * (rounded to nearest) to each of the two on the neighbouring faces and the rest to the face's
 * own corner texel. Every one of the probe's 320 seamless impulse samples near corners and
 * edges, cube maps and cube map arrays alike (docs/probes/kernels/texlod/cube.out). w: the
 * quadrants' weights, bit 0 of the index for x's second texel, bit 1 for y's. */
static void seamless_corner(const struct kaxis *ax, uint32_t n, uint32_t w[4])
{
    if (n < 2)
        return;
    for (unsigned q = 0; q < 4; ++q) {
        int64_t i = q & 1 ? ax[0].r1 : ax[0].r0, j = q & 2 ? ax[1].r1 : ax[1].r0;
        if (!w[q] || (i >= 0 && i < (int64_t)n) || (j >= 0 && j < (int64_t)n))
            continue;
        uint32_t third = (w[q] * 85 + 128) >> 8; /* round(w / 3) for every w up to 256 */
        w[q ^ 1] += third;
        w[q ^ 2] += third;
        w[q ^ 3] += w[q] - 2 * third;
        w[q] = 0;
    }
}

/* One level's footprint: dims 1, 2 or 3 coordinates (u, v, r already in texel units, 1D as 2D
 * at v = 0), its texels and their weights (1/256) appended to t and w at *count. */
static void filter_level(struct ksampler *s, const struct kimage_level *lv, int dims, const double *uvw,
                         const unsigned *mode, bool linear, struct ktexel *t, uint32_t *w, int *countp)
{
    uint32_t n[3] = {lv->width, lv->height, lv->depth};
    struct kaxis ax[3];
    for (int d = 0; d < 3; ++d) {
        if (d < dims)
            ax[d] = axis(uvw[d], n[d], mode[d], linear);
        else if (d == 1 && dims == 1)
            ax[d] = axis(0.0, 1, mode[1], linear); /* a 1D texture is a 2D one sampled at y = 0 */
        else
            ax[d] = (struct kaxis){0, 0, 0, 0, 0};
    }
    /* tex3d: in clamp mode a footprint past an edge (both texels the same) weighs that axis 0, as
     * if the coordinate were clamped to the edge texel's centre: the 3D weights, whose totals per
     * axis are not exact, show it (textures_filter.cu's and textures.cu's 3D lines). */
    if (!s->seamless)
        for (int d = 0; d < 3; ++d)
            if (mode[d] == CU_TR_ADDRESS_MODE_CLAMP && ax[d].i0 == ax[d].i1)
                ax[d].w = 0;
    if (!linear || s->int_read) {
        fetch(s, lv, ax[0].i0, ax[1].i0, ax[2].i0, &t[*countp]);
        w[(*countp)++] = 256;
        return;
    }
    /* Weights in 1/256: the first two axes' product rounded, the others its complements; a 3D
     * footprint pairs x with z first, then splits each by y (probed). */
    int a0 = 0, a1 = dims == 3 ? 2 : 1, a2 = 1;
    uint32_t wa = ax[a0].w, wb = ax[a1].w;
    uint32_t w11 = (wa * wb + 128) >> 8;
    uint32_t w2[4] = {256 - wa - wb + w11, wa - w11, wb - w11, w11}; /* 00 10 01 11 */
    if (dims == 3) {
        /* tex3d: the x = 1 column is split by z with both halves rounded (ties up), the z = 1
         * side of x = 0 is the rest of z's weight, and x = 0 z = 0 the rest of all; then each
         * part is split by y, its y = 1 half rounded with ties up where x = 1 and ties down
         * where x = 0. Every one of the 16777216 weight triples (docs/probes/kernels/tex3d). */
        w2[1] = (wa * (256 - wb) + 128) >> 8;
        w2[2] = wb - w11;
        w2[0] = 256 - w2[1] - w2[2] - w11;
    }
    if (s->seamless && dims == 2)
        seamless_corner(ax, n[0], w2); /* texlod */
    int count = *countp;
    for (int q = 0; q < 4; ++q) {
        for (int k = 0; k < (dims == 3 ? 2 : 1); ++k) {
            uint32_t wq = w2[q];
            if (dims == 3) {
                uint32_t hi = (wq * ax[a2].w + (q & 1 ? 128 : 127)) >> 8; /* ties toward x = 1 */
                wq = k ? hi : wq - hi;
            }
            int64_t idx[3];
            idx[a0] = q & 1 ? ax[a0].i1 : ax[a0].i0;
            idx[a1] = q & 2 ? ax[a1].i1 : ax[a1].i0;
            if (dims == 3)
                idx[a2] = k ? ax[a2].i1 : ax[a2].i0;
            else
                idx[2] = 0;
            w[count] = wq;
            if (wq && s->seamless)
                fetch_seamless(s, lv, q & 1 ? ax[a0].r1 : ax[a0].r0, q & 2 ? ax[a1].r1 : ax[a1].r0, &t[count]);
            else if (wq)
                fetch(s, lv, idx[0], idx[1], idx[2], &t[count]);
            else
                memset(&t[count], 0, sizeof(t[count]));
            count++;
        }
    }
    *countp = count;
}

/* ---- Cube maps: the face and its 2D coordinates from a direction ---- */
static uint32_t cube_face(float x, float y, float z, double *s, double *t)
{
    /* A direction with a NaN or an infinity reads as (0, 0, 0), and (0, 0, 0) as the middle of
     * +z; ties go to z, then y (probed). */
    if (!isfinite(x) || !isfinite(y) || !isfinite(z))
        x = y = z = 0;
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), ma, sc, tc;
    uint32_t face;
    if (az >= ay && az >= ax) {
        face = z >= 0 ? 4 : 5;
        ma = az;
        sc = z >= 0 ? x : -x;
        tc = -y;
    } else if (ay >= ax) {
        face = y >= 0 ? 2 : 3;
        ma = ay;
        sc = x;
        tc = y >= 0 ? z : -z;
    } else {
        face = x >= 0 ? 0 : 1;
        ma = ax;
        sc = x >= 0 ? -z : z;
        tc = -y;
    }
    if (ma == 0) {
        *s = *t = 0.5f;
        return face;
    }
    /* (q + 1) / 2 taken to the fixed point without rounding first: the H100 keeps the
     * precision (a direction 1e-30 off an axis reads the texel below the middle). */
    *s = (KCOORD_ONE / 2 + floor((double)sc / ma * (KCOORD_ONE / 2))) / KCOORD_ONE;
    *t = (KCOORD_ONE / 2 + floor((double)tc / ma * (KCOORD_ONE / 2))) / KCOORD_ONE;
    return face;
}

/* ---- tex ---- */

struct ktex_lane {
    float c[4];       /* coordinates (floats, or integers' bits) */
    uint32_t layer;
    float lod;
    bool has_lod;
    int32_t off[3];   /* texlod: texel offsets, already sign-extended (0 without) */
    float gdx[3], gdy[3]; /* texlod: .grad's gradients (anisotropic taps) */
};

static uint32_t clamp_layer(uint32_t idx, uint32_t layers) { return idx >= layers ? layers - 1 : idx; }

/* A level of detail in 1/256 units, toward minus infinity (NaN: 0). */
static int64_t lod_fixed(double v)
{
    if (v != v)
        return 0;
    if (v > 65536.0)
        return 65536 * 256;
    if (v < -65536.0)
        return -65536 * 256;
    return (int64_t)floor(v * 256.0);
}

/* The levels a sample reads and the weight of the second (1/256). The level of detail and the
 * bias are each cut to 1/256 and added, then clamped by the sampler's range and the levels
 * (probed: 0.501953 + 0.6 reads as 1 + 25/256). */
static void pick_levels(const struct kimage *im, float lod, uint32_t *l0, uint32_t *l1, uint32_t *w)
{
    uint32_t nlev = im->nlevels;
    int64_t q = lod_fixed(lod) + lod_fixed(im->mip_bias);
    int64_t lo = lod_fixed(im->min_lod_clamp), hi = lod_fixed(im->max_lod_clamp);
    if (q < lo)
        q = lo;
    if (q > hi)
        q = hi;
    if (q < 0)
        q = 0;
    if (q > (int64_t)(nlev - 1) * 256)
        q = (int64_t)(nlev - 1) * 256;
    if (im->mip_filter_mode == CU_TR_FILTER_MODE_LINEAR) {
        uint32_t f = (uint32_t)(q & 255);
        *l0 = (uint32_t)(q >> 8);
        if (im->max_anisotropy > 1 && !(im->flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION)) {
            /* The trilinear optimisation an anisotropic sampler gets: the outer quarters of a
             * level interval read one level, the middle half blends twice as fast (probed). */
            int32_t t = 2 * (int32_t)f - 128;
            f = t < 0 ? 0 : t > 255 ? 256 : (uint32_t)t;
            if (f == 256) {
                *l0 += 1;
                f = 0;
            }
        }
        if (*l0 > nlev - 1)
            *l0 = nlev - 1;
        *l1 = *l0 + 1 < nlev ? *l0 + 1 : *l0;
        *w = *l1 == *l0 ? 0 : f;
    } else {
        *l0 = *l1 = (uint32_t)((q + 128) >> 8);
        if (*l0 > nlev - 1)
            *l0 = *l1 = nlev - 1;
        *w = 0;
    }
}

/* A weight `total` (in the units of the caller) split over a bilinear footprint of weights fw
 * (1/256: 00 10 01 11) as the H100 splits it: the x part paired with the total first, rounded,
 * then each part split by y, its y = 1 half rounded with ties up where x = 1 and down where
 * x = 0 (tex3d). part may be fw. The trilinear level weights (texlod) and the anisotropic taps
 * (gradlod) both use it. */
static void split_footprint(uint32_t total, const uint32_t fw[4], uint32_t part[4])
{
    uint32_t wx = fw[1] + fw[3], wy = fw[2] + fw[3];
    uint32_t a1 = (wx * total + 128) >> 8, a0 = total - a1;
    uint32_t h0 = (a0 * wy + 127) >> 8, h1 = (a1 * wy + 128) >> 8;
    part[0] = a0 - h0; /* i0 j0 */
    part[1] = a1 - h1; /* i1 j0 */
    part[2] = h0;      /* i0 j1 */
    part[3] = h1;      /* i1 j1 */
}

/* One sample (or gather when comp >= 0) of lane l. */
static void sample(struct ksampler *s, const struct kimg_op *op, const struct ktex_lane *ln, int comp,
                   struct ktexel *out)
{
    const struct kimage *im = s->im;
    bool normalized = (im->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
    bool linear = im->filter_mode == CU_TR_FILTER_MODE_LINEAR && !s->int_read;
    int dims;
    double c[3] = {ln->c[0], ln->c[1], ln->c[2]};
    uint32_t layer = ln->layer;
    s->seamless = false;
    switch (op->geom) {
    case KG_1D: case KG_A1D: dims = 1; break;
    case KG_3D: dims = 3; break;
    case KG_CUBE: case KG_ACUBE: {
        double st[2];
        uint32_t face = cube_face(c[0], c[1], c[2], &st[0], &st[1]);
        uint32_t cubes = im->layers / 6;
        layer = (layer >= cubes ? cubes - 1 : layer) * 6 + face;
        s->face = face;
        s->seamless = (im->flags & CU_TRSF_SEAMLESS_CUBEMAP) != 0;
        c[0] = st[0];
        c[1] = st[1];
        normalized = true;
        dims = 2;
        break;
    }
    default: dims = 2; break;
    }
    if (im->geometry == KIMG_LINEAR) {
        /* A linear resource: tex1Dfetch's integer index, zero outside (CUDA's documented rule). */
        const struct kimage_level *lv = &im->level[0];
        int64_t i = op->int_coords ? (int64_t)(int32_t)kbits32(ln->c[0]) : (int64_t)floor(c[0] != c[0] ? 0.0 : c[0]);
        if (i < 0 || i >= (int64_t)lv->width)
            memset(out, 0, sizeof(*out));
        else
            texel(s, lv, (uint32_t)i, 0, 0, out);
        return;
    }
    if (op->geom != KG_CUBE && op->geom != KG_ACUBE)
        layer = clamp_layer(layer, im->layers);
    s->layer = layer;
    uint32_t l0 = 0, l1 = 0, lw = 0;
    if (op->mip)
        pick_levels(im, ln->lod, &l0, &l1, &lw);
    struct ktexel ft[16], lv_out[2];
    uint32_t fw[16];
    int fcount = 0, level_split = -1;
    for (int k = 0; k < (lw ? 2 : 1); ++k) {
        const struct kimage_level *lv = &im->level[k ? l1 : l0];
        uint32_t n[3] = {lv->width, lv->height, lv->depth};
        unsigned mode[3] = {im->address_mode[0], im->address_mode[1], im->address_mode[2]};
        double uvw[3];
        if (op->int_coords) {
            /* Texel indices (plus the offsets): outside the level they read zeros whatever the
             * address mode (probed: docs/probes/kernels/texlod, form f11). */
            bool outside = false;
            for (int d = 0; d < dims; ++d) {
                uvw[d] = (double)(int32_t)kbits32(ln->c[d]) + ln->off[d];
                if (uvw[d] < 0 || uvw[d] >= (double)n[d])
                    outside = true;
            }
            if (outside) {
                memset(&lv_out[k], 0, sizeof(lv_out[k]));
                continue;
            }
            for (int d = 0; d < 3; ++d)
                if (mode[d] == CU_TR_ADDRESS_MODE_WRAP || mode[d] == CU_TR_ADDRESS_MODE_MIRROR)
                    mode[d] = CU_TR_ADDRESS_MODE_CLAMP;
            struct kaxis ax[3];
            for (int d = 0; d < 3; ++d)
                ax[d] = d < dims ? axis(uvw[d], n[d], mode[d], false) : (struct kaxis){0, 0, 0, 0, 0};
            fetch(s, lv, ax[0].i0, ax[1].i0, ax[2].i0, &lv_out[k]);
            continue;
        }
        for (int d = 0; d < dims; ++d)
            uvw[d] = texel_coord(c[d], n[d], normalized, &mode[d]) + ln->off[d]; /* offsets: whole texels */
        if (op->noffset && dims == 3 && !linear && comp < 0) {
            /* tex.3d with offsets and point filtering read zeros on the H100 (every offset
             * probed, docs/probes/kernels/texlod off.out "off3d pt"). */
            memset(&lv_out[k], 0, sizeof(lv_out[k]));
            continue;
        }
        if (!normalized)
            mode[1] = mode[1] == CU_TR_ADDRESS_MODE_BORDER ? mode[1] : CU_TR_ADDRESS_MODE_CLAMP;
        if (comp >= 0) {
            /* tld4: the bilinear footprint's texels of one component, in the order
             * (i0, j1), (i1, j1), (i1, j0), (i0, j0). */
            struct kaxis ax = axis(uvw[0], n[0], mode[0], true), ay = axis(uvw[1], n[1], mode[1], true);
            int64_t xs[4] = {ax.i0, ax.i1, ax.i1, ax.i0}, ys[4] = {ay.i1, ay.i1, ay.i0, ay.i0};
            for (int q = 0; q < 4; ++q) {
                struct ktexel t;
                if (xs[q] < 0 || ys[q] < 0)
                    t = s->border;
                else
                    texel(s, lv, (uint32_t)xs[q], (uint32_t)ys[q], 0, &t);
                out->u[q] = t.u[comp];
            }
            return;
        }
        int first = fcount;
        if (k == 1)
            level_split = fcount; /* texlod: where the second level's texels start */
        filter_level(s, lv, dims, uvw, mode, linear, ft, fw, &fcount);
        if (s->capture) { /* gradlod: an anisotropic tap's footprint */
            s->cap_n = -1;
            if (!lw && fcount - first == 4 && dims <= 2) {
                s->cap_n = 4;
                memcpy(s->cap_t, ft + first, sizeof(s->cap_t));
                memcpy(s->cap_w, fw + first, sizeof(s->cap_w));
                return;
            }
        }
        if (s->int_read || (fcount - first == 1 && fw[first] == 256))
            lv_out[k] = ft[first]; /* one texel: as read (integers are never filtered) */
        else
            combine(s, ft + first, fw + first, fcount - first, &lv_out[k]);
    }
    if (!lw) {
        *out = lv_out[0];
        return;
    }
    /* Two levels: their results blended by the level weight (exact where the levels are
     * uniform; the H100's blend of two footprints is not reproduced: docs/images.md). */
    if (level_split == 4 && fcount == 8) {
        /* texlod: two bilinear footprints are filtered as one of eight texels: in each level the
         * x weight is paired with the level's weight first (rounded to 1/256), then each part
         * is split by the y weight, as the 2D weights are (probed with impulses in either level:
         * all 79 weights of docs/probes/kernels/texlod tri.out). */
        for (int k = 0; k < 2; ++k)
            split_footprint(k ? lw : 256 - lw, fw + 4 * k, fw + 4 * k);
        combine(s, ft, fw, fcount, out);
        return;
    }
    uint32_t wl[2] = {256 - lw, lw};
    combine(s, lv_out, wl, 2, out);
}

/* texlod: the largest anisotropy a sampler applies (a larger maxAnisotropy acts as 16, the
 * texture unit's limit; not probed above 16). */
#define KANISO_MAX 16.0

/* texlod: the H100's log2 of a level of detail, in 1/256: the exponent, plus this table of the
 * top 8 bits of the mantissa (the fraction's 1/256 ignores the rest). Measured on the H100, one
 * gradient through two octaves in 8192 steps (docs/probes/kernels/texlod log2.out): the same 256
 * values in both octaves; they are within one of round(256 log2(1 + (i + 0.5) / 256)). */
static const uint8_t h100_log2_frac[256] = {
      0,   2,   4,   5,   6,   8,   9,  11,  12,  13,  15,  16,  18,  19,  20,  22,
     23,  24,  26,  27,  28,  30,  31,  32,  34,  35,  36,  38,  39,  40,  42,  43,
     44,  45,  47,  48,  49,  50,  52,  53,  54,  55,  57,  58,  59,  60,  62,  63,
     64,  65,  66,  68,  69,  70,  71,  72,  74,  75,  76,  77,  78,  79,  81,  82,
     83,  84,  85,  86,  88,  89,  90,  91,  92,  93,  94,  95,  97,  98,  99, 100,
    101, 102, 103, 104, 105, 106, 107, 109, 110, 111, 112, 113, 114, 115, 116, 117,
    118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133,
    135, 136, 137, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149,
    150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 162, 163, 164,
    165, 166, 167, 168, 169, 170, 171, 172, 173, 173, 174, 175, 176, 177, 178, 179,
    180, 181, 181, 182, 183, 184, 185, 186, 187, 188, 188, 189, 190, 191, 192, 193,
    194, 195, 195, 196, 197, 198, 199, 200, 200, 201, 202, 203, 204, 205, 205, 206,
    207, 208, 209, 210, 210, 211, 212, 213, 214, 214, 215, 216, 217, 218, 218, 219,
    220, 221, 222, 222, 223, 224, 225, 226, 226, 227, 228, 229, 229, 230, 231, 232,
    233, 233, 234, 235, 236, 236, 237, 238, 239, 239, 240, 241, 242, 242, 243, 244,
    245, 245, 246, 247, 248, 248, 249, 250, 251, 251, 252, 253, 253, 254, 255, 255
};
static int64_t h100_log2_fixed(float v)
{
    uint32_t u = kbits32(v);
    int e = (int)((u >> 23) & 0xff) - 127;
    if (e == -127) /* subnormal: far below any level */
        return -(int64_t)256 * 160;
    return (int64_t)e * 256 + h100_log2_frac[(u >> 15) & 0xff];
}

/* texlod: |v| with 9 bits after its leading bit, toward zero (the H100's gradient precision). */
static double trunc9(double v)
{
    v = fabs(v);
    if (v == 0 || !isfinite(v))
        return v;
    double q = ldexp(1.0, ilogb(v) - 9);
    return floor(v / q) * q;
}

/* gradlod: v rounded to nearest (ties up) on the grid of `bits` bits below ref's leading bit. */
static double round_below(double v, double ref, int bits)
{
    if (v == 0 || ref == 0 || !isfinite(v) || !isfinite(ref))
        return v;
    double q = ldexp(1.0, ilogb(ref) - bits);
    return floor(v / q + 0.5) * q;
}

/* gradlod: the H100's length of a vector of up to three components in texels (texlod2:
 * docs/probes/kernels/texlod2 g2.out.gz, g3.out.gz): the components cut to 9 bits (trunc9),
 * sorted, the longest plus 11/32 of the second and 1/4 of the third, each part rounded to 11
 * bits below its own component's leading bit, ties up (every one of the 9221 one-gradient 2D
 * samples and of the 4096 3D ones; the 11/32 cut to 9 bits that this replaces missed 2%). */
static double grad_len3(double x, double y, double z)
{
    double v[3] = {trunc9(x), trunc9(y), trunc9(z)};
    for (int i = 0; i < 2; ++i)
        for (int j = i + 1; j < 3; ++j)
            if (v[j] > v[i]) {
                double t = v[i];
                v[i] = v[j];
                v[j] = t;
            }
    return v[0] + round_below(v[1] * (11.0 / 32.0), v[1], 11) + round_below(v[2] * 0.25, v[2], 11);
}

/* gradlod: a diagonal of the gradients' parallelogram (their sum or difference, of components
 * already cut to 9 bits): 11/16 of its length. Along one axis (the other components 0) the
 * length is cut to 9 bits and 11/16 of it rounded to 10 bits below its leading bit, ties up
 * (every 2D sample of two parallel gradients, every 1D sample: texlod2 g2 "par", g1); otherwise
 * 11/16 of grad_len3 (the H100's arithmetic there is not fitted: docs/images.md). */
static double grad_diag(const double d[3])
{
    int nonzero = 0;
    double one = 0;
    for (int k = 0; k < 3; ++k)
        if (trunc9(d[k]) != 0) {
            ++nonzero;
            one = trunc9(d[k]);
        }
    if (nonzero == 1)
        return round_below(one * (11.0 / 16.0), one, 10);
    return 11.0 / 16.0 * grad_len3(d[0], d[1], d[2]);
}

/* gradlod: the footprint's major axis: the longest of the gradients a and b (grad_len3) and the
 * diagonals a + b and a - b (grad_diag), 0 where all are 0; *which says which (0 a, 1 b, 2 the
 * sum, 3 the difference; -1 none), the first of equal ones. The level of detail and the
 * anisotropic taps both take it. */
static double grad_major(const double a[3], const double b[3], int *which)
{
    double s[3] = {a[0] + b[0], a[1] + b[1], a[2] + b[2]}, d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    double len[4] = {grad_len3(a[0], a[1], a[2]), grad_len3(b[0], b[1], b[2]), grad_diag(s), grad_diag(d)};
    double best = 0;
    *which = -1;
    for (int k = 0; k < 4; ++k)
        if (len[k] > best) {
            best = len[k];
            *which = k;
        }
    return best;
}

/* gradlod: .grad's level of detail from two gradients a and b in texels of the first level
 * (docs/images.md, "Mip levels"): the footprint's major axis is the longest of |a|, |b| and the
 * diagonals (grad_diag), its log2 the H100's (h100_log2_fixed). With anisotropy (aniso > 1:
 * 1D, 2D and cube maps; the H100 ignores maxAnisotropy on 3D textures) the level is worked out
 * in the log2 domain: log2(minor) = log2(area) - log2(major), the area |a x b| of the
 * components cut to 9 bits, and the level is the larger of log2(major) - log2(maxAnisotropy)
 * and log2(minor), at most log2(major). */
static float grad_lod_texels(double aniso, double a[3], double b[3])
{
    for (int k = 0; k < 3; ++k) {
        if (a[k] != a[k] || b[k] != b[k])
            return INFINITY;
        a[k] = copysign(trunc9(a[k]), a[k]);
        b[k] = copysign(trunc9(b[k]), b[k]);
    }
    int which;
    double major = grad_major(a, b, &which);
    if (major != major || major > 1e30)
        return INFINITY;
    if (major <= 0)
        return -INFINITY;
    int64_t lm = h100_log2_fixed((float)major), lod = lm;
    if (aniso > 1) {
        double most = aniso < KANISO_MAX ? aniso : KANISO_MAX;
        double cx = a[1] * b[2] - a[2] * b[1], cy = a[2] * b[0] - a[0] * b[2], cz = a[0] * b[1] - a[1] * b[0];
        double area = sqrt(cx * cx + cy * cy + cz * cz);
        lod = lm - h100_log2_fixed((float)most);
        if (area > 0 && area < 1e30) {
            int64_t minor = h100_log2_fixed((float)area) - lm;
            lod = minor > lod ? minor : lod;
        }
        lod = lod < lm ? lod : lm;
    }
    return (float)((double)lod / 256.0);
}

/* gradlod: a cube map's gradients in texels of a face of n texels (texlod2: gc.out.gz; part
 * gradlod2 refitted it): finite differences, not the derivative (a gradient along the major axis
 * of 16 texels at (1, 0.1, 0.2) measures 1.5 texels, as (1.25, 0.1, 0.2) lies there), in f32: the
 * face coordinates of the direction c and of c + g (each component times the f32 reciprocal of
 * the major component, not the sample's fixed point), their difference rounded to f32, times
 * n / 2. Where c + g lies on another face (its largest component on another axis, the ties as
 * cube_face's) that face is unfolded into the plane of c's face across their shared edge: the
 * coordinate across the edge is 2 - |c's axis component| / |the new major component|, the one
 * along the edge the component over the new major one. Returns whether c + g crossed. Every
 * structured sample staying on the face, 90% of those crossing (the rest within 2/256 of a
 * level: the f32 order of the unfolding is not fitted). */
static float f32_of(double v) { return (float)v; }
static int cube_major(const float p[3])
{
    float ax = fabsf(p[0]), ay = fabsf(p[1]), az = fabsf(p[2]);
    return az >= ay && az >= ax ? 2 : ay >= ax ? 1 : 0;
}
static void cube_st(const float q[3], int major, bool pos, float *sc, float *tc)
{
    switch (major) {
    case 2: *sc = pos ? q[0] : -q[0]; *tc = -q[1]; break;
    case 1: *sc = q[0]; *tc = pos ? q[2] : -q[2]; break;
    default: *sc = pos ? -q[2] : q[2]; *tc = -q[1]; break;
    }
}
static bool cube_grad(const float c[3], const float g[3], double n, double out[3])
{
    int m = cube_major(c);
    bool pos = c[m] >= 0;
    float sg = pos ? 1.0f : -1.0f;
    out[0] = out[1] = out[2] = 0;
    if (!(fabsf(c[m]) > 0) || !isfinite(fabsf(c[m])))
        return false;
    float p[3], c1[3], q[3], r0 = f32_of(1.0 / fabsf(c[m]));
    for (int i = 0; i < 3; ++i) {
        p[i] = c[i] + g[i];
        c1[i] = c[i] * r0;
    }
    int m2 = cube_major(p);
    float ma = fabsf(p[m2]);
    if (!(ma > 0) || !isfinite(ma)) {
        q[0] = q[1] = q[2] = 0;
        q[m] = sg;
    } else {
        float r = f32_of(1.0 / (m2 == m ? fabsf(p[m]) : ma));
        for (int i = 0; i < 3; ++i)
            q[i] = p[i] * r;
        if (m2 != m) {
            q[m] = sg;
            q[m2] = copysignf(2.0f - sg * p[m] * r, p[m2]);
        }
    }
    float s0, t0, s1, t1;
    cube_st(c1, m, pos, &s0, &t0);
    cube_st(q, m, pos, &s1, &t1);
    out[0] = (double)(s1 - s0) * (n / 2);
    out[1] = (double)(t1 - t0) * (n / 2);
    return m2 != m;
}

/* .grad's level of detail (gradlod: 1D, 2D, 3D and cube maps). */
static float grad_lod(const struct kimage *im, const struct kimg_op *op, const struct ktex_lane *ln, const float dx[3],
                      const float dy[3])
{
    const struct kimage_level *lv = &im->level[0];
    double n[3] = {lv->width, lv->height, lv->depth};
    bool cube = op->geom == KG_CUBE || op->geom == KG_ACUBE;
    int dims = op->geom == KG_1D || op->geom == KG_A1D ? 1 : op->geom == KG_3D ? 3 : 2;
    bool normalized = (im->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
    double a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
    if (cube) {
        bool crossed = cube_grad(ln->c, dx, n[0], a);
        crossed = cube_grad(ln->c, dy, n[0], b) || crossed;
        if (crossed) {
            /* gradlod2 (texlod2 gc.out.gz): where a gradient reaches another face the H100 takes
             * the longer gradient alone (no diagonals, no anisotropy): every crossing sample
             * within 2/256 of a level, 90% exact (the diagonals and anisotropy the engine used
             * before were off by up to several levels) */
            if (a[0] != a[0] || a[1] != a[1] || b[0] != b[0] || b[1] != b[1])
                return INFINITY;
            double la = grad_len3(a[0], a[1], a[2]), lb = grad_len3(b[0], b[1], b[2]), l = la > lb ? la : lb;
            if (!(l > 0))
                return -INFINITY;
            if (l > 1e30)
                return INFINITY;
            return (float)((double)h100_log2_fixed((float)l) / 256.0);
        }
    } else {
        for (int d = 0; d < dims; ++d) {
            a[d] = normalized ? (double)dx[d] * n[d] : dx[d];
            b[d] = normalized ? (double)dy[d] * n[d] : dy[d];
        }
    }
    /* texlod2: 3D textures ignore maxAnisotropy (every 3D sample equal with 0 and 16) */
    return grad_lod_texels(op->geom == KG_3D ? 0.0 : (double)im->max_anisotropy, a, b);
}

/* gradlod: anisotropic taps of .grad on a 1D or 2D texture with maxAnisotropy > 1, as the
 * H100 places and weighs them (impulse responses, docs/probes/kernels/texlod2 taps.out.gz: every
 * sample of the 19 configurations along an axis, ratios 1.25 to 16). The footprint's major axis
 * is the longest of the gradients and the diagonals (as for the level of detail), N its length
 * in texels of the level of detail (the major length over 2^lod, lod clamped to the levels and
 * at least 0; so N is the anisotropy ratio, or the major axis in texels where the minor axis is
 * under a texel). The taps lie on the major axis's direction, one texel of that level apart,
 * weighed by w = 1/N with 8 significant bits (toward zero) and at most 10 fractional bits:
 * 2 floor(N/2) of them at +-0.5, +-1.5, ... with weight w, two more at the ends with the rest;
 * under N = 2, two taps of 1/2 at +-(1 - w). Off the axes the H100's step is not the unit
 * vector this uses (docs/images.md): those samples are bounded, not exact. */
#define KANISO_TAPS 20
struct kaniso {
    unsigned n;
    double off[KANISO_TAPS][2]; /* in the instruction's coordinate units */
    uint32_t w[KANISO_TAPS];    /* in units of `unit` */
    double unit;
};
static bool aniso_taps(const struct kimage *im, const struct kimg_op *op, const struct ktex_lane *ln, struct kaniso *t)
{
    if (im->max_anisotropy <= 1 || (op->geom != KG_1D && op->geom != KG_2D && op->geom != KG_A1D &&
                                     op->geom != KG_A2D))
        return false;
    bool two = op->geom == KG_2D || op->geom == KG_A2D;
    bool normalized = (im->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
    double sx = normalized ? im->level[0].width : 1.0, sy = two ? (normalized ? im->level[0].height : 1.0) : 0.0;
    double a[3] = {copysign(trunc9(ln->gdx[0] * sx), ln->gdx[0]), copysign(trunc9(ln->gdx[1] * sy), ln->gdx[1]), 0};
    double b[3] = {copysign(trunc9(ln->gdy[0] * sx), ln->gdy[0]), copysign(trunc9(ln->gdy[1] * sy), ln->gdy[1]), 0};
    double v[4][3] = {{a[0], a[1], 0}, {b[0], b[1], 0}, {a[0] + b[0], a[1] + b[1], 0}, {a[0] - b[0], a[1] - b[1], 0}};
    int which;
    double best = grad_major(a, b, &which);
    if (which < 0 || !isfinite(best))
        return false;
    /* the level of detail as pick_levels clamps it */
    double lod = (double)ln->lod + im->mip_bias;
    if (lod < im->min_lod_clamp)
        lod = im->min_lod_clamp;
    if (lod > im->max_lod_clamp)
        lod = im->max_lod_clamp;
    if (lod > (double)(im->nlevels - 1))
        lod = im->nlevels - 1;
    if (!(lod > 0))
        lod = 0;
    double step = exp2(lod), n = best / step;
    if (!(n > 1))
        return false;
    double w = 1.0 / n;
    w = floor(ldexp(w, 7 - ilogb(w))) * ldexp(1.0, ilogb(w) - 7); /* 8 significant bits */
    w = floor(w * 1024.0) / 1024.0;
    double len = hypot(v[which][0], v[which][1]);
    if (!(len > 0) || !(w > 0))
        return false;
    double ux = v[which][0] / len * step / sx, uy = two ? v[which][1] / len * step / sy : 0.0;
    t->n = 0;
    /* the weights' unit: 2^-(8 + e), e = floor(log2 N) but at least 1, and at most 2^-10 (every
     * impulse sample along an axis; a coarser or finer unit misses some) */
    int e = ilogb(n) > 1 ? ilogb(n) : 1;
    t->unit = ldexp(1.0, -(8 + (e < 2 ? e : 2)));
    uint32_t total = (uint32_t)(1.0 / t->unit + 0.5);
    if (n < 2) {
        for (int k = -1; k <= 1; k += 2) {
            t->off[t->n][0] = k * (1 - w) * ux;
            t->off[t->n][1] = k * (1 - w) * uy;
            t->w[t->n++] = total / 2;
        }
        return true;
    }
    uint32_t W = (uint32_t)(w / t->unit + 0.5);
    unsigned inner = 2 * (unsigned)floor(n / 2);
    if (inner > KANISO_TAPS - 2)
        inner = KANISO_TAPS - 2;
    uint32_t rest = total > inner * W ? total - inner * W : 0;
    for (unsigned k = 0; k < inner + 2; ++k) {
        double at = (double)k - (double)(inner + 1) / 2.0; /* -(inner/2 + 0.5) .. +(inner/2 + 0.5) */
        uint32_t wt = k == 0 ? rest / 2 : k == inner + 1 ? rest - rest / 2 : W;
        if (!wt)
            continue;
        t->off[t->n][0] = at * ux;
        t->off[t->n][1] = at * uy;
        t->w[t->n++] = wt;
    }
    return true;
}

/* gradlod: the taps' samples, weighted and summed. A tap of one bilinear footprint splits its
 * weight over the four texels as the 3D and trilinear weights are split (x first, rounded, then
 * y; ties up where x = 1 and down where x = 0): every impulse response along an axis. Other taps
 * (two levels, point filtering) are weighed whole (not probed), and the sum is rounded once. */
static void sample_aniso(struct ksampler *s, const struct kimg_op *op, const struct ktex_lane *ln,
                         const struct kaniso *t, struct ktexel *out)
{
    double acc[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < t->n && !s->failed; ++k) {
        struct ktex_lane q = *ln;
        q.c[0] = (float)((double)ln->c[0] + t->off[k][0]);
        if (op->geom == KG_2D || op->geom == KG_A2D)
            q.c[1] = (float)((double)ln->c[1] + t->off[k][1]);
        struct ktexel r;
        s->capture = true;
        s->cap_n = -1;
        sample(s, op, &q, -1, &r);
        s->capture = false;
        if (s->failed)
            break;
        if (s->cap_n == 4) {
            uint32_t part[4];
            split_footprint(t->w[k], s->cap_w, part);
            for (int i = 0; i < 4; ++i)
                for (int c = 0; c < 4; ++c)
                    if (part[i])
                        acc[c] += (double)part[i] * t->unit * s->cap_t[i].f[c];
            continue;
        }
        sample(s, op, &q, -1, &r);
        for (int c = 0; c < 4; ++c)
            acc[c] += (double)t->w[k] * t->unit * r.f[c];
    }
    memset(out, 0, sizeof(*out));
    for (int c = 0; c < 4; ++c)
        out->f[c] = (float)acc[c];
}

static bool lane_inputs(struct kwarp *w, const struct kimg_op *op, uint32_t l, struct ktex_lane *ln)
{
    (void)w;
    memset(ln, 0, sizeof(*ln));
    unsigned first = 0;
    if (op->geom == KG_A1D || op->geom == KG_A2D || op->geom == KG_ACUBE) {
        ln->layer = (uint32_t)kw_slot(w, op->coord[0])[l];
        first = 1;
    }
    for (unsigned i = first, k = 0; i < op->ncoord; ++i, ++k)
        ln->c[k] = kf32(kw_slot(w, op->coord[i])[l]);
    return true;
}

static void write_result(struct kwarp *w, const struct kimg_op *op, uint32_t l, const struct ktexel *r, bool ok)
{
    if (op->f16x2) {
        uint32_t h[4];
        for (int c = 0; c < 4; ++c)
            h[c] = kimg_float_to_half(r->u[c]);
        kw_slot(w, op->dst[0])[l] = h[0] | h[1] << 16;
        kw_slot(w, op->dst[1])[l] = h[2] | h[3] << 16;
    } else {
        for (int c = 0; c < 4; ++c)
            if (op->dst[c] != KOPND_NONE)
                kw_slot(w, op->dst[c])[l] = r->u[c];
    }
    if (op->pred != KOPND_NONE)
        kw_slot(w, op->pred)[l] = ok; /* the texel was resident: always, here */
}

/* True when every element of lv (all its rows, slices and layers) lies in the object's extent. */
static bool level_inside(const struct kimage *im, const struct kimage_level *lv)
{
    uint64_t span = im->hi - im->lo;
    if (lv->base < im->lo || lv->base >= im->hi)
        return false;
    uint64_t off = lv->base - im->lo;
    uint64_t slices = im->geometry == KIMG_3D ? lv->depth : im->layers;
    uint64_t rowb = (uint64_t)lv->width * im->texel_bytes;
    if (rowb > span || (lv->height > 1 && lv->row_pitch > span) || (slices > 1 && lv->slice_pitch > span))
        return false;
    if (lv->height > 1 && lv->height - 1 > span / (lv->row_pitch ? lv->row_pitch : 1))
        return false;
    if (slices > 1 && slices - 1 > span / (lv->slice_pitch ? lv->slice_pitch : 1))
        return false;
    uint64_t last = (slices - 1) * lv->slice_pitch;
    uint64_t rows = (uint64_t)(lv->height - 1) * lv->row_pitch;
    if (last > span || rows > span || off > span - last || off + last > span - rows ||
        off + last + rows > span - rowb)
        return false;
    return true;
}

static bool sampler_for(struct ksampler *s, struct kwarp *w, const struct kinsn *in, uint32_t l, const struct kimage *im)
{
    memset(s, 0, sizeof(*s));
    s->w = w;
    s->in = in;
    s->lane = l;
    s->im = im;
    s->fmt = kimg_format(im);
    if (s->fmt.kind == KFK_NONE) {
        kfault(w, in, l, CUDA_ERROR_NOT_SUPPORTED,
               "sampling format 0x%x (%u channels) is not implemented by the software device", im->format,
               im->channels);
        return false;
    }
    s->int_read = (s->fmt.kind == KFK_UINT || s->fmt.kind == KFK_SINT) &&
                  ((im->flags & CU_TRSF_READ_AS_INTEGER) || s->fmt.bits == 32);
    s->srgb = (im->flags & CU_TRSF_SRGB) != 0;
    /* BC4 and BC5 read no sRGB (the H100 ignores the flag there); BC6H is halves */
    bool bc8 = s->fmt.kind == KFK_BC && (s->fmt.bits <= 3 || s->fmt.bits == 7);
    bool srgb8 = (s->srgb && s->fmt.bits == 8 && (s->fmt.kind == KFK_UINT || s->fmt.kind == KFK_UNORM)) ||
                 (bc8 && (s->srgb || s->fmt.srgb));
    if (!bc8 && s->fmt.kind == KFK_BC)
        s->srgb = false;
    if (s->fmt.kind == KFK_HALF || srgb8 || (s->fmt.kind == KFK_BC && s->fmt.bits == 6))
        s->path = KFP_HALF;
    else if (s->fmt.kind == KFK_BC && s->fmt.bc_signed)
        s->path = KFP_SNORM16;
    else if (((s->fmt.kind == KFK_UINT || s->fmt.kind == KFK_UNORM) && s->fmt.bits <= 16) ||
             s->fmt.kind == KFK_BC)
        s->path = KFP_UNORM16;
    else if ((s->fmt.kind == KFK_SINT || s->fmt.kind == KFK_SNORM) && s->fmt.bits == 8)
        s->path = KFP_SNORM8;
    else if ((s->fmt.kind == KFK_SINT || s->fmt.kind == KFK_SNORM) && s->fmt.bits <= 16)
        s->path = KFP_SNORM16;
    else
        s->path = KFP_FLOAT;
    make_border(s);
    for (uint32_t k = 0; k < im->nlevels && s->fmt.kind != KFK_BC; ++k)
        if (level_inside(im, &im->level[k]))
            s->levels_inside |= 1u << k;
    return true;
}

static void op_tex(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const struct kimg_op *op = in->aux;
    const uint64_t *h = kw_slot(w, op->handle);
    struct kimg_cache cache = {0};
    struct ksampler s;
    uint64_t prepared = 0;
    bool have = false;
    KFOR_LANES(mask, l)
    {
        if (!kimg_get(w, in, l, h[l], false, false, &cache))
            return;
        if (!have || prepared != h[l]) {
            if (!sampler_for(&s, w, in, l, &cache.im))
                return;
            prepared = h[l];
            have = true;
        }
        s.lane = l;
        struct ktex_lane ln;
        lane_inputs(w, op, l, &ln);
        for (unsigned d = 0; d < op->noffset; ++d) {
            /* tex reads an offset's low 4 bits, tld4 its low 6, as signed (probed). */
            unsigned bits = op->comp == 0xff ? 4 : 6;
            uint32_t v = (uint32_t)kw_slot(w, op->offset[d])[l] & ((1u << bits) - 1);
            ln.off[d] = (int32_t)(v ^ (1u << (bits - 1))) - (int32_t)(1u << (bits - 1));
        }
        if (op->mip == 1) {
            ln.lod = kf32(kw_slot(w, op->lod)[l]);
        } else if (op->mip == 2) {
            float dx[3] = {0, 0, 0}, dy[3] = {0, 0, 0};
            for (int d = 0; d < 3; ++d) {
                if (op->grad[0][d] != KOPND_NONE)
                    dx[d] = kf32(kw_slot(w, op->grad[0][d])[l]);
                if (op->grad[1][d] != KOPND_NONE)
                    dy[d] = kf32(kw_slot(w, op->grad[1][d])[l]);
            }
            ln.lod = grad_lod(&cache.im, op, &ln, dx, dy);
            memcpy(ln.gdx, dx, sizeof(dx));
            memcpy(ln.gdy, dy, sizeof(dy));
        }
        struct ktexel r;
        struct kaniso taps;
        if (op->mip == 2 && op->comp == 0xff && !s.int_read && !op->int_coords && aniso_taps(&cache.im, op, &ln, &taps))
            sample_aniso(&s, op, &ln, &taps, &r); /* gradlod */
        else
            sample(&s, op, &ln, op->comp == 0xff ? -1 : op->comp, &r);
        if (s.failed)
            return;
        write_result(w, op, l, &r, true);
    }
}

/* txq: width, height and depth, as the H100 answers them (its driver refuses the other
 * queries: docs/images.md). */
static void op_txq(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const struct kimg_op *op = in->aux;
    const uint64_t *h = kw_slot(w, op->handle);
    uint64_t *d = kw_slot(w, op->dst[0]);
    bool surface = in->target != 0;
    struct kimg_cache cache = {0};
    KFOR_LANES(mask, l)
    {
        if (!kimg_get(w, in, l, h[l], surface, false, &cache))
            return;
        const struct kimage *im = &cache.im;
        uint32_t level = 0;
        if (op->lod != KOPND_NONE) {
            uint32_t q = (uint32_t)kw_slot(w, op->lod)[l];
            level = q < im->nlevels ? q : im->nlevels; /* past the last: 0 */
        }
        uint32_t v = 0;
        if (level < im->nlevels) {
            const struct kimage_level *lv = &im->level[level];
            uint32_t layers = im->layers;
            switch (op->query) {
            case KQ_WIDTH: v = lv->width; break;
            case KQ_HEIGHT: v = im->geometry == KIMG_LINEAR || im->geometry == KIMG_1D ? 1 : lv->height; break;
            default:
                if (im->geometry == KIMG_3D)
                    v = lv->depth;
                else if (im->geometry == KIMG_CUBE)
                    v = surface ? layers : (im->layered ? layers / 6 : 0);
                else
                    v = im->layered ? layers : 0;
                break;
            }
        }
        d[l] = v;
    }
}

/* istypep: the H100 answers false for texture and surface objects alike (probed): the
 * predicate names the old reference types, which CUDA 13 never makes. */
static void op_istypep(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    KFOR_LANES(mask, l)
    d[l] = 0;
}

/* ---- Lowering ---- */

static bool lower_dst_vec(struct klower *lw, const struct kparsed *p, uint32_t i, struct kimg_op *op, unsigned n)
{
    const struct kparsed_op *d = &p->ops[i];
    if (d->kind != KO_VEC || d->nvec != n)
        return kl_refuse(lw, "'%s': the destination must be a vector of %u registers", p->text, n);
    for (unsigned k = 0; k < n; ++k)
        op->dst[k] = d->vec[k] != KOPND_NONE ? d->vec[k] : KOPND_REG(kfunc_new_reg(lw->ps));
    return true;
}

/* The image address operand's index, after the destination and an optional |p. */
static int image_operand(const struct kparsed *p)
{
    for (uint32_t i = 0; i < p->nops; ++i)
        if (p->ops[i].kind == KO_ADDR && p->ops[i].image)
            return (int)i;
    return -1;
}

/* texlod: the optional operands after the coordinates (and the level or gradients): a vector of
 * texel offsets, one per dimension of the geometry, then a .f32 depth-compare value (PTX ISA 9.0,
 * tex and tld4: "{, e} {, f}"). Cube geometries take no offsets. */
static bool lower_tex_extra(struct klower *lw, const struct kparsed *p, struct kimg_op *op, uint32_t next)
{
    static const uint8_t dims[] = {1, 2, 3, 1, 2, 0, 0}; /* by enum kimg_geom */
    op->depth = KOPND_NONE;
    if (next < p->nops && p->ops[next].kind == KO_VEC) {
        const struct kparsed_op *v = &p->ops[next];
        unsigned n = dims[op->geom];
        if (!n)
            return kl_refuse(lw, "'%s': cube textures take no texel offsets", p->text);
        if (v->nvec < n || v->nvec > 4)
            return kl_refuse(lw, "'%s': texel offsets of .%s are a vector of %u", p->text,
                             (const char *[]){"1d", "2d", "3d", "a1d", "a2d", "cube", "acube"}[op->geom], n);
        for (unsigned k = 0; k < n; ++k) {
            if (v->vec[k] == KOPND_NONE)
                return kl_refuse(lw, "'%s': texel offset %u is missing", p->text, k + 1);
            op->offset[k] = v->vec[k];
        }
        op->noffset = (uint8_t)n;
        next++;
    }
    if (next < p->nops) {
        if (!kl_src(lw, p, next, KT_F32, &op->depth))
            return false;
        next++;
    }
    if (next < p->nops)
        return kl_refuse(lw, "'%s': too many operands (expected offsets and a depth-compare value at most)", p->text);
    return true;
}

static bool lower_tex_common(struct klower *lw, const struct kparsed *p, struct kinsn *in, bool gather)
{
    struct kimg_op *op = kimg_new(lw, in);
    if (!op || !kimg_lower_geom(lw, p, op))
        return false;
    ktype dt = kl_type(p, 0), ct = kl_type(p, 1);
    if (p->ntypes != 2)
        return kl_refuse(lw, "'%s' needs a destination and a coordinate type", p->text);
    if (ct != KT_F32 && ct != KT_S32)
        return kl_refuse(lw, "'%s': coordinates are .f32 or .s32", p->text);
    op->int_coords = ct == KT_S32;
    if (dt == KT_F16X2) {
        if (gather || !kp_has(p, KM_v2))
            return kl_refuse(lw, "'%s': .f16x2 results come as .v2", p->text);
        op->f16x2 = 1;
    } else if (dt != KT_F32 && dt != KT_S32 && dt != KT_U32) {
        return kl_refuse(lw, "'%s': results are .f32, .s32, .u32 or .f16x2", p->text);
    } else if (!kp_has(p, KM_v4)) {
        return kl_refuse(lw, "'%s': results come as .v4", p->text);
    }
    int a = image_operand(p);
    if (a < 1)
        return kl_refuse(lw, "'%s': expected d, [handle, {coordinates}]", p->text);
    if (!lower_dst_vec(lw, p, 0, op, op->f16x2 ? 2 : 4))
        return false;
    if (a == 2) {
        if (p->ops[1].kind != KO_REG || p->ops[1].type != KT_PRED)
            return kl_refuse(lw, "'%s': expected d|p", p->text);
        op->pred = p->ops[1].slot;
    } else if (a != 1) {
        return kl_refuse(lw, "'%s': expected d[|p], [handle, {coordinates}]", p->text);
    }
    if (!kimg_lower_coords(lw, p, &p->ops[a], op, false))
        return false;
    uint32_t rest = p->nops - (uint32_t)a - 1, next = (uint32_t)a + 1;
    op->comp = 0xff;
    if (gather) {
        static const kmod comps[] = {KM_r, KM_g, KM_b, KM_a};
        for (uint8_t c = 0; c < 4; ++c)
            if (kp_has(p, comps[c]))
                op->comp = c;
        if (op->comp == 0xff)
            return kl_refuse(lw, "'%s' names no component (.r .g .b .a)", p->text);
        if (op->geom == KG_1D || op->geom == KG_3D || op->geom == KG_A1D)
            return kl_refuse(lw, "'%s': tld4 gathers from .2d, .a2d, .cube and .acube textures", p->text);
        if (op->int_coords)
            return kl_refuse(lw, "'%s': tld4 takes .f32 coordinates", p->text);
    }
    if (kp_has(p, KM_level)) {
        if (gather || rest < 1)
            return kl_refuse(lw, "'%s': expected a level-of-detail operand", p->text);
        op->mip = 1;
        if (!kl_src(lw, p, next, KT_F32, &op->lod))
            return false;
        next += 1;
    } else if (kp_has(p, KM_grad)) {
        if (gather || rest < 2)
            return kl_refuse(lw, "'%s': expected two gradient operands", p->text);
        op->mip = 2;
        for (int g = 0; g < 2; ++g) {
            const struct kparsed_op *v = &p->ops[next + (uint32_t)g];
            if (v->kind != KO_VEC)
                return kl_refuse(lw, "'%s': a gradient is a vector", p->text);
            for (uint32_t k = 0; k < v->nvec && k < 3; ++k)
                op->grad[g][k] = v->vec[k];
        }
        next += 2;
    }
    if (!lower_tex_extra(lw, p, op, next))
        return false;
    if (op->int_coords && (op->geom == KG_CUBE || op->geom == KG_ACUBE))
        return kl_refuse(lw, "'%s': cube textures take .f32 coordinates", p->text);
    in->exec = op_tex;
    in->kind = KK_OP;
    return true;
}

static bool lower_tex(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (kp_has(p, KM_base))
        return kl_refuse(lw, "'%s': .base is not supported", p->text);
    return lower_tex_common(lw, p, in, false);
}
static bool lower_tld4(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    return lower_tex_common(lw, p, in, true);
}

/* txq [.level].query.b32 d, [a] {, lod}; suq.query.b32 d, [a] (ops_surf.c shares it). */
bool kimg_lower_query(struct klower *lw, const struct kparsed *p, struct kinsn *in, bool surface)
{
    static const kmod ok[] = {KM_width, KM_height, KM_depth};
    static const kmod refused[] = {KM_channel_data_type, KM_channel_order, KM_normalized_coords, KM_filter_mode,
                                   KM_addr_mode_0, KM_addr_mode_1, KM_addr_mode_2, KM_num_mipmap_levels,
                                   KM_num_samples, KM_array_size, KM_memory_layout, KM_force_unnormalized_coords};
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); ++i)
        if (kp_has(p, refused[i])) {
            /* What the H100's driver does with these: the module does not load. */
            kparse_error_code(lw->ps, CUDA_ERROR_NOT_SUPPORTED, p->line,
                              "'%s': the .%s query is not supported (an H100's driver refuses to load it too)",
                              p->text, kmod_name(refused[i]));
            return false;
        }
    struct kimg_op *op = kimg_new(lw, in);
    if (!op)
        return false;
    int q = -1;
    for (int i = 0; i < 3; ++i)
        if (kp_has(p, ok[i]))
            q = i;
    if (q < 0)
        return kl_refuse(lw, "'%s' names no query", p->text);
    op->query = (uint8_t)q;
    if (kl_type(p, 0) != KT_B32 || p->nops < 2)
        return kl_refuse(lw, "'%s': expected .b32 d, [handle]", p->text);
    const struct kparsed_op *a = &p->ops[1];
    if (a->kind != KO_ADDR || a->image || !a->has_base || a->imm || a->sym_space != KS_GENERIC || a->symbol)
        return kl_refuse(lw, "'%s': expected [handle] with a 64-bit register", p->text);
    op->handle = a->slot;
    if (!kl_dst(lw, p, 0, &op->dst[0]))
        return false;
    if (kp_has(p, KM_level)) {
        if (surface || p->nops != 3)
            return kl_refuse(lw, "'%s': expected d, [handle], level", p->text);
        if (!kl_src(lw, p, 2, KT_U32, &op->lod))
            return false;
    } else if (p->nops != 2) {
        return kl_refuse(lw, "'%s': expected d, [handle]", p->text);
    }
    in->target = surface;
    in->exec = op_txq;
    in->kind = KK_OP;
    return true;
}

static bool lower_txq(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    return kimg_lower_query(lw, p, in, false);
}

static bool lower_istypep(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (!kp_has(p, KM_texref) && !kp_has(p, KM_samplerref) && !kp_has(p, KM_surfref))
        return kl_refuse(lw, "'%s': expected .texref, .samplerref or .surfref", p->text);
    if (p->nops != 2 || p->ops[0].kind != KO_REG || p->ops[0].type != KT_PRED)
        return kl_refuse(lw, "'%s': expected p, a", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, KT_U64, &in->src[0]))
        return false;
    in->ndst = 1;
    in->nsrc = 1;
    in->exec = op_istypep;
    return true;
}

const struct klower_entry kops_tex[] = {
    {"tex", lower_tex}, {"tld4", lower_tld4}, {"txq", lower_txq}, {"istypep", lower_istypep}, {NULL, NULL},
};
