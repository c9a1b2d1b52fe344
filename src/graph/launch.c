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
struct step {
    enum step_kind kind;
    struct work *w;          /* STEP_WORK */
    struct gmem *mem;        /* STEP_ALLOC: a reference */
    CUdeviceptr dptr;        /* STEP_FREE */
    struct xnode *cond;      /* STEP_CONDITIONAL */
};

struct launch_work {
    struct work w;
    struct exec_graph *x;    /* a reference */
    struct ctx *ctx;         /* a reference */
    uint64_t seq;            /* its place among x's launches */
    struct step *steps;
    size_t n, cap;
    CUresult error;          /* while the work is made */
};

struct collect {
    struct work_sink sink;
    struct launch_work *lw;
};

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

/* Appends the steps of x (a child's schedule is inlined where its node is). */
static CUresult make_steps(const char *fn, struct exec_graph *x, struct collect *c)
{
    struct launch_work *lw = c->lw;
    for (size_t i = 0; i < x->n; ++i) {
        struct xnode *xn = &x->nodes[i];
        CUresult r = CUDA_SUCCESS;
        if (!xn->enabled)
            continue;
        switch (xn->type) {
        case CU_GRAPH_NODE_TYPE_GRAPH: r = make_steps(fn, xn->child, c); break;
        case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
            if (gmem_live(xn->np.mem) && !(x->flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH)) {
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
            return r;
    }
    return CUDA_SUCCESS;
}

static void run_steps(struct launch_work *lw, size_t from, size_t to);

/* A conditional node: its body (or bodies) made and run now, in the stream's thread. */
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
        size_t first = lw->n;
        struct collect col = {.sink = {.take = take, .ctx = lw->ctx}, .lw = lw};
        if (make_steps("cuGraphLaunch", xn->bodies[body], &col) || lw->error) {
            discard_steps(&lw->steps[first], lw->n - first);
            lw->n = first;
            ctx_set_sticky(lw->ctx, CUDA_ERROR_LAUNCH_FAILED, "cuGraphLaunch: a conditional node's body could not be made");
            return;
        }
        run_steps(lw, first, lw->n);
        lw->n = first;
        if (c->type != CU_GRAPH_COND_TYPE_WHILE)
            return;
    }
}

static void run_steps(struct launch_work *lw, size_t from, size_t to)
{
    for (size_t i = from; i < to; ++i) {
        struct step s = lw->steps[i]; /* a conditional's body may move the array */
        switch (s.kind) {
        case STEP_WORK:
            if (s.w->queued && from) /* a body's work joins the order now */
                s.w->queued(s.w);
            s.w->run(s.w);
            break;
        case STEP_ALLOC:
            gmem_begin(s.mem, lw->x->flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH);
            gmem_release(s.mem);
            break;
        case STEP_FREE: gmem_end_address(s.dptr); break;
        case STEP_CONDITIONAL: run_conditional(lw, s.cond); break;
        }
    }
}

static void launch_free(struct launch_work *lw)
{
    struct exec_graph *x = lw->x;
    os_mutex_lock(&x->lock);
    if (x->finished < lw->seq)
        x->finished = lw->seq;
    os_cond_broadcast(&x->cond);
    os_mutex_unlock(&x->lock);
    free(lw->steps);
    ctx_release(lw->ctx);
    obj_release(&x->base);
    free(lw);
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
    for (size_t i = 0; i < lw->n; ++i)
        if (lw->steps[i].kind == STEP_WORK && lw->steps[i].w->queued)
            lw->steps[i].w->queued(lw->steps[i].w);
}

static void launch_run(struct work *w)
{
    struct launch_work *lw = (struct launch_work *)w;
    struct exec_graph *x = lw->x;
    /* The launch before it, on whichever stream, has finished. */
    os_mutex_lock(&x->lock);
    while (x->finished + 1 < lw->seq)
        os_cond_wait(&x->cond, &x->lock);
    os_mutex_unlock(&x->lock);
    if (!atomic_load(&lw->ctx->sticky))
        run_steps(lw, 0, lw->n);
    else
        discard_steps(lw->steps, lw->n);
    launch_free(lw);
}

CUresult exec_make_work(const char *fn, struct exec_graph *x, struct ctx *ctx, struct work **out)
{
    struct launch_work *lw = calloc(1, sizeof(*lw));
    if (!lw)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    obj_retain(&x->base);
    lw->x = x;
    obj_retain(&ctx->base);
    lw->ctx = ctx;
    lw->w.run = launch_run;
    lw->w.discard = launch_discard;
    lw->w.queued = launch_queued;
    struct collect c = {.sink = {.take = take, .ctx = ctx}, .lw = lw};
    graph_lock();
    CUresult r = make_steps(fn, x, &c);
    graph_unlock();
    if (r) {
        discard_steps(lw->steps, lw->n);
        free(lw->steps);
        ctx_release(ctx);
        obj_release(&x->base);
        free(lw);
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
            os_mutex_lock(&x->lock);
            ((struct launch_work *)w)->seq = ++x->launched;
            os_mutex_unlock(&x->lock);
            r = target_submit(&t, w);
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
