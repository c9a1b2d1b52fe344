/*
 * The atom and red family: atomic read-modify-write on global and shared memory (PTX ISA,
 * "Parallel Synchronization and Communication Instructions: atom / red", Table 41 and 42).
 *
 * Blocks of one launch run at the same time on several CPU threads, and other launches on other
 * streams too, so a global or generic atomic is a real host atomic: C11 <stdatomic.h> through
 * casts to _Atomic pointer types (GCC and clang accept them for the plain integer types), with
 * float additions as compare-exchange loops on the bits. A block's shared window is only ever
 * touched by the one CPU thread that runs the block, so a .shared atomic is a plain
 * read-modify-write.
 *
 * Every host atomic is sequentially consistent, whatever .sem and .scope say: a stronger order
 * than the program asked for is always allowed, it costs nothing more on x86 (a locked
 * instruction is a full barrier), and it keeps the classic "atomic, then membar" patterns correct
 * on hosts with a weaker memory model while membar and fence are no-ops of the scheduler.
 *
 * Within a warp, the lanes of one instruction are applied in lane order.
 *
 * Float rules, as the H100 shows them (tools/probes/warp_atom_probe.cu, its output beside it):
 * - atom.add.f32 rounds to nearest even; on global memory it flushes subnormal inputs and
 *   results to sign-preserving zero, on shared memory (through a generic address too) it keeps
 *   them (the ISA says so); .noftz keeps them everywhere. A NaN result is the canonical
 *   0x7fffffff.
 * - atom.add.f64 keeps subnormals; a NaN operand comes back unchanged (a signalling NaN not even
 *   quieted; the added value's when both are NaN), an invalid operation (inf - inf) gives
 *   0xfff8000000000000 (warp_atom_probe2.cu).
 * - atom.add.noftz.f16/f16x2/bf16/bf16x2 keep subnormals; a NaN result is the canonical 0x7fff
 *   of both formats.
 */
#include "kernel.h"

#include <math.h>

/* in->mods bits of this family */
#define KA_HAS_DST 0x1u /* atom: d is written (red has none) */

/* ---- Half-precision helpers ---- */

/* Decodes a binary16 (mant 10, exp 5) or bfloat16 (mant 7, exp 8) value, exactly. */
static double half_to_double(uint32_t h, int mant, int expb)
{
    uint32_t emask = (1u << expb) - 1, bias = emask >> 1;
    uint32_t e = (h >> mant) & emask, m = h & ((1u << mant) - 1);
    double v;
    if (e == emask)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, 1 - (int)bias - mant);
    else
        v = ldexp((double)(m | (1u << mant)), (int)e - (int)bias - mant);
    return (h >> (mant + expb)) & 1 ? -v : v;
}

/* Rounds a double to binary16 / bfloat16 bits, to nearest even; a NaN becomes the canonical
 * 0x7fff of both formats. */
static uint32_t half_from_double(double v, int mant, int expb)
{
    uint32_t emask = (1u << expb) - 1, bias = emask >> 1;
    if (isnan(v))
        return 0x7fffu;
    uint32_t sign = signbit(v) ? 1u << (mant + expb) : 0;
    double a = fabs(v);
    if (a == 0)
        return sign;
    if (isinf(a))
        return sign | (emask << mant);
    int e2;
    (void)frexp(a, &e2);
    int e = e2 - 1; /* a = 1.f * 2^e */
    int emin = 1 - (int)bias;
    bool sub = e < emin;
    double q = ldexp(a, (sub ? -emin : -e) + mant); /* exact: a power-of-two scaling */
    double r = floor(q), frac = q - r;
    if (frac > 0.5 || (frac == 0.5 && fmod(r, 2.0) != 0))
        r += 1;
    uint32_t n = (uint32_t)r;
    if (sub) /* n == 1 << mant is the smallest normal, which this encoding gives by itself */
        return sign | n;
    if (n == 2u << mant) {
        n >>= 1;
        e++;
    }
    if (e + (int)bias >= (int)emask)
        return sign | (emask << mant);
    return sign | ((uint32_t)(e + (int)bias) << mant) | (n & ((1u << mant) - 1));
}

/* The sum of two halves is exact in a double for binary16 (it spans at most 40 bits), so one
 * rounding gives the correctly rounded result; for bfloat16 a double has more than 2p+2 bits,
 * which makes the second rounding harmless. */
static inline uint32_t f16_add(uint32_t a, uint32_t b)
{
    return half_from_double(half_to_double(a, 10, 5) + half_to_double(b, 10, 5), 10, 5);
}
static inline uint32_t bf16_add(uint32_t a, uint32_t b)
{
    return half_from_double(half_to_double(a, 7, 8) + half_to_double(b, 7, 8), 7, 8);
}
static inline uint32_t f16x2_add(uint32_t a, uint32_t b)
{
    return f16_add(a & 0xffffu, b & 0xffffu) | f16_add(a >> 16, b >> 16) << 16;
}
static inline uint32_t bf16x2_add(uint32_t a, uint32_t b)
{
    return bf16_add(a & 0xffffu, b & 0xffffu) | bf16_add(a >> 16, b >> 16) << 16;
}

static inline uint32_t f32_flush(uint32_t x) { return (x & 0x7f800000u) ? x : x & 0x80000000u; }
static inline uint32_t f32_add(uint32_t a, uint32_t b)
{
    float r = kf32(a) + kf32(b);
    return isnan(r) ? 0x7fffffffu : (uint32_t)kbits32(r);
}
static inline uint32_t f32_add_ftz(uint32_t a, uint32_t b) { return f32_flush(f32_add(f32_flush(a), f32_flush(b))); }
static inline uint64_t f64_add(uint64_t a, uint64_t b)
{
    /* The H100 returns a NaN operand unchanged, the added value's when both are NaN. */
    if (isnan(kf64(b)))
        return b;
    if (isnan(kf64(a)))
        return a;
    double r = kf64(a) + kf64(b);
    return isnan(r) ? 0xfff8000000000000ull : kbits64(r);
}

/* ---- Integer operations on unsigned storage (results stay zero-extended) ---- */
static inline uint32_t min_s32(uint32_t a, uint32_t b) { return (int32_t)a < (int32_t)b ? a : b; }
static inline uint32_t max_s32(uint32_t a, uint32_t b) { return (int32_t)a > (int32_t)b ? a : b; }
static inline uint64_t min_s64(uint64_t a, uint64_t b) { return (int64_t)a < (int64_t)b ? a : b; }
static inline uint64_t max_s64(uint64_t a, uint64_t b) { return (int64_t)a > (int64_t)b ? a : b; }
#define KMIN(a, b) ((a) < (b) ? (a) : (b))
#define KMAX(a, b) ((a) > (b) ? (a) : (b))

/* ---- Handlers ----
 * Each (operation, type) has a handler for the shared window (plain) and one for global and
 * generic addresses (a host atomic). `NEW` computes the stored value from old, b and c. */
#define KATOM_BEGIN(T)                                                                                                 \
    const uint64_t *a_ = KSRC(w, in, 0), *b_ = KSRC(w, in, 1), *c_ = KSRC(w, in, 2);                                   \
    uint64_t *d_ = (in->mods & KA_HAS_DST) ? KDST(w, in, 0) : NULL;                                                    \
    (void)c_;                                                                                                          \
    KFOR_LANES(mask, l)                                                                                                \
    {                                                                                                                  \
        T *p_ = kmem(w, in, l, (kspace)in->space, a_[l] + (uint64_t)in->imm, sizeof(T), true);                         \
        if (!p_)                                                                                                       \
            return;                                                                                                    \
        T b = (T)b_[l], c = (T)c_[l], old;                                                                             \
        (void)c;

#define KATOM_END                                                                                                      \
    if (d_)                                                                                                            \
        d_[l] = (uint64_t)old;                                                                                         \
    }

/* A plain handler, and one with a compare-exchange loop. */
#define KATOM_CAS_SH(name, T, NEW)                                                                                     \
    static void name##_sh(struct kwarp *w, const struct kinsn *in, uint32_t mask)                                      \
    {                                                                                                                  \
        KATOM_BEGIN(T)                                                                                                 \
        old = *p_;                                                                                                     \
        *p_ = (T)(NEW);                                                                                                \
        KATOM_END                                                                                                      \
    }
#define KATOM_CAS_AT(name, T, NEW)                                                                                     \
    static void name##_at(struct kwarp *w, const struct kinsn *in, uint32_t mask)                                      \
    {                                                                                                                  \
        KATOM_BEGIN(T)                                                                                                 \
        _Atomic T *ap_ = (_Atomic T *)p_;                                                                              \
        old = atomic_load_explicit(ap_, memory_order_relaxed);                                                         \
        while (!atomic_compare_exchange_weak_explicit(ap_, &old, (T)(NEW), memory_order_seq_cst,                      \
                                                      memory_order_relaxed))                                           \
            ;                                                                                                          \
        KATOM_END                                                                                                      \
    }
#define KATOM_CAS(name, T, NEW) KATOM_CAS_SH(name, T, NEW) KATOM_CAS_AT(name, T, NEW)

/* A plain handler and one through a C11 fetch operation. */
#define KATOM_FETCH(name, T, NEW, FETCH)                                                                               \
    static void name##_sh(struct kwarp *w, const struct kinsn *in, uint32_t mask)                                      \
    {                                                                                                                  \
        KATOM_BEGIN(T)                                                                                                 \
        old = *p_;                                                                                                     \
        *p_ = (T)(NEW);                                                                                                \
        KATOM_END                                                                                                      \
    }                                                                                                                  \
    static void name##_at(struct kwarp *w, const struct kinsn *in, uint32_t mask)                                      \
    {                                                                                                                  \
        KATOM_BEGIN(T)                                                                                                 \
        old = FETCH((_Atomic T *)p_, b, memory_order_seq_cst);                                                         \
        KATOM_END                                                                                                      \
    }

KATOM_FETCH(add_u32, uint32_t, old + b, atomic_fetch_add_explicit)
KATOM_FETCH(add_u64, uint64_t, old + b, atomic_fetch_add_explicit)
KATOM_FETCH(and_b32, uint32_t, old & b, atomic_fetch_and_explicit)
KATOM_FETCH(and_b64, uint64_t, old & b, atomic_fetch_and_explicit)
KATOM_FETCH(or_b32, uint32_t, old | b, atomic_fetch_or_explicit)
KATOM_FETCH(or_b64, uint64_t, old | b, atomic_fetch_or_explicit)
KATOM_FETCH(xor_b32, uint32_t, old ^ b, atomic_fetch_xor_explicit)
KATOM_FETCH(xor_b64, uint64_t, old ^ b, atomic_fetch_xor_explicit)
KATOM_FETCH(exch_b32, uint32_t, b, atomic_exchange_explicit)
KATOM_FETCH(exch_b64, uint64_t, b, atomic_exchange_explicit)
KATOM_CAS(min_u32, uint32_t, KMIN(old, b))
KATOM_CAS(max_u32, uint32_t, KMAX(old, b))
KATOM_CAS(min_s32, uint32_t, min_s32(old, b))
KATOM_CAS(max_s32, uint32_t, max_s32(old, b))
KATOM_CAS(min_u64, uint64_t, KMIN(old, b))
KATOM_CAS(max_u64, uint64_t, KMAX(old, b))
KATOM_CAS(min_s64, uint64_t, min_s64(old, b))
KATOM_CAS(max_s64, uint64_t, max_s64(old, b))
KATOM_CAS(inc_u32, uint32_t, katom_inc_u32(old, b))
KATOM_CAS(dec_u32, uint32_t, katom_dec_u32(old, b))
KATOM_CAS(add_f32, uint32_t, f32_add(old, b))
KATOM_CAS_AT(add_f32_ftz, uint32_t, f32_add_ftz(old, b)) /* shared memory never flushes */
KATOM_CAS(add_f64, uint64_t, f64_add(old, b))
KATOM_CAS(add_f16, uint16_t, f16_add(old, b))
KATOM_CAS(add_bf16, uint16_t, bf16_add(old, b))
KATOM_CAS(add_f16x2, uint32_t, f16x2_add(old, b))
KATOM_CAS(add_bf16x2, uint32_t, bf16x2_add(old, b))

/* cas: stores c where the memory holds b. */
#define KATOM_CMPXCHG(name, T)                                                                                         \
    static void name##_sh(struct kwarp *w, const struct kinsn *in, uint32_t mask)                                      \
    {                                                                                                                  \
        KATOM_BEGIN(T)                                                                                                 \
        old = *p_;                                                                                                     \
        if (old == b)                                                                                                  \
            *p_ = c;                                                                                                   \
        KATOM_END                                                                                                      \
    }                                                                                                                  \
    static void name##_at(struct kwarp *w, const struct kinsn *in, uint32_t mask)                                      \
    {                                                                                                                  \
        KATOM_BEGIN(T)                                                                                                 \
        old = b;                                                                                                       \
        atomic_compare_exchange_strong_explicit((_Atomic T *)p_, &old, c, memory_order_seq_cst, memory_order_seq_cst); \
        KATOM_END                                                                                                      \
    }
KATOM_CMPXCHG(cas_b16, uint16_t)
KATOM_CMPXCHG(cas_b32, uint32_t)
KATOM_CMPXCHG(cas_b64, uint64_t)

/* atom.add.f32 through a generic address: the flush depends on where the address points
 * (global memory flushes, the shared window does not), so it is decided per lane. */
static void add_f32_gen(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uintptr_t sh = (uintptr_t)w->b->shared, shn = w->b->shared_size;
    KATOM_BEGIN(uint32_t)
    _Atomic uint32_t *ap_ = (_Atomic uint32_t *)p_;
    uint64_t off_;
    bool ftz = !((uintptr_t)p_ >= sh && (uintptr_t)p_ - sh < shn) && !kcluster_window(w->b, (uintptr_t)p_, &off_);
    old = atomic_load_explicit(ap_, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(ap_, &old, ftz ? f32_add_ftz(old, b) : f32_add(old, b),
                                                  memory_order_seq_cst, memory_order_relaxed))
        ;
    KATOM_END
}

/* ---- Lowering ---- */
enum aop { AOP_ADD, AOP_MIN, AOP_MAX, AOP_INC, AOP_DEC, AOP_AND, AOP_OR, AOP_XOR, AOP_EXCH, AOP_CAS, AOP_COUNT };
static const char *const aop_names[AOP_COUNT] = {"add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas"};

struct apair {
    uint8_t op, type;
    kexec_fn sh, at;
};
#define P(op, t, name) {AOP_##op, KT_##t, name##_sh, name##_at}
/* Table 41 of the ISA, for sm_80 and below (f32 add is chosen apart: its flush depends on
 * the space). */
static const struct apair pairs[] = {
    P(ADD, U32, add_u32),     P(ADD, S32, add_u32),       P(ADD, U64, add_u64),     P(ADD, F64, add_f64),
    P(ADD, F16, add_f16),     P(ADD, F16X2, add_f16x2),   P(ADD, BF16, add_bf16),   P(ADD, BF16X2, add_bf16x2),
    P(INC, U32, inc_u32),     P(DEC, U32, dec_u32),       P(MIN, U32, min_u32),     P(MAX, U32, max_u32),
    P(MIN, S32, min_s32),     P(MAX, S32, max_s32),       P(MIN, U64, min_u64),     P(MAX, U64, max_u64),
    P(MIN, S64, min_s64),     P(MAX, S64, max_s64),       P(AND, B32, and_b32),     P(AND, B64, and_b64),
    P(OR, B32, or_b32),       P(OR, B64, or_b64),         P(XOR, B32, xor_b32),     P(XOR, B64, xor_b64),
    P(EXCH, B32, exch_b32),   P(EXCH, B64, exch_b64),     P(CAS, B16, cas_b16),     P(CAS, B32, cas_b32),
    P(CAS, B64, cas_b64),
};
#undef P

/* The address operand [base+imm] into src[0] and in->imm (atomics name .global and .shared
 * variables, or addresses in registers). */
static bool lower_address(struct klower *lw, const struct kparsed *p, uint32_t i, struct kinsn *in)
{
    if (i >= p->nops || p->ops[i].kind != KO_ADDR)
        return kl_refuse(lw, "'%s': operand %u must be an address [a]", p->text, i + 1);
    const struct kparsed_op *op = &p->ops[i];
    if (op->has_base && op->symbol && op->symbol->kind != KSYM_REG) {
        kspace vs = op->symbol->kind == KSYM_VAR ? op->symbol->space : KS_PARAM_KERNEL;
        if (vs != KS_GLOBAL && vs != KS_SHARED)
            return kl_refuse(lw, "'%s': atomics on '%s' are not defined: only .global and .shared memory have them",
                             p->text, op->sym);
        if (in->space == KS_GENERIC && vs == KS_SHARED)
            return kl_refuse(lw, "'%s': a generic access through the name of .shared variable '%s' is not implemented",
                             p->text, op->sym);
        if (in->space != KS_GENERIC && vs != in->space)
            return kl_refuse(lw, "'%s': variable '%s' is not in this instruction's state space", p->text, op->sym);
    }
    in->src[0] = op->has_base ? op->slot : kl_const(lw, 0);
    in->imm = op->imm;
    return !lw->ps->err;
}

static bool lower_atom_red(struct klower *lw, const struct kparsed *p, struct kinsn *in, bool is_red)
{
    int op = -1;
    bool noftz = false, hint = false;
    in->space = KS_GENERIC;
    for (uint32_t i = 0; i < p->nmods; ++i) {
        kmod m = p->mods[i];
        int o = -1;
        switch (m) {
        case KM_add: o = AOP_ADD; break;
        case KM_min: o = AOP_MIN; break;
        case KM_max: o = AOP_MAX; break;
        case KM_inc: o = AOP_INC; break;
        case KM_dec: o = AOP_DEC; break;
        case KM_and: o = AOP_AND; break;
        case KM_or: o = AOP_OR; break;
        case KM_xor: o = AOP_XOR; break;
        case KM_exch: o = AOP_EXCH; break;
        case KM_cas: o = AOP_CAS; break;
        case KM_global: in->space = KS_GLOBAL; break;
        case KM_shared:
        case KM_shared__cta:
        case KM_shared__cluster: in->space = KS_SHARED; break; /* clusters: kmem finds the block */
        case KM_noftz: noftz = true; break;
        case KM_L2__cache_hint: hint = true; break;
        /* Memory orders and scopes: every host atomic here is sequentially consistent and
         * system-wide, which satisfies each of them. */
        case KM_relaxed: case KM_acquire: case KM_release: case KM_acq_rel:
        case KM_cta: case KM_gpu: case KM_sys: case KM_cluster:
            break;
        case KM_v2: case KM_v4: case KM_v8:
            kinsn_reset(in);
            return kisa_lower_atom_vec(lw, p, in, is_red); /* isa (issue 25): ops_isa.c */
        default:
            return kl_refuse(lw, "'%s': modifier .%s is not supported on %s", p->text, kmod_name(m), p->opcode);
        }
        if (o >= 0) {
            if (op >= 0)
                return kl_refuse(lw, "'%s': more than one operation", p->text);
            op = o;
        }
    }
    if (op < 0)
        return kl_refuse(lw, "'%s': no operation (.add, .min, .max, .inc, .dec, .and, .or, .xor, .exch, .cas)",
                         p->text);
    if (p->ntypes != 1)
        return kl_refuse(lw, "'%s': exactly one type is expected", p->text);
    ktype t = p->types[0];
    if (t == KT_B128)
        return kl_refuse(lw, "'%s': 128-bit atomics (sm_90) are not implemented by the software device", p->text);
    if (is_red && op == AOP_CAS)
        return kl_refuse(lw, "'%s': red has no .cas", p->text);
    if (is_red && op == AOP_EXCH)
        return kl_refuse(lw, "'%s': red has no .exch", p->text);
    bool half = t == KT_F16 || t == KT_F16X2 || t == KT_BF16 || t == KT_BF16X2;
    if (half && !noftz)
        return kl_refuse(lw, "'%s': the PTX ISA requires .noftz on a .%s add", p->text, ktype_name(t));
    if (noftz && !(op == AOP_ADD && (half || t == KT_F32)))
        return kl_refuse(lw, "'%s': .noftz is only defined for .add of f32, f16, f16x2, bf16 and bf16x2", p->text);

    uint32_t first = is_red ? 0 : 1;
    if (!lower_address(lw, p, first, in))
        return false;
    kexec_fn fn = NULL;
    if (op == AOP_ADD && t == KT_F32) {
        /* On global memory the flush applies unless .noftz; shared memory never flushes. */
        if (noftz || in->space == KS_SHARED)
            fn = in->space == KS_SHARED ? add_f32_sh : add_f32_at;
        else
            fn = in->space == KS_GLOBAL ? add_f32_ftz_at : add_f32_gen;
    } else {
        for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); ++i)
            if (pairs[i].op == op && pairs[i].type == t)
                fn = in->space == KS_SHARED ? pairs[i].sh : pairs[i].at;
    }
    if (!fn)
        return kl_refuse(lw, "'%s': the PTX ISA defines no .%s on .%s for sm_80 and below", p->text, aop_names[op],
                         ktype_name(t));

    /* Operands: atom d, [a], b {, c} {, cache-policy}; red [a], b {, cache-policy}. */
    uint32_t want = first + 2 + (op == AOP_CAS) + hint;
    if (p->nops != want)
        return kl_refuse(lw, "'%s' takes %u operands, found %u", p->text, want, p->nops);
    if (!is_red) {
        if (!kl_dst(lw, p, 0, &in->dst[0]))
            return false;
        in->ndst = 1;
        in->mods |= KA_HAS_DST;
    }
    if (!kl_src(lw, p, first + 1, t, &in->src[1]))
        return false;
    in->src[2] = in->src[1];
    if (op == AOP_CAS && !kl_src(lw, p, first + 2, t, &in->src[2]))
        return false;
    /* The cache policy is a hint that changes no result: it is read by nothing. */
    in->nsrc = 3;
    in->type = (uint8_t)t;
    in->kind = KK_OP;
    in->exec = fn;
    return true;
}

static bool lower_atom(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    return lower_atom_red(lw, p, in, false);
}
static bool lower_red(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (kp_has(p, KM_async)) { /* red.async: ops_async.c's (clusters) */
        lw->why[0] = 0;
        return false;
    }
    return lower_atom_red(lw, p, in, true);
}

const struct klower_entry kops_atom[] = {{"atom", lower_atom}, {"red", lower_red}, {NULL, NULL}};
