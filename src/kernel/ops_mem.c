/*
 * Loads, stores and addresses: ld, ldu, st (scalar and vector, every state space), cvta,
 * isspacep, prefetch. Every access goes through kmem, which turns an address outside the
 * state space's memory into CUDA_ERROR_ILLEGAL_ADDRESS and a misaligned one into
 * CUDA_ERROR_MISALIGNED_ADDRESS, as the GPU reports them.
 */
#include "kernel.h"

static inline uint64_t ext(uint64_t v, unsigned bytes, unsigned rbits, bool sign)
{
    unsigned bits = bytes * 8;
    if (sign && bits < 64)
        v = (uint64_t)((int64_t)(v << (64 - bits)) >> (64 - bits));
    return rbits >= 64 ? v : v & ((1ull << rbits) - 1);
}

/* One element of 1, 2, 4 or 8 bytes, with constant-size copies (a variable-size memcpy is a
 * library call per lane). The host is little-endian: the low bytes are the value. */
static inline uint64_t load_le(const unsigned char *p, unsigned size)
{
    switch (size) {
    case 1: return *p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}
static inline void store_le(unsigned char *p, uint64_t v, unsigned size)
{
    switch (size) {
    case 1: *p = (unsigned char)v; break;
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

static inline uint64_t frame_offset(const struct kwarp *w, const struct kinsn *in)
{
    return (uint64_t)in->imm + ((in->flags & KF_FRAME_LOCAL) ? w->top->local_off : 0);
}

static void op_ld(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const uint64_t *a = KSRC(w, in, 0);
    unsigned esz = ktype_size((ktype)in->type), n = in->vec;
    uint64_t off = frame_offset(w, in);
    unsigned rbits = in->mods & 0xff;
    bool sign = (in->mods & KLD_SIGNED) != 0;
    uint64_t *d[4];
    for (unsigned i = 0; i < n; ++i)
        d[i] = in->dst[i] != KOPND_NONE ? KDST(w, in, i) : NULL;
    bool atomic = (in->mods & KMEM_ATOMIC) != 0;
    KFOR_LANES(mask, l)
    {
        const unsigned char *p = kmem_fast(w, in, l, (kspace)in->space, a[l] + off, esz * n, false);
        if (!p)
            return;
        uint64_t v[4] = {0, 0, 0, 0};
        if (atomic && esz == 4)
            v[0] = atomic_load_explicit((_Atomic uint32_t *)(void *)p, memory_order_acquire);
        else if (atomic && esz == 8)
            v[0] = atomic_load_explicit((_Atomic uint64_t *)(void *)p, memory_order_acquire);
        else
            for (unsigned i = 0; i < n; ++i)
                v[i] = load_le(p + (size_t)i * esz, esz);
        for (unsigned i = 0; i < n; ++i)
            if (d[i])
                d[i][l] = ext(v[i], esz, rbits, sign);
    }
    if (in->mods & KLD_ACQUIRE)
        atomic_thread_fence(memory_order_acquire);
}

static void op_st(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const uint64_t *a = KSRC(w, in, 0);
    unsigned esz = ktype_size((ktype)in->type), n = in->vec;
    uint64_t off = frame_offset(w, in);
    const uint64_t *s[4];
    for (unsigned i = 0; i < n; ++i)
        s[i] = KSRC(w, in, i + 1);
    if (in->mods & KST_RELEASE)
        atomic_thread_fence(memory_order_release);
    bool atomic = (in->mods & KMEM_ATOMIC) != 0;
    KFOR_LANES(mask, l)
    {
        unsigned char *p = kmem_fast(w, in, l, (kspace)in->space, a[l] + off, esz * n, true);
        if (!p)
            return;
        if (atomic && esz == 4)
            atomic_store_explicit((_Atomic uint32_t *)(void *)p, (uint32_t)s[0][l], memory_order_release);
        else if (atomic && esz == 8)
            atomic_store_explicit((_Atomic uint64_t *)(void *)p, s[0][l], memory_order_release);
        else
            for (unsigned i = 0; i < n; ++i)
                store_le(p + (size_t)i * esz, s[i][l], esz);
    }
}

static kspace space_of(const struct kparsed *p, bool *ok)
{
    *ok = true;
    if (kp_has(p, KM_global))
        return KS_GLOBAL;
    if (kp_has(p, KM_shared) || kp_has(p, KM_shared__cta))
        return KS_SHARED;
    if (kp_has(p, KM_local))
        return KS_LOCAL;
    if (kp_has(p, KM_const))
        return KS_CONST;
    if (kp_has(p, KM_param))
        return KS_PARAM_KERNEL; /* refined by the symbol */
    if (kp_has(p, KM_shared__cluster))
        return KS_SHARED; /* clusters: the block's own window and, by the address's top bits, the others' */
    return KS_GENERIC;
}

/* The address operand: base slot, offset, and the space once a symbol refines it. */
static bool lower_address(struct klower *lw, const struct kparsed *p, uint32_t i, struct kinsn *in, kspace *space)
{
    const struct kparsed_op *op = &p->ops[i];
    if (op->kind != KO_ADDR)
        return kl_refuse(lw, "'%s': operand %u must be an address [..]", p->text, i + 1);
    if (op->has_base && op->symbol && op->symbol->kind == KSYM_PARAM) {
        if (*space != KS_PARAM_KERNEL && *space != KS_GENERIC)
            return kl_refuse(lw, "'%s': '%s' is a parameter, not in this state space", p->text, op->sym);
        if (*space == KS_GENERIC)
            return kl_refuse(lw, "'%s': a generic access to parameter '%s' (take its address with cvta.param)",
                             p->text, op->sym);
        *space = op->symbol->space; /* a kernel's or the frame's parameters */
    } else if (*space == KS_PARAM_KERNEL && op->has_base && !op->symbol) {
        /* ld.param [reg]: an address from mov of a kernel parameter */
    } else if (op->has_base && op->symbol && op->symbol->kind == KSYM_VAR) {
        kspace vs = op->symbol->space;
        if (*space == KS_GENERIC) {
            if (vs == KS_SHARED || vs == KS_LOCAL)
                return kl_refuse(lw, "'%s': a generic access through the name of .%s variable '%s' is not implemented",
                                 p->text, vs == KS_SHARED ? "shared" : "local", op->sym);
        } else if (vs != *space && !(vs == KS_GLOBAL && *space == KS_CONST) && !(vs == KS_CONST && *space == KS_GLOBAL)) {
            return kl_refuse(lw, "'%s': variable '%s' is not in this instruction's state space", p->text, op->sym);
        }
        if (vs == KS_LOCAL)
            in->flags |= KF_FRAME_LOCAL;
    }
    in->src[0] = op->has_base ? op->slot : kl_const(lw, 0);
    in->imm = op->imm;
    return true;
}

/* .volatile and the memory model's orders make a scalar access one atomic host access: other
 * blocks (other threads) may write the word at the same time, as in a spin-wait on a flag. */
static bool ordered(const struct kparsed *p)
{
    return kp_has(p, KM_volatile) || kp_has(p, KM_relaxed) || kp_has(p, KM_acquire) || kp_has(p, KM_release);
}

static unsigned vec_of(const struct kparsed *p) { return kp_has(p, KM_v4) ? 4 : kp_has(p, KM_v2) ? 2 : kp_has(p, KM_v8) ? 8 : 1; }

static bool lower_ld(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    bool ok;
    kspace space = space_of(p, &ok);
    if (!ok)
        return kl_refuse(lw, "'%s': the cluster's shared memory is not implemented", p->text);
    ktype t = kl_type(p, 0);
    unsigned n = vec_of(p);
    if (p->ntypes != 1 || t == KT_PRED || t == KT_B128 || n > 4)
        return kl_refuse(lw, "'%s': this type or vector width is not implemented", p->text);
    /* isa (issue 25): .L2::cache_hint takes a cache policy (createpolicy's) as a last operand, a
     * hint the software device has no use for */
    bool hint = kp_has(p, KM_L2__cache_hint) && p->nops == 3 && p->ops[2].kind == KO_REG;
    if (p->nops != (hint ? 3u : 2u))
        return kl_refuse(lw, "'%s' takes a destination and an address", p->text);
    if (!lower_address(lw, p, 1, in, &space))
        return false;
    const struct kparsed_op *d = &p->ops[0];
    unsigned rbits = 64;
    if (n == 1) {
        if (!kl_dst(lw, p, 0, &in->dst[0]))
            return false;
        if (d->kind == KO_REG && d->type != KT_NONE)
            rbits = ktype_size(d->type) * 8;
    } else {
        if (d->kind != KO_VEC || d->nvec != n)
            return kl_refuse(lw, "'%s': the destination must be a vector of %u registers", p->text, n);
        for (unsigned i = 0; i < n; ++i)
            in->dst[i] = d->vec[i];
        rbits = d->vec_type[0] != KT_NONE ? ktype_size(d->vec_type[0]) * 8 : 64;
    }
    if (rbits < ktype_size(t) * 8)
        rbits = ktype_size(t) * 8;
    in->exec = op_ld;
    in->type = (uint8_t)t;
    in->space = (uint8_t)space;
    in->vec = (uint8_t)n;
    in->ndst = (uint8_t)n;
    in->mods = rbits | (ktype_signed(t) ? KLD_SIGNED : 0) | (kp_has(p, KM_acquire) ? KLD_ACQUIRE : 0) |
               (n == 1 && ordered(p) ? KMEM_ATOMIC : 0);
    return true;
}

static bool lower_st(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (kp_has(p, KM_async)) { /* st.async: ops_async.c's (clusters) */
        lw->why[0] = 0;
        return false;
    }
    bool ok;
    kspace space = space_of(p, &ok);
    if (!ok)
        return kl_refuse(lw, "'%s': the cluster's shared memory is not implemented", p->text);
    ktype t = kl_type(p, 0);
    unsigned n = vec_of(p);
    if (p->ntypes != 1 || t == KT_PRED || t == KT_B128 || n > 4)
        return kl_refuse(lw, "'%s': this type or vector width is not implemented", p->text);
    bool hint = kp_has(p, KM_L2__cache_hint) && p->nops == 3 && p->ops[2].kind == KO_REG; /* isa: the policy */
    if (p->nops != (hint ? 3u : 2u))
        return kl_refuse(lw, "'%s' takes an address and a source", p->text);
    if (!lower_address(lw, p, 0, in, &space))
        return false;
    if (space == KS_PARAM_KERNEL)
        return kl_refuse(lw, "'%s': kernel parameters are read-only", p->text);
    if (space == KS_CONST)
        return kl_refuse(lw, "'%s': the constant space is read-only", p->text);
    if (!kl_store_value(lw, p, 1, t, n, &in->src[1]))
        return false;
    in->exec = op_st;
    in->type = (uint8_t)t;
    in->space = (uint8_t)space;
    in->vec = (uint8_t)n;
    in->nsrc = (uint8_t)(n + 1);
    in->mods = (kp_has(p, KM_release) ? KST_RELEASE : 0) | (n == 1 && ordered(p) ? KMEM_ATOMIC : 0);
    return true;
}

/* ---- cvta ---- */
static uint64_t window_base(const struct kwarp *w, kspace space, uint32_t lane)
{
    switch (space) {
    case KS_SHARED:
        return (uint64_t)(uintptr_t)w->b->shared;
    case KS_LOCAL:
        return (uint64_t)(uintptr_t)(w->local + (size_t)lane * w->local_stride);
    case KS_PARAM_KERNEL:
        return (uint64_t)(uintptr_t)w->b->l->params;
    default:
        return 0; /* global and const addresses are generic ones */
    }
}

/* clusters: a shared address of another block of the cluster (its rank, counted from this
 * block, in the top bits) and the generic address of the same byte, both ways. An address that
 * names no block of the cluster converts as the block's own window would. */
static uint64_t cluster_cvta(const struct kwarp *w, bool to, uint64_t a)
{
    const struct kblock *b = w->b;
    if (to) {
        uint64_t off;
        const struct kblock *o = kcluster_window(b, a, &off);
        if (o)
            return off | (uint64_t)((o->rank - b->rank) & 0xff) << KCLUSTER_SHIFT;
        return a - (uint64_t)(uintptr_t)b->shared;
    }
    const unsigned char *h = a >> KCLUSTER_SHIFT ? kcluster_shared(b, a, 1) : NULL;
    return h ? (uint64_t)(uintptr_t)h : a + (uint64_t)(uintptr_t)b->shared;
}

static void op_cvta(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0);
    kspace space = (kspace)in->space;
    bool to = in->mods & 1;
    uint64_t off = (in->flags & KF_FRAME_LOCAL) ? w->top->local_off : 0;
    uint64_t m = (in->mods & 2) ? 0xffffffffu : ~0ull;
    if (space == KS_SHARED && w->b->cluster) {
        KFOR_LANES(mask, l)
        d[l] = cluster_cvta(w, to, a[l]) & m;
        return;
    }
    KFOR_LANES(mask, l)
    {
        uint64_t base = window_base(w, space, l);
        d[l] = (to ? a[l] - base : a[l] + off + base) & m;
    }
}

static bool lower_cvta(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    bool ok;
    kspace space = space_of(p, &ok);
    ktype t = kl_type(p, 0);
    if (!ok || space == KS_GENERIC || (t != KT_U64 && t != KT_U32))
        return kl_refuse(lw, "'%s': cvta{.to}.space.u64 (or .u32) only", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]))
        return false;
    const struct kparsed_op *s = p->nops == 2 ? &p->ops[1] : NULL;
    if (s && s->kind == KO_SYM && s->base_is_local_sym) {
        in->src[0] = s->slot;
        in->flags |= KF_FRAME_LOCAL;
    } else if (s && s->kind == KO_SYM && s->symbol && s->symbol->kind == KSYM_PARAM) {
        if (s->symbol->space != KS_PARAM_KERNEL)
            return kl_refuse(lw, "'%s': the address of a .func parameter cannot be taken", p->text);
        in->src[0] = s->slot;
    } else if (!kl_src(lw, p, 1, t, &in->src[0])) {
        return false;
    }
    in->space = (uint8_t)space;
    in->mods = (kp_has(p, KM_to) ? 1u : 0) | (t == KT_U32 ? 2u : 0);
    in->exec = op_cvta;
    return true;
}

static void op_isspacep(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0);
    kspace space = (kspace)in->space;
    const struct kaddr_space *as = w->b->l->space;
    uintptr_t sh = (uintptr_t)w->b->shared;
    KFOR_LANES(mask, l)
    {
        uint64_t x = a[l], off;
        bool in_shared = x >= sh && x - sh < w->b->shared_size;
        /* clusters: .shared::cluster holds every window of the cluster, .shared{::cta} the own */
        if (!in_shared && (in->mods & 1) && kcluster_window(w->b, x, &off))
            in_shared = true;
        uintptr_t lb = (uintptr_t)w->local + (size_t)l * w->local_stride;
        bool in_local = w->local && x >= lb && x - lb < w->local_stride;
        bool r;
        uintptr_t lo, hi;
        switch (space) {
        case KS_SHARED: r = in_shared; break;
        case KS_LOCAL: r = in_local; break;
        case KS_PARAM_KERNEL: r = x >= (uintptr_t)w->b->l->params && x - (uintptr_t)w->b->l->params < w->b->l->fn->param_bytes; break;
        default: r = !in_shared && !in_local && as->extent(as, (uintptr_t)x, 1, false, &lo, &hi); break;
        }
        d[l] = r;
    }
}

static bool lower_isspacep(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    bool ok;
    kspace space = space_of(p, &ok);
    in->mods = kp_has(p, KM_shared__cluster); /* clusters: any block's window of the cluster */
    if (!ok || space == KS_GENERIC)
        return kl_refuse(lw, "'%s' needs a state space", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, KT_U64, &in->src[0]))
        return false;
    in->space = (uint8_t)space;
    in->exec = op_isspacep;
    return true;
}

static bool lower_prefetch(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    (void)lw;
    (void)p;
    in->kind = KK_NOP; /* a cache hint: host memory has the host's caches */
    return true;
}

const struct klower_entry kops_mem[] = {
    {"ld", lower_ld},     {"ldu", lower_ld},          {"st", lower_st},           {"cvta", lower_cvta},
    {"isspacep", lower_isspacep}, {"prefetch", lower_prefetch}, {"prefetchu", lower_prefetch}, {NULL, NULL},
};

/* ---- What the native tier writes as C (native_emit.c, which reads the encodings in kernel.h) ---- */
const struct knat_desc knat_mem[] = {
    {op_ld, KN_LD, 1, NULL},
    {op_st, KN_ST, 2, NULL},
    {op_cvta, KN_CVTA, 1, NULL},
    {NULL, 0, 0, NULL},
};
