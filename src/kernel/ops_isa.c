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
 *   - cache instructions that change nothing on a device whose memory is host memory:
 *     applypriority, discard, createpolicy, griddepcontrol; the cluster addressing of getctarank
 *     and mapa (exec.c, "Clusters"); and the sm_90a-only setmaxnreg, refused with a reason.
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
        /* set.CmpOp.dtype.f16: dtype .u16 .s16 .u32 .s32 .f16 (and .bf16 for bf16; not .f32: the
         * H200's ptxas refuses it);
         * set.CmpOp.{f16x2,u32,s32}.f16x2 (.bf16x2 likewise) */
        bool ok = pair ? (dt == t || dt == KT_U32 || dt == KT_S32)
                       : (dt == KT_U16 || dt == KT_S16 || dt == KT_U32 || dt == KT_S32 || dt == t);
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

/* getctarank{.shared::cluster}.type d, a: the rank of the cluster's block whose shared memory a
 * is in (a .shared::cluster address, or a generic one; .type is a's: .u32 or .u64). An address
 * in no block's window reads as the block's own rank. */
static void op_getctarank(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0);
    const struct kblock *b = w->b;
    KFOR_LANES(mask, l)
    {
        uint64_t off;
        const struct kblock *o = in->mods ? NULL : kcluster_window(b, a[l], &off);
        d[l] = in->mods ? (b->rank + (a[l] >> KCLUSTER_SHIFT)) & 0xff : o ? o->rank : b->rank;
    }
}

static bool lower_getctarank(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    ktype t = kl_type(p, 0);
    if ((t != KT_U32 && t != KT_U64) || p->nops != 2)
        return kl_refuse(lw, "'%s' takes .u32 or .u64 d, a", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, t, &in->src[0]))
        return false;
    in->mods = kp_has(p, KM_shared__cluster);
    in->exec = op_getctarank;
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

/* mapa{.shared::cluster}.{u32,u64} d, a, b: the address of a's byte in the shared memory of the
 * cluster's block of rank b: a .shared::cluster address (its top bits name the block, counted
 * from this one) or a generic one (the host address in that block's window). A rank past the
 * cluster or an a in no window gives an address that names nothing: an access through it faults
 * (the H100: LAUNCH_FAILED at the access, docs/probes/kernels/cluster). */
static void op_mapa(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0), *r = KSRC(w, in, 1);
    const struct kblock *b = w->b;
    const struct kcluster *c = b->cluster;
    uint32_t n = c ? c->n : 1;
    KFOR_LANES(mask, l)
    {
        uint32_t rank = (uint32_t)r[l];
        if (in->mods) {
            uint64_t off = a[l] & ((1u << KCLUSTER_SHIFT) - 1);
            d[l] = (off | (uint64_t)((rank - b->rank) & 0xff) << KCLUSTER_SHIFT) & 0xffffffffu;
            if (in->type == KT_U64)
                d[l] = off | (uint64_t)((rank - b->rank) & 0xff) << KCLUSTER_SHIFT;
            continue;
        }
        uint64_t off;
        const struct kblock *o = kcluster_window(b, a[l], &off);
        if (!o || rank >= n) {
            d[l] = 0; /* no shared memory: any access faults */
            continue;
        }
        d[l] = (uint64_t)(uintptr_t)(c ? c->blocks[rank] : b)->shared + off;
    }
}

static bool lower_mapa(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    ktype t = kl_type(p, 0);
    if ((t != KT_U32 && t != KT_U64) || p->nops != 3)
        return kl_refuse(lw, "'%s' takes .u32 or .u64 d, a, b", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, t, &in->src[0]) ||
        !kl_src(lw, p, 2, KT_U32, &in->src[1]))
        return false;
    in->type = (uint8_t)t;
    in->mods = kp_has(p, KM_shared__cluster);
    in->exec = op_mapa;
    return true;
}


/* ---- 16-bit pairs: add, min, max on .u16x2 / .s16x2 (sm_90) ----
 * Each half on its own, add wrapping; min and max signed or unsigned; .relu (min and max on
 * .s16x2) makes a negative half 0. sub has no 16x2 form (the H200's ptxas refuses it). in->mods:
 * 0 add, 1 min, 2 max | 4 signed | 8 relu. */
static void op_int16x2(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1);
    uint32_t op = in->mods & 3;
    bool sgn = in->mods & 4, relu = in->mods & 8;
    KFOR_LANES(mask, l)
    {
        uint32_t r = 0;
        for (int h = 0; h < 2; ++h) {
            uint32_t x = (uint32_t)a[l] >> (16 * h) & 0xffff, y = (uint32_t)b[l] >> (16 * h) & 0xffff, v;
            if (op == 0) {
                v = (x + y) & 0xffff;
            } else {
                int32_t sx = sgn ? (int16_t)x : (int32_t)x, sy = sgn ? (int16_t)y : (int32_t)y;
                int32_t m = op == 1 ? (sx < sy ? sx : sy) : (sx > sy ? sx : sy);
                if (relu && m < 0)
                    m = 0;
                v = (uint32_t)m & 0xffff;
            }
            r |= v << (16 * h);
        }
        d[l] = r;
    }
}

bool kisa_lower_int16x2(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    bool sgn = kp_has(p, KM_s16x2), relu = kp_has(p, KM_relu);
    const char *op = p->opcode;
    uint32_t code = strcmp(op, "add") == 0 ? 0 : strcmp(op, "min") == 0 ? 1 : strcmp(op, "max") == 0 ? 2 : 3;
    if (code == 3)
        return kl_refuse(lw, "'%s': %s has no .u16x2/.s16x2 form (sm_90 has add, min and max; ptxas refuses the rest)",
                         p->text, op);
    if (p->ntypes || p->nmods != (relu ? 2u : 1u) || (relu && (code == 0 || !sgn)))
        return kl_refuse(lw, "'%s': the 16x2 forms are add.{u16x2,s16x2} and {min,max}{.relu}.{u16x2,s16x2} (.relu on "
                             ".s16x2)",
                         p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, KT_B32, &in->src[0]) ||
        !kl_src(lw, p, 2, KT_B32, &in->src[1]))
        return false;
    in->mods = code | (sgn ? 4u : 0u) | (relu ? 8u : 0u);
    in->exec = op_int16x2;
    return true;
}

/* ---- SIMD video instructions: vadd, vsub, vavrg, vabsdiff, vmin, vmax on 2 or 4 elements ----
 * vop{2,4}.dtype.atype.btype{.sat} d, a, b, c and vop{2,4}.dtype.atype.btype.add d, a, b, c (PTX ISA,
 * "SIMD Video Instructions"), with the default selectors and mask: each 16- or 8-bit element of
 * a and b (signed by its type) gives op(a_i, b_i) in full precision; without .add that is d's
 * element i (saturated to dtype's element range with .sat, else truncated); with .add d is c plus
 * the sum of the elements' results. Selectors (.h10, .b3210 ...) and masks on d are refused.
 * in->mods: op | n4 << 3 | dsign << 4 | asign << 5 | bsign << 6 | sat << 7 | add << 8. */
enum { VOP_ADD, VOP_SUB, VOP_AVRG, VOP_ABSDIFF, VOP_MIN, VOP_MAX };

static void op_video(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1), *c = KSRC(w, in, 2);
    uint32_t m = in->mods, op = m & 7;
    bool four = m >> 3 & 1, ds = m >> 4 & 1, as = m >> 5 & 1, bs = m >> 6 & 1, sat = m >> 7 & 1, add = m >> 8 & 1;
    int bits = four ? 8 : 16, n = four ? 4 : 2;
    int64_t lo = ds ? -(1ll << (bits - 1)) : 0, hi = ds ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
    KFOR_LANES(mask, l)
    {
        uint32_t r = 0;
        int64_t sum = 0;
        for (int i = 0; i < n; ++i) {
            uint32_t xa = (uint32_t)a[l] >> (bits * i) & ((1u << bits) - 1);
            uint32_t xb = (uint32_t)b[l] >> (bits * i) & ((1u << bits) - 1);
            int64_t x = as && (xa >> (bits - 1)) ? (int64_t)xa - (1ll << bits) : (int64_t)xa;
            int64_t y = bs && (xb >> (bits - 1)) ? (int64_t)xb - (1ll << bits) : (int64_t)xb;
            int64_t t;
            switch (op) {
            case VOP_ADD: t = x + y; break;
            case VOP_SUB: t = x - y; break;
            case VOP_AVRG: t = (x + y + 1) >> 1; break;
            case VOP_ABSDIFF: t = x > y ? x - y : y - x; break;
            case VOP_MIN: t = x < y ? x : y; break;
            default: t = x > y ? x : y; break;
            }
            if (add) {
                sum += t;
                continue;
            }
            if (sat)
                t = t < lo ? lo : t > hi ? hi : t;
            r |= ((uint32_t)t & ((1u << bits) - 1)) << (bits * i);
        }
        d[l] = add ? (uint32_t)((int64_t)(uint32_t)c[l] + sum) : r;
    }
}

static bool lower_video(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    static const char *const names[] = {"vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax"};
    const char *op = p->opcode;
    size_t n = strlen(op);
    if (n < 2 || (op[n - 1] != '2' && op[n - 1] != '4'))
        return kl_refuse(lw, "'%s': the scalar video instructions (vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr, vmad, "
                             "vset) are not implemented by the software device",
                         p->text);
    uint32_t code = 6;
    for (uint32_t i = 0; i < 6; ++i)
        if (strlen(names[i]) == n - 1 && strncmp(op, names[i], n - 1) == 0)
            code = i;
    if (code == 6)
        return kl_refuse(lw, "'%s': %s (comparisons per element) is not implemented by the software device", p->text,
                         op);
    if (p->ntypes != 3)
        return kl_refuse(lw, "'%s': a SIMD video instruction names .dtype.atype.btype", p->text);
    for (uint32_t i = 0; i < 3; ++i)
        if (p->types[i] != KT_U32 && p->types[i] != KT_S32)
            return kl_refuse(lw, "'%s': the video types are .u32 and .s32", p->text);
    bool sat = kp_has(p, KM_sat), add = kp_has(p, KM_add);
    if (p->nmods != (uint32_t)sat + (uint32_t)add || (sat && add) || (sat && code == VOP_MIN) ||
        (sat && code == VOP_MAX))
        return kl_refuse(lw, "'%s': modifiers other than .sat or .add (selectors, masks) are not implemented", p->text);
    if (p->nops != 4)
        return kl_refuse(lw, "'%s' takes d, a, b, c (selectors and masks are not implemented)", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, KT_B32, &in->src[0]) ||
        !kl_src(lw, p, 2, KT_B32, &in->src[1]) || !kl_src(lw, p, 3, KT_B32, &in->src[2]))
        return false;
    in->mods = code | (op[n - 1] == '4' ? 1u << 3 : 0) | (p->types[0] == KT_S32 ? 1u << 4 : 0) |
               (p->types[1] == KT_S32 ? 1u << 5 : 0) | (p->types[2] == KT_S32 ? 1u << 6 : 0) | (sat ? 1u << 7 : 0) |
               (add ? 1u << 8 : 0);
    in->exec = op_video;
    return true;
}

/* ---- cvt.pack.sat.{u16,s16}.{u32,s32} d, a, b and cvt.pack.sat.{u8,s8}.{u32,s32}.b32 d, a, b, c ----
 * a and b saturated to the narrow type and packed, a above b; for 8 bits c's low 16 bits fill
 * d's upper half (PTX ISA, "cvt.pack"; the H200: a = 0x9abcdef0, b = 5, c = 0x12345678 to .s8 gives
 * 0x56788005). 4-bit destinations (.u4, .s4) are not in the type set the front end reads. */
static void op_cvt_pack(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1);
    const uint64_t *c = in->nsrc > 2 ? KSRC(w, in, 2) : NULL;
    int bits = in->mods & 0xff;
    bool dsig = in->mods >> 8 & 1, ssig = in->mods >> 9 & 1;
    int64_t lo = dsig ? -(1ll << (bits - 1)) : 0, hi = dsig ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
    KFOR_LANES(mask, l)
    {
        int64_t x = ssig ? (int32_t)(uint32_t)a[l] : (int64_t)(uint32_t)a[l];
        int64_t y = ssig ? (int32_t)(uint32_t)b[l] : (int64_t)(uint32_t)b[l];
        x = x < lo ? lo : x > hi ? hi : x;
        y = y < lo ? lo : y > hi ? hi : y;
        uint32_t m = (1u << bits) - 1;
        uint32_t r = ((uint32_t)x & m) << bits | ((uint32_t)y & m);
        if (c)
            r |= (uint32_t)c[l] << (2 * bits);
        d[l] = r;
    }
}

bool kisa_lower_cvt_pack(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    ktype dt = kl_type(p, 0), st = kl_type(p, 1);
    bool eight = dt == KT_U8 || dt == KT_S8, sixteen = dt == KT_U16 || dt == KT_S16;
    if (!kp_has(p, KM_sat) || p->nmods != 2 || !(eight || sixteen) || (st != KT_U32 && st != KT_S32) ||
        p->ntypes != (eight ? 3u : 2u) || (eight && kl_type(p, 2) != KT_B32))
        return kl_refuse(lw, "'%s': the forms are cvt.pack.sat.{u16,s16}.{u32,s32} and "
                             "cvt.pack.sat.{u8,s8}.{u32,s32}.b32 (4-bit destinations are not implemented)",
                         p->text);
    if (p->nops != (eight ? 4u : 3u))
        return kl_refuse(lw, "'%s' takes %s", p->text, eight ? "d, a, b, c" : "d, a, b");
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, st, &in->src[0]) || !kl_src(lw, p, 2, st, &in->src[1]))
        return false;
    in->nsrc = 2;
    if (eight) {
        if (!kl_src(lw, p, 3, KT_B32, &in->src[2]))
            return false;
        in->nsrc = 3;
    }
    in->mods = (eight ? 8u : 16u) | (dt == KT_S8 || dt == KT_S16 ? 1u << 8 : 0) | (st == KT_S32 ? 1u << 9 : 0);
    in->exec = op_cvt_pack;
    return true;
}


/* ---- Vector atomics: atom/red.global.v2/.v4 .add on .f32, .f16x2, .bf16x2 (sm_90) ----
 * Each element is its own atomic add (the ISA makes no promise for the vector as a whole), in
 * element order, as a host compare-exchange on 32 bits. f32 adds as the scalar global atom.add.f32
 * does on the H100 (subnormal operands and results flushed, NaN canonical: docs/kernels.md,
 * "Atomics"; the vector form itself was not probed); f16x2 and bf16x2 as atom.add.noftz does
 * (subnormals kept, NaN 0x7fff). in->mods: n | type << 4 (0 f32, 1 f16x2, 2 bf16x2) | dst << 8;
 * src[0] the address, src[1..n] the values, dst[0..n-1] the old values. */
static uint32_t vadd_f32(uint32_t a, uint32_t b)
{
    uint32_t x = (a & 0x7f800000u) ? a : a & 0x80000000u, y = (b & 0x7f800000u) ? b : b & 0x80000000u;
    float r = kf32(x) + kf32(y);
    if (isnan(r))
        return 0x7fffffffu;
    uint32_t v = (uint32_t)kbits32(r);
    return (v & 0x7f800000u) ? v : v & 0x80000000u;
}

static uint32_t vadd_half(uint32_t a, uint32_t b, const struct ksf_fmt *f)
{
    if (ksf_is_nan(f, a) || ksf_is_nan(f, b))
        return 0x7fff;
    double r = ksf_to_double(f, a) + ksf_to_double(f, b); /* exact in a double */
    if (isnan(r))
        return 0x7fff;
    return (uint32_t)ksf_from_double(f, r, KSF_RN) & 0xffff;
}

static void op_atom_vec(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    unsigned n = in->mods & 15, type = in->mods >> 4 & 15;
    bool dst = in->mods >> 8 & 1;
    const uint64_t *a = KSRC(w, in, 0);
    KFOR_LANES(mask, l)
    {
        uint32_t *p = kmem(w, in, l, (kspace)in->space, a[l] + (uint64_t)in->imm, 4 * n, true);
        if (!p)
            return;
        for (unsigned i = 0; i < n; ++i) {
            uint32_t b = (uint32_t)KSRC(w, in, 1 + i)[l];
            _Atomic uint32_t *ap = (_Atomic uint32_t *)(void *)(p + i);
            uint32_t old = atomic_load_explicit(ap, memory_order_relaxed), nv;
            do {
                if (type == 0)
                    nv = vadd_f32(old, b);
                else {
                    const struct ksf_fmt *f = type == 1 ? &ksf_f16 : &ksf_bf16;
                    nv = vadd_half(old & 0xffff, b & 0xffff, f) | vadd_half(old >> 16, b >> 16, f) << 16;
                }
            } while (!atomic_compare_exchange_weak_explicit(ap, &old, nv, memory_order_seq_cst, memory_order_relaxed));
            if (dst)
                KDST(w, in, i)[l] = old;
        }
    }
}

bool kisa_lower_atom_vec(struct klower *lw, const struct kparsed *p, struct kinsn *in, bool is_red)
{
    unsigned n = kp_has(p, KM_v4) ? 4 : kp_has(p, KM_v2) ? 2 : 8;
    ktype t = kl_type(p, 0);
    bool global = kp_has(p, KM_global);
    for (uint32_t i = 0; i < p->nmods; ++i) {
        kmod m = p->mods[i];
        if (!(m == KM_add || m == KM_global || m == KM_v2 || m == KM_v4 || m == KM_noftz || m == KM_relaxed ||
              m == KM_acquire || m == KM_release || m == KM_acq_rel || m == KM_cta || m == KM_gpu || m == KM_sys ||
              m == KM_cluster || m == KM_L2__cache_hint))
            return kl_refuse(lw, "'%s': vector atomics run .add of .f32, .f16x2 and .bf16x2 (.v2, .v4) on .global; "
                                 ".%s is not implemented",
                             p->text, kmod_name(m));
    }
    if (!kp_has(p, KM_add) || n == 8 || !global || p->ntypes != 1 || (t != KT_F32 && t != KT_F16X2 && t != KT_BF16X2))
        return kl_refuse(lw, "'%s': vector atomics run .add of .f32, .f16x2 and .bf16x2 (.v2, .v4) on .global", p->text);
    if (t != KT_F32 && !kp_has(p, KM_noftz))
        return kl_refuse(lw, "'%s': the PTX ISA requires .noftz on a .%s add", p->text, ktype_name(t));
    uint32_t first = is_red ? 0 : 1;
    bool hint = kp_has(p, KM_L2__cache_hint);
    if (p->nops != first + 2 + hint || p->ops[first].kind != KO_ADDR)
        return kl_refuse(lw, "'%s' takes %s[a], {b...}", p->text, is_red ? "" : "{d...}, ");
    const struct kparsed_op *ad = &p->ops[first], *b = &p->ops[first + 1];
    if (ad->has_base && ad->symbol && ad->symbol->kind != KSYM_REG)
        return kl_refuse(lw, "'%s': a vector atomic through a variable's name is not implemented", p->text);
    in->src[0] = ad->has_base ? ad->slot : kl_const(lw, 0);
    in->imm = ad->imm;
    if (b->kind != KO_VEC || b->nvec != n)
        return kl_refuse(lw, "'%s': the values must be a vector of %u registers", p->text, n);
    for (unsigned i = 0; i < n; ++i) {
        if (b->vec[i] == KOPND_NONE)
            return kl_refuse(lw, "'%s': '_' among the values", p->text);
        in->src[1 + i] = b->vec[i];
    }
    in->nsrc = (uint8_t)(1 + n);
    if (!is_red) {
        const struct kparsed_op *d = &p->ops[0];
        if (d->kind != KO_VEC || d->nvec != n)
            return kl_refuse(lw, "'%s': the destination must be a vector of %u registers", p->text, n);
        for (unsigned i = 0; i < n; ++i)
            in->dst[i] = d->vec[i] != KOPND_NONE ? d->vec[i] : KOPND_REG(kfunc_new_reg(lw->ps));
        in->ndst = (uint8_t)n;
    }
    in->space = KS_GLOBAL;
    in->mods = n | (t == KT_F32 ? 0u : t == KT_F16X2 ? 1u : 2u) << 4 | (is_red ? 0u : 1u << 8);
    in->kind = KK_OP;
    in->exec = op_atom_vec;
    return !lw->ps->err;
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
    {"vadd2", lower_video},
    {"vadd4", lower_video},
    {"vsub2", lower_video},
    {"vsub4", lower_video},
    {"vavrg2", lower_video},
    {"vavrg4", lower_video},
    {"vabsdiff2", lower_video},
    {"vabsdiff4", lower_video},
    {"vmin2", lower_video},
    {"vmin4", lower_video},
    {"vmax2", lower_video},
    {"vmax4", lower_video},
    {"vset2", lower_video},
    {"vset4", lower_video},
    {"vadd", lower_video},
    {"vsub", lower_video},
    {"vabsdiff", lower_video},
    {"vmin", lower_video},
    {"vmax", lower_video},
    {"vshl", lower_video},
    {"vshr", lower_video},
    {"vmad", lower_video},
    {"vset", lower_video},
    {NULL, NULL},
};
