/*
 * Surface instructions: suld.b, sust.b, sust.p, sured.b, sured.p and suq on surface objects
 * passed as .u64 handles. The x coordinate counts bytes (.b) or elements (.p); y, z and the
 * layer count elements. Every access lies in the object's extent, which is device memory
 * (ops_image.h). What an H100 does out of range (probed, docs/images.md "Surfaces"): .trap
 * faults with CUDA_ERROR_ILLEGAL_ADDRESS, an x that is not a multiple of the access's size with
 * CUDA_ERROR_MISALIGNED_ADDRESS; .zero loads zeros and drops stores; .clamp moves the access
 * to the nearest element inside. suld.p does not exist in PTX 9 (ptxas: "not a name of any
 * known instruction"): refused.
 */
#include "ops_image.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

enum { KB_TRAP, KB_CLAMP, KB_ZERO };
enum { KR_ADD, KR_MIN, KR_MAX, KR_AND, KR_OR };

/* Where lane l's access goes: the element's address, or NULL (a .zero access out of range:
 * *skip set; or a fault: *skip clear). */
static unsigned char *locate(struct kwarp *w, const struct kinsn *in, uint32_t l, const struct kimg_op *op,
                             const struct kimage *im, unsigned size, bool *skip)
{
    *skip = false;
    const struct kimage_level *lv = &im->level[0];
    int64_t c[4] = {0, 0, 0, 0};
    for (unsigned i = 0; i < op->ncoord; ++i)
        c[i] = (int32_t)kw_slot(w, op->coord[i])[l];
    int64_t x, y = 0, z = 0, layer = 0;
    switch (op->geom) {
    case KG_1D: x = c[0]; break;
    case KG_2D: x = c[0]; y = c[1]; break;
    case KG_3D: x = c[0]; y = c[1]; z = c[2]; break;
    case KG_A1D: layer = (uint32_t)c[0]; x = c[1]; break;
    default: layer = (uint32_t)c[0]; x = c[1]; y = c[2]; break;
    }
    int64_t xb = op->formatted ? x * (int64_t)im->texel_bytes : x;
    if (xb % (int64_t)size) {
        kfault(w, in, l, CUDA_ERROR_MISALIGNED_ADDRESS, "surface x = %lld bytes is not a multiple of the %u-byte access",
               (long long)xb, size);
        return NULL;
    }
    int64_t row = (int64_t)lv->width * im->texel_bytes;
    int64_t h = im->geometry == KIMG_1D || im->geometry == KIMG_LINEAR ? 1 : lv->height;
    int64_t d = im->geometry == KIMG_3D ? lv->depth : 1;
    int64_t layers = im->layers;
    bool layered = op->geom == KG_A1D || op->geom == KG_A2D;
    bool out = xb < 0 || xb + size > row || y < 0 || y >= h || z < 0 || z >= d || (layered && layer >= layers);
    if (out) {
        if (op->bound == KB_TRAP) {
            kfault(w, in, l, CUDA_ERROR_ILLEGAL_ADDRESS,
                   "surface access at x = %lld bytes, y = %lld, z = %lld, layer = %lld is out of range (.trap)",
                   (long long)xb, (long long)y, (long long)z, (long long)layer);
            return NULL;
        }
        if (op->bound == KB_ZERO) {
            *skip = true;
            return NULL;
        }
        int64_t xmax = (row - (int64_t)size) / (int64_t)size * (int64_t)size;
        xb = xb < 0 ? 0 : xb > xmax ? xmax : xb;
        y = y < 0 ? 0 : y >= h ? h - 1 : y;
        z = z < 0 ? 0 : z >= d ? d - 1 : z;
        layer = layer >= layers ? layers - 1 : layer;
    }
    uint32_t slice = im->geometry == KIMG_3D ? (uint32_t)z : (uint32_t)layer;
    return kimg_addr(w, in, l, im, lv, (uint64_t)xb, (uint32_t)y, slice, size);
}

static void op_suld(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const struct kimg_op *op = in->aux;
    const uint64_t *h = kw_slot(w, op->handle);
    struct kimg_cache cache = {0};
    unsigned size = op->esize * op->vec;
    KFOR_LANES(mask, l)
    {
        if (!kimg_get(w, in, l, h[l], true, false, &cache))
            return;
        bool skip;
        const unsigned char *p = locate(w, in, l, op, &cache.im, size, &skip);
        if (!p && !skip)
            return;
        for (unsigned k = 0; k < op->vec; ++k) {
            uint64_t v = 0;
            if (p)
                switch (op->esize) {
                case 1: v = p[k]; break;
                case 2: { uint16_t t; memcpy(&t, p + 2 * k, 2); v = t; break; }
                case 4: { uint32_t t; memcpy(&t, p + 4 * k, 4); v = t; break; }
                default: memcpy(&v, p + 8 * k, 8); break;
                }
            if (op->dst[k] != KOPND_NONE)
                kw_slot(w, op->dst[k])[l] = v;
        }
    }
}

/* sust.p: a channel's 32-bit value in the surface's format. */
static void store_formatted(struct kfmt f, unsigned char *p, const uint32_t v[4], unsigned n)
{
    uint32_t raw[4] = {0, 0, 0, 0};
    for (unsigned c = 0; c < 4 && c < n; ++c) {
        float x = kf32(v[c]);
        double d = x != x ? 0.0 : x;
        switch (f.kind) {
        case KFK_UNORM: case KFK_1010102: {
            unsigned bits = f.kind == KFK_1010102 ? (c == 3 ? 2u : 10u) : f.bits;
            double max = (double)((1u << bits) - 1);
            d = d < 0 ? 0 : d > 1 ? 1 : d;
            raw[c] = (uint32_t)floor(d * max + 0.5);
            break;
        }
        case KFK_SNORM: {
            double max = (double)((1u << (f.bits - 1)) - 1);
            d = d < -1 ? -1 : d > 1 ? 1 : d;
            raw[c] = (uint32_t)(int32_t)floor(d * max + 0.5);
            break;
        }
        case KFK_HALF: raw[c] = kimg_float_to_half(v[c]); break;
        default: raw[c] = v[c]; break; /* integers (low bits kept) and floats as they are */
        }
    }
    if (f.kind == KFK_1010102) {
        uint32_t x = (raw[0] & 0x3ff) | (raw[1] & 0x3ff) << 10 | (raw[2] & 0x3ff) << 20 | raw[3] << 30;
        memcpy(p, &x, 4);
        return;
    }
    for (unsigned c = 0; c < f.channels; ++c) {
        switch (f.bits) {
        case 8: p[c] = (unsigned char)raw[c]; break;
        case 16: { uint16_t t = (uint16_t)raw[c]; memcpy(p + 2 * c, &t, 2); break; }
        default: memcpy(p + 4 * c, &raw[c], 4); break;
        }
    }
}

static void op_sust(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const struct kimg_op *op = in->aux;
    const uint64_t *h = kw_slot(w, op->handle);
    struct kimg_cache cache = {0};
    KFOR_LANES(mask, l)
    {
        if (!kimg_get(w, in, l, h[l], true, true, &cache))
            return;
        const struct kimage *im = &cache.im;
        unsigned size = op->formatted ? im->texel_bytes : op->esize * op->vec;
        struct kfmt f = kimg_format(im);
        if (op->formatted && f.kind == KFK_NONE) {
            kfault(w, in, l, CUDA_ERROR_NOT_SUPPORTED, "sust.p on format 0x%x is not implemented", im->format);
            return;
        }
        bool skip;
        unsigned char *p = locate(w, in, l, op, im, size, &skip);
        if (!p) {
            if (!skip)
                return;
            continue;
        }
        if (op->formatted) {
            uint32_t v[4] = {0, 0, 0, 0};
            for (unsigned k = 0; k < op->vec; ++k)
                v[k] = (uint32_t)kw_slot(w, op->val[k])[l];
            store_formatted(f, p, v, op->vec);
            continue;
        }
        for (unsigned k = 0; k < op->vec; ++k) {
            uint64_t v = kw_slot(w, op->val[k])[l];
            switch (op->esize) {
            case 1: p[k] = (unsigned char)v; break;
            case 2: { uint16_t t = (uint16_t)v; memcpy(p + 2 * k, &t, 2); break; }
            case 4: { uint32_t t = (uint32_t)v; memcpy(p + 4 * k, &t, 4); break; }
            default: memcpy(p + 8 * k, &v, 8); break;
            }
        }
    }
}

static void op_sured(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const struct kimg_op *op = in->aux;
    const uint64_t *h = kw_slot(w, op->handle);
    const uint64_t *b = kw_slot(w, op->val[0]);
    struct kimg_cache cache = {0};
    unsigned size = op->esize;
    KFOR_LANES(mask, l)
    {
        if (!kimg_get(w, in, l, h[l], true, true, &cache))
            return;
        bool skip;
        unsigned char *p = locate(w, in, l, op, &cache.im, size, &skip);
        if (!p) {
            if (!skip)
                return;
            continue;
        }
        if (size == 4) {
            _Atomic uint32_t *a = (_Atomic uint32_t *)(void *)p;
            uint32_t v = (uint32_t)b[l], old = atomic_load(a), nv;
            switch (op->redop) {
            case KR_ADD: atomic_fetch_add(a, v); break;
            case KR_AND: atomic_fetch_and(a, v); break;
            case KR_OR: atomic_fetch_or(a, v); break;
            default:
                do {
                    bool less = op->red_signed ? (int32_t)v < (int32_t)old : v < old;
                    nv = (op->redop == KR_MIN) == less ? v : old;
                } while (nv != old && !atomic_compare_exchange_weak(a, &old, nv));
                break;
            }
        } else {
            _Atomic uint64_t *a = (_Atomic uint64_t *)(void *)p;
            uint64_t v = b[l], old = atomic_load(a), nv;
            switch (op->redop) {
            case KR_ADD: atomic_fetch_add(a, v); break;
            case KR_AND: atomic_fetch_and(a, v); break;
            case KR_OR: atomic_fetch_or(a, v); break;
            default:
                do {
                    bool less = op->red_signed ? (int64_t)v < (int64_t)old : v < old;
                    nv = (op->redop == KR_MIN) == less ? v : old;
                } while (nv != old && !atomic_compare_exchange_weak(a, &old, nv));
                break;
            }
        }
    }
}

/* ---- Lowering ---- */

static bool lower_bound(struct klower *lw, const struct kparsed *p, struct kimg_op *op)
{
    bool t = kp_has(p, KM_trap), c = kp_has(p, KM_clamp), z = kp_has(p, KM_zero);
    if (t + c + z > 1)
        return kl_refuse(lw, "'%s' names two boundary modes", p->text);
    op->bound = c ? KB_CLAMP : z ? KB_ZERO : KB_TRAP; /* .trap is the default */
    return true;
}

static bool lower_esize(struct klower *lw, const struct kparsed *p, struct kimg_op *op, ktype t)
{
    switch (t) {
    case KT_B8: op->esize = 1; break;
    case KT_B16: op->esize = 2; break;
    case KT_B32: op->esize = 4; break;
    case KT_B64: op->esize = 8; break;
    default: return kl_refuse(lw, "'%s': the data type is .b8, .b16, .b32 or .b64", p->text);
    }
    op->vec = kp_has(p, KM_v4) ? 4 : kp_has(p, KM_v2) ? 2 : 1;
    if (op->vec * op->esize > 16)
        return kl_refuse(lw, "'%s': an access is at most 16 bytes", p->text);
    return true;
}

static bool lower_vec_regs(struct klower *lw, const struct kparsed *p, const struct kparsed_op *v, kopnd *out,
                           unsigned n, bool dst)
{
    if (v->kind == KO_REG && n == 1) {
        out[0] = v->slot;
        return true;
    }
    if (v->kind != KO_VEC || v->nvec != n)
        return kl_refuse(lw, "'%s': expected a vector of %u registers", p->text, n);
    for (unsigned k = 0; k < n; ++k) {
        if (v->vec[k] == KOPND_NONE) {
            if (!dst)
                return kl_refuse(lw, "'%s': a stored value is missing", p->text);
            out[k] = KOPND_REG(kfunc_new_reg(lw->ps));
        } else {
            out[k] = v->vec[k];
        }
    }
    return true;
}

static bool lower_suld(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (kp_has(p, KM_p))
        return kl_refuse(lw, "'%s': suld.p does not exist in PTX 9 (formatted surface loads were removed)", p->text);
    if (!kp_has(p, KM_b))
        return kl_refuse(lw, "'%s': expected suld.b", p->text);
    struct kimg_op *op = kimg_new(lw, in);
    if (!op || !kimg_lower_geom(lw, p, op) || !lower_bound(lw, p, op) || !lower_esize(lw, p, op, kl_type(p, 0)))
        return false;
    if (p->nops != 2 || !kimg_lower_coords(lw, p, &p->ops[1], op, true) ||
        !lower_vec_regs(lw, p, &p->ops[0], op->dst, op->vec, true))
        return p->nops == 2 ? false : kl_refuse(lw, "'%s': expected d, [handle, {coordinates}]", p->text);
    in->exec = op_suld;
    return true;
}

static bool lower_sust(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    struct kimg_op *op = kimg_new(lw, in);
    if (!op || !kimg_lower_geom(lw, p, op) || !lower_bound(lw, p, op))
        return false;
    if (kp_has(p, KM_p)) {
        if (kl_type(p, 0) != KT_B32)
            return kl_refuse(lw, "'%s': sust.p stores .b32 values", p->text);
        op->formatted = 1;
        op->esize = 4;
        op->vec = kp_has(p, KM_v4) ? 4 : kp_has(p, KM_v2) ? 2 : 1;
    } else if (!kp_has(p, KM_b)) {
        return kl_refuse(lw, "'%s': expected sust.b or sust.p", p->text);
    } else if (!lower_esize(lw, p, op, kl_type(p, 0))) {
        return false;
    }
    if (p->nops != 2)
        return kl_refuse(lw, "'%s': expected [handle, {coordinates}], values", p->text);
    if (!kimg_lower_coords(lw, p, &p->ops[0], op, true) || !lower_vec_regs(lw, p, &p->ops[1], op->val, op->vec, false))
        return false;
    in->exec = op_sust;
    return true;
}

static bool lower_sured(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    struct kimg_op *op = kimg_new(lw, in);
    if (!op || !kimg_lower_geom(lw, p, op) || !lower_bound(lw, p, op))
        return false;
    static const kmod ops[] = {KM_add, KM_min, KM_max, KM_and, KM_or};
    int r = -1;
    for (int i = 0; i < 5; ++i)
        if (kp_has(p, ops[i]))
            r = i;
    if (r < 0)
        return kl_refuse(lw, "'%s' names no reduction (.add .min .max .and .or)", p->text);
    op->redop = (uint8_t)r;
    ktype t = kl_type(p, 0);
    bool bform = kp_has(p, KM_b), pform = kp_has(p, KM_p);
    if (bform == pform)
        return kl_refuse(lw, "'%s': expected sured.b or sured.p", p->text);
    switch (t) {
    case KT_U32: case KT_S32: case KT_B32: op->esize = 4; break;
    case KT_U64: case KT_S64: case KT_B64: op->esize = 8; break;
    default: return kl_refuse(lw, "'%s': the type is .u32, .s32, .u64, .b32 or .b64", p->text);
    }
    if (pform && t != KT_B32 && t != KT_B64)
        return kl_refuse(lw, "'%s': sured.p takes .b32 or .b64", p->text);
    if (bform && (r == KR_AND || r == KR_OR) != (t == KT_B32 || t == KT_B64))
        return kl_refuse(lw, "'%s': .and and .or take .b32 or .b64, the others .u32, .s32 or .u64", p->text);
    op->red_signed = t == KT_S32 || t == KT_S64;
    op->formatted = pform;
    op->vec = 1;
    if (p->nops != 2 || !kimg_lower_coords(lw, p, &p->ops[0], op, true) || !kl_src(lw, p, 1, t, &op->val[0]))
        return p->nops == 2 ? false : kl_refuse(lw, "'%s': expected [handle, {coordinates}], value", p->text);
    in->exec = op_sured;
    return true;
}

static bool lower_suq(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    return kimg_lower_query(lw, p, in, true);
}

const struct klower_entry kops_surf[] = {
    {"suld", lower_suld}, {"sust", lower_sust}, {"sured", lower_sured}, {"suq", lower_suq}, {NULL, NULL},
};
