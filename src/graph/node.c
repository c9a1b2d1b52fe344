/*
 * src/graph/node.c: each node type's parameters: checked as the driver checks them where they
 * are given (cuGraphAdd*Node, cuGraph*NodeSetParams, a capture), and copied, so that a node
 * owns everything it names but the memory, functions, events and semaphores themselves, which
 * its launch looks up again (docs/graphs.md).
 */
#include "graph/graph.h"

#include <stdlib.h>
#include <string.h>

void node_params_free(struct node_params *np)
{
    free(np->args.buf);
    free(np->args.offsets);
    free(np->arg_ptrs);
    free(np->sems);
    free(np->sem_params);
    if (np->mem)
        gmem_release(np->mem);
    if (np->p.type == CU_GRAPH_NODE_TYPE_BATCH_MEM_OP)
        free(np->p.memOp.paramArray);
    graph_lock();
    if (np->child)
        graph_free_locked(np->child);
    if (np->bodies)
        for (unsigned int i = 0; i < np->p.conditional.size; ++i)
            if (np->bodies[i])
                graph_free_locked(np->bodies[i]);
    graph_unlock();
    free(np->bodies);
    free(np->body_handles);
    memset(np, 0, sizeof(*np));
}

/* The kernel's arguments as kernelParams (pointers into the copy, which moves with the struct
 * only through node_params_dup; a launch passes the copy as `extra`, launch.c). */
static CUresult kernel_pointers(const char *fn, struct node_params *np)
{
    np->arg_ptrs = calloc(np->args.count + 1, sizeof(void *));
    if (!np->arg_ptrs)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the kernel's parameters", fn);
    for (uint32_t i = 0; i < np->args.count; ++i)
        np->arg_ptrs[i] = np->args.buf + np->args.offsets[i];
    np->p.kernel.kernelParams = np->args.count ? np->arg_ptrs : NULL;
    np->p.kernel.extra = NULL;
    return CUDA_SUCCESS;
}

static CUresult kernel_copy(const char *fn, struct ctx *ctx, CUDA_KERNEL_NODE_PARAMS_v3 *k, struct node_params *np)
{
    CUfunction f = k->func;
    if (!f && k->kern) { /* a CUkernel: its function in the node's context */
        CUresult r = cuKernelGetFunction(&f, k->kern);
        if (r)
            return fail(r, "%s: kern 0x%llx has no function in the current context", fn,
                        (unsigned long long)(uintptr_t)k->kern);
    }
    if (!f) /* the driver's code for it */
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: the kernel node's func and kern are both NULL", fn);
    const unsigned int dims[6] = {k->gridDimX, k->gridDimY, k->gridDimZ, k->blockDimX, k->blockDimY, k->blockDimZ};
    static const unsigned int max[6] = {2147483647u, 65535u, 65535u, 1024u, 1024u, 64u};
    for (int i = 0; i < 6; ++i)
        if (!dims[i] || dims[i] > max[i])
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: the kernel node's %s%c is %u: 1 to %u", fn,
                        i < 3 ? "gridDim" : "blockDim", "XYZ"[i % 3], dims[i], max[i]);
    if ((uint64_t)k->blockDimX * k->blockDimY * k->blockDimZ > 1024)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: a block of %ux%ux%u threads: at most 1024", fn, k->blockDimX,
                    k->blockDimY, k->blockDimZ);
    int max_shared = 0;
    if (!cuFuncGetAttribute(&max_shared, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f) &&
        k->sharedMemBytes > (unsigned int)max_shared)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %u bytes of dynamic shared memory: the kernel allows %d", fn,
                    k->sharedMemBytes, max_shared);
    CUresult r = kernel_args_copy(fn, f, k->kernelParams, k->extra, &np->args);
    if (r)
        return r;
    np->p.kernel = *k;
    np->p.kernel.func = f;
    np->p.kernel.kern = NULL;
    np->p.kernel.ctx = (CUcontext)(uintptr_t)ctx->base.handle;
    return kernel_pointers(fn, np);
}

static CUresult memcpy_copy(const char *fn, struct ctx *ctx, const CUDA_MEMCPY_NODE_PARAMS *m, struct node_params *np)
{
    const CUDA_MEMCPY3D *c = &m->copyParams;
    if (m->flags || m->reserved)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the memcpy node's flags and reserved must be 0", fn);
    const CUmemorytype types[2] = {c->srcMemoryType, c->dstMemoryType};
    for (int i = 0; i < 2; ++i) {
        if (types[i] == CU_MEMORYTYPE_ARRAY) {
            /* The array's region is checked as cuMemcpy3D checks it (src/image's resolver); the
             * node keeps the handle, which the launch's cuMemcpy3DAsync resolves again. */
            CUarray a = i ? c->dstArray : c->srcArray;
            mem_array_resolver resolve = atomic_load(&mem_array_hook);
            uintptr_t addr;
            size_t pitch, slice;
            if (!a)
                return fail(CUDA_ERROR_INVALID_VALUE, "%s: %sArray is NULL", fn, i ? "dst" : "src");
            if (!resolve)
                return fail(CUDA_ERROR_INVALID_HANDLE, "%s: %sArray is not an array extmem made", fn, i ? "dst" : "src");
            if (i ? c->dstLOD : c->srcLOD)
                return fail(CUDA_ERROR_INVALID_VALUE, "%s: %sLOD must be 0", fn, i ? "dst" : "src");
            CUresult r = resolve(fn, i ? "dst" : "src", a, i ? c->dstXInBytes : c->srcXInBytes, i ? c->dstY : c->srcY,
                                 i ? c->dstZ : c->srcZ, c->WidthInBytes, c->Height, c->Depth, &addr, &pitch, &slice);
            if (r)
                return r;
            continue;
        }
        if (types[i] != CU_MEMORYTYPE_HOST && types[i] != CU_MEMORYTYPE_DEVICE && types[i] != CU_MEMORYTYPE_UNIFIED)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: %sMemoryType %d is not a CUmemorytype", fn, i ? "dst" : "src",
                        (int)types[i]);
    }
    if (!c->WidthInBytes || !c->Height || !c->Depth)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: a copy of %zu x %zu x %zu bytes: a memcpy node copies something", fn,
                    c->WidthInBytes, c->Height, c->Depth);
    /* Both sides must be memory the copy may touch, whole, as the driver checks when the node is
     * made: the extent of the last row of the last layer from each side's start. */
    for (int i = 0; i < 2; ++i) {
        bool src = i == 0;
        CUmemorytype type = src ? c->srcMemoryType : c->dstMemoryType;
        if (type == CU_MEMORYTYPE_ARRAY)
            continue; /* checked above */
        uintptr_t base = type == CU_MEMORYTYPE_HOST ? (uintptr_t)(src ? c->srcHost : c->dstHost)
                                                    : (uintptr_t)(src ? c->srcDevice : c->dstDevice);
        size_t pitch = src ? c->srcPitch : c->dstPitch, height = src ? c->srcHeight : c->dstHeight;
        size_t x = src ? c->srcXInBytes : c->dstXInBytes, y = src ? c->srcY : c->dstY, z = src ? c->srcZ : c->dstZ;
        if (!pitch)
            pitch = c->WidthInBytes;
        if (!height)
            height = c->Height;
        if (!base)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: the %s pointer is NULL", fn, src ? "source" : "destination");
        size_t start = x + y * pitch + z * pitch * height;
        size_t len = (c->Depth - 1) * pitch * height + (c->Height - 1) * pitch + c->WidthInBytes;
        if (type == CU_MEMORYTYPE_HOST)
            continue; /* host memory of the program's: read and written when the node runs */
        CUresult r = mem_check_access(fn, src ? "the source" : "the destination", base + start, len,
                                      (src ? 0 : MEM_WRITE) | (type == CU_MEMORYTYPE_DEVICE ? MEM_DEVICE : 0), NULL);
        if (r)
            return r;
    }
    np->p.memcpy = *m;
    np->p.memcpy.copyCtx = (CUcontext)(uintptr_t)ctx->base.handle;
    return CUDA_SUCCESS;
}

static CUresult memset_copy(const char *fn, struct ctx *ctx, const CUDA_MEMSET_NODE_PARAMS_v2 *m,
                            struct node_params *np)
{
    if (m->elementSize != 1 && m->elementSize != 2 && m->elementSize != 4)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: elementSize %u: 1, 2 or 4", fn, m->elementSize);
    if (!m->width || !m->height)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: a fill of %zu x %zu elements: a memset node fills something", fn,
                    m->width, m->height);
    if (!m->dst)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: dst is 0", fn);
    if (m->height > 1 && m->pitch < m->width * m->elementSize)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pitch %zu is smaller than a row of %zu bytes", fn, m->pitch,
                    m->width * m->elementSize);
    if (m->dst % m->elementSize)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: dst 0x%llx is not aligned to the %u-byte elements", fn,
                    (unsigned long long)m->dst, m->elementSize);
    size_t len = (m->height - 1) * m->pitch + m->width * m->elementSize;
    CUresult r = mem_check_access(fn, "dst", (uintptr_t)m->dst, len, MEM_WRITE | MEM_DEVICE, NULL);
    if (r)
        return r;
    np->p.memset = *m;
    np->p.memset.ctx = (CUcontext)(uintptr_t)ctx->base.handle;
    return CUDA_SUCCESS;
}

static CUresult event_check(const char *fn, CUevent e)
{
    struct event *ev;
    CUresult r = event_lookup(fn, e, &ev);
    if (!r)
        event_release(ev);
    return r;
}

static CUresult sems_copy(const char *fn, CUexternalSemaphore *sems, const void *params, unsigned int n, size_t size,
                          struct node_params *np)
{
    if (n && (!sems || !params))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numExtSems is %u but extSemArray or paramsArray is NULL", fn, n);
    if (!n)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numExtSems is 0", fn);
    np->sems = malloc(n * sizeof(*sems));
    np->sem_params = malloc(n * size);
    if (!np->sems || !np->sem_params)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    memcpy(np->sems, sems, n * sizeof(*sems));
    memcpy(np->sem_params, params, n * size);
    return CUDA_SUCCESS;
}

/* The bodies' handles, which phGraph_out gives the caller. */
static CUresult conditional_handles(const char *fn, struct node_params *np)
{
    unsigned int n = np->p.conditional.size;
    if (!(np->body_handles = calloc(n + 1, sizeof(CUgraph))))
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    for (unsigned int i = 0; i < n; ++i)
        np->body_handles[i] = graph_handle(np->bodies[i]);
    np->p.conditional.phGraph_out = np->body_handles;
    return CUDA_SUCCESS;
}

static CUresult conditional_copy(const char *fn, struct graph *g, CUDA_CONDITIONAL_NODE_PARAMS *c,
                                 struct node_params *np)
{
    bool known = false;
    for (size_t i = 0; g && i < g->nhandles; ++i)
        known |= g->handles[i] == c->handle;
    if (!known)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: conditional handle 0x%llx was not made for this graph "
                    "(cuGraphConditionalHandleCreate)", fn, (unsigned long long)c->handle);
    for (struct list_node *it = g->nodes.next; it != &g->nodes; it = it->next) {
        struct node *o = list_entry(it, struct node, graph_node);
        if (o->np.p.type == CU_GRAPH_NODE_TYPE_CONDITIONAL && o->np.p.conditional.handle == c->handle)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: the conditional handle serves another node already", fn);
    }
    if (c->type == CU_GRAPH_COND_TYPE_IF ? c->size < 1 || c->size > 2
        : c->type == CU_GRAPH_COND_TYPE_WHILE ? c->size != 1
        : c->type == CU_GRAPH_COND_TYPE_SWITCH ? c->size < 1
        : true)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: a conditional node of type %d with %u bodies: IF takes 1 or 2, "
                    "WHILE 1, SWITCH at least 1", fn, (int)c->type, c->size);
    if (!(np->bodies = calloc(c->size, sizeof(*np->bodies))))
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    np->p.conditional = *c;
    np->p.conditional.size = 0;
    for (unsigned int i = 0; i < c->size; ++i) {
        CUresult r = graph_new(fn, true, &np->bodies[i]);
        if (r)
            return r;
        np->p.conditional.size = i + 1;
    }
    return conditional_handles(fn, np);
}

CUresult node_params_copy(const char *fn, struct ctx *ctx, struct graph *g, CUgraphNodeParams *p,
                          struct node_params *out)
{
    memset(out, 0, sizeof(*out));
    out->p.type = p->type;
    CUresult r = CUDA_SUCCESS;
    switch (p->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: r = kernel_copy(fn, ctx, &p->kernel, out); break;
    case CU_GRAPH_NODE_TYPE_MEMCPY: r = memcpy_copy(fn, ctx, &p->memcpy, out); break;
    case CU_GRAPH_NODE_TYPE_MEMSET: r = memset_copy(fn, ctx, &p->memset, out); break;
    case CU_GRAPH_NODE_TYPE_HOST:
        if (!p->host.fn)
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the host node's fn is NULL", fn);
        else
            out->p.host = p->host;
        break;
    case CU_GRAPH_NODE_TYPE_GRAPH: {
        struct graph *child = NULL;
        if ((r = graph_lookup(fn, p->graph.graph, &child)))
            break;
        graph_lock();
        if (child == g)
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: a graph cannot be its own child", fn);
        else if (child->conditionals)
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: a graph with conditional nodes cannot be a child graph", fn);
        else if (p->graph.ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE &&
                 p->graph.ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE)
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: ownership %d is not a CUgraphChildGraphNodeOwnership", fn,
                     (int)p->graph.ownership);
        if (!r)
            r = graph_clone_locked(fn, child, true, &out->child);
        graph_unlock();
        if (!r && p->graph.ownership == CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE)
            cuGraphDestroy(p->graph.graph); /* moved: the node's copy is the graph from now on */
        obj_release(&child->base);
        if (!r) {
            out->p.graph.graph = graph_handle(out->child);
            out->p.graph.ownership = p->graph.ownership;
        }
        break;
    }
    case CU_GRAPH_NODE_TYPE_EMPTY: break;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        if (!(r = event_check(fn, p->eventWait.event)))
            out->p.eventWait = p->eventWait;
        break;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        if (!(r = event_check(fn, p->eventRecord.event)))
            out->p.eventRecord = p->eventRecord;
        break;
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
        if (!(r = sems_copy(fn, p->extSemSignal.extSemArray, p->extSemSignal.paramsArray, p->extSemSignal.numExtSems,
                            sizeof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS), out))) {
            out->p.extSemSignal.extSemArray = out->sems;
            out->p.extSemSignal.paramsArray = out->sem_params;
            out->p.extSemSignal.numExtSems = p->extSemSignal.numExtSems;
        }
        break;
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
        if (!(r = sems_copy(fn, p->extSemWait.extSemArray, p->extSemWait.paramsArray, p->extSemWait.numExtSems,
                            sizeof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS), out))) {
            out->p.extSemWait.extSemArray = out->sems;
            out->p.extSemWait.paramsArray = out->sem_params;
            out->p.extSemWait.numExtSems = p->extSemWait.numExtSems;
        }
        break;
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
        if (!(r = gmem_new(fn, ctx, &p->alloc, &out->mem))) {
            out->p.alloc = p->alloc;
            out->p.alloc.accessDescs = NULL;
            out->p.alloc.accessDescCount = 0;
            out->p.alloc.dptr = p->alloc.dptr = gmem_address(out->mem);
        }
        break;
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        if (g && g->instantiated) {
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the graph has been instantiated: no free node can be added to it",
                     fn);
            break;
        }
        graph_lock();
        for (struct list_node *it = g ? g->nodes.next : NULL; it && it != &g->nodes; it = it->next) {
            struct node *o = list_entry(it, struct node, graph_node);
            if (o->np.p.type == CU_GRAPH_NODE_TYPE_MEM_FREE && o->np.p.free.dptr == p->free.dptr)
                r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the graph frees 0x%llx already", fn,
                         (unsigned long long)p->free.dptr);
        }
        graph_unlock();
        if (r)
            break;
        if (!gmem_is_graph_memory(p->free.dptr))
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: dptr 0x%llx is not memory a graph's allocation node made: a free "
                     "node frees only that", fn, (unsigned long long)p->free.dptr);
        else
            out->p.free = p->free;
        break;
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP: {
        const CUDA_BATCH_MEM_OP_NODE_PARAMS_v2 *m = &p->memOp;
        if (!m->count || !m->paramArray)
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: a batch of %u operations at %p", fn, m->count,
                     (void *)m->paramArray);
        else if (!(out->p.memOp.paramArray = malloc(m->count * sizeof(*m->paramArray))))
            r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
        if (!r) {
            memcpy(out->p.memOp.paramArray, m->paramArray, m->count * sizeof(*m->paramArray));
            out->p.memOp.count = m->count;
            out->p.memOp.flags = m->flags;
            out->p.memOp.ctx = (CUcontext)(uintptr_t)ctx->base.handle;
        }
        break;
    }
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
        graph_lock();
        r = conditional_copy(fn, g, &p->conditional, out);
        graph_unlock();
        break;
    default:
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: node type %d is not a CUgraphNodeType", fn, (int)p->type);
    }
    if (r)
        node_params_free(out);
    return r;
}

CUresult node_params_dup(const char *fn, const struct node_params *from, struct node_params *out)
{
    *out = *from;
    out->args.buf = NULL;
    out->args.offsets = NULL;
    out->arg_ptrs = NULL;
    out->sems = NULL;
    out->sem_params = NULL;
    out->child = NULL;
    out->bodies = NULL;
    out->body_handles = NULL;
    if (out->p.type == CU_GRAPH_NODE_TYPE_BATCH_MEM_OP)
        out->p.memOp.paramArray = NULL;
    if (out->mem)
        gmem_retain(out->mem);
    CUresult r = CUDA_SUCCESS;
    switch (from->p.type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
        out->args.buf = malloc(from->args.size + 1);
        out->args.offsets = malloc((from->args.count + 1) * sizeof(uint32_t));
        if (!out->args.buf || !out->args.offsets) {
            r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
            break;
        }
        memcpy(out->args.buf, from->args.buf, from->args.size);
        memcpy(out->args.offsets, from->args.offsets, from->args.count * sizeof(uint32_t));
        r = kernel_pointers(fn, out);
        break;
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT: {
        bool sig = from->p.type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL;
        unsigned int n = sig ? from->p.extSemSignal.numExtSems : from->p.extSemWait.numExtSems;
        if ((r = sems_copy(fn, from->sems, from->sem_params, n,
                           sig ? sizeof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS) : sizeof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS),
                           out)))
            break;
        if (sig) {
            out->p.extSemSignal.extSemArray = out->sems;
            out->p.extSemSignal.paramsArray = out->sem_params;
        } else {
            out->p.extSemWait.extSemArray = out->sems;
            out->p.extSemWait.paramsArray = out->sem_params;
        }
        break;
    }
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
        if (!(out->p.memOp.paramArray = malloc(from->p.memOp.count * sizeof(*from->p.memOp.paramArray)))) {
            r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
            break;
        }
        memcpy(out->p.memOp.paramArray, from->p.memOp.paramArray, from->p.memOp.count * sizeof(*from->p.memOp.paramArray));
        break;
    case CU_GRAPH_NODE_TYPE_GRAPH:
        graph_lock();
        r = graph_clone_locked(fn, from->child, true, &out->child);
        graph_unlock();
        if (!r)
            out->p.graph.graph = graph_handle(out->child);
        break;
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: {
        unsigned int n = from->p.conditional.size;
        out->p.conditional.size = 0;
        if (!(out->bodies = calloc(n, sizeof(*out->bodies)))) {
            r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
            break;
        }
        graph_lock();
        for (unsigned int i = 0; i < n && !r; ++i)
            if (!(r = graph_clone_locked(fn, from->bodies[i], true, &out->bodies[i])))
                out->p.conditional.size = i + 1;
        graph_unlock();
        if (!r)
            r = conditional_handles(fn, out);
        break;
    }
    default: break;
    }
    if (r)
        node_params_free(out);
    return r;
}
