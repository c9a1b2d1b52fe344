/*
 * Managed memory: cuMemAllocManaged, advice, prefetches, discards, range attributes and
 * stream association.
 *
 * On the software device every processor reads device memory at the same address, so a
 * managed allocation is a device allocation like cuMemAlloc's; nothing ever migrates. What
 * CUDA lets a program observe is what it told the driver: cuMemRangeGetAttribute answers with
 * the advice and prefetch locations given for each page. That is kept here, per host page of
 * the allocation (CUDA rounds every range out to whole pages), in an array made at the first
 * advice or prefetch (a page never advised has the defaults: not read-mostly, no preferred
 * location, no processor with access advice, never prefetched).
 *
 * A range is found under the maps' read lock and its record changed under the record's own
 * lock with the maps still locked, so a cuMemFree (which takes the maps' write lock to take the
 * range out) never frees a record in use.
 */
#include "memory/memory.h"
#include "exec/exec.h"
#include "exec/per_thread.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A failure found with the maps locked is reported once they are unlocked: fail() hands the
 * reason to the log's callbacks (src/device/logs.c), and a callback that called CUDA while this
 * thread held the maps' lock would deadlock on it. */
struct pending {
    CUresult code;
    int line;
    char text[400];
};

EXTMEM_PRINTF_FORMAT(4, 5)
static CUresult later_at(struct pending *p, CUresult code, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->text, sizeof p->text, fmt, ap);
    va_end(ap);
    p->code = code;
    p->line = line;
    return code;
}
#define later(p, code, ...) later_at((p), (code), __LINE__, __VA_ARGS__)

/* With the maps unlocked: records the pending failure, if any, and returns its code. */
static CUresult report(const struct pending *p)
{
    if (!p->code)
        return CUDA_SUCCESS;
    return extmem__fail(p->code, __FILE__, p->line, "%s", p->text);
}

/* What one page was told. Location types are CUmemLocationType values (0: none). */
struct page_advice {
    uint8_t read_mostly;
    uint8_t accessed_by; /* ACCESS_DEVICE | ACCESS_HOST */
    uint8_t preferred_type;
    uint8_t prefetch_type;
    int32_t preferred_id;
    int32_t prefetch_id;
};
enum { ACCESS_DEVICE = 1, ACCESS_HOST = 2 };

struct managed {
    os_mutex lock;
    size_t pages;
    struct page_advice *page; /* NULL until the first advice or prefetch */
    unsigned int attach;      /* the stream association in effect: CU_MEM_ATTACH_* */
    uint64_t attach_stream;   /* SINGLE: the stream's handle (never dereferenced) */
};

void managed_free(struct managed *m)
{
    if (!m)
        return;
    os_mutex_destroy(&m->lock);
    free(m->page);
    free(m);
}

/* ---- Locations ---- */

/* A location as CUDA allows it for a prefetch or a preferred location, normalised: HOST's id is
 * ignored (0), HOST_NUMA_CURRENT becomes HOST_NUMA 0, the one host node extmem knows. A device
 * other than 0 is `no_device`: INVALID_DEVICE for prefetches, INVALID_VALUE for advice, as
 * NVIDIA's runtime answers (H100, CUDA 13.0; src/runtime/managed.c). */
static CUresult check_location(const char *fn, const char *what, CUmemLocation loc, CUresult no_device,
                               CUmemLocation *out)
{
    switch (loc.type) {
    case CU_MEM_LOCATION_TYPE_DEVICE:
        if (loc.id != 0)
            return fail(no_device, "%s: %s is device %d: the software device is device 0, the only one", fn, what,
                        loc.id);
        break;
    case CU_MEM_LOCATION_TYPE_HOST: loc.id = 0; break;
    case CU_MEM_LOCATION_TYPE_HOST_NUMA:
        if (loc.id != 0)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is host NUMA node %d: extmem knows one host node, 0", fn,
                        what, loc.id);
        break;
    case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
        loc.type = CU_MEM_LOCATION_TYPE_HOST_NUMA;
        loc.id = 0;
        break;
    default:
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s has type %d, not a device or the host (CUmemLocationType 1..4)",
                    fn, what, (int)loc.type);
    }
    *out = loc;
    return CUDA_SUCCESS;
}

/* ---- Ranges ---- */

/* The pages [*first, *last] of the managed allocation r that [addr, addr + count) covers. */
struct span {
    struct range *r;
    size_t first, last;
};

/* With the maps read-locked: finds the managed allocation holding [addr, addr + count); a
 * failure is left in *p (report it once the maps are unlocked). */
static CUresult find_span(struct pending *p, const char *fn, uintptr_t addr, size_t count, struct span *out)
{
    if (!addr)
        return later(p, CUDA_ERROR_INVALID_VALUE, "%s: devPtr is 0", fn);
    if (count == 0)
        return later(p, CUDA_ERROR_INVALID_VALUE, "%s: count is 0", fn);
    struct range *r = amap_find(&amap_memory, addr);
    if (!r || addr - r->base >= r->size)
        return later(p, CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is in no allocation: it must be managed memory "
                     "(cuMemAllocManaged); pageable memory is refused, the device's PAGEABLE_MEMORY_ACCESS being 0",
                     fn, (unsigned long long)addr);
    if (!r->managed)
        return later(p, CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is in an allocation that is not managed memory "
                     "(cuMemAlloc, host, VMM or imported memory): only cuMemAllocManaged memory takes this", fn,
                     (unsigned long long)addr);
    if (count > r->size - (addr - r->base))
        return later(p, CUDA_ERROR_INVALID_VALUE, "%s: %zu bytes from 0x%llx run past the end of its managed "
                     "allocation [0x%llx, +%zu)", fn, count, (unsigned long long)addr, (unsigned long long)r->base,
                     r->size);
    size_t page = os_page_size();
    out->r = r;
    out->first = (addr - r->base) / page;
    out->last = (addr - r->base + count - 1) / page;
    return CUDA_SUCCESS;
}

/* With the record locked: its page array, made on first use. */
static struct page_advice *pages_of(struct managed *m)
{
    if (!m->page)
        m->page = calloc(m->pages, sizeof(*m->page));
    return m->page;
}

/* ---- Allocation ---- */

CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    static const char fn[] = "cuMemAllocManaged";
    if (dptr)
        *dptr = 0;
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    if (!dptr)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: dptr is NULL", fn);
    else if (bytesize == 0)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: bytesize is 0: an allocation has at least one byte", fn);
    else if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x is not CU_MEM_ATTACH_GLOBAL or CU_MEM_ATTACH_HOST", fn,
                 flags);
    if (r) {
        ctx_release(ctx);
        return r;
    }
    struct managed *m = calloc(1, sizeof(*m));
    if (!m) {
        ctx_release(ctx);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the managed allocation's record", fn);
    }
    size_t page = os_page_size();
    os_mutex_init(&m->lock);
    m->pages = bytesize / page + (bytesize % page != 0);
    m->attach = flags;
    uintptr_t base;
    if ((r = mem_alloc_device(fn, ctx, bytesize, m, &base)) == CUDA_SUCCESS)
        *dptr = (CUdeviceptr)base;
    ctx_release(ctx);
    return r;
}

/* ---- Advice ---- */

static void apply_advice(struct page_advice *p, CUmem_advise advice, CUmemLocation loc)
{
    uint8_t who = loc.type == CU_MEM_LOCATION_TYPE_DEVICE ? ACCESS_DEVICE : ACCESS_HOST;
    switch (advice) {
    case CU_MEM_ADVISE_SET_READ_MOSTLY: p->read_mostly = 1; break;
    case CU_MEM_ADVISE_UNSET_READ_MOSTLY: p->read_mostly = 0; break;
    case CU_MEM_ADVISE_SET_PREFERRED_LOCATION:
        p->preferred_type = (uint8_t)loc.type;
        p->preferred_id = loc.id;
        break;
    case CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
        p->preferred_type = 0;
        p->preferred_id = 0;
        break;
    case CU_MEM_ADVISE_SET_ACCESSED_BY: p->accessed_by |= who; break;
    case CU_MEM_ADVISE_UNSET_ACCESSED_BY: p->accessed_by &= (uint8_t)~who; break;
    }
}

static CUresult advise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location)
{
    static const char fn[] = "cuMemAdvise";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    if ((int)advice < CU_MEM_ADVISE_SET_READ_MOSTLY || (int)advice > CU_MEM_ADVISE_UNSET_ACCESSED_BY)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: advice %d is not a CUmem_advise (1..6)", fn, (int)advice);
    /* Read-mostly and the unset of the preferred location ignore the location (CUDA), but its
     * type must be one (NVIDIA's driver: type 9 is INVALID_VALUE there, device 1 is not). */
    CUmemLocation loc = {CU_MEM_LOCATION_TYPE_HOST, 0};
    if ((int)location.type < CU_MEM_LOCATION_TYPE_INVALID || location.type > CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: location type %d is not a CUmemLocationType (0..4)", fn,
                    (int)location.type);
    switch (advice) {
    case CU_MEM_ADVISE_SET_PREFERRED_LOCATION:
        if ((r = check_location(fn, "location", location, CUDA_ERROR_INVALID_VALUE, &loc)))
            return r;
        break;
    case CU_MEM_ADVISE_SET_ACCESSED_BY:
    case CU_MEM_ADVISE_UNSET_ACCESSED_BY:
        /* A processor: a device or the host; CUDA calls other types invalid here. */
        if (location.type != CU_MEM_LOCATION_TYPE_DEVICE && location.type != CU_MEM_LOCATION_TYPE_HOST)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: access advice takes a device or the host, not location type %d",
                        fn, (int)location.type);
        if ((r = check_location(fn, "location", location, CUDA_ERROR_INVALID_VALUE, &loc)))
            return r;
        break;
    default: break;
    }
    struct pending failure = {0};
    amap_lock_read();
    struct span sp;
    if (find_span(&failure, fn, (uintptr_t)devPtr, count, &sp) == CUDA_SUCCESS) {
        struct managed *m = sp.r->managed;
        os_mutex_lock(&m->lock);
        struct page_advice *p = pages_of(m);
        if (p)
            for (size_t i = sp.first; i <= sp.last; ++i)
                apply_advice(&p[i], advice, loc);
        os_mutex_unlock(&m->lock);
        if (!p)
            later(&failure, CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the allocation's advice", fn);
    }
    amap_unlock();
    return report(&failure);
}

CUresult CUDAAPI cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location)
{
    return advise(devPtr, count, advice, location);
}

/* A device ordinal as the forms before CUDA 12.2 took it: CU_DEVICE_CPU for the host. */
static CUmemLocation ordinal_location(CUdevice device)
{
    CUmemLocation loc = {CU_MEM_LOCATION_TYPE_DEVICE, device};
    if (device == CU_DEVICE_CPU) {
        loc.type = CU_MEM_LOCATION_TYPE_HOST;
        loc.id = 0;
    }
    return loc;
}

#undef cuMemAdvise
EXTMEM_API CUresult CUDAAPI cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device);
CUresult CUDAAPI cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device)
{
    /* This form names a missing device INVALID_DEVICE where the location form says
     * INVALID_VALUE (NVIDIA's driver, H200, 580.159.04), for the advice that takes one. */
    bool located = advice == CU_MEM_ADVISE_SET_PREFERRED_LOCATION || advice == CU_MEM_ADVISE_SET_ACCESSED_BY ||
                   advice == CU_MEM_ADVISE_UNSET_ACCESSED_BY;
    if (located && device != CU_DEVICE_CPU && device != 0) {
        REQUIRE_INIT("cuMemAdvise");
        return fail(CUDA_ERROR_INVALID_DEVICE, "cuMemAdvise: device %d does not exist: the software device is 0, the "
                    "host CU_DEVICE_CPU (-1)", (int)device);
    }
    return advise(devPtr, count, advice, ordinal_location(device));
}

/* ---- Prefetches and discards ---- */

/* With the maps read-locked and the ranges checked: records loc as the last prefetch location
 * of every page of sp. */
static bool record_prefetch(const struct span *sp, CUmemLocation loc)
{
    struct managed *m = sp->r->managed;
    os_mutex_lock(&m->lock);
    struct page_advice *p = pages_of(m);
    if (p)
        for (size_t i = sp->first; i <= sp->last; ++i) {
            p[i].prefetch_type = (uint8_t)loc.type;
            p[i].prefetch_id = loc.id;
        }
    os_mutex_unlock(&m->lock);
    return p != NULL;
}

/* What a prefetch's location is remembered as: what the caller gave, HOST_NUMA_CURRENT and its
 * id included (NVIDIA's driver answers type 4 and the id given for it), the host's id ignored. */
static CUmemLocation prefetch_record(CUmemLocation given)
{
    if (given.type == CU_MEM_LOCATION_TYPE_HOST)
        given.id = 0;
    return given;
}

/* The stream comes first for every prefetch: a bad handle is the caller's first mistake. The
 * batch forms refuse the legacy default stream, as CUDA documents. */
static CUresult check_stream(const char *fn, CUstream hStream, bool batch)
{
    struct target t;
    CUresult r = target_get(fn, hStream, &t);
    if (r)
        return r;
    bool legacy = t.legacy;
    target_put(&t);
    if (batch && legacy)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the legacy default stream (NULL, CU_STREAM_LEGACY) cannot take a "
                    "batch: pass a created stream or CU_STREAM_PER_THREAD", fn);
    return CUDA_SUCCESS;
}

/* Nothing moves on the software device: the work a prefetch would queue is none, and the
 * stream only has to be valid. The location is recorded at the call, as CUDA's attribute
 * reports what was asked ("no indication as to whether the prefetch ... has completed"). */
static CUresult prefetch(const char *fn, CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags,
                         CUstream hStream)
{
    CUresult r = check_stream(fn, hStream, false);
    if (r)
        return r;
    if (flags != 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x is not 0", fn, flags);
    CUmemLocation loc;
    if ((r = check_location(fn, "location", location, CUDA_ERROR_INVALID_DEVICE, &loc)))
        return r;
    loc = prefetch_record(location);
    struct pending failure = {0};
    amap_lock_read();
    struct span sp;
    if (find_span(&failure, fn, (uintptr_t)devPtr, count, &sp) == CUDA_SUCCESS && !record_prefetch(&sp, loc))
        later(&failure, CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the allocation's advice", fn);
    amap_unlock();
    return report(&failure);
}

CUresult CUDAAPI cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags,
                                       CUstream hStream)
{
    return prefetch("cuMemPrefetchAsync", devPtr, count, location, flags, hStream);
}

CUresult CUDAAPI cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                                            unsigned int flags, CUstream hStream)
{
    return prefetch("cuMemPrefetchAsync", devPtr, count, location, flags, per_thread(hStream));
}

#undef cuMemPrefetchAsync
EXTMEM_API CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice,
                                               CUstream hStream);
CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream)
{
    return prefetch("cuMemPrefetchAsync", devPtr, count, ordinal_location(dstDevice), 0, hStream);
}

EXTMEM_API CUresult CUDAAPI cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count, CUdevice dstDevice,
                                                    CUstream hStream);
CUresult CUDAAPI cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream)
{
    return prefetch("cuMemPrefetchAsync", devPtr, count, ordinal_location(dstDevice), 0, per_thread(hStream));
}

/* The batch calls' shared rules. With locs (prefetches), locs[k] applies to the ranges from
 * idxs[k] up to idxs[k + 1]; every argument is checked before anything is recorded. */
static CUresult batch(const char *fn, CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *locs,
                      size_t *idxs, size_t nlocs, bool prefetching, unsigned long long flags, CUstream hStream)
{
    CUresult r = check_stream(fn, hStream, true);
    if (r)
        return r;
    if (!dptrs || !sizes)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !dptrs ? "dptrs" : "sizes");
    if (count == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: count is 0", fn);
    if (flags != 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%llx is not 0", fn, flags);
    CUmemLocation *norm = NULL;
    if (prefetching) {
        if (!locs || !idxs)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !locs ? "prefetchLocs" : "prefetchLocIdxs");
        if (nlocs == 0 || nlocs > count)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: numPrefetchLocs %zu is not in 1..count (%zu)", fn, nlocs, count);
        if (idxs[0] != 0)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: prefetchLocIdxs[0] is %zu: it must be 0", fn, idxs[0]);
        /* Equal indices are taken (NVIDIA's driver: {0, 0} succeeds; the later entry applies). */
        for (size_t k = 1; k < nlocs; ++k)
            if (idxs[k] < idxs[k - 1] || idxs[k] >= count)
                return fail(CUDA_ERROR_INVALID_VALUE, "%s: prefetchLocIdxs[%zu] is %zu: each index must be at least "
                            "the one before and below count (%zu)", fn, k, idxs[k], count);
        if (!(norm = calloc(nlocs, sizeof(*norm))))
            return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %zu locations", fn, nlocs);
        for (size_t k = 0; k < nlocs; ++k) {
            char what[48];
            snprintf(what, sizeof what, "prefetchLocs[%zu]", k);
            /* A missing device is INVALID_VALUE here, where a single prefetch says INVALID_DEVICE
             * (NVIDIA's driver, H200, 580.159.04). */
            if ((r = check_location(fn, what, locs[k], CUDA_ERROR_INVALID_VALUE, &norm[k]))) {
                free(norm);
                return r;
            }
            norm[k] = prefetch_record(locs[k]);
        }
    }
    struct pending failure = {0};
    amap_lock_read();
    struct span sp;
    for (size_t i = 0; i < count && !r; ++i)
        r = find_span(&failure, fn, (uintptr_t)dptrs[i], sizes[i], &sp);
    for (size_t i = 0, k = 0; prefetching && i < count && !r; ++i) {
        while (k + 1 < nlocs && idxs[k + 1] <= i)
            ++k;
        find_span(&failure, fn, (uintptr_t)dptrs[i], sizes[i], &sp); /* checked above */
        if (!record_prefetch(&sp, norm[k]))
            r = later(&failure, CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the allocation's advice", fn);
    }
    /* A discard leaves the bytes as they are: CUDA makes them undefined, and the same bytes are
     * one of the values undefined allows. The advice and prefetch record stays, as CUDA says
     * nothing of a discard changing them. */
    amap_unlock();
    free(norm);
    return report(&failure);
}

CUresult CUDAAPI cuMemPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs,
                                         size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags,
                                         CUstream hStream)
{
    return batch("cuMemPrefetchBatchAsync", dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, true,
                 flags, hStream);
}

CUresult CUDAAPI cuMemDiscardBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count, unsigned long long flags,
                                        CUstream hStream)
{
    return batch("cuMemDiscardBatchAsync", dptrs, sizes, count, NULL, NULL, 0, false, flags, hStream);
}

CUresult CUDAAPI cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count,
                                                   CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                                   size_t numPrefetchLocs, unsigned long long flags, CUstream hStream)
{
    return batch("cuMemDiscardAndPrefetchBatchAsync", dptrs, sizes, count, prefetchLocs, prefetchLocIdxs,
                 numPrefetchLocs, true, flags, hStream);
}

CUresult CUDAAPI cuMemPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count,
                                              CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                              size_t numPrefetchLocs, unsigned long long flags, CUstream hStream)
{
    return batch("cuMemPrefetchBatchAsync", dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, true,
                 flags, per_thread(hStream));
}

CUresult CUDAAPI cuMemDiscardBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count,
                                             unsigned long long flags, CUstream hStream)
{
    return batch("cuMemDiscardBatchAsync", dptrs, sizes, count, NULL, NULL, 0, false, flags, per_thread(hStream));
}

CUresult CUDAAPI cuMemDiscardAndPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count,
                                                        CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                                        size_t numPrefetchLocs, unsigned long long flags,
                                                        CUstream hStream)
{
    return batch("cuMemDiscardAndPrefetchBatchAsync", dptrs, sizes, count, prefetchLocs, prefetchLocIdxs,
                 numPrefetchLocs, true, flags, per_thread(hStream));
}

/* ---- Range attributes ---- */

static bool known_attribute(CUmem_range_attribute a)
{
    return (int)a >= CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY && (int)a <= CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID;
}

static CUresult check_attribute(const char *fn, const void *data, size_t size, CUmem_range_attribute a, size_t i,
                                bool many)
{
    char which[32] = "";
    if (many)
        snprintf(which, sizeof which, "[%zu]", i);
    if (!data)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: data%s is NULL", fn, which);
    if (!known_attribute(a))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: attribute%s %d is not a CUmem_range_attribute (1..8)", fn, which,
                    (int)a);
    if (a == CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY) {
        if (size == 0 || size % 4)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: dataSize%s %zu for ACCESSED_BY is not a non-zero multiple of 4",
                        fn, which, size);
    } else if (size != 4) {
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: dataSize%s %zu for attribute %d is not 4", fn, which, size, (int)a);
    }
    return CUDA_SUCCESS;
}

/* The location every page of [first, last] shares (type 0 where they differ or have none). */
static CUmemLocation common_location(const struct page_advice *p, size_t first, size_t last, bool preferred)
{
    CUmemLocation none = {CU_MEM_LOCATION_TYPE_INVALID, 0};
    if (!p)
        return none;
    CUmemLocation loc = {(CUmemLocationType)(preferred ? p[first].preferred_type : p[first].prefetch_type),
                         preferred ? p[first].preferred_id : p[first].prefetch_id};
    for (size_t i = first + 1; i <= last && loc.type; ++i) {
        int type = preferred ? p[i].preferred_type : p[i].prefetch_type;
        int id = preferred ? p[i].preferred_id : p[i].prefetch_id;
        if (type != (int)loc.type || id != loc.id)
            return none;
    }
    return loc.type ? loc : none;
}

/* A location as the attributes that answer one int give it: a device ordinal, CU_DEVICE_CPU for
 * the host (a host NUMA node is the host to a device ordinal), CU_DEVICE_INVALID for none. */
static int location_ordinal(CUmemLocation loc)
{
    switch (loc.type) {
    case CU_MEM_LOCATION_TYPE_DEVICE: return loc.id;
    case CU_MEM_LOCATION_TYPE_HOST:
    case CU_MEM_LOCATION_TYPE_HOST_NUMA:
    case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT: return CU_DEVICE_CPU;
    default: return CU_DEVICE_INVALID;
    }
}

/* The _ID attributes: the ordinal or NUMA node (HOST_NUMA_CURRENT: the id the prefetch was
 * given); CU_DEVICE_CPU for the host, CU_DEVICE_INVALID for none, as NVIDIA's driver answers. */
static int location_id(CUmemLocation loc)
{
    switch (loc.type) {
    case CU_MEM_LOCATION_TYPE_DEVICE:
    case CU_MEM_LOCATION_TYPE_HOST_NUMA:
    case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT: return loc.id;
    case CU_MEM_LOCATION_TYPE_HOST: return CU_DEVICE_CPU;
    default: return CU_DEVICE_INVALID;
    }
}

/* With the record locked: writes attribute a of pages [first, last] into data. */
static void answer(void *data, size_t size, CUmem_range_attribute a, const struct page_advice *p, size_t first,
                   size_t last)
{
    int32_t v = 0;
    switch (a) {
    case CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
        v = p != NULL;
        for (size_t i = first; p && i <= last && v; ++i)
            v = p[i].read_mostly;
        break;
    case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION: v = location_ordinal(common_location(p, first, last, true)); break;
    case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE: v = (int32_t)common_location(p, first, last, true).type; break;
    case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID: v = location_id(common_location(p, first, last, true)); break;
    case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
        v = location_ordinal(common_location(p, first, last, false));
        break;
    case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
        v = (int32_t)common_location(p, first, last, false).type;
        break;
    case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID: v = location_id(common_location(p, first, last, false)); break;
    case CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY: {
        uint8_t all = p ? ACCESS_DEVICE | ACCESS_HOST : 0;
        for (size_t i = first; p && i <= last && all; ++i)
            all &= p[i].accessed_by;
        int32_t list[2];
        size_t n = 0;
        if (all & ACCESS_DEVICE)
            list[n++] = 0;
        if (all & ACCESS_HOST)
            list[n++] = CU_DEVICE_CPU;
        int32_t *out = (int32_t *)data;
        for (size_t i = 0; i < size / 4; ++i) {
            int32_t e = i < n ? list[i] : CU_DEVICE_INVALID;
            memcpy(&out[i], &e, sizeof e);
        }
        return;
    }
    }
    memcpy(data, &v, sizeof v);
}

static CUresult range_attributes(const char *fn, void **data, size_t *sizes, CUmem_range_attribute *attrs, size_t n,
                                 CUdeviceptr devPtr, size_t count)
{
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    struct pending failure = {0};
    amap_lock_read();
    struct span sp;
    if (find_span(&failure, fn, (uintptr_t)devPtr, count, &sp) == CUDA_SUCCESS) {
        struct managed *m = sp.r->managed;
        os_mutex_lock(&m->lock);
        for (size_t i = 0; i < n; ++i)
            answer(data[i], sizes[i], attrs[i], m->page, sp.first, sp.last);
        os_mutex_unlock(&m->lock);
    }
    amap_unlock();
    return report(&failure);
}

CUresult CUDAAPI cuMemRangeGetAttribute(void *data, size_t dataSize, CUmem_range_attribute attribute,
                                        CUdeviceptr devPtr, size_t count)
{
    static const char fn[] = "cuMemRangeGetAttribute";
    REQUIRE_INIT(fn);
    CUresult r = check_attribute(fn, data, dataSize, attribute, 0, false);
    if (r)
        return r;
    return range_attributes(fn, &data, &dataSize, &attribute, 1, devPtr, count);
}

CUresult CUDAAPI cuMemRangeGetAttributes(void **data, size_t *dataSizes, CUmem_range_attribute *attributes,
                                         size_t numAttributes, CUdeviceptr devPtr, size_t count)
{
    static const char fn[] = "cuMemRangeGetAttributes";
    REQUIRE_INIT(fn);
    if (!data || !dataSizes || !attributes)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn,
                    !data ? "data" : !dataSizes ? "dataSizes" : "attributes");
    if (numAttributes == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numAttributes is 0", fn);
    for (size_t i = 0; i < numAttributes; ++i) {
        CUresult r = check_attribute(fn, data[i], dataSizes[i], attributes[i], i, true);
        if (r)
            return r;
    }
    return range_attributes(fn, data, dataSizes, attributes, numAttributes, devPtr, count);
}

/* ---- Stream association ---- */

struct attach_work {
    struct work w;
    uintptr_t base;
    uint64_t buffer_id; /* the allocation's identity: a free and a new allocation at base differ */
    unsigned int flags;
    uint64_t stream;
};

/* Takes effect when the stream reaches it; an allocation freed meanwhile is left alone. Every
 * processor sees all memory here, so the association changes no access: it is kept for what
 * CUDA may later let a program ask. */
static void run_attach(struct work *w)
{
    struct attach_work *aw = (struct attach_work *)w;
    amap_lock_read();
    struct range *r = amap_find(&amap_memory, aw->base);
    if (r && r->base == aw->base && r->buffer_id == aw->buffer_id && r->managed) {
        os_mutex_lock(&r->managed->lock);
        r->managed->attach = aw->flags;
        r->managed->attach_stream = aw->stream;
        os_mutex_unlock(&r->managed->lock);
    }
    amap_unlock();
    free(aw);
}

static void discard_attach(struct work *w) { free(w); }

static CUresult attach(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags)
{
    static const char fn[] = "cuStreamAttachMemAsync";
    struct target t;
    CUresult r = target_get(fn, hStream, &t);
    if (r)
        return r;
    if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST && flags != CU_MEM_ATTACH_SINGLE)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x is not one of CU_MEM_ATTACH_GLOBAL, _HOST, _SINGLE", fn,
                 flags);
    else if (flags == CU_MEM_ATTACH_SINGLE && t.legacy)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: CU_MEM_ATTACH_SINGLE to the legacy default stream, which is no single "
                 "stream", fn);
    struct attach_work *aw = NULL;
    if (!r) {
        struct pending failure = {0};
        amap_lock_read();
        struct range *range = amap_find(&amap_memory, (uintptr_t)dptr);
        if (!dptr || !range || (uintptr_t)dptr - range->base >= range->size || !range->managed)
            later(&failure, CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not in managed memory (cuMemAllocManaged)", fn,
                  (unsigned long long)dptr);
        else if ((uintptr_t)dptr != range->base || (length != 0 && length != range->size))
            later(&failure, CUDA_ERROR_INVALID_VALUE, "%s: %zu bytes at 0x%llx are not the whole allocation "
                  "[0x%llx, +%zu): only whole allocations change association (length 0 or the allocation's size)",
                  fn, length, (unsigned long long)dptr, (unsigned long long)range->base, range->size);
        else if (!(aw = calloc(1, sizeof(*aw))))
            later(&failure, CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the queued attach", fn);
        else {
            aw->base = range->base;
            aw->buffer_id = range->buffer_id;
        }
        amap_unlock();
        r = report(&failure);
    }
    if (aw) {
        aw->flags = flags;
        aw->stream = t.s ? t.s->base.handle : 0;
        aw->w.run = run_attach;
        aw->w.discard = discard_attach;
        r = target_submit(&t, &aw->w);
    }
    target_put(&t);
    return r;
}

CUresult CUDAAPI cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags)
{
    return attach(hStream, dptr, length, flags);
}

CUresult CUDAAPI cuStreamAttachMemAsync_ptsz(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags)
{
    return attach(per_thread(hStream), dptr, length, flags);
}
