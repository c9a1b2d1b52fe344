/*
 * Kernels that never end can be abandoned (DESIGN.md §4, §13; docs/kernels.md, "Cancellation and
 * the watchdog").
 *
 * A kernel in an endless loop holds its stream, and every call that waits for the device,
 * forever. NVIDIA's driver never returns from cuCtxDestroy, cuDevicePrimaryCtxReset or
 * cuModuleUnload with one running, but the process ends at exit() (the H100:
 * docs/probes/engine_trust/ctx_probe.c and probe.out). Where the driver hangs, extmem returns:
 *
 *  - every launch that runs its blocks is on a list here (kernel_run_begin .. kernel_run_end);
 *  - the watchdog (EXTMEM_KERNEL_TIMEOUT=<seconds>) ends a launch that runs longer than that,
 *    as a display GPU's watchdog does;
 *  - a teardown that waits for the device (a context, a module, a library) waits at most a grace
 *    period (EXTMEM_KERNEL_TIMEOUT, else 10 s) from the call: then the launches still running
 *    are cancelled, and the wait ends because they end;
 *  - the library's unload (exit) cancels every launch at once and lets none start after.
 *
 * A cancelled launch ends as a faulted one does: CUDA_ERROR_LAUNCH_TIMEOUT, sticky for its
 * context, its warps stopping at their next cancellation point (exec.c, native_emit.c) and its
 * other blocks never run. Nothing is freed under it: the calls that wait go on waiting for the
 * work to end, as before, and it ends. The deadlines are kept by one thread of extmem's, started
 * when a running launch first has one; it sleeps until the earliest.
 */
#include "device/device.h"

#include <stdio.h>
#include <stdlib.h>

#define SECOND_NS 1000000000ull
#define DEFAULT_GRACE_NS (10 * SECOND_NS)
#define MAX_TIMEOUT_S 1000000u /* 11 days: more is a typing error */

static struct {
    os_mutex lock;           /* guards everything here */
    os_cond wake;            /* the watchdog's: an earlier deadline, or stop */
    bool ready;              /* wake is initialised */
    struct list_node runs;   /* struct kernel_run.node */
    struct list_node graces; /* struct kernel_grace.node */
    bool abandon;            /* the library unloads: every launch is cancelled, none starts */
    bool started, stopping;  /* the watchdog's thread */
    os_thread thread;
    uint64_t sleep_until;    /* when the watchdog wakes next by itself (UINT64_MAX: never) */
    bool timeout_read;
    uint64_t timeout;        /* EXTMEM_KERNEL_TIMEOUT in ns; 0: none */
} reg = {.lock = OS_MUTEX_INITIALIZER, .runs = {&reg.runs, &reg.runs}, .graces = {&reg.graces, &reg.graces}};

/* "2", "0.5", "30.25": seconds as a decimal number, more than 0; 0 for anything else. */
static uint64_t parse_seconds(const char *s)
{
    uint64_t whole = 0, frac = 0, scale = SECOND_NS;
    unsigned digits = 0, fraction_digits = 0;
    for (; *s >= '0' && *s <= '9'; ++s, ++digits) {
        whole = whole * 10 + (uint64_t)(*s - '0');
        if (whole > MAX_TIMEOUT_S)
            return 0;
    }
    if (*s == '.') {
        for (++s; *s >= '0' && *s <= '9'; ++s, ++fraction_digits)
            if (scale >= 10) {
                scale /= 10;
                frac += (uint64_t)(*s - '0') * scale;
            }
    }
    if (*s || digits + fraction_digits == 0)
        return 0;
    return whole * SECOND_NS + frac;
}

/* With reg.lock held: EXTMEM_KERNEL_TIMEOUT, read once. */
static uint64_t timeout_ns(void)
{
    if (!reg.timeout_read) {
        reg.timeout_read = true;
        const char *s = os_getenv("EXTMEM_KERNEL_TIMEOUT");
        if (s && *s) {
            reg.timeout = parse_seconds(s);
            if (!reg.timeout)
                log_warn("kernels: EXTMEM_KERNEL_TIMEOUT=%s is not a number of seconds above 0 (and at most %u) "
                         "like 30 or 0.5: ignored, no watchdog", s, MAX_TIMEOUT_S);
            else
                log_info("kernels: EXTMEM_KERNEL_TIMEOUT: a launch that runs longer than %s s ends with "
                         "CUDA_ERROR_LAUNCH_TIMEOUT", s);
        }
    }
    return reg.timeout;
}

static double secs(uint64_t ns) { return (double)ns / (double)SECOND_NS; }

/* With reg.lock held: ends r, with a reason that says why. `g` is a teardown that waits for it,
 * if any. */
static void cancel(struct kernel_run *r, const struct kernel_grace *g, uint64_t now)
{
    const char *name = r->name;
    char reason[400];
    if (reg.abandon)
        snprintf(reason, sizeof(reason), "kernel %.100s was abandoned after running %.1f s: the library is unloading "
                 "(the process is exiting), which ends running kernels as the GPU's driver does", name,
                 secs(now - r->start));
    else if (g)
        snprintf(reason, sizeof(reason), "kernel %.100s was abandoned by %s after running %.1f s: a teardown waits "
                 "at most %.3g s for running kernels (%s), then cancels them", name, g->fn, secs(now - r->start),
                 secs(g->deadline - g->start), reg.timeout ? "EXTMEM_KERNEL_TIMEOUT" : "EXTMEM_KERNEL_TIMEOUT unset");
    else
        snprintf(reason, sizeof(reason), "kernel %.100s ran longer than EXTMEM_KERNEL_TIMEOUT (%.3g s) and was ended, "
                 "as a display GPU's watchdog ends a kernel", name, secs(reg.timeout));
    r->cancelled = true;
    if (!r->cancel(r->launch, CUDA_ERROR_LAUNCH_TIMEOUT, reason))
        return; /* it had faulted already: that is how it ends */
    if (g && !reg.abandon)
        log_warn("%s: kernel %s still running after waiting %.1f s for it: cancelled (CUDA_ERROR_LAUNCH_TIMEOUT), "
                 "the call goes on", g->fn, name, secs(now - g->start));
}

/* With reg.lock held: cancels the launches whose time is up; returns the next deadline. */
static uint64_t expire(uint64_t now)
{
    const struct kernel_grace *first = NULL;
    for (struct list_node *it = reg.graces.next; it != &reg.graces; it = it->next) {
        const struct kernel_grace *g = list_entry(it, struct kernel_grace, node);
        if (!first || g->deadline < first->deadline)
            first = g;
    }
    uint64_t grace = first ? first->deadline : UINT64_MAX, next = UINT64_MAX;
    for (struct list_node *it = reg.runs.next; it != &reg.runs; it = it->next) {
        struct kernel_run *r = list_entry(it, struct kernel_run, node);
        if (r->cancelled)
            continue;
        uint64_t due = r->deadline < grace ? r->deadline : grace;
        if (due <= now)
            cancel(r, first, now); /* while a teardown waits, it is why the kernel is given up */
        else if (due < next)
            next = due;
    }
    return next;
}

static void watchdog(void *arg)
{
    (void)arg;
    os_thread_set_name("extmem-watchdog");
    os_mutex_lock(&reg.lock);
    while (!reg.stopping) {
        uint64_t now = os_time_ns(), next = expire(now);
        reg.sleep_until = next;
        if (next == UINT64_MAX)
            os_cond_wait(&reg.wake, &reg.lock);
        else
            os_cond_timedwait(&reg.wake, &reg.lock, next - now);
    }
    os_mutex_unlock(&reg.lock);
}

/* With reg.lock held: a running launch may have to end at `due`: the watchdog runs, and looks
 * again now if it sleeps past that. */
static void watch(uint64_t due)
{
    if (reg.abandon)
        return;
    if (!reg.ready) {
        os_cond_init(&reg.wake);
        reg.ready = true;
    }
    if (!reg.started) {
        int err = os_thread_create(&reg.thread, watchdog, NULL);
        if (err) {
            char why[128];
            log_warn("kernels: no thread for the watchdog (%s): kernels run without a time limit for now",
                     os_error_string(err, why, sizeof(why)));
            return;
        }
        reg.started = true;
        reg.sleep_until = 0; /* it looks at the lists when it starts */
    }
    if (due < reg.sleep_until)
        os_cond_signal(&reg.wake);
}

/* With reg.lock held: the earliest teardown's deadline, or UINT64_MAX. */
static uint64_t grace_deadline(void)
{
    uint64_t d = UINT64_MAX;
    for (struct list_node *it = reg.graces.next; it != &reg.graces; it = it->next) {
        const struct kernel_grace *g = list_entry(it, struct kernel_grace, node);
        d = g->deadline < d ? g->deadline : d;
    }
    return d;
}

void kernel_run_begin(struct kernel_run *r)
{
    r->cancelled = false;
    r->start = os_time_ns();
    os_mutex_lock(&reg.lock);
    uint64_t t = timeout_ns();
    r->deadline = t ? r->start + t : UINT64_MAX;
    list_add(&reg.runs, &r->node);
    if (reg.abandon) {
        cancel(r, NULL, r->start);
    } else {
        uint64_t grace = grace_deadline(), due = r->deadline < grace ? r->deadline : grace;
        if (due != UINT64_MAX)
            watch(due);
    }
    os_mutex_unlock(&reg.lock);
}

void kernel_run_end(struct kernel_run *r)
{
    os_mutex_lock(&reg.lock);
    list_del(&r->node);
    os_mutex_unlock(&reg.lock);
}

void kernel_grace_begin(struct kernel_grace *g, const char *fn)
{
    g->fn = fn;
    g->start = os_time_ns();
    os_mutex_lock(&reg.lock);
    uint64_t t = timeout_ns();
    g->deadline = g->start + (t ? t : DEFAULT_GRACE_NS);
    list_add(&reg.graces, &g->node);
    if (!list_empty(&reg.runs))
        watch(g->deadline);
    os_mutex_unlock(&reg.lock);
}

void kernel_grace_end(struct kernel_grace *g)
{
    os_mutex_lock(&reg.lock);
    list_del(&g->node);
    os_mutex_unlock(&reg.lock);
}

void kernel_cancel_all(void)
{
    os_mutex_lock(&reg.lock);
    reg.abandon = true;
    uint64_t now = os_time_ns();
    for (struct list_node *it = reg.runs.next; it != &reg.runs; it = it->next) {
        struct kernel_run *r = list_entry(it, struct kernel_run, node);
        if (!r->cancelled)
            cancel(r, NULL, now);
    }
    bool started = reg.started;
    reg.started = false; /* and never again: `abandon` keeps it so */
    reg.stopping = true;
    if (reg.ready)
        os_cond_signal(&reg.wake);
    os_mutex_unlock(&reg.lock);
    if (started)
        os_thread_join(reg.thread);
}
