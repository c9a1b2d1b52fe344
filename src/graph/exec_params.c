/*
 * src/graph/exec_params.c: each node type's setter on an executable graph (the generic form is
 * cuGraphExecNodeSetParams, instantiate.c): the parameters of the node made from hNode change
 * for the launches made after the call.
 */
#include "graph/graph.h"

#include <string.h>

CUresult exec_node_set(const char *fn, CUgraphExec hGraphExec, CUgraphNode hNode, CUgraphNodeParams *p);

static void params_init(CUgraphNodeParams *p, CUgraphNodeType type)
{
    memset(p, 0, sizeof(*p));
    p->type = type;
}

CUresult CUDAAPI cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_KERNEL_NODE_PARAMS *k)
{
    const char *fn = "cuGraphExecKernelNodeSetParams";
    if (!k)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    CUgraphNodeParams p = {0};
    params_init(&p, CU_GRAPH_NODE_TYPE_KERNEL);
    memcpy(&p.kernel, k, sizeof(*k)); /* v2 and v3 have one layout */
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
    CUgraphNodeParams p = {0};
    params_init(&p, CU_GRAPH_NODE_TYPE_KERNEL);
    memcpy(&p.kernel, nodeParams, sizeof(*nodeParams));
    return exec_node_set(fn, hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
    const char *fn = "cuGraphExecMemcpyNodeSetParams";
    if (!copyParams)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: copyParams is NULL", fn);
    CUgraphNodeParams p = {0};
    params_init(&p, CU_GRAPH_NODE_TYPE_MEMCPY);
    p.memcpy.copyParams = *copyParams;
    p.memcpy.copyCtx = ctx;
    return exec_node_set(fn, hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_MEMSET_NODE_PARAMS *m, CUcontext ctx)
{
    const char *fn = "cuGraphExecMemsetNodeSetParams";
    if (!m)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: memsetParams is NULL", fn);
    CUgraphNodeParams p = {0};
    params_init(&p, CU_GRAPH_NODE_TYPE_MEMSET);
    memcpy(&p.memset, m, sizeof(*m));
    p.memset.ctx = ctx;
    return exec_node_set(fn, hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                              const CUDA_HOST_NODE_PARAMS *h)
{
    const char *fn = "cuGraphExecHostNodeSetParams";
    if (!h)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    CUgraphNodeParams p = {0};
    params_init(&p, CU_GRAPH_NODE_TYPE_HOST);
    p.host.fn = h->fn;
    p.host.userData = h->userData;
    return exec_node_set(fn, hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecChildGraphNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraph childGraph)
{
    CUgraphNodeParams p = {0};
    params_init(&p, CU_GRAPH_NODE_TYPE_GRAPH);
    p.graph.graph = childGraph;
    return exec_node_set("cuGraphExecChildGraphNodeSetParams", hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
    CUgraphNodeParams p = {0};
    params_init(&p, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
    p.eventRecord.event = event;
    return exec_node_set("cuGraphExecEventRecordNodeSetEvent", hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
    CUgraphNodeParams p = {0};
    params_init(&p, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
    p.eventWait.event = event;
    return exec_node_set("cuGraphExecEventWaitNodeSetEvent", hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecExternalSemaphoresSignalNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                                  const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *s)
{
    const char *fn = "cuGraphExecExternalSemaphoresSignalNodeSetParams";
    if (!s)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    CUgraphNodeParams p = {0};
    params_init(&p, CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL);
    p.extSemSignal.extSemArray = s->extSemArray;
    p.extSemSignal.paramsArray = s->paramsArray;
    p.extSemSignal.numExtSems = s->numExtSems;
    return exec_node_set(fn, hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecExternalSemaphoresWaitNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                                const CUDA_EXT_SEM_WAIT_NODE_PARAMS *w)
{
    const char *fn = "cuGraphExecExternalSemaphoresWaitNodeSetParams";
    if (!w)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    CUgraphNodeParams p = {0};
    params_init(&p, CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT);
    p.extSemWait.extSemArray = w->extSemArray;
    p.extSemWait.paramsArray = w->paramsArray;
    p.extSemWait.numExtSems = w->numExtSems;
    return exec_node_set(fn, hGraphExec, hNode, &p);
}

CUresult CUDAAPI cuGraphExecBatchMemOpNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                    const CUDA_BATCH_MEM_OP_NODE_PARAMS *m)
{
    const char *fn = "cuGraphExecBatchMemOpNodeSetParams";
    if (!m)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: nodeParams is NULL", fn);
    CUgraphNodeParams p = {0};
    params_init(&p, CU_GRAPH_NODE_TYPE_BATCH_MEM_OP);
    p.memOp.ctx = m->ctx;
    p.memOp.count = m->count;
    p.memOp.paramArray = m->paramArray;
    p.memOp.flags = m->flags;
    return exec_node_set(fn, hGraphExec, hNode, &p);
}
