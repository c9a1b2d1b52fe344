/*
 * src/graph/launch.c: an executable graph's launch. The launching thread makes every node's
 * work with the call a program would make for it (cuLaunchKernel, cuMemcpy3DAsync ...) through
 * a sink (exec.h), so a launch is checked as those calls are, and then queues one piece of
 * stream work that runs the pieces in the schedule's order: a launch costs no per-node queueing
 * and no thread hand-over (DESIGN.md §18). Launches of one executable graph run one at a time,
 * in the order they were made, whichever streams they were given.
 */
#include "graph/graph.h"

#include <stdlib.h>
#include <string.h>

/* One step of a launch: a piece of work, or what a graph does itself. */
enum step_kind { STEP_WORK, STEP_ALLOC, STEP_FREE, STEP_CONDITIONAL };
struct span {
    uint32_t first, count; /* in struct launch_work.deps */
};
struct step {
    enum step_kind kind;
    struct span deps;        /* the steps it waits for */
    bool may_block;          /* a host function or a wait: worth running beside other branches */
    struct work *w;          /* STEP_WORK */
    struct gmem *mem;        /* STEP_ALLOC: a reference */
    CUdeviceptr dptr;        /* STEP_FREE */
    struct xnode *cond;      /* STEP_CONDITIONAL */
};

struct arena;

struct launch_work {
    struct work w;
    struct arena *arena;     /* the kernels' work is here (from the executable graph's arenas) */
    struct exec_graph *x;    /* a reference */
    struct ctx *ctx;         /* a reference */
    uint64_t seq;            /* its place among x's launches */
    struct step *steps;
    size_t n, cap;
    uint32_t *deps;          /* the steps' dependencies (struct span) */
    size_t ndeps, deps_cap;
    bool waits;              /* a step waits for an external semaphore, an event or memory */
    CUresult error;          /* while the work is made */
};

/* Memory for a launch's kernel work (work_sink.alloc): chunks kept with the executable graph
 * and used again by its next launches, so that a launch neither allocates nor faults pages in
 * once the graph has run. */
struct arena {
    struct arena *next;      /* the executable graph's free arenas */
    struct step *steps;      /* the launch's steps and their dependencies, kept too */
    size_t cap;
    uint32_t *deps;
    size_t deps_cap;
    struct chunk {
        struct chunk *next;
        size_t size, used;
        _Alignas(64) unsigned char mem[];
    } *chunks;
    struct launch_work lw_storage; /* the launch itself */
};

static void *arena_alloc(struct arena *a, size_t size)
{
    size = (size + 63) & ~(size_t)63;
    struct chunk *c = a->chunks;
    for (; c && c->used + size > c->size; c = c->next)
        ;
    if (!c) {
        size_t cap = size > 60000 ? size : 60000;
        if (!(c = malloc(sizeof(*c) + cap)))
            return NULL;
        c->size = cap;
        c->used = 0;
        c->next = a->chunks;
        a->chunks = c;
    }
    void *p = c->mem + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

static void arena_reset(struct arena *a)
{
    for (struct chunk *c = a->chunks; c; c = c->next)
        c->used = 0;
}

static void arena_free(struct arena *a)
{
    free(a->steps);
    free(a->deps);
    while (a->chunks) {
        struct chunk *c = a->chunks;
        a->chunks = c->next;
        free(c);
    }
    free(a);
}

void exec_arenas_free(struct exec_graph *x)
{
    struct arena *spare = atomic_exchange(&x->spare, NULL);
    if (spare)
        arena_free(spare);
    while (x->arenas) {
        struct arena *a = x->arenas;
        x->arenas = a->next;
        arena_free(a);
    }
}


struct collect {
    struct work_sink sink;
    struct launch_work *lw;
};

static void *sink_alloc(struct work_sink *sink, size_t size)
{
    struct launch_work *lw = ((struct collect *)sink)->lw;
    return lw->arena ? arena_alloc(lw->arena, size) : NULL;
}

static bool push(struct launch_work *lw, struct step s)
{
    if (lw->n == lw->cap) {
        size_t cap = lw->cap ? lw->cap * 2 : 16;
        struct step *v = realloc(lw->steps, cap * sizeof(*v));
        if (!v)
            return false;
        lw->steps = v;
        lw->cap = cap;
    }
    lw->steps[lw->n++] = s;
    return true;
}

static void take(struct work_sink *sink, struct work *w)
{
    struct launch_work *lw = ((struct collect *)sink)->lw;
    if (!push(lw, (struct step){.kind = STEP_WORK, .w = w})) {
        if (w->discard)
            w->discard(w);
        lw->error = fail(CUDA_ERROR_OUT_OF_MEMORY, "cuGraphLaunch: out of host memory");
    }
}

static void discard_steps(struct step *s, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (s[i].kind == STEP_WORK && s[i].w->discard)
            s[i].w->discard(s[i].w);
        if (s[i].kind == STEP_ALLOC)
            gmem_release(s[i].mem);
    }
}

/* The calls that make one node's work (the sink is set). */
static CUresult make_node(const struct xnode *xn)
{
    const CUgraphNodeParams *p = &xn->np.p;
    switch (xn->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
        size_t size = xn->np.args.size;
        void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, xn->np.args.buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                         CU_LAUNCH_PARAM_END};
        /* grid (issue 25): a node with CU_LAUNCH_ATTRIBUTE_COOPERATIVE runs as a cooperative launch;
         * clusters: one with CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION in clusters of that shape */
        CUlaunchAttribute a[8];
        unsigned int na = 0;
        for (unsigned int i = 0; i < xn->np.nattrs && na < 8; ++i)
            if ((xn->np.attrs[i].id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && xn->np.attrs[i].value.cooperative) ||
                xn->np.attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
                a[na++] = xn->np.attrs[i];
        if (na) {
            CUlaunchConfig c = {p->kernel.gridDimX, p->kernel.gridDimY, p->kernel.gridDimZ,
                                p->kernel.blockDimX, p->kernel.blockDimY, p->kernel.blockDimZ,
                                p->kernel.sharedMemBytes, NULL, a, na};
            return cuLaunchKernelEx(&c, p->kernel.func, NULL, extra);
        }
        return cuLaunchKernel(p->kernel.func, p->kernel.gridDimX, p->kernel.gridDimY, p->kernel.gridDimZ,
                              p->kernel.blockDimX, p->kernel.blockDimY, p->kernel.blockDimZ, p->kernel.sharedMemBytes,
                              NULL, NULL, extra);
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY: return cuMemcpy3DAsync(&p->memcpy.copyParams, NULL);
    case CU_GRAPH_NODE_TYPE_MEMSET:
        switch (p->memset.elementSize) {
        case 1:
            return cuMemsetD2D8Async(p->memset.dst, p->memset.height > 1 ? p->memset.pitch : p->memset.width,
                                     (unsigned char)p->memset.value, p->memset.width, p->memset.height, NULL);
        case 2:
            return cuMemsetD2D16Async(p->memset.dst, p->memset.height > 1 ? p->memset.pitch : p->memset.width * 2,
                                      (unsigned short)p->memset.value, p->memset.width, p->memset.height, NULL);
        default:
            return cuMemsetD2D32Async(p->memset.dst, p->memset.height > 1 ? p->memset.pitch : p->memset.width * 4,
                                      p->memset.value, p->memset.width, p->memset.height, NULL);
        }
    case CU_GRAPH_NODE_TYPE_HOST: return cuLaunchHostFunc(NULL, p->host.fn, p->host.userData);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return cuEventRecord(p->eventRecord.event, NULL);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return cuStreamWaitEvent(NULL, p->eventWait.event, 0);
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
        return cuSignalExternalSemaphoresAsync(p->extSemSignal.extSemArray, p->extSemSignal.paramsArray,
                                               p->extSemSignal.numExtSems, NULL);
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
        return cuWaitExternalSemaphoresAsync(p->extSemWait.extSemArray, p->extSemWait.paramsArray,
                                             p->extSemWait.numExtSems, NULL);
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
        return cuStreamBatchMemOp(NULL, p->memOp.count, p->memOp.paramArray, p->memOp.flags);
    default: return CUDA_SUCCESS;
    }
}

/* The dependencies of steps: indices into lw->deps (a pool that grows, so spans, not pointers). */
static bool dep_push(struct launch_work *lw, uint32_t v)
{
    if (lw->ndeps == lw->deps_cap) {
        size_t cap = lw->deps_cap ? lw->deps_cap * 2 : 64;
        uint32_t *d = realloc(lw->deps, cap * sizeof(*d));
        if (!d)
            return false;
        lw->deps = d;
        lw->deps_cap = cap;
    }
    lw->deps[lw->ndeps++] = v;
    return true;
}

/* Appends the steps of x after the steps `entry` (a span of lw->deps): each node's first step
 * depends on the last steps of the nodes it depends on (through nodes that made none, such as
 * empty nodes), a node's later steps on the one before; a child's schedule is inlined where its
 * node is. *exits: the span of x's last steps, which what follows x depends on. */
static CUresult make_steps(const char *fn, struct exec_graph *x, struct collect *c, struct span entry,
                           struct span *exits)
{
    struct launch_work *lw = c->lw;
    struct span ends_here[16];
    bool has_out_here[16];
    bool small = x->n <= 16; /* no allocation for small graphs: a launch's cost is per node */
    struct span *ends = small ? ends_here : calloc(x->n + 1, sizeof(*ends));
    bool *has_out = small ? has_out_here : calloc(x->n + 1, sizeof(*has_out));
    if (small) {
        memset(ends_here, 0, sizeof(ends_here));
        memset(has_out_here, 0, sizeof(has_out_here));
    }
    CUresult r = CUDA_SUCCESS;
    if (!ends || !has_out)
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    for (size_t i = 0; !r && i < x->n; ++i) {
        struct xnode *xn = &x->nodes[i];
        /* What the node waits for: the union of its dependencies' ends, or the entry. */
        struct span want = entry;
        if (xn->ndeps) {
            want.first = (uint32_t)lw->ndeps;
            for (size_t d = 0; d < xn->ndeps && !r; ++d) {
                has_out[xn->deps[d]] = true;
                struct span e = ends[xn->deps[d]];
                for (uint32_t k = 0; k < e.count && !r; ++k) {
                    uint32_t v = lw->deps[e.first + k];
                    bool seen = false;
                    for (uint32_t q = want.first; q < lw->ndeps; ++q)
                        seen |= lw->deps[q] == v;
                    if (!seen && !dep_push(lw, v))
                        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
                }
            }
            want.count = (uint32_t)(lw->ndeps - want.first);
        }
        if (r)
            break;
        size_t first = lw->n;
        if (!xn->enabled) {
            ends[i] = want;
            continue;
        }
        switch (xn->type) {
        case CU_GRAPH_NODE_TYPE_GRAPH: r = make_steps(fn, xn->child, c, want, &ends[i]); continue;
        case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
            /* Alive from a launch that has finished (its allocation was not freed in stream
             * order) is an error; a launch of this graph still queued or running may yet free
             * it in its own free node, as back-to-back launches in one stream do. */
            if (gmem_live(xn->np.mem) && !(x->flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH) &&
                atomic_load(&c->lw->x->enqueued) <= atomic_load(&c->lw->x->finished)) {
                r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the graph's allocation at 0x%llx is still alive from its last "
                         "launch: free it (cuMemFreeAsync, a free node) or instantiate with "
                         "CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH", fn,
                         (unsigned long long)gmem_address(xn->np.mem));
                break;
            }
            gmem_retain(xn->np.mem);
            if (!push(lw, (struct step){.kind = STEP_ALLOC, .mem = xn->np.mem})) {
                gmem_release(xn->np.mem);
                r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
            }
            break;
        case CU_GRAPH_NODE_TYPE_MEM_FREE:
            if (!push(lw, (struct step){.kind = STEP_FREE, .dptr = xn->np.p.free.dptr}))
                r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
            break;
        case CU_GRAPH_NODE_TYPE_CONDITIONAL: {
            /* Its value is read when the node runs; the default is set at the launch. */
            struct cond_value *v = (struct cond_value *)(uintptr_t)xn->np.p.conditional.handle;
            if (v->assign)
                atomic_store(&v->value, v->def);
            if (!push(lw, (struct step){.kind = STEP_CONDITIONAL, .cond = xn}))
                r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
            break;
        }
        default:
            target_sink_begin(&c->sink);
            r = make_node(xn);
            target_sink_end();
            if (!r)
                r = lw->error;
        }
        if (r)
            break;
        bool waits = xn->type == CU_GRAPH_NODE_TYPE_WAIT_EVENT || xn->type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT ||
                     xn->type == CU_GRAPH_NODE_TYPE_BATCH_MEM_OP;
        bool may_block = waits || xn->type == CU_GRAPH_NODE_TYPE_HOST;
        lw->waits |= waits && lw->n > first;
        for (size_t k = first; k < lw->n; ++k) {
            lw->steps[k].may_block = may_block;
            if (k == first) {
                lw->steps[k].deps = want;
            } else {
                lw->steps[k].deps.first = (uint32_t)lw->ndeps;
                lw->steps[k].deps.count = 1;
                if (!dep_push(lw, (uint32_t)(k - 1)))
                    r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
            }
        }
        if (lw->n > first) {
            ends[i].first = (uint32_t)lw->ndeps;
            ends[i].count = 1;
            if (!dep_push(lw, (uint32_t)(lw->n - 1)))
                r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
        } else {
            ends[i] = want; /* it made no step: what depends on it waits for what it waited for */
        }
    }
    if (!r) {
        exits->first = (uint32_t)lw->ndeps;
        for (size_t i = 0; !r && i < x->n; ++i)
            for (uint32_t k = 0; !has_out[i] && k < ends[i].count && !r; ++k)
                if (!dep_push(lw, lw->deps[ends[i].first + k]))
                    r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
        exits->count = (uint32_t)(lw->ndeps - exits->first);
        if (!x->n)
            *exits = entry;
    }
    if (!small) {
        free(ends);
        free(has_out);
    }
    return r;
}

static void run_steps(struct launch_work *lw, bool body);

/* A conditional node: its body (or bodies) made and run now, in the thread that runs the node,
 * as a launch of its own (the launch's own steps may be running on other threads). */
static void run_conditional(struct launch_work *lw, struct xnode *xn)
{
    const CUDA_CONDITIONAL_NODE_PARAMS *c = &xn->np.p.conditional;
    struct cond_value *v = (struct cond_value *)(uintptr_t)c->handle;
    for (unsigned int round = 0;; ++round) {
        uint32_t value = atomic_load(&v->value);
        int body = c->type == CU_GRAPH_COND_TYPE_IF ? (value ? 0 : c->size == 2 ? 1 : -1)
                 : c->type == CU_GRAPH_COND_TYPE_WHILE ? (value ? 0 : -1)
                 : (value < c->size ? (int)value : -1);
        if (body < 0 || (c->type != CU_GRAPH_COND_TYPE_WHILE && round))
            return;
        struct launch_work b = {.x = lw->x, .ctx = lw->ctx};
        struct collect col = {.sink = {.take = take, .ctx = lw->ctx}, .lw = &b};
        struct span none = {0, 0}, exits;
        bool ok = !make_steps("cuGraphLaunch", xn->bodies[body], &col, none, &exits) && !b.error;
        if (ok)
            run_steps(&b, true);
        else
            discard_steps(b.steps, b.n);
        free(b.steps);
        free(b.deps);
        if (!ok) {
            ctx_set_sticky(lw->ctx, CUDA_ERROR_LAUNCH_FAILED, "cuGraphLaunch: a conditional node's body could not be made");
            return;
        }
        if (c->type != CU_GRAPH_COND_TYPE_WHILE)
            return;
    }
}

static void run_one(struct launch_work *lw, struct step *s, bool body)
{
    switch (s->kind) {
    case STEP_WORK:
        if (s->w->queued && body) /* a body's work joins the order now */
            s->w->queued(s->w);
        s->w->run(s->w);
        break;
    case STEP_ALLOC:
        gmem_begin(s->mem, lw->x->flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH);
        gmem_release(s->mem);
        break;
    case STEP_FREE: gmem_end_address(s->dptr); break;
    case STEP_CONDITIONAL: run_conditional(lw, s->cond); break;
    }
}

/* Independent branches at once: the steps are handed out to the worker pool in their order,
 * each waiting for the steps it depends on (lower indices, handed out before it: the lowest step
 * not finished can always run, so the waits end). */
struct branches {
    struct pool_job job; /* first */
    struct launch_work *lw;
    atomic_uchar *done;
    bool body;
    os_mutex lock;
    os_cond cond;
    atomic_uint waiting; /* threads asleep on cond: a finished step wakes them only then */
};

static void run_branch_step(struct pool_job *job, uint64_t i)
{
    struct branches *p = (struct branches *)job;
    struct launch_work *lw = p->lw;
    struct span d = lw->steps[i].deps;
    for (uint32_t k = 0; k < d.count; ++k) {
        uint32_t dep = lw->deps[d.first + k];
        if (atomic_load(&p->done[dep]))
            continue;
        os_mutex_lock(&p->lock);
        while (!atomic_load(&p->done[dep])) {
            p->waiting++;
            os_cond_wait(&p->cond, &p->lock);
            p->waiting--;
        }
        os_mutex_unlock(&p->lock);
    }
    run_one(lw, &lw->steps[i], p->body);
    /* Sequentially consistent: a waiter counts itself before it looks at done[], so either it
     * sees the step done or this sees it waiting. */
    atomic_store(&p->done[i], 1);
    if (atomic_load(&p->waiting)) {
        os_mutex_lock(&p->lock);
        os_cond_broadcast(&p->cond);
        os_mutex_unlock(&p->lock);
    }
}

static void run_steps(struct launch_work *lw, bool body)
{
    /* Branches run at once when one of them may block (a host function, a wait), which would
     * hold the others back; kernels and copies spread over every core by themselves, and
     * handing tiny ones to the pool costs more than it gains (bench/README.md, graphs). */
    bool chain = true, may_block = false; /* every step after the one before: no branches */
    for (size_t i = 0; i < lw->n; ++i) {
        struct span d = lw->steps[i].deps;
        chain &= i == 0 ? d.count == 0 : d.count == 1 && lw->deps[d.first] == i - 1;
        may_block |= lw->steps[i].may_block;
    }
    atomic_uchar *done = chain || !may_block ? NULL : calloc(lw->n, sizeof(*done));
    if (!done) { /* in order, in this thread (or no memory to track branches) */
        for (size_t i = 0; i < lw->n; ++i)
            run_one(lw, &lw->steps[i], body);
        return;
    }
    struct branches p = {.job = {.run = run_branch_step, .count = lw->n}, .lw = lw, .done = done, .body = body};
    os_mutex_init(&p.lock);
    os_cond_init(&p.cond);
    pool_run(&p.job);
    os_cond_destroy(&p.cond);
    os_mutex_destroy(&p.lock);
    free(done);
}

static void launch_free(struct launch_work *lw)
{
    struct exec_graph *x = lw->x;
    struct arena *a = lw->arena;
    if (a) { /* kept for the next launch */
        a->steps = lw->steps;
        a->cap = lw->cap;
        a->deps = lw->deps;
        a->deps_cap = lw->deps_cap;
        arena_reset(a);
    } else {
        free(lw->steps);
        free(lw->deps);
    }
    /* Launches finish in the order they were made (each waits for the one before), so the
     * count only rises; sequentially consistent, as the waiters below count themselves first. */
    uint64_t seen = atomic_load(&x->finished);
    while (lw->seq > seen && !atomic_compare_exchange_weak(&x->finished, &seen, lw->seq))
        ; /* only rises: a launch discarded unrun (its stream destroyed) may end before the one before it */
    if (atomic_load(&x->waiters)) {
        os_mutex_lock(&x->lock);
        os_cond_broadcast(&x->cond);
        os_mutex_unlock(&x->lock);
    }
    bool own = !a; /* lw lives in its arena unless there was none */
    struct ctx *ctx = lw->ctx;
    if (a && (a = atomic_exchange(&x->spare, a))) { /* the common case takes no lock */
        os_mutex_lock(&x->lock);
        a->next = x->arenas;
        x->arenas = a;
        os_mutex_unlock(&x->lock);
    }
    ctx_release(ctx);
    if (own)
        free(lw);
    obj_release(&x->base); /* last: it may free x and its arenas */
}

static void launch_discard(struct work *w)
{
    struct launch_work *lw = (struct launch_work *)w;
    discard_steps(lw->steps, lw->n);
    launch_free(lw);
}

static void launch_queued(struct work *w)
{
    struct launch_work *lw = (struct launch_work *)w;
    /* Its place among the executable graph's launches is taken where it joins its stream's order
     * (under the lock that orders the queue): two launches on one stream wait for each other in
     * the order they will run. */
    lw->seq = atomic_fetch_add(&lw->x->launched, 1) + 1;
    for (size_t i = 0; i < lw->n; ++i)
        if (lw->steps[i].kind == STEP_WORK && lw->steps[i].w->queued)
            lw->steps[i].w->queued(lw->steps[i].w);
}

static void launch_run(struct work *w)
{
    struct launch_work *lw = (struct launch_work *)w;
    struct exec_graph *x = lw->x;
    /* The launch before it, on whichever stream, has finished. */
    if (atomic_load(&x->finished) + 1 < lw->seq) {
        os_mutex_lock(&x->lock);
        atomic_fetch_add(&x->waiters, 1);
        while (atomic_load(&x->finished) + 1 < lw->seq)
            os_cond_wait(&x->cond, &x->lock);
        atomic_fetch_sub(&x->waiters, 1);
        os_mutex_unlock(&x->lock);
    }
    if (!atomic_load(&lw->ctx->sticky))
        run_steps(lw, false);
    else
        discard_steps(lw->steps, lw->n);
    launch_free(lw);
}

CUresult exec_make_work(const char *fn, struct exec_graph *x, struct ctx *ctx, struct work **out)
{
    /* The memory of a finished launch, else of an earlier one, else new. */
    struct arena *a = atomic_exchange(&x->spare, NULL);
    if (!a) {
        os_mutex_lock(&x->lock);
        if ((a = x->arenas))
            x->arenas = a->next;
        os_mutex_unlock(&x->lock);
    }
    if (!a)
        a = calloc(1, sizeof(*a)); /* none: the launch and its kernels' work are allocated one by one */
    struct launch_work *lw = a ? &a->lw_storage : calloc(1, sizeof(*lw));
    if (!lw)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    memset(lw, 0, sizeof(*lw));
    obj_retain(&x->base);
    lw->x = x;
    obj_retain(&ctx->base);
    lw->ctx = ctx;
    lw->w.run = launch_run;
    lw->w.discard = launch_discard;
    lw->w.queued = launch_queued;
    if ((lw->arena = a)) {
        lw->steps = a->steps;
        lw->cap = a->cap;
        lw->deps = a->deps;
        lw->deps_cap = a->deps_cap;
        a->steps = NULL;
        a->deps = NULL;
    }
    struct collect c = {.sink = {.take = take, .ctx = ctx, .alloc = sink_alloc}, .lw = lw};
    graph_lock();
    struct span none = {0, 0}, exits;
    CUresult r = make_steps(fn, x, &c, none, &exits);
    graph_unlock();
    if (r) {
        discard_steps(lw->steps, lw->n);
        lw->n = 0;
        launch_free(lw); /* as a launch that ran: its arena goes back */
        return r;
    }
    *out = &lw->w;
    return CUDA_SUCCESS;
}

static CUresult launch(const char *fn, CUgraphExec hGraphExec, CUstream hStream)
{
    REQUIRE_INIT(fn);
    struct exec_graph *x = NULL;
    CUresult r = exec_lookup(fn, hGraphExec, &x);
    if (r)
        return r;
    struct target t;
    if ((r = target_get(fn, hStream, &t))) {
        obj_release(&x->base);
        return r;
    }
    if (t.capture) { /* the driver refuses it and invalidates the capture */
        r = capture_check_unsafe(fn, t.s ? t.s : CAPTURE_ANY);
        if (!r)
            r = fail(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "%s: a graph launch cannot be captured", fn);
    } else {
        struct work *w;
        if (!(r = exec_make_work(fn, x, t.ctx, &w))) {
            /* A launch that may wait for another party never holds the caller, on the default
             * streams too: it goes where a wait on them goes (target_defer, stream.c). */
            r = ((struct launch_work *)w)->waits ? target_defer(&t, w) : target_submit(&t, w);
            if (!r)
                atomic_fetch_add(&x->enqueued, 1); /* make_steps' check of graph memory counts it */
        }
    }
    target_put(&t);
    obj_release(&x->base);
    return r;
}

CUresult CUDAAPI cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
{
    return launch("cuGraphLaunch", hGraphExec, hStream);
}

/* An upload prepares a launch: the software device has nothing to move, so it is ordered work
 * that checks the graph can be launched (what it would do wrong, it does wrong now). */
CUresult CUDAAPI cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream)
{
    const char *fn = "cuGraphUpload";
    REQUIRE_INIT(fn);
    struct exec_graph *x = NULL;
    CUresult r = exec_lookup(fn, hGraphExec, &x);
    if (r)
        return r;
    struct target t;
    if (!(r = target_get(fn, hStream, &t))) {
        if (t.capture)
            r = fail(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "%s: an upload cannot be captured", fn);
        else {
            struct work *w;
            if (!(r = exec_make_work(fn, x, t.ctx, &w)))
                w->discard(w);
        }
        target_put(&t);
    }
    obj_release(&x->base);
    return r;
}

EXTMEM_API CUresult CUDAAPI cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuGraphUpload_ptsz(CUgraphExec hGraphExec, CUstream hStream);
CUresult CUDAAPI cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
    return launch("cuGraphLaunch", hGraphExec, hStream ? hStream : CU_STREAM_PER_THREAD);
}
CUresult CUDAAPI cuGraphUpload_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
    return cuGraphUpload(hGraphExec, hStream ? hStream : CU_STREAM_PER_THREAD);
}
