/*
 * cuMemHostRegister and cuMemHostUnregister: the caller's own host memory made known to the
 * device. On the software device every host page is already addressable, so registering
 * pins nothing and maps nothing: it enters the pages in the address map (a RANGE_REGISTERED
 * range), which is what lets copies, fills, pointer queries and kernels treat them as
 * page-locked memory, and unregistering takes them out again without touching the memory.
 *
 * The codes are the H100's (docs/probes/surface/probe.out, driver 580): NULL or size 0,
 * unknown flag bits, IOMEMORY on ordinary memory, memory CUDA allocated (cuMemHostAlloc or
 * device memory) are INVALID_VALUE; a range that shares a page with a registered one is
 * HOST_MEMORY_ALREADY_REGISTERED; an unaligned start or size registers the whole pages it
 * touches, and only the pointer that was registered unregisters it (INVALID_VALUE for another
 * address inside, HOST_MEMORY_NOT_REGISTERED elsewhere). cuMemHostGetFlags reports DEVICEMAP
 * always, with PORTABLE where it was asked for, and not READ_ONLY, as the driver does.
 */
#include "memory/memory.h"

#include <stdlib.h>

#define KNOWN_FLAGS                                                                                        \
    (CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP | CU_MEMHOSTREGISTER_IOMEMORY |           \
     CU_MEMHOSTREGISTER_READ_ONLY)

/* Why [lo, lo + len) cannot be registered because some range is there: a registration
 * (ALREADY_REGISTERED) or memory CUDA gave out, which is page-locked already (INVALID_VALUE). */
static CUresult taken(const char *fn, const void *p, size_t size, uintptr_t lo, size_t len)
{
    amap_lock_read();
    struct range *r = amap_overlap(&amap_memory, lo, len);
    range_kind kind = r ? r->kind : RANGE_REGISTERED;
    uintptr_t base = r ? r->base : 0;
    size_t rsize = r ? r->size : 0;
    amap_unlock();
    if (!r) /* gone again since the registration was refused: another thread unregistered it */
        return fail(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "%s: [%p, +%zu) was registered by another "
                    "thread at the same time", fn, p, size);
    if (kind == RANGE_REGISTERED)
        return fail(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "%s: [%p, +%zu) shares a page with the "
                    "registered range [0x%llx, +%zu)", fn, p, size, (unsigned long long)base, rsize);
    return fail(CUDA_ERROR_INVALID_VALUE, "%s: [%p, +%zu) overlaps memory CUDA gave out ([0x%llx, +%zu), %s), "
                "which is page-locked and mapped for the device already", fn, p, size, (unsigned long long)base,
                rsize, kind == RANGE_HOST ? "cuMemHostAlloc memory" : "device memory");
}

static CUresult host_register(const char *fn, struct ctx *ctx, void *p, size_t bytesize, unsigned int Flags)
{
    if (!p)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: p is NULL", fn);
    if (bytesize == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: bytesize is 0", fn);
    if (Flags & ~(unsigned int)KNOWN_FLAGS)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: Flags 0x%x has bits 0x%x that are no CU_MEMHOSTREGISTER_* flag",
                    fn, Flags, Flags & ~(unsigned int)KNOWN_FLAGS);
    /* The driver refuses IOMEMORY on ordinary memory; the software device has no memory of a
     * peer device's I/O space to map, so every range is ordinary memory to it. */
    if (Flags & CU_MEMHOSTREGISTER_IOMEMORY)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: CU_MEMHOSTREGISTER_IOMEMORY: [%p, +%zu) is ordinary memory, "
                    "not a device's I/O memory (the software device has none)", fn, p, bytesize);
    uintptr_t page = os_page_size(), start = (uintptr_t)p;
    if (bytesize > UINTPTR_MAX - start - page)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: [%p, +%zu) wraps around the address space", fn, p, bytesize);
    uintptr_t lo = start & ~(page - 1), hi = (start + bytesize + page - 1) & ~(page - 1);
    /* The driver pins the pages, which fails for memory that is not there; reading one byte of
     * each page is the same test without pinning. */
    if (!os_memory_is_readable((const void *)lo, hi - lo))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: [%p, +%zu) is not all mapped, readable host memory", fn, p,
                    bytesize);
    struct range *r = calloc(1, sizeof(*r));
    if (!r)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the registration record", fn);
    r->base = lo;
    r->size = r->map_size = hi - lo; /* the whole pages: cuMemGetAddressRange answers them */
    r->kind = RANGE_REGISTERED;
    r->mem.handle = OS_INVALID_HANDLE; /* no memory object: the pages are the caller's */
    r->flags = (Flags & CU_MEMHOSTREGISTER_PORTABLE) | CU_MEMHOSTREGISTER_DEVICEMAP;
    r->user_base = start;
    r->read_only = (Flags & CU_MEMHOSTREGISTER_READ_ONLY) != 0;
    r->buffer_id = mem_next_buffer_id();
    /* Checked and entered under one lock: of two threads registering the same pages, one
     * wins and the other is told why it lost. */
    if (!mem_register_unless_overlapping(ctx, r)) {
        free(r);
        return taken(fn, p, bytesize, lo, hi - lo);
    }
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags)
{
    struct ctx *ctx;
    CUresult r = ctx_current("cuMemHostRegister", &ctx);
    if (r)
        return r;
    r = host_register("cuMemHostRegister", ctx, p, bytesize, Flags);
    ctx_release(ctx);
    return r;
}

/* CUDA 4.0's name for the same call, with the same signature (the _v2 of CUDA 6.5 is what
 * NVIDIA's header names now). */
#undef cuMemHostRegister
EXTMEM_API CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags);
CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags)
{
    return cuMemHostRegister_v2(p, bytesize, Flags);
}

/* Why p unregisters nothing: inside a registration but not its pointer (INVALID_VALUE), or
 * in none (HOST_MEMORY_NOT_REGISTERED). */
static CUresult not_registered(const char *fn, const void *p)
{
    amap_lock_read();
    struct range *r = amap_find(&amap_memory, (uintptr_t)p);
    bool inside = r && r->kind == RANGE_REGISTERED;
    uintptr_t registered = inside ? r->user_base : 0;
    range_kind kind = r ? r->kind : RANGE_REGISTERED;
    amap_unlock();
    if (inside)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %p is inside the range registered at 0x%llx: only the "
                    "pointer given to cuMemHostRegister unregisters it", fn, p, (unsigned long long)registered);
    if (r)
        return fail(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "%s: %p is %s, not registered host memory", fn, p,
                    kind == RANGE_HOST ? "cuMemHostAlloc memory (cuMemFreeHost frees it)" : "device memory");
    return fail(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "%s: %p was not registered with cuMemHostRegister (or was "
                "unregistered already)", fn, p);
}

CUresult CUDAAPI cuMemHostUnregister(void *p)
{
    static const char fn[] = "cuMemHostUnregister";
    REQUIRE_INIT(fn);
    /* As cuMemFree: work queued before the call may still use the pages. */
    CUresult r = device_wait_allowed(fn);
    if (r)
        return r;
    struct ctx *ctx;
    if ((r = ctx_current(fn, &ctx)))
        return r;
    ctx_release(ctx);
    if (!p)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: p is NULL", fn);
    if ((r = device_release_begin(fn)))
        return r;
    amap_lock_write();
    struct range *range = amap_find(&amap_memory, (uintptr_t)p);
    if (range && range->kind == RANGE_REGISTERED && range->user_base == (uintptr_t)p)
        mem_unpublish(range);
    else
        range = NULL;
    amap_unlock();
    if (range)
        mem_free_range(range); /* the record only: the pages stay the caller's, mapped as they were */
    device_release_end();
    return range ? CUDA_SUCCESS : not_registered(fn, p);
}
