/*
 * Control flow: bra, brx.idx, call, ret, exit, trap, and the CTA barriers (bar, barrier). The
 * scheduler (exec.c) runs them; lowering only records targets, call sites and barrier forms.
 */
#include "kernel.h"

#include <stdlib.h>

static bool lower_bra(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (p->nops != 1 || p->ops[0].kind != KO_LABEL)
        return kl_refuse(lw, "'%s' takes one label", p->text);
    in->kind = KK_BRA;
    in->target = p->ops[0].label;
    return true;
}

static bool lower_brx(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (!kp_has(p, KM_idx))
        return kl_refuse(lw, "'%s': only brx.idx exists", p->text);
    if (p->nops != 2 || p->ops[1].kind != KO_LABEL || !p->ops[1].symbol || !p->ops[1].symbol->ntargets)
        return kl_refuse(lw, "'%s' takes an index and a .branchtargets label", p->text);
    if (!kl_src(lw, p, 0, KT_U32, &in->src[0]))
        return false;
    uint32_t n = p->ops[1].symbol->ntargets;
    uint32_t *targets = calloc(n, sizeof(uint32_t));
    if (!targets)
        return kl_refuse(lw, "out of host memory");
    in->kind = KK_BRX;
    in->aux = targets;
    in->target = n;
    return true;
}

static int builtin_of(const char *name)
{
    if (strcmp(name, "vprintf") == 0)
        return KB_VPRINTF;
    if (strcmp(name, "__assertfail") == 0)
        return KB_ASSERTFAIL;
    if (strcmp(name, "malloc") == 0)
        return KB_MALLOC;
    if (strcmp(name, "free") == 0)
        return KB_FREE;
    if (strcmp(name, "cudaGraphSetConditional") == 0)
        return KB_SET_CONDITIONAL;
    /* link part: C++'s operator new and delete (new[], delete[], sized delete), which clang
     * calls where nvcc's headers call malloc and free themselves: the heap's too. */
    if (strcmp(name, "_Znwm") == 0 || strcmp(name, "_Znam") == 0)
        return KB_MALLOC;
    if (strcmp(name, "_ZdlPv") == 0 || strcmp(name, "_ZdaPv") == 0 || strcmp(name, "_ZdlPvm") == 0 ||
        strcmp(name, "_ZdaPvm") == 0)
        return KB_FREE;
    return kcdp_builtin_of(name, NULL); /* grid (issue 25): the device runtime (cdp.c) */
}

/* A .param symbol of this frame's call-site area: its offset. */
static bool frame_param(struct klower *lw, const struct kparsed_op *op, uint32_t *offset)
{
    if (op->kind != KO_SYM || !op->symbol || op->symbol->kind != KSYM_PARAM || op->symbol->space != KS_PARAM_FRAME)
        return false;
    *offset = (uint32_t)op->symbol->offset;
    (void)lw;
    return true;
}

/* call{.uni} [(ret),] target [, (args)] [, prototype]; */
static bool lower_call(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    uint32_t i = 0;
    struct kcall *c = calloc(1, sizeof(*c));
    if (!c)
        return kl_refuse(lw, "out of host memory");
    in->aux = c;
    in->kind = KK_CALL;
    if (i < p->nops && p->ops[i].kind == KO_LIST) {
        const struct kparsed_op *rl = &p->ops[i++];
        if (rl->nvec > 1)
            return kl_refuse(lw, "'%s': more than one return value", p->text);
        if (rl->nvec == 1) {
            if (!frame_param(lw, &p->list[rl->label], &c->ret_offset))
                return kl_refuse(lw, "'%s': the return value must be a .param of the calling function", p->text);
            c->has_ret = true;
        }
    }
    if (i >= p->nops)
        return kl_refuse(lw, "'%s' names no function", p->text);
    const struct kparsed_op *t = &p->ops[i++];
    if (t->kind == KO_SYM && t->symbol && t->symbol->kind == KSYM_FUNC) {
        c->callee = t->symbol->fn;
        if (c->callee->entry)
            return kl_refuse(lw, "'%s': %s is a kernel (.entry), which cannot be called", p->text, c->callee->name);
        c->builtin = builtin_of(c->callee->name);
        if (c->builtin != KB_NONE && c->callee->defined)
            c->builtin = KB_NONE; /* the module defines its own */
    } else if (t->kind == KO_REG) {
        in->src[0] = t->slot; /* through a register: a function's address */
    } else {
        return kl_refuse(lw, "'%s': the call target must be a function or a register", p->text);
    }
    if (i < p->nops && p->ops[i].kind == KO_LIST) {
        const struct kparsed_op *al = &p->ops[i++];
        for (uint32_t a = 0; a < al->nvec; ++a)
            if (!frame_param(lw, &p->list[al->label + a], &c->arg_offset[a]))
                return kl_refuse(lw, "'%s': argument %u must be a .param of the calling function", p->text, a + 1);
        c->nargs = al->nvec;
    }
    /* A prototype label (indirect calls) may follow; nothing to check here. */
    if (c->callee && c->builtin == KB_NONE && c->callee->defined) {
        if (c->nargs != c->callee->nparams)
            return kl_refuse(lw, "'%s': %u arguments for %s, which takes %u", p->text, c->nargs, c->callee->name,
                             c->callee->nparams);
    }
    if (c->builtin == KB_VPRINTF && c->nargs != 2)
        return kl_refuse(lw, "'%s': vprintf takes 2 arguments", p->text);
    if (c->builtin == KB_SET_CONDITIONAL && c->nargs != 2)
        return kl_refuse(lw, "'%s': cudaGraphSetConditional takes 2 arguments", p->text);
    if (c->builtin == KB_ASSERTFAIL && c->nargs < 4)
        return kl_refuse(lw, "'%s': __assertfail takes 5 arguments", p->text);
    /* grid (issue 25): the device runtime's functions (cdp.c) */
    if (c->builtin == KB_CDP_DEVICE_SYNCHRONIZE)
        return kl_refuse(lw, "'%s': device-side cudaDeviceSynchronize was removed in CUDA 12 (dynamic parallelism "
                         "CDP2: nvcc 13 refuses it in device code); a tail launch (cudaStreamTailLaunch) runs after "
                         "the grid's work", p->text);
    if (c->builtin >= KB_CDP_FIRST) {
        uint32_t n = 0;
        kcdp_builtin_of(c->callee->name, &n);
        if (c->nargs != n || !c->has_ret)
            return kl_refuse(lw, "'%s': %s takes %u arguments and returns a value", p->text, c->callee->name, n);
    }
    return true;
}

static bool lower_ret(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    (void)lw;
    (void)p;
    in->kind = KK_RET;
    return true;
}

static bool lower_exit(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    (void)lw;
    (void)p;
    in->kind = KK_EXIT;
    return true;
}

static bool lower_trap(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    (void)lw;
    (void)p;
    in->kind = KK_TRAP;
    return true;
}

/* bar{.cta}.sync / .arrive / .red and barrier{.cta}.sync{.aligned} / .arrive; bar.warp.sync is
 * the warp family's. */
static bool lower_bar(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (kp_has(p, KM_warp) || kp_has(p, KM_cluster)) {
        lw->why[0] = 0;
        return false; /* not mine: bar.warp.sync (ops_warp.c), barrier.cluster (ops_async.c) */
    }
    in->kind = KK_BAR;
    uint32_t first = 0;
    if (kp_has(p, KM_red)) {
        if (kp_has(p, KM_popc))
            in->flags |= KF_BAR_RED_POPC;
        else if (kp_has(p, KM_and))
            in->flags |= KF_BAR_RED_AND;
        else if (kp_has(p, KM_or))
            in->flags |= KF_BAR_RED_OR;
        else
            return kl_refuse(lw, "'%s': bar.red needs .popc, .and or .or", p->text);
        if (!kl_dst(lw, p, 0, &in->dst[0]))
            return false;
        first = 1;
        /* the predicate: last operand, maybe negated */
        if (p->nops < 3 || p->ops[p->nops - 1].kind != KO_REG)
            return kl_refuse(lw, "'%s' needs a predicate operand", p->text);
        in->src[2] = p->ops[p->nops - 1].slot;
        if (p->ops[p->nops - 1].neg)
            in->mods |= 1;
        if (p->nops == 4) {
            if (!kl_src(lw, p, 2, KT_U32, &in->src[1]))
                return false;
            in->flags |= KF_BAR_COUNT;
        }
    } else if (kp_has(p, KM_arrive)) {
        in->flags |= KF_BAR_ARRIVE;
        if (p->nops != 2)
            return kl_refuse(lw, "'%s': bar.arrive needs a thread count", p->text);
    } else if (!kp_has(p, KM_sync) && !(p->ntypes == 0 && p->nmods == 0)) {
        return kl_refuse(lw, "'%s': only sync, arrive and red barriers are implemented", p->text);
    }
    if (!kl_src(lw, p, first, KT_U32, &in->src[0]))
        return false;
    if (!(in->flags & KF_BAR_RED_POPC) && !(in->flags & (KF_BAR_RED_AND | KF_BAR_RED_OR)) && p->nops == 2) {
        if (!kl_src(lw, p, 1, KT_U32, &in->src[1]))
            return false;
        in->flags |= KF_BAR_COUNT;
    }
    return true;
}

const struct klower_entry kops_control[] = {
    {"bra", lower_bra},   {"brx", lower_brx},         {"call", lower_call}, {"ret", lower_ret},
    {"exit", lower_exit}, {"trap", lower_trap},       {"bar", lower_bar},   {"barrier", lower_bar},
    {NULL, NULL},
};
