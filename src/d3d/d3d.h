/*
 * src/d3d/d3d.h: what the core asks of the Direct3D part (DESIGN.md §7). d3d12.c implements it
 * on Windows; none.c elsewhere.
 */
#ifndef EXTMEM_D3D_D3D_H
#define EXTMEM_D3D_D3D_H

#include "interop/interop.h"

/* Opens the Direct3D object a descriptor of a D3D type names (its NT handle stays the
 * caller's) and makes it memory at an address of this process: *out holds a reference to it.
 * The descriptor's handle/name rules are checked already. */
CUresult d3d_open_shared(const char *fn, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d, struct ext_source *out);

/* An OPAQUE_WIN32 handle or name that is no section: a Direct3D shared resource, as Direct3D
 * 12 and Windows Vulkan drivers export memory. Opened with extmem's Direct3D 12 device as a heap,
 * else a resource, and made *out (staged: shared memory is never CPU-visible). The handle stays
 * the caller's. CUDA_ERROR_NOT_FOUND, with no message set: no Direct3D object either; any other
 * failure has its message. */
CUresult d3d_open_opaque(const char *fn, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d, struct ext_source *out);

/* Imports the Direct3D 12 fence a D3D12_FENCE descriptor names by NT handle (which stays the
 * caller's) or name as an external semaphore (d3d12_fence.c). The descriptor's handle/name
 * rules are checked already. */
CUresult d3d_open_fence(const char *fn, const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *d, CUexternalSemaphore *out);

/* Imports a Direct3D 11 fence (D3D11_FENCE, by NT handle) or keyed mutex (D3D11_KEYED_MUTEX by NT
 * handle or name, D3D11_KEYED_MUTEX_KMT by KMT handle) as an external semaphore, opened with
 * extmem's own Direct3D 11 device (d3d11_sync.c). The descriptor's handle/name rules are
 * checked already; the caller's handle stays the caller's. */
CUresult d3d_open_d3d11_sync(const char *fn, const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *d, CUexternalSemaphore *out);

/* Keeps Direct3D memory reached through a staging copy coherent (d3d12_staging.c): `in` after an
 * external semaphore wait has passed (Direct3D's writes become CUDA's to read), out before a
 * signal is made (CUDA's writes become Direct3D's). Runs in stream order, from stream workers;
 * a no-op where nothing is staged. */
void d3d_staged_sync(bool in);

/* The LUID of the adapter the software device pairs with (WARP), when this process uses
 * DXGI or EXTMEM_D3D_PAIRING=1 asks; false otherwise (the device keeps its own). */
bool d3d_adapter_luid(unsigned char luid[8]);

#endif
