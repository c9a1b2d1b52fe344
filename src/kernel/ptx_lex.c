/*
 * PTX tokens, the parser's error reporting and the symbol hash.
 *
 * A word is a run of identifier characters and dots, so that an opcode arrives whole with its
 * suffixes ("ld.global.nc.v4.f32") and "::" stays inside it ("L1::no_allocate"); directives
 * (".reg") and registers ("%r12") are words too. Numbers follow PTX's forms: decimal, 0x hex,
 * 0b binary, leading-0 octal, an optional U suffix, and 0f / 0d floating-point bit patterns.
 */
#include "kernel.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static bool word_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '%' || c == '.'; }

void klex_init(struct kparser *ps, const char *text, size_t len)
{
    ps->p = text;
    ps->end = text + len;
    ps->line = 1;
    klex_next(ps);
}

static void skip_space(struct kparser *ps)
{
    while (ps->p < ps->end) {
        char c = *ps->p;
        if (c == '\n') {
            ps->line++;
            ps->p++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\0') {
            ps->p++;
        } else if (c == '/' && ps->p + 1 < ps->end && ps->p[1] == '/') {
            while (ps->p < ps->end && *ps->p != '\n')
                ps->p++;
        } else if (c == '/' && ps->p + 1 < ps->end && ps->p[1] == '*') {
            ps->p += 2;
            while (ps->p < ps->end && !(*ps->p == '*' && ps->p + 1 < ps->end && ps->p[1] == '/')) {
                if (*ps->p == '\n')
                    ps->line++;
                ps->p++;
            }
            ps->p = ps->p < ps->end ? ps->p + 2 : ps->end;
        } else {
            break;
        }
    }
}

static int digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

/* A number starting at ps->p (a digit). */
static void lex_number(struct kparser *ps, struct ktok *t)
{
    const char *s = ps->p;
    t->kind = KTK_INT;
    if (s + 1 < ps->end && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
        bool is64 = s[1] == 'd' || s[1] == 'D';
        const char *q = s + 2;
        uint64_t v = 0;
        int n = 0;
        while (q < ps->end && digit_value(*q) < 16) {
            v = v << 4 | (uint64_t)digit_value(*q++);
            n++;
        }
        if (n == (is64 ? 16 : 8)) {
            t->kind = KTK_FLOAT;
            t->ival = v;
            t->fbits32 = !is64;
            t->fbits64 = is64;
            t->fval = is64 ? kf64(v) : kf32(v);
            ps->p = q;
            return;
        }
    }
    int base = 10;
    const char *q = s;
    if (q + 1 < ps->end && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
        base = 16;
        q += 2;
    } else if (q + 1 < ps->end && q[0] == '0' && (q[1] == 'b' || q[1] == 'B')) {
        base = 2;
        q += 2;
    } else {
        /* A decimal float: digits with a '.' or an exponent. */
        const char *r = q;
        while (r < ps->end && isdigit((unsigned char)*r))
            r++;
        if (r < ps->end && (*r == '.' || *r == 'e' || *r == 'E')) {
            char buf[64];
            size_t n = 0;
            const char *e = q;
            while (e < ps->end && n + 1 < sizeof(buf) &&
                   (isdigit((unsigned char)*e) || *e == '.' || *e == 'e' || *e == 'E' ||
                    ((*e == '+' || *e == '-') && (e[-1] == 'e' || e[-1] == 'E'))))
                buf[n++] = *e++;
            buf[n] = 0;
            t->kind = KTK_FLOAT;
            t->fval = strtod(buf, NULL);
            t->fbits32 = t->fbits64 = false;
            ps->p = e;
            return;
        }
        if (q[0] == '0' && q + 1 < ps->end && isdigit((unsigned char)q[1]))
            base = 8;
    }
    uint64_t v = 0;
    while (q < ps->end && digit_value(*q) < base)
        v = v * (uint64_t)base + (uint64_t)digit_value(*q++);
    if (q < ps->end && (*q == 'U' || *q == 'u'))
        q++;
    t->ival = v;
    ps->p = q;
}

void klex_next(struct kparser *ps)
{
    skip_space(ps);
    struct ktok *t = &ps->tok;
    memset(t, 0, sizeof(*t));
    t->line = ps->line;
    t->s = ps->p;
    if (ps->p >= ps->end) {
        t->kind = KTK_EOF;
        return;
    }
    char c = *ps->p;
    if (isdigit((unsigned char)c)) {
        lex_number(ps, t);
    } else if (c == '"') {
        ps->p++;
        while (ps->p < ps->end && *ps->p != '"' && *ps->p != '\n') {
            if (*ps->p == '\\' && ps->p + 1 < ps->end)
                ps->p++;
            ps->p++;
        }
        if (ps->p < ps->end && *ps->p == '"')
            ps->p++;
        t->kind = KTK_STRING;
    } else if (word_char(c)) {
        while (ps->p < ps->end) {
            if (word_char(*ps->p))
                ps->p++;
            else if (*ps->p == ':' && ps->p + 2 < ps->end && ps->p[1] == ':' && word_char(ps->p[2]))
                ps->p += 2;
            else
                break;
        }
        t->kind = KTK_WORD;
        /* isa (issue 25): a declaration directive written without a space before its type,
         * as CUDA's headers write their inline asm ("{.reg.b32 f;"), is two words: the
         * directive, then the rest (".b32", ".v2.b32" splits again the same way). */
        if (c == '.') {
            static const char *const lead[] = {".reg", ".local", ".shared", ".param", ".global", ".const",
                                               ".v2",  ".v4",    ".v8"};
            for (size_t i = 0; i < sizeof(lead) / sizeof(lead[0]); ++i) {
                size_t n = strlen(lead[i]);
                if ((size_t)(ps->p - t->s) > n && memcmp(t->s, lead[i], n) == 0 && t->s[n] == '.') {
                    ps->p = t->s + n;
                    break;
                }
            }
        }
    } else {
        ps->p++;
        t->kind = KTK_PUNCT;
    }
    t->len = (uint32_t)(ps->p - t->s);
}

bool ktok_is(const struct ktok *t, const char *s)
{
    size_t n = strlen(s);
    return t->kind == KTK_WORD && t->len == n && memcmp(t->s, s, n) == 0;
}

bool ktok_punct(const struct ktok *t, char c) { return t->kind == KTK_PUNCT && t->s[0] == c; }

static bool vparse_error_code(struct kparser *ps, CUresult code, uint32_t line, const char *fmt, va_list ap)
{
    if (ps->err)
        return false; /* the first error is the one to report */
    char what[384];
    vsnprintf(what, sizeof(what), fmt, ap);
    ps->err = code;
    if (line > ps->unit_line0) /* link part: lines count from the linking unit's .version */
        line -= ps->unit_line0;
    klog_printf(ps->log, "%s:%u: %s\n", ps->name, line, what);
    fail(code, "%s: %s:%u: %s", ps->fn, ps->name, line, what);
    return false;
}
static bool vparse_error(struct kparser *ps, uint32_t line, const char *fmt, va_list ap)
{
    return vparse_error_code(ps, CUDA_ERROR_INVALID_PTX, line, fmt, ap);
}

bool kparse_error_code(struct kparser *ps, CUresult code, uint32_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vparse_error_code(ps, code, line, fmt, ap);
    va_end(ap);
    return false;
}

bool kparse_error(struct kparser *ps, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vparse_error(ps, ps->tok.line, fmt, ap);
    va_end(ap);
    return false;
}

bool kparse_error_at(struct kparser *ps, uint32_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vparse_error(ps, line, fmt, ap);
    va_end(ap);
    return false;
}

void klog_printf(struct klog *log, const char *fmt, ...)
{
    if (!log || !log->buf || log->size == 0 || log->used + 1 >= log->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(log->buf + log->used, log->size - log->used, fmt, ap);
    va_end(ap);
    if (n > 0)
        log->used = log->used + (size_t)n < log->size ? log->used + (size_t)n : log->size - 1;
}

/* ---- The symbol hash: open addressing, keys copied. ---- */
struct khash_entry {
    char *key;
    size_t len;
    uint64_t hash;
    void *value;
};
struct khash {
    struct khash_entry *e;
    size_t cap, count;
};

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; ++i)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

struct khash *khash_new(void)
{
    struct khash *h = calloc(1, sizeof(*h));
    if (h && !(h->e = calloc(h->cap = 64, sizeof(*h->e)))) {
        free(h);
        return NULL;
    }
    return h;
}

void khash_free(struct khash *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->cap; ++i)
        free(h->e[i].key);
    free(h->e);
    free(h);
}

static struct khash_entry *find_slot(const struct khash *h, const char *key, size_t len, uint64_t hash)
{
    size_t i = (size_t)hash & (h->cap - 1);
    for (;;) {
        struct khash_entry *e = &h->e[i];
        if (!e->key || (e->hash == hash && e->len == len && memcmp(e->key, key, len) == 0))
            return e;
        i = (i + 1) & (h->cap - 1);
    }
}

void *khash_get(const struct khash *h, const char *key, size_t len)
{
    struct khash_entry *e = find_slot(h, key, len, hash_bytes(key, len));
    return e->key ? e->value : NULL;
}

static bool grow(struct khash *h)
{
    struct khash_entry *old = h->e;
    size_t oldcap = h->cap;
    struct khash_entry *e = calloc(oldcap * 2, sizeof(*e));
    if (!e)
        return false;
    h->e = e;
    h->cap = oldcap * 2;
    for (size_t i = 0; i < oldcap; ++i)
        if (old[i].key)
            *find_slot(h, old[i].key, old[i].len, old[i].hash) = old[i];
    free(old);
    return true;
}

bool khash_put(struct khash *h, const char *key, size_t len, void *value, void **old)
{
    if ((h->count + 1) * 2 > h->cap && !grow(h))
        return false;
    uint64_t hash = hash_bytes(key, len);
    struct khash_entry *e = find_slot(h, key, len, hash);
    if (old)
        *old = e->key ? e->value : NULL;
    if (!e->key) {
        if (!(e->key = malloc(len + 1)))
            return false;
        memcpy(e->key, key, len);
        e->key[len] = 0;
        e->len = len;
        e->hash = hash;
        h->count++;
    }
    e->value = value;
    return true;
}

void khash_each(const struct khash *h, void (*fn)(void *value, void *arg), void *arg)
{
    for (size_t i = 0; i < h->cap; ++i)
        if (h->e[i].key)
            fn(h->e[i].value, arg);
}
