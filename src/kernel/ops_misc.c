/*
 * Data movement and comparison: mov (registers, immediates, special registers, timers,
 * symbol addresses, vector packing), setp, set, selp, slct; and the instructions that order
 * memory or wait (membar, fence, nanosleep), which need nothing more on a device whose lanes
 * run in program order and whose blocks' memory is host memory: a CPU's loads and stores
 * from one thread are seen in order by that thread, and the atomics are sequentially
 * consistent host atomics (ops_atom.c).
 */
#include "kernel.h"

#include <math.h>

/* ---- mov ---- */
static uint64_t mask_bytes(unsigned n) { return n >= 8 ? ~0ull : (1ull << (8 * n)) - 1; }

static void mov_plain(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0);
    uint64_t m = (uint64_t)in->imm;
    KFOR_LANES(mask, l) d[l] = a[l] & m;
}

/* mov of a .local symbol: its offset in the frame's depot (the local window's address). */
static void mov_local(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0);
    uint64_t off = w->top->local_off;
    KFOR_LANES(mask, l) d[l] = a[l] + off;
}

static uint64_t now_ns(void) { return os_time_ns(); }

static void mov_timer(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    uint64_t t = now_ns();
    /* %clock and %clock64 count a nominal 1 GHz clock; %globaltimer counts nanoseconds. */
    uint64_t v = in->target == 0 ? (uint32_t)t : in->target == 3 ? (uint32_t)t : in->target == 4 ? (uint32_t)(t >> 32) : t;
    if (in->target == 5) /* isa: %clock_hi, the upper half of %clock64 */
        v = (uint32_t)(t >> 32);
    if (in->target >= 2 && in->target <= 4) { /* isa: %globaltimer moves in the GPU's 32 ns steps */
        uint64_t g = t / KSREG_GLOBALTIMER_STEP_NS * KSREG_GLOBALTIMER_STEP_NS;
        v = in->target == 2 ? g : in->target == 3 ? (uint32_t)g : (uint32_t)(g >> 32);
    }
    KFOR_LANES(mask, l) d[l] = v;
}

/* mov.b64 d, {a, b} (and b32 from two halves, b16 from two bytes): element 0 is the low part. */
static void mov_pack(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    unsigned n = in->nsrc, bits = (unsigned)in->imm;
    const uint64_t *s[4];
    for (unsigned i = 0; i < n; ++i)
        s[i] = KSRC(w, in, i);
    uint64_t m = mask_bytes(bits / 8);
    KFOR_LANES(mask, l)
    {
        uint64_t v = 0;
        for (unsigned i = 0; i < n; ++i)
            v |= (s[i][l] & m) << (bits * i);
        d[l] = v;
    }
}

static void mov_unpack(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const uint64_t *a = KSRC(w, in, 0);
    unsigned n = in->ndst, bits = (unsigned)in->imm;
    uint64_t m = mask_bytes(bits / 8);
    uint64_t v[KLANES];
    KFOR_LANES(mask, l) v[l] = a[l];
    for (unsigned i = 0; i < n; ++i) {
        if (in->dst[i] == KOPND_NONE)
            continue;
        uint64_t *d = KDST(w, in, i);
        KFOR_LANES(mask, l) d[l] = (v[l] >> (bits * i)) & m;
    }
}

static bool lower_mov(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    ktype t = kl_type(p, 0);
    if (p->ntypes != 1 || p->nops != 2)
        return kl_refuse(lw, "'%s' takes one type and two operands", p->text);
    if (t == KT_B128) /* isa (issue 25): no 128-bit registers */
        return kl_refuse(lw, "'%s': 128-bit registers (.b128) are not implemented by the software device", p->text);
    unsigned size = ktype_size(t);
    const struct kparsed_op *dst = &p->ops[0], *src = &p->ops[1];
    if (dst->kind == KO_VEC) {
        /* unpack */
        if (src->kind != KO_REG)
            return kl_refuse(lw, "'%s': unpacking needs a register source", p->text);
        in->exec = mov_unpack;
        in->ndst = (uint8_t)dst->nvec;
        for (uint32_t i = 0; i < dst->nvec; ++i)
            in->dst[i] = dst->vec[i];
        in->src[0] = src->slot;
        in->nsrc = 1;
        in->imm = (int64_t)(size * 8 / dst->nvec);
        return true;
    }
    if (!kl_dst(lw, p, 0, &in->dst[0]))
        return false;
    in->ndst = 1;
    if (src->kind == KO_VEC) {
        in->exec = mov_pack;
        in->nsrc = (uint8_t)src->nvec;
        for (uint32_t i = 0; i < src->nvec; ++i) {
            if (src->vec[i] == KOPND_NONE)
                return kl_refuse(lw, "'%s': '_' in a packed source", p->text);
            in->src[i] = src->vec[i];
        }
        in->imm = (int64_t)(size * 8 / src->nvec);
        return true;
    }
    if (src->kind == KO_SPECIAL && KOPND_INDEX(src->slot) >= KSP_COUNT) {
        in->exec = mov_timer;
        in->target = KOPND_INDEX(src->slot) - KSP_COUNT;
        return true;
    }
    if (src->kind == KO_SYM && src->base_is_local_sym) {
        in->exec = mov_local;
        in->src[0] = src->slot;
        return true;
    }
    if (!kl_src(lw, p, 1, t, &in->src[0]))
        return false;
    in->exec = mov_plain;
    in->imm = t == KT_PRED ? 1 : (int64_t)mask_bytes(size);
    return true;
}

/* ---- comparisons ---- */

/* in->mods: cmp | boolop << 4 | ftz << 6 (kernel.h); in->type the compared type. */
static double ftz_value(double v, bool is64, bool ftz)
{
    if (ftz && fpclassify(v) == FP_SUBNORMAL)
        return copysign(0.0, v);
    (void)is64;
    return v;
}

static bool compare_float(uint64_t a, uint64_t b, ktype t, int cmp, bool ftz)
{
    double x, y;
    if (t == KT_F64) {
        x = kf64(a);
        y = kf64(b);
    } else {
        float fx = kf32(a), fy = kf32(b);
        if (ftz && fpclassify(fx) == FP_SUBNORMAL)
            fx = copysignf(0.0f, fx);
        if (ftz && fpclassify(fy) == FP_SUBNORMAL)
            fy = copysignf(0.0f, fy);
        x = fx;
        y = fy;
    }
    if (t == KT_F64) {
        x = ftz_value(x, true, ftz);
        y = ftz_value(y, true, ftz);
    }
    bool unordered = isnan(x) || isnan(y);
    switch (cmp) {
    case KC_EQ: return !unordered && x == y;
    case KC_NE: return !unordered && x != y;
    case KC_LT: return !unordered && x < y;
    case KC_LE: return !unordered && x <= y;
    case KC_GT: return !unordered && x > y;
    case KC_GE: return !unordered && x >= y;
    case KC_EQU: return unordered || x == y;
    case KC_NEU: return unordered || x != y;
    case KC_LTU: return unordered || x < y;
    case KC_LEU: return unordered || x <= y;
    case KC_GTU: return unordered || x > y;
    case KC_GEU: return unordered || x >= y;
    case KC_NUM: return !unordered;
    default: return unordered;
    }
}

static bool combine(bool r, int op, bool c)
{
    switch (op) {
    case KBOP_AND: return r && c;
    case KBOP_OR: return r || c;
    case KBOP_XOR: return r != c;
    default: return r;
    }
}

/* src: a, b, c (the combined predicate, KOPND_NONE without one); in->imm bit 0: c negated.
 * dst: p, q (q = !cmp combined, KOPND_NONE without it). For set: in->type2 is the
 * destination type. */
static void do_compare(struct kwarp *w, const struct kinsn *in, uint32_t mask, bool is_set)
{
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1);
    const uint64_t *c = in->src[2] != KOPND_NONE ? KSRC(w, in, 2) : NULL;
    int cmp = (int)(in->mods & 15), bop = (int)(in->mods >> 4 & 3);
    bool ftz = (in->mods >> 6) & 1, cneg = in->imm & 1;
    ktype t = (ktype)in->type;
    bool fl = t == KT_F32 || t == KT_F64;
    bool r[KLANES];
    if (fl) {
        KFOR_LANES(mask, l) r[l] = compare_float(a[l], b[l], t, cmp, ftz);
    } else {
        /* Integers: each lane's operands widened once to 64 bits by the type's signedness,
         * then one loop per comparison (the hot path of every loop and bounds check). */
        unsigned bits = ktype_size(t) * 8;
        uint64_t x[KLANES], y[KLANES];
        bool sgn = ktype_signed(t);
        uint64_t m = mask_bytes(bits / 8), flip = sgn ? 1ull << 63 : 0;
        KFOR_LANES(mask, l)
        {
            /* Signed values are compared as unsigned after flipping the sign bit. */
            x[l] = (sgn && bits < 64 ? (uint64_t)((int64_t)(a[l] << (64 - bits)) >> (64 - bits)) : a[l] & m) ^ flip;
            y[l] = (sgn && bits < 64 ? (uint64_t)((int64_t)(b[l] << (64 - bits)) >> (64 - bits)) : b[l] & m) ^ flip;
        }
        switch (cmp) {
        case KC_EQ: KFOR_LANES(mask, l) r[l] = x[l] == y[l]; break;
        case KC_NE: KFOR_LANES(mask, l) r[l] = x[l] != y[l]; break;
        case KC_LT: KFOR_LANES(mask, l) r[l] = x[l] < y[l]; break;
        case KC_LE: KFOR_LANES(mask, l) r[l] = x[l] <= y[l]; break;
        case KC_GT: KFOR_LANES(mask, l) r[l] = x[l] > y[l]; break;
        default: KFOR_LANES(mask, l) r[l] = x[l] >= y[l]; break;
        }
    }
    uint64_t *p = KDST(w, in, 0);
    uint64_t *q = in->dst[1] != KOPND_NONE ? KDST(w, in, 1) : NULL;
    uint64_t one = 1;
    if (is_set)
        one = in->type2 == KT_F32 ? 0x3f800000u : in->type2 == KT_U32 || in->type2 == KT_S32 || in->type2 == KT_B32 ? 0xffffffffu : 1;
    KFOR_LANES(mask, l)
    {
        bool cv = c ? ((c[l] != 0) != cneg) : false;
        bool pv = combine(r[l], bop, cv);
        p[l] = pv ? one : 0;
        if (q)
            q[l] = combine(!r[l], bop, cv) ? one : 0;
    }
}

static void setp_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask) { do_compare(w, in, mask, false); }
static void set_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask) { do_compare(w, in, mask, true); }

static bool compare_modifiers(struct klower *lw, const struct kparsed *p, struct kinsn *in, ktype t)
{
    static const kmod cmps[] = {KM_eq, KM_ne, KM_lt, KM_le, KM_gt, KM_ge, KM_equ, KM_neu, KM_ltu, KM_leu, KM_gtu, KM_geu,
                                KM_num, KM_nan};
    static const kmod ucmps[] = {KM_lo, KM_ls, KM_hi, KM_hs};
    int cmp = -1, bop = KBOP_NONE;
    bool ftz = false;
    bool fl = t == KT_F32 || t == KT_F64;
    for (uint32_t i = 0; i < p->nmods; ++i) {
        kmod m = p->mods[i];
        int found = -1;
        for (int j = 0; j < 14; ++j)
            if (cmps[j] == m)
                found = j;
        if (found >= 0) {
            if (!fl && found >= KC_EQU)
                return kl_refuse(lw, "'%s': .%s compares floating-point values", p->text, kmod_name(m));
            cmp = found;
            continue;
        }
        for (int j = 0; j < 4; ++j)
            if (ucmps[j] == m)
                found = j;
        if (found >= 0) {
            if (fl)
                return kl_refuse(lw, "'%s': .%s compares unsigned integers", p->text, kmod_name(m));
            cmp = (int[]){KC_LT, KC_LE, KC_GT, KC_GE}[found];
            if (ktype_signed(t))
                return kl_refuse(lw, "'%s': .%s on a signed type", p->text, kmod_name(m));
            continue;
        }
        if (m == KM_and)
            bop = KBOP_AND;
        else if (m == KM_or)
            bop = KBOP_OR;
        else if (m == KM_xor)
            bop = KBOP_XOR;
        else if (m == KM_ftz && fl)
            ftz = true;
        else
            return kl_refuse(lw, "'%s': modifier .%s is not implemented", p->text, kmod_name(m));
    }
    if (cmp < 0)
        return kl_refuse(lw, "'%s' names no comparison", p->text);
    in->mods = (uint32_t)cmp | (uint32_t)bop << 4 | (uint32_t)ftz << 6;
    in->type = (uint8_t)t;
    return true;
}

/* The optional combined predicate operand at index i. */
static bool lower_c(struct klower *lw, const struct kparsed *p, uint32_t i, struct kinsn *in)
{
    if (i >= p->nops) {
        if (in->mods >> 4 & 3)
            return kl_refuse(lw, "'%s': a boolean operation needs a predicate operand", p->text);
        return true;
    }
    const struct kparsed_op *c = &p->ops[i];
    if (c->kind == KO_REG && c->type == KT_PRED) {
        in->src[2] = c->slot;
        in->imm = c->neg ? 1 : 0;
    } else if (c->kind == KO_IMM) {
        in->src[2] = kl_const(lw, c->imm != 0);
    } else {
        return kl_refuse(lw, "'%s': operand %u must be a predicate", p->text, i + 1);
    }
    if (!(in->mods >> 4 & 3))
        return kl_refuse(lw, "'%s': a predicate operand needs .and, .or or .xor", p->text);
    return true;
}

static bool lower_setp(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    ktype t = kl_type(p, 0);
    if (t == KT_F16 || t == KT_BF16 || t == KT_F16X2 || t == KT_BF16X2)
        return kisa_lower_half_compare(lw, p, in, false); /* isa (issue 25): ops_isa.c */
    if (p->ntypes != 1 || t == KT_PRED || ktype_size(t) < 2 || t == KT_F16 || t == KT_BF16 || t == KT_F16X2 ||
        t == KT_BF16X2)
        return kl_refuse(lw, "'%s': comparing .%s is not implemented", p->text, ktype_name(t));
    if (!compare_modifiers(lw, p, in, t))
        return false;
    /* setp p[|q], a, b[, c] : the parser gives p and q as two operands */
    uint32_t i = 0;
    if (!kl_dst(lw, p, i++, &in->dst[0]))
        return false;
    if (p->nops == 5 || (p->nops == 4 && !(in->mods >> 4 & 3))) {
        if (!kl_dst(lw, p, i++, &in->dst[1]))
            return false;
    }
    if (!kl_src(lw, p, i, t, &in->src[0]) || !kl_src(lw, p, i + 1, t, &in->src[1]))
        return false;
    in->exec = setp_exec;
    return lower_c(lw, p, i + 2, in);
}

static bool lower_set(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (p->ntypes != 2)
        return kl_refuse(lw, "'%s' takes a destination and a source type", p->text);
    ktype dt = kl_type(p, 0), t = kl_type(p, 1);
    if (t == KT_F16 || t == KT_BF16 || t == KT_F16X2 || t == KT_BF16X2)
        return kisa_lower_half_compare(lw, p, in, true); /* isa (issue 25): ops_isa.c */
    if (dt != KT_U32 && dt != KT_S32 && dt != KT_F32 && dt != KT_B32)
        return kl_refuse(lw, "'%s': the destination type .%s is not implemented", p->text, ktype_name(dt));
    if (ktype_size(t) < 2 || t == KT_F16 || t == KT_BF16 || t == KT_F16X2 || t == KT_BF16X2)
        return kl_refuse(lw, "'%s': comparing .%s is not implemented", p->text, ktype_name(t));
    if (!compare_modifiers(lw, p, in, t))
        return false;
    in->type2 = (uint8_t)dt;
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, t, &in->src[0]) || !kl_src(lw, p, 2, t, &in->src[1]))
        return false;
    in->exec = set_exec;
    return lower_c(lw, p, 3, in);
}

static void selp_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1), *c = KSRC(w, in, 2);
    bool neg = in->imm & 1;
    KFOR_LANES(mask, l) d[l] = ((c[l] != 0) != neg) ? a[l] : b[l];
}

static bool lower_selp(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    ktype t = kl_type(p, 0);
    if (p->ntypes != 1 || p->nops != 4)
        return kl_refuse(lw, "'%s' takes a type and four operands", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, t, &in->src[0]) || !kl_src(lw, p, 2, t, &in->src[1]))
        return false;
    const struct kparsed_op *c = &p->ops[3];
    if (c->kind == KO_REG) {
        in->src[2] = c->slot;
        in->imm = c->neg;
    } else if (c->kind == KO_IMM) {
        in->src[2] = kl_const(lw, c->imm != 0);
    } else {
        return kl_refuse(lw, "'%s': the selector must be a predicate", p->text);
    }
    in->exec = selp_exec;
    return true;
}

static void slct_int(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1), *c = KSRC(w, in, 2);
    KFOR_LANES(mask, l) d[l] = (int32_t)(uint32_t)c[l] >= 0 ? a[l] : b[l];
}

static void slct_f32(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1), *c = KSRC(w, in, 2);
    /* c >= 0.0 selects a: -0 counts as 0; NaN selects b; .ftz flushes c first, which does not
     * change the outcome of the comparison with 0. */
    KFOR_LANES(mask, l) d[l] = kf32(c[l]) >= 0.0f ? a[l] : b[l];
}

static bool lower_slct(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (p->ntypes != 2)
        return kl_refuse(lw, "'%s' takes two types", p->text);
    ktype t = kl_type(p, 0), ct = kl_type(p, 1);
    if (ct != KT_S32 && ct != KT_F32)
        return kl_refuse(lw, "'%s': the selector type must be .s32 or .f32", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, t, &in->src[0]) || !kl_src(lw, p, 2, t, &in->src[1]) ||
        !kl_src(lw, p, 3, ct, &in->src[2]))
        return false;
    in->exec = ct == KT_S32 ? slct_int : slct_f32;
    return true;
}

/* membar, fence: each lane's accesses happen in program order on one CPU thread, and the
 * blocks on other threads only share memory through atomics (sequentially consistent) or
 * through global memory that the kernel's own synchronisation orders: the host atomics and
 * the pool's locks give the fences the meaning PTX's memory model asks for. A full fence
 * still orders this thread's plain stores against other threads' atomics. */
static void fence_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    (void)w;
    (void)in;
    (void)mask;
    atomic_thread_fence(memory_order_seq_cst);
}

static bool lower_fence(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (kp_has(p, KM_proxy) || kp_has(p, KM_async) || kp_has(p, KM_mbarrier_init)) {
        lw->why[0] = 0;
        return false; /* the proxy fences and fence.mbarrier_init are ops_async.c's */
    }
    in->exec = fence_exec;
    return true;
}

static void nanosleep_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    /* A hint to the scheduler on a GPU: here the other warps of the block run when this one
     * reaches a barrier, so sleeping would only slow the block down. */
    (void)w;
    (void)in;
    (void)mask;
}

static bool lower_nanosleep(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    kopnd t;
    if (!kl_src(lw, p, 0, KT_U32, &t))
        return false;
    in->src[0] = t;
    in->exec = nanosleep_exec;
    return true;
}

static bool lower_nop(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    (void)lw;
    (void)p;
    in->kind = KK_NOP;
    return true;
}

const struct klower_entry kops_misc[] = {
    {"mov", lower_mov},     {"setp", lower_setp},   {"set", lower_set},           {"selp", lower_selp},
    {"slct", lower_slct},   {"membar", lower_fence}, {"fence", lower_fence},      {"nanosleep", lower_nanosleep},
    {"pmevent", lower_nop}, {NULL, NULL},
};

/* ---- What the native tier writes as C (native_emit.c, which reads the encodings in kernel.h) ---- */
const struct knat_desc knat_misc[] = {
    {mov_plain, KN_MOV, 1, NULL},
    {setp_exec, KN_SETP, 2, NULL},
    {selp_exec, KN_SELP, 3, NULL},
    {NULL, 0, 0, NULL},
};
