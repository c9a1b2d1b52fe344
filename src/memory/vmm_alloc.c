/*
 * Physical allocations: cuMemCreate, cuMemRelease, their properties, and sharing them
 * (cuMemExportToShareableHandle / cuMemImportFromShareableHandle) through the platform's
 * handles: POSIX file descriptors on Linux; on Windows NT handles of the section
 * (CU_MEM_HANDLE_TYPE_WIN32, guarded by the security attributes of win32HandleMetaData) and KMT
 * handles (CU_MEM_HANDLE_TYPE_WIN32_KMT: a token that holds no reference; src/win32/memory.c).
 */
#include "memory/memory.h"
#include "memory/vmm.h"

#include <stdio.h>
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

/* The handle types this platform has, and the other platform's. */
#define NATIVE_TYPES \
    (OS_HAS_POSIX_FD ? (unsigned)CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR \
                     : (unsigned)(CU_MEM_HANDLE_TYPE_WIN32 | CU_MEM_HANDLE_TYPE_WIN32_KMT))
#define FOREIGN_TYPES \
    ((unsigned)(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR | CU_MEM_HANDLE_TYPE_WIN32 | CU_MEM_HANDLE_TYPE_WIN32_KMT) & \
     ~NATIVE_TYPES)
#define NATIVE_NAMES \
    (OS_HAS_POSIX_FD ? "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR" : "CU_MEM_HANDLE_TYPE_WIN32 and _WIN32_KMT")

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
    if (types & FOREIGN_TYPES)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: prop->requestedHandleTypes 0x%x: %s exist on %s only", fn, types,
                    OS_HAS_POSIX_FD ? "Win32 handles" : "POSIX file descriptors", OS_HAS_POSIX_FD ? "Windows" : "Linux");
    if (types & CU_MEM_HANDLE_TYPE_FABRIC)
        return fail(CUDA_ERROR_NOT_PERMITTED, "%s: fabric handles need an NVLink fabric, which the software device "
                    "does not have", fn);
    /* CUDA's header: the metadata goes with CU_MEM_HANDLE_TYPE_WIN32, "in all other cases,
     * this field is required to be zero" (the driver on Linux: INVALID_VALUE). */
    if (prop->win32HandleMetaData && !(types & CU_MEM_HANDLE_TYPE_WIN32))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: prop->win32HandleMetaData is set but prop->requestedHandleTypes "
                    "0x%x lacks CU_MEM_HANDLE_TYPE_WIN32: it must be NULL", fn, types);
    char why[160];
    if (prop->win32HandleMetaData && os_share_check(prop->win32HandleMetaData, why, sizeof(why)))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: prop->win32HandleMetaData %s", fn, why);
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
static CUresult alloc_register(const char *fn, os_memory mem, const CUmemAllocationProp *prop,
                               unsigned int export_types, CUmemGenericAllocationHandle *handle)
{
    struct vmm_alloc *a = calloc(1, sizeof(*a));
    if (!a) {
        os_memory_close(&mem);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    a->mem = mem;
    a->size = mem.size;
    a->prop = *prop;
    a->export_types = export_types;
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
    unsigned int types = (unsigned int)prop->requestedHandleTypes & NATIVE_TYPES; /* unknown bits are dropped */
    os_share share = {.security = prop->win32HandleMetaData, .global = types & CU_MEM_HANDLE_TYPE_WIN32_KMT};
    os_memory mem;
    int err = os_memory_create(&mem, size, "extmem-vmm", &share);
    if (err) {
        char text[128];
        return fail(os_error_is_out_of_memory(err) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_OPERATING_SYSTEM,
                    "%s: creating %zu bytes of shareable memory failed: %s", fn, size,
                    os_error_string(err, text, sizeof(text)));
    }
    CUmemAllocationProp copy = *prop;
    copy.requestedHandleTypes = (CUmemAllocationHandleType)types;
    return alloc_register(fn, mem, &copy, types, handle);
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

static const char *handle_type_name(unsigned int t)
{
    return t == CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR ? "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR"
           : t == CU_MEM_HANDLE_TYPE_WIN32               ? "CU_MEM_HANDLE_TYPE_WIN32"
           : t == CU_MEM_HANDLE_TYPE_WIN32_KMT           ? "CU_MEM_HANDLE_TYPE_WIN32_KMT"
                                                         : "that handle type";
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
    unsigned int type = (unsigned int)handleType;
    if (!(type & NATIVE_TYPES) || (type & (type - 1)))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: handleType %d: only %s exist on this platform", fn, (int)handleType,
                    NATIVE_NAMES);
    struct vmm_alloc *a;
    CUresult r = vmm_alloc_lookup(fn, handle, &a);
    if (r)
        return r;
    if (!(a->export_types & type)) {
        vmm_alloc_release(a);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the allocation was not created with %s in "
                    "prop.requestedHandleTypes", fn, handle_type_name(type));
    }
    if (type == CU_MEM_HANDLE_TYPE_WIN32_KMT) {
        /* A D3DKMT_HANDLE, 32 bits: the token that names the object without a reference. */
        uint32_t token = a->mem.token;
        vmm_alloc_release(a);
        memcpy(shareableHandle, &token, sizeof(token));
        return CUDA_SUCCESS;
    }
    os_handle dup;
    int err = os_memory_export(&a->mem, &dup);
    vmm_alloc_release(a);
    if (err) {
        char text[128];
        return fail(os_error_is_out_of_memory(err) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_OPERATING_SYSTEM,
                    "%s: duplicating the allocation's handle failed: %s", fn, os_error_string(err, text, sizeof(text)));
    }
    memcpy(shareableHandle, &dup, sizeof(dup)); /* an int fd on Linux, a HANDLE on Windows */
    return CUDA_SUCCESS;
}

/* Opens what osHandle names as a memory object of extmem's; a refusal is INVALID_VALUE. */
static CUresult open_shareable(const char *fn, void *osHandle, unsigned int type, os_memory *mem)
{
    char why[160] = "", text[128];
    int err;
    if (type == CU_MEM_HANDLE_TYPE_WIN32_KMT) {
        uintptr_t token = (uintptr_t)osHandle;
        if (token == 0 || token > UINT32_MAX)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: %p is not a KMT handle (a D3DKMT_HANDLE: 32 bits, not 0)", fn,
                        osHandle);
        if ((err = os_memory_open_token((uint32_t)token, mem)))
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: no memory object has the KMT handle 0x%lx (a KMT handle holds "
                        "no reference: it ends with the last handle to its memory): %s", fn, (unsigned long)token,
                        os_error_string(err, text, sizeof(text)));
        return CUDA_SUCCESS;
    }
    char what[48];
    if (type == CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) {
        /* The POSIX convention: the fd itself travels in the pointer argument. */
        intptr_t fd = (intptr_t)osHandle;
        if (fd < 0 || fd > INT32_MAX)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: %lld is not a file descriptor", fn, (long long)fd);
        snprintf(what, sizeof(what), "fd %d", (int)fd);
    } else {
        snprintf(what, sizeof(what), "handle %p", osHandle);
    }
    err = os_memory_open((os_handle)(intptr_t)osHandle, mem, why, sizeof(why));
    if (err && why[0])
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s %s", fn, what, why);
    if (err)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s cannot be used: %s", fn, what,
                    os_error_string(err, text, sizeof(text)));
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle, void *osHandle,
                                                CUmemAllocationHandleType shHandleType)
{
    static const char fn[] = "cuMemImportFromShareableHandle";
    REQUIRE_INIT(fn);
    if (!handle)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: handle is NULL", fn);
    unsigned int type = (unsigned int)shHandleType;
    if (!(type & NATIVE_TYPES) || (type & (type - 1)))
        return fail((type & FOREIGN_TYPES) || type == CU_MEM_HANDLE_TYPE_FABRIC ? CUDA_ERROR_NOT_SUPPORTED
                                                                               : CUDA_ERROR_INVALID_VALUE,
                    "%s: shHandleType %d: only %s exist on this platform", fn, (int)shHandleType, NATIVE_NAMES);
    /* The caller's handle stays the caller's: extmem opens the object anew. */
    os_memory mem;
    CUresult r = open_shareable(fn, osHandle, type, &mem);
    if (r)
        return r;
    if (mem.size == 0 || mem.size % vmm_granularity()) {
        size_t size = mem.size;
        os_memory_close(&mem);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the memory of %p holds %zu bytes, not a multiple of the "
                    "granularity %zu", fn, osHandle, size, vmm_granularity());
    }
    /* Each import is a new handle. Its properties report no handle types, as the driver's
     * do; it can still be exported again (as a KMT handle only when it has a token). */
    CUmemAllocationProp prop = {0};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    unsigned int types = NATIVE_TYPES & ~(mem.global ? 0u : (unsigned)CU_MEM_HANDLE_TYPE_WIN32_KMT);
    return alloc_register(fn, mem, &prop, types, handle);
}
