/*
 * Mappings: cuMemMap, cuMemUnmap, cuMemSetAccess, cuMemGetAccess and
 * cuMemRetainAllocationHandle. Rules and codes follow ../shared/seeds/003_3a96fd0a7bd408ba.txt
 * and the VMM table of BEHAVIOR.md; each change runs under the maps' write lock, and a
 * failed call leaves nothing half-done: nothing half-mapped, no access half-set.
 */
#include "memory/memory.h"
#include "memory/vmm.h"

#include <stdlib.h>
#include <string.h>

bool vmm_covered(const struct range *first, uintptr_t addr, size_t size, int need_access, const char **why)
{
    uintptr_t cur = addr, end = addr + size;
    const struct range *r = first;
    while (cur < end) {
        if (!r || r->kind != RANGE_MAPPING || cur - r->base >= r->size) {
            *why = "is not mapped throughout";
            return false;
        }
        const struct mapping *m = (const struct mapping *)r;
        uintptr_t stop = r->base + r->size < end ? r->base + r->size : end;
        if (need_access >= 0 && (m->access & need_access) != need_access) {
            *why = need_access == OS_ACCESS_READWRITE ? "is not writable: set CU_MEM_ACCESS_FLAGS_PROT_READWRITE "
                                                        "with cuMemSetAccess"
                                                      : "is not readable: set access with cuMemSetAccess";
            return false;
        }
        cur = stop;
        if (cur < end)
            r = amap_find(&amap_memory, cur);
    }
    return true;
}

CUresult CUDAAPI cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                          unsigned long long flags)
{
    static const char fn[] = "cuMemMap";
    REQUIRE_INIT(fn);
    size_t gran = vmm_granularity();
    uintptr_t p = (uintptr_t)ptr;
    /* The driver's order: flags, the handle, a zero size or address (INVALID_VALUE); then
     * the placement rules (NOT_SUPPORTED); an overlap with a mapping last (INVALID_VALUE). */
    if (flags != 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags is 0x%llx: it must be 0", fn, flags);
    struct vmm_alloc *a;
    CUresult r = vmm_alloc_lookup(fn, handle, &a);
    if (r)
        return r;
    if (size == 0 || p == 0) {
        vmm_alloc_release(a);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is 0", fn, size == 0 ? "size" : "ptr");
    }
    struct mapping *m = NULL;
    amap_lock_write();
    struct reservation *res = (struct reservation *)amap_find(&amap_reservations, p);
    if (offset != 0) /* the specification: "currently must be zero" */
        r = fail(CUDA_ERROR_NOT_SUPPORTED, "%s: offset is %zu: it currently must be 0", fn, offset);
    else if (size % gran)
        r = fail(CUDA_ERROR_NOT_SUPPORTED, "%s: size %zu is not a multiple of the granularity %zu", fn, size, gran);
    else if (p % gran)
        r = fail(CUDA_ERROR_NOT_SUPPORTED, "%s: ptr 0x%llx is not aligned to the granularity %zu", fn,
                 (unsigned long long)p, gran);
    else if (size > a->size)
        r = fail(CUDA_ERROR_NOT_SUPPORTED, "%s: size %zu is larger than the allocation (%zu bytes)", fn, size, a->size);
    else if (!res || size > res->r.size - (p - res->r.base))
        r = fail(CUDA_ERROR_NOT_SUPPORTED, "%s: [0x%llx, +%zu) is not inside one reservation from cuMemAddressReserve",
                 fn, (unsigned long long)p, size);
    else if (amap_find_overlap(&amap_memory, p, size))
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: [0x%llx, +%zu) overlaps a range that is already mapped", fn,
                 (unsigned long long)p, size);
    else if (!(m = calloc(1, sizeof(*m))))
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    if (!r) {
        int err = os_map_fixed(&a->mem, 0, (void *)p, size);
        if (err) {
            char text[128];
            r = fail(os_error_is_out_of_memory(err) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_OPERATING_SYSTEM,
                     "%s: mapping failed: %s%s", fn, os_error_string(err, text, sizeof(text)),
                     os_error_is_out_of_memory(err) ? " (the process may have reached the OS's limit on mappings, "
                                                      "vm.max_map_count on Linux)"
                                                    : "");
        }
    }
    if (r) {
        amap_unlock();
        free(m);
        vmm_alloc_release(a);
        return r;
    }
    m->r.base = p;
    m->r.size = m->r.map_size = size;
    m->r.kind = RANGE_MAPPING;
    m->r.buffer_id = a->base.handle;
    m->alloc = a; /* the lookup's reference is the mapping's now */
    m->res = res;
    res->mappings++;
    a->mappings++;
    amap_insert(&amap_memory, &m->r);
    amap_unlock();
    return CUDA_SUCCESS;
}

os_handle mem_mapping_object(const struct range *r) { return ((const struct mapping *)r)->alloc->mem.handle; }

/* With the write lock. */
static void mapping_free(struct mapping *m)
{
    m->res->mappings--;
    m->alloc->mappings--;
    vmm_alloc_drop_holder(m->alloc);
    vmm_alloc_release(m->alloc);
    free(m);
}

CUresult CUDAAPI cuMemUnmap(CUdeviceptr ptr, size_t size)
{
    static const char fn[] = "cuMemUnmap";
    REQUIRE_INIT(fn);
    uintptr_t p = (uintptr_t)ptr, end = p + size;
    size_t gran = vmm_granularity();
    if (size == 0 || size % gran || p % gran || end < p)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: [0x%llx, +%zu) is not a granularity-aligned range", fn,
                    (unsigned long long)p, size);
    /* Synchronous, as cuMemFree: work queued before the call may still use the mappings. The
     * wait comes before the maps' lock, which queued work may need. */
    CUresult allowed = device_release_begin(fn);
    if (allowed)
        return allowed;
    amap_lock_write();
    /* As on the driver: the range starts in a reservation; every mapping in it is unmapped, and
     * must lie wholly inside it; where nothing is mapped there is nothing to do. */
    struct range *r = amap_find_overlap(&amap_memory, p, size);
    CUresult result = CUDA_SUCCESS;
    if (!amap_find(&amap_reservations, p))
        result = fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not in a reservation from cuMemAddressReserve", fn,
                      (unsigned long long)p);
    for (; !result && r && r->base < end; r = amap_next(&amap_memory, r->base + r->size)) {
        if (r->kind != RANGE_MAPPING || r->base < p || r->base + r->size > end)
            result = fail(CUDA_ERROR_INVALID_VALUE, "%s: [0x%llx, +%zu) would unmap part of the mapping [0x%llx, +%zu)",
                          fn, (unsigned long long)p, size, (unsigned long long)r->base, r->size);
    }
    while (!result && (r = amap_find_overlap(&amap_memory, p, size))) {
        struct mapping *m = (struct mapping *)r;
        int err = os_unmap_fixed((void *)r->base, r->size);
        if (err && os_memory_is_mapped((void *)r->base, r->size)) {
            /* Still mapped: keep it registered, so nothing is half-done. */
            char text[128];
            result = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: unmapping [0x%llx, +%zu) failed: %s (the process may be at "
                          "the OS's limit on mappings, vm.max_map_count on Linux)", fn, (unsigned long long)r->base,
                          r->size, os_error_string(err, text, sizeof(text)));
            break;
        }
        if (err)
            log_info("%s: [0x%llx, +%zu) is unmapped but could not be reserved again", fn, (unsigned long long)r->base,
                     r->size);
        amap_remove(&amap_memory, r);
        mapping_free(m);
    }
    amap_unlock();
    device_release_end();
    return result;
}

/* As on the driver: host locations are not supported, other devices are invalid values. */
static CUresult check_location(const char *fn, const CUmemLocation *loc)
{
    if (loc->type == CU_MEM_LOCATION_TYPE_HOST || loc->type == CU_MEM_LOCATION_TYPE_HOST_NUMA ||
        loc->type == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: the host cannot be given access to device mappings here: the "
                    "software device grants access to CU_MEM_LOCATION_TYPE_DEVICE 0", fn);
    if (loc->type != CU_MEM_LOCATION_TYPE_DEVICE || loc->id != 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: location (type %d, id %d) is not the software device "
                    "(CU_MEM_LOCATION_TYPE_DEVICE, 0)", fn, (int)loc->type, loc->id);
    return CUDA_SUCCESS;
}

/* With the write lock: sets the access of the whole mappings covering [p, p + size), all or
 * nothing. Everything that can be known beforehand is checked first; the protection is then
 * changed mapping by mapping (one mprotect over several mappings is not atomic: the kernel
 * changes them in turn and stops at the first refusal), and if the OS refuses one midway,
 * those already changed get their previous protection back before the call fails. */
static CUresult set_access(const char *fn, uintptr_t p, size_t size, int access)
{
    const char *why = "";
    struct range *first = amap_find(&amap_memory, p), *last = amap_find(&amap_memory, p + size - 1);
    if (!vmm_covered(first, p, size, -1, &why))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: [0x%llx, +%zu) %s by cuMemMap", fn, (unsigned long long)p, size, why);
    if (first->base != p || last->base + last->size != p + size)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: [0x%llx, +%zu) covers part of a mapping: access is set for whole "
                    "mappings", fn, (unsigned long long)p, size);
    for (struct range *r = first; r && r->base < p + size; r = amap_next(&amap_memory, r->base + r->size)) {
        const struct mapping *m = (const struct mapping *)r;
        if (access == OS_ACCESS_READWRITE && m->alloc->mem.read_only)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: the mapping [0x%llx, +%zu) is of allocation 0x%llx, which was "
                        "imported from a read-only file descriptor: it can be given CU_MEM_ACCESS_FLAGS_PROT_READ, "
                        "never write access; nothing was changed", fn, (unsigned long long)r->base, r->size,
                        (unsigned long long)m->alloc->base.handle);
    }
    struct range *r = first;
    int err = 0;
    for (; r && r->base < p + size; r = amap_next(&amap_memory, r->base + r->size))
        if ((err = os_protect((void *)r->base, r->size, access)))
            break;
    if (!err) {
        for (r = first; r && r->base < p + size; r = amap_next(&amap_memory, r->base + r->size))
            ((struct mapping *)r)->access = access;
        return CUDA_SUCCESS;
    }
    /* Undo: the mappings before r have the new protection, r and the rest their old one. */
    const struct range *failed = r;
    int undo_err = 0;
    for (struct range *q = first; q != failed; q = amap_next(&amap_memory, q->base + q->size)) {
        struct mapping *m = (struct mapping *)q;
        int e = os_protect((void *)q->base, q->size, m->access);
        if (e) {
            m->access = access; /* it kept the new protection: say so in cuMemGetAccess */
            undo_err = e;
        }
    }
    char text[128], undo_text[128] = "";
    if (undo_err)
        os_error_string(undo_err, undo_text, sizeof(undo_text));
    return fail(os_error_is_out_of_memory(err) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_OPERATING_SYSTEM,
                "%s: changing the protection of the mapping [0x%llx, +%zu) failed: %s; %s%s", fn,
                (unsigned long long)failed->base, failed->size, os_error_string(err, text, sizeof(text)),
                undo_err ? "putting back the previous protection of the mappings before it failed too: "
                         : "the mappings before it have their previous access again",
                undo_text);
}

CUresult CUDAAPI cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count)
{
    static const char fn[] = "cuMemSetAccess";
    REQUIRE_INIT(fn);
    if (!desc || count == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s", fn, !desc ? "desc is NULL" : "count is 0");
    int access = -1;
    for (size_t i = 0; i < count; ++i) {
        CUresult r = check_location(fn, &desc[i].location);
        if (r)
            return r;
        CUmemAccess_flags f = desc[i].flags;
        if (f != CU_MEM_ACCESS_FLAGS_PROT_NONE && f != CU_MEM_ACCESS_FLAGS_PROT_READ &&
            f != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: desc[%zu].flags %d is not a CUmemAccess_flags", fn, i, (int)f);
        access = (int)f; /* one device: the last description wins */
    }
    uintptr_t p = (uintptr_t)ptr;
    size_t gran = vmm_granularity();
    if (size == 0 || size % gran || p % gran || p + size < p)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: [0x%llx, +%zu) is not a granularity-aligned range", fn,
                    (unsigned long long)p, size);
    amap_lock_write();
    CUresult result = set_access(fn, p, size, access);
    amap_unlock();
    return result;
}

CUresult CUDAAPI cuMemGetAccess(unsigned long long *flags, const CUmemLocation *location, CUdeviceptr ptr)
{
    static const char fn[] = "cuMemGetAccess";
    REQUIRE_INIT(fn);
    if (!flags || !location)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !flags ? "flags" : "location");
    if (!ptr)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: ptr is 0", fn);
    /* The driver's answers: the host always reads and writes device mappings; another device
     * ordinal is an invalid device. */
    bool host = location->type == CU_MEM_LOCATION_TYPE_HOST;
    CUresult r = host ? CUDA_SUCCESS
                      : location->type != CU_MEM_LOCATION_TYPE_DEVICE
                            ? fail(CUDA_ERROR_INVALID_VALUE, "%s: location.type %d is not a device or the host", fn,
                                   (int)location->type)
                            : device_check(fn, location->id);
    if (r)
        return r;
    amap_lock_read();
    struct range *range = amap_find(&amap_memory, (uintptr_t)ptr);
    bool mapped = range && range->kind == RANGE_MAPPING;
    unsigned long long access = mapped ? (unsigned long long)((struct mapping *)range)->access : 0;
    *flags = host && mapped ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE : access; /* unmapped: 0, as the driver writes */
    amap_unlock();
    if (!mapped)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not in a range mapped with cuMemMap", fn,
                    (unsigned long long)ptr);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr)
{
    static const char fn[] = "cuMemRetainAllocationHandle";
    REQUIRE_INIT(fn);
    if (!handle)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: handle is NULL", fn);
    amap_lock_write();
    struct range *range = amap_find(&amap_memory, (uintptr_t)addr);
    CUresult r = CUDA_SUCCESS;
    if (!range || range->kind != RANGE_MAPPING) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %p is not in a range mapped with cuMemMap", fn, addr);
    } else {
        /* The same handle value, one more reference to release (as on the driver). */
        struct vmm_alloc *a = ((struct mapping *)range)->alloc;
        a->user_refs++;
        *handle = a->base.handle;
    }
    amap_unlock();
    return r;
}
