/*
 * External memory: cuImportExternalMemory, cuExternalMemoryGetMappedBuffer and
 * cuDestroyExternalMemory (../shared/seeds/004_899ba516d5a0237d.txt and
 * 001_a59e0c8da9f21121.txt; BEHAVIOR.md's external memory table; docs/external-memory.md).
 *
 * A mapped buffer is a shared mapping of the object's own pages: no copy. It lives on its
 * own, so destroying the external memory leaves live buffers usable, as on the driver.
 */
#include "internal.h"

#include <stdlib.h>

struct ext_memory {
    struct obj base;
    os_handle handle;   /* the imported fd: extmem's from the successful import on */
    os_external object; /* what it is and where its bytes are */
    unsigned long long size; /* the size the application imported */
    CUexternalMemoryHandleType type;
};

static void ext_free(struct obj *o)
{
    struct ext_memory *e = (struct ext_memory *)o;
    os_handle_close(e->handle);
    free(e);
}

static const char *type_name(CUexternalMemoryHandleType t)
{
    static const char *const names[] = {"", "OPAQUE_FD", "OPAQUE_WIN32", "OPAQUE_WIN32_KMT", "D3D12_HEAP",
                                        "D3D12_RESOURCE", "D3D11_RESOURCE", "D3D11_RESOURCE_KMT", "NVSCIBUF",
                                        "DMABUF_FD"};
    return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}

/* The rules that do not look at the handle, in the driver's order: the descriptor, the
 * type, the size, the flags and reserved fields, the dedicated-flag rule, then whether the
 * platform has the type at all. On every failure the caller's fd stays open. */
static CUresult check_desc(const char *fn, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d)
{
    if (d->type < CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD || d->type > CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: type %d is not a CUexternalMemoryHandleType", fn, (int)d->type);
    if (d->size == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: size is 0: give the size of the memory object", fn);
    if (d->flags & ~(unsigned int)CUDA_EXTERNAL_MEMORY_DEDICATED)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x: only CUDA_EXTERNAL_MEMORY_DEDICATED (0x1) is defined",
                    fn, d->flags);
    for (int i = 0; i < 16; ++i)
        if (d->reserved[i])
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: reserved[%d] is %u: it must be 0", fn, i, d->reserved[i]);
    /* The specification: these types describe dedicated allocations and need the flag. */
    bool dedicated = d->flags & CUDA_EXTERNAL_MEMORY_DEDICATED;
    if (!dedicated && (d->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE ||
                       d->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE ||
                       d->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s memory must be imported with CUDA_EXTERNAL_MEMORY_DEDICATED", fn,
                    type_name(d->type));
    switch (d->type) {
    case CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD:
    case CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD:
        if (!OS_HAS_POSIX_FD)
            return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: %s handles are POSIX file descriptors: this is the Windows build",
                        fn, type_name(d->type));
        return CUDA_SUCCESS;
    case CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF:
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: NvSciBuf objects exist on NVIDIA's Tegra and DRIVE platforms only",
                    fn);
    default:
        if (!OS_HAS_POSIX_FD) /* OPAQUE_WIN32(_KMT), D3D11, D3D12: DESIGN.md §7, issue 7 */
            return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: %s handles are not implemented on Windows yet", fn,
                        type_name(d->type));
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: %s handles are Windows handles: this is the Linux build", fn,
                    type_name(d->type));
    }
}

CUresult CUDAAPI cuImportExternalMemory(CUexternalMemory *extMem_out, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *memHandleDesc)
{
    static const char fn[] = "cuImportExternalMemory";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    if (!extMem_out || !memHandleDesc)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !extMem_out ? "extMem_out" : "memHandleDesc");
    const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d = memHandleDesc;
    if ((r = check_desc(fn, d)))
        return r;
    bool dmabuf = d->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD;
    os_external object;
    char why[200] = "";
    int err = os_external_identify(os_handle_from_int32(d->handle.fd), dmabuf, &object, why, sizeof(why));
    if (err && why[0])
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: fd %d %s; it stays open and yours", fn, d->handle.fd, why);
    if (err) {
        char text[128];
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: fd %d cannot be imported: %s", fn, d->handle.fd,
                    os_error_string(err, text, sizeof(text)));
    }
    struct ext_memory *e = calloc(1, sizeof(*e));
    if (!e)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory; fd %d stays open and yours", fn, d->handle.fd);
    e->handle = OS_INVALID_HANDLE;
    e->object = object;
    e->size = d->size;
    e->type = d->type;
    if (!obj_register(&e->base, OBJ_EXTERNAL_MEMORY, ext_free)) {
        ext_free(&e->base);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the handle table", fn);
    }
    /* Success: the specification transfers the fd to extmem now, and only now. */
    e->handle = os_handle_from_int32(d->handle.fd);
    log_info("%s: fd %d (%s, %zu bytes at offset %zu) imported as 0x%llx", fn, d->handle.fd, type_name(d->type),
             object.data_size, object.data_offset, (unsigned long long)e->base.handle);
    *extMem_out = (CUexternalMemory)(uintptr_t)e->base.handle;
    return CUDA_SUCCESS;
}

static CUresult lookup(const char *fn, CUexternalMemory handle, struct ext_memory **out)
{
    if (!handle)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: extMem is NULL", fn);
    struct obj *o;
    obj_status st = obj_lookup((uint64_t)(uintptr_t)handle, OBJ_EXTERNAL_MEMORY, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: %s", fn,
                    obj_status_text(st, OBJ_EXTERNAL_MEMORY, (uint64_t)(uintptr_t)handle));
    *out = (struct ext_memory *)o;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuExternalMemoryGetMappedBuffer(CUdeviceptr *devPtr, CUexternalMemory extMem,
                                                 const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *bufferDesc)
{
    static const char fn[] = "cuExternalMemoryGetMappedBuffer";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    struct ext_memory *e = NULL;
    const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *b = bufferDesc;
    if (!devPtr || !b) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !devPtr ? "devPtr" : "bufferDesc");
        goto out;
    }
    if ((r = lookup(fn, extMem, &e)))
        goto out;
    /* The specification: flags must be zero. Buffers need no alignment (as on the driver);
     * they must lie inside both the imported size and the object itself. */
    unsigned long long limit = e->size < e->object.data_size ? e->size : e->object.data_size;
    if (b->flags != 0)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: flags is 0x%x: it must be 0", fn, b->flags);
    for (int i = 0; i < 16 && !r; ++i)
        if (b->reserved[i])
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: reserved[%d] is %u: it must be 0", fn, i, b->reserved[i]);
    if (!r && b->size == 0)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: size is 0", fn);
    if (!r && (b->offset > limit || b->size > limit - b->offset))
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: [offset %llu, +%llu) runs past the end of the memory (%llu bytes)", fn,
                 b->offset, b->size, limit);
    if (!r && b->size > SIZE_MAX)
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: %llu bytes do not fit this address space", fn, b->size);
    struct range *range = NULL;
    if (!r && !(range = calloc(1, sizeof(*range))))
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    if (r)
        goto out;
    void *ptr, *base;
    size_t len;
    int err = os_external_map(e->handle, e->object.data_offset + b->offset, (size_t)b->size, &ptr, &base, &len);
    if (err) {
        free(range);
        char text[128];
        r = fail(os_error_is_out_of_memory(err) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_OPERATING_SYSTEM,
                 "%s: mapping the memory failed: %s", fn, os_error_string(err, text, sizeof(text)));
        goto out;
    }
    range->base = (uintptr_t)ptr;
    range->size = range->map_size = (size_t)b->size;
    range->unmap_base = (uintptr_t)base;
    range->unmap_len = len;
    range->kind = RANGE_EXTERNAL;
    range->mem.handle = OS_INVALID_HANDLE;
    range->buffer_id = e->base.handle;
    mem_register(ctx, range);
    *devPtr = (CUdeviceptr)(uintptr_t)ptr;
out:
    if (e)
        obj_release(&e->base);
    ctx_release(ctx);
    return r;
}

CUresult CUDAAPI cuDestroyExternalMemory(CUexternalMemory extMem)
{
    static const char fn[] = "cuDestroyExternalMemory";
    REQUIRE_INIT(fn);
    struct ext_memory *e;
    CUresult r = lookup(fn, extMem, &e);
    if (r)
        return r;
    /* Mapped buffers are mappings of their own and stay usable until cuMemFree. */
    obj_unregister(&e->base);
    obj_release(&e->base);
    return CUDA_SUCCESS;
}
