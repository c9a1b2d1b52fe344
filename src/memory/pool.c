/*
 * Memory pools: stream-ordered allocation (cuMemAllocAsync, cuMemFreeAsync) and exportable
 * pools, the stream-ordered IPC path (docs/memory-pools.md).
 *
 * A pool hands out blocks. Each block is one allocation of its own, made as cuMemAlloc makes
 * one (a sealed memfd named after a nonce, mapped shared: memory.c's mem_range_init), so any
 * block can be reached from another process the way IPC reaches memory (src/interop/ipc.c).
 * The pool reserves per allocation (whole pages), not in the driver's 32 MiB chunks: its
 * counters then say exactly what it holds.
 *
 * A block handed out is a registered range of the context that allocated it (kind
 * RANGE_DEVICE, so every call that takes device memory takes it, cuMemFree included). Its free
 * is stream-ordered: cuMemFreeAsync marks the range (pending_free: no second free can take it)
 * and queues work on the stream; only when that work runs, after everything queued before it,
 * does the block leave the address map and go back to the pool's cache, where a later
 * allocation of about its size reuses it. A free never unmaps memory in a stream's thread: the
 * cache gives memory above the release threshold back to the system where nothing queued can
 * still touch it: at the program's synchronisation points (cuStreamSynchronize,
 * cuEventSynchronize, cuCtxSynchronize, and a default stream's cuMemFreeAsync) and at an
 * allocation that cannot reuse what the cache holds, when no work is queued anywhere on the
 * device and no other thread is submitting (these never wait: another thread's submission may be
 * waiting for the caller), as the driver releases at synchronisation; and in calls that first
 * wait for the device's queued work as cuMemFree does (cuMemPoolTrimTo, the pool's destruction,
 * the context's teardown).
 *
 * An exportable pool (handleTypes has this platform's handle type) has a page of shared memory
 * of its own, a memfd named "extmem-pool-<nonce>": cuMemPoolExportToShareableHandle gives the
 * caller a new descriptor of it, and an importer maps it. The page names the exporter (pid,
 * start time) and holds a table of exported blocks; cuMemPoolExportPointer puts a block in a
 * slot with a fresh 128-bit random token, and its export data names slot and token. An importer
 * reads the slot, checks the token, reaches the block's memfd as IPC does (os_ipc_open, then
 * every identity check) and maps it. A free clears the slot, so a stale or forged export data
 * finds no token it matches: CUDA_ERROR_INVALID_VALUE, never another allocation.
 */
#include "memory/memory.h"
#include "exec/exec.h"
#include "exec/per_thread.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The shared page of an exportable pool ---- */
#define PAGE_MAGIC "xmPOOLpg"
#define EXPORT_MAGIC "xmPOOLpt"
#define PAGE_BYTES (64u * 1024u)

struct pool_page_header {
    char magic[8];
    uint32_t pid;
    uint32_t nslots;
    uint64_t start_time;
    uint8_t nonce[16]; /* the pool's: also in the page's name */
    uint8_t zero[24];
};

/* A slot of the table: written by the exporter only, under its pool's lock; `seq` is odd while
 * it is being written, so a reader in another process copies a consistent slot or retries. */
struct pool_slot {
    _Atomic uint64_t seq;
    uint8_t token[16];  /* 0 while free */
    uint8_t nonce[16];  /* the block's memfd nonce (its name) */
    uint64_t size;      /* the block's size as handed out */
    int32_t os_token;   /* os_ipc_token of the block's memory object */
    uint32_t live;
    uint64_t zero;
};

#define PAGE_SLOTS ((PAGE_BYTES - sizeof(struct pool_page_header)) / sizeof(struct pool_slot))

struct pool_page {
    struct pool_page_header h;
    struct pool_slot slots[PAGE_SLOTS];
};
_Static_assert(sizeof(struct pool_page_header) == 64, "the page header is 64 bytes");
_Static_assert(sizeof(struct pool_slot) == 64, "a slot is 64 bytes");
_Static_assert(sizeof(struct pool_page) <= PAGE_BYTES, "the table fits the page");

/* The 64 bytes of CUmemPoolPtrExportData. */
struct pool_export {
    char magic[8];
    uint32_t slot;
    uint32_t zero;
    uint64_t zero2;    /* an export names a whole allocation, from its start */
    uint8_t token[16]; /* the slot's */
    uint8_t pool[16];  /* the pool's nonce */
    uint64_t size;     /* the block's */
};
_Static_assert(sizeof(struct pool_export) == sizeof(CUmemPoolPtrExportData), "export data is 64 bytes");

/* ---- Pools and blocks ---- */
struct mempool {
    struct obj base;
    os_mutex lock; /* guards what follows */
    CUmemPoolProps props;
    bool is_default, imported, destroyed;
    bool exported; /* cuMemPoolExportToShareableHandle has given it out (under lock) */
    int reuse[3]; /* CU_MEMPOOL_ATTR_REUSE_*: kept and reported (see pool_reuse below) */
    uint64_t release_threshold;
    uint64_t reserved, reserved_high, used, used_high;
    struct list_node cached; /* struct pool_block.pool_node: freed, kept for reuse */
    struct list_node imports; /* imported pools: struct pool_import.node, the live imports */
    struct list_node all;    /* pools_all */
    /* Exportable or imported: the shared page. */
    os_memory page_mem;
    struct pool_page *page;
    uint8_t nonce[16];
    uint8_t slot_used[PAGE_SLOTS]; /* exporter: which slots are taken */
};

struct pool_block {
    struct range r;         /* first: what range hooks get */
    struct mempool *pool;   /* a reference */
    struct list_node pool_node;
    int slot;               /* its export slot, or -1 */
    uint8_t token[16];
};

/* A pointer imported from another process's pool. */
struct pool_import {
    struct range r;
    struct mempool *pool; /* a reference */
    struct list_node node; /* pool->imports */
    uint32_t slot;
    uint8_t token[16];
};

static os_mutex pools_lock = OS_MUTEX_INITIALIZER;
static struct list_node pools_all = {&pools_all, &pools_all};
/* Blocks freed after their pool was destroyed: released at the next point that waits for the
 * device (under pools_lock). */
static struct list_node orphans = {&orphans, &orphans};
/* Where pools live, each place with a default pool (made at its first use) and a current one
 * (NULL: the default): device 0, the host, host NUMA node 0 (the machine is one node). */
enum { PLACE_DEVICE, PLACE_HOST, PLACE_HOST_NUMA, PLACES };
static struct mempool *default_pools[PLACES];
/* Some pool may keep freed memory above its release threshold, or a destroyed pool's memory
 * waits: the next synchronisation with an idle device gives it back (pool_synced). */
static atomic_bool pools_may_release;
static struct mempool *current_pools[PLACES]; /* references; NULL: the default pool */

static int place_of(CUmemLocationType t)
{
    return t == CU_MEM_LOCATION_TYPE_HOST ? PLACE_HOST : t == CU_MEM_LOCATION_TYPE_HOST_NUMA ? PLACE_HOST_NUMA
                                                                                            : PLACE_DEVICE;
}

#define NATIVE_TYPE (OS_HAS_POSIX_FD ? (unsigned)CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR : (unsigned)CU_MEM_HANDLE_TYPE_WIN32)
#define NATIVE_NAME (OS_HAS_POSIX_FD ? "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR" : "CU_MEM_HANDLE_TYPE_WIN32")

static size_t round_page(size_t v)
{
    size_t page = os_page_size();
    return (v + page - 1) / page * page;
}

static void pool_free(struct obj *o)
{
    struct mempool *p = (struct mempool *)o;
    if (p->page) {
        os_memory_unmap(p->page, PAGE_BYTES);
        os_memory_close(&p->page_mem);
    }
    os_mutex_destroy(&p->lock);
    free(p);
}

static void pool_release(struct mempool *p) { obj_release(&p->base); }
static void pool_synced(void);

static CUresult pool_lookup(const char *fn, CUmemoryPool handle, struct mempool **out)
{
    struct obj *o;
    obj_status st = obj_lookup((uint64_t)(uintptr_t)handle, OBJ_MEMPOOL, &o);
    if (st != OBJ_FOUND) /* the driver's code for a bad pool (cuMemPoolDestroy of a destroyed one) */
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s", fn, obj_status_text(st, OBJ_MEMPOOL, (uint64_t)(uintptr_t)handle));
    *out = (struct mempool *)o;
    return CUDA_SUCCESS;
}

/* A new pool, registered; NULL when out of memory. */
static struct mempool *pool_new(const CUmemPoolProps *props)
{
    struct mempool *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    os_mutex_init(&p->lock);
    p->props = *props;
    p->reuse[0] = p->reuse[1] = p->reuse[2] = 1; /* the driver's defaults (probe-pools.out) */
    list_init(&p->cached);
    list_init(&p->imports);
    list_init(&p->all);
    device_set_sync_hook(pool_synced);
    return p;
}

static bool pool_publish(struct mempool *p)
{
    if (!obj_register(&p->base, OBJ_MEMPOOL, pool_free))
        return false;
    os_mutex_lock(&pools_lock);
    list_add(&pools_all, &p->all);
    os_mutex_unlock(&pools_lock);
    return true;
}

/* The default pool of a place, made at its first use; NULL when out of memory. */
static struct mempool *pool_default(int place)
{
    os_mutex_lock(&pools_lock);
    struct mempool *p = default_pools[place];
    os_mutex_unlock(&pools_lock);
    if (p)
        return p;
    static const CUmemLocationType types[PLACES] = {CU_MEM_LOCATION_TYPE_DEVICE, CU_MEM_LOCATION_TYPE_HOST,
                                                    CU_MEM_LOCATION_TYPE_HOST_NUMA};
    CUmemPoolProps props;
    memset(&props, 0, sizeof(props));
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.handleTypes = CU_MEM_HANDLE_TYPE_NONE; /* a default pool is not exportable (probe) */
    props.location.type = types[place];
    props.location.id = 0;
    if (!(p = pool_new(&props)))
        return NULL;
    p->is_default = true;
    if (!obj_register(&p->base, OBJ_MEMPOOL, pool_free)) {
        pool_free(&p->base);
        return NULL;
    }
    os_mutex_lock(&pools_lock);
    if (default_pools[place]) { /* another thread was first */
        os_mutex_unlock(&pools_lock);
        obj_unregister(&p->base);
        os_mutex_lock(&pools_lock);
    } else {
        default_pools[place] = p;
        list_add(&pools_all, &p->all);
    }
    p = default_pools[place];
    os_mutex_unlock(&pools_lock);
    return p;
}

/* The current pool of a place with a reference; NULL when out of memory. */
static struct mempool *pool_current(int place)
{
    struct mempool *d = pool_default(place);
    if (!d)
        return NULL;
    os_mutex_lock(&pools_lock);
    struct mempool *p = current_pools[place] ? current_pools[place] : d;
    obj_retain(&p->base);
    os_mutex_unlock(&pools_lock);
    return p;
}

/* ---- Export slots (exporter side; with p->lock held) ---- */
static void slot_write(struct mempool *p, int i, const struct pool_block *b, bool live)
{
    struct pool_slot *s = &p->page->slots[i];
    uint64_t seq = atomic_load_explicit(&s->seq, memory_order_relaxed);
    atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    if (live) {
        memcpy(s->token, b->token, 16);
        memcpy(s->nonce, b->r.nonce, 16);
        s->size = b->r.size;
        s->os_token = os_ipc_token(&b->r.mem);
        s->live = 1;
    } else {
        memset(s->token, 0, 16);
        memset(s->nonce, 0, 16);
        s->size = 0;
        s->os_token = -1;
        s->live = 0;
    }
    atomic_store_explicit(&s->seq, seq + 2, memory_order_release);
}

/* The block is freed or gone: its export data stops naming anything. With p->lock held. */
static void slot_clear(struct pool_block *b)
{
    struct mempool *p = b->pool;
    if (b->slot < 0)
        return;
    slot_write(p, b->slot, b, false);
    p->slot_used[b->slot] = 0;
    b->slot = -1;
}

/* ---- Blocks ---- */
static void account_new(struct mempool *p, size_t reserve, size_t use)
{
    p->reserved += reserve;
    if (p->reserved > p->reserved_high)
        p->reserved_high = p->reserved;
    p->used += use;
    if (p->used > p->used_high)
        p->used_high = p->used;
}

/* A block handed out is freed as any allocation is (cuMemFree, the context's teardown):
 * mem_free_range has unmapped it; the pool forgets it. */
static void block_gone(struct range *r)
{
    struct pool_block *b = (struct pool_block *)r;
    struct mempool *p = b->pool;
    os_mutex_lock(&p->lock);
    slot_clear(b);
    p->used -= b->r.size;
    p->reserved -= b->r.map_size;
    os_mutex_unlock(&p->lock);
    os_memory_close(&b->r.mem);
    pool_release(p);
    free(b);
}

/* Gives a cached (or orphaned) block's memory back to the system: taken off every list by the
 * caller, its bytes no longer counted; only once the device's queued work has run. */
static void block_release(struct pool_block *b)
{
    os_memory_unmap((void *)b->r.unmap_base, b->r.unmap_len);
    os_memory_close(&b->r.mem);
    pool_release(b->pool);
    free(b);
}

/* Takes cached blocks off p until it holds at most `keep` bytes; they go on *out. */
static void pool_take_excess(struct mempool *p, uint64_t keep, struct list_node *out)
{
    os_mutex_lock(&p->lock);
    while (p->reserved > keep && !list_empty(&p->cached)) {
        struct pool_block *b = list_entry(p->cached.next, struct pool_block, pool_node);
        list_del(&b->pool_node);
        p->reserved -= b->r.map_size;
        list_add(out, &b->pool_node);
    }
    os_mutex_unlock(&p->lock);
}

static void release_list(struct list_node *list)
{
    while (!list_empty(list)) {
        struct pool_block *b = list_entry(list->next, struct pool_block, pool_node);
        list_del(&b->pool_node);
        block_release(b);
    }
}

/* With pools_lock held: moves every orphan onto out. */
static void move_orphans(struct list_node *out)
{
    while (!list_empty(&orphans)) {
        struct list_node *n = orphans.next;
        list_del(n);
        list_add(out, n);
    }
}

static void take_orphans(struct list_node *out)
{
    os_mutex_lock(&pools_lock);
    move_orphans(out);
    os_mutex_unlock(&pools_lock);
}

static bool pool_has_excess(struct mempool *p, uint64_t keep)
{
    os_mutex_lock(&p->lock);
    bool excess = p->reserved > keep && !list_empty(&p->cached);
    os_mutex_unlock(&p->lock);
    os_mutex_lock(&pools_lock);
    excess = excess || !list_empty(&orphans);
    os_mutex_unlock(&pools_lock);
    return excess;
}

/* Releases what p keeps above `keep`, and the orphans, once no queued work can touch them:
 * `wait`: after waiting for the device's queued work (device_release_begin: refused in device
 * work); otherwise only where nothing is queued and no other thread submits (device_release_try),
 * doing nothing (CUDA_ERROR_NOT_READY) where something is. */
static CUresult pool_trim(const char *fn, struct mempool *p, uint64_t keep, bool wait)
{
    CUresult r = CUDA_SUCCESS;
    if (wait)
        r = device_release_begin(fn);
    else if (!device_release_try())
        r = CUDA_ERROR_NOT_READY;
    if (r)
        return r;
    struct list_node out;
    list_init(&out);
    if (p)
        pool_take_excess(p, keep, &out);
    take_orphans(&out);
    release_list(&out);
    device_release_end();
    return CUDA_SUCCESS;
}

void pool_context_gone(struct ctx *ctx)
{
    /* The device has drained: cached blocks of ctx go now (their address space would outlive
     * the context otherwise), with the orphans. */
    struct list_node out;
    list_init(&out);
    os_mutex_lock(&pools_lock);
    for (struct list_node *n = pools_all.next; n != &pools_all; n = n->next) {
        struct mempool *p = list_entry(n, struct mempool, all);
        os_mutex_lock(&p->lock);
        for (struct list_node *c = p->cached.next; c != &p->cached;) {
            struct pool_block *b = list_entry(c, struct pool_block, pool_node);
            c = c->next;
            if (b->r.ctx != ctx)
                continue;
            list_del(&b->pool_node);
            p->reserved -= b->r.map_size;
            list_add(&out, &b->pool_node);
        }
        os_mutex_unlock(&p->lock);
    }
    move_orphans(&out);
    os_mutex_unlock(&pools_lock);
    release_list(&out);
}

/* The device hook of synchronisation points (device.h): as the driver gives memory above a
 * pool's release threshold back when the program synchronises, extmem does it there, when no
 * work is queued on the device at all (so none can touch what goes); otherwise at a later one. */
static void pool_synced(void)
{
    if (!atomic_load(&pools_may_release) || !atomic_exchange(&pools_may_release, false))
        return;
    if (!device_release_try()) {
        atomic_store(&pools_may_release, true);
        return;
    }
    struct list_node out;
    list_init(&out);
    os_mutex_lock(&pools_lock);
    for (struct list_node *n = pools_all.next; n != &pools_all; n = n->next) {
        struct mempool *p = list_entry(n, struct mempool, all);
        os_mutex_lock(&p->lock);
        while (p->reserved > p->release_threshold && !list_empty(&p->cached)) {
            struct pool_block *b = list_entry(p->cached.next, struct pool_block, pool_node);
            list_del(&b->pool_node);
            p->reserved -= b->r.map_size;
            list_add(&out, &b->pool_node);
        }
        os_mutex_unlock(&p->lock);
    }
    move_orphans(&out);
    os_mutex_unlock(&pools_lock);
    release_list(&out);
    device_release_end();
}

/* The reuse flags decide, on the driver, whether memory freed on one stream may be handed to
 * another before the free is known to be done. Here a freed block reaches the cache only once
 * its free has run in its stream, after all the work before it, so reusing it is safe whatever
 * the flags say: they are kept and reported, and reuse never waits for anything. */

/* Takes a cached block of p that fits size (at most twice as large), or NULL. */
static struct pool_block *cache_take(struct mempool *p, size_t size)
{
    size_t need = round_page(size);
    struct pool_block *best = NULL;
    for (struct list_node *n = p->cached.next; n != &p->cached; n = n->next) {
        struct pool_block *b = list_entry(n, struct pool_block, pool_node);
        if (b->r.map_size >= need && b->r.map_size / 2 <= need && (!best || b->r.map_size < best->r.map_size))
            best = b;
    }
    if (best)
        list_del(&best->pool_node);
    return best;
}

static CUresult alloc_from(const char *fn, struct mempool *p, struct target *t, size_t bytesize, CUdeviceptr *dptr)
{
    os_mutex_lock(&p->lock);
    struct pool_block *b = cache_take(p, bytesize);
    if (b) {
        account_new(p, 0, bytesize);
        os_mutex_unlock(&p->lock);
        b->r.size = bytesize;
        b->r.pending_free = false;
        mem_register(t->ctx, &b->r);
        *dptr = (CUdeviceptr)b->r.base;
        return CUDA_SUCCESS;
    }
    /* maxSize is kept, not enforced: the driver gave a 3 MiB allocation from a pool of maxSize
     * 2 MiB (pool_probe.out), so a cap here would refuse what the driver allows. */
    os_mutex_unlock(&p->lock);
    if (!(b = calloc(1, sizeof(*b))))
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the allocation record", fn);
    CUresult r = mem_range_init(fn, &b->r, bytesize, RANGE_DEVICE, 0);
    if (r) {
        free(b);
        return r;
    }
    b->r.free = block_gone;
    b->r.pool = p->base.handle;
    b->slot = -1;
    obj_retain(&p->base);
    b->pool = p;
    os_mutex_lock(&p->lock);
    account_new(p, b->r.map_size, bytesize);
    os_mutex_unlock(&p->lock);
    *dptr = (CUdeviceptr)b->r.base;
    mem_register(t->ctx, &b->r);
    return CUDA_SUCCESS;
}

/* cuMemAllocAsync and cuMemAllocFromPoolAsync; pool NULL: the device's current pool. */
static CUresult alloc_async(const char *fn, CUdeviceptr *dptr, size_t bytesize, CUmemoryPool handle, bool named,
                            CUstream hStream)
{
    if (dptr)
        *dptr = 0;
    struct target t;
    CUresult r = target_get(fn, hStream, &t);
    if (r)
        return r;
    struct mempool *p = NULL;
    if (!dptr)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: dptr is NULL", fn);
    else if (named)
        r = pool_lookup(fn, handle, &p);
    else if (!(p = pool_current(PLACE_DEVICE)))
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the default pool", fn);
    if (!r && p->imported)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the pool was imported from another process: its memory comes only "
                 "through cuMemPoolImportPointer", fn);
    /* The allocation is usable at once: the memory exists before the stream reaches it. A
     * size of 0 gives 0 and success, as on the driver (docs/probes/pools/pool_probe.out). */
    if (!r && bytesize && t.capture) {
        /* A capture records a memory allocation node: the graph's memory, at an address fixed now
         * (src/graph/memory.c), from the pool's location. */
        CUgraphNodeParams np;
        memset(&np, 0, sizeof(np));
        np.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
        np.alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
        np.alloc.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        np.alloc.bytesize = bytesize;
        if (!(r = target_capture_params(&t, &np)))
            *dptr = np.alloc.dptr;
        target_put(&t);
        pool_release(p);
        return r;
    }
    if (!r && bytesize) /* on a stream that is not capturing: an allocation captures may forbid */
        r = capture_check_unsafe(fn, NULL);
    if (!r && bytesize)
        r = alloc_from(fn, p, &t, bytesize, dptr);
    target_put(&t);
    /* Freed memory kept above the release threshold that this allocation could not reuse goes
     * back to the system here, if nothing queued can touch it now; the call never waits for it
     * (another thread's submission may be waiting for this one). */
    if (!r && !device_thread()) {
        os_mutex_lock(&p->lock);
        uint64_t keep = p->release_threshold;
        os_mutex_unlock(&p->lock);
        if (pool_has_excess(p, keep))
            pool_trim(fn, p, keep, false);
    }
    if (p)
        pool_release(p);
    return r;
}

CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
    return alloc_async("cuMemAllocAsync", dptr, bytesize, NULL, false, hStream);
}

CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)
{
    return alloc_async("cuMemAllocFromPoolAsync", dptr, bytesize, pool, true, hStream);
}

/* The stream-ordered part of cuMemFreeAsync: the work before it has run. */
struct free_work {
    struct work w;
    struct pool_block *b;
};

static void free_run(struct work *w)
{
    struct pool_block *b = ((struct free_work *)w)->b;
    free(w);
    amap_lock_write();
    mem_unpublish(&b->r);
    b->r.pending_free = false;
    amap_unlock();
    struct mempool *p = b->pool;
    os_mutex_lock(&p->lock);
    slot_clear(b);
    p->used -= b->r.size;
    bool destroyed = p->destroyed;
    if (destroyed)
        p->reserved -= b->r.map_size;
    else
        list_add(&p->cached, &b->pool_node);
    bool excess = destroyed || p->reserved > p->release_threshold;
    os_mutex_unlock(&p->lock);
    if (destroyed) { /* released at the next point that may wait for the device */
        os_mutex_lock(&pools_lock);
        list_add(&orphans, &b->pool_node);
        os_mutex_unlock(&pools_lock);
    }
    if (excess)
        atomic_store(&pools_may_release, true);
}

CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
    static const char fn[] = "cuMemFreeAsync";
    struct target t;
    CUresult r = target_get(fn, hStream, &t);
    if (r)
        return r;
    if (dptr == 0) { /* as cuMemFree(0) */
        target_put(&t);
        return CUDA_SUCCESS;
    }
    if (t.capture) { /* a memory free node (src/graph/memory.c says which memory may be freed) */
        CUgraphNodeParams np;
        memset(&np, 0, sizeof(np));
        np.type = CU_GRAPH_NODE_TYPE_MEM_FREE;
        np.free.dptr = dptr;
        r = target_capture_params(&t, &np);
        target_put(&t);
        return r;
    }
    if (mem_graph_free_hook && mem_graph_free_hook(fn, dptr, &r)) { /* the memory of a graph's node */
        target_put(&t);
        return r;
    }
    struct free_work *w = calloc(1, sizeof(*w));
    if (!w) {
        target_put(&t);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    amap_lock_write();
    struct range *range = amap_find(&amap_memory, (uintptr_t)dptr);
    bool start = range && range->base == (uintptr_t)dptr && range->kind == RANGE_DEVICE && !range->pending_free;
    bool block = start && range->free == block_gone;
    if (block)
        range->pending_free = true; /* the free owns it from now on */
    amap_unlock();
    if (block) {
        w->b = (struct pool_block *)range;
        w->w.run = free_run;
        w->w.discard = free_run; /* the stream could not run it: the memory still goes back */
        bool inline_run = !t.s; /* a default stream's work runs in this call */
        r = target_submit(&t, &w->w);
        target_put(&t);
        /* A default stream's free has run: the device may be idle now. */
        if (inline_run && atomic_load(&pools_may_release))
            pool_synced();
        return r;
    }
    free(w);
    target_put(&t);
    if (start) /* cuMemAlloc memory, an imported pool pointer: freed after all queued work */
        return cuMemFree((CUdeviceptr)dptr);
    return mem_not_an_allocation(fn, "dptr", (uintptr_t)dptr, RANGE_DEVICE);
}

/* ---- Pools ---- */
static CUresult check_location(const char *fn, const CUmemLocation *loc, const char *what)
{
    switch (loc->type) {
    case CU_MEM_LOCATION_TYPE_DEVICE:
        if (loc->id != 0) /* the driver's code here (pool_probe.out), not INVALID_DEVICE */
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s names device %d: the software device is device 0", fn, what,
                        loc->id);
        return CUDA_SUCCESS;
    case CU_MEM_LOCATION_TYPE_HOST:
        return CUDA_SUCCESS; /* the id is ignored, as the driver ignores it */
    case CU_MEM_LOCATION_TYPE_HOST_NUMA:
        if (loc->id != 0)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s names host NUMA node %d: this machine is one node, 0, to "
                        "the software device", fn, what, loc->id);
        return CUDA_SUCCESS;
    default:
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s type %d is not DEVICE, HOST or HOST_NUMA", fn, what,
                    (int)loc->type);
    }
}

/* Makes p exportable: its shared page, named after a nonce of its own. */
static CUresult make_page(const char *fn, struct mempool *p)
{
    int err = os_random_bytes(p->nonce, 16);
    char name[64], text[128];
    if (err)
        return fail(CUDA_ERROR_OPERATING_SYSTEM, "%s: no random bytes for the pool's nonce: %s", fn,
                    os_error_string(err, text, sizeof(text)));
    obj_nonce_name("extmem-pool-", p->nonce, name);
    void *addr;
    if ((err = os_memory_create(&p->page_mem, PAGE_BYTES, name, NULL)))
        return fail(os_error_is_out_of_memory(err) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_OPERATING_SYSTEM,
                    "%s: the pool's shared page: %s", fn, os_error_string(err, text, sizeof(text)));
    if ((err = os_memory_map(&p->page_mem, 0, PAGE_BYTES, &addr))) {
        os_memory_close(&p->page_mem);
        return fail(CUDA_ERROR_OPERATING_SYSTEM, "%s: mapping the pool's shared page: %s", fn,
                    os_error_string(err, text, sizeof(text)));
    }
    p->page = addr;
    memcpy(p->page->h.magic, PAGE_MAGIC, 8);
    p->page->h.pid = (uint32_t)os_process_id();
    p->page->h.nslots = (uint32_t)PAGE_SLOTS;
    p->page->h.start_time = lib_start_time();
    memcpy(p->page->h.nonce, p->nonce, 16);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps)
{
    static const char fn[] = "cuMemPoolCreate";
    REQUIRE_INIT(fn);
    if (!pool || !poolProps)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !pool ? "pool" : "poolProps");
    if (poolProps->allocType != CU_MEM_ALLOCATION_TYPE_PINNED)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: allocType is %d: only CU_MEM_ALLOCATION_TYPE_PINNED (1) is supported",
                    fn, (int)poolProps->allocType);
    unsigned int types = (unsigned int)poolProps->handleTypes;
    /* The driver refuses a handle type it does not know (0x40: probe-pools.out) and the other
     * platform's (WIN32, KMT on Linux: pool_probe.out); fabric handles it makes where the
     * machine has them, and the software device has none (attribute 128 is 0). */
    if (types & CU_MEM_HANDLE_TYPE_FABRIC)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: handleTypes has CU_MEM_HANDLE_TYPE_FABRIC: the software device has "
                    "no fabric (multi-node NVLink) handles", fn);
    if (types & ~NATIVE_TYPE)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: handleTypes 0x%x: only CU_MEM_HANDLE_TYPE_NONE and %s are supported "
                    "on this platform", fn, types, NATIVE_NAME);
    CUresult r = check_location(fn, &poolProps->location, "location");
    if (r)
        return r;
    /* Unknown usage bits are ignored, as the driver ignores them (pool_probe.out: 0x100). */
    if (poolProps->usage & CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: usage CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS: the software device "
                    "has no decompression engine", fn);
    for (size_t i = 0; i < sizeof(poolProps->reserved); ++i)
        if (poolProps->reserved[i])
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: reserved[%zu] is not 0", fn, i);
    struct mempool *p = pool_new(poolProps);
    if (!p)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the pool", fn);
    p->props.win32SecurityAttributes = NULL; /* not the caller's to keep pointing at */
    if (types & NATIVE_TYPE) {
        if ((r = make_page(fn, p))) {
            pool_free(&p->base);
            return r;
        }
    }
    if (!pool_publish(p)) {
        pool_free(&p->base);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the pool's handle", fn);
    }
    *pool = (CUmemoryPool)(uintptr_t)p->base.handle;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemPoolDestroy(CUmemoryPool pool)
{
    static const char fn[] = "cuMemPoolDestroy";
    REQUIRE_INIT(fn);
    struct mempool *p;
    CUresult r = pool_lookup(fn, pool, &p);
    if (r)
        return r;
    if (p->is_default) {
        pool_release(p);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the device's default pool cannot be destroyed", fn);
    }
    /* Memory still handed out stays usable until freed; what the pool keeps goes now. */
    if ((r = device_release_begin(fn))) {
        pool_release(p);
        return r;
    }
    struct list_node out;
    list_init(&out);
    os_mutex_lock(&pools_lock);
    bool first = !p->destroyed;
    os_mutex_lock(&p->lock);
    p->destroyed = true;
    os_mutex_unlock(&p->lock);
    if (first)
        list_del(&p->all);
    for (int i = 0; i < PLACES; ++i) {
        if (current_pools[i] == p) { /* the place's current pool is its default one again */
            current_pools[i] = NULL;
            pool_release(p);
        }
    }
    os_mutex_unlock(&pools_lock);
    pool_take_excess(p, 0, &out);
    take_orphans(&out);
    release_list(&out);
    device_release_end();
    obj_unregister(&p->base);
    pool_release(p);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep)
{
    static const char fn[] = "cuMemPoolTrimTo";
    REQUIRE_INIT(fn);
    struct mempool *p;
    CUresult r = pool_lookup(fn, pool, &p);
    if (r)
        return r;
    r = pool_trim(fn, p, minBytesToKeep, true);
    pool_release(p);
    return r;
}

static const char *attr_name(CUmemPool_attribute attr)
{
    switch (attr) {
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT: return "CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT";
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT: return "CU_MEMPOOL_ATTR_USED_MEM_CURRENT";
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH: return "CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH";
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH: return "CU_MEMPOOL_ATTR_USED_MEM_HIGH";
    default: return "the attribute";
    }
}

CUresult CUDAAPI cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
    static const char fn[] = "cuMemPoolSetAttribute";
    REQUIRE_INIT(fn);
    struct mempool *p;
    CUresult r = pool_lookup(fn, pool, &p);
    if (r)
        return r;
    uint64_t v = 0;
    if (!value) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: value is NULL", fn);
        goto out;
    }
    os_mutex_lock(&p->lock);
    switch (attr) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES: {
        int flag;
        memcpy(&flag, value, sizeof(flag));
        p->reuse[attr - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES] = flag != 0;
        break;
    }
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
        memcpy(&v, value, sizeof(v));
        p->release_threshold = v;
        break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
        /* A high mark is reset with 0 only (probe-pools.out: 7 is INVALID_VALUE): it restarts
         * from what the pool holds now. */
        memcpy(&v, value, sizeof(v));
        if (v != 0)
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %s can only be reset, to 0, not set to %llu", fn, attr_name(attr),
                     (unsigned long long)v);
        else if (attr == CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH)
            p->reserved_high = p->reserved;
        else
            p->used_high = p->used;
        break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is read only", fn, attr_name(attr));
        break;
    default:
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: attr %d is not a CUmemPool_attribute", fn, (int)attr);
        break;
    }
    os_mutex_unlock(&p->lock);
out:
    pool_release(p);
    return r;
}

CUresult CUDAAPI cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
    static const char fn[] = "cuMemPoolGetAttribute";
    REQUIRE_INIT(fn);
    struct mempool *p;
    CUresult r = pool_lookup(fn, pool, &p);
    if (r)
        return r;
    if (!value) {
        pool_release(p);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: value is NULL", fn);
    }
    uint64_t v = 0;
    int flag = -1;
    os_mutex_lock(&p->lock);
    switch (attr) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
        flag = p->reuse[attr - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES];
        break;
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: v = p->release_threshold; break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT: v = p->reserved; break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH: v = p->reserved_high; break;
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT: v = p->used; break;
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH: v = p->used_high; break;
    default: r = fail(CUDA_ERROR_INVALID_VALUE, "%s: attr %d is not a CUmemPool_attribute", fn, (int)attr); break;
    }
    os_mutex_unlock(&p->lock);
    pool_release(p);
    if (r)
        return r;
    if (flag >= 0)
        memcpy(value, &flag, sizeof(flag));
    else
        memcpy(value, &v, sizeof(v));
    return CUDA_SUCCESS;
}

static bool host_location(CUmemLocationType t)
{
    return t == CU_MEM_LOCATION_TYPE_HOST || t == CU_MEM_LOCATION_TYPE_HOST_NUMA;
}

/* Who reaches a pool's memory is fixed on the software device: the device always (all memory
 * is its memory), the host side as the pool's location says (a host pool's memory is the
 * host's; a device pool's is not, to the driver: GetAccess answers NONE there, probe-pools.out).
 * SetAccess accepts what is so already and refuses a change with the driver's codes for it
 * (pool_probe.out: the device's own access set to NONE is INVALID_DEVICE, to READ
 * NOT_SUPPORTED; host access to a device pool NOT_SUPPORTED), which extmem could not make true
 * anyway. */
static CUmemAccess_flags pool_access(const struct mempool *p, CUmemLocationType t)
{
    if (t == CU_MEM_LOCATION_TYPE_DEVICE || host_location(p->props.location.type))
        return CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    return CU_MEM_ACCESS_FLAGS_PROT_NONE;
}

CUresult CUDAAPI cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map, size_t count)
{
    static const char fn[] = "cuMemPoolSetAccess";
    REQUIRE_INIT(fn);
    struct mempool *p;
    CUresult r = pool_lookup(fn, pool, &p);
    if (r)
        return r;
    if (!map) /* even with count 0, as the driver answers */
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: map is NULL", fn);
    for (size_t i = 0; !r && i < count; ++i) {
        const CUmemAccessDesc *d = &map[i];
        unsigned int f = (unsigned int)d->flags;
        bool device = d->location.type == CU_MEM_LOCATION_TYPE_DEVICE;
        if (f != CU_MEM_ACCESS_FLAGS_PROT_NONE && f != CU_MEM_ACCESS_FLAGS_PROT_READ &&
            f != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: map[%zu].flags %u is not a CUmemAccess_flags", fn, i, f);
        else if (!device && !host_location(d->location.type))
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: map[%zu].location type %d is not DEVICE or HOST", fn, i,
                     (int)d->location.type);
        else if (device && (r = device_check(fn, d->location.id)))
            ;
        else if (f == (unsigned int)pool_access(p, d->location.type))
            ;
        else if (device && f == CU_MEM_ACCESS_FLAGS_PROT_NONE)
            r = fail(CUDA_ERROR_INVALID_DEVICE, "%s: map[%zu] takes the device's access to its own pool's memory away, "
                     "which the driver refuses", fn, i);
        else
            r = fail(CUDA_ERROR_NOT_SUPPORTED, "%s: map[%zu] asks for access %u from the %s: the pool's memory is %s "
                     "there, and the software device cannot change that", fn, i, f, device ? "device" : "host",
                     pool_access(p, d->location.type) ? "always read-write" : "not mapped for the host by CUDA");
    }
    pool_release(p);
    return r;
}

CUresult CUDAAPI cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool, CUmemLocation *location)
{
    static const char fn[] = "cuMemPoolGetAccess";
    REQUIRE_INIT(fn);
    if (!flags || !location)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !flags ? "flags" : "location");
    struct mempool *p;
    CUresult r = pool_lookup(fn, memPool, &p);
    if (r)
        return r;
    if (location->type == CU_MEM_LOCATION_TYPE_DEVICE)
        r = device_check(fn, location->id);
    else if (!host_location(location->type))
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: location type %d is not DEVICE or HOST", fn, (int)location->type);
    if (!r)
        *flags = pool_access(p, location->type);
    pool_release(p);
    return r;
}

/* ---- The default and current pools ---- */
static CUresult get_default(const char *fn, CUmemoryPool *pool_out, int place)
{
    struct mempool *p = pool_default(place);
    if (!p)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the default pool", fn);
    *pool_out = (CUmemoryPool)(uintptr_t)p->base.handle;
    return CUDA_SUCCESS;
}

static CUresult get_current(const char *fn, CUmemoryPool *pool_out, int place)
{
    struct mempool *p = pool_current(place);
    if (!p)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the default pool", fn);
    *pool_out = (CUmemoryPool)(uintptr_t)p->base.handle;
    pool_release(p);
    return CUDA_SUCCESS;
}

static CUresult set_current(const char *fn, int place, CUmemoryPool pool)
{
    static const char *const names[PLACES] = {"device 0", "the host", "host NUMA node 0"};
    struct mempool *p;
    CUresult r = pool_lookup(fn, pool, &p);
    if (r)
        return r;
    if (p->imported || place_of(p->props.location.type) != place) {
        pool_release(p);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the pool is %s, not a pool of %s", fn,
                    p->imported ? "imported from another process" : "of another location", names[place]);
    }
    os_mutex_lock(&pools_lock);
    struct mempool *old = current_pools[place];
    if (p->is_default || p->destroyed) {
        current_pools[place] = NULL;
        pool_release(p);
    } else {
        current_pools[place] = p; /* keeps the reference */
    }
    os_mutex_unlock(&pools_lock);
    if (old)
        pool_release(old);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev)
{
    static const char fn[] = "cuDeviceGetDefaultMemPool";
    REQUIRE_INIT(fn);
    if (!pool_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pool_out is NULL", fn);
    CUresult r = device_check(fn, dev);
    return r ? r : get_default(fn, pool_out, PLACE_DEVICE);
}

CUresult CUDAAPI cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
    static const char fn[] = "cuDeviceGetMemPool";
    REQUIRE_INIT(fn);
    if (!pool)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pool is NULL", fn);
    CUresult r = device_check(fn, dev);
    return r ? r : get_current(fn, pool, PLACE_DEVICE);
}

CUresult CUDAAPI cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
    static const char fn[] = "cuDeviceSetMemPool";
    REQUIRE_INIT(fn);
    CUresult r = device_check(fn, dev);
    return r ? r : set_current(fn, PLACE_DEVICE, pool);
}

/* The place of a (location, type) pair, as the CUDA 13 calls name it. Managed memory pools are
 * not offered: CUDA_ERROR_NOT_SUPPORTED, the documented code for it (with the location NONE that
 * only managed pools take). */
static CUresult place_for(const char *fn, const CUmemLocation *location, CUmemAllocationType type, int *place)
{
    if (!location)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: location is NULL", fn);
    if (type == CU_MEM_ALLOCATION_TYPE_MANAGED)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: managed memory pools are not offered by the software device", fn);
    if (type != CU_MEM_ALLOCATION_TYPE_PINNED)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: type %d is not CU_MEM_ALLOCATION_TYPE_PINNED or _MANAGED", fn,
                    (int)type);
    switch (location->type) {
    case CU_MEM_LOCATION_TYPE_DEVICE:
        *place = PLACE_DEVICE;
        return device_check(fn, location->id);
    case CU_MEM_LOCATION_TYPE_HOST:
        *place = PLACE_HOST;
        return CUDA_SUCCESS;
    case CU_MEM_LOCATION_TYPE_HOST_NUMA:
        *place = PLACE_HOST_NUMA;
        if (location->id != 0)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: host NUMA node %d: this machine is one node, 0, to the "
                        "software device", fn, location->id);
        return CUDA_SUCCESS;
    default:
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: location type %d is not DEVICE, HOST or HOST_NUMA", fn,
                    (int)location->type);
    }
}

CUresult CUDAAPI cuMemGetDefaultMemPool(CUmemoryPool *pool_out, CUmemLocation *location, CUmemAllocationType type)
{
    static const char fn[] = "cuMemGetDefaultMemPool";
    REQUIRE_INIT(fn);
    if (!pool_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pool_out is NULL", fn);
    int place;
    CUresult r = place_for(fn, location, type, &place);
    return r ? r : get_default(fn, pool_out, place);
}

CUresult CUDAAPI cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *location, CUmemAllocationType type)
{
    static const char fn[] = "cuMemGetMemPool";
    REQUIRE_INIT(fn);
    if (!pool)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pool is NULL", fn);
    int place;
    CUresult r = place_for(fn, location, type, &place);
    return r ? r : get_current(fn, pool, place);
}

CUresult CUDAAPI cuMemSetMemPool(CUmemLocation *location, CUmemAllocationType type, CUmemoryPool pool)
{
    static const char fn[] = "cuMemSetMemPool";
    REQUIRE_INIT(fn);
    int place;
    CUresult r = place_for(fn, location, type, &place);
    return r ? r : set_current(fn, place, pool);
}

/* ---- Export and import ---- */
CUresult CUDAAPI cuMemPoolExportToShareableHandle(void *handle_out, CUmemoryPool pool,
                                                  CUmemAllocationHandleType handleType, unsigned long long flags)
{
    static const char fn[] = "cuMemPoolExportToShareableHandle";
    REQUIRE_INIT(fn);
    if (!handle_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: handle_out is NULL", fn);
    struct mempool *p;
    CUresult r = pool_lookup(fn, pool, &p);
    if (r)
        return r;
    unsigned int type = (unsigned int)handleType;
    if (flags != 0)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: flags is 0x%llx: it must be 0", fn, flags);
    else if (type != NATIVE_TYPE)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: handleType %d: only %s exists on this platform", fn, (int)handleType,
                 NATIVE_NAME);
    else if (p->imported)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the pool was imported: only its exporter can export it", fn);
    else if (!((unsigned int)p->props.handleTypes & type))
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the pool was not created with %s in handleTypes%s", fn, NATIVE_NAME,
                 p->is_default ? " (the default pool is never exportable)" : "");
    if (r) {
        pool_release(p);
        return r;
    }
    os_handle dup;
    int err = os_memory_export(&p->page_mem, &dup);
    if (!err) {
        os_mutex_lock(&p->lock);
        p->exported = true;
        os_mutex_unlock(&p->lock);
    }
    pool_release(p);
    if (err) {
        char text[128];
        return fail(os_error_is_out_of_memory(err) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_OPERATING_SYSTEM,
                    "%s: duplicating the pool's handle failed: %s", fn, os_error_string(err, text, sizeof(text)));
    }
    memcpy(handle_out, &dup, sizeof(dup)); /* an int fd on Linux, a HANDLE on Windows */
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemPoolImportFromShareableHandle(CUmemoryPool *pool_out, void *handle,
                                                    CUmemAllocationHandleType handleType, unsigned long long flags)
{
    static const char fn[] = "cuMemPoolImportFromShareableHandle";
    REQUIRE_INIT(fn);
    if (!pool_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pool_out is NULL", fn);
    unsigned int type = (unsigned int)handleType;
    const unsigned int known = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR | CU_MEM_HANDLE_TYPE_WIN32 |
                               CU_MEM_HANDLE_TYPE_WIN32_KMT | CU_MEM_HANDLE_TYPE_FABRIC;
    /* A handle type of another platform is NOT_SUPPORTED, as the driver answers WIN32 on Linux
     * (pool_probe.out); what is no handle type at all is INVALID_VALUE. */
    if (type != NATIVE_TYPE)
        return fail(type && !(type & (type - 1)) && (type & known) ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE,
                    "%s: handleType %d: only %s exists on this platform", fn, (int)handleType, NATIVE_NAME);
    if (flags != 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags is 0x%llx: it must be 0", fn, flags);
    os_handle h;
#if OS_HAS_POSIX_FD
    intptr_t fd = (intptr_t)handle;
    if (fd < 0 || fd > INT32_MAX)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %lld is not a file descriptor", fn, (long long)fd);
    h = (os_handle)fd;
#else
    h = (os_handle)handle;
#endif
    /* The caller's handle stays the caller's: extmem opens the object anew. The driver answers
     * CUDA_ERROR_UNKNOWN for a closed fd (probe-pools.out); extmem names it (BEHAVIOR.md). */
    os_memory mem;
    char why[160] = "", text[128], name[256] = "", expect[64];
    int err = os_memory_open(h, &mem, why, sizeof(why));
    if (err)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: handle %p %s", fn, handle,
                    err == EINVAL && why[0] ? why : os_error_string(err, text, sizeof(text)));
    uint64_t id, size;
    struct mempool *p = NULL;
    void *addr = NULL;
    CUresult r = CUDA_SUCCESS;
    if (os_handle_identity(mem.handle, &id, &size, name, sizeof(name)) || strncmp(name, "extmem-pool-", 12) != 0 ||
        size != PAGE_BYTES) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: handle %p is extmem memory but not an exported pool (%s)", fn, handle,
                 name);
        goto fail_close;
    }
    if ((err = os_memory_map(&mem, 0, PAGE_BYTES, &addr))) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: cannot map the pool's page: %s", fn, os_error_string(err, text,
                 sizeof(text)));
        goto fail_close;
    }
    struct pool_page *page = addr;
    obj_nonce_name("extmem-pool-", page->h.nonce, expect);
    if (memcmp(page->h.magic, PAGE_MAGIC, 8) != 0 || strncmp(name, expect, strlen(expect)) != 0 ||
        page->h.nslots != PAGE_SLOTS) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: handle %p is not an extmem pool's page (its header does not match "
                 "its name)", fn, handle);
        goto fail_unmap;
    }
    CUmemPoolProps props;
    memset(&props, 0, sizeof(props));
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.handleTypes = (CUmemAllocationHandleType)NATIVE_TYPE;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    if (!(p = pool_new(&props))) {
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the pool", fn);
        goto fail_unmap;
    }
    p->imported = true;
    p->page_mem = mem;
    p->page = page;
    memcpy(p->nonce, page->h.nonce, 16);
    if (!pool_publish(p)) {
        pool_free(&p->base);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the pool's handle", fn);
    }
    *pool_out = (CUmemoryPool)(uintptr_t)p->base.handle;
    return CUDA_SUCCESS;

fail_unmap:
    os_memory_unmap(addr, PAGE_BYTES);
fail_close:
    os_memory_close(&mem);
    return r;
}

CUresult CUDAAPI cuMemPoolExportPointer(CUmemPoolPtrExportData *shareData_out, CUdeviceptr ptr)
{
    static const char fn[] = "cuMemPoolExportPointer";
    REQUIRE_INIT(fn);
    if (!shareData_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: shareData_out is NULL", fn);
    struct pool_export e;
    memset(&e, 0, sizeof(e));
    CUresult r = CUDA_SUCCESS;
    amap_lock_read();
    struct range *range = amap_find(&amap_memory, (uintptr_t)ptr);
    bool inside = range && range->kind == RANGE_DEVICE && (uintptr_t)ptr - range->base < range->size;
    struct pool_block *b = inside && range->free == block_gone ? (struct pool_block *)range : NULL;
    if (!inside)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is in no live allocation", fn, (unsigned long long)ptr);
    else if ((uintptr_t)ptr != range->base) /* the importer frees what it imports: an allocation's start */
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is inside the allocation at 0x%llx, not its start", fn,
                 (unsigned long long)ptr, (unsigned long long)range->base);
    else if (!b)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not memory of a memory pool (cuMemAllocFromPoolAsync)", fn,
                 (unsigned long long)ptr);
    else if (range->pending_free)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is being freed (cuMemFreeAsync)", fn, (unsigned long long)ptr);
    else if (!b->pool->page || b->pool->imported)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is memory of a pool that is not exportable (created without "
                 "%s in handleTypes%s)", fn, (unsigned long long)ptr, NATIVE_NAME,
                 b->pool->is_default ? ": the default pool" : "");
    if (!r) {
        struct mempool *p = b->pool;
        os_mutex_lock(&p->lock);
        /* The driver exports pointers only of a pool it has exported itself
         * (pool_ipc_probe.out: before cuMemPoolExportToShareableHandle, INVALID_VALUE). */
        if (!p->exported)
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the pool has not been exported yet "
                     "(cuMemPoolExportToShareableHandle): its pointers cannot be", fn);
        else if (b->slot < 0) {
            int i = 0;
            while (i < (int)PAGE_SLOTS && p->slot_used[i])
                ++i;
            int err = i < (int)PAGE_SLOTS ? os_random_bytes(b->token, 16) : 0;
            if (i == (int)PAGE_SLOTS) {
                r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: the pool has %zu allocations exported already, its most", fn,
                         (size_t)PAGE_SLOTS);
            } else if (err) {
                char text[128];
                r = fail(CUDA_ERROR_OPERATING_SYSTEM, "%s: no random bytes for the export's token: %s", fn,
                         os_error_string(err, text, sizeof(text)));
            } else {
                p->slot_used[i] = 1;
                b->slot = i;
                slot_write(p, i, b, true);
            }
        }
        if (!r) {
            memcpy(e.magic, EXPORT_MAGIC, 8);
            e.slot = (uint32_t)b->slot;
            memcpy(e.token, b->token, 16);
            memcpy(e.pool, p->nonce, 16);
            e.size = range->size;
        }
        os_mutex_unlock(&p->lock);
    }
    amap_unlock();
    if (r)
        return r;
    memcpy(shareData_out, &e, sizeof(e));
    return CUDA_SUCCESS;
}

/* Copies slot i of an imported page consistently; false when it kept changing. */
static bool slot_read(const struct pool_page *page, uint32_t i, struct pool_slot *out)
{
    struct pool_slot *s = (struct pool_slot *)&page->slots[i];
    for (int tries = 0; tries < 1000; ++tries) {
        uint64_t a = atomic_load_explicit(&s->seq, memory_order_acquire);
        if (a & 1) {
            os_cpu_relax();
            continue;
        }
        memcpy(out->token, s->token, 16);
        memcpy(out->nonce, s->nonce, 16);
        out->size = s->size;
        out->os_token = s->os_token;
        out->live = s->live;
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&s->seq, memory_order_relaxed) == a) {
            atomic_store_explicit(&out->seq, a, memory_order_relaxed);
            return true;
        }
    }
    return false;
}

static void import_gone(struct range *r)
{
    struct pool_import *im = (struct pool_import *)r;
    os_mutex_lock(&im->pool->lock);
    list_del(&im->node);
    os_mutex_unlock(&im->pool->lock);
    os_memory_close(&im->r.mem);
    pool_release(im->pool);
    free(im);
}

CUresult CUDAAPI cuMemPoolImportPointer(CUdeviceptr *ptr_out, CUmemoryPool pool, CUmemPoolPtrExportData *shareData)
{
    static const char fn[] = "cuMemPoolImportPointer";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    struct mempool *p = NULL;
    struct pool_export e;
    if (!ptr_out || !shareData) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !ptr_out ? "ptr_out" : "shareData");
        goto out_ctx;
    }
    *ptr_out = 0;
    if ((r = pool_lookup(fn, pool, &p)))
        goto out_ctx;
    memcpy(&e, shareData, sizeof(e));
    struct pool_slot s;
    if (!p->imported) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the pool was not imported (cuMemPoolImportFromShareableHandle): "
                 "pointers are imported into the importer's handle of the exporter's pool", fn);
    } else if (memcmp(e.magic, EXPORT_MAGIC, 8) != 0 || e.zero != 0 || e.zero2 != 0 || e.slot >= PAGE_SLOTS) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: shareData is not export data of cuMemPoolExportPointer", fn);
    } else if (memcmp(e.pool, p->nonce, 16) != 0) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: shareData was exported from another pool than this one", fn);
    } else if (!slot_read(p->page, e.slot, &s)) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the exporter's table entry kept changing under the read", fn);
    } else if (!s.live || memcmp(s.token, e.token, 16) != 0 || s.size != e.size) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: shareData names no live allocation of the pool (it was freed, or the "
                 "data is forged)", fn);
    }
    if (r)
        goto out_pool;
    /* The same allocation imported again is the same pointer, as on the driver
     * (pool_ipc_probe.out); one cuMemFree frees it. */
    os_mutex_lock(&p->lock);
    for (struct list_node *n = p->imports.next; n != &p->imports; n = n->next) {
        struct pool_import *have = list_entry(n, struct pool_import, node);
        if (have->slot == e.slot && memcmp(have->token, e.token, 16) == 0) {
            *ptr_out = (CUdeviceptr)have->r.base;
            break;
        }
    }
    os_mutex_unlock(&p->lock);
    if (*ptr_out)
        goto out_pool;
    /* Reach the block's memory object in the exporter as IPC does, and check what it is. */
    uint32_t pid = p->page->h.pid;
    uint64_t start_time = p->page->h.start_time;
    char expect[64], name[256], text[128];
    obj_nonce_name("extmem-device-", s.nonce, expect);
    os_handle fd = OS_INVALID_HANDLE;
    int err = os_process_start_time((int)pid) == start_time ? os_ipc_open((int)pid, s.os_token, expect, &fd) : ESRCH;
    uint64_t id = 0, osize = 0;
    size_t map_size = round_page((size_t)s.size);
    bool genuine = !err && os_memory_size_is_fixed(fd) && !os_handle_identity(fd, &id, &osize, name, sizeof(name)) &&
                   osize == map_size && strncmp(name, expect, strlen(expect)) == 0;
    /* The exporter may have freed it meanwhile: the slot must still say the same. */
    struct pool_slot again;
    if (genuine && (!slot_read(p->page, e.slot, &again) || again.seq != s.seq))
        genuine = false;
    if (!genuine) {
        if (!err)
            os_handle_close(fd);
        if (os_process_start_time((int)pid) != start_time)
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the exporting process %u has exited: its memory is gone with it", fn,
                     pid);
        else if (err && os_error_is_access_denied(err))
            r = fail(CUDA_ERROR_NOT_PERMITTED, "%s: this process may not open memory of process %u (another user?)", fn,
                     pid);
        else
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: process %u no longer holds the allocation (it was freed)%s%s", fn,
                     pid, err ? ": " : "", err ? os_error_string(err, text, sizeof(text)) : "");
        goto out_pool;
    }
    struct pool_import *im = calloc(1, sizeof(*im));
    void *addr = NULL;
    os_memory mem = {.handle = fd, .size = map_size};
    if (!im) {
        os_handle_close(fd);
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
        goto out_pool;
    }
    if ((err = os_memory_map(&mem, 0, map_size, &addr))) {
        os_handle_close(fd);
        free(im);
        r = fail(os_error_is_out_of_memory(err) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_OPERATING_SYSTEM,
                 "%s: mapping the allocation failed: %s", fn, os_error_string(err, text, sizeof(text)));
        goto out_pool;
    }
    im->r.base = im->r.unmap_base = (uintptr_t)addr;
    im->r.size = (size_t)s.size;
    im->r.map_size = im->r.unmap_len = map_size;
    im->r.kind = RANGE_DEVICE;
    im->r.mem = mem;
    memcpy(im->r.nonce, s.nonce, 16);
    im->r.free = import_gone;
    im->r.pool = p->base.handle;
    im->slot = e.slot;
    memcpy(im->token, e.token, 16);
    im->pool = p; /* the import keeps the lookup's reference */
    os_mutex_lock(&p->lock);
    list_add(&p->imports, &im->node);
    os_mutex_unlock(&p->lock);
    p = NULL;
    *ptr_out = (CUdeviceptr)im->r.base;
    mem_register(ctx, &im->r);
out_pool:
    if (p)
        pool_release(p);
out_ctx:
    ctx_release(ctx);
    return r;
}

/* ---- Per-thread default stream variants (per_thread.h) ---- */
CUresult CUDAAPI cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
    return cuMemAllocAsync(dptr, bytesize, per_thread(hStream));
}

CUresult CUDAAPI cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)
{
    return cuMemAllocFromPoolAsync(dptr, bytesize, pool, per_thread(hStream));
}

CUresult CUDAAPI cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream)
{
    return cuMemFreeAsync(dptr, per_thread(hStream));
}
