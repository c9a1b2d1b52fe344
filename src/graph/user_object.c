/*
 * src/graph/user_object.c: user objects (a destructor run once the program and every graph
 * holding the object have let it go) and cuGraphDebugDotPrint.
 */
#include "graph/graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void user_destroy_obj(struct obj *o) { free(o); }

/* The destructor runs in a thread of its own, never in the caller's: the driver runs it
 * asynchronously (NO_DESTRUCTOR_SYNC), and a destructor may call CUDA. */
static void run_destructor(void *arg)
{
    struct user_object *u = arg;
    u->destroy(u->ptr);
    obj_unregister(&u->base);
}

void user_object_drop(struct user_object *u, unsigned int count)
{
    unsigned int before = atomic_load(&u->refs);
    unsigned int after;
    do {
        after = before > count ? before - count : 0;
    } while (!atomic_compare_exchange_weak(&u->refs, &before, after));
    if (before && !after) {
        /* After the work queued so far on the context's streams (a launch of a graph that held
         * it may still run): in the stream worker that finishes last, or here when all are idle. */
        struct ctx *ctx = NULL;
        if (device_thread() || ctx_current("cuUserObjectRelease", &ctx) != CUDA_SUCCESS || !ctx) {
            run_destructor(u);
            return;
        }
        streams_when_done(ctx, run_destructor, u);
        ctx_release(ctx);
    }
}

static CUresult user_lookup(const char *fn, CUuserObject h, struct user_object **out)
{
    struct obj *o;
    obj_status st = obj_lookup((uint64_t)(uintptr_t)h, OBJ_USER_OBJECT, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: object %s", fn, obj_status_text(st, OBJ_USER_OBJECT, (uint64_t)(uintptr_t)h));
    *out = (struct user_object *)o;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuUserObjectCreate(CUuserObject *object_out, void *ptr, CUhostFn destroy, unsigned int initialRefcount,
                                    unsigned int flags)
{
    const char *fn = "cuUserObjectCreate";
    REQUIRE_INIT(fn);
    if (!object_out || !destroy)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: object_out or destroy is NULL", fn);
    if (flags != CU_USER_OBJECT_NO_DESTRUCTOR_SYNC)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x: CU_USER_OBJECT_NO_DESTRUCTOR_SYNC is required", fn, flags);
    if (!initialRefcount)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: initialRefcount is 0", fn);
    struct user_object *u = calloc(1, sizeof(*u));
    if (!u)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    u->ptr = ptr;
    u->destroy = destroy;
    atomic_store(&u->refs, initialRefcount);
    if (!obj_register(&u->base, OBJ_USER_OBJECT, user_destroy_obj)) {
        free(u);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of handles", fn);
    }
    *object_out = (CUuserObject)(uintptr_t)u->base.handle;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuUserObjectRetain(CUuserObject object, unsigned int count)
{
    const char *fn = "cuUserObjectRetain";
    REQUIRE_INIT(fn);
    if (!count)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: count is 0", fn);
    struct user_object *u = NULL;
    CUresult r = user_lookup(fn, object, &u);
    if (r)
        return r;
    atomic_fetch_add(&u->refs, count);
    obj_release(&u->base);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuUserObjectRelease(CUuserObject object, unsigned int count)
{
    const char *fn = "cuUserObjectRelease";
    REQUIRE_INIT(fn);
    if (!count)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: count is 0", fn);
    struct user_object *u = NULL;
    CUresult r = user_lookup(fn, object, &u);
    if (r)
        return r;
    user_object_drop(u, count);
    obj_release(&u->base);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphRetainUserObject(CUgraph graph, CUuserObject object, unsigned int count, unsigned int flags)
{
    const char *fn = "cuGraphRetainUserObject";
    REQUIRE_INIT(fn);
    if (!count)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: count is 0", fn);
    if (flags & ~(unsigned int)CU_GRAPH_USER_OBJECT_MOVE)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x: only CU_GRAPH_USER_OBJECT_MOVE is defined", fn, flags);
    struct graph *g = NULL;
    CUresult r = graph_lookup(fn, graph, &g);
    if (r)
        return r;
    struct user_object *u = NULL;
    if ((r = user_lookup(fn, object, &u))) {
        obj_release(&g->base);
        return r;
    }
    graph_lock();
    struct user_ref *ref = g->users;
    while (ref && ref->u != u)
        ref = ref->next;
    if (!ref && (ref = calloc(1, sizeof(*ref)))) {
        obj_retain(&u->base);
        ref->u = u;
        ref->next = g->users;
        g->users = ref;
    }
    if (!ref)
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    else {
        ref->count += count;
        if (!(flags & CU_GRAPH_USER_OBJECT_MOVE))
            atomic_fetch_add(&u->refs, count);
    }
    graph_unlock();
    obj_release(&u->base);
    obj_release(&g->base);
    return r;
}

CUresult CUDAAPI cuGraphReleaseUserObject(CUgraph graph, CUuserObject object, unsigned int count)
{
    const char *fn = "cuGraphReleaseUserObject";
    REQUIRE_INIT(fn);
    if (!count)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: count is 0", fn);
    struct graph *g = NULL;
    CUresult r = graph_lookup(fn, graph, &g);
    if (r)
        return r;
    struct user_object *u = NULL;
    if ((r = user_lookup(fn, object, &u))) {
        obj_release(&g->base);
        return r;
    }
    graph_lock();
    unsigned int drop = 0;
    for (struct user_ref **it = &g->users; *it; it = &(*it)->next)
        if ((*it)->u == u) {
            struct user_ref *ref = *it;
            /* Releasing more than the graph holds is not an error on the driver: it drops what it has. */
            drop = count < ref->count ? count : ref->count;
            ref->count -= drop;
            if (!ref->count) {
                *it = ref->next;
                obj_release(&u->base);
                free(ref);
            }
            break;
        }
    graph_unlock();
    if (drop)
        user_object_drop(u, drop);
    obj_release(&u->base);
    obj_release(&g->base);
    return CUDA_SUCCESS;
}

/* ---- cuGraphDebugDotPrint: the driver's layout (the .dot files in docs/probes/graphs) ---- */

static const char *type_name(CUgraphNodeType t)
{
    static const char *const names[] = {"KERNEL", "MEMCPY", "MEMSET", "HOST", "GRAPH", "EMPTY", "WAIT_EVENT",
                                        "EVENT_RECORD", "EXT_SEMAS_SIGNAL", "EXT_SEMAS_WAIT", "MEM_ALLOC", "MEM_FREE",
                                        "BATCH_MEM_OP", "CONDITIONAL"};
    return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "UNKNOWN";
}

static void dot_graph(FILE *f, struct graph *g, unsigned int *cluster, bool verbose)
{
    unsigned int id = (*cluster)++;
    fprintf(f, "subgraph cluster_%u {\nlabel=\"graph_%u\" graph[style=\"dashed\"];\n", id, id);
    size_t i = 0;
    for (struct list_node *it = g->nodes.next; it != &g->nodes; it = it->next, ++i) {
        struct node *n = list_entry(it, struct node, graph_node);
        n->index = i;
        fprintf(f, "\"graph_%u_node_%zu\"[label=\"%s\\nid=%zu", id, i, type_name(n->np.p.type), i);
        if (verbose && n->np.p.type == CU_GRAPH_NODE_TYPE_MEMSET)
            fprintf(f, "\\ndst=0x%llx elementSize=%u width=%zu height=%zu value=%u",
                    (unsigned long long)n->np.p.memset.dst, n->np.p.memset.elementSize, n->np.p.memset.width,
                    n->np.p.memset.height, n->np.p.memset.value);
        if (verbose && n->np.p.type == CU_GRAPH_NODE_TYPE_KERNEL)
            fprintf(f, "\\ngrid=(%u,%u,%u) block=(%u,%u,%u) shared=%u", n->np.p.kernel.gridDimX,
                    n->np.p.kernel.gridDimY, n->np.p.kernel.gridDimZ, n->np.p.kernel.blockDimX,
                    n->np.p.kernel.blockDimY, n->np.p.kernel.blockDimZ, n->np.p.kernel.sharedMemBytes);
        fprintf(f, "\"];\n");
    }
    for (struct list_node *it = g->nodes.next; it != &g->nodes; it = it->next) {
        struct node *n = list_entry(it, struct node, graph_node);
        for (size_t e = 0; e < n->outs.n; ++e)
            fprintf(f, "\"graph_%u_node_%zu\" -> \"graph_%u_node_%zu\";\n", id, n->index, id, n->outs.v[e].node->index);
    }
    fprintf(f, "}\n");
    for (struct list_node *it = g->nodes.next; it != &g->nodes; it = it->next) {
        struct node *n = list_entry(it, struct node, graph_node);
        if (n->np.child)
            dot_graph(f, n->np.child, cluster, verbose);
        for (unsigned int b = 0; n->np.bodies && b < n->np.p.conditional.size; ++b)
            dot_graph(f, n->np.bodies[b], cluster, verbose);
    }
}

CUresult CUDAAPI cuGraphDebugDotPrint(CUgraph hGraph, const char *path, unsigned int flags)
{
    const char *fn = "cuGraphDebugDotPrint";
    REQUIRE_INIT(fn);
    if (!path)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: path is NULL", fn);
    struct graph *g = NULL;
    CUresult r = graph_lookup(fn, hGraph, &g);
    if (r)
        return r;
    FILE *f = fopen(path, "w");
    if (!f) {
        obj_release(&g->base);
        return fail(CUDA_ERROR_OPERATING_SYSTEM, "%s: %s cannot be written", fn, path);
    }
    fprintf(f, "digraph dot {\n");
    unsigned int cluster = 0;
    graph_lock();
    dot_graph(f, g, &cluster, flags & CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE);
    graph_unlock();
    fprintf(f, "}\n");
    if (fclose(f))
        r = fail(CUDA_ERROR_OPERATING_SYSTEM, "%s: writing %s failed", fn, path);
    obj_release(&g->base);
    return r;
}
