/*
 * src/d3d/d3d12_private.h: what the Direct3D 12 files share (Windows only): d3d12.c keeps
 * extmem's own device, d3d12_fence.c opens fences with it.
 */
#ifndef EXTMEM_D3D12_PRIVATE_H
#define EXTMEM_D3D12_PRIVATE_H

#include <windows.h>
#include <d3d12.h>

#include "d3d/d3d.h"

/* Opens the shared Direct3D 12 object of an NT handle (which stays the caller's) or of a name
 * with extmem's own device, as interface `iid`: *out is a new reference. `what` names the
 * handle type in messages. */
CUresult d3d12_open_shared(const char *fn, const char *what, HANDLE handle, const WCHAR *name, REFIID iid, void **out);

/* Direct3D 12 memory the CPU cannot reach, made *out through a CPU-visible staging copy on
 * the memory's own device (d3d12_staging.c): `target` is a buffer of `size` bytes (the memory,
 * or a buffer placed over `heap`, which is then held too). Filled from target before it returns;
 * then kept coherent by d3d_staged_sync. */
CUresult d3d12_staged_source(const char *fn, ID3D12Resource *target, ID3D12Heap *heap, size_t size,
                             struct ext_source *out);

#endif
