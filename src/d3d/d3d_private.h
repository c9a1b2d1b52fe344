/*
 * src/d3d/d3d_private.h: what the Direct3D files share (Windows only): d3d12.c and d3d11_sync.c
 * keep extmem's own devices, the other files open objects with them; staged.c keeps the memory
 * that staging copies reach.
 */
#ifndef EXTMEM_D3D_PRIVATE_H
#define EXTMEM_D3D_PRIVATE_H

#include <windows.h>
#include <d3d11.h>
#include <d3d12.h>

#include "d3d/d3d.h"

/* Opens the shared Direct3D 12 object of an NT handle (which stays the caller's) or of a name
 * with extmem's own device, as interface `iid`: *out is a new reference. `what` names the
 * handle type in messages. */
CUresult d3d12_open_shared(const char *fn, const char *what, HANDLE handle, const WCHAR *name, REFIID iid, void **out);

/* A fence's CPU side, the same in Direct3D 12 and 11 (ID3D12Fence, ID3D11Fence). */
struct d3d_fence_calls {
    const char *name; /* the interface, for messages */
    UINT64 (*completed)(void *fence);
    HRESULT (*set_event)(void *fence, UINT64 value, HANDLE event);
};
/* A stream's wait for `value`, up to timeout_ns: an event the fence sets (d3d12_fence.c). */
sem_wait_result d3d_fence_wait(void *fence, const struct d3d_fence_calls *calls, uint64_t value, uint64_t timeout_ns);

/* extmem's own Direct3D 11 device (WARP where there is one) and its immediate context, which
 * only a holder of *lock may use (d3d11_sync.c); NOT_SUPPORTED with the reason where there is
 * none. */
CUresult d3d11_own_device(const char *fn, ID3D11Device **device, ID3D11DeviceContext **context, SRWLOCK **lock);

/* A Direct3D 11 buffer shared by KMT handle (D3D11_RESOURCE_KMT), opened with extmem's Direct3D
 * 11 device and made *out through a staging copy (d3d11_memory.c). Rules checked already. */
CUresult d3d_open_d3d11_kmt(const char *fn, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d, struct ext_source *out);

/* Direct3D memory reached through a staging copy (d3d12_staging.c, d3d11_memory.c), in the
 * registry that d3d_staged_sync copies (staged.c). */
struct staged {
    struct list_node node;
    volatile LONG refs; /* the import's and its mapped buffers' (ext_source's retain/release) */
    HRESULT (*copy)(struct staged *s, bool in); /* in: Direct3D's to CUDA's; out: back; waited for */
    void (*destroy)(struct staged *s);          /* frees it, also one never added */
    size_t size;
    const char *api; /* for messages */
};
/* Adds s, set up and filled, with one reference, and makes *out of its bytes at ptr. */
void staged_add(struct staged *s, void *ptr, struct ext_source *out);
/* A failed Direct3D call while setting one up, as a CUDA code with the call named. */
CUresult staged_failure(const char *fn, const char *api, const char *call, HRESULT hr);

#define D3D_RELEASE(o)                               \
    do {                                             \
        if (o)                                       \
            IUnknown_Release((IUnknown *)(void *)o); \
    } while (0)

/* Direct3D 12 memory the CPU cannot reach, made *out through a CPU-visible staging copy on
 * the memory's own device (d3d12_staging.c): `target` is a buffer of `size` bytes (the memory,
 * or a buffer placed over `heap`, which is then held too), or (size 0) a texture, staged in its
 * copyable layout (out->texture says where its subresources are). Filled from target before it
 * returns; then kept coherent by d3d_staged_sync. */
CUresult d3d12_staged_source(const char *fn, ID3D12Resource *target, ID3D12Heap *heap, size_t size,
                             struct ext_source *out);

#endif
