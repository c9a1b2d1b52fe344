/*
 * Direct3D 11 buffers for the software device (Windows; docs/d3d-interop.md): a shared buffer
 * by KMT handle (D3D11_RESOURCE_KMT: IDXGIResource::GetSharedHandle, opened with Direct3D 11's
 * legacy ID3D11Device::OpenSharedResource on extmem's own device), and a buffer of this process
 * in one call (extmem_d3d11_import_resource). Direct3D 11 never lets the CPU map a buffer the GPU
 * uses, so both are reached through a staging copy, as Direct3D 12's DEFAULT heaps are
 * (d3d12_staging.c): host memory of extmem's is what CUDA sees; a copy in is CopyResource into a
 * D3D11_USAGE_STAGING buffer, Map and memcpy; a copy out the other way, then CopyResource back,
 * waited for with an event query. The immediate context is not thread-safe: extmem's own is
 * used under its lock, an application's under its device's ID3D11Multithread lock (which the
 * import turns on, as Direct3D 11's thread-safety layer is made for).
 */
#define COBJMACROS
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#include <d3d11_4.h>

#include "d3d/d3d_private.h"
#include "extmem/d3d.h"

#include <stdlib.h>
#include <string.h>

struct d3d11_stager {
    struct staged base;
    ID3D11DeviceContext *context;
    SRWLOCK *lock;           /* extmem's context: its lock; or NULL: */
    ID3D11Multithread *mt;   /* an application's context: its device's lock */
    ID3D11Buffer *target;
    ID3D11Buffer *staging;   /* D3D11_USAGE_STAGING, CPU read and write */
    ID3D11Query *done;       /* D3D11_QUERY_EVENT: a copy out has finished */
    void *host;              /* what CUDA sees */
    size_t size;
};

static void stager_free(struct staged *base)
{
    struct d3d11_stager *s = (struct d3d11_stager *)base;
    D3D_RELEASE(s->done);
    D3D_RELEASE(s->staging);
    D3D_RELEASE(s->target);
    D3D_RELEASE(s->mt);
    D3D_RELEASE(s->context);
    if (s->host)
        VirtualFree(s->host, 0, MEM_RELEASE);
    free(s);
}

static void enter(struct d3d11_stager *s)
{
    if (s->lock)
        AcquireSRWLockExclusive(s->lock);
    else
        ID3D11Multithread_Enter(s->mt);
}

static void leave(struct d3d11_stager *s)
{
    if (s->lock)
        ReleaseSRWLockExclusive(s->lock);
    else
        ID3D11Multithread_Leave(s->mt);
}

static HRESULT stage(struct staged *base, bool in)
{
    struct d3d11_stager *s = (struct d3d11_stager *)base;
    D3D11_MAPPED_SUBRESOURCE m;
    HRESULT hr;
    enter(s);
    if (in) {
        ID3D11DeviceContext_CopyResource(s->context, (ID3D11Resource *)s->staging, (ID3D11Resource *)s->target);
        /* Map waits for the copy. */
        if (SUCCEEDED(hr = ID3D11DeviceContext_Map(s->context, (ID3D11Resource *)s->staging, 0, D3D11_MAP_READ, 0, &m))) {
            memcpy(s->host, m.pData, s->size);
            ID3D11DeviceContext_Unmap(s->context, (ID3D11Resource *)s->staging, 0);
        }
    } else if (SUCCEEDED(hr = ID3D11DeviceContext_Map(s->context, (ID3D11Resource *)s->staging, 0, D3D11_MAP_WRITE, 0,
                                                      &m))) {
        memcpy(m.pData, s->host, s->size);
        ID3D11DeviceContext_Unmap(s->context, (ID3D11Resource *)s->staging, 0);
        ID3D11DeviceContext_CopyResource(s->context, (ID3D11Resource *)s->target, (ID3D11Resource *)s->staging);
        ID3D11DeviceContext_End(s->context, (ID3D11Asynchronous *)s->done);
        ID3D11DeviceContext_Flush(s->context);
        /* S_FALSE until the copy has run; a removed device answers an error: never forever. */
        while ((hr = ID3D11DeviceContext_GetData(s->context, (ID3D11Asynchronous *)s->done, NULL, 0, 0)) == S_FALSE)
            SwitchToThread();
    }
    leave(s);
    return FAILED(hr) ? hr : S_OK;
}

/* A Direct3D 11 resource (a reference of the caller's, kept or released here) as *out: a buffer
 * of no more than `size` bytes (0: its own), staged with `context` under `lock`, or (lock NULL)
 * under the device's ID3D11Multithread lock. */
static CUresult staged_buffer(const char *fn, ID3D11Resource *resource, unsigned long long size,
                              ID3D11DeviceContext *context, SRWLOCK *lock, struct ext_source *out)
{
    ID3D11Buffer *buffer = NULL;
    HRESULT hr = ID3D11Resource_QueryInterface(resource, &IID_ID3D11Buffer, (void **)&buffer);
    ID3D11Resource_Release(resource);
    if (FAILED(hr))
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: the resource is a Direct3D 11 texture, which extmem stages only "
                    "through Direct3D 12: share it by NT handle (D3D11_RESOURCE_MISC_SHARED_NTHANDLE, type "
                    "D3D11_RESOURCE) and map it as a mipmapped array, or copy it into a buffer", fn);
    D3D11_BUFFER_DESC desc;
    ID3D11Buffer_GetDesc(buffer, &desc);
    if (size > desc.ByteWidth) {
        ID3D11Buffer_Release(buffer);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: size %llu is more than the buffer's %u bytes", fn, size,
                    desc.ByteWidth);
    }
    struct d3d11_stager *s = calloc(1, sizeof(*s));
    if (!s) {
        ID3D11Buffer_Release(buffer);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    s->base.destroy = stager_free;
    s->target = buffer;
    s->size = desc.ByteWidth;
    s->context = context;
    ID3D11DeviceContext_AddRef(context);
    s->lock = lock;
    ID3D11Device *device = NULL;
    ID3D11Buffer_GetDevice(buffer, &device);
    const char *call = "ID3D11DeviceContext::QueryInterface(ID3D11Multithread)";
    hr = S_OK;
    if (!lock && SUCCEEDED(hr = ID3D11DeviceContext_QueryInterface(context, &IID_ID3D11Multithread, (void **)&s->mt)))
        ID3D11Multithread_SetMultithreadProtected(s->mt, TRUE); /* extmem's stream threads use the context too */
    if (SUCCEEDED(hr)) {
        D3D11_BUFFER_DESC b = {desc.ByteWidth, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE, 0,
                               0};
        call = "creating the staging buffer (ID3D11Device::CreateBuffer)";
        hr = ID3D11Device_CreateBuffer(device, &b, NULL, &s->staging);
    }
    if (SUCCEEDED(hr)) {
        D3D11_QUERY_DESC q = {D3D11_QUERY_EVENT, 0};
        call = "ID3D11Device::CreateQuery";
        hr = ID3D11Device_CreateQuery(device, &q, &s->done);
    }
    if (SUCCEEDED(hr) && !(s->host = VirtualAlloc(NULL, s->size, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE))) {
        call = "VirtualAlloc";
        hr = E_OUTOFMEMORY;
    }
    if (SUCCEEDED(hr)) {
        call = "the first copy in";
        hr = stage(&s->base, true);
    }
    ID3D11Device_Release(device);
    if (FAILED(hr)) {
        CUresult r = !lock && !s->mt ? fail(CUDA_ERROR_NOT_SUPPORTED, "%s: this Direct3D 11 has no ID3D11Multithread "
                                            "(Windows 10 and later): extmem cannot use the application's immediate "
                                            "context safely from its stream threads", fn)
                                     : staged_failure(fn, "Direct3D 11", call, hr);
        stager_free(&s->base);
        return r;
    }
    s->base.copy = stage;
    s->base.size = s->size;
    s->base.api = "Direct3D 11";
    staged_add(&s->base, s->host, out);
    log_info("%s: a Direct3D 11 buffer of %zu bytes, through a staging copy", fn, s->size);
    return CUDA_SUCCESS;
}

CUresult d3d_open_d3d11_kmt(const char *fn, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d, struct ext_source *out)
{
    ID3D11Device *device;
    ID3D11DeviceContext *context;
    SRWLOCK *lock;
    CUresult r = d3d11_own_device(fn, &device, &context, &lock);
    if (r)
        return r;
    ID3D11Resource *resource = NULL;
    HRESULT hr = ID3D11Device_OpenSharedResource(device, d->handle.win32.handle, &IID_ID3D11Resource,
                                                 (void **)&resource);
    if (hr == E_NOTIMPL)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: this Direct3D 11 does not implement OpenSharedResource (E_NOTIMPL; "
                    "wine shares no Direct3D objects)", fn);
    if (FAILED(hr))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: KMT handle 0x%llx names no shared Direct3D 11 resource "
                    "(ID3D11Device::OpenSharedResource: HRESULT 0x%08lx)", fn,
                    (unsigned long long)(uintptr_t)d->handle.win32.handle, (unsigned long)hr);
    return staged_buffer(fn, resource, d->size, context, lock, out);
}

CUresult extmem_d3d11_import_resource(ID3D11Resource *buffer, CUexternalMemory *extMem_out)
{
    static const char fn[] = "extmem_d3d11_import_resource";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    if (!buffer || !extMem_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !buffer ? "buffer" : "extMem_out");
    ID3D11Device *device = NULL;
    ID3D11DeviceContext *context = NULL;
    ID3D11Resource_GetDevice(buffer, &device);
    ID3D11Device_GetImmediateContext(device, &context);
    ID3D11Device_Release(device);
    ID3D11Resource_AddRef(buffer); /* staged_buffer takes a reference */
    struct ext_source src;
    r = staged_buffer(fn, buffer, 0, context, NULL, &src);
    ID3D11DeviceContext_Release(context);
    if (r)
        return r;
    return ext_import_source(fn, &src, 0, CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE, extMem_out);
}
