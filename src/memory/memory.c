/*
 * Device and host allocations. All memory is shareable OS memory mapped shared (DESIGN.md
 * §2): a cuMemAlloc allocation is a sealed memfd, so it can later be exported for IPC or as
 * a dma-buf without a copy. Device pointers are host addresses (unified addressing).
 */
#include "memory/memory.h"
#include "memory/vmm.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static atomic_uint_fast64_t next_buffer_id = 1;

uint64_t mem_next_buffer_id(void) { return atomic_fetch_add(&next_buffer_id, 1); }

/* Each device allocation's memfd is named with a nonce of its own: 128 bits the OS draws for
 * this allocation alone (getrandom; BCryptGenRandom), so that an IPC handle can be neither
 * guessed nor derived from another one (a secret per process with a counter could be, from
 * one handle). Without random bytes the allocation fails (CUDA_ERROR_OPERATING_SYSTEM) rather
 * than carry a guessable name: any allocation may be exported later, and its name is fixed
 * when the memfd is made. */
static CUresult make_nonce(const char *fn, uint8_t nonce[16])
{
    int err = os_random_bytes(nonce, 16);
    if (err) {
        char text[128];
        return fail(CUDA_ERROR_OPERATING_SYSTEM, "%s: no random bytes for the allocation's IPC nonce: %s", fn,
                    os_error_string(err, text, sizeof(text)));
    }
    return CUDA_SUCCESS;
}

static size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

static CUresult os_failure(const char *fn, int err, size_t size)
{
    char text[160];
    os_error_string(err, text, sizeof(text));
    if (os_error_is_out_of_memory(err))
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: the OS refused %zu bytes of shareable memory: %s", fn, size, text);
    return fail(CUDA_ERROR_OPERATING_SYSTEM, "%s: creating %zu bytes of shareable memory failed: %s", fn, size, text);
}

CUresult mem_check_available(const char *fn, size_t size)
{
    /* The free memory answers most requests cheaply; only larger ones read what is available
     * counting reclaimable cache (a slower read of /proc/meminfo on Linux). */
    uint64_t available = os_memory_free();
    if (size > available)
        available = os_memory_available();
    if (size > available)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: %zu bytes is more than the %llu bytes of memory available", fn, size,
                    (unsigned long long)available);
    return CUDA_SUCCESS;
}

CUresult mem_range_init(const char *fn, struct range *r, size_t size, range_kind kind, unsigned int flags)
{
    size_t page = os_page_size();
    CUresult check = mem_check_available(fn, size);
    if (check)
        return check;
    r->size = size;
    r->map_size = round_up(size, page);
    r->kind = kind;
    r->flags = flags;
    r->buffer_id = mem_next_buffer_id();
    void *addr;
    char name[64] = "extmem-host";
    if (kind == RANGE_DEVICE) {
        CUresult no_nonce = make_nonce(fn, r->nonce);
        if (no_nonce)
            return no_nonce;
        obj_nonce_name("extmem-device-", r->nonce, name);
    }
    int err = os_memory_create(&r->mem, r->map_size, name, NULL);
    if (err)
        return os_failure(fn, err, size);
    if ((err = os_memory_map(&r->mem, 0, r->map_size, &addr))) {
        os_memory_close(&r->mem);
        return os_failure(fn, err, size);
    }
    if (kind == RANGE_HOST) /* pinned host memory stays shared with fork children, as on the driver */
        os_memory_inherit(addr, r->map_size);
    r->base = r->unmap_base = (uintptr_t)addr;
    r->unmap_len = r->map_size;
    return CUDA_SUCCESS;
}

/* Creates, maps and registers one allocation of ctx; *base is its address. Once registered
 * the range belongs to whoever frees it (another thread, with a stale pointer, may free it at
 * once), so nothing reads it afterwards. */
static CUresult range_create(const char *fn, struct ctx *ctx, size_t size, range_kind kind, unsigned int flags,
                             struct managed *managed, uintptr_t *base)
{
    struct range *r = calloc(1, sizeof(*r));
    if (!r) {
        managed_free(managed);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the allocation record", fn);
    }
    CUresult res = mem_range_init(fn, r, size, kind, flags);
    if (res) {
        managed_free(managed);
        free(r);
        return res;
    }
    r->managed = managed;
    *base = r->base;
    mem_register(ctx, r);
    return CUDA_SUCCESS;
}

/* Frees what is left of a context's memory (device.h: memory goes last). */
static void mem_free_context(struct ctx *ctx);
static const struct ctx_step teardown_step = {CTX_STEP_MEMORY, mem_free_context};

/* Registers r; with `exclusive`, only where no registered range shares an address with it.
 * The range joins its context's list and the address map in one step under the maps' lock,
 * so nothing can find it by address (and free it) before it belongs to its context. */
static bool register_range(struct ctx *ctx, struct range *r, bool exclusive)
{
    r->ctx = ctx;
    amap_lock_write();
    bool free_space = !exclusive || !amap_overlap(&amap_memory, r->base, r->map_size);
    if (free_space) {
        os_mutex_lock(&ctx->lock);
        list_add(&ctx->ranges, &r->ctx_node);
        ctx_add_teardown(ctx, &teardown_step);
        os_mutex_unlock(&ctx->lock);
        amap_insert(&amap_memory, r);
    }
    amap_unlock();
    return free_space;
}

void mem_register(struct ctx *ctx, struct range *r) { register_range(ctx, r, false); }

bool mem_register_unless_overlapping(struct ctx *ctx, struct range *r) { return register_range(ctx, r, true); }

void mem_unpublish(struct range *r)
{
    amap_remove(&amap_memory, r);
    os_mutex_lock(&r->ctx->lock);
    list_del(&r->ctx_node);
    os_mutex_unlock(&r->ctx->lock);
}

void mem_free_range(struct range *r)
{
    if (r->unmap_len)
        os_memory_unmap((void *)r->unmap_base, r->unmap_len);
    if (r->release)
        r->release(r->owner);
    managed_free(r->managed);
    r->managed = NULL;
    if (r->free) {
        r->free(r); /* an opened IPC range */
        return;
    }
    /* External buffers own no handle (their object does); registered pages are the caller's. */
    if (r->kind != RANGE_EXTERNAL && r->kind != RANGE_REGISTERED)
        os_memory_close(&r->mem);
    free(r);
}

/* The context is being destroyed and its streams have drained (its teardown step). A range is
 * taken from the list and the map under the maps' lock, as a free takes it, so a free racing
 * the destruction and the destruction never both own it. */
static void mem_free_context(struct ctx *ctx)
{
    pool_context_gone(ctx); /* what the memory pools keep of it (pool.c) */
    for (;;) {
        amap_lock_write();
        os_mutex_lock(&ctx->lock);
        struct range *r = list_empty(&ctx->ranges) ? NULL : list_entry(ctx->ranges.next, struct range, ctx_node);
        os_mutex_unlock(&ctx->lock);
        if (r)
            mem_unpublish(r);
        amap_unlock();
        if (!r)
            return;
        mem_free_range(r);
    }
}

/* Takes the allocation that starts exactly at addr out of the map. */
static struct range *take_allocation(uintptr_t addr, range_kind kind)
{
    amap_lock_write();
    struct range *r = amap_find(&amap_memory, addr);
    /* A pool allocation whose cuMemFreeAsync is queued belongs to that free already. */
    if (r && r->base == addr && !r->pending_free &&
        (r->kind == kind || (kind == RANGE_DEVICE && r->kind == RANGE_EXTERNAL)))
        mem_unpublish(r);
    else
        r = NULL;
    amap_unlock();
    return r;
}

static const char *kind_name(range_kind kind)
{
    switch (kind) {
    case RANGE_DEVICE: return "device memory";
    case RANGE_HOST: return "host memory";
    case RANGE_EXTERNAL: return "an external memory buffer";
    case RANGE_REGISTERED: return "host memory registered with cuMemHostRegister";
    case RANGE_ARRAY: return "a CUDA array's memory";
    case RANGE_HEAP: return "the device heap (malloc in kernels)";
    default: return "a VMM mapping (cuMemMap)";
    }
}

/* Explains why addr is not the start of an allocation of kind. */
CUresult mem_not_an_allocation(const char *fn, const char *what, uintptr_t addr, range_kind kind)
{
    amap_lock_read();
    struct range *r = amap_find(&amap_memory, addr);
    uintptr_t base = r ? r->base : 0;
    range_kind found = r ? r->kind : kind;
    bool freeing = r && r->pending_free;
    amap_unlock();
    if (!r)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx is not %s that extmem allocated (or it was freed)", fn, what,
                    (unsigned long long)addr, kind_name(kind));
    if (freeing && base == addr)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx is already being freed (cuMemFreeAsync)", fn, what,
                    (unsigned long long)addr);
    if (found != kind && !(kind == RANGE_DEVICE && found == RANGE_EXTERNAL))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx is %s, not %s", fn, what, (unsigned long long)addr,
                    kind_name(found), kind_name(kind));
    return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx is inside the allocation at 0x%llx, not its start", fn, what,
                (unsigned long long)addr, (unsigned long long)base);
}

CUresult mem_check_access(const char *fn, const char *what, uintptr_t addr, size_t size, int flags, bool *pageable)
{
    bool write = flags & MEM_WRITE;
    if (pageable)
        *pageable = false;
    if (!addr)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, what);
    if (size > UINTPTR_MAX - addr)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx + %zu bytes wraps around the address space", fn, what,
                    (unsigned long long)addr, size);
    amap_lock_read();
    struct range *r = amap_find(&amap_memory, addr);
    if (r && r->kind == RANGE_MAPPING) {
        const char *why = "";
        bool ok = vmm_covered(r, addr, size ? size : 1, write ? OS_ACCESS_READWRITE : OS_ACCESS_READ, &why);
        amap_unlock();
        if (!ok)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s [0x%llx, +%zu) %s", fn, what, (unsigned long long)addr, size,
                        why);
        return CUDA_SUCCESS;
    }
    bool reserved = !r && amap_find(&amap_reservations, addr);
    uintptr_t base = r ? r->base : 0;
    size_t rsize = r ? r->size : 0;
    bool read_only = r && r->kind == RANGE_REGISTERED && r->read_only;
    amap_unlock();
    if (reserved)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx is reserved with cuMemAddressReserve but not mapped", fn,
                    what, (unsigned long long)addr);
    if (r) {
        if (addr - base >= rsize || size > rsize - (addr - base))
            return fail(CUDA_ERROR_INVALID_VALUE,
                        "%s: %s [0x%llx, +%zu) runs past the end of its allocation [0x%llx, +%zu)", fn, what,
                        (unsigned long long)addr, size, (unsigned long long)base, rsize);
        if (write && read_only)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx is host memory registered with "
                        "CU_MEMHOSTREGISTER_READ_ONLY: the device may only read it", fn, what,
                        (unsigned long long)addr);
        return CUDA_SUCCESS;
    }
    /* Pageable host memory: where the call names a device pointer, the driver refuses it
     * (docs/probes/pageable_copy_probe.out: a malloc or mmap pointer, and a freed one). */
    if (flags & MEM_DEVICE)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx is not device memory (cuMemAlloc, cuMemAllocHost, a VMM "
                    "mapping, IPC or external memory): freed, or pageable host memory, which only cuMemcpy, "
                    "cuMemcpyAsync and a copy's host side take, as on the driver", fn, what, (unsigned long long)addr);
    /* Elsewhere it must be there and readable (a PROT_NONE guard page would fault in the
     * copy). A read-only destination is the caller's to avoid, as on the driver: checking
     * writability would mean writing to the caller's memory. */
    if (pageable)
        *pageable = true;
    if (!os_memory_is_readable((const void *)addr, size ? size : 1))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s [0x%llx, +%zu) is neither extmem memory nor readable host memory",
                    fn, what, (unsigned long long)addr, size);
    return CUDA_SUCCESS;
}

bool mem_kernel_extent(uintptr_t addr, size_t size, bool write, uintptr_t *lo, uintptr_t *hi)
{
    bool ok = false;
    amap_lock_read();
    struct range *r = amap_find(&amap_memory, addr);
    if (r && r->kind == RANGE_MAPPING) {
        const struct mapping *m = (const struct mapping *)r;
        int need = write ? OS_ACCESS_READWRITE : OS_ACCESS_READ;
        if ((m->access & need) == need && addr - r->base + size <= r->size) {
            *lo = r->base;
            *hi = r->base + r->size;
            ok = true;
        } else {
            const char *why;
            ok = vmm_covered(r, addr, size, need, &why);
            *lo = *hi = 0; /* across mappings: checked, not remembered */
        }
    } else if (r && addr - r->base + size <= r->map_size &&
               !(write && r->kind == RANGE_REGISTERED && r->read_only)) {
        /* A kernel may touch the whole pages of an allocation, as a GPU's granules allow (and
         * only read pages registered READ_ONLY, which fault on a store on the GPU). */
        *lo = r->base;
        *hi = r->base + r->map_size;
        ok = true;
    }
    amap_unlock();
    return ok;
}

CUresult mem_alloc_device(const char *fn, struct ctx *ctx, size_t size, struct managed *m, uintptr_t *base)
{
    return range_create(fn, ctx, size, RANGE_DEVICE, 0, m, base);
}

/* Failed allocations leave 0 in the out-parameter, as the driver does. */
CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)
{
    if (dptr)
        *dptr = 0;
    struct ctx *ctx;
    CUresult r = ctx_current("cuMemAlloc", &ctx);
    if (r)
        return r;
    if ((r = capture_check_unsafe("cuMemAlloc", NULL))) {
        ctx_release(ctx);
        return r;
    }
    uintptr_t base;
    if (!dptr)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuMemAlloc: dptr is NULL");
    else if (bytesize == 0)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuMemAlloc: bytesize is 0: an allocation has at least one byte");
    else if ((r = range_create("cuMemAlloc", ctx, bytesize, RANGE_DEVICE, 0, NULL, &base)) == CUDA_SUCCESS)
        *dptr = (CUdeviceptr)base;
    ctx_release(ctx);
    return r;
}

CUresult CUDAAPI cuMemAllocPitch(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                                 unsigned int ElementSizeBytes)
{
    if (dptr)
        *dptr = 0;
    if (pPitch)
        *pPitch = 0;
    REQUIRE_INIT("cuMemAllocPitch");
    if (!dptr || !pPitch)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuMemAllocPitch: %s is NULL", !dptr ? "dptr" : "pPitch");
    if (WidthInBytes == 0 || Height == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuMemAllocPitch: %s is 0", WidthInBytes == 0 ? "WidthInBytes" : "Height");
    if (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuMemAllocPitch: ElementSizeBytes is %u: it must be 4, 8 or 16",
                    ElementSizeBytes);
    if (WidthInBytes > SIZE_MAX - 512)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuMemAllocPitch: WidthInBytes %zu is too large", WidthInBytes);
    size_t pitch = round_up(WidthInBytes, 512);
    if (Height > SIZE_MAX / pitch)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "cuMemAllocPitch: %zu rows of %zu bytes overflow", Height, pitch);
    CUresult r = cuMemAlloc(dptr, pitch * Height);
    if (r == CUDA_SUCCESS)
        *pPitch = pitch;
    return r;
}

bool (*_Atomic mem_graph_free_hook)(const char *fn, CUdeviceptr dptr, CUresult *r);

CUresult CUDAAPI cuMemFree(CUdeviceptr dptr)
{
    REQUIRE_INIT("cuMemFree");
    /* Before the context: a host function's thread has none, and this is the better reason. */
    CUresult r = device_wait_allowed("cuMemFree");
    if (r)
        return r;
    struct ctx *ctx;
    if ((r = ctx_current("cuMemFree", &ctx)))
        return r;
    ctx_release(ctx);
    if (dptr == 0)
        return CUDA_SUCCESS;
    if ((r = capture_check_unsafe("cuMemFree", NULL)))
        return r;
    if (mem_graph_free_hook && mem_graph_free_hook("cuMemFree", dptr, &r))
        return r;
    return mem_free_device("cuMemFree", dptr);
}

CUresult mem_free_device(const char *fn, CUdeviceptr dptr)
{
    /* Synchronous, as on the driver: work queued before the free may still use the memory. */
    CUresult r = device_release_begin(fn);
    if (r)
        return r;
    struct range *range = take_allocation((uintptr_t)dptr, RANGE_DEVICE);
    if (range)
        mem_free_range(range);
    device_release_end();
    if (!range)
        return mem_not_an_allocation(fn, "dptr", (uintptr_t)dptr, RANGE_DEVICE);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemGetInfo(size_t *free_bytes, size_t *total)
{
    struct ctx *ctx;
    CUresult r = ctx_current("cuMemGetInfo", &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    /* Either pointer may be NULL, as the driver allows. */
    if (free_bytes)
        *free_bytes = (size_t)os_memory_available();
    if (total)
        *total = (size_t)os_memory_total();
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
    struct ctx *ctx;
    CUresult r = ctx_current("cuMemGetAddressRange", &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    amap_lock_read();
    struct range *range = amap_find(&amap_memory, (uintptr_t)dptr);
    /* A VMM mapping counts once access is set, as on the driver. */
    if (range && range->kind == RANGE_MAPPING && ((struct mapping *)range)->access == OS_ACCESS_NONE)
        range = NULL;
    uintptr_t base = range ? range->base : 0;
    size_t size = range ? range->size : 0;
    amap_unlock();
    if (!range || (uintptr_t)dptr - base >= size) {
        if (pbase)
            *pbase = 0;
        if (psize)
            *psize = 0;
        return fail(CUDA_ERROR_NOT_FOUND, "cuMemGetAddressRange: 0x%llx is in no allocation", (unsigned long long)dptr);
    }
    if (pbase)
        *pbase = (CUdeviceptr)base;
    if (psize)
        *psize = size;
    return CUDA_SUCCESS;
}

/* Host memory is always mapped for the device (CU_MEMHOSTALLOC_DEVICEMAP is implied, and
 * cuMemHostGetFlags reports it, as on the driver). A size of 0 succeeds with NULL, as there. */
static CUresult host_alloc(const char *fn, void **pp, size_t bytesize, unsigned int Flags)
{
    if (pp)
        *pp = NULL;
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    const unsigned int known = CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED;
    uintptr_t base;
    if (!pp)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: pp is NULL", fn);
    else if (Flags & ~known)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: Flags 0x%x has bits other than CU_MEMHOSTALLOC_*", fn, Flags);
    else if (bytesize == 0)
        r = CUDA_SUCCESS;
    else if ((r = range_create(fn, ctx, bytesize, RANGE_HOST, Flags | CU_MEMHOSTALLOC_DEVICEMAP, NULL, &base)) ==
             CUDA_SUCCESS)
        *pp = (void *)base;
    ctx_release(ctx);
    return r;
}

CUresult CUDAAPI cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    return host_alloc("cuMemHostAlloc", pp, bytesize, Flags);
}

CUresult CUDAAPI cuMemAllocHost(void **pp, size_t bytesize)
{
    CUresult r = capture_check_unsafe("cuMemAllocHost", NULL);
    return r ? r : host_alloc("cuMemAllocHost", pp, bytesize, 0);
}

CUresult CUDAAPI cuMemFreeHost(void *p)
{
    REQUIRE_INIT("cuMemFreeHost");
    /* Before the context: a host function's thread has none, and this is the better reason. */
    CUresult r = device_wait_allowed("cuMemFreeHost");
    if (r)
        return r;
    struct ctx *ctx;
    if ((r = ctx_current("cuMemFreeHost", &ctx)))
        return r;
    ctx_release(ctx);
    if (!p)
        return CUDA_SUCCESS;
    if ((r = device_release_begin("cuMemFreeHost"))) /* as cuMemFree */
        return r;
    struct range *range = take_allocation((uintptr_t)p, RANGE_HOST);
    if (range)
        mem_free_range(range);
    device_release_end();
    if (!range)
        return mem_not_an_allocation("cuMemFreeHost", "p", (uintptr_t)p, RANGE_HOST);
    return CUDA_SUCCESS;
}

/* Finds the host allocation that contains p; copies out what the caller needs. */
static CUresult host_range(const char *fn, const void *p, unsigned int *flags)
{
    if (!p)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: p is NULL", fn);
    amap_lock_read();
    struct range *range = amap_find(&amap_memory, (uintptr_t)p);
    bool ok = range && (range->kind == RANGE_HOST || range->kind == RANGE_REGISTERED) &&
              (uintptr_t)p - range->base < range->size;
    if (ok && flags)
        *flags = range->flags;
    amap_unlock();
    if (!ok)
        return fail(CUDA_ERROR_INVALID_VALUE,
                    "%s: %p is not in host memory allocated by cuMemHostAlloc or cuMemAllocHost, nor registered "
                    "with cuMemHostRegister", fn, p);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
    struct ctx *ctx;
    CUresult r = ctx_current("cuMemHostGetDevicePointer", &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    if (!pdptr)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuMemHostGetDevicePointer: pdptr is NULL");
    *pdptr = 0;
    if (Flags != 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuMemHostGetDevicePointer: Flags is %u: it must be 0", Flags);
    if ((r = host_range("cuMemHostGetDevicePointer", p, NULL)))
        return r;
    /* Unified addressing: the device sees host memory at the same address. */
    *pdptr = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
    struct ctx *ctx;
    CUresult r = ctx_current("cuMemHostGetFlags", &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    if (!pFlags)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuMemHostGetFlags: pFlags is NULL");
    return host_range("cuMemHostGetFlags", p, pFlags);
}
