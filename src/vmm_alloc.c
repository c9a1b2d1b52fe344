/*
 * Physical allocations: cuMemCreate, cuMemRelease, their properties, and sharing them through
 * POSIX file descriptors (cuMemExportToShareableHandle / cuMemImportFromShareableHandle).
 */
#include "vmm.h"

#include <stdlib.h>
#include <string.h>

size_t vmm_granularity(void) { return device_granularity(); }

static void alloc_free(struct obj *o)
{
    struct vmm_alloc *a = (struct vmm_alloc *)o;
    os_memory_close(&a->mem);
    free(a);
}

CUresult vmm_alloc_lookup(const char *fn, CUmemGenericAllocationHandle handle, struct vmm_alloc **out)
{
    struct obj *o;
    obj_status st = obj_lookup(handle, OBJ_ALLOCATION, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s", fn, obj_status_text(st, OBJ_ALLOCATION, handle));
    *out = (struct vmm_alloc *)o;
    return CUDA_SUCCESS;
}

void vmm_alloc_release(struct vmm_alloc *a) { obj_release(&a->base); }

void vmm_alloc_drop_holder(struct vmm_alloc *a)
{
    if (a->user_refs == 0 && a->mappings == 0)
        obj_unregister(&a->base);
}

/* cuMemCreate's checks of prop, in the driver's order: the device, then the type and the
 * location, then the handle types. Like the driver, it keeps compression and RDMA requests
 * (the memory is ordinary memory either way) and ignores unknown handle-type bits. */
static CUresult check_prop(const char *fn, const CUmemAllocationProp *prop)
{
    CUresult r = device_check(fn, prop->location.id);
    if (r)
        return r;
    if (prop->type != CU_MEM_ALLOCATION_TYPE_PINNED)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: prop->type is %d: only CU_MEM_ALLOCATION_TYPE_PINNED (1) is "
                    "supported", fn, (int)prop->type);
    if (prop->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: prop->location.type is %d: the software device allocates "
                    "CU_MEM_LOCATION_TYPE_DEVICE (1) memory", fn, (int)prop->location.type);
    if (prop->allocFlags.usage != 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: prop->allocFlags.usage 0x%x is not supported", fn,
                    prop->allocFlags.usage);
    unsigned int types = (unsigned int)prop->requestedHandleTypes;
    if (types & (CU_MEM_HANDLE_TYPE_WIN32 | CU_MEM_HANDLE_TYPE_WIN32_KMT))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: prop->requestedHandleTypes 0x%x: Win32 handles exist on Windows "
                    "only", fn, types);
    if (types & CU_MEM_HANDLE_TYPE_FABRIC)
        return fail(CUDA_ERROR_NOT_PERMITTED, "%s: fabric handles need an NVLink fabric, which the software device "
                    "does not have", fn);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop,
                                               CUmemAllocationGranularity_flags option)
{
    static const char fn[] = "cuMemGetAllocationGranularity";
    REQUIRE_INIT(fn);
    if (!granularity || !prop)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !granularity ? "granularity" : "prop");
    if (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM && option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: option %d is not a CUmemAllocationGranularity_flags", fn, (int)option);
    /* The driver answers without looking at prop's fields; so does extmem. */
    *granularity = vmm_granularity();
    return CUDA_SUCCESS;
}

/* Registers a new allocation over mem (which it takes) with one application handle. */
static CUresult alloc_register(const char *fn, os_memory mem, const CUmemAllocationProp *prop, bool exportable,
                               CUmemGenericAllocationHandle *handle)
{
    struct vmm_alloc *a = calloc(1, sizeof(*a));
    if (!a) {
        os_memory_close(&mem);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    a->mem = mem;
    a->size = mem.size;
    a->prop = *prop;
    a->exportable = exportable;
    a->user_refs = 1;
    if (!obj_register(&a->base, OBJ_ALLOCATION, alloc_free)) {
        alloc_free(&a->base);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the handle table", fn);
    }
    *handle = a->base.handle;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
                             unsigned long long flags)
{
    static const char fn[] = "cuMemCreate";
    REQUIRE_INIT(fn);
    if (!handle || !prop)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !handle ? "handle" : "prop");
    if (flags != 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags is 0x%llx: it must be 0", fn, flags);
    size_t gran = vmm_granularity();
    if (size == 0 || size % gran)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: size %zu is not a positive multiple of the granularity %zu", fn, size,
                    gran);
    CUresult r = check_prop(fn, prop);
    if (r)
        return r;
    if ((r = mem_check_available(fn, size)))
        return r;
    os_memory mem;
    int err = os_memory_create(&mem, size, "extmem-vmm");
    if (err) {
        char text[128];
        return fail(os_error_is_out_of_memory(err) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_OPERATING_SYSTEM,
                    "%s: creating %zu bytes of shareable memory failed: %s", fn, size,
                    os_error_string(err, text, sizeof(text)));
    }
    CUmemAllocationProp copy = *prop;
    copy.win32HandleMetaData = NULL;
    copy.requestedHandleTypes &= CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR; /* unknown bits are dropped */
    return alloc_register(fn, mem, &copy, copy.requestedHandleTypes != 0, handle);
}

CUresult CUDAAPI cuMemRelease(CUmemGenericAllocationHandle handle)
{
    static const char fn[] = "cuMemRelease";
    REQUIRE_INIT(fn);
    struct vmm_alloc *a;
    CUresult r = vmm_alloc_lookup(fn, handle, &a);
    if (r)
        return r;
    amap_lock_write();
    if (a->user_refs == 0) {
        amap_unlock();
        vmm_alloc_release(a);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: allocation 0x%llx was already released (it lives on only while "
                    "mapped)", fn, (unsigned long long)handle);
    }
    a->user_refs--;
    vmm_alloc_drop_holder(a); /* mappings keep the memory and the handle until they are unmapped */
    amap_unlock();
    vmm_alloc_release(a);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop, CUmemGenericAllocationHandle handle)
{
    static const char fn[] = "cuMemGetAllocationPropertiesFromHandle";
    REQUIRE_INIT(fn);
    if (!prop)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: prop is NULL", fn);
    struct vmm_alloc *a;
    CUresult r = vmm_alloc_lookup(fn, handle, &a);
    if (r)
        return r;
    *prop = a->prop;
    vmm_alloc_release(a);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemExportToShareableHandle(void *shareableHandle, CUmemGenericAllocationHandle handle,
                                              CUmemAllocationHandleType handleType, unsigned long long flags)
{
    static const char fn[] = "cuMemExportToShareableHandle";
    REQUIRE_INIT(fn);
    if (!shareableHandle)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: shareableHandle is NULL", fn);
    if (flags != 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags is 0x%llx: it must be 0", fn, flags);
    if (handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
        return fail(CUDA_ERROR_INVALID_VALUE,
                    "%s: handleType %d: only CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR exists on this platform", fn,
                    (int)handleType);
    if (!OS_HAS_POSIX_FD) /* an int cannot hold the HANDLE os_handle_dup makes there */
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: POSIX file descriptors do not exist on Windows, and extmem does not "
                    "export CU_MEM_HANDLE_TYPE_WIN32 handles yet", fn);
    struct vmm_alloc *a;
    CUresult r = vmm_alloc_lookup(fn, handle, &a);
    if (r)
        return r;
    if (!a->exportable) {
        vmm_alloc_release(a);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the allocation was not created with CU_MEM_HANDLE_TYPE_POSIX_FILE_"
                    "DESCRIPTOR in prop.requestedHandleTypes", fn);
    }
    os_handle dup;
    int err = os_handle_dup(a->mem.handle, &dup);
    vmm_alloc_release(a);
    if (err) {
        char text[128];
        return fail(os_error_is_out_of_memory(err) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_OPERATING_SYSTEM,
                    "%s: duplicating the allocation's descriptor failed: %s", fn, os_error_string(err, text, sizeof(text)));
    }
    memcpy(shareableHandle, &dup, sizeof(dup));
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle, void *osHandle,
                                                CUmemAllocationHandleType shHandleType)
{
    static const char fn[] = "cuMemImportFromShareableHandle";
    REQUIRE_INIT(fn);
    if (!handle)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: handle is NULL", fn);
    if (shHandleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
        return fail(shHandleType == CU_MEM_HANDLE_TYPE_WIN32 || shHandleType == CU_MEM_HANDLE_TYPE_WIN32_KMT ||
                            shHandleType == CU_MEM_HANDLE_TYPE_FABRIC
                        ? CUDA_ERROR_NOT_SUPPORTED
                        : CUDA_ERROR_INVALID_VALUE,
                    "%s: shHandleType %d: only CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR exists on this platform", fn,
                    (int)shHandleType);
    if (!OS_HAS_POSIX_FD)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: POSIX file descriptors do not exist on Windows, and extmem does not "
                    "import CU_MEM_HANDLE_TYPE_WIN32 handles yet", fn);
    /* The POSIX convention: the fd itself travels in the pointer argument. */
    intptr_t fd = (intptr_t)osHandle;
    if (fd < 0 || fd > INT32_MAX)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %lld is not a file descriptor", fn, (long long)fd);
    os_memory mem;
    char why[160] = "";
    int err = os_memory_open((os_handle)fd, &mem, why, sizeof(why));
    if (err) {
        char text[128];
        if (why[0])
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: fd %d %s", fn, (int)fd, why);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: fd %d cannot be used: %s", fn, (int)fd,
                    os_error_string(err, text, sizeof(text)));
    }
    if (mem.size == 0 || mem.size % vmm_granularity()) {
        size_t size = mem.size;
        os_memory_close(&mem);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: fd %d holds %zu bytes, not a multiple of the granularity %zu", fn,
                    (int)fd, size, vmm_granularity());
    }
    /* Each import is a new handle. Its properties report no handle types, as the driver's
     * do; it can still be exported again. */
    CUmemAllocationProp prop = {0};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    return alloc_register(fn, mem, &prop, true, handle);
}
