/*
 * cuMemGetHandleForAddressRange: a range of device memory as a dma-buf
 * (../shared/seeds/000_5a44d3b7857fd408.txt; BEHAVIOR.md; docs/dmabuf.md; DESIGN.md §10).
 *
 * Every kind of memory the specification names is memfds mapped shared: a cuMemAlloc or host
 * allocation is one memfd, a VMM range is the memfds of the allocations mapped side by side.
 * The dma-buf is made of those memfds' pages (src/<os>/dmabuf.c), so it is the very same
 * memory, not a copy. The checks run in the real driver's order (docs/probes/dmabuf_probe.out):
 * the arguments alone (nothing written), the current context, then -1 is written and the range
 * is looked up, then the PCIe flag and the machine's provider (NOT_SUPPORTED).
 */
#include "interop/interop.h"
#include "memory/memory.h"

#include <stdlib.h>
#include <string.h>

static const char fn[] = "cuMemGetHandleForAddressRange";

/* The memory objects behind a range, in address order; contiguous parts of one object are
 * merged into one piece. Most ranges have one piece: no allocation then. */
struct pieces {
    os_dmabuf_piece *v;
    size_t count, capacity;
    os_dmabuf_piece inline_v[4];
};

static void pieces_init(struct pieces *p)
{
    p->v = p->inline_v;
    p->count = 0;
    p->capacity = sizeof(p->inline_v) / sizeof(p->inline_v[0]);
}

static void pieces_free(struct pieces *p)
{
    if (p->v != p->inline_v)
        free(p->v);
}

static bool pieces_add(struct pieces *p, os_handle memory, uint64_t offset, uint64_t size)
{
    os_dmabuf_piece *last = p->count ? &p->v[p->count - 1] : NULL;
    if (last && last->memory == memory && last->offset + last->size == offset) {
        last->size += size;
        return true;
    }
    if (p->count == p->capacity) {
        size_t cap = p->capacity * 2;
        os_dmabuf_piece *v = malloc(cap * sizeof(*v));
        if (!v)
            return false;
        memcpy(v, p->v, p->count * sizeof(*v));
        pieces_free(p);
        p->v = v;
        p->capacity = cap;
    }
    p->v[p->count++] = (os_dmabuf_piece){memory, offset, size};
    return true;
}

static CUresult out_of_memory(void) { return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn); }

/* A VMM range: every byte must be mapped, by one mapping or several side by side (also across
 * adjacent reservations, as on the driver); the access set with cuMemSetAccess does not
 * matter. With the maps read-locked. */
static CUresult resolve_mappings(const struct range *first, uintptr_t addr, size_t size, struct pieces *out)
{
    uintptr_t cur = addr, end = addr + size;
    const struct range *r = first;
    while (cur < end) {
        if (!r || r->kind != RANGE_MAPPING)
            return fail(CUDA_ERROR_INVALID_VALUE,
                        "%s: [0x%llx, +%zu) is not mapped throughout: nothing is mapped at 0x%llx (a range from "
                        "cuMemAddressReserve must be fully mapped with cuMemMap)",
                        fn, (unsigned long long)addr, size, (unsigned long long)cur);
        uintptr_t stop = r->base + r->size < end ? r->base + r->size : end;
        /* cuMemMap maps an allocation from its offset 0 (the specification's "must be zero"). */
        if (!pieces_add(out, mem_mapping_object(r), cur - r->base, stop - cur))
            return out_of_memory();
        cur = stop;
        if (cur < end)
            r = amap_find(&amap_memory, cur);
    }
    return CUDA_SUCCESS;
}

/* Finds the memory objects behind [addr, addr + size). With the maps read-locked. */
static CUresult resolve(uintptr_t addr, size_t size, struct pieces *out)
{
    const struct range *r = amap_find(&amap_memory, addr);
    if (!r) {
        if (amap_find(&amap_reservations, addr))
            return fail(CUDA_ERROR_INVALID_VALUE,
                        "%s: 0x%llx is reserved with cuMemAddressReserve but not mapped: a reserved range must be fully "
                        "mapped with cuMemMap", fn, (unsigned long long)addr);
        return fail(CUDA_ERROR_INVALID_VALUE,
                    "%s: 0x%llx is not memory from cuMemAlloc, from cuMemAddressReserve + cuMemMap, or from "
                    "cuMemAllocHost/cuMemHostAlloc (or it was freed)", fn, (unsigned long long)addr);
    }
    if (r->managed) /* as NVIDIA's driver answers (docs/probes/managed/probe2.out) */
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is managed memory (cuMemAllocManaged), which is not exported "
                    "as a dma-buf, as on the driver", fn, (unsigned long long)addr);
    if (r->kind == RANGE_HOST) {
        /* The specification: host allocations only where the host-allocation attribute is 1.
         * Where it is 0 the driver answers INVALID_VALUE (the H100 in docs/probes). */
        const char *why = "";
        if (!os_dmabuf_supported(&why))
            return fail(CUDA_ERROR_INVALID_VALUE,
                        "%s: 0x%llx is host memory (cuMemAllocHost/cuMemHostAlloc), which is exported only where "
                        "CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED is 1; it is 0 here: %s", fn,
                        (unsigned long long)addr, why);
    }
    switch (r->kind) {
    case RANGE_HOST: /* a memfd like device memory */
    case RANGE_DEVICE:
        /* An allocation owns whole pages (its memfd is page-rounded), and only those. */
        if (size > r->map_size - (addr - r->base))
            return fail(CUDA_ERROR_INVALID_VALUE,
                        "%s: [0x%llx, +%zu) runs past the end of its allocation [0x%llx, +%zu) (%zu bytes in whole "
                        "pages)", fn, (unsigned long long)addr, size, (unsigned long long)r->base, r->size,
                        r->map_size);
        if (!pieces_add(out, r->mem.handle, addr - r->base, size))
            return out_of_memory();
        return CUDA_SUCCESS;
    case RANGE_MAPPING:
        return resolve_mappings(r, addr, size, out);
    case RANGE_EXTERNAL:
        return fail(CUDA_ERROR_INVALID_VALUE,
                    "%s: 0x%llx is a buffer of imported external memory (cuExternalMemoryGetMappedBuffer): only "
                    "cuMemAlloc, mapped cuMemAddressReserve and host allocations can be exported", fn,
                    (unsigned long long)addr);
    case RANGE_REGISTERED:
        return fail(CUDA_ERROR_INVALID_VALUE,
                    "%s: 0x%llx is the caller's host memory registered with cuMemHostRegister, which extmem does not "
                    "own: only cuMemAlloc, mapped cuMemAddressReserve and host allocations can be exported", fn,
                    (unsigned long long)addr);
    default:
        return fail(CUDA_ERROR_INVALID_VALUE,
                    "%s: 0x%llx is memory of another process opened with cuIpcOpenMemHandle: only cuMemAlloc, "
                    "mapped cuMemAddressReserve and host allocations can be exported", fn, (unsigned long long)addr);
    }
}

/* The checks that need nothing but the arguments; on failure nothing is written. */
static CUresult check_arguments(void *handle, uintptr_t p, size_t size, CUmemRangeHandleType handleType,
                                unsigned long long flags)
{
    size_t page = os_page_size();
    if (!handle)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: handle is NULL", fn);
    if (handleType != CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD)
        return fail(CUDA_ERROR_INVALID_VALUE,
                    "%s: handleType %d is not a CUmemRangeHandleType: CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD (1) is the "
                    "only one", fn, (int)handleType);
    /* As on the driver: other bits are refused unless the PCIe bit is set, which is answered
     * (NOT_SUPPORTED) only once the range is known to be good. */
    if (flags != 0 && !(flags & CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE))
        return fail(CUDA_ERROR_INVALID_VALUE,
                    "%s: flags 0x%llx: it must be 0 or CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE (0x1)", fn, flags);
    if (p == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: dptr is 0", fn);
    if (size == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: size is 0", fn);
    if (p % page)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: dptr 0x%llx is not aligned to the host page size %zu", fn,
                    (unsigned long long)p, page);
    if (size % page)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: size %zu is not a multiple of the host page size %zu", fn, size,
                    page);
    if (size > UINTPTR_MAX - p)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: [0x%llx, +%zu) wraps around the address space", fn,
                    (unsigned long long)p, size);
    return CUDA_SUCCESS;
}

/* The range is good; can this machine make the dma-buf? */
static CUresult check_support(unsigned long long flags)
{
    if (flags & CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE)
        return fail(CUDA_ERROR_NOT_SUPPORTED,
                    "%s: flags 0x%llx asks for a dma-buf mapped through a PCIe BAR "
                    "(CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE): the software device is no PCIe device and has no "
                    "BAR; pass 0 for a dma-buf of the memory's own pages", fn, flags);
    const char *why = "";
    if (!os_dmabuf_supported(&why))
        return fail(CUDA_ERROR_NOT_SUPPORTED,
                    "%s: this machine has no dma-buf provider (CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED is 0): %s", fn, why);
    return CUDA_SUCCESS;
}

static CUresult create(const struct pieces *p, int *fd_out)
{
    os_handle fd;
    char why[256];
    int err = os_dmabuf_create(p->v, p->count, &fd, why, sizeof(why));
    if (!err) {
        *fd_out = os_handle_to_int32(fd);
        return CUDA_SUCCESS;
    }
    char text[128];
    os_error_string(err, text, sizeof(text));
    if (why[0])
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: %s", fn, why);
    if (os_error_is_out_of_memory(err))
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: the kernel could not make the dma-buf: %s", fn, text);
    return fail(CUDA_ERROR_OPERATING_SYSTEM, "%s: making the dma-buf failed: %s", fn, text);
}

CUresult CUDAAPI cuMemGetHandleForAddressRange(void *handle, CUdeviceptr dptr, size_t size,
                                               CUmemRangeHandleType handleType, unsigned long long flags)
{
    REQUIRE_INIT(fn);
    uintptr_t p = (uintptr_t)dptr;
    CUresult r = check_arguments(handle, p, size, handleType, flags);
    if (r)
        return r;
    struct ctx *ctx;
    if ((r = ctx_current(fn, &ctx)))
        return r;
    ctx_release(ctx);
    /* From here on a failure leaves -1 in the handle, as the driver does. */
    int *fd_out = handle;
    *fd_out = -1;
    struct pieces pieces;
    pieces_init(&pieces);
    /* The read lock keeps every memfd of the range open until the dma-buf holds its pages:
     * frees and unmaps close them under the write lock. */
    amap_lock_read();
    r = resolve(p, size, &pieces);
    if (!r)
        r = check_support(flags);
    if (!r)
        r = create(&pieces, fd_out);
    amap_unlock();
    if (!r)
        log_info("%s: [0x%llx, +%zu) is dma-buf fd %d (%zu piece%s)", fn, (unsigned long long)p, size, *fd_out,
                 pieces.count, pieces.count == 1 ? "" : "s");
    pieces_free(&pieces);
    return r;
}
