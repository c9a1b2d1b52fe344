/* Pointer attributes: what extmem knows about an address, from the address map. */
#include "memory/memory.h"
#include "memory/vmm.h"

#include <string.h>

/* A snapshot of the allocation holding an address, taken under the map lock. */
struct pointer_info {
    bool known;
    uintptr_t base;
    size_t size;
    range_kind kind;
    uint64_t buffer_id;
    uint64_t ctx_handle;
    unsigned long long handle_types; /* VMM mappings: the allocation's shareable handle types */
    int access;                      /* VMM mappings: the mapping's access */
    uintptr_t range_base;            /* the range the driver reports: for VMM, the reservation */
    size_t range_size;
    uint64_t pool;                   /* pool memory: its pool's handle */
    bool managed;                    /* cuMemAllocManaged memory */
};

static struct pointer_info lookup(CUdeviceptr ptr)
{
    struct pointer_info info = {0};
    amap_lock_read();
    struct range *r = amap_find(&amap_memory, (uintptr_t)ptr);
    if (r && (uintptr_t)ptr - r->base < r->size) {
        info.known = true;
        info.base = r->base;
        info.size = r->size;
        info.kind = r->kind;
        info.buffer_id = r->buffer_id;
        info.ctx_handle = r->ctx ? r->ctx->base.handle : 0;
        info.access = OS_ACCESS_READWRITE;
        info.range_base = r->base;
        info.range_size = r->size;
        info.pool = r->pool;
        info.managed = r->managed != NULL;
        if (r->kind == RANGE_MAPPING) {
            const struct mapping *m = (const struct mapping *)r;
            info.handle_types = (unsigned long long)m->alloc->prop.requestedHandleTypes;
            info.access = m->access;
            info.range_base = m->res->r.base;
            info.range_size = m->res->r.size;
        }
    }
    amap_unlock();
    return info;
}

/* Page-locked host memory: allocated (cuMemHostAlloc) or the caller's, registered. */
static bool is_host(range_kind kind) { return kind == RANGE_HOST || kind == RANGE_REGISTERED; }

/* Size of each attribute's value, 0 for attributes the software device does not answer. */
static size_t value_size(CUpointer_attribute a)
{
    switch (a) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: return sizeof(CUcontext);
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: return sizeof(unsigned int);
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: return sizeof(CUdeviceptr);
    case CU_POINTER_ATTRIBUTE_HOST_POINTER: return sizeof(void *);
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: return sizeof(int);
    case CU_POINTER_ATTRIBUTE_BUFFER_ID: return sizeof(unsigned long long);
    case CU_POINTER_ATTRIBUTE_IS_MANAGED: return sizeof(unsigned int);
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: return sizeof(int);
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE: return sizeof(int);
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: return sizeof(CUdeviceptr);
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: return sizeof(size_t);
    case CU_POINTER_ATTRIBUTE_MAPPED: return sizeof(int);
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES: return sizeof(unsigned long long);
    case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE: return sizeof(int);
    case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS: return sizeof(int);
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE: return sizeof(void *);
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE: return sizeof(size_t);
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR: return sizeof(void *);
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID: return sizeof(unsigned long long);
    case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE: return sizeof(int);
    default: return 0; /* P2P_TOKENS and unknown values */
    }
}

#define PUT(type, v)                    \
    do {                                \
        type value_ = (type)(v);        \
        memcpy(data, &value_, sizeof(value_)); \
    } while (0)

/* Writes the value of a for a known pointer. */
static void write_value(void *data, CUpointer_attribute a, CUdeviceptr ptr, const struct pointer_info *in)
{
    switch (a) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: PUT(CUcontext, (uintptr_t)in->ctx_handle); break;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        PUT(unsigned int, is_host(in->kind) ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE);
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: PUT(CUdeviceptr, ptr); break;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER: PUT(void *, (uintptr_t)ptr); break;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: PUT(int, 0); break;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID: PUT(unsigned long long, in->buffer_id); break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED: PUT(unsigned int, in->managed); break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: PUT(int, 0); break;
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
        PUT(int, in->kind == RANGE_DEVICE && !in->pool && !in->managed);
        break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: PUT(CUdeviceptr, in->range_base); break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: PUT(size_t, in->range_size); break;
    case CU_POINTER_ATTRIBUTE_MAPPED: PUT(int, 1); break;
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES: PUT(unsigned long long, in->handle_types); break;
    case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE: PUT(int, 0); break;
    case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS: PUT(int, in->access); break;
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE: PUT(uintptr_t, (uintptr_t)in->pool); break;
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE: PUT(size_t, in->size); break;
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR: PUT(void *, in->base); break;
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID: PUT(unsigned long long, in->buffer_id); break;
    default: PUT(int, 0); break;
    }
}

static CUresult check_attribute(const char *fn, CUpointer_attribute a)
{
    if (a == CU_POINTER_ATTRIBUTE_P2P_TOKENS)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: P2P tokens are a GPUDirect RDMA feature the software device lacks", fn);
    if (!value_size(a))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: attribute %d is not a CUpointer_attribute", fn, (int)a);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
{
    static const char fn[] = "cuPointerGetAttribute";
    REQUIRE_INIT(fn);
    if (!data)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: data is NULL", fn);
    CUresult r = check_attribute(fn, attribute);
    if (r)
        return r;
    struct pointer_info info = lookup(ptr);
    if (!info.known)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not memory extmem allocated or registered", fn,
                    (unsigned long long)ptr);
    /* A mapping without access has no device pointer yet (the driver writes 0 and refuses). */
    if (attribute == CU_POINTER_ATTRIBUTE_DEVICE_POINTER && info.kind == RANGE_MAPPING &&
        info.access == OS_ACCESS_NONE) {
        memset(data, 0, sizeof(CUdeviceptr));
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is mapped but has no access yet (cuMemSetAccess)", fn,
                    (unsigned long long)ptr);
    }
    /* The driver answers no host pointer for cuMemAlloc memory, although on the software
     * device the host could use the same address: code must not rely on that. Managed memory
     * is the host's too, so it has one. */
    if (attribute == CU_POINTER_ATTRIBUTE_HOST_POINTER && !is_host(info.kind) && !info.managed)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is device memory, which has no host pointer", fn,
                    (unsigned long long)ptr);
    write_value(data, attribute, ptr, &info);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data,
                                        CUdeviceptr ptr)
{
    static const char fn[] = "cuPointerGetAttributes";
    REQUIRE_INIT(fn);
    if (numAttributes == 0 || !attributes || !data)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s", fn,
                    numAttributes == 0 ? "numAttributes is 0" : !attributes ? "attributes is NULL" : "data is NULL");
    for (unsigned int i = 0; i < numAttributes; ++i) {
        CUresult r = check_attribute(fn, attributes[i]);
        if (r)
            return r;
        if (!data[i])
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: data[%u] is NULL", fn, i);
    }
    /* Unlike cuPointerGetAttribute, an unknown pointer is not an error: its attributes read
     * as zero (CUDA's documented behaviour). As on the driver, the device ordinal reads -2,
     * the range attributes are left as they were, and device memory has no host pointer (0). */
    struct pointer_info info = lookup(ptr);
    for (unsigned int i = 0; i < numAttributes; ++i) {
        CUpointer_attribute a = attributes[i];
        if (info.known && !(a == CU_POINTER_ATTRIBUTE_HOST_POINTER && !is_host(info.kind) && !info.managed))
            write_value(data[i], a, ptr, &info);
        else if (info.known || (a != CU_POINTER_ATTRIBUTE_RANGE_START_ADDR && a != CU_POINTER_ATTRIBUTE_RANGE_SIZE))
            memset(data[i], 0, value_size(a));
        if (!info.known && a == CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL)
            *(int *)data[i] = -2;
    }
    return CUDA_SUCCESS;
}

/* "The only attribute that can be set is CU_POINTER_ATTRIBUTE_SYNC_MEMOPS" (cuda.h): it asks
 * that memory operations on the allocation be synchronous. Every copy and fill of the software
 * device on its memory already is, so the request holds as soon as the memory is known
 * (NVIDIA's answers: docs/probes/surface/atomic.out). */
CUresult CUDAAPI cuPointerSetAttribute(const void *value, CUpointer_attribute attribute, CUdeviceptr ptr)
{
    static const char fn[] = "cuPointerSetAttribute";
    REQUIRE_INIT(fn);
    if (!value)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: value is NULL", fn);
    if (attribute != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: attribute %d cannot be set: only CU_POINTER_ATTRIBUTE_SYNC_MEMOPS can",
                    fn, (int)attribute);
    struct pointer_info info = lookup(ptr);
    if (!info.known)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not memory extmem allocated or registered", fn,
                    (unsigned long long)ptr);
    return CUDA_SUCCESS;
}
