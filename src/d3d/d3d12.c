/*
 * Direct3D 12 memory for the software device (Windows; DESIGN.md §7; docs/d3d-interop.md).
 *
 * The software device is the CPU: it reaches a heap or a buffer in a CPU-visible heap (custom
 * with a CPU page property, upload, readback) directly, mapped with ID3D12Resource::Map, and any
 * other (DEFAULT heaps, and whatever Direct3D 12 shares) through a staging copy kept coherent at
 * external semaphore waits and signals (d3d12_staging.c). A heap is reached through a buffer
 * placed over all of it. The mapped resource and the heap stay referenced (struct owner) while
 * the import or any buffer mapped from it lives, so what the application releases does not pull
 * the memory away.
 *
 * Handles (cuImportExternalMemory with D3D12_HEAP / D3D12_RESOURCE) are opened by a D3D12 device
 * of extmem's own, made once on the adapter the software device pairs with (WARP where there is
 * one). dxgi.dll and d3d12.dll are loaded at run time: nothing of Direct3D is loaded into a
 * program that does not use it.
 */
#define COBJMACROS
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#include <initguid.h> /* this file defines the IIDs it uses: no dxguid import library */
#include <d3d12.h>
#include <dxgi1_4.h>

#include "d3d/d3d_private.h"
#include "extmem/d3d.h"
#include "memory/memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef HRESULT(WINAPI *create_factory_fn)(REFIID, void **);
typedef HRESULT(WINAPI *create_device_fn)(IUnknown *, D3D_FEATURE_LEVEL, REFIID, void **);

static struct {
    create_factory_fn create_factory;
    create_device_fn create_device;
    char missing[96];      /* why the DLLs could not be loaded */
    ID3D12Device *device;  /* extmem's own, for shared handles; lives as long as the process */
    HRESULT device_result;
    bool luid_known;
    LUID luid;
} d3d;

static BOOL CALLBACK load_api(PINIT_ONCE once, void *param, void **context)
{
    (void)once, (void)param, (void)context;
    HMODULE dxgi = LoadLibraryA("dxgi.dll"), d3d12 = LoadLibraryA("d3d12.dll");
    if (dxgi)
        d3d.create_factory = (create_factory_fn)(void (*)(void))GetProcAddress(dxgi, "CreateDXGIFactory1");
    if (d3d12)
        d3d.create_device = (create_device_fn)(void (*)(void))GetProcAddress(d3d12, "D3D12CreateDevice");
    if (!d3d.create_factory || !d3d.create_device)
        snprintf(d3d.missing, sizeof(d3d.missing), "%s cannot be loaded (Windows error %lu)",
                 !d3d.create_factory ? "dxgi.dll" : "d3d12.dll", (unsigned long)GetLastError());
    return TRUE;
}

static bool api(void)
{
    static INIT_ONCE once = INIT_ONCE_STATIC_INIT;
    InitOnceExecuteOnce(&once, load_api, NULL, NULL);
    return d3d.create_factory && d3d.create_device;
}

/* The adapter the software device works with: WARP; else an adapter that says it is software;
 * else the first one (wine has one adapter and no WARP). A new reference, or NULL. */
static IDXGIAdapter1 *paired_adapter(void)
{
    IDXGIFactory1 *factory = NULL;
    if (!api() || FAILED(d3d.create_factory(&IID_IDXGIFactory1, (void **)&factory)))
        return NULL;
    IDXGIAdapter1 *adapter = NULL;
    IDXGIFactory4 *factory4 = NULL;
    if (SUCCEEDED(IDXGIFactory1_QueryInterface(factory, &IID_IDXGIFactory4, (void **)&factory4))) {
        if (FAILED(IDXGIFactory4_EnumWarpAdapter(factory4, &IID_IDXGIAdapter1, (void **)&adapter)))
            adapter = NULL;
        IDXGIFactory4_Release(factory4);
    }
    for (UINT i = 0; !adapter; ++i) {
        IDXGIAdapter1 *candidate = NULL;
        if (IDXGIFactory1_EnumAdapters1(factory, i, &candidate) != S_OK)
            break;
        DXGI_ADAPTER_DESC1 desc;
        if (SUCCEEDED(IDXGIAdapter1_GetDesc1(candidate, &desc)) && (desc.Flags & DXGI_ADAPTER_FLAG_SOFTWARE))
            adapter = candidate;
        else
            IDXGIAdapter1_Release(candidate);
    }
    if (!adapter && IDXGIFactory1_EnumAdapters1(factory, 0, &adapter) != S_OK)
        adapter = NULL;
    IDXGIFactory1_Release(factory);
    return adapter;
}

static BOOL CALLBACK find_luid(PINIT_ONCE once, void *param, void **context)
{
    (void)once, (void)param, (void)context;
    IDXGIAdapter1 *adapter = paired_adapter();
    DXGI_ADAPTER_DESC1 desc;
    if (adapter && SUCCEEDED(IDXGIAdapter1_GetDesc1(adapter, &desc))) {
        d3d.luid = desc.AdapterLuid;
        d3d.luid_known = true;
    }
    if (adapter)
        IDXGIAdapter1_Release(adapter);
    return TRUE;
}

bool d3d_adapter_luid(unsigned char luid[8])
{
    /* As with Vulkan (src/vk/pairing.c): only a program that uses DXGI gets the adapter's LUID,
     * unless EXTMEM_D3D_PAIRING says otherwise; others are not made to load Direct3D. */
    const char *env = os_getenv("EXTMEM_D3D_PAIRING");
    if (env && strcmp(env, "0") == 0)
        return false;
    if (!(env && strcmp(env, "1") == 0) && !GetModuleHandleA("dxgi.dll"))
        return false;
    static INIT_ONCE once = INIT_ONCE_STATIC_INIT;
    InitOnceExecuteOnce(&once, find_luid, NULL, NULL);
    if (!d3d.luid_known)
        return false;
    memcpy(luid, &d3d.luid, sizeof(d3d.luid)); /* LowPart then HighPart, as cudaDeviceProp::luid */
    return true;
}

static BOOL CALLBACK make_device(PINIT_ONCE once, void *param, void **context)
{
    (void)once, (void)param, (void)context;
    IDXGIAdapter1 *adapter = paired_adapter();
    d3d.device_result = api() ? d3d.create_device((IUnknown *)adapter, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device,
                                                  (void **)&d3d.device)
                              : E_NOINTERFACE;
    if (adapter)
        IDXGIAdapter1_Release(adapter);
    return TRUE;
}

static ID3D12Device *own_device(void)
{
    static INIT_ONCE once = INIT_ONCE_STATIC_INIT;
    InitOnceExecuteOnce(&once, make_device, NULL, NULL);
    return d3d.device;
}

/* ---- Memory at an address, kept by a reference ---- */

struct owner {
    volatile LONG refs;
    ID3D12Resource *mapped; /* mapped for the CPU */
    ID3D12Heap *heap;       /* the heap it is placed over, or NULL */
};

static void owner_retain(void *o) { InterlockedIncrement(&((struct owner *)o)->refs); }

static void owner_release(void *o)
{
    struct owner *w = o;
    if (InterlockedDecrement(&w->refs) != 0)
        return;
    ID3D12Resource_Unmap(w->mapped, 0, NULL);
    ID3D12Resource_Release(w->mapped);
    if (w->heap)
        ID3D12Heap_Release(w->heap);
    free(w);
}

/* Upload and readback heaps, and custom heaps with a CPU page property: the CPU (the software
 * device) maps their memory, which is imported zero-copy. Other memory (DEFAULT heaps, custom
 * ones without a CPU page property, and everything that Direct3D 12 shares: Microsoft's "Shared
 * heaps" are never CPU-accessible) is reached through a staging copy (d3d12_staging.c). */
static bool cpu_visible(const D3D12_HEAP_PROPERTIES *p)
{
    return p->Type == D3D12_HEAP_TYPE_UPLOAD || p->Type == D3D12_HEAP_TYPE_READBACK ||
           (p->Type == D3D12_HEAP_TYPE_CUSTOM && p->CPUPageProperty != D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE &&
            p->CPUPageProperty != D3D12_CPU_PAGE_PROPERTY_UNKNOWN);
}

/* A failed Direct3D call as a CUDA code. E_NOTIMPL says that this Direct3D runtime lacks the
 * call (wine's vkd3d answers it from stubs: OpenExistingHeapFromFileMapping, OpenSharedHandle),
 * which is NOT_SUPPORTED, as extmem answers for everything this machine cannot do. */
static CUresult hresult_fail(const char *fn, const char *call, HRESULT hr)
{
    if (hr == E_NOTIMPL)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: this Direct3D 12 does not implement %s (E_NOTIMPL, HRESULT "
                    "0x%08lx)", fn, call, (unsigned long)hr);
    CUresult code = hr == E_OUTOFMEMORY ? CUDA_ERROR_OUT_OF_MEMORY
                    : hr == E_INVALIDARG ? CUDA_ERROR_INVALID_VALUE
                                         : CUDA_ERROR_OPERATING_SYSTEM;
    return fail(code, "%s: %s failed (HRESULT 0x%08lx)", fn, call, (unsigned long)hr);
}

/* Maps `resource` (a buffer) for the CPU and makes it *out, holding `resource` and `heap`. */
static CUresult source_from_buffer(const char *fn, ID3D12Resource *resource, ID3D12Heap *heap, size_t size,
                                   struct ext_source *out)
{
    void *ptr = NULL;
    HRESULT hr = ID3D12Resource_Map(resource, 0, NULL, &ptr);
    if (FAILED(hr))
        return hresult_fail(fn, "ID3D12Resource::Map", hr);
    struct owner *w = calloc(1, sizeof(*w));
    if (!w) {
        ID3D12Resource_Unmap(resource, 0, NULL);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    w->refs = 1;
    w->mapped = resource;
    ID3D12Resource_AddRef(resource);
    w->heap = heap;
    if (heap)
        ID3D12Heap_AddRef(heap);
    *out = (struct ext_source){
        .ptr = ptr, .size = size, .owner = w, .retain = owner_retain, .release = owner_release};
    return CUDA_SUCCESS;
}

/* A heap's memory: a buffer placed over all of it, mapped, or staged where the CPU cannot map it. */
static CUresult source_from_heap(const char *fn, ID3D12Heap *heap, struct ext_source *out)
{
    D3D12_HEAP_DESC desc;
    heap->lpVtbl->GetDesc(heap, &desc);
    if (desc.Flags & D3D12_HEAP_FLAG_DENY_BUFFERS)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: the heap denies buffers (D3D12_HEAP_FLAG_DENY_BUFFERS): the "
                    "software device reaches a heap through a buffer placed over it", fn);
    if (desc.SizeInBytes > SIZE_MAX)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: the heap does not fit this address space", fn);
    ID3D12Device *device = NULL;
    HRESULT hr = ID3D12Heap_GetDevice(heap, &IID_ID3D12Device, (void **)&device);
    if (FAILED(hr))
        return hresult_fail(fn, "ID3D12Heap::GetDevice", hr);
    D3D12_RESOURCE_DESC buffer = {D3D12_RESOURCE_DIMENSION_BUFFER, 0, desc.SizeInBytes, 1, 1, 1,
                                  DXGI_FORMAT_UNKNOWN, {1, 0}, D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
                                  (desc.Flags & D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER) ? D3D12_RESOURCE_FLAG_ALLOW_CROSS_ADAPTER
                                                                                      : D3D12_RESOURCE_FLAG_NONE};
    /* The states these heaps require of their resources. */
    D3D12_RESOURCE_STATES state = desc.Properties.Type == D3D12_HEAP_TYPE_UPLOAD     ? D3D12_RESOURCE_STATE_GENERIC_READ
                                  : desc.Properties.Type == D3D12_HEAP_TYPE_READBACK ? D3D12_RESOURCE_STATE_COPY_DEST
                                                                                     : D3D12_RESOURCE_STATE_COMMON;
    ID3D12Resource *placed = NULL;
    hr = ID3D12Device_CreatePlacedResource(device, heap, 0, &buffer, state, NULL, &IID_ID3D12Resource, (void **)&placed);
    ID3D12Device_Release(device);
    if (FAILED(hr))
        return hresult_fail(fn, "placing a buffer over the heap (ID3D12Device::CreatePlacedResource)", hr);
    CUresult r = cpu_visible(&desc.Properties) ? source_from_buffer(fn, placed, heap, (size_t)desc.SizeInBytes, out)
                                               : d3d12_staged_source(fn, placed, heap, (size_t)desc.SizeInBytes, out);
    ID3D12Resource_Release(placed); /* the owner holds it */
    return r;
}

/* A buffer resource's memory, mapped, or staged where the CPU cannot map it. */
static CUresult source_from_resource(const char *fn, ID3D12Resource *resource, struct ext_source *out)
{
    D3D12_RESOURCE_DESC desc;
    resource->lpVtbl->GetDesc(resource, &desc);
    /* A texture's own layout only Direct3D knows: it is staged in the layout Direct3D gives
     * texture copies (GetCopyableFootprints), wherever it lives, and mapped as CUDA arrays. */
    if (desc.Dimension != D3D12_RESOURCE_DIMENSION_BUFFER)
        return d3d12_staged_source(fn, resource, NULL, 0, out);
    D3D12_HEAP_PROPERTIES props;
    D3D12_HEAP_FLAGS flags;
    HRESULT hr = ID3D12Resource_GetHeapProperties(resource, &props, &flags);
    if (FAILED(hr)) /* a reserved (tiled) resource has no heap of its own */
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: the resource has no heap properties (a reserved resource?): "
                    "HRESULT 0x%08lx", fn, (unsigned long)hr);
    if (desc.Width > SIZE_MAX)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: the buffer does not fit this address space", fn);
    return cpu_visible(&props) ? source_from_buffer(fn, resource, NULL, (size_t)desc.Width, out)
                               : d3d12_staged_source(fn, resource, NULL, (size_t)desc.Width, out);
}

/* ---- cuImportExternalMemory with Direct3D types ---- */

static const char *d3d_type_name(CUexternalMemoryHandleType t)
{
    return t == CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP ? "D3D12_HEAP"
           : t == CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE ? "D3D12_RESOURCE"
           : t == CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE ? "D3D11_RESOURCE"
                                                               : "D3D11_RESOURCE_KMT";
}

CUresult d3d12_open_shared(const char *fn, const char *what, HANDLE handle, const WCHAR *name, REFIID iid, void **out)
{
    ID3D12Device *device = own_device();
    if (!device) {
        if (d3d.missing[0])
            return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: extmem has no Direct3D 12 device to open the handle with: %s",
                        fn, d3d.missing);
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: extmem has no Direct3D 12 device to open the handle with: "
                    "D3D12CreateDevice failed (HRESULT 0x%08lx)", fn, (unsigned long)d3d.device_result);
    }
    HANDLE opened = NULL;
    HRESULT hr = S_OK;
    if (!handle && FAILED(hr = ID3D12Device_OpenSharedHandleByName(device, name, GENERIC_ALL, &opened))) {
        if (hr == E_NOTIMPL)
            return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: this Direct3D 12 cannot open shared objects by name "
                        "(OpenSharedHandleByName: E_NOTIMPL; wine does not share Direct3D objects)", fn);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: no shared Direct3D 12 object has that name (HRESULT 0x%08lx)", fn,
                    (unsigned long)hr);
    }
    hr = ID3D12Device_OpenSharedHandle(device, handle ? handle : opened, iid, out);
    if (opened)
        CloseHandle(opened);
    if (hr == E_NOTIMPL)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: this Direct3D 12 cannot open shared handles (OpenSharedHandle: "
                    "E_NOTIMPL; wine does not share Direct3D objects)", fn);
    if (FAILED(hr))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the %s does not name a shared Direct3D 12 %s (OpenSharedHandle: "
                    "HRESULT 0x%08lx)", fn, handle ? "handle" : "name", what, (unsigned long)hr);
    return CUDA_SUCCESS;
}

/* An opened heap or resource (a reference of the caller's, released here) as *out: the size
 * rule (no more than Direct3D allocates: GetDesc, GetResourceAllocationInfo), then zero copy or
 * staged. */
static CUresult source_from_opened(const char *fn, unsigned long long size, void *object, bool is_heap,
                                   struct ext_source *out)
{
    ID3D12Device *device = own_device();
    unsigned long long allocation;
    if (is_heap) {
        D3D12_HEAP_DESC desc;
        ((ID3D12Heap *)object)->lpVtbl->GetDesc(object, &desc);
        allocation = desc.SizeInBytes;
    } else {
        D3D12_RESOURCE_DESC desc;
        D3D12_RESOURCE_ALLOCATION_INFO alloc_info;
        ((ID3D12Resource *)object)->lpVtbl->GetDesc(object, &desc);
        device->lpVtbl->GetResourceAllocationInfo(device, &alloc_info, 0, 1, &desc);
        allocation = alloc_info.SizeInBytes;
    }
    CUresult r;
    if (size > allocation)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: size %llu is more than the %s's %llu bytes (as Direct3D allocates it)",
                 fn, size, is_heap ? "heap" : "resource", allocation);
    else
        r = is_heap ? source_from_heap(fn, object, out) : source_from_resource(fn, object, out);
    IUnknown_Release((IUnknown *)object); /* the source holds what it needs */
    return r;
}

CUresult d3d_open_shared(const char *fn, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d, struct ext_source *out)
{
    HANDLE handle = d->handle.win32.handle;
    const WCHAR *name = d->handle.win32.name;
    DWORD info;
    /* The caller's NT handle: open, and never taken (the specification: it stays theirs). */
    if (handle && d->type != CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT && !GetHandleInformation(handle, &info))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s handle %p is not an open handle of this process", fn,
                    d3d_type_name(d->type), handle);
    /* A KMT handle is Direct3D 11's legacy sharing, which only Direct3D 11 opens. */
    if (d->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT)
        return d3d_open_d3d11_kmt(fn, d, out);
    /* Direct3D 12 opens Direct3D 11's NT handles and names too (as a resource). */
    bool is_heap = d->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP;
    void *object = NULL;
    CUresult r = d3d12_open_shared(fn, is_heap ? "heap" : "resource", handle, name,
                                   is_heap ? &IID_ID3D12Heap : &IID_ID3D12Resource, &object);
    if (r)
        return r;
    return source_from_opened(fn, d->size, object, is_heap, out);
}

CUresult d3d_open_opaque(const char *fn, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d, struct ext_source *out)
{
    /* What Direct3D 12's CreateSharedHandle and a Windows Vulkan driver's vkGetMemoryWin32HandleKHR
     * return: a D3DKMT shared resource, a heap or a resource. Only a runtime that shares opens it;
     * anything else is no Direct3D object, and the caller says what it is not. */
    ID3D12Device *device = own_device();
    if (!device)
        return CUDA_ERROR_NOT_FOUND;
    HANDLE handle = d->handle.win32.handle, opened = NULL;
    if (!handle && FAILED(ID3D12Device_OpenSharedHandleByName(device, d->handle.win32.name, GENERIC_ALL, &opened)))
        return CUDA_ERROR_NOT_FOUND;
    void *object = NULL;
    bool is_heap = true;
    HRESULT hr = ID3D12Device_OpenSharedHandle(device, handle ? handle : opened, &IID_ID3D12Heap, &object);
    if (FAILED(hr)) {
        is_heap = false;
        hr = ID3D12Device_OpenSharedHandle(device, handle ? handle : opened, &IID_ID3D12Resource, &object);
    }
    if (opened)
        CloseHandle(opened);
    if (FAILED(hr))
        return CUDA_ERROR_NOT_FOUND;
    log_info("%s: the OPAQUE_WIN32 %s is a Direct3D 12 %s", fn, handle ? "handle" : "name", is_heap ? "heap" : "resource");
    return source_from_opened(fn, d->size, object, is_heap, out);
}

/* ---- The other way round: extmem memory opened by Direct3D 12 ----
 * ID3D12Device3 (Windows 10 1709) opens a heap over existing memory. mingw-w64 10's d3d12.h
 * declares ID3D12Device1 at most: ID3D12Device2 adds one method (CreatePipelineState), then
 * come ID3D12Device3's, in this order. */
DEFINE_GUID(extmem_IID_ID3D12Device3, 0x81dadc15, 0x2bad, 0x4392, 0x93, 0xc5, 0x10, 0x13, 0x45, 0xc4, 0xaa, 0x98);
typedef struct device3_vtbl {
    ID3D12Device1Vtbl device1;
    void *CreatePipelineState; /* ID3D12Device2 */
    HRESULT(STDMETHODCALLTYPE *OpenExistingHeapFromAddress)(void *self, const void *address, REFIID riid, void **heap);
    HRESULT(STDMETHODCALLTYPE *OpenExistingHeapFromFileMapping)(void *self, HANDLE mapping, REFIID riid, void **heap);
} device3_vtbl;
typedef struct device3 {
    const device3_vtbl *lpVtbl;
} device3;

CUresult extmem_d3d12_open_memory(ID3D12Device *device, CUdeviceptr dptr, ID3D12Heap **heap)
{
    static const char fn[] = "extmem_d3d12_open_memory";
    if (!device || !heap)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !device ? "device" : "heap");
    *heap = NULL;
    /* The allocation's section, under the map's lock so that it cannot be freed meanwhile. */
    CUresult r = CUDA_SUCCESS;
    device3 *d3 = NULL;
    HRESULT hr;
    amap_lock_read();
    struct range *range = amap_find(&amap_memory, (uintptr_t)dptr);
    if (!range || (range->kind != RANGE_DEVICE && range->kind != RANGE_HOST))
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not in a cuMemAlloc or cuMemHostAlloc allocation (VMM "
                 "allocations: export a CU_MEM_HANDLE_TYPE_WIN32 handle and call OpenExistingHeapFromFileMapping)",
                 fn, (unsigned long long)dptr);
    else if (range->base != (uintptr_t)dptr)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is inside an allocation; give its start 0x%llx (a heap covers "
                 "the whole allocation)", fn, (unsigned long long)dptr, (unsigned long long)range->base);
    else if (FAILED(hr = ID3D12Device_QueryInterface(device, &extmem_IID_ID3D12Device3, (void **)&d3)))
        r = fail(CUDA_ERROR_NOT_SUPPORTED, "%s: this Direct3D 12 has no ID3D12Device3 (Windows 10 1709 and later "
                 "have it; wine 8 does not): it cannot open existing memory (HRESULT 0x%08lx)", fn, (unsigned long)hr);
    else if (FAILED(hr = d3->lpVtbl->OpenExistingHeapFromFileMapping(d3, range->mem.handle, &IID_ID3D12Heap,
                                                                      (void **)heap)))
        r = hresult_fail(fn, "ID3D12Device3::OpenExistingHeapFromFileMapping", hr);
    amap_unlock();
    if (d3)
        ID3D12Device_Release((ID3D12Device *)d3);
    return r;
}

/* ---- extmem/d3d.h ---- */

CUresult extmem_d3d12_create_shareable_heap(ID3D12Device *device, UINT64 size, ID3D12Heap **heap)
{
    static const char fn[] = "extmem_d3d12_create_shareable_heap";
    if (!device || !heap)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !device ? "device" : "heap");
    if (size == 0 || size > UINT64_MAX - 65535)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: size %llu: give a positive size", fn, (unsigned long long)size);
    /* System memory the CPU maps (write-back, as a readback heap is), for buffers only (the software
     * device has no texture layouts). Not D3D12_HEAP_FLAG_SHARED: Direct3D 12 shares no heap that
     * the CPU can reach (Microsoft's "Shared heaps"; D3D12_HEAP_FLAGS), so such a heap is for this
     * process; across processes, extmem's memory is what is shared (extmem_d3d12_open_memory). */
    D3D12_HEAP_DESC desc = {(size + 65535) / 65536 * 65536,
                            {D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0, 1, 1},
                            D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT, D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS};
    HRESULT hr = ID3D12Device_CreateHeap(device, &desc, &IID_ID3D12Heap, (void **)heap);
    if (FAILED(hr)) {
        *heap = NULL;
        return hresult_fail(fn, "ID3D12Device::CreateHeap", hr);
    }
    return CUDA_SUCCESS;
}

/* Both importers: a current context first, as cuImportExternalMemory asks. */
static CUresult import_object(const char *fn, void *object, bool is_heap, CUexternalMemory *out)
{
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    if (!object || !out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !object ? (is_heap ? "heap" : "buffer") : "extMem_out");
    struct ext_source src;
    if ((r = is_heap ? source_from_heap(fn, object, &src) : source_from_resource(fn, object, &src)))
        return r;
    return ext_import_source(fn, &src, 0,
                             is_heap ? CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP : CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE,
                             out);
}

CUresult extmem_d3d12_import_heap(ID3D12Heap *heap, CUexternalMemory *extMem_out)
{
    return import_object("extmem_d3d12_import_heap", heap, true, extMem_out);
}

CUresult extmem_d3d12_import_resource(ID3D12Resource *buffer, CUexternalMemory *extMem_out)
{
    return import_object("extmem_d3d12_import_resource", buffer, false, extMem_out);
}
