/*
 * cvt (PTX ISA, "Data Movement and Conversion Instructions: cvt"): every pair of integer and
 * floating-point types, with the rounding of the instruction (.rn .rz .rm .rp, .rna for tf32;
 * .rni .rzi .rmi .rpi to an integral value), .ftz, .sat, .relu and .satfinite, and the packing
 * forms cvt.f16x2.f32 and cvt.bf16x2.f32 (d = {cvt(a) in the upper half, cvt(b) in the lower}).
 *
 * Rules from the ISA: a float-to-integer conversion saturates to the destination's range;
 * .sat on a float destination clamps to [0.0, 1.0] and makes NaN 0; an integer-to-integer .sat
 * clamps to the destination's range, without it the value is truncated; a signed destination
 * narrower than its register is sign-extended into the register. Where the ISA leaves bits
 * open they are the H100's (docs/kernels.md, "Floating point"):
 *  - NaN to an integer is 0, except from .f64 or to a 64-bit integer, where it is the
 *    destination's sign bit alone (0x80000000, 0x8000000000000000);
 *  - a NaN narrowed from f32 to f16 or bf16, from f16 to f32, between f16 and bf16, or put
 *    through any rounding of f32 is canonical (0x7fff, 0x7fffffff); widening to f64, and
 *    narrowing from f64, keep the sign and the payload's top bits, quieted; bf16 to f32 moves
 *    the bits; plain cvt.f32.f32 moves the bits.
 * All the rounding is exact integer arithmetic (softfloat.c), not the host's.
 */
#include "kernel.h"
#include "softfloat.h"

#include <math.h>

/* in->mods */
#define CM_MODE(m) ((m)&7u) /* enum ksf_mode */
#define CM_IRND 0x08u       /* .rni/.rzi/.rmi/.rpi: round to an integral value */
#define CM_FTZ 0x10u
#define CM_SAT 0x20u
#define CM_RELU 0x40u
#define CM_SATFINITE 0x80u
#define CM_HAS_ROUNDING 0x100u /* a rounding modifier was given (plain cvt.f32.f32 moves bits) */
/* in->target: the destination register's width in bits (a signed result is sign-extended
 * into it). */

static inline uint64_t mask_bits(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
static inline int64_t sext(uint64_t v, unsigned bits)
{
    return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}

static const struct ksf_fmt *fmt_of(ktype t)
{
    switch (t) {
    case KT_F16:
        return &ksf_f16;
    case KT_BF16:
        return &ksf_bf16;
    case KT_F32:
        return &ksf_f32;
    case KT_TF32:
        return &ksf_tf32;
    default:
        return &ksf_f64;
    }
}

/* A signed destination narrower than its register fills the register with its sign. */
static inline uint64_t to_reg(uint64_t v, ktype dt, unsigned reg_bits)
{
    unsigned bits = ktype_size(dt) * 8;
    if (ktype_signed(dt) && reg_bits > bits)
        return (uint64_t)sext(v, bits) & mask_bits(reg_bits);
    return v & mask_bits(bits);
}

/* ---- integer to integer ---- */
static void cvt_ii(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d_ = KDST(w, in, 0);
    const uint64_t *a_ = KSRC(w, in, 0);
    ktype dt = (ktype)in->type, st = (ktype)in->type2;
    unsigned sb = ktype_size(st) * 8, db = ktype_size(dt) * 8;
    bool ss = ktype_signed(st), ds = ktype_signed(dt), sat = in->mods & CM_SAT;
    /* the destination's range, as signed and unsigned bounds */
    int64_t dmin = ds ? (db >= 64 ? INT64_MIN : -(int64_t)(1ull << (db - 1))) : 0;
    uint64_t dmax = ds ? mask_bits(db - 1) : mask_bits(db);
    KFOR_LANES(mask, l)
    {
        uint64_t v = a_[l] & mask_bits(sb);
        uint64_t r;
        if (sat) {
            if (ss && sext(v, sb) < 0) {
                int64_t s = sext(v, sb);
                r = s < dmin ? (uint64_t)dmin : (uint64_t)s;
            } else {
                r = v > dmax ? dmax : v;
            }
        } else {
            r = ss ? (uint64_t)sext(v, sb) : v;
        }
        d_[l] = to_reg(r, dt, in->target);
    }
}

/* ---- float operands ---- */
/* A float source's bits as a double (exact); *nan when it is a NaN. */
static inline double f_in(ktype st, uint64_t bits, bool ftz, bool *nan)
{
    switch (st) {
    case KT_F64:
        *nan = isnan(kf64(bits));
        return kf64(bits);
    case KT_F32: {
        uint32_t x = (uint32_t)bits;
        if (ftz && (x & 0x7f800000u) == 0)
            x &= 0x80000000u;
        float f = kf32(x);
        *nan = f != f;
        return f;
    }
    default: {
        const struct ksf_fmt *f = fmt_of(st);
        bits &= mask_bits(ktype_size(st) * 8);
        *nan = ksf_is_nan(f, bits);
        return *nan ? 0 : ksf_to_double(f, bits);
    }
    }
}

/* Rounds to an integral value (exact in double). */
static inline double round_integral(double x, unsigned mode)
{
    switch (mode) {
    case KSF_RZ:
        return trunc(x);
    case KSF_RM:
        return floor(x);
    case KSF_RP:
        return ceil(x);
    default: { /* to nearest, ties to even */
        double f = floor(x), diff = x - f;
        double r = f;
        if (diff > 0.5 || (diff == 0.5 && fmod(f, 2.0) != 0))
            r = f + 1;
        return r == 0 ? copysign(0.0, x) : r;
    }
    }
}

/* ---- float to integer ---- */
static void cvt_if(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d_ = KDST(w, in, 0);
    const uint64_t *a_ = KSRC(w, in, 0);
    ktype dt = (ktype)in->type, st = (ktype)in->type2;
    unsigned db = ktype_size(dt) * 8, mode = CM_MODE(in->mods);
    bool ds = ktype_signed(dt), ftz = in->mods & CM_FTZ;
    uint64_t nan_result = (db == 64 || st == KT_F64) && db >= 32 ? 1ull << (db - 1) : 0;
    double lo = ds ? -ldexp(1.0, (int)db - 1) : 0.0;  /* the smallest value, exactly */
    double hi_excl = ldexp(1.0, ds ? (int)db - 1 : (int)db); /* the first value past the largest */
    KFOR_LANES(mask, l)
    {
        bool nan;
        double x = f_in(st, a_[l], ftz, &nan);
        uint64_t r;
        if (nan) {
            r = nan_result;
        } else {
            x = round_integral(x, mode);
            if (x < lo)
                r = ds ? (uint64_t)(int64_t)lo : 0;
            else if (x >= hi_excl)
                r = ds ? mask_bits(db - 1) : mask_bits(db);
            else
                r = ds ? (uint64_t)(int64_t)x : (uint64_t)x;
        }
        d_[l] = to_reg(r, dt, in->target);
    }
}

/* ---- integer to float ---- */
static void cvt_fi(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d_ = KDST(w, in, 0);
    const uint64_t *a_ = KSRC(w, in, 0);
    ktype dt = (ktype)in->type, st = (ktype)in->type2;
    unsigned sb = ktype_size(st) * 8;
    enum ksf_mode mode = (enum ksf_mode)CM_MODE(in->mods);
    const struct ksf_fmt *f = fmt_of(dt);
    bool ss = ktype_signed(st), sat = in->mods & CM_SAT;
    KFOR_LANES(mask, l)
    {
        uint64_t v = a_[l] & mask_bits(sb);
        bool neg = ss && sext(v, sb) < 0;
        uint64_t mag = neg ? 0 - (uint64_t)sext(v, sb) : v;
        if (sat) { /* clamp to [0, 1] */
            if (neg || mag == 0) {
                d_[l] = 0;
                continue;
            }
            mag = 1;
        }
        d_[l] = ksf_round(f, neg, mag, 0, mode);
    }
}

/* ---- float to float ---- */
/* The NaN a conversion from st to dt gives (the H100's; see the header comment). */
static uint64_t nan_of(ktype dt, ktype st, uint64_t a, bool rounding)
{
    bool sign;
    uint64_t frac; /* the payload, left-aligned in 52 bits */
    switch (st) {
    case KT_F64:
        sign = a >> 63;
        frac = a & ((1ull << 52) - 1);
        break;
    case KT_F32:
        sign = (a >> 31) & 1;
        frac = (a & 0x7fffffu) << 29;
        break;
    case KT_F16:
        sign = (a >> 15) & 1;
        frac = (a & 0x3ffu) << 42;
        break;
    default: /* bf16 */
        sign = (a >> 15) & 1;
        frac = (a & 0x7fu) << 45;
        break;
    }
    switch (dt) {
    case KT_F64:
        return (sign ? 1ull << 63 : 0) | 0x7ff8000000000000ull | frac;
    case KT_F32:
        if (st == KT_F64)
            return (sign ? 0x80000000u : 0) | 0x7fc00000u | (uint32_t)(frac >> 29);
        if (st == KT_BF16)
            return (a & 0xffffu) << 16;
        if (st == KT_F32 && !rounding)
            return a & 0xffffffffu;
        return 0x7fffffffu;
    case KT_F16:
        if (st == KT_F64)
            return (sign ? 0x8000u : 0) | 0x7e00u | (frac >> 42);
        return 0x7fffu;
    case KT_BF16:
        if (st == KT_F64)
            return (sign ? 0x8000u : 0) | 0x7fc0u | (frac >> 45);
        return 0x7fffu;
    default:
        return 0x7fffffffu;
    }
}

static inline uint64_t ff_one(ktype dt, ktype st, uint64_t a, uint32_t mods)
{
    bool nan, ftz = mods & CM_FTZ;
    double x = f_in(st, a, ftz && st == KT_F32, &nan);
    if (nan) {
        if (mods & CM_SAT)
            return 0;
        if (mods & (CM_RELU | CM_SATFINITE))
            return dt == KT_F32 ? 0x7fffffffu : 0x7fffu;
        return nan_of(dt, st, a, (mods & (CM_HAS_ROUNDING | CM_FTZ)) != 0);
    }
    if (mods & CM_IRND)
        x = round_integral(x, CM_MODE(mods));
    if (mods & CM_SAT)
        x = !(x > 0) ? 0.0 : x > 1 ? 1.0 : x;
    if ((mods & CM_RELU) && (x < 0 || (x == 0 && signbit(x))))
        x = 0.0;
    if (ftz && dt == KT_F32 && x != 0 && fabs(x) < 0x1p-126)
        return signbit(x) ? 0x80000000u : 0;
    if (dt == KT_F64)
        return kbits64(x); /* exact: from a narrower type, or integral */
    const struct ksf_fmt *f = fmt_of(dt);
    enum ksf_mode mode = (mods & CM_IRND) ? KSF_RN : (enum ksf_mode)CM_MODE(mods);
    uint64_t r = ksf_from_double(f, x, mode);
    if ((mods & CM_SATFINITE) && ((r & (ksf_sign_bit(f) - 1)) == ((uint64_t)((1 << f->exp) - 1) << f->mant)))
        r -= 1; /* infinity becomes the largest finite value of its sign */
    return r;
}

static void cvt_ff(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d_ = KDST(w, in, 0);
    const uint64_t *a_ = KSRC(w, in, 0);
    ktype dt = (ktype)in->type, st = (ktype)in->type2;
    uint32_t mods = in->mods;
    KFOR_LANES(mask, l) d_[l] = ff_one(dt, st, a_[l], mods);
}

/* cvt.f32.f32 without modifiers: a move. */
KOP1(cvt_move32, (uint32_t)a)

/* speed (issue 27): the integer conversions of address arithmetic, without .sat, as cvt_ii
 * computes them (the native tier writes them as C): 32 to 64 bits, zero- or sign-extended by
 * the source's type, and 64 to 32 bits into an unsigned or 32-bit destination. */
KOP1(cvt_zext32, (uint64_t)(uint32_t)a)
KOP1(cvt_sext32, (uint64_t)(int64_t)(int32_t)(uint32_t)a)

/* cvt.rn/rz.{f16x2,bf16x2}.f32 d, a, b: a in the upper half. */
static void cvt_pack(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d_ = KDST(w, in, 0);
    const uint64_t *a_ = KSRC(w, in, 0), *b_ = KSRC(w, in, 1);
    ktype et = in->type == KT_F16X2 ? KT_F16 : KT_BF16;
    uint32_t mods = in->mods;
    KFOR_LANES(mask, l) d_[l] = (ff_one(et, KT_F32, a_[l], mods) << 16) | ff_one(et, KT_F32, b_[l], mods);
}

/* cvt.rna/rn/rz.tf32.f32: an f32 with the low 13 mantissa bits zero. An infinity or NaN
 * keeps its sign and top bits (the H100: 0x7f800001 gives 0x7f800000). */
static void cvt_tf32(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d_ = KDST(w, in, 0);
    const uint64_t *a_ = KSRC(w, in, 0);
    uint32_t mods = in->mods;
    KFOR_LANES(mask, l)
    {
        uint32_t x = (uint32_t)a_[l];
        if ((x & 0x7f800000u) == 0x7f800000u) {
            d_[l] = (mods & CM_SATFINITE) && (x & 0x7fffffu) == 0 ? (x & 0x80000000u) | 0x7f7fe000u : x & ~0x1fffu;
            continue;
        }
        uint64_t t = ksf_from_double(&ksf_tf32, kf32(x), (enum ksf_mode)CM_MODE(mods));
        if ((mods & CM_SATFINITE) && (t & 0x3ffffu) == 0x3fc00u)
            t -= 1;
        d_[l] = ((t >> 18) << 31) | ((t & 0x3ffffu) << 13);
    }
}

/* ---- lowering ---- */
static bool is_int_type(ktype t) { return (t >= KT_U8 && t <= KT_S64) || (t >= KT_B8 && t <= KT_B64); }

static bool lower_cvt(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (kp_has(p, KM_pack)) /* isa (issue 25): cvt.pack.sat, in ops_isa.c */
        return kisa_lower_cvt_pack(lw, p, in);
    /* isa (issue 25): the fp8 pairs (sm_89), in ops_isa.c */
    if (kp_has(p, KM_e4m3x2) || kp_has(p, KM_e5m2x2) || kp_has(p, KM_e2m1x2) || kp_has(p, KM_e2m3x2) ||
        kp_has(p, KM_e3m2x2) || kp_has(p, KM_ue8m0x2))
        return kisa_lower_cvt_f8(lw, p, in);
    if (p->ntypes != 2)
        return kl_refuse(lw, "'%s': cvt takes a destination and a source type", p->text);
    ktype dt = p->types[0], st = p->types[1];
    uint32_t mods = 0;
    int mode = -1;
    bool irnd = false;
    for (uint32_t i = 0; i < p->nmods; ++i) {
        int m = -1;
        bool ir = false;
        switch (p->mods[i]) {
        case KM_rn: m = KSF_RN; break;
        case KM_rz: m = KSF_RZ; break;
        case KM_rm: m = KSF_RM; break;
        case KM_rp: m = KSF_RP; break;
        case KM_rna: m = KSF_RNA; break;
        case KM_rni: m = KSF_RN; ir = true; break;
        case KM_rzi: m = KSF_RZ; ir = true; break;
        case KM_rmi: m = KSF_RM; ir = true; break;
        case KM_rpi: m = KSF_RP; ir = true; break;
        case KM_ftz: mods |= CM_FTZ; break;
        case KM_sat: mods |= CM_SAT; break;
        case KM_relu: mods |= CM_RELU; break;
        case KM_satfinite: mods |= CM_SATFINITE; break;
        default:
            return kl_refuse(lw, "'%s': modifier .%s is not supported by the software device", p->text,
                             kmod_name(p->mods[i]));
        }
        if (m >= 0) {
            if (mode >= 0)
                return kl_refuse(lw, "'%s': two rounding modifiers", p->text);
            mode = m;
            irnd = ir;
        }
    }
    bool dint = is_int_type(dt), sint = is_int_type(st), dfl = ktype_float(dt), sfl = ktype_float(st);
    bool pair = dt == KT_F16X2 || dt == KT_BF16X2;
    if (!(dint || dfl) || !(sint || sfl) || st == KT_F16X2 || st == KT_BF16X2 || st == KT_TF32)
        return kl_refuse(lw, "'%s': cvt from .%s to .%s is not implemented by the software device", p->text,
                         ktype_name(st), ktype_name(dt));
    kexec_fn f;
    unsigned nsrc = 1;
    if (pair || dt == KT_TF32) {
        if (st != KT_F32)
            return kl_refuse(lw, "'%s': .%s is converted from .f32", p->text, ktype_name(dt));
        if (mode < 0 || irnd || (mode == KSF_RNA) != (dt == KT_TF32) || mode == KSF_RM || mode == KSF_RP)
            return kl_refuse(lw, "'%s': this rounding is not implemented for .%s", p->text, ktype_name(dt));
        if (mods & (CM_FTZ | CM_SAT) || (dt == KT_TF32 && (mods & CM_RELU)))
            return kl_refuse(lw, "'%s': .ftz, .sat or .relu with .%s", p->text, ktype_name(dt));
        f = pair ? cvt_pack : cvt_tf32;
        nsrc = pair ? 2 : 1;
    } else if (dint && sint) {
        if (mode >= 0 || (mods & ~CM_SAT))
            return kl_refuse(lw, "'%s': an integer-to-integer cvt takes only .sat", p->text);
        f = cvt_ii;
        unsigned sbits = ktype_size(st) * 8, dbits = ktype_size(dt) * 8;
        if (!(mods & CM_SAT) && sbits == 32 && dbits == 64)
            f = ktype_signed(st) ? cvt_sext32 : cvt_zext32;
        else if (!(mods & CM_SAT) && sbits == 64 && dbits == 32 && !ktype_signed(dt))
            f = cvt_zext32; /* the low half (to_reg: an unsigned destination is its bits) */
    } else if (dint) { /* float to integer */
        if (mode >= 0 && !irnd)
            return kl_refuse(lw, "'%s': a float-to-integer cvt rounds with .rni .rzi .rmi or .rpi", p->text);
        if (mode < 0)
            return kl_refuse(lw, "'%s': a float-to-integer cvt needs a rounding modifier", p->text);
        if (mods & (CM_RELU | CM_SATFINITE) || ((mods & CM_FTZ) && st != KT_F32))
            return kl_refuse(lw, "'%s': these modifiers are not implemented for cvt.%s.%s", p->text,
                             ktype_name(dt), ktype_name(st));
        mods &= ~CM_SAT; /* saturation is what a float-to-integer cvt always does */
        f = cvt_if;
    } else if (sint) { /* integer to float */
        if (irnd || mode == KSF_RNA || (mods & ~CM_SAT))
            return kl_refuse(lw, "'%s': these modifiers are not implemented for cvt.%s.%s", p->text,
                             ktype_name(dt), ktype_name(st));
        if (mode < 0)
            mode = KSF_RN;
        f = cvt_fi;
    } else { /* float to float */
        if (mode == KSF_RNA)
            return kl_refuse(lw, "'%s': .rna is for .tf32", p->text);
        if ((mods & CM_FTZ) && dt != KT_F32 && st != KT_F32)
            return kl_refuse(lw, "'%s': .ftz needs an .f32 source or destination", p->text);
        bool narrows = ktype_size(dt) < ktype_size(st) || (dt == KT_F16 && st == KT_BF16) ||
                       (dt == KT_BF16 && st == KT_F16);
        if (narrows && mode < 0)
            mode = KSF_RN; /* the ISA requires the rounding; round to nearest if it is missing */
        if (mode >= 0)
            mods |= CM_HAS_ROUNDING;
        if (dt == KT_F32 && st == KT_F32 && mode < 0 && !mods) {
            f = cvt_move32;
        } else {
            f = cvt_ff;
        }
        if (mode < 0)
            mode = KSF_RN;
    }
    if (irnd)
        mods |= CM_IRND;
    if (mode >= 0)
        mods |= (uint32_t)mode;
    if (p->nops != nsrc + 1)
        return kl_refuse(lw, "'%s' takes %u operands", p->text, nsrc + 1);
    if (!kl_dst(lw, p, 0, &in->dst[0]))
        return false;
    for (unsigned i = 0; i < nsrc; ++i)
        if (!kl_src(lw, p, i + 1, st, &in->src[i]))
            return false;
    unsigned reg_bits = ktype_size(dt) * 8;
    if (p->ops[0].kind == KO_REG && ktype_size(p->ops[0].type) * 8 > reg_bits)
        reg_bits = ktype_size(p->ops[0].type) * 8;
    in->exec = f;
    in->kind = KK_OP;
    in->type = (uint8_t)dt;
    in->type2 = (uint8_t)st;
    in->ndst = 1;
    in->nsrc = (uint8_t)nsrc;
    in->mods = mods;
    in->target = reg_bits;
    return true;
}

const struct klower_entry kops_cvt[] = {{"cvt", lower_cvt}, {NULL, NULL}};

/* ---- What the native tier writes as C (native_emit.c) ---- */
const struct knat_desc knat_cvt[] = {
    {cvt_move32, KN_EXPR, 1, KSTR((uint32_t)a)},
    {cvt_zext32, KN_EXPR, 1, KSTR((uint64_t)(uint32_t)a)},
    {cvt_sext32, KN_EXPR, 1, KSTR((uint64_t)(int64_t)(int32_t)(uint32_t)a)},
    {NULL, 0, 0, NULL},
};
