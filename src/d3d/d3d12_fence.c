/*
 * Direct3D 12 fences as external semaphores (Windows; DESIGN.md §15; docs/external-semaphores.md).
 *
 * A fence is a 64-bit value that Direct3D queues and the CPU both move. The software device is
 * the CPU, so it uses the CPU's side of the fence: a stream's wait asks the fence for an event
 * at the value (ID3D12Fence::SetEventOnCompletion) and sleeps on it; a stream's signal sets the
 * value from the CPU (ID3D12Fence::Signal), which releases GPU queues that wait for it
 * (ID3D12CommandQueue::Wait) as a GPU signal would. NVIDIA's documentation of
 * cuSignalExternalSemaphoresAsync: a fence "will be set to the value specified".
 *
 * An ID3D12Fence in this process is imported in one call (extmem_d3d12_import_fence); a shared
 * one by its NT handle or name through cuImportExternalSemaphore, opened with extmem's own
 * Direct3D 12 device (d3d12.c).
 */
#define COBJMACROS
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#include <d3d12.h>

#include "d3d/d3d_private.h"
#include "extmem/d3d.h"

#include <stdlib.h>

struct fence_owner {
    ID3D12Fence *fence; /* a reference */
};

static void fence_signal(void *o, uint64_t value)
{
    struct fence_owner *f = o;
    HRESULT hr = ID3D12Fence_Signal(f->fence, value);
    if (FAILED(hr))
        log_warn("external semaphore: ID3D12Fence::Signal(%llu) failed (HRESULT 0x%08lx): the fence keeps its value",
                 (unsigned long long)value, (unsigned long)hr);
}

static uint64_t fence_value(void *o) { return ID3D12Fence_GetCompletedValue(((struct fence_owner *)o)->fence); }

sem_wait_result d3d_fence_wait(void *fence, const struct d3d_fence_calls *calls, uint64_t value, uint64_t timeout_ns)
{
    if (calls->completed(fence) >= value)
        return SEM_PASSED;
    HANDLE event = CreateEventW(NULL, FALSE, FALSE, NULL);
    if (!event) {
        log_info("external semaphore: CreateEvent failed (Windows error %lu)", (unsigned long)GetLastError());
        return SEM_FAILED;
    }
    sem_wait_result result = SEM_TIMED_OUT;
    HRESULT hr = calls->set_event(fence, value, event);
    if (FAILED(hr)) {
        log_info("external semaphore: %s::SetEventOnCompletion(%llu) failed (HRESULT 0x%08lx)", calls->name,
                 (unsigned long long)value, (unsigned long)hr);
        result = SEM_FAILED;
    } else {
        DWORD ms = timeout_ns >= (uint64_t)INFINITE * 1000000u ? INFINITE - 1 : (DWORD)((timeout_ns + 999999u) / 1000000u);
        if (WaitForSingleObject(event, ms) == WAIT_OBJECT_0 || calls->completed(fence) >= value)
            result = SEM_PASSED;
    }
    CloseHandle(event);
    return result;
}

static UINT64 completed12(void *fence) { return ID3D12Fence_GetCompletedValue((ID3D12Fence *)fence); }
static HRESULT set_event12(void *fence, UINT64 value, HANDLE event)
{
    return ID3D12Fence_SetEventOnCompletion((ID3D12Fence *)fence, value, event);
}
static const struct d3d_fence_calls calls12 = {"ID3D12Fence", completed12, set_event12};

static sem_wait_result fence_wait(void *o, uint64_t value, uint64_t timeout_ns)
{
    return d3d_fence_wait(((struct fence_owner *)o)->fence, &calls12, value, timeout_ns);
}

static void fence_release(void *o)
{
    struct fence_owner *f = o;
    ID3D12Fence_Release(f->fence);
    free(f);
}

/* Makes a semaphore of `fence`, taking the caller's reference to it whatever happens. */
static CUresult import_fence(const char *fn, ID3D12Fence *fence, CUexternalSemaphore *out)
{
    struct fence_owner *f = calloc(1, sizeof(*f));
    if (!f) {
        ID3D12Fence_Release(fence);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    f->fence = fence;
    struct sem_source src = {.owner = f, .timeline = true, .signal = fence_signal, .wait = fence_wait,
                             .value = fence_value, .release = fence_release};
    return ext_semaphore_from_source(fn, &src, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE, out);
}

CUresult extmem_d3d12_import_fence(ID3D12Fence *fence, CUexternalSemaphore *extSem_out)
{
    static const char fn[] = "extmem_d3d12_import_fence";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx); /* a current context first, as cuImportExternalSemaphore asks */
    if (r)
        return r;
    ctx_release(ctx);
    if (!fence || !extSem_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !fence ? "fence" : "extSem_out");
    ID3D12Fence_AddRef(fence);
    return import_fence(fn, fence, extSem_out);
}

CUresult d3d_open_fence(const char *fn, const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *d, CUexternalSemaphore *out)
{
    HANDLE handle = d->handle.win32.handle;
    DWORD info;
    /* The caller's NT handle: open, and never taken (NVIDIA's documentation: it holds a
     * reference of its own, which stays the caller's). */
    if (handle && !GetHandleInformation(handle, &info))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: D3D12_FENCE handle %p is not an open handle of this process", fn,
                    handle);
    ID3D12Fence *fence = NULL;
    CUresult r = d3d12_open_shared(fn, "D3D12_FENCE", handle, d->handle.win32.name, &IID_ID3D12Fence, (void **)&fence);
    if (r)
        return r;
    return import_fence(fn, fence, out);
}
