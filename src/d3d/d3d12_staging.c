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
 *
 * A texture is staged the same way into a buffer laid out as Direct3D lays textures out for
 * copies (GetCopyableFootprints: each subresource at its placed footprint, rows RowPitch apart),
 * copied with CopyTextureRegion per subresource; that layout is what the CUDA arrays mapped over
 * it use (struct ext_texture, cuExternalMemoryGetMappedMipmappedArray).
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
    /* A texture: its subresources' footprints in the staging buffer. */
    UINT subresources;
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT *footprints;
    struct ext_texture texture;
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
    free(s->footprints);
    free(s);
}

/* A texture's copies: every subresource, from COMMON (the state a texture shared with another
 * API is in at the semaphore points) to the copy state and back. */
static void copy_texture(struct stager *s, bool in)
{
    D3D12_RESOURCE_BARRIER b = {0};
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    b.Transition.pResource = s->target;
    b.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    b.Transition.StateBefore = D3D12_RESOURCE_STATE_COMMON;
    b.Transition.StateAfter = in ? D3D12_RESOURCE_STATE_COPY_SOURCE : D3D12_RESOURCE_STATE_COPY_DEST;
    ID3D12GraphicsCommandList_ResourceBarrier(s->list, 1, &b);
    for (UINT i = 0; i < s->subresources; ++i) {
        D3D12_TEXTURE_COPY_LOCATION tex = {.pResource = s->target, .Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX};
        tex.SubresourceIndex = i;
        D3D12_TEXTURE_COPY_LOCATION buf = {.pResource = s->staging, .Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT};
        buf.PlacedFootprint = s->footprints[i];
        if (in)
            ID3D12GraphicsCommandList_CopyTextureRegion(s->list, &buf, 0, 0, 0, &tex, NULL);
        else
            ID3D12GraphicsCommandList_CopyTextureRegion(s->list, &tex, 0, 0, 0, &buf, NULL);
    }
    b.Transition.StateBefore = b.Transition.StateAfter;
    b.Transition.StateAfter = D3D12_RESOURCE_STATE_COMMON;
    ID3D12GraphicsCommandList_ResourceBarrier(s->list, 1, &b);
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
        if (s->footprints)
            copy_texture(s, in);
        else if (in)
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

/* The texture's footprints in the staging buffer (s->device set): s->size, s->footprints and
 * s->texture. NOT_SUPPORTED for what CUDA arrays cannot be over (compressed or planar formats,
 * multisampled textures, array slices not equally spaced). */
static CUresult texture_layout(const char *fn, struct stager *s)
{
    D3D12_RESOURCE_DESC d;
    s->target->lpVtbl->GetDesc(s->target, &d);
    bool three_d = d.Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D;
    UINT levels = d.MipLevels ? d.MipLevels : 1, layers = three_d ? 1 : d.DepthOrArraySize;
    if (d.SampleDesc.Count > 1)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: the texture is multisampled: no CUDA array is", fn);
    if (levels > 16)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: the texture has %u levels: CUDA arrays have 16 at most", fn, levels);
    UINT n = levels * layers;
    UINT *rows = calloc(n, sizeof(*rows));
    UINT64 *row_bytes = calloc(n, sizeof(*row_bytes)), total = 0;
    s->footprints = calloc(n, sizeof(*s->footprints));
    if (!rows || !row_bytes || !s->footprints) {
        free(rows);
        free(row_bytes);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    ID3D12Device_GetCopyableFootprints(s->device, &d, 0, n, 0, s->footprints, rows, row_bytes, &total);
    s->subresources = n;
    struct ext_texture *t = &s->texture;
    t->width = (uint32_t)d.Width;
    t->height = d.Height;
    t->depth = three_d ? d.DepthOrArraySize : 1;
    t->layers = layers;
    t->levels = levels;
    t->one_d = d.Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE1D;
    /* A texel's bytes from the first row (uncompressed formats: the row is the width's texels). */
    t->elem_bytes = d.Width && row_bytes[0] % d.Width == 0 && rows[0] == d.Height ? (unsigned)(row_bytes[0] / d.Width) : 0;
    CUresult r = CUDA_SUCCESS;
    if (total == UINT64_MAX || total > SIZE_MAX)
        r = fail(CUDA_ERROR_NOT_SUPPORTED, "%s: GetCopyableFootprints gives the texture no copyable layout", fn);
    else if (!t->elem_bytes)
        r = fail(CUDA_ERROR_NOT_SUPPORTED, "%s: the texture's format (DXGI %d) is compressed or planar: CUDA arrays "
                 "over Direct3D textures have whole texels", fn, (int)d.Format);
    for (UINT m = 0; m < levels && !r; ++m) {
        const D3D12_PLACED_SUBRESOURCE_FOOTPRINT *f = &s->footprints[m];
        struct ext_layout_level *o = &t->level[m];
        o->offset = f->Offset;
        o->width = f->Footprint.Width;
        o->height = f->Footprint.Height;
        o->row_pitch = f->Footprint.RowPitch;
        uint64_t image = (uint64_t)f->Footprint.RowPitch * rows[m];
        o->depth = three_d ? f->Footprint.Depth : layers;
        o->slice_pitch = three_d || layers == 1 ? image : s->footprints[levels + m].Offset - f->Offset;
        /* Layers of a level must be equally spaced to be one CUDA level. */
        for (UINT l = 1; l < layers && !r; ++l)
            if (s->footprints[l * levels + m].Offset != f->Offset + l * o->slice_pitch)
                r = fail(CUDA_ERROR_NOT_SUPPORTED, "%s: the texture's array slices are not equally spaced in its "
                         "copyable layout", fn);
        /* The last row of the last slice ends at its bytes, not at a whole RowPitch: the copyable
         * layout's total (the staging buffer's size) counts it so (GetCopyableFootprints'
         * RowSizeInBytes). */
        uint64_t last = (uint64_t)f->Footprint.RowPitch * (rows[m] - 1) + row_bytes[m];
        o->size = three_d ? image * (f->Footprint.Depth - 1) + last : o->slice_pitch * (layers - 1) + last;
    }
    free(rows);
    free(row_bytes);
    s->size = (size_t)total;
    return r;
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
    if (SUCCEEDED(hr) && size == 0) {
        /* A texture: the staging buffer holds its copyable layout. */
        CUresult r = texture_layout(fn, s);
        if (r) {
            stager_free(&s->base);
            return r;
        }
        size = s->size;
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
    if (s->footprints)
        out->texture = &s->texture;
    log_info("%s: %zu bytes of Direct3D 12 %s the CPU cannot reach, through a staging copy", fn, size,
             s->footprints ? "texture" : "memory");
    return CUDA_SUCCESS;
}
