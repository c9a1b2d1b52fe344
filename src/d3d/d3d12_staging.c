/*
 * Direct3D 12 memory the CPU cannot reach, through a copy it can (Windows; docs/d3d-interop.md).
 *
 * What Direct3D 12 shares is never CPU-visible (Microsoft's "Shared heaps": shared heaps are
 * not supported on UPLOAD, READBACK or CUSTOM heaps with a CPU page property), and applications
 * keep their buffers in DEFAULT heaps. The software device is the CPU, so such memory is reached
 * through a staging buffer of the same size in a heap the CPU maps (CUSTOM, WRITE_BACK, L0, as a
 * readback heap), on the memory's own device: the mapped staging buffer is what CUDA sees, and
 * Direct3D copies (CopyBufferRegion on a queue of extmem's) keep the two coherent at the points
 * where the specification has the two APIs synchronise anyway: an external semaphore wait copies
 * the memory in once it has passed, a signal copies it out before it is made (both in stream
 * order; d3d_staged_sync), and the import copies it in once. Between those points each side
 * sees only its own writes, which is all that CUDA's interop rules promise.
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

#include <stdlib.h>

struct stager {
    struct staged base;    /* in the registry (staged.c) while it lives */
    SRWLOCK lock;          /* one copy at a time: the allocator and the list are not shared */
    ID3D12Device *device;  /* the memory's own */
    ID3D12CommandQueue *queue;
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    ID3D12Fence *fence;
    UINT64 fence_value;
    HANDLE done;
    ID3D12Resource *target;  /* the memory: a buffer, or one placed over a heap */
    ID3D12Heap *heap;        /* that heap, held; or NULL */
    ID3D12Resource *staging; /* CPU-visible, mapped at `ptr` */
    void *ptr;
    size_t size;
};

static void stager_free(struct staged *base)
{
    struct stager *s = (struct stager *)base;
    if (s->ptr)
        ID3D12Resource_Unmap(s->staging, 0, NULL);
    D3D_RELEASE(s->staging);
    D3D_RELEASE(s->target);
    D3D_RELEASE(s->heap);
    D3D_RELEASE(s->list);
    D3D_RELEASE(s->allocator);
    D3D_RELEASE(s->fence);
    D3D_RELEASE(s->queue);
    D3D_RELEASE(s->device);
    if (s->done)
        CloseHandle(s->done);
    free(s);
}

/* One copy, `in` (Direct3D's memory to the staging buffer) or out, waited for. */
static HRESULT stage(struct staged *base, bool in)
{
    struct stager *s = (struct stager *)base;
    AcquireSRWLockExclusive(&s->lock);
    HRESULT hr = ID3D12CommandAllocator_Reset(s->allocator);
    if (SUCCEEDED(hr))
        hr = ID3D12GraphicsCommandList_Reset(s->list, s->allocator, NULL);
    if (SUCCEEDED(hr)) {
        /* Buffers go from COMMON to COPY_SOURCE / COPY_DEST and back by themselves (implicit
         * state promotion and decay), so no barriers are needed. */
        if (in)
            ID3D12GraphicsCommandList_CopyBufferRegion(s->list, s->staging, 0, s->target, 0, s->size);
        else
            ID3D12GraphicsCommandList_CopyBufferRegion(s->list, s->target, 0, s->staging, 0, s->size);
        hr = ID3D12GraphicsCommandList_Close(s->list);
    }
    if (SUCCEEDED(hr)) {
        ID3D12CommandList *lists[] = {(ID3D12CommandList *)s->list};
        ID3D12CommandQueue_ExecuteCommandLists(s->queue, 1, lists);
        hr = ID3D12CommandQueue_Signal(s->queue, s->fence, ++s->fence_value);
    }
    /* A removed device completes every fence value (UINT64_MAX): this cannot wait forever. */
    if (SUCCEEDED(hr) && ID3D12Fence_GetCompletedValue(s->fence) < s->fence_value) {
        hr = ID3D12Fence_SetEventOnCompletion(s->fence, s->fence_value, s->done);
        if (SUCCEEDED(hr) && WaitForSingleObject(s->done, INFINITE) != WAIT_OBJECT_0)
            hr = HRESULT_FROM_WIN32(GetLastError());
    }
    ReleaseSRWLockExclusive(&s->lock);
    return hr;
}

CUresult d3d12_staged_source(const char *fn, ID3D12Resource *target, ID3D12Heap *heap, size_t size,
                             struct ext_source *out)
{
    struct stager *s = calloc(1, sizeof(*s));
    if (!s)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    s->base.destroy = stager_free;
    InitializeSRWLock(&s->lock);
    s->target = target;
    ID3D12Resource_AddRef(target);
    s->heap = heap;
    if (heap)
        ID3D12Heap_AddRef(heap);
    s->size = size;
    const char *call = "ID3D12Resource::GetDevice";
    HRESULT hr = ID3D12Resource_GetDevice(target, &IID_ID3D12Device, (void **)&s->device);
    if (SUCCEEDED(hr)) {
        D3D12_COMMAND_QUEUE_DESC q = {D3D12_COMMAND_LIST_TYPE_DIRECT, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
        call = "ID3D12Device::CreateCommandQueue";
        hr = ID3D12Device_CreateCommandQueue(s->device, &q, &IID_ID3D12CommandQueue, (void **)&s->queue);
    }
    if (SUCCEEDED(hr)) {
        call = "ID3D12Device::CreateCommandAllocator";
        hr = ID3D12Device_CreateCommandAllocator(s->device, D3D12_COMMAND_LIST_TYPE_DIRECT,
                                                 &IID_ID3D12CommandAllocator, (void **)&s->allocator);
    }
    if (SUCCEEDED(hr)) {
        call = "ID3D12Device::CreateCommandList";
        hr = ID3D12Device_CreateCommandList(s->device, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, s->allocator, NULL,
                                            &IID_ID3D12GraphicsCommandList, (void **)&s->list);
    }
    if (SUCCEEDED(hr)) {
        call = "ID3D12GraphicsCommandList::Close";
        hr = ID3D12GraphicsCommandList_Close(s->list);
    }
    if (SUCCEEDED(hr)) {
        call = "ID3D12Device::CreateFence";
        hr = ID3D12Device_CreateFence(s->device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&s->fence);
    }
    if (SUCCEEDED(hr) && !(s->done = CreateEventW(NULL, FALSE, FALSE, NULL))) {
        call = "CreateEvent";
        hr = HRESULT_FROM_WIN32(GetLastError());
    }
    if (SUCCEEDED(hr)) {
        D3D12_HEAP_PROPERTIES p = {D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0, 1,
                                   1};
        D3D12_RESOURCE_DESC b = {D3D12_RESOURCE_DIMENSION_BUFFER, 0, size, 1, 1, 1, DXGI_FORMAT_UNKNOWN, {1, 0},
                                 D3D12_TEXTURE_LAYOUT_ROW_MAJOR, D3D12_RESOURCE_FLAG_NONE};
        call = "creating the staging buffer (ID3D12Device::CreateCommittedResource)";
        hr = ID3D12Device_CreateCommittedResource(s->device, &p, D3D12_HEAP_FLAG_NONE, &b, D3D12_RESOURCE_STATE_COMMON,
                                                  NULL, &IID_ID3D12Resource, (void **)&s->staging);
    }
    if (SUCCEEDED(hr)) {
        call = "ID3D12Resource::Map";
        hr = ID3D12Resource_Map(s->staging, 0, NULL, &s->ptr);
    }
    if (SUCCEEDED(hr)) {
        call = "the first copy in";
        hr = stage(&s->base, true);
    }
    if (FAILED(hr)) {
        CUresult r = staged_failure(fn, "Direct3D 12", call, hr);
        stager_free(&s->base);
        return r;
    }
    s->base.copy = stage;
    s->base.size = size;
    s->base.api = "Direct3D 12";
    staged_add(&s->base, s->ptr, out);
    log_info("%s: %zu bytes of Direct3D 12 memory the CPU cannot reach, through a staging copy", fn, size);
    return CUDA_SUCCESS;
}
