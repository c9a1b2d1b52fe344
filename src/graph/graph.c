/*
 * src/graph/graph.c: graphs as data: creation, nodes and the edges between them, clones, the
 * queries (nodes, roots, edges, dependencies) and destruction (docs/graphs.md).
 */
#include "graph/graph.h"

#include <stdlib.h>
#include <string.h>

/* One lock for every graph, node, executable graph and capture; a thread may take it again
 * (a node's parameters free the graphs they own under it). */
static os_mutex the_lock = OS_MUTEX_INITIALIZER;
static OS_THREAD_LOCAL int depth;

void graph_lock(void)
{
    if (depth++ == 0)
        os_mutex_lock(&the_lock);
}

void graph_unlock(void)
{
    if (--depth == 0) {
        os_mutex_unlock(&the_lock);
        if (!device_thread())
            gmem_flush();
    }
}

/* ---- Lookups ---- */

CUresult graph_lookup(const char *fn, CUgraph h, struct graph **out)
{
    struct obj *o;
    obj_status st = obj_lookup((uint64_t)(uintptr_t)h, OBJ_GRAPH, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: hGraph %s", fn,
                    obj_status_text(st, OBJ_GRAPH, (uint64_t)(uintptr_t)h));
    *out = (struct graph *)o;
    return CUDA_SUCCESS;
}

CUresult node_lookup(const char *fn, CUgraphNode h, struct node **out)
{
    struct obj *o;
    obj_status st = obj_lookup((uint64_t)(uintptr_t)h, OBJ_GRAPH_NODE, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: hNode %s", fn, obj_status_text(st, OBJ_GRAPH_NODE, (uint64_t)(uintptr_t)h));
    *out = (struct node *)o;
    return CUDA_SUCCESS;
}

/* ---- Graphs ---- */

static void graph_destroy_obj(struct obj *o) { free(o); }
static void node_destroy_obj(struct obj *o) { free(o); }

CUresult graph_new(const char *fn, bool owned, struct graph **out)
{
    struct graph *g = calloc(1, sizeof(*g));
    if (!g)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the graph", fn);
    list_init(&g->nodes);
    g->owned = owned;
    if (!obj_register(&g->base, OBJ_GRAPH, graph_destroy_obj)) {
        free(g);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of handles for the graph", fn);
    }
    *out = g;
    return CUDA_SUCCESS;
}

static void edges_remove(struct edges *e, struct node *n)
{
    for (size_t i = 0; i < e->n; ++i)
        if (e->v[i].node == n) {
            memmove(&e->v[i], &e->v[i + 1], (e->n - i - 1) * sizeof(e->v[0]));
            e->n--;
            return;
        }
}

static bool edges_push(struct edges *e, struct node *n, const CUgraphEdgeData *d)
{
    if (e->n == e->cap) {
        size_t cap = e->cap ? e->cap * 2 : 4;
        struct edge *v = realloc(e->v, cap * sizeof(*v));
        if (!v)
            return false;
        e->v = v;
        e->cap = cap;
    }
    e->v[e->n].node = n;
    if (d)
        e->v[e->n].data = *d;
    else
        memset(&e->v[e->n].data, 0, sizeof(e->v[e->n].data));
    e->n++;
    return true;
}

/* Unlinks and frees a node (graph_lock held). */
static void node_free_locked(struct node *n)
{
    for (size_t i = 0; i < n->deps.n; ++i)
        edges_remove(&n->deps.v[i].node->outs, n);
    for (size_t i = 0; i < n->outs.n; ++i)
        edges_remove(&n->outs.v[i].node->deps, n);
    free(n->deps.v);
    free(n->outs.v);
    list_del(&n->graph_node);
    n->g->nnodes--;
    if (n->np.p.type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
        n->g->conditionals--;
    if (n->np.p.type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || n->np.p.type == CU_GRAPH_NODE_TYPE_MEM_FREE)
        n->g->mem_nodes--;
    node_params_free(&n->np);
    obj_unregister(&n->base);
}

void graph_free_locked(struct graph *g)
{
    while (!list_empty(&g->nodes))
        node_free_locked(list_entry(g->nodes.next, struct node, graph_node));
    for (struct user_ref *u = g->users, *next; u; u = next) {
        next = u->next;
        user_object_drop(u->u, u->count);
        obj_release(&u->u->base); /* the reference the graph's entry held (cuGraphRetainUserObject) */
        free(u);
    }
    free(g->handles);
    obj_unregister(&g->base);
}

CUresult CUDAAPI cuGraphCreate(CUgraph *phGraph, unsigned int flags)
{
    const char *fn = "cuGraphCreate";
    REQUIRE_INIT(fn);
    if (!phGraph)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: phGraph is NULL", fn);
    if (flags)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x: must be 0", fn, flags);
    struct graph *g = NULL;
    CUresult r = graph_new(fn, false, &g);
    if (!r)
        *phGraph = graph_handle(g);
    return r;
}

CUresult CUDAAPI cuGraphDestroy(CUgraph hGraph)
{
    const char *fn = "cuGraphDestroy";
    REQUIRE_INIT(fn);
    struct graph *g = NULL;
    CUresult r = graph_lookup(fn, hGraph, &g);
    if (r)
        return r;
    graph_lock();
    if (g->owned)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the graph belongs to a node (a child graph or a conditional's body): "
                 "it goes with its node", fn);
    else
        graph_free_locked(g); /* executable graphs made from it keep copies: they stay valid */
    graph_unlock();
    obj_release(&g->base);
    return r;
}

/* ---- Nodes ---- */

/* Checks a dependency list: nodes of g, none twice. */
static CUresult deps_check(const char *fn, struct graph *g, struct node *const *deps, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (deps[i]->g != g)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: dependencies[%zu] is a node of another graph", fn, i);
        for (size_t j = 0; j < i; ++j)
            if (deps[j] == deps[i])
                return fail(CUDA_ERROR_INVALID_VALUE, "%s: dependencies[%zu] and [%zu] are the same node", fn, j, i);
    }
    return CUDA_SUCCESS;
}

static CUresult edge_data_check(const char *fn, const CUgraphEdgeData *d, size_t i)
{
    if (!d)
        return CUDA_SUCCESS;
    static const unsigned char zero[5];
    if (d->to_port || memcmp(d->reserved, zero, sizeof(zero)))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: edge data %zu: to_port and reserved must be 0", fn, i);
    if (d->type > CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC || d->from_port > CU_GRAPH_KERNEL_NODE_PORT_LAUNCH_ORDER)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: edge data %zu: type %u, from_port %u", fn, i, d->type, d->from_port);
    return CUDA_SUCCESS;
}

CUresult graph_add_locked(const char *fn, struct ctx *ctx, struct graph *g, struct node *const *deps,
                          const CUgraphEdgeData *edata, size_t n, CUgraphNodeParams *p, struct node **out)
{
    CUresult r = deps_check(fn, g, deps, n);
    for (size_t i = 0; !r && edata && i < n; ++i)
        r = edge_data_check(fn, &edata[i], i);
    if (r)
        return r;
    struct node *node = calloc(1, sizeof(*node));
    if (!node)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the node", fn);
    if ((r = node_params_copy(fn, ctx, g, p, &node->np))) {
        free(node);
        return r;
    }
    node->g = g;
    for (size_t i = 0; i < n; ++i)
        if (!edges_push(&node->deps, deps[i], edata ? &edata[i] : NULL) ||
            !edges_push(&deps[i]->outs, node, edata ? &edata[i] : NULL)) {
            for (size_t j = 0; j <= i; ++j)
                edges_remove(&deps[j]->outs, node);
            free(node->deps.v);
            node_params_free(&node->np);
            free(node);
            return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the edges", fn);
        }
    if (!obj_register(&node->base, OBJ_GRAPH_NODE, node_destroy_obj)) {
        for (size_t j = 0; j < n; ++j)
            edges_remove(&deps[j]->outs, node);
        free(node->deps.v);
        node_params_free(&node->np);
        free(node);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of handles", fn);
    }
    node->seq = g->next_seq++;
    node->origin = node->base.handle;
    list_add(g->nodes.prev, &node->graph_node); /* at the end: creation order */
    g->nnodes++;
    if (p->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
        g->conditionals++;
    if (p->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || p->type == CU_GRAPH_NODE_TYPE_MEM_FREE)
        g->mem_nodes++;
    *out = node;
    return CUDA_SUCCESS;
}

/* Looks up a caller's dependency array: on success free *nodes (references released). */
static CUresult deps_lookup(const char *fn, const CUgraphNode *deps, size_t n, struct node ***nodes)
{
    *nodes = NULL;
    if (n && !deps)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numDependencies is %zu but dependencies is NULL", fn, n);
    struct node **v = calloc(n + 1, sizeof(*v));
    if (!v)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    for (size_t i = 0; i < n; ++i) {
        CUresult r = node_lookup(fn, deps[i], &v[i]);
        if (r) {
            for (size_t j = 0; j < i; ++j)
                obj_release(&v[j]->base);
            free(v);
            return r;
        }
    }
    *nodes = v;
    return CUDA_SUCCESS;
}

static void deps_put(struct node **v, size_t n)
{
    for (size_t i = 0; v && i < n; ++i)
        obj_release(&v[i]->base);
    free(v);
}

CUresult graph_add(const char *fn, struct graph *g, const CUgraphNode *deps, const CUgraphEdgeData *edata, size_t n,
                   CUgraphNodeParams *p, struct node **out)
{
    struct node **v;
    CUresult r = deps_lookup(fn, deps, n, &v);
    if (r)
        return r;
    struct ctx *ctx = NULL;
    if (!(r = ctx_current(fn, &ctx))) {
        graph_lock();
        r = graph_add_locked(fn, ctx, g, v, edata, n, p, out);
        graph_unlock();
        ctx_release(ctx);
    }
    deps_put(v, n);
    return r;
}

CUresult graph_add_node(const char *fn, CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *deps,
                    const CUgraphEdgeData *edata, size_t n, CUgraphNodeParams *p)
{
    REQUIRE_INIT(fn);
    if (!phGraphNode)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: phGraphNode is NULL", fn);
    struct graph *g = NULL;
    CUresult r = graph_lookup(fn, hGraph, &g);
    if (r)
        return r;
    struct node *node = NULL;
    if (!(r = graph_add(fn, g, deps, edata, n, p, &node)))
        *phGraphNode = node_handle(node);
    obj_release(&g->base);
    return r;
}

CUresult CUDAAPI cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                CUgraphNodeParams *nodeParams)
{
    const char *fn = "cuGraphAddNode";
    REQUIRE_INIT(fn);
    if (!nodeParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    static const int zero[3];
    if (memcmp(nodeParams->reserved0, zero, sizeof(zero)) || nodeParams->reserved2)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams's reserved fields must be 0", fn);
    CUresult r = graph_add_node(fn, phGraphNode, hGraph, dependencies, dependencyData, numDependencies, nodeParams);
    if (!r && nodeParams->type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
        struct node *node = NULL;
        if (!node_lookup(fn, *phGraphNode, &node)) {
            nodeParams->conditional.phGraph_out = node->np.p.conditional.phGraph_out;
            obj_release(&node->base);
        }
    }
    return r;
}

#undef cuGraphAddNode
EXTMEM_API CUresult CUDAAPI cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                           size_t numDependencies, CUgraphNodeParams *nodeParams);
CUresult CUDAAPI cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                size_t numDependencies, CUgraphNodeParams *nodeParams)
{
    return cuGraphAddNode_v2(phGraphNode, hGraph, dependencies, NULL, numDependencies, nodeParams);
}

CUresult CUDAAPI cuGraphAddEmptyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                     size_t numDependencies)
{
    CUgraphNodeParams p = {0};
    memset(&p, 0, sizeof(p));
    p.type = CU_GRAPH_NODE_TYPE_EMPTY;
    return graph_add_node("cuGraphAddEmptyNode", phGraphNode, hGraph, dependencies, NULL, numDependencies, &p);
}

CUresult CUDAAPI cuGraphDestroyNode(CUgraphNode hNode)
{
    const char *fn = "cuGraphDestroyNode";
    REQUIRE_INIT(fn);
    struct node *n = NULL;
    CUresult r = node_lookup(fn, hNode, &n);
    if (r)
        return r;
    graph_lock();
    CUgraphNodeType type = n->np.p.type;
    if (type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || type == CU_GRAPH_NODE_TYPE_MEM_FREE)
        r = fail(CUDA_ERROR_NOT_SUPPORTED, "%s: memory allocation and free nodes cannot be destroyed (the driver's "
                 "rule); destroy the graph", fn);
    else
        node_free_locked(n);
    graph_unlock();
    obj_release(&n->base);
    return r;
}

CUresult CUDAAPI cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type)
{
    const char *fn = "cuGraphNodeGetType";
    REQUIRE_INIT(fn);
    if (!type)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: type is NULL", fn);
    struct node *n = NULL;
    CUresult r = node_lookup(fn, hNode, &n);
    if (r)
        return r;
    *type = n->np.p.type;
    obj_release(&n->base);
    return CUDA_SUCCESS;
}

/* ---- Queries: the count, and as many as fit ---- */

CUresult CUDAAPI cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes)
{
    const char *fn = "cuGraphGetNodes";
    REQUIRE_INIT(fn);
    if (!numNodes)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numNodes is NULL", fn);
    struct graph *g = NULL;
    CUresult r = graph_lookup(fn, hGraph, &g);
    if (r)
        return r;
    graph_lock();
    size_t i = 0;
    for (struct list_node *it = g->nodes.next; it != &g->nodes; it = it->next, ++i)
        if (nodes && i < *numNodes)
            nodes[i] = node_handle(list_entry(it, struct node, graph_node));
    if (nodes)
        for (size_t j = i; j < *numNodes; ++j)
            nodes[j] = NULL;
    if (!nodes || *numNodes > i)
        *numNodes = i;
    graph_unlock();
    obj_release(&g->base);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode *rootNodes, size_t *numRootNodes)
{
    const char *fn = "cuGraphGetRootNodes";
    REQUIRE_INIT(fn);
    if (!numRootNodes)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numRootNodes is NULL", fn);
    struct graph *g = NULL;
    CUresult r = graph_lookup(fn, hGraph, &g);
    if (r)
        return r;
    graph_lock();
    size_t i = 0;
    for (struct list_node *it = g->nodes.next; it != &g->nodes; it = it->next) {
        struct node *n = list_entry(it, struct node, graph_node);
        if (n->deps.n)
            continue;
        if (rootNodes && i < *numRootNodes)
            rootNodes[i] = node_handle(n);
        i++;
    }
    if (rootNodes)
        for (size_t j = i; j < *numRootNodes; ++j)
            rootNodes[j] = NULL;
    if (!rootNodes || *numRootNodes > i)
        *numRootNodes = i;
    graph_unlock();
    obj_release(&g->base);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *edgeData,
                                 size_t *numEdges)
{
    const char *fn = "cuGraphGetEdges";
    REQUIRE_INIT(fn);
    if (!numEdges)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numEdges is NULL", fn);
    if (!from != !to)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: from and to must both be NULL (a count) or both be given", fn);
    if (edgeData && !from)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: edgeData is given without from and to", fn);
    struct graph *g = NULL;
    CUresult r = graph_lookup(fn, hGraph, &g);
    if (r)
        return r;
    graph_lock();
    size_t i = 0;
    bool lossy = false;
    for (struct list_node *it = g->nodes.next; it != &g->nodes; it = it->next) {
        struct node *n = list_entry(it, struct node, graph_node);
        for (size_t e = 0; e < n->outs.n; ++e, ++i) {
            const CUgraphEdgeData *d = &n->outs.v[e].data;
            if (d->type || d->from_port || d->to_port)
                lossy = true;
            if (from && i < *numEdges) {
                from[i] = node_handle(n);
                to[i] = node_handle(n->outs.v[e].node);
                if (edgeData)
                    edgeData[i] = *d;
            }
        }
    }
    if (from)
        for (size_t j = i; j < *numEdges; ++j) {
            from[j] = to[j] = NULL;
            if (edgeData)
                memset(&edgeData[j], 0, sizeof(edgeData[j]));
        }
    if (!from || *numEdges > i)
        *numEdges = i;
    graph_unlock();
    obj_release(&g->base);
    if (lossy && from && !edgeData) /* the driver's answer when edge data would be lost */
        return fail(CUDA_ERROR_LOSSY_QUERY, "%s: some edges carry data: pass edgeData", fn);
    return CUDA_SUCCESS;
}

static CUresult node_edges(const char *fn, CUgraphNode hNode, bool outgoing, CUgraphNode *nodes,
                           CUgraphEdgeData *edgeData, size_t *count)
{
    REQUIRE_INIT(fn);
    if (!count)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the count pointer is NULL", fn);
    if (edgeData && !nodes)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: edgeData is given without the node array", fn);
    struct node *n = NULL;
    CUresult r = node_lookup(fn, hNode, &n);
    if (r)
        return r;
    graph_lock();
    const struct edges *e = outgoing ? &n->outs : &n->deps;
    bool lossy = false;
    for (size_t i = 0; i < e->n; ++i) {
        const CUgraphEdgeData *d = &e->v[i].data;
        lossy |= d->type || d->from_port || d->to_port;
        if (nodes && i < *count) {
            nodes[i] = node_handle(e->v[i].node);
            if (edgeData)
                edgeData[i] = *d;
        }
    }
    if (nodes)
        for (size_t j = e->n; j < *count; ++j)
            nodes[j] = NULL;
    if (!nodes || *count > e->n)
        *count = e->n;
    graph_unlock();
    obj_release(&n->base);
    if (lossy && nodes && !edgeData)
        return fail(CUDA_ERROR_LOSSY_QUERY, "%s: some edges carry data: pass edgeData", fn);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphNodeGetDependencies(CUgraphNode hNode, CUgraphNode *dependencies, CUgraphEdgeData *edgeData,
                                            size_t *numDependencies)
{
    return node_edges("cuGraphNodeGetDependencies", hNode, false, dependencies, edgeData, numDependencies);
}

CUresult CUDAAPI cuGraphNodeGetDependentNodes(CUgraphNode hNode, CUgraphNode *dependentNodes, CUgraphEdgeData *edgeData,
                                              size_t *numDependentNodes)
{
    return node_edges("cuGraphNodeGetDependentNodes", hNode, true, dependentNodes, edgeData, numDependentNodes);
}

/* ---- Edges ---- */

static CUresult edges_change(const char *fn, CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                             const CUgraphEdgeData *edgeData, size_t n, bool adding)
{
    REQUIRE_INIT(fn);
    if (n && (!from || !to))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numDependencies is %zu but from or to is NULL", fn, n);
    struct graph *g = NULL;
    CUresult r = graph_lookup(fn, hGraph, &g);
    if (r)
        return r;
    struct node **f = NULL, **t = NULL;
    if ((r = deps_lookup(fn, from, n, &f)) || (r = deps_lookup(fn, to, n, &t))) {
        deps_put(f, n);
        obj_release(&g->base);
        return r;
    }
    graph_lock();
    /* Every pair is checked before any changes: a failed call changes nothing. */
    for (size_t i = 0; !r && i < n; ++i) {
        if (f[i]->g != g || t[i]->g != g)
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: pair %zu names a node of another graph", fn, i);
        else if (f[i] == t[i])
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: pair %zu is a node depending on itself", fn, i);
        else if (!(r = edge_data_check(fn, edgeData ? &edgeData[i] : NULL, i))) {
            bool exists = false;
            for (size_t e = 0; e < f[i]->outs.n; ++e)
                exists |= f[i]->outs.v[e].node == t[i];
            for (size_t j = 0; j < i; ++j)
                exists |= adding && f[j] == f[i] && t[j] == t[i];
            if (adding && exists)
                r = fail(CUDA_ERROR_INVALID_VALUE, "%s: pair %zu: the edge exists already", fn, i);
            else if (!adding && !exists)
                r = fail(CUDA_ERROR_INVALID_VALUE, "%s: pair %zu: there is no such edge", fn, i);
        }
    }
    for (size_t i = 0; !r && i < n; ++i) {
        if (adding) {
            if (!edges_push(&f[i]->outs, t[i], edgeData ? &edgeData[i] : NULL) ||
                !edges_push(&t[i]->deps, f[i], edgeData ? &edgeData[i] : NULL)) {
                edges_remove(&f[i]->outs, t[i]);
                r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
            }
        } else {
            edges_remove(&f[i]->outs, t[i]);
            edges_remove(&t[i]->deps, f[i]);
        }
    }
    graph_unlock();
    deps_put(f, n);
    deps_put(t, n);
    obj_release(&g->base);
    return r;
}

CUresult CUDAAPI cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                       const CUgraphEdgeData *edgeData, size_t numDependencies)
{
    return edges_change("cuGraphAddDependencies", hGraph, from, to, edgeData, numDependencies, true);
}

CUresult CUDAAPI cuGraphRemoveDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                          const CUgraphEdgeData *edgeData, size_t numDependencies)
{
    return edges_change("cuGraphRemoveDependencies", hGraph, from, to, edgeData, numDependencies, false);
}

/* The forms before edge data (CUDA 10 .. 12.2), under the plain names. */
#undef cuGraphGetEdges
#undef cuGraphNodeGetDependencies
#undef cuGraphNodeGetDependentNodes
#undef cuGraphAddDependencies
#undef cuGraphRemoveDependencies
EXTMEM_API CUresult CUDAAPI cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, size_t *numEdges);
EXTMEM_API CUresult CUDAAPI cuGraphNodeGetDependencies(CUgraphNode hNode, CUgraphNode *dependencies,
                                                       size_t *numDependencies);
EXTMEM_API CUresult CUDAAPI cuGraphNodeGetDependentNodes(CUgraphNode hNode, CUgraphNode *dependentNodes,
                                                         size_t *numDependentNodes);
EXTMEM_API CUresult CUDAAPI cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                                   size_t numDependencies);
EXTMEM_API CUresult CUDAAPI cuGraphRemoveDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                                      size_t numDependencies);
CUresult CUDAAPI cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, size_t *numEdges)
{
    return cuGraphGetEdges_v2(hGraph, from, to, NULL, numEdges);
}
CUresult CUDAAPI cuGraphNodeGetDependencies(CUgraphNode hNode, CUgraphNode *dependencies, size_t *numDependencies)
{
    return cuGraphNodeGetDependencies_v2(hNode, dependencies, NULL, numDependencies);
}
CUresult CUDAAPI cuGraphNodeGetDependentNodes(CUgraphNode hNode, CUgraphNode *dependentNodes, size_t *numDependentNodes)
{
    return cuGraphNodeGetDependentNodes_v2(hNode, dependentNodes, NULL, numDependentNodes);
}
CUresult CUDAAPI cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                       size_t numDependencies)
{
    return cuGraphAddDependencies_v2(hGraph, from, to, NULL, numDependencies);
}
CUresult CUDAAPI cuGraphRemoveDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                          size_t numDependencies)
{
    return cuGraphRemoveDependencies_v2(hGraph, from, to, NULL, numDependencies);
}

/* ---- Clones ---- */

CUresult graph_clone_locked(const char *fn, struct graph *g, bool owned, struct graph **out)
{
    if (g->conditionals && !owned)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: a graph with conditional nodes cannot be cloned", fn);
    if (g->mem_nodes)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: a graph with memory allocation or free nodes cannot be cloned or "
                    "be a child graph", fn);
    struct graph *c = NULL;
    CUresult r = graph_new(fn, owned, &c);
    if (r)
        return r;
    c->clone_of = g->base.handle;
    struct node **map = calloc(g->nnodes + 1, sizeof(*map));
    if (!map)
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    size_t i = 0;
    for (struct list_node *it = g->nodes.next; !r && it != &g->nodes; it = it->next, ++i) {
        struct node *n = list_entry(it, struct node, graph_node), *m = calloc(1, sizeof(*m));
        n->index = i;
        if (!m) {
            r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
            break;
        }
        if ((r = node_params_dup(fn, &n->np, &m->np))) {
            free(m);
            break;
        }
        if (!obj_register(&m->base, OBJ_GRAPH_NODE, node_destroy_obj)) {
            node_params_free(&m->np);
            free(m);
            r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of handles", fn);
            break;
        }
        m->g = c;
        m->seq = n->seq;
        m->origin = n->origin;
        list_add(c->nodes.prev, &m->graph_node);
        c->nnodes++;
        map[i] = m;
    }
    i = 0;
    for (struct list_node *it = g->nodes.next; !r && it != &g->nodes; it = it->next, ++i) {
        struct node *n = list_entry(it, struct node, graph_node);
        for (size_t e = 0; !r && e < n->outs.n; ++e) {
            struct node *a = map[i], *b = map[n->outs.v[e].node->index];
            if (!edges_push(&a->outs, b, &n->outs.v[e].data) || !edges_push(&b->deps, a, &n->outs.v[e].data))
                r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
        }
    }
    free(map);
    if (!r) {
        c->next_seq = g->next_seq;
        c->conditionals = g->conditionals;
        if (g->nhandles && !(c->handles = malloc(g->nhandles * sizeof(*c->handles))))
            r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
        else if (g->nhandles) {
            memcpy(c->handles, g->handles, g->nhandles * sizeof(*c->handles));
            c->nhandles = g->nhandles;
        }
    }
    if (r) {
        graph_free_locked(c);
        return r;
    }
    *out = c;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph)
{
    const char *fn = "cuGraphClone";
    REQUIRE_INIT(fn);
    if (!phGraphClone)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: phGraphClone is NULL", fn);
    struct graph *g = NULL, *c = NULL;
    CUresult r = graph_lookup(fn, originalGraph, &g);
    if (r)
        return r;
    graph_lock();
    if (!(r = graph_clone_locked(fn, g, false, &c)))
        *phGraphClone = graph_handle(c);
    graph_unlock();
    obj_release(&g->base);
    return r;
}

CUresult CUDAAPI cuGraphNodeFindInClone(CUgraphNode *phNode, CUgraphNode hOriginalNode, CUgraph hClonedGraph)
{
    const char *fn = "cuGraphNodeFindInClone";
    REQUIRE_INIT(fn);
    if (!phNode)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: phNode is NULL", fn);
    struct graph *c = NULL;
    struct node *o = NULL;
    CUresult r = graph_lookup(fn, hClonedGraph, &c);
    if (r)
        return r;
    if ((r = node_lookup(fn, hOriginalNode, &o))) {
        obj_release(&c->base);
        return r;
    }
    graph_lock();
    r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the graph is not a clone of the node's graph", fn);
    if (c->clone_of == o->g->base.handle) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the clone has no counterpart of the node (it was added after the clone)",
                 fn);
        for (struct list_node *it = c->nodes.next; it != &c->nodes; it = it->next) {
            struct node *n = list_entry(it, struct node, graph_node);
            if (n->seq == o->seq) {
                *phNode = node_handle(n);
                r = CUDA_SUCCESS;
                break;
            }
        }
    }
    graph_unlock();
    obj_release(&o->base);
    obj_release(&c->base);
    return r;
}
