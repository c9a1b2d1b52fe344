/*
 * Device printf (vprintf) and assert (__assertfail).
 *
 * A kernel's printf call passes the format's generic address and a buffer of arguments that
 * the compiler packed with each argument at its natural alignment (float promoted to double,
 * pointers and %s strings as 64-bit addresses). Each call is one record of the launch's FIFO
 * (struct kprint_fifo), written to stdout when the launch ends, so it is there by the next
 * synchronisation, as the driver flushes its printf FIFO.
 *
 * What the H100 does (docs/probes/engine_trust in the main tree; docs/kernels.md, "printf and
 * assert"): a FIFO of N bytes keeps about N / 256 records, the last ones of the launch; a
 * conversion whose precision is '*' is printed as written; huge literal precisions and widths
 * are printed in full. Here a record is also cut at the FIFO's size, and the text of one
 * conversion is made with work in proportion to what is kept, never to what was asked.
 */
#include "kernel.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* The driver's default FIFO (CUDA 13.0, H100), for a launch that was not given one. */
#define DEFAULT_FIFO 8650752u

/* ---- The FIFO ---- */
void kprint_init(struct klaunch *l)
{
    memset(&l->print, 0, sizeof(l->print));
    if (!l->printf_limit)
        l->printf_limit = DEFAULT_FIFO;
}

static size_t record_cost(const struct klaunch *l, size_t n)
{
    size_t cost = n > KPRINT_RECORD_COST ? n : KPRINT_RECORD_COST;
    return cost < l->printf_limit ? cost : l->printf_limit;
}

static void drop_oldest(struct klaunch *l)
{
    struct kprint_fifo *f = &l->print;
    size_t n = f->len[f->lhead];
    f->cost -= record_cost(l, n);
    f->head = f->cap ? (f->head + n) % f->cap : 0;
    f->used -= n;
    f->lhead = (f->lhead + 1) % f->lcap;
    f->count--;
}

/* Makes the text ring hold `need` bytes: a larger ring with the text moved to its start.
 * Never more than the FIFO's size, which the kept text never passes. */
static bool grow_text(struct klaunch *l, size_t need)
{
    struct kprint_fifo *f = &l->print;
    if (need <= f->cap)
        return true;
    size_t cap = f->cap ? f->cap : 4096;
    while (cap < need)
        cap *= 2;
    if (cap > l->printf_limit)
        cap = l->printf_limit;
    char *text = malloc(cap);
    if (!text)
        return false;
    size_t first = f->used < f->cap - f->head ? f->used : f->cap - f->head;
    if (f->used) {
        memcpy(text, f->text + f->head, first);
        memcpy(text + first, f->text, f->used - first);
    }
    free(f->text);
    f->text = text;
    f->cap = cap;
    f->head = 0;
    return true;
}

static bool grow_lengths(struct kprint_fifo *f)
{
    if (f->count < f->lcap)
        return true;
    size_t lcap = f->lcap ? f->lcap * 2 : 64;
    size_t *len = malloc(lcap * sizeof(*len));
    if (!len)
        return false;
    for (size_t i = 0; i < f->count; ++i)
        len[i] = f->len[(f->lhead + i) % f->lcap];
    free(f->len);
    f->len = len;
    f->lcap = lcap;
    f->lhead = 0;
    return true;
}

/* Appends one record (at most printf_limit bytes), dropping the oldest ones until it fits:
 * the GPU's FIFO keeps the last records of a launch. A record that finds no host memory is
 * dropped, as a full FIFO drops output on the GPU. */
static void fifo_put(struct klaunch *l, const char *s, size_t n)
{
    struct kprint_fifo *f = &l->print;
    os_mutex_lock(&l->print_lock);
    size_t cost = record_cost(l, n);
    while (f->count && f->cost + cost > l->printf_limit)
        drop_oldest(l);
    if (grow_lengths(f) && grow_text(l, f->used + n)) {
        if (n) {
            size_t at = (f->head + f->used) % f->cap;
            size_t first = n < f->cap - at ? n : f->cap - at;
            memcpy(f->text + at, s, first);
            memcpy(f->text, s + first, n - first);
        }
        f->used += n;
        f->len[(f->lhead + f->count) % f->lcap] = n;
        f->count++;
        f->cost += cost;
    }
    os_mutex_unlock(&l->print_lock);
}

void kprint_flush(struct klaunch *l)
{
    struct kprint_fifo *f = &l->print;
    if (f->used) {
        size_t first = f->used < f->cap - f->head ? f->used : f->cap - f->head;
        fwrite(f->text + f->head, 1, first, stdout);
        fwrite(f->text, 1, f->used - first, stdout);
        fflush(stdout);
    }
    free(f->text);
    free(f->len);
    memset(f, 0, sizeof(*f));
}

/* ---- A record being formatted ---- */
/* Text up to `max` bytes (the FIFO's size): what passes it is cut, and never made. */
struct rec {
    char *p;
    size_t len, cap, max;
    char small[512];
};

static void rec_init(struct rec *r, size_t max)
{
    r->p = r->small;
    r->len = 0;
    r->cap = sizeof(r->small);
    r->max = max;
}

/* Room for n more bytes, or as many as the record still takes; returns how many. */
static size_t rec_room(struct rec *r, size_t n)
{
    if (n > r->max - r->len)
        n = r->max - r->len;
    if (r->len + n > r->cap) {
        size_t cap = r->cap * 2;
        while (cap < r->len + n)
            cap *= 2;
        if (cap > r->max)
            cap = r->max;
        char *p = r->p == r->small ? malloc(cap) : realloc(r->p, cap);
        if (!p)
            return r->cap - r->len; /* what fits: the record is cut short */
        if (r->p == r->small)
            memcpy(p, r->small, r->len);
        r->p = p;
        r->cap = cap;
    }
    return n;
}

static void rec_put(struct rec *r, const char *s, size_t n)
{
    n = rec_room(r, n);
    memcpy(r->p + r->len, s, n);
    r->len += n;
}

static void rec_fill(struct rec *r, char c, size_t n)
{
    n = rec_room(r, n);
    memset(r->p + r->len, c, n);
    r->len += n;
}

static void rec_free(struct rec *r)
{
    if (r->p != r->small)
        free(r->p);
}

/* ---- Arguments ---- */
/* A NUL-terminated string at a generic address, copied into buf (at most size - 1 bytes);
 * false after a fault when its first byte is not readable device memory. */
static bool read_string(struct kwarp *w, const struct kinsn *in, uint32_t lane, uint64_t addr, char *buf, size_t size)
{
    size_t n = 0;
    while (n + 1 < size) {
        const char *p = kmem(w, in, lane, KS_GENERIC, addr + n, 1, false);
        if (!p)
            return false;
        if (!*p)
            break;
        buf[n++] = *p;
    }
    buf[n] = 0;
    return true;
}

struct args {
    struct kwarp *w;
    const struct kinsn *in;
    uint32_t lane;
    uint64_t at;
};

static bool arg_bytes(struct args *a, unsigned size, void *out)
{
    a->at = (a->at + size - 1) & ~(uint64_t)(size - 1);
    const void *p = kmem(a->w, a->in, a->lane, KS_GENERIC, a->at, size, false);
    if (!p)
        return false;
    memcpy(out, p, size);
    a->at += size;
    return true;
}

/* ---- Conversions ---- */
/* A precision up to BIG is the C library's, as asked. Past it the text is the C library's at
 * BIG plus zeros, which is exact: a double's decimal expansion ends within 1074 digits after
 * the point and 767 significant digits, so more precision only adds zeros, and an integer has
 * at most 22 digits. A width is padding, added here, however large. */
#define BIG 1100

enum { F_MINUS = 1, F_PLUS = 2, F_SPACE = 4, F_HASH = 8, F_ZERO = 16 };

/* One conversion as written: %[flags][width][.precision][length]conversion. */
struct spec {
    const char *start, *end; /* its text in the format */
    unsigned flags;
    size_t width, prec;
    bool has_prec, star_w, star_p;
    int longs; /* l, ll, z, j, t, L: a 64-bit integer argument */
    char conv; /* 0 at the end of the format */
};

/* A width or precision as written, saturated: a 1023-byte format can hold any number of
 * digits. */
static size_t read_count(const char **p)
{
    size_t v = 0;
    for (; **p >= '0' && **p <= '9'; ++*p)
        v = v > (SIZE_MAX - 9) / 10 ? SIZE_MAX / 2 : v * 10 + (size_t)(**p - '0');
    return v < SIZE_MAX / 2 ? v : SIZE_MAX / 2;
}

static unsigned flag_of(char c)
{
    switch (c) {
    case '-':
        return F_MINUS;
    case '+':
        return F_PLUS;
    case ' ':
        return F_SPACE;
    case '#':
        return F_HASH;
    case '0':
        return F_ZERO;
    default:
        return 0;
    }
}

static const char *parse_spec(const char *p, struct spec *s)
{
    memset(s, 0, sizeof(*s));
    s->start = p++;
    for (; flag_of(*p); ++p)
        s->flags |= flag_of(*p);
    if (*p == '*') {
        s->star_w = true;
        p++;
    } else {
        s->width = read_count(&p);
    }
    if (*p == '.') {
        s->has_prec = true;
        p++;
        if (*p == '*') {
            s->star_p = true;
            p++;
        } else {
            s->prec = read_count(&p);
        }
    }
    while (*p == 'l' || *p == 'h' || *p == 'z' || *p == 'j' || *p == 't' || *p == 'L')
        s->longs += *p++ != 'h';
    s->conv = *p;
    if (*p)
        p++;
    s->end = p;
    return p;
}

/* A conversion's text in pieces, so that zeros and padding past BIG are never made whole:
 * core[0, at_pad) + pad zeros + core[at_pad, at_zeros) + zeros + core[at_zeros, n), with
 * spaces before or after. */
struct text {
    char core[2 * BIG];
    size_t n, at_pad, at_zeros, zeros;
    bool zero_pad; /* '0' pads after the sign and 0x */
};

/* The C library's text for the conversion, without width, at precision `prec` (< 0: none). */
static void core_format(struct text *t, const struct spec *s, int prec, const char *length, ...)
{
    char fmt[32];
    size_t k = 0;
    fmt[k++] = '%';
    if (s->flags & F_PLUS)
        fmt[k++] = '+';
    if (s->flags & F_SPACE)
        fmt[k++] = ' ';
    if (s->flags & F_HASH)
        fmt[k++] = '#';
    if (prec >= 0)
        k += (size_t)snprintf(fmt + k, sizeof(fmt) - k, ".%d", prec);
    snprintf(fmt + k, sizeof(fmt) - k, "%s%c", length, s->conv);
    va_list ap;
    va_start(ap, length);
    int n = vsnprintf(t->core, sizeof(t->core), fmt, ap);
    va_end(ap);
    t->n = n < 0 ? 0 : (size_t)n < sizeof(t->core) ? (size_t)n : sizeof(t->core) - 1;
    t->at_pad = t->at_zeros = t->n;
    t->zeros = 0;
}

/* Where '0' padding goes: after the sign, and after 0x of a hexadecimal number. */
static size_t prefix_length(const struct text *t, char conv)
{
    size_t i = 0;
    if (i < t->n && (t->core[i] == '-' || t->core[i] == '+' || t->core[i] == ' '))
        i++;
    if (strchr("xXaA", conv) && i + 1 < t->n && t->core[i] == '0' && (t->core[i + 1] == 'x' || t->core[i + 1] == 'X'))
        i += 2;
    return i;
}

static void emit(struct rec *r, const struct spec *s, struct text *t)
{
    size_t len = t->n + t->zeros, pad = s->width > len ? s->width - len : 0;
    if (pad && !(s->flags & F_MINUS) && !t->zero_pad)
        rec_fill(r, ' ', pad);
    rec_put(r, t->core, t->at_pad);
    if (pad && !(s->flags & F_MINUS) && t->zero_pad)
        rec_fill(r, '0', pad);
    rec_put(r, t->core + t->at_pad, t->at_zeros - t->at_pad);
    rec_fill(r, '0', t->zeros);
    rec_put(r, t->core + t->at_zeros, t->n - t->at_zeros);
    if (pad && (s->flags & F_MINUS))
        rec_fill(r, ' ', pad);
}

static void format_int(struct rec *r, const struct spec *s, long long v)
{
    struct text t;
    /* An integer has at most 22 digits: a precision past BIG is BIG digits and more zeros in
     * front of them. '0' pads only without a precision, as in C. */
    bool big = s->has_prec && s->prec > BIG;
    core_format(&t, s, s->has_prec ? (int)(big ? BIG : s->prec) : -1, "ll", v);
    if (big) {
        t.at_pad = t.at_zeros = t.n > BIG ? t.n - BIG : 0;
        t.zeros = s->prec - BIG;
    } else {
        t.at_pad = t.at_zeros = prefix_length(&t, s->conv);
    }
    t.zero_pad = (s->flags & F_ZERO) && !(s->flags & F_MINUS) && !s->has_prec;
    emit(r, s, &t);
}

static void format_double(struct rec *r, const struct spec *s, double v)
{
    struct text t;
    bool big = s->has_prec && s->prec > BIG;
    core_format(&t, s, s->has_prec ? (int)(big ? BIG : s->prec) : -1, "", v);
    t.at_pad = prefix_length(&t, s->conv);
    t.at_zeros = t.n;
    /* Past BIG only zeros follow the exact digits: before the exponent, or at the end. %g
     * drops trailing zeros unless '#' keeps them; infinities and NaNs have no digits. */
    if (big && isfinite(v) && (!strchr("gG", s->conv) || (s->flags & F_HASH))) {
        const char *exp = strchr("aA", s->conv) ? "pP" : "eE";
        for (size_t i = t.at_pad; i < t.n; ++i)
            if (strchr(exp, t.core[i])) {
                t.at_zeros = i;
                break;
            }
        t.zeros = s->prec - BIG;
    }
    t.zero_pad = (s->flags & F_ZERO) && !(s->flags & F_MINUS) && isfinite(v);
    emit(r, s, &t);
}

static void format_text(struct rec *r, const struct spec *s, const char *str, size_t n)
{
    struct text t;
    if (s->has_prec && s->prec < n)
        n = s->prec;
    if (n >= sizeof(t.core))
        n = sizeof(t.core) - 1;
    memcpy(t.core, str, n);
    t.n = t.at_pad = t.at_zeros = n;
    t.zeros = 0;
    t.zero_pad = false; /* the C library pads %s and %c with spaces whatever the flags */
    emit(r, s, &t);
}

/* The argument bytes a conversion takes. */
static unsigned value_size(const struct spec *s)
{
    if (!s->conv)
        return 0; /* the format ended inside the conversion */
    if (strchr("diuxXo", s->conv))
        return s->longs ? 8 : 4;
    if (s->conv == 'c')
        return 4;
    if (strchr("fFeEgGaAsp", s->conv))
        return 8;
    return 0;
}

/* One conversion with its arguments; false after a fault reading them. */
static bool convert(struct rec *r, struct args *a, struct spec *s)
{
    int32_t wv = 0, pv = 0;
    if (s->star_w && !arg_bytes(a, 4, &wv))
        return false;
    if (s->star_p && !arg_bytes(a, 4, &pv))
        return false;
    unsigned size = value_size(s);
    uint64_t bits = 0;
    if (size && !arg_bytes(a, size, &bits))
        return false;
    if (s->star_p || !size) {
        /* The GPU prints a '*' precision's conversion as written, its arguments skipped (an
         * unknown conversion likewise): no huge precision reaches a formatter. */
        rec_put(r, s->start, (size_t)(s->end - s->start));
        return true;
    }
    if (s->star_w) {
        /* A negative '*' width is the '-' flag and its size, as in C. */
        if (wv < 0)
            s->flags |= F_MINUS;
        s->width = wv < 0 ? (size_t)-(int64_t)wv : (size_t)wv;
    }
    switch (s->conv) {
    case 'd':
    case 'i':
        format_int(r, s, size == 8 ? (long long)(int64_t)bits : (long long)(int32_t)(uint32_t)bits);
        break;
    case 'u':
    case 'x':
    case 'X':
    case 'o':
        format_int(r, s, (long long)(size == 8 ? bits : (uint32_t)bits));
        break;
    case 'c': {
        char c = (char)bits;
        format_text(r, s, &c, 1);
        break;
    }
    case 's': {
        char str[256];
        if (!bits)
            strcpy(str, "(null)");
        else if (!read_string(a->w, a->in, a->lane, bits, str, sizeof(str)))
            return false;
        format_text(r, s, str, strlen(str));
        break;
    }
    case 'p': {
        char text[32];
        int n = snprintf(text, sizeof(text), "0x%llx", (unsigned long long)bits);
        rec_put(r, text, (size_t)n);
        break;
    }
    default: {
        double d;
        memcpy(&d, &bits, 8);
        format_double(r, s, d);
        break;
    }
    }
    return true;
}

void kprintf(struct kwarp *w, const struct kinsn *in, uint32_t lane, uint64_t fmt_addr, uint64_t args_addr)
{
    struct klaunch *l = w->b->l;
    if (!fmt_addr) {
        fifo_put(l, "(null)", 6);
        return;
    }
    char fmt[1024];
    if (!read_string(w, in, lane, fmt_addr, fmt, sizeof(fmt)))
        return;
    struct args a = {w, in, lane, args_addr};
    struct rec r;
    rec_init(&r, l->printf_limit);
    for (const char *p = fmt; *p;) {
        if (*p != '%') {
            const char *q = strchr(p, '%');
            if (!q)
                q = p + strlen(p);
            rec_put(&r, p, (size_t)(q - p));
            p = q;
        } else if (p[1] == '%') {
            rec_put(&r, "%", 1);
            p += 2;
        } else {
            struct spec s;
            p = parse_spec(p, &s);
            if (!convert(&r, &a, &s)) {
                rec_free(&r);
                return; /* the fault ends the launch: the record is not printed */
            }
        }
    }
    fifo_put(l, r.p, r.len);
    rec_free(&r);
}

void kassertfail(struct kwarp *w, const struct kinsn *in, uint32_t lane, uint64_t msg, uint64_t file, uint32_t line,
                 uint64_t func)
{
    char m[256] = "", f[256] = "", fn[256] = "";
    if (msg && !read_string(w, in, lane, msg, m, sizeof(m)))
        return;
    if (file && !read_string(w, in, lane, file, f, sizeof(f)))
        return;
    if (func && !read_string(w, in, lane, func, fn, sizeof(fn)))
        return;
    struct klaunch *l = w->b->l;
    uint32_t t = w->index * KLANES + lane, bx = l->block[0], by = l->block[1];
    char text[1024];
    /* The GPU's own words (BEHAVIOR.md): file:line: function: block: [..], thread: [..] Assertion `..` failed. */
    int n = snprintf(text, sizeof(text), "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", f,
                     line, fn, w->b->ctaid[0], w->b->ctaid[1], w->b->ctaid[2], t % bx, t / bx % by, t / (bx * by), m);
    if (n > 0) {
        size_t len = (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1;
        fifo_put(l, text, len < l->printf_limit ? len : l->printf_limit);
    }
    kfault(w, in, lane, CUDA_ERROR_ASSERT, "assertion `%s` failed at %s:%u in %s", m, f, line, fn);
}
