/*
 * Asynchronous copies and barriers (issue 25; PTX ISA 9.0, "Data Movement and Conversion
 * Instructions: cp.async, cp.async.bulk, cp.reduce.async.bulk" and "Parallel Synchronization and
 * Communication Instructions: mbarrier, barrier.cluster, fence"): cp.async with its groups and
 * mbarrier arrive, the mbarrier family, the bulk copies and reductions, barrier.cluster for a
 * cluster of one block, and the proxy fences. docs/kernels.md, "Asynchronous copies and
 * mbarriers", says what each does here and why it is a faithful execution.
 *
 * The software device has one memory proxy and runs a block on one CPU thread, so an
 * asynchronous copy is performed when it is issued: the ISA orders it against nothing in the
 * issuing thread until a wait (cp.async.wait_group, a completed mbarrier phase), and "done at
 * issue" is one of the executions it allows. The waits then have nothing left to wait for but
 * the mbarrier's phase, which other warps of the block complete: a failed test_wait/try_wait
 * lets the other warps run (KK_WAIT, exec.c), so a warp spinning on an mbarrier never starves
 * the producers, and a block in which every warp only waits is a deadlock, ended as a fault.
 *
 * An mbarrier object is 8 bytes of shared memory. Its encoding is the engine's own (the ISA
 * calls it opaque): pending arrivals in bits 0-19, expected arrivals in bits 20-39, the
 * tx-count (signed) in bits 40-61, the phase parity in bit 63. The state arrive returns holds
 * the phase parity of the phase it arrived in (bit 63) and the pending count that phase had
 * before the arrival (bits 0-19).
 */
#include "kernel.h"

#include <stdio.h>
#include <stdlib.h>

#define MB_COUNT_MAX 0xfffffu   /* counts are in [1, 2^20 - 1] (mbarrier.init) */
#define MB_TX_MAX 0xfffffll     /* tx-count is in [-(2^20 - 1), 2^20 - 1] */

struct mbar {
    uint32_t pending, expected, phase;
    int64_t tx;
};

static struct mbar mb_unpack(uint64_t v)
{
    struct mbar m;
    m.pending = (uint32_t)(v & MB_COUNT_MAX);
    m.expected = (uint32_t)(v >> 20 & MB_COUNT_MAX);
    int64_t tx = (int64_t)(v >> 40 & 0x3fffffull);
    m.tx = tx & 0x200000 ? tx - 0x400000 : tx;
    m.phase = (uint32_t)(v >> 63);
    return m;
}

static uint64_t mb_pack(struct mbar m)
{
    return (uint64_t)(m.pending & MB_COUNT_MAX) | (uint64_t)(m.expected & MB_COUNT_MAX) << 20 |
           ((uint64_t)m.tx & 0x3fffffull) << 40 | (uint64_t)(m.phase & 1) << 63;
}

/* The phase completes when no arrival is pending and the tx-count is zero: the phase flips,
 * the pending count is the expected one again, the tx-count starts from zero. */
static void mb_settle(struct mbar *m)
{
    if (m->pending == 0 && m->tx == 0) {
        m->phase ^= 1;
        m->pending = m->expected;
        m->tx = 0;
    }
}

/* ---- Operands ---- */
/* An address operand [base+imm]: its base slot, and its offset (which must fit 32 bits, since
 * two of them share in->imm in the copies). */
static bool addr_operand(struct klower *lw, const struct kparsed *p, uint32_t i, kopnd *base, int32_t *off)
{
    if (i >= p->nops || p->ops[i].kind != KO_ADDR)
        return kl_refuse(lw, "'%s': operand %u must be an address [..]", p->text, i + 1);
    const struct kparsed_op *op = &p->ops[i];
    if (op->has_base && op->symbol && op->symbol->kind == KSYM_VAR && op->symbol->space == KS_LOCAL)
        return kl_refuse(lw, "'%s': operand %u names a .local variable", p->text, i + 1);
    if (op->has_base && op->symbol && op->symbol->kind == KSYM_PARAM)
        return kl_refuse(lw, "'%s': operand %u names a parameter", p->text, i + 1);
    if (op->imm < INT32_MIN || op->imm > INT32_MAX)
        return kl_refuse(lw, "'%s': the offset of operand %u does not fit 32 bits", p->text, i + 1);
    *base = op->has_base ? op->slot : kl_const(lw, 0);
    *off = (int32_t)op->imm;
    return true;
}

static inline int32_t off_lo(const struct kinsn *in) { return (int32_t)(uint32_t)((uint64_t)in->imm & 0xffffffffu); }
static inline int32_t off_hi(const struct kinsn *in) { return (int32_t)(uint32_t)((uint64_t)in->imm >> 32); }
static inline int64_t pack_offs(int32_t lo, int32_t hi) { return (int64_t)((uint64_t)(uint32_t)lo | (uint64_t)(uint32_t)hi << 32); }

/* The shared-memory state space an mbarrier or a copy names: .shared, .shared::cta and
 * .shared::cluster are shared addresses (a .shared::cluster address may name another block of
 * the cluster: kmem finds it); none is a generic address. */
static kspace shared_space(const struct kparsed *p)
{
    return kp_has(p, KM_shared) || kp_has(p, KM_shared__cta) || kp_has(p, KM_shared__cluster) ? KS_SHARED : KS_GENERIC;
}

/* The block's shared memory at `addr` (a shared offset, or a generic address that must fall in
 * the shared window) for `size` bytes aligned to `align`, or NULL after the fault. */
static unsigned char *shared_at(struct kwarp *w, const struct kinsn *in, uint32_t lane, kspace space, uint64_t addr,
                                unsigned size, unsigned align, const char *what)
{
    if (space == KS_GENERIC) {
        uint64_t off;
        const struct kblock *o = kcluster_window(w->b, addr, &off);
        if (!o) {
            /* The H100 answers an mbarrier operation on a generic address outside shared memory
             * with an illegal instruction (docs/probes/kernels/async). */
            kfault(w, in, lane, CUDA_ERROR_ILLEGAL_INSTRUCTION, "%s at generic address 0x%llx, which is not shared memory",
                   what, (unsigned long long)addr);
            return NULL;
        }
        /* clusters: another block's window is named by its rank counted from this block */
        addr = off | (uint64_t)((o->rank - w->b->rank) & 0xff) << KCLUSTER_SHIFT;
    }
    if (align > 1 && (addr & (align - 1))) {
        kfault(w, in, lane, CUDA_ERROR_MISALIGNED_ADDRESS, "%s at shared address 0x%llx is not aligned to %u bytes",
               what, (unsigned long long)addr, align);
        return NULL;
    }
    return kmem_span(w, in, lane, KS_SHARED, addr, size, true);
}

static uint64_t *mbar_at(struct kwarp *w, const struct kinsn *in, uint32_t lane, uint64_t addr)
{
    return (uint64_t *)(void *)shared_at(w, in, lane, (kspace)in->space, addr, 8, 8, "mbarrier object");
}

/* ---- cp.async (sm_80) ---- */
/* cp.async.ca/.cg.shared{::cta}.global [dst], [src], cp-size{, src-size | ignore-src}{, policy}:
 * src[0] dst base, src[1] src base, src[2] src-size or NONE, src[3] ignore-src or NONE,
 * in->target cp-size, in->imm both offsets, in->mods & 1 a negated ignore-src. */
static void cp_async_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const uint64_t *d = KSRC(w, in, 0), *s = KSRC(w, in, 1);
    const uint64_t *ss = in->src[2] != KOPND_NONE ? KSRC(w, in, 2) : NULL;
    const uint64_t *ig = in->src[3] != KOPND_NONE ? KSRC(w, in, 3) : NULL;
    unsigned cp = in->target;
    KFOR_LANES(mask, l)
    {
        unsigned n = cp;
        if (ss) {
            /* A src-size above cp-size is undefined; the H100 copies src-size % cp-size bytes
             * (docs/probes/kernels/async: 20 and 12 of 8 copy 4, 6 of 4 copies 2, 17 and 40
             * of 16 copy 1 and 8). */
            uint32_t v = (uint32_t)ss[l];
            n = v <= cp ? v : v % cp;
        }
        if (ig && (ig[l] != 0) != (in->mods & 1))
            n = 0;
        uint64_t da = d[l] + (uint64_t)(int64_t)off_lo(in), sa = s[l] + (uint64_t)(int64_t)off_hi(in);
        unsigned char *dp = shared_at(w, in, l, KS_SHARED, da, cp, cp, "cp.async destination");
        if (!dp)
            return;
        unsigned char buf[16] = {0};
        if (n) {
            if (sa & (cp - 1)) {
                kfault(w, in, l, CUDA_ERROR_MISALIGNED_ADDRESS, "cp.async source 0x%llx is not aligned to %u bytes",
                       (unsigned long long)sa, cp);
                return;
            }
            const unsigned char *sp = kmem(w, in, l, KS_GLOBAL, sa, n, false);
            if (!sp)
                return;
            memcpy(buf, sp, n);
        }
        memcpy(dp, buf, cp);
    }
}

static bool lower_cp_async(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (kp_has(p, KM_commit_group) || kp_has(p, KM_wait_group) || kp_has(p, KM_wait_all)) {
        /* The copies are done when issued: a group is complete once committed. */
        if (kp_has(p, KM_wait_group) && (p->nops != 1 || p->ops[0].kind != KO_IMM))
            return kl_refuse(lw, "'%s' takes one integer constant", p->text);
        if (!kp_has(p, KM_wait_group) && p->nops != 0)
            return kl_refuse(lw, "'%s' takes no operands", p->text);
        in->kind = KK_NOP;
        return true;
    }
    bool ca = kp_has(p, KM_ca), cg = kp_has(p, KM_cg);
    if (ca == cg)
        return kl_refuse(lw, "'%s': cp.async needs .ca or .cg", p->text);
    int at_shared = -1, at_global = -1;
    for (uint32_t i = 0; i < p->nmods; ++i) {
        if (p->mods[i] == KM_shared || p->mods[i] == KM_shared__cta)
            at_shared = (int)i;
        else if (p->mods[i] == KM_global)
            at_global = (int)i;
    }
    if (at_shared < 0 || at_global < at_shared)
        return kl_refuse(lw, "'%s': cp.async copies from .global to .shared{::cta} (written .shared.global)", p->text);
    bool hint = kp_has(p, KM_L2__cache_hint);
    uint32_t nops = p->nops - (hint ? 1 : 0);
    if (nops < 3 || nops > 4)
        return kl_refuse(lw, "'%s' takes [dst], [src], cp-size{, src-size | ignore-src}%s", p->text,
                         hint ? ", cache-policy" : "");
    if (hint && p->ops[p->nops - 1].kind != KO_REG && p->ops[p->nops - 1].kind != KO_IMM)
        return kl_refuse(lw, "'%s': the cache policy must be a 64-bit value", p->text);
    int32_t doff, soff;
    if (!addr_operand(lw, p, 0, &in->src[0], &doff) || !addr_operand(lw, p, 1, &in->src[1], &soff))
        return false;
    if (p->ops[2].kind != KO_IMM)
        return kl_refuse(lw, "'%s': cp-size must be an integer constant", p->text);
    int64_t cp = p->ops[2].imm;
    if (cg ? cp != 16 : (cp != 4 && cp != 8 && cp != 16))
        return kl_refuse(lw, "'%s': cp-size %lld is not %s", p->text, (long long)cp, cg ? "16 (.cg)" : "4, 8 or 16");
    in->target = (uint32_t)cp;
    in->imm = pack_offs(doff, soff);
    if (nops == 4) {
        const struct kparsed_op *op = &p->ops[3];
        if (op->kind == KO_REG && op->type == KT_PRED) {
            in->src[3] = op->slot;
            if (op->neg)
                in->mods |= 1;
        } else {
            if (op->kind == KO_IMM && (op->imm < 0 || op->imm > cp))
                return kl_refuse(lw, "'%s': src-size %lld is larger than cp-size %lld", p->text, (long long)op->imm,
                                 (long long)cp);
            if (!kl_src(lw, p, 3, KT_U32, &in->src[2]))
                return false;
        }
    }
    in->exec = cp_async_exec;
    return true;
}

/* ---- mbarrier ---- */
enum mb_flags {
    MBF_EXPECT = 1,     /* arrive.expect_tx: src[2] is the tx count, the arrival count is 1 */
    MBF_DROP = 2,       /* arrive_drop */
    MBF_COUNT = 4,      /* src[2] is the arrival count */
    MBF_PARITY = 8,     /* test_wait/try_wait .parity */
    MBF_CP_ASYNC = 16,  /* cp.async.mbarrier.arrive: an arrival when the thread's copies are done */
    MBF_NOINC = 32,     /* .noinc */
};

static void mb_touch(struct kwarp *w) { w->b->mbar_epoch++; }

static void mb_init_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const uint64_t *a = KSRC(w, in, 0), *c = KSRC(w, in, 1);
    KFOR_LANES(mask, l)
    {
        uint64_t *mb = mbar_at(w, in, l, a[l] + (uint64_t)in->imm);
        if (!mb)
            return;
        struct mbar m = {(uint32_t)c[l] & MB_COUNT_MAX, (uint32_t)c[l] & MB_COUNT_MAX, 0, 0};
        *mb = mb_pack(m);
    }
    mb_touch(w);
}

static void mb_inval_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const uint64_t *a = KSRC(w, in, 0);
    KFOR_LANES(mask, l)
    {
        uint64_t *mb = mbar_at(w, in, l, a[l] + (uint64_t)in->imm);
        if (!mb)
            return;
        *mb = 0; /* the memory is ordinary shared memory again */
    }
    mb_touch(w);
}

/* arrive, arrive_drop (.expect_tx, .noComplete), and cp.async.mbarrier.arrive. */
static void mb_arrive_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const uint64_t *a = KSRC(w, in, 0);
    const uint64_t *x = in->src[2] != KOPND_NONE ? KSRC(w, in, 2) : NULL;
    uint64_t *d = in->dst[0] != KOPND_NONE ? KDST(w, in, 0) : NULL;
    KFOR_LANES(mask, l)
    {
        uint64_t *mb = mbar_at(w, in, l, a[l] + (uint64_t)in->imm);
        if (!mb)
            return;
        struct mbar m = mb_unpack(*mb);
        uint32_t before = m.pending, phase = m.phase;
        if ((in->mods & MBF_CP_ASYNC) && !(in->mods & MBF_NOINC)) {
            /* The pending count is raised by one before the asynchronous arrival, which happens
             * at once (the thread's copies are done): no change. */
        } else {
            uint32_t count = (in->mods & MBF_COUNT) && x ? (uint32_t)x[l] & MB_COUNT_MAX : 1;
            if (in->mods & MBF_EXPECT) {
                m.tx += (int64_t)(uint32_t)x[l];
                if (m.tx > MB_TX_MAX)
                    m.tx -= 2 * MB_TX_MAX + 1; /* out of range is undefined: it wraps */
            }
            if (in->mods & MBF_DROP)
                m.expected = (m.expected - count) & MB_COUNT_MAX;
            m.pending = (m.pending - count) & MB_COUNT_MAX;
            if (m.pending > before) /* more arrivals than pending: undefined; the phase ends */
                m.pending = 0;
            mb_settle(&m);
        }
        *mb = mb_pack(m);
        if (d)
            d[l] = (uint64_t)phase << 63 | before;
    }
    mb_touch(w);
}

/* expect_tx and complete_tx: [addr], txCount. */
static void mb_tx_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const uint64_t *a = KSRC(w, in, 0), *x = KSRC(w, in, 1);
    bool complete = in->mods != 0;
    KFOR_LANES(mask, l)
    {
        uint64_t *mb = mbar_at(w, in, l, a[l] + (uint64_t)in->imm);
        if (!mb)
            return;
        struct mbar m = mb_unpack(*mb);
        m.tx += complete ? -(int64_t)(uint32_t)x[l] : (int64_t)(uint32_t)x[l];
        if (complete)
            mb_settle(&m);
        *mb = mb_pack(m);
    }
    mb_touch(w);
}

/* test_wait and try_wait (.parity): a lane's predicate is true once the phase its state (or
 * parity) names has completed. try_wait may suspend the thread for a while on a GPU; here a
 * failed wait of either kind lets the block's other warps run (KK_WAIT), since a warp that
 * tests in a loop can only see the phase complete when another warp arrives. */
static void mb_wait_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const uint64_t *a = KSRC(w, in, 0), *s = KSRC(w, in, 1);
    uint64_t *d = KDST(w, in, 0);
    KFOR_LANES(mask, l)
    {
        uint64_t *mb = mbar_at(w, in, l, a[l] + (uint64_t)in->imm);
        if (!mb)
            return;
        uint32_t phase = (uint32_t)(*mb >> 63);
        uint32_t waited = in->mods & MBF_PARITY ? (uint32_t)s[l] & 1 : (uint32_t)(s[l] >> 63);
        d[l] = phase != waited;
        if (!d[l])
            w->yield = true;
    }
}

static void mb_pending_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const uint64_t *s = KSRC(w, in, 0);
    uint64_t *d = KDST(w, in, 0);
    KFOR_LANES(mask, l)
    d[l] = (uint32_t)(s[l] & MB_COUNT_MAX);
}

static bool mb_address(struct klower *lw, const struct kparsed *p, uint32_t i, struct kinsn *in)
{
    int32_t off;
    if (!addr_operand(lw, p, i, &in->src[0], &off))
        return false;
    in->imm = off;
    in->space = (uint8_t)shared_space(p);
    return true;
}

static bool lower_mbarrier(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (p->nmods == 0)
        return kl_refuse(lw, "'%s': which mbarrier operation?", p->text);
    if (p->ntypes != 1 || kl_type(p, 0) != KT_B64)
        return kl_refuse(lw, "'%s': mbarrier objects are .b64", p->text);
    switch (p->mods[0]) {
    case KM_init:
        if (p->nops != 2 || !mb_address(lw, p, 0, in) || !kl_src(lw, p, 1, KT_U32, &in->src[1]))
            return lw->why[0] ? false : kl_refuse(lw, "'%s' takes [addr], count", p->text);
        in->exec = mb_init_exec;
        return true;
    case KM_inval:
        if (p->nops != 1 || !mb_address(lw, p, 0, in))
            return lw->why[0] ? false : kl_refuse(lw, "'%s' takes [addr]", p->text);
        in->exec = mb_inval_exec;
        return true;
    case KM_arrive:
    case KM_arrive_drop: {
        if (p->mods[0] == KM_arrive_drop)
            in->mods |= MBF_DROP;
        bool expect = kp_has(p, KM_expect_tx), nocomplete = kp_has(p, KM_noComplete);
        if (expect && nocomplete)
            return kl_refuse(lw, "'%s': .expect_tx and .noComplete do not go together", p->text);
        if (p->nops < 2 || p->nops > 3)
            return kl_refuse(lw, "'%s' takes state, [addr]{, count}", p->text);
        if ((expect || nocomplete) && p->nops != 3)
            return kl_refuse(lw, "'%s' needs its %s operand", p->text, expect ? "txCount" : "count");
        if (!kl_dst(lw, p, 0, &in->dst[0]) || !mb_address(lw, p, 1, in))
            return false;
        if (p->nops == 3) {
            if (!kl_src(lw, p, 2, KT_U32, &in->src[2]))
                return false;
            in->mods |= expect ? MBF_EXPECT : MBF_COUNT;
            if (p->ops[2].kind == KO_IMM && !expect && (p->ops[2].imm < 1 || p->ops[2].imm > (int64_t)MB_COUNT_MAX))
                return kl_refuse(lw, "'%s': count %lld is outside [1, 2^20 - 1]", p->text, (long long)p->ops[2].imm);
        }
        /* .noComplete must not complete the phase (undefined otherwise): it is an arrival. */
        in->exec = mb_arrive_exec;
        return true;
    }
    case KM_expect_tx:
    case KM_complete_tx:
        if (p->nops != 2 || !mb_address(lw, p, 0, in) || !kl_src(lw, p, 1, KT_U32, &in->src[1]))
            return lw->why[0] ? false : kl_refuse(lw, "'%s' takes [addr], txCount", p->text);
        in->mods = p->mods[0] == KM_complete_tx;
        in->exec = mb_tx_exec;
        return true;
    case KM_test_wait:
    case KM_try_wait: {
        if (kp_has(p, KM_shared__cluster))
            return kl_refuse(lw, "'%s': waits are on the block's own mbarriers (.shared{::cta})", p->text);
        uint32_t max = p->mods[0] == KM_try_wait ? 4 : 3;
        if (p->nops < 3 || p->nops > max)
            return kl_refuse(lw, "'%s' takes waitComplete, [addr], %s%s", p->text,
                             kp_has(p, KM_parity) ? "phaseParity" : "state",
                             max == 4 ? "{, suspendTimeHint}" : "");
        if (p->ops[0].kind != KO_REG || p->ops[0].type != KT_PRED)
            return kl_refuse(lw, "'%s': waitComplete must be a predicate", p->text);
        if (!kl_dst(lw, p, 0, &in->dst[0]) || !mb_address(lw, p, 1, in))
            return false;
        if (!kl_src(lw, p, 2, kp_has(p, KM_parity) ? KT_U32 : KT_B64, &in->src[1]))
            return false;
        if (p->nops == 4 && !kl_src(lw, p, 3, KT_U32, &in->src[2])) /* the suspend time hint */
            return false;
        if (kp_has(p, KM_parity))
            in->mods |= MBF_PARITY;
        in->kind = KK_WAIT;
        in->exec = mb_wait_exec;
        return true;
    }
    case KM_pending_count:
        if (p->nops != 2 || !kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, KT_B64, &in->src[0]))
            return lw->why[0] ? false : kl_refuse(lw, "'%s' takes count, state", p->text);
        in->exec = mb_pending_exec;
        return true;
    default:
        return kl_refuse(lw, "'%s': unknown mbarrier operation '.%s'", p->text, kmod_name(p->mods[0]));
    }
}

/* ---- cp.async.bulk and cp.reduce.async.bulk (sm_90) ---- */
/* [dst], [src], size{, [mbar]}: src[0] dst base, src[1] src base, src[2] size, src[3] mbarrier
 * base (its offset in in->target), in->imm the two offsets; in->mods: */
enum bulk_flags {
    BK_TO_SHARED = 1,   /* global -> shared::cluster (own block), completing on an mbarrier */
    BK_S2S = 2,         /* shared::cta -> shared::cluster, completing on an mbarrier */
    BK_RED = 4,         /* cp.reduce.async.bulk: the operation in bits 8-15, the type in 16-23 */
};
enum bulk_red { BR_ADD = 1, BR_MIN, BR_MAX, BR_INC, BR_DEC, BR_AND, BR_OR, BR_XOR };

static uint64_t red_elem(unsigned op, ktype t, uint64_t old, uint64_t v)
{
    unsigned bits = ktype_size(t) * 8;
    uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;
    bool sg = ktype_signed(t);
    int64_t so = bits == 64 ? (int64_t)old : (int64_t)(int32_t)(uint32_t)old;
    int64_t sv = bits == 64 ? (int64_t)v : (int64_t)(int32_t)(uint32_t)v;
    switch (op) {
    case BR_ADD:
        if (t == KT_F32)
            return kbits32(kf32(old) + kf32(v));
        if (t == KT_F64)
            return kbits64(kf64(old) + kf64(v));
        return (old + v) & m;
    case BR_MIN: return sg ? (so < sv ? old : v) & m : (old < v ? old : v);
    case BR_MAX: return sg ? (so > sv ? old : v) & m : (old > v ? old : v);
    case BR_INC: return old >= v ? 0 : (old + 1) & m;
    case BR_DEC: return (old == 0 || old > v) ? v : (old - 1) & m;
    case BR_AND: return old & v;
    case BR_OR: return old | v;
    default: return old ^ v;
    }
}

static void bulk_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const uint64_t *d = KSRC(w, in, 0), *s = KSRC(w, in, 1), *n = KSRC(w, in, 2);
    const uint64_t *mbb = in->src[3] != KOPND_NONE ? KSRC(w, in, 3) : NULL;
    bool to_shared = (in->mods & (BK_TO_SHARED | BK_S2S)) != 0;
    KFOR_LANES(mask, l)
    {
        /* A size that is not a multiple of 16 is undefined; the H100 moves the whole 16-byte
         * chunks and completes that many bytes on the mbarrier, without a fault
         * (docs/probes/kernels/async: 24 bytes move 16, 8 bytes move none). */
        uint32_t size = (uint32_t)n[l] & ~15u;
        uint64_t da = d[l] + (uint64_t)(int64_t)off_lo(in), sa = s[l] + (uint64_t)(int64_t)off_hi(in);
        unsigned char *dp;
        const unsigned char *sp;
        if (to_shared) {
            dp = shared_at(w, in, l, KS_SHARED, da, size ? size : 1, 16, "bulk copy destination");
            if (!dp)
                return;
            if (in->mods & BK_S2S)
                sp = shared_at(w, in, l, KS_SHARED, sa, size ? size : 1, 16, "bulk copy source");
            else if (sa & 15) {
                kfault(w, in, l, CUDA_ERROR_MISALIGNED_ADDRESS, "bulk copy source 0x%llx is not aligned to 16 bytes",
                       (unsigned long long)sa);
                return;
            } else
                sp = size ? kmem_span(w, in, l, KS_GLOBAL, sa, size, false) : dp;
        } else {
            sp = shared_at(w, in, l, KS_SHARED, sa, size ? size : 1, 16, "bulk copy source");
            if (!sp)
                return;
            if (da & 15) {
                kfault(w, in, l, CUDA_ERROR_MISALIGNED_ADDRESS,
                       "bulk copy destination 0x%llx is not aligned to 16 bytes", (unsigned long long)da);
                return;
            }
            dp = size ? kmem_span(w, in, l, KS_GLOBAL, da, size, true) : (unsigned char *)(uintptr_t)sp;
        }
        if (!sp || !dp)
            return;
        if (in->mods & BK_RED) {
            unsigned op = in->mods >> 8 & 0xff;
            ktype t = (ktype)(in->mods >> 16 & 0xff);
            unsigned es = ktype_size(t);
            for (uint32_t i = 0; i + es <= size; i += es) {
                uint64_t v = 0;
                memcpy(&v, sp + i, es);
                if (to_shared) {
                    uint64_t old = 0;
                    memcpy(&old, dp + i, es);
                    uint64_t r = red_elem(op, t, old, v);
                    memcpy(dp + i, &r, es);
                } else if (es == 4) {
                    _Atomic uint32_t *p = (_Atomic uint32_t *)(void *)(dp + i);
                    uint32_t old = atomic_load(p);
                    while (!atomic_compare_exchange_weak(p, &old, (uint32_t)red_elem(op, t, old, v)))
                        ;
                } else {
                    _Atomic uint64_t *p = (_Atomic uint64_t *)(void *)(dp + i);
                    uint64_t old = atomic_load(p);
                    while (!atomic_compare_exchange_weak(p, &old, red_elem(op, t, old, v)))
                        ;
                }
            }
        } else if (size) {
            memmove(dp, sp, size);
        }
        if (mbb) {
            uint64_t *mb = (uint64_t *)(void *)shared_at(w, in, l, KS_SHARED, mbb[l] + (uint64_t)(int32_t)in->target, 8, 8,
                                                         "mbarrier object");
            if (!mb)
                return;
            struct mbar m = mb_unpack(*mb);
            m.tx -= size; /* complete_tx::bytes */
            mb_settle(&m);
            *mb = mb_pack(m);
            mb_touch(w);
        }
    }
}

static bool lower_bulk(struct klower *lw, const struct kparsed *p, struct kinsn *in, bool reduce)
{
    if (kp_has(p, KM_commit_group) || kp_has(p, KM_wait_group)) {
        if (kp_has(p, KM_wait_group) ? (p->nops != 1 || p->ops[0].kind != KO_IMM) : p->nops != 0)
            return kl_refuse(lw, "'%s': wrong operands", p->text);
        in->kind = KK_NOP; /* the bulk copies are done when issued */
        return true;
    }
    if (kp_has(p, KM_prefetch)) {
        /* cp.async.bulk.prefetch.L2.global [src], size: a hint; it never faults. */
        if (!kp_has(p, KM_global) || p->nops < 2)
            return kl_refuse(lw, "'%s' takes [srcMem], size", p->text);
        in->kind = KK_NOP;
        return true;
    }
    if (kp_has(p, KM_multicast__cluster))
        return kl_refuse(lw, "'%s': .multicast::cluster (one bulk copy into several blocks of the cluster) is not "
                         "implemented", p->text);
    if (kp_has(p, KM_cp_mask))
        return kl_refuse(lw, "'%s': .cp_mask (sm_100) is not implemented", p->text);
    /* The spaces in order: destination, then source. */
    kmod sp[2];
    int ns = 0;
    for (uint32_t i = 0; i < p->nmods && ns < 2; ++i)
        if (p->mods[i] == KM_global || p->mods[i] == KM_shared__cluster || p->mods[i] == KM_shared__cta)
            sp[ns++] = p->mods[i];
    bool hint = kp_has(p, KM_L2__cache_hint);
    uint32_t nops = p->nops - (hint ? 1 : 0);
    if (ns == 2 && sp[0] == KM_shared__cluster && (sp[1] == KM_global || sp[1] == KM_shared__cta) &&
        kp_has(p, KM_mbarrier__complete_tx__bytes)) {
        in->mods = sp[1] == KM_global ? BK_TO_SHARED : BK_S2S;
        if (nops != 4)
            return kl_refuse(lw, "'%s' takes [dstMem], [srcMem], size, [mbar]", p->text);
        int32_t mo;
        if (!addr_operand(lw, p, 3, &in->src[3], &mo))
            return false;
        in->target = (uint32_t)mo;
    } else if (ns == 2 && sp[0] == KM_shared__cta && sp[1] == KM_global && kp_has(p, KM_mbarrier__complete_tx__bytes) &&
               !reduce) {
        in->mods = BK_TO_SHARED; /* .shared::cta destination (PTX 8.6) */
        if (nops != 4)
            return kl_refuse(lw, "'%s' takes [dstMem], [srcMem], size, [mbar]", p->text);
        int32_t mo;
        if (!addr_operand(lw, p, 3, &in->src[3], &mo))
            return false;
        in->target = (uint32_t)mo;
    } else if (ns == 2 && sp[0] == KM_global && sp[1] == KM_shared__cta && kp_has(p, KM_bulk_group)) {
        if (nops != 3)
            return kl_refuse(lw, "'%s' takes [dstMem], [srcMem], size", p->text);
    } else {
        return kl_refuse(lw, "'%s': this direction or completion of a bulk copy is not implemented", p->text);
    }
    if (reduce) {
        static const struct { kmod m; unsigned op; } ops[] = {
            {KM_add, BR_ADD}, {KM_min, BR_MIN}, {KM_max, BR_MAX}, {KM_inc, BR_INC},
            {KM_dec, BR_DEC}, {KM_and, BR_AND}, {KM_or, BR_OR},   {KM_xor, BR_XOR},
        };
        unsigned op = 0;
        for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); ++i)
            if (kp_has(p, ops[i].m))
                op = ops[i].op;
        ktype t = kl_type(p, 0);
        bool ok = false;
        switch (op) {
        case BR_ADD: ok = t == KT_U32 || t == KT_S32 || t == KT_U64 || t == KT_F32 || t == KT_F64; break;
        case BR_MIN:
        case BR_MAX: ok = t == KT_U32 || t == KT_S32 || t == KT_U64 || t == KT_S64; break;
        case BR_INC:
        case BR_DEC: ok = t == KT_U32; break;
        case BR_AND:
        case BR_OR:
        case BR_XOR: ok = t == KT_B32 || t == KT_B64; break;
        default: break;
        }
        if (!ok || p->ntypes != 1)
            return kl_refuse(lw, "'%s': this reduction and type are not implemented (f16/bf16 and .noftz are not)",
                             p->text);
        in->mods |= BK_RED | op << 8 | (uint32_t)t << 16;
    }
    int32_t doff, soff;
    if (!addr_operand(lw, p, 0, &in->src[0], &doff) || !addr_operand(lw, p, 1, &in->src[1], &soff) ||
        !kl_src(lw, p, 2, KT_U32, &in->src[2]))
        return false;
    in->imm = pack_offs(doff, soff);
    in->exec = bulk_exec;
    return true;
}

static bool lower_cp_reduce(struct klower *lw, const struct kparsed *p, struct kinsn *in);

static bool lower_cp(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (kp_has(p, KM_reduce))
        return lower_cp_reduce(lw, p, in);
    if (!kp_has(p, KM_async))
        return kl_refuse(lw, "unknown or unsupported instruction '%s'", p->text);
    if (kp_has(p, KM_bulk)) {
        if (kp_has(p, KM_tensor) || kp_has(p, KM_im2col))
            return kl_refuse(lw, "'%s': tensor (TMA) copies are not implemented", p->text);
        return lower_bulk(lw, p, in, false);
    }
    if (kp_has(p, KM_mbarrier)) {
        /* cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr] */
        if (!kp_has(p, KM_arrive) || kl_type(p, 0) != KT_B64 || p->nops != 1 || !mb_address(lw, p, 0, in))
            return lw->why[0] ? false : kl_refuse(lw, "'%s' takes [addr]", p->text);
        in->mods = MBF_CP_ASYNC | (kp_has(p, KM_noinc) ? MBF_NOINC : 0);
        in->exec = mb_arrive_exec;
        return true;
    }
    return lower_cp_async(lw, p, in);
}

static bool lower_cp_reduce(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (!kp_has(p, KM_async) || !kp_has(p, KM_bulk))
        return kl_refuse(lw, "unknown or unsupported instruction '%s'", p->text);
    if (kp_has(p, KM_tensor))
        return kl_refuse(lw, "'%s': tensor (TMA) reductions are not implemented", p->text);
    return lower_bulk(lw, p, in, true);
}

/* ---- barrier.cluster ----
 * arrive counts the thread's arrival; wait lets it through once every live thread of the
 * cluster has arrived in the phase it arrived in. A waiting lane stays at the wait (KK_WAIT)
 * while the block's other warps run, and the cluster's other blocks (exec.c, "Clusters"). A
 * launch without clusters has clusters of one block, whose state is the block's. */
static void cluster_settle(struct kblock *b)
{
    struct kcluster *c = b->cluster;
    if (!c) {
        if (b->cl_arrived && b->cl_arrived >= b->threads_live) {
            b->cl_phase++;
            b->cl_arrived = 0;
            b->mbar_epoch++;
        }
        return;
    }
    uint32_t live = 0;
    for (uint32_t r = 0; r < c->n; ++r)
        live += c->blocks[r]->threads_live;
    if (c->arrived && c->arrived >= live) {
        c->phase++;
        c->arrived = 0;
        c->epoch++;
    }
}

static uint32_t cluster_phase(const struct kblock *b) { return b->cluster ? b->cluster->phase : b->cl_phase; }

static void cluster_arrive_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    (void)in;
    struct kblock *b = w->b;
    uint32_t phase = cluster_phase(b);
    w->dirty |= KWARP_DIRTY_CL_PHASE;
    KFOR_LANES(mask, l)
    w->cl_phase[l] = phase;
    if (b->cluster) {
        b->cluster->arrived += (uint32_t)kpopc(mask);
        b->cluster->epoch++;
    } else {
        b->cl_arrived += (uint32_t)kpopc(mask);
    }
    b->mbar_epoch++;
    cluster_settle(b);
}

static void cluster_wait_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    (void)in;
    struct kblock *b = w->b;
    cluster_settle(b); /* threads that exited since no longer count */
    uint32_t phase = cluster_phase(b);
    KFOR_LANES(mask, l)
    {
        if (w->cl_phase[l] == phase) {
            w->retry |= 1u << l;
            w->yield = true;
        }
    }
}

static bool lower_barrier_cluster(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (!kp_has(p, KM_cluster)) {
        lw->why[0] = 0;
        return false; /* the CTA barriers are ops_control.c's */
    }
    if (p->nops != 0)
        return kl_refuse(lw, "'%s' takes no operands", p->text);
    if (kp_has(p, KM_arrive)) {
        in->exec = cluster_arrive_exec;
        return true;
    }
    if (kp_has(p, KM_wait)) {
        in->kind = KK_WAIT;
        in->exec = cluster_wait_exec;
        return true;
    }
    return kl_refuse(lw, "'%s': barrier.cluster is .arrive or .wait", p->text);
}

/* ---- fences for the async proxy ----
 * fence.proxy.async{.global | .shared::cta | .shared::cluster}, fence.proxy.alias,
 * fence.proxy.tensormap::generic.{release,acquire}, fence.mbarrier_init.release.cluster: the
 * software device's copies and mbarriers go through the same memory as every other access, by
 * the thread that runs the block, so the proxies are one; the fences order the host thread's
 * accesses as a full fence does (ops_misc.c). */
static void fence_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    (void)w;
    (void)in;
    (void)mask;
    atomic_thread_fence(memory_order_seq_cst);
}

static bool lower_fence_async(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (!kp_has(p, KM_proxy) && !kp_has(p, KM_mbarrier_init)) {
        lw->why[0] = 0;
        return false; /* ops_misc.c's */
    }
    if (kp_has(p, KM_tensormap__generic) && kp_has(p, KM_acquire)) {
        /* fence.proxy.tensormap::generic.acquire.scope [addr], 128 */
        if (p->nops != 2 || p->ops[0].kind != KO_ADDR || p->ops[1].kind != KO_IMM || p->ops[1].imm != 128)
            return kl_refuse(lw, "'%s' takes [addr], 128", p->text);
    } else if (p->nops != 0) {
        return kl_refuse(lw, "'%s' takes no operands", p->text);
    }
    if (kp_has(p, KM_proxy) && !kp_has(p, KM_async) && !kp_has(p, KM_alias) && !kp_has(p, KM_tensormap__generic))
        return kl_refuse(lw, "'%s': which proxy?", p->text);
    in->exec = fence_exec;
    return true;
}

/* ---- st.async and red.async (sm_90): a store or a reduction into the shared memory of a block
 * of the cluster (a .shared::cluster address, which may be the block's own), whose bytes then
 * complete on an mbarrier of that block (.mbarrier::complete_tx::bytes, [mbar] another
 * .shared::cluster address): the PTX ISA's "st.async" and "red.async". The software device does
 * the store at once and then the complete_tx, which is one of the orders the asynchronous proxy
 * allows. in->type the element, in->vec the elements, in->mods the reduction (0: a store),
 * in->imm the two addresses' offsets. */
enum { RA_NONE, RA_ADD, RA_MIN, RA_MAX, RA_INC, RA_DEC, RA_AND, RA_OR, RA_XOR };

static uint64_t red_apply(uint32_t op, ktype t, uint64_t old, uint64_t v)
{
    bool sgn = t == KT_S32, wide = ktype_size(t) == 8;
    uint64_t m = wide ? ~0ull : 0xffffffffull;
    old &= m, v &= m;
    switch (op) {
    case RA_ADD: return (old + v) & m;
    case RA_MIN: return sgn ? ((int32_t)old < (int32_t)v ? old : v) : (old < v ? old : v);
    case RA_MAX: return sgn ? ((int32_t)old > (int32_t)v ? old : v) : (old > v ? old : v);
    case RA_INC: return katom_inc_u32((uint32_t)old, (uint32_t)v); /* .u32 only */
    case RA_DEC: return katom_dec_u32((uint32_t)old, (uint32_t)v);
    case RA_AND: return old & v;
    case RA_OR: return old | v;
    case RA_XOR: return old ^ v;
    default: return v;
    }
}

static void st_async_exec(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const uint64_t *a = KSRC(w, in, 0), *mbr = KSRC(w, in, 1);
    unsigned esz = ktype_size((ktype)in->type), n = in->vec, size = esz * n;
    if (!w->b->l->explicit_cluster) {
        /* the H100 (docs/probes/kernels/cluster, stasync.txt): an illegal instruction in a launch
         * without clusters; in any launch with clusters, 1x1x1 included, it runs */
        kfault(w, in, mask ? (uint32_t)kctz(mask) : 0, CUDA_ERROR_ILLEGAL_INSTRUCTION,
               "%s.async in a launch without clusters (launch it with a cluster dimension or __cluster_dims__)",
               in->mods ? "red" : "st");
        return;
    }
    KFOR_LANES(mask, l)
    {
        unsigned char *p = kmem(w, in, l, KS_SHARED, a[l] + (uint64_t)(int64_t)off_lo(in), size, true);
        if (!p)
            return;
        for (unsigned k = 0; k < n; ++k) {
            uint64_t v = KSRC(w, in, 2 + k)[l], old = 0;
            if (in->mods) {
                memcpy(&old, p + k * esz, esz);
                v = red_apply(in->mods, (ktype)in->type, old, v);
            }
            memcpy(p + k * esz, &v, esz);
        }
        uint64_t *mb = mbar_at(w, in, l, mbr[l] + (uint64_t)(int64_t)off_hi(in));
        if (!mb)
            return;
        struct mbar m = mb_unpack(*mb);
        m.tx -= (int64_t)size;
        mb_settle(&m);
        *mb = mb_pack(m);
    }
    mb_touch(w);
    if (w->b->cluster)
        w->b->cluster->epoch++;
}

static bool lower_async_store(struct klower *lw, const struct kparsed *p, struct kinsn *in, bool red)
{
    if (!kp_has(p, KM_async))
        return kl_refuse(lw, "unknown or unsupported instruction '%s'", p->text);
    if (!kp_has(p, KM_shared__cluster) || !kp_has(p, KM_mbarrier__complete_tx__bytes))
        return kl_refuse(lw, "'%s': %s.async writes .shared::cluster and completes on .mbarrier::complete_tx::bytes",
                         p->text, red ? "red" : "st");
    uint32_t op = RA_NONE;
    if (red) {
        static const struct { kmod m; uint32_t op; } ops[] = {
            {KM_add, RA_ADD}, {KM_min, RA_MIN}, {KM_max, RA_MAX}, {KM_inc, RA_INC},
            {KM_dec, RA_DEC}, {KM_and, RA_AND}, {KM_or, RA_OR},   {KM_xor, RA_XOR},
        };
        for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); ++i)
            if (kp_has(p, ops[i].m))
                op = ops[i].op;
        if (op == RA_NONE)
            return kl_refuse(lw, "'%s': red.async takes .add, .min, .max, .inc, .dec, .and, .or or .xor", p->text);
    }
    ktype t = kl_type(p, 0);
    unsigned n = kp_has(p, KM_v4) ? 4 : kp_has(p, KM_v2) ? 2 : 1;
    bool ok_type = red ? (t == KT_U32 || t == KT_S32 || t == KT_B32 || (t == KT_U64 && op == RA_ADD))
                       : (t == KT_B32 || t == KT_B64 || t == KT_U32 || t == KT_S32 || t == KT_F32 || t == KT_F64);
    if (p->ntypes != 1 || !ok_type || (red && n != 1) || (n == 4 && ktype_size(t) == 8))
        return kl_refuse(lw, "'%s': this type or vector width is not one %s.async has", p->text, red ? "red" : "st");
    if ((op == RA_INC || op == RA_DEC) && t != KT_U32)
        return kl_refuse(lw, "'%s': .inc and .dec are .u32", p->text);
    if ((op == RA_AND || op == RA_OR || op == RA_XOR) && t != KT_B32)
        return kl_refuse(lw, "'%s': .and, .or and .xor are .b32", p->text);
    if ((op == RA_MIN || op == RA_MAX) && t == KT_B32)
        return kl_refuse(lw, "'%s': .min and .max are .u32 or .s32", p->text);
    if (p->nops != 3)
        return kl_refuse(lw, "'%s' takes [addr], value, [mbar]", p->text);
    int32_t ao, mo;
    if (!addr_operand(lw, p, 0, &in->src[0], &ao) || !addr_operand(lw, p, 2, &in->src[1], &mo))
        return false;
    if (!kl_store_value(lw, p, 1, t, n, &in->src[2]))
        return false;
    in->imm = pack_offs(ao, mo);
    in->type = (uint8_t)t;
    in->vec = (uint8_t)n;
    in->nsrc = (uint8_t)(2 + n);
    in->mods = op;
    in->space = KS_SHARED;
    in->exec = st_async_exec;
    return true;
}

static bool lower_st_async(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    return lower_async_store(lw, p, in, false);
}
static bool lower_red_async(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    return lower_async_store(lw, p, in, true);
}

const struct klower_entry kops_async[] = {
    {"cp", lower_cp}, /* cp.async..., cp.reduce.async.bulk */
    {"mbarrier", lower_mbarrier}, {"barrier", lower_barrier_cluster}, {"fence", lower_fence_async},
    {"st", lower_st_async}, {"red", lower_red_async}, /* clusters */
    {NULL, NULL},
};
