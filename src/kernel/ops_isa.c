/*
 * The isa family (issue 25): the instructions of the PTX ISA 9.0 for sm_75 to sm_90 that the
 * other families did not run, found by compiling CUDA's own libraries (thrust, CUB,
 * cooperative_groups, cuda_fp16.h, cuda_bf16.h, cuda_fp8.h) with nvcc 13 and by the ISA sweep
 * (tests/kernels/isa_sweep.txt):
 *
 *   - bit fields: bmsk, szext, fns (PTX ISA, "Integer Arithmetic Instructions");
 *   - half-precision comparisons: setp and set on .f16, .f16x2, .bf16, .bf16x2 ("Half
 *     Precision Comparison Instructions"), reached from ops_misc.c's setp and set;
 *   - the fp8 conversions cvt ... .e4m3x2 / .e5m2x2 (sm_89), reached from ops_cvt.c;
 *   - elect.sync (sm_90), reached from ops_warp.c;
 *   - cache and cluster instructions that change nothing on a device whose memory is host
 *     memory and whose clusters are single blocks: applypriority, discard, createpolicy,
 *     getctarank, mapa, griddepcontrol; and the sm_90a-only setmaxnreg, refused with a reason.
 *
 * Where the ISA leaves a value to the machine the H100's answer is taken (the sweep's rows carry
 * what the GPU gave; docs/kernels.md, "The ISA sweep").
 */
#include "kernel.h"
#include "softfloat.h"

#include <math.h>

/* ---- bmsk, szext, fns ---- */

/* bmsk.mode.b32 d, a, b: a mask of b ones starting at bit a. .clamp limits a and b to 32,
 * .wrap takes them modulo 32 (PTX ISA, "bmsk"). */
static void op_bmsk(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1);
    bool wrap = in->mods & 1;
    KFOR_LANES(mask, l)
    {
        uint32_t pos = (uint32_t)a[l], len = (uint32_t)b[l];
        if (wrap) {
            pos &= 31;
            len &= 31;
        } else {
            pos = pos > 32 ? 32 : pos;
            len = len > 32 ? 32 : len;
        }
        uint64_t lo = pos >= 32 ? 0 : 0xffffffffull << pos;
        uint64_t hi = pos + len >= 32 ? 0 : 0xffffffffull << (pos + len);
        d[l] = (lo & ~hi) & 0xffffffffu;
    }
}

/* szext.mode.{u32,s32} d, a, b: the low b bits of a, zero- or sign-extended; b clamped to 32
 * or taken modulo 32 (PTX ISA, "szext"). */
static void op_szext(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1);
    bool wrap = in->mods & 1, sgn = in->mods & 2;
    KFOR_LANES(mask, l)
    {
        uint32_t n = (uint32_t)b[l], v = (uint32_t)a[l];
        n = wrap ? n & 31 : n > 32 ? 32 : n;
        uint32_t r;
        if (n == 0)
            r = 0;
        else if (n == 32)
            r = v;
        else if (sgn)
            r = (uint32_t)((int32_t)(v << (32 - n)) >> (32 - n));
        else
            r = v & ((1u << n) - 1);
        d[l] = r;
    }
}

/* fns.b32 d, mask, base, offset: the bit position of the offset-th set bit of mask counting
 * from base (upwards for a positive offset, downwards for a negative one; offset 0: base itself
 * if set), 0xffffffff if there is none (PTX ISA, "fns"). */
static void op_fns(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *m = KSRC(w, in, 0), *b = KSRC(w, in, 1), *o = KSRC(w, in, 2);
    KFOR_LANES(mask, l)
    {
        uint32_t bits = (uint32_t)m[l], base = (uint32_t)b[l];
        int32_t off = (int32_t)(uint32_t)o[l];
        uint32_t r = 0xffffffffu;
        if (off == 0) {
            if (base < 32 && (bits >> base & 1))
                r = base;
        } else {
            int64_t pos = base, inc = off > 0 ? 1 : -1;
            int64_t count = (off > 0 ? (int64_t)off : -(int64_t)off) - 1;
            while (pos >= 0 && pos < 32) {
                if (bits >> pos & 1) {
                    if (count == 0) {
                        r = (uint32_t)pos;
                        break;
                    }
                    count--;
                }
                pos += inc;
            }
        }
        d[l] = r;
    }
}

static bool lower_bmsk(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    bool wrap = kp_has(p, KM_wrap), clamp = kp_has(p, KM_clamp);
    if (kl_type(p, 0) != KT_B32 || p->ntypes != 1 || wrap == clamp || p->nmods != 1)
        return kl_refuse(lw, "'%s': bmsk takes .clamp or .wrap and .b32", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, KT_U32, &in->src[0]) ||
        !kl_src(lw, p, 2, KT_U32, &in->src[1]))
        return false;
    in->mods = wrap;
    in->exec = op_bmsk;
    return true;
}

static bool lower_szext(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    ktype t = kl_type(p, 0);
    bool wrap = kp_has(p, KM_wrap), clamp = kp_has(p, KM_clamp);
    if ((t != KT_U32 && t != KT_S32) || p->ntypes != 1 || wrap == clamp || p->nmods != 1)
        return kl_refuse(lw, "'%s': szext takes .clamp or .wrap and .u32 or .s32", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, t, &in->src[0]) || !kl_src(lw, p, 2, KT_U32, &in->src[1]))
        return false;
    in->mods = (uint32_t)wrap | (t == KT_S32 ? 2u : 0u);
    in->exec = op_szext;
    return true;
}

static bool lower_fns(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (kl_type(p, 0) != KT_B32 || p->ntypes != 1 || p->nmods)
        return kl_refuse(lw, "'%s': fns takes .b32", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, KT_B32, &in->src[0]) ||
        !kl_src(lw, p, 2, KT_U32, &in->src[1]) || !kl_src(lw, p, 3, KT_S32, &in->src[2]))
        return false;
    in->exec = op_fns;
    return true;
}

/* ---- elect.sync d|p, membermask (sm_90) ----
 * The leader is the lowest lane among those that execute it together and are in membermask (the
 * executing lanes if none is); d is its lane number in every lane, p true in the leader alone. */
static void op_elect(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const uint64_t *m = KSRC(w, in, 0);
    uint32_t cand = mask & (uint32_t)m[kctz(mask)];
    if (!cand)
        cand = mask;
    uint32_t leader = (uint32_t)kctz(cand);
    uint64_t *d = KDST(w, in, 0), *p = KDST(w, in, 1);
    KFOR_LANES(mask, l)
    {
        d[l] = leader;
        p[l] = l == leader;
    }
}

bool kisa_lower_elect(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (!kp_has(p, KM_sync) || p->nmods != 1 || p->ntypes || p->nops != 3)
        return kl_refuse(lw, "'%s': elect is written elect.sync d|p, membermask", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_dst(lw, p, 1, &in->dst[1]) || !kl_src(lw, p, 2, KT_B32, &in->src[0]))
        return false;
    in->ndst = 2;
    in->nsrc = 1;
    in->exec = op_elect;
    return true;
}

/* ---- setp and set on half precision ----
 * in->mods: cmp (0..13 in the order below) | bop << 4 | ftz << 6; in->type the compared type,
 * in->type2 set's destination type (KT_NONE for setp). A pair compares element by element: setp
 * writes the low half's result to p and the high half's to q; set writes each half of d. */
enum { HC_EQ, HC_NE, HC_LT, HC_LE, HC_GT, HC_GE, HC_EQU, HC_NEU, HC_LTU, HC_LEU, HC_GTU, HC_GEU, HC_NUM, HC_NAN };
enum { HB_NONE, HB_AND, HB_OR, HB_XOR };

static bool half_compare(uint32_t a, uint32_t b, bool bf, int cmp, bool ftz)
{
    const struct ksf_fmt *f = bf ? &ksf_bf16 : &ksf_f16;
    bool un = ksf_is_nan(f, a) || ksf_is_nan(f, b);
    if (un)
        return cmp >= HC_EQU && cmp != HC_NUM;
    if (ftz && ksf_is_subnormal(f, a))
        a &= (uint32_t)ksf_sign_bit(f);
    if (ftz && ksf_is_subnormal(f, b))
        b &= (uint32_t)ksf_sign_bit(f);
    double x = ksf_to_double(f, a), y = ksf_to_double(f, b);
    switch (cmp) {
    case HC_EQ: case HC_EQU: return x == y;
    case HC_NE: case HC_NEU: return x != y;
    case HC_LT: case HC_LTU: return x < y;
    case HC_LE: case HC_LEU: return x <= y;
    case HC_GT: case HC_GTU: return x > y;
    case HC_GE: case HC_GEU: return x >= y;
    case HC_NUM: return true;
    default: return false;
    }
}

static bool half_combine(bool r, int op, bool c)
{
    return op == HB_AND ? r && c : op == HB_OR ? r || c : op == HB_XOR ? r != c : r;
}

static void op_half_compare(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1);
    const uint64_t *c = in->src[2] != KOPND_NONE ? KSRC(w, in, 2) : NULL;
    int cmp = (int)(in->mods & 15), bop = (int)(in->mods >> 4 & 3);
    bool ftz = in->mods >> 6 & 1, cneg = in->imm & 1;
    ktype t = (ktype)in->type, dt = (ktype)in->type2;
    bool bf = t == KT_BF16 || t == KT_BF16X2, pair = t == KT_F16X2 || t == KT_BF16X2;
    uint64_t *d0 = KDST(w, in, 0);
    uint64_t *d1 = in->dst[1] != KOPND_NONE ? KDST(w, in, 1) : NULL;
    KFOR_LANES(mask, l)
    {
        bool cv = c ? (c[l] != 0) != cneg : false;
        bool lo = half_combine(half_compare((uint32_t)a[l] & 0xffff, (uint32_t)b[l] & 0xffff, bf, cmp, ftz), bop, cv);
        bool hi = pair ? half_combine(half_compare((uint32_t)a[l] >> 16 & 0xffff, (uint32_t)b[l] >> 16 & 0xffff, bf,
                                                   cmp, ftz),
                                      bop, cv)
                       : false;
        if (dt == KT_NONE) { /* setp */
            d0[l] = lo;
            if (d1)
                d1[l] = pair ? hi : half_combine(!half_compare((uint32_t)a[l] & 0xffff, (uint32_t)b[l] & 0xffff, bf,
                                                               cmp, ftz),
                                                 bop, cv);
            continue;
        }
        /* set: 1.0 or all ones per element (PTX ISA, "set" on half precision) */
        uint64_t one;
        switch (dt) {
        case KT_F16: one = 0x3c00; break;
        case KT_F16X2: one = 0x3c00; break;
        case KT_BF16: case KT_BF16X2: one = 0x3f80; break;
        case KT_F32: one = 0x3f800000u; break;
        case KT_U16: case KT_S16: case KT_B16: one = 0xffff; break;
        default: one = 0xffffffffu; break;
        }
        if (pair)
            d0[l] = (lo ? (dt == KT_U32 || dt == KT_S32 ? 0xffffu : one) : 0) |
                    (hi ? (dt == KT_U32 || dt == KT_S32 ? 0xffffu : one) : 0) << 16;
        else
            d0[l] = lo ? one : 0;
    }
}

static bool half_modifiers(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    static const kmod cmps[] = {KM_eq, KM_ne, KM_lt, KM_le, KM_gt, KM_ge, KM_equ, KM_neu, KM_ltu, KM_leu, KM_gtu, KM_geu,
                                KM_num, KM_nan};
    int cmp = -1, bop = HB_NONE;
    bool ftz = false;
    for (uint32_t i = 0; i < p->nmods; ++i) {
        kmod m = p->mods[i];
        int found = -1;
        for (int j = 0; j < 14; ++j)
            if (cmps[j] == m)
                found = j;
        if (found >= 0)
            cmp = found;
        else if (m == KM_and)
            bop = HB_AND;
        else if (m == KM_or)
            bop = HB_OR;
        else if (m == KM_xor)
            bop = HB_XOR;
        else if (m == KM_ftz)
            ftz = true;
        else
            return kl_refuse(lw, "'%s': modifier .%s is not defined for a half-precision comparison", p->text,
                             kmod_name(m));
    }
    if (cmp < 0)
        return kl_refuse(lw, "'%s' names no comparison", p->text);
    in->mods = (uint32_t)cmp | (uint32_t)bop << 4 | (uint32_t)ftz << 6;
    return true;
}

static bool half_c(struct klower *lw, const struct kparsed *p, uint32_t i, struct kinsn *in)
{
    in->src[2] = KOPND_NONE;
    if (i >= p->nops)
        return !(in->mods >> 4 & 3) || kl_refuse(lw, "'%s': a boolean operation needs a predicate operand", p->text);
    const struct kparsed_op *c = &p->ops[i];
    if (!(in->mods >> 4 & 3))
        return kl_refuse(lw, "'%s': a predicate operand needs .and, .or or .xor", p->text);
    if (c->kind == KO_REG && c->type == KT_PRED) {
        in->src[2] = c->slot;
        in->imm = c->neg ? 1 : 0;
        return true;
    }
    if (c->kind == KO_IMM) {
        in->src[2] = kl_const(lw, c->imm != 0);
        return true;
    }
    return kl_refuse(lw, "'%s': operand %u must be a predicate", p->text, i + 1);
}

static bool is_half(ktype t) { return t == KT_F16 || t == KT_F16X2 || t == KT_BF16 || t == KT_BF16X2; }

bool kisa_lower_half_compare(struct klower *lw, const struct kparsed *p, struct kinsn *in, bool is_set)
{
    ktype t = kl_type(p, is_set ? 1 : 0), dt = is_set ? kl_type(p, 0) : KT_NONE;
    if (!is_half(t) || p->ntypes != (is_set ? 2u : 1u))
        return kl_refuse(lw, "'%s': not a half-precision comparison", p->text);
    bool pair = t == KT_F16X2 || t == KT_BF16X2;
    if (is_set) {
        /* set.CmpOp.dtype.f16: dtype .u16 .s16 .u32 .s32 .f16 .f32 (and .bf16 for bf16);
         * set.CmpOp.{f16x2,u32,s32}.f16x2 (.bf16x2 likewise) */
        bool ok = pair ? (dt == t || dt == KT_U32 || dt == KT_S32)
                       : (dt == KT_U16 || dt == KT_S16 || dt == KT_U32 || dt == KT_S32 || dt == KT_F32 || dt == t);
        if (!ok)
            return kl_refuse(lw, "'%s': the destination type .%s is not defined for comparing .%s", p->text,
                             ktype_name(dt), ktype_name(t));
    }
    if (!half_modifiers(lw, p, in))
        return false;
    in->type = (uint8_t)t;
    in->type2 = (uint8_t)dt;
    uint32_t i = 0;
    in->dst[1] = KOPND_NONE;
    if (!kl_dst(lw, p, i++, &in->dst[0]))
        return false;
    if (!is_set && (p->nops == 5 || (p->nops == 4 && !(in->mods >> 4 & 3)))) {
        if (!kl_dst(lw, p, i++, &in->dst[1]))
            return false;
    } else if (!is_set && pair) {
        return kl_refuse(lw, "'%s': comparing a pair sets two predicates, p|q", p->text);
    }
    ktype st = pair ? KT_B32 : KT_B16;
    if (!kl_src(lw, p, i, st, &in->src[0]) || !kl_src(lw, p, i + 1, st, &in->src[1]))
        return false;
    in->exec = op_half_compare;
    return half_c(lw, p, i + 2, in);
}

/* ---- fp8: cvt to and from .e4m3x2 / .e5m2x2 (sm_89) ----
 * e4m3: 4 exponent bits (bias 7), 3 mantissa bits, no infinities, S.1111.111 the only NaN, 448
 * the largest value. e5m2: IEEE-like (bias 15, 2 mantissa bits, infinities), 57344 the largest
 * finite value. A pair d, a, b puts a in the upper byte and b in the lower one (the ISA's rule
 * for packing conversions). The conversions to fp8 are .rn.satfinite: out-of-range values and
 * infinities become the largest finite value of their sign, NaN the format's NaN. */
static uint32_t to_f8(double x, bool e5, bool relu)
{
    if (isnan(x))
        return 0x7f;
    if (relu && (x < 0 || (x == 0 && signbit(x))))
        x = 0;
    uint32_t s = signbit(x) ? 0x80 : 0;
    double ax = fabs(x);
    int mant = e5 ? 2 : 3, bias = e5 ? 15 : 7;
    double maxv = e5 ? 57344.0 : 448.0;
    if (ax == 0)
        return s;
    if (isinf(ax))
        return s | (e5 ? 0x7b : 0x7e);
    int e;
    frexp(ax, &e); /* ax = f * 2^e, f in [0.5, 1): the leading bit is 2^(e-1) */
    int lead = e - 1, emin = 1 - bias;
    int qexp = (lead < emin ? emin : lead) - mant; /* the quantum 2^qexp */
    double q = nearbyint(ldexp(ax, -qexp));    /* ties to even (the default mode) */
    double r = ldexp(q, qexp);
    if (r > maxv)
        return s | (e5 ? 0x7b : 0x7e);
    /* encode r: exact in the format */
    if (r < ldexp(1.0, emin)) /* subnormal: mantissa = r / 2^(emin - mant) */
        return s | (uint32_t)ldexp(r, mant - emin);
    int re;
    double fr = frexp(r, &re); /* r = fr * 2^re, fr in [0.5, 1) */
    uint32_t ef = (uint32_t)(re - 1 + bias);
    uint32_t mf = (uint32_t)((fr * 2 - 1) * (1 << mant) + 0.5);
    return s | ef << mant | mf;
}

/* fp8 bits to a double (exact); NaN as NaN. */
static double from_f8(uint32_t v, bool e5)
{
    int mant = e5 ? 2 : 3, bias = e5 ? 15 : 7;
    uint32_t s = v >> 7 & 1, ef = (v & 0x7f) >> mant, mf = v & ((1u << mant) - 1);
    if (e5 && ef == 31)
        return mf ? NAN : s ? -INFINITY : INFINITY;
    if (!e5 && ef == 15 && mf == 7)
        return NAN;
    double r = ef ? ldexp(1.0 + ldexp((double)mf, -mant), (int)ef - bias) : ldexp((double)mf, 1 - bias - mant);
    return s ? -r : r;
}

/* in->mods: bit 0 e5m2, bit 1 relu; in->imm: 0 f32 pair to f8x2, 1 f16x2 to f8x2, 2 f8x2 to
 * f16x2, 3 bf16x2 to f8x2. */
static void op_cvt_f8(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    bool e5 = in->mods & 1, relu = in->mods & 2;
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0);
    const uint64_t *b = in->nsrc > 1 ? KSRC(w, in, 1) : NULL;
    KFOR_LANES(mask, l)
    {
        uint32_t r = 0;
        switch (in->imm) {
        case 0: r = to_f8(kf32(a[l]), e5, relu) << 8 | to_f8(kf32(b[l]), e5, relu); break;
        case 1:
        case 3: {
            const struct ksf_fmt *f = in->imm == 1 ? &ksf_f16 : &ksf_bf16;
            uint32_t hi = (uint32_t)a[l] >> 16 & 0xffff, lo = (uint32_t)a[l] & 0xffff;
            double x = ksf_is_nan(f, hi) ? NAN : ksf_to_double(f, hi);
            double y = ksf_is_nan(f, lo) ? NAN : ksf_to_double(f, lo);
            r = to_f8(x, e5, relu) << 8 | to_f8(y, e5, relu);
            break;
        }
        default:
            for (int h = 0; h < 2; ++h) {
                double x = from_f8((uint32_t)a[l] >> (8 * h) & 0xff, e5);
                uint32_t bits;
                if (isnan(x))
                    bits = 0x7fff;
                else {
                    if (relu && (x < 0 || (x == 0 && signbit(x))))
                        x = 0;
                    bits = (uint32_t)ksf_from_double(&ksf_f16, x, KSF_RN);
                }
                r |= bits << (16 * h);
            }
            break;
        }
        d[l] = r;
    }
}

bool kisa_lower_cvt_f8_widen(struct klower *lw, const struct kparsed *p, struct kinsn *in);

bool kisa_lower_cvt_f8(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    bool e4 = kp_has(p, KM_e4m3x2), e5 = kp_has(p, KM_e5m2x2);
    for (uint32_t i = 0; i < p->nmods; ++i) {
        kmod m = p->mods[i];
        if (m == KM_e2m1x2 || m == KM_e2m3x2 || m == KM_e3m2x2 || m == KM_ue8m0x2)
            return kl_refuse(lw, "'%s': .%s conversions are sm_100a and later (the software device is sm_80 to "
                                 "sm_90)",
                             p->text, kmod_name(m));
        if (m != KM_rn && m != KM_satfinite && m != KM_relu && m != KM_e4m3x2 && m != KM_e5m2x2)
            return kl_refuse(lw, "'%s': modifier .%s is not defined for an fp8 conversion", p->text, kmod_name(m));
    }
    if (e4 == e5 || !kp_has(p, KM_rn))
        return kl_refuse(lw, "'%s': an fp8 conversion names one of .e4m3x2 and .e5m2x2, and .rn", p->text);
    in->mods = (uint32_t)e5 | (kp_has(p, KM_relu) ? 2u : 0u);
    ktype t0 = kl_type(p, 0);
    /* The source type is written last: cvt.rn.f16x2.e4m3x2 widens, cvt.rn.satfinite.e4m3x2.f16x2
     * narrows (the parser keeps types and modifiers apart, so the text tells the order). */
    size_t n = strlen(p->text);
    while (n && (p->text[n - 1] == ' ' || p->text[n - 1] == '\t'))
        n--;
    if (n >= 7 && (memcmp(p->text + n - 7, ".e4m3x2", 7) == 0 || memcmp(p->text + n - 7, ".e5m2x2", 7) == 0)) {
        if (t0 != KT_F16X2 || p->ntypes != 1)
            return kl_refuse(lw, "'%s': fp8 widens to .f16x2 only (sm_89 to sm_90)", p->text);
        return kisa_lower_cvt_f8_widen(lw, p, in);
    }
    if (p->ntypes == 1 && (t0 == KT_F32 || t0 == KT_F16X2 || t0 == KT_BF16X2)) {
        /* to fp8: .satfinite is required */
        if (!kp_has(p, KM_satfinite))
            return kl_refuse(lw, "'%s': a conversion to fp8 needs .satfinite", p->text);
        if (t0 == KT_BF16X2)
            return kl_refuse(lw, "'%s': fp8 from .bf16x2 is sm_100a and later", p->text);
        in->imm = t0 == KT_F32 ? 0 : 1;
        if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, t0 == KT_F32 ? KT_F32 : KT_B32, &in->src[0]))
            return false;
        in->nsrc = 1;
        if (t0 == KT_F32) {
            if (p->nops != 3 || !kl_src(lw, p, 2, KT_F32, &in->src[1]))
                return kl_refuse(lw, "'%s': converting f32 to fp8 takes two sources", p->text);
            in->nsrc = 2;
        } else if (p->nops != 2) {
            return kl_refuse(lw, "'%s' takes one source", p->text);
        }
    } else if (p->ntypes == 1 && t0 == KT_NONE) {
        return kl_refuse(lw, "'%s': no type", p->text);
    } else {
        return kl_refuse(lw, "'%s': an fp8 conversion this form of which is not defined", p->text);
    }
    in->exec = op_cvt_f8;
    return true;
}

/* cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a: exact widening of the two fp8 values of a 16-bit
 * source, the upper byte to the upper half. The parser sees the destination as the only type:
 * kisa_lower_cvt_f8 tells the form by the order written. */
bool kisa_lower_cvt_f8_widen(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    bool e5 = kp_has(p, KM_e5m2x2);
    if (p->nops != 2 || kp_has(p, KM_satfinite))
        return kl_refuse(lw, "'%s': widening fp8 is cvt.rn{.relu}.f16x2.f8x2type d, a", p->text);
    in->mods = (uint32_t)e5 | (kp_has(p, KM_relu) ? 2u : 0u);
    in->imm = 2;
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, KT_B16, &in->src[0]))
        return false;
    in->nsrc = 1;
    in->exec = op_cvt_f8;
    return true;
}

/* ---- Cache, cluster and scheduling instructions ---- */

static void op_nop(struct kwarp *w, const struct kinsn *in, uint32_t mask) { (void)w, (void)in, (void)mask; }

static void op_zero(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    KFOR_LANES(mask, l) d[l] = 0;
}

static void op_copy(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0);
    KFOR_LANES(mask, l) d[l] = a[l];
}

/* applypriority.global.L2::evict_normal [a], 128 and discard.global.L2 [a], 128: cache
 * operations. There is no cache: applypriority changes nothing, and discard leaves the line's
 * data as it is (the ISA makes it undefined afterwards; keeping it is one of the allowed
 * outcomes). Only the forms the ISA defines are accepted. */
static bool lower_cacheop(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    bool apply = p->opcode[0] == 'a';
    for (uint32_t i = 0; i < p->nmods; ++i) {
        kmod m = p->mods[i];
        if (!(m == KM_global || (apply ? m == KM_L2__evict_normal : m == KM_L2)))
            return kl_refuse(lw, "'%s': modifier .%s is not defined here", p->text, kmod_name(m));
    }
    if (p->nops != 2 || p->ops[0].kind != KO_ADDR || p->ops[1].kind != KO_IMM || p->ops[1].imm != 128)
        return kl_refuse(lw, "'%s' takes [a], 128", p->text);
    in->exec = op_nop;
    return true;
}

/* createpolicy: an opaque 64-bit cache policy for the .L2::cache_hint operands, which the
 * software device accepts and ignores; the policy is 0 (the H100's encoding is not specified). */
static bool lower_createpolicy(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (kl_type(p, 0) != KT_B64 || p->ntypes != 1)
        return kl_refuse(lw, "'%s': createpolicy makes a .b64 policy", p->text);
    bool fractional = kp_has(p, KM_fractional), range = kp_has(p, KM_range), cvt = kp_has(p, KM_cvt);
    if (fractional + range + cvt != 1)
        return kl_refuse(lw, "'%s': createpolicy is .fractional, .range or .cvt", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]))
        return false;
    in->exec = op_zero;
    return true;
}

/* getctarank{.shared::cluster}.u32 d, a: every block is a cluster of one, rank 0. */
static bool lower_getctarank(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (kl_type(p, 0) != KT_U32 || p->nops != 2)
        return kl_refuse(lw, "'%s' takes .u32 d, a", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]))
        return false;
    in->exec = op_zero;
    return true;
}

/* griddepcontrol.launch_dependents / .wait (sm_90): programmatic dependent launch. The software
 * device runs a stream's launches one after the other, so the prerequisite grid has completed
 * when a dependent runs: both are no-ops. */
static bool lower_griddepcontrol(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (p->nmods != 1 || !(kp_has(p, KM_launch_dependents) || kp_has(p, KM_wait)) || p->nops)
        return kl_refuse(lw, "'%s': griddepcontrol is .launch_dependents or .wait", p->text);
    in->exec = op_nop;
    return true;
}

/* setmaxnreg (sm_90a only: not in the sm_90 ISA the software device implements). */
static bool lower_setmaxnreg(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    (void)in;
    return kl_refuse(lw, "'%s': setmaxnreg is sm_90a only (register reallocation between warpgroups); the software "
                         "device implements sm_80 to sm_90 without the 'a' features",
                     p->text);
}

/* mapa{.shared::cluster}.{u32,u64} d, a, b: a's address in the shared memory of the cluster's
 * block b. Every block is a cluster of one, so b is 0 and the address is a's. */
static bool lower_mapa(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    ktype t = kl_type(p, 0);
    if ((t != KT_U32 && t != KT_U64) || p->nops != 3)
        return kl_refuse(lw, "'%s' takes .u32 or .u64 d, a, b", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, t, &in->src[0]))
        return false;
    in->exec = op_copy;
    return true;
}

const struct klower_entry kops_isa[] = {
    {"bmsk", lower_bmsk},
    {"szext", lower_szext},
    {"fns", lower_fns},
    {"applypriority", lower_cacheop},
    {"discard", lower_cacheop},
    {"createpolicy", lower_createpolicy},
    {"getctarank", lower_getctarank},
    {"griddepcontrol", lower_griddepcontrol},
    {"setmaxnreg", lower_setmaxnreg},
    {"mapa", lower_mapa},
    {NULL, NULL},
};
