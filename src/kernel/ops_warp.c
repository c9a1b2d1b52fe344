/*
 * The warp family: shfl, vote, match, redux, activemask, bar.warp.sync and elect (PTX ISA,
 * "Data Movement and Conversion Instructions: shfl.sync" and "Parallel Synchronization and
 * Communication Instructions: vote.sync, match.sync, activemask, redux.sync, bar.warp.sync").
 *
 * The executor runs a warp's convergent group through an instruction together: `mask` holds the
 * lanes that execute it (the group with the guard applied), so a warp function sees every
 * participant's operand at once and needs no waiting.
 *
 * membermask: the ISA leaves undefined what happens when an executing lane is not in membermask
 * or when a membermask lane does not execute the instruction. The software device's answer
 * (docs/kernels.md, "Warp functions") is the H100's where the probe in tools/probes could see
 * it: the instruction works over the lanes that execute it and membermask is not consulted
 * (the H100 gives a full-warp vote, match and redux the same results with membermask 0xffff as
 * with 0xffffffff); lanes of membermask that do not execute it (exited, or running another path
 * of divergent code) do not take part, as exited lanes do not on the GPU. A shfl whose source
 * lane does not execute it reads 0, as on the H100, whether that lane has exited (or never
 * existed in a partial warp) or runs another path of divergent code (warp_atom_probe2.cu).
 */
#include "kernel.h"

/* ---- shfl ---- */
enum { SH_UP, SH_DOWN, SH_BFLY, SH_IDX };
#define KW_PRED 0x10u /* the optional predicate destination is present (dst[1]) */

/* The ISA's pseudo-code, with b and c read per lane (they may be registers). */
static inline uint32_t shfl_source(int mode, uint32_t lane, uint32_t b, uint32_t c, bool *inrange)
{
    int32_t bval = (int32_t)(b & 31), cval = (int32_t)(c & 31), seg = (int32_t)((c >> 8) & 31);
    int32_t l = (int32_t)lane, maxl = (l & seg) | (cval & ~seg), minl = l & seg, j;
    bool pval;
    switch (mode) {
    case SH_UP:
        j = l - bval;
        pval = j >= maxl;
        break;
    case SH_DOWN:
        j = l + bval;
        pval = j <= maxl;
        break;
    case SH_BFLY:
        j = l ^ bval;
        pval = j <= maxl;
        break;
    default:
        j = minl | (bval & ~seg);
        pval = j <= maxl;
        break;
    }
    *inrange = pval;
    return pval ? (uint32_t)j : lane;
}

static inline void shfl_run(struct kwarp *w, const struct kinsn *in, uint32_t mask, int mode)
{
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1), *c = KSRC(w, in, 2);
    uint64_t v[KLANES];
    /* A snapshot first: d may be a itself. A source lane that does not execute the instruction
     * reads 0, as on the H100, whether it has exited or runs another path. */
    for (uint32_t l = 0; l < KLANES; ++l)
        v[l] = (mask >> l) & 1 ? a[l] & 0xffffffffu : 0;
    uint64_t *d = KDST(w, in, 0), *p = (in->mods & KW_PRED) ? KDST(w, in, 1) : NULL;
    KFOR_LANES(mask, l)
    {
        bool ok;
        uint32_t j = shfl_source(mode, l, (uint32_t)b[l], (uint32_t)c[l], &ok);
        d[l] = v[j];
        if (p)
            p[l] = ok;
    }
}
static void shfl_up(struct kwarp *w, const struct kinsn *in, uint32_t mask) { shfl_run(w, in, mask, SH_UP); }
static void shfl_down(struct kwarp *w, const struct kinsn *in, uint32_t mask) { shfl_run(w, in, mask, SH_DOWN); }
static void shfl_bfly(struct kwarp *w, const struct kinsn *in, uint32_t mask) { shfl_run(w, in, mask, SH_BFLY); }
static void shfl_idx(struct kwarp *w, const struct kinsn *in, uint32_t mask) { shfl_run(w, in, mask, SH_IDX); }

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask; and the old shfl.mode.b32 d[|p], a, b, c
 * (before PTX 6.0: the same exchange among the lanes that execute it, which is what .sync does
 * here too). */
static bool lower_shfl(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    kexec_fn fn = NULL;
    bool sync = false;
    for (uint32_t i = 0; i < p->nmods; ++i) {
        switch (p->mods[i]) {
        case KM_sync: sync = true; break;
        case KM_up: fn = shfl_up; break;
        case KM_down: fn = shfl_down; break;
        case KM_bfly: fn = shfl_bfly; break;
        case KM_idx: fn = shfl_idx; break;
        default:
            return kl_refuse(lw, "'%s': modifier .%s is not defined for shfl", p->text, kmod_name(p->mods[i]));
        }
    }
    if (!fn)
        return kl_refuse(lw, "'%s': a mode (.up, .down, .bfly, .idx) is required", p->text);
    if (p->ntypes != 1 || p->types[0] != KT_B32)
        return kl_refuse(lw, "'%s': shfl is defined for .b32 only", p->text);
    uint32_t base = sync ? 5 : 4;
    bool pred = p->nops == base + 1;
    if (p->nops != base && !pred)
        return kl_refuse(lw, "'%s' takes %u operands (or %u with a predicate destination), found %u", p->text, base,
                         base + 1, p->nops);
    if (!kl_dst(lw, p, 0, &in->dst[0]))
        return false;
    uint32_t i = 1;
    if (pred) {
        if (!kl_dst(lw, p, 1, &in->dst[1]))
            return false;
        in->mods |= KW_PRED;
        i = 2;
    }
    /* membermask is read by nothing: see the file's comment. */
    if (!kl_src(lw, p, i, KT_B32, &in->src[0]) || !kl_src(lw, p, i + 1, KT_B32, &in->src[1]) ||
        !kl_src(lw, p, i + 2, KT_B32, &in->src[2]))
        return false;
    if (sync && !kl_src(lw, p, i + 3, KT_B32, &in->src[3]))
        return false;
    in->ndst = pred ? 2 : 1;
    in->nsrc = sync ? 4 : 3;
    in->type = KT_B32;
    in->kind = KK_OP;
    in->exec = fn;
    return true;
}

/* ---- vote ---- */
#define KW_NEG 0x20u /* vote's source predicate is negated */

static inline uint32_t ballot_of(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const uint64_t *a = KSRC(w, in, 0);
    uint32_t neg = (in->mods & KW_NEG) ? 1u : 0u, r = 0;
    KFOR_LANES(mask, l)
    r |= (((uint32_t)a[l] & 1u) ^ neg) << l;
    return r;
}
static inline void put_all(struct kwarp *w, const struct kinsn *in, uint32_t mask, uint64_t v)
{
    uint64_t *d = KDST(w, in, 0);
    KFOR_LANES(mask, l)
    d[l] = v;
}
/* isa (issue 25): lanes that execute a warp function together but pass different membermasks
 * work as separate groups, one per membermask value: cooperative_groups' tiles pass each tile's
 * lanes (tile.all() is a ballot over the tile compared with its mask, a labeled partition's
 * reduce is a redux over the lanes match.any found), and the H100 computes each lane's result
 * over the lanes that passed the same membermask (tests/cuda/coop_groups.cu). Lanes passing one
 * membermask that leaves some of them out still work together, as the probe in tools/probes saw
 * (a full warp with membermask 0xffff votes over all 32 lanes). membermask is src[1]. */
static void by_membermask(struct kwarp *w, const struct kinsn *in, uint32_t mask, kexec_fn fn)
{
    const uint64_t *m = KSRC(w, in, 1);
    uint32_t left = mask;
    while (left) {
        uint32_t mm = (uint32_t)m[kctz(left)], g = 0;
        KFOR_LANES(left, l)
        {
            if ((uint32_t)m[l] == mm)
                g |= 1u << l;
        }
        fn(w, in, g);
        left &= ~g;
    }
}
#define KW_GROUPED(fn)                                                                                                 \
    static void fn##_grouped(struct kwarp *w, const struct kinsn *in, uint32_t mask) { by_membermask(w, in, mask, fn); }

static void vote_ballot(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    put_all(w, in, mask, ballot_of(w, in, mask));
}
static void vote_all(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    put_all(w, in, mask, ballot_of(w, in, mask) == mask);
}
static void vote_any(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    put_all(w, in, mask, ballot_of(w, in, mask) != 0);
}
static void vote_uni(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint32_t b = ballot_of(w, in, mask);
    put_all(w, in, mask, b == 0 || b == mask);
}

KW_GROUPED(vote_ballot)
KW_GROUPED(vote_all)
KW_GROUPED(vote_any)
KW_GROUPED(vote_uni)

/* vote.sync.{all,any,uni}.pred d, {!}a, membermask; vote.sync.ballot.b32 d, {!}a, membermask;
 * and the old forms without .sync and membermask. */
static bool lower_vote(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    kexec_fn fn = NULL;
    bool sync = false;
    for (uint32_t i = 0; i < p->nmods; ++i) {
        switch (p->mods[i]) {
        case KM_sync: sync = true; break;
        case KM_all: fn = vote_all; break;
        case KM_any: fn = vote_any; break;
        case KM_uni: fn = vote_uni; break;
        case KM_ballot: fn = vote_ballot; break;
        default:
            return kl_refuse(lw, "'%s': modifier .%s is not defined for vote", p->text, kmod_name(p->mods[i]));
        }
    }
    if (!fn)
        return kl_refuse(lw, "'%s': a mode (.all, .any, .uni, .ballot) is required", p->text);
    ktype want = fn == vote_ballot ? KT_B32 : KT_PRED;
    if (p->ntypes != 1 || p->types[0] != want)
        return kl_refuse(lw, "'%s': this vote is defined for .%s only", p->text, ktype_name(want));
    uint32_t n = sync ? 3 : 2;
    if (p->nops != n)
        return kl_refuse(lw, "'%s' takes %u operands, found %u", p->text, n, p->nops);
    if (!kl_dst(lw, p, 0, &in->dst[0]))
        return false;
    const struct kparsed_op *a = &p->ops[1];
    if (a->kind == KO_REG && a->neg) {
        in->src[0] = a->slot;
        in->mods |= KW_NEG;
    } else if (!kl_src(lw, p, 1, KT_PRED, &in->src[0])) {
        return false;
    }
    if (sync && !kl_src(lw, p, 2, KT_B32, &in->src[1]))
        return false;
    in->ndst = 1;
    in->nsrc = sync ? 2 : 1;
    in->type = (uint8_t)want;
    in->kind = KK_OP;
    in->exec = fn;
    if (sync) /* isa: one group per membermask */
        in->exec = fn == vote_ballot ? vote_ballot_grouped
                   : fn == vote_all  ? vote_all_grouped
                   : fn == vote_any  ? vote_any_grouped
                                     : vote_uni_grouped;
    return true;
}

/* ---- match ---- */
static inline void match_any(struct kwarp *w, const struct kinsn *in, uint32_t mask, uint64_t vmask)
{
    const uint64_t *a = KSRC(w, in, 0);
    uint64_t v[KLANES];
    KFOR_LANES(mask, l)
    v[l] = a[l] & vmask;
    uint32_t r[KLANES];
    uint32_t left = mask;
    /* One pass per distinct value: each pass takes the lanes that hold the lowest lane's value. */
    while (left) {
        uint32_t first = (uint32_t)kctz(left), same = 0;
        KFOR_LANES(left, l)
        if (v[l] == v[first])
            same |= 1u << l;
        KFOR_LANES(same, l)
        r[l] = same;
        left &= ~same;
    }
    uint64_t *d = KDST(w, in, 0);
    KFOR_LANES(mask, l)
    d[l] = r[l];
}
static void match_any32(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    match_any(w, in, mask, 0xffffffffu);
}
static void match_any64(struct kwarp *w, const struct kinsn *in, uint32_t mask) { match_any(w, in, mask, ~0ull); }

static inline void match_all(struct kwarp *w, const struct kinsn *in, uint32_t mask, uint64_t vmask)
{
    const uint64_t *a = KSRC(w, in, 0);
    uint64_t v0 = a[kctz(mask)] & vmask;
    bool eq = true;
    KFOR_LANES(mask, l)
    eq = eq && (a[l] & vmask) == v0;
    uint64_t *d = KDST(w, in, 0), *p = (in->mods & KW_PRED) ? KDST(w, in, 1) : NULL;
    KFOR_LANES(mask, l)
    {
        d[l] = eq ? mask : 0;
        if (p)
            p[l] = eq;
    }
}
static void match_all32(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    match_all(w, in, mask, 0xffffffffu);
}
static void match_all64(struct kwarp *w, const struct kinsn *in, uint32_t mask) { match_all(w, in, mask, ~0ull); }

KW_GROUPED(match_any32)
KW_GROUPED(match_any64)
KW_GROUPED(match_all32)
KW_GROUPED(match_all64)

/* match.any.sync.type d, a, membermask; match.all.sync.type d[|p], a, membermask. */
static bool lower_match(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    int mode = -1;
    bool sync = false;
    for (uint32_t i = 0; i < p->nmods; ++i) {
        switch (p->mods[i]) {
        case KM_sync: sync = true; break;
        case KM_any: mode = 0; break;
        case KM_all: mode = 1; break;
        default:
            return kl_refuse(lw, "'%s': modifier .%s is not defined for match", p->text, kmod_name(p->mods[i]));
        }
    }
    if (!sync || mode < 0)
        return kl_refuse(lw, "'%s': match needs .any or .all and .sync", p->text);
    if (p->ntypes != 1 || (p->types[0] != KT_B32 && p->types[0] != KT_B64))
        return kl_refuse(lw, "'%s': match is defined for .b32 and .b64", p->text);
    bool wide = p->types[0] == KT_B64;
    bool pred = mode == 1 && p->nops == 4;
    if (p->nops != 3 && !pred)
        return kl_refuse(lw, "'%s' takes 3 operands%s, found %u", p->text, mode ? " (4 with a predicate)" : "",
                         p->nops);
    uint32_t i = 1;
    if (!kl_dst(lw, p, 0, &in->dst[0]))
        return false;
    if (pred) {
        if (!kl_dst(lw, p, 1, &in->dst[1]))
            return false;
        in->mods |= KW_PRED;
        i = 2;
    }
    if (!kl_src(lw, p, i, p->types[0], &in->src[0]) || !kl_src(lw, p, i + 1, KT_B32, &in->src[1]))
        return false;
    in->ndst = pred ? 2 : 1;
    in->nsrc = 2;
    in->type = (uint8_t)p->types[0];
    in->kind = KK_OP;
    in->exec = mode ? (wide ? match_all64_grouped : match_all32_grouped)
                    : (wide ? match_any64_grouped : match_any32_grouped); /* isa: one group per membermask */
    return true;
}

/* ---- redux ---- */
#define KREDUX(name, INIT, STEP)                                                                                       \
    static void name(struct kwarp *w, const struct kinsn *in, uint32_t mask)                                           \
    {                                                                                                                  \
        const uint64_t *a = KSRC(w, in, 0);                                                                            \
        uint32_t r = (INIT);                                                                                           \
        KFOR_LANES(mask, l)                                                                                            \
        {                                                                                                              \
            uint32_t v = (uint32_t)a[l];                                                                               \
            r = (STEP);                                                                                                \
        }                                                                                                              \
        put_all(w, in, mask, r);                                                                                       \
    }
/* .add is truncated to 32 bits (the ISA), which unsigned arithmetic gives for both types. */
KREDUX(redux_add, 0u, r + v)
KREDUX(redux_min_u32, 0xffffffffu, v < r ? v : r)
KREDUX(redux_max_u32, 0u, v > r ? v : r)
KREDUX(redux_min_s32, 0x7fffffffu, (int32_t)v < (int32_t)r ? v : r)
KREDUX(redux_max_s32, 0x80000000u, (int32_t)v > (int32_t)r ? v : r)
KREDUX(redux_and, 0xffffffffu, r & v)
KREDUX(redux_or, 0u, r | v)
KREDUX(redux_xor, 0u, r ^ v)

KW_GROUPED(redux_add)
KW_GROUPED(redux_min_u32)
KW_GROUPED(redux_max_u32)
KW_GROUPED(redux_min_s32)
KW_GROUPED(redux_max_s32)
KW_GROUPED(redux_and)
KW_GROUPED(redux_or)
KW_GROUPED(redux_xor)

/* redux.sync.op.type d, a, membermask */
static bool lower_redux(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    int op = -1;
    bool sync = false;
    for (uint32_t i = 0; i < p->nmods; ++i) {
        kmod m = p->mods[i];
        if (m == KM_sync)
            sync = true;
        else if (m == KM_add || m == KM_min || m == KM_max || m == KM_and || m == KM_or || m == KM_xor)
            op = (int)m;
        else if (m == KM_abs || m == KM_NaN)
            return kl_refuse(lw, "'%s': redux.sync on .f32 (sm_100a) is not implemented by the software device",
                             p->text);
        else
            return kl_refuse(lw, "'%s': modifier .%s is not defined for redux", p->text, kmod_name(m));
    }
    if (!sync || op < 0 || p->ntypes != 1)
        return kl_refuse(lw, "'%s': redux needs .sync, an operation and a type", p->text);
    ktype t = p->types[0];
    kexec_fn fn = NULL;
    if (t == KT_U32 || t == KT_S32) {
        bool s = t == KT_S32;
        fn = op == KM_add ? redux_add : op == KM_min ? (s ? redux_min_s32 : redux_min_u32)
             : op == KM_max                          ? (s ? redux_max_s32 : redux_max_u32)
                                                     : NULL;
    } else if (t == KT_B32) {
        fn = op == KM_and ? redux_and : op == KM_or ? redux_or : op == KM_xor ? redux_xor : NULL;
    } else if (t == KT_F32) {
        return kl_refuse(lw, "'%s': redux.sync on .f32 (sm_100a) is not implemented by the software device", p->text);
    }
    if (!fn)
        return kl_refuse(lw, "'%s': the PTX ISA defines .add/.min/.max on .u32/.s32 and .and/.or/.xor on .b32",
                         p->text);
    if (p->nops != 3)
        return kl_refuse(lw, "'%s' takes 3 operands, found %u", p->text, p->nops);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, t, &in->src[0]) ||
        !kl_src(lw, p, 2, KT_B32, &in->src[1]))
        return false;
    in->ndst = 1;
    in->nsrc = 2;
    in->type = (uint8_t)t;
    in->kind = KK_OP;
    /* isa: one group per membermask */
    in->exec = fn == redux_add       ? redux_add_grouped
               : fn == redux_min_u32 ? redux_min_u32_grouped
               : fn == redux_max_u32 ? redux_max_u32_grouped
               : fn == redux_min_s32 ? redux_min_s32_grouped
               : fn == redux_max_s32 ? redux_max_s32_grouped
               : fn == redux_and     ? redux_and_grouped
               : fn == redux_or      ? redux_or_grouped
                                     : redux_xor_grouped;
    return true;
}

/* ---- activemask, bar.warp.sync, elect ---- */
/* The lanes that execute it: predicated-off lanes are left out (the ISA: "predicated-on active
 * threads"), which is what mask is. */
static void activemask_run(struct kwarp *w, const struct kinsn *in, uint32_t mask) { put_all(w, in, mask, mask); }

static bool lower_activemask(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (p->nmods || p->ntypes != 1 || p->types[0] != KT_B32 || p->nops != 1)
        return kl_refuse(lw, "'%s': the form is activemask.b32 d", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]))
        return false;
    in->ndst = 1;
    in->type = KT_B32;
    in->kind = KK_OP;
    in->exec = activemask_run;
    return true;
}

/* bar.warp.sync membermask: nothing to do. The scheduler runs a convergent group's lanes
 * through each instruction together, so the lanes that reach it are already in step, and
 * their memory accesses are already ordered (a block runs on one CPU thread). Lanes of
 * membermask on another path of divergent code cannot be waited for here: they run when the
 * scheduler picks their group, which it does at the latest where the paths join. */
static void warp_sync_run(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    (void)w;
    (void)in;
    (void)mask;
}

static bool lower_bar(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (!kp_has(p, KM_warp)) {
        lw->why[0] = 0;
        return false; /* bar.sync and the others belong to the control family */
    }
    if (p->nmods != 2 || p->mods[0] != KM_warp || p->mods[1] != KM_sync || p->ntypes || p->nops != 1)
        return kl_refuse(lw, "'%s': the form is bar.warp.sync membermask", p->text);
    if (!kl_src(lw, p, 0, KT_B32, &in->src[0]))
        return false;
    in->nsrc = 1;
    in->kind = KK_OP;
    in->exec = warp_sync_run;
    return true;
}

static bool lower_elect(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    return kisa_lower_elect(lw, p, in); /* isa (issue 25): ops_isa.c */
}

const struct klower_entry kops_warp[] = {
    {"shfl", lower_shfl},   {"vote", lower_vote}, {"match", lower_match}, {"redux", lower_redux},
    {"activemask", lower_activemask}, {"bar", lower_bar}, {"elect", lower_elect}, {NULL, NULL},
};
