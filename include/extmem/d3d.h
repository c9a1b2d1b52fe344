/*
 * extmem/d3d.h: Direct3D interop helpers of the software device (Windows only).
 *
 * The software device maps Direct3D 12 memory that the CPU can reach (a heap or a buffer in
 * system memory: a custom heap with a CPU page property, or an upload or readback heap) zero
 * copy; other buffer memory, and Direct3D 11 buffers, it reaches through a staging copy that
 * external semaphore waits copy in and signals copy out, in stream order. These helpers import
 * heaps and buffers of this process in one call; cuImportExternalMemory opens NT handles, names
 * and KMT handles from another device or process (what Direct3D shares is never CPU-visible:
 * staged). Across processes extmem's memory can also be opened by Direct3D 12
 * (extmem_d3d12_open_memory).
 * Device pairing: cuDeviceGetLuid (and cudaDeviceProp::luid) answers the LUID of the adapter the
 * software device works with (WARP), so code that picks its adapter by LUID finds it.
 * docs/d3d-interop.md has the rules.
 */
#ifndef EXTMEM_D3D_H
#define EXTMEM_D3D_H

#if !defined(_WIN32)
#error "extmem/d3d.h is for Windows: Direct3D exists there only"
#endif

#include <d3d11.h>
#include <d3d12.h>

#include "extmem/cuda.h"
#include "extmem/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Creates a heap of at least `size` bytes (rounded up to 64 KiB) that the software device can
 * import in this process: D3D12_HEAP_TYPE_CUSTOM with D3D12_CPU_PAGE_PROPERTY_WRITE_BACK in
 * D3D12_MEMORY_POOL_L0 (system memory), D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS. It is not a shared
 * heap (D3D12_HEAP_FLAG_SHARED): Direct3D 12 does not share heaps the CPU can reach (Microsoft's
 * "Shared heaps"), so it is not for ID3D12Device::CreateSharedHandle. *heap is a new reference. */
EXTMEM_API CUresult extmem_d3d12_create_shareable_heap(ID3D12Device *device, UINT64 size, ID3D12Heap **heap);

/* Imports a heap of this process as external memory of the current context: the memory's
 * size is the heap's. It must allow buffers. A CPU-visible heap (what
 * extmem_d3d12_create_shareable_heap makes) is imported zero copy; any other through a staging
 * copy on the heap's device, filled now, copied in when an external semaphore wait passes and
 * out before a signal. extmem holds a reference to it until the external memory and every
 * buffer mapped from it are gone. Type reported: D3D12_HEAP. */
EXTMEM_API CUresult extmem_d3d12_import_heap(ID3D12Heap *heap, CUexternalMemory *extMem_out);

/* The same for a buffer resource (committed or placed); its size is the buffer's width. Type
 * reported: D3D12_RESOURCE. */
EXTMEM_API CUresult extmem_d3d12_import_resource(ID3D12Resource *buffer, CUexternalMemory *extMem_out);

/* The other way round: a heap of `device` over the memory of the cuMemAlloc or cuMemHostAlloc
 * allocation that starts at dptr (ID3D12Device3::OpenExistingHeapFromFileMapping on its
 * section; Microsoft lists Windows 10 build 20348; wine 8 lacks ID3D12Device3 and wine 10 does
 * not implement the call: NOT_SUPPORTED): Direct3D then works on the software device's own
 * bytes. Another process can do the same with the section's NT handle (cuMemCreate with
 * CU_MEM_HANDLE_TYPE_WIN32, cuMemExportToShareableHandle): the cross-process way to share. Place buffers in it (D3D12_RESOURCE_FLAG_ALLOW_CROSS_ADAPTER) to copy to and from
 * them. Direct3D wants heaps in multiples of 64 KiB: allocate such sizes. *heap is a new
 * reference, which keeps the memory alive past cuMemFree. */
EXTMEM_API CUresult extmem_d3d12_open_memory(ID3D12Device *device, CUdeviceptr dptr, ID3D12Heap **heap);

/* Imports a Direct3D 11 buffer of this process in one call (type D3D11_RESOURCE, size = its
 * ByteWidth), through a staging copy: CUDA sees host memory of extmem's, filled now, copied in
 * when an external semaphore wait passes and out before a signal (docs/d3d-interop.md). The copies
 * use the buffer's device's immediate context from extmem's stream threads, under the device's
 * ID3D11Multithread lock, which this call turns on (SetMultithreadProtected). extmem holds a
 * reference to the buffer while the import or a buffer mapped from it lives.
 *   CUDA_ERROR_INVALID_VALUE   buffer or extMem_out is NULL
 *   CUDA_ERROR_NOT_SUPPORTED   a texture; no ID3D11Multithread
 *   CUDA_ERROR_INVALID_CONTEXT no current context */
EXTMEM_API CUresult extmem_d3d11_import_resource(ID3D11Resource *buffer, CUexternalMemory *extMem_out);

/* Imports a Direct3D 12 fence of this process as an external semaphore of type D3D12_FENCE,
 * in one call (no shared handle: any fence works, also where Direct3D cannot share one). A
 * stream's signal sets the fence's value from the CPU (ID3D12Fence::Signal), which releases
 * command queues that wait for it; a stream's wait sleeps until the fence reaches the value
 * (ID3D12Fence::SetEventOnCompletion). extmem holds a reference to the fence until
 * cuDestroyExternalSemaphore and the signals and waits queued before it are done.
 *   CUDA_ERROR_INVALID_VALUE   fence or extSem_out is NULL
 *   CUDA_ERROR_INVALID_CONTEXT no current context
 * A fence shared by NT handle or name is imported with cuImportExternalSemaphore (D3D12_FENCE),
 * where Direct3D can share fences (not under wine). */
EXTMEM_API CUresult extmem_d3d12_import_fence(ID3D12Fence *fence, CUexternalSemaphore *extSem_out);

#ifdef __cplusplus
}
#endif

#endif /* EXTMEM_D3D_H */
