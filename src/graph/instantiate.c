/*
 * src/graph/instantiate.c: executable graphs: instantiation (a schedule: the nodes in a
 * topological order, each with its own copy of its parameters), their flags, updates (the whole
 * graph, or one node's parameters) and destruction (docs/graphs.md).
 */
#include "graph/graph.h"

#include <stdlib.h>
#include <string.h>

static void exec_destroy_obj(struct obj *o)
{
    struct exec_graph *x = (struct exec_graph *)o;
    for (size_t i = 0; i < x->n; ++i) {
        struct xnode *xn = &x->nodes[i];
        if (xn->child)
            exec_free(xn->child);
        for (unsigned int b = 0; xn->bodies && b < xn->np.p.conditional.size; ++b)
            if (xn->bodies[b])
                exec_free(xn->bodies[b]);
        free(xn->bodies);
        free(xn->deps);
        node_params_free(&xn->np);
    }
    free(x->nodes);
    exec_arenas_free(x);
    if (x->source) {
        graph_lock();
        x->source->execs--;
        graph_unlock();
        obj_release(&x->source->base);
    }
    if (x->ctx)
        ctx_release(x->ctx);
    os_cond_destroy(&x->cond);
    os_mutex_destroy(&x->lock);
    free(x);
}

void exec_free(struct exec_graph *x)
{
    if (x->base.handle)
        obj_unregister(&x->base); /* the last reference (a running launch's) frees it */
    else
        exec_destroy_obj(&x->base);
}

CUresult exec_lookup(const char *fn, CUgraphExec h, struct exec_graph **out)
{
    struct obj *o;
    obj_status st = obj_lookup((uint64_t)(uintptr_t)h, OBJ_GRAPH_EXEC, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: hGraphExec %s", fn,
                    obj_status_text(st, OBJ_GRAPH_EXEC, (uint64_t)(uintptr_t)h));
    *out = (struct exec_graph *)o;
    return CUDA_SUCCESS;
}

/* g's nodes in a topological order (Kahn's, ties in creation order); false on a cycle. The
 * nodes' `index` is their place in the order. */
static bool topo_order(struct graph *g, struct node **order)
{
    size_t n = 0, head = 0;
    for (struct list_node *it = g->nodes.next; it != &g->nodes; it = it->next) {
        struct node *v = list_entry(it, struct node, graph_node);
        v->index = v->deps.n; /* edges still to come */
        if (!v->deps.n)
            order[n++] = v;
    }
    while (head < n) {
        struct node *v = order[head++];
        for (size_t e = 0; e < v->outs.n; ++e)
            if (--v->outs.v[e].node->index == 0)
                order[n++] = v->outs.v[e].node;
    }
    for (size_t i = 0; i < n; ++i)
        order[i]->index = i;
    return n == g->nnodes;
}

static struct node *body_refused(struct graph *g);

CUresult exec_build_locked(const char *fn, struct graph *g, struct ctx *ctx, uint64_t flags, struct node **err_node,
                           CUgraphInstantiateResult *result, struct exec_graph **out)
{
    *result = CUDA_GRAPH_INSTANTIATE_ERROR;
    struct exec_graph *x = calloc(1, sizeof(*x));
    struct node **order = calloc(g->nnodes + 1, sizeof(*order));
    if (!x || !order || (g->nnodes && !(x->nodes = calloc(g->nnodes, sizeof(*x->nodes))))) {
        free(order);
        if (x)
            free(x->nodes);
        free(x);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    os_mutex_init(&x->lock);
    os_cond_init(&x->cond);
    x->flags = flags;
    obj_retain(&ctx->base);
    x->ctx = ctx;
    CUresult r = CUDA_SUCCESS;
    if (!topo_order(g, order)) {
        *result = CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE;
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the graph has a cycle", fn);
    }
    for (size_t i = 0; !r && i < g->nnodes; ++i) {
        struct node *v = order[i];
        struct xnode *xn = &x->nodes[i];
        xn->type = v->np.p.type;
        xn->node = v->base.handle;
        xn->origin = v->origin;
        xn->seq = v->seq;
        xn->enabled = true;
        if ((r = node_params_dup(fn, &v->np, &xn->np))) {
            *err_node = v;
            break;
        }
        x->n = i + 1;
        if (v->deps.n && !(xn->deps = malloc(v->deps.n * sizeof(*xn->deps)))) {
            r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
            break;
        }
        for (size_t e = 0; e < v->deps.n; ++e)
            xn->deps[e] = v->deps.v[e].node->index;
        xn->ndeps = v->deps.n;
        if (xn->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC)
            x->has_alloc = true;
        if (xn->type == CU_GRAPH_NODE_TYPE_GRAPH) {
            CUgraphInstantiateResult sub;
            if ((r = exec_build_locked(fn, v->np.child, ctx, flags, err_node, &sub, &xn->child))) {
                *result = sub;
                break;
            }
            /* The child's copy of the graph changed order indices: restore ours. */
            topo_order(g, order);
        } else if (xn->type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
            unsigned int nb = v->np.p.conditional.size;
            if (!(xn->bodies = calloc(nb, sizeof(*xn->bodies)))) {
                r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
                break;
            }
            for (unsigned int b = 0; !r && b < nb; ++b) {
                struct node *bad = body_refused(v->np.bodies[b]);
                if (bad) {
                    *err_node = bad;
                    *result = CUDA_GRAPH_INSTANTIATE_NODE_OPERATION_NOT_SUPPORTED;
                    r = fail(CUDA_ERROR_INVALID_VALUE, "%s: a conditional node's body has a node of type %d: bodies "
                             "have kernel, empty, memset, memcpy, child graph and conditional nodes", fn,
                             (int)bad->np.p.type);
                    break;
                }
                CUgraphInstantiateResult sub;
                if ((r = exec_build_locked(fn, v->np.bodies[b], ctx, flags, err_node, &sub, &xn->bodies[b])))
                    *result = sub;
            }
            topo_order(g, order);
        }
    }
    free(order);
    if (r) {
        exec_destroy_obj(&x->base);
        return r;
    }
    *result = CUDA_GRAPH_INSTANTIATE_SUCCESS;
    *out = x;
    return CUDA_SUCCESS;
}

/* Every launch's work is made once here and dropped: what would fail at a launch (a freed
 * buffer, a function of an unloaded module) fails the instantiation instead, as on the driver. */
static CUresult dry_run(const char *fn, struct exec_graph *x)
{
    struct work *w;
    CUresult r = exec_make_work(fn, x, x->ctx, &w);
    if (!r)
        w->discard(w);
    return r;
}

/* A conditional's body: the node types it may have, recursively (graph_lock held). */
static struct node *body_refused(struct graph *g)
{
    for (struct list_node *it = g->nodes.next; it != &g->nodes; it = it->next) {
        struct node *n = list_entry(it, struct node, graph_node);
        switch (n->np.p.type) {
        case CU_GRAPH_NODE_TYPE_KERNEL:
        case CU_GRAPH_NODE_TYPE_EMPTY:
        case CU_GRAPH_NODE_TYPE_MEMSET:
        case CU_GRAPH_NODE_TYPE_MEMCPY: break;
        case CU_GRAPH_NODE_TYPE_GRAPH: {
            struct node *bad = body_refused(n->np.child);
            if (bad)
                return bad;
            break;
        }
        case CU_GRAPH_NODE_TYPE_CONDITIONAL:
            for (unsigned int b = 0; b < n->np.p.conditional.size; ++b) {
                struct node *bad = body_refused(n->np.bodies[b]);
                if (bad)
                    return bad;
            }
            break;
        default: return n;
        }
    }
    return NULL;
}

/* A handle of g that no conditional node of g uses (graph_lock held). */
static bool handle_unused(struct graph *g)
{
    for (size_t h = 0; h < g->nhandles; ++h) {
        bool used = false;
        for (struct list_node *it = g->nodes.next; it != &g->nodes && !used; it = it->next) {
            struct node *n = list_entry(it, struct node, graph_node);
            used = n->np.p.type == CU_GRAPH_NODE_TYPE_CONDITIONAL && n->np.p.conditional.handle == g->handles[h];
        }
        if (!used)
            return true;
    }
    return false;
}

/* DEVICE_LAUNCH: the node types a graph launched from a kernel may have (graph_lock held). */
static struct node *device_launch_refused(struct graph *g)
{
    for (struct list_node *it = g->nodes.next; it != &g->nodes; it = it->next) {
        struct node *n = list_entry(it, struct node, graph_node);
        CUgraphNodeType t = n->np.p.type;
        if (t != CU_GRAPH_NODE_TYPE_KERNEL && t != CU_GRAPH_NODE_TYPE_MEMCPY && t != CU_GRAPH_NODE_TYPE_MEMSET &&
            t != CU_GRAPH_NODE_TYPE_EMPTY)
            return n;
    }
    return NULL;
}

static CUresult instantiate(const char *fn, CUgraphExec *phGraphExec, CUgraph hGraph, uint64_t flags,
                            CUgraphNode *err_out, CUgraphInstantiateResult *result_out, CUstream upload)
{
    REQUIRE_INIT(fn);
    CUgraphInstantiateResult result = CUDA_GRAPH_INSTANTIATE_ERROR;
    if (result_out)
        *result_out = result;
    if (err_out)
        *err_out = NULL;
    if (!phGraphExec)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: phGraphExec is NULL", fn);
    const uint64_t known = CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH | CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD |
                           CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH | CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY;
    if (flags & ~known)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%llx has bits that are no CUDA_GRAPH_INSTANTIATE_FLAG_*", fn,
                    (unsigned long long)flags);
    /* The driver's combinations: an upload needs an upload stream (cuGraphInstantiateWithParams);
     * a graph launched from kernels frees nothing on its own. */
    if ((flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD) && !result_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD is for "
                    "cuGraphInstantiateWithParams, which names the upload stream", fn);
    if ((flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH) && (flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: DEVICE_LAUNCH and AUTO_FREE_ON_LAUNCH cannot be combined", fn);
    struct graph *g = NULL;
    CUresult r = graph_lookup(fn, hGraph, &g);
    if (r)
        return r;
    struct ctx *ctx = NULL;
    if ((r = ctx_current(fn, &ctx))) {
        obj_release(&g->base);
        return r;
    }
    struct exec_graph *x = NULL;
    struct node *err = NULL;
    graph_lock();
    if (g->conditionals && g->execs)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: a graph with conditional nodes may have one executable graph at a "
                 "time", fn);
    else if (handle_unused(g)) {
        result = CUDA_GRAPH_INSTANTIATE_CONDITIONAL_HANDLE_UNUSED;
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: a conditional handle of the graph serves no conditional node", fn);
    } else if ((flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH) && (err = device_launch_refused(g))) {
        result = CUDA_GRAPH_INSTANTIATE_NODE_OPERATION_NOT_SUPPORTED;
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: a graph for device launch has only kernel, memcpy, memset and empty "
                 "nodes, and this one has a node of type %d", fn, (int)err->np.p.type);
    } else if (g->mem_nodes && g->execs)
        r = fail(CUDA_ERROR_NOT_SUPPORTED, "%s: a graph with memory nodes may have one executable graph at a time "
                 "(destroy the other first)", fn);
    else
        r = exec_build_locked(fn, g, ctx, flags, &err, &result, &x);
    if (!r) {
        g->instantiated = true;
        g->execs++;
        obj_retain(&g->base);
        x->source = g;
    }
    if (err && err_out)
        *err_out = node_handle(err);
    graph_unlock();
    if (!r && !obj_register(&x->base, OBJ_GRAPH_EXEC, exec_destroy_obj)) {
        exec_destroy_obj(&x->base);
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of handles", fn);
    } else if (!r && (r = dry_run(fn, x))) {
        obj_unregister(&x->base);
    }
    if (!r) {
        *phGraphExec = (CUgraphExec)(uintptr_t)x->base.handle;
        result = CUDA_GRAPH_INSTANTIATE_SUCCESS;
        if (flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD)
            r = cuGraphUpload(*phGraphExec, upload);
    }
    if (result_out)
        *result_out = result;
    ctx_release(ctx);
    obj_release(&g->base);
    return r;
}

CUresult CUDAAPI cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags)
{
    return instantiate("cuGraphInstantiateWithFlags", phGraphExec, hGraph, flags, NULL, NULL, NULL);
}

CUresult CUDAAPI cuGraphInstantiateWithParams(CUgraphExec *phGraphExec, CUgraph hGraph,
                                              CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
    const char *fn = "cuGraphInstantiateWithParams";
    if (!instantiateParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: instantiateParams is NULL", fn);
    return instantiate(fn, phGraphExec, hGraph, instantiateParams->flags, &instantiateParams->hErrNode_out,
                       &instantiateParams->result_out, instantiateParams->hUploadStream);
}

/* The CUDA 10 form, exported as cuGraphInstantiate and cuGraphInstantiate_v2: an error node and
 * a log instead of flags. */
#undef cuGraphInstantiate
EXTMEM_API CUresult CUDAAPI cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                                               char *logBuffer, size_t bufferSize);
EXTMEM_API CUresult CUDAAPI cuGraphInstantiate_v2(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                                                  char *logBuffer, size_t bufferSize);
EXTMEM_API CUresult CUDAAPI cuGraphInstantiateWithParams_ptsz(CUgraphExec *phGraphExec, CUgraph hGraph,
                                                              CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams);
CUresult CUDAAPI cuGraphInstantiate_v2(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                                       char *logBuffer, size_t bufferSize)
{
    CUresult r = instantiate("cuGraphInstantiate", phGraphExec, hGraph, 0, phErrorNode, NULL, NULL);
    if (logBuffer && bufferSize) {
        const char *why = r ? extmem_error_detail() : "";
        size_t n = strlen(why);
        if (n >= bufferSize)
            n = bufferSize - 1;
        memcpy(logBuffer, why, n);
        logBuffer[n] = 0;
    }
    return r;
}
CUresult CUDAAPI cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                                    char *logBuffer, size_t bufferSize)
{
    return cuGraphInstantiate_v2(phGraphExec, hGraph, phErrorNode, logBuffer, bufferSize);
}
CUresult CUDAAPI cuGraphInstantiateWithParams_ptsz(CUgraphExec *phGraphExec, CUgraph hGraph,
                                                   CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
    if (instantiateParams)
        instantiateParams->hUploadStream = instantiateParams->hUploadStream ? instantiateParams->hUploadStream
                                                                            : CU_STREAM_PER_THREAD;
    return cuGraphInstantiateWithParams(phGraphExec, hGraph, instantiateParams);
}

CUresult CUDAAPI cuGraphExecGetFlags(CUgraphExec hGraphExec, cuuint64_t *flags)
{
    const char *fn = "cuGraphExecGetFlags";
    REQUIRE_INIT(fn);
    if (!flags)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags is NULL", fn);
    struct exec_graph *x = NULL;
    CUresult r = exec_lookup(fn, hGraphExec, &x);
    if (r)
        return r;
    /* As the driver answers: the flags that change what a launch does, not UPLOAD or USE_NODE_PRIORITY. */
    *flags = x->flags & ~(cuuint64_t)(CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY | CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD);
    obj_release(&x->base);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec hGraphExec)
{
    const char *fn = "cuGraphExecDestroy";
    REQUIRE_INIT(fn);
    struct exec_graph *x = NULL;
    CUresult r = exec_lookup(fn, hGraphExec, &x);
    if (r)
        return r;
    /* A launch still queued or running holds a reference: it completes, and frees what is left. */
    obj_unregister(&x->base);
    obj_release(&x->base);
    return CUDA_SUCCESS;
}

/* ---- Changing an executable graph ---- */

/* The executable graph's node made from hNode (graph_lock held), or NULL. */
static struct xnode *xnode_find(struct exec_graph *x, uint64_t node)
{
    for (size_t i = 0; i < x->n; ++i)
        if (x->nodes[i].node == node || x->nodes[i].origin == node)
            return &x->nodes[i];
    return NULL;
}

CUresult exec_node_set(const char *fn, CUgraphExec hGraphExec, CUgraphNode hNode, CUgraphNodeParams *p)
{
    REQUIRE_INIT(fn);
    struct exec_graph *x = NULL;
    CUresult r = exec_lookup(fn, hGraphExec, &x);
    if (r)
        return r;
    struct node *n = NULL;
    if ((r = node_lookup(fn, hNode, &n))) {
        obj_release(&x->base);
        return r;
    }
    struct node_params np;
    graph_lock();
    struct xnode *xn = xnode_find(x, n->base.handle);
    if (!xn)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the node is not one the executable graph was made from", fn);
    else if (xn->type != p->type)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the node is of type %d, the parameters of type %d", fn, (int)xn->type,
                 (int)p->type);
    else if (p->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || p->type == CU_GRAPH_NODE_TYPE_MEM_FREE ||
             p->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: a node of type %d cannot be changed in an executable graph", fn,
                 (int)p->type);
    if (!r && !(r = node_params_copy(fn, x->ctx, n->g, p, &np))) {
        if (p->type == CU_GRAPH_NODE_TYPE_GRAPH) {
            struct exec_graph *child = NULL;
            CUgraphInstantiateResult res;
            struct node *err = NULL;
            if ((r = exec_build_locked(fn, np.child, x->ctx, x->flags, &err, &res, &child))) {
                node_params_free(&np);
            } else if (child->n != xn->child->n) {
                exec_free(child);
                node_params_free(&np);
                r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the new child graph's topology differs from the old one's", fn);
            } else {
                exec_free(xn->child);
                xn->child = child;
            }
        }
        if (!r) {
            node_params_free(&xn->np);
            xn->np = np;
        }
    }
    graph_unlock();
    obj_release(&n->base);
    obj_release(&x->base);
    return r;
}

CUresult CUDAAPI cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraphNodeParams *nodeParams)
{
    if (!nodeParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuGraphExecNodeSetParams: nodeParams is NULL");
    return exec_node_set("cuGraphExecNodeSetParams", hGraphExec, hNode, nodeParams);
}

/* cuGraphNodeSetEnabled (set) and cuGraphNodeGetEnabled (get): the node of the executable graph
 * made from hNode, of a type that can be disabled. */
static CUresult enabled(const char *fn, CUgraphExec hGraphExec, CUgraphNode hNode, const unsigned int *set,
                        unsigned int *get)
{
    REQUIRE_INIT(fn);
    if (!set && !get)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: isEnabled is NULL", fn);
    struct exec_graph *x = NULL;
    CUresult r = exec_lookup(fn, hGraphExec, &x);
    if (r)
        return r;
    struct node *n = NULL;
    if ((r = node_lookup(fn, hNode, &n))) {
        obj_release(&x->base);
        return r;
    }
    graph_lock();
    struct xnode *xn = xnode_find(x, n->base.handle);
    if (!xn)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the node is not one the executable graph was made from", fn);
    else if (xn->type != CU_GRAPH_NODE_TYPE_KERNEL && xn->type != CU_GRAPH_NODE_TYPE_MEMCPY &&
             xn->type != CU_GRAPH_NODE_TYPE_MEMSET)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: only kernel, memcpy and memset nodes can be disabled, not type %d", fn,
                 (int)xn->type);
    else if (set)
        xn->enabled = *set != 0;
    else
        *get = xn->enabled;
    graph_unlock();
    obj_release(&n->base);
    obj_release(&x->base);
    return r;
}

CUresult CUDAAPI cuGraphNodeSetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int isEnabled)
{
    return enabled("cuGraphNodeSetEnabled", hGraphExec, hNode, &isEnabled, NULL);
}

CUresult CUDAAPI cuGraphNodeGetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int *isEnabled)
{
    return enabled("cuGraphNodeGetEnabled", hGraphExec, hNode, NULL, isEnabled);
}

/* Nodes an update keeps as they were instantiated (a child's and a conditional's schedules, the
 * graph's memory). */
static bool kept_on_update(CUgraphNodeType t)
{
    return t == CU_GRAPH_NODE_TYPE_GRAPH || t == CU_GRAPH_NODE_TYPE_CONDITIONAL || t == CU_GRAPH_NODE_TYPE_MEM_ALLOC ||
           t == CU_GRAPH_NODE_TYPE_MEM_FREE;
}

/* cuGraphExecUpdate: hGraph must have the executable graph's topology, node for node in the
 * order they were made, each of the same type; then every node takes hGraph's parameters. */
static CUresult update(const char *fn, CUgraphExec hGraphExec, CUgraph hGraph, CUgraphExecUpdateResultInfo *info)
{
    REQUIRE_INIT(fn);
    CUgraphExecUpdateResultInfo unused;
    if (!info) /* the driver accepts NULL */
        info = &unused;
    memset(info, 0, sizeof(*info));
    info->result = CU_GRAPH_EXEC_UPDATE_ERROR;
    struct exec_graph *x = NULL;
    CUresult r = exec_lookup(fn, hGraphExec, &x);
    if (r)
        return r;
    struct graph *g = NULL;
    if ((r = graph_lookup(fn, hGraph, &g))) {
        obj_release(&x->base);
        return r;
    }
    graph_lock();
    struct node **order = calloc(g->nnodes + 1, sizeof(*order));
    struct xnode **by_seq = calloc(x->n + 1, sizeof(*by_seq));
    struct node **nodes = calloc(g->nnodes + 1, sizeof(*nodes));
    struct node_params *fresh = calloc(x->n + 1, sizeof(*fresh));
    if (!order || !by_seq || !nodes || !fresh)
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    else if (g->nnodes != x->n || !topo_order(g, order)) {
        info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
        r = fail(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, "%s: the graph has %zu nodes, the executable graph %zu", fn,
                 g->nnodes, x->n);
    }
    if (!r) {
        /* Pair the nodes in the order each graph made them. */
        size_t k = 0;
        for (struct list_node *it = g->nodes.next; it != &g->nodes; it = it->next)
            nodes[k++] = list_entry(it, struct node, graph_node);
        for (size_t i = 0; i < x->n; ++i)
            by_seq[i] = &x->nodes[i];
        for (size_t i = 1; i < x->n; ++i) /* insertion sort by seq: graphs are small */
            for (size_t j = i; j > 0 && by_seq[j - 1]->seq > by_seq[j]->seq; --j) {
                struct xnode *t = by_seq[j];
                by_seq[j] = by_seq[j - 1];
                by_seq[j - 1] = t;
            }
        /* The driver's order: more exit nodes than the executable graph's first, naming one. */
        size_t *outs = calloc(x->n + 1, sizeof(*outs)), exits_x = 0, exits_g = 0;
        for (size_t i = 0; outs && i < x->n; ++i)
            for (size_t d = 0; d < x->nodes[i].ndeps; ++d)
                outs[x->nodes[i].deps[d]]++;
        for (size_t i = 0; outs && i < x->n; ++i) {
            exits_x += !outs[i];
            exits_g += !nodes[i]->outs.n;
        }
        if (outs && exits_g > exits_x)
            for (size_t i = 0; i < x->n; ++i)
                if (!nodes[i]->outs.n && outs[by_seq[i] - x->nodes]) {
                    info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
                    info->errorNode = node_handle(nodes[i]);
                    r = fail(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, "%s: node %zu is an exit node now: the topology "
                             "changed", fn, i);
                    break;
                }
        free(outs);
        for (size_t i = 0; !r && i < x->n; ++i) {
            struct xnode *xn = by_seq[i];
            struct node *v = nodes[i];
            if (xn->type != v->np.p.type) {
                info->result = CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED;
                info->errorNode = node_handle(v);
                r = fail(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, "%s: node %zu changed type from %d to %d", fn, i,
                         (int)xn->type, (int)v->np.p.type);
                break;
            }
            /* The same dependencies: by the creation order of both ends. */
            bool same = xn->ndeps == v->deps.n;
            for (size_t e = 0; same && e < v->deps.n; ++e) {
                uint64_t want = v->deps.v[e].node->seq;
                bool found = false;
                for (size_t d = 0; d < xn->ndeps; ++d)
                    found |= x->nodes[xn->deps[d]].seq == want;
                same = found;
            }
            if (!same) {
                info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
                info->errorNode = node_handle(v);
                r = fail(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, "%s: node %zu's dependencies changed", fn, i);
                break;
            }
            if (kept_on_update(xn->type)) {
                if (xn->type == CU_GRAPH_NODE_TYPE_MEM_FREE && xn->np.p.free.dptr != v->np.p.free.dptr) {
                    info->result = CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED;
                    info->errorNode = node_handle(v);
                    r = fail(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, "%s: a free node's address changed", fn);
                }
                continue; /* kept as instantiated */
            }
            if ((r = node_params_dup(fn, &v->np, &fresh[i]))) {
                info->errorNode = node_handle(v);
                break;
            }
        }
    }
    if (!r) { /* every node made a fresh copy but those kept: they replace the executable graph's */
        for (size_t i = 0; i < x->n; ++i) {
            if (kept_on_update(by_seq[i]->type))
                continue;
            node_params_free(&by_seq[i]->np);
            by_seq[i]->np = fresh[i];
            memset(&fresh[i], 0, sizeof(fresh[i]));
        }
        info->result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
    }
    for (size_t i = 0; fresh && i < x->n; ++i) /* copies not taken (a failed update); zeroed ones hold nothing */
        node_params_free(&fresh[i]);
    free(order);
    free(by_seq);
    free(nodes);
    free(fresh);
    graph_unlock();
    obj_release(&g->base);
    obj_release(&x->base);
    return r;
}

CUresult CUDAAPI cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphExecUpdateResultInfo *resultInfo)
{
    return update("cuGraphExecUpdate", hGraphExec, hGraph, resultInfo);
}

#undef cuGraphExecUpdate
EXTMEM_API CUresult CUDAAPI cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphNode *hErrorNode_out,
                                              CUgraphExecUpdateResult *updateResult_out);
CUresult CUDAAPI cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphNode *hErrorNode_out,
                                   CUgraphExecUpdateResult *updateResult_out)
{
    if (!hErrorNode_out || !updateResult_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuGraphExecUpdate: hErrorNode_out or updateResult_out is NULL");
    CUgraphExecUpdateResultInfo info;
    CUresult r = update("cuGraphExecUpdate", hGraphExec, hGraph, &info);
    *hErrorNode_out = info.errorNode;
    *updateResult_out = info.result;
    return r;
}
