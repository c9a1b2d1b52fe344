/*
 * The PTX front end: a module's directives, variables and functions (PTX ISA, "Directives"
 * and "State Spaces, Types, and Variables"). Instructions are ptx_insn.c's.
 *
 * Layout decisions made here (kernel.h says what each space's addresses are):
 * - .global and .const variables share one data block per module, bound to device memory by
 *   the loader (kmod_bind), so cuModuleGetGlobal's pointers are ordinary device pointers.
 * - .shared: module-scope variables first, then each entry's own (entries overlap, since one
 *   kernel runs per launch), then .func-scope ones; extern (dynamic) .shared arrays start after
 *   the largest static layout. Offsets are final once the whole module is read, so the
 *   constant-pool slots that hold shared addresses are patched at the end.
 * - kernel parameters are laid out as the CUDA ABI does (each at its alignment), in the
 *   launch's parameter buffer; a .func's parameters, return value and call-site .param
 *   variables share the frame's per-lane parameter area.
 */
#include "kernel.h"

#include <stdio.h>
#include <stdlib.h>

/* The front end's limits (docs/kernels.md, "The engine"). Blocks and initialisers are read
 * by recursion, one C frame per level, so their depth is bounded well inside any thread's
 * stack; compilers' PTX nests a few levels. An array has at most 2^32 elements (4 GiB of
 * .b8, more than any state space takes): counted in 64 bits, sizes then never wrap. */
enum { MAX_NESTING = 64, MAX_DIMS = 64 };
#define MAX_ELEMENTS (UINT64_C(1) << 32)

/* A .shared variable's place, fixed at the end of the module. */
struct kshared {
    int scope; /* 0 module, 1 entry, 2 func */
    uint32_t offset; /* within its scope */
};
struct kshared_patch {
    struct kfunc *fn;
    uint32_t slot;
    uint32_t var; /* index in the parser's shared list */
    int64_t addend;
};

/* Parser-private state kept beside struct kparser. */
struct kparse_extra {
    struct kshared *shared;
    uint32_t nshared, cap_shared;
    struct kshared_patch *patches;
    uint32_t npatches, cap_patches;
    uint32_t module_shared;   /* module-scope .shared bytes */
    uint32_t func_shared;     /* .func-scope .shared bytes */
    uint32_t entry_shared_max;
    uint32_t dyn_align;
    bool has_dynamic_shared;
    /* every struct ksym made, freed at the end */
    struct ksym **syms;
    uint32_t nsyms, cap_syms;
    /* scope undo log: (name, previous symbol) */
    struct kundo { char *name; uint32_t len; struct ksym *prev; } *undo;
    uint32_t nundo, cap_undo;
    uint32_t depth; /* of the { } block being read, inside the body */
};

static struct kparse_extra *X(struct kparser *ps) { return (struct kparse_extra *)ps->fixups_extra; }

#define GROW(arr, n, cap)                                                                                              \
    ((n) < (cap) || grow_array((void **)&(arr), &(cap), sizeof(*(arr))))
static bool grow_array(void **arr, uint32_t *cap, size_t elem)
{
    uint32_t ncap = *cap ? *cap * 2 : 16;
    void *p = realloc(*arr, (size_t)ncap * elem);
    if (!p)
        return false;
    *arr = p;
    *cap = ncap;
    return true;
}

static bool oom(struct kparser *ps)
{
    if (!ps->err) {
        ps->err = CUDA_ERROR_OUT_OF_MEMORY;
        fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory while decoding PTX", ps->fn);
    }
    return false;
}

static struct ksym *new_sym(struct kparser *ps, ksym_kind kind)
{
    struct kparse_extra *x = X(ps);
    struct ksym *s = calloc(1, sizeof(*s));
    if (!s || !GROW(x->syms, x->nsyms, x->cap_syms)) {
        free(s);
        oom(ps);
        return NULL;
    }
    x->syms[x->nsyms++] = s;
    s->kind = kind;
    return s;
}

/* Binds name in the function scope (remembering what it hides) or the module scope. */
static bool bind_name(struct kparser *ps, const char *name, size_t len, struct ksym *s)
{
    if (ps->cur && ps->locals) {
        struct kparse_extra *x = X(ps);
        void *prev = NULL;
        if (!GROW(x->undo, x->nundo, x->cap_undo))
            return oom(ps);
        if (!khash_put(ps->locals, name, len, s, &prev))
            return oom(ps);
        char *copy = malloc(len + 1);
        if (!copy)
            return oom(ps);
        memcpy(copy, name, len);
        copy[len] = 0;
        x->undo[x->nundo++] = (struct kundo){copy, (uint32_t)len, prev};
        return true;
    }
    if (!khash_put(ps->globals, name, len, s, NULL))
        return oom(ps);
    return true;
}

/* Undoes the bindings made since `mark` (the end of a { } scope). */
static void unbind_to(struct kparser *ps, uint32_t mark)
{
    struct kparse_extra *x = X(ps);
    while (x->nundo > mark) {
        struct kundo *u = &x->undo[--x->nundo];
        khash_put(ps->locals, u->name, u->len, u->prev, NULL);
        free(u->name);
    }
}

struct ksym *kparse_lookup(struct kparser *ps, const char *name, size_t len)
{
    struct ksym *s = ps->locals ? khash_get(ps->locals, name, len) : NULL;
    return s ? s : khash_get(ps->globals, name, len);
}

/* ---- Types and directives ---- */
static ktype type_of_word(const struct ktok *t)
{
    if (t->kind != KTK_WORD || t->len < 2 || t->s[0] != '.')
        return KT_NONE;
#define X_(e, str, n)                                                                                                  \
    if (KT_##e != KT_NONE && t->len - 1 == sizeof(str) - 1 && memcmp(t->s + 1, str, t->len - 1) == 0)                 \
        return KT_##e;
    KTYPES(X_)
#undef X_
    return KT_NONE;
}

static bool expect_punct(struct kparser *ps, char c, const char *where)
{
    if (!ktok_punct(&ps->tok, c))
        return kparse_error(ps, "expected '%c' %s, found '%.*s'", c, where, (int)ps->tok.len, ps->tok.s);
    klex_next(ps);
    return true;
}

static bool expect_int(struct kparser *ps, uint64_t *v, const char *what)
{
    bool neg = false;
    if (ktok_punct(&ps->tok, '-')) {
        neg = true;
        klex_next(ps);
    }
    uint64_t x;
    if (ps->tok.kind == KTK_INT)
        x = ps->tok.ival;
    else if (ktok_is(&ps->tok, "WARP_SZ")) /* isa (issue 25): the predefined identifier (an array size ...) */
        x = KLANES;
    else
        return kparse_error(ps, "expected %s, found '%.*s'", what, (int)ps->tok.len, ps->tok.s);
    *v = neg ? 0 - x : x;
    klex_next(ps);
    return true;
}

/* Skips the rest of the current line's tokens (.loc, .file). */
static void skip_line(struct kparser *ps)
{
    uint32_t line = ps->tok.line;
    klex_next(ps);
    while (ps->tok.kind != KTK_EOF && ps->tok.line == line)
        klex_next(ps);
}

/* .pragma "..." [, "..."]; : hints (nounroll ...) a CPU executor has no use for. */
static bool skip_pragma(struct kparser *ps)
{
    klex_next(ps);
    while (ps->tok.kind == KTK_STRING || ktok_punct(&ps->tok, ','))
        klex_next(ps);
    return expect_punct(ps, ';', "after .pragma");
}

/* Skips a balanced { ... } (a .section of debug information). */
static bool skip_braces(struct kparser *ps)
{
    if (!expect_punct(ps, '{', "to open the section"))
        return false;
    int depth = 1;
    while (depth > 0) {
        if (ps->tok.kind == KTK_EOF)
            return kparse_error(ps, "the section is not closed with '}'");
        if (ktok_punct(&ps->tok, '{'))
            depth++;
        else if (ktok_punct(&ps->tok, '}'))
            depth--;
        klex_next(ps);
    }
    return true;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

/* ---- link part: the units of a linked text (kernel.h, kmod_parse_units) ----
 * A name with external linkage (.visible, .extern, .weak, .common: PTX ISA, "Linking
 * Directives") is one symbol for every unit; the others are each unit's own. Each unit binds
 * the names it uses in its own scope (ps->globals), so a name it declares without linkage never
 * meets another unit's. */
#define DEAD_UNIT KFUNC_DEAD_UNIT /* a definition that lost to another (a second .weak one) */

/* The symbol a module-scope declaration names: the unit's own, else (for external linkage) the
 * one an earlier unit published, now bound in this unit too. NULL (check ps->err) when new. */
static struct ksym *link_find(struct kparser *ps, const char *name, size_t len)
{
    struct ksym *s = khash_get(ps->globals, name, len);
    if (s || !ps->external || !ps->linked)
        return s;
    s = khash_get(ps->linked, name, len);
    if (s && !khash_put(ps->globals, name, len, s, NULL)) {
        oom(ps);
        return NULL;
    }
    return s;
}

/* Makes a new module-scope symbol with external linkage known to the later units. */
static bool link_publish(struct kparser *ps, const char *name, size_t len, struct ksym *s)
{
    if (!ps->external || !ps->linked)
        return true;
    return khash_put(ps->linked, name, len, s, NULL) || oom(ps);
}

/* Whether the function header at the current token has a body ({) rather than ending in ;. */
static bool header_has_body(struct kparser *ps)
{
    const char *p = ps->p;
    uint32_t line = ps->line;
    struct ktok tok = ps->tok;
    bool body = false;
    while (ps->tok.kind != KTK_EOF) {
        if (ktok_is(&ps->tok, ".pragma")) {
            while (ps->tok.kind != KTK_EOF && !ktok_punct(&ps->tok, ';'))
                klex_next(ps);
        } else if (ktok_punct(&ps->tok, '{')) {
            body = true;
            break;
        } else if (ktok_punct(&ps->tok, ';')) {
            break;
        }
        klex_next(ps);
    }
    ps->p = p;
    ps->line = line;
    ps->tok = tok;
    return body;
}

static struct kfunc *new_func(struct kparser *ps, const char *name, size_t len, bool entry);

/* A strong definition replaces an earlier unit's .weak one: the weak body moves to a dead
 * function (nothing calls it: calls and addresses name f, which gets the new body), with the
 * patches the layout and the binding will make to its constants. */
static bool retire_weak_body(struct kparser *ps, struct kfunc *f)
{
    struct kfunc *d = new_func(ps, f->name, strlen(f->name), f->entry);
    if (!d)
        return false;
    char *dname = d->name;
    *d = *f;
    d->name = dname;
    d->link_unit = DEAD_UNIT;
    char *fname = f->name;
    struct kmodule *mod = f->module;
    bool entry = f->entry;
    uint32_t line = f->line;
    memset(f, 0, sizeof(*f));
    f->name = fname;
    f->module = mod;
    f->entry = entry;
    f->line = line;
    f->max_dynamic_shared = 48 * 1024;
    f->preferred_carveout = -1;
    struct kmodule *m = ps->m;
    for (uint32_t i = 0; i < m->nconst_relocs; ++i)
        if (m->const_relocs[i].fn == f)
            m->const_relocs[i].fn = d;
    struct kparse_extra *x = X(ps);
    for (uint32_t i = 0; i < x->npatches; ++i)
        if (x->patches[i].fn == f)
            x->patches[i].fn = d;
    return true;
}

static const char *unit_name(const struct kparser *ps, uint32_t unit)
{
    return unit < ps->nunit_names && ps->unit_names[unit] ? ps->unit_names[unit] : "an earlier unit";
}

/* ---- Variable declarations ---- */
struct decl {
    kspace space;
    uint32_t align;
    uint32_t vec;
    ktype type;
    bool is_extern;
    bool ptr_attr; /* .ptr (parameters) */
};

/* Reads [.align N] [.v2|.v4] .type (and the parameter attributes .ptr .space .align N). */
static bool parse_decl_head(struct kparser *ps, struct decl *d)
{
    d->vec = 1;
    for (;;) {
        if (ktok_is(&ps->tok, ".align")) {
            klex_next(ps);
            uint64_t a;
            if (!expect_int(ps, &a, "an alignment"))
                return false;
            if (a == 0 || (a & (a - 1)) || a > 4096)
                return kparse_error(ps, ".align %llu is not a power of two up to 4096", (unsigned long long)a);
            d->align = (uint32_t)a;
        } else if (ktok_is(&ps->tok, ".v2") || ktok_is(&ps->tok, ".v4") || ktok_is(&ps->tok, ".v8")) {
            d->vec = (uint32_t)(ps->tok.s[2] - '0');
            klex_next(ps);
        } else if (ktok_is(&ps->tok, ".ptr")) {
            d->ptr_attr = true;
            klex_next(ps);
        } else if (d->ptr_attr && (ktok_is(&ps->tok, ".global") || ktok_is(&ps->tok, ".shared") ||
                                   ktok_is(&ps->tok, ".const") || ktok_is(&ps->tok, ".local"))) {
            klex_next(ps); /* the pointee's space: a hint only */
        } else if (ktok_is(&ps->tok, ".attribute")) {
            /* .attribute(.managed): managed memory is ordinary memory here */
            klex_next(ps);
            if (!expect_punct(ps, '(', "after .attribute"))
                return false;
            while (!ktok_punct(&ps->tok, ')') && ps->tok.kind != KTK_EOF)
                klex_next(ps);
            if (!expect_punct(ps, ')', "to close .attribute"))
                return false;
        } else {
            break;
        }
    }
    if (ktok_is(&ps->tok, ".texref") || ktok_is(&ps->tok, ".samplerref") || ktok_is(&ps->tok, ".surfref"))
        return kparse_error(ps,
                            "%.*s variables (texture, sampler and surface references) are not supported: CUDA 13's "
                            "nvcc and clang pass texture and surface objects as .u64 handles instead",
                            (int)ps->tok.len, ps->tok.s);
    d->type = type_of_word(&ps->tok);
    if (d->type == KT_NONE)
        return kparse_error(ps, "expected a type (.b32, .f32, .u64 ...), found '%.*s'", (int)ps->tok.len, ps->tok.s);
    klex_next(ps);
    if (d->type == KT_PRED && d->space != KS_GENERIC)
        return kparse_error(ps, ".pred is a register type, not one of a variable");
    return true;
}

/* Array dimensions: [N][M] or [] (extern / with an initialiser), *ndims of them. Returns the
 * element count (0 for []), or -1 on error. */
static int64_t parse_dims(struct kparser *ps, bool *open, unsigned *ndims)
{
    uint64_t count = 1;
    *open = false;
    *ndims = 0;
    while (ktok_punct(&ps->tok, '[')) {
        if (++*ndims > MAX_DIMS)
            return kparse_error(ps, "an array has more than %d dimensions", MAX_DIMS), -1;
        klex_next(ps);
        if (ktok_punct(&ps->tok, ']')) {
            *open = true;
            count = 0;
        } else {
            uint64_t n;
            if (!expect_int(ps, &n, "an array size"))
                return -1;
            /* Checked before multiplying, so that no product wraps. */
            if (n > MAX_ELEMENTS || (count && n > MAX_ELEMENTS / count))
                return kparse_error(ps, "an array of more than %llu elements is too large",
                                    (unsigned long long)MAX_ELEMENTS), -1;
            count = count ? count * n : n;
        }
        if (!expect_punct(ps, ']', "to close the array size"))
            return -1;
    }
    return (int64_t)count;
}

static void put_le(unsigned char *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; ++i)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* The room an initialiser's first n bytes take: doubling, so filling element by element
 * copies little, and never more than the variable. */
static uint64_t init_room(const struct kvar *v, uint64_t n)
{
    uint64_t room = 64;
    while (room < n)
        room *= 2;
    return room < v->size ? room : v->size;
}

/* Stores an element of v's initialiser at byte `at`, growing v->init to reach it (zeros
 * between). The host memory is what the initialiser covers, not the variable's size. */
static bool put_init(struct kparser *ps, struct kvar *v, uint64_t at, uint64_t bits, unsigned n)
{
    if (at + n > v->init_bytes) {
        uint64_t had = init_room(v, v->init_bytes), need = init_room(v, at + n);
        if (!v->init || need > had) {
            unsigned char *p = realloc(v->init, (size_t)need);
            if (!p)
                return oom(ps);
            v->init = p;
        }
        memset(v->init + v->init_bytes, 0, (size_t)(at + n - v->init_bytes));
        v->init_bytes = at + n;
    }
    put_le(v->init + at, bits, n);
    return true;
}

/* One scalar of an initialiser: a number (integer or float for the element type), or a
 * variable's address (sym, generic(sym), sym+N). */
static bool parse_init_scalar(struct kparser *ps, struct kvar *v, ktype type, uint64_t at)
{
    struct kmodule *m = ps->m;
    unsigned esz = ktype_size(type);
    bool neg = false;
    if (ktok_punct(&ps->tok, '-')) {
        neg = true;
        klex_next(ps);
    }
    if (ps->tok.kind == KTK_INT || ps->tok.kind == KTK_FLOAT) {
        uint64_t bits;
        if (ktype_float(type)) {
            double d = ps->tok.kind == KTK_INT ? (double)ps->tok.ival : ps->tok.fval;
            if (ps->tok.kind == KTK_FLOAT && (ps->tok.fbits32 || ps->tok.fbits64) &&
                ((type == KT_F32 && ps->tok.fbits32) || (type == KT_F64 && ps->tok.fbits64))) {
                bits = ps->tok.ival;
                if (neg)
                    bits ^= type == KT_F32 ? 0x80000000ull : 0x8000000000000000ull;
            } else {
                if (neg)
                    d = -d;
                bits = type == KT_F64 ? kbits64(d) : kbits32((float)d);
                if (esz == 2)
                    return kparse_error(ps, "a decimal initialiser for .%s is not supported: use a hex bit pattern",
                                        ktype_name(type));
            }
        } else {
            if (ps->tok.kind != KTK_INT)
                return kparse_error(ps, "a floating-point initialiser for the integer type .%s", ktype_name(type));
            bits = neg ? 0 - ps->tok.ival : ps->tok.ival;
        }
        if (!put_init(ps, v, at, bits, esz))
            return false;
        klex_next(ps);
        return true;
    }
    if (neg)
        return kparse_error(ps, "expected a number after '-'");
    bool generic = false;
    if (ktok_is(&ps->tok, "generic")) {
        generic = true;
        klex_next(ps);
        if (!expect_punct(ps, '(', "after generic"))
            return false;
    }
    if (ps->tok.kind != KTK_WORD)
        return kparse_error(ps, "expected a value in the initialiser, found '%.*s'", (int)ps->tok.len, ps->tok.s);
    struct ksym *s = kparse_lookup(ps, ps->tok.s, ps->tok.len);
    if (s && s->kind == KSYM_FUNC && !generic && esz == 8) {
        /* A function's address (a table of function pointers): what indirect calls take. */
        if (!put_init(ps, v, at, (uint64_t)(uintptr_t)s->fn, 8))
            return false;
        klex_next(ps);
        return true;
    }
    if (!s || s->kind != KSYM_VAR || (s->space != KS_GLOBAL && s->space != KS_CONST))
        return kparse_error(ps, "'%.*s' in an initialiser is not a .global or .const variable declared before it",
                            (int)ps->tok.len, ps->tok.s);
    klex_next(ps);
    if (generic && !expect_punct(ps, ')', "to close generic("))
        return false;
    int64_t addend = 0;
    if (ktok_punct(&ps->tok, '+')) {
        klex_next(ps);
        uint64_t a;
        if (!expect_int(ps, &a, "an offset"))
            return false;
        addend = (int64_t)a;
    }
    if (esz != 8 && esz != 4)
        return kparse_error(ps, "an address does not fit a .%s element", ktype_name(type));
    if (!GROW(m->relocs, m->nrelocs, ps->cap_relocs))
        return oom(ps);
    m->relocs[m->nrelocs++] = (struct kreloc){v->offset + at, s->slot, addend, esz};
    return true;
}

/* = value, or = { ... } nested at most `levels` deep, filling elements from index *i. */
static bool parse_init_list(struct kparser *ps, struct kvar *v, ktype type, uint64_t count, unsigned levels,
                            uint64_t *i)
{
    unsigned esz = ktype_size(type);
    if (ktok_punct(&ps->tok, '{')) {
        if (levels == 0)
            return kparse_error(ps, "the initialiser of '%s' nests deeper than the variable's dimensions", v->name);
        klex_next(ps);
        while (!ktok_punct(&ps->tok, '}')) {
            if (!parse_init_list(ps, v, type, count, levels - 1, i))
                return false;
            if (ktok_punct(&ps->tok, ','))
                klex_next(ps);
            else if (!ktok_punct(&ps->tok, '}'))
                return kparse_error(ps, "expected ',' or '}' in the initialiser");
        }
        klex_next(ps);
        return true;
    }
    if (*i >= count)
        return kparse_error(ps, "more initialisers than the %llu elements of '%s'", (unsigned long long)count, v->name);
    if (!parse_init_scalar(ps, v, type, *i * esz))
        return false;
    (*i)++;
    return true;
}

/* A .global/.const/.shared/.local variable declaration after its space word (and linkage). */
static bool parse_var_decl(struct kparser *ps, kspace space, bool is_extern)
{
    struct kmodule *m = ps->m;
    struct decl d = {.space = space, .is_extern = is_extern};
    if (!parse_decl_head(ps, &d))
        return false;
    for (;;) {
        if (ps->tok.kind != KTK_WORD)
            return kparse_error(ps, "expected a variable name, found '%.*s'", (int)ps->tok.len, ps->tok.s);
        const char *name = ps->tok.s;
        uint32_t nlen = ps->tok.len;
        uint32_t line = ps->tok.line;
        klex_next(ps);
        bool open;
        unsigned ndims;
        int64_t count = parse_dims(ps, &open, &ndims);
        if (count < 0)
            return false;
        /* At most 2^32 elements of at most 64 bytes: no size below wraps. */
        uint64_t esz = ktype_size(d.type) * d.vec;
        uint32_t align = d.align ? d.align : (uint32_t)esz;
        struct ksym *s = new_sym(ps, KSYM_VAR);
        if (!s)
            return false;
        s->type = d.type;
        s->space = space;
        struct ksym *bind = s; /* what the name means from here on */

        /* link part: a module-scope .global or .const name with external linkage that an
         * earlier unit (or this one) declared or defined already. */
        struct ksym *prev = NULL;
        if (!ps->cur && ps->linked && ps->external && (space == KS_GLOBAL || space == KS_CONST)) {
            prev = link_find(ps, name, nlen);
            if (ps->err)
                return false;
            if (prev && prev->kind != KSYM_VAR)
                return kparse_error_at(ps, line, "'%.*s' is declared twice as different things", (int)nlen, name);
            if (prev && (prev->space != space))
                return kparse_error_at(ps, line, "'%.*s' is declared in .%s and in .%s", (int)nlen, name,
                                       prev->space == KS_CONST ? "const" : "global",
                                       space == KS_CONST ? "const" : "global");
        }
        if (prev && is_extern) {
            bind = prev; /* a declaration of what is known: nothing to lay out */
        } else if (!prev && is_extern && (space == KS_GLOBAL || space == KS_CONST)) {
            /* Declared here, defined by another unit: a place in the table, none in memory yet. */
            if (!GROW(m->vars, m->nvars, ps->cap_vars))
                return oom(ps);
            struct kvar *v = &m->vars[m->nvars];
            memset(v, 0, sizeof(*v));
            if (!(v->name = malloc(nlen + 1)))
                return oom(ps);
            memcpy(v->name, name, nlen);
            v->name[nlen] = 0;
            v->space = space;
            v->align = align;
            v->link_declared = true;
            v->link_external = true;
            s->slot = m->nvars++;
            if (!link_publish(ps, name, nlen, s))
                return false;
        } else if (space == KS_GLOBAL || space == KS_CONST) {
            if (!GROW(m->vars, m->nvars, ps->cap_vars))
                return oom(ps);
            /* Count an open array from its initialiser: read it first into a scratch count. */
            uint64_t elems = (uint64_t)count;
            const char *save_p = NULL;
            uint32_t save_line = 0;
            struct ktok save_tok;
            if (open && ktok_punct(&ps->tok, '=')) {
                /* Count the scalars of { ... } without storing them. */
                save_p = ps->p;
                save_line = ps->line;
                save_tok = ps->tok;
                klex_next(ps);
                uint64_t n = 0;
                int depth = 0;
                do {
                    if (ktok_punct(&ps->tok, '{'))
                        depth++;
                    else if (ktok_punct(&ps->tok, '}'))
                        depth--;
                    else if (ps->tok.kind == KTK_INT || ps->tok.kind == KTK_FLOAT || ps->tok.kind == KTK_WORD)
                        n += !ktok_is(&ps->tok, "generic");
                    else if (ps->tok.kind == KTK_EOF)
                        return kparse_error(ps, "the initialiser of '%.*s' is not closed", (int)nlen, name);
                    klex_next(ps);
                } while (depth > 0);
                elems = n;
                ps->p = save_p;
                ps->line = save_line;
                ps->tok = save_tok;
            }
            uint64_t size = elems * esz;
            uint64_t offset = align_up(m->data_bytes, align);
            if (offset + size > (1ull << 32))
                return kparse_error_at(ps, line, "the module's variables exceed 4 GiB");
            m->data_bytes = offset + size;
            if (align > m->data_align)
                m->data_align = align;
            struct kvar *v = &m->vars[m->nvars];
            memset(v, 0, sizeof(*v));
            if (!(v->name = malloc(nlen + 1)))
                return oom(ps);
            memcpy(v->name, name, nlen);
            v->name[nlen] = 0;
            v->space = space;
            v->offset = offset;
            v->size = size;
            v->align = align;
            s->slot = m->nvars++;
            s->size = size;
            if (ktok_punct(&ps->tok, '=')) {
                klex_next(ps);
                uint64_t i = 0;
                /* One level of braces per dimension, and one more around a vector's elements. */
                unsigned levels = ndims + (d.vec > 1);
                if (!parse_init_list(ps, v, d.type, elems * d.vec, levels ? levels : 1, &i))
                    return false;
            }
            v = &m->vars[s->slot];
            v->link_unit = ps->unit;
            v->link_weak = ps->weak;
            v->link_external = ps->external && !ps->cur;
            if (prev) {
                struct kvar *pv = &m->vars[prev->slot];
                bool take = pv->link_declared; /* the definition of a declared name */
                if (!take && pv->link_unit != ps->unit) {
                    if (!ps->weak && !pv->link_weak)
                        return kparse_error_at(ps, line, "duplicate definition of '%.*s' (also defined in %s)",
                                               (int)nlen, name, unit_name(ps, pv->link_unit));
                    take = !ps->weak; /* a strong definition replaces a .weak one */
                }
                if (!take && pv->link_unit == ps->unit && !pv->link_weak && !ps->weak)
                    return kparse_error_at(ps, line, "variable '%.*s' is defined twice", (int)nlen, name);
                if (take) {
                    /* The new definition takes the symbol's place in the table (relocations
                     * name it by index); what was there stays behind, unnamed. */
                    struct kvar tmp = *pv;
                    *pv = *v;
                    *v = tmp;
                    prev->size = pv->size;
                    prev->type = s->type;
                }
                v->name[0] = 0; /* the loser: no lookup finds it */
                v->link_unit = DEAD_UNIT;
                v->link_declared = false;
                bind = prev;
            } else if (!ps->cur && !link_publish(ps, name, nlen, s)) {
                return false;
            }
        } else if (space == KS_SHARED) {
            struct kparse_extra *x = X(ps);
            if (!GROW(x->shared, x->nshared, x->cap_shared))
                return oom(ps);
            uint64_t size = (uint64_t)count * esz;
            struct kshared *sh = &x->shared[x->nshared];
            if (open) {
                sh->scope = 3; /* dynamic: after every static layout */
                sh->offset = 0;
                x->has_dynamic_shared = true;
                if (align > x->dyn_align)
                    x->dyn_align = align;
            } else {
                sh->scope = !ps->cur ? 0 : ps->cur->entry ? 1 : 2;
                uint32_t *top = sh->scope == 0 ? &x->module_shared
                                : sh->scope == 1 ? &ps->cur->static_shared
                                                 : &x->func_shared;
                /* Each scope stays within 1 GiB, so finish_shared's sums of three fit 32 bits. */
                uint64_t at = align_up(*top, align);
                if (at + size > (1u << 30))
                    return kparse_error_at(ps, line, ".shared variable '%.*s' is too large", (int)nlen, name);
                sh->offset = (uint32_t)at;
                *top = (uint32_t)(at + size);
            }
            s->slot = x->nshared++;
            s->size = size;
        } else if (space == KS_LOCAL) {
            if (!ps->cur)
                return kparse_error_at(ps, line, "a module-scope .local variable is not supported");
            uint64_t off = align_up(ps->cur->local_bytes, align);
            if (off + (uint64_t)count * esz > (1u << 24))
                return kparse_error_at(ps, line, ".local variable '%.*s' is too large", (int)nlen, name);
            s->offset = off;
            s->size = (uint64_t)count * esz;
            ps->cur->local_bytes = (uint32_t)(off + s->size);
        } else if (space == KS_PARAM_FRAME) {
            /* A call-site .param inside a function body. */
            uint64_t off = align_up(ps->cur->frame_param_bytes, align);
            s->kind = KSYM_PARAM;
            s->space = KS_PARAM_FRAME;
            s->offset = off;
            s->size = (uint64_t)count * esz;
            if (off + s->size > 65536)
                return kparse_error_at(ps, line, "call-site parameters exceed 64 KiB");
            ps->cur->frame_param_bytes = (uint32_t)(off + s->size);
        }
        if (!bind_name(ps, name, nlen, bind))
            return false;
        if (ktok_punct(&ps->tok, ',')) {
            klex_next(ps);
            continue;
        }
        return expect_punct(ps, ';', "after the variable declaration");
    }
}

/* .reg .type %r<N>; or .reg .type a, b, c; */
static bool parse_reg_decl(struct kparser *ps)
{
    struct decl d = {.space = KS_GENERIC};
    if (!parse_decl_head(ps, &d))
        return false;
    if (d.vec != 1)
        return kparse_error(ps, "vector registers (.reg .v%u) are not supported", d.vec);
    for (;;) {
        if (ps->tok.kind != KTK_WORD)
            return kparse_error(ps, "expected a register name, found '%.*s'", (int)ps->tok.len, ps->tok.s);
        const char *name = ps->tok.s;
        uint32_t nlen = ps->tok.len;
        klex_next(ps);
        uint64_t n = 0;
        bool range = false;
        if (ktok_punct(&ps->tok, '<')) {
            klex_next(ps);
            if (!expect_int(ps, &n, "a register count"))
                return false;
            if (!expect_punct(ps, '>', "to close the register count"))
                return false;
            if (n > 1000000)
                return kparse_error(ps, "%llu registers is too many", (unsigned long long)n);
            range = true;
        }
        for (uint64_t i = 0; i < (range ? n : 1); ++i) {
            struct ksym *s = new_sym(ps, KSYM_REG);
            if (!s)
                return false;
            s->type = d.type;
            s->slot = kfunc_new_reg(ps);
            char buf[160];
            int len = range ? snprintf(buf, sizeof(buf), "%.*s%llu", (int)nlen, name, (unsigned long long)i)
                            : snprintf(buf, sizeof(buf), "%.*s", (int)nlen, name);
            if (len <= 0 || (size_t)len >= sizeof(buf))
                return kparse_error(ps, "register name too long");
            if (!bind_name(ps, buf, (size_t)len, s))
                return false;
        }
        if (ktok_punct(&ps->tok, ',')) {
            klex_next(ps);
            continue;
        }
        return expect_punct(ps, ';', "after the register declaration");
    }
}

/* ---- Functions ---- */
uint32_t kfunc_new_reg(struct kparser *ps) { return ps->cur->nregs++; }

struct kinsn *kfunc_push_insn(struct kparser *ps)
{
    struct kfunc *f = ps->cur;
    if (!GROW(f->code, f->ninsns, ps->cap_insns)) {
        oom(ps);
        return NULL;
    }
    struct kinsn *in = &f->code[f->ninsns++];
    memset(in, 0, sizeof(*in));
    return in;
}

static kopnd push_const(struct kparser *ps, uint64_t bits)
{
    struct kfunc *f = ps->cur;
    if (f->nconsts >= ps->cap_consts) {
        uint32_t ncap = ps->cap_consts ? ps->cap_consts * 2 : 16;
        uint64_t *c = realloc(f->consts, (size_t)ncap * KLANES * sizeof(uint64_t));
        if (!c) {
            oom(ps);
            return KOPND_CONST(0);
        }
        f->consts = c;
        ps->cap_consts = ncap;
    }
    if (f->nconsts >= ps->cap_const_is_sym) {
        uint32_t ncap = ps->cap_const_is_sym ? ps->cap_const_is_sym * 2 : 16;
        bool *b = realloc(ps->const_is_sym, ncap * sizeof(bool));
        if (!b) {
            oom(ps);
            return KOPND_CONST(0);
        }
        ps->const_is_sym = b;
        ps->cap_const_is_sym = ncap;
    }
    for (int l = 0; l < KLANES; ++l)
        f->consts[(size_t)f->nconsts * KLANES + (size_t)l] = bits;
    ps->const_is_sym[f->nconsts] = false;
    return KOPND_CONST(f->nconsts++);
}

kopnd kfunc_const(struct kparser *ps, uint64_t bits)
{
    /* Deduplicated per function: the small linear pool of recent values keeps this cheap. */
    struct kfunc *f = ps->cur;
    uint32_t start = f->nconsts > 64 ? f->nconsts - 64 : 0;
    for (uint32_t i = start; i < f->nconsts; ++i)
        if (f->consts[(size_t)i * KLANES] == bits && !ps->const_is_sym[i])
            return KOPND_CONST(i);
    return push_const(ps, bits);
}

/* A constant slot holding a symbol's address, patched once it is known. */
kopnd kparse_sym_const(struct kparser *ps, const struct ksym *s, int64_t addend)
{
    kopnd o = push_const(ps, 0);
    if (ps->err)
        return o;
    uint32_t slot = KOPND_INDEX(o);
    ps->const_is_sym[slot] = true;
    struct kfunc *f = ps->cur;
    uint64_t *c = f->consts + (size_t)slot * KLANES;
    uint64_t value = 0;
    switch (s->kind) {
    case KSYM_VAR:
        if (s->space == KS_GLOBAL || s->space == KS_CONST) {
            struct kmodule *m = ps->m;
            if (!GROW(m->const_relocs, m->nconst_relocs, ps->cap_const_relocs)) {
                oom(ps);
                return o;
            }
            m->const_relocs[m->nconst_relocs++] = (struct kconst_reloc){f, slot, s->slot, addend};
            return o;
        }
        if (s->space == KS_SHARED) {
            struct kparse_extra *x = X(ps);
            if (!GROW(x->patches, x->npatches, x->cap_patches)) {
                oom(ps);
                return o;
            }
            x->patches[x->npatches++] = (struct kshared_patch){f, slot, s->slot, addend};
            return o;
        }
        value = s->offset + (uint64_t)addend; /* .local: the frame adds its depot */
        break;
    case KSYM_PARAM:
        value = s->offset + (uint64_t)addend;
        break;
    case KSYM_FUNC:
        value = (uint64_t)(uintptr_t)s->fn;
        break;
    default:
        break;
    }
    for (int l = 0; l < KLANES; ++l)
        c[l] = value;
    return o;
}

/* ( .param .type name, ... ) into params; `frame` params live in the frame's area. */
static bool parse_params(struct kparser *ps, struct kfunc *f, bool is_ret, bool define)
{
    if (!expect_punct(ps, '(', "to open the parameter list"))
        return false;
    uint32_t offset = is_ret ? f->frame_param_bytes : 0;
    while (!ktok_punct(&ps->tok, ')')) {
        bool is_reg = ktok_is(&ps->tok, ".reg");
        if (!ktok_is(&ps->tok, ".param") && !is_reg)
            return kparse_error(ps, "expected .param in the parameter list, found '%.*s'", (int)ps->tok.len,
                                ps->tok.s);
        if (is_reg)
            return kparse_error(ps, ".reg parameters (the PTX 1.x calling convention) are not supported");
        klex_next(ps);
        struct decl d = {.space = KS_PARAM_KERNEL};
        if (!parse_decl_head(ps, &d))
            return false;
        if (ps->tok.kind != KTK_WORD)
            return kparse_error(ps, "expected a parameter name, found '%.*s'", (int)ps->tok.len, ps->tok.s);
        const char *name = ps->tok.s;
        uint32_t nlen = ps->tok.len;
        klex_next(ps);
        bool open;
        unsigned ndims;
        int64_t count = parse_dims(ps, &open, &ndims);
        if (count < 0)
            return false;
        if (open)
            return kparse_error(ps, "parameter '%.*s' has an open array size", (int)nlen, name);
        uint32_t esz = ktype_size(d.type) * d.vec;
        uint32_t align = d.align ? d.align : esz;
        uint64_t size = (uint64_t)count * esz;
        offset = (uint32_t)align_up(offset, align);
        if (offset + size > 32764 + 4096)
            return kparse_error(ps, "the parameters exceed the 32764 bytes CUDA allows");
        struct kparam p = {NULL, offset, (uint32_t)size, align, esz == 8 && count == 1};
        if (define) {
            if (!(p.name = malloc(nlen + 1)))
                return oom(ps);
            memcpy(p.name, name, nlen);
            p.name[nlen] = 0;
            if (is_ret) {
                free(f->ret.name);
                f->ret = p;
                f->nrets = 1;
            } else {
                struct kparam *np = realloc(f->params, (f->nparams + 1) * sizeof(*np));
                if (!np) {
                    free(p.name);
                    return oom(ps);
                }
                f->params = np;
                f->params[f->nparams++] = p;
            }
        }
        offset += (uint32_t)size;
        if (ktok_punct(&ps->tok, ','))
            klex_next(ps);
        else if (!ktok_punct(&ps->tok, ')'))
            return kparse_error(ps, "expected ',' or ')' in the parameter list");
    }
    klex_next(ps);
    if (define) {
        if (f->entry)
            f->param_bytes = offset;
        else
            f->frame_param_bytes = offset;
    }
    return true;
}

/* Binds the parameters (and return value) of f as names of its body. */
static bool bind_params(struct kparser *ps, struct kfunc *f)
{
    for (uint32_t i = 0; i < f->nparams + f->nrets; ++i) {
        struct kparam *p = i < f->nparams ? &f->params[i] : &f->ret;
        struct ksym *s = new_sym(ps, KSYM_PARAM);
        if (!s)
            return false;
        s->space = f->entry ? KS_PARAM_KERNEL : KS_PARAM_FRAME;
        s->offset = p->offset;
        s->size = p->size;
        if (!bind_name(ps, p->name, strlen(p->name), s))
            return false;
    }
    return true;
}

static bool parse_dim_list(struct kparser *ps, uint32_t out[3])
{
    for (int i = 0; i < 3; ++i) {
        uint64_t v;
        if (!expect_int(ps, &v, "a thread count"))
            return false;
        if (v == 0 || v > 1024)
            return kparse_error(ps, "a thread count of %llu is outside 1..1024", (unsigned long long)v);
        out[i] = (uint32_t)v;
        if (!ktok_punct(&ps->tok, ','))
            break;
        klex_next(ps);
    }
    for (int i = 0; i < 3; ++i)
        if (!out[i])
            out[i] = 1;
    return true;
}

/* Resolves the branches to labels visible now; at the end of a nested block, labels defined in
 * it (an inline-asm block's, which may repeat in another block) resolve before they go out of
 * scope, and the rest wait for the enclosing scope. At the function's end (final) a label that
 * is still unknown is an error. */
static bool resolve_fixups(struct kparser *ps, bool final)
{
    uint32_t kept = 0;
    bool ok = true;
    for (uint32_t i = 0; i < ps->nfixups; ++i) {
        struct kfixup *fx = &ps->fixups[i];
        struct ksym *s = ps->locals ? khash_get(ps->locals, fx->name, strlen(fx->name)) : NULL;
        if (!s || s->kind != KSYM_LABEL) {
            if (final && ok)
                ok = kparse_error_at(ps, fx->line, "label '%s' is not defined in this function", fx->name);
            ps->fixups[kept++] = *fx; /* still owned by the list (freed with it) */
            continue;
        }
        struct kinsn *in = &ps->cur->code[fx->insn];
        if (fx->op == UINT32_MAX)
            in->target = s->label;
        else
            ((uint32_t *)in->aux)[fx->op] = s->label;
        free(fx->name);
    }
    ps->nfixups = kept;
    return ok;
}

/* True when the current word is a label: a ':' follows it (spaces may come between). */
static bool followed_by_colon(const struct kparser *ps)
{
    const char *q = ps->p;
    while (q < ps->end && (*q == ' ' || *q == '\t'))
        q++;
    return q < ps->end && *q == ':' && !(q + 1 < ps->end && q[1] == ':');
}

/* The statements of a body or nested block, after its '{'. */
static bool parse_block(struct kparser *ps)
{
    for (;;) {
        struct ktok *t = &ps->tok;
        if (t->kind == KTK_EOF)
            return kparse_error(ps, "the function body is not closed with '}'");
        if (ktok_punct(t, '}')) {
            klex_next(ps);
            return true;
        }
        if (ktok_punct(t, '{')) {
            struct kparse_extra *x = X(ps);
            if (x->depth >= MAX_NESTING)
                return kparse_error(ps, "blocks nest more than %d deep", MAX_NESTING);
            klex_next(ps);
            uint32_t mark = x->nundo;
            x->depth++;
            bool ok = parse_block(ps) && resolve_fixups(ps, false);
            x->depth--;
            if (!ok)
                return false;
            unbind_to(ps, mark);
            continue;
        }
        if (ktok_is(t, ".reg")) {
            klex_next(ps);
            if (!parse_reg_decl(ps))
                return false;
        } else if (ktok_is(t, ".local") || ktok_is(t, ".shared") || ktok_is(t, ".param") || ktok_is(t, ".global") ||
                   ktok_is(t, ".const")) {
            kspace sp = ktok_is(t, ".local")    ? KS_LOCAL
                        : ktok_is(t, ".shared") ? KS_SHARED
                        : ktok_is(t, ".param")  ? KS_PARAM_FRAME
                        : ktok_is(t, ".global") ? KS_GLOBAL
                                                : KS_CONST;
            klex_next(ps);
            if (!parse_var_decl(ps, sp, false))
                return false;
        } else if (ktok_is(t, ".extern")) {
            klex_next(ps);
            if (!ktok_is(&ps->tok, ".shared"))
                return kparse_error(ps, "only .extern .shared is allowed inside a function");
            klex_next(ps);
            if (!parse_var_decl(ps, KS_SHARED, true))
                return false;
        } else if (ktok_is(t, ".loc") || ktok_is(t, ".file")) {
            skip_line(ps);
        } else if (ktok_is(t, ".pragma")) {
            if (!skip_pragma(ps))
                return false;
        } else if (t->kind == KTK_WORD && t->s[0] != '.' && followed_by_colon(ps)) {
            /* A label. */
            struct ksym *s = new_sym(ps, KSYM_LABEL);
            if (!s)
                return false;
            s->label = ps->cur->ninsns;
            ps->last_label = s;
            if (!bind_name(ps, t->s, t->len, s))
                return false;
            klex_next(ps);
            if (!expect_punct(ps, ':', "after the label"))
                return false;
        } else if (t->kind == KTK_WORD || ktok_punct(t, '@')) {
            if (!kparse_insn(ps))
                return false;
        } else {
            return kparse_error(ps, "unexpected '%.*s' in a function body", (int)t->len, t->s);
        }
        if (ps->err)
            return false;
    }
}

static struct kfunc *new_func(struct kparser *ps, const char *name, size_t len, bool entry)
{
    struct kmodule *m = ps->m;
    struct kfunc *f = calloc(1, sizeof(*f));
    struct kfunc **fs = f ? realloc(m->funcs, (m->nfuncs + 1) * sizeof(*fs)) : NULL;
    if (!fs || !(f->name = malloc(len + 1))) {
        if (fs)
            m->funcs = fs;
        free(f);
        oom(ps);
        return NULL;
    }
    m->funcs = fs;
    m->funcs[m->nfuncs++] = f;
    memcpy(f->name, name, len);
    f->name[len] = 0;
    f->entry = entry;
    f->module = m;
    f->max_dynamic_shared = 48 * 1024;
    f->preferred_carveout = -1;
    return f;
}

static bool parse_function(struct kparser *ps, bool entry, bool is_extern)
{
    uint32_t line = ps->tok.line;
    bool has_ret = false;
    const char *ret_p = NULL;
    uint32_t ret_line = 0;
    struct ktok ret_tok;
    if (!entry && ktok_punct(&ps->tok, '(')) {
        /* The return list comes before the name: remember where it is, read it once the
         * function's record exists. */
        has_ret = true;
        ret_p = ps->p;
        ret_line = ps->line;
        ret_tok = ps->tok;
        int depth = 0;
        do {
            if (ktok_punct(&ps->tok, '('))
                depth++;
            else if (ktok_punct(&ps->tok, ')'))
                depth--;
            else if (ps->tok.kind == KTK_EOF)
                return kparse_error(ps, "the return list is not closed");
            klex_next(ps);
        } while (depth > 0);
    }
    if (ps->tok.kind != KTK_WORD || ps->tok.s[0] == '.')
        return kparse_error(ps, "expected the function's name, found '%.*s'", (int)ps->tok.len, ps->tok.s);
    const char *name = ps->tok.s;
    uint32_t nlen = ps->tok.len;
    struct ksym *s = link_find(ps, name, nlen);
    if (ps->err)
        return false;
    struct kfunc *f;
    bool define_params = true;
    if (s) {
        if (s->kind != KSYM_FUNC || s->fn->entry != entry)
            return kparse_error(ps, "'%.*s' is declared twice as different things", (int)nlen, name);
        f = s->fn;
        define_params = !f->defined;
        if (f->defined && f->link_unit != ps->unit && !is_extern && header_has_body(ps)) {
            /* link part: a second definition from another unit. A .weak one loses to the
             * definition there; a strong one replaces a .weak one; two strong ones clash. */
            if (ps->weak) {
                if (!(f = new_func(ps, name, nlen, entry)))
                    return false;
                f->line = line;
                f->link_unit = DEAD_UNIT;
                s = NULL;
            } else if (!f->link_weak) {
                return kparse_error(ps, "duplicate definition of '%.*s' (also defined in %s)", (int)nlen, name,
                                    unit_name(ps, f->link_unit));
            } else if (!retire_weak_body(ps, f)) {
                return false;
            }
            define_params = true;
        }
        if (define_params && s) {
            /* The definition's names are the ones its body uses: read them anew. */
            for (uint32_t i = 0; i < f->nparams; ++i)
                free(f->params[i].name);
            free(f->ret.name);
            memset(&f->ret, 0, sizeof(f->ret));
            f->nparams = f->nrets = 0;
            f->frame_param_bytes = 0;
        }
    } else {
        if (!(f = new_func(ps, name, nlen, entry)) || !(s = new_sym(ps, KSYM_FUNC)))
            return false;
        s->fn = f;
        f->line = line;
        f->link_external = ps->external;
        if (!bind_name(ps, name, nlen, s) || !link_publish(ps, name, nlen, s))
            return false;
    }
    klex_next(ps);
    const char *after_name_p = ps->p;
    uint32_t after_name_line = ps->line;
    struct ktok after_name_tok = ps->tok;
    if (has_ret) {
        ps->p = ret_p;
        ps->line = ret_line;
        ps->tok = ret_tok;
        if (!parse_params(ps, f, true, define_params))
            return false;
        ps->p = after_name_p;
        ps->line = after_name_line;
        ps->tok = after_name_tok;
    }
    if (ktok_punct(&ps->tok, '(')) {
        /* A .func's own parameters come first in its frame area, its return value after. */
        if (!entry && define_params && has_ret) {
            /* Re-lay out: parameters at 0, the return value after them. */
            struct kparam ret = f->ret;
            f->frame_param_bytes = 0;
            if (!parse_params(ps, f, false, true))
                return false;
            ret.offset = (uint32_t)align_up(f->frame_param_bytes, ret.align);
            f->ret = ret;
            f->frame_param_bytes = ret.offset + ret.size;
        } else if (!parse_params(ps, f, false, define_params)) {
            return false;
        }
    }
    for (;;) {
        if (ktok_is(&ps->tok, ".maxntid") || ktok_is(&ps->tok, ".reqntid")) {
            uint32_t *dst = ktok_is(&ps->tok, ".maxntid") ? f->maxntid : f->reqntid;
            klex_next(ps);
            if (!parse_dim_list(ps, dst))
                return false;
        } else if (ktok_is(&ps->tok, ".minnctapersm") || ktok_is(&ps->tok, ".maxnreg") ||
                   ktok_is(&ps->tok, ".maxnctapersm")) {
            bool is_min = ktok_is(&ps->tok, ".minnctapersm");
            bool is_reg = ktok_is(&ps->tok, ".maxnreg");
            klex_next(ps);
            uint64_t v;
            if (!expect_int(ps, &v, "a count"))
                return false;
            if (is_min)
                f->minnctapersm = (uint32_t)v;
            else if (is_reg)
                f->maxnreg = (uint32_t)v;
        } else if (ktok_is(&ps->tok, ".noreturn") || ktok_is(&ps->tok, ".explicitcluster")) {
            if (ktok_is(&ps->tok, ".explicitcluster"))
                f->explicitcluster = true; /* clusters: launches must name a cluster */
            klex_next(ps);
        } else if (ktok_is(&ps->tok, ".reqnctapercluster") || ktok_is(&ps->tok, ".maxclusterrank")) {
            bool req = ktok_is(&ps->tok, ".reqnctapercluster");
            klex_next(ps);
            uint32_t dims[3] = {0};
            if (!parse_dim_list(ps, dims))
                return false;
            /* clusters: __cluster_dims__ (the launch's cluster shape) and the largest cluster */
            if (req) {
                for (int i = 0; i < 3; ++i)
                    f->reqnctapercluster[i] = dims[i] ? dims[i] : 1;
            } else {
                f->maxclusterrank = dims[0];
            }
        } else if (ktok_is(&ps->tok, ".pragma")) {
            if (!skip_pragma(ps))
                return false;
        } else {
            break;
        }
    }
    if (ktok_punct(&ps->tok, ';')) {
        klex_next(ps);
        return true; /* a declaration */
    }
    if (is_extern)
        return kparse_error(ps, "an .extern function has no body");
    if (f->defined)
        return kparse_error(ps, "function '%s' is defined twice", f->name);
    if (!expect_punct(ps, '{', "to open the function body"))
        return false;
    f->defined = true;
    f->line = line;
    f->link_external |= ps->external;
    if (f->link_unit != DEAD_UNIT) {
        f->link_unit = ps->unit;
        f->link_weak = ps->weak;
    }
    ps->cur = f;
    ps->cap_insns = 0;
    ps->cap_consts = 0;
    f->nregs = 0;
    free(ps->const_is_sym);
    ps->const_is_sym = NULL;
    ps->cap_const_is_sym = 0;
    if (!(ps->locals = khash_new()))
        return oom(ps);
    X(ps)->nundo = 0;
    X(ps)->depth = 0;
    bool ok = bind_params(ps, f) && parse_block(ps) && resolve_fixups(ps, true);
    if (ok && (f->ninsns == 0 || (f->code[f->ninsns - 1].kind != KK_RET && f->code[f->ninsns - 1].kind != KK_EXIT &&
                                  f->code[f->ninsns - 1].kind != KK_TRAP))) {
        /* Falling off the end of a body returns (the PTX ISA: "ret" at the end is implied). */
        struct kinsn *in = kfunc_push_insn(ps);
        if (in) {
            in->kind = entry ? KK_EXIT : KK_RET;
            in->guard = KOPND_NONE;
            in->name = entry ? "exit" : "ret";
            in->line = ps->tok.line;
        }
    }
    unbind_to(ps, 0);
    khash_free(ps->locals);
    ps->locals = NULL;
    ps->cur = NULL;
    return ok && !ps->err;
}

/* The .version and .target numbers. */
static bool parse_version(struct kparser *ps)
{
    const struct ktok *t = &ps->tok;
    unsigned major = 0, minor = 0;
    char buf[32];
    if (t->len >= sizeof(buf) || (t->kind != KTK_FLOAT && t->kind != KTK_INT))
        return kparse_error(ps, "expected a version number after .version");
    memcpy(buf, t->s, t->len);
    buf[t->len] = 0;
    if (sscanf(buf, "%u.%u", &major, &minor) < 1)
        return kparse_error(ps, "expected a version number after .version");
    if (major < 1 || major > 9 || (major == 9 && minor > 0))
        return kparse_error(ps, "PTX ISA version %u.%u is not supported (up to 9.0)", major, minor);
    if (major * 10 + minor > ps->m->ptx_version) /* link part: a linked text's highest */
        ps->m->ptx_version = major * 10 + minor;
    klex_next(ps);
    return true;
}

static bool parse_target(struct kparser *ps)
{
    for (;;) {
        const struct ktok *t = &ps->tok;
        if (t->kind != KTK_WORD)
            return kparse_error(ps, "expected a target after .target");
        if (t->len > 3 && memcmp(t->s, "sm_", 3) == 0) {
            unsigned sm = 0;
            for (uint32_t i = 3; i < t->len && t->s[i] >= '0' && t->s[i] <= '9'; ++i)
                sm = sm * 10 + (unsigned)(t->s[i] - '0');
            if (sm > ps->m->target_sm) /* link part: a linked text's highest */
                ps->m->target_sm = sm;
        } else if (!ktok_is(t, "texmode_unified") && !ktok_is(t, "texmode_independent") && !ktok_is(t, "debug") &&
                   !ktok_is(t, "map_f64_to_f32")) {
            return kparse_error(ps, "unknown target '%.*s'", (int)t->len, t->s);
        }
        klex_next(ps);
        if (!ktok_punct(&ps->tok, ','))
            return true;
        klex_next(ps);
    }
}

/* Final shared layout and the patches of the constant slots that hold shared addresses. */
static void finish_shared(struct kparser *ps)
{
    struct kparse_extra *x = X(ps);
    struct kmodule *m = ps->m;
    uint32_t M = (uint32_t)align_up(x->module_shared, 16);
    uint32_t maxE = 0;
    for (uint32_t i = 0; i < m->nfuncs; ++i)
        if (m->funcs[i]->entry && m->funcs[i]->static_shared > maxE)
            maxE = m->funcs[i]->static_shared;
    uint32_t fbase = M + (uint32_t)align_up(maxE, 16);
    uint32_t top = 0;
    for (uint32_t i = 0; i < m->nfuncs; ++i) {
        struct kfunc *f = m->funcs[i];
        if (!f->entry)
            continue;
        uint32_t own = f->static_shared;
        f->static_shared = x->func_shared ? fbase + x->func_shared : M + own;
        if (!x->module_shared && !x->func_shared)
            f->static_shared = own;
        if (f->static_shared > top)
            top = f->static_shared;
    }
    uint32_t dyn_align = x->dyn_align > 16 ? x->dyn_align : 16;
    uint32_t dyn = (uint32_t)align_up(top > fbase + x->func_shared ? top : fbase + x->func_shared, dyn_align);
    for (uint32_t i = 0; i < m->nfuncs; ++i)
        m->funcs[i]->dyn_shared_offset = dyn;
    for (uint32_t i = 0; i < x->npatches; ++i) {
        struct kshared_patch *p = &x->patches[i];
        struct kshared *sh = &x->shared[p->var];
        uint64_t base = sh->scope == 0 ? sh->offset
                        : sh->scope == 1 ? M + sh->offset
                        : sh->scope == 2 ? fbase + sh->offset
                                         : dyn;
        if (sh->scope == 1 && !x->module_shared && !x->func_shared)
            base = sh->offset;
        uint64_t *c = p->fn->consts + (size_t)p->slot * KLANES;
        for (int l = 0; l < KLANES; ++l)
            c[l] = base + (uint64_t)p->addend;
    }
}

static bool check_calls(struct kparser *ps)
{
    struct kmodule *m = ps->m;
    for (uint32_t i = 0; i < m->nfuncs; ++i) {
        struct kfunc *f = m->funcs[i];
        for (uint32_t j = 0; j < f->ninsns; ++j) {
            struct kinsn *in = &f->code[j];
            if (in->kind != KK_CALL)
                continue;
            struct kcall *c = in->aux;
            if (c->builtin == KB_MALLOC || c->builtin == KB_FREE || c->builtin == KB_DEVRT_MALLOC ||
                c->builtin == KB_DEVRT_FREE) /* devrt: the device runtime's cudaMalloc/cudaFree are malloc/free */
                m->uses_heap = true;
            if (c->callee && !c->callee->defined && c->builtin == KB_NONE && !ps->relocatable) {
                /* Names the unit the caller is in when the text was linked. */
                if (m->link_units > 1 && f->link_unit < ps->nunit_names && ps->unit_names[f->link_unit])
                    ps->name = ps->unit_names[f->link_unit];
                return kparse_error_at(ps, in->line, "unresolved extern function '%s' (called by %s)%s",
                                       c->callee->name, f->name,
                                       m->link_units > 1 ? ": no unit of the link defines it"
                                                         : ": declared but not defined in the module, which is "
                                                           "not linked with another (cuLinkCreate links modules)");
            }
        }
    }
    /* A variable declared .extern, used, and defined by no unit. */
    for (uint32_t i = 0; i < m->nvars; ++i) {
        if (!m->vars[i].link_declared)
            continue;
        bool used = false;
        for (uint32_t j = 0; j < m->nconst_relocs && !used; ++j)
            used = m->const_relocs[j].var == i;
        for (uint32_t j = 0; j < m->nrelocs && !used; ++j)
            used = m->relocs[j].var == i;
        if (used && ps->relocatable)
            continue;
        if (used)
            return kparse_error_at(ps, 0, "unresolved extern variable '%s'%s", m->vars[i].name,
                                   m->link_units > 1 ? ": no unit of the link defines it"
                                                     : ": declared but not defined in the module, which is not "
                                                       "linked with another (cuLinkCreate links modules)");
        m->vars[i].name[0] = 0; /* declared, never used, never defined: nothing to find */
    }
    return true;
}

static void free_func(struct kfunc *f)
{
    if (!f)
        return;
    for (uint32_t i = 0; i < f->ninsns; ++i) {
        if (f->code[i].kind == KK_CALL || f->code[i].kind == KK_BRX || (f->code[i].flags & KF_OWNS_AUX))
            free(f->code[i].aux);
    }
    for (uint32_t i = 0; i < f->nparams; ++i)
        free(f->params[i].name);
    free(f->ret.name);
    free(f->params);
    free(f->code);
    free(f->consts);
    free(f->name);
    free(f);
}

static void free_value(void *v, void *arg)
{
    (void)arg;
    free(v);
}

void kmod_free(struct kmodule *m)
{
    if (!m)
        return;
    knative_release(m);
    for (uint32_t i = 0; i < m->nfuncs; ++i)
        free_func(m->funcs[i]);
    for (uint32_t i = 0; i < m->nvars; ++i) {
        free(m->vars[i].name);
        free(m->vars[i].init);
    }
    free(m->funcs);
    free(m->vars);
    free(m->relocs);
    free(m->const_relocs);
    free(m->source_name);
    if (m->names) {
        khash_each(m->names, free_value, NULL);
        khash_free(m->names);
    }
    free(m);
}

bool kptx_looks_like(const char *text, size_t len)
{
    /* PTX starts with comments and whitespace, then a directive (.version first). */
    struct kparser ps = {0};
    klex_init(&ps, text, len);
    return ktok_is(&ps.tok, ".version");
}

CUresult kmod_parse(const char *fn, const char *text, size_t len, const char *name, struct klog *errlog,
                    struct kmodule **out)
{
    return kmod_parse_units(fn, text, len, name, NULL, 0, 0, errlog, out);
}

CUresult kmod_parse_units(const char *fn, const char *text, size_t len, const char *name,
                          const char *const *unit_names, uint32_t nunit_names, unsigned flags, struct klog *errlog,
                          struct kmodule **out)
{
    *out = NULL;
    struct kparse_extra x = {0};
    struct kparser ps = {0};
    ps.fn = fn;
    ps.name = name ? name : "<ptx>";
    ps.log = errlog;
    ps.fixups_extra = &x;
    ps.unit_names = unit_names;
    ps.nunit_names = unit_names ? nunit_names : 0;
    ps.relocatable = flags & KPARSE_RELOCATABLE;
    ps.m = calloc(1, sizeof(*ps.m));
    ps.globals = khash_new();
    ps.linked = khash_new();
    if (!ps.m || !ps.globals || !ps.linked || !(ps.m->source_name = malloc(strlen(ps.name) + 1))) {
        oom(&ps);
        goto done;
    }
    strcpy(ps.m->source_name, ps.name);
    if (ps.nunit_names && ps.unit_names[0])
        ps.name = ps.unit_names[0];
    ps.m->data_align = 16;
    klex_init(&ps, text, len);
    if (!ktok_is(&ps.tok, ".version")) {
        kparse_error(&ps, "expected .version first");
        goto done;
    }
    while (!ps.err && ps.tok.kind != KTK_EOF) {
        struct ktok *t = &ps.tok;
        bool is_extern = false;
        ps.external = ps.weak = false;
        while (ktok_is(t, ".visible") || ktok_is(t, ".extern") || ktok_is(t, ".weak") || ktok_is(t, ".common")) {
            if (ktok_is(t, ".extern"))
                is_extern = true;
            if (ktok_is(t, ".weak") || ktok_is(t, ".common"))
                ps.weak = true;
            ps.external = true;
            klex_next(&ps);
        }
        if (ktok_is(t, ".version")) {
            /* link part: each .version starts a linking unit (a linked text holds several) with
             * a scope of its own for the names without external linkage. */
            if (ps.m->link_units++) {
                khash_free(ps.globals);
                if (!(ps.globals = khash_new())) {
                    oom(&ps);
                    break;
                }
                ps.unit++;
                ps.unit_line0 = t->line - 1;
                if (ps.unit < ps.nunit_names && ps.unit_names[ps.unit])
                    ps.name = ps.unit_names[ps.unit];
            }
            klex_next(&ps);
            parse_version(&ps);
        } else if (ktok_is(t, ".target")) {
            klex_next(&ps);
            parse_target(&ps);
        } else if (ktok_is(t, ".address_size")) {
            klex_next(&ps);
            uint64_t v;
            if (expect_int(&ps, &v, "an address size") && v != 64)
                kparse_error(&ps, ".address_size %llu is not supported: the software device is 64-bit",
                             (unsigned long long)v);
        } else if (ktok_is(t, ".file") || ktok_is(t, ".loc")) {
            skip_line(&ps);
        } else if (ktok_is(t, ".section")) {
            klex_next(&ps);
            klex_next(&ps); /* its name */
            skip_braces(&ps);
        } else if (ktok_is(t, ".pragma")) {
            skip_pragma(&ps);
        } else if (ktok_is(t, ".entry") || ktok_is(t, ".func")) {
            bool entry = ktok_is(t, ".entry");
            klex_next(&ps);
            parse_function(&ps, entry, is_extern);
        } else if (ktok_is(t, ".global") || ktok_is(t, ".const") || ktok_is(t, ".shared")) {
            kspace sp = ktok_is(t, ".global") ? KS_GLOBAL : ktok_is(t, ".const") ? KS_CONST : KS_SHARED;
            klex_next(&ps);
            parse_var_decl(&ps, sp, is_extern);
        } else if (ktok_is(t, ".tex") || ktok_is(t, ".surf") || ktok_is(t, ".texref") || ktok_is(t, ".samplerref") ||
                   ktok_is(t, ".surfref")) {
            kparse_error(&ps, "texture and surface references (%.*s) are not supported", (int)t->len, t->s);
        } else if (ktok_is(t, ".alias")) {
            kparse_error(&ps, ".alias is not supported");
        } else {
            kparse_error(&ps, "expected a directive (.entry, .func, .global ...), found '%.*s'", (int)t->len, t->s);
        }
    }
    if (!ps.err && check_calls(&ps)) {
        finish_shared(&ps);
        for (uint32_t i = 0; i < ps.m->nfuncs; ++i)
            ps.m->uses_local |= ps.m->funcs[i]->local_bytes != 0;
    }
done:
    for (uint32_t i = 0; i < x.nsyms; ++i) {
        free(x.syms[i]->targets);
        free(x.syms[i]);
    }
    free(x.syms);
    for (uint32_t i = 0; i < x.nundo; ++i)
        free(x.undo[i].name);
    free(x.undo);
    free(x.shared);
    free(x.patches);
    for (uint32_t i = 0; i < ps.nfixups; ++i)
        free(ps.fixups[i].name);
    free(ps.fixups);
    free(ps.const_is_sym);
    khash_free(ps.locals);
    khash_free(ps.globals);
    khash_free(ps.linked);
    if (ps.err) {
        if (ps.cur && ps.m) {
            /* The function being parsed is in m->funcs already. */
        }
        kmod_free(ps.m);
        return ps.err;
    }
    *out = ps.m;
    return CUDA_SUCCESS;
}

void kmod_bind(struct kmodule *m, uintptr_t base)
{
    m->data_base = base;
    for (uint32_t i = 0; i < m->nvars; ++i)
        if (m->vars[i].init_bytes)
            memcpy((void *)(base + m->vars[i].offset), m->vars[i].init, (size_t)m->vars[i].init_bytes);
    for (uint32_t i = 0; i < m->nrelocs; ++i) {
        struct kreloc *r = &m->relocs[i];
        uint64_t v = base + m->vars[r->var].offset + (uint64_t)r->addend;
        put_le((unsigned char *)base + r->at, v, r->size);
    }
    for (uint32_t i = 0; i < m->nconst_relocs; ++i) {
        struct kconst_reloc *r = &m->const_relocs[i];
        uint64_t v = base + m->vars[r->var].offset + (uint64_t)r->addend;
        uint64_t *c = r->fn->consts + (size_t)r->slot * KLANES;
        for (int l = 0; l < KLANES; ++l)
            c[l] = v;
    }
}

struct kfunc *kmod_entry(const struct kmodule *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfuncs; ++i)
        if (m->funcs[i]->entry && m->funcs[i]->defined && m->funcs[i]->link_unit != DEAD_UNIT &&
            strcmp(m->funcs[i]->name, name) == 0)
            return m->funcs[i];
    return NULL;
}

const struct kvar *kmod_var(const struct kmodule *m, const char *name)
{
    for (uint32_t i = 0; i < m->nvars; ++i)
        if (strcmp(m->vars[i].name, name) == 0)
            return &m->vars[i];
    return NULL;
}

static const char *const type_names[] = {
#define X_(e, s, n) s,
    KTYPES(X_)
#undef X_
};
static const unsigned char type_sizes[] = {
#define X_(e, s, n) n,
    KTYPES(X_)
#undef X_
};
unsigned ktype_size(ktype t) { return t < KT_COUNT ? type_sizes[t] : 0; }
const char *ktype_name(ktype t) { return t < KT_COUNT ? type_names[t] : "?"; }
