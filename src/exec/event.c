/*
 * Events. Each record gets a sequence number; the event is complete when the work queued
 * before its latest record has run. A wait captures the latest record at the time of the
 * call, as CUDA specifies, so waiting never depends on records made later. Waiters sleep on a
 * word of the state (a futex on Linux), which also works across processes.
 *
 * A record of an interprocess event made by another process completes only if that process
 * lives to run the work before it. A peer's death must never hang the survivor, so the shared
 * page lists which processes may have records outstanding (struct event_page), and a waiter
 * wakes every RECORDER_CHECK_MS to look: a record whose recorder has died is abandoned, that
 * is, counted as complete, with a warning naming the process (docs/ipc.md).
 */
#include "exec/exec.h"
#include "exec/per_thread.h"

#include <stdlib.h>
#include <string.h>

static void event_free(struct obj *o)
{
    struct event *e = (struct event *)o;
    if (e->shared) {
        os_waker_close(&e->waker);
        os_memory_unmap(e->state, e->shm.size);
        os_memory_close(&e->shm);
    }
    ctx_release(e->ctx);
    free(e);
}

CUresult event_lookup(const char *fn, CUevent handle, struct event **out)
{
    struct obj *o;
    obj_status st = obj_lookup((uint64_t)(uintptr_t)handle, OBJ_EVENT, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: %s", fn, obj_status_text(st, OBJ_EVENT, (uint64_t)(uintptr_t)handle));
    *out = (struct event *)o;
    return CUDA_SUCCESS;
}

void event_release(struct event *e) { obj_release(&e->base); }

/* The context's teardown step (device.h: events after streams): the handles of its events die. */
static void event_destroy_all(struct ctx *ctx)
{
    for (;;) {
        os_mutex_lock(&ctx->lock);
        struct event *e = list_empty(&ctx->events) ? NULL : list_entry(ctx->events.next, struct event, ctx_node);
        if (e)
            list_del(&e->ctx_node);
        os_mutex_unlock(&ctx->lock);
        if (!e)
            return;
        obj_unregister(&e->base);
    }
}

static const struct ctx_step teardown_step = {CTX_STEP_EVENTS, event_destroy_all};

/* How often a waiter on an interprocess event looks for recorders that died: the longest a
 * survivor waits for a dead peer's record beyond the death itself. */
#define RECORDER_CHECK_MS 50

static bool abandon_dead_recorders(struct event *e);

static void wait_for(struct event *e, uint64_t seq)
{
    struct event_state *st = e->state;
    uint64_t checked = 0;
    while (atomic_load(&st->completed) < seq) {
        uint32_t word = atomic_load(&st->wake);
        if (atomic_load(&st->completed) >= seq)
            break;
        if (!e->shared) {
            os_wait_on(&st->wake, word);
            continue;
        }
        /* Nobody wakes us for a recorder that died: look at once, then now and then. */
        uint64_t now = os_time_ns();
        if (now - checked >= RECORDER_CHECK_MS * 1000000ull) {
            checked = now;
            if (abandon_dead_recorders(e))
                continue;
        }
        os_wait_shared(&e->waker, (uint32_t *)&st->wake, word, (uint32_t *)&st->sleepers, RECORDER_CHECK_MS);
    }
}

static void complete(struct event *e, uint64_t seq)
{
    struct event_state *st = e->state;
    uint64_t now = os_time_ns(), done = atomic_load(&st->completed);
    while (done < seq && !atomic_compare_exchange_weak(&st->completed, &done, seq))
        ;
    if (done < seq)
        atomic_store(&st->time_ns, now);
    atomic_fetch_add(&st->wake, 1);
    if (e->shared)
        os_wake_shared(&e->waker, (uint32_t *)&st->wake, (uint32_t *)&st->sleepers);
    else
        os_wake_all(&st->wake);
}

/* ---- Recorders of interprocess events (struct event_page) ---- */

/* A process as a slot's owner: its pid and a hash of its start time, in one word that one
 * compare-and-swap claims. A reused pid has another start time, so it is another owner. */
static uint64_t owner_of(int pid, uint64_t start)
{
    return (uint64_t)(uint32_t)pid << 32 | (uint32_t)(start ^ start >> 32);
}

static uint64_t self_owner(void) { return owner_of(os_process_id(), lib_start_time()); }

static bool owner_alive(uint64_t owner)
{
    int pid = (int)(owner >> 32);
    uint64_t start = os_process_start_time(pid); /* 0 for an exited process, zombies included */
    return start && owner_of(pid, start) == owner;
}

/* An interprocess event's table of recorders: its state is the start of its shared page. */
static struct event_recorder *recorders_of(struct event *e)
{
    return ((struct event_page *)(void *)e->state)->recorders;
}

static void raise_to(_Atomic uint64_t *v, uint64_t to)
{
    uint64_t was = atomic_load(v);
    while (was < to && !atomic_compare_exchange_weak(v, &was, to))
        ;
}

/* Counts as complete the records of processes that died before completing them. Returns
 * true when it completed any. */
static bool abandon_dead_recorders(struct event *e)
{
    uint64_t self = self_owner();
    struct event_recorder *recorders = recorders_of(e);
    bool any = false;
    for (int i = 0; i < EVENT_RECORDERS; ++i) {
        struct event_recorder *rec = &recorders[i];
        uint64_t owner = atomic_load(&rec->owner);
        if (!owner || owner == self)
            continue;
        uint64_t pending = atomic_load(&rec->pending);
        if (pending <= atomic_load(&e->state->completed) || owner_alive(owner))
            continue;
        /* `pending` was the dead owner's if the slot still is: a new owner takes a slot only
         * from a dead one with nothing pending (or a free one), and raises pending after. */
        if (atomic_load(&rec->owner) != owner)
            continue;
        complete(e, pending);
        any = true;
        /* The slot is free again; of several waiters that saw the death, one reports it. */
        if (atomic_compare_exchange_strong(&rec->owner, &owner, 0))
            log_warn("interprocess event: process %u exited with a record of the event unfinished: the record is "
                     "abandoned and counts as complete", (unsigned)(owner >> 32));
    }
    return any;
}

/* This process's slot in the page: the one it holds already (it may have the event open
 * twice), a free one, or one whose owner died with nothing pending; NULL when all 64 belong to
 * live processes, and then this process's records are not watched. */
static struct event_recorder *claim_recorder(struct event *e)
{
    uint64_t self = self_owner();
    struct event_recorder *recorders = recorders_of(e);
    for (int i = 0; i < EVENT_RECORDERS; ++i)
        if (atomic_load(&recorders[i].owner) == self)
            return &recorders[i];
    for (int i = 0; i < EVENT_RECORDERS; ++i) {
        uint64_t owner = 0;
        if (atomic_compare_exchange_strong(&recorders[i].owner, &owner, self))
            return &recorders[i];
    }
    abandon_dead_recorders(e); /* records of the dead first, so their slots count as empty */
    for (int i = 0; i < EVENT_RECORDERS; ++i) {
        struct event_recorder *rec = &recorders[i];
        uint64_t owner = atomic_load(&rec->owner);
        if ((!owner || (atomic_load(&rec->pending) <= atomic_load(&e->state->completed) && !owner_alive(owner))) &&
            atomic_compare_exchange_strong(&rec->owner, &owner, self))
            return rec;
    }
    log_warn("interprocess event: %d live processes have it open already: if this one (%d) dies with a record "
             "unfinished, waiters elsewhere wait for it", EVENT_RECORDERS, os_process_id());
    return NULL;
}

/* The next sequence number of a record of e. An interprocess event's slot says "this process
 * may have taken up to pending" before the number is taken, so a death at any point leaves no
 * number that nobody answers for. (A death between the two steps leaves pending one ahead of
 * what this process took: a live process's next record may then count as complete early,
 * docs/ipc.md.) */
static uint64_t take_seq(struct event *e)
{
    struct event_state *st = e->state;
    if (!e->mine)
        return atomic_fetch_add(&st->recorded, 1) + 1;
    uint64_t seq = atomic_load(&st->recorded);
    do
        raise_to(&e->mine->pending, seq + 1);
    while (!atomic_compare_exchange_weak(&st->recorded, &seq, seq + 1));
    return seq + 1;
}

CUresult event_create(const char *fn, struct ctx *ctx, unsigned int flags, os_memory *shm, void *page,
                      struct event **out)
{
    struct event *e = calloc(1, sizeof(*e));
    if (!e) {
        if (shm) {
            os_memory_unmap(page, shm->size);
            os_memory_close(shm);
        }
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the event", fn);
    }
    obj_retain(&ctx->base);
    e->ctx = ctx;
    e->flags = flags;
    e->state = &e->local;
    if (shm) {
        e->shared = true;
        e->shm = *shm;
        e->state = page;
        int err = os_waker_open(shm, &e->waker);
        if (err) {
            char text[128];
            os_memory_unmap(page, shm->size);
            os_memory_close(shm);
            ctx_release(ctx);
            free(e);
            return fail(CUDA_ERROR_OPERATING_SYSTEM, "%s: the interprocess event's waker failed: %s", fn,
                        os_error_string(err, text, sizeof(text)));
        }
    }
    if (e->shared)
        e->mine = claim_recorder(e);
    if (!obj_register(&e->base, OBJ_EVENT, event_free)) {
        event_free(&e->base);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the handle table", fn);
    }
    os_mutex_lock(&ctx->lock);
    list_add(&ctx->events, &e->ctx_node);
    ctx_add_teardown(ctx, &teardown_step);
    os_mutex_unlock(&ctx->lock);
    *out = e;
    return CUDA_SUCCESS;
}

/* Creates the shared page of an interprocess event: a memfd named with a fresh nonce. */
static CUresult create_shared_page(const char *fn, os_memory *shm, void **page, uint8_t nonce[16])
{
    char name[64];
    if (os_random_bytes(nonce, 16))
        return fail(CUDA_ERROR_OPERATING_SYSTEM, "%s: no random bytes for the event's identity", fn);
    obj_nonce_name("extmem-event-", nonce, name);
    int err = os_memory_create(shm, os_page_size(), name, NULL);
    if (!err && (err = os_memory_map(shm, 0, shm->size, page)))
        os_memory_close(shm);
    if (err) {
        char text[128];
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: creating the interprocess event's shared page failed: %s", fn,
                    os_error_string(err, text, sizeof(text)));
    }
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    static const char fn[] = "cuEventCreate";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    const unsigned int known = CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;
    if (!phEvent)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: phEvent is NULL", fn);
    else if (Flags & ~known)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: Flags 0x%x has bits other than CU_EVENT_*", fn, Flags);
    else if ((Flags & CU_EVENT_INTERPROCESS) && !(Flags & CU_EVENT_DISABLE_TIMING))
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: CU_EVENT_INTERPROCESS needs CU_EVENT_DISABLE_TIMING as well", fn);
    struct event *e = NULL;
    if (!r && (Flags & CU_EVENT_INTERPROCESS)) {
        os_memory shm;
        void *page;
        uint8_t nonce[16];
        if (!(r = create_shared_page(fn, &shm, &page, nonce)) && !(r = event_create(fn, ctx, Flags, &shm, page, &e)))
            memcpy(e->nonce, nonce, 16);
    } else if (!r) {
        r = event_create(fn, ctx, Flags, NULL, NULL, &e);
    }
    if (!r)
        *phEvent = (CUevent)(uintptr_t)e->base.handle;
    ctx_release(ctx);
    return r;
}

struct record_work {
    struct work w;
    struct event *e; /* a reference */
    uint64_t seq;
};

/* The record's sequence number is taken where it joins its stream's order, under the lock
 * that orders the queue (DESIGN.md §6): a wait on another thread then captures either a
 * record that is already queued, or the one before it, never one queued behind the wait
 * itself or behind work waiting for that wait, which would deadlock. */
static void record_queued(struct work *w)
{
    struct record_work *rw = (struct record_work *)w;
    rw->seq = take_seq(rw->e);
}

static void discard_record(struct work *w)
{
    struct record_work *rw = (struct record_work *)w;
    event_release(rw->e);
    free(rw);
}

static void run_record(struct work *w)
{
    struct record_work *rw = (struct record_work *)w;
    complete(rw->e, rw->seq);
    discard_record(w);
}

static CUresult record(const char *fn, CUevent hEvent, CUstream hStream, unsigned int flags)
{
    struct target t;
    CUresult r = target_get(fn, hStream, &t);
    if (r)
        return r;
    struct event *e = NULL;
    struct record_work *rw = NULL;
    if (flags & ~1u) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x: only CU_EVENT_RECORD_EXTERNAL (0x1) is defined", fn, flags);
        goto out;
    }
    if ((r = event_lookup(fn, hEvent, &e)))
        goto out;
    if (e->ctx != t.ctx) {
        r = fail(CUDA_ERROR_INVALID_HANDLE, "%s: event 0x%llx belongs to another context than the stream", fn,
                 (unsigned long long)(uintptr_t)hEvent);
        goto out;
    }
    if (t.capture) { /* the event stands for the capture's work so far (src/graph) */
        r = capture_get_hooks()->record_event(&t, fn, e, flags);
        goto out;
    }
    /* Outside a capture CU_EVENT_RECORD_EXTERNAL is an ordinary record (the driver answers success). */
    if (capture_live_hooks() && !t.sink)
        capture_live_hooks()->event_recorded(e);
    if (!(rw = calloc(1, sizeof(*rw)))) {
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
        goto out;
    }
    rw->w.queued = record_queued;
    rw->w.run = run_record;
    rw->w.discard = discard_record;
    rw->e = e;
    e = NULL; /* the work holds the reference now */
    r = target_submit(&t, &rw->w);
out:
    if (e)
        event_release(e);
    target_put(&t);
    return r;
}

CUresult CUDAAPI cuEventRecord(CUevent hEvent, CUstream hStream) { return record("cuEventRecord", hEvent, hStream, 0); }

CUresult CUDAAPI cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    return record("cuEventRecordWithFlags", hEvent, hStream, flags);
}

CUresult CUDAAPI cuEventQuery(CUevent hEvent)
{
    REQUIRE_INIT("cuEventQuery");
    struct event *e;
    CUresult r = event_lookup("cuEventQuery", hEvent, &e);
    if (r)
        return r;
    const struct capture_hooks *h = capture_live_hooks();
    if (h && (r = h->event_use("cuEventQuery", e, 0))) {
        event_release(e);
        return r;
    }
    bool done = atomic_load(&e->state->completed) >= atomic_load(&e->state->recorded);
    /* A record another process left by dying counts as complete from the first query on. */
    if (!done && e->shared && abandon_dead_recorders(e))
        done = atomic_load(&e->state->completed) >= atomic_load(&e->state->recorded);
    event_release(e);
    return done ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

CUresult CUDAAPI cuEventSynchronize(CUevent hEvent)
{
    REQUIRE_INIT("cuEventSynchronize");
    struct event *e;
    CUresult r = event_lookup("cuEventSynchronize", hEvent, &e);
    if (r)
        return r;
    const struct capture_hooks *h = capture_live_hooks();
    if (h && (r = h->event_use("cuEventSynchronize", e, 0))) {
        event_release(e);
        return r;
    }
    wait_for(e, atomic_load(&e->state->recorded));
    event_release(e);
    /* A kernel the event waited for may have faulted: its context's error is sticky. */
    r = ctx_current_sticky("cuEventSynchronize");
    if (!r)
        device_synced();
    return r;
}

static CUresult elapsed(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    static const char fn[] = "cuEventElapsedTime";
    REQUIRE_INIT(fn);
    if (!pMilliseconds) /* the driver's code for this case */
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: pMilliseconds is NULL", fn);
    struct event *ev[2] = {NULL, NULL};
    CUresult r = event_lookup(fn, hStart, &ev[0]);
    if (!r)
        r = event_lookup(fn, hEnd, &ev[1]);
    const struct capture_hooks *h = capture_live_hooks();
    for (int i = 0; i < 2 && !r && h; ++i)
        r = h->event_use(fn, ev[i], 1);
    uint64_t t[2] = {0, 0};
    for (int i = 0; i < 2 && !r; ++i) {
        const char *which = i ? "hEnd" : "hStart";
        struct event_state *st = ev[i]->state;
        uint64_t recorded = atomic_load(&st->recorded), completed = atomic_load(&st->completed);
        t[i] = atomic_load(&st->time_ns);
        if (ev[i]->flags & CU_EVENT_DISABLE_TIMING)
            r = fail(CUDA_ERROR_INVALID_HANDLE, "%s: %s was created with CU_EVENT_DISABLE_TIMING", fn, which);
        else if (recorded == 0)
            r = fail(CUDA_ERROR_INVALID_HANDLE, "%s: %s has never been recorded", fn, which);
        else if (completed < recorded)
            r = fail(CUDA_ERROR_NOT_READY, "%s: %s has not completed yet", fn, which);
    }
    if (!r)
        *pMilliseconds = (float)((double)((int64_t)(t[1] - t[0])) / 1e6);
    for (int i = 0; i < 2; ++i)
        if (ev[i])
            event_release(ev[i]);
    return r;
}

CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    return elapsed(pMilliseconds, hStart, hEnd);
}

CUresult CUDAAPI cuEventDestroy(CUevent hEvent)
{
    REQUIRE_INIT("cuEventDestroy");
    struct event *e;
    CUresult r = event_lookup("cuEventDestroy", hEvent, &e);
    if (r)
        return r;
    os_mutex_lock(&e->ctx->lock);
    list_del(&e->ctx_node);
    os_mutex_unlock(&e->ctx->lock);
    /* Pending records and waits hold references: they complete normally. */
    obj_unregister(&e->base);
    event_release(e);
    return CUDA_SUCCESS;
}

struct wait_work {
    struct work w;
    struct event *e; /* a reference */
    uint64_t seq;
};

static void discard_wait(struct work *w)
{
    struct wait_work *ww = (struct wait_work *)w;
    event_release(ww->e);
    free(ww);
}

static void run_wait(struct work *w)
{
    struct wait_work *ww = (struct wait_work *)w;
    wait_for(ww->e, ww->seq);
    discard_wait(w);
}

CUresult CUDAAPI cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    struct target t;
    CUresult r = target_get("cuStreamWaitEvent", hStream, &t);
    if (r)
        return r;
    struct event *e = NULL;
    bool handled = false;
    if (Flags & ~(unsigned int)CU_EVENT_WAIT_EXTERNAL) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuStreamWaitEvent: Flags 0x%x: only CU_EVENT_WAIT_EXTERNAL (0x1) is defined",
                 Flags);
    } else if ((r = event_lookup("cuStreamWaitEvent", hEvent, &e))) {
        /* recorded */
    } else if (!t.sink && capture_live_hooks() &&
               ((r = capture_live_hooks()->wait_event(&t, "cuStreamWaitEvent", e, Flags, &handled)) || handled)) {
        /* a fork or join of a capture, or a wait recorded into one (src/graph) */
    } else if (Flags & CU_EVENT_WAIT_EXTERNAL) {
        r = fail(CUDA_ERROR_ILLEGAL_STATE, "cuStreamWaitEvent: CU_EVENT_WAIT_EXTERNAL is for a stream that is "
                 "capturing a graph, and stream 0x%llx is not", (unsigned long long)(uintptr_t)hStream);
    } else {
        uint64_t seq = atomic_load(&e->state->recorded);
        bool done = atomic_load(&e->state->completed) >= seq;
        struct wait_work *ww = done ? NULL : calloc(1, sizeof(*ww));
        if (!done && !ww) {
            r = fail(CUDA_ERROR_OUT_OF_MEMORY, "cuStreamWaitEvent: out of host memory");
        } else if (ww) {
            ww->w.run = run_wait;
            ww->w.discard = discard_wait;
            ww->e = e;
            ww->seq = seq;
            e = NULL;
            r = target_submit(&t, &ww->w);
        }
    }
    if (e)
        event_release(e);
    target_put(&t);
    return r;
}

/* ---- Events across a whole context ---- */

struct ctx_record {
    struct event *e; /* a reference */
    uint64_t seq;
};

static void ctx_record_done(void *arg)
{
    struct ctx_record *cr = arg;
    complete(cr->e, cr->seq);
    event_release(cr->e);
    free(cr);
}

/* The context and the event of cuCtxRecordEvent / cuCtxWaitEvent, with references. */
static CUresult ctx_event(const char *fn, CUcontext hCtx, CUevent hEvent, struct ctx **ctx, struct event **e)
{
    REQUIRE_INIT(fn);
    if (!hCtx) /* the driver's answer (docs/probes/surface): the context is not optional */
        return fail(CUDA_ERROR_INVALID_CONTEXT, "%s: hCtx is NULL", fn);
    CUresult r = ctx_lookup(fn, hCtx, ctx);
    if (r)
        return r;
    if ((r = ctx_check_sticky(fn, *ctx)) || (r = event_lookup(fn, hEvent, e))) {
        ctx_release(*ctx);
        return r;
    }
    if ((*e)->ctx != *ctx) {
        event_release(*e);
        ctx_release(*ctx);
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: event 0x%llx belongs to another context", fn,
                    (unsigned long long)(uintptr_t)hEvent);
    }
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxRecordEvent(CUcontext hCtx, CUevent hEvent)
{
    const char *fn = "cuCtxRecordEvent";
    struct ctx *ctx;
    struct event *e;
    CUresult r = ctx_event(fn, hCtx, hEvent, &ctx, &e);
    if (r)
        return r;
    struct ctx_record *cr = calloc(1, sizeof(*cr));
    if (!cr) {
        event_release(e);
        ctx_release(ctx);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    /* The record completes once every stream of the context has run what is queued on it now
     * (the legacy stream's work runs in its callers, so what it queued has run, but for its
     * deferred queue, which is one of the context's streams). */
    device_submit_begin();
    cr->e = e;
    cr->seq = take_seq(e);
    streams_when_done(ctx, ctx_record_done, cr);
    device_submit_end();
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxWaitEvent(CUcontext hCtx, CUevent hEvent)
{
    const char *fn = "cuCtxWaitEvent";
    struct ctx *ctx;
    struct event *e;
    CUresult r = ctx_event(fn, hCtx, hEvent, &ctx, &e);
    if (r)
        return r;
    /* All later work of the context must wait for the event. The software device makes the
     * call itself wait: every later submission then follows it, in every stream, the ones not
     * yet created included (the driver returns at once; this order is stronger). */
    uint64_t seq = atomic_load(&e->state->recorded);
    if (atomic_load(&e->state->completed) < seq && !(r = device_wait_allowed(fn)))
        wait_for(e, seq);
    event_release(e);
    ctx_release(ctx);
    return r;
}

#undef cuEventDestroy
#undef cuEventElapsedTime
EXTMEM_API CUresult CUDAAPI cuEventDestroy(CUevent hEvent);
EXTMEM_API CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);
CUresult CUDAAPI cuEventDestroy(CUevent hEvent) { return cuEventDestroy_v2(hEvent); }
CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    return elapsed(pMilliseconds, hStart, hEnd);
}

/* ---- Per-thread default stream variants (per_thread.h) ---- */
CUresult CUDAAPI cuEventRecord_ptsz(CUevent e, CUstream s) { return record("cuEventRecord", e, per_thread(s), 0); }
CUresult CUDAAPI cuEventRecordWithFlags_ptsz(CUevent e, CUstream s, unsigned int flags)
{
    return record("cuEventRecordWithFlags", e, per_thread(s), flags);
}
CUresult CUDAAPI cuStreamWaitEvent_ptsz(CUstream s, CUevent e, unsigned int Flags)
{
    return cuStreamWaitEvent(per_thread(s), e, Flags);
}
