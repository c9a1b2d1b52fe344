/* Address reservations: cuMemAddressReserve and cuMemAddressFree. */
#include "memory/memory.h"
#include "memory/vmm.h"

#include <stdlib.h>

static bool power_of_two(size_t v) { return v && !(v & (v - 1)); }

CUresult CUDAAPI cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
                                     unsigned long long flags)
{
    static const char fn[] = "cuMemAddressReserve";
    REQUIRE_INIT(fn);
    size_t gran = vmm_granularity();
    if (!ptr)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: ptr is NULL", fn);
    if (flags != 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags is 0x%llx: it must be 0", fn, flags);
    if (size == 0 || size % gran)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: size %zu is not a positive multiple of the granularity %zu", fn, size,
                    gran);
    if (alignment && !power_of_two(alignment))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: alignment %zu is not a power of two", fn, alignment);
    if (alignment < gran)
        alignment = gran; /* 0 means the granularity; smaller alignments are implied by it */
    if (addr % alignment)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: addr 0x%llx is not aligned to %zu", fn, (unsigned long long)addr,
                    alignment);
    struct reservation *res = calloc(1, sizeof(*res));
    if (!res)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    void *p;
    int err = os_reserve(size, alignment, (uintptr_t)addr, &p);
    if (err) {
        free(res);
        char text[128];
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: the OS refused %zu bytes of address space aligned to %zu: %s (too "
                    "large, or the process is at its limit on mappings, vm.max_map_count on Linux)", fn, size,
                    alignment, os_error_string(err, text, sizeof(text)));
    }
    log_info("%s: [%p, +%zu) reserved; VMM on this OS: %s", fn, p, size, os_vmm_method());
    res->r.base = (uintptr_t)p;
    res->r.size = res->r.map_size = size;
    res->r.kind = RANGE_RESERVATION;
    amap_lock_write();
    amap_insert(&amap_reservations, &res->r);
    amap_unlock();
    *ptr = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
    static const char fn[] = "cuMemAddressFree";
    REQUIRE_INIT(fn);
    amap_lock_write();
    struct range *r = amap_find(&amap_reservations, (uintptr_t)ptr);
    struct reservation *res = (struct reservation *)r;
    CUresult result = CUDA_SUCCESS;
    if (!r)
        result = fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not in a reservation", fn, (unsigned long long)ptr);
    else if (r->base != (uintptr_t)ptr || r->size != size)
        result = fail(CUDA_ERROR_INVALID_VALUE, "%s: [0x%llx, +%zu) is not the whole reservation [0x%llx, +%zu)", fn,
                      (unsigned long long)ptr, size, (unsigned long long)r->base, r->size);
    else if (res->mappings)
        result = fail(CUDA_ERROR_INVALID_VALUE, "%s: %zu mapping(s) are still live in the reservation: cuMemUnmap "
                      "them first", fn, res->mappings);
    else
        amap_remove(&amap_reservations, r);
    amap_unlock();
    if (result)
        return result;
    os_unreserve((void *)r->base, r->size);
    free(res);
    return CUDA_SUCCESS;
}
