/*
 * src/graph/capture.c: stream capture. A capturing stream's work becomes nodes of the capture's
 * graph: each piece of work describes the node it is (struct work.describe), and depends on the
 * stream's current dependencies, which it then replaces. Events carry dependencies from one
 * stream to another: a record on a capturing stream makes the event stand for that stream's
 * dependencies; a wait for such an event on another stream brings that stream into the capture
 * (a fork) or adds them to its dependencies (a join). The rules for calls a capture does not
 * allow are the driver's, probed on the H100 (docs/graphs.md, docs/probes/graphs).
 */
#include "graph/graph.h"
#include "exec/per_thread.h"

#include <stdlib.h>
#include <string.h>

struct cstream {
    struct stream *s;          /* a reference; NULL: the per-thread stream of the capturing thread */
    struct node **deps;        /* the capture's current dependencies on this stream */
    CUgraphEdgeData *edata;
    size_t n, cap;
};

struct capture {
    atomic_uint refs;
    struct capture *next;      /* the active captures (graph_lock) */
    uint64_t id;
    struct graph *g;           /* a reference */
    bool to_graph;             /* cuStreamBeginCaptureToGraph: g is the caller's */
    CUstreamCaptureMode mode;
    const void *thread;        /* the thread that began it */
    struct ctx *ctx;           /* a reference */
    CUstreamCaptureStatus status;
    struct cstream *streams;   /* [0] is the origin */
    size_t nstreams;
};

/* Events recorded in a capture: what they stand for. */
struct cevent {
    struct cevent *next;
    struct event *e;           /* a reference */
    struct capture *c;         /* a reference */
    struct node **deps;
    CUgraphEdgeData *edata;
    size_t n;
};

static struct capture *active;
static struct cevent *events;
static uint64_t next_id = 1;
static OS_THREAD_LOCAL char thread_marker; /* its address names the thread */
static OS_THREAD_LOCAL CUstreamCaptureMode thread_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;

static const void *this_thread(void) { return &thread_marker; }

static void cap_retain(struct capture *c) { atomic_fetch_add(&c->refs, 1); }

static void cap_release(struct capture *c)
{
    if (atomic_fetch_sub(&c->refs, 1) != 1)
        return;
    for (size_t i = 0; i < c->nstreams; ++i) {
        if (c->streams[i].s)
            stream_release(c->streams[i].s);
        free(c->streams[i].deps);
        free(c->streams[i].edata);
    }
    free(c->streams);
    if (c->g)
        obj_release(&c->g->base);
    ctx_release(c->ctx);
    free(c);
}

/* ---- Dependencies ---- */

/* Room for n dependencies on the stream's entry. */
static bool deps_reserve(struct cstream *cs, size_t n)
{
    if (n <= cs->cap)
        return true;
    struct node **d = realloc(cs->deps, n * sizeof(*d));
    if (!d)
        return false;
    cs->deps = d;
    CUgraphEdgeData *e = realloc(cs->edata, n * sizeof(*e));
    if (!e)
        return false;
    cs->edata = e;
    cs->cap = n;
    return true;
}

static bool deps_set(struct cstream *cs, struct node *const *deps, const CUgraphEdgeData *edata, size_t n)
{
    if (!deps_reserve(cs, n))
        return false;
    cs->n = n;
    if (!n) /* memmove and memset take no NULL, even for 0 bytes */
        return true;
    memmove(cs->deps, deps, n * sizeof(*deps));
    if (edata)
        memmove(cs->edata, edata, n * sizeof(*edata));
    else
        memset(cs->edata, 0, n * sizeof(*cs->edata));
    return true;
}

static bool deps_add(struct cstream *cs, struct node *const *deps, const CUgraphEdgeData *edata, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        bool have = false;
        for (size_t j = 0; j < cs->n; ++j)
            have |= cs->deps[j] == deps[i];
        if (have)
            continue;
        if (cs->n == cs->cap && !deps_reserve(cs, cs->cap ? cs->cap * 2 : 4))
            return false;
        cs->deps[cs->n] = deps[i];
        if (edata)
            cs->edata[cs->n] = edata[i];
        else
            memset(&cs->edata[cs->n], 0, sizeof(cs->edata[0]));
        cs->n++;
    }
    return true;
}

/* t's entry in its capture (graph_lock held). */
static struct cstream *cstream_of(struct capture *c, const struct target *t)
{
    for (size_t i = 0; i < c->nstreams; ++i)
        if (c->streams[i].s == t->s)
            return &c->streams[i];
    return NULL;
}

static struct cstream *cstream_add(struct capture *c, struct stream *s)
{
    struct cstream *v = realloc(c->streams, (c->nstreams + 1) * sizeof(*v));
    if (!v)
        return NULL;
    c->streams = v;
    memset(&v[c->nstreams], 0, sizeof(v[0]));
    if (s)
        obj_retain(&s->base);
    v[c->nstreams].s = s;
    return &v[c->nstreams++];
}

/* The stream's capture pointer, which exec reads under its capture lock. */
static void stream_attach(struct stream *s, struct capture *c)
{
    capture_lock();
    if (s)
        s->capture = c;
    else
        *capture_ptds_slot() = c;
    capture_unlock();
}

/* The capture is broken: its work is no longer recorded, EndCapture will say so. */
static void invalidate(struct capture *c)
{
    c->status = CU_STREAM_CAPTURE_STATUS_INVALIDATED;
}

/* ---- The hooks exec calls ---- */

/* grid (issue 25): a captured cooperative launch's node carries CU_LAUNCH_ATTRIBUTE_COOPERATIVE,
 * as the driver's capture gives it (a graph launch runs it cooperatively). */
static OS_THREAD_LOCAL const struct work *hook_adding; /* the work hook_record describes */

static CUresult hook_add(struct target *t, const char *fn, CUgraphNodeParams *p)
{
    struct capture *c = t->capture;
    graph_lock();
    CUresult r;
    struct cstream *cs = cstream_of(c, t);
    if (c->status != CU_STREAM_CAPTURE_STATUS_ACTIVE || !cs) {
        r = fail(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "%s: the stream's capture was invalidated by an earlier "
                 "error; end it with cuStreamEndCapture", fn);
    } else {
        struct node *node = NULL;
        r = graph_add_locked(fn, t->ctx, c->g, cs->deps, cs->edata, cs->n, p, &node);
        if (!r && hook_adding && p->type == CU_GRAPH_NODE_TYPE_KERNEL && kernel_work_cooperative(hook_adding)) {
            node->np.attrs[node->np.nattrs].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
            memset(&node->np.attrs[node->np.nattrs].value, 0, sizeof(node->np.attrs[0].value));
            node->np.attrs[node->np.nattrs++].value.cooperative = 1;
        }
        unsigned cdim[3]; /* clusters: a launch that named its clusters gives its node the attribute */
        if (!r && hook_adding && p->type == CU_GRAPH_NODE_TYPE_KERNEL && kernel_work_cluster(hook_adding, cdim)) {
            CUlaunchAttribute *a = &node->np.attrs[node->np.nattrs++];
            memset(a, 0, sizeof(*a));
            a->id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
            a->value.clusterDim.x = cdim[0], a->value.clusterDim.y = cdim[1], a->value.clusterDim.z = cdim[2];
        }
        if (!r && !deps_set(cs, &node, NULL, 1))
            r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
        if (r)
            invalidate(c);
    }
    graph_unlock();
    return r;
}

static CUresult hook_record(struct target *t, const char *fn, struct work *w)
{
    CUgraphNodeParams p = {0};
    memset(&p, 0, sizeof(p));
    CUresult r;
    if (!w->describe) {
        graph_lock();
        invalidate(t->capture);
        graph_unlock();
        r = fail(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "%s: this operation cannot be captured into a graph; the "
                 "capture is invalidated", fn);
    } else if (!(r = w->describe(w, &p))) {
        hook_adding = w;
        r = hook_add(t, fn, &p);
        hook_adding = NULL;
    }
    if (w->discard)
        w->discard(w);
    else
        free(w);
    return r;
}

static struct cevent *cevent_find(const struct event *e)
{
    for (struct cevent *ce = events; ce; ce = ce->next)
        if (ce->e == e)
            return ce;
    return NULL;
}

static void cevent_free(struct cevent *ce)
{
    capture_live_add(-1);
    event_release(ce->e);
    if (ce->c)
        cap_release(ce->c);
    free(ce->deps);
    free(ce->edata);
    free(ce);
}

static void cevent_remove(struct cevent *ce)
{
    for (struct cevent **it = &events; *it; it = &(*it)->next)
        if (*it == ce) {
            *it = ce->next;
            break;
        }
    cevent_free(ce);
}

static CUresult hook_record_event(struct target *t, const char *fn, struct event *e, unsigned int flags)
{
    if (flags & CU_EVENT_RECORD_EXTERNAL) { /* a node that records the event when the graph runs */
        CUgraphNodeParams p = {0};
        memset(&p, 0, sizeof(p));
        p.type = CU_GRAPH_NODE_TYPE_EVENT_RECORD;
        p.eventRecord.event = (CUevent)(uintptr_t)((struct obj *)e)->handle;
        return hook_add(t, fn, &p);
    }
    struct capture *c = t->capture;
    graph_lock();
    CUresult r = CUDA_SUCCESS;
    struct cstream *cs = cstream_of(c, t);
    if (c->status != CU_STREAM_CAPTURE_STATUS_ACTIVE || !cs) {
        r = fail(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "%s: the stream's capture was invalidated", fn);
    } else {
        struct cevent *ce = cevent_find(e);
        if (ce)
            cevent_remove(ce);
        ce = calloc(1, sizeof(*ce));
        if (ce && cs->n) {
            ce->deps = malloc(cs->n * sizeof(*ce->deps));
            ce->edata = malloc(cs->n * sizeof(*ce->edata));
        }
        if (!ce || (cs->n && (!ce->deps || !ce->edata))) {
            if (ce) {
                free(ce->deps);
                free(ce->edata);
            }
            free(ce);
            invalidate(c);
            r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
        } else {
            if (cs->n) {
                memcpy(ce->deps, cs->deps, cs->n * sizeof(*ce->deps));
                memcpy(ce->edata, cs->edata, cs->n * sizeof(*ce->edata));
            }
            ce->n = cs->n;
            capture_live_add(1);
            obj_retain((struct obj *)e);
            ce->e = e;
            cap_retain(c);
            ce->c = c;
            ce->next = events;
            events = ce;
        }
    }
    graph_unlock();
    return r;
}

static bool event_ever_recorded(struct event *e) { return atomic_load(&e->state->recorded) != 0; }

static CUresult hook_wait_event(struct target *t, const char *fn, struct event *e, unsigned int flags, bool *handled)
{
    *handled = false;
    if (t->sink)
        return CUDA_SUCCESS;
    graph_lock();
    CUresult r = CUDA_SUCCESS;
    struct cevent *ce = cevent_find(e);
    struct capture *c = t->capture;
    if (ce && ce->c && ce->c->status == CU_STREAM_CAPTURE_STATUS_ACTIVE) {
        *handled = true;
        if (c && c != ce->c) { /* the driver invalidates both */
            invalidate(c);
            invalidate(ce->c);
            r = fail(CUDA_ERROR_STREAM_CAPTURE_MERGE, "%s: the event was recorded in another capture than the "
                     "stream's: captures cannot be merged", fn);
        } else if (c) { /* a join: the stream waits for the event's dependencies too */
            struct cstream *cs = cstream_of(c, t);
            if (!cs || !deps_add(cs, ce->deps, ce->edata, ce->n)) {
                invalidate(c);
                r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
            }
        } else if (t->legacy && !t->s) {
            invalidate(ce->c);
            r = fail(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, "%s: the legacy stream cannot wait for an event of a capture",
                     fn);
        } else { /* a fork: the stream joins the capture with the event's dependencies */
            c = ce->c;
            struct cstream *cs = cstream_add(c, t->s);
            if (!cs || !deps_set(cs, ce->deps, ce->edata, ce->n)) {
                invalidate(c);
                r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
            } else {
                stream_attach(t->s, c);
            }
        }
    } else if (ce && ce->c) {
        *handled = true;
        r = fail(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "%s: the event belongs to a capture that was invalidated", fn);
    } else if (ce) {
        *handled = true;
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the event was last recorded in a capture that has ended; record it "
                 "again outside a capture", fn);
    } else if (c) {
        *handled = true;
        graph_unlock();
        if (flags & CU_EVENT_WAIT_EXTERNAL) { /* a node that waits for the event when the graph runs */
            CUgraphNodeParams p = {0};
            memset(&p, 0, sizeof(p));
            p.type = CU_GRAPH_NODE_TYPE_WAIT_EVENT;
            p.eventWait.event = (CUevent)(uintptr_t)((struct obj *)e)->handle;
            return hook_add(t, fn, &p);
        }
        /* An event recorded outside the capture: the graph cannot order itself after work
         * that is not in it (the driver's rule: docs/graphs.md). One never recorded adds nothing. */
        if (!event_ever_recorded(e))
            return CUDA_SUCCESS;
        graph_lock();
        invalidate(c);
        r = fail(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, "%s: the event was not recorded in the stream's capture; "
                 "wait for it with CU_EVENT_WAIT_EXTERNAL to make an event wait node", fn);
    }
    graph_unlock();
    return r;
}

/* Whether this thread may make a call that captures forbid (graph_lock held). */
static struct capture *forbidding(void)
{
    if (thread_mode == CU_STREAM_CAPTURE_MODE_RELAXED)
        return NULL;
    for (struct capture *c = active; c; c = c->next) {
        if (c->mode == CU_STREAM_CAPTURE_MODE_RELAXED || c->status != CU_STREAM_CAPTURE_STATUS_ACTIVE)
            continue;
        if (c->thread == this_thread() ||
            (thread_mode == CU_STREAM_CAPTURE_MODE_GLOBAL && c->mode == CU_STREAM_CAPTURE_MODE_GLOBAL))
            return c;
    }
    return NULL;
}

static CUresult hook_unsafe(const char *fn, struct stream *s)
{
    CUresult r = CUDA_SUCCESS;
    graph_lock();
    struct capture *c = NULL;
    if (s == CAPTURE_ANY) { /* waits for every stream: any active capture refuses it */
        for (c = active; c && c->status != CU_STREAM_CAPTURE_STATUS_ACTIVE; c = c->next)
            ;
    } else if (s) { /* a call about a capturing stream itself (synchronize, query) */
        capture_lock();
        c = s->capture;
        capture_unlock();
    }
    if (!c)
        c = forbidding();
    if (c) {
        invalidate(c);
        r = fail(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "%s: not allowed while a stream is capturing (mode %s); "
                 "cuThreadExchangeStreamCaptureMode(RELAXED) allows it", fn,
                 c->mode == CU_STREAM_CAPTURE_MODE_GLOBAL ? "global" : "thread-local");
    }
    graph_unlock();
    return r;
}

static CUresult hook_legacy(struct target *t)
{
    CUresult r = CUDA_SUCCESS;
    graph_lock();
    for (struct capture *c = active; c; c = c->next) {
        if (c->ctx != t->ctx)
            continue;
        for (size_t i = 0; i < c->nstreams; ++i)
            if (c->status == CU_STREAM_CAPTURE_STATUS_ACTIVE &&
                (!c->streams[i].s || !(c->streams[i].s->flags & CU_STREAM_NON_BLOCKING))) {
                invalidate(c);
                r = fail(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, "%s: the legacy stream would synchronise with a "
                         "blocking stream that is capturing", t->fn);
                break;
            }
    }
    graph_unlock();
    return r;
}

static CUresult hook_event_use(const char *fn, struct event *e, int use)
{
    CUresult r = CUDA_SUCCESS;
    graph_lock();
    struct cevent *ce = cevent_find(e);
    if (ce && ce->c) {
        if (!use)
            invalidate(ce->c);
        r = fail(CUDA_ERROR_CAPTURED_EVENT, "%s: the event was recorded in a capture: it stands for work of a graph "
                 "that has not run", fn);
    } else if (ce) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the event was last recorded in a capture that has ended; record it "
                 "again outside a capture", fn);
    }
    graph_unlock();
    if (!r && !use)
        r = hook_unsafe(fn, NULL);
    return r;
}

static void hook_event_recorded(struct event *e)
{
    graph_lock();
    struct cevent *ce = cevent_find(e);
    if (ce)
        cevent_remove(ce);
    graph_unlock();
}

static CUresult hook_refuse(struct target *t)
{
    graph_lock();
    invalidate(t->capture);
    graph_unlock();
    return fail(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "%s: not allowed on a stream that is capturing (a "
                "synchronisation, a query, a callback); the capture is invalidated", t->fn);
}

static void hook_retain(struct capture *c) { cap_retain(c); }
static void hook_release(struct capture *c) { cap_release(c); }

static const struct capture_hooks hooks = {
    .record = hook_record,
    .add = hook_add,
    .wait_event = hook_wait_event,
    .record_event = hook_record_event,
    .unsafe = hook_unsafe,
    .legacy = hook_legacy,
    .refuse = hook_refuse,
    .event_use = hook_event_use,
    .event_recorded = hook_event_recorded,
    .retain = hook_retain,
    .release = hook_release,
};

void capture_install(void) { capture_set_hooks(&hooks); }

/* ---- Entry points ---- */

static CUresult mode_check(const char *fn, CUstreamCaptureMode mode)
{
    if (mode != CU_STREAM_CAPTURE_MODE_GLOBAL && mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
        mode != CU_STREAM_CAPTURE_MODE_RELAXED)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: mode %d is not a CUstreamCaptureMode", fn, (int)mode);
    return CUDA_SUCCESS;
}

static CUresult begin(const char *fn, CUstream hStream, struct graph *into, const CUgraphNode *deps,
                      const CUgraphEdgeData *edata, size_t n, CUstreamCaptureMode mode)
{
    REQUIRE_INIT(fn);
    CUresult r = mode_check(fn, mode);
    if (r)
        return r;
    capture_install();
    struct target t;
    if ((r = target_get(fn, hStream, &t)))
        return r;
    struct node **v = NULL;
    if (t.legacy && !t.s) {
        r = fail(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "%s: the legacy default stream cannot capture; use a created "
                 "stream or the per-thread stream", fn);
    } else if (t.capture) {
        r = fail(CUDA_ERROR_ILLEGAL_STATE, "%s: the stream is capturing already", fn);
    } else if (n && !deps) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: numDependencies is %zu but dependencies is NULL", fn, n);
    } else if (n && !(v = calloc(n, sizeof(*v)))) {
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    for (size_t i = 0; !r && edata && i < n; ++i)
        if (edata[i].type || edata[i].from_port || edata[i].to_port)
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: dependencyData[%zu] is not an ordinary edge", fn, i);
    for (size_t i = 0; !r && i < n; ++i)
        if (!(r = node_lookup(fn, deps[i], &v[i]))) {
            if (v[i]->g != into)
                r = fail(CUDA_ERROR_INVALID_VALUE, "%s: dependencies[%zu] is a node of another graph", fn, i);
            obj_release(&v[i]->base); /* the graph keeps it while graph_lock is held below */
        }
    struct capture *c = NULL;
    if (!r && !(c = calloc(1, sizeof(*c))))
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    if (!r && !into && !(r = graph_new(fn, false, &c->g)))
        obj_retain(&c->g->base); /* the capture's own, besides the handle's */
    if (!r && into) {
        obj_retain(&into->base);
        c->g = into;
        c->to_graph = true;
    }
    if (!r) {
        atomic_store(&c->refs, 1);
        c->mode = mode;
        c->thread = this_thread();
        obj_retain(&t.ctx->base);
        c->ctx = t.ctx;
        c->status = CU_STREAM_CAPTURE_STATUS_ACTIVE;
        graph_lock();
        c->id = next_id++;
        struct cstream *cs = cstream_add(c, t.s);
        if (!cs || !deps_set(cs, v, edata, n)) {
            r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
        } else {
            c->next = active;
            active = c;
            capture_live_add(1); /* before the stream can be seen capturing */
            stream_attach(t.s, c);
            c = NULL; /* the active list's reference */
        }
        graph_unlock();
    }
    if (c) {
        if (c->g && !c->to_graph) {
            graph_lock();
            graph_free_locked(c->g);
            graph_unlock();
        }
        if (c->ctx)
            cap_release(c);
        else
            free(c);
    }
    free(v);
    target_put(&t);
    return r;
}

CUresult CUDAAPI cuStreamBeginCapture(CUstream hStream, CUstreamCaptureMode mode)
{
    return begin("cuStreamBeginCapture", hStream, NULL, NULL, NULL, 0, mode);
}

CUresult CUDAAPI cuStreamBeginCaptureToGraph(CUstream hStream, CUgraph hGraph, const CUgraphNode *dependencies,
                                             const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                             CUstreamCaptureMode mode)
{
    const char *fn = "cuStreamBeginCaptureToGraph";
    REQUIRE_INIT(fn);
    struct graph *g = NULL;
    CUresult r = graph_lookup(fn, hGraph, &g);
    if (r)
        return r;
    r = begin(fn, hStream, g, dependencies, dependencyData, numDependencies, mode);
    obj_release(&g->base);
    return r;
}

/* Whether `from` reaches one of `to` (or is one) along edges (graph_lock held). */
static bool reaches(struct node *from, struct node *const *to, size_t n, unsigned depth)
{
    for (size_t i = 0; i < n; ++i)
        if (from == to[i])
            return true;
    if (depth > 100000)
        return false;
    for (size_t e = 0; e < from->outs.n; ++e)
        if (reaches(from->outs.v[e].node, to, n, depth + 1))
            return true;
    return false;
}

/* Ends c (graph_lock held): its streams leave it, its events stop standing for it. */
static void finish(struct capture *c)
{
    for (struct capture **it = &active; *it; it = &(*it)->next)
        if (*it == c) {
            *it = c->next;
            break;
        }
    for (size_t i = 0; i < c->nstreams; ++i)
        stream_attach(c->streams[i].s, NULL);
    /* Its events stand for work that will never run as stream work: the driver answers
     * INVALID_VALUE for them until they are recorded again. */
    for (struct cevent *ce = events; ce; ce = ce->next)
        if (ce->c == c) {
            ce->c = NULL;
            cap_release(c);
            free(ce->deps);
            free(ce->edata);
            ce->deps = NULL;
            ce->edata = NULL;
            ce->n = 0;
        }
    capture_live_add(-1); /* after its streams left it */
}

static CUresult end(const char *fn, CUstream hStream, CUgraph *phGraph)
{
    REQUIRE_INIT(fn);
    /* phGraph NULL ends the capture and drops its graph (the driver's answer: SUCCESS). */
    CUgraph dropped;
    if (!phGraph)
        phGraph = &dropped;
    struct target t;
    CUresult r = target_get(fn, hStream, &t);
    if (r)
        return r;
    struct capture *c = t.capture;
    graph_lock();
    if (!c) {
        *phGraph = NULL;
        r = fail(CUDA_ERROR_ILLEGAL_STATE, "%s: the stream is not capturing", fn);
    } else if (c->streams[0].s != t.s) {
        r = fail(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, "%s: the capture was begun on another stream; end it there", fn);
        invalidate(c);
    } else if (c->mode != CU_STREAM_CAPTURE_MODE_RELAXED && c->thread != this_thread()) {
        /* The driver ends the capture there and then, with no graph. */
        r = fail(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, "%s: the capture was begun by another thread (mode %s); it "
                 "is ended with no graph", fn, c->mode == CU_STREAM_CAPTURE_MODE_GLOBAL ? "global" : "thread-local");
        finish(c);
        *phGraph = NULL;
        if (!c->to_graph)
            graph_free_locked(c->g);
        cap_release(c);
    } else {
        struct cstream *origin = &c->streams[0];
        for (size_t i = 1; !r && c->status == CU_STREAM_CAPTURE_STATUS_ACTIVE && i < c->nstreams; ++i)
            for (size_t d = 0; d < c->streams[i].n; ++d)
                if (!reaches(c->streams[i].deps[d], origin->deps, origin->n, 0)) {
                    r = fail(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, "%s: a stream forked into the capture was not joined "
                             "back into the stream that began it", fn);
                    break;
                }
        if (!r && c->status != CU_STREAM_CAPTURE_STATUS_ACTIVE)
            r = fail(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "%s: the capture was invalidated by an earlier error", fn);
        finish(c);
        *phGraph = NULL;
        if (!r) {
            *phGraph = graph_handle(c->g);
            if (phGraph == &dropped && !c->to_graph)
                graph_free_locked(c->g);
        } else if (!c->to_graph) {
            graph_free_locked(c->g);
        }
        cap_release(c); /* the active list's */
    }
    graph_unlock();
    target_put(&t);
    return r;
}

CUresult CUDAAPI cuStreamEndCapture(CUstream hStream, CUgraph *phGraph)
{
    return end("cuStreamEndCapture", hStream, phGraph);
}

static CUresult info(const char *fn, CUstream hStream, CUstreamCaptureStatus *status, cuuint64_t *id, CUgraph *graph,
                     const CUgraphNode **deps, const CUgraphEdgeData **edata, size_t *n)
{
    REQUIRE_INIT(fn);
    if (!status)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: captureStatus_out is NULL", fn);
    struct target t;
    CUresult r = target_get(fn, hStream, &t);
    if (r)
        return r;
    if (t.legacy && !t.s && (r = hook_legacy(&t))) {
        target_put(&t);
        return r;
    }
    graph_lock();
    struct capture *c = t.capture;
    *status = c ? c->status : CU_STREAM_CAPTURE_STATUS_NONE;
    if (c && c->status == CU_STREAM_CAPTURE_STATUS_ACTIVE) {
        struct cstream *cs = cstream_of(c, &t);
        if (id)
            *id = c->id;
        if (graph)
            *graph = graph_handle(c->g);
        /* Handles for the caller: the nodes' handles, kept in the stream's entry as an array of
         * their own (valid until the stream's next captured call). */
        static OS_THREAD_LOCAL CUgraphNode handles[64];
        size_t k = cs ? cs->n : 0;
        if (k > 64)
            k = 64;
        for (size_t i = 0; i < k; ++i)
            handles[i] = node_handle(cs->deps[i]);
        if (deps)
            *deps = k ? handles : NULL;
        if (edata)
            *edata = k ? cs->edata : NULL;
        if (n)
            *n = k;
    }
    graph_unlock();
    target_put(&t);
    return r;
}

CUresult CUDAAPI cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out,
                                        CUgraph *graph_out, const CUgraphNode **dependencies_out,
                                        const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    return info("cuStreamGetCaptureInfo", hStream, captureStatus_out, id_out, graph_out, dependencies_out,
                edgeData_out, numDependencies_out);
}

static CUresult update_deps(const char *fn, CUstream hStream, CUgraphNode *deps, const CUgraphEdgeData *edata, size_t n,
                            unsigned int flags)
{
    REQUIRE_INIT(fn);
    if (flags != CU_STREAM_ADD_CAPTURE_DEPENDENCIES && flags != CU_STREAM_SET_CAPTURE_DEPENDENCIES)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags %u: CU_STREAM_ADD_CAPTURE_DEPENDENCIES (0) or "
                    "CU_STREAM_SET_CAPTURE_DEPENDENCIES (1)", fn, flags);
    if (n && !deps)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numDependencies is %zu but dependencies is NULL", fn, n);
    struct target t;
    CUresult r = target_get(fn, hStream, &t);
    if (r)
        return r;
    struct node **v = n ? calloc(n, sizeof(*v)) : NULL;
    if (n && !v)
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    for (size_t i = 0; !r && i < n; ++i)
        if (!(r = node_lookup(fn, deps[i], &v[i])))
            obj_release(&v[i]->base);
    graph_lock();
    struct capture *c = t.capture;
    if (!r && !c)
        r = fail(CUDA_ERROR_ILLEGAL_STATE, "%s: the stream is not capturing", fn);
    else if (!r && c->status != CU_STREAM_CAPTURE_STATUS_ACTIVE)
        r = fail(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "%s: the stream's capture was invalidated", fn);
    for (size_t i = 0; !r && i < n; ++i)
        if (v[i]->g != c->g)
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: dependencies[%zu] is not a node of the capture's graph", fn, i);
    if (!r) {
        struct cstream *cs = cstream_of(c, &t);
        bool ok = cs && (flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES ? deps_set(cs, v, edata, n)
                                                                     : deps_add(cs, v, edata, n));
        if (!ok)
            r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    graph_unlock();
    free(v);
    target_put(&t);
    return r;
}

CUresult CUDAAPI cuStreamUpdateCaptureDependencies(CUstream hStream, CUgraphNode *dependencies,
                                                   const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                                   unsigned int flags)
{
    return update_deps("cuStreamUpdateCaptureDependencies", hStream, dependencies, dependencyData, numDependencies,
                       flags);
}

CUresult CUDAAPI cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
    return info("cuStreamIsCapturing", hStream, captureStatus, NULL, NULL, NULL, NULL, NULL);
}

CUresult CUDAAPI cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
    const char *fn = "cuThreadExchangeStreamCaptureMode";
    REQUIRE_INIT(fn);
    if (!mode)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: mode is NULL", fn);
    CUresult r = mode_check(fn, *mode);
    if (r)
        return r;
    CUstreamCaptureMode old = thread_mode;
    thread_mode = *mode;
    *mode = old;
    return CUDA_SUCCESS;
}

/* ---- The other names: before capture modes, before edge data, the per-thread stream ---- */
#undef cuStreamBeginCapture
#undef cuStreamGetCaptureInfo
#undef cuStreamUpdateCaptureDependencies
EXTMEM_API CUresult CUDAAPI cuStreamBeginCapture(CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuStreamBeginCapture_ptsz(CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuStreamBeginCapture_v2_ptsz(CUstream hStream, CUstreamCaptureMode mode);
EXTMEM_API CUresult CUDAAPI cuStreamBeginCaptureToGraph_ptsz(CUstream hStream, CUgraph hGraph,
                                                             const CUgraphNode *dependencies,
                                                             const CUgraphEdgeData *dependencyData,
                                                             size_t numDependencies, CUstreamCaptureMode mode);
EXTMEM_API CUresult CUDAAPI cuStreamEndCapture_ptsz(CUstream hStream, CUgraph *phGraph);
EXTMEM_API CUresult CUDAAPI cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                                   cuuint64_t *id_out);
EXTMEM_API CUresult CUDAAPI cuStreamGetCaptureInfo_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                                        cuuint64_t *id_out);
EXTMEM_API CUresult CUDAAPI cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                                      cuuint64_t *id_out, CUgraph *graph_out,
                                                      const CUgraphNode **dependencies_out, size_t *numDependencies_out);
EXTMEM_API CUresult CUDAAPI cuStreamGetCaptureInfo_v2_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                                           cuuint64_t *id_out, CUgraph *graph_out,
                                                           const CUgraphNode **dependencies_out,
                                                           size_t *numDependencies_out);
EXTMEM_API CUresult CUDAAPI cuStreamGetCaptureInfo_v3_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                                           cuuint64_t *id_out, CUgraph *graph_out,
                                                           const CUgraphNode **dependencies_out,
                                                           const CUgraphEdgeData **edgeData_out,
                                                           size_t *numDependencies_out);
EXTMEM_API CUresult CUDAAPI cuStreamUpdateCaptureDependencies(CUstream hStream, CUgraphNode *dependencies,
                                                              size_t numDependencies, unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuStreamUpdateCaptureDependencies_ptsz(CUstream hStream, CUgraphNode *dependencies,
                                                                   size_t numDependencies, unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuStreamUpdateCaptureDependencies_v2_ptsz(CUstream hStream, CUgraphNode *dependencies,
                                                                      const CUgraphEdgeData *dependencyData,
                                                                      size_t numDependencies, unsigned int flags);

static CUstream ptsz(CUstream s) { return s ? s : CU_STREAM_PER_THREAD; }

CUresult CUDAAPI cuStreamIsCapturing_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
    return info("cuStreamIsCapturing", ptsz(hStream), captureStatus, NULL, NULL, NULL, NULL, NULL);
}

/* CUDA 10.0's form: a global capture. */
CUresult CUDAAPI cuStreamBeginCapture(CUstream hStream)
{
    return begin("cuStreamBeginCapture", hStream, NULL, NULL, NULL, 0, CU_STREAM_CAPTURE_MODE_GLOBAL);
}
CUresult CUDAAPI cuStreamBeginCapture_ptsz(CUstream hStream)
{
    return begin("cuStreamBeginCapture", ptsz(hStream), NULL, NULL, NULL, 0, CU_STREAM_CAPTURE_MODE_GLOBAL);
}
CUresult CUDAAPI cuStreamBeginCapture_v2_ptsz(CUstream hStream, CUstreamCaptureMode mode)
{
    return begin("cuStreamBeginCapture", ptsz(hStream), NULL, NULL, NULL, 0, mode);
}
CUresult CUDAAPI cuStreamBeginCaptureToGraph_ptsz(CUstream hStream, CUgraph hGraph, const CUgraphNode *dependencies,
                                                  const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                                  CUstreamCaptureMode mode)
{
    return cuStreamBeginCaptureToGraph(ptsz(hStream), hGraph, dependencies, dependencyData, numDependencies, mode);
}
CUresult CUDAAPI cuStreamEndCapture_ptsz(CUstream hStream, CUgraph *phGraph)
{
    return end("cuStreamEndCapture", ptsz(hStream), phGraph);
}
CUresult CUDAAPI cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out)
{
    return info("cuStreamGetCaptureInfo", hStream, captureStatus_out, id_out, NULL, NULL, NULL, NULL);
}
CUresult CUDAAPI cuStreamGetCaptureInfo_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                             cuuint64_t *id_out)
{
    return info("cuStreamGetCaptureInfo", ptsz(hStream), captureStatus_out, id_out, NULL, NULL, NULL, NULL);
}
CUresult CUDAAPI cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                           cuuint64_t *id_out, CUgraph *graph_out, const CUgraphNode **dependencies_out,
                                           size_t *numDependencies_out)
{
    return info("cuStreamGetCaptureInfo_v2", hStream, captureStatus_out, id_out, graph_out, dependencies_out, NULL,
                numDependencies_out);
}
CUresult CUDAAPI cuStreamGetCaptureInfo_v2_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                                cuuint64_t *id_out, CUgraph *graph_out,
                                                const CUgraphNode **dependencies_out, size_t *numDependencies_out)
{
    return info("cuStreamGetCaptureInfo_v2", ptsz(hStream), captureStatus_out, id_out, graph_out, dependencies_out,
                NULL, numDependencies_out);
}
CUresult CUDAAPI cuStreamGetCaptureInfo_v3_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                                cuuint64_t *id_out, CUgraph *graph_out,
                                                const CUgraphNode **dependencies_out,
                                                const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    return info("cuStreamGetCaptureInfo", ptsz(hStream), captureStatus_out, id_out, graph_out, dependencies_out,
                edgeData_out, numDependencies_out);
}
CUresult CUDAAPI cuStreamUpdateCaptureDependencies(CUstream hStream, CUgraphNode *dependencies, size_t numDependencies,
                                                   unsigned int flags)
{
    return update_deps("cuStreamUpdateCaptureDependencies", hStream, dependencies, NULL, numDependencies, flags);
}
CUresult CUDAAPI cuStreamUpdateCaptureDependencies_ptsz(CUstream hStream, CUgraphNode *dependencies,
                                                        size_t numDependencies, unsigned int flags)
{
    return update_deps("cuStreamUpdateCaptureDependencies", ptsz(hStream), dependencies, NULL, numDependencies, flags);
}
CUresult CUDAAPI cuStreamUpdateCaptureDependencies_v2_ptsz(CUstream hStream, CUgraphNode *dependencies,
                                                           const CUgraphEdgeData *dependencyData,
                                                           size_t numDependencies, unsigned int flags)
{
    return update_deps("cuStreamUpdateCaptureDependencies", ptsz(hStream), dependencies, dependencyData,
                       numDependencies, flags);
}
