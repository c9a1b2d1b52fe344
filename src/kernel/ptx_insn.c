/*
 * One PTX instruction: `[@[!]p] opcode{.suffix} operand, ... ;` read into a struct kparsed,
 * then lowered by the family that claims the opcode (lower.c). An instruction no family
 * implements is INVALID_PTX naming it: the engine never guesses.
 */
#include "kernel.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const special_names[] = {
#define X(e, s) s,
    KSPECIALS(X)
#undef X
};

static const char *const mod_names[] = {
#define X(m) #m,
    KMODS(X)
#undef X
};
const char *kmod_name(kmod m) { return m < KM_COUNT ? mod_names[m] : "?"; }

/* A suffix of the opcode: a type or a modifier ("::" written as "__"). */
static bool classify_suffix(struct kparser *ps, struct kparsed *p, const char *s, size_t n)
{
    char buf[48];
    if (n == 0 || n >= sizeof(buf))
        return kparse_error(ps, "malformed opcode suffix '.%.*s'", (int)n, s);
    size_t j = 0;
    for (size_t i = 0; i < n; ++i) {
        if (s[i] == ':' && i + 1 < n && s[i + 1] == ':') {
            buf[j++] = '_';
            buf[j++] = '_';
            i++;
        } else {
            buf[j++] = s[i];
        }
        if (j >= sizeof(buf) - 2)
            return kparse_error(ps, "malformed opcode suffix '.%.*s'", (int)n, s);
    }
    buf[j] = 0;
    if (j == 2 && buf[0] >= '1' && buf[0] <= '3' && buf[1] == 'd') { /* .1d .2d .3d: KM_d1 ... */
        buf[1] = buf[0];
        buf[0] = 'd';
    }
    for (int t = KT_PRED; t < KT_COUNT; ++t) {
        if (strcmp(buf, ktype_name((ktype)t)) == 0) {
            if (p->ntypes >= 4)
                return kparse_error(ps, "too many types on '%s'", p->opcode);
            p->types[p->ntypes++] = (ktype)t;
            return true;
        }
    }
    for (int m = 0; m < KM_COUNT; ++m) {
        if (strcmp(buf, mod_names[m]) == 0) {
            if (p->nmods >= 16)
                return kparse_error(ps, "too many modifiers on '%s'", p->opcode);
            p->mods[p->nmods++] = (kmod)m;
            return true;
        }
    }
    return kparse_error(ps, "unknown modifier '.%s' on '%s'", buf, p->opcode);
}

/* Interns a string in the module (instruction names outlive the PTX text). */
static const char *intern(struct kparser *ps, const char *s, size_t n)
{
    struct kmodule *m = ps->m;
    if (!m->names && !(m->names = khash_new()))
        return NULL;
    char *v = khash_get(m->names, s, n);
    if (v)
        return v;
    if (!(v = malloc(n + 1)))
        return NULL;
    memcpy(v, s, n);
    v[n] = 0;
    if (!khash_put(m->names, s, n, v, NULL)) {
        free(v);
        return NULL;
    }
    return v;
}

static bool special_reg(struct kparser *ps, struct kparsed_op *op)
{
    const struct ktok *t = &ps->tok;
    for (int i = 0; i < KSP_COUNT; ++i) {
        size_t n = strlen(special_names[i]);
        if (t->len == n + 1 && memcmp(t->s + 1, special_names[i], n) == 0) {
            op->kind = KO_SPECIAL;
            op->slot = KOPND_SPECIAL(i);
            /* isa: the 64-bit ones (PTX ISA, "Special Registers"): %gridid, %pmN_64,
             * %current_graph_exec; %is_explicit_cluster is a predicate. */
            op->type = i == KSP_gridid || i == KSP_current_graph_exec || (i >= KSP_pm0_64 && i <= KSP_pm7_64) ? KT_U64
                       : i == KSP_is_explicit_cluster                                                          ? KT_PRED
                                                                                                               : KT_U32;
            return true;
        }
    }
    /* Read at run time: the timers (isa: %clock_hi, the upper half of %clock64, appended). */
    static const char *const timers[] = {"clock",          "clock64",        "globaltimer", "globaltimer_lo",
                                         "globaltimer_hi", "clock_hi"};
    for (int i = 0; i < 6; ++i) {
        if (t->len == strlen(timers[i]) + 1 && memcmp(t->s + 1, timers[i], t->len - 1) == 0) {
            op->kind = KO_SPECIAL;
            op->slot = KOPND_SPECIAL(KSP_COUNT + i);
            op->type = i == 1 || i == 2 ? KT_U64 : KT_U32;
            return true;
        }
    }
    return false;
}

/* A name operand: register, special register, symbol or label. */
static bool parse_name(struct kparser *ps, struct kparsed_op *op)
{
    const struct ktok *t = &ps->tok;
    if (t->len == 1 && t->s[0] == '_') {
        op->kind = KO_SINK;
        return true;
    }
    struct ksym *s = kparse_lookup(ps, t->s, t->len);
    if (!s) {
        if (t->s[0] == '%' && special_reg(ps, op))
            return true;
        /* isa (issue 25): WARP_SZ, the PTX ISA's predefined identifier ("Predefined
         * Identifiers"): the warp's size, a constant usable wherever an immediate is. */
        if (t->len == 7 && memcmp(t->s, "WARP_SZ", 7) == 0) {
            op->kind = KO_IMM;
            op->imm = KLANES;
            return true;
        }
        /* A label defined later in the function. */
        op->kind = KO_LABEL;
        op->label = UINT32_MAX;
        op->sym = intern(ps, t->s, t->len);
        return op->sym != NULL || kparse_error(ps, "out of memory");
    }
    op->symbol = s;
    op->sym = intern(ps, t->s, t->len);
    switch (s->kind) {
    case KSYM_REG:
        op->kind = KO_REG;
        op->type = s->type;
        op->slot = KOPND_REG(s->slot);
        return true;
    case KSYM_LABEL:
        op->kind = KO_LABEL;
        op->label = s->label;
        return true;
    case KSYM_VAR:
    case KSYM_PARAM:
    case KSYM_FUNC:
        op->kind = KO_SYM;
        op->sym_space = s->space;
        op->base_is_local_sym = s->kind == KSYM_VAR && s->space == KS_LOCAL;
        op->slot = kparse_sym_const(ps, s, 0);
        return true;
    }
    return false;
}

static bool parse_number(struct kparser *ps, struct kparsed_op *op, bool neg)
{
    const struct ktok *t = &ps->tok;
    op->kind = KO_IMM;
    if (t->kind == KTK_FLOAT) {
        op->is_float = true;
        op->fimm = neg ? -t->fval : t->fval;
        if (t->fbits32 || t->fbits64)
            op->fbits = t->ival ^ (neg ? (t->fbits32 ? 0x80000000ull : 0x8000000000000000ull) : 0);
        op->type = t->fbits32 ? KT_F32 : t->fbits64 ? KT_F64 : KT_NONE;
    } else {
        op->imm = (int64_t)(neg ? 0 - t->ival : t->ival);
    }
    klex_next(ps);
    return true;
}

static bool parse_vector(struct kparser *ps, struct kparsed_op *op);
/* isa (issue 25): the instruction whose operands are being read, for messages that name it. */
static OS_THREAD_LOCAL const char *insn_text;

/* The rest of a texture or surface address after `[handle`: `, {c0, ...}]` or `, c0]`. The
 * handle is a 64-bit register holding a texture or surface object (unified mode, what nvcc and
 * clang write for cudaTextureObject_t parameters). A .texref, .samplerref or .surfref name, or a
 * separate sampler operand (independent mode), is refused: CUDA 13's compilers never write them
 * (docs/kernels.md, "Textures and surfaces"). */
static bool parse_image_address(struct kparser *ps, struct kparsed_op *op, const struct kparsed_op *base)
{
    if (base->kind != KO_REG)
        return kparse_error(ps, "the texture or surface '%s' is not a register holding an object handle: .texref, "
                                ".samplerref and .surfref variables are not supported (CUDA 13 makes none)",
                            base->sym ? base->sym : "?");
    if (ktype_size(base->type) != 8)
        return kparse_error(ps, "a texture or surface handle must be a 64-bit register");
    op->image = true;
    klex_next(ps); /* ',' */
    if (ktok_punct(&ps->tok, '{')) {
        if (!parse_vector(ps, op))
            return false;
        op->kind = KO_ADDR; /* the vector is the address's coordinates */
    } else if (ps->tok.kind == KTK_WORD) {
        struct kparsed_op e = {0};
        if (!parse_name(ps, &e))
            return false;
        if (e.kind != KO_REG)
            return kparse_error(ps, "a separate sampler ('%.*s') needs .samplerref objects (independent texturing "
                                    "mode), which are not supported",
                                (int)ps->tok.len, ps->tok.s);
        klex_next(ps);
        if (ktok_punct(&ps->tok, ','))
            return kparse_error(ps, "a separate sampler operand (independent texturing mode) is not supported");
        op->vec[0] = e.slot;
        op->vec_type[0] = e.type;
        op->nvec = 1;
    } else {
        return kparse_error(ps, "expected the coordinates of a texture or surface access, found '%.*s'",
                            (int)ps->tok.len, ps->tok.s);
    }
    if (!ktok_punct(&ps->tok, ']'))
        return kparse_error(ps, "expected ']' after the coordinates, found '%.*s'", (int)ps->tok.len, ps->tok.s);
    klex_next(ps);
    return true;
}

/* [base], [base+imm], [base+-imm], [imm] */
static bool parse_address(struct kparser *ps, struct kparsed_op *op)
{
    klex_next(ps); /* '[' */
    op->kind = KO_ADDR;
    if (ps->tok.kind == KTK_WORD) {
        struct kparsed_op base = {0};
        if (!parse_name(ps, &base))
            return false;
        if (base.kind == KO_REG) {
            if (ktype_size(base.type) < 4 && base.type != KT_NONE)
                return kparse_error(ps, "an address register must be 32 or 64 bits");
            op->slot = base.slot;
        } else if (base.kind == KO_SYM) {
            op->slot = base.slot;
            op->sym_space = base.sym_space;
            op->base_is_local_sym = base.base_is_local_sym;
            op->symbol = base.symbol;
            op->sym = base.sym;
        } else {
            return kparse_error(ps, "'%.*s' cannot be an address", (int)ps->tok.len, ps->tok.s);
        }
        op->has_base = true;
        klex_next(ps);
        if (ktok_punct(&ps->tok, ','))
            return parse_image_address(ps, op, &base);
        if (ktok_punct(&ps->tok, '+') || ktok_punct(&ps->tok, '-')) {
            bool neg = ktok_punct(&ps->tok, '-');
            klex_next(ps);
            if (ktok_punct(&ps->tok, '-')) {
                neg = !neg;
                klex_next(ps);
            }
            uint64_t ofs = ps->tok.ival;
            if (ktok_is(&ps->tok, "WARP_SZ")) /* isa: the predefined identifier as an offset */
                ofs = KLANES;
            else if (ps->tok.kind != KTK_INT)
                return kparse_error(ps, "expected an offset in the address, found '%.*s'", (int)ps->tok.len,
                                    ps->tok.s);
            op->imm = (int64_t)(neg ? 0 - ofs : ofs);
            klex_next(ps);
        }
    } else if (ps->tok.kind == KTK_INT) {
        op->imm = (int64_t)ps->tok.ival;
        klex_next(ps);
    } else {
        return kparse_error(ps, "expected an address, found '%.*s'", (int)ps->tok.len, ps->tok.s);
    }
    if (!ktok_punct(&ps->tok, ']'))
        return kparse_error(ps, "expected ']' to close the address, found '%.*s'", (int)ps->tok.len, ps->tok.s);
    klex_next(ps);
    return true;
}

static bool parse_scalar(struct kparser *ps, struct kparsed_op *op);

static bool parse_operand(struct kparser *ps, struct kparsed_op *op)
{
    struct ktok *t = &ps->tok;
    if (ktok_punct(t, '[')) {
        return parse_address(ps, op);
    }
    if (ktok_punct(t, '{'))
        return parse_vector(ps, op);
    return parse_scalar(ps, op);
}

/* {a, b, c, d}: registers, sinks or immediates. */
static bool parse_vector(struct kparser *ps, struct kparsed_op *op)
{
    {
        klex_next(ps);
        op->kind = KO_VEC;
        while (!ktok_punct(&ps->tok, '}')) {
            if (op->nvec >= 8)
                return kparse_error(ps, "'%s': a vector operand has at most 8 elements", insn_text ? insn_text : "?");
            struct kparsed_op e = {0};
            if (ktok_is(&ps->tok, "WARP_SZ") && !kparse_lookup(ps, ps->tok.s, ps->tok.len)) {
                op->vec[op->nvec] = kfunc_const(ps, KLANES); /* isa: WARP_SZ as an element */
                op->vec_type[op->nvec++] = KT_NONE;
                klex_next(ps);
                if (ktok_punct(&ps->tok, ','))
                    klex_next(ps);
                else if (!ktok_punct(&ps->tok, '}'))
                    return kparse_error(ps, "expected ',' or '}' in the vector operand");
                continue;
            }
            if (ps->tok.kind == KTK_INT || ps->tok.kind == KTK_FLOAT) {
                /* An immediate element ({0, %rs2} packs a constant half): its bits. */
                uint64_t bits = ps->tok.kind == KTK_INT ? ps->tok.ival
                                : (ps->tok.fbits32 || ps->tok.fbits64) ? ps->tok.ival
                                                                        : kbits64(ps->tok.fval);
                op->vec[op->nvec] = kfunc_const(ps, bits);
                op->vec_type[op->nvec++] = KT_NONE;
                klex_next(ps);
                if (ktok_punct(&ps->tok, ','))
                    klex_next(ps);
                else if (!ktok_punct(&ps->tok, '}'))
                    return kparse_error(ps, "expected ',' or '}' in the vector operand");
                continue;
            }
            if (ps->tok.kind != KTK_WORD || !parse_name(ps, &e))
                return kparse_error(ps, "expected a register in the vector operand, found '%.*s'", (int)ps->tok.len,
                                    ps->tok.s);
            if (e.kind != KO_REG && e.kind != KO_SINK)
                return kparse_error(ps, "'%.*s' in a vector operand is not a register", (int)ps->tok.len, ps->tok.s);
            op->vec[op->nvec] = e.kind == KO_SINK ? KOPND_NONE : e.slot;
            op->vec_type[op->nvec++] = e.type;
            klex_next(ps);
            if (ktok_punct(&ps->tok, ','))
                klex_next(ps);
            else if (!ktok_punct(&ps->tok, '}'))
                return kparse_error(ps, "expected ',' or '}' in the vector operand");
        }
        klex_next(ps);
        return true;
    }
}

static bool parse_scalar(struct kparser *ps, struct kparsed_op *op)
{
    struct ktok *t = &ps->tok;
    bool neg = false;
    if (ktok_punct(t, '!')) {
        op->neg = true;
        klex_next(ps);
    } else if (ktok_punct(t, '-')) {
        neg = true;
        klex_next(ps);
    }
    if (t->kind == KTK_INT || t->kind == KTK_FLOAT) {
        if (op->neg)
            return kparse_error(ps, "'!' before a number");
        return parse_number(ps, op, neg);
    }
    if (t->kind == KTK_WORD) {
        if (neg)
            return kparse_error(ps, "'-' before '%.*s': negate with neg", (int)t->len, t->s);
        if (!parse_name(ps, op))
            return false;
        klex_next(ps);
        if (op->kind == KO_SYM && (ktok_punct(&ps->tok, '+') || ktok_punct(&ps->tok, '-'))) {
            /* sym+offset as a value (mov.u64 %rd, sym+8) */
            bool minus = ktok_punct(&ps->tok, '-');
            klex_next(ps);
            if (ps->tok.kind != KTK_INT)
                return kparse_error(ps, "expected an offset after '%s'", op->sym);
            int64_t add = (int64_t)(minus ? 0 - ps->tok.ival : ps->tok.ival);
            klex_next(ps);
            op->slot = kparse_sym_const(ps, op->symbol, add);
        }
        return true;
    }
    return kparse_error(ps, "expected an operand, found '%.*s'", (int)t->len, t->s);
}

static bool add_fixup(struct kparser *ps, uint32_t insn, uint32_t op, const char *name, uint32_t line)
{
    if (ps->nfixups >= ps->cap_fixups) {
        uint32_t ncap = ps->cap_fixups ? ps->cap_fixups * 2 : 16;
        struct kfixup *f = realloc(ps->fixups, ncap * sizeof(*f));
        if (!f)
            return kparse_error(ps, "out of memory");
        ps->fixups = f;
        ps->cap_fixups = ncap;
    }
    size_t n = strlen(name);
    char *copy = malloc(n + 1);
    if (!copy)
        return kparse_error(ps, "out of memory");
    memcpy(copy, name, n + 1);
    ps->fixups[ps->nfixups++] = (struct kfixup){insn, op, copy, line};
    return true;
}

/* label: .branchtargets L1, L2, ...; (the current token is .branchtargets, the label just
 * bound names the list). */
static bool parse_branchtargets(struct kparser *ps, struct ksym *list)
{
    klex_next(ps);
    for (;;) {
        if (ps->tok.kind != KTK_WORD)
            return kparse_error(ps, "expected a label in .branchtargets");
        char **t = realloc(list->targets, (list->ntargets + 1) * sizeof(*t));
        if (!t)
            return kparse_error(ps, "out of memory");
        list->targets = t;
        const char *name = intern(ps, ps->tok.s, ps->tok.len);
        if (!name)
            return kparse_error(ps, "out of memory");
        list->targets[list->ntargets++] = (char *)name;
        klex_next(ps);
        if (ktok_punct(&ps->tok, ',')) {
            klex_next(ps);
            continue;
        }
        return ktok_punct(&ps->tok, ';') ? (klex_next(ps), true) : kparse_error(ps, "expected ';' after .branchtargets");
    }
}

bool kparse_insn(struct kparser *ps)
{
    static OS_THREAD_LOCAL struct kparsed p; /* large: kept off the stack */
    memset(&p, 0, sizeof(p));
    p.guard = KOPND_NONE;
    p.line = ps->tok.line;
    if (ktok_punct(&ps->tok, '@')) {
        klex_next(ps);
        if (ktok_punct(&ps->tok, '!')) {
            p.guard_neg = true;
            klex_next(ps);
        }
        struct ksym *s = ps->tok.kind == KTK_WORD ? kparse_lookup(ps, ps->tok.s, ps->tok.len) : NULL;
        if (!s || s->kind != KSYM_REG || s->type != KT_PRED)
            return kparse_error(ps, "'@%.*s' does not name a predicate register", (int)ps->tok.len, ps->tok.s);
        p.guard = KOPND_REG(s->slot);
        klex_next(ps);
    }
    if (ps->tok.kind != KTK_WORD)
        return kparse_error(ps, "expected an instruction, found '%.*s'", (int)ps->tok.len, ps->tok.s);
    if (ktok_is(&ps->tok, ".branchtargets") || ktok_is(&ps->tok, ".calltargets") ||
        ktok_is(&ps->tok, ".callprototype")) {
        /* These follow a label; the label's symbol is the last one bound in this scope. */
        if (ktok_is(&ps->tok, ".branchtargets")) {
            struct ksym *last = ps->last_label;
            if (!last)
                return kparse_error(ps, ".branchtargets without a label before it");
            return parse_branchtargets(ps, last);
        }
        /* .callprototype / .calltargets: the indirect call carries its own checks. */
        while (!ktok_punct(&ps->tok, ';') && ps->tok.kind != KTK_EOF)
            klex_next(ps);
        klex_next(ps);
        return true;
    }
    const char *text = ps->tok.s;
    uint32_t text_len = ps->tok.len;
    const char *dot = memchr(text, '.', text_len);
    size_t oplen = dot ? (size_t)(dot - text) : text_len;
    p.opcode = intern(ps, text, oplen);
    p.text = intern(ps, text, text_len);
    if (!p.opcode || !p.text)
        return kparse_error(ps, "out of memory");
    insn_text = p.text;
    /* mma: sm_90a's warpgroup MMA (wgmma.*) goes to its family's refusal as written, before its
     * shapes and operand lists (up to 128 registers) are read. */
    if (strcmp(p.opcode, "wgmma") == 0) {
        struct klower lw = {.ps = ps, .fn = ps->cur, .file = ps->name};
        struct kinsn scratch;
        memset(&scratch, 0, sizeof(scratch));
        if (!klower_run(&lw, &p, &scratch))
            return ps->err ? false : kparse_error_at(ps, p.line, "%s", lw.why);
        return kparse_error_at(ps, p.line, "'%s' is not implemented by the software device", p.text);
    }
    while (dot) {
        const char *s = dot + 1;
        const char *e = text + text_len;
        const char *next = s;
        while (next < e && *next != '.')
            next++;
        if (!classify_suffix(ps, &p, s, (size_t)(next - s)))
            return false;
        dot = next < e ? next : NULL;
    }
    klex_next(ps);
    while (!ktok_punct(&ps->tok, ';')) {
        if (p.nops >= 8)
            return kparse_error(ps, "too many operands for '%s'", p.text);
        struct kparsed_op *op = &p.ops[p.nops++];
        if (ktok_punct(&ps->tok, '(')) {
            /* call (ret), f, (args): a parenthesised list is one operand, its elements kept
             * in p.list */
            op->kind = KO_LIST;
            op->label = p.nlist;
            klex_next(ps);
            while (!ktok_punct(&ps->tok, ')')) {
                if (p.nlist >= KMAX_LIST)
                    return kparse_error(ps, "more than %d arguments in a call", KMAX_LIST);
                if (!parse_operand(ps, &p.list[p.nlist++]))
                    return false;
                op->nvec++;
                if (ktok_punct(&ps->tok, ','))
                    klex_next(ps);
                else if (!ktok_punct(&ps->tok, ')'))
                    return kparse_error(ps, "expected ',' or ')' in the list, found '%.*s'", (int)ps->tok.len,
                                        ps->tok.s);
            }
            klex_next(ps);
        } else if (!parse_operand(ps, op)) {
            return false;
        }
        /* mma: only the tensor-core instructions take vectors of more than 4 registers */
        if (op->kind == KO_VEC && op->nvec > 4 && strcmp(p.opcode, "mma") != 0 && strcmp(p.opcode, "wmma") != 0)
            return kparse_error(ps, "a vector operand of '%s' has at most 4 elements", p.text);
        /* setp's two destinations: p|q */
        if (ktok_punct(&ps->tok, '|') || ktok_punct(&ps->tok, ',')) {
            klex_next(ps);
            continue;
        }
        if (!ktok_punct(&ps->tok, ';'))
            return kparse_error(ps, "expected ',' or ';' after an operand of '%s', found '%.*s'", p.text,
                                (int)ps->tok.len, ps->tok.s);
    }
    klex_next(ps);

    uint32_t index = ps->cur->ninsns;
    struct kinsn *in = kfunc_push_insn(ps);
    if (!in)
        return false;
    in->guard = p.guard;
    in->flags = p.guard_neg ? KF_GUARD_NEG : 0;
    in->line = p.line;
    in->name = p.text;
    struct klower lw = {.ps = ps, .fn = ps->cur, .file = ps->name};
    if (!klower_run(&lw, &p, in)) {
        if (ps->err)
            return false;
        return kparse_error_at(ps, p.line, "%s", lw.why);
    }
    /* A branch to a label defined further down. */
    if ((in->kind == KK_BRA) && in->target == UINT32_MAX) {
        const char *name = NULL;
        for (uint32_t i = 0; i < p.nops; ++i)
            if (p.ops[i].kind == KO_LABEL)
                name = p.ops[i].sym;
        if (!name || !add_fixup(ps, index, UINT32_MAX, name, p.line))
            return false;
    }
    if (in->kind == KK_BRX) {
        const struct ksym *list = NULL;
        for (uint32_t i = 0; i < p.nops; ++i)
            if (p.ops[i].kind == KO_LABEL && p.ops[i].symbol)
                list = p.ops[i].symbol;
        if (!list || !list->ntargets)
            return kparse_error_at(ps, p.line, "brx.idx needs a .branchtargets list declared before it");
        for (uint32_t i = 0; i < list->ntargets; ++i)
            if (!add_fixup(ps, index, i, list->targets[i], p.line))
                return false;
    }
    return !ps->err;
}
