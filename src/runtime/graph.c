/*
 * src/runtime/graph.c: graphs, their nodes and executable graphs, over the driver's cuGraph*
 * (src/graph, docs/graphs.md). Stream capture and user objects: capture.c.
 *
 * The handles are the driver's (a cudaGraph_t is a CUgraph, a cudaGraphNode_t a CUgraphNode),
 * so the driver tells a live handle from a destroyed or forged one, and the node types, edge
 * data and result structures have the driver's values and layouts. What the runtime converts:
 *   - a kernel node's func, the host function the program launches with <<<>>>, becomes its
 *     CUfunction in the current context (rt_kernel_function); the getters give the host
 *     function back (rt_kernel_host), as NVIDIA's runtime does;
 *   - a copy's cudaMemcpy3DParms becomes a CUDA_MEMCPY3D after cudaMemcpy3D's checks
 *     (rt_copy3d_to_cu); the 1D and symbol forms are 3D copies of one row;
 *   - addresses are pointers here and CUdeviceptrs there (the same value);
 *   - calls that take a context (copies, fills, conditional handles) get the current one.
 */
#include <stdint.h>
#include <string.h>

#if defined(EXTMEM_CUDART_ABI) && EXTMEM_CUDART_ABI == 12
/* CUDA 13 gave these calls the edge data that CUDA 12.3 had added as _v2 forms; libcudart.so.12
 * exports CUDA 12's forms under the plain names (below) and CUDA 13's as the _v2 ones. */
#define cudaGraphGetEdges              rt_graph_get_edges_13
#define cudaGraphNodeGetDependencies   rt_graph_node_get_dependencies_13
#define cudaGraphNodeGetDependentNodes rt_graph_node_get_dependent_nodes_13
#define cudaGraphAddDependencies       rt_graph_add_dependencies_13
#define cudaGraphRemoveDependencies    rt_graph_remove_dependencies_13
#define cudaGraphAddNode               rt_graph_add_node_13
#endif
#include "runtime/runtime.h"

#undef cudaGraphInstantiateWithParams
#undef cudaGraphUpload
#undef cudaGraphLaunch

_Static_assert(sizeof(cudaGraphEdgeData) == sizeof(CUgraphEdgeData), "edge data shares a layout");
_Static_assert(sizeof(struct cudaGraphNodeParams) == sizeof(CUgraphNodeParams), "node parameters are 256 bytes");
_Static_assert(sizeof(cudaGraphExecUpdateResultInfo) == sizeof(CUgraphExecUpdateResultInfo),
               "update results share a layout");
_Static_assert(sizeof(cudaGraphInstantiateParams) == sizeof(CUDA_GRAPH_INSTANTIATE_PARAMS),
               "instantiation parameters share a layout");
_Static_assert(sizeof(struct cudaExternalSemaphoreSignalParams) == sizeof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS),
               "signal parameters share a layout");
_Static_assert(sizeof(struct cudaExternalSemaphoreWaitParams) == sizeof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS),
               "wait parameters share a layout");
_Static_assert(sizeof(struct cudaMemAllocNodeParams) == sizeof(CUDA_MEM_ALLOC_NODE_PARAMS),
               "allocation node parameters share a layout");
_Static_assert(sizeof(cudaKernelNodeAttrValue) == sizeof(CUkernelNodeAttrValue), "attribute values are 64 bytes");

static const CUgraphEdgeData *cu_edges(const cudaGraphEdgeData *e) { return (const CUgraphEdgeData *)(const void *)e; }
static CUgraphEdgeData *cu_edges_out(cudaGraphEdgeData *e) { return (CUgraphEdgeData *)(void *)e; }

/* The thread's context, made current as every runtime call that works in one does. */
static cudaError_t current_ctx(CUcontext *ctx)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuCtxGetCurrent(ctx));
}

#define RT_NEED_CONTEXT()                                                                                             \
    do {                                                                                                              \
        cudaError_t ctx_err_ = rt_context();                                                                          \
        if (ctx_err_ != cudaSuccess)                                                                                  \
            return ctx_err_;                                                                                          \
    } while (0)

#define RT_NOT_NULL(fn, p)                                                                                            \
    do {                                                                                                              \
        if ((p) == NULL)                                                                                              \
            return rt_fail(cudaErrorInvalidValue, "%s: %s is NULL", (fn), #p);                                        \
    } while (0)

/* ---- Conversions ---- */

/* A kernel node's fields (cudaKernelNodeParams or cudaKernelNodeParamsV2, whose names are the
 * same) into a driver kernel node (CUDA_KERNEL_NODE_PARAMS _v2 or _v3, ditto). */
#define RT_KERNEL_TO_CU(c, p, f)                                                                                      \
    do {                                                                                                              \
        memset(&(c), 0, sizeof(c));                                                                                   \
        (c).func = (f);                                                                                               \
        (c).gridDimX = (p)->gridDim.x;                                                                                \
        (c).gridDimY = (p)->gridDim.y;                                                                                \
        (c).gridDimZ = (p)->gridDim.z;                                                                                \
        (c).blockDimX = (p)->blockDim.x;                                                                              \
        (c).blockDimY = (p)->blockDim.y;                                                                              \
        (c).blockDimZ = (p)->blockDim.z;                                                                              \
        (c).sharedMemBytes = (p)->sharedMemBytes;                                                                     \
        (c).kernelParams = (p)->kernelParams;                                                                         \
        (c).extra = (p)->extra;                                                                                       \
    } while (0)

/* And back: a function no registered kernel resolved to (a node the driver API made) is
 * given as the function handle itself. */
#define RT_KERNEL_FROM_CU(p, c)                                                                                       \
    do {                                                                                                              \
        const void *host_ = rt_kernel_host((c).func);                                                                 \
        (p)->func = (void *)(uintptr_t)(host_ ? host_ : (const void *)(c).func);                                      \
        (p)->gridDim.x = (c).gridDimX;                                                                                \
        (p)->gridDim.y = (c).gridDimY;                                                                                \
        (p)->gridDim.z = (c).gridDimZ;                                                                                \
        (p)->blockDim.x = (c).blockDimX;                                                                              \
        (p)->blockDim.y = (c).blockDimY;                                                                              \
        (p)->blockDim.z = (c).blockDimZ;                                                                              \
        (p)->sharedMemBytes = (c).sharedMemBytes;                                                                     \
        (p)->kernelParams = (c).kernelParams;                                                                         \
        (p)->extra = (c).extra;                                                                                       \
    } while (0)

static cudaError_t kernel_to_cu(const char *fn, const struct cudaKernelNodeParams *p, CUDA_KERNEL_NODE_PARAMS *c)
{
    CUfunction f;
    cudaError_t err = rt_kernel_function(fn, p->func, &f);
    if (err != cudaSuccess)
        return err;
    RT_KERNEL_TO_CU(*c, p, f);
    return cudaSuccess;
}

/* Memset nodes: the same fields, dst a pointer. */
#define RT_MEMSET_TO_CU(c, p)                                                                                         \
    do {                                                                                                              \
        memset(&(c), 0, sizeof(c));                                                                                   \
        (c).dst = rt_dptr((p)->dst);                                                                                  \
        (c).pitch = (p)->pitch;                                                                                       \
        (c).value = (p)->value;                                                                                       \
        (c).elementSize = (p)->elementSize;                                                                           \
        (c).width = (p)->width;                                                                                       \
        (c).height = (p)->height;                                                                                     \
    } while (0)

static void memset_from_cu(const CUDA_MEMSET_NODE_PARAMS *c, struct cudaMemsetParams *p)
{
    p->dst = (void *)(uintptr_t)c->dst;
    p->pitch = c->pitch;
    p->value = c->value;
    p->elementSize = c->elementSize;
    p->width = c->width;
    p->height = c->height;
}

/* A copy of count bytes as a 3D copy of one row, checked as cudaMemcpy3D checks it. Pitches
 * and heights are 0, as in the node NVIDIA's runtime makes (its getter reads them back so). */
static cudaError_t copy1d_to_cu(const char *fn, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                CUDA_MEMCPY3D *c)
{
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof(p));
    p.srcPtr.ptr = (void *)(uintptr_t)src;
    p.dstPtr.ptr = dst;
    p.extent.width = count;
    p.extent.height = 1;
    p.extent.depth = 1;
    p.kind = kind;
    return rt_copy3d_to_cu(fn, &p, c);
}

/* The three copy forms a memcpy node setter or adder takes, as one driver descriptor. */
enum copy_form { COPY_3D, COPY_1D, COPY_TO_SYMBOL, COPY_FROM_SYMBOL };
struct copy_args {
    enum copy_form form;
    const struct cudaMemcpy3DParms *p; /* COPY_3D */
    void *dst;
    const void *src;
    const void *symbol;
    size_t count, offset;
    enum cudaMemcpyKind kind;
};

static cudaError_t copy_to_cu(const char *fn, const struct copy_args *a, CUDA_MEMCPY3D *c)
{
    void *at = NULL;
    cudaError_t err;
    switch (a->form) {
    case COPY_3D:
        if (a->p == NULL)
            return rt_fail(cudaErrorInvalidValue, "%s: the copy parameters are NULL", fn);
        return rt_copy3d_to_cu(fn, a->p, c);
    case COPY_1D:
        return copy1d_to_cu(fn, a->dst, a->src, a->count, a->kind, c);
    case COPY_TO_SYMBOL:
        err = rt_to_symbol(fn, a->symbol, a->count, a->offset, a->kind, &at);
        return err != cudaSuccess ? err : copy1d_to_cu(fn, at, a->src, a->count, a->kind, c);
    default:
        err = rt_from_symbol(fn, a->symbol, a->count, a->offset, a->kind, &at);
        return err != cudaSuccess ? err : copy1d_to_cu(fn, a->dst, at, a->count, a->kind, c);
    }
}

/* Any node's parameters into the driver's. Output members (an allocation's address, a
 * conditional's bodies) come back through node_params_out. */
static cudaError_t node_params_to_cu(const char *fn, const struct cudaGraphNodeParams *p, CUgraphNodeParams *c)
{
    memset(c, 0, sizeof(*c));
    c->type = (CUgraphNodeType)p->type;
    memcpy(c->reserved0, p->reserved0, sizeof(c->reserved0));
    c->reserved2 = p->reserved2;
    CUcontext ctx = NULL;
    cudaError_t err = current_ctx(&ctx);
    if (err != cudaSuccess)
        return err;
    switch (p->type) {
    case cudaGraphNodeTypeKernel: {
        CUfunction f;
        err = rt_kernel_function(fn, p->kernel.func, &f);
        if (err != cudaSuccess)
            return err;
        RT_KERNEL_TO_CU(c->kernel, &p->kernel, f);
        return cudaSuccess;
    }
    case cudaGraphNodeTypeMemcpy:
        if (p->memcpy.reserved[1] != 0 || p->memcpy.reserved[2] != 0)
            return rt_fail(cudaErrorInvalidValue, "%s: memcpy.reserved is not zero", fn);
        c->memcpy.flags = p->memcpy.flags;
        c->memcpy.reserved = p->memcpy.reserved[0];
        c->memcpy.copyCtx = ctx;
        return rt_copy3d_to_cu(fn, &p->memcpy.copyParams, &c->memcpy.copyParams);
    case cudaGraphNodeTypeMemset:
        RT_MEMSET_TO_CU(c->memset, &p->memset);
        c->memset.ctx = ctx;
        return cudaSuccess;
    case cudaGraphNodeTypeHost:
        c->host.fn = (CUhostFn)p->host.fn;
        c->host.userData = p->host.userData;
        return cudaSuccess;
    case cudaGraphNodeTypeGraph:
        c->graph.graph = p->graph.graph;
        c->graph.ownership = (CUgraphChildGraphNodeOwnership)p->graph.ownership;
        return cudaSuccess;
    case cudaGraphNodeTypeEmpty:
        return cudaSuccess;
    case cudaGraphNodeTypeWaitEvent:
        c->eventWait.event = p->eventWait.event;
        return cudaSuccess;
    case cudaGraphNodeTypeEventRecord:
        c->eventRecord.event = p->eventRecord.event;
        return cudaSuccess;
    case cudaGraphNodeTypeExtSemaphoreSignal:
        c->extSemSignal.extSemArray = (CUexternalSemaphore *)(void *)p->extSemSignal.extSemArray;
        c->extSemSignal.paramsArray =
            (const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *)(const void *)p->extSemSignal.paramsArray;
        c->extSemSignal.numExtSems = p->extSemSignal.numExtSems;
        return cudaSuccess;
    case cudaGraphNodeTypeExtSemaphoreWait:
        c->extSemWait.extSemArray = (CUexternalSemaphore *)(void *)p->extSemWait.extSemArray;
        c->extSemWait.paramsArray =
            (const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *)(const void *)p->extSemWait.paramsArray;
        c->extSemWait.numExtSems = p->extSemWait.numExtSems;
        return cudaSuccess;
    case cudaGraphNodeTypeMemAlloc:
        memcpy(&c->alloc.poolProps, &p->alloc.poolProps, sizeof(c->alloc.poolProps));
        c->alloc.accessDescs = (const CUmemAccessDesc *)(const void *)p->alloc.accessDescs;
        c->alloc.accessDescCount = p->alloc.accessDescCount;
        c->alloc.bytesize = p->alloc.bytesize;
        return cudaSuccess;
    case cudaGraphNodeTypeMemFree:
        c->free.dptr = rt_dptr(p->free.dptr);
        return cudaSuccess;
    case cudaGraphNodeTypeConditional:
        c->conditional.handle = p->conditional.handle;
        c->conditional.type = (CUgraphConditionalNodeType)p->conditional.type;
        c->conditional.size = p->conditional.size;
        c->conditional.ctx = ctx;
        return cudaSuccess;
    default:
        /* CU_GRAPH_NODE_TYPE_BATCH_MEM_OP (12) has no runtime parameters. */
        return rt_fail(cudaErrorInvalidValue, "%s: type %d is not a cudaGraphNodeType a node can be made of", fn,
                       (int)p->type);
    }
}

static void node_params_out(const CUgraphNodeParams *c, struct cudaGraphNodeParams *p)
{
    if (p->type == cudaGraphNodeTypeMemAlloc)
        p->alloc.dptr = (void *)(uintptr_t)c->alloc.dptr;
    else if (p->type == cudaGraphNodeTypeConditional)
        p->conditional.phGraph_out = c->conditional.phGraph_out;
}

/* ---- Graphs ---- */

cudaError_t CUDARTAPI cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphCreate(pGraph, flags));
}

cudaError_t CUDARTAPI cudaGraphDestroy(cudaGraph_t graph)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphDestroy(graph));
}

cudaError_t CUDARTAPI cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphClone(pGraphClone, originalGraph));
}

cudaError_t CUDARTAPI cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
                                               cudaGraph_t clonedGraph)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphNodeFindInClone(pNode, originalNode, clonedGraph));
}

cudaError_t CUDARTAPI cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
    RT_NOT_NULL("cudaGraphNodeGetType", pType);
    RT_NEED_CONTEXT();
    CUgraphNodeType t;
    cudaError_t err = rt_cu(cuGraphNodeGetType(node, &t));
    if (err == cudaSuccess)
        *pType = (enum cudaGraphNodeType)t;
    return err;
}

cudaError_t CUDARTAPI cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphGetNodes(graph, nodes, numNodes));
}

cudaError_t CUDARTAPI cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphGetRootNodes(graph, pRootNodes, pNumRootNodes));
}

cudaError_t CUDARTAPI cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                        cudaGraphEdgeData *edgeData, size_t *numEdges)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphGetEdges(graph, from, to, cu_edges_out(edgeData), numEdges));
}

cudaError_t CUDARTAPI cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                                   cudaGraphEdgeData *edgeData, size_t *pNumDependencies)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphNodeGetDependencies(node, pDependencies, cu_edges_out(edgeData), pNumDependencies));
}

cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                                     cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphNodeGetDependentNodes(node, pDependentNodes, cu_edges_out(edgeData), pNumDependentNodes));
}

cudaError_t CUDARTAPI cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                               const cudaGraphEdgeData *edgeData, size_t numDependencies)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphAddDependencies(graph, from, to, cu_edges(edgeData), numDependencies));
}

cudaError_t CUDARTAPI cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                  const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                                  size_t numDependencies)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphRemoveDependencies(graph, from, to, cu_edges(edgeData), numDependencies));
}

cudaError_t CUDARTAPI cudaGraphDestroyNode(cudaGraphNode_t node)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphDestroyNode(node));
}

cudaError_t CUDARTAPI cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies, const cudaGraphEdgeData *dependencyData,
                                       size_t numDependencies, struct cudaGraphNodeParams *nodeParams)
{
    const char *fn = "cudaGraphAddNode";
    RT_NOT_NULL(fn, nodeParams);
    CUgraphNodeParams c;
    cudaError_t err = node_params_to_cu(fn, nodeParams, &c);
    if (err != cudaSuccess)
        return err;
    err = rt_cu(cuGraphAddNode(pGraphNode, graph, pDependencies, cu_edges(dependencyData), numDependencies, &c));
    if (err == cudaSuccess)
        node_params_out(&c, nodeParams);
    return err;
}

cudaError_t CUDARTAPI cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams)
{
    const char *fn = "cudaGraphNodeSetParams";
    RT_NOT_NULL(fn, nodeParams);
    CUgraphNodeParams c;
    cudaError_t err = node_params_to_cu(fn, nodeParams, &c);
    return err != cudaSuccess ? err : rt_cu(cuGraphNodeSetParams(node, &c));
}

/* ---- Kernel nodes ---- */

cudaError_t CUDARTAPI cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaKernelNodeParams *pNodeParams)
{
    const char *fn = "cudaGraphAddKernelNode";
    RT_NOT_NULL(fn, pNodeParams);
    RT_NEED_CONTEXT();
    CUDA_KERNEL_NODE_PARAMS c;
    cudaError_t err = kernel_to_cu(fn, pNodeParams, &c);
    return err != cudaSuccess ? err : rt_cu(cuGraphAddKernelNode(pGraphNode, graph, pDependencies, numDependencies, &c));
}

cudaError_t CUDARTAPI cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *pNodeParams)
{
    RT_NOT_NULL("cudaGraphKernelNodeGetParams", pNodeParams);
    RT_NEED_CONTEXT();
    CUDA_KERNEL_NODE_PARAMS c;
    cudaError_t err = rt_cu(cuGraphKernelNodeGetParams(node, &c));
    if (err == cudaSuccess)
        RT_KERNEL_FROM_CU(pNodeParams, c);
    return err;
}

cudaError_t CUDARTAPI cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams)
{
    const char *fn = "cudaGraphKernelNodeSetParams";
    RT_NOT_NULL(fn, pNodeParams);
    RT_NEED_CONTEXT();
    CUDA_KERNEL_NODE_PARAMS c;
    cudaError_t err = kernel_to_cu(fn, pNodeParams, &c);
    return err != cudaSuccess ? err : rt_cu(cuGraphKernelNodeSetParams(node, &c));
}

cudaError_t CUDARTAPI cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphKernelNodeCopyAttributes(hDst, hSrc));
}

cudaError_t CUDARTAPI cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                                      cudaKernelNodeAttrValue *value_out)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphKernelNodeGetAttribute(hNode, (CUkernelNodeAttrID)attr,
                                               (CUkernelNodeAttrValue *)(void *)value_out));
}

cudaError_t CUDARTAPI cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                                      const cudaKernelNodeAttrValue *value)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphKernelNodeSetAttribute(hNode, (CUkernelNodeAttrID)attr,
                                               (const CUkernelNodeAttrValue *)(const void *)value));
}

/* ---- Copy nodes ---- */

static cudaError_t add_copy(const char *fn, cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                            const cudaGraphNode_t *pDependencies, size_t numDependencies, const struct copy_args *a)
{
    CUcontext ctx = NULL;
    cudaError_t err = current_ctx(&ctx);
    if (err != cudaSuccess)
        return err;
    CUDA_MEMCPY3D c;
    err = copy_to_cu(fn, a, &c);
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &c, ctx));
}

static cudaError_t set_copy(const char *fn, cudaGraphNode_t node, const struct copy_args *a)
{
    RT_NEED_CONTEXT();
    CUDA_MEMCPY3D c;
    cudaError_t err = copy_to_cu(fn, a, &c);
    return err != cudaSuccess ? err : rt_cu(cuGraphMemcpyNodeSetParams(node, &c));
}

static cudaError_t exec_set_copy(const char *fn, cudaGraphExec_t exec, cudaGraphNode_t node,
                                 const struct copy_args *a)
{
    CUcontext ctx = NULL;
    cudaError_t err = current_ctx(&ctx);
    if (err != cudaSuccess)
        return err;
    CUDA_MEMCPY3D c;
    err = copy_to_cu(fn, a, &c);
    return err != cudaSuccess ? err : rt_cu(cuGraphExecMemcpyNodeSetParams(exec, node, &c, ctx));
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaMemcpy3DParms *pCopyParams)
{
    struct copy_args a = {.form = COPY_3D, .p = pCopyParams};
    return add_copy("cudaGraphAddMemcpyNode", pGraphNode, graph, pDependencies, numDependencies, &a);
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                               void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    struct copy_args a = {.form = COPY_1D, .dst = dst, .src = src, .count = count, .kind = kind};
    return add_copy("cudaGraphAddMemcpyNode1D", pGraphNode, graph, pDependencies, numDependencies, &a);
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                     const void *symbol, const void *src, size_t count,
                                                     size_t offset, enum cudaMemcpyKind kind)
{
    struct copy_args a = {
        .form = COPY_TO_SYMBOL, .symbol = symbol, .src = src, .count = count, .offset = offset, .kind = kind};
    return add_copy("cudaGraphAddMemcpyNodeToSymbol", pGraphNode, graph, pDependencies, numDependencies, &a);
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                       const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                       void *dst, const void *symbol, size_t count, size_t offset,
                                                       enum cudaMemcpyKind kind)
{
    struct copy_args a = {
        .form = COPY_FROM_SYMBOL, .symbol = symbol, .dst = dst, .count = count, .offset = offset, .kind = kind};
    return add_copy("cudaGraphAddMemcpyNodeFromSymbol", pGraphNode, graph, pDependencies, numDependencies, &a);
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *pNodeParams)
{
    RT_NOT_NULL("cudaGraphMemcpyNodeGetParams", pNodeParams);
    RT_NEED_CONTEXT();
    CUDA_MEMCPY3D c;
    cudaError_t err = rt_cu(cuGraphMemcpyNodeGetParams(node, &c));
    if (err == cudaSuccess)
        rt_copy3d_from_cu(&c, pNodeParams);
    return err;
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *pNodeParams)
{
    struct copy_args a = {.form = COPY_3D, .p = pNodeParams};
    return set_copy("cudaGraphMemcpyNodeSetParams", node, &a);
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src, size_t count,
                                                     enum cudaMemcpyKind kind)
{
    struct copy_args a = {.form = COPY_1D, .dst = dst, .src = src, .count = count, .kind = kind};
    return set_copy("cudaGraphMemcpyNodeSetParams1D", node, &a);
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void *symbol, const void *src,
                                                           size_t count, size_t offset, enum cudaMemcpyKind kind)
{
    struct copy_args a = {
        .form = COPY_TO_SYMBOL, .symbol = symbol, .src = src, .count = count, .offset = offset, .kind = kind};
    return set_copy("cudaGraphMemcpyNodeSetParamsToSymbol", node, &a);
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void *dst, const void *symbol,
                                                             size_t count, size_t offset, enum cudaMemcpyKind kind)
{
    struct copy_args a = {
        .form = COPY_FROM_SYMBOL, .symbol = symbol, .dst = dst, .count = count, .offset = offset, .kind = kind};
    return set_copy("cudaGraphMemcpyNodeSetParamsFromSymbol", node, &a);
}

/* ---- Memset nodes ---- */

cudaError_t CUDARTAPI cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaMemsetParams *pMemsetParams)
{
    RT_NOT_NULL("cudaGraphAddMemsetNode", pMemsetParams);
    CUcontext ctx = NULL;
    cudaError_t err = current_ctx(&ctx);
    if (err != cudaSuccess)
        return err;
    CUDA_MEMSET_NODE_PARAMS c;
    RT_MEMSET_TO_CU(c, pMemsetParams);
    return rt_cu(cuGraphAddMemsetNode(pGraphNode, graph, pDependencies, numDependencies, &c, ctx));
}

cudaError_t CUDARTAPI cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *pNodeParams)
{
    RT_NOT_NULL("cudaGraphMemsetNodeGetParams", pNodeParams);
    RT_NEED_CONTEXT();
    CUDA_MEMSET_NODE_PARAMS c;
    cudaError_t err = rt_cu(cuGraphMemsetNodeGetParams(node, &c));
    if (err == cudaSuccess)
        memset_from_cu(&c, pNodeParams);
    return err;
}

cudaError_t CUDARTAPI cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *pNodeParams)
{
    RT_NOT_NULL("cudaGraphMemsetNodeSetParams", pNodeParams);
    RT_NEED_CONTEXT();
    CUDA_MEMSET_NODE_PARAMS c;
    RT_MEMSET_TO_CU(c, pNodeParams);
    return rt_cu(cuGraphMemsetNodeSetParams(node, &c));
}

/* ---- Host, child graph and empty nodes ---- */

static CUDA_HOST_NODE_PARAMS host_to_cu(const struct cudaHostNodeParams *p)
{
    CUDA_HOST_NODE_PARAMS c = {(CUhostFn)p->fn, p->userData};
    return c;
}

cudaError_t CUDARTAPI cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                           const struct cudaHostNodeParams *pNodeParams)
{
    RT_NOT_NULL("cudaGraphAddHostNode", pNodeParams);
    RT_NEED_CONTEXT();
    CUDA_HOST_NODE_PARAMS c = host_to_cu(pNodeParams);
    return rt_cu(cuGraphAddHostNode(pGraphNode, graph, pDependencies, numDependencies, &c));
}

cudaError_t CUDARTAPI cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *pNodeParams)
{
    RT_NOT_NULL("cudaGraphHostNodeGetParams", pNodeParams);
    RT_NEED_CONTEXT();
    CUDA_HOST_NODE_PARAMS c;
    cudaError_t err = rt_cu(cuGraphHostNodeGetParams(node, &c));
    if (err == cudaSuccess) {
        pNodeParams->fn = (cudaHostFn_t)c.fn;
        pNodeParams->userData = c.userData;
    }
    return err;
}

cudaError_t CUDARTAPI cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *pNodeParams)
{
    RT_NOT_NULL("cudaGraphHostNodeSetParams", pNodeParams);
    RT_NEED_CONTEXT();
    CUDA_HOST_NODE_PARAMS c = host_to_cu(pNodeParams);
    return rt_cu(cuGraphHostNodeSetParams(node, &c));
}

cudaError_t CUDARTAPI cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                 cudaGraph_t childGraph)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphAddChildGraphNode(pGraphNode, graph, pDependencies, numDependencies, childGraph));
}

cudaError_t CUDARTAPI cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphChildGraphNodeGetGraph(node, pGraph));
}

cudaError_t CUDARTAPI cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t *pDependencies, size_t numDependencies)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies));
}

/* ---- Event nodes ---- */

cudaError_t CUDARTAPI cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                  cudaEvent_t event)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphAddEventRecordNode(pGraphNode, graph, pDependencies, numDependencies, event));
}

cudaError_t CUDARTAPI cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphEventRecordNodeGetEvent(node, event_out));
}

cudaError_t CUDARTAPI cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphEventRecordNodeSetEvent(node, event));
}

cudaError_t CUDARTAPI cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                cudaEvent_t event)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphAddEventWaitNode(pGraphNode, graph, pDependencies, numDependencies, event));
}

cudaError_t CUDARTAPI cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphEventWaitNodeGetEvent(node, event_out));
}

cudaError_t CUDARTAPI cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphEventWaitNodeSetEvent(node, event));
}

/* ---- External semaphore nodes ----
 * The runtime's signal and wait parameters have the driver's layout (the assertions above; the
 * ABI test checks both against NVIDIA's headers), so the arrays are handed over as they are. */

#define RT_SEMAS_TO_CU(c, p, T)                                                                                       \
    do {                                                                                                              \
        (c).extSemArray = (CUexternalSemaphore *)(void *)(p)->extSemArray;                                            \
        (c).paramsArray = (const T *)(const void *)(p)->paramsArray;                                                  \
        (c).numExtSems = (p)->numExtSems;                                                                             \
    } while (0)
#define RT_SEMAS_FROM_CU(p, c, T)                                                                                     \
    do {                                                                                                              \
        (p)->extSemArray = (cudaExternalSemaphore_t *)(void *)(c).extSemArray;                                        \
        (p)->paramsArray = (const T *)(const void *)(c).paramsArray;                                                  \
        (p)->numExtSems = (c).numExtSems;                                                                             \
    } while (0)

cudaError_t CUDARTAPI cudaGraphAddExternalSemaphoresSignalNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                               const cudaGraphNode_t *pDependencies,
                                                               size_t numDependencies,
                                                               const struct cudaExternalSemaphoreSignalNodeParams *nodeParams)
{
    RT_NOT_NULL("cudaGraphAddExternalSemaphoresSignalNode", nodeParams);
    RT_NEED_CONTEXT();
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS c;
    RT_SEMAS_TO_CU(c, nodeParams, CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS);
    return rt_cu(cuGraphAddExternalSemaphoresSignalNode(pGraphNode, graph, pDependencies, numDependencies, &c));
}

cudaError_t CUDARTAPI cudaGraphExternalSemaphoresSignalNodeGetParams(
    cudaGraphNode_t hNode, struct cudaExternalSemaphoreSignalNodeParams *params_out)
{
    RT_NOT_NULL("cudaGraphExternalSemaphoresSignalNodeGetParams", params_out);
    RT_NEED_CONTEXT();
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS c;
    cudaError_t err = rt_cu(cuGraphExternalSemaphoresSignalNodeGetParams(hNode, &c));
    if (err == cudaSuccess)
        RT_SEMAS_FROM_CU(params_out, c, struct cudaExternalSemaphoreSignalParams);
    return err;
}

cudaError_t CUDARTAPI cudaGraphExternalSemaphoresSignalNodeSetParams(
    cudaGraphNode_t hNode, const struct cudaExternalSemaphoreSignalNodeParams *nodeParams)
{
    RT_NOT_NULL("cudaGraphExternalSemaphoresSignalNodeSetParams", nodeParams);
    RT_NEED_CONTEXT();
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS c;
    RT_SEMAS_TO_CU(c, nodeParams, CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS);
    return rt_cu(cuGraphExternalSemaphoresSignalNodeSetParams(hNode, &c));
}

cudaError_t CUDARTAPI cudaGraphAddExternalSemaphoresWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                             const cudaGraphNode_t *pDependencies,
                                                             size_t numDependencies,
                                                             const struct cudaExternalSemaphoreWaitNodeParams *nodeParams)
{
    RT_NOT_NULL("cudaGraphAddExternalSemaphoresWaitNode", nodeParams);
    RT_NEED_CONTEXT();
    CUDA_EXT_SEM_WAIT_NODE_PARAMS c;
    RT_SEMAS_TO_CU(c, nodeParams, CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS);
    return rt_cu(cuGraphAddExternalSemaphoresWaitNode(pGraphNode, graph, pDependencies, numDependencies, &c));
}

cudaError_t CUDARTAPI cudaGraphExternalSemaphoresWaitNodeGetParams(cudaGraphNode_t hNode,
                                                                   struct cudaExternalSemaphoreWaitNodeParams *params_out)
{
    RT_NOT_NULL("cudaGraphExternalSemaphoresWaitNodeGetParams", params_out);
    RT_NEED_CONTEXT();
    CUDA_EXT_SEM_WAIT_NODE_PARAMS c;
    cudaError_t err = rt_cu(cuGraphExternalSemaphoresWaitNodeGetParams(hNode, &c));
    if (err == cudaSuccess)
        RT_SEMAS_FROM_CU(params_out, c, struct cudaExternalSemaphoreWaitParams);
    return err;
}

cudaError_t CUDARTAPI cudaGraphExternalSemaphoresWaitNodeSetParams(
    cudaGraphNode_t hNode, const struct cudaExternalSemaphoreWaitNodeParams *nodeParams)
{
    RT_NOT_NULL("cudaGraphExternalSemaphoresWaitNodeSetParams", nodeParams);
    RT_NEED_CONTEXT();
    CUDA_EXT_SEM_WAIT_NODE_PARAMS c;
    RT_SEMAS_TO_CU(c, nodeParams, CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS);
    return rt_cu(cuGraphExternalSemaphoresWaitNodeSetParams(hNode, &c));
}

/* ---- Graph-owned memory ---- */

cudaError_t CUDARTAPI cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                               struct cudaMemAllocNodeParams *nodeParams)
{
    RT_NOT_NULL("cudaGraphAddMemAllocNode", nodeParams);
    RT_NEED_CONTEXT();
    CUDA_MEM_ALLOC_NODE_PARAMS c;
    memset(&c, 0, sizeof(c));
    memcpy(&c.poolProps, &nodeParams->poolProps, sizeof(c.poolProps));
    c.accessDescs = (const CUmemAccessDesc *)(const void *)nodeParams->accessDescs;
    c.accessDescCount = nodeParams->accessDescCount;
    c.bytesize = nodeParams->bytesize;
    cudaError_t err = rt_cu(cuGraphAddMemAllocNode(pGraphNode, graph, pDependencies, numDependencies, &c));
    if (err == cudaSuccess)
        nodeParams->dptr = (void *)(uintptr_t)c.dptr;
    return err;
}

cudaError_t CUDARTAPI cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *params_out)
{
    RT_NOT_NULL("cudaGraphMemAllocNodeGetParams", params_out);
    RT_NEED_CONTEXT();
    CUDA_MEM_ALLOC_NODE_PARAMS c;
    cudaError_t err = rt_cu(cuGraphMemAllocNodeGetParams(node, &c));
    if (err == cudaSuccess) {
        memcpy(&params_out->poolProps, &c.poolProps, sizeof(params_out->poolProps));
        params_out->accessDescs = (const struct cudaMemAccessDesc *)(const void *)c.accessDescs;
        params_out->accessDescCount = c.accessDescCount;
        params_out->bytesize = c.bytesize;
        params_out->dptr = (void *)(uintptr_t)c.dptr;
    }
    return err;
}

cudaError_t CUDARTAPI cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dptr)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphAddMemFreeNode(pGraphNode, graph, pDependencies, numDependencies, rt_dptr(dptr)));
}

cudaError_t CUDARTAPI cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out)
{
    RT_NOT_NULL("cudaGraphMemFreeNodeGetParams", dptr_out);
    RT_NEED_CONTEXT();
    CUdeviceptr d = 0;
    cudaError_t err = rt_cu(cuGraphMemFreeNodeGetParams(node, &d));
    if (err == cudaSuccess)
        *(void **)dptr_out = (void *)(uintptr_t)d;
    return err;
}

cudaError_t CUDARTAPI cudaDeviceGraphMemTrim(int device)
{
    CUdevice dev;
    cudaError_t err = rt_device("cudaDeviceGraphMemTrim", device, &dev);
    if (err == cudaSuccess)
        err = rt_context();
    return err != cudaSuccess ? err : rt_cu(cuDeviceGraphMemTrim(dev));
}

cudaError_t CUDARTAPI cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value)
{
    CUdevice dev;
    cudaError_t err = rt_device("cudaDeviceGetGraphMemAttribute", device, &dev);
    if (err == cudaSuccess)
        err = rt_context();
    return err != cudaSuccess ? err : rt_cu(cuDeviceGetGraphMemAttribute(dev, (CUgraphMem_attribute)attr, value));
}

cudaError_t CUDARTAPI cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value)
{
    CUdevice dev;
    cudaError_t err = rt_device("cudaDeviceSetGraphMemAttribute", device, &dev);
    if (err == cudaSuccess)
        err = rt_context();
    return err != cudaSuccess ? err : rt_cu(cuDeviceSetGraphMemAttribute(dev, (CUgraphMem_attribute)attr, value));
}

/* ---- Conditional handles and debugging ---- */

cudaError_t CUDARTAPI cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
                                                       unsigned int defaultLaunchValue, unsigned int flags)
{
    CUcontext ctx = NULL;
    cudaError_t err = current_ctx(&ctx);
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuGraphConditionalHandleCreate((CUgraphConditionalHandle *)pHandle_out, graph, ctx,
                                                defaultLaunchValue, flags));
}

cudaError_t CUDARTAPI cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphDebugDotPrint(graph, path, flags));
}

/* ---- Executable graphs ---- */

cudaError_t CUDARTAPI cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphInstantiateWithFlags(pGraphExec, graph, flags));
}

cudaError_t CUDARTAPI cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                    unsigned long long flags)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphInstantiateWithFlags(pGraphExec, graph, flags));
}

static cudaError_t instantiate_with_params(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams *p, bool ptsz)
{
    RT_NOT_NULL("cudaGraphInstantiateWithParams", p);
    RT_NEED_CONTEXT();
    CUDA_GRAPH_INSTANTIATE_PARAMS c;
    memset(&c, 0, sizeof(c));
    c.flags = p->flags;
    c.hUploadStream = ptsz ? rt_ptsz(p->uploadStream) : p->uploadStream;
    CUresult r = cuGraphInstantiateWithParams(pGraphExec, graph, &c);
    p->errNode_out = c.hErrNode_out;
    p->result_out = (cudaGraphInstantiateResult)c.result_out;
    return rt_cu(r);
}

cudaError_t CUDARTAPI cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                     cudaGraphInstantiateParams *instantiateParams)
{
    return instantiate_with_params(pGraphExec, graph, instantiateParams, false);
}

cudaError_t CUDARTAPI cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                          cudaGraphInstantiateParams *instantiateParams)
{
    return instantiate_with_params(pGraphExec, graph, instantiateParams, true);
}

cudaError_t CUDARTAPI cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags)
{
    RT_NEED_CONTEXT();
    _Static_assert(sizeof(unsigned long long) == sizeof(cuuint64_t), "flags are 64 bits");
    return rt_cu(cuGraphExecGetFlags(graphExec, (cuuint64_t *)flags));
}

cudaError_t CUDARTAPI cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                          cudaGraphExecUpdateResultInfo *resultInfo)
{
    RT_NEED_CONTEXT();
    /* resultInfo may be NULL: NVIDIA's runtime updates all the same (docs/probes/graphs B7,
     * runtime_graph_probe), so the driver is always given somewhere to answer. */
    CUgraphExecUpdateResultInfo c;
    memset(&c, 0, sizeof(c));
    CUresult r = cuGraphExecUpdate(hGraphExec, hGraph, &c);
    if (resultInfo) {
        resultInfo->result = (enum cudaGraphExecUpdateResult)c.result;
        resultInfo->errorNode = c.errorNode;
        resultInfo->errorFromNode = c.errorFromNode;
    }
    return rt_cu(r);
}

cudaError_t CUDARTAPI cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                                 struct cudaGraphNodeParams *nodeParams)
{
    const char *fn = "cudaGraphExecNodeSetParams";
    RT_NOT_NULL(fn, nodeParams);
    CUgraphNodeParams c;
    cudaError_t err = node_params_to_cu(fn, nodeParams, &c);
    return err != cudaSuccess ? err : rt_cu(cuGraphExecNodeSetParams(graphExec, node, &c));
}

cudaError_t CUDARTAPI cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                       const struct cudaKernelNodeParams *pNodeParams)
{
    const char *fn = "cudaGraphExecKernelNodeSetParams";
    RT_NOT_NULL(fn, pNodeParams);
    RT_NEED_CONTEXT();
    CUDA_KERNEL_NODE_PARAMS c;
    cudaError_t err = kernel_to_cu(fn, pNodeParams, &c);
    return err != cudaSuccess ? err : rt_cu(cuGraphExecKernelNodeSetParams(hGraphExec, node, &c));
}

cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                       const struct cudaMemcpy3DParms *pNodeParams)
{
    struct copy_args a = {.form = COPY_3D, .p = pNodeParams};
    return exec_set_copy("cudaGraphExecMemcpyNodeSetParams", hGraphExec, node, &a);
}

cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void *dst,
                                                         const void *src, size_t count, enum cudaMemcpyKind kind)
{
    struct copy_args a = {.form = COPY_1D, .dst = dst, .src = src, .count = count, .kind = kind};
    return exec_set_copy("cudaGraphExecMemcpyNodeSetParams1D", hGraphExec, node, &a);
}

cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                               const void *symbol, const void *src, size_t count,
                                                               size_t offset, enum cudaMemcpyKind kind)
{
    struct copy_args a = {
        .form = COPY_TO_SYMBOL, .symbol = symbol, .src = src, .count = count, .offset = offset, .kind = kind};
    return exec_set_copy("cudaGraphExecMemcpyNodeSetParamsToSymbol", hGraphExec, node, &a);
}

cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                                 void *dst, const void *symbol, size_t count,
                                                                 size_t offset, enum cudaMemcpyKind kind)
{
    struct copy_args a = {
        .form = COPY_FROM_SYMBOL, .symbol = symbol, .dst = dst, .count = count, .offset = offset, .kind = kind};
    return exec_set_copy("cudaGraphExecMemcpyNodeSetParamsFromSymbol", hGraphExec, node, &a);
}

cudaError_t CUDARTAPI cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                       const struct cudaMemsetParams *pNodeParams)
{
    RT_NOT_NULL("cudaGraphExecMemsetNodeSetParams", pNodeParams);
    CUcontext ctx = NULL;
    cudaError_t err = current_ctx(&ctx);
    if (err != cudaSuccess)
        return err;
    CUDA_MEMSET_NODE_PARAMS c;
    RT_MEMSET_TO_CU(c, pNodeParams);
    return rt_cu(cuGraphExecMemsetNodeSetParams(hGraphExec, node, &c, ctx));
}

cudaError_t CUDARTAPI cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                     const struct cudaHostNodeParams *pNodeParams)
{
    RT_NOT_NULL("cudaGraphExecHostNodeSetParams", pNodeParams);
    RT_NEED_CONTEXT();
    CUDA_HOST_NODE_PARAMS c = host_to_cu(pNodeParams);
    return rt_cu(cuGraphExecHostNodeSetParams(hGraphExec, node, &c));
}

cudaError_t CUDARTAPI cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                           cudaGraph_t childGraph)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphExecChildGraphNodeSetParams(hGraphExec, node, childGraph));
}

cudaError_t CUDARTAPI cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                                           cudaEvent_t event)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphExecEventRecordNodeSetEvent(hGraphExec, hNode, event));
}

cudaError_t CUDARTAPI cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                                         cudaEvent_t event)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphExecEventWaitNodeSetEvent(hGraphExec, hNode, event));
}

cudaError_t CUDARTAPI cudaGraphExecExternalSemaphoresSignalNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, const struct cudaExternalSemaphoreSignalNodeParams *nodeParams)
{
    RT_NOT_NULL("cudaGraphExecExternalSemaphoresSignalNodeSetParams", nodeParams);
    RT_NEED_CONTEXT();
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS c;
    RT_SEMAS_TO_CU(c, nodeParams, CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS);
    return rt_cu(cuGraphExecExternalSemaphoresSignalNodeSetParams(hGraphExec, hNode, &c));
}

cudaError_t CUDARTAPI cudaGraphExecExternalSemaphoresWaitNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, const struct cudaExternalSemaphoreWaitNodeParams *nodeParams)
{
    RT_NOT_NULL("cudaGraphExecExternalSemaphoresWaitNodeSetParams", nodeParams);
    RT_NEED_CONTEXT();
    CUDA_EXT_SEM_WAIT_NODE_PARAMS c;
    RT_SEMAS_TO_CU(c, nodeParams, CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS);
    return rt_cu(cuGraphExecExternalSemaphoresWaitNodeSetParams(hGraphExec, hNode, &c));
}

cudaError_t CUDARTAPI cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int isEnabled)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphNodeSetEnabled(hGraphExec, hNode, isEnabled));
}

cudaError_t CUDARTAPI cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                              unsigned int *isEnabled)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphNodeGetEnabled(hGraphExec, hNode, isEnabled));
}

cudaError_t CUDARTAPI cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphUpload(graphExec, stream));
}

cudaError_t CUDARTAPI cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    return cudaGraphUpload(graphExec, rt_ptsz(stream));
}

cudaError_t CUDARTAPI cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphLaunch(graphExec, stream));
}

cudaError_t CUDARTAPI cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    return cudaGraphLaunch(graphExec, rt_ptsz(stream));
}

cudaError_t CUDARTAPI cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
    RT_NEED_CONTEXT();
    return rt_cu(cuGraphExecDestroy(graphExec));
}

#if defined(EXTMEM_CUDART_ABI) && EXTMEM_CUDART_ABI == 12
#undef cudaGraphGetEdges
#undef cudaGraphNodeGetDependencies
#undef cudaGraphNodeGetDependentNodes
#undef cudaGraphAddDependencies
#undef cudaGraphRemoveDependencies
#undef cudaGraphAddNode

/* CUDA 12's forms: no edge data (ordinary edges; reading edges that carry data is the
 * driver's CUDA_ERROR_LOSSY_QUERY). Declared here with EXTMEM_API, as the header declares the
 * CUDA 13 forms. */
EXTMEM_API cudaError_t CUDARTAPI cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                                   size_t *numEdges);
cudaError_t CUDARTAPI cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to, size_t *numEdges)
{
    return rt_graph_get_edges_13(graph, from, to, NULL, numEdges);
}
EXTMEM_API cudaError_t CUDARTAPI cudaGraphGetEdges_v2(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                                      cudaGraphEdgeData *edgeData, size_t *numEdges);
cudaError_t CUDARTAPI cudaGraphGetEdges_v2(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                           cudaGraphEdgeData *edgeData, size_t *numEdges)
{
    return rt_graph_get_edges_13(graph, from, to, edgeData, numEdges);
}

EXTMEM_API cudaError_t CUDARTAPI cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                                              size_t *pNumDependencies);
cudaError_t CUDARTAPI cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                                   size_t *pNumDependencies)
{
    return rt_graph_node_get_dependencies_13(node, pDependencies, NULL, pNumDependencies);
}
EXTMEM_API cudaError_t CUDARTAPI cudaGraphNodeGetDependencies_v2(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                                                 cudaGraphEdgeData *edgeData,
                                                                 size_t *pNumDependencies);
cudaError_t CUDARTAPI cudaGraphNodeGetDependencies_v2(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                                      cudaGraphEdgeData *edgeData, size_t *pNumDependencies)
{
    return rt_graph_node_get_dependencies_13(node, pDependencies, edgeData, pNumDependencies);
}

EXTMEM_API cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                                                size_t *pNumDependentNodes);
cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                                     size_t *pNumDependentNodes)
{
    return rt_graph_node_get_dependent_nodes_13(node, pDependentNodes, NULL, pNumDependentNodes);
}
EXTMEM_API cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes_v2(cudaGraphNode_t node,
                                                                   cudaGraphNode_t *pDependentNodes,
                                                                   cudaGraphEdgeData *edgeData,
                                                                   size_t *pNumDependentNodes);
cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes_v2(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                                        cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes)
{
    return rt_graph_node_get_dependent_nodes_13(node, pDependentNodes, edgeData, pNumDependentNodes);
}

EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                          const cudaGraphNode_t *to, size_t numDependencies);
cudaError_t CUDARTAPI cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                               size_t numDependencies)
{
    return rt_graph_add_dependencies_13(graph, from, to, NULL, numDependencies);
}
EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddDependencies_v2(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                             const cudaGraphNode_t *to,
                                                             const cudaGraphEdgeData *edgeData, size_t numDependencies);
cudaError_t CUDARTAPI cudaGraphAddDependencies_v2(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                  const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                                  size_t numDependencies)
{
    return rt_graph_add_dependencies_13(graph, from, to, edgeData, numDependencies);
}

EXTMEM_API cudaError_t CUDARTAPI cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                             const cudaGraphNode_t *to, size_t numDependencies);
cudaError_t CUDARTAPI cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                  const cudaGraphNode_t *to, size_t numDependencies)
{
    return rt_graph_remove_dependencies_13(graph, from, to, NULL, numDependencies);
}
EXTMEM_API cudaError_t CUDARTAPI cudaGraphRemoveDependencies_v2(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                                const cudaGraphNode_t *to,
                                                                const cudaGraphEdgeData *edgeData,
                                                                size_t numDependencies);
cudaError_t CUDARTAPI cudaGraphRemoveDependencies_v2(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                     const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                                     size_t numDependencies)
{
    return rt_graph_remove_dependencies_13(graph, from, to, edgeData, numDependencies);
}

EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                  struct cudaGraphNodeParams *nodeParams);
cudaError_t CUDARTAPI cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                       struct cudaGraphNodeParams *nodeParams)
{
    return rt_graph_add_node_13(pGraphNode, graph, pDependencies, NULL, numDependencies, nodeParams);
}
EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddNode_v2(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                     const cudaGraphNode_t *pDependencies,
                                                     const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                     struct cudaGraphNodeParams *nodeParams);
cudaError_t CUDARTAPI cudaGraphAddNode_v2(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                          const cudaGraphNode_t *pDependencies, const cudaGraphEdgeData *dependencyData,
                                          size_t numDependencies, struct cudaGraphNodeParams *nodeParams)
{
    return rt_graph_add_node_13(pGraphNode, graph, pDependencies, dependencyData, numDependencies, nodeParams);
}
#endif
