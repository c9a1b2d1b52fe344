/*
 * Streams: ordered work queues, each drained by a thread of its own that starts with the
 * first piece of work. The legacy default stream has no queue: its work runs in the calling
 * thread after the blocking streams of the context have drained (see struct target).
 */
#include "exec/exec.h"
#include "exec/per_thread.h"

#include <stdlib.h>

/* How long a waiter watches a stream's counter before it sleeps: a wake-up through the kernel and
 * the switch back cost microseconds, more than short work takes (issue 16: a launch and its
 * synchronisation round trip). Only where another core can be running the work. */
#define SPIN_NS 20000u

/* Spinning pays only while the other side really runs on another core; on a machine busier
 * than its cores it takes the core the work needs. So a waiter's spin earns credit when it
 * ends in time, and a wait that the spin gave up on but that still ended soon after (the work
 * was short, yet not done in time: its thread did not get a core) costs more; a long wait (long
 * work) says nothing. Without credit a waiter sleeps at once, and every 16th wait probes again.
 * A stream worker watching for its next piece of work never affects the credit: no work
 * coming is not a busy machine. */
static _Atomic int spin_credit = 8;
static _Atomic unsigned int spin_probe;
#define SHORT_WAIT_NS 200000u

enum spin_kind { SPIN_WAITER, SPIN_WORKER };

/* The machine's cores, asked once by the first stream's creation (an API call), never by a stream
 * worker: sysconf reads a file, and a descriptor that a worker opens for a moment would show in a
 * program's (a test's) count of its own. */
static _Atomic int spin_cores;

static bool spin_until(_Atomic uint64_t *counter, uint64_t count, enum spin_kind kind, bool *spun)
{
    *spun = false;
    int cores = atomic_load(&spin_cores);
    if (atomic_load(counter) >= count)
        return true;
    if (cores < 2 || (atomic_load(&spin_credit) <= 0 && (atomic_fetch_add(&spin_probe, 1) & 15)))
        return false;
    uint64_t deadline = 0;
    *spun = true;
    for (unsigned int i = 0; atomic_load(counter) < count; ++i) {
        os_cpu_relax();
        if ((i & 63) == 0) {
            uint64_t now = os_time_ns();
            if (!deadline)
                deadline = now + SPIN_NS;
            else if (now > deadline)
                return false;
        }
    }
    if (kind == SPIN_WAITER && atomic_fetch_add(&spin_credit, 1) > 16)
        atomic_store(&spin_credit, 16);
    return true;
}

/* A waiter's spin failed and it slept until `start` + what it measured: short, so the work's
 * thread was not running when it should have been. */
static void spin_penalty(uint64_t start)
{
    if (os_time_ns() - start < SHORT_WAIT_NS && atomic_fetch_sub(&spin_credit, 4) < -16)
        atomic_store(&spin_credit, -16);
}

static void stream_free(struct obj *o)
{
    struct stream *s = (struct stream *)o;
    struct work *w = s->head;
    while (w) { /* only when the worker could not start */
        struct work *next = w->next;
        if (w->discard)
            w->discard(w);
        else
            free(w);
        w = next;
    }
    device_untrack_stream(&s->device_node);
    os_cond_destroy(&s->cond);
    os_mutex_destroy(&s->lock);
    ctx_release(s->ctx);
    free(s);
}

static void stream_worker(void *arg)
{
    struct stream *s = arg;
    device_thread_mark();
    os_thread_set_name("extmem-stream");
    os_mutex_lock(&s->lock);
    for (;;) {
        if (!s->head && !s->destroyed) {
            /* The next piece of work often follows at once (launch, synchronise, launch): watch
             * for it a moment before sleeping, so its submitter need not wake this thread. */
            uint64_t seen = s->submitted;
            os_mutex_unlock(&s->lock);
            bool spun;
            spin_until(&s->submitted, seen + 1, SPIN_WORKER, &spun);
            os_mutex_lock(&s->lock);
        }
        while (!s->head && !s->destroyed && !device_unloading())
            os_cond_wait(&s->cond, &s->lock);
        struct work *w = s->head;
        if (!w)
            break; /* destroyed (or the library unloading) and drained */
        s->head = w->next;
        if (!s->head)
            s->tail = NULL;
        s->current = w;
        os_mutex_unlock(&s->lock);
        w->run(w); /* frees w */
        os_mutex_lock(&s->lock);
        s->current = NULL;
        s->completed++;
        os_cond_broadcast(&s->cond);
    }
    s->running = false;
    os_thread self = s->thread;
    os_mutex_unlock(&s->lock);
    device_worker_leaving(self);
    obj_release(&s->base); /* the worker's reference */
}

/* With s->lock held: runs the queue in this thread, for when no worker can run it. */
static void drain_here(struct stream *s)
{
    while (s->head) {
        struct work *x = s->head;
        s->head = x->next;
        if (!s->head)
            s->tail = NULL;
        os_mutex_unlock(&s->lock);
        x->run(x);
        os_mutex_lock(&s->lock);
        s->completed++;
    }
}

/* Queues w on s and makes sure a worker drains the queue; returns w's place in s's order
 * (s->completed reaches it once w has run). */
static uint64_t stream_enqueue(struct stream *s, struct work *w)
{
    w->next = NULL;
    bool unstarted = false;
    os_mutex_lock(&s->lock);
    if (s->tail)
        s->tail->next = w;
    else
        s->head = w;
    s->tail = w;
    uint64_t place = ++s->submitted;
    if (w->queued)
        w->queued(w);
    if (!s->running && device_unloading()) {
        drain_here(s);
    } else if (!s->running) {
        obj_retain(&s->base);
        s->running = true;
        device_worker_started();
        if (os_thread_create(&s->thread, stream_worker, s) != 0) {
            /* No thread: drain in this thread so the work still happens, in order. */
            s->running = false;
            obj_release(&s->base);
            unstarted = true;
            drain_here(s);
        }
    }
    os_cond_broadcast(&s->cond);
    os_mutex_unlock(&s->lock);
    if (unstarted)
        device_worker_leaving_unstarted();
    return place;
}

void stream_wait_until(struct stream *s, uint64_t count)
{
    uint64_t start = os_time_ns();
    bool spun;
    if (spin_until(&s->completed, count, SPIN_WAITER, &spun))
        return;
    os_mutex_lock(&s->lock);
    while (s->completed < count)
        os_cond_wait(&s->cond, &s->lock);
    os_mutex_unlock(&s->lock);
    if (spun)
        spin_penalty(start);
}

void stream_synchronize(struct stream *s)
{
    os_mutex_lock(&s->lock);
    uint64_t target = s->submitted;
    os_mutex_unlock(&s->lock);
    stream_wait_until(s, target);
}

void stream_release(struct stream *s) { obj_release(&s->base); }

void streams_wait(os_mutex *lock, struct list_node *head, size_t node_offset, bool blocking_only)
{
    for (;;) {
        struct stream *batch[64];
        uint64_t until[64];
        size_t n = 0;
        bool more = false;
        os_mutex_lock(lock);
        for (struct list_node *it = head->next; it != head; it = it->next) {
            struct stream *s = (struct stream *)((char *)it - node_offset);
            if (blocking_only && (s->flags & CU_STREAM_NON_BLOCKING))
                continue;
            os_mutex_lock(&s->lock);
            bool busy = s->completed < s->submitted;
            if (busy && n < 64) {
                obj_retain(&s->base);
                until[n] = s->submitted;
                batch[n++] = s;
            } else if (busy) {
                more = true;
            }
            os_mutex_unlock(&s->lock);
            if (more)
                break;
        }
        os_mutex_unlock(lock);
        for (size_t i = 0; i < n; ++i) {
            stream_wait_until(batch[i], until[i]);
            stream_release(batch[i]);
        }
        /* A full batch left busy streams unvisited: look again. Work queued since the call
         * began is waited for too then, which is later than needed but never wrong. */
        if (!more)
            return;
    }
}

/* Synchronizes the streams of ctx: all of them, or only the blocking ones. */
static void sync_streams(struct ctx *ctx, bool blocking_only)
{
    streams_wait(&ctx->lock, &ctx->streams, offsetof(struct stream, ctx_node), blocking_only);
}

/* What drain.c does with the device's list of every stream (device.h). */
static void device_wait(os_mutex *lock, struct list_node *head)
{
    streams_wait(lock, head, offsetof(struct stream, device_node), false);
}

static void device_wake(struct list_node *node)
{
    struct stream *s = list_entry(node, struct stream, device_node);
    os_mutex_lock(&s->lock);
    os_cond_broadcast(&s->cond);
    os_mutex_unlock(&s->lock);
}

static bool device_idle(struct list_node *head)
{
    for (struct list_node *it = head->next; it != head; it = it->next) {
        struct stream *s = list_entry(it, struct stream, device_node);
        if (atomic_load(&s->completed) < atomic_load(&s->submitted))
            return false;
    }
    return true;
}

static const struct device_stream_ops device_ops = {device_wait, device_wake, device_idle};

static void stream_destroy_all(struct ctx *ctx)
{
    for (;;) {
        os_mutex_lock(&ctx->lock);
        struct stream *s = list_empty(&ctx->streams) ? NULL : list_entry(ctx->streams.next, struct stream, ctx_node);
        if (s)
            list_del(&s->ctx_node);
        os_mutex_unlock(&ctx->lock);
        if (!s)
            return;
        os_mutex_lock(&s->lock);
        s->destroyed = true;
        os_cond_broadcast(&s->cond);
        os_mutex_unlock(&s->lock);
        obj_unregister(&s->base);
    }
}

static void stream_drop_deferred(struct ctx *ctx);

/* The context's teardown step (device.h: streams first): every stream's handle dies and its
 * worker leaves once drained; then the context's own reference to the deferred legacy queue,
 * whose handle died with the others. Registered wherever a stream joins ctx->streams. */
static void teardown(struct ctx *ctx)
{
    stream_destroy_all(ctx);
    stream_drop_deferred(ctx);
}

static const struct ctx_step teardown_step = {CTX_STEP_STREAMS, teardown};

CUresult stream_lookup(const char *fn, CUstream handle, struct stream **out)
{
    struct obj *o;
    obj_status st = obj_lookup((uint64_t)(uintptr_t)handle, OBJ_STREAM, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: %s", fn, obj_status_text(st, OBJ_STREAM, (uint64_t)(uintptr_t)handle));
    *out = (struct stream *)o;
    return CUDA_SUCCESS;
}

/* ---- Graphs: the sink of a graph's launch and the captures (exec.h; src/graph) ---- */
static OS_THREAD_LOCAL struct work_sink *thread_sink;
static const struct capture_hooks *_Atomic hooks;
static os_mutex capture_mutex = OS_MUTEX_INITIALIZER;
/* The per-thread default stream's capture, for this thread (and the context it was begun in). */
static OS_THREAD_LOCAL struct capture *ptds_capture;

void target_sink_begin(struct work_sink *sink) { thread_sink = sink; }
void target_sink_end(void) { thread_sink = NULL; }
void capture_set_hooks(const struct capture_hooks *h) { atomic_store(&hooks, h); }
const struct capture_hooks *capture_get_hooks(void) { return atomic_load(&hooks); }

/* Captures running and events that stand for a capture's work: while there are none, no call
 * asks src/graph anything (its hooks take its lock), however many captures ran before. */
static atomic_int capture_live;
void capture_live_add(int delta) { atomic_fetch_add(&capture_live, delta); }
const struct capture_hooks *capture_live_hooks(void)
{
    return atomic_load(&capture_live) > 0 ? atomic_load(&hooks) : NULL;
}
void capture_lock(void) { os_mutex_lock(&capture_mutex); }
void capture_unlock(void) { os_mutex_unlock(&capture_mutex); }
struct capture **capture_ptds_slot(void) { return &ptds_capture; }

CUresult capture_check_unsafe(const char *fn, struct stream *s)
{
    const struct capture_hooks *h = capture_live_hooks();
    return h ? h->unsafe(fn, s) : CUDA_SUCCESS;
}

CUresult target_capture_params(struct target *t, CUgraphNodeParams *p)
{
    return atomic_load(&hooks)->add(t, t->fn, p);
}

/* The capture t's stream records into, with a reference, or NULL. */
static void capture_of(struct target *t)
{
    t->capture = NULL;
    const struct capture_hooks *h = capture_live_hooks();
    if (!h)
        return;
    capture_lock();
    struct capture *c = t->s ? t->s->capture : !t->legacy ? ptds_capture : NULL;
    if (c)
        h->retain(c);
    capture_unlock();
    t->capture = c;
}

static CUresult resolve(const char *fn, CUstream handle, struct target *t)
{
    t->fn = fn;
    t->s = NULL;
    t->sync = false;
    t->capture = NULL;
    t->sink = thread_sink;
    t->legacy = handle != CU_STREAM_PER_THREAD;
    if (t->sink) { /* a graph's launch makes its work: the stream is the graph's (exec.h) */
        obj_retain(&t->sink->ctx->base);
        t->ctx = t->sink->ctx;
        t->legacy = false;
        return CUDA_SUCCESS;
    }
    CUresult r = ctx_current(fn, &t->ctx);
    if (r || !handle || handle == CU_STREAM_LEGACY || handle == CU_STREAM_PER_THREAD)
        return r;
    if ((r = stream_lookup(fn, handle, &t->s))) {
        ctx_release(t->ctx);
        return r;
    }
    if (t->s->ctx != t->ctx) {
        stream_release(t->s);
        ctx_release(t->ctx);
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: stream 0x%llx belongs to another context than the current one", fn,
                    (unsigned long long)(uintptr_t)handle);
    }
    t->legacy = false;
    return CUDA_SUCCESS;
}

CUresult target_get(const char *fn, CUstream handle, struct target *t)
{
    CUresult r = resolve(fn, handle, t);
    if (r)
        return r;
    if (t->sink) /* made inside cuGraphLaunch's own submission, or only to be checked */
        return CUDA_SUCCESS;
    capture_of(t);
    device_submit_begin();
    return CUDA_SUCCESS;
}

void target_put(struct target *t)
{
    if (!t->sink)
        device_submit_end();
    if (t->capture)
        atomic_load(&hooks)->release(t->capture);
    if (t->s)
        stream_release(t->s);
    ctx_release(t->ctx);
}

/* ---- The legacy stream's deferred work (DESIGN.md §6, §15; docs/streams.md) ----
 * The legacy stream's work runs in the calling thread, after the blocking streams' work. A wait
 * for an external semaphore that nobody may signal for a long time must not hold the caller
 * (cuWaitExternalSemaphoresAsync returns at once), so it goes to a queue of the context's own
 * (ctx->deferred, a blocking stream with no handle given out), and while that queue is busy the
 * legacy stream's work follows it there, in order: each piece behind a barrier for the work the
 * blocking streams had queued before it, a synchronous call waiting for its own piece; work for
 * a blocking stream first waits for the legacy work queued before it. Once the queue drains,
 * legacy work runs in the caller again. */

static struct stream *stream_new(struct ctx *ctx, unsigned int flags, int priority);

/* ctx's deferred queue with a reference when it has work not yet run (or `create`: in any case,
 * made when missing); NULL otherwise. */
static struct stream *deferred_get(struct ctx *ctx, bool create)
{
    os_mutex_lock(&ctx->lock);
    struct stream *d = ctx->deferred;
    if (!d && create && !atomic_load(&ctx->destroyed)) {
        obj_retain(&ctx->base);
        if ((d = stream_new(ctx, 0, 0))) {
            list_add(&ctx->streams, &d->ctx_node);
            ctx_add_teardown(ctx, &teardown_step);
            obj_retain(&d->base); /* the context's; the handle's goes at stream_destroy_all */
            ctx->deferred = d;
        }
    }
    if (d && (create || atomic_load(&d->completed) < atomic_load(&d->submitted)))
        obj_retain(&d->base);
    else
        d = NULL;
    os_mutex_unlock(&ctx->lock);
    return d;
}

bool stream_legacy_busy(struct ctx *ctx)
{
    struct stream *d = deferred_get(ctx, false);
    if (d)
        stream_release(d);
    return d != NULL;
}

/* Drops the context's queue of deferred legacy work (context teardown, after its streams). */
static void stream_drop_deferred(struct ctx *ctx)
{
    os_mutex_lock(&ctx->lock);
    struct stream *d = ctx->deferred;
    ctx->deferred = NULL;
    os_mutex_unlock(&ctx->lock);
    if (d)
        stream_release(d);
}

/* The per-thread default stream's deferred work: a queue per thread (and context), found by its
 * handle each time, so that a queue destroyed with its context is simply not found. Its stream
 * is a blocking stream of the context: legacy work waits for it, as CUDA orders the per-thread
 * stream with the legacy one. It stays (idle) until its context is destroyed. */
static OS_THREAD_LOCAL uint64_t ptds_deferred;

static struct stream *ptds_deferred_get(struct ctx *ctx, bool create)
{
    struct obj *o;
    struct stream *d = NULL;
    if (ptds_deferred && obj_lookup(ptds_deferred, OBJ_STREAM, &o) == OBJ_FOUND) {
        d = (struct stream *)o;
        if (d->ctx != ctx) {
            stream_release(d);
            d = NULL;
        }
    }
    if (!d && create) {
        obj_retain(&ctx->base);
        if ((d = stream_new(ctx, 0, 0))) {
            os_mutex_lock(&ctx->lock);
            list_add(&ctx->streams, &d->ctx_node);
            ctx_add_teardown(ctx, &teardown_step);
            os_mutex_unlock(&ctx->lock);
            ptds_deferred = d->base.handle;
            obj_retain(&d->base); /* the caller's */
        }
    }
    if (d && !create && atomic_load(&d->completed) >= atomic_load(&d->submitted)) {
        stream_release(d);
        d = NULL;
    }
    return d;
}

/* Waits until streams have completed what was queued on them when it was taken. */
struct barrier_work {
    struct work w;
    size_t count;
    struct {
        struct stream *s; /* a reference */
        uint64_t until;
    } at[];
};

static void barrier_discard(struct work *w)
{
    struct barrier_work *b = (struct barrier_work *)w;
    for (size_t i = 0; i < b->count; ++i)
        stream_release(b->at[i].s);
    free(b);
}

static void barrier_run(struct work *w)
{
    struct barrier_work *b = (struct barrier_work *)w;
    for (size_t i = 0; i < b->count; ++i)
        stream_wait_until(b->at[i].s, b->at[i].until);
    barrier_discard(w);
}

/* A barrier for the work queued now on the busy streams of ctx: the blocking ones but `skip`
 * (legacy work), or the one stream `only`. *none when nothing is queued; NULL when out of
 * memory. */
static struct barrier_work *barrier_take(struct ctx *ctx, struct stream *skip, struct stream *only, bool *none)
{
    os_mutex_lock(&ctx->lock);
    size_t n = 0;
    for (struct list_node *node = ctx->streams.next; node != &ctx->streams; node = node->next) {
        struct stream *s = list_entry(node, struct stream, ctx_node);
        if (only ? s == only : s != skip && !(s->flags & CU_STREAM_NON_BLOCKING))
            n++;
    }
    struct barrier_work *b = calloc(1, sizeof(*b) + n * sizeof(b->at[0]));
    if (b) {
        for (struct list_node *node = ctx->streams.next; node != &ctx->streams; node = node->next) {
            struct stream *s = list_entry(node, struct stream, ctx_node);
            if (!(only ? s == only : s != skip && !(s->flags & CU_STREAM_NON_BLOCKING)))
                continue;
            uint64_t until = atomic_load(&s->submitted);
            if (atomic_load(&s->completed) >= until)
                continue;
            obj_retain(&s->base); /* a busy stream still has its worker's reference */
            b->at[b->count].s = s;
            b->at[b->count].until = until;
            b->count++;
        }
        b->w.run = barrier_run;
        b->w.discard = barrier_discard;
    }
    os_mutex_unlock(&ctx->lock);
    *none = b && b->count == 0;
    if (*none) {
        free(b);
        b = NULL;
    }
    return b;
}

/* For work about to be queued rather than run at once: whether its caller waits for it. A
 * synchronous call does; work that depends on the caller's memory detaches from it now, and
 * where it cannot, its caller waits too. */
static bool waits_for(const struct target *t, struct work *w)
{
    return t->sync || (w->detach && !w->detach(w));
}

/* Queues legacy work w on the deferred queue d, behind the blocking streams' work queued before
 * it; a synchronous call waits for it. Out of memory for the barrier: waits for those streams
 * and for d here instead, then runs w in this thread (in order all the same). */
static void submit_deferred(struct target *t, struct stream *d, struct work *w)
{
    bool none;
    struct barrier_work *b = barrier_take(t->ctx, d, NULL, &none);
    if (!b && !none) {
        sync_streams(t->ctx, true); /* d included: it is a blocking stream of the context */
        if (w->queued)
            w->queued(w);
        w->run(w);
        return;
    }
    bool wait = waits_for(t, w);
    if (b)
        stream_enqueue(d, &b->w);
    uint64_t place = stream_enqueue(d, w);
    if (wait)
        stream_wait_until(d, place);
}

CUresult target_defer(struct target *t, struct work *w)
{
    if (t->sink || t->capture)
        return target_submit(t, w);
    if (!t->s && !t->legacy) { /* the per-thread default stream: its queue has no barriers */
        struct stream *d = ptds_deferred_get(t->ctx, true);
        if (d) {
            stream_enqueue(d, w);
            stream_release(d);
            return CUDA_SUCCESS;
        }
    }
    struct stream *d = t->legacy && !t->s ? deferred_get(t->ctx, true) : NULL;
    if (!d) /* a created stream, or no memory for the queue: as any other work */
        return target_submit(t, w);
    submit_deferred(t, d, w);
    stream_release(d);
    return CUDA_SUCCESS;
}

/* Legacy work while a blocking stream of the context captures (capture_hooks.legacy). */
static CUresult legacy_during_capture(struct target *t)
{
    const struct capture_hooks *h = capture_live_hooks();
    return h ? h->legacy(t) : CUDA_SUCCESS;
}

CUresult capture_check_legacy(struct target *t) { return legacy_during_capture(t); }

CUresult capture_check_target(struct target *t)
{
    const struct capture_hooks *h = atomic_load(&hooks);
    return h && t->capture ? h->refuse(t) : CUDA_SUCCESS;
}

CUresult target_submit(struct target *t, struct work *w)
{
    if (t->sink) {
        t->sink->take(t->sink, w);
        return CUDA_SUCCESS;
    }
    if (t->capture)
        return atomic_load(&hooks)->record(t, t->fn, w);
    if (t->legacy && !t->s) {
        CUresult r = legacy_during_capture(t);
        if (r) {
            if (w->discard)
                w->discard(w);
            return r;
        }
    }
    if (t->s) {
        /* A blocking stream's work comes after the legacy work queued before it. */
        struct stream *d = t->s->flags & CU_STREAM_NON_BLOCKING ? NULL : deferred_get(t->ctx, false);
        if (d && d != t->s) {
            bool none;
            struct barrier_work *b = barrier_take(t->ctx, NULL, d, &none);
            if (b)
                stream_enqueue(t->s, &b->w);
            else if (!none)
                stream_synchronize(d); /* no memory for the barrier: wait here */
        }
        if (d)
            stream_release(d);
        bool wait = waits_for(t, w) && !device_thread();
        uint64_t place = stream_enqueue(t->s, w);
        if (wait) /* a copy into pageable memory, or one that could not stage its source (copy.c) */
            stream_wait_until(t->s, place);
        return CUDA_SUCCESS;
    }
    if (t->legacy) {
        struct stream *d = deferred_get(t->ctx, false);
        if (d) {
            submit_deferred(t, d, w);
            stream_release(d);
            return CUDA_SUCCESS;
        }
        sync_streams(t->ctx, true);
    } else {
        struct stream *d = ptds_deferred_get(t->ctx, false);
        if (d) { /* this thread's per-thread stream has deferred work: after it */
            bool wait = waits_for(t, w);
            uint64_t place = stream_enqueue(d, w);
            if (wait)
                stream_wait_until(d, place);
            stream_release(d);
            return CUDA_SUCCESS;
        }
    }
    if (w->queued)
        w->queued(w);
    w->run(w);
    return CUDA_SUCCESS;
}

/* ---- Entry points ---- */

/* A new registered stream of ctx (taking the caller's reference to ctx whatever happens), not
 * yet on the context's list; NULL when out of memory. */
static struct stream *stream_new(struct ctx *ctx, unsigned int flags, int priority)
{
    if (!atomic_load(&spin_cores))
        atomic_store(&spin_cores, (int)os_cpu_count());
    struct stream *s = calloc(1, sizeof(*s));
    if (!s) {
        ctx_release(ctx);
        return NULL;
    }
    s->ctx = ctx; /* the stream keeps the reference */
    s->flags = flags;
    s->priority = priority;
    s->id = ctx_next_id();
    os_mutex_init(&s->lock);
    os_cond_init(&s->cond);
    device_track_stream(&s->device_node, &device_ops);
    if (!obj_register(&s->base, OBJ_STREAM, stream_free)) {
        stream_free(&s->base);
        return NULL;
    }
    return s;
}

static CUresult create(const char *fn, CUstream *phStream, unsigned int flags, int priority)
{
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    device_reap_workers(); /* join the workers of streams destroyed since */
    if (!phStream)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: phStream is NULL", fn);
    else if (flags & ~(unsigned int)CU_STREAM_NON_BLOCKING)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x: only CU_STREAM_NON_BLOCKING (0x1) is defined", fn, flags);
    if (r) {
        ctx_release(ctx);
        return r;
    }
    struct stream *s = stream_new(ctx, flags, priority); /* takes the reference to ctx */
    if (!s)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the stream", fn);
    os_mutex_lock(&ctx->lock);
    list_add(&ctx->streams, &s->ctx_node);
    ctx_add_teardown(ctx, &teardown_step);
    os_mutex_unlock(&ctx->lock);
    *phStream = (CUstream)(uintptr_t)s->base.handle;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    return create("cuStreamCreate", phStream, Flags, 0);
}

CUresult CUDAAPI cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    /* Clamped into the range cuCtxGetStreamPriorityRange answers, as the driver clamps (-100
     * becomes -5, 100 becomes 0: docs/probes/surface). */
    if (priority < CTX_PRIORITY_GREATEST)
        priority = CTX_PRIORITY_GREATEST;
    if (priority > CTX_PRIORITY_LEAST)
        priority = CTX_PRIORITY_LEAST;
    return create("cuStreamCreateWithPriority", phStream, flags, priority);
}

CUresult CUDAAPI cuStreamGetFlags(CUstream hStream, unsigned int *flags)
{
    struct target t;
    CUresult r = target_get("cuStreamGetFlags", hStream, &t);
    if (r)
        return r;
    if (!flags)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuStreamGetFlags: flags is NULL");
    else
        *flags = t.s ? t.s->flags : 0;
    target_put(&t);
    return r;
}

CUresult CUDAAPI cuStreamGetPriority(CUstream hStream, int *priority)
{
    struct target t;
    CUresult r = target_get("cuStreamGetPriority", hStream, &t);
    if (r)
        return r;
    if (!priority)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuStreamGetPriority: priority is NULL");
    else
        *priority = t.s ? t.s->priority : 0;
    target_put(&t);
    return r;
}

CUresult CUDAAPI cuStreamGetCtx(CUstream hStream, CUcontext *pctx)
{
    struct target t;
    CUresult r = target_get("cuStreamGetCtx", hStream, &t);
    if (r)
        return r;
    if (!pctx)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuStreamGetCtx: pctx is NULL");
    else
        *pctx = (CUcontext)(uintptr_t)t.ctx->base.handle;
    target_put(&t);
    return r;
}

CUresult CUDAAPI cuStreamGetCtx_v2(CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx)
{
    struct target t;
    CUresult r = target_get("cuStreamGetCtx_v2", hStream, &t);
    if (r)
        return r;
    if (!pCtx || !pGreenCtx) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuStreamGetCtx_v2: %s is NULL", !pCtx ? "pCtx" : "pGreenCtx");
    } else {
        *pCtx = (CUcontext)(uintptr_t)t.ctx->base.handle;
        *pGreenCtx = NULL; /* the software device has no green contexts */
    }
    target_put(&t);
    return r;
}

CUresult CUDAAPI cuStreamGetDevice(CUstream hStream, CUdevice *device)
{
    struct target t;
    CUresult r = target_get("cuStreamGetDevice", hStream, &t);
    if (r)
        return r;
    if (!device)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuStreamGetDevice: device is NULL");
    else
        *device = t.ctx->dev;
    target_put(&t);
    return r;
}

/* The per-thread stream's id in each context this thread used it in: given at the first ask,
 * kept while the thread lives (a few contexts; the oldest entry makes room). */
#define PTDS_IDS 8
static OS_THREAD_LOCAL struct {
    uint64_t ctx, id;
} ptds_ids[PTDS_IDS];
static OS_THREAD_LOCAL unsigned int ptds_ids_next;

static uint64_t ptds_id(const struct ctx *ctx)
{
    for (unsigned int i = 0; i < PTDS_IDS; ++i)
        if (ptds_ids[i].ctx == ctx->base.handle)
            return ptds_ids[i].id;
    unsigned int i = ptds_ids_next++ % PTDS_IDS;
    ptds_ids[i].ctx = ctx->base.handle;
    ptds_ids[i].id = ctx_next_id();
    return ptds_ids[i].id;
}

CUresult CUDAAPI cuStreamGetId(CUstream hStream, unsigned long long *streamId)
{
    struct target t;
    CUresult r = target_get("cuStreamGetId", hStream, &t);
    if (r)
        return r;
    if (!streamId)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuStreamGetId: streamId is NULL");
    else
        *streamId = t.s ? t.s->id : t.legacy ? t.ctx->legacy_stream_id : ptds_id(t.ctx);
    target_put(&t);
    return r;
}

CUresult CUDAAPI cuStreamDestroy(CUstream hStream)
{
    REQUIRE_INIT("cuStreamDestroy");
    if (!hStream || hStream == CU_STREAM_LEGACY || hStream == CU_STREAM_PER_THREAD)
        return fail(CUDA_ERROR_INVALID_HANDLE, "cuStreamDestroy: the default streams cannot be destroyed");
    struct stream *s;
    CUresult r = stream_lookup("cuStreamDestroy", hStream, &s);
    if (r)
        return r;
    struct ctx *ctx = s->ctx;
    os_mutex_lock(&ctx->lock);
    list_del(&s->ctx_node);
    os_mutex_unlock(&ctx->lock);
    /* Queued work still runs; the worker lets go of the stream when it has drained. */
    os_mutex_lock(&s->lock);
    s->destroyed = true;
    os_cond_broadcast(&s->cond);
    os_mutex_unlock(&s->lock);
    obj_unregister(&s->base);
    stream_release(s);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamSynchronize(CUstream hStream)
{
    struct target t;
    CUresult r = target_get("cuStreamSynchronize", hStream, &t);
    if (r)
        return r;
    r = t.s ? capture_check_unsafe("cuStreamSynchronize", t.s) : t.legacy ? capture_check_legacy(&t)
                                                                            : capture_check_target(&t);
    if (!r)
        r = device_wait_allowed("cuStreamSynchronize");
    if (!r && t.s) {
        stream_synchronize(t.s);
    } else if (!r && t.legacy) {
        sync_streams(t.ctx, true);
    } else if (!r) {
        struct stream *d = ptds_deferred_get(t.ctx, false); /* deferred per-thread work */
        if (d) {
            stream_synchronize(d);
            stream_release(d);
        }
    }
    if (!r)
        r = ctx_check_sticky("cuStreamSynchronize", t.ctx); /* a kernel waited for may have faulted */
    target_put(&t);
    if (!r)
        device_synced();
    return r;
}

CUresult CUDAAPI cuCtxSynchronize(void)
{
    struct ctx *ctx;
    CUresult r = ctx_current("cuCtxSynchronize", &ctx);
    if (r)
        return r;
    if (!(r = capture_check_unsafe("cuCtxSynchronize", CAPTURE_ANY)) && !(r = device_wait_allowed("cuCtxSynchronize"))) {
        sync_streams(ctx, false);
        r = ctx_check_sticky("cuCtxSynchronize", ctx); /* a kernel waited for may have faulted */
    }
    ctx_release(ctx);
    if (!r)
        device_synced();
    return r;
}

CUresult CUDAAPI cuCtxSynchronize_v2(CUcontext hCtx)
{
    REQUIRE_INIT("cuCtxSynchronize_v2");
    struct ctx *ctx;
    CUresult r = hCtx ? ctx_lookup("cuCtxSynchronize_v2", hCtx, &ctx) : ctx_current("cuCtxSynchronize_v2", &ctx);
    if (r)
        return r;
    if (!(r = device_wait_allowed("cuCtxSynchronize_v2"))) {
        sync_streams(ctx, false);
        r = ctx_check_sticky("cuCtxSynchronize_v2", ctx);
    }
    ctx_release(ctx);
    return r;
}

/* ---- Work done across a context's streams (cuCtxRecordEvent) ---- */
struct when_done {
    atomic_int left; /* the streams' pieces not yet run, plus the caller's share */
    void (*done)(void *arg);
    void *arg;
};

struct when_done_work {
    struct work w;
    struct when_done *wd;
};

static void when_done_drop(struct when_done *wd)
{
    if (atomic_fetch_sub(&wd->left, 1) == 1) {
        wd->done(wd->arg);
        free(wd);
    }
}

static void when_done_run(struct work *w)
{
    struct when_done *wd = ((struct when_done_work *)w)->wd;
    free(w);
    when_done_drop(wd);
}

void streams_when_done(struct ctx *ctx, void (*done)(void *arg), void *arg)
{
    struct stream *busy[64];
    size_t n = 0;
    bool more = false;
    os_mutex_lock(&ctx->lock);
    for (struct list_node *it = ctx->streams.next; it != &ctx->streams; it = it->next) {
        struct stream *s = list_entry(it, struct stream, ctx_node);
        if (atomic_load(&s->completed) >= atomic_load(&s->submitted))
            continue;
        if (n == 64) {
            more = true;
            break;
        }
        obj_retain(&s->base); /* a busy stream still has its worker's reference */
        busy[n++] = s;
    }
    os_mutex_unlock(&ctx->lock);
    struct when_done *wd = more ? NULL : calloc(1, sizeof(*wd));
    struct when_done_work *pieces[64];
    size_t made = 0;
    while (wd && made < n && (pieces[made] = calloc(1, sizeof(*pieces[0]))))
        made++;
    if (!wd || made < n) {
        /* Many busy streams, or out of memory: wait here, then it is done. */
        for (size_t i = 0; i < made; ++i)
            free(pieces[i]);
        free(wd);
        for (size_t i = 0; i < n; ++i)
            stream_release(busy[i]);
        sync_streams(ctx, false);
        done(arg);
        return;
    }
    wd->done = done;
    wd->arg = arg;
    atomic_init(&wd->left, (int)n + 1);
    /* Each piece joins its stream behind what is queued there now (or later work, which is
     * later than needed but never wrong), and the last to run calls done. */
    for (size_t i = 0; i < n; ++i) {
        pieces[i]->w.run = when_done_run;
        pieces[i]->wd = wd;
        stream_enqueue(busy[i], &pieces[i]->w);
        stream_release(busy[i]);
    }
    when_done_drop(wd);
}

CUresult CUDAAPI cuStreamQuery(CUstream hStream)
{
    struct target t;
    CUresult r = target_get("cuStreamQuery", hStream, &t);
    if (r)
        return r;
    r = t.s ? capture_check_unsafe("cuStreamQuery", t.s) : t.legacy ? capture_check_legacy(&t)
                                                                      : capture_check_target(&t);
    if (r) {
        target_put(&t);
        return r;
    }
    bool idle = true;
    if (t.s) {
        os_mutex_lock(&t.s->lock);
        idle = t.s->completed == t.s->submitted;
        os_mutex_unlock(&t.s->lock);
    } else if (t.legacy) {
        idle = !stream_legacy_busy(t.ctx); /* deferred legacy work (target_defer) */
    } else {
        struct stream *d = ptds_deferred_get(t.ctx, false);
        idle = !d;
        if (d)
            stream_release(d);
    }
    /* Otherwise the default streams' work is done when their call returns. */
    target_put(&t);
    return idle ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

struct host_fn_work {
    struct work w;
    CUhostFn fn;
    void *data;
};

static void run_host_fn(struct work *w)
{
    struct host_fn_work *h = (struct host_fn_work *)w;
    h->fn(h->data);
    free(h);
}

static void discard_host_fn(struct work *w) { free(w); }

static CUresult describe_host_fn(struct work *w, CUgraphNodeParams *p)
{
    struct host_fn_work *h = (struct host_fn_work *)w;
    p->type = CU_GRAPH_NODE_TYPE_HOST;
    p->host.fn = h->fn;
    p->host.userData = h->data;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
    struct target t;
    CUresult r = target_get("cuLaunchHostFunc", hStream, &t);
    if (r)
        return r;
    struct host_fn_work *h = NULL;
    if (!fn)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuLaunchHostFunc: fn is NULL");
    else if (!(h = calloc(1, sizeof(*h))))
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "cuLaunchHostFunc: out of host memory");
    if (!r) {
        h->w.run = run_host_fn;
        h->w.discard = discard_host_fn;
        h->w.describe = describe_host_fn;
        h->fn = fn;
        h->data = userData;
        r = target_submit(&t, &h->w);
    }
    target_put(&t);
    return r;
}

#undef cuStreamDestroy
EXTMEM_API CUresult CUDAAPI cuStreamDestroy(CUstream hStream);
CUresult CUDAAPI cuStreamDestroy(CUstream hStream) { return cuStreamDestroy_v2(hStream); }

/* ---- Per-thread default stream variants (per_thread.h) ---- */
CUresult CUDAAPI cuStreamGetPriority_ptsz(CUstream s, int *priority) { return cuStreamGetPriority(per_thread(s), priority); }
CUresult CUDAAPI cuStreamGetFlags_ptsz(CUstream s, unsigned int *flags) { return cuStreamGetFlags(per_thread(s), flags); }
CUresult CUDAAPI cuStreamGetCtx_ptsz(CUstream s, CUcontext *pctx) { return cuStreamGetCtx(per_thread(s), pctx); }
CUresult CUDAAPI cuStreamGetCtx_v2_ptsz(CUstream s, CUcontext *pCtx, CUgreenCtx *pGreenCtx)
{
    return cuStreamGetCtx_v2(per_thread(s), pCtx, pGreenCtx);
}
CUresult CUDAAPI cuStreamGetId_ptsz(CUstream s, unsigned long long *id) { return cuStreamGetId(per_thread(s), id); }
CUresult CUDAAPI cuStreamGetDevice_ptsz(CUstream s, CUdevice *device) { return cuStreamGetDevice(per_thread(s), device); }
CUresult CUDAAPI cuStreamQuery_ptsz(CUstream s) { return cuStreamQuery(per_thread(s)); }
CUresult CUDAAPI cuStreamSynchronize_ptsz(CUstream s) { return cuStreamSynchronize(per_thread(s)); }
CUresult CUDAAPI cuLaunchHostFunc_ptsz(CUstream s, CUhostFn fn, void *userData)
{
    return cuLaunchHostFunc(per_thread(s), fn, userData);
}
