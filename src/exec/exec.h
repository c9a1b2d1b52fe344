/*
 * src/exec/exec.h: execution as the rest of the core sees it: streams and the work queued on
 * them (stream.c), events (event.c) and launches of C kernels (launch.c). The state of an
 * event is a few counters that can live in memory shared with other processes, so an
 * interprocess event recorded in one process is waited on in another (src/interop/ipc.c).
 * The per-thread default stream's entry points are declared in per_thread.h.
 */
#ifndef EXTMEM_EXEC_EXEC_H
#define EXTMEM_EXEC_EXEC_H

#include "device/device.h"

/* ---- Streams and work (stream.c) ---- */
struct work {
    struct work *next;
    void (*run)(struct work *w);
    void (*discard)(struct work *w); /* optional: frees what run would have freed */
    /* Optional: called when w takes its place in its stream's order, under the lock that
     * orders the queue (an event record takes its sequence number there, DESIGN.md §6). */
    void (*queued)(struct work *w);
    /* Optional: called in the submitting thread when w is queued rather than run at once, before
     * it can run: w stops depending on the caller's memory (a copy stages a pageable source).
     * False: it could not, and the call waits for w instead. */
    bool (*detach)(struct work *w);
    /* Optional: what node of a graph w becomes when its stream is capturing (src/graph): fills
     * p, whose pointers stay valid until w is discarded. Work without it cannot be captured. */
    CUresult (*describe)(struct work *w, CUgraphNodeParams *p);
    bool borrowed; /* its memory is a sink's (work_sink.alloc): run and discard do not free it */
};

struct stream {
    struct obj base;
    struct ctx *ctx; /* a reference */
    unsigned int flags;
    int priority;
    uint64_t id; /* cuStreamGetId (ctx_next_id) */
    os_mutex lock;
    os_cond cond;
    struct work *head, *tail;
    /* The work the worker runs now, NULL between runs. Its run frees it; this keeps it named by
     * the stream while it runs, so a fork child (which has no worker) and leak checkers still
     * find it reachable. Never dereferenced. */
    struct work *current;
    /* Written under lock; also read without it by waiters that spin (stream_wait_until). */
    _Atomic uint64_t submitted, completed;
    bool running;     /* a worker thread is attached */
    bool destroyed;   /* cuStreamDestroy was called: the worker exits when drained */
    os_thread thread; /* the worker, while running */
    struct list_node ctx_node;
    struct list_node device_node; /* every stream of the device (drain.c) */
    /* cuStreamSetAttribute's values, under lock (stream_attr.c); the priority is `priority`. */
    CUaccessPolicyWindow access_policy;
    CUsynchronizationPolicy sync_policy; /* 0 until set: read as CU_SYNC_POLICY_AUTO */
    CUlaunchMemSyncDomainMap mem_sync_domain_map;
    CUlaunchMemSyncDomain mem_sync_domain;
    /* The capture this stream records into (src/graph), under capture_lock; NULL when none. */
    struct capture *capture;
};

/* Where work goes: a stream's queue, or (s NULL) the calling thread. Work for the legacy
 * default stream runs in the caller once the context's blocking streams have drained, which
 * orders it after all earlier work and before all later work; work for the per-thread
 * default stream runs in the caller at once. */
struct target {
    const char *fn;    /* the call, for reasons */
    struct ctx *ctx;   /* a reference */
    struct stream *s;  /* a reference, or NULL */
    bool legacy;
    bool sync;         /* the call returns only once its work has run (cuMemcpy, not ...Async) */
    struct capture *capture;  /* the stream is capturing: work is recorded, not run (a reference) */
    struct work_sink *sink;   /* a graph's launch collects the work (target_sink_begin) */
};
/* Resolves the current context and a stream argument. On success release with target_put. */
CUresult target_get(const char *fn, CUstream handle, struct target *t);
void target_put(struct target *t);
/* Queues w (ownership passes), or runs it now; see struct target. While the legacy stream has
 * deferred work (target_defer), its work is queued behind it instead, and a `sync` caller waits
 * for its piece. A capturing target records w into its capture instead, and a collecting one
 * hands w to its sink; the result is then that of the recording (the capture's rules). */
CUresult target_submit(struct target *t, struct work *w);
/* Queues w, work for the legacy default stream that must not run in the calling thread (a
 * semaphore wait that may not pass for a long time), on the context's queue for deferred legacy
 * work; until that queue drains, the legacy stream's later work follows it there, and work for
 * blocking streams waits for what was queued there before it (stream.c). */
CUresult target_defer(struct target *t, struct work *w);

/* ---- Graphs: what stream work looks like to src/graph (docs/graphs.md) ----
 * A graph's launch makes its nodes' work with the same calls a program makes (cuLaunchKernel,
 * cuMemcpy3DAsync ...), in the launching thread, with a sink set: while it is, target_get gives
 * a target that hands each piece of work to the sink (in the sink's context) instead of a stream,
 * and the graph runs the pieces as one piece of stream work of its own. */
struct work_sink {
    void (*take)(struct work_sink *sink, struct work *w);
    struct ctx *ctx; /* the context the work is made in */
    /* Optional: zeroed memory for a piece of work, the sink's owner's until the work has run or
     * been discarded (a graph's launch keeps it for the next launch); NULL when there is none.
     * Work made in it frees nothing of its own memory (struct work.borrowed). */
    void *(*alloc)(struct work_sink *sink, size_t size);
};
void target_sink_begin(struct work_sink *sink);
void target_sink_end(void);

/* Stream capture: a stream (or this thread's per-thread stream) capturing has a `struct capture`
 * of src/graph's, which exec knows only through these hooks (set once by src/graph, which is
 * above exec: layout.md). Every capture is under capture_lock. */
struct capture;
struct event;
struct capture_hooks {
    /* w was submitted to t, which is capturing: record it as a node (taking w whatever happens). */
    CUresult (*record)(struct target *t, const char *fn, struct work *w);
    /* The same for a node described by its parameters (target_capture_params); what the node
     * gives back (a memory allocation's address) is written into p. */
    CUresult (*add)(struct target *t, const char *fn, CUgraphNodeParams *p);
    /* A stream whose capture is t->capture: waits (cuStreamWaitEvent) for event e, or joins the
     * capture e was recorded in; *handled false: e is no event of a capture and s is not
     * capturing, so the wait is ordinary stream work. */
    CUresult (*wait_event)(struct target *t, const char *fn, struct event *e, unsigned int flags, bool *handled);
    /* cuEventRecord(e) on a capturing t: e now stands for the capture's current dependencies. */
    CUresult (*record_event)(struct target *t, const char *fn, struct event *e, unsigned int flags);
    /* A call that is not allowed while this thread (or, in global mode, any thread) captures:
     * CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, and the capture it broke is invalidated. */
    CUresult (*unsafe)(const char *fn, struct stream *s);
    /* Work for the legacy stream (t) while a blocking stream of its context captures: the
     * driver refuses it (CUDA_ERROR_STREAM_CAPTURE_IMPLICIT) and invalidates those captures. */
    CUresult (*legacy)(struct target *t);
    /* A synchronisation or query of t's stream, which is capturing: refused, and invalidates. */
    CUresult (*refuse)(struct target *t);
    /* cuEventQuery, cuEventSynchronize (use 0, which captures forbid as they forbid waits) and
     * cuEventElapsedTime (use 1) of e: refused while e stands for a capture's work, or for the
     * work of a capture that ended (until a record outside captures). */
    CUresult (*event_use)(const char *fn, struct event *e, int use);
    /* e was recorded outside any capture: it stands for no capture's work any more. */
    void (*event_recorded)(struct event *e);
    void (*retain)(struct capture *c);
    void (*release)(struct capture *c);
};
/* Records the node p describes (its pointers valid for the call) into t's capture: for work
 * that is recorded from its arguments rather than made first (external semaphores, whose
 * signal is owed from the moment it is queued). */
CUresult target_capture_params(struct target *t, CUgraphNodeParams *p);
void capture_set_hooks(const struct capture_hooks *hooks);
const struct capture_hooks *capture_get_hooks(void); /* NULL until a capture began */
/* The hooks while a capture runs or an event stands for a capture's work (src/graph counts them
 * with capture_live_add), else NULL: the calls that only may concern a capture ask this. */
const struct capture_hooks *capture_live_hooks(void);
void capture_live_add(int delta);
/* The capture lock, and the per-thread stream's capture of this thread (under it). */
void capture_lock(void);
void capture_unlock(void);
struct capture **capture_ptds_slot(void);
/* A call that waits for work or allocates (cuMemAlloc, cuStreamSynchronize ...): refused while
 * a capture forbids it (capture_hooks.unsafe); s is the stream it concerns, or NULL. */
CUresult capture_check_unsafe(const char *fn, struct stream *s);
/* For a call that waits for every stream of the context (cuCtxSynchronize): refused while any
 * capture is active, in every mode. */
#define CAPTURE_ANY ((struct stream *)1)
/* Work or a wait on the legacy stream t while a blocking stream of its context captures
 * (capture_hooks.legacy). */
CUresult capture_check_legacy(struct target *t);
/* A call t's stream cannot take while it captures (a synchronisation or query of the per-thread
 * stream, cuStreamAddCallback): refused, and its capture invalidated (capture_hooks.refuse). */
CUresult capture_check_target(struct target *t);

CUresult stream_lookup(const char *fn, CUstream handle, struct stream **out);
/* True while the legacy stream of ctx has deferred work not yet run. */
bool stream_legacy_busy(struct ctx *ctx);
void stream_release(struct stream *s);
void stream_synchronize(struct stream *s);
/* Waits until s has completed `count` pieces of work. */
void stream_wait_until(struct stream *s, uint64_t count);
/* Waits until each stream on the list `head` (linked through the list_node at `node_offset` in
 * struct stream, guarded by `lock`, taken before any stream's lock) has completed the work
 * queued on it when it was seen; with blocking_only, non-blocking streams are skipped. A busy
 * stream still has its worker's reference (the worker leaves only when drained), so it can be
 * retained even while its handle is being destroyed. */
void streams_wait(os_mutex *lock, struct list_node *head, size_t node_offset, bool blocking_only);

/* Calls done(arg) once every stream of ctx has completed the work queued on it now: at once in
 * this thread when none has any, else in the stream worker that finishes last. NULL-free:
 * out of memory, it waits here for the streams and then calls done. */
void streams_when_done(struct ctx *ctx, void (*done)(void *arg), void *arg);

/* ---- Events (event.c) ---- */
struct event;
CUresult event_lookup(const char *fn, CUevent handle, struct event **out);
void event_release(struct event *e);


/* ---- Event state (event.c) ---- */

struct event_state {
    _Atomic uint64_t recorded;  /* sequence number of the latest record */
    _Atomic uint64_t completed; /* highest record whose work has run */
    _Atomic uint64_t time_ns;   /* when `completed` was reached */
    _Atomic uint32_t wake;      /* bumped at each completion: what waiters sleep on */
    _Atomic uint32_t sleepers;  /* interprocess events on Windows: waiters asleep (os_wait_shared) */
};

/* Interprocess events: who may leave a record unfinished by dying. Each process that has the
 * event (created or opened) holds a slot, and raises its `pending` to every sequence number it
 * is about to take; a waiter that finds a slot's owner dead with pending > completed counts
 * that record as complete, so a peer's death never hangs the survivor (event.c, docs/ipc.md). */
#define EVENT_RECORDERS 64
struct event_recorder {
    _Atomic uint64_t owner;   /* pid << 32 | a hash of its start time (event.c); 0: free */
    _Atomic uint64_t pending; /* the highest sequence number the owner may have taken */
};

/* The page an interprocess event's state lives in, shared by the processes that have it. */
struct event_page {
    struct event_state state;
    struct event_recorder recorders[EVENT_RECORDERS];
};
_Static_assert(sizeof(struct event_page) <= 4096, "an interprocess event's state fits one page");

struct event {
    struct obj base;
    struct ctx *ctx; /* a reference */
    unsigned int flags;
    struct event_state *state; /* &local, or a page shared with other processes */
    struct event_state local;
    bool shared;
    bool imported;         /* opened from another process's handle */
    os_memory shm;         /* interprocess events: the shared page's memory object */
    os_waker waker;        /* interprocess events: wakes waiters in other processes */
    uint8_t nonce[16];     /* interprocess events: proves a handle genuine (ipc.c) */
    struct event_recorder *mine; /* interprocess events: this process's slot in the page's table
                                  * of recorders; NULL when it was full */
    struct list_node ctx_node;
};

/* Creates an event of ctx. With shm, the state lives in that mapped page; the event takes
 * shm and page whether it succeeds or not. */
CUresult event_create(const char *fn, struct ctx *ctx, unsigned int flags, os_memory *shm, void *page,
                      struct event **out);

#endif /* EXTMEM_EXEC_EXEC_H */
