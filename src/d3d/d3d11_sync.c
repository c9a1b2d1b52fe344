/*
 * Direct3D 11 fences and keyed mutexes as external semaphores (Windows; DESIGN.md §15;
 * docs/external-semaphores.md). NVIDIA's cuda.h: a D3D11_FENCE handle is one
 * ID3D11Fence::CreateSharedHandle returned, and a signal sets the fence to the value; a keyed
 * mutex (D3D11_KEYED_MUTEX by the NT handle IDXGIResource1::CreateSharedHandle returned or by
 * name, D3D11_KEYED_MUTEX_KMT by the handle IDXGIResource::GetSharedHandle returned) is
 * acquired with a key and a timeout by a wait and released with a key by a signal.
 *
 * Both are opened with a Direct3D 11 device of extmem's own, made once (WARP where there is
 * one, else the default adapter); d3d11.dll is loaded at run time. A fence is signalled from
 * the device's immediate context (ID3D11DeviceContext4::Signal, then Flush), which is not
 * thread-safe: one lock guards it. A stream's wait on a fence sleeps on an event the fence sets
 * (SetEventOnCompletion); on a keyed mutex it calls AcquireSync in slices.
 */
#define COBJMACROS
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#include <initguid.h> /* the IIDs this file uses: no dxguid import library */
#include <d3d11_4.h>
#include <dxgi1_2.h>

#include "d3d/d3d_private.h"

#include <stdio.h>
#include <stdlib.h>

typedef HRESULT(WINAPI *create_device_fn)(IDXGIAdapter *, D3D_DRIVER_TYPE, HMODULE, UINT, const D3D_FEATURE_LEVEL *,
                                          UINT, UINT, ID3D11Device **, D3D_FEATURE_LEVEL *, ID3D11DeviceContext **);

static struct {
    ID3D11Device *device;
    ID3D11DeviceContext *context;
    HRESULT result;
    char missing[96];
    SRWLOCK context_lock; /* the immediate context is not thread-safe */
} d3d11 = {.context_lock = SRWLOCK_INIT};

static BOOL CALLBACK make_device(PINIT_ONCE once, void *param, void **context)
{
    (void)once, (void)param, (void)context;
    HMODULE lib = LoadLibraryA("d3d11.dll");
    create_device_fn create = lib ? (create_device_fn)(void (*)(void))GetProcAddress(lib, "D3D11CreateDevice") : NULL;
    if (!create) {
        snprintf(d3d11.missing, sizeof(d3d11.missing), "d3d11.dll cannot be loaded (Windows error %lu)",
                 (unsigned long)GetLastError());
        return TRUE;
    }
    /* WARP, the adapter the software device pairs with on Windows; wine has none: its default. */
    d3d11.result = create(NULL, D3D_DRIVER_TYPE_WARP, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &d3d11.device, NULL,
                          &d3d11.context);
    if (FAILED(d3d11.result))
        d3d11.result = create(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &d3d11.device, NULL,
                              &d3d11.context);
    return TRUE;
}

CUresult d3d11_own_device(const char *fn, ID3D11Device **device, ID3D11DeviceContext **context, SRWLOCK **lock)
{
    static INIT_ONCE once = INIT_ONCE_STATIC_INIT;
    InitOnceExecuteOnce(&once, make_device, NULL, NULL);
    if (d3d11.device) {
        *device = d3d11.device;
        *context = d3d11.context;
        *lock = &d3d11.context_lock;
        return CUDA_SUCCESS;
    }
    if (d3d11.missing[0])
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: extmem has no Direct3D 11 device to open the handle with: %s", fn,
                    d3d11.missing);
    return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: extmem has no Direct3D 11 device to open the handle with: "
                "D3D11CreateDevice failed (HRESULT 0x%08lx)", fn, (unsigned long)d3d11.result);
}

static CUresult open_failed(const char *fn, const char *call, const char *what, HRESULT hr)
{
    if (hr == E_NOTIMPL)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: this Direct3D 11 does not implement %s (E_NOTIMPL; wine shares no "
                    "Direct3D objects)", fn, call);
    return fail(CUDA_ERROR_INVALID_VALUE, "%s: the handle does not name a shared Direct3D 11 %s (%s: HRESULT 0x%08lx)",
                fn, what, call, (unsigned long)hr);
}

/* ---- Fences ---- */

struct fence_owner {
    ID3D11Fence *fence;
    ID3D11DeviceContext4 *context; /* extmem's immediate context, as version 4 (Signal) */
};

static void fence_signal(void *o, uint64_t value)
{
    struct fence_owner *f = o;
    AcquireSRWLockExclusive(&d3d11.context_lock);
    HRESULT hr = ID3D11DeviceContext4_Signal(f->context, f->fence, value);
    ID3D11DeviceContext4_Flush(f->context);
    ReleaseSRWLockExclusive(&d3d11.context_lock);
    if (FAILED(hr))
        log_warn("external semaphore: ID3D11DeviceContext4::Signal(%llu) failed (HRESULT 0x%08lx): the fence keeps "
                 "its value", (unsigned long long)value, (unsigned long)hr);
}

static uint64_t fence_value(void *o) { return ID3D11Fence_GetCompletedValue(((struct fence_owner *)o)->fence); }

static UINT64 completed11(void *fence) { return ID3D11Fence_GetCompletedValue((ID3D11Fence *)fence); }
static HRESULT set_event11(void *fence, UINT64 value, HANDLE event)
{
    return ID3D11Fence_SetEventOnCompletion((ID3D11Fence *)fence, value, event);
}
static const struct d3d_fence_calls calls11 = {"ID3D11Fence", completed11, set_event11};

static sem_wait_result fence_wait(void *o, uint64_t value, uint64_t timeout_ns)
{
    return d3d_fence_wait(((struct fence_owner *)o)->fence, &calls11, value, timeout_ns);
}

static void fence_release(void *o)
{
    struct fence_owner *f = o;
    ID3D11Fence_Release(f->fence);
    ID3D11DeviceContext4_Release(f->context);
    free(f);
}

static CUresult open_fence(const char *fn, ID3D11Device *device, HANDLE handle, CUexternalSemaphore *out)
{
    if (!handle)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: Direct3D 11 opens shared fences by NT handle only "
                    "(ID3D11Device5::OpenSharedFence): import the fence's handle", fn);
    ID3D11Device5 *device5 = NULL;
    ID3D11DeviceContext4 *context4 = NULL;
    if (FAILED(ID3D11Device_QueryInterface(device, &IID_ID3D11Device5, (void **)&device5)) ||
        FAILED(ID3D11DeviceContext_QueryInterface(d3d11.context, &IID_ID3D11DeviceContext4, (void **)&context4))) {
        if (device5)
            ID3D11Device5_Release(device5);
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: this Direct3D 11 has no ID3D11Device5 or ID3D11DeviceContext4, "
                    "which fences need (Windows 10 1703 and later; not wine)", fn);
    }
    ID3D11Fence *fence = NULL;
    HRESULT hr = ID3D11Device5_OpenSharedFence(device5, handle, &IID_ID3D11Fence, (void **)&fence);
    ID3D11Device5_Release(device5);
    if (FAILED(hr)) {
        ID3D11DeviceContext4_Release(context4);
        return open_failed(fn, "ID3D11Device5::OpenSharedFence", "fence", hr);
    }
    struct fence_owner *f = calloc(1, sizeof(*f));
    if (!f) {
        ID3D11Fence_Release(fence);
        ID3D11DeviceContext4_Release(context4);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    f->fence = fence;
    f->context = context4;
    struct sem_source src = {.owner = f, .timeline = true, .signal = fence_signal, .wait = fence_wait,
                             .value = fence_value, .release = fence_release};
    return ext_semaphore_from_source(fn, &src, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_FENCE, out);
}

/* ---- Keyed mutexes ---- */

struct mutex_owner {
    IDXGIKeyedMutex *mutex;
};

static void mutex_release_key(void *o, uint64_t key)
{
    HRESULT hr = IDXGIKeyedMutex_ReleaseSync(((struct mutex_owner *)o)->mutex, key);
    if (FAILED(hr))
        log_warn("external semaphore: IDXGIKeyedMutex::ReleaseSync(%llu) failed (HRESULT 0x%08lx): was it acquired?",
                 (unsigned long long)key, (unsigned long)hr);
}

static sem_wait_result mutex_acquire(void *o, uint64_t key, uint64_t timeout_ns)
{
    DWORD ms = (DWORD)((timeout_ns + 999999u) / 1000000u);
    HRESULT hr = IDXGIKeyedMutex_AcquireSync(((struct mutex_owner *)o)->mutex, key, ms);
    if (hr == S_OK)
        return SEM_PASSED;
    if (hr == (HRESULT)WAIT_TIMEOUT)
        return SEM_TIMED_OUT;
    if (hr == (HRESULT)WAIT_ABANDONED)
        return SEM_ABANDONED; /* acquired: its last owner went away holding it */
    log_info("external semaphore: IDXGIKeyedMutex::AcquireSync(%llu) failed (HRESULT 0x%08lx)", (unsigned long long)key,
             (unsigned long)hr);
    return SEM_FAILED;
}

static uint64_t mutex_value(void *o)
{
    (void)o;
    return 0; /* a keyed mutex has no value to read */
}

static void mutex_release(void *o)
{
    struct mutex_owner *m = o;
    IDXGIKeyedMutex_Release(m->mutex);
    free(m);
}

static CUresult open_mutex(const char *fn, ID3D11Device *device, const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *d,
                           CUexternalSemaphore *out)
{
    HANDLE handle = d->handle.win32.handle;
    ID3D11Resource *resource = NULL;
    HRESULT hr;
    const char *call;
    if (d->type == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT) {
        call = "ID3D11Device::OpenSharedResource";
        hr = ID3D11Device_OpenSharedResource(device, handle, &IID_ID3D11Resource, (void **)&resource);
    } else {
        ID3D11Device1 *device1 = NULL;
        if (FAILED(ID3D11Device_QueryInterface(device, &IID_ID3D11Device1, (void **)&device1)))
            return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: this Direct3D 11 has no ID3D11Device1 to open NT handles with",
                        fn);
        if (handle) {
            call = "ID3D11Device1::OpenSharedResource1";
            hr = ID3D11Device1_OpenSharedResource1(device1, handle, &IID_ID3D11Resource, (void **)&resource);
        } else {
            call = "ID3D11Device1::OpenSharedResourceByName";
            hr = ID3D11Device1_OpenSharedResourceByName(device1, d->handle.win32.name,
                                                        DXGI_SHARED_RESOURCE_READ | DXGI_SHARED_RESOURCE_WRITE,
                                                        &IID_ID3D11Resource, (void **)&resource);
        }
        ID3D11Device1_Release(device1);
    }
    if (FAILED(hr))
        return open_failed(fn, call, "resource", hr);
    IDXGIKeyedMutex *mutex = NULL;
    hr = ID3D11Resource_QueryInterface(resource, &IID_IDXGIKeyedMutex, (void **)&mutex);
    ID3D11Resource_Release(resource);
    if (FAILED(hr))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the shared resource has no keyed mutex (made without "
                    "D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX; HRESULT 0x%08lx)", fn, (unsigned long)hr);
    struct mutex_owner *m = calloc(1, sizeof(*m));
    if (!m) {
        IDXGIKeyedMutex_Release(mutex);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    m->mutex = mutex;
    struct sem_source src = {.owner = m, .timeline = false, .signal = mutex_release_key, .wait = mutex_acquire,
                             .value = mutex_value, .release = mutex_release};
    return ext_semaphore_from_source(fn, &src, d->type, out);
}

CUresult d3d_open_d3d11_sync(const char *fn, const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *d, CUexternalSemaphore *out)
{
    HANDLE handle = d->handle.win32.handle;
    DWORD info;
    /* An NT handle must be one of this process (a KMT handle is a token, not a handle). */
    if (handle && d->type != CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT &&
        !GetHandleInformation(handle, &info))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: handle %p is not an open handle of this process", fn, handle);
    ID3D11Device *device;
    ID3D11DeviceContext *context;
    SRWLOCK *lock;
    CUresult r = d3d11_own_device(fn, &device, &context, &lock);
    if (r)
        return r;
    if (d->type == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_FENCE)
        return open_fence(fn, device, handle, out);
    return open_mutex(fn, device, d, out);
}
