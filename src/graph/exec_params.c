/*
 * src/graph/exec_params.c: each node type's setter on an executable graph (the generic form is
 * cuGraphExecNodeSetParams, instantiate.c): the parameters of the node made from hNode change
 * for the launches made after the call. The public forms become the generic one as for a graph's
 * nodes (params_*, node_api.c).
 */
#include "graph/graph.h"

#include <string.h>

CUresult CUDAAPI cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_KERNEL_NODE_PARAMS *k)
{
    const char *fn = "cuGraphExecKernelNodeSetParams";
    if (!k)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    CUgraphNodeParams p;
    params_kernel(&p, k, true);
    return exec_node_set(fn, hGraphExec, hNode, &p);
}

#undef cuGraphExecKernelNodeSetParams
EXTMEM_API CUresult CUDAAPI cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                           const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams);
CUresult CUDAAPI cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    const char *fn = "cuGraphExecKernelNodeSetParams";
    if (!nodeParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    CUDA_KERNEL_NODE_PARAMS k;
    memset(&k, 0, sizeof(k));
    memcpy(&k, nodeParams, sizeof(*nodeParams)); /* v1 is v2 without kern and ctx */
    CUgraphNodeParams p;
    params_kernel(&p, &k, false);
    return exec_node_set(fn, hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
    const char *fn = "cuGraphExecMemcpyNodeSetParams";
    if (!copyParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: copyParams is NULL", fn);
    CUgraphNodeParams p;
    CUresult r = params_memcpy(fn, &p, copyParams, ctx);
    return r ? r : exec_node_set(fn, hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_MEMSET_NODE_PARAMS *m, CUcontext ctx)
{
    const char *fn = "cuGraphExecMemsetNodeSetParams";
    if (!m)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: memsetParams is NULL", fn);
    CUgraphNodeParams p;
    CUresult r = params_memset(fn, &p, m, ctx);
    return r ? r : exec_node_set(fn, hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                              const CUDA_HOST_NODE_PARAMS *h)
{
    const char *fn = "cuGraphExecHostNodeSetParams";
    if (!h)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    CUgraphNodeParams p;
    params_init(&p, CU_GRAPH_NODE_TYPE_HOST);
    p.host.fn = h->fn;
    p.host.userData = h->userData;
    return exec_node_set(fn, hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecChildGraphNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraph childGraph)
{
    CUgraphNodeParams p;
    params_init(&p, CU_GRAPH_NODE_TYPE_GRAPH);
    p.graph.graph = childGraph;
    return exec_node_set("cuGraphExecChildGraphNodeSetParams", hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
    CUgraphNodeParams p;
    params_event(&p, CU_GRAPH_NODE_TYPE_EVENT_RECORD, event);
    return exec_node_set("cuGraphExecEventRecordNodeSetEvent", hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
    CUgraphNodeParams p;
    params_event(&p, CU_GRAPH_NODE_TYPE_WAIT_EVENT, event);
    return exec_node_set("cuGraphExecEventWaitNodeSetEvent", hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecExternalSemaphoresSignalNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                                  const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *s)
{
    const char *fn = "cuGraphExecExternalSemaphoresSignalNodeSetParams";
    if (!s)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    CUgraphNodeParams p;
    params_sems(&p, CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL, s->extSemArray, s->paramsArray, s->numExtSems);
    return exec_node_set(fn, hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecExternalSemaphoresWaitNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                                const CUDA_EXT_SEM_WAIT_NODE_PARAMS *w)
{
    const char *fn = "cuGraphExecExternalSemaphoresWaitNodeSetParams";
    if (!w)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    CUgraphNodeParams p;
    params_sems(&p, CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, w->extSemArray, w->paramsArray, w->numExtSems);
    return exec_node_set(fn, hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecBatchMemOpNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                    const CUDA_BATCH_MEM_OP_NODE_PARAMS *m)
{
    const char *fn = "cuGraphExecBatchMemOpNodeSetParams";
    if (!m)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    CUgraphNodeParams p;
    params_memop(&p, m);
    return exec_node_set(fn, hGraphExec, hNode, &p);
}
