/*
 * Linking (cuLinkCreate, cuLinkAddData, cuLinkAddFile, cuLinkComplete, cuLinkDestroy; issue 25,
 * DESIGN.md §19, docs/kernels.md "Linking").
 *
 * Every input becomes PTX: PTX as it is, a fat binary's best PTX entry for the device, a host
 * object's embedded fat binaries (the __nv_relfatbin and .nv_fatbin sections nvcc -dc and clang
 * -fgpu-rdc write), an archive's objects. Each is decoded when it is added (relocatable: its
 * externs may stay open), so malformed input fails at cuLinkAddData as on the driver, which
 * compiles each input as it comes.
 *
 * The image cuLinkComplete makes is the inputs' PTX, one after the other: a text of several
 * linking units, each starting with its .version, which the engine decodes as one module whose
 * names with external linkage (.visible, .extern, .weak, .common) are shared and whose other
 * names stay each unit's own (kernel.h, kmod_parse_units). cuModuleLoadData(Ex) and
 * cuLibraryLoadData take it as the PTX it is; it starts with a comment naming it. The image is
 * decoded once more at cuLinkComplete, where an unresolved extern or a name two units define is
 * CUDA_ERROR_INVALID_PTX with the symbol in the error log, before any module is made.
 */
#include "module/module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINK_MAGIC_LINE "// extmem: linked image\n"
#define LINK_MAX_INPUTS 65536
/* What a fat binary, an object or an archive may hold, at most: their headers are input we do
 * not trust, so every count and size is checked against the bytes we were given. */
#define AR_MAGIC "!<arch>\n"

struct link_unit {
    char *text;  /* NUL-terminated PTX */
    size_t len;
    char *name;  /* for messages */
};

/* A name with external linkage, as the inputs so far define and declare it. */
struct link_sym {
    bool defined, weak_only; /* some input defines it; only .weak definitions so far */
    uint32_t def_unit;       /* the first (strong, once there is one) definition's unit */
    bool func;
    char *sig;               /* a function's parameter and return sizes, from its first unit */
    uint32_t sig_unit;
};

/* A call of a function or a use of a variable the input itself does not define. */
struct link_ref {
    char *name;
    uint32_t unit;
};

struct link_state {
    struct obj base;
    os_mutex lock;
    struct jit_options jo; /* cuLinkCreate's: the logs every later call writes to */
    bool verbose;          /* CU_JIT_LOG_VERBOSE: the info log says what each step did */
    CUresult sticky;       /* a link error (two definitions, a prototype clash) ends the state */
    struct khash *syms;    /* name -> struct link_sym */
    struct link_ref *refs;
    uint32_t nrefs, cap_refs;
    void **values;         /* the caller's optionValues, where sizes are written back */
    unsigned int nvalues;
    struct link_unit *units;
    uint32_t nunits, cap;
    char *image;           /* cuLinkComplete's, freed by cuLinkDestroy */
    size_t image_size;
    bool completed;
};

static void sym_free(void *value, void *arg)
{
    (void)arg;
    struct link_sym *y = value;
    free(y->sig);
    free(y);
}

static void link_destroy(struct obj *o)
{
    struct link_state *s = (struct link_state *)o;
    if (s->syms) {
        khash_each(s->syms, sym_free, NULL);
        khash_free(s->syms);
    }
    for (uint32_t i = 0; i < s->nrefs; ++i)
        free(s->refs[i].name);
    free(s->refs);
    for (uint32_t i = 0; i < s->nunits; ++i) {
        free(s->units[i].text);
        free(s->units[i].name);
    }
    free(s->units);
    free(s->image);
    os_mutex_destroy(&s->lock);
    free(s);
}

static CUresult link_lookup(const char *fn, CUlinkState handle, struct link_state **out)
{
    struct obj *o;
    obj_status st = obj_lookup((uint64_t)(uintptr_t)handle, OBJ_LINK_STATE, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: %s", fn,
                    obj_status_text(st, OBJ_LINK_STATE, (uint64_t)(uintptr_t)handle));
    *out = (struct link_state *)o;
    return CUDA_SUCCESS;
}

/* The sizes written back into cuLinkCreate's optionValues after every call, as the bytes the
 * logs hold so far. */
static void write_back(struct link_state *s)
{
    if (s->values)
        jit_options_finish(&s->jo, s->values, 0.0f);
}

/* The error's reason in both error logs (the state's, and the call's own options'), in the
 * driver's shape ("error   : ..."), unless the decoder wrote its own message there already
 * (the logs had `logged` bytes before the call). */
static CUresult log_failure(struct link_state *s, struct jit_options *call, size_t logged, CUresult r)
{
    const char *why = extmem_error_detail();
    if (r == CUDA_ERROR_INVALID_SOURCE)
        return r; /* a link error: its lines are in the logs already, as the driver writes them */
    if (s->jo.err.buf && s->jo.err.used == logged)
        klog_printf(&s->jo.err, "error   : %s\n", why);
    if (call && call->err.buf && !call->err.used)
        klog_printf(&call->err, "error   : %s\n", why);
    return r;
}

/* A line in the error logs (the state's and the call's). */
static void log_error(struct link_state *s, struct jit_options *call, const char *line)
{
    if (s->jo.err.buf)
        klog_printf(&s->jo.err, "%s\n", line);
    if (call && call->err.buf)
        klog_printf(&call->err, "%s\n", line);
}

/* ---- The symbols of the inputs: what each defines and what it needs (the driver links as the
 * inputs come, so two definitions of a name, or two prototypes of a function, fail at the
 * cuLinkAddData that brings the second, and leave the state failed: observed on the H100's
 * driver, docs/driver-observations.md) ---- */
static const char *unit_label(const struct link_state *s, uint32_t unit, const char *adding)
{
    return unit < s->nunits ? s->units[unit].name : adding;
}

static struct link_sym *sym_get(struct link_state *s, const char *name)
{
    size_t len = strlen(name);
    struct link_sym *y = khash_get(s->syms, name, len);
    if (y)
        return y;
    if (!(y = calloc(1, sizeof(*y))) || !khash_put(s->syms, name, len, y, NULL)) {
        free(y);
        return NULL;
    }
    return y;
}

/* A function's prototype as sizes: its return value's, then each parameter's. */
static char *signature(const struct kfunc *f)
{
    size_t cap = 32 + (size_t)f->nparams * 12;
    char *sig = malloc(cap);
    if (!sig)
        return NULL;
    size_t n = (size_t)snprintf(sig, cap, "(%u)", f->nrets ? f->ret.size : 0);
    for (uint32_t i = 0; i < f->nparams && n < cap; ++i)
        n += (size_t)snprintf(sig + n, cap - n, " %u", f->params[i].size);
    return sig;
}

static bool var_used(const struct kmodule *km, uint32_t v)
{
    for (uint32_t j = 0; j < km->nconst_relocs; ++j)
        if (km->const_relocs[j].var == v)
            return true;
    for (uint32_t j = 0; j < km->nrelocs; ++j)
        if (km->relocs[j].var == v)
            return true;
    return false;
}

static bool add_ref(struct link_state *s, const char *name, uint32_t unit)
{
    for (uint32_t i = s->nrefs; i > 0 && s->refs[i - 1].unit == unit; --i)
        if (strcmp(s->refs[i - 1].name, name) == 0)
            return true;
    if (s->nrefs == s->cap_refs) {
        uint32_t ncap = s->cap_refs ? s->cap_refs * 2 : 16;
        struct link_ref *n = realloc(s->refs, ncap * sizeof(*n));
        if (!n)
            return false;
        s->refs = n;
        s->cap_refs = ncap;
    }
    char *copy = malloc(strlen(name) + 1);
    if (!copy)
        return false;
    strcpy(copy, name);
    s->refs[s->nrefs++] = (struct link_ref){copy, unit};
    return true;
}

/* Records what km (the input `adding`, to be unit `unit`) defines and needs; a second strong
 * definition or a prototype that differs from an earlier unit's is CUDA_ERROR_INVALID_SOURCE,
 * each named in the error logs as the driver names them. */
static CUresult record_symbols(const char *fn, struct link_state *s, struct jit_options *call,
                               const struct kmodule *km, uint32_t unit, const char *adding)
{
    char line[768], first[768] = "";
    bool oom = false;
    for (uint32_t i = 0; i < km->nfuncs + km->nvars; ++i) {
        bool is_func = i < km->nfuncs;
        const struct kfunc *f = is_func ? km->funcs[i] : NULL;
        const struct kvar *v = is_func ? NULL : &km->vars[i - km->nfuncs];
        const char *name = is_func ? f->name : v->name;
        bool external = is_func ? f->link_external : v->link_external;
        uint32_t from = is_func ? f->link_unit : v->link_unit;
        if (!external || from == KFUNC_DEAD_UNIT || !name[0])
            continue;
        struct link_sym *y = sym_get(s, name);
        if (!y) {
            oom = true;
            break;
        }
        line[0] = 0;
        if (is_func && !f->entry) {
            char *sig = signature(f);
            if (!sig) {
                oom = true;
                break;
            }
            if (!y->sig) {
                y->sig = sig;
                y->sig_unit = unit;
                y->func = true;
            } else {
                if (strcmp(y->sig, sig) != 0)
                    snprintf(line, sizeof(line), "error   : Prototype doesn't match for '%s' in '%s', first defined "
                             "in '%s'", name, adding, unit_label(s, y->sig_unit, adding));
                free(sig);
            }
        }
        bool defines = is_func ? f->defined : !v->link_declared;
        bool weak = is_func ? f->link_weak : v->link_weak;
        if (!line[0] && defines) {
            if (!y->defined) {
                y->defined = true;
                y->weak_only = weak;
                y->def_unit = unit;
            } else if (!weak && !y->weak_only) {
                snprintf(line, sizeof(line), "error   : Multiple definition of '%s' in '%s', first defined in '%s'",
                         name, adding, unit_label(s, y->def_unit, adding));
            } else if (!weak) {
                y->weak_only = false;
                y->def_unit = unit;
            }
        }
        if (line[0]) {
            log_error(s, call, line);
            if (!first[0])
                snprintf(first, sizeof(first), "%s", line + 10);
        }
    }
    /* Calls of functions the input declares and does not define (the engine's own, printf,
     * malloc and the device runtime's, are no references). */
    for (uint32_t i = 0; i < km->nfuncs && !oom; ++i) {
        const struct kfunc *f = km->funcs[i];
        for (uint32_t j = 0; j < f->ninsns && !oom; ++j) {
            const struct kcall *c = f->code[j].kind == KK_CALL ? f->code[j].aux : NULL;
            if (c && c->callee && !c->callee->defined && c->builtin == KB_NONE)
                oom = !add_ref(s, c->callee->name, unit);
        }
    }
    for (uint32_t i = 0; i < km->nvars && !oom; ++i)
        if (km->vars[i].link_declared && km->vars[i].name[0] && var_used(km, i))
            oom = !add_ref(s, km->vars[i].name, unit);
    if (oom)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the link's symbols", fn);
    if (first[0])
        return s->sticky = fail(CUDA_ERROR_INVALID_SOURCE, "%s: %s", fn, first);
    return CUDA_SUCCESS;
}

/* ---- Inputs to PTX ---- */
static uint16_t rd16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const unsigned char *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static CUresult add_unit(const char *fn, struct link_state *s, char *text, size_t len, const char *name)
{
    if (s->nunits >= LINK_MAX_INPUTS) {
        free(text);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: more than %d inputs", fn, LINK_MAX_INPUTS);
    }
    if (s->nunits == s->cap) {
        uint32_t ncap = s->cap ? s->cap * 2 : 8;
        struct link_unit *u = realloc(s->units, ncap * sizeof(*u));
        if (!u) {
            free(text);
            return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the inputs", fn);
        }
        s->units = u;
        s->cap = ncap;
    }
    char *copy = malloc(strlen(name) + 1);
    if (!copy) {
        free(text);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the inputs", fn);
    }
    strcpy(copy, name);
    s->units[s->nunits++] = (struct link_unit){text, len, copy};
    return CUDA_SUCCESS;
}

/* Checks PTX as one input of a link (its externs may stay open), records its symbols and
 * keeps it. */
static CUresult add_ptx(const char *fn, struct link_state *s, struct jit_options *call, char *text, size_t len,
                        const char *name)
{
    struct kmodule *km;
    struct klog *errlog = call->err.buf ? &call->err : &s->jo.err;
    CUresult r = kmod_parse_units(fn, text, len, name, NULL, 0, KPARSE_RELOCATABLE, errlog, &km);
    if (r) {
        free(text);
        if (errlog == &call->err && s->jo.err.buf) /* the state's log hears of it too */
            klog_printf(&s->jo.err, "%s\n", extmem_error_detail());
        return r;
    }
    r = record_symbols(fn, s, call, km, s->nunits, name);
    uint32_t funcs = km->nfuncs, units = km->link_units;
    kmod_free(km);
    if (r) {
        free(text);
        return r;
    }
    if (s->verbose)
        klog_printf(&s->jo.info, "info    : %s: PTX ISA input of %u functions%s\n", name, funcs,
                    units > 1 ? " (an image linked before)" : "");
    if (call->info.buf)
        klog_printf(&call->info, "info    : %s: PTX ISA input of %u functions\n", name, funcs);
    return add_unit(fn, s, text, len, name);
}

/* PTX text given as data of `size` bytes (a NUL within them ends it). */
static CUresult ptx_copy(const char *fn, const void *data, size_t size, char **text, size_t *len)
{
    const char *p = data;
    size_t n = 0;
    while (n < size && p[n])
        n++;
    if (!kptx_looks_like(p, n))
        return fail(CUDA_ERROR_INVALID_IMAGE, "%s: the input is not PTX text (PTX starts with .version)", fn);
    char *t = malloc(n + 1);
    if (!t)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %zu bytes of PTX", fn, n);
    memcpy(t, p, n);
    t[n] = 0;
    *text = t;
    *len = n;
    return CUDA_SUCCESS;
}

/* The fat binary containers in [p, p + size) (a section may hold several, 8-byte aligned), each
 * one's PTX for the device added. *found counts the containers with PTX; a container without
 * any (SASS only, or for newer targets) is skipped when `tolerate` (an object's other
 * containers may have what is needed), else refused. */
static CUresult add_containers(const char *fn, struct link_state *s, struct jit_options *call, const unsigned char *p,
                               size_t size, const char *name, bool tolerate, unsigned *found)
{
    size_t off = 0;
    unsigned n = 0;
    while (off + 16 <= size) {
        if (rd32(p + off) != 0xBA55ED50u) {
            off += 8; /* padding between containers */
            continue;
        }
        uint16_t hsize = rd16(p + off + 6);
        uint64_t body = rd64(p + off + 8);
        if (hsize < 16 || body > size - off || hsize > size - off - body)
            return fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s: a fat binary at offset %zu claims %llu bytes, past the "
                        "%zu the input has", fn, name, off, (unsigned long long)(hsize + body), size);
        size_t total = (size_t)(hsize + body);
        char *text;
        size_t len;
        char what[96];
        CUresult r = body ? image_ptx(fn, p + off, total, device_sm(), &text, &len, what) : CUDA_ERROR_INVALID_IMAGE;
        if (!body && !tolerate)
            r = fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s: the fat binary is empty", fn, name);
        if (r == CUDA_SUCCESS) {
            char unit[512];
            snprintf(unit, sizeof(unit), n ? "%s (fat binary %u)" : "%s", name, n + 1);
            if ((r = add_ptx(fn, s, call, text, len, unit)))
                return r;
            ++*found;
        } else if (!tolerate || (r != CUDA_ERROR_NO_BINARY_FOR_GPU && r != CUDA_ERROR_INVALID_IMAGE)) {
            return r;
        }
        n++;
        off = (off + total + 7) & ~(size_t)7;
    }
    return CUDA_SUCCESS;
}

/* A host object (ELF64, little-endian): its fat binaries. A device ELF (a cubin: machine EM_CUDA)
 * is machine code the software device cannot run. */
static CUresult add_object(const char *fn, struct link_state *s, struct jit_options *call, const unsigned char *p,
                           size_t size, const char *name, unsigned *found)
{
    if (size < 64 || memcmp(p, "\x7f" "ELF", 4) != 0)
        return fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s is not an object file (ELF)", fn, name);
    if (p[4] != 2 || p[5] != 1)
        return fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s is not a 64-bit little-endian object", fn, name);
    if (rd16(p + 18) == 190)
        return fail(CUDA_ERROR_NO_BINARY_FOR_GPU, "%s: %s is a cubin (GPU machine code), which a CPU cannot run: "
                    "link PTX (nvcc -dc with -gencode arch=compute_XX,code=compute_XX)", fn, name);
    uint64_t shoff = rd64(p + 0x28);
    uint16_t shentsize = rd16(p + 0x3a), shnum = rd16(p + 0x3c), shstrndx = rd16(p + 0x3e);
    if (shentsize < 64 || shoff > size || (uint64_t)shnum * shentsize > size - shoff || shstrndx >= shnum)
        return fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s: its section headers lie outside its %zu bytes", fn, name, size);
    const unsigned char *strh = p + shoff + (size_t)shstrndx * shentsize;
    uint64_t stroff = rd64(strh + 0x18), strsize = rd64(strh + 0x20);
    if (stroff > size || strsize > size - stroff)
        return fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s: its section names lie outside it", fn, name);
    unsigned before = *found;
    for (uint16_t i = 0; i < shnum; ++i) {
        const unsigned char *sh = p + shoff + (size_t)i * shentsize;
        uint32_t nameoff = rd32(sh);
        uint32_t type = rd32(sh + 4);
        uint64_t off = rd64(sh + 0x18), sz = rd64(sh + 0x20);
        if (nameoff >= strsize || type == 8 /* SHT_NOBITS */)
            continue;
        const char *sname = (const char *)p + stroff + nameoff;
        size_t maxlen = (size_t)(strsize - nameoff);
        if (strncmp(sname, "__nv_relfatbin", maxlen) != 0 && strncmp(sname, ".nv_fatbin", maxlen) != 0)
            continue;
        if (off > size || sz > size - off)
            return fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s: section %s lies outside it", fn, name, sname);
        CUresult r;
        if (kptx_looks_like((const char *)p + off, (size_t)sz)) {
            /* extmem's clang build (ExtmemCuda.cmake) embeds the unit's PTX text itself. */
            char *text;
            size_t len;
            if (!(r = ptx_copy(fn, p + off, (size_t)sz, &text, &len)) && !(r = add_ptx(fn, s, call, text, len, name)))
                ++*found;
        } else {
            r = add_containers(fn, s, call, p + off, (size_t)sz, name, true, found);
        }
        if (r)
            return r;
    }
    if (*found == before)
        return fail(CUDA_ERROR_NO_BINARY_FOR_GPU, "%s: %s holds no device code with PTX for compute capability %d.%d "
                    "or lower (SASS only, or none: compile with -rdc=true or -dc and "
                    "-gencode arch=compute_XX,code=compute_XX)", fn, name, device_sm() / 10, device_sm() % 10);
    return CUDA_SUCCESS;
}

/* An ar archive: each member object with device code (members without any are host code and
 * skipped, as nvlink skips them). */
static CUresult add_archive(const char *fn, struct link_state *s, struct jit_options *call, const unsigned char *p,
                            size_t size, const char *name)
{
    if (size < 8 || memcmp(p, AR_MAGIC, 8) != 0)
        return fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s is not an archive (ar, as nvcc -lib makes)", fn, name);
    size_t off = 8;
    unsigned found = 0, members = 0;
    const char *longnames = NULL;
    size_t longsize = 0;
    while (off + 60 <= size) {
        const unsigned char *h = p + off;
        char field[17];
        memcpy(field, h + 48, 10);
        field[10] = 0;
        char *end;
        unsigned long long msize = strtoull(field, &end, 10);
        if (end == field || msize > size - off - 60)
            return fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s: archive member at offset %zu runs past the end", fn, name, off);
        const unsigned char *data = h + 60;
        char mname[128];
        if (h[0] == '/' && (h[1] == ' ' || (h[1] == 'S' && h[2] == 'Y'))) {
            mname[0] = 0; /* the symbol table */
        } else if (h[0] == '/' && h[1] == '/') {
            longnames = (const char *)data;
            longsize = (size_t)msize;
            mname[0] = 0;
        } else {
            if (h[0] == '/' && longnames) {
                memcpy(field, h + 1, 15);
                field[15] = 0;
                unsigned long long at = strtoull(field, NULL, 10);
                size_t k = 0;
                while (at + k < longsize && k + 1 < sizeof(mname) && longnames[at + k] != '/' && longnames[at + k] != '\n')
                    mname[k] = longnames[at + k], k++;
                mname[k] = 0;
            } else {
                size_t k = 0;
                while (k < 16 && h[k] != '/' && h[k] != ' ')
                    mname[k] = (char)h[k], k++;
                mname[k] = 0;
            }
            members++;
            char member[400];
            snprintf(member, sizeof(member), "%s(%s)", name, mname);
            if (msize >= 64 && memcmp(data, "\x7f" "ELF", 4) == 0) {
                unsigned before = found;
                CUresult r = add_object(fn, s, call, data, (size_t)msize, member, &found);
                if (r && !(r == CUDA_ERROR_NO_BINARY_FOR_GPU && found == before && rd16(data + 18) != 190))
                    return r;
            }
        }
        off += 60 + (size_t)msize + (msize & 1);
    }
    /* An archive is searched, not taken whole: one whose members hold no PTX for the device
     * adds nothing (numba adds libcudadevrt.a, SASS only, whose functions are the engine's own
     * built-ins); what an input needs from it and nothing defines is an undefined reference at
     * cuLinkComplete. */
    if (!found && s->verbose)
        klog_printf(&s->jo.info, "info    : %s: none of its %u members holds PTX for compute capability %d.%d or "
                    "lower: nothing taken from it\n", name, members, device_sm() / 10, device_sm() % 10);
    return CUDA_SUCCESS;
}

static CUresult add_input(const char *fn, struct link_state *s, struct jit_options *call, CUjitInputType type,
                          const void *data, size_t size, const char *name)
{
    const unsigned char *p = data;
    char *text;
    size_t len;
    unsigned found = 0;
    CUresult r;
    switch (type) {
    case CU_JIT_INPUT_PTX:
        if ((r = ptx_copy(fn, data, size, &text, &len)))
            return r;
        return add_ptx(fn, s, call, text, len, name);
    case CU_JIT_INPUT_CUBIN:
        /* An image this linker made (PTX that names itself so) goes in again as it is. */
        if (size > sizeof(LINK_MAGIC_LINE) && memcmp(p, LINK_MAGIC_LINE, sizeof(LINK_MAGIC_LINE) - 1) == 0) {
            if ((r = ptx_copy(fn, data, size, &text, &len)))
                return r;
            return add_ptx(fn, s, call, text, len, name);
        }
        if (size >= 4 && memcmp(p, "\x7f" "ELF", 4) == 0)
            return fail(CUDA_ERROR_NO_BINARY_FOR_GPU, "%s: %s is a cubin (GPU machine code), which a CPU cannot run: "
                        "link PTX, or a fat binary with PTX", fn, name);
        return fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s is not a cubin (an ELF image)", fn, name);
    case CU_JIT_INPUT_FATBINARY:
        if (size >= 16 && rd32(p) == 0x466243B1u) { /* the wrapper a program registers */
            const void *inner;
            memcpy(&inner, p + 8, sizeof(inner));
            if (!inner)
                return fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s: the fat binary wrapper holds no fat binary", fn, name);
            const unsigned char *c = inner;
            if (rd32(c) != 0xBA55ED50u)
                return fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s: the wrapper does not point to a fat binary", fn, name);
            p = c;
            size = (size_t)(rd16(c + 6) + rd64(c + 8));
        }
        if (size < 16 || rd32(p) != 0xBA55ED50u)
            return fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s is not a fat binary (magic 0xba55ed50)", fn, name);
        if ((r = add_containers(fn, s, call, p, size, name, false, &found)))
            return r;
        return CUDA_SUCCESS;
    case CU_JIT_INPUT_OBJECT:
        return add_object(fn, s, call, p, size, name, &found);
    case CU_JIT_INPUT_LIBRARY:
        return add_archive(fn, s, call, p, size, name);
    case CU_JIT_INPUT_NVVM:
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: %s is NVVM IR (link-time optimisation), which the software device "
                    "cannot compile: link PTX instead", fn, name);
    default:
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: type %d is not a CUjitInputType (0..%d)", fn, (int)type,
                    CU_JIT_NUM_INPUT_TYPES - 1);
    }
}

/* ---- Entry points ---- */

CUresult CUDAAPI cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options, void **optionValues,
                                 CUlinkState *stateOut)
{
    const char *fn = "cuLinkCreate";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    if (!stateOut)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: stateOut is NULL", fn);
    bool verbose = false;
    for (unsigned int i = 0; numOptions && options && optionValues && i < numOptions; ++i) {
        /* A log buffer option with no buffer: the driver refuses it here (not so
         * cuModuleLoadDataEx, which ignores it). */
        if ((options[i] == CU_JIT_INFO_LOG_BUFFER || options[i] == CU_JIT_ERROR_LOG_BUFFER) && !optionValues[i])
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: options[%u] is a log buffer, and optionValues[%u] is NULL", fn,
                        i, i);
        if (options[i] == CU_JIT_LOG_VERBOSE)
            verbose = optionValues[i] != NULL;
    }
    struct link_state *s = calloc(1, sizeof(*s));
    if (!s || !(s->syms = khash_new())) {
        free(s);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the link state", fn);
    }
    if ((r = jit_options_read(fn, numOptions, options, optionValues, &s->jo))) {
        khash_free(s->syms);
        free(s);
        return r;
    }
    s->verbose = verbose;
    s->values = numOptions ? optionValues : NULL;
    s->nvalues = numOptions;
    os_mutex_init(&s->lock);
    uint64_t h = obj_register(&s->base, OBJ_LINK_STATE, link_destroy);
    if (!h) {
        os_mutex_destroy(&s->lock);
        khash_free(s->syms);
        free(s);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the handle table", fn);
    }
    write_back(s);
    *stateOut = (CUlinkState)(uintptr_t)h;
    return CUDA_SUCCESS;
}

/* The door of cuLinkAddData and cuLinkAddFile: the state locked, its call options read. */
static CUresult add_door(const char *fn, CUlinkState state, unsigned int numOptions, CUjit_option *options,
                         void **optionValues, struct link_state **out, struct jit_options *call, size_t *logged)
{
    REQUIRE_INIT(fn);
    struct link_state *s;
    CUresult r = link_lookup(fn, state, &s);
    if (r)
        return r;
    os_mutex_lock(&s->lock);
    *logged = s->jo.err.used;
    if (s->completed)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the link state was completed already (cuLinkComplete): make a new one",
                 fn);
    else if (s->sticky)
        r = fail(s->sticky, "%s: an earlier input failed to link (two definitions of a name, or two prototypes of "
                 "a function: the error log names them); the state takes no more", fn);
    else
        r = jit_options_read(fn, numOptions, options, optionValues, call);
    if (r) {
        log_failure(s, NULL, *logged, r);
        write_back(s);
        os_mutex_unlock(&s->lock);
        obj_release(&s->base);
        return r;
    }
    *out = s;
    return CUDA_SUCCESS;
}

static CUresult add_leave(struct link_state *s, struct jit_options *call, unsigned int numOptions, void **optionValues,
                          size_t logged, CUresult r)
{
    if (r)
        log_failure(s, call, logged, r);
    if (numOptions && optionValues)
        jit_options_finish(call, optionValues, 0.0f);
    write_back(s);
    os_mutex_unlock(&s->lock);
    obj_release(&s->base);
    return r;
}

CUresult CUDAAPI cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                                  unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    const char *fn = "cuLinkAddData";
    struct link_state *s;
    struct jit_options call;
    size_t logged;
    CUresult r = add_door(fn, state, numOptions, options, optionValues, &s, &call, &logged);
    if (r)
        return r;
    char fallback[32];
    snprintf(fallback, sizeof(fallback), "input %u", s->nunits + 1);
    if (!data)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: data is NULL", fn);
    else if (!size)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: size is 0", fn);
    else
        r = add_input(fn, s, &call, type, data, size, name ? name : fallback);
    return add_leave(s, &call, numOptions, optionValues, logged, r);
}

CUresult CUDAAPI cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                                  CUjit_option *options, void **optionValues)
{
    const char *fn = "cuLinkAddFile";
    struct link_state *s;
    struct jit_options call;
    size_t logged;
    CUresult r = add_door(fn, state, numOptions, options, optionValues, &s, &call, &logged);
    if (r)
        return r;
    char *data = NULL;
    size_t size = 0;
    if (!(r = module_read_file(fn, path, &data, &size))) {
        if (!size)
            r = fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s is empty", fn, path);
        else
            r = add_input(fn, s, &call, type, data, size, path);
    }
    free(data);
    return add_leave(s, &call, numOptions, optionValues, logged, r);
}

CUresult CUDAAPI cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
    const char *fn = "cuLinkComplete";
    REQUIRE_INIT(fn);
    struct link_state *s;
    CUresult r = link_lookup(fn, state, &s);
    if (r)
        return r;
    os_mutex_lock(&s->lock);
    uint64_t start = os_time_ns();
    size_t logged = s->jo.err.used;
    const char **names = NULL;
    char *image = NULL;
    if (!cubinOut || !sizeOut) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !cubinOut ? "cubinOut" : "sizeOut");
        goto out;
    }
    if (s->completed) {
        /* The driver answers a second completion so, as if the state were gone; the image
         * stays the state's until cuLinkDestroy. */
        r = fail(CUDA_ERROR_INVALID_HANDLE, "%s: the link state was completed already: its image is the one the "
                 "first cuLinkComplete gave", fn);
        goto out;
    }
    if (s->sticky) {
        r = fail(s->sticky, "%s: an input failed to link (the error log names the symbols)", fn);
        goto out;
    }
    /* Every name an input needs must be defined by some input. */
    char first[768] = "";
    for (uint32_t i = 0; i < s->nrefs; ++i) {
        const struct link_sym *y = khash_get(s->syms, s->refs[i].name, strlen(s->refs[i].name));
        if (y && y->defined)
            continue;
        char line[768];
        snprintf(line, sizeof(line), "error   : Undefined reference to '%s' in '%s'", s->refs[i].name,
                 s->units[s->refs[i].unit].name);
        log_error(s, NULL, line);
        if (!first[0])
            snprintf(first, sizeof(first), "%s", line + 10);
    }
    if (first[0]) {
        r = fail(CUDA_ERROR_INVALID_SOURCE, "%s: %s", fn, first);
        logged = s->jo.err.used;
        goto out;
    }
    /* One text: the magic line, then each input, each on lines of its own. With no inputs (the
     * driver completes such a link too) the image is a module without functions. */
    char empty[96];
    snprintf(empty, sizeof(empty), ".version 7.0\n.target sm_%d\n.address_size 64\n", device_sm());
    size_t total = sizeof(LINK_MAGIC_LINE) + (s->nunits ? 0 : strlen(empty));
    for (uint32_t i = 0; i < s->nunits; ++i)
        total += s->units[i].len + 2;
    if (!(image = malloc(total)) || !(names = calloc(s->nunits + 1, sizeof(*names)))) {
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the %zu-byte image", fn, total);
        goto out;
    }
    size_t used = 0;
    memcpy(image, LINK_MAGIC_LINE, sizeof(LINK_MAGIC_LINE) - 1);
    used = sizeof(LINK_MAGIC_LINE) - 1;
    for (uint32_t i = 0; i < s->nunits; ++i) {
        memcpy(image + used, s->units[i].text, s->units[i].len);
        used += s->units[i].len;
        image[used++] = '\n';
        names[i] = s->units[i].name;
    }
    if (!s->nunits) {
        memcpy(image + used, empty, strlen(empty));
        used += strlen(empty);
    }
    image[used] = 0;
    struct kmodule *km;
    /* An input linked before brings units of its own: names run out, and messages then say
     * "unit N" of the image (kmod_parse_units). */
    if ((r = kmod_parse_units(fn, image, used, "linked image", names, s->nunits, 0, &s->jo.err, &km)))
        goto out;
    if (s->verbose)
        klog_printf(&s->jo.info, "info    : extmem linked %u inputs into %zu bytes of PTX (%u linking units, %u functions, %llu "
                "bytes of variables) in %.3f ms\n", s->nunits, used + 1, km->link_units, km->nfuncs,
                (unsigned long long)km->data_bytes, (double)(os_time_ns() - start) / 1e6);
    kmod_free(km);
    s->image = image;
    s->image_size = used + 1;
    s->completed = true;
    image = NULL;
    *cubinOut = s->image;
    *sizeOut = s->image_size;
out:
    if (r)
        log_failure(s, NULL, logged, r);
    write_back(s);
    free(image);
    free(names);
    os_mutex_unlock(&s->lock);
    obj_release(&s->base);
    return r;
}

CUresult CUDAAPI cuLinkDestroy(CUlinkState state)
{
    const char *fn = "cuLinkDestroy";
    REQUIRE_INIT(fn);
    struct link_state *s;
    CUresult r = link_lookup(fn, state, &s);
    if (r)
        return r;
    bool mine = obj_unregister(&s->base);
    obj_release(&s->base);
    if (!mine)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: link state 0x%llx is being destroyed already", fn,
                    (unsigned long long)(uintptr_t)state);
    return CUDA_SUCCESS;
}

/* The unversioned names (CUDA 5.5's exports): the same calls. */
#undef cuLinkCreate
#undef cuLinkAddData
#undef cuLinkAddFile
EXTMEM_API CUresult CUDAAPI cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues,
                                         CUlinkState *stateOut);
EXTMEM_API CUresult CUDAAPI cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size,
                                          const char *name, unsigned int numOptions, CUjit_option *options,
                                          void **optionValues);
EXTMEM_API CUresult CUDAAPI cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path,
                                          unsigned int numOptions, CUjit_option *options, void **optionValues);
CUresult CUDAAPI cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues,
                              CUlinkState *stateOut)
{
    return cuLinkCreate_v2(numOptions, options, optionValues, stateOut);
}
CUresult CUDAAPI cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                               unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    return cuLinkAddData_v2(state, type, data, size, name, numOptions, options, optionValues);
}
CUresult CUDAAPI cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                               CUjit_option *options, void **optionValues)
{
    return cuLinkAddFile_v2(state, type, path, numOptions, options, optionValues);
}
