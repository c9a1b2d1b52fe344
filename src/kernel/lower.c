/*
 * Lowering: from a parsed instruction to a decoded one, through the family that claims its
 * opcode. The helpers here turn operands into slots: immediates become constant-pool slots
 * converted to the operand's type, so that handlers only ever read slots.
 */
#include "kernel.h"

#include <stdarg.h>
#include <stdio.h>

static const struct klower_entry *const families[] = {kops_control, kops_misc, kops_int, kops_float,
                                                      kops_cvt,     kops_mem,  kops_atom, kops_warp,
                                                      kops_tex,     kops_surf,
                                                      /* mma */ kops_mma,
                                                      /* async copies and barriers */ kops_async,
                                                      /* isa (issue 25) */ kops_isa};

bool klower_run(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    bool claimed = false;
    for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); ++f) {
        for (const struct klower_entry *e = families[f]; e->opcode; ++e) {
            if (strcmp(e->opcode, p->opcode) != 0)
                continue;
            claimed = true;
            lw->why[0] = 0;
            kinsn_reset(in);
            if (e->lower(lw, p, in))
                return true;
            if (lw->why[0] || lw->ps->err)
                return false; /* refused by the family that owns it */
        }
    }
    if (claimed)
        snprintf(lw->why, sizeof(lw->why), "'%s' with these types or modifiers is not implemented by the software device",
                 p->text);
    else
        snprintf(lw->why, sizeof(lw->why), "unknown or unsupported instruction '%s'", p->text);
    return false;
}

void kinsn_reset(struct kinsn *in)
{
    kopnd guard = in->guard;
    uint32_t flags = in->flags & KF_GUARD_NEG;
    uint32_t line = in->line;
    const char *name = in->name;
    memset(in, 0, sizeof(*in));
    in->guard = guard;
    in->flags = flags;
    in->line = line;
    in->name = name;
    in->kind = KK_OP;
    in->vec = 1;
    for (int i = 0; i < 4; ++i)
        in->dst[i] = KOPND_NONE;
    for (int i = 0; i < 6; ++i)
        in->src[i] = KOPND_NONE;
}

bool kl_refuse(struct klower *lw, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lw->why, sizeof(lw->why), fmt, ap);
    va_end(ap);
    if (!lw->why[0])
        snprintf(lw->why, sizeof(lw->why), "refused");
    return false;
}

kopnd kl_const(struct klower *lw, uint64_t bits) { return kfunc_const(lw->ps, bits); }

static uint64_t mask_of(unsigned bytes) { return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1; }

/* Round-to-nearest-even conversions of a double to half and bfloat16 bits, for literals. */
static uint64_t double_to_f16_bits(double d)
{
    float f = (float)d;
    uint32_t x = (uint32_t)kbits32(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t e = (int32_t)((x >> 23) & 0xff) - 127 + 15;
    uint32_t m = x & 0x7fffffu;
    if (((x >> 23) & 0xff) == 0xff)
        return sign | 0x7c00u | (m ? 0x200u : 0);
    if (e >= 31)
        return sign | 0x7c00u;
    if (e <= 0) {
        if (e < -10)
            return sign;
        m |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return sign | h;
    }
    uint32_t h = ((uint32_t)e << 10) | (m >> 13), rem = m & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++;
    return sign | h;
}

static uint64_t double_to_bf16_bits(double d)
{
    uint32_t x = (uint32_t)kbits32((float)d);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (x >> 16) | 0x40u;
    uint32_t rem = x & 0xffffu;
    uint32_t h = x >> 16;
    if (rem > 0x8000u || (rem == 0x8000u && (h & 1)))
        h++;
    return h;
}

bool kl_imm_bits(struct klower *lw, const struct kparsed_op *op, ktype type, uint64_t *out)
{
    unsigned size = ktype_size(type);
    if (op->is_float) {
        double d = op->fimm;
        switch (type) {
        case KT_F32:
            *out = op->type == KT_F32 ? op->fbits : kbits32((float)d);
            return true;
        case KT_F64:
            *out = op->type == KT_F64 ? op->fbits : kbits64(op->type == KT_F32 ? (double)kf32(op->fbits) : d);
            return true;
        case KT_F16:
            *out = double_to_f16_bits(op->type == KT_F32 ? (double)kf32(op->fbits) : d);
            return true;
        case KT_BF16:
            *out = double_to_bf16_bits(op->type == KT_F32 ? (double)kf32(op->fbits) : d);
            return true;
        default:
            /* A 0f/0d literal as bits for a bit-size type (mov.b32 %r, 0f3F800000). */
            if (op->type == KT_F32 && size == 4) {
                *out = op->fbits;
                return true;
            }
            if (op->type == KT_F64 && size == 8) {
                *out = op->fbits;
                return true;
            }
            return kl_refuse(lw, "a floating-point literal for the .%s operand of '%s'", ktype_name(type), "");
        }
    }
    uint64_t v = (uint64_t)op->imm;
    if (type == KT_F32 && !op->is_float) {
        *out = kbits32((float)op->imm);
        return true;
    }
    if (type == KT_F64 && !op->is_float) {
        *out = kbits64((double)op->imm);
        return true;
    }
    if (type == KT_PRED) {
        *out = v != 0;
        return true;
    }
    *out = v & mask_of(size ? size : 8);
    return true;
}

bool kl_store_value(struct klower *lw, const struct kparsed *p, uint32_t i, ktype type, unsigned n, kopnd *out)
{
    if (n == 1)
        return kl_src(lw, p, i, type, &out[0]);
    const struct kparsed_op *s = i < p->nops ? &p->ops[i] : NULL;
    if (!s || s->kind != KO_VEC || s->nvec != n)
        return kl_refuse(lw, "'%s': the source must be a vector of %u registers", p->text, n);
    for (unsigned k = 0; k < n; ++k) {
        if (s->vec[k] == KOPND_NONE)
            return kl_refuse(lw, "'%s': '_' in a stored vector", p->text);
        out[k] = s->vec[k];
    }
    return true;
}

bool kl_src(struct klower *lw, const struct kparsed *p, uint32_t i, ktype type, kopnd *out)
{
    if (i >= p->nops)
        return kl_refuse(lw, "'%s' needs more operands", p->text);
    const struct kparsed_op *op = &p->ops[i];
    switch (op->kind) {
    case KO_REG:
        if (op->neg)
            return kl_refuse(lw, "'%s': '!' is not allowed on operand %u", p->text, i + 1);
        *out = op->slot;
        return true;
    case KO_IMM: {
        uint64_t bits;
        if (!kl_imm_bits(lw, op, type, &bits))
            return kl_refuse(lw, "'%s': operand %u: a floating-point literal where .%s is expected", p->text, i + 1,
                             ktype_name(type));
        *out = kl_const(lw, bits);
        return !lw->ps->err;
    }
    case KO_SPECIAL:
        if (KOPND_INDEX(op->slot) >= KSP_COUNT)
            return kl_refuse(lw, "'%s': a timer register can only be read with mov", p->text);
        if (KOPND_INDEX(op->slot) == KSP_envreg1 || KOPND_INDEX(op->slot) == KSP_envreg2)
            lw->fn->module->reads_workspace = true; /* grid (issue 25): cooperative_groups' grid */
        *out = op->slot;
        return true;
    case KO_SYM:
        if (op->base_is_local_sym)
            return kl_refuse(lw, "'%s': the address of .local '%s' can only be taken with mov", p->text, op->sym);
        *out = op->slot;
        return true;
    default:
        return kl_refuse(lw, "'%s': operand %u is not a value", p->text, i + 1);
    }
}

bool kl_dst(struct klower *lw, const struct kparsed *p, uint32_t i, kopnd *out)
{
    if (i >= p->nops)
        return kl_refuse(lw, "'%s' needs more operands", p->text);
    const struct kparsed_op *op = &p->ops[i];
    if (op->kind == KO_SINK) {
        *out = KOPND_REG(kfunc_new_reg(lw->ps));
        return true;
    }
    if (op->kind != KO_REG)
        return kl_refuse(lw, "'%s': operand %u must be a register", p->text, i + 1);
    if (op->neg)
        return kl_refuse(lw, "'%s': '!' on a destination", p->text);
    *out = op->slot;
    return true;
}

/* The type an instruction names last (add.s32: s32; cvt.f32.s32: the first is the
 * destination's). */
ktype kl_type(const struct kparsed *p, uint32_t i) { return i < p->ntypes ? p->types[i] : KT_NONE; }
