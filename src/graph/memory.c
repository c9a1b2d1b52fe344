/*
 * src/graph/memory.c: graph-owned memory (memory allocation and free nodes). The driver fixes
 * an allocation's address when its node is made and backs it while the allocation lives: from
 * the node's run to a free node's run, or to cuMemFree / cuMemFreeAsync outside the graph, or
 * to the next launch with CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH. Here the memory
 * exists from the node's creation to the node's end (every graph and executable graph that
 * holds it gone), so the address stays valid between launches; what lives is counted in the
 * device's graph memory attributes (docs/graphs.md).
 */
#include "graph/graph.h"

#include <stdlib.h>
#include <string.h>

struct gmem {
    struct gmem *next;
    atomic_uint refs;
    CUdeviceptr dptr;
    size_t size;
    bool live;
    bool reserved; /* counted in the reserved memory: from its first launch, as the driver counts */
};

static os_mutex gmem_lock = OS_MUTEX_INITIALIZER;
static struct gmem *all;
/* Memory no node holds any more, freed at the next graph_unlock outside device work: freeing
 * waits for the device (device_release_begin), which must not happen under graph_lock. */
static struct gmem *doomed;
static uint64_t used_now, used_high, reserved_now, reserved_high;

static struct gmem *find_locked(CUdeviceptr dptr)
{
    for (struct gmem *m = all; m; m = m->next)
        if (m->dptr == dptr)
            return m;
    return NULL;
}

/* cuMemFree and cuMemFreeAsync of graph memory (memory.h): its allocation ends. */
static bool free_hook(const char *fn, CUdeviceptr dptr, CUresult *r)
{
    os_mutex_lock(&gmem_lock);
    struct gmem *m = find_locked(dptr);
    bool live = m && m->live;
    if (live) {
        m->live = false;
        used_now -= m->size;
    }
    os_mutex_unlock(&gmem_lock);
    if (!m)
        return false;
    *r = live ? CUDA_SUCCESS
              : fail(CUDA_ERROR_INVALID_VALUE, "%s: dptr 0x%llx is a graph's allocation that is not alive (freed "
                     "already, or its graph not launched since)", fn, (unsigned long long)dptr);
    return true;
}

CUresult gmem_new(const char *fn, struct ctx *ctx, CUDA_MEM_ALLOC_NODE_PARAMS_v2 *p, struct gmem **out)
{
    if (!p->bytesize)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: bytesize is 0", fn);
    if (p->poolProps.allocType != CU_MEM_ALLOCATION_TYPE_PINNED)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: poolProps.allocType %d: graph memory is CU_MEM_ALLOCATION_TYPE_PINNED",
                    fn, (int)p->poolProps.allocType);
    if (p->poolProps.location.type != CU_MEM_LOCATION_TYPE_DEVICE)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: poolProps.location is type %d: graph memory is device memory", fn,
                    (int)p->poolProps.location.type);
    if (p->poolProps.location.id != 0)
        return fail(CUDA_ERROR_INVALID_DEVICE, "%s: poolProps.location.id %d: the device is 0", fn,
                    p->poolProps.location.id);
    if (p->poolProps.handleTypes)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: poolProps.handleTypes 0x%x: graph memory cannot be exported", fn,
                    (unsigned)p->poolProps.handleTypes);
    if (p->accessDescCount > 1 || (p->accessDescCount && !p->accessDescs))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %zu access descriptors for one device", fn, p->accessDescCount);
    struct gmem *m = calloc(1, sizeof(*m));
    if (!m)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    uintptr_t base;
    CUresult r = mem_alloc_device(fn, ctx, p->bytesize, NULL, &base);
    if (r) {
        free(m);
        return r;
    }
    m->dptr = (CUdeviceptr)base;
    m->size = p->bytesize;
    atomic_store(&m->refs, 1);
    atomic_store(&mem_graph_free_hook, free_hook);
    os_mutex_lock(&gmem_lock);
    m->next = all;
    all = m;
    os_mutex_unlock(&gmem_lock);
    *out = m;
    return CUDA_SUCCESS;
}

void gmem_retain(struct gmem *m) { atomic_fetch_add(&m->refs, 1); }

void gmem_release(struct gmem *m)
{
    if (atomic_fetch_sub(&m->refs, 1) != 1)
        return;
    os_mutex_lock(&gmem_lock);
    for (struct gmem **it = &all; *it; it = &(*it)->next)
        if (*it == m) {
            *it = m->next;
            break;
        }
    if (m->live)
        used_now -= m->size;
    if (m->reserved)
        reserved_now -= m->size;
    m->next = doomed;
    doomed = m;
    os_mutex_unlock(&gmem_lock);
}

void gmem_flush(void)
{
    os_mutex_lock(&gmem_lock);
    struct gmem *list = doomed;
    doomed = NULL;
    os_mutex_unlock(&gmem_lock);
    while (list) {
        struct gmem *m = list;
        list = m->next;
        mem_free_device("cuGraphDestroy", m->dptr); /* no longer graph memory: after the work queued before */
        free(m);
    }
}

CUdeviceptr gmem_address(const struct gmem *m) { return m->dptr; }

bool gmem_live(struct gmem *m)
{
    os_mutex_lock(&gmem_lock);
    bool live = m->live;
    os_mutex_unlock(&gmem_lock);
    return live;
}

bool gmem_begin(struct gmem *m, bool auto_free)
{
    os_mutex_lock(&gmem_lock);
    bool was = m->live;
    if (!was) {
        m->live = true;
        used_now += m->size;
        if (used_now > used_high)
            used_high = used_now;
    }
    if (!m->reserved) {
        m->reserved = true;
        reserved_now += m->size;
        if (reserved_now > reserved_high)
            reserved_high = reserved_now;
    }
    os_mutex_unlock(&gmem_lock);
    return !was || auto_free;
}

bool gmem_end_address(CUdeviceptr dptr)
{
    os_mutex_lock(&gmem_lock);
    struct gmem *m = find_locked(dptr);
    bool ended = m && m->live;
    if (ended) {
        m->live = false;
        used_now -= m->size;
    }
    os_mutex_unlock(&gmem_lock);
    return ended;
}

bool gmem_is_graph_memory(CUdeviceptr dptr)
{
    os_mutex_lock(&gmem_lock);
    bool found = find_locked(dptr) != NULL;
    os_mutex_unlock(&gmem_lock);
    return found;
}

/* ---- The device's graph memory ---- */

CUresult CUDAAPI cuDeviceGraphMemTrim(CUdevice device)
{
    const char *fn = "cuDeviceGraphMemTrim";
    REQUIRE_INIT(fn);
    /* Memory that no allocation uses belongs to a node that still exists and keeps its
     * address: there is nothing to give back until the node goes (then it goes at once). */
    return device_check(fn, device);
}

CUresult CUDAAPI cuDeviceGetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void *value)
{
    const char *fn = "cuDeviceGetGraphMemAttribute";
    REQUIRE_INIT(fn);
    CUresult r = device_check(fn, device);
    if (r)
        return r;
    if (!value)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: value is NULL", fn);
    uint64_t v = 0;
    os_mutex_lock(&gmem_lock);
    switch (attr) {
    case CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT: v = used_now; break;
    case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH: v = used_high; break;
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT: v = reserved_now; break;
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH: v = reserved_high; break;
    default: r = fail(CUDA_ERROR_INVALID_VALUE, "%s: attr %d is not a CUgraphMem_attribute", fn, (int)attr);
    }
    os_mutex_unlock(&gmem_lock);
    if (!r)
        memcpy(value, &v, sizeof(v));
    return r;
}

CUresult CUDAAPI cuDeviceSetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void *value)
{
    const char *fn = "cuDeviceSetGraphMemAttribute";
    REQUIRE_INIT(fn);
    CUresult r = device_check(fn, device);
    if (r)
        return r;
    if (!value)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: value is NULL", fn);
    uint64_t v;
    memcpy(&v, value, sizeof(v));
    if (attr != CU_GRAPH_MEM_ATTR_USED_MEM_HIGH && attr != CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: only the high watermarks can be set, not attr %d", fn, (int)attr);
    if (v)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: a high watermark can only be reset (to 0), not set to %llu", fn,
                    (unsigned long long)v);
    os_mutex_lock(&gmem_lock);
    if (attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH)
        used_high = used_now;
    else
        reserved_high = reserved_now;
    os_mutex_unlock(&gmem_lock);
    return CUDA_SUCCESS;
}
