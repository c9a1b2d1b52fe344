/*
 * Device printf (vprintf) and assert (__assertfail).
 *
 * A kernel's printf call passes the format's generic address and a buffer of arguments that
 * the compiler packed with each argument at its natural alignment (float promoted to double,
 * pointers and %s strings as 64-bit addresses). The text goes to the launch's buffer and is
 * written to stdout when the launch ends, so it is there by the next synchronisation, as the
 * driver flushes its printf FIFO.
 */
#include "kernel.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void out_append(struct klaunch *l, const char *s, size_t n)
{
    os_mutex_lock(&l->print_lock);
    if (l->print_used + n > l->print_size) {
        size_t size = l->print_size ? l->print_size : 4096;
        while (size < l->print_used + n)
            size *= 2;
        char *b = realloc(l->print_buf, size);
        if (!b) {
            os_mutex_unlock(&l->print_lock);
            return; /* dropped, as a full printf FIFO drops output on the GPU */
        }
        l->print_buf = b;
        l->print_size = size;
    }
    memcpy(l->print_buf + l->print_used, s, n);
    l->print_used += n;
    os_mutex_unlock(&l->print_lock);
}

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
    bool ok;
};

static bool arg_bytes(struct args *a, unsigned size, void *out)
{
    a->at = (a->at + size - 1) & ~(uint64_t)(size - 1);
    const void *p = kmem(a->w, a->in, a->lane, KS_GENERIC, a->at, size, false);
    if (!p)
        return a->ok = false;
    memcpy(out, p, size);
    a->at += size;
    return true;
}

void kprintf(struct kwarp *w, const struct kinsn *in, uint32_t lane, uint64_t fmt_addr, uint64_t args_addr)
{
    char fmt[1024];
    if (!fmt_addr) {
        out_append(w->b->l, "(null)", 6);
        return;
    }
    if (!read_string(w, in, lane, fmt_addr, fmt, sizeof(fmt)))
        return;
    struct args a = {w, in, lane, args_addr, true};
    char out[4096];
    size_t used = 0;
#define PUT(s, n)                                                                                                      \
    do {                                                                                                               \
        size_t n_ = (n);                                                                                               \
        if (used + n_ > sizeof(out)) {                                                                                 \
            out_append(w->b->l, out, used);                                                                            \
            used = 0;                                                                                                  \
        }                                                                                                              \
        if (n_ <= sizeof(out)) {                                                                                       \
            memcpy(out + used, (s), n_);                                                                               \
            used += n_;                                                                                                \
        }                                                                                                              \
    } while (0)
/* One conversion of `spec` with its value, and the '*' width and precision it asked for. */
#define FORMAT(value)                                                                                                  \
    (star_w && star_p   ? snprintf(text, sizeof(text), spec, wv, pv, value)                                            \
     : star_w || star_p ? snprintf(text, sizeof(text), spec, star_w ? wv : pv, value)                                  \
                        : snprintf(text, sizeof(text), spec, value))
    for (const char *p = fmt; *p;) {
        if (*p != '%') {
            const char *q = p;
            while (*q && *q != '%')
                q++;
            PUT(p, (size_t)(q - p));
            p = q;
            continue;
        }
        if (p[1] == '%') {
            PUT("%", 1);
            p += 2;
            continue;
        }
        /* %[flags][width][.precision][length]conversion */
        char spec[64];
        size_t n = 0;
        spec[n++] = *p++;
        while (*p && strchr("-+ #0", *p) && n < 40)
            spec[n++] = *p++;
        int star_w = 0, star_p = 0, wv = 0, pv = 0;
        if (*p == '*') {
            star_w = 1;
            spec[n++] = *p++;
        }
        while (*p >= '0' && *p <= '9' && n < 40)
            spec[n++] = *p++;
        if (*p == '.') {
            spec[n++] = *p++;
            if (*p == '*') {
                star_p = 1;
                spec[n++] = *p++;
            }
            while (*p >= '0' && *p <= '9' && n < 40)
                spec[n++] = *p++;
        }
        int longs = 0;
        bool half = false;
        while (*p == 'l' || *p == 'h' || *p == 'z' || *p == 'j' || *p == 't' || *p == 'L') {
            if (*p == 'l' || *p == 'z' || *p == 'j' || *p == 't' || *p == 'L')
                longs++;
            else
                half = true;
            p++;
        }
        char conv = *p ? *p++ : 0;
        if (star_w && !arg_bytes(&a, 4, &wv))
            return;
        if (star_p && !arg_bytes(&a, 4, &pv))
            return;
        char text[512];
        int len = 0;
        switch (conv) {
        case 'd':
        case 'i':
        case 'u':
        case 'x':
        case 'X':
        case 'o':
        case 'c': {
            long long v = 0;
            if (longs && conv != 'c') {
                int64_t x;
                if (!arg_bytes(&a, 8, &x))
                    return;
                v = x;
                memcpy(spec + n, "ll", 2);
                n += 2;
            } else {
                int32_t x;
                if (!arg_bytes(&a, 4, &x))
                    return;
                v = (conv == 'd' || conv == 'i' || conv == 'c') ? x : (long long)(uint32_t)x;
                memcpy(spec + n, "ll", 2);
                n += conv == 'c' ? 0 : 2;
            }
            (void)half;
            spec[n++] = conv;
            spec[n] = 0;
            len = conv == 'c' ? FORMAT((int)v) : FORMAT(v);
            break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A': {
            double v;
            if (!arg_bytes(&a, 8, &v))
                return;
            spec[n++] = conv;
            spec[n] = 0;
            len = FORMAT(v);
            break;
        }
        case 's': {
            uint64_t sp;
            if (!arg_bytes(&a, 8, &sp))
                return;
            char str[256];
            if (!sp)
                strcpy(str, "(null)");
            else if (!read_string(w, in, lane, sp, str, sizeof(str)))
                return;
            spec[n++] = 's';
            spec[n] = 0;
            len = FORMAT(str);
            break;
        }
        case 'p': {
            uint64_t v;
            if (!arg_bytes(&a, 8, &v))
                return;
            len = snprintf(text, sizeof(text), "0x%llx", (unsigned long long)v);
            break;
        }
        default:
            /* An unknown conversion is printed as written, as the driver's formatter does. */
            len = snprintf(text, sizeof(text), "%.*s%c", (int)n, spec, conv);
            break;
        }
        if (len > 0)
            PUT(text, (size_t)len < sizeof(text) ? (size_t)len : sizeof(text) - 1);
    }
#undef PUT
#undef FORMAT
    if (used)
        out_append(w->b->l, out, used);
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
    const struct klaunch *l = w->b->l;
    uint32_t t = w->index * KLANES + lane, bx = l->block[0], by = l->block[1];
    char text[1024];
    /* The GPU's own words (BEHAVIOR.md): file:line: function: block: [..], thread: [..] Assertion `..` failed. */
    int n = snprintf(text, sizeof(text), "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", f,
                     line, fn, w->b->ctaid[0], w->b->ctaid[1], w->b->ctaid[2], t % bx, t / bx % by, t / (bx * by), m);
    if (n > 0)
        out_append(w->b->l, text, (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1);
    kfault(w, in, lane, CUDA_ERROR_ASSERT, "assertion `%s` failed at %s:%u in %s", m, f, line, fn);
}
