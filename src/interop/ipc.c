/*
 * Interprocess memory and events (../shared/seeds/002_2ab34fea44c5cb4f.txt; DESIGN.md §9).
 *
 * A handle carries what the opener needs and what proves it genuine:
 *
 *   bytes  0..7   magic: "xmIPCmem" or "xmIPCevt"
 *   bytes  8..11  exporter pid
 *   bytes 12..15  the exporter's token of the memory object (its fd; on Windows, the section's)
 *   bytes 16..23  the exporter's start time (a reused pid has another one)
 *   bytes 24..31  the object's identity (inode)
 *   bytes 32..39  the allocation's size (the object is that, rounded up to whole pages)
 *   bytes 40..55  the object's 128-bit nonce (random, drawn for that object alone; it is in the
 *                 object's name), masked with a function of the size (mask_nonce)
 *   bytes 56..63  zero
 *
 * The opener reaches the object through the OS (/proc/<pid>/fd/<n> on Linux, which the kernel
 * refuses to other users; on Windows the section named after the nonce, pid and token, whose
 * DACL admits its owner alone; os_ipc_open) and checks every field: that the pid is a live
 * process started at that time, that the object is sealed, its identity, size and name;
 * anything forged, stale or guessed fails with a reason. The mapping it makes keeps the memory
 * alive on its own, so an exporter that exits or frees the memory does not pull it from under
 * the importer.
 */
#include "interop/interop.h"
#include "memory/memory.h"
#include "exec/exec.h"

#include <stdlib.h>
#include <string.h>

#define MEM_MAGIC "xmIPCmem"
#define EVENT_MAGIC "xmIPCevt"

struct ipc_handle {
    char magic[8];
    uint32_t pid;
    int32_t fd;
    uint64_t start_time;
    uint64_t id;
    uint64_t size;
    uint8_t nonce[16];
    uint8_t zero[8];
};
_Static_assert(sizeof(struct ipc_handle) == CU_IPC_HANDLE_SIZE, "an IPC handle is 64 bytes");

/* An opened memory handle: counted per context, as the specification asks. */
struct ipc_range {
    struct range r;
    uint32_t pid;
    uint64_t start_time;
    uint8_t nonce[16];
    int refs;
    struct list_node node; /* ipc_opened */
};

static os_mutex ipc_lock = OS_MUTEX_INITIALIZER;
static struct list_node ipc_opened = {&ipc_opened, &ipc_opened};

/* An opened range's `free` (mem_free_range): it is forgotten here, then freed. */
static void ipc_range_free(struct range *r)
{
    struct ipc_range *ir = (struct ipc_range *)r;
    os_mutex_lock(&ipc_lock);
    list_del(&ir->node); /* a last close has unlinked it already: list_del leaves a node self-linked */
    os_mutex_unlock(&ipc_lock);
    free(ir);
}

/* The object is whole pages, so its size alone would let a handle's size be a few bytes off:
 * the handle's nonce is the object's masked with a function of the size, which binds the size
 * to the name as well. Each half of the mask is a bijection of the size (splitmix64's
 * finaliser), so any other size changes both halves; the nonce stays as random as it was. */
static void mask_nonce(uint8_t nonce[16], uint64_t size)
{
    for (int half = 0; half < 2; ++half) {
        uint64_t z = (half ? ~size : size) + 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        for (int i = 0; i < 8; ++i)
            nonce[8 * half + i] ^= (uint8_t)(z >> (8 * i));
    }
}

/* Fills h for an object of this process, of `size` bytes (0: the object's). */
static CUresult make_handle(const char *fn, const char *magic, const os_memory *mem, uint64_t alloc_size,
                            const uint8_t nonce[16], struct ipc_handle *h)
{
    uint64_t id, size;
    int err = os_handle_identity(mem->handle, &id, &size, NULL, 0);
    if (err) {
        char text[128];
        return fail(CUDA_ERROR_OPERATING_SYSTEM, "%s: cannot read the memory object's identity: %s", fn,
                    os_error_string(err, text, sizeof(text)));
    }
    memset(h, 0, sizeof(*h));
    memcpy(h->magic, magic, 8);
    h->pid = (uint32_t)os_process_id();
    h->fd = os_ipc_token(mem);
    h->start_time = lib_start_time();
    h->id = id;
    h->size = alloc_size ? alloc_size : size;
    memcpy(h->nonce, nonce, 16);
    mask_nonce(h->nonce, h->size);
    return CUDA_SUCCESS;
}

/* Opens the object a handle names, after checking everything it claims. */
static CUresult open_object(const char *fn, const struct ipc_handle *h, const char *magic, const char *name_prefix,
                            os_memory *out)
{
    bool memory = strcmp(magic, MEM_MAGIC) == 0;
    const char *what = memory ? "memory" : "event";
    static const uint8_t zero[8];
    /* The driver's codes: a memory handle that is not one is an invalid value; an event
     * handle, a failed mapping. */
    if (memcmp(h->magic, magic, 8) != 0 || memcmp(h->zero, zero, 8) != 0 || h->pid == 0)
        return fail(memory ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_MAP_FAILED, "%s: the handle is not an extmem %s "
                    "handle", fn, what);
    if (h->pid == (uint32_t)os_process_id())
        return fail(CUDA_ERROR_INVALID_CONTEXT, "%s: the %s handle was exported by this process itself", fn, what);
    os_handle fd = OS_INVALID_HANDLE;
    char name[256], expect[64];
    uint8_t nonce[16];
    memcpy(nonce, h->nonce, 16);
    mask_nonce(nonce, h->size); /* the object's own nonce, if the size is the one it was made for */
    obj_nonce_name(name_prefix, nonce, expect);
    int err = os_ipc_open((int)h->pid, h->fd, expect, &fd);
    uint64_t id = 0, size = 0;
    size_t page = os_page_size();
    /* An object whose size can still change could shrink under our mapping (SIGBUS at the next
     * access), whatever its name says: only then is its size worth reading. */
    bool fixed = !err && os_memory_size_is_fixed(fd);
    bool genuine = fixed && !os_handle_identity(fd, &id, &size, name, sizeof(name)) && id == h->id &&
                   h->size && size == (h->size + page - 1) / page * page && strncmp(name, expect, strlen(expect)) == 0;
    /* Every field is checked, the start time too, though an object found through a reused pid
     * would fail the others: a handle is either exactly what was exported or refused. Read
     * after the object was reached, it also refuses an exporter that was gone by then. */
    uint64_t start = os_process_start_time((int)h->pid);
    if (genuine && start == h->start_time) {
        out->handle = fd;
        out->size = (size_t)size;
        return CUDA_SUCCESS;
    }
    if (!err)
        os_handle_close(fd);
    if (start == 0)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: the exporting process %u has exited", fn, h->pid);
    if (start != h->start_time)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: the exporting process %u has exited (its pid now belongs to "
                    "another process)", fn, h->pid);
    if (os_error_is_access_denied(err))
        return fail(CUDA_ERROR_NOT_PERMITTED, "%s: this process may not open memory of process %u (another user?)", fn,
                    h->pid);
    /* The process is there but the object is not: freed (the driver's code), or forged. */
    if (err)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: process %u no longer holds the memory (it was freed)", fn, h->pid);
    if (!fixed)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the object the handle names in process %u is not sealed against "
                    "shrinking, as extmem's are (the memory was freed and its descriptor's number reused, or the "
                    "handle is forged)", fn, h->pid);
    return fail(CUDA_ERROR_INVALID_VALUE, "%s: the handle does not name memory process %u exported (freed, or forged)",
                fn, h->pid);
}

/* ---- Memory ---- */

CUresult CUDAAPI cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr)
{
    static const char fn[] = "cuIpcGetMemHandle";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    if (!pHandle)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pHandle is NULL", fn);
    /* Any address inside an allocation names the whole allocation, as on the driver. */
    amap_lock_read();
    struct range *range = amap_find(&amap_memory, (uintptr_t)dptr);
    bool ok = range && range->kind == RANGE_DEVICE && !range->pool && !range->managed &&
              (uintptr_t)dptr - range->base < range->size;
    range_kind kind = range ? range->kind : RANGE_DEVICE;
    bool pooled = range && range->pool;       /* a pool's memory: shared through cuMemPoolExportPointer */
    bool managed = range && range->managed; /* refused, as NVIDIA's driver refuses it */
    /* The object's identity is read while the allocation is registered: a free closes the
     * descriptor only after taking the allocation out of the map, which waits for this read
     * lock, so the descriptor cannot be closed (or name another object) under the read. */
    struct ipc_handle h;
    if (ok)
        r = make_handle(fn, MEM_MAGIC, &range->mem, range->size, range->nonce, &h);
    amap_unlock();
    if (!ok)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not in a cuMemAlloc allocation%s", fn,
                    (unsigned long long)dptr,
                    managed ? " (it is managed memory, which the driver does not share this way)"
                    : range && (kind != RANGE_DEVICE || pooled) ? " (only cuMemAlloc memory is shareable this way)"
                                                                : "");
    if (r)
        return r;
    memcpy(pHandle, &h, sizeof(h));
    return CUDA_SUCCESS;
}

static struct ipc_range *find_opened(const struct ipc_handle *h, struct ctx **other_ctx)
{
    *other_ctx = NULL;
    for (struct list_node *it = ipc_opened.next; it != &ipc_opened; it = it->next) {
        struct ipc_range *o = list_entry(it, struct ipc_range, node);
        if (o->pid != h->pid || o->start_time != h->start_time)
            continue;
        if (memcmp(o->nonce, h->nonce, 16) == 0)
            return o;
        *other_ctx = o->r.ctx;
    }
    return NULL;
}

/* With ipc_lock held: a reference on the opening of h in ctx, if there is one, or why ctx may not
 * open h. Opens are counted per context (../shared/seeds/002_2ab34fea44c5cb4f.txt). */
static CUresult take_opened(const char *fn, const struct ipc_handle *h, struct ctx *ctx, CUdeviceptr *pdptr,
                            bool *found)
{
    struct ctx *other = NULL;
    struct ipc_range *open = find_opened(h, &other);
    *found = open && open->r.ctx == ctx;
    if (*found) {
        open->refs++;
        *pdptr = (CUdeviceptr)open->r.base;
        return CUDA_SUCCESS;
    }
    if (open || (other && other != ctx))
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: another context of this process has memory of process %u open: one "
                    "context per device may open a process's handles", fn, h->pid);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuIpcOpenMemHandle(CUdeviceptr *pdptr, CUipcMemHandle handle, unsigned int Flags)
{
    static const char fn[] = "cuIpcOpenMemHandle";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    struct ipc_handle h;
    memcpy(&h, &handle, sizeof(h));
    os_memory mem = {.handle = OS_INVALID_HANDLE};
    struct ipc_range *ir = NULL;
    bool found;
    /* The specification: Flags must be CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS; the driver checks only
     * that bit, first. */
    if (!(Flags & CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS)) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: Flags is %u: it must be CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS (1)", fn,
                 Flags);
        goto out;
    }
    if (!pdptr) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: pdptr is NULL", fn);
        goto out;
    }
    os_mutex_lock(&ipc_lock);
    r = take_opened(fn, &h, ctx, pdptr, &found);
    os_mutex_unlock(&ipc_lock);
    if (r || found)
        goto out;
    /* The object is opened and mapped without the lock, so opens of other handles go on
     * meanwhile; another thread may open this one too, which the second look below settles. */
    if ((r = open_object(fn, &h, MEM_MAGIC, "extmem-device-", &mem)))
        goto out;
    void *addr;
    int err = os_memory_map(&mem, 0, mem.size, &addr);
    if (err || !(ir = calloc(1, sizeof(*ir)))) {
        if (!err)
            os_memory_unmap(addr, mem.size);
        r = fail(CUDA_ERROR_MAP_FAILED, "%s: mapping the memory of process %u failed", fn, h.pid);
        goto out;
    }
    /* The mapping keeps the memory: the descriptor can go. */
    ir->r.base = ir->r.unmap_base = (uintptr_t)addr;
    ir->r.size = (size_t)h.size; /* the allocation's own size, as the driver reports it */
    ir->r.map_size = ir->r.unmap_len = mem.size;
    ir->r.kind = RANGE_IPC;
    ir->r.free = ipc_range_free;
    ir->r.mem.handle = OS_INVALID_HANDLE;
    ir->pid = h.pid;
    ir->start_time = h.start_time;
    memcpy(ir->nonce, h.nonce, 16);
    ir->refs = 1;
    /* The entry becomes findable by opens (ipc_opened) and by address (the map) in one step
     * under ipc_lock, which closes take first too: nobody sees half of it. */
    os_mutex_lock(&ipc_lock);
    if (!(r = take_opened(fn, &h, ctx, pdptr, &found)) && !found) {
        list_add(&ipc_opened, &ir->node);
        mem_register(ctx, &ir->r);
        *pdptr = (CUdeviceptr)(uintptr_t)addr;
        ir = NULL;
    }
    os_mutex_unlock(&ipc_lock);
    if (ir) { /* another thread opened it first: its mapping is the one, ours goes */
        os_memory_unmap(addr, mem.size);
        free(ir);
    }
out:
    if (mem.handle != OS_INVALID_HANDLE)
        os_memory_close(&mem);
    ctx_release(ctx);
    return r;
}

CUresult CUDAAPI cuIpcCloseMemHandle(CUdeviceptr dptr)
{
    static const char fn[] = "cuIpcCloseMemHandle";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    /* As cuMemFree: queued work may still use the mapping. */
    if ((r = device_release_begin(fn)))
        return r;
    /* The last reference goes, the entry leaves the list opens search and the address map, all
     * under ipc_lock (taken before the map's lock, as opens do): an open that comes after it
     * maps the memory anew instead of reviving what is about to be unmapped. */
    os_mutex_lock(&ipc_lock);
    amap_lock_write();
    struct range *range = amap_find(&amap_memory, (uintptr_t)dptr);
    bool ok = range && range->kind == RANGE_IPC && range->base == (uintptr_t)dptr;
    bool last = false;
    if (ok) {
        struct ipc_range *ir = (struct ipc_range *)range;
        last = --ir->refs == 0;
        if (last) {
            list_del(&ir->node);
            mem_unpublish(range);
        }
    }
    amap_unlock();
    os_mutex_unlock(&ipc_lock);
    if (last)
        mem_free_range(range); /* the device has drained: device_release_begin */
    device_release_end();
    if (!ok)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not a pointer cuIpcOpenMemHandle returned (or it was "
                    "closed)", fn, (unsigned long long)dptr);
    return CUDA_SUCCESS;
}

/* ---- Events ---- */

CUresult CUDAAPI cuIpcGetEventHandle(CUipcEventHandle *pHandle, CUevent event)
{
    static const char fn[] = "cuIpcGetEventHandle";
    REQUIRE_INIT(fn);
    if (!pHandle)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pHandle is NULL", fn);
    struct event *e;
    CUresult r = event_lookup(fn, event, &e);
    if (r)
        return r;
    struct ipc_handle h;
    /* The driver's code for both, and it zeroes the output. */
    if (!e->shared || e->imported) {
        memset(pHandle, 0, sizeof(*pHandle));
        r = fail(CUDA_ERROR_INVALID_HANDLE, "%s: %s", fn, e->imported ? "the event was opened from another process's "
                 "handle: only its creator exports it" : "the event was not created with CU_EVENT_INTERPROCESS");
    } else if (!(r = make_handle(fn, EVENT_MAGIC, &e->shm, 0, e->nonce, &h))) {
        memcpy(pHandle, &h, sizeof(h));
    }
    event_release(e);
    return r;
}

CUresult CUDAAPI cuIpcOpenEventHandle(CUevent *phEvent, CUipcEventHandle handle)
{
    static const char fn[] = "cuIpcOpenEventHandle";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    struct ipc_handle h;
    memcpy(&h, &handle, sizeof(h));
    os_memory shm = {.handle = OS_INVALID_HANDLE};
    void *page = NULL;
    struct event *e;
    if (!phEvent)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: phEvent is NULL", fn);
    else if (!(r = open_object(fn, &h, EVENT_MAGIC, "extmem-event-", &shm)) && os_memory_map(&shm, 0, shm.size, &page))
        r = fail(CUDA_ERROR_MAP_FAILED, "%s: mapping the event of process %u failed", fn, h.pid);
    if (!r) {
        r = event_create(fn, ctx, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING, &shm, page, &e);
        shm.handle = OS_INVALID_HANDLE; /* the event's now, whatever happened */
        page = NULL;
        if (!r) {
            memcpy(e->nonce, h.nonce, 16);
            e->imported = true;
            *phEvent = (CUevent)(uintptr_t)e->base.handle;
        }
    }
    if (page)
        os_memory_unmap(page, shm.size);
    if (shm.handle != OS_INVALID_HANDLE)
        os_memory_close(&shm);
    ctx_release(ctx);
    return r;
}

#undef cuIpcOpenMemHandle
EXTMEM_API CUresult CUDAAPI cuIpcOpenMemHandle(CUdeviceptr *pdptr, CUipcMemHandle handle, unsigned int Flags);
CUresult CUDAAPI cuIpcOpenMemHandle(CUdeviceptr *pdptr, CUipcMemHandle handle, unsigned int Flags)
{
    return cuIpcOpenMemHandle_v2(pdptr, handle, Flags);
}
