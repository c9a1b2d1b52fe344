/*
 * The native tier (DESIGN.md §13; docs/kernels.md, "The native tier"): which tier runs a
 * module's kernels, and its native code, made once per module when any of its kernels is first
 * launched (compiling costs a module what it costs a kernel, and a module whose kernels never
 * run costs nothing).
 *
 * EXTMEM_JIT=auto (the default) compiles in the background, as a JIT with tiers does: the
 * first launches of a module run on the portable executor while a thread of extmem's has the
 * module compiled (or takes it from the cache), and the launches after it is ready run
 * natively. Both tiers give the same bits, so where a launch runs is only a matter of speed, and
 * no launch waits seconds for a compiler. Where the compiler does not work, every launch stays
 * portable (said once at the info level).
 * EXTMEM_JIT=native: every launch runs natively, waiting for the compile; a module that cannot
 * be compiled fails the launch (CUDA_ERROR_JIT_COMPILER_NOT_FOUND without a compiler,
 * CUDA_ERROR_LAUNCH_FAILED when it refuses), so that a test of the native tier never passes on
 * the portable one.
 * EXTMEM_JIT=portable: nothing is compiled.
 */
#include "native.h"

#include <stdio.h>
#include <stdlib.h>

enum tier { TIER_AUTO, TIER_NATIVE, TIER_PORTABLE };

static enum tier tier(void)
{
    const char *s = os_getenv("EXTMEM_JIT");
    if (!s || !*s || strcmp(s, "auto") == 0)
        return TIER_AUTO;
    if (strcmp(s, "native") == 0)
        return TIER_NATIVE;
    if (strcmp(s, "portable") == 0)
        return TIER_PORTABLE;
    static atomic_int warned;
    if (!atomic_exchange(&warned, 1))
        log_warn("kernels: EXTMEM_JIT=%s is not auto, native or portable: auto", s);
    return TIER_AUTO;
}

/* Guards kmodule.native while a module's first launch sets it up (briefly: the compile itself
 * runs without it). */
static os_mutex native_lock = OS_MUTEX_INITIALIZER;

static void unref(struct knative *n)
{
    if (atomic_fetch_sub(&n->refs, 1) != 1)
        return;
    if (n->lib)
        os_library_close(n->lib);
    os_cond_destroy(&n->done);
    os_mutex_destroy(&n->lock);
    free(n->fns);
    free(n->body);
    free(n->source);
    free(n);
}

static void finish(struct knative *n, enum knative_state state)
{
    os_mutex_lock(&n->lock);
    atomic_store(&n->state, state);
    os_cond_broadcast(&n->done);
    os_mutex_unlock(&n->lock);
}

/* Compiles (or loads from the cache) n's source and looks its functions up. */
static void compile(struct knative *n)
{
    char how[1200];
    void *lib = NULL;
    n->code = knative_cache_load(n->host, n->source, n->len, &lib, how, sizeof(how), n->why, sizeof(n->why));
    free(n->source);
    n->source = NULL;
    if (n->code) {
        log_info("kernels: %s runs on the portable executor: %s", n->name, n->why);
        finish(n, KNATIVE_FAILED);
        return;
    }
    n->lib = lib;
    for (uint32_t i = 0; i < n->nfuncs; ++i) {
        if (!n->body[i])
            continue;
        char name[32];
        snprintf(name, sizeof(name), "knat_%u", i);
        void *p = os_library_symbol(lib, name);
        if (!p) {
            n->code = CUDA_ERROR_LAUNCH_FAILED;
            snprintf(n->why, sizeof(n->why), "the compiled library has no %s", name);
            log_info("kernels: %s runs on the portable executor: %s", n->name, n->why);
            finish(n, KNATIVE_FAILED);
            return;
        }
        memcpy(&n->fns[i], &p, sizeof(p)); /* a data pointer to a function pointer (POSIX dlsym) */
    }
    log_info("kernels: %s runs natively from now on: %zu bytes of C, %s", n->name, n->len, how);
    finish(n, KNATIVE_READY);
}

/* The compile thread: counted among extmem's workers, so that unloading joins it. */
static void compile_thread(void *arg)
{
    struct knative *n = arg;
    n->host->thread_enter();
    os_thread_set_name("extmem-jit");
    compile(n);
    os_mutex_lock(&n->lock); /* its creator stored the handle under the lock */
    os_thread self = n->thread;
    os_mutex_unlock(&n->lock);
    const struct khost *host = n->host; /* n may be gone after unref */
    unref(n);
    host->thread_leaving(self);
}

/* A new knative for m, COMPILING, with its source; NULL when out of memory. */
static struct knative *start(const struct kmodule *m, const struct khost *host)
{
    struct knative *n = calloc(1, sizeof(*n));
    struct kbuf src = {0};
    if (!n || !knative_emit(m, &src))
        goto fail;
    n->source = src.p;
    n->len = src.len;
    n->nfuncs = m->nfuncs;
    n->fns = calloc(m->nfuncs ? m->nfuncs : 1, sizeof(knat_fn));
    n->body = calloc(m->nfuncs ? m->nfuncs : 1, sizeof(bool));
    if (!n->fns || !n->body)
        goto fail;
    for (uint32_t i = 0; i < m->nfuncs; ++i)
        n->body[i] = m->funcs[i]->defined && m->funcs[i]->ninsns;
    snprintf(n->name, sizeof(n->name), "%s", m->source_name);
    n->host = host;
    atomic_init(&n->state, KNATIVE_COMPILING);
    atomic_init(&n->refs, 1);
    os_mutex_init(&n->lock);
    os_cond_init(&n->done);
    return n;
fail:
    if (n) {
        free(n->fns);
        free(n->body);
    }
    free(src.p);
    free(n);
    return NULL;
}

/* Starts the compile of n on a thread of its own (which holds a reference); where none can
 * start (the library is unloading, or no thread), in this thread. */
static void launch_compile(struct knative *n)
{
    atomic_fetch_add(&n->refs, 1);
    if (!n->host->unloading()) {
        n->host->thread_started();
        os_mutex_lock(&n->lock);
        int err = os_thread_create(&n->thread, compile_thread, n);
        os_mutex_unlock(&n->lock);
        if (err == 0)
            return;
        n->host->thread_unstarted();
    }
    compile(n);
    unref(n);
}

void knative_prepare(struct klaunch *l)
{
    l->native = NULL;
    enum tier t = tier();
    if (t == TIER_PORTABLE)
        return;
    struct kmodule *m = l->fn->module;
    os_mutex_lock(&native_lock);
    struct knative *n = m->native;
    bool first = !n;
    if (first && (n = start(m, l->host)))
        m->native = n;
    os_mutex_unlock(&native_lock);
    if (first && n)
        launch_compile(n);
    int state = n ? atomic_load(&n->state) : KNATIVE_FAILED;
    if (state == KNATIVE_COMPILING && t == TIER_NATIVE) {
        os_mutex_lock(&n->lock);
        while ((state = atomic_load(&n->state)) == KNATIVE_COMPILING)
            os_cond_wait(&n->done, &n->lock);
        os_mutex_unlock(&n->lock);
    }
    if (state == KNATIVE_READY) {
        l->native = n;
        return;
    }
    if (state == KNATIVE_FAILED && t == TIER_NATIVE) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&l->faulted, &expected, 1)) {
            l->fault_code = n ? n->code : CUDA_ERROR_OUT_OF_MEMORY;
            snprintf(l->fault_reason, sizeof(l->fault_reason), "kernel %.100s: EXTMEM_JIT=native: %.300s", l->fn->name,
                     n ? n->why : "out of host memory for the generated source");
        }
    }
    /* TIER_AUTO: this launch runs on the portable executor (the compile is under way, or failed). */
}

knat_fn knative_lookup(const struct knative *n, const struct kfunc *fn)
{
    if (!n || atomic_load(&((struct knative *)n)->state) != KNATIVE_READY)
        return NULL;
    const struct kmodule *m = fn->module;
    for (uint32_t i = 0; i < n->nfuncs && i < m->nfuncs; ++i)
        if (m->funcs[i] == fn)
            return n->fns[i];
    return NULL;
}

void knative_release(struct kmodule *m)
{
    os_mutex_lock(&native_lock);
    struct knative *n = m->native;
    m->native = NULL;
    os_mutex_unlock(&native_lock);
    if (n)
        unref(n); /* a compile still running keeps it until it ends */
}
