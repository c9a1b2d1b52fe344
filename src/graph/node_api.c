/*
 * src/graph/node_api.c: cuGraphAdd*Node for each node type, and each type's getters and setters
 * on a graph's nodes (an executable graph's are in instantiate.c). Each is the generic form
 * (cuGraphAddNode, cuGraphNodeSetParams) with the type's parameters in a CUgraphNodeParams.
 */
#include "graph/graph.h"

#include <stdlib.h>
#include <string.h>

void params_init(CUgraphNodeParams *p, CUgraphNodeType type)
{
    memset(p, 0, sizeof(*p));
    p->type = type;
}

/* A node's parameters of the type asked for, copied out (graph_lock held while copying). */
static CUresult node_get(const char *fn, CUgraphNode hNode, CUgraphNodeType type, CUgraphNodeParams *out)
{
    REQUIRE_INIT(fn);
    struct node *n = NULL;
    CUresult r = node_lookup(fn, hNode, &n);
    if (r)
        return r;
    graph_lock();
    if (n->np.p.type != type)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the node is of type %d, not %d", fn, (int)n->np.p.type, (int)type);
    else
        *out = n->np.p;
    graph_unlock();
    obj_release(&n->base);
    return r;
}

CUresult node_set(const char *fn, CUgraphNode hNode, CUgraphNodeParams *p)
{
    REQUIRE_INIT(fn);
    struct node *n = NULL;
    CUresult r = node_lookup(fn, hNode, &n);
    if (r)
        return r;
    struct ctx *ctx = NULL;
    if ((r = ctx_current(fn, &ctx))) {
        obj_release(&n->base);
        return r;
    }
    graph_lock();
    struct node_params np;
    if (n->np.p.type != p->type)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the node is of type %d, the parameters of type %d", fn,
                 (int)n->np.p.type, (int)p->type);
    else if (p->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || p->type == CU_GRAPH_NODE_TYPE_MEM_FREE ||
             p->type == CU_GRAPH_NODE_TYPE_GRAPH || p->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the parameters of a node of type %d cannot be changed", fn,
                 (int)p->type);
    else if (!(r = node_params_copy(fn, ctx, n->g, p, &np))) {
        node_params_free(&n->np);
        n->np = np;
    }
    graph_unlock();
    ctx_release(ctx);
    obj_release(&n->base);
    return r;
}

CUresult CUDAAPI cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams)
{
    if (!nodeParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuGraphNodeSetParams: nodeParams is NULL");
    return node_set("cuGraphNodeSetParams", hNode, nodeParams);
}

/* ---- Kernel nodes ---- */

void params_kernel(CUgraphNodeParams *p, const CUDA_KERNEL_NODE_PARAMS *k, bool v2)
{
    params_init(p, CU_GRAPH_NODE_TYPE_KERNEL);
    p->kernel.func = k->func;
    p->kernel.gridDimX = k->gridDimX;
    p->kernel.gridDimY = k->gridDimY;
    p->kernel.gridDimZ = k->gridDimZ;
    p->kernel.blockDimX = k->blockDimX;
    p->kernel.blockDimY = k->blockDimY;
    p->kernel.blockDimZ = k->blockDimZ;
    p->kernel.sharedMemBytes = k->sharedMemBytes;
    p->kernel.kernelParams = k->kernelParams;
    p->kernel.extra = k->extra;
    if (v2) {
        p->kernel.kern = k->kern;
        p->kernel.ctx = k->ctx;
    }
}

static void kernel_out(CUDA_KERNEL_NODE_PARAMS *k, const CUgraphNodeParams *p, bool v2)
{
    k->func = p->kernel.func;
    k->gridDimX = p->kernel.gridDimX;
    k->gridDimY = p->kernel.gridDimY;
    k->gridDimZ = p->kernel.gridDimZ;
    k->blockDimX = p->kernel.blockDimX;
    k->blockDimY = p->kernel.blockDimY;
    k->blockDimZ = p->kernel.blockDimZ;
    k->sharedMemBytes = p->kernel.sharedMemBytes;
    k->kernelParams = p->kernel.kernelParams;
    k->extra = p->kernel.extra;
    if (v2) {
        k->kern = NULL;
        k->ctx = p->kernel.ctx;
    }
}

/* v1 and v2 share the first fields; v1 has no kern and ctx. */
static CUresult kernel_add(const char *fn, CUgraphNode *ph, CUgraph g, const CUgraphNode *deps, size_t n,
                           const CUDA_KERNEL_NODE_PARAMS *k, bool v2)
{
    if (!k)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    CUgraphNodeParams p = {0};
    params_kernel(&p, k, v2);
    return graph_add_node(fn, ph, g, deps, NULL, n, &p);
}

CUresult CUDAAPI cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    return kernel_add("cuGraphAddKernelNode", phGraphNode, hGraph, dependencies, numDependencies, nodeParams, true);
}

CUresult CUDAAPI cuGraphKernelNodeGetParams(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    if (!nodeParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuGraphKernelNodeGetParams: nodeParams is NULL");
    CUgraphNodeParams p = {0};
    CUresult r = node_get("cuGraphKernelNodeGetParams", hNode, CU_GRAPH_NODE_TYPE_KERNEL, &p);
    if (!r)
        kernel_out(nodeParams, &p, true);
    return r;
}

CUresult CUDAAPI cuGraphKernelNodeSetParams(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    if (!nodeParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuGraphKernelNodeSetParams: nodeParams is NULL");
    CUgraphNodeParams p = {0};
    params_kernel(&p, nodeParams, true);
    return node_set("cuGraphKernelNodeSetParams", hNode, &p);
}

#undef cuGraphAddKernelNode
#undef cuGraphKernelNodeGetParams
#undef cuGraphKernelNodeSetParams
EXTMEM_API CUresult CUDAAPI cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                                 const CUgraphNode *dependencies, size_t numDependencies,
                                                 const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphKernelNodeGetParams(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams);
EXTMEM_API CUresult CUDAAPI cuGraphKernelNodeSetParams(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams);

static void v1_to_v2(CUDA_KERNEL_NODE_PARAMS *k, const CUDA_KERNEL_NODE_PARAMS_v1 *v1)
{
    memset(k, 0, sizeof(*k));
    memcpy(k, v1, sizeof(*v1));
}

CUresult CUDAAPI cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    CUDA_KERNEL_NODE_PARAMS k;
    if (nodeParams)
        v1_to_v2(&k, nodeParams);
    return kernel_add("cuGraphAddKernelNode", phGraphNode, hGraph, dependencies, numDependencies,
                      nodeParams ? &k : NULL, false);
}

CUresult CUDAAPI cuGraphKernelNodeGetParams(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    if (!nodeParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuGraphKernelNodeGetParams: nodeParams is NULL");
    CUgraphNodeParams p = {0};
    CUresult r = node_get("cuGraphKernelNodeGetParams", hNode, CU_GRAPH_NODE_TYPE_KERNEL, &p);
    if (!r) {
        CUDA_KERNEL_NODE_PARAMS k;
        kernel_out(&k, &p, false);
        memcpy(nodeParams, &k, sizeof(*nodeParams));
    }
    return r;
}

CUresult CUDAAPI cuGraphKernelNodeSetParams(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    if (!nodeParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuGraphKernelNodeSetParams: nodeParams is NULL");
    CUDA_KERNEL_NODE_PARAMS k;
    v1_to_v2(&k, nodeParams);
    CUgraphNodeParams p = {0};
    params_kernel(&p, &k, false);
    return node_set("cuGraphKernelNodeSetParams", hNode, &p);
}

/* Kernel node attributes: kept on the node, as the launch attributes they are. */
static CUresult attr_check(const char *fn, CUkernelNodeAttrID attr)
{
    switch (attr) {
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
    case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
    case CU_LAUNCH_ATTRIBUTE_PRIORITY:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
    case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        return CUDA_SUCCESS;
    default:
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: attribute %d is not a kernel node attribute", fn, (int)attr);
    }
}

CUresult CUDAAPI cuGraphKernelNodeGetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                               CUkernelNodeAttrValue *value_out)
{
    const char *fn = "cuGraphKernelNodeGetAttribute";
    REQUIRE_INIT(fn);
    if (!value_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: value_out is NULL", fn);
    CUresult r = attr_check(fn, attr);
    struct node *n = NULL;
    if (r || (r = node_lookup(fn, hNode, &n)))
        return r;
    graph_lock();
    if (n->np.p.type != CU_GRAPH_NODE_TYPE_KERNEL) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: not a kernel node", fn);
    } else {
        memset(value_out, 0, sizeof(*value_out));
        if (attr == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
            value_out->clusterDim.x = value_out->clusterDim.y = value_out->clusterDim.z = 1;
        for (unsigned int i = 0; i < n->np.nattrs; ++i)
            if (n->np.attrs[i].id == attr)
                *value_out = n->np.attrs[i].value;
    }
    graph_unlock();
    obj_release(&n->base);
    return r;
}

CUresult CUDAAPI cuGraphKernelNodeSetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                               const CUkernelNodeAttrValue *value)
{
    const char *fn = "cuGraphKernelNodeSetAttribute";
    REQUIRE_INIT(fn);
    if (!value)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: value is NULL", fn);
    CUresult r = attr_check(fn, attr);
    struct node *n = NULL;
    if (r || (r = node_lookup(fn, hNode, &n)))
        return r;
    if (attr == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && value->cooperative)
        ; /* grid (issue 25): the launch checks the grid against the occupancy limit */
    else if (attr == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION &&
             (value->clusterDim.x > 1 || value->clusterDim.y > 1 || value->clusterDim.z > 1))
        r = fail(CUDA_ERROR_NOT_SUPPORTED, "%s: the software device has no thread block clusters", fn);
    graph_lock();
    if (!r && n->np.p.type != CU_GRAPH_NODE_TYPE_KERNEL)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: not a kernel node", fn);
    if (!r) {
        unsigned int i = 0;
        while (i < n->np.nattrs && n->np.attrs[i].id != attr)
            ++i;
        if (i == sizeof(n->np.attrs) / sizeof(n->np.attrs[0]))
            r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: too many attributes", fn);
        else {
            n->np.attrs[i].id = attr;
            n->np.attrs[i].value = *value;
            if (i == n->np.nattrs)
                n->np.nattrs++;
        }
    }
    graph_unlock();
    obj_release(&n->base);
    return r;
}

CUresult CUDAAPI cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src)
{
    const char *fn = "cuGraphKernelNodeCopyAttributes";
    REQUIRE_INIT(fn);
    struct node *d, *s;
    CUresult r = node_lookup(fn, dst, &d);
    if (r)
        return r;
    if ((r = node_lookup(fn, src, &s))) {
        obj_release(&d->base);
        return r;
    }
    graph_lock();
    if (d->np.p.type != CU_GRAPH_NODE_TYPE_KERNEL || s->np.p.type != CU_GRAPH_NODE_TYPE_KERNEL)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: both nodes must be kernel nodes", fn);
    else {
        memcpy(d->np.attrs, s->np.attrs, sizeof(d->np.attrs));
        d->np.nattrs = s->np.nattrs;
    }
    graph_unlock();
    obj_release(&d->base);
    obj_release(&s->base);
    return r;
}

/* ---- Copies and fills ---- */

CUresult params_memcpy(const char *fn, CUgraphNodeParams *p, const CUDA_MEMCPY3D *c, CUcontext ctx)
{
    if (!c)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the copy parameters are NULL", fn);
    params_init(p, CU_GRAPH_NODE_TYPE_MEMCPY);
    p->memcpy.copyParams = *c;
    p->memcpy.copyCtx = ctx;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
    const char *fn = "cuGraphAddMemcpyNode";
    CUgraphNodeParams p = {0};
    CUresult r = params_memcpy(fn, &p, copyParams, ctx);
    return r ? r : graph_add_node(fn, phGraphNode, hGraph, dependencies, NULL, numDependencies, &p);
}

CUresult CUDAAPI cuGraphMemcpyNodeGetParams(CUgraphNode hNode, CUDA_MEMCPY3D *nodeParams)
{
    if (!nodeParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuGraphMemcpyNodeGetParams: nodeParams is NULL");
    CUgraphNodeParams p = {0};
    CUresult r = node_get("cuGraphMemcpyNodeGetParams", hNode, CU_GRAPH_NODE_TYPE_MEMCPY, &p);
    if (!r)
        *nodeParams = p.memcpy.copyParams;
    return r;
}

CUresult CUDAAPI cuGraphMemcpyNodeSetParams(CUgraphNode hNode, const CUDA_MEMCPY3D *nodeParams)
{
    const char *fn = "cuGraphMemcpyNodeSetParams";
    CUgraphNodeParams p = {0};
    CUresult r = params_memcpy(fn, &p, nodeParams, NULL);
    return r ? r : node_set(fn, hNode, &p);
}

CUresult params_memset(const char *fn, CUgraphNodeParams *p, const CUDA_MEMSET_NODE_PARAMS *m, CUcontext ctx)
{
    if (!m)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the memset parameters are NULL", fn);
    params_init(p, CU_GRAPH_NODE_TYPE_MEMSET);
    p->memset.dst = m->dst;
    p->memset.pitch = m->pitch;
    p->memset.value = m->value;
    p->memset.elementSize = m->elementSize;
    p->memset.width = m->width;
    p->memset.height = m->height;
    p->memset.ctx = ctx;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS *memsetParams,
                                      CUcontext ctx)
{
    const char *fn = "cuGraphAddMemsetNode";
    CUgraphNodeParams p = {0};
    CUresult r = params_memset(fn, &p, memsetParams, ctx);
    return r ? r : graph_add_node(fn, phGraphNode, hGraph, dependencies, NULL, numDependencies, &p);
}

CUresult CUDAAPI cuGraphMemsetNodeGetParams(CUgraphNode hNode, CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
    if (!nodeParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuGraphMemsetNodeGetParams: nodeParams is NULL");
    CUgraphNodeParams p = {0};
    CUresult r = node_get("cuGraphMemsetNodeGetParams", hNode, CU_GRAPH_NODE_TYPE_MEMSET, &p);
    if (!r) {
        nodeParams->dst = p.memset.dst;
        nodeParams->pitch = p.memset.pitch;
        nodeParams->value = p.memset.value;
        nodeParams->elementSize = p.memset.elementSize;
        nodeParams->width = p.memset.width;
        nodeParams->height = p.memset.height;
    }
    return r;
}

CUresult CUDAAPI cuGraphMemsetNodeSetParams(CUgraphNode hNode, const CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
    const char *fn = "cuGraphMemsetNodeSetParams";
    CUgraphNodeParams p = {0};
    CUresult r = params_memset(fn, &p, nodeParams, NULL);
    return r ? r : node_set(fn, hNode, &p);
}

/* ---- Host nodes ---- */

CUresult CUDAAPI cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                    size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    const char *fn = "cuGraphAddHostNode";
    if (!nodeParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    CUgraphNodeParams p = {0};
    params_init(&p, CU_GRAPH_NODE_TYPE_HOST);
    p.host.fn = nodeParams->fn;
    p.host.userData = nodeParams->userData;
    return graph_add_node(fn, phGraphNode, hGraph, dependencies, NULL, numDependencies, &p);
}

CUresult CUDAAPI cuGraphHostNodeGetParams(CUgraphNode hNode, CUDA_HOST_NODE_PARAMS *nodeParams)
{
    if (!nodeParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuGraphHostNodeGetParams: nodeParams is NULL");
    CUgraphNodeParams p = {0};
    CUresult r = node_get("cuGraphHostNodeGetParams", hNode, CU_GRAPH_NODE_TYPE_HOST, &p);
    if (!r) {
        nodeParams->fn = p.host.fn;
        nodeParams->userData = p.host.userData;
    }
    return r;
}

CUresult CUDAAPI cuGraphHostNodeSetParams(CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    if (!nodeParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuGraphHostNodeSetParams: nodeParams is NULL");
    CUgraphNodeParams p = {0};
    params_init(&p, CU_GRAPH_NODE_TYPE_HOST);
    p.host.fn = nodeParams->fn;
    p.host.userData = nodeParams->userData;
    return node_set("cuGraphHostNodeSetParams", hNode, &p);
}

/* ---- Child graphs ---- */

CUresult CUDAAPI cuGraphAddChildGraphNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                          size_t numDependencies, CUgraph childGraph)
{
    CUgraphNodeParams p = {0};
    params_init(&p, CU_GRAPH_NODE_TYPE_GRAPH);
    p.graph.graph = childGraph;
    return graph_add_node("cuGraphAddChildGraphNode", phGraphNode, hGraph, dependencies, NULL, numDependencies, &p);
}

CUresult CUDAAPI cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph *phGraph)
{
    if (!phGraph)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuGraphChildGraphNodeGetGraph: phGraph is NULL");
    CUgraphNodeParams p = {0};
    CUresult r = node_get("cuGraphChildGraphNodeGetGraph", hNode, CU_GRAPH_NODE_TYPE_GRAPH, &p);
    if (!r)
        *phGraph = p.graph.graph;
    return r;
}

/* ---- Events ---- */

void params_event(CUgraphNodeParams *p, CUgraphNodeType type, CUevent e)
{
    params_init(p, type);
    if (type == CU_GRAPH_NODE_TYPE_EVENT_RECORD)
        p->eventRecord.event = e;
    else
        p->eventWait.event = e;
}

static CUresult event_node_add(const char *fn, CUgraphNode *ph, CUgraph g, const CUgraphNode *deps, size_t n,
                               CUevent e, CUgraphNodeType type)
{
    CUgraphNodeParams p;
    params_event(&p, type, e);
    return graph_add_node(fn, ph, g, deps, NULL, n, &p);
}

static CUresult event_node_get(const char *fn, CUgraphNode h, CUevent *out, CUgraphNodeType type)
{
    if (!out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: event_out is NULL", fn);
    CUgraphNodeParams p = {0};
    CUresult r = node_get(fn, h, type, &p);
    if (!r)
        *out = type == CU_GRAPH_NODE_TYPE_EVENT_RECORD ? p.eventRecord.event : p.eventWait.event;
    return r;
}

static CUresult event_node_set(const char *fn, CUgraphNode h, CUevent e, CUgraphNodeType type)
{
    CUgraphNodeParams p;
    params_event(&p, type, e);
    return node_set(fn, h, &p);
}

CUresult CUDAAPI cuGraphAddEventRecordNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                           size_t numDependencies, CUevent event)
{
    return event_node_add("cuGraphAddEventRecordNode", phGraphNode, hGraph, dependencies, numDependencies, event,
                          CU_GRAPH_NODE_TYPE_EVENT_RECORD);
}
CUresult CUDAAPI cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
    return event_node_get("cuGraphEventRecordNodeGetEvent", hNode, event_out, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
}
CUresult CUDAAPI cuGraphEventRecordNodeSetEvent(CUgraphNode hNode, CUevent event)
{
    return event_node_set("cuGraphEventRecordNodeSetEvent", hNode, event, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
}
CUresult CUDAAPI cuGraphAddEventWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                         size_t numDependencies, CUevent event)
{
    return event_node_add("cuGraphAddEventWaitNode", phGraphNode, hGraph, dependencies, numDependencies, event,
                          CU_GRAPH_NODE_TYPE_WAIT_EVENT);
}
CUresult CUDAAPI cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
    return event_node_get("cuGraphEventWaitNodeGetEvent", hNode, event_out, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
}
CUresult CUDAAPI cuGraphEventWaitNodeSetEvent(CUgraphNode hNode, CUevent event)
{
    return event_node_set("cuGraphEventWaitNodeSetEvent", hNode, event, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
}

/* ---- External semaphores ----
 * A signal node's parameters and a wait node's have one shape (the semaphores, their parameters,
 * how many): one path for both, by node type. */

void params_sems(CUgraphNodeParams *p, CUgraphNodeType type, CUexternalSemaphore *sems, const void *params,
                 unsigned int n)
{
    params_init(p, type);
    if (type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL) {
        p->extSemSignal.extSemArray = sems;
        p->extSemSignal.paramsArray = params;
        p->extSemSignal.numExtSems = n;
    } else {
        p->extSemWait.extSemArray = sems;
        p->extSemWait.paramsArray = params;
        p->extSemWait.numExtSems = n;
    }
}

static CUresult sems_add(const char *fn, CUgraphNode *ph, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                         CUgraphNodeType type, CUexternalSemaphore *sems, const void *params, unsigned int n)
{
    CUgraphNodeParams p;
    params_sems(&p, type, sems, params, n);
    return graph_add_node(fn, ph, g, deps, NULL, ndeps, &p);
}

static CUresult sems_get(const char *fn, CUgraphNode hNode, CUgraphNodeType type, CUexternalSemaphore **sems,
                         const void **params, unsigned int *n)
{
    CUgraphNodeParams p = {0};
    CUresult r = node_get(fn, hNode, type, &p);
    if (!r && type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL) {
        *sems = p.extSemSignal.extSemArray;
        *params = p.extSemSignal.paramsArray;
        *n = p.extSemSignal.numExtSems;
    } else if (!r) {
        *sems = p.extSemWait.extSemArray;
        *params = p.extSemWait.paramsArray;
        *n = p.extSemWait.numExtSems;
    }
    return r;
}

static CUresult sems_set(const char *fn, CUgraphNode hNode, CUgraphNodeType type, CUexternalSemaphore *sems,
                         const void *params, unsigned int n)
{
    CUgraphNodeParams p;
    params_sems(&p, type, sems, params, n);
    return node_set(fn, hNode, &p);
}

CUresult CUDAAPI cuGraphAddExternalSemaphoresSignalNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                                        const CUgraphNode *dependencies, size_t numDependencies,
                                                        const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *nodeParams)
{
    const char *fn = "cuGraphAddExternalSemaphoresSignalNode";
    return !nodeParams ? fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn)
                       : sems_add(fn, phGraphNode, hGraph, dependencies, numDependencies,
                                  CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL, nodeParams->extSemArray, nodeParams->paramsArray,
                                  nodeParams->numExtSems);
}

CUresult CUDAAPI cuGraphExternalSemaphoresSignalNodeGetParams(CUgraphNode hNode,
                                                              CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *params_out)
{
    const char *fn = "cuGraphExternalSemaphoresSignalNodeGetParams";
    if (!params_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: params_out is NULL", fn);
    const void *params = NULL;
    CUresult r = sems_get(fn, hNode, CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL, &params_out->extSemArray, &params,
                          &params_out->numExtSems);
    if (!r)
        params_out->paramsArray = params;
    return r;
}

CUresult CUDAAPI cuGraphExternalSemaphoresSignalNodeSetParams(CUgraphNode hNode,
                                                              const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *nodeParams)
{
    const char *fn = "cuGraphExternalSemaphoresSignalNodeSetParams";
    return !nodeParams ? fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn)
                       : sems_set(fn, hNode, CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL, nodeParams->extSemArray,
                                  nodeParams->paramsArray, nodeParams->numExtSems);
}

CUresult CUDAAPI cuGraphAddExternalSemaphoresWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                                      const CUgraphNode *dependencies, size_t numDependencies,
                                                      const CUDA_EXT_SEM_WAIT_NODE_PARAMS *nodeParams)
{
    const char *fn = "cuGraphAddExternalSemaphoresWaitNode";
    return !nodeParams ? fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn)
                       : sems_add(fn, phGraphNode, hGraph, dependencies, numDependencies,
                                  CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, nodeParams->extSemArray, nodeParams->paramsArray,
                                  nodeParams->numExtSems);
}

CUresult CUDAAPI cuGraphExternalSemaphoresWaitNodeGetParams(CUgraphNode hNode, CUDA_EXT_SEM_WAIT_NODE_PARAMS *params_out)
{
    const char *fn = "cuGraphExternalSemaphoresWaitNodeGetParams";
    if (!params_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: params_out is NULL", fn);
    const void *params = NULL;
    CUresult r = sems_get(fn, hNode, CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, &params_out->extSemArray, &params,
                          &params_out->numExtSems);
    if (!r)
        params_out->paramsArray = params;
    return r;
}

CUresult CUDAAPI cuGraphExternalSemaphoresWaitNodeSetParams(CUgraphNode hNode,
                                                            const CUDA_EXT_SEM_WAIT_NODE_PARAMS *nodeParams)
{
    const char *fn = "cuGraphExternalSemaphoresWaitNodeSetParams";
    return !nodeParams ? fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn)
                       : sems_set(fn, hNode, CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, nodeParams->extSemArray,
                                  nodeParams->paramsArray, nodeParams->numExtSems);
}

/* ---- Memory nodes ---- */

CUresult CUDAAPI cuGraphAddMemAllocNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                        size_t numDependencies, CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams)
{
    const char *fn = "cuGraphAddMemAllocNode";
    if (!nodeParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    CUgraphNodeParams p = {0};
    params_init(&p, CU_GRAPH_NODE_TYPE_MEM_ALLOC);
    memcpy(&p.alloc, nodeParams, sizeof(*nodeParams));
    CUresult r = graph_add_node(fn, phGraphNode, hGraph, dependencies, NULL, numDependencies, &p);
    if (!r)
        nodeParams->dptr = p.alloc.dptr;
    return r;
}

CUresult CUDAAPI cuGraphMemAllocNodeGetParams(CUgraphNode hNode, CUDA_MEM_ALLOC_NODE_PARAMS *params_out)
{
    const char *fn = "cuGraphMemAllocNodeGetParams";
    if (!params_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: params_out is NULL", fn);
    CUgraphNodeParams p = {0};
    CUresult r = node_get(fn, hNode, CU_GRAPH_NODE_TYPE_MEM_ALLOC, &p);
    if (!r)
        memcpy(params_out, &p.alloc, sizeof(*params_out));
    return r;
}

CUresult CUDAAPI cuGraphAddMemFreeNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                       size_t numDependencies, CUdeviceptr dptr)
{
    CUgraphNodeParams p = {0};
    params_init(&p, CU_GRAPH_NODE_TYPE_MEM_FREE);
    p.free.dptr = dptr;
    return graph_add_node("cuGraphAddMemFreeNode", phGraphNode, hGraph, dependencies, NULL, numDependencies, &p);
}

CUresult CUDAAPI cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr *dptr_out)
{
    const char *fn = "cuGraphMemFreeNodeGetParams";
    if (!dptr_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: dptr_out is NULL", fn);
    CUgraphNodeParams p = {0};
    CUresult r = node_get(fn, hNode, CU_GRAPH_NODE_TYPE_MEM_FREE, &p);
    if (!r)
        *dptr_out = p.free.dptr;
    return r;
}

/* ---- Batch memory operations ---- */

void params_memop(CUgraphNodeParams *p, const CUDA_BATCH_MEM_OP_NODE_PARAMS *m)
{
    params_init(p, CU_GRAPH_NODE_TYPE_BATCH_MEM_OP);
    p->memOp.ctx = m->ctx;
    p->memOp.count = m->count;
    p->memOp.paramArray = m->paramArray;
    p->memOp.flags = m->flags;
}

CUresult CUDAAPI cuGraphAddBatchMemOpNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                          size_t numDependencies, const CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams)
{
    const char *fn = "cuGraphAddBatchMemOpNode";
    if (!nodeParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    CUgraphNodeParams p = {0};
    params_memop(&p, nodeParams);
    return graph_add_node(fn, phGraphNode, hGraph, dependencies, NULL, numDependencies, &p);
}

CUresult CUDAAPI cuGraphBatchMemOpNodeGetParams(CUgraphNode hNode, CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams_out)
{
    const char *fn = "cuGraphBatchMemOpNodeGetParams";
    if (!nodeParams_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams_out is NULL", fn);
    CUgraphNodeParams p = {0};
    CUresult r = node_get(fn, hNode, CU_GRAPH_NODE_TYPE_BATCH_MEM_OP, &p);
    if (!r) {
        nodeParams_out->ctx = p.memOp.ctx;
        nodeParams_out->count = p.memOp.count;
        nodeParams_out->paramArray = p.memOp.paramArray;
        nodeParams_out->flags = p.memOp.flags;
    }
    return r;
}

CUresult CUDAAPI cuGraphBatchMemOpNodeSetParams(CUgraphNode hNode, const CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams)
{
    const char *fn = "cuGraphBatchMemOpNodeSetParams";
    if (!nodeParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    CUgraphNodeParams p = {0};
    params_memop(&p, nodeParams);
    return node_set(fn, hNode, &p);
}

/* ---- Conditional handles ---- */

static struct cond_value **all;
static size_t nall;

/* cudaGraphSetConditional in a kernel: only a handle this file made is written (a kernel's
 * forged value faults the launch instead of writing anywhere). */
static bool set_from_kernel(uint64_t handle, uint32_t value)
{
    graph_lock();
    bool found = false;
    for (size_t i = 0; i < nall && !found; ++i)
        if ((uint64_t)(uintptr_t)all[i] == handle) {
            atomic_store(&all[i]->value, value);
            found = true;
        }
    graph_unlock();
    return found;
}

CUresult CUDAAPI cuGraphConditionalHandleCreate(CUgraphConditionalHandle *pHandle_out, CUgraph hGraph, CUcontext ctx,
                                                unsigned int defaultLaunchValue, unsigned int flags)
{
    const char *fn = "cuGraphConditionalHandleCreate";
    REQUIRE_INIT(fn);
    if (!pHandle_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pHandle_out is NULL", fn);
    if (flags & ~(unsigned int)CU_GRAPH_COND_ASSIGN_DEFAULT)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x: only CU_GRAPH_COND_ASSIGN_DEFAULT is defined", fn, flags);
    if (!ctx)
        return fail(CUDA_ERROR_INVALID_CONTEXT, "%s: ctx is NULL: the handle belongs to a context", fn);
    struct graph *g = NULL;
    CUresult r = graph_lookup(fn, hGraph, &g);
    if (r)
        return r;
    /* The handle is the address of the value the conditional node reads (struct cond_value),
     * kept on a list that lives as long as the library: clones and executable graphs share it. */
    atomic_store(&kernel_set_conditional_hook, set_from_kernel);
    struct cond_value *word = calloc(1, sizeof(*word));
    graph_lock();
    struct cond_value **grown = word ? realloc(all, (nall + 1) * sizeof(*all)) : NULL;
    if (grown)
        all = grown;
    CUgraphConditionalHandle *v = grown ? realloc(g->handles, (g->nhandles + 1) * sizeof(*v)) : NULL;
    if (!v) {
        free(word);
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    } else {
        all[nall++] = word;
        word->def = defaultLaunchValue;
        word->assign = flags & CU_GRAPH_COND_ASSIGN_DEFAULT;
        atomic_store(&word->value, defaultLaunchValue);
        g->handles = v;
        g->handles[g->nhandles++] = (CUgraphConditionalHandle)(uintptr_t)word;
        *pHandle_out = (CUgraphConditionalHandle)(uintptr_t)word;
    }
    graph_unlock();
    obj_release(&g->base);
    return r;
}
